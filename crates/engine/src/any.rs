//! One table interface over the five systems: [`AnyTable`].
//!
//! The server and the terminal driver reach every book through this type and
//! know nothing of any one of them. Commands come as the text a seat types (the
//! same syntax as `play`) or as the system's command JSON; answers are JSON
//! ([`Accepted`], [`LogLine`], views) or a [`CommandError`] (the `RuleError` with
//! its rule, citation, kind and message).
//!
//! For the store, a table is its initial state, the roller it started with and
//! its journal rows ([`RawRow`], JSON); [`AnyTable::restore`] replays them.

use serde::{Deserialize, Serialize};

use tabula_core::builder::{CharacterBook, SheetAfter};
use tabula_core::files::{NoSheets, SheetFiles};
use tabula_core::notation::Dialect;
use tabula_core::policy::{Awaiting, EncounterReport, Policy};
use tabula_core::roller::Roller;
use tabula_core::sheet::SheetDoc;
use tabula_core::system::{CommandDoc, CommandSpec, Seat, System, TextPlay};
use tabula_core::{ChoiceOdds, Seeded};

use crate::SystemId;
use crate::session::{CommandError, Entry, LogLine, RestoreError, Row, Session, seat_key};
use crate::talk::{
    RollLine, TableWord, TableWordKind, Talk, Voice, read_roll, split_whisper, table_word,
};

/// A table file could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{system} table: {message}")]
pub struct SetupFailure {
    /// The system whose table file it is.
    pub system: SystemId,
    /// The system's error, naming the field or rule that is broken.
    pub message: String,
}

/// Stored rows could not be turned back into a table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The stored JSON is not this system's state, roller or rows.
    #[error("{what}: {message}")]
    Json {
        /// What was being read (`initial state`, `roller`, `row 12`).
        what: String,
        /// serde's words.
        message: String,
    },
    /// The rows do not replay.
    #[error(transparent)]
    Restore(#[from] RestoreError),
}

/// A journal row as stored: JSON, seat as text (`gm` or the player's name).
/// Holds hidden cards and the roller's state: the store's, never a seat's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RawRow {
    /// Sequence number, from 1.
    pub seq: u64,
    /// `gm` or the player's seat name.
    pub seat: String,
    /// The [`Entry`] as JSON (`{"kind": "event", "event": ...}` or
    /// `{"kind": "undo", "back_to": N}`).
    pub entry: serde_json::Value,
    /// True on the last row of a command.
    pub command_end: bool,
    /// The seeded roller's state after the command, on its last row.
    pub roller: Option<serde_json::Value>,
}

/// What an accepted command (or undo) did, as the seat that gave it may see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Accepted {
    /// The table's sequence number after it.
    pub seq: u64,
    /// The new log lines.
    pub events: Vec<LogLine>,
}

/// How the dice and cards of one command are chosen.
pub enum Dice<'a> {
    /// The table's seeded roller.
    Table,
    /// Values rolled or drawn at the real table (short values refuse the command
    /// with "need 2 more d6").
    Manual(&'a mut dyn Roller),
    /// Values the seat giving the command typed for its own rolls and draws
    /// (`rolled` on the server), in order: they go only to that seat's own
    /// characters' rolls ([`tabula_core::TextPlay::roll_owner`]), every other
    /// roll to the table's seeded roller, and the log marks them typed
    /// ([`Session::submit_typed`]; issue 28, items 2, 3 and 6).
    Typed(&'a [String]),
}

/// Who may type dice and cards at a table: the table file's setting `dice`
/// (issue 28, item 6), which every book's table file accepts (the engine
/// reads it before the book reads the rest, [`split_table_settings`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiceSetting {
    /// `dice = "players"` (the default): each seat may type its own dice and
    /// cards ([`Dice::Typed`]); the table rolls the rest.
    #[default]
    Players,
    /// `dice = "table"`: the table's roller rolls every player's dice and
    /// cards; a player's typed values are refused ([`CommandError::TableDice`]).
    /// The GM may still type the GM's own (the GM runs the table and sets
    /// this for the players).
    Table,
}

impl DiceSetting {
    /// The setting as the table file writes it (`players`, `table`).
    pub fn as_str(self) -> &'static str {
        match self {
            DiceSetting::Players => "players",
            DiceSetting::Table => "table",
        }
    }
}

/// The engine's own settings of a table file, which every book's table file
/// accepts ([`split_table_settings`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableSettings {
    /// `dice`: who may type dice and cards (issue 28, item 6).
    pub dice: DiceSetting,
    /// `dice_dialect`: whose meaning free dice notation has at the table,
    /// `"d20"` (the default), `"roll20"` or `"foundry"` (issue 30, item 3;
    /// `tabula_core::notation::Dialect`).
    pub dice_dialect: Dialect,
}

/// The table file `text` without the engine's own settings, and those
/// settings: the top-level keys `dice` (`"table"` or `"players"`, default
/// `"players"`) and `dice_dialect` (`"d20"`, `"roll20"` or `"foundry"`,
/// default `"d20"`). Text that is not TOML, or has neither, comes back as it
/// is (the book reports its own errors).
///
/// # Errors
/// A message naming `dice` when it is neither `"table"` nor `"players"`, or
/// `dice_dialect` when it is not a dialect.
pub fn split_table_settings(
    text: &str,
) -> Result<(TableSettings, std::borrow::Cow<'_, str>), String> {
    let mut settings = TableSettings::default();
    let Ok(mut doc) = text.parse::<toml::Table>() else {
        return Ok((settings, text.into()));
    };
    let dice = doc.remove("dice");
    let dialect = doc.remove("dice_dialect");
    if dice.is_none() && dialect.is_none() {
        return Ok((settings, text.into()));
    }
    if let Some(value) = dice {
        settings.dice = match value.as_str() {
            Some("players") => DiceSetting::Players,
            Some("table") => DiceSetting::Table,
            _ => {
                return Err(format!(
                    "the table setting `dice` is \"players\" (each seat may type its own dice and cards) or \"table\" (the table rolls every player's), not {value}"
                ));
            }
        };
    }
    if let Some(value) = dialect {
        settings.dice_dialect = value
            .as_str()
            .and_then(|s| s.parse::<Dialect>().ok())
            .ok_or_else(|| {
                format!(
                    "the table setting `dice_dialect` is \"d20\", \"roll20\" or \"foundry\" (whose meaning free dice notation has), not {value}"
                )
            })?;
    }
    let rest = toml::to_string(&doc).map_err(|e| format!("the table file: {e}"))?;
    Ok((settings, rest.into()))
}

