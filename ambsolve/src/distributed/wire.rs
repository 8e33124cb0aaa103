//! The messages of a distributed run: their kinds (MPI tags) and their bytes, little-endian
//! words read back with a check of their length.

use std::time::Duration;

use mpi::Tag;

use super::{TaskLimits, TaskResult};
use crate::limits::StopReason;
use crate::stats::Stats;

/// Worker to rank 0: a thread is free, send a task (no bytes).
pub(super) const REQUEST: Tag = 1;
/// Rank 0 to worker: a task ([`work`]).
pub(super) const WORK: Tag = 2;
/// Rank 0 to worker: no task left (no bytes).
pub(super) const STOP: Tag = 3;
/// Worker to rank 0: a task's result ([`result`]).
pub(super) const RESULT: Tag = 4;
/// Worker to rank 0: a task failed ([`failed`]).
pub(super) const FAILED: Tag = 5;
/// Worker to rank 0: its last message of the run (no bytes).
pub(super) const BYE: Tag = 6;
/// Rank 0 to worker: the run is over (the error's message, empty if none).
pub(super) const END: Tag = 7;

/// The slot of a FAILED message about no task in particular (a malformed message).
pub(super) const NO_SLOT: u64 = u64::MAX;

/// A WORK message: the task's slot, its node share and time left ([`NONE`] for no
/// limit), then its path.
pub(super) fn work(slot: usize, limits: TaskLimits, path: &[u32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(24 + 4 * path.len());
    bytes.extend_from_slice(&(slot as u64).to_le_bytes());
    bytes.extend_from_slice(&limits.nodes.unwrap_or(NONE).to_le_bytes());
    bytes.extend_from_slice(&limits.time.map_or(NONE, nanos).to_le_bytes());
    for &choice in path {
        bytes.extend_from_slice(&choice.to_le_bytes());
    }
    bytes
}

/// A word that stands for no limit.
const NONE: u64 = u64::MAX;

/// The slot, limits and path of a WORK message, if well formed.
pub(super) fn read_work(bytes: &[u8]) -> Option<(usize, TaskLimits, Vec<u32>)> {
    let mut reader = Reader(bytes);
    let slot = usize::try_from(reader.u64()?).ok()?;
    let nodes = Some(reader.u64()?).filter(|&n| n != NONE);
    let time = Some(reader.u64()?)
        .filter(|&t| t != NONE)
        .map(Duration::from_nanos);
    let rest = reader.0;
    if rest.len() % 4 != 0 {
        return None;
    }
    let path = rest
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Some((slot, TaskLimits { nodes, time }, path))
}

/// A stop reason as a word: 0 for none (the task ran to its end).
fn stop_code(stop: Option<StopReason>) -> u64 {
    match stop {
        None => 0,
        Some(StopReason::Exhausted) => 1,
        Some(StopReason::SolutionLimit) => 2,
        Some(StopReason::NodeLimit) => 3,
        Some(StopReason::RunLimit) => 4,
        Some(StopReason::TimeLimit) => 5,
        Some(StopReason::Cancelled) => 6,
    }
}

/// The stop reason of a word, or `Err` for a word that is none.
fn read_stop(code: u64) -> Result<Option<StopReason>, &'static str> {
    Ok(match code {
        0 => None,
        1 => Some(StopReason::Exhausted),
        2 => Some(StopReason::SolutionLimit),
        3 => Some(StopReason::NodeLimit),
        4 => Some(StopReason::RunLimit),
        5 => Some(StopReason::TimeLimit),
        6 => Some(StopReason::Cancelled),
        _ => return Err("an unknown stop reason"),
    })
}

/// Words in a RESULT message: the slot, the solutions, 9 stats, busy nanoseconds, the
/// local engine's 2 (moves, plateau steps), then why the task stopped early (0: it did not).
const RESULT_WORDS: usize = 15;

