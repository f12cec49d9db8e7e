//! The policy: what a reasonable player (or storyteller) of Sour Grapes does
//! now, for the NPC autopilot and for simulated encounters
//! ([`tabula_core::Policy`]).
//!
//! Every choice of dice and tokens is made by the exact odds of the roll
//! (each die is a success unless it shows 1, each token a sure success:
//! Sour Grapes, "Check"; R-SG-1, R-SG-2) weighed against what it costs:
//!
//! - **A die** costs the Stat it exhausts: a 1 "is not counted AND the Stat is
//!   exhausted by one point per die" ("Check"), so `1/6` of a point per die
//!   ([`DIE_COST`]), plus [`DEPLETE_COST`] times the exact chance that the 1s
//!   empty the Stat (a Stat at zero is Injured and its condition applies,
//!   "Stat Mechanics", R-SG-10). "The player may choose to use less dice in a
//!   roll to prevent additional ones that may exhaust a stat farther than
//!   necessary" ("Check"): a die is added only when the odds it adds are worth
//!   more than the Stat it risks.
//! - **A token** costs [`TOKEN_COST`] of a point: in an Event a spent token
//!   comes back only through the Controller's free point ("Skill Mechanics",
//!   "Turn Mechanics" Prep), which could have restored a Stat point instead.
//! - **What a roll is worth** is counted in the same points: the expected
//!   damage a Stunt deals ("Stunt": "Deal Vitality Damage equal to the
//!   Result"), the expected damage a Dodge, a Shove or a Sand Strike keeps off
//!   ("Reactions", "Divert", "Interrupt"), the extra damage of a Compliment.
//!
//! The bet with the best worth (odds times value, less costs) is placed; a
//! card whose best bet is worth nothing is not played (a receiver `take`s).
//!
//! The steps, in the book's order ("Event", "Turn Mechanics"):
//!
//! | moment / step | who | choice |
//! |---|---|---|
//! | between moments | storyteller | `event` (the encounter is the Event); `end-encounter` once one side is all Dying |
//! | Situation | its character | `final`: dice and tokens by the odds against the Difficulty |
//! | initiative | each | the Stat with the highest Current value, every die (initiative exhausts nothing, R-SG-8) |
//! | 1 Prep | Controller | the free point into Vitality, else the lowest exhausted Stat its cards use, else a spent token (`free_point`); an effect to roll for is kept when its odds are worth it, else discarded (R-SG-9) |
//! | 2 Stunt | Controller | a damaging Stunt (Attack) when a foe stands; otherwise `end` |
//! | 3 Interrupt | the first foe of the Controller with a worthwhile Interrupt | Sand Strike with the best bet; then the Controller passes |
//! | 4 Targeting & Betting | Controller | the foe and the Success / Result dice and tokens with the greatest expected damage, against the foe's best Dodge (R-SG-4, R-SG-5) |
//! | 5 Compliments & Diversions | the first ally with a worthwhile Compliment, the first friend of a receiver with a worthwhile Divert | Flame Weapon; Shove onto the Controller's weakest ally (R-SG-6); then the Controller passes |
//! | 7 Reaction | each receiver | Dodge with the best bet against the Stunt's placed dice (R-SG-5, R-SG-11), or `take` |
//!
//! Only one character per side offers a card for each slot, so allies never
//! lose rolls to each other in a slot conflict ("Turn Mechanics", Notes).
//!
//! **The end.** The book gives an Event no end of its own: Tabula ends it
//! when one side is all Dying ("Dying: Actions cannot be played"). The
//! storyteller's policy then ends the encounter. It also ends the encounter,
//! with no winner, when no one standing can play a damaging Stunt against a
//! standing foe (a depleted Stat is Injured and does not come back in the
//! Event), or after [`MAX_ROUNDS`] rounds (docs/systems/sour-grapes.md,
//! "Policy and simulation").
//!
//! The policy never rolls and never clones the state: it reads it and returns
//! a command [`tabula_core::System::decide`] accepts.

use std::sync::OnceLock;

