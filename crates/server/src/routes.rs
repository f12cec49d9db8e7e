//! The HTTP handlers (docs/API.md lists every one with its shapes).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use tracing::Span;

use tabula_engine::core::files::InMemoryFiles;
use tabula_engine::core::system::Seat;
use tabula_engine::session::seat_key;
use tabula_engine::{Accepted, AnyTable, CommandError, Dice};
use tabula_store::{LinePage, LineQuery, Role};

use crate::auth;
use crate::create::{self, CreateRequest, SeatLink};
use crate::error::{ApiJson, ApiQuery, AppError};
use crate::state::{AppState, Authed};
use crate::{
    MAX_COMMAND_SHEETS, MAX_CONFLICT_RETRIES, MAX_LOG_PAGE, MAX_ROLLED_VALUE_BYTES,
    MAX_ROLLED_VALUES, examples,
};

/// `GET /healthz`: 200 `{"status": "ok", "store": "sqlite"}` while the store
/// answers, else 503.
pub async fn healthz(State(state): State<AppState>) -> Result<Json<Value>, AppError> {
    match state.store().count_tables().await {
        Ok(_) => Ok(Json(
            json!({"status": "ok", "store": state.store().backend()}),
        )),
        Err(e) => {
            tracing::error!(error = %e, "health check: store unavailable");
            Err(AppError::Unavailable)
        }
    }
}

/// `GET /api/examples`: the bundled example files per system.
pub async fn list_examples() -> Json<Value> {
    Json(json!({"examples": examples::catalog()}))
}

/// `GET /api/systems`: every book's facts for a page (id, title, the
/// commands that end an encounter, the log's symbols, campaign settings):
/// `{"systems": [SystemFacts, ...]}` in the order of the seed files. The
/// pages read this and write no book's name (issue 26, item 3).
pub async fn list_systems() -> Json<Value> {
    let systems: Vec<_> = tabula_engine::SystemId::ALL
        .into_iter()
        .map(tabula_engine::SystemId::facts)
        .collect();
    Json(json!({ "systems": systems }))
}

