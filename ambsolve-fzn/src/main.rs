//! `fzn-ambsolve [options] model.fzn`: ambsolve as a FlatZinc solver, with the standard
//! flags MiniZinc passes (`-a -n -i -f -s -t -p -r -v`).
//!
//! Exit status: 0 when the search ran (whatever it found, also when a time limit, Ctrl-C,
//! SIGTERM or SIGHUP stopped it, in any phase: what was found is printed with the right
//! status line, `=====UNKNOWN=====` if nothing), 1 for a
//! model that cannot be read or solved (the message names the line), 2 for a bad command
//! line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use ambsolve::CancelFlag;
use ambsolve_fzn::{FznError, FznModel, ReadLimits, SolveOptions};
use clap::{CommandFactory, Parser};

/// ambsolve as a FlatZinc solver: solves MODEL.fzn and prints its solutions in the
/// FlatZinc output format.
#[derive(Parser, Debug)]
#[command(name = "fzn-ambsolve", version)]
struct Args {
    /// Print every solution (satisfaction), every improving solution (optimisation).
    #[arg(short = 'a', long = "all-solutions")]
    all: bool,
    /// Print every improving solution of an optimisation.
    #[arg(short = 'i', long = "intermediate")]
    intermediate: bool,
    /// Stop after N solutions.
    #[arg(short = 'n', long = "num-solutions", value_name = "N")]
    solutions: Option<u64>,
    /// Free search. Learning (the default on one thread), runs take turns across restarts
    /// between the search annotations and activity search, as Chuffed's `-f`; not
    /// learning, the annotations are ignored (dom_w_deg on one thread, first-fail on more).
    #[arg(short = 'f', long = "free-search")]
    free: bool,
    /// Learn from conflicts (lazy clause generation) even where the model's search
    /// annotations are followed (they then only break activity ties). Learning is on by
    /// default where the search is free (-f, or no annotations), on one thread: nogoods,
    /// backjumps, activity search and restarts.
    #[arg(long = "learning", conflicts_with = "no_learning")]
    learning: bool,
    /// Never learn: the plain search (the model's annotations, or dom_w_deg with -f).
    #[arg(long = "no-learning")]
    no_learning: bool,
    /// Optimise by large neighbourhood search after the first solution, taking turns
    /// with the complete search (which still proves optimality), even where the model's
    /// search annotations are followed. On by default where the search is free (-f, or
    /// no annotations), on one thread.
    #[arg(long = "lns", conflicts_with = "no_lns")]
    lns: bool,
    /// Never use large neighbourhood search.
    #[arg(long = "no-lns")]
    no_lns: bool,
    /// Print statistics (`%%%mzn-stat` lines).
    #[arg(short = 's', long = "statistics")]
    statistics: bool,
    /// Stop after MS milliseconds, printing what was found.
    #[arg(short = 't', long = "time-limit", value_name = "MS")]
    time: Option<u64>,
    /// Search on K threads.
    #[arg(short = 'p', long = "parallel", value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..))]
    threads: u16,
    /// The seed of random choices (`indomain_random`).
    #[arg(
        short = 'r',
        long = "random-seed",
        value_name = "SEED",
        default_value_t = 0
    )]
    seed: u64,
    /// Print what the front end did on standard error.
    #[arg(short = 'v', long = "verbose")]
    verbose: bool,
    /// The FlatZinc file (`-`: standard input).
    #[arg(value_name = "MODEL.fzn")]
    model: PathBuf,
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(error) if !error.use_stderr() => error.exit(),
        Err(error) => {
            // Every usage error ends with the usage line (clap omits it after a bad value).
            let rendered = error.render().to_string();
            eprintln!("{}", rendered.trim_end());
            if !rendered.contains("Usage:") {
                eprintln!("\n{}", Args::command().render_usage());
            }
            return ExitCode::from(2);
        }
    };
    // The limits cover the whole run: reading and compiling count against -t, and a
    // signal while the file is read stops as one during the search does.
    let started = Instant::now();
    let cancel = interrupt_flag();
    let deadline = args.time.map(|ms| started + Duration::from_millis(ms));
    let limits = ReadLimits {
        deadline,
        cancel: Some(cancel),
    };
    // The whole job runs on one thread of its own (its memory in one arena of the
    // allocator: the search reuses what reading freed). This thread waits for it, and
    // answers for it if the limits pass while the model is still being read: a single
    // statement or constraint can take seconds (a table of millions of entries), and the
    // job checks its limits only between them.
    let reading = Arc::new(Mutex::new(true));
    let (sender, receiver) = std::sync::mpsc::channel();
    let spawned = {
        let (limits, reading) = (limits.clone(), Arc::clone(&reading));
        std::thread::Builder::new()
            .name("job".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let _ = sender.send(job(&args, &limits, &reading));
            })
    };
    if let Err(error) = spawned {
        eprintln!("fzn-ambsolve: error: cannot start a thread: {error}");
        return ExitCode::FAILURE;
    }
    loop {
        match receiver.recv_timeout(Duration::from_millis(20)) {
            Ok(code) => return code,
            Err(RecvTimeoutError::Timeout) if limits.passed() => {
                let still_reading = reading.lock().unwrap_or_else(PoisonError::into_inner);
                if *still_reading {
                    // Stopped before a search began: nothing is known. The job is left
                    // behind (the process ends with this thread's exit).
                    println!("=====UNKNOWN=====");
                    let _ = std::io::stdout().flush();
                    std::process::exit(0);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            // The job panicked (its message is printed).
            Err(RecvTimeoutError::Disconnected) => return ExitCode::FAILURE,
        }
    }
}

/// A feature's pair of flags (`--lns`, `--no-lns`): `Some(true)` if turned on,
/// `Some(false)` if off, `None` for the default.
fn switch(on: bool, off: bool) -> Option<bool> {
    match (on, off) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    }
}

