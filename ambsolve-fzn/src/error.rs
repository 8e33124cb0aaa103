//! What can go wrong reading a FlatZinc file: each error names the line it is about.

use std::fmt;

/// A FlatZinc model that cannot be read or turned into an ambsolve [`Model`](ambsolve::Model).
///
/// Every variant that is about one item of the file carries its line (1-based), since
/// MiniZinc writes one item a line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FznError {
    /// The file could not be read.
    Io(String),
    /// A line is not FlatZinc.
    Syntax {
        /// The line.
        line: usize,
        /// What the parser said.
        message: String,
    },
    /// Floats (variables, parameters, objectives) are not supported.
    Float {
        /// The line.
        line: usize,
    },
    /// Constraints whose builtin ambsolve does not support yet: the first one met, and
    /// every other unsupported builtin of the file with the line it first appears on.
    Unsupported {
        /// Each unsupported builtin, once, with the first line it appears on, in the order of
        /// the file.
        builtins: Vec<(String, usize)>,
    },
    /// An item ambsolve understands but cannot take: a variable of more than `u32::MAX`
    /// values, an argument of the wrong kind, an unknown identifier.
    Invalid {
        /// The line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file has no solve item.
    NoSolve,
    /// Reading or compiling stopped before the end: the time limit passed, or a signal
    /// asked to stop.
    Stopped,
}

impl FznError {
    /// An [`Invalid`](FznError::Invalid) error at `line`.
    pub(crate) fn invalid(line: usize, message: impl Into<String>) -> Self {
        FznError::Invalid {
            line,
            message: message.into(),
        }
    }

    /// The line the error is about, if it is about one.
    pub fn line(&self) -> Option<usize> {
        match self {
            FznError::Syntax { line, .. }
            | FznError::Float { line }
            | FznError::Invalid { line, .. } => Some(*line),
            FznError::Unsupported { builtins } => builtins.first().map(|b| b.1),
            FznError::Io(_) | FznError::NoSolve | FznError::Stopped => None,
        }
    }

    /// For [`Unsupported`](FznError::Unsupported): the names of the unsupported builtins,
    /// in the order of the file. Empty for other errors.
    pub fn unsupported(&self) -> Vec<&str> {
        match self {
            FznError::Unsupported { builtins } => builtins.iter().map(|b| b.0.as_str()).collect(),
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for FznError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FznError::Io(message) => f.write_str(message),
            FznError::Syntax { line, message } => {
                write!(f, "line {line}: not FlatZinc: {message}")
            }
            FznError::Float { line } => write!(
                f,
                "line {line}: floats are not supported (ambsolve solves over integers and booleans)"
            ),
            FznError::Unsupported { builtins } => {
                let Some(((first, line), others)) = builtins.split_first() else {
                    return f.write_str("unsupported constraint");
                };
                write!(f, "unsupported constraint `{first}` (line {line})")?;
                if !others.is_empty() {
                    let others: Vec<String> = others
                        .iter()
                        .map(|(name, line)| format!("`{name}` (line {line})"))
                        .collect();
                    write!(f, "; also unsupported: {}", others.join(", "))?;
                }
                Ok(())
            }
            FznError::Invalid { line, message } => write!(f, "line {line}: {message}"),
            FznError::NoSolve => f.write_str("the model has no solve item"),
            FznError::Stopped => {
                f.write_str("stopped before the model was read (time limit or signal)")
            }
        }
    }
}

impl std::error::Error for FznError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsupported_constraint_is_named_with_its_line_then_the_others() {
        let one = FznError::Unsupported {
            builtins: vec![("int_times".into(), 12)],
        };
        assert_eq!(
            one.to_string(),
            "unsupported constraint `int_times` (line 12)"
        );
        assert_eq!(one.line(), Some(12));
        let two = FznError::Unsupported {
            builtins: vec![("int_times".into(), 12), ("bool_clause".into(), 30)],
        };
        assert_eq!(
            two.to_string(),
            "unsupported constraint `int_times` (line 12); also unsupported: `bool_clause` (line 30)"
        );
        assert_eq!(two.unsupported(), ["int_times", "bool_clause"]);
    }
}
