//! What the browser tests share: Debian's Chromium driven through chromedriver
//! (WebDriver, fantoccini), the server and the page on a free port of
//! 127.0.0.1 over a throwaway SQLite file, the seat API called without a
//! socket, and bounded waits (nothing here waits forever).
//!
//! Without Chromium the tests print a line saying they were skipped; with
//! `TABULA_REQUIRE_BROWSER=1` (CI) a missing Chromium is a failure.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use tokio::process::{Child, Command};
use tower::ServiceExt;

/// The environment variable that turns a missing browser into a failure.
pub const REQUIRE_VAR: &str = "TABULA_REQUIRE_BROWSER";
/// Where Chromium is (default `/usr/bin/chromium`).
pub const CHROMIUM_VAR: &str = "TABULA_CHROMIUM";
/// Where chromedriver is (default `/usr/bin/chromedriver`).
pub const DRIVER_VAR: &str = "TABULA_CHROMEDRIVER";

/// The longest any one wait in these tests lasts.
pub const WAIT: Duration = Duration::from_secs(20);

/// Only one browser test runs at a time (the machine has few cores).
pub static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// What to do about the browser, from what is installed and whether CI
/// requires it: `Ok(true)` run, `Ok(false)` skip, `Err` fail.
pub fn decide(chromium: &Path, driver: &Path, required: bool) -> Result<bool, String> {
    let missing: Vec<String> = [chromium, driver]
        .iter()
        .filter(|p| !p.is_file())
        .map(|p| p.display().to_string())
        .collect();
    match (missing.is_empty(), required) {
        (true, _) => Ok(true),
        (false, false) => Ok(false),
        (false, true) => Err(format!(
            "{REQUIRE_VAR}=1 but {} not installed (apt-get install chromium chromium-driver)",
            missing.join(" and ")
        )),
    }
}

fn required() -> bool {
    std::env::var(REQUIRE_VAR).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The browser's paths, or `None` (with a line on stderr) when the test is
/// skipped. Panics when the browser is missing and [`REQUIRE_VAR`] is set.
pub fn browser_paths(test: &str) -> Option<(PathBuf, PathBuf)> {
    let chromium =
        PathBuf::from(std::env::var(CHROMIUM_VAR).unwrap_or_else(|_| "/usr/bin/chromium".into()));
    let driver =
        PathBuf::from(std::env::var(DRIVER_VAR).unwrap_or_else(|_| "/usr/bin/chromedriver".into()));
    match decide(&chromium, &driver, required()) {
        Ok(true) => Some((chromium, driver)),
        Ok(false) => {
            eprintln!(
                "skipped {test}: Chromium or chromedriver not found ({} / {}); install chromium and chromium-driver, or set {REQUIRE_VAR}=1 to make this a failure",
                chromium.display(),
                driver.display()
            );
            None
        }
        Err(e) => panic!("{test}: {e}"),
    }
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("its address").port()
}

/// The server and the page on 127.0.0.1, over a SQLite file in a temporary
/// directory.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The same app, for API calls without a socket.
    pub app: Router,
    /// The SQLite URL the store lives at (kept across [`Server::restart`]).
    url: String,
    _dir: tempfile::TempDir,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The router `tabula serve` runs: the page's routes first, every other path
/// to the server's app.
pub fn wired(state: tabula_server::AppState) -> Router {
    tabula_web::with_api(tabula_server::app(state))
}

impl Server {
    /// Start on a free port.
    pub async fn start() -> Server {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("tabula.db").display());
        let (base, app, task) = Self::serve(&url).await;
        Server {
            base,
            app,
            url,
            _dir: dir,
            task,
        }
    }

    async fn serve(url: &str) -> (String, Router, tokio::task::JoinHandle<()>) {
        let store = tabula_store::open(url)
            .await
            .expect("the SQLite store opens");
        let app = wired(tabula_server::AppState::new(store));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free port");
        let addr = listener.local_addr().expect("its address");
        let served = app.clone();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, served).await;
        });
        (format!("http://{addr}"), app, task)
    }

    /// Stop serving and start again on the same database file, as after a
    /// process restart: every table is loaded again from the store. The new
    /// server listens on another free port (`base` changes).
    pub async fn restart(&mut self) {
        self.task.abort();
        let (base, app, task) = Self::serve(&self.url).await;
        self.base = base;
        self.app = app;
        self.task = task;
    }

    /// Call the API as `token` (or none): the status and the JSON answer.
    pub async fn api(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = Request::builder().method(method).uri(path);
        if let Some(t) = token {
            req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        let req = match body {
            Some(b) => req
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(b.to_string())),
            None => req.body(Body::empty()),
        }
        .expect("a request");
        let r = self.app.clone().oneshot(req).await.expect("infallible");
        let status = r.status();
        let bytes = axum::body::to_bytes(r.into_body(), 1 << 24)
            .await
            .expect("the body");
        let v = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        (status, v)
    }

    /// Create a table of a bundled example with fixed dice: (id, seat -> token).
    pub async fn create(&self, system: &str, example: &str, seed: u64) -> Table {
        let (status, v) = self
            .api(
                Method::POST,
                "/api/tables",
                None,
                Some(json!({"system": system, "example": example, "seed": seed})),
            )
            .await;
        assert_eq!(
            status,
            StatusCode::CREATED,
            "create {system}/{example}: {v}"
        );
        let id = v["table"].as_str().expect("a table id").to_string();
        let seats = v["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| {
                (
                    s["seat"].as_str().expect("seat").to_string(),
                    s["token"].as_str().expect("token").to_string(),
                )
            })
            .collect();
        Table { id, seats }
    }
}

