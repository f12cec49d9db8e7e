//! The policy: what a reasonable player (or the Dealer) does at each step of
//! an Opposition, so that a character can be put on autopilot (`auto NAME` in
//! `play`) and whole encounters simulated (`tabula bastards simulate`).
//!
//! A Game of Bastards (003_2dfeea144768d328.txt): "Steps" / "Opposition",
//! "Skill Hands in Oppositions", "Initiative", "Core Mechanic", "Desperation",
//! "Building A Scene" (Appearance); R-GB-2, R-GB-4, R-GB-5, R-GB-11, R-GB-12.
//!
//! The policy never rolls and never clones the state: it reads the state and
//! the exact odds the crate computes ([`crate::chance::card_wins`],
//! [`crate::odds::lead_chance_after`]) and gives a command
//! [`crate::decide::decide`] accepts. It reads only what the seat giving
//! the command may see (R-GB-12): its own characters' hands and pools, and
//! what is on the table (Traits and skills of the index cards, hand sizes,
//! initiative and face-up cards, Wildcards, Desperation, knock-outs, the
//! public effects of Advantages). Another seat's hand or pools never enter a
//! choice; the GM is a seat like any other (it sees the Dealer's hands only).
//!
//! # Sides
//!
//! With a Dealer, every player's character is on the side `players` and every
//! character the Dealer (the `gm` seat) commands on the side `Dealer`: the
//! example table's characters corner the investor together. In an Indirect
//! Opposition (`indirect = true`, "Suggestions for games with no dealer") the
//! player not involved runs the opposing forces, so each seat is its own side.
//!
//! # The steps ("Steps" 1-14)
//!
//! - **Begin** (step 1): the Dealer begins an Opposition when two characters
//!   are in the scene ("Core Mechanic").
//! - **Initiative** ("Initiative"; R-GB-2): each character plays the lowest
//!   card of its hand (an Ace counts 1). The lowest card acts first and the
//!   card leaves the hand for the whole Opposition, so the lowest card both
//!   acts earliest and keeps the strong cards for the hands to come.
//! - **Draw or mulligan** (step 2, "Core Mechanic"): draw, unless the hand
//!   holds fewer than two cards and a new hand would bring at least three
//!   more: then mulligan (the action is sacrificed for a full hand).
//! - **Appearance** ("Building A Scene"): a character not yet in the scene
//!   makes its Appearance, between two actions, when its side is outnumbered
//!   (fewer characters still standing than the strongest other side): "If the
//!   character is invested enough in the Opposition".
//! - **The action** (steps 3-4): attack the weakest reachable foe: a foe one
//!   pool from being out (a Desperate Fated, a Follower, a group of Extras)
//!   before a fresh Fated (two pools, R-GB-5); among those, the attack with the
//!   best exact chance that the character's best card plus its bonus beats the
//!   best of the cards the foe will hold ([`crate::chance::card_wins`]: the
//!   foe's hand is unseen, so it is that many cards from the shoe, R-GB-11);
//!   then table order. The hand is physical (Body, damage to BP plus the
//!   weapon, R-GB-5, R-GB-10) against anyone who is not Desperate; against a
//!   Desperate Fated, whose BP the policy's own physical attacks emptied and
//!   where damage no longer "rolls over" ("Desperation"), social (Mind, to MP)
//!   or fear (Spirit, to SP), whichever has the better odds. Distance
//!   ("Building A Scene") rules out physical hands while it lasts. The skill
//!   is the highest-ranked one for the hand (the ranks are the face-up cards
//!   it may bet), a weapon in hand breaking ties by its damage; a Specialty
//!   built on that skill adds its rank ("Specialties"); Zeal or Fortune
//!   ("Advantages") replace Body when that gives better exact odds and the
//!   pool keeps a point after paying. A failed attack costs the attacker only
//!   its cards, so the character attacks unless no attack has at least a one
//!   in ten chance or the hand is empty: then it holds its action (`pass`)
//!   and keeps its cards.
//! - **Face-down cards** (step 5, "Skill Hands in Oppositions"): the best card
//!   of the hand; the defender names its own best-ranked skill for the kind
//!   of hand (a Follower or Extras keep the attacker's). Before that, the one
//!   acted against mulligans once by the draw step's measure (fewer than two
//!   cards, a new hand bringing at least three more; "Core Mechanic"; R-GB-16)
//!   when it has already acted this round, so no action is sacrificed.
//! - **Betting** (steps 6-8): from the exact chance of winning if both call
//!   ([`crate::odds::lead_chance_after`], from the cards the seat has seen):
//!   call when that chance is at least 70%; else bet the lowest card of the
//!   hand that lifts it to 70%; else bet the best card if it adds at least 15
//!   points and leaves at least a one in ten chance (keep fighting for a
//!   hand that is not lost); else bet a Wildcard's card when that adds at least 15
//!   points; else call (no good card after a lost hand). Every bet spends a
//!   card or a Wildcard, so betting always ends.
//! - **End** (steps 13-14): the Dealer ends the Opposition when at most one
//!   side still has a character standing ("combat will generally last until
//!   someone falls over or gives up"), or when round [`ROUND_CAP`] is over
//!   (the sides give up: "a tactical retreat, or talking the situation out",
//!   "Shuffling"); then the Dealer ends the encounter (`finish`).
//!
//! Not used by the policy (a player may still type them): Skill Checks,
//! Reinforce, Involve, Distance, discards, the Advantages used on their own
//! (Dodge, Study, All-Out Defense, ...), Savage, Wild Swing, Disarm, Counter
//! and Mind Over Matter.
//!
//! An empty shoe ("Shuffling"): a draw is always taken, even when it brings
//! nothing; a foe holding no card when none is left to draw is not attacked;
//! a Wildcard's card is bet only while a card is left to draw.

