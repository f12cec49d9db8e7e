//! The nine Stats, their Physical / Mental nature, Actual and Current Stat Value,
//! Injury, and the condition each applies when depleted.
//!
//! Sour Grapes, "Stats" and "Stat Mechanics" (000_05a1db5b88f54528.txt); R-SG-3,
//! R-SG-7, R-SG-10.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The most a stat's Actual Stat Value may be.
///
/// Sour Grapes, "Stats": "Each stat can have a value from 1 to 10".
pub const MAX_STAT: u32 = 10;

/// One of the nine Stats.
///
/// Sour Grapes, "Stats" (000_05a1db5b88f54528.txt). Might and Strength are one
/// stat (R-SG-3): `Strength` and `STR` are read as [`Stat::Might`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stat {
    /// Agility (AGI), Physical: athletic ability. Depleted: Crippled.
    Agility,
    /// Might (MIG), Physical: raw power; cards say Strength (R-SG-3). Depleted: Frail.
    Might,
    /// Knowledge (KNO), Mental: intelligence and experience. Depleted: Feeble.
    Knowledge,
    /// Perception (PER), Physical and Mental: awareness and focus. Depleted: Dazed.
    Perception,
    /// Prestige (PRE), Mental: clout, fame, trustworthiness. Depleted: Despised.
    Prestige,
    /// Resolve (RES), Mental: fearlessness. Depleted: Panicked.
    Resolve,
    /// Spirit (SPI), Mental: spiritual connection. Depleted: Lost.
    Spirit,
    /// Stamina (STA), Physical: continuing physical activities. Depleted: Incapacitated.
    Stamina,
    /// Vitality (VIT), Physical: physical state. Depleted: Dying.
    Vitality,
}

/// Whether a stat is Physical, Mental, or both (Perception).
///
/// Sour Grapes, "Stats" (000_05a1db5b88f54528.txt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Nature {
    /// A Physical stat.
    Physical,
    /// A Mental stat.
    Mental,
    /// Perception: Physical and Mental.
    Both,
}

impl Stat {
    /// The nine stats in the book's order.
    pub const ALL: [Stat; 9] = [
        Stat::Agility,
        Stat::Might,
        Stat::Knowledge,
        Stat::Perception,
        Stat::Prestige,
        Stat::Resolve,
        Stat::Spirit,
        Stat::Stamina,
        Stat::Vitality,
    ];

    /// The stat's position in [`Stat::ALL`] (0..9).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The stat's name as the book prints it.
    pub fn name(self) -> &'static str {
        match self {
            Stat::Agility => "Agility",
            Stat::Might => "Might",
            Stat::Knowledge => "Knowledge",
            Stat::Perception => "Perception",
            Stat::Prestige => "Prestige",
            Stat::Resolve => "Resolve",
            Stat::Spirit => "Spirit",
            Stat::Stamina => "Stamina",
            Stat::Vitality => "Vitality",
        }
    }

    /// The three-letter abbreviation on the stat sheet (AGI, MIG, ...).
    pub fn abbreviation(self) -> &'static str {
        match self {
            Stat::Agility => "AGI",
            Stat::Might => "MIG",
            Stat::Knowledge => "KNO",
            Stat::Perception => "PER",
            Stat::Prestige => "PRE",
            Stat::Resolve => "RES",
            Stat::Spirit => "SPI",
            Stat::Stamina => "STA",
            Stat::Vitality => "VIT",
        }
    }

    /// What the stat measures, as the book's stat sheet says ("Stats":
    /// Agility is "Athletic ability").
    pub fn description(self) -> &'static str {
        match self {
            Stat::Agility => "Athletic ability",
            Stat::Might => "Raw power",
            Stat::Knowledge => "Intelligence and experience",
            Stat::Perception => "Awareness and focus",
            Stat::Prestige => "Clout, fame, trustworthiness",
            Stat::Resolve => "Fearlessness, mental state of the character",
            Stat::Spirit => "Spiritual connection",
            Stat::Stamina => "Ability to continue physical activities",
            Stat::Vitality => "Physical state of the character",
        }
    }

    /// Physical, Mental or both.
    pub fn nature(self) -> Nature {
        match self {
            Stat::Agility | Stat::Might | Stat::Stamina | Stat::Vitality => Nature::Physical,
            Stat::Knowledge | Stat::Prestige | Stat::Resolve | Stat::Spirit => Nature::Mental,
            Stat::Perception => Nature::Both,
        }
    }

    /// True for Physical stats and Perception.
    pub fn is_physical(self) -> bool {
        matches!(self.nature(), Nature::Physical | Nature::Both)
    }

    /// True for Mental stats and Perception.
    pub fn is_mental(self) -> bool {
        matches!(self.nature(), Nature::Mental | Nature::Both)
    }

    /// The condition the stat applies when it reaches zero (R-SG-10).
    pub fn condition(self) -> Condition {
        match self {
            Stat::Agility => Condition::Crippled,
            Stat::Might => Condition::Frail,
            Stat::Knowledge => Condition::Feeble,
            Stat::Perception => Condition::Dazed,
            Stat::Prestige => Condition::Despised,
            Stat::Resolve => Condition::Panicked,
            Stat::Spirit => Condition::Lost,
            Stat::Stamina => Condition::Incapacitated,
            Stat::Vitality => Condition::Dying,
        }
    }

    /// Read a stat name: the full name, the abbreviation, or `Strength`/`STR`
    /// for Might (R-SG-3); any case. `None` for anything else.
    pub fn parse(text: &str) -> Option<Stat> {
        let t = text.trim().to_ascii_lowercase();
        if t == "strength" || t == "str" {
            return Some(Stat::Might);
        }
        Stat::ALL.into_iter().find(|s| {
            s.name().eq_ignore_ascii_case(&t) || s.abbreviation().eq_ignore_ascii_case(&t)
        })
    }
}

