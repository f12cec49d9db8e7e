//! Every form the page draws from `legal_commands` writes a line the parser
//! reads (issue 26, item 1): random legal walks over the example table and
//! the two-sheet tables, and at every step every legal command of every seat
//! is written as [`CommandSpec::line`] writes it, from each parameter's
//! declared [`ParamSyntax`] with sample values, and read back
//! ([`testkit::assert_forms_read`]).
//!
//! Where the parser needs a keyword (`check`'s `vs`, `divert`'s `to`, the
//! storyteller's `as NAME` of `afflict`, `cure`, `giveback`, `heal`,
//! `situation`, `award`, `reject`; see [`REQUIRED_KEYWORDS`]) the book
//! declares it `.required()`, so the page's form asks for it. The walk also
//! reads the book's commands through [`forms`], the book's with each of those
//! parameters written as a required `WORD VALUE` (two required words), and
//! checks that the list is exact: each is declared required, and the line
//! without the keyword does not read.

mod common;

use std::collections::BTreeSet;

use common::{TWO_SHEETS, example_table, table_from};
use tabula_core::system::{ParamSyntax, TextPlay};
use tabula_core::testkit::{self, Choice};
use tabula_core::{CommandSpec, ParamKind, ParamSpec, Seat, Table};
use tabula_sour_grapes::state::State;
use tabula_sour_grapes::{SourGrapes, Stat};

/// The parameters the parser needs although their syntax is a keyword, as
/// `(command, parameter, word)`: `check STAT DICE [TOKENS] vs DIFFICULTY`,
/// `divert CARD ... to NAME`, and the storyteller's `... as NAME` (usage
/// lines in `tabula_sour_grapes::text::COMMANDS`).
const REQUIRED_KEYWORDS: &[(&str, &str, &str)] = &[
    ("check", "difficulty (vs)", "vs"),
    ("divert", "to", "to"),
    ("afflict", "as", "as"),
    ("cure", "as", "as"),
    ("giveback", "as", "as"),
    ("heal", "as", "as"),
    ("situation", "as", "as"),
    ("award", "as", "as"),
    ("reject", "as", "as"),
];

/// The word `param` of `command` needs written before it, if it is one of
/// [`REQUIRED_KEYWORDS`].
fn required_word(command: &str, param: &ParamSpec) -> Option<&'static str> {
    REQUIRED_KEYWORDS
        .iter()
        .find(|(c, p, _)| *c == command && *p == param.name)
        .map(|(_, _, w)| *w)
}

/// Every legal command of Sour Grapes, with each of [`REQUIRED_KEYWORDS`] declared as the required
/// pair it is: a positional choice of the word alone, then the value,
/// positional. Everything else is the book's own.
fn forms(state: &State) -> Vec<(Seat, CommandSpec)> {
    testkit::all_legal::<SourGrapes>(state)
        .into_iter()
        .map(|(seat, mut spec)| {
            let mut params = Vec::new();
            for p in spec.params {
                match required_word(&spec.name, &p) {
                    Some(word) => {
                        assert_eq!(
                            p.syntax,
                            ParamSyntax::Keyword { word: word.into() },
                            "{}'s {:?}",
                            spec.name,
                            p.name
                        );
                        assert!(
                            !p.optional,
                            "{}'s {:?} is declared required",
                            spec.name, p.name
                        );
                        params.push(ParamSpec::choice(word, [word]));
                        params.push(ParamSpec {
                            syntax: ParamSyntax::Positional,
                            ..p
                        });
                    }
                    None => params.push(p),
                }
            }
            spec.params = params;
            (seat, spec)
        })
        .collect()
}

/// Values a player types into a free-text field the parser reads: a stat's
/// `adjust` amount, a newcomer's name, targets, a skill of the character the
/// form's first `as` names, a stat or a new skill to raise. Empty for every
/// other parameter ([`testkit::sample_values`]).
fn text_samples(s: &State, param: &ParamSpec) -> Vec<String> {
    if param.kind != ParamKind::Text {
        return Vec::new();
    }
    let names = s.participant_names();
    match param.name.as_str() {
        "amount" => vec!["+1".into(), "-1".into(), "3".into()],
        "as" => vec!["Newcomer".into(), "New Comer".into()],
        "targets, comma-separated" => {
            let mut v: Vec<String> = names.first().cloned().into_iter().collect();
            if names.len() > 1 {
                v.push(names.join(", "));
            }
            v
        }
        // `situation`'s skill, read as a skill of the `as` character (the
        // first name, as the form's first sample has it).
        "skill (with)" => {
            let skills: Vec<String> = names
                .first()
                .and_then(|n| s.participant(n))
                .map(|p| {
                    p.character
                        .skills()
                        .iter()
                        .map(|k| k.name.clone())
                        .collect()
                })
                .unwrap_or_default();
            if skills.is_empty() {
                vec!["Brawling".into()]
            } else {
                skills
            }
        }
        "stat or skill" => vec![Stat::Agility.name().into(), "Juggling".into()],
        _ => Vec::new(),
    }
}

/// A small deterministic stream of picks for the walk (xorshift).
struct Picks(u64);

impl Picks {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n.max(1) as u64).unwrap_or(0)
    }
}

/// A random value for each parameter of `spec`, a form's fields filled in:
/// an optional parameter is left out half the time.
fn fill(s: &State, spec: &CommandSpec, picks: &mut Picks) -> Vec<String> {
    spec.params
        .iter()
        .map(|p| {
            if p.optional && picks.below(2) == 0 {
                return String::new();
            }
            let own = text_samples(s, p);
            let values = if own.is_empty() {
                match &p.kind {
                    ParamKind::Int { min, max } => {
                        let span = usize::try_from((max - min).clamp(0, 20)).unwrap_or(0);
                        return (min + i64::try_from(picks.below(span + 1)).unwrap_or(0))
                            .to_string();
                    }
                    ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => {
                        options.clone()
                    }
                    _ => testkit::sample_values(p),
                }
            } else {
                own
            };
            if values.is_empty() {
                String::new()
            } else {
                values[picks.below(values.len())].clone()
            }
        })
        .collect()
}

