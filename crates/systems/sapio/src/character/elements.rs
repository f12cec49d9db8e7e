//! A legal character: reading its elements, advancement and cycle changes
//! ("Advancement"; R-SA-9, R-SA-12).

use super::*;

impl Character {
    /// The sheet, as it would be written back to a file.
    pub fn sheet(&self) -> &CharacterDraft {
        &self.sheet
    }

    /// The name.
    pub fn name(&self) -> &str {
        self.sheet.name.trim()
    }

    /// The player who plays the character, if any.
    pub fn player(&self) -> Option<&str> {
        self.sheet.player.as_deref()
    }

    /// Luck held.
    pub fn luck(&self) -> u32 {
        self.sheet.luck
    }

    /// The Injury track.
    pub fn injuries(&self) -> &Track {
        &self.sheet.injuries
    }

    /// The Stress track.
    pub fn stresses(&self) -> &Track {
        &self.sheet.stresses
    }

    /// True when a second Severe Injury or Stress has debilitated the character.
    pub fn debilitated(&self) -> bool {
        self.sheet.injuries.debilitated || self.sheet.stresses.debilitated
    }

    /// True when a weapon killed the character (R-SA-4).
    pub fn dead(&self) -> bool {
        self.sheet.dead
    }

    /// Debilitated or dead: the character takes no action.
    pub fn out_of_action(&self) -> bool {
        self.debilitated() || self.dead()
    }

    /// Find a Profession by name (case-insensitive): `Some(true)` for the Main
    /// Profession, `Some(false)` for a Side Profession; with its canonical name.
    pub fn find_profession(&self, name: &str) -> Option<(bool, &str)> {
        let t = name.trim();
        if same_name(self.sheet.profession.name.trim(), t) {
            return Some((true, self.sheet.profession.name.trim()));
        }
        self.sheet
            .side_professions
            .iter()
            .find(|s| same_name(s.name.trim(), t))
            .map(|s| (false, s.name.trim()))
    }

    /// The Profession a Specialization is under, and the Specialization's canonical name.
    pub fn find_specialization(&self, name: &str) -> Option<(&str, &str)> {
        let t = name.trim();
        std::iter::once(&self.sheet.profession)
            .chain(self.sheet.side_professions.iter())
            .find_map(|p| {
                p.specializations
                    .iter()
                    .find(|s| same_name(s.trim(), t))
                    .map(|s| (p.name.trim(), s.trim()))
            })
    }

    /// A Quality's canonical name.
    pub fn find_quality(&self, name: &str) -> Option<&str> {
        let t = name.trim();
        self.sheet
            .qualities
            .iter()
            .find(|q| same_name(q.trim(), t))
            .map(|q| q.trim())
    }

    /// A Special Talent by name.
    pub fn find_talent(&self, name: &str) -> Option<&Talent> {
        let t = name.trim();
        self.sheet
            .special_talents
            .iter()
            .find(|s| same_name(s.name.trim(), t))
    }

    /// A weapon by name.
    pub fn find_weapon(&self, name: &str) -> Option<&Weapon> {
        let t = name.trim();
        self.sheet
            .weapons
            .iter()
            .find(|w| same_name(w.name.trim(), t))
    }

    /// Every element that may be invoked (Professions, Specializations, Qualities).
    pub fn elements(&self) -> Vec<String> {
        let s = &self.sheet;
        let mut out = vec![s.profession.name.trim().to_string()];
        out.extend(
            s.profession
                .specializations
                .iter()
                .map(|x| x.trim().to_string()),
        );
        for side in &s.side_professions {
            out.push(side.name.trim().to_string());
            out.extend(side.specializations.iter().map(|x| x.trim().to_string()));
        }
        out.extend(s.qualities.iter().map(|x| x.trim().to_string()));
        out
    }

    /// Where the advancement cycle stands.
    pub fn cycle(&self) -> CycleState {
        cycles(&self.sheet.advancements).unwrap_or_default()
    }

    /// Completed-cycle changes still available.
    pub fn cycle_changes_left(&self) -> u32 {
        self.cycle()
            .completed
            .saturating_sub(self.sheet.cycle_changes.len() as u32)
    }

