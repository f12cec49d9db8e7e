//! The terminal play driver shared by every system: `tabula <system> play TABLE`.
//!
//! It shows whose turn it is and what they may do, reads typed commands (from a
//! person or a script file), gives them to the [`AnyTable`] — the same interface
//! the server uses, so the two cannot drift apart — and prints every result with
//! every die and card. A refused command prints the rule that refused it and
//! changes nothing.
//!
//! A line is `[SEAT:] COMMAND ARGS...` in the one command grammar
//! ([`tabula_core::grammar`], `docs/COMMANDS.md`). Without a seat prefix the
//! command is given by the seat whose turn it is. `SEAT:` is a seat prefix only
//! when the text before the colon is a seat (so free text may hold colons); a
//! line whose first word is no command and whose text before a colon is no seat
//! is refused with the list of seats.
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
//! | `sheet [NAME]` | a character's sheet in plain text, as the seat may read it |
//! | `view [SEAT]` | what a seat may see, as JSON: a player only its own view |
//! | `log` | every event so far, as the seat may see it |
//! | `undo` | the GM's alone (`gm: undo`): take back the last command, dice with it |
//! | `quit` | stop (says so when changes are not saved) |
//!
//! Lines that are empty or start with `#` are comments.
//!
//! With [`PlayOptions::json`] every line of output is one JSON object
//! ([`PlayMessage`]): a `prompt` before each line is read, an `event` per
//! accepted event, a `refused` per refusal, one object per driver command, and
//! a closing `summary`. The schema is in `docs/COMMANDS.md`.

use serde::Serialize;
use std::io::{self, BufRead, Write};

use tabula_core::grammar;
use tabula_core::roller::{Answer, RollError, Roller};
use tabula_core::rule::Refusal;
use tabula_core::system::{
    ChoiceOdds, CommandDoc, CommandParseError, CommandSpec, ParamKind, Seat, find_command,
};

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
    /// Print JSON lines ([`PlayMessage`]) instead of text.
    pub json: bool,
}

/// What a play session did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlaySummary {
    /// Commands accepted (undo included).
    pub accepted: usize,
    /// Commands refused (by the rules, the seat rules, or unreadable).
    pub refused: usize,
    /// Commands withdrawn at a manual dice prompt (`undo` or `quit` there).
    pub withdrawn: usize,
    /// Rows in the table's log at the end.
    pub events: u64,
    /// True when the encounter reached its end.
    pub finished: bool,
}

/// The words a line editor may offer to complete, refreshed before each line:
/// the commands the seat may give now, the seats, and the names that fit the
/// legal commands' parameters (characters, cards, Stats, Zones...).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completions {
    /// Command words: the legal commands and the driver's words.
    pub commands: Vec<String>,
    /// Seat names.
    pub seats: Vec<String>,
    /// Every name a legal command's parameter may take.
    pub names: Vec<String>,
}

/// Where command lines come from: a script's text, a test's bytes, a terminal
/// reader, or a line editor.
pub trait LineSource {
    /// Append the next line to `buf`; returns the bytes read, 0 at the end.
    ///
    /// # Errors
    /// The source's I/O errors, and `InvalidData` for a line longer than
    /// [`MAX_LINE`] bytes (read no further than that, so a source that never
    /// ends a line cannot take unbounded memory).
    fn next_line(&mut self, buf: &mut String) -> io::Result<usize>;

    /// True when the source shows its own prompt (a line editor): the driver
    /// then prints no `> `.
    fn prompts(&self) -> bool {
        false
    }