/// A created table: its id and each seat's token.
pub struct Table {
    /// The table id.
    pub id: String,
    /// (seat key, token), the GM first.
    pub seats: Vec<(String, String)>,
}

impl Table {
    /// The token of `seat` (`gm` or a player's name, any case).
    pub fn token(&self, seat: &str) -> &str {
        self.seats
            .iter()
            .find(|(s, _)| s.eq_ignore_ascii_case(seat))
            .map(|(_, t)| t.as_str())
            .unwrap_or_else(|| panic!("no seat {seat} in {:?}", self.seat_names()))
    }

    /// Every seat key.
    pub fn seat_names(&self) -> Vec<&str> {
        self.seats.iter().map(|(s, _)| s.as_str()).collect()
    }

    /// The seat's page on `server`.
    pub fn link(&self, server: &Server, seat: &str) -> String {
        format!("{}/t/{}#{}", server.base, self.id, self.token(seat))
    }
}

/// chromedriver on a free port (killed when dropped).
pub struct Driver {
    url: String,
    chromium: PathBuf,
    child: Child,
    profiles: Vec<tempfile::TempDir>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
        // A test that failed did not close its sessions, and killing
        // chromedriver leaves their browsers running: end the processes that
        // use this driver's profiles (by id; every profile is a fresh
        // temporary directory, so no other browser matches).
        let profiles: Vec<String> = self
            .profiles
            .iter()
            .map(|p| format!("--user-data-dir={}", p.path().display()))
            .collect();
        kill_browsers(&profiles);
    }
}

/// Kill (by process id) every process whose command line holds one of
/// `markers`. Linux only (reads /proc); elsewhere nothing happens.
fn kill_browsers(markers: &[String]) {
    if markers.is_empty() {
        return;
    }
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if markers.iter().any(|m| cmdline.contains(m.as_str())) {
            let _ = std::process::Command::new("kill")
                .arg("-9")
                .arg(pid.to_string())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
    }
}

/// Records every answer the page fetches and every WebSocket message it gets
/// (`window.__seen`), installed before the page's own scripts run.
const RECORDER: &str = r#"
(() => {
  const seen = [];
  Object.defineProperty(window, "__seen", { value: seen });
  const realFetch = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const r = await realFetch(...args);
    try { r.clone().text().then((t) => seen.push("fetch " + String(args[0]) + " " + t)); } catch (e) {}
    return r;
  };
  const RealWS = window.WebSocket;
  function RecordingWS(url, protocols) {
    const ws = protocols === undefined ? new RealWS(url) : new RealWS(url, protocols);
    ws.addEventListener("message", (ev) => seen.push("ws " + String(ev.data)));
    return ws;
  }
  RecordingWS.prototype = RealWS.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) RecordingWS[k] = RealWS[k];
  window.WebSocket = RecordingWS;
})();
"#;

/// A Chrome DevTools command through chromedriver
/// (`POST /session/{id}/goog/cdp/execute`).
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"cmd": self.cmd, "params": self.params}).to_string()),
        )
    }
}

impl Driver {
    /// Start chromedriver and wait (bounded) until it answers.
    pub async fn start(chromium: &Path, driver: &Path) -> Driver {
        let port = free_port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("chromedriver starts");
        let deadline = Instant::now() + WAIT;
        loop {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "chromedriver did not listen on port {port} within {WAIT:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Driver {
            url: format!("http://127.0.0.1:{port}"),
            chromium: chromium.to_path_buf(),
            child,
            profiles: Vec::new(),
        }
    }

