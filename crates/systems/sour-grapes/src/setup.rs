//! Making a table from its file: the table file's entries, checked and
//! dealt into a [`State`] ([`setup`]).
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

use serde::Deserialize;
use tabula_core::Seat;
use tabula_core::names::{check_name, check_seat_name, same_name};

use crate::SourGrapes;
use crate::cards::{self, ActionCard, CardDraft, CardType, key};
use crate::character::{Character, CharacterDraft};
use crate::event::Event;
use crate::state::{ActiveEffect, MAX_PARTICIPANTS, Moment, Participant, State, TableOptions};

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
    let mut all_cards = table_cards(&file, &mut problems);
    check_table(&file, &mut problems);
    let mut participants: Vec<Participant> = Vec::new();
    for (i, p) in file.participant.iter().enumerate().take(MAX_PARTICIPANTS) {
        if let Some(q) = participant(i, p, files, &mut all_cards, &participants, &mut problems) {
            participants.push(q);
        }
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
        added: Vec::new(),
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

/// The table's cards: the book's seven (unless `book_cards = false`), then
/// the table's own, each name once. Sour Grapes, "Cards"
/// (000_05a1db5b88f54528.txt): a table may add its own cards.
fn table_cards(file: &TableFile, problems: &mut Vec<String>) -> Vec<ActionCard> {
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
    all_cards
}

/// The table file's own checks: at least one participant, at most
/// [`MAX_PARTICIPANTS`], a legal title.
fn check_table(file: &TableFile, problems: &mut Vec<String>) {
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
}

/// Participant `i` of the table file: its character (the sheet's rules,
/// its name not taken), its seat, its cards, its effects and comparable
/// skills; `None` (with the problems) when it cannot sit at the table.
/// Sour Grapes, "Character Creation", "Cards", "Effects", "Skills"
/// (000_05a1db5b88f54528.txt).
fn participant<F: tabula_core::files::SheetFiles + ?Sized>(
    i: usize,
    p: &ParticipantEntry,
    files: &F,
    all_cards: &mut Vec<ActionCard>,
    participants: &[Participant],
    problems: &mut Vec<String>,
) -> Option<Participant> {
    let mut character = match sheet_of(i, p, files) {
        Ok(c) => c,
        Err(e) => {
            problems.push(e);
            return None;
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
        return None;
    }
    let seat = seat_of(i, p, &character, participants, problems)?;
    let hand = hand_of(i, p, &character, all_cards, problems);
    let effects = effects_of(i, p, &mut character, all_cards, problems);
    check_comparables(i, p, &character, problems);
    // Comparables: the sheet's own, then the table's (which win).
    let mut comparable = character.comparable().clone();
    comparable.extend(p.comparable.clone());
    Some(Participant {
        character,
        seat,
        cards: hand,
        effects,
        comparable,
    })
}

/// The character of participant `i`: its sheet file, or its sheet inline,
/// validated by the book's rules. Sour Grapes, "Character Creation"
/// (000_05a1db5b88f54528.txt).
fn sheet_of<F: tabula_core::files::SheetFiles + ?Sized>(
    i: usize,
    p: &ParticipantEntry,
    files: &F,
) -> Result<Character, String> {
    match (&p.file, &p.sheet) {
        (Some(f), None) => match files.read(f) {
            Ok(t) => Character::from_toml(&t).map_err(|e| format!("participant[{i}] ({f}): {e}")),
            Err(e) => Err(format!("participant[{i}].file: {e}")),
        },
        (None, Some(d)) => {
            Character::from_draft(d.clone()).map_err(|e| format!("participant[{i}].sheet: {e}"))
        }
        _ => Err(format!(
            "participant[{i}]: give exactly one of `file` or `sheet`"
        )),
    }
}

/// The seat that plays participant `i`: the one the file names, else the
/// storyteller for a monster, else the character's name; spelt as an
/// earlier participant's seat spelt it (Tabula's seats).
fn seat_of(
    i: usize,
    p: &ParticipantEntry,
    character: &Character,
    participants: &[Participant],
    problems: &mut Vec<String>,
) -> Option<Seat> {
    let seat = match &p.seat {
        Some(s) => {
            if let Err(e) = check_seat_name(&format!("participant[{i}].seat"), s) {
                problems.push(e.to_string());
                return None;
            }
            Seat::parse(s)
        }
        None if character.is_monster() => Seat::Gm,
        None => {
            // The seat is the character's name: it must be a legal seat name.
            if let Err(e) = check_seat_name(&format!("participant[{i}].seat"), character.name()) {
                problems.push(format!(
                    "{e} (the seat defaults to the character's name; give `seat`)"
                ));
                return None;
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
    Some(seat)
}

/// The cards participant `i` may play: the table file's list, else the
/// sheet's own, else every action card of the table (never an effect).
/// Sour Grapes, "Cards" (000_05a1db5b88f54528.txt).
fn hand_of(
    i: usize,
    p: &ParticipantEntry,
    character: &Character,
    all_cards: &[ActionCard],
    problems: &mut Vec<String>,
) -> Vec<String> {
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
    hand
}

/// The effects in play on participant `i` at the start: those its sheet
/// carries (with their tokens; a card this table does not define comes
/// with the sheet's), then those the table file puts in play, each once.
/// Sour Grapes, "Effects" (000_05a1db5b88f54528.txt).
fn effects_of(
    i: usize,
    p: &ParticipantEntry,
    character: &mut Character,
    all_cards: &mut Vec<ActionCard>,
    problems: &mut Vec<String>,
) -> Vec<ActiveEffect> {
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
    effects
}

/// The comparable skills the table agreed for participant `i`: legal names,
/// each standing for a skill the character has. Sour Grapes, "Skills"
/// (000_05a1db5b88f54528.txt).
fn check_comparables(
    i: usize,
    p: &ParticipantEntry,
    character: &Character,
    problems: &mut Vec<String>,
) {
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
}
