//! What every subcommand shares: output mode, errors and exit codes, building a
//! roller from `--seed` / `--rolled` / `--manual`, and running `play`.

use serde::Serialize;
use std::fmt;
use std::cell::RefCell;
use std::io::{self, BufReader, Write};
use std::rc::Rc;
use std::path::{Path, PathBuf};

use tabula_engine::core::roller::{Ask, Manual, RollError, Roller, Seeded};
use tabula_engine::core::system::{Table, TextPlay};
use tabula_engine::core::{Card, Die};
use tabula_engine::play::{self, LineSource, PlayOptions, SavedTable};

/// Exit code for bad input (a refused roll, an unreadable file, a broken rule).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for failures that are not the user's input (I/O, internal).
pub const EXIT_FAILURE: u8 = 1;

/// What a subcommand may fail with.
#[derive(Debug)]
pub enum CliError {
    /// The user's input is wrong: printed to stderr, exit code 2.
    BadInput(String),
    /// Anything else (I/O): printed to stderr, exit code 1.
    Failure(String),
}

impl CliError {
    /// Bad input from anything displayable.
    pub fn bad(e: impl fmt::Display) -> Self {
        CliError::BadInput(e.to_string())
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::BadInput(_) => EXIT_BAD_INPUT,
            CliError::Failure(_) => EXIT_FAILURE,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::BadInput(m) | CliError::Failure(m) => f.write_str(m),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Failure(e.to_string())
    }
}

/// Output settings shared by every subcommand.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    /// Print one JSON document instead of text.
    pub json: bool,
}

impl Ctx {
    /// Print `value` as JSON, or `text()` as text, to stdout.
    pub fn emit<T: Serialize>(&self, value: &T, text: impl FnOnce() -> String) -> Result<(), CliError> {
        let mut out = io::stdout().lock();
        if self.json {
            let s = serde_json::to_string_pretty(value)
                .map_err(|e| CliError::Failure(e.to_string()))?;
            writeln!(out, "{s}")?;
        } else {
            writeln!(out, "{}", text())?;
        }
        Ok(())
    }
}

/// The roller a one-shot command uses: the dice you rolled yourself (`--rolled`),
/// else a seeded stream (`--seed`), else fresh entropy.
pub fn roller_for(seed: Option<u64>, rolled: Option<&str>) -> Box<dyn Roller> {
    match (rolled, seed) {
        (Some(list), _) => Box::new(Manual::from_list(list)),
        (None, Some(s)) => Box::new(Seeded::from_seed(s)),
        (None, None) => Box::new(Seeded::from_entropy()),
    }
}

/// Check that a manual roller used exactly the values given.
///
/// # Errors
/// Bad input naming what is missing or left over.
pub fn finish(roller: &mut dyn Roller) -> Result<(), CliError> {
    roller.finish().map_err(|e: RollError| CliError::bad(e))
}

/// Read a file to text, naming it in the error.
///
/// # Errors
/// Bad input when the file cannot be read.
pub fn read_file(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::BadInput(format!("cannot read {}: {e}", path.display())))
}

/// The options of `tabula <system> play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// The table file (TOML) to play, e.g. examples/sour-grapes/table.toml.
    pub table: PathBuf,
    /// Run the commands in FILE instead of reading them from the terminal.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Seed the dice, so the same seed and commands give the same game.
    #[arg(long, conflicts_with = "manual")]
    pub seed: Option<u64>,
    /// Ask for each die or card instead of rolling (physical dice and cards).
    #[arg(long)]
    pub manual: bool,
    /// Stop at the first refused command (a script must replay exactly).
    #[arg(long)]
    pub strict: bool,
    /// Save the table (and the seeded dice stream) to FILE after every command.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Resume the table saved in FILE (by --save) instead of starting TABLE anew.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

