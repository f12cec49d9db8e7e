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
use tabula_core::{CommandParseError, Seat};

use crate::cards::CardValue;
use crate::stats::{Nature, Stat};
use crate::table::{Moment, Participant, State};

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