    /// The words to complete for the next line (a line editor's Tab).
    fn offer(&mut self, completions: Completions) {
        let _ = completions;
    }
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
pub enum DriverCommand {
    /// `?`, `help`, `/help`: the commands the seat may give now.
    Help,
    /// `status`: whose turn it is.
    Status,
    /// `odds`: the odds of the seat's pending choice.
    Odds,
    /// `sheet [NAME]`: a character sheet in plain text.
    Sheet,
    /// `view [SEAT]`: a seat's view as JSON.
    View,
    /// `log`: every row so far as the seat may see it.
    Log,
    /// `undo`: the GM takes back the last command.
    Undo,
    /// `auto [off] NAME`: hand a participant to the policy.
    Auto,
    /// `quit`: stop.
    Quit,
}

/// The driver's words, for help and completion.
pub const DRIVER_WORDS: &[&str] = &[
    "?", "/help", "/status", "/odds", "/sheet", "/view", "/log", "/undo", "/auto", "/quit",
];

/// What a line (without its seat prefix) asks of the driver: `Ok(None)`
/// when it is no driver command (a book command, table talk or a free roll,
/// for [`AnyTable::submit_text`]). The book's commands win: a driver word is
/// the driver's only when the system has no command of that name; `/WORD`
/// is always the driver's (or the table's: `/say`, `/roll`).
///
/// # Errors
/// [`DriverError::Unknown`] for `/WORD` that is no driver or table word;
/// [`DriverError::Grammar`] for an unclosed quote.
pub fn driver_line(
    table: &AnyTable,
    seat: &Seat,
    body: &str,
) -> Result<Option<(DriverCommand, Vec<String>)>, DriverError> {
    // A line over the cap is the engine's to refuse (`CommandError::TooLong`).
    if body.len() > MAX_LINE {
        return Ok(None);
    }
    // Talk and the free roller take their text as written (quotes and all).
    if let Some(w) = crate::talk::table_word(body)
        && (w.slashed || !table.knows_command(seat, body))
    {
        return Ok(None);
    }
    // Only a driver word is read here; every other line is the book's to read.
    let first = body.split_whitespace().next().unwrap_or("");
    if first != "?" && !first.starts_with('/') && driver_command(first).is_none() {
        return Ok(None);
    }
    let words = grammar::words(body).map_err(|e| DriverError::Grammar(e.into()))?;
    let word = words.first().map(String::as_str).unwrap_or("");
    let driver = match word.strip_prefix('/') {
        Some(w) => match driver_command(w) {
            Some(d) => Some(d),
            None if crate::talk::table_word(body).is_some() => None,
            None => {
                return Err(DriverError::Unknown {
                    word: word.to_string(),
                });
            }
        },
        None if word == "?" => Some(DriverCommand::Help),
        None => driver_command(word).filter(|_| !table.knows_command(seat, body)),
    };
    Ok(driver.map(|d| (d, words)))
}

/// A line the driver could not read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DriverError {
    /// `/WORD` that is no driver command.
    #[error("unknown driver command {word:?}; they are {}", DRIVER_WORDS[1..].join(", "))]
    Unknown {
        /// The word.
        word: String,
    },
    /// The line's quotes do not close.
    #[error("{0}")]
    Grammar(CommandParseError),
}

/// The answer to a driver command that only reads the table (`help`,
/// `status`, `odds`, `sheet`, `view`, `log`) for `seat`, with the line's
/// `words` (the command word first); `None` for the ones that change or
/// leave the table (`undo`, `auto`, `quit`), which the caller carries out.
/// The terminal's `play` and the server's command line both answer through
/// this, so the page's command line behaves as `play` (issue 27, item 5).
///
/// # Errors
/// [`CommandError`] for a sheet name that fits no character or a view the
/// seat may not see.
pub fn driver_answer(
    table: &AnyTable,
    seat: &Seat,
    command: DriverCommand,
    words: &[String],
) -> Option<Result<PlayMessage, CommandError>> {
    let arg = words.get(1).map(String::as_str);
    let seat_name = seat.to_string();
    Some(match command {
        DriverCommand::Help => Ok(PlayMessage::Help {
            seat: seat_name,
            commands: help_entries(table.commands(), &table.legal(seat)),
            seats: table.seats().iter().map(ToString::to_string).collect(),
        }),
        DriverCommand::Status => Ok(PlayMessage::Status {
            status: table.status(seat),
            seat: seat_name,
        }),
        DriverCommand::Odds => Ok(PlayMessage::Odds {
            odds: table.odds(seat),
            seat: seat_name,
        }),
        DriverCommand::Sheet => table.sheet(seat, arg).map(|text| PlayMessage::Sheet {
            seat: seat_name,
            text,
        }),
        DriverCommand::View => {
            let whose = match arg {
                Some(name) => table.resolve_seat(name),
                None => Ok(seat.clone()),
            };
            whose
                .and_then(|w| table.view(seat, &w).map(|v| (w, v)))
                .map(|(w, view)| PlayMessage::View {
                    seat: w.to_string(),
                    view,
                })
        }
        DriverCommand::Log => Ok(PlayMessage::Log {
            lines: table.log_for(seat, 0),
            seat: seat_name,
        }),
        DriverCommand::Undo | DriverCommand::Auto | DriverCommand::Quit => return None,
    })
}

