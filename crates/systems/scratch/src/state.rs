//! Encounters: initiative groups, turns, hit points and states ("Turns", "Hit
//! Points", "Basic Actions", the abilities). The state; its events are in
//! [`crate::event`], `evolve` in [`crate::evolve`], the commands in
//! [`crate::command`] and `decide` in [`crate::decide`].

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

use crate::abilities::{Ability, Terrain};
use crate::character::{Character, Defenses, HitPointState};
use crate::rules::TableRules;
use tabula_core::Seat;
use tabula_core::names::same_name;

use crate::event::Unrepeatable;

/// [`same_name`] without allocating for plain names (ASCII letters, digits
/// and `-`, as every id is): the same answer for every pair of names.
pub(crate) fn names_match(a: &str, b: &str) -> bool {
    if a.eq_ignore_ascii_case(b) {
        // Equal but for ASCII case: equal once normalized.
        return true;
    }
    let plain =
        |x: &str| !x.is_empty() && x.bytes().all(|ch| ch.is_ascii_alphanumeric() || ch == b'-');
    if plain(a) && plain(b) {
        // Normalizing a plain name only lowers its case.
        return false;
    }
    same_name(a, b)
}

/// [`Seat::same_seat`] without allocating for plain seat names: the same
/// answer for every pair of seats.
pub(crate) fn seats_match(a: &Seat, b: &Seat) -> bool {
    match (a, b) {
        (Seat::Gm, Seat::Gm) => true,
        (Seat::Player(x), Seat::Player(y)) => names_match(x, y),
        _ => false,
    }
}

/// Where the encounter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Before initiative: companions may add or remove craftsmanship bonuses.
    Preparation,
    /// Initiative groups take turns.
    Turns,
    /// At most one side has characters who can still act.
    Over,
}

/// One initiative group: the characters one person controls ("Turns").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// The controlling seat.
    pub seat: Seat,
    /// The side it fights on (groups on one side are companions).
    pub side: String,
    /// Indices of its characters in [`State::characters`].
    pub members: Vec<usize>,
    /// Its initiative total, once rolled.
    pub initiative: Option<i64>,
}

/// A temporary craftsmanship bonus on one ability ("Support Abilities").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CraftBonus {
    /// The crafter's index.
    pub crafter: usize,
    /// False when it was added in a hurry and the roll failed: it cannot be used.
    pub usable: bool,
}

/// How a character is evading ("Basic Actions", evade).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evading {
    /// The movement ability added, if any.
    pub ability: Option<Ability>,
    /// The level added to agility and strength.
    pub level: u32,
}

/// One character in the encounter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combatant {
    /// The character.
    pub character: Character,
    /// The id typed in commands.
    pub id: String,
    /// Its initiative group.
    pub group: usize,
    /// Its leader, when it is a minion ("Support Abilities", command).
    pub leader: Option<usize>,
    /// Hit points, 0..=toughness.
    pub hit_points: u32,
    /// Turns it has started.
    pub turns: u32,
    /// True once it has had its turn this round.
    pub done_this_round: bool,
    /// Its regular action this turn is used.
    pub regular_used: bool,
    /// Its bonus action this turn is used.
    pub bonus_used: bool,
    /// Delayed until the end of this turn number (of its own turns).
    pub delayed_through: Option<u32>,
    /// Panicked until the end of this turn number.
    pub panicked_through: Option<u32>,
    /// Evading until its next turn or until held.
    pub evading: Option<Evading>,
    /// The turn number on which it last evaded (escape needs the last one).
    pub evaded_on_turn: Option<u32>,
    /// The turn number on which it engaged (+2 close attacks that turn, -2
    /// agility until its next turn begins).
    pub engaged_on_turn: Option<u32>,
    /// In cover (+2 agility, -2 to rolls).
    pub in_cover: bool,
    /// A flying character that evaded or attacked at long range: no close
    /// attacks against it until its next turn, unless the attacker flies.
    pub aloft: bool,
    /// Escaped: no actions, cannot be attacked.
    pub escaped: bool,
    /// Characters who held it successfully since its last turn.
    pub held_by: Vec<usize>,
    /// Temporary craftsmanship bonuses on its abilities.
    pub bonuses: BTreeMap<Ability, CraftBonus>,
    /// Brought in mid-encounter by the GM's `add`: a guest, whose sheet the
    /// encounter does not write back to a campaign (a copy or a bundled sheet
    /// never overwrites a campaign character of the same name). GM tools,
    /// docs/systems/scratch.md.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub added: bool,
}

