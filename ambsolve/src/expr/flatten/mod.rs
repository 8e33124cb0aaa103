//! Flattening: expressions become the model's constraints over its variables and
//! auxiliary ones, each auxiliary functionally determined by the variables it stands for
//! (so counts of solutions are those of the expressions).

mod arith;
mod logic;

use hashbrown::HashMap;

use crate::expr::{IntExpr, IntNode};
use crate::model::{Arg, Images, images_of};
use crate::model::{Cmp, IntArg, Lit, Model, Term};
use crate::var::{ModelId, Var, VarId};

/// The most values an auxiliary variable may have (as `constraints!`'s computed items):
/// a range variable's most, whatever its width costs nothing.
pub(crate) const WIDEST: i128 = u32::MAX as i128;

/// The most values of a variable an expression lists (a `max`, a lookup, a guarded
/// argument build their result from its values).
pub(crate) const LISTED_AT_MOST: i128 = 1 << 22;

/// A variable with integer values the model accepted: a user's, or an auxiliary one.
#[derive(Clone, Debug)]
pub(crate) struct Operand {
    pub(crate) var: VarId,
    pub(crate) model: ModelId,
    pub(crate) images: Images,
    /// The least and greatest image (0 and 0 without values).
    pub(crate) lo: i64,
    pub(crate) hi: i64,
}

impl Operand {
    fn new(var: VarId, model: ModelId, images: Images) -> Operand {
        let (lo, hi) = images.extremes().unwrap_or((0, 0));
        Operand {
            var,
            model,
            images,
            lo,
            hi,
        }
    }

    /// The operand of an `i64` variable.
    fn of(var: &Var<i64>) -> Operand {
        let images = images_of(&var.values).expect("i64 values are their own images");
        Operand::new(var.id, var.model, images)
    }

    /// `coef × self`.
    pub(crate) fn term(&self, coef: i64) -> Term {
        Term {
            var: self.var,
            model: self.model,
            coef,
            images: Ok(self.images.clone()),
        }
    }

    /// As an argument of a constraint kind.
    pub(crate) fn arg(&self) -> IntArg {
        IntArg(Arg::Var {
            var: self.var,
            model: self.model,
            images: Ok(self.images.clone()),
        })
    }

    /// A handle reading the variable's integer value.
    pub(crate) fn handle(&self) -> Var<i64> {
        Var {
            id: self.var,
            values: self.images.values(),
            model: self.model,
        }
    }
}

/// A value of an expression as a constraint's argument: a constant or a variable.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    Const(i128),
    Var(Operand),
}

impl Val {
    /// The least and greatest value.
    pub(crate) fn bounds(&self) -> (i128, i128) {
        match self {
            Val::Const(c) => (*c, *c),
            Val::Var(v) => (i128::from(v.lo), i128::from(v.hi)),
        }
    }
}

/// A linear form `Σ coefficient × operand + constant`, exact.
#[derive(Default)]
pub(crate) struct Lin {
    pub(crate) terms: Vec<(i128, Operand)>,
    pub(crate) constant: i128,
    /// A coefficient or the constant left `i128`.
    pub(crate) overflow: bool,
}

impl Lin {
    fn add_const(&mut self, c: Option<i128>) {
        match c.and_then(|c| c.checked_add(self.constant)) {
            Some(sum) => self.constant = sum,
            None => self.overflow = true,
        }
    }

    fn push(&mut self, coef: i128, operand: Operand) {
        self.terms.push((coef, operand));
    }

    /// The same form with each variable once and no zero coefficient.
    fn merged(mut self) -> Lin {
        let mut at: HashMap<VarId, usize> = HashMap::new();
        let mut terms: Vec<(i128, Operand)> = Vec::with_capacity(self.terms.len());
        for (coef, op) in self.terms.drain(..) {
            match at.get(&op.var) {
                Some(&k) => match terms[k].0.checked_add(coef) {
                    Some(sum) => terms[k].0 = sum,
                    None => self.overflow = true,
                },
                None => {
                    at.insert(op.var, terms.len());
                    terms.push((coef, op));
                }
            }
        }
        terms.retain(|(coef, _)| *coef != 0);
        Lin { terms, ..self }
    }

    /// The least and greatest value of the form (`None` past `i128`).
    pub(crate) fn bounds(&self) -> Option<(i128, i128)> {
        let (mut lo, mut hi) = (self.constant, self.constant);
        for (coef, op) in &self.terms {
            let a = coef.checked_mul(i128::from(op.lo))?;
            let b = coef.checked_mul(i128::from(op.hi))?;
            lo = lo.checked_add(a.min(b))?;
            hi = hi.checked_add(a.max(b))?;
        }
        Some((lo, hi))
    }
}

