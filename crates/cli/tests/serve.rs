//! `tabula serve`, `tabula table new` and `tabula table list` as a GM meets
//! them: tables created from the terminal into the database the server uses,
//! the server started on a free port, answering, and stopping on SIGTERM.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{stderr, stdout, tabula};
use serde_json::Value;

fn db_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}", dir.path().join("tabula.db").display())
}

#[test]
fn table_new_and_list_share_one_database() {
    let dir = tempfile::tempdir().unwrap();
    let url = db_url(&dir);
    let o = tabula(&[
        "table",
        "new",
        "bastards",
        "examples/bastards/table.toml",
        "--database-url",
        &url,
        "--base-url",
        "http://table.example:7878",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let id = v["table"].as_str().unwrap();
    assert_eq!(v["system"], "bastards");
    assert_eq!(v["name"], "The investor's office");
    let seats: Vec<&str> = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_str().unwrap())
        .collect();
    assert_eq!(seats, ["gm", "Stella", "Blaine", "Pat"]);
    let first = &v["seats"][0];
    assert_eq!(
        first["link"].as_str().unwrap(),
        format!(
            "http://table.example:7878/t/{id}#{}",
            first["token"].as_str().unwrap()
        )
    );

    let text = tabula(&[
        "table",
        "new",
        "sapio",
        "examples/sapio/table.toml",
        "--database-url",
        &url,
        "--name",
        "Rooftops",
    ]);
    assert!(text.status.success(), "{}", stderr(&text));
    assert!(
        stdout(&text).contains("http://127.0.0.1:7878/t/"),
        "{}",
        stdout(&text)
    );

    let list = tabula(&["table", "list", "--database-url", &url, "--json"]);
    assert!(list.status.success(), "{}", stderr(&list));
    let tables: Value = serde_json::from_str(&stdout(&list)).unwrap();
    let names: Vec<&str> = tables
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Rooftops", "The investor's office"]);
    let list = tabula(&["table", "list", "--database-url", &url]);
    assert!(stdout(&list).contains(id), "{}", stdout(&list));
    // The database never holds a token.
    for file in ["tabula.db", "tabula.db-wal"] {
        let bytes = std::fs::read(dir.path().join(file)).unwrap_or_default();
        for seat in v["seats"].as_array().unwrap() {
            let token = seat["token"].as_str().unwrap();
            assert!(
                !bytes.windows(token.len()).any(|w| w == token.as_bytes()),
                "{file}"
            );
        }
    }
}

/// Issue 30, item 3: `--dice-dialect` and `--dice` choose the table's
/// settings as the lobby does (kept with the table's dice in the database);
/// a value that is none is refused naming the option, and nothing is made.
#[test]
fn table_new_takes_the_dice_settings() {
    let dir = tempfile::tempdir().unwrap();
    let url = db_url(&dir);
    let o = tabula(&[
        "table",
        "new",
        "scratch",
        "examples/scratch/table.toml",
        "--database-url",
        &url,
        "--dice-dialect",
        "foundry",
        "--dice",
        "table",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let kept = ["tabula.db", "tabula.db-wal"].iter().any(|file| {
        let bytes = std::fs::read(dir.path().join(file)).unwrap_or_default();
        let has = |s: &str| bytes.windows(s.len()).any(|w| w == s.as_bytes());
        has(r#""dice_dialect":"foundry""#) && has(r#""dice":"table""#)
    });
    assert!(kept, "the database keeps both settings with the table");
    for (option, value) in [("--dice-dialect", "avrae"), ("--dice", "mine")] {
        let bad = tabula(&[
            "table",
            "new",
            "scratch",
            "examples/scratch/table.toml",
            "--database-url",
            &url,
            option,
            value,
        ]);
        assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
        assert!(stderr(&bad).contains(option), "{}", stderr(&bad));
    }
    let list = tabula(&["table", "list", "--database-url", &url, "--json"]);
    let tables: Value = serde_json::from_str(&stdout(&list)).unwrap();
    assert_eq!(tables.as_array().map(Vec::len), Some(1));
}

#[test]
fn table_new_refuses_broken_input_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let url = db_url(&dir);
    let sheet = tabula(&[
        "table",
        "new",
        "bastards",
        "examples/bastards/kodos.toml",
        "--database-url",
        &url,
    ]);
    assert_eq!(sheet.status.code(), Some(2));
    assert!(stderr(&sheet).contains("kodos.toml"), "{}", stderr(&sheet));
    assert!(stderr(&sheet).contains("advantages"), "{}", stderr(&sheet));
    let missing = tabula(&[
        "table",
        "new",
        "bastards",
        "examples/bastards/nope.toml",
        "--database-url",
        &url,
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("no such file"),
        "{}",
        stderr(&missing)
    );
    let system = tabula(&[
        "table",
        "new",
        "chess",
        "examples/bastards/table.toml",
        "--database-url",
        &url,
    ]);
    assert_eq!(system.status.code(), Some(2));
    let url_bad = tabula(&["table", "list", "--database-url", "mysql://x"]);
    assert_eq!(url_bad.status.code(), Some(2), "{}", stderr(&url_bad));
    let list = tabula(&["table", "list", "--database-url", &url, "--json"]);
    assert_eq!(stdout(&list).trim(), "[]");
}

#[test]
fn serve_refuses_an_open_bind_without_a_create_token() {
    let o = tabula(&[
        "serve",
        "--bind",
        "0.0.0.0:0",
        "--database-url",
        "sqlite::memory:",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--create-token"), "{}", stderr(&o));
}

/// Issue 28: the rate limits are flags (a load benchmark raises them); a
/// limit of 0 would refuse every command and is refused, naming the flag.
#[test]
fn serve_takes_its_rate_limits_and_refuses_zero() {
    for flag in ["--commands-per-seat", "--commands-per-address"] {
        let o = tabula(&["serve", "--database-url", "sqlite::memory:", flag, "0"]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(stderr(&o).contains(flag), "{}", stderr(&o));
    }
    let o = tabula(&["serve", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(help.contains("--commands-per-seat"), "{help}");
}

/// `GET path` over a plain socket; the status line and body.
fn http_get(addr: &str, path: &str, token: Option<&str>) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    if let Err(e) = s.read_to_string(&mut out) {
        panic!("GET {path}: {e}");
    }
    out
}

#[test]
fn serve_answers_on_the_database_the_cli_wrote_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let url = db_url(&dir);
    let o = tabula(&[
        "table",
        "new",
        "bastards",
        "examples/bastards/table.toml",
        "--database-url",
        &url,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let id = v["table"].as_str().unwrap().to_string();
    let stella = v["seats"][1]["token"].as_str().unwrap().to_string();

    let log_path = dir.path().join("serve.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url", &url])
        .env("RUST_LOG", "debug")
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap();
    // Read the first line only, then close the pipe: a server whose stdout
    // went away keeps serving.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr = first
        .split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_string();
    let health = http_get(&addr, "/healthz", None);
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    let view = http_get(&addr, &format!("/api/tables/{id}/view"), Some(&stella));
    assert!(view.starts_with("HTTP/1.1 200"), "{view}");
    assert!(view.contains("\"seat\":\"Stella\""), "{view}");
    let nobody = http_get(&addr, &format!("/api/tables/{id}/view"), None);
    assert!(nobody.starts_with("HTTP/1.1 401"), "{nobody}");

    let kill = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("the server did not stop within 10 s of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    // The request log names the table and the seat, never a token.
    let log = std::fs::read_to_string(&log_path).unwrap();
    assert!(log.contains(&id), "{log}");
    assert!(log.contains("Stella"), "{log}");
    assert!(!log.contains(&stella), "a token in the log: {log}");
    assert!(!log.to_lowercase().contains("bearer"), "{log}");
}

/// `tabula table links` prints new links for every seat (the old tokens stop
/// working) and `tabula table record` prints the log as one seat may see it
/// (issue 27, item 7).
#[test]
fn table_links_reissue_every_seat_and_record_prints_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let url = db_url(&dir);
    let o = tabula(&[
        "table",
        "new",
        "bastards",
        "examples/bastards/table.toml",
        "--database-url",
        &url,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let created: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let id = created["table"].as_str().unwrap();
    let links = tabula(&["table", "links", id, "--database-url", &url, "--json"]);
    assert!(links.status.success(), "{}", stderr(&links));
    let links: Value = serde_json::from_str(&stdout(&links)).unwrap();
    let seats = links.as_array().unwrap();
    assert_eq!(seats.len(), 4);
    for (old, new) in created["seats"].as_array().unwrap().iter().zip(seats) {
        assert_eq!(old["seat"], new["seat"]);
        assert_ne!(
            old["token"], new["token"],
            "a new token for {}",
            new["seat"]
        );
    }
    let record = tabula(&[
        "table",
        "record",
        id,
        "--seat",
        "Stella",
        "--database-url",
        &url,
    ]);
    assert!(record.status.success(), "{}", stderr(&record));
    let text = stdout(&record);
    assert!(text.starts_with(&format!("# Table {id}")), "{text}");
    assert!(text.contains("the record as Stella may see it"), "{text}");
    let bad = tabula(&[
        "table",
        "record",
        id,
        "--format",
        "pdf",
        "--database-url",
        &url,
    ]);
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("--format"), "{}", stderr(&bad));
}