fn driver_command(word: &str) -> Option<DriverCommand> {
    Some(match word.to_ascii_lowercase().as_str() {
        "?" | "help" | "commands" => DriverCommand::Help,
        "status" => DriverCommand::Status,
        "odds" => DriverCommand::Odds,
        "sheet" => DriverCommand::Sheet,
        "view" => DriverCommand::View,
        "log" => DriverCommand::Log,
        "undo" => DriverCommand::Undo,
        "auto" | "autopilot" => DriverCommand::Auto,
        "quit" | "exit" => DriverCommand::Quit,
        _ => return None,
    })
}

/// One line of `--json play` output. Every object has a `type`; the fields of
/// each type are listed in `docs/COMMANDS.md` ("`--json play`").
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum PlayMessage {
    /// Before each line is read: whose turn it is, the status, what that seat
    /// may do, and the odds of its pending choice (probabilities in 0..1).
    Prompt {
        /// The log's length so far.
        seq: u64,
        /// The seat a line without a prefix is given by.
        seat: String,
        /// The status in words.
        status: String,
        /// The commands that seat may give now.
        legal: Vec<CommandSpec>,
        /// The odds of its pending choice.
        odds: Vec<ChoiceOdds>,
    },
    /// One accepted event (or undo), as the seat that gave the command sees it.
    Event {
        /// The line that gave it.
        line: String,
        /// The row as that seat sees it.
        #[serde(flatten)]
        row: LogLine,
    },
    /// A refused line: nothing changed.
    Refused {
        /// The line.
        line: String,
        /// The error in words.
        message: String,
        /// The error as data: a `CommandError` (`{"error": "rule", ...}` with
        /// the `RuleError`, its rule and seed file) or a driver error.
        error: serde_json::Value,
    },
    /// A command withdrawn at a manual dice prompt: nothing changed.
    Withdrawn {
        /// The line.
        line: String,
        /// True when play stops (`quit` at the prompt).
        quit: bool,
    },
    /// `help`: the commands the seat may give now, with their usage.
    Help {
        /// The seat asking.
        seat: String,
        /// One entry per legal command.
        commands: Vec<HelpEntry>,
        /// The seats a line may be prefixed with (`SEAT:`).
        seats: Vec<String>,
    },
    /// `status`.
    Status {
        /// The seat asking.
        seat: String,
        /// The status in words.
        status: String,
    },
    /// `odds`: each option's chance of success, 0..1.
    Odds {
        /// The seat asking.
        seat: String,
        /// The options.
        odds: Vec<ChoiceOdds>,
    },
    /// `sheet`: a character sheet in plain text.
    Sheet {
        /// The seat asking.
        seat: String,
        /// The sheet.
        text: String,
    },
    /// `view`: a seat's view as the system's JSON.
    View {
        /// The seat whose view it is.
        seat: String,
        /// The view.
        view: serde_json::Value,
    },
    /// `log`: every row so far, as the seat may see them.
    Log {
        /// The seat asking.
        seat: String,
        /// The rows.
        lines: Vec<LogLine>,
    },
    /// `auto`: the participants on autopilot now (after the change asked for).
    Autopilot {
        /// Their names as the table writes them.
        on: Vec<String>,
        /// Every participant there is.
        participants: Vec<String>,
    },
    /// A remark of the driver (the encounter is over; unsaved changes).
    Note {
        /// The remark.
        text: String,
    },
    /// The end of the session.
    Summary(PlaySummary),
}

/// One legal command in `help`, with its usage from the system's command
/// reference ([`CommandDoc`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HelpEntry {
    /// The command word.
    pub name: String,
    /// How it is written (from the reference; made from the parameters when
    /// the system has no reference entry).
    pub usage: String,
    /// One line on what it does.
    pub summary: String,
    /// Its parameters with their ranges and choices now.
    pub params: Vec<tabula_core::system::ParamSpec>,
}

