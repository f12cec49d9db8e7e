//! `tabula campaign new|list|show|import|export|advance|edit|reissue`: campaigns in the
//! database, from the terminal. Whoever runs these holds the database, so they
//! act as the campaign's GM. The logic is `tabula_server::campaign`'s, the
//! same the HTTP routes use.

use std::path::PathBuf;

use clap::Subcommand;

use tabula_server::campaign::{self, AddCharacter};
use tabula_server::serve::DEFAULT_DATABASE_URL;
use tabula_store::{CampaignSeat, Role, Store};

use crate::common::{CliError, Ctx, read_file};
use crate::serve::{DEFAULT_BASE_URL, app_error, runtime, store_error};

/// `tabula campaign ...`.
#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    /// Make a campaign: a GM seat and one seat per --player; print each seat's link.
    New {
        /// The system id: sour-grapes, scratch, tiers, bastards, sapio.
        system: String,
        /// The campaign's name.
        name: String,
        /// A player's seat name (repeat for each player).
        #[arg(long = "player")]
        players: Vec<String>,
        /// The setting's rules (TOML): Scratch RPS takes a `[rules]` table
        /// (`cp`, `max_level`, `strength_base`, `d20`), as a table file writes
        /// it; the campaign's characters, builder, advancement and tables use
        /// them (R-SCR-9). Default: the book's own rules.
        #[arg(long = "rules", value_name = "FILE")]
        rules: Option<std::path::PathBuf>,
        #[command(flatten)]
        db: Db,
        /// The server's address as players reach it, for the links.
        #[arg(long, default_value = DEFAULT_BASE_URL)]
        base_url: String,
    },
    /// List the campaigns in the database, newest first.
    List {
        #[command(flatten)]
        db: Db,
    },
    /// Show a campaign: seats, characters, tables; with --character, that
    /// character's sheet and history.
    Show {
        /// The campaign id.
        id: String,
        /// A character's name (or id).
        #[arg(long)]
        character: Option<String>,
        #[command(flatten)]
        db: Db,
    },
    /// Add a character from its sheet file (it must validate).
    Import {
        /// The campaign id.
        id: String,
        /// The sheet (TOML).
        file: PathBuf,
        /// The seat that owns it (default: the GM).
        #[arg(long)]
        owner: Option<String>,
        #[command(flatten)]
        db: Db,
    },
    /// Write a character's current sheet to a file (or print it).
    Export {
        /// The campaign id.
        id: String,
        /// The character's name (or id).
        character: String,
        /// Write here instead of printing.
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        db: Db,
    },
    /// Give a character one advancement command (as the GM), recorded in its history.
    Advance {
        /// The campaign id.
        id: String,
        /// The character's name (or id).
        character: String,
        /// The command, e.g. `spend-xp Might`.
        #[arg(required = true, num_args = 1..)]
        command: Vec<String>,
        #[command(flatten)]
        db: Db,
    },
    /// Replace a character's sheet with a file (the GM's edit: Items given or
    /// taken, an agreed death...), recorded in its history as the changes made.
    Edit {
        /// The campaign id.
        id: String,
        /// The character's name (or id).
        character: String,
        /// The new sheet (TOML; it must validate and keep the character's name).
        file: PathBuf,
        #[command(flatten)]
        db: Db,
    },
    /// Give a seat a new link (a lost or leaked one): the old link then opens
    /// neither the campaign nor any of its tables. Prints the new link.
    Reissue {
        /// The campaign id.
        id: String,
        /// The seat: `gm` or a player's name.
        seat: String,
        #[command(flatten)]
        db: Db,
        /// The server's address as players reach it, for the link.
        #[arg(long, default_value = DEFAULT_BASE_URL)]
        base_url: String,
    },
}

/// The database flag.
#[derive(Debug, clap::Args)]
pub struct Db {
    /// The database: sqlite://FILE (created if missing) or postgres://...
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
}

fn gm(campaign: &str) -> CampaignSeat {
    CampaignSeat {
        campaign: campaign.to_string(),
        seat: "gm".into(),
        role: Role::Gm,
        display_name: "GM".into(),
    }
}

