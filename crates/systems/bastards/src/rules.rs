//! The book's rule citations for the table ([`Rule`] constants) and the
//! table's limits: the Opposition's "Steps", "Skill Hands in Oppositions",
//! "Initiative", "Core Mechanic", "Combat", "Advantages", "Random Rules",
//! "Building A Scene" and "Optional Rules" (003_2dfeea144768d328.txt);
//! R-GB-2 .. R-GB-16.

use tabula_core::rule::Rule;

use crate::values;

/// "Steps": the order of an Opposition.
pub const RULE_STEPS: Rule = Rule::book(crate::BOOK, "Steps");
/// "Skill Hands in Oppositions": face down, betting, reveal.
pub const RULE_BETTING: Rule = Rule::book(crate::BOOK, "Skill Hands in Oppositions");
/// "Initiative".
pub const RULE_INITIATIVE: Rule = Rule::book(crate::BOOK, "Initiative").ruling("R-GB-2");
/// "Core Mechanic": each hand draws one and may discard one; mulligan.
pub const RULE_HAND: Rule = Rule::book(crate::BOOK, "Core Mechanic");
/// "Core Mechanic": a simple hand, "each player simply chooses a card to play";
/// R-GB-15: one card each, no bets, no raises.
pub const RULE_SIMPLE: Rule = Rule::book(crate::BOOK, "Core Mechanic").ruling("R-GB-15");
/// "Core Mechanic": "If anyone involved is unsatisfied with their entire hand,
/// they may mulligan"; R-GB-16: the character acted against included, once,
/// before playing in that hand.
pub const RULE_MULLIGAN: Rule = Rule::book(crate::BOOK, "Core Mechanic").ruling("R-GB-16");
/// R-GB-5: pools and damage.
pub const RULE_POOLS: Rule = Rule::book(crate::BOOK, "Combat").ruling("R-GB-5");
/// "Advantages"; R-GB-8.
pub const RULE_ADVANTAGES: Rule = Rule::book(crate::BOOK, "Advantages").ruling("R-GB-8");
/// "Random Rules"; R-GB-7.
pub const RULE_RANDOM: Rule = Rule::book(crate::BOOK, "Random Rules").ruling("R-GB-7");
/// "Jokers – Unbound by Fate": spending a Wildcard.
pub const RULE_WILDCARD: Rule = values::RULE_JOKERS;
/// "Building A Scene": dramatic actions.
pub const RULE_DRAMATIC: Rule = Rule::book(crate::BOOK, "Building A Scene");
/// "Followers/Henchmen" and "Extras/Brutes"; R-GB-9.
pub const RULE_EXTRAS: Rule = Rule::book(crate::BOOK, "Optional Rules").ruling("R-GB-9");
/// Who may command whom.
pub const RULE_SEATS: Rule = Rule::table("Seats");

/// The cards in a Fated's hand ("a hand of five cards").
pub const HAND_SIZE: usize = 5;
/// The most combatants one table may hold (a cap).
pub const MAX_COMBATANTS: usize = 32;
/// The most members of one group of Extras.
pub const MAX_MEMBERS: i64 = 5;
/// The most cards a hand may hold (a cap; Wildcards and Advantages add cards).
pub const MAX_HAND: usize = 30;
