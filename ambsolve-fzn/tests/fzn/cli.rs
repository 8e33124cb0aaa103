//! The `fzn-ambsolve` command line as MiniZinc runs it: flags, output, exit statuses and
//! error messages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fzn_ambsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fzn-ambsolve"))
        .args(args)
        .output()
        .expect("fzn-ambsolve runs")
}

fn instance(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/minizinc")
        .join(path)
        .display()
        .to_string()
}

/// A FlatZinc file written for one test.
fn file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("fzn-ambsolve-{}-{name}.fzn", std::process::id()));
    std::fs::write(&path, text).expect("a temporary file");
    path
}

/// `fzn-ambsolve args`, sent `signal` (`-TERM`..) after `after_ms` milliseconds.
fn signalled(args: &[&str], after_ms: u64, signal: &str) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_fzn-ambsolve"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("fzn-ambsolve starts");
    std::thread::sleep(std::time::Duration::from_millis(after_ms));
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    child.wait_with_output().expect("fzn-ambsolve ends")
}

/// `fzn-ambsolve -` with `text` on its standard input.
pub(crate) fn from_stdin(text: &str) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fzn-ambsolve"))
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("fzn-ambsolve starts");
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(text.as_bytes())
        .expect("written");
    child.wait_with_output().expect("fzn-ambsolve ends")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8")
}

#[test]
fn an_optimisation_prints_its_optimum_and_the_final_line() {
    let output = fzn_ambsolve(&[&instance("golomb/06.fzn")]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "mark = array1d(1..6, [0, 1, 4, 10, 12, 17]);\n----------\n==========\n"
    );
}

#[test]
fn every_improving_solution_with_a_and_i_and_statistics_with_s() {
    for flag in ["-a", "-i"] {
        let output = fzn_ambsolve(&[flag, &instance("golomb/06.fzn")]);
        let out = stdout(&output);
        assert!(out.matches("----------").count() >= 2, "{flag}: {out}");
        assert!(
            out.ends_with("17]);\n----------\n==========\n"),
            "{flag}: {out}"
        );
    }
    let output = fzn_ambsolve(&["-s", &instance("golomb/06.fzn")]);
    let out = stdout(&output);
    assert!(out.contains("==========\n%%%mzn-stat: initTime="), "{out}");
    assert!(out.contains("%%%mzn-stat: nodes="), "{out}");
    assert!(
        out.ends_with("%%%mzn-stat: objective=17\n%%%mzn-stat-end\n"),
        "{out}"
    );
}

#[test]
fn all_solutions_with_a_n_limits_them_and_free_search_still_solves() {
    let pairs = file(
        "pairs",
        "var 1..3: x :: output_var;\nvar bool: b :: output_var;\nconstraint int_le(x, 2);\nsolve satisfy;\n",
    );
    let pairs = pairs.to_str().expect("a UTF-8 path");
    // The plain search lists them in order; learning (the default for a model without
    // search annotations) lists the same ones in its own.
    let ordered = "x = 1;\nb = false;\n----------\nx = 1;\nb = true;\n----------\n\
         x = 2;\nb = false;\n----------\nx = 2;\nb = true;\n----------\n==========\n";
    let output = fzn_ambsolve(&["-a", "--no-learning", pairs]);
    assert_eq!(stdout(&output), ordered);
    let output = fzn_ambsolve(&["-a", pairs]);
    let sorted = |out: &str| {
        let mut blocks: Vec<String> = out.split("----------\n").map(str::to_owned).collect();
        blocks.sort_unstable();
        blocks
    };
    assert_eq!(sorted(&stdout(&output)), sorted(ordered));
    assert!(
        fzn_ambsolve(&["--learning", "--no-learning", pairs])
            .status
            .code()
            == Some(2)
    );
    let output = fzn_ambsolve(&["-n", "3", pairs]);
    assert_eq!(stdout(&output).matches("----------").count(), 3);
    assert!(!stdout(&output).contains("=========="));
    let output = fzn_ambsolve(&["-f", "-p", "2", "-r", "7", "-t", "10000", pairs]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).matches("----------").count(), 1);
}

#[test]
fn an_unsatisfiable_instance_says_so() {
    let unsat = file(
        "unsat",
        "var 1..3: x :: output_var;\nconstraint int_lin_le([1], [x], 0);\nsolve satisfy;\n",
    );
    let output = fzn_ambsolve(&[unsat.to_str().expect("UTF-8")]);
    assert!(output.status.success());
    assert_eq!(stdout(&output), "=====UNSATISFIABLE=====\n");
}

