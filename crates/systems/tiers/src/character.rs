//! Character Creation: level, the four Stats with six tiers each, Stat Points
//! (SP), the Roleplay Bonus, Health, Action Points and Items.
//!
//! A [`CharacterDraft`] is what a character file (TOML) says: any numbers at all.
//! It becomes a [`Character`] only through [`Character::from_draft`], whose error
//! lists every broken rule at once ([`DraftError`]).
//!
//! The file format:
//!
//! ```toml
//! name = "John"
//! level = 1
//! total_sp = 16          # optional: the sheet's own tally, checked if present
//! health = 20            # optional: current Health, default the maximum
//! items = ["Longsword that glows with an eternal fire", "Shield", "Potion"]
//! # What play leaves on a sheet (all optional, see the fields of CharacterDraft):
//! # damage = 3           # Health lost, when a table's perks lift max Health
//! # unspent_sp = 4       # SP a level up gave, not yet placed
//! # wounds = 1           # Permanent Wounds suffered
//! # dead = true          # dead (a Death Roll, or the GM and player decided so)
//!
//! [stats]                # SP in tier 1, tier 2, ... of each Stat
//! strength = [6, 1]
//! skill = [3]
//! support = [3]
//! scharisma = [3]
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::rules;
use tabula_core::Rule;

/// The number of tiers of each Stat. "Stats and Tiers": "Each Stat has 6 tiers".
pub const TIERS: usize = 6;
/// The most SP one tier holds (R-TI-3: 6 SP per tier, 36 per Stat).
pub const SP_PER_TIER: u32 = 6;
/// The most SP one Stat holds (R-TI-3).
pub const MAX_SP_PER_STAT: u32 = SP_PER_TIER * TIERS as u32;
/// SP a level-0 character starts with ("Starting Stats").
pub const STARTING_SP: u32 = 12;
/// SP every Stat starts with in tier 1 ("Starting Stats": pre-filled bubbles).
pub const STARTING_TIER_1: u32 = 3;
/// SP gained per level ("Leveling Up").
pub const SP_PER_LEVEL: u32 = 4;
/// Max Health per level, counting level 0 as the first (R-TI-2).
pub const HEALTH_PER_LEVEL: u32 = 10;
/// Every player's max Action Points ("Action Points (AP)").
pub const MAX_AP: u32 = 6;
/// The highest level a file may give. Tabula's cap: the book has no top level, but
/// at level 33 every tier of every Stat is full (12 + 4 x 33 = 144 = 4 x 36).
pub const MAX_LEVEL: u32 = 33;
/// The most Items a character file may list (Tabula's cap).
pub const MAX_ITEMS: usize = 100;
/// The longest name or item name, in bytes (Tabula's cap).
pub const MAX_NAME: usize = 200;
/// The most damage (Health lost) or Permanent Wounds a sheet records (Tabula's cap).
pub const MAX_TALLY: i64 = 10_000;

/// One of the four Stats ("Stats and Tiers").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stat {
    /// How powerful the character is; in combat, Health and damage output.
    Strength,
    /// How in touch with their inner power; in combat, a range of expertise.
    Skill,
    /// How in touch with who or what is around them; in combat, reduces and heals damage.
    Support,
    /// How personable or persuasive; in combat, changes rolls, minor healing.
    Scharisma,
}

impl Stat {
    /// The four Stats in the book's order.
    pub const ALL: [Stat; 4] = [Stat::Strength, Stat::Skill, Stat::Support, Stat::Scharisma];

    /// The Stat's name as the book writes it.
    pub fn name(self) -> &'static str {
        match self {
            Stat::Strength => "Strength",
            Stat::Skill => "Skill",
            Stat::Support => "Support",
            Stat::Scharisma => "Scharisma",
        }
    }

    /// The Stat's key in files: `strength`, `skill`, `support`, `scharisma`.
    pub fn key(self) -> &'static str {
        match self {
            Stat::Strength => "strength",
            Stat::Skill => "skill",
            Stat::Support => "support",
            Stat::Scharisma => "scharisma",
        }
    }

    /// Read a Stat name (any case).
    pub fn parse(text: &str) -> Option<Stat> {
        Stat::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(text.trim()))
    }

    fn index(self) -> usize {
        match self {
            Stat::Strength => 0,
            Stat::Skill => 1,
            Stat::Support => 2,
            Stat::Scharisma => 3,
        }
    }
}

