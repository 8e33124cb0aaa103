//! Declared symmetries of a model, and their tables.

use super::Model;
use crate::error::SearchError;
use crate::symmetry::{Symmetry, Tables};

impl<'a> Model<'a> {
    /// Declares symmetries: maps sending solutions to solutions. They change nothing unless
    /// a search is asked for one solution per class with
    /// [`up_to_symmetry`](crate::Solver::up_to_symmetry), or counts with them
    /// ([`count_through_symmetry`](crate::Solver::count_through_symmetry): one
    /// representative per class, weighed by the size of its class). Generators of the
    /// group are enough (a quarter turn and a mirror for the eight symmetries of a
    /// square board): the search closes them into their group.
    pub fn symmetries(&mut self, symmetries: impl IntoIterator<Item = Symmetry>) {
        self.symmetries.extend(symmetries);
    }

    /// The symmetries declared, in order.
    pub(crate) fn declared_symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// The tables of the declared symmetries, in order, when solving up to symmetry.
    pub(crate) fn symmetry_tables(&self) -> Result<Tables, SearchError> {
        Tables::checked(&self.symmetries, &self.universes, |w| {
            self.identity.accepts_id(w)
        })
        .map_err(SearchError::InvalidModel)
    }
}
