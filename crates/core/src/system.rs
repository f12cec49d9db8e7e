//! The decide/evolve shape every rule system shares, seats, and the event log.
//!
//! ```text
//! command (from a seat) --decide(state, seat, cmd, roller)--> Ok(events) | Err(RuleError)
//! events ----------------evolve(state, event)--------------> next state   (pure, no dice)
//! state -----------------view(state, seat)-----------------> what that seat may see
//! ```
//!
//! `decide` validates against the rules and rolls or draws through the injected
//! [`Roller`]; every die face and card drawn is written into the events. `evolve`
//! never rolls, so replaying the log rebuilds the exact table, and undo is "replay
//! to event N". A [`Table`] holds the initial state, the log and the current state,
//! and guarantees that a refused command changes nothing.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

use crate::roller::Roller;
use crate::rule::RuleError;

/// Who gives a command: the GM (storyteller, Dealer) or a named player.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Seat {
    /// The game master (the Sour Grapes storyteller, the Bastards Dealer).
    Gm,
    /// A player, by the name the table knows them by.
    Player(String),
}

impl Seat {
    /// Read a seat name: `gm` (any case; also `storyteller`, `dealer`) is the GM,
    /// anything else names a player.
    pub fn parse(text: &str) -> Seat {
        let t = text.trim();
        match t.to_ascii_lowercase().as_str() {
            "gm" | "storyteller" | "dealer" => Seat::Gm,
            _ => Seat::Player(t.to_string()),
        }
    }

    /// True for the GM seat.
    pub fn is_gm(&self) -> bool {
        matches!(self, Seat::Gm)
    }

    /// True when both are the same seat: both the GM, or players whose names
    /// match without regard to case ([`crate::names::same_name`]).
    pub fn same_seat(&self, other: &Seat) -> bool {
        match (self, other) {
            (Seat::Gm, Seat::Gm) => true,
            (Seat::Player(a), Seat::Player(b)) => crate::names::same_name(a, b),
            _ => false,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Gm => f.write_str("GM"),
            Seat::Player(p) => f.write_str(p),
        }
    }
}

/// The kind and range of one parameter of a command, for "what may this seat do now".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ParamKind {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
    },
    /// One of the listed names.
    Choice {
        /// The allowed names.
        options: Vec<String>,
    },
    /// Free text (a name, a description).
    Text,
    /// One of the listed names, or a character sheet file sent with the
    /// command (`mira.toml`; [`crate::files::names_sheet_file`]): the GM's
    /// `add KIND|FILE.toml` (issue 27, item 6). A page offers the names and a
    /// file picker, and sends the file in the request's `sheets`.
    ChoiceOrSheet {
        /// The allowed names.
        options: Vec<String>,
    },
    /// A whole number in `min..=max`, or one of the listed names standing for
    /// a number (Tiers' Goal: `7` or `very-easy`). Issue 27, bug 6.
    NumberOrName {
        /// Smallest allowed number.
        min: i64,
        /// Largest allowed number.
        max: i64,
        /// The names also accepted, as typed.
        names: Vec<String>,
    },
}

/// How a parameter is written in a command line: the one declaration the
/// parser's usage, [`CommandSpec::line`] and the page's forms all follow, so
/// no front end guesses a spelling from a parameter's name (issue 26, item 1).
/// Whether it may be left out is [`ParamSpec::optional`].
///
/// As JSON an object whose `style` is `positional`, `keyword` (with its
/// `word`), `equals` (with its `key`), `flag` or `raw`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "style", rename_all = "kebab-case")]
pub enum ParamSyntax {
    /// The value alone, in its place (`attack Bruiser`, `fate Fighting`).
    #[default]
    Positional,
    /// `WORD VALUE` (`vs 5`, `as Mira`, `with Brawl`). Two keyword
    /// parameters in a row with the same word write it once (`success 3 1`).
    Keyword {
        /// The word before the value, lower case.
        word: String,
    },
    /// `KEY=VALUE` written as one word (`d6=2`, `pay=hp`).
    Equals {
        /// The key, without the `=`.
        key: String,
    },
    /// The value is a word written alone when chosen, nothing otherwise
    /// (`ongoing`); the parameter is a choice of that one word.
    Flag,
    /// Several words written as typed, in the book's own sub-syntax (`on
    /// Bruiser, to=far`). Used where one field stands for a list the book
    /// reads itself.
    Raw,
}

