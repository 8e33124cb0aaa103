//! What the code `constraints!` expands to calls: the model-building helpers of the macro,
//! re-exported as `ambsolve::__private` (not a public API: it may change in any release).
//! Generated code names only `::ambsolve::__private::..`, so the macro depends on this
//! module alone.

pub use std::vec::Vec;

pub use crate::model::{Assignment, Cmp, Model, Sense, Term};
pub use crate::puzzle::Puzzle;
pub use crate::var::{Var, VarId};

/// An array of choices as a puzzle's extractor keeps it: a run of consecutive
/// variables sharing one value list is its first id, its length and the list (a
/// million queens cost a few words, not a million handles); other arrays are listed.
pub struct Row<T>(Layout<T>);

enum Layout<T> {
    /// Variables `first, first + 1, ..` (`len` of them) over `values`, declared by
    /// `model`.
    Run {
        first: VarId,
        len: usize,
        values: crate::var::Values<T>,
        model: crate::var::ModelId,
    },
    Listed(Vec<Var<T>>),
}

impl<T: Clone> Row<T> {
    /// The array `vars`, compactly when it can be.
    pub fn new(vars: &[Var<T>]) -> Self {
        let Some(head) = vars.first() else {
            return Row(Layout::Listed(Vec::new()));
        };
        let run = vars.iter().enumerate().all(|(i, v)| {
            v.model == head.model
                && v.values.same(&head.values)
                && v.id.index() == head.id.index() + i
        });
        Row(if run {
            Layout::Run {
                first: head.id,
                len: vars.len(),
                values: head.values.clone(),
                model: head.model,
            }
        } else {
            Layout::Listed(vars.to_vec())
        })
    }

    /// The values the array's variables take in `assignment`.
    ///
    /// # Panics
    /// If `assignment` solves another model.
    pub fn read(&self, assignment: &Assignment) -> Vec<T> {
        match &self.0 {
            Layout::Run {
                first,
                len,
                values,
                model,
            } => {
                assert!(
                    *len == 0 || assignment.accepts(*model, (first.index() + len - 1) as u32),
                    "the assignment solves another model"
                );
                let from = first.index();
                assignment.indices()[from..from + len]
                    .iter()
                    .map(|&i| values[i as usize].clone())
                    .collect()
            }
            Layout::Listed(vars) => vars.iter().map(|v| assignment.value(v).clone()).collect(),
        }
    }
}

/// What a `constraints!` with a compile error stands for: any type, never run.
pub fn unbuilt<T>() -> T {
    unreachable!("constraints! reported a compile error")
}

/// The values of an `amb(..)`, collected. A puzzle is shared between threads, so its
/// values must be `Send + Sync`.
pub fn values<I: IntoIterator>(values: I) -> Vec<I::Item>
where
    I::Item: Shareable,
{
    values.into_iter().collect()
}

/// What a puzzle holds: a value that can be sent to and shared between threads.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be sent or shared between threads, and a puzzle holds it",
    label = "puzzles are `Send + Sync`, so this value must be too",
    note = "use `Arc` instead of `Rc`, atomics or a `Mutex` instead of `Cell` or `RefCell`"
)]
pub trait Shareable {}

impl<T: ?Sized + Send + Sync> Shareable for T {}

/// A value from outside that a condition borrows: the puzzle holds the reference, so
/// the value must be `Sync`.
pub fn captured<T: ?Sized + Shareable>(value: &T) -> &T {
    value
}

/// The ids of some variables.
pub fn ids<'v, T: 'v>(vars: impl IntoIterator<Item = &'v Var<T>>) -> Vec<VarId> {
    vars.into_iter().map(Var::id).collect()
}

pub use crate::exact::{Exact, Probe, ProbeInteger, ProbeOther, ProbeRef};
pub use crate::expr::dsl;