use tabula_core::cards::Card;
use tabula_core::policy::{Awaiting, EncounterReport, ParticipantReport, Policy, Resource};
use tabula_core::system::Seat;

use crate::Bastards;
use crate::advantages::Advantage;
use crate::chance;
use crate::character::Trait;
use crate::command::Command;
use crate::odds::{BetMove, lead_chance_after};
use crate::state::{AttackOptions, Body, Combatant, HandKind, Phase, Side, State};
use crate::values;

/// The round after which the Dealer ends an Opposition no side has won: the
/// sides give up ("Shuffling": "a tactical retreat, or talking the situation
/// out"). A Tabula decision; see `docs/systems/bastards.md`.
pub const ROUND_CAP: u32 = 20;

/// The chance of winning a betting step at which a side calls (and the chance
/// a bet aims for).
pub const CALL_AT: f64 = 0.7;

/// The least chance an attack must have for the policy to declare it, and a
/// bet with the best card to be worth it: below one in ten a hand is lost.
pub const ATTACK_AT: f64 = 0.1;

/// The least gain a bet with the best card or a Wildcard must bring.
pub const BET_GAIN: f64 = 0.15;

/// Social skills the policy considers ("Influence", "Business": "attempts at
/// trickery or influence (lying, bribery, haggling)").
const SOCIAL_SKILLS: [&str; 2] = ["Influence", "Business"];
/// Fear skills ("skill attempts such as those to incite or lead").
const FEAR_SKILLS: [&str; 1] = ["Influence"];
/// The skill every Fated has for a blow without a weapon.
const UNARMED: &str = "Unarmed Combat";

/// The side a combatant is on: `players` or `Dealer`; in an Indirect
/// Opposition, its seat.
pub fn side_of(state: &State, c: &Combatant) -> String {
    if c.controller.is_gm() {
        "Dealer".to_string()
    } else if state.indirect {
        c.controller.to_string()
    } else {
        "players".to_string()
    }
}

/// Whether two combatants are on the same side ([`side_of`], without
/// building the names).
fn same_side(state: &State, a: &Combatant, b: &Combatant) -> bool {
    if a.controller.is_gm() || b.controller.is_gm() || state.indirect {
        a.controller.same_seat(&b.controller)
    } else {
        true
    }
}

/// Every side, in table order.
pub fn sides(state: &State) -> Vec<String> {
    let mut v: Vec<&Combatant> = Vec::new();
    for c in &state.combatants {
        if !v.iter().any(|o| same_side(state, o, c)) {
            v.push(c);
        }
    }
    v.into_iter().map(|c| side_of(state, c)).collect()
}

