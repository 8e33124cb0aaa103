//! The nqueens example on every core and resumably: counts on threads, --checkpoint and
//! --resume (a stopped or killed count finishes exactly), checkpoints refused when corrupted,
//! huge, of another puzzle, or not regular files.

use crate::common;

use common::{assert_usage_error, run_example, stat, stderr, stdout, temp_dir};

#[test]
fn nqueens_counts_on_threads_and_refuses_bad_thread_counts() {
    for threads in ["1", "2", "4"] {
        let out = run_example(
            "nqueens",
            &["10", "--count", "--threads", threads, "--stats"],
        );
        assert!(out.status.success(), "{threads}: {:?}", out.status);
        let text = stdout(&out);
        assert_eq!(stat(&text, "solutions"), 724, "{threads}: {text}");
        if threads != "1" {
            assert!(text.contains("subproblems: "), "{threads}: {text}");
            assert!(text.contains("imbalance"), "{threads}: {text}");
        }
    }
    // The same solutions in the same order on several threads.
    let one = run_example("nqueens", &["7", "--all", "--threads", "1"]);
    let two = run_example("nqueens", &["7", "--all", "--threads", "2"]);
    assert_eq!(stdout(&one), stdout(&two));
    for bad in [
        &["8", "--threads", "0"][..],
        &["8", "--threads", "many"],
        &["8", "--all", "--checkpoint", "x.txt"],
        &["8", "--first", "--resume", "x.txt"],
        &["8", "--count", "--checkpoint", "x.txt", "--resume", "x.txt"],
        &["6", "--count", "--trace", "--checkpoint", "x.txt"],
    ] {
        assert_usage_error("nqueens", bad);
    }
}

