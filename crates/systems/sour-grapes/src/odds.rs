//! The choices of the moment with their exact odds (`Offer`, `offers`,
//! `choice_odds`).

use std::fmt::Write as _;

use tabula_core::names::same_name;
use tabula_core::{ChoiceOdds, Seat};

use crate::cards::{self, CardType, CardValue, StarRule};
use crate::check;
use crate::state::{Moment, State, Step, Turn};
use crate::stats::Stat;

pub(crate) fn cur(state: &State, who: &str, stat: Stat) -> u32 {
    state
        .participant(who)
        .map_or(0, |p| p.character.stat(stat).current)
}

pub(crate) fn tokens_of(state: &State, who: &str, skill: Option<&str>) -> u32 {
    skill
        .and_then(|k| {
            state
                .participant(who)
                .and_then(|p| p.character.skill(&p.skill_for(k)))
        })
        .map_or(0, |k| k.available)
}

pub(crate) fn dazed(state: &State, who: &str) -> u32 {
    if state
        .participant(who)
        .is_some_and(|p| p.character.has(crate::stats::Condition::Dazed))
    {
        2
    } else {
        0
    }
}

/// Which choice of the moment an [`Offer`] is, in the order `status` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    /// A Situation's final check ("Situation"; R-SG-1).
    Final,
    /// Rolling to keep an effect in step 1 (R-SG-9).
    Keep,
    /// Laying a Stunt in step 2, its Success as it would be rolled in step 8.
    Stunt,
    /// Offering an Interrupt in step 3.
    Interrupt,
    /// Offering a Compliment or a Divert in step 5.
    Support,
    /// Placing the Stunt's Success dice in step 4.
    Success,
    /// Reacting in step 7: the roll must beat the Stunt's (R-SG-5).
    Reaction,
}

/// What an offered roll must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// At least this many successes: a card's value now (R-SG-2, with the
    /// Experience "easier" bonus and Dazed, [`State::needs`]), or a final check's
    /// Difficulty plus one (R-SG-1).
    Need(u32),
    /// Strictly more successes than the Stunt's roll of `dice` d6 and `tokens`
    /// (Dazed's 2 included), R-SG-5.
    BeatStunt {
        /// The Stunt's dice as they can be rolled now (R-SG-11).
        dice: u32,
        /// The Stunt's tokens, plus 2 when the reactor is Dazed.
        tokens: u32,
    },
}

/// One roll a character may choose the dice for now, with the exact chance of
/// every dice count: what `status` prints next to the choice and what
/// [`tabula_core::TextPlay::odds`] offers the seat that plays the character.
///
/// Sour Grapes, "Check" ("The player may choose to use less dice in a roll to
/// prevent additional ones"), "Card Mechanics", "Turn Mechanics"
/// (000_05a1db5b88f54528.txt); R-SG-1, R-SG-2, R-SG-5, R-SG-11.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    /// Which choice it is.
    pub kind: OfferKind,
    /// The character who would roll.
    pub who: String,
    /// The card (`None` for a Situation's final check).
    pub card: Option<String>,
    /// The stat whose dice are rolled.
    pub stat: Stat,
    /// The most dice: the stat's Current value.
    pub max: u32,
    /// The skill whose tokens are added, as status names it.
    pub skill: String,
    /// The tokens the character may add.
    pub tokens: u32,
    /// What the roll must reach.
    pub goal: Goal,
    /// The chance for 0..=`max` dice with `tokens` tokens (`None`: past the
    /// odds caps).
    pub chances: Vec<Option<f64>>,
    /// The chance for 0..=`max` dice with no tokens, when a card offers tokens
    /// (so a player may keep them for another bet).
    pub bare: Option<Vec<Option<f64>>>,
}

/// The chance that `dice` + `tokens` beats (strictly) a roll of `sd` + `st`.
pub(crate) fn p_beat(dice: u32, tokens: u32, sd: u32, st: u32) -> Option<f64> {
    let r = check::successes_dist(dice, tokens).ok()?;
    let s = check::successes_dist(sd, st).ok()?;
    Some(r.combine(&s, |a, b| a > b).ok()?.p(&true))
}

/// The offer for `who` rolling `card`'s Success against a fixed need.
pub(crate) fn card_offer(
    state: &State,
    kind: OfferKind,
    who: &str,
    card: &cards::ActionCard,
    need: u32,
) -> Option<Offer> {
    let st = card.success?;
    let max = cur(state, who, st);
    // Tokens already placed on another bet of this turn are not free (R-SG-11).
    let mut tok = state.tokens_free(who, card);
    if state.no_tokens_with(who, st) {
        // Intoxicated: tokens and these dice not in one roll; show the dice.
        tok = 0;
    }
    let skill = match (&card.skill, state.participant(who)) {
        (Some(k), Some(p)) => p.skill_for(k),
        (Some(k), None) => k.clone(),
        (None, _) => "no skill".into(),
    };
    Some(Offer {
        kind,
        who: who.to_string(),
        card: Some(card.name.clone()),
        stat: st,
        max,
        skill,
        tokens: tok,
        goal: Goal::Need(need),
        chances: check::dice_chances(max, tok, need),
        bare: (tok > 0).then(|| check::dice_chances(max, 0, need)),
    })
}

