//! Rule citations (one constant per rule the code applies) and the table's
//! options (house rules a table may switch, each defaulting to the ruling).

use serde::{Deserialize, Serialize};
use tabula_core::Rule;

const fn book(section: &'static str) -> Rule {
    Rule::book(crate::BOOK, section)
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
/// A table's `[rules]` bind every character in it; a sheet cannot carry its own
/// CP or maximum level; R-SCR-7.
pub const TABLE_LIMITS: Rule = book("Abilities").ruling("R-SCR-7");
/// A campaign carries its setting's rules (the `[rules]` a table takes: CP,
/// maximum level, d20 method, strength base); its characters are checked
/// against them, and every table opened from it uses them; R-SCR-9.
pub const SETTING: Rule = book("Abilities").ruling("R-SCR-9");
/// The character the introduction shows ("A Scratch RPS character looks
/// something like this"): a name, the defenses, a line of description, then
/// `LEVEL ability: what it represents`.
pub const CHARACTER: Rule = book("introduction");
/// Advancement: the book has none. Proposed ruling R-SCR-8: the GM awards CP,
/// which travel with the character (`awarded_cp`) on top of the table's CP;
/// the player spends each, as at creation, on one level of one ability within
/// the maximum level, between encounters ("Abilities").
pub const ADVANCEMENT: Rule = book("Abilities").ruling("R-SCR-8");
/// Blasting targets "up to three separate enemies": a character of the
/// blaster's own side is no target; R-SCR-10.
pub const BLASTING_ENEMIES: Rule = book("Attack Abilities").ruling("R-SCR-10");
/// Engage is "a bonus action which an attacker can use before a close range
/// attack": after engage, the turn's action is a close range attack, and
/// nothing else is accepted until it is made; R-SCR-10.
pub const ENGAGE: Rule = book("Basic Actions").ruling("R-SCR-10");
/// Tabula's checks of names and ids (no control characters; ids of letters,
/// digits and `-`).
pub const NAMES: Rule = Rule::table("Names");
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
///
/// Written in a table file as `d20 = "..."` and on the command line as
/// `--d20 ...`: every spelling of [`D20Method::SPELLINGS`] is read, in any case,
/// with spaces, `-` and `_` ignored (`d6x4`, `d6 x 4`, `D6-X4`, `lookup`...).
/// It is written back as its [`D20Method::name`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
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

/// A `d20` method that is none of [`D20Method::SPELLINGS`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "d20: {got:?} is not a way to roll the twenty-sided die; use {} (R-SCR-6)",
    D20Method::SPELLINGS
)]
pub struct UnknownD20Method {
    /// What was written.
    pub got: String,
}

impl D20Method {
    /// Every method.
    pub const ALL: [D20Method; 3] = [D20Method::D20, D20Method::D6Table, D20Method::D6Times4];

    /// Every spelling read, for help texts and errors (any case; spaces, `-`
    /// and `_` are ignored; `*` and `×` read as `x`).
    pub const SPELLINGS: &'static str = "d20; d6-table (also `table`, `lookup`, `lookup-table`, `d6-lookup`, `6x6`); d6x4 (also `d6 x 4`, `d6-x4`, `d6*4`, `d6-times-4`, `times4`)";

    /// The name written in files and output: `d20`, `d6-table`, `d6x4`.
    pub fn name(self) -> &'static str {
        match self {
            D20Method::D20 => "d20",
            D20Method::D6Table => "d6-table",
            D20Method::D6Times4 => "d6x4",
        }
    }

    /// Read any of [`D20Method::SPELLINGS`], case-blind; `None` for anything else.
    ///
    /// R-SCR-6 (the d6 alternatives are a table option).
    pub fn parse(text: &str) -> Option<D20Method> {
        let key: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '_'))
            .flat_map(char::to_lowercase)
            .map(|c| if matches!(c, '*' | '\u{d7}') { 'x' } else { c })
            .collect();
        match key.as_str() {
            "d20" | "1d20" => Some(D20Method::D20),
            "d6table" | "table" | "lookup" | "lookuptable" | "d6lookup" | "d6lookuptable"
            | "2d6table" | "6x6" | "6x6table" => Some(D20Method::D6Table),
            "d6x4" | "1d6x4" | "d6times4" | "times4" => Some(D20Method::D6Times4),
            _ => None,
        }
    }
}

impl std::fmt::Display for D20Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for D20Method {
    type Err = UnknownD20Method;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        D20Method::parse(text).ok_or_else(|| UnknownD20Method {
            got: text.to_string(),
        })
    }
}

impl From<D20Method> for String {
    fn from(m: D20Method) -> String {
        m.name().to_string()
    }
}

impl TryFrom<String> for D20Method {
    type Error = UnknownD20Method;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

/// The table's options. Every field defaults to the book as ruled. They bind
/// every character at the table: a sheet cannot carry its own (R-SCR-7).
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
/// The GM's tools (`adjust`, `remove`, `add`, `end-encounter`): the book names no rule for the
/// GM changing a tracked value mid-encounter, so the citation is the table's
/// own (issue 27, item 6).
pub const GM_TOOLS: Rule = Rule::table("GM tools (issue 27, item 6)");
