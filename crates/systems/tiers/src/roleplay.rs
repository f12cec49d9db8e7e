//! Roleplaying: rolls against a Goal, the Suggested Difficulty Curve, Competing
//! Rolls and PvP Rolls, out of combat (one d6) and in combat (Xd3, 1 AP each).
//!
//! The functions here are pure apart from the [`Roller`]; the table
//! ([`crate::table`]) calls them and writes their results into its events.

use serde::{Deserialize, Serialize};
use std::fmt;

use tabula_core::dice::{D3Mode, D3Roll, check_pool};
use tabula_core::{Die, RollError, Roller};

/// The largest Goal, Roleplay Bonus or Combat Point count one roll accepts
/// (Tabula's cap; the book's curve tops out at 12).
pub const MAX_NUMBER: u32 = 10_000;

/// The book's Suggested Difficulty Curve: a Goal by name.
///
/// Tiers, "Suggested Difficulty Curve" (002_631931fd73349179.txt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Difficulty {
    /// Goal 3.
    VeryEasy,
    /// Goal 4.
    Easy,
    /// Goal 5.
    KindOfHard,
    /// Goal 7.
    Hard,
    /// Goal 9.
    ExtremelyHard,
    /// Goal 10.
    Heroic,
    /// Goal 12.
    AlmostImpossible,
}

impl Difficulty {
    /// The curve, easiest first.
    pub const ALL: [Difficulty; 7] = [
        Difficulty::VeryEasy,
        Difficulty::Easy,
        Difficulty::KindOfHard,
        Difficulty::Hard,
        Difficulty::ExtremelyHard,
        Difficulty::Heroic,
        Difficulty::AlmostImpossible,
    ];

    /// The Goal: 3, 4, 5, 7, 9, 10, 12.
    pub fn goal(self) -> u32 {
        match self {
            Difficulty::VeryEasy => 3,
            Difficulty::Easy => 4,
            Difficulty::KindOfHard => 5,
            Difficulty::Hard => 7,
            Difficulty::ExtremelyHard => 9,
            Difficulty::Heroic => 10,
            Difficulty::AlmostImpossible => 12,
        }
    }

    /// The book's name, e.g. "Kind of Hard".
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::VeryEasy => "Very Easy",
            Difficulty::Easy => "Easy",
            Difficulty::KindOfHard => "Kind of Hard",
            Difficulty::Hard => "Hard",
            Difficulty::ExtremelyHard => "Extremely Hard",
            Difficulty::Heroic => "Heroic",
            Difficulty::AlmostImpossible => "Almost Impossible",
        }
    }

    /// The name as typed on a command line: lower case, hyphens for spaces
    /// (`kind-of-hard`); [`Difficulty::parse`] reads it back.
    pub fn typed(self) -> String {
        self.name().to_ascii_lowercase().replace(' ', "-")
    }

    /// Read a name in any case, with spaces, hyphens or underscores
    /// (`kind-of-hard`, `Kind of Hard`, `almost_impossible`).
    pub fn parse(text: &str) -> Option<Difficulty> {
        let key = |s: &str| -> String {
            s.chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .map(|c| c.to_ascii_lowercase())
                .collect()
        };
        let want = key(text);
        Difficulty::ALL.into_iter().find(|d| key(d.name()) == want)
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.goal())
    }
}

/// A Goal could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "goal {0:?}: give a number 0..={MAX_NUMBER} or a difficulty (very-easy 3, easy 4, kind-of-hard 5, hard 7, extremely-hard 9, heroic 10, almost-impossible 12)"
)]
pub struct GoalError(pub String);

/// Read a Goal: a number, or a difficulty name from the curve.
///
/// Tiers, "Asking for Rolls", "Suggested Difficulty Curve" (002_631931fd73349179.txt).
///
/// # Errors
/// [`GoalError`] for anything else.
pub fn parse_goal(text: &str) -> Result<u32, GoalError> {
    if let Ok(n) = text.trim().parse::<u32>() {
        return if n <= MAX_NUMBER {
            Ok(n)
        } else {
            Err(GoalError(text.to_string()))
        };
    }
    Difficulty::parse(text)
        .map(Difficulty::goal)
        .ok_or_else(|| GoalError(text.to_string()))
}

