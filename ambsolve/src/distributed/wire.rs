//! The messages of a distributed run: their kinds (MPI tags) and their bytes, little-endian
//! words read back with a check of their length.

use std::time::Duration;

use mpi::Tag;

use super::TaskResult;
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

/// A WORK message: the task's slot, then its path.
pub(super) fn work(slot: usize, path: &[u32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(8 + 4 * path.len());
    bytes.extend_from_slice(&(slot as u64).to_le_bytes());
    for &choice in path {
        bytes.extend_from_slice(&choice.to_le_bytes());
    }
    bytes
}

/// The slot and path of a WORK message, if well formed.
pub(super) fn read_work(bytes: &[u8]) -> Option<(usize, Vec<u32>)> {
    let mut reader = Reader(bytes);
    let slot = usize::try_from(reader.u64()?).ok()?;
    let rest = reader.0;
    if rest.len() % 4 != 0 {
        return None;
    }
    let path = rest
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Some((slot, path))
}

/// Words in a RESULT message: the slot, the solutions, 9 stats, busy nanoseconds, then
/// the local engine's 2 (moves, plateau steps).
const RESULT_WORDS: usize = 14;

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
    };
    let result = TaskResult {
        solutions: w[1],
        stats,
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
            elapsed: Duration::from_nanos(123_456_789),
        };
        let task = TaskResult {
            solutions: 42,
            stats,
        };
        let bytes = result(9, &task, Duration::from_millis(3));
        assert_eq!(read_result(&bytes), Ok((9, task, Duration::from_millis(3))));
        assert_eq!(read_result(&bytes[..bytes.len() - 1]), Err("too short"));
        assert_eq!(read_result(&[]), Err("too short"));
        assert_eq!(read_result(&[&bytes[..], &[0]].concat()), Err("too long"));
    }

    #[test]
    fn a_task_survives_its_message_and_a_broken_one_is_refused() {
        let bytes = work(4, &[0, 7, u32::MAX]);
        assert_eq!(read_work(&bytes), Some((4, vec![0, 7, u32::MAX])));
        assert_eq!(read_work(&work(0, &[])), Some((0, vec![])));
        assert_eq!(read_work(&bytes[..bytes.len() - 1]), None);
        assert_eq!(read_work(&bytes[..5]), None);
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
