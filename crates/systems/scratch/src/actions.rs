//! The commands of an encounter and `decide`: every basic action and ability
//! action, checked against the rules, then rolled.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use tabula_core::{CommandSpec, ParamSpec, Refusal, Roller, RuleError, Seat};

use crate::abilities::{Ability, Terrain};
use crate::character::HitPointState;
use crate::encounter::{
    ActionKind, Effect, Evading, Event, InitiativeRoll, Phase, Slot, State, TargetRoll,
    Unrepeatable,
};
use crate::rolls::{Check, roll_d20_for};
use crate::rules::{self, MAX_TIE_ROLLS};

/// A command a seat gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Command {
    /// Roll initiative for every group and begin the turns ("Turns").
    Initiative,
    /// The GM adds or removes a terrain ("Movement Abilities").
    Terrain {
        /// Which terrain.
        terrain: Terrain,
        /// Add (true) or remove.
        present: bool,
    },
    /// Give a companion a temporary +1 bonus, before the encounter ("Support
    /// Abilities", craftsmanship).
    Craft {
        /// The crafter's id.
        crafter: String,
        /// The companion's id.
        target: String,
        /// The ability (already at least level 1).
        ability: Ability,
        /// In a hurry: a craftsmanship roll of 10.
        hurry: bool,
    },
    /// Remove a temporary bonus the crafter gave, before the encounter.
    Uncraft {
        /// The crafter's id.
        crafter: String,
        /// The companion's id.
        target: String,
        /// The ability.
        ability: Ability,
    },
    /// The GM calls for a roll outside the actions: d20 + the ability's level
    /// (none: no ability) against a difficulty ("Rolls"). Takes no action.
    Roll {
        /// The character's id.
        character: String,
        /// The ability added, if any.
        ability: Option<Ability>,
        /// The difficulty, -1000..=1000.
        difficulty: i64,
        /// The roll requires the ability: refused without a level of it.
        requires: bool,
    },
    /// The GM sets or changes a character's hit points (`adjust CHARACTER
    /// VALUE AMOUNT`).
    ///
    /// "Hit Points" (001_337b5a42e331e513.txt); issue 27, item 6.
    Adjust {
        /// The character's id.
        character: String,
        /// The value.
        value: crate::gm::Value,
        /// `N`, `+N` or `-N`.
        amount: crate::gm::Amount,
    },
    /// The GM ends the encounter now.
    ///
    /// "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
    EndEncounter,
    /// The GM takes a character out of the encounter (`remove CHARACTER`).
    ///
    /// "Basic Actions", "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
    Remove {
        /// The character's id.
        character: String,
    },
    /// The GM adds a character to the encounter (`add KIND [as NAME] [to
    /// SEAT]`, [`crate::gm::add`]).
    ///
    /// "Turns", "Hit Points", "Abilities" (001_337b5a42e331e513.txt); R-SCR-7;
    /// issue 27, item 6.
    Add {
        /// The kind: a character at the table or a bundled sheet, by name.
        kind: String,
        /// The newcomer's name (default the kind's).
        name: Option<String>,
        /// The seat whose initiative group it joins (default the GM's).
        to: Option<String>,
    },
    /// A character acts on its turn (starting its turn if it has not begun).
    Act {
        /// The character's id.
        actor: String,
        /// What it does.
        action: Action,
    },
}

/// What a character does on its turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// Basic attack: close range normal attack, 1 damage ("Basic Actions").
    Attack {
        /// The target's id.
        target: String,
        /// Fighting, wrestling or knockout to add (R-SCR-5: default the highest).
        with: Option<Ability>,
    },
    /// Throw object: long range normal attack, 1 damage; needs a throwable object.
    Throw {
        /// The target's id.
        target: String,
    },
    /// Hold: close range force attack against strength; delays, stops evading.
    Hold {
        /// The target's id.
        target: String,
        /// Wrestling, detection or a movement ability in its terrain.
        with: Option<Ability>,
    },
    /// Distract: unrepeatable close range psychic attack; delays.
    Distract {
        /// The target's id.
        target: String,
        /// A movement ability in its terrain.
        with: Option<Ability>,
    },
    /// Evade: add a movement ability to agility and strength until the next turn.
    Evade {
        /// The movement ability (R-SCR-5: default the highest usable).
        with: Option<Ability>,
    },
    /// Escape: leave the encounter; needs an evade on the last turn.
    Escape,
    /// Engage (bonus): +2 close attacks this turn, -2 agility until the next.
    Engage,
    /// Take cover (bonus): +2 agility, -2 to rolls.
    TakeCover,
    /// Leave cover (free).
    LeaveCover,
    /// Shooting: long range, 2 damage (5 automatic, R-SCR-3).
    Shoot {
        /// The target's id.
        target: String,
    },
    /// Blasting: up to three different targets, 1 damage each.
    Blast {
        /// One to three different target ids.
        targets: Vec<String>,
    },
    /// Knockout: close range, 4 damage healthy / 2 injured; delays oneself.
    Knockout {
        /// The target's id.
        target: String,
    },
    /// Fighting: two basic attacks when healthy (one when injured).
    Fight {
        /// One or two target ids (one id: both attacks at it).
        targets: Vec<String>,
    },
    /// Surprise: unrepeatable long range psychic attack with stealth or detection;
    /// panics.
    Surprise {
        /// The target's id.
        target: String,
        /// Stealth or detection (R-SCR-5: default the highest).
        with: Option<Ability>,
    },
    /// Intimidate: unrepeatable long range psychic attack with command; panics.
    Intimidate {
        /// The target's id.
        target: String,
    },
    /// Healing: revive an incapacitated character or heal an injured one.
    Heal {
        /// The target's id.
        target: String,
    },
    /// Do nothing more: end the turn.
    End,
}

