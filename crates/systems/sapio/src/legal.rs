//! [`legal`]: what a seat may do now, with each parameter's kind and how it
//! is written.

use tabula_core::grammar::quote;
use tabula_core::system::{CommandSpec, ParamSpec, Seat};

use crate::checks;
use crate::invoking::OpenCheck;
use crate::name_match::same_name;
use crate::state::{Sequence, State};
use crate::text::name;

/// What `seat` may do now, with parameters. Each parameter declares how it
/// is written ([`tabula_core::system::ParamSyntax`]) as the parser in
/// [`crate::text::parse()`] reads it and each command's usage in
/// [`crate::text::COMMANDS`] says (issue 26, item 1): `ongoing` a flag,
/// `roll`'s attack one raw choice `with WEAPON at TARGET` (a target only
/// with a weapon, see `attacks`), `except`, `similar-to`, `as` and `to`
/// keywords, an optional goal, element or `full|partial`, and the rest of an
/// `advance` or `change` line as typed.
pub fn legal(state: &State, seat: &Seat) -> Vec<CommandSpec> {
    let mut out = Vec::new();
    if state.over {
        return out;
    }
    let gm = seat.is_gm();
    let all: Vec<String> = state.names();
    let mine: Vec<String> = state
        .present()
        .map(|(_, m)| m)
        .filter(|m| gm || matches!(seat, Seat::Player(p) if m.character.player().is_some_and(|o| same_name(o, p))))
        .map(|m| m.character.name().to_string())
        .collect();
    if let Some(p) = &state.pending_injury {
        if gm {
            let existing: Vec<String> = state
                .characters
                .get(p.character)
                .map(|m| {
                    m.character
                        .injuries()
                        .entries()
                        .iter()
                        .filter(|(b, _)| b.level == p.level)
                        .map(|(_, n)| n.to_string())
                        .collect()
                })
                .unwrap_or_default();
            out.push(CommandSpec::new(
                "similar-to",
                "the weapon's new Injury is similar to this one (R-SA-6)",
                vec![ch("entry", &existing)],
            ));
            out.push(CommandSpec::new(
                "different",
                "the weapon's new Injury is of a different nature (R-SA-6)",
                vec![],
            ));
            out.push(CommandSpec::new("end", "end the encounter", vec![]));
        }
        return out;
    }
    match (&state.check, &state.sequence) {
        (None, None) => legal_between(state, gm, &all, &mine, &mut out),
        (None, Some(s)) => legal_sequence(state, gm, &all, &mine, &mut out, s),
        (Some(c), _) => legal_check(state, gm, &mine, &mut out, c),
    }
    if gm {
        legal_records(&all, &mut out);
    }
    crate::gm::legal(state, seat, &mut out);
    out
}

/// The attacks the focal character `m` may roll now, each written as the
/// parser reads it (`with "Hunting Rifle" at Vance`): every weapon on its
/// sheet at every target `decide` takes, the defender in Character versus
/// Character, else every other character present and alive. A target is only
/// ever offered with a weapon: the target is whom the weapon's Injury goes
/// on, and a roll without a weapon has none ("Weapons and causing Injury",
/// "Character versus Character", 004_f39b4146df158cae.txt; R-SA-4, R-SA-5;
/// issue 26, item 1).
fn attacks(state: &State, c: &OpenCheck, m: &crate::state::Member) -> Vec<String> {
    let targets: Vec<String> = match c.versus {
        Some(d) => vec![name(state, d).to_string()],
        None => state
            .present()
            .filter(|(i, m)| *i != c.focal && !m.character.dead())
            .map(|(_, m)| m.character.name().to_string())
            .collect(),
    };
    let mut out = Vec::new();
    for w in &m.character.sheet().weapons {
        for t in &targets {
            out.push(format!("with {} at {}", quote(w.name.trim()), quote(t)));
        }
    }
    out
}

/// A parameter that takes one of `opts`.
fn ch(n: &str, opts: &[String]) -> ParamSpec {
    ParamSpec::choice(n, opts.iter().cloned())
}