impl fmt::Display for Stat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The SP of one Stat, tier by tier (index 0 is tier 1). Always valid: each tier
/// holds 0..=6 and a tier holds points only when the one before holds 6 (R-TI-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatPoints {
    tiers: [u32; TIERS],
}

impl StatPoints {
    /// The Stat's SP filled tier by tier as R-TI-3 requires: `total` (at most 36)
    /// fills tier 1 to 6, then tier 2, and so on.
    pub fn filled(total: u32) -> StatPoints {
        let mut tiers = [0; TIERS];
        let mut left = total.min(MAX_SP_PER_STAT);
        for t in &mut tiers {
            *t = left.min(SP_PER_TIER);
            left -= *t;
        }
        StatPoints { tiers }
    }

    /// SP in tier `tier` (1..=6; 0 for any other tier).
    pub fn in_tier(&self, tier: u32) -> u32 {
        tier.checked_sub(1)
            .and_then(|i| self.tiers.get(i as usize))
            .copied()
            .unwrap_or(0)
    }

    /// SP in every tier, tier 1 first.
    pub fn tiers(&self) -> [u32; TIERS] {
        self.tiers
    }

    /// The Stat's total SP, 0..=36.
    pub fn total(&self) -> u32 {
        self.tiers.iter().sum()
    }

    /// The Roleplay Bonus: the highest tier holding at least 1 SP, 0..=6.
    ///
    /// Tiers, "Roleplay Bonus" (002_631931fd73349179.txt); R-TI-1.
    pub fn roleplay_bonus(&self) -> u32 {
        self.tiers
            .iter()
            .rposition(|&sp| sp > 0)
            .map_or(0, |i| i as u32 + 1)
    }

    /// True when the Stat has at least 1 SP in `tier` (so its Actions are open).
    ///
    /// Tiers, "Stats and Tiers" (002_631931fd73349179.txt); R-TI-4.
    pub fn has_tier(&self, tier: u32) -> bool {
        self.in_tier(tier) >= 1
    }
}

/// A character file as written: public fields, any values. Validate it with
/// [`Character::from_draft`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterDraft {
    /// The character's name.
    #[serde(default)]
    pub name: String,
    /// The level, from 0.
    #[serde(default)]
    pub level: i64,
    /// SP per tier of each Stat.
    #[serde(default)]
    pub stats: StatsDraft,
    /// The total SP the sheet tracks for the GM ("Leveling Up"); checked if given.
    #[serde(default)]
    pub total_sp: Option<i64>,
    /// Current Health; the maximum when absent.
    #[serde(default)]
    pub health: Option<i64>,
    /// Items carried: the main weapon(s) and what the GM allows ("Starting Items").
    #[serde(default)]
    pub items: Vec<String>,
    /// Free notes (a look, a permanent wound...). Not checked. Left out of
    /// the written sheet when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Health lost below the max Health, whatever the table makes the maximum
    /// (a table's Stat perks raise it above the sheet's own, R-TI-2): what an
    /// encounter leaves when the Health left is above the sheet's base max.
    /// 0..=[`MAX_TALLY`]; not together with `health`. At a table, Health is the
    /// max less this (0 at the least).
    ///
    /// Tiers, "Health", "Player Phase" (002_631931fd73349179.txt); R-TI-2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<i64>,
    /// SP a level up gave that are not placed in a Stat yet; 0 or more. The
    /// Stats plus these add up to 12 + 4 x level.
    ///
    /// Tiers, "Leveling Up" (002_631931fd73349179.txt).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unspent_sp: i64,
    /// Permanent Wounds suffered (a permanent scar or dismemberment each time
    /// the character fell to 0 Health at a table playing the custom rule);
    /// 0..=[`MAX_TALLY`]. What each wound is goes in `notes`.
    ///
    /// Tiers, "Custom Rules": "Permanent Wounds" (002_631931fd73349179.txt).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wounds: i64,
    /// Dead: an odd Death Roll, or the GM and player decided so. The dead take
    /// no further part.
    ///
    /// Tiers, "Health", "Custom Rules": "Death Rolls" (002_631931fd73349179.txt).
    #[serde(default, skip_serializing_if = "is_false")]
    pub dead: bool,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The SP per tier of each Stat as written in a file (tier 1 first).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatsDraft {
    /// Strength, tier 1 first.
    #[serde(default)]
    pub strength: Vec<i64>,
    /// Skill, tier 1 first.
    #[serde(default)]
    pub skill: Vec<i64>,
    /// Support, tier 1 first.
    #[serde(default)]
    pub support: Vec<i64>,
    /// Scharisma, tier 1 first.
    #[serde(default)]
    pub scharisma: Vec<i64>,
}