/// What flattening one comparison (or objective, or defined value) gathers: whether the
/// partial functions in it post their constraints plainly (it is required: an undefined
/// value rules the assignment out) or guard their arguments (it is reified: undefined
/// makes it false), and the literals that say it is defined.
pub(crate) struct Cx {
    pub(crate) root: bool,
    pub(crate) defined: Vec<Lit>,
    /// Undefined whatever the variables take (a constant division by zero).
    pub(crate) undefined: bool,
}

impl Cx {
    pub(crate) fn root() -> Cx {
        Cx {
            root: true,
            defined: Vec::new(),
            undefined: false,
        }
    }

    pub(crate) fn reified() -> Cx {
        Cx {
            root: false,
            ..Cx::root()
        }
    }
}

/// A boolean's value while flattening: decided, or a literal.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Truth {
    Const(bool),
    Lit(Lit),
}

impl std::ops::Not for Truth {
    type Output = Truth;
    fn not(self) -> Truth {
        match self {
            Truth::Const(b) => Truth::Const(!b),
            Truth::Lit(l) => Truth::Lit(!l),
        }
    }
}

/// One flattening session over a model.
pub(crate) struct Flat<'m, 'a> {
    pub(crate) model: &'m mut Model<'a>,
    /// The 0/1 auxiliary variables standing for literals, by literal (bool2int), and
    /// the auxiliary literals' own variables.
    ints: HashMap<Lit, Operand>,
    own: HashMap<VarId, Operand>,
}

impl<'m, 'a> Flat<'m, 'a> {
    pub(crate) fn new(model: &'m mut Model<'a>) -> Self {
        Flat {
            model,
            ints: HashMap::new(),
            own: HashMap::new(),
        }
    }

    /// Makes the model invalid with `message`.
    pub(crate) fn fail(&mut self, message: impl Into<String>) {
        self.model.invalid(message.into());
    }

    /// Whether the model is invalid (nothing more is worth posting).
    pub(crate) fn failed(&self) -> bool {
        self.model.error().is_some()
    }

    // ---- variables ----

    /// The values `v` can take; `None` (the model made invalid) for a variable over a
    /// range too wide to list.
    pub(crate) fn values_of(&mut self, v: &Val) -> Option<Vec<i128>> {
        match v {
            Val::Const(c) => Some(vec![*c]),
            Val::Var(op) => Some(self.listed(op)?.into_iter().map(i128::from).collect()),
        }
    }

    /// The images of `op`'s values, in index order; `None` (the model made invalid) for
    /// a variable over a range too wide to list.
    pub(crate) fn listed(&mut self, op: &Operand) -> Option<Vec<i64>> {
        if op.images.len() as i128 > LISTED_AT_MOST {
            self.fail(format!(
                "{} ranges over {}..={}: too wide to enumerate its values in this \
                 expression (at most {LISTED_AT_MOST}); a linear expression over it takes any range",
                self.model.name(op.var),
                op.lo,
                op.hi
            ));
            return None;
        }
        Some(op.images.iter().collect())
    }

    /// The distinct values `v` can take, in order (see [`values_of`](Flat::values_of)).
    pub(crate) fn distinct_values(&mut self, v: &Val) -> Option<Vec<i128>> {
        let mut values = self.values_of(v)?;
        values.sort_unstable();
        values.dedup();
        Some(values)
    }

    /// A user's variable (or constant) as an operand, if the model accepts it.
    pub(crate) fn operand_of(&mut self, arg: &IntArg) -> Option<Val> {
        match &arg.0 {
            Arg::Const(c) => Some(Val::Const(i128::from(*c))),
            Arg::Var { var, model, images } => {
                self.model.int(arg.clone())?;
                let images = images.as_ref().ok()?;
                Some(Val::Var(Operand::new(*var, *model, images.clone())))
            }
        }
    }

    /// A new auxiliary variable over `lo..=hi`; too wide, the model becomes invalid.
    pub(crate) fn aux(&mut self, name: &str, (lo, hi): (i128, i128)) -> Option<Operand> {
        let fits = i64::try_from(lo).is_ok() && i64::try_from(hi).is_ok();
        if !fits || hi - lo >= WIDEST {
            self.fail(format!(
                "an auxiliary variable ({name}) would range over {lo}..={hi}: too wide (at most {WIDEST} values)"
            ));
            return None;
        }
        let (lo, hi) = (lo as i64, hi as i64);
        let var: Var<i64> = self.model.named_range_var(name, lo..=hi);
        self.model.mark_auxiliary(var.id());
        Some(Operand::of(&var))
    }

