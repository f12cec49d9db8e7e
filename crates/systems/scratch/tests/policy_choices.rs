//! The policy's choices are pinned: for 200 seeds on each of three tables
//! (the example table, and two made-up tables with every ability, terrain,
//! cover, minions, craftsmanship bonuses and the d6 methods), the
//! suggestion for every awaited entry at every state of an encounter is
//! fingerprinted and compared with `tests/data/policy_choices.txt`, recorded
//! before the policy was made faster. A quarter of the steps (and the
//! preparation) play a random command instead of the policy's, so the states
//! cover what the policy alone never reaches (in cover, delayed, panicked,
//! held, wounded, bonuses...).
//!
//! To record the file again (only when the policy is meant to choose
//! differently): `SCRATCH_RECORD_CHOICES=1 cargo test -p tabula-scratch --test policy_choices`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use tabula_core::files::InMemoryFiles;
use tabula_core::policy::{Awaiting, Policy};
use tabula_core::{Seat, Seeded, System, TextPlay};
use tabula_scratch::{Ability, Action, Command, Scratch, State};

const SEEDS: u64 = 200;
const STEP_CAP: usize = 10_000;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch")
}

fn example() -> State {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Scratch::setup(&text, &dir).unwrap()
}

const SHEETS: &[(&str, &str)] = &[
    (
        "flyer.toml",
        "name = \"Kite\"\n[abilities]\nflying = 3\nblasting = 3\ntoughness = 2\nhealing = 2\n",
    ),
    (
        "swimmer.toml",
        "name = \"Eel\"\n[abilities]\nswimming = 3\nwrestling = 3\nknockout = 2\ntoughness = 2\n",
    ),
    (
        "crafter.toml",
        "name = \"Tinker\"\n[abilities]\ncraftsmanship = 3\nshooting = 2\nacrobatics = 2\ntoughness = 3\n",
    ),
    (
        "boss.toml",
        "name = \"Boss\"\n[abilities]\ncommand = 3\nshooting = 2\ntoughness = 3\n[[minions]]\nname = \"Goon\"\n[minions.abilities]\ntoughness = 1\nfighting = 1\n[[minions]]\nname = \"Grunt\"\n[minions.abilities]\nknockout = 1\n",
    ),
    (
        "sneak.toml",
        "name = \"Shade\"\n[abilities]\nstealth = 3\ndetection = 2\nfighting = 2\nquickness = 1\ntoughness = 2\n",
    ),
    (
        "ghost.toml",
        "name = \"Ghost\"\n[abilities]\nshooting = 2\nstealth = 2\n",
    ),
    (
        "brute.toml",
        "name = \"Brute\"\n[abilities]\nfighting = 3\nwrestling = 2\ntoughness = 4\nswimming = 1\n",
    ),
    (
        "medic.toml",
        "name = \"Medic\"\n[abilities]\nhealing = 3\nshooting = 1\ntoughness = 2\nflying = 1\n",
    ),
];

const WET: &str = r#"
[rules]
cp = 10
max_level = 4
d20 = "d6-table"
[encounter]
terrain = ["water", "deep-water", "room-to-fly"]
cover = true
throwable_objects = true
[[groups]]
seat = "ann"
side = "crew"
characters = ["flyer.toml", "swimmer.toml", "crafter.toml"]
[[groups]]
seat = "gm"
side = "gang"
characters = ["boss.toml", "ghost.toml", "brute.toml"]
[[groups]]
seat = "cy"
side = "crew"
characters = ["medic.toml"]
"#;

const DRY: &str = r#"
[rules]
cp = 10
max_level = 4
strength_base = 7
d20 = "d6x4"
[encounter]
terrain = ["obstacles", "level-ground"]
cover = false
throwable_objects = false
[[groups]]
seat = "ann"
side = "crew"
characters = ["sneak.toml", "crafter.toml", "medic.toml"]
[[groups]]
seat = "gm"
side = "gang"
characters = ["boss.toml", "brute.toml", { file = "sneak.toml", id = "shade-2" }]
[[groups]]
seat = "dee"
side = "rivals"
characters = ["flyer.toml", "ghost.toml"]
"#;