/// Settings chosen beside a table file (the page's "Dice notation" and
/// "Players' own dice", the API's `dice_dialect` and `dice`): each one given
/// wins over the file's own ([`with_table_settings`]; issue 30, item 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChosenSettings {
    /// `dice`, when chosen.
    pub dice: Option<DiceSetting>,
    /// `dice_dialect`, when chosen.
    pub dice_dialect: Option<Dialect>,
}

impl TableSettings {
    /// These settings with each one `chosen` gives in its place.
    pub fn with(self, chosen: ChosenSettings) -> TableSettings {
        TableSettings {
            dice: chosen.dice.unwrap_or(self.dice),
            dice_dialect: chosen.dice_dialect.unwrap_or(self.dice_dialect),
        }
    }
}

impl From<TableSettings> for ChosenSettings {
    /// Both settings chosen, as `settings` has them.
    fn from(settings: TableSettings) -> ChosenSettings {
        ChosenSettings {
            dice: Some(settings.dice),
            dice_dialect: Some(settings.dice_dialect),
        }
    }
}

/// The table file `text` with `chosen` written at its top in place of the
/// file's own `dice` and `dice_dialect` (the file's stay where nothing was
/// chosen), so a kept copy of the file opens again with them (a campaign's
/// `again`). `text` comes back as it is when nothing is chosen, or when it
/// is not TOML (the book then reports its own error).
///
/// # Errors
/// As [`split_table_settings`]: the file's own `dice` or `dice_dialect` is
/// not a setting.
pub fn with_table_settings(text: &str, chosen: ChosenSettings) -> Result<String, String> {
    if chosen == ChosenSettings::default() || text.parse::<toml::Table>().is_err() {
        return Ok(text.to_string());
    }
    let (settings, rest) = split_table_settings(text)?;
    let settings = settings.with(chosen);
    Ok(format!(
        "dice = \"{}\"\ndice_dialect = \"{}\"\n{rest}",
        settings.dice.as_str(),
        settings.dice_dialect.as_str()
    ))
}

/// The initial roller as the store and save files keep it: the seeded
/// roller's own JSON, with `"dice": "table"` and `"dice_dialect"` beside it
/// when the table's settings say so (absent: `players` and `d20`; older
/// tables have none).
#[derive(Deserialize)]
struct StoredDice {
    #[serde(default)]
    dice: DiceSetting,
    #[serde(default)]
    dice_dialect: Dialect,
}

trait DynSession: Send + Sync {
    fn seq(&self) -> u64;
    fn seats(&self) -> Vec<Seat>;
    fn resolve_seat(&self, name: &str) -> Result<Seat, CommandError>;
    fn knows_command(&self, seat: &Seat, text: &str) -> bool;
    fn commands(&self) -> &'static [CommandDoc];
    fn sheet(&self, seat: &Seat, name: Option<&str>) -> Result<String, CommandError>;
    fn submit_text(
        &mut self,
        seat: &Seat,
        text: &str,
        dice: Dice<'_>,
        sheets: &dyn SheetFiles,
    ) -> Result<u64, CommandError>;
    fn submit_json(
        &mut self,
        seat: &Seat,
        command: &serde_json::Value,
        dice: Dice<'_>,
    ) -> Result<u64, CommandError>;
    fn undo(&mut self, seat: &Seat) -> Result<u64, CommandError>;
    /// True when the book reads `text` as one of its commands.
    fn parses(&self, seat: &Seat, text: &str) -> bool;
    fn talk(&mut self, seat: &Seat, talk: Talk) -> Result<u64, CommandError>;
    fn free_roll(
        &mut self,
        seat: &Seat,
        line: &RollLine,
        dice: Dice<'_>,
    ) -> Result<u64, CommandError>;
    fn view(&self, viewer: &Seat, whose: &Seat) -> Result<serde_json::Value, CommandError>;
    fn view_text(&self, viewer: &Seat, whose: &Seat) -> Result<String, CommandError>;
    fn legal(&self, seat: &Seat) -> Vec<CommandSpec>;
    fn status(&self, seat: &Seat) -> String;
    fn sheet_doc(&self, seat: &Seat) -> SheetDoc;
    fn odds(&self, seat: &Seat) -> Vec<ChoiceOdds>;
    fn default_seat(&self) -> Seat;
    fn finished(&self) -> bool;
    fn log_for(&self, seat: &Seat, after: u64) -> Vec<LogLine>;
    fn lines_since(&self, seat: &Seat, before: u64) -> Vec<LogLine>;
    fn raw_rows_after(&self, after: u64) -> Vec<RawRow>;
    fn first_held_seq(&self) -> u64;
    fn snapshot_kept(&mut self);
    fn state_seq(&self) -> u64;
    fn initial_state(&self) -> serde_json::Value;
    fn state(&self) -> serde_json::Value;
    fn roller(&self) -> &Seeded;
    fn initial_roller(&self) -> &Seeded;
    fn extend(&mut self, rows: &[RawRow]) -> Result<(), LoadError>;
    fn participants(&self) -> Vec<String>;
    /// Other names participants answer to, `(participant, name)`
    /// (`Policy::participant_names`).
    fn participant_names(&self) -> Vec<(String, String)>;
    fn awaiting(&self) -> Vec<Awaiting>;
    fn suggest_for(&self, awaiting: &Awaiting) -> Option<serde_json::Value>;
    fn report(&self) -> EncounterReport;
    fn sheets_after(&self) -> Vec<SheetAfter>;
}

/// JSON `v` as a `T`, or a [`LoadError::Json`] naming `what`.
fn read_json<T: serde::de::DeserializeOwned>(
    what: &str,
    v: &serde_json::Value,
) -> Result<T, LoadError> {
    T::deserialize(v).map_err(|e| LoadError::Json {
        what: what.to_string(),
        message: e.to_string(),
    })
}

/// Stored rows as system `S`'s journal rows.
fn typed_rows<S: System>(rows: &[RawRow]) -> Result<Vec<Row<S::Event>>, LoadError> {
    let mut typed = Vec::with_capacity(rows.len());
    for r in rows {
        let what = || format!("row {}", r.seq);
        typed.push(Row::<S::Event> {
            seq: r.seq,
            seat: Seat::parse(&r.seat),
            entry: read_json(&what(), &r.entry)?,
            command_end: r.command_end,
            roller: match &r.roller {
                Some(v) => Some(read_json(&what(), v)?),
                None => None,
            },
        });
    }
    Ok(typed)
}

