//! Resumable counts: the file where a count cut into subproblems records the ones it has
//! finished, with their counts, so that a count stopped by a limit, Ctrl-C or a lost
//! machine is finished later without doing them again.
//!
//! The file is small and plain text, written whole to a temporary file beside it and
//! renamed over it, so that it is never seen half-written. It is rewritten after each
//! finished subproblem (once it records thousands, at most once a second), so a count
//! that is killed loses nothing it finished:
//!
//! ```text
//! ambsolve checkpoint 1
//! fingerprint 5f0e4c2a9b1d7e63
//! target 64
//! subproblems 211
//! done 0 4 4 1830
//! done 3 12 12 5512
//! ```
//!
//! `fingerprint` identifies the search (the model's structure, the engine and options
//! that shape its tree, and the subproblems' paths): a checkpoint of another search is
//! refused. `target` is how many subproblems the search was cut into at least, so that a
//! resumed count cuts it the same way whatever its number of threads or machines. Each
//! `done` line is a finished subproblem: its index, the solutions found in it, the
//! solutions they stand for (the same number unless counting through symmetry) and its
//! nodes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::SearchError;

/// What a finished subproblem counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) found: u64,
    pub(crate) weighted: u64,
    pub(crate) nodes: u64,
}

/// The first line of every checkpoint file.
const HEADER: &str = "ambsolve checkpoint 1";

/// The longest line a checkpoint file may have: anything longer is not one.
const MAX_LINE: u64 = 200;

/// A file with fewer finished subproblems than this is rewritten after each one, so that
/// nothing finished is lost whenever the count is killed.
const WRITE_EACH_BELOW: usize = 4096;

/// A bigger one is rewritten at most this often (and when the count ends or stops).
const WRITE_EVERY: Duration = Duration::from_secs(1);

/// A checkpoint file and what it holds.
#[derive(Debug)]
pub(crate) struct Checkpoint {
    path: PathBuf,
    fingerprint: u64,
    target: usize,
    subproblems: usize,
    done: BTreeMap<usize, Entry>,
    written: Option<Instant>,
    dirty: bool,
}

fn error(path: &Path, message: impl std::fmt::Display) -> SearchError {
    SearchError::Checkpoint(format!("{}: {message}", path.display()))
}

impl Checkpoint {
    /// A new, empty checkpoint for a search cut into `subproblems` (at least `target`).
    pub(crate) fn new(path: &Path, fingerprint: u64, target: usize, subproblems: usize) -> Self {
        Checkpoint {
            path: path.to_path_buf(),
            fingerprint,
            target,
            subproblems,
            done: BTreeMap::new(),
            written: None,
            dirty: true,
        }
    }

    /// The subproblem target a checkpoint file was written with, to cut the search the
    /// same way before [`Checkpoint::resume`] checks the rest.
    ///
    /// # Errors
    /// [`SearchError::Checkpoint`] if the file cannot be read or is not a checkpoint.
    pub(crate) fn target_of(path: &Path) -> Result<usize, SearchError> {
        Ok(Self::read(path)?.target)
    }

    /// The checkpoint at `path`, which must belong to the search with `fingerprint`.
    ///
    /// # Errors
    /// [`SearchError::Checkpoint`] if the file cannot be read, is not a checkpoint, or
    /// belongs to another search.
    pub(crate) fn resume(
        path: &Path,
        fingerprint: u64,
        subproblems: usize,
    ) -> Result<Self, SearchError> {
        let checkpoint = Self::read(path)?;
        if checkpoint.fingerprint != fingerprint || checkpoint.subproblems != subproblems {
            return Err(error(
                path,
                "the checkpoint belongs to another search (another puzzle, size, engine \
                 or strategy): refusing to resume from it",
            ));
        }
        Ok(checkpoint)
    }

    fn read(path: &Path) -> Result<Self, SearchError> {
        let file = std::fs::File::open(path).map_err(|e| error(path, e))?;
        let mut reader = BufReader::new(file);
        let mut line = String::new();
        let mut lines = Vec::new();
        loop {
            line.clear();
            let read = reader
                .by_ref()
                .take(MAX_LINE)
                .read_line(&mut line)
                .map_err(|e| error(path, e))?;
            if read == 0 {
                break;
            }
            if !line.ends_with('\n') && read as u64 == MAX_LINE {
                return Err(error(path, "not a checkpoint file (a line is too long)"));
            }
            lines.push(line.trim_end().to_string());
        }
        let mut lines = lines.iter().enumerate();
        if lines.next().map(|(_, l)| l.as_str()) != Some(HEADER) {
            return Err(error(path, "not a checkpoint file"));
        }
        let mut field = |name: &str| -> Result<String, SearchError> {
            match lines.next() {
                Some((_, l)) => l
                    .strip_prefix(name)
                    .and_then(|rest| rest.strip_prefix(' '))
                    .map(str::to_string)
                    .ok_or_else(|| error(path, format!("expected `{name}` on line 2-4"))),
                None => Err(error(path, format!("truncated: no `{name}` line"))),
            }
        };
        let bad = |what: &str| error(path, format!("bad {what}"));
        let fingerprint =
            u64::from_str_radix(&field("fingerprint")?, 16).map_err(|_| bad("fingerprint"))?;
        let target = field("target")?.parse().map_err(|_| bad("target"))?;
        let subproblems: usize = field("subproblems")?
            .parse()
            .map_err(|_| bad("subproblem count"))?;
        let mut done = BTreeMap::new();
        for (number, line) in lines {
            let numbers: Option<Vec<u64>> = line
                .strip_prefix("done ")
                .map(|rest| rest.split(' ').map(|n| n.parse().ok()).collect())
                .unwrap_or_default();
            let Some(&[index, found, weighted, nodes]) = numbers.as_deref() else {
                return Err(error(path, format!("line {}: bad entry", number + 1)));
            };
            let index = usize::try_from(index)
                .ok()
                .filter(|&i| i < subproblems)
                .ok_or_else(|| error(path, format!("line {}: no such subproblem", number + 1)))?;
            let entry = Entry {
                found,
                weighted,
                nodes,
            };
            if done.insert(index, entry).is_some() {
                return Err(error(
                    path,
                    format!("line {}: subproblem {index} twice", number + 1),
                ));
            }
        }
        Ok(Checkpoint {
            path: path.to_path_buf(),
            fingerprint,
            target,
            subproblems,
            done,
            written: None,
            dirty: false,
        })
    }

