//! [`Character`]: a draft checked against every rule of creation
//! ([`Character::from_draft`]), and the sheet read back.

use super::*;

impl Character {
    /// Validate a draft. Every broken rule is listed in the error.
    ///
    /// # Errors
    /// [`DraftError`] with every [`DraftProblem`] and the draft.
    pub fn from_draft(draft: CharacterDraft) -> Result<Character, DraftError> {
        let mut problems = Vec::new();
        let suit = check_identity(&draft, &mut problems);
        let traits = check_traits(&draft, suit, &mut problems);
        let spent = draft.xp_spent();
        check_caps(&draft, &mut problems);
        let skills = checked_skills(&draft, &mut problems);
        let specialties = checked_specialties(&draft, &skills, &mut problems);
        let advantages = checked_advantages(&draft, &mut problems);
        check_texts(&draft, &mut problems);
        check_lists_and_gear(&draft, &mut problems);
        let available = draft.xp_available();
        if spent > available {
            problems.push(DraftProblem::Overspent { spent, available });
        }
        match suit {
            Some(suit) if problems.is_empty() => Ok(Character {
                name: draft.name.trim().to_string(),
                player: draft.player.trim().to_string(),
                suit,
                traits,
                skills,
                specialties,
                advantages,
                disadvantages: draft.disadvantages,
                xp_available: available,
                xp_spent: spent,
                wildcards: draft.wildcards,
                custom_skills: draft
                    .custom_skills
                    .iter()
                    .map(|c| c.trim().to_string())
                    .filter(|c| !is_skill(c, &[]))
                    .collect(),
                pools: Trait::ALL.map(|t| draft.pools.get(t)),
                weapons: draft.weapons,
                armour: draft.armour,
            }),
            _ => Err(DraftError {
                problems,
                draft: Box::new(draft),
            }),
        }
    }

