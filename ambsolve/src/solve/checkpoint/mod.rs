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
//! ambsolve checkpoint 2
//! fingerprint 5f0e4c2a9b1d7e63
//! target 64
//! subproblems 211
//! check 36f7721b
//! done 0 4 4 1830 c081a8a0
//! done 3 12 12 5512 e624fb4d
//! ```
//!
//! `fingerprint` identifies the search (the model's structure, the engine and options
//! that shape its tree, and the subproblems' paths): a checkpoint of another search is
//! refused. `target` is how many subproblems the search was cut into at least, so that a
//! resumed count cuts it the same way whatever its number of threads or machines. Each
//! `done` line is a finished subproblem: its index, the solutions found in it, the
//! solutions they stand for (the same number unless counting through symmetry) and its
//! nodes, in increasing order of index.
//!
//! **Checks.** `check` is the CRC-32 of the four lines above it; each `done` line ends
//! with the CRC-32 of the header and its own text. A file whose text was changed
//! anywhere is refused, naming the first line that is wrong: a change of up to 4
//! consecutive bytes within a line's text or within its check (a digit, an index)
//! always, any other change unless it happens to keep a 32-bit check right (about one
//! chance in 4 billion). An entry copied from another search's checkpoint fails its
//! check too. Lines taken out (a file cut short at the end of a line, a `done` line
//! deleted) leave a valid checkpoint that records less: the resumed count searches those
//! subproblems again, and its total is still exact.
//!
//! **Reading** checks the header before anything else and reads the entries one line at
//! a time (each at most [`MAX_LINE`](lines::MAX_LINE) bytes), stopping at the first bad
//! one; their number is bounded by the subproblem count, since their indices increase
//! and stay below it. A path that exists and is not a regular file (a symbolic link, a
//! directory, a device, a pipe) is refused, for reading and for writing: a checkpoint is
//! replaced by renaming a new file over its path, which would replace whatever is there.
//!
//! **The model.** The fingerprint cannot see closures (predicates, propagators, symmetry
//! maps): see [`recount`](mod@recount) for the check that covers them, in part.

mod hash;
mod lines;
mod recount;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use self::hash::{Crc, Fnv};
use self::lines::Lines;
pub(super) use self::recount::recount;
use crate::choice::Subproblem;
use crate::error::SearchError;
use crate::model::Model;
use crate::options::Options;

/// What a finished subproblem counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) found: u64,
    pub(crate) weighted: u64,
    pub(crate) nodes: u64,
}

/// The first line of every checkpoint file of this format.
const HEADER: &str = "ambsolve checkpoint 2";

/// What the first line of a checkpoint of any format starts with.
const ANY_FORMAT: &str = "ambsolve checkpoint ";

/// The header's lines, its `check` line included; the entries follow.
const HEADER_LINES: usize = 5;

/// A file with fewer finished subproblems than this is rewritten after each one, so that
/// nothing finished is lost whenever the count is killed.
const WRITE_EACH_BELOW: usize = 4096;

/// A bigger one is rewritten at most this often (and when the count ends or stops).
const WRITE_EVERY: Duration = Duration::from_secs(1);

/// What identifies a search for a checkpoint: the model's structure, what shapes its
/// tree, and the subproblems' paths.
pub(super) fn fingerprint(model: &Model<'_>, options: &Options, subproblems: &[Subproblem]) -> u64 {
    let mut h = Fnv::new();
    h.text(&format!("{model:?}"));
    // Hints change the order of the values, so the subproblems' paths.
    h.text(&format!("{:?}", model.hints()));
    for &u in model.universes() {
        h.number(u64::from(u));
    }
    h.text(&format!(
        "{} {:?} {:?} {} {}",
        options.engine,
        options.strategy,
        options.checking,
        options.up_to_symmetry,
        options.count_through_symmetry
    ));
    for s in subproblems {
        h.text(&s.to_string());
    }
    h.finish()
}

/// A checkpoint file and what it holds.
#[derive(Debug)]
pub(crate) struct Checkpoint {
    path: PathBuf,
    fingerprint: u64,
    target: usize,
    subproblems: usize,
    done: BTreeMap<usize, Entry>,
    /// The CRC of the header's text, which each entry's check continues.
    keyed: Crc,
    /// A hash of the entries' checks as read: which finished subproblems a resumed
    /// count searches again depends on it (the same file, the same choice).
    seed: u64,
    written: Option<Instant>,
    dirty: bool,
}

