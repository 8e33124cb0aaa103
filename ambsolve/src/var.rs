//! Variables: an untyped id for the engines, a typed handle holding the values for users.
//!
//! The ground floor: a variable is a position and a shared list of values, marked with the
//! identity of the model that declared it; it knows no store or engine.

use std::fmt;
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// A variable of a [`Model`](crate::Model), by position. Cheap to copy; the engines work
/// with these and with value indices.
///
/// An id taken from a variable ([`Var::id`], [`Model::var_ids`](crate::Model::var_ids))
/// remembers the model that declared it, and a model refuses the id of another model (as
/// it refuses its [`Var`]): the model becomes invalid, and solving it is
/// [`SearchError::InvalidModel`](crate::SearchError::InvalidModel). An id made from a
/// position ([`VarId::from_index`]) stands for that position in whichever model it is
/// given to. Ids compare, order and hash by position alone.
#[derive(Clone, Copy)]
pub struct VarId {
    index: u32,
    /// The model that declared it ([`ModelId::tag`]), or [`ANY_MODEL`].
    model: u32,
}

/// The tag of an id made from a position: any model takes it.
const ANY_MODEL: u32 = 0;

impl VarId {
    /// The position of the variable in its model (0 for the first one declared).
    pub fn index(self) -> usize {
        self.index as usize
    }

    /// The variable declared `index`-th, in whichever model the id is given to (see
    /// [`Model::var_ids`](crate::Model::var_ids)).
    ///
    /// # Panics
    /// If `index` does not fit in a `u32`.
    pub fn from_index(index: usize) -> Self {
        VarId::at(u32::try_from(index).expect("a variable index fits in a u32"))
    }

    /// The variable at position `index`, of any model (what engines name variables by).
    pub(crate) const fn at(index: u32) -> Self {
        VarId {
            index,
            model: ANY_MODEL,
        }
    }

    /// The variable at position `index` declared by `model`.
    pub(crate) const fn of(model: ModelId, index: u32) -> Self {
        VarId {
            index,
            model: model.tag(),
        }
    }

    /// The position, as stored.
    pub(crate) const fn raw(self) -> u32 {
        self.index
    }
}

impl PartialEq for VarId {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl Eq for VarId {}

impl PartialOrd for VarId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for VarId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}

impl std::hash::Hash for VarId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.index)
    }
}

/// A typed variable: its id and the list of values it may take.
///
/// The domain of the variable is a set of indices into that list, so the values can be of
/// any type: integers, `&str`, enums, structs. Cloning a `Var` is cheap (the list is
/// shared).
pub struct Var<T> {
    pub(crate) id: VarId,
    pub(crate) values: Values<T>,
    /// The identity of the model that declared it (see [`ModelId`]).
    pub(crate) model: ModelId,
}

/// A variable's values: a list, or a range of integers kept as two numbers
/// ([`Model::range_var`](crate::Model::range_var)).
///
/// The engines read a range's values through its images
/// ([`images_of`](crate::model::images_of)), never through a list. Reading it as a slice
/// (what [`Var::values`] and [`Var::value`] hand users) builds the list once, on the first
/// read, and keeps it.
pub(crate) enum Values<T> {
    List(Arc<[T]>),
    Range(Arc<Spread<T>>),
}

/// The integers `first .. first + len`, as values of type `T`.
pub(crate) struct Spread<T> {
    pub(crate) first: i64,
    pub(crate) len: u32,
    /// The value of an integer, and the integer of a value.
    make: fn(i64) -> T,
    pub(crate) to_int: fn(&T) -> i64,
    /// The list, once someone read the values as a slice.
    list: OnceLock<Arc<[T]>>,
}

impl<T> Values<T> {
    /// The integers `first .. first + len`.
    pub(crate) fn range(first: i64, len: u32, make: fn(i64) -> T, to_int: fn(&T) -> i64) -> Self {
        Values::Range(Arc::new(Spread {
            first,
            len,
            make,
            to_int,
            list: OnceLock::new(),
        }))
    }

    /// The number of values (no list built).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            Values::List(list) => list.len(),
            Values::Range(spread) => spread.len as usize,
        }
    }

    /// The range, if the values are one of more than `values` values.
    pub(crate) fn wide_range(&self, values: usize) -> Option<&Spread<T>> {
        match self {
            Values::Range(spread) if spread.len as usize > values => Some(spread),
            _ => None,
        }
    }

    /// Whether the values are a range (kept as two numbers).
    pub(crate) fn is_range(&self) -> bool {
        matches!(self, Values::Range(_))
    }

    /// Whether `self` and `other` are the same list or range (not copies).
    pub(crate) fn same(&self, other: &Values<T>) -> bool {
        match (self, other) {
            (Values::List(a), Values::List(b)) => Arc::ptr_eq(a, b),
            (Values::Range(a), Values::Range(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// An address that identifies the list or range (for tables keyed by it).
    pub(crate) fn address(&self) -> usize {
        match self {
            Values::List(list) => list.as_ptr() as usize,
            Values::Range(spread) => Arc::as_ptr(spread) as usize,
        }
    }

    /// The value at `index`, without building a range's list.
    ///
    /// # Panics
    /// If `index` is not below [`len`](Values::len).
    #[inline]
    pub(crate) fn at(&self, index: usize) -> Item<'_, T> {
        match self {
            Values::List(list) => Item::Ref(&list[index]),
            Values::Range(spread) => {
                assert!(index < spread.len as usize, "value index out of range");
                Item::Own((spread.make)(spread.first + index as i64))
            }
        }
    }

    /// The values as a slice (for a range: built on the first call, then kept).
    pub(crate) fn list(&self) -> &[T] {
        match self {
            Values::List(list) => list,
            Values::Range(spread) => spread.list.get_or_init(|| {
                (0..i64::from(spread.len))
                    .map(|i| (spread.make)(spread.first + i))
                    .collect()
            }),
        }
    }
}

/// One value of a variable: in its list, or worked out from its range.
pub(crate) enum Item<'v, T> {
    Ref(&'v T),
    Own(T),
}

impl<T> Deref for Item<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        match self {
            Item::Ref(value) => value,
            Item::Own(value) => value,
        }
    }
}

