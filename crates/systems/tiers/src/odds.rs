//! Exact odds: a roll against a Goal (d6 or N d3, plus a bonus), a Competing
//! Roll, and the damage of an enemy's bought Rolls.
//!
//! A halved d6 gives each d3 face with chance 1/3, the same as a true d3, so the
//! table's [`tabula_core::D3Mode`] does not change any odds.

use serde::Serialize;

use crate::character::Stat;
use crate::content::{ActionEffect, When};
use crate::roleplay::{Contest, ContestResult, RollKind, TieRule, contest};
use crate::state::{Mode, Pending, Phase, State};
use tabula_core::odds::{Dist, OddsError};
use tabula_core::{ChoiceOdds, Seat};

/// The distribution of one roll's total: d6 + bonus, or Nd3 + bonus.
///
/// Tiers, "Roleplay Bonus", "Roleplaying in Combat", "Dice" (002_631931fd73349179.txt).
///
/// # Errors
/// [`OddsError::TooLarge`] past the core caps.
pub fn total(kind: RollKind, bonus: i64) -> Result<Dist, OddsError> {
    let dice = match kind {
        RollKind::OutOfCombat => Dist::die(6)?,
        RollKind::InCombat { d3 } => {
            tabula_core::dice::check_pool(u64::from(d3)).map_err(|_| OddsError::TooLarge {
                max: tabula_core::odds::MAX_OUTCOMES,
            })?;
            Dist::die(3)?.sum_of(d3)?
        }
    };
    Ok(dice.shift(bonus))
}

/// The odds of a roll against a Goal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckOdds {
    /// The chance the total meets or exceeds the Goal, exact, 0..=1.
    pub probability: f64,
    /// The Goal.
    pub goal: u32,
    /// The bonus added (may be negative).
    pub bonus: i64,
    /// d3s rolled (in combat), or none (one d6 out of combat).
    pub d3: Option<u32>,
    /// The smallest and largest totals.
    pub range: (i64, i64),
    /// The mean total.
    pub mean: f64,
}

/// The chance that a roll of `kind` plus `bonus` meets or exceeds `goal`.
///
/// Tiers, "Asking for Rolls" (002_631931fd73349179.txt).
///
/// # Errors
/// [`OddsError::TooLarge`] past the core caps.
pub fn check(kind: RollKind, bonus: i64, goal: u32) -> Result<CheckOdds, OddsError> {
    let d = total(kind, bonus)?;
    Ok(CheckOdds {
        probability: d.p_at_least(i64::from(goal)),
        goal,
        bonus,
        d3: match kind {
            RollKind::OutOfCombat => None,
            RollKind::InCombat { d3 } => Some(d3),
        },
        range: d.range(),
        mean: d.mean(),
    })
}

/// The odds of a Competing (or PvP) Roll.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContestOdds {
    /// The chance the first roller wins (for PvP, ties counted for the Defendant).
    pub probability: f64,
    /// The chance the second roller wins.
    pub second: f64,
    /// The chance of a tie that nothing or a re-roll settles (0 for PvP).
    pub tie: f64,
}

/// The odds of a contest between two independent totals.
///
/// Tiers, "Competing Rolls", "Defendants & Tied PvP Rolls" (002_631931fd73349179.txt).
///
/// # Errors
/// [`OddsError::TooLarge`] past the core caps.
pub fn contest_odds(first: &Dist, second: &Dist, kind: Contest) -> Result<ContestOdds, OddsError> {
    let d = first.combine(second, |a, b| {
        let r = contest(*a, *b, kind);
        match r {
            ContestResult::First => 0i64,
            ContestResult::Second => 1,
            ContestResult::Tie(_) => 2,
        }
    })?;
    Ok(ContestOdds {
        probability: d.p(&0),
        second: d.p(&1),
        tie: d.p(&2),
    })
}

/// The distribution of an enemy's bought Rolls used for damage: `d6` d6 plus `d3`
/// d3 plus `combat_points`.
///
/// Tiers, "Creating Combat", "Enemy Behavior" (002_631931fd73349179.txt).
///
/// # Errors
/// [`OddsError::TooLarge`] past the core caps.
pub fn damage(d6: u32, d3: u32, combat_points: u32) -> Result<Dist, OddsError> {
    rolls(d6, d3, i64::from(combat_points))
}

