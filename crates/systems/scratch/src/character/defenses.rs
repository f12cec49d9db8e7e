//! What a character's levels give: its defenses, stamina and hit points
//! ("Defenses", "Hit Points"; R-SCR-1, R-SCR-2), the printed defenses
//! compared, and carrying capacity ("Defenses").

use super::*;

/// The derived defenses and hit points of a character ("Defenses", "Hit Points").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defenses {
    /// 10 + the highest of stealth, acrobatics, quickness, flying.
    pub agility: u32,
    /// 10 + the highest of detection, command, healing, craftsmanship.
    pub intelligence: u32,
    /// 10 + the higher of wrestling, swimming; without them base + toughness
    /// (R-SCR-1: base 8).
    pub strength: u32,
    /// Toughness / 2, rounded down.
    pub stamina: u32,
    /// Maximum hit points = toughness.
    pub max_hit_points: u32,
}

impl Defenses {
    /// Compute from a level lookup (which may include temporary bonuses) and the
    /// strength base (R-SCR-1: 8; the text: 7).
    ///
    /// "Defenses" (001_337b5a42e331e513.txt); R-SCR-1, R-SCR-2.
    pub fn from_levels(level: impl Fn(Ability) -> u32, strength_base: u32) -> Defenses {
        let best = |list: &[Ability]| list.iter().map(|a| level(*a)).max().unwrap_or(0);
        // Saturating: levels are capped (MAX_LEVEL_CAP), but this takes any lookup.
        let agility = 10u32.saturating_add(best(&[
            Ability::Stealth,
            Ability::Acrobatics,
            Ability::Quickness,
            Ability::Flying,
        ]));
        let intelligence = 10u32.saturating_add(best(&[
            Ability::Detection,
            Ability::Command,
            Ability::Healing,
            Ability::Craftsmanship,
        ]));
        let force = best(&[Ability::Wrestling, Ability::Swimming]);
        let toughness = level(Ability::Toughness);
        let strength = if force > 0 {
            10u32.saturating_add(force)
        } else {
            strength_base.saturating_add(toughness)
        };
        Defenses {
            agility,
            intelligence,
            strength,
            stamina: toughness / 2,
            max_hit_points: toughness,
        }
    }
}

/// A printed defense set beside the computed one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrintedCheck {
    /// `agility`, `intelligence`, `strength` or `stamina`.
    pub defense: &'static str,
    /// What the book prints.
    pub printed: u32,
    /// What the rules compute.
    pub computed: u32,
    /// Why they differ (empty when they agree).
    pub why: String,
}

/// Healthy, injured or incapacitated ("Hit Points").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HitPointState {
    /// More hit points than stamina.
    Healthy,
    /// At least one hit point, but no more than stamina.
    Injured,
    /// Zero hit points: cannot perform actions.
    Incapacitated,
}

impl HitPointState {
    /// The state of a character with `hit_points` and `stamina`.
    ///
    /// "Hit Points" (001_337b5a42e331e513.txt).
    pub fn of(hit_points: u32, stamina: u32) -> HitPointState {
        if hit_points == 0 {
            HitPointState::Incapacitated
        } else if hit_points > stamina {
            HitPointState::Healthy
        } else {
            HitPointState::Injured
        }
    }
}

impl fmt::Display for HitPointState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HitPointState::Healthy => "healthy",
            HitPointState::Injured => "injured",
            HitPointState::Incapacitated => "incapacitated",
        })
    }
}

/// How much a character can pack, carry and lift ("Defenses"): 2, 5 and 10 kg
/// per strength point; pounds as the book's table rounds them (packs to the
/// pound, carrying to 5 lb, lifting to 10 lb, from 2.2 lb per kg).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carrying {
    /// The strength it is for.
    pub strength: u32,
    /// Pack long distance, kg.
    pub pack_kg: u32,
    /// Pack long distance, lb.
    pub pack_lb: u32,
    /// Carry a short distance, kg.
    pub carry_kg: u32,
    /// Carry a short distance, lb.
    pub carry_lb: u32,
    /// Lift in one place (or drag a short distance), kg.
    pub lift_kg: u32,
    /// Lift in one place, lb.
    pub lift_lb: u32,
}

impl Carrying {
    /// The carrying capacity for `strength` (the book's table for 10 to 20, the
    /// same rule beyond it). Saturates instead of overflowing.
    ///
    /// "Defenses" (001_337b5a42e331e513.txt), the carrying table.
    pub fn for_strength(strength: u32) -> Carrying {
        let s = u64::from(strength);
        let round_to = |kg: u64, step_lb: u64| -> u32 {
            // kg * 2.2 lb in tenths of a pound, rounded to the nearest step.
            let tenths = kg * 22;
            let step = step_lb * 10;
            u32::try_from((tenths + step / 2) / step * step_lb).unwrap_or(u32::MAX)
        };
        let kg = |per: u64| u32::try_from(s * per).unwrap_or(u32::MAX);
        Carrying {
            strength,
            pack_kg: kg(2),
            pack_lb: round_to(s * 2, 1),
            carry_kg: kg(5),
            carry_lb: round_to(s * 5, 5),
            lift_kg: kg(10),
            lift_lb: round_to(s * 10, 10),
        }
    }
}
