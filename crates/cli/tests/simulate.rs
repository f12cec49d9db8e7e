//! `tabula <system> simulate` and `odds --chart` as a user runs them.

use std::path::PathBuf;
use std::process::Command;

fn tabula() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
}

fn example(system: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(system)
        .join("table.toml")
}

#[test]
fn simulate_prints_the_same_report_for_the_same_seed_with_intervals() {
    let run = |threads: &str| {
        let out = tabula()
            .args(["scratch", "simulate"])
            .arg(example("scratch"))
            .args(["--runs", "500", "--seed", "1", "--threads", threads])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Piped: no progress bar.
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let first = run("1");
    assert_eq!(first, run("2"));
    assert!(
        first.contains("500 encounters of Scratch RPS (seed 1)"),
        "{first}"
    );
    assert!(first.contains("Wins (95% interval)"), "{first}");
    assert!(first.contains("Rounds to the end: mean"), "{first}");
    assert!(first.contains("taken out"), "{first}");
}

#[test]
fn every_system_simulates_its_example_table_as_json_with_a_chart() {
    let dir = tempfile::tempdir().unwrap();
    for system in ["sour-grapes", "scratch", "tiers", "bastards", "sapio"] {
        let chart = dir.path().join(format!("{system}.svg"));
        let out = tabula()
            .args(["--json", system, "simulate"])
            .arg(example(system))
            .args(["--runs", "40", "--seed", "2", "--chart"])
            .arg(&chart)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{system}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["runs"], 40, "{system}");
        assert_eq!(report["failed"], 0, "{system}: {report}");
        assert!(report["sides"].as_array().is_some_and(|s| !s.is_empty()));
        let svg = std::fs::read_to_string(&chart).unwrap();
        assert!(svg.contains("<svg") && svg.contains("Win rate"), "{system}");
    }
}

#[test]
fn simulate_refuses_bad_options_with_the_flag_named() {
    let cases: [(&[&str], &str); 4] = [
        (&["--runs", "0"], "--runs"),
        (&["--policy", "Nobody=random"], "Nobody"),
        (&["--policy", "Chokestar=clever"], "clever"),
        (&["--override", "Goblins.count=3"], "Goblins"),
    ];
    for (args, named) in cases {
        let out = tabula()
            .args(["scratch", "simulate"])
            .arg(example("scratch"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(named), "{args:?}: {err}");
    }
    let out = tabula()
        .args(["scratch", "simulate"])
        .arg(example("scratch"))
        .args(["--runs", "5", "--chart", "report.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(".svg or .png"));
}

#[test]
fn odds_charts_are_drawn_for_every_system() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str]); 5] = [
        (
            "sour-grapes",
            &[
                "odds",
                "--dice",
                "3",
                "--tokens",
                "1",
                "--difficulty",
                "3",
                "--stat",
                "6",
            ],
        ),
        ("scratch", &["odds", "--level", "3", "--difficulty", "14"]),
        ("tiers", &["odds", "--bonus", "2", "--goal", "6"]),
        ("bastards", &["odds", "--trait", "5", "--rank", "2"]),
        ("sapio", &["odds", "--pool", "3", "--tn", "2"]),
    ];
    for (system, args) in cases {
        for ext in ["svg", "png"] {
            let chart = dir.path().join(format!("{system}.{ext}"));
            let out = tabula()
                .arg(system)
                .args(args)
                .arg("--chart")
                .arg(&chart)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{system}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let bytes = std::fs::read(&chart).unwrap();
            match ext {
                "svg" => {
                    let svg = String::from_utf8(bytes).unwrap();
                    assert!(svg.contains("chance of success"), "{system}");
                    // Every exact value is labelled.
                    assert!(svg.contains('%'), "{system}");
                }
                _ => assert!(bytes.starts_with(b"\x89PNG"), "{system}"),
            }
        }
    }
}

#[test]
fn dice_notation_odds_draw_the_chance_of_at_least_each_total() {
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("4d6kh3.svg");
    let out = tabula()
        .args(["odds", "4d6kh3", "--chart"])
        .arg(&chart)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&chart).unwrap();
    // P(at least 12) for 4d6 keep 3 is 61.7%; P(at least 18) 1.6%.
    assert!(
        svg.contains("61.7%") && svg.contains("1.6%"),
        "labels missing"
    );
}
