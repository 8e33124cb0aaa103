//! Propagators of tours and permutations: circuits, subcircuits, inverse functions and
//! all-different except one value, over matrices of values read from the store.

mod all_different_except;
mod circuit;
mod hall;
mod inverse;
mod matching;
mod rows;
mod scc;

/// Strength checks: what the propagators remove from given domains, at once.
#[cfg(test)]
pub(super) mod tests {
    use crate::choice::Fail;
    use crate::model::Model;
    use crate::store::Store;

    /// Runs the propagator of each constraint of `model` on its initial domains to a fixpoint
    /// and gives the value indices left of every variable, or `Err` if one failed.
    pub(crate) fn propagated(model: &Model<'_>) -> Result<Vec<Vec<u32>>, Fail> {
        let mut store = Store::with_domains(model.universes(), |v| model.initial_domain(v));
        let mut propagators: Vec<_> = model
            .constraints()
            .iter()
            .map(|c| c.kind().propagator(&mut store))
            .collect();
        loop {
            let size = |s: &Store| (0..s.num_vars()).map(|v| s.size(v)).sum::<u32>();
            let before = size(&store);
            for propagator in &mut propagators {
                propagator.initial(&mut store)?;
            }
            if size(&store) == before {
                break;
            }
        }
        Ok((0..store.num_vars())
            .map(|v| store.iter(v).collect())
            .collect())
    }
}
