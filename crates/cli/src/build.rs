//! `tabula <system> character new` and `character advance`: the book's
//! creation steps as prompts, and advancement on a sheet file. The steps, the
//! budgets and every refusal come from the engine (`SystemId::new_draft`,
//! `SystemId::change_draft`); this module only asks and prints.
//!
//! At a terminal the prompts are `inquire`'s (arrow keys, type to filter,
//! Esc to cancel). When stdin is not a terminal, each prompt reads one line
//! (so answers can be scripted): a number or an option's name for a choice
//! (its number in the list works too), names separated by commas for a
//! multiple choice, an empty line to keep the value shown or skip an
//! optional field, `-` to take an answer back.

use std::collections::HashSet;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;

use tabula_engine::SystemId;
use tabula_engine::characters::{BuildAnswer, DraftChange};
use tabula_engine::core::Seat;
use tabula_engine::core::builder::{BuildView, FieldKind, FieldValue, FieldView, StepView};

use crate::common::{CliError, Ctx, read_file};

/// The most answers one `character new` reads before giving up (a draft has a
/// few dozen fields; a refused answer is asked again).
pub const MAX_ANSWERS: usize = 2_000;

/// The options of `character new`.
#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// Write the sheet here (TOML) instead of printing it.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Overwrite `--out` if it exists.
    #[arg(long)]
    pub force: bool,
}

/// The options of `character advance`.
#[derive(Debug, clap::Args)]
pub struct AdvanceArgs {
    /// The sheet (TOML); written back unless --out is given.
    pub file: PathBuf,
    /// The advancement command, e.g. `spend-xp Might` (see `--help` of the
    /// system's `character advance`, or `tabula <system> character advance FILE help`).
    #[arg(required = true, num_args = 1..)]
    pub command: Vec<String>,
    /// Give the command as the GM (awarding XP or CP is the GM's).
    #[arg(long, conflicts_with = "seat")]
    pub gm: bool,
    /// Give the command as this seat (a player's name, or GM). Without it
    /// (and without --gm) the seat is the sheet's `player`.
    #[arg(long, value_name = "SEAT")]
    pub seat: Option<String>,
    /// Write the new sheet here instead of over FILE.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// What one prompt gave back.
enum Asked {
    /// A value for the field.
    Value(FieldValue),
    /// Keep the field as it is.
    Keep,
    /// Take the choice back (`-` at a line prompt).
    Clear,
}

/// Something that asks the player one field at a time.
trait Asker {
    /// Show a line (a step's title, a budget, a refusal).
    fn say(&mut self, text: &str) -> Result<(), CliError>;
    /// Ask for `field`.
    fn ask(&mut self, field: &FieldView) -> Result<Asked, CliError>;
}

/// Prompts read one line each from a reader (stdin when it is not a
/// terminal); questions go to stderr.
struct Lines<R> {
    input: R,
    read: usize,
}

impl<R: BufRead> Asker for Lines<R> {
    fn say(&mut self, text: &str) -> Result<(), CliError> {
        eprintln!("{text}");
        Ok(())
    }

    fn ask(&mut self, field: &FieldView) -> Result<Asked, CliError> {
        let mut err = io::stderr().lock();
        writeln!(err, "{}", question(field))?;
        if let FieldKind::Choice { options } | FieldKind::Multi { options, .. } = &field.kind {
            for (i, o) in options.iter().enumerate() {
                let help = if o.help.is_empty() {
                    String::new()
                } else {
                    format!(": {}", o.help)
                };
                writeln!(err, "  {}. {}{help}", i + 1, o.label)?;
            }
        }
        write!(err, "> ")?;
        err.flush()?;
        self.read += 1;
        if self.read > MAX_ANSWERS {
            return Err(CliError::BadInput(format!(
                "more than {MAX_ANSWERS} answers: giving up"
            )));
        }
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            return Err(CliError::BadInput(format!(
                "the answers ended at \"{}\" before the character was finished",
                field.label
            )));
        }
        writeln!(err)?;
        let line = line.trim();
        if line.is_empty() {
            return Ok(Asked::Keep);
        }
        if line == "-" && !matches!(field.kind, FieldKind::Multi { .. }) {
            return Ok(Asked::Clear);
        }
        read_answer(field, line).map(Asked::Value).or_else(|m| {
            writeln!(err, "  {m}")?;
            self.ask(field)
        })
    }
}

