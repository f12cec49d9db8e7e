//! Checks: building the dice pool, the TN, rolling, success and degrees, net Spares
//! and Spirals, and Improbable Success.
//!
//! The Sapio System, "When to Roll", "Special Situations when Rolling"
//! (004_f39b4146df158cae.txt); R-SA-2, R-SA-3, R-SA-7.
//!
//! This module is arithmetic on counts of dice; which character element gave
//! which die is the business of [`crate::invoking`].

use crate::rules::{RULE_BONUS_PAST_SIX, RULE_WHEN_TO_ROLL};
use serde::{Deserialize, Serialize};
use tabula_core::{RollError, Roller};

use crate::spiral_dice::{self, Face, Symbols};

/// The most dice a pool may hold. "When to Roll".
pub const MAX_DICE: u32 = 6;
/// The dice steps 1 to 4 of building the pool can give: one to start, two from a
/// Profession, one from a Specialization, one from a Quality.
pub const MAX_BUILT: u32 = 5;
/// The GM's TN is between 1 and 5. "When to Roll".
pub const MAX_TN: u32 = 5;
/// Cap on bonus dice given to one check (a table limit, not the book's: far past
/// anything the book's sources of bonus dice can give).
pub const MAX_BONUS: u32 = 24;
/// Cap on automatic Hits, Spares or Spirals from Special Talents on one check.
pub const MAX_AUTO: u32 = 6;
/// Cap on Improbable Success rerolls (the rule stops by itself: with TN at most
/// 7 under R-SA-7, four double-Hit dice always meet it).
pub const MAX_IMPROBABLE_REROLLS: u32 = 8;

/// Everything that decides the pool and the TN of one check, as counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolSpec {
    /// Dice from steps 1 to 4 of building the pool (1..=[`MAX_BUILT`]; the CLI's
    /// `--pool` accepts up to six).
    pub built: u32,
    /// Bonus dice from step 5: Special Talents, help, Luck, Principle or Worst
    /// Impulse, especially helpful support (0..=[`MAX_BONUS`]).
    pub bonus: u32,
    /// The TN the GM set (0..=[`MAX_TN`]; 0 only arises from reductions).
    pub tn: u32,
    /// The largest applicable Injury or Stress penalty (0, 1 or 2); only the
    /// largest applies. "Injuries and Stresses"; R-SA-7 (may push the TN past 5).
    pub penalty: u32,
    /// A Special Talent's cap on the TN ("never more than 4"), if any.
    pub tn_cap: Option<u32>,
    /// A Special Talent's reduction of the TN.
    pub tn_reduction: u32,
}

/// Automatic symbols from Special Talents ("Special Talents": "generate automatic
/// Hits, Spares or Spirals").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoSymbols {
    /// Extra Hits added when the check succeeds (Deadly Aim: "one additional Hit if
    /// they succeed"); they add degrees of success, never make a failure succeed.
    pub hits_on_success: u32,
    /// Spares added to the roll.
    pub spares: u32,
    /// Spirals added to the roll.
    pub spirals: u32,
}

/// The pool and TN once the spec is settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pool {
    /// Dice to roll, 1..=6.
    pub dice: u32,
    /// The TN to meet, 0 or more (may pass 5 under R-SA-7).
    pub tn: u32,
    /// Bonus dice past six (R-SA-2).
    pub past_six: u32,
    /// How much the TN was lowered by bonus dice past six: each full two lower it
    /// by 1 (R-SA-2).
    pub tn_lowered_by_bonus: u32,
    /// A bonus die past six that was lost because it was odd (R-SA-2).
    pub bonus_lost: u32,
}

