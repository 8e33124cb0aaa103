//! What the constraint kinds of this folder take: literals ([`Lit`]) and integer
//! arguments that are constants or variables ([`IntArg`]).

use std::ops::Not;

use crate::model::constraint::Constraint;
use crate::model::integer::{Images, Integer, Trend, images_of};
use crate::model::{Cmp, LinearDef, Model};
use crate::var::{ModelId, Var, VarId};

/// A boolean variable, or its negation: what clauses and reified constraints take.
///
/// Make one from a `Var<bool>` (`Lit::from(&b)`, or `&b` where a method takes
/// `impl Into<Lit>`), or from an integer variable over 0 and 1 (true when it is 1, as
/// MiniZinc's `bool2int`), and negate it with `!`. A variable used as a literal lists
/// each of its two values at most once (`m.var([false, true])`, `m.var(0..2)`); one
/// value only is fine (a literal that is always true or always false). Another value,
/// or one listed twice, makes the model invalid when the literal is used.
///
/// ```
/// use ambsolve::{Engine, Lit, Model};
///
/// // a || !b, over two booleans: three of the four assignments.
/// let mut m = Model::new();
/// let a = m.var([false, true]);
/// let b = m.var([false, true]);
/// m.clause([Lit::from(&a), !Lit::from(&b)]);
/// assert_eq!(m.solve(Engine::Trail).count()?.solutions, 3);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lit {
    pub(crate) var: VarId,
    pub(crate) model: ModelId,
    /// The value index that makes the literal true, if the variable has one.
    pub(crate) when_true: Option<u32>,
    /// The value index that makes the literal false, if the variable has one.
    pub(crate) when_false: Option<u32>,
    /// A value listed twice, or an integer other than 0 and 1: the model refuses the
    /// literal.
    pub(crate) repeated: bool,
}

impl Lit {
    /// The variable under the literal.
    pub fn var(&self) -> VarId {
        self.var
    }

    /// The literal's truth when its variable takes value index `index`.
    #[inline]
    pub(crate) fn truth(&self, index: u32) -> bool {
        self.when_true == Some(index)
    }
}

impl std::fmt::Debug for Lit {
    /// `v3#1`: true when variable `v3` takes value index 1 (`#-` for a literal that can
    /// never be true). The model's identity is left out: it differs from run to run.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.when_true {
            Some(index) => write!(f, "{:?}#{index}", self.var),
            None => write!(f, "{:?}#-", self.var),
        }
    }
}

impl From<&Var<bool>> for Lit {
    fn from(var: &Var<bool>) -> Self {
        let position = |wanted: bool| {
            var.values()
                .iter()
                .position(|&v| v == wanted)
                .map(|i| i as u32)
        };
        let count = |wanted: bool| var.values().iter().filter(|&&v| v == wanted).count();
        Lit {
            var: var.id,
            model: var.model,
            when_true: position(true),
            when_false: position(false),
            repeated: count(true) > 1 || count(false) > 1,
        }
    }
}

impl<T: Integer> From<&Var<T>> for Lit {
    /// The literal "`var` is 1", for an integer variable over 0 and 1.
    fn from(var: &Var<T>) -> Self {
        if let Ok(Images::Range { first, len }) = images_of(&var.values) {
            // A range: 0 and 1 are at known indices, and no value repeats.
            let at = |wanted: i64| {
                let index = wanted.checked_sub(first)?;
                (0..i64::from(len)).contains(&index).then_some(index as u32)
            };
            let last = first.saturating_add(i64::from(len) - 1);
            return Lit {
                var: var.id,
                model: var.model,
                when_true: at(1),
                when_false: at(0),
                repeated: len > 0 && (first < 0 || last > 1),
            };
        }
        let images: Vec<Option<i64>> = var.values().iter().map(|v| v.to_i64()).collect();
        let position = |wanted: i64| {
            images
                .iter()
                .position(|&v| v == Some(wanted))
                .map(|i| i as u32)
        };
        let count = |wanted: i64| images.iter().filter(|&&v| v == Some(wanted)).count();
        let others = images.iter().any(|v| !matches!(v, Some(0 | 1)));
        Lit {
            var: var.id,
            model: var.model,
            when_true: position(1),
            when_false: position(0),
            repeated: others || count(1) > 1 || count(0) > 1,
        }
    }
}

impl Not for Lit {
    type Output = Lit;

    /// The negation: true exactly when `self` is false.
    fn not(self) -> Lit {
        Lit {
            when_true: self.when_false,
            when_false: self.when_true,
            ..self
        }
    }
}

/// An integer argument of a constraint: a constant, or a variable with integer values.
///
/// Methods that take `impl Into<IntArg>` accept `&Var<T>` for any primitive integer `T`
/// and plain `i64` constants alike: `m.cumulative(&starts, [3, 2, 4], [1, 1, 2], 2)`.
#[derive(Clone, Debug)]
pub struct IntArg(pub(crate) Arg);

#[derive(Clone, Debug)]
pub(crate) enum Arg {
    Const(i64),
    Var {
        var: VarId,
        model: ModelId,
        /// The integer image of each value, or the position of the first value that has
        /// none (out of `i64` range).
        images: Result<Images, usize>,
    },
}

impl From<i64> for IntArg {
    fn from(value: i64) -> Self {
        IntArg(Arg::Const(value))
    }
}

impl<T: Integer> From<&Var<T>> for IntArg {
    fn from(var: &Var<T>) -> Self {
        IntArg(Arg::Var {
            var: var.id,
            model: var.model,
            images: images_of(&var.values),
        })
    }
}

