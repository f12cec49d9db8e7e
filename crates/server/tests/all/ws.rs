//! Following a table live over a real socket on 127.0.0.1 (tokio-tungstenite),
//! every wait bounded: each seat gets its own view and its own lines after
//! every command, a reconnect with `?after=SEQ` gets the missed lines first, a
//! bad token gets nothing, a reissued token is cut off, and shutdown closes
//! the sockets.

use crate::common;

use axum::http::StatusCode;
use futures_util::StreamExt;
use serde_json::{Value, json};
use tabula_server::AppState;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use common::{Client, Db, Socket, Table, WAIT, connect, next, script, serve, split_line};

/// `base` after the message `m`: its `field` (`view` or `sheets`) when it
/// carries it whole, else `base` with each `[path, value]` of its
/// `field_patch` set, as the page does (`patched` in web/table.js), else
/// `base` unchanged (issue 28: an update sends what changed).
fn after_message(base: &Value, m: &Value, field: &str) -> Value {
    if m[field].is_object() {
        return m[field].clone();
    }
    let Some(patch) = m[format!("{field}_patch")].as_array() else {
        return base.clone();
    };
    let mut out = base.clone();
    for entry in patch {
        let path = entry[0].as_array().expect("a patch's path is a list");
        assert!(
            (1..=2).contains(&path.len()),
            "a path is one or two keys: {entry}"
        );
        let mut at = &mut out;
        for key in path {
            at = match key {
                Value::String(k) => at.get_mut(k.as_str()).expect("a member"),
                Value::Number(i) => at
                    .get_mut(usize::try_from(i.as_u64().unwrap()).unwrap())
                    .expect("an element"),
                other => panic!("a path key is a name or an index, not {other}"),
            };
        }
        *at = entry[1].clone();
    }
    out
}

/// Messages until one reports `seq` (updates may be merged when a socket is
/// slow: every line still arrives).
async fn until_seq(ws: &mut Socket, seq: u64) -> Vec<Value> {
    let mut out = Vec::new();
    loop {
        let m = next(ws).await.expect("the socket stays open");
        let at = m["seq"].as_u64().unwrap_or(0);
        out.push(m);
        if at >= seq {
            return out;
        }
    }
}

fn lines(msgs: &[Value]) -> Vec<Value> {
    msgs.iter()
        .flat_map(|m| m["lines"].as_array().cloned().unwrap_or_default())
        .collect()
}

async fn command(c: &Client, t: &Table, line: &str) -> u64 {
    let (seat, text) = split_line(line);
    let seat = match seat {
        Some(s) => s.to_string(),
        None => c.get(&t.url("status"), &t.gm()).await.json["turn"]
            .as_str()
            .unwrap()
            .to_string(),
    };
    let a = c.command(t, &t.token(&seat), text).await;
    assert_eq!(a.status, StatusCode::OK, "{line}: {}", a.text);
    a.json["seq"].as_u64().unwrap()
}

