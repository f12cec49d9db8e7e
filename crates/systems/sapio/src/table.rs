//! The table: characters, checks, Luck, Injuries and Stresses, Action Sequences
//! and advancement as a decide/evolve [`System`], and the terminal commands of
//! `tabula sapio play` ([`TextPlay`]).
//!
//! The Sapio System (004_f39b4146df158cae.txt): "When to Roll", "Invoking an
//! Element", "Special Situations when Rolling", "Luck", "Action Sequences",
//! "Injuries and Stresses", "Weapons and causing Injury", "Character versus
//! Character", "Advancement"; R-SA-1 to R-SA-10.

use tabula_core::system::{CommandParseError, CommandSpec, Seat, System, TextPlay};
use tabula_core::{Roller, RuleError};

use crate::ID;
use crate::command::Command;
use crate::event::Event;
use crate::setup::{SetupError, setup};
use crate::state::State;

/// The most characters at one table (a table limit).
pub const MAX_CHARACTERS: usize = 24;
/// The most Luck spent on one check (a table limit).
pub const MAX_LUCK_SPEND: u32 = 12;
/// The most text in a framing or a declaration (characters).
pub const MAX_NARRATION: usize = 500;

/// The Sapio System at the table.
pub struct Sapio;

impl System for Sapio {
    const ID: &'static str = ID;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = State;

    fn decide(
        state: &State,
        seat: &Seat,
        command: &Command,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, RuleError> {
        let mut events = crate::decide::decide(state, seat, command, roller)?;
        // "The round ends and a new round begins when all characters have been focal once."
        if let Some(round) = crate::decide::round_end_after(state, &events) {
            events.push(Event::RoundEnded { round });
        }
        Ok(events)
    }

    fn evolve(state: &mut State, event: &Event) {
        crate::evolve::evolve(state, event);
    }

    fn view(state: &State, _seat: &Seat) -> State {
        state.clone()
    }

    fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
        crate::legal::legal(state, seat)
    }
}

impl TextPlay for Sapio {
    const BOOK: tabula_core::rule::Book = crate::BOOK;

    type SetupError = SetupError;

    fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
        text: &str,
        files: &F,
    ) -> Result<State, SetupError> {
        setup(text, files)
    }

    fn seats(state: &State) -> Vec<Seat> {
        tabula_core::system::seat_list(
            state
                .characters
                .iter()
                .filter_map(|m| m.character.player().map(|p| Seat::Player(p.to_string()))),
        )
    }

    fn default_seat(state: &State) -> Seat {
        crate::text::default_seat(state)
    }

    /// The parser proper ([`crate::text::parse_with`]): the GM's `add
    /// FILE.toml` reads the sheet sent with the line (issue 27, item 6);
    /// `parse_command` is this with no sheets.
    fn parse_command_with(
        state: &State,
        seat: &Seat,
        line: &str,
        sheets: &dyn tabula_core::files::SheetFiles,
    ) -> Result<Command, CommandParseError> {
        crate::text::parse_with(state, seat, line, sheets)
    }

    const COMMANDS: &'static [tabula_core::system::CommandDoc] = crate::text::COMMANDS;
    /// The GM ends the encounter with `end` ([`RULE_SEQUENCE`](crate::rules::RULE_SEQUENCE)).
    const END_COMMANDS: &'static [&'static str] = &["end"];
    const LOG_SYMBOLS: tabula_core::system::LogSymbols =
        tabula_core::system::LogSymbols::SpiralDice;

    /// Issue 27, bug 8: a check's Spiral Dice are the focal character's roll,
    /// credited to the seat that plays the focal character (the GM for a
    /// character without a player), whoever's command rolled them
    /// ([`RULE_SEQUENCE`](crate::rules::RULE_SEQUENCE)).
    fn event_seat(state: &State, event: &Event) -> Option<Seat> {
        let Event::Rolled { check, .. } = event else {
            return None;
        };
        let m = state.characters.get(check.focal)?;
        Some(
            m.character
                .player()
                .map_or(Seat::Gm, |p| Seat::Player(p.to_string())),
        )
    }

    /// [`crate::sheet::sheet`]: the character sheet; nothing is hidden in Sapio.
    fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
        crate::sheet::sheet(state, seat, name)
    }

    /// [`crate::sheet::sheet_doc`]: the table's facts and every character's
    /// sheet; nothing is hidden in Sapio.
    fn sheet_doc(state: &State, seat: &Seat) -> tabula_core::sheet::SheetDoc {
        crate::sheet::sheet_doc(state, seat)
    }

    fn describe(state: &State, event: &Event) -> String {
        crate::text::describe(state, event)
    }

    fn status(state: &State, seat: &Seat) -> String {
        crate::text::status(state, seat)
    }

    /// The open check's pool against its TN for the focal character's seat
    /// (`text::choice_odds`), the chance status prints.
    fn odds(state: &State, seat: &Seat) -> Vec<tabula_core::system::ChoiceOdds> {
        crate::text::choice_odds(state, seat)
    }

    fn finished(state: &State) -> bool {
        state.over
            || (state.present().next().is_some()
                && state.present().all(|(_, m)| m.character.out_of_action()))
    }
}