impl Combatant {
    /// A combatant at full hit points.
    pub fn new(character: Character, group: usize, leader: Option<usize>) -> Self {
        let max = character.level(Ability::Toughness);
        Combatant {
            id: character.id().to_string(),
            character,
            group,
            leader,
            hit_points: max,
            turns: 0,
            done_this_round: false,
            regular_used: false,
            bonus_used: false,
            delayed_through: None,
            panicked_through: None,
            evading: None,
            evaded_on_turn: None,
            engaged_on_turn: None,
            in_cover: false,
            aloft: false,
            escaped: false,
            held_by: Vec::new(),
            bonuses: BTreeMap::new(),
            added: false,
        }
    }

    /// The level of `ability` with a usable temporary bonus added: every use of
    /// the level (rolls, the defenses and hit points it feeds, initiative) sees
    /// the bonus.
    ///
    /// "Support Abilities" (craftsmanship) (001_337b5a42e331e513.txt).
    pub fn level(&self, ability: Ability) -> u32 {
        let base = self.character.level(ability);
        match self.bonuses.get(&ability) {
            Some(b) if b.usable && base > 0 => base.saturating_add(1),
            _ => base,
        }
    }

    /// True when it has at least one level of `ability`.
    pub fn has(&self, ability: Ability) -> bool {
        self.level(ability) > 0
    }

    /// Defenses and hit points from its levels (bonuses included), before
    /// states.
    pub fn base_defenses(&self, rules: &TableRules) -> Defenses {
        Defenses::from_levels(|a| self.level(a), rules.strength_base)
    }

    /// Maximum hit points: toughness, a usable temporary bonus included
    /// ("Hit Points", "Toughness", "Support Abilities": craftsmanship).
    pub fn max_hit_points(&self, rules: &TableRules) -> u32 {
        self.base_defenses(rules).max_hit_points
    }

    /// Healthy, injured or incapacitated ("Hit Points").
    pub fn hp_state(&self, rules: &TableRules) -> HitPointState {
        HitPointState::of(self.hit_points, self.base_defenses(rules).stamina)
    }

    /// Agility now from its defenses `base` ([`Combatant::base_defenses`]),
    /// with the evading level added, 2 more in cover, 2 less engaged, and its
    /// swimming when the terrain is `in_water`. [`State::agility`] is this.
    ///
    /// "Defenses", "Basic Actions", "Movement Abilities" (001_337b5a42e331e513.txt).
    pub fn agility_now(&self, base: &Defenses, in_water: bool) -> i64 {
        let mut a = i64::from(base.agility);
        if let Some(e) = self.evading {
            a += i64::from(e.level);
        }
        if self.in_cover {
            a += 2;
        }
        if self.engaged_on_turn.is_some() {
            a -= 2;
        }
        if in_water {
            a += i64::from(self.level(Ability::Swimming));
        }
        a
    }

    /// Strength now from its defenses `base`, with the evading level added.
    /// [`State::strength`] is this.
    ///
    /// "Defenses", "Basic Actions" (evade); R-SCR-1.
    pub fn strength_now(&self, base: &Defenses) -> i64 {
        let mut s = i64::from(base.strength);
        if let Some(e) = self.evading {
            s += i64::from(e.level);
        }
        s
    }

    /// Delayed ("Basic Actions", hold and distract).
    pub fn delayed(&self) -> bool {
        self.delayed_through.is_some()
    }

    /// Panicked ("Stalking Abilities", surprise).
    pub fn panicked(&self) -> bool {
        self.panicked_through.is_some()
    }

    /// Still in the encounter and not incapacitated: it has turns.
    pub fn takes_turns(&self) -> bool {
        !self.escaped && self.hit_points > 0
    }
}

