//! The table: the game moments (Spend, Check, Situation, Event) as a decide/evolve
//! [`System`].
//!
//! Sour Grapes, "Game Moments", "Spend", "Check", "Situation", "Event", "Turn
//! Mechanics", "Stunt", "Interrupt", "Compliment", "Divert", "Reactions",
//! "Effects", "Injury, Exhaust & Damage", "Experience" (000_05a1db5b88f54528.txt);
//! R-SG-1..R-SG-12.
//!
//! The moment is one of [`crate::state::Moment::Free`] (single Spends and Checks),
//! [`crate::state::Moment::Situation`] (a running difficulty ending in a final check) or
//! [`crate::state::Moment::Event`] (initiative, rounds, and each turn's eight steps):
//!
//! | step | who | command |
//! |---|---|---|
//! | 1 Prep | Controller | `recover` (the free point), `keep`/`discard` effects |
//! | 2 Stunt | Controller | `stunt CARD` (or `end` the turn without one) |
//! | 3 Interrupt | any other | `interrupt CARD DICE TOKENS`; `pass` closes the window |
//! | 4 Targeting & Betting | Controller | `target WHO success D T result D T` |
//! | 5 Compliments & Diversions | any | `compliment`, `divert`; `pass` closes |
//! | 6 their success rolls | automatic | |
//! | 7 Reactions | each receiver | `react CARD DICE TOKENS` or `take` |
//! | 8 Final rolls | automatic | stunt, reactions, damage once |
//!
//! The storyteller (seat `gm`) also runs the monsters, opens Situations and
//! Events, gives points and tokens back (`giveback`), heals injuries, puts effects
//! on and takes them off (`afflict`, `cure`), rejects invalid cards (`reject`),
//! and awards experience (`award`; players `raise` and `improve`).

use serde::Serialize;
use tabula_core::system::CommandDoc;
use tabula_core::{
    ChoiceOdds, CommandParseError, CommandSpec, Roller, RuleError, Seat, System, TextPlay,
};

use crate::command::Command;
use crate::decide::decide;
use crate::decide::rolls::Dec;
use crate::event::Event;
use crate::evolve::evolve;
use crate::legal::legal;
use crate::odds::choice_odds;
use crate::setup::{SetupError, setup};
use crate::state::State;
use crate::text::{default_seat, describe, status};

/// The Sour Grapes rule system: implements [`tabula_core::System`],
/// [`tabula_core::TextPlay`] and [`tabula_core::CharacterBook`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SourGrapes;

/// What a seat sees: the whole table (the book keeps nothing hidden beyond the
/// sheets on the table), which characters it plays, and what it may do.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The seat.
    pub seat: Seat,
    /// The characters it plays.
    pub plays: Vec<String>,
    /// The table.
    pub state: State,
    /// What it may do now.
    pub may: Vec<CommandSpec>,
}

impl System for SourGrapes {
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
        let seat = state.seat(seat);
        let mut d = Dec::new(state, roller);
        decide(&mut d, &seat, command)?;
        Ok(d.into_events())
    }

    fn evolve(state: &mut State, event: &Event) {
        evolve(state, event);
    }

    fn view(state: &State, seat: &Seat) -> View {
        let seat = &state.seat(seat);
        View {
            seat: seat.clone(),
            plays: state.controlled_by(seat),
            state: state.clone(),
            may: legal(state, seat),
        }
    }

    fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
        legal(state, &state.seat(seat))
    }
}

impl TextPlay for SourGrapes {
    const BOOK: tabula_core::rule::Book = crate::BOOK;

    type SetupError = SetupError;

    /// The seat of the participant whose roll or move an event is (`who` of
    /// a roll, a Reaction, a Spend): a Divert or a
    /// Reaction is rolled when another seat's command closes the step, and
    /// the log credits it to its roller's seat (issue 27, bug 8; "Divert",
    /// "Reactions", 000_05a1db5b88f54528.txt).
    fn event_seat(state: &State, event: &Event) -> Option<Seat> {
        let who = match event {
            Event::Spent { who, .. }
            | Event::TokensBack { who, .. }
            | Event::Rolled { who, .. }
            | Event::InitiativeRolled { who, .. }
            | Event::FreePoint { who, .. }
            | Event::ReactionSkipped { who, .. }
            | Event::Reacted { who, .. } => who,
            _ => return None,
        };
        state.participant(who).map(|p| p.seat.clone())
    }

    fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
        text: &str,
        files: &F,
    ) -> Result<State, SetupError> {
        setup(text, files)
    }

    /// Every seat that plays or played a character here: a player whose
    /// character the storyteller took out (`remove`) keeps the seat, to
    /// watch, talk and be given a newcomer (GM tools).
    fn seats(state: &State) -> Vec<Seat> {
        tabula_core::system::seat_list(
            state
                .participants
                .iter()
                .chain(&state.left)
                .map(|p| p.seat.clone()),
        )
    }

    fn default_seat(state: &State) -> Seat {
        default_seat(state)
    }

    /// [`crate::text::parse::parse_with`]: the storyteller's `add FILE.toml`
    /// reads the character sheet from `sheets` (GM tools, issue 27, item 6).
    fn parse_command_with(
        state: &State,
        seat: &Seat,
        line: &str,
        sheets: &dyn tabula_core::files::SheetFiles,
    ) -> Result<Command, CommandParseError> {
        crate::text::parse::parse_with(state, seat, line, sheets)
    }

    const COMMANDS: &'static [CommandDoc] = crate::text::COMMANDS;
    /// The GM ends the encounter with `end-encounter` ([`crate::rules::MOMENTS`]).
    const END_COMMANDS: &'static [&'static str] = &["end-encounter"];
    const LOG_SYMBOLS: tabula_core::system::LogSymbols = tabula_core::system::LogSymbols::Plain;

    /// [`crate::sheet::sheet`]: the book's stat sheet with current values,
    /// conditions, skills, cards and effects.
    fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
        crate::sheet::sheet(state, seat, name)
    }

    /// [`crate::sheet::sheet_doc`]: every sheet, whole, for every seat.
    fn sheet_doc(state: &State, seat: &Seat) -> tabula_core::sheet::SheetDoc {
        crate::sheet::sheet_doc(state, seat)
    }

    fn describe(state: &State, event: &Event) -> String {
        describe(state, event)
    }

    fn status(state: &State, seat: &Seat) -> String {
        status(state, seat)
    }

    /// [`choice_odds`]: the rolls of [`crate::odds::offers`] the seat's characters may make now.
    fn odds(state: &State, seat: &Seat) -> Vec<ChoiceOdds> {
        choice_odds(state, seat)
    }

    fn finished(state: &State) -> bool {
        state.over
    }
}
