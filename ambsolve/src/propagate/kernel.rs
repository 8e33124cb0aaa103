//! The engine-private propagator trait of the constraint kinds of `model/global/`.

use crate::choice::Fail;
use crate::store::{CHANGED, Store};
use crate::var::VarId;

/// A propagator of one of the constraint kinds of `model/global/`, over the store.
///
/// Like a user's [`Propagator`](crate::Propagator) it must be correct (never remove a
/// value that takes part in a solution of its constraint alone) and decide: once every
/// variable of its scope is fixed, it fails exactly when its constraint's meaning is
/// false. Unlike one, it sees the store directly, may keep trailed counters
/// ([`Store::alloc_aux`]) and says which events wake it.
pub(crate) trait Kernel: Send {
    /// The variables it reads (a variable may repeat).
    fn scope(&self) -> &[VarId];

    /// The events on the variable at position `local` of its scope that wake it.
    fn wakes(&self, _local: usize) -> u8 {
        CHANGED
    }

    /// Whether a run costs more than linear time in its scope (the scheduling globals):
    /// such a propagator waits until the cheap ones have nothing left to do, so that it
    /// runs once on their combined changes instead of once per change.
    fn expensive(&self) -> bool {
        false
    }

    /// Whether one run leaves nothing for a second to do: then its own changes do not
    /// wake it again (the changes of others still do).
    fn idempotent(&self) -> bool {
        false
    }

    /// Whether it may say [`finished`](Kernel::finished) (then the engine keeps a
    /// trailed cell for it).
    fn finishes(&self) -> bool {
        false
    }

    /// Whether, after the run that just succeeded, its constraint holds whatever values
    /// are left: nothing below this point of the search can make it prune or fail, so it
    /// is not woken again until the search backtracks above it.
    fn finished(&self) -> bool {
        false
    }

    /// Removes values that cannot be part of a solution, or fails.
    ///
    /// # Errors
    /// [`Fail`] when no solution is left.
    fn propagate(&mut self, store: &mut Store) -> Result<(), Fail>;
}