/// `inquire` prompts at a terminal.
struct Terminal;

fn cancelled(e: inquire::InquireError) -> CliError {
    match e {
        inquire::InquireError::OperationCanceled | inquire::InquireError::OperationInterrupted => {
            CliError::BadInput("cancelled: nothing written".into())
        }
        e => CliError::Failure(e.to_string()),
    }
}

impl Asker for Terminal {
    fn say(&mut self, text: &str) -> Result<(), CliError> {
        eprintln!("{text}");
        Ok(())
    }

    fn ask(&mut self, field: &FieldView) -> Result<Asked, CliError> {
        let help = field.help.as_str();
        let current = field.value.as_ref();
        match &field.kind {
            FieldKind::Int { min, max } => {
                let prompt = format!("{} ({min} to {max})", field.label);
                let mut p = inquire::CustomType::<i64>::new(&prompt)
                    .with_error_message("a whole number, please");
                if !help.is_empty() {
                    p = p.with_help_message(help);
                }
                let start = match current {
                    Some(FieldValue::Int(n)) => Some(*n),
                    _ => None,
                };
                if let Some(n) = start {
                    p = p.with_default(n);
                }
                p.prompt()
                    .map(|n| Asked::Value(FieldValue::Int(n)))
                    .map_err(cancelled)
            }
            FieldKind::Choice { options } => {
                let labels: Vec<String> = options.iter().map(option_line).collect();
                let start = match current {
                    Some(FieldValue::Text(t)) => options.iter().position(|o| &o.value == t),
                    _ => None,
                };
                let mut p = inquire::Select::new(&field.label, labels.clone()).with_page_size(12);
                if !help.is_empty() {
                    p = p.with_help_message(help);
                }
                if let Some(i) = start {
                    p = p.with_starting_cursor(i);
                }
                let picked = p.raw_prompt().map_err(cancelled)?;
                let value = options
                    .get(picked.index)
                    .map(|o| o.value.clone())
                    .unwrap_or_default();
                Ok(Asked::Value(FieldValue::Text(value)))
            }
            FieldKind::Multi { options, min, max } => {
                let labels: Vec<String> = options.iter().map(option_line).collect();
                let chosen: Vec<usize> = match current {
                    Some(FieldValue::List(l)) => options
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| l.contains(&o.value))
                        .map(|(i, _)| i)
                        .collect(),
                    _ => Vec::new(),
                };
                let prompt = format!(
                    "{} (pick {min} to {max}; space to pick, enter when done)",
                    field.label
                );
                let mut p = inquire::MultiSelect::new(&prompt, labels).with_page_size(12);
                if !help.is_empty() {
                    p = p.with_help_message(help);
                }
                p = p.with_default(&chosen);
                let picked = p.raw_prompt().map_err(cancelled)?;
                let values = picked
                    .iter()
                    .filter_map(|l| options.get(l.index).map(|o| o.value.clone()))
                    .collect();
                Ok(Asked::Value(FieldValue::List(values)))
            }
            FieldKind::Text { .. } => {
                let mut p = inquire::Text::new(&field.label);
                if !help.is_empty() {
                    p = p.with_help_message(help);
                }
                let start = match current {
                    Some(FieldValue::Text(t)) => t.clone(),
                    _ => String::new(),
                };
                if !start.is_empty() {
                    p = p.with_initial_value(&start);
                }
                let text = p.prompt().map_err(cancelled)?;
                if text.trim().is_empty() {
                    Ok(Asked::Keep)
                } else {
                    Ok(Asked::Value(FieldValue::Text(text.trim().to_string())))
                }
            }
        }
    }
}

fn option_line(o: &tabula_engine::core::builder::ChoiceOption) -> String {
    if o.help.is_empty() {
        o.label.clone()
    } else {
        format!("{}: {}", o.label, o.help)
    }
}

