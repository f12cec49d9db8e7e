//! Character creation the way the book teaches it, and the sheet an encounter
//! leaves: the creation half of `impl CharacterBook for Scratch` (advancement
//! is in [`crate::advance`]).
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
    FieldKind, FieldValue, FieldView, MAX_TEXT_CHARS, SettingError, SheetAfter, StepView,
};
use tabula_core::names::same_name;
use tabula_core::system::CommandDoc;
use tabula_core::{Roller, Rule, Seat};

use crate::abilities::Ability;
use crate::character::{
    Carrying, Character, CharacterDraft, CraftedBonus, Defenses, HitPointState, LoadError,
    MAX_MINIONS, Printed, Problem,
};
use crate::rules::{self, MAX_LEVEL_CAP, TableRules};
use crate::state::State;
use crate::table::Scratch;

mod help;
use help::*;
mod view;
use view::*;
mod edit;
use edit::*;
mod validate;
pub use validate::*;

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
    /// imported sheet, never offered as a field (see [`crate::advance`]).
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

/// Refuse `tried` (a draft with `key` just set) when it has a problem that is
/// neither unfinished nor [`covered`] by `before`: the one on `key`'s field
/// first.
///
/// # Errors
/// [`BuildRefusal::Broken`] with the problem.
fn no_new_problem(before: &[Problem], tried: &Draft, key: &str) -> Result<(), BuildRefusal> {
    let after = problems(tried);
    let new: Vec<&Problem> = after
        .iter()
        .filter(|p| !unfinished(p) && !covered(p, before))
        .collect();
    let pick = new
        .iter()
        .find(|p| field_of(p, tried, "").as_deref() == Some(key))
        .or_else(|| new.first());
    match pick {
        Some(p) => Err(BuildRefusal::Broken {
            key: key.to_string(),
            problem: build_problem(p, tried),
        }),
        None => Ok(()),
    }
}

/// Every problem of `d` as the builder shows it ([`build_problem`]).
fn build_problems(d: &Draft) -> Vec<BuildProblem> {
    problems(d).iter().map(|p| build_problem(p, d)).collect()
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

/// A campaign's setting that does not read, or a table that does not fit it,
/// as the book says it (R-SCR-9).
fn setting_error(e: crate::setup::SetupError) -> SettingError {
    SettingError::Invalid {
        message: e.to_string(),
        rule: rules::SETTING,
    }
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

    /// R-SCR-9: "A campaign carries its setting's rules (the `[rules]` a
    /// Scratch table takes: CP, maximum level, d20 method, strength base)".
    type Setting = TableRules;

    /// [`crate::setup::setting_rules`] (R-SCR-9).
    fn read_setting(text: &str) -> Result<TableRules, SettingError> {
        crate::setup::setting_rules(text).map_err(setting_error)
    }

    /// [`crate::setup::setting_text`]: the `[rules]` written back whole
    /// (R-SCR-9).
    fn setting_text(setting: &TableRules) -> String {
        crate::setup::setting_text(setting)
    }

    /// [`crate::builder::validate_in`]: "its characters are checked against them" (R-SCR-9).
    fn validate_in(setting: &TableRules, sheet: &str) -> Result<String, Vec<BuildProblem>> {
        crate::builder::validate_in(sheet, setting)
    }

    /// [`crate::advance::advance_in`]: the CP and maximum level are the
    /// setting's (R-SCR-9).
    fn advance_in(
        setting: &TableRules,
        sheet: &str,
        seat: &Seat,
        line: &str,
        roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError> {
        crate::advance::advance_in(sheet, seat, line, roller, setting)
    }

    /// [`Draft::in_setting`] (R-SCR-9).
    fn draft_in(setting: &TableRules, draft: Draft) -> Draft {
        draft.in_setting(*setting)
    }

    /// [`crate::setup::table_in_setting`]: "every table opened from it uses
    /// them" (R-SCR-9).
    fn table_in(setting: &TableRules, table: &str) -> Result<String, SettingError> {
        crate::setup::table_in_setting(table, setting).map_err(setting_error)
    }

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

    /// [`tabula_core::builder::set_checked`], with the book's own leniency
    /// first (`no_new_problem`): a budget overspent by no more than before
    /// is not new, one overspent further is.
    fn set(draft: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        let before = problems(draft);
        let force = |d: &mut Draft, key: &str, value: &FieldValue| {
            apply(d, key, value)?;
            no_new_problem(&before, d, key)
        };
        tabula_core::builder::set_checked(draft, key, value, force, build_problems)
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
            // A guest the GM added mid-encounter is not the campaign's.
            .filter(|i| {
                state
                    .get(*i)
                    .is_some_and(|c| c.leader.is_none() && !c.added)
            })
            .filter_map(|i| sheet_after(state, i))
            .collect()
    }

    const ADVANCEMENT: &'static [CommandDoc] = &crate::advance::ADVANCEMENT;

    fn advance(
        sheet: &str,
        seat: &Seat,
        line: &str,
        roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError> {
        crate::advance::advance(sheet, seat, line, roller)
    }
}
