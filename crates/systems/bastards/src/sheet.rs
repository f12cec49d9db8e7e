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
//! [`crate::rules::MAX_COMBATANTS`], so the list stays short).

use std::fmt::Write as _;

use tabula_core::names::resolve;
use tabula_core::sheet::{CharacterSheet, Item, Row, Section, SheetDoc};
use tabula_core::system::{CommandParseError, Seat};

use crate::character::Trait;
use crate::state::{Body, Combatant, Side, State};
use crate::view::PhaseView;

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
    if c.removed {
        conditions.push("removed from the encounter".into());
    } else if !c.present {
        conditions.push("not in the scene".into());
    }
    if c.knocked_out {
        conditions.push("knocked out".into());
    }
    if c.desperate() {
        conditions.push("Desperate".into());
    }
    let status = crate::text::status_text(s, &c.status);
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

/// The sheets at the table as `seat` may see them (issue 26, item 2): the
/// table's facts and one [`CharacterSheet`] per combatant, everything the
/// text [`sheet`] writes, with the same things hidden.
///
/// Table facts, as the seat's [`crate::view::View`] holds them (R-GB-12): the
/// round and phase ("Steps", "Initiative"), the Exchange's face-up cards and
/// each side's face-down card (its face only to the seat that played it), the
/// deck's and the discard pile's sizes (never their cards), the Dealer's
/// Wildcards ("Wildcards") and weapons on the ground (Disarm).
///
/// Each sheet: A Game of Bastards, "Character sheets (Index Cards)", "Suits",
/// "Points & Costs" (003_2dfeea144768d328.txt): a Fated's Suit, the four
/// Traits with their scores and pools, Skills (every book skill at 1, the
/// raised ones with ranks), Specialties with their skills and rank,
/// Advantages with their suit, Disadvantages, XP; a Follower's Power Rating
/// and Power Pool, Extras' Power Rating and members ("Building A Scene",
/// "Optional Rules"; R-GB-9); then weapons, armour, Wildcards, initiative
/// card, condition and hand. Current pools and the hand's faces go only to
/// the seat that commands the character (R-GB-12): every other seat, the
/// Dealer included, gets [`Item::Hidden`] pools and a face-down count.
pub fn sheet_doc(s: &State, seat: &Seat) -> SheetDoc {
    // The phase only: the whole view would also work out the seat's legal
    // commands, which the sheet does not show (issue 28: a sheet is made for
    // every seat on every change).
    let phase = crate::view::phase_view(s, seat);
    let mut table = vec![
        Item::value("Round", s.round),
        Item::value(
            "Phase",
            if s.finished {
                "the encounter is over".to_string()
            } else {
                phase_text(&phase)
            },
        ),
        Item::value(
            "Deck",
            format!(
                "{} cards, {} discarded",
                s.shoe.pile().len(),
                s.shoe.discards().len()
            ),
        ),
        Item::value("Dealer's Wildcards", s.dealer_wildcards),
    ];
    if let PhaseView::Exchange(x) = &phase {
        for (who, down, played, up) in [
            (
                &x.attacker,
                x.attacker_down,
                x.attacker_down_played,
                &x.attacker_up,
            ),
            (
                &x.defender,
                x.defender_down,
                x.defender_down_played,
                &x.defender_up,
            ),
        ] {
            let down = match (down, played) {
                (Some(card), _) => Item::cards(format!("{who}: face down"), vec![card], 0),
                (None, true) => Item::cards(format!("{who}: face down"), vec![], 1),
                (None, false) => Item::cards(format!("{who}: face down"), vec![], 0),
            };
            table.push(down);
            table.push(Item::cards(format!("{who}: face up"), up.clone(), 0));
        }
    }
    table.push(Item::tags(
        "On the ground",
        s.ground.iter().map(|w| w.name.clone()),
    ));
    SheetDoc {
        table,
        characters: s
            .combatants
            .iter()
            .map(|c| character_sheet(s, c, seat))
            .collect(),
    }
}

/// The phase in words, as the table's status line says it.
fn phase_text(p: &PhaseView) -> String {
    match p {
        PhaseView::Scene => "the scene, outside an Opposition".into(),
        PhaseView::Initiative(waiting) if waiting.is_empty() => "initiative cards".into(),
        PhaseView::Initiative(waiting) => {
            format!("initiative cards (waiting for {})", waiting.join(", "))
        }
        PhaseView::Turn { actor, drawn } => format!(
            "{actor}'s turn ({})",
            if *drawn { "act" } else { "draw step" }
        ),
        PhaseView::Exchange(x) => format!(
            "an opposed hand: {} against {} ({}, {}); {} to act",
            x.attacker,
            x.defender,
            x.kind,
            x.skill,
            match x.to_act {
                Side::Attacker => &x.attacker,
                Side::Defender => &x.defender,
            }
        ),
    }
}

/// Every skill with its rank: each book skill at 1 unless raised, then the
/// skills the sheet adds, in the book's order. A Game of Bastards, "Skills"
/// (003_2dfeea144768d328.txt).
fn every_skill(character: &crate::character::Character) -> Vec<Row> {
    let ranks = character.skills();
    let mut rows: Vec<Row> = crate::character::SKILLS
        .iter()
        .map(|k| Row::new(*k, ranks.get(*k).copied().unwrap_or(1).to_string()))
        .collect();
    rows.extend(
        ranks
            .iter()
            .filter(|(k, _)| !crate::character::SKILLS.contains(&k.as_str()))
            .map(|(k, r)| Row::new(k.clone(), r.to_string())),
    );
    rows
}

