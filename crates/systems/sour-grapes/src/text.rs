//! Terminal play: the table file, command lines, and what is printed.
//!
//! A table file (TOML):
//!
//! ```toml
//! title = "Firefoot's Tavern brawl"
//! initiative_d20 = true      # R-SG-8 (default true)
//! experience = false         # the Experience table rule (default false)
//! start = "event"            # "free" (default) or "event": declare the Event at once
//! book_cards = true          # the book's seven cards (default true)
//!
//! [[participant]]
//! file = "example-character.toml"   # a character sheet, relative to this file
//! seat = "Sam"                       # who plays it (default: the character's name;
//!                                    # monsters: gm)
//! cards = ["Attack", "Dodge"]        # cards they may play (default: the sheet's
//!                                    # `cards`, else every card)
//! effects = ["Intoxicated"]          # effects in play at the start (besides the
//!                                    # sheet's own `effects`)
//! comparable = { Swords = "fencing" } # added to the sheet's own comparables
//!
//! [[card]]                           # the table's own cards (see data/book-cards.toml)
//! ```

use std::fmt::Write as _;

use serde::Deserialize;
use tabula_core::names::{check_name, check_seat_name, same_name};
use tabula_core::system::CommandDoc;
use tabula_core::{ChoiceOdds, CommandParseError, Seat, TextPlay};

use crate::SourGrapes;
use crate::cards::{self, CardDraft, CardType, CardValue, StarRule, key};
use crate::character::{Character, CharacterDraft};
use crate::check;
use crate::stats::Stat;
use crate::table::{
    ActiveEffect, Command, Event, MAX_PARTICIPANTS, Moment, Participant, Purpose, State, Step,
    TableOptions,
};

/// A participant entry of a table file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParticipantEntry {
    /// A character file, relative to the table file.
    pub file: Option<String>,
    /// Or the sheet inline.
    pub sheet: Option<CharacterDraft>,
    /// The seat that plays it.
    pub seat: Option<String>,
    /// Cards they may play (default: all).
    pub cards: Option<Vec<String>>,
    /// Effects in play at the start.
    #[serde(default)]
    pub effects: Vec<String>,
    /// Comparable skills agreed by the table: card skill -> the character's skill.
    #[serde(default)]
    pub comparable: std::collections::BTreeMap<String, String>,
}

/// A table file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableFile {
    /// The title.
    #[serde(default)]
    pub title: String,
    /// R-SG-8's d20 (default true).
    pub initiative_d20: Option<bool>,
    /// The Experience option (default false).
    #[serde(default)]
    pub experience: bool,
    /// `free` or `event`.
    pub start: Option<String>,
    /// Include the book's seven cards (default true).
    pub book_cards: Option<bool>,
    /// The participants.
    #[serde(default)]
    pub participant: Vec<ParticipantEntry>,
    /// The table's own cards.
    #[serde(default)]
    pub card: Vec<CardDraft>,
}

/// A table file could not be set up: every problem, naming the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the table file is broken:\n  - {}", .problems.join("\n  - "))]
pub struct SetupError {
    /// Every problem found.
    pub problems: Vec<String>,
}