impl<T: Integer> From<&&Var<T>> for IntArg {
    fn from(var: &&Var<T>) -> Self {
        IntArg::from(*var)
    }
}

/// An integer argument once the model accepted it: a constant, or a variable with the
/// integer image of each of its values.
#[derive(Clone, Debug)]
pub(crate) enum Int {
    Const(i64),
    Var { var: VarId, images: Images },
}

impl Int {
    /// Its value when each variable `v` takes value index `values[v.index()]`.
    #[inline]
    pub(crate) fn value(&self, values: &[u32]) -> i64 {
        match self {
            Int::Const(c) => *c,
            Int::Var { var, images } => images.get(values[var.index()] as usize),
        }
    }

    /// The variable, if it is one.
    pub(crate) fn var(&self) -> Option<VarId> {
        match self {
            Int::Const(_) => None,
            Int::Var { var, .. } => Some(*var),
        }
    }

    /// The smallest and largest value it can take (`(0, 0)` for a variable without
    /// values).
    pub(crate) fn range(&self) -> (i64, i64) {
        match self {
            Int::Const(c) => (*c, *c),
            Int::Var { images, .. } => images.extremes().unwrap_or((0, 0)),
        }
    }

    /// How it reads in a description.
    pub(crate) fn describe(&self) -> String {
        match self {
            Int::Const(c) => c.to_string(),
            Int::Var { var, .. } => format!("{var:?}"),
        }
    }
}

/// `a, b, c`: how a list of arguments reads in a constraint's description.
pub(crate) fn describe_all(items: &[Int]) -> String {
    items
        .iter()
        .map(Int::describe)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The variables among `args`, in order.
pub(crate) fn vars_of<'i>(args: impl IntoIterator<Item = &'i Int>) -> Vec<VarId> {
    args.into_iter().filter_map(Int::var).collect()
}

/// Reading the arguments every kind shares: a model refuses another model's variables and
/// values it cannot use, remembering why.
impl Model<'_> {
    /// `int` as a kind that tabulates its values takes it: itself, or, for a variable of
    /// more than [`TABULATED_AT_MOST`](super::TABULATED_AT_MOST) values, its
    /// [`listed_alias`](Model::listed_alias) over `values(images)` (sorted, distinct).
    pub(crate) fn listed_if_wide(
        &mut self,
        int: Int,
        values: impl FnOnce(&Images) -> Vec<i64>,
    ) -> Int {
        match &int {
            Int::Var { var, images } if images.len() > super::TABULATED_AT_MOST => {
                let (var, images) = (*var, images.clone());
                let values = values(&images);
                self.listed_alias(var, &images, values)
            }
            _ => int,
        }
    }

    /// A variable over `values` (sorted, distinct) equal to `var` (whose images are
    /// `images`), for a kind that tabulates its variables' values: a variable over
    /// millions of values stands behind it, and the kind's tables are as long as
    /// `values`. The new variable is determined by `var`: the solutions are the same.
    pub(crate) fn listed_alias(&mut self, var: VarId, images: &Images, values: Vec<i64>) -> Int {
        let name = format!("{} (listed)", self.name(var));
        let listed = self.named_var(name, values.iter().copied());
        self.mark_auxiliary(listed.id());
        let listed_images = Images::from(values);
        // listed - var == 0 (the listed side's images rise along its indices).
        let equal = LinearDef {
            terms: vec![
                (listed.id, 1, listed_images.clone()),
                (var, -1, images.clone()),
            ],
            trends: smallvec::smallvec![Trend::Rising, images.trend()],
            cmp: Cmp::Eq,
            rhs: 0,
        };
        self.constraints.push(Constraint::Linear(equal));
        Int::Var {
            var: listed.id,
            images: listed_images,
        }
    }

    /// `lit`, if it is a literal this model can use; else the model remembers why not.
    pub(crate) fn lit(&mut self, lit: Lit) -> Option<Lit> {
        if !self.declared(lit.model, lit.var) || !self.known(&[lit.var]) {
            return None;
        }
        if lit.repeated {
            let name = self.name(lit.var);
            self.fail(format!(
                "{name} is used as a literal but lists false or true twice, or takes an integer other than 0 and 1"
            ));
            return None;
        }
        Some(lit)
    }

    /// Every literal of `lits`, if the model can use them all.
    pub(crate) fn lits<L: Into<Lit>>(
        &mut self,
        lits: impl IntoIterator<Item = L>,
    ) -> Option<Vec<Lit>> {
        lits.into_iter()
            .map(|l| self.lit(l.into()))
            .collect::<Option<Vec<Lit>>>()
    }

    /// `arg` as the model uses it, if it can; else the model remembers why not.
    pub(crate) fn int(&mut self, arg: impl Into<IntArg>) -> Option<Int> {
        match arg.into().0 {
            Arg::Const(c) => Some(Int::Const(c)),
            Arg::Var { var, model, images } => {
                if !self.declared(model, var) || !self.known(&[var]) {
                    return None;
                }
                match images {
                    Ok(images) => Some(Int::Var { var, images }),
                    Err(at) => {
                        self.out_of_range(var, at);
                        None
                    }
                }
            }
        }
    }

    /// Every argument of `args`, if the model can use them all.
    pub(crate) fn ints<A: Into<IntArg>>(
        &mut self,
        args: impl IntoIterator<Item = A>,
    ) -> Option<Vec<Int>> {
        args.into_iter()
            .map(|a| self.int(a))
            .collect::<Option<Vec<Int>>>()
    }
}