fn json_err(e: serde_json::Error) -> CommandError {
    CommandError::Json {
        message: e.to_string(),
    }
}

impl<S> DynSession for Session<S>
where
    S: Policy + CharacterBook + Send + Sync + 'static,
    S::State: Send + Sync,
    S::Event: Send + Sync,
{
    fn seq(&self) -> u64 {
        Session::seq(self)
    }
    fn seats(&self) -> Vec<Seat> {
        Session::seats(self)
    }
    fn resolve_seat(&self, name: &str) -> Result<Seat, CommandError> {
        Session::resolve_seat(self, name)
    }
    fn commands(&self) -> &'static [CommandDoc] {
        S::COMMANDS
    }
    fn sheet(&self, seat: &Seat, name: Option<&str>) -> Result<String, CommandError> {
        self.check_seat(seat)?;
        Session::sheet(self, seat, name)
    }
    fn knows_command(&self, seat: &Seat, text: &str) -> bool {
        let first = text.split_whitespace().next().unwrap_or("");
        if tabula_core::system::find_command(S::COMMANDS, first).is_some() {
            return true;
        }
        !matches!(
            self.parse(seat, text),
            Err(CommandError::Parse(
                tabula_core::system::CommandParseError::Unknown { .. }
            ))
        )
    }
    fn submit_text(
        &mut self,
        seat: &Seat,
        text: &str,
        dice: Dice<'_>,
        sheets: &dyn SheetFiles,
    ) -> Result<u64, CommandError> {
        self.check_seat(seat)?;
        let command = self.parse_with(seat, text, sheets)?;
        submit_command(self, seat, &command, dice)
    }
    fn submit_json(
        &mut self,
        seat: &Seat,
        command: &serde_json::Value,
        dice: Dice<'_>,
    ) -> Result<u64, CommandError> {
        self.check_seat(seat)?;
        let command: S::Command = serde_json::from_value(command.clone()).map_err(json_err)?;
        submit_command(self, seat, &command, dice)
    }
    fn undo(&mut self, seat: &Seat) -> Result<u64, CommandError> {
        Session::undo(self, seat).map(|r| r.seq)
    }
    fn parses(&self, seat: &Seat, text: &str) -> bool {
        self.parse(seat, text).is_ok()
    }
    fn talk(&mut self, seat: &Seat, talk: Talk) -> Result<u64, CommandError> {
        Session::talk(self, seat, talk).map(|r| r.seq)
    }
    fn free_roll(
        &mut self,
        seat: &Seat,
        line: &RollLine,
        dice: Dice<'_>,
    ) -> Result<u64, CommandError> {
        match dice {
            Dice::Table => Session::free_roll(self, seat, line, None, false),
            Dice::Manual(r) => Session::free_roll(self, seat, line, Some(r), false),
            Dice::Typed(values) => {
                let mut typed = tabula_core::Manual::from_values(values.iter().cloned());
                Session::free_roll(self, seat, line, Some(&mut typed), true)
            }
        }
        .map(|r| r.seq)
    }
    fn view(&self, viewer: &Seat, whose: &Seat) -> Result<serde_json::Value, CommandError> {
        self.check_seat(whose)?;
        let v = self.view_of(viewer, whose)?;
        serde_json::to_value(v).map_err(json_err)
    }
    fn view_text(&self, viewer: &Seat, whose: &Seat) -> Result<String, CommandError> {
        self.check_seat(whose)?;
        let v = self.view_of(viewer, whose)?;
        serde_json::to_string(&v).map_err(json_err)
    }
    fn legal(&self, seat: &Seat) -> Vec<CommandSpec> {
        Session::legal(self, seat)
    }
    fn status(&self, seat: &Seat) -> String {
        Session::status(self, seat)
    }
    fn sheet_doc(&self, seat: &Seat) -> SheetDoc {
        S::sheet_doc(self.state(), seat)
    }
    fn odds(&self, seat: &Seat) -> Vec<ChoiceOdds> {
        Session::odds(self, seat)
    }
    fn default_seat(&self) -> Seat {
        Session::default_seat(self)
    }
    fn finished(&self) -> bool {
        Session::finished(self)
    }
    fn log_for(&self, seat: &Seat, after: u64) -> Vec<LogLine> {
        Session::log_for(self, seat, after)
    }
    fn lines_since(&self, seat: &Seat, before: u64) -> Vec<LogLine> {
        // Rows are kept in seq order: find the first after `before` by binary
        // search, not a scan of the whole journal (issue 28: 19% of the
        // server's CPU at 50,000 rows went to that scan).
        let all = self.rows();
        let rows: Vec<_> = all[all.partition_point(|r| r.seq <= before)..].to_vec();
        // Events before an undo among several rows are described in the
        // states the undo took back, which only a replay has. An undo alone
        // (the GM's command) is described without one: its line names the
        // row it went back to and nothing of the state (issue 28: the replay
        // made an undo's cost grow with the rows held, and with the undos
        // among them).
        if rows.len() > 1 && rows.iter().any(|r| matches!(r.entry, Entry::Undo { .. })) {
            return Session::log_for(self, seat, before);
        }
        self.lines_for(&rows, seat)
    }
    fn state_seq(&self) -> u64 {
        self.rows()
            .iter()
            .rev()
            .find(|r| matches!(r.entry, Entry::Event { .. } | Entry::Undo { .. }))
            .map_or_else(|| self.first_held_seq().saturating_sub(1), |r| r.seq)
    }
    fn raw_rows_after(&self, after: u64) -> Vec<RawRow> {
        let all = self.rows();
        all[all.partition_point(|r| r.seq <= after)..]
            .iter()
            .map(|r| RawRow {
                seq: r.seq,
                seat: seat_key(&r.seat),
                entry: serde_json::to_value(&r.entry).unwrap_or(serde_json::Value::Null),
                command_end: r.command_end,
                roller: r.roller.as_ref().and_then(|x| serde_json::to_value(x).ok()),
            })
            .collect()
    }
    fn first_held_seq(&self) -> u64 {
        Session::first_held_seq(self)
    }
    fn snapshot_kept(&mut self) {
        Session::snapshot_kept(self);
    }
    fn initial_state(&self) -> serde_json::Value {
        serde_json::to_value(Session::initial_state(self)).unwrap_or(serde_json::Value::Null)
    }
    fn state(&self) -> serde_json::Value {
        serde_json::to_value(Session::state(self)).unwrap_or(serde_json::Value::Null)
    }
    fn roller(&self) -> &Seeded {
        Session::roller(self)
    }
    fn initial_roller(&self) -> &Seeded {
        Session::initial_roller(self)
    }
    fn extend(&mut self, rows: &[RawRow]) -> Result<(), LoadError> {
        Session::extend(self, typed_rows::<S>(rows)?)?;
        Ok(())
    }
    fn participants(&self) -> Vec<String> {
        S::report(Session::state(self))
            .participants
            .into_iter()
            .map(|p| p.name)
            .collect()
    }
    fn participant_names(&self) -> Vec<(String, String)> {
        <S as Policy>::participant_names(Session::state(self))
    }
    fn awaiting(&self) -> Vec<Awaiting> {
        if Session::finished(self) {
            return Vec::new();
        }
        S::awaiting(Session::state(self))
    }
    fn suggest_for(&self, awaiting: &Awaiting) -> Option<serde_json::Value> {
        S::suggest_for(Session::state(self), awaiting).and_then(|c| serde_json::to_value(c).ok())
    }
    fn report(&self) -> EncounterReport {
        S::report(Session::state(self))
    }
    fn sheets_after(&self) -> Vec<SheetAfter> {
        S::sheets_after(Session::state(self))
    }
}