/// Between checks and Action Sequences: the GM calls checks, fights and
/// sequences, ends the session or the encounter; advancement at the
/// end-of-session step ("When to Roll", "Action Sequences in Play",
/// "Advancement"; R-SA-9).
fn legal_between(
    state: &State,
    gm: bool,
    all: &[String],
    mine: &[String],
    out: &mut Vec<CommandSpec>,
) {
    if gm {
        out.push(CommandSpec::new(
            "check",
            "call for a check (TN 1-5)",
            vec![
                ch("character", all),
                ParamSpec::int("tn", 1, 5),
                ParamSpec::choice("ongoing", ["ongoing"]).flag(),
            ],
        ));
        out.push(CommandSpec::new(
            "confront",
            "Character versus Character (R-SA-5)",
            vec![ch("aggressor", all), ch("defender", all)],
        ));
        out.push(CommandSpec::new(
            "fight",
            "a fight as an Action Sequence",
            vec![ch("aggressor", all), ch("defender", all)],
        ));
        out.push(CommandSpec::new(
            "begin-sequence",
            "begin an Action Sequence",
            vec![ParamSpec::text("goal").optional()],
        ));
        if !state.session_over {
            out.push(CommandSpec::new(
                "end-session",
                "the end-of-session step: consequential sessions give one advancement each (R-SA-9)",
                vec![ParamSpec::choice(
                    "session",
                    ["consequential", "inconsequential"],
                )],
            ));
        }
        if crate::decide::due_advancements(state).is_empty() {
            out.push(CommandSpec::new("end", "end the encounter", vec![]));
        } else {
            // Ending while an advancement is due only as `end carry`:
            // it stays due on the sheet ("Advancement"; R-SA-9).
            out.push(CommandSpec::new(
                "end",
                "end the encounter; the advancements still due stay due on the sheets (R-SA-9)",
                vec![ParamSpec::choice("advancements", ["carry"])],
            ));
        }
    }
    let due: Vec<String> = state
        .characters
        .iter()
        .filter(|m| state.session_over && m.advancement_due)
        .map(|m| m.character.name().to_string())
        .filter(|n| mine.contains(n))
        .collect();
    let may_change: Vec<String> = state
        .characters
        .iter()
        .filter(|m| state.session_over && m.character.cycle_changes_left() > 0)
        .map(|m| m.character.name().to_string())
        .filter(|n| mine.contains(n))
        .collect();
    if !due.is_empty() {
        out.push(CommandSpec::new(
            "advance",
            "one advancement after a consequential session (cycle rule; R-SA-9)",
            vec![
                ch("character", &due),
                ParamSpec::choice(
                    "kind",
                    [
                        "specialization",
                        "side-specialization",
                        "side-profession",
                        "quality",
                        "talent",
                    ],
                ),
                // The rest of the line in the advancement's own words:
                // `SIDE NAME` for a side-specialization, `NAME effect=KIND
                // amount=N text="WORDS" magic=yes|no` for a talent
                // ("Advancement", "Special Talents"; R-SA-10).
                ParamSpec::text("name").raw().required(),
            ],
        ));
    }
    if !may_change.is_empty() {
        out.push(CommandSpec::new(
            "change",
            "a change after a completed cycle",
            vec![
                ch("character", &may_change),
                ParamSpec::choice("kind", ["word", "swap", "quality"]),
                // `PROFESSION to NEW`, `SIDE` or `OLD to NEW`, as typed
                // ("Advancement").
                ParamSpec::text("what").raw().required(),
            ],
        ));
    }
}

/// In an Action Sequence between checks: joining and leaving at a round's
/// start, the focal character of a framed turn, framing ("Action Sequences in
/// Play").
fn legal_sequence(
    state: &State,
    gm: bool,
    all: &[String],
    mine: &[String],
    out: &mut Vec<CommandSpec>,
    s: &Sequence,
) {
    if s.turns == 0 {
        let outside: Vec<String> = state
            .present()
            .filter(|(i, _)| !s.participants.iter().any(|p| p.character == *i))
            .map(|(_, m)| m.character.name().to_string())
            .collect();
        if gm {
            out.push(CommandSpec::new(
                "threaten",
                "a character is threatened: must take a turn",
                vec![ch("character", all)],
            ));
        }
        let mine_out: Vec<String> = outside
            .iter()
            .filter(|n| mine.contains(n))
            .cloned()
            .collect();
        if !mine_out.is_empty() {
            out.push(CommandSpec::new(
                "enter-fray",
                "enter the fray at the round's start",
                vec![ch("character", &mine_out)],
            ));
        }
        let may_leave: Vec<String> = s
            .participants
            .iter()
            .filter(|p| !p.threatened)
            .map(|p| name(state, p.character).to_string())
            .filter(|n| mine.contains(n))
            .collect();
        if !may_leave.is_empty() {
            out.push(CommandSpec::new(
                "leave-fray",
                "leave the fray at the round's start (not threatened)",
                vec![ch("character", &may_leave)],
            ));
        }
    }
    if s.framed {
        let free: Vec<String> = s
            .participants
            .iter()
            .filter(|p| !p.focal_done)
            .map(|p| name(state, p.character).to_string())
            .filter(|n| mine.contains(n))
            .collect();
        if !free.is_empty() {
            out.push(CommandSpec::new(
                "focal",
                "the focal character of this turn",
                vec![ch("character", &free)],
            ));
        }
    } else if gm {
        out.push(CommandSpec::new(
            "frame",
            "frame the turn",
            vec![ParamSpec::text("text")],
        ));
        out.push(CommandSpec::new(
            "end-sequence",
            "end the Action Sequence",
            vec![],
        ));
    }
}

