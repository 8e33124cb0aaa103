//! Command-line plumbing of the examples: argument errors print usage and exit 2, output
//! that cannot be written ends the program cleanly, and long searches are bounded by
//! limits and stopped by Ctrl-C, SIGTERM or SIGHUP with what they found, marked partial.

use std::fmt::Display;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Duration;

use ambsolve::{
    CancelFlag, Engine, Improvement, Limits, Puzzle, SearchError, Stats, StopReason, TryImproving,
    TrySolutions,
};
use clap::{CommandFactory, Parser};

/// The exit status of a bad command line or a bad input file.
pub const USAGE_ERROR: u8 = 2;

/// The exit status of a search stopped by Ctrl-C, SIGTERM or SIGHUP (see
/// [`interrupt_flag`]: the three signals cannot be told apart).
pub const INTERRUPTED: u8 = 130;

/// Parses the command line. `--help` prints help and exits 0; any error prints the error and
/// the usage line to standard error and exits with status 2. A standard output that was
/// closed when the program started (`>&-`) is an error too, with status 1, found before
/// any search (see [`stdout_was_closed`]).
pub fn parse<P: Parser>() -> P {
    match P::try_parse() {
        Ok(_) if stdout_was_closed() => {
            // EBADF: what a write to the closed descriptor would have said.
            let closed = std::io::Error::from_raw_os_error(9);
            note(format!("cannot write to standard output: {closed}"));
            std::process::exit(1);
        }
        Ok(args) => args,
        Err(error) if !error.use_stderr() => error.exit(),
        Err(error) => {
            let rendered = error.render().to_string();
            let mut message = rendered.trim_end().to_string();
            if !rendered.contains("Usage:") {
                message = format!("{message}\n\n{}", P::command().render_usage());
            }
            note(message);
            std::process::exit(i32::from(USAGE_ERROR));
        }
    }
}

/// Whether standard output was closed when the program started, as by `>&-` in a shell.
///
/// Rust's runtime opens `/dev/null` (for reading and writing) on a standard descriptor
/// that is closed at start, so every write would then succeed unseen; a descriptor 1 that
/// is `/dev/null` open for reading and writing is taken for that. (A shell's `>/dev/null`
/// opens it for writing only, and is a place to write to like any other.) Known on Linux
/// only, from `/proc/self`; elsewhere this is false.
pub fn stdout_was_closed() -> bool {
    if !cfg!(target_os = "linux") {
        return false;
    }
    let is_null = std::fs::read_link("/proc/self/fd/1")
        .is_ok_and(|target| target == std::path::Path::new("/dev/null"));
    // `flags:` in octal; the access mode is the low two bits: 2 is O_RDWR.
    let read_write = || {
        let info = std::fs::read_to_string("/proc/self/fdinfo/1").unwrap_or_default();
        info.lines()
            .find_map(|line| line.strip_prefix("flags:"))
            .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
            .is_some_and(|flags| flags & 0o3 == 0o2)
    };
    is_null && read_write()
}

/// Reports a bad combination of arguments with the usage line, and gives the status 2.
pub fn usage_error<P: CommandFactory>(message: &str) -> ExitCode {
    note(format!(
        "error: {message}\n\n{}",
        P::command().render_usage()
    ));
    ExitCode::from(USAGE_ERROR)
}

/// Writes `text` and a newline to standard error. A failed write is ignored: there is
/// nowhere left to report it (and a program must not panic for it).
pub fn note(text: impl Display) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// The flag that Ctrl-C (SIGINT), SIGTERM and SIGHUP set, installed on the first call; every
/// call gives the same flag. A second signal ends the program at once with status
/// [`INTERRUPTED`], in case the search does not stop soon enough.
///
/// The three signals share one handler (the `ctrlc` crate's `termination` feature), which is
/// not told which one came: all three give the status 130.
pub fn interrupt_flag() -> CancelFlag {
    static FLAG: OnceLock<CancelFlag> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = CancelFlag::new();
        let seen = flag.clone();
        let installed = ctrlc::set_handler(move || {
            if seen.is_cancelled() {
                std::process::exit(i32::from(INTERRUPTED));
            }
            seen.cancel();
        });
        if let Err(error) = installed {
            note(format!(
                "warning: Ctrl-C will not keep a partial result ({error})"
            ));
        }
        flag
    })
    .clone()
}

/// The flags that bound a search: `--time-limit SECONDS` and `--node-limit N`. Ctrl-C,
/// SIGTERM and SIGHUP stop it too. What was found until then is printed, marked partial.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Bounds {
    /// Stop the search after SECONDS (decimals allowed) and print what was found, marked
    /// partial.
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = parse_seconds,
        allow_negative_numbers = true
    )]
    pub time_limit: Option<Duration>,
    /// Stop the search after N nodes (choices made) and print what was found, marked
    /// partial.
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
}