/// One parameter of a legal command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamSpec {
    /// The parameter's name, in the book's words.
    pub name: String,
    /// What values it takes.
    pub kind: ParamKind,
    /// How it is written in the line ([`ParamSyntax::Positional`] unless the
    /// book says otherwise with [`ParamSpec::keyword`],
    /// [`ParamSpec::equals`], [`ParamSpec::flag`] or [`ParamSpec::raw`]).
    #[serde(default)]
    pub syntax: ParamSyntax,
    /// True when the line may leave it out: set by [`ParamSpec::optional`],
    /// and by the syntaxes other than positional unless
    /// [`ParamSpec::required`] follows them.
    #[serde(default)]
    pub optional: bool,
}

impl ParamSpec {
    /// An integer parameter in `min..=max`.
    pub fn int(name: &str, min: i64, max: i64) -> Self {
        ParamSpec {
            name: name.into(),
            kind: ParamKind::Int { min, max },
            syntax: ParamSyntax::Positional,
            optional: false,
        }
    }

    /// A parameter that takes one of `options`.
    pub fn choice<I, S>(name: &str, options: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ParamSpec {
            name: name.into(),
            kind: ParamKind::Choice {
                options: options.into_iter().map(Into::into).collect(),
            },
            syntax: ParamSyntax::Positional,
            optional: false,
        }
    }

    /// A parameter that takes one of `options` or a sheet file's name
    /// ([`ParamKind::ChoiceOrSheet`]).
    pub fn choice_or_sheet<I, S>(name: &str, options: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ParamSpec {
            name: name.into(),
            kind: ParamKind::ChoiceOrSheet {
                options: options.into_iter().map(Into::into).collect(),
            },
            syntax: ParamSyntax::Positional,
            optional: false,
        }
    }

    /// A parameter that takes a number in `min..=max` or one of `names`.
    pub fn number_or_name<I, S>(name: &str, min: i64, max: i64, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ParamSpec {
            name: name.into(),
            kind: ParamKind::NumberOrName {
                min,
                max,
                names: names.into_iter().map(Into::into).collect(),
            },
            syntax: ParamSyntax::Positional,
            optional: false,
        }
    }

    /// A free-text parameter.
    pub fn text(name: &str) -> Self {
        ParamSpec {
            name: name.into(),
            kind: ParamKind::Text,
            syntax: ParamSyntax::Positional,
            optional: false,
        }
    }

    /// The same parameter, which the line may leave out.
    #[must_use]
    pub fn optional(mut self) -> Self {
        self.optional = true;
        self
    }

    /// The same parameter, which the line must give (after
    /// [`ParamSpec::keyword`], [`ParamSpec::equals`] or [`ParamSpec::raw`],
    /// which make it optional: `spawn NAME KIND zone=ZONE`).
    #[must_use]
    pub fn required(mut self) -> Self {
        self.optional = false;
        self
    }

    /// The same parameter, written `WORD VALUE` ([`ParamSyntax::Keyword`]);
    /// optional unless [`ParamSpec::required`] follows.
    #[must_use]
    pub fn keyword(mut self, word: &str) -> Self {
        self.syntax = ParamSyntax::Keyword { word: word.into() };
        self.optional = true;
        self
    }

    /// The same parameter, written `KEY=VALUE` ([`ParamSyntax::Equals`]);
    /// optional unless [`ParamSpec::required`] follows.
    #[must_use]
    pub fn equals(mut self, key: &str) -> Self {
        self.syntax = ParamSyntax::Equals { key: key.into() };
        self.optional = true;
        self
    }

    /// The same parameter, a word written alone when chosen
    /// ([`ParamSyntax::Flag`]); optional.
    #[must_use]
    pub fn flag(mut self) -> Self {
        self.syntax = ParamSyntax::Flag;
        self.optional = true;
        self
    }

