//! # tabula-tiers
//!
//! The rules of Tiers, the untitled d3/d6 tier system (002_631931fd73349179.txt),
//! system id `tiers`.
//!
//! Modules follow the book's chapters:
//!
//! - [`character`]: Character Creation (level, the four Stats with six tiers, SP,
//!   Roleplay Bonus, Health, AP, Items); a draft validated into a character.
//! - [`roleplay`]: Roleplaying (d6 + Roleplay Bonus against a Goal, the Suggested
//!   Difficulty Curve, Competing Rolls, PvP Rolls) and the in-combat d3 roll.
//! - [`gm`]: Help for the GM (Party Stat Points, the shared enemy Health pool,
//!   buying Rolls with PSP, roll uses, Combat Points).
//! - [`odds`]: exact odds of a roll against a Goal, a Competing Roll, and
//!   the damage of bought Rolls.
//! - [`content`]: table data (Actions and perks, R-TI-4; Items by speed; roll
//!   uses; enemy kinds; NPCs) and the book's Sample Content.
//! - [`zones`]: Zones as a graph of touching and accessible areas.
//! - [`rules`]: citations of every rule as constants.
//!
//! It depends on `tabula-core` only.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod character;
pub mod content;
pub mod gm;
pub mod odds;
pub mod roleplay;
pub mod rules;
pub mod zones;

/// The system id used on the command line and in table files.
pub const ID: &str = "tiers";
/// The seed file of the book.
pub const SEED: &str = rules::SEED;
