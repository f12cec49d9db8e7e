//! `tabula`: roll, check, odds, characters and terminal play for five tabletop
//! role-playing games. This binary only parses flags and prints; the rules live in
//! the system crates, reached through `tabula-engine`.

mod book;
mod build;
mod campaign;
mod chart;
mod common;
mod editor;
mod roll;
mod serve;

/// mimalloc instead of the system allocator: the server's commands and
/// WebSocket updates allocate many short-lived texts, and glibc's malloc took
/// about a quarter of the server's CPU under load (issue 28; measured in
/// docs/BENCHMARKS.md, "Tabula against boardgame.io").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

use common::{CliError, Ctx};
use tabula_engine::SystemId;

/// Tabula: the rules engine and table for Sour Grapes, Scratch RPS, Tiers, A Game
/// of Bastards and The Sapio System.
#[derive(Debug, Parser)]
#[command(name = "tabula", version, about, long_about = None)]
struct Cli {
    /// Print one JSON document instead of text.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the five rule systems and their ids.
    Systems,
    /// Roll free dice notation: 4d6kh3, (1d4 + 1) * 2, 4d6ro<3kh3, 1d6e6 + 2, 10d6>=5.
    Roll(roll::RollArgs),
    /// The exact distribution of a dice expression: a table and a bar per value.
    Odds(roll::OddsArgs),
    /// Print the command reference of every system (docs/COMMANDS.md).
    Commands,
    /// Serve the shared online table (HTTP and WebSocket; docs/API.md).
    Serve(serve::ServeArgs),
    /// Create and list the server's tables in its database.
    #[command(subcommand)]
    Table(serve::TableCommand),
    /// Campaigns: characters kept from encounter to encounter (new, list,
    /// show, import, export, advance).
    #[command(subcommand)]
    Campaign(campaign::CampaignCommand),
}

/// The whole command line: the fixed subcommands, and one per book built from
/// the book's declared tools (`book::command`).
fn command_line() -> clap::Command {
    SystemId::ALL
        .into_iter()
        .fold(Cli::command(), |c, s| c.subcommand(book::command(s)))
}

fn main() -> ExitCode {
    let parse_error = |e: clap::Error| {
        let code = if e.use_stderr() { 2 } else { 0 };
        let _ = e.print();
        ExitCode::from(code)
    };
    let matches = match command_line().try_get_matches() {
        Ok(m) => m,
        Err(e) => return parse_error(e),
    };
    let ctx = Ctx {
        json: matches.get_flag("json"),
    };
    let result = match matches.subcommand() {
        Some((name, sub)) if SystemId::ALL.iter().any(|s| s.id() == name) => {
            match name.parse::<SystemId>() {
                Ok(system) => book::run(system, sub, ctx),
                Err(e) => Err(CliError::bad(e)),
            }
        }
        _ => match Cli::from_arg_matches(&matches) {
            Ok(cli) => run(cli.command, ctx),
            Err(e) => return parse_error(e),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(command: Command, ctx: Ctx) -> Result<(), CliError> {
    match command {
        Command::Systems => systems_list(ctx),
        Command::Roll(args) => roll::run(&args, ctx),
        Command::Odds(args) => roll::odds(&args, ctx),
        Command::Commands => {
            print!("{}", tabula_engine::reference::markdown());
            Ok(())
        }
        Command::Serve(args) => serve::serve(args),
        Command::Table(c) => serve::table(c, ctx),
        Command::Campaign(c) => campaign::run(c, ctx),
    }
}

#[derive(serde::Serialize)]
struct SystemRow {
    id: &'static str,
    title: &'static str,
    seed: &'static str,
    randomizer: &'static str,
}

fn systems_list(ctx: Ctx) -> Result<(), CliError> {
    let rows: Vec<SystemRow> = SystemId::ALL
        .into_iter()
        .map(|s| SystemRow {
            id: s.id(),
            title: s.title(),
            seed: s.seed(),
            randomizer: s.randomizer(),
        })
        .collect();
    ctx.emit(&rows, || {
        rows.iter()
            .map(|r| format!("{:<12} {:<30} {}", r.id, r.title, r.randomizer))
            .collect::<Vec<_>>()
            .join("\n")
    })
}
