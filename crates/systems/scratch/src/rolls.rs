//! Rolls: a twenty-sided die (or its d6 alternatives, R-SCR-6) plus an ability
//! level and modifiers against a difficulty; a natural 20 always succeeds.
//! Exact odds of a roll and of each damage outcome of an attack.

use serde::{Deserialize, Serialize};
use tabula_core::odds::{Dist, OddsError};
use tabula_core::{Die, Roller, RuleError};

use crate::rules::{self, D20Method, MAX_LEVEL_CAP};

/// The largest difficulty or modifier (in absolute value) a one-shot roll takes.
pub const MAX_NUMBER: i64 = 1_000;

/// The 6 x 6 lookup table of the d6 alternative (R-SCR-6): row = first d6,
/// column = second d6. It is symmetric, so the order of two dice rolled at once
/// does not matter; 4, 7, 14 and 17 have one cell each, every other number two.
pub const D6_TABLE: [[u32; 6]; 6] = [
    [1, 2, 3, 9, 5, 11],
    [2, 4, 6, 8, 10, 13],
    [3, 6, 7, 12, 15, 18],
    [9, 8, 12, 14, 20, 16],
    [5, 10, 15, 20, 17, 19],
    [11, 13, 18, 16, 19, 1],
];

/// One roll of "a twenty-sided die" by the table's method, with every die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct D20Roll {
    /// How it was rolled.
    pub method: D20Method,
    /// Every die rolled (one d20, or d6s), in order.
    pub dice: Vec<u32>,
    /// The number it stands for: 1..=20 (0..=20 for `d6x4`).
    pub value: u32,
    /// True when it is an automatic success (a natural 20, or its d6 equivalent).
    pub automatic: bool,
}

fn d6_table(row: u32, column: u32) -> u32 {
    D6_TABLE
        .get(row.saturating_sub(1) as usize)
        .and_then(|r| r.get(column.saturating_sub(1) as usize))
        .copied()
        .unwrap_or(1)
}

/// Roll one "twenty-sided die" by `method`.
///
/// "Rolls" (001_337b5a42e331e513.txt); R-SCR-6 for the d6 methods.
///
/// # Errors
/// The roller's error (a manual value that is not a face, a script that ran out).
pub fn roll_d20(method: D20Method, roller: &mut dyn Roller) -> Result<D20Roll, RuleError> {
    Ok(match method {
        D20Method::D20 => {
            let v = roller.roll(Die::D20)?;
            D20Roll {
                method,
                dice: vec![v],
                value: v,
                automatic: v == 20,
            }
        }
        D20Method::D6Table => {
            let a = roller.roll(Die::D6)?;
            let b = roller.roll(Die::D6)?;
            let value = d6_table(a, b);
            D20Roll {
                method,
                dice: vec![a, b],
                value,
                automatic: value == 20,
            }
        }
        D20Method::D6Times4 => {
            let a = roller.roll(Die::D6)?;
            let value = (a % 6) * 4;
            let mut dice = vec![a];
            let mut automatic = false;
            if value == 20 {
                let b = roller.roll(Die::D6)?;
                dice.push(b);
                automatic = b >= 5;
            }
            D20Roll {
                method,
                dice,
                value,
                automatic,
            }
        }
    })
}

/// [`roll_d20`] after telling the roller what it is for: `who` rolls for
/// `what` ("Chokestar", "hold Breakhelm X-19"), so a manual roller asks
/// "Chokestar, hold Breakhelm X-19: roll 1 d20" (two d6 for the lookup
/// table, one d6 for d6 x 4; R-SCR-6).
///
/// # Errors
/// As [`roll_d20`].
pub fn roll_d20_for(
    method: D20Method,
    roller: &mut dyn Roller,
    who: &str,
    what: &str,
) -> Result<D20Roll, RuleError> {
    let (count, die) = match method {
        D20Method::D20 => (1, Die::D20),
        D20Method::D6Table => (2, Die::D6),
        D20Method::D6Times4 => (1, Die::D6),
    };
    roller.announce(who, what, count, die);
    roll_d20(method, roller)
}

/// The exact distribution of (value, automatic) for one roll by `method`.
pub fn d20_distribution(method: D20Method) -> Dist<(i64, bool)> {
    let mut pairs: Vec<((i64, bool), f64)> = Vec::new();
    match method {
        D20Method::D20 => {
            for v in 1..=20 {
                pairs.push(((v, v == 20), 1.0));
            }
        }
        D20Method::D6Table => {
            for row in D6_TABLE {
                for v in row {
                    pairs.push(((i64::from(v), v == 20), 1.0));
                }
            }
        }
        D20Method::D6Times4 => {
            for a in 1..=6u32 {
                let value = i64::from((a % 6) * 4);
                if value == 20 {
                    for b in 1..=6u32 {
                        pairs.push(((value, b >= 5), 1.0));
                    }
                } else {
                    for _ in 1..=6 {
                        pairs.push(((value, false), 1.0));
                    }
                }
            }
        }
    }
    // Every weight is positive, so this cannot be empty.
    Dist::from_weights(pairs).unwrap_or_else(|_| Dist::certain((0, false)))
}

