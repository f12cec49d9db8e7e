//! "What may this seat do now": the characters a seat may act with and every
//! command that is legal now, with its parameters ("Turns").

use std::collections::BTreeMap;

use tabula_core::{CommandSpec, ParamSpec, Seat};

use crate::abilities::{Ability, Terrain};
use crate::command::Action;
use crate::decide::{TurnNow, may_end, movement, plan};
use crate::state::{Phase, State};

/// The characters `seat` may act with now.
pub fn actors(state: &State, seat: &Seat) -> Vec<usize> {
    let Some(g) = state.current_group() else {
        return Vec::new();
    };
    let Some(group) = state.groups.get(g) else {
        return Vec::new();
    };
    if !crate::state::seats_match(&group.seat, seat) {
        return Vec::new();
    }
    match state.active {
        Some(a) => vec![a],
        None => group
            .members
            .iter()
            .copied()
            .filter(|m| state.may_start_turn(*m))
            .collect(),
    }
}

/// True when `i` is one of [`actors`] of `seat`, without building the list.
pub(crate) fn may_act(state: &State, seat: &Seat, i: usize) -> bool {
    let answer = may_act_now(state, seat, i);
    debug_assert_eq!(answer, actors(state, seat).contains(&i));
    answer
}

pub(super) fn may_act_now(state: &State, seat: &Seat, i: usize) -> bool {
    let Some(group) = state.current_group().and_then(|g| state.groups.get(g)) else {
        return false;
    };
    if !crate::state::seats_match(&group.seat, seat) {
        return false;
    }
    match state.active {
        Some(a) => a == i,
        None => group.members.contains(&i) && state.may_start_turn(i),
    }
}

/// Every action template (with the first legal target filled in later).
pub(super) fn templates(target: &str) -> Vec<Action> {
    let t = target.to_string();
    vec![
        Action::Attack {
            target: t.clone(),
            with: None,
        },
        Action::Throw { target: t.clone() },
        Action::Hold {
            target: t.clone(),
            with: None,
        },
        Action::Distract {
            target: t.clone(),
            with: None,
        },
        Action::Shoot { target: t.clone() },
        Action::Blast {
            targets: vec![t.clone()],
        },
        Action::Knockout { target: t.clone() },
        Action::Fight {
            targets: vec![t.clone()],
        },
        Action::Surprise {
            target: t.clone(),
            with: None,
        },
        Action::Intimidate { target: t.clone() },
        Action::Heal { target: t },
    ]
}

pub(super) fn word(action: &Action) -> &'static str {
    match action {
        Action::Attack { .. } => "attack",
        Action::Throw { .. } => "throw",
        Action::Hold { .. } => "hold",
        Action::Distract { .. } => "distract",
        Action::Evade { .. } => "evade",
        Action::Escape => "escape",
        Action::Engage => "engage",
        Action::TakeCover => "cover",
        Action::LeaveCover => "leave-cover",
        Action::Shoot { .. } => "shoot",
        Action::Blast { .. } => "blast",
        Action::Knockout { .. } => "knockout",
        Action::Fight { .. } => "fight",
        Action::Surprise { .. } => "surprise",
        Action::Intimidate { .. } => "intimidate",
        Action::Heal { .. } => "heal",
        Action::End => "end",
    }
}

