//! Invoking character elements: building the pool of one check from a
//! character's Profession, Specialization and Quality, bonus dice, help, Luck,
//! Principle and Worst Impulse; locks on invoked elements.
//!
//! The Sapio System, "When to Roll" (the steps of "When you invoke a character
//! element"), "Invoking an Element", "Special Situations when Rolling", "Luck",
//! "Principles and Worst Impulses", "Character versus Character"
//! (004_f39b4146df158cae.txt); R-SA-2, R-SA-5, R-SA-7, R-SA-8, R-SA-11.

use crate::name_match::same_name;
use serde::{Deserialize, Serialize};

use crate::character::{Character, TalentEffect};
use crate::checks::{AutoSymbols, PoolSpec};
use crate::harm::largest_penalty;

/// How a Profession is invoked (step 2 of building the pool).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProfessionUse {
    /// The Main Profession, fully applicable: two dice.
    MainFully,
    /// The Main Profession, partly applicable: one die.
    MainPartly,
    /// The Main Profession invoked again for a simultaneous task: one die, only
    /// when fully applicable ("Invoking an Element").
    MainAgain,
    /// A Side Profession: one die.
    Side,
}

impl ProfessionUse {
    /// The dice it gives.
    pub fn dice(self) -> u32 {
        match self {
            ProfessionUse::MainFully => 2,
            _ => 1,
        }
    }
}

/// Principle or Worst Impulse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Nature {
    /// The character's better nature: a sacrifice.
    Principle,
    /// The character's vice: an overindulgence.
    WorstImpulse,
}

/// A declared sacrifice or overindulgence and the GM's ruling on it. R-SA-8.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declaration {
    /// Principle or Worst Impulse.
    pub nature: Nature,
    /// What the player says the character does.
    pub text: String,
    /// `None` until the GM rules.
    pub accepted: Option<bool>,
}

/// One character's help: the element invoked and the bonus die it gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Help {
    /// The helping character (index in the table).
    pub helper: usize,
    /// The element invoked.
    pub element: String,
}

/// A check being built: the focal character, the TN, and every element, bonus die
/// and declaration so far, in the order of "When you invoke a character element".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenCheck {
    /// A number for the task (1, 2, ...).
    pub id: u32,
    /// The focal character (index in the table).
    pub focal: usize,
    /// The GM's TN, once set (R-SA-5: starts at 1 against a defender).
    pub tn: Option<u32>,
    /// Injuries and Stresses the GM ruled not relevant to this action.
    pub not_relevant: Vec<String>,
    /// The task goes on: its elements stay invoked after the roll.
    pub ongoing: bool,
    /// Character versus Character: the defender, who raises the TN. R-SA-5.
    pub versus: Option<usize>,
    /// Elements the defender invoked to raise the TN.
    pub defended_with: Vec<String>,
    /// Step 2: the Profession invoked and how.
    pub profession: Option<(String, ProfessionUse)>,
    /// Step 3: the Specialization invoked.
    pub specialization: Option<String>,
    /// Step 4: the Quality invoked.
    pub quality: Option<String>,
    /// Special Talents called out (they apply only to the focal character).
    pub talents: Vec<String>,
    /// Help from other characters: a bonus die each.
    pub help: Vec<Help>,
    /// Luck spent, one bonus die each.
    pub luck: u32,
    /// A Principle or Worst Impulse declaration (R-SA-8).
    pub declaration: Option<Declaration>,
    /// Bonus dice the GM gave (especially helpful support, situations).
    pub gm_bonus: u32,
}

impl OpenCheck {
    /// A new check for `focal`.
    pub fn new(
        id: u32,
        focal: usize,
        tn: Option<u32>,
        ongoing: bool,
        versus: Option<usize>,
    ) -> Self {
        OpenCheck {
            id,
            focal,
            tn: if versus.is_some() { Some(1) } else { tn },
            not_relevant: Vec::new(),
            ongoing,
            versus,
            defended_with: Vec::new(),
            profession: None,
            specialization: None,
            quality: None,
            talents: Vec::new(),
            help: Vec::new(),
            luck: 0,
            declaration: None,
            gm_bonus: 0,
        }
    }

    /// The elements the defender (`defender`, the character of
    /// [`OpenCheck::versus`]) has invoked to raise the TN, as elements of its
    /// sheet (R-SA-5), and the Profession among them when there is one: the
    /// defender invokes what a check allows, one Profession, one
    /// Specialization of it, one Quality.
    pub fn defender_invoked(&self, defender: &Character) -> (Vec<Element>, Option<String>) {
        let invoked: Vec<Element> = self
            .defended_with
            .iter()
            .filter_map(|e| element(defender, e))
            .collect();
        let profession = invoked.iter().find_map(|e| match e {
            Element::Profession { name, .. } => Some(name.clone()),
            _ => None,
        });
        (invoked, profession)
    }

    /// Dice from steps 1 to 4: one, the Profession, the Specialization, the Quality.
    pub fn built(&self) -> u32 {
        1 + self.profession.as_ref().map_or(0, |(_, u)| u.dice())
            + u32::from(self.specialization.is_some())
            + u32::from(self.quality.is_some())
    }

