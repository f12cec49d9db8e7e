//! Issue 15, clients that misbehave: a WebSocket client that never reads does
//! not hold up the other followers or grow the server's memory without bound,
//! and one `tabula serve` process holds 10,000 idle WebSockets (the memory per
//! connection is printed: run with `--nocapture` to see it).

mod scale;

use std::time::Duration;

use hyper::StatusCode;
use tokio::io::AsyncWriteExt;

use scale::{Server, command, create_table, follow, http, lines_until};

/// Idle connections held at once.
const IDLE: usize = 10_000;
/// Connections opened at a time while filling up.
const OPENING: usize = 64;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow process-level test: `cargo test --workspace -- --include-ignored` (README; .ci/run) runs it"]
async fn a_client_that_never_reads_holds_up_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("slow.db").display());
    let server = Server::start(&url, dir.path(), "server");
    let http = http();
    let t = create_table(&http, &server.base()).await;

    // The client that never reads: a WebSocket upgrade by hand with a tiny
    // receive buffer, and then nothing read, ever.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stuck = socket.connect(server.addr.parse().unwrap()).await.unwrap();
    let upgrade = format!(
        "GET /api/tables/{}/ws?after=0 HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer {}\r\n\r\n",
        t.id,
        server.addr,
        t.token("gm")
    );
    stuck.write_all(upgrade.as_bytes()).await.unwrap();

    // Followers that do read, one per seat.
    let mut followers = Vec::new();
    for (seat, _) in scale::SEATS {
        followers.push((seat, follow(&server.addr, &t, seat).await));
    }
    let rss_before = server.rss_kib();
    // Many moves: each one a view and lines for every follower, the stuck one
    // included.
    const MOVES: u64 = 400;
    let mut givers = Vec::new();
    for (seat, _) in scale::SEATS {
        let (http, base, t) = (http.clone(), server.base(), t.clone());
        givers.push(tokio::spawn(async move {
            for _ in 0..MOVES / 4 {
                let (status, v) = command(&http, &base, &t, seat).await.unwrap();
                assert_eq!(status, StatusCode::OK, "{v}");
            }
        }));
    }
    let mut reading = Vec::new();
    for (seat, mut ws) in followers {
        reading.push((
            seat,
            tokio::spawn(async move { lines_until(&mut ws, MOVES).await }),
        ));
    }
    for g in givers {
        g.await.unwrap();
    }
    for (seat, r) in reading {
        let lines = r.await.unwrap();
        let seqs: Vec<u64> = lines.iter().map(|l| l["seq"].as_u64().unwrap()).collect();
        assert_eq!(seqs, (1..=MOVES).collect::<Vec<u64>>(), "{seat}");
    }
    let rss_after = server.rss_kib();
    eprintln!(
        "a client that never reads, {MOVES} moves: server RSS {rss_before} KiB before, {rss_after} KiB after"
    );
    // What the stuck client is owed stays in the kernel's socket buffers and
    // one bounded write buffer, not in a queue that grows with the moves.
    assert!(
        rss_after < rss_before + 64 * 1024,
        "the server grew from {rss_before} KiB to {rss_after} KiB"
    );
    drop(stuck);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow process-level test: `cargo test --workspace -- --include-ignored` (README; .ci/run) runs it"]
async fn ten_thousand_idle_connections_are_held() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("idle.db").display());
    let server = Server::start(&url, dir.path(), "server");
    let http = http();
    let t = create_table(&http, &server.base()).await;
    // One follower first, so the table is loaded before the baseline.
    let mut first = follow(&server.addr, &t, "gm").await;
    scale::next(&mut first).await.expect("hello");
    let rss_before = server.rss_kib();

    let mut sockets = Vec::with_capacity(IDLE);
    let seats = ["gm", "Stella", "Blaine", "Pat"];
    for batch in 0..IDLE.div_ceil(OPENING) {
        let mut opening = Vec::new();
        for k in 0..OPENING.min(IDLE - batch * OPENING) {
            let (addr, t) = (server.addr.clone(), t.clone());
            let seat = seats[k % seats.len()];
            opening.push(tokio::spawn(async move {
                let mut ws = follow(&addr, &t, seat).await;
                let hello = scale::next(&mut ws).await.expect("hello");
                assert_eq!(hello["type"], "hello");
                scale::next(&mut ws).await.expect("the missed lines");
                ws
            }));
        }
        for o in opening {
            sockets.push(o.await.unwrap());
        }
    }
    // Let the server settle, then weigh it.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_held = server.rss_kib();
    let per = (rss_held.saturating_sub(rss_before) as f64 * 1024.0) / IDLE as f64;
    eprintln!(
        "{IDLE} idle WebSockets: server RSS {rss_before} KiB before, {rss_held} KiB held, {per:.0} bytes per connection"
    );
    // Every one of them is live: one move reaches them all.
    let (status, v) = command(&http, &server.base(), &t, "Stella").await.unwrap();
    assert_eq!(status, StatusCode::OK, "{v}");
    let mut reached = 0;
    for chunk in sockets.chunks_mut(OPENING) {
        let mut waiting = Vec::new();
        for ws in chunk.iter_mut() {
            waiting.push(scale::next(ws));
        }
        for m in futures_util::future::join_all(waiting).await {
            let m = m.expect("the socket stays open");
            assert_eq!(m["type"], "update", "{m}");
            assert_eq!(m["seq"], 1);
            reached += 1;
        }
    }
    assert_eq!(reached, IDLE);
    // The server still answers everyone else.
    let (status, _) = command(&http, &server.base(), &t, "Blaine").await.unwrap();
    assert_eq!(status, StatusCode::OK);
    drop(sockets);
}