use tabula_core::{Awaiting, EncounterReport, ParticipantReport, Policy, Resource, Seat};

use crate::SourGrapes;
use crate::cards::{ActionCard, CardType, Outcome};
use crate::command::Command;
use crate::state::{Bet, Moment, Participant, Pool, State, Step, Turn};
use crate::stats::{Condition, Stat};

/// The expected exhaustion of one die, in Stat points: it shows 1 one time in
/// six ("Check").
pub const DIE_COST: f64 = 1.0 / 6.0;
/// What one Skill token is worth keeping, in Stat points (half of the free
/// point that would buy it back, "Turn Mechanics" Prep).
pub const TOKEN_COST: f64 = 0.5;
/// What emptying a Stat costs beyond its points, in Stat points: it is
/// Injured and its condition applies ("Stat Mechanics"; R-SG-10).
pub const DEPLETE_COST: f64 = 3.0;
/// What keeping a positive effect (Trained Breathing) is worth, in Stat
/// points, when its holder rolls for it (R-SG-9).
pub const KEEP_VALUE: f64 = 1.0;
/// The storyteller's round cap: the encounter ends with no winner after this
/// many rounds (docs/systems/sour-grapes.md, "Policy and simulation").
pub const MAX_ROUNDS: u32 = 20;
/// The most dice a policy bet considers (a Stat is at most 10).
const MAX_POLICY_DICE: u32 = 10;
/// The most tokens a policy bet considers (a Skill is at most 5).
const MAX_POLICY_TOKENS: u32 = 5;

// ---------------------------------------------------------------- odds

/// The chance of each number of successes, 0..=`dice` + `tokens`, of `dice` d6
/// (a success unless it shows 1) plus `tokens` sure successes: the same
/// distribution as [`crate::check::successes_dist`], computed directly.
/// Sour Grapes, "Check"; R-SG-1.
pub fn successes(dice: u32, tokens: u32) -> Vec<f64> {
    let dice = dice.min(MAX_POLICY_DICE);
    let tokens = tokens.min(MAX_POLICY_TOKENS);
    let mut row = vec![1.0_f64];
    for _ in 0..dice {
        let mut next = vec![0.0_f64; row.len() + 1];
        for (k, p) in row.iter().enumerate() {
            next[k] += p / 6.0;
            next[k + 1] += p * 5.0 / 6.0;
        }
        row = next;
    }
    let mut out = vec![0.0_f64; tokens as usize];
    out.extend(row);
    out
}

/// [`successes`] of every `dice` 0..=[`MAX_POLICY_DICE`] and `tokens`
/// 0..=[`MAX_POLICY_TOKENS`], computed once: the policy looks up thousands of
/// them a step.
fn table() -> &'static [Vec<f64>] {
    static TABLE: OnceLock<Vec<Vec<f64>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..=MAX_POLICY_DICE)
            .flat_map(|d| (0..=MAX_POLICY_TOKENS).map(move |t| successes(d, t)))
            .collect()
    })
}

/// [`successes`]`(dice, tokens)`, from the table.
fn dist(dice: u32, tokens: u32) -> &'static [f64] {
    let d = dice.min(MAX_POLICY_DICE);
    let t = tokens.min(MAX_POLICY_TOKENS);
    let i = (d * (MAX_POLICY_TOKENS + 1) + t) as usize;
    table().get(i).map_or(&[], Vec::as_slice)
}

/// The chance of at least `need` successes in a distribution from [`successes`].
pub fn at_least(dist: &[f64], need: u32) -> f64 {
    dist.iter().skip(need as usize).sum::<f64>().clamp(0.0, 1.0)
}

/// The chance that `dice` d6 show at least `ones` 1s, from a table of the
/// distributions of 0..=[`MAX_POLICY_DICE`] dice computed once.
fn ones_at_least(dice: u32, ones: u32) -> f64 {
    static ONES: OnceLock<Vec<Vec<f64>>> = OnceLock::new();
    let rows = ONES.get_or_init(|| (0..=MAX_POLICY_DICE).map(ones_dist).collect());
    rows.get(dice.min(MAX_POLICY_DICE) as usize)
        .map_or(0.0, |row| at_least(row, ones))
}