    /// A new auxiliary variable over `values` (sorted, distinct).
    pub(crate) fn aux_over(&mut self, name: &str, values: Vec<i64>) -> Operand {
        let var: Var<i64> = self.model.named_var(name, values);
        self.model.mark_auxiliary(var.id());
        Operand::of(&var)
    }

    /// A new auxiliary literal (over a 0/1 integer variable, so it is a term too).
    pub(crate) fn new_lit(&mut self, name: &str) -> Lit {
        let var: Var<i64> = self.model.named_var(name, 0..=1i64);
        self.model.mark_auxiliary(var.id());
        let lit = Lit::from(&var);
        let op = Operand::of(&var);
        self.own.insert(op.var, op);
        lit
    }

    /// A 0/1 variable equal to `lit` (1 when it holds), and whether it is `lit`'s own
    /// variable read positively.
    pub(crate) fn int_of_lit(&mut self, lit: Lit) -> (Operand, bool) {
        if let Some(op) = self.own.get(&lit.var) {
            return (op.clone(), lit.when_true == Some(1));
        }
        if let Some(op) = self.ints.get(&lit) {
            return (op.clone(), true);
        }
        let var: Var<i64> = self.model.named_var("bool2int", 0..=1i64);
        self.model.mark_auxiliary(var.id());
        let op = Operand::of(&var);
        self.model.linear_reified([op.term(1)], Cmp::Eq, 1, lit);
        self.ints.insert(lit, op.clone());
        (op, true)
    }

    // ---- integers ----

    /// Adds `k × e` to `out`.
    pub(crate) fn lin(&mut self, e: &IntExpr, k: i128, cx: &mut Cx, out: &mut Lin) {
        match e.node() {
            IntNode::Const(Some(c)) => out.add_const(c.checked_mul(k)),
            IntNode::Const(None) => cx.undefined = true,
            IntNode::Sum(items, c) => {
                out.add_const(c.checked_mul(k));
                for (coef, item) in items {
                    match coef.checked_mul(k) {
                        Some(coef) => self.lin(item, coef, cx, out),
                        None => out.overflow = true,
                    }
                }
            }
            IntNode::Bool(b) => match self.truth(b) {
                Truth::Const(b) => out.add_const(Some(if b { k } else { 0 })),
                Truth::Lit(lit) => {
                    let (op, positive) = self.int_of_lit(lit);
                    if positive {
                        out.push(k, op);
                    } else {
                        out.add_const(Some(k));
                        out.push(-k, op);
                    }
                }
            },
            _ => match self.value(e, cx) {
                Some(Val::Const(c)) => out.add_const(c.checked_mul(k)),
                Some(Val::Var(op)) => out.push(k, op),
                None => {}
            },
        }
    }

    /// `e` as a constant or a variable (an auxiliary one for anything but a variable);
    /// `None` once the model is invalid or `e` undefined (then `cx.undefined`).
    pub(crate) fn value(&mut self, e: &IntExpr, cx: &mut Cx) -> Option<Val> {
        match e.node() {
            IntNode::Var(arg) => self.operand_of(arg),
            IntNode::Invalid(message) => {
                let message = message.to_string();
                self.fail(message);
                None
            }
            IntNode::Const(_) | IntNode::Sum(..) | IntNode::Bool(_) => {
                let mut lin = Lin::default();
                self.lin(e, 1, cx, &mut lin);
                self.materialize(lin, "sum")
            }
            _ => self.nonlinear(e, cx),
        }
    }

    /// A linear form as a constant or a variable (an auxiliary one tied by a linear
    /// equality unless the form is one variable).
    pub(crate) fn materialize(&mut self, lin: Lin, name: &str) -> Option<Val> {
        let lin = lin.merged();
        if lin.overflow {
            self.fail("a coefficient or a constant of an expression does not fit in an i128");
            return None;
        }
        match lin.terms.as_slice() {
            [] => return Some(Val::Const(lin.constant)),
            [(1, op)] if lin.constant == 0 => return Some(Val::Var(op.clone())),
            _ => {}
        }
        let Some(bounds) = lin.bounds() else {
            self.fail("an expression's value does not fit in an i128");
            return None;
        };
        let aux = self.aux(name, bounds)?;
        let mut lin = lin;
        lin.push(-1, aux.clone());
        self.post_lin(lin, Cmp::Eq);
        Some(Val::Var(aux))
    }