    /// The same parameter, several words written as typed
    /// ([`ParamSyntax::Raw`]); optional unless [`ParamSpec::required`]
    /// follows.
    #[must_use]
    pub fn raw(mut self) -> Self {
        self.syntax = ParamSyntax::Raw;
        self.optional = true;
        self
    }
}

/// A command a seat may give now, with its parameters: the answer to "what may
/// this seat do now".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandSpec {
    /// The command's name as typed at the terminal, e.g. `check`.
    pub name: String,
    /// One line on what it does, in the book's words.
    pub summary: String,
    /// Its parameters, in the order typed.
    pub params: Vec<ParamSpec>,
}

impl CommandSpec {
    /// A command spec.
    pub fn new(name: &str, summary: &str, params: Vec<ParamSpec>) -> Self {
        CommandSpec {
            name: name.into(),
            summary: summary.into(),
            params,
        }
    }

    /// The command line this spec gives with `values`, one per parameter in
    /// order (`""` or a missing entry for a parameter left out), written as
    /// each parameter's [`ParamSyntax`] says and read back by the book's
    /// parser: the line a page's form or a completion sends. A value with
    /// white space or quotes is quoted ([`crate::grammar::quote`]); a
    /// [`ParamSyntax::Raw`] value goes as typed; a [`ParamSyntax::Keyword`]
    /// value that already starts with its word, or follows a value with the
    /// same word, does not repeat it. `web/commands.js` writes the same line.
    ///
    /// # Examples
    /// ```
    /// use tabula_core::system::{CommandSpec, ParamSpec};
    /// let spec = CommandSpec::new("fate", "a check", vec![
    ///     ParamSpec::choice("skill", ["Fighting", "Quick Hands"]),
    ///     ParamSpec::int("difficulty", 0, 10).keyword("vs"),
    ///     ParamSpec::int("d6", 0, 5).equals("d6"),
    ///     ParamSpec::choice("ongoing", ["ongoing"]).flag(),
    /// ]);
    /// assert_eq!(spec.line(&["Quick Hands", "4", "", "ongoing"]), r#"fate "Quick Hands" vs 4 ongoing"#);
    /// assert_eq!(spec.line(&["Fighting", "", "2"]), "fate Fighting d6=2");
    /// // Tokens without dice: the dice are written as their smallest number.
    /// let divert = CommandSpec::new("divert", "", vec![
    ///     ParamSpec::int("success dice", 0, 10).keyword("success"),
    ///     ParamSpec::int("success tokens", 0, 5).keyword("success"),
    /// ]);
    /// assert_eq!(divert.line(&["", "2"]), "divert success 0 2");
    /// assert_eq!(divert.line(&["3", ""]), "divert success 3");
    /// ```
    pub fn line<S: AsRef<str>>(&self, values: &[S]) -> String {
        use crate::grammar::quote;
        let mut parts = vec![self.name.clone()];
        let mut last_word: Option<&str> = None;
        let given = |i: usize| values.get(i).map_or("", |v| v.as_ref().trim());
        for (i, p) in self.params.iter().enumerate() {
            let mut v = given(i);
            // In a run of keyword values written after one word (`success
            // DICE TOKENS`), a later value given after an empty earlier one
            // would be read in the earlier's place: the earlier is written
            // as its smallest number instead (`success 0 2`, not `success 2`).
            let floor;
            if v.is_empty()
                && let (ParamSyntax::Keyword { word }, ParamKind::Int { min, .. }) =
                    (&p.syntax, &p.kind)
                && self.params[i + 1..]
                    .iter()
                    .enumerate()
                    .take_while(|(_, q)| q.syntax == ParamSyntax::Keyword { word: word.clone() })
                    .any(|(k, _)| !given(i + 1 + k).is_empty())
            {
                floor = min.to_string();
                v = &floor;
            }
            if v.is_empty() {
                last_word = None;
                continue;
            }
            match &p.syntax {
                ParamSyntax::Keyword { word } => {
                    let already = v
                        .get(..word.len() + 1)
                        .is_some_and(|h| h.eq_ignore_ascii_case(&format!("{word} ")));
                    if last_word != Some(word.as_str()) && !already {
                        parts.push(word.clone());
                    }
                    parts.push(if already { v.to_string() } else { quote(v) });
                    last_word = Some(word.as_str());
                    continue;
                }
                ParamSyntax::Equals { key } => parts.push(format!("{key}={}", quote(v))),
                ParamSyntax::Raw => parts.push(v.to_string()),
                ParamSyntax::Positional | ParamSyntax::Flag => {
                    parts.push(quote(v));
                }
            }
            last_word = None;
        }
        parts.join(" ")
    }
}

