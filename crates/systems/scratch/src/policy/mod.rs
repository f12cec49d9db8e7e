//! The policy: what a reasonable player (or the GM for the NPCs) does now, so
//! that a character can be put on autopilot (`auto NAME` in `play`) and whole
//! encounters simulated (`tabula scratch simulate`).
//!
//! Every seat plays by the same policy; the GM's NPCs fight for their side as
//! the players' characters fight for theirs. The policy never rolls: it reads
//! the state and the exact odds of each roll (the same "Rolls" arithmetic as
//! [`crate::rolls::probability`], from one table per d20 method built once),
//! and gives a command [`crate::decide::decide`] accepts.
//!
//! **Who the table waits on** ([`Policy::awaiting`]):
//! - Before the encounter, the GM: `initiative` ("Turns": "at the beginning
//!   of each encounter, roll a twenty-sided die for each initiative group").
//!   The policy gives no craftsmanship bonuses (they are optional, "Support
//!   Abilities").
//! - During the turns, the seat of the initiative group whose turn it is
//!   ("Turns": "groups take turns in order from the highest initiative"): the
//!   character whose turn is on, or else each character of the group who has
//!   not had his turn this round, in table order ("the player controlling the
//!   group chooses the order of the turns of the characters in the group";
//!   the policy takes them in the table's order).
//! - Nobody once the encounter is over (at most one side stands).
//!
//! **What a character does** ([`Policy::suggest_for`]), in order:
//! 1. No toughness: `end` ("Toughness": "characters without toughness may not
//!    perform actions during encounters").
//! 2. Delayed: a healthy wrestler holds a character who held him since his
//!    last turn ("Attack Abilities", wrestling; R-SCR-4), else `end` ("Basic
//!    Actions", hold and distract: delayed characters cannot perform actions).
//! 3. From round [`WITHDRAW_ROUND`] on, withdraw: evade, then escape on the
//!    next turn ("Basic Actions": "a character can escape if he evaded on his
//!    last turn"). This is the policy's end for an encounter that no side can
//!    win (see below).
//! 4. Panicked: evade (leaving cover first: no evading from cover). "Stalking
//!    Abilities": "panicked characters must evade or escape".
//! 5. Otherwise the option with the best score, where each option is valued
//!    in hit points:
//!    - an attack on a foe it can reach: the expected hit points it removes
//!      (damage past zero does not count: "characters can never have less
//!      than zero hit points"), plus the chance it takes the foe out times the
//!      foe's threat (the damage the foe deals in a turn on average: its best
//!      attack against agility 10). So the weakest reachable foe is the one it
//!      hits, with the action whose exact odds times damage are best. The
//!      options are the basic attack (with the highest of fighting, wrestling
//!      and knockout, R-SCR-5), throw object, fighting (two basic attacks when
//!      healthy), knockout, shooting (2, 5 on an automatic success, R-SCR-3),
//!      blasting (the three foes it scores best against) and a hold (1 damage
//!      by a healthy, undelayed wrestler, R-SCR-4) ("Basic Actions", "Attack
//!      Abilities", "Hit Points": an automatic success causes 1 extra damage);
//!    - a hold, distract, surprise or intimidate also counts its chance to
//!      delay or panic the foe times the foe's threat (the foe loses a turn),
//!      nothing when the foe is already delayed (or panicked); distract,
//!      surprise and intimidate only once per foe ("Turns": unrepeatable);
//!    - an action that delays the actor himself (knockout; shooting and
//!      blasting when injured, "Attack Abilities") costs his next turn, so it
//!      counts half;
//!    - healing an injured ally: the chance of the roll of 10 times the hit
//!      points it restores; reviving an incapacitated ally adds his threat
//!      ("Support Abilities": not oneself, not minions);
//!    - guarding when low (injured, "Hit Points"): evading adds a movement
//!      ability to agility ("Basic Actions"), valued as the damage it saves
//!      from the foes still standing, shared among the allies standing.
//!
//!    Ties go to the first option in table order of targets. Close range
//!    options are valued out of cover (the character leaves cover first,
//!    free); when it is healthy and its bonus action is free, with engage's +2
//!    (it engages first: "Engage is a bonus action which an attacker can use
//!    before a close range attack"). When it is injured and the encounter has
//!    cover, long range options and healing are valued from cover (-2), and it
//!    takes cover first ("Take cover is a bonus action which a character can
//!    use before performing any other actions on his turn"): cover's +2
//!    agility is the guard of a wounded shooter. With no option worth
//!    anything (no foe in reach, nobody to heal) it ends its turn.
//!
//! **The end.** Scratch RPS has a natural end: the encounter is over when at
//! most one side has a character who is neither incapacitated nor escaped
//! (`Phase::Over`; the side left standing won). Every policy attack can reach
//! and hurt a foe (a natural 20 always succeeds), so an encounter of the
//! example table ends in a few rounds. For tables where no side can finish
//! the other (foes that cannot be reached), every character withdraws from
//! round [`WITHDRAW_ROUND`] on; the first side to have left the field loses it.
//!
//! **The report** ([`Policy::report`]): the round, the sides in table order,
//! the side left standing as the winner (none while undecided or when nobody
//! stands), and per character (by id): taken out when incapacitated ("Hit
//! Points": zero hit points) or escaped ("Basic Actions": he cannot perform
//! actions or be attacked for the rest of the encounter), with `hit points`
//! and `toughness` (maximum hit points, bonuses included).

