//! Unit tests of the policy's odds.

use super::*;
use crate::rolls::probability;
use tabula_core::names::same_name;

#[test]
fn the_odds_table_matches_the_rolls_module() {
    for method in D20Method::ALL {
        let o = DieOdds::of(method);
        for level in 0..6 {
            for modifier in [-2, 0, 2, 4] {
                for difficulty in 0..30 {
                    let mine = o.success(level, modifier, difficulty);
                    let theirs = probability(level, difficulty, modifier, method);
                    assert!(
                        (mine - theirs).abs() < 1e-12,
                        "{method:?} {level} {modifier} {difficulty}: {mine} vs {theirs}"
                    );
                }
            }
        }
    }
}

#[test]
fn seats_match_answers_as_same_seat() {
    let seats = [
        "gm", "GM", "alice", "Alice", "al ice", "Al_Ice", "bob", "héroes",
    ];
    for a in seats {
        for b in seats {
            let (a, b) = (Seat::parse(a), Seat::parse(b));
            assert_eq!(
                crate::state::seats_match(&a, &b),
                a.same_seat(&b),
                "{a:?} {b:?}"
            );
        }
    }
}

#[test]
fn names_match_answers_as_same_name() {
    let names = [
        "",
        "thug-1",
        "Thug-1",
        "THUG-1",
        "thug 1",
        "Thug_1",
        " thug  1 ",
        "thug",
        "heroes",
        "Heroes",
        "héroes",
        "HÉROES",
        "villains",
        "the-boss",
        "The Boss",
        "the_boss",
    ];
    for a in names {
        for b in names {
            assert_eq!(names_match(a, b), same_name(a, b), "{a:?} {b:?}");
        }
    }
}

#[test]
fn two_rolls_value_counts_damage_up_to_the_hit_points() {
    let r = Roll {
        ordinary: 0.5,
        automatic: 0.0,
        normal: 1,
        auto: 2,
    };
    let (e, out) = damage_value(&[r, r], 1);
    assert!((e - 0.75).abs() < 1e-12);
    assert!((out - 0.75).abs() < 1e-12);
    let (e, out) = damage_value(&[r], 3);
    assert!((e - 0.5).abs() < 1e-12);
    assert_eq!(out, 0.0);
}