impl Bounds {
    /// The limits of the search: these bounds and the [`interrupt_flag`].
    pub fn limits(&self) -> Limits {
        let mut limits = Limits::new().cancel(interrupt_flag());
        if let Some(time) = self.time_limit {
            limits = limits.time(time);
        }
        if let Some(nodes) = self.node_limit {
            limits = limits.nodes(nodes);
        }
        limits
    }
}

/// A number of seconds, such as `10` or `0.5`.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let wrong = || format!("expected a number of seconds such as 10 or 0.5, not {text:?}");
    let seconds: f64 = text.trim().parse().map_err(|_| wrong())?;
    Duration::try_from_secs_f64(seconds).map_err(|_| wrong())
}

/// Whether a search that stopped for `stop` (`None`: the program stopped reading it) left
/// its result partial: a limit or a signal stopped it before the end.
pub fn is_partial(stop: Option<StopReason>) -> bool {
    !matches!(stop, None | Some(StopReason::Exhausted))
}

/// The line that marks a result partial, or `None` if the search ran to its end: what
/// stopped it, how many `what` (`"solutions"`) were found, in how long, and the share of
/// the search done. For example
/// `partial: stopped by --time-limit; 1234 solutions found in 2.0s, about 3.1% of the search
/// done`.
pub fn partial_line(
    stop: Option<StopReason>,
    found: u64,
    what: &str,
    stats: &Stats,
    progress: f64,
) -> Option<String> {
    let why = match stop? {
        StopReason::Exhausted => return None,
        StopReason::Cancelled => "interrupted by Ctrl-C, SIGTERM or SIGHUP".to_string(),
        StopReason::TimeLimit => "stopped by --time-limit".to_string(),
        StopReason::NodeLimit => format!("stopped by --node-limit after {} nodes", stats.nodes),
        other => format!("stopped: {other}"),
    };
    let done = if progress < 0.001 {
        "less than 0.1%".to_string()
    } else {
        format!("about {:.1}%", progress * 100.0)
    };
    Some(format!(
        "partial: {why}; {found} {what} found in {:.1?}, {done} of the search done",
        stats.elapsed
    ))
}