impl<T> Deref for Values<T> {
    type Target = [T];

    /// [`list`](Values::list): a range builds its list.
    fn deref(&self) -> &[T] {
        self.list()
    }
}

impl<T> Clone for Values<T> {
    fn clone(&self) -> Self {
        match self {
            Values::List(list) => Values::List(Arc::clone(list)),
            Values::Range(spread) => Values::Range(Arc::clone(spread)),
        }
    }
}

impl<T> From<Arc<[T]>> for Values<T> {
    fn from(list: Arc<[T]>) -> Self {
        Values::List(list)
    }
}

/// The identity of a model: every `Model::new` takes a fresh one, and a clone keeps it
/// until it or its original declares a variable (see [`Identity`]). Typed variables
/// carry it, so a variable of another model is refused instead of standing for whichever
/// variable has its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ModelId(u64);

impl ModelId {
    /// A fresh identity (never 0, nor one whose [tag](ModelId::tag) is 0).
    pub(crate) fn fresh() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        loop {
            let id = ModelId(NEXT.fetch_add(1, Ordering::Relaxed));
            if id.tag() != ANY_MODEL {
                return id;
            }
        }
    }

    /// What a [`VarId`] keeps of the identity: its low 32 bits (a `VarId` is 8 bytes, and
    /// models store many). Two identities with the same tag were made 2^32 identities
    /// apart.
    const fn tag(self) -> u32 {
        self.0 as u32
    }
}

/// Who may name a model's variables: the model itself, and, for the variables it had
/// then, each model it was cloned from.
///
/// A clone shares its original's identity (behind an `Arc`) while neither declares a
/// variable: they have the same variables. The first of them to declare one while the
/// identity is shared takes a fresh identity, and remembers the one it leaves with the
/// number of variables at that moment: the variables below that count are common to
/// both, those above are each model's own. So after `let b = a.clone()`, a variable
/// declared by `a` is refused by `b` and the other way round, while the variables they
/// had in common are taken by both.
#[derive(Debug)]
pub(crate) struct Identity {
    id: ModelId,
    /// The identities this model had before, oldest first, each with the number of
    /// variables the model had when it left it (non-decreasing).
    ancestors: Vec<(ModelId, u32)>,
}

impl Identity {
    /// A fresh identity with no past.
    pub(crate) fn fresh() -> Self {
        Identity {
            id: ModelId::fresh(),
            ancestors: Vec::new(),
        }
    }

    /// The identity of the model now.
    pub(crate) fn id(&self) -> ModelId {
        self.id
    }

    /// A fresh identity for a model that had `vars` variables under this one.
    pub(crate) fn fork(&self, vars: u32) -> Self {
        let mut ancestors = self.ancestors.clone();
        ancestors.push((self.id, vars));
        Identity {
            id: ModelId::fresh(),
            ancestors,
        }
    }

    /// Whether variable `index` declared by `model` is one of this model's.
    pub(crate) fn accepts(&self, model: ModelId, index: u32) -> bool {
        model == self.id
            || self
                .ancestors
                .iter()
                .any(|&(ancestor, vars)| ancestor == model && index < vars)
    }

    /// Whether `var` is one of this model's (an id of any model is, by its position).
    pub(crate) fn accepts_id(&self, var: VarId) -> bool {
        var.model == ANY_MODEL
            || var.model == self.id.tag()
            || self
                .ancestors
                .iter()
                .any(|&(ancestor, vars)| ancestor.tag() == var.model && var.index < vars)
    }

    /// The id of variable `index`, as the model that declared it made it.
    pub(crate) fn var_id(&self, index: u32) -> VarId {
        let declared = self
            .ancestors
            .iter()
            .find(|&&(_, vars)| index < vars)
            .map_or(self.id, |&(ancestor, _)| ancestor);
        VarId::of(declared, index)
    }
}

impl<T> Var<T> {
    /// The variable's id.
    pub fn id(&self) -> VarId {
        self.id
    }

    /// The values the variable may take, in index order.
    ///
    /// For a variable over a range ([`Model::range_var`](crate::Model::range_var)), the
    /// first call builds the list (8 bytes a value for `i64`) and keeps it, as does
    /// [`value`](Var::value): read a solution's value with
    /// [`Assignment::int_value`](crate::Assignment::int_value) to build none.
    pub fn values(&self) -> &[T] {
        self.values.list()
    }

    /// The number of values (no list built).
    pub fn num_values(&self) -> usize {
        self.values.len()
    }

    /// The value at `index`.
    ///
    /// # Panics
    /// If `index` is not below the number of values.
    pub fn value(&self, index: usize) -> &T {
        &self.values.list()[index]
    }
}

impl<T> Clone for Var<T> {
    fn clone(&self) -> Self {
        Var {
            id: self.id,
            values: self.values.clone(),
            model: self.model,
        }
    }
}

impl<T> fmt::Debug for Var<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Var({:?}, {} values)", self.id, self.values.len())
    }
}

impl<T> From<&Var<T>> for VarId {
    fn from(var: &Var<T>) -> VarId {
        var.id
    }
}