fn error(path: &Path, message: impl std::fmt::Display) -> SearchError {
    SearchError::Checkpoint(format!("{}: {message}", path.display()))
}

fn at_line(path: &Path, line: usize, message: impl std::fmt::Display) -> SearchError {
    error(path, format!("line {line}: {message}"))
}

/// The header's first four lines, each ended.
fn header_text(fingerprint: u64, target: usize, subproblems: usize) -> String {
    format!(
        "{HEADER}\nfingerprint {fingerprint:016x}\ntarget {target}\nsubproblems {subproblems}\n"
    )
}

/// The CRC of the header's text: the `check` line's, and the start of every entry's.
fn keyed(header: &str) -> Crc {
    let mut crc = Crc::new();
    crc.bytes(header.as_bytes());
    crc
}

/// Refuses a path that exists and is not a regular file.
fn check_path(path: &Path) -> Result<(), SearchError> {
    let kind = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_file() => return Ok(()),
        Ok(meta) if meta.file_type().is_symlink() => "a symbolic link",
        Ok(meta) if meta.file_type().is_dir() => "a directory",
        Ok(_) => "a device, a pipe or a socket",
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(error(path, e)),
    };
    Err(error(
        path,
        format!(
            "{kind}, not a regular file: a checkpoint is rewritten by renaming a new file \
             over its path, which would replace it (give the path of a regular file, or \
             of none yet)"
        ),
    ))
}