    /// Read and validate a TOML sheet.
    ///
    /// # Errors
    /// [`SheetError::Toml`] for unreadable TOML (naming the field), else
    /// [`SheetError::Rules`].
    pub fn from_toml(text: &str) -> Result<Character, SheetError> {
        let draft: CharacterDraft =
            toml::from_str(text).map_err(|e| SheetError::Toml(e.to_string()))?;
        Character::from_draft(draft).map_err(SheetError::Rules)
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The player (seat) name; empty for the Dealer's.
    pub fn player(&self) -> &str {
        &self.player
    }
    /// The Suit.
    pub fn suit(&self) -> Suit {
        self.suit
    }
    /// A Trait's score.
    pub fn trait_score(&self, t: Trait) -> i64 {
        self.traits[t.index()]
    }
    /// A pool's full size: Trait x 5 (R-GB-5).
    pub fn pool_max(&self, t: Trait) -> i64 {
        self.trait_score(t) * 5
    }
    /// A pool as the sheet carries it into an encounter: the value written on
    /// the sheet, else full (Trait x 5; R-GB-5).
    pub fn pool_now(&self, t: Trait) -> i64 {
        self.pools[t.index()].unwrap_or_else(|| self.pool_max(t))
    }
    /// XP earned in play (the sheet's `earned_xp`).
    pub fn earned_xp(&self) -> i64 {
        self.xp_available - STARTING_XP - self.disadvantages.len() as i64
    }
    /// The custom skills of the sheet that are not skills of the book.
    pub fn custom_skills(&self) -> &[String] {
        &self.custom_skills
    }

    /// The sheet this character is, as [`Character::from_toml`] reads it back:
    /// skills of the book at rank 1 left out, Advantages by their book names
    /// (`Counter<Sword>`), `earned_xp` recounted, the pools as carried.
    pub fn to_draft(&self) -> CharacterDraft {
        let skills = self
            .skills
            .iter()
            .filter(|(k, r)| {
                **r != 1
                    || !(SKILLS.iter().any(|b| b.eq_ignore_ascii_case(k))
                        || self.custom_skills.iter().any(|c| c.eq_ignore_ascii_case(k)))
            })
            .map(|(k, r)| (k.clone(), *r))
            .collect();
        let mut pools = Pools::default();
        for t in Trait::ALL {
            pools.set(t, self.pools[t.index()]);
        }
        CharacterDraft {
            name: self.name.clone(),
            player: self.player.clone(),
            suit: self.suit.to_string(),
            body: self.traits[0],
            spirit: self.traits[1],
            mind: self.traits[2],
            luck: self.traits[3],
            custom_skills: self.custom_skills.clone(),
            advantages: self.advantages.iter().map(ToString::to_string).collect(),
            disadvantages: self.disadvantages.clone(),
            earned_xp: self.earned_xp(),
            wildcards: self.wildcards,
            pools,
            armour: self.armour.clone(),
            skills,
            specialties: self
                .specialties
                .iter()
                .map(|(n, a, b)| SpecialtyDraft {
                    name: n.clone(),
                    skills: vec![a.clone(), b.clone()],
                })
                .collect(),
            weapons: self.weapons.clone(),
        }
    }

    /// True when both are the same character, whatever order the sheet listed
    /// the Advantages in.
    pub fn same_sheet(&self, other: &Character) -> bool {
        let mut a = self.clone();
        let mut b = other.clone();
        a.advantages.sort();
        b.advantages.sort();
        a == b
    }

    /// The highest Trait (Reinforce and Involve use it for the Power Rating).
    pub fn highest_trait(&self) -> i64 {
        self.traits.iter().copied().max().unwrap_or(1)
    }
    /// A skill's rank, `None` for a skill the sheet does not have. `<Type> Combat`
    /// and `Craft <Type>` not on the sheet are rank 1.
    pub fn skill(&self, name: &str) -> Option<i64> {
        let n = name.trim();
        self.skills
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, r)| *r)
            .or_else(|| is_skill(n, &[]).then_some(1))
    }
    /// Every skill with its rank.
    pub fn skills(&self) -> &BTreeMap<String, i64> {
        &self.skills
    }
    /// Specialties: (name, skill, skill).
    pub fn specialties(&self) -> &[(String, String, String)] {
        &self.specialties
    }
    /// A Specialty's rank: the lower of its two skills ("Specialties").
    pub fn specialty_rank(&self, name: &str) -> Option<i64> {
        let (_, a, b) = self
            .specialties
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name.trim()))?;
        Some(self.skill(a)?.min(self.skill(b)?))
    }
    /// The Advantages (Toughness and Resolve once per time taken).
    pub fn advantages(&self) -> &[Advantage] {
        &self.advantages
    }
    /// How many times the character has `a`.
    pub fn has(&self, a: &Advantage) -> usize {
        self.advantages.iter().filter(|x| *x == a).count()
    }
    /// Disadvantages.
    pub fn disadvantages(&self) -> &[String] {
        &self.disadvantages
    }
    /// XP: (available, spent).
    pub fn xp(&self) -> (i64, i64) {
        (self.xp_available, self.xp_spent)
    }
    /// Wildcards at the start.
    pub fn wildcards(&self) -> u32 {
        self.wildcards
    }
    /// Weapons carried.
    pub fn weapons(&self) -> &[Weapon] {
        &self.weapons
    }
    /// Armour worn.
    pub fn armour(&self) -> Option<&Armour> {
        self.armour.as_ref()
    }

    /// A text sheet.
    pub fn sheet(&self) -> String {
        let mut s = format!(
            "{} ({}; {} / {})\n",
            self.name,
            if self.player.is_empty() {
                "the Dealer's"
            } else {
                &self.player
            },
            self.suit,
            self.suit.tarot_name()
        );
        for t in Trait::ALL {
            let pool = match self.pools[t.index()] {
                Some(now) => format!("{now}/{}", self.pool_max(t)),
                None => self.pool_max(t).to_string(),
            };
            s += &format!(
                "  {:<6} {}  {} {pool}\n",
                t.to_string(),
                self.trait_score(t),
                t.pool_name(),
            );
        }
        let raised: Vec<String> = self
            .skills
            .iter()
            .filter(|(_, r)| **r > 1)
            .map(|(k, r)| format!("{k} {r}"))
            .collect();
        s += &format!(
            "  Skills: every book skill at 1{}{}\n",
            if raised.is_empty() { "" } else { "; " },
            raised.join(", ")
        );
        for (n, a, b) in &self.specialties {
            s += &format!(
                "  Specialty {n} ({a} x {b}) rank {}\n",
                self.specialty_rank(n).unwrap_or(0)
            );
        }
        let adv: Vec<String> = self
            .advantages
            .iter()
            .map(|a| format!("{a} ({})", a.suit()))
            .collect();
        s += &format!("  Advantages: {}\n", adv.join(", "));
        if !self.disadvantages.is_empty() {
            s += &format!("  Disadvantages: {}\n", self.disadvantages.join(", "));
        }
        s += &format!(
            "  XP {} of {} spent; Wildcards {}",
            self.xp_spent, self.xp_available, self.wildcards
        );
        for w in &self.weapons {
            s += &format!("\n  Weapon {} (+{}, {})", w.name, w.damage, w.skill);
        }
        if let Some(a) = &self.armour {
            s += &format!("\n  Armour {} (-{})", a.name, a.reduction);
        }
        s
    }
}

