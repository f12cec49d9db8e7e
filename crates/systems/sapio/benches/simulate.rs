//! Simulation throughput of The Sapio System: whole example encounters played
//! by the policy ([`tabula_core::Policy`]), and the decide+evolve steps of one
//! encounter replayed without the policy.
//!
//! Run: `cargo bench -p tabula-sapio --bench simulate -j 1 -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabula_core::Seeded;
use tabula_core::policy::Policy;
use tabula_core::system::{Seat, System, TextPlay};
use tabula_sapio::{Command, Sapio, State};

/// The simulation's step cap.
const STEP_CAP: usize = 10_000;

fn example() -> State {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sapio");
    let text = std::fs::read_to_string(dir.join("table.toml")).expect("the example table");
    Sapio::setup(&text, &dir).expect("the example table sets up")
}

/// One encounter from `initial` with `seed`, as the simulator plays it: the
/// first awaited step, the policy's command, decide, evolve. The commands
/// given, for replaying.
fn encounter(initial: &State, seed: u64, record: bool) -> (State, Vec<(Seat, Command)>) {
    let mut state = initial.clone();
    let mut roller = Seeded::from_seed(seed);
    let mut given = Vec::new();
    for _ in 0..STEP_CAP {
        if Sapio::finished(&state) {
            break;
        }
        let waiting = Sapio::awaiting(&state);
        let Some(first) = waiting.first() else { break };
        let Some(cmd) = Sapio::suggest_for(&state, first) else {
            break;
        };
        let Ok(events) = Sapio::decide(&state, &first.seat, &cmd, &mut roller) else {
            break;
        };
        for e in &events {
            Sapio::evolve(&mut state, e);
        }
        if record {
            given.push((first.seat.clone(), cmd));
        }
    }
    (state, given)
}

fn encounters(c: &mut Criterion) {
    let initial = example();
    let mut group = c.benchmark_group("sapio");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("encounter (policy, decide, evolve)", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            black_box(encounter(black_box(&initial), seed, false).0.over)
        })
    });
    // One encounter's commands, replayed with the same dice: decide+evolve
    // alone, reported per step.
    let (_, given) = encounter(&initial, 1, true);
    group.throughput(Throughput::Elements(given.len() as u64));
    group.bench_function("decide+evolve steps", |b| {
        b.iter(|| {
            let mut state = initial.clone();
            let mut roller = Seeded::from_seed(1);
            for (seat, cmd) in &given {
                if let Ok(events) = Sapio::decide(&state, seat, cmd, &mut roller) {
                    for e in &events {
                        Sapio::evolve(&mut state, e);
                    }
                }
            }
            black_box(state.over)
        })
    });
    group.finish();
}

criterion_group!(benches, encounters);
criterion_main!(benches);
