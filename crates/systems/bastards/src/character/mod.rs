//! Characters: Suit, Traits, pools, skills and Specialties, Advantages,
//! Disadvantages, XP and Wildcards.
//!
//! A Game of Bastards, "Character Building Rules" ("Suits", "Points & Costs"),
//! "Skills", "Specialties", "Advantages" (003_2dfeea144768d328.txt); R-GB-5, R-GB-8,
//! R-GB-10. A [`CharacterDraft`] (read from TOML) becomes a [`Character`] only
//! through [`Character::from_draft`], whose error lists every broken rule.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use tabula_core::cards::Suit;
use tabula_core::names::{NameError, check_name, check_seat_name, same_name};

use crate::advantages::{self, Advantage};
use tabula_core::rule::Rule;

mod problem;
mod rules;

pub use problem::*;

/// One of the four Traits, each tied to a suit.
///
/// A Game of Bastards, "Suits" (003_2dfeea144768d328.txt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Trait {
    /// Body (Clubs / Swords); its pool is BP.
    Body,
    /// Spirit (Hearts / Cups); its pool is SP.
    Spirit,
    /// Mind (Spades / Staves); its pool is MP.
    Mind,
    /// Luck (Diamonds / Coins); its pool is LP.
    Luck,
}

impl Trait {
    /// The four Traits.
    pub const ALL: [Trait; 4] = [Trait::Body, Trait::Spirit, Trait::Mind, Trait::Luck];

    /// The Trait of a suit.
    pub fn of_suit(suit: Suit) -> Trait {
        match suit {
            Suit::Clubs => Trait::Body,
            Suit::Hearts => Trait::Spirit,
            Suit::Spades => Trait::Mind,
            Suit::Diamonds => Trait::Luck,
        }
    }

    /// The pool's short name: BP, SP, MP, LP (R-GB-5).
    pub fn pool_name(self) -> &'static str {
        match self {
            Trait::Body => "BP",
            Trait::Spirit => "SP",
            Trait::Mind => "MP",
            Trait::Luck => "LP",
        }
    }

    /// Read a Trait from its name, its pool (BP...) or its suit (or tarot alias).
    pub fn parse(text: &str) -> Option<Trait> {
        let t = text.trim().to_ascii_lowercase();
        Some(match t.as_str() {
            "body" | "bp" => Trait::Body,
            "spirit" | "sp" => Trait::Spirit,
            "mind" | "mp" => Trait::Mind,
            "luck" | "lp" => Trait::Luck,
            other => return Suit::parse(other).map(Trait::of_suit),
        })
    }

    fn index(self) -> usize {
        match self {
            Trait::Body => 0,
            Trait::Spirit => 1,
            Trait::Mind => 2,
            Trait::Luck => 3,
        }
    }
}

impl fmt::Display for Trait {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Trait::Body => "Body",
            Trait::Spirit => "Spirit",
            Trait::Mind => "Mind",
            Trait::Luck => "Luck",
        })
    }
}

/// The book's skills, each starting at rank 1. `<Weapon> Combat` and `Craft
/// <Type>` are written with their type (`Sword Combat`, `Unarmed Combat`, `Craft
/// Metal`); a character starts with `Unarmed Combat` and `Grapple Combat`.
///
/// A Game of Bastards, "Skills" (003_2dfeea144768d328.txt).
pub const SKILLS: [&str; 13] = [
    "Athletics",
    "Dexterity",
    "Unarmed Combat",
    "Grapple Combat",
    "Stealth",
    "Technology",
    "Academics",
    "Influence",
    "Business",
    "Perception",
    "Meditation",
    "First Aid",
    "Guts",
];

