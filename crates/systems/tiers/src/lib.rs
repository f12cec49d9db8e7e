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
//!   buying Rolls with PSP).
//! - [`content`]: table data (Actions and perks, R-TI-4; Items by speed; roll
//!   uses; enemy kinds; NPCs) and the book's Sample Content.
//! - [`zones`]: Zones as a graph of touching and accessible areas.
//! - [`table`], [`decide`], [`legal`], [`setup`], [`text`]: Combat and the table
//!   as a decide/evolve [`System`]: [`Tiers`]. The players' side of combat
//!   (Actions, Movement, Items) and the GM's (roll uses, enemy movement, the
//!   sample enemies' rules) are the private modules `combat` and `enemies`.
//! - [`commands`]: the command reference (`COMMANDS`) and the character sheet
//!   in plain text.
//! - [`sheet`](mod@sheet): the sheets as one description for every front end,
//!   the GM's numbers hidden from the players.
//! - [`odds`]: exact odds of a roll against a Goal, a Competing Roll, and the
//!   damage of bought Rolls.
//! - [`policy`]: a reasonable player's and GM's choice
//!   ([`tabula_core::Policy`]): the NPC autopilot and encounter simulation.
//! - [`rules`]: citations of every rule as constants.
//! - [`builder`], [`after`], [`advance`]: characters outside the table
//!   ([`tabula_core::CharacterBook`]): creation in the order of the book's
//!   "Character Creation", the sheets an encounter leaves, and "Leveling Up"
//!   between encounters.
//!
//! It depends on `tabula-core` only.
//!
//! # Examples
//!
//! ```
//! use tabula_tiers::roleplay::{check, RollKind};
//! use tabula_core::{D3Mode, Scripted};
//! // "How to Roleplay": John rolls a 2 with a Roleplay Bonus of +1.
//! let out = check(RollKind::OutOfCombat, 1, 3, D3Mode::True, &mut Scripted::dice([2])).unwrap();
//! assert_eq!(out.roll.total, 3);
//! assert!(out.success);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod advance;
pub mod after;
pub mod builder;
pub mod character;
pub mod cli;
mod combat;
pub mod commands;
pub mod content;
pub mod decide;
mod enemies;
pub mod gm;
pub mod legal;
pub mod odds;
pub mod place;
pub mod policy;
pub mod roleplay;
pub mod rules;
pub mod setup;
pub mod sheet;
pub mod table;
pub mod text;
pub mod zones;

use tabula_core::{
    AdvanceError, Advanced, BuildProblem, BuildRefusal, BuildView, CharacterBook,
    CommandParseError, CommandSpec, FieldValue, Roller, RuleError, Seat, SheetAfter, System,
    TextPlay,
};

/// The system id used on the command line and in table files.
pub const ID: &str = "tiers";

/// The book as every citation and the engine know it (issue 26: a new book
/// is its own crate and one line of the engine's list); the book has no title in its text; RULINGS.md names it Tiers.
pub const BOOK: tabula_core::rule::Book = tabula_core::rule::Book {
    id: ID,
    title: "Tiers",
    seed: SEED,
    randomizer: "d6 and d3 plus a Roleplay Bonus against a Goal",
};
/// The seed file of the book.
pub const SEED: &str = rules::SEED;

/// The Tiers rule system: [`System`] and [`TextPlay`] over [`table::State`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tiers;

impl System for Tiers {
    const ID: &'static str = ID;
    type State = table::State;
    type Command = decide::Command;
    type Event = table::Event;
    type View = legal::View;

    fn decide(
        state: &Self::State,
        seat: &Seat,
        command: &Self::Command,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Self::Event>, RuleError> {
        decide::decide(state, seat, command, roller)
    }

    fn evolve(state: &mut Self::State, event: &Self::Event) {
        table::evolve(state, event);
    }

    fn view(state: &Self::State, seat: &Seat) -> Self::View {
        legal::view(state, seat)
    }

    fn legal_commands(state: &Self::State, seat: &Seat) -> Vec<CommandSpec> {
        legal::legal_commands(state, seat)
    }
}

impl TextPlay for Tiers {
    const BOOK: tabula_core::rule::Book = crate::BOOK;

    type SetupError = setup::SetupError;

    fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
        text: &str,
        files: &F,
    ) -> Result<Self::State, Self::SetupError> {
        setup::setup(text, files)
    }

    /// The GM, then one seat per player character, in the table file's order.
    /// NPC allies have no seat: the GM plays NPCs (`GM: Steve move Yard`).
    fn seats(state: &Self::State) -> Vec<Seat> {
        tabula_core::system::seat_list(
            state
                .heroes
                .iter()
                .filter(|h| !h.ally)
                .map(|h| Seat::Player(h.name().to_string())),
        )
    }

    /// The GM out of combat, in the Enemy Phase and while a Competing Roll
    /// waits; in the Player Phase the first player with AP left (then the GM,
    /// who plays the NPC allies).
    fn default_seat(state: &Self::State) -> Seat {
        if state.pending.is_some() {
            return Seat::Gm;
        }
        match state.phase() {
            Some(table::Phase::Player) => state
                .heroes
                .iter()
                .find(|h| !h.ally && h.up() && h.ap > 0)
                .map_or(Seat::Gm, |h| Seat::Player(h.name().to_string())),
            _ => Seat::Gm,
        }
    }