/// The output: text for people, or JSON lines.
struct Out<'a> {
    w: &'a mut dyn Write,
    json: bool,
}

impl Out<'_> {
    fn emit(&mut self, message: &PlayMessage) -> io::Result<()> {
        if self.json {
            let line = serde_json::to_string(message).map_err(io::Error::other)?;
            return writeln!(self.w, "{line}");
        }
        match message {
            PlayMessage::Prompt { .. } | PlayMessage::Summary(_) => Ok(()),
            PlayMessage::Event { row, .. } => writeln!(self.w, "  {}", row.text),
            PlayMessage::Refused { message, .. } => writeln!(self.w, "refused: {message}"),
            PlayMessage::Withdrawn { quit, .. } => writeln!(
                self.w,
                "withdrawn at the dice prompt: nothing changed{}",
                if *quit { "; stopping" } else { "" }
            ),
            PlayMessage::Help {
                seat,
                commands,
                seats,
            } => {
                writeln!(self.w, "{seat} may now:")?;
                for c in commands {
                    writeln!(self.w, "  {}  -- {}", c.usage, c.summary)?;
                }
                writeln!(
                    self.w,
                    "  (and: ?, /status, /odds, /sheet [NAME], /view [SEAT], /log, /undo (GM), /auto [off] NAME (GM), /quit; \"quote names with spaces\"; prefix a line with SEAT: to act as another seat: {})",
                    seats.join(", ")
                )
            }
            PlayMessage::Status { status, .. } => writeln!(self.w, "{status}"),
            PlayMessage::Odds { seat, odds } => {
                if odds.is_empty() {
                    writeln!(self.w, "no odds to offer {seat} for this moment")?;
                }
                for o in odds {
                    writeln!(
                        self.w,
                        "  {}: {} ({})",
                        o.choice,
                        percent(o.probability),
                        o.detail
                    )?;
                }
                Ok(())
            }
            PlayMessage::Sheet { text, .. } => writeln!(self.w, "{}", text.trim_end()),
            PlayMessage::View { view, .. } => {
                let json = serde_json::to_string_pretty(view)
                    .unwrap_or_else(|e| format!("(view could not be shown: {e})"));
                writeln!(self.w, "{json}")
            }
            PlayMessage::Log { lines, .. } => {
                for l in lines {
                    writeln!(self.w, "{:>4} [{}] {}", l.seq, l.seat, l.text)?;
                }
                Ok(())
            }
            PlayMessage::Autopilot { on, participants } => {
                if on.is_empty() {
                    writeln!(
                        self.w,
                        "autopilot: nobody (auto NAME hands one of {} to the policy)",
                        participants.join(", ")
                    )
                } else {
                    writeln!(
                        self.w,
                        "autopilot: {} (auto off NAME takes one back)",
                        on.join(", ")
                    )
                }
            }
            PlayMessage::Note { text } => writeln!(self.w, "{text}"),
        }
    }
}

/// A probability as players read it: percent with one decimal (`80.4%`).
pub fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
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
    let mut out = Out {
        w: out,
        json: options.json,
    };
    let mut summary = PlaySummary::default();
    let mut last_status = String::new();
    let mut now = Now::default();
    let mut unsaved = 0usize;
    let mut line = String::new();
    loop {
        if !table.finished() {
            let moved = autopilot(table, &mut manual, &mut out, &mut summary)?;
            if moved > 0 {
                unsaved += moved;
                after_command(table)?;
            }
        }
        if table.finished() {
            out.emit(&PlayMessage::Note {
                text: "The encounter is over.".into(),
            })?;
            break;
        }
        let now = now.refresh(table);
        prompt(table, now, &mut out, &mut last_status)?;
        input.offer(completions_from(table, &now.legal));
        if !options.echo && !options.json && !input.prompts() {
            write!(out.w, "> ")?;
            out.w.flush()?;
        }
        line.clear();
        if input.next_line(&mut line)? == 0 {
            break;
        }
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if options.echo && !options.json {
            writeln!(out.w, "> {text}")?;
        }
        let step = step(table, text, &mut manual, &mut out, &mut summary)?;
        match step {
            Step::Changed => {
                unsaved += 1;
                after_command(table)?;
            }
            Step::Same => {}
            Step::Refused => {
                summary.refused += 1;
                if options.strict {
                    break;
                }
            }
            Step::Quit => {
                if unsaved > 0 && !options.saving {
                    out.emit(&PlayMessage::Note {
                        text: format!(
                            "{unsaved} accepted command(s) are not saved: start with --save FILE to keep the table"
                        ),
                    })?;
                }
                break;
            }
        }
    }
    summary.events = table.seq();
    summary.finished = table.finished();
    out.emit(&PlayMessage::Summary(summary))?;
    Ok(summary)
}

