//! A mark in a model's building, to undo what was added after it (a condition that
//! `constraints!` tried to flatten and keeps as a predicate instead).

use crate::model::Model;

/// How far a model was built: its variables and constraints, and whether it was valid.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    vars: usize,
    constraints: usize,
    valid: bool,
}

impl Model<'_> {
    /// The model as built so far.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            vars: self.universes.len(),
            constraints: self.constraints.len(),
            valid: self.error.is_none(),
        }
    }

    /// Removes the variables and constraints added since `mark` (and the error, if the
    /// model was valid then). Nothing added since may be in use elsewhere: no constraint
    /// before the mark mentions the variables removed.
    pub(crate) fn undo_to(&mut self, mark: Mark) {
        self.universes.truncate(mark.vars);
        let vars = mark.vars as u32;
        let runs = self.names.partition_point(|run| run.first < vars);
        self.names.truncate(runs);
        self.constraints.truncate(mark.constraints);
        let auxiliary = self.auxiliary.partition_point(|&v| v < vars);
        self.auxiliary.truncate(auxiliary);
        for (from, to, _) in &mut self.groups {
            *to = (*to).min(mark.constraints);
            *from = (*from).min(*to);
        }
        if mark.valid {
            self.error = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Cmp, Model};

    #[test]
    fn undoing_removes_what_came_after_the_mark() {
        let mut m = Model::new();
        let x = m.var(0..3i64);
        m.linear([(1, &x)], Cmp::Ge, 1);
        let mark = m.mark();
        let y = m.named_var("y", 0..3i64);
        m.linear([(1, &x), (1, &y)], Cmp::Eq, 2);
        m.invalid("wrong".to_string());
        m.undo_to(mark);
        assert_eq!((m.num_vars(), m.num_constraints(), m.error()), (1, 1, None));
        let z = m.named_var("z", 0..2i64);
        assert_eq!(m.name(z.id), "z");
        assert_eq!(m.name(x.id), "x0");
    }
}
