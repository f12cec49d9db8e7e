//! `TextPlay::odds`: the chance of every dice choice in front of a seat, the
//! same numbers `status` prints, checked against brute force over every face.

mod common;

use common::*;
use tabula_core::{ChoiceOdds, Scripted, Seat, TextPlay};
use tabula_sour_grapes::SourGrapes;

/// Successes of one roll: tokens plus dice not showing 1 (R-SG-1), for every
/// one of the 6^dice faces.
fn all_successes(dice: u32, tokens: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for i in 0..6u64.pow(dice) {
        let mut x = i;
        let mut s = tokens;
        for _ in 0..dice {
            if x % 6 != 0 {
                s += 1;
            }
            x /= 6;
        }
        out.push(s);
    }
    out
}

/// Brute force: the chance of at least `need` successes.
fn brute_at_least(dice: u32, tokens: u32, need: u32) -> f64 {
    let all = all_successes(dice, tokens);
    all.iter().filter(|s| **s >= need).count() as f64 / all.len() as f64
}

/// Brute force: the chance that `dice` + `tokens` beats strictly a roll of
/// `sd` + `st` (a Dodge against the Stunt, R-SG-5).
fn brute_beat(dice: u32, tokens: u32, sd: u32, st: u32) -> f64 {
    let mine = all_successes(dice, tokens);
    let theirs = all_successes(sd, st);
    let wins: usize = mine
        .iter()
        .map(|a| theirs.iter().filter(|b| a > *b).count())
        .sum();
    wins as f64 / (mine.len() * theirs.len()) as f64
}

/// The percentages status prints after `marker` on the line holding it: `0d:0.0%
/// 1d:83.3% ...` up to the next `|`.
fn status_percent(status: &str, marker: &str, after: &str) -> Vec<String> {
    let line = status
        .lines()
        .find(|l| l.contains(marker))
        .unwrap_or_else(|| panic!("no {marker:?} in {status}"));
    let rest = &line[line.find(after).unwrap() + after.len()..];
    let rest = rest.split(" |").next().unwrap();
    rest.split_whitespace()
        .map(|w| w.split_once(':').unwrap().1.to_string())
        .collect()
}

fn percent(o: &ChoiceOdds) -> String {
    format!("{:.1}%", o.probability * 100.0)
}

/// Sour Grapes, "Situation" (000_05a1db5b88f54528.txt): the casino's final
/// Prestige + Fast Talking check at Difficulty 5. Sam is offered every dice
/// count 0..=Prestige 5 with the skill's 2 tokens, each the chance of more than
/// 5 successes (R-SG-1) by brute force and as status prints it; the storyteller,
/// with nothing to choose, gets nothing.
#[test]
fn odds_of_the_casino_final_check() {
    let mut t = table_from(TWO_SHEETS);
    let mut none = Scripted::dice([]);
    give(
        &mut t,
        "gm: situation 20 Prestige with Fast Talking as Hero",
        &mut none,
    );
    give(&mut t, "gm: difficulty 11", &mut none);
    give(&mut t, "gm: difficulty 5", &mut none);
    let sam = Seat::Player("Sam".into());
    let odds = SourGrapes::odds(t.state(), &sam);
    assert_eq!(odds.len(), 6, "{odds:?}");
    for (n, o) in odds.iter().enumerate() {
        assert_eq!(
            o.choice,
            format!("Hero: final check Prestige, {n} dice + 2 tokens")
        );
        let b = brute_at_least(n as u32, 2, 6);
        assert!((o.probability - b).abs() < 1e-9, "{o:?} vs {b}");
        assert!(o.detail.contains("more than the Difficulty 5"), "{o:?}");
    }
    let shown = status_percent(
        &SourGrapes::status(t.state(), &sam),
        "final check Prestige",
        "tokens 2: ",
    );
    assert_eq!(shown, odds.iter().map(percent).collect::<Vec<_>>());
    assert!(SourGrapes::odds(t.state(), &Seat::Gm).is_empty());
    // Between moments nobody has a roll in front of them.
    give(
        &mut t,
        "Sam: final 5 1",
        &mut Scripted::dice([6, 4, 5, 3, 2]),
    );
    assert!(SourGrapes::odds(t.state(), &sam).is_empty());
    assert!(SourGrapes::odds(t.state(), &Seat::Gm).is_empty());
}

/// Sour Grapes, "Turn Mechanics" step 4 and step 7 (000_05a1db5b88f54528.txt):
/// the Hero's Attack (value 1, R-SG-2) with Agility 5 and Swords 2, then the
/// Ogre's Dodge, which must beat the Stunt's 2 dice strictly (R-SG-5). Each
/// seat gets only its own character's choice; the other gets nothing.
#[test]
fn odds_of_an_attack_and_a_dodge() {
    let mut t = table_from(TWO_SHEETS);
    let mut none = Scripted::dice([]);
    give(&mut t, "gm: event", &mut none);
    give(
        &mut t,
        "Sam: initiative Agility 3",
        &mut Scripted::dice([4, 5, 6]),
    );
    give(
        &mut t,
        "gm: initiative Agility 2",
        &mut Scripted::dice([1, 3]),
    );
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    // Step 4: the Hero places the Success dice.
    let sam = Seat::Player("Sam".into());
    let odds = SourGrapes::odds(t.state(), &sam);
    // 0..=5 dice with the 2 tokens, then 0..=5 with none.
    assert_eq!(odds.len(), 12, "{odds:?}");
    for (i, o) in odds.iter().enumerate() {
        let (n, tokens) = if i < 6 { (i, 2) } else { (i - 6, 0) };
        let b = brute_at_least(n as u32, tokens, 1);
        assert!((o.probability - b).abs() < 1e-9, "{o:?} vs {b}");
        assert!(o.choice.starts_with("Hero: success on Attack, "), "{o:?}");
    }
    let status = SourGrapes::status(t.state(), &sam);
    let with = status_percent(&status, "success Hero Attack", "odds by dice]: ");
    let without = status_percent(&status, "success Hero Attack", "with no tokens: ");
    let mine: Vec<String> = odds.iter().map(percent).collect();
    assert_eq!(with, mine[..6]);
    assert_eq!(without, mine[6..]);
    assert!(SourGrapes::odds(t.state(), &Seat::Gm).is_empty());

    give(&mut t, "target Ogre success 2 result 3 1", &mut none);
    give(&mut t, "pass", &mut none);
    // Step 7: the Ogre (the storyteller's) may Dodge with Agility 2 and no
    // Athletics, against the Stunt's 2 dice.
    let odds = SourGrapes::odds(t.state(), &Seat::Gm);
    assert_eq!(odds.len(), 3, "{odds:?}");
    for (n, o) in odds.iter().enumerate() {
        let b = brute_beat(n as u32, 0, 2, 0);
        assert!((o.probability - b).abs() < 1e-9, "{o:?} vs {b}");
        assert_eq!(o.choice, format!("Ogre: react Dodge, {n} dice + 0 tokens"));
    }
    let shown = status_percent(
        &SourGrapes::status(t.state(), &Seat::Gm),
        "Ogre Dodge",
        "roll]: ",
    );
    assert_eq!(shown, odds.iter().map(percent).collect::<Vec<_>>());
    assert!(SourGrapes::odds(t.state(), &sam).is_empty());
}
