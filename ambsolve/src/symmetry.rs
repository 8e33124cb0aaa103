//! Symmetries of a model, and one representative per symmetry class.
//!
//! A [`Symmetry`] maps each *literal* — a variable with one of its value indices — to a
//! literal, bijectively, so that solutions map to solutions (a rotation of an n-queens
//! board, say). Solving [`up to symmetry`](crate::Solver::up_to_symmetry) keeps, from each
//! class of solutions that the symmetries map into each other, exactly one: the least in
//! lexicographic order of value indices (the *lex-leader*). The rule is applied during the
//! search, not only at the leaves: as soon as both a partial assignment and its image are
//! known far enough to show the image is smaller, the whole subtree goes.
//!
//! For the classes to be counted exactly once, the symmetries given must be a group
//! without its identity: every composition of two of them is the identity or one of them.

use std::fmt;
use std::sync::Arc;

use crate::var::VarId;

/// A bijection on literals `(variable, value index)` that maps solutions to solutions.
#[derive(Clone)]
pub struct Symmetry {
    map: Arc<dyn Fn(VarId, u32) -> (VarId, u32) + Send + Sync>,
    name: String,
}

impl Symmetry {
    /// A symmetry given by where it sends each literal.
    pub fn new(
        name: impl Into<String>,
        map: impl Fn(VarId, u32) -> (VarId, u32) + Send + Sync + 'static,
    ) -> Self {
        Symmetry {
            map: Arc::new(map),
            name: name.into(),
        }
    }

    /// The name given to it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where it sends a literal.
    pub fn apply(&self, var: VarId, value: u32) -> (VarId, u32) {
        (self.map)(var, value)
    }
}

impl fmt::Debug for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Symmetry({})", self.name)
    }
}

/// The symmetries of a model as tables over literal numbers.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    /// First literal number of each variable.
    offset: Vec<u32>,
    /// Per symmetry, the image of every literal, as (variable, value).
    images: Vec<Vec<(u32, u32)>>,
    /// Scratch: the image of the current assignment (variable → value, or NONE).
    image: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Tables {
    /// Tables for `symmetries` over variables with `universes` values each.
    ///
    /// # Errors
    /// A message if a symmetry leaves the model's literals or is not a bijection.
    pub(crate) fn new(symmetries: &[Symmetry], universes: &[u32]) -> Result<Self, String> {
        let mut offset = Vec::with_capacity(universes.len());
        let mut total = 0u32;
        for &u in universes {
            offset.push(total);
            total += u;
        }
        let mut images = Vec::with_capacity(symmetries.len());
        for symmetry in symmetries {
            let mut image = Vec::with_capacity(total as usize);
            let mut hit = vec![false; total as usize];
            for (v, &u) in universes.iter().enumerate() {
                for value in 0..u {
                    let (w, x) = symmetry.apply(VarId(v as u32), value);
                    let ok = w.index() < universes.len() && x < universes[w.index()];
                    let literal = if ok {
                        (offset[w.index()] + x) as usize
                    } else {
                        usize::MAX
                    };
                    if !ok || std::mem::replace(&mut hit[literal], true) {
                        return Err(format!(
                            "symmetry `{}` is not a bijection on the model's values",
                            symmetry.name
                        ));
                    }
                    image.push((w.0, x));
                }
            }
            images.push(image);
        }
        Ok(Tables {
            offset,
            images,
            image: vec![NONE; universes.len()],
        })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.images.is_empty()
    }

    /// Whether the partial assignment (`value(v)` for known variables) may still be the
    /// least of its class: false when some symmetry's image is known to be smaller.
    pub(crate) fn may_lead(&mut self, value: impl Fn(usize) -> Option<u32>) -> bool {
        let n = self.offset.len();
        for g in 0..self.images.len() {
            self.image.fill(NONE);
            for v in 0..n {
                if let Some(x) = value(v) {
                    let (w, y) = self.images[g][(self.offset[v] + x) as usize];
                    self.image[w as usize] = y;
                }
            }
            for k in 0..n {
                let (Some(mine), theirs) = (value(k), self.image[k]) else {
                    break;
                };
                if theirs == NONE {
                    break;
                }
                if theirs < mine {
                    return false;
                }
                if theirs > mine {
                    break;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_that_is_not_a_bijection_is_refused() {
        let squash = Symmetry::new("squash", |v, _| (v, 0));
        let error = Tables::new(&[squash], &[3, 3]).unwrap_err();
        assert!(error.contains("squash"));
        let outside = Symmetry::new("outside", |v, x| (VarId(v.0 + 1), x));
        assert!(Tables::new(&[outside], &[2, 2]).is_err());
    }

    #[test]
    fn the_lex_leader_of_a_class_is_kept() {
        // Two variables over 0..2 swapped by the symmetry: (0, 1) leads, (1, 0) does not.
        let swap = Symmetry::new("swap", |v, x| (VarId(1 - v.0), x));
        let mut tables = Tables::new(&[swap], &[2, 2]).unwrap();
        let full = |a: u32, b: u32| move |v: usize| Some([a, b][v]);
        assert!(tables.may_lead(full(0, 1)));
        assert!(!tables.may_lead(full(1, 0)));
        assert!(tables.may_lead(full(1, 1)));
        // Partial: with only x0 = 1 known, the image's x0 is unknown: not yet decided.
        assert!(tables.may_lead(|v| (v == 0).then_some(1)));
    }
}
