//! Campaigns: one system's characters kept from encounter to encounter.
//! Shared by the HTTP routes (docs/API.md, "Campaigns") and `tabula campaign
//! ...`, so both check the same things.
//!
//! - A campaign has seats like a table (the GM and named players, a token
//!   each, only hashes stored). A table opened from it gives each of its seats
//!   the campaign seat's token hash, so one token serves the whole campaign.
//! - A character is owned by one seat; a player sees and changes only its
//!   own, the GM all. Its history is a list of
//!   [`tabula_engine::characters::CharacterEvent`]s in the store: the first
//!   holds the whole sheet, each later one the changes, so replaying the
//!   history rebuilds the sheet ([`replay`]).
//! - Ending a campaign table's encounter writes each campaign character's
//!   lasting changes (the system's `sheets_after`) back as one `encounter`
//!   event, in one store transaction that also marks the table ended: exactly
//!   once, however many servers share the store.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use tabula_engine::characters::{self, CampaignSheet, CharacterError, CharacterEvent, RuleNote};
use tabula_engine::core::Seeded;
use tabula_engine::core::system::Seat;
use tabula_engine::session::seat_key;
use tabula_engine::{AnyTable, SystemId};
use tabula_store::{
    CampaignPage, CampaignSeat, CharacterQuery, CharacterRecord, CharacterWrite, LoadedCampaign,
    NewCampaign, NewCharacter, NewCharacterEvent, NewSeat, Role, Store, StoreError,
};

use crate::auth;
use crate::create::{self, Created, FromCampaign, SeatLink};
use crate::error::AppError;

/// The most players a campaign is made with.
pub const MAX_PLAYERS: usize = 32;

/// A created campaign: every seat's token (shown once) and link `BASE/c/ID#TOKEN`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignCreated {
    /// The campaign id (32 hex characters).
    pub campaign: String,
    /// The system id.
    pub system: String,
    /// Its name.
    pub name: String,
    /// The GM first, then each player.
    pub seats: Vec<SeatLink>,
}

/// `BASE/c/ID#TOKEN`.
pub fn link(base_url: &str, id: &str, token: &str) -> String {
    format!("{}/c/{id}#{token}", base_url.trim_end_matches('/'))
}

fn system_of(text: &str) -> Result<SystemId, AppError> {
    text.parse()
        .map_err(|e: tabula_engine::UnknownSystem| AppError::UnknownSystem(e.to_string()))
}

fn store_err(e: StoreError) -> AppError {
    match e {
        StoreError::CharacterConflict { current, .. } | StoreError::Conflict { current } => {
            AppError::Stale { current }
        }
        StoreError::CampaignNotFound | StoreError::CharacterNotFound => {
            AppError::NotFound(e.to_string())
        }
        StoreError::SheetTooLarge { bytes, max } => AppError::SheetTooLarge { bytes, max },
        // Issue 28: an event over its cap is the request's size, not a fault.
        e @ (StoreError::EntryTooLarge { .. } | StoreError::CampaignTooLarge { .. }) => {
            AppError::TooLarge(e.to_string())
        }
        e @ (StoreError::BadName(_)
        | StoreError::BadFileName(_)
        | StoreError::BadEventKind { .. }
        | StoreError::UnknownOwner(_)
        | StoreError::DuplicateCharacterName(_)
        | StoreError::DuplicateCharacterFile(_)
        | StoreError::TooManyCharacters { .. }
        | StoreError::TooManyEvents { .. }
        | StoreError::DuplicateSeat(_)
        | StoreError::NulInText { .. }) => AppError::BadRequest(e.to_string()),
        e => AppError::store(e),
    }
}