impl StatsDraft {
    /// The SP per tier written for `stat`, tier 1 first.
    pub fn of(&self, stat: Stat) -> &[i64] {
        match stat {
            Stat::Strength => &self.strength,
            Stat::Skill => &self.skill,
            Stat::Support => &self.support,
            Stat::Scharisma => &self.scharisma,
        }
    }

    /// The SP per tier written for `stat`, to change.
    pub fn of_mut(&mut self, stat: Stat) -> &mut Vec<i64> {
        match stat {
            Stat::Strength => &mut self.strength,
            Stat::Skill => &mut self.skill,
            Stat::Support => &mut self.support,
            Stat::Scharisma => &mut self.scharisma,
        }
    }

    /// The SP written for `stat`, summed over every tier written (saturating).
    pub fn total(&self, stat: Stat) -> i64 {
        self.of(stat)
            .iter()
            .fold(0i64, |sum, &sp| sum.saturating_add(sp))
    }

    /// The SP the Stats add up to as [`Character::from_draft`] counts them:
    /// the first six tiers of each Stat, each taken within -1,000,000..=1,000,000
    /// (an absurd number is reported by its own problem, not overflowed).
    pub fn written_sum(&self) -> i64 {
        Stat::ALL
            .iter()
            .flat_map(|&s| self.of(s).iter().take(TIERS))
            .fold(0i64, |sum, &sp| {
                sum.saturating_add(sp.clamp(-1_000_000, 1_000_000))
            })
    }

    /// The SP per tier a Stat holding `total` SP is written as: tier by tier,
    /// 6 in each (R-TI-3), tier 1 first, empty tiers left out. A total that
    /// cannot be laid out is written as it would break the rules, so that
    /// [`Character::from_draft`] names them: below 1 as tier 1 alone
    /// ([`DraftProblem::StartingPoints`]), past 36 with the rest in a seventh
    /// tier ([`DraftProblem::TooManyTiers`]).
    ///
    /// Tiers, "Stats and Tiers" (002_631931fd73349179.txt); R-TI-3.
    pub fn tiers_for_total(total: i64) -> Vec<i64> {
        if total <= 0 {
            return vec![total];
        }
        let mut out = Vec::new();
        let mut left = total;
        for _ in 0..TIERS {
            if left <= 0 {
                break;
            }
            let here = left.min(i64::from(SP_PER_TIER));
            out.push(here);
            left -= here;
        }
        if left > 0 {
            out.push(left);
        }
        out
    }

    /// A draft where each Stat's total is filled tier by tier (R-TI-3).
    pub fn from_totals(strength: u32, skill: u32, support: u32, scharisma: u32) -> StatsDraft {
        let f = |t: u32| -> Vec<i64> {
            StatPoints::filled(t)
                .tiers()
                .into_iter()
                .filter(|&sp| sp > 0)
                .map(i64::from)
                .collect()
        };
        StatsDraft {
            strength: f(strength),
            skill: f(skill),
            support: f(support),
            scharisma: f(scharisma),
        }
    }
}

