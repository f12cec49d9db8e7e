//! Character creation the way the book teaches it, and the sheet an encounter
//! leaves: the creation half of `impl CharacterBook for Scratch` (advancement
//! is in [`crate::advancement`]).
//!
//! The book has no numbered creation procedure: creation is its "Abilities"
//! section ("Characters may be created by distributing character points (CP)
//! between 1 or more abilities. Each CP gives the character one ability level
//! ... No ability can receive more levels than a certain maximum level") with
//! the sheet the introduction shows (`Name (A agility, I intelligence, S
//! strength, T stamina): description`, then `LEVEL ability: what it
//! represents`) and command's minions ("Support Abilities"). The steps follow
//! the book's order: the character, the CP and maximum level, then the
//! abilities section by section, the setting's own abilities, the minions.
//!
//! The builder checks nothing of its own: every problem it shows comes from
//! [`Character::from_draft`] under the book's limits ([`TableRules::default`]:
//! 10 CP, maximum level 4, strength base 8), which is what `tabula scratch
//! character validate FILE` runs. Only "merely unfinished" problems (no name
//! yet, no ability yet) are allowed while building.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use tabula_core::builder::{
    AdvanceError, Advanced, Budget, BuildProblem, BuildRefusal, BuildView, CharacterBook, Derived,
    FieldKind, FieldValue, FieldView, MAX_TEXT_CHARS, SheetAfter, StepView,
};
use tabula_core::names::same_name;
use tabula_core::system::CommandDoc;
use tabula_core::{Roller, Rule, Seat};

use crate::abilities::Ability;
use crate::character::{
    Carrying, Character, CharacterDraft, CraftedBonus, Defenses, HitPointState, LoadError,
    MAX_MINIONS, Printed, Problem,
};
use crate::encounter::State;
use crate::rules::{self, MAX_LEVEL_CAP, TableRules};
use crate::table::Scratch;

/// The most abilities of the setting's own (`[other_abilities]`, like
/// Chokestar's piloting) the builder offers slots for.
pub const MAX_OTHER_ABILITIES: usize = 4;

/// The most minions the `minions` field takes at all (the book allows two:
/// a third is refused by the rule, more are not a number of minions).
pub const MAX_MINION_COUNT: i64 = 8;

/// A character being made: the sheet ([`CharacterDraft`]) with every choice
/// optional until made, and the setting's own abilities as numbered slots so
/// their field keys stay put while they are renamed.
///
/// JSON/serde form: every field optional (`{}` is the empty draft).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Draft {
    /// The name (empty: not chosen yet).
    pub name: String,
    /// The id typed in commands (letters, digits, `-`); default: the name's.
    pub id: Option<String>,
    /// What the character is, in a line.
    pub description: Option<String>,
    /// The CP to distribute when lower than the book's 10 (R-SCR-7: never above
    /// the table's).
    pub cp: Option<i64>,
    /// The maximum level when lower than the book's 4 (R-SCR-7).
    pub max_level: Option<i64>,
    /// CP the GM awarded since creation (R-SCR-8, proposed): kept from an
    /// imported sheet, never offered as a field (see [`crate::advancement`]).
    pub awarded_cp: Option<i64>,
    /// The book's abilities by name (`shooting`) with the level chosen.
    pub abilities: BTreeMap<String, i64>,
    /// What each of the book's abilities represents, by ability name.
    pub notes: BTreeMap<String, String>,
    /// The setting's own abilities (no rules, cost CP), in slots.
    pub other: Vec<OtherAbility>,
    /// The defenses a book prints, kept from an imported sheet.
    pub printed: Option<Printed>,
    /// Temporary bonuses kept from an imported sheet (given at the table).
    pub crafted: Vec<CraftedBonus>,
    /// Command's minions, each a draft of its own.
    pub minions: Vec<Draft>,
    /// The setting's rules the draft is built under (a campaign's, R-SCR-9);
    /// `None`: the book's ([`TableRules::default`]). Never read from or
    /// written to JSON: the caller sets it with [`Draft::in_setting`] each
    /// time, so a draft cannot raise its own limits.
    #[serde(skip)]
    pub setting: Option<TableRules>,
}

/// One ability of the setting's own ("Scratch RPS abilities can be loosely
/// interpreted or adapted"; Chokestar's "2 CP to piloting ability").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OtherAbility {
    /// Its name (not one of the book's).
    pub name: String,
    /// Its level, once chosen.
    pub level: Option<i64>,
    /// What it represents.
    pub note: Option<String>,
}

impl Draft {
    /// The sheet this draft writes (legal or not).
    pub fn to_sheet(&self) -> CharacterDraft {
        let mut notes = self.notes.clone();
        let mut other_abilities = BTreeMap::new();
        for o in &self.other {
            if o.name.trim().is_empty() {
                continue;
            }
            if let Some(l) = o.level {
                other_abilities.insert(o.name.clone(), l);
            }
            if let Some(n) = &o.note {
                notes.insert(o.name.clone(), n.clone());
            }
        }
        CharacterDraft {
            name: self.name.clone(),
            id: self.id.clone(),
            description: self.description.clone().unwrap_or_default(),
            cp: self.cp,
            max_level: self.max_level,
            awarded_cp: self.awarded_cp,
            abilities: self.abilities.clone(),
            other_abilities,
            notes,
            printed: self.printed.clone(),
            crafted: self.crafted.clone(),
            minions: self.minions.iter().map(Draft::to_sheet).collect(),
        }
    }