/// The dice of the next command: the person's (`--manual`) or the table's.
fn dice_of<'a>(manual: &'a mut Option<&mut dyn Roller>) -> Dice<'a> {
    match manual.as_mut() {
        Some(m) => Dice::Manual(&mut **m),
        None => Dice::Table,
    }
}

/// The `autopilot` message: who is on autopilot, and who could be.
fn autopilot_state(table: &AnyTable) -> PlayMessage {
    PlayMessage::Autopilot {
        on: table.autopilot().to_vec(),
        participants: table.participants(),
    }
}

/// The most commands the autopilot gives between two lines typed by people.
pub const MAX_AUTOPILOT_COMMANDS: usize = 1_000;

/// Play every step the table waits on from a participant on autopilot
/// (`auto NAME`), printing each accepted command's rows like anyone's, with
/// the line `auto: NAME`. Stops at the first step someone else must take,
/// the end of the encounter, or [`MAX_AUTOPILOT_COMMANDS`]. A refused
/// suggestion (a policy bug) or a withdrawn manual roll switches that
/// participant's autopilot off, with the reason printed. Returns how many
/// commands were accepted.
fn autopilot(
    table: &mut AnyTable,
    manual: &mut Option<&mut dyn Roller>,
    out: &mut Out<'_>,
    summary: &mut PlaySummary,
) -> io::Result<usize> {
    let mut accepted = 0;
    while accepted < MAX_AUTOPILOT_COMMANDS {
        let dice = dice_of(manual);
        let before: Vec<String> = table.autopilot().to_vec();
        match table.autopilot_step(dice) {
            Ok(Some((name, _seat, acc))) => {
                for row in acc.events {
                    out.emit(&PlayMessage::Event {
                        line: format!("auto: {name}"),
                        row,
                    })?;
                }
                summary.accepted += 1;
                accepted += 1;
            }
            Ok(None) => {
                if table.autopilot().len() < before.len() {
                    out.emit(&PlayMessage::Note {
                        text:
                            "the autopilot had no command to give; it is off for that participant"
                                .into(),
                    })?;
                    out.emit(&autopilot_state(table))?;
                }
                break;
            }
            Err(e) => {
                let line = "auto".to_string();
                if let CommandError::Rule(r) = &e
                    && matches!(r.kind, Refusal::Roll(RollError::Withdrawn { .. }))
                {
                    summary.withdrawn += 1;
                    out.emit(&PlayMessage::Withdrawn { line, quit: false })?;
                } else {
                    summary.refused += 1;
                    out.emit(&refusal(&line, &e))?;
                }
                out.emit(&autopilot_state(table))?;
                break;
            }
        }
        if table.finished() {
            break;
        }
    }
    Ok(accepted)
}

/// What one line did.
enum Step {
    /// The table changed (a command or undo was accepted).
    Changed,
    /// Nothing changed and nothing went wrong (a driver query, a withdrawal).
    Same,
    /// The line was refused.
    Refused,
    /// Stop playing.
    Quit,
}

fn refusal(line: &str, e: &CommandError) -> PlayMessage {
    PlayMessage::Refused {
        line: line.to_string(),
        message: e.to_string(),
        error: serde_json::to_value(e).unwrap_or(serde_json::Value::Null),
    }
}

fn driver_refusal(line: &str, kind: &str, message: String) -> PlayMessage {
    PlayMessage::Refused {
        line: line.to_string(),
        error: serde_json::json!({ "error": kind, "message": message }),
        message,
    }
}

