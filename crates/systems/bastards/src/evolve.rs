//! [`evolve`]: an event applied to the state.

use tabula_core::cards::Card;

use crate::deck;
use crate::event::Event;
use crate::state::{Body, Combatant, Phase, Side, State, Status, trait_index};

pub(crate) fn remove_from_hand(c: &mut Combatant, card: Card) {
    if let Some(p) = c.hand.iter().position(|k| k.id == card.id) {
        c.hand.remove(p);
    }
}

/// Apply one event. Never rolls, never fails.
pub fn evolve(s: &mut State, e: &Event) {
    match e {
        Event::Shuffled
        | Event::OppositionBegan
        | Event::Order { .. }
        | Event::TurnBegan { .. }
        | Event::DrawStepDone
        | Event::TurnEnded
        | Event::RoundEnded { .. }
        | Event::OppositionEnded
        | Event::SceneBegan
        | Event::Finished
        | Event::KarmicShuffle => evolve_flow(s, e),
        Event::Drew { .. }
        | Event::Discarded { .. }
        | Event::Initiative { .. }
        | Event::FateDrawn { .. }
        | Event::WildcardSpent { .. }
        | Event::DealerWildcards { .. } => evolve_cards(s, e),
        Event::Declared(_)
        | Event::FaceDown { .. }
        | Event::FaceUp { .. }
        | Event::Called { .. }
        | Event::Revealed { .. } => evolve_hand(s, e),
        Event::Damage { .. }
        | Event::MembersLost { .. }
        | Event::Spent { .. }
        | Event::StatusChanged { .. }
        | Event::Desperate { .. }
        | Event::KnockedOut { .. }
        | Event::Adjusted { .. } => evolve_pools(s, e),
        Event::Weapons { .. }
        | Event::Dropped { .. }
        | Event::PickedUp { .. }
        | Event::Joined(_)
        | Event::Added { .. }
        | Event::Removed { .. }
        | Event::Appeared { .. }
        | Event::Distance { .. } => evolve_cast(s, e),
    }
}

/// The encounter's flow: scenes, the Opposition's steps, turns and rounds
/// ("Steps", "Initiative", "Shuffling"; R-GB-1), Karmic Shuffle ("Advantages")
/// and the end of the encounter.
fn evolve_flow(s: &mut State, e: &Event) {
    match e {
        Event::Shuffled => {
            for c in &mut s.combatants {
                c.hand.clear();
                c.initiative = None;
            }
            s.shoe.recall_all();
        }
        Event::OppositionBegan => {
            s.phase = Phase::Initiative;
            s.round = 1;
            s.order.clear();
            s.turn = 0;
            s.karmic_shuffle = false;
            for c in &mut s.combatants {
                c.status = Status {
                    berserk: c.status.berserk,
                    ..Status::default()
                };
            }
        }
        Event::Order { order } => {
            s.order = order.clone();
            s.turn = 0;
        }
        Event::TurnBegan { who } => {
            s.phase = Phase::Turn {
                actor: *who,
                drawn: false,
            };
            s.turn = s.order.iter().position(|i| i == who).unwrap_or(0);
            if let Some(c) = s.combatants.get_mut(*who) {
                c.status.discarded = false;
            }
        }
        Event::DrawStepDone => {
            if let Phase::Turn { actor, .. } = s.phase {
                s.phase = Phase::Turn { actor, drawn: true };
            }
        }
        Event::TurnEnded => {}
        Event::RoundEnded { round } => {
            s.round = *round;
            for c in &mut s.combatants {
                c.status.all_out_defense = false;
                c.status.iron_wall = false;
                c.status.soul_of_steel = false;
                c.status.sacrificed = false;
            }
            if let Some((_, r)) = &mut s.distance {
                *r = r.saturating_sub(1);
            }
        }
        Event::OppositionEnded => {
            s.phase = Phase::Scene;
            s.order.clear();
            s.turn = 0;
            s.karmic_shuffle = false;
        }
        Event::SceneBegan => {
            s.distance = None;
            s.karmic_shuffle = false;
            for c in &mut s.combatants {
                c.status = Status::default();
            }
        }
        Event::Finished => s.finished = true,
        Event::KarmicShuffle => s.karmic_shuffle = true,
        _ => {}
    }
}

