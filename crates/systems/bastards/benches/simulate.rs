//! Criterion benchmarks of simulation: whole encounters of the example table
//! played by the policy, and the decide + evolve steps alone (the commands of
//! recorded encounters replayed with the same seeds, no policy).
//!
//! Run: `cargo bench -p tabula-bastards --bench simulate`

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use tabula_bastards::Bastards;
use tabula_bastards::command::Command;
use tabula_bastards::state::State;
use tabula_core::policy::Policy;
use tabula_core::roller::Seeded;
use tabula_core::system::{Seat, System, TextPlay};

/// Seeds played per measured batch.
const SEEDS: u64 = 16;

fn initial() -> State {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/bastards");
    let text =
        std::fs::read_to_string(dir.join("table.toml")).expect("examples/bastards/table.toml");
    Bastards::setup(&text, &dir).expect("the example table sets up")
}

/// One encounter played by the policy to the end: the commands given.
fn play(state: &mut State, seed: u64) -> Vec<(Seat, Command)> {
    let mut roller = Seeded::from_seed(seed);
    let mut log = Vec::new();
    while !Bastards::finished(state) && log.len() < 10_000 {
        let Some(a) = Bastards::awaiting(state).into_iter().next() else {
            break;
        };
        let Some(cmd) = Bastards::suggest_for(state, &a) else {
            break;
        };
        let Ok(events) = Bastards::decide(state, &a.seat, &cmd, &mut roller) else {
            break;
        };
        for e in &events {
            Bastards::evolve(state, e);
        }
        log.push((a.seat, cmd));
    }
    log
}

fn bench_simulate(c: &mut Criterion) {
    let start = initial();
    let mut group = c.benchmark_group("bastards simulate");
    group.throughput(Throughput::Elements(SEEDS));
    group.bench_function("example encounters (policy, decide, evolve)", |b| {
        b.iter_batched(
            || vec![start.clone(); SEEDS as usize],
            |mut states| {
                for (seed, s) in states.iter_mut().enumerate() {
                    black_box(play(s, seed as u64));
                }
                states
            },
            BatchSize::SmallInput,
        )
    });
    // The same encounters' commands, replayed: decide + evolve only.
    let logs: Vec<Vec<(Seat, Command)>> = (0..SEEDS)
        .map(|seed| play(&mut start.clone(), seed))
        .collect();
    let steps: usize = logs.iter().map(Vec::len).sum();
    group.throughput(Throughput::Elements(steps as u64));
    group.bench_function("decide + evolve steps", |b| {
        b.iter_batched(
            || vec![start.clone(); SEEDS as usize],
            |mut states| {
                for ((seed, s), log) in states.iter_mut().enumerate().zip(&logs) {
                    let mut roller = Seeded::from_seed(seed as u64);
                    for (seat, cmd) in log {
                        if let Ok(events) = Bastards::decide(s, seat, cmd, &mut roller) {
                            for e in &events {
                                Bastards::evolve(s, e);
                            }
                        }
                    }
                }
                states
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, bench_simulate);
criterion_main!(benches);