/// A rule system: its state, the commands a seat may give, the events that
/// result, and what each seat may see.
pub trait System {
    /// The system id: `sour-grapes`, `scratch`, `tiers`, `bastards` or `sapio`.
    const ID: &'static str;
    /// The whole table state (characters, turn structure, decks). Never sent to a
    /// seat directly: see [`System::view`].
    type State: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// A command a seat gives.
    type Command: Clone + fmt::Debug + Serialize + DeserializeOwned;
    /// What happened, with every die face and card in it.
    type Event: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// What one seat may see of the state.
    type View: fmt::Debug + Serialize;

    /// Check `command` from `seat` against the rules and produce its events,
    /// rolling or drawing through `roller`. Pure apart from the roller.
    ///
    /// # Errors
    /// A [`RuleError`] naming the rule that refused the command.
    fn decide(
        state: &Self::State,
        seat: &Seat,
        command: &Self::Command,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Self::Event>, RuleError>;

    /// Apply one event. Never rolls and never fails: events are facts.
    fn evolve(state: &mut Self::State, event: &Self::Event);

    /// What `seat` may see: hidden cards, other hands and deck order are removed.
    fn view(state: &Self::State, seat: &Seat) -> Self::View;

    /// The commands `seat` may give now, with their parameters.
    fn legal_commands(state: &Self::State, seat: &Seat) -> Vec<CommandSpec>;
}

/// One entry of the event log: its sequence number (from 1), the seat whose
/// command produced it, and the event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Logged<E> {
    /// Position in the log, counting from 1.
    pub seq: u64,
    /// The seat whose command produced the event.
    pub seat: Seat,
    /// The event.
    pub event: E,
}

/// The append-only event log of a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "E: Serialize", deserialize = "E: DeserializeOwned"))]
pub struct EventLog<E> {
    entries: Vec<Logged<E>>,
}

impl<E> Default for EventLog<E> {
    fn default() -> Self {
        EventLog {
            entries: Vec::new(),
        }
    }
}

impl<E> EventLog<E> {
    /// Every entry, oldest first.
    pub fn entries(&self) -> &[Logged<E>] {
        &self.entries
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing has happened yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn push(&mut self, seat: Seat, event: E) -> &Logged<E> {
        let seq = self.entries.len() as u64 + 1;
        self.entries.push(Logged { seq, seat, event });
        &self.entries[self.entries.len() - 1]
    }
}

/// A table: the initial state, the event log and the current state of one game of
/// one system.
#[derive(Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = ""))]
pub struct Table<S: System> {
    initial: S::State,
    state: S::State,
    log: EventLog<S::Event>,
}

impl<S: System> Clone for Table<S> {
    fn clone(&self) -> Self {
        Table {
            initial: self.initial.clone(),
            state: self.state.clone(),
            log: self.log.clone(),
        }
    }
}

impl<S: System> fmt::Debug for Table<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("system", &S::ID)
            .field("events", &self.log.len())
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl<S: System> PartialEq for Table<S> {
    fn eq(&self, other: &Self) -> bool {
        self.initial == other.initial && self.state == other.state && self.log == other.log
    }
}

impl<S: System> Table<S> {
    /// A table that starts from `initial` with an empty log.
    pub fn new(initial: S::State) -> Self {
        Table {
            state: initial.clone(),
            initial,
            log: EventLog::default(),
        }
    }

    /// The current state.
    pub fn state(&self) -> &S::State {
        &self.state
    }