/// `POST /api/tables`: create a table (201 with every seat's token and link).
pub async fn create_table(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<CreateRequest>,
) -> Result<Response, AppError> {
    check_create_token(&state, &headers)?;
    let (table, name) = create::prepare(&request)?;
    let created = create::register(
        state.store().as_ref(),
        &table,
        &name,
        &state.settings().base_url,
        state.settings().max_tables,
    )
    .await?;
    Span::current().record("table", created.table.as_str());
    tracing::info!(table = %created.table, system = %created.system, "table created");
    state.insert(&created.table, table);
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// `GET /api/tables`: the tables in this database, newest first, for the
/// lobby: `{"tables": [{"id", "system", "name", "created_ms", "seq", "seats"}]}`
/// (never a token). Open where creating tables is open; with a create token it
/// needs the same `Authorization: Bearer CREATE_TOKEN`.
///
/// # Errors
/// 401 without the create token when one is set; a generic 500 when the store
/// fails.
pub async fn list_tables(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Value>, AppError> {
    check_create_token(&state, &headers)?;
    let tables = state.store().list_tables().await.map_err(AppError::store)?;
    Ok(Json(json!({ "tables": tables })))
}

/// The create token's check, when the server has one.
pub(crate) fn check_create_token(state: &AppState, headers: &HeaderMap) -> Result<(), AppError> {
    if let Some(expected) = &state.settings().create_token_hash {
        let given = auth::bearer(headers).map(auth::hash_token);
        if !given.is_some_and(|g| auth::same_secret(&g, expected)) {
            return Err(AppError::Unauthorized(
                "creating and listing tables on this server needs its create token: send `Authorization: Bearer CREATE_TOKEN`",
            ));
        }
    }
    Ok(())
}

/// Who is asking: the bearer token's seat at table `id`.
async fn seat(state: &AppState, id: &str, headers: &HeaderMap) -> Result<Authed, AppError> {
    let span = Span::current();
    span.record("table", id);
    let authed = state.authenticate(id, auth::bearer(headers)).await?;
    span.record("seat", authed.key.as_str());
    Ok(authed)
}

fn table(guard: &Option<AnyTable>) -> Result<&AnyTable, AppError> {
    guard
        .as_ref()
        .ok_or_else(|| AppError::Internal("table not loaded".into()))
}

/// `?seat=NAME` of `GET /view`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewQuery {
    /// Whose view (the GM may ask for any seat's; a player only its own).
    #[serde(default)]
    pub seat: Option<String>,
}

/// `GET /api/tables/{id}/view`: the seat's view and sheets, the table's seq,
/// and the table's settings every seat may know: `dice` (`"players"` or
/// `"table"`, who may type dice and cards) and `dice_dialect` (`"d20"`,
/// `"roll20"` or `"foundry"`, whose meaning free dice notation has).
pub async fn view(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<ViewQuery>,
) -> Result<Json<Value>, AppError> {
    let who = seat(&state, &id, &headers).await?;
    let (_slot, guard) = state.read(&id).await?;
    let t = table(&guard)?;
    let whose = match &q.seat {
        Some(name) => t.resolve_seat(name).map_err(AppError::Command)?,
        None => who.seat.clone(),
    };
    let view = t.view(&who.seat, &whose).map_err(AppError::Command)?;
    // Issue 26, item 2: the sheets as the asking seat may see them, drawn by
    // the page's one renderer.
    let sheets = t.sheet_doc(&who.seat);
    Span::current().record("seq", t.seq());
    Ok(Json(json!({
        "table": id,
        "system": t.system().id(),
        "seq": t.seq(),
        "seat": who.key,
        "role": who.role,
        "of": seat_key(&whose),
        "view": view,
        "sheets": sheets,
        "dice": t.dice_setting().as_str(),
        "dice_dialect": t.dice_dialect().as_str(),
    })))
}

/// `GET /api/tables/{id}/legal`: what the seat may do now, with parameters.
pub async fn legal(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, AppError> {
    seat_answer(&state, &id, &headers, "commands", |t, seat| t.legal(seat)).await
}

/// The answer `{"seq": N, "seat": KEY, key: answer(table, seat)}` to the seat
/// whose token `headers` carries, read under the table's read lock.
///
/// # Errors
/// 401 for a missing or wrong token; a generic 500 when the table cannot load.
async fn seat_answer<T: serde::Serialize>(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    key: &str,
    answer: impl FnOnce(&AnyTable, &Seat) -> T,
) -> Result<Json<Value>, AppError> {
    let who = seat(state, id, headers).await?;
    let (_slot, guard) = state.read(id).await?;
    let t = table(&guard)?;
    let mut body = json!({ "seq": t.seq(), "seat": who.key });
    body[key] = json!(answer(t, &who.seat));
    Ok(Json(body))
}

/// `?after=SEQ` of the WebSocket.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AfterQuery {
    /// Send the seat the lines it missed after this seq first.
    #[serde(default)]
    pub after: Option<u64>,
}

/// `?after=SEQ&before=SEQ&limit=N` of `GET /log`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogQuery {
    /// Only lines with a seq above this; the page is then the oldest lines
    /// after it.
    #[serde(default)]
    pub after: Option<u64>,
    /// Only lines with a seq below this (scrolling back); without `after`, the
    /// page is the newest lines before it.
    #[serde(default)]
    pub before: Option<u64>,
    /// The most lines: 1 to [`MAX_LOG_PAGE`] (default [`MAX_LOG_PAGE`]).
    /// Given without `after`, the page is the newest lines.
    #[serde(default)]
    pub limit: Option<u64>,
}

