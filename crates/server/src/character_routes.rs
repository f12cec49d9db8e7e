//! The HTTP routes of the character builder and of campaigns (docs/API.md,
//! "Characters: the builder" and "Campaigns"). The rules are the engine's
//! (`tabula_engine::characters`) and the campaign logic is [`crate::campaign`]'s;
//! these handlers read requests, check tokens and answer.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use tabula_engine::SystemId;
use tabula_engine::characters::{BuildAnswer, DraftChange};
use tabula_store::{CampaignSeat, Role};

use crate::auth;
use crate::campaign::{self, AddCharacter, OpenTable};
use crate::create::SeatLink;
use crate::error::{ApiJson, ApiQuery, AppError};
use crate::state::AppState;

/// The most changes in one builder request.
pub const MAX_CHANGES: usize = 256;

fn system(text: &str) -> Result<SystemId, AppError> {
    text.parse()
        .map_err(|e: tabula_engine::UnknownSystem| AppError::UnknownSystem(e.to_string()))
}

/// `GET /api/systems/SYSTEM/builder`: the empty draft and its view.
pub async fn new_draft(Path(sys): Path<String>) -> Result<Json<BuildAnswer>, AppError> {
    Ok(Json(system(&sys)?.new_draft()))
}

/// The body of `POST /api/systems/SYSTEM/builder`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangeDraft {
    /// The draft as the last answer gave it.
    pub draft: Value,
    /// The changes, in order.
    #[serde(default)]
    pub changes: Vec<DraftChange>,
    /// A campaign's settings (its setting's rules, R-SCR-9), when the
    /// character is made for that campaign; empty: the book's own rules.
    #[serde(default)]
    pub settings: String,
}

/// `POST /api/systems/SYSTEM/builder`: apply changes to a draft; a refusal is
/// in the answer's `refusal` (200), the draft as it was before it.
pub async fn change_draft(
    Path(sys): Path<String>,
    ApiJson(body): ApiJson<ChangeDraft>,
) -> Result<Json<BuildAnswer>, AppError> {
    if body.changes.len() > MAX_CHANGES {
        return Err(AppError::BadRequest(format!(
            "at most {MAX_CHANGES} changes in one request"
        )));
    }
    system(&sys)?
        .change_draft_in(&body.settings, &body.draft, &body.changes)
        .map(Json)
        .map_err(AppError::Character)
}

/// The body of `POST /api/systems/SYSTEM/builder/finish`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinishDraft {
    /// The draft.
    pub draft: Value,
    /// A campaign's settings (its setting's rules, R-SCR-9), when the
    /// character is made for that campaign; empty: the book's own rules.
    #[serde(default)]
    pub settings: String,
}

/// `POST /api/systems/SYSTEM/builder/finish`: the sheet, or 422 `unfinished`.
pub async fn finish_draft(
    Path(sys): Path<String>,
    ApiJson(body): ApiJson<FinishDraft>,
) -> Result<Json<Value>, AppError> {
    let s = system(&sys)?;
    let sheet = s
        .finish_draft_in(&body.settings, &body.draft)
        .map_err(AppError::Character)?;
    let name = s
        .validate_sheet_in(&body.settings, &sheet)
        .map_err(AppError::Character)?;
    Ok(Json(json!({"name": name, "sheet": sheet})))
}

/// The body of `POST /api/systems/SYSTEM/sheets/validate`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidateSheet {
    /// The sheet (TOML).
    pub sheet: String,
    /// A campaign's settings (its setting's rules, R-SCR-9), when the
    /// character is made for that campaign; empty: the book's own rules.
    #[serde(default)]
    pub settings: String,
}

/// `POST /api/systems/SYSTEM/sheets/validate`: `{valid, name, problems}`.
pub async fn validate_sheet(
    Path(sys): Path<String>,
    ApiJson(body): ApiJson<ValidateSheet>,
) -> Result<Json<Value>, AppError> {
    Ok(Json(
        match system(&sys)?.validate_sheet_in(&body.settings, &body.sheet) {
            Ok(name) => json!({"valid": true, "name": name, "problems": []}),
            Err(tabula_engine::characters::CharacterError::Sheet { problems }) => {
                let problems: Vec<Value> = problems
                .iter()
                .map(|p| {
                    json!({"field": p.field, "rule": p.rule, "message": p.message, "text": p.to_string()})
                })
                .collect();
                json!({"valid": false, "name": null, "problems": problems})
            }
            Err(e) => return Err(AppError::Character(e)),
        },
    ))
}

/// `POST /api/systems/SYSTEM/builder/from-sheet` with `{"sheet": TOML}`: the
/// draft a saved sheet is, with its view (to edit an imported character in
/// the builder): the same answer as the builder's other routes.
///
/// # Errors
/// 422 `bad-sheet` with the problems when the sheet does not read.
pub async fn draft_from_sheet(
    Path(sys): Path<String>,
    ApiJson(body): ApiJson<ValidateSheet>,
) -> Result<Json<BuildAnswer>, AppError> {
    system(&sys)?
        .draft_from_sheet_in(&body.settings, &body.sheet)
        .map(Json)
        .map_err(AppError::Character)
}