/// Read and carry out one line.
fn step(
    table: &mut AnyTable,
    text: &str,
    manual: &mut Option<&mut dyn Roller>,
    out: &mut Out<'_>,
    summary: &mut PlaySummary,
) -> io::Result<Step> {
    let (seat, body) = match split_seat(table, text) {
        Ok(x) => x,
        Err(e) => {
            out.emit(&refusal(text, &e))?;
            return Ok(Step::Refused);
        }
    };
    let (driver, words) = match driver_line(table, &seat, body) {
        Ok(Some((d, words))) => (Some(d), words),
        Ok(None) => (None, Vec::new()),
        Err(DriverError::Unknown { word }) => {
            out.emit(&driver_refusal(
                text,
                "unknown-driver-command",
                DriverError::Unknown { word }.to_string(),
            ))?;
            return Ok(Step::Refused);
        }
        Err(DriverError::Grammar(e)) => {
            out.emit(&refusal(text, &CommandError::Parse(e)))?;
            return Ok(Step::Refused);
        }
    };
    let result: Result<Step, CommandError> = match driver {
        Some(DriverCommand::Quit) => return Ok(Step::Quit),
        Some(
            d @ (DriverCommand::Help
            | DriverCommand::Status
            | DriverCommand::Odds
            | DriverCommand::Sheet
            | DriverCommand::View
            | DriverCommand::Log),
        ) => match driver_answer(table, &seat, d, &words) {
            Some(Ok(message)) => {
                out.emit(&message)?;
                Ok(Step::Same)
            }
            Some(Err(e)) => Err(e),
            None => Ok(Step::Same),
        },
        Some(DriverCommand::Auto) => {
            let (on, name) = match words.get(1).map(|w| w.to_ascii_lowercase()).as_deref() {
                None => (None, None),
                Some("off") => (Some(false), words.get(2)),
                Some("on") => (Some(true), words.get(2)),
                Some(_) => (Some(true), words.get(1)),
            };
            let changed = match (on, name) {
                (None, _) => Ok(()),
                (Some(_), None) => Err(CommandError::Parse(CommandParseError::Arguments {
                    command: "auto".into(),
                    usage: "auto [off] NAME".into(),
                    problem: "name the participant to hand to the autopilot or take back".into(),
                })),
                (Some(on), Some(name)) => table.set_autopilot(&seat, name, on).map(|_| ()),
            };
            match changed {
                Ok(()) => {
                    out.emit(&autopilot_state(table))?;
                    Ok(Step::Same)
                }
                Err(e) => Err(e),
            }
        }
        Some(DriverCommand::Undo) => match table.undo(&seat) {
            Ok(acc) => {
                for row in acc.events {
                    out.emit(&PlayMessage::Event {
                        line: text.to_string(),
                        row,
                    })?;
                }
                summary.accepted += 1;
                Ok(Step::Changed)
            }
            Err(CommandError::GmOnly { .. }) => Err(CommandError::GmOnly {
                what: "undo (write `gm: undo`)".into(),
            }),
            Err(e) => Err(e),
        },
        None => {
            let dice = dice_of(manual);
            match table.submit_text(&seat, body, dice) {
                Ok(acc) => {
                    for row in acc.events {
                        out.emit(&PlayMessage::Event {
                            line: text.to_string(),
                            row,
                        })?;
                    }
                    summary.accepted += 1;
                    Ok(Step::Changed)
                }
                Err(e) => Err(e),
            }
        }
    };
    match result {
        Ok(step) => Ok(step),
        Err(CommandError::Rule(r))
            if matches!(r.kind, Refusal::Roll(RollError::Withdrawn { .. })) =>
        {
            let quit = matches!(r.kind, Refusal::Roll(RollError::Withdrawn { quit: true }));
            summary.withdrawn += 1;
            out.emit(&PlayMessage::Withdrawn {
                line: text.to_string(),
                quit,
            })?;
            Ok(if quit { Step::Quit } else { Step::Same })
        }
        Err(e) => {
            out.emit(&refusal(text, &e))?;
            Ok(Step::Refused)
        }
    }
}