    /// The state the table started from.
    pub fn initial(&self) -> &S::State {
        &self.initial
    }

    /// The event log.
    pub fn log(&self) -> &EventLog<S::Event> {
        &self.log
    }

    /// Give `command` as `seat`: decide, then (only if it was accepted and the
    /// roller had every value it needed) evolve and append the events. Returns the
    /// entries appended.
    ///
    /// # Errors
    /// The [`RuleError`] from [`System::decide`], or a roll error from
    /// [`Roller::finish`] (a manual roller short of values). Either way the table
    /// is unchanged.
    pub fn submit(
        &mut self,
        seat: &Seat,
        command: &S::Command,
        roller: &mut dyn Roller,
    ) -> Result<&[Logged<S::Event>], RuleError> {
        let decided = S::decide(&self.state, seat, command, roller);
        let finished = roller.finish();
        let events = decided?;
        finished?;
        let first = self.log.len();
        for event in events {
            S::evolve(&mut self.state, &event);
            self.log.push(seat.clone(), event);
        }
        Ok(&self.log.entries()[first..])
    }

    /// Append an event that was decided earlier (replaying a stored log): evolve
    /// the state with it and log it under `seat`. Returns its entry.
    ///
    /// Only for events that [`System::decide`] produced for this table, in order;
    /// anything else may leave a state the rules would never reach.
    pub fn apply(&mut self, seat: &Seat, event: S::Event) -> &Logged<S::Event> {
        S::evolve(&mut self.state, &event);
        self.log.push(seat.clone(), event)
    }

    /// What `seat` may see now.
    pub fn view(&self, seat: &Seat) -> S::View {
        S::view(&self.state, seat)
    }

    /// What `seat` may do now.
    pub fn legal_commands(&self, seat: &Seat) -> Vec<CommandSpec> {
        S::legal_commands(&self.state, seat)
    }

    /// Rebuild a state from `initial` by applying the first `upto` events of `log`
    /// (all of them when `upto` is larger than the log).
    pub fn replay(initial: &S::State, log: &EventLog<S::Event>, upto: usize) -> S::State {
        let mut state = initial.clone();
        for entry in log.entries().iter().take(upto) {
            S::evolve(&mut state, &entry.event);
        }
        state
    }

    /// Undo: keep only the first `upto` events and rebuild the state from them.
    pub fn truncate(&mut self, upto: usize) {
        self.log.entries.truncate(upto);
        self.state = Self::replay(&self.initial, &self.log, upto);
    }

