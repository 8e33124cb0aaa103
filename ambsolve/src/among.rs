//! Global constraints shipped with the library, built only on the public [`Propagator`]
//! trait, as a user's own would be (and usable the same way: `Model::propagator`, or
//! `post` in `constraints!`).

use crate::choice::Fail;
use crate::propagator::{Context, Propagator};
use crate::var::{Var, VarId};

/// Exactly `count` of `vars` take the value `value`: the *among* (or *count*) global
/// constraint, `|{i : vars[i] = value}| = count`.
///
/// This is the example of a global constraint written by a user, on the public
/// [`Propagator`] trait only (over values of any type). The library's own counting
/// constraints, [`Model::count`](crate::Model::count), [`Model::among`](crate::Model::among)
/// and the others of that family, take integer variables or constants (a chosen value and a
/// chosen count too) and propagate at least as strongly; prefer them over integers.
///
/// In `constraints!`, `post` it over the choices:
///
/// ```
/// use ambsolve::{among, constraints};
///
/// let n = 5;
/// let rows = constraints! {
///     let x[n] = amb(0..3);
///     post among(&x, 2, 3);          // exactly three 2s
///     require x[0] < x[n - 1];
/// };
/// let solutions: Vec<_> = rows.solutions().map(|s| s.x).collect();
/// assert!(solutions.iter().all(|x| x.iter().filter(|&&v| v == 2).count() == 3));
/// assert_eq!(solutions.len(), rows.clone().engine(ambsolve::Engine::Replay).count()?.solutions as usize);
/// # Ok::<(), ambsolve::SearchError>(())
/// ```
pub fn among<'v, T: PartialEq + 'v>(
    vars: impl IntoIterator<Item = &'v Var<T>>,
    value: T,
    count: usize,
) -> Among {
    let (vars, matching) = vars
        .into_iter()
        .map(|var| {
            let indices = (0..var.values().len() as u32)
                .filter(|&i| var.values()[i as usize] == value)
                .collect();
            (var.id(), indices)
        })
        .unzip();
    Among {
        vars,
        matching,
        count,
    }
}

/// The propagator of [`among`]: counts the variables fixed to the value and those that
/// may still take it, fails when the count is out of reach, and decides the open
/// variables when it is reached exactly.
#[derive(Clone, Debug)]
pub struct Among {
    vars: Vec<VarId>,
    /// Per variable, the value indices holding the value.
    matching: Vec<Vec<u32>>,
    count: usize,
}

impl Among {
    /// The variables it ranges over (its scope, for [`Model::propagator`](crate::Model::propagator)).
    pub fn vars(&self) -> &[VarId] {
        &self.vars
    }
}

impl Propagator for Among {
    fn propagate(&self, cx: &mut Context<'_>) -> Result<(), Fail> {
        let (mut surely, mut maybe) = (0, 0);
        for (&var, matching) in self.vars.iter().zip(&self.matching) {
            let can = matching.iter().any(|&i| cx.contains(var, i));
            let must = can && cx.domain(var).iter().all(|i| matching.contains(&i));
            surely += usize::from(must);
            maybe += usize::from(can);
        }
        if surely > self.count || maybe < self.count {
            return Err(Fail);
        }
        if surely == self.count {
            // The others must not take the value.
            for (&var, matching) in self.vars.iter().zip(&self.matching) {
                let domain = cx.domain(var);
                if !domain.iter().all(|i| matching.contains(&i)) {
                    cx.retain(var, |i| !matching.contains(&i))?;
                }
            }
        } else if maybe == self.count {
            // Every one that may take it must.
            for (&var, matching) in self.vars.iter().zip(&self.matching) {
                if matching.iter().any(|&i| cx.contains(var, i)) {
                    cx.retain(var, |i| matching.contains(&i))?;
                }
            }
        }
        Ok(())
    }
}
