//! The log lines: every event described with every die ([`describe()`]), and
//! the status with odds ([`status`]), for `TextPlay` of [`crate::Scratch`].

use tabula_core::Seat;

use crate::abilities::Ability;
use crate::event::{Effect, Event, TargetRoll};
use crate::odds::{action_odds, damage_text, verb};
use crate::rolls::Check;
use crate::rules::D20Method;
use crate::state::{Phase, State};
use crate::view::states_of;

pub(super) fn n(state: &State, i: usize) -> String {
    state
        .get(i)
        .map(|c| c.character.name().to_string())
        .unwrap_or_else(|| format!("#{i}"))
}

pub(super) fn roll_text(state: &State, r: &TargetRoll, ability: Option<Ability>) -> String {
    let c: &Check = &r.check;
    let dice = if c.roll.dice.len() == 1 && c.roll.method == D20Method::D20 {
        format!("d20 {}", c.roll.value)
    } else {
        format!(
            "{} ({} by {:?})",
            c.roll.value,
            c.roll
                .dice
                .iter()
                .map(|d| format!("d6 {d}"))
                .collect::<Vec<_>>()
                .join(", "),
            c.roll.method.name()
        )
    };
    let ab = match (ability, c.level) {
        (Some(a), l) if l > 0 => format!(" + {a} {l}"),
        _ => String::new(),
    };
    let m = if c.modifier != 0 {
        format!(" {:+}", c.modifier)
    } else {
        String::new()
    };
    let verdict = if c.roll.automatic {
        "automatic success"
    } else if c.success {
        "success"
    } else {
        "failure"
    };
    if r.against == "difficulty" {
        return format!(
            "{dice}{ab}{m} = {} against difficulty {} ({}): {verdict}",
            c.total,
            c.difficulty,
            n(state, r.target)
        );
    }
    format!(
        "{dice}{ab}{m} = {} against {}'s {} {}: {verdict}",
        c.total,
        n(state, r.target),
        r.against,
        c.difficulty
    )
}

pub(super) fn effect_text(state: &State, actor: usize, e: &Effect) -> String {
    match e {
        Effect::Damage {
            target,
            amount,
            hit_points,
        } => {
            let st = state
                .get(*target)
                .map(|c| {
                    crate::character::HitPointState::of(
                        *hit_points,
                        c.base_defenses(&state.rules).stamina,
                    )
                })
                .map(|s| s.to_string())
                .unwrap_or_default();
            format!(
                "{} takes {amount} damage: {hit_points} hit point{}, {st}",
                n(state, *target),
                if *hit_points == 1 { "" } else { "s" }
            )
        }
        Effect::HitPoints { target, hit_points } => {
            format!(
                "{} now has {hit_points} hit point{}",
                n(state, *target),
                if *hit_points == 1 { "" } else { "s" }
            )
        }
        Effect::Delayed { target, .. } if *target == actor => format!(
            "{} is delayed by their own attack until the end of their next turn",
            n(state, *target)
        ),
        Effect::Delayed { target, .. } => format!(
            "{} is delayed until the end of their next turn",
            n(state, *target)
        ),
        Effect::Panicked { target, .. } => format!(
            "{} is panicked until the end of their next turn",
            n(state, *target)
        ),
        Effect::Held { target, .. } => format!("{} is held (stops evading)", n(state, *target)),
        Effect::Evading { evading } => match evading.ability {
            Some(a) => format!(
                "{} evades: +{} {a} to agility and strength until his next turn",
                n(state, actor),
                evading.level
            ),
            None => format!(
                "{} evades (no movement ability: defenses unchanged)",
                n(state, actor)
            ),
        },
        Effect::Aloft => format!(
            "{} is flying: no close range attacks on him until his next turn",
            n(state, actor)
        ),
        Effect::Escaped => format!("{} escapes the encounter", n(state, actor)),
        Effect::Engaged => format!(
            "{} engages: +2 to close range attacks this turn, -2 agility until his next turn",
            n(state, actor)
        ),
        Effect::TookCover => format!(
            "{} takes cover: +2 agility, -2 to his rolls",
            n(state, actor)
        ),
        Effect::LeftCover => format!("{} leaves cover", n(state, actor)),
        Effect::Used { .. } => String::new(),
    }
}

pub(super) fn seat_label(state: &State, g: usize) -> String {
    state
        .groups
        .get(g)
        .map(|g| format!("{} ({})", g.seat, g.side))
        .unwrap_or_default()
}

