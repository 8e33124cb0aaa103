//! Errors that end a search: a program that is not deterministic, or a model that is wrong.

use std::fmt;

/// Why a search could not go on. A search that merely finds nothing is not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchError {
    /// Replay engine: a replayed choice saw a different number of alternatives than when it
    /// was recorded. The closure must make the same choices, with the same alternatives,
    /// whenever the earlier choices are the same.
    Nondeterministic {
        /// The depth of the choice (0 is the first choice of a run).
        depth: usize,
        /// Alternatives when the choice was first made.
        recorded: usize,
        /// Alternatives seen when it was replayed.
        replayed: usize,
    },
    /// Replay engine: while replaying a recorded path of `recorded` choices, the closure
    /// returned (or failed) after only `depth` of them, so it is not deterministic.
    EndedDuringReplay {
        /// Choices the run made before it returned.
        depth: usize,
        /// Length of the recorded path it was replaying.
        recorded: usize,
    },
    /// Replay engine: a choice had more alternatives than fit in a choice frame.
    TooManyAlternatives {
        /// The depth of the choice.
        depth: usize,
        /// How many alternatives it had.
        alternatives: usize,
    },
    /// Replay engine: an iterator passed to `choose` yielded fewer items than its exact
    /// `size_hint` promised.
    ShortIterator {
        /// The depth of the choice.
        depth: usize,
    },
    /// The model was built wrongly; the message says where.
    InvalidModel(String),
    /// A panic (in a predicate, a propagator or an `amb` program) unwound out of the
    /// search, which may have left it half-way through a step: it is not continued.
    Unwound,
    /// `best()` or `improving()` on a model without an objective (or on a hand-written
    /// `amb` program): there is nothing to optimise.
    NoObjective,
    /// A subproblem's path does not lead to a live node of the search tree: choice
    /// `depth` has no alternative `index`, or there is no choice `depth` (the path goes
    /// past a solution), or alternative `index` leads to a node that fails (the path
    /// ends there or goes through it). A path means something only for the model,
    /// engine and options that cut it.
    NoSuchSubproblem {
        /// The depth of the choice.
        depth: usize,
        /// The alternative the path asked for.
        index: u32,
    },
    /// A resumable count's checkpoint file could not be read or written, is not a
    /// regular file, is corrupted (the message names its first bad line), or belongs to
    /// another search or model; the message says which and why.
    Checkpoint(String),
    /// The search cannot be run as asked; the message says why (threads on a
    /// hand-written `amb` program, say).
    Unsupported(String),
    /// A search distributed over the processes of an MPI job (`ambsolve::distributed`,
    /// feature `mpi`) could not go on: a task failed on another process (the message names
    /// the process and gives the task's own error), MPI could not start as needed, or a
    /// message between processes was malformed.
    Distributed(String),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Nondeterministic {
                depth,
                recorded,
                replayed,
            } => write!(
                f,
                "the amb program is not deterministic: choice {depth} had {recorded} \
                 alternatives when recorded but {replayed} when replayed"
            ),
            SearchError::EndedDuringReplay { depth, recorded } => write!(
                f,
                "the amb program is not deterministic: replaying a recorded path of \
                 {recorded} choices, it returned after choice {depth}"
            ),
            SearchError::TooManyAlternatives {
                depth,
                alternatives,
            } => write!(
                f,
                "choice {depth} has {alternatives} alternatives, more than the {} a choice \
                 frame holds",
                u32::MAX
            ),
            SearchError::ShortIterator { depth } => write!(
                f,
                "the iterator given to choice {depth} yielded fewer items than its \
                 size_hint promised"
            ),
            SearchError::InvalidModel(message) => write!(f, "invalid model: {message}"),
            SearchError::Unwound => {
                f.write_str("the search was interrupted by a panic and cannot be continued")
            }
            SearchError::NoObjective => f.write_str(
                "nothing to optimise: the model has no objective (state one with \
                 `minimize ..;` or `maximize ..;`, or Model::minimize / Model::maximize)",
            ),
            SearchError::NoSuchSubproblem { depth, index } => write!(
                f,
                "no such subproblem: the path leaves the search tree at choice {depth}, \
                 alternative {index} (no such alternative, past a solution, or a node that \
                 fails; a subproblem belongs to the model, engine and options that cut it)"
            ),
            SearchError::Checkpoint(message) => write!(f, "checkpoint: {message}"),
            SearchError::Unsupported(message) => f.write_str(message),
            SearchError::Distributed(message) => {
                write!(f, "distributed search failed: {message}")
            }
        }
    }
}

impl std::error::Error for SearchError {}

#[cfg(test)]
mod tests {
    /// The `.rs` files under `dir`, at any depth.
    fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a source directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// One module-file style in every crate of the workspace: a module with children is
    /// a folder with its `mod.rs`, never a `foo.rs` beside a `foo/`.
    #[test]
    fn no_module_is_a_file_beside_its_folder() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        for dir in [
            "ambsolve/src",
            "ambsolve-fzn/src",
            "ambsolve-macros/src",
            "src",
            "examples",
        ] {
            let dir = root.join(dir);
            if dir.is_dir() {
                sources(&dir, &mut files);
            }
        }
        assert!(files.len() > 100, "{} sources", files.len());
        let beside: Vec<_> = files
            .iter()
            .filter(|file| file.with_extension("").is_dir())
            .collect();
        assert!(
            beside.is_empty(),
            "write these as folder/mod.rs: {beside:#?}"
        );
    }

    /// No message the library writes holds a run of spaces: a string literal broken
    /// over two lines without its `\` keeps the second line's indentation (three
    /// `Unsupported` messages of `solve/mod.rs` did).
    #[test]
    fn no_string_literal_holds_a_run_of_spaces() {
        let mut files = Vec::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        let mut offending = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).expect("readable");
            for (at, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                // The parts between quotes on one line: every other piece.
                let literals = line.split('"').skip(1).step_by(2);
                if literals.into_iter().any(|s| s.trim().contains("   ")) {
                    offending.push(format!("{}:{}: {line}", file.display(), at + 1));
                }
            }
        }
        assert!(offending.is_empty(), "{offending:#?}");
    }
}