/// `GET /api/tables/{id}/log[?after=SEQ][&before=SEQ][&limit=N]`: a page of
/// the log as the seat may see it, read from the lines stored with each row
/// (no replay; issue 28): `{"seq", "seat", "lines", "more"}`. With `after`
/// (or with no parameter) the oldest lines of the range and `more` when newer
/// ones remain; with `before` or `limit` alone the newest lines of the range
/// and `more` when older ones remain.
///
/// # Errors
/// 400 `bad-request` for a `limit` of 0 or over [`MAX_LOG_PAGE`].
pub async fn log(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<LogQuery>,
) -> Result<Json<Value>, AppError> {
    let limit = match q.limit {
        None => MAX_LOG_PAGE,
        Some(n) if n >= 1 && n <= u64::from(MAX_LOG_PAGE) => n as u32,
        Some(n) => {
            return Err(AppError::BadRequest(format!(
                "limit must be 1 to {MAX_LOG_PAGE} (the most lines one page of the log holds), not {n}"
            )));
        }
    };
    let who = seat(&state, &id, &headers).await?;
    // The table is loaded (its older rows' lines stored once) and its seq read;
    // the lines themselves come from the store.
    let seq = {
        let (_slot, guard) = state.read(&id).await?;
        table(&guard)?.seq()
    };
    let through = match q.before {
        Some(before) => seq.min(before.saturating_sub(1)),
        None => seq,
    };
    let query = LineQuery {
        after: q.after.unwrap_or(0),
        through,
        limit,
        newest: q.after.is_none() && (q.before.is_some() || q.limit.is_some()),
    };
    let page = if query.after >= query.through {
        LinePage {
            lines: Vec::new(),
            more: false,
        }
    } else {
        state
            .store()
            .log_lines(&id, &seat_key(&who.seat), query)
            .await
            .map_err(AppError::store)?
    };
    let lines: Vec<Value> = page.lines.into_iter().map(|l| l.line).collect();
    Ok(Json(json!({
        "seq": seq,
        "seat": who.key,
        "lines": lines,
        "more": page.more,
    })))
}

