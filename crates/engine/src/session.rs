//! A table in play: the rules' [`Table`], its append-only journal (every event and
//! every undo, each with a sequence number that is never reused), the seeded
//! roller, and the seat rules every front end shares (the terminal driver and the
//! server).
//!
//! # The journal
//!
//! Every accepted command appends one row per event; the last row of a command
//! is marked as the command's end and carries the seeded roller's state after it.
//! An undo (the GM's alone) appends one [`Entry::Undo`] row that names the
//! sequence number the table went back to, and the roller goes back with it:
//! undo is never a reroll, so the same command given again draws the same dice
//! and cards. Replaying the rows from the initial state rebuilds the table, its
//! undo history and the roller exactly ([`Session::restore`]); that is how a
//! saved file and the server's database bring a table back.
//!
//! # Seats
//!
//! A seat name is matched against [`TextPlay::seats`] without regard to case, and
//! a name that is no seat is refused with the list of seats. Undo is the GM's
//! alone. A player sees only its own [`System::view`](tabula_core::System::view); what the log shows each
//! seat goes through [`TextPlay::describe_for`] and [`TextPlay::event_for`].

use serde::{Deserialize, Serialize};

use tabula_core::names::NameLookupError;
use tabula_core::roller::Roller;
use tabula_core::rule::RuleError;
use tabula_core::system::{CommandParseError, CommandSpec, Seat, Table, TextPlay};
use tabula_core::{ChoiceOdds, Seeded};

/// The longest command text accepted, in bytes (a `play` line or a server
/// command's `text`).
pub const MAX_COMMAND_BYTES: usize = 4096;

/// The rows after which a table's journal takes no more commands (the last
/// command may pass it by its own events): a table that long is far past any
/// real session, start a new one.
pub const MAX_JOURNAL_ROWS: u64 = 1_000_000;

/// One row of the journal: an event, or an undo.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Entry<E> {
    /// An event the rules produced.
    Event {
        /// The event.
        event: E,
        /// True when the command's dice or cards were typed by the seat that
        /// gave it (values rolled or drawn at the real table, `rolled` on the
        /// server) rather than rolled by the table (issue 28, item 6). Absent
        /// in the stored JSON when false.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        typed: bool,
    },
    /// The GM took back the last command: the table went back to how it was
    /// right after row `back_to` (0: the start), roller included.
    Undo {
        /// The sequence number the table went back to.
        back_to: u64,
    },
    /// Table talk (`say`, `ooc`, `narrate`, `whisper`; issue 27, item 1):
    /// changes nothing in the rules' state, is never undone, and is seen
    /// only by the seats [`Talk::seen_by`] names.
    Talk {
        /// What was said, how, and to whom.
        talk: Talk,
    },
    /// A free roll of the dice notation (`roll EXPR [# reason]`; issue 27,
    /// item 2): changes nothing in the rules' state and is never undone; the
    /// row carries the roller after it.
    Roll {
        /// The expression, its outcome and who may see it.
        roll: FreeRoll,
    },
}

pub use crate::talk::{FreeRoll, MAX_TALK_CHARS, Talk, TalkError, Voice};

/// One journal row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(
    serialize = "E: Serialize",
    deserialize = "E: serde::de::DeserializeOwned"
))]
pub struct Row<E> {
    /// Position in the journal, from 1; never reused, not even after an undo.
    pub seq: u64,
    /// The seat whose command produced the row.
    pub seat: Seat,
    /// The event or the undo.
    pub entry: Entry<E>,
    /// True on the last row of a command (and on every undo row).
    pub command_end: bool,
    /// On a command's last row: the seeded roller's state after the command.
    /// The GM's secret: never sent to a seat.
    pub roller: Option<Seeded>,
}

/// Why a seat's command was refused. Nothing changed.
#[derive(Clone, Debug, PartialEq, Serialize, thiserror::Error)]
#[serde(tag = "error", rename_all = "kebab-case")]
pub enum CommandError {
    /// The name is no seat at this table.
    #[error("{name:?} is no seat at this table; the seats are {}", seats.join(", "))]
    UnknownSeat {
        /// The name given.
        name: String,
        /// The seats there are.
        seats: Vec<String>,
    },
    /// The name is the start of several seats' names.
    #[error("{name:?} could be the seat {}: type more of the name", matches.join(" or "))]
    AmbiguousSeat {
        /// The name given.
        name: String,
        /// The seats it could be.
        matches: Vec<String>,
    },
    /// Only the GM may do this (undo, another seat's view).
    #[error("only the GM may {what}")]
    GmOnly {
        /// What was asked.
        what: String,
    },
    /// A player asked for another seat's view.
    #[error("{seat} may see only their own view, not {other}'s")]
    NotYourView {
        /// The seat asking.
        seat: String,
        /// The seat asked about.
        other: String,
    },
    /// The command text is longer than [`MAX_COMMAND_BYTES`].
    #[error("a command may be at most {max} bytes")]
    TooLong {
        /// [`MAX_COMMAND_BYTES`].
        max: usize,
    },
    /// The command text could not be read.
    #[error("{0}")]
    Parse(CommandParseError),
    /// The command JSON is not a command of this system.
    #[error("not a command of this system: {message}")]
    Json {
        /// serde's words, naming the field.
        message: String,
    },
    /// The rules refused the command (or the dice given were short).
    #[error("{0}")]
    Rule(RuleError),
    /// Undo with nothing to undo.
    #[error("nothing to undo")]
    NothingToUndo,
    /// The undo goes back to a command before the rows this table holds in
    /// memory (it was loaded from a snapshot: [`Session::restore_tail`]).
    /// Nothing changed; the caller loads the whole journal
    /// ([`Session::restore`]) and undoes there. Issue 28, item 1.
    #[error("the undo goes back before the rows loaded: load the whole log and undo again")]
    OlderRowsNeeded,
    /// The policy was asked to play a participant the table is not waiting
    /// on, or one another seat gives.
    #[error("the table is not waiting on {participant} from this seat; it waits on {}", if awaiting.is_empty() { "nobody".to_string() } else { awaiting.join(", ") })]
    NotAwaited {
        /// The participant named.
        participant: String,
        /// Who the table waits on now (`SEAT (NAME)`).
        awaiting: Vec<String>,
    },
    /// The system's policy has no legal command for the participant now.
    #[error("the policy has no command for {participant} now")]
    NoSuggestion {
        /// The participant named.
        participant: String,
    },
    /// A player sent typed dice or cards at a table whose setting is
    /// `dice = "table"`: only the table rolls there (issue 28, item 6).
    #[error(
        "this table rolls every player's dice and cards itself (its setting dice = \"table\"): send the command without typed values"
    )]
    TableDice,
    /// The journal is full ([`MAX_JOURNAL_ROWS`]).
    #[error("this table's log is full ({max} rows); start a new table")]
    JournalFull {
        /// [`MAX_JOURNAL_ROWS`].
        max: u64,
    },
    /// A talk line or free roll could not be taken ([`TalkError`]).
    #[error("{0}")]
    Talk(TalkError),
}