use std::sync::OnceLock;

use tabula_core::Seat;
use tabula_core::policy::{Awaiting, EncounterReport, ParticipantReport, Policy, Resource};

use crate::abilities::Ability;
use crate::character::HitPointState;
use crate::command::{Action, Command};
use crate::event::Unrepeatable;
use crate::legal;
use crate::rolls::d20_distribution;
use crate::rules::{D20Method, MAX_CHARACTERS};
use crate::state::{Combatant, Phase, State, names_match};
use crate::table::Scratch;

mod report;
use report::*;
#[cfg(test)]
mod tests;

/// The round from which every character withdraws (evade, then escape): the
/// policy's end for an encounter no side can win. The book has no round
/// limit; 50 rounds is far past any encounter of the example table (a few
/// rounds), and keeps a simulated encounter well under 10,000 commands.
pub const WITHDRAW_ROUND: u32 = 50;

/// The exact chances of one roll of "a twenty-sided die" by one method:
/// `at_least[k]` is the chance of an automatic success or a value of at least
/// `k` (k in 0..=21), `automatic` the chance of an automatic success.
#[derive(Clone, Copy, Debug)]
struct DieOdds {
    at_least: [f64; 22],
    automatic: f64,
}

impl DieOdds {
    fn build(method: D20Method) -> DieOdds {
        let d = d20_distribution(method);
        let mut at_least = [0.0; 22];
        for (k, slot) in at_least.iter_mut().enumerate() {
            let k = k as i64;
            *slot = d.p_where(|(v, auto)| *auto || *v >= k);
        }
        DieOdds {
            at_least,
            automatic: d.p_where(|(_, auto)| *auto),
        }
    }

    fn of(method: D20Method) -> &'static DieOdds {
        static D20: OnceLock<DieOdds> = OnceLock::new();
        static TABLE: OnceLock<DieOdds> = OnceLock::new();
        static TIMES4: OnceLock<DieOdds> = OnceLock::new();
        let cell = match method {
            D20Method::D20 => &D20,
            D20Method::D6Table => &TABLE,
            D20Method::D6Times4 => &TIMES4,
        };
        cell.get_or_init(|| DieOdds::build(method))
    }

    /// The chance that d20 + `level` + `modifier` reaches `difficulty` or the
    /// roll is automatic ("Rolls").
    fn success(&self, level: i64, modifier: i64, difficulty: i64) -> f64 {
        let need = difficulty.saturating_sub(level).saturating_sub(modifier);
        if need <= 0 {
            return 1.0;
        }
        let k = usize::try_from(need).unwrap_or(usize::MAX).min(21);
        self.at_least.get(k).copied().unwrap_or(self.automatic)
    }

    /// One roll: its chance of an ordinary success and of an automatic one,
    /// with the damage of each.
    fn roll(&self, level: i64, modifier: i64, difficulty: i64, normal: u32, auto: u32) -> Roll {
        let p = self.success(level, modifier, difficulty);
        Roll {
            ordinary: (p - self.automatic).max(0.0),
            automatic: self.automatic.min(p),
            normal,
            auto,
        }
    }
}

