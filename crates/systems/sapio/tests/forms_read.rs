//! The page's forms send lines the parser reads (issue 26, item 1): over
//! random legal walks of the example table (fresh, after a consequential
//! session, and with an advancement cycle completed), every legal command of
//! every seat, written from its spec as a form writes it
//! ([`CommandSpec::line`], following each parameter's declared
//! `ParamSyntax`) with sample values, reads with the book's parser
//! ([`testkit::assert_forms_read`]).
//!
//! Two forms hold a line no declaration can keep a form from writing, so
//! they are checked on their own ([`check_unwritable`]) and left out of
//! [`testkit::assert_specs_read`] through [`forms`]: `advance` and
//! `change`, whose last parameter is the rest of the line in the book's own
//! words (`SIDE NAME`, `NAME effect=KIND ...`, `PROFESSION to NEW`),
//! declared `raw` and `.required()` (the page asks for it); its samples
//! depend on the kind chosen before it, which the kit's samples cannot
//! follow, so these are checked here with kind-matched values, and the line
//! without it is refused. `roll` is checked as every other form: its target
//! is only offered with a weapon (`with WEAPON at TARGET`, one choice), so
//! every line its form writes reads.

use std::collections::BTreeSet;
use std::path::PathBuf;

use tabula_core::Scripted;
use tabula_core::system::{CommandSpec, ParamKind, ParamSpec, Seat, System, Table, TextPlay};
use tabula_core::testkit::{self, Choice};
use tabula_sapio::{Sapio, State};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sapio")
}

fn table() -> Table<Sapio> {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(Sapio::setup(&text, &dir).unwrap())
}

/// Give `line` as `who` with scripted dice; panics on refusal.
fn ok(t: &mut Table<Sapio>, who: &str, line: &str, faces: &[&str]) {
    let seat = Seat::parse(who);
    let cmd = Sapio::parse_command(t.state(), &seat, line).unwrap();
    let mut roller = Scripted::values(faces.iter().copied());
    t.submit(&seat, &cmd, &mut roller)
        .unwrap_or_else(|e| panic!("{who}: {line}: {e}"));
}

