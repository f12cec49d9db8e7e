//! "What may this seat do now": the legal commands with their parameters.
//!
//! Every parameter declares how the line writes it
//! ([`tabula_core::system::ParamSyntax`]), as [`crate::text::parse`] reads it
//! and each command's usage in [`crate::text::COMMANDS`] shows: `as
//! NAME`, `with SKILL`, `vs DIFFICULTY`, `to NAME`, `success DICE [TOKENS]`
//! and `result DICE [TOKENS]` are keywords; TOKENS after DICE (and
//! `giveback`'s POINTS) may be left out; `target`'s names are written as
//! typed (`Mira, Tavern Brute`). A keyword is optional in the declaration
//! even where the command needs it (`check`'s `vs`, `divert`'s `to`, the
//! storyteller's `as NAME`): the parser then says what is missing.

use crate::decide::rolls::*;

use tabula_core::{CommandSpec, ParamSpec, Seat};

use crate::cards::{CardType, Keep};
use crate::check::MAX_DIFFICULTY;
use crate::state::*;
use crate::stats::Stat;

/// `summary` followed by the command's usage from [`crate::text::COMMANDS`]
/// (one copy of every usage line).
fn with_usage(name: &str, summary: &str) -> String {
    match tabula_core::system::find_command(crate::text::COMMANDS, name) {
        Some(doc) => format!("{summary}. `{}`", doc.usage),
        None => summary.to_string(),
    }
}

pub(crate) fn stat_names() -> Vec<String> {
    Stat::ALL.iter().map(|s| s.name().to_string()).collect()
}