/// The chance of each number of 1s, 0..=`dice`, of `dice` d6.
fn ones_dist(dice: u32) -> Vec<f64> {
    // A 1 is a "success" of 1/6: the mirror of `successes`.
    let mut row = vec![1.0_f64];
    for _ in 0..dice.min(MAX_POLICY_DICE) {
        let mut next = vec![0.0_f64; row.len() + 1];
        for (k, p) in row.iter().enumerate() {
            next[k] += p * 5.0 / 6.0;
            next[k + 1] += p / 6.0;
        }
        row = next;
    }
    row
}

/// What rolling `dice` dice of a Stat at Current `current` costs, in Stat
/// points: [`DIE_COST`] a die, plus [`DEPLETE_COST`] times the exact chance
/// that the 1s take it to zero.
pub fn exhaust_cost(dice: u32, current: u32) -> f64 {
    let mut cost = f64::from(dice) * DIE_COST;
    if dice > 0 && dice >= current {
        cost += DEPLETE_COST * ones_at_least(dice, current.max(1));
    }
    cost
}

/// One roll the policy may place dice and tokens on.
#[derive(Clone, Copy, Debug)]
struct Roll {
    /// The most dice: the Stat's Current value.
    max_dice: u32,
    /// The most tokens (free tokens of the card's skill).
    tokens: u32,
    /// False when an effect forbids tokens with this Stat's dice (Intoxicated).
    mix: bool,
}

impl Roll {
    fn of(state: &State, who: &str, stat: Stat, tokens: u32) -> Roll {
        Roll {
            max_dice: cur(state, who, stat).min(MAX_POLICY_DICE),
            tokens: tokens.min(MAX_POLICY_TOKENS),
            mix: !state.no_tokens_with(who, stat),
        }
    }

    /// Every bet of this roll with at most `tokens` tokens, fewer tokens and
    /// dice first.
    fn bets(self, tokens: u32) -> impl Iterator<Item = Bet> {
        let max = self.max_dice;
        let mix = self.mix;
        (0..=tokens.min(self.tokens)).flat_map(move |t| {
            (0..=max)
                .filter(move |d| mix || t == 0 || *d == 0)
                .map(move |d| Bet { dice: d, tokens: t })
        })
    }

    fn cost(self, bet: Bet) -> f64 {
        exhaust_cost(bet.dice, self.max_dice) + f64::from(bet.tokens) * TOKEN_COST
    }
}

/// The best bet of `roll` for a card or check worth `value` when it reaches
/// `need` successes: the greatest chance times value, less costs; ties go to
/// fewer tokens, then fewer dice. Returns the bet and its worth.
fn best_bet(roll: Roll, value: f64, chance: impl Fn(&[f64]) -> f64) -> (Bet, f64) {
    best_bet_where(roll, value, chance, |_| true)
}

/// [`best_bet`] over the bets `allowed` accepts (the zero bet when it accepts
/// none).
fn best_bet_where(
    roll: Roll,
    value: f64,
    chance: impl Fn(&[f64]) -> f64,
    allowed: impl Fn(&Bet) -> bool,
) -> (Bet, f64) {
    let mut best = (Bet::default(), f64::NEG_INFINITY);
    for bet in roll.bets(roll.tokens).filter(|b| allowed(b)) {
        let worth = chance(dist(bet.dice, bet.tokens)) * value - roll.cost(bet);
        if worth > best.1 + 1e-12 {
            best = (bet, worth);
        }
    }
    best
}

// ---------------------------------------------------------------- the table

/// The side of a participant: `players` or `monsters` ("Monsters").
fn side(p: &Participant) -> &'static str {
    if p.character.is_monster() {
        "monsters"
    } else {
        "players"
    }
}

fn cur(state: &State, who: &str, stat: Stat) -> u32 {
    state
        .participant(who)
        .map_or(0, |p| p.character.stat(stat).current)
}

fn dying(p: &Participant) -> bool {
    p.character.has(Condition::Dying)
}