/// Why stored rows could not be replayed into a table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    /// The rows are not numbered 1, 2, 3, ...
    #[error("row {got} is out of order (expected {expected})")]
    OutOfOrder {
        /// The sequence number expected.
        expected: u64,
        /// The one found.
        got: u64,
    },
    /// An undo row names a point the table was not at.
    #[error("row {seq}: undo back to {back_to} does not match the log (expected {expected})")]
    BadUndo {
        /// The undo row.
        seq: u64,
        /// What it says.
        back_to: u64,
        /// What the log says it should be.
        expected: u64,
    },
    /// A row could not be read (bad JSON).
    #[error("row {seq}: {message}")]
    Corrupt {
        /// The row.
        seq: u64,
        /// What is wrong.
        message: String,
    },
    /// The state rebuilt from the log is not the state the file stored.
    #[error(
        "the stored state disagrees with the replay of its log; the file was edited or is damaged"
    )]
    Disagrees,
    /// Loading from a snapshot ([`Session::restore_tail`]): an undo row after
    /// the snapshot goes back to a command before it, or the rows do not start
    /// at the snapshot's row. The caller replays the whole journal instead.
    #[error("row {seq}: the rows after the snapshot need older rows; replay the whole log")]
    NeedsOlderRows {
        /// The row that needs them.
        seq: u64,
    },
}

/// A point the table can be taken back to: right after a command.
#[derive(Clone, Debug, PartialEq)]
struct Boundary {
    seq: u64,
    events: usize,
    roller: Seeded,
}

/// One line of the log as one seat may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogLine {
    /// The row's sequence number.
    pub seq: u64,
    /// The seat the line is about: whose roll or move it is (a book may say
    /// it is another seat than the one whose command produced the row, such
    /// as the seat whose Divert is rolled when another seat's command closes
    /// the step; issue 27, bug 8), else the seat whose command produced it.
    pub seat: String,
    /// The seat whose command produced the row, when it is not `seat`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub given_by: Option<String>,
    /// `event`, `undo`, a talk line's voice (`say`, `ooc`, `narrate`,
    /// `whisper`) or `roll` (a free roll).
    pub kind: String,
    /// The event in words, with every die and card this seat may see.
    pub text: String,
    /// The event as JSON, as this seat may see it; absent when the seat may see
    /// nothing of it beyond the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<serde_json::Value>,
    /// True when the command's dice or cards were typed by the seat that gave
    /// it, not rolled by the table; the text then ends "(typed by SEAT)"
    /// (issue 28, item 6). Absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub typed: bool,
}

/// A table in play (see the module docs).
#[derive(Clone, Debug)]
pub struct Session<S: TextPlay> {
    table: Table<S>,
    rows: Vec<Row<S::Event>>,
    roller: Seeded,
    initial_roller: Seeded,
    boundaries: Vec<Boundary>,
    /// The state just after each row of the last command, to describe its
    /// lines without replaying the journal. The state after the latest row
    /// is the current state, and `append` does not keep a copy of it
    /// (`lines_for` reads the current state for that row; issue 28: a copy
    /// of the book's state per command was 3% of the server's CPU).
    recent: Vec<(u64, S::State)>,
    /// Set when the table was loaded from a snapshot ([`Session::restore_tail`]):
    /// the rows before the snapshot's are not held, and the rules' table starts
    /// at the snapshot's state. `None`: every row from 1 is held.
    tail: Option<Box<TailStart<S::State>>>,
    /// The latest row whose state the store keeps as a snapshot, with that
    /// state ([`Session::snapshot_kept`]): the next snapshot forgets the rows
    /// before this one.
    kept: Option<Box<(u64, S::State)>>,
}

/// Where a table loaded from a snapshot starts (issue 28, item 1): the rows up
/// to and including `seq` are in the store only, except row `seq` itself,
/// which is held (its roller and whether it ends a command are needed).
#[derive(Clone, Debug)]
struct TailStart<St> {
    /// The snapshot's row.
    seq: u64,
    /// The table's own initial state (before row 1), for
    /// [`Session::initial_state`].
    initial: St,
    /// The seeded roller right after row `seq`.
    roller: Seeded,
    /// True when row `seq` ends a command of the rules, so an undo may go
    /// back to it (the whole journal's replay would have an undo point there).
    undo_point: bool,
}

