//! A typed trail: trailed cells, `mark()`/`undo_to(mark)`, one saved entry per cell per level.
//!
//! Every cell remembers the choice level at which it was last saved. Writing a cell saves
//! its old value first, unless it was already saved at the current level: a cell changed
//! many times between two choices costs one entry. Undoing walks the log backwards and
//! restores values and save levels, so after undoing to a level's mark no cell claims a
//! save at that level or deeper (the invariant that lets levels be plain depths).
//! Level 0 is the root: changes there are never undone and never logged.

/// One saved cell: where, its old save level, its old value.
#[derive(Clone, Copy, Debug)]
struct Saved<T> {
    cell: u32,
    level: u32,
    old: T,
}

/// Cells of type `T` whose changes can be undone.
#[derive(Clone, Debug)]
pub(crate) struct Trail<T> {
    values: Vec<T>,
    saved_at: Vec<u32>,
    log: Vec<Saved<T>>,
    level: u32,
}

impl<T: Copy> Trail<T> {
    pub(crate) fn new() -> Self {
        Trail {
            values: Vec::new(),
            saved_at: Vec::new(),
            log: Vec::new(),
            level: 0,
        }
    }

    /// Adds a cell and returns its index.
    pub(crate) fn push(&mut self, value: T) -> usize {
        self.values.push(value);
        self.saved_at.push(0);
        self.values.len() - 1
    }

    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    #[inline(always)]
    pub(crate) fn get(&self, cell: usize) -> T {
        self.values[cell]
    }

    pub(crate) fn values(&self) -> &[T] {
        &self.values
    }

    /// Writes a cell, saving its old value if it was not saved at this level yet.
    #[inline(always)]
    pub(crate) fn set(&mut self, cell: usize, value: T) {
        let saved_at = self.saved_at[cell];
        if saved_at < self.level {
            self.log.push(Saved {
                cell: cell as u32,
                level: saved_at,
                old: self.values[cell],
            });
            self.saved_at[cell] = self.level;
        }
        self.values[cell] = value;
    }

    /// Enters choice level `level`. Levels only grow by one at a time as choices are made;
    /// going back up must be preceded by undoing to the mark taken on the way down.
    pub(crate) fn set_level(&mut self, level: u32) {
        self.level = level;
    }

    /// A point to undo to: the length of the log.
    pub(crate) fn mark(&self) -> u32 {
        self.log.len() as u32
    }

    /// Entries in the log.
    #[cfg(test)]
    pub(crate) fn log_len(&self) -> usize {
        self.log.len()
    }

    /// Restores every cell changed since `mark`, newest first, calling
    /// `on_restore(cell, restored, replaced)` for each entry.
    pub(crate) fn undo_to(&mut self, mark: u32, mut on_restore: impl FnMut(usize, T, T)) {
        let mark = mark as usize;
        for saved in self.log[mark..].iter().rev() {
            let cell = saved.cell as usize;
            on_restore(cell, saved.old, self.values[cell]);
            self.values[cell] = saved.old;
            self.saved_at[cell] = saved.level;
        }
        self.log.truncate(mark);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_changes_are_not_logged() {
        let mut t = Trail::new();
        let c = t.push(1u64);
        t.set(c, 2);
        assert_eq!((t.get(c), t.log_len()), (2, 0));
    }

    #[test]
    fn one_entry_per_cell_per_level() {
        let mut t = Trail::new();
        let a = t.push(0u64);
        let b = t.push(0u64);
        t.set_level(1);
        let mark = t.mark();
        for v in 1..10 {
            t.set(a, v);
        }
        t.set(b, 7);
        assert_eq!(t.log_len(), 2);
        t.set_level(2);
        t.set(a, 100);
        t.set(a, 101);
        assert_eq!(t.log_len(), 3);
        t.undo_to(mark, |_, _, _| {});
        assert_eq!((t.get(a), t.get(b), t.log_len()), (0, 0, 0));
    }

    #[test]
    fn undoing_a_level_then_changing_it_again_saves_again() {
        let mut t = Trail::new();
        let a = t.push(5u64);
        t.set_level(1);
        let mark = t.mark();
        t.set(a, 6);
        t.undo_to(mark, |_, _, _| {});
        // Same level, next alternative: the cell must be saved afresh.
        t.set(a, 7);
        assert_eq!(t.log_len(), 1);
        t.undo_to(mark, |_, _, _| {});
        assert_eq!(t.get(a), 5);
    }

    #[test]
    fn nested_levels_restore_in_order() {
        let mut t = Trail::new();
        let a = t.push(0u64);
        let mut marks = Vec::new();
        for level in 1..=5 {
            t.set_level(level);
            marks.push(t.mark());
            t.set(a, u64::from(level));
        }
        for level in (1..=5).rev() {
            let mark = marks.pop().unwrap();
            t.undo_to(mark, |_, _, _| {});
            t.set_level(level - 1);
            assert_eq!(t.get(a), u64::from(level - 1));
        }
    }

    #[test]
    fn restore_callback_sees_each_change() {
        let mut t = Trail::new();
        let a = t.push(1u64);
        t.set_level(1);
        t.set(a, 2);
        t.set_level(2);
        t.set(a, 3);
        let mut seen = Vec::new();
        t.undo_to(0, |cell, restored, replaced| {
            seen.push((cell, restored, replaced))
        });
        assert_eq!(seen, [(a, 2, 3), (a, 1, 2)]);
    }
}