/// Give `command` to `session` with the dice `dice` says; the new seq.
fn submit_command<S: TextPlay>(
    session: &mut Session<S>,
    seat: &Seat,
    command: &S::Command,
    dice: Dice<'_>,
) -> Result<u64, CommandError> {
    let manual = match dice {
        Dice::Table => None,
        Dice::Manual(r) => Some(r),
        Dice::Typed(values) => {
            session.submit_typed(seat, command, values)?;
            return Ok(session.seq());
        }
    };
    session.submit(seat, command, manual)?;
    Ok(session.seq())
}

/// `typed` resolved among `participants` ([`tabula_core::names::resolve`]);
/// a name that fits none is tried again with its spaces as hyphens, since a
/// system may name participants by their ids (`the-boss` for "The Boss").
///
/// A name that fits no participant is then looked up among the other names
/// participants answer to (`names`, `(participant, name)`: a character's
/// display name where the system names participants by ids), again with
/// the one [`tabula_core::names::resolve`].
fn resolve_participant(
    participants: &[String],
    names: &[(String, String)],
    typed: &str,
) -> Result<String, CommandError> {
    let all = || participants.iter().map(String::as_str);
    match tabula_core::names::resolve("participant", typed, all()) {
        Ok(name) => Ok(name.to_string()),
        Err(e) => {
            let hyphened = typed.split_whitespace().collect::<Vec<_>>().join("-");
            if let Ok(name) = tabula_core::names::resolve("participant", &hyphened, all()) {
                return Ok(name.to_string());
            }
            // A name that starts several participants' ids stays ambiguous.
            if matches!(e, tabula_core::names::NameLookupError::Ambiguous { .. }) {
                return Err(CommandError::Parse(e.into()));
            }
            let other = names.iter().map(|(_, n)| n.as_str());
            match tabula_core::names::resolve("participant", typed, other) {
                Ok(name) => names
                    .iter()
                    .find(|(_, n)| n.as_str() == name)
                    .map(|(p, _)| p.clone())
                    .ok_or_else(|| CommandError::Parse(e.into())),
                Err(ambiguous @ tabula_core::names::NameLookupError::Ambiguous { .. }) => {
                    Err(CommandError::Parse(ambiguous.into()))
                }
                Err(_) => Err(CommandError::Parse(e.into())),
            }
        }
    }
}

/// A table of any of the five systems, in play (see the module docs).
pub struct AnyTable {
    system: SystemId,
    inner: Box<dyn DynSession>,
    /// Participants handed to the system's policy (`auto NAME`), as named
    /// in the table. Not stored: a restarted table starts with none.
    autopilot: Vec<String>,
    /// Who may type dice (the table setting `dice`).
    dice: DiceSetting,
    /// Whose meaning free notation has (the table setting `dice_dialect`).
    dice_dialect: Dialect,
    /// Where a line's `add FILE.toml` reads its sheet when no files came
    /// with it: the table file's directory at the terminal
    /// ([`AnyTable::read_sheets_from`]); `None` on the server, which reads
    /// only the files a request sends. Not stored.
    sheet_dir: Option<std::path::PathBuf>,
}

impl std::fmt::Debug for AnyTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnyTable")
            .field("system", &self.system)
            .field("seq", &self.inner.seq())
            .finish_non_exhaustive()
    }
}

impl AnyTable {
    /// Set up a new table of `system` from its table file's text; the sheets it
    /// names come from `files`. The table rolls with `roller`.
    ///
    /// # Errors
    /// [`SetupFailure`] with the system's message naming the broken field.
    pub fn setup(
        system: SystemId,
        text: &str,
        files: &dyn SheetFiles,
        roller: Seeded,
    ) -> Result<AnyTable, SetupFailure> {
        AnyTable::setup_with(system, text, files, roller, ChosenSettings::default())
    }

    /// [`AnyTable::setup`] with settings chosen beside the table file (the
    /// lobby's, the API's, `tabula table new --dice-dialect`): each one
    /// given wins over the file's own `dice` or `dice_dialect` (issue 30,
    /// item 3). The file's text is read as it is, so the book's errors name
    /// its own lines.
    ///
    /// # Errors
    /// [`SetupFailure`] with the system's message naming the broken field.
    pub fn setup_with(
        system: SystemId,
        text: &str,
        files: &dyn SheetFiles,
        roller: Seeded,
        chosen: ChosenSettings,
    ) -> Result<AnyTable, SetupFailure> {
        let fail = |e: &dyn std::fmt::Display| SetupFailure {
            system,
            message: e.to_string(),
        };
        let (settings, text) = split_table_settings(text).map_err(|e| fail(&e))?;
        let settings = settings.with(chosen);
        let text: &str = &text;
        let inner: Box<dyn DynSession> = dispatch!(system, S => {
            let state = <S as TextPlay>::setup(text, files).map_err(|e| fail(&e))?;
            Box::new(Session::<S>::new(state, roller))
        });
        Ok(AnyTable {
            system,
            inner,
            autopilot: Vec::new(),
            dice: settings.dice,
            dice_dialect: settings.dice_dialect,
            sheet_dir: None,
        })
    }