impl fmt::Display for Stat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Stat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Stat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Stat::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{text:?} is not a stat (Agility, Might/Strength, Knowledge, Perception, \
                 Prestige, Resolve, Spirit, Stamina, Vitality)"
            ))
        })
    }
}

/// The condition a depleted stat applies.
///
/// Sour Grapes, "Stats" (000_05a1db5b88f54528.txt); R-SG-7, R-SG-10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Condition {
    /// Agility at zero: Physical stats do not recover.
    Crippled,
    /// Might at zero: damage to Physical stats is doubled (once, R-SG-7).
    Frail,
    /// Knowledge at zero: Mental stats do not recover.
    Feeble,
    /// Perception at zero: all actions are +2 difficulty to perform.
    Dazed,
    /// Prestige at zero: damage to Mental stats is doubled (once, R-SG-7).
    Despised,
    /// Resolve at zero: Mental actions cannot be played or reacted against.
    Panicked,
    /// Spirit at zero: damage from Spirit attacks is doubled regardless of target stat.
    Lost,
    /// Stamina at zero: Physical actions cannot be played or reacted against.
    Incapacitated,
    /// Vitality at zero: actions cannot be played, stats do not recover.
    Dying,
}

impl Condition {
    /// The effect as the stat sheet prints it.
    pub fn effect(self) -> &'static str {
        match self {
            Condition::Crippled => "Physical stats do not recover",
            Condition::Frail => "Damage to physical stats are doubled",
            Condition::Feeble => "Mental stats do not recover",
            Condition::Dazed => "All actions are +2 difficulty to perform",
            Condition::Despised => "Damage to mental stats are doubled",
            Condition::Panicked => "Mental actions cannot be played or reacted against",
            Condition::Lost => "Damage from Spirit attacks is doubled regardless of target stat",
            Condition::Incapacitated => "Physical actions cannot be played or reacted against",
            Condition::Dying => "Actions cannot be played, stats do not recover",
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// One stat on a sheet: its Actual Stat Value (in pen), Current Stat Value (in
/// pencil) and Injury marker.
///
/// Sour Grapes, "Stat Mechanics" (000_05a1db5b88f54528.txt). Invariants kept by
/// every constructor and event: `1 <= actual <= 10`, `current <= actual`, and a
/// stat that reaches zero is injured ("If a stat ever reaches zero it is
/// automatically injured": when it reaches zero, R-SG-13). The storyteller may
/// heal that injury while the stat is still at zero: it stays depleted (its
/// condition applies) but may recover again, and a sheet holds it so (R-SG-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatValue {
    /// The Actual Stat Value, 1..=10.
    pub actual: u32,
    /// The Current Stat Value, 0..=actual: every roll is based on it.
    pub current: u32,
    /// The one Injury marker: an injured stat does not recover.
    pub injured: bool,
}

impl StatValue {
    /// A fresh stat: current equal to actual, not injured.
    pub fn fresh(actual: u32) -> Self {
        StatValue {
            actual,
            current: actual,
            injured: false,
        }
    }

    /// True when the Current Stat Value is zero.
    pub fn depleted(&self) -> bool {
        self.current == 0
    }

    /// Exhaust (or damage) by `points`: the current value drops, never below 0;
    /// at zero the stat is injured. Sour Grapes, "Stat Mechanics"; R-SG-10.
    pub fn lower(&mut self, points: u32) {
        self.current = self.current.saturating_sub(points);
        if self.current == 0 {
            self.injured = true;
        }
    }

    /// Recover up to `points` exhausted points (never above actual). The caller
    /// checks that recovery is allowed.
    pub fn raise(&mut self, points: u32) {
        self.current = self.current.saturating_add(points).min(self.actual);
    }

    /// Exhausted points: actual minus current.
    pub fn exhausted(&self) -> u32 {
        self.actual.saturating_sub(self.current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strength_is_might() {
        assert_eq!(Stat::parse("Strength"), Some(Stat::Might));
        assert_eq!(Stat::parse("str"), Some(Stat::Might));
        assert_eq!(Stat::parse("PER"), Some(Stat::Perception));
        assert_eq!(Stat::parse("luck"), None);
    }

    #[test]
    fn zero_injures() {
        let mut s = StatValue::fresh(3);
        s.lower(5);
        assert_eq!(s.current, 0);
        assert!(s.injured);
        assert_eq!(Stat::Vitality.condition(), Condition::Dying);
        assert!(Stat::Perception.is_mental() && Stat::Perception.is_physical());
    }
}