/// `GET /api/systems/SYSTEM/advancement`: the book's advancement commands.
pub async fn advancement(Path(sys): Path<String>) -> Result<Json<Value>, AppError> {
    let list: Vec<Value> = system(&sys)?
        .advancement()
        .iter()
        .map(|c| {
            json!({"name": c.name, "usage": c.usage, "summary": c.summary,
                   "giver": c.giver.to_string(), "rule": c.rule})
        })
        .collect();
    Ok(Json(Value::Array(list)))
}

/// The body of `POST /api/campaigns`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewCampaignRequest {
    /// The system id.
    pub system: String,
    /// The campaign's name.
    pub name: String,
    /// The players' seat names.
    #[serde(default)]
    pub players: Vec<String>,
    /// The setting's rules as TOML text (Scratch RPS: a `[rules]` table with
    /// `cp`, `max_level`, `strength_base`, `d20`; R-SCR-9). Empty or absent:
    /// the book's own rules.
    #[serde(default)]
    pub settings: String,
}

/// `POST /api/campaigns`: 201 with every seat's token and link.
pub async fn create_campaign(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<NewCampaignRequest>,
) -> Result<Response, AppError> {
    crate::routes::check_create_token(&state, &headers)?;
    let created = campaign::create(
        state.store().as_ref(),
        &body.system,
        &body.name,
        &body.players,
        &body.settings,
        &state.settings().base_url,
    )
    .await?;
    tracing::info!(campaign = %created.campaign, system = %created.system, "campaign created");
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// `GET /api/campaigns`: every campaign, newest first (no tokens, no sheets).
pub async fn list_campaigns(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Value>, AppError> {
    crate::routes::check_create_token(&state, &headers)?;
    let list = state
        .store()
        .list_campaigns()
        .await
        .map_err(AppError::store)?;
    Ok(Json(json!({ "campaigns": list })))
}

async fn who(state: &AppState, id: &str, headers: &HeaderMap) -> Result<CampaignSeat, AppError> {
    campaign::authenticate(state.store().as_ref(), id, auth::bearer(headers)).await
}

/// `POST /api/campaigns/ID/seats/SEAT/reissue` (the campaign's GM): a new link
/// for the seat; the old one opens neither the campaign nor its tables, and
/// the seat's open table sockets holding it close.
pub async fn reissue_campaign_seat(
    State(state): State<AppState>,
    Path((id, name)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<SeatLink>, AppError> {
    reissue_and_tell(&state, &id, &headers, &name)
        .await
        .map(Json)
}

/// Reissue campaign `id`'s seat `name` as the GM whose token `headers` carry
/// ([`campaign::reissue`]) and close the old token's sockets at every table
/// of the campaign. Shared by the campaign's route and a campaign table's
/// reissue (issue 27, bug 2).
///
/// # Errors
/// As [`campaign::authenticate`] and [`campaign::reissue`].
pub async fn reissue_and_tell(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    name: &str,
) -> Result<SeatLink, AppError> {
    let seat = who(state, id, headers).await?;
    let (link, changed) = campaign::reissue(
        state.store().as_ref(),
        id,
        &seat,
        name,
        &state.settings().base_url,
    )
    .await?;
    for (table, table_seat) in &changed {
        state.reissued(table, table_seat);
    }
    tracing::info!(campaign = %id, seat = %link.seat, tables = changed.len(), "campaign token reissued");
    Ok(link)
}

/// `GET /api/campaigns/ID[?characters_after=CID][&characters_limit=N]`: the
/// campaign as the token's seat may see it, with one page of its characters
/// (a player only its own), in the order they were added: `characters_total`
/// counts them all, `characters_next` is the `characters_after` of the next
/// page (`null` on the last). Issue 28: the store reads only the page.
///
/// # Errors
/// 400 `bad-request` for a `characters_limit` of 0 or over
/// [`crate::MAX_CHARACTERS_PAGE`], or a `characters_after` that is no
/// character the seat may see.
pub async fn show_campaign(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<campaign::CharacterPageQuery>,
) -> Result<Json<Value>, AppError> {
    let limit = q.limit()?;
    let seat = who(&state, &id, &headers).await?;
    let c = campaign::page(
        state.store().as_ref(),
        &id,
        &seat,
        q.characters_after.as_deref(),
        limit,
    )
    .await?;
    let next = if c.more {
        c.characters.last().map(|ch| ch.id.clone())
    } else {
        None
    };
    Ok(Json(json!({
        "id": c.summary.id,
        "system": c.summary.system,
        "name": c.summary.name,
        "created_ms": c.summary.created_ms,
        "settings": c.summary.settings,
        "seat": seat.seat,
        "role": seat.role,
        "seats": campaign::seats_of(&c.seats),
        "characters": campaign::characters_with_notes(&c.summary.system, &c.summary.settings, &c.characters),
        "characters_total": c.total,
        "characters_next": next,
        "tables": c.tables,
    })))
}

/// `POST /api/campaigns/ID/characters`: add a character (201).
pub async fn add_character(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<AddCharacter>,
) -> Result<Response, AppError> {
    let seat = who(&state, &id, &headers).await?;
    let c = campaign::add_character(state.store().as_ref(), &id, &seat, &body).await?;
    Ok((StatusCode::CREATED, Json(c)).into_response())
}

/// `GET /api/campaigns/ID/characters/CID`: the character with its history.
pub async fn show_character(
    State(state): State<AppState>,
    Path((id, cid)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, AppError> {
    let seat = who(&state, &id, &headers).await?;
    let store = state.store().as_ref();
    let c = campaign::character(store, &id, &cid, &seat).await?;
    let history = campaign::history(store, &id, &c.id).await?;
    let mut v = serde_json::to_value(&c).map_err(|e| AppError::Internal(e.to_string()))?;
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "history".into(),
            serde_json::to_value(history).unwrap_or(Value::Null),
        );
    }
    Ok(Json(v))
}

/// `GET /api/campaigns/ID/characters/CID/sheet`: the sheet as TOML text.
pub async fn export_sheet(
    State(state): State<AppState>,
    Path((id, cid)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let seat = who(&state, &id, &headers).await?;
    let c = campaign::character(state.store().as_ref(), &id, &cid, &seat).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}\"", c.file.replace('"', "")),
            ),
        ],
        c.sheet,
    )
        .into_response())
}