/// `roll`'s form offers a target only with a weapon (one choice `with
/// WEAPON at TARGET`), so it cannot write `roll at TARGET`, which the parser
/// refuses and `decide` would refuse too ("Weapons and causing Injury",
/// 004_f39b4146df158cae.txt); each offered attack reads and is taken.
#[test]
fn roll_offers_a_target_only_with_a_weapon() {
    let mut t = table();
    ok(&mut t, "GM", "check Sable 1", &[]);
    let cy = Seat::parse("Cy");
    let spec = Sapio::legal_commands(t.state(), &cy)
        .into_iter()
        .find(|s| s.name == "roll")
        .unwrap();
    assert_eq!(spec.params.len(), 1);
    assert_eq!(spec.params[0].name, "with WEAPON at TARGET");
    assert!(spec.params[0].optional);
    assert_eq!(
        spec.params[0].kind,
        ParamKind::Choice {
            options: [
                r#"with "Hunting Rifle" at Wren"#,
                r#"with "Hunting Rifle" at Brannoc"#,
                r#"with "Hunting Rifle" at Vance"#,
                "with Knife at Wren",
                "with Knife at Brannoc",
                "with Knife at Vance",
            ]
            .map(String::from)
            .to_vec()
        }
    );
    assert_eq!(spec.line(&[""]), "roll");
    let line = spec.line(&[r#"with "Hunting Rifle" at Vance"#]);
    assert_eq!(line, r#"roll with "Hunting Rifle" at Vance"#);
    for v in ["", "with Knife at Wren"] {
        assert!(Sapio::parse_command(t.state(), &cy, &spec.line(&[v])).is_ok());
    }
    assert!(Sapio::parse_command(t.state(), &cy, "roll at Vance").is_err());
    // One die, one Hit against TN 1: the weapon's base level, Moderate.
    ok(&mut t, "Cy", &line, &["H"]);
    let vance = t.state().find("Vance").unwrap();
    let injuries = t.state().characters[vance].character.injuries();
    let got: Vec<String> = injuries
        .entries()
        .iter()
        .map(|(b, n)| format!("{:?} {n}", b.level))
        .collect();
    assert_eq!(got, ["Moderate Hunting Rifle"]);
    // Sable has a weapon, Wren none: Wren's roll offers no attack.
    ok(&mut t, "GM", "check Wren 2", &[]);
    let spec = Sapio::legal_commands(t.state(), &Seat::parse("Ana"))
        .into_iter()
        .find(|s| s.name == "roll")
        .unwrap();
    assert!(spec.params.is_empty());
}

/// The commands whose forms can write a line the parser does not read
/// (see the module documentation): checked by [`check_unwritable`].
const UNWRITABLE: [&str; 2] = ["advance", "change"];

/// Every legal command but the [`UNWRITABLE`] ones, for
/// [`testkit::assert_specs_read`].
fn forms(state: &State) -> Vec<(Seat, CommandSpec)> {
    testkit::all_legal::<Sapio>(state)
        .into_iter()
        .filter(|(_, c)| !UNWRITABLE.contains(&c.name.as_str()))
        .collect()
}

/// The first option of `spec`'s parameter `i`, if it is a choice.
fn first_option(spec: &CommandSpec, i: usize) -> Option<&str> {
    match &spec.params.get(i)?.kind {
        ParamKind::Choice { options } => options.first().map(String::as_str),
        _ => None,
    }
}

/// The names of the entries of `name`'s Injuries (`injury`) or Stresses.
fn entries(state: &State, name: Option<&str>, injury: bool) -> Vec<String> {
    let Some(m) = name
        .and_then(|n| state.find(n))
        .and_then(|i| state.characters.get(i))
    else {
        return Vec::new();
    };
    let track = if injury {
        m.character.injuries()
    } else {
        m.character.stresses()
    };
    track.entries().iter().map(|(_, n)| n.to_string()).collect()
}

/// The track `heal`'s samples use: Injuries when the first character has
/// one, else Stresses when it has one, else none (any words read then).
fn heal_kind(state: &State, spec: &CommandSpec) -> Option<bool> {
    let who = first_option(spec, 0);
    [true, false]
        .into_iter()
        .find(|&injury| !entries(state, who, injury).is_empty())
}

/// What a player types into the form of `spec` for `param`, fitting
/// `state`: free text, and the names a parameter takes from the character
/// chosen before it (the first one offered, which the samples then keep).
/// Empty for "the testkit's own samples" ([`testkit::sample_values`]).
fn samples(state: &State, spec: &CommandSpec, param: &ParamSpec) -> Vec<String> {
    let who = first_option(spec, 0);
    let or_cut = |v: Option<String>| vec![v.unwrap_or_else(|| "Cut".to_string())];
    let strs = |v: &[&str]| v.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
    match (spec.name.as_str(), param.name.as_str()) {
        ("tn", "except") => {
            let focal = state
                .check
                .as_ref()
                .and_then(|c| state.characters.get(c.focal))
                .map(|m| m.character.name().to_string());
            let mut harm = entries(state, focal.as_deref(), true);
            harm.extend(entries(state, focal.as_deref(), false));
            or_cut(harm.into_iter().next())
        }
        ("release", "element") => vec![
            who.and_then(|n| state.find(n))
                .and_then(|i| state.characters.get(i))
                .and_then(|m| m.locked.first())
                .map_or_else(|| "Agile".to_string(), |l| l.element.clone()),
        ],
        ("injury" | "stress", "words") => strs(&["Broken Arm", "Cut"]),
        ("injury" | "stress", "similar-to") => or_cut(
            entries(state, who, spec.name == "injury")
                .into_iter()
                .next(),
        ),
        ("heal", "character") | ("assist" | "support", "helper") => {
            who.map(str::to_string).into_iter().collect()
        }
        ("heal", "kind") => match heal_kind(state, spec) {
            Some(injury) => vec![if injury { "injury" } else { "stress" }.to_string()],
            None => Vec::new(),
        },
        ("heal", "words") => {
            or_cut(heal_kind(state, spec).and_then(|i| entries(state, who, i).into_iter().next()))
        }
        ("assist" | "support", "element") => {
            let free = who
                .and_then(|n| state.find(n))
                .and_then(|i| state.characters.get(i))
                .and_then(|m| {
                    m.character
                        .elements()
                        .into_iter()
                        .find(|e| !m.locked.iter().any(|l| &l.element == e))
                });
            free.into_iter().collect()
        }
        ("begin-sequence", "goal") => strs(&["Hold the roof"]),
        ("frame", "text") => strs(&["Guards on the stairs"]),
        ("declare", "what") => strs(&["I leave the loot behind"]),
        ("adjust", "amount") => strs(&["+1", "-1", "3"]),
        ("add", "as name") => strs(&["Newcomer", "Night Owl"]),
        _ => Vec::new(),
    }
}

/// The lines a form of an [`UNWRITABLE`] command `spec` writes, each with
/// whether the parser reads it: every line with its parameters filled
/// reads; the one each limitation lets a form write does not.
fn unwritable_lines(state: &State, spec: &CommandSpec) -> Vec<(String, bool)> {
    let options = |i: usize| match spec.params.get(i).map(|p| &p.kind) {
        Some(ParamKind::Choice { options }) => options.clone(),
        _ => Vec::new(),
    };
    let sheet = first_option(spec, 0)
        .and_then(|n| state.find(n))
        .and_then(|i| state.characters.get(i))
        .map(|m| m.character.sheet());
    let who = first_option(spec, 0).unwrap_or_default();
    let mut out = Vec::new();
    match spec.name.as_str() {
        "advance" => {
            for kind in options(1) {
                let name = match kind.as_str() {
                    "specialization" => Some("Knife Fighting".to_string()),
                    "side-specialization" => sheet
                        .and_then(|s| s.side_professions.first())
                        .map(|p| format!("{} Haggling", p.name)),
                    "side-profession" => Some("Night Clerk".to_string()),
                    "quality" => Some("Durable".to_string()),
                    _ => Some(
                        r#"Weather Sense effect=bonus-dice amount=2 text="Knows when the rain comes""#
                            .to_string(),
                    ),
                };
                if let Some(name) = name {
                    out.push((spec.line(&[who, kind.as_str(), name.as_str()]), true));
                }
                out.push((spec.line(&[who, kind.as_str(), ""]), false));
            }
        }
        _ => {
            for kind in options(1) {
                let what = sheet.and_then(|s| match kind.as_str() {
                    "word" => Some(format!("{} to Roof Dancer", s.profession.name)),
                    "swap" => s.side_professions.first().map(|p| p.name.clone()),
                    _ => s.qualities.first().map(|q| format!("{q} to Lithe")),
                });
                if let Some(what) = what {
                    out.push((spec.line(&[who, kind.as_str(), what.as_str()]), true));
                }
                out.push((spec.line(&[who, kind.as_str(), ""]), false));
            }
        }
    }
    out
}

/// Every legal [`UNWRITABLE`] form's lines read or are refused as
/// [`unwritable_lines`] says. Returns the lines that read.
fn check_unwritable(state: &State) -> usize {
    let mut read = 0;
    for (seat, spec) in testkit::all_legal::<Sapio>(state) {
        if !UNWRITABLE.contains(&spec.name.as_str()) {
            continue;
        }
        for (line, reads) in unwritable_lines(state, &spec) {
            match Sapio::parse_command(state, &seat, &line) {
                Ok(_) if reads => read += 1,
                Err(_) if !reads => {}
                Ok(_) => panic!("{seat}: {line:?} reads now: move `{}` back", spec.name),
                Err(e) => panic!("{seat}: the form of `{}` writes {line:?}: {e}", spec.name),
            }
        }
    }
    read
}

/// A tiny deterministic random stream (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        if n == 0 { 0 } else { (x % n as u64) as usize }
    }
}

/// A line a form of `spec` may send: each parameter at a random value it
/// offers (an optional one left out at times), written by
/// [`CommandSpec::line`]; for an [`UNWRITABLE`] command, one of its lines
/// that read.
fn form_line(state: &State, spec: &CommandSpec, rng: &mut Rng) -> String {
    if UNWRITABLE.contains(&spec.name.as_str()) {
        let lines: Vec<String> = unwritable_lines(state, spec)
            .into_iter()
            .filter_map(|(l, reads)| reads.then_some(l))
            .collect();
        return lines
            .get(rng.below(lines.len()))
            .cloned()
            .unwrap_or_else(|| spec.name.clone());
    }
    let values: Vec<String> = spec
        .params
        .iter()
        .map(|p| {
            if p.optional && rng.below(3) == 0 {
                return String::new();
            }
            let own = samples(state, spec, p);
            let pick = |v: &[String], rng: &mut Rng| v.get(rng.below(v.len())).cloned();
            match &p.kind {
                _ if !own.is_empty() => pick(&own, rng),
                ParamKind::Int { min, max } => {
                    let span = usize::try_from(max - min).unwrap_or(0) + 1;
                    Some((min + i64::try_from(rng.below(span)).unwrap_or(0)).to_string())
                }
                ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => {
                    pick(options, rng)
                }
                ParamKind::NumberOrName { min, .. } => Some(min.to_string()),
                ParamKind::Text => Some("Cut".to_string()),
            }
            .unwrap_or_default()
        })
        .collect();
    spec.line(&values)
}

/// The example table, after a consequential session (advancement due), and
/// with Wren's first advancement cycle completed (a change due): the walks'
/// starting points.
fn starts() -> Vec<Table<Sapio>> {
    let fresh = table();
    let mut session = table();
    ok(&mut session, "GM", "end-session consequential", &[]);
    let mut cycle = table();
    let play_on = |t: &mut Table<Sapio>| {
        ok(t, "GM", "check Vance 1", &[]);
        ok(t, "GM", "roll", &["H"]);
        ok(t, "GM", "end-session consequential", &[]);
    };
    ok(&mut cycle, "GM", "end-session consequential", &[]);
    for (i, adv) in [
        "quality Durable",
        "specialization Quick Escapes",
        "side-specialization Night Clerk Haggling",
        "talent Weather Sense effect=bonus-dice amount=2",
    ]
    .iter()
    .enumerate()
    {
        if i > 0 {
            play_on(&mut cycle);
        }
        ok(&mut cycle, "Ana", &format!("advance Wren {adv}"), &[]);
    }
    vec![fresh, session, cycle]
}

/// Every legal form at every step of 12 random walks (three starts, four
/// seeds, up to 80 steps) reads; the walks offered nearly every command,
/// and thousands of lines were read, hundreds of them of the
/// [`UNWRITABLE`] forms.
#[test]
fn every_legal_form_writes_a_line_the_parser_reads() {
    let (mut read, mut unwritable) = (0, 0);
    let mut offered = BTreeSet::new();
    for (n, start) in starts().into_iter().enumerate() {
        for seed in 0..4u64 {
            let mut t = start.clone();
            let mut rng = Rng((seed + 1) * 0x9E37_79B9 + n as u64);
            let mut at_each = |state: &State| {
                read += testkit::assert_specs_read::<Sapio>(state, forms(state), |spec, p| {
                    samples(state, spec, p)
                });
                unwritable += check_unwritable(state);
                for (_, spec) in testkit::all_legal::<Sapio>(state) {
                    offered.insert(spec.name);
                }
            };
            at_each(t.state());
            testkit::walk_legal(
                &mut t,
                seed,
                80,
                |t, legal| {
                    let state = t.state();
                    let mut pick = || legal.get(rng.below(legal.len()));
                    let mut chosen = pick();
                    // `end` ends the walk: seldom.
                    for _ in 0..4 {
                        if chosen.is_some_and(|(_, s)| s.name == "end" || s.name == "remove") {
                            chosen = pick();
                        }
                    }
                    match chosen {
                        Some((seat, spec)) => {
                            Choice::TryLine(seat.clone(), form_line(state, spec, &mut rng))
                        }
                        None => Choice::Stop,
                    }
                },
                |after, _| at_each(after.state()),
            );
        }
    }
    for name in [
        "check",
        "confront",
        "fight",
        "begin-sequence",
        "end-session",
        "end",
        "advance",
        "change",
        "threaten",
        "enter-fray",
        "frame",
        "focal",
        "tn",
        "bonus",
        "invoke",
        "talent",
        "declare",
        "roll",
        "defend",
        "release",
        "injury",
        "stress",
        "heal",
        "adjust",
        "add",
        "remove",
        "assist",
        "support",
        "luck",
        "accept",
        "reject",
        "give-luck",
        "luck-impulse",
        "luck-principle",
        "leave-fray",
        "end-sequence",
    ] {
        assert!(
            offered.contains(name),
            "no walk offered `{name}`: {offered:?}"
        );
    }
    assert!(read >= 20_000, "only {read} lines read");
    assert!(
        unwritable >= 500,
        "only {unwritable} lines of advance, change read"
    );
    eprintln!("{read} + {unwritable} lines read; offered {offered:?}");
}
