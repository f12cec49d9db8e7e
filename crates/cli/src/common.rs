//! What every subcommand shares: output mode, errors and exit codes, building a
//! roller from `--seed` / `--rolled` / `--manual`, and running `play`.

use serde::Serialize;
use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use tabula_engine::core::files::{MAX_FILE_BYTES, read_text_capped};
use tabula_engine::core::roller::{Answer, Manual, Question, RollError, Roller, Seeded};
use tabula_engine::play::{self, LineSource, PlayOptions};
use tabula_engine::{AnyTable, SaveFile, SystemId};

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
    pub fn emit<T: Serialize>(
        &self,
        value: &T,
        text: impl FnOnce() -> String,
    ) -> Result<(), CliError> {
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

/// Read a file to text with the size cap every input has
/// ([`tabula_engine::core::files::MAX_FILE_BYTES`]), naming it in
/// the error (missing, a directory, too large, not text).
///
/// # Errors
/// Bad input when the file cannot be read.
pub fn read_file(path: &Path) -> Result<String, CliError> {
    read_text_capped(path, MAX_FILE_BYTES).map_err(CliError::bad)
}

/// The options of `tabula <system> play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// The table file (TOML) to play, e.g. examples/sour-grapes/table.toml.
    pub table: PathBuf,
    /// Run the commands in FILE instead of reading them from the terminal.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Seed the dice, so the same seed and commands give the same game (not with
    /// --resume: a saved table continues its own dice stream).
    #[arg(long, conflicts_with_all = ["manual", "resume"])]
    pub seed: Option<u64>,
    /// Ask for each die or card instead of rolling (physical dice and cards).
    #[arg(long)]
    pub manual: bool,
    /// Stop at the first refused command (a script must replay exactly).
    #[arg(long)]
    pub strict: bool,
    /// Save the table (and the seeded dice stream) to FILE after every command.
    /// With --resume, saves go to FILE instead of the resumed file.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Resume the table saved in FILE (by --save) instead of starting TABLE anew;
    /// every command is saved back to FILE (unless --save names another).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

/// Run `tabula <system> play`.
///
/// # Errors
/// Bad input for a broken table, save or script file, an unwritable save path,
/// or (with `--strict`) a refused command; failures for I/O.
pub fn play_system(system: SystemId, args: &PlayArgs, ctx: Ctx) -> Result<(), CliError> {
    let mut table = match &args.resume {
        Some(path) => SaveFile::load(system, &read_file(path)?)
            .map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?,
        None => {
            let text = read_file(&args.table)?;
            let dir = args.table.parent().unwrap_or(Path::new(".")).to_path_buf();
            let roller = match args.seed {
                Some(seed) => Seeded::from_seed(seed),
                None => Seeded::from_entropy(),
            };
            AnyTable::setup(system, &text, &dir, roller)
                .map_err(|e| CliError::BadInput(format!("{}: {e}", args.table.display())))?
        }
    };
    // `add FILE.toml` reads sheets beside the table file (or the save).
    let from = args.resume.as_ref().unwrap_or(&args.table);
    table.read_sheets_from(from.parent().unwrap_or(Path::new(".")).to_path_buf());
    let save_path = args.save.clone().or_else(|| args.resume.clone());
    if let Some(path) = &save_path {
        // Write once now, so an unwritable path is refused before play starts.
        write_save(path, &table)?;
    }
    let script = match &args.script {
        Some(path) => Some(read_file(path)?),
        None => None,
    };
    let mut manual = args.manual.then(|| {
        Manual::prompting(Box::new(|q: &Question, err: Option<&RollError>| {
            if let Some(e) = err {
                eprintln!("  {e}");
            }
            eprint!("  {q} (or undo, quit): ");
            let _ = io::stderr().flush();
            let mut line = String::new();
            match play::read_capped_line(&mut io::stdin().lock(), &mut line) {
                Ok(0) | Err(_) => Answer::End,
                Ok(_) => play::prompt_answer(&line),
            }
        }))
    });
    let options = PlayOptions {
        echo: script.is_some(),
        strict: args.strict,
        saving: save_path.is_some(),
        json: ctx.json,
    };
    let mut save = |t: &AnyTable| -> io::Result<()> {
        match &save_path {
            Some(path) => write_save(path, t).map_err(|e| io::Error::other(e.to_string())),
            None => Ok(()),
        }
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let roller = manual.as_mut().map(|m| m as &mut dyn Roller);
    let result = match &script {
        Some(text) => play::run(
            &mut table,
            &mut text.as_bytes(),
            &mut out,
            roller,
            options,
            &mut save,
        ),
        None if io::stdin().is_terminal() && !ctx.json => {
            let mut lines = crate::editor::EditorLines::new()?;
            play::run(&mut table, &mut lines, &mut out, roller, options, &mut save)
        }
        None => play::run(
            &mut table,
            &mut StdinLines,
            &mut out,
            roller,
            options,
            &mut save,
        ),
    };
    drop(out);
    let summary = result.map_err(|e| match e.kind() {
        io::ErrorKind::InvalidData => CliError::BadInput(e.to_string()),
        _ => CliError::from(e),
    })?;
    // With --json the summary was the last JSON line play printed.
    if !ctx.json {
        eprintln!(
            "{} commands accepted, {} refused, {} log rows{}",
            summary.accepted,
            summary.refused,
            summary.events,
            if summary.finished {
                ", encounter over"
            } else {
                ""
            }
        );
    }
    if args.strict && summary.refused > 0 {
        return Err(CliError::BadInput(
            "a command was refused (--strict)".into(),
        ));
    }
    Ok(())
}

/// Write the save file of `table` to `path`, naming the path when it cannot.
fn write_save(path: &Path, table: &AnyTable) -> Result<(), CliError> {
    let text = serde_json::to_string(&SaveFile::of(table))
        .map_err(|e| CliError::Failure(e.to_string()))?;
    std::fs::write(path, text)
        .map_err(|e| CliError::BadInput(format!("cannot save to {}: {e}", path.display())))
}

/// Reads stdin a line at a time (each capped) without holding its lock, so a
/// manual roller can read dice from the same terminal between commands.
struct StdinLines;

impl LineSource for StdinLines {
    fn next_line(&mut self, buf: &mut String) -> io::Result<usize> {
        play::read_capped_line(&mut io::stdin().lock(), buf)
    }
}

/// The options of `tabula <system> simulate`.
#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    /// The table file (TOML) whose encounter to play, e.g. examples/scratch/table.toml.
    pub table: PathBuf,
    /// How many encounters to play (1 to 10,000,000).
    #[arg(long, default_value_t = 1_000)]
    pub runs: u64,
    /// The seed: the same seed gives the same report, whatever --threads is.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// NAME=POLICY: how a participant plays (`book`, the system's policy, or
    /// `random`, a random legal command); repeat for several.
    #[arg(long, value_name = "NAME=POLICY")]
    pub policy: Vec<String>,
    /// PATH=VALUE: change the table file for a "what if" run, e.g.
    /// `Thugs.members=5` or `rules.cp=20`; repeat for several.
    #[arg(long = "override", value_name = "PATH=VALUE")]
    pub overrides: Vec<String>,
    /// Draw the rounds-to-end histogram and each side's win rate with its
    /// interval to FILE (.svg or .png).
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
}

/// Run `tabula <system> simulate`: the report as text (or JSON), a progress
/// bar on a terminal, a chart when asked.
///
/// # Errors
/// Bad input for a broken table file, override, policy or option.
pub fn simulate_system(system: SystemId, args: &SimulateArgs, ctx: Ctx) -> Result<(), CliError> {
    use tabula_engine::simulate::{self as sim, PolicyChoice, SimOptions, SimSetupError};
    let text = read_file(&args.table)?;
    let text = sim::apply_overrides(&text, &args.overrides).map_err(CliError::bad)?;
    let dir = args.table.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut policies = Vec::new();
    for p in &args.policy {
        let (name, choice) = p.split_once('=').ok_or_else(|| {
            CliError::BadInput(format!(
                "--policy {p}: write it as NAME=POLICY, e.g. Thugs=random"
            ))
        })?;
        policies.push((
            name.trim().to_string(),
            PolicyChoice::parse(choice).map_err(CliError::bad)?,
        ));
    }
    let options = SimOptions {
        runs: args.runs,
        seed: args.seed,
        threads: args.threads,
        policies,
    };
    let bar = (!ctx.json && io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(args.runs);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} encounters ({eta} left)",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(std::time::Duration::from_millis(250));
        bar
    });
    let report = sim::simulate_table(system, &text, &dir, &options, &|_| {
        if let Some(b) = &bar {
            b.inc(1);
        }
    })
    .map_err(|e| match e {
        SimSetupError::Setup(m) => CliError::BadInput(format!("{}: {m}", args.table.display())),
        SimSetupError::Options(e) => CliError::bad(e),
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(path) = &args.chart {
        crate::chart::simulate_chart(path, &report)?;
    }
    ctx.emit(&report, || report.to_text().trim_end().to_string())?;
    if report.failed > 0 {
        return Err(CliError::Failure(format!(
            "{} of {} runs could not be played to the end (a policy bug: see above)",
            report.failed, report.runs
        )));
    }
    Ok(())
}
