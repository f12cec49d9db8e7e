//! `sheet [NAME]`: a character as the book's index card lays it out, in plain
//! text, with its current pools, conditions and hand.
//!
//! A Game of Bastards, "Character sheets (Index Cards)", "Suits", "Points &
//! Costs" (003_2dfeea144768d328.txt): a Fated's card holds its name and Suit,
//! the four Traits with their pools (BP, SP, MP, LP), the skills above 1,
//! Specialties, Advantages, Disadvantages, XP and Wildcards, and the weapons and
//! armour; a Follower has a Power Rating and one Power Pool, Extras a Power
//! Rating and members ("Building A Scene", "Optional Rules"; R-GB-9).
//!
//! Hidden information (R-GB-12): current pools and the hand are written only
//! for the seat that commands the character; every other seat, the Dealer
//! included, reads `hidden` and the number of cards. What the book puts on the
//! table (Traits, skills, initiative card, Wildcards, weapons in hand,
//! statuses, Desperate, knocked out) is on every seat's sheet.
//!
//! Without a name, a player gets the sheets of the characters it commands; the
//! GM gets every character's (a table holds at most
//! [`crate::opposition::MAX_COMBATANTS`], so the list stays short).

use std::fmt::Write as _;

use tabula_core::names::resolve;
use tabula_core::system::{CommandParseError, Seat};

use crate::character::Trait;
use crate::opposition::{Body, Combatant, State};

/// The sheets `seat` asks for: `name`'s (resolved among every character at the
/// table without regard to case, by unambiguous prefix; quotes around it are
/// read as the grammar reads them), or without a name the
/// seat's own characters (the GM: every character), separated by blank lines.
///
/// # Errors
/// [`CommandParseError::Name`] for a name that fits no character, or several,
/// listing the characters; [`CommandParseError::Grammar`] for an unclosed quote.
pub fn sheet(s: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
    let chosen: Vec<&Combatant> = match name {
        Some(typed) => {
            // The name may still carry the grammar's quotes (`"the investor"`).
            let typed = tabula_core::grammar::words(typed)?.join(" ");
            let n = resolve(
                "character",
                &typed,
                s.combatants.iter().map(|c| c.name.as_str()),
            )?;
            s.combatants.iter().filter(|c| c.name == n).collect()
        }
        None if seat.is_gm() => s.combatants.iter().collect(),
        None => s
            .combatants
            .iter()
            .filter(|c| c.controlled_by(seat))
            .collect(),
    };
    if chosen.is_empty() {
        return Ok(format!("{seat} commands no character at this table."));
    }
    let cards: Vec<String> = chosen.iter().map(|c| card(s, c, seat)).collect();
    Ok(cards.join("\n\n"))
}

/// One index card.
fn card(s: &State, c: &Combatant, seat: &Seat) -> String {
    let mine = c.controlled_by(seat);
    let mut out = String::new();
    let kind = match &c.body {
        Body::Fated { character, .. } => format!(
            "Fated, {} / {}",
            character.suit(),
            character.suit().tarot_name()
        ),
        Body::Follower { power, .. } => format!("Follower (Touched), Power Rating {power}"),
        Body::Extras { power, .. } => format!("Extras (Brutes), Power Rating {power}"),
    };
    let _ = writeln!(out, "{} ({kind}), played by {}", c.name, c.controller);
    match &c.body {
        Body::Fated {
            character, pools, ..
        } => {
            for (t, now) in Trait::ALL.iter().zip(pools.iter()) {
                let pool = if mine {
                    format!("{now}/{}", character.pool_max(*t))
                } else {
                    "hidden".into()
                };
                let _ = writeln!(
                    out,
                    "  {:<6} {:>2}   {} {pool}",
                    t.to_string(),
                    character.trait_score(*t),
                    t.pool_name()
                );
            }
            let raised: Vec<String> = character
                .skills()
                .iter()
                .filter(|(_, r)| **r > 1)
                .map(|(k, r)| format!("{k} {r}"))
                .collect();
            let _ = writeln!(
                out,
                "  Skills: every book skill at 1{}{}",
                if raised.is_empty() { "" } else { "; " },
                raised.join(", ")
            );
            for (n, a, b) in character.specialties() {
                let _ = writeln!(
                    out,
                    "  Specialty: {n} ({a} x {b}) rank {}",
                    character.specialty_rank(n).unwrap_or(0)
                );
            }
            let adv: Vec<String> = character
                .advantages()
                .iter()
                .map(|a| format!("{a} ({})", a.suit()))
                .collect();
            let _ = writeln!(
                out,
                "  Advantages: {}",
                if adv.is_empty() {
                    "none".into()
                } else {
                    adv.join(", ")
                }
            );
            if !character.disadvantages().is_empty() {
                let _ = writeln!(
                    out,
                    "  Disadvantages: {}",
                    character.disadvantages().join(", ")
                );
            }
            let (available, spent) = character.xp();
            let _ = writeln!(out, "  XP: {spent} of {available} spent");
            if let Some(a) = character.armour() {
                let _ = writeln!(out, "  Armour: {} (-{})", a.name, a.reduction);
            }
        }
        Body::Follower { power, pool } => {
            let shown = if mine {
                format!("{pool}/{}", power * 5)
            } else {
                "hidden".into()
            };
            let _ = writeln!(out, "  Power Pool {shown}");
        }
        Body::Extras { members, .. } => {
            let _ = writeln!(out, "  Members {members} of 5");
        }
    }
    let weapons = |ws: &[crate::character::Weapon]| {
        ws.iter()
            .map(|w| format!("{} (+{}, {})", w.name, w.damage, w.skill))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !c.wielding.is_empty() {
        let _ = writeln!(out, "  In hand: {}", weapons(&c.wielding));
    }
    if !c.carried.is_empty() {
        let _ = writeln!(out, "  Carried: {}", weapons(&c.carried));
    }
    let _ = writeln!(out, "  Wildcards: {}", c.wildcards);
    let mut conditions: Vec<String> = Vec::new();
    if !c.present {
        conditions.push("not in the scene".into());
    }
    if c.knocked_out {
        conditions.push("knocked out".into());
    }
    if c.desperate() {
        conditions.push("Desperate".into());
    }
    let status = crate::table::status_text(s, &c.status);
    if status != "nothing special" {
        conditions.push(status);
    }
    let _ = writeln!(
        out,
        "  Condition: {}",
        if conditions.is_empty() {
            "well".into()
        } else {
            conditions.join(", ")
        }
    );
    if let Some(k) = c.initiative {
        let _ = writeln!(out, "  Initiative card: {k}");
    }
    if mine {
        let hand: Vec<String> = c.hand.iter().map(ToString::to_string).collect();
        let _ = write!(
            out,
            "  Hand: {}",
            if hand.is_empty() {
                "no cards".into()
            } else {
                hand.join(" ")
            }
        );
    } else {
        let _ = write!(out, "  Hand: {} cards (hidden)", c.hand.len());
    }
    out
}