    /// The draft a sheet is: the book's ability names in their own spelling
    /// (`Shooting` read as `shooting`), each other ability in a slot with its
    /// note. `to_sheet` gives an equivalent sheet back.
    pub fn from_sheet(sheet: CharacterDraft) -> Draft {
        let canonical = |map: &BTreeMap<String, ()>, k: &str| -> String {
            match Ability::parse(k) {
                Some(a) if !map.contains_key(a.name()) => a.name().to_string(),
                _ => k.to_string(),
            }
        };
        let mut abilities = BTreeMap::new();
        let mut seen = BTreeMap::new();
        for k in sheet
            .abilities
            .keys()
            .filter(|k| Ability::parse(k).is_none())
        {
            seen.insert(k.clone(), ());
        }
        // Canonical spellings first, so a file's `shooting` keeps its key.
        let mut keys: Vec<(&String, &i64)> = sheet.abilities.iter().collect();
        keys.sort_by_key(|(k, _)| Ability::parse(k).is_none_or(|a| a.name() != k.as_str()));
        for (k, v) in keys {
            let key = canonical(&seen, k);
            seen.insert(key.clone(), ());
            abilities.insert(key, *v);
        }
        let mut notes = BTreeMap::new();
        let mut seen_notes = BTreeMap::new();
        let mut other = Vec::new();
        let mut rest = sheet.notes;
        for (name, level) in sheet.other_abilities {
            let key = rest
                .keys()
                .find(|k| Ability::parse(k).is_none() && k.eq_ignore_ascii_case(&name))
                .cloned();
            let note = key.and_then(|k| rest.remove(&k));
            other.push(OtherAbility {
                name,
                level: Some(level),
                note,
            });
        }
        let mut note_keys: Vec<(String, String)> = rest.into_iter().collect();
        note_keys.sort_by_key(|(k, _)| Ability::parse(k).is_none_or(|a| a.name() != k.as_str()));
        for (k, v) in note_keys {
            let key = canonical(&seen_notes, &k);
            seen_notes.insert(key.clone(), ());
            notes.insert(key, v);
        }
        Draft {
            name: sheet.name,
            id: sheet.id,
            description: (!sheet.description.is_empty()).then_some(sheet.description),
            cp: sheet.cp,
            max_level: sheet.max_level,
            awarded_cp: sheet.awarded_cp,
            abilities,
            notes,
            other,
            printed: sheet.printed,
            crafted: sheet.crafted,
            minions: sheet.minions.into_iter().map(Draft::from_sheet).collect(),
            setting: None,
        }
    }

    /// The draft under the setting's rules `rules` (a campaign's, R-SCR-9),
    /// its minions' too: every limit, problem and derived value the builder
    /// shows is then that setting's.
    pub fn in_setting(mut self, rules: TableRules) -> Draft {
        self.setting = Some(rules);
        self.minions = self
            .minions
            .into_iter()
            .map(|m| m.in_setting(rules))
            .collect();
        self
    }

    /// The rules the draft is checked against: its setting's, else the
    /// book's.
    fn rules(&self) -> TableRules {
        self.setting.unwrap_or_else(book_rules)
    }

    /// The level chosen for a book ability, if it is a level at all.
    fn level(&self, a: Ability) -> Option<i64> {
        self.abilities.get(a.name()).copied()
    }
}

/// The limits a sheet is checked against when no table is named: the book's
/// (10 CP, maximum level 4, strength base 8 by R-SCR-1), as `tabula scratch
/// character validate FILE` without options.
fn book_rules() -> TableRules {
    TableRules::default()
}

/// Every problem [`Character::from_draft`] finds in the draft's sheet under the
/// book's limits.
fn problems(d: &Draft) -> Vec<Problem> {
    match Character::from_draft(d.to_sheet(), &d.rules()) {
        Ok(_) => Vec::new(),
        Err(e) => e.problems,
    }
}

/// True for what is merely not done yet: no name, no ability with a level
/// (for the character or a minion).
fn unfinished(p: &Problem) -> bool {
    match p {
        Problem::EmptyName | Problem::NoAbilities => true,
        Problem::Minion { problem, .. } => unfinished(problem),
        _ => false,
    }
}

/// True when `p` was already there before a change, or is no worse (a budget
/// overspent by no more than before: an imported sheet can be mended one
/// level at a time).
fn covered(p: &Problem, before: &[Problem]) -> bool {
    if before.contains(p) {
        return true;
    }
    match p {
        Problem::OverBudget { spent, cp } => before.iter().any(|b| {
            matches!(b, Problem::OverBudget { spent: s0, cp: c0 }
                if spent.saturating_sub(u64::from(*cp)) <= s0.saturating_sub(u64::from(*c0)))
        }),
        Problem::MinionCpAboveCommand { total, command } => before.iter().any(|b| {
            matches!(b, Problem::MinionCpAboveCommand { total: t0, command: c0 }
                if total.saturating_sub(u64::from(*command)) <= t0.saturating_sub(u64::from(*c0)))
        }),
        _ => false,
    }
}

/// The field a problem is about, as a key of [`CharacterBook::build_view`].
fn field_of(p: &Problem, d: &Draft, prefix: &str) -> Option<String> {
    let level_key = |ability: &str| -> Option<String> {
        if d.abilities.contains_key(ability) {
            Some(format!("{prefix}abilities.{ability}"))
        } else {
            d.other
                .iter()
                .position(|o| o.name == ability)
                .map(|i| format!("{prefix}other.{i}.level"))
        }
    };
    match p {
        Problem::EmptyName | Problem::BadName { .. } => Some(format!("{prefix}name")),
        Problem::BadId { .. } => Some(format!("{prefix}id")),
        Problem::UnknownAbility { name } => Some(format!("{prefix}abilities.{name}")),
        Problem::NegativeLevel { ability, .. }
        | Problem::AboveMaxLevel { ability, .. }
        | Problem::AboveCap { ability, .. } => level_key(ability),
        Problem::NoAbilities => Some(format!("{prefix}abilities.toughness")),
        Problem::AboveTableLimit { field, .. } | Problem::BadLimit { field, .. } => {
            Some(format!("{prefix}{field}"))
        }
        Problem::NoteWithoutAbility { name } => {
            if d.notes.contains_key(name) {
                Some(format!("{prefix}notes.{name}"))
            } else {
                d.other
                    .iter()
                    .position(|o| &o.name == name)
                    .map(|i| format!("{prefix}other.{i}.note"))
            }
        }
        Problem::TooManyMinions { .. }
        | Problem::MinionsWithoutCommand
        | Problem::MinionCpAboveCommand { .. } => Some(format!("{prefix}minions")),
        Problem::MinionHasCommand { index, .. } => {
            let has = d
                .minions
                .get(*index)
                .is_some_and(|m| m.abilities.contains_key("command"));
            Some(if has {
                format!("{prefix}minions.{index}.abilities.command")
            } else {
                format!("{prefix}minions")
            })
        }
        Problem::Minion { index, problem, .. } => d
            .minions
            .get(*index)
            .and_then(|m| field_of(problem, m, &format!("{prefix}minions.{index}."))),
        Problem::OverBudget { .. }
        | Problem::BadAwardedCp { .. }
        | Problem::MinionAwardedCp { .. }
        | Problem::CraftedWithoutAbility { .. }
        | Problem::CraftedTwice { .. }
        | Problem::BadCrafter { .. } => None,
    }
}

