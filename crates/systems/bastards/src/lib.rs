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
//! - [`character`], [`advantages`]: sheets and the 31 Advantages.
//! - [`builder`]: creation step by step ([`tabula_core::builder::CharacterBook`]);
//!   [`advance`]: what an encounter leaves on a sheet, and spending XP.
//! - [`opposition`]: the decide/evolve turn structure; [`view`] what a seat may see
//!   and do (R-GB-12); [`table`] the table file and the terminal text;
//!   [`commands`] the command lines and their reference; [`sheet`] the index card.
//! - [`policy`]: the autopilot and simulation policy ([`tabula_core::policy::Policy`]).
//!
//! Hidden information (R-GB-12): [`System::view`], [`TextPlay::status`] and
//! [`TextPlay::describe`] show only what the book puts on the table plus, for the
//! asking seat, its own hands and its own characters' pools. `describe` is for a
//! shared log (everyone); [`Bastards::describe_for`] is one seat's log line.
//!
//! It depends on `tabula-core` only.
//!
//! # Examples
//!
//! Carlton's repair ("Skill Hand"): Mind 3, Repair 2 against the Dealer's three
//! cards.
//!
//! ```
//! use tabula_bastards::fate::{check, SkillHand};
//! use tabula_core::roller::Scripted;
//!
//! let hand = SkillHand { trait_score: 3, rank: 2, modifier: 0, specialty: 0 };
//! let mut cards = Scripted::values(["9S", "4C", "JH", "2D", "7S"]);
//! let result = check(hand, &mut cards)?;
//! assert!(result.success);
//! assert_eq!((result.player_total, result.dealer_total), (12, 11));
//! let odds = tabula_bastards::chance::skill_hand(hand)?;
//! assert!(odds.probability > 0.5);
//! # Ok::<(), tabula_core::rule::RuleError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod advance;
pub mod advantages;
pub mod builder;
pub mod chance;
pub mod character;
pub mod cli;
pub mod commands;
pub mod deck;
pub mod fate;
pub mod gm;
pub mod opposition;
pub mod place;
pub mod policy;
pub mod sheet;
pub mod table;
pub mod values;
pub mod view;

/// The system id used on the command line and in table files.
pub const ID: &str = "bastards";

/// The book as every citation and the engine know it (issue 26: a new book
/// is its own crate and one line of the engine's list).
pub const BOOK: tabula_core::rule::Book = tabula_core::rule::Book {
    id: ID,
    title: "A Game of Bastards",
    seed: values::SEED,
    randomizer: "a shoe of two 54-card decks; skill hands and Fate Draws",
};

pub use opposition::{Command, Event, State};
pub use view::View;

use tabula_core::roller::Roller;
use tabula_core::rule::RuleError;
use tabula_core::system::{CommandParseError, CommandSpec, Seat, System, TextPlay};

/// A Game of Bastards as a Tabula rule system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bastards;

impl Bastards {
    /// One event described for one seat: [`TextPlay::describe`] (what everyone at
    /// the table sees) plus that seat's own cards drawn and discarded, its own
    /// characters' pools, and for the Dealer the Dealer's side of a Fate Draw
    /// (R-GB-12). See [`table::describe_for`].
    pub fn describe_for(state: &State, event: &Event, seat: &Seat) -> String {
        table::describe_for(state, event, seat)
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
        opposition::decide(state, seat, command, roller)
    }

    fn evolve(state: &mut State, event: &Event) {
        opposition::evolve(state, event);
    }

    fn view(state: &State, seat: &Seat) -> View {
        view::view(state, seat)
    }

    fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
        view::legal_commands(state, seat)
    }
}

impl TextPlay for Bastards {
    const BOOK: tabula_core::rule::Book = crate::BOOK;

    type SetupError = table::TableError;

    fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
        text: &str,
        files: &F,
    ) -> Result<State, table::TableError> {
        table::setup(text, files)
    }

    fn seats(state: &State) -> Vec<Seat> {
        tabula_core::system::seat_list(state.combatants.iter().map(|c| c.controller.clone()))
    }

    fn default_seat(state: &State) -> Seat {
        table::default_seat(state)
    }

    const COMMANDS: &'static [tabula_core::system::CommandDoc] = commands::COMMANDS;
    /// The Dealer ends the encounter with `finish` ([`opposition::RULE_STEPS`]).
    const END_COMMANDS: &'static [&'static str] = &["finish"];
    const LOG_SYMBOLS: tabula_core::system::LogSymbols = tabula_core::system::LogSymbols::Cards;

    /// [`commands::parse_command_with`]: the GM's `add FILE.toml` reads the
    /// sheet from `sheets` and validates it (issue 27, item 6).
    fn parse_command_with(
        state: &State,
        seat: &Seat,
        line: &str,
        sheets: &dyn tabula_core::files::SheetFiles,
    ) -> Result<Command, CommandParseError> {
        commands::parse_command_with(state, seat, line, sheets)
    }

    /// [`sheet::sheet`]: the index card, pools and hand only for the seat that
    /// commands the character (R-GB-12).
    fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
        sheet::sheet(state, seat, name)
    }

    /// [`sheet::sheet_doc`]: the table's facts and every index card, pools
    /// and hand only for the seat that commands the character (R-GB-12).
    fn sheet_doc(state: &State, seat: &Seat) -> tabula_core::sheet::SheetDoc {
        sheet::sheet_doc(state, seat)
    }

    fn describe(state: &State, event: &Event) -> String {
        table::describe(state, event)
    }

    fn status(state: &State, seat: &Seat) -> String {
        table::status(state, seat)
    }

    /// One seat's log line: the shared text plus that seat's own cards and
    /// pools (R-GB-12; [`table::describe_for`]).
    fn describe_for(state: &State, event: &Event, seat: &Seat) -> String {
        table::describe_for(state, event, seat)
    }

    /// The event's JSON goes to a seat only when it holds nothing hidden
    /// (R-GB-12): table phases, the turn order, face-up cards, revealed hands and
    /// public statuses. Events that name cards in a hand, a face-down card, a
    /// discard, a Fate Draw's unplayed cards or pool points are shown to every
    /// seat, the GM included, only as [`TextPlay::describe_for`]'s text, which
    /// says to each seat what that seat may see.
    fn event_for(_state: &State, event: &Event, _seat: &Seat) -> Option<Event> {
        use opposition::Event as E;
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

    /// [`table::bet_odds`]: `call`, each `bet CARD` and `bet wild` for the side
    /// to bet, from what the seat may see (R-GB-12).
    fn odds(state: &State, seat: &Seat) -> Vec<tabula_core::system::ChoiceOdds> {
        table::bet_odds(state, seat)
    }

    /// Whose cards a draw is, for cards a seat types (issue 28, item 2): a
    /// combatant's draws are its controller's (a Fated's player, the GM's
    /// Followers and Extras); the Fate Draw against a Skill Hand is the
    /// Dealer's, so the GM's ("The Dealer or another player draws 6 cards
    /// minus the trait", A Game of Bastards, "Skill Hand", 003_2dfeea144768d328.txt).
    /// A draw the rules did not announce is no seat's: the table draws it.
    /// Issue 27, bug 8: a draw (a hand, an initiative card, a Fate Draw) is
    /// credited to the seat that commands the character who drew, whoever's
    /// command dealt it ([`opposition::RULE_STEPS`]).
    fn event_seat(state: &State, event: &opposition::Event) -> Option<Seat> {
        use opposition::Event;
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
        if who.eq_ignore_ascii_case(fate::DEALER) {
            return Some(Seat::Gm);
        }
        state
            .combatants
            .iter()
            .find(|c| tabula_core::names::same_name(&c.name, who))
            .map(|c| c.controller.clone())
    }
}