/// The book's listed sub-skills: (sub-skill, the skill it is listed under, the
/// skill it crosses with). They are Specialties ("a synergistic bonus between two
/// skills"), and any character may take one as a Specialty.
pub const SUB_SKILLS: [(&str, &str, &str); 58] = [
    ("Yoga", "Athletics", "Meditation"),
    ("Specialized Strike", "Athletics", "Unarmed Combat"),
    ("Sword technique", "Athletics", "Weapon Combat"),
    ("Wrestling", "Athletics", "Grapple Combat"),
    ("Sailing", "Athletics", "Technology"),
    ("Acrobatics", "Dexterity", "Craft Perform"),
    ("Stunt", "Dexterity", "Weapon Combat"),
    ("Clown", "Dexterity", "Technology"),
    ("Martial Art", "Weapon Combat", "Meditation"),
    ("Sword Tech", "Weapon Combat", "Athletics"),
    ("Wrestling", "Weapon Combat", "Athletics"),
    ("Sneak Attack", "Weapon Combat", "Stealth"),
    ("Mercenary", "Weapon Combat", "Business"),
    ("Prestidigitation", "Stealth", "Perform"),
    ("Lockpicking", "Stealth", "Technology"),
    ("Pickpocket", "Stealth", "Influence"),
    ("Cheat", "Stealth", "Gambling"),
    ("Sneak Attack", "Stealth", "Knife Combat"),
    ("Fence", "Stealth", "Business"),
    ("Vehicle", "Technology", "Perception"),
    ("Computer", "Technology", "Academics"),
    ("Machinery", "Technology", "Craft Metal"),
    ("Jury-Rig", "Technology", "Perform"),
    ("Invent", "Technology", "Craft"),
    ("Marketing", "Technology", "Business"),
    ("Disarm", "Technology", "Stealth"),
    ("Biology", "Academics", "Athletics"),
    ("Chemistry", "Academics", "Craft Potion"),
    ("Astronomy", "Academics", "Perception"),
    ("Astrology", "Academics", "Influence"),
    ("History", "Academics", "Technology"),
    ("Art", "Academics", "Craft Painting"),
    ("Teaching", "Academics", "Perform"),
    ("Bureaucracy", "Academics", "Business"),
    ("Law", "Academics", "Influence"),
    ("Incite", "Influence", "Perform"),
    ("Cold Read", "Influence", "Perception"),
    ("Lie", "Influence", "Stealth"),
    ("Intimidate", "Influence", "Weapon Combat"),
    ("Haggle", "Influence", "Business"),
    ("Sword Sage", "Craft Blacksmithing", "Sword Combat"),
    ("Trapping", "Craft Trap", "Stealth"),
    ("Machinery", "Craft Metalworking", "Technology"),
    ("Boatswain", "Craft Carpentry", "Technology"),
    ("Agent", "Business", "Perform"),
    ("Invest", "Business", "Perception"),
    ("Finance", "Business", "Academics"),
    ("Advertising", "Business", "Influence"),
    ("Faith", "Meditation", "Academics"),
    ("Religion", "Meditation", "Business"),
    ("Preach", "Meditation", "Influence"),
    ("Feng Shui", "Meditation", "Craft Decoration"),
    ("Ritual", "Meditation", "Perform"),
    ("Diagnose", "First Aid", "Perception"),
    ("Surgery", "First Aid", "Technology"),
    ("Medicate", "First Aid", "Academics"),
    ("Poison", "First Aid", "Stealth"),
    ("Quack", "First Aid", "Influence"),
];

/// XP every character starts with ("Points & Costs").
pub const STARTING_XP: i64 = 10;
/// Free Advantages at creation (R-GB-8).
pub const FREE_ADVANTAGES: usize = 2;
/// The highest Trait a sheet may hold (a cap on input).
pub const MAX_TRAIT: i64 = 10;
/// The highest skill rank a sheet may hold (a cap on input).
pub const MAX_RANK: i64 = 10;
/// The most skills, Specialties, Advantages, Disadvantages or weapons a sheet may
/// list (a cap on input).
pub const MAX_LIST: usize = 64;
/// The most Wildcards a sheet may hold (a cap on input).
pub const MAX_WILDCARDS: u32 = 20;
/// The most XP earned in play a sheet may record (a cap on input).
pub const MAX_EARNED_XP: i64 = 1000;

/// Whether `name` is a skill of the book: one of [`SKILLS`], `<Type> Combat`, or
/// `Craft <Type>` / `Craft(<Type>)`, or one of the sheet's `custom_skills`.
pub fn is_skill(name: &str, custom: &[String]) -> bool {
    let n = name.trim();
    if n.is_empty() {
        return false;
    }
    SKILLS.iter().any(|s| s.eq_ignore_ascii_case(n))
        || custom.iter().any(|s| s.trim().eq_ignore_ascii_case(n))
        || (n.len() > 7 && n.to_ascii_lowercase().ends_with(" combat"))
        || (n.len() > 6 && n.to_ascii_lowercase().starts_with("craft"))
}