/// `GET /api/tables/{id}/odds`: the odds the system offers the seat now.
pub async fn odds(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, AppError> {
    seat_answer(&state, &id, &headers, "odds", |t, seat| t.odds(seat)).await
}

/// `GET /api/tables/{id}/status`: whose turn it is, in the book's words.
pub async fn status(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, AppError> {
    let who = seat(&state, &id, &headers).await?;
    let (_slot, guard) = state.read(&id).await?;
    let t = table(&guard)?;
    Ok(Json(json!({
        "table": id,
        "system": t.system().id(),
        "seq": t.seq(),
        "seat": who.key,
        "role": who.role,
        "turn": seat_key(&t.default_seat()),
        "finished": t.finished(),
        "status": t.status(&who.seat),
    })))
}

/// `GET /api/tables/{id}/seats`: every seat, its role and whether it has the
/// table open now on this server (`online`; never a token).
pub async fn seats(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, AppError> {
    let who = seat(&state, &id, &headers).await?;
    let records = state.store().seats(&id).await.map_err(AppError::store)?;
    let online = state.limiters().open_seats(&id);
    let seats: Vec<Value> = records
        .into_iter()
        .map(|r| {
            let here = online.contains(&r.seat);
            json!({"seat": r.seat, "role": r.role, "name": r.display_name, "online": here})
        })
        .collect();
    Ok(Json(json!({"seat": who.key, "seats": seats})))
}

/// The body of `POST /commands`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRequest {
    /// The command as a play line without the seat prefix
    /// (`init Cynthia lowest`); not with `command`.
    #[serde(default)]
    pub text: Option<String>,
    /// The command as the system's command JSON; not with `text`.
    #[serde(default)]
    pub command: Option<Value>,
    /// The seat's own dice or cards, in the order the command uses them
    /// (`["6", "2"]`, `["QH"]`); absent: the table's seeded roller. Only the
    /// rolls and draws of the seat's own characters take them (the GM's: the
    /// GM's NPCs and the Dealer); refused at a table with `dice = "table"`
    /// unless the GM sends them.
    #[serde(default)]
    pub rolled: Option<Vec<String>>,
    /// Refuse with 409 unless the table is at this seq.
    #[serde(default)]
    pub expect_seq: Option<u64>,
    /// Character sheet files sent with a `text` line, by the name the line
    /// uses (`{"mira.toml": "name = ..."}`): a GM's `add mira.toml [as NAME]
    /// [to SEAT]` brings that character in (issue 27, item 6). At most
    /// [`crate::MAX_COMMAND_SHEETS`]; read only while the line is read.
    #[serde(default)]
    pub sheets: Option<InMemoryFiles>,
}

/// `POST /api/tables/{id}/commands`: give a command as the token's seat.
pub async fn command(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<CommandRequest>,
) -> Result<Response, AppError> {
    let who = seat(&state, &id, &headers).await?;
    if let (Some(text), None) = (&body.text, &body.command)
        && let Some(answer) = driver(&state, &id, &who, text, body.expect_seq).await?
    {
        return Ok(answer);
    }
    if let Some(values) = &body.rolled
        && (values.len() > MAX_ROLLED_VALUES
            || values.iter().any(|v| v.len() > MAX_ROLLED_VALUE_BYTES))
    {
        return Err(AppError::BadRequest(format!(
            "`rolled` takes at most {MAX_ROLLED_VALUES} values of at most {MAX_ROLLED_VALUE_BYTES} bytes each"
        )));
    }
    if let Some(sheets) = &body.sheets
        && sheets.0.len() > MAX_COMMAND_SHEETS
    {
        return Err(AppError::BadRequest(format!(
            "`sheets` takes at most {MAX_COMMAND_SHEETS} character sheet files"
        )));
    }
    let accepted = apply(&state, &id, body.expect_seq, Some(&who.seat), |t| {
        submit(t, &who, &body)
    })
    .await?;
    end_if_finished(&state, &id).await;
    Ok(Json(accepted).into_response())
}

/// A command line that is the driver's, answered as `play` answers it
/// (issue 27, item 5; [`tabula_engine::play::driver_line`]): `help`/`?`,
/// `status`, `odds`, `sheet [NAME]`, `view [SEAT]` and `log` read the table
/// and answer `{"seq", "events": [], "driver": MESSAGE}` (MESSAGE as one line
/// of `--json play`); `undo` is the GM's undo. `None`: the line is a book
/// command, talk or a free roll.
async fn driver(
    state: &AppState,
    id: &str,
    who: &Authed,
    text: &str,
    expect_seq: Option<u64>,
) -> Result<Option<Response>, AppError> {
    use tabula_engine::play::{DriverCommand, DriverError, driver_answer, driver_line};
    // Most lines are the book's: tell them apart on the table as held, with
    // no store round trip (issue 28); a driver line then reads the table
    // brought up to date.
    {
        let (_slot, guard) = state.read_cached(id).await?;
        if matches!(driver_line(table(&guard)?, &who.seat, text), Ok(None)) {
            return Ok(None);
        }
    }
    let (command, seq) = {
        let (_slot, guard) = state.read(id).await?;
        let t = table(&guard)?;
        let (command, words) = match driver_line(t, &who.seat, text) {
            Ok(Some(x)) => x,
            Ok(None) => return Ok(None),
            Err(DriverError::Grammar(e)) => return Err(AppError::Command(CommandError::Parse(e))),
            Err(e @ DriverError::Unknown { .. }) => {
                return Err(AppError::BadRequest(e.to_string()));
            }
        };
        let seq = t.seq();
        match driver_answer(t, &who.seat, command, &words).filter(|_| command != DriverCommand::Log)
        {
            Some(answer) => {
                let message = answer.map_err(AppError::Command)?;
                return Ok(Some(
                    Json(json!({"seq": t.seq(), "events": [], "driver": message})).into_response(),
                ));
            }
            None => (command, seq),
        }
    };
    match command {
        // `log` reads the seat's stored lines (the newest page), as
        // `GET /log?limit=N` does: no replay of the journal (issue 28).
        DriverCommand::Log => {
            let query = tabula_store::LineQuery {
                after: 0,
                through: seq,
                limit: tabula_store::MAX_LINES_PAGE,
                newest: true,
            };
            let page = state
                .store()
                .log_lines(id, &seat_key(&who.seat), query)
                .await
                .map_err(AppError::store)?;
            let lines: Vec<Value> = page.lines.into_iter().map(|l| l.line).collect();
            let message = json!({"type": "log", "seat": who.seat.to_string(), "lines": lines, "more": page.more});
            Ok(Some(
                Json(json!({"seq": seq, "events": [], "driver": message})).into_response(),
            ))
        }
        DriverCommand::Undo => {
            if who.role != Role::Gm {
                return Err(AppError::Command(CommandError::GmOnly {
                    what: "undo".into(),
                }));
            }
            let accepted = apply(state, id, expect_seq, None, |t| {
                t.undo(&who.seat).map_err(AppError::Command)
            })
            .await?;
            Ok(Some(Json(accepted).into_response()))
        }
        DriverCommand::Auto => Err(AppError::BadRequest(
            "`auto` is the terminal's; on the page, the GM's \"let the policy play\" buttons play a participant's step".into(),
        )),
        _ => Err(AppError::BadRequest(
            "`quit` is the terminal's; close the page to leave the table".into(),
        )),
    }
}

/// When the command just given finished a campaign table's encounter, write
/// its lasting changes back (`POST /end` does the same on the GM's word).
/// Failures are logged, never the command's: the GM can end it again.
async fn end_if_finished(state: &AppState, id: &str) {
    let finished = match state.read_cached(id).await {
        Ok((_, guard)) => guard.as_ref().is_some_and(AnyTable::finished),
        Err(_) => false,
    };
    if !finished {
        return;
    }
    match crate::character_routes::end_now(state, id).await {
        Ok(ended) if !ended.already => {
            tracing::info!(
                table = id,
                characters = ended.written.len(),
                "encounter finished: written back"
            )
        }
        Ok(_) | Err(AppError::NotCampaign(_)) => {}
        Err(e) => tracing::warn!(table = id, error = %e, "encounter finished: write-back failed"),
    }
}

/// `GET /api/tables/{id}/awaiting`: who the table waits on now, by seat and
/// participant (public: every seat sees whose turn it is), and every
/// participant's name.
pub async fn awaiting(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, AppError> {
    seat_answer(&state, &id, &headers, "awaiting", |t, _| {
        t.awaiting()
            .into_iter()
            .map(|a| json!({ "seat": seat_key(&a.seat), "participant": a.participant }))
            .collect::<Vec<_>>()
    })
    .await
}

/// The body of `POST /policy`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyRequest {
    /// The participant the policy plays (its name in the table, any case,
    /// an unambiguous start).
    pub participant: String,
    /// Refuse with 409 unless the table is at this seq.
    #[serde(default)]
    pub expect_seq: Option<u64>,
}

/// `POST /api/tables/{id}/policy`: the system's policy gives the named
/// participant's command now (the autopilot, one step at a time), as the
/// token's seat: the GM for an NPC, a player for their own character.
pub async fn policy(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<PolicyRequest>,
) -> Result<Json<Accepted>, AppError> {
    let who = seat(&state, &id, &headers).await?;
    if body.participant.len() > tabula_engine::session::MAX_COMMAND_BYTES {
        return Err(AppError::BadRequest("`participant` is too long".into()));
    }
    let accepted = apply(&state, &id, body.expect_seq, None, |t| {
        t.policy_step(&who.seat, &body.participant, Dice::Table)
            .map(|(_, accepted)| accepted)
            .map_err(AppError::Command)
    })
    .await?;
    end_if_finished(&state, &id).await;
    Ok(Json(accepted))
}

/// Decide with `decide` under the table's write lock and append what it did
/// to the store. A stale `expect_seq` or a refusal is answered only after the
/// table is checked against the store (another server may have moved it: then
/// it is caught up and decided again, once). When the append loses the race to
/// another server (the store's seq check), the table is caught up and the
/// command decided again, at most [`MAX_CONFLICT_RETRIES`] times: the dice come
/// from the roller state the other server left, so the table's dice stay one
/// stream.
///
/// `seat`: the seat giving a command (`None` for an undo or a policy step).
/// Its `expect_seq` may be behind only by rows other seats gave, none an undo,
/// at most 256 rows: then the command was sent without knowing of
/// moves that were not its seat's, and it is decided on the table as it is
/// now; accepted, it applies (two seats answering the same step at once both
/// land); refused by the rules, it is answered 409 `stale` as before, since
/// what the seat saw has changed (issue 27, bug 14; docs/API.md).
async fn apply(
    state: &AppState,
    id: &str,
    expect_seq: Option<u64>,
    seat: Option<&Seat>,
    mut decide: impl FnMut(&mut AnyTable) -> Result<Accepted, AppError> + Send,
) -> Result<Accepted, AppError> {
    /// The most rows of other seats a stale `expect_seq` may be behind by.
    const MAX_OTHERS_ROWS: u64 = 256;
    let (slot, mut guard) = state.write(id).await?;
    let mut checked = false;
    let mut whole = false;
    let mut conflicts = 0;
    loop {
        let t = guard
            .as_mut()
            .ok_or_else(|| AppError::Internal("table not loaded".into()))?;
        let before = t.seq();
        let outcome = match expect_seq {
            Some(expected) if expected != before => {
                let others_only = seat.is_some_and(|seat| {
                    let key = seat_key(seat);
                    expected < before
                        && before - expected <= MAX_OTHERS_ROWS
                        // Rows a table loaded from its snapshot does not hold
                        // are not looked up: stale, as for a longer gap.
                        && expected + 1 >= t.first_held_seq()
                        && t.raw_rows_after(expected)
                            .iter()
                            .all(|r| r.seat != key && r.entry["kind"] != "undo")
                });
                if others_only {
                    decide(t).map_err(|e| match e {
                        AppError::Command(_) => AppError::Stale { current: before },
                        e => e,
                    })
                } else {
                    Err(AppError::Stale { current: before })
                }
            }
            _ => decide(t),
        };
        match outcome {
            Ok(accepted) => match state.persist(&slot, &mut guard, id, before).await {
                Ok(seq) => {
                    Span::current().record("seq", seq);
                    return Ok(accepted);
                }
                Err(AppError::Stale { current }) if conflicts < MAX_CONFLICT_RETRIES => {
                    conflicts += 1;
                    checked = true;
                    tracing::debug!(
                        table = id,
                        current,
                        conflicts,
                        "lost an append race; deciding again"
                    );
                }
                Err(e) => return Err(e),
            },
            Err(AppError::Command(CommandError::OlderRowsNeeded)) if !whole => {
                // An undo back past the snapshot the table was loaded from:
                // load the whole log, once, and decide again (issue 28, item 1).
                whole = true;
                *guard = Some(crate::state::load_whole(state.store().as_ref(), id).await?);
            }
            Err(e @ (AppError::Stale { .. } | AppError::Command(_))) if !checked => {
                checked = true;
                if !state.catch_up(&slot, &mut guard, id).await? {
                    return Err(e);
                }
            }
            Err(e) => return Err(e),
        }
    }
}

/// Let the engine decide `body`. `rolled` values are the seat's own: they
/// go only to its own characters' rolls and draws, and the log marks them
/// typed ([`Dice::Typed`]; issue 28, items 2, 3 and 6).
fn submit(t: &mut AnyTable, who: &Authed, body: &CommandRequest) -> Result<Accepted, AppError> {
    let dice = match body.rolled.as_deref() {
        Some(values) => Dice::Typed(values),
        None => Dice::Table,
    };
    match (&body.text, &body.command) {
        (Some(text), None) => match &body.sheets {
            Some(sheets) => t.submit_text_with(&who.seat, text, dice, sheets),
            None => t.submit_text(&who.seat, text, dice),
        },
        (None, Some(command)) => t.submit_json(&who.seat, command, dice),
        _ => {
            return Err(AppError::BadRequest(
                "give exactly one of `text` (a play line without the seat, e.g. \"draw\") and `command` (the system's command JSON)"
                    .into(),
            ));
        }
    }
    .map_err(AppError::Command)
}

/// The body of `POST /undo` (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// Refuse with 409 unless the table is at this seq.
    #[serde(default)]
    pub expect_seq: Option<u64>,
}

/// A JSON body that may be empty (no body, or no bytes): then `T::default()`.
#[derive(Debug, Default)]
pub struct OptionalJson<T>(pub T);

impl<S, T> FromRequest<S> for OptionalJson<T>
where
    T: serde::de::DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                AppError::BodyTooLarge {
                    max: crate::MAX_BODY_BYTES,
                }
            } else {
                AppError::BadRequest(format!("the body could not be read: {}", e.body_text()))
            }
        })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        serde_json::from_slice(&bytes)
            .map(OptionalJson)
            .map_err(|e| {
                AppError::BadJson(format!("the body is not the JSON this endpoint takes: {e}"))
            })
    }
}

