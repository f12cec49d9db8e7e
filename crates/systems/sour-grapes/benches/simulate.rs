//! Simulation speed: whole example encounters played by the policy, and
//! single decide + evolve steps.
//!
//! `cargo bench -p tabula-sour-grapes --bench simulate -j 1 -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::path::Path;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use tabula_core::{Policy, Seeded, System, TextPlay};
use tabula_sour_grapes::SourGrapes;
use tabula_sour_grapes::command::Command;
use tabula_sour_grapes::state::State;

fn example() -> State {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sour-grapes");
    let text = std::fs::read_to_string(dir.join("table.toml")).expect("the example table");
    SourGrapes::setup(&text, &dir).expect("the example table sets up")
}

/// One policy step: the first awaited entry, its command, decide, evolve.
fn step(state: &mut State, roller: &mut Seeded) -> bool {
    let waiting = SourGrapes::awaiting(state);
    let Some(first) = waiting.first() else {
        return false;
    };
    let Some(cmd) = SourGrapes::suggest_for(state, first) else {
        return false;
    };
    match SourGrapes::decide(state, &first.seat, &cmd, roller) {
        Ok(events) => {
            for e in &events {
                SourGrapes::evolve(state, e);
            }
            true
        }
        Err(_) => false,
    }
}

/// A whole encounter; the number of commands.
fn encounter(mut state: State, seed: u64) -> usize {
    let mut roller = Seeded::from_seed(seed);
    let mut n = 0;
    while !SourGrapes::finished(&state) && n < 10_000 && step(&mut state, &mut roller) {
        n += 1;
    }
    n
}

/// The commands (with their seats) of one encounter, and the states before each.
fn recorded(seed: u64) -> Vec<(State, tabula_core::Seat, Command)> {
    let mut state = example();
    let mut roller = Seeded::from_seed(seed);
    let mut out = Vec::new();
    while !SourGrapes::finished(&state) && out.len() < 10_000 {
        let waiting = SourGrapes::awaiting(&state);
        let Some(first) = waiting.first() else { break };
        let Some(cmd) = SourGrapes::suggest_for(&state, first) else {
            break;
        };
        out.push((state.clone(), first.seat.clone(), cmd.clone()));
        if !step(&mut state, &mut roller) {
            break;
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let start = example();
    let mut g = c.benchmark_group("sour-grapes");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0_u64;
    g.bench_function("encounter (policy, example table)", |b| {
        b.iter_batched(
            || {
                seed = seed.wrapping_add(1);
                (start.clone(), seed)
            },
            |(s, seed)| black_box(encounter(s, seed)),
            BatchSize::SmallInput,
        )
    });
    let steps = recorded(1);
    g.throughput(Throughput::Elements(steps.len() as u64));
    g.bench_function("decide+evolve, every step of one encounter", |b| {
        b.iter_batched(
            || steps.clone(),
            |steps| {
                let mut roller = Seeded::from_seed(1);
                for (mut s, seat, cmd) in steps {
                    if let Ok(events) = SourGrapes::decide(&s, &seat, &cmd, &mut roller) {
                        for e in &events {
                            SourGrapes::evolve(&mut s, e);
                        }
                    }
                    black_box(&s);
                }
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function(
        "policy: awaiting + suggest_for, every step of one encounter",
        |b| {
            b.iter(|| {
                for (s, _, _) in &steps {
                    let w = SourGrapes::awaiting(s);
                    if let Some(a) = w.first() {
                        black_box(SourGrapes::suggest_for(s, a));
                    }
                }
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