/// One attack roll: chances and damage of its two kinds of success.
#[derive(Clone, Copy, Debug)]
struct Roll {
    ordinary: f64,
    automatic: f64,
    normal: u32,
    auto: u32,
}

impl Roll {
    fn success(&self) -> f64 {
        self.ordinary + self.automatic
    }

    fn expected(&self) -> f64 {
        self.ordinary * f64::from(self.normal) + self.automatic * f64::from(self.auto)
    }

    fn outcomes(&self) -> [(f64, u32); 3] {
        [
            ((1.0 - self.success()).max(0.0), 0),
            (self.ordinary, self.normal),
            (self.automatic, self.auto),
        ]
    }
}

/// Expected hit points removed from a target with `hp` by one or two rolls at
/// it, and the chance they take it to zero.
fn damage_value(rolls: &[Roll], hp: u32) -> (f64, f64) {
    let mut expected = 0.0;
    let mut out = 0.0;
    let mut add = |p: f64, d: u32| {
        expected += p * f64::from(d.min(hp));
        if d >= hp {
            out += p;
        }
    };
    match rolls {
        [one] => {
            for (p, d) in one.outcomes() {
                add(p, d);
            }
        }
        [one, two] => {
            for (p1, d1) in one.outcomes() {
                for (p2, d2) in two.outcomes() {
                    add(p1 * p2, d1.saturating_add(d2));
                }
            }
        }
        _ => {}
    }
    (expected, out)
}

/// The actor's turn as the rules see it for his next command: as it is when
/// his turn is on, or as it will be once his turn starts (the turn counter
/// one higher, both actions free, no engage).
#[derive(Clone, Copy, Debug)]
struct TurnView {
    turns: u32,
    bonus_used: bool,
    engaged_now: bool,
}

impl TurnView {
    fn of(state: &State, a: usize, c: &Combatant) -> TurnView {
        if state.active == Some(a) {
            TurnView {
                turns: c.turns,
                bonus_used: c.bonus_used,
                engaged_now: c.engaged_on_turn == Some(c.turns),
            }
        } else {
            TurnView {
                turns: c.turns.saturating_add(1),
                bonus_used: false,
                engaged_now: false,
            }
        }
    }
}

/// The range of an attack, for who can be reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    Close,
    Long,
}

/// True when `actor` may attack `t` at `range`: not himself, not escaped, not
/// incapacitated, not a flyer out of close reach, not a swimmer evading in
/// deep water ("Basic Actions", "Movement Abilities"). The same checks as
/// `decide`.
fn reachable(s: &State, actor: usize, t: usize, range: Reach) -> bool {
    let Some(tc) = s.get(t) else { return false };
    if t == actor || tc.escaped || tc.hit_points == 0 {
        return false;
    }
    if range == Reach::Close && tc.aloft && !s.can_fly(actor) {
        return false;
    }
    if s.swims_away(actor, t, range == Reach::Long) {
        return false;
    }
    true
}

/// The ability the rules add when none is named: the highest usable (R-SCR-5),
/// as `decide` picks it.
fn default_pick(s: &State, c: &Combatant, options: &[Ability]) -> Option<Ability> {
    options
        .iter()
        .copied()
        .filter(|a| c.has(*a) && (a.terrain().is_none() || s.terrain_allows(*a)))
        .max_by_key(|a| (c.level(*a), std::cmp::Reverse(*a)))
}

const HOLD_OPTIONS: [Ability; 6] = [
    Ability::Wrestling,
    Ability::Detection,
    Ability::Acrobatics,
    Ability::Quickness,
    Ability::Flying,
    Ability::Swimming,
];

const BASIC_OPTIONS: [Ability; 3] = [Ability::Fighting, Ability::Wrestling, Ability::Knockout];

/// The damage a character deals in one turn on average with its best plain
/// attack against `agility` ("Attack Abilities", "Basic Actions"): what a foe
/// taken out or delayed no longer does, what an ally revived does again.
fn threat(s: &State, odds: &DieOdds, c: &Combatant, seen: &Seen, agility: i64) -> f64 {
    if !c.takes_turns() {
        return 0.0;
    }
    threat_as(s, odds, c, agility, seen.health == HitPointState::Healthy)
}