/// A problem of the validator as the builder shows it: the same rule, its
/// field, and whether it is merely unfinished.
pub fn build_problem(p: &Problem, d: &Draft) -> BuildProblem {
    BuildProblem {
        field: field_of(p, d, ""),
        rule: p.rule(),
        message: p.message(),
        unfinished: unfinished(p),
    }
}

/// Problems only the builder has (its slots): another ability with a level
/// but no name yet. Always unfinished.
fn slot_problems(d: &Draft, prefix: &str, out: &mut Vec<BuildProblem>) {
    for (i, o) in d.other.iter().enumerate() {
        if o.name.trim().is_empty() && (o.level.is_some_and(|l| l != 0) || o.note.is_some()) {
            out.push(BuildProblem {
                field: Some(format!("{prefix}other.{i}.name")),
                rule: rules::ABILITIES,
                message: format!("{prefix}other.{i}: an ability needs a name"),
                unfinished: true,
            });
        }
    }
    for (i, m) in d.minions.iter().enumerate() {
        slot_problems(m, &format!("{prefix}minions.{i}."), out);
    }
}

/// The numbers of a draft the view shows: what the validator will use.
struct Numbers {
    /// The CP to distribute: the sheet's (if 1..=10) or the book's 10, plus
    /// the CP awarded.
    budget: i64,
    /// Levels distributed (the book's abilities and the setting's).
    spent: i64,
    /// The maximum level: the sheet's (if 1..=4) or the book's 4.
    max_level: i64,
    /// The command level (the minions' CP).
    command: i64,
    /// The minions' levels, together.
    minion_spent: i64,
}

/// A level as the validator counts it: 0..=cap, anything else counts 0.
fn counted(level: i64) -> i64 {
    if (0..=i64::from(MAX_LEVEL_CAP)).contains(&level) {
        level
    } else {
        0
    }
}

/// Levels a draft distributes, as `Character::from_draft` counts them.
fn spent(d: &Draft) -> i64 {
    let book: i64 = d
        .abilities
        .iter()
        .filter(|(k, _)| Ability::parse(k).is_some())
        .map(|(_, v)| counted(*v))
        .sum();
    let other: i64 = d
        .other
        .iter()
        .filter(|o| !o.name.trim().is_empty())
        .filter_map(|o| o.level)
        .map(counted)
        .sum();
    book.saturating_add(other)
}

/// A sheet's own limit as the validator reads it: `given` when in 1..=`table`,
/// else the table's.
fn limit(given: Option<i64>, table: u32) -> i64 {
    match given {
        Some(v) if (1..=i64::from(table)).contains(&v) => v,
        _ => i64::from(table),
    }
}

fn numbers(d: &Draft) -> Numbers {
    let r = d.rules();
    let awarded = d
        .awarded_cp
        .filter(|a| (0..=i64::from(rules::MAX_CP_CAP)).contains(a))
        .unwrap_or(0);
    Numbers {
        budget: limit(d.cp, r.cp).saturating_add(awarded),
        spent: spent(d),
        max_level: limit(d.max_level, r.max_level),
        command: d.level(Ability::Command).map(counted).unwrap_or(0),
        minion_spent: d.minions.iter().map(spent).sum(),
    }
}

/// One line of the book on each ability ("Toughness" ... "Support Abilities").
fn ability_help(a: Ability) -> &'static str {
    match a {
        Ability::Toughness => {
            "Toughness ability level is a character's maximum hit points; an average person without armor has 3, a big person 4, heavy armor gives 2 more. Characters without toughness may not perform actions during encounters."
        }
        Ability::Shooting => {
            "A powerful long range normal attack against one character: 2 damage on a success."
        }
        Ability::Blasting => {
            "A long range normal attack on up to three separate enemies: 1 damage to each one hit."
        }
        Ability::Knockout => {
            "An extremely devastating close range attack: 4 damage if the attacker is healthy, 2 if injured; it delays the attacker."
        }
        Ability::Fighting => {
            "Used for basic attack rolls; a healthy attacker makes two basic attacks as a single action."
        }
        Ability::Wrestling => {
            "Added to basic attack and hold rolls; holds cause 1 damage when the attacker is healthy and not delayed. Counts for strength."
        }
        Ability::Stealth => {
            "Add 2 times the highest stealth in the initiative group to its initiative roll. Counts for agility."
        }
        Ability::Detection => {
            "Add 10 times the highest detection in the initiative group to its initiative roll; can make hold rolls. Counts for intelligence."
        }
        Ability::Acrobatics => {
            "Getting up, across or over ropes, nets, ledges, ladders, fences, trees and cliffs. Counts for agility."
        }
        Ability::Quickness => "Movement on relatively level ground. Counts for agility.",
        Ability::Flying => {
            "Moving through the air when there is room to fly. Counts for agility. Gained later only with a good explanation."
        }
        Ability::Swimming => {
            "Moving in water: added to agility and close range attacks in water. Counts for strength."
        }
        Ability::Healing => {
            "Revive incapacitated characters and heal injured ones (difficulty 10); not oneself. Counts for intelligence."
        }
        Ability::Craftsmanship => {
            "For each level, a temporary +1 bonus to a traveling companion's ability already at level 1 or more. Counts for intelligence."
        }
        Ability::Command => {
            "Provides one or two minions whose total CP is no greater than the command level; allows intimidate. Counts for intelligence."
        }
    }
}