/// One broken rule of a character file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "problem", rename_all = "kebab-case")]
pub enum DraftProblem {
    /// `name` is empty, too long, holds control characters or a `:`, or is
    /// the GM's seat (`GM`): a character's name is its player's seat at a table.
    #[error(
        "name: a character needs a name of 1 to {} characters without control characters or ':', other than GM",
        tabula_core::names::MAX_NAME_CHARS
    )]
    Name,
    /// `level` is below 0 or above [`MAX_LEVEL`].
    #[error("level: must be between 0 and {MAX_LEVEL}, not {got}")]
    Level {
        /// The level written.
        got: i64,
    },
    /// A Stat lists more than six tiers.
    #[error("stats.{}: a Stat has 6 tiers, not {count}", stat.key())]
    TooManyTiers {
        /// The Stat.
        stat: Stat,
        /// Tiers written.
        count: usize,
    },
    /// A tier holds fewer than 0 or more than 6 SP.
    #[error("stats.{} tier {tier}: a tier holds 0 to 6 SP, not {got} (R-TI-3)", stat.key())]
    TierPoints {
        /// The Stat.
        stat: Stat,
        /// The tier, 1..=6.
        tier: u32,
        /// SP written.
        got: i64,
    },
    /// Tier 1 holds fewer than the 3 pre-filled SP.
    #[error("stats.{} tier 1: every Stat starts with 3 SP in tier 1, not {got}", stat.key())]
    StartingPoints {
        /// The Stat.
        stat: Stat,
        /// SP written in tier 1.
        got: i64,
    },
    /// A tier holds SP while the tier before holds fewer than 6 (R-TI-3).
    #[error(
        "stats.{} tier {tier}: a point goes in tier {tier} only when tier {} holds 6 SP (it holds {previous}) (R-TI-3)",
        stat.key(),
        tier - 1
    )]
    TierLocked {
        /// The Stat.
        stat: Stat,
        /// The tier that holds SP too early.
        tier: u32,
        /// SP in the tier before it.
        previous: i64,
    },
    /// The SP in the Stats plus `unspent_sp` is not 12 + 4 per level.
    #[error(
        "stats: a level {level} character has {expected} SP (12 + 4 per level), these add up to {got}{}",
        if *unspent == 0 { String::new() } else { format!(" with {unspent} not yet placed") }
    )]
    Budget {
        /// The level.
        level: u32,
        /// 12 + 4 x level.
        expected: u32,
        /// SP in the Stats plus `unspent_sp`.
        got: i64,
        /// `unspent_sp` as written.
        unspent: i64,
    },
    /// `unspent_sp` is below 0.
    #[error("unspent_sp: SP not yet placed are 0 or more, not {got}")]
    UnspentSp {
        /// The number written.
        got: i64,
    },
    /// `total_sp` does not match the Stats.
    #[error("total_sp: the sheet says {written} but the Stats add up to {actual}")]
    TotalSp {
        /// The tally written.
        written: i64,
        /// The sum of the Stats.
        actual: i64,
    },
    /// `health` is below 0 or above the maximum.
    #[error("health: must be between 0 and the max Health {max}, not {got} (R-TI-2)")]
    Health {
        /// Health written.
        got: i64,
        /// Max Health (10 per level, level 0 counting as one).
        max: u32,
    },
    /// `damage` is below 0 or past [`MAX_TALLY`], or written with `health`.
    #[error(
        "damage: Health lost is 0 to {MAX_TALLY}, not {got}, and a sheet writes either health or damage (R-TI-2)"
    )]
    Damage {
        /// Damage written.
        got: i64,
    },
    /// `wounds` is below 0 or past [`MAX_TALLY`].
    #[error("wounds: Permanent Wounds are 0 to {MAX_TALLY}, not {got}")]
    Wounds {
        /// Wounds written.
        got: i64,
    },
    /// Too many Items, or an Item with an empty or too long name.
    #[error(
        "items: at most {MAX_ITEMS} Items, each named in 1 to {MAX_NAME} bytes without control characters"
    )]
    Items,
}

