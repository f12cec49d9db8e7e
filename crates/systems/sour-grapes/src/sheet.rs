//! The character sheet at the table: `sheet [NAME]` in play.
//!
//! Laid out as the book lays out its sheets (Sour Grapes, "Character
//! Creation", "Stats", "Stat Mechanics", "Skills"; 000_05a1db5b88f54528.txt):
//! the stat sheet (each stat with its abbreviation, Physical or Mental, what it
//! measures, the Actual Stat Value "in pen", the Current Stat Value as dice
//! "in pencil", the Injury marker, and the condition it brings at zero), then
//! the skill sheet (tokens available of each rating), then what the table adds:
//! the comparables agreed, the action cards the character may play, the
//! effects in play on them, experience and card bonuses, and where they are in
//! the moment (initiative, Controller, Situation).
//!
//! Nothing of a Sour Grapes sheet is hidden: the book plays with the sheets
//! and cards on the table, and every seat's view shows the whole table
//! ([`crate::table::View`]), so every seat may read every sheet, cards
//! included. Without a name, a player seat gets the sheets of the characters
//! it plays; the storyteller gets every sheet when the table has at most
//! [`MAX_SHEETS_AT_ONCE`] characters, and a one-line summary of each
//! otherwise (`sheet NAME` shows one in full).

use std::fmt::Write as _;

use tabula_core::names::resolve;
use tabula_core::sheet::{CharacterSheet, Item, Row, Section, SheetDoc};
use tabula_core::{CommandParseError, Seat};

use crate::cards::CardValue;
use crate::state::{Moment, Participant, State};
use crate::stats::{Nature, Stat};

/// The most full sheets `sheet` without a name prints for the storyteller;
/// past it, one line per character.
pub const MAX_SHEETS_AT_ONCE: usize = 6;

/// The sheet of `name` (resolved among the table's characters without regard
/// to case and by unambiguous prefix), or without a name those of the
/// characters `seat` plays (the storyteller: every character, see the
/// [module documentation](self)).
///
/// # Errors
/// [`CommandParseError::Name`] for a name that is no character here, or the
/// start of several, listing them.
pub fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
    let names = state.participant_names();
    if let Some(typed) = name.filter(|n| !n.trim().is_empty()) {
        let who = resolve("character", typed, names.iter().map(String::as_str))?;
        return Ok(state
            .participant(who)
            .map(|p| one(state, p))
            .unwrap_or_default());
    }
    let mine: Vec<&Participant> = if seat.is_gm() {
        state.participants.iter().collect()
    } else {
        state
            .participants
            .iter()
            .filter(|p| p.seat.same_seat(seat))
            .collect()
    };
    if mine.is_empty() {
        return Ok(format!(
            "{seat} plays no character here; `sheet NAME` shows one of: {}",
            names.join(", ")
        ));
    }
    if mine.len() > MAX_SHEETS_AT_ONCE {
        let mut out = format!(
            "{} characters (`sheet NAME` shows one in full):\n",
            mine.len()
        );
        for p in mine {
            let _ = writeln!(out, "  {}", crate::text::brief(state, p.character.name()));
        }
        return Ok(out.trim_end().to_string());
    }
    Ok(mine
        .iter()
        .map(|p| one(state, p))
        .collect::<Vec<_>>()
        .join("\n\n"))
}

/// The Current Stat Value as the book's dice: one `#` per die filled in, one
/// `.` per exhausted point, up to the Actual value.
fn dice(current: u32, actual: u32) -> String {
    let filled = current.min(actual) as usize;
    let empty = actual.saturating_sub(current) as usize;
    format!("{}{}", "#".repeat(filled), ".".repeat(empty))
}

fn nature(stat: Stat) -> &'static str {
    match stat.nature() {
        Nature::Physical => "Physical",
        Nature::Mental => "Mental",
        Nature::Both => "Physical and Mental",
    }
}