    /// Rebuild a table from what the store keeps: its initial state, the roller
    /// it started with, and its journal rows.
    ///
    /// # Errors
    /// [`LoadError`] when the JSON is not this system's or the rows do not replay.
    pub fn restore(
        system: SystemId,
        initial_state: &serde_json::Value,
        initial_roller: &serde_json::Value,
        rows: &[RawRow],
    ) -> Result<AnyTable, LoadError> {
        Self::restore_from_snapshot(system, initial_state, initial_roller, None, rows)
    }

    /// [`AnyTable::restore`] from a snapshot the store kept: `snapshot` is `(seq,
    /// state)`, the table's state (as [`AnyTable::state`] gave it) right after row
    /// `seq`. Rows `1..=seq` are read back into the journal without replaying them
    /// through the rules; the rows after are replayed
    /// ([`Session::restore_from_snapshot`]). The result equals
    /// [`AnyTable::restore`]'s whenever the snapshot is that replay's state.
    ///
    /// Not faster than [`AnyTable::restore`] today: every row is still parsed
    /// (most of a load's time) and the rules' table is rebuilt through its
    /// serialized form, which costs more than the evolving it saves
    /// (docs/BENCHMARKS.md). It pays off once the rows before the snapshot
    /// need not be read at all.
    ///
    /// # Errors
    /// As [`AnyTable::restore`]; also [`LoadError::Json`] when the snapshot is not
    /// this system's state.
    pub fn restore_from_snapshot(
        system: SystemId,
        initial_state: &serde_json::Value,
        initial_roller: &serde_json::Value,
        snapshot: Option<(u64, &serde_json::Value)>,
        rows: &[RawRow],
    ) -> Result<AnyTable, LoadError> {
        let inner: Box<dyn DynSession> = dispatch!(system, S => {
            let initial: <S as System>::State = read_json("initial state", initial_state)?;
            let roller: Seeded = read_json("roller", initial_roller)?;
            let snapshot = match snapshot {
                Some((seq, state)) => Some((seq, read_json("snapshot", state)?)),
                None => None,
            };
            let typed = typed_rows::<S>(rows)?;
            Box::new(Session::<S>::restore_from_snapshot(initial, roller, snapshot, typed)?)
        });
        let stored = read_json::<StoredDice>("roller", initial_roller)?;
        Ok(AnyTable {
            system,
            inner,
            autopilot: Vec::new(),
            dice: stored.dice,
            dice_dialect: stored.dice_dialect,
            sheet_dir: None,
        })
    }

    /// Rebuild a table from its latest snapshot and the rows from the
    /// snapshot's row on, without reading the rows before it (issue 28, item
    /// 1; [`Session::restore_tail`]): `snapshot` is `(seq, state)`, the state
    /// (as [`AnyTable::state`] gave it) right after row `seq`, and `rows` start
    /// at row `seq`. The table answers as [`AnyTable::restore`]'s would, except
    /// that [`AnyTable::raw_rows_after`] and [`AnyTable::log_for`] hold rows from
    /// [`AnyTable::first_held_seq`] on, and an undo back past the snapshot is
    /// refused with [`CommandError::OlderRowsNeeded`]: load the whole journal
    /// with [`AnyTable::restore`] then.
    ///
    /// # Errors
    /// [`LoadError`] when the JSON is not this system's, the rows do not start
    /// at the snapshot's row, or an undo after it goes back before it (load
    /// the whole journal instead).
    pub fn restore_tail(
        system: SystemId,
        initial_state: &serde_json::Value,
        initial_roller: &serde_json::Value,
        snapshot: (u64, &serde_json::Value),
        rows: &[RawRow],
    ) -> Result<AnyTable, LoadError> {
        let inner: Box<dyn DynSession> = dispatch!(system, S => {
            let initial: <S as System>::State = read_json("initial state", initial_state)?;
            let roller: Seeded = read_json("roller", initial_roller)?;
            let state = read_json("snapshot", snapshot.1)?;
            let typed = typed_rows::<S>(rows)?;
            Box::new(Session::<S>::restore_tail(initial, roller, (snapshot.0, state), typed)?)
        });
        let stored = read_json::<StoredDice>("roller", initial_roller)?;
        Ok(AnyTable {
            system,
            inner,
            autopilot: Vec::new(),
            dice: stored.dice,
            dice_dialect: stored.dice_dialect,
            sheet_dir: None,
        })
    }

    /// Tell the table that the store now keeps a snapshot of its current
    /// state: from the second time on, it forgets the rows before the
    /// previous snapshot ([`Session::snapshot_kept`]; issue 28: memory and
    /// undo that do not grow with the evening). [`AnyTable::first_held_seq`]
    /// moves on; an undo back past it is refused with
    /// [`CommandError::OlderRowsNeeded`].
    pub fn snapshot_kept(&mut self) {
        self.inner.snapshot_kept();
    }

    /// The seq of the first journal row this table holds in memory: 1, or the
    /// snapshot's row for a table loaded with [`AnyTable::restore_tail`] (or
    /// trimmed by [`AnyTable::snapshot_kept`]).
    /// [`AnyTable::raw_rows_after`]`(after)` is the whole answer only when
    /// `after + 1 >= first_held_seq()`.
    pub fn first_held_seq(&self) -> u64 {
        self.inner.first_held_seq()
    }

    /// The seq of the latest row that may have changed the rules' state: the
    /// state is the one right after that row (0: the initial state). Rows of
    /// table talk and free rolls after it change nothing in the state
    /// ([`crate::session::Entry::Talk`], [`crate::session::Entry::Roll`]), so
    /// every view and sheet of the table is the same at any seq with the same
    /// `state_seq` (issue 28: a follower's update skips remaking them).
    /// Walks back over the trailing talk and rolls only.
    pub fn state_seq(&self) -> u64 {
        self.inner.state_seq()
    }

    /// The sheet of every character at the table as the encounter leaves it
    /// (`CharacterBook::sheets_after`): the book's lasting changes applied,
    /// encounter-only state as a new encounter starts it. Each validates.
    pub fn sheets_after(&self) -> Vec<SheetAfter> {
        self.inner.sheets_after()
    }

    /// Every participant (character, group, side) by its name in the table,
    /// in the table's order: the names `auto` takes.
    pub fn participants(&self) -> Vec<String> {
        self.inner.participants()
    }