/// Which dice a roll uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum RollKind {
    /// Out of combat: one d6 ("Roleplay Bonus", "Asking for Rolls").
    OutOfCombat,
    /// In combat: `d3` three-sided dice, 1 AP each ("Roleplaying in Combat").
    InCombat {
        /// How many d3, 1..=[`tabula_core::dice::MAX_POOL`].
        d3: u32,
    },
}

/// One roll with every die shown: the d6 (out of combat) or the d3s (in combat),
/// the Roleplay Bonus and any Combat Points added, and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollResult {
    /// d6 faces rolled.
    pub d6: Vec<u32>,
    /// d3s rolled (with the d6 face when the table halves a d6).
    pub d3: Vec<D3Roll>,
    /// The Roleplay Bonus (or other flat bonus, or Combat Points) added; a
    /// one-off roll (`tabula tiers check`) may take a negative modifier (the
    /// book's Hinder: "These numbers may vary during combat due to the Help and
    /// Hinder Actions").
    pub bonus: i64,
    /// The total: every die plus the bonus.
    pub total: i64,
}

impl RollResult {
    /// The dice written out, e.g. `d6 [2] + 1 = 3` or `2d3 [1, 3] + 2 = 6`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.d6.is_empty() {
            parts.push(format!("{}d6 {:?}", self.d6.len(), self.d6));
        }
        if !self.d3.is_empty() {
            let faces: Vec<String> = self
                .d3
                .iter()
                .map(|r| match r.d6 {
                    Some(d6) => format!("{} (d6 {d6})", r.value),
                    None => r.value.to_string(),
                })
                .collect();
            parts.push(format!("{}d3 [{}]", self.d3.len(), faces.join(", ")));
        }
        if parts.is_empty() {
            parts.push("no dice".into());
        }
        let sign = if self.bonus < 0 { '-' } else { '+' };
        format!(
            "{} {sign} {} = {}",
            parts.join(" + "),
            self.bonus.unsigned_abs(),
            self.total
        )
    }

    /// The total as an amount of damage or healing (never below 0).
    pub fn amount(&self) -> u32 {
        u32::try_from(self.total.max(0)).unwrap_or(u32::MAX)
    }
}

/// A roll could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RollProblem {
    /// An in-combat roll needs at least one d3 (1 AP each).
    #[error("an in-combat roll takes at least 1d3 (1 AP per d3)")]
    NoDice,
    /// A number beyond the caps.
    #[error("{field} must be between {min} and {max}, not {got}")]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// The least allowed.
        min: i64,
        /// The cap.
        max: i64,
        /// The value given.
        got: i64,
    },
    /// The roller could not give a value.
    #[error(transparent)]
    Roll(#[from] RollError),
}

/// Roll `kind` and add `bonus`: d6 + bonus out of combat, Xd3 + bonus in combat.
///
/// Tiers, "Roleplay Bonus", "Roleplaying in Combat", "Dice" (002_631931fd73349179.txt).
///
/// # Errors
/// [`RollProblem`] for no dice, caps, or the roller.
pub fn roll(
    kind: RollKind,
    bonus: i64,
    mode: D3Mode,
    roller: &mut dyn Roller,
) -> Result<RollResult, RollProblem> {
    let cap = i64::from(MAX_NUMBER);
    if !(-cap..=cap).contains(&bonus) {
        return Err(RollProblem::OutOfRange {
            field: "bonus",
            min: -cap,
            max: cap,
            got: bonus,
        });
    }
    let (d6, d3) = match kind {
        RollKind::OutOfCombat => (vec![roller.roll(Die::D6)?], Vec::new()),
        RollKind::InCombat { d3: 0 } => return Err(RollProblem::NoDice),
        RollKind::InCombat { d3: n } => {
            check_pool(u64::from(n)).map_err(RollError::from)?;
            let mut rolls = Vec::with_capacity(n as usize);
            for _ in 0..n {
                rolls.push(mode.roll(roller)?);
            }
            (Vec::new(), rolls)
        }
    };
    // At most MAX_POOL dice of 6 faces and a bonus within MAX_NUMBER: no overflow.
    let total = d6
        .iter()
        .copied()
        .chain(d3.iter().map(|r| r.value))
        .fold(bonus, |t, v| t.saturating_add(i64::from(v)));
    Ok(RollResult {
        d6,
        d3,
        bonus,
        total,
    })
}