    /// The terms of `lin` in `i64` and its right-hand side (`Σ terms cmp rhs`), if they
    /// fit; else the model becomes invalid.
    fn linear_parts(&mut self, lin: &Lin) -> Option<(Vec<Term>, i64)> {
        let mut terms = Vec::with_capacity(lin.terms.len());
        for (coef, op) in &lin.terms {
            let Ok(coef) = i64::try_from(*coef) else {
                self.fail(format!(
                    "a coefficient of an expression, {coef}, does not fit in an i64"
                ));
                return None;
            };
            terms.push(op.term(coef));
        }
        let rhs = lin
            .constant
            .checked_neg()
            .and_then(|c| i64::try_from(c).ok());
        let Some(rhs) = rhs else {
            self.fail(format!(
                "a constant of an expression, {}, does not fit in an i64",
                lin.constant
            ));
            return None;
        };
        Some((terms, rhs))
    }

    /// The terms of `lin` in `i64` and its constant, for an objective; else the model
    /// becomes invalid.
    pub(crate) fn objective_parts(&mut self, lin: Lin) -> Option<(Vec<Term>, i64)> {
        let lin = lin.merged();
        if lin.overflow {
            self.fail("a coefficient or a constant of an expression does not fit in an i128");
            return None;
        }
        let (terms, rhs) = self.linear_parts(&lin)?;
        Some((terms, -rhs))
    }

    /// What the bounds of `lin` decide about `lin cmp 0`, if they decide it.
    fn decided(&mut self, lin: &Lin, cmp: Cmp) -> Option<bool> {
        let Some((lo, hi)) = lin.bounds() else {
            self.fail("an expression's value does not fit in an i128");
            return Some(false);
        };
        let always = match cmp {
            Cmp::Eq => lo == 0 && hi == 0,
            Cmp::Ne => lo > 0 || hi < 0,
            Cmp::Lt => hi < 0,
            Cmp::Le => hi <= 0,
            Cmp::Gt => lo > 0,
            Cmp::Ge => lo >= 0,
        };
        let never = match cmp {
            Cmp::Eq => lo > 0 || hi < 0,
            Cmp::Ne => lo == 0 && hi == 0,
            Cmp::Lt => lo >= 0,
            Cmp::Le => lo > 0,
            Cmp::Gt => hi <= 0,
            Cmp::Ge => hi < 0,
        };
        if always {
            Some(true)
        } else if never {
            Some(false)
        } else {
            None
        }
    }

    /// Requires `lin cmp 0`.
    pub(crate) fn post_lin(&mut self, lin: Lin, cmp: Cmp) {
        let lin = lin.merged();
        if lin.overflow {
            return self
                .fail("a coefficient or a constant of an expression does not fit in an i128");
        }
        match self.decided(&lin, cmp) {
            Some(true) => {}
            Some(false) => self.post_false(),
            None => {
                if let Some((terms, rhs)) = self.linear_parts(&lin) {
                    self.model.linear(terms, cmp, rhs);
                }
            }
        }
    }

    /// A literal equivalent to `lin cmp 0` (fully reified), or the constant it is.
    pub(crate) fn reify_lin(&mut self, lin: Lin, cmp: Cmp) -> Truth {
        let lin = lin.merged();
        if lin.overflow {
            self.fail("a coefficient or a constant of an expression does not fit in an i128");
            return Truth::Const(false);
        }
        if let Some(b) = self.decided(&lin, cmp) {
            return Truth::Const(b);
        }
        let Some((terms, rhs)) = self.linear_parts(&lin) else {
            return Truth::Const(false);
        };
        let lit = self.new_lit("comparison");
        self.model.linear_reified(terms, cmp, rhs, lit);
        Truth::Lit(lit)
    }

    /// Requires `lit <-> (lin cmp 0)`.
    pub(crate) fn reify_lin_into(&mut self, lin: Lin, cmp: Cmp, lit: Lit) {
        let lin = lin.merged();
        if lin.overflow {
            return self
                .fail("a coefficient or a constant of an expression does not fit in an i128");
        }
        match self.decided(&lin, cmp) {
            Some(b) => self.model.clause([if b { lit } else { !lit }]),
            None => {
                if let Some((terms, rhs)) = self.linear_parts(&lin) {
                    self.model.linear_reified(terms, cmp, rhs, lit);
                }
            }
        }
    }

    /// A constraint that never holds: the model has no solution.
    pub(crate) fn post_false(&mut self) {
        self.model.clause(Vec::<Lit>::new());
    }
}