/// The book's "could represent" line of each ability, for its note.
fn note_help(a: Ability) -> &'static str {
    match a {
        Ability::Toughness => {
            "Less toughness could represent fragility or lack of determination; more could represent armor, endurance or size."
        }
        Ability::Shooting => {
            "Shooting could represent guns, bows, throwing spears or powers that damage an enemy from a distance."
        }
        Ability::Blasting => {
            "Blasting could represent grenades, a submachine gun or breathing fire."
        }
        Ability::Knockout => {
            "Knockout could represent a powerful bludgeoning weapon, deadly assassination techniques, fast-acting venom or a very large character."
        }
        Ability::Fighting => {
            "Fighting could represent prowess with swords, other close range weapons, natural weapons or powerful striking martial arts."
        }
        Ability::Wrestling => {
            "Wrestling holds could represent chokes, locks and throws or a mixture of grappling and striking techniques."
        }
        Ability::Stealth => {
            "Stealth could represent camouflage, moving silently, hiding in shadows or slinking close to the ground."
        }
        Ability::Detection => {
            "Detection could represent alertness, perception, keen senses or tracking skills."
        }
        Ability::Acrobatics => {
            "Acrobatics could represent good balance, climbing, or jumping, or equipment that helps."
        }
        Ability::Quickness => {
            "Quickness could represent combat footwork, sprinting speed, or being able to keep moving without getting exhausted."
        }
        Ability::Flying => {
            "Flying could represent wings, a jetpack or other means of defying gravity."
        }
        Ability::Swimming => {
            "One or two levels could represent trained human ability; more, fins or a streamlined body."
        }
        Ability::Healing => {
            "Healing could represent emergency medicine training, fast-acting potions, or miraculous healing powers."
        }
        Ability::Craftsmanship => {
            "Craftsmanship could represent woodcarving, blacksmithing, auto mechanics, electrical engineering or robotics."
        }
        Ability::Command => {
            "Command could represent charisma to attract followers, rank that provides underlings, or teaching ability and students."
        }
    }
}

/// The ability sections of the book, in its order.
const SECTIONS: [(&str, &str, &str, Rule, &[Ability]); 5] = [
    (
        "toughness",
        "Toughness",
        "All characters have toughness: its level is the maximum hit points, and stamina is half of it, rounded down.",
        rules::TOUGHNESS,
        &[Ability::Toughness],
    ),
    (
        "attack",
        "Attack Abilities",
        "Most characters have at least one attack ability.",
        rules::ATTACK_ABILITIES,
        &[
            Ability::Shooting,
            Ability::Blasting,
            Ability::Knockout,
            Ability::Fighting,
            Ability::Wrestling,
        ],
    ),
    (
        "stalking",
        "Stalking Abilities",
        "Stealth and detection help a group go first in combat, and allow the surprise attack.",
        rules::STALKING_ABILITIES,
        &[Ability::Stealth, Ability::Detection],
    ),
    (
        "movement",
        "Movement Abilities",
        "Many characters have a defensive ability: movement abilities evade, distract and hold, each in its own terrain.",
        rules::MOVEMENT_ABILITIES,
        &[
            Ability::Acrobatics,
            Ability::Quickness,
            Ability::Flying,
            Ability::Swimming,
        ],
    ),
    (
        "support",
        "Support Abilities",
        "Healing, craftsmanship and command help allies.",
        rules::SUPPORT_ABILITIES,
        &[Ability::Healing, Ability::Craftsmanship, Ability::Command],
    ),
];

fn int_field(
    key: String,
    label: String,
    help: &str,
    min: i64,
    max: i64,
    value: Option<i64>,
) -> FieldView {
    FieldView {
        key,
        label,
        help: help.to_string(),
        kind: FieldKind::Int {
            min,
            max: max.max(min),
        },
        value: value.map(FieldValue::Int),
        required: false,
    }
}

fn text_field(
    key: String,
    label: String,
    help: &str,
    value: Option<&str>,
    required: bool,
) -> FieldView {
    FieldView {
        key,
        label,
        help: help.to_string(),
        kind: FieldKind::Text {
            max_chars: MAX_TEXT_CHARS,
        },
        value: value.map(|v| FieldValue::Text(v.to_string())),
        required,
    }
}

/// The fields of one ability (its level, and its note once it has a level).
/// `room` is what the budget leaves for it above its level now.
fn ability_fields(
    d: &Draft,
    (prefix, label): (&str, &str),
    a: Ability,
    max_level: i64,
    room: i64,
    out: &mut Vec<FieldView>,
) {
    let now = d.level(a);
    let cur = now.map(counted).unwrap_or(0);
    let max = max_level
        .min(i64::from(MAX_LEVEL_CAP))
        .min(cur.saturating_add(room))
        .max(0);
    out.push(int_field(
        format!("{prefix}abilities.{}", a.name()),
        format!("{label}{}", a.name()),
        ability_help(a),
        0,
        max,
        now,
    ));
    if now.is_some_and(|l| l > 0) {
        out.push(text_field(
            format!("{prefix}notes.{}", a.name()),
            format!("{label}{}: what it represents", a.name()),
            note_help(a),
            d.notes.get(a.name()).map(String::as_str),
            false,
        ));
    }
}

/// Levels and notes the sheet holds that no ability field shows (an imported
/// sheet's unknown ability, a note on an ability it lacks): shown so they can
/// be mended or cleared. `shown` are the abilities offered.
fn stray_fields(d: &Draft, prefix: &str, shown: &[Ability], out: &mut Vec<FieldView>) {
    for (k, v) in &d.abilities {
        if !shown.iter().any(|a| a.name() == k) {
            out.push(int_field(
                format!("{prefix}abilities.{k}"),
                format!("{k} (not offered here: clear it)"),
                "Not one of the book's abilities here; the setting's own abilities go in their own slots.",
                0,
                0,
                Some(*v),
            ));
        }
    }
    for (k, v) in &d.notes {
        let has = shown
            .iter()
            .any(|a| a.name() == k && d.level(*a).is_some_and(|l| l > 0));
        if !has {
            out.push(text_field(
                format!("{prefix}notes.{k}"),
                format!("note on {k} (no such ability: clear it)"),
                "A note goes with an ability the character has.",
                Some(v),
                false,
            ));
        }
    }
}

