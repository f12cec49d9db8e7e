//! Issue 15, several stateless servers: two `tabula serve` processes on one
//! PostgreSQL database, the clients of one table split across them, every seat
//! giving commands at once. Both end with the same log (no event lost,
//! duplicated or reordered), and every follower, on either process, received
//! every line its seat may see, in order. And a SQLite file refuses a second
//! process.

mod scale;

use std::collections::BTreeSet;

use hyper::{Method, StatusCode};
use serde_json::Value;

use scale::{SEATS, Server, call, command, create_table, follow, http, lines_until};

/// Commands each seat gives (alternating between the two processes).
const COMMANDS_PER_SEAT: usize = 12;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow process-level test: `cargo test --workspace -- --include-ignored` (README; .ci/run) runs it"]
async fn two_processes_serve_one_table_on_postgresql() {
    let Some((url, schema, in_schema)) = scale::pg_schema("two").await else {
        return;
    };
    let cleanup_url = url.clone();
    let cleanup_schema = schema.clone();
    scale::with_cleanup(async move { two_processes(in_schema).await }, async move {
        scale::drop_schema(&cleanup_url, &cleanup_schema).await
    })
    .await;
}

async fn two_processes(in_schema: String) {
    let dir = tempfile::tempdir().unwrap();
    let a = Server::start(&in_schema, dir.path(), "a");
    let b = Server::start(&in_schema, dir.path(), "b");
    let bases = [a.base(), b.base()];
    let http = http();
    let t = create_table(&http, &bases[0]).await;

    // Every seat follows on both processes, before the first command.
    let mut followers = Vec::new();
    for server in [&a, &b] {
        for (seat, _) in SEATS {
            followers.push((
                seat,
                server.addr.clone(),
                follow(&server.addr, &t, seat).await,
            ));
        }
    }
    let total = (SEATS.len() * COMMANDS_PER_SEAT) as u64;

    // Every seat gives its commands at once, alternating processes.
    let mut givers = Vec::new();
    for (i, (seat, _)) in SEATS.iter().enumerate() {
        let http = http.clone();
        let bases = bases.clone();
        let t = t.clone();
        givers.push(tokio::spawn(async move {
            let mut answers = Vec::new();
            for k in 0..COMMANDS_PER_SEAT {
                let base = &bases[(i + k) % 2];
                let (status, v) = command(&http, base, &t, seat).await.unwrap();
                assert_eq!(status, StatusCode::OK, "{seat} on {base}: {v}");
                answers.push(v);
            }
            answers
        }));
    }
    let mut acknowledged = BTreeSet::new();
    for g in givers {
        for v in g.await.unwrap() {
            let events = v["events"].as_array().unwrap();
            assert_eq!(events.len(), 1, "{v}");
            // No two commands were given the same place in the log.
            assert!(acknowledged.insert(v["seq"].as_u64().unwrap()), "{v}");
        }
    }
    assert_eq!(acknowledged, (1..=total).collect::<BTreeSet<u64>>());

    // The followers: each got every line of its seat, in order.
    let mut received = Vec::new();
    for (seat, addr, mut ws) in followers {
        received.push((
            seat,
            addr,
            tokio::spawn(async move { lines_until(&mut ws, total).await }),
        ));
    }
    let gm = t.token("gm").to_string();
    let mut logs: Vec<Value> = Vec::new();
    for base in &bases {
        let (status, v) = call(
            &http,
            Method::GET,
            &format!("{base}/api/tables/{}/log", t.id),
            Some(&gm),
            None,
        )
        .await
        .unwrap();
        assert_eq!(status, StatusCode::OK, "{v}");
        logs.push(v["lines"].clone());
    }
    assert_eq!(logs[0], logs[1], "the two processes disagree on the log");
    let seqs: Vec<u64> = logs[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, (1..=total).collect::<Vec<u64>>());
    for (seat, addr, lines) in received {
        let lines = lines.await.unwrap();
        let (status, log) = call(
            &http,
            Method::GET,
            &format!("http://{addr}/api/tables/{}/log", t.id),
            Some(t.token(seat)),
            None,
        )
        .await
        .unwrap();
        assert_eq!(status, StatusCode::OK);
        let seqs = |lines: &[Value]| -> Vec<u64> {
            lines.iter().map(|l| l["seq"].as_u64().unwrap()).collect()
        };
        let log = log["lines"].as_array().unwrap();
        assert_eq!(
            seqs(&lines),
            seqs(log),
            "{seat} following on {addr} did not receive its log, in order"
        );
        assert!(
            lines == *log,
            "{seat} following on {addr} received other lines than its log"
        );
    }
    // The GM reissues Stella's token on one process: her socket on the other
    // closes with `revoked`, and the new token follows there at once.
    let mut old_b = follow(&b.addr, &t, "Stella").await;
    assert_eq!(scale::next(&mut old_b).await.unwrap()["type"], "hello");
    let (status, v) = call(
        &http,
        Method::POST,
        &format!("{}/api/tables/{}/seats/Stella/reissue", bases[0], t.id),
        Some(&gm),
        None,
    )
    .await
    .unwrap();
    assert_eq!(status, StatusCode::OK, "{v}");
    let mut revoked = false;
    while let Some(m) = scale::next(&mut old_b).await {
        if m["type"] == "revoked" {
            revoked = true;
            break;
        }
    }
    assert!(
        revoked,
        "Stella's old socket on the other process was not revoked"
    );
    let mut renewed = t.clone();
    for (seat, token) in &mut renewed.tokens {
        if seat == "Stella" {
            *token = v["token"].as_str().unwrap().to_string();
        }
    }
    let mut new_b = follow(&b.addr, &renewed, "Stella").await;
    assert_eq!(scale::next(&mut new_b).await.unwrap()["type"], "hello");
    let (status, _) = command(&http, &bases[0], &renewed, "Stella").await.unwrap();
    assert_eq!(status, StatusCode::OK);
    let mut updated = false;
    while let Some(m) = scale::next(&mut new_b).await {
        if m["type"] == "update" {
            updated = true;
            break;
        }
    }
    assert!(updated, "the new token's socket did not follow");

    // Every seat's commands are there, each once.
    for (seat, _) in SEATS {
        let given = logs[0]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["seat"] == seat || (seat == "gm" && l["seat"] == "GM"))
            .count();
        assert_eq!(given, COMMANDS_PER_SEAT, "{seat}");
    }
}

#[test]
fn a_sqlite_file_refuses_a_second_process() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("one.db");
    let url = format!("sqlite://{}", db.display());
    let first = Server::start(&url, dir.path(), "first");
    let second = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url", &url])
        .output()
        .unwrap();
    assert!(!second.status.success());
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(err.contains("in use by another process"), "{err}");
    assert!(err.contains(&format!("pid {}", first.pid())), "{err}");
    assert!(err.contains("one.db.lock"), "{err}");
    // `tabula table list` is a process too.
    let list = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["table", "list", "--database-url", &url])
        .output()
        .unwrap();
    assert!(!list.status.success());
    // Once the first is gone (even by kill -9), the file is free.
    first.kill9();
    let again = Server::start(&url, dir.path(), "again");
    drop(again);
}