fn made_up(table: &str) -> State {
    let files = InMemoryFiles(
        SHEETS
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    );
    Scratch::setup(table, &files).unwrap()
}

/// 64-bit FNV-1a: a fingerprint that does not change between Rust versions.
fn fnv(hash: &mut u64, text: &str) {
    for b in text.bytes() {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

/// A small deterministic generator for the random commands.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A random command for the awaited participant (or a random crafting
/// before the encounter).
fn random_command(state: &State, awaiting: &Awaiting, rng: &mut Lcg) -> Option<Command> {
    let ids: Vec<String> = state.characters.iter().map(|c| c.id.clone()).collect();
    let t = ids.get(rng.below(ids.len()))?.clone();
    let u = ids.get(rng.below(ids.len()))?.clone();
    let Some(actor) = awaiting.participant.clone() else {
        // Preparation: a crafter gives a companion a bonus on one of his
        // abilities.
        let crafters: Vec<usize> = (0..state.characters.len())
            .filter(|i| state.characters[*i].character.has(Ability::Craftsmanship))
            .collect();
        let c = *crafters.get(rng.below(crafters.len()))?;
        let mates: Vec<usize> = (0..state.characters.len())
            .filter(|i| *i != c && state.side_of(*i) == state.side_of(c))
            .collect();
        let m = *mates.get(rng.below(mates.len()))?;
        let levels: Vec<Ability> = state.characters[m]
            .character
            .levels()
            .keys()
            .copied()
            .collect();
        let ability = *levels.get(rng.below(levels.len()))?;
        return Some(Command::Craft {
            crafter: state.characters[c].id.clone(),
            target: state.characters[m].id.clone(),
            ability,
            hurry: rng.below(3) == 0,
        });
    };
    let action = match rng.below(17) {
        0 => Action::End,
        1 => Action::Evade { with: None },
        2 => Action::TakeCover,
        3 => Action::LeaveCover,
        4 => Action::Engage,
        5 => Action::Attack {
            target: t,
            with: None,
        },
        6 => Action::Hold {
            target: t,
            with: None,
        },
        7 => Action::Distract {
            target: t,
            with: None,
        },
        8 => Action::Throw { target: t },
        9 => Action::Shoot { target: t },
        10 => Action::Blast {
            targets: vec![t, u],
        },
        11 => Action::Knockout { target: t },
        12 => Action::Fight { targets: vec![t] },
        13 => Action::Surprise {
            target: t,
            with: None,
        },
        14 => Action::Intimidate { target: t },
        15 => Action::Heal { target: t },
        _ => Action::Escape,
    };
    Some(Command::Act { actor, action })
}

/// Play one encounter, a quarter of the commands random, and fingerprint
/// every awaited entry and the policy's suggestion for it at every state,
/// then the report.
fn fingerprint(initial: &State, seed: u64, mut observe: impl FnMut(&State)) -> u64 {
    let mut state = initial.clone();
    let mut roller = Seeded::from_seed(seed);
    let mut rng = Lcg(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut line = String::new();
    let mut crafts = 0;
    for _ in 0..STEP_CAP {
        if Scratch::finished(&state) {
            break;
        }
        observe(&state);
        let awaiting = Scratch::awaiting(&state);
        let Some(first) = awaiting.first() else {
            break;
        };
        for a in &awaiting {
            line.clear();
            let cmd = Scratch::suggest_for(&state, a);
            let _ = write!(line, "{a:?}->{cmd:?};");
            fnv(&mut hash, &line);
        }
        let policy = Scratch::suggest_for(&state, first);
        let preparing = first.participant.is_none() && crafts < 6;
        if preparing {
            crafts += 1;
        }
        let random = (preparing || rng.below(4) == 0)
            .then(|| random_command(&state, first, &mut rng))
            .flatten();
        let mut applied = false;
        if let Some(cmd) = random {
            // The crafter's own seat gives a crafting command.
            let seat = match &cmd {
                Command::Craft { crafter, .. } => state
                    .find(crafter)
                    .and_then(|i| state.seat_of(i))
                    .cloned()
                    .unwrap_or(Seat::Gm),
                _ => first.seat.clone(),
            };
            if let Ok(events) = Scratch::decide(&state, &seat, &cmd, &mut roller) {
                fnv(&mut hash, &format!("{cmd:?}!"));
                for e in &events {
                    Scratch::evolve(&mut state, e);
                }
                applied = true;
            }
        }
        if applied {
            continue;
        }
        let Some(cmd) = policy else { break };
        let Ok(events) = Scratch::decide(&state, &first.seat, &cmd, &mut roller) else {
            // Stuck: the policy's command refused (fingerprinted, not hidden).
            fnv(&mut hash, &format!("refused {cmd:?}"));
            break;
        };
        for e in &events {
            Scratch::evolve(&mut state, e);
        }
    }
    fnv(&mut hash, &format!("{:?}", Scratch::report(&state)));
    hash
}

fn tables() -> Vec<(&'static str, State)> {
    vec![
        ("example", example()),
        ("wet", made_up(WET)),
        ("dry", made_up(DRY)),
    ]
}

fn record_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/policy_choices.txt")
}

/// Every fingerprint matches the recorded one: the policy chooses the same
/// command in every state it was recorded in.
#[test]
fn the_policy_chooses_as_recorded() {
    let mut now = BTreeMap::new();
    for (name, state) in tables() {
        for seed in 0..SEEDS {
            now.insert(format!("{name} {seed}"), fingerprint(&state, seed, |_| {}));
        }
    }
    let path = record_path();
    if std::env::var_os("SCRATCH_RECORD_CHOICES").is_some() {
        let mut text = String::new();
        for (k, v) in &now {
            let _ = writeln!(text, "{k} {v:016x}");
        }
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let mut recorded = BTreeMap::new();
    for l in text.lines() {
        let (k, v) = l.rsplit_once(' ').unwrap();
        recorded.insert(k.to_string(), u64::from_str_radix(v, 16).unwrap());
    }
    assert_eq!(recorded.len(), now.len());
    let differ: Vec<&String> = now
        .iter()
        .filter(|(k, v)| recorded.get(*k) != Some(*v))
        .map(|(k, _)| k)
        .collect();
    assert!(differ.is_empty(), "choices differ for {differ:?}");
}

/// The random commands do reach the states the fingerprints are meant to
/// cover: bonuses, cover, delays, panics, holds, wounds, revivals.
#[test]
fn the_random_commands_vary_the_states() {
    for (name, state) in tables() {
        let mut seen = BTreeMap::<&str, u32>::new();
        for seed in 0..SEEDS {
            fingerprint(&state, seed, |s| {
                let mut see = |k: &'static str, yes: bool| {
                    if yes {
                        *seen.entry(k).or_default() += 1;
                    }
                };
                let any = |f: &dyn Fn(&tabula_scratch::state::Combatant) -> bool| {
                    s.characters.iter().any(f)
                };
                see("bonus", any(&|c| !c.bonuses.is_empty()));
                see("cover", any(&|c| c.in_cover));
                see("delayed", any(&|c| c.delayed()));
                see("panicked", any(&|c| c.panicked()));
                see("held", any(&|c| !c.held_by.is_empty()));
                see("evading", any(&|c| c.evading.is_some()));
                see("out", any(&|c| c.hit_points == 0));
            });
        }
        let mut want = vec!["delayed", "evading", "out", "held"];
        if name != "example" {
            want.push("bonus");
            want.push("panicked");
        }
        if name != "dry" {
            want.push("cover");
        }
        for k in want {
            assert!(
                seen.get(k).copied().unwrap_or(0) > 0,
                "{name}: never {k}: {seen:?}"
            );
        }
    }
}