/// The distribution of `d6` d6 plus `d3` d3 plus `plus`: an enemy's Rolls and
/// Combat Points, or a player's Action roll with its flat amount and bonus.
///
/// Tiers, "Dice", "Actions", "Creating Combat" (002_631931fd73349179.txt).
///
/// # Errors
/// [`OddsError::TooLarge`] past the core caps.
pub fn rolls(d6: u32, d3: u32, plus: i64) -> Result<Dist, OddsError> {
    for n in [d6, d3] {
        tabula_core::dice::check_pool(u64::from(n)).map_err(|_| OddsError::TooLarge {
            max: tabula_core::odds::MAX_OUTCOMES,
        })?;
    }
    Ok(Dist::die(6)?
        .sum_of(d6)?
        .add(&Dist::die(3)?.sum_of(d3)?)?
        .shift(plus))
}

/// The default tie rule used where a contest's odds need one.
pub const DEFAULT_TIE: TieRule = TieRule::NothingHappens;

/// The most raises of one kind (d6, d3 or Combat Points) offered for one
/// answer; the list of a kind stops earlier, at the first raise that makes the
/// enemy sure to win.
pub const MAX_RAISES_OFFERED: u32 = 64;

/// What a tie does, in words.
fn tie_words(tie: TieRule) -> &'static str {
    match tie {
        TieRule::NothingHappens => "nothing happens",
        TieRule::RollAgain => "both roll again",
    }
}

/// `2d6 + 1d3 + 2`, the dice of a roll in the book's notation.
fn dice_words(d6: u32, d3: u32, plus: i64) -> String {
    let mut parts = Vec::new();
    if d6 > 0 {
        parts.push(format!("{d6}d6"));
    }
    if d3 > 0 {
        parts.push(format!("{d3}d3"));
    }
    if plus != 0 || parts.is_empty() {
        parts.push(plus.to_string());
    }
    parts.join(" + ")
}

/// The odds of every choice in front of `seat` now, each the chance of winning
/// a Competing Roll:
///
/// - the GM, while a player's roll against an enemy waits for the answer: each
///   answer (no raise; raising by 1, 2, ... d3, d6 or Combat Points from the
///   Rolls left, each kind up to the first raise that is sure to win), the
///   chance the enemy's total is higher than the player's;
/// - in combat, for each character the seat plays (a player's own, the GM's
///   NPC allies) that is up and not waiting: rolling against an enemy
///   (`roleplay STAT D3 vs ENEMY`) with each Stat and 1 d3 per AP left, the
///   chance of beating the enemy's free 1d3 before the GM raises it (up to the
///   first d3 count that is sure to win); and each
///   Action that triggers a Competing Roll (`compete`), at each enemy it may
///   reach, the chance of beating the enemy's 1d3.
///
/// Out of combat no roll waits (the GM names the Goal in the `roll` command
/// itself), and Actions that deal damage, heal or move always land: nothing.
/// `status` prints the same list.
///
/// Tiers, "Roleplaying in Combat", "Competing Rolls", "Ties", "Roleplaying
/// Against Enemies", "Enemy Behavior", "Actions" (002_631931fd73349179.txt);
/// R-TI-4.
pub fn choices(s: &State, seat: &Seat) -> Vec<ChoiceOdds> {
    let mut out = Vec::new();
    if s.closed {
        return out;
    }
    if let Some(p) = &s.pending {
        if seat.is_gm() {
            answer_choices(s, p, &mut out);
        }
        return out;
    }
    let Mode::Combat { phase, .. } = s.mode else {
        return out;
    };
    for (i, h) in s.heroes.iter().enumerate() {
        let prefix = match seat {
            Seat::Gm if h.ally => format!("{} ", tabula_core::grammar::quote(h.name())),
            Seat::Player(name) if !h.ally && s.hero(name) == Some(i) => String::new(),
            _ => continue,
        };
        hero_choices(s, i, phase, &prefix, &mut out);
    }
    out
}