/// A resolved roll: the die, what was added, the total and the verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    /// The die (or d6s) rolled.
    pub roll: D20Roll,
    /// The ability added (none for rolls without an ability).
    pub ability: Option<crate::Ability>,
    /// The ability level added (0 without one).
    pub level: u32,
    /// Other modifiers added (cover -2, engage +2, swimming...).
    pub modifier: i64,
    /// value + level + modifier.
    pub total: i64,
    /// The difficulty (a number, or the target's defense).
    pub difficulty: i64,
    /// Automatic, or total >= difficulty.
    pub success: bool,
}

impl Check {
    /// Resolve `roll` with `level` and `modifier` against `difficulty`: success
    /// when the total is equal to or greater than the difficulty, or the roll is an
    /// automatic success.
    ///
    /// "Rolls" (001_337b5a42e331e513.txt).
    pub fn resolve(
        roll: D20Roll,
        ability: Option<crate::Ability>,
        level: u32,
        modifier: i64,
        difficulty: i64,
    ) -> Check {
        // Saturating: the callers cap user numbers, and a total past the
        // integer range compares the same.
        let total = i64::from(roll.value)
            .saturating_add(i64::from(level))
            .saturating_add(modifier);
        let success = roll.automatic || total >= difficulty;
        Check {
            roll,
            ability,
            level,
            modifier,
            total,
            difficulty,
            success,
        }
    }

    /// True for an automatic success (one extra damage; "Hit Points").
    pub fn automatic(&self) -> bool {
        self.roll.automatic
    }
}

fn check_range(field: &str, value: i64, min: i64, max: i64) -> Result<(), RuleError> {
    if value < min || value > max {
        return Err(RuleError::out_of_range(rules::CAPS, field, min, max, value));
    }
    Ok(())
}

/// Check the numbers a one-shot roll or odds is given against the caps.
///
/// # Errors
/// [`tabula_core::Refusal::OutOfRange`] naming `level`, `difficulty` or `modifier`.
pub fn check_inputs(level: i64, difficulty: i64, modifier: i64) -> Result<(), RuleError> {
    check_range("level", level, 0, i64::from(MAX_LEVEL_CAP))?;
    check_range("difficulty", difficulty, -MAX_NUMBER, MAX_NUMBER)?;
    check_range("modifier", modifier, -MAX_NUMBER, MAX_NUMBER)
}

/// The refusal of a roll that requires an ability the roller does not have:
/// "a character can only attempt the action if they have at least one level".
///
/// "Rolls" (001_337b5a42e331e513.txt).
pub fn requires_ability(level: i64) -> RuleError {
    RuleError::not_held(
        rules::ROLLS,
        "ability",
        format!("this roll requires the ability: level {level} cannot attempt it"),
    )
}

/// Make one roll: `level` + `modifier` + a d20 (by `method`) against `difficulty`.
///
/// "Rolls" (001_337b5a42e331e513.txt); R-SCR-6.
///
/// # Errors
/// Numbers outside the caps; the roller's errors.
pub fn check(
    level: i64,
    difficulty: i64,
    modifier: i64,
    method: D20Method,
    roller: &mut dyn Roller,
) -> Result<Check, RuleError> {
    check_inputs(level, difficulty, modifier)?;
    let roll = roll_d20(method, roller)?;
    Ok(Check::resolve(
        roll,
        None,
        level as u32,
        modifier,
        difficulty,
    ))
}

/// The exact chance that a roll succeeds.
///
/// "Rolls" (001_337b5a42e331e513.txt): automatic on a natural 20, else total >=
/// difficulty.
pub fn probability(level: i64, difficulty: i64, modifier: i64, method: D20Method) -> f64 {
    d20_distribution(method).p_where(|(v, auto)| {
        *auto || v.saturating_add(level).saturating_add(modifier) >= difficulty
    })
}

/// The chances of one roll: success, automatic success, and failure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RollOdds {
    /// The chance of success (automatic included), 0..=1.
    pub probability: f64,
    /// The chance of an automatic success.
    pub automatic: f64,
}