/// The rules' table with initial state `initial`, current state `state` and the live
/// events `live`, built through the table's serialized form (the rules' table has no
/// other way in than replaying); `None` if that form does not read back.
fn table_from_parts<S: TextPlay>(
    initial: &S::State,
    state: &S::State,
    live: &[(Seat, S::Event)],
) -> Option<Table<S>> {
    #[derive(Serialize)]
    struct Logged<'a, E> {
        seq: u64,
        seat: &'a Seat,
        event: &'a E,
    }
    #[derive(Serialize)]
    struct Log<'a, E> {
        entries: Vec<Logged<'a, E>>,
    }
    #[derive(Serialize)]
    struct Parts<'a, St, E> {
        initial: &'a St,
        state: &'a St,
        log: Log<'a, E>,
    }
    let entries = live
        .iter()
        .zip(1u64..)
        .map(|((seat, event), seq)| Logged { seq, seat, event })
        .collect();
    let parts = Parts {
        initial,
        state,
        log: Log { entries },
    };
    serde_json::to_value(&parts)
        .ok()
        .and_then(|v| serde_json::from_value(v).ok())
}

/// The stable text of a seat in stored rows and API answers: `gm` for the GM,
/// else the player's name.
pub fn seat_key(seat: &Seat) -> String {
    match seat {
        Seat::Gm => "gm".to_string(),
        Seat::Player(p) => p.clone(),
    }
}

impl<S: TextPlay> Session<S> {
    /// A new table from its initial state and the seeded roller it rolls with.
    pub fn new(initial: S::State, roller: Seeded) -> Self {
        Session {
            table: Table::new(initial),
            rows: Vec::new(),
            boundaries: vec![Boundary {
                seq: 0,
                events: 0,
                roller: roller.clone(),
            }],
            initial_roller: roller.clone(),
            roller,
            recent: Vec::new(),
            tail: None,
            kept: None,
        }
    }

    /// Rebuild a table from its latest snapshot and the rows from the
    /// snapshot's row on, without the older rows (issue 28, item 1: a long
    /// table loads in time and memory that do not grow with its log).
    /// `initial` and `initial_roller` are the table's own (before row 1);
    /// `snapshot` is `(seq, state)`, the state right after row `seq`; `rows`
    /// start at row `seq` itself (its roller is the roller at the snapshot).
    ///
    /// The table then holds rows `seq..`: [`Session::rows`] starts there,
    /// [`Session::log_for`] describes rows after `seq - 1` only, and an undo
    /// back past row `seq` is refused with [`CommandError::OlderRowsNeeded`]
    /// (the caller loads the whole journal with [`Session::restore`]). The
    /// snapshot is trusted as [`Session::restore_from_snapshot`] trusts it.
    ///
    /// # Errors
    /// [`RestoreError::NeedsOlderRows`] when `rows` do not start at the
    /// snapshot's row or it has no roller, or an undo row after it goes back
    /// before it; [`RestoreError`] as [`Session::restore`] for the rest.
    pub fn restore_tail(
        initial: S::State,
        initial_roller: Seeded,
        snapshot: (u64, S::State),
        rows: Vec<Row<S::Event>>,
    ) -> Result<Self, RestoreError> {
        let (at, state) = snapshot;
        let mut rows = rows.into_iter();
        let base = rows
            .next()
            .filter(|r| r.seq == at && at >= 1)
            .ok_or(RestoreError::NeedsOlderRows { seq: at })?;
        let roller = base
            .roller
            .clone()
            .ok_or(RestoreError::NeedsOlderRows { seq: at })?;
        let undo_point = base.command_end && matches!(base.entry, Entry::Event { .. });
        let tail = TailStart {
            seq: at,
            initial,
            roller,
            undo_point,
        };
        let mut s = Session::at_tail(state, initial_roller, Box::new(tail), base);
        for row in rows {
            s.replay_row(row)?;
        }
        Ok(s)
    }

    /// A table at the snapshot's row (`state` is the state after it) holding
    /// only that row: it is held but not replayed, and it is an undo point
    /// when it ends a command. [`Session::restore_tail`] replays the rows
    /// after it; [`Session::start`] starts a replay of what a table holds.
    fn at_tail(
        state: S::State,
        initial_roller: Seeded,
        tail: Box<TailStart<S::State>>,
        base: Row<S::Event>,
    ) -> Self {
        let boundaries = if tail.undo_point {
            vec![Boundary {
                seq: tail.seq,
                events: 0,
                roller: tail.roller.clone(),
            }]
        } else {
            Vec::new()
        };
        Session {
            table: Table::new(state),
            rows: vec![base],
            roller: tail.roller.clone(),
            initial_roller,
            boundaries,
            recent: Vec::new(),
            tail: Some(tail),
            kept: None,
        }
    }

    /// An empty replay of what this table holds: the table before row 1, or,
    /// loaded from a snapshot, the state at the snapshot's row with that row
    /// held.
    fn start(&self) -> Session<S> {
        match (&self.tail, self.rows.first()) {
            (Some(t), Some(base)) => Session::at_tail(
                self.table.initial().clone(),
                self.initial_roller.clone(),
                t.clone(),
                base.clone(),
            ),
            _ => Session::new(self.table.initial().clone(), self.initial_roller.clone()),
        }
    }

    /// Note that the store now keeps a snapshot of the current state (the
    /// state after the latest row), and forget the rows before the previous
    /// snapshot noted, as if the table had been loaded from that one
    /// ([`Session::restore_tail`]). Issue 28, "a long evening": a table played
    /// in a server's memory then holds the rows since its second-latest
    /// snapshot (about twice the store's `SNAPSHOT_EVERY`, 100 rows, plus the
    /// last command's), not every row since row 1, so neither its memory
    /// nor an undo (which replays the held events, [`Table::truncate`]) grows
    /// with the evening. An undo back past the held rows is refused with
    /// [`CommandError::OlderRowsNeeded`], as after a restart; the server then
    /// loads the whole journal.
    ///
    /// Nothing is forgotten unless the trimmed table replays to the same seq
    /// and state (an undo among the held rows that goes back before the
    /// previous snapshot keeps every row), and a latest row with no roller
    /// (not a command's end) is not noted: a snapshot's row must carry the
    /// roller to start from. The trim replays the held rows once, about every
    /// `SNAPSHOT_EVERY` commands.
    pub fn snapshot_kept(&mut self) {
        let seq = self.seq();
        if self.rows.last().is_none_or(|r| r.roller.is_none()) {
            return;
        }
        let now = Box::new((seq, self.table.state().clone()));
        let Some(previous) = self.kept.replace(now) else {
            return;
        };
        let (at, state) = *previous;
        if at <= self.first_held_seq() {
            return;
        }
        let from = self.rows.partition_point(|r| r.seq < at);
        let rows = self.rows[from..].to_vec();
        let trimmed = Session::restore_tail(
            self.initial_state().clone(),
            self.initial_roller.clone(),
            (at, state),
            rows,
        );
        if let Ok(mut trimmed) = trimmed
            && trimmed.seq() == seq
            && trimmed.state() == self.state()
        {
            trimmed.recent = std::mem::take(&mut self.recent);
            trimmed.kept = self.kept.take();
            *self = trimmed;
        }
    }

