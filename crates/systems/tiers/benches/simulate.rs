//! Simulation throughput of Tiers with its policy on the example table
//! (`examples/tiers/table.toml`): whole encounters (from `fight` to `close`)
//! per second (`tiers/encounter`); `decide` + `evolve` steps per second,
//! replaying the policy's commands of eight encounters (`tiers/decide+evolve`);
//! and the policy's own choice (`awaiting` + `suggest_for`) per step
//! (`tiers/policy`).
//!
//! Run: `cargo bench -p tabula-tiers --bench simulate`

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabula_core::Seat;
use tabula_core::{Policy, Seeded, System, TextPlay};
use tabula_tiers::Tiers;
use tabula_tiers::command::Command;
use tabula_tiers::state::State;

fn example_state() -> State {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/tiers");
    let text = std::fs::read_to_string(dir.join("table.toml")).expect("the example table");
    Tiers::setup(&text, &dir).expect("the example table sets up")
}

/// One encounter played by the policy to `finished` as `simulate` plays it;
/// the number of commands given.
fn encounter(initial: &State, roller: &mut Seeded) -> usize {
    let mut s = initial.clone();
    let mut n = 0;
    while !Tiers::finished(&s) && n < 10_000 {
        let aw = Tiers::awaiting(&s);
        let Some(first) = aw.first() else { break };
        let Some(cmd) = Tiers::suggest_for(&s, first) else {
            break;
        };
        let Ok(events) = Tiers::decide(&s, &first.seat, &cmd, roller) else {
            break;
        };
        for e in &events {
            Tiers::evolve(&mut s, e);
        }
        n += 1;
    }
    n
}

/// The commands the policy gives in encounters with seeds `0..8`, by seed,
/// and every state it chose in.
type Played = (Vec<(u64, Vec<(Seat, Command)>)>, Vec<State>);

fn played(initial: &State) -> Played {
    let mut runs = Vec::new();
    let mut states = Vec::new();
    for seed in 0..8 {
        let mut roller = Seeded::from_seed(seed);
        let mut s = initial.clone();
        let mut cmds = Vec::new();
        while !Tiers::finished(&s) && cmds.len() < 10_000 {
            let aw = Tiers::awaiting(&s);
            let Some(first) = aw.first() else { break };
            let Some(cmd) = Tiers::suggest_for(&s, first) else {
                break;
            };
            let Ok(events) = Tiers::decide(&s, &first.seat, &cmd, &mut roller) else {
                break;
            };
            states.push(s.clone());
            cmds.push((first.seat.clone(), cmd));
            for e in &events {
                Tiers::evolve(&mut s, e);
            }
        }
        runs.push((seed, cmds));
    }
    (runs, states)
}

fn bench_simulate(c: &mut Criterion) {
    let initial = example_state();
    let mut group = c.benchmark_group("tiers");
    group.throughput(Throughput::Elements(1));
    let mut roller = Seeded::from_seed(1);
    group.bench_function("encounter", |b| {
        b.iter(|| encounter(black_box(&initial), &mut roller))
    });
    let (runs, states) = played(&initial);
    let steps: usize = runs.iter().map(|(_, c)| c.len()).sum();
    // The same seeds replay the same dice, so every command is accepted again.
    group.throughput(Throughput::Elements(steps as u64));
    group.bench_function("decide+evolve", |b| {
        b.iter(|| {
            let mut events = 0;
            for (seed, cmds) in &runs {
                let mut s = initial.clone();
                let mut roller = Seeded::from_seed(*seed);
                for (seat, cmd) in cmds {
                    if let Ok(out) = Tiers::decide(black_box(&s), seat, cmd, &mut roller) {
                        for e in &out {
                            Tiers::evolve(&mut s, e);
                        }
                        events += out.len();
                    }
                }
            }
            events
        })
    });
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("policy", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &states {
                let aw = Tiers::awaiting(black_box(s));
                if let Some(first) = aw.first() {
                    n += usize::from(Tiers::suggest_for(s, first).is_some());
                }
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, bench_simulate);
criterion_main!(benches);
