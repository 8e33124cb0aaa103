//! Command-line plumbing of the examples: argument errors print usage and exit 2.

use std::fmt::Display;
use std::process::ExitCode;

use clap::Parser;

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

/// Reports a bad input (an unreadable or malformed file) and gives the exit status 2.
pub fn input_error(program: &str, message: impl Display) -> ExitCode {
    eprintln!("{program}: {message}");
    ExitCode::from(USAGE_ERROR)
}