/// [`threat`] of `c` as if he were `healthy` or not.
fn threat_as(s: &State, odds: &DieOdds, c: &Combatant, agility: i64, healthy: bool) -> f64 {
    if c.character.level(Ability::Toughness) == 0 {
        return 0.0;
    }
    let lvl = |a: Ability| i64::from(c.level(a));
    let basic_level = BASIC_OPTIONS.iter().map(|a| lvl(*a)).max().unwrap_or(0);
    let mut best = odds.roll(basic_level, 0, agility, 1, 2).expected();
    if s.throwable_objects {
        best = best.max(odds.roll(0, 0, agility, 1, 2).expected());
    }
    let self_delay = if healthy { 1.0 } else { 0.5 };
    if c.has(Ability::Shooting) {
        let e = odds
            .roll(lvl(Ability::Shooting), 0, agility, 2, 5)
            .expected();
        best = best.max(e * self_delay);
    }
    if c.has(Ability::Blasting) {
        let e = odds
            .roll(lvl(Ability::Blasting), 0, agility, 1, 2)
            .expected();
        best = best.max(e * self_delay);
    }
    if c.has(Ability::Fighting) {
        let e = odds
            .roll(lvl(Ability::Fighting), 0, agility, 1, 2)
            .expected();
        best = best.max(if healthy { 2.0 * e } else { e });
    }
    if c.has(Ability::Knockout) {
        let d = if healthy { 4 } else { 2 };
        let e = odds
            .roll(lvl(Ability::Knockout), 0, agility, d, d + 1)
            .expected();
        best = best.max(e * 0.5);
    }
    best
}

/// One thing a character may do, with its value in hit points.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Choice {
    Attack(usize),
    Throw(usize),
    Hold(usize),
    Distract(usize),
    Shoot(usize),
    Blast([Option<usize>; 3]),
    Knockout(usize),
    Fight(usize),
    Surprise(usize),
    Intimidate(usize),
    Heal(usize),
    Evade,
}

impl Choice {
    /// The one target, if any.
    fn target(self) -> Option<usize> {
        match self {
            Choice::Attack(t)
            | Choice::Throw(t)
            | Choice::Hold(t)
            | Choice::Distract(t)
            | Choice::Shoot(t)
            | Choice::Knockout(t)
            | Choice::Fight(t)
            | Choice::Surprise(t)
            | Choice::Intimidate(t)
            | Choice::Heal(t) => Some(t),
            Choice::Blast(_) | Choice::Evade => None,
        }
    }

    /// Close range, or otherwise forbidden from cover ("Basic Actions", take
    /// cover): the character leaves cover first.
    fn not_from_cover(self) -> bool {
        matches!(
            self,
            Choice::Attack(_)
                | Choice::Hold(_)
                | Choice::Distract(_)
                | Choice::Knockout(_)
                | Choice::Fight(_)
                | Choice::Surprise(_)
                | Choice::Intimidate(_)
                | Choice::Evade
        )
    }

    /// A close range attack, which engage's +2 helps.
    fn close(self) -> bool {
        matches!(
            self,
            Choice::Attack(_)
                | Choice::Hold(_)
                | Choice::Distract(_)
                | Choice::Knockout(_)
                | Choice::Fight(_)
        )
    }

    /// Allowed from cover and helped by it when wounded.
    fn allowed_in_cover(self) -> bool {
        matches!(
            self,
            Choice::Throw(_) | Choice::Shoot(_) | Choice::Blast(_) | Choice::Heal(_)
        )
    }
}

fn id(s: &State, i: usize) -> String {
    s.get(i).map(|c| c.id.clone()).unwrap_or_default()
}

fn act(s: &State, a: usize, action: Action) -> Command {
    Command::Act {
        actor: id(s, a),
        action,
    }
}

/// What a decision reads of one character, computed once per decision
/// instead of once per option.
#[derive(Clone, Copy, Debug)]
struct Seen {
    /// On another side than the actor.
    foe: bool,
    /// Healthy, injured or incapacitated ("Hit Points").
    health: HitPointState,
    /// Stamina and maximum hit points, bonuses included ("Defenses").
    stamina: u32,
    max_hit_points: u32,
    /// Agility before states ("Defenses").
    agility_base: u32,
    /// Agility, strength and intelligence now ("Defenses").
    agility: i64,
    strength: i64,
    intelligence: i64,
    /// His threat against agility 10.
    threat: f64,
}