/// A comparison `x CMP y` between two chosen values, on its way into a model:
/// `(&&Compare(&x, &y)).linear(&mut model, cmp)` posts it as a linear constraint when
/// both are integers whose values fit in an `i64` (the trail engine then prunes by
/// bounds, not only once one side is fixed) and returns `true`; otherwise it returns
/// `false` and the caller posts the condition as a predicate. Either way it means the
/// same: integers compare exactly.
#[derive(Debug)]
pub struct Compare<'v, A, B>(pub &'v Var<A>, pub &'v Var<B>);

/// The integer side of [`Compare`]: chosen first, for primitive integers.
pub trait CompareInteger {
    /// Posts the comparison as a linear constraint, if the values fit.
    fn linear(&self, model: &mut Model<'_>, cmp: Cmp) -> bool;
}

impl<A: crate::model::Integer, B: crate::model::Integer> CompareInteger for &Compare<'_, A, B> {
    fn linear(&self, model: &mut Model<'_>, cmp: Cmp) -> bool {
        let (x, y) = (Term::new(1, self.0), Term::new(-1, self.1));
        if x.images.is_err() || y.images.is_err() {
            return false;
        }
        model.linear([x, y], cmp, 0);
        true
    }
}

/// The other side of [`Compare`]: any values, left to a predicate.
pub trait CompareOther {
    /// Posts nothing.
    fn linear(&self, model: &mut Model<'_>, cmp: Cmp) -> bool;
}

impl<A, B> CompareOther for Compare<'_, A, B> {
    fn linear(&self, _model: &mut Model<'_>, _cmp: Cmp) -> bool {
        false
    }
}

/// A user's integer (any primitive integer type) as an [`Exact`].
pub fn int<T: TryInto<i128>>(value: T) -> Exact {
    Exact::from_option(value.try_into().ok())
}

/// `value` as an `i64`; out of range, the model is made invalid (and 0 is returned).
pub fn narrow(model: &mut Model<'_>, value: Exact, what: &str) -> i64 {
    match value.get().map(i64::try_from) {
        Some(Ok(value)) => value,
        _ => {
            model.invalid(format!("{what} of a constraint does not fit in an i64"));
            0
        }
    }
}

/// The items of an all-different with computed items, each as its integer value
/// (`Var<i64>` over the images of the variable's values) and an offset.
#[derive(Debug, Default)]
pub struct Distinct {
    items: Vec<(Var<i64>, i64)>,
    /// Images already computed, by the address of a value list or range.
    images: std::collections::HashMap<usize, crate::model::Images>,
}

impl Distinct {
    /// No item yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `var + offset`; a value or offset out of `i64` range makes the model
    /// invalid.
    pub fn push<T: crate::model::Integer>(
        &mut self,
        model: &mut Model<'_>,
        var: &Var<T>,
        offset: Exact,
    ) {
        let offset = narrow(model, offset, "an offset");
        let key = var.values.address();
        let images = match self.images.get(&key) {
            Some(images) => images.clone(),
            None => match crate::model::images_of(&var.values) {
                Ok(images) => {
                    self.images.insert(key, images.clone());
                    images
                }
                Err(at) => return model.out_of_range(var.id, at),
            },
        };
        let as_integers = Var {
            id: var.id,
            values: images.values(),
            model: var.model,
        };
        self.items.push((as_integers, offset));
    }

    /// Posts the all-different.
    pub fn finish(self, model: &mut Model<'_>) {
        model.all_different_offset(self.items.iter().map(|(var, offset)| (var, *offset)));
    }
}

/// The widest an auxiliary choice may be (a range variable's most values).
const WIDEST: i128 = u32::MAX as i128;