fn standing(p: &Participant) -> bool {
    !dying(p)
}

fn foes(state: &State, a: &str, b: &str) -> bool {
    match (state.participant(a), state.participant(b)) {
        (Some(x), Some(y)) => side(x) != side(y),
        _ => false,
    }
}

/// The standing participants who are not on `who`'s side.
fn standing_foes<'a>(state: &'a State, who: &str) -> impl Iterator<Item = &'a Participant> {
    let mine = state.participant(who).map(side);
    state
        .participants
        .iter()
        .filter(move |p| Some(side(p)) != mine && standing(p))
}

/// The cards of `who` of `kind` they may play now.
fn playable<'a>(state: &'a State, who: &'a str, kind: CardType) -> Vec<&'a ActionCard> {
    state.participant(who).map_or_else(Vec::new, |p| {
        p.cards
            .iter()
            .filter_map(|c| state.card(c))
            .filter(|c| c.kind == kind && state.may_play(who, c, kind))
            .collect()
    })
}

/// A damaging Stunt `who` may lay now (Attack).
fn damage_stunt<'a>(state: &'a State, who: &'a str) -> Option<&'a ActionCard> {
    playable(state, who, CardType::Stunt)
        .into_iter()
        .find(|c| c.outcome == Outcome::Damage)
}

/// True when some side that exists is all Dying: the Event is over (Tabula's
/// end of an Event, "Decisions where the book and rulings are silent").
fn one_side_down(state: &State) -> bool {
    ["players", "monsters"].iter().any(|s| {
        let mut members = state.participants.iter().filter(|p| side(p) == *s);
        let first = members.next();
        first.is_some_and(|f| dying(f) && members.all(dying))
    })
}

/// True when no standing participant can play a damaging Stunt against a
/// standing foe: the fight cannot go on.
fn stalemate(state: &State) -> bool {
    !state.participants.iter().any(|p| {
        let name = p.character.name();
        standing(p)
            && damage_stunt(state, name).is_some()
            && standing_foes(state, name).next().is_some()
    })
}

/// True when the storyteller's policy ends the encounter now.
fn storyteller_ends(state: &State) -> bool {
    match &state.moment {
        Moment::Event(e) => e.round > MAX_ROUNDS || stalemate(state) || one_side_down(state),
        Moment::Free => one_side_down(state) || stalemate(state),
        Moment::Situation(_) => false,
    }
}

mod steps;
use steps::*;

