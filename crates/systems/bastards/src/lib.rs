//! # tabula-bastards
//!
//! The rules of A Game of Bastards (003_2dfeea144768d328.txt), system id `bastards`.
//!
//! - [`values`]: card values, the suit order for ties, the shoe (R-GB-1, R-GB-2).
//! - [`deck`]: drawing with Jokers and Wildcards (R-GB-3), running out of cards.
//! - [`fate`]: Skill Hands against the Dealer's Fate Draw, the Difficulty Modifier
//!   (R-GB-6) and the simple opposed hand.
//! - [`chance`]: exact odds (R-GB-11).
//!
//! It depends on `tabula-core` only.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod chance;
pub mod deck;
pub mod fate;
pub mod values;

/// The system id used on the command line and in table files.
pub const ID: &str = "bastards";