/// Make a campaign of `system` named `name` with a GM seat and one seat per
/// player, set to `settings`: its setting's rules as TOML text (Scratch
/// RPS's `[rules]`, R-SCR-9; empty for the book's own), checked by
/// [`tabula_engine::SystemId::campaign_settings`] and kept with the campaign.
///
/// # Errors
/// [`AppError::UnknownSystem`]; [`AppError::BadRequest`] for a bad or
/// repeated player name, more than [`MAX_PLAYERS`], a player called `gm`;
/// [`AppError::Character`] (`bad-settings`) for settings the book does not
/// take.
pub async fn create(
    store: &dyn Store,
    system: &str,
    name: &str,
    players: &[String],
    settings: &str,
    base_url: &str,
) -> Result<CampaignCreated, AppError> {
    let system = system_of(system)?;
    let settings = system
        .campaign_settings(settings)
        .map_err(AppError::Character)?;
    if players.len() > MAX_PLAYERS {
        return Err(AppError::BadRequest(format!(
            "at most {MAX_PLAYERS} players in a campaign"
        )));
    }
    let name = create::table_name(system, "", Some(name).filter(|n| !n.trim().is_empty()));
    let mut seats = vec![Seat::Gm];
    for p in players {
        tabula_engine::core::names::check_seat_name("player", p)
            .map_err(|e| AppError::BadRequest(format!("player {p:?}: {e}")))?;
        let seat = Seat::parse(p);
        if seat.is_gm() {
            return Err(AppError::BadRequest(format!(
                "player {p:?}: that name is the GM's seat"
            )));
        }
        if seats.iter().any(|s| s.same_seat(&seat)) {
            return Err(AppError::BadRequest(format!("player {p:?} is named twice")));
        }
        seats.push(seat);
    }
    let mut new_seats = Vec::new();
    let mut tokens = Vec::new();
    for seat in &seats {
        let token = auth::new_token()?;
        let role = if seat.is_gm() { Role::Gm } else { Role::Player };
        let key = seat_key(seat);
        new_seats.push(NewSeat {
            seat: key.clone(),
            role,
            display_name: seat.to_string(),
            token_hash: auth::hash_token(&token),
        });
        tokens.push((key, role, token));
    }
    let id = store
        .create_campaign(NewCampaign {
            system: system.id().to_string(),
            name: name.clone(),
            seats: new_seats,
            settings,
        })
        .await
        .map_err(store_err)?;
    Ok(CampaignCreated {
        seats: tokens
            .into_iter()
            .map(|(seat, role, token)| SeatLink {
                link: link(base_url, &id, &token),
                seat,
                role,
                token,
            })
            .collect(),
        campaign: id,
        system: system.id().to_string(),
        name,
    })
}

/// The campaign seat whose token is `token`.
///
/// # Errors
/// [`AppError::Unauthorized`] for a wrong token or an unknown campaign.
pub async fn authenticate(
    store: &dyn Store,
    id: &str,
    token: Option<&str>,
) -> Result<CampaignSeat, AppError> {
    let unauthorized = AppError::Unauthorized(crate::error::UNAUTHORIZED_MESSAGE);
    let Some(token) = token.and_then(auth::plausible) else {
        return Err(unauthorized);
    };
    if !auth::plausible_table_id(id) {
        return Err(unauthorized);
    }
    store
        .campaign_seat_for_token(id, &auth::hash_token(token))
        .await
        .map_err(AppError::store)?
        .ok_or(unauthorized)
}

/// The seat of `campaign` named `name` (compared as seat names are: case and
/// spacing aside).
fn seat_named<'c>(seats: &'c [CampaignSeat], name: &str) -> Option<&'c CampaignSeat> {
    seats
        .iter()
        .find(|s| tabula_engine::core::names::same_name(&s.seat, name))
}