#[test]
fn verbose_tells_the_model_size_and_what_the_search_annotations_lose() {
    let split = file(
        "split",
        "var 1..3: x;\nvar 1..3: y;\n\
         array [1..2] of var 1..3: q :: output_array([1..2]) = [x, y];\nconstraint int_ne(x, y);\n\
         solve :: int_search(q, first_fail, indomain_interval, complete) satisfy;\n",
    );
    let output = fzn_ambsolve(&["-v", split.to_str().expect("UTF-8")]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "q = array1d(1..2, [1, 2]);\n----------\n");
    let err = stderr(&output);
    assert!(
        err.contains(": 2 variables, 1 constraints, read in"),
        "{err}"
    );
    assert!(
        err.contains("fzn-ambsolve: line 5: `indomain_interval` splits domains in halves, not at their intervals\n"),
        "{err}"
    );
    // Without -v, standard error stays empty.
    let output = fzn_ambsolve(&[split.to_str().expect("UTF-8")]);
    assert_eq!(stderr(&output), "");
    // Unknown annotations are ignored, and -v names them, once each.
    let hinted = file(
        "hinted",
        "var 1..3: x :: output_var :: my_hint(3);
var 1..3: y :: var_is_introduced :: is_defined_var;
         constraint int_ne(x, y) :: defines_var(y) :: my_hint :: fast_please;
         constraint int_le(x, y) :: domain :: mzn_path(\"a/b\");
solve satisfy;
",
    );
    let output = fzn_ambsolve(&["-v", hinted.to_str().expect("UTF-8")]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(
            "fzn-ambsolve: ignored annotations ambsolve does not know: `my_hint` (line 1), `fast_please` (line 3)\n"
        ),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        stderr(&fzn_ambsolve(&[hinted.to_str().expect("UTF-8")])),
        ""
    );
}

#[test]
fn bad_flags_exit_2_with_the_usage() {
    for args in [
        vec!["--no-such-flag", "x.fzn"],
        vec!["-t", "soon", "x.fzn"],
        vec!["-p", "0", "x.fzn"],
        vec![],
    ] {
        let output = fzn_ambsolve(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains("Usage: fzn-ambsolve"),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(stdout(&output).is_empty());
    }
    let output = fzn_ambsolve(&["--help"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("-a, --all-solutions"));
}

#[test]
fn a_missing_file_a_malformed_line_and_an_unsupported_constraint_are_errors_naming_them() {
    let output = fzn_ambsolve(&["/no/such/model.fzn"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with("fzn-ambsolve: error: /no/such/model.fzn: cannot read"),
        "{}",
        stderr(&output)
    );
    let malformed = file(
        "malformed",
        "var 1..3: x;\nconstraint int_le(x 3);\nsolve satisfy;\n",
    );
    let output = fzn_ambsolve(&[malformed.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(": line 2: not FlatZinc"),
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).is_empty());
    let unsupported = file(
        "unsupported",
        "var 1..3: x;\nvar 1..3: y;\nconstraint int_le(x, y);\nconstraint int_lin_le_imp_reif(x, y);\nsolve satisfy;\n",
    );
    let output = fzn_ambsolve(&[unsupported.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(".fzn: unsupported constraint `int_lin_le_imp_reif` (line 4)\n"),
        "{}",
        stderr(&output)
    );
    let float = file("float", "var 0.0..1.0: f;\nsolve satisfy;\n");
    let output = fzn_ambsolve(&[float.to_str().expect("UTF-8")]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("line 1: floats are not supported"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn sigint_sigterm_and_sighup_print_the_best_found_so_far_without_the_final_line() {
    // v = 0 is found at once (every x 0); v = 1 needs 2 * (x1 + .. + x40) = 41, which
    // bounds reasoning cannot refute quickly: the proof runs until a signal stops it.
    let xs: Vec<String> = (1..=40).map(|i| format!("x{i}")).collect();
    let mut text: String = xs.iter().map(|x| format!("var 0..1: {x};\n")).collect();
    text.push_str("var 0..1: v :: output_var;\n");
    text.push_str(&format!(
        "constraint int_lin_eq([{}, -41], [{}, v], 0);\n",
        vec!["2"; 40].join(", "),
        xs.join(", ")
    ));
    text.push_str(&format!(
        "solve :: seq_search([int_search([v], input_order, indomain_min, complete), \
         int_search([{}], input_order, indomain_min, complete)]) maximize v;\n",
        xs.join(", ")
    ));
    let model = file("parity", &text);
    for signal in ["-INT", "-TERM", "-HUP"] {
        let started = std::time::Instant::now();
        let output = signalled(
            &["-t", "60000", model.to_str().expect("UTF-8")],
            700,
            signal,
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "{signal}: stopped by the signal, not the time limit"
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "{signal}: {}",
            stderr(&output)
        );
        assert_eq!(stdout(&output), "v = 0;\n----------\n", "{signal}");
    }
}

/// A model whose reading takes a while (a debug build reads it in seconds): 300,000
/// variables, then a search that would run for long.
fn slow_to_read() -> PathBuf {
    let mut text = String::with_capacity(12 << 20);
    for i in 0..300_000 {
        text.push_str(&format!("var 0..3: filler{i};\n"));
    }
    text.push_str("var 0..1: v :: output_var;\nsolve satisfy;\n");
    file("slow", &text)
}

#[cfg(unix)]
#[test]
fn a_signal_or_the_time_limit_while_reading_prints_unknown() {
    let model = slow_to_read();
    let model = model.to_str().expect("UTF-8");
    // The time limit covers reading: -t 100 ends long before the file is read.
    let started = std::time::Instant::now();
    let output = fzn_ambsolve(&["-v", "-t", "100", model]);
    let whole = fzn_ambsolve(&["-v", model]);
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    assert!(
        stderr(&whole).contains("300001 variables"),
        "{}",
        stderr(&whole)
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "=====UNKNOWN=====\n");
    assert!(
        !stderr(&output).contains("variables"),
        "stopped while reading: {}",
        stderr(&output)
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    // So does a signal.
    for signal in ["-TERM", "-HUP", "-INT"] {
        let output = signalled(&["-v", model], 50, signal);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{signal}: {}",
            stderr(&output)
        );
        assert_eq!(stdout(&output), "=====UNKNOWN=====\n", "{signal}");
        assert!(
            !stderr(&output).contains("variables"),
            "{signal}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn a_dash_reads_the_model_from_standard_input() {
    let text = std::fs::read_to_string(instance("golomb/09.fzn")).expect("the instance");
    let output = from_stdin(&text);
    let from_file = fzn_ambsolve(&[&instance("golomb/09.fzn")]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), stdout(&from_file));
    assert!(
        stdout(&output).ends_with("==========\n"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn endless_binary_input_is_an_error_naming_the_line() {
    let output = fzn_ambsolve(&["/dev/zero"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("line 1: not FlatZinc: a control character (byte 0x00)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn maximize_over_a_domain_holding_i64_min() {
    for (domain, best) in [
        (
            "-9223372036854775808..-9223372036854775805",
            "-9223372036854775805",
        ),
        (
            "{-9223372036854775808, 0, 9223372036854775807}",
            "9223372036854775807",
        ),
    ] {
        let model = file(
            "max-min",
            &format!("var {domain}: x :: output_var;\nsolve maximize x;\n"),
        );
        let output = fzn_ambsolve(&[model.to_str().expect("UTF-8")]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(
            stdout(&output),
            format!("x = {best};\n----------\n==========\n")
        );
    }
}

#[test]
fn the_time_limit_stops_a_long_build_of_one_constraint() {
    // One table of 1.2 million tuples: read at once, built for a second or more; the
    // limits are checked inside the build only between constraints, so the wait for it
    // is what stops.
    let mut text =
        String::from("var 0..99: a :: output_var;\nvar 0..99: b;\nvar 0..99: c;\nvar 0..99: d;\n");
    let mut state = 1u64;
    let entries: Vec<String> = (0..4_800_000)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 100).to_string()
        })
        .collect();
    text.push_str(&format!(
        "array [1..{}] of int: t = [{}];\nconstraint fzn_table_int([a, b, c, d], t);\nsolve satisfy;\n",
        entries.len(),
        entries.join(",")
    ));
    let path = file("table", &text);
    let model = path.to_str().expect("UTF-8");
    let started = std::time::Instant::now();
    let whole = fzn_ambsolve(&[model]);
    let needed = started.elapsed();
    let output = fzn_ambsolve(&["-t", "200", model]);
    let stopped = started.elapsed() - needed;
    std::fs::remove_file(&path).expect("removed");
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    assert!(stdout(&whole).ends_with("----------\n"));
    if needed < std::time::Duration::from_millis(800) {
        return; // Too fast here to show a limit cutting it short.
    }
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "=====UNKNOWN=====\n");
    assert!(stopped < needed / 2, "{stopped:?} of {needed:?}");
}
