//! Citations: every [`Rule`] constant of the book this crate applies (issue 26,
//! item 5: one `rules` module per book crate). Each names the seed file's section
//! heading (004_f39b4146df158cae.txt), plus the ruling id from `RULINGS.md`
//! where one settles the point, or a table rule of Tabula's own. Refusals carry
//! these, so an error always says which rule refused the command.

use tabula_core::Rule;

// The character: its elements, the starting build, advancement, Luck.

/// "The Elements of a Character".
pub const RULE_ELEMENTS: Rule = Rule::book(crate::BOOK, "The Elements of a Character");
/// "Professions and Specializations": two words or less.
pub const RULE_PROFESSIONS: Rule = Rule::book(crate::BOOK, "Professions and Specializations");
/// "Qualities": not so broad they could apply anywhere; "Lucky" and "Competent"
/// are refused. R-SA-10.
pub const RULE_QUALITIES: Rule = Rule::book(crate::BOOK, "Qualities").ruling("R-SA-10");
/// Magical or divine abilities need both a specific Quality and a Special Talent.
/// "Building a Starting Character" (the footnote on the starred Qualities); R-SA-10.
pub const RULE_MAGIC: Rule =
    Rule::book(crate::BOOK, "Building a Starting Character").ruling("R-SA-10");
/// A magic Quality and its magic Special Talent may be gained one advancement
/// apart: the first alone is kept, marked unpaired, and gives nothing until
/// the pair is complete. "Advancement", "Building a Starting Character";
/// R-SA-12.
pub const RULE_MAGIC_UNPAIRED: Rule = Rule::book(crate::BOOK, "Advancement").ruling("R-SA-12");
/// "Special Talents".
pub const RULE_TALENTS: Rule = Rule::book(crate::BOOK, "Special Talents");
/// "Principles and Worst Impulses".
pub const RULE_PRINCIPLES: Rule = Rule::book(crate::BOOK, "Principles and Worst Impulses");
/// "Building a Starting Character".
pub const RULE_STARTING: Rule = Rule::book(crate::BOOK, "Building a Starting Character");
/// "Advancement": the cycle rule and the changes a completed cycle allows.
pub const RULE_ADVANCEMENT: Rule = Rule::book(crate::BOOK, "Advancement");
/// "Luck".
pub const RULE_LUCK: Rule = Rule::book(crate::BOOK, "Luck");
/// Tabula's own limits on a sheet (names a table can show, no control
/// characters, text lengths and list sizes, TOML that reads).
pub const RULE_SHEET: Rule = Rule::table("Character sheets");

// The table: Action Sequences, seats, the end-of-session step.

/// "Action Sequences": rounds, turns, focal and supporting characters.
pub const RULE_SEQUENCE: Rule = Rule::book(crate::BOOK, "Action Sequences in Play");
/// "Players in the Action Sequence".
pub const RULE_PLAYERS: Rule = Rule::book(crate::BOOK, "Players in the Action Sequence");
/// Who gives which command at the table (Tabula's own rule: the GM sets TNs and
/// records harm, a player acts for their own character).
pub const RULE_SEATS: Rule = Rule::table("Seats");
/// Advancement happens at the GM's end-of-session step, one per character after
/// a consequential session. "Advancement"; R-SA-9.
pub const RULE_SESSION: Rule = Rule::book(crate::BOOK, "Advancement").ruling("R-SA-9");

// Checks: the pool, the TN, Improbable Success.

/// "When to Roll": the GM sets a TN between 1 and 5; a pool never holds more than
/// six dice.
pub const RULE_WHEN_TO_ROLL: Rule = Rule::book(crate::BOOK, "When to Roll");
/// Bonus dice past six lower the TN. R-SA-2.
pub const RULE_BONUS_PAST_SIX: Rule = Rule::book(crate::BOOK, "When to Roll").ruling("R-SA-2");
/// Improbable Success. R-SA-3.
pub const RULE_IMPROBABLE: Rule =
    Rule::book(crate::BOOK, "Special Situations when Rolling").ruling("R-SA-3");

// Invoking elements: the pool's steps, locks, help, Principles, Character versus Character.

/// "When to Roll": the steps of building the pool; one Profession, one
/// Specialization of it, one Quality.
pub const RULE_INVOKE: Rule = Rule::book(crate::BOOK, "When to Roll");
/// "Invoking an Element": locks for simultaneous tasks; the Main Profession exception.
pub const RULE_LOCKS: Rule = Rule::book(crate::BOOK, "Invoking an Element");
/// "Special Situations when Rolling": receiving help.
pub const RULE_HELP: Rule = Rule::book(crate::BOOK, "Special Situations when Rolling");
/// A Principle or Worst Impulse bonus die needs the GM's acceptance. R-SA-8.
pub const RULE_SACRIFICE: Rule =
    Rule::book(crate::BOOK, "Principles and Worst Impulses").ruling("R-SA-8");
/// Character versus Character: TN from 1, raised by each element the defender
/// invokes, to 5. R-SA-5 (by the dice the element would add: R-SA-11).
pub const RULE_VERSUS: Rule =
    Rule::book(crate::BOOK, "Character versus Character").ruling("R-SA-5");
/// Character versus Character: "Players may not add luck to this": neither the
/// aggressor nor the defender spends Luck on that roll. R-SA-11.
pub const RULE_VERSUS_LUCK: Rule =
    Rule::book(crate::BOOK, "Character versus Character").ruling("R-SA-11");
/// "Special Talents": they apply only when the character is focal.
pub const RULE_TALENT_USE: Rule = Rule::book(crate::BOOK, "Special Talents");

// Harm: Injuries, Stresses and weapons.

/// "Injuries and Stresses": boxes and escalation.
pub const RULE_INJURIES: Rule = Rule::book(crate::BOOK, "Injuries and Stresses");
/// Whether a new entry is similar is the GM's call, named by the command. R-SA-6.
pub const RULE_SIMILAR: Rule = Rule::book(crate::BOOK, "Injuries and Stresses").ruling("R-SA-6");
/// Moderate +1, Severe +2, only the largest; may pass 5. R-SA-7.
pub const RULE_PENALTY: Rule = Rule::book(crate::BOOK, "Injuries and Stresses").ruling("R-SA-7");
/// Weapon base level and upgrades by extra Hits. R-SA-4.
pub const RULE_WEAPONS: Rule =
    Rule::book(crate::BOOK, "Weapons and causing Injury").ruling("R-SA-4");

// Creation.

/// "Character Elements": first come up with a concept, then translate it into
/// elements.
pub const RULE_CONCEPT: Rule = Rule::book(crate::BOOK, "Character Elements");

// The GM's tools.

/// The GM's tools for the table (Tabula's own rule, issue 27, item 6): a
/// character joins the encounter (`add`) or leaves it (`remove`), as
/// `docs/systems/sapio.md` ("GM tools") writes down.
pub const RULE_GM_TOOLS: Rule = Rule::table("GM tools (issue 27, item 6)");
