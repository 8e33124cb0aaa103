//! Step-by-step traces of a search, for teaching: an [`Observer`] that prints each event as
//! a line a reader can follow, in the words of the puzzle, up to a number of lines.
//!
//! ```text
//! row 1: try column 1
//!   row 2: try column 3 (2 of 4 columns left)
//!   fail: no safe column left for row 3
//!   back to row 2: its next column
//! ```

use std::io::Write as _;
use std::sync::{Arc, Mutex};

use ambsolve::{Event, Observer, VarId};

/// How a puzzle names its steps: what a choice is, and why a node failed.
pub trait Narrator: Send {
    /// The line for trying `value` (a value index) for `var` at `depth`.
    fn tried(&mut self, depth: usize, var: Option<VarId>, value: u32) -> String;
    /// Why the node at `depth` failed, given the choices on its path (the last one is the
    /// node's own, unless the failure came before any choice at that depth).
    fn failed(&mut self, path: &[(Option<VarId>, u32)]) -> String;
    /// The choices `path`, in the puzzle's words (a replayed prefix).
    fn describe(&mut self, path: &[(Option<VarId>, u32)]) -> String;
    /// A solution reached by the choices `path`.
    fn solution(&mut self, path: &[(Option<VarId>, u32)]) -> String {
        self.describe(path)
    }
    /// What a choice of `var` is about, as in "back to row 3".
    fn level(&mut self, var: Option<VarId>) -> String;
    /// The word for a value, as in "the next column", "2 of 8 columns left".
    fn value_word(&self) -> &'static str;
}

/// Prints a trace to standard output, at most `limit` lines.
#[derive(Clone)]
pub struct Trace {
    inner: Arc<Mutex<State>>,
}

struct State {
    narrator: Box<dyn Narrator>,
    /// The choices on the current path, by depth.
    path: Vec<(Option<VarId>, u32)>,
    lines: usize,
    limit: usize,
    /// Standard output failed (a closed pipe): stop writing.
    closed: bool,
}

impl Trace {
    /// A trace told by `narrator`, of at most `limit` lines.
    pub fn new(narrator: impl Narrator + 'static, limit: usize) -> Self {
        Trace {
            inner: Arc::new(Mutex::new(State {
                narrator: Box::new(narrator),
                path: Vec::new(),
                lines: 0,
                limit,
                closed: false,
            })),
        }
    }

    /// How many lines were printed.
    pub fn lines(&self) -> usize {
        self.inner.lock().map(|s| s.lines).unwrap_or(0)
    }

    /// Whether the trace stopped at its line limit before the search ended.
    pub fn truncated(&self) -> bool {
        self.inner
            .lock()
            .map(|s| s.lines > s.limit)
            .unwrap_or(false)
    }
}

impl State {
    fn say(&mut self, depth: usize, text: String) {
        if self.closed {
            return;
        }
        self.lines += 1;
        let line = if self.lines > self.limit {
            if self.lines > self.limit + 1 {
                return;
            }
            format!("... (trace stopped after {} lines)", self.limit)
        } else {
            format!("{}{text}", "  ".repeat(depth.saturating_sub(1)))
        };
        if writeln!(std::io::stdout().lock(), "{line}").is_err() {
            self.closed = true;
        }
    }
}

impl Observer for Trace {
    fn event(&mut self, event: &Event) {
        let Ok(mut state) = self.inner.lock() else {
            return;
        };
        if state.lines > state.limit {
            return;
        }
        match *event {
            Event::Try {
                depth,
                var,
                value,
                index,
                alternatives,
                universe,
            } => {
                let depth = depth as usize;
                state.path.truncate(depth.saturating_sub(1));
                state.path.push((var, value));
                let mut line = state.narrator.tried(depth, var, value);
                if index == 0 && alternatives < universe {
                    let word = state.narrator.value_word();
                    line.push_str(&format!(" ({alternatives} of {universe} {word}s left)"));
                }
                state.say(depth, line);
            }
            Event::Fail { depth } => {
                let depth = depth as usize;
                state.path.truncate(depth);
                let path = state.path.clone();
                let reason = state.narrator.failed(&path);
                state.say(depth.max(1), format!("fail: {reason}"));
            }
            Event::Solution { depth } => {
                let path = state.path[..(depth as usize).min(state.path.len())].to_vec();
                let line = format!("solution: {}", state.narrator.solution(&path));
                state.say((depth as usize).max(1), line);
            }
            Event::Backtrack { depth } => {
                let depth = depth as usize;
                let var = state.path.get(depth).and_then(|choice| choice.0);
                state.path.truncate(depth);
                let level = state.narrator.level(var);
                let word = state.narrator.value_word();
                state.say(depth + 1, format!("back to {level}: its next {word}"));
            }
            Event::Restart => {
                state.path.clear();
                state.say(0, "restart from the root".to_string());
            }
            Event::Run { run, replayed } => {
                let replayed = replayed as usize;
                state.path.truncate(replayed);
                let line = if replayed == 0 {
                    format!("run {run}: from the first choice")
                } else {
                    let kept = state.path[..replayed.saturating_sub(1)].to_vec();
                    if kept.is_empty() {
                        format!("run {run}: replay the first choice, moved to its next alternative")
                    } else {
                        format!(
                            "run {run}: replay {replayed} choices: {}, and the last one moved to its next alternative",
                            state.narrator.describe(&kept)
                        )
                    }
                };
                state.say(0, line);
            }
            _ => {}
        }
    }
}