/// Every step of the book for `d`, in order.
fn steps(d: &Draft) -> Vec<StepView> {
    let n = numbers(d);
    let r = d.rules();
    let left = n.budget.saturating_sub(n.spent);
    let mut steps = Vec::new();
    let mut step = |id: &str, title: String, help: &str, rule: Rule, fields: Vec<FieldView>| {
        steps.push(StepView {
            id: id.to_string(),
            title,
            help: help.to_string(),
            rule,
            fields,
            done: false,
        });
    };
    step(
        "character",
        "1. The character".into(),
        "A Scratch RPS character looks something like this: \"Zimzambamalam (10 agility, 10 intelligence, 10 strength, 1 stamina): a master of magic\", then one line per ability, \"8 shooting: destroys enemies with bolts of lightning from his fingertips\".",
        rules::CHARACTER,
        vec![
            text_field(
                "name".into(),
                "Name".into(),
                "What the character is called.",
                (!d.name.is_empty()).then_some(d.name.as_str()),
                true,
            ),
            text_field(
                "id".into(),
                "Id".into(),
                "A short id typed in commands (letters, digits, '-'); leave it out to use the name's.",
                d.id.as_deref(),
                false,
            ),
            text_field(
                "description".into(),
                "Description".into(),
                "What the character is, in a line: \"a master of magic\", \"an enforcer in a white suit\".",
                d.description.as_deref(),
                false,
            ),
        ],
    );
    let highest = d
        .abilities
        .iter()
        .filter(|(k, _)| Ability::parse(k).is_some())
        .map(|(_, v)| counted(*v))
        .chain(d.other.iter().filter_map(|o| o.level).map(counted))
        .max()
        .unwrap_or(0);
    let awarded = n.budget.saturating_sub(limit(d.cp, r.cp));
    step(
        "limits",
        "2. Character points and maximum level".into(),
        "Characters are created by distributing character points (CP) between 1 or more abilities: each CP gives one ability level, and no ability can receive more levels than the maximum level. The book's characters were made with 10 CP and a maximum level of 4, \"good limits for making characters that are like average people\". A table's [rules] bind every character (R-SCR-7): choose lower numbers only if your table gives fewer.",
        rules::TABLE_LIMITS,
        vec![
            int_field(
                "cp".into(),
                "Character points (CP)".into(),
                "Each CP gives the character one ability level (the book: 10).",
                n.spent.saturating_sub(awarded).clamp(1, i64::from(r.cp)),
                i64::from(r.cp),
                d.cp,
            ),
            int_field(
                "max_level".into(),
                "Maximum level".into(),
                "No ability can receive more levels than this (the book: 4).",
                highest.clamp(1, i64::from(r.max_level)),
                i64::from(r.max_level),
                d.max_level,
            ),
        ],
    );
    let mut shown: Vec<Ability> = Vec::new();
    for (i, (id, title, help, rule, abilities)) in SECTIONS.iter().enumerate() {
        let mut fields = Vec::new();
        for a in *abilities {
            ability_fields(d, ("", ""), *a, n.max_level, left, &mut fields);
            shown.push(*a);
        }
        step(id, format!("{}. {title}", i + 3), help, *rule, fields);
    }
    let mut fields = Vec::new();
    for (i, o) in d.other.iter().enumerate() {
        let cur = o.level.map(counted).unwrap_or(0);
        fields.push(text_field(
            format!("other.{i}.name"),
            format!("Other ability {}: name", i + 1),
            "Its name in your setting (\"piloting\"); not one of the book's abilities.",
            (!o.name.is_empty()).then_some(o.name.as_str()),
            false,
        ));
        fields.push(int_field(
            format!("other.{i}.level"),
            format!("Other ability {}: level", i + 1),
            "It costs CP like any ability and has no rules in an encounter.",
            0,
            n.max_level.min(cur.saturating_add(left)),
            o.level,
        ));
        if o.level.is_some_and(|l| l > 0) {
            fields.push(text_field(
                format!("other.{i}.note"),
                format!("Other ability {}: what it represents", i + 1),
                "What it stands for in the setting.",
                o.note.as_deref(),
                false,
            ));
        }
    }
    if d.other.len() < MAX_OTHER_ABILITIES {
        let i = d.other.len();
        fields.push(text_field(
            format!("other.{i}.name"),
            format!("Other ability {}: name", i + 1),
            "Its name in your setting (\"piloting\"); not one of the book's abilities.",
            None,
            false,
        ));
        fields.push(int_field(
            format!("other.{i}.level"),
            format!("Other ability {}: level", i + 1),
            "It costs CP like any ability and has no rules in an encounter.",
            0,
            n.max_level.min(left),
            None,
        ));
    }
    stray_fields(d, "", &shown, &mut fields);
    step(
        "other",
        "8. Other abilities".into(),
        "Scratch RPS abilities can be loosely interpreted or adapted to a wide variety of settings; Chokestar was created with 2 CP to piloting ability. Abilities the book does not list cost CP and have no rules in an encounter.",
        rules::ABILITIES,
        fields,
    );
    let mut fields = Vec::new();
    if n.command > 0 || !d.minions.is_empty() {
        let count = i64::try_from(d.minions.len()).unwrap_or(i64::MAX);
        let most = if n.command > 0 {
            n.command.min(MAX_MINIONS as i64)
        } else {
            0
        };
        fields.push(int_field(
            "minions".into(),
            "Number of minions".into(),
            "Command provides one or two minions; each needs at least one CP of the command level.",
            0,
            most,
            (!d.minions.is_empty()).then_some(count),
        ));
        let mleft = n.command.saturating_sub(n.minion_spent);
        for (i, m) in d.minions.iter().enumerate() {
            let prefix = format!("minions.{i}.");
            fields.push(text_field(
                format!("{prefix}name"),
                format!("Minion {}: name", i + 1),
                "Each minion is a character of its own (\"Thugs\").",
                (!m.name.is_empty()).then_some(m.name.as_str()),
                true,
            ));
            fields.push(text_field(
                format!("{prefix}description"),
                format!("Minion {}: description", i + 1),
                "\"concealing blunt weapons under their long overcoats\"",
                m.description.as_deref(),
                false,
            ));
            let mut own = Vec::new();
            let max_level = limit(m.max_level, r.max_level);
            let label = format!("Minion {}: ", i + 1);
            for a in Ability::ALL.into_iter().filter(|a| *a != Ability::Command) {
                ability_fields(m, (&prefix, &label), a, max_level, mleft, &mut own);
            }
            let offered: Vec<Ability> = Ability::ALL
                .into_iter()
                .filter(|a| *a != Ability::Command)
                .collect();
            stray_fields(m, &prefix, &offered, &mut own);
            fields.extend(own);
        }
    }
    step(
        "minions",
        "9. Minions".into(),
        "Command is an ability that provides a character with one or two minions. The total CP of these minions is no greater than the character's command ability level, and they cannot have command ability.",
        rules::SUPPORT_ABILITIES,
        fields,
    );
    steps
}