/// The name and the player seat (the table's [`RULE_NAMES`]) and the Suit
/// ("Suits", [`RULE_SUITS`]); the Suit, if it is one.
fn check_identity(draft: &CharacterDraft, problems: &mut Vec<DraftProblem>) -> Option<Suit> {
    if draft.name.trim().is_empty() {
        problems.push(DraftProblem::NoName);
    } else if let Err(e) = check_name("name", &draft.name) {
        problems.push(DraftProblem::BadName(e));
    }
    if !draft.player.trim().is_empty()
        && let Err(e) = check_seat_name("player", &draft.player)
    {
        problems.push(DraftProblem::BadName(e));
    }
    let suit = Suit::parse(&draft.suit);
    if suit.is_none() {
        problems.push(DraftProblem::UnknownSuit(draft.suit.clone()));
    }
    suit
}

/// Each Trait from 1 (the Suit's from 2) to [`MAX_TRAIT`] ("Suits"), and a pool
/// kept on the sheet within 0..=Trait x 5 ("Combat"; R-GB-5); the four
/// Traits as the sheet gives them.
fn check_traits(
    draft: &CharacterDraft,
    suit: Option<Suit>,
    problems: &mut Vec<DraftProblem>,
) -> [i64; 4] {
    let suit_trait = suit.map(Trait::of_suit);
    let traits = [draft.body, draft.spirit, draft.mind, draft.luck];
    for t in Trait::ALL {
        let min = if Some(t) == suit_trait { 2 } else { 1 };
        let got = traits[t.index()];
        if !(min..=MAX_TRAIT).contains(&got) {
            problems.push(DraftProblem::TraitOutOfRange {
                field: t.to_string().to_ascii_lowercase(),
                min,
                max: MAX_TRAIT,
                got,
            });
        } else if let Some(now) = draft.pools.get(t)
            && !(0..=got * 5).contains(&now)
        {
            problems.push(DraftProblem::PoolOutOfRange {
                pool: t.pool_name().into(),
                trait_name: t.to_string(),
                max: got * 5,
                got: now,
            });
        }
    }
    traits
}