/// Settle the pool: steps 1 to 5 of "When you invoke a character element", the six
/// dice cap and R-SA-2, the Injury/Stress penalty (R-SA-7), a Special Talent's TN
/// cap and reduction.
///
/// Order of the TN: the GM's TN, plus the penalty, capped by a talent, minus a
/// talent's reduction, minus one per two bonus dice past six, never below 0.
pub fn settle(spec: &PoolSpec) -> Pool {
    let built = spec.built.clamp(1, MAX_DICE);
    let total = built.saturating_add(spec.bonus);
    let dice = total.min(MAX_DICE);
    let past_six = total.saturating_sub(MAX_DICE);
    let lowered = past_six / 2;
    let mut tn = spec.tn.saturating_add(spec.penalty);
    if let Some(cap) = spec.tn_cap {
        tn = tn.min(cap);
    }
    let tn = tn.saturating_sub(spec.tn_reduction).saturating_sub(lowered);
    Pool {
        dice,
        tn,
        past_six,
        tn_lowered_by_bonus: lowered,
        bonus_lost: past_six % 2,
    }
}

/// Net Spares or net Spirals after offsetting them. "When to Roll".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "count", rename_all = "kebab-case")]
pub enum Net {
    /// Neither remains.
    Even,
    /// This many Spares remain: the rolling player adds a beneficial twist.
    Spares(u32),
    /// This many Spirals remain: the GM adds a complication.
    Spirals(u32),
}

impl Net {
    /// Offset `spares` against `spirals`.
    pub fn of(spares: u32, spirals: u32) -> Net {
        if spares > spirals {
            Net::Spares(spares - spirals)
        } else if spirals > spares {
            Net::Spirals(spirals - spares)
        } else {
            Net::Even
        }
    }

    /// Spares minus Spirals.
    pub fn signed(self) -> i64 {
        match self {
            Net::Even => 0,
            Net::Spares(n) => i64::from(n),
            Net::Spirals(n) => -i64::from(n),
        }
    }

    /// The book's prompts for what this net may bring ("Net Spare", "Net Spiral").
    pub fn prompts(self) -> &'static [&'static str] {
        match self {
            Net::Even => &[],
            Net::Spares(_) => &NET_SPARE_PROMPTS,
            Net::Spirals(_) => &NET_SPIRAL_PROMPTS,
        }
    }
}

/// What net Spares may bring: the book's examples ("Net Spare"; the rolling player
/// says, the GM has the final say).
pub const NET_SPARE_PROMPTS: [&str; 10] = [
    "Someone becomes impressed or enamored",
    "Intentionally or unintentionally, the environment is altered",
    "An ally arrives just in time",
    "A foe flees or departs",
    "The character ends up in a good spot",
    "The situation is especially lucrative or advantageous",
    "A situation or piece of information is better than previously thought",
    "The character avoids attention",
    "An ally gains an advantage",
    "A foe is caught at a disadvantage",
];

/// What net Spirals may bring: the book's examples ("Net Spiral"; the GM says).
pub const NET_SPIRAL_PROMPTS: [&str; 10] = [
    "The character gains a foe",
    "The environment is altered",
    "A foe arrives or slips away",
    "An ally is put in jeopardy or harmed",
    "A foe gains an advantage",
    "The character or an ally is caught at a disadvantage",
    "A situation or piece of information is worse or different than previously thought",
    "A hard truth is revealed",
    "The character is given a hard choice",
    "A new threat or revelation surfaces",
];

/// A rolled check: every die of every roll, the counts and the outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRoll {
    /// The pool and TN rolled against.
    pub pool: Pool,
    /// Every roll in order: the first, then each Improbable Success reroll (one die
    /// more each time). R-SA-3.
    pub rolls: Vec<Vec<Face>>,
    /// The symbols of the last roll (the one that counts).
    pub rolled: Symbols,
    /// Automatic symbols from Special Talents.
    pub auto: AutoSymbols,
    /// Hits counted: the last roll's, plus a talent's Hits on success.
    pub hits: u32,
    /// Spares counted (rolled plus automatic).
    pub spares: u32,
    /// Spirals counted (rolled plus automatic).
    pub spirals: u32,
    /// Hits >= TN.
    pub success: bool,
    /// Hits beyond the TN (degrees of success); 0 on a failure.
    pub extra_hits: u32,
    /// Spares and Spirals offset.
    pub net: Net,
}