/// A weapon or armour (R-GB-10: table data; only "unarmed, +0" is built in).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Its name, e.g. `Sword`.
    pub name: String,
    /// The damage bonus added to damage on a successful attack, 0..=20.
    #[serde(default)]
    pub damage: i64,
    /// The skill it is used with, e.g. `Sword Combat`.
    #[serde(default = "unarmed_skill")]
    pub skill: String,
    /// A melee weapon (Counter, Savage, Wild Swing, Disarm need one).
    #[serde(default = "yes")]
    pub melee: bool,
    /// Held ready (a sheathed sword): drawing it costs no action ("Random Rules").
    #[serde(default = "yes")]
    pub ready: bool,
}

fn unarmed_skill() -> String {
    "Unarmed Combat".into()
}

fn yes() -> bool {
    true
}

/// Armour: reduces physical damage (R-GB-10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armour {
    /// Its name.
    pub name: String,
    /// Damage to BP it removes, 0..=20.
    pub reduction: i64,
}

/// A Specialty on a sheet: a name and the two skills it joins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialtyDraft {
    /// Its name, e.g. `Acting`.
    pub name: String,
    /// The two skills, both at rank 2 or more.
    pub skills: Vec<String>,
}

/// A character sheet as read from TOML: not necessarily legal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterDraft {
    /// The character's name.
    pub name: String,
    /// The player's name (the seat), empty for the Dealer's characters.
    #[serde(default)]
    pub player: String,
    /// The Suit: Clubs, Hearts, Spades, Diamonds, or the tarot Swords, Cups,
    /// Staves, Coins.
    pub suit: String,
    /// Body, 1..=10 (2 at least for Clubs).
    pub body: i64,
    /// Spirit, 1..=10 (2 at least for Hearts).
    pub spirit: i64,
    /// Mind, 1..=10 (2 at least for Spades).
    pub mind: i64,
    /// Luck, 1..=10 (2 at least for Diamonds).
    pub luck: i64,
    /// Skills the Dealer allows beyond the book's list (e.g. Carlton's Repair).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub custom_skills: Vec<String>,
    /// Advantages by name (`Toughness` may repeat up to 5 times, as may `Resolve`).
    #[serde(default)]
    pub advantages: Vec<String>,
    /// Disadvantages (table data: a description each), +1 XP each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disadvantages: Vec<String>,
    /// XP earned in play beyond the starting 10 and the Disadvantages.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub earned_xp: i64,
    /// Wildcards held (they last from one encounter to the next: "Distance").
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub wildcards: u32,
    /// The pools as the last encounter left them (each `0..=Trait x 5`, R-GB-5);
    /// a pool not written is full. Read by `setup::setup`; written by
    /// `CharacterBook::sheets_after`.
    #[serde(default, skip_serializing_if = "Pools::is_full")]
    pub pools: Pools,
    /// Armour worn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armour: Option<Armour>,
    /// Skills raised above rank 1 (or named types of Combat and Craft), with ranks
    /// 1..=10; unlisted skills of the book are rank 1.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub skills: BTreeMap<String, i64>,
    /// Specialties.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub specialties: Vec<SpecialtyDraft>,
    /// Weapons carried.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<Weapon>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

/// The pools a sheet carries from one encounter to the next: BP, SP, MP, LP
/// now; `None` is a full pool (Trait x 5). A Game of Bastards, "Combat" ("Trait
/// Pool = Trait x 5"); R-GB-5. The book gives no rule for recovering pools
/// between encounters: they stay as the encounter left them until the Dealer's
/// `recover` (see `docs/systems/bastards.md`, "Decisions").
///
/// In TOML: `pools = { BP = 7, MP = 0 }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pools {
    /// BP now (Body x 5 when full).
    #[serde(rename = "BP", default, skip_serializing_if = "Option::is_none")]
    pub bp: Option<i64>,
    /// SP now (Spirit x 5 when full).
    #[serde(rename = "SP", default, skip_serializing_if = "Option::is_none")]
    pub sp: Option<i64>,
    /// MP now (Mind x 5 when full).
    #[serde(rename = "MP", default, skip_serializing_if = "Option::is_none")]
    pub mp: Option<i64>,
    /// LP now (Luck x 5 when full).
    #[serde(rename = "LP", default, skip_serializing_if = "Option::is_none")]
    pub lp: Option<i64>,
}