/// One character's sheet.
fn one(state: &State, p: &Participant) -> String {
    let c = &p.character;
    let who = c.name();
    let mut out = String::from(who);
    if c.is_monster() {
        out.push_str(" (monster)");
    }
    let _ = writeln!(out, ", played by {}", p.seat);
    if !c.concept().is_empty() {
        let _ = writeln!(out, "  {}", c.concept());
    }
    out.push_str("  Stats (Actual in pen, Current in pencil):\n");
    for st in Stat::ALL {
        let v = c.stat(st);
        let _ = writeln!(
            out,
            "  {} ({}) {}: {}",
            st.name(),
            st.abbreviation(),
            nature(st),
            st.description()
        );
        let mut line = format!(
            "      Actual {:>2}  Current {:>2}  {}",
            v.actual,
            v.current,
            dice(v.current, v.actual)
        );
        if v.injured {
            line.push_str("  injured");
        }
        let cond = st.condition();
        if v.depleted() {
            let _ = write!(line, "  DEPLETED: {cond}: {}", cond.effect());
        } else {
            let _ = write!(line, "  (at 0: {cond})");
        }
        let _ = writeln!(out, "{line}");
    }
    let conditions = c.conditions();
    if conditions.is_empty() {
        out.push_str("  Conditions: none\n");
    } else {
        let names: Vec<String> = conditions
            .iter()
            .map(|k| format!("{k} ({})", k.effect()))
            .collect();
        let _ = writeln!(out, "  Conditions: {}", names.join("; "));
    }
    if c.skills().is_empty() {
        out.push_str("  Skills: none\n");
    } else {
        let skills: Vec<String> = c
            .skills()
            .iter()
            .map(|k| {
                if k.notes.is_empty() {
                    format!("{} {}/{}", k.name, k.available, k.rating)
                } else {
                    format!("{} {}/{} ({})", k.name, k.available, k.rating, k.notes)
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "  Skills (tokens available / rating): {}",
            skills.join(", ")
        );
    }
    if !p.comparable.is_empty() {
        let pairs: Vec<String> = p
            .comparable
            .iter()
            .map(|(from, to)| format!("{from} as {to}"))
            .collect();
        let _ = writeln!(out, "  Comparable skills: {}", pairs.join(", "));
    }
    if p.cards.is_empty() {
        out.push_str("  Cards: none\n");
    } else {
        out.push_str("  Cards:\n");
        for name in &p.cards {
            let Some(k) = state.card(name) else { continue };
            let stat = |s: Option<Stat>| s.map_or("N/A", |s| s.abbreviation());
            let mut line = format!(
                "    {} ({}, value {}, Success {}, Result {}",
                k.name,
                k.kind,
                k.value,
                stat(k.success),
                stat(k.result)
            );
            if let Some(skill) = &k.skill {
                let own = p.skill_for(skill);
                if crate::cards::key(&own) == crate::cards::key(skill) {
                    let _ = write!(line, ", skill {skill}");
                } else {
                    let _ = write!(line, ", skill {skill} as {own}");
                }
            }
            line.push(')');
            let bonus = c.card_bonus(&k.name);
            if bonus.easier > 0 && matches!(k.value, CardValue::Needs(_)) {
                let _ = write!(line, "; {} easier", bonus.easier);
            }
            if bonus.damage > 0 {
                let _ = write!(line, "; +{} damage", bonus.damage);
            }
            let _ = writeln!(out, "{line}");
        }
    }
    if !p.effects.is_empty() {
        let effects: Vec<String> = p
            .effects
            .iter()
            .map(|e| {
                if e.tokens > 0 {
                    format!("{} ({} tokens)", e.card, e.tokens)
                } else {
                    e.card.clone()
                }
            })
            .collect();
        let _ = writeln!(out, "  Effects in play: {}", effects.join(", "));
    }
    if state.options.experience || c.experience() > 0 {
        let _ = writeln!(out, "  Experience: {} points", c.experience());
    }
    if let Some(now) = moment_line(state, who) {
        let _ = writeln!(out, "  Now: {now}");
    }
    out.trim_end().to_string()
}

/// The sheets at the table as `seat` sees them ([`tabula_core::TextPlay::sheet_doc`]):
/// the table's facts (the moment, the Situation's difficulty and final check,
/// the Event's round, initiative order and the turn in progress) and every
/// character's sheet, laid out as [`sheet`] lays it out: the stat sheet, the
/// conditions, the skill sheet, the comparables, the action cards, the
/// effects in play, experience and where they stand in the moment.
///
/// Nothing is hidden (see the [module documentation](self)): every seat gets
/// every sheet whole, its own marked `mine`. Sour Grapes, "Character
/// Creation", "Stats", "Skills", "Cards", "Game Moments"
/// (000_05a1db5b88f54528.txt).
pub fn sheet_doc(state: &State, seat: &Seat) -> SheetDoc {
    SheetDoc {
        table: table_facts(state),
        characters: state
            .participants
            .iter()
            .map(|p| character_doc(state, p, seat))
            .collect(),
    }
}

/// The table's facts: the game moment and what it holds. Sour Grapes, "Game
/// Moments", "Situation", "Event" (000_05a1db5b88f54528.txt); R-SG-8.
fn table_facts(state: &State) -> Vec<Item> {
    let mut out = Vec::new();
    if !state.title.is_empty() {
        out.push(Item::value("Table", &state.title));
    }
    match &state.moment {
        Moment::Free => out.push(Item::value("Moment", "free (Spends and Checks)")),
        Moment::Situation(s) => {
            out.push(Item::value("Moment", format!("Situation for {}", s.who)));
            out.push(Item::value("Difficulty", s.difficulty));
            let check = match &s.skill {
                Some(k) => format!("{} + {k}", s.stat),
                None => s.stat.to_string(),
            };
            out.push(Item::value("Final check", check));
        }
        Moment::Event(e) => {
            out.push(Item::value("Moment", "Event"));
            out.push(Item::value("Round", e.round));
            let rows: Vec<Row> = e
                .initiative
                .iter()
                .map(|(who, t)| {
                    Row::new(
                        who.clone(),
                        t.map_or_else(|| "not rolled yet".to_string(), |t| t.to_string()),
                    )
                })
                .collect();
            out.push(Item::list("Initiative", rows));
            if !e.order.is_empty() {
                out.push(Item::value("Order", e.order.join(", ")));
            }
            if let Some(t) = &e.turn {
                out.push(Item::value("Controller", &t.controller));
                out.push(Item::value("Step", t.step.title()));
                if let Some(stunt) = &t.stunt {
                    out.push(Item::value("Stunt", stunt));
                }
                if !t.targets.is_empty() {
                    out.push(Item::tags("Targets", t.targets.iter().cloned()));
                }
                if !t.success.is_empty() || !t.result.is_empty() {
                    out.push(Item::value(
                        "Stunt bets",
                        format!("Success {}, Result {}", t.success, t.result),
                    ));
                }
                let played = cards_in_play(t);
                if !played.is_empty() {
                    out.push(Item::list("Cards in play", played));
                }
            }
        }
    }
    if state.over {
        out.push(Item::value("Encounter", "over"));
    }
    out
}

/// The cards laid down in the turn, with their bets: Interrupts (step 3),
/// Compliments and Diverts (step 5), the Compliment that succeeded, and
/// Reactions (step 7); every seat sees them on the table. Sour Grapes, "Event",
/// "Targeting & Betting" (000_05a1db5b88f54528.txt); R-SG-11.
fn cards_in_play(t: &crate::state::Turn) -> Vec<Row> {
    let row = |kind: &str, p: &crate::state::CardPlay| {
        let mut detail = format!("by {}, Success {}", p.by, p.success);
        if !p.result.is_empty() {
            let _ = write!(detail, ", Result {}", p.result);
        }
        if let Some(to) = &p.to {
            let _ = write!(detail, ", to {to}");
        }
        Row::new(p.card.clone(), kind).detail(detail)
    };
    let mut rows: Vec<Row> = Vec::new();
    rows.extend(t.interrupts.iter().map(|p| row("Interrupt", p)));
    rows.extend(t.compliments.iter().map(|p| row("Compliment", p)));
    rows.extend(t.diverts.iter().map(|p| row("Divert", p)));
    rows.extend(
        t.compliment
            .iter()
            .map(|p| row("Compliment (succeeded)", p)),
    );
    for (receiver, r) in &t.reactions {
        match r {
            Some(p) => rows.push(row("Reaction", p)),
            None => rows.push(Row::new(receiver.clone(), "takes it")),
        }
    }
    rows
}

/// One character's sheet as items: the same content as [`sheet`]'s text.
fn character_doc(state: &State, p: &Participant, viewer: &Seat) -> CharacterSheet {
    let c = &p.character;
    let subtitle = if c.is_monster() { "monster" } else { "" };
    let mut doc = CharacterSheet::new(c.name(), subtitle).played_by(&p.seat, viewer);
    if !c.concept().is_empty() {
        doc.push(Section::new("Concept").with(Item::note(c.concept())));
    }
    // "Stats", "Stat Mechanics": Actual in pen (the track's size), Current in
    // pencil (its value), the Injury marker and the condition at zero.
    let mut stats = Section::new("Stats (Actual in pen, Current in pencil)");
    for st in Stat::ALL {
        let v = c.stat(st);
        let cond = st.condition();
        let mut note = format!("{}, {}", st.abbreviation(), nature(st));
        if v.injured {
            note.push_str(", injured");
        }
        if v.depleted() {
            let _ = write!(note, "; DEPLETED: {cond}: {}", cond.effect());
        } else {
            let _ = write!(note, "; at 0: {cond}");
        }
        stats.push(Item::Track {
            label: st.name().to_string(),
            current: i64::from(v.current),
            max: i64::from(v.actual),
            note,
        });
    }
    stats.push(Item::tags(
        "Conditions",
        c.conditions()
            .iter()
            .map(|k| format!("{k} ({})", k.effect())),
    ));
    doc.push(stats);
    // "Skills", "Skill Mechanics": tokens available of each rating; the ones
    // spent are exhausted until they come back.
    let skills: Vec<Row> = c
        .skills()
        .iter()
        .map(|k| {
            let mut detail = format!("{} exhausted", k.rating.saturating_sub(k.available));
            if !k.notes.is_empty() {
                let _ = write!(detail, "; {}", k.notes);
            }
            Row::new(k.name.clone(), format!("{}/{}", k.available, k.rating)).detail(detail)
        })
        .collect();
    let mut skill_section =
        Section::new("Skills").with(Item::list("Skills (tokens available / rating)", skills));
    if !p.comparable.is_empty() {
        skill_section.push(Item::list(
            "Comparable skills",
            p.comparable
                .iter()
                .map(|(from, to)| Row::new(from.clone(), format!("as {to}")))
                .collect(),
        ));
    }
    doc.push(skill_section);
    // "Cards": the action cards the character may play, on the table for all.
    let cards: Vec<Row> = p
        .cards
        .iter()
        .filter_map(|name| state.card(name))
        .map(|k| card_row(p, k))
        .collect();
    let mut play = Section::new("Cards").with(Item::list("Action cards", cards));
    if !p.effects.is_empty() {
        play.push(Item::list(
            "Effects in play",
            p.effects
                .iter()
                .map(|e| {
                    let tokens = if e.tokens > 0 {
                        format!("{} tokens", e.tokens)
                    } else {
                        String::new()
                    };
                    Row::new(e.card.clone(), tokens)
                })
                .collect(),
        ));
    }
    doc.push(play);
    let mut more = Section::new("At the table");
    if state.options.experience || c.experience() > 0 {
        more.push(Item::value(
            "Experience",
            format!("{} points", c.experience()),
        ));
    }
    if let Some(now) = moment_line(state, c.name()) {
        more.push(Item::value("Now", now));
    }
    doc.push(more);
    doc
}

/// One action card as a row: its type, value, Success and Result stats, the
/// skill it uses (as the character's comparable) and the character's card
/// bonuses. Sour Grapes, "Cards", "Card Mechanics"; R-SG-2.
fn card_row(p: &Participant, k: &crate::cards::ActionCard) -> Row {
    let stat = |s: Option<Stat>| s.map_or("N/A", |s| s.abbreviation());
    let mut detail = format!(
        "{}, value {}, Success {}, Result {}",
        k.kind,
        k.value,
        stat(k.success),
        stat(k.result)
    );
    if let Some(skill) = &k.skill {
        let own = p.skill_for(skill);
        if crate::cards::key(&own) == crate::cards::key(skill) {
            let _ = write!(detail, ", skill {skill}");
        } else {
            let _ = write!(detail, ", skill {skill} as {own}");
        }
    }
    let bonus = p.character.card_bonus(&k.name);
    if bonus.easier > 0 && matches!(k.value, CardValue::Needs(_)) {
        let _ = write!(detail, "; {} easier", bonus.easier);
    }
    if bonus.damage > 0 {
        let _ = write!(detail, "; +{} damage", bonus.damage);
    }
    Row::new(k.name.clone(), "").detail(detail)
}

/// Where `who` stands in the moment, if anywhere.
fn moment_line(state: &State, who: &str) -> Option<String> {
    match &state.moment {
        Moment::Free => None,
        Moment::Situation(s) if s.who == who => Some(format!(
            "working the Situation, difficulty {}, final check {}{}",
            s.difficulty,
            s.stat,
            s.skill
                .as_deref()
                .map(|k| format!(" + {k}"))
                .unwrap_or_default()
        )),
        Moment::Situation(_) => None,
        Moment::Event(e) => {
            let init = match e.initiative.get(who) {
                Some(Some(t)) => format!("initiative {t}"),
                Some(None) => "initiative not rolled yet".to_string(),
                // Brought in by the storyteller's `add` once the order was settled.
                None if e.order.iter().any(|n| n == who) => {
                    "joined after initiative, last in the order".to_string()
                }
                None => "not in the Event".to_string(),
            };
            match &e.turn {
                Some(t) if t.controller == who => {
                    Some(format!("{init}; the Controller, {}", t.step.title()))
                }
                Some(t) if t.targets.iter().any(|x| x == who) => {
                    Some(format!("{init}; a target of {}'s Stunt", t.controller))
                }
                _ => Some(init),
            }
        }
    }
}