/// Every field key of the draft now.
fn field_keys(d: &Draft) -> Vec<String> {
    steps(d)
        .into_iter()
        .flat_map(|s| s.fields.into_iter().map(|f| f.key))
        .collect()
}

/// The book's sheet heading: `Name (A agility, I intelligence, S strength, T
/// stamina): description`.
fn heading(name: &str, description: &str, d: &Defenses) -> String {
    let mut s = format!(
        "{} ({} agility, {} intelligence, {} strength, {} stamina)",
        if name.is_empty() {
            "(no name yet)"
        } else {
            name
        },
        d.agility,
        d.intelligence,
        d.strength,
        d.stamina
    );
    if !description.is_empty() {
        s.push_str(": ");
        s.push_str(description);
    }
    s
}

/// The defenses a draft's levels give (levels the validator refuses count 0).
fn defenses(d: &Draft) -> Defenses {
    let level = |a: Ability| -> u32 {
        d.level(a)
            .map(counted)
            .and_then(|l| u32::try_from(l).ok())
            .unwrap_or(0)
    };
    Defenses::from_levels(level, d.rules().strength_base)
}

fn derived(d: &Draft, n: &Numbers) -> Vec<Derived> {
    let def = defenses(d);
    let mut out = Vec::new();
    let mut push = |name: &str, value: String, rule: Rule| {
        out.push(Derived {
            name: name.to_string(),
            value,
            rule,
        });
    };
    push(
        "Sheet",
        heading(&d.name, d.description.as_deref().unwrap_or(""), &def),
        rules::CHARACTER,
    );
    push("Agility", def.agility.to_string(), rules::DEFENSES);
    push(
        "Intelligence",
        def.intelligence.to_string(),
        rules::PRINTED_DEFENSES,
    );
    push("Strength", def.strength.to_string(), rules::STRENGTH);
    push("Stamina", def.stamina.to_string(), rules::HIT_POINTS);
    push(
        "Maximum hit points",
        def.max_hit_points.to_string(),
        rules::HIT_POINTS,
    );
    let hp = def.max_hit_points;
    let st = def.stamina;
    let bands = if hp == 0 {
        "incapacitated at 0 (no toughness: cannot perform actions during encounters)".to_string()
    } else if hp > st {
        let injured = if st >= 1 {
            format!(
                "injured {}",
                if st == 1 {
                    "1".to_string()
                } else {
                    format!("1-{st}")
                }
            )
        } else {
            "never injured".to_string()
        };
        let healthy = if st + 1 == hp {
            hp.to_string()
        } else {
            format!("{}-{hp}", st + 1)
        };
        format!("healthy {healthy}, {injured}, incapacitated 0")
    } else {
        format!("{:?}", HitPointState::of(hp, st))
    };
    push("Hit points", bands, rules::HIT_POINTS);
    let c = Carrying::for_strength(def.strength);
    push(
        "Carrying",
        format!(
            "pack {} kg ({} lbs), carry {} kg ({} lbs), lift {} kg ({} lbs)",
            c.pack_kg, c.pack_lb, c.carry_kg, c.carry_lb, c.lift_kg, c.lift_lb
        ),
        rules::DEFENSES,
    );
    let count = d
        .abilities
        .iter()
        .filter(|(k, v)| Ability::parse(k).is_some() && counted(**v) > 0)
        .count()
        + d.other
            .iter()
            .filter(|o| o.level.is_some_and(|l| counted(l) > 0))
            .count();
    let fewest = if n.max_level > 0 {
        (n.budget + n.max_level - 1) / n.max_level
    } else {
        0
    };
    let mut advice = format!(
        "{count} abilities; characters typically have between three and six. Spending all {} CP within level {} takes at least {fewest}.",
        n.budget, n.max_level
    );
    if def.max_hit_points == 0 {
        advice.push_str(" No toughness: all characters have toughness, and one without it may not perform actions during encounters.");
    }
    push("Abilities", advice, rules::ABILITIES);
    if n.command > 0 || !d.minions.is_empty() {
        for m in &d.minions {
            push(
                "Minion",
                heading(
                    &m.name,
                    m.description.as_deref().unwrap_or(""),
                    &defenses(m),
                ),
                rules::SUPPORT_ABILITIES,
            );
        }
    }
    out
}

fn budgets(n: &Numbers, d: &Draft) -> Vec<Budget> {
    let mut out = vec![Budget {
        name: "Character Points (CP)".into(),
        total: n.budget,
        spent: n.spent,
        rule: rules::ABILITIES,
    }];
    if n.command > 0 || !d.minions.is_empty() {
        out.push(Budget {
            name: "Minion CP (command level)".into(),
            total: n.command,
            spent: n.minion_spent,
            rule: rules::SUPPORT_ABILITIES,
        });
    }
    out
}

fn bad(key: &str, message: impl Into<String>) -> BuildRefusal {
    BuildRefusal::BadValue {
        key: key.to_string(),
        message: message.into(),
    }
}

fn int(key: &str, value: &FieldValue) -> Result<i64, BuildRefusal> {
    match value {
        FieldValue::Int(n) => Ok(*n),
        other => Err(bad(key, format!("a whole number, not {other}"))),
    }
}

fn text(key: &str, value: &FieldValue) -> Result<String, BuildRefusal> {
    match value {
        FieldValue::Text(t) if t.chars().count() <= MAX_TEXT_CHARS => Ok(t.clone()),
        FieldValue::Text(_) => Err(bad(key, format!("at most {MAX_TEXT_CHARS} characters"))),
        other => Err(bad(key, format!("text, not {other}"))),
    }
}

