//! The terminal side of the table: describing events, the status line and "what may this seat do now".
//!
//! The command lines are read by [`crate::commands`] (the reference of every
//! command is [`crate::commands::COMMANDS`], written out in `docs/COMMANDS.md`).

use tabula_core::system::{ChoiceOdds, CommandSpec, ParamSpec, Seat};

use crate::checks::{self, Net};
use crate::harm::{Damage, Placement};
use crate::invoking::OpenCheck;
use crate::invoking::{Nature, ProfessionUse};
use crate::name_match::same_name;
use crate::odds;
use crate::table::{Event, Sequence, State, Step};

fn name(state: &State, i: usize) -> &str {
    state.characters.get(i).map_or("?", |m| m.character.name())
}

fn seat_of(state: &State, i: usize) -> Seat {
    state
        .characters
        .get(i)
        .and_then(|m| m.character.player())
        .map_or(Seat::Gm, |p| Seat::Player(p.to_string()))
}

/// Whose turn it is: the GM while framing, setting TNs and ruling; the focal
/// character's player while a pool is built.
pub fn default_seat(state: &State) -> Seat {
    if state.pending_injury.is_some() {
        return Seat::Gm;
    }
    if let Some(c) = &state.check {
        let waits_for_gm =
            c.tn.is_none() || c.declaration.as_ref().is_some_and(|d| d.accepted.is_none());
        return if waits_for_gm {
            Seat::Gm
        } else {
            seat_of(state, c.focal)
        };
    }
    if let Some(s) = &state.sequence
        && s.framed
        && let Some(p) = s.participants.iter().find(|p| !p.focal_done)
    {
        return seat_of(state, p.character);
    }
    Seat::Gm
}