/// The one-line question for `field`, with its range and current value.
fn question(field: &FieldView) -> String {
    let range = match &field.kind {
        FieldKind::Int { min, max } => format!(" ({min} to {max})"),
        FieldKind::Multi { min, max, .. } => {
            format!(" (pick {min} to {max}: numbers or names, separated by commas)")
        }
        FieldKind::Choice { .. } => " (a number or a name)".into(),
        FieldKind::Text { max_chars } => format!(" (up to {max_chars} characters)"),
    };
    let now = match &field.value {
        Some(FieldValue::Text(t)) if t.is_empty() => " [optional: enter skips]".into(),
        Some(v) => format!(" [now: {v}; enter keeps it]"),
        None if !field.required => " [optional: enter skips]".into(),
        None => String::new(),
    };
    let help = if field.help.is_empty() {
        String::new()
    } else {
        format!("\n  {}", field.help)
    };
    format!("{}{range}{now}{help}", field.label)
}

/// `line` read as a value of `field`'s kind: a number, an option by its
/// number in the list or its name (case aside, or the start of one name),
/// several options separated by commas, or text.
///
/// # Errors
/// A sentence naming what was expected.
fn read_answer(field: &FieldView, line: &str) -> Result<FieldValue, String> {
    let pick = |options: &[tabula_engine::core::builder::ChoiceOption], word: &str| {
        let word = word.trim();
        if let Ok(n) = word.parse::<usize>()
            && n >= 1
            && n <= options.len()
        {
            return Ok(options[n - 1].value.clone());
        }
        let names = options
            .iter()
            .flat_map(|o| [o.value.as_str(), o.label.as_str()]);
        match tabula_engine::core::names::resolve("option", word, names) {
            Ok(name) => options
                .iter()
                .find(|o| o.value == name || o.label == name)
                .map(|o| o.value.clone())
                .ok_or_else(|| format!("\"{word}\" is not one of the options")),
            Err(e) => Err(e.to_string()),
        }
    };
    match &field.kind {
        FieldKind::Int { .. } => line
            .parse::<i64>()
            .map(FieldValue::Int)
            .map_err(|_| format!("\"{line}\" is not a whole number")),
        FieldKind::Choice { options } => pick(options, line).map(FieldValue::Text),
        FieldKind::Multi { options, .. } => {
            if line == "-" || line.eq_ignore_ascii_case("none") {
                return Ok(FieldValue::List(Vec::new()));
            }
            line.split(',')
                .filter(|w| !w.trim().is_empty())
                .map(|w| pick(options, w))
                .collect::<Result<Vec<_>, _>>()
                .map(FieldValue::List)
        }
        FieldKind::Text { .. } => Ok(FieldValue::Text(line.to_string())),
    }
}

fn budgets_line(view: &BuildView) -> Option<String> {
    if view.budgets.is_empty() {
        return None;
    }
    Some(
        view.budgets
            .iter()
            .map(|b| format!("{}: {} of {} left", b.name, b.left(), b.total))
            .collect::<Vec<_>>()
            .join(" | "),
    )
}

fn derived_line(view: &BuildView) -> Option<String> {
    if view.derived.is_empty() {
        return None;
    }
    Some(
        view.derived
            .iter()
            .map(|d| format!("{} {}", d.name, d.value))
            .collect::<Vec<_>>()
            .join(" | "),
    )
}

fn step_header(step: &StepView, view: &BuildView) -> String {
    let mut out = format!("\n== {} ==", step.title);
    if !step.help.is_empty() {
        out.push_str(&format!("\n{}", step.help));
    }
    out.push_str(&format!("\n({})", cite(&step.rule)));
    if let Some(b) = budgets_line(view) {
        out.push_str(&format!("\n{b}"));
    }
    out
}

fn cite(rule: &tabula_engine::core::Rule) -> String {
    let mut s = format!("{}, \"{}\"", rule.title(), rule.section);
    if let Some(r) = rule.ruling {
        s.push_str(&format!("; {r}"));
    }
    s
}