impl Pools {
    /// True when no pool is written (every pool full).
    pub fn is_full(&self) -> bool {
        *self == Pools::default()
    }

    /// The pool of Trait `t` as written (`None`: full).
    pub fn get(&self, t: Trait) -> Option<i64> {
        match t {
            Trait::Body => self.bp,
            Trait::Spirit => self.sp,
            Trait::Mind => self.mp,
            Trait::Luck => self.lp,
        }
    }

    /// Write the pool of Trait `t` (`None`: full).
    pub fn set(&mut self, t: Trait, value: Option<i64>) {
        match t {
            Trait::Body => self.bp = value,
            Trait::Spirit => self.sp = value,
            Trait::Mind => self.mp = value,
            Trait::Luck => self.lp = value,
        }
    }
}

/// A draft that broke rules: every problem, and the draft handed back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} broken rule(s): {}", problems.len(), problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct DraftError {
    /// Every broken rule.
    pub problems: Vec<DraftProblem>,
    /// The draft as given.
    pub draft: Box<CharacterDraft>,
}

/// A legal character (a Fated). Fields are private: reached only through
/// [`Character::from_draft`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    name: String,
    player: String,
    suit: Suit,
    traits: [i64; 4],
    skills: BTreeMap<String, i64>,
    specialties: Vec<(String, String, String)>,
    advantages: Vec<Advantage>,
    disadvantages: Vec<String>,
    xp_available: i64,
    xp_spent: i64,
    wildcards: u32,
    weapons: Vec<Weapon>,
    armour: Option<Armour>,
    /// The sheet's custom skills that are not skills of the book (trimmed).
    #[serde(default)]
    custom_skills: Vec<String>,
    /// The pools the sheet carries (`None`: full).
    #[serde(default)]
    pools: [Option<i64>; 4],
}

impl CharacterDraft {
    /// The XP the sheet spends, counted as [`Character::from_draft`] counts it:
    /// each Trait point above its start (1, the Suit's 2), each skill rank above
    /// 1, each Specialty, each Advantage beyond the two free ones ("Points &
    /// Costs"; R-GB-8). Values out of range (reported by `from_draft`) count
    /// nothing.
    pub fn xp_spent(&self) -> i64 {
        let suit_trait = Suit::parse(&self.suit).map(Trait::of_suit);
        let traits = [self.body, self.spirit, self.mind, self.luck];
        let mut spent = 0i64;
        for t in Trait::ALL {
            let min = if Some(t) == suit_trait { 2 } else { 1 };
            let got = traits[t.index()];
            if (min..=MAX_TRAIT).contains(&got) {
                spent += got - min;
            }
        }
        let mut listed: Vec<&str> = Vec::new();
        for (name, rank) in &self.skills {
            if listed.iter().any(|l| same_name(l, name)) {
                continue;
            }
            listed.push(name);
            if is_skill(name, &self.custom_skills) && (1..=MAX_RANK).contains(rank) {
                spent += rank - 1;
            }
        }
        spent += self.specialties.len() as i64;
        let mut advantages: Vec<Advantage> = Vec::new();
        for text in &self.advantages {
            if let Some(a) = Advantage::parse(text) {
                let count = advantages
                    .iter()
                    .filter(|x| same_name(&x.to_string(), &a.to_string()))
                    .count();
                let stacks = matches!(a, Advantage::Toughness | Advantage::Resolve);
                if (count == 0 || stacks) && count < advantages::MAX_STACK {
                    advantages.push(a);
                }
            }
        }
        spent + advantages.len().saturating_sub(FREE_ADVANTAGES) as i64
    }

    /// The XP the sheet has: 10, +1 per Disadvantage, + XP earned ("Points &
    /// Costs").
    pub fn xp_available(&self) -> i64 {
        STARTING_XP + self.disadvantages.len() as i64 + self.earned_xp.clamp(0, MAX_EARNED_XP)
    }
}

/// A sheet file could not become a character.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// The TOML is unreadable or has an unknown or mistyped field (named).
    #[error("{0}")]
    Toml(String),
    /// The sheet broke rules (all listed).
    #[error(transparent)]
    Rules(DraftError),
}

#[cfg(test)]
mod tests;