/// Everything on the table: the rules, the terrain, the characters and the
/// turn structure. Nothing in Scratch RPS is hidden, so every seat sees it all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The table's options.
    pub rules: TableRules,
    /// The terrain of the encounter ("Movement Abilities").
    pub terrain: BTreeSet<Terrain>,
    /// There is cover to take ("Basic Actions", take cover).
    pub cover: bool,
    /// Dangerous throwable objects are at hand ("Basic Actions", throw object).
    pub throwable_objects: bool,
    /// Every character; indices are stable.
    pub characters: Vec<Combatant>,
    /// The initiative groups, in table order.
    pub groups: Vec<Group>,
    /// Where the encounter is.
    pub phase: Phase,
    /// The round, from 1 once initiative is rolled.
    pub round: u32,
    /// Group indices, highest initiative first.
    pub order: Vec<usize>,
    /// The position in `order` of the group whose turn it is.
    pub group_turn: usize,
    /// The character whose turn is on.
    pub active: Option<usize>,
    /// Unrepeatable actions used: (actor, action, target).
    pub unrepeatable: BTreeSet<(usize, Unrepeatable, usize)>,
}

impl State {
    /// The combatant at `i`, if any.
    pub fn get(&self, i: usize) -> Option<&Combatant> {
        self.characters.get(i)
    }

    /// The index of the character with this id, or else this name, without
    /// regard to case.
    pub fn find(&self, id: &str) -> Option<usize> {
        self.characters
            .iter()
            .position(|c| c.id == id || names_match(&c.id, id))
            .or_else(|| {
                self.characters
                    .iter()
                    .position(|c| names_match(c.character.name(), id))
            })
    }