    /// True when replaying the whole log from the initial state gives the current
    /// state (the invariant property tests check).
    pub fn replay_matches(&self) -> bool {
        Self::replay(&self.initial, &self.log, usize::MAX) == self.state
    }
}

/// The seat list of a table from the seats its characters are played by: the
/// GM first, then each player seat once (without regard to case), in order.
/// Systems use it for [`TextPlay::seats`].
pub fn seat_list<I: IntoIterator<Item = Seat>>(controllers: I) -> Vec<Seat> {
    let mut seats = vec![Seat::Gm];
    for seat in controllers {
        let known = seats.iter().any(|s| s.same_seat(&seat));
        if !known {
            seats.push(seat);
        }
    }
    seats
}

/// A command line typed at the terminal could not be read as a command.
///
/// As JSON it is an object whose `parse` is `unknown`, `arguments`,
/// `grammar` (with the [`crate::grammar::GrammarError`]'s `kind`) or `name`
/// (with the [`crate::names::NameLookupError`]'s `kind` and its names).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "parse", rename_all = "kebab-case")]
pub enum CommandParseError {
    /// The first word is not a command this system knows.
    #[error("unknown command {got:?}; commands: {known}")]
    Unknown {
        /// The word typed.
        got: String,
        /// The commands known, comma-separated.
        known: String,
    },
    /// The command is known but its arguments are wrong.
    #[error("{command}: {problem} (usage: {usage})")]
    Arguments {
        /// The command.
        command: String,
        /// What is wrong, naming the argument.
        problem: String,
        /// How the command is written.
        usage: String,
    },
    /// The line could not be split into words (an unclosed quote).
    #[error("{0}")]
    Grammar(#[from] crate::grammar::GrammarError),
    /// A character sheet file named in the line (`add mira.toml`) was not
    /// sent, could not be read, or is not a legal character of this book:
    /// every broken rule, each naming its field or rule (issue 27, item 6).
    #[error("sheet {file:?}: {}", problems.join("; "))]
    Sheet {
        /// The file as named in the line.
        file: String,
        /// What is wrong, one entry per broken rule (at least one).
        problems: Vec<String>,
    },
    /// A name in the line fits no name, or several, where it was typed; the
    /// error lists the names that fit.
    #[error("{0}")]
    Name(#[from] crate::names::NameLookupError),
}

impl CommandParseError {
    /// The error for a first word that is no command of `commands`, listing
    /// them all (the names of a system's [`TextPlay::COMMANDS`]).
    pub fn unknown_command(got: &str, commands: &[CommandDoc]) -> Self {
        let known: Vec<&str> = commands.iter().map(|c| c.name).collect();
        CommandParseError::Unknown {
            got: got.to_string(),
            known: known.join(", "),
        }
    }

    /// The error for wrong arguments of the command `name` of `commands`,
    /// with its usage (empty when `commands` has no such entry).
    pub fn arguments_for(commands: &[CommandDoc], name: &str, problem: impl Into<String>) -> Self {
        match find_command(commands, name) {
            Some(doc) => Self::arguments(doc, problem),
            None => CommandParseError::Arguments {
                command: name.to_string(),
                problem: problem.into(),
                usage: String::new(),
            },
        }
    }

    /// The error for wrong arguments of `doc`'s command, with its usage.
    pub fn arguments(doc: &CommandDoc, problem: impl Into<String>) -> Self {
        CommandParseError::Arguments {
            command: doc.name.to_string(),
            problem: problem.into(),
            usage: doc.usage.to_string(),
        }
    }
}

/// Who may give a command, for the command reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Giver {
    /// Only the GM seat.
    Gm,
    /// A player, for a character it controls (the GM may act for anyone).
    Player,
    /// Whoever the moment belongs to (the seat whose turn or step it is).
    Any,
}

impl fmt::Display for Giver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Giver::Gm => "GM",
            Giver::Player => "player",
            Giver::Any => "any seat",
        })
    }
}

/// The reference entry of one command of a system: how it is written, what it
/// does and which rule it plays. A system lists every command once in
/// [`TextPlay::COMMANDS`]; `help`, the parser's usage messages and
/// `docs/COMMANDS.md` are all made from that one list, so they cannot drift.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CommandDoc {
    /// The command word, lower case (`attack`).
    pub name: &'static str,
    /// Other words that mean the same command (`check` for `fate`).
    pub aliases: &'static [&'static str],
    /// How it is written, capital words standing for what the player fills in,
    /// `[...]` for what may be left out, `a|b` for a choice
    /// (`attack TARGET SKILL [physical|social]`).
    pub usage: &'static str,
    /// One line on what it does, in the book's words.
    pub summary: &'static str,
    /// Who gives it.
    pub giver: Giver,
    /// The rule it plays.
    pub rule: crate::rule::Rule,
}

impl CommandDoc {
    /// A reference entry (for a system's `COMMANDS` constant).
    pub const fn new(
        name: &'static str,
        aliases: &'static [&'static str],
        usage: &'static str,
        summary: &'static str,
        giver: Giver,
        rule: crate::rule::Rule,
    ) -> Self {
        CommandDoc {
            name,
            aliases,
            usage,
            summary,
            giver,
            rule,
        }
    }

    /// True when `word` names this command (its name or an alias, without
    /// regard to case).
    pub fn is_called(&self, word: &str) -> bool {
        self.name.eq_ignore_ascii_case(word)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(word))
    }
}

/// The entry of `commands` that `word` names (by name or alias, without regard
/// to case), if any.
pub fn find_command<'a>(commands: &'a [CommandDoc], word: &str) -> Option<&'a CommandDoc> {
    commands.iter().find(|c| c.is_called(word))
}