    /// True when every row from 1 is held (the table was not loaded from a
    /// snapshot, or has been since reloaded whole).
    pub fn holds_whole_log(&self) -> bool {
        self.tail.is_none()
    }

    /// The seq of the first row held: 1 for a whole journal, the snapshot's
    /// row for a table loaded with [`Session::restore_tail`] (rows before it
    /// are in the store only). 1 for an empty journal.
    pub fn first_held_seq(&self) -> u64 {
        self.tail.as_ref().map_or(1, |t| t.seq)
    }

    /// The table's initial state (before row 1), whether or not its rows are
    /// all held.
    pub fn initial_state(&self) -> &S::State {
        self.tail
            .as_ref()
            .map_or_else(|| self.table.initial(), |t| &t.initial)
    }

    /// Rebuild a table from its initial state, the roller it started with, and
    /// its journal rows (from a save file or the database).
    ///
    /// # Errors
    /// [`RestoreError`] when the rows are out of order or an undo names a point
    /// the log was not at.
    pub fn restore(
        initial: S::State,
        initial_roller: Seeded,
        rows: Vec<Row<S::Event>>,
    ) -> Result<Self, RestoreError> {
        let mut s = Session::new(initial, initial_roller);
        for row in rows {
            s.replay_row(row)?;
        }
        Ok(s)
    }

    fn replay_row(&mut self, row: Row<S::Event>) -> Result<(), RestoreError> {
        let expected = self.seq() + 1;
        if row.seq != expected {
            return Err(RestoreError::OutOfOrder {
                expected,
                got: row.seq,
            });
        }
        match &row.entry {
            Entry::Event { event, .. } => {
                self.table.apply(&row.seat, event.clone());
                if row.command_end {
                    if let Some(r) = &row.roller {
                        self.roller = r.clone();
                    }
                    self.boundaries.push(Boundary {
                        seq: row.seq,
                        events: self.table.log().len(),
                        roller: self.roller.clone(),
                    });
                }
            }
            Entry::Undo { back_to } => {
                if self.tail.is_some() && self.boundaries.len() < 2 {
                    return Err(RestoreError::NeedsOlderRows { seq: row.seq });
                }
                let expected = self.undo_target().map_or(0, |b| b.seq);
                if self.boundaries.len() < 2 || *back_to != expected {
                    return Err(RestoreError::BadUndo {
                        seq: row.seq,
                        back_to: *back_to,
                        expected,
                    });
                }
                self.rewind();
            }
            Entry::Talk { .. } => {}
            Entry::Roll { .. } => {
                if let Some(r) = &row.roller {
                    self.roller = r.clone();
                }
            }
        }
        self.rows.push(row);
        Ok(())
    }

    /// Rebuild a table as [`Session::restore`] does, but starting from `snapshot`
    /// (`(seq, state)`: the state right after row `seq`, as a store kept it) instead
    /// of replaying rows `1..=seq` through the rules: those rows are only read back
    /// into the journal, the undo points and the event log; the rows after `seq` are
    /// replayed. A snapshot whose seq is 0 or past the last row is ignored (full
    /// replay). The snapshot is trusted: the store writes it from this engine's own
    /// state, and tests check it against the replay.
    ///
    /// # Errors
    /// [`RestoreError`] as [`Session::restore`].
    pub fn restore_from_snapshot(
        initial: S::State,
        initial_roller: Seeded,
        snapshot: Option<(u64, S::State)>,
        rows: Vec<Row<S::Event>>,
    ) -> Result<Self, RestoreError> {
        let last = rows.last().map_or(0, |r| r.seq);
        let Some((at, state)) = snapshot.filter(|(at, _)| *at >= 1 && *at <= last) else {
            return Session::restore(initial, initial_roller, rows);
        };
        let mut s = Session::new(initial, initial_roller);
        let mut rows = rows.into_iter();
        // Rows 1..=at: the journal, the undo points and the live events, no rules.
        let mut live: Vec<(Seat, S::Event)> = Vec::new();
        for row in rows.by_ref() {
            let expected = s.seq() + 1;
            if row.seq != expected {
                return Err(RestoreError::OutOfOrder {
                    expected,
                    got: row.seq,
                });
            }
            match &row.entry {
                Entry::Event { event, .. } => {
                    live.push((row.seat.clone(), event.clone()));
                    if row.command_end {
                        if let Some(r) = &row.roller {
                            s.roller = r.clone();
                        }
                        s.boundaries.push(Boundary {
                            seq: row.seq,
                            events: live.len(),
                            roller: s.roller.clone(),
                        });
                    }
                }
                Entry::Undo { back_to } => {
                    let expected = s.undo_target().map_or(0, |b| b.seq);
                    if s.boundaries.len() < 2 || *back_to != expected {
                        return Err(RestoreError::BadUndo {
                            seq: row.seq,
                            back_to: *back_to,
                            expected,
                        });
                    }
                    s.boundaries.pop();
                    if let Some(b) = s.boundaries.last() {
                        live.truncate(b.events);
                        s.roller = b.roller.clone();
                    }
                }
                Entry::Talk { .. } => {}
                Entry::Roll { .. } => {
                    if let Some(r) = &row.roller {
                        s.roller = r.clone();
                    }
                }
            }
            let done = row.seq == at;
            s.rows.push(row);
            if done {
                break;
            }
        }
        match table_from_parts::<S>(s.table.initial(), &state, &live) {
            Some(table) => s.table = table,
            // The rules' table could not be rebuilt from its parts: replay instead.
            None => {
                let rows: Vec<_> = std::mem::take(&mut s.rows)
                    .into_iter()
                    .chain(rows)
                    .collect();
                return Session::restore(s.table.initial().clone(), s.initial_roller, rows);
            }
        }
        for row in rows {
            s.replay_row(row)?;
        }
        Ok(s)
    }

