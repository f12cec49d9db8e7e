//! Issue 30, item 5 and issue 28, item 10: every odds computation the
//! notation can start answers or refuses within a fixed budget of work,
//! counted by the computation itself (never timed).

use tabula_core::notation::{Expr, MAX_NOTATION_WORK};
use tabula_core::odds::OddsError;

/// The worst cases the issues list, and their neighbours.
const WORST: &[&str] = &[
    "30d6e6kh15",
    "40d6e6kh20",
    "100d6e6kh50",
    "1000d20e20kl999",
    "1000d20e20kh1",
    "1000d6e6dl500",
    "1000d6e6kh999",
    "20d10e10kl10",
    "1000d6e6",
    "1000d10000rr<9999",
    "1000d10000ro<9999",
    "1000d10000e10000",
    "1000d10000e>5000kh3",
    "1000d10000e10000ma5000",
    "1000d6e6kh500>=5",
    "1000d6e6k>3",
    "1000dFe1kh500",
    // d20's `ra` (issue 30, item 2): the dice with a flag, one more die.
    "1000d20ra20kh500",
    "1000d10000ra1",
    "1000d6ra6kl999",
    "1000d10000ro<9999ra5",
    "200d6ra6dl100",
    // Several keeps and drops: every multiset of faces, counted first.
    "100d20kh50kl10",
    "1000d6kh500pl1",
    "20d10kh5kl5",
];

#[test]
fn issue_30_item_5_the_worst_explode_then_keep_answer_or_refuse_within_the_budget() {
    for text in WORST {
        let expr = Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        match expr.odds() {
            Ok(o) => {
                eprintln!("{text}: answered, {} steps", o.work);
                assert!(o.work <= MAX_NOTATION_WORK, "{text}: {} steps", o.work);
            }
            Err(e) => {
                eprintln!("{text}: {e}");
                assert!(
                    matches!(
                        e,
                        OddsError::TooMuchWork { .. }
                            | OddsError::TooManyStates { .. }
                            | OddsError::TooLarge { .. }
                    ),
                    "{text}: {e}"
                );
            }
        }
    }
}

#[test]
fn issue_30_item_5_small_explode_then_keep_is_still_answered_and_its_work_counted() {
    for text in [
        "4d6e6kh3",
        "3d6e6kh2",
        "4d6e6dl1",
        "2d20e20kl1",
        "1d20rr<20",
    ] {
        let o = Expr::parse(text)
            .unwrap()
            .odds()
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(
            o.work > 0 && o.work <= MAX_NOTATION_WORK,
            "{text}: {}",
            o.work
        );
    }
}

#[test]
fn issue_30_item_5_a_refusal_names_the_steps_it_needs() {
    let err = Expr::parse("30d6e6kh15").unwrap().odds().unwrap_err();
    match err {
        OddsError::TooMuchWork { steps, max } => {
            assert_eq!(max, MAX_NOTATION_WORK);
            assert!(steps > max);
        }
        e => panic!("{e}"),
    }
    assert!(err.to_string().contains("steps"));
}

#[test]
fn issue_30_item_4_totals_lost_to_underflow_make_the_odds_inexact() {
    let o = Expr::parse("1000d6").unwrap().odds().unwrap();
    // Only the middle is listed: the tails underflowed.
    assert!(o.dist.len() < 5001);
    assert!(!o.exact);
    assert!(o.truncated_mass > 0.0 && o.truncated_mass < 1e-290);
    // Small sums and keeps list every total and stay exact.
    for text in ["10d6", "4d6kh3", "10d6>=5", "1d20rr<20", "100d6"] {
        let o = Expr::parse(text).unwrap().odds().unwrap();
        assert!(o.exact, "{text}");
        assert_eq!(o.truncated_mass, 0.0, "{text}");
    }
}
