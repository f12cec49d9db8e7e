//! Creating a table: set it up from a table file (bundled, uploaded, or read
//! from disk by the CLI), give each seat a secret token, and store it. Shared by
//! `POST /api/tables` and `tabula table new`.

use serde::{Deserialize, Serialize};

use tabula_engine::core::Seeded;
use tabula_engine::core::files::SheetFiles;
use tabula_engine::core::notation::Dialect;
use tabula_engine::core::system::Seat;
use tabula_engine::session::seat_key;
use tabula_engine::{AnyTable, ChosenSettings, DiceSetting, SystemId, with_table_settings};
use tabula_store::{NewSeat, NewTable, Role, Store, StoreError, TableSummary};

use crate::auth;
use crate::error::AppError;
use crate::examples;

/// The longest table name kept, in bytes; longer names are cut at a character
/// boundary.
pub const MAX_NAME_BYTES: usize = 200;

/// One seat of a new table: its secret token and the link that carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLink {
    /// `gm` or the player's name.
    pub seat: String,
    /// `gm` or `player`.
    pub role: Role,
    /// The seat's secret token (32 hex characters). Shown once: the store keeps
    /// only its hash.
    pub token: String,
    /// `BASE/t/ID#TOKEN`: the token rides in the fragment, which browsers never
    /// send to the server, so it never reaches a server log.
    pub link: String,
}

/// A created table: the answer of `POST /api/tables` (201) and of `tabula table
/// new --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    /// The table id (32 hex characters).
    pub table: String,
    /// The system id.
    pub system: String,
    /// The table's name.
    pub name: String,
    /// Every seat, the GM first.
    pub seats: Vec<SeatLink>,
}

/// The table a client asks for: a bundled example or its own table file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// The system id (`bastards`).
    pub system: String,
    /// A bundled table file of that system's examples (`table`, `indirect`,
    /// `combat-example`); not with `table`.
    #[serde(default)]
    pub example: Option<String>,
    /// The table file's TOML text; not with `example`.
    #[serde(default)]
    pub table: Option<String>,
    /// The sheets the table file names: file name -> TOML text. Only these are
    /// read: never the server's disk.
    #[serde(default)]
    pub files: std::collections::BTreeMap<String, String>,
    /// The table's name (default: the table file's `title`, else the system's).
    #[serde(default)]
    pub name: Option<String>,
    /// Fix the dice stream (for demos and tests: whoever knows the seed can
    /// predict every roll). Default: a fresh stream from the operating system.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Whose meaning the table's free dice notation has: `"d20"`,
    /// `"roll20"` or `"foundry"` (the page's "Dice notation"); wins over the
    /// table file's `dice_dialect` (default: the file's, else `d20`; issue
    /// 30, item 3).
    #[serde(default)]
    pub dice_dialect: Option<Dialect>,
    /// Who may type dice and cards: `"players"` or `"table"` (the page's
    /// "Players' own dice"); wins over the table file's `dice` (default: the
    /// file's, else `players`; issue 28, item 6).
    #[serde(default)]
    pub dice: Option<DiceSetting>,
}

impl CreateRequest {
    /// The settings this request chose beside its table file.
    pub fn chosen(&self) -> ChosenSettings {
        ChosenSettings {
            dice: self.dice,
            dice_dialect: self.dice_dialect,
        }
    }
}

/// The table file `text` with the settings a request chose written in
/// ([`with_table_settings`]).
///
/// # Errors
/// [`AppError::BadTable`] naming `dice` or `dice_dialect` when the file's
/// own is not a setting.
pub fn with_chosen(text: &str, chosen: ChosenSettings) -> Result<String, AppError> {
    with_table_settings(text, chosen).map_err(AppError::BadTable)
}

/// The most uploaded files in one request.
pub const MAX_FILES: usize = 64;

/// Set up the table `request` asks for (nothing is stored yet).
///
/// # Errors
/// [`AppError::UnknownSystem`], [`AppError::UnknownExample`],
/// [`AppError::BadRequest`] (neither or both of `example` and `table`, too many
/// files), [`AppError::BadTable`] naming the broken field or file.
pub fn prepare(request: &CreateRequest) -> Result<(AnyTable, String), AppError> {
    let system: SystemId = request
        .system
        .parse()
        .map_err(|e: tabula_engine::UnknownSystem| AppError::UnknownSystem(e.to_string()))?;
    let roller = match request.seed {
        Some(seed) => Seeded::from_seed(seed),
        None => Seeded::from_entropy(),
    };
    let (table, text) = match (&request.example, &request.table) {
        (Some(example), None) => {
            if !request.files.is_empty() {
                return Err(AppError::BadRequest(
                    "`files` go with `table`, not with `example` (an example brings its own)"
                        .into(),
                ));
            }
            let (text, files) = examples::table(system, example).ok_or_else(|| {
                AppError::UnknownExample(format!(
                    "{system} has no example {example:?}; its examples are {}",
                    examples::names(system).join(", ")
                ))
            })?;
            (
                setup(system, text, &files, roller, request.chosen())?,
                text.to_string(),
            )
        }
        (None, Some(text)) => {
            if request.files.len() > MAX_FILES {
                return Err(AppError::BadRequest(format!(
                    "at most {MAX_FILES} files may be uploaded with a table"
                )));
            }
            let files = tabula_engine::core::files::InMemoryFiles(request.files.clone());
            (
                setup(system, text, &files, roller, request.chosen())?,
                text.clone(),
            )
        }
        _ => {
            return Err(AppError::BadRequest(
                "give exactly one of `example` (a bundled table, e.g. \"table\") and `table` (the table file's TOML text)"
                    .into(),
            ));
        }
    };
    Ok((table, table_name(system, &text, request.name.as_deref())))
}