    /// Every character id, comma-separated (the valid choices in a refusal).
    pub fn ids(&self) -> String {
        self.characters
            .iter()
            .map(|c| c.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// True when character `i` is controlled by `seat` (seat names compare
    /// without regard to case). "Turns": each person's initiative group holds
    /// the characters that person controls.
    pub fn controls(&self, seat: &Seat, i: usize) -> bool {
        self.seat_of(i).is_some_and(|s| seats_match(s, seat))
    }

    /// True when `seat` controls an initiative group at this table.
    pub fn has_group(&self, seat: &Seat) -> bool {
        self.groups.iter().any(|g| seats_match(&g.seat, seat))
    }

    /// The group whose turn it is.
    pub fn current_group(&self) -> Option<usize> {
        if self.phase != Phase::Turns {
            return None;
        }
        self.order.get(self.group_turn).copied()
    }

    /// The seat of character `i`.
    pub fn seat_of(&self, i: usize) -> Option<&Seat> {
        let c = self.get(i)?;
        self.groups.get(c.group).map(|g| &g.seat)
    }

    /// The side of character `i`.
    pub fn side_of(&self, i: usize) -> Option<&str> {
        let c = self.get(i)?;
        self.groups.get(c.group).map(|g| g.side.as_str())
    }

    /// True when the terrain holds water or deep water.
    pub fn in_water(&self) -> bool {
        self.terrain.contains(&Terrain::Water) || self.terrain.contains(&Terrain::DeepWater)
    }

    /// True when `ability` is a movement ability usable in this terrain
    /// ("Movement Abilities").
    pub fn terrain_allows(&self, ability: Ability) -> bool {
        match ability.terrain() {
            Some(Terrain::Water) => self.in_water(),
            Some(t) => self.terrain.contains(&t),
            None => false,
        }
    }

    /// True when character `i` can fly here (has flying and room to fly).
    pub fn can_fly(&self, i: usize) -> bool {
        self.get(i)
            .is_some_and(|c| c.has(Ability::Flying) && self.terrain.contains(&Terrain::RoomToFly))
    }

    /// True when character `target` swims away from an attack by `attacker`
    /// at long range (`long`), or from an attacker who cannot swim: it is
    /// evading by swimming in deep water. "Movement Abilities"
    /// (001_337b5a42e331e513.txt).
    pub fn swims_away(&self, attacker: usize, target: usize, long: bool) -> bool {
        let evading_in_water = self.get(target).is_some_and(|tc| {
            tc.evading
                .is_some_and(|e| e.ability == Some(Ability::Swimming))
                && self.terrain.contains(&Terrain::DeepWater)
        });
        evading_in_water && (long || !self.get(attacker).is_some_and(|c| c.has(Ability::Swimming)))
    }

    /// Agility now: 10 + the best of stealth, acrobatics, quickness, flying; +
    /// the evading level; +2 in cover; -2 engaged; + swimming in water.
    ///
    /// "Defenses", "Basic Actions", "Movement Abilities" (001_337b5a42e331e513.txt).
    pub fn agility(&self, i: usize) -> i64 {
        let Some(c) = self.get(i) else { return 10 };
        c.agility_now(&c.base_defenses(&self.rules), self.in_water())
    }

    /// Strength now: the derived strength + the evading level.
    ///
    /// "Defenses", "Basic Actions" (evade); R-SCR-1.
    pub fn strength(&self, i: usize) -> i64 {
        let Some(c) = self.get(i) else { return 10 };
        c.strength_now(&c.base_defenses(&self.rules))
    }

    /// Intelligence now ("Defenses"; R-SCR-2).
    pub fn intelligence(&self, i: usize) -> i64 {
        self.get(i)
            .map(|c| i64::from(c.base_defenses(&self.rules).intelligence))
            .unwrap_or(10)
    }

    /// The sides that still have a character who can act.
    pub fn sides_standing(&self) -> BTreeSet<&str> {
        self.characters
            .iter()
            .enumerate()
            .filter(|(_, c)| c.takes_turns())
            .filter_map(|(i, _)| self.side_of(i))
            .collect()
    }

    /// True when character `i` may still start a turn this round.
    pub fn may_start_turn(&self, i: usize) -> bool {
        self.get(i)
            .is_some_and(|c| c.takes_turns() && !c.done_this_round)
    }

    fn group_has_turns_left(&self, g: usize) -> bool {
        self.groups
            .get(g)
            .is_some_and(|grp| grp.members.iter().any(|m| self.may_start_turn(*m)))
    }

    /// Move to the next group (and round) with a character who may act.
    pub(crate) fn advance(&mut self) {
        if self.phase != Phase::Turns {
            return;
        }
        let steps = self.order.len() * 2 + 2;
        for _ in 0..steps {
            if let Some(g) = self.current_group()
                && self.group_has_turns_left(g)
            {
                return;
            }
            self.group_turn += 1;
            if self.group_turn >= self.order.len() {
                self.group_turn = 0;
                self.round += 1;
                for c in &mut self.characters {
                    c.done_this_round = false;
                }
            }
        }
        self.phase = Phase::Over;
    }

    /// Before the encounter a temporary bonus (or its removal) changes the
    /// maximum hit points it feeds, and the character stays at full hit points.
    ///
    /// "Support Abilities" (craftsmanship), "Hit Points" (001_337b5a42e331e513.txt).
    pub(crate) fn full_before_the_encounter(&mut self, i: usize) {
        if self.phase != Phase::Preparation {
            return;
        }
        let rules = self.rules;
        if let Some(c) = self.characters.get_mut(i) {
            c.hit_points = c.max_hit_points(&rules);
        }
    }

    /// True when at most one side has a character who can act: the
    /// [`State::sides_standing`] count, without building the set.
    fn at_most_one_side_standing(&self) -> bool {
        let mut first: Option<&str> = None;
        for (i, c) in self.characters.iter().enumerate() {
            if !c.takes_turns() {
                continue;
            }
            let Some(side) = self.side_of(i) else {
                continue;
            };
            match first {
                None => first = Some(side),
                Some(f) if f != side => return false,
                Some(_) => {}
            }
        }
        true
    }

    pub(crate) fn refresh_over(&mut self) {
        debug_assert_eq!(
            self.at_most_one_side_standing(),
            self.sides_standing().len() <= 1
        );
        if self.phase == Phase::Turns && self.at_most_one_side_standing() {
            self.phase = Phase::Over;
            self.active = None;
        }
    }
}
