//! `tabula <system> ...`, defined once over [`SystemId`]: each book's tools
//! (`check`, `odds` and its reference printouts, declared in the book's own
//! `src/cli.rs`) become subcommands built with clap's builder API, so
//! `--help` lists every flag the book declares with its help; `character
//! validate|show` print one shape for every book; `character new|advance`,
//! `play` and `simulate` are the same for all five.

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use std::path::{Path, PathBuf};

use tabula_engine::SystemId;
use tabula_engine::core::system::ParamKind;
use tabula_engine::core::tool::{ParamValues, Tool, ToolError, ToolKind, ToolParam};

use crate::build::{AdvanceArgs, NewArgs};
use crate::common::{self, CliError, Ctx, PlayArgs, SimulateArgs, read_file, roller_for};

/// The subcommand of one book: its tools, `character`, `play`, `simulate`.
pub fn command(system: SystemId) -> Command {
    let mut c = Command::new(system.id())
        .about(format!("{} ({}).", system.title(), system.seed()))
        .subcommand_required(true)
        .arg_required_else_help(true);
    for tool in system.tools() {
        c = c.subcommand(tool_command(&tool));
    }
    let file = |what: &'static str| {
        Arg::new("file")
            .value_name("FILE")
            .value_parser(clap::value_parser!(PathBuf))
            .required(true)
            .help(what)
    };
    let with_params = |mut cmd: Command| {
        for p in system.character_params() {
            cmd = cmd.arg(arg_of(&p));
        }
        cmd
    };
    let character = Command::new("character")
        .about("Character sheets: make, advance, validate, show.")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(NewArgs::augment_args(Command::new("new")).about(
            "Make a new character step by step as the book teaches (prompts; answers one per \
             line when stdin is not a terminal) and write its sheet.",
        ))
        .subcommand(
            AdvanceArgs::augment_args(Command::new("advance"))
                .about("Give one advancement command to a sheet file (`help` lists them)."),
        )
        .subcommand(with_params(
            Command::new("validate")
                .about("Check a sheet against every rule; lists every problem with its rule.")
                .arg(file("The character sheet (TOML).")),
        ))
        .subcommand(with_params(
            Command::new("show")
                .about("Print a sheet as the book's character sheet lays it out.")
                .arg(file("The character sheet (TOML).")),
        ));
    c.subcommand(character)
        .subcommand(
            PlayArgs::augment_args(Command::new("play"))
                .about("Play a table file at the terminal (or run a script with --script)."),
        )
        .subcommand(SimulateArgs::augment_args(Command::new("simulate")).about(
            "Play the table's encounter many times with each system policy and report win \
             rates (95% intervals), rounds, who is taken out and what is left.",
        ))
}

/// One declared parameter as a clap argument: `--name VALUE`, or a switch.
fn arg_of(p: &ToolParam) -> Arg {
    let mut a = Arg::new(p.name)
        .long(p.name)
        .help(p.help)
        .hide(p.hidden)
        .required(p.required);
    match &p.kind {
        ToolKind::Switch => return a.action(ArgAction::SetTrue),
        ToolKind::Value(ParamKind::Text | ParamKind::NumberOrName { .. }) => {
            a = a.allow_hyphen_values(true);
        }
        ToolKind::Value(ParamKind::Choice { .. } | ParamKind::ChoiceOrSheet { .. })
        | ToolKind::File => {}
        ToolKind::Value(ParamKind::Int { .. }) | ToolKind::Real { .. } => {
            a = a.allow_negative_numbers(true);
        }
    }
    let value_name = p
        .value_name
        .map(str::to_string)
        .unwrap_or_else(|| p.name.to_uppercase().replace('-', "_"));
    a = a.action(ArgAction::Set).value_name(value_name);
    if let Some(d) = p.default {
        a = a.default_value(d);
    }
    a
}

/// The subcommand of one tool, with `--rolled`, `--seed` and `--chart` when
/// it declares them.
fn tool_command(tool: &Tool) -> Command {
    let mut c = Command::new(tool.name).about(tool.about);
    for p in &tool.params {
        c = c.arg(arg_of(p));
    }
    if let Some(r) = &tool.rolled {
        c = c
            .arg(
                Arg::new("rolled")
                    .long("rolled")
                    .value_name("V,V,...")
                    .help(r.help),
            )
            .arg(
                Arg::new("seed")
                    .long("seed")
                    .value_name("SEED")
                    .value_parser(clap::value_parser!(u64))
                    .help("Seed the dice (or the shuffle)."),
            );
    }
    if tool.chart {
        c = c.arg(
            Arg::new("chart")
                .long("chart")
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help(
                    "Draw the chance of success to FILE (.svg or .png), each exact value labelled.",
                ),
        );
    }
    c
}

/// The values given to a tool's declared parameters.
fn values_of(params: &[ToolParam], m: &ArgMatches) -> ParamValues {
    let mut v = ParamValues::new();
    for p in params {
        if matches!(p.kind, ToolKind::Switch) {
            if m.get_flag(p.name) {
                v.set(p.name, "true");
            }
        } else if let Some(s) = m.get_one::<String>(p.name) {
            v.set(p.name, s.clone());
        }
    }
    v
}

