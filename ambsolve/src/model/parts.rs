//! The parts of a model that an explanation of its infeasibility may name: groups of
//! constraints named together ([`Model::named`]), each other constraint, and each domain
//! that [`restrict`](Model::restrict) narrowed. The search for a minimal conflicting set
//! is in `solve/infeasible.rs`; this is the data it works on.

use std::fmt;
use std::sync::Arc;

use crate::model::Model;
use crate::var::VarId;

/// One part of a model that cannot hold together with the others of a conflict
/// ([`Model::explain_infeasible`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Part {
    /// The constraints posted inside one [`named`](Model::named) block.
    Named {
        /// The block's name.
        name: Arc<str>,
        /// The constraints' positions, in the order they were posted.
        positions: Vec<usize>,
    },
    /// One constraint posted outside any named block.
    Constraint {
        /// Its position, in the order constraints were posted.
        position: usize,
        /// What it says, with the variables' names.
        description: String,
    },
    /// The values [`restrict`](Model::restrict) (or a condition of `constraints!` on one
    /// choice) left to a variable.
    Domain {
        /// The variable's name.
        var: String,
        /// How many of its values are left.
        left: u32,
        /// How many values it has.
        values: u32,
    },
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Named { name, .. } => f.write_str(name),
            Part::Constraint { description, .. } => f.write_str(description),
            Part::Domain { var, left, values } => {
                write!(f, "{var} restricted to {left} of its {values} values")
            }
        }
    }
}

/// A part as the search for a conflict handles it: what to keep of the model.
#[derive(Clone, Debug)]
pub(crate) enum Piece {
    Constraints(Vec<usize>),
    Domain(u32),
}

impl<'a> Model<'a> {
    /// Names the constraints that `build` posts: an explanation of infeasibility
    /// ([`explain_infeasible`](Model::explain_infeasible)) keeps or gives them up
    /// together, under `name` (a puzzle's clue, a rule, a customer's order). Blocks may
    /// nest; a constraint belongs to the innermost. Domains narrowed inside
    /// ([`restrict`](Model::restrict)) stay parts of their own.
    ///
    /// ```
    /// use ambsolve::{Cmp, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.named_var("x", 0..10i64);
    /// let y = m.named_var("y", 0..10i64);
    /// m.named("x below y", |m| m.linear([(1, &x), (-1, &y)], Cmp::Lt, 0));
    /// m.named("y below x", |m| m.linear([(1, &y), (-1, &x)], Cmp::Lt, 0));
    /// m.named("x is 3", |m| m.linear([(1, &x)], Cmp::Eq, 3));
    /// let why = m.explain_infeasible()?;
    /// assert_eq!(why.conflict().unwrap().len(), 2);
    /// assert_eq!(why.to_string(), "these cannot hold together:\n  x below y\n  y below x");
    /// # Ok::<(), ambsolve::SearchError>(())
    /// ```
    pub fn named(&mut self, name: impl Into<Arc<str>>, build: impl FnOnce(&mut Self)) {
        let from = self.constraints.len();
        build(self);
        let to = self.constraints.len();
        self.groups.push((from, to, name.into()));
    }

    /// The parts of the model, in order: its constraints (a named block's together, at
    /// its first), then its narrowed domains by variable.
    pub(crate) fn parts(&self) -> Vec<(Part, Piece)> {
        let count = self.constraints.len();
        // The innermost block of each constraint: later blocks nest in earlier ones or
        // follow them, and a nested block is pushed first (it closes first).
        let mut owner: Vec<Option<usize>> = vec![None; count];
        for (g, (from, to, _)) in self.groups.iter().enumerate() {
            for slot in &mut owner[(*from).min(count)..(*to).min(count)] {
                slot.get_or_insert(g);
            }
        }
        // Each block's constraints, in one pass.
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); self.groups.len()];
        for (position, g) in owner.iter().enumerate() {
            if let Some(g) = g {
                members[*g].push(position);
            }
        }
        let mut parts = Vec::new();
        for (position, &g) in owner.iter().enumerate() {
            match g {
                // A block stands where its first constraint does.
                Some(g) if members[g].first() == Some(&position) => {
                    let positions = std::mem::take(&mut members[g]);
                    let part = Part::Named {
                        name: Arc::clone(&self.groups[g].2),
                        positions: positions.clone(),
                    };
                    parts.push((part, Piece::Constraints(positions)));
                }
                Some(_) => {}
                None => {
                    let description = self.described(position);
                    let part = Part::Constraint {
                        position,
                        description,
                    };
                    parts.push((part, Piece::Constraints(vec![position])));
                }
            }
        }
        let mut narrowed: Vec<u32> = self.initial.keys().copied().collect();
        narrowed.sort_unstable();
        for var in narrowed {
            let values = self.universes[var as usize];
            let left = u32::try_from(self.initial[&var].len()).unwrap_or(u32::MAX);
            if left == values {
                continue;
            }
            let var_name = self.name(VarId::from_index(var as usize));
            let part = Part::Domain {
                var: var_name,
                left,
                values,
            };
            parts.push((part, Piece::Domain(var)));
        }
        parts
    }

    /// The model with only the `pieces` of it (no objective, no symmetries, no hints).
    pub(crate) fn only(&self, pieces: &[&Piece]) -> Model<'a> {
        let mut positions: Vec<usize> = Vec::new();
        let mut domains: Vec<u32> = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Constraints(list) => positions.extend(list),
                Piece::Domain(var) => domains.push(*var),
            }
        }
        positions.sort_unstable();
        let mut m = self.clone();
        m.constraints = positions
            .iter()
            .map(|&p| self.constraints[p].clone())
            .collect();
        domains.sort_unstable();
        m.initial
            .retain(|var, _| domains.binary_search(var).is_ok());
        m.objective = None;
        m.symmetries.clear();
        m.hints.clear();
        m.groups.clear();
        m
    }

    /// Constraint `position` described, with its variables' names (the first few).
    fn described(&self, position: usize) -> String {
        let constraint = &self.constraints[position];
        let text = self.with_names(&constraint.describe());
        let vars = constraint.meaning().vars();
        let mut names: Vec<String> = vars.iter().take(6).map(|&v| self.name(v)).collect();
        if vars.len() > names.len() {
            names.push(format!("and {} more", vars.len() - names.len()));
        }
        if names.is_empty() || names.iter().all(|name| text.contains(name.as_str())) {
            return text;
        }
        format!("{text} (over {})", names.join(", "))
    }

    /// `text` with each variable written `v<index>` replaced by its name.
    fn with_names(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let starts_word =
                i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
            if bytes[i] == b'v' && starts_word {
                let digits = bytes[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                let end = i + 1 + digits;
                let ends_word = bytes
                    .get(end)
                    .is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_'));
                if digits > 0 && ends_word {
                    if let Ok(index) = text[i + 1..end].parse::<usize>() {
                        if index < self.universes.len() {
                            out.push_str(&self.name(VarId::from_index(index)));
                            i = end;
                            continue;
                        }
                    }
                }
            }
            let c = text[i..].chars().next().expect("within the text");
            out.push(c);
            i += c.len_utf8();
        }
        out
    }
}