/// A RESULT message: the task's slot, its result, the time it took.
pub(super) fn result(slot: usize, result: &TaskResult, busy: Duration) -> Vec<u8> {
    let s = &result.stats;
    let words: [u64; RESULT_WORDS] = [
        slot as u64,
        result.solutions,
        s.nodes,
        s.failures,
        s.solutions,
        s.max_depth,
        s.runs,
        s.replayed,
        s.propagations,
        s.restarts,
        nanos(s.elapsed),
        nanos(busy),
        s.moves,
        s.plateau,
        stop_code(result.stopped),
    ];
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The slot, result and busy time of a RESULT message, or what is wrong with it.
pub(super) fn read_result(bytes: &[u8]) -> Result<(u64, TaskResult, Duration), &'static str> {
    let mut reader = Reader(bytes);
    let mut w = [0; RESULT_WORDS];
    for word in &mut w {
        *word = reader.u64().ok_or("too short")?;
    }
    if !reader.0.is_empty() {
        return Err("too long");
    }
    let stats = Stats {
        nodes: w[2],
        failures: w[3],
        solutions: w[4],
        max_depth: w[5],
        runs: w[6],
        replayed: w[7],
        propagations: w[8],
        restarts: w[9],
        elapsed: Duration::from_nanos(w[10]),
        moves: w[12],
        plateau: w[13],
        // A search that learns is never distributed: it runs in one piece.
        learned: 0,
    };
    let result = TaskResult {
        solutions: w[1],
        stats,
        stopped: read_stop(w[14])?,
    };
    Ok((w[0], result, Duration::from_nanos(w[11])))
}

/// A FAILED message: the task's slot (or [`NO_SLOT`]), then the error's message.
pub(super) fn failed(slot: u64, message: &str) -> Vec<u8> {
    let mut bytes = slot.to_le_bytes().to_vec();
    bytes.extend_from_slice(message.as_bytes());
    bytes
}

/// The slot and error message of a FAILED message (bytes that are not UTF-8 replaced).
pub(super) fn read_failed(bytes: &[u8]) -> Result<(u64, String), &'static str> {
    let mut reader = Reader(bytes);
    let slot = reader.u64().ok_or("no task number")?;
    Ok((slot, String::from_utf8_lossy(reader.0).into_owned()))
}

/// A duration in nanoseconds, saturating (at 584 years).
fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// Reads little-endian words off the front of a message.
struct Reader<'b>(&'b [u8]);

impl Reader<'_> {
    /// The next word, if there are 8 more bytes.
    fn u64(&mut self) -> Option<u64> {
        let (word, rest) = self.0.split_first_chunk::<8>()?;
        self.0 = rest;
        Some(u64::from_le_bytes(*word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_survives_its_message_and_a_cut_one_is_refused() {
        let stats = Stats {
            nodes: 7,
            failures: 3,
            solutions: 2,
            max_depth: 5,
            runs: 11,
            replayed: 13,
            propagations: 17,
            restarts: 1,
            moves: 19,
            plateau: 23,
            learned: 0,
            elapsed: Duration::from_nanos(123_456_789),
        };
        let mut task = TaskResult {
            solutions: 42,
            stats,
            stopped: None,
        };
        let bytes = result(9, &task, Duration::from_millis(3));
        assert_eq!(read_result(&bytes), Ok((9, task, Duration::from_millis(3))));
        task.stopped = Some(StopReason::TimeLimit);
        let stopped = result(9, &task, Duration::ZERO);
        assert_eq!(read_result(&stopped), Ok((9, task, Duration::ZERO)));
        let mut unknown = stopped.clone();
        unknown[14 * 8] = 7;
        assert_eq!(read_result(&unknown), Err("an unknown stop reason"));
        assert_eq!(read_result(&bytes[..bytes.len() - 1]), Err("too short"));
        assert_eq!(read_result(&[]), Err("too short"));
        assert_eq!(read_result(&[&bytes[..], &[0]].concat()), Err("too long"));
    }

    #[test]
    fn a_task_survives_its_message_and_a_broken_one_is_refused() {
        let limits = TaskLimits {
            nodes: Some(40),
            time: Some(Duration::from_millis(1500)),
        };
        let bytes = work(4, limits, &[0, 7, u32::MAX]);
        assert_eq!(read_work(&bytes), Some((4, limits, vec![0, 7, u32::MAX])));
        let free = TaskLimits::default();
        assert_eq!(read_work(&work(0, free, &[])), Some((0, free, vec![])));
        assert_eq!(read_work(&bytes[..bytes.len() - 1]), None);
        assert_eq!(read_work(&bytes[..5]), None);
        assert_eq!(read_work(&bytes[..20]), None);
    }

    #[test]
    fn a_failure_keeps_its_slot_and_message() {
        assert_eq!(read_failed(&failed(3, "no")), Ok((3, "no".to_string())));
        let mut bytes = failed(NO_SLOT, "");
        bytes.push(0xff);
        assert_eq!(read_failed(&bytes), Ok((NO_SLOT, "\u{fffd}".to_string())));
        assert_eq!(read_failed(&bytes[..7]), Err("no task number"));
    }
}