/// Cards drawn, discarded and played for initiative, Fate Draws and
/// Wildcards ("Core Mechanic", "Initiative", "Fate Draw", "Jokers – Unbound by
/// Fate"; R-GB-3).
fn evolve_cards(s: &mut State, e: &Event) {
    match e {
        Event::Drew { who, steps, .. } => {
            deck::apply(&mut s.shoe, steps);
            let jokers = deck::jokers(steps);
            if let Some(c) = s.combatants.get_mut(*who) {
                c.hand.extend(deck::cards(steps));
                c.wildcards = c.wildcards.saturating_add(jokers);
            }
        }
        Event::Discarded { who, cards } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                for k in cards {
                    remove_from_hand(c, *k);
                }
            }
            deck::discard_all(&mut s.shoe, cards);
        }
        Event::Initiative { who, card } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                remove_from_hand(c, *card);
                if let Some(old) = c.initiative.replace(*card) {
                    let _ = s.shoe.discard(old);
                }
            }
        }
        Event::FateDrawn { who, result, .. } => {
            deck::apply(&mut s.shoe, &result.player_draw);
            deck::apply(&mut s.shoe, &result.dealer_draw);
            deck::discard_all(&mut s.shoe, &deck::cards(&result.player_draw));
            deck::discard_all(&mut s.shoe, &deck::cards(&result.dealer_draw));
            s.shoe.reshuffle_discards();
            if let Some(c) = s.combatants.get_mut(*who) {
                c.wildcards = c.wildcards.saturating_add(result.player_wildcards);
            }
            s.dealer_wildcards = s.dealer_wildcards.saturating_add(result.dealer_wildcards);
        }
        Event::WildcardSpent { who, .. } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                c.wildcards = c.wildcards.saturating_sub(1);
            }
        }
        Event::DealerWildcards { gained } => {
            s.dealer_wildcards = s.dealer_wildcards.saturating_add(*gained)
        }
        _ => {}
    }
}

/// The opposed hand: declared, face-down and face-up cards, calls and the
/// reveal ("Skill Hands in Oppositions", "Steps").
fn evolve_hand(s: &mut State, e: &Event) {
    match e {
        Event::Declared(x) => {
            // A new hand: the one affected draws and may discard once in it.
            if let Some(c) = s.combatants.get_mut(x.defender) {
                c.status.discarded = false;
                c.status.mulliganed = false;
            }
            s.phase = Phase::Exchange(x.clone());
        }
        Event::FaceDown {
            side,
            card,
            defense,
        } => {
            if let Phase::Exchange(x) = &mut s.phase {
                let i = match side {
                    Side::Attacker => {
                        x.attacker_down = Some(*card);
                        x.attacker
                    }
                    Side::Defender => {
                        x.defender_down = Some(*card);
                        if let Some(d) = defense {
                            x.defense_skill = Some(d.skill.clone());
                            x.defender_bonus = d.bonus;
                            x.defender_limit = d.limit;
                            x.mind_over_matter = d.mind_over_matter;
                            x.counter = d.counter;
                        }
                        x.to_act = Side::Defender;
                        x.defender
                    }
                };
                if let Some(c) = s.combatants.get_mut(i) {
                    remove_from_hand(c, *card);
                }
            }
        }
        Event::FaceUp { side, card, wild } => {
            if let Some(steps) = wild {
                deck::apply(&mut s.shoe, steps);
            }
            if let Phase::Exchange(x) = &mut s.phase {
                let i = match side {
                    Side::Attacker => {
                        x.attacker_up.push(*card);
                        if wild.is_none() {
                            x.attacker_limit -= 1;
                        }
                        x.attacker
                    }
                    Side::Defender => {
                        x.defender_up.push(*card);
                        if wild.is_none() {
                            x.defender_limit -= 1;
                        }
                        x.defender
                    }
                };
                x.called = false;
                x.to_act = if *side == Side::Attacker {
                    Side::Defender
                } else {
                    Side::Attacker
                };
                if let Some(c) = s.combatants.get_mut(i) {
                    remove_from_hand(c, *card);
                    if let Some(steps) = wild {
                        c.wildcards = c.wildcards.saturating_add(deck::jokers(steps));
                    }
                }
            }
        }
        Event::Called { side } => {
            if let Phase::Exchange(x) = &mut s.phase {
                x.called = true;
                x.to_act = if *side == Side::Attacker {
                    Side::Defender
                } else {
                    Side::Attacker
                };
            }
        }
        Event::Revealed { cards, .. } => {
            deck::discard_all(&mut s.shoe, &cards.0);
            deck::discard_all(&mut s.shoe, &cards.1);
        }
        _ => {}
    }
}

