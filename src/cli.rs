//! Command-line plumbing of the examples: argument errors print usage and exit 2.

use std::fmt::Display;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ambsolve::Solutions;
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
pub fn count_with_progress<T>(solutions: &mut Solutions<'_, T>) -> u64 {
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut total = 0;
    let mut shown = false;
    loop {
        total += solutions.count_for(Duration::from_millis(200));
        if solutions.stop_reason().is_some() || solutions.error().is_some() {
            break;
        }
        if terminal && started.elapsed() >= Duration::from_secs(1) {
            eprint!(
                "\r{:5.1}% of the first choice's branches done, {total} solutions so far (Ctrl-C stops) ",
                solutions.progress() * 100.0
            );
            shown = true;
        }
    }
    if shown {
        eprint!("\r\x1b[2K");
    }
    total
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