/// Tabula's caps on input ([`RULE_CAPS`]): lists, Wildcards, earned XP.
fn check_caps(draft: &CharacterDraft, problems: &mut Vec<DraftProblem>) {
    for (field, len) in [
        ("skills", draft.skills.len()),
        ("custom_skills", draft.custom_skills.len()),
        ("specialties", draft.specialties.len()),
        ("advantages", draft.advantages.len()),
        ("disadvantages", draft.disadvantages.len()),
        ("weapons", draft.weapons.len()),
    ] {
        if len > MAX_LIST {
            problems.push(DraftProblem::OverCap {
                field: field.into(),
                max: MAX_LIST as i64,
            });
        }
    }
    if draft.wildcards > MAX_WILDCARDS {
        problems.push(DraftProblem::OverCap {
            field: "wildcards".into(),
            max: i64::from(MAX_WILDCARDS),
        });
    }
    if !(0..=MAX_EARNED_XP).contains(&draft.earned_xp) {
        problems.push(DraftProblem::OverCap {
            field: "earned_xp".into(),
            max: MAX_EARNED_XP,
        });
    }
}

/// Every book skill at 1, the custom skills at 1, and the ranks the sheet
/// gives: each skill once, a skill of the book or a custom one, rank 1..=
/// [`MAX_RANK`] ("Skills", "Points & Costs").
fn checked_skills(
    draft: &CharacterDraft,
    problems: &mut Vec<DraftProblem>,
) -> BTreeMap<String, i64> {
    let mut skills: BTreeMap<String, i64> = SKILLS.iter().map(|s| (s.to_string(), 1)).collect();
    for s in &draft.custom_skills {
        skills.insert(s.trim().to_string(), 1);
    }
    let mut listed: Vec<&str> = Vec::new();
    for (name, rank) in &draft.skills {
        if listed.iter().any(|l| same_name(l, name)) {
            problems.push(DraftProblem::RepeatedSkill(name.clone()));
            continue;
        }
        listed.push(name);
        if !is_skill(name, &draft.custom_skills) {
            problems.push(DraftProblem::UnknownSkill(name.clone()));
            continue;
        }
        if !(1..=MAX_RANK).contains(rank) {
            problems.push(DraftProblem::RankOutOfRange {
                skill: name.clone(),
                max: MAX_RANK,
                got: *rank,
            });
            continue;
        }
        let key = skills
            .keys()
            .find(|k| k.eq_ignore_ascii_case(name.trim()))
            .cloned()
            .unwrap_or_else(|| name.trim().to_string());
        skills.insert(key, *rank);
    }
    skills
}

/// The Specialties whose shape holds: each once, two different known skills
/// at rank 2 or more ("Specialties"), as (name, skill, skill).
fn checked_specialties(
    draft: &CharacterDraft,
    skills: &BTreeMap<String, i64>,
    problems: &mut Vec<DraftProblem>,
) -> Vec<(String, String, String)> {
    let rank_of = |s: &str| {
        skills
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(s.trim()))
            .map(|(_, r)| *r)
    };
    let mut specialties = Vec::new();
    for (k, sp) in draft.specialties.iter().enumerate() {
        if draft.specialties[..k]
            .iter()
            .any(|o| same_name(&o.name, &sp.name))
        {
            problems.push(DraftProblem::RepeatedSpecialty(sp.name.clone()));
            continue;
        }
        let [a, b] = sp.skills.as_slice() else {
            problems.push(DraftProblem::SpecialtyShape(sp.name.clone()));
            continue;
        };
        if a.trim().eq_ignore_ascii_case(b.trim()) {
            problems.push(DraftProblem::SpecialtyShape(sp.name.clone()));
            continue;
        }
        let mut ok = true;
        for s in [a, b] {
            match rank_of(s) {
                None => {
                    problems.push(DraftProblem::UnknownSkill(s.clone()));
                    ok = false;
                }
                Some(r) if r < 2 => {
                    problems.push(DraftProblem::SpecialtyRankTooLow {
                        name: sp.name.clone(),
                        skill: s.clone(),
                        rank: r,
                    });
                    ok = false;
                }
                Some(_) => {}
            }
        }
        if ok {
            specialties.push((sp.name.clone(), a.clone(), b.clone()));
        }
    }
    specialties
}