/// n-queens on the model of `puzzles::queens`: variable `i` is row `i`, value `c` column `c`.
pub struct Queens {
    /// The board size.
    pub n: usize,
}

impl Queens {
    /// The queens placed on `path`: (row, column), 0-based.
    fn placed(path: &[(Option<VarId>, u32)]) -> Vec<(usize, usize)> {
        path.iter()
            .filter_map(|&(var, value)| var.map(|v| (v.index(), value as usize)))
            .collect()
    }
}

/// Whether queens at `a` and `b` attack each other, and how.
fn attack(a: (usize, usize), b: (usize, usize)) -> Option<&'static str> {
    if a.1 == b.1 {
        Some("the same column as")
    } else if a.0.abs_diff(b.0) == a.1.abs_diff(b.1) {
        Some("on a diagonal with")
    } else {
        None
    }
}

impl Narrator for Queens {
    fn tried(&mut self, _depth: usize, var: Option<VarId>, value: u32) -> String {
        match var {
            Some(v) => format!("row {}: try column {}", v.index() + 1, value + 1),
            None => format!("try alternative {}", value + 1),
        }
    }

    fn failed(&mut self, path: &[(Option<VarId>, u32)]) -> String {
        let placed = Self::placed(path);
        // A queen attacking one placed before it (generate and test places any).
        for (k, &queen) in placed.iter().enumerate() {
            for &other in &placed[..k] {
                if let Some(how) = attack(queen, other) {
                    return format!(
                        "the queen of row {} is {how} the queen of row {}",
                        queen.0 + 1,
                        other.0 + 1
                    );
                }
            }
        }
        // A row left with no safe column, perhaps once the rows with one safe column
        // take it (as propagation does).
        let mut queens = placed;
        let mut forced: Vec<String> = Vec::new();
        loop {
            let open: Vec<usize> = (0..self.n)
                .filter(|r| queens.iter().all(|q| q.0 != *r))
                .collect();
            let safe = |row: usize, queens: &[(usize, usize)]| -> Vec<usize> {
                (0..self.n)
                    .filter(|&c| queens.iter().all(|&q| attack((row, c), q).is_none()))
                    .collect()
            };
            if let Some(&row) = open.iter().find(|&&r| safe(r, &queens).is_empty()) {
                let then = if forced.is_empty() {
                    String::new()
                } else {
                    format!("{}; then ", forced.join(", "))
                };
                return format!("{then}no safe column is left for row {}", row + 1);
            }
            let Some((row, column)) = open.iter().find_map(|&r| match safe(r, &queens)[..] {
                [c] => Some((r, c)),
                _ => None,
            }) else {
                return "the rows left cannot all be filled".to_string();
            };
            forced.push(format!(
                "row {} can only take column {}",
                row + 1,
                column + 1
            ));
            queens.push((row, column));
        }
    }

    fn describe(&mut self, path: &[(Option<VarId>, u32)]) -> String {
        let mut placed = Self::placed(path);
        placed.sort_unstable();
        let rows: Vec<String> = placed
            .iter()
            .map(|q| format!("row {} in column {}", q.0 + 1, q.1 + 1))
            .collect();
        rows.join(", ")
    }