    /// Who the table waits on now ([`Policy::awaiting`]); empty once the
    /// encounter is over.
    pub fn awaiting(&self) -> Vec<Awaiting> {
        self.inner.awaiting()
    }

    /// The system policy's command for `seat` now, as the system's command
    /// JSON ([`Policy::suggest`]); `None` when the table waits on nothing
    /// from `seat`. A seat sees only suggestions for itself, and a policy
    /// reads only what that seat may know.
    pub fn suggest(&self, seat: &Seat) -> Option<serde_json::Value> {
        self.inner
            .awaiting()
            .iter()
            .filter(|a| a.seat.same_seat(seat))
            .find_map(|a| self.inner.suggest_for(a))
    }

    /// How the encounter stands ([`Policy::report`]): sides, winner, round,
    /// who is taken out and their resources.
    pub fn report(&self) -> EncounterReport {
        self.inner.report()
    }

    /// The participants on autopilot, as named in the table.
    pub fn autopilot(&self) -> &[String] {
        &self.autopilot
    }

    /// Hand `name` to the system's policy (`on`) or take it back; the GM's
    /// alone (`auto NAME`, `auto off NAME`). Returns the participant's name
    /// as the table writes it. Nothing is played until
    /// [`AnyTable::autopilot_step`].
    ///
    /// # Errors
    /// [`CommandError::GmOnly`] for a player seat; [`CommandError::Parse`]
    /// with the participants there are when `name` fits none or several.
    pub fn set_autopilot(
        &mut self,
        seat: &Seat,
        name: &str,
        on: bool,
    ) -> Result<String, CommandError> {
        if !seat.is_gm() {
            return Err(CommandError::GmOnly {
                what: "hand a participant to the autopilot".into(),
            });
        }
        let found =
            resolve_participant(&self.participants(), &self.inner.participant_names(), name)?;
        self.autopilot
            .retain(|n| !tabula_core::names::same_name(n, &found));
        if on {
            self.autopilot.push(found.clone());
        }
        Ok(found)
    }

    /// Let the system's policy give `participant`'s command now, as `seat`
    /// (the seat that gives that participant's commands: the GM for an NPC,
    /// a player for their own character), with `dice`. Returns the
    /// participant's name as the table writes it and what was accepted.
    ///
    /// # Errors
    /// [`CommandError::Parse`] for a name that is no participant;
    /// [`CommandError::NotAwaited`] when the table is not waiting on that
    /// participant from `seat`; [`CommandError::NoSuggestion`] when the
    /// policy has nothing legal; the refusal of the command itself.
    pub fn policy_step(
        &mut self,
        seat: &Seat,
        participant: &str,
        dice: Dice<'_>,
    ) -> Result<(String, Accepted), CommandError> {
        let name = resolve_participant(
            &self.participants(),
            &self.inner.participant_names(),
            participant,
        )?;
        let awaiting = self.inner.awaiting();
        let Some(a) = awaiting.iter().find(|a| {
            a.seat.same_seat(seat)
                && a.participant
                    .as_deref()
                    .is_some_and(|p| tabula_core::names::same_name(p, &name))
        }) else {
            return Err(CommandError::NotAwaited {
                participant: name,
                awaiting: awaiting
                    .iter()
                    .map(|a| match &a.participant {
                        Some(p) => format!("{} ({p})", a.seat),
                        None => a.seat.to_string(),
                    })
                    .collect(),
            });
        };
        let command = self
            .inner
            .suggest_for(a)
            .ok_or_else(|| CommandError::NoSuggestion {
                participant: name.clone(),
            })?;
        let accepted = self.submit_json(seat, &command, dice)?;
        Ok((name, accepted))
    }

    /// Give one command for the first participant on autopilot that the
    /// table waits on, as the policy suggests, with `dice`. Returns the
    /// participant, the seat that gave it and what was accepted (as that
    /// seat sees it), or `None` when the table waits on nobody on autopilot
    /// (or the encounter is over).
    ///
    /// # Errors
    /// The [`CommandError`] of [`AnyTable::policy_step`] (a refused
    /// suggestion is a policy bug: that participant's autopilot is switched
    /// off so play can go on), or a withdrawn manual roll.
    pub fn autopilot_step(
        &mut self,
        dice: Dice<'_>,
    ) -> Result<Option<(String, Seat, Accepted)>, CommandError> {
        if self.autopilot.is_empty() || self.finished() {
            return Ok(None);
        }
        let awaiting = self.inner.awaiting();
        let Some((name, seat)) = awaiting.iter().find_map(|a| {
            let p = a.participant.as_deref()?;
            self.autopilot
                .iter()
                .find(|n| tabula_core::names::same_name(n, p))
                .map(|n| (n.clone(), a.seat.clone()))
        }) else {
            return Ok(None);
        };
        match self.policy_step(&seat, &name, dice) {
            Ok((_, acc)) => Ok(Some((name, seat, acc))),
            Err(CommandError::NoSuggestion { .. }) => {
                self.autopilot.retain(|n| *n != name);
                Ok(None)
            }
            Err(e) => {
                self.autopilot.retain(|n| *n != name);
                Err(e)
            }
        }
    }

    /// Append rows another server wrote after this table's last row (the store's
    /// entries after [`AnyTable::seq`]), replaying them, so the table catches up
    /// without being rebuilt.
    ///
    /// # Errors
    /// [`LoadError`] when the rows are not this system's or do not follow on; the
    /// table then holds the rows before the bad one (rebuild it from the store).
    pub fn extend(&mut self, rows: &[RawRow]) -> Result<(), LoadError> {
        self.inner.extend(rows)
    }

    /// Which system this table plays.
    pub fn system(&self) -> SystemId {
        self.system
    }

    /// The sequence number of the last journal row (0 at the start).
    pub fn seq(&self) -> u64 {
        self.inner.seq()
    }

    /// Every seat: the GM first, then the players.
    pub fn seats(&self) -> Vec<Seat> {
        self.inner.seats()
    }

    /// The seat a typed name means, without regard to case.
    ///
    /// # Errors
    /// [`CommandError::UnknownSeat`] listing the seats.
    pub fn resolve_seat(&self, name: &str) -> Result<Seat, CommandError> {
        self.inner.resolve_seat(name)
    }