    /// A new browser session (its own fresh profile) with a viewport of
    /// `width` x `height` CSS pixels, recording what its pages fetch.
    pub async fn session(&mut self, width: u32, height: u32) -> Client {
        let profile = tempfile::tempdir().expect("a profile directory");
        let args = vec![
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--no-default-browser-check".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-extensions".into(),
            "--disable-breakpad".into(),
            "--disable-crash-reporter".into(),
            "--disable-dev-shm-usage".into(),
            "--hide-scrollbars".into(),
            "--force-device-scale-factor=1".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        self.profiles.push(profile);
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert(
            "goog:chromeOptions".into(),
            json!({"binary": self.chromium.display().to_string(), "args": args}),
        );
        caps.insert("unhandledPromptBehavior".into(), json!("accept"));
        let mut builder =
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        builder.capabilities(caps);
        let client = tokio::time::timeout(WAIT, builder.connect(&self.url))
            .await
            .expect("Chromium starts within the wait")
            .expect("a WebDriver session");
        client
            .issue_cmd(Cdp {
                cmd: "Page.addScriptToEvaluateOnNewDocument",
                params: json!({"source": RECORDER}),
            })
            .await
            .expect("the recorder is installed");
        set_viewport(&client, width, height).await;
        client
    }
}

/// Make the page's viewport exactly `width` x `height` CSS pixels.
pub async fn set_viewport(client: &Client, width: u32, height: u32) {
    client
        .issue_cmd(Cdp {
            cmd: "Emulation.setDeviceMetricsOverride",
            params: json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}),
        })
        .await
        .expect("the viewport is set");
}

/// A screenshot of the whole page (beyond the viewport) as PNG.
pub async fn full_page_png(client: &Client) -> Vec<u8> {
    let v = client
        .issue_cmd(Cdp {
            cmd: "Page.captureScreenshot",
            params: json!({"format": "png", "captureBeyondViewport": true}),
        })
        .await
        .expect("a screenshot");
    let data = v["data"].as_str().expect("base64 PNG data");
    decode_base64(data)
}

fn decode_base64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        let Some(v) = val(c) else { continue };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    out
}

