//! The next encounter of a campaign (issue 27, item 8): what the GM may open
//! next (`GET /api/campaigns/ID/encounters`) and the table file a
//! `POST /api/campaigns/ID/tables` with `example` or `again` opens, the
//! campaign's characters placed in it by the book
//! (`CharacterBook::place`, [`tabula_engine::core::place`]).
//!
//! - `{"example": NAME}`: a bundled table file of the campaign's book; its
//!   NPC sheets come from the same folder.
//! - `{"again": TABLE}`: an earlier table of the campaign, from the table file
//!   and the uploaded sheets kept when it opened ([`keep`]).
//!
//! Either way the campaign's player characters (every character not owned by
//! the GM's seat, in the campaign's order) take the file's player
//! characters' places; the NPCs stay. When the example has more player
//! characters than the campaign, the extra ones are dropped; when it has
//! fewer, the campaign's extra characters take the last one's settings
//! (Tabula's decision, [`tabula_engine::core::place`]). A sheet of the file
//! with the file name of a campaign character is the campaign character's
//! (the campaign's sheet wins). The GM's own campaign characters are not
//! placed: the file's NPCs stand for the GM's side; upload a table file to
//! seat them.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};
use tabula_engine::SystemId;
use tabula_engine::core::Seat;
use tabula_engine::core::files::InMemoryFiles;
use tabula_engine::core::place::Placed;
use tabula_store::{LoadedCampaign, Role, Store, TableSummary};

use crate::error::AppError;
use crate::{create, examples};

/// A bundled table file the campaign may open next.
#[derive(Clone, Debug, Serialize)]
pub struct Bundled {
    /// The name to send as `example` (`table`).
    pub example: String,
    /// Its title (the file's `title`, else the book's).
    pub name: String,
}

/// An earlier table of the campaign that can be opened again.
#[derive(Clone, Debug, Serialize)]
pub struct Earlier {
    /// The table's id, to send as `again`.
    pub table: String,
    /// Its name.
    pub name: String,
    /// When it was opened (ms since the epoch).
    pub created_ms: i64,
    /// When its encounter ended, if it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_ms: Option<i64>,
}

/// What `GET /api/campaigns/ID/encounters` answers.
#[derive(Clone, Debug, Serialize)]
pub struct Encounters {
    /// The bundled table files of the campaign's book.
    pub bundled: Vec<Bundled>,
    /// The campaign's earlier tables whose table file was kept, newest first.
    pub earlier: Vec<Earlier>,
}

/// What a campaign of book `system` whose tables are `tables` may open next.
///
/// # Errors
/// [`AppError::UnknownSystem`] for a book this server does not know;
/// [`AppError::Internal`] when the store fails.
pub async fn list(
    store: &dyn Store,
    system: &str,
    tables: &[TableSummary],
) -> Result<Encounters, AppError> {
    let system = system_id(system)?;
    let bundled = examples::tables(system)
        .into_iter()
        .filter_map(|n| {
            examples::table(system, n).map(|(text, _)| Bundled {
                example: n.to_string(),
                name: create::table_name(system, text, None),
            })
        })
        .collect();
    let mut earlier = Vec::new();
    for t in tables {
        if store
            .table_source(&t.id)
            .await
            .map_err(AppError::store)?
            .is_some()
        {
            earlier.push(Earlier {
                table: t.id.clone(),
                name: t.name.clone(),
                created_ms: t.created_ms,
                ended_ms: t.ended_ms,
            });
        }
    }
    earlier.sort_by_key(|e| std::cmp::Reverse(e.created_ms));
    Ok(Encounters { bundled, earlier })
}

/// The campaign's book.
fn system(campaign: &LoadedCampaign) -> Result<SystemId, AppError> {
    system_id(&campaign.summary.system)
}

/// The book named `id`.
fn system_id(id: &str) -> Result<SystemId, AppError> {
    id.parse()
        .map_err(|e: tabula_engine::UnknownSystem| AppError::UnknownSystem(e.to_string()))
}

