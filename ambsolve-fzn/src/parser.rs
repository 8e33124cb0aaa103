//! Reads a FlatZinc file line by line into an [`Ast`].
//!
//! The grammar is the [`flatzinc`] crate's (potassco/flatzinc, the parser Pumpkin uses):
//! it parses every `.fzn` file MiniZinc 2.6.4 writes for the benchmark suite, and it parses
//! one statement at a time, which fits how MiniZinc writes FlatZinc (one item a line) and
//! lets every error name its line. A statement spread over several lines is therefore
//! refused, with the line it starts on. Predicate declarations are skipped unparsed (see
//! `is_predicate`).

use std::io::BufRead;

use flatzinc::{ParDeclItem, Stmt, VarDeclItem};

use crate::ast::{Ast, Located};
use crate::error::FznError;

/// Parses FlatZinc text.
///
/// # Errors
/// [`FznError::Syntax`] for a line that is not a FlatZinc item, [`FznError::Float`] for a
/// float variable or parameter, [`FznError::NoSolve`] if no line is a solve item, and an
/// [`FznError::Invalid`] for a second solve item.
pub fn parse_str(text: &str) -> Result<Ast, FznError> {
    parse_reader(text.as_bytes())
}

/// Parses FlatZinc read from `reader`, one line at a time.
///
/// # Errors
/// As [`parse_str`], and [`FznError::Io`] if reading fails (or a line is not UTF-8).
pub fn parse_reader(reader: impl BufRead) -> Result<Ast, FznError> {
    let mut parameters = Vec::new();
    let mut variables = Vec::new();
    let mut constraints = Vec::new();
    let mut solve = None;
    for (at, line) in reader.lines().enumerate() {
        let line_number = at + 1;
        let text = line.map_err(|e| FznError::Io(format!("line {line_number}: {e}")))?;
        let trimmed = text.trim_start();
        if trimmed.is_empty() || is_predicate(trimmed) {
            continue;
        }
        let statement = statement(&text).map_err(|message| FznError::Syntax {
            line: line_number,
            message: first_line(&message),
        })?;
        match statement {
            Stmt::Comment(_) | Stmt::Predicate(_) => {}
            Stmt::Parameter(item) => {
                if is_float_parameter(&item) {
                    return Err(FznError::Float { line: line_number });
                }
                parameters.push(Located {
                    line: line_number,
                    item,
                });
            }
            Stmt::Variable(item) => {
                if is_float_variable(&item) {
                    return Err(FznError::Float { line: line_number });
                }
                variables.push(Located {
                    line: line_number,
                    item,
                });
            }
            Stmt::Constraint(item) => constraints.push(Located {
                line: line_number,
                item,
            }),
            Stmt::SolveItem(item) => {
                if let Some(first) = &solve {
                    let first: &Located<_> = first;
                    return Err(FznError::invalid(
                        line_number,
                        format!("a second solve item (the first is on line {})", first.line),
                    ));
                }
                solve = Some(Located {
                    line: line_number,
                    item,
                });
            }
        }
    }
    Ok(Ast {
        parameters,
        variables,
        constraints,
        solve: solve.ok_or(FznError::NoSolve)?,
    })
}

/// One statement. The grammar's own entry point (`str::parse::<Stmt>`) builds a tree of
/// every alternative it tried, for its message, and that tree costs most of a parse: on
/// the suite's files, reading took longer than compiling and solving together. So the
/// same alternatives, in the same order, are first tried with winnow's empty error, which
/// allocates nothing, and only a line that fails them is parsed again for the message.
fn statement(line: &str) -> Result<Stmt, String> {
    use flatzinc::comments::space_or_comment;
    use flatzinc::constraints::constraint_item;
    use flatzinc::parameters::declarations::par_decl_item;
    use flatzinc::solve_items::solve_item;
    use flatzinc::variables::declarations::var_decl_item;
    use winnow::Parser;
    use winnow::combinator::alt;

    let quick = alt((
        par_decl_item::<()>.map(Stmt::Parameter),
        var_decl_item::<()>.map(Stmt::Variable),
        constraint_item::<()>.map(Stmt::Constraint),
        solve_item::<()>.map(Stmt::SolveItem),
        space_or_comment::<()>,
    ))
    .parse(line);
    match quick {
        Ok(statement) => Ok(statement),
        Err(_) => line.parse::<Stmt>(),
    }
}