#[test]
fn nqueens_resumes_a_stopped_count_and_refuses_another_puzzles_checkpoint() {
    let dir = temp_dir("ckpt");
    let file = dir.join("q11.txt");
    let file = file.to_str().unwrap();
    let out = run_example(
        "nqueens",
        &[
            "11",
            "--count",
            "--checkpoint",
            file,
            "--node-limit",
            "4000",
        ],
    );
    assert!(out.status.success(), "{:?}", out.status);
    let text = stdout(&out);
    assert!(text.contains("partial: stopped by --node-limit"), "{text}");
    let partial = stat(&text, "solutions");
    assert!(partial < 2680, "{text}");
    let out = run_example(
        "nqueens",
        &["11", "--count", "--resume", file, "--threads", "2"],
    );
    assert!(out.status.success(), "{:?} {}", out.status, stderr(&out));
    assert_eq!(stat(&stdout(&out), "solutions"), 2680, "{}", stdout(&out));
    // Another size, another engine: refused, with the reason, status 1.
    for args in [
        &["12", "--count", "--resume", file][..],
        &["11", "--count", "--resume", file, "--engine", "replay"],
    ] {
        let out = run_example("nqueens", args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr(&out).contains("another search"), "{}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    }
    // Not a checkpoint at all, or no file.
    std::fs::write(dir.join("junk.txt"), "hello\n").unwrap();
    let junk = dir.join("junk.txt");
    let out = run_example(
        "nqueens",
        &["11", "--count", "--resume", junk.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not a checkpoint"),
        "{}",
        stderr(&out)
    );
    let missing = dir.join("missing.txt");
    let out = run_example(
        "nqueens",
        &["11", "--count", "--resume", missing.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn nqueens_killed_mid_count_resumes_with_nothing_lost() {
    let dir = temp_dir("kill");
    let file = dir.join("q13.txt");
    let file = file.to_str().unwrap();
    // Killed outright (no chance to write anything more) once some subproblems are done.
    let mut child = std::process::Command::new(common::example_binary("nqueens"))
        .args(["13", "--count", "--threads", "2", "--checkpoint", file])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let done_lines = || {
        std::fs::read_to_string(file)
            .map(|t| t.lines().filter(|l| l.starts_with("done ")).count())
            .unwrap_or(0)
    };
    while done_lines() < 3 {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().unwrap();
    assert!(
        child.wait().unwrap().code().is_none(),
        "killed by the signal"
    );
    let text = std::fs::read_to_string(file).unwrap();
    let all: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("subproblems "))
        .unwrap()
        .parse()
        .unwrap();
    let done = done_lines();
    assert!(
        done >= 3 && done < all,
        "killed half-way: {done} of {all} done"
    );
    let out = run_example("nqueens", &["13", "--count", "--resume", file, "--stats"]);
    assert!(out.status.success(), "{:?} {}", out.status, stderr(&out));
    let text = stdout(&out);
    assert_eq!(stat(&text, "solutions"), 73_712, "{text}");
    // The finished ones were not searched again: all are done, the earlier ones restored.
    assert!(
        text.contains(&format!("subproblems: {all} of {all} done")),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nqueens_refuses_a_corrupted_checkpoint_naming_the_line() {
    let dir = temp_dir("corrupt");
    let file = dir.join("q10.txt");
    let path = file.to_str().unwrap();
    let args = ["10", "--count", "--plain", "--threads", "1"];
    let stopped = run_example(
        "nqueens",
        &[&args[..], &["--checkpoint", path, "--node-limit", "3000"]].concat(),
    );
    assert!(stopped.status.success(), "{}", stderr(&stopped));
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (first, entry) = (lines.iter())
        .enumerate()
        .find(|(_, l)| l.starts_with("done "))
        .unwrap();
    let fields: Vec<&str> = entry.split(' ').collect();
    let unfinished = (0..)
        .find(|i| !text.contains(&format!("\ndone {i} ")))
        .unwrap();
    let count: u64 = fields[3].parse().unwrap();
    let corrupted = [
        // One more solution in a finished subproblem; a finished one said to be another.
        entry.replacen(&format!(" {count} "), &format!(" {} ", count + 1), 1),
        entry.replacen(
            &format!("done {} ", fields[1]),
            &format!("done {unfinished} "),
            1,
        ),
    ];
    for changed in corrupted {
        let mut bad = lines.clone();
        bad[first] = &changed;
        std::fs::write(&file, bad.join("\n") + "\n").unwrap();
        let out = run_example("nqueens", &[&args[..], &["--resume", path]].concat());
        assert_eq!(out.status.code(), Some(1), "{changed}: {}", stdout(&out));
        let line = format!("line {}: corrupted", first + 1);
        assert!(stderr(&out).contains(&line), "{changed}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    }
    // Untouched, it finishes the count.
    std::fs::write(&file, &text).unwrap();
    let out = run_example("nqueens", &[&args[..], &["--resume", path]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stat(&stdout(&out), "solutions"), 724);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn nqueens_refuses_a_huge_checkpoint_at_its_first_bad_line() {
    let dir = temp_dir("huge");
    let file = dir.join("q8.txt");
    let path = file.to_str().unwrap();
    let out = run_example("nqueens", &["8", "--count", "--checkpoint", path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&file).unwrap();
    let header: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    // 64 MB of short lines (held as lines, 1.7 GB), then a line of a megabyte: each
    // refused at once, at line 6.
    let short = header.clone() + &"y\n".repeat(32 << 20);
    let long = header + "done " + &"1".repeat(1 << 20) + "\n";
    for (body, why) in [(short, "line 6: corrupted"), (long, "line 6: longer than")] {
        std::fs::write(&file, body).unwrap();
        // In 512 MB of address space at most, where it does not fit.
        let out = std::process::Command::new("sh")
            .args(["-c", "ulimit -v 524288 && exec \"$0\" \"$@\""])
            .arg(common::example_binary("nqueens"))
            .args(["8", "--count", "--resume", path])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn nqueens_checkpoint_refuses_what_is_not_a_regular_file_and_one_file_for_two_outputs() {
    let dir = temp_dir("paths");
    let target = dir.join("precious.txt");
    std::fs::write(&target, "keep me\n").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    for (path, kind) in [(&link, "a symbolic link"), (&dir, "a directory")] {
        let path = path.to_str().unwrap();
        for option in ["--checkpoint", "--resume"] {
            let out = run_example("nqueens", &["6", "--count", option, path]);
            assert_eq!(out.status.code(), Some(1), "{option} {path}");
            assert!(
                stderr(&out).contains(&format!("{kind}, not a regular file")),
                "{}",
                stderr(&out)
            );
        }
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
    // One file for two outputs: a usage error, before anything is written.
    let svg = dir.join("out.svg");
    let same = dir.join(".").join("out.svg");
    let (svg, same) = (svg.to_str().unwrap(), same.to_str().unwrap());
    for args in [
        &["5", "--all", "--svg", svg, "--tree", svg][..],
        &["5", "--all", "--svg", svg, "--tree", same],
        &["5", "--count", "--tree", svg, "--animate", svg],
    ] {
        assert_usage_error("nqueens", args);
        let out = run_example("nqueens", args);
        assert!(
            stderr(&out).contains("name the same file"),
            "{}",
            stderr(&out)
        );
        assert!(!dir.join("out.svg").exists(), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
