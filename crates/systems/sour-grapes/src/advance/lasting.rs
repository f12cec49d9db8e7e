//! The sheet an encounter leaves: what lasts of a Sour Grapes encounter.
//!
//! Sour Grapes, "Stat Mechanics", "Skill Mechanics", "Effects", "Injury,
//! Exhaust & Damage", "Experience" (000_05a1db5b88f54528.txt); R-SG-9,
//! R-SG-10.
//!
//! | what | on the sheet | why |
//! |---|---|---|
//! | exhausted and damaged points (Current below Actual) | `stats.X = { actual, current }` | they recover "after a short rest", "depending entirely on the situation": the storyteller's `rest` |
//! | Injury markers | `injured = true` | "will not recover until the injury is removed": the storyteller's `heal` |
//! | spent skill tokens | `skills.used` | "it takes time to get Tokens back": a `rest` |
//! | tokens held by a Situation the encounter cut short | given back | "Skill is not recovered until end of Situation": it has ended |
//! | negative effects (a countdown, or "until a specific action has occurred") with their tokens | `effects` | "continuously in play" until their criteria are met |
//! | the card of such an effect when the book does not print it (a table's own, e.g. Bleeding) | `effects[i].definition` | the next table may not define it: the sheet carries what it needs |
//! | positive effects (rolled for or discarded at the start of a turn) | dropped | they pace the scene they were played in and "can simply be stopped" |
//! | Experience, raised stats and skills, card bonuses | `experience`, `stats`, `skills`, `card_bonuses` | "Experience" |
//! | the cards, comparables and effects the table file gave | not written (cards, comparables) | that table's agreement; the sheet's own lists come back as they were |
//! | initiative, rounds, the turn, a Situation's difficulty | not written | they belong to one encounter |

use tabula_core::SheetAfter;
use tabula_core::names::same_name;

use crate::builder::sheet_toml;
use crate::cards::{ActionCard, Keep, book_cards, same_key};
use crate::character::{Character, CharacterDraft, EffectEntry};
use crate::state::{ActiveEffect, Moment, State};

/// True when effect `card` lasts past the encounter: a negative effect
/// (countdown, or staying until cured); a card the table does not know lasts
/// too. Positive effects (`roll` to keep, or simply discarded) do not.
/// Sour Grapes, "Effects"; R-SG-9.
pub fn lasts(state: &State, card: &str) -> bool {
    !matches!(
        state.card(card).and_then(|c| c.effect).map(|s| s.keep),
        Some(Keep::Roll | Keep::Discard)
    )
}

/// The sheet of `character` with `effects` in play on it: the character's own
/// sheet (its own cards and comparables), the effects with their tokens, and
/// each effect card the book does not print (a table's own, looked up in
/// `cards`) written out in full, so that the next table keeps it in play
/// without defining it. Sour Grapes, "Effects", "Cards".
pub fn sheet_with(
    character: &Character,
    effects: &[ActiveEffect],
    cards: &[ActionCard],
) -> CharacterDraft {
    let book = book_cards();
    let mut d = character.to_draft();
    d.effects = effects
        .iter()
        .map(|e| EffectEntry {
            card: e.card.clone(),
            tokens: Some(i64::from(e.tokens)),
            definition: (!book.iter().any(|b| same_key(&b.name, &e.card)))
                .then(|| cards.iter().find(|c| same_key(&c.name, &e.card)))
                .flatten()
                .map(ActionCard::to_draft),
        })
        .collect();
    d
}

/// Every character at the table as the encounter leaves them, in table order
/// (then those who left it, in the order they left)
/// (see the [module documentation](self)). Sour Grapes tables make no
/// nameless characters: every participant has a sheet.
pub fn sheets_after(state: &State) -> Vec<SheetAfter> {
    state
        .participants
        .iter()
        // Those the storyteller took out of the encounter (`remove`) keep
        // their sheets too (GM tools).
        .chain(&state.left)
        // Guests the storyteller added are not the campaign's to keep.
        .filter(|p| !state.added.iter().any(|n| same_name(n, p.character.name())))
        .map(|p| {
            let mut c = p.character.clone();
            if let Moment::Situation(sit) = &state.moment
                && let Some(held) = sit.held.get(c.name())
            {
                for (skill, n) in held {
                    c.recover_skill(skill, *n);
                }
            }
            let effects: Vec<ActiveEffect> = p
                .effects
                .iter()
                .filter(|e| lasts(state, &e.card))
                .cloned()
                .collect();
            SheetAfter {
                name: c.name().to_string(),
                sheet: sheet_toml(&sheet_with(&c, &effects, &state.cards)),
            }
        })
        .collect()
}