/// One or more lines for an event, with every die.
pub fn describe(state: &State, event: &Event) -> String {
    match event {
        Event::CheckCalled { check } => match check.versus {
            Some(d) => format!(
                "check #{}: {} is focal against {} (TN starts at 1; {} raises it with `defend`)",
                check.id,
                name(state, check.focal),
                name(state, d),
                name(state, d)
            ),
            None => format!(
                "check #{}: {} is focal{}{}",
                check.id,
                name(state, check.focal),
                check.tn.map(|t| format!(", TN {t}")).unwrap_or_default(),
                if check.ongoing {
                    " (an ongoing task)"
                } else {
                    ""
                }
            ),
        },
        Event::SequenceBegun { goal, fight } => match fight {
            Some((a, d)) => format!(
                "a fight: {} against {}; {} is focal first",
                name(state, *a),
                name(state, *d),
                name(state, *a)
            ),
            None => format!("an Action Sequence begins: {goal}"),
        },
        Event::Joined {
            character,
            threatened,
        } => format!(
            "{} {}",
            name(state, *character),
            if *threatened {
                "is threatened and must take a turn this round"
            } else {
                "enters the fray"
            }
        ),
        Event::TurnFramed { round, text } => {
            format!("round {round}, the GM frames the turn: {text}")
        }
        Event::TnSet { tn, not_relevant } => {
            let mut s = format!("the GM sets TN {tn}");
            if !not_relevant.is_empty() {
                s.push_str(&format!(" ({} not relevant)", not_relevant.join(", ")));
            }
            s
        }
        Event::Invoked { element, step } => match step {
            Step::Profession(u) => format!(
                "invokes {element} ({}): +{} {}",
                match u {
                    ProfessionUse::MainFully => "Main Profession, fully applicable",
                    ProfessionUse::MainPartly => "Main Profession, partly applicable",
                    ProfessionUse::MainAgain => "Main Profession again for a simultaneous task",
                    ProfessionUse::Side => "Side Profession",
                },
                u.dice(),
                if u.dice() == 1 { "die" } else { "dice" }
            ),
            Step::Specialization => format!("invokes the Specialization {element}: +1 die"),
            Step::Quality => format!("invokes the Quality {element}: +1 die"),
        },
        Event::Helped { helper, element } => format!(
            "{} helps with {element}: +1 bonus die",
            name(state, *helper)
        ),
        Event::Defended { element, tn } => format!("the defender invokes {element}: TN {tn}"),
        Event::TalentCalled { name } => format!("calls out the Special Talent {name}"),
        Event::LuckSpent { amount } => format!("spends {amount} Luck: +{amount} bonus dice"),
        Event::Declared { nature, text } => format!(
            "declares {}: {text} (the GM accepts or rejects)",
            match nature {
                Nature::Principle => "a sacrifice for the Principle",
                Nature::WorstImpulse => "an overindulgence of the Worst Impulse",
            }
        ),
        Event::Ruled { accepted } => {
            if *accepted {
                "the GM accepts: +1 bonus die".into()
            } else {
                "the GM rejects the declaration".into()
            }
        }
        Event::BonusGiven { dice } => format!("the GM gives {dice} bonus dice"),
        Event::Rolled {
            check,
            spec,
            roll,
            weapon,
            target,
            ..
        } => {
            let mut s = format!(
                "{} rolls {} dice ({} built + {} bonus",
                name(state, check.focal),
                roll.pool.dice,
                spec.built,
                spec.bonus
            );
            if roll.pool.tn_lowered_by_bonus > 0 {
                s.push_str(&format!(
                    ", TN -{} for bonus dice past six",
                    roll.pool.tn_lowered_by_bonus
                ));
            }
            if spec.penalty > 0 {
                s.push_str(&format!(", TN +{} Injury/Stress", spec.penalty));
            }
            s.push_str(&format!("): {}", roll.describe()));
            if let Some((w, d)) = weapon {
                let on = target
                    .map(|t| format!(" to {}", name(state, t)))
                    .unwrap_or_default();
                s.push_str(&match d {
                    Damage::Injury(l) => format!("; the {w} deals a {l} Injury{on}"),
                    Damage::Death => format!("; the {w} kills{}", on.replacen(" to", "", 1)),
                });
            }
            match roll.net {
                Net::Spares(_) => s.push_str(&format!(
                    "\n  net Spares, e.g.: {}",
                    checks::NET_SPARE_PROMPTS.join("; ")
                )),
                Net::Spirals(_) => s.push_str(&format!(
                    "\n  net Spirals, e.g.: {}",
                    checks::NET_SPIRAL_PROMPTS.join("; ")
                )),
                Net::Even => {}
            }
            s
        }
        Event::RoundEnded { round } => {
            format!("round {round} ends: everyone has been focal; invoked elements are free again")
        }
        Event::Released {
            character,
            element: None,
        } => format!(
            "{}'s ongoing task ends; its elements are free",
            name(state, *character)
        ),
        Event::Released {
            character,
            element: Some(e),
        } => format!("{}'s {e} may be invoked again", name(state, *character)),
        Event::Left { character } => format!("{} leaves the fray", name(state, *character)),
        Event::SequenceEnded => "the Action Sequence ends".into(),
        Event::LuckGained {
            character,
            amount,
            reason,
        } => format!(
            "{} gains {amount} Luck ({}), now {}",
            name(state, *character),
            match reason {
                crate::table::LuckReason::Principle => "trouble from their Principle",
                crate::table::LuckReason::WorstImpulse => "inconvenienced by a Worst Impulse",
                crate::table::LuckReason::Gm => "from the GM",
            },
            state
                .characters
                .get(*character)
                .map_or(0, |m| m.character.luck())
        ),
        Event::Harmed {
            character,
            kind,
            recording,
        } => {
            let mut s = format!(
                "{} takes a {} {kind}: {}",
                name(state, *character),
                recording.dealt,
                recording.name
            );
            if let Some(e) = recording.erased {
                s.push_str(&format!(
                    "; similar to the {} one, which is erased",
                    e.level
                ));
            }
            match recording.placement {
                Placement::Box(b) => s.push_str(&format!("; recorded as {}", b.level)),
                Placement::Debilitated => s.push_str(&format!(
                    "; a second Severe {kind}: {} is debilitated",
                    name(state, *character)
                )),
            }
            s
        }
        Event::Healed {
            character,
            kind,
            name: n,
            ..
        } => format!("{}'s {kind} {n} is erased", name(state, *character)),
        Event::Advanced { character, advance } => {
            // R-SA-12: a magic half gained alone waits for its pair (`state`
            // is the state just after the event).
            let waits = state
                .characters
                .get(*character)
                .is_some_and(|m| m.character.is_unpaired(advance.name()));
            format!(
                "{} advances: {advance}{}",
                name(state, *character),
                if waits {
                    " (marked unpaired: it gives nothing until its magic pair is gained, R-SA-12)"
                } else {
                    ""
                }
            )
        }
        Event::Changed { character, change } => format!(
            "{} completes a cycle and changes: {change:?}",
            name(state, *character)
        ),
        Event::EncounterEnded => "the GM ends the encounter".into(),
        Event::Adjusted {
            character,
            value,
            from,
            to,
        } => format!(
            "The GM sets {}'s {value} to {to} (was {from})",
            name(state, *character)
        ),
        Event::Added { newcomer } => format!(
            "The GM adds {} to the encounter ({})",
            newcomer.name(),
            newcomer.player().map_or_else(
                || "a GM character".to_string(),
                |p| format!("played by {p}")
            )
        ),
        Event::Removed { character } => format!(
            "The GM removes {} from the encounter",
            name(state, *character)
        ),
        Event::InjuryPending { pending } => {
            let existing: Vec<String> = state
                .characters
                .get(pending.character)
                .map(|m| {
                    m.character
                        .injuries()
                        .entries()
                        .iter()
                        .filter(|(b, _)| b.level == pending.level)
                        .map(|(_, n)| n.to_string())
                        .collect()
                })
                .unwrap_or_default();
            format!(
                "{} takes a {} Injury ({}); the GM says whether it is similar to {} (`similar-to ENTRY`) or `different` (R-SA-6)",
                name(state, pending.character),
                pending.level,
                pending.name,
                existing.join(" or ")
            )
        }
        Event::Killed { character, weapon } => {
            format!("{} is killed by the {weapon}", name(state, *character))
        }
        Event::SessionEnded { consequential } => {
            if *consequential {
                "the GM ends a consequential session: each character may take one advancement"
                    .into()
            } else {
                "the GM ends the session (not consequential: no advancement)".into()
            }
        }
    }
}