impl DraftProblem {
    /// The rule this problem breaks.
    pub fn rule(&self) -> Rule {
        match self {
            DraftProblem::Name | DraftProblem::Items => rules::CAPS,
            DraftProblem::Level { .. } => rules::LEVELING_UP,
            DraftProblem::TooManyTiers { .. }
            | DraftProblem::TierPoints { .. }
            | DraftProblem::TierLocked { .. } => rules::STATS_AND_TIERS,
            DraftProblem::StartingPoints { .. } => rules::STARTING_STATS,
            DraftProblem::Budget { .. }
            | DraftProblem::TotalSp { .. }
            | DraftProblem::UnspentSp { .. } => rules::LEVELING_UP,
            DraftProblem::Health { .. } | DraftProblem::Damage { .. } => rules::HEALTH,
            DraftProblem::Wounds { .. } => rules::PERMANENT_WOUNDS,
        }
    }
}

/// A character file broke one or more rules: every problem, and the draft back.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}", self.problems.iter().map(|p| format!("{p} [{}]", p.rule())).collect::<Vec<_>>().join("; "))]
pub struct DraftError {
    /// Every broken rule, in the order of the file's fields.
    pub problems: Vec<DraftProblem>,
    /// The draft, unchanged.
    pub draft: Box<CharacterDraft>,
}

/// A character that follows every rule of "Character Creation".
///
/// Built only through [`Character::from_draft`]. Health here is the character's
/// own (before Stat perks of a table raise the maximum; see R-TI-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    name: String,
    level: u32,
    stats: [StatPoints; 4],
    health: Option<u32>,
    items: Vec<String>,
    notes: Vec<String>,
    #[serde(default)]
    damage: Option<u32>,
    #[serde(default)]
    unspent_sp: u32,
    #[serde(default)]
    wounds: u32,
    #[serde(default)]
    dead: bool,
}

impl Character {
    /// Validate `draft`: every rule of "Character Creation" is checked and every
    /// broken one reported.
    ///
    /// "Starting Stats", "Leveling Up", "Stats and Tiers", "Health", "Custom
    /// Rules" (Permanent Wounds) (002_631931fd73349179.txt); R-TI-2, R-TI-3.
    ///
    /// # Errors
    /// [`DraftError`] listing each [`DraftProblem`], with the draft handed back.
    pub fn from_draft(draft: CharacterDraft) -> Result<Character, DraftError> {
        let mut problems = Vec::new();
        if draft.name.trim().is_empty()
            || draft.name.len() > MAX_NAME
            || tabula_core::names::check_seat_name("name", &draft.name).is_err()
            || tabula_core::Seat::parse(&draft.name).is_gm()
        {
            problems.push(DraftProblem::Name);
        }
        let level = match u32::try_from(draft.level) {
            Ok(l) if l <= MAX_LEVEL => Some(l),
            _ => {
                problems.push(DraftProblem::Level { got: draft.level });
                None
            }
        };
        let mut stats = [StatPoints::filled(0); 4];
        let sum = draft.stats.written_sum();
        for stat in Stat::ALL {
            let written = draft.stats.of(stat);
            if written.len() > TIERS {
                problems.push(DraftProblem::TooManyTiers {
                    stat,
                    count: written.len(),
                });
            }
            let first = written.first().copied().unwrap_or(0);
            if first < i64::from(STARTING_TIER_1) {
                problems.push(DraftProblem::StartingPoints { stat, got: first });
            }
            let mut tiers = [0u32; TIERS];
            for (i, &sp) in written.iter().enumerate().take(TIERS) {
                let tier = i as u32 + 1;
                if !(0..=i64::from(SP_PER_TIER)).contains(&sp) {
                    problems.push(DraftProblem::TierPoints {
                        stat,
                        tier,
                        got: sp,
                    });
                }
                if i > 0 && sp > 0 {
                    let previous = written.get(i - 1).copied().unwrap_or(0);
                    if previous != i64::from(SP_PER_TIER) {
                        problems.push(DraftProblem::TierLocked {
                            stat,
                            tier,
                            previous,
                        });
                    }
                }
                if let Some(t) = tiers.get_mut(i) {
                    *t = sp.clamp(0, i64::from(SP_PER_TIER)) as u32;
                }
            }
            if let Some(s) = stats.get_mut(stat.index()) {
                *s = StatPoints { tiers };
            }
        }
        let unspent = match u32::try_from(draft.unspent_sp) {
            Ok(u) => u,
            Err(_) => {
                problems.push(DraftProblem::UnspentSp {
                    got: draft.unspent_sp,
                });
                0
            }
        };
        let mut max = None;
        if let Some(level) = level {
            let expected = STARTING_SP + SP_PER_LEVEL * level;
            let got = sum.saturating_add(draft.unspent_sp.clamp(-1_000_000, 1_000_000));
            if got != i64::from(expected) {
                problems.push(DraftProblem::Budget {
                    level,
                    expected,
                    got,
                    unspent: draft.unspent_sp,
                });
            }
            max = Some(base_max_health(level));
        }
        if let Some(written) = draft.total_sp
            && written != sum
        {
            problems.push(DraftProblem::TotalSp {
                written,
                actual: sum,
            });
        }
        let mut health = None;
        if let Some(h) = draft.health {
            match (max, u32::try_from(h)) {
                (Some(m), Ok(v)) if v <= m => health = Some(v),
                (Some(m), _) => problems.push(DraftProblem::Health { got: h, max: m }),
                (None, _) => {}
            }
        }
        let mut damage = None;
        if let Some(d) = draft.damage {
            match u32::try_from(d) {
                Ok(v) if d <= MAX_TALLY && draft.health.is_none() => damage = Some(v),
                _ => problems.push(DraftProblem::Damage { got: d }),
            }
        }
        let wounds = match u32::try_from(draft.wounds) {
            Ok(w) if draft.wounds <= MAX_TALLY => w,
            _ => {
                problems.push(DraftProblem::Wounds { got: draft.wounds });
                0
            }
        };
        if draft.items.len() > MAX_ITEMS
            || draft.items.iter().any(|i| {
                i.trim().is_empty() || i.len() > MAX_NAME || i.chars().any(char::is_control)
            })
        {
            problems.push(DraftProblem::Items);
        }
        match (problems.is_empty(), level) {
            (true, Some(level)) => Ok(Character {
                name: draft.name.trim().to_string(),
                level,
                stats,
                health,
                items: draft.items.iter().map(|i| i.trim().to_string()).collect(),
                notes: draft.notes,
                damage,
                unspent_sp: unspent,
                wounds,
                dead: draft.dead,
            }),
            _ => Err(DraftError {
                problems,
                draft: Box::new(draft),
            }),
        }
    }

