//! Reads a FlatZinc file statement by statement into an [`Ast`].
//!
//! The statements are cut here: a statement ends at a `;` outside strings and `%`
//! comments, whatever the line breaks (one statement may span lines, several may share
//! one), and each is named by the line it starts on. A statement's spacing is made
//! canonical (see `Statements`) before the [`flatzinc`] crate's grammar (potassco/
//! flatzinc, the parser Pumpkin uses) reads it: the crate wants a space in some places
//! the FlatZinc grammar does not (after `solve`) and none in others where the grammar
//! allows one (before a second `::` annotation). Predicate declarations are skipped
//! unparsed (see `is_predicate`).
//!
//! Reading takes bounded memory: a statement longer than [`MAX_STATEMENT`] bytes, a
//! control character (a NUL of `/dev/zero`) or text that is not UTF-8 is an error naming
//! its line, and comments are skipped, not kept.

use std::io::BufRead;
use std::time::Instant;

use ambsolve::CancelFlag;
use flatzinc::{ConstraintItem, ParDeclItem, SolveItem, Stmt, VarDeclItem};

use crate::ast::{Ast, Located};
use crate::error::FznError;

/// The longest statement read, in bytes (256 MiB): a table of tens of millions of
/// entries fits; an endless line is refused once it is this long.
pub const MAX_STATEMENT: usize = 1 << 28;

/// When reading and compiling must stop early: a deadline (the solver's time limit
/// covers the whole run) or a flag a signal sets. Checked between statements and every
/// megabyte within one.
#[derive(Clone, Debug, Default)]
pub struct ReadLimits {
    /// Stop once this instant has passed.
    pub deadline: Option<Instant>,
    /// Stop once this flag is set.
    pub cancel: Option<CancelFlag>,
}

impl ReadLimits {
    /// No limit.
    pub fn none() -> Self {
        Self::default()
    }

    /// Whether the deadline passed or the flag is set.
    pub fn passed(&self) -> bool {
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        late || self.cancel.as_ref().is_some_and(CancelFlag::is_cancelled)
    }

    /// [`FznError::Stopped`] if the deadline passed or the flag is set.
    pub(crate) fn check(&self) -> Result<(), FznError> {
        if self.passed() {
            Err(FznError::Stopped)
        } else {
            Ok(())
        }
    }
}

/// Parses FlatZinc text.
///
/// # Errors
/// [`FznError::Syntax`] for a statement that is not a FlatZinc item, [`FznError::Float`]
/// for a float variable or parameter, [`FznError::NoSolve`] if no statement is a solve
/// item, and an [`FznError::Invalid`] for a second solve item.
pub fn parse_str(text: &str) -> Result<Ast, FznError> {
    parse_reader(text.as_bytes(), &ReadLimits::none())
}

/// Parses FlatZinc read from `reader`, one statement at a time, stopping when `limits`
/// say so.
///
/// # Errors
/// As [`parse_str`]; [`FznError::Io`] if reading fails, [`FznError::Syntax`] for text
/// that is not UTF-8, a control character or a statement longer than [`MAX_STATEMENT`];
/// [`FznError::Stopped`] when `limits` stop it.
pub fn parse_reader(reader: impl BufRead, limits: &ReadLimits) -> Result<Ast, FznError> {
    let mut parameters = Vec::new();
    let mut variables = Vec::new();
    let mut constraints = Vec::new();
    let solve = parse_with(reader, limits, |item| {
        match item {
            Item::Parameter(located) => parameters.push(located),
            Item::Variable(located) => variables.push(located),
            Item::Constraint(located) => constraints.push(located),
        }
        Ok(())
    })?;
    Ok(Ast {
        parameters,
        variables,
        constraints,
        solve,
    })
}

/// An item of the file other than the solve item, as [`parse_with`] hands it over.
pub(crate) enum Item {
    Parameter(Located<ParDeclItem>),
    Variable(Located<VarDeclItem>),
    Constraint(Located<ConstraintItem>),
}

