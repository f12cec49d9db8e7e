//! The citations every refusal names: the book's sections and the rulings.

use tabula_core::Rule;

const fn book(section: &'static str) -> Rule {
    Rule::book(crate::BOOK, section)
}

/// Sour Grapes, "Character Creation" ("Who is your character?").
pub const CREATION: Rule = book("Character Creation");
/// Sour Grapes, "Skills": free names, 1 (trained) to 5 (masterclass), one page,
/// comparables.
pub const SKILL_SHEET: Rule = book("Skills");
/// Sour Grapes, "Cards": the action cards a character plays.
pub const HAND: Rule = book("Cards");
/// Sour Grapes, "Stats".
pub const STATS: Rule = book("Stats");
/// Sour Grapes, "Stat Mechanics" (exhausting, injury, recovery).
pub const STAT_MECHANICS: Rule = book("Stat Mechanics");
/// Sour Grapes, "Skills" and "Skill Mechanics".
pub const SKILLS: Rule = book("Skill Mechanics");
/// Sour Grapes, "Spend".
pub const SPEND: Rule = book("Spend");
/// Sour Grapes, "Check"; R-SG-1.
pub const CHECK: Rule = book("Check").ruling("R-SG-1");
/// Sour Grapes, "Situation".
pub const SITUATION: Rule = book("Situation");
/// Sour Grapes, "Event" (declaring and ending one, rounds, turns).
pub const EVENT: Rule = book("Event");
/// Sour Grapes, "Event" (Initiative); R-SG-8.
pub const INITIATIVE: Rule = book("Event").ruling("R-SG-8");
/// Sour Grapes, "Turn Mechanics".
pub const TURN: Rule = book("Turn Mechanics");
/// Sour Grapes, "Turn Mechanics" step 1, Prep.
pub const PREP: Rule = book("Turn Mechanics");
/// Sour Grapes, "Stunt".
pub const STUNT: Rule = book("Stunt");
/// Sour Grapes, "Interrupt".
pub const INTERRUPT: Rule = book("Interrupt");
/// Sour Grapes, "Turn Mechanics" step 4, Targeting & Betting; R-SG-4.
pub const BETTING: Rule = book("Turn Mechanics").ruling("R-SG-4");
/// Sour Grapes, "Compliment".
pub const COMPLIMENT: Rule = book("Compliment");
/// Sour Grapes, "Divert"; R-SG-6.
pub const DIVERT: Rule = book("Divert").ruling("R-SG-6");
/// Sour Grapes, "Reactions"; R-SG-5.
pub const REACTION: Rule = book("Reactions").ruling("R-SG-5");
/// Sour Grapes, "Effects"; R-SG-9.
pub const EFFECTS: Rule = book("Effects").ruling("R-SG-9");
/// Sour Grapes, "Cards" and "Card Mechanics"; R-SG-2.
pub const CARDS: Rule = book("Card Mechanics").ruling("R-SG-2");
/// Sour Grapes, "Injury, Exhaust & Damage"; R-SG-10.
pub const INJURY: Rule = book("Injury, Exhaust & Damage").ruling("R-SG-10");
/// Sour Grapes, "Stats": the conditions of a depleted stat; R-SG-10.
pub const CONDITIONS: Rule = book("Stats").ruling("R-SG-10");
/// Sour Grapes, "Stats": depleted-stat conditions limit checks as well as cards
/// (Dying, Incapacitated, Panicked); R-SG-12.
pub const DEPLETED: Rule = book("Stats").ruling("R-SG-12");
/// Sour Grapes, "Turn Mechanics" steps 4 and 8: placed dice and tokens are
/// committed and rolled up to what is left; R-SG-11.
pub const COMMITTED: Rule = book("Turn Mechanics").ruling("R-SG-11");
/// Sour Grapes, "Experience".
pub const EXPERIENCE: Rule = book("Experience");
/// Sour Grapes, "Game Moments" (which moment the table is in).
pub const MOMENTS: Rule = book("Game Moments");
/// Tabula's seats: a seat acts only for the characters it controls.
pub const SEATS: Rule = Rule::table("Seats");
