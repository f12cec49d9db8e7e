//! `evolve`: each event applied to the state; never fails, events are facts
//! ("Turns", "Hit Points", "Basic Actions", the abilities).

use crate::character::Character;
use crate::event::{Effect, Event, Slot};
use crate::state::{Combatant, CraftBonus, Phase, State};

impl State {
    /// Apply one event. Never fails: events are facts.
    pub fn apply(&mut self, event: &Event) {
        match event {
            Event::TerrainChanged { terrain, present } => {
                if *present {
                    self.terrain.insert(*terrain);
                } else {
                    self.terrain.remove(terrain);
                }
            }
            Event::Crafted {
                crafter,
                target,
                ability,
                usable,
                ..
            } => {
                if let Some(c) = self.characters.get_mut(*target) {
                    c.bonuses.insert(
                        *ability,
                        CraftBonus {
                            crafter: *crafter,
                            usable: *usable,
                        },
                    );
                }
                self.full_before_the_encounter(*target);
            }
            Event::Rolled { .. } => {}
            Event::Uncrafted { target, ability } => {
                if let Some(c) = self.characters.get_mut(*target) {
                    c.bonuses.remove(ability);
                }
                self.full_before_the_encounter(*target);
            }
            Event::InitiativeRolled { rolls, order } => {
                // The encounter begins: every character at his maximum hit
                // points, temporary bonuses included ("Hit Points"; "Combat
                // Example": "hit points equal to his or her toughness").
                let rules = self.rules;
                for c in &mut self.characters {
                    c.hit_points = c.max_hit_points(&rules);
                }
                for r in rolls {
                    if let Some(g) = self.groups.get_mut(r.group) {
                        g.initiative = Some(r.total);
                    }
                }
                self.order = order.clone();
                self.phase = Phase::Turns;
                self.round = 1;
                self.group_turn = 0;
                self.advance();
                self.refresh_over();
            }
            Event::TurnStarted { character } => {
                if let Some(c) = self.characters.get_mut(*character) {
                    c.turns = c.turns.saturating_add(1);
                    c.regular_used = false;
                    c.bonus_used = false;
                    // Evading lasts until the next turn; the engage penalty until
                    // its beginning; a flyer is reachable again.
                    c.evading = None;
                    c.engaged_on_turn = None;
                    c.aloft = false;
                }
                self.active = Some(*character);
            }
            Event::Acted {
                actor,
                slot,
                effects,
                ..
            } => {
                if let Some(c) = self.characters.get_mut(*actor) {
                    match slot {
                        Slot::Regular => c.regular_used = true,
                        Slot::Bonus => c.bonus_used = true,
                        Slot::Free => {}
                    }
                }
                for e in effects {
                    self.apply_effect(*actor, e);
                }
                self.refresh_over();
            }
            Event::TurnEnded { character } => {
                if let Some(c) = self.characters.get_mut(*character) {
                    c.done_this_round = true;
                    let t = c.turns;
                    if c.delayed_through.is_some_and(|d| d <= t) {
                        c.delayed_through = None;
                    }
                    if c.panicked_through.is_some_and(|d| d <= t) {
                        c.panicked_through = None;
                    }
                    c.held_by.clear();
                }
                self.active = None;
                self.advance();
                self.refresh_over();
            }
            Event::Adjusted { .. }
            | Event::EncounterEnded
            | Event::Removed { .. }
            | Event::Added { .. } => self.apply_gm(event),
        }
    }

    /// The GM's tools: an `adjust` sets the value (at 0 hit points the
    /// character is incapacitated, "Hit Points"), a `remove` takes a character
    /// out as an escape does, an `end-encounter` ends the encounter.
    fn apply_gm(&mut self, event: &Event) {
        match event {
            Event::Adjusted {
                character,
                value: crate::gm::Value::HitPoints,
                to,
                ..
            } => {
                if let Some(c) = self.characters.get_mut(*character) {
                    c.hit_points = *to;
                }
                self.refresh_over();
                // Between turns, the group whose turn it is may have no one
                // left who can act: the turn passes on as after a turn's end.
                if self.active.is_none() {
                    self.advance();
                    self.refresh_over();
                }
            }
            Event::EncounterEnded => {
                self.phase = Phase::Over;
                self.active = None;
            }
            Event::Removed { character } => {
                if let Some(c) = self.characters.get_mut(*character) {
                    c.escaped = true;
                }
                self.refresh_over();
                if self.active.is_none() {
                    self.advance();
                    self.refresh_over();
                }
            }
            Event::Added {
                group, character, ..
            } => self.join(*group, character),
            _ => {}
        }
    }

    /// A newcomer joins group `group` with its minions, at full hit points
    /// (toughness, "Hit Points"), with a turn on each of its group's turns
    /// from now on (the GM's `add`, [`crate::gm::add`]).
    fn join(&mut self, group: usize, character: &Character) {
        if group >= self.groups.len() {
            return;
        }
        let leader = self.characters.len();
        let minions = character.minions().to_vec();
        let add = |c: Character, leader: Option<usize>, state: &mut State| {
            let i = state.characters.len();
            let mut joined = Combatant::new(c, group, leader);
            joined.added = true;
            state.characters.push(joined);
            if let Some(g) = state.groups.get_mut(group) {
                g.members.push(i);
            }
        };
        add(character.clone(), None, self);
        for m in minions {
            add(m, Some(leader), self);
        }
    }

    fn apply_effect(&mut self, actor: usize, effect: &Effect) {
        match effect {
            Effect::Damage {
                target, hit_points, ..
            }
            | Effect::HitPoints { target, hit_points } => {
                if let Some(c) = self.characters.get_mut(*target) {
                    c.hit_points = *hit_points;
                }
            }
            Effect::Delayed { target, through } => {
                if let Some(c) = self.characters.get_mut(*target) {
                    c.delayed_through =
                        Some(c.delayed_through.map_or(*through, |d| d.max(*through)));
                }
            }
            Effect::Panicked { target, through } => {
                if let Some(c) = self.characters.get_mut(*target) {
                    c.panicked_through =
                        Some(c.panicked_through.map_or(*through, |d| d.max(*through)));
                }
            }
            Effect::Held { target, by } => {
                if let Some(c) = self.characters.get_mut(*target) {
                    c.evading = None;
                    if !c.held_by.contains(by) {
                        c.held_by.push(*by);
                    }
                }
            }
            Effect::Evading { evading } => {
                if let Some(c) = self.characters.get_mut(actor) {
                    c.evading = Some(*evading);
                    c.evaded_on_turn = Some(c.turns);
                }
            }
            Effect::Aloft => {
                if let Some(c) = self.characters.get_mut(actor) {
                    c.aloft = true;
                }
            }
            Effect::Escaped => {
                if let Some(c) = self.characters.get_mut(actor) {
                    c.escaped = true;
                }
            }
            Effect::Engaged => {
                if let Some(c) = self.characters.get_mut(actor) {
                    c.engaged_on_turn = Some(c.turns);
                }
            }
            Effect::TookCover => {
                if let Some(c) = self.characters.get_mut(actor) {
                    c.in_cover = true;
                }
            }
            Effect::LeftCover => {
                if let Some(c) = self.characters.get_mut(actor) {
                    c.in_cover = false;
                }
            }
            Effect::Used { action, target } => {
                self.unrepeatable.insert((actor, *action, *target));
            }
        }
    }
}