/// `POST /api/tables/{id}/undo`: take back the last command (GM only).
pub async fn undo(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    OptionalJson(body): OptionalJson<UndoRequest>,
) -> Result<Json<Accepted>, AppError> {
    let who = seat(&state, &id, &headers).await?;
    if who.role != Role::Gm {
        return Err(AppError::Command(CommandError::GmOnly {
            what: "undo".into(),
        }));
    }
    apply(&state, &id, body.expect_seq, None, |t| {
        t.undo(&who.seat).map_err(AppError::Command)
    })
    .await
    .map(Json)
}

/// `POST /api/tables/{id}/seats/{seat}/reissue`: a new token for a seat (GM
/// only); the old one stops working at once. At a table a campaign opened the
/// new token is the seat's campaign token (its link the campaign's), as
/// `POST /api/campaigns/ID/seats/SEAT/reissue` gives.
pub async fn reissue(
    State(state): State<AppState>,
    Path((id, name)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<SeatLink>, AppError> {
    let who = seat(&state, &id, &headers).await?;
    if who.role != Role::Gm {
        return Err(AppError::Command(CommandError::GmOnly {
            what: "reissue a seat's token".into(),
        }));
    }
    let target = {
        let (_slot, guard) = state.read(&id).await?;
        let t = table(&guard)?;
        t.resolve_seat(&name)
            .map_err(|e| AppError::NotFound(e.to_string()))?
    };
    let key = seat_key(&target);
    // A seat of a campaign's table holds its campaign seat's token: a new link
    // for it is a new campaign link, which the campaign and every table it
    // opened take at once; a table-only token would lock the player out of the
    // campaign's way to the table (issue 27, bug 2).
    let campaign = state
        .store()
        .load_table_tail(&id)
        .await
        .map_err(AppError::store)?
        .and_then(|t| t.summary.campaign);
    if let Some(campaign) = campaign {
        return crate::character_routes::reissue_and_tell(&state, &campaign, &headers, &key)
            .await
            .map(Json);
    }
    let token = auth::new_token()?;
    let found = state
        .store()
        .reissue_token(&id, &key, &auth::hash_token(&token))
        .await
        .map_err(AppError::store)?;
    if !found {
        return Err(AppError::NotFound(format!(
            "{name:?} is no seat at this table"
        )));
    }
    state.reissued(&id, &key);
    tracing::info!(table = %id, seat = %key, "token reissued");
    Ok(Json(SeatLink {
        link: create::link(&state.settings().base_url, &id, &token),
        role: match target {
            Seat::Gm => Role::Gm,
            Seat::Player(_) => Role::Player,
        },
        seat: key,
        token,
    }))
}

/// `GET /t/{id}`: the table's page. The token stays in the URL fragment; the
/// page reads it there and sends it as the bearer header.
pub async fn page(Path(_id): Path<String>) -> Html<&'static str> {
    Html(include_str!("page.html"))
}

/// Any other route: 404 JSON.
pub async fn not_found() -> AppError {
    AppError::NotFound("no such route; see docs/API.md".into())
}

/// The query of `GET /record`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordQuery {
    /// `md` (the default) or `html`.
    #[serde(default)]
    pub format: Option<String>,
}