    /// Append rows written elsewhere (another server on the same store) to a table
    /// that has every row before them, replaying them through the rules. The lines
    /// of the last command are then described as after [`Session::submit`].
    ///
    /// # Errors
    /// [`RestoreError`] when the rows do not follow on from the journal or an undo
    /// names a point the log was not at; the rows before the bad one are kept.
    pub fn extend(&mut self, rows: Vec<Row<S::Event>>) -> Result<(), RestoreError> {
        for row in rows {
            let starts = self.rows.last().is_none_or(|r| r.command_end);
            let seq = row.seq;
            let undo = matches!(row.entry, Entry::Undo { .. });
            self.replay_row(row)?;
            if starts || undo {
                self.recent.clear();
            }
            if !undo {
                self.recent.push((seq, self.state().clone()));
            }
        }
        Ok(())
    }

    fn undo_target(&self) -> Option<&Boundary> {
        let n = self.boundaries.len();
        (n >= 2).then(|| &self.boundaries[n - 2])
    }

    fn rewind(&mut self) {
        self.recent.clear();
        self.boundaries.pop();
        if let Some(b) = self.boundaries.last() {
            self.table.truncate(b.events);
            self.roller = b.roller.clone();
        }
    }

    /// The rules' table: initial state, live events, current state.
    pub fn table(&self) -> &Table<S> {
        &self.table
    }

    /// The current state.
    pub fn state(&self) -> &S::State {
        self.table.state()
    }

    /// Every journal row, oldest first. Holds every hidden card and the roller:
    /// the GM's and the store's, never a seat's.
    pub fn rows(&self) -> &[Row<S::Event>] {
        &self.rows
    }

    /// The seeded roller as it is now (the GM's secret).
    pub fn roller(&self) -> &Seeded {
        &self.roller
    }

    /// The roller the table started with.
    pub fn initial_roller(&self) -> &Seeded {
        &self.initial_roller
    }

    /// The sequence number of the last row (0 before anything happened).
    pub fn seq(&self) -> u64 {
        self.rows.last().map_or(0, |r| r.seq)
    }

    /// Every seat at this table: the GM first, then the players.
    pub fn seats(&self) -> Vec<Seat> {
        S::seats(self.state())
    }

    /// The seat a typed name means: `gm` (also `storyteller`, `dealer`) or a
    /// player's seat, without regard to case.
    ///
    /// # Errors
    /// [`CommandError::UnknownSeat`] listing the seats.
    pub fn resolve_seat(&self, name: &str) -> Result<Seat, CommandError> {
        let seats = self.seats();
        let wanted = Seat::parse(name);
        if let Some(seat) = seats.iter().find(|s| s.same_seat(&wanted)) {
            return Ok(seat.clone());
        }
        let names: Vec<String> = seats.iter().map(ToString::to_string).collect();
        match tabula_core::names::resolve("seat", name, names.iter().map(String::as_str)) {
            Ok(found) => Ok(seats
                .iter()
                .find(|s| s.to_string() == found)
                .cloned()
                .unwrap_or(Seat::Gm)),
            Err(NameLookupError::Ambiguous { got, matches, .. }) => {
                Err(CommandError::AmbiguousSeat { name: got, matches })
            }
            Err(NameLookupError::Unknown { .. }) => Err(CommandError::UnknownSeat {
                name: name.trim().to_string(),
                seats: names,
            }),
        }
    }