/// A tool's refusal as the command line reports it (exit code 2 for bad input).
fn tool_error(e: ToolError) -> CliError {
    if e.is_bad_input() {
        CliError::BadInput(e.to_string())
    } else {
        CliError::Failure(e.to_string())
    }
}

/// Run `tabula <system> ...` from its matches.
///
/// # Errors
/// Bad input (exit 2) for refused values and broken files.
pub fn run(system: SystemId, m: &ArgMatches, ctx: Ctx) -> Result<(), CliError> {
    let Some((name, sub)) = m.subcommand() else {
        return Err(CliError::BadInput(format!(
            "tabula {}: name a subcommand",
            system.id()
        )));
    };
    let parsed = |e: clap::Error| CliError::BadInput(e.to_string());
    match name {
        "character" => character(system, sub, ctx),
        "play" => common::play_system(
            system,
            &PlayArgs::from_arg_matches(sub).map_err(parsed)?,
            ctx,
        ),
        "simulate" => common::simulate_system(
            system,
            &SimulateArgs::from_arg_matches(sub).map_err(parsed)?,
            ctx,
        ),
        _ => {
            let tool = system
                .tools()
                .into_iter()
                .find(|t| t.name == name)
                .ok_or_else(|| CliError::BadInput(format!("no tool {name} in {}", system.id())))?;
            run_tool(&tool, sub, ctx)
        }
    }
}

fn run_tool(tool: &Tool, m: &ArgMatches, ctx: Ctx) -> Result<(), CliError> {
    let values = values_of(&tool.params, m);
    let (seed, rolled) = match &tool.rolled {
        Some(r) => (
            m.get_one::<u64>("seed").copied(),
            m.get_one::<String>("rolled").map(|list| match r.normalize {
                Some(f) => list
                    .split(',')
                    .map(f)
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(","),
                None => list.clone(),
            }),
        ),
        None => (None, None),
    };
    let chart = if tool.chart {
        m.get_one::<PathBuf>("chart").cloned()
    } else {
        None
    };
    let mut values = values;
    if let Some(path) = &chart {
        values.set("chart", path.display().to_string());
    }
    let mut roller = roller_for(seed, rolled.as_deref());
    let report = (tool.run)(&values, roller.as_mut()).map_err(tool_error)?;
    common::finish(roller.as_mut())?;
    if let (Some(path), Some(c)) = (&chart, &report.chart) {
        crate::chart::odds_chart(path, &c.title, &c.x_label, &c.points)?;
    }
    ctx.emit(&report.json, || report.text.clone())
}

/// `character new|advance|validate|show`.
fn character(system: SystemId, m: &ArgMatches, ctx: Ctx) -> Result<(), CliError> {
    let parsed = |e: clap::Error| CliError::BadInput(e.to_string());
    let Some((name, sub)) = m.subcommand() else {
        return Err(CliError::BadInput("character: name a subcommand".into()));
    };
    match name {
        "new" => crate::build::new_character(
            system,
            &NewArgs::from_arg_matches(sub).map_err(parsed)?,
            ctx,
        ),
        "advance" => crate::build::advance_file(
            system,
            &AdvanceArgs::from_arg_matches(sub).map_err(parsed)?,
            ctx,
        ),
        _ => {
            let file = sub
                .get_one::<PathBuf>("file")
                .cloned()
                .ok_or_else(|| CliError::BadInput("character: name the sheet FILE".into()))?;
            let settings = system
                .character_settings(&values_of(&system.character_params(), sub))
                .map_err(tool_error)?;
            let text = read_file(&file)?;
            if name == "show" {
                show(system, &file, &settings, &text, ctx)
            } else {
                validate(system, &file, &settings, &text, ctx)
            }
        }
    }
}

/// `character validate FILE`: one shape for every book, `{valid, name,
/// problems: [{field, message, rule}]}`; exit code 2 when a rule is broken.
fn validate(
    system: SystemId,
    file: &Path,
    settings: &str,
    text: &str,
    ctx: Ctx,
) -> Result<(), CliError> {
    let v = system
        .validation(settings, text)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", file.display())))?;
    if v.valid {
        let name = v.name.clone().unwrap_or_default();
        return ctx.emit(&v, || {
            format!(
                "{}: {name} is a legal {} character",
                file.display(),
                system.title()
            )
        });
    }
    let lines: Vec<String> = v
        .problems
        .iter()
        .map(|p| match &p.field {
            Some(f) if !p.message.contains(f.as_str()) => format!("{f}: {p}"),
            Some(_) => p.to_string(),
            None => p.to_string(),
        })
        .collect();
    if ctx.json {
        ctx.emit(&v, String::new)?;
    }
    Err(CliError::BadInput(format!(
        "{} is not a legal {} character: {} problem(s)\n  {}",
        file.display(),
        system.title(),
        lines.len(),
        lines.join("\n  ")
    )))
}

/// `character show FILE`: the book's character sheet as text, or as the
/// sheet's JSON with `--json`.
fn show(
    system: SystemId,
    file: &Path,
    settings: &str,
    text: &str,
    ctx: Ctx,
) -> Result<(), CliError> {
    let sheet = system
        .character_sheet(settings, text)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", file.display())))?;
    ctx.emit(&sheet, || sheet.to_string())
}