    /// True when this system has a command named by the first word of `text`
    /// (whether or not its arguments are right): the driver's own words never
    /// shadow a book command.
    pub fn knows_command(&self, seat: &Seat, text: &str) -> bool {
        self.inner.knows_command(seat, text)
    }

    /// Every command of this table's system, for `help` and the command
    /// reference ([`TextPlay::COMMANDS`]).
    pub fn commands(&self) -> &'static [CommandDoc] {
        self.inner.commands()
    }

    /// The character sheet of `name`, or of `seat`'s own characters, as
    /// `seat` may read it ([`TextPlay::sheet`]): plain text.
    ///
    /// # Errors
    /// [`CommandError::UnknownSeat`] when `seat` is not at this table;
    /// [`CommandError::Parse`] listing the characters when `name` is none.
    pub fn sheet(&self, seat: &Seat, name: Option<&str>) -> Result<String, CommandError> {
        self.inner.sheet(seat, name)
    }

    /// Give a command typed as text by `seat` (the same syntax as a `play` line,
    /// without the seat prefix). Returns what happened as `seat` may see it.
    ///
    /// # Errors
    /// [`CommandError`]; nothing changes.
    pub fn submit_text(
        &mut self,
        seat: &Seat,
        text: &str,
        dice: Dice<'_>,
    ) -> Result<Accepted, CommandError> {
        match self.sheet_dir.clone() {
            Some(dir) => self.submit_text_with(seat, text, dice, &dir),
            None => self.submit_text_with(seat, text, dice, &NoSheets),
        }
    }

    /// Let a line's `add FILE.toml` read its sheet from `dir` (a path
    /// relative to it, capped as every sheet read is): the terminal's
    /// `play` passes the table file's directory, as the table file's own
    /// `file = ...` sheets are read (issue 27, item 6).
    pub fn read_sheets_from(&mut self, dir: std::path::PathBuf) {
        self.sheet_dir = Some(dir);
    }

    /// [`AnyTable::submit_text`] with the character sheet files sent along
    /// with the line, by name: a GM's `add FILE.toml [as NAME] [to SEAT]`
    /// brings in the character of that sheet (issue 27, item 6; the files
    /// are read only while the line is read, and the event carries the whole
    /// character, so nothing of them is kept).
    ///
    /// # Errors
    /// [`CommandError`] (a missing or broken sheet is
    /// [`CommandError::Parse`] with [`tabula_core::system::CommandParseError::Sheet`]);
    /// nothing changes.
    pub fn submit_text_with(
        &mut self,
        seat: &Seat,
        text: &str,
        dice: Dice<'_>,
        sheets: &dyn SheetFiles,
    ) -> Result<Accepted, CommandError> {
        self.check_dice(seat, &dice)?;
        let before = self.seq();
        match table_word(text) {
            // The book's command of the same name wins (`docs/COMMANDS.md`);
            // `/say`, `/roll` are always the table's.
            Some(w) if w.slashed || !self.inner.knows_command(seat, text) => {
                self.table_line(seat, w, dice)?;
            }
            // Tiers' `roll` is the book's check; a line the book cannot read
            // but the dice notation can is a free roll.
            Some(
                w @ TableWord {
                    kind: TableWordKind::Roll,
                    ..
                },
            ) if !self.inner.parses(seat, text) && read_roll(w.rest, self.dice_dialect).is_ok() => {
                self.table_line(seat, w, dice)?;
            }
            _ => {
                self.inner.submit_text(seat, text, dice, sheets)?;
            }
        }
        Ok(self.accepted(seat, before))
    }

    /// Carry out a table word's line ([`crate::talk`]): talk or a free roll.
    fn table_line(
        &mut self,
        seat: &Seat,
        w: TableWord<'_>,
        dice: Dice<'_>,
    ) -> Result<u64, CommandError> {
        match w.kind {
            TableWordKind::Roll => {
                let line = read_roll(w.rest, self.dice_dialect).map_err(CommandError::Talk)?;
                self.inner.free_roll(seat, &line, dice)
            }
            TableWordKind::Talk(voice) => {
                let (to, text) = match voice {
                    Voice::Whisper => {
                        let (name, text) = split_whisper(w.rest).map_err(CommandError::Talk)?;
                        (Some(self.resolve_seat(name)?), text)
                    }
                    _ => (None, w.rest),
                };
                self.inner.talk(
                    seat,
                    Talk {
                        voice,
                        text: text.to_string(),
                        to,
                    },
                )
            }
        }
    }

    /// Give a command as the system's command JSON.
    ///
    /// # Errors
    /// [`CommandError::Json`] when it is not this system's command, or any
    /// other [`CommandError`]; nothing changes.
    pub fn submit_json(
        &mut self,
        seat: &Seat,
        command: &serde_json::Value,
        dice: Dice<'_>,
    ) -> Result<Accepted, CommandError> {
        self.check_dice(seat, &dice)?;
        let before = self.seq();
        self.inner.submit_json(seat, command, dice)?;
        Ok(self.accepted(seat, before))
    }

    /// Take back the last command, the roller with it (the GM's alone).
    ///
    /// # Errors
    /// [`CommandError::GmOnly`], [`CommandError::NothingToUndo`].
    pub fn undo(&mut self, seat: &Seat) -> Result<Accepted, CommandError> {
        let before = self.seq();
        self.inner.undo(seat)?;
        Ok(self.accepted(seat, before))
    }

    /// Who may type dice at this table (the table setting `dice`).
    pub fn dice_setting(&self) -> DiceSetting {
        self.dice
    }

    /// Whose meaning free dice notation has at this table: the table setting
    /// `dice_dialect` (issue 30, item 3; `d20` when the file has none).
    pub fn dice_dialect(&self) -> Dialect {
        self.dice_dialect
    }

    /// Refuse a player's typed values at a `dice = "table"` table (issue 28,
    /// item 6); the GM may type the GM's own.
    fn check_dice(&self, seat: &Seat, dice: &Dice<'_>) -> Result<(), CommandError> {
        match (self.dice, dice) {
            (DiceSetting::Table, Dice::Typed(_)) if !seat.is_gm() => Err(CommandError::TableDice),
            _ => Ok(()),
        }
    }

    fn accepted(&self, seat: &Seat, before: u64) -> Accepted {
        Accepted {
            seq: self.seq(),
            events: self.inner.lines_since(seat, before),
        }
    }

    /// The log lines after `before` as `seat` may see them (after a command,
    /// what to push to each seat).
    pub fn lines_since(&self, seat: &Seat, before: u64) -> Vec<LogLine> {
        self.inner.lines_since(seat, before)
    }

    /// `whose` view as `viewer` may see it, as JSON: a player only its own.
    ///
    /// # Errors
    /// [`CommandError::NotYourView`], [`CommandError::UnknownSeat`].
    pub fn view(&self, viewer: &Seat, whose: &Seat) -> Result<serde_json::Value, CommandError> {
        self.inner.view(viewer, whose)
    }

    /// [`AnyTable::view`] as JSON text, written straight from the book's
    /// view (no [`serde_json::Value`] in between): what a WebSocket update
    /// sends (issue 28).
    ///
    /// # Errors
    /// As [`AnyTable::view`].
    pub fn view_text(&self, viewer: &Seat, whose: &Seat) -> Result<String, CommandError> {
        self.inner.view_text(viewer, whose)
    }

    /// What `seat` may do now, with each command's parameters.
    pub fn legal(&self, seat: &Seat) -> Vec<CommandSpec> {
        self.inner.legal(seat)
    }

    /// Whose turn it is and what `seat` should know, in the book's words.
    pub fn status(&self, seat: &Seat) -> String {
        self.inner.status(seat)
    }

    /// Every character's sheet and the table's facts as `seat` may see them
    /// ([`TextPlay::sheet_doc`]): the one description the page, the command
    /// line and the text sheet draw (issue 26, item 2). A seat not at the
    /// table gets what a stranger may see: no hand, no hidden pool.
    pub fn sheet_doc(&self, seat: &Seat) -> SheetDoc {
        self.inner.sheet_doc(seat)
    }

    /// The odds the system offers `seat` for the choice in front of it.
    pub fn odds(&self, seat: &Seat) -> Vec<ChoiceOdds> {
        self.inner.odds(seat)
    }

    /// The seat whose turn it is.
    pub fn default_seat(&self) -> Seat {
        self.inner.default_seat()
    }

    /// True when the encounter is over.
    pub fn finished(&self) -> bool {
        self.inner.finished()
    }

    /// The log after row `after`, as `seat` may see it.
    pub fn log_for(&self, seat: &Seat, after: u64) -> Vec<LogLine> {
        self.inner.log_for(seat, after)
    }

    /// The journal rows after `after`, for the store (hidden cards and roller
    /// included: never send these to a seat).
    pub fn raw_rows_after(&self, after: u64) -> Vec<RawRow> {
        self.inner.raw_rows_after(after)
    }

    /// The initial state as JSON, for the store (holds every hidden card).
    pub fn initial_state(&self) -> serde_json::Value {
        self.inner.initial_state()
    }

    /// The current state as JSON, for a save file's check (holds every hidden card).
    pub fn state(&self) -> serde_json::Value {
        self.inner.state()
    }

    /// The roller as it is now, as JSON (the GM's secret).
    pub fn roller(&self) -> serde_json::Value {
        serde_json::to_value(self.inner.roller()).unwrap_or(serde_json::Value::Null)
    }

    /// The roller the table started with, as JSON (the GM's secret).
    ///
    /// Carries the table setting `dice` beside the roller's own fields when it
    /// is `table` (the roller is how the table rolls; older tables, without
    /// it, are `players`), and `dice_dialect` when it is not `d20`.
    pub fn initial_roller(&self) -> serde_json::Value {
        let mut v =
            serde_json::to_value(self.inner.initial_roller()).unwrap_or(serde_json::Value::Null);
        if let Some(o) = v.as_object_mut() {
            if self.dice != DiceSetting::Players {
                o.insert("dice".into(), self.dice.as_str().into());
            }
            if !self.dice_dialect.is_d20() {
                o.insert("dice_dialect".into(), self.dice_dialect.as_str().into());
            }
        }
        v
    }
}

