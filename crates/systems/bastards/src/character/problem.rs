//! The broken rules of a draft ([`DraftProblem`]), each citing its rule, and the
//! rules cited ("Suits", "Points & Costs", "Skills", "Specialties",
//! "Advantages"; R-GB-5, R-GB-8, R-GB-10).

use super::*;

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