    /// The sheet of character `name` (or of `seat`'s own characters; the
    /// GM's: every character's) as `seat` may read it, in plain text: the
    /// book's one description of its sheets ([`TextPlay::sheet_doc`]) drawn
    /// by the one text renderer (issue 26, item 2). `name` is read as the
    /// grammar reads it (quotes group words) and matched as every typed name
    /// is ([`tabula_core::names::resolve`]: any case, an unambiguous start).
    ///
    /// # Errors
    /// [`CommandError::Parse`] naming the characters when `name` is none of
    /// them, or for an unclosed quote.
    pub fn sheet(&self, seat: &Seat, name: Option<&str>) -> Result<String, CommandError> {
        let doc = S::sheet_doc(self.state(), seat);
        let chosen: Vec<&tabula_core::sheet::CharacterSheet> = match name {
            Some(typed) => {
                let typed = tabula_core::grammar::words(typed)
                    .map_err(|e| CommandError::Parse(e.into()))?
                    .join(" ");
                let found = tabula_core::names::resolve(
                    "character",
                    &typed,
                    doc.characters.iter().map(|c| c.name.as_str()),
                )
                .map_err(|e| CommandError::Parse(e.into()))?;
                doc.characters.iter().filter(|c| c.name == found).collect()
            }
            None if seat.is_gm() => doc.characters.iter().collect(),
            None => doc.characters.iter().filter(|c| c.mine).collect(),
        };
        if chosen.is_empty() {
            return Ok(format!("{seat} plays no character at this table."));
        }
        Ok(chosen
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n\n"))
    }

    /// Check that `seat` is one of this table's seats (the exact one
    /// [`Session::resolve_seat`] returns).
    ///
    /// # Errors
    /// [`CommandError::UnknownSeat`] listing the seats.
    pub fn check_seat(&self, seat: &Seat) -> Result<(), CommandError> {
        let seats = self.seats();
        if seats.contains(seat) {
            Ok(())
        } else {
            Err(CommandError::UnknownSeat {
                name: seat.to_string(),
                seats: seats.iter().map(ToString::to_string).collect(),
            })
        }
    }

    /// Read a command line typed by `seat` (without the seat prefix).
    ///
    /// # Errors
    /// [`CommandError::TooLong`] or [`CommandError::Parse`].
    pub fn parse(&self, seat: &Seat, text: &str) -> Result<S::Command, CommandError> {
        self.parse_with(seat, text, &tabula_core::files::NoSheets)
    }

    /// [`Session::parse`] with the character sheets sent along with the line
    /// (a GM's `add FILE.toml`; [`TextPlay::parse_command_with`], issue 27,
    /// item 6).
    ///
    /// # Errors
    /// [`CommandError::TooLong`] or [`CommandError::Parse`].
    pub fn parse_with(
        &self,
        seat: &Seat,
        text: &str,
        sheets: &dyn tabula_core::files::SheetFiles,
    ) -> Result<S::Command, CommandError> {
        if text.len() > MAX_COMMAND_BYTES {
            return Err(CommandError::TooLong {
                max: MAX_COMMAND_BYTES,
            });
        }
        S::parse_command_with(self.state(), seat, text.trim(), sheets).map_err(CommandError::Parse)
    }

    /// Give `command` as `seat`. Dice and cards come from `manual` when given
    /// (values rolled at the real table; short values refuse the whole command),
    /// else from the table's seeded roller, which moves only when the command is
    /// accepted. Returns the rows appended.
    ///
    /// # Errors
    /// [`CommandError`]; nothing changes, the roller included.
    pub fn submit(
        &mut self,
        seat: &Seat,
        command: &S::Command,
        manual: Option<&mut dyn Roller>,
    ) -> Result<&[Row<S::Event>], CommandError> {
        self.check_seat(seat)?;
        if self.seq() >= MAX_JOURNAL_ROWS {
            return Err(CommandError::JournalFull {
                max: MAX_JOURNAL_ROWS,
            });
        }
        let mut seeded = self.roller.clone();
        let before_state = self.table.state().clone();
        let roller: &mut dyn Roller = match manual {
            Some(m) => m,
            None => &mut seeded,
        };
        // `Table::submit` changes nothing unless the command is accepted and
        // the roller had every value; the seeded roller's copy is kept only then.
        let events: Vec<S::Event> = self
            .table
            .submit(seat, command, roller)
            .map_err(CommandError::Rule)?
            .iter()
            .map(|l| l.event.clone())
            .collect();
        // Values rolled at the real table in the terminal (`--rolled`,
        // `--manual`): the whole table plays with physical dice there, so the
        // rows are not marked typed; a seat's own typed values come through
        // `submit_typed`.
        Ok(self.append(seat, before_state, events, seeded, false))
    }

    /// Give `command` as `seat` with dice and cards `values` typed by that
    /// seat ([`tabula_core::Typed`]): each value goes to the next roll or
    /// draw of `seat`'s own characters ([`TextPlay::roll_owner`]; the GM's:
    /// the GM's own NPCs), every other roll and draw to the table's seeded
    /// roller. Values typed beyond the seat's own rolls are refused
    /// ([`tabula_core::RollError::NotYourRoll`]), never given to another
    /// seat's roll (issue 28, item 2); a typed card that cannot be drawn is
    /// refused in the same words wherever it is (item 3). The rows are
    /// marked typed when a value was used (item 6).
    ///
    /// # Errors
    /// [`CommandError`]; nothing changes, the roller included.
    pub fn submit_typed(
        &mut self,
        seat: &Seat,
        command: &S::Command,
        values: &[String],
    ) -> Result<&[Row<S::Event>], CommandError> {
        self.check_seat(seat)?;
        if self.seq() >= MAX_JOURNAL_ROWS {
            return Err(CommandError::JournalFull {
                max: MAX_JOURNAL_ROWS,
            });
        }
        let mut seeded = self.roller.clone();
        let state = self.table.state().clone();
        let owns = |who: Option<&str>| S::roll_owner(&state, who, seat).as_ref() == Some(seat);
        let mut typed = tabula_core::Typed::new(values.iter().cloned(), &mut seeded, &owns);
        let events: Vec<S::Event> = self
            .table
            .submit(seat, command, &mut typed)
            .map_err(CommandError::Rule)?
            .iter()
            .map(|l| l.event.clone())
            .collect();
        let used = typed.used() > 0;
        Ok(self.append(seat, state, events, seeded, used))
    }

    /// Append the rows of an accepted command's `events` given by `seat`;
    /// `roller` is the seeded roller after it. Returns the rows appended.
    /// `before_state` is the state before the command.
    fn append(
        &mut self,
        seat: &Seat,
        before_state: S::State,
        events: Vec<S::Event>,
        roller: Seeded,
        typed: bool,
    ) -> &[Row<S::Event>] {
        let n = events.len() as u64;
        let before = self.table.log().len().saturating_sub(events.len());
        let first = self.rows.len();
        self.roller = roller;
        let mut seq = self.seq();
        let mut state = before_state;
        self.recent.clear();
        for (i, event) in events.into_iter().enumerate() {
            seq += 1;
            let end = i as u64 + 1 == n;
            if !end {
                S::evolve(&mut state, &event);
                self.recent.push((seq, state.clone()));
            }
            self.rows.push(Row {
                seq,
                seat: seat.clone(),
                entry: Entry::Event { event, typed },
                command_end: end,
                roller: end.then(|| self.roller.clone()),
            });
        }
        if n > 0 {
            self.boundaries.push(Boundary {
                seq,
                events: before + n as usize,
                roller: self.roller.clone(),
            });
        }
        &self.rows[first..]
    }

    /// Take back the last command (the GM's alone): the table and the roller go
    /// back to how they were before it, and one undo row is appended.
    ///
    /// # Errors
    /// [`CommandError::GmOnly`] for a player, [`CommandError::NothingToUndo`].
    pub fn undo(&mut self, seat: &Seat) -> Result<&Row<S::Event>, CommandError> {
        if !seat.is_gm() {
            return Err(CommandError::GmOnly {
                what: "undo".into(),
            });
        }
        let back_to = match self.undo_target() {
            Some(b) => b.seq,
            None if self.tail.is_some() => return Err(CommandError::OlderRowsNeeded),
            None => return Err(CommandError::NothingToUndo),
        };
        if self.seq() >= MAX_JOURNAL_ROWS {
            return Err(CommandError::JournalFull {
                max: MAX_JOURNAL_ROWS,
            });
        }
        self.rewind();
        let row = Row {
            seq: self.seq() + 1,
            seat: seat.clone(),
            entry: Entry::Undo { back_to },
            command_end: true,
            roller: Some(self.roller.clone()),
        };
        self.rows.push(row);
        Ok(&self.rows[self.rows.len() - 1])
    }

    /// Append a talk line spoken by `seat` ([`crate::talk`]). Nothing else
    /// changes; an undo never removes it.
    ///
    /// # Errors
    /// [`CommandError::UnknownSeat`] for a seat (or a whisper's listener)
    /// not at this table; [`CommandError::Talk`] for narration by a player,
    /// a whisper to oneself, or text that is empty, too long or not plain;
    /// [`CommandError::JournalFull`].
    pub fn talk(&mut self, seat: &Seat, talk: Talk) -> Result<&Row<S::Event>, CommandError> {
        self.check_seat(seat)?;
        if let Some(to) = &talk.to {
            self.check_seat(to)?;
            if to.same_seat(seat) {
                return Err(CommandError::Talk(TalkError::WhisperToSelf));
            }
        }
        if talk.voice == Voice::Narrate && !seat.is_gm() {
            return Err(CommandError::Talk(TalkError::NarrateGmOnly));
        }
        let text =
            crate::talk::clean_text(talk.voice.word(), &talk.text).map_err(CommandError::Talk)?;
        self.push_free(
            seat,
            Entry::Talk {
                talk: Talk { text, ..talk },
            },
            None,
        )
    }

    /// Roll `line`'s expression for `seat` and append it as one row
    /// ([`crate::talk`]): with `manual` (values rolled at the real table;
    /// `typed` marks them as the seat's own) or else the table's seeded
    /// roller, which moves only when the roll is made. An undo never removes
    /// it, and does not roll it again.
    ///
    /// # Errors
    /// [`CommandError::Talk`] for a player's secret roll or dice that could
    /// not be rolled (typed values that are not faces, too few or too many);
    /// [`CommandError::UnknownSeat`], [`CommandError::JournalFull`]. Nothing
    /// changes, the roller included.
    pub fn free_roll(
        &mut self,
        seat: &Seat,
        line: &crate::talk::RollLine,
        manual: Option<&mut dyn Roller>,
        typed: bool,
    ) -> Result<&Row<S::Event>, CommandError> {
        self.check_seat(seat)?;
        if line.secret && !seat.is_gm() {
            return Err(CommandError::Talk(TalkError::SecretGmOnly));
        }
        let failed = |e: tabula_core::RollError| {
            CommandError::Talk(TalkError::Roll {
                message: e.to_string(),
            })
        };
        let mut seeded = self.roller.clone();
        let (mut outcome, from_table) = match manual {
            Some(m) => {
                let outcome = line.expr.roll(&mut *m).map_err(failed)?;
                m.finish().map_err(failed)?;
                (outcome, false)
            }
            None => (line.expr.roll(&mut seeded).map_err(failed)?, true),
        };
        outcome.comment = None;
        let roll = FreeRoll {
            expr: line.written.clone(),
            outcome: outcome.to_string(),
            total: outcome.total,
            reason: line.reason.clone(),
            secret: line.secret,
            typed: typed && !from_table,
            dialect: line.expr.dialect(),
        };
        self.push_free(seat, Entry::Roll { roll }, from_table.then_some(seeded))
    }

    /// Append one row that is no move of the rules (talk, a free roll):
    /// it ends no command an undo could take back; `roller` is the seeded
    /// roller after it, when it rolled.
    fn push_free(
        &mut self,
        seat: &Seat,
        entry: Entry<S::Event>,
        roller: Option<Seeded>,
    ) -> Result<&Row<S::Event>, CommandError> {
        if self.seq() >= MAX_JOURNAL_ROWS {
            return Err(CommandError::JournalFull {
                max: MAX_JOURNAL_ROWS,
            });
        }
        if let Some(r) = roller {
            self.roller = r;
        }
        self.recent.clear();
        let row = Row {
            seq: self.seq() + 1,
            seat: seat.clone(),
            entry,
            command_end: true,
            roller: Some(self.roller.clone()),
        };
        self.rows.push(row);
        Ok(&self.rows[self.rows.len() - 1])
    }

    /// What `viewer` may see of `whose` view: a player only its own, the GM any.
    ///
    /// # Errors
    /// [`CommandError::NotYourView`] when a player asks for another seat's.
    pub fn view_of(&self, viewer: &Seat, whose: &Seat) -> Result<S::View, CommandError> {
        if viewer != whose && !viewer.is_gm() {
            return Err(CommandError::NotYourView {
                seat: viewer.to_string(),
                other: whose.to_string(),
            });
        }
        Ok(S::view(self.state(), whose))
    }

    /// What `seat` may do now.
    pub fn legal(&self, seat: &Seat) -> Vec<CommandSpec> {
        S::legal_commands(self.state(), seat)
    }

    /// Whose turn it is and what they may do, for `seat`.
    pub fn status(&self, seat: &Seat) -> String {
        S::status(self.state(), seat)
    }

    /// The odds the system offers `seat` for the choice in front of it.
    pub fn odds(&self, seat: &Seat) -> Vec<ChoiceOdds> {
        S::odds(self.state(), seat)
    }

    /// The seat whose turn it is.
    pub fn default_seat(&self) -> Seat {
        S::default_seat(self.state())
    }

    /// True when the encounter is over.
    pub fn finished(&self) -> bool {
        S::finished(self.state())
    }

    /// The log after row `after`, as `seat` may see it. Replays the journal from
    /// the start of what the table holds (each line is described in the state
    /// just after its event): row 1, or for a table loaded from a snapshot
    /// ([`Session::restore_tail`]) the row after the snapshot's, so rows before
    /// that get no line here (the store keeps every row's lines).
    pub fn log_for(&self, seat: &Seat, after: u64) -> Vec<LogLine> {
        let mut replay: Session<S> = self.start();
        let mut lines = Vec::new();
        let held = usize::from(self.tail.is_some());
        for row in &self.rows[held.min(self.rows.len())..] {
            let seq = row.seq;
            if replay.replay_row(row.clone()).is_err() {
                break;
            }
            if seq > after {
                lines.extend(replay.line_for(row, seat));
            }
        }
        lines
    }

    /// The log lines of `rows` (just appended, so the current state is the state
    /// after the last of them) as `seat` may see them.
    pub fn lines_for(&self, rows: &[Row<S::Event>], seat: &Seat) -> Vec<LogLine> {
        let latest = self.seq();
        let states: Option<Vec<&S::State>> = rows
            .iter()
            .map(|r| {
                if r.seq == latest {
                    // The state just after the latest row is the current one.
                    return Some(self.state());
                }
                self.recent
                    .iter()
                    .find(|(seq, _)| *seq == r.seq)
                    .map(|(_, st)| st)
            })
            .collect();
        match states {
            Some(states) if !rows.is_empty() => rows
                .iter()
                .zip(states)
                .filter_map(|(r, st)| Self::line_in(st, r, seat))
                .collect(),
            _ if rows.len() <= 1 => rows.iter().filter_map(|r| self.line_for(r, seat)).collect(),
            // Rows of an earlier command: describe each in the state just
            // after it by replaying the journal.
            _ => self.log_for(seat, rows[0].seq.saturating_sub(1)),
        }
    }

    /// One row as `seat` may see it, in the current state (the state just
    /// after the row); `None` when `seat` may not see it at all.
    fn line_for(&self, row: &Row<S::Event>, seat: &Seat) -> Option<LogLine> {
        Self::line_in(self.state(), row, seat)
    }

    /// One row as `seat` may see it, described in `state` (the state just
    /// after the row); `None` when `seat` may not see it at all (another
    /// seat's whisper, the GM's secret roll).
    fn line_in(state: &S::State, row: &Row<S::Event>, seat: &Seat) -> Option<LogLine> {
        Some(match &row.entry {
            Entry::Event { event, typed } => {
                let mut text = S::describe_for(state, event, seat);
                if *typed {
                    text.push_str(&format!(" (typed by {})", row.seat));
                }
                let actor = S::event_seat(state, event).filter(|s| *s != row.seat);
                LogLine {
                    seq: row.seq,
                    seat: actor.as_ref().unwrap_or(&row.seat).to_string(),
                    given_by: actor.is_some().then(|| row.seat.to_string()),
                    kind: "event".into(),
                    text,
                    event: S::event_for(state, event, seat)
                        .and_then(|e| serde_json::to_value(e).ok()),
                    typed: *typed,
                }
            }
            Entry::Undo { back_to } => LogLine {
                seq: row.seq,
                seat: row.seat.to_string(),
                given_by: None,
                kind: "undo".into(),
                text: format!(
                    "{} undid the last command: the table is back to #{back_to}",
                    row.seat
                ),
                event: Some(serde_json::json!({ "undo": { "back_to": back_to } })),
                typed: false,
            },
            Entry::Talk { talk } => {
                if !talk.seen_by(&row.seat, seat) {
                    return None;
                }
                LogLine {
                    seq: row.seq,
                    seat: row.seat.to_string(),
                    given_by: None,
                    kind: talk.voice.word().into(),
                    text: talk.describe(&row.seat),
                    event: serde_json::to_value(talk)
                        .ok()
                        .map(|t| serde_json::json!({ "talk": t })),
                    typed: false,
                }
            }
            Entry::Roll { roll } => {
                if !roll.seen_by(seat) {
                    return None;
                }
                LogLine {
                    seq: row.seq,
                    seat: row.seat.to_string(),
                    given_by: None,
                    kind: "roll".into(),
                    text: roll.describe(&row.seat),
                    event: serde_json::to_value(roll)
                        .ok()
                        .map(|r| serde_json::json!({ "roll": r })),
                    typed: roll.typed,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_bastards::Bastards;

    /// The snapshot path really rebuilds the rules' table from its parts (a
    /// fallback to replaying would hide a change in the table's serialized form).
    #[test]
    fn the_rules_table_rebuilds_from_its_parts() {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples")
            .join("bastards");
        let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
        let state = Bastards::setup(&text, &dir).unwrap();
        let mut s = Session::<Bastards>::new(state, Seeded::from_seed(3));
        let seat = Seat::Player("Stella".into());
        let command = s.parse(&seat, "fate Cynthia Business Mind 3").unwrap();
        s.submit(&seat, &command, None).unwrap();
        s.submit(&seat, &command, None).unwrap();
        let live: Vec<(Seat, _)> = s
            .table()
            .log()
            .entries()
            .iter()
            .map(|l| (l.seat.clone(), l.event.clone()))
            .collect();
        assert!(!live.is_empty());
        let rebuilt = table_from_parts::<Bastards>(s.table().initial(), s.state(), &live);
        assert_eq!(rebuilt.as_ref(), Some(s.table()));
    }
}
