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
    /// a pool not written is full. Read by `table::setup`; written by
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

/// One broken rule of a draft.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum DraftProblem {
    /// The name is empty.
    #[error("name: a character needs a name")]
    NoName,
    /// The name or the player's seat name is unusable (control characters, too
    /// long, a `:` in a seat name).
    #[error("{0}")]
    BadName(NameError),
    /// Fewer than the two Advantages every character starts with ("Characters
    /// start the game with 2 advantages"; R-GB-8).
    #[error(
        "advantages: a character starts with {FREE_ADVANTAGES} Advantages, this one lists {got} [\"Advantages\"; R-GB-8]"
    )]
    TooFewAdvantages {
        /// How many the sheet lists.
        got: usize,
    },
    /// A Disadvantage listed twice (each is taken once and gives 1 XP once).
    #[error("disadvantages: {0:?} is listed more than once [\"Points & Costs\"]")]
    RepeatedDisadvantage(String),
    /// A Specialty listed twice (by name).
    #[error("specialties.{0}: the Specialty is listed more than once [\"Specialties\"]")]
    RepeatedSpecialty(String),
    /// A skill listed twice under `[skills]` (names match without regard to case).
    #[error("skills.{0}: the skill is listed more than once [\"Skills\"]")]
    RepeatedSkill(String),
    /// The suit is not a suit.
    #[error(
        "suit: {0:?} is not Clubs, Hearts, Spades, Diamonds (or Swords, Cups, Staves, Coins) [\"Suits\"]"
    )]
    UnknownSuit(String),
    /// A Trait is below its starting rank or above the cap.
    #[error(
        "{field}: must be {min} to {max}, not {got} [\"Suits\": each Trait starts at 1, the Suit's at 2]"
    )]
    TraitOutOfRange {
        /// body, spirit, mind or luck.
        field: String,
        /// The starting rank.
        min: i64,
        /// [`MAX_TRAIT`].
        max: i64,
        /// The value on the sheet.
        got: i64,
    },
    /// A skill that is not in the book (nor in `custom_skills`).
    #[error(
        "skills.{0}: not a skill of the book (add it to custom_skills if the Dealer allows it) [\"Skills\"]"
    )]
    UnknownSkill(String),
    /// A skill rank outside 1..=10.
    #[error("skills.{skill}: rank must be 1 to {max}, not {got} [\"Points & Costs\"]")]
    RankOutOfRange {
        /// The skill.
        skill: String,
        /// [`MAX_RANK`].
        max: i64,
        /// The rank on the sheet.
        got: i64,
    },
    /// A Specialty does not join exactly two different skills.
    #[error("specialties.{0}: a Specialty joins exactly two different skills [\"Specialties\"]")]
    SpecialtyShape(String),
    /// A Specialty joins a skill below rank 2.
    #[error(
        "specialties.{name}: {skill} is rank {rank}; both skills must be rank 2 or more [\"Specialties\"]"
    )]
    SpecialtyRankTooLow {
        /// The Specialty.
        name: String,
        /// The skill too low.
        skill: String,
        /// Its rank.
        rank: i64,
    },
    /// An Advantage that is not in the book (or Counter/Florentine without a weapon).
    #[error(
        "advantages: {0:?} is not an Advantage of the book (Counter and Florentine name a weapon: Counter<Sword>) [\"Advantages\"]"
    )]
    UnknownAdvantage(String),
    /// An Advantage taken twice (only Toughness and Resolve stack).
    #[error(
        "advantages: {0} is taken more than once; only Toughness and Resolve may be [\"Advantages\"]"
    )]
    RepeatedAdvantage(String),
    /// Toughness or Resolve taken more than five times.
    #[error("advantages: {0} may be taken at most 5 times [\"Advantages\"]")]
    TooManyStacks(String),
    /// More XP spent than the character has.
    #[error(
        "XP: spent {spent} but has {available} (10 + 1 per Disadvantage + earned) [\"Points & Costs\"; R-GB-8]"
    )]
    Overspent {
        /// XP the sheet spends.
        spent: i64,
        /// XP the sheet has.
        available: i64,
    },
    /// A list or number over the caps.
    #[error("{field}: at most {max}")]
    OverCap {
        /// The field.
        field: String,
        /// The cap.
        max: i64,
    },
    /// A weapon or armour number out of range.
    #[error("{field}: must be 0 to 20, not {got} [R-GB-10]")]
    GearOutOfRange {
        /// The field.
        field: String,
        /// The value.
        got: i64,
    },
    /// A pool written on the sheet outside `0..=Trait x 5` ("Combat": "Trait
    /// Pool = Trait x 5"; R-GB-5).
    #[error("pools.{pool}: must be 0 to {max} ({trait_name} x 5), not {got} [\"Combat\"; R-GB-5]")]
    PoolOutOfRange {
        /// BP, SP, MP or LP.
        pool: String,
        /// The Trait.
        trait_name: String,
        /// Trait x 5.
        max: i64,
        /// The value on the sheet.
        got: i64,
    },
}