/// What a successful roll does to its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnSuccess {
    Delay,
    Panic,
    Held,
    SetHp(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct PlannedRoll {
    target: usize,
    against: &'static str,
    level: u32,
    modifier: i64,
    difficulty: i64,
    normal: u32,
    automatic: u32,
    on_success: Vec<OnSuccess>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Plan {
    kind: ActionKind,
    slot: Slot,
    ability: Option<Ability>,
    rolls: Vec<PlannedRoll>,
    effects: Vec<Effect>,
    after: Vec<Effect>,
}

/// The chance of a planned roll, for "what may this seat do now".
#[derive(Clone, Debug, PartialEq)]
pub struct RollPreview {
    /// The target's id.
    pub target: String,
    /// The chance of success.
    pub probability: f64,
    /// The chance of each total damage this action deals to this target (all
    /// its rolls at the target together), damage ascending.
    pub damage: Vec<(i64, f64)>,
}

use crate::rolls::Range;

fn refuse(rule: tabula_core::Rule, msg: impl Into<String>) -> RuleError {
    RuleError::forbidden(rule, msg)
}

fn find(state: &State, id: &str) -> Result<usize, RuleError> {
    state.find(id).ok_or_else(|| unknown_character(state, id))
}

/// An unknown character name, refused with the valid choices (every
/// character's id).
pub fn unknown_character(state: &State, id: &str) -> RuleError {
    RuleError::unknown_among(
        rules::TABLE,
        "character",
        id,
        state.characters.iter().map(|c| c.id.as_str()),
    )
}

fn name(state: &State, i: usize) -> String {
    state
        .get(i)
        .map(|c| c.character.name().to_string())
        .unwrap_or_default()
}

/// Check `command` from `seat` and produce its events.
///
/// # Errors
/// A [`RuleError`] naming the rule that refuses it; nothing changes.
pub fn decide(
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    match command {
        Command::Initiative => initiative(state, seat, roller),
        Command::Terrain { terrain, present } => {
            if !seat.is_gm() {
                return Err(RuleError::new(
                    rules::MOVEMENT_ABILITIES,
                    Refusal::NotPermitted,
                    "only the GM changes the terrain",
                ));
            }
            if state.phase == Phase::Over {
                return Err(RuleError::new(
                    rules::TURNS,
                    Refusal::WrongPhase,
                    "the encounter is over",
                ));
            }
            if state.terrain.contains(terrain) == *present {
                return Err(refuse(
                    rules::MOVEMENT_ABILITIES,
                    format!(
                        "{terrain} is already {}",
                        if *present { "there" } else { "absent" }
                    ),
                ));
            }
            Ok(vec![Event::TerrainChanged {
                terrain: *terrain,
                present: *present,
            }])
        }
        Command::Craft {
            crafter,
            target,
            ability,
            hurry,
        } => craft(state, seat, crafter, target, *ability, *hurry, roller),
        Command::Uncraft {
            crafter,
            target,
            ability,
        } => {
            let (c, t) = craft_parties(state, seat, crafter, target)?;
            match state.get(t).and_then(|x| x.bonuses.get(ability)) {
                Some(b) if b.crafter == c => Ok(vec![Event::Uncrafted {
                    target: t,
                    ability: *ability,
                }]),
                _ => Err(refuse(
                    rules::SUPPORT_ABILITIES,
                    format!(
                        "{} gave {} no bonus to {ability}",
                        name(state, c),
                        name(state, t)
                    ),
                )),
            }
        }
        Command::Act { actor, action } => act(state, seat, actor, action, roller),
        Command::Adjust {
            character,
            value,
            amount,
        } => crate::gm::adjust(state, seat, character, *value, *amount),
        Command::EndEncounter => crate::gm::end_encounter(state, seat),
        Command::Remove { character } => crate::gm::remove(state, seat, character),
        Command::Add { kind, name, to } => {
            crate::gm::add(state, seat, kind, name.as_deref(), to.as_deref())
        }
        Command::Roll {
            character,
            ability,
            difficulty,
            requires,
        } => {
            if !seat.is_gm() {
                return Err(RuleError::new(
                    rules::ROLLS,
                    Refusal::NotPermitted,
                    "only the GM calls for a roll outside the actions",
                ));
            }
            crate::rolls::check_inputs(0, *difficulty, 0)?;
            let i = find(state, character)?;
            let Some(c) = state.get(i) else {
                return Err(unknown_character(state, character));
            };
            let level = ability.map(|a| c.level(a)).unwrap_or(0);
            if *requires && level == 0 {
                return Err(refuse(
                    rules::ROLLS,
                    format!(
                        "this roll requires {}; {} has no level of it and cannot attempt it",
                        ability.map(|a| a.name()).unwrap_or("an ability"),
                        c.character.name()
                    ),
                ));
            }
            let modifier = if c.in_cover { -2 } else { 0 };
            let what = format!(
                "{} against difficulty {difficulty}",
                ability.map_or("a roll", |a| a.name())
            );
            let roll = roll_d20_for(state.rules.d20, roller, c.character.name(), &what)?;
            let check = Check::resolve(roll, *ability, level, modifier, *difficulty);
            Ok(vec![Event::Rolled {
                character: i,
                check,
            }])
        }
    }
}

fn initiative(
    state: &State,
    seat: &Seat,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::Preparation {
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::WrongPhase,
            "initiative is rolled once, at the beginning of the encounter",
        ));
    }
    if !seat.is_gm() {
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::NotPermitted,
            format!(
                "only the GM rolls initiative for every group at the beginning of the encounter ({seat} controls only its own characters)"
            ),
        ));
    }
    let mut rolls = Vec::new();
    for (gi, g) in state.groups.iter().enumerate() {
        let best = |a: Ability| {
            g.members
                .iter()
                .filter_map(|m| state.get(*m))
                .map(|c| c.level(a))
                .max()
                .unwrap_or(0)
        };
        let stealth = 2 * i64::from(best(Ability::Stealth));
        let detection = 10 * i64::from(best(Ability::Detection));
        let roll = roll_d20_for(state.rules.d20, roller, &g.seat.to_string(), "initiative")?;
        let total = i64::from(roll.value) + stealth + detection;
        rolls.push(InitiativeRoll {
            group: gi,
            roll,
            stealth,
            detection,
            total,
            tie_breaks: Vec::new(),
        });
    }
    // Ties: the tied groups roll again until one rolls higher.
    for _ in 0..MAX_TIE_ROLLS {
        let mut keys: BTreeMap<(i64, Vec<u32>), Vec<usize>> = BTreeMap::new();
        for (i, r) in rolls.iter().enumerate() {
            keys.entry((r.total, r.tie_breaks.clone()))
                .or_default()
                .push(i);
        }
        let tied: Vec<usize> = keys
            .into_values()
            .filter(|v| v.len() > 1)
            .flatten()
            .collect();
        // A manual roller out of values: stop here and let the command be
        // refused with "need N more d20" (Roller::finish) instead of looping.
        if tied.is_empty() || roller.short() {
            break;
        }
        for i in tied {
            let who = rolls
                .get(i)
                .and_then(|r| state.groups.get(r.group))
                .map(|g| g.seat.to_string())
                .unwrap_or_default();
            let v = roll_d20_for(state.rules.d20, roller, &who, "initiative tie")?.value;
            if let Some(r) = rolls.get_mut(i) {
                r.tie_breaks.push(v);
            }
        }
    }
    let mut order: Vec<usize> = (0..rolls.len()).collect();
    order.sort_by(|a, b| {
        let ka = rolls.get(*a).map(|r| (r.total, r.tie_breaks.clone()));
        let kb = rolls.get(*b).map(|r| (r.total, r.tie_breaks.clone()));
        kb.cmp(&ka)
    });
    let unresolved = order.windows(2).any(|w| {
        let k = |i: usize| rolls.get(i).map(|r| (r.total, r.tie_breaks.clone()));
        w.first().map(|a| k(*a)) == w.get(1).map(|b| k(*b))
    });
    if unresolved && !roller.short() {
        return Err(refuse(
            rules::CAPS,
            format!("initiative ties not broken after {MAX_TIE_ROLLS} re-rolls"),
        ));
    }
    Ok(vec![Event::InitiativeRolled { rolls, order }])
}

