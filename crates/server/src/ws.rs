//! `GET /api/tables/{id}/ws`: follow a table live as one seat.
//!
//! The token comes as the bearer header (checked before the upgrade: 401) or
//! as the first message `{"token": "..."}` within [`crate::WS_AUTH_TIMEOUT`].
//! The server then sends, as JSON text messages:
//!
//! - `{"type": "hello", "table", "seat", "role", "seq", "view", "sheets"}` once (`sheets`: the seat's SheetDoc);
//! - with `?after=SEQ`: `{"type": "log", "seq", "lines"}`, the lines after
//!   `SEQ` the seat missed, read from the lines stored with the rows (no
//!   replay) and split over several such messages when they are many, each
//!   under [`WS_MESSAGE_TARGET_BYTES`];
//! - after every accepted command or undo: `{"type": "update", "seq", "view", "sheets",
//!   "lines"}`, the seat's new view and only its new lines (from the table's
//!   window of recent lines, or the store for a follower further behind; many
//!   lines come first as `log` messages, then the update with none);
//! - `{"type": "revoked"}` and a close when the GM reissues this seat's token;
//! - `{"type": "deleted", "message"}` and a close (1000, `table deleted`) when
//!   the GM deletes the table or it expires ([`crate::deletion`]);
//! - `{"type": "error", "error", "message"}` and a close on a bad first
//!   message or a failure.
//!
//! The table's broadcast channel carries only [`Signal`]s (a seq, a seat key);
//! each connection reads its own seat's view and lines under the table's
//! read lock, so another seat's secret never passes through a shared message.
//! A seat's view and sheets are made once per state for all of that seat's
//! connections (`Slot::seat_texts`), never given to another
//! seat's.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use tabula_engine::session::seat_key;
use tabula_store::LineQuery;

use crate::error::{ApiQuery, AppError, UNAUTHORIZED_MESSAGE};
use crate::listen::ConnectionPermit;
use crate::patch::{self, Out};
use crate::routes::AfterQuery;
use crate::state::{AppState, Authed, Part, SeatTexts, Signal};
use crate::{
    MAX_WS_MESSAGE_BYTES, WS_AUTH_TIMEOUT, WS_LINES_PAGE, WS_MAX_WRITE_BUFFER_BYTES,
    WS_MESSAGE_TARGET_BYTES, WS_READ_BUFFER_BYTES, WS_SEND_TIMEOUT, auth,
};

/// `GET /api/tables/{id}/ws[?after=SEQ]`.
pub async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<AfterQuery>,
    permit: Option<Extension<ConnectionPermit>>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    ws: WebSocketUpgrade,
) -> Result<Response, AppError> {
    let address = peer.map(|Extension(ConnectInfo(a))| a.ip());
    tracing::Span::current().record("table", id.as_str());
    let authed = match auth::bearer(&headers) {
        Some(token) => Some((
            state.authenticate(&id, Some(token)).await?,
            auth::hash_token(token),
        )),
        None => None,
    };
    Ok(ws
        .max_message_size(MAX_WS_MESSAGE_BYTES)
        .max_frame_size(MAX_WS_MESSAGE_BYTES)
        .read_buffer_size(WS_READ_BUFFER_BYTES)
        .write_buffer_size(0)
        .max_write_buffer_size(WS_MAX_WRITE_BUFFER_BYTES)
        .on_upgrade(move |socket| async move {
            // Counted among the server's connections until it closes.
            let _permit = permit;
            follow(state, socket, id, authed, q.after, address).await;
        }))
}

#[derive(Deserialize)]
struct Hello {
    token: String,
}

/// Send one message; false when the connection is gone or the client did not
/// take it within [`WS_SEND_TIMEOUT`] (a client that does not read is dropped,
/// never buffered for without bound).
async fn send(socket: &mut WebSocket, v: &Value) -> bool {
    send_text(socket, v.to_string()).await
}

/// [`send`] of a message already written as JSON text.
async fn send_text(socket: &mut WebSocket, text: String) -> bool {
    let message = Message::Text(Utf8Bytes::from(text));
    matches!(
        tokio::time::timeout(WS_SEND_TIMEOUT, socket.send(message)).await,
        Ok(Ok(()))
    )
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }));
    let _ = tokio::time::timeout(WS_SEND_TIMEOUT, socket.send(frame)).await;
}