    /// The finished subproblems.
    pub(crate) fn done(&self) -> &BTreeMap<usize, Entry> {
        &self.done
    }

    /// What the finished subproblems counted, added up.
    pub(crate) fn totals(&self) -> Entry {
        let mut total = Entry::default();
        for e in self.done.values() {
            total.found += e.found;
            total.weighted += e.weighted;
            total.nodes += e.nodes;
        }
        total
    }

    /// Records a finished subproblem; rewrites the file if the last write is old enough.
    ///
    /// # Errors
    /// [`SearchError::Checkpoint`] if the file cannot be written.
    pub(crate) fn record(&mut self, index: usize, entry: Entry) -> Result<(), SearchError> {
        self.done.insert(index, entry);
        self.dirty = true;
        if self.done.len() < WRITE_EACH_BELOW
            || self.written.is_none_or(|at| at.elapsed() >= WRITE_EVERY)
        {
            self.write()?;
        }
        Ok(())
    }

    /// Writes the file if anything changed since the last write.
    ///
    /// # Errors
    /// [`SearchError::Checkpoint`] if the file cannot be written.
    pub(crate) fn flush(&mut self) -> Result<(), SearchError> {
        if self.dirty {
            self.write()?;
        }
        Ok(())
    }

    /// Writes the whole file beside its place, then renames it there.
    fn write(&mut self) -> Result<(), SearchError> {
        let mut text = format!(
            "{HEADER}\nfingerprint {:016x}\ntarget {}\nsubproblems {}\n",
            self.fingerprint, self.target, self.subproblems
        );
        for (index, e) in &self.done {
            let _ = writeln!(text, "done {index} {} {} {}", e.found, e.weighted, e.nodes);
        }
        let mut temporary = self.path.clone().into_os_string();
        temporary.push(".tmp");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, text).map_err(|e| error(&temporary, e))?;
        std::fs::rename(&temporary, &self.path).map_err(|e| error(&self.path, e))?;
        self.written = Some(Instant::now());
        self.dirty = false;
        Ok(())
    }
}

/// A 64-bit FNV-1a hash: stable across runs, platforms and Rust versions, unlike the
/// standard library's hasher, so that a checkpoint written today is recognised tomorrow.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub(crate) fn text(&mut self, text: &str) {
        self.bytes(text.as_bytes());
        // A separator, so that "ab" + "c" and "a" + "bc" differ.
        self.bytes(&[0xff]);
    }

    pub(crate) fn number(&mut self, n: u64) {
        self.bytes(&n.to_le_bytes());
    }

    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("ambsolve-{}-{name}", std::process::id()))
    }

    #[test]
    fn a_checkpoint_is_written_and_read_back() {
        let path = temp("roundtrip");
        let mut c = Checkpoint::new(&path, 0xabc, 64, 70);
        let e = Entry {
            found: 5,
            weighted: 9,
            nodes: 100,
        };
        c.record(3, e).unwrap();
        c.record(7, e).unwrap();
        c.flush().unwrap();
        assert_eq!(Checkpoint::target_of(&path).unwrap(), 64);
        let back = Checkpoint::resume(&path, 0xabc, 70).unwrap();
        assert_eq!(back.done().keys().copied().collect::<Vec<_>>(), [3, 7]);
        assert_eq!(back.done()[&7], e);
        let other = Checkpoint::resume(&path, 0xabd, 70).unwrap_err();
        assert!(other.to_string().contains("another search"), "{other}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn malformed_files_are_refused_with_a_reason() {
        let path = temp("malformed");
        for (text, why) in [
            ("", "not a checkpoint"),
            ("hello\n", "not a checkpoint"),
            (
                "ambsolve checkpoint 1\nfingerprint zz\ntarget 1\nsubproblems 2\n",
                "bad fingerprint",
            ),
            (
                "ambsolve checkpoint 1\nfingerprint 1\ntarget 1\nsubproblems 2\ndone 5 1 1 1\n",
                "no such subproblem",
            ),
            (
                "ambsolve checkpoint 1\nfingerprint 1\ntarget 1\nsubproblems 2\ndone 1 1 1\n",
                "bad entry",
            ),
            (
                "ambsolve checkpoint 1\nfingerprint 1\ntarget 1\nsubproblems 2\ndone 1 1 1 1\ndone 1 1 1 1\n",
                "twice",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            let e = Checkpoint::resume(&path, 1, 2).unwrap_err().to_string();
            assert!(e.contains(why), "{text:?}: {e}");
        }
        std::fs::write(&path, vec![b'x'; 10_000]).unwrap();
        assert!(Checkpoint::resume(&path, 1, 2).is_err());
        std::fs::remove_file(&path).unwrap();
        let missing = Checkpoint::resume(&path, 1, 2).unwrap_err();
        assert!(matches!(missing, SearchError::Checkpoint(_)));
    }

    #[test]
    fn fnv_is_the_published_function() {
        // FNV-1a 64 of "a" (from the reference test vectors).
        let mut h = Fnv::new();
        h.bytes(b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
    }
}
