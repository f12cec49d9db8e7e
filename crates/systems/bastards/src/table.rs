//! [`Bastards`]: the book as a Tabula rule system ([`System`], [`TextPlay`]),
//! each method delegating to the module of its role: [`crate::decide`],
//! [`crate::evolve`], [`crate::view`], [`crate::legal`], [`crate::setup`],
//! [`crate::text`], [`crate::sheet`], [`crate::odds`].

use tabula_core::roller::Roller;
use tabula_core::rule::RuleError;
use tabula_core::system::{CommandParseError, CommandSpec, Seat, System, TextPlay};

use crate::{Command, Event, ID, State, View, decide, evolve, legal, odds, setup, text};

/// A Game of Bastards as a Tabula rule system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bastards;

impl Bastards {
    /// One event described for one seat: [`TextPlay::describe`] (what everyone at
    /// the table sees) plus that seat's own cards drawn and discarded, its own
    /// characters' pools, and for the Dealer the Dealer's side of a Fate Draw
    /// (R-GB-12). See [`text::describe_for`].
    pub fn describe_for(state: &State, event: &Event, seat: &Seat) -> String {
        text::describe_for(state, event, seat)
    }
}

impl System for Bastards {
    const ID: &'static str = ID;
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
        decide::decide(state, seat, command, roller)
    }

    fn evolve(state: &mut State, event: &Event) {
        evolve::evolve(state, event);
    }

    fn view(state: &State, seat: &Seat) -> View {
        crate::view::view(state, seat)
    }

    fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
        legal::legal_commands(state, seat)
    }
}

impl TextPlay for Bastards {
    const BOOK: tabula_core::rule::Book = crate::BOOK;

    type SetupError = setup::TableError;

    fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
        text: &str,
        files: &F,
    ) -> Result<State, setup::TableError> {
        setup::setup(text, files)
    }

    fn seats(state: &State) -> Vec<Seat> {
        tabula_core::system::seat_list(state.combatants.iter().map(|c| c.controller.clone()))
    }

    fn default_seat(state: &State) -> Seat {
        setup::default_seat(state)
    }

    const COMMANDS: &'static [tabula_core::system::CommandDoc] = text::COMMANDS;
    /// The Dealer ends the encounter with `finish` ([`crate::rules::RULE_STEPS`]).
    const END_COMMANDS: &'static [&'static str] = &["finish"];
    const LOG_SYMBOLS: tabula_core::system::LogSymbols = tabula_core::system::LogSymbols::Cards;

    /// [`text::parse_command_with`]: the GM's `add FILE.toml` reads the
    /// sheet from `sheets` and validates it (issue 27, item 6).
    fn parse_command_with(
        state: &State,
        seat: &Seat,
        line: &str,
        sheets: &dyn tabula_core::files::SheetFiles,
    ) -> Result<Command, CommandParseError> {
        text::parse_command_with(state, seat, line, sheets)
    }

    /// [`crate::sheet::sheet`]: the index card, pools and hand only for the seat that
    /// commands the character (R-GB-12).
    fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
        crate::sheet::sheet(state, seat, name)
    }

    /// [`crate::sheet::sheet_doc`]: the table's facts and every index card, pools
    /// and hand only for the seat that commands the character (R-GB-12).
    fn sheet_doc(state: &State, seat: &Seat) -> tabula_core::sheet::SheetDoc {
        crate::sheet::sheet_doc(state, seat)
    }

    fn describe(state: &State, event: &Event) -> String {
        text::describe(state, event)
    }

    fn status(state: &State, seat: &Seat) -> String {
        text::status(state, seat)
    }

    /// One seat's log line: the shared text plus that seat's own cards and
    /// pools (R-GB-12; [`text::describe_for`]).
    fn describe_for(state: &State, event: &Event, seat: &Seat) -> String {
        text::describe_for(state, event, seat)
    }

    /// The event's JSON goes to a seat only when it holds nothing hidden
    /// (R-GB-12): table phases, the turn order, face-up cards, revealed hands and
    /// public statuses. Events that name cards in a hand, a face-down card, a
    /// discard, a Fate Draw's unplayed cards or pool points are shown to every
    /// seat, the GM included, only as [`TextPlay::describe_for`]'s text, which
    /// says to each seat what that seat may see.
    fn event_for(_state: &State, event: &Event, _seat: &Seat) -> Option<Event> {
        use crate::event::Event as E;
        match event {
            E::Shuffled
            | E::OppositionBegan
            | E::Order { .. }
            | E::TurnBegan { .. }
            | E::DrawStepDone
            | E::Initiative { .. }
            | E::FaceUp { .. }
            | E::Revealed { .. }
            | E::MembersLost { .. }
            | E::Desperate { .. }
            | E::KnockedOut { .. }
            | E::Removed { .. }
            | E::TurnEnded
            | E::RoundEnded { .. }
            | E::OppositionEnded
            | E::Finished
            | E::SceneBegan
            | E::KarmicShuffle => Some(event.clone()),
            _ => None,
        }
    }

    fn finished(state: &State) -> bool {
        state.finished
    }

    /// [`odds::bet_odds`]: `call`, each `bet CARD` and `bet wild` for the side
    /// to bet, from what the seat may see (R-GB-12).
    fn odds(state: &State, seat: &Seat) -> Vec<tabula_core::system::ChoiceOdds> {
        odds::bet_odds(state, seat)
    }

    /// Whose cards a draw is, for cards a seat types (issue 28, item 2): a
    /// combatant's draws are its controller's (a Fated's player, the GM's
    /// Followers and Extras); the Fate Draw against a Skill Hand is the
    /// Dealer's, so the GM's ("The Dealer or another player draws 6 cards
    /// minus the trait", A Game of Bastards, "Skill Hand", 003_2dfeea144768d328.txt).
    /// A draw the rules did not announce is no seat's: the table draws it.
    /// Issue 27, bug 8: a draw (a hand, an initiative card, a Fate Draw) is
    /// credited to the seat that commands the character who drew, whoever's
    /// command dealt it ([`crate::rules::RULE_STEPS`]).
    fn event_seat(state: &State, event: &crate::event::Event) -> Option<Seat> {
        use crate::event::Event;
        let who = match event {
            Event::Drew { who, .. }
            | Event::Initiative { who, .. }
            | Event::FateDrawn { who, .. } => *who,
            _ => return None,
        };
        state.combatants.get(who).map(|c| c.controller.clone())
    }

    fn roll_owner(state: &State, who: Option<&str>, _sender: &Seat) -> Option<Seat> {
        let who = who?;
        if who.eq_ignore_ascii_case(crate::fate::DEALER) {
            return Some(Seat::Gm);
        }
        state
            .combatants
            .iter()
            .find(|c| tabula_core::names::same_name(&c.name, who))
            .map(|c| c.controller.clone())
    }
}