/// Everything the scoring of one decision needs, computed once.
struct Decision<'a> {
    s: &'a State,
    odds: &'static DieOdds,
    a: usize,
    c: &'a Combatant,
    healthy: bool,
    injured: bool,
    /// Modifier of close range rolls, out of cover, engage included when the
    /// policy engages.
    close_mod: i64,
    /// Modifier of rolls allowed from cover (cover's -2 when it is or will be
    /// in cover).
    cover_mod: i64,
    /// Each character, by index.
    seen: &'a [Seen],
    /// The level the rules add to a basic attack (R-SCR-5).
    basic_level: i64,
    /// The ability the rules add to a hold (R-SCR-5), and its level.
    hold_pick: Option<Ability>,
    hold_level: i64,
    /// The level of the movement ability added to distract and evade.
    movement_pick: Option<Ability>,
    movement_level: i64,
    /// The level added to surprise (stealth or detection).
    stalk_level: i64,
}

impl Decision<'_> {
    fn agility(&self, t: usize) -> i64 {
        self.seen.get(t).map_or(10, |d| d.agility)
    }

    fn strength(&self, t: usize) -> i64 {
        self.seen.get(t).map_or(10, |d| d.strength)
    }

    fn intelligence(&self, t: usize) -> i64 {
        self.seen.get(t).map_or(10, |d| d.intelligence)
    }

    fn threat_of(&self, t: usize) -> f64 {
        self.seen.get(t).map_or(0.0, |d| d.threat)
    }

    fn foe(&self, t: usize) -> bool {
        self.seen.get(t).is_some_and(|d| d.foe)
    }

    /// Value of one or two damaging rolls at `t`: the share of his hit
    /// points they are expected to remove plus the chance they take him out,
    /// times his threat.
    fn hit_value(&self, t: usize, rolls: &[Roll]) -> f64 {
        let hp = self.s.get(t).map(|c| c.hit_points).unwrap_or(0);
        if hp == 0 {
            return 0.0;
        }
        let (expected, out) = damage_value(rolls, hp);
        (expected / f64::from(hp) + out) * self.threat_of(t)
    }

    /// Value of delaying (or panicking) `t` with chance `p`.
    fn control_value(&self, t: usize, p: f64, already: bool) -> f64 {
        if already { 0.0 } else { p * self.threat_of(t) }
    }

    fn level(&self, a: Ability) -> i64 {
        i64::from(self.c.level(a))
    }

    fn score(&self, choice: Choice) -> f64 {
        let s = self.s;
        let o = self.odds;
        let self_delay = if self.injured { 0.5 } else { 1.0 };
        match choice {
            Choice::Attack(t) => {
                let r = o.roll(self.basic_level, self.close_mod, self.agility(t), 1, 2);
                self.hit_value(t, &[r])
            }
            Choice::Throw(t) => {
                let r = o.roll(0, self.cover_mod, self.agility(t), 1, 2);
                self.hit_value(t, &[r])
            }
            Choice::Hold(t) => {
                let damaging = self.hold_pick == Some(Ability::Wrestling) && self.healthy;
                let (n, au) = if damaging { (1, 2) } else { (0, 0) };
                let r = o.roll(self.hold_level, self.close_mod, self.strength(t), n, au);
                let delayed = s.get(t).is_some_and(|x| x.delayed());
                self.hit_value(t, &[r]) + self.control_value(t, r.success(), delayed)
            }
            Choice::Distract(t) => {
                let p = o.success(self.movement_level, self.close_mod, self.intelligence(t));
                let delayed = s.get(t).is_some_and(|x| x.delayed());
                self.control_value(t, p, delayed)
            }
            Choice::Shoot(t) => {
                let r = o.roll(
                    self.level(Ability::Shooting),
                    self.cover_mod,
                    self.agility(t),
                    2,
                    5,
                );
                self.hit_value(t, &[r]) * self_delay
            }
            Choice::Blast(ts) => {
                let lvl = self.level(Ability::Blasting);
                ts.iter()
                    .flatten()
                    .map(|t| {
                        let r = o.roll(lvl, self.cover_mod, self.agility(*t), 1, 2);
                        self.hit_value(*t, &[r])
                    })
                    .sum::<f64>()
                    * self_delay
            }
            Choice::Knockout(t) => {
                let d = if self.healthy { 4 } else { 2 };
                let r = o.roll(
                    self.level(Ability::Knockout),
                    self.close_mod,
                    self.agility(t),
                    d,
                    d + 1,
                );
                self.hit_value(t, &[r]) * 0.5
            }
            Choice::Fight(t) => {
                let r = o.roll(
                    self.level(Ability::Fighting),
                    self.close_mod,
                    self.agility(t),
                    1,
                    2,
                );
                if self.healthy {
                    self.hit_value(t, &[r, r])
                } else {
                    self.hit_value(t, &[r])
                }
            }
            Choice::Surprise(t) => {
                // Forbidden from cover: valued out of it; engage is for close
                // range only.
                let p = o.success(self.stalk_level, 0, self.intelligence(t));
                let panicked = s.get(t).is_some_and(|x| x.panicked());
                self.control_value(t, p, panicked)
            }
            Choice::Intimidate(t) => {
                let p = o.success(
                    self.level(Ability::Command),
                    0,
                    self.intelligence(t).max(self.strength(t)),
                );
                let panicked = s.get(t).is_some_and(|x| x.panicked());
                self.control_value(t, p, panicked)
            }
            Choice::Heal(t) => {
                let (Some(tc), Some(seen)) = (s.get(t), self.seen.get(t)) else {
                    return 0.0;
                };
                let p = o.success(self.level(Ability::Healing), self.cover_mod, 10);
                match seen.health {
                    // Revived at 1 hit point: the mirror of taking a foe
                    // out (the whole of his threat back, twice).
                    HitPointState::Incapacitated => p * 2.0 * self.threat_of_revived(tc, seen),
                    // Healed to half his maximum + 1: the share of those
                    // hit points restored, times his threat.
                    HitPointState::Injured => {
                        let to = seen.max_hit_points / 2 + 1;
                        let gained = to.saturating_sub(tc.hit_points);
                        p * f64::from(gained) / f64::from(to.max(1)) * self.threat_of(t)
                    }
                    HitPointState::Healthy => 0.0,
                }
            }
            Choice::Evade => self.evade_value(),
        }
    }

    /// A revived ally has 1 hit point ("Support Abilities"): his threat in
    /// that state.
    fn threat_of_revived(&self, tc: &Combatant, seen: &Seen) -> f64 {
        let healthy = HitPointState::of(1, seen.stamina) == HitPointState::Healthy;
        threat_as(self.s, self.odds, tc, 10, healthy)
    }

    /// The damage evading saves this round: each foe standing hits the actor
    /// less often with the movement level added to his agility; shared among
    /// the allies standing (the foes spread their attacks).
    fn evade_value(&self) -> f64 {
        let s = self.s;
        if self.movement_pick.is_none() {
            return 0.0;
        }
        let added = self.movement_level;
        if added <= 0 {
            return 0.0;
        }
        let Some(mine) = self.seen.get(self.a) else {
            return 0.0;
        };
        let base = i64::from(mine.agility_base)
            + if s.in_water() {
                self.level(Ability::Swimming)
            } else {
                0
            };
        let mut saved = 0.0;
        let mut allies = 0u32;
        for (i, (f, seen)) in s.characters.iter().zip(self.seen).enumerate() {
            if !f.takes_turns() {
                continue;
            }
            if self.foe(i) {
                saved += threat(s, self.odds, f, seen, base)
                    - threat(s, self.odds, f, seen, base + added);
            } else {
                allies += 1;
            }
        }
        saved / f64::from(allies.max(1))
    }
}