/// The GM's answers to a waiting Competing Roll.
fn answer_choices(s: &State, p: &Pending, out: &mut Vec<ChoiceOdds>) {
    let Ok(hero) = total(RollKind::InCombat { d3: p.d3 }, i64::from(p.bonus)) else {
        return;
    };
    let hero_name = s.heroes.get(p.hero).map_or("?", |h| h.name());
    let enemy_name = s.enemies.get(p.enemy).map_or("?", |x| x.name.as_str());
    let left = s.rolls_left();
    let mut offer = |d6: u32, d3: u32, cp: u32| -> bool {
        let Some(free_d3) = d3.checked_add(1) else {
            return true;
        };
        let Ok(enemy) = rolls(d6, free_d3, i64::from(cp)) else {
            return true;
        };
        let Ok(o) = contest_odds(&enemy, &hero, Contest::Competing { tie: s.options.tie }) else {
            return true;
        };
        let mut choice = String::from("answer");
        for (key, n) in [("d6", d6), ("d3", d3), ("cp", cp)] {
            if n > 0 {
                choice.push_str(&format!(" {key}={n}"));
            }
        }
        out.push(ChoiceOdds {
            choice,
            probability: o.probability.clamp(0.0, 1.0),
            detail: format!(
                "{enemy_name}'s {} beats {hero_name}'s {} ({}); a tie ({:.1}%): {}",
                dice_words(d6, free_d3, i64::from(cp)),
                dice_words(0, p.d3, i64::from(p.bonus)),
                p.about,
                o.tie * 100.0,
                tie_words(s.options.tie)
            ),
        });
        o.probability >= 1.0
    };
    offer(0, 0, 0);
    for n in 1..=left.d3.min(MAX_RAISES_OFFERED) {
        if offer(0, n, 0) {
            break;
        }
    }
    for n in 1..=left.d6.min(MAX_RAISES_OFFERED) {
        if offer(n, 0, 0) {
            break;
        }
    }
    for n in 1..=left.combat_points.min(MAX_RAISES_OFFERED) {
        if offer(0, 0, n) {
            break;
        }
    }
}