/// Parses FlatZinc read from `reader`, handing each item to `take` as it is read (so
/// that the caller need not keep it); the solve item is returned at the end.
///
/// # Errors
/// As [`parse_reader`], and what `take` says.
pub(crate) fn parse_with(
    reader: impl BufRead,
    limits: &ReadLimits,
    mut take: impl FnMut(Item) -> Result<(), FznError>,
) -> Result<Located<SolveItem>, FznError> {
    let mut solve: Option<Located<SolveItem>> = None;
    let mut statements = Statements::new(reader, limits);
    let mut count = 0u32;
    while let Some((line_number, text)) = statements.next_statement()? {
        count = count.wrapping_add(1);
        if count % 1024 == 0 {
            limits.check()?;
        }
        if !text.ends_with(';') {
            let start: String = text.chars().take(40).collect();
            return Err(FznError::Syntax {
                line: line_number,
                message: format!("the file ends before the `;` of `{start}`"),
            });
        }
        if is_predicate(&text) {
            continue;
        }
        let statement = match int_array(&text, limits)? {
            Some(item) => Stmt::Parameter(item),
            None => statement(&text).map_err(|message| FznError::Syntax {
                line: line_number,
                message: first_line(&message),
            })?,
        };
        drop(text);
        match statement {
            Stmt::Comment(_) | Stmt::Predicate(_) => {}
            Stmt::Parameter(item) => {
                if is_float_parameter(&item) {
                    return Err(FznError::Float { line: line_number });
                }
                take(Item::Parameter(Located {
                    line: line_number,
                    item,
                }))?;
            }
            Stmt::Variable(mut item) => {
                if is_float_variable(&item) {
                    return Err(FznError::Float { line: line_number });
                }
                var_annotations(&mut item).shrink_to_fit();
                take(Item::Variable(Located {
                    line: line_number,
                    item,
                }))?;
            }
            Stmt::Constraint(mut item) => {
                shrink_constraint(&mut item);
                take(Item::Constraint(Located {
                    line: line_number,
                    item,
                }))?;
            }
            Stmt::SolveItem(item) => {
                if let Some(first) = &solve {
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
    limits.check()?;
    solve.ok_or(FznError::NoSolve)
}

/// The size from which a statement that declares an array of integers is read here.
const LARGE: usize = 1 << 20;

/// A large parameter array of integers in decimal (`array [1..n] of int: t = [..];`, what
/// most of a big file's bytes are: tables), read here with the limits checked every
/// million values, as the grammar would read it in one go, past a deadline. `None` if
/// the statement is small or not one (the grammar reads it).
fn int_array(text: &str, limits: &ReadLimits) -> Result<Option<ParDeclItem>, FznError> {
    if text.len() < LARGE {
        return Ok(None);
    }
    let parsed = (|| {
        let rest = text.strip_prefix("array [1..")?;
        let (n, rest) = rest.split_once("] of int:")?;
        let (id, rest) = rest.split_once("=[")?;
        let body = rest.strip_suffix("];")?;
        let word =
            |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        let decimal = |w: &str| {
            let digits = w.strip_prefix('-').unwrap_or(w);
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        };
        (decimal(n) && word(id) && id.as_bytes()[0].is_ascii_alphabetic()).then_some(())?;
        Some((n.parse::<i128>().ok()?, id, body))
    })();
    let Some((n, id, body)) = parsed else {
        return Ok(None);
    };
    let mut values = Vec::with_capacity(body.len() / 2);
    if !body.is_empty() {
        for (k, value) in body.split(',').enumerate() {
            if k % (1 << 20) == 0 {
                limits.check()?;
            }
            let digits = value.strip_prefix('-').unwrap_or(value);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Ok(None);
            }
            match value.parse::<i128>() {
                Ok(value) => values.push(value),
                Err(_) => return Ok(None),
            }
        }
    }
    Ok(Some(ParDeclItem::ArrayOfInt {
        ix: flatzinc::IndexSet(n),
        id: id.to_string(),
        v: values,
    }))
}

/// The annotations of a variable declaration.
fn var_annotations(item: &mut VarDeclItem) -> &mut Vec<flatzinc::Annotation> {
    match item {
        VarDeclItem::Bool { annos, .. }
        | VarDeclItem::Int { annos, .. }
        | VarDeclItem::IntInRange { annos, .. }
        | VarDeclItem::IntInSet { annos, .. }
        | VarDeclItem::Float { annos, .. }
        | VarDeclItem::BoundedFloat { annos, .. }
        | VarDeclItem::SetOfInt { annos, .. }
        | VarDeclItem::SubSetOfIntSet { annos, .. }
        | VarDeclItem::SubSetOfIntRange { annos, .. }
        | VarDeclItem::ArrayOfBool { annos, .. }
        | VarDeclItem::ArrayOfInt { annos, .. }
        | VarDeclItem::ArrayOfIntInRange { annos, .. }
        | VarDeclItem::ArrayOfIntInSet { annos, .. }
        | VarDeclItem::ArrayOfFloat { annos, .. }
        | VarDeclItem::ArrayOfBoundedFloat { annos, .. }
        | VarDeclItem::ArrayOfSet { annos, .. }
        | VarDeclItem::ArrayOfSubSetOfIntRange { annos, .. }
        | VarDeclItem::ArrayOfSubSetOfIntSet { annos, .. } => annos,
    }
}

/// Gives back what the grammar's growing vectors left unused (a constraint of two
/// arguments kept room for four): a file of a million constraints keeps a million.
fn shrink_constraint(item: &mut ConstraintItem) {
    item.exprs.shrink_to_fit();
    item.annos.shrink_to_fit();
    item.id.shrink_to_fit();
}

/// The statements of a FlatZinc text, each with the line it starts on, in canonical
/// spacing: comments dropped, no space at all except one between two words
/// (`var int`, `minimize x`) and one after the keywords the `flatzinc` crate wants
/// followed by a space (`solve`, `var`, `array`, `of`, `set`, `constraint`,
/// `predicate`); strings are kept as they are.
struct Statements<'l, R> {
    reader: R,
    limits: &'l ReadLimits,
    scan: Scan,
    /// The bytes read since the limits were last checked.
    unchecked: usize,
}

/// Where the reader stands in the text, and the statement so far.
struct Scan {
    /// The line being read (1-based).
    line: usize,
    /// Inside a `%` comment, inside a string, just after a backslash in a string.
    comment: bool,
    string: bool,
    escaped: bool,
    /// Whitespace (or a comment) since the last byte kept.
    space: bool,
    /// Where the word being written starts in `text`, if the last byte kept is a word's.
    word: Option<usize>,
    /// The statement so far, and the line it starts on.
    text: Vec<u8>,
    first_line: usize,
}

/// The keywords the `flatzinc` crate wants a space after.
const SPACED: [&[u8]; 7] = [
    b"solve",
    b"var",
    b"array",
    b"of",
    b"set",
    b"constraint",
    b"predicate",
];

impl<'l, R: BufRead> Statements<'l, R> {
    fn new(reader: R, limits: &'l ReadLimits) -> Self {
        Statements {
            reader,
            limits,
            scan: Scan {
                line: 1,
                comment: false,
                string: false,
                escaped: false,
                space: false,
                word: None,
                text: Vec::new(),
                first_line: 1,
            },
            unchecked: 0,
        }
    }

    /// The next statement (its `;` included; the last may lack one), or `None` at the
    /// end of the text.
    fn next_statement(&mut self) -> Result<Option<(usize, String)>, FznError> {
        self.scan.text.clear();
        self.scan.word = None;
        self.scan.space = false;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(FznError::Io(format!("line {}: {e}", self.scan.line))),
            };
            if chunk.is_empty() {
                return if self.scan.text.is_empty() {
                    Ok(None)
                } else {
                    self.scan.finish().map(Some)
                };
            }
            let mut used = 0;
            let mut ended = false;
            for &byte in chunk {
                used += 1;
                if self.scan.take(byte)? {
                    ended = true;
                    break;
                }
            }
            self.reader.consume(used);
            self.unchecked += used;
            if self.unchecked >= 1 << 20 {
                self.unchecked = 0;
                self.limits.check()?;
            }
            if ended {
                return self.scan.finish().map(Some);
            }
        }
    }
}