    /// Read a character file (TOML) and validate it.
    ///
    /// # Errors
    /// [`CharacterFileError::Toml`] for text that is not a character file (the
    /// message names the field), [`CharacterFileError::Rules`] for broken rules.
    pub fn from_toml(text: &str) -> Result<Character, CharacterFileError> {
        let draft: CharacterDraft =
            toml::from_str(text).map_err(|e| CharacterFileError::Toml(e.to_string()))?;
        Character::from_draft(draft).map_err(CharacterFileError::Rules)
    }

    /// The draft this character would be written as (for `character show` and files).
    pub fn to_draft(&self) -> CharacterDraft {
        let tiers = |s: Stat| -> Vec<i64> {
            self.stat(s)
                .tiers()
                .into_iter()
                .filter(|&sp| sp > 0)
                .map(i64::from)
                .collect()
        };
        CharacterDraft {
            name: self.name.clone(),
            level: i64::from(self.level),
            stats: StatsDraft {
                strength: tiers(Stat::Strength),
                skill: tiers(Stat::Skill),
                support: tiers(Stat::Support),
                scharisma: tiers(Stat::Scharisma),
            },
            total_sp: Some(i64::from(self.total_sp())),
            health: self.health.map(i64::from),
            items: self.items.clone(),
            notes: self.notes.clone(),
            damage: self.damage.map(i64::from),
            unspent_sp: i64::from(self.unspent_sp),
            wounds: i64::from(self.wounds),
            dead: self.dead,
        }
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The level, 0..=[`MAX_LEVEL`].
    pub fn level(&self) -> u32 {
        self.level
    }

    /// The SP of one Stat.
    pub fn stat(&self, stat: Stat) -> StatPoints {
        self.stats
            .get(stat.index())
            .copied()
            .unwrap_or(StatPoints::filled(0))
    }

    /// The Roleplay Bonus of one Stat, 1..=6 (R-TI-1).
    ///
    /// Tiers, "Roleplay Bonus" (002_631931fd73349179.txt); R-TI-1.
    pub fn roleplay_bonus(&self, stat: Stat) -> u32 {
        self.stat(stat).roleplay_bonus()
    }

    /// Total SP over the four Stats: 12 + 4 x level. The sheet tracks it for the GM.
    ///
    /// Tiers, "Leveling Up" (002_631931fd73349179.txt).
    pub fn total_sp(&self) -> u32 {
        Stat::ALL.iter().map(|&s| self.stat(s).total()).sum()
    }

    /// Max Health before Stat perks: 10 x (level + 1) (R-TI-2).
    ///
    /// Tiers, "Health" (002_631931fd73349179.txt); R-TI-2.
    pub fn base_max_health(&self) -> u32 {
        base_max_health(self.level)
    }

    /// Current Health as written in the file (None: at its maximum).
    pub fn health(&self) -> Option<u32> {
        self.health
    }

    /// Max Action Points: 6 for every player.
    ///
    /// Tiers, "Action Points (AP)" (002_631931fd73349179.txt).
    pub fn max_ap(&self) -> u32 {
        MAX_AP
    }

    /// The Items carried.
    pub fn items(&self) -> &[String] {
        &self.items
    }

    /// Free notes.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Health lost below the maximum a table gives, as written (None: see
    /// [`Character::health`]); 0..=[`MAX_TALLY`].
    ///
    /// Tiers, "Health" (002_631931fd73349179.txt); R-TI-2.
    pub fn damage(&self) -> Option<u32> {
        self.damage
    }

    /// Health at a table whose max Health is `max` (the base max plus the
    /// table's perks): `health` as written (at most `max`), else `max` less
    /// `damage` (0 at the least), else `max`.
    ///
    /// Tiers, "Health" (002_631931fd73349179.txt); R-TI-2.
    pub fn health_at(&self, max: u32) -> u32 {
        match (self.health, self.damage) {
            (Some(h), _) => h.min(max),
            (None, Some(d)) => max.saturating_sub(d),
            (None, None) => max,
        }
    }

    /// SP a level up gave that are not placed yet.
    ///
    /// Tiers, "Leveling Up" (002_631931fd73349179.txt).
    pub fn unspent_sp(&self) -> u32 {
        self.unspent_sp
    }

    /// Permanent Wounds suffered.
    ///
    /// Tiers, "Custom Rules": "Permanent Wounds" (002_631931fd73349179.txt).
    pub fn wounds(&self) -> u32 {
        self.wounds
    }

    /// True when the character is dead (they take no further part).
    ///
    /// Tiers, "Health", "Custom Rules": "Death Rolls" (002_631931fd73349179.txt).
    pub fn dead(&self) -> bool {
        self.dead
    }
}

/// Max Health before perks of a character of `level`: 10 x (level + 1).
///
/// Tiers, "Starting Stats", "Leveling Up", "Health" (002_631931fd73349179.txt); R-TI-2.
pub fn base_max_health(level: u32) -> u32 {
    HEALTH_PER_LEVEL.saturating_mul(level.saturating_add(1))
}

/// The SP budget of a character of `level`: 12 + 4 x level.
///
/// Tiers, "Starting Stats", "Leveling Up" (002_631931fd73349179.txt).
pub fn sp_budget(level: u32) -> u32 {
    STARTING_SP.saturating_add(SP_PER_LEVEL.saturating_mul(level))
}

/// A character file could not be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CharacterFileError {
    /// Not TOML, or a field of the wrong type or unknown name.
    #[error("not a character file: {0}")]
    Toml(String),
    /// The rules of Character Creation are broken.
    #[error("{0}")]
    Rules(DraftError),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(level: i64, stats: StatsDraft) -> CharacterDraft {
        CharacterDraft {
            name: "Test".into(),
            level,
            stats,
            ..CharacterDraft::default()
        }
    }