/// Cards whose success chance is a fixed need now (not a Reaction that must beat
/// the Stunt's roll, nor a card that is never rolled).
pub(crate) fn offers_odds(card: &cards::ActionCard) -> bool {
    card.success.is_some()
        && !matches!(
            card.value,
            CardValue::Star(StarRule::BeatStunt | StarRule::Notes)
        )
}

/// The Stunt's placed Success dice and tokens as they can be rolled now: dice up
/// to the Controller's Current value, tokens up to the skill's (R-SG-11).
pub(crate) fn stunt_now(state: &State, t: &Turn) -> (u32, u32) {
    let Some(c) = t.stunt.as_deref().and_then(|c| state.card(c)) else {
        return (t.success.dice, t.success.tokens);
    };
    let dice = c
        .success
        .map_or(0, |st| t.success.dice.min(cur(state, &t.controller, st)));
    let tokens = t
        .success
        .tokens
        .min(tokens_of(state, &t.controller, c.skill.as_deref()));
    (dice, tokens)
}

/// Every roll whose dice someone may choose now, with its odds, in the order
/// `status` prints them: the Situation's final check; in a turn, the keep rolls
/// and Stunts of step 1-2, the Interrupts of step 3, the Stunt's Success in step
/// 4, the Compliments and Diverts of step 5, the Reactions of step 7. Free
/// moments and initiative offer none (no Difficulty is set yet).
///
/// Sour Grapes, "Check", "Situation", "Turn Mechanics" (000_05a1db5b88f54528.txt);
/// R-SG-1, R-SG-2, R-SG-5, R-SG-9, R-SG-11, R-SG-12.
pub fn offers(state: &State) -> Vec<Offer> {
    let mut out = Vec::new();
    if state.over {
        return out;
    }
    match &state.moment {
        Moment::Free => {}
        Moment::Situation(sit) => {
            if state.check_forbidden(&sit.who, sit.stat).is_some() {
                return out;
            }
            let max = cur(state, &sit.who, sit.stat);
            let tok = tokens_of(state, &sit.who, sit.skill.as_deref());
            let diff = sit.difficulty.saturating_add(dazed(state, &sit.who));
            let need = diff.saturating_add(1);
            out.push(Offer {
                kind: OfferKind::Final,
                who: sit.who.clone(),
                card: None,
                stat: sit.stat,
                max,
                skill: sit.skill.as_deref().unwrap_or("no skill").to_string(),
                tokens: tok,
                goal: Goal::Need(need),
                chances: check::dice_chances(max, tok, need),
                bare: None,
            });
        }
        Moment::Event(e) => {
            let Some(t) = &e.turn else {
                return out;
            };
            let ctl = &t.controller;
            match t.step {
                Step::Prep => {
                    // The keep roll (R-SG-9): the card's value as this character
                    // needs it now (Experience bonus, Dazed).
                    for e in &t.pending_effects {
                        if let Some(c) = state.card(e) {
                            out.extend(card_offer(
                                state,
                                OfferKind::Keep,
                                ctl,
                                c,
                                state.needs(c, ctl, 0),
                            ));
                        }
                    }
                    if let Some(p) = state.participant(ctl) {
                        for c in p
                            .cards
                            .iter()
                            .filter_map(|c| state.card(c))
                            .filter(|c| c.kind == CardType::Stunt && offers_odds(c))
                        {
                            out.extend(card_offer(
                                state,
                                OfferKind::Stunt,
                                ctl,
                                c,
                                state.needs(c, ctl, 0),
                            ));
                        }
                    }
                }
                Step::Interrupt => {
                    for p in state.participants.iter().filter(|p| {
                        p.character.name() != ctl
                            && !p.character.has(crate::stats::Condition::Dying)
                    }) {
                        for c in p
                            .cards
                            .iter()
                            .filter_map(|c| state.card(c))
                            .filter(|c| c.kind == CardType::Interrupt && offers_odds(c))
                        {
                            let who = p.character.name();
                            out.extend(card_offer(
                                state,
                                OfferKind::Interrupt,
                                who,
                                c,
                                state.needs(c, who, 0),
                            ));
                        }
                    }
                }
                Step::Targeting => {
                    if let Some(c) = t.stunt.as_deref().and_then(|c| state.card(c)) {
                        out.extend(card_offer(
                            state,
                            OfferKind::Success,
                            ctl,
                            c,
                            state.needs(c, ctl, 0),
                        ));
                    }
                }
                Step::Support => {
                    for p in state
                        .participants
                        .iter()
                        .filter(|p| !p.character.has(crate::stats::Condition::Dying))
                    {
                        let who = p.character.name();
                        for c in p.cards.iter().filter_map(|c| state.card(c)).filter(|c| {
                            matches!(c.kind, CardType::Compliment | CardType::Divert)
                                && offers_odds(c)
                        }) {
                            out.extend(card_offer(
                                state,
                                OfferKind::Support,
                                who,
                                c,
                                state.needs(c, who, 0),
                            ));
                        }
                    }
                }
                Step::Reaction => {
                    for r in t.receivers.iter().filter(|r| !t.reactions.contains_key(*r)) {
                        let Some(p) = state.participant(r) else {
                            continue;
                        };
                        for c in p
                            .cards
                            .iter()
                            .filter_map(|c| state.card(c))
                            .filter(|c| c.kind == CardType::Reaction)
                        {
                            let Some(st) = c.success else { continue };
                            let max = cur(state, r, st);
                            let tok = if state.no_tokens_with(r, st) {
                                0
                            } else {
                                tokens_of(state, r, c.skill.as_deref())
                            };
                            // The Stunt rolls what is left of its placed dice
                            // and tokens (R-SG-11); Dazed adds 2 to what the
                            // reactor must beat.
                            let (sd, stok) = stunt_now(state, t);
                            let stok = stok.saturating_add(dazed(state, r));
                            let chances = (0..=max.min(check::MAX_DICE))
                                .map(|n| p_beat(n, tok, sd, stok))
                                .collect();
                            out.push(Offer {
                                kind: OfferKind::Reaction,
                                who: r.clone(),
                                card: Some(c.name.clone()),
                                stat: st,
                                max,
                                skill: c
                                    .skill
                                    .as_deref()
                                    .map_or_else(|| "no skill".to_string(), |k| p.skill_for(k)),
                                tokens: tok,
                                goal: Goal::BeatStunt {
                                    dice: sd,
                                    tokens: stok,
                                },
                                chances,
                                bare: None,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// An offer as status prints it: `Hero Attack [Agility 5, Swords tokens 2,
/// needs 4; odds by dice]: 0d:0.0% 1d:0.0% ...`.
pub(crate) fn offer_line(o: &Offer) -> String {
    let card = o.card.as_deref().unwrap_or("");
    match o.goal {
        Goal::BeatStunt { .. } => format!(
            "{} {card} [{} {}, {} tokens {}, must beat the Stunt's roll]: {}",
            o.who,
            o.stat,
            o.max,
            o.skill,
            o.tokens,
            check::chances_line(&o.chances)
        ),
        Goal::Need(need) => {
            let mut line = format!(
                "{} {card} [{} {}, {} tokens {}, needs {need}; odds by dice]: {}",
                o.who,
                o.stat,
                o.max,
                o.skill,
                o.tokens,
                check::chances_line(&o.chances)
            );
            if let Some(bare) = &o.bare {
                let _ = write!(line, " | with no tokens: {}", check::chances_line(bare));
            }
            line
        }
    }
}

/// The odds of every choice in front of `seat` now: each roll of [`offers`] made
/// by a character the seat plays (the storyteller: the monsters), one entry per
/// dice count, with the tokens and (for cards that offer tokens) without them.
/// The same numbers `status` prints.
///
/// Sour Grapes, "Check", "Card Mechanics", "Turn Mechanics"
/// (000_05a1db5b88f54528.txt); R-SG-1, R-SG-2, R-SG-5, R-SG-9, R-SG-11.
pub fn choice_odds(state: &State, seat: &Seat) -> Vec<ChoiceOdds> {
    let mine = state.controlled_by(seat);
    let mut out = Vec::new();
    for o in offers(state)
        .into_iter()
        .filter(|o| mine.iter().any(|m| same_name(m, &o.who)))
    {
        let card = o.card.as_deref().unwrap_or("");
        let what = match o.kind {
            OfferKind::Final => format!("final check {}", o.stat),
            OfferKind::Keep => format!("keep {card}"),
            OfferKind::Stunt => format!("stunt {card}"),
            OfferKind::Interrupt => format!("interrupt {card}"),
            OfferKind::Support => format!("offer {card}"),
            OfferKind::Success => format!("success on {card}"),
            OfferKind::Reaction => format!("react {card}"),
        };
        let goal = match o.goal {
            Goal::Need(need) if o.kind == OfferKind::Final => format!(
                "at least {need} successes (more than the Difficulty {}, R-SG-1)",
                need.saturating_sub(1)
            ),
            Goal::Need(need) => {
                format!("at least {need} successes (the card's value now, R-SG-2)")
            }
            Goal::BeatStunt { dice, tokens } => {
                format!("more successes than the Stunt's {dice} dice + {tokens} tokens (R-SG-5)")
            }
        };
        let mut push = |chances: &[Option<f64>], tokens: Option<u32>| {
            for (n, p) in chances.iter().enumerate() {
                let Some(p) = p else { continue };
                let choice = match tokens {
                    Some(t) => format!("{}: {what}, {n} dice + {t} tokens", o.who),
                    None => format!("{}: {what}, {n} dice, no tokens", o.who),
                };
                out.push(ChoiceOdds {
                    choice,
                    probability: p.clamp(0.0, 1.0),
                    detail: format!(
                        "{} dice (up to {}), {} tokens: {goal}",
                        o.stat, o.max, o.skill
                    ),
                });
            }
        };
        push(&o.chances, Some(o.tokens));
        if let Some(bare) = &o.bare {
            push(bare, None);
        }
    }
    out
}
