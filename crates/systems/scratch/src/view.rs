//! What every seat sees of the table ([`View`]): Scratch RPS hides nothing.

use serde::Serialize;

use crate::abilities::Terrain;
use crate::character::HitPointState;
use crate::state::{Combatant, Phase, State};

/// One character as every seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CharacterView {
    /// The id typed in commands.
    pub id: String,
    /// The name.
    pub name: String,
    /// The controlling seat.
    pub seat: String,
    /// The side.
    pub side: String,
    /// Hit points now.
    pub hit_points: u32,
    /// Maximum hit points.
    pub max_hit_points: u32,
    /// Stamina.
    pub stamina: u32,
    /// Healthy, injured, incapacitated.
    pub state: HitPointState,
    /// Agility now (states included).
    pub agility: i64,
    /// Intelligence now.
    pub intelligence: i64,
    /// Strength now.
    pub strength: i64,
    /// Every state it is in: delayed, panicked, evading, in cover, engaged,
    /// flying, escaped.
    pub states: Vec<String>,
    /// The leader's id, for a minion.
    pub minion_of: Option<String>,
}

/// What a seat sees: everything (Scratch RPS hides nothing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// Preparation, turns, over.
    pub phase: Phase,
    /// The round.
    pub round: u32,
    /// The seat whose group's turn it is.
    pub turn_of: Option<String>,
    /// The character whose turn is on.
    pub active: Option<String>,
    /// The terrain.
    pub terrain: Vec<Terrain>,
    /// Cover available.
    pub cover: bool,
    /// Throwable objects available.
    pub throwable_objects: bool,
    /// Every character.
    pub characters: Vec<CharacterView>,
}

pub(crate) fn states_of(c: &Combatant) -> Vec<String> {
    let mut v = Vec::new();
    if c.delayed() {
        v.push("delayed".into());
    }
    if c.panicked() {
        v.push("panicked".into());
    }
    if let Some(e) = c.evading {
        v.push(match e.ability {
            Some(a) => format!("evading (+{} {a})", e.level),
            None => "evading".into(),
        });
    }
    if !c.held_by.is_empty() {
        v.push("held".into());
    }
    if c.in_cover {
        v.push("in cover".into());
    }
    if c.engaged_on_turn.is_some() {
        v.push("engaged".into());
    }
    if c.aloft {
        v.push("flying".into());
    }
    if c.escaped {
        v.push("escaped".into());
    }
    for (a, b) in &c.bonuses {
        v.push(format!(
            "+1 {a}{}",
            if b.usable {
                ""
            } else {
                " (not usable in a hurry)"
            }
        ));
    }
    v
}

/// The view of `state` (the same for every seat).
pub fn view_of(state: &State) -> View {
    View {
        phase: state.phase,
        round: state.round,
        turn_of: state
            .current_group()
            .and_then(|g| state.groups.get(g))
            .map(|g| g.seat.to_string()),
        active: state
            .active
            .and_then(|a| state.get(a))
            .map(|c| c.id.clone()),
        terrain: state.terrain.iter().copied().collect(),
        cover: state.cover,
        throwable_objects: state.throwable_objects,
        characters: state
            .characters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let d = c.base_defenses(&state.rules);
                CharacterView {
                    id: c.id.clone(),
                    name: c.character.name().into(),
                    seat: state.seat_of(i).map(|s| s.to_string()).unwrap_or_default(),
                    side: state.side_of(i).unwrap_or_default().into(),
                    hit_points: c.hit_points,
                    max_hit_points: d.max_hit_points,
                    stamina: d.stamina,
                    state: c.hp_state(&state.rules),
                    agility: state.agility(i),
                    intelligence: state.intelligence(i),
                    strength: state.strength(i),
                    states: states_of(c),
                    minion_of: c.leader.and_then(|l| state.get(l)).map(|l| l.id.clone()),
                }
            })
            .collect(),
    }
}