/// A table saved to a file (`play --save`): everything [`AnyTable::restore`]
/// needs, plus the current state to check the replay against. The GM's file:
/// it holds every hidden card and the roller's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveFile {
    /// The system id, checked when the file is loaded.
    pub system: String,
    /// The format's version (1).
    pub format: u32,
    /// The initial state.
    pub initial_state: serde_json::Value,
    /// The roller the table started with.
    pub initial_roller: serde_json::Value,
    /// The journal.
    pub rows: Vec<RawRow>,
    /// The state after the journal, which the replay must rebuild exactly.
    pub state: serde_json::Value,
}

/// A save file could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    /// The file is not a Tabula save.
    #[error("not a Tabula save file: {0}")]
    NotASave(String),
    /// The file saves another system's table.
    #[error(
        "this is a save of a {found} table, not {expected}; play it with `tabula {found} play`"
    )]
    OtherSystem {
        /// The system asked for.
        expected: String,
        /// The system in the file.
        found: String,
    },
    /// The file's rows do not replay, or the replay disagrees with the stored state.
    #[error(transparent)]
    Load(#[from] LoadError),
}

impl SaveFile {
    /// The save of `table`.
    pub fn of(table: &AnyTable) -> SaveFile {
        SaveFile {
            system: table.system().id().to_string(),
            format: 1,
            initial_state: table.initial_state(),
            initial_roller: table.initial_roller(),
            rows: table.raw_rows_after(0),
            state: table.state(),
        }
    }

    /// Read a save file's text for `system`, replay it and check the replay
    /// against the stored state.
    ///
    /// # Errors
    /// [`SaveError`]: not a save, another system's save (named), rows that do
    /// not replay, or a replay that disagrees with the stored state.
    pub fn load(system: SystemId, text: &str) -> Result<AnyTable, SaveError> {
        let probe: serde_json::Value =
            serde_json::from_str(text).map_err(|e| SaveError::NotASave(e.to_string()))?;
        let found = probe
            .get("system")
            .and_then(|s| s.as_str())
            .ok_or_else(|| SaveError::NotASave("no \"system\" field".into()))?
            .to_string();
        if found != system.id() {
            return Err(SaveError::OtherSystem {
                expected: system.id().to_string(),
                found,
            });
        }
        let save: SaveFile =
            serde_json::from_value(probe).map_err(|e| SaveError::NotASave(e.to_string()))?;
        let table = AnyTable::restore(
            system,
            &save.initial_state,
            &save.initial_roller,
            &save.rows,
        )?;
        if table.state() != save.state {
            return Err(SaveError::Load(LoadError::Restore(RestoreError::Disagrees)));
        }
        Ok(table)
    }
}
