//! Progress of long searches on standard error, drawn by `indicatif`: shown after the first
//! second and only on a terminal (never in piped or redirected output), erased at the end.

use std::fmt::Display;
use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ambsolve::{Event, SearchError, Solutions};
use indicatif::{HumanCount, HumanFloatCount, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a search runs before its progress is shown.
const SHOWN_AFTER: Duration = Duration::from_secs(1);

/// How often the line is redrawn (the elapsed time moves even when nothing else does).
const TICK: Duration = Duration::from_millis(200);

/// The nodes counted between two updates of the bar by [`Progress::observer`].
const NODES_PER_UPDATE: u64 = 4096;

/// A search without a known end: the time, and the caller's [`note`](Progress::note).
const SEARCHING: &str = "{spinner} searching for {elapsed}{msg} (Ctrl-C stops)";

/// The same with the nodes tried and their rate (an [`observer`](Progress::observer) counts
/// them).
const SEARCHING_NODES: &str =
    "{spinner} searching for {elapsed}: {human_pos} nodes ({per_sec:0}){msg} (Ctrl-C stops)";

/// A count: the share done (estimated from the branches of the first choices finished),
/// the time left at the rate so far, and the solutions so far with their rate (the note).
const COUNTING: &str = "{spinner} {percent:>3}% [{bar:12}] about {eta} left: {msg} (Ctrl-C stops)";

/// A count cut into subproblems: those finished and their rate, the time left, the
/// solutions so far.
const COUNTING_SUBPROBLEMS: &str =
    "{spinner} {pos}/{len} subproblems ({per_sec:1}), about {eta} left: {msg} (Ctrl-C stops)";

/// How a long search goes, on standard error when it is a terminal: after the first second,
/// a line rewritten in place (the time; with [`observer`](Progress::observer), the nodes
/// tried and their rate; the caller's [`note`](Progress::note), such as `, best length 55
/// so far`), erased by [`finish`](Progress::finish) or when dropped. Output printed while
/// it runs goes through [`suspend`](Progress::suspend), so that the two never mix.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    /// Ends the thread that shows the bar after [`SHOWN_AFTER`] (dropping it is enough).
    stop: Option<Sender<()>>,
    shower: Option<JoinHandle<()>>,
}

impl Progress {
    /// A progress line if standard error is a terminal (`None` otherwise: nothing is shown).
    pub fn on_terminal() -> Option<Progress> {
        std::io::stderr()
            .is_terminal()
            .then(|| Progress::with(None, SEARCHING))
    }

    /// A bar of `length` steps drawn with `template`, hidden until [`SHOWN_AFTER`].
    fn with(length: Option<u64>, template: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(length, ProgressDrawTarget::hidden());
        bar.set_style(style(template));
        let (stop, stopped) = mpsc::channel::<()>();
        let shown = bar.clone();
        let shower = std::thread::spawn(move || {
            if stopped.recv_timeout(SHOWN_AFTER) == Err(RecvTimeoutError::Timeout) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(TICK);
            }
        });
        Progress {
            bar,
            stop: Some(stop),
            shower: Some(shower),
        }
    }

    /// The observer to give the search (`puzzle.observe(progress.observer())`): it counts
    /// the nodes tried, which the line then shows with their rate. Observing keeps a
    /// search on one thread.
    pub fn observer(&self) -> impl FnMut(&Event) + Send + 'static {
        self.bar.set_style(style(SEARCHING_NODES));
        let bar = self.bar.clone();
        let mut nodes = 0u64;
        move |event: &Event| {
            if matches!(event, Event::Try { .. }) {
                nodes += 1;
                if nodes % NODES_PER_UPDATE == 0 {
                    bar.inc(NODES_PER_UPDATE);
                }
            }
        }
    }

    /// Sets the note shown after the figures, such as `, best length 55 so far`.
    pub fn note(&self, note: impl Display) {
        self.bar.set_message(note.to_string());
    }

    /// Runs `print` with the line erased, then draws it again: what `print` writes (on
    /// standard output or error) stays readable.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        self.bar.suspend(print)
    }

    /// Erases the line for good (dropping the progress does too).
    pub fn finish(mut self) {
        self.end();
    }

    fn end(&mut self) {
        drop(self.stop.take());
        if let Some(shower) = self.shower.take() {
            // It only sleeps or sets the bar up; it cannot panic.
            let _ = shower.join();
        }
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.end();
    }
}

/// The style of `template`, one of the constants above (a template that does not parse
/// is a bug, caught by the tests).
fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("the progress templates parse")
        .progress_chars("=> ")
}

/// Counts the remaining solutions. A count that runs longer than a second shows its
/// progress on standard error when it is a terminal: a bar of the share done (the
/// subproblems finished, for a search cut into subproblems; else the share of the first
/// choice's branches finished, which the deeper ones refine), the time left at the rate
/// so far, and the solutions counted so far with their rate.
///
/// # Errors
/// The [`SearchError`] that ended the search, if one did.
pub fn count_with_progress<T>(solutions: &mut Solutions<'_, T>) -> Result<u64, SearchError> {
    let started = Instant::now();
    let mut shown: Option<Progress> = None;
    let terminal = std::io::stderr().is_terminal();
    let mut total = 0;
    let result = loop {
        match solutions.count_for(TICK) {
            Ok(found) => total += found,
            Err(error) => break Err(error),
        }
        if solutions.stop_reason().is_some() {
            break Ok(total);
        }
        if !terminal {
            continue;
        }
        let subproblems = solutions.subproblems();
        let bar = shown.get_or_insert_with(|| match subproblems {
            Some((_, all)) => Progress::with(Some(all as u64), COUNTING_SUBPROBLEMS),
            None => Progress::with(Some(1000), COUNTING),
        });
        match subproblems {
            Some((done, _)) => bar.bar.set_position(done as u64),
            None => bar
                .bar
                .set_position((solutions.progress() * 1000.0).round() as u64),
        }
        let rate = total as f64 / started.elapsed().as_secs_f64().max(1e-9);
        bar.note(format!(
            "{} solutions ({:.0}/s)",
            HumanCount(total),
            HumanFloatCount(rate)
        ));
    };
    if let Some(shown) = shown {
        shown.finish();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_parses() {
        for template in [SEARCHING, SEARCHING_NODES, COUNTING, COUNTING_SUBPROBLEMS] {
            assert!(ProgressStyle::with_template(template).is_ok(), "{template}");
        }
    }

    #[test]
    fn a_progress_is_hidden_before_its_first_second_and_ends_at_once() {
        let progress = Progress::with(None, SEARCHING_NODES);
        let mut observer = progress.observer();
        for _ in 0..2 * NODES_PER_UPDATE {
            observer(&Event::Try {
                depth: 1,
                var: None,
                value: 0,
                index: 0,
                alternatives: 1,
                universe: 1,
            });
        }
        assert_eq!(progress.bar.position(), 2 * NODES_PER_UPDATE);
        assert!(progress.bar.is_hidden());
        let started = Instant::now();
        progress.finish();
        assert!(started.elapsed() < SHOWN_AFTER, "finish waits for nothing");
    }
}