    fn solution(&mut self, path: &[(Option<VarId>, u32)]) -> String {
        let rest = if Self::placed(path).len() < self.n {
            ", and the rows left forced by propagation"
        } else {
            ""
        };
        format!("{}{rest}", self.describe(path))
    }

    fn level(&mut self, var: Option<VarId>) -> String {
        var.map_or("the last choice".to_string(), |v| {
            format!("row {}", v.index() + 1)
        })
    }

    fn value_word(&self) -> &'static str {
        "column"
    }
}

/// The word chain on the model of `puzzles::word_chain`: variable `i` chooses from list
/// `i`, value `k` is its `k`-th word.
pub struct Chain {
    /// The lists of words.
    pub lists: Vec<Vec<String>>,
}

impl Chain {
    fn word(&self, var: Option<VarId>, value: u32) -> Option<&str> {
        let list = self.lists.get(var?.index())?;
        list.get(value as usize).map(String::as_str)
    }
}

impl Narrator for Chain {
    fn tried(&mut self, _depth: usize, var: Option<VarId>, value: u32) -> String {
        match (var, self.word(var, value)) {
            (Some(v), Some(word)) => format!("list {}: try {word:?}", v.index() + 1),
            _ => format!("try alternative {}", value + 1),
        }
    }

    fn failed(&mut self, path: &[(Option<VarId>, u32)]) -> String {
        let words: Vec<(usize, &str)> = path
            .iter()
            .filter_map(|&(var, value)| Some((var?.index(), self.word(var, value)?)))
            .collect();
        // Two chosen neighbours that do not link.
        for &(i, a) in &words {
            if let Some(&(_, b)) = words.iter().find(|(j, _)| *j == i + 1) {
                if !crate::puzzles::word_chain::linked(a, b) {
                    return format!("{a:?} does not end with the first letter of {b:?}");
                }
            }
        }
        // The lists next to chosen words: one with no word that links, perhaps once the
        // lists with a single word that links take it (as propagation does).
        let mut fixed: Vec<Option<&str>> = vec![None; self.lists.len()];
        for &(i, w) in &words {
            fixed[i] = Some(w);
        }
        let mut forced: Vec<String> = Vec::new();
        loop {
            let mut progress = false;
            for j in 0..self.lists.len() {
                if fixed[j].is_some() {
                    continue;
                }
                let before = j.checked_sub(1).and_then(|i| fixed[i]);
                let after = fixed.get(j + 1).copied().flatten();
                if before.is_none() && after.is_none() {
                    continue;
                }
                let fits: Vec<&str> = self.lists[j]
                    .iter()
                    .map(String::as_str)
                    .filter(|w| before.is_none_or(|a| crate::puzzles::word_chain::linked(a, w)))
                    .filter(|w| after.is_none_or(|b| crate::puzzles::word_chain::linked(w, b)))
                    .collect();
                match fits[..] {
                    [] => {
                        let then = if forced.is_empty() {
                            String::new()
                        } else {
                            format!("{}; then ", forced.join(", "))
                        };
                        let why = match before {
                            Some(a) => format!(
                                "no word of list {} starts with {:?}",
                                j + 1,
                                a.chars().last().unwrap_or(' ')
                            ),
                            None => format!("no word of list {} links its neighbours", j + 1),
                        };
                        return format!("{then}{why}");
                    }
                    [only] => {
                        forced.push(format!("list {} can only take {only:?}", j + 1));
                        fixed[j] = Some(only);
                        progress = true;
                    }
                    _ => {}
                }
            }
            if !progress {
                return "no way to finish the chain".to_string();
            }
        }
    }

    fn solution(&mut self, path: &[(Option<VarId>, u32)]) -> String {
        let rest = if path.len() < self.lists.len() {
            ", the other words forced by propagation"
        } else {
            ""
        };
        format!("{}{rest}", self.describe(path))
    }

    fn describe(&mut self, path: &[(Option<VarId>, u32)]) -> String {
        let mut words: Vec<(usize, &str)> = path
            .iter()
            .filter_map(|&(var, value)| Some((var?.index(), self.word(var, value)?)))
            .collect();
        words.sort_unstable();
        let words: Vec<&str> = words.into_iter().map(|(_, w)| w).collect();
        format!("{:?}", words.join(" "))
    }

    fn level(&mut self, var: Option<VarId>) -> String {
        var.map_or("the last choice".to_string(), |v| {
            format!("list {}", v.index() + 1)
        })
    }

    fn value_word(&self) -> &'static str {
        "word"
    }
}