/// The header of a checkpoint file, read and checked.
struct Header {
    fingerprint: u64,
    target: usize,
    subproblems: usize,
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
            keyed: keyed(&header_text(fingerprint, target, subproblems)),
            seed: 0,
            written: None,
            dirty: true,
        }
    }

    /// The subproblem target a checkpoint file was written with, to cut the search the
    /// same way before [`Checkpoint::resume`] checks the rest.
    ///
    /// # Errors
    /// [`SearchError::Checkpoint`] if the file cannot be read, is not a regular file, or
    /// its header is not that of a checkpoint or fails its check.
    pub(crate) fn target_of(path: &Path) -> Result<usize, SearchError> {
        let mut lines = Self::open(path)?;
        Ok(Self::header(path, &mut lines)?.target)
    }

    /// The checkpoint at `path`, which must belong to the search with `fingerprint`.
    ///
    /// # Errors
    /// [`SearchError::Checkpoint`] if the file cannot be read, is not a regular file, is
    /// not a checkpoint, belongs to another search, or has a line that fails its check
    /// or does not fit the search (the first such line is named).
    pub(crate) fn resume(
        path: &Path,
        fingerprint: u64,
        subproblems: usize,
    ) -> Result<Self, SearchError> {
        let mut lines = Self::open(path)?;
        let header = Self::header(path, &mut lines)?;
        if header.fingerprint != fingerprint || header.subproblems != subproblems {
            return Err(error(
                path,
                "the checkpoint belongs to another search (another puzzle, size, engine \
                 or strategy): refusing to resume from it",
            ));
        }
        let mut checkpoint = Checkpoint::new(path, fingerprint, header.target, subproblems);
        checkpoint.read_entries(&mut lines)?;
        checkpoint.dirty = false;
        Ok(checkpoint)
    }

    /// The file's lines, if it is a regular file that can be opened.
    fn open(path: &Path) -> Result<Lines<BufReader<std::fs::File>>, SearchError> {
        check_path(path)?;
        let file = std::fs::File::open(path).map_err(|e| error(path, e))?;
        Ok(Lines::new(BufReader::new(file)))
    }

    /// Reads the header's five lines and checks them before reading anything else.
    fn header<R: std::io::BufRead>(
        path: &Path,
        lines: &mut Lines<R>,
    ) -> Result<Header, SearchError> {
        let mut text = String::new();
        let mut fields = Vec::new();
        for (k, name) in ["", "fingerprint", "target", "subproblems", "check"]
            .into_iter()
            .enumerate()
        {
            let number = k + 1;
            let line = match lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) if number == 1 => return Err(error(path, "an empty file")),
                Ok(None) => {
                    return Err(at_line(path, number, "missing: the file is cut short"));
                }
                Err(why) => return Err(at_line(path, number, why)),
            };
            if name.is_empty() {
                if line != HEADER {
                    return Err(error(path, Self::not_this_format(line)));
                }
            } else {
                let value = line
                    .strip_prefix(name)
                    .and_then(|rest| rest.strip_prefix(' '))
                    .ok_or_else(|| at_line(path, number, format!("expected `{name}`")))?;
                fields.push(value.to_string());
            }
            if name != "check" {
                text.push_str(line);
                text.push('\n');
            }
        }
        if fields[3] != format!("{:08x}", keyed(&text).value()) {
            return Err(at_line(
                path,
                HEADER_LINES,
                "the header's check does not match lines 1-4: the file is corrupted",
            ));
        }
        let bad = |line: usize, what: &str| at_line(path, line, format!("bad {what}"));
        Ok(Header {
            fingerprint: u64::from_str_radix(&fields[0], 16).map_err(|_| bad(2, "fingerprint"))?,
            target: fields[1].parse().map_err(|_| bad(3, "target"))?,
            subproblems: fields[2].parse().map_err(|_| bad(4, "subproblem count"))?,
        })
    }

    /// Why a first line is not that of a checkpoint of this format.
    fn not_this_format(line: &str) -> String {
        match line.strip_prefix(ANY_FORMAT) {
            Some(format) => format!(
                "a checkpoint of format {format:.20}, written by another version of \
                 ambsolve: this one reads format 2 only (whose lines carry checks); count \
                 again with a new checkpoint"
            ),
            None => format!("not a checkpoint file (its first line is not `{HEADER}`)"),
        }
    }

    /// Reads the entries, one line at a time, stopping at the first bad one.
    fn read_entries<R: std::io::BufRead>(
        &mut self,
        lines: &mut Lines<R>,
    ) -> Result<(), SearchError> {
        let path = self.path.clone();
        let mut seed = Fnv::new();
        let mut last = None;
        loop {
            let number = lines.read() + 1;
            let line = match lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(why) => return Err(at_line(&path, number, why)),
            };
            let (text, check) = line.rsplit_once(' ').unwrap_or((line, ""));
            if self.keyed.check_of(text) != check {
                return Err(at_line(
                    &path,
                    number,
                    "corrupted: its check does not match its text",
                ));
            }
            let numbers: Option<Vec<u64>> = text
                .strip_prefix("done ")
                .map(|rest| rest.split(' ').map(|n| n.parse().ok()).collect())
                .unwrap_or_default();
            let Some(&[index, found, weighted, nodes]) = numbers.as_deref() else {
                return Err(at_line(
                    &path,
                    number,
                    "not an entry (`done` and 4 numbers)",
                ));
            };
            let index = usize::try_from(index)
                .ok()
                .filter(|&i| i < self.subproblems)
                .ok_or_else(|| at_line(&path, number, "no such subproblem"))?;
            if last.is_some_and(|last| index <= last) {
                return Err(at_line(
                    &path,
                    number,
                    format!("subproblem {index} out of order or twice"),
                ));
            }
            last = Some(index);
            seed.text(check);
            let entry = Entry {
                found,
                weighted,
                nodes,
            };
            self.done.insert(index, entry);
        }
        self.seed = seed.finish();
        Ok(())
    }

    /// The finished subproblems.
    pub(crate) fn done(&self) -> &BTreeMap<usize, Entry> {
        &self.done
    }

    /// The line of the file that records finished subproblem `index`.
    fn line_of(&self, index: usize) -> usize {
        HEADER_LINES + 1 + self.done.range(..index).count()
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

    /// The file's text: the header, its check, the entries with theirs.
    fn text(&self) -> String {
        let mut text = header_text(self.fingerprint, self.target, self.subproblems);
        let _ = writeln!(text, "check {:08x}", self.keyed.value());
        let mut line = String::new();
        for (index, e) in &self.done {
            line.clear();
            let _ = write!(line, "done {index} {} {} {}", e.found, e.weighted, e.nodes);
            let _ = writeln!(text, "{line} {}", self.keyed.check_of(&line));
        }
        text
    }

    /// Writes the whole file beside its place, then renames it there.
    fn write(&mut self) -> Result<(), SearchError> {
        check_path(&self.path)?;
        let mut temporary = self.path.clone().into_os_string();
        temporary.push(".tmp");
        let temporary = PathBuf::from(temporary);
        // A temporary file left by a count that was killed is removed first (if it is a
        // link, the link itself), and a new one is created: no link is followed.
        match std::fs::remove_file(&temporary) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(error(&temporary, e));
            }
            _ => {}
        }
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)
            .and_then(|mut file| file.write_all(self.text().as_bytes()))
            .map_err(|e| error(&temporary, e))?;
        std::fs::rename(&temporary, &self.path).map_err(|e| error(&self.path, e))?;
        self.written = Some(Instant::now());
        self.dirty = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("ambsolve-{}-{name}", std::process::id()))
    }

    const E: Entry = Entry {
        found: 5,
        weighted: 9,
        nodes: 100,
    };

    /// A checkpoint with entries 3 and 7, written at `path`; its text.
    fn written(path: &Path) -> String {
        let mut c = Checkpoint::new(path, 0xabc, 64, 70);
        c.record(3, E).unwrap();
        c.record(7, E).unwrap();
        c.flush().unwrap();
        std::fs::read_to_string(path).unwrap()
    }

    fn resumed(path: &Path, text: &str) -> Result<Checkpoint, String> {
        std::fs::write(path, text).unwrap();
        Checkpoint::resume(path, 0xabc, 70).map_err(|e| e.to_string())
    }

    #[test]
    fn a_checkpoint_is_written_and_read_back() {
        let path = temp("roundtrip");
        let text = written(&path);
        assert_eq!(text.lines().count(), HEADER_LINES + 2, "{text}");
        assert_eq!(Checkpoint::target_of(&path).unwrap(), 64);
        let back = Checkpoint::resume(&path, 0xabc, 70).unwrap();
        assert_eq!(back.done().keys().copied().collect::<Vec<_>>(), [3, 7]);
        assert_eq!(back.done()[&7], E);
        assert_eq!(back.line_of(7), 7);
        assert_eq!(back.text(), text, "read back, written the same");
        let other = Checkpoint::resume(&path, 0xabd, 70).unwrap_err();
        assert!(other.to_string().contains("another search"), "{other}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn the_documented_example_is_what_is_written() {
        let path = temp("example");
        let mut c = Checkpoint::new(&path, 0x5f0e_4c2a_9b1d_7e63, 64, 211);
        let entry = |found, nodes| Entry {
            found,
            weighted: found,
            nodes,
        };
        c.record(3, entry(12, 5512)).unwrap();
        c.record(0, entry(4, 1830)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let documented = include_str!("mod.rs")
            .split("```text\n")
            .nth(1)
            .and_then(|rest| rest.split("//! ```").next())
            .unwrap()
            .replace("//! ", "");
        assert_eq!(text, documented);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn every_changed_byte_is_refused_naming_its_line() {
        let path = temp("bytes");
        let text = written(&path);
        let mut refused = 0;
        for at in 0..text.len() {
            for b in [b'0', b'1', b'9', b'a', b'f', b' ', b'\n', b'x'] {
                let mut bytes = text.clone().into_bytes();
                if bytes[at] == b {
                    continue;
                }
                bytes[at] = b;
                let Ok(changed) = String::from_utf8(bytes) else {
                    continue;
                };
                let line = text[..at].matches('\n').count() + 1;
                let e = resumed(&path, &changed)
                    .map(|c| c.done().clone())
                    .unwrap_err();
                // The changed line is named, or the one a new end of line cut it into;
                // or the header's check (a changed first line is not a checkpoint).
                let named = (line..=line + 1).any(|l| e.contains(&format!("line {l}:")));
                let header = line < HEADER_LINES && e.contains("the header's check");
                assert!(
                    named || header || line == 1,
                    "byte {at} -> {:?}: {e}",
                    b as char
                );
                refused += 1;
            }
        }
        assert!(refused > 7 * text.len(), "{refused}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn malformed_files_are_refused_with_a_reason() {
        let path = temp("malformed");
        let good = written(&path);
        let header: String = good
            .lines()
            .take(HEADER_LINES)
            .map(|l| format!("{l}\n"))
            .collect();
        let keyed = keyed(&header_text(0xabc, 64, 70));
        let entry = |text: &str| format!("{text} {}\n", keyed.check_of(text));
        for (text, why) in [
            (String::new(), "an empty file"),
            ("hello\n".into(), "not a checkpoint file"),
            (
                "ambsolve checkpoint 1\nfingerprint abc\n".into(),
                "format 1, written by another version",
            ),
            (
                good.replace("target 64", "target 65"),
                "line 5: the header's check",
            ),
            (
                header.clone() + &entry("done 70 1 1 1"),
                "line 6: no such subproblem",
            ),
            (
                header.clone() + &entry("done 1 1 1"),
                "line 6: not an entry",
            ),
            (
                header.clone() + &entry("done 2 1 1 1") + &entry("done 2 1 1 1"),
                "line 7: subproblem 2 out of order or twice",
            ),
            (
                header.clone() + &entry("done 2 1 1 1") + &entry("done 1 1 1 1"),
                "line 7: subproblem 1 out of order",
            ),
            (header.clone() + "done 2 1 1 1\n", "line 6: corrupted"),
            (good[..good.len() - 1].to_string(), "line 7: cut short"),
            (
                good.lines().take(3).map(|l| format!("{l}\n")).collect(),
                "line 4: missing",
            ),
            (
                header.clone() + &"x".repeat(10_000),
                "line 6: longer than 200 bytes",
            ),
        ] {
            let e = resumed(&path, &text).map(|_| ()).unwrap_err();
            assert!(e.contains(why), "{text:?}: {e}");
        }
        // Lines taken out: a valid checkpoint that records less.
        let fewer: String = good
            .lines()
            .take(HEADER_LINES + 1)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(resumed(&path, &fewer).unwrap().done().len(), 1);
        std::fs::remove_file(&path).unwrap();
        let missing = Checkpoint::resume(&path, 1, 2).unwrap_err();
        assert!(matches!(missing, SearchError::Checkpoint(_)));
    }

    #[test]
    fn reading_stops_at_the_first_bad_line_having_read_little() {
        /// A reader of a header then a megabyte of short lines, counting what it gives.
        struct Endless<'a> {
            header: &'a [u8],
            given: usize,
        }
        impl std::io::Read for Endless<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(64).min((1 << 20) - self.given);
                for (k, b) in buf[..n].iter_mut().enumerate() {
                    let at = self.given + k;
                    *b = self.header.get(at).copied().unwrap_or(if at % 2 == 0 {
                        b'y'
                    } else {
                        b'\n'
                    });
                }
                self.given += n;
                Ok(n)
            }
        }
        let header = format!(
            "{}check {:08x}\n",
            header_text(0xabc, 64, 70),
            keyed(&header_text(0xabc, 64, 70)).value()
        );
        for header in [header.as_str(), ""] {
            let mut endless = Endless {
                header: header.as_bytes(),
                given: 0,
            };
            let mut lines = Lines::new(std::io::BufReader::with_capacity(64, &mut endless));
            let path = Path::new("endless");
            let read = Checkpoint::header(path, &mut lines).and_then(|_| {
                let mut c = Checkpoint::new(path, 0xabc, 64, 70);
                c.read_entries(&mut lines)
            });
            let e = read.unwrap_err().to_string();
            let line = if header.is_empty() {
                "not a checkpoint"
            } else {
                "line 6: corrupted"
            };
            assert!(e.contains(line), "{e}");
            assert!(
                endless.given <= header.len() + 128,
                "read {} bytes",
                endless.given
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_path_that_is_not_a_regular_file_is_refused_and_left_alone() {
        let dir = temp("paths");
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("target.txt");
        std::fs::write(&target, "keep me\n").unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        let mut paths = vec![
            (link.clone(), "a symbolic link"),
            (dir.clone(), "a directory"),
        ];
        if made.is_ok_and(|s| s.success()) {
            paths.push((fifo.clone(), "a device, a pipe or a socket"));
        }
        for (path, kind) in paths {
            let e = Checkpoint::new(&path, 1, 1, 1)
                .flush()
                .unwrap_err()
                .to_string();
            assert!(e.contains(&format!("{kind}, not a regular file")), "{e}");
            let e = Checkpoint::resume(&path, 1, 1).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
        }
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
        // A link where the temporary file goes is removed, not followed.
        let file = dir.join("q.txt");
        std::os::unix::fs::symlink(&target, dir.join("q.txt.tmp")).unwrap();
        Checkpoint::new(&file, 1, 1, 1).flush().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
        assert_eq!(Checkpoint::target_of(&file).unwrap(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