/// `help`'s entries: each legal command with its usage from the system's
/// reference, or made from its parameters where the reference has no entry.
pub fn help_entries(reference: &[CommandDoc], legal: &[CommandSpec]) -> Vec<HelpEntry> {
    legal
        .iter()
        .map(|spec| {
            let usage = match find_command(reference, &spec.name) {
                Some(doc) => doc.usage.to_string(),
                None => {
                    let params: Vec<String> = spec
                        .params
                        .iter()
                        .map(|p| match &p.kind {
                            ParamKind::Int { min, max } => format!("<{} {min}..{max}>", p.name),
                            ParamKind::Choice { options } => {
                                format!("<{}: {}>", p.name, options.join("|"))
                            }
                            ParamKind::ChoiceOrSheet { options } => {
                                format!("<{}: {}|FILE.toml>", p.name, options.join("|"))
                            }
                            ParamKind::Text => format!("<{}>", p.name),
                            ParamKind::NumberOrName { min, max, names } => {
                                format!("<{} {min}..{max}|{}>", p.name, names.join("|"))
                            }
                        })
                        .collect();
                    format!("{} {}", spec.name, params.join(" "))
                        .trim_end()
                        .to_string()
                }
            };
            HelpEntry {
                name: spec.name.clone(),
                usage,
                summary: spec.summary.clone(),
                params: spec.params.clone(),
            }
        })
        .collect()
}

/// The words to complete now: the default seat's legal commands and the
/// driver's words, the seats, and every option of the legal commands'
/// parameters.
pub fn completions(table: &AnyTable) -> Completions {
    let seat = table.default_seat();
    completions_from(table, &table.legal(&seat))
}

/// [`completions`] from the default seat's legal commands, already known.
fn completions_from(table: &AnyTable, legal: &[CommandSpec]) -> Completions {
    let mut commands: Vec<String> = legal.iter().map(|c| c.name.clone()).collect();
    commands.extend(DRIVER_WORDS.iter().map(|w| w.to_string()));
    commands.extend(
        [
            "status", "odds", "sheet", "view", "log", "undo", "auto", "quit", "say", "ooc",
            "narrate", "whisper", "roll",
        ]
        .map(String::from),
    );
    let seats: Vec<String> = table.seats().iter().map(ToString::to_string).collect();
    let mut names: Vec<String> = Vec::new();
    for spec in legal {
        for p in &spec.params {
            match &p.kind {
                ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => {
                    names.extend(options.iter().cloned())
                }
                ParamKind::NumberOrName { names: n, .. } => names.extend(n.iter().cloned()),
                ParamKind::Int { .. } | ParamKind::Text => {}
            }
        }
    }
    for list in [&mut commands, &mut names] {
        list.sort();
        list.dedup();
    }
    Completions {
        commands,
        seats,
        names,
    }
}

/// Split an optional `SEAT:` prefix off a line and resolve it to a seat: the
/// text before the first colon is a seat prefix when it names a seat (exactly
/// or by unambiguous prefix). When it names none and the line's first word is
/// no command, the line is refused with the seats; otherwise the whole line is
/// the command of the seat whose turn it is (free text may hold colons).
fn split_seat<'a>(table: &AnyTable, text: &'a str) -> Result<(Seat, &'a str), CommandError> {
    let seats = table.seats();
    if let Some((seat, rest)) = grammar::seat_prefix(text, &seats) {
        return Ok((seat, rest));
    }
    let default = table.default_seat();
    if let Some((before, rest)) = text.split_once(':') {
        let first = text.split_whitespace().next().unwrap_or("");
        let is_command = table.knows_command(&default, text)
            || driver_command(first.trim_start_matches('/')).is_some()
            || first == "?";
        if !is_command && !before.trim().is_empty() {
            // Not a command: read it as a seat typed by prefix, or refuse it
            // naming the seats.
            return Ok((
                table.resolve_seat(before.trim().trim_matches('"'))?,
                rest.trim(),
            ));
        }
    }
    Ok((default, text))
}

/// Print the status when it changed (text), or a prompt object (JSON) before
/// every line.
/// What the prompt shows for the table as it is at `seq`: computed once per
/// change of the table (the status line's odds are most of a driver's time),
/// not again after a refused line or a query.
#[derive(Default)]
struct Now {
    seq: Option<u64>,
    seat: Option<Seat>,
    status: String,
    legal: Vec<CommandSpec>,
}