    /// The GM's `add FILE.toml [as NAME] [at ZONE]` reads the uploaded sheet
    /// from `sheets` (issue 27, item 6; `text::parse_with`).
    fn parse_command_with(
        state: &Self::State,
        seat: &Seat,
        line: &str,
        sheets: &dyn tabula_core::files::SheetFiles,
    ) -> Result<Self::Command, CommandParseError> {
        text::parse_with(state, seat, line, sheets)
    }

    const COMMANDS: &'static [tabula_core::system::CommandDoc] = commands::COMMANDS;
    /// The GM ends combat with `end-combat` and the session with `close` ([`rules::AFTER_COMBAT`]).
    const END_COMMANDS: &'static [&'static str] = &["end-combat", "close"];
    const LOG_SYMBOLS: tabula_core::system::LogSymbols = tabula_core::system::LogSymbols::Plain;

    /// Issue 27, bug 8: a hero's roll (a Stat roll, an Action's dice, a Death
    /// Roll) is credited to the seat that plays the hero (a player by the
    /// hero's name, the GM for an NPC ally), whoever's command brought it
    /// about; an enemy's Rolls are the GM's ([`rules::SEATS`]).
    fn event_seat(state: &Self::State, event: &Self::Event) -> Option<Seat> {
        use crate::table::Event;
        let hero = match event {
            Event::Rolled { hero, .. }
            | Event::ActionRolled { hero, .. }
            | Event::DeathRoll { hero, .. } => *hero,
            Event::EnemyRolled { .. } => return Some(Seat::Gm),
            _ => return None,
        };
        let h = state.heroes.get(hero)?;
        Some(if h.ally {
            Seat::Gm
        } else {
            Seat::Player(h.name().to_string())
        })
    }

    fn sheet(
        state: &Self::State,
        seat: &Seat,
        name: Option<&str>,
    ) -> Result<String, CommandParseError> {
        commands::sheet(state, seat, name)
    }

    /// [`sheet::sheet_doc`]: heroes open to every seat; an enemy's Health, the
    /// Health pool and the Rolls left the GM's.
    fn sheet_doc(state: &Self::State, seat: &Seat) -> tabula_core::sheet::SheetDoc {
        sheet::sheet_doc(state, seat)
    }

    fn describe(state: &Self::State, event: &Self::Event) -> String {
        text::describe(state, event)
    }

    /// [`text::describe_for`]: the GM's enemy Health, Health pool reserve and
    /// Rolls left stay the GM's in a player's log, as in `status` and `view`.
    fn describe_for(state: &Self::State, event: &Self::Event, seat: &Seat) -> String {
        text::describe_for(state, event, seat)
    }

    /// [`text::event_for`]: a player gets no copy of an enemy's spawn (its
    /// Health is the GM's), only [`text::describe_for`]'s line.
    fn event_for(_state: &Self::State, event: &Self::Event, seat: &Seat) -> Option<Self::Event> {
        text::event_for(event, seat)
    }

    fn status(state: &Self::State, seat: &Seat) -> String {
        text::status(state, seat)
    }

    fn finished(state: &Self::State) -> bool {
        state.closed
    }

    /// [`odds::choices`]: the Competing Rolls in front of the seat, the same
    /// numbers `status` prints.
    fn odds(state: &Self::State, seat: &Seat) -> Vec<tabula_core::ChoiceOdds> {
        odds::choices(state, seat)
    }
}

/// Characters outside the table: [`builder`] (creation), [`after`] (the
/// sheets an encounter leaves) and [`advance`] (leveling up).
impl CharacterBook for Tiers {
    type Draft = builder::Draft;

    fn place<F: tabula_core::files::SheetFiles + ?Sized>(
        table: &str,
        files: &F,
        players: &[tabula_core::place::Placed],
    ) -> Result<String, tabula_core::place::PlaceError> {
        crate::place::place(table, files, players)
    }

    fn build_view(draft: &Self::Draft) -> BuildView {
        builder::view(draft)
    }

    fn set(draft: &mut Self::Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        builder::set(draft, key, value)
    }

    fn clear(draft: &mut Self::Draft, key: &str) -> Result<(), BuildRefusal> {
        builder::clear(draft, key)
    }

    fn force(draft: &mut Self::Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        builder::apply(draft, key, value)
    }

    fn draft_sheet(draft: &Self::Draft) -> String {
        builder::sheet_text(draft)
    }

    fn validate(sheet: &str) -> Result<String, Vec<BuildProblem>> {
        builder::validate(sheet)
    }

    fn draft_from_sheet(sheet: &str) -> Result<Self::Draft, Vec<BuildProblem>> {
        builder::draft_from_sheet(sheet)
    }

    fn sheets_after(state: &Self::State) -> Vec<SheetAfter> {
        after::sheets_after(state)
    }

    const ADVANCEMENT: &'static [tabula_core::system::CommandDoc] = advance::ADVANCEMENT;

    /// Tiers' advancement rolls no dice: `roller` is unused.
    fn advance(
        sheet: &str,
        seat: &Seat,
        line: &str,
        _roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError> {
        advance::advance(sheet, seat, line)
    }
}
