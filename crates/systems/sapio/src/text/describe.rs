//! [`describe`]: one or more lines for each event, with every die.

use super::name;
use crate::character::Advance;
use crate::checks::{self, CheckRoll, Net, PoolSpec};
use crate::event::{Event, LuckReason, Step};
use crate::harm::{Damage, HarmKind, Placement, Recording};
use crate::invoking::{Nature, OpenCheck, ProfessionUse};
use crate::state::{PendingInjury, State};

/// One or more lines for an event, with every die.
pub fn describe(state: &State, event: &Event) -> String {
    match event {
        Event::CheckCalled { check } => check_called(state, check),
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
        Event::Invoked { element, step } => invoked(element, step),
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
        } => rolled(state, check, spec, roll, weapon.as_ref(), *target),
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
        } => luck_gained(state, *character, *amount, *reason),
        Event::Harmed {
            character,
            kind,
            recording,
        } => harmed(state, *character, *kind, recording),
        Event::Healed {
            character,
            kind,
            name: n,
            ..
        } => format!("{}'s {kind} {n} is erased", name(state, *character)),
        Event::Advanced { character, advance } => advanced(state, *character, advance),
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
        Event::InjuryPending { pending } => injury_pending(state, pending),
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

/// A check called: its focal character and TN, or the defender who raises
/// it ("When to Roll"; "Character versus Character", R-SA-5).
fn check_called(state: &State, check: &OpenCheck) -> String {
    match check.versus {
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
    }
}

/// An element invoked and the dice it adds ("Invoking an Element",
/// "Professions and Specializations").
fn invoked(element: &str, step: &Step) -> String {
    match step {
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
    }
}

/// The roll: the pool built and bonus, the TN changes (R-SA-2, R-SA-7),
/// every die (R-SA-1, R-SA-3), a weapon's damage ("Weapons and causing
/// Injury", R-SA-4) and what net Spares or Spirals may bring ("Net Spare",
/// "Net Spiral").
fn rolled(
    state: &State,
    check: &OpenCheck,
    spec: &PoolSpec,
    roll: &CheckRoll,
    weapon: Option<&(String, Damage)>,
    target: Option<usize>,
) -> String {
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

/// Luck gained, why and how much the character holds now ("Luck",
/// "Principles and Worst Impulses").
fn luck_gained(state: &State, character: usize, amount: u32, reason: LuckReason) -> String {
    format!(
        "{} gains {amount} Luck ({}), now {}",
        name(state, character),
        match reason {
            crate::event::LuckReason::Principle => "trouble from their Principle",
            crate::event::LuckReason::WorstImpulse => "inconvenienced by a Worst Impulse",
            crate::event::LuckReason::Gm => "from the GM",
        },
        state
            .characters
            .get(character)
            .map_or(0, |m| m.character.luck())
    )
}

/// An Injury or Stress recorded: a similar one erased, where it went, a
/// second Severe debilitating ("Injuries and Stresses", R-SA-6).
fn harmed(state: &State, character: usize, kind: HarmKind, recording: &Recording) -> String {
    let mut s = format!(
        "{} takes a {} {kind}: {}",
        name(state, character),
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
            name(state, character)
        )),
    }
    s
}

/// An advancement taken; a magic half gained alone waits for its pair
/// ("Advancement", R-SA-12).
fn advanced(state: &State, character: usize, advance: &Advance) -> String {
    // R-SA-12: a magic half gained alone waits for its pair (`state`
    // is the state just after the event).
    let waits = state
        .characters
        .get(character)
        .is_some_and(|m| m.character.is_unpaired(advance.name()));
    format!(
        "{} advances: {advance}{}",
        name(state, character),
        if waits {
            " (marked unpaired: it gives nothing until its magic pair is gained, R-SA-12)"
        } else {
            ""
        }
    )
}

/// A weapon's Injury waiting for the GM's similarity call (R-SA-6).
fn injury_pending(state: &State, pending: &PendingInjury) -> String {
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