impl Policy for SourGrapes {
    fn awaiting(state: &State) -> Vec<Awaiting> {
        if state.over {
            return Vec::new();
        }
        let mut out = Vec::new();
        if storyteller_ends(state) {
            out.push(Awaiting::table(Seat::Gm));
        }
        match &state.moment {
            Moment::Free => {
                if out.is_empty() {
                    out.push(Awaiting::table(Seat::Gm));
                }
            }
            Moment::Situation(sit) => out.push(waiting_on(state, &sit.who)),
            Moment::Event(e) => {
                if e.order.is_empty() {
                    for p in &state.participants {
                        let n = p.character.name();
                        if e.initiative.get(n).is_some_and(Option::is_none) {
                            out.push(waiting_on(state, n));
                        }
                    }
                }
                match &e.turn {
                    None => {
                        if out.is_empty() {
                            out.push(Awaiting::table(Seat::Gm));
                        }
                    }
                    Some(t) => {
                        let ctl = t.controller.as_str();
                        match t.step {
                            Step::Prep | Step::Targeting => out.push(waiting_on(state, ctl)),
                            Step::Interrupt => {
                                if let Some(p) = state
                                    .participants
                                    .iter()
                                    .find(|p| interrupt(state, t, p.character.name()).is_some())
                                {
                                    out.push(waiting_on(state, p.character.name()));
                                }
                                out.push(waiting_on(state, ctl));
                            }
                            Step::Support => {
                                let c = state
                                    .participants
                                    .iter()
                                    .find(|p| compliment(state, t, p.character.name()).is_some());
                                let v = state
                                    .participants
                                    .iter()
                                    .find(|p| divert(state, t, p.character.name()).is_some());
                                for p in [c, v].into_iter().flatten() {
                                    let n = p.character.name();
                                    if n != ctl {
                                        out.push(waiting_on(state, n));
                                    }
                                }
                                out.push(waiting_on(state, ctl));
                            }
                            Step::Reaction => {
                                for r in
                                    t.receivers.iter().filter(|r| !t.reactions.contains_key(*r))
                                {
                                    out.push(waiting_on(state, r));
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn suggest_for(state: &State, awaiting: &Awaiting) -> Option<Command> {
        if state.over {
            return None;
        }
        let Some(who) = awaiting.participant.as_deref() else {
            if !awaiting.seat.is_gm() {
                return None;
            }
            return match &state.moment {
                Moment::Free if !storyteller_ends(state) => Some(Command::StartEvent),
                Moment::Situation(_) => None,
                _ => Some(Command::EndEncounter),
            };
        };
        let p = state.participant(who)?;
        if !p.seat.same_seat(&awaiting.seat) {
            return None;
        }
        let who = p.character.name();
        match &state.moment {
            Moment::Free => None,
            Moment::Situation(sit) => (sit.who == who).then(|| final_check(state, who))?,
            Moment::Event(e) => {
                if e.order.is_empty() {
                    return e
                        .initiative
                        .get(who)
                        .is_some_and(Option::is_none)
                        .then(|| initiative(state, who));
                }
                let t = e.turn.as_ref()?;
                let is_ctl = t.controller == who;
                match t.step {
                    Step::Prep => is_ctl.then(|| prep(state, t)),
                    Step::Targeting => {
                        if is_ctl {
                            target(state, t)
                        } else {
                            None
                        }
                    }
                    Step::Interrupt => {
                        if is_ctl {
                            Some(Command::Pass)
                        } else {
                            interrupt(state, t, who)
                        }
                    }
                    Step::Support => compliment(state, t, who)
                        .or_else(|| divert(state, t, who))
                        .or_else(|| is_ctl.then_some(Command::Pass)),
                    Step::Reaction => (t.receivers.iter().any(|r| r == who)
                        && !t.reactions.contains_key(who))
                    .then(|| react(state, t, who)),
                }
            }
        }
    }

    fn report(state: &State) -> EncounterReport {
        let mut sides: Vec<String> = Vec::new();
        for p in &state.participants {
            let s = side(p);
            if !sides.iter().any(|x| x == s) {
                sides.push(s.to_string());
            }
        }
        let standing_sides: Vec<&String> = sides
            .iter()
            .filter(|s| {
                state
                    .participants
                    .iter()
                    .any(|p| side(p) == s.as_str() && standing(p))
            })
            .collect();
        let winner = match standing_sides.as_slice() {
            [one] if sides.len() > 1 => Some((*one).clone()),
            _ => None,
        };
        let round = match &state.moment {
            Moment::Event(e) => e.round,
            _ => state.rounds,
        };
        let participants = state
            .participants
            .iter()
            .map(|p| {
                let c = &p.character;
                let mut resources: Vec<Resource> = Stat::ALL
                    .iter()
                    .map(|st| Resource::new(st.name(), c.stat(*st).current))
                    .collect();
                let exhausted: u32 = Stat::ALL.iter().map(|st| c.stat(*st).exhausted()).sum();
                let injured = Stat::ALL.iter().filter(|st| c.stat(**st).injured).count() as u32;
                let tokens: u32 = c.skills().iter().map(|k| k.available).sum();
                resources.push(Resource::new("Stats exhausted", exhausted));
                resources.push(Resource::new("Injured", injured));
                resources.push(Resource::new("Skill tokens", tokens));
                resources.push(Resource::new("Effects", p.effects.len() as u32));
                ParticipantReport {
                    name: c.name().to_string(),
                    side: side(p).to_string(),
                    taken_out: dying(p),
                    resources,
                }
            })
            .collect();
        EncounterReport {
            round,
            sides,
            winner,
            participants,
        }
    }
}