/// What the walks read, for the totals the test asserts.
#[derive(Default)]
struct Tally {
    /// Lines read by [`testkit::assert_forms_read`].
    read: usize,
    /// Commands whose forms were read, by name.
    commands: BTreeSet<String>,
    /// Book forms left without a required keyword, each refused.
    refused_without_keyword: usize,
    /// Commands the walks gave that the table accepted.
    accepted: usize,
}

/// Every one of [`REQUIRED_KEYWORDS`] offered now is needed: the book's own
/// form with every other parameter at its first sample and that keyword
/// left out does not read. Returns how many were checked.
fn assert_required_keywords_needed(s: &State) -> usize {
    let mut checked = 0;
    for (seat, spec) in testkit::all_legal::<SourGrapes>(s) {
        for (i, p) in spec.params.iter().enumerate() {
            if required_word(&spec.name, p).is_none() {
                continue;
            }
            let values: Option<Vec<String>> = spec
                .params
                .iter()
                .enumerate()
                .map(|(j, q)| {
                    if j == i {
                        return Some(String::new());
                    }
                    let own = text_samples(s, q);
                    let v = if own.is_empty() {
                        testkit::sample_values(q)
                    } else {
                        own
                    };
                    v.into_iter().next().or(q.optional.then(String::new))
                })
                .collect();
            let Some(values) = values else { continue };
            let line = spec.line(&values);
            assert!(
                SourGrapes::parse_command(s, &seat, &line).is_err(),
                "{seat}: {line:?} reads without `{}`: drop it from REQUIRED_KEYWORDS",
                p.name
            );
            checked += 1;
        }
    }
    checked
}

/// The storyteller's tools, offered in every moment: the walk gives them
/// now and then only.
const TOOLS: &[&str] = &[
    "giveback",
    "heal",
    "adjust",
    "add",
    "remove",
    "afflict",
    "cure",
    "award",
    "difficulty",
];

/// One walk of `steps` legal commands from `table`, checking every form at
/// every step.
fn walk(mut table: Table<SourGrapes>, seed: u64, steps: usize, tally: &mut Tally) {
    let mut picks = Picks(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let check = |s: &State, tally: &mut Tally| {
        tally.read +=
            testkit::assert_specs_read::<SourGrapes>(s, forms(s), |_, p| text_samples(s, p));
        tally.refused_without_keyword += assert_required_keywords_needed(s);
        // The commands read: those whose required parameters all have a
        // sample (`assert_forms_read` passes over the others).
        tally.commands.extend(
            forms(s)
                .into_iter()
                .filter(|(_, spec)| {
                    spec.params.iter().all(|p| {
                        p.optional
                            || !text_samples(s, p).is_empty()
                            || !testkit::sample_values(p).is_empty()
                    })
                })
                .map(|(_, spec)| spec.name),
        );
    };
    check(table.state(), tally);
    let mut choose_picks = Picks(seed ^ 0x5eed_f0f0);
    let report = testkit::walk_legal(
        &mut table,
        seed,
        steps,
        |t, _| {
            let mut legal = forms(t.state());
            // The storyteller's tools are many; most steps play the moment.
            if choose_picks.below(4) != 0 {
                let play: Vec<_> = legal
                    .iter()
                    .filter(|(_, spec)| !TOOLS.contains(&spec.name.as_str()))
                    .cloned()
                    .collect();
                if !play.is_empty() {
                    legal = play;
                }
            }
            let (seat, spec) = &legal[choose_picks.below(legal.len())];
            // Leaving is rare, so turns and Events get played.
            if matches!(
                spec.name.as_str(),
                "end-encounter" | "end-event" | "remove" | "rest"
            ) && choose_picks.below(15) != 0
            {
                return Choice::Skip;
            }
            let values = fill(t.state(), spec, &mut picks);
            Choice::TryLine(seat.clone(), spec.line(&values))
        },
        |t, _| check(t.state(), tally),
    );
    tally.accepted += report.accepted;
}

/// Random legal walks over three tables: every form of every legal command
/// reads at every step, and the walks reach most of the book's commands.
#[test]
fn every_legal_form_reads() {
    let mut tally = Tally::default();
    let experience = TWO_SHEETS.replace("title = \"test\"", "title = \"test\"\nexperience = true");
    for seed in 1..=3 {
        walk(example_table(), seed, 120, &mut tally);
    }
    for seed in 1..=2 {
        walk(table_from(TWO_SHEETS), seed, 80, &mut tally);
        walk(table_from(&experience), seed, 80, &mut tally);
    }
    // The seeds are fixed: these are the walks' own totals (35,113 lines,
    // 3,291 forms without a required keyword, 282 commands accepted), with room.
    assert!(tally.read >= 20_000, "read only {} lines", tally.read);
    assert!(
        tally.refused_without_keyword >= 1_000,
        "only {} forms checked without a required keyword",
        tally.refused_without_keyword
    );
    assert!(
        tally.accepted >= 150,
        "only {} commands accepted",
        tally.accepted
    );
    let every: BTreeSet<String> = SourGrapes::COMMANDS
        .iter()
        .map(|c| c.name.to_string())
        .collect();
    assert_eq!(
        tally.commands, every,
        "the walks read the forms of every command of the book"
    );
}
