//! The terminal play driver shared by every system: `tabula <system> play TABLE`.
//!
//! It shows whose turn it is and what they may do, reads typed commands (from a
//! person or a script file), gives them to the [`AnyTable`] — the same interface
//! the server uses, so the two cannot drift apart — and prints every result with
//! every die and card. A refused command prints the rule that refused it and
//! changes nothing.
//!
//! A line is `[SEAT:] COMMAND ARGS...`. Without a seat prefix the command is given
//! by the seat whose turn it is. A seat prefix that names no seat is refused with
//! the list of seats (matched without regard to case).
//!
//! The book's commands always win: a driver command is read as the driver's only
//! when the system has no command of that name (Sapio's `help` is Receiving
//! Help). Every driver command can also be written with a leading `/` (`/help`),
//! which is never a book command. The driver's commands are:
//!
//! | line | does |
//! |---|---|
//! | `?`, `/help` (`help` where the book has none) | the commands the seat may give now |
//! | `status` | whose turn it is and what they may do |
//! | `odds` | the odds the system offers the seat for its pending choice |
//! | `view [SEAT]` | what a seat may see, as JSON: a player only its own view |
//! | `log` | every event so far, as the seat may see it |
//! | `undo` | the GM's alone (`gm: undo`): take back the last command, dice with it |
//! | `quit` | stop (says so when changes are not saved) |
//!
//! Lines that are empty or start with `#` are comments.

use serde::Serialize;
use std::io::{self, BufRead, Write};

use tabula_core::roller::{Answer, Roller};
use tabula_core::system::{ParamKind, Seat};

use crate::any::{AnyTable, Dice};
use crate::session::{CommandError, LogLine};

/// The longest command line accepted, in bytes.
pub const MAX_LINE: usize = crate::session::MAX_COMMAND_BYTES;

/// How the driver talks.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayOptions {
    /// Echo each command line (for scripts, so the transcript reads as a session).
    pub echo: bool,
    /// Stop at the first refused command (for scripts that must replay exactly).
    pub strict: bool,
    /// True when every accepted command is saved (`--save`/`--resume`); `quit`
    /// warns about unsaved changes otherwise.
    pub saving: bool,
}

/// What a play session did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlaySummary {
    /// Commands accepted (undo included).
    pub accepted: usize,
    /// Commands refused (by the rules, the seat rules, or unreadable).
    pub refused: usize,
    /// Rows in the table's log at the end.
    pub events: u64,
    /// True when the encounter reached its end.
    pub finished: bool,
}

/// Where command lines come from: a script's text, a test's bytes, or a
/// terminal reader that does not hold stdin's lock.
pub trait LineSource {
    /// Append the next line to `buf`; returns the bytes read, 0 at the end.
    ///
    /// # Errors
    /// The source's I/O errors, and `InvalidData` for a line longer than
    /// [`MAX_LINE`] bytes (read no further than that, so a source that never
    /// ends a line cannot take unbounded memory).
    fn next_line(&mut self, buf: &mut String) -> io::Result<usize>;
}

impl<R: BufRead> LineSource for R {
    fn next_line(&mut self, buf: &mut String) -> io::Result<usize> {
        read_capped_line(self, buf)
    }
}

/// Read one line of at most [`MAX_LINE`] bytes (plus its newline) into `buf`.
///
/// # Errors
/// `InvalidData` for a longer line or one that is not UTF-8; the source's errors.
pub fn read_capped_line(source: &mut dyn BufRead, buf: &mut String) -> io::Result<usize> {
    let mut bytes = Vec::new();
    let n = io::Read::take(source, MAX_LINE as u64 + 2).read_until(b'\n', &mut bytes)?;
    let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    if body.len() > MAX_LINE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a command line may be at most {MAX_LINE} bytes; stopping"),
        ));
    }
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "a line is not UTF-8 text"))?;
    buf.push_str(text);
    Ok(n)
}