/// A system that can be played by typing commands at a terminal (`tabula <system>
/// play`): it reads its table file, reads command lines and describes events.
pub trait TextPlay: System {
    /// The error a broken table file gives.
    type SetupError: std::error::Error;

    /// Build the initial state from a table file's text (TOML). `files` gives the
    /// files it refers to (character sheets) by name: the directory of the table
    /// file on the terminal (a [`std::path::Path`]), the uploaded texts on the
    /// server ([`crate::files::InMemoryFiles`]); every read is capped.
    ///
    /// # Errors
    /// A [`TextPlay::SetupError`] naming the field or rule that is broken.
    fn setup<F: crate::files::SheetFiles + ?Sized>(
        text: &str,
        files: &F,
    ) -> Result<Self::State, Self::SetupError>;

    /// The seat a line without a `seat:` prefix is given by (whose turn it is).
    fn default_seat(state: &Self::State) -> Seat;

    /// Every seat at this table: the GM first, then each player seat once, in
    /// the table file's order. A line or request from a name that is not here is
    /// refused by the driver and the server, and a typed seat name is matched
    /// against this list without regard to case.
    fn seats(state: &Self::State) -> Vec<Seat>;

    /// Read one command line (without the seat prefix) with no sheet files:
    /// [`TextPlay::parse_command_with`] with [`crate::files::NoSheets`].
    ///
    /// # Errors
    /// [`CommandParseError`] naming the command or argument that is wrong.
    fn parse_command(
        state: &Self::State,
        seat: &Seat,
        line: &str,
    ) -> Result<Self::Command, CommandParseError> {
        Self::parse_command_with(state, seat, line, &crate::files::NoSheets)
    }

    /// Read one command line (without the seat prefix) with the sheet files
    /// sent along with it: a GM's `add FILE.toml [as NAME] [to SEAT]` brings
    /// in the character of an uploaded sheet
    /// ([`crate::files::names_sheet_file`], [`crate::files::read_checked_sheet`];
    /// issue 27, item 6). Every other command ignores `sheets`.
    ///
    /// # Errors
    /// [`CommandParseError`] naming the command or argument that is wrong;
    /// [`CommandParseError::Sheet`] when the named file is missing or is not
    /// a legal character of the book.
    fn parse_command_with(
        state: &Self::State,
        seat: &Seat,
        line: &str,
        sheets: &dyn crate::files::SheetFiles,
    ) -> Result<Self::Command, CommandParseError>;

    /// A line or lines of text for one event, showing every die and card.
    fn describe(state: &Self::State, event: &Self::Event) -> String;

    /// A short status for the terminal: whose turn it is, the step, and anything
    /// the seat should know before choosing (odds next to each choice).
    fn status(state: &Self::State, seat: &Seat) -> String;

    /// True when the encounter is over and play should stop.
    fn finished(state: &Self::State) -> bool;

    /// Every command of this system, whatever the moment, once each: the
    /// source of `help`'s usage lines, of the parser's usage messages and of
    /// `docs/COMMANDS.md`. Every name [`System::legal_commands`] returns is
    /// here: its first word (a variant may follow: Bastards' `bet wild`) or
    /// its last (the participant it is given for may come first: Tiers'
    /// `Steve roll`, Scratch's `breakhelm attack`).
    const COMMANDS: &'static [CommandDoc];

    /// The book: its id, title, seed file and randomizer, as every citation
    /// of it carries them ([`crate::rule::Book`]). The engine reads every
    /// fact of a book from here (issue 26).
    const BOOK: crate::rule::Book;