/// "`name` is no seat of this campaign (its seats: ...)".
fn no_seat(seats: &[CampaignSeat], name: &str) -> String {
    format!(
        "{name:?} is no seat of this campaign (its seats: {})",
        seats
            .iter()
            .map(|s| s.seat.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Campaign `id` without its characters (its summary, seats and tables), for
/// the server's own use where no sheet is needed: reads no sheet, where the
/// whole campaign may be up to 16 MiB of them (issue 28).
///
/// # Errors
/// [`AppError::NotFound`] when there is no such campaign.
async fn load_head(store: &dyn Store, id: &str) -> Result<CampaignPage, AppError> {
    let query = CharacterQuery {
        owner: None,
        after: None,
        limit: 0,
        max_bytes: None,
    };
    store
        .campaign_page(id, &query)
        .await
        .map_err(AppError::store)?
        .ok_or_else(|| AppError::NotFound(format!("no campaign {id}")))
}

/// Campaign `id` whole (every character), for the server's own use.
///
/// # Errors
/// [`AppError::NotFound`] when there is no such campaign.
async fn load_whole(store: &dyn Store, id: &str) -> Result<LoadedCampaign, AppError> {
    store
        .load_campaign(id)
        .await
        .map_err(AppError::store)?
        .ok_or_else(|| AppError::NotFound(format!("no campaign {id}")))
}

/// Campaign `id` as `seat` may see it, whole: a player's character list holds
/// only its own characters. For the terminal (`tabula campaign`, on the GM's
/// own database); the HTTP answer reads a page at a time ([`page`]).
///
/// # Errors
/// [`AppError::NotFound`] when there is no such campaign.
pub async fn load(
    store: &dyn Store,
    id: &str,
    seat: &CampaignSeat,
) -> Result<LoadedCampaign, AppError> {
    let mut c = load_whole(store, id).await?;
    if seat.role != Role::Gm {
        c.characters.retain(|ch| ch.owner == seat.seat);
    }
    Ok(c)
}

/// `?characters_after=CID&characters_limit=N` of `GET /api/campaigns/ID`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterPageQuery {
    /// Only the characters after this one (its id: the `characters_next` of
    /// the page before) in the order they were added.
    #[serde(default)]
    pub characters_after: Option<String>,
    /// The most characters: 1 to [`crate::MAX_CHARACTERS_PAGE`] (default
    /// [`crate::DEFAULT_CHARACTERS_PAGE`]).
    #[serde(default)]
    pub characters_limit: Option<u64>,
}

impl CharacterPageQuery {
    /// The page size asked for.
    ///
    /// # Errors
    /// [`AppError::BadRequest`] naming `characters_limit` for 0 or more than
    /// [`crate::MAX_CHARACTERS_PAGE`].
    pub fn limit(&self) -> Result<u32, AppError> {
        let max = crate::MAX_CHARACTERS_PAGE;
        match self.characters_limit {
            None => Ok(crate::DEFAULT_CHARACTERS_PAGE),
            Some(n) if n >= 1 && n <= u64::from(max) => {
                u32::try_from(n).map_err(|_| AppError::Internal("page size".into()))
            }
            Some(n) => Err(AppError::BadRequest(format!(
                "characters_limit must be 1 to {max} (the most characters one page of a campaign holds), not {n}"
            ))),
        }
    }
}

/// Campaign `id` as `seat` may see it, with one page of the characters it
/// may see (a player only its own): at most `limit` of them (0: none, the
/// campaign alone) after the character `after`, in the order they were
/// added, and no more than fit in [`crate::MAX_CHARACTERS_PAGE_BYTES`] of
/// sheets (one at least). The store reads only the page's characters
/// (issue 28).
///
/// # Errors
/// [`AppError::NotFound`] when there is no such campaign;
/// [`AppError::BadRequest`] naming `characters_after` when `after` is no
/// character of the campaign that `seat` may see.
pub async fn page(
    store: &dyn Store,
    id: &str,
    seat: &CampaignSeat,
    after: Option<&str>,
    limit: u32,
) -> Result<CampaignPage, AppError> {
    let query = CharacterQuery {
        owner: (seat.role != Role::Gm).then(|| seat.seat.clone()),
        after: after.map(str::to_string),
        limit,
        max_bytes: Some(crate::MAX_CHARACTERS_PAGE_BYTES),
    };
    match store.campaign_page(id, &query).await {
        Ok(Some(page)) => Ok(page),
        Ok(None) => Err(AppError::NotFound(format!("no campaign {id}"))),
        Err(StoreError::CharacterNotFound) => Err(AppError::BadRequest(format!(
            "characters_after: {:?} is no character of this campaign that you may see (give the `characters_next` of the page before)",
            after.unwrap_or_default()
        ))),
        Err(e) => Err(AppError::store(e)),
    }
}

/// The character `character` of campaign `id`, if `seat` may see it (its owner
/// or the GM).
///
/// # Errors
/// [`AppError::NotFound`] when there is none or it is another player's.
pub async fn character(
    store: &dyn Store,
    id: &str,
    character: &str,
    seat: &CampaignSeat,
) -> Result<CharacterRecord, AppError> {
    let missing = || {
        AppError::NotFound(format!(
            "no character {character} of yours in this campaign"
        ))
    };
    let c = store
        .character(id, character)
        .await
        .map_err(AppError::store)?
        .ok_or_else(missing)?;
    if seat.role != Role::Gm && c.owner != seat.seat {
        return Err(missing());
    }
    Ok(c)
}

/// What `POST /api/campaigns/ID/characters` takes.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddCharacter {
    /// The sheet (TOML); must validate.
    pub sheet: String,
    /// The owning seat (default: the seat asking). Only the GM may name
    /// another.
    #[serde(default)]
    pub owner: Option<String>,
    /// The file name a table file uses for this sheet (default: the name in
    /// lower case, `-` for spaces and anything but letters and digits, `.toml`).
    #[serde(default)]
    pub file: Option<String>,
    /// Recorded as `imported` (from a file) rather than `created`.
    #[serde(default)]
    pub imported: bool,
}

/// The file name a character's sheet gets by default: `Kodos the Great` ->
/// `kodos-the-great.toml`.
pub fn default_file(name: &str) -> String {
    let mut out = String::new();
    for ch in name.chars() {
        if ch.is_alphanumeric() {
            out.extend(ch.to_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-');
    if out.is_empty() {
        "character.toml".into()
    } else {
        format!("{out}.toml")
    }
}

/// Add a character to campaign `id` as `seat`.
///
/// # Errors
/// [`AppError::Character`] (`bad-sheet`) when the sheet does not validate;
/// [`AppError::Forbidden`] when a player names another owner;
/// [`AppError::BadRequest`] for an unknown owner, a name or file already in
/// the campaign, a file name that is not `NAME.toml`.
pub async fn add_character(
    store: &dyn Store,
    id: &str,
    seat: &CampaignSeat,
    request: &AddCharacter,
) -> Result<CharacterRecord, AppError> {
    let campaign = load_head(store, id).await?;
    let system = system_of(&campaign.summary.system)?;
    let name = system
        .validate_sheet_in(&campaign.summary.settings, &request.sheet)
        .map_err(AppError::Character)?;
    let owner = match &request.owner {
        None => seat.seat.clone(),
        Some(o) => {
            let wanted = seat_named(&campaign.seats, o).ok_or_else(|| {
                AppError::BadRequest(format!("owner {}", no_seat(&campaign.seats, o)))
            })?;
            if seat.role != Role::Gm && wanted.seat != seat.seat {
                return Err(AppError::Forbidden(
                    "a player adds characters only for its own seat".into(),
                ));
            }
            wanted.seat.clone()
        }
    };
    let file = request.file.clone().unwrap_or_else(|| default_file(&name));
    if !file.ends_with(".toml")
        || file.len() > 100
        || file.contains(['/', '\\'])
        || file.chars().any(char::is_control)
    {
        return Err(AppError::BadRequest(format!(
            "file {file:?}: a sheet's file name is NAME.toml (no folders, at most 100 bytes)"
        )));
    }
    let event = if request.imported {
        CharacterEvent::Imported {
            sheet: request.sheet.clone(),
        }
    } else {
        CharacterEvent::Created {
            sheet: request.sheet.clone(),
        }
    };
    store
        .add_character(
            id,
            NewCharacter {
                name,
                file,
                owner,
                event: new_event(&seat.seat, &event, &request.sheet)?,
            },
        )
        .await
        .map_err(store_err)
}

fn new_event(
    seat: &str,
    event: &CharacterEvent,
    sheet: &str,
) -> Result<NewCharacterEvent, AppError> {
    Ok(NewCharacterEvent {
        seat: seat.to_string(),
        kind: event.kind().to_string(),
        entry: serde_json::to_value(event).map_err(|e| AppError::Internal(e.to_string()))?,
        sheet: sheet.to_string(),
    })
}

/// One event of a character's history as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryLine {
    /// Its place in the history, from 1.
    pub seq: u64,
    /// When, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The seat that caused it.
    pub seat: String,
    /// `created`, `imported`, `encounter`, `advanced`, `edited`.
    pub kind: String,
    /// One line on what happened.
    pub summary: String,
    /// The event itself.
    pub event: serde_json::Value,
}

/// The history of a character (see [`character`] for who may read it).
///
/// # Errors
/// [`AppError::Internal`] when the store fails.
pub async fn history(
    store: &dyn Store,
    id: &str,
    character: &str,
) -> Result<Vec<HistoryLine>, AppError> {
    let rows = store
        .character_history(id, character)
        .await
        .map_err(AppError::store)?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let summary = serde_json::from_value::<CharacterEvent>(r.entry.clone())
                .map(|e| e.summary())
                .unwrap_or_else(|_| r.kind.clone());
            HistoryLine {
                seq: r.seq,
                at_ms: r.at_ms,
                seat: r.seat,
                kind: r.kind,
                summary,
                event: r.entry,
            }
        })
        .collect())
}