/// The campaign's player characters, as the book places them: each
/// character not owned by the GM's seat, in the campaign's order.
fn players(campaign: &LoadedCampaign) -> Vec<Placed> {
    campaign
        .characters
        .iter()
        .filter(|c| {
            campaign
                .seats
                .iter()
                .any(|s| s.seat == c.owner && s.role != Role::Gm)
        })
        .map(|c| Placed {
            seat: Seat::Player(c.owner.clone()),
            file: c.file.clone(),
        })
        .collect()
}

/// A table file and its NPC sheets to open for campaign `campaign`: the
/// bundled `example`, or the earlier table `again`, with the campaign's
/// characters placed (see the module). The sheets leave out any file named
/// like a campaign character's (the caller adds the campaign's sheets).
///
/// # Errors
/// [`AppError::UnknownExample`] for no such bundled table;
/// [`AppError::NotFound`] for no such earlier table of this campaign;
/// [`AppError::BadRequest`] for a table whose file was not kept;
/// [`AppError::BadTable`] when the book cannot place the characters (naming
/// the field, or that the campaign has no player character).
pub async fn resolve(
    store: &dyn Store,
    campaign: &LoadedCampaign,
    example: Option<&str>,
    again: Option<&str>,
) -> Result<(String, BTreeMap<String, String>), AppError> {
    let system = system(campaign)?;
    let (text, mut files) = match (example, again) {
        (Some(name), None) => {
            let (text, files) = examples::table(system, name)
                .filter(|_| {
                    examples::tables(system)
                        .iter()
                        .any(|t| *t == name.trim_end_matches(".toml"))
                })
                .ok_or_else(|| {
                    AppError::UnknownExample(format!(
                        "{system} has no bundled table {name:?}; its tables are {}",
                        examples::tables(system).join(", ")
                    ))
                })?;
            (text.to_string(), files.0)
        }
        (None, Some(id)) => {
            if !campaign.tables.iter().any(|t| t.id == id) {
                return Err(AppError::NotFound(format!(
                    "the campaign has no table {id}"
                )));
            }
            let source = store
                .table_source(id)
                .await
                .map_err(AppError::store)?
                .ok_or_else(|| {
                    AppError::BadRequest(format!(
                        "table {id} was opened before tables kept their file: upload its table file"
                    ))
                })?;
            read_source(&source)?
        }
        _ => {
            return Err(AppError::BadRequest(
                "give one of `table` (an uploaded table file), `example` (a bundled table) or `again` (an earlier table's id)".into(),
            ));
        }
    };
    let mut all = files.clone();
    for c in &campaign.characters {
        all.insert(c.file.clone(), c.sheet.clone());
    }
    // The engine's own settings (`dice`, `dice_dialect`) are no book's:
    // set apart while the book places the characters, then written back.
    let (settings, bare) =
        tabula_engine::split_table_settings(&text).map_err(AppError::BadTable)?;
    let placed = system
        .place(&bare, &InMemoryFiles(all), &players(campaign))
        .map_err(|e| AppError::BadTable(e.to_string()))?;
    let placed = if settings == tabula_engine::TableSettings::default() {
        placed
    } else {
        crate::create::with_chosen(&placed, settings.into())?
    };
    files.retain(|name, _| !campaign.characters.iter().any(|c| c.file == *name));
    Ok((placed, files))
}

/// A kept source back as a table file and its sheets.
fn read_source(source: &Value) -> Result<(String, BTreeMap<String, String>), AppError> {
    let corrupt = || AppError::Internal("a kept table source is not {table, files}".into());
    let text = source["table"].as_str().ok_or_else(corrupt)?.to_string();
    let files = match source.get("files") {
        None => BTreeMap::new(),
        Some(v) => serde_json::from_value(v.clone()).map_err(|_| corrupt())?,
    };
    Ok((text, files))
}

/// Keep what table `table` opened from: the table file as opened (the
/// campaign's characters placed) and the NPC sheets uploaded or bundled with
/// it, so [`resolve`] can open it again.
///
/// # Errors
/// [`AppError::Internal`] when the store fails.
pub async fn keep(
    store: &dyn Store,
    table: &str,
    text: &str,
    files: &BTreeMap<String, String>,
) -> Result<(), AppError> {
    store
        .set_table_source(table, &json!({"table": text, "files": files}))
        .await
        .map_err(AppError::store)
}
