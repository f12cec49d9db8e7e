//! Simulation throughput of Scratch RPS with the policy, on the example table
//! (`examples/scratch/table.toml`): whole encounters per second (awaiting ->
//! suggest_for -> decide -> evolve until finished, as `tabula scratch
//! simulate` plays them), decide + evolve steps per second (one recorded
//! encounter replayed with its dice), and policy suggestions per second.
//!
//! Run: `cargo bench -p tabula-scratch --bench simulate -j 1 -- --warm-up-time 1 --measurement-time 3`
//!
//! Plain timing without criterion (the measure: N encounters one
//! after another on one core, then encounters and steps per second):
//! `SCRATCH_ENCOUNTERS=10000 cargo bench -p tabula-scratch --bench simulate -j 1`

use criterion::{Criterion, Throughput, criterion_group};
use std::hint::black_box;
use std::path::PathBuf;

use tabula_core::policy::{Awaiting, Policy};
use tabula_core::{Seeded, System, TextPlay};
use tabula_scratch::{Command, Scratch, State};

fn example() -> State {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch");
    let text = std::fs::read_to_string(dir.join("table.toml")).expect("the example table");
    Scratch::setup(&text, &dir).expect("the example table sets up")
}

/// One encounter to its end and its report, as the engine's `play_one` plays
/// it; the number of commands given.
fn encounter(initial: &State, seed: u64) -> usize {
    let mut state = initial.clone();
    let mut roller = Seeded::from_seed(seed);
    let mut steps = 0;
    while !Scratch::finished(&state) && steps < 10_000 {
        let awaiting = Scratch::awaiting(&state);
        let Some(first) = awaiting.first() else { break };
        let Some(cmd) = Scratch::suggest_for(&state, first) else {
            break;
        };
        let Ok(events) = Scratch::decide(&state, &first.seat, &cmd, &mut roller) else {
            break;
        };
        for e in &events {
            Scratch::evolve(&mut state, e);
        }
        steps += 1;
    }
    black_box(Scratch::report(&state));
    steps
}

/// The commands of one encounter with `seed`, with the state before each.
fn record(initial: &State, seed: u64) -> Vec<(State, Awaiting, Command)> {
    let mut state = initial.clone();
    let mut roller = Seeded::from_seed(seed);
    let mut out = Vec::new();
    while !Scratch::finished(&state) && out.len() < 10_000 {
        let awaiting = Scratch::awaiting(&state);
        let Some(first) = awaiting.first().cloned() else {
            break;
        };
        let Some(cmd) = Scratch::suggest_for(&state, &first) else {
            break;
        };
        let Ok(events) = Scratch::decide(&state, &first.seat, &cmd, &mut roller) else {
            break;
        };
        out.push((state.clone(), first, cmd));
        for e in &events {
            Scratch::evolve(&mut state, e);
        }
    }
    out
}

fn bench_simulate(c: &mut Criterion) {
    let initial = example();
    let mut group = c.benchmark_group("scratch");

    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("encounter (policy, example table)", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            black_box(encounter(&initial, seed))
        })
    });

    let steps = record(&initial, 7);
    let commands: Vec<(Awaiting, Command)> = steps
        .iter()
        .map(|(_, a, c)| (a.clone(), c.clone()))
        .collect();
    group.throughput(Throughput::Elements(commands.len() as u64));
    group.bench_function("decide+evolve (one encounter replayed)", |b| {
        b.iter(|| {
            let mut state = initial.clone();
            let mut roller = Seeded::from_seed(7);
            for (a, cmd) in &commands {
                if let Ok(events) = Scratch::decide(&state, &a.seat, cmd, &mut roller) {
                    for e in &events {
                        Scratch::evolve(&mut state, e);
                    }
                }
            }
            black_box(state.round)
        })
    });

    group.throughput(Throughput::Elements(steps.len() as u64));
    group.bench_function("awaiting+suggest_for (one encounter's states)", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (state, _, _) in &steps {
                let awaiting = Scratch::awaiting(state);
                if let Some(first) = awaiting.first()
                    && Scratch::suggest_for(state, first).is_some()
                {
                    n += 1;
                }
            }
            black_box(n)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_simulate);

/// `SCRATCH_ENCOUNTERS=N`: play N encounters (seeds 0..N) and print the
/// time, encounters per second and steps per second; otherwise criterion.
fn main() {
    if let Some(n) = std::env::var("SCRATCH_ENCOUNTERS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        let initial = example();
        let start = std::time::Instant::now();
        let mut steps = 0usize;
        for seed in 0..n {
            steps += encounter(&initial, seed);
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{n} encounters, {steps} steps in {secs:.3} s: {:.0} encounters/s, {:.0} steps/s, {:.2} us/encounter",
            n as f64 / secs,
            steps as f64 / secs,
            secs * 1e6 / n as f64
        );
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