    /// Bonus dice of step 5: Special Talents, help, Luck, an accepted Principle or
    /// Worst Impulse, the GM's.
    pub fn bonus(&self, focal: &Character) -> u32 {
        let talents: u32 = self
            .talent_effects(focal)
            .iter()
            .map(|e| match e {
                TalentEffect::BonusDice { dice } => *dice,
                _ => 0,
            })
            .fold(0u32, u32::saturating_add);
        let declared = self
            .declaration
            .as_ref()
            .is_some_and(|d| d.accepted == Some(true));
        talents
            .saturating_add(u32::try_from(self.help.len()).unwrap_or(u32::MAX))
            .saturating_add(self.luck)
            .saturating_add(u32::from(declared))
            .saturating_add(self.gm_bonus)
    }

    /// The roll effects of the Special Talents called out.
    pub fn talent_effects(&self, focal: &Character) -> Vec<TalentEffect> {
        self.talents
            .iter()
            .filter_map(|t| focal.find_talent(t).and_then(|t| t.effect))
            .collect()
    }

    /// The Injury/Stress penalty that applies: the largest of the relevant
    /// Moderate and Severe entries (R-SA-7), after a talent that ignores one
    /// Injury's increase.
    pub fn penalty(&self, focal: &Character) -> u32 {
        let relevant = |list: Vec<(String, u32)>| -> Vec<u32> {
            list.into_iter()
                .filter(|(n, _)| !self.not_relevant.iter().any(|x| same_name(x, n)))
                .map(|(_, p)| p)
                .collect()
        };
        let ignore = self
            .talent_effects(focal)
            .contains(&TalentEffect::IgnoreInjury);
        largest_penalty(
            &relevant(focal.injuries().penalties()),
            &relevant(focal.stresses().penalties()),
            ignore,
        )
    }

    /// The pool spec for [`crate::checks::settle`] and the automatic symbols.
    pub fn spec(&self, focal: &Character) -> (PoolSpec, AutoSymbols) {
        let effects = self.talent_effects(focal);
        let mut spec = PoolSpec {
            built: self.built(),
            bonus: self.bonus(focal),
            tn: self.tn.unwrap_or(0),
            penalty: self.penalty(focal),
            tn_cap: None,
            tn_reduction: 0,
        };
        let mut auto = AutoSymbols::default();
        for e in effects {
            match e {
                TalentEffect::TnCap { max } => {
                    spec.tn_cap = Some(spec.tn_cap.map_or(max, |c| c.min(max)))
                }
                TalentEffect::TnReduction { by } => {
                    spec.tn_reduction = spec.tn_reduction.saturating_add(by)
                }
                TalentEffect::ExtraHits { hits } => {
                    auto.hits_on_success = auto.hits_on_success.saturating_add(hits)
                }
                TalentEffect::ExtraSpares { spares } => {
                    auto.spares = auto.spares.saturating_add(spares)
                }
                TalentEffect::ExtraSpirals { spirals } => {
                    auto.spirals = auto.spirals.saturating_add(spirals)
                }
                TalentEffect::BonusDice { .. } | TalentEffect::IgnoreInjury => {}
            }
        }
        (spec, auto)
    }

    /// Every element this check locks, by character: the focal's Profession,
    /// Specialization and Quality, each helper's element, the defender's elements.
    pub fn locks(&self) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        if let Some((p, _)) = &self.profession {
            out.push((self.focal, p.clone()));
        }
        if let Some(s) = &self.specialization {
            out.push((self.focal, s.clone()));
        }
        if let Some(q) = &self.quality {
            out.push((self.focal, q.clone()));
        }
        for h in &self.help {
            out.push((h.helper, h.element.clone()));
        }
        if let Some(d) = self.versus {
            for e in &self.defended_with {
                out.push((d, e.clone()));
            }
        }
        out
    }
}

/// What kind of element a name is on a character's sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// A Profession: main (`true`) or side.
    Profession {
        /// Canonical name.
        name: String,
        /// The Main Profession.
        main: bool,
    },
    /// A Specialization, with the Profession it is under.
    Specialization {
        /// Canonical name.
        name: String,
        /// Its Profession.
        profession: String,
    },
    /// A Quality.
    Quality {
        /// Canonical name.
        name: String,
    },
}

impl Element {
    /// The canonical name.
    pub fn name(&self) -> &str {
        match self {
            Element::Profession { name, .. }
            | Element::Specialization { name, .. }
            | Element::Quality { name } => name,
        }
    }
}

/// Look up an element by name (case-insensitive). Special Talents, Principles and
/// Worst Impulses are not elements.
pub fn element(c: &Character, name: &str) -> Option<Element> {
    if let Some((main, n)) = c.find_profession(name) {
        return Some(Element::Profession {
            name: n.to_string(),
            main,
        });
    }
    if let Some((p, s)) = c.find_specialization(name) {
        return Some(Element::Specialization {
            name: s.to_string(),
            profession: p.to_string(),
        });
    }
    c.find_quality(name).map(|q| Element::Quality {
        name: q.to_string(),
    })
}