/// While a check is built: the TN, rulings, bonus dice, the focal character's
/// pool and roll, help, the defender's raise ("When to Roll", "Character
/// versus Character"), in that order.
fn legal_check(
    state: &State,
    gm: bool,
    mine: &[String],
    out: &mut Vec<CommandSpec>,
    c: &OpenCheck,
) {
    if gm {
        legal_check_gm(out, c);
    }
    legal_check_focal(state, mine, out, c);
    legal_check_help(state, mine, out, c);
    legal_check_defend(state, mine, out, c);
}

/// The GM's part of a check: the TN (outside Character versus Character),
/// accepting or rejecting a declaration (R-SA-8), bonus dice ("When to
/// Roll", "Special Situations when Rolling").
fn legal_check_gm(out: &mut Vec<CommandSpec>, c: &OpenCheck) {
    if c.versus.is_none() {
        out.push(CommandSpec::new(
            "tn",
            "set the TN",
            vec![
                ParamSpec::int("tn", 1, 5),
                ParamSpec::text("except").keyword("except"),
            ],
        ));
    }
    if c.declaration.as_ref().is_some_and(|d| d.accepted.is_none()) {
        out.push(CommandSpec::new(
            "accept",
            "accept the declaration (R-SA-8)",
            vec![],
        ));
        out.push(CommandSpec::new(
            "reject",
            "reject the declaration (R-SA-8)",
            vec![],
        ));
    }
    out.push(CommandSpec::new(
        "bonus",
        "bonus dice for helpful support",
        vec![ParamSpec::int("dice", 1, i64::from(MAX_BONUS_LEFT))],
    ));
}

/// The focal player's part of a check: invoking elements, Special Talents,
/// Luck, a declaration (R-SA-8) and the roll ("When to Roll", "Invoking an
/// Element", "Luck", "Weapons and causing Injury").
fn legal_check_focal(state: &State, mine: &[String], out: &mut Vec<CommandSpec>, c: &OpenCheck) {
    let focal = name(state, c.focal).to_string();
    if mine.contains(&focal)
        && let Some(m) = state.characters.get(c.focal)
    {
        let elements = m.character.elements();
        out.push(CommandSpec::new(
            "invoke",
            "invoke a Profession, a Specialization of it, a Quality",
            vec![
                ch("element", &elements),
                ParamSpec::choice("applicable", ["full", "partial"]).optional(),
            ],
        ));
        let talents: Vec<String> = m
            .character
            .sheet()
            .special_talents
            .iter()
            .map(|t| t.name.clone())
            .collect();
        out.push(CommandSpec::new(
            "talent",
            "call out a Special Talent",
            vec![ch("talent", &talents)],
        ));
        if m.character.luck() > c.luck {
            out.push(CommandSpec::new(
                "luck",
                "spend Luck for bonus dice",
                vec![ParamSpec::int(
                    "amount",
                    1,
                    i64::from(m.character.luck() - c.luck),
                )],
            ));
        }
        if c.declaration.is_none() {
            out.push(CommandSpec::new(
                "declare",
                "a sacrifice or an overindulgence (R-SA-8)",
                vec![
                    ParamSpec::choice("nature", ["principle", "impulse"]),
                    ParamSpec::text("what"),
                ],
            ));
        }
        if c.tn.is_some() && c.declaration.as_ref().is_none_or(|d| d.accepted.is_some()) {
            let attacks = attacks(state, c, m);
            let params = if attacks.is_empty() {
                Vec::new()
            } else {
                vec![ch("with WEAPON at TARGET", &attacks).raw()]
            };
            out.push(CommandSpec::new(
                "roll",
                "roll the pool; with a weapon, the Injury is recorded on the target",
                params,
            ));
        }
    }
}