/// Read a line typed at a manual dice prompt: `undo` withdraws the command
/// being rolled for, `quit` withdraws it and stops play, anything else is the
/// values (several may share the line).
pub fn prompt_answer(line: &str) -> Answer {
    let t = line.trim();
    if t.eq_ignore_ascii_case("undo") || t.eq_ignore_ascii_case("/undo") {
        Answer::Withdraw
    } else if t.eq_ignore_ascii_case("quit") || t.eq_ignore_ascii_case("/quit") {
        Answer::Quit
    } else {
        Answer::Values(t.to_string())
    }
}

/// The driver's own commands, by the word that names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DriverCommand {
    Help,
    Status,
    Odds,
    View,
    Log,
    Undo,
    Quit,
}

fn driver_command(word: &str) -> Option<DriverCommand> {
    Some(match word.to_ascii_lowercase().as_str() {
        "?" | "help" | "commands" => DriverCommand::Help,
        "status" => DriverCommand::Status,
        "odds" => DriverCommand::Odds,
        "view" => DriverCommand::View,
        "log" => DriverCommand::Log,
        "undo" => DriverCommand::Undo,
        "quit" | "exit" => DriverCommand::Quit,
        _ => return None,
    })
}

/// Run a play session until the input ends, `quit`, or the encounter finishes.
///
/// Dice and cards come from `manual` when given (asked for at the terminal),
/// else from the table's seeded roller. `after_command` is called after every
/// accepted command and undo (to save the table).
///
/// # Errors
/// I/O errors on `input`/`out` (a line longer than [`MAX_LINE`] is one);
/// refused commands are printed, counted and play continues (unless
/// `options.strict`, which stops at the first one).
pub fn run(
    table: &mut AnyTable,
    input: &mut dyn LineSource,
    out: &mut dyn Write,
    mut manual: Option<&mut dyn Roller>,
    options: PlayOptions,
    after_command: &mut dyn FnMut(&AnyTable) -> io::Result<()>,
) -> io::Result<PlaySummary> {
    let mut summary = PlaySummary::default();
    let mut last_status = String::new();
    let mut unsaved = 0usize;
    print_status(table, out, &mut last_status)?;
    let mut line = String::new();
    loop {
        if table.finished() {
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
        let refused =
            |out: &mut dyn Write, summary: &mut PlaySummary, e: &dyn std::fmt::Display| {
                summary.refused += 1;
                writeln!(out, "refused: {e}")
            };
        let (seat, body) = match split_seat(table, text) {
            Ok(x) => x,
            Err(e) => {
                refused(out, &mut summary, &e)?;
                if options.strict {
                    break;
                }
                continue;
            }
        };
        let word = body.split_whitespace().next().unwrap_or("");
        let driver = match word.strip_prefix('/') {
            Some(w) => match driver_command(w) {
                Some(d) => Some(d),
                None => {
                    refused(
                        out,
                        &mut summary,
                        &format!(
                            "unknown driver command {word:?}; they are /help, /status, /odds, /view, /log, /undo, /quit"
                        ),
                    )?;
                    if options.strict {
                        break;
                    }
                    continue;
                }
            },
            None if word == "?" => Some(DriverCommand::Help),
            // The book's commands win: a driver word is the driver's only when
            // the system has no command of that name.
            None => driver_command(word).filter(|_| !table.knows_command(&seat, body)),
        };
        let arg = body
            .split_once(char::is_whitespace)
            .map(|(_, rest)| rest.trim())
            .filter(|a| !a.is_empty());
        let result: Result<(), CommandError> = match driver {
            Some(DriverCommand::Quit) => {
                if unsaved > 0 && !options.saving {
                    writeln!(
                        out,
                        "{unsaved} accepted command(s) are not saved: start with --save FILE to keep the table"
                    )?;
                }
                break;
            }
            Some(DriverCommand::Help) => {
                print_help(table, &seat, out)?;
                Ok(())
            }
            Some(DriverCommand::Status) => {
                writeln!(out, "{}", table.status(&seat))?;
                Ok(())
            }
            Some(DriverCommand::Odds) => {
                let odds = table.odds(&seat);
                if odds.is_empty() {
                    writeln!(out, "no odds to offer {seat} for this moment")?;
                }
                for o in odds {
                    writeln!(
                        out,
                        "  {}: {:.1}% ({})",
                        o.choice,
                        o.probability * 100.0,
                        o.detail
                    )?;
                }
                Ok(())
            }
            Some(DriverCommand::View) => {
                let whose = match arg {
                    Some(name) => table.resolve_seat(name),
                    None => Ok(seat.clone()),
                };
                match whose.and_then(|w| table.view(&seat, &w)) {
                    Ok(v) => {
                        let json = serde_json::to_string_pretty(&v)
                            .unwrap_or_else(|e| format!("(view could not be shown: {e})"));
                        writeln!(out, "{json}")?;
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
            Some(DriverCommand::Log) => {
                for l in table.log_for(&seat, 0) {
                    print_line(out, &l, true)?;
                }
                Ok(())
            }
            Some(DriverCommand::Undo) => match table.undo(&seat) {
                Ok(acc) => {
                    for l in &acc.events {
                        writeln!(out, "  {}", l.text)?;
                    }
                    summary.accepted += 1;
                    unsaved += 1;
                    after_command(table)?;
                    print_status(table, out, &mut last_status)?;
                    Ok(())
                }
                Err(CommandError::GmOnly { .. }) => Err(CommandError::GmOnly {
                    what: "undo (write `gm: undo`)".into(),
                }),
                Err(e) => Err(e),
            },
            None => {
                let dice = match manual.as_mut() {
                    Some(m) => Dice::Manual(&mut **m),
                    None => Dice::Table,
                };
                match table.submit_text(&seat, body, dice) {
                    Ok(acc) => {
                        for l in &acc.events {
                            print_line(out, l, false)?;
                        }
                        summary.accepted += 1;
                        unsaved += 1;
                        after_command(table)?;
                        print_status(table, out, &mut last_status)?;
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
        };
        if let Err(e) = result {
            refused(out, &mut summary, &e)?;
            if options.strict {
                break;
            }
        }
    }
    summary.events = table.seq();
    summary.finished = table.finished();
    Ok(summary)
}

fn print_line(out: &mut dyn Write, l: &LogLine, numbered: bool) -> io::Result<()> {
    if numbered {
        writeln!(out, "{:>4} [{}] {}", l.seq, l.seat, l.text)
    } else {
        writeln!(out, "  {}", l.text)
    }
}

/// Split an optional `seat:` prefix off a line and resolve it to a seat.
fn split_seat<'a>(table: &AnyTable, text: &'a str) -> Result<(Seat, &'a str), CommandError> {
    match text.split_once(':') {
        // Seat names may hold spaces ("Breakhelm X-19: attack"); seat names
        // never contain a colon.
        Some((seat, rest)) if !seat.trim().is_empty() => {
            Ok((table.resolve_seat(seat)?, rest.trim()))
        }
        _ => Ok((table.default_seat(), text)),
    }
}

fn print_status(table: &AnyTable, out: &mut dyn Write, last: &mut String) -> io::Result<()> {
    let seat = table.default_seat();
    let status = table.status(&seat);
    if status != *last {
        writeln!(out, "-- {status}")?;
        let names: Vec<String> = table.legal(&seat).into_iter().map(|c| c.name).collect();
        if !names.is_empty() {
            writeln!(out, "-- {seat} may: {}", names.join(", "))?;
        }
        *last = status;
    }
    Ok(())
}

fn print_help(table: &AnyTable, seat: &Seat, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{seat} may now:")?;
    for spec in table.legal(seat) {
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
    let seats: Vec<String> = table.seats().iter().map(ToString::to_string).collect();
    writeln!(
        out,
        "  (and: ?, /status, /odds, /view [SEAT], /log, /undo (GM), /quit; prefix a line with SEAT: to act as another seat: {})",
        seats.join(", ")
    )
}