impl Now {
    fn refresh(&mut self, table: &AnyTable) -> &Self {
        let seat = table.default_seat();
        if self.seq != Some(table.seq()) || self.seat.as_ref() != Some(&seat) {
            self.status = table.status(&seat);
            self.legal = table.legal(&seat);
            self.seq = Some(table.seq());
            self.seat = Some(seat);
        }
        self
    }
}

fn prompt(table: &AnyTable, now: &Now, out: &mut Out<'_>, last: &mut String) -> io::Result<()> {
    let seat = now.seat.clone().unwrap_or_else(|| table.default_seat());
    if out.json {
        return out.emit(&PlayMessage::Prompt {
            seq: table.seq(),
            seat: seat.to_string(),
            legal: now.legal.clone(),
            odds: table.odds(&seat),
            status: now.status.clone(),
        });
    }
    if now.status != *last {
        writeln!(out.w, "-- {}", now.status)?;
        let names: Vec<&str> = now.legal.iter().map(|c| c.name.as_str()).collect();
        if !names.is_empty() {
            writeln!(out.w, "-- {seat} may: {}", names.join(", "))?;
        }
        last.clone_from(&now.status);
    }
    Ok(())
}

/// Tab completion: the word under the cursor at the end of `before` (the line
/// up to the cursor) and what it may become. Returns where the word starts
/// (a byte index into `before`) and the replacements, each quoted when it holds
/// a space. The first word (or the first after a `SEAT:` prefix) completes to
/// commands and to `SEAT:` prefixes; later words to names and seats. Matching
/// is by prefix without regard to case, as the grammar matches names.
pub fn complete(before: &str, offered: &Completions) -> (usize, Vec<String>) {
    // Where the current word starts: after the last white space that is not
    // inside an open quote.
    let mut start = 0;
    let mut in_quote = false;
    for (i, c) in before.char_indices() {
        if c == '"' {
            if !in_quote {
                start = i;
            }
            in_quote = !in_quote;
        } else if c.is_whitespace() && !in_quote {
            start = i + c.len_utf8();
        }
    }
    let word = &before[start..];
    let typed = tabula_core::names::normalize(word.trim_start_matches('"'));
    let head = before[..start].trim();
    // The first word, or the first after a `SEAT:` prefix (a seat's name may
    // hold spaces: `Breakhelm X-19: sh`).
    let first = head.is_empty() || head.ends_with(':');
    let mut out: Vec<String> = Vec::new();
    let mut offer = |name: &str, suffix: &str| {
        if tabula_core::names::normalize(name).starts_with(&typed) {
            let w = format!("{}{suffix}", grammar::quote(name));
            if !out.contains(&w) {
                out.push(w);
            }
        }
    };
    if first {
        for c in &offered.commands {
            offer(c, "");
        }
        if !head.ends_with(':') {
            for s in &offered.seats {
                offer(s, ":");
            }
        }
    } else {
        for n in offered.names.iter().chain(&offered.seats) {
            offer(n, "");
        }
    }
    (start, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_completes_commands_seats_and_quoted_names() {
        let offered = Completions {
            commands: vec!["attack".into(), "assist".into(), "draw".into()],
            seats: vec!["GM".into(), "Ana".into()],
            names: vec!["Iron Wolf".into(), "Imp".into()],
        };
        assert_eq!(complete("at", &offered), (0, vec!["attack".to_string()]));
        assert_eq!(complete("an", &offered), (0, vec!["Ana:".to_string()]));
        assert_eq!(complete("Ana: dr", &offered), (5, vec!["draw".to_string()]));
        assert_eq!(
            complete("\"Breakhelm X-19\": dr", &offered),
            (18, vec!["draw".to_string()])
        );
        assert_eq!(
            complete("attack ir", &offered),
            (7, vec!["\"Iron Wolf\"".to_string()])
        );
        assert_eq!(
            complete("attack \"iron w", &offered),
            (7, vec!["\"Iron Wolf\"".to_string()])
        );
        assert_eq!(complete("attack i", &offered).1.len(), 2);
        assert!(complete("attack zz", &offered).1.is_empty());
    }
}