/// The open check: its focal character, the pool as it stands (R-SA-2, R-SA-7)
/// and, once the TN is set, the exact chance of meeting it with Improbable
/// Success included (R-SA-3). What `status` prints and [`choice_odds`] offers.
///
/// The Sapio System, "When to Roll", "Special Situations when Rolling"
/// (004_f39b4146df158cae.txt); R-SA-1, R-SA-2, R-SA-3, R-SA-7.
pub fn open_check(state: &State) -> Option<(usize, checks::Pool, Option<f64>)> {
    let c = state.check.as_ref()?;
    let m = state.characters.get(c.focal)?;
    let (spec, _) = c.spec(&m.character);
    let pool = checks::settle(&spec);
    let chance = if c.tn.is_some() {
        odds::p_success(pool.dice, pool.tn).ok()
    } else {
        None
    };
    Some((c.focal, pool, chance))
}

/// The odds in front of `seat`: while a check is open with its TN set, the seat
/// that plays the focal character (the GM for a character with no player) is
/// offered rolling the pool as it stands, the chance of meeting the TN
/// ([`open_check`], the number status prints), with the part Improbable
/// Success gives in the detail. Nothing for any other seat or moment (a weapon's
/// Injury waiting for the GM's call holds everything).
///
/// The Sapio System, "When to Roll", "Special Situations when Rolling"
/// (004_f39b4146df158cae.txt); R-SA-1, R-SA-2, R-SA-3, R-SA-7.
pub fn choice_odds(state: &State, seat: &Seat) -> Vec<ChoiceOdds> {
    if state.pending_injury.is_some() {
        return Vec::new();
    }
    let Some((focal, pool, Some(p))) = open_check(state) else {
        return Vec::new();
    };
    let same = match (seat_of(state, focal), seat) {
        (Seat::Gm, Seat::Gm) => true,
        (Seat::Player(a), Seat::Player(b)) => same_name(&a, b),
        _ => false,
    };
    if !same {
        return Vec::new();
    }
    let improbable = odds::improbable_part(pool.dice, pool.tn)
        .map(|q| {
            format!(
                "; Improbable Success rerolls included ({:.1}% of it, R-SA-3)",
                q * 100.0
            )
        })
        .unwrap_or_default();
    vec![ChoiceOdds {
        choice: format!(
            "roll {} {} against TN {}",
            pool.dice,
            if pool.dice == 1 { "die" } else { "dice" },
            pool.tn
        ),
        probability: p.clamp(0.0, 1.0),
        detail: format!(
            "{} meets the TN: at least {} Hits on {} Spiral Dice (R-SA-1){improbable}",
            name(state, focal),
            pool.tn,
            pool.dice
        ),
    }]
}