/// The first combatant of every side that still has a character standing
/// (in the scene, not knocked out), in table order.
fn standing_sides(state: &State) -> Vec<&Combatant> {
    let mut v: Vec<&Combatant> = Vec::new();
    for c in state.combatants.iter().filter(|c| c.active()) {
        if !v.iter().any(|o| same_side(state, o, c)) {
            v.push(c);
        }
    }
    v
}

/// The sides that still have a character standing (in the scene, not
/// knocked out), in table order.
pub fn standing(state: &State) -> Vec<String> {
    standing_sides(state)
        .into_iter()
        .map(|c| side_of(state, c))
        .collect()
}

/// Whether the Dealer ends the Opposition now: at most one side stands, or
/// the round cap is passed ("Steps" 13).
pub fn opposition_over(state: &State) -> bool {
    standing_sides(state).len() <= 1 || state.round > ROUND_CAP
}

fn index_of(state: &State, name: &str) -> Option<usize> {
    state.combatants.iter().position(|c| c.name == name)
}

fn awaits(c: &Combatant) -> Awaiting {
    Awaiting::participant(c.controller.clone(), c.name.clone())
}

/// Active characters on `c`'s side.
fn side_count(state: &State, c: &Combatant) -> usize {
    state
        .combatants
        .iter()
        .filter(|o| o.active() && same_side(state, o, c))
        .count()
}

/// An absent Fated makes its Appearance when its side is outnumbered.
fn wants_to_appear(state: &State, c: &Combatant) -> bool {
    if c.present || c.knocked_out || c.removed || c.character().is_none() {
        return false;
    }
    let mine = side_count(state, c);
    let strongest = state
        .combatants
        .iter()
        .filter(|o| o.active() && !same_side(state, o, c))
        .map(|o| side_count(state, o))
        .max()
        .unwrap_or(0);
    mine < strongest
}

impl Policy for Bastards {
    fn awaiting(state: &State) -> Vec<Awaiting> {
        let mut out = Vec::new();
        if state.finished {
            return out;
        }
        match &state.phase {
            Phase::Scene => out.push(Awaiting::table(Seat::Gm)),
            Phase::Initiative => {
                out.extend(
                    state
                        .combatants
                        .iter()
                        .filter(|c| c.active() && c.initiative.is_none() && !c.hand.is_empty())
                        .map(awaits),
                );
                if out.is_empty() {
                    // Nobody can play an initiative card: the Dealer ends it.
                    out.push(Awaiting::table(Seat::Gm));
                }
            }
            Phase::Turn { actor, drawn } => {
                if opposition_over(state) {
                    out.push(Awaiting::table(Seat::Gm));
                }
                if !drawn {
                    out.extend(
                        state
                            .combatants
                            .iter()
                            .filter(|c| wants_to_appear(state, c))
                            .map(awaits),
                    );
                }
                if let Some(c) = state.combatants.get(*actor) {
                    out.push(awaits(c));
                }
            }
            Phase::Exchange(x) => {
                let i = if x.attacker_down.is_none() {
                    x.attacker
                } else if x.defender_down.is_none() {
                    x.defender
                } else if x.to_act == Side::Attacker {
                    x.attacker
                } else {
                    x.defender
                };
                if let Some(c) = state.combatants.get(i) {
                    out.push(awaits(c));
                }
            }
        }
        out
    }

