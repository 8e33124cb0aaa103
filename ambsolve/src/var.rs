//! Variables: an untyped id for the engines, a typed handle holding the values for users.
//!
//! The ground floor: a variable is a position and a shared list of values; it knows no
//! model, store or engine.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A variable of a [`Model`](crate::Model), by position. Cheap to copy; the engines work
/// with these and with value indices.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(pub(crate) u32);

impl VarId {
    /// The position of the variable in its model (0 for the first one declared).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The variable declared `index`-th in its model (see
    /// [`Model::var_ids`](crate::Model::var_ids)).
    ///
    /// # Panics
    /// If `index` does not fit in a `u32`.
    pub fn from_index(index: usize) -> Self {
        VarId(u32::try_from(index).expect("a variable index fits in a u32"))
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

/// A typed variable: its id and the list of values it may take.
///
/// The domain of the variable is a set of indices into that list, so the values can be of
/// any type: integers, `&str`, enums, structs. Cloning a `Var` is cheap (the list is
/// shared).
pub struct Var<T> {
    pub(crate) id: VarId,
    pub(crate) values: Arc<[T]>,
    /// The identity of the model that declared it (see [`ModelId`]).
    pub(crate) model: ModelId,
}

/// The identity of a model: every `Model::new` takes a fresh one, and clones keep it (a
/// clone has the same variables). Typed variables carry it, so a variable of another model
/// is refused instead of standing for whichever variable has its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ModelId(u64);

impl ModelId {
    /// A fresh identity.
    pub(crate) fn fresh() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        ModelId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

impl<T> Var<T> {
    /// The variable's id.
    pub fn id(&self) -> VarId {
        self.id
    }

    /// The values the variable may take, in index order.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// The value at `index`.
    ///
    /// # Panics
    /// If `index` is not below the number of values.
    pub fn value(&self, index: usize) -> &T {
        &self.values[index]
    }
}

impl<T> Clone for Var<T> {
    fn clone(&self) -> Self {
        Var {
            id: self.id,
            values: Arc::clone(&self.values),
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