async fn refuse(socket: &mut WebSocket, e: &AppError) {
    let mut body = e.body();
    if let Value::Object(m) = &mut body {
        m.insert("type".into(), json!("error"));
    }
    send(socket, &body).await;
    close(socket, close_code::POLICY, "refused").await;
}

/// The first message's token, within the time limit: its seat and the
/// token's hash.
async fn first_message_token(
    state: &AppState,
    socket: &mut WebSocket,
    id: &str,
) -> Result<(Authed, String), AppError> {
    let unauthorized = AppError::Unauthorized(UNAUTHORIZED_MESSAGE);
    let msg = tokio::time::timeout(WS_AUTH_TIMEOUT, socket.recv())
        .await
        .map_err(|_| unauthorized)?;
    let text = match msg {
        Some(Ok(Message::Text(t))) => t,
        _ => return Err(AppError::Unauthorized(UNAUTHORIZED_MESSAGE)),
    };
    let hello: Hello = serde_json::from_str(text.as_str())
        .map_err(|_| AppError::Unauthorized(UNAUTHORIZED_MESSAGE))?;
    let authed = state.authenticate(id, Some(&hello.token)).await?;
    Ok((authed, auth::hash_token(&hello.token)))
}

async fn follow(
    state: AppState,
    mut socket: WebSocket,
    id: String,
    authed: Option<(Authed, String)>,
    after: Option<u64>,
    address: Option<IpAddr>,
) {
    let (who, token_hash) = match authed {
        Some(a) => a,
        None => match first_message_token(&state, &mut socket, &id).await {
            Ok(a) => a,
            Err(e) => {
                // Issue 28: a wrong first-message token counts as one.
                if matches!(e, AppError::Unauthorized(_))
                    && let Some(a) = address
                {
                    state.limiters().wrong_token(a);
                }
                return refuse(&mut socket, &e).await;
            }
        },
    };
    // Issue 28: at most `sockets_per_seat` open per seat.
    let place = match state.limiters().hold_socket(&id, &who.key) {
        Ok(p) => p,
        Err(e) => return refuse(&mut socket, &e).await,
    };
    let mut shutdown = state.shutdown_signal();
    let slot = match state.slot(&id) {
        Ok(s) => s,
        Err(e) => return refuse(&mut socket, &e).await,
    };
    // Who has the table open: everyone is told when this seat comes (its
    // first socket) and when it goes (its last), whichever way it closes.
    if place.first() {
        let _ = slot.tx.send(Signal::Presence);
    }
    let _presence = Presence {
        slot: Arc::clone(&slot),
        place: Some(place),
        state: state.clone(),
        table: id.clone(),
        seat: who.key.clone(),
    };
    let key = seat_key(&who.seat);
    // Subscribe before reading the table, so no move falls between the two.
    let mut rx = slot.subscribe();
    let first = match state.read(&id).await {
        Ok((slot, guard)) => guard.as_ref().map(|t| {
            let seq = t.seq();
            let mut sent = Sent::default();
            let (view, sheets) = sent.take(&slot.seat_texts(t, &who.seat, &key));
            let head = json!({
                "type": "hello",
                "table": id,
                "seat": who.key,
                "role": who.role,
                "seq": seq,
                "online": state.limiters().open_seats(&id),
            });
            (
                seq,
                (with_parts(head, view.as_ref(), sheets.as_ref()), sent),
            )
        }),
        Err(e) => return refuse(&mut socket, &e).await,
    };
    let Some((mut last, (hello, mut sent))) = first else {
        return refuse(&mut socket, &AppError::Internal("table not loaded".into())).await;
    };
    tracing::info!(table = %id, seat = %who.key, seq = last, "websocket follows");
    if !send_text(&mut socket, hello).await {
        return;
    }
    // The lines missed, read from the store a page at a time and sent in
    // messages under the size the connection takes (issue 28).
    if let Some(after) = after
        && !send_stored_lines(&state, &mut socket, &id, &key, after, last, true).await
    {
        return;
    }
    if *shutdown.borrow() {
        return close(&mut socket, close_code::AWAY, "server shutting down").await;
    }
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.reset();
    let mut told_ended = false;
    loop {
        tokio::select! {
            _ = ping.tick() => {
                let ping = socket.send(Message::Ping(Default::default()));
                if !matches!(tokio::time::timeout(WS_SEND_TIMEOUT, ping).await, Ok(Ok(()))) {
                    return;
                }
            }
            signal = rx.recv() => match signal {
                Ok(Signal::Advanced(_)) | Err(RecvError::Lagged(_)) => {
                    // The new seq, the view and (from the table's window of
                    // recent lines) the new lines, under the read lock; a
                    // follower further behind reads its lines from the store.
                    let update = match state.read_cached(&id).await {
                        Ok((slot, guard)) => guard.as_ref().and_then(|t| {
                            let seq = t.seq();
                            (seq > last).then(|| {
                                // Written straight to text once per seat
                                // and seq for all its sockets, and sent
                                // only when it changed since this socket's
                                // last message (issue 28).
                                let parts = sent.take(&slot.seat_texts(t, &who.seat, &key));
                                let lines = slot.recent().texts(&key, last, seq);
                                (seq, parts, lines)
                            })
                        }),
                        Err(e) => return refuse(&mut socket, &e).await,
                    };
                    if let Some((seq, view, lines)) = update {
                        let lines = match lines {
                            Some(lines) => lines,
                            // Rows another server wrote, or more than the
                            // window holds: from the store, in one update
                            // when they fit, else split under the cap.
                            None => stored_lines(&state, &id, &key, last, seq)
                                .await
                                .iter()
                                .map(Value::to_string)
                                .collect(),
                        };
                        last = seq;
                        if !send_update(&mut socket, seq, view, lines).await {
                            return;
                        }
                    }
                }
                // A reissue of this seat (here or, through the store's feed,
                // on another server): close unless this socket's token is the
                // new one (it reconnected with it before the notice came).
                Ok(Signal::Reissued(key))
                    if key == who.key
                        && !matches!(state.store().seat_for_token(&id, &token_hash).await, Ok(Some(_))) =>
                {
                    send(&mut socket, &json!({"type": "revoked", "message": "the GM reissued this seat's token; this link no longer works"})).await;
                    return close(&mut socket, close_code::POLICY, "token reissued").await;
                }
                Ok(Signal::Reissued(_)) => {}
                // Once, though a PostgreSQL server hears its own ending again
                // through the store's feed.
                Ok(Signal::Ended) if !told_ended => {
                    told_ended = true;
                    if !send(&mut socket, &json!({"type": "ended", "message": ENDED_MESSAGE})).await {
                        return;
                    }
                }
                Ok(Signal::Ended) => {}
                // The table is gone (its GM deleted it, or it expired): say so
                // and close; a reconnect finds no table.
                Ok(Signal::Deleted(message)) => {
                    send(&mut socket, &json!({"type": "deleted", "message": message})).await;
                    return close(&mut socket, close_code::NORMAL, "table deleted").await;
                }
                Ok(Signal::Presence) => {
                    let online = state.limiters().open_seats(&id);
                    if !send(&mut socket, &json!({"type": "presence", "online": online})).await {
                        return;
                    }
                }
                Err(RecvError::Closed) => return close(&mut socket, close_code::AWAY, "table closed").await,
            },
            msg = socket.recv() => match msg {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                // Pings are answered by the library; anything else is ignored.
                Some(Ok(_)) => {}
            },
            _ = shutdown.changed() => {
                return close(&mut socket, close_code::AWAY, "server shutting down").await;
            }
        }
    }
}

