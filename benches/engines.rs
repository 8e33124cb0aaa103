//! Micro-benches of both engines and the reference counter (divan).
//!
//! ```text
//! cargo bench --bench engines
//! ```

mod support;

use ambsolve::{Engine, replay};
use ambsolve_examples::programs;
use ambsolve_examples::puzzles::queens as nqueens;
use ambsolve_examples::puzzles::{golomb, send_more_money, sudoku};
use divan::Bencher;

fn main() {
    divan::main();
}

#[divan::bench(args = [10, 12, 13])]
fn queens_count_bitmask(n: usize) -> u64 {
    support::bitmask_count(divan::black_box(n))
}

#[divan::bench(args = [10, 12, 13])]
fn queens_count_trail(bencher: Bencher, n: usize) {
    let puzzle = nqueens::queens(n);
    let model = puzzle.model();
    bencher.bench_local(|| model.solve(Engine::Trail).count().unwrap().solutions);
}

#[divan::bench(args = [8, 10, 12])]
fn queens_count_replay_model(bencher: Bencher, n: usize) {
    let puzzle = nqueens::queens(n);
    let model = puzzle.model();
    bencher.bench_local(|| model.solve(Engine::Replay).count().unwrap().solutions);
}

#[divan::bench(args = [8, 10, 12])]
fn queens_count_replay_free_columns(n: usize) -> u64 {
    replay(programs::queens_free_columns(n))
        .count()
        .unwrap()
        .solutions
}

#[divan::bench(args = [8, 10, 12])]
fn queens_count_replay_amb_run(n: usize) -> u64 {
    replay(programs::queens(n)).count().unwrap().solutions
}

#[divan::bench(args = [100, 200, 500, 1000])]
fn queens_first_trail(bencher: Bencher, n: usize) {
    let puzzle = nqueens::queens(n);
    let model = puzzle.model();
    bencher.bench_local(|| {
        model
            .solve(Engine::Trail)
            .strategy(nqueens::first_strategy())
            .first()
            .unwrap()
    });
}

#[divan::bench]
fn sudoku_top95(bencher: Bencher) {
    let puzzles = sudoku::parse_puzzles(&support::sudoku_file("top95.txt")).unwrap();
    bencher.bench_local(|| {
        puzzles
            .iter()
            .filter(|(_, g)| sudoku::solve(g).unwrap().is_some())
            .count()
    });
}

#[divan::bench]
fn send_more_money_all(bencher: Bencher) {
    let puzzle = send_more_money::send_more_money();
    let model = puzzle.model();
    bencher.bench_local(|| model.solve(Engine::Trail).count().unwrap().solutions);
}

/// Golomb rulers: the optimum found and proved by branch and bound.
#[divan::bench(args = [8, 9], sample_count = 10)]
fn golomb_best_trail(bencher: Bencher, n: usize) {
    let puzzle = golomb::golomb(n);
    bencher.bench_local(|| puzzle.best().unwrap().objective);
}