/// The chances of one roll.
pub fn roll_odds(level: i64, difficulty: i64, modifier: i64, method: D20Method) -> RollOdds {
    let d = d20_distribution(method);
    RollOdds {
        probability: d.p_where(|(v, auto)| {
            *auto || v.saturating_add(level).saturating_add(modifier) >= difficulty
        }),
        automatic: d.p_where(|(_, auto)| *auto),
    }
}

/// The damage an attack deals: on a success, on an automatic success, and how
/// many rolls one action makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageProfile {
    /// Damage on a success.
    pub normal: u32,
    /// Damage on an automatic success.
    pub automatic: u32,
    /// Rolls in one action (2 for fighting when healthy).
    pub rolls: u32,
}

/// The range of an attack ("Basic Actions", "Attack Abilities").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Range {
    /// A close range attack: basic attack, hold, distract, knockout, fighting.
    Close,
    /// A long range attack: throw object, shooting, blasting, surprise,
    /// intimidate.
    Long,
}

/// The attacks whose odds `check --attack` and `odds --attack` compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttackKind {
    /// Basic attack (close range): 1, 2 on an automatic success.
    Basic,
    /// Throw object (long range): 1, 2 on an automatic success.
    Throw,
    /// Shooting: 2, 5 on an automatic success (R-SCR-3).
    Shooting,
    /// Blasting, per target: 1, 2.
    Blasting,
    /// Knockout: 4 healthy / 2 injured, +1 automatic.
    Knockout,
    /// Fighting: two basic attacks when healthy, one when injured.
    Fighting,
    /// A wrestling hold: 1 (2 automatic) when healthy and undelayed, else 0
    /// (R-SCR-4).
    WrestlingHold,
    /// A hold without wrestling (close range): no damage.
    Hold,
    /// Distract (close range): no damage.
    Distract,
    /// Surprise (long range): no damage.
    Surprise,
    /// Intimidate (long range): no damage.
    Intimidate,
    /// A roll that deals no damage, its range not said.
    NoDamage,
}

impl AttackKind {
    /// Every attack kind.
    pub const ALL: [AttackKind; 12] = [
        AttackKind::Basic,
        AttackKind::Throw,
        AttackKind::Shooting,
        AttackKind::Blasting,
        AttackKind::Knockout,
        AttackKind::Fighting,
        AttackKind::WrestlingHold,
        AttackKind::Hold,
        AttackKind::Distract,
        AttackKind::Surprise,
        AttackKind::Intimidate,
        AttackKind::NoDamage,
    ];

    /// The name typed on the command line.
    pub fn name(self) -> &'static str {
        match self {
            AttackKind::Basic => "basic",
            AttackKind::Throw => "throw",
            AttackKind::Shooting => "shooting",
            AttackKind::Blasting => "blasting",
            AttackKind::Knockout => "knockout",
            AttackKind::Fighting => "fighting",
            AttackKind::WrestlingHold => "wrestling-hold",
            AttackKind::Hold => "hold",
            AttackKind::Distract => "distract",
            AttackKind::Surprise => "surprise",
            AttackKind::Intimidate => "intimidate",
            AttackKind::NoDamage => "no-damage",
        }
    }

    /// Every name, comma-separated (for help and errors).
    pub fn names() -> String {
        AttackKind::ALL
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Close or long range (`None` for `no-damage`, whose range is not said).
    ///
    /// "Basic Actions", "Attack Abilities", "Stalking Abilities", "Support
    /// Abilities" (001_337b5a42e331e513.txt).
    pub fn range(self) -> Option<Range> {
        match self {
            AttackKind::Basic
            | AttackKind::Knockout
            | AttackKind::Fighting
            | AttackKind::WrestlingHold
            | AttackKind::Hold
            | AttackKind::Distract => Some(Range::Close),
            AttackKind::Throw
            | AttackKind::Shooting
            | AttackKind::Blasting
            | AttackKind::Surprise
            | AttackKind::Intimidate => Some(Range::Long),
            AttackKind::NoDamage => None,
        }
    }

    /// True for the rolls cover forbids: close range attacks, distract,
    /// surprise, intimidate ("Basic Actions", take cover).
    pub fn forbidden_from_cover(self) -> bool {
        self.range() == Some(Range::Close)
            || matches!(self, AttackKind::Surprise | AttackKind::Intimidate)
    }

    /// Read a name.
    pub fn parse(text: &str) -> Option<AttackKind> {
        let t = text.trim().to_ascii_lowercase();
        AttackKind::ALL.into_iter().find(|k| k.name() == t)
    }

    /// The damage of this attack by an attacker who is `injured` or not.
    ///
    /// "Attack Abilities", "Basic Actions", "Hit Points"; R-SCR-3, R-SCR-4.
    pub fn profile(self, injured: bool) -> DamageProfile {
        let p = |normal, automatic, rolls| DamageProfile {
            normal,
            automatic,
            rolls,
        };
        match self {
            AttackKind::Basic | AttackKind::Throw | AttackKind::Blasting => p(1, 2, 1),
            AttackKind::Shooting => p(2, 5, 1),
            AttackKind::Knockout if injured => p(2, 3, 1),
            AttackKind::Knockout => p(4, 5, 1),
            AttackKind::Fighting if injured => p(1, 2, 1),
            AttackKind::Fighting => p(1, 2, 2),
            AttackKind::WrestlingHold if injured => p(0, 0, 1),
            AttackKind::WrestlingHold => p(1, 2, 1),
            AttackKind::Hold
            | AttackKind::Distract
            | AttackKind::Surprise
            | AttackKind::Intimidate
            | AttackKind::NoDamage => p(0, 0, 1),
        }
    }
}