/// The command the policy gives for character `a` now (`None` when he cannot
/// act).
fn choose(s: &State, a: usize) -> Option<Command> {
    let c = s.get(a)?;
    if !c.takes_turns() {
        return None;
    }
    let view = TurnView::of(s, a, c);
    if c.character.level(Ability::Toughness) == 0 {
        return Some(act(s, a, Action::End));
    }
    let health = c.hp_state(&s.rules);
    let healthy = health == HitPointState::Healthy;
    let injured = health == HitPointState::Injured;
    if c.delayed() {
        // "Attack Abilities" (wrestling): a healthy, delayed wrestler may hold
        // one who held him since his last turn (R-SCR-4).
        if healthy && c.has(Ability::Wrestling) && !c.in_cover && !c.panicked() {
            let holder = c
                .held_by
                .iter()
                .copied()
                .filter(|t| reachable(s, a, *t, Reach::Close))
                .min();
            if let Some(t) = holder {
                return Some(act(
                    s,
                    a,
                    Action::Hold {
                        target: id(s, t),
                        with: None,
                    },
                ));
            }
        }
        return Some(act(s, a, Action::End));
    }
    // After engage the turn's action is a close range attack (R-SCR-10).
    let close_only = view.engaged_now && !c.regular_used;
    if s.round >= WITHDRAW_ROUND && !close_only {
        return Some(withdraw(s, a, c, view));
    }
    if c.panicked() {
        return Some(if c.in_cover {
            act(s, a, Action::LeaveCover)
        } else {
            act(s, a, Action::Evade { with: None })
        });
    }
    let odds = DieOdds::of(s.rules.d20);
    let water = if s.in_water() {
        i64::from(c.level(Ability::Swimming))
    } else {
        0
    };
    let will_engage = healthy && !view.bonus_used;
    let engage_mod = if view.engaged_now || will_engage {
        2
    } else {
        0
    };
    let will_take_cover = injured && s.cover && !c.in_cover && !view.bonus_used;
    let cover_mod = if c.in_cover || will_take_cover { -2 } else { 0 };
    let in_water = s.in_water();
    let mine = s.side_of(a).unwrap_or_default();
    // On another side, by initiative group (sides compare as names).
    let mut foe_group = [false; MAX_CHARACTERS];
    for (g, slot) in s.groups.iter().zip(foe_group.iter_mut()) {
        *slot = g.side != mine && !names_match(&g.side, mine);
    }
    let mut seen: Vec<Seen> = Vec::with_capacity(s.characters.len().min(MAX_CHARACTERS));
    for (i, t) in s.characters.iter().enumerate().take(MAX_CHARACTERS) {
        let base = t.base_defenses(&s.rules);
        let health = HitPointState::of(t.hit_points, base.stamina);
        let mut x = Seen {
            foe: match foe_group.get(t.group) {
                Some(f) if t.group < s.groups.len() => *f,
                _ => s.side_of(i).is_some_and(|side| !names_match(side, mine)),
            },
            health,
            stamina: base.stamina,
            max_hit_points: base.max_hit_points,
            agility_base: base.agility,
            agility: t.agility_now(&base, in_water),
            strength: t.strength_now(&base),
            intelligence: i64::from(base.intelligence),
            threat: 0.0,
        };
        x.threat = threat(s, odds, t, &x, 10);
        seen.push(x);
    }
    let level_of = |ab: Option<Ability>| ab.map_or(0, |x| i64::from(c.level(x)));
    let hold_pick = default_pick(s, c, &HOLD_OPTIONS);
    let movement_pick = default_pick(s, c, &Ability::MOVEMENT);
    let d = Decision {
        s,
        odds,
        a,
        c,
        healthy,
        injured,
        close_mod: engage_mod + water,
        cover_mod,
        seen: &seen,
        basic_level: level_of(default_pick(s, c, &BASIC_OPTIONS)),
        hold_pick,
        hold_level: level_of(hold_pick),
        movement_pick,
        movement_level: level_of(movement_pick),
        stalk_level: level_of(default_pick(s, c, &[Ability::Stealth, Ability::Detection])),
    };
    let best = best_choice(&d, close_only).or_else(|| {
        close_only
            .then(|| {
                (0..s.characters.len())
                    .find(|t| *t != a && d.foe(*t) && reachable(s, a, *t, Reach::Close))
                    .or_else(|| {
                        (0..s.characters.len())
                            .find(|t| *t != a && reachable(s, a, *t, Reach::Close))
                    })
                    .map(|t| (Choice::Attack(t), 0.0))
            })
            .flatten()
    });
    let Some((choice, _)) = best else {
        return Some(act(s, a, Action::End));
    };
    if choice.not_from_cover() && c.in_cover {
        return Some(act(s, a, Action::LeaveCover));
    }
    if choice.allowed_in_cover() && will_take_cover {
        return Some(act(s, a, Action::TakeCover));
    }
    if choice.close() && will_engage && !view.engaged_now {
        return Some(act(s, a, Action::Engage));
    }
    Some(act(s, a, action_of(s, choice)))
}