impl CheckRoll {
    /// True when an Improbable Success reroll happened.
    pub fn improbable(&self) -> bool {
        self.rolls.len() > 1
    }

    /// One line showing every die, the counts and the outcome.
    pub fn describe(&self) -> String {
        let rolls: Vec<String> = self
            .rolls
            .iter()
            .map(|r| {
                let faces: Vec<&str> = r.iter().map(|f| f.label()).collect();
                format!("[{}]", faces.join(" "))
            })
            .collect();
        let mut s = format!(
            "{} vs TN {}: {} Hit{}",
            rolls.join(" -> Improbable Success reroll "),
            self.pool.tn,
            self.hits,
            if self.hits == 1 { "" } else { "s" }
        );
        if self.success {
            s.push_str(&format!(", success (+{} extra)", self.extra_hits));
        } else {
            s.push_str(", failure");
        }
        match self.net {
            Net::Even => s.push_str(", Spares and Spirals even"),
            Net::Spares(n) => s.push_str(&format!(", net {n} Spare{}", plural(n))),
            Net::Spirals(n) => s.push_str(&format!(", net {n} Spiral{}", plural(n))),
        }
        s
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Roll a settled pool: count Hits against the TN, offset Spares and Spirals, and
/// take Improbable Success while every die shows two Hits and the TN is unmet
/// (R-SA-3: one more die each time, the pool may pass six). The player always
/// takes Improbable Success: it can only turn a failure into a success.
///
/// # Errors
/// Whatever the roller reports.
pub fn roll(
    pool: &Pool,
    auto: &AutoSymbols,
    roller: &mut dyn Roller,
) -> Result<CheckRoll, RollError> {
    roll_announced(pool, auto, roller, None)
}

/// [`roll`], first telling the roller whose roll each pool is and what for
/// ([`Roller::announce`]: a manual roller prompts "Wren, check against TN 3:
/// roll 4 Spiral Die"); each Improbable Success reroll is announced as such.
/// `who` is `(character, purpose)`; `None` announces nothing.
///
/// # Errors
/// Whatever the roller reports.
pub fn roll_announced(
    pool: &Pool,
    auto: &AutoSymbols,
    roller: &mut dyn Roller,
    who: Option<(&str, &str)>,
) -> Result<CheckRoll, RollError> {
    let announce = |roller: &mut dyn Roller, n: u32, reroll: bool| -> Result<(), RollError> {
        if let Some((name, what)) = who {
            let what = if reroll {
                format!("{what}, Improbable Success (R-SA-3)")
            } else {
                what.to_string()
            };
            roller.announce(name, &what, n, spiral_dice::spiral_die()?);
        }
        Ok(())
    };
    let mut dice = pool.dice.max(1);
    let mut rolls = Vec::new();
    announce(roller, dice, false)?;
    let mut faces = spiral_dice::roll_dice(dice, roller)?;
    let mut rerolls = 0;
    loop {
        let sym = spiral_dice::count(&faces);
        let all_double = !faces.is_empty() && faces.iter().all(|f| f.is_double_hit());
        let unmet = sym.hits < pool.tn;
        rolls.push(faces);
        if !(all_double && unmet) || rerolls >= MAX_IMPROBABLE_REROLLS {
            break;
        }
        rerolls += 1;
        dice += 1;
        announce(roller, dice, true)?;
        faces = spiral_dice::roll_dice(dice, roller)?;
    }
    let last = rolls
        .last()
        .map(|r| spiral_dice::count(r))
        .unwrap_or_default();
    Ok(outcome(*pool, rolls, last, *auto))
}

fn outcome(pool: Pool, rolls: Vec<Vec<Face>>, rolled: Symbols, auto: AutoSymbols) -> CheckRoll {
    let success = rolled.hits >= pool.tn;
    let hits = if success {
        rolled.hits.saturating_add(auto.hits_on_success)
    } else {
        rolled.hits
    };
    let spares = rolled.spares.saturating_add(auto.spares);
    let spirals = rolled.spirals.saturating_add(auto.spirals);
    CheckRoll {
        pool,
        rolls,
        rolled,
        auto,
        hits,
        spares,
        spirals,
        success,
        extra_hits: if success { hits - pool.tn } else { 0 },
        net: Net::of(spares, spirals),
    }
}

/// Why a check's numbers were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The pool built before bonus dice must be 1 to 6 dice.
    #[error("the pool must be 1 to {max} dice before bonus dice, not {got} [{rule}]", max = MAX_DICE, rule = RULE_WHEN_TO_ROLL)]
    Pool {
        /// The number given.
        got: u32,
    },
    /// The GM's TN is 1 to 5 (0 is allowed here for a roll made only for Spares and
    /// Spirals).
    #[error("the TN must be 0 to {max}, not {got} [{rule}]", max = MAX_TN, rule = RULE_WHEN_TO_ROLL)]
    Tn {
        /// The TN given.
        got: u32,
    },
    /// Too many bonus dice for one check (a table cap).
    #[error("at most {max} bonus dice, not {got} [{rule}]", max = MAX_BONUS, rule = RULE_BONUS_PAST_SIX)]
    Bonus {
        /// The number given.
        got: u32,
    },
    /// The Injury/Stress penalty is 0, 1 (Moderate) or 2 (Severe).
    #[error("the Injury or Stress penalty is 0, 1 or 2, not {got} [{rule}]", rule = crate::rules::RULE_PENALTY)]
    Penalty {
        /// The number given.
        got: u32,
    },
}

/// Check the numbers a one-shot check is given (`tabula sapio check`).
///
/// # Errors
/// Every [`CheckError`] that applies, first one returned.
pub fn validate(spec: &PoolSpec) -> Result<(), CheckError> {
    if spec.built == 0 || spec.built > MAX_DICE {
        return Err(CheckError::Pool { got: spec.built });
    }
    if spec.tn > MAX_TN {
        return Err(CheckError::Tn { got: spec.tn });
    }
    if spec.bonus > MAX_BONUS {
        return Err(CheckError::Bonus { got: spec.bonus });
    }
    if spec.penalty > 2 {
        return Err(CheckError::Penalty { got: spec.penalty });
    }
    Ok(())
}

/// The result of a one-shot check, as `tabula sapio check --json` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// What was asked.
    pub spec: PoolSpec,
    /// The roll, with every die.
    #[serde(flatten)]
    pub roll: CheckRoll,
    /// The book's prompts for the net Spares or Spirals.
    pub prompts: Vec<&'static str>,
}

