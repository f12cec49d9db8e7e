//! The `tabula` binary as a new user meets it: `systems` and `roll`, their JSON,
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
    let dice = v["terms"][0]["dice"].as_array().unwrap();
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