    /// The commands that end the encounter (offered to the GM as the page's
    /// "End the encounter" button when one is legal); empty when the book
    /// ends an encounter only by play. A book fact the page reads from
    /// `GET /api/systems` instead of knowing the book (issue 26, item 3).
    const END_COMMANDS: &'static [&'static str] = &[];

    /// The symbols the book's log lines hold, so a page can draw them
    /// (playing cards, Spiral Dice faces) without knowing the book.
    const LOG_SYMBOLS: LogSymbols = LogSymbols::Plain;

    /// The character sheet of `name` (or, without a name, of the characters
    /// `seat` plays; for the GM, every character) as plain text laid out as
    /// the book lays out its sheet: current values, conditions, and the hand
    /// or pools only when `seat` may see them. Names match as the grammar
    /// says ([`crate::names::resolve`]).
    ///
    /// # Errors
    /// [`CommandParseError::Name`] for a name that is no character, listing them.
    fn sheet(
        state: &Self::State,
        seat: &Seat,
        name: Option<&str>,
    ) -> Result<String, CommandParseError>;

    /// Every character's sheet as `seat` may see it, with live values, and
    /// the table's facts (round, phase, deck): the one description the text
    /// sheet, the command line and the web page draw (issue 26, item 2). A
    /// value `seat` may not read is an [`crate::sheet::Item::Hidden`] and
    /// another seat's hand only a count of cards face down.
    fn sheet_doc(state: &Self::State, seat: &Seat) -> crate::sheet::SheetDoc;

    /// [`TextPlay::describe`] as `seat` may read it: a system with hidden
    /// information (another seat's cards) says less to the seats that may not see
    /// it. `state` is the state just after `event`. The default is `describe`,
    /// for systems where every event is public.
    fn describe_for(state: &Self::State, event: &Self::Event, seat: &Seat) -> String {
        let _ = seat;
        Self::describe(state, event)
    }

    /// The event as `seat` may see it in the log: itself, a copy with hidden
    /// values removed, or `None` when the seat may see nothing of it beyond
    /// [`TextPlay::describe_for`]'s text. `state` is the state just after
    /// `event`. The default shows every event, for systems with no hidden
    /// information.
    fn event_for(state: &Self::State, event: &Self::Event, seat: &Seat) -> Option<Self::Event> {
        let _ = (state, seat);
        Some(event.clone())
    }

    /// The odds this system can offer `seat` for the choice in front of it now
    /// (how many dice to risk, which card to bet), each as a probability in
    /// `0.0..=1.0`. Empty where the system has none for this moment.
    fn odds(state: &Self::State, seat: &Seat) -> Vec<ChoiceOdds> {
        let _ = (state, seat);
        Vec::new()
    }

    /// The seat whose dice or cards a roll is, for values a seat types
    /// (`rolled`): `who` is the character the system
    /// [announced](crate::Roller::announce) the roll for (`None`: it
    /// announced none), `sender` the seat giving the command. A seat's typed
    /// values are consumed only by rolls and draws this returns its own seat
    /// for; every other roll comes from the table's roller (issue 28,
    /// item 2). `None`: no seat's (the table rolls it).
    ///
    /// The default gives every roll of a command to its sender (a book that
    /// has not said whose each roll is); a book with rolls or draws of
    /// another seat inside one command (A Game of Bastards' Dealer) says whose.
    fn roll_owner(state: &Self::State, who: Option<&str>, sender: &Seat) -> Option<Seat> {
        let _ = (state, who);
        Some(sender.clone())
    }

    /// The seat whose character `event` is about (whose roll it is), when
    /// the book can tell; `None`: the seat whose command produced it. A log
    /// line names this seat, so a roll made when another seat's command
    /// closed a step is credited to the roller (issue 27, bug 8). `state` is
    /// the state just after the event.
    fn event_seat(state: &Self::State, event: &Self::Event) -> Option<Seat> {
        let _ = (state, event);
        None
    }
}

/// The symbols in a book's log lines, which a page draws as pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LogSymbols {
    /// Plain words and numbers.
    Plain,
    /// Playing cards written as `Q♥`, `10♠`, `Red Joker`.
    Cards,
    /// Spiral Dice faces (The Sapio System's `@`, `S`, ...).
    SpiralDice,
}

/// The chance of success of one option of a pending choice, for "see your odds
/// before you commit".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChoiceOdds {
    /// The option, in the book's words (`risk 3 dice`, `bet the 9 of Spades`).
    pub choice: String,
    /// The chance it succeeds, `0.0..=1.0`.
    pub probability: f64,
    /// What "success" means here (`3 successes against Difficulty 2`).
    pub detail: String,
}
