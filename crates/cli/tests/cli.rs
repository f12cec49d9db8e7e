//! The `tabula` binary as a new user meets it: `systems`, `roll` and `odds`, their JSON,
//! and their refusals (stderr, exit code 2, no panic).

mod common;
use common::{stderr, stdout, tabula};

use serde_json::Value;

#[test]
fn systems_lists_the_five_ids() {
    let o = tabula(&["systems", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["sour-grapes", "scratch", "tiers", "bastards", "sapio"]
    );
}

#[test]
fn roll_with_a_seed_shows_every_die_kept_and_dropped_and_repeats() {
    let a = tabula(&["roll", "4d6kh3", "--seed", "7", "--json"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let v: Value = serde_json::from_str(&stdout(&a)).unwrap();
    let dice = v["root"]["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 4);
    let kept: Vec<&Value> = dice.iter().filter(|d| d["kept"] == true).collect();
    assert_eq!(kept.len(), 3);
    let kept_sum: i64 = kept.iter().map(|d| d["value"].as_i64().unwrap()).sum();
    assert_eq!(v["total"].as_i64().unwrap(), kept_sum);
    let b = tabula(&["roll", "4d6kh3", "--seed", "7", "--json"]);
    assert_eq!(stdout(&a), stdout(&b));
}

#[test]
fn roll_with_your_own_dice() {
    let o = tabula(&["roll", "3d6", "--rolled", "6,2,1", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["total"], 9);
    let text = tabula(&["roll", "3d6", "--rolled", "6,2,1"]);
    assert!(stdout(&text).contains('9'));
}

#[test]
fn roll_refuses_missing_and_impossible_values() {
    let short = tabula(&["roll", "3d6", "--rolled", "6,2"]);
    assert_eq!(short.status.code(), Some(2));
    assert!(
        stderr(&short).contains("need 1 more d6"),
        "{}",
        stderr(&short)
    );
    let nine = tabula(&["roll", "3d6", "--rolled", "6,2,9"]);
    assert_eq!(nine.status.code(), Some(2));
    assert!(
        stderr(&nine).contains("\"9\" is not a face of a d6"),
        "{}",
        stderr(&nine)
    );
    let extra = tabula(&["roll", "3d6", "--rolled", "6,2,1,4"]);
    assert_eq!(extra.status.code(), Some(2));
    assert!(stderr(&extra).contains("left over"), "{}", stderr(&extra));
}

#[test]
fn roll_refuses_huge_and_broken_notation_at_once() {
    let huge = tabula(&["roll", "100000000d6"]);
    assert_eq!(huge.status.code(), Some(2));
    assert!(!stderr(&huge).contains("panicked"));
    let broken = tabula(&["roll", "1d6kh"]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(stderr(&broken).contains("position"), "{}", stderr(&broken));
    assert!(!stderr(&broken).contains("panicked"));
}

#[test]
fn roll_reads_the_richer_notation_quoted_or_as_words() {
    let o = tabula(&["roll", "(1d4 + 1) * 2", "--rolled", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "(1d4 (3) + 1) * 2 = 8");
    let o = tabula(&["roll", "4d6ro<3kh3", "--rolled", "1,5,2,6,3,4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "4d6ro<3kh3 (1 -> 3 dropped, 5, 2 -> 4, 6) = 15"
    );
    let o = tabula(&["roll", "1d6e6 + 2", "--rolled", "6,6,2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "1d6e6 (6!, 6!, 2) + 2 = 16");
    // Unquoted, several words, flags after them; a leading minus; a comment.
    let o = tabula(&["roll", "2d6", "+", "1d4", "--rolled", "6,2,3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["notation"], "2d6 + 1d4");
    assert_eq!(v["total"], 11);
    assert_eq!(v["root"]["kind"], "binary");
    assert_eq!(v["root"]["rhs"]["dice"][0]["value"], 3);
    let o = tabula(&["roll", "-1d6", "-2", "--seed", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("-1d6 ("), "{}", stdout(&o));
    let o = tabula(&["roll", "1d20", "+", "5", "dex", "save", "--rolled", "12"]);
    assert_eq!(stdout(&o).trim(), "dex save: 1d20 (12) + 5 = 17");
}

#[test]
fn roll_refuses_nonsense_with_exit_code_2() {
    for (words, message) in [
        (&["4d6kh5"][..], "cannot keep 5 dice of 4 rolled"),
        (&["10d6>=1"], "every face of a d6 passes >=1"),
        (&["1d6rr<7"], "would never stop"),
        (&["1d6 / (1d2 - 1)"], "can be 0"),
        (&["1d6mi7"], "not a face"),
        (&["(1d6"], "position 4"),
    ] {
        let mut args = vec!["roll"];
        args.extend_from_slice(words);
        let o = tabula(&args);
        assert_eq!(o.status.code(), Some(2), "{words:?}");
        assert!(stderr(&o).contains(message), "{words:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
}

#[test]
fn odds_prints_a_table_and_the_exact_distribution() {
    let o = tabula(&["odds", "(1d4 + 1) * 2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("(1d4 + 1) * 2: mean 7.00 (exact)"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2 + 4);
    assert!(text.contains("   10      25.0%      25.0%  ####"), "{text}");

    let o = tabula(&["--json", "odds", "2d6", "+", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["expression"], "2d6 + 1");
    assert_eq!(v["exact"], true);
    assert!(v.get("truncation").is_none());
    assert!((v["mean"].as_f64().unwrap() - 8.0).abs() < 1e-12);
    let rows = v["distribution"].as_array().unwrap();
    assert_eq!(rows.len(), 11);
    assert_eq!(rows[0]["value"], 3);
    assert!((rows[5]["probability"].as_f64().unwrap() - 6.0 / 36.0).abs() < 1e-12);

    let o = tabula(&["--json", "odds", "1d6e6"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["exact"], false);
    assert_eq!(v["truncation"]["depth"], 20);
    assert!(v["truncation"]["mass"].as_f64().unwrap() > 0.0);

    let o = tabula(&["odds", "4d6kh5"]);
    assert_eq!(o.status.code(), Some(2));
    let o = tabula(&["odds", "3d6e6kh2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tabula(&["odds", "1d10000 * 1d10000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("too large"), "{}", stderr(&o));
}

/// Issue 30, item 5 and issue 28, item 10: the worst explode-then-keep
/// expressions come back, answered or refused with the size they would take
/// (the work itself is counted in tabula-core's `notation_caps` tests).
#[test]
fn issue_30_item_5_odds_of_the_worst_cases_answer_or_refuse() {
    for text in ["30d6e6kh15", "40d6e6kh20", "100d6e6kh50", "1000d20e20kl999"] {
        let o = tabula(&["odds", text]);
        assert_eq!(o.status.code(), Some(2), "{text}: {}", stdout(&o));
        assert!(stderr(&o).contains("too large"), "{text}: {}", stderr(&o));
        assert!(stderr(&o).contains("at least"), "{text}: {}", stderr(&o));
    }
    let o = tabula(&["odds", "1d20rr<20"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Issue 30: labels and a `#` comment are read, a comparison of totals is 1
/// or 0 and its odds give the chance of passing, and text that is not plain
/// words is refused rather than read as part of the roll.
#[test]
fn issue_30_roll_and_odds_read_labels_comparisons_and_refuse_misreads() {
    let o = tabula(&[
        "roll",
        "1d8 [slashing] + 2d6 [fire] # sword",
        "--rolled",
        "5,2,6",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "# sword: 1d8 (5) [slashing] + 2d6 (2, 6) [fire] = 13"
    );
    let o = tabula(&["roll", "1d20", "+", "5", ">=", "15", "--rolled", "12"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "1d20 (12) + 5 >= 15 = 1");
    let o = tabula(&["odds", "1d20 + 5 >= 15"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("1d20 + 5 >= 15: mean 0.55, chance of passing 55.00% (exact)"),
        "{}",
        stdout(&o)
    );
    let o = tabula(&["--json", "odds", "1d20 + 5 >= 15"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!((v["chance_of_passing"].as_f64().unwrap() - 0.55).abs() < 1e-12);
    let o = tabula(&["--json", "odds", "2d6"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v.get("chance_of_passing").is_none());
    let o = tabula(&["roll", "1d20 + 5 vs AC 15"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("position 9"), "{}", stderr(&o));
}

#[test]
fn roll_and_odds_read_roll20_and_foundry_with_dialect() {
    // Issue 30, item 3: Roll20's `>` is "at least"; the line names the dialect.
    let o = tabula(&[
        "roll",
        "--dialect",
        "roll20",
        "5d10>7f1",
        "--rolled",
        "7,1,10,3,2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "5d10>=7f=1 (7*, 1 failure, 10*, 3, 2) [1 success] = 1 (roll20)"
    );
    let o = tabula(&[
        "roll",
        "4d6k3",
        "--dialect",
        "foundry",
        "--rolled",
        "6,5,2,4",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["total"], 15);
    assert_eq!(v["dialect"], "foundry");
    // The same text in d20 is refused, never misread.
    let o = tabula(&["roll", "4d6k3", "--rolled", "6,5,2,4"]);
    assert_eq!(o.status.code(), Some(2));
    let o = tabula(&["odds", "--dialect", "roll20", "1d10>7", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["dialect"], "roll20");
    assert!((v["mean"].as_f64().unwrap() - 0.4).abs() < 1e-12);
    let o = tabula(&["odds", "--dialect", "roll20", "1d10>7"]);
    assert!(
        stdout(&o).starts_with("1d10>=7 (roll20): mean 0.40"),
        "{}",
        stdout(&o)
    );
    let o = tabula(&["odds", "--dialect", "avrae", "1d10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("roll20"), "{}", stderr(&o));
}