/// Whether a line is a predicate declaration. These only declare the builtins the
/// constraints call, so they are skipped unparsed: MiniZinc writes the parameters of a
/// native global with their two-dimensional types (`array [int,int] of int: t` in
/// `fzn_table_int`), which the `flatzinc` crate does not accept.
fn is_predicate(line: &str) -> bool {
    line.strip_prefix("predicate")
        .is_some_and(|rest| rest.starts_with(char::is_whitespace))
}

/// The parser's message, on one line.
fn first_line(message: &str) -> String {
    let joined: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    joined.join(" ")
}

fn is_float_parameter(item: &ParDeclItem) -> bool {
    matches!(
        item,
        ParDeclItem::Float { .. } | ParDeclItem::ArrayOfFloat { .. }
    )
}

fn is_float_variable(item: &VarDeclItem) -> bool {
    matches!(
        item,
        VarDeclItem::Float { .. }
            | VarDeclItem::BoundedFloat { .. }
            | VarDeclItem::ArrayOfFloat { .. }
            | VarDeclItem::ArrayOfBoundedFloat { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use flatzinc::Goal;

    #[test]
    fn items_are_sorted_by_kind_with_their_lines() {
        let ast = parse_str(
            "predicate p(var int: x);\n\
             predicate fzn_table_int(array [int] of var int: x,array [int,int] of int: t);\n\
             int: n = 3;\n\
             \n\
             var 1..3: x :: output_var;\n\
             constraint int_le(x, n);\n\
             solve satisfy;\n",
        )
        .expect("valid FlatZinc");
        assert_eq!(ast.parameters.len(), 1);
        assert_eq!(ast.parameters[0].line, 3);
        assert_eq!(ast.variables[0].line, 5);
        assert_eq!(ast.constraints[0].line, 6);
        assert_eq!(ast.constraints[0].item.id, "int_le");
        assert_eq!(ast.solve.line, 7);
        assert_eq!(ast.solve.item.goal, Goal::Satisfy);
    }

    #[test]
    fn a_malformed_line_is_named() {
        let error = parse_str("var 1..3: x;\nconstraint int_le(x 3);\nsolve satisfy;\n")
            .expect_err("malformed");
        assert!(
            matches!(error, FznError::Syntax { line: 2, .. }),
            "{error:?}"
        );
        assert!(
            error.to_string().starts_with("line 2: not FlatZinc"),
            "{error}"
        );
        assert!(!error.to_string().contains('\n'), "one line: {error}");
    }

    /// The `.fzn` files under `dir`, at any depth.
    fn fzn_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a test directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                fzn_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "fzn") {
                out.push(path);
            }
        }
    }

    #[test]
    fn the_quick_path_reads_every_line_as_the_grammar_does() {
        let mut files = Vec::new();
        fzn_files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"),
            &mut files,
        );
        assert!(files.len() >= 31, "the suite's files: {files:?}");
        let mut lines = 0;
        for file in &files {
            let text = std::fs::read_to_string(file).expect("readable");
            for line in text.lines().filter(|l| !is_predicate(l.trim_start())) {
                assert_eq!(
                    statement(line),
                    line.parse::<Stmt>(),
                    "{}: {line}",
                    file.display()
                );
                lines += 1;
            }
        }
        assert!(lines > 10_000, "{lines} lines");
        for malformed in [
            "constraint int_le(x 3);",
            "var 1..: x;",
            "solve minimize;",
            "array [1..2] of int: a = [1,2;",
            "constraint int_le(x, 3)",
        ] {
            let quick = statement(malformed);
            assert!(quick.is_err(), "{malformed}");
            assert_eq!(quick, malformed.parse::<Stmt>(), "{malformed}");
        }
    }

    #[test]
    fn floats_are_refused_with_their_line() {
        let error =
            parse_str("var 1..3: x;\nvar 0.0..1.5: f;\nsolve satisfy;\n").expect_err("a float");
        assert_eq!(error, FznError::Float { line: 2 });
        assert!(error.to_string().contains("floats are not supported"));
        let error = parse_str("float: f = 1.5;\nsolve satisfy;\n").expect_err("a float");
        assert_eq!(error, FznError::Float { line: 1 });
    }

    #[test]
    fn a_model_needs_exactly_one_solve_item() {
        assert_eq!(parse_str("var 1..3: x;\n"), Err(FznError::NoSolve));
        let error = parse_str("solve satisfy;\nsolve satisfy;\n").expect_err("two");
        assert_eq!(error.line(), Some(2));
    }

    #[test]
    fn a_statement_over_two_lines_is_refused_where_it_starts() {
        let error = parse_str("var 1..3: x;\nconstraint int_le(x,\n 3);\nsolve satisfy;\n")
            .expect_err("split over lines");
        assert_eq!(error.line(), Some(2));
    }
}