fn craft_parties(
    state: &State,
    seat: &Seat,
    crafter: &str,
    target: &str,
) -> Result<(usize, usize), RuleError> {
    if state.phase != Phase::Preparation {
        return Err(RuleError::new(
            rules::SUPPORT_ABILITIES,
            Refusal::WrongPhase,
            "a crafter cannot remove or add bonuses during an encounter",
        ));
    }
    let c = find(state, crafter)?;
    let t = find(state, target)?;
    if !state.controls(seat, c) {
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::NotPermitted,
            format!("{seat} does not control {}", name(state, c)),
        ));
    }
    Ok((c, t))
}

fn craft(
    state: &State,
    seat: &Seat,
    crafter: &str,
    target: &str,
    ability: Ability,
    hurry: bool,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    let (c, t) = craft_parties(state, seat, crafter, target)?;
    let (Some(cc), Some(tc)) = (state.get(c), state.get(t)) else {
        return Err(unknown_character(state, target));
    };
    let level = cc.character.level(Ability::Craftsmanship);
    if level == 0 {
        return Err(refuse(
            rules::SUPPORT_ABILITIES,
            format!("{} has no craftsmanship", cc.character.name()),
        ));
    }
    if c == t || state.side_of(c) != state.side_of(t) {
        return Err(refuse(
            rules::SUPPORT_ABILITIES,
            format!(
                "craftsmanship gives bonuses to a traveling companion; {} is not one of {}'s",
                tc.character.name(),
                cc.character.name()
            ),
        ));
    }
    let given = state
        .characters
        .iter()
        .flat_map(|x| x.bonuses.values())
        .filter(|b| b.crafter == c)
        .count();
    if given as u32 >= level {
        return Err(refuse(
            rules::SUPPORT_ABILITIES,
            format!(
                "{} has given {given} bonuses: one per level of craftsmanship ({level})",
                cc.character.name()
            ),
        ));
    }
    if tc.character.level(ability) == 0 {
        return Err(refuse(
            rules::SUPPORT_ABILITIES,
            format!(
                "{} has no {ability}: a bonus goes to an ability already at level 1",
                tc.character.name()
            ),
        ));
    }
    if tc.bonuses.contains_key(&ability) {
        return Err(refuse(
            rules::SUPPORT_ABILITIES,
            format!(
                "{}'s {ability} already has a temporary bonus",
                tc.character.name()
            ),
        ));
    }
    let (check, usable) = if hurry {
        let roll = roll_d20_for(
            state.rules.d20,
            roller,
            cc.character.name(),
            "craftsmanship in a hurry against 10",
        )?;
        // The roll adds the crafter's craftsmanship with any temporary bonus on
        // it; the number of bonuses he may give is his own level.
        let ch = Check::resolve(
            roll,
            Some(Ability::Craftsmanship),
            cc.level(Ability::Craftsmanship),
            0,
            10,
        );
        let ok = ch.success;
        (Some(ch), ok)
    } else {
        (None, true)
    };
    Ok(vec![Event::Crafted {
        crafter: c,
        target: t,
        ability,
        hurry: check,
        usable,
    }])
}

fn act(
    state: &State,
    seat: &Seat,
    actor: &str,
    action: &Action,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    let (events, turn, a) = start(state, seat, actor)?;
    let mut events = events;
    if matches!(action, Action::End) {
        may_end(state, a, turn)?;
        events.push(Event::TurnEnded { character: a });
        return Ok(events);
    }
    let plan = plan(state, a, turn, action)?;
    execute(state, a, plan, roller, &mut events)?;
    Ok(events)
}

/// The actor's own turn as the rules read it for his command: as it stands
/// when his turn is on, or as [`Event::TurnStarted`] leaves it (the turn
/// counter one higher, both actions free, no engage) when the command starts
/// his turn. `decide` reads the state through this instead of cloning it and
/// applying `TurnStarted`: the other fields that event changes (the actor's
/// evading and flying out of reach, the active character) are read only for
/// targets, never for the actor ("Turns", "Basic Actions").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TurnNow {
    turns: u32,
    regular_used: bool,
    bonus_used: bool,
    engaged_on_turn: Option<u32>,
}