    fn suggest_for(state: &State, awaiting: &Awaiting) -> Option<Command> {
        if state.finished {
            return None;
        }
        let Some(name) = &awaiting.participant else {
            return table_step(state, &awaiting.seat);
        };
        let i = index_of(state, name)?;
        let c = state.combatants.get(i)?;
        if !c.controlled_by(&awaiting.seat) {
            return None;
        }
        if !c.present {
            return Some(Command::Appear {
                who: c.name.clone(),
            });
        }
        match &state.phase {
            Phase::Scene => None,
            Phase::Initiative => {
                let card = lowest_initiative(&c.hand)?;
                (c.initiative.is_none() && c.active()).then(|| Command::Init {
                    who: c.name.clone(),
                    card: card.to_string(),
                })
            }
            Phase::Turn { actor, drawn } => {
                if *actor != i {
                    return None;
                }
                if !drawn {
                    Some(draw_or_mulligan(c))
                } else {
                    Some(action(state, i, c))
                }
            }
            Phase::Exchange(x) => {
                if x.attacker_down.is_none() {
                    (x.attacker == i).then(|| play_down(c, None))?
                } else if x.defender_down.is_none() {
                    if x.defender != i {
                        return None;
                    }
                    // R-GB-16: the one acted against may mulligan once, before
                    // playing, by the draw step's measure, when it has no
                    // action left to sacrifice this round.
                    let turn_to_come = state.order.iter().skip(state.turn + 1).any(|k| *k == i);
                    if !c.status.mulliganed
                        && !turn_to_come
                        && draw_or_mulligan(c) == Command::Mulligan
                    {
                        return Some(Command::Mulligan);
                    }
                    let skill = c.character().and_then(|_| match x.kind {
                        HandKind::Physical => Some(physical_skill(c).0),
                        HandKind::Social => best_skill(c, &SOCIAL_SKILLS),
                        HandKind::Fear => best_skill(c, &FEAR_SKILLS),
                        HandKind::Simple => None,
                    });
                    play_down(c, skill)
                } else {
                    let me = if x.to_act == Side::Attacker {
                        x.attacker
                    } else {
                        x.defender
                    };
                    (me == i).then(|| bet(state, &awaiting.seat, x, c))
                }
            }
        }
    }

    fn report(state: &State) -> EncounterReport {
        let sides = sides(state);
        let up = standing(state);
        let winner = (sides.len() >= 2 && up.len() == 1)
            .then(|| up.first().cloned())
            .flatten();
        let participants = state
            .combatants
            .iter()
            .map(|c| ParticipantReport {
                name: c.name.clone(),
                side: side_of(state, c),
                taken_out: c.knocked_out,
                resources: resources(c),
            })
            .collect();
        EncounterReport {
            round: state.round,
            sides,
            winner,
            participants,
        }
    }
}

/// The resources the book tracks, by its names: the four pools (R-GB-5), a
/// Follower's Power Pool, Extras' members, Wildcards, the cards in hand, and
/// Desperation (1 or 0).
fn resources(c: &Combatant) -> Vec<Resource> {
    let hand = u32::try_from(c.hand.len()).unwrap_or(u32::MAX);
    let mut v = match &c.body {
        Body::Fated {
            pools, desperate, ..
        } => {
            let [bp, sp, mp, lp] = *pools;
            vec![
                Resource::new("BP", bp as f64),
                Resource::new("SP", sp as f64),
                Resource::new("MP", mp as f64),
                Resource::new("LP", lp as f64),
                Resource::new("Desperate", u32::from(*desperate)),
            ]
        }
        Body::Follower { pool, .. } => vec![Resource::new("Power Pool", *pool as f64)],
        Body::Extras { members, .. } => vec![Resource::new("members", *members as f64)],
    };
    v.push(Resource::new("Wildcards", c.wildcards));
    v.push(Resource::new("cards in hand", hand));
    v
}

/// The Dealer's table steps: begin, end, finish.
fn table_step(state: &State, seat: &Seat) -> Option<Command> {
    if !seat.is_gm() {
        return None;
    }
    match &state.phase {
        Phase::Scene => {
            let present = state.combatants.iter().filter(|c| c.active()).count();
            if state.round == 0 && present >= 2 && standing_sides(state).len() >= 2 {
                Some(Command::Begin)
            } else {
                Some(Command::Finish)
            }
        }
        Phase::Initiative => Some(Command::End),
        Phase::Turn { .. } | Phase::Exchange(_) => opposition_over(state).then_some(Command::End),
    }
}

/// The lowest card for initiative (an Ace is 1, R-GB-2).
fn lowest_initiative(hand: &[Card]) -> Option<Card> {
    hand.iter()
        .filter_map(|c| {
            let v = values::initiative_value(c.face)?;
            let s = values::suit_of(c.face).map_or(0, values::suit_order);
            Some((v, s, *c))
        })
        .min_by_key(|(v, s, _)| (*v, *s))
        .map(|(_, _, c)| c)
}

/// Step 2: draw, or mulligan a hand of fewer than two cards when a new hand
/// brings at least three more.
fn draw_or_mulligan(c: &Combatant) -> Command {
    if c.hand.len() < 2 && c.hand_size() >= c.hand.len() + 3 {
        Command::Mulligan
    } else {
        Command::Draw
    }
}