/// Send `{"type": "log", "seq": through, "lines"}` messages holding seat
/// `key`'s stored lines with `after < seq <= through`, read from the store
/// [`WS_LINES_PAGE`] at a time, each message under
/// [`WS_MESSAGE_TARGET_BYTES`] (a line larger than that goes alone). With
/// `always`, one message is sent even when there is no line (the answer to
/// `?after=SEQ`). False when the connection is gone; a store failure is
/// logged and ends the catch-up (the page can fetch `GET /log`).
async fn send_stored_lines(
    state: &AppState,
    socket: &mut WebSocket,
    id: &str,
    key: &str,
    after: u64,
    through: u64,
    always: bool,
) -> bool {
    let mut from = after;
    let mut sent = false;
    // Every page moves `from` past a line, so this ends; the bound is a guard.
    for _ in 0..=through.saturating_sub(after) {
        let Some((lines, more)) = stored_page(state, id, key, &mut from, through).await else {
            break;
        };
        for chunk in split_lines(lines) {
            if !send_text(socket, log_message(through, &chunk)).await {
                return false;
            }
            sent = true;
        }
        if !more {
            break;
        }
    }
    if always && !sent {
        return send_text(socket, log_message(through, &[])).await;
    }
    true
}

/// Seat `key`'s stored lines of table `id` after `after` through `through`,
/// read a page at a time (bounded by the rows between them); what was read
/// before a store error (which is logged).
pub(crate) async fn stored_lines(
    state: &AppState,
    id: &str,
    key: &str,
    after: u64,
    through: u64,
) -> Vec<Value> {
    let mut out = Vec::new();
    let mut from = after;
    for _ in 0..=through.saturating_sub(after) {
        let Some((lines, more)) = stored_page(state, id, key, &mut from, through).await else {
            break;
        };
        out.extend(lines);
        if !more {
            break;
        }
    }
    out
}