/// The id of the character `typed` names (its id, or its name without regard
/// to case) in campaign `id`.
async fn character_id(store: &dyn Store, id: &str, typed: &str) -> Result<String, CliError> {
    let c = campaign::load(store, id, &gm(id))
        .await
        .map_err(app_error)?;
    if let Some(ch) = c.characters.iter().find(|ch| ch.id == typed) {
        return Ok(ch.id.clone());
    }
    let names: Vec<&str> = c.characters.iter().map(|ch| ch.name.as_str()).collect();
    let name = tabula_engine::core::names::resolve("character", typed, names.iter().copied())
        .map_err(CliError::bad)?;
    c.characters
        .iter()
        .find(|ch| ch.name == name)
        .map(|ch| ch.id.clone())
        .ok_or_else(|| CliError::BadInput(format!("no character {typed:?}")))
}

/// Run one `tabula campaign` command.
///
/// # Errors
/// Bad input for an unknown campaign, character or system, a sheet that does
/// not validate, a refused advancement; failures when the database fails.
pub fn run(command: CampaignCommand, ctx: Ctx) -> Result<(), CliError> {
    let url = match &command {
        CampaignCommand::New { db, .. }
        | CampaignCommand::List { db }
        | CampaignCommand::Show { db, .. }
        | CampaignCommand::Import { db, .. }
        | CampaignCommand::Export { db, .. }
        | CampaignCommand::Advance { db, .. }
        | CampaignCommand::Reissue { db, .. }
        | CampaignCommand::Edit { db, .. } => db.database_url.clone(),
    };
    runtime()?.block_on(async move {
        let store = tabula_store::open(&url).await.map_err(store_error)?;
        let out = run_on(store.as_ref(), command, ctx).await;
        store.close().await;
        out
    })
}