/// The rank of `skill` for `c` (a Follower's Power Rating, Extras' Power
/// Rating less the face-down card), `None` for a skill the sheet cannot use.
fn rank(c: &Combatant, skill: &str) -> Option<i64> {
    match &c.body {
        Body::Fated { character, .. } => character.skill(skill),
        Body::Follower { power, .. } => Some(*power),
        Body::Extras { power, .. } => Some(power - 1),
    }
}

/// The skill for a physical hand: the highest rank among the weapons in
/// hand and Unarmed Combat, a weapon's damage breaking ties; with its
/// damage bonus.
fn physical_skill(c: &Combatant) -> (String, i64) {
    let mut best = (UNARMED.to_string(), 0i64);
    let mut best_key = (rank(c, UNARMED).unwrap_or(0), 0i64);
    for w in &c.wielding {
        if let Some(r) = rank(c, &w.skill) {
            let key = (r, w.damage);
            if key > best_key {
                best_key = key;
                best = (w.skill.clone(), w.damage);
            }
        }
    }
    best
}

/// The highest-ranked of `skills` the character may use (the first on ties).
fn best_skill(c: &Combatant, skills: &[&str]) -> Option<String> {
    let mut best: Option<(i64, &str)> = None;
    for s in skills {
        if let Some(r) = rank(c, s)
            && best.is_none_or(|(b, _)| r > b)
        {
            best = Some((r, s));
        }
    }
    best.map(|(_, s)| s.to_string())
}

/// The best card of a hand (value, then suit).
fn best_card(hand: &[Card]) -> Option<Card> {
    values::best(hand)
}

/// Step 5: the best card face down, with the defender's skill.
fn play_down(c: &Combatant, skill: Option<String>) -> Option<Command> {
    let card = best_card(&c.hand)?;
    Some(Command::Play {
        card: card.to_string(),
        skill,
        mind_over_matter: false,
        counter: 0,
    })
}

/// One attack the policy may declare.
struct Plan {
    target: usize,
    skill: String,
    kind: HandKind,
    options: AttackOptions,
    chance: f64,
    /// Pools from being out: 1 for a Desperate Fated, a Follower or Extras,
    /// 2 for a fresh Fated (R-GB-5).
    steps_left: u8,
}

/// Steps 3-4: the action. An attack on the weakest reachable foe with the
/// best exact odds, else hold the action.
fn action(state: &State, i: usize, c: &Combatant) -> Command {
    if c.status.must_discard > 0 {
        // Ass Pull asks for two discards first (a player on autopilot mid-way).
        if let Some(card) = c
            .hand
            .iter()
            .filter_map(|k| values::key(k.face).map(|v| (v, *k)))
            .min_by_key(|(v, _)| *v)
            .map(|(_, k)| k)
        {
            return Command::Discard {
                card: card.to_string(),
            };
        }
    }
    if c.status.all_out_defense || c.status.must_discard > 0 {
        return Command::Pass;
    }
    match best_plan(state, i, c) {
        Some(p) if p.chance >= ATTACK_AT => Command::Attack {
            target: state
                .combatants
                .get(p.target)
                .map(|t| t.name.clone())
                .unwrap_or_default(),
            skill: p.skill,
            kind: p.kind,
            options: p.options,
        },
        _ => Command::Pass,
    }
}

fn best_plan(state: &State, i: usize, c: &Combatant) -> Option<Plan> {
    let card = best_card(&c.hand)?;
    let mut best: Option<Plan> = None;
    let dry = crate::deck::drawable(&state.shoe) == 0;
    for (t, foe) in state.combatants.iter().enumerate() {
        // A foe holding no card when none is left to draw cannot be acted
        // against ("Shuffling"; hand sizes are on the table).
        if t == i
            || !foe.active()
            || same_side(state, c, foe)
            || !crate::decide::can_play_in_a_hand(foe, dry)
        {
            continue;
        }
        let distance = state
            .distance
            .as_ref()
            .is_some_and(|(name, rounds)| *rounds > 0 && (*name == c.name || *name == foe.name));
        let steps_left = match &foe.body {
            Body::Fated { desperate, .. } if !desperate => 2,
            _ => 1,
        };
        let kinds: &[HandKind] = if foe.desperate() {
            &[HandKind::Social, HandKind::Fear]
        } else if distance {
            &[HandKind::Social]
        } else {
            &[HandKind::Physical]
        };
        for kind in kinds {
            let Some(plan) = plan_against(state, c, card, t, foe, *kind, steps_left) else {
                continue;
            };
            let better = match &best {
                None => true,
                Some(b) => plan_key(&plan) > plan_key(b),
            };
            if better {
                best = Some(plan);
            }
        }
    }
    best
}

