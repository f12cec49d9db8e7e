//! The sheets an encounter leaves: each character's sheet with what the book
//! says lasts, and everything that lasts only for the encounter as a new one
//! starts it.
//!
//! What lasts (The Sapio System, 004_f39b4146df158cae.txt):
//!
//! - **Injuries and Stresses**, every box and a debilitation ("Injuries and
//!   Stresses": "Stresses are temporary conditions or mental states that may
//!   clear when the character has time to gather themself and rest, while
//!   Injuries are physical wounds that require more time to heal"). The end of
//!   an encounter is not that rest: both stay until the GM heals or clears them
//!   (at the table with `heal`, between sessions with the advancement
//!   commands `heal` and `rest`). A healed Severe ends a debilitation
//!   ([`crate::harm::Track::clear`]).
//! - A weapon's Injury the roll dealt but the GM had not yet placed (the
//!   similarity call, R-SA-6) when the encounter ended: recorded as of a
//!   different nature (it escalates nothing), since the hit landed.
//! - **Luck**: what was spent on rolls is gone and what was gained is kept
//!   ("Luck"); Luck set aside for a check that was never rolled was not spent.
//! - Death ("Weapons and causing Injury": "Severe -> Death"; R-SA-4).
//! - Advancements and completed-cycle changes taken at the end-of-session step
//!   ("Advancement"), and an advancement still due from it (R-SA-9: it is
//!   dropped when the next session's play resumes).
//!
//! What does not last: invoked elements ("Invoking an Element": dedicated to a
//! task, or "within a given round"), the open check and its pool, the Action
//! Sequence (rounds, focal and threatened marks).

use tabula_core::SheetAfter;

use crate::builder::write_sheet;
use crate::harm::{HarmKind, MAX_ENTRY_CHARS};
use crate::state::{Member, State};

/// One character's sheet as the encounter leaves it (see the module).
pub fn sheet_after(state: &State, index: usize, m: &Member) -> SheetAfter {
    let mut sheet = m.character.sheet().clone();
    sheet.advancement_due = m.advancement_due;
    if let Some(p) = &state.pending_injury
        && p.character == index
    {
        let name: String = p.name.trim().chars().take(MAX_ENTRY_CHARS).collect();
        let name = if name.is_empty() {
            "Wound".to_string()
        } else {
            name
        };
        if let Ok(rec) = sheet.injuries.plan(HarmKind::Injury, p.level, &name, None) {
            sheet.injuries.apply(&rec);
        }
    }
    // A debilitation stands on a Severe entry; with none left it is over.
    for track in [&mut sheet.injuries, &mut sheet.stresses] {
        if track.severe.is_none() {
            track.debilitated = false;
        }
    }
    SheetAfter {
        name: m.character.name().to_string(),
        sheet: write_sheet(&sheet),
    }
}

/// Every character at the table, in the table's order, as the encounter
/// leaves them. Every Sapio character (the GM's too) has a sheet.
pub fn sheets_after(state: &State) -> Vec<SheetAfter> {
    state
        .characters
        .iter()
        .enumerate()
        // A guest the GM added mid-encounter is not the campaign's.
        .filter(|(_, m)| !m.added)
        .map(|(i, m)| sheet_after(state, i, m))
        .collect()
}