    /// Check an advancement against the cycle rule and the sheet.
    ///
    /// # Errors
    /// [`AdvanceError`] naming the rule.
    pub fn check_advance(&self, adv: &Advance) -> Result<(), AdvanceError> {
        let kind = adv.kind();
        let st = self.cycle();
        if st.current.contains(&kind.choice()) {
            return Err(AdvanceError::CycleRule {
                choice: kind.choice(),
            });
        }
        if self.sheet.advancements.len() >= MAX_ELEMENTS {
            return Err(AdvanceError::TooMany);
        }
        let name = adv.name();
        if name.trim().is_empty()
            || name.chars().count() > MAX_TEXT
            || control_char(name, false).is_some()
        {
            return Err(AdvanceError::Name);
        }
        let exists = self.elements().iter().any(|e| same_name(e, name.trim()))
            || self.find_talent(name).is_some();
        if exists {
            return Err(AdvanceError::Exists {
                name: name.trim().to_string(),
            });
        }
        match adv {
            Advance::SideSpecialization { profession, .. } => {
                match self.find_profession(profession) {
                    Some((false, _)) => Ok(()),
                    _ => Err(AdvanceError::NoSideProfession {
                        name: profession.clone(),
                    }),
                }
            }
            Advance::SideProfession { name } if words(name) > 2 => {
                Err(AdvanceError::Words { name: name.clone() })
            }
            Advance::SpecialTalent { talent } => {
                if let Some(problem) = talent.effect.and_then(effect_problem) {
                    return Err(AdvanceError::Effect { problem });
                }
                if control_char(&talent.text, true).is_some() {
                    return Err(AdvanceError::Name);
                }
                // R-SA-12: a magic Talent may come alone, to wait for its
                // Quality, unless a half waits already.
                if talent.grants_magic() && !self.has_magic_quality() {
                    self.one_half_alone()?;
                }
                Ok(())
            }
            Advance::Quality { name } => {
                if is_too_generic(name) {
                    return Err(AdvanceError::TooGeneric {
                        name: name.trim().to_string(),
                    });
                }
                // R-SA-12: a magic Quality may come alone, to wait for its
                // Talent, unless a half waits already.
                if is_magic_quality(name) && !self.has_magic_talent() {
                    self.one_half_alone()?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// R-SA-12: a magic half gained alone waits for its pair; a second half
    /// alone while one waits is refused.
    fn one_half_alone(&self) -> Result<(), AdvanceError> {
        match &self.sheet.unpaired {
            Some(waiting) => Err(AdvanceError::UnpairedWaiting {
                waiting: waiting.trim().to_string(),
            }),
            None => Ok(()),
        }
    }

    /// The magic Quality or Special Talent gained alone by advancement that
    /// waits for its pair and gives nothing meanwhile, if `name` is it: marked
    /// `unpaired` and the pair not complete. R-SA-12.
    pub fn is_unpaired(&self, name: &str) -> bool {
        self.sheet
            .unpaired
            .as_deref()
            .is_some_and(|u| same_name(u.trim(), name.trim()))
            && !(self.has_magic_quality() && self.has_magic_talent())
    }

    /// True when a Quality of the kind magic needs is on the sheet (R-SA-10).
    pub fn has_magic_quality(&self) -> bool {
        self.sheet.qualities.iter().any(|q| is_magic_quality(q))
    }

    /// True when a Special Talent granting magical or divine abilities is on the
    /// sheet (R-SA-10).
    pub fn has_magic_talent(&self) -> bool {
        self.sheet.special_talents.iter().any(Talent::grants_magic)
    }

    /// A new Quality (gained, or replacing `replacing`): not "Lucky" or
    /// "Competent", and the magic pair kept (R-SA-10).
    pub(super) fn check_new_quality(
        &self,
        name: &str,
        replacing: Option<&str>,
    ) -> Result<(), AdvanceError> {
        if is_too_generic(name) {
            return Err(AdvanceError::TooGeneric {
                name: name.trim().to_string(),
            });
        }
        if is_magic_quality(name) && !self.has_magic_talent() {
            return Err(AdvanceError::QualityNeedsMagic {
                quality: name.trim().to_string(),
            });
        }
        if let Some(old) = replacing
            && is_magic_quality(old)
            && !is_magic_quality(name)
            && self.has_magic_talent()
        {
            let others = self
                .sheet
                .qualities
                .iter()
                .filter(|q| !same_name(q, old))
                .any(|q| is_magic_quality(q));
            if !others {
                return Err(AdvanceError::MagicNeedsQuality {
                    talent: self
                        .sheet
                        .special_talents
                        .iter()
                        .find(|t| t.grants_magic())
                        .map(|t| t.name.trim().to_string())
                        .unwrap_or_default(),
                });
            }
        }
        Ok(())
    }

    /// Apply an advancement (checked by [`Character::check_advance`]). A magic
    /// Quality or Special Talent gained without its pair is marked `unpaired`;
    /// the other half completes the pair and clears the mark (R-SA-12).
    pub fn apply_advance(&mut self, adv: &Advance) {
        let magic_half = match adv {
            Advance::Quality { name } => {
                Some(name.trim().to_string()).filter(|n| is_magic_quality(n))
            }
            Advance::SpecialTalent { talent } => {
                Some(talent.name.trim().to_string()).filter(|_| talent.grants_magic())
            }
            _ => None,
        };
        self.push_advance(adv);
        if let Some(name) = magic_half {
            let paired = self.has_magic_quality() && self.has_magic_talent();
            self.sheet.unpaired = if paired { None } else { Some(name) };
        }
    }

    fn push_advance(&mut self, adv: &Advance) {
        let s = &mut self.sheet;
        match adv {
            Advance::ProfessionSpecialization { name } => {
                s.profession.specializations.push(name.trim().to_string())
            }
            Advance::SideSpecialization { profession, name } => {
                if let Some(p) = s
                    .side_professions
                    .iter_mut()
                    .find(|p| same_name(p.name.trim(), profession.trim()))
                {
                    p.specializations.push(name.trim().to_string());
                }
            }
            Advance::SideProfession { name } => s.side_professions.push(ProfessionDraft {
                name: name.trim().to_string(),
                specializations: Vec::new(),
            }),
            Advance::Quality { name } => s.qualities.push(name.trim().to_string()),
            Advance::SpecialTalent { talent } => s.special_talents.push(talent.clone()),
        }
        s.advancements.push(adv.kind());
        // The advancement a consequential session gave is taken. R-SA-9.
        s.advancement_due = false;
    }

    /// Check a completed-cycle change.
    ///
    /// # Errors
    /// [`AdvanceError`] naming the rule.
    pub fn check_change(&self, change: &CycleChange) -> Result<(), AdvanceError> {
        if self.cycle_changes_left() == 0 {
            return Err(AdvanceError::NoCycleCompleted);
        }
        match change {
            CycleChange::ProfessionWord { profession, to } => {
                if self.find_profession(profession).is_none() {
                    return Err(AdvanceError::NoProfession {
                        name: profession.clone(),
                    });
                }
                let w = words(to);
                if w == 0
                    || w > 2
                    || to.chars().count() > MAX_TEXT
                    || control_char(to, false).is_some()
                {
                    return Err(AdvanceError::Words { name: to.clone() });
                }
                // Exactly one word changes.
                let old: Vec<String> = profession
                    .split_whitespace()
                    .map(str::to_lowercase)
                    .collect();
                let new: Vec<String> = to.split_whitespace().map(str::to_lowercase).collect();
                let changed = old.len() == new.len()
                    && old.iter().zip(&new).filter(|(a, b)| a != b).count() == 1;
                if !changed {
                    return Err(AdvanceError::OneWord);
                }
                Ok(())
            }
            CycleChange::Swap { side } => match self.find_profession(side) {
                Some((false, _)) => Ok(()),
                _ => Err(AdvanceError::NoSideProfession { name: side.clone() }),
            },
            CycleChange::Quality { from, to } => {
                if self.find_quality(from).is_none() {
                    return Err(AdvanceError::NoQuality { name: from.clone() });
                }
                if to.trim().is_empty()
                    || to.chars().count() > MAX_TEXT
                    || control_char(to, false).is_some()
                {
                    return Err(AdvanceError::Name);
                }
                self.check_new_quality(to, Some(from))?;
                if self.elements().iter().any(|e| same_name(e, to.trim())) {
                    return Err(AdvanceError::Exists {
                        name: to.trim().to_string(),
                    });
                }
                Ok(())
            }
        }
    }

    /// Apply a completed-cycle change (checked by [`Character::check_change`]).
    pub fn apply_change(&mut self, change: &CycleChange) {
        let s = &mut self.sheet;
        match change {
            CycleChange::ProfessionWord { profession, to } => {
                let t = profession.trim();
                if same_name(s.profession.name.trim(), t) {
                    s.profession.name = to.trim().to_string();
                } else if let Some(p) = s
                    .side_professions
                    .iter_mut()
                    .find(|p| same_name(p.name.trim(), t))
                {
                    p.name = to.trim().to_string();
                }
                s.cycle_changes.push(CycleChangeKind::ProfessionWord);
            }
            CycleChange::Swap { side } => {
                if let Some(p) = s
                    .side_professions
                    .iter_mut()
                    .find(|p| same_name(p.name.trim(), side.trim()))
                {
                    std::mem::swap(p, &mut s.profession);
                }
                s.cycle_changes.push(CycleChangeKind::Swap);
            }
            CycleChange::Quality { from, to } => {
                if let Some(q) = s
                    .qualities
                    .iter_mut()
                    .find(|q| same_name(q.trim(), from.trim()))
                {
                    *q = to.trim().to_string();
                }
                // An unpaired Quality changed away no longer waits (R-SA-12).
                if s.unpaired
                    .as_deref()
                    .is_some_and(|u| same_name(u.trim(), from.trim()))
                {
                    s.unpaired = None;
                }
                s.cycle_changes.push(CycleChangeKind::Quality);
            }
        }
    }

    /// Mutable access for the table's events (Luck, Injuries, Stresses).
    pub(crate) fn sheet_mut(&mut self) -> &mut CharacterDraft {
        &mut self.sheet
    }
}