/// Build the initial state from a table file's text.
///
/// # Errors
/// [`SetupError`] listing every broken field, card and character rule.
pub fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
    text: &str,
    files: &F,
) -> Result<State, SetupError> {
    let file: TableFile = toml::from_str(text).map_err(|e| SetupError {
        problems: vec![e.to_string()],
    })?;
    let mut problems = Vec::new();
    let mut all_cards = if file.book_cards.unwrap_or(true) {
        cards::book_cards()
    } else {
        Vec::new()
    };
    match cards::validate_cards(file.card.clone()) {
        Ok(extra) => {
            for c in extra {
                if all_cards.iter().any(|k| key(&k.name) == key(&c.name)) {
                    problems.push(format!(
                        "card {}: the table already has a card of that name",
                        c.name
                    ));
                } else {
                    all_cards.push(c);
                }
            }
        }
        Err(es) => problems.extend(es.into_iter().map(|e| format!("card: {e}"))),
    }
    if file.participant.is_empty() {
        problems.push(
            "participant: a table needs at least one character ([[participant]] with `file` or `sheet`)"
                .into(),
        );
    }
    if let Err(e) = check_name("title", &file.title)
        && !file.title.is_empty()
    {
        problems.push(e.to_string());
    }
    if file.participant.len() > MAX_PARTICIPANTS {
        problems.push(format!("participant: at most {MAX_PARTICIPANTS}"));
    }
    let mut participants: Vec<Participant> = Vec::new();
    for (i, p) in file.participant.iter().enumerate().take(MAX_PARTICIPANTS) {
        let character = match (&p.file, &p.sheet) {
            (Some(f), None) => match files.read(f) {
                Ok(t) => {
                    Character::from_toml(&t).map_err(|e| format!("participant[{i}] ({f}): {e}"))
                }
                Err(e) => Err(format!("participant[{i}].file: {e}")),
            },
            (None, Some(d)) => {
                Character::from_draft(d.clone()).map_err(|e| format!("participant[{i}].sheet: {e}"))
            }
            _ => Err(format!(
                "participant[{i}]: give exactly one of `file` or `sheet`"
            )),
        };
        let mut character = match character {
            Ok(c) => c,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        if participants
            .iter()
            .any(|q| same_name(q.character.name(), character.name()))
        {
            problems.push(format!(
                "participant[{i}]: two participants are called {}",
                character.name()
            ));
            continue;
        }
        let seat = match &p.seat {
            Some(s) => {
                if let Err(e) = check_seat_name(&format!("participant[{i}].seat"), s) {
                    problems.push(e.to_string());
                    continue;
                }
                Seat::parse(s)
            }
            None if character.is_monster() => Seat::Gm,
            None => {
                // The seat is the character's name: it must be a legal seat name.
                if let Err(e) = check_seat_name(&format!("participant[{i}].seat"), character.name())
                {
                    problems.push(format!(
                        "{e} (the seat defaults to the character's name; give `seat`)"
                    ));
                    continue;
                }
                Seat::Player(character.name().to_string())
            }
        };
        // One seat, one spelling: a seat typed in another case is the same seat.
        let seat = participants
            .iter()
            .map(|q| &q.seat)
            .find(|q| q.same_seat(&seat))
            .cloned()
            .unwrap_or(seat);
        // The cards: the table file's list for this participant, else the
        // sheet's own, else every action card of the table ("Cards").
        let mut hand = Vec::new();
        let (list, whose) = match (&p.cards, character.cards()) {
            (Some(list), _) => (Some(list.clone()), format!("participant[{i}].cards")),
            (None, Some(list)) => (
                Some(list.to_vec()),
                format!("participant[{i}] ({}): cards", character.name()),
            ),
            (None, None) => (None, String::new()),
        };
        match list {
            Some(list) => {
                for c in &list {
                    match all_cards.iter().find(|k| key(&k.name) == key(c)) {
                        Some(k) if k.kind != CardType::Effect => hand.push(k.name.clone()),
                        Some(k) => problems.push(format!(
                            "{whose}: {} is an effect, not an action card",
                            k.name
                        )),
                        None => problems.push(format!("{whose}: no card called {c:?}")),
                    }
                }
            }
            None => {
                hand = all_cards
                    .iter()
                    .filter(|k| k.kind != CardType::Effect)
                    .map(|k| k.name.clone())
                    .collect()
            }
        }
        // Effects: those the sheet carries (with their tokens), then those the
        // table file puts in play, each once ("Effects").
        let mut effects: Vec<ActiveEffect> = Vec::new();
        let from_sheet = character.take_effects();
        // An effect on the sheet whose card this table does not define comes
        // with the card the sheet carries, or is known by its name only (it
        // stays until cured): a sheet an encounter left always sets up again
        // ("Effects"; Tabula's decision, docs/systems/sour-grapes.md).
        for e in &from_sheet {
            if !all_cards.iter().any(|k| key(&k.name) == key(&e.card)) {
                all_cards.push(e.card_or_named());
            }
        }
        let wanted = from_sheet
            .iter()
            .map(|e| {
                (
                    e.card.clone(),
                    e.tokens,
                    format!("participant[{i}] ({}): effects", character.name()),
                )
            })
            .chain(
                p.effects
                    .iter()
                    .map(|e| (e.clone(), None, format!("participant[{i}].effects"))),
            );
        for (e, tokens, whose) in wanted {
            match all_cards.iter().find(|k| key(&k.name) == key(&e)) {
                Some(k) => match k.effect {
                    Some(spec) => {
                        if !effects.iter().any(|x| x.card == k.name) {
                            effects.push(ActiveEffect {
                                card: k.name.clone(),
                                tokens: tokens
                                    .and_then(|t| u32::try_from(t).ok())
                                    .unwrap_or(spec.tokens),
                            });
                        }
                    }
                    None => problems.push(format!("{whose}: {} is not an effect", k.name)),
                },
                None => problems.push(format!("{whose}: no card called {e:?}")),
            }
        }
        for (from, to) in &p.comparable {
            for name in [from, to] {
                if let Err(e) = check_name(&format!("participant[{i}].comparable"), name) {
                    problems.push(e.to_string());
                }
            }
            if character.skill(to).is_none() {
                problems.push(format!(
                    "participant[{i}].comparable: {} has no skill called {to:?} to use for {from}",
                    character.name()
                ));
            }
        }
        // Comparables: the sheet's own, then the table's (which win).
        let mut comparable = character.comparable().clone();
        comparable.extend(p.comparable.clone());
        participants.push(Participant {
            character,
            seat,
            cards: hand,
            effects,
            comparable,
        });
    }
    let start_event = match file.start.as_deref() {
        None | Some("free") => false,
        Some("event") => true,
        Some(other) => {
            problems.push(format!(
                "start: must be \"free\" or \"event\", not {other:?}"
            ));
            false
        }
    };
    if !problems.is_empty() {
        return Err(SetupError { problems });
    }
    let mut state = State {
        title: file.title,
        options: TableOptions {
            initiative_d20: file.initiative_d20.unwrap_or(true),
            experience: file.experience,
        },
        cards: all_cards,
        participants,
        moment: Moment::Free,
        over: false,
        rounds: 0,
        left: Vec::new(),
    };
    if start_event {
        let participants = state.participant_names();
        <SourGrapes as tabula_core::System>::evolve(
            &mut state,
            &Event::EventStarted { participants },
        );
    }
    Ok(state)
}

// ---------------------------------------------------------------- describing

fn purpose_text(p: &Purpose) -> &'static str {
    match p {
        Purpose::Check => "Check",
        Purpose::SituationFinal => "final check",
        Purpose::KeepEffect => "roll to keep",
        Purpose::Interrupt => "Interrupt",
        Purpose::Compliment => "Compliment (step 6)",
        Purpose::Divert => "Divert (step 6)",
        Purpose::Stunt => "Stunt (step 8)",
        Purpose::Reaction => "Reaction (step 8)",
        Purpose::Damage => "damage",
        Purpose::ExtraDamage => "additional damage",
        Purpose::LessDamage => "damage taken off",
        Purpose::LostSlot => "lost the slot, rolls for exhaustion",
    }
}