impl Scan {
    /// Takes one byte; whether it ends the statement.
    fn take(&mut self, byte: u8) -> Result<bool, FznError> {
        if byte == b'\n' {
            self.line += 1;
        }
        if self.comment {
            self.comment = byte != b'\n';
            return Ok(false);
        }
        if self.string {
            self.keep(byte)?;
            if self.escaped {
                self.escaped = false;
            } else if byte == b'\\' {
                self.escaped = true;
            } else if byte == b'"' {
                self.string = false;
            }
            return Ok(false);
        }
        match byte {
            b' ' | b'\t' | b'\r' | b'\n' => {
                self.space = true;
                return Ok(false);
            }
            b'%' => {
                self.comment = true;
                self.space = true;
                return Ok(false);
            }
            0..=0x1f | 0x7f => {
                return Err(FznError::Syntax {
                    line: self.line,
                    message: format!("a control character (byte {byte:#04x}): not FlatZinc text"),
                });
            }
            _ => {}
        }
        let is_word = byte.is_ascii_alphanumeric() || byte == b'_';
        if let Some(start) = self.word
            && (self.space || !is_word)
        {
            // A word ends: a keyword gets a space on both sides.
            if SPACED.contains(&&self.text[start..]) {
                if start > 0 && self.text[start - 1] != b' ' {
                    self.text.insert(start, b' ');
                }
                self.text.push(b' ');
            } else if self.space && is_word {
                self.text.push(b' ');
            }
            self.word = None;
        }
        if self.text.is_empty() {
            self.first_line = self.line;
        }
        self.space = false;
        self.keep(byte)?;
        if is_word {
            if self.word.is_none() {
                self.word = Some(self.text.len() - 1);
            }
        } else {
            self.word = None;
        }
        self.string = byte == b'"';
        Ok(byte == b';')
    }