impl TurnNow {
    fn of(state: &State, a: usize) -> TurnNow {
        match state.get(a) {
            Some(c) if state.active == Some(a) => TurnNow {
                turns: c.turns,
                regular_used: c.regular_used,
                bonus_used: c.bonus_used,
                engaged_on_turn: c.engaged_on_turn,
            },
            Some(c) => TurnNow {
                turns: c.turns.saturating_add(1),
                regular_used: false,
                bonus_used: false,
                engaged_on_turn: None,
            },
            None => TurnNow {
                turns: 0,
                regular_used: false,
                bonus_used: false,
                engaged_on_turn: None,
            },
        }
    }
}

/// A panicked character who can act must evade or escape before his turn ends
/// ("Stalking Abilities"). One who cannot perform actions has no such duty
/// and ends his turn: delayed ("Basic Actions"), incapacitated ("Hit
/// Points"), or without toughness ("Toughness": "characters without
/// toughness may not perform actions during encounters"; such a character
/// acts only if revived, and once panicked he could otherwise never end his
/// turn; the book is silent, see docs/systems/scratch.md).
///
/// After engage, the turn's action is a close range attack (R-SCR-10): the
/// turn does not end before it is made, unless no close range attack is
/// possible at all (engage is refused then, so this guards a lock-up only).
fn may_end(s: &State, a: usize, turn: TurnNow) -> Result<(), RuleError> {
    if engage_pending(turn) && close_attack_possible(s, a) {
        return Err(refuse(
            rules::ENGAGE,
            format!(
                "{} engaged: engage is used before a close range attack, so his turn's action is a close range attack (attack, hold, distract, knockout or fight) before the turn ends",
                name(s, a)
            ),
        ));
    }
    match s.get(a) {
        Some(c)
            if c.panicked()
                && !c.delayed()
                && c.hit_points > 0
                && c.character.level(Ability::Toughness) > 0
                && !turn.regular_used =>
        {
            Err(refuse(
                rules::STALKING_ABILITIES,
                format!(
                    "{} is panicked: he must evade or escape",
                    c.character.name()
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// True when the actor engaged this turn and has not yet made the close
/// range attack engage comes before (R-SCR-10).
fn engage_pending(turn: TurnNow) -> bool {
    turn.engaged_on_turn == Some(turn.turns) && !turn.regular_used
}

/// True for the close range attacks ("Basic Actions", "Attack Abilities"):
/// basic attack, hold, distract, knockout and fighting.
fn close_attack(action: &Action) -> bool {
    matches!(
        action,
        Action::Attack { .. }
            | Action::Hold { .. }
            | Action::Distract { .. }
            | Action::Knockout { .. }
            | Action::Fight { .. }
    )
}

/// True when `a` could make a close range attack on some character now (a
/// basic attack needs no ability; the target must be one a close range
/// attack may reach). Engage is refused without one (R-SCR-10).
fn close_attack_possible(s: &State, a: usize) -> bool {
    s.characters
        .iter()
        .any(|t| target_of(s, a, &t.id, Some(Range::Close), false).is_ok())
}

/// Check whose turn it is and start `actor`'s turn if needed: the events so far,
/// the actor's turn after them, and the actor's index.
fn start(
    state: &State,
    seat: &Seat,
    actor: &str,
) -> Result<(Vec<Event>, TurnNow, usize), RuleError> {
    if state.phase != Phase::Turns {
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::WrongPhase,
            match state.phase {
                Phase::Preparation => "roll initiative first (command: initiative)",
                _ => "the encounter is over",
            },
        ));
    }
    let a = find(state, actor)?;
    if !state.controls(seat, a) {
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::NotPermitted,
            format!(
                "{seat} does not control {}: each person's initiative group holds the characters they control",
                name(state, a)
            ),
        ));
    }
    let g = state.get(a).map(|c| c.group);
    if g != state.current_group() {
        let whose = state
            .current_group()
            .and_then(|g| state.groups.get(g))
            .map(|g| g.seat.to_string())
            .unwrap_or_default();
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::NotYourTurn,
            format!("it is {whose}'s initiative group's turn"),
        ));
    }
    match state.active {
        Some(x) if x == a => Ok((Vec::new(), TurnNow::of(state, a), a)),
        Some(x) => Err(RuleError::new(
            rules::TURNS,
            Refusal::NotYourTurn,
            format!(
                "{}'s turn is on; end it first ({} end)",
                name(state, x),
                state.get(x).map(|c| c.id.as_str()).unwrap_or("")
            ),
        )),
        None => {
            if !state.may_start_turn(a) {
                return Err(RuleError::new(
                    rules::TURNS,
                    Refusal::NotYourTurn,
                    format!("{} has no turn left this round", name(state, a)),
                ));
            }
            // Room for the action and the end of the turn that follow.
            let mut events = Vec::with_capacity(3);
            events.push(Event::TurnStarted { character: a });
            Ok((events, TurnNow::of(state, a), a))
        }
    }
}

fn target_of(
    s: &State,
    actor: usize,
    id: &str,
    range: Option<Range>,
    friendly: bool,
) -> Result<usize, RuleError> {
    let t = find(s, id)?;
    let Some(tc) = s.get(t) else {
        return Err(unknown_character(s, id));
    };
    if tc.escaped {
        return Err(refuse(
            rules::BASIC_ACTIONS,
            format!(
                "{} escaped: he cannot be attacked (or helped) for the rest of the encounter",
                tc.character.name()
            ),
        ));
    }
    if t == actor {
        return Err(refuse(
            if friendly {
                rules::SUPPORT_ABILITIES
            } else {
                rules::BASIC_ACTIONS
            },
            if friendly {
                "a character cannot heal himself"
            } else {
                "a character does not attack himself"
            },
        ));
    }
    if friendly {
        return Ok(t);
    }
    if tc.hit_points == 0 {
        return Err(refuse(
            rules::HIT_POINTS,
            format!("{} is already incapacitated", tc.character.name()),
        ));
    }
    let Some(range) = range else { return Ok(t) };
    if matches!(range, Range::Close) && tc.aloft && !s.can_fly(actor) {
        return Err(refuse(
            rules::MOVEMENT_ABILITIES,
            format!(
                "{} is flying: no close range attacks until his next turn, unless the attacker can also fly",
                tc.character.name()
            ),
        ));
    }
    if s.swims_away(actor, t, matches!(range, Range::Long)) {
        return Err(refuse(
            rules::MOVEMENT_ABILITIES,
            format!(
                "{} is evading by swimming in deep water: no long range attacks, and only swimmers may attack",
                tc.character.name()
            ),
        ));
    }
    Ok(t)
}

