//! The book's type, [`Tiers`], and its [`System`] and [`TextPlay`] impls:
//! each delegates to its module ([`crate::decide`], [`crate::evolve`],
//! [`crate::legal`], [`crate::setup`], [`crate::text`], [`crate::sheet`],
//! [`crate::odds`]) over [`crate::state::State`].

use tabula_core::{CommandParseError, CommandSpec, Roller, RuleError, Seat, System, TextPlay};

use crate::ID;
use crate::{command, decide, event, evolve, legal, odds, setup, sheet, state, text};

/// The Tiers rule system: [`System`] and [`TextPlay`] over [`state::State`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tiers;

impl System for Tiers {
    const ID: &'static str = ID;
    type State = state::State;
    type Command = command::Command;
    type Event = event::Event;
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
        evolve::evolve(state, event);
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
            Some(state::Phase::Player) => state
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

    const COMMANDS: &'static [tabula_core::system::CommandDoc] = text::COMMANDS;
    /// The GM ends combat with `end-combat` and the session with `close` ([`crate::rules::AFTER_COMBAT`]).
    const END_COMMANDS: &'static [&'static str] = &["end-combat", "close"];
    const LOG_SYMBOLS: tabula_core::system::LogSymbols = tabula_core::system::LogSymbols::Plain;

    /// Issue 27, bug 8: a hero's roll (a Stat roll, an Action's dice, a Death
    /// Roll) is credited to the seat that plays the hero (a player by the
    /// hero's name, the GM for an NPC ally), whoever's command brought it
    /// about; an enemy's Rolls are the GM's ([`crate::rules::SEATS`]).
    fn event_seat(state: &Self::State, event: &Self::Event) -> Option<Seat> {
        use crate::event::Event;
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
        sheet::sheet(state, seat, name)
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
