//! The page's forms write only lines the book reads (issue 26, item 1): at
//! every step of random legal walks over the example tables and a table of
//! Fated with many Advantages, every legal command of every seat, written
//! from its parameters' declared syntax ([`CommandSpec::line`]) with sample
//! values, reads with the book's parser ([`testkit::assert_forms_read`]).
//! The walks themselves give lines written the same way.

mod common;
use common::*;
use std::path::PathBuf;
use tabula_bastards::Bastards;
use tabula_core::system::{CommandSpec, ParamKind, ParamSpec, Seat, Table, TextPlay};
use tabula_core::testkit::{self, Choice};

fn load(file: &str) -> Table<Bastards> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/bastards");
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    Table::new(Bastards::setup(&text, &dir).unwrap())
}

/// Three Fated (two players and the Dealer) with Advantages `use` offers on
/// its own (Defensive Stance, Study, All-Out Defense, Dodge, Serendipity,
/// Berserk, Ass Pull) and a Wildcard each, so `reinforce`, `involve`,
/// `distance`, `bet wild` and `wildcard` are offered too.
fn advantaged() -> Table<Bastards> {
    let mut a = fated(draft(
        "Ana",
        "a",
        &["Defensive Stance", "Study", "Serendipity", "Ass Pull"],
    ));
    let mut b = fated(draft(
        "Bo Brand",
        "b",
        &["All-Out Defense", "Dodge", "Berserk"],
    ));
    let mut g = fated(draft("Gus", "", &["Dodge", "Savage"]));
    for c in [&mut a, &mut b, &mut g] {
        c.wildcards = 2;
    }
    a.carried.push(weapon("Big Club", 2, "Club Combat"));
    Table::new(state(vec![a, b, g]))
}

/// Samples a form could send for a free-text parameter, each one the
/// parser reads: a name for `reinforce`/`involve` and `add ... as`, an
/// amount for `adjust`, options for `attack`. Empty for the others (their
/// choices' and numbers' own samples, [`testkit::sample_values`]).
fn text_samples(_: &CommandSpec, p: &ParamSpec) -> Vec<String> {
    let v: &[&str] = match p.name.as_str() {
        "name" | "as name" => &["Newcomer", "New Face"],
        "amount" => &["+1", "3", "-2"],
        n if n.starts_with("options") => &["zeal", "fortune disarm savage wild=1"],
        _ => &[],
    };
    v.iter().map(|s| s.to_string()).collect()
}

/// A small deterministic generator (xorshift), so each seed replays.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One value for `p`: a sample, or nothing for an optional parameter now
/// and then.
fn value_for(spec: &CommandSpec, p: &ParamSpec, rng: &mut Rng) -> String {
    if p.optional && rng.below(3) == 0 {
        return String::new();
    }
    let mut samples = text_samples(spec, p);
    if samples.is_empty() {
        samples = match &p.kind {
            ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => options.clone(),
            _ => testkit::sample_values(p),
        };
    }
    samples
        .get(rng.below(samples.len()))
        .cloned()
        .unwrap_or_default()
}

/// A walk of at most `steps` commands from `t`, asserting at every step
/// that every legal form reads; returns the lines read.
fn walk(mut t: Table<Bastards>, seed: u64, steps: usize) -> usize {
    let mut read = testkit::assert_forms_read::<Bastards>(t.state(), text_samples);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let choose = |_: &Table<Bastards>, legal: &[(Seat, CommandSpec)]| {
        // `finish`, `end`, `scene` and the GM's cast changes only now and
        // then, so the encounter runs long enough to matter.
        let rare = |name: &str| matches!(name, "finish" | "end" | "scene" | "add" | "remove");
        let common: Vec<&(Seat, CommandSpec)> =
            legal.iter().filter(|(_, s)| !rare(&s.name)).collect();
        let pick = if common.is_empty() || rng.below(20) == 0 {
            legal.get(rng.below(legal.len()))
        } else {
            common.get(rng.below(common.len())).copied()
        };
        let Some((seat, spec)) = pick else {
            return Choice::Stop;
        };
        let values: Vec<String> = spec
            .params
            .iter()
            .map(|p| value_for(spec, p, &mut rng))
            .collect();
        // A skill of another of the seat's characters may fit nothing for
        // the one named: such a line is passed over, as a refusal is.
        Choice::TryLine(seat.clone(), spec.line(&values))
    };
    testkit::walk_legal(&mut t, seed, steps, choose, |t, _| {
        read += testkit::assert_forms_read::<Bastards>(t.state(), text_samples);
    });
    read
}

/// Issue 26, item 1: every legal command's form, written as its parameters
/// declare, reads with the parser, at every step of random walks from both
/// example tables and the many-Advantages table.
#[test]
fn every_legal_form_reads_with_the_parser() {
    let mut read = 0;
    for seed in 1..=4 {
        read += walk(load("table.toml"), seed, 80);
        read += walk(load("indirect.toml"), seed, 80);
        read += walk(advantaged(), seed, 80);
    }
    // 12 walks of up to 80 steps, each step reading some dozens of lines
    // (about 20,000 in all when written).
    assert!(read >= 10_000, "only {read} lines read");
}