/// Reads the model (`-`: standard input), then solves it and prints: the whole job, as
/// `limits` allow. `reading` is set while the model is read (see `main`).
fn job(args: &Args, limits: &ReadLimits, reading: &Mutex<bool>) -> ExitCode {
    let read = if args.model.as_os_str() == "-" {
        FznModel::from_reader(std::io::stdin().lock(), args.seed, limits)
    } else {
        std::fs::File::open(&args.model)
            .map_err(|e| FznError::Io(format!("cannot read it: {e}")))
            .and_then(|file| {
                FznModel::from_reader(std::io::BufReader::new(file), args.seed, limits)
            })
    };
    *reading.lock().unwrap_or_else(PoisonError::into_inner) = false;
    let model = match read {
        Ok(model) => model,
        Err(FznError::Stopped) => {
            // Stopped before a search began: nothing is known.
            println!("=====UNKNOWN=====");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("fzn-ambsolve: error: {}: {error}", args.model.display());
            return ExitCode::FAILURE;
        }
    };
    if args.verbose {
        eprintln!(
            "fzn-ambsolve: {}: {} variables, {} constraints, read in {:.3?}",
            args.model.display(),
            model.model().num_vars(),
            model.model().num_constraints(),
            model.init_time()
        );
        for note in model.notes() {
            eprintln!("fzn-ambsolve: {note}");
        }
    }
    let mut options = SolveOptions::default();
    options.all = args.all;
    options.intermediate = args.intermediate;
    options.solutions = args.solutions;
    options.free = args.free;
    options.learning = switch(args.learning, args.no_learning);
    options.lns = switch(args.lns, args.no_lns);
    options.statistics = args.statistics;
    options.time = limits
        .deadline
        .map(|d| d.saturating_duration_since(Instant::now()));
    options.threads = usize::from(args.threads);
    options.seed = args.seed;
    options.cancel = limits.cancel.clone();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match ambsolve_fzn::solve(&model, &options, &mut out, |_| {}) {
        Ok(outcome) => {
            if args.verbose {
                eprintln!(
                    "fzn-ambsolve: {:?} ({}); {}",
                    outcome.status, outcome.stop_reason, outcome.stats
                );
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            let _ = out.flush();
            eprintln!("fzn-ambsolve: error: {}: {error}", args.model.display());
            ExitCode::FAILURE
        }
    }
}

/// A flag Ctrl-C, SIGTERM and SIGHUP set: reading or the search stops and what was
/// found is printed (`=====UNKNOWN=====` if nothing). A second signal ends the program
/// at once (exit status 130). The handlers only store into the flag (signal-hook), so no
/// thread is started to wait for a signal.
fn interrupt_flag() -> CancelFlag {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let flag = CancelFlag::new();
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        // Handlers run in the order registered: the exit looks at the flag before the
        // first signal sets it.
        let installed =
            signal_hook::flag::register_conditional_shutdown(signal, 130, flag.atomic())
                .and_then(|_| signal_hook::flag::register(signal, flag.atomic()));
        if let Err(error) = installed {
            eprintln!("fzn-ambsolve: warning: Ctrl-C will not print the best found ({error})");
        }
    }
    flag
}
