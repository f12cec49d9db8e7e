//! The [`Scratch`] system: `System` and `TextPlay`, each delegating to its
//! module: [`crate::decide`], [`crate::evolve`], [`crate::legal`],
//! [`crate::view`], [`crate::setup`] (table files), [`crate::text`] (typed
//! commands, descriptions of every event with every die, the status),
//! [`crate::sheet`] and [`crate::odds`].

use tabula_core::system::CommandDoc;
use tabula_core::{
    ChoiceOdds, CommandParseError, CommandSpec, Roller, RuleError, Seat, System, TextPlay,
};

use crate::command::Command;
use crate::event::Event;
use crate::setup::{SetupError, setup_table};
use crate::state::{Phase, State};
use crate::view::{View, view_of};

/// Scratch RPS (001_337b5a42e331e513.txt) as a decide/evolve system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scratch;

impl System for Scratch {
    const ID: &'static str = crate::ID;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn decide(
        state: &State,
        seat: &Seat,
        command: &Command,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, RuleError> {
        crate::decide::decide(state, seat, command, roller)
    }

    fn evolve(state: &mut State, event: &Event) {
        state.apply(event);
    }

    fn view(state: &State, _seat: &Seat) -> View {
        view_of(state)
    }

    fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
        crate::legal::legal_commands(state, seat)
    }
}

impl TextPlay for Scratch {
    const BOOK: tabula_core::rule::Book = crate::BOOK;

    type SetupError = SetupError;

    fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
        text: &str,
        files: &F,
    ) -> Result<State, SetupError> {
        setup_table(text, files)
    }

    fn seats(state: &State) -> Vec<Seat> {
        tabula_core::system::seat_list(state.groups.iter().map(|g| g.seat.clone()))
    }

    fn default_seat(state: &State) -> Seat {
        match state.current_group().and_then(|g| state.groups.get(g)) {
            Some(g) => g.seat.clone(),
            None => Seat::Gm,
        }
    }

    const COMMANDS: &'static [CommandDoc] = crate::text::COMMANDS;
    /// The GM may end the encounter early with `end-encounter` (issue 27,
    /// item 6); otherwise it ends by play (one side out).
    const END_COMMANDS: &'static [&'static str] = &["end-encounter"];
    const LOG_SYMBOLS: tabula_core::system::LogSymbols = tabula_core::system::LogSymbols::Plain;

    /// Issue 27, bug 8: a roll is credited to the seat whose character rolled
    /// (the actor of an action, the character the GM called a roll for, the
    /// crafter of a hurried craftsmanship bonus), whoever's command closed
    /// the step. "Turns": each person's initiative group holds the
    /// characters that person controls.
    fn event_seat(state: &State, event: &Event) -> Option<Seat> {
        let who = match event {
            Event::Rolled { character, .. } => *character,
            Event::Acted { actor, .. } => *actor,
            Event::Crafted {
                crafter,
                hurry: Some(_),
                ..
            } => *crafter,
            _ => return None,
        };
        state.seat_of(who).cloned()
    }

    /// [`crate::text::parse_with`]: the GM's `add FILE.toml` reads the
    /// sheet from `sheets` (issue 27, item 6).
    fn parse_command_with(
        state: &State,
        seat: &Seat,
        line: &str,
        sheets: &dyn tabula_core::files::SheetFiles,
    ) -> Result<Command, CommandParseError> {
        crate::text::parse_with(state, seat, line, sheets)
    }

    fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
        crate::sheet::sheet(state, seat, name)
    }

    /// [`crate::sheet::sheet_doc`]: every sheet, whole, for every seat.
    fn sheet_doc(state: &State, seat: &Seat) -> tabula_core::sheet::SheetDoc {
        crate::sheet::sheet_doc(state, seat)
    }

    /// [`crate::text::describe()`]: every event with every die.
    fn describe(state: &State, event: &Event) -> String {
        crate::text::describe(state, event)
    }

    /// [`crate::text::status`]: the roster, the phase and the odds.
    fn status(state: &State, seat: &Seat) -> String {
        crate::text::status(state, seat)
    }

    fn finished(state: &State) -> bool {
        state.phase == Phase::Over
    }

    /// [`crate::odds::action_odds`], one entry per action and target: the chance of its
    /// (first) roll at that target, with the damage split in the detail.
    fn odds(state: &State, seat: &Seat) -> Vec<ChoiceOdds> {
        crate::odds::choice_odds(state, seat)
    }
}
