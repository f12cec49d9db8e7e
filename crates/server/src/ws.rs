//! `GET /api/tables/{id}/ws`: follow a table live as one seat.
//!
//! The token comes as the bearer header (checked before the upgrade: 401) or
//! as the first message `{"token": "..."}` within [`crate::WS_AUTH_TIMEOUT`].
//! The server then sends, as JSON text messages:
//!
//! - `{"type": "hello", "table", "seat", "role", "seq", "view"}` once;
//! - with `?after=SEQ`: `{"type": "log", "seq", "lines"}`, the lines after
//!   `SEQ` the seat missed;
//! - after every accepted command or undo: `{"type": "update", "seq", "view",
//!   "lines"}`, the seat's new view and its new lines;
//! - `{"type": "revoked"}` and a close when the GM reissues this seat's token;
//! - `{"type": "error", "error", "message"}` and a close on a bad first
//!   message or a failure.
//!
//! The table's broadcast channel carries only [`Signal`]s (a seq, a seat key);
//! each connection computes its own seat's view and lines under the table's
//! read lock, so another seat's secret never passes through a shared message.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::Extension;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::error::{ApiQuery, AppError, UNAUTHORIZED_MESSAGE};
use crate::listen::ConnectionPermit;
use crate::routes::AfterQuery;
use crate::state::{AppState, Authed, Signal};
use crate::{
    MAX_WS_MESSAGE_BYTES, WS_AUTH_TIMEOUT, WS_MAX_WRITE_BUFFER_BYTES, WS_READ_BUFFER_BYTES,
    WS_SEND_TIMEOUT, auth,
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
    let message = Message::Text(Utf8Bytes::from(v.to_string()));
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
    let _place = match state.limiters().hold_socket(&id, &who.key) {
        Ok(p) => p,
        Err(e) => return refuse(&mut socket, &e).await,
    };
    let mut shutdown = state.shutdown_signal();
    let slot = match state.slot(&id) {
        Ok(s) => s,
        Err(e) => return refuse(&mut socket, &e).await,
    };
    // Subscribe before reading the table, so no move falls between the two.
    let mut rx = slot.subscribe();
    let first = match state.read(&id).await {
        Ok((_, guard)) => guard.as_ref().map(|t| {
            let seq = t.seq();
            let hello = json!({
                "type": "hello",
                "table": id,
                "seat": who.key,
                "role": who.role,
                "seq": seq,
                "view": t.view(&who.seat, &who.seat).ok(),
            });
            let missed =
                after.map(|a| json!({"type": "log", "seq": seq, "lines": t.log_for(&who.seat, a)}));
            (seq, hello, missed)
        }),
        Err(e) => return refuse(&mut socket, &e).await,
    };
    let Some((mut last, hello, missed)) = first else {
        return refuse(&mut socket, &AppError::Internal("table not loaded".into())).await;
    };
    tracing::info!(table = %id, seat = %who.key, seq = last, "websocket follows");
    if !send(&mut socket, &hello).await {
        return;
    }
    if let Some(m) = missed
        && !send(&mut socket, &m).await
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
                    let update = match state.read_cached(&id).await {
                        Ok((_, guard)) => guard.as_ref().and_then(|t| {
                            let seq = t.seq();
                            (seq > last).then(|| {
                                let lines = t.lines_since(&who.seat, last);
                                let v = json!({
                                    "type": "update",
                                    "seq": seq,
                                    "view": t.view(&who.seat, &who.seat).ok(),
                                    "lines": lines,
                                });
                                (seq, v)
                            })
                        }),
                        Err(e) => return refuse(&mut socket, &e).await,
                    };
                    if let Some((seq, v)) = update {
                        last = seq;
                        if !send(&mut socket, &v).await {
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

/// What a table's pages are told when the GM ends its encounter.
pub const ENDED_MESSAGE: &str = "The GM ended this encounter: its lasting changes were written back to the campaign, and the table takes no more commands.";

/// How long a quiet WebSocket may go before the server pings it (keeps
/// proxies from dropping an idle table).
pub const PING_EVERY: Duration = Duration::from_secs(30);