/// One page ([`WS_LINES_PAGE`]) of seat `key`'s stored lines of table `id`
/// after `*from` through `through`, and whether more follow; `*from` moves
/// to the page's last seq. `None` when there is nothing (more) to read or
/// the store failed (logged).
async fn stored_page(
    state: &AppState,
    id: &str,
    key: &str,
    from: &mut u64,
    through: u64,
) -> Option<(Vec<Value>, bool)> {
    if *from >= through {
        return None;
    }
    let query = LineQuery {
        after: *from,
        through,
        limit: WS_LINES_PAGE,
        newest: false,
    };
    let page = match state.store().log_lines(id, key, query).await {
        Ok(page) => page,
        Err(e) => {
            tracing::warn!(table = id, error = %e, "reading a follower's lines");
            return None;
        }
    };
    *from = page.lines.last()?.seq;
    Some((page.lines.into_iter().map(|l| l.line).collect(), page.more))
}

/// `{"type": "log", "seq", "lines"}` as text.
fn log_message(seq: u64, lines: &[String]) -> String {
    format!(
        "{{\"type\":\"log\",\"seq\":{seq},\"lines\":[{}]}}",
        lines.join(",")
    )
}

/// Lines as JSON texts, in groups whose texts together stay under
/// [`WS_MESSAGE_TARGET_BYTES`] (less room for the message around them); a
/// line larger than that is a group of its own.
fn split_lines(lines: Vec<Value>) -> Vec<Vec<String>> {
    split_texts(lines.iter().map(Value::to_string).collect())
}

/// [`split_lines`] of lines already written as JSON texts.
fn split_texts(lines: Vec<String>) -> Vec<Vec<String>> {
    const ROOM: usize = WS_MESSAGE_TARGET_BYTES - 1024;
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut size = 0usize;
    for text in lines {
        if !current.is_empty() && size + text.len() + 1 > ROOM {
            groups.push(std::mem::take(&mut current));
            size = 0;
        }
        size += text.len() + 1;
        current.push(text);
    }
    if !current.is_empty() {
        groups.push(current);
    }
    groups
}

/// What one socket was last sent of its seat's view and sheets: the shape
/// of each text (its text and its pieces, [`crate::patch`]), so a message
/// carries each only when it changed since, and then only the pieces that
/// changed when that is smaller (issue 28: an update sends what changed; the
/// socket keeps two pointers to shapes, with their texts, shared with its
/// seat's other sockets; the texts and shapes are made once per seat and seq,
/// `Slot::seat_texts`).
#[derive(Debug, Default)]
struct Sent {
    view: patch::Last,
    sheets: patch::Last,
}

impl Sent {
    /// What to send of `view`: the whole view or a patch when it differs
    /// from the view last sent (remembered), else `None`.
    fn view_if_changed(&mut self, view: Option<&Part>) -> Option<Out> {
        patch::take(&mut self.view, view)
    }