/// Run `tabula <system> play` for system `S`.
///
/// # Errors
/// Bad input for a broken table or script file, or (with `--strict`) a refused
/// command; failures for I/O.
pub fn play<S: TextPlay>(args: &PlayArgs, ctx: Ctx) -> Result<(), CliError> {
    let (mut table, seeded) = match &args.resume {
        Some(path) => {
            let saved: SavedTable<S> = serde_json::from_str(&read_file(path)?)
                .map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
            if saved.system != S::ID {
                return Err(CliError::BadInput(format!(
                    "{} is a saved {} table, not {}",
                    path.display(),
                    saved.system,
                    S::ID
                )));
            }
            (saved.table, saved.roller)
        }
        None => {
            let text = read_file(&args.table)?;
            let dir = args.table.parent().unwrap_or(Path::new("."));
            let state = S::setup(&text, dir)
                .map_err(|e| CliError::BadInput(format!("{}: {e}", args.table.display())))?;
            (Table::new(state), None)
        }
    };
    let seeded: Option<Rc<RefCell<Seeded>>> = if args.manual {
        None
    } else {
        let s = match (seeded, args.seed) {
            (Some(resumed), _) => resumed,
            (None, Some(seed)) => Seeded::from_seed(seed),
            (None, None) => Seeded::from_entropy(),
        };
        Some(Rc::new(RefCell::new(s)))
    };
    let mut roller: Box<dyn Roller> = match &seeded {
        Some(shared) => Box::new(SharedSeeded(Rc::clone(shared))),
        None => Box::new(Manual::prompting(Box::new(
            |ask: Ask, err: Option<&RollError>| {
                if let Some(e) = err {
                    eprintln!("  {e}");
                }
                eprint!("  {ask}: ");
                let _ = io::stderr().flush();
                let mut line = String::new();
                match io::stdin().read_line(&mut line) {
                    Ok(0) | Err(_) => None,
                    Ok(_) => Some(line.trim().to_string()),
                }
            },
        ))),
    };
    let options = PlayOptions {
        echo: args.script.is_some(),
        strict: args.strict,
    };
    let save_path = args.save.clone();
    let mut save = |t: &Table<S>| -> io::Result<()> {
        if let Some(path) = &save_path {
            let roller = seeded.as_ref().map(|r| r.borrow().clone());
            let text = play::save_json(t, roller.as_ref()).map_err(io::Error::other)?;
            std::fs::write(path, text)?;
        }
        Ok(())
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let summary = match &args.script {
        Some(path) => {
            let file = std::fs::File::open(path)
                .map_err(|e| CliError::BadInput(format!("cannot read {}: {e}", path.display())))?;
            let mut input = BufReader::new(file);
            play::run(
                &mut table,
                &mut input,
                &mut out,
                roller.as_mut(),
                options,
                &mut save,
            )?
        }
        None => {
            let mut input = StdinLines;
            play::run(
                &mut table,
                &mut input,
                &mut out,
                roller.as_mut(),
                options,
                &mut save,
            )?
        }
    };
    drop(out);
    if ctx.json {
        ctx.emit(&summary, String::new)?;
    } else {
        eprintln!(
            "{} commands accepted, {} refused, {} events{}",
            summary.accepted,
            summary.refused,
            summary.events,
            if summary.finished { ", encounter over" } else { "" }
        );
    }
    if args.strict && summary.refused > 0 {
        return Err(CliError::BadInput("a command was refused (--strict)".into()));
    }
    Ok(())
}

/// Reads stdin a line at a time without holding its lock, so a manual roller can
/// read dice from the same terminal between commands.
struct StdinLines;

impl LineSource for StdinLines {
    fn next_line(&mut self, buf: &mut String) -> io::Result<usize> {
        io::stdin().read_line(buf)
    }
}

/// A seeded roller shared between the play loop and the save hook, so a saved
/// table resumes the dice stream exactly where it stopped.
struct SharedSeeded(Rc<RefCell<Seeded>>);

impl Roller for SharedSeeded {
    fn roll(&mut self, die: Die) -> Result<u32, RollError> {
        self.0.borrow_mut().roll(die)
    }

    fn draw(&mut self, pile: &[Card]) -> Result<usize, RollError> {
        self.0.borrow_mut().draw(pile)
    }
}