/// A one-shot check: settle the pool, roll it.
///
/// # Errors
/// [`CheckFailure::Check`] for numbers out of range, [`CheckFailure::Roll`] for
/// dice the roller could not give.
pub fn check(spec: &PoolSpec, roller: &mut dyn Roller) -> Result<CheckReport, CheckFailure> {
    validate(spec).map_err(CheckFailure::Check)?;
    let pool = settle(spec);
    let roll = roll(&pool, &AutoSymbols::default(), roller).map_err(CheckFailure::Roll)?;
    Ok(CheckReport {
        spec: *spec,
        prompts: roll.net.prompts().to_vec(),
        roll,
    })
}

/// A one-shot check failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckFailure {
    /// The numbers were out of range.
    #[error(transparent)]
    Check(CheckError),
    /// The dice could not be rolled (typed faces wrong or missing).
    #[error(transparent)]
    Roll(RollError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::Scripted;

    fn spec(built: u32, bonus: u32, tn: u32) -> PoolSpec {
        PoolSpec {
            built,
            bonus,
            tn,
            ..PoolSpec::default()
        }
    }

    #[test]
    fn bonus_dice_fill_to_six_then_lower_the_tn_by_pairs() {
        // R-SA-2
        let p = settle(&spec(5, 1, 3));
        assert_eq!((p.dice, p.tn, p.past_six), (6, 3, 0));
        let p = settle(&spec(5, 2, 3));
        assert_eq!((p.dice, p.tn, p.bonus_lost), (6, 3, 1));
        let p = settle(&spec(5, 3, 3));
        assert_eq!((p.dice, p.tn, p.tn_lowered_by_bonus), (6, 2, 1));
        let p = settle(&spec(5, 6, 1));
        assert_eq!((p.dice, p.tn), (6, 0));
    }

    #[test]
    fn penalty_may_pass_five_and_talents_cap_and_reduce() {
        // R-SA-7
        let p = settle(&PoolSpec {
            penalty: 2,
            ..spec(1, 0, 5)
        });
        assert_eq!(p.tn, 7);
        let p = settle(&PoolSpec {
            penalty: 2,
            tn_cap: Some(4),
            ..spec(1, 0, 5)
        });
        assert_eq!(p.tn, 4);
        let p = settle(&PoolSpec {
            tn_reduction: 9,
            ..spec(1, 0, 2)
        });
        assert_eq!(p.tn, 0);
    }

    #[test]
    fn success_degrees_and_net() {
        let pool = settle(&spec(4, 0, 2));
        let mut r = Scripted::values(["HH", "H@", "@", "SS"]);
        let c = roll(&pool, &AutoSymbols::default(), &mut r).unwrap();
        assert!(c.success);
        assert_eq!(c.hits, 3);
        assert_eq!(c.extra_hits, 1);
        assert_eq!(c.net, Net::Even);
        let mut r = Scripted::values(["H", "blank", "S", "S"]);
        let c = roll(&pool, &AutoSymbols::default(), &mut r).unwrap();
        assert!(!c.success);
        assert_eq!(c.net, Net::Spares(2));
        assert_eq!(c.net.prompts().len(), 10);
    }

    #[test]
    fn talent_hits_count_only_on_success() {
        let pool = settle(&spec(1, 0, 1));
        let auto = AutoSymbols {
            hits_on_success: 1,
            spares: 2,
            spirals: 0,
        };
        let c = roll(&pool, &auto, &mut Scripted::values(["H@"])).unwrap();
        assert_eq!((c.hits, c.extra_hits, c.net), (2, 1, Net::Spares(1)));
        let c = roll(&pool, &auto, &mut Scripted::values(["blank"])).unwrap();
        assert_eq!((c.hits, c.success), (0, false));
    }

    #[test]
    fn improbable_success_adds_a_die_and_rerolls_until_not_all_double() {
        // R-SA-3: two dice both double Hits vs TN 5: reroll three, all double
        // again: 6 Hits meet it.
        let pool = settle(&spec(2, 0, 5));
        let mut r = Scripted::values(["HH", "HH@", "HH", "HH", "HH@"]);
        let c = roll(&pool, &AutoSymbols::default(), &mut r).unwrap();
        assert_eq!(c.rolls.len(), 2);
        assert!(c.success);
        assert_eq!(c.hits, 6);
        assert_eq!(c.spirals, 1);
        // Second roll not all double: stop, failure.
        let mut r = Scripted::values(["HH", "HH", "HH", "H", "blank"]);
        let c = roll(&pool, &AutoSymbols::default(), &mut r).unwrap();
        assert_eq!(c.rolls.len(), 2);
        assert!(!c.success);
        // Met on the first roll: no reroll.
        let pool = settle(&spec(2, 0, 4));
        let c = roll(
            &pool,
            &AutoSymbols::default(),
            &mut Scripted::values(["HH", "HH"]),
        )
        .unwrap();
        assert_eq!(c.rolls.len(), 1);
    }

    #[test]
    fn one_shot_check_refuses_bad_numbers() {
        let mut r = Scripted::values(["H"]);
        assert!(matches!(
            check(&spec(7, 0, 1), &mut r),
            Err(CheckFailure::Check(CheckError::Pool { got: 7 }))
        ));
        assert!(matches!(
            check(&spec(1, 0, 6), &mut r),
            Err(CheckFailure::Check(CheckError::Tn { got: 6 }))
        ));
        assert!(check(&spec(1, 0, 1), &mut r).unwrap().roll.success);
    }
}