/// The body of `POST .../advance`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdvanceRequest {
    /// The advancement command as typed.
    pub command: String,
}

/// `PUT /api/campaigns/ID/characters/CID/sheet` (the GM) with `{"sheet": TOML}`:
/// replace the sheet, recorded as an `edited` event.
pub async fn edit_sheet(
    State(state): State<AppState>,
    Path((id, cid)): Path<(String, String)>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<ValidateSheet>,
) -> Result<Json<campaign::AdvancedOut>, AppError> {
    let seat = who(&state, &id, &headers).await?;
    campaign::edit(state.store().as_ref(), &id, &cid, &seat, &body.sheet)
        .await
        .map(Json)
}

/// `POST /api/campaigns/ID/characters/CID/advance`.
pub async fn advance(
    State(state): State<AppState>,
    Path((id, cid)): Path<(String, String)>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<AdvanceRequest>,
) -> Result<Json<campaign::AdvancedOut>, AppError> {
    let seat = who(&state, &id, &headers).await?;
    campaign::advance(state.store().as_ref(), &id, &cid, &seat, &body.command)
        .await
        .map(Json)
}

/// `GET /api/campaigns/ID/encounters` (any campaign seat): the bundled
/// table files of the campaign's book and its earlier tables, what the GM
/// may open next ([`crate::encounters`]; issue 27, item 8).
pub async fn encounters(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<crate::encounters::Encounters>, AppError> {
    let seat = who(&state, &id, &headers).await?;
    // The campaign's book and tables: no character is read.
    let c = campaign::page(state.store().as_ref(), &id, &seat, None, 0).await?;
    crate::encounters::list(state.store().as_ref(), &c.summary.system, &c.tables)
        .await
        .map(Json)
}

/// `POST /api/campaigns/ID/tables`: the GM opens a table of the campaign's
/// characters (201).
pub async fn open_table(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<OpenTable>,
) -> Result<Response, AppError> {
    let seat = who(&state, &id, &headers).await?;
    let (created, table) = campaign::open_table(
        state.store().as_ref(),
        &id,
        &seat,
        &body,
        &state.settings().base_url,
        state.settings().max_tables,
        state.settings().quotas.open_tables_per_campaign,
    )
    .await?;
    tracing::info!(table = %created.table, campaign = %id, "campaign table opened");
    state.insert(&created.table, table);
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// `POST /api/tables/ID/end`: the GM ends a campaign table's encounter and
/// its lasting changes are written back (once).
pub async fn end_table(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<campaign::Ended>, AppError> {
    let authed = state.authenticate(&id, auth::bearer(&headers)).await?;
    if authed.role != Role::Gm {
        return Err(AppError::Forbidden("only the GM ends the encounter".into()));
    }
    end_now(&state, &id).await.map(Json)
}

/// End table `id`'s encounter with the table as this server holds it (caught
/// up with the store first).
///
/// # Errors
/// As [`campaign::end_encounter`].
pub async fn end_now(state: &AppState, id: &str) -> Result<campaign::Ended, AppError> {
    let (_slot, guard) = state.read(id).await?;
    let table = guard
        .as_ref()
        .ok_or_else(|| AppError::Internal("table not loaded".into()))?;
    let ended = campaign::end_encounter(state.store().as_ref(), id, table).await?;
    drop(guard);
    if !ended.already {
        state.ended(id);
    }
    Ok(ended)
}