/// The Advantages the book knows, each once but Toughness and Resolve (up to
/// [`advantages::MAX_STACK`] times) ("Advantages"; R-GB-8).
fn checked_advantages(draft: &CharacterDraft, problems: &mut Vec<DraftProblem>) -> Vec<Advantage> {
    let mut advantages: Vec<Advantage> = Vec::new();
    for text in &draft.advantages {
        match Advantage::parse(text) {
            None => problems.push(DraftProblem::UnknownAdvantage(text.clone())),
            Some(a) => {
                // Counter<Sword> and Counter<sword> are the same Advantage.
                let count = advantages
                    .iter()
                    .filter(|x| same_name(&x.to_string(), &a.to_string()))
                    .count();
                let stacks = matches!(a, Advantage::Toughness | Advantage::Resolve);
                if count > 0 && !stacks {
                    problems.push(DraftProblem::RepeatedAdvantage(a.to_string()));
                } else if stacks && count >= advantages::MAX_STACK {
                    problems.push(DraftProblem::TooManyStacks(a.to_string()));
                } else {
                    advantages.push(a);
                }
            }
        }
    }
    advantages
}

/// Every text on the sheet as the table's [`RULE_NAMES`] allows it.
fn check_texts(draft: &CharacterDraft, problems: &mut Vec<DraftProblem>) {
    // Every text on the sheet reaches other seats' screens: no control
    // characters (a terminal escape code), names of usable length.
    let names = draft
        .specialties
        .iter()
        .map(|sp| ("specialties.name", sp.name.as_str()))
        .chain(draft.skills.keys().map(|k| ("skills", k.as_str())))
        .chain(
            draft
                .custom_skills
                .iter()
                .map(|k| ("custom_skills", k.as_str())),
        )
        .chain(
            draft
                .weapons
                .iter()
                .map(|w| ("weapons.name", w.name.as_str())),
        )
        .chain(
            draft
                .weapons
                .iter()
                .map(|w| ("weapons.skill", w.skill.as_str())),
        )
        .chain(
            draft
                .armour
                .iter()
                .map(|a| ("armour.name", a.name.as_str())),
        );
    for (field, text) in names {
        if let Err(e) = check_name(field, text) {
            problems.push(DraftProblem::BadName(e));
        }
    }
    for d in draft.disadvantages.iter().chain(draft.advantages.iter()) {
        if let Some(c) = d.chars().find(|c| c.is_control()) {
            problems.push(DraftProblem::BadName(NameError::ControlCharacter {
                field: "advantages / disadvantages".into(),
                code: c as u32,
            }));
        }
    }
}

/// The two starting Advantages (R-GB-8), each Disadvantage once ("Points &
/// Costs"), weapons' damage and armour's reduction 0..=20 ("The Charts";
/// R-GB-10).
fn check_lists_and_gear(draft: &CharacterDraft, problems: &mut Vec<DraftProblem>) {
    if draft.advantages.len() < FREE_ADVANTAGES {
        problems.push(DraftProblem::TooFewAdvantages {
            got: draft.advantages.len(),
        });
    }
    for (k, d) in draft.disadvantages.iter().enumerate() {
        if draft.disadvantages[..k].iter().any(|o| same_name(o, d)) {
            problems.push(DraftProblem::RepeatedDisadvantage(d.clone()));
        }
    }
    for w in &draft.weapons {
        if !(0..=20).contains(&w.damage) {
            problems.push(DraftProblem::GearOutOfRange {
                field: format!("weapons.{}.damage", w.name),
                got: w.damage,
            });
        }
    }
    if let Some(a) = &draft.armour
        && !(0..=20).contains(&a.reduction)
    {
        problems.push(DraftProblem::GearOutOfRange {
            field: "armour.reduction".into(),
            got: a.reduction,
        });
    }
}
