//! The scheduling examples as a user runs them: `jobshop` proves the optima of ft06 and
//! la01 and refuses malformed files naming their line; `single_machine` agrees with a
//! brute force over every order.

use crate::common;

use ambsolve_examples::puzzles::jobshop::{self, Instance};
use ambsolve_examples::puzzles::single_machine::{brute_force, random_jobs, weighted_tardiness};
use common::{data_dir, run_example, stderr, stdout, temp_file};

fn instance_path(name: &str) -> String {
    data_dir()
        .join("jobshop")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

fn read_instance(name: &str) -> Instance {
    let file = std::fs::File::open(instance_path(name)).unwrap();
    jobshop::read(std::io::BufReader::new(file)).unwrap()
}

/// The starts of each job's tasks, read back from the example's machine lines
/// (`machine M: job@start+duration ...`), in the order of each job's tasks.
fn schedule_of(text: &str, instance: &Instance) -> Vec<Vec<i64>> {
    let mut starts: Vec<Vec<i64>> = instance.jobs.iter().map(|j| vec![-1; j.len()]).collect();
    for line in text.lines().filter(|l| l.starts_with("machine ")) {
        let (head, tasks) = line.split_once(": ").unwrap();
        let machine: usize = head["machine ".len()..].parse().unwrap();
        for task in tasks.split(' ') {
            let (job, rest) = task.split_once('@').unwrap();
            let (start, _) = rest.split_once('+').unwrap();
            let job: usize = job.parse().unwrap();
            let k = instance.jobs[job]
                .iter()
                .position(|&(m, _)| m == machine)
                .unwrap();
            starts[job][k] = start.parse().unwrap();
        }
    }
    starts
}

fn makespan_line(text: &str) -> i64 {
    text.lines()
        .find_map(|l| l.strip_prefix("makespan: "))
        .unwrap_or_else(|| panic!("no makespan line in {text}"))
        .parse()
        .unwrap()
}

#[test]
fn jobshop_proves_the_optima_of_ft06_and_la01_with_a_valid_schedule() {
    for (name, optimum) in [("ft06.txt", 55), ("la01.txt", 666)] {
        let out = run_example("jobshop", &[&instance_path(name)]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(makespan_line(&text), optimum, "{name}: {text}");
        assert!(text.contains("proved optimal in"), "{name}: {text}");
        let instance = read_instance(name);
        assert_eq!(
            jobshop::check(&instance, &schedule_of(&text, &instance)),
            Ok(optimum),
            "{name}: {text}"
        );
    }
}

#[test]
fn jobshop_with_lns_proves_the_same_optima_and_refuses_bad_seeds() {
    for (name, optimum, seed) in [("ft06.txt", 55, "0"), ("la01.txt", 666, "5")] {
        let with_seed = ["--lns", "--lns-seed", seed];
        for args in [&["--lns"][..], &with_seed, &["--no-learning", "--lns"]] {
            let mut all = vec![instance_path(name)];
            all.extend(args.iter().map(|a| a.to_string()));
            let all: Vec<&str> = all.iter().map(String::as_str).collect();
            let out = run_example("jobshop", &all);
            assert!(out.status.success(), "{name} {args:?}: {}", stderr(&out));
            let text = stdout(&out);
            assert_eq!(makespan_line(&text), optimum, "{name} {args:?}: {text}");
            assert!(
                text.contains("proved optimal in"),
                "{name} {args:?}: {text}"
            );
            let instance = read_instance(name);
            assert_eq!(
                jobshop::check(&instance, &schedule_of(&text, &instance)),
                Ok(optimum)
            );
        }
    }
    let ft06 = instance_path("ft06.txt");
    let out = run_example("jobshop", &[&ft06, "--lns", "--lns-seed", "x"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("invalid value 'x'"),
        "{}",
        stderr(&out)
    );
    // A seed without --lns is a mistake, not a silent no-op.
    let out = run_example("jobshop", &[&ft06, "--lns-seed", "3"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn jobshop_stopped_by_a_node_limit_prints_its_best_schedule_unproved() {
    let out = run_example(
        "jobshop",
        &[&instance_path("la01.txt"), "--node-limit", "20"],
    );
    let text = stdout(&out);
    assert!(text.contains("not proved optimal"), "{text}");
    assert!(!text.contains("proved optimal in"), "{text}");
}

#[test]
fn jobshop_refuses_bad_files_naming_the_line_with_status_2() {
    let cases = [
        ("empty.txt", "", "no job-shop lines"),
        ("header.txt", "2 x\n", "line 1: \"x\" is not a whole number"),
        ("short.txt", "1 2\n0 3 1\n", "line 2: a job is 2 pairs"),
        (
            "machine.txt",
            "# c\n1 2\n0 3 5 1\n",
            "line 3: machine 5 does not exist",
        ),
        (
            "missing.txt",
            "2 1\n0 3\n",
            "line 3: the file ends after 1 of the 2 jobs",
        ),
    ];
    for (file, contents, message) in cases {
        let path = temp_file(file, contents);
        let out = run_example("jobshop", &[path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert!(stderr(&out).contains(message), "{file}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{file}");
    }
    let out = run_example("jobshop", &["/no/such/file.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read /no/such/file.txt"));
    let out = run_example("jobshop", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Usage: jobshop"), "{}", stderr(&out));
}

/// The starts and the objective the example printed (`job J: S..E (...)` lines, then
/// `weighted tardiness: W`).
fn single_machine_answer(text: &str, n: usize) -> (Vec<i64>, i64) {
    let mut starts = vec![-1; n];
    for line in text.lines().filter(|l| l.starts_with("job ")) {
        let (job, rest) = line["job ".len()..].split_once(": ").unwrap();
        let (start, _) = rest.split_once("..").unwrap();
        starts[job.parse::<usize>().unwrap()] = start.parse().unwrap();
    }
    let cost = text
        .lines()
        .find_map(|l| l.strip_prefix("weighted tardiness: "))
        .unwrap_or_else(|| panic!("no objective in {text}"))
        .parse()
        .unwrap();
    (starts, cost)
}

#[test]
fn single_machine_agrees_with_a_brute_force_over_every_order() {
    for n in 1..=7usize {
        for seed in 1..=3u64 {
            for form in [
                &[][..],
                &["--pairs"],
                &["--dominance"],
                &["--pairs", "--dominance"],
            ] {
                let (n_arg, seed_arg) = (n.to_string(), seed.to_string());
                let mut args = vec![n_arg.as_str(), "--seed", seed_arg.as_str()];
                args.extend_from_slice(form);
                let out = run_example("single_machine", &args);
                assert!(out.status.success(), "{args:?}: {}", stderr(&out));
                let text = stdout(&out);
                let jobs = random_jobs(n, seed);
                let (starts, cost) = single_machine_answer(&text, n);
                assert_eq!(cost, brute_force(&jobs), "{args:?}: {text}");
                assert_eq!(weighted_tardiness(&jobs, &starts), Ok(cost), "{args:?}");
                assert!(text.contains("proved optimal in"), "{args:?}: {text}");
            }
        }
    }
}

#[test]
fn single_machine_refuses_bad_sizes_with_status_2() {
    for n in ["0", "101", "x"] {
        let out = run_example("single_machine", &[n]);
        assert_eq!(out.status.code(), Some(2), "{n}");
        assert!(stderr(&out).contains("Usage: single_machine"), "{n}");
    }
}