async fn run_on(store: &dyn Store, command: CampaignCommand, ctx: Ctx) -> Result<(), CliError> {
    match command {
        CampaignCommand::New {
            system,
            name,
            players,
            rules,
            base_url,
            ..
        } => {
            let settings = match &rules {
                Some(file) => read_file(file)?,
                None => String::new(),
            };
            let c = campaign::create(store, &system, &name, &players, &settings, &base_url)
                .await
                .map_err(app_error)?;
            ctx.emit(&c, || {
                let mut out = format!(
                    "Created campaign {} ({}, {:?}).\nEach link is that seat's secret: give it to that seat only.\n",
                    c.campaign, c.system, c.name
                );
                let width = c.seats.iter().map(|s| s.seat.len()).max().unwrap_or(0);
                for s in &c.seats {
                    out.push_str(&format!("  {:<width$}  {}\n", s.seat, s.link));
                }
                out.trim_end().to_string()
            })
        }
        CampaignCommand::Edit {
            id,
            character,
            file,
            ..
        } => {
            let sheet = read_file(&file)?;
            let cid = character_id(store, &id, &character).await?;
            let done = campaign::edit(store, &id, &cid, &gm(&id), &sheet)
                .await
                .map_err(app_error)?;
            ctx.emit(&done, || {
                let mut out = format!("{}: {}", done.character.name, done.summary);
                for c in &done.changes {
                    out.push_str(&format!("\n  {c}"));
                }
                out
            })
        }
        CampaignCommand::Reissue {
            id, seat, base_url, ..
        } => {
            let (link, changed) = campaign::reissue(store, &id, &gm(&id), &seat, &base_url)
                .await
                .map_err(app_error)?;
            ctx.emit(&link, || {
                format!(
                    "A new link for {} (the old one no longer opens the campaign or its {} table seat(s)); give it to that seat only:\n  {}",
                    link.seat,
                    changed.len(),
                    link.link
                )
            })
        }
        CampaignCommand::List { .. } => {
            let list = store
                .list_campaigns()
                .await
                .map_err(|e| CliError::Failure(e.to_string()))?;
            ctx.emit(&list, || {
                if list.is_empty() {
                    return "No campaigns yet: make one with `tabula campaign new SYSTEM NAME --player alice`.".into();
                }
                list.iter()
                    .map(|c| {
                        format!(
                            "{}  {:<12} {:?}: {} characters, {} tables",
                            c.id, c.system, c.name, c.characters, c.tables
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            })
        }
        CampaignCommand::Show { id, character, .. } => {
            let c = campaign::load(store, &id, &gm(&id))
                .await
                .map_err(app_error)?;
            match character {
                None => ctx.emit(&serde_json::json!({"campaign": c.summary, "seats": campaign::seat_list(&c), "characters": campaign::character_list(&c), "tables": c.tables}), || {
                    let mut out = format!("{} ({}), seats: {}\n", c.summary.name, c.summary.system,
                        c.seats.iter().map(|s| s.seat.as_str()).collect::<Vec<_>>().join(", "));
                    out.push_str("Characters:\n");
                    if c.characters.is_empty() {
                        out.push_str("  (none yet)\n");
                    }
                    for ch in &c.characters {
                        out.push_str(&format!("  {} ({}, owned by {}, {} events) file {}\n", ch.name, ch.id, ch.owner, ch.seq, ch.file));
                        for p in campaign::needs_edit(&c.summary.system, &c.summary.settings, ch) {
                            out.push_str(&format!("    needs the GM's edit: RULE {}: {}\n", p.rule, p.message));
                        }
                    }
                    out.push_str("Tables:\n");
                    if c.tables.is_empty() {
                        out.push_str("  (none yet)\n");
                    }
                    for t in &c.tables {
                        let state = if t.ended_ms.is_some() { "ended" } else { "open" };
                        out.push_str(&format!("  {} {:?} ({state}, seq {})\n", t.id, t.name, t.seq));
                    }
                    out.trim_end().to_string()
                }),
                Some(typed) => {
                    let cid = character_id(store, &id, &typed).await?;
                    let ch = campaign::character(store, &id, &cid, &gm(&id)).await.map_err(app_error)?;
                    let history = campaign::history(store, &id, &cid).await.map_err(app_error)?;
                    campaign::replay(store, &id, &ch).await.map_err(app_error)?;
                    ctx.emit(&serde_json::json!({"character": ch, "history": history}), || {
                        let mut out = format!("{} (owned by {}), file {}\n\n{}\nHistory (replays to this sheet):\n",
                            ch.name, ch.owner, ch.file, ch.sheet.trim_end());
                        for h in &history {
                            out.push_str(&format!("  {:>3}. [{}] {}\n", h.seq, h.seat, h.summary));
                        }
                        out.trim_end().to_string()
                    })
                }
            }
        }
        CampaignCommand::Import {
            id, file, owner, ..
        } => {
            let sheet = read_file(&file)?;
            let file_name = file
                .file_name()
                .map(|f| f.to_string_lossy().to_string())
                .filter(|f| f.ends_with(".toml"));
            let ch = campaign::add_character(
                store,
                &id,
                &gm(&id),
                &AddCharacter {
                    sheet,
                    owner,
                    file: file_name,
                    imported: true,
                },
            )
            .await
            .map_err(|e| CliError::BadInput(format!("{}: {e}", file.display())))?;
            ctx.emit(&ch, || {
                format!(
                    "imported {} ({}), owned by {}, as {}",
                    ch.name, ch.id, ch.owner, ch.file
                )
            })
        }
        CampaignCommand::Export {
            id, character, out, ..
        } => {
            let cid = character_id(store, &id, &character).await?;
            let ch = campaign::character(store, &id, &cid, &gm(&id))
                .await
                .map_err(app_error)?;
            match out {
                Some(path) => {
                    std::fs::write(&path, &ch.sheet).map_err(|e| {
                        CliError::Failure(format!("cannot write {}: {e}", path.display()))
                    })?;
                    ctx.emit(
                        &serde_json::json!({"file": path.display().to_string()}),
                        || format!("wrote {} to {}", ch.name, path.display()),
                    )
                }
                None => ctx.emit(&serde_json::json!({"sheet": ch.sheet}), || {
                    ch.sheet.trim_end().to_string()
                }),
            }
        }
        CampaignCommand::Advance {
            id,
            character,
            command,
            ..
        } => {
            let cid = character_id(store, &id, &character).await?;
            let line = tabula_engine::core::grammar::join_args(&command);
            let done = campaign::advance(store, &id, &cid, &gm(&id), &line)
                .await
                .map_err(app_error)?;
            ctx.emit(&done, || {
                let mut out = done.summary.clone();
                for c in &done.changes {
                    out.push_str(&format!("\n  {c}"));
                }
                out
            })
        }
    }
}