    /// Keeps a byte of the statement, within the bound.
    fn keep(&mut self, byte: u8) -> Result<(), FznError> {
        if self.text.len() >= MAX_STATEMENT {
            return Err(FznError::Syntax {
                line: self.first_line,
                message: format!(
                    "a statement longer than {} MiB (no `;` ends it)",
                    MAX_STATEMENT >> 20
                ),
            });
        }
        self.text.push(byte);
        Ok(())
    }

    /// The statement read, as text.
    fn finish(&mut self) -> Result<(usize, String), FznError> {
        let text = std::mem::take(&mut self.text);
        match String::from_utf8(text) {
            Ok(text) => Ok((self.first_line, text)),
            Err(e) => Err(FznError::Syntax {
                line: self.first_line,
                message: format!("not UTF-8 text ({e})"),
            }),
        }
    }
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
fn is_predicate(statement: &str) -> bool {
    statement
        .strip_prefix("predicate")
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
    use std::io::Read;

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

    /// The statements of `text` as the reader cuts and spaces them.
    fn cut(text: &str) -> Vec<(usize, String)> {
        let limits = ReadLimits::none();
        let mut statements = Statements::new(text.as_bytes(), &limits);
        let mut out = Vec::new();
        while let Some(statement) = statements.next_statement().expect("readable") {
            out.push(statement);
        }
        out
    }

    /// The tokens of a statement: words and numbers (with a sign, a fraction, an
    /// exponent), strings, `::`, `..` and single marks.
    fn tokens(text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let start = i;
            if c.is_whitespace() {
                i += 1;
                continue;
            } else if c == '"' {
                i += 1;
                while chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
            } else if word(c) || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
                i += 1;
                while i < chars.len() {
                    let d = chars[i];
                    let fraction = d == '.'
                        && chars.get(i + 1).is_some_and(char::is_ascii_digit)
                        && chars[start..i]
                            .iter()
                            .all(|c| c.is_ascii_digit() || *c == '-');
                    let exponent = (d == '-' || d == '+')
                        && matches!(chars[i - 1], 'e' | 'E')
                        && chars[start].is_ascii_digit() | (chars[start] == '-');
                    if word(d) || fraction || exponent {
                        i += 1;
                    } else {
                        break;
                    }
                }
            } else if (c == ':' || c == '.') && chars.get(i + 1) == Some(&c) {
                i += 2;
            } else {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        }
        out
    }

