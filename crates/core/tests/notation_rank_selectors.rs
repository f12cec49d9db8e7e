//! Issue 30, item 2: `d20`'s selectors by rank on rerolls and explosions
//! (`rrl1`, `rol1`, `eh1`). d20 1.1.2 reads them all; `rrh1` and `rrl1`
//! never stop there (a highest or lowest die always exists, so d20 fails
//! with "Too many dice rolled"), and Tabula does not read `ro` and `e` by
//! rank yet: each is refused with an error naming the modifier, never
//! misread and never a panic.

use tabula_core::notation::{Dialect, Expr, NotationError};

fn refused(text: &str) -> (String, String, usize) {
    match Expr::parse(text) {
        Err(NotationError::RankSelectorNotRead {
            modifier,
            reason,
            position,
        }) => (modifier, reason, position),
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn reroll_until_by_rank_is_refused_for_never_stopping() {
    let (m, reason, at) = refused("3d6rrl1");
    assert_eq!(m, "rrl1");
    assert_eq!(at, 5);
    assert!(reason.contains("never stops"), "{reason}");
    let (m, reason, _) = refused("1d20rrh2 + 5");
    assert_eq!(m, "rrh2");
    assert!(reason.contains("highest"), "{reason}");
    // Letters in any case.
    assert_eq!(refused("4D6RRL1").0, "rrl1");
}

#[test]
fn reroll_once_and_explode_by_rank_name_the_modifier() {
    let (m, reason, at) = refused("4d6rol1kh3");
    assert_eq!((m.as_str(), at), ("rol1", 5));
    assert!(reason.contains("rerolling once the lowest"), "{reason}");
    let (m, reason, _) = refused("2d6eh1");
    assert_eq!(m, "eh1");
    assert!(reason.contains("exploding the highest"), "{reason}");
    let msg = Expr::parse("1d6roh1").unwrap_err().to_string();
    assert!(msg.starts_with("`roh1`:"), "{msg}");
}

#[test]
fn tests_on_faces_are_unchanged_and_other_dialects_keep_their_errors() {
    for text in ["3d6rr1", "4d6ro<3kh3", "1d6e6", "2d6ro1ro2", "1d6e>5"] {
        Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    // Not d20's selector there: the dialect's own reading or error.
    for d in [Dialect::Roll20, Dialect::Foundry] {
        assert!(!matches!(
            Expr::parse_in("3d6rol1", d),
            Err(NotationError::RankSelectorNotRead { .. }) | Ok(_)
        ));
    }
}

#[test]
fn words_that_start_like_a_selector_stay_a_comment() {
    let e = Expr::parse("1d20 roll for stealth").unwrap();
    assert_eq!(e.comment(), Some("roll for stealth"));
    let e = Expr::parse("2d6 reroll lows").unwrap();
    assert_eq!(e.comment(), Some("reroll lows"));
}