/// The name a new table gets: `given` if any, else the table file's `title`,
/// else the system's title; trimmed, at most [`MAX_NAME_BYTES`].
pub fn table_name(system: SystemId, text: &str, given: Option<&str>) -> String {
    let name = given
        .map(str::to_string)
        .or_else(|| title_of(text))
        .unwrap_or_else(|| system.title().to_string());
    cut(&name)
}

/// Set up a table of `system` from `text`, its sheets read through `files`,
/// with the settings `chosen` beside the file, which win over the file's
/// own ([`AnyTable::setup_with`]; `ChosenSettings::default()` for none).
///
/// # Errors
/// [`AppError::BadTable`] with the system's message naming the field.
pub fn setup(
    system: SystemId,
    text: &str,
    files: &dyn SheetFiles,
    roller: Seeded,
    chosen: ChosenSettings,
) -> Result<AnyTable, AppError> {
    AnyTable::setup_with(system, text, files, roller, chosen)
        .map_err(|e| AppError::BadTable(e.to_string()))
}

fn title_of(text: &str) -> Option<String> {
    let doc: toml::Table = toml::from_str(text).ok()?;
    doc.get("title")?.as_str().map(str::to_string)
}

fn cut(name: &str) -> String {
    let name = name.trim();
    let mut end = name.len().min(MAX_NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].replace('\0', "")
}

/// Store `table` under `name`: one fresh token per seat (only hashes are
/// stored), the table's initial state and roller. Links are `base_url/t/ID#TOKEN`.
///
/// # Errors
/// [`AppError::TableLimit`] when the store already holds `max_tables`;
/// [`AppError::BadTable`] when the store refuses the table's size or seats;
/// [`AppError::Internal`] when the store fails.
pub async fn register(
    store: &dyn Store,
    table: &AnyTable,
    name: &str,
    base_url: &str,
    max_tables: usize,
) -> Result<Created, AppError> {
    register_in(store, table, name, base_url, max_tables, None).await
}

/// A campaign a table is opened from: its id and the token hash of each of
/// its seats by seat key (a table seat of the same key gets the same hash, so
/// one token serves the campaign and its tables).
#[derive(Clone, Debug)]
pub struct FromCampaign {
    /// The campaign's id.
    pub id: String,
    /// Seat key -> token hash (keys matched without regard to case).
    pub hashes: std::collections::BTreeMap<String, String>,
}

/// [`register`] for a table opened from a campaign (`campaign`) or not. A
/// campaign table's seats take their campaign seat's token hash, and its
/// [`SeatLink::token`] is empty (each seat uses its campaign token).
///
/// # Errors
/// As [`register`]; [`AppError::BadTable`] when a seat of the table is no
/// seat of the campaign.
pub async fn register_in(
    store: &dyn Store,
    table: &AnyTable,
    name: &str,
    base_url: &str,
    max_tables: usize,
    campaign: Option<&FromCampaign>,
) -> Result<Created, AppError> {
    let count = store.count_tables().await.map_err(AppError::store)?;
    if count >= max_tables as u64 {
        return Err(AppError::TableLimit { max: max_tables });
    }
    let mut seats = Vec::new();
    let mut new_seats = Vec::new();
    for seat in table.seats() {
        let role = match seat {
            Seat::Gm => Role::Gm,
            Seat::Player(_) => Role::Player,
        };
        let key = seat_key(&seat);
        let (token, token_hash) = match campaign {
            None => {
                let token = auth::new_token()?;
                let hash = auth::hash_token(&token);
                (token, hash)
            }
            Some(c) => {
                let hash = c
                    .hashes
                    .iter()
                    .find(|(k, _)| tabula_engine::core::names::same_name(k, &key))
                    .map(|(_, h)| h.clone())
                    .ok_or_else(|| {
                    AppError::BadTable(format!(
                        "seat {key:?} of the table file is no seat of the campaign (its seats: {})",
                        c.hashes.keys().cloned().collect::<Vec<_>>().join(", ")
                    ))
                })?;
                (String::new(), hash)
            }
        };
        new_seats.push(NewSeat {
            seat: key.clone(),
            role,
            display_name: seat.to_string(),
            token_hash,
        });
        seats.push((key, role, token));
    }
    let system = table.system().id().to_string();
    let id = store
        .create_table(NewTable {
            system: system.clone(),
            name: name.to_string(),
            initial_state: table.initial_state(),
            roller: Some(table.initial_roller()),
            seats: new_seats,
            campaign: campaign.map(|c| c.id.clone()),
        })
        .await
        .map_err(|e| match e {
            e @ (StoreError::StateTooLarge { .. }
            | StoreError::DuplicateSeat(_)
            | StoreError::NulInText { .. }) => {
                AppError::BadTable(format!("the table cannot be kept: {e}"))
            }
            e => AppError::store(e),
        })?;
    let seats = seats
        .into_iter()
        .map(|(seat, role, token)| SeatLink {
            link: if token.is_empty() {
                format!("{}/t/{id}", base_url.trim_end_matches('/'))
            } else {
                link(base_url, &id, &token)
            },
            seat,
            role,
            token,
        })
        .collect();
    Ok(Created {
        table: id,
        system,
        name: name.to_string(),
        seats,
    })
}

/// `base_url/t/ID#TOKEN`.
pub fn link(base_url: &str, id: &str, token: &str) -> String {
    format!("{}/t/{id}#{token}", base_url.trim_end_matches('/'))
}

/// The tables in `store`, newest first (`tabula table list`).
///
/// # Errors
/// [`AppError::Internal`] when the store fails.
pub async fn list(store: &dyn Store) -> Result<Vec<TableSummary>, AppError> {
    store.list_tables().await.map_err(AppError::store)
}