    /// What to send of `sheets`: the whole sheets or a patch when they
    /// differ from the sheets last sent (remembered), else `None`.
    fn sheets_if_changed(&mut self, sheets: Option<&Part>) -> Option<Out> {
        patch::take(&mut self.sheets, sheets)
    }

    /// What to send of the view and sheets of `texts`, each when it changed
    /// since this socket last sent it.
    fn take(&mut self, texts: &SeatTexts) -> (Option<Out>, Option<Out>) {
        (
            self.view_if_changed(texts.view.as_ref()),
            self.sheets_if_changed(texts.sheets.as_ref()),
        )
    }
}

/// The JSON object `head` with `"view"` and `"sheets"` (or their
/// `_patch`es) added when given, as text.
fn with_parts(head: Value, view: Option<&Out>, sheets: Option<&Out>) -> String {
    let mut text = head.to_string();
    text.pop();
    close_with_parts(text, view, sheets)
}

/// `text`, a JSON object missing its closing brace, with `"view"` and
/// `"sheets"` (or `"view_patch"` and `"sheets_patch"`, [`crate::patch`])
/// added when given, and closed.
fn close_with_parts(mut text: String, view: Option<&Out>, sheets: Option<&Out>) -> String {
    for (key, part) in [("view", view), ("sheets", sheets)] {
        if let Some(part) = part {
            text.push_str(",\"");
            text.push_str(&part.field(key));
            text.push_str("\":");
            text.push_str(part.text());
        }
    }
    text.push('}');
    text
}

/// Send `{"type": "update", "seq", "view"?, "sheets"?, "lines"}`
/// (`view_sheets`: the seat's view and its
/// [`tabula_engine::core::sheet::SheetDoc`] as JSON texts, each only when it
/// changed since this socket's last message, and then as `view_patch` /
/// `sheets_patch` when only some pieces changed ([`crate::patch`]): the
/// page keeps what it has): in
/// one message when it fits under [`WS_MESSAGE_TARGET_BYTES`], else the lines
/// first as `log` messages and then the update without them. False when the
/// connection is gone.
async fn send_update(
    socket: &mut WebSocket,
    seq: u64,
    view_sheets: (Option<Out>, Option<Out>),
    lines: Vec<String>,
) -> bool {
    let (view, sheets) = view_sheets;
    let (view, sheets) = (view.as_ref(), sheets.as_ref());
    let whole = update_message(seq, &lines, view, sheets);
    if whole.len() <= WS_MESSAGE_TARGET_BYTES {
        return send_text(socket, whole).await;
    }
    for chunk in split_texts(lines) {
        if !send_text(socket, log_message(seq, &chunk)).await {
            return false;
        }
    }
    send_text(socket, update_message(seq, &[], view, sheets)).await
}

/// `{"type": "update", "seq", "lines", "view"?, "sheets"?}` as text, from
/// lines, view and sheets already written as JSON texts.
fn update_message(seq: u64, lines: &[String], view: Option<&Out>, sheets: Option<&Out>) -> String {
    let size = lines.iter().map(|l| l.len() + 1).sum::<usize>()
        + view.map_or(0, |v| v.text().len())
        + sheets.map_or(0, |s| s.text().len())
        + 64;
    let mut text = String::with_capacity(size);
    text.push_str("{\"type\":\"update\",\"seq\":");
    text.push_str(&seq.to_string());
    text.push_str(",\"lines\":[");
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(line);
    }
    text.push(']');
    close_with_parts(text, view, sheets)
}

/// What a table's pages are told when the GM ends its encounter.
pub const ENDED_MESSAGE: &str = "The GM ended this encounter: its lasting changes were written back to the campaign, and the table takes no more commands.";

/// How long a quiet WebSocket may go before the server pings it (keeps
/// proxies from dropping an idle table).
pub const PING_EVERY: Duration = Duration::from_secs(30);

/// A follower's place at the table: when its socket closes the place is
/// given up, and if that was the seat's last socket the table's followers
/// are told who has it open now.
struct Presence {
    slot: Arc<crate::state::Slot>,
    place: Option<crate::quota::SocketPlace>,
    state: AppState,
    table: String,
    seat: String,
}