/// Apply `value` to the field `rel` (a key relative to `d`; `key` is the whole
/// key, for messages). Only the value's kind is checked.
fn apply_at(d: &mut Draft, rel: &str, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    if let Some(rest) = rel.strip_prefix("minions.") {
        let (i, sub) = rest.split_once('.').ok_or_else(|| unknown_field(key))?;
        let i: usize = i.parse().map_err(|_| unknown_field(key))?;
        let m = d.minions.get_mut(i).ok_or_else(|| unknown_field(key))?;
        return apply_at(m, sub, key, value);
    }
    if let Some(a) = rel.strip_prefix("abilities.") {
        let v = int(key, value)?;
        d.abilities.insert(a.to_string(), v);
        if v <= 0 {
            d.notes.remove(a);
        }
        return Ok(());
    }
    if let Some(a) = rel.strip_prefix("notes.") {
        let t = text(key, value)?;
        if t.trim().is_empty() {
            d.notes.remove(a);
        } else {
            d.notes.insert(a.to_string(), t);
        }
        return Ok(());
    }
    if let Some(rest) = rel.strip_prefix("other.") {
        let (i, what) = rest.split_once('.').ok_or_else(|| unknown_field(key))?;
        let i: usize = i.parse().map_err(|_| unknown_field(key))?;
        if i > d.other.len() || i >= MAX_OTHER_ABILITIES.max(d.other.len()) {
            return Err(unknown_field(key));
        }
        match what {
            "name" => {
                let t = text(key, value)?.trim().to_string();
                if t.is_empty() {
                    return Err(bad(
                        key,
                        "an ability needs a name (clear the field to take the ability back)",
                    ));
                }
                if t.chars().any(char::is_control) {
                    return Err(bad(key, "a name without control characters"));
                }
                if let Some(a) = Ability::parse(&t) {
                    return Err(bad(
                        key,
                        format!(
                            "{a} is one of the book's abilities: give it a level in its own step"
                        ),
                    ));
                }
                if d.other
                    .iter()
                    .enumerate()
                    .any(|(j, o)| j != i && same_name(&o.name, &t))
                {
                    return Err(bad(
                        key,
                        format!("{t} is already another ability of this character"),
                    ));
                }
                match d.other.get_mut(i) {
                    Some(o) => o.name = t,
                    None => d.other.push(OtherAbility {
                        name: t,
                        ..OtherAbility::default()
                    }),
                }
            }
            "level" => {
                let v = int(key, value)?;
                match d.other.get_mut(i) {
                    Some(o) => {
                        o.level = Some(v);
                        if v <= 0 {
                            o.note = None;
                        }
                    }
                    // Level 0 in the empty slot takes nothing: no ability to name.
                    None if v == 0 => {}
                    None => d.other.push(OtherAbility {
                        level: Some(v),
                        ..OtherAbility::default()
                    }),
                }
            }
            "note" => {
                let t = text(key, value)?;
                let o = d.other.get_mut(i).ok_or_else(|| unknown_field(key))?;
                o.note = (!t.trim().is_empty()).then_some(t);
            }
            _ => return Err(unknown_field(key)),
        }
        return Ok(());
    }
    match rel {
        "name" => d.name = text(key, value)?,
        "id" => d.id = Some(text(key, value)?),
        "description" => {
            let t = text(key, value)?;
            d.description = (!t.is_empty()).then_some(t);
        }
        "cp" => d.cp = Some(int(key, value)?),
        "max_level" => d.max_level = Some(int(key, value)?),
        "minions" => {
            let n = int(key, value)?;
            let n = usize::try_from(n)
                .ok()
                .filter(|n| *n as i64 <= MAX_MINION_COUNT)
                .ok_or_else(|| {
                    bad(
                        key,
                        format!("a number of minions from 0 to {MAX_MINION_COUNT}"),
                    )
                })?;
            d.minions.resize_with(n, Draft::default);
        }
        _ => return Err(unknown_field(key)),
    }
    Ok(())
}

fn unknown_field(key: &str) -> BuildRefusal {
    BuildRefusal::UnknownField {
        key: key.to_string(),
        known: String::new(),
    }
}

fn unknown(d: &Draft, key: &str) -> BuildRefusal {
    BuildRefusal::UnknownField {
        key: key.to_string(),
        known: field_keys(d).join(", "),
    }
}

/// Clear the field `rel` of `d`.
fn clear_at(d: &mut Draft, rel: &str) {
    if let Some(rest) = rel.strip_prefix("minions.") {
        if let Some((i, sub)) = rest.split_once('.')
            && let Ok(i) = i.parse::<usize>()
            && let Some(m) = d.minions.get_mut(i)
        {
            clear_at(m, sub);
        }
        return;
    }
    if let Some(a) = rel.strip_prefix("abilities.") {
        d.abilities.remove(a);
        d.notes.remove(a);
        return;
    }
    if let Some(a) = rel.strip_prefix("notes.") {
        d.notes.remove(a);
        return;
    }
    if let Some(rest) = rel.strip_prefix("other.") {
        if let Some((i, what)) = rest.split_once('.')
            && let Ok(i) = i.parse::<usize>()
            && i < d.other.len()
        {
            match what {
                "name" => {
                    d.other.remove(i);
                }
                "level" => {
                    if let Some(o) = d.other.get_mut(i) {
                        o.level = None;
                        o.note = None;
                    }
                }
                _ => {
                    if let Some(o) = d.other.get_mut(i) {
                        o.note = None;
                    }
                }
            }
        }
        return;
    }
    match rel {
        "name" => d.name.clear(),
        "id" => d.id = None,
        "description" => d.description = None,
        "cp" => d.cp = None,
        "max_level" => d.max_level = None,
        "minions" => d.minions.clear(),
        _ => {}
    }
}

/// Apply after checking the key is a field now.
fn apply(d: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    if !field_keys(d).iter().any(|k| k == key) {
        return Err(unknown(d, key));
    }
    apply_at(d, key, key, value)
}

/// What [`CharacterBook::validate`] answers for a sheet's text, under the
/// book's rules.
fn validate_sheet(sheet: &str) -> Result<Character, Vec<BuildProblem>> {
    validate_character(sheet, &book_rules())
}