/// "Suits": each Trait starts at 1, the Suit's at 2.
pub const RULE_SUITS: Rule = Rule::book(crate::BOOK, "Suits");
/// "Points & Costs": 10 XP, 1 XP a purchase, +1 XP a Disadvantage (only at
/// creation); R-GB-8: the two starting Advantages are free.
pub const RULE_POINTS: Rule = Rule::book(crate::BOOK, "Points & Costs").ruling("R-GB-8");
/// "Skills": the book's skills, each starting at rank 1.
pub const RULE_SKILLS: Rule = Rule::book(crate::BOOK, "Skills");
/// "Specialties": two skills at rank 2 or above, 1 point each.
pub const RULE_SPECIALTIES: Rule = Rule::book(crate::BOOK, "Specialties");
/// "Advantages": two at the start (R-GB-8), each once but Toughness and
/// Resolve (up to 5 times).
pub const RULE_ADVANTAGES: Rule = Rule::book(crate::BOOK, "Advantages").ruling("R-GB-8");
/// "The Charts" are headings only: weapons and armour are table data (R-GB-10).
pub const RULE_CHARTS: Rule = Rule::book(crate::BOOK, "The Charts").ruling("R-GB-10");
/// "Combat": Trait Pool = Trait x 5 (R-GB-5).
pub const RULE_POOLS: Rule = Rule::book(crate::BOOK, "Combat").ruling("R-GB-5");
/// Tabula's own rule for names on a sheet (no control characters, at most 64
/// characters, no `:` in a seat).
pub const RULE_NAMES: Rule = Rule::table("Names");
/// Tabula's caps on input (Traits and ranks at most 10, lists at most 64,
/// Wildcards at most 20, earned XP at most 1000): caps, not rules of the book.
pub const RULE_CAPS: Rule = Rule::table("Caps");

impl DraftProblem {
    /// The rule the problem breaks, as `character validate` and the builder
    /// cite it.
    pub fn rule(&self) -> Rule {
        use DraftProblem as P;
        match self {
            P::NoName | P::BadName(_) => RULE_NAMES,
            P::TooFewAdvantages { .. }
            | P::UnknownAdvantage(_)
            | P::RepeatedAdvantage(_)
            | P::TooManyStacks(_) => RULE_ADVANTAGES,
            P::RepeatedDisadvantage(_) | P::Overspent { .. } => RULE_POINTS,
            P::RepeatedSpecialty(_) | P::SpecialtyShape(_) | P::SpecialtyRankTooLow { .. } => {
                RULE_SPECIALTIES
            }
            P::RepeatedSkill(_) | P::UnknownSkill(_) => RULE_SKILLS,
            P::UnknownSuit(_) => RULE_SUITS,
            P::TraitOutOfRange { got, max, .. } | P::RankOutOfRange { got, max, .. }
                if got > max =>
            {
                RULE_CAPS
            }
            P::TraitOutOfRange { .. } => RULE_SUITS,
            P::RankOutOfRange { .. } => RULE_POINTS,
            P::OverCap { .. } => RULE_CAPS,
            P::GearOutOfRange { .. } => RULE_CHARTS,
            P::PoolOutOfRange { .. } => RULE_POOLS,
        }
    }