/// Walk `system`'s creation steps with `asker` until the draft is complete;
/// the finished sheet.
fn walk(system: SystemId, asker: &mut dyn Asker) -> Result<(String, String), CliError> {
    let mut now: BuildAnswer = system.new_draft();
    asker.say(&format!(
        "A new {} character, step by step as the book makes one.\n\
         Enter keeps the value shown (or skips an optional question); `-` takes an answer back.",
        system.title()
    ))?;
    let mut asked: HashSet<String> = HashSet::new();
    let mut shown_step: Option<String> = None;
    let mut rounds = 0usize;
    loop {
        let view = &now.view;
        if view.complete && all_asked(view, &asked) {
            break;
        }
        let next = next_field(view, &asked);
        let Some((step, field)) = next else {
            // Every field was asked once and the draft is still not
            // complete: say why and ask the unfinished ones again.
            rounds += 1;
            if rounds > 20 {
                return Err(CliError::BadInput(
                    "the character could not be finished".into(),
                ));
            }
            asker.say("\nNot finished yet:")?;
            for p in &view.problems {
                asker.say(&format!("  - {p}"))?;
            }
            let again = retry_keys(view);
            for k in &again {
                asked.remove(k);
            }
            shown_step = None;
            continue;
        };
        let (step, field) = (step.clone(), field.clone());
        if shown_step.as_deref() != Some(step.id.as_str()) {
            asker.say(&step_header(&step, view))?;
            shown_step = Some(step.id.clone());
        }
        let asked_now = asker.ask(&field)?;
        match &asked_now {
            Asked::Keep => {
                if field.required && field.value.is_none() {
                    asker.say("  This needs an answer.")?;
                    continue;
                }
                asked.insert(field.key.clone());
            }
            Asked::Clear | Asked::Value(_) => {
                let change = match answer_of(asked_now) {
                    Some(value) => DraftChange::Set {
                        key: field.key.clone(),
                        value,
                    },
                    None => DraftChange::Clear {
                        key: field.key.clone(),
                    },
                };
                let answer = system
                    .change_draft(&now.draft, &[change])
                    .map_err(|e| CliError::Failure(e.to_string()))?;
                if let Some(refusal) = &answer.refusal {
                    asker.say(&format!("  Refused: {refusal}"))?;
                    continue;
                }
                now = answer;
                asked.insert(field.key.clone());
                let mut live = Vec::new();
                if let Some(b) = budgets_line(&now.view) {
                    live.push(b);
                }
                if let Some(d) = derived_line(&now.view) {
                    live.push(d);
                }
                if !live.is_empty() {
                    asker.say(&format!("  {}", live.join(" | ")))?;
                }
            }
        }
    }
    let sheet = system
        .finish_draft(&now.draft)
        .map_err(|e| CliError::BadInput(e.to_string()))?;
    let name = system.validate_sheet(&sheet).map_err(CliError::bad)?;
    Ok((name, sheet))
}

fn answer_of(asked: Asked) -> Option<FieldValue> {
    match asked {
        Asked::Value(v) => Some(v),
        Asked::Keep | Asked::Clear => None,
    }
}

fn all_asked(view: &BuildView, asked: &HashSet<String>) -> bool {
    view.steps
        .iter()
        .flat_map(|s| &s.fields)
        .all(|f| asked.contains(&f.key))
}

/// The first field in the book's order not asked yet.
fn next_field<'v>(
    view: &'v BuildView,
    asked: &HashSet<String>,
) -> Option<(&'v StepView, &'v FieldView)> {
    view.steps
        .iter()
        .flat_map(|s| s.fields.iter().map(move |f| (s, f)))
        .find(|(_, f)| !asked.contains(&f.key))
}

/// The fields to ask again when the draft is not complete: those with a
/// problem or a missing required value, else every field of the first step
/// not done, else every field.
fn retry_keys(view: &BuildView) -> Vec<String> {
    let fields = || view.steps.iter().flat_map(|s| &s.fields);
    let mut keys: Vec<String> = fields()
        .filter(|f| {
            (f.required && f.value.is_none())
                || view
                    .problems
                    .iter()
                    .any(|p| p.field.as_deref() == Some(f.key.as_str()))
        })
        .map(|f| f.key.clone())
        .collect();
    if keys.is_empty()
        && let Some(step) = view
            .steps
            .iter()
            .find(|s| Some(&s.id) == view.next.as_ref())
    {
        keys = step.fields.iter().map(|f| f.key.clone()).collect();
    }
    if keys.is_empty() {
        keys = fields().map(|f| f.key.clone()).collect();
    }
    keys
}