/// A roll against a Goal: success when the total meets or exceeds the Goal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckOutcome {
    /// True when `total >= goal`.
    pub success: bool,
    /// The Goal.
    pub goal: u32,
    /// The Goal's name on the curve, when it is one of the curve's numbers.
    pub difficulty: Option<Difficulty>,
    /// The roll, every die shown.
    pub roll: RollResult,
}

/// Roll against a Goal: "If the player meets or exceeds the goal, they succeed."
///
/// Tiers, "Asking for Rolls" (002_631931fd73349179.txt).
///
/// # Errors
/// As [`roll`], and a Goal above [`MAX_NUMBER`].
pub fn check(
    kind: RollKind,
    bonus: i64,
    goal: u32,
    mode: D3Mode,
    roller: &mut dyn Roller,
) -> Result<CheckOutcome, RollProblem> {
    if goal > MAX_NUMBER {
        return Err(RollProblem::OutOfRange {
            field: "goal",
            min: 0,
            max: i64::from(MAX_NUMBER),
            got: i64::from(goal),
        });
    }
    let roll = roll(kind, bonus, mode, roller)?;
    Ok(judge(roll, goal))
}

/// Judge a roll already made against `goal` (meet or beat).
///
/// Tiers, "Asking for Rolls" (002_631931fd73349179.txt).
pub fn judge(roll: RollResult, goal: u32) -> CheckOutcome {
    CheckOutcome {
        success: roll.total >= i64::from(goal),
        goal,
        difficulty: Difficulty::ALL.into_iter().find(|d| d.goal() == goal),
        roll,
    }
}

/// What the GM does on a tie of a Competing Roll ("Ties": "nothing happens or the
/// characters do another Roll, based on the GM's discretion").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieRule {
    /// Nothing happens.
    #[default]
    NothingHappens,
    /// Both roll again.
    RollAgain,
}

/// Who won a Competing Roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ContestResult {
    /// The first roller's total is higher (or they are the Defendant of a tied PvP Roll).
    First,
    /// The second roller's total is higher (or they are the Defendant of a tied PvP Roll).
    Second,
    /// Equal totals: nothing happens, or roll again, as the GM chose.
    Tie(TieRule),
}

/// The kind of contest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Contest {
    /// A Competing Roll: higher total does the thing; ties per [`TieRule`].
    Competing {
        /// What a tie does.
        tie: TieRule,
    },
    /// A Player-Versus-Player Roll: the Defendant wins ties.
    Pvp {
        /// True when the first roller is the Defendant (else the second is).
        first_defends: bool,
    },
}