/// Why a pool is hidden from a seat.
const POOL_HIDDEN: &str = "R-GB-12: only its own seat sees a character's pools";

/// A weapon as a row: its name, damage bonus and skill.
fn weapon_row(w: &crate::character::Weapon) -> Row {
    Row::new(w.name.clone(), format!("+{}", w.damage)).detail(if w.ready {
        w.skill.clone()
    } else {
        format!("{}, not ready", w.skill)
    })
}

/// One combatant's sheet for `seat`.
fn character_sheet(s: &State, c: &Combatant, seat: &Seat) -> CharacterSheet {
    let mine = c.controlled_by(seat);
    let subtitle = match &c.body {
        Body::Fated { character, .. } => format!(
            "Fated, {} / {}",
            character.suit(),
            character.suit().tarot_name()
        ),
        Body::Follower { power, .. } => format!("Follower (Touched), Power Rating {power}"),
        Body::Extras { power, .. } => format!("Extras (Brutes), Power Rating {power}"),
    };
    let mut sheet = CharacterSheet::new(c.name.clone(), subtitle).played_by(&c.controller, seat);
    match &c.body {
        Body::Fated {
            character, pools, ..
        } => {
            sheet.push(Section::new("Suit").with(Item::value(
                "Suit",
                format!("{} / {}", character.suit(), character.suit().tarot_name()),
            )));
            let mut traits = Section::new("Traits");
            for (t, now) in Trait::ALL.iter().zip(pools.iter()) {
                traits.push(Item::value(t.to_string(), character.trait_score(*t)));
                let pool = format!("{} ({})", t.pool_name(), t);
                traits.push(if mine {
                    Item::track(pool, *now, character.pool_max(*t))
                } else {
                    Item::hidden(pool, POOL_HIDDEN)
                });
            }
            sheet.push(traits);
            let raised: Vec<Row> = character
                .skills()
                .iter()
                .filter(|(_, r)| **r > 1)
                .map(|(k, r)| Row::new(k.clone(), r.to_string()))
                .collect();
            let specialties: Vec<Row> = character
                .specialties()
                .iter()
                .map(|(n, a, b)| {
                    Row::new(
                        n.clone(),
                        format!("rank {}", character.specialty_rank(n).unwrap_or(0)),
                    )
                    .detail(format!("{a} x {b}"))
                })
                .collect();
            sheet.push(
                Section::new("Skills")
                    .with(Item::list("Skills", every_skill(character)))
                    .with(Item::list("Raised skills", raised))
                    .with(Item::list("Specialties", specialties)),
            );
            let (available, spent) = character.xp();
            sheet.push(
                Section::new("Advantages")
                    .with(Item::list(
                        "Advantages",
                        character
                            .advantages()
                            .iter()
                            .map(|a| Row::new(a.to_string(), a.suit().to_string()))
                            .collect(),
                    ))
                    .with(Item::tags(
                        "Disadvantages",
                        character.disadvantages().iter().cloned(),
                    ))
                    .with(Item::value("XP", format!("{spent} of {available} spent"))),
            );
        }
        Body::Follower { power, pool } => {
            sheet.push(Section::new("Power").with(if mine {
                Item::track("Power Pool", *pool, power.saturating_mul(5))
            } else {
                Item::hidden("Power Pool", POOL_HIDDEN)
            }));
        }
        Body::Extras { members, .. } => {
            sheet.push(Section::new("Power").with(Item::track("Members", *members, 5)));
        }
    }
    let mut gear = Section::new("Weapons and armour")
        .with(Item::list(
            "In hand",
            c.wielding.iter().map(weapon_row).collect(),
        ))
        .with(Item::list(
            "Carried",
            c.carried.iter().map(weapon_row).collect(),
        ));
    if let Body::Fated { character, .. } = &c.body
        && let Some(a) = character.armour()
    {
        gear.push(Item::value(
            "Armour",
            format!("{} (-{})", a.name, a.reduction),
        ));
    }
    sheet.push(gear);
    let mut conditions: Vec<String> = Vec::new();
    if c.removed {
        conditions.push("removed from the encounter".into());
    } else if !c.present {
        conditions.push("not in the scene".into());
    }
    if c.knocked_out {
        conditions.push("knocked out".into());
    }
    if c.desperate() {
        conditions.push("Desperate".into());
    }
    let status = crate::text::status_text(s, &c.status);
    if status != "nothing special" {
        conditions.push(status);
    }
    let hand = if mine {
        Item::cards("Hand", c.hand.clone(), 0)
    } else {
        Item::cards("Hand", vec![], c.hand.len())
    };
    sheet.push(
        Section::new("At the table")
            .with(Item::value("Wildcards", c.wildcards))
            .with(Item::cards(
                "Initiative card",
                c.initiative.into_iter().collect(),
                0,
            ))
            .with(Item::tags("Condition", conditions))
            .with(hand),
    );
    sheet
}
