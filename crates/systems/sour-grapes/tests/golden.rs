//! The policy's choices and the events they bring, pinned: 100 seeds of the
//! example table played to the end, every step's awaited entries, the
//! suggestion for each, and the events of the first one's command. The file
//! `tests/data/golden.txt` keeps, per seed, the number of awaited entries, the number of
//! transcript lines and a 64-bit FNV-1a hash of the transcript (the whole text
//! would be some 2 MB).
//!
//! The file was recorded before the simulation speed work (issue 17); a change
//! that alters the policy's choices or the rules' events shows here. To record
//! it again after a deliberate change: `SOUR_GRAPES_GOLDEN=record cargo test
//! -p tabula-sour-grapes --test golden`.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use common::*;
use tabula_core::{Policy, Seeded, System, TextPlay};
use tabula_sour_grapes::SourGrapes;

/// Seeds played.
const SEEDS: u64 = 100;
/// The step cap per encounter.
const STEP_CAP: usize = 10_000;

/// One encounter, as text: per step the awaited entries with their
/// suggestions, then the events of the first entry's command.
fn transcript(seed: u64, out: &mut String) {
    let mut state = example_table().state().clone();
    let mut roller = Seeded::from_seed(seed);
    writeln!(out, "# seed {seed}").unwrap();
    let mut steps = 0;
    while !SourGrapes::finished(&state) {
        assert!(steps < STEP_CAP, "seed {seed}: more than {STEP_CAP} steps");
        let waiting = SourGrapes::awaiting(&state);
        assert!(!waiting.is_empty(), "seed {seed}: nothing awaited");
        let mut first = None;
        for a in &waiting {
            let s = SourGrapes::suggest_for(&state, a);
            writeln!(out, "? {a:?} => {s:?}").unwrap();
            if first.is_none() {
                first = Some((a.seat.clone(), s));
            }
        }
        let (seat, cmd) = first.unwrap();
        let cmd = cmd.expect("a suggestion for the first awaited entry");
        let events = SourGrapes::decide(&state, &seat, &cmd, &mut roller)
            .unwrap_or_else(|e| panic!("seed {seed}: {cmd:?} refused: {e}"));
        for e in &events {
            writeln!(out, "! {e:?}").unwrap();
            SourGrapes::evolve(&mut state, e);
        }
        steps += 1;
    }
}

/// FNV-1a, 64 bits: a fixed hash that does not change between Rust releases.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn policy_choices_and_events_are_pinned() {
    let mut got = String::new();
    for seed in 1..=SEEDS {
        let mut t = String::new();
        transcript(seed, &mut t);
        let steps = t.lines().filter(|l| l.starts_with('?')).count();
        let lines = t.lines().count();
        writeln!(
            got,
            "seed {seed} entries {steps} lines {lines} fnv1a {:016x}",
            fnv1a(&t)
        )
        .unwrap();
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden.txt");
    if std::env::var("SOUR_GRAPES_GOLDEN").as_deref() == Ok("record") {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).expect("tests/data/golden.txt");
    for (n, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(
            g,
            w,
            "line {} differs (the seed's transcript changed)",
            n + 1
        );
    }
    assert_eq!(got.lines().count(), want.lines().count(), "line count");
}