/// Decide a contest from the two totals.
///
/// Tiers, "Competing Rolls", "Ties", "Defendants & Tied PvP Rolls" (002_631931fd73349179.txt).
pub fn contest(first: i64, second: i64, kind: Contest) -> ContestResult {
    use std::cmp::Ordering::*;
    match (first.cmp(&second), kind) {
        (Greater, _) => ContestResult::First,
        (Less, _) => ContestResult::Second,
        (Equal, Contest::Competing { tie }) => ContestResult::Tie(tie),
        (
            Equal,
            Contest::Pvp {
                first_defends: true,
            },
        ) => ContestResult::First,
        (
            Equal,
            Contest::Pvp {
                first_defends: false,
            },
        ) => ContestResult::Second,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::Scripted;

    #[test]
    fn curve_names_and_goals() {
        let goals: Vec<u32> = Difficulty::ALL.iter().map(|d| d.goal()).collect();
        assert_eq!(goals, vec![3, 4, 5, 7, 9, 10, 12]);
        assert_eq!(parse_goal("kind-of-hard"), Ok(5));
        assert_eq!(parse_goal("Almost Impossible"), Ok(12));
        assert_eq!(parse_goal("8"), Ok(8));
        assert!(parse_goal("tricky").is_err());
        assert!(parse_goal("99999").is_err());
    }

    /// "How to Roleplay": John rolls a 2 with a Roleplay Bonus of +1: total 3.
    #[test]
    fn johns_treasure_roll() {
        let mut r = Scripted::dice([2]);
        let out = check(RollKind::OutOfCombat, 1, 3, D3Mode::True, &mut r).unwrap();
        assert_eq!(out.roll.d6, vec![2]);
        assert_eq!(out.roll.total, 3);
        assert!(out.success);
        assert_eq!(out.difficulty, Some(Difficulty::VeryEasy));
        let mut r = Scripted::dice([2]);
        assert!(
            !check(RollKind::OutOfCombat, 1, 4, D3Mode::True, &mut r)
                .unwrap()
                .success
        );
    }

    /// "Competing Rolls": both roll a 2; John +1, Cristy +2: Cristy claims it.
    #[test]
    fn john_and_cristy_compete() {
        let mut r = Scripted::dice([2, 2]);
        let john = roll(RollKind::OutOfCombat, 1, D3Mode::True, &mut r).unwrap();
        let cristy = roll(RollKind::OutOfCombat, 2, D3Mode::True, &mut r).unwrap();
        assert_eq!((john.total, cristy.total), (3, 4));
        let tie = TieRule::NothingHappens;
        assert_eq!(
            contest(john.total, cristy.total, Contest::Competing { tie }),
            ContestResult::Second
        );
    }

    /// "Ties": both roll a 1 with +2: a tie, both drop the treasure (nothing happens).
    #[test]
    fn john_and_cristy_tie() {
        let mut r = Scripted::dice([1, 1]);
        let john = roll(RollKind::OutOfCombat, 2, D3Mode::True, &mut r).unwrap();
        let cristy = roll(RollKind::OutOfCombat, 2, D3Mode::True, &mut r).unwrap();
        assert_eq!(john.total, 3);
        // "Three was enough to not set off the trap" (a Goal of 3 is met).
        assert!(judge(john.clone(), 3).success);
        let tie = TieRule::NothingHappens;
        assert_eq!(
            contest(john.total, cristy.total, Contest::Competing { tie }),
            ContestResult::Tie(TieRule::NothingHappens)
        );
    }

    /// "Defendants & Tied PvP Rolls": Cristy steals from John; both roll 3 with
    /// +2; John is the Defendant and keeps the treasure.
    #[test]
    fn pvp_tie_goes_to_the_defendant() {
        let mut r = Scripted::dice([3, 3]);
        let cristy = roll(RollKind::OutOfCombat, 2, D3Mode::True, &mut r).unwrap();
        let john = roll(RollKind::OutOfCombat, 2, D3Mode::True, &mut r).unwrap();
        assert_eq!(
            contest(
                cristy.total,
                john.total,
                Contest::Pvp {
                    first_defends: false
                }
            ),
            ContestResult::Second
        );
    }

    #[test]
    fn in_combat_rolls_d3s_and_halves_d6s() {
        let mut r = Scripted::dice([1, 3]);
        let out = roll(RollKind::InCombat { d3: 2 }, 1, D3Mode::True, &mut r).unwrap();
        assert_eq!(out.total, 5);
        let mut r = Scripted::dice([1, 6]);
        let out = roll(RollKind::InCombat { d3: 2 }, 1, D3Mode::HalvedD6, &mut r).unwrap();
        assert_eq!(out.total, 1 + 3 + 1);
        assert_eq!(out.d3[1].d6, Some(6));
        assert!(out.describe().contains("(d6 6)"));
        let mut r = Scripted::dice([]);
        assert_eq!(
            roll(RollKind::InCombat { d3: 0 }, 1, D3Mode::True, &mut r),
            Err(RollProblem::NoDice)
        );
    }
}
