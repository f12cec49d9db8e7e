//! What lasts after an encounter and advancement between encounters: the
//! sheets an encounter leaves ([`sheets_after`], in `lasting.rs`) and
//! "Leveling Up" as two commands (this file).
//!
//! The book has no XP and no milestones: when a character levels up is the
//! GM's call (`level-up`, GM only). The level gives 4 SP and 10 max Health
//! ("Leveling Up", "Health"; R-TI-2); its player then places the SP
//! (`increase STAT N`), each point in the first tier of the Stat with room,
//! so a point goes in a tier only when the tier before holds 6 (R-TI-3), 36
//! at most per Stat. Until placed, the SP wait on the sheet (`unspent_sp`), so
//! the sheet validates after every command.
//!
//! Every refusal changes nothing and names its rule ([`AdvanceError`]).

use tabula_core::names::resolve;
use tabula_core::system::{CommandDoc, Giver};
use tabula_core::{AdvanceError, Advanced, Seat};

use crate::builder::{validate, write_sheet};
use crate::character::{
    self, Character, CharacterDraft, HEALTH_PER_LEVEL, MAX_LEVEL, MAX_SP_PER_STAT, SP_PER_LEVEL,
    Stat, StatsDraft,
};
use crate::rules;

mod lasting;

pub use lasting::{sheet_after, sheets_after};

/// The advancement commands of Tiers (002_631931fd73349179.txt).
pub const ADVANCEMENT: &[CommandDoc] = &[
    CommandDoc::new(
        "level-up",
        &[],
        "level-up [NAME]",
        "the GM grants a level: 4 Stat Points to place and 10 more max Health (\"Players have 10 Health and 4 Stat Points per level\")",
        Giver::Gm,
        rules::LEVELING_UP,
    ),
    CommandDoc::new(
        "increase",
        &["place"],
        "increase STAT N",
        "place N of the SP a level gave in STAT, tier by tier: to put a Point in a tier, you must have 6 SP in the previous tier (36 at most)",
        Giver::Player,
        rules::STATS_AND_TIERS,
    ),
];

fn parse_error(message: impl Into<String>) -> AdvanceError {
    AdvanceError::parse(message, ADVANCEMENT)
}

/// The changed sheet, checked again by [`Character::from_draft`]: a problem
/// left refuses the command with its rule.
fn finish(draft: CharacterDraft, summary: String) -> Result<Advanced, AdvanceError> {
    match Character::from_draft(draft) {
        Ok(c) => Ok(Advanced {
            sheet: write_sheet(&c.to_draft()),
            summary,
        }),
        Err(e) => {
            let first = e.problems.first();
            Err(AdvanceError::refused(
                first.map_or(rules::LEVELING_UP, |p| p.rule()),
                first.map_or_else(String::new, ToString::to_string),
            ))
        }
    }
}