/// Pick the ability to add: the one named (it must be among `options`, held and
/// usable), else the highest (R-SCR-5).
fn pick(
    s: &State,
    actor: usize,
    named: Option<Ability>,
    options: &[Ability],
) -> Result<Option<Ability>, RuleError> {
    let Some(c) = s.get(actor) else {
        return Ok(None);
    };
    let usable = |a: Ability| c.has(a) && (a.terrain().is_none() || s.terrain_allows(a));
    match named {
        Some(a) => {
            if !options.contains(&a) {
                return Err(refuse(
                    rules::NAMED_ABILITY,
                    format!(
                        "{a} cannot be added to this roll (it takes {})",
                        options
                            .iter()
                            .map(|o| o.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            if !c.has(a) {
                return Err(refuse(
                    rules::ROLLS,
                    format!("{} has no {a}", c.character.name()),
                ));
            }
            if !usable(a) {
                return Err(refuse(
                    rules::MOVEMENT_ABILITIES,
                    format!(
                        "{a} needs {} here",
                        a.terrain().map(|t| t.name()).unwrap_or("its terrain")
                    ),
                ));
            }
            Ok(Some(a))
        }
        None => Ok(options
            .iter()
            .copied()
            .filter(|a| usable(*a))
            .max_by_key(|a| (c.level(*a), std::cmp::Reverse(*a)))),
    }
}

fn movement(s: &State) -> Vec<Ability> {
    Ability::MOVEMENT
        .into_iter()
        .filter(|a| s.terrain_allows(*a))
        .collect()
}

#[allow(clippy::too_many_lines)]
fn plan(s: &State, a: usize, now: TurnNow, action: &Action) -> Result<Plan, RuleError> {
    let Some(c) = s.get(a) else {
        return Err(unknown_character(s, ""));
    };
    let me = c.character.name();
    if c.character.level(Ability::Toughness) == 0 {
        return Err(refuse(
            rules::TOUGHNESS,
            format!("{me} has no toughness and cannot perform actions during encounters"),
        ));
    }
    if c.hit_points == 0 {
        return Err(refuse(
            rules::HIT_POINTS,
            format!("{me} is incapacitated and cannot perform actions"),
        ));
    }
    let health = c.hp_state(&s.rules);
    let healthy = health == HitPointState::Healthy;
    let injured = health == HitPointState::Injured;
    let turn = now.turns;
    let engaged_now = now.engaged_on_turn == Some(turn);
    let cover_mod: i64 = if c.in_cover { -2 } else { 0 };
    let close_mod = cover_mod
        + if engaged_now { 2 } else { 0 }
        + if s.in_water() {
            i64::from(c.level(Ability::Swimming))
        } else {
            0
        };
    let slot = match action {
        Action::Engage | Action::TakeCover => Slot::Bonus,
        Action::LeaveCover | Action::End => Slot::Free,
        _ => Slot::Regular,
    };
    // A wrestling hold while delayed is the one action a delayed character has.
    let hold_while_delayed = c.delayed() && matches!(action, Action::Hold { .. });
    if c.delayed() && slot != Slot::Free && !hold_while_delayed {
        return Err(refuse(
            rules::ATTACK_ABILITIES,
            format!("{me} is delayed and cannot perform actions"),
        ));
    }
    match slot {
        Slot::Regular if now.regular_used => {
            return Err(refuse(
                rules::TURNS,
                format!("{me} has used his regular action this turn"),
            ));
        }
        Slot::Bonus if now.bonus_used => {
            return Err(refuse(
                rules::TURNS,
                format!("{me} has used his bonus action this turn"),
            ));
        }
        _ => {}
    }
    if c.panicked()
        && !matches!(
            action,
            Action::Evade { .. } | Action::Escape | Action::LeaveCover | Action::End
        )
    {
        return Err(refuse(
            rules::STALKING_ABILITIES,
            format!("{me} is panicked: he must evade or escape, and cannot attack or heal"),
        ));
    }
    if engage_pending(now) && !close_attack(action) {
        return Err(refuse(
            rules::ENGAGE,
            format!(
                "{me} engaged: engage is used before a close range attack, so his action this turn is a close range attack (attack, hold, distract, knockout or fight)"
            ),
        ));
    }
    let from_cover_forbidden = matches!(
        action,
        Action::Evade { .. }
            | Action::Attack { .. }
            | Action::Hold { .. }
            | Action::Knockout { .. }
            | Action::Fight { .. }
            | Action::Distract { .. }
            | Action::Surprise { .. }
            | Action::Intimidate { .. }
            | Action::Engage
    );
    if c.in_cover && from_cover_forbidden {
        return Err(refuse(
            rules::BASIC_ACTIONS,
            format!(
                "{me} is in cover: no evading, close range attacks, distract, surprise or intimidate from cover (leave-cover first)"
            ),
        ));
    }
    let mut p = Plan {
        kind: ActionKind::Attack,
        slot,
        ability: None,
        rolls: Vec::new(),
        effects: Vec::new(),
        after: Vec::new(),
    };
    let flying_long = |p: &mut Plan| {
        if s.can_fly(a) {
            p.effects.push(Effect::Aloft);
        }
    };
    let normal = |t: usize, level: u32, modifier: i64, dmg: u32, auto: u32| PlannedRoll {
        target: t,
        against: "agility",
        level,
        modifier,
        difficulty: s.agility(t),
        normal: dmg,
        automatic: auto,
        on_success: Vec::new(),
    };
    let lvl = |ab: Option<Ability>| ab.map(|x| c.level(x)).unwrap_or(0);
    match action {
        Action::End => {}
        Action::LeaveCover => {
            if !c.in_cover {
                return Err(refuse(
                    rules::BASIC_ACTIONS,
                    format!("{me} is not in cover"),
                ));
            }
            p.kind = ActionKind::LeaveCover;
            p.effects.push(Effect::LeftCover);
        }
        Action::Engage => {
            if now.regular_used {
                return Err(refuse(
                    rules::BASIC_ACTIONS,
                    "engage is used before a close range attack",
                ));
            }
            if !close_attack_possible(s, a) {
                return Err(refuse(
                    rules::ENGAGE,
                    format!(
                        "engage is used before a close range attack, and {me} can make none now: no character is within close range reach"
                    ),
                ));
            }
            p.kind = ActionKind::Engage;
            p.effects.push(Effect::Engaged);
        }
        Action::TakeCover => {
            if !s.cover {
                return Err(refuse(rules::BASIC_ACTIONS, "there is no cover here"));
            }
            if c.in_cover {
                return Err(refuse(
                    rules::BASIC_ACTIONS,
                    format!("{me} is already in cover"),
                ));
            }
            if now.regular_used || now.bonus_used {
                return Err(refuse(
                    rules::BASIC_ACTIONS,
                    "take cover is used before any other action of the turn",
                ));
            }
            p.kind = ActionKind::TakeCover;
            p.effects.push(Effect::TookCover);
        }
        Action::Attack { target, with } => {
            let t = target_of(s, a, target, Some(Range::Close), false)?;
            let ab = pick(
                s,
                a,
                *with,
                &[Ability::Fighting, Ability::Wrestling, Ability::Knockout],
            )?;
            p.ability = ab;
            p.rolls.push(normal(t, lvl(ab), close_mod, 1, 2));
        }
        Action::Throw { target } => {
            if !s.throwable_objects {
                return Err(refuse(
                    rules::BASIC_ACTIONS,
                    "no dangerous throwable object is available",
                ));
            }
            let t = target_of(s, a, target, Some(Range::Long), false)?;
            p.kind = ActionKind::Throw;
            p.rolls.push(normal(t, 0, cover_mod, 1, 2));
            flying_long(&mut p);
        }
        Action::Hold { target, with } => {
            let t = target_of(s, a, target, Some(Range::Close), false)?;
            p.kind = ActionKind::Hold;
            let ab = if hold_while_delayed {
                if !c.has(Ability::Wrestling) || !healthy {
                    return Err(refuse(
                        rules::WRESTLING,
                        format!(
                            "{me} is delayed: only a healthy character with wrestling can hold while delayed"
                        ),
                    ));
                }
                if !c.held_by.contains(&t) {
                    return Err(refuse(
                        rules::WRESTLING,
                        format!(
                            "{me} can hold while delayed only a character who held him since his last turn"
                        ),
                    ));
                }
                if with.is_some_and(|w| w != Ability::Wrestling) {
                    return Err(refuse(
                        rules::WRESTLING,
                        "a hold while delayed uses wrestling",
                    ));
                }
                p.kind = ActionKind::HoldWhileDelayed;
                Some(Ability::Wrestling)
            } else {
                let mut opts = vec![Ability::Wrestling, Ability::Detection];
                opts.extend(Ability::MOVEMENT);
                pick(s, a, *with, &opts)?
            };
            p.ability = ab;
            let damaging = ab == Some(Ability::Wrestling) && healthy && !c.delayed();
            p.rolls.push(PlannedRoll {
                target: t,
                against: "strength",
                level: lvl(ab),
                modifier: close_mod,
                difficulty: s.strength(t),
                normal: u32::from(damaging),
                automatic: if damaging { 2 } else { 0 },
                on_success: vec![OnSuccess::Delay, OnSuccess::Held],
            });
        }
        Action::Distract { target, with } => {
            let t = target_of(s, a, target, Some(Range::Close), false)?;
            unrepeatable(s, a, t, Unrepeatable::Distract)?;
            p.kind = ActionKind::Distract;
            let ab = pick(s, a, *with, &Ability::MOVEMENT)?;
            p.ability = ab;
            p.rolls.push(PlannedRoll {
                target: t,
                against: "intelligence",
                level: lvl(ab),
                modifier: close_mod,
                difficulty: s.intelligence(t),
                normal: 0,
                automatic: 0,
                on_success: vec![OnSuccess::Delay],
            });
            p.effects.push(Effect::Used {
                action: Unrepeatable::Distract,
                target: t,
            });
        }
        Action::Evade { with } => {
            p.kind = ActionKind::Evade;
            let ab = pick(s, a, *with, &Ability::MOVEMENT)?;
            p.ability = ab;
            p.effects.push(Effect::Evading {
                evading: Evading {
                    ability: ab,
                    level: lvl(ab),
                },
            });
            flying_long(&mut p);
        }
        Action::Escape => {
            if c.evaded_on_turn.is_none() || c.evaded_on_turn != turn.checked_sub(1) {
                return Err(refuse(
                    rules::BASIC_ACTIONS,
                    format!("{me} can escape only if he evaded on his last turn"),
                ));
            }
            p.kind = ActionKind::Escape;
            p.effects.push(Effect::Escaped);
        }
        Action::Shoot { target } => {
            need(c.has(Ability::Shooting), me, Ability::Shooting)?;
            let t = target_of(s, a, target, Some(Range::Long), false)?;
            p.kind = ActionKind::Shoot;
            p.ability = Some(Ability::Shooting);
            p.rolls
                .push(normal(t, c.level(Ability::Shooting), cover_mod, 2, 5));
            flying_long(&mut p);
            if injured {
                p.after.push(Effect::Delayed {
                    target: a,
                    through: turn.saturating_add(1),
                });
            }
        }
        Action::Blast { targets } => {
            need(c.has(Ability::Blasting), me, Ability::Blasting)?;
            if targets.is_empty() || targets.len() > 3 {
                return Err(RuleError::out_of_range(
                    rules::ATTACK_ABILITIES,
                    "blasting targets",
                    1,
                    3,
                    targets.len() as i64,
                ));
            }
            p.kind = ActionKind::Blast;
            p.ability = Some(Ability::Blasting);
            let mut seen = Vec::new();
            for id in targets {
                let t = target_of(s, a, id, Some(Range::Long), false)?;
                let ally = matches!(
                    (s.side_of(a), s.side_of(t)),
                    (Some(x), Some(y)) if crate::encounter::names_match(x, y)
                );
                if ally {
                    return Err(refuse(
                        rules::BLASTING_ENEMIES,
                        format!(
                            "blasting targets up to three separate enemies; {} is on {me}'s side",
                            name(s, t)
                        ),
                    ));
                }
                if seen.contains(&t) {
                    return Err(refuse(
                        rules::ATTACK_ABILITIES,
                        "a blasting attack cannot target one character more than once",
                    ));
                }
                seen.push(t);
                p.rolls
                    .push(normal(t, c.level(Ability::Blasting), cover_mod, 1, 2));
            }
            flying_long(&mut p);
            if injured {
                p.after.push(Effect::Delayed {
                    target: a,
                    through: turn.saturating_add(1),
                });
            }
        }
        Action::Knockout { target } => {
            need(c.has(Ability::Knockout), me, Ability::Knockout)?;
            let t = target_of(s, a, target, Some(Range::Close), false)?;
            p.kind = ActionKind::Knockout;
            p.ability = Some(Ability::Knockout);
            let dmg = if healthy { 4 } else { 2 };
            p.rolls.push(normal(
                t,
                c.level(Ability::Knockout),
                close_mod,
                dmg,
                dmg + 1,
            ));
            p.after.push(Effect::Delayed {
                target: a,
                through: turn.saturating_add(1),
            });
        }
        Action::Fight { targets } => {
            need(c.has(Ability::Fighting), me, Ability::Fighting)?;
            let ids: Vec<&String> = match (targets.as_slice(), healthy) {
                ([one], true) => vec![one, one],
                ([one], false) => vec![one],
                ([x, y], true) => vec![x, y],
                ([_, _], false) => {
                    return Err(refuse(
                        rules::ATTACK_ABILITIES,
                        format!(
                            "{me} is not healthy: fighting gives two basic attacks only when healthy"
                        ),
                    ));
                }
                _ => {
                    return Err(RuleError::out_of_range(
                        rules::ATTACK_ABILITIES,
                        "fighting targets",
                        1,
                        2,
                        targets.len() as i64,
                    ));
                }
            };
            p.kind = ActionKind::Fight;
            p.ability = Some(Ability::Fighting);
            for id in ids {
                let t = target_of(s, a, id, Some(Range::Close), false)?;
                p.rolls
                    .push(normal(t, c.level(Ability::Fighting), close_mod, 1, 2));
            }
        }
        Action::Surprise { target, with } => {
            if !c.has(Ability::Stealth) && !c.has(Ability::Detection) {
                return Err(refuse(
                    rules::STALKING_ABILITIES,
                    format!("surprise requires stealth or detection; {me} has neither"),
                ));
            }
            let t = target_of(s, a, target, Some(Range::Long), false)?;
            unrepeatable(s, a, t, Unrepeatable::Surprise)?;
            let ab = pick(s, a, *with, &[Ability::Stealth, Ability::Detection])?;
            p.kind = ActionKind::Surprise;
            p.ability = ab;
            p.rolls.push(PlannedRoll {
                target: t,
                against: "intelligence",
                level: lvl(ab),
                modifier: cover_mod,
                difficulty: s.intelligence(t),
                normal: 0,
                automatic: 0,
                on_success: vec![OnSuccess::Panic],
            });
            p.effects.push(Effect::Used {
                action: Unrepeatable::Surprise,
                target: t,
            });
            flying_long(&mut p);
        }
        Action::Intimidate { target } => {
            need(c.has(Ability::Command), me, Ability::Command)?;
            let t = target_of(s, a, target, Some(Range::Long), false)?;
            unrepeatable(s, a, t, Unrepeatable::Intimidate)?;
            p.kind = ActionKind::Intimidate;
            p.ability = Some(Ability::Command);
            p.rolls.push(PlannedRoll {
                target: t,
                against: "intelligence or strength",
                level: c.level(Ability::Command),
                modifier: cover_mod,
                difficulty: s.intelligence(t).max(s.strength(t)),
                normal: 0,
                automatic: 0,
                on_success: vec![OnSuccess::Panic],
            });
            p.effects.push(Effect::Used {
                action: Unrepeatable::Intimidate,
                target: t,
            });
            flying_long(&mut p);
        }
        Action::Heal { target } => {
            need(c.has(Ability::Healing), me, Ability::Healing)?;
            let t = target_of(s, a, target, None, true)?;
            let Some(tc) = s.get(t) else {
                return Err(unknown_character(s, target));
            };
            if tc.leader.is_some() {
                return Err(refuse(
                    rules::SUPPORT_ABILITIES,
                    format!(
                        "{} is a minion: minions cannot be healed during an encounter",
                        tc.character.name()
                    ),
                ));
            }
            let d = tc.base_defenses(&s.rules);
            let to = match tc.hp_state(&s.rules) {
                HitPointState::Incapacitated => 1,
                HitPointState::Injured => d.max_hit_points / 2 + 1,
                HitPointState::Healthy => {
                    return Err(refuse(
                        rules::SUPPORT_ABILITIES,
                        format!(
                            "{} is healthy: there is nothing to heal",
                            tc.character.name()
                        ),
                    ));
                }
            };
            p.kind = ActionKind::Heal;
            p.ability = Some(Ability::Healing);
            p.rolls.push(PlannedRoll {
                target: t,
                against: "difficulty",
                level: c.level(Ability::Healing),
                modifier: cover_mod,
                difficulty: 10,
                normal: 0,
                automatic: 0,
                on_success: vec![OnSuccess::SetHp(to)],
            });
        }
    }
    Ok(p)
}

fn need(has: bool, me: &str, ability: Ability) -> Result<(), RuleError> {
    if has {
        Ok(())
    } else {
        let rule = match ability {
            Ability::Shooting
            | Ability::Blasting
            | Ability::Knockout
            | Ability::Fighting
            | Ability::Wrestling => rules::ATTACK_ABILITIES,
            Ability::Command | Ability::Healing | Ability::Craftsmanship => {
                rules::SUPPORT_ABILITIES
            }
            _ => rules::ROLLS,
        };
        Err(refuse(
            rule,
            format!("this roll requires {ability}; {me} has no {ability}"),
        ))
    }
}

fn unrepeatable(s: &State, a: usize, t: usize, kind: Unrepeatable) -> Result<(), RuleError> {
    if s.unrepeatable.contains(&(a, kind, t)) {
        return Err(refuse(
            rules::TURNS,
            format!(
                "{} is unrepeatable: {} has already used it on {} this encounter",
                match kind {
                    Unrepeatable::Distract => "distract",
                    Unrepeatable::Surprise => "surprise",
                    Unrepeatable::Intimidate => "intimidate",
                },
                name(s, a),
                name(s, t)
            ),
        ));
    }
    Ok(())
}

/// Roll the planned rolls and push the events onto `events`.
fn execute(
    s: &State,
    a: usize,
    plan: Plan,
    roller: &mut dyn Roller,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let Plan {
        kind,
        slot,
        ability,
        rolls: planned,
        mut effects,
        after,
    } = plan;
    let mut rolls = Vec::with_capacity(planned.len());
    // Each roll can add damage and up to two effects.
    effects.reserve(planned.len() * 3 + after.len());
    let mut hp: BTreeMap<usize, u32> = BTreeMap::new();
    let who = s.get(a).map_or("", |c| c.character.name());
    for r in &planned {
        // "ABILITY against TARGET's DEFENSE", for a manual roller's prompt.
        let ab = ability.map_or("a roll", |ab| ab.name());
        let target = s.get(r.target).map_or("", |c| c.character.name());
        let mut what = String::with_capacity(ab.len() + target.len() + r.against.len() + 12);
        what.push_str(ab);
        what.push_str(" against ");
        what.push_str(target);
        what.push_str("'s ");
        what.push_str(r.against);
        let roll = roll_d20_for(s.rules.d20, roller, who, &what)?;
        let check = Check::resolve(roll, ability, r.level, r.modifier, r.difficulty);
        if check.success {
            let dmg = if check.automatic() {
                r.automatic
            } else {
                r.normal
            };
            if dmg > 0 {
                let now = hp
                    .get(&r.target)
                    .copied()
                    .unwrap_or_else(|| s.get(r.target).map(|c| c.hit_points).unwrap_or(0));
                let after = now.saturating_sub(dmg);
                hp.insert(r.target, after);
                effects.push(Effect::Damage {
                    target: r.target,
                    amount: now - after,
                    hit_points: after,
                });
            }
            let through = s
                .get(r.target)
                .map(|c| c.turns.saturating_add(1))
                .unwrap_or(1);
            for o in &r.on_success {
                effects.push(match o {
                    OnSuccess::Delay => Effect::Delayed {
                        target: r.target,
                        through,
                    },
                    OnSuccess::Panic => Effect::Panicked {
                        target: r.target,
                        through,
                    },
                    OnSuccess::Held => Effect::Held {
                        target: r.target,
                        by: a,
                    },
                    OnSuccess::SetHp(v) => Effect::HitPoints {
                        target: r.target,
                        hit_points: *v,
                    },
                });
            }
        }
        rolls.push(TargetRoll {
            target: r.target,
            against: r.against.to_string(),
            check,
        });
    }
    effects.extend(after);
    events.reserve(2);
    if slot != Slot::Free || !effects.is_empty() {
        events.push(Event::Acted {
            actor: a,
            action: kind,
            slot,
            ability,
            rolls,
            effects,
        });
    }
    if slot == Slot::Regular {
        events.push(Event::TurnEnded { character: a });
    }
    Ok(())
}

/// The chance of each roll `action` would make now, if it is legal (for the
/// status line's odds next to each choice).
pub fn preview(state: &State, actor: usize, action: &Action) -> Option<Vec<RollPreview>> {
    let s = state;
    let p = plan(s, actor, TurnNow::of(state, actor), action).ok()?;
    let method = s.rules.d20;
    let mut out: Vec<RollPreview> = Vec::new();
    let mut dists: Vec<tabula_core::odds::Dist<i64>> = Vec::new();
    for r in &p.rolls {
        let id = s.get(r.target).map(|c| c.id.clone()).unwrap_or_default();
        let one = crate::rolls::damage_distribution(
            crate::rolls::DamageProfile {
                normal: r.normal,
                automatic: r.automatic,
                rolls: 1,
            },
            i64::from(r.level),
            r.difficulty,
            r.modifier,
            method,
        )
        .ok()?;
        match out.iter().position(|x| x.target == id) {
            Some(i) => {
                let merged = dists.get(i)?.add(&one).ok()?;
                if let Some(d) = dists.get_mut(i) {
                    *d = merged;
                }
            }
            None => {
                out.push(RollPreview {
                    target: id,
                    probability: crate::rolls::probability(
                        i64::from(r.level),
                        r.difficulty,
                        r.modifier,
                        method,
                    ),
                    damage: Vec::new(),
                });
                dists.push(one);
            }
        }
    }
    for (o, d) in out.iter_mut().zip(dists) {
        o.damage = d.iter().map(|(v, p)| (*v, p)).collect();
    }
    Some(out)
}

/// The characters `seat` may act with now.
pub fn actors(state: &State, seat: &Seat) -> Vec<usize> {
    let Some(g) = state.current_group() else {
        return Vec::new();
    };
    let Some(group) = state.groups.get(g) else {
        return Vec::new();
    };
    if !crate::encounter::seats_match(&group.seat, seat) {
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

fn may_act_now(state: &State, seat: &Seat, i: usize) -> bool {
    let Some(group) = state.current_group().and_then(|g| state.groups.get(g)) else {
        return false;
    };
    if !crate::encounter::seats_match(&group.seat, seat) {
        return false;
    }
    match state.active {
        Some(a) => a == i,
        None => group.members.contains(&i) && state.may_start_turn(i),
    }
}

/// Every action template (with the first legal target filled in later).
fn templates(target: &str) -> Vec<Action> {
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

fn word(action: &Action) -> &'static str {
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
                ParamSpec::choice("ability", Ability::ALL.iter().map(|a| a.name())),
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
                        params.push(ParamSpec::choice(
                            "with",
                            Ability::ALL.iter().map(|a| a.name()),
                        ));
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
                            vec![ParamSpec::choice(
                                "with",
                                movement(s).iter().map(|m| m.name()),
                            )]
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