/// The status line: the sequence and round, the check being built with its pool,
/// TN and exact odds.
pub fn status(state: &State, _seat: &Seat) -> String {
    let mut s = String::new();
    if let Some(p) = &state.pending_injury {
        s.push_str(&format!(
            "{}'s new {} Injury ({}) waits: similar-to ENTRY or different",
            name(state, p.character),
            p.level,
            p.name
        ));
        return format!("[GM] {s}");
    }
    if let Some(q) = &state.sequence {
        s.push_str(&format!("{} | round {}", q.goal, q.round));
        let waiting: Vec<&str> = q
            .participants
            .iter()
            .filter(|p| !p.focal_done)
            .map(|p| name(state, p.character))
            .collect();
        s.push_str(&format!(" | not yet focal: {}", waiting.join(", ")));
        if q.turns == 0 && state.check.is_none() {
            s.push_str(" | round start: threaten / enter-fray, then frame");
        } else if q.framed {
            s.push_str(" | turn framed: choose the focal character");
        }
    }
    if let Some(c) = &state.check
        && let Some((focal, pool, chance)) = open_check(state)
    {
        if !s.is_empty() {
            s.push_str(" | ");
        }
        s.push_str(&format!(
            "check #{}: {} focal, {} {}, TN {}",
            c.id,
            name(state, focal),
            pool.dice,
            if pool.dice == 1 { "die" } else { "dice" },
            c.tn.map_or("not set".to_string(), |_| pool.tn.to_string())
        ));
        if let Some(p) = chance {
            s.push_str(&format!(" (chance {:.1}%)", p * 100.0));
        }
    }
    if s.is_empty() && state.session_over {
        let due: Vec<&str> = state
            .present()
            .map(|(_, m)| m)
            .filter(|m| m.advancement_due)
            .map(|m| m.character.name())
            .collect();
        s = if due.is_empty() {
            "the session has ended: the GM calls a check or begins an Action Sequence to play on, or ends".into()
        } else {
            format!(
                "the session has ended: advancement for {}; then the GM plays on, or ends (`end carry` leaves it due on the sheet)",
                due.join(", ")
            )
        };
    }
    if s.is_empty() {
        s = format!(
            "{}: the GM calls a check, begins an Action Sequence, ends the session, or ends",
            if state.title.is_empty() {
                "Sapio"
            } else {
                &state.title
            }
        );
    }
    format!("[{}] {s}", default_seat(state))
}

/// What `seat` may do now, with parameters. Each parameter declares how it
/// is written ([`tabula_core::system::ParamSyntax`]) as the parser in
/// [`crate::commands`] reads it and each command's usage in
/// [`crate::commands::COMMANDS`] says (issue 26, item 1): `ongoing` a flag,
/// `with`, `at`, `except`, `similar-to`, `as` and `to` keywords, an optional
/// goal, element or `full|partial`, and the rest of an `advance` or `change`
/// line as typed.
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
        if crate::table::due_advancements(state).is_empty() {
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
                ParamSpec::text("name").raw(),
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
                ParamSpec::text("what").raw(),
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
/// versus Character").
fn legal_check(
    state: &State,
    gm: bool,
    mine: &[String],
    out: &mut Vec<CommandSpec>,
    c: &OpenCheck,
) {
    let focal = name(state, c.focal).to_string();
    if gm {
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
            let weapons: Vec<String> = m
                .character
                .sheet()
                .weapons
                .iter()
                .map(|w| w.name.clone())
                .collect();
            let targets: Vec<String> = match c.versus {
                Some(d) => vec![name(state, d).to_string()],
                None => state
                    .present()
                    .filter(|(i, m)| *i != c.focal && !m.character.dead())
                    .map(|(_, m)| m.character.name().to_string())
                    .collect(),
            };
            out.push(CommandSpec::new(
                "roll",
                "roll the pool; with a weapon, the Injury is recorded on the target",
                vec![
                    ch("with weapon", &weapons).keyword("with"),
                    ch("at target", &targets).keyword("at"),
                ],
            ));
        }
    }
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