/// `tabula <system> character new`.
///
/// # Errors
/// Bad input when the answers end before the character is finished, the
/// player cancels, or `--out` exists without `--force`.
pub fn new_character(system: SystemId, args: &NewArgs, ctx: Ctx) -> Result<(), CliError> {
    if let Some(out) = &args.out
        && out.exists()
        && !args.force
    {
        return Err(CliError::BadInput(format!(
            "{} exists: give --force to overwrite it",
            out.display()
        )));
    }
    let stdin = io::stdin();
    let (name, sheet) = if stdin.is_terminal() && io::stderr().is_terminal() {
        walk(system, &mut Terminal)?
    } else {
        walk(
            system,
            &mut Lines {
                input: stdin.lock(),
                read: 0,
            },
        )?
    };
    write_sheet(system, &name, &sheet, args.out.as_ref(), ctx)
}

fn write_sheet(
    system: SystemId,
    name: &str,
    sheet: &str,
    out: Option<&PathBuf>,
    ctx: Ctx,
) -> Result<(), CliError> {
    #[derive(serde::Serialize)]
    struct Written<'a> {
        system: &'a str,
        name: &'a str,
        file: Option<String>,
        sheet: &'a str,
    }
    match out {
        Some(path) => {
            std::fs::write(path, sheet)
                .map_err(|e| CliError::Failure(format!("cannot write {}: {e}", path.display())))?;
            let shown = path.display().to_string();
            ctx.emit(
                &Written {
                    system: system.id(),
                    name,
                    file: Some(shown.clone()),
                    sheet,
                },
                || format!("wrote {name} to {shown} (check it with: tabula {system} character validate {shown})"),
            )
        }
        None => ctx.emit(
            &Written {
                system: system.id(),
                name,
                file: None,
                sheet,
            },
            || sheet.trim_end().to_string(),
        ),
    }
}

/// The seat an advancement command is given as: the GM with `--gm`, the
/// `--seat` named, else the sheet's player (a player advances their own
/// character without saying who they are); a sheet naming no player (a GM
/// character, or a book whose sheets have none) leaves a seat called
/// `player`.
fn advance_seat(args: &AdvanceArgs, sheet: &str) -> Seat {
    if args.gm {
        return Seat::Gm;
    }
    match &args.seat {
        Some(s) => Seat::parse(s.trim()),
        None => Seat::Player(
            tabula_engine::characters::sheet_player(sheet).unwrap_or_else(|| "player".into()),
        ),
    }
}

/// `tabula <system> character advance FILE COMMAND...`: one advancement
/// command on a sheet file, written back (or to `--out`).
///
/// # Errors
/// Bad input naming the rule when the command is refused (the file is then
/// unchanged).
pub fn advance_file(system: SystemId, args: &AdvanceArgs, ctx: Ctx) -> Result<(), CliError> {
    // The shell took the user's quotes off: put them back (`text="two
    // words"` stays one word).
    let line = tabula_engine::core::grammar::join_args(&args.command);
    if line.trim().eq_ignore_ascii_case("help") {
        let text = system
            .advancement()
            .iter()
            .map(|c| {
                format!(
                    "{}\n    {} ({}; {})",
                    c.usage,
                    c.summary,
                    c.giver,
                    cite(&c.rule)
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        return ctx.emit(
            &system
                .advancement()
                .iter()
                .map(|c| c.usage)
                .collect::<Vec<_>>(),
            || text,
        );
    }
    let sheet = read_file(&args.file)?;
    let seat = advance_seat(args, &sheet);
    let mut roller = tabula_engine::core::Seeded::from_entropy();
    let done = system
        .advance(&sheet, &seat, &line, &mut roller)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", args.file.display())))?;
    let target = args.out.clone().unwrap_or_else(|| args.file.clone());
    std::fs::write(&target, &done.sheet)
        .map_err(|e| CliError::Failure(format!("cannot write {}: {e}", target.display())))?;
    #[derive(serde::Serialize)]
    struct Out<'a> {
        summary: &'a str,
        file: String,
    }
    ctx.emit(
        &Out {
            summary: &done.summary,
            file: target.display().to_string(),
        },
        || format!("{} (written to {})", done.summary, target.display()),
    )
}