/// The exit status of a program whose search stopped for `stop`: [`INTERRUPTED`] if a
/// signal stopped it, else 0 (a result cut short by a limit the user gave is marked
/// partial in the output, see [`partial_line`], and succeeds).
pub fn exit_status(stop: Option<StopReason>) -> ExitCode {
    if stop == Some(StopReason::Cancelled) {
        ExitCode::from(INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    }
}

// Progress lines are `progress`'s; the examples name them through `cli`, with the rest of
// their plumbing.
pub use crate::progress::{Progress, count_with_progress};

/// The number of cores of this machine (1 if it cannot be told): the examples' default
/// number of threads.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// A search cut into subproblems, for `--stats`: how many, on how many threads, and how
/// evenly the threads were kept busy (the busiest one's time over the mean).
pub fn parallel_line(subproblems: Option<(usize, usize)>, workers: &[Duration]) -> Option<String> {
    let (done, all) = subproblems?;
    let mut line = format!("subproblems: {done} of {all} done");
    let busy: Vec<f64> = workers.iter().map(Duration::as_secs_f64).collect();
    let mean = busy.iter().sum::<f64>() / busy.len().max(1) as f64;
    if mean > 0.0 {
        let slowest = busy.iter().copied().fold(0.0, f64::max);
        let times: Vec<String> = busy.iter().map(|b| format!("{b:.3} s")).collect();
        line += &format!(
            ", threads: {} (busy {}; imbalance {:.2})",
            busy.len(),
            times.join(", "),
            slowest / mean
        );
    }
    Some(line)
}

/// Reports a search that could not go on (an invalid model, a replayed program that is
/// not deterministic) as `error: <message>` on standard error, and gives the status 1.
pub fn search_error(error: &SearchError) -> ExitCode {
    note(format!("error: {error}"));
    ExitCode::FAILURE
}

/// Prints every solution with `show`, then `solutions: <count>`, and gives the status 0.
/// A search stopped by a limit or a signal adds a [`partial_line`] and gives its
/// [`exit_status`]. If the search cannot go on, what was printed stays, the count is not
/// printed, and the error is reported as [`search_error`] does.
pub fn print_all<T>(
    mut solutions: TrySolutions<'_, T>,
    mut show: impl FnMut(&mut Output, T),
) -> ExitCode {
    let mut out = Output::new();
    let mut count = 0u64;
    for solution in solutions.by_ref() {
        match solution {
            Ok(solution) => show(&mut out, solution),
            Err(error) => {
                out.flush();
                return search_error(&error);
            }
        }
        count += 1;
    }
    let stop = solutions.stop_reason();
    count_lines(
        &mut out,
        count,
        stop,
        &solutions.stats(),
        solutions.progress(),
    );
    out.flush();
    exit_status(stop)
}

/// Writes `solutions: <count>` and, if the search stopped for `stop` before its end, the
/// [`partial_line`] that says so.
pub fn count_lines(
    out: &mut Output,
    count: u64,
    stop: Option<StopReason>,
    stats: &Stats,
    progress: f64,
) {
    out.line(format!("solutions: {count}"));
    if let Some(line) = partial_line(stop, count, "solutions", stats, progress) {
        out.line(line);
    }
}

/// Runs a branch-and-bound search to its end and prints its outcome as
/// [`best_lines`] does, and gives the status 0 (or the [`exit_status`] of a search stopped
/// by a signal). If the search cannot go on, the error is reported as [`search_error`]
/// does.
pub fn print_best<T>(
    mut improving: TryImproving<'_, T>,
    what: (&str, &str),
    show: impl FnOnce(&mut Output, T, i64),
) -> ExitCode {
    let mut best = None;
    let mut found = 0u64;
    for step in improving.by_ref() {
        match step {
            Ok(step) => best = Some(step),
            Err(error) => return search_error(&error),
        }
        found += 1;
    }
    let mut out = Output::new();
    best_lines(&mut out, &improving, best, found, what, show);
    out.flush();
    exit_status(improving.stop_reason())
}

/// The outcome of a finished branch-and-bound search that found `found` improving
/// solutions, the last one `best`: the solution, printed with `show` (given the solution
/// and the objective's value), then `proved optimal in <time>`. `what` names one solution
/// and several (`("ruler", "rulers")`).
///
/// A search stopped by a limit or a signal prints the best solution it found, a
/// [`partial_line`] and `not proved optimal`. Without a solution it prints `no <one>
/// found`, and then `no <one> exists` if the search was exhausted.
pub fn best_lines<T>(
    out: &mut Output,
    improving: &TryImproving<'_, T>,
    best: Option<Improvement<T>>,
    found: u64,
    (one, many): (&str, &str),
    show: impl FnOnce(&mut Output, T, i64),
) {
    let stop = improving.stop_reason();
    let stats = improving.stats();
    match best {
        Some(best) => show(out, best.solution, best.objective),
        None => out.line(format!("no {one} found")),
    }
    match stop {
        Some(StopReason::Exhausted) if found > 0 => {
            out.line(format!("proved optimal in {:.3?}", stats.elapsed));
        }
        Some(StopReason::Exhausted) => out.line(format!("no {one} exists")),
        _ => {
            let what = if found == 1 { one } else { many };
            if let Some(line) = partial_line(stop, found, what, &stats, improving.progress()) {
                out.line(line);
            }
            out.line("not proved optimal");
        }
    }
}

/// An optimisation as the optimising examples run it: each better solution is checked by
/// `check` (one it refuses is an error naming why, exit status 1) and, with `each` (their
/// `--progress`), printed as it comes; on a terminal a progress line shows the time, the
/// best value so far and, with `count_nodes`, the nodes tried (observing keeps a search
/// on one thread: pass `false` for a search on several). Then [`best_lines`] prints the
/// best solution through `show`. Returns the search, for its statistics and stop reason.
///
/// # Errors
/// The exit status of a search that could not go on or of a refused solution.
pub fn improve<'a, T: 'a>(
    puzzle: Puzzle<'a, T>,
    out: &mut Output,
    names: (&str, &str),
    count_nodes: bool,
    check: impl Fn(&T, i64) -> Result<(), String>,
    each: Option<impl Fn(&Improvement<T>) -> String>,
    show: impl FnOnce(&mut Output, T, i64),
) -> Result<TryImproving<'a, T>, ExitCode> {
    let progress = Progress::on_terminal();
    let mut puzzle = puzzle;
    if let (Some(progress), true) = (&progress, count_nodes) {
        puzzle = puzzle.observe(progress.observer());
    }
    let mut improving = puzzle.try_improving();
    let (mut best, mut found) = (None, 0u64);
    for step in improving.by_ref() {
        let step = step.map_err(|error| {
            out.flush();
            search_error(&error)
        })?;
        if let Err(message) = check(&step.solution, step.objective) {
            out.flush();
            note(format!("error: {message}"));
            return Err(ExitCode::FAILURE);
        }
        if let Some(progress) = &progress {
            progress.note(format!(", best so far: {}", step.objective));
        }
        if let Some(each) = &each {
            let line = each(&step);
            let print = || {
                out.line(line);
                out.flush();
            };
            match &progress {
                Some(progress) => progress.suspend(print),
                None => print(),
            }
        }
        found += 1;
        best = Some(step);
    }
    if let Some(progress) = progress {
        progress.finish();
    }
    best_lines(out, &improving, best, found, names, show);
    Ok(improving)
}