async fn follow_live(db: Db) {
    let state = AppState::new(db.open().await);
    let base = serve(state.clone()).await;
    let c = Client::with_state(state.clone());
    let t = c
        .create(json!({"system": "bastards", "example": "table", "seed": 1}))
        .await;

    // A bad token: by header, a 401 before the upgrade; by first message, an
    // error message and a close.
    let mut req = format!("{base}/api/tables/{}/ws", t.id)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", "Bearer wrong".parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
            assert_eq!(res.status(), 401)
        }
        other => panic!("a wrong bearer token was let in: {:?}", other.map(|_| ())),
    }
    let mut bad = connect(&base, &t, "wrong", false, None).await;
    let m = next(&mut bad).await.expect("an error message");
    assert_eq!(m["type"], "error");
    assert_eq!(m["error"], "unauthorized");
    assert!(next(&mut bad).await.is_none(), "closed after the error");

    let mut stella = connect(&base, &t, &t.token("Stella"), true, None).await;
    let mut blaine = connect(&base, &t, &t.token("Blaine"), false, None).await;
    // Each socket's view as it stands: the hello's, then each update's
    // when it carries one (only when it changed, issue 28).
    let mut views: Vec<Value> = Vec::new();
    let mut sheets: Vec<Value> = Vec::new();
    for (ws, seat) in [(&mut stella, "Stella"), (&mut blaine, "Blaine")] {
        let hello = next(ws).await.expect("hello");
        assert_eq!(hello["type"], "hello");
        assert_eq!(hello["seat"], seat);
        assert_eq!(hello["seq"], 0);
        assert_eq!(hello["view"]["seat"]["player"], seat, "{hello}");
        views.push(hello["view"].clone());
        sheets.push(hello["sheets"].clone());
    }
    let mut patches = 0;

    // Play to the initiative cards, then two turns.
    let script = script("bastards", "encounter.script");
    let mut seq = 0;
    for line in script.iter().take(12) {
        let before = seq;
        seq = command(&c, &t, line).await;
        for (i, (ws, seat, mine)) in [
            (&mut stella, "Stella", "Cynthia"),
            (&mut blaine, "Blaine", "Kodos"),
        ]
        .into_iter()
        .enumerate()
        {
            let msgs = until_seq(ws, seq).await;
            // Besides updates, only who has the table open (issue 27, item 3).
            assert!(
                msgs.iter()
                    .all(|m| m["type"] == "update" || m["type"] == "presence"),
                "{msgs:?}"
            );
            // The lines are exactly what this seat's log shows (the engine's
            // per-seat projection; nothing another seat was told).
            let log = c
                .get(&t.url(&format!("log?after={before}")), &t.token(seat))
                .await;
            assert_eq!(lines(&msgs), log.json["lines"].as_array().unwrap().clone());
            // The view is this seat's: its own hand, no other hand. An
            // update carries it only when it changed, whole or as a patch
            // of what changed (issue 28): the page's copy, rebuilt from the
            // messages, is the seat's view and sheets as the server has them.
            for m in &msgs {
                patches += usize::from(m.get("view_patch").is_some())
                    + usize::from(m.get("sheets_patch").is_some());
                views[i] = after_message(&views[i], m, "view");
                sheets[i] = after_message(&sheets[i], m, "sheets");
            }
            let now = c.get(&t.url("view"), &t.token(seat)).await;
            assert_eq!(views[i], now.json["view"], "{seat}'s view after {line}");
            assert_eq!(
                sheets[i], now.json["sheets"],
                "{seat}'s sheets after {line}"
            );
            let combatants = views[i]["combatants"].as_array().unwrap();
            for cmb in combatants {
                if cmb["name"] == mine {
                    assert!(cmb["hand"].is_array() || seq < 4);
                } else {
                    assert!(cmb["hand"].is_null(), "{seat} sees {}'s hand", cmb["name"]);
                }
            }
            // No token of another seat, no roller state.
            let text = msgs.iter().map(Value::to_string).collect::<String>();
            for (s, _, tok) in &t.seats {
                if s != seat {
                    assert!(!text.contains(tok.as_str()));
                }
            }
            assert!(!text.contains("word_pos"));
        }
    }

    assert!(patches > 0, "some update sent only what changed");

    // Reconnecting with after=SEQ: the missed lines first.
    drop(blaine);
    let missed_from = seq;
    for line in script.iter().skip(12).take(3) {
        seq = command(&c, &t, line).await;
    }
    let mut blaine = connect(&base, &t, &t.token("Blaine"), true, Some(missed_from)).await;
    let hello = next(&mut blaine).await.unwrap();
    assert_eq!(hello["type"], "hello");
    assert_eq!(hello["seq"], seq);
    let log = next(&mut blaine).await.unwrap();
    assert_eq!(log["type"], "log");
    let http = c
        .get(
            &t.url(&format!("log?after={missed_from}")),
            &t.token("Blaine"),
        )
        .await;
    assert_eq!(log["lines"], http.json["lines"]);
    assert_eq!(
        log["lines"].as_array().unwrap().first().unwrap()["seq"],
        missed_from + 1
    );
    drain(&mut stella, seq).await;

    // The GM reissues Stella's token: her socket is told and closed.
    let a = c
        .call(
            axum::http::Method::POST,
            &t.url("seats/Stella/reissue"),
            Some(&t.gm()),
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK);
    // Who has the table open may come first (Blaine came back above).
    let m = loop {
        let m = next(&mut stella).await.expect("revoked");
        if m["type"] != "presence" {
            break m;
        }
    };
    assert_eq!(m["type"], "revoked");
    assert!(next(&mut stella).await.is_none());

    // Shutdown: every socket is closed (1001, going away).
    state.begin_shutdown();
    loop {
        match tokio::time::timeout(WAIT, blaine.next())
            .await
            .expect("closed in time")
        {
            Some(Ok(Message::Close(frame))) => {
                assert_eq!(u16::from(frame.unwrap().code), 1001);
                break;
            }
            Some(Ok(_)) => {}
            None | Some(Err(_)) => break,
        }
    }
}