/// One event as text, with every die.
pub fn describe(state: &State, e: &Event) -> String {
    match e {
        Event::Spent { who, stat } => format!(
            "{who} spends a point of {stat} (now {})",
            cur(state, who, *stat)
        ),
        Event::GivenBack { who, stat, points } => format!(
            "the storyteller gives {who} {points} {stat} back (now {})",
            cur(state, who, *stat)
        ),
        Event::Healed { who, stat } => format!("{who}'s {stat} injury is healed"),
        Event::TokensBack { who, skill, points } => {
            format!("the storyteller gives {who} {points} {skill} token(s) back")
        }
        Event::Rejected { who } => {
            format!("the table rejects {who}'s card as invalid here; it is taken back unrolled")
        }
        Event::Rested { who } => format!(
            "a short rest: {} recover exhausted uninjured stats and skill tokens",
            who.join(", ")
        ),
        Event::Rolled {
            purpose,
            who,
            card,
            stat,
            skill,
            roll,
            needed,
            success,
            exhausts,
            tokens_spent,
            lost,
        } => {
            let mut s = format!("{who} rolls {}", purpose_text(purpose));
            if let Some(c) = card {
                let _ = write!(s, " [{c}]");
            }
            let _ = write!(s, ": {stat} {}d", roll.dice.len());
            if roll.tokens > 0 {
                let _ = write!(
                    s,
                    " + {} {} tokens",
                    roll.tokens,
                    skill.as_deref().unwrap_or("skill")
                );
            }
            let _ = write!(s, " -> {} = {} successes", roll.shown(), roll.successes);
            if let Some(n) = needed {
                let _ = write!(s, " (needs {n})");
            }
            match success {
                Some(true) => s.push_str(": SUCCESS"),
                Some(false) => s.push_str(": FAILED"),
                None => {}
            }
            for (st, n) in exhausts {
                let _ = write!(s, "; {st} exhausted by {n} (now {})", cur(state, who, *st));
            }
            if *tokens_spent > 0 {
                let _ = write!(s, "; {tokens_spent} tokens spent");
            }
            if !lost.is_empty() {
                let _ = write!(
                    s,
                    "; placed but lost (R-SG-11: the stat or skill fell below what was placed): {lost}"
                );
            }
            s
        }
        Event::SituationStarted {
            who,
            stat,
            skill,
            difficulty,
        } => format!(
            "Situation: {who} faces difficulty {difficulty}; the final check is {stat}{}",
            skill
                .as_ref()
                .map(|k| format!(" + {k}"))
                .unwrap_or_default()
        ),
        Event::DifficultyChanged { from, to } => {
            format!("the Situation's difficulty goes from {from} to {to}")
        }
        Event::SituationEnded { who, success } => format!(
            "the Situation ends: {who} {}; held skill tokens recover",
            if *success { "succeeds" } else { "fails" }
        ),
        Event::EventStarted { participants } => format!(
            "An Event! Initiative: {} each roll `initiative STAT DICE`",
            participants.join(", ")
        ),
        Event::InitiativeRolled {
            who,
            stat,
            roll,
            d20,
            total,
        } => format!(
            "{who} rolls initiative on {stat}: {} = {} successes{} = {total} (exhausts nothing)",
            roll.shown(),
            roll.successes,
            d20.map(|d| format!(" + d20 {d}")).unwrap_or_default()
        ),
        Event::InitiativeSettled { order, tiebreaks } => {
            let mut s = format!("initiative order: {}", order.join(", "));
            for (n, r) in tiebreaks {
                let _ = write!(s, "; tie-break d20 for {n}: {r:?}");
            }
            s
        }
        Event::NewRound { round } => format!("=== New Round {round} ==="),
        Event::TurnBegan { controller, .. } => {
            format!("--- {controller}'s turn: {controller} is the Controller ---")
        }
        Event::EffectCountdown {
            who,
            effect,
            tokens,
        } => format!("{who}'s {effect} loses a token ({tokens} left)"),
        Event::EffectAdded {
            who,
            effect,
            tokens,
        } => format!(
            "{effect} is in play on {who}{}",
            if *tokens > 0 {
                format!(" with {tokens} tokens")
            } else {
                String::new()
            }
        ),
        Event::EffectRemoved { who, effect } => format!("{who}'s {effect} is discarded"),
        Event::EffectKept { who, effect } => format!("{who} keeps {effect}"),
        Event::FreePoint { who, into } => format!("{who} puts the free point into {into}"),
        Event::StuntPlayed { by, card } => format!("{by} lays down the Stunt {card}"),
        Event::Offered { slot, play } => format!(
            "{} offers {:?} {} ({} on Success{})",
            play.by,
            slot,
            play.card,
            play.success,
            if play.result.points() > 0 {
                format!(", {} on Result", play.result)
            } else {
                String::new()
            }
        ),
        Event::SlotWon { slot, by, over } => format!(
            "{by} wins the {slot:?} slot over {} (more points)",
            over.join(", ")
        ),
        Event::StepReached { step } => format!("now {}", step.title()),
        Event::TargetsDeclared {
            targets,
            success,
            result,
        } => format!(
            "targets: {}; {success} on Success, {result} on Result (placed, not rolled)",
            if targets.is_empty() {
                "none".to_string()
            } else {
                targets.join(", ")
            }
        ),
        Event::Diverted { from, to } => {
            format!("the Stunt is diverted from {} to {to}", from.join(", "))
        }
        Event::ComplimentApplies { play } => {
            format!("{}'s {} will modify the Stunt", play.by, play.card)
        }
        Event::ReactionSkipped { who, reason } => {
            format!("{who} cannot react (step 7 skipped): {reason}")
        }
        Event::Reacted { who, play } => match play {
            Some(p) => format!("{who} reacts with {} ({} placed)", p.card, p.success),
            None => format!("{who} takes it (no Reaction)"),
        },
        Event::Damaged {
            who,
            stat,
            points,
            doubled,
            source,
        } => format!(
            "{source} deals {points} damage to {who}'s {stat}{} (now {}){}",
            if *doubled { " (doubled)" } else { "" },
            cur(state, who, *stat),
            if cur(state, who, *stat) == 0 {
                format!(
                    ": {stat} is depleted and injured - {}: {}",
                    stat.condition(),
                    stat.condition().effect()
                )
            } else {
                String::new()
            }
        ),
        Event::TurnEnded { controller, reason } => format!("{controller}'s turn is over: {reason}"),
        Event::EventEnded { reason } => format!("The Event ends: {reason}"),
        Event::Awarded { who, points } => format!("{who} is awarded {points} experience"),
        Event::Raised { who, what } => format!("{who} spends an experience point: {what} +1"),
        Event::Improved { who, card, damage } => format!(
            "{who} spends an experience point: {card} {}",
            if *damage {
                "deals 1 more damage"
            } else {
                "needs 1 success less"
            }
        ),
        Event::EncounterEnded => "The storyteller ends the encounter.".into(),
        Event::Adjusted {
            who,
            stat,
            from,
            to,
        } => {
            format!("The storyteller sets {who}'s {stat} to {to} (was {from}).")
        }
        Event::Joined { participant, .. } => {
            let p = participant;
            let whose = if p.seat.is_gm() {
                "the storyteller's".to_string()
            } else {
                format!("{}'s", p.seat)
            };
            format!(
                "The storyteller brings {} into the encounter ({whose}; cards: {}).",
                p.character.name(),
                if p.cards.is_empty() {
                    "none".to_string()
                } else {
                    p.cards.join(", ")
                }
            )
        }
        Event::Left { who } => {
            format!("The storyteller takes {who} out of the encounter, with their cards.")
        }
    }
}