/// An auxiliary choice equal to `Σ terms + constant`, over the values that sum can
/// take (a linear constraint ties them); too wide a range makes the model invalid.
pub fn computed(model: &mut Model<'_>, mut terms: Vec<Term>, constant: Exact) -> Var<i64> {
    let constant = narrow(model, constant, "a constant");
    let (mut low, mut high) = (i128::from(constant), i128::from(constant));
    for term in &terms {
        let Ok(images) = &term.images else {
            // The model records the value out of range when the constraint is posted.
            continue;
        };
        // coef × x is monotone in x: its extremes are at x's.
        if let Some((a, b)) = images.extremes() {
            let (a, b) = (
                i128::from(term.coef) * i128::from(a),
                i128::from(term.coef) * i128::from(b),
            );
            low += a.min(b);
            high += a.max(b);
        }
    }
    let (low, high) =
        if high - low >= WIDEST || i64::try_from(low).is_err() || i64::try_from(high).is_err() {
            model.invalid(format!(
                "an all_different item ranges over {low}..={high}: too wide for an auxiliary choice"
            ));
            (0, 0)
        } else {
            (low as i64, high as i64)
        };
    let aux = model.named_range_var("all_different item", low..=high);
    terms.push(Term::new(-1, &aux));
    model.linear(terms, Cmp::Eq, -constant);
    aux
}

/// A chosen value as an index into a list, if it is one.
pub fn as_index<T: Copy + TryInto<usize>>(value: &T) -> Option<usize> {
    (*value).try_into().ok()
}

/// `table[var]` in a linear constraint (an *element* constraint): an auxiliary choice
/// over the entries `read` gives for `var`'s values, tied to `var` by
/// [`Model::element`]'s propagator over constants, so the trail engine prunes both
/// ways. A value of `var` that reads nothing (an index past the end of the list) is
/// ruled out.
pub fn lookup<T, U: crate::model::Integer>(
    model: &mut Model<'_>,
    var: &Var<T>,
    read: impl Fn(&T) -> Option<U>,
) -> Var<i64> {
    let mut entries: Vec<Option<i64>> = Vec::with_capacity(var.values.len());
    for value in var.values.iter() {
        let entry = read(value).map(|entry| entry.to_i64());
        if entry == Some(None) {
            model.invalid(format!(
                "an entry read for {} does not fit in an i64",
                model.name(var.id)
            ));
        }
        entries.push(entry.flatten());
    }
    let mut values: Vec<i64> = entries.iter().flatten().copied().collect();
    values.sort_unstable();
    values.dedup();
    let looked = model.named_var(format!("{}'s entry", model.name(var.id)), values);
    if let Some(result) = model.int(&looked) {
        model.element_entries(var.id, entries, result);
    }
    looked
}

/// `array[index]` in a linear constraint, the array a list of choices and the index a
/// choice (an *element* constraint): an auxiliary choice over the images of the
/// array's values, tied to both by [`Model::element`]. Values of `index` past the end
/// of `array` are ruled out.
pub fn element<T: crate::model::Integer, I: Copy + TryInto<usize>>(
    model: &mut Model<'_>,
    array: &[Var<T>],
    index: &Var<I>,
) -> Var<i64> {
    let mut values: Vec<i64> = Vec::new();
    for var in array {
        match crate::model::images_of(&var.values) {
            Ok(list) => values.extend(list.iter()),
            Err(at) => model.out_of_range(var.id, at),
        }
    }
    values.sort_unstable();
    values.dedup();
    let result = model.named_var(format!("element of {}", model.name(index.id)), values);
    // The index as positions; a value that is none reads -1, outside every array.
    let positions = index
        .values
        .iter()
        .map(|v| {
            as_index(v)
                .and_then(|p| i64::try_from(p).ok())
                .unwrap_or(-1)
        })
        .collect();
    let index = Var {
        id: index.id,
        values: crate::var::Values::List(positions),
        model: index.model,
    };
    model.element(&index, array, &result);
    result
}

/// The linear term `coef × var`; a coefficient out of range makes the model invalid.
pub fn term<T: crate::model::Integer>(model: &mut Model<'_>, coef: Exact, var: &Var<T>) -> Term {
    Term::new(narrow(model, coef, "a coefficient"), var)
}

/// A chosen value, cloned out of its variable's list.
pub fn value<T: Clone>(var: &Var<T>, index: u32) -> T {
    var.value(index as usize).clone()
}