/// One character's Competing Rolls against enemies.
fn hero_choices(s: &State, i: usize, phase: Phase, prefix: &str, out: &mut Vec<ChoiceOdds>) {
    let Some(h) = s.heroes.get(i) else {
        return;
    };
    if !h.up() {
        return;
    }
    let Ok(free) = total(RollKind::InCombat { d3: 1 }, 0) else {
        return;
    };
    let tie = s.options.tie;
    let standing: Vec<usize> = s
        .enemies
        .iter()
        .enumerate()
        .filter(|(_, x)| x.standing())
        .map(|(e, _)| e)
        .collect();
    if standing.is_empty() {
        return;
    }
    // "Roleplaying in Combat", "Roleplaying Against Enemies": 1 AP per d3.
    if phase == Phase::Player {
        for stat in Stat::ALL {
            let bonus = h.character.roleplay_bonus(stat);
            for d3 in 1..=h.ap {
                let Ok(mine) = total(RollKind::InCombat { d3 }, i64::from(bonus)) else {
                    continue;
                };
                let Ok(o) = contest_odds(&mine, &free, Contest::Competing { tie }) else {
                    continue;
                };
                let sure = o.probability >= 1.0;
                out.push(ChoiceOdds {
                    choice: format!("{prefix}roleplay {} {d3} vs an enemy", stat.key()),
                    probability: o.probability.clamp(0.0, 1.0),
                    detail: format!(
                        "{} beats the enemy's free 1d3 (before the GM raises it); a tie ({:.1}%): {}",
                        dice_words(0, d3, i64::from(bonus)),
                        o.tie * 100.0,
                        tie_words(tie)
                    ),
                });
                // More d3 cost more AP and cannot do better than sure.
                if sure {
                    break;
                }
            }
        }
    }
    // Actions that trigger a Competing Roll (R-TI-4): the roll plus the
    // Action's Stat's Roleplay Bonus against the enemy's 1d3.
    for a in s.catalog.actions.iter().filter(|a| {
        a.effect == ActionEffect::Compete
            && a.ap <= h.ap
            && h.character.stat(a.stat).has_tier(a.tier)
            && (phase == Phase::Player || a.when == When::AnyPhase)
    }) {
        let plus = i64::from(a.flat).saturating_add(i64::from(h.character.roleplay_bonus(a.stat)));
        let Ok(mine) = rolls(a.d6, a.d3, plus) else {
            continue;
        };
        let Ok(o) = contest_odds(&mine, &free, Contest::Competing { tie }) else {
            continue;
        };
        for &e in &standing {
            let Some(x) = s.enemies.get(e) else { continue };
            if h.ensnared_by.is_some_and(|armor| armor != e)
                || !crate::combat::reach_ok(s, a.reach, h.zone, x.zone)
            {
                continue;
            }
            out.push(ChoiceOdds {
                choice: format!(
                    "{prefix}act {} on {}",
                    tabula_core::grammar::quote(&a.name),
                    tabula_core::grammar::quote(&x.name)
                ),
                probability: o.probability.clamp(0.0, 1.0),
                detail: format!(
                    "{} beats {}'s 1d3 (without Cover); a tie ({:.1}%): {}",
                    dice_words(a.d6, a.d3, plus),
                    x.name,
                    o.tie * 100.0,
                    tie_words(tie)
                ),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Brute force: every face of every die, counted.
    fn enumerate(d6: u32, d3: u32) -> Vec<i64> {
        let mut totals = vec![0i64];
        for _ in 0..d6 {
            totals = totals
                .iter()
                .flat_map(|t| (1..=6).map(move |f| t + f))
                .collect();
        }
        for _ in 0..d3 {
            totals = totals
                .iter()
                .flat_map(|t| (1..=3).map(move |f| t + f))
                .collect();
        }
        totals
    }

    #[test]
    fn check_odds_match_enumeration() {
        // Negative bonuses too: a Hinder lowers a roll.
        for bonus in -3..=6i64 {
            for goal in 0..=14u32 {
                let all = enumerate(1, 0);
                let want = all
                    .iter()
                    .filter(|t| **t + bonus >= i64::from(goal))
                    .count() as f64
                    / all.len() as f64;
                let got = check(RollKind::OutOfCombat, bonus, goal)
                    .unwrap()
                    .probability;
                assert!(close(got, want), "d6+{bonus} vs {goal}");
                for n in 1..=5u32 {
                    let all = enumerate(0, n);
                    let want = all
                        .iter()
                        .filter(|t| **t + bonus >= i64::from(goal))
                        .count() as f64
                        / all.len() as f64;
                    let got = check(RollKind::InCombat { d3: n }, bonus, goal)
                        .unwrap()
                        .probability;
                    assert!(close(got, want), "{n}d3+{bonus} vs {goal}");
                }
            }
        }
    }

    #[test]
    fn contest_odds_match_enumeration() {
        let a = total(RollKind::OutOfCombat, 1).unwrap();
        let b = total(RollKind::OutOfCombat, 2).unwrap();
        let (mut win, mut lose, mut tie) = (0, 0, 0);
        for x in 1..=6 {
            for y in 1..=6 {
                match (x + 1).cmp(&(y + 2)) {
                    std::cmp::Ordering::Greater => win += 1,
                    std::cmp::Ordering::Less => lose += 1,
                    std::cmp::Ordering::Equal => tie += 1,
                }
            }
        }
        let o = contest_odds(&a, &b, Contest::Competing { tie: DEFAULT_TIE }).unwrap();
        assert!(close(o.probability, f64::from(win) / 36.0));
        assert!(close(o.second, f64::from(lose) / 36.0));
        assert!(close(o.tie, f64::from(tie) / 36.0));
        let pvp = contest_odds(
            &a,
            &b,
            Contest::Pvp {
                first_defends: true,
            },
        )
        .unwrap();
        assert!(close(pvp.probability, f64::from(win + tie) / 36.0));
        assert!(close(pvp.tie, 0.0));
    }

    #[test]
    fn damage_of_bought_rolls_matches_enumeration() {
        let d = damage(2, 3, 1).unwrap();
        let all = enumerate(2, 3);
        for v in 0..=40i64 {
            let want = all.iter().filter(|t| **t + 1 == v).count() as f64 / all.len() as f64;
            assert!(close(d.p(&v), want));
        }
        assert!(close(d.mean(), 7.0 + 6.0 + 1.0));
    }

    #[test]
    fn caps_refuse() {
        assert!(total(RollKind::InCombat { d3: 1_000_000 }, 0).is_err());
        assert!(damage(5000, 0, 0).is_err());
    }
}
