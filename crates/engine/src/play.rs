//! The terminal play driver shared by every system: `tabula <system> play TABLE`.
//!
//! It shows whose turn it is and what they may do, reads typed commands (from a
//! person or a script file), gives them to the [`Table`], and prints every result
//! with every die and card. A refused command prints the rule that refused it and
//! changes nothing.
//!
//! A line is `[SEAT:] COMMAND ARGS...`. Without a seat prefix the command is given
//! by the seat whose turn it is ([`TextPlay::default_seat`]). The driver's own
//! commands are:
//!
//! | line | does |
//! |---|---|
//! | `help` | the commands the current seat may give now, with their parameters |
//! | `status` | whose turn it is and what they may do |
//! | `view [SEAT]` | what that seat may see, as JSON (default: the current seat) |
//! | `log` | every event so far |
//! | `undo` | take back the last accepted command (replays the log without it) |
//! | `quit` | stop |
//!
//! Lines that are empty or start with `#` are ignored.

use serde::{Deserialize, Serialize};
use std::io::{self, BufRead, Write};

use tabula_core::roller::Roller;
use tabula_core::system::{ParamKind, Seat, Table, TextPlay};
use tabula_core::Seeded;

/// The longest command line accepted, in bytes.
pub const MAX_LINE: usize = 4096;

/// How the driver talks.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayOptions {
    /// Echo each command line (for scripts, so the transcript reads as a session).
    pub echo: bool,
    /// Stop at the first refused command (for scripts that must replay exactly).
    pub strict: bool,
}

/// What a play session did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlaySummary {
    /// Commands accepted.
    pub accepted: usize,
    /// Commands refused (by the rules, or unreadable).
    pub refused: usize,
    /// Events in the log at the end.
    pub events: usize,
    /// True when the encounter reached its end.
    pub finished: bool,
}

/// A table saved to resume later: the table (initial state, log, current state)
/// and, for seeded play, the roller's state so the same stream continues.
///
/// The file holds the seeded roller's state and every hidden card: it is the GM's
/// file, never a player's.
#[derive(Debug, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = ""))]
pub struct SavedTable<S: TextPlay> {
    /// The system id, checked when the file is loaded.
    pub system: String,
    /// The table.
    pub table: Table<S>,
    /// The seeded roller's state, when play is seeded.
    pub roller: Option<Seeded>,
}

/// Where command lines come from: any `BufRead` (a script file, a test's
/// bytes), or a terminal reader that does not hold stdin's lock.
pub trait LineSource {
    /// Append the next line to `buf`; returns the bytes read, 0 at the end.
    ///
    /// # Errors
    /// The source's I/O errors.
    fn next_line(&mut self, buf: &mut String) -> io::Result<usize>;
}

impl<R: BufRead> LineSource for R {
    fn next_line(&mut self, buf: &mut String) -> io::Result<usize> {
        self.read_line(buf)
    }
}

#[derive(Serialize)]
#[serde(bound(serialize = ""))]
struct SavedTableRef<'a, S: TextPlay> {
    system: &'static str,
    table: &'a Table<S>,
    roller: Option<&'a Seeded>,
}

/// The JSON of a [`SavedTable`] for `table` (and the seeded roller's state),
/// written without copying the table.
///
/// # Errors
/// Serialization errors (none are expected for the systems' state types).
pub fn save_json<S: TextPlay>(table: &Table<S>, roller: Option<&Seeded>) -> serde_json::Result<String> {
    serde_json::to_string(&SavedTableRef {
        system: S::ID,
        table,
        roller,
    })
}