/// Help for the focal character: `assist` outside an Action Sequence,
/// `support` inside one, by the seat's characters who may help ("Receiving
/// Help", "Action Sequences in Play").
fn legal_check_help(state: &State, mine: &[String], out: &mut Vec<CommandSpec>, c: &OpenCheck) {
    let helpers: Vec<String> = state
        .present()
        .filter(|(i, m)| {
            *i != c.focal
                && Some(*i) != c.versus
                && !m.character.out_of_action()
                && !c.help.iter().any(|h| h.helper == *i)
                && state
                    .sequence
                    .as_ref()
                    .is_none_or(|s| s.participants.iter().any(|p| p.character == *i))
        })
        .map(|(_, m)| m.character.name().to_string())
        .filter(|n| mine.contains(n))
        .collect();
    if !helpers.is_empty() {
        let (word, what) = if state.sequence.is_some() {
            ("support", "support with one element: +1 bonus die")
        } else {
            ("assist", "Receiving Help: one element for +1 bonus die")
        };
        // The elements the helpers may invoke now: each one's
        // Professions, Specializations and Qualities,
        // not already invoked ("Receiving Help", "Action Sequences in
        // Play", 004_f39b4146df158cae.txt; issue 26, item 1).
        let mut elements: Vec<String> = Vec::new();
        for (_, m) in state
            .present()
            .filter(|(_, m)| helpers.iter().any(|h| h == m.character.name()))
        {
            for e in m.character.elements() {
                if !m.locked.iter().any(|l| l.element == e) && !elements.contains(&e) {
                    elements.push(e);
                }
            }
        }
        out.push(CommandSpec::new(
            word,
            what,
            vec![ch("helper", &helpers), ch("element", &elements)],
        ));
    }
}

/// The defender's raise in Character versus Character (R-SA-5, R-SA-11).
fn legal_check_defend(state: &State, mine: &[String], out: &mut Vec<CommandSpec>, c: &OpenCheck) {
    if let Some(d) = c.versus
        && mine.iter().any(|n| n == name(state, d))
        && let Some(m) = state.characters.get(d)
    {
        out.push(CommandSpec::new(
            "defend",
            "raise the TN by invoking a Profession (the Main one full: 2, partial: 1), a Specialization of it or a Quality (R-SA-5, R-SA-11)",
            vec![ch("element", &m.character.elements())],
        ));
    }
}

/// The GM's records at any time: releases, Injuries, Stresses, healing, Luck
/// ("Injuries and Stresses", "Luck", "Invoking an Element").
fn legal_records(all: &[String], out: &mut Vec<CommandSpec>) {
    out.push(CommandSpec::new(
        "release",
        "an ongoing task ends, or one element may be invoked again",
        vec![ch("character", all), ParamSpec::text("element").optional()],
    ));
    out.push(CommandSpec::new(
        "injury",
        "record an Injury (R-SA-6)",
        vec![
            ch("character", all),
            ParamSpec::choice("level", ["minor", "moderate", "severe"]),
            ParamSpec::text("words"),
            ParamSpec::text("similar-to").keyword("similar-to"),
        ],
    ));
    out.push(CommandSpec::new(
        "stress",
        "record a Stress (R-SA-6)",
        vec![
            ch("character", all),
            ParamSpec::choice("level", ["minor", "moderate", "severe"]),
            ParamSpec::text("words"),
            ParamSpec::text("similar-to").keyword("similar-to"),
        ],
    ));
    out.push(CommandSpec::new(
        "heal",
        "erase an Injury or Stress",
        vec![
            ch("character", all),
            ParamSpec::choice("kind", ["injury", "stress"]),
            ParamSpec::text("words"),
        ],
    ));
    out.push(CommandSpec::new(
        "luck-principle",
        "1 Luck for trouble from the Principle",
        vec![ch("character", all)],
    ));
    out.push(CommandSpec::new(
        "luck-impulse",
        "1 Luck to the most inconvenienced other character",
        vec![ch("character", all), ch("other", all)],
    ));
    out.push(CommandSpec::new(
        "give-luck",
        "Luck for compelling choices",
        vec![ch("character", all), ParamSpec::int("amount", 1, 3)],
    ));
    out.push(CommandSpec::new(
        "adjust",
        "set (N) or change (+N, -N) a character's Luck",
        vec![
            ch("character", all),
            ParamSpec::choice("value", crate::gm::Value::ALL.iter().map(|v| v.key())),
            ParamSpec::text("amount"),
        ],
    ));
}

const MAX_BONUS_LEFT: u32 = checks::MAX_BONUS;