    #[test]
    fn level_zero_has_twelve_sp_and_ten_health() {
        let c = Character::from_draft(draft(0, StatsDraft::from_totals(3, 3, 3, 3))).unwrap();
        assert_eq!(c.total_sp(), 12);
        assert_eq!(c.base_max_health(), 10);
        for s in Stat::ALL {
            assert_eq!(c.roleplay_bonus(s), 1);
        }
    }

    /// "Leveling Up": at level 1, +1 to each Stat, or +4 Strength (tier 2 opens).
    #[test]
    fn level_one_sp_choices() {
        let even = Character::from_draft(draft(1, StatsDraft::from_totals(4, 4, 4, 4))).unwrap();
        assert_eq!(even.total_sp(), 16);
        assert_eq!(even.roleplay_bonus(Stat::Strength), 1);
        let strong = Character::from_draft(draft(1, StatsDraft::from_totals(7, 3, 3, 3))).unwrap();
        assert_eq!(strong.stat(Stat::Strength).tiers(), [6, 1, 0, 0, 0, 0]);
        assert!(strong.stat(Stat::Strength).has_tier(2));
        assert_eq!(strong.roleplay_bonus(Stat::Strength), 2);
        assert_eq!(strong.base_max_health(), 20);
    }

    #[test]
    fn every_broken_rule_is_listed() {
        let d = CharacterDraft {
            name: " ".into(),
            level: 1,
            stats: StatsDraft {
                strength: vec![5, 2],
                skill: vec![2],
                support: vec![3, 0, 0, 0, 0, 0, 1],
                scharisma: vec![9],
            },
            total_sp: Some(99),
            health: Some(50),
            items: vec![String::new()],
            notes: vec![],
            ..CharacterDraft::default()
        };
        let e = Character::from_draft(d.clone()).unwrap_err();
        assert_eq!(*e.draft, d);
        let p = &e.problems;
        assert!(p.contains(&DraftProblem::Name));
        assert!(p.contains(&DraftProblem::TierLocked {
            stat: Stat::Strength,
            tier: 2,
            previous: 5
        }));
        assert!(p.contains(&DraftProblem::StartingPoints {
            stat: Stat::Skill,
            got: 2
        }));
        assert!(p.contains(&DraftProblem::TooManyTiers {
            stat: Stat::Support,
            count: 7
        }));
        assert!(p.contains(&DraftProblem::TierPoints {
            stat: Stat::Scharisma,
            tier: 1,
            got: 9
        }));
        assert!(p.iter().any(|x| matches!(x, DraftProblem::Budget { .. })));
        assert!(p.iter().any(|x| matches!(x, DraftProblem::TotalSp { .. })));
        assert!(p.contains(&DraftProblem::Health { got: 50, max: 20 }));
        assert!(p.contains(&DraftProblem::Items));
        assert!(e.to_string().contains("R-TI-3"));
    }

