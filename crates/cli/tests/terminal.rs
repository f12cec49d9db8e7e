//! The interactive terminal as a person meets it, in a real terminal (tmux):
//! Up recalls the last command, history survives a restart, Tab completes a
//! name (quoting it), and an arrow key never reaches the table as text (issue
//! "One command language", part 3). `.ci/run` installs tmux when it is missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// One tmux server of our own (its own socket), killed on drop.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn new(tag: &str) -> Tmux {
        Tmux {
            socket: format!("tabula-test-{}-{tag}", std::process::id()),
        }
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs (install it: apt-get install tmux)");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn start(&self, dir: &Path, command: &str) {
        self.run(&[
            "new-session",
            "-d",
            "-x",
            "160",
            "-y",
            "40",
            "-c",
            dir.to_str().unwrap(),
            command,
        ]);
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "0"])
    }

    /// Wait (at most 20 s) until the screen's last prompt line satisfies `want`.
    fn wait_for(&self, what: &str, want: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            let last = screen
                .lines()
                .rfind(|l| l.starts_with('>'))
                .unwrap_or("")
                .trim_end()
                .to_string();
            if want(&last) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited 20 s for {what}; the screen is:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
#[ignore = "slow process-level test: `cargo test --workspace -- --include-ignored` (README; .ci/run) runs it"]
fn up_recalls_history_across_sessions_and_tab_completes_a_quoted_name() {
    let dir = std::env::temp_dir().join(format!("tabula-terminal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let history = dir.join("history");
    let _ = std::fs::remove_file(&history);
    let command = format!(
        "TABULA_HISTORY={} {} bastards play examples/bastards/table.toml --seed 1",
        history.display(),
        env!("CARGO_BIN_EXE_tabula")
    );

    let t = Tmux::new("a");
    t.start(&root(), &command);
    t.wait_for("the first prompt", |l| l == ">");
    t.keys(&["/status", "Enter"]);
    t.wait_for("the next prompt", |l| l == ">");
    // Up recalls the last command into the line.
    t.keys(&["Up"]);
    t.wait_for("Up to recall /status", |l| l == "> /status");
    t.keys(&["C-u"]);
    // Tab completes a character's name, quoted because it has a space.
    t.keys(&["fate The"]);
    t.wait_for("the typed text", |l| l == "> fate The");
    t.keys(&["Tab"]);
    t.wait_for("Tab to complete the name", |l| {
        l == "> fate \"The investor\""
    });
    t.keys(&["C-u", "/quit", "Enter"]);
    drop(t);

    // The history file holds the line, and a new session recalls it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !std::fs::read_to_string(&history)
        .unwrap_or_default()
        .contains("/status")
    {
        assert!(Instant::now() < deadline, "history was never written");
        std::thread::sleep(Duration::from_millis(100));
    }
    let t = Tmux::new("b");
    t.start(&root(), &command);
    t.wait_for("the first prompt", |l| l == ">");
    t.keys(&["Up"]);
    let screen = t.wait_for("Up to recall the last session's line", |l| {
        l.starts_with("> /")
    });
    assert!(
        !screen.contains("[A"),
        "an arrow key reached the screen as text:\n{screen}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `simulate` at a terminal shows a progress bar while it runs, then clears
/// it and prints the report (piped, it prints no bar: `tests/simulate.rs`).
#[test]
#[ignore = "slow process-level test: `cargo test --workspace -- --include-ignored` (README; .ci/run) runs it"]
fn simulate_shows_a_progress_bar_at_a_terminal() {
    let command = format!(
        "{} scratch simulate examples/scratch/table.toml --runs 3000 --seed 1 --threads 1; sleep 60",
        env!("CARGO_BIN_EXE_tabula")
    );
    let t = Tmux::new("simulate");
    t.start(&root(), &command);
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut saw_bar = false;
    loop {
        let screen = t.screen();
        if screen.contains("/3000 encounters") {
            saw_bar = true;
        }
        if screen.contains("Wins (95% interval)") {
            assert!(
                saw_bar,
                "the report came with no progress bar before it:\n{screen}"
            );
            assert!(
                !screen.contains("/3000 encounters"),
                "the bar was not cleared:\n{screen}"
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "waited 120 s for the report; the screen is:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