/// `GET /api/tables/{id}/record?format=md|html`: the record of the night as
/// the asking seat may see it ([`tabula_engine::record`]; issue 27, item 7):
/// every log line of that seat, talk and rolls with who made them. 400 for
/// another format.
pub async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<RecordQuery>,
) -> Result<Response, AppError> {
    use tabula_engine::record::{RecordFormat, record_of_lines};
    let format = match q.format.as_deref() {
        None => RecordFormat::Markdown,
        Some(f) => RecordFormat::parse(f).ok_or_else(|| {
            AppError::BadRequest(format!("`format` is `md` or `html`, not {f:?}"))
        })?,
    };
    let who = seat(&state, &id, &headers).await?;
    let (_slot, guard) = state.read(&id).await?;
    let t = table(&guard)?;
    // The seat's stored lines, a page at a time: no replay (issue 28).
    let stored = crate::ws::stored_lines(&state, &id, &seat_key(&who.seat), 0, t.seq()).await;
    let lines: Vec<tabula_engine::LogLine> = stored
        .into_iter()
        .map(serde_json::from_value)
        .collect::<Result<_, _>>()
        .map_err(|e| AppError::Internal(format!("a stored log line: {e}")))?;
    let text = record_of_lines(t, &who.seat, &lines, &format!("Table {id}"), format);
    let ext = if format == RecordFormat::Html {
        "html"
    } else {
        "md"
    };
    Ok((
        [
            (
                axum::http::header::CONTENT_TYPE,
                format.content_type().to_string(),
            ),
            (
                axum::http::header::CONTENT_DISPOSITION,
                format!(
                    "inline; filename=\"tabula-{id}-{}.{ext}\"",
                    file_safe(&who.key)
                ),
            ),
        ],
        text,
    )
        .into_response())
}

/// `name` with only ASCII letters, digits and `-` kept, for a file name.
fn file_safe(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect()
}