/// Poll `check` every 100 ms until it answers `Some`, at most [`WAIT`].
pub async fn until<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(
            Instant::now() < deadline,
            "timed out after {WAIT:?} waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Run a script in the page and return its value.
pub async fn js(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
}

/// The strings a page script returns as a list (empty when it returns
/// anything else; entries that are not strings are left out).
pub async fn js_strings(client: &Client, script: &str) -> Vec<String> {
    let v = js(client, script).await;
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// A number the page keeps on `<body data-...>` (`seq`, `logSeq`).
pub async fn body_number(client: &Client, key: &str) -> u64 {
    js(
        client,
        &format!("return Number(document.body.dataset.{key} || 0);"),
    )
    .await
    .as_u64()
    .unwrap_or(0)
}

/// Open a seat's link and wait until the page has drawn the table.
pub async fn open(client: &Client, link: &str) {
    client.goto(link).await.expect("the page loads");
    wait_ready(client).await;
}

/// Open the lobby of `server` and wait until its examples are listed.
pub async fn open_lobby(client: &Client, server: &Server) {
    client
        .goto(&format!("{}/", server.base))
        .await
        .expect("the lobby");
    until("the examples to load", || async {
        (js(
            client,
            "return !!document.querySelector('#example option[value=\"table\"]');",
        )
        .await
            == json!(true))
        .then_some(())
    })
    .await;
}

/// Wait until the page has drawn the table at least once.
pub async fn wait_ready(client: &Client) {
    until("the table page to draw", || async {
        (js(client, "return document.body.dataset.ready === 'true';").await == json!(true))
            .then_some(())
    })
    .await;
}

/// Wait until the page's log has reached `seq`.
pub async fn wait_log(client: &Client, seq: u64) {
    until(&format!("the log to reach #{seq}"), || async {
        (body_number(client, "logSeq").await >= seq).then_some(())
    })
    .await;
}

/// Wait until the page is not sending a command and say what the feedback is
/// (`ok`, `error`, or `answer` for a driver command such as `help`).
pub async fn feedback(client: &Client) -> (String, String) {
    until("the command's answer", || async {
        let v = js(
            client,
            "const f = document.getElementById('feedback'); \
             return [document.body.dataset.busy || 'false', f.dataset.kind || '', f.innerText];",
        )
        .await;
        let busy = v[0].as_str().unwrap_or("true");
        let kind = v[1].as_str().unwrap_or("").to_string();
        (busy == "false" && (kind == "ok" || kind == "error" || kind == "answer"))
            .then(|| (kind, v[2].as_str().unwrap_or("").to_string()))
    })
    .await
}

/// Clear the feedback so the next [`feedback`] waits for a new answer.
pub async fn clear_feedback(client: &Client) {
    js(
        client,
        "const f = document.getElementById('feedback'); f.dataset.kind = ''; f.replaceChildren();",
    )
    .await;
}

/// Type `text` into the command line and press Enter (the keyboard path);
/// answers the feedback.
pub async fn type_command(client: &Client, text: &str) -> (String, String) {
    clear_feedback(client).await;
    let input = client
        .find(Locator::Id("cmd"))
        .await
        .expect("the command line");
    input.clear().await.expect("cleared");
    input
        .send_keys(&format!("{text}\u{E007}"))
        .await
        .expect("typed");
    feedback(client).await
}

/// Use the control of the legal command `name`: fill its parameters
/// (`data-param` name -> value) and send it; answers the feedback.
pub async fn use_control(client: &Client, name: &str, values: &[(&str, &str)]) -> (String, String) {
    clear_feedback(client).await;
    let css = format!("#commands [data-command=\"{name}\"]");
    let control = until(&format!("the control of `{name}`"), || async {
        client.find(Locator::Css(&css)).await.ok()
    })
    .await;
    let tag = control.tag_name().await.expect("a tag");
    if tag == "div" {
        assert!(values.is_empty(), "`{name}` takes no parameters");
        control
            .find(Locator::Css("button"))
            .await
            .expect("its button")
            .click()
            .await
            .expect("clicked");
        return feedback(client).await;
    }
    // A <details>: open it, fill the inputs, submit.
    if control
        .attr("open")
        .await
        .expect("open attribute")
        .is_none()
    {
        control
            .find(Locator::Css("summary"))
            .await
            .expect("its summary")
            .click()
            .await
            .expect("opened");
    }
    for (param, value) in values {
        let input = control
            .find(Locator::Css(&format!("[data-param=\"{param}\"]")))
            .await
            .unwrap_or_else(|_| panic!("`{name}` has a parameter `{param}`"));
        if input.tag_name().await.expect("a tag") == "select" {
            input
                .select_by_value(value)
                .await
                .unwrap_or_else(|e| panic!("`{name}` `{param}` offers {value:?}: {e}"));
        } else {
            input.clear().await.expect("cleared");
            input.send_keys(value).await.expect("typed");
        }
    }
    control
        .find(Locator::Css("button[type=submit]"))
        .await
        .expect("its submit button")
        .click()
        .await
        .expect("clicked");
    feedback(client).await
}

/// The names of the commands the page offers now.
pub async fn offered(client: &Client) -> Vec<String> {
    js_strings(
        client,
        "return [...document.querySelectorAll('#commands .cmd')].map(c => c.dataset.command);",
    )
    .await
}

/// Everything the page fetched (HTTP answers and WebSocket messages) and its DOM.
pub async fn seen_and_dom(client: &Client) -> (String, String) {
    let v = js(
        client,
        "return [(window.__seen || []).join('\\n'), document.documentElement.outerHTML];",
    )
    .await;
    (
        v[0].as_str().unwrap_or("").to_string(),
        v[1].as_str().unwrap_or("").to_string(),
    )
}

/// Write `png` to NAME.png: in the repository's docs/screenshots/ when
/// `TABULA_UPDATE_SCREENSHOTS` is set (how the README's pictures are made:
/// `TABULA_UPDATE_SCREENSHOTS=1 cargo test -p tabula-web --test all -- browser::`), else
/// in the build's target directory, so a test run leaves the tree clean.
pub fn save_screenshot(name: &str, png: &[u8]) -> PathBuf {
    let dir = if std::env::var_os("TABULA_UPDATE_SCREENSHOTS").is_some() {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots")
    } else {
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots")
    };
    std::fs::create_dir_all(&dir).expect("the screenshots folder");
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, png).expect("the screenshot is written");
    path
}

/// A TCP proxy in front of the server whose connections the test can cut, to
/// drop the browser's connection (HTTP and WebSocket) and bring it back.
pub struct Proxy {
    /// `http://127.0.0.1:PORT` (the proxy's).
    pub base: String,
    down: std::sync::Arc<std::sync::atomic::AtomicBool>,
    conns: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
        self.cut();
    }
}

impl Proxy {
    /// Proxy to `server`.
    pub async fn start(server: &Server) -> Proxy {
        use std::sync::atomic::Ordering;
        let target = server.base.trim_start_matches("http://").to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free port");
        let addr = listener.local_addr().expect("its address");
        let down = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let conns: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>> =
            std::sync::Arc::default();
        let (d, c) = (down.clone(), conns.clone());
        let task = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if d.load(Ordering::SeqCst) {
                    drop(inbound);
                    continue;
                }
                let target = target.clone();
                let h = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                if let Ok(mut list) = c.lock() {
                    list.retain(|h| !h.is_finished());
                    list.push(h);
                }
            }
        });
        Proxy {
            base: format!("http://{addr}"),
            down,
            conns,
            task,
        }
    }

    /// Close every connection and refuse new ones until [`Proxy::restore`].
    pub fn cut(&self) {
        self.down.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Ok(mut list) = self.conns.lock() {
            for h in list.drain(..) {
                h.abort();
            }
        }
    }

    /// Accept connections again.
    pub fn restore(&self) {
        self.down.store(false, std::sync::atomic::Ordering::SeqCst);
    }
}
