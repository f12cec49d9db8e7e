//! The terminal side of the table: describing events ([`describe()`]), the
//! status line, the odds in front of a seat ([`choice_odds`]), the command
//! lines read by [`parse()`] and the reference of every command ([`COMMANDS`],
//! written out in `docs/COMMANDS.md`). Every line is read by the one core
//! parser, [`tabula_core::usage::read`], against its command's usage in
//! [`COMMANDS`]; [`parse()`] builds the command from that reading. "What may this seat do now" is
//! [`crate::legal`].

use tabula_core::system::{ChoiceOdds, Seat};

use crate::checks;
use crate::name_match::same_name;
use crate::odds;
use crate::state::State;

mod describe;
pub mod parse;
mod reference;

pub use describe::describe;
pub use parse::{parse, parse_with};
pub use reference::COMMANDS;

pub(crate) fn name(state: &State, i: usize) -> &str {
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