/// Run a play session until the input ends, `quit`, or the encounter finishes.
///
/// `after_command` is called after every accepted command (to save the table).
///
/// # Errors
/// Only I/O errors on `input`/`out`; refused commands are printed, counted and
/// play continues (unless `options.strict`, which stops at the first one).
pub fn run<S: TextPlay>(
    table: &mut Table<S>,
    input: &mut dyn LineSource,
    out: &mut dyn Write,
    roller: &mut dyn Roller,
    options: PlayOptions,
    after_command: &mut dyn FnMut(&Table<S>) -> io::Result<()>,
) -> io::Result<PlaySummary> {
    let mut summary = PlaySummary::default();
    let mut boundaries: Vec<usize> = Vec::new();
    let mut last_status = String::new();
    print_status(table, out, &mut last_status)?;
    let mut line = String::new();
    loop {
        if S::finished(table.state()) {
            summary.finished = true;
            writeln!(out, "The encounter is over.")?;
            break;
        }
        if !options.echo {
            write!(out, "> ")?;
            out.flush()?;
        }
        line.clear();
        if input.next_line(&mut line)? == 0 {
            break;
        }
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if options.echo {
            writeln!(out, "> {text}")?;
        }
        if text.len() > MAX_LINE {
            writeln!(out, "refused: a command line may be at most {MAX_LINE} bytes")?;
            summary.refused += 1;
            continue;
        }
        let (seat, body) = split_seat::<S>(table, text);
        match body.split_whitespace().next().unwrap_or("") {
            "quit" | "exit" => break,
            "help" => {
                print_help(table, &seat, out)?;
                continue;
            }
            "status" => {
                writeln!(out, "{}", S::status(table.state(), &seat))?;
                continue;
            }
            "view" => {
                let who = body
                    .split_once(char::is_whitespace)
                    .map(|(_, s)| Seat::parse(s))
                    .unwrap_or(seat);
                let json = serde_json::to_string_pretty(&table.view(&who))
                    .unwrap_or_else(|e| format!("(view could not be shown: {e})"));
                writeln!(out, "{json}")?;
                continue;
            }
            "log" => {
                let mut state = table.initial().clone();
                for entry in table.log().entries() {
                    S::evolve(&mut state, &entry.event);
                    writeln!(
                        out,
                        "{:>4} [{}] {}",
                        entry.seq,
                        entry.seat,
                        S::describe(&state, &entry.event)
                    )?;
                }
                continue;
            }
            "undo" => {
                match boundaries.pop() {
                    Some(n) => {
                        table.truncate(n);
                        writeln!(out, "undone: the table is back to event {n}")?;
                        after_command(table)?;
                    }
                    None => writeln!(out, "nothing to undo in this session")?,
                }
                continue;
            }
            _ => {}
        }
        let command = match S::parse_command(table.state(), &seat, body) {
            Ok(c) => c,
            Err(e) => {
                writeln!(out, "refused: {e}")?;
                summary.refused += 1;
                if options.strict {
                    break;
                }
                continue;
            }
        };
        let before = table.log().len();
        let mut state = table.state().clone();
        match table.submit(&seat, &command, roller) {
            Ok(entries) => {
                let entries = entries.to_vec();
                for entry in &entries {
                    S::evolve(&mut state, &entry.event);
                    writeln!(out, "  {}", S::describe(&state, &entry.event))?;
                }
                boundaries.push(before);
                summary.accepted += 1;
                after_command(table)?;
                print_status(table, out, &mut last_status)?;
            }
            Err(e) => {
                writeln!(out, "refused: {e}")?;
                summary.refused += 1;
                if options.strict {
                    break;
                }
            }
        }
    }
    summary.events = table.log().len();
    summary.finished = S::finished(table.state());
    Ok(summary)
}

/// Split an optional `seat:` prefix off a line.
fn split_seat<'a, S: TextPlay>(table: &Table<S>, text: &'a str) -> (Seat, &'a str) {
    match text.split_once(':') {
        // Seat names may hold spaces ("Breakhelm X-19: attack"); commands never
        // contain a colon.
        Some((seat, rest)) if !seat.trim().is_empty() => (Seat::parse(seat), rest.trim()),
        _ => (S::default_seat(table.state()), text),
    }
}

fn print_status<S: TextPlay>(
    table: &Table<S>,
    out: &mut dyn Write,
    last: &mut String,
) -> io::Result<()> {
    let seat = S::default_seat(table.state());
    let status = S::status(table.state(), &seat);
    if status != *last {
        writeln!(out, "-- {status}")?;
        let names: Vec<String> = table
            .legal_commands(&seat)
            .into_iter()
            .map(|c| c.name)
            .collect();
        if !names.is_empty() {
            writeln!(out, "-- {seat} may: {}", names.join(", "))?;
        }
        *last = status;
    }
    Ok(())
}

fn print_help<S: TextPlay>(table: &Table<S>, seat: &Seat, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{seat} may now:")?;
    for spec in table.legal_commands(seat) {
        let params: Vec<String> = spec
            .params
            .iter()
            .map(|p| match &p.kind {
                ParamKind::Int { min, max } => format!("<{} {min}..{max}>", p.name),
                ParamKind::Choice { options } => format!("<{}: {}>", p.name, options.join("|")),
                ParamKind::Text => format!("<{}>", p.name),
            })
            .collect();
        writeln!(
            out,
            "  {} {}  -- {}",
            spec.name,
            params.join(" "),
            spec.summary
        )?;
    }
    writeln!(
        out,
        "  (and: help, status, view [SEAT], log, undo, quit; prefix a line with SEAT: to act as another seat)"
    )
}