pub(crate) fn cards_of(s: &State, who: &str, kind: CardType) -> Vec<String> {
    s.participant(who)
        .map(|p| {
            p.cards
                .iter()
                .filter_map(|c| s.card(c))
                .filter(|c| c.kind == kind && may_play(s, who, c, kind).is_ok())
                .map(|c| c.name.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// The skills `who` may name with `with SKILL`: their own and the comparables
/// the table agreed (Sour Grapes, "Skills": make a case for a comparable;
/// 000_05a1db5b88f54528.txt), as the command line resolves them.
fn skill_names(s: &State, who: &str) -> Vec<String> {
    s.participant(who)
        .map(|p| {
            p.character
                .skills()
                .iter()
                .map(|k| k.name.clone())
                .chain(p.comparable.keys().cloned())
                .collect()
        })
        .unwrap_or_default()
}

/// What the Controller's free point may go into now: an exhausted stat whose
/// recovery nothing blocks, or a skill with a spent token (Sour Grapes, "Event",
/// step 1 Prep; 000_05a1db5b88f54528.txt).
fn recoverable(s: &State, who: &str) -> Vec<String> {
    let Some(p) = s.participant(who) else {
        return Vec::new();
    };
    let c = &p.character;
    Stat::ALL
        .into_iter()
        .filter(|st| c.stat(*st).exhausted() > 0 && c.recovery_blocked(*st).is_none())
        .map(|st| st.name().to_string())
        .chain(
            c.skills()
                .iter()
                .filter(|k| k.available < k.rating)
                .map(|k| k.name.clone()),
        )
        .collect()
}

/// The most dice `who` could roll with any of `stats` (their Current values).
fn max_dice(s: &State, who: &str, stats: &[Stat]) -> i64 {
    s.participant(who).map_or(0, |p| {
        stats
            .iter()
            .map(|st| i64::from(p.character.stat(*st).current))
            .max()
            .unwrap_or(0)
    })
}

/// What `seat` may do now: the moment's commands, then the storyteller's tools
/// ([`crate::gm::legal`]: `giveback`, `heal`, `adjust`, `add`, `remove`), in
/// every moment (issue 27, item 6).
pub(crate) fn legal(s: &State, seat: &Seat) -> Vec<CommandSpec> {
    let mut out = moment_legal(s, seat);
    if seat.is_gm() {
        crate::gm::legal(s, &mut out);
    }
    out
}

/// The Current value of `who`'s stat `st` (0 without one): the most dice a
/// roll with it may use. Sour Grapes, "Check" (000_05a1db5b88f54528.txt).
fn max_cur(s: &State, who: &str, st: Option<Stat>) -> i64 {
    s.participant(who)
        .and_then(|p| st.map(|st| i64::from(p.character.stat(st).current)))
        .unwrap_or(0)
}

/// The moment's commands for `seat` (steps of the turn, initiative, checks).
/// Sour Grapes, "Game Moments" (000_05a1db5b88f54528.txt).
fn moment_legal(s: &State, seat: &Seat) -> Vec<CommandSpec> {
    let mut out = Vec::new();
    if s.over {
        return out;
    }
    let mine = s.controlled_by(seat);
    let gm = seat.is_gm();
    if gm {
        effect_tools(s, &mut out);
    }
    match &s.moment {
        Moment::Free | Moment::Situation(_) => {
            if !mine.is_empty() && !gm {
                player_checks(s, &mine, &mut out);
            }
            if gm {
                storyteller_checks(s, &mine, &mut out);
            }
            if let Moment::Situation(sit) = &s.moment {
                situation_legal(s, sit, &mine, gm, &mut out);
            } else if gm {
                storyteller_between_moments(s, &mut out);
            }
            if matches!(s.moment, Moment::Free)
                && s.options.experience
                && mine.iter().any(|m| {
                    s.participant(m)
                        .is_some_and(|p| p.character.experience() > 0)
                })
            {
                experience_legal(s, &mine, &mut out);
            }
        }
        Moment::Event(e) => event_legal(s, e, &mine, gm, &mut out),
    }
    out
}

/// The storyteller's effects, in every moment: `afflict` with any effect
/// card, `cure` with an effect in play.
/// Sour Grapes, "Effects" (000_05a1db5b88f54528.txt).
fn effect_tools(s: &State, out: &mut Vec<CommandSpec>) {
    out.push(CommandSpec::new(
        "afflict",
        &with_usage("afflict", "put an effect card on a character"),
        vec![
            ParamSpec::choice(
                "card",
                s.cards
                    .iter()
                    .filter(|c| c.effect.is_some())
                    .map(|c| c.name.clone()),
            ),
            ParamSpec::choice("as", s.participant_names())
                .keyword("as")
                .required(),
        ],
    ));
    let in_play: Vec<String> = s
        .participants
        .iter()
        .flat_map(|p| p.effects.iter().map(|e| e.card.clone()))
        .collect();
    if !in_play.is_empty() {
        out.push(CommandSpec::new(
            "cure",
            &with_usage("cure", "remove an effect (its condition is met)"),
            vec![
                ParamSpec::choice("effect", in_play),
                ParamSpec::choice("as", s.participant_names())
                    .keyword("as")
                    .required(),
            ],
        ));
    }
}

/// A player's Spend and, for each of their characters, a Check with the
/// stats it may check with.
/// Sour Grapes, "Spend", "Check" (000_05a1db5b88f54528.txt); R-SG-12.
fn player_checks(s: &State, mine: &[String], out: &mut Vec<CommandSpec>) {
    out.push(CommandSpec::new(
        "spend",
        "Spend: exhaust a point of a stat, no roll",
        vec![ParamSpec::choice("stat", stat_names())],
    ));
    for m in mine {
        // R-SG-12: only the stats this character may check with.
        let stats = s.check_stats(m);
        if stats.is_empty() {
            continue;
        }
        out.push(CommandSpec::new("check", &format!("{m}: {}", with_usage("check", "Check: dice up to the stat, tokens up to the skill; success when more than the difficulty")), vec![
                        ParamSpec::choice("stat", stats.iter().map(|st| st.name())),
                        ParamSpec::int("dice", 0, max_dice(s, m, &stats)),
                        ParamSpec::int("tokens", 0, 5).optional(),
                        ParamSpec::int("difficulty (vs)", 0, i64::from(MAX_DIFFICULTY)).keyword("vs").required(),
                        ParamSpec::choice("skill (with)", skill_names(s, m)).keyword("with"),
                        ParamSpec::choice("as", [m.clone()]).keyword("as"),
                    ]));
    }
}

/// The storyteller's Spend dictated to anyone, a Check for each monster,
/// give-back and heal, outside an Event.
/// Sour Grapes, "Spend", "Check", "Stat Mechanics" (000_05a1db5b88f54528.txt);
/// R-SG-12.
fn storyteller_checks(s: &State, mine: &[String], out: &mut Vec<CommandSpec>) {
    out.push(CommandSpec::new(
        "spend",
        "Spend, dictated to a player (`as NAME`)",
        vec![
            ParamSpec::choice("stat", stat_names()),
            ParamSpec::choice("as", s.participant_names()).keyword("as"),
        ],
    ));
    for m in mine {
        let stats = s.check_stats(m);
        if stats.is_empty() {
            continue;
        }
        out.push(CommandSpec::new(
            "check",
            &format!("{m}: a Check for a monster (`as {m}`)"),
            vec![
                ParamSpec::choice("stat", stats.iter().map(|st| st.name())),
                ParamSpec::int("dice", 0, max_dice(s, m, &stats)),
                ParamSpec::int("tokens", 0, 5).optional(),
                ParamSpec::int("difficulty (vs)", 0, i64::from(MAX_DIFFICULTY))
                    .keyword("vs")
                    .required(),
                ParamSpec::choice("skill (with)", skill_names(s, m)).keyword("with"),
                ParamSpec::choice("as", [m.clone()]).keyword("as"),
            ],
        ));
    }
    out.push(CommandSpec::new(
        "giveback",
        &with_usage("giveback", "give exhausted points (or skill tokens) back"),
        vec![
            ParamSpec::choice("stat", stat_names()),
            ParamSpec::int("points", 1, 10).optional(),
            ParamSpec::choice("as", s.participant_names())
                .keyword("as")
                .required(),
        ],
    ));
    out.push(CommandSpec::new(
        "heal",
        "remove an injury",
        vec![
            ParamSpec::choice("stat", stat_names()),
            ParamSpec::choice("as", s.participant_names())
                .keyword("as")
                .required(),
        ],
    ));
}

/// In a Situation: the storyteller moves the difficulty; the seat playing its
/// character makes the final check (with 0 dice when the check may not be
/// made, which ends it failed).
/// Sour Grapes, "Situation" (000_05a1db5b88f54528.txt); R-SG-12.
fn situation_legal(
    s: &State,
    sit: &Situation,
    mine: &[String],
    gm: bool,
    out: &mut Vec<CommandSpec>,
) {
    if gm {
        out.push(CommandSpec::new(
            "difficulty",
            "raise or lower the Situation's difficulty",
            vec![ParamSpec::int("difficulty", 0, i64::from(MAX_DIFFICULTY))],
        ));
    }
    if mine.contains(&sit.who) {
        // R-SG-12: a final check that may not be made ends it failed.
        let (summary, dice, tokens) = match s.check_forbidden(&sit.who, sit.stat) {
            Some(_) => (
                "the Situation's final check cannot be made (R-SG-12): `final 0` ends it failed",
                0,
                0,
            ),
            None => (
                "the Situation's final check",
                max_cur(s, &sit.who, Some(sit.stat)),
                5,
            ),
        };
        out.push(CommandSpec::new(
            "final",
            summary,
            vec![
                ParamSpec::int("dice", 0, dice),
                ParamSpec::int("tokens", 0, tokens).optional(),
            ],
        ));
    }
}

/// Between moments the storyteller announces a Situation, declares an Event,
/// calls a rest, ends the encounter or awards experience.
/// Sour Grapes, "Game Moments", "Situation", "Event", "Stat Mechanics",
/// "Experience" (000_05a1db5b88f54528.txt).
fn storyteller_between_moments(s: &State, out: &mut Vec<CommandSpec>) {
    out.push(CommandSpec::new(
        "situation",
        &with_usage(
            "situation",
            "announce a Situation: a running difficulty ending in a final check",
        ),
        vec![
            ParamSpec::int("difficulty", 0, i64::from(MAX_DIFFICULTY)),
            ParamSpec::choice("stat", stat_names()),
            ParamSpec::text("skill (with)").keyword("with"),
            ParamSpec::choice("as", s.participant_names())
                .keyword("as")
                .required(),
        ],
    ));
    out.push(CommandSpec::new(
        "event",
        "declare an Event: initiative, rounds, turns",
        vec![],
    ));
    out.push(CommandSpec::new(
        "rest",
        "a short rest: uninjured stats and skills recover",
        vec![],
    ));
    out.push(CommandSpec::new(
        "end-encounter",
        "end the encounter",
        vec![],
    ));
    if s.options.experience {
        out.push(CommandSpec::new(
            "award",
            "Experience: award points",
            vec![
                ParamSpec::int("points", 1, i64::from(MAX_POINTS)),
                ParamSpec::choice("as", s.participant_names())
                    .keyword("as")
                    .required(),
            ],
        ));
    }
}

/// Between moments a seat whose character has experience points raises a
/// stat or skill, or improves one of its own cards.
/// Sour Grapes, "Experience" (000_05a1db5b88f54528.txt); issue 27, bug 1.
fn experience_legal(s: &State, mine: &[String], out: &mut Vec<CommandSpec>) {
    out.push(CommandSpec::new(
        "raise",
        "Experience: spend a point to raise a stat or skill by one",
        vec![ParamSpec::text("stat or skill")],
    ));
    out.push(CommandSpec::new(
        "improve",
        &with_usage(
            "improve",
            "Experience: spend a point on a card: one success less, or one more damage",
        ),
        vec![
            // Only the cards this seat's characters hold
            // (issue 27, bug 1), each once, in table order.
            ParamSpec::choice(
                "card",
                s.cards
                    .iter()
                    .filter(|c| c.kind != CardType::Effect)
                    .filter(|c| {
                        mine.iter().any(|m| {
                            s.participant(m).is_some_and(|p| {
                                p.cards
                                    .iter()
                                    .any(|k| crate::cards::key(k) == crate::cards::key(&c.name))
                            })
                        })
                    })
                    .map(|c| c.name.clone()),
            ),
            ParamSpec::choice("bonus", ["easier", "damage"]),
        ],
    ));
}

/// The Event's commands for a seat playing `mine` (the storyteller: `gm`):
/// `end-event`, initiative, then the steps of the turn in progress.
/// Sour Grapes, "Event", "Turn Mechanics" (000_05a1db5b88f54528.txt).
fn event_legal(s: &State, e: &EventState, mine: &[String], gm: bool, out: &mut Vec<CommandSpec>) {
    if gm {
        out.push(CommandSpec::new("end-event", "end the Event", vec![]));
    }
    if e.order.is_empty() {
        initiative_legal(s, e, mine, out);
    }
    let Some(t) = &e.turn else { return };
    let ctl = mine.contains(&t.controller);
    let others: Vec<&String> = mine.iter().filter(|m| **m != t.controller).collect();
    match t.step {
        Step::Prep => {
            if ctl {
                prep_legal(s, t, out);
            }
        }
        Step::Interrupt => interrupt_legal(s, t, &others, ctl, gm, out),
        Step::Targeting => {
            if ctl {
                targeting_legal(s, t, out);
            }
        }
        Step::Support => support_legal(s, t, mine, ctl, gm, out),
        Step::Reaction => reaction_legal(s, t, mine, out),
    }
}

/// Before the order is settled, each of the seat's characters still to roll
/// initiative: a check with a stat it may check with (0 dice when none).
/// Sour Grapes, "Event" (000_05a1db5b88f54528.txt); R-SG-8, R-SG-12.
fn initiative_legal(s: &State, e: &EventState, mine: &[String], out: &mut Vec<CommandSpec>) {
    for m in mine {
        if e.initiative.get(m).is_some_and(Option::is_none) {
            // R-SG-12 limits the stat; with none allowed, 0 dice.
            let stats = s.check_stats(m);
            let (names, dice) = if stats.is_empty() {
                (stat_names(), 0)
            } else {
                (
                    stats.iter().map(|st| st.name().to_string()).collect(),
                    max_dice(s, m, &stats),
                )
            };
            out.push(CommandSpec::new(
                "initiative",
                &format!("{m}: initiative, a check that exhausts nothing (+ d20)"),
                vec![
                    ParamSpec::choice("stat", names),
                    ParamSpec::int("dice", 0, dice),
                    ParamSpec::choice("as", [m.clone()]).keyword("as"),
                ],
            ));
        }
    }
}

/// Step 1, Prep, for the Controller: the free point, rolling for or
/// discarding effects, the Stunt (step 2) once no effect waits, or ending
/// the turn.
/// Sour Grapes, "Turn Mechanics" steps 1-2, "Effects" (000_05a1db5b88f54528.txt);
/// R-SG-9.
fn prep_legal(s: &State, t: &Turn, out: &mut Vec<CommandSpec>) {
    if t.free_point {
        out.push(CommandSpec::new(
            "recover",
            "the free point: one exhausted uninjured stat point or skill token",
            vec![ParamSpec::choice(
                "stat or skill",
                recoverable(s, &t.controller),
            )],
        ));
    }
    for p in &t.pending_effects {
        let Some(c) = s.card(p) else { continue };
        if card_usable(s, &t.controller, c).is_err() {
            continue;
        }
        out.push(CommandSpec::new(
            "keep",
            &format!("roll to keep {p} (R-SG-9); ending the turn without it discards it"),
            vec![
                ParamSpec::choice("effect", [p.clone()]),
                ParamSpec::int("dice", 0, max_cur(s, &t.controller, c.success)),
                ParamSpec::int("tokens", 0, 5).optional(),
            ],
        ));
    }
    if let Some(p) = s.participant(&t.controller) {
        let disc: Vec<String> = p
            .effects
            .iter()
            .filter(|x| {
                s.card(&x.card)
                    .and_then(|c| c.effect)
                    .map(|e| e.keep)
                    .is_none_or(|k| k == Keep::Roll || k == Keep::Discard)
            })
            .map(|x| x.card.clone())
            .collect();
        if !disc.is_empty() {
            out.push(CommandSpec::new(
                "discard",
                "discard an effect",
                vec![ParamSpec::choice("effect", disc)],
            ));
        }
    }
    if t.pending_effects.is_empty() {
        let c = cards_of(s, &t.controller, CardType::Stunt);
        if !c.is_empty() {
            out.push(CommandSpec::new(
                "stunt",
                "step 2: lay down a Stunt",
                vec![ParamSpec::choice("card", c)],
            ));
        }
    }
    out.push(CommandSpec::new(
        "end",
        if t.pending_effects.is_empty() {
            "end the turn without a Stunt"
        } else {
            "end the turn without a Stunt; effects not rolled for are discarded (R-SG-9)"
        },
        vec![],
    ));
}

/// Step 3: the seat's other characters offer an Interrupt; the storyteller
/// rejects an invalid one; the Controller or the storyteller closes the step.
/// Sour Grapes, "Interrupt", "Turn Mechanics" (000_05a1db5b88f54528.txt).
fn interrupt_legal(
    s: &State,
    t: &Turn,
    others: &[&String],
    ctl: bool,
    gm: bool,
    out: &mut Vec<CommandSpec>,
) {
    for o in others {
        let c = cards_of(s, o, CardType::Interrupt);
        if !c.is_empty() && !t.interrupts.iter().any(|p| &&p.by == o) {
            out.push(CommandSpec::new(
                "interrupt",
                &format!("{o}: offer an Interrupt (rolled when the step closes)"),
                vec![
                    ParamSpec::choice("card", c),
                    ParamSpec::int("dice", 0, 10),
                    ParamSpec::int("tokens", 0, 5).optional(),
                    ParamSpec::choice("as", [(*o).clone()]).keyword("as"),
                ],
            ));
        }
    }
    if gm && !t.interrupts.is_empty() {
        out.push(CommandSpec::new(
            "reject",
            "reject an invalid card offered now",
            vec![
                ParamSpec::choice("as", t.interrupts.iter().map(|p| p.by.clone()))
                    .keyword("as")
                    .required(),
            ],
        ));
    }
    if ctl || gm {
        out.push(CommandSpec::new(
            "pass",
            "close step 3 and roll the Interrupt, if any",
            vec![],
        ));
    }
}

/// Step 4, for the Controller: targets, and dice and tokens on Success and
/// Result, up to the Stunt's stats.
/// Sour Grapes, "Turn Mechanics" step 4 (000_05a1db5b88f54528.txt); R-SG-4.
fn targeting_legal(s: &State, t: &Turn, out: &mut Vec<CommandSpec>) {
    let c = t.stunt.as_deref().and_then(|c| s.card(c));
    out.push(CommandSpec::new(
        "target",
        &with_usage(
            "target",
            "step 4: targets, and dice + tokens on Success and Result (not rolled)",
        ),
        vec![
            ParamSpec::text("targets, comma-separated").raw(),
            ParamSpec::int(
                "success dice",
                0,
                max_cur(s, &t.controller, c.and_then(|c| c.success)),
            )
            .keyword("success"),
            ParamSpec::int("success tokens", 0, 5).keyword("success"),
            ParamSpec::int(
                "result dice",
                0,
                max_cur(s, &t.controller, c.and_then(|c| c.result)),
            )
            .keyword("result"),
            ParamSpec::int("result tokens", 0, 5).keyword("result"),
        ],
    ));
}

/// Step 5: each of the seat's characters offers a Compliment and a Divert;
/// the storyteller rejects an invalid one; the Controller or the storyteller
/// closes the step.
/// Sour Grapes, "Compliment", "Divert", "Turn Mechanics" (000_05a1db5b88f54528.txt).
fn support_legal(
    s: &State,
    t: &Turn,
    mine: &[String],
    ctl: bool,
    gm: bool,
    out: &mut Vec<CommandSpec>,
) {
    for o in mine {
        let c = cards_of(s, o, CardType::Compliment);
        if !c.is_empty() && !t.compliments.iter().any(|p| &p.by == o) {
            out.push(CommandSpec::new(
                "compliment",
                &format!("{o}: {}", with_usage("compliment", "offer a Compliment")),
                vec![
                    ParamSpec::choice("card", c),
                    ParamSpec::int("success dice", 0, 10).keyword("success"),
                    ParamSpec::int("success tokens", 0, 5).keyword("success"),
                    ParamSpec::int("result dice", 0, 10).keyword("result"),
                    ParamSpec::int("result tokens", 0, 5).keyword("result"),
                    ParamSpec::choice("as", [o.clone()]).keyword("as"),
                ],
            ));
        }
        let c = cards_of(s, o, CardType::Divert);
        if !c.is_empty() && !t.diverts.iter().any(|p| &p.by == o) {
            out.push(CommandSpec::new(
                "divert",
                &format!("{o}: {}", with_usage("divert", "offer a Divert")),
                vec![
                    ParamSpec::choice("card", c),
                    ParamSpec::int("success dice", 0, 10).keyword("success"),
                    ParamSpec::int("success tokens", 0, 5).keyword("success"),
                    ParamSpec::choice("to", s.participant_names())
                        .keyword("to")
                        .required(),
                    ParamSpec::choice("as", [o.clone()]).keyword("as"),
                ],
            ));
        }
    }
    let offered: Vec<String> = t
        .compliments
        .iter()
        .chain(&t.diverts)
        .map(|p| p.by.clone())
        .collect();
    if gm && !offered.is_empty() {
        out.push(CommandSpec::new(
            "reject",
            "reject an invalid card offered now",
            vec![ParamSpec::choice("as", offered).keyword("as").required()],
        ));
    }
    if ctl || gm {
        out.push(CommandSpec::new(
            "pass",
            "close step 5: step 6 rolls the Divert and Compliment",
            vec![],
        ));
    }
}

/// Step 7: each receiver the seat plays that has not reacted plays a
/// Reaction or takes the Stunt.
/// Sour Grapes, "Reactions" (000_05a1db5b88f54528.txt); R-SG-5.
fn reaction_legal(s: &State, t: &Turn, mine: &[String], out: &mut Vec<CommandSpec>) {
    for r in t
        .receivers
        .iter()
        .filter(|r| !t.reactions.contains_key(*r) && mine.contains(r))
    {
        let c = cards_of(s, r, CardType::Reaction);
        if !c.is_empty() {
            out.push(CommandSpec::new(
                "react",
                &format!("{r}: play a Reaction (rolled in step 8)"),
                vec![
                    ParamSpec::choice("card", c),
                    ParamSpec::int("dice", 0, 10),
                    ParamSpec::int("tokens", 0, 5).optional(),
                    ParamSpec::choice("as", [r.clone()]).keyword("as"),
                ],
            ));
        }
        out.push(CommandSpec::new(
            "take",
            &format!("{r}: no Reaction"),
            vec![ParamSpec::choice("as", [r.clone()]).keyword("as")],
        ));
    }
}