/// One advancement command on `sheet` from `seat`.
///
/// - `level-up [NAME]` (GM only; NAME, when given, must be the sheet's):
///   level + 1, 4 more SP to place, and Health written on the sheet rises by
///   the 10 the max rises (damage taken stays; 0 stays 0: a level does not
///   heal). Refused to a player ([`rules::SEATS`]), to the dead
///   ([`rules::DEATH_ROLLS`]) and past level 33 ([`rules::LEVELING_UP`]).
/// - `increase STAT N` (the player, or the GM for them): N (at least 1) of the
///   SP to place go into STAT (`str`, `Skill`, ... by unambiguous prefix),
///   filling its tiers in order. Refused without that many SP to place
///   ([`rules::LEVELING_UP`]), past 36 in the Stat ([`rules::STATS_AND_TIERS`],
///   R-TI-3), and to the dead.
///
/// Tiers, "Leveling Up", "Health", "Stats and Tiers" (002_631931fd73349179.txt);
/// R-TI-2, R-TI-3.
///
/// # Errors
/// [`AdvanceError::Sheet`] when the sheet does not validate,
/// [`AdvanceError::Parse`] for a line that is not one of [`ADVANCEMENT`],
/// [`AdvanceError::Refused`] naming the rule; nothing changes.
pub fn advance(sheet: &str, seat: &Seat, line: &str) -> Result<Advanced, AdvanceError> {
    let c = Character::from_toml(sheet).map_err(|_| AdvanceError::Sheet {
        problems: validate(sheet).err().unwrap_or_default(),
    })?;
    let words = tabula_core::grammar::words(line).map_err(|e| parse_error(e.to_string()))?;
    let Some((command, args)) = words.split_first() else {
        return Err(parse_error("no command given"));
    };
    let command = command.to_ascii_lowercase();
    let dead = || {
        AdvanceError::refused(
            rules::DEATH_ROLLS,
            format!("{} is dead and takes no further part", c.name()),
        )
    };
    match command.as_str() {
        "level-up" => {
            match args {
                [] => {}
                [name] if tabula_core::names::same_name(name, c.name()) => {}
                [name] => {
                    return Err(parse_error(format!(
                        "this sheet is {}'s, not {name}'s",
                        c.name()
                    )));
                }
                _ => return Err(parse_error("level-up takes at most a name")),
            }
            if !seat.is_gm() {
                return Err(AdvanceError::refused(
                    rules::SEATS,
                    "level-up is the GM's call (the book gives no XP or milestones)",
                ));
            }
            if c.dead() {
                return Err(dead());
            }
            if c.level() >= MAX_LEVEL {
                return Err(AdvanceError::refused(
                    rules::LEVELING_UP,
                    format!(
                        "{} is level {MAX_LEVEL}, where every tier of every Stat is full",
                        c.name()
                    ),
                ));
            }
            let mut d = c.to_draft();
            d.level = i64::from(c.level() + 1);
            d.unspent_sp = i64::from(c.unspent_sp().saturating_add(SP_PER_LEVEL));
            d.health = d.health.map(|h| {
                if h > 0 {
                    h + i64::from(HEALTH_PER_LEVEL)
                } else {
                    h
                }
            });
            let summary = format!(
                "{} reaches level {}: {} SP to place; max Health {} -> {} (plus the table's perks)",
                c.name(),
                c.level() + 1,
                c.unspent_sp().saturating_add(SP_PER_LEVEL),
                c.base_max_health(),
                character::base_max_health(c.level() + 1)
            );
            finish(d, summary)
        }
        "increase" | "place" => {
            let [stat, n] = args else {
                return Err(parse_error("increase takes a Stat and a number of SP"));
            };
            let names = Stat::ALL.map(Stat::name);
            let stat = resolve("Stat", stat, names)
                .ok()
                .and_then(Stat::parse)
                .ok_or_else(|| {
                    parse_error(format!("{stat:?} is not a Stat ({})", names.join(", ")))
                })?;
            let n: u32 = n
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| parse_error(format!("{n:?}: the SP to place are 1 or more")))?;
            if c.dead() {
                return Err(dead());
            }
            let left = c.unspent_sp();
            if left == 0 {
                return Err(AdvanceError::refused(
                    rules::LEVELING_UP,
                    format!(
                        "{} has no SP to place: the GM grants a level first (level-up)",
                        c.name()
                    ),
                ));
            }
            if n > left {
                return Err(AdvanceError::refused(
                    rules::LEVELING_UP,
                    format!("{} has {left} SP to place, not {n}", c.name()),
                ));
            }
            let before = c.stat(stat);
            let total = before.total().saturating_add(n);
            if total > MAX_SP_PER_STAT {
                return Err(AdvanceError::refused(
                    rules::STATS_AND_TIERS,
                    format!(
                        "{} holds {} SP; {n} more makes {total}, past the 36 of its 6 full tiers",
                        stat.name(),
                        before.total()
                    ),
                ));
            }
            let mut d = c.to_draft();
            *d.stats.of_mut(stat) = StatsDraft::tiers_for_total(i64::from(total));
            d.unspent_sp = i64::from(left - n);
            d.total_sp = Some(d.stats.written_sum());
            let after = character::StatPoints::filled(total);
            let tiers: Vec<String> = after
                .tiers()
                .iter()
                .filter(|&&t| t > 0)
                .map(u32::to_string)
                .collect();
            let summary = format!(
                "{}: {} {} -> {total} SP (tiers {}), Roleplay Bonus +{}{}; {} SP left to place",
                c.name(),
                stat.name(),
                before.total(),
                tiers.join("/"),
                after.roleplay_bonus(),
                if after.roleplay_bonus() > before.roleplay_bonus() {
                    format!(" (tier {} opens)", after.roleplay_bonus())
                } else {
                    String::new()
                },
                left - n
            );
            finish(d, summary)
        }
        other => Err(parse_error(format!(
            "{other:?} is not an advancement command"
        ))),
    }
}