/// How good a plan is: one the policy would declare first, then the fewest
/// pools from being out, then the best odds (table order breaks ties: the
/// first found stays).
fn plan_key(p: &Plan) -> (bool, std::cmp::Reverse<u8>, f64) {
    (
        p.chance >= ATTACK_AT,
        std::cmp::Reverse(p.steps_left),
        p.chance,
    )
}

/// The attack of `kind` on `foe`, with the option (none, Zeal, Fortune) of
/// the best exact odds.
fn plan_against(
    state: &State,
    c: &Combatant,
    card: Card,
    t: usize,
    foe: &Combatant,
    kind: HandKind,
    steps_left: u8,
) -> Option<Plan> {
    let skill = match kind {
        HandKind::Physical => physical_skill(c).0,
        HandKind::Social => best_skill(c, &SOCIAL_SKILLS)?,
        HandKind::Fear => best_skill(c, &FEAR_SKILLS)?,
        HandKind::Simple => return None,
    };
    let specialty = c.character().and_then(|ch| {
        ch.specialties()
            .iter()
            .find(|(_, a, b)| a.eq_ignore_ascii_case(&skill) || b.eq_ignore_ascii_case(&skill))
            .map(|(n, _, _)| n.clone())
    });
    let draws = i64::try_from(foe.hand.len())
        .unwrap_or(i64::MAX)
        .saturating_add(1)
        .clamp(1, chance::MAX_OPPONENT_DRAWS);
    let mut choices: Vec<(AttackOptions, i64, i64)> = Vec::new();
    let plain = AttackOptions {
        specialty: specialty.clone(),
        ..AttackOptions::default()
    };
    choices.push((
        plain.clone(),
        attack_bonus(c, kind, None, specialty.as_deref()),
        defense_bonus(state, foe, c, kind, false),
    ));
    if kind == HandKind::Physical && !c.desperate() {
        for (adv, pool) in [
            (Advantage::Zeal, Trait::Spirit),
            (Advantage::Fortune, Trait::Luck),
        ] {
            if c.usable(&adv) > 0 && c.pool(pool) >= 2 {
                let fortune = adv == Advantage::Fortune;
                let options = AttackOptions {
                    zeal: !fortune,
                    fortune,
                    ..plain.clone()
                };
                choices.push((
                    options,
                    attack_bonus(c, kind, Some(pool), specialty.as_deref()),
                    defense_bonus(state, foe, c, kind, fortune),
                ));
            }
        }
    }
    let mut best: Option<(AttackOptions, f64)> = None;
    for (options, mine, theirs) in choices {
        let clamp = |b: i64| b.clamp(-chance::MAX_BONUS, chance::MAX_BONUS);
        let p = chance::card_wins(card.face, clamp(mine), draws, clamp(theirs), false).ok()?;
        if best.as_ref().is_none_or(|(_, b)| p > *b) {
            best = Some((options, p));
        }
    }
    let (options, chance) = best?;
    Some(Plan {
        target: t,
        skill,
        kind,
        options,
        chance,
        steps_left,
    })
}

/// The attacker's bonus as `decide` counts it (Trait by kind, Zeal or
/// Fortune's Trait, Desperation, a Specialty); the two-weapon penalty left
/// out.
fn attack_bonus(c: &Combatant, kind: HandKind, instead: Option<Trait>, spec: Option<&str>) -> i64 {
    let mut bonus = match (&c.body, kind) {
        (_, HandKind::Simple) => 0,
        (Body::Fated { .. }, HandKind::Physical) => c.trait_score(instead.unwrap_or(Trait::Body)),
        (Body::Fated { .. }, HandKind::Social) => c.trait_score(Trait::Mind),
        (Body::Fated { .. }, HandKind::Fear) => c.trait_score(Trait::Spirit),
        (Body::Follower { power, .. }, _) => *power,
        (Body::Extras { .. }, _) => 0,
    };
    if c.desperate() && kind != HandKind::Simple {
        bonus = c.trait_score(Trait::Spirit).max(c.trait_score(Trait::Luck));
    }
    if let (Some(sp), Some(ch)) = (spec, c.character()) {
        bonus += ch.specialty_rank(sp).unwrap_or(0);
    }
    bonus
}