/// Pools, members and conditions: damage, Advantage costs, statuses,
/// Desperation and knock-outs ("Combat", "Desperation", "Optional Rules";
/// R-GB-5, R-GB-9, R-GB-13), and the Dealer's `adjust` (issue 27, item 6).
fn evolve_pools(s: &mut State, e: &Event) {
    match e {
        Event::Damage {
            who, pool, taken, ..
        } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                match &mut c.body {
                    Body::Fated { pools, .. } => {
                        let p = &mut pools[trait_index(*pool)];
                        *p = (*p - taken).max(0);
                    }
                    Body::Follower { pool, .. } => *pool = (*pool - taken).max(0),
                    Body::Extras { .. } => {}
                }
            }
        }
        Event::MembersLost { who, lost } => {
            if let Some(Combatant {
                body: Body::Extras { members, .. },
                ..
            }) = s.combatants.get_mut(*who)
            {
                *members = (*members - lost).max(0);
            }
        }
        Event::Spent { who, pool, .. } => {
            if let Some(Combatant {
                body: Body::Fated { pools, .. },
                ..
            }) = s.combatants.get_mut(*who)
            {
                let p = &mut pools[trait_index(*pool)];
                *p = (*p - 1).max(0);
            }
        }
        Event::StatusChanged { who, status } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                c.status = status.clone();
            }
        }
        Event::Desperate { who } => {
            if let Some(Combatant {
                body: Body::Fated { desperate, .. },
                ..
            }) = s.combatants.get_mut(*who)
            {
                *desperate = true;
            }
        }
        Event::KnockedOut { who } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                c.knocked_out = true;
            }
        }
        Event::Adjusted { who, value, to, .. } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                match (value, &mut c.body) {
                    (crate::gm::Value::Wildcards, _) => {
                        c.wildcards = u32::try_from(*to).unwrap_or(c.wildcards);
                    }
                    (crate::gm::Value::Pool(t), Body::Fated { pools, .. }) => {
                        pools[trait_index(*t)] = *to;
                    }
                    (crate::gm::Value::Pool(_), Body::Follower { pool, .. }) => *pool = *to,
                    (crate::gm::Value::Members, Body::Extras { members, .. }) => *members = *to,
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// Who is in the encounter and what they hold: weapons wielded, dropped and
/// picked up ("Random Rules"; R-GB-7), newcomers ("Building A Scene",
/// "Optional Rules"), the Dealer's `add` and `remove` (issue 27, item 6),
/// Appearance and Distance ("Building A Scene").
fn evolve_cast(s: &mut State, e: &Event) {
    match e {
        Event::Weapons {
            who,
            wielding,
            carried,
        } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                c.wielding = wielding.clone();
                c.carried = carried.clone();
            }
        }
        Event::Dropped { who, weapon } => {
            if let Some(c) = s.combatants.get_mut(*who)
                && let Some(p) = c.wielding.iter().position(|w| w == weapon)
            {
                c.wielding.remove(p);
                s.ground.push(weapon.clone());
            }
        }
        Event::PickedUp { who, weapon } => {
            if let Some(p) = s.ground.iter().position(|w| w == weapon) {
                s.ground.remove(p);
                if let Some(c) = s.combatants.get_mut(*who) {
                    c.wielding.push(weapon.clone());
                }
            }
        }
        Event::Joined(c) => s.combatants.push((**c).clone()),
        Event::Added { combatant, .. } => s.combatants.push((**combatant).clone()),
        Event::Removed { who } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                let cards: Vec<Card> = c.hand.drain(..).chain(c.initiative.take()).collect();
                c.removed = true;
                deck::discard_all(&mut s.shoe, &cards);
            }
        }
        Event::Appeared { who } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                c.present = true;
            }
        }
        Event::Distance { who, rounds } => {
            let name = s
                .combatants
                .get(*who)
                .map(|c| c.name.clone())
                .unwrap_or_default();
            s.distance = Some((name, *rounds));
        }
        _ => {}
    }
}