/// The best choice and its value; `None` when nothing is worth anything.
/// With `close_only` (after engage, R-SCR-10) only close range attacks count.
fn best_choice(d: &Decision<'_>, close_only: bool) -> Option<(Choice, f64)> {
    let s = d.s;
    let a = d.a;
    let c = d.c;
    let mut best: Option<(Choice, f64, u32)> = None;
    let mut consider = |choice: Choice| {
        if close_only && !choice.close() {
            return;
        }
        let v = d.score(choice);
        let hp = choice
            .target()
            .and_then(|t| s.get(t))
            .map_or(u32::MAX, |x| x.hit_points);
        // Equal values: the weaker target (fewer hit points), then the first.
        let better =
            best.is_none_or(|(_, b, bhp)| v > b + EPSILON || (v > b - EPSILON && hp < bhp));
        if v > 0.0 && better {
            best = Some((choice, v, hp));
        }
    };
    let used = |kind: Unrepeatable, t: usize| s.unrepeatable.contains(&(a, kind, t));
    let has = |ab: Ability| c.has(ab);
    // Blasting: the (up to) three foes it values most.
    let mut blast: [(f64, Option<usize>); 3] = [(0.0, None); 3];
    for t in 0..s.characters.len() {
        if !d.foe(t) {
            if has(Ability::Healing) && t != a {
                let ok = s.get(t).zip(d.seen.get(t)).is_some_and(|(tc, seen)| {
                    !tc.escaped
                        && tc.leader.is_none()
                        && tc.character.level(Ability::Toughness) > 0
                        && seen.health != HitPointState::Healthy
                });
                if ok {
                    consider(Choice::Heal(t));
                }
            }
            continue;
        }
        if reachable(s, a, t, Reach::Close) {
            consider(Choice::Attack(t));
            consider(Choice::Hold(t));
            if has(Ability::Fighting) {
                consider(Choice::Fight(t));
            }
            if has(Ability::Knockout) {
                consider(Choice::Knockout(t));
            }
            if !used(Unrepeatable::Distract, t) {
                consider(Choice::Distract(t));
            }
        }
        if reachable(s, a, t, Reach::Long) {
            if s.throwable_objects {
                consider(Choice::Throw(t));
            }
            if has(Ability::Shooting) {
                consider(Choice::Shoot(t));
            }
            if (has(Ability::Stealth) || has(Ability::Detection))
                && !used(Unrepeatable::Surprise, t)
            {
                consider(Choice::Surprise(t));
            }
            if has(Ability::Command) && !used(Unrepeatable::Intimidate, t) {
                consider(Choice::Intimidate(t));
            }
            if has(Ability::Blasting) {
                let v = d.score(Choice::Blast([Some(t), None, None]));
                // Keep the three best, best first (ties: table order).
                let mut entry = (v, Some(t));
                for slot in &mut blast {
                    if slot.1.is_none() || entry.0 > slot.0 {
                        std::mem::swap(slot, &mut entry);
                    }
                    if entry.1.is_none() {
                        break;
                    }
                }
            }
        }
    }
    if blast[0].1.is_some() {
        consider(Choice::Blast([blast[0].1, blast[1].1, blast[2].1]));
    }
    if d.injured {
        consider(Choice::Evade);
    }
    best.map(|(c, v, _)| (c, v))
}

/// Values closer than this are equal (rounding in the odds).
const EPSILON: f64 = 1e-9;

fn action_of(s: &State, choice: Choice) -> Action {
    match choice {
        Choice::Attack(t) => Action::Attack {
            target: id(s, t),
            with: None,
        },
        Choice::Throw(t) => Action::Throw { target: id(s, t) },
        Choice::Hold(t) => Action::Hold {
            target: id(s, t),
            with: None,
        },
        Choice::Distract(t) => Action::Distract {
            target: id(s, t),
            with: None,
        },
        Choice::Shoot(t) => Action::Shoot { target: id(s, t) },
        Choice::Blast(ts) => Action::Blast {
            targets: ts.iter().flatten().map(|t| id(s, *t)).collect(),
        },
        Choice::Knockout(t) => Action::Knockout { target: id(s, t) },
        Choice::Fight(t) => Action::Fight {
            targets: vec![id(s, t)],
        },
        Choice::Surprise(t) => Action::Surprise {
            target: id(s, t),
            with: None,
        },
        Choice::Intimidate(t) => Action::Intimidate { target: id(s, t) },
        Choice::Heal(t) => Action::Heal { target: id(s, t) },
        Choice::Evade => Action::Evade { with: None },
    }
}
