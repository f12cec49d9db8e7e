//! The sheets an encounter leaves: each character's sheet with the book's
//! lasting changes applied, and what lasts only for the encounter (AP, Zone,
//! grapples, ensnaring, reductions, turrets, an overheal past the maximum)
//! as a new encounter starts it.
//!
//! The lasting changes (002_631931fd73349179.txt):
//! - Health: "After combat, players are fully healed unless killed or
//!   otherwise stated by the GM. In dungeons, don't expect to be fully healed"
//!   ("Player Phase"); Resting heals by the hour instead ("Custom Rules"). A
//!   combat still running is closed as the GM's `end-combat` would close it.
//! - Items used up ("Items", "Sample Items").
//! - Dead ("Death Rolls") and Permanent Wounds ("Custom Rules").
//!
//! Level, Stats and SP never change at a table: levels come between
//! encounters ([`crate::advance::advance`]).

use tabula_core::SheetAfter;

use crate::builder::write_sheet;
use crate::character::MAX_TALLY;
use crate::state::{Hero, Mode, State};

/// The sheet of `hero` as the encounter in `state` leaves it (TOML that
/// `tabula tiers character validate` accepts).
///
/// Health is written the way the sheet wrote it when it did not change; else
/// as `health` when it is within the sheet's own max (10 per level, R-TI-2),
/// as `damage` (Health lost) when a table's Stat perks hold it above that, and
/// not at all when full.
///
/// Tiers, "Player Phase", "Health", "Custom Rules" (002_631931fd73349179.txt); R-TI-2.
pub fn sheet_after(state: &State, hero: &Hero) -> SheetAfter {
    let c = &hero.character;
    let mut d = c.to_draft();
    d.items = hero.items.clone();
    d.dead = hero.dead;
    d.wounds = i64::from(hero.wounds).min(MAX_TALLY);
    let max = hero.max_health;
    let in_combat = matches!(state.mode, Mode::Combat { .. });
    let now = if in_combat && crate::decide::heals_after(state) && !hero.dead {
        max
    } else {
        hero.health.min(max)
    };
    if now != c.health_at(max) {
        let base = c.base_max_health();
        d.health = None;
        d.damage = None;
        if now < max {
            let lost = i64::from(max - now);
            if now <= base || lost > MAX_TALLY {
                d.health = Some(i64::from(now.min(base)));
            } else {
                d.damage = Some(lost);
            }
        }
    }
    SheetAfter {
        name: c.name().to_string(),
        sheet: write_sheet(&d),
    }
}

/// Every character at the table (players, then NPC allies, in the table's
/// order) as the encounter leaves them. Enemies have no sheets, nor the NPC
/// allies the GM brought in mid-encounter (`add`: copies of a sheet, not the
/// table file's characters).
pub fn sheets_after(state: &State) -> Vec<SheetAfter> {
    state
        .heroes
        .iter()
        .filter(|h| !h.joined)
        .map(|h| sheet_after(state, h))
        .collect()
}