/// What `seat` may do now, with parameters (targets that are legal now).
pub fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
    let mut out = Vec::new();
    if seat.is_gm() && !state.characters.is_empty() {
        out.push(CommandSpec::new(
            "roll",
            "call for a roll: d20 + the ability against a difficulty (\"Rolls\"); add `requires` when the roll needs the ability",
            vec![
                ParamSpec::choice("character", state.characters.iter().map(|c| c.id.clone())),
                // `roll CHARACTER [ABILITY] DIFFICULTY`: the ability may be left out.
                ParamSpec::choice("ability", Ability::ALL.iter().map(|a| a.name())).optional(),
                ParamSpec::int("difficulty", -crate::rolls::MAX_NUMBER, crate::rolls::MAX_NUMBER),
            ],
        ));
    }
    match state.phase {
        Phase::Preparation => {
            if seat.is_gm() {
                out.push(CommandSpec::new(
                    "initiative",
                    "roll initiative for every group (\"Turns\")",
                    vec![],
                ));
            }
            let ids: Vec<String> = state.characters.iter().map(|c| c.id.clone()).collect();
            let crafters: Vec<String> = state
                .characters
                .iter()
                .enumerate()
                .filter(|(i, c)| {
                    c.character.has(Ability::Craftsmanship) && state.controls(seat, *i)
                })
                .map(|(_, c)| c.id.clone())
                .collect();
            if !crafters.is_empty() {
                out.push(CommandSpec::new(
                    "craft",
                    "give a companion a temporary +1 bonus (\"Support Abilities\"); add `hurry` for a roll of 10",
                    vec![
                        ParamSpec::choice("crafter", crafters.clone()),
                        ParamSpec::choice("companion", ids.clone()),
                        ParamSpec::choice("ability", Ability::ALL.iter().map(|a| a.name())),
                    ],
                ));
                out.push(CommandSpec::new(
                    "uncraft",
                    "remove a temporary bonus",
                    vec![
                        ParamSpec::choice("crafter", crafters),
                        ParamSpec::choice("companion", ids),
                        ParamSpec::choice("ability", Ability::ALL.iter().map(|a| a.name())),
                    ],
                ));
            }
        }
        Phase::Turns => {
            for a in actors(state, seat) {
                let Some(c) = state.get(a) else { continue };
                let s = state;
                let now = TurnNow::of(state, a);
                let mut by_word: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
                for t in &s.characters {
                    for tpl in templates(&t.id) {
                        if plan(s, a, now, &tpl).is_ok() {
                            by_word.entry(word(&tpl)).or_default().push(t.id.clone());
                        }
                    }
                }
                for (w, targets) in by_word {
                    let mut params = vec![ParamSpec::choice("target", targets)];
                    if matches!(w, "attack" | "hold" | "distract" | "surprise") {
                        // `[with ABILITY]`, optional.
                        params.push(
                            ParamSpec::choice("with", Ability::ALL.iter().map(|a| a.name()))
                                .keyword("with"),
                        );
                    }
                    out.push(CommandSpec::new(&format!("{} {w}", c.id), w, params));
                }
                for (tpl, summary) in [
                    (
                        Action::Evade { with: None },
                        "evade: add a movement ability to agility and strength until the next turn",
                    ),
                    (Action::Escape, "escape the encounter (evaded last turn)"),
                    (
                        Action::Engage,
                        "bonus: +2 to close range attacks this turn, -2 agility until the next",
                    ),
                    (
                        Action::TakeCover,
                        "bonus: take cover, +2 agility, -2 to rolls",
                    ),
                    (Action::LeaveCover, "leave cover (free)"),
                ] {
                    if plan(s, a, now, &tpl).is_ok() {
                        let params = if matches!(tpl, Action::Evade { .. }) {
                            // `evade [[with] ABILITY]`: the movement ability may be left out.
                            vec![
                                ParamSpec::choice("with", movement(s).iter().map(|m| m.name()))
                                    .keyword("with"),
                            ]
                        } else {
                            vec![]
                        };
                        out.push(CommandSpec::new(
                            &format!("{} {}", c.id, word(&tpl)),
                            summary,
                            params,
                        ));
                    }
                }
                if may_end(s, a, now).is_err() {
                    continue;
                }
                out.push(CommandSpec::new(
                    &format!("{} end", c.id),
                    "end the turn (do nothing more)",
                    vec![],
                ));
            }
            if seat.is_gm() {
                out.push(CommandSpec::new(
                    "terrain",
                    "add or remove a terrain",
                    vec![
                        ParamSpec::choice("change", ["add", "remove"]),
                        ParamSpec::choice("terrain", Terrain::ALL.iter().map(|t| t.name())),
                    ],
                ));
            }
        }
        Phase::Over => {}
    }
    crate::gm::legal(state, seat, &mut out);
    out
}