/// The modifier of a one-shot roll with the situation added: `modifier`, -2 in
/// cover, +2 engaged.
///
/// Engage adds 2 to close range attack rolls only, so `engaged` needs an
/// `attack` that is a close range attack; cover forbids close range attacks,
/// distract, surprise and intimidate, and so engaging.
///
/// "Basic Actions" (engage, take cover) (001_337b5a42e331e513.txt).
///
/// # Errors
/// `modifier` outside -[`MAX_NUMBER`]..=[`MAX_NUMBER`]; engaged without a close
/// range attack; cover with an attack made from cover.
pub fn situational_modifier(
    modifier: i64,
    cover: bool,
    engaged: bool,
    attack: Option<AttackKind>,
) -> Result<i64, RuleError> {
    check_range("modifier", modifier, -MAX_NUMBER, MAX_NUMBER)?;
    if engaged {
        match attack {
            Some(a) if a.range() == Some(Range::Close) => {}
            Some(a) => {
                return Err(RuleError::forbidden(
                    rules::BASIC_ACTIONS,
                    format!(
                        "engaged: engage adds 2 to close range attack rolls only; {} is {}",
                        a.name(),
                        match a.range() {
                            Some(Range::Long) => "a long range attack",
                            _ => "not said to be a close range attack",
                        }
                    ),
                ));
            }
            None => {
                return Err(RuleError::forbidden(
                    rules::BASIC_ACTIONS,
                    "engaged: engage adds 2 to close range attack rolls only; name the attack (basic, knockout, fighting, wrestling-hold, hold, distract)",
                ));
            }
        }
    }
    if cover {
        if engaged {
            return Err(RuleError::forbidden(
                rules::BASIC_ACTIONS,
                "cover and engaged: close range attacks cannot be made from cover",
            ));
        }
        if let Some(a) = attack
            && a.forbidden_from_cover()
        {
            return Err(RuleError::forbidden(
                rules::BASIC_ACTIONS,
                format!(
                    "cover: no close range attacks, distract, surprise or intimidate from cover ({})",
                    a.name()
                ),
            ));
        }
    }
    let situation = if cover { -2 } else { 0 } + if engaged { 2 } else { 0 };
    modifier.checked_add(situation).ok_or_else(|| {
        RuleError::out_of_range(rules::CAPS, "modifier", -MAX_NUMBER, MAX_NUMBER, modifier)
    })
}

