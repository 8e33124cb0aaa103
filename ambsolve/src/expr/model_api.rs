//! The `Model` methods that take expressions: require one, optimise one, name one's value.

use crate::expr::flatten::{Cx, Flat, Lin, Truth, Val};
use crate::expr::{BoolExpr, IntExpr};
use crate::model::{Lit, Model, Sense};
use crate::var::Var;

impl Model<'_> {
    /// Requires `condition` to hold: flattens it into the model's constraints, with
    /// auxiliary variables (as MiniZinc does).
    ///
    /// - A conjunction (`&`) is one constraint per part; a comparison of linear
    ///   expressions is a [`linear`](Model::linear) constraint; a disjunction (`|`,
    ///   [`implies`](BoolExpr::implies)) is a [`clause`](Model::clause) over literals
    ///   [fully reified](Model::linear_reified) with what they stand for, so it prunes as
    ///   soon as all but one of its sides are false; `^` and
    ///   [`iff`](BoolExpr::iff) are parity constraints.
    /// - Products, quotients, remainders, powers, `abs`, `min`, `max` and lookups at chosen
    ///   indices each get an auxiliary variable, sized from the bounds of their operands
    ///   and tied to them by a constraint (a table over the operands' values, or reified
    ///   equalities for a lookup among variables); booleans used as integers
    ///   ([`BoolExpr::to_int`]) get a 0/1 literal. Every auxiliary variable is
    ///   determined by the variables it stands for, so counts of solutions are those of
    ///   the condition over your variables.
    /// - **Undefined values** (`/` or `%` by zero, `pow` with a negative exponent, an index
    ///   outside its array) follow MiniZinc's relational semantics: the comparison
    ///   containing one is false. A required comparison rules those assignments out (the
    ///   constraints are posted as they are); one inside `|`, `!`, `implies` and the like
    ///   guards its arguments (a literal says whether they are defined, and the
    ///   argument is replaced by a safe value where it is not, so the auxiliary stays
    ///   determined) and is false there.
    ///
    /// Building never fails on the spot: a variable of another model, a value out of
    /// `i64` range, an auxiliary variable wider than 2²² values, a product over more
    /// than 2²⁰ pairs of values, or an expression nested more than 1000 deep makes the
    /// model invalid ([`SearchError::InvalidModel`](crate::SearchError::InvalidModel)).
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model};
    ///
    /// // x / y == 2 || y == 0, over -3..=3: a division by zero makes the comparison
    /// // false, and the other side holds.
    /// let mut m = Model::new();
    /// let x = m.var(-3..=3i64);
    /// let y = m.var(-3..=3i64);
    /// let (ex, ey) = (IntExpr::from(&x), IntExpr::from(&y));
    /// m.add((ex.clone() / &ey).eq(2) | ey.eq(0));
    /// let brute = (-3..=3i64)
    ///     .flat_map(|x| (-3..=3i64).map(move |y| (x, y)))
    ///     .filter(|&(x, y)| (y != 0 && x / y == 2) || y == 0)
    ///     .count() as u64;
    /// for engine in [Engine::Trail, Engine::Replay] {
    ///     assert_eq!(m.solve(engine).count()?.solutions, brute);
    /// }
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn add(&mut self, condition: impl Into<BoolExpr>) {
        Flat::new(self).post(&condition.into());
    }

    /// A literal that holds exactly when `condition` does (false where it is undefined):
    /// `condition` flattened as inside a disjunction.
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.var(0..10i64);
    /// let small = m.reify(IntExpr::from(&x).lt(3));
    /// m.clause([small]);
    /// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 3);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn reify(&mut self, condition: impl Into<BoolExpr>) -> Lit {
        let condition = condition.into();
        match Flat::new(self).truth(&condition) {
            Truth::Lit(lit) => lit,
            Truth::Const(b) => Lit::from(&self.named_var("constant", [b])),
        }
    }

    /// A variable equal to `expr` (the variable itself when `expr` is one): an
    /// expression's value, to read in solutions or to use in other constraints. An
    /// assignment where `expr` is undefined is ruled out.
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.var(1..4i64);
    /// let y = m.var(1..4i64);
    /// let area = m.int_var(IntExpr::from(&x) * &y);
    /// let areas: Vec<i64> = m.solve(Engine::Trail).solutions().map(|s| *s.value(&area)).collect();
    /// assert_eq!(areas, [1, 2, 3, 2, 4, 6, 3, 6, 9]);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn int_var(&mut self, expr: impl Into<IntExpr>) -> Var<i64> {
        let expr = expr.into();
        let mut flat = Flat::new(self);
        let mut cx = Cx::root();
        let value = flat.value(&expr, &mut cx);
        if cx.undefined {
            flat.post_false();
        }
        match value {
            Some(Val::Var(op)) => op.handle(),
            Some(Val::Const(c)) => match i64::try_from(c) {
                Ok(c) => self.named_var("constant", [c]),
                Err(_) => {
                    self.invalid(format!(
                        "an expression's value, {c}, does not fit in an i64"
                    ));
                    self.named_var("constant", [0])
                }
            },
            None => self.named_var("undefined", [0]),
        }
    }

    /// Asks for the solutions that make `expr` as small as possible (see
    /// [`minimize`](Model::minimize)): its linear part is the objective, each other part
    /// an auxiliary variable in it. An assignment where `expr` is undefined is ruled out.
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model};
    ///
    /// // The largest product x * y with x + y <= 7.
    /// let mut m = Model::new();
    /// let x = m.var(0..10i64);
    /// let y = m.var(0..10i64);
    /// let (ex, ey) = (IntExpr::from(&x), IntExpr::from(&y));
    /// m.add((ex.clone() + &ey).le(7));
    /// m.maximize_expr(ex * ey);
    /// let best = m.solve(Engine::Trail).best()?;
    /// assert_eq!((best.objective, best.proved), (Some(12), true));
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn minimize_expr(&mut self, expr: impl Into<IntExpr>) {
        self.objective_expr(Sense::Minimize, expr.into(), false);
    }

    /// Asks for the solutions that make `expr` as large as possible (see
    /// [`minimize_expr`](Model::minimize_expr)).
    pub fn maximize_expr(&mut self, expr: impl Into<IntExpr>) {
        self.objective_expr(Sense::Maximize, expr.into(), false);
    }

    /// Adds `expr` as a further objective, optimised once those before it are at their
    /// optima (see [`then_objective`](Model::then_objective)).
    ///
    /// ```
    /// use ambsolve::{Engine, IntExpr, Model, Sense};
    ///
    /// // The largest product x * y with x + y <= 7, then the smallest x - y.
    /// let mut m = Model::new();
    /// let x = m.var(1..=6i64);
    /// let y = m.var(1..=6i64);
    /// let (ex, ey) = (IntExpr::from(&x), IntExpr::from(&y));
    /// m.add((ex.clone() + &ey).le(7));
    /// m.maximize_expr(ex.clone() * ey.clone());
    /// m.then_objective_expr(Sense::Minimize, ex - ey);
    /// let best = m.solve(Engine::Trail).best()?;
    /// assert_eq!(best.objectives, vec![12, -1]);
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn then_objective_expr(&mut self, sense: Sense, expr: impl Into<IntExpr>) {
        self.objective_expr(sense, expr.into(), true);
    }

    /// `expr` as the objective, or (`then`) a further one.
    pub(crate) fn objective_expr(&mut self, sense: Sense, expr: IntExpr, then: bool) {
        let mut flat = Flat::new(self);
        let mut cx = Cx::root();
        let mut lin = Lin::default();
        flat.lin(&expr, 1, &mut cx, &mut lin);
        if cx.undefined {
            flat.post_false();
        }
        let Some((terms, constant)) = flat.objective_parts(lin) else {
            return;
        };
        if then {
            self.then_objective(sense, terms, constant);
        } else {
            self.objective(sense, terms, constant);
        }
    }
}