story!(
    each_seat_follows_the_table_live_and_sees_only_its_own,
    super::follow_live
);

/// Two sockets of one seat get the same messages, while the seat's view and
/// sheets are made once per seq for both (issue 28: made once per seat and
/// seq, not once per socket); another seat's socket gets its own.
async fn one_seats_sockets_share_its_view(db: Db) {
    let state = AppState::new(db.open().await);
    let base = serve(state.clone()).await;
    let c = Client::with_state(state.clone());
    let t = c
        .create(json!({"system": "bastards", "example": "table", "seed": 1}))
        .await;
    let mut first = connect(&base, &t, &t.token("Stella"), true, None).await;
    let mut second = connect(&base, &t, &t.token("Stella"), false, None).await;
    let mut other = connect(&base, &t, &t.token("Blaine"), true, None).await;
    // Presence messages depend on when each socket came: compare the rest.
    let not_presence = |msgs: Vec<Value>| -> Vec<Value> {
        msgs.into_iter()
            .filter(|m| m["type"] != "presence")
            .map(|mut m| {
                if m["type"] == "hello"
                    && let Some(o) = m.as_object_mut()
                {
                    o.remove("online");
                }
                m
            })
            .collect()
    };
    let a = not_presence(until_seq(&mut first, 0).await);
    let b = not_presence(until_seq(&mut second, 0).await);
    let o = not_presence(until_seq(&mut other, 0).await);
    assert_eq!(a, b);
    assert_eq!(a[0]["view"]["seat"]["player"], "Stella");
    assert_eq!(o[0]["view"]["seat"]["player"], "Blaine");
    let slot = state.slot(&t.id).unwrap();
    // The hello: once for Stella's two sockets, once for Blaine's.
    assert_eq!(slot.texts_made(), 2);
    let script = script("bastards", "encounter.script");
    let mut seq = 0;
    let mut views = 0;
    for (n, line) in script.iter().take(12).enumerate() {
        seq = command(&c, &t, line).await;
        let a = not_presence(until_seq(&mut first, seq).await);
        let b = not_presence(until_seq(&mut second, seq).await);
        let o = not_presence(until_seq(&mut other, seq).await);
        assert_eq!(a, b, "after {line}");
        assert!(a.iter().all(|m| m["type"] == "update"), "{a:?}");
        assert_eq!(a.last().unwrap()["seq"], seq);
        views += a
            .iter()
            .filter(|m| m["view"].is_object() || m["view_patch"].is_array())
            .count();
        if let Some(v) = o.iter().rev().find_map(|m| m["view"].as_object()) {
            assert_eq!(v["seat"]["player"], "Blaine");
        }
        // Once per seat and command, not once per socket.
        assert_eq!(slot.texts_made(), 2 * (n as u64 + 2), "after {line}");
    }
    assert!(seq >= 12);
    assert!(views > 0, "Stella's view changed at least once");
    // Table talk changes nothing in the rules' state: the update carries the
    // line, no view or sheets, and nothing is made again.
    let made = slot.texts_made();
    let said = command(&c, &t, "Stella: say We should talk to the investor.").await;
    assert_eq!(said, seq + 1);
    let a = not_presence(until_seq(&mut first, said).await);
    let b = not_presence(until_seq(&mut second, said).await);
    until_seq(&mut other, said).await;
    assert_eq!(a, b);
    assert_eq!(a.len(), 1, "{a:?}");
    for field in ["view", "sheets", "view_patch", "sheets_patch"] {
        assert!(a[0].get(field).is_none(), "{field} after talk: {a:?}");
    }
    assert_eq!(a[0]["lines"].as_array().unwrap().len(), 1);
    assert_eq!(slot.texts_made(), made);
}

story!(
    one_seats_sockets_get_the_same_view_made_once,
    super::one_seats_sockets_share_its_view
);

/// Read `ws` up to `seq`.
async fn drain(ws: &mut Socket, seq: u64) {
    until_seq(ws, seq).await;
}
