//! Command-line plumbing of the examples: argument errors print usage and exit 2.

use std::fmt::Display;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ambsolve::{SearchError, Solutions, TrySolutions};
use clap::{CommandFactory, Parser};

/// The exit status of a bad command line or a bad input file.
pub const USAGE_ERROR: u8 = 2;

/// Parses the command line. `--help` prints help and exits 0; any error prints the error and
/// the usage line to standard error and exits with status 2.
pub fn parse<P: Parser>() -> P {
    match P::try_parse() {
        Ok(args) => args,
        Err(error) if !error.use_stderr() => error.exit(),
        Err(error) => {
            let rendered = error.render().to_string();
            eprint!("{rendered}");
            if !rendered.contains("Usage:") {
                eprintln!("\n{}", P::command().render_usage());
            }
            std::process::exit(i32::from(USAGE_ERROR));
        }
    }
}

/// Reports a bad combination of arguments with the usage line, and gives the status 2.
pub fn usage_error<P: CommandFactory>(message: &str) -> ExitCode {
    eprintln!("error: {message}\n\n{}", P::command().render_usage());
    ExitCode::from(USAGE_ERROR)
}

/// Counts the remaining solutions. A count that runs longer than a second shows its
/// progress on standard error — the share of the first choice's branches finished
/// (the deeper ones refine it) and the count so far — when standard error is a terminal.
///
/// # Errors
/// The [`SearchError`] that ended the search, if one did (see [`search_error`]).
pub fn count_with_progress<T>(solutions: &mut Solutions<'_, T>) -> Result<u64, SearchError> {
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut total = 0;
    let mut shown = false;
    let result = loop {
        match solutions.count_for(Duration::from_millis(200)) {
            Ok(found) => total += found,
            Err(error) => break Err(error),
        }
        if solutions.stop_reason().is_some() {
            break Ok(total);
        }
        if terminal && started.elapsed() >= Duration::from_secs(1) {
            eprint!(
                "\r{:5.1}% of the first choice's branches done, {total} solutions so far (Ctrl-C stops) ",
                solutions.progress() * 100.0
            );
            shown = true;
        }
    };
    if shown {
        eprint!("\r\x1b[2K");
    }
    result
}

/// Reports a search that could not go on (an invalid model, a replayed program that is
/// not deterministic) as `error: <message>` on standard error, and gives the status 1.
pub fn search_error(error: &SearchError) -> ExitCode {
    eprintln!("error: {error}");
    ExitCode::FAILURE
}

/// Prints every solution with `show`, then `solutions: <count>`, and gives the status 0.
/// If the search cannot go on, what was printed stays, the count is not printed, and the
/// error is reported as [`search_error`] does.
pub fn print_all<T>(
    solutions: TrySolutions<'_, T>,
    mut show: impl FnMut(&mut Output, T),
) -> ExitCode {
    let mut out = Output::new();
    let mut count = 0u64;
    for solution in solutions {
        match solution {
            Ok(solution) => show(&mut out, solution),
            Err(error) => {
                out.flush();
                return search_error(&error);
            }
        }
        count += 1;
    }
    out.line(format!("solutions: {count}"));
    ExitCode::SUCCESS
}

/// Reports a bad input (an unreadable or malformed file) and gives the exit status 2.
pub fn input_error(program: &str, message: impl Display) -> ExitCode {
    eprintln!("{program}: {message}");
    ExitCode::from(USAGE_ERROR)
}

/// Standard output, buffered, for examples that print many lines. A closed pipe
/// (`nqueens 16 --all | head`) ends the program quietly with status 0 instead of a panic;
/// any other write error is reported with status 1.
pub struct Output {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
}

impl Output {
    /// Locks standard output for this program.
    pub fn new() -> Self {
        Output {
            out: std::io::BufWriter::new(std::io::stdout().lock()),
        }
    }

    /// Writes `text` and a newline.
    pub fn line(&mut self, text: impl Display) {
        use std::io::Write;
        let result = writeln!(self.out, "{text}");
        Self::check(result);
    }

    /// Writes out what is buffered.
    pub fn flush(&mut self) {
        use std::io::Write;
        let result = self.out.flush();
        Self::check(result);
    }

    fn check(result: std::io::Result<()>) {
        match result {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
            Err(error) => {
                eprintln!("cannot write to standard output: {error}");
                std::process::exit(1);
            }
        }
    }
}

impl Default for Output {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        self.flush();
    }
}

#[cfg(test)]
mod tests {
    use ambsolve::{Cmp, Engine, Model, StopReason, replay};

    use super::*;
    use crate::puzzles::queens::queens;

    #[test]
    fn counting_counts_every_solution() {
        let mut solutions = queens(6).solutions();
        assert_eq!(count_with_progress(&mut solutions), Ok(4));
        assert_eq!(solutions.stop_reason(), Some(StopReason::Exhausted));
    }

    #[test]
    fn counting_an_invalid_model_is_an_error() {
        let mut m = Model::new();
        let big = m.var([u64::MAX]);
        m.linear([(1, &big)], Cmp::Eq, 0);
        let mut solutions = m.solve(Engine::Trail).solutions();
        let counted = count_with_progress(&mut solutions);
        assert!(
            matches!(counted, Err(SearchError::InvalidModel(_))),
            "{counted:?}"
        );
    }

    #[test]
    fn counting_a_nondeterministic_program_is_an_error() {
        let mut calls = 0;
        let mut solutions = replay(move |amb| {
            calls += 1;
            amb.choose(0..2)?;
            amb.choose(0..calls)?;
            amb.fail::<()>()
        })
        .solutions();
        let counted = count_with_progress(&mut solutions);
        assert!(
            matches!(counted, Err(SearchError::Nondeterministic { .. })),
            "{counted:?}"
        );
    }
}