    #[test]
    fn the_quick_path_reads_every_statement_as_the_grammar_does_in_any_spacing() {
        let mut files = Vec::new();
        fzn_files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"),
            &mut files,
        );
        assert!(files.len() >= 31, "the suite's files: {files:?}");
        let mut lines = 0;
        for file in &files {
            let text = std::fs::read_to_string(file).expect("readable");
            let statements = cut(&text);
            let kept: Vec<&str> = text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('%'))
                .collect();
            assert_eq!(statements.len(), kept.len(), "{}", file.display());
            for (line, (_, canonical)) in kept.iter().zip(&statements) {
                if is_predicate(line.trim_start()) {
                    assert!(is_predicate(canonical), "{canonical}");
                    continue;
                }
                let expected = line.parse::<Stmt>();
                assert!(expected.is_ok(), "{}: {line}", file.display());
                assert_eq!(statement(canonical), expected, "{}: {line}", file.display());
                // Every token on its own line, indented, with comments between; and
                // no space at all where none is needed.
                let words = tokens(line);
                let spread = words.join(" % a comment; \"with\" marks\n\t ");
                let cut_spread = cut(&format!("\n{spread}\n"));
                assert_eq!(cut_spread.len(), 1, "{spread}");
                assert_eq!(cut_spread[0].0, 2, "{spread}");
                assert_eq!(statement(&cut_spread[0].1), expected, "{spread}");
                let mut tight = String::new();
                for word in &words {
                    let joins =
                        |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
                    if joins(tight.chars().last()) && joins(word.chars().next()) {
                        tight.push(' ');
                    }
                    tight.push_str(word);
                }
                assert_eq!(statement(&cut(&tight)[0].1), expected, "{tight}");
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
    fn a_second_solve_annotation_may_follow_a_space() {
        let ast = parse_str(
            "var 1..3: x;\nsolve :: int_search([x], input_order, indomain_min, complete) \
             :: restart_luby(2) satisfy;\n",
        )
        .expect("FlatZinc");
        assert_eq!(ast.solve.item.annotations.len(), 2);
        assert_eq!(ast.solve.item.annotations[1].id, "restart_luby");
        // Tight and loose spellings of one statement read the same.
        for (odd, plain) in [
            (
                "array[1..2]of var int:a::output_array([1..2])=[x,y];",
                "array [1..2] of var int: a :: output_array([1..2]) = [x,y];",
            ),
            ("var set of{1,3}:s;", "var set of {1,3}: s;"),
            (
                "solve::int_search(a,input_order,indomain_min,complete)satisfy;",
                "solve :: int_search(a,input_order,indomain_min,complete) satisfy;",
            ),
            (
                "constraint\tint_le ( x , y ) :: domain ;",
                "constraint int_le(x,y):: domain;",
            ),
            ("solve minimize\n  x % the cost\n;", "solve minimize x;"),
        ] {
            let odd = cut(odd);
            assert_eq!(odd.len(), 1);
            assert_eq!(statement(&odd[0].1), plain.parse::<Stmt>(), "{odd:?}");
            assert!(statement(&odd[0].1).is_ok(), "{odd:?}");
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
    fn a_statement_may_span_lines_and_is_named_by_its_first() {
        let ast =
            parse_str("var 1..3: x; var 1..3:\n y;\nconstraint int_le(x,\n 3);\nsolve\nsatisfy;\n")
                .expect("FlatZinc");
        assert_eq!(ast.variables[1].line, 1);
        assert_eq!(ast.constraints[0].line, 3);
        assert_eq!(ast.solve.line, 5);
        let error = parse_str("var 1..3: x;\n\nconstraint int_le(x\n 3);\nsolve satisfy;\n")
            .expect_err("malformed");
        assert_eq!(error.line(), Some(3));
    }

    #[test]
    fn endless_or_binary_text_is_refused_in_bounded_memory() {
        // A NUL (`/dev/zero`) or another control character is named at once.
        let error = parse_reader(
            std::io::BufReader::new(std::io::repeat(0).take(1 << 30)),
            &ReadLimits::none(),
        )
        .expect_err("binary");
        assert_eq!(error.line(), Some(1));
        assert!(
            error.to_string().contains("control character (byte 0x00)"),
            "{error}"
        );
        let error = parse_str("var 1..3: x;\nsolve satisfy;\u{7}").expect_err("a bell");
        assert_eq!(error.line(), Some(2));
        // Text that is not UTF-8.
        let error = parse_reader(&b"var 1..3: \xff;\nsolve satisfy;"[..], &ReadLimits::none())
            .expect_err("not UTF-8");
        assert!(error.to_string().contains("UTF-8"), "{error}");
        // An endless statement stops at the bound, with the line it starts on.
        let endless =
            std::io::Read::chain(&b"solve satisfy;\n\nconstraint "[..], std::io::repeat(b'a'));
        let error = parse_reader(std::io::BufReader::new(endless), &ReadLimits::none())
            .expect_err("endless");
        assert_eq!(error.line(), Some(3));
        assert!(error.to_string().contains("longer than 256 MiB"), "{error}");
        // Comments are skipped, however long.
        let comment = std::io::Read::chain(
            std::io::Read::chain(
                &b"% "[..],
                std::io::repeat(b'c').take(3 * MAX_STATEMENT as u64 / 2),
            ),
            &b"\nsolve satisfy;"[..],
        );
        assert!(parse_reader(std::io::BufReader::new(comment), &ReadLimits::none()).is_ok());
    }

    #[test]
    fn a_statement_cut_short_by_the_end_of_the_file_is_named() {
        let error = parse_str("var 1..3: x;\n\nsolve\n  satisfy").expect_err("no `;`");
        assert_eq!(error.line(), Some(3));
        assert!(
            error
                .to_string()
                .ends_with("the file ends before the `;` of `solve satisfy`"),
            "{error}"
        );
    }

    #[test]
    fn a_large_array_of_integers_reads_as_the_grammar_reads_it() {
        let values: Vec<String> = (0..300_000i64)
            .map(|k| ((k * 7919) % 2001 - 1000).to_string())
            .collect();
        let text = format!(
            "array [1..{}] of int: t_1 = [{}];",
            values.len(),
            values.join(", ")
        );
        let canonical = &cut(&text)[0].1;
        assert!(canonical.len() >= LARGE);
        let fast = int_array(canonical, &ReadLimits::none()).expect("no limit");
        assert!(fast.is_some(), "read here");
        assert!(Ok(Stmt::Parameter(fast.expect("read"))) == statement(canonical));
        // What the fast path does not read goes to the grammar (a hexadecimal value).
        let hex = canonical.replacen("=[-1000,", "=[0x1F,", 1);
        assert!(hex != *canonical);
        assert!(int_array(&hex, &ReadLimits::none()) == Ok(None));
        // Small statements too.
        assert_eq!(
            int_array("array [1..2] of int:a=[1,2];", &ReadLimits::none()),
            Ok(None)
        );
        // The limits are checked while it reads.
        let cancel = CancelFlag::new();
        cancel.cancel();
        let limits = ReadLimits {
            deadline: None,
            cancel: Some(cancel),
        };
        assert!(int_array(canonical, &limits) == Err(FznError::Stopped));
    }

    #[test]
    fn limits_stop_the_reading() {
        let cancel = CancelFlag::new();
        cancel.cancel();
        let limits = ReadLimits {
            deadline: None,
            cancel: Some(cancel),
        };
        assert_eq!(
            parse_reader(&b"solve satisfy;"[..], &limits),
            Err(FznError::Stopped)
        );
        let limits = ReadLimits {
            deadline: Some(Instant::now()),
            cancel: None,
        };
        let endless = std::io::repeat(b' ');
        assert_eq!(
            parse_reader(std::io::BufReader::new(endless), &limits),
            Err(FznError::Stopped)
        );
    }
}