/// A sheet's character under the setting's rules `rules` (a campaign's:
/// R-SCR-9), or every problem.
fn validate_character(sheet: &str, rules: &TableRules) -> Result<Character, Vec<BuildProblem>> {
    Character::from_toml(sheet, rules).map_err(|e| match e {
        LoadError::Toml(message) => vec![toml_problem(message)],
        LoadError::Character(ce) => {
            let d = Draft::from_sheet(*ce.draft).in_setting(*rules);
            ce.problems.iter().map(|p| build_problem(p, &d)).collect()
        }
    })
}

/// What `validate` says of a sheet under a setting's rules instead of the
/// book's: a campaign's characters are checked against its setting (R-SCR-9:
/// "The book's own characters ... fit a campaign set to ... 12 CP and a
/// maximum level limit of 5 or more"). The character's name.
///
/// # Errors
/// Every broken rule of the sheet under `rules`.
pub fn validate_in(sheet: &str, rules: &TableRules) -> Result<String, Vec<BuildProblem>> {
    validate_character(sheet, rules).map(|c| c.name().to_string())
}

/// A sheet that is not TOML of the character format, as one problem.
pub(crate) fn toml_problem(message: String) -> BuildProblem {
    BuildProblem {
        field: None,
        rule: rules::CHARACTER,
        message: format!("not a character sheet: {message}"),
        unfinished: false,
    }
}

/// The sheet's TOML text (never fails for a draft; a serializer error would
/// come back as text that does not validate).
pub(crate) fn sheet_text(sheet: &CharacterDraft) -> String {
    toml::to_string(sheet).unwrap_or_else(|e| format!("# not written: {e}\n"))
}

/// The sheet of character `i` as the encounter leaves it: its sheet, with the
/// temporary bonuses it holds now (the crafter by id) and its minions' the
/// same way; hit points and every encounter-only state are not written (a new
/// encounter starts at full hit points).
fn sheet_after(state: &State, i: usize) -> Option<SheetAfter> {
    let c = state.get(i)?;
    let mut d = c.character.to_draft();
    d.crafted = crafted_of(state, i);
    let minions: Vec<usize> = state
        .characters
        .iter()
        .enumerate()
        .filter(|(_, m)| m.leader == Some(i))
        .map(|(j, _)| j)
        .collect();
    for (k, j) in minions.into_iter().enumerate() {
        if let Some(m) = d.minions.get_mut(k) {
            m.crafted = crafted_of(state, j);
        }
    }
    Some(SheetAfter {
        name: c.character.name().to_string(),
        sheet: sheet_text(&d),
    })
}

/// The bonuses character `i` holds, as the sheet writes them. A bonus added in
/// a hurry whose roll failed is written usable: the hurry is over.
fn crafted_of(state: &State, i: usize) -> Vec<CraftedBonus> {
    state
        .get(i)
        .map(|c| {
            c.bonuses
                .iter()
                .filter_map(|(a, b)| {
                    state.get(b.crafter).map(|cr| CraftedBonus {
                        ability: a.name().to_string(),
                        crafter: cr.id.clone(),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

impl CharacterBook for Scratch {
    /// R-SCR-9: a Scratch RPS campaign carries its setting's rules.
    const CAMPAIGN_SETTINGS: Option<&'static str> = Some(
        "The [rules] a table takes (cp, max_level, strength_base, d20). The campaign's \
         characters, its builder, advancement and every table it opens use them. Empty: \
         the book's 10 CP and maximum level 4 (R-SCR-9).",
    );
    const CAMPAIGN_SETTINGS_EXAMPLE: Option<&'static str> = Some("[rules]\ncp = 12\nmax_level = 5");

    type Draft = Draft;

    fn place<F: tabula_core::files::SheetFiles + ?Sized>(
        table: &str,
        files: &F,
        players: &[tabula_core::place::Placed],
    ) -> Result<String, tabula_core::place::PlaceError> {
        crate::place::place(table, files, players)
    }

    fn build_view(draft: &Draft) -> BuildView {
        let n = numbers(draft);
        let mut problems: Vec<BuildProblem> = problems(draft)
            .iter()
            .map(|p| build_problem(p, draft))
            .collect();
        slot_problems(draft, "", &mut problems);
        BuildView {
            system: crate::ID.to_string(),
            steps: steps(draft),
            budgets: budgets(&n, draft),
            derived: derived(draft, &n),
            problems,
            next: None,
            complete: false,
        }
        .settle()
    }

    fn set(draft: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        let mut tried = draft.clone();
        apply(&mut tried, key, value)?;
        let before = problems(draft);
        let after = problems(&tried);
        let new: Vec<&Problem> = after
            .iter()
            .filter(|p| !unfinished(p) && !covered(p, &before))
            .collect();
        let pick = new
            .iter()
            .find(|p| field_of(p, &tried, "").as_deref() == Some(key))
            .or_else(|| new.first());
        if let Some(p) = pick {
            return Err(BuildRefusal::Broken {
                key: key.to_string(),
                problem: build_problem(p, &tried),
            });
        }
        *draft = tried;
        Ok(())
    }

    fn clear(draft: &mut Draft, key: &str) -> Result<(), BuildRefusal> {
        if !field_keys(draft).iter().any(|k| k == key) {
            return Err(unknown(draft, key));
        }
        clear_at(draft, key);
        Ok(())
    }

    fn force(draft: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        apply(draft, key, value)
    }

    fn draft_sheet(draft: &Draft) -> String {
        sheet_text(&draft.to_sheet())
    }

    fn validate(sheet: &str) -> Result<String, Vec<BuildProblem>> {
        validate_sheet(sheet).map(|c| c.name().to_string())
    }

    fn draft_from_sheet(sheet: &str) -> Result<Draft, Vec<BuildProblem>> {
        toml::from_str::<CharacterDraft>(sheet)
            .map(Draft::from_sheet)
            .map_err(|e| vec![toml_problem(e.to_string())])
    }

    fn sheets_after(state: &State) -> Vec<SheetAfter> {
        (0..state.characters.len())
            .filter(|i| state.get(*i).is_some_and(|c| c.leader.is_none()))
            .filter_map(|i| sheet_after(state, i))
            .collect()
    }

    const ADVANCEMENT: &'static [CommandDoc] = &crate::advancement::ADVANCEMENT;

    fn advance(
        sheet: &str,
        seat: &Seat,
        line: &str,
        roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError> {
        crate::advancement::advance(sheet, seat, line, roller)
    }
}
