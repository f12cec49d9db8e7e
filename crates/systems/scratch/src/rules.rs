//! Rule citations (one constant per rule the code applies) and the table's
//! options (house rules a table may switch, each defaulting to the ruling).

use serde::{Deserialize, Serialize};
use tabula_core::Rule;

use crate::{ID, SEED};

const fn book(section: &'static str) -> Rule {
    Rule::book(ID, SEED, section)
}

/// Scratch RPS, "Rolls" (001_337b5a42e331e513.txt): d20 + ability level against a
/// difficulty; a natural 20 always succeeds; some rolls require an ability.
pub const ROLLS: Rule = book("Rolls");
/// "Rolls" refers to "Twenty-Sided Die Alternatives", which the text lacks; R-SCR-6.
pub const D20_ALTERNATIVES: Rule = book("Twenty-Sided Die Alternatives").ruling("R-SCR-6");
/// Scratch RPS, "Turns": initiative groups, regular, bonus and unrepeatable actions.
pub const TURNS: Rule = book("Turns");
/// Scratch RPS, "Hit Points": healthy, injured, incapacitated; damage; automatic
/// successes deal one more.
pub const HIT_POINTS: Rule = book("Hit Points");
/// Scratch RPS, "Defenses": agility, intelligence, strength, carrying.
pub const DEFENSES: Rule = book("Defenses");
/// Strength without wrestling or swimming is 8 + toughness; R-SCR-1.
pub const STRENGTH: Rule = book("Defenses").ruling("R-SCR-1");
/// Derived defenses follow the text (The Boss's intelligence); R-SCR-2.
pub const PRINTED_DEFENSES: Rule = book("Defenses").ruling("R-SCR-2");
/// Scratch RPS, "Basic Actions".
pub const BASIC_ACTIONS: Rule = book("Basic Actions");
/// Scratch RPS, "Abilities": character points and the maximum level.
pub const ABILITIES: Rule = book("Abilities");
/// Scratch RPS, "Toughness": maximum hit points; none means no actions.
pub const TOUGHNESS: Rule = book("Toughness");
/// Scratch RPS, "Attack Abilities": shooting, blasting, knockout, fighting, wrestling.
pub const ATTACK_ABILITIES: Rule = book("Attack Abilities");
/// Shooting on an automatic success deals 5; R-SCR-3.
pub const SHOOTING_AUTOMATIC: Rule = book("Attack Abilities").ruling("R-SCR-3");
/// Wrestling: one hold per action, damage when healthy and undelayed; R-SCR-4.
pub const WRESTLING: Rule = book("Attack Abilities").ruling("R-SCR-4");
/// Scratch RPS, "Stalking Abilities": stealth, detection, surprise.
pub const STALKING_ABILITIES: Rule = book("Stalking Abilities");
/// Scratch RPS, "Movement Abilities": acrobatics, quickness, flying, swimming.
pub const MOVEMENT_ABILITIES: Rule = book("Movement Abilities");
/// Scratch RPS, "Support Abilities": healing, craftsmanship, command, intimidate.
pub const SUPPORT_ABILITIES: Rule = book("Support Abilities");
/// Where several abilities could apply the player names one, the default is the
/// highest legal one; R-SCR-5.
pub const NAMED_ABILITY: Rule = book("Abilities").ruling("R-SCR-5");
/// Tabula's own caps on numbers given by users.
pub const CAPS: Rule = Rule::table("Caps");
/// Tabula's table file and seats.
pub const TABLE: Rule = Rule::table("Table");

/// The most levels one ability may have in any file (a cap, not a book rule).
pub const MAX_LEVEL_CAP: u32 = 100;
/// The most character points a budget may hold (a cap).
pub const MAX_CP_CAP: u32 = 1_000;
/// The most characters one table may seat, minions included (a cap).
pub const MAX_CHARACTERS: usize = 64;
/// The most initiative re-rolls to break ties before the table refuses (a cap).
pub const MAX_TIE_ROLLS: u32 = 100;

/// How a table rolls its "twenty-sided die"; R-SCR-6.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum D20Method {
    /// One d20; a natural 20 is an automatic success ("Rolls").
    #[default]
    D20,
    /// Two d6 read on the 6 x 6 lookup table (row, column; symmetric), giving 1 to
    /// 20; a 20 read on the table is an automatic success. R-SCR-6.
    D6Table,
    /// One d6 times 4, a six counting as zero (0, 4, ..., 20); on a 20 a second d6
    /// is rolled and only a 5 or 6 makes it an automatic success. R-SCR-6.
    D6Times4,
}

impl D20Method {
    /// Read `d20`, `d6-table` or `d6x4` (also `d6-times-4`).
    pub fn parse(text: &str) -> Option<D20Method> {
        match text.trim().to_ascii_lowercase().as_str() {
            "d20" => Some(D20Method::D20),
            "d6-table" | "table" => Some(D20Method::D6Table),
            "d6x4" | "d6-times-4" | "d6*4" => Some(D20Method::D6Times4),
            _ => None,
        }
    }
}

/// The table's options. Every field defaults to the book as ruled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TableRules {
    /// Character points a new character distributes ("Abilities"; 10 in the
    /// book's examples). 1..=[`MAX_CP_CAP`].
    pub cp: u32,
    /// The most levels any one ability may receive ("Abilities"; 4 in the book's
    /// examples). 1..=[`MAX_LEVEL_CAP`].
    pub max_level: u32,
    /// Strength without wrestling or swimming is this plus toughness: 8 by
    /// R-SCR-1, 7 by the text (a table option).
    pub strength_base: u32,
    /// The die the table rolls for "a twenty-sided die"; R-SCR-6.
    pub d20: D20Method,
}

impl Default for TableRules {
    fn default() -> Self {
        TableRules {
            cp: 10,
            max_level: 4,
            strength_base: 8,
            d20: D20Method::D20,
        }
    }
}
