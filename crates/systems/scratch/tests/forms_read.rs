//! The page's forms (issue 26, item 1): every legal command of every seat,
//! written from its declared parameter syntax ([`CommandSpec::line`]) with
//! sample values, reads with the book's parser, at every step of random
//! legal walks over the example tables ([`testkit::assert_forms_read`]).
//! The walks themselves give lines written the same way (`Choice::Line`:
//! a line that does not read fails the test).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use tabula_core::files::InMemoryFiles;
use tabula_core::testkit::{self, Choice};
use tabula_core::{CommandSpec, ParamKind, ParamSpec, Seat, Table, TextPlay};
use tabula_scratch::Scratch;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch")
}

/// A table of the examples, or (`crafters`) a small one whose crafter offers
/// `craft` and `uncraft` before initiative ("Support Abilities"), the
/// example tables having none.
fn table(file: &str) -> Table<Scratch> {
    if file == "crafters" {
        let sheets = [
            (
                "alice",
                "name = \"Tinker\"\n[abilities]\ncraftsmanship = 2\ntoughness = 3\nshooting = 2\n"
                    .to_string(),
                "heroes",
            ),
            (
                "bob",
                "name = \"Gunner\"\n[abilities]\nshooting = 3\ntoughness = 3\nflying = 1\n"
                    .to_string(),
                "heroes",
            ),
            (
                "gm",
                std::fs::read_to_string(dir().join("thug.toml")).unwrap(),
                "villains",
            ),
        ];
        let mut files = BTreeMap::new();
        let mut groups = String::from("[encounter]\nterrain = [\"room-to-fly\"]\n");
        for (seat, sheet, side) in sheets {
            let file = format!("{seat}.toml");
            files.insert(file.clone(), sheet);
            groups.push_str(&format!(
                "[[groups]]\nseat = \"{seat}\"\nside = \"{side}\"\ncharacters = [\"{file}\"]\n"
            ));
        }
        return Table::new(Scratch::setup(&groups, &InMemoryFiles(files)).unwrap());
    }
    let text = std::fs::read_to_string(dir().join(file)).unwrap();
    Table::new(Scratch::setup(&text, &dir()).unwrap())
}

/// Samples of the book's free-text parameters: the GM's `adjust` AMOUNT (N,
/// +N or -N) and `add`'s `as NAME` (one word or several). Any other text
/// parameter is a new one this test must learn about.
fn text_samples(spec: &CommandSpec, p: &ParamSpec) -> Vec<String> {
    match (&p.kind, spec.name.as_str(), p.name.as_str()) {
        (ParamKind::Text, "adjust", "amount") => vec!["+1".into(), "-1".into(), "3".into()],
        (ParamKind::Text, "add", "as name") => vec!["Newcomer".into(), "Big Boss".into()],
        (ParamKind::Text, name, param) => {
            panic!("`{name}` has a text parameter {param:?} without samples")
        }
        _ => Vec::new(),
    }
}

/// A small deterministic generator (splitmix64) for the walks' picks.
struct Picks(u64);

impl Picks {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        usize::try_from(z % u64::try_from(n.max(1)).unwrap_or(1)).unwrap_or(0)
    }
}

/// A value for `p` of `spec` as a form would send it; `""` leaves an
/// optional parameter out.
fn value(picks: &mut Picks, spec: &CommandSpec, p: &ParamSpec) -> String {
    if p.optional && picks.next(3) == 0 {
        return String::new();
    }
    match &p.kind {
        ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => options
            .get(picks.next(options.len()))
            .cloned()
            .unwrap_or_default(),
        ParamKind::Int { min, max } => {
            // Difficulties near the book's (the whole range is sampled by
            // assert_forms_read).
            let lo = (*min).max(-5);
            let hi = (*max).min(25).max(lo);
            let span = usize::try_from(hi - lo + 1).unwrap_or(1);
            (lo + i64::try_from(picks.next(span)).unwrap_or(0)).to_string()
        }
        ParamKind::NumberOrName { min, .. } => min.to_string(),
        ParamKind::Text => {
            let s = text_samples(spec, p);
            s.get(picks.next(s.len())).cloned().unwrap_or_default()
        }
    }
}

/// Commands that do not move the encounter on (or end it): given now and
/// then only, so walks get far.
const ANY_TIME: [&str; 6] = [
    "roll",
    "terrain",
    "adjust",
    "remove",
    "add",
    "end-encounter",
];

/// Walks `file` for `steps` steps from `seed`, checking the forms at the
/// start and after every step. Returns the lines read and the commands
/// (their words) that were offered.
fn walk(file: &str, seed: u64, steps: usize) -> (usize, BTreeSet<String>) {
    let mut t = table(file);
    let mut read = testkit::assert_forms_read::<Scratch>(t.state(), text_samples);
    let mut offered = BTreeSet::new();
    let mut picks = Picks(seed);
    testkit::walk_legal(
        &mut t,
        seed,
        steps,
        |_, all| {
            for (_, spec) in all {
                offered.insert(spec.name.split(' ').next_back().unwrap_or("").to_string());
            }
            let moving: Vec<&(Seat, CommandSpec)> = all
                .iter()
                .filter(|(_, s)| !ANY_TIME.contains(&s.name.as_str()))
                .collect();
            let (seat, spec) = if moving.is_empty() || picks.next(10) == 0 {
                &all[picks.next(all.len())]
            } else {
                moving[picks.next(moving.len())]
            };
            if spec.name == "end-encounter" && picks.next(4) != 0 {
                return Choice::Skip;
            }
            let values: Vec<String> = spec
                .params
                .iter()
                .map(|p| value(&mut picks, spec, p))
                .collect();
            Choice::Line(seat.clone(), spec.line(&values))
        },
        |t, _| read += testkit::assert_forms_read::<Scratch>(t.state(), text_samples),
    );
    (read, offered)
}

/// Random legal walks over the example table and the book's combat example:
/// every form line of every legal command reads, every step.
#[test]
fn every_legal_command_written_by_its_form_reads() {
    let mut read = 0;
    let mut offered = BTreeSet::new();
    for file in ["table.toml", "combat-example.toml", "crafters"] {
        for seed in 0..4 {
            let (r, o) = walk(file, seed, 120);
            read += r;
            offered.extend(o);
        }
    }
    // Every kind of form was on offer at some step, so each was written.
    for name in [
        "initiative",
        "roll",
        "craft",
        "uncraft",
        "adjust",
        "remove",
        "add",
        "end-encounter",
        "terrain",
        "attack",
        "evade",
        "end",
    ] {
        assert!(offered.contains(name), "`{name}` was never offered");
    }
    // About 40,000 today.
    assert!(read >= 30_000, "only {read} form lines read");
}