/// The exact distribution of total damage an attack deals to one target.
///
/// # Errors
/// [`OddsError`] only if the computation were too large (it never is here).
pub fn damage_distribution(
    profile: DamageProfile,
    level: i64,
    difficulty: i64,
    modifier: i64,
    method: D20Method,
) -> Result<Dist<i64>, OddsError> {
    let one = d20_distribution(method).map(|(v, auto)| {
        if *auto {
            i64::from(profile.automatic)
        } else if v.saturating_add(level).saturating_add(modifier) >= difficulty {
            i64::from(profile.normal)
        } else {
            0
        }
    });
    one.sum_of(profile.rolls)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::Scripted;

    #[test]
    fn the_book_examples_of_rolls() {
        // 3 craftsmanship, roll 12, difficulty 15: barely successful.
        let c = check(3, 15, 0, D20Method::D20, &mut Scripted::dice([12])).unwrap();
        assert!(c.success);
        assert_eq!(c.total, 15);
        // A 20 before modifiers always succeeds.
        let c = check(0, 25, 0, D20Method::D20, &mut Scripted::dice([20])).unwrap();
        assert!(c.success && c.automatic());
        let c = check(4, 25, 0, D20Method::D20, &mut Scripted::dice([19])).unwrap();
        assert!(!c.success);
    }

    #[test]
    fn d6_alternatives() {
        let r = roll_d20(D20Method::D6Table, &mut Scripted::dice([2, 6])).unwrap();
        assert_eq!(r.value, 13);
        let r = roll_d20(D20Method::D6Table, &mut Scripted::dice([3, 5])).unwrap();
        assert_eq!(r.value, 15);
        let r = roll_d20(D20Method::D6Table, &mut Scripted::dice([4, 5])).unwrap();
        assert!(r.automatic && r.value == 20);
        let r = roll_d20(D20Method::D6Times4, &mut Scripted::dice([6])).unwrap();
        assert_eq!((r.value, r.automatic), (0, false));
        let r = roll_d20(D20Method::D6Times4, &mut Scripted::dice([5, 4])).unwrap();
        assert_eq!((r.value, r.automatic, r.dice.len()), (20, false, 2));
        let r = roll_d20(D20Method::D6Times4, &mut Scripted::dice([5, 6])).unwrap();
        assert!(r.automatic);
        // The table is symmetric and every number 1..=20 appears.
        for (i, row) in D6_TABLE.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                assert_eq!(*v, D6_TABLE[j][i]);
            }
        }
        for n in 1..=20u32 {
            let cells = D6_TABLE.iter().flatten().filter(|v| **v == n).count();
            let want = if [4, 7, 14, 17].contains(&n) { 1 } else { 2 };
            assert_eq!(cells, want, "{n}");
        }
    }

    fn brute(level: i64, difficulty: i64, modifier: i64, method: D20Method) -> f64 {
        let mut ok = 0u32;
        let mut all = 0u32;
        match method {
            D20Method::D20 => {
                for v in 1..=20 {
                    all += 1;
                    let r = roll_d20(method, &mut Scripted::dice([v])).unwrap();
                    ok += u32::from(
                        Check::resolve(r, None, level as u32, modifier, difficulty).success,
                    );
                }
            }
            _ => {
                for a in 1..=6 {
                    for b in 1..=6 {
                        all += 1;
                        let r = roll_d20(method, &mut Scripted::dice([a, b])).unwrap();
                        ok += u32::from(
                            Check::resolve(r, None, level as u32, modifier, difficulty).success,
                        );
                    }
                }
            }
        }
        f64::from(ok) / f64::from(all)
    }

    #[test]
    fn odds_match_brute_force() {
        for method in [D20Method::D20, D20Method::D6Table, D20Method::D6Times4] {
            for level in [0, 2, 4, 8] {
                for difficulty in [-5, 0, 10, 13, 14, 21, 25, 40] {
                    for modifier in [-2, 0, 2] {
                        let p = probability(level, difficulty, modifier, method);
                        let b = brute(level, difficulty, modifier, method);
                        assert!(
                            (p - b).abs() < 1e-12,
                            "{method:?} {level} {difficulty} {modifier}: {p} vs {b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn damage_odds_match_brute_force() {
        // Fighting 4 against agility 13 (Breakhelm X-19 on Chokestar): two rolls.
        let prof = AttackKind::Fighting.profile(false);
        let d = damage_distribution(prof, 4, 13, 0, D20Method::D20).unwrap();
        let mut counts = [0u32; 5];
        for a in 1..=20i64 {
            for b in 1..=20i64 {
                let dmg = |v: i64| {
                    if v == 20 {
                        2
                    } else if v + 4 >= 13 {
                        1
                    } else {
                        0
                    }
                };
                counts[(dmg(a) + dmg(b)) as usize] += 1;
            }
        }
        for (k, c) in counts.iter().enumerate() {
            assert!((d.p(&(k as i64)) - f64::from(*c) / 400.0).abs() < 1e-12);
        }
        // Shooting: 0 / 2 / 5.
        let d = damage_distribution(
            AttackKind::Shooting.profile(false),
            2,
            10,
            0,
            D20Method::D20,
        )
        .unwrap();
        assert!((d.p(&5) - 0.05).abs() < 1e-12);
        assert!((d.p(&2) - 0.6).abs() < 1e-12);
        assert!((d.p(&0) - 0.35).abs() < 1e-12);
    }

    #[test]
    fn caps_are_enforced() {
        assert!(check(101, 10, 0, D20Method::D20, &mut Scripted::dice([1])).is_err());
        assert!(check(1, 10_000, 0, D20Method::D20, &mut Scripted::dice([1])).is_err());
        assert!(check(-1, 10, 0, D20Method::D20, &mut Scripted::dice([1])).is_err());
    }
}