/// Describe one event with every die, for the log ("Turns", "Rolls", "Hit
/// Points", the abilities).
pub fn describe(state: &State, event: &Event) -> String {
    match event {
        Event::TerrainChanged { terrain, present } => {
            format!(
                "terrain: {terrain} {}",
                if *present { "added" } else { "removed" }
            )
        }
        Event::Crafted {
            crafter,
            target,
            ability,
            hurry,
            usable,
        } => {
            let roll = hurry
                .as_ref()
                .map(|c| {
                    format!(
                        " in a hurry: d20 {} + craftsmanship {} = {} against 10: {}",
                        c.roll.value,
                        c.level,
                        c.total,
                        if c.success { "success" } else { "failure" }
                    )
                })
                .unwrap_or_default();
            format!(
                "{} gives {} a temporary +1 to {ability}{roll}{}",
                n(state, *crafter),
                n(state, *target),
                if *usable {
                    ""
                } else {
                    " (it cannot be used while in a hurry)"
                }
            )
        }
        Event::Rolled { character, check } => {
            let r = TargetRoll {
                target: *character,
                against: "difficulty".into(),
                check: check.clone(),
            };
            format!(
                "{} rolls: {}",
                n(state, *character),
                roll_text(state, &r, check.ability)
            )
        }
        Event::Uncrafted { target, ability } => format!(
            "the temporary bonus to {}'s {ability} is removed",
            n(state, *target)
        ),
        Event::InitiativeRolled { rolls, order } => {
            let mut s = String::from("initiative:");
            for r in rolls {
                s.push_str(&format!(
                    "\n    {}: d20 {}{}{} = {}{}",
                    seat_label(state, r.group),
                    r.roll.value,
                    if r.stealth > 0 {
                        format!(" + stealth {}", r.stealth)
                    } else {
                        String::new()
                    },
                    if r.detection > 0 {
                        format!(" + detection {}", r.detection)
                    } else {
                        String::new()
                    },
                    r.total,
                    if r.tie_breaks.is_empty() {
                        String::new()
                    } else {
                        format!(" (tie broken by {:?})", r.tie_breaks)
                    }
                ));
            }
            s.push_str(&format!(
                "\n    order: {}",
                order
                    .iter()
                    .map(|g| seat_label(state, *g))
                    .collect::<Vec<_>>()
                    .join(", then ")
            ));
            s
        }
        Event::TurnStarted { character } => {
            format!("round {}: {}'s turn", state.round, n(state, *character))
        }
        Event::Acted {
            actor,
            action,
            ability,
            rolls,
            effects,
            ..
        } => {
            if rolls.is_empty() {
                let lines: Vec<String> = effects
                    .iter()
                    .map(|e| effect_text(state, *actor, e))
                    .filter(|t| !t.is_empty())
                    .collect();
                if !lines.is_empty() {
                    return lines.join("\n    ");
                }
            }
            let mut s = format!("{} {}", n(state, *actor), verb(*action));
            for r in rolls {
                s.push_str(&format!("\n    {}", roll_text(state, r, *ability)));
            }
            for e in effects {
                let t = effect_text(state, *actor, e);
                if !t.is_empty() {
                    s.push_str(&format!("\n    {t}"));
                }
            }
            s
        }
        Event::TurnEnded { character } => {
            let mut s = format!("{}'s turn ends", n(state, *character));
            if state.phase == Phase::Over {
                s.push_str(&format!(
                    "; the encounter is over ({} still standing)",
                    state
                        .sides_standing()
                        .into_iter()
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            s
        }
        Event::Adjusted {
            character,
            value,
            from,
            to,
        } => {
            let mut s = format!(
                "The GM sets {}'s {value} to {to} (was {from})",
                n(state, *character)
            );
            if let Some(c) = state.get(*character) {
                s.push_str(&format!(", {}", c.hp_state(&state.rules)));
            }
            s
        }
        Event::Removed { character } => {
            let mut s = format!("The GM takes {} out of the encounter", n(state, *character));
            if state.phase == Phase::Over {
                s.push_str(&format!(
                    "; the encounter is over ({} still standing)",
                    state
                        .sides_standing()
                        .into_iter()
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            s
        }
        Event::Added {
            kind,
            group,
            character,
        } => {
            let mut s = format!("The GM adds {}", character.name());
            if !crate::state::names_match(kind, character.name()) {
                s.push_str(&format!(" ({kind})"));
            }
            s.push_str(&format!(
                " to {}'s initiative group, at {} hit points",
                seat_label(state, *group),
                character.level(Ability::Toughness)
            ));
            let minions: Vec<&str> = character.minions().iter().map(|m| m.name()).collect();
            if !minions.is_empty() {
                s.push_str(&format!(", with {}", minions.join(" and ")));
            }
            s
        }
        Event::EncounterEnded => format!(
            "The GM ends the encounter ({} still standing)",
            state
                .sides_standing()
                .into_iter()
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The status line: the roster with hit points and states, the phase, and in
/// the turns the odds of what each of the seat's characters may do now
/// ("Turns", "Rolls").
pub fn status(state: &State, seat: &Seat) -> String {
    let roster = state
        .characters
        .iter()
        .map(|c| {
            let d = c.base_defenses(&state.rules);
            let st = states_of(c);
            format!(
                "{} {}/{} {}{}",
                c.id,
                c.hit_points,
                d.max_hit_points,
                c.hp_state(&state.rules),
                if st.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", st.join(", "))
                }
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    match state.phase {
        Phase::Preparation => format!("before the encounter: roll `initiative` ({roster})"),
        Phase::Over => format!(
            "the encounter is over: {} standing ({roster})",
            state
                .sides_standing()
                .into_iter()
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Phase::Turns => {
            let g = state
                .current_group()
                .map(|g| seat_label(state, g))
                .unwrap_or_default();
            let mut s = format!("round {}, {g}'s turn ({roster})", state.round);
            for o in action_odds(state, seat) {
                let Some(c) = state.get(o.actor) else {
                    continue;
                };
                let odds: Vec<String> = o
                    .choices
                    .iter()
                    .map(|x| {
                        format!(
                            "{} {} {:.1}%{}",
                            x.verb,
                            x.roll.target,
                            x.roll.probability * 100.0,
                            damage_text(&x.roll.damage)
                        )
                    })
                    .collect();
                s.push_str(&format!(
                    "\n   {}{}: {}",
                    c.id,
                    if state.active == Some(o.actor) {
                        " (turn on)"
                    } else {
                        ""
                    },
                    if odds.is_empty() {
                        "no rolls".to_string()
                    } else {
                        odds.join(", ")
                    }
                ));
            }
            s
        }
    }
}
