//! The report's section on Golomb rulers: the optimum proved by branch and bound.

use std::fmt::Write as _;
use std::time::Duration;

use ambsolve::Engine;
use ambsolve_examples::puzzles::golomb::{OPTIMAL_LENGTHS, golomb};

use crate::support::median;
use crate::{seconds, verdict};

/// Golomb rulers, proving the optimum by branch and bound, next to the figures the issue
/// measured for MiniZinc + Gecode and OR-Tools CP-SAT (one worker) on this machine.
pub(crate) fn golomb_section(md: &mut String, quick: bool) {
    writeln!(
        md,
        "## Golomb ruler, proving the optimum (branch and bound)\n"
    )
    .unwrap();
    writeln!(
        md,
        "The textbook model (`examples/golomb/model.rs`): marks ascending from 0, all differences"
    )
    .unwrap();
    writeln!(
        md,
        "distinct, the first difference less than the last, `minimize m[n - 1]`; marks in order,"
    )
    .unwrap();
    writeln!(
        md,
        "smallest value first, one thread. Reference figures (measured for the issue on this"
    )
    .unwrap();
    writeln!(
        md,
        "machine, same model): MiniZinc + Gecode 0.7 s (N = 9), 8.1 s (10), 188 s (11); OR-Tools"
    )
    .unwrap();
    writeln!(md, "CP-SAT, one worker: 0.27 s, 0.78 s, 32 s. Targets: N = 10 under 0.8 s, N = 11 under 30 s.\n").unwrap();
    writeln!(
        md,
        "| N | engine | length | time (median) | nodes | improvements | Gecode | CP-SAT | target |"
    )
    .unwrap();
    writeln!(
        md,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    .unwrap();
    let rows: &[(usize, Engine, usize)] = if quick {
        &[
            (8, Engine::Trail, 3),
            (9, Engine::Trail, 3),
            (7, Engine::Replay, 3),
        ]
    } else {
        &[
            (8, Engine::Trail, 5),
            (9, Engine::Trail, 5),
            (10, Engine::Trail, 5),
            (11, Engine::Trail, 3),
            (7, Engine::Replay, 3),
        ]
    };
    for &(n, engine, runs) in rows {
        let (time, best) = median(runs, || golomb(n).engine(engine).best().unwrap());
        assert!(best.proved);
        assert_eq!(best.objective, Some(OPTIMAL_LENGTHS[n - 1]));
        let (gecode, cp_sat, target) = match n {
            9 => ("0.7 s", "0.27 s", String::new()),
            10 => (
                "8.1 s",
                "0.78 s",
                format!(
                    "under 0.8 s — {}",
                    verdict(time < Duration::from_millis(800))
                ),
            ),
            11 => (
                "188 s",
                "32 s",
                format!("under 30 s — {}", verdict(time < Duration::from_secs(30))),
            ),
            _ => ("", "", String::new()),
        };
        writeln!(
            md,
            "| {n} | {engine} | {} | {} | {} | {} | {gecode} | {cp_sat} | {target} |",
            OPTIMAL_LENGTHS[n - 1],
            seconds(time),
            if engine == Engine::Replay {
                format!("{} ({} runs)", best.stats.nodes, best.stats.runs)
            } else {
                best.stats.nodes.to_string()
            },
            best.improvements,
        )
        .unwrap();
    }
    writeln!(
        md,
        "\nThe replay engine has no propagation: it checks the bound after each choice of"
    )
    .unwrap();
    writeln!(
        md,
        "the objective's variables, so it proves the same optima on far larger trees.\n"
    )
    .unwrap();
}