/// The `--engine` flag of the examples that run on any engine: `trail`, `replay` or
/// `local`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
#[allow(missing_docs)] // variant docs would change the flag's help text
pub enum EngineArg {
    #[default]
    Trail,
    Replay,
    Local,
}

impl From<EngineArg> for Engine {
    fn from(engine: EngineArg) -> Engine {
        match engine {
            EngineArg::Trail => Engine::Trail,
            EngineArg::Replay => Engine::Replay,
            EngineArg::Local => Engine::Local,
        }
    }
}

/// The line that says why a local search stopped, or `None` if it did not stop (the
/// program stopped reading it): local search cannot tell that nothing is left, so this
/// never says that no solution exists. `budget`: the node limit the program set itself,
/// if it did. For example `no solution found by local search within the limit (stopped by
/// --time-limit after 2.0s; local search cannot prove that none exists)`.
pub fn local_stop_line(
    stop: Option<StopReason>,
    found: u64,
    what: (&str, &str),
    stats: &Stats,
    budget: Option<u64>,
) -> Option<String> {
    let why = match stop? {
        StopReason::Cancelled => "interrupted by Ctrl-C, SIGTERM or SIGHUP".to_string(),
        StopReason::TimeLimit => "stopped by --time-limit".to_string(),
        StopReason::NodeLimit => match budget {
            Some(steps) => format!(
                "stopped after its default budget of {steps} steps, which --node-limit or \
                 --time-limit replace"
            ),
            None => format!("stopped by --node-limit after {} steps", stats.nodes),
        },
        StopReason::SolutionLimit => return None,
        other => format!("stopped: {other}"),
    };
    let (one, many) = what;
    let elapsed = stats.elapsed;
    Some(match found {
        0 => format!(
            "no {one} found by local search within the limit ({why}, in {elapsed:.1?}; \
             local search cannot prove that none exists)"
        ),
        k => format!(
            "local search {why}, in {elapsed:.1?}, with {k} {} found (it cannot tell \
             whether there are more)",
            if k == 1 { one } else { many }
        ),
    })
}

/// Reports a bad input (an unreadable or malformed file) and gives the exit status 2.
pub fn input_error(program: &str, message: impl Display) -> ExitCode {
    note(format!("{program}: {message}"));
    ExitCode::from(USAGE_ERROR)
}

/// Refuses one file named by two options (`--svg F --tree F`): what one writes, the
/// other would overwrite. `files` pairs each option with its path, if given. Paths are
/// compared as the files they name, through `.`, `..` and symbolic links (a file not
/// there yet: through its directory); two hard links to one file are not caught.
///
/// # Errors
/// A message naming both options and the file, for [`usage_error`].
pub fn distinct_files(files: &[(&str, Option<&Path>)]) -> Result<(), String> {
    let named: Vec<(&str, &Path, PathBuf)> = files
        .iter()
        .filter_map(|&(option, path)| path.map(|p| (option, p, file_named(p))))
        .collect();
    for (k, (option, path, file)) in named.iter().enumerate() {
        if let Some((first, ..)) = named[..k].iter().find(|(.., other)| other == file) {
            return Err(format!(
                "{first} and {option} name the same file, {}: give each its own",
                path.display()
            ));
        }
    }
    Ok(())
}

/// The file `path` names: its canonical path, or for a file not there yet its
/// directory's canonical path and its name (the path itself if neither is known).
fn file_named(path: &Path) -> PathBuf {
    if let Ok(file) = path.canonicalize() {
        return file;
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    match (dir.canonicalize(), path.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
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
                note(format!("cannot write to standard output: {error}"));
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
    fn one_file_for_two_outputs_is_refused_however_it_is_written() {
        let dir = std::env::temp_dir().join(format!("ambsolve-distinct-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("f.svg");
        let again = dir.join(".").join("f.svg");
        let other = dir.join("g.svg");
        let none: Option<&Path> = None;
        let ok = [
            ("--svg", Some(file.as_path())),
            ("--tree", Some(other.as_path())),
            ("--animate", none),
        ];
        assert_eq!(distinct_files(&ok), Ok(()));
        for existing in [false, true] {
            if existing {
                std::fs::write(&file, "").unwrap();
            }
            let same = [
                ("--svg", Some(file.as_path())),
                ("--tree", Some(again.as_path())),
            ];
            let e = distinct_files(&same).unwrap_err();
            assert!(e.starts_with("--svg and --tree name the same file"), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