    #[test]
    fn roleplay_bonus_is_highest_tier_with_a_point() {
        assert_eq!(StatPoints::filled(3).roleplay_bonus(), 1);
        assert_eq!(StatPoints::filled(6).roleplay_bonus(), 1);
        assert_eq!(StatPoints::filled(7).roleplay_bonus(), 2);
        assert_eq!(StatPoints::filled(31).roleplay_bonus(), 6);
        assert_eq!(StatPoints::filled(36).roleplay_bonus(), 6);
        assert_eq!(StatPoints::filled(99).total(), 36);
    }

    #[test]
    fn toml_round_trip_and_unknown_fields() {
        let text = "name = \"John\"\nlevel = 1\nitems = [\"Longsword\"]\n[stats]\nstrength = [6, 1]\nskill = [3]\nsupport = [3]\nscharisma = [3]\n";
        let c = Character::from_toml(text).unwrap();
        assert_eq!(c.roleplay_bonus(Stat::Strength), 2);
        let again = toml::to_string(&c.to_draft()).unwrap();
        assert_eq!(Character::from_toml(&again).unwrap(), c);
        assert!(matches!(
            Character::from_toml("name = \"x\"\nlevle = 1\n"),
            Err(CharacterFileError::Toml(m)) if m.contains("levle")
        ));
    }
}