/// The foe's defense bonus from what is on the table: its Traits (the index
/// card), its public statuses (Study, Dodge, All-Out Defense), Karmic Shuffle
/// and Fortune, Desperation.
fn defense_bonus(
    state: &State,
    foe: &Combatant,
    attacker: &Combatant,
    kind: HandKind,
    fortune: bool,
) -> i64 {
    let mut bonus = match (&foe.body, kind) {
        (_, HandKind::Simple) => 0,
        (Body::Fated { .. }, HandKind::Physical | HandKind::Social) => foe.trait_score(Trait::Mind),
        (Body::Fated { .. }, HandKind::Fear) => foe.trait_score(Trait::Spirit),
        (Body::Follower { power, .. }, _) => *power,
        (Body::Extras { .. }, _) => 0,
    };
    if kind == HandKind::Physical && foe.character().is_some() {
        // Whether the foe may still use Study hangs on its Mind pool, which is
        // hidden (R-GB-12): the public status is taken at its word.
        let studied =
            index_of(state, &attacker.name).is_some_and(|a| foe.status.studied.contains(&a));
        if studied {
            bonus = 2 * foe.trait_score(Trait::Mind);
        }
        if state.karmic_shuffle || fortune {
            bonus = foe.trait_score(Trait::Luck);
        }
        if let Some(t) = foe.status.next_defense {
            bonus = foe.trait_score(t);
        }
        if foe.status.all_out_defense {
            bonus = 2 * foe.trait_score(Trait::Body);
        }
    }
    if foe.desperate() && kind != HandKind::Simple {
        bonus = foe
            .trait_score(Trait::Spirit)
            .max(foe.trait_score(Trait::Luck));
    }
    bonus
}

/// Steps 6-8: bet or call by the exact chance of winning if both call.
fn bet(state: &State, seat: &Seat, x: &crate::state::Exchange, c: &Combatant) -> Command {
    let side = x.to_act;
    let chance = |mv: BetMove<'_>| lead_chance_after(state, seat, side, mv).unwrap_or(0.0);
    let now = chance(BetMove::Call);
    if now >= CALL_AT {
        return Command::Call;
    }
    let limit = if side == Side::Attacker {
        x.attacker_limit
    } else {
        x.defender_limit
    };
    if limit > 0 {
        // One card of each value, lowest first: a bet's chance grows with the
        // card's value (the suit of the face-down card breaks ties), so the
        // lowest card that reaches `CALL_AT` is found by halving.
        let mut cards: Vec<(i64, Card)> = c
            .hand
            .iter()
            .filter_map(|k| values::value(k.face).map(|v| (v, *k)))
            .collect();
        cards.sort_by_key(|(v, k)| (*v, values::key(k.face)));
        cards.dedup_by_key(|(v, _)| *v);
        if let Some((_, top)) = cards.last() {
            let best = chance(BetMove::Bet(top));
            if best >= CALL_AT {
                let (mut lo, mut hi) = (0, cards.len() - 1);
                while lo < hi {
                    let mid = (lo + hi) / 2;
                    match cards.get(mid) {
                        Some((_, k)) if chance(BetMove::Bet(k)) >= CALL_AT => hi = mid,
                        _ => lo = mid + 1,
                    }
                }
                if let Some((_, k)) = cards.get(lo) {
                    return Command::Bet {
                        card: k.to_string(),
                    };
                }
            }
            if best >= now + BET_GAIN && best >= ATTACK_AT {
                return Command::Bet {
                    card: top.to_string(),
                };
            }
        }
    }
    // A Wildcard draws a card: only when one is left to draw ("Shuffling").
    if c.wildcards > 0
        && crate::deck::drawable(&state.shoe) > 0
        && chance(BetMove::BetWild) >= now + BET_GAIN
    {
        return Command::BetWild;
    }
    Command::Call
}