impl Drop for Presence {
    fn drop(&mut self) {
        drop(self.place.take());
        if !self
            .state
            .limiters()
            .open_seats(&self.table)
            .contains(&self.seat)
        {
            let _ = self.slot.tx.send(Signal::Presence);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text sent, whole or patch.
    fn sent_text(out: Option<Out>) -> Option<String> {
        out.map(|o| o.text().to_string())
    }

    #[test]
    fn a_view_or_sheets_go_out_only_when_they_changed() {
        let a1 = Part::from("{\"a\":1}");
        let a2 = Part::from("{\"a\":2}");
        let mut sent = Sent::default();
        assert_eq!(
            sent_text(sent.view_if_changed(Some(&a1))).as_deref(),
            Some("{\"a\":1}")
        );
        assert_eq!(sent.view_if_changed(Some(&a1)), None);
        // The sheets are remembered apart from the view.
        assert_eq!(
            sent_text(sent.sheets_if_changed(Some(&a1))).as_deref(),
            Some("{\"a\":1}")
        );
        assert_eq!(
            sent_text(sent.view_if_changed(Some(&a2))).as_deref(),
            Some("{\"a\":2}")
        );
        // Back to an earlier text: it changed since the last one sent.
        assert_eq!(
            sent_text(sent.view_if_changed(Some(&a1))).as_deref(),
            Some("{\"a\":1}")
        );
        // No view (refused): nothing sent, nothing forgotten.
        assert_eq!(sent.view_if_changed(None), None);
        assert_eq!(sent.view_if_changed(Some(&a1)), None);
    }

    #[test]
    fn a_message_with_parts_is_one_json_object() {
        let head = json!({"type": "update", "seq": 3, "lines": [{"seq": 3}]});
        let view = Out::Whole(Part::from("{\"v\":[1]}"));
        let sheets = Out::Whole(Part::from("{\"s\":2}"));
        let whole: Value =
            serde_json::from_str(&with_parts(head.clone(), Some(&view), Some(&sheets))).unwrap();
        assert_eq!(whole["view"], json!({"v": [1]}));
        assert_eq!(whole["sheets"], json!({"s": 2}));
        assert_eq!(whole["lines"], json!([{"seq": 3}]));
        let bare: Value = serde_json::from_str(&with_parts(head.clone(), None, None)).unwrap();
        assert!(bare.get("view").is_none() && bare.get("sheets").is_none());
        assert_eq!(bare["seq"], 3);
        // A patch goes under its own name, the whole text's field absent.
        let patch = Out::Patch("[[[\"v\",0],2]]".into());
        let patched: Value = serde_json::from_str(&with_parts(head, Some(&patch), None)).unwrap();
        assert_eq!(patched["view_patch"], json!([[["v", 0], 2]]));
        assert!(patched.get("view").is_none());
    }

    #[test]
    fn lines_are_split_under_the_target_and_none_is_lost() {
        let lines: Vec<Value> = (1..=3000u64)
            .map(|seq| json!({"seq": seq, "text": "x".repeat((seq % 300) as usize)}))
            .collect();
        let groups = split_lines(lines.clone());
        assert!(groups.len() > 1);
        let mut seqs = Vec::new();
        for g in &groups {
            let message = log_message(3000, g);
            assert!(message.len() <= WS_MESSAGE_TARGET_BYTES);
            let v: Value = serde_json::from_str(&message).unwrap();
            assert_eq!(v["type"], "log");
            for l in v["lines"].as_array().unwrap() {
                seqs.push(l["seq"].as_u64().unwrap());
            }
        }
        assert_eq!(seqs, (1..=3000).collect::<Vec<_>>());
        // A line larger than the target goes alone.
        let big = vec![
            json!(1),
            json!("y".repeat(WS_MESSAGE_TARGET_BYTES)),
            json!(2),
        ];
        assert_eq!(split_lines(big).len(), 3);
        assert!(split_lines(Vec::new()).is_empty());
        assert_eq!(
            serde_json::from_str::<Value>(&log_message(7, &[])).unwrap(),
            json!({"type": "log", "seq": 7, "lines": []})
        );
    }
}