    /// The problem in words, without the bracketed citation `Display` adds
    /// (the caller cites [`DraftProblem::rule`]).
    pub fn message(&self) -> String {
        let text = self.to_string();
        match text.rfind(" [") {
            Some(i) if text.ends_with(']') => text[..i].to_string(),
            _ => text,
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

impl Character {
    /// Validate a draft. Every broken rule is listed in the error.
    ///
    /// # Errors
    /// [`DraftError`] with every [`DraftProblem`] and the draft.
    pub fn from_draft(draft: CharacterDraft) -> Result<Character, DraftError> {
        let mut problems = Vec::new();
        if draft.name.trim().is_empty() {
            problems.push(DraftProblem::NoName);
        } else if let Err(e) = check_name("name", &draft.name) {
            problems.push(DraftProblem::BadName(e));
        }
        if !draft.player.trim().is_empty()
            && let Err(e) = check_seat_name("player", &draft.player)
        {
            problems.push(DraftProblem::BadName(e));
        }
        let suit = Suit::parse(&draft.suit);
        if suit.is_none() {
            problems.push(DraftProblem::UnknownSuit(draft.suit.clone()));
        }
        let suit_trait = suit.map(Trait::of_suit);
        let traits = [draft.body, draft.spirit, draft.mind, draft.luck];
        let spent = draft.xp_spent();
        for t in Trait::ALL {
            let min = if Some(t) == suit_trait { 2 } else { 1 };
            let got = traits[t.index()];
            if !(min..=MAX_TRAIT).contains(&got) {
                problems.push(DraftProblem::TraitOutOfRange {
                    field: t.to_string().to_ascii_lowercase(),
                    min,
                    max: MAX_TRAIT,
                    got,
                });
            } else if let Some(now) = draft.pools.get(t)
                && !(0..=got * 5).contains(&now)
            {
                problems.push(DraftProblem::PoolOutOfRange {
                    pool: t.pool_name().into(),
                    trait_name: t.to_string(),
                    max: got * 5,
                    got: now,
                });
            }
        }
        for (field, len) in [
            ("skills", draft.skills.len()),
            ("custom_skills", draft.custom_skills.len()),
            ("specialties", draft.specialties.len()),
            ("advantages", draft.advantages.len()),
            ("disadvantages", draft.disadvantages.len()),
            ("weapons", draft.weapons.len()),
        ] {
            if len > MAX_LIST {
                problems.push(DraftProblem::OverCap {
                    field: field.into(),
                    max: MAX_LIST as i64,
                });
            }
        }
        if draft.wildcards > MAX_WILDCARDS {
            problems.push(DraftProblem::OverCap {
                field: "wildcards".into(),
                max: i64::from(MAX_WILDCARDS),
            });
        }
        if !(0..=MAX_EARNED_XP).contains(&draft.earned_xp) {
            problems.push(DraftProblem::OverCap {
                field: "earned_xp".into(),
                max: MAX_EARNED_XP,
            });
        }
        let mut skills: BTreeMap<String, i64> = SKILLS.iter().map(|s| (s.to_string(), 1)).collect();
        for s in &draft.custom_skills {
            skills.insert(s.trim().to_string(), 1);
        }
        let mut listed: Vec<&str> = Vec::new();
        for (name, rank) in &draft.skills {
            if listed.iter().any(|l| same_name(l, name)) {
                problems.push(DraftProblem::RepeatedSkill(name.clone()));
                continue;
            }
            listed.push(name);
            if !is_skill(name, &draft.custom_skills) {
                problems.push(DraftProblem::UnknownSkill(name.clone()));
                continue;
            }
            if !(1..=MAX_RANK).contains(rank) {
                problems.push(DraftProblem::RankOutOfRange {
                    skill: name.clone(),
                    max: MAX_RANK,
                    got: *rank,
                });
                continue;
            }
            let key = skills
                .keys()
                .find(|k| k.eq_ignore_ascii_case(name.trim()))
                .cloned()
                .unwrap_or_else(|| name.trim().to_string());
            skills.insert(key, *rank);
        }
        let rank_of = |s: &str| {
            skills
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(s.trim()))
                .map(|(_, r)| *r)
        };
        let mut specialties = Vec::new();
        for (k, sp) in draft.specialties.iter().enumerate() {
            if draft.specialties[..k]
                .iter()
                .any(|o| same_name(&o.name, &sp.name))
            {
                problems.push(DraftProblem::RepeatedSpecialty(sp.name.clone()));
                continue;
            }
            let [a, b] = sp.skills.as_slice() else {
                problems.push(DraftProblem::SpecialtyShape(sp.name.clone()));
                continue;
            };
            if a.trim().eq_ignore_ascii_case(b.trim()) {
                problems.push(DraftProblem::SpecialtyShape(sp.name.clone()));
                continue;
            }
            let mut ok = true;
            for s in [a, b] {
                match rank_of(s) {
                    None => {
                        problems.push(DraftProblem::UnknownSkill(s.clone()));
                        ok = false;
                    }
                    Some(r) if r < 2 => {
                        problems.push(DraftProblem::SpecialtyRankTooLow {
                            name: sp.name.clone(),
                            skill: s.clone(),
                            rank: r,
                        });
                        ok = false;
                    }
                    Some(_) => {}
                }
            }
            if ok {
                specialties.push((sp.name.clone(), a.clone(), b.clone()));
            }
        }
        let mut advantages: Vec<Advantage> = Vec::new();
        for text in &draft.advantages {
            match Advantage::parse(text) {
                None => problems.push(DraftProblem::UnknownAdvantage(text.clone())),
                Some(a) => {
                    // Counter<Sword> and Counter<sword> are the same Advantage.
                    let count = advantages
                        .iter()
                        .filter(|x| same_name(&x.to_string(), &a.to_string()))
                        .count();
                    let stacks = matches!(a, Advantage::Toughness | Advantage::Resolve);
                    if count > 0 && !stacks {
                        problems.push(DraftProblem::RepeatedAdvantage(a.to_string()));
                    } else if stacks && count >= advantages::MAX_STACK {
                        problems.push(DraftProblem::TooManyStacks(a.to_string()));
                    } else {
                        advantages.push(a);
                    }
                }
            }
        }
        // Every text on the sheet reaches other seats' screens: no control
        // characters (a terminal escape code), names of usable length.
        let names = draft
            .specialties
            .iter()
            .map(|sp| ("specialties.name", sp.name.as_str()))
            .chain(draft.skills.keys().map(|k| ("skills", k.as_str())))
            .chain(
                draft
                    .custom_skills
                    .iter()
                    .map(|k| ("custom_skills", k.as_str())),
            )
            .chain(
                draft
                    .weapons
                    .iter()
                    .map(|w| ("weapons.name", w.name.as_str())),
            )
            .chain(
                draft
                    .weapons
                    .iter()
                    .map(|w| ("weapons.skill", w.skill.as_str())),
            )
            .chain(
                draft
                    .armour
                    .iter()
                    .map(|a| ("armour.name", a.name.as_str())),
            );
        for (field, text) in names {
            if let Err(e) = check_name(field, text) {
                problems.push(DraftProblem::BadName(e));
            }
        }
        for d in draft.disadvantages.iter().chain(draft.advantages.iter()) {
            if let Some(c) = d.chars().find(|c| c.is_control()) {
                problems.push(DraftProblem::BadName(NameError::ControlCharacter {
                    field: "advantages / disadvantages".into(),
                    code: c as u32,
                }));
            }
        }
        if draft.advantages.len() < FREE_ADVANTAGES {
            problems.push(DraftProblem::TooFewAdvantages {
                got: draft.advantages.len(),
            });
        }
        for (k, d) in draft.disadvantages.iter().enumerate() {
            if draft.disadvantages[..k].iter().any(|o| same_name(o, d)) {
                problems.push(DraftProblem::RepeatedDisadvantage(d.clone()));
            }
        }
        for w in &draft.weapons {
            if !(0..=20).contains(&w.damage) {
                problems.push(DraftProblem::GearOutOfRange {
                    field: format!("weapons.{}.damage", w.name),
                    got: w.damage,
                });
            }
        }
        if let Some(a) = &draft.armour
            && !(0..=20).contains(&a.reduction)
        {
            problems.push(DraftProblem::GearOutOfRange {
                field: "armour.reduction".into(),
                got: a.reduction,
            });
        }
        let available = draft.xp_available();
        if spent > available {
            problems.push(DraftProblem::Overspent { spent, available });
        }
        match suit {
            Some(suit) if problems.is_empty() => Ok(Character {
                name: draft.name.trim().to_string(),
                player: draft.player.trim().to_string(),
                suit,
                traits,
                skills,
                specialties,
                advantages,
                disadvantages: draft.disadvantages,
                xp_available: available,
                xp_spent: spent,
                wildcards: draft.wildcards,
                custom_skills: draft
                    .custom_skills
                    .iter()
                    .map(|c| c.trim().to_string())
                    .filter(|c| !is_skill(c, &[]))
                    .collect(),
                pools: Trait::ALL.map(|t| draft.pools.get(t)),
                weapons: draft.weapons,
                armour: draft.armour,
            }),
            _ => Err(DraftError {
                problems,
                draft: Box::new(draft),
            }),
        }
    }

    /// Read and validate a TOML sheet.
    ///
    /// # Errors
    /// [`SheetError::Toml`] for unreadable TOML (naming the field), else
    /// [`SheetError::Rules`].
    pub fn from_toml(text: &str) -> Result<Character, SheetError> {
        let draft: CharacterDraft =
            toml::from_str(text).map_err(|e| SheetError::Toml(e.to_string()))?;
        Character::from_draft(draft).map_err(SheetError::Rules)
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The player (seat) name; empty for the Dealer's.
    pub fn player(&self) -> &str {
        &self.player
    }
    /// The Suit.
    pub fn suit(&self) -> Suit {
        self.suit
    }
    /// A Trait's score.
    pub fn trait_score(&self, t: Trait) -> i64 {
        self.traits[t.index()]
    }
    /// A pool's full size: Trait x 5 (R-GB-5).
    pub fn pool_max(&self, t: Trait) -> i64 {
        self.trait_score(t) * 5
    }
    /// A pool as the sheet carries it into an encounter: the value written on
    /// the sheet, else full (Trait x 5; R-GB-5).
    pub fn pool_now(&self, t: Trait) -> i64 {
        self.pools[t.index()].unwrap_or_else(|| self.pool_max(t))
    }
    /// XP earned in play (the sheet's `earned_xp`).
    pub fn earned_xp(&self) -> i64 {
        self.xp_available - STARTING_XP - self.disadvantages.len() as i64
    }
    /// The custom skills of the sheet that are not skills of the book.
    pub fn custom_skills(&self) -> &[String] {
        &self.custom_skills
    }

    /// The sheet this character is, as [`Character::from_toml`] reads it back:
    /// skills of the book at rank 1 left out, Advantages by their book names
    /// (`Counter<Sword>`), `earned_xp` recounted, the pools as carried.
    pub fn to_draft(&self) -> CharacterDraft {
        let skills = self
            .skills
            .iter()
            .filter(|(k, r)| {
                **r != 1
                    || !(SKILLS.iter().any(|b| b.eq_ignore_ascii_case(k))
                        || self.custom_skills.iter().any(|c| c.eq_ignore_ascii_case(k)))
            })
            .map(|(k, r)| (k.clone(), *r))
            .collect();
        let mut pools = Pools::default();
        for t in Trait::ALL {
            pools.set(t, self.pools[t.index()]);
        }
        CharacterDraft {
            name: self.name.clone(),
            player: self.player.clone(),
            suit: self.suit.to_string(),
            body: self.traits[0],
            spirit: self.traits[1],
            mind: self.traits[2],
            luck: self.traits[3],
            custom_skills: self.custom_skills.clone(),
            advantages: self.advantages.iter().map(ToString::to_string).collect(),
            disadvantages: self.disadvantages.clone(),
            earned_xp: self.earned_xp(),
            wildcards: self.wildcards,
            pools,
            armour: self.armour.clone(),
            skills,
            specialties: self
                .specialties
                .iter()
                .map(|(n, a, b)| SpecialtyDraft {
                    name: n.clone(),
                    skills: vec![a.clone(), b.clone()],
                })
                .collect(),
            weapons: self.weapons.clone(),
        }
    }

    /// True when both are the same character, whatever order the sheet listed
    /// the Advantages in.
    pub fn same_sheet(&self, other: &Character) -> bool {
        let mut a = self.clone();
        let mut b = other.clone();
        a.advantages.sort();
        b.advantages.sort();
        a == b
    }

    /// The highest Trait (Reinforce and Involve use it for the Power Rating).
    pub fn highest_trait(&self) -> i64 {
        self.traits.iter().copied().max().unwrap_or(1)
    }
    /// A skill's rank, `None` for a skill the sheet does not have. `<Type> Combat`
    /// and `Craft <Type>` not on the sheet are rank 1.
    pub fn skill(&self, name: &str) -> Option<i64> {
        let n = name.trim();
        self.skills
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, r)| *r)
            .or_else(|| is_skill(n, &[]).then_some(1))
    }
    /// Every skill with its rank.
    pub fn skills(&self) -> &BTreeMap<String, i64> {
        &self.skills
    }
    /// Specialties: (name, skill, skill).
    pub fn specialties(&self) -> &[(String, String, String)] {
        &self.specialties
    }
    /// A Specialty's rank: the lower of its two skills ("Specialties").
    pub fn specialty_rank(&self, name: &str) -> Option<i64> {
        let (_, a, b) = self
            .specialties
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name.trim()))?;
        Some(self.skill(a)?.min(self.skill(b)?))
    }
    /// The Advantages (Toughness and Resolve once per time taken).
    pub fn advantages(&self) -> &[Advantage] {
        &self.advantages
    }
    /// How many times the character has `a`.
    pub fn has(&self, a: &Advantage) -> usize {
        self.advantages.iter().filter(|x| *x == a).count()
    }
    /// Disadvantages.
    pub fn disadvantages(&self) -> &[String] {
        &self.disadvantages
    }
    /// XP: (available, spent).
    pub fn xp(&self) -> (i64, i64) {
        (self.xp_available, self.xp_spent)
    }
    /// Wildcards at the start.
    pub fn wildcards(&self) -> u32 {
        self.wildcards
    }
    /// Weapons carried.
    pub fn weapons(&self) -> &[Weapon] {
        &self.weapons
    }
    /// Armour worn.
    pub fn armour(&self) -> Option<&Armour> {
        self.armour.as_ref()
    }

    /// A text sheet.
    pub fn sheet(&self) -> String {
        let mut s = format!(
            "{} ({}; {} / {})\n",
            self.name,
            if self.player.is_empty() {
                "the Dealer's"
            } else {
                &self.player
            },
            self.suit,
            self.suit.tarot_name()
        );
        for t in Trait::ALL {
            let pool = match self.pools[t.index()] {
                Some(now) => format!("{now}/{}", self.pool_max(t)),
                None => self.pool_max(t).to_string(),
            };
            s += &format!(
                "  {:<6} {}  {} {pool}\n",
                t.to_string(),
                self.trait_score(t),
                t.pool_name(),
            );
        }
        let raised: Vec<String> = self
            .skills
            .iter()
            .filter(|(_, r)| **r > 1)
            .map(|(k, r)| format!("{k} {r}"))
            .collect();
        s += &format!(
            "  Skills: every book skill at 1{}{}\n",
            if raised.is_empty() { "" } else { "; " },
            raised.join(", ")
        );
        for (n, a, b) in &self.specialties {
            s += &format!(
                "  Specialty {n} ({a} x {b}) rank {}\n",
                self.specialty_rank(n).unwrap_or(0)
            );
        }
        let adv: Vec<String> = self
            .advantages
            .iter()
            .map(|a| format!("{a} ({})", a.suit()))
            .collect();
        s += &format!("  Advantages: {}\n", adv.join(", "));
        if !self.disadvantages.is_empty() {
            s += &format!("  Disadvantages: {}\n", self.disadvantages.join(", "));
        }
        s += &format!(
            "  XP {} of {} spent; Wildcards {}",
            self.xp_spent, self.xp_available, self.wildcards
        );
        for w in &self.weapons {
            s += &format!("\n  Weapon {} (+{}, {})", w.name, w.damage, w.skill);
        }
        if let Some(a) = &self.armour {
            s += &format!("\n  Armour {} (-{})", a.name, a.reduction);
        }
        s
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
mod tests {
    use super::*;

    fn draft() -> CharacterDraft {
        CharacterDraft {
            name: "Carlton".into(),
            player: "Pat".into(),
            suit: "Spades".into(),
            body: 1,
            spirit: 1,
            mind: 3,
            luck: 1,
            skills: BTreeMap::from([("Repair".to_string(), 2)]),
            custom_skills: vec!["Repair".into()],
            specialties: vec![],
            advantages: vec!["Careful".into(), "Study".into()],
            disadvantages: vec![],
            earned_xp: 0,
            wildcards: 0,
            pools: Pools::default(),
            weapons: vec![],
            armour: None,
        }
    }

    #[test]
    fn carlton_is_legal_and_spends_two_xp() {
        let c = Character::from_draft(draft()).unwrap();
        assert_eq!(c.trait_score(Trait::Mind), 3);
        assert_eq!(c.pool_max(Trait::Mind), 15);
        assert_eq!(c.skill("Repair"), Some(2));
        assert_eq!(c.skill("Athletics"), Some(1));
        assert_eq!(c.xp(), (10, 2));
    }

    #[test]
    fn every_broken_rule_is_listed() {
        let mut d = draft();
        d.name = " ".into();
        d.mind = 1; // Spades needs 2
        d.skills.insert("Basket Weaving".into(), 3);
        d.specialties.push(SpecialtyDraft {
            name: "Acting".into(),
            skills: vec!["Influence".into(), "Repair".into()],
        });
        d.advantages = vec!["Toughness".into(); 6];
        d.advantages.push("Flying".into());
        let e = Character::from_draft(d).unwrap_err();
        let p = &e.problems;
        assert!(p.contains(&DraftProblem::NoName));
        assert!(
            p.iter().any(
                |x| matches!(x, DraftProblem::TraitOutOfRange { field, .. } if field == "mind")
            )
        );
        assert!(p.contains(&DraftProblem::UnknownSkill("Basket Weaving".into())));
        assert!(p.iter().any(
            |x| matches!(x, DraftProblem::SpecialtyRankTooLow { skill, .. } if skill == "Influence")
        ));
        assert!(p.contains(&DraftProblem::TooManyStacks("Toughness".into())));
        assert!(p.contains(&DraftProblem::UnknownAdvantage("Flying".into())));
        assert_eq!(e.draft.name, " ");
    }

    #[test]
    fn xp_is_counted_and_disadvantages_add_one_each() {
        let mut d = draft();
        d.body = 6; // 5 XP
        d.skills.insert("Athletics".into(), 4); // 3 XP
        d.advantages.push("Speedy".into()); // 1 XP, total 11 with Repair
        let e = Character::from_draft(d.clone()).unwrap_err();
        assert_eq!(
            e.problems,
            vec![DraftProblem::Overspent {
                spent: 11,
                available: 10
            }]
        );
        d.disadvantages.push("Hunted by the Fates".into());
        assert!(Character::from_draft(d).is_ok());
    }

    #[test]
    fn tarot_suits_and_specialty_rank() {
        let mut d = draft();
        d.suit = "Staves".into();
        d.skills.insert("Technology".into(), 3);
        d.specialties.push(SpecialtyDraft {
            name: "Jury-Rig".into(),
            skills: vec!["Technology".into(), "Repair".into()],
        });
        let c = Character::from_draft(d).unwrap();
        assert_eq!(c.suit(), Suit::Spades);
        assert_eq!(c.specialty_rank("jury-rig"), Some(2));
    }

    /// R-GB-8, "Advantages": two starting Advantages; "Points & Costs",
    /// "Specialties": nothing is bought twice unless the Advantage says "up to 5
    /// times".
    #[test]
    fn two_starting_advantages_and_nothing_taken_twice_r_gb_8() {
        for (list, got) in [(vec![], 0), (vec!["Careful".to_string()], 1)] {
            let mut d = draft();
            d.advantages = list;
            let e = Character::from_draft(d).unwrap_err();
            assert_eq!(e.problems, vec![DraftProblem::TooFewAdvantages { got }]);
        }
        let mut d = draft();
        d.advantages = vec!["Careful".into(), "careful".into()];
        let e = Character::from_draft(d).unwrap_err();
        assert_eq!(
            e.problems,
            vec![DraftProblem::RepeatedAdvantage("Careful".into())]
        );
        let mut d = draft();
        d.advantages = vec!["Counter<Sword>".into(), "Counter<sword>".into()];
        let e = Character::from_draft(d).unwrap_err();
        assert_eq!(
            e.problems,
            vec![DraftProblem::RepeatedAdvantage("Counter<sword>".into())]
        );
        // Toughness and Resolve may be taken up to five times.
        let mut d = draft();
        d.advantages = vec!["Toughness".into(); 5];
        d.advantages.push("Careful".into());
        let c = Character::from_draft(d).unwrap();
        assert_eq!(c.has(&Advantage::Toughness), 5);
        // Four bought beyond the two free, plus Mind 3 and Repair 2.
        assert_eq!(c.xp(), (10, 6));
        let mut d = draft();
        d.disadvantages = vec!["Hunted".into(), "hunted ".into()];
        let e = Character::from_draft(d).unwrap_err();
        assert_eq!(
            e.problems,
            vec![DraftProblem::RepeatedDisadvantage("hunted ".into())]
        );
        let mut d = draft();
        d.skills.insert("Technology".into(), 2);
        for _ in 0..2 {
            d.specialties.push(SpecialtyDraft {
                name: "Jury-Rig".into(),
                skills: vec!["Technology".into(), "Repair".into()],
            });
        }
        let e = Character::from_draft(d).unwrap_err();
        assert_eq!(
            e.problems,
            vec![DraftProblem::RepeatedSpecialty("Jury-Rig".into())]
        );
        let mut d = draft();
        d.skills.insert("repair".into(), 2);
        let e = Character::from_draft(d).unwrap_err();
        assert!(
            e.problems
                .iter()
                .any(|p| matches!(p, DraftProblem::RepeatedSkill(_))),
            "{e}"
        );
    }

    #[test]
    fn names_with_control_characters_are_refused() {
        let mut d = draft();
        d.name = "Carl\u{1b}[2Jton".into();
        d.player = "Pat:2".into();
        let e = Character::from_draft(d).unwrap_err();
        assert_eq!(e.problems.len(), 2, "{e}");
        assert!(e.to_string().contains("name:"), "{e}");
        assert!(e.to_string().contains("player:"), "{e}");
    }

    #[test]
    fn a_bad_toml_field_is_named() {
        let e = Character::from_toml("name = \"X\"\nsuit = \"Clubs\"\nbody = 2\nspirit = 1\nmind = 1\nluck = 1\nstrength = 3\n").unwrap_err();
        assert!(e.to_string().contains("strength"), "{e}");
    }
}