/// Replay a character's stored history and check it rebuilds its current
/// sheet: the sheet it leads to.
///
/// # Errors
/// [`AppError::Character`] (`history`) when an event does not read or does
/// not fit, or the result is not the stored sheet.
pub async fn replay(
    store: &dyn Store,
    id: &str,
    record: &CharacterRecord,
) -> Result<String, AppError> {
    let campaign = load_head(store, id).await?;
    let system = system_of(&campaign.summary.system)?;
    let rows = store
        .character_history(id, &record.id)
        .await
        .map_err(AppError::store)?;
    let events = rows
        .into_iter()
        .map(|r| {
            serde_json::from_value::<CharacterEvent>(r.entry)
                .map_err(|e| AppError::Character(CharacterError::History(e.to_string())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // R-SCR-9: the sheet is checked against the campaign's setting.
    let sheet = characters::replay_history_in(&campaign.summary.settings, system, &events)
        .map_err(AppError::Character)?;
    if !characters::same_sheet(&sheet, &record.sheet) {
        return Err(AppError::Character(CharacterError::History(
            "replaying the history does not give the stored sheet".into(),
        )));
    }
    Ok(sheet)
}

/// What an advancement did.
#[derive(Clone, Debug, Serialize)]
pub struct AdvancedOut {
    /// What it did, in the book's words.
    pub summary: String,
    /// Each value that changed (`traits.Might: 2 -> 3`).
    pub changes: Vec<String>,
    /// The character after it.
    pub character: CharacterRecord,
    /// The book's rules a GM's edit steps past (the GM's right; the history
    /// keeps them too). Left out when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps_past: Vec<RuleNote>,
}

/// The GM replaces a character's sheet with `sheet` (an edit the book leaves
/// to the GM: an agreed death, Items given or taken, a Special Talent's text),
/// recorded as an `edited` event holding each change, so the history still
/// replays. Nothing is recorded when nothing changed.
///
/// # Errors
/// [`AppError::Forbidden`] for a player; [`AppError::Character`]
/// (`bad-sheet`) when the sheet does not validate; [`AppError::BadRequest`]
/// when it renames the character (import it as a new one instead);
/// [`AppError::Stale`] when the character changed meanwhile.
pub async fn edit(
    store: &dyn Store,
    id: &str,
    character_id: &str,
    seat: &CampaignSeat,
    sheet: &str,
) -> Result<AdvancedOut, AppError> {
    if seat.role != Role::Gm {
        return Err(AppError::Forbidden(
            "only the GM edits a campaign character's sheet (players advance by the book's commands)"
                .into(),
        ));
    }
    let record = character(store, id, character_id, seat).await?;
    let campaign = load_head(store, id).await?;
    let system = system_of(&campaign.summary.system)?;
    let name = system
        .validate_sheet_in(&campaign.summary.settings, sheet)
        .map_err(AppError::Character)?;
    if !tabula_engine::core::names::same_name(&name, &record.name) {
        return Err(AppError::BadRequest(format!(
            "the sheet is {name:?}, this character is {:?}: a character keeps its name (import the sheet as a new character)",
            record.name
        )));
    }
    let changes = characters::sheet_changes(&record.sheet, sheet).map_err(AppError::Character)?;
    if changes.is_empty() {
        return Ok(AdvancedOut {
            summary: "nothing changed".into(),
            changes: Vec::new(),
            character: record,
            steps_past: Vec::new(),
        });
    }
    let steps_past: Vec<RuleNote> = system
        .steps_past(&record.sheet, sheet)
        .into_iter()
        .map(RuleNote::from)
        .collect();
    let event = CharacterEvent::Edited {
        changes: changes.clone(),
        steps_past: steps_past.clone(),
    };
    store
        .append_character_event(
            id,
            &record.id,
            record.seq,
            new_event(&seat.seat, &event, sheet)?,
        )
        .await
        .map_err(store_err)?;
    let character = store
        .character(id, &record.id)
        .await
        .map_err(AppError::store)?
        .ok_or_else(|| AppError::Internal("the character vanished".into()))?;
    Ok(AdvancedOut {
        summary: event.summary(),
        changes: changes.iter().map(ToString::to_string).collect(),
        character,
        steps_past,
    })
}

/// Give advancement command `command` to a character as `seat` (its owner or
/// the GM), and record it in the history.
///
/// # Errors
/// [`AppError::Character`] (`advance-refused`) naming the rule: nothing
/// changes; [`AppError::Stale`] when the character changed meanwhile (try
/// again).
pub async fn advance(
    store: &dyn Store,
    id: &str,
    character_id: &str,
    seat: &CampaignSeat,
    command: &str,
) -> Result<AdvancedOut, AppError> {
    if command.len() > tabula_engine::session::MAX_COMMAND_BYTES {
        return Err(AppError::BadRequest("`command` is too long".into()));
    }
    let record = character(store, id, character_id, seat).await?;
    let campaign = load_head(store, id).await?;
    let system = system_of(&campaign.summary.system)?;
    let who = if seat.role == Role::Gm {
        Seat::Gm
    } else {
        Seat::Player(seat.seat.clone())
    };
    let mut roller = Seeded::from_entropy();
    let done = system
        .advance_in(
            &campaign.summary.settings,
            &record.sheet,
            &who,
            command,
            &mut roller,
        )
        .map_err(AppError::Character)?;
    let changes =
        characters::sheet_changes(&record.sheet, &done.sheet).map_err(AppError::Character)?;
    let event = CharacterEvent::Advanced {
        command: command.trim().to_string(),
        summary: done.summary.clone(),
        changes: changes.clone(),
    };
    store
        .append_character_event(
            id,
            &record.id,
            record.seq,
            new_event(&seat.seat, &event, &done.sheet)?,
        )
        .await
        .map_err(store_err)?;
    let character = store
        .character(id, &record.id)
        .await
        .map_err(AppError::store)?
        .ok_or_else(|| AppError::Internal("the character vanished".into()))?;
    Ok(AdvancedOut {
        summary: done.summary,
        changes: changes.iter().map(ToString::to_string).collect(),
        character,
        steps_past: Vec::new(),
    })
}

/// What `POST /api/campaigns/ID/tables` takes.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenTable {
    /// The table file's TOML text (its sheets named by the characters' `file`).
    /// One of `table`, `example` and `again` is given.
    #[serde(default)]
    pub table: Option<String>,
    /// Or a bundled table file of the campaign's book (`"table"`), the
    /// campaign's characters placed in it ([`crate::encounters`]).
    #[serde(default)]
    pub example: Option<String>,
    /// Or an earlier table of the campaign (its id), opened again from its
    /// kept table file with the campaign's characters placed in it
    /// ([`crate::encounters`]).
    #[serde(default)]
    pub again: Option<String>,
    /// More sheets (the GM's NPCs): file name -> TOML text. May not shadow a
    /// character's file.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// The table's name (default: the table file's `title`).
    #[serde(default)]
    pub name: Option<String>,
    /// Fix the dice stream (demos and tests).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Whose meaning the table's free dice notation has (`"d20"`,
    /// `"roll20"`, `"foundry"`); wins over the table file's `dice_dialect`
    /// (issue 30, item 3).
    #[serde(default)]
    pub dice_dialect: Option<tabula_engine::core::notation::Dialect>,
    /// Who may type dice and cards (`"players"`, `"table"`); wins over the
    /// table file's `dice`.
    #[serde(default)]
    pub dice: Option<tabula_engine::DiceSetting>,
}

/// Open a table of campaign `id` (the GM only): the table file's sheets are
/// the campaign characters' current sheets, by file name.
///
/// # Errors
/// [`AppError::Forbidden`] for a player; [`AppError::BadTable`] when the
/// table does not set up (naming each character whose sheet needs the GM's
/// edit, see [`needs_edit`]) or names a seat the campaign lacks;
/// [`AppError::BadRequest`] when an uploaded file shadows a character's.
pub async fn open_table(
    store: &dyn Store,
    id: &str,
    seat: &CampaignSeat,
    request: &OpenTable,
    base_url: &str,
    max_tables: usize,
    max_open: usize,
) -> Result<(Created, AnyTable), AppError> {
    if seat.role != Role::Gm {
        return Err(AppError::Forbidden(
            "only the GM opens a campaign's tables".into(),
        ));
    }
    if request.files.len() > create::MAX_FILES {
        return Err(AppError::BadRequest(format!(
            "at most {} files may be uploaded with a table",
            create::MAX_FILES
        )));
    }
    let campaign = load_whole(store, id).await?;
    // Issue 28: at most `max_open` of the campaign's tables not ended.
    let open = campaign
        .tables
        .iter()
        .filter(|t| t.ended_ms.is_none())
        .count();
    if open >= max_open {
        return Err(AppError::CampaignTableLimit { max: max_open });
    }
    let system = system_of(&campaign.summary.system)?;
    // Issue 27, item 8: a bundled or earlier table file with the campaign's
    // characters placed, or the uploaded file as it is.
    let (table_text, npc_files) = match (&request.table, &request.example, &request.again) {
        (Some(text), None, None) => (text.clone(), request.files.clone()),
        (None, example, again) if request.files.is_empty() => {
            crate::encounters::resolve(store, &campaign, example.as_deref(), again.as_deref())
                .await?
        }
        (None, _, _) => {
            return Err(AppError::BadRequest(
                "`files` go with `table`, not with `example` or `again` (they bring their own)"
                    .into(),
            ));
        }
        _ => {
            return Err(AppError::BadRequest(
                "give one of `table`, `example` or `again`, not more".into(),
            ));
        }
    };
    // Issue 30, item 3: the settings chosen with the request win over the
    // file's; they are kept in the table file (so `again` opens with them
    // too) and set apart from what the setting's rules rewrite.
    let chosen = tabula_engine::ChosenSettings {
        dice: request.dice,
        dice_dialect: request.dice_dialect,
    };
    let table_text = create::with_chosen(&table_text, chosen)?;
    let (table_settings, bare_text) =
        tabula_engine::split_table_settings(&table_text).map_err(AppError::BadTable)?;
    let mut files = npc_files.clone();
    for c in &campaign.characters {
        if files.contains_key(&c.file) {
            return Err(AppError::BadRequest(format!(
                "the uploaded file {:?} has the name of {}'s sheet; rename it",
                c.file, c.name
            )));
        }
        files.insert(c.file.clone(), c.sheet.clone());
    }
    let roller = match request.seed {
        Some(seed) => Seeded::from_seed(seed),
        None => Seeded::from_entropy(),
    };
    let files = tabula_engine::core::files::InMemoryFiles(files);
    // R-SCR-9: every table opened from the campaign uses its setting's rules.
    let text = system
        .table_in(&campaign.summary.settings, &bare_text)
        .map_err(|e| AppError::BadTable(e.to_string()))?;
    let table =
        create::setup(system, &text, &files, roller, table_settings.into()).map_err(|e| {
            // A sheet an encounter left breaking a rule does not set up: say who
            // needs the GM's edit, and which rules.
            let waiting: Vec<String> = campaign
                .characters
                .iter()
                .filter_map(|c| {
                    let notes = system.needs_edit_in(&campaign.summary.settings, &c.sheet);
                    (!notes.is_empty()).then(|| {
                        let rules: Vec<String> = notes
                            .into_iter()
                            .map(|p| RuleNote::from(p).to_string())
                            .collect();
                        format!("{} needs the GM's edit: {}", c.name, rules.join("; "))
                    })
                })
                .collect();
            match e {
                AppError::BadTable(m) if !waiting.is_empty() => {
                    AppError::BadTable(format!("{m} ({})", waiting.join("; ")))
                }
                other => other,
            }
        })?;
    let name = create::table_name(system, &table_text, request.name.as_deref());
    let mut hashes = BTreeMap::new();
    for s in &campaign.seats {
        if let Some(h) = store
            .campaign_token_hash(id, &s.seat)
            .await
            .map_err(AppError::store)?
        {
            hashes.insert(s.seat.clone(), h);
        }
    }
    let from = FromCampaign {
        id: id.to_string(),
        hashes,
    };
    let created =
        create::register_in(store, &table, &name, base_url, max_tables, Some(&from)).await?;
    crate::encounters::keep(store, &created.table, &table_text, &npc_files).await?;
    Ok((created, table))
}

/// One character's share of an ended encounter.
#[derive(Clone, Debug, Serialize)]
pub struct Written {
    /// The character's id.
    pub character: String,
    /// Its name.
    pub name: String,
    /// The event's summary.
    pub summary: String,
    /// Each value that changed.
    pub changes: Vec<String>,
    /// The rules the sheet the encounter left breaks: recorded all the same,
    /// the character needs the GM's edit. Left out when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub needs_edit: Vec<RuleNote>,
}

/// The answer of ending an encounter.
#[derive(Clone, Debug, Serialize)]
pub struct Ended {
    /// The table.
    pub table: String,
    /// True when the encounter had been ended before (nothing was written now).
    pub already: bool,
    /// What was written to each campaign character (empty when `already`).
    pub written: Vec<Written>,
}

/// End the encounter of campaign table `table_id` (held as `table`): write
/// each campaign character's lasting changes back as an `encounter` event and
/// mark the table ended, in one store transaction, exactly once.
///
/// Ending never fails on a state the table accepted (R-SG-13, for every
/// book): a sheet after the encounter that does not validate is written all
/// the same, its event listing the rules it breaks, and the character shows
/// as needing the GM's edit ([`needs_edit`]) until the GM edits the sheet.
///
/// # Errors
/// [`AppError::NotCampaign`] for a table not opened from a campaign;
/// [`AppError::Stale`] when a character changed meanwhile (try again).
pub async fn end_encounter(
    store: &dyn Store,
    table_id: &str,
    table: &AnyTable,
) -> Result<Ended, AppError> {
    let loaded = store
        .load_table_tail(table_id)
        .await
        .map_err(AppError::store)?
        .ok_or_else(|| AppError::NotFound(format!("no table {table_id}")))?;
    let Some(campaign_id) = loaded.summary.campaign.clone() else {
        return Err(AppError::NotCampaign(
            "this table was not opened from a campaign: there is nothing to write back".into(),
        ));
    };
    if loaded.summary.ended_ms.is_some() {
        return Ok(Ended {
            table: table_id.to_string(),
            already: true,
            written: Vec::new(),
        });
    }
    let campaign = store
        .load_campaign(&campaign_id)
        .await
        .map_err(AppError::store)?
        .ok_or_else(|| AppError::Internal(format!("campaign {campaign_id} is gone")))?;
    let sheets: Vec<CampaignSheet> = campaign
        .characters
        .iter()
        .map(|c| CampaignSheet {
            id: c.id.clone(),
            name: c.name.clone(),
            sheet: c.sheet.clone(),
        })
        .collect();
    let found = characters::encounter_changes_in(
        &campaign.summary.settings,
        table,
        table_id,
        &loaded.summary.name,
        &sheets,
    );
    let mut writes = Vec::new();
    let mut written = Vec::new();
    for (cid, sheet, event) in found {
        let record = campaign
            .characters
            .iter()
            .find(|c| c.id == cid)
            .ok_or_else(|| AppError::Internal("character lost".into()))?;
        if let CharacterEvent::Encounter {
            changes, problems, ..
        } = &event
        {
            written.push(Written {
                character: cid.clone(),
                name: record.name.clone(),
                summary: event.summary(),
                changes: changes.iter().map(ToString::to_string).collect(),
                needs_edit: problems.clone(),
            });
        }
        writes.push(CharacterWrite {
            character: cid,
            expect_seq: record.seq,
            event: new_event("gm", &event, &sheet)?,
        });
    }
    let done = store.end_table(table_id, writes).await.map_err(store_err)?;
    Ok(Ended {
        table: table_id.to_string(),
        already: !done,
        written: if done { written } else { Vec::new() },
    })
}

/// A new link for seat `name` of campaign `id` (the GM's, when a player's link
/// was lost or leaked): a fresh token whose hash replaces the seat's in the
/// campaign and at every table the campaign opened with it
/// ([`Store::reissue_campaign_token`]), so the old link opens nothing. `seat`
/// is who asks. Returns the new link and the table seats changed, as
/// `(table id, seat)`, whose open sockets must close.
///
/// # Errors
/// [`AppError::Forbidden`] for a player; [`AppError::NotFound`] when the
/// campaign has no seat named `name` (compared as seat names are).
pub async fn reissue(
    store: &dyn Store,
    id: &str,
    seat: &CampaignSeat,
    name: &str,
    base_url: &str,
) -> Result<(SeatLink, Vec<(String, String)>), AppError> {
    if seat.role != Role::Gm {
        return Err(AppError::Forbidden(
            "only the GM reissues a campaign seat's link".into(),
        ));
    }
    let campaign = load_head(store, id).await?;
    let target = seat_named(&campaign.seats, name)
        .ok_or_else(|| AppError::NotFound(no_seat(&campaign.seats, name)))?;
    let token = auth::new_token()?;
    let changed = store
        .reissue_campaign_token(id, &target.seat, &auth::hash_token(&token))
        .await
        .map_err(AppError::store)?
        .ok_or_else(|| AppError::NotFound(format!("{name:?} is no seat of this campaign")))?;
    Ok((
        SeatLink {
            link: link(base_url, id, &token),
            seat: target.seat.clone(),
            role: target.role,
            token,
        },
        changed,
    ))
}

/// What the GM must fix on `record`'s sheet before it sits at a table again
/// (every rule the sheet breaks; empty for a legal sheet). Only an encounter
/// leaves such a sheet in a campaign ([`end_encounter`]); the GM's edit
/// fixes it.
/// `settings` are the campaign's (R-SCR-9).
pub fn needs_edit(system: &str, settings: &str, record: &CharacterRecord) -> Vec<RuleNote> {
    system_of(system)
        .map(|s| s.needs_edit_in(settings, &record.sheet))
        .unwrap_or_default()
        .into_iter()
        .map(RuleNote::from)
        .collect()
}

/// A loaded campaign's characters as `campaign show --json` gives them:
/// each record with `needs_edit`, the rules its sheet breaks (empty for a
/// legal sheet).
pub fn character_list(c: &LoadedCampaign) -> Vec<serde_json::Value> {
    characters_with_notes(&c.summary.system, &c.summary.settings, &c.characters)
}

/// Characters of a campaign of `system` set to `settings` as the API gives
/// them: each record with `needs_edit` (see [`character_list`]).
pub fn characters_with_notes(
    system: &str,
    settings: &str,
    characters: &[CharacterRecord],
) -> Vec<serde_json::Value> {
    characters
        .iter()
        .map(|ch| {
            let mut v = serde_json::to_value(ch).unwrap_or(serde_json::Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.insert(
                    "needs_edit".into(),
                    serde_json::to_value(needs_edit(system, settings, ch))
                        .unwrap_or(serde_json::Value::Null),
                );
            }
            v
        })
        .collect()
}

/// The seats of a loaded campaign as `{seat, role}`.
pub fn seat_list(c: &LoadedCampaign) -> Vec<serde_json::Value> {
    seats_of(&c.seats)
}

/// Campaign seats as `{seat, role}` (never a token).
pub fn seats_of(seats: &[CampaignSeat]) -> Vec<serde_json::Value> {
    seats
        .iter()
        .map(|s| serde_json::json!({"seat": s.seat, "role": s.role}))
        .collect()
}