fn cur(state: &State, who: &str, stat: Stat) -> u32 {
    state
        .participant(who)
        .map_or(0, |p| p.character.stat(stat).current)
}

fn tokens_of(state: &State, who: &str, skill: Option<&str>) -> u32 {
    skill
        .and_then(|k| {
            state
                .participant(who)
                .and_then(|p| p.character.skill(&p.skill_for(k)))
        })
        .map_or(0, |k| k.available)
}

fn dazed(state: &State, who: &str) -> u32 {
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
/// [`TextPlay::odds`] offers the seat that plays the character.
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
fn p_beat(dice: u32, tokens: u32, sd: u32, st: u32) -> Option<f64> {
    let r = check::successes_dist(dice, tokens).ok()?;
    let s = check::successes_dist(sd, st).ok()?;
    Some(r.combine(&s, |a, b| a > b).ok()?.p(&true))
}

/// The offer for `who` rolling `card`'s Success against a fixed need.
fn card_offer(
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
fn offers_odds(card: &cards::ActionCard) -> bool {
    card.success.is_some()
        && !matches!(
            card.value,
            CardValue::Star(StarRule::BeatStunt | StarRule::Notes)
        )
}

/// The Stunt's placed Success dice and tokens as they can be rolled now: dice up
/// to the Controller's Current value, tokens up to the skill's (R-SG-11).
fn stunt_now(state: &State, t: &crate::table::Turn) -> (u32, u32) {
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
fn offer_line(o: &Offer) -> String {
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

/// Whose turn, which step, what they may do, and odds next to each dice choice.
pub fn status(state: &State, seat: &Seat) -> String {
    if state.over {
        return "the encounter is over".into();
    }
    let offers = offers(state);
    let lines_of = |kind: OfferKind| offers.iter().filter(move |o| o.kind == kind);
    match &state.moment {
        Moment::Free => format!(
            "{}: between moments - the storyteller (gm) may call a check, a Situation or an Event (`event` starts the fight; `help` lists every command)",
            title(state)
        ),
        Moment::Situation(sit) => {
            if let Some(why) = state.check_forbidden(&sit.who, sit.stat) {
                return format!(
                    "Situation for {}: difficulty {} (so far {:?}); {why}: the final check cannot be made, `final 0` ends the Situation as failed",
                    sit.who, sit.difficulty, sit.history
                );
            }
            let diff = sit.difficulty.saturating_add(dazed(state, &sit.who));
            let mut s = format!(
                "Situation for {}: difficulty {} (so far {:?})",
                sit.who, diff, sit.history,
            );
            for o in lines_of(OfferKind::Final) {
                let _ = write!(
                    s,
                    "; final check {} {} + {} tokens {}: {}",
                    o.stat,
                    o.max,
                    o.skill,
                    o.tokens,
                    check::chances_line(&o.chances)
                );
            }
            s
        }
        Moment::Event(e) => {
            let Some(t) = &e.turn else {
                let waiting: Vec<&str> = state
                    .participants
                    .iter()
                    .map(|p| p.character.name())
                    .filter(|n| e.initiative.get(*n).is_some_and(Option::is_none))
                    .collect();
                return format!(
                    "Event, initiative: waiting for {} (each: `initiative STAT DICE`, any stat they make a case for; exhausts nothing)",
                    waiting.join(", ")
                );
            };
            let mut s = format!(
                "Round {}, {}'s turn (Controller), {}",
                e.round,
                t.controller,
                t.step.title()
            );
            let ctl = &t.controller;
            match t.step {
                Step::Prep => {
                    if t.free_point {
                        s.push_str("; free point unused (`recover STAT|SKILL`)");
                    }
                    if !t.pending_effects.is_empty() {
                        let _ = write!(
                            s,
                            "; roll to keep or discard: {}",
                            t.pending_effects.join(", ")
                        );
                    }
                    let _ = write!(s, "\n   {}", brief(state, ctl));
                    for o in lines_of(OfferKind::Keep) {
                        let _ = write!(s, "\n   keep {} (or `end` discards it)", offer_line(o));
                    }
                    for o in lines_of(OfferKind::Stunt) {
                        let _ = write!(s, "\n   stunt {}", offer_line(o));
                    }
                }
                Step::Interrupt => {
                    let _ = write!(
                        s,
                        "; Stunt {} on the table; others may `interrupt`, then `pass`",
                        t.stunt.as_deref().unwrap_or("?")
                    );
                    for o in lines_of(OfferKind::Interrupt) {
                        let _ = write!(s, "\n   {}", offer_line(o));
                    }
                }
                Step::Targeting => {
                    if let Some(c) = t.stunt.as_deref().and_then(|c| state.card(c)) {
                        let _ = write!(
                            s,
                            "; `target NAME success D T result D T`\n   success {}",
                            lines_of(OfferKind::Success)
                                .next()
                                .map(offer_line)
                                .unwrap_or_default()
                        );
                        if let Some(r) = c.result {
                            let _ = write!(
                                s,
                                "\n   result {r} up to {} dice (+ tokens from the same {} pool, R-SG-4): expected damage {:.2} per die",
                                cur(state, ctl, r),
                                match (&c.skill, state.participant(ctl)) {
                                    (Some(k), Some(p)) => p.skill_for(k),
                                    _ => "skill".to_string(),
                                },
                                5.0 / 6.0
                            );
                        }
                    }
                }
                Step::Support => {
                    let _ = write!(
                        s,
                        "; targets: {}; `compliment`/`divert` may be offered, then `pass`",
                        if t.targets.is_empty() {
                            "none".to_string()
                        } else {
                            t.targets.join(", ")
                        }
                    );
                    for o in lines_of(OfferKind::Support) {
                        let _ = write!(s, "\n   {}", offer_line(o));
                    }
                }
                Step::Reaction => {
                    let pending: Vec<&String> = t
                        .receivers
                        .iter()
                        .filter(|r| !t.reactions.contains_key(*r))
                        .collect();
                    let _ = write!(
                        s,
                        "; waiting for {} to `react CARD DICE TOKENS` or `take`; the Stunt has {} placed",
                        pending
                            .iter()
                            .map(|x| x.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                        t.success
                    );
                    for o in lines_of(OfferKind::Reaction) {
                        let _ = write!(s, "\n   {}", offer_line(o));
                    }
                }
            }
            let _ = seat;
            s
        }
    }
}

/// One line of a participant's sheet: stats (current/actual, `*` injured),
/// skill tokens, effects.
pub fn brief(state: &State, who: &str) -> String {
    let Some(p) = state.participant(who) else {
        return String::new();
    };
    let c = &p.character;
    let stats: Vec<String> = Stat::ALL
        .iter()
        .map(|st| {
            let v = c.stat(*st);
            format!(
                "{} {}/{}{}",
                st.abbreviation(),
                v.current,
                v.actual,
                if v.injured { "*" } else { "" }
            )
        })
        .collect();
    let skills: Vec<String> = c
        .skills()
        .iter()
        .map(|k| format!("{} {}/{}", k.name, k.available, k.rating))
        .collect();
    let mut line = format!("{who}: {} | {}", stats.join(" "), skills.join(", "));
    if !p.effects.is_empty() {
        let effects: Vec<String> = p
            .effects
            .iter()
            .map(|e| {
                if e.tokens > 0 {
                    format!("{} ({} tokens)", e.card, e.tokens)
                } else {
                    e.card.clone()
                }
            })
            .collect();
        let _ = write!(line, " | effects: {}", effects.join(", "));
    }
    let conditions = c.conditions();
    if !conditions.is_empty() {
        let names: Vec<String> = conditions.iter().map(|c| c.to_string()).collect();
        let _ = write!(line, " | {}", names.join(", "));
    }
    line
}

fn title(state: &State) -> &str {
    if state.title.is_empty() {
        "Sour Grapes"
    } else {
        &state.title
    }
}

/// The seat that acts next by default.
pub fn default_seat(state: &State) -> Seat {
    let seat_of = |n: &str| state.participant(n).map_or(Seat::Gm, |p| p.seat.clone());
    match &state.moment {
        Moment::Free => Seat::Gm,
        Moment::Situation(sit) => seat_of(&sit.who),
        Moment::Event(e) => match &e.turn {
            None => state
                .participants
                .iter()
                .map(|p| p.character.name())
                .find(|n| e.initiative.get(*n).is_some_and(Option::is_none))
                .map_or(Seat::Gm, seat_of),
            Some(t) => match t.step {
                Step::Reaction => t
                    .receivers
                    .iter()
                    .find(|r| !t.reactions.contains_key(*r))
                    .map_or_else(|| seat_of(&t.controller), |r| seat_of(r)),
                _ => seat_of(&t.controller),
            },
        },
    }
}

impl TextPlay for SourGrapes {
    const BOOK: tabula_core::rule::Book = crate::BOOK;

    type SetupError = SetupError;

    /// The seat of the participant whose roll or move an event is (`who` of
    /// a roll, a Reaction, a Spend): a Divert or a
    /// Reaction is rolled when another seat's command closes the step, and
    /// the log credits it to its roller's seat (issue 27, bug 8; "Divert",
    /// "Reactions", 000_05a1db5b88f54528.txt).
    fn event_seat(state: &State, event: &Event) -> Option<Seat> {
        let who = match event {
            Event::Spent { who, .. }
            | Event::TokensBack { who, .. }
            | Event::Rolled { who, .. }
            | Event::InitiativeRolled { who, .. }
            | Event::FreePoint { who, .. }
            | Event::ReactionSkipped { who, .. }
            | Event::Reacted { who, .. } => who,
            _ => return None,
        };
        state.participant(who).map(|p| p.seat.clone())
    }

    fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
        text: &str,
        files: &F,
    ) -> Result<State, SetupError> {
        setup(text, files)
    }

    fn seats(state: &State) -> Vec<Seat> {
        tabula_core::system::seat_list(state.participants.iter().map(|p| p.seat.clone()))
    }

    fn default_seat(state: &State) -> Seat {
        default_seat(state)
    }

    /// [`crate::commands::parse`]: the one grammar, every name resolved
    /// against the names that fit where it is typed.
    fn parse_command(state: &State, seat: &Seat, line: &str) -> Result<Command, CommandParseError> {
        crate::commands::parse(state, seat, line)
    }

    const COMMANDS: &'static [CommandDoc] = crate::commands::COMMANDS;
    /// The GM ends the encounter with `end-encounter` ([`crate::rules::MOMENTS`]).
    const END_COMMANDS: &'static [&'static str] = &["end-encounter"];
    const LOG_SYMBOLS: tabula_core::system::LogSymbols = tabula_core::system::LogSymbols::Plain;

    /// [`crate::sheet::sheet`]: the book's stat sheet with current values,
    /// conditions, skills, cards and effects.
    fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
        crate::sheet::sheet(state, seat, name)
    }

    /// [`crate::sheet::sheet_doc`]: every sheet, whole, for every seat.
    fn sheet_doc(state: &State, seat: &Seat) -> tabula_core::sheet::SheetDoc {
        crate::sheet::sheet_doc(state, seat)
    }

    fn describe(state: &State, event: &Event) -> String {
        describe(state, event)
    }

    fn status(state: &State, seat: &Seat) -> String {
        status(state, seat)
    }

    /// [`choice_odds`]: the rolls of [`offers`] the seat's characters may make now.
    fn odds(state: &State, seat: &Seat) -> Vec<ChoiceOdds> {
        choice_odds(state, seat)
    }

    fn finished(state: &State) -> bool {
        state.over
    }
}
