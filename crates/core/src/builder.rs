//! Characters outside the table: creation the way each book teaches it, the
//! sheet an encounter leaves behind, and advancement between sessions.
//!
//! One description serves both front ends (the terminal's prompts and the
//! browser's form), so they cannot drift apart:
//!
//! ```text
//! draft --build_view--> BuildView { steps (fields, choices open now), budgets left, derived values, problems }
//! draft --set(field, value)--> Ok (draft changed) | Err(BuildRefusal naming the rule; draft unchanged)
//! draft --finish--> sheet TOML that `character validate` accepts | every problem left
//! sheet --advance(line)--> the sheet after one advancement | AdvanceError naming the rule
//! table state --sheets_after--> each character's sheet with the encounter's lasting changes
//! ```
//!
//! The builder's refusals are the validator's refusals: a system implements
//! [`CharacterBook::set`] by applying the value and asking the same checks
//! `character validate` runs, ignoring only what is merely unfinished (budget
//! not yet spent, a choice not yet made). [`refusal_agrees`] is the property
//! each system's tests run over random choices.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

use crate::roller::Roller;
use crate::rule::Rule;
use crate::system::{CommandDoc, Seat, TextPlay};

/// The most characters a text field of a draft takes (names, descriptions).
pub const MAX_TEXT_CHARS: usize = 200;

/// A value a player gives one field of a draft.
///
/// As JSON: a number, a string, or a list of strings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FieldValue {
    /// A whole number (a Stat, a level, points put into something).
    Int(i64),
    /// Text, or the value of one option of a [`FieldKind::Choice`].
    Text(String),
    /// The values of the options picked in a [`FieldKind::Multi`].
    List(Vec<String>),
}

impl fmt::Display for FieldValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldValue::Int(n) => write!(f, "{n}"),
            FieldValue::Text(t) => f.write_str(t),
            FieldValue::List(l) => f.write_str(&l.join(", ")),
        }
    }
}

/// One option of a choice, in the book's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChoiceOption {
    /// What is stored and sent back in [`FieldValue::Text`] (or in a list).
    pub value: String,
    /// What the player reads (often the same as `value`).
    pub label: String,
    /// One line on what it does, from the book; may be empty.
    pub help: String,
}

impl ChoiceOption {
    /// An option whose label is its value, with a line of help.
    pub fn new(value: impl Into<String>, help: impl Into<String>) -> Self {
        let value = value.into();
        ChoiceOption {
            label: value.clone(),
            value,
            help: help.into(),
        }
    }
}

/// What a field takes, with its range open *now* (a budget already spent
/// lowers the maximum).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum FieldKind {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest value the book allows.
        min: i64,
        /// Largest value allowed now (the book's limit, or what the budget left allows).
        max: i64,
    },
    /// One of the options.
    Choice {
        /// The options, in the book's order.
        options: Vec<ChoiceOption>,
    },
    /// Between `min` and `max` of the options, each at most once.
    Multi {
        /// The options, in the book's order.
        options: Vec<ChoiceOption>,
        /// Fewest picks the book asks for.
        min: usize,
        /// Most picks allowed.
        max: usize,
    },
    /// Free text of at most `max_chars` characters (a name, a description).
    Text {
        /// The most characters accepted.
        max_chars: usize,
    },
}

/// One field of a step, with its current value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldView {
    /// The key [`CharacterBook::set`] takes, e.g. `name`, `stats.Strength`,
    /// `skills.2.level`. Stable between calls.
    pub key: String,
    /// What the player reads, in the book's words.
    pub label: String,
    /// One line from the book on what to choose; may be empty.
    pub help: String,
    /// What it takes now.
    pub kind: FieldKind,
    /// The value chosen so far, if any.
    pub value: Option<FieldValue>,
    /// True when a legal character must have a value here.
    pub required: bool,
}

/// One creation step of the book, in the book's order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepView {
    /// A stable id (`stats`, `skills`).
    pub id: String,
    /// The step's title as the book names it, numbered (`2. Traits`).
    pub title: String,
    /// What the book says to do here, in a sentence or two.
    pub help: String,
    /// Where the book says it.
    pub rule: Rule,
    /// The fields of the step, in the order they are asked.
    pub fields: Vec<FieldView>,
    /// True when nothing in this step is missing or broken.
    pub done: bool,
}

/// A budget of the book (points to spend), live.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Budget {
    /// Its name in the book (`Skill Points`, `XP`, `Character Points`).
    pub name: String,
    /// What the book gives.
    pub total: i64,
    /// What the draft spends now (may exceed `total` only in a draft that is
    /// reported broken, never through [`CharacterBook::set`]).
    pub spent: i64,
    /// Where the book sets it.
    pub rule: Rule,
}

impl Budget {
    /// What is left to spend (negative when overspent).
    pub fn left(&self) -> i64 {
        self.total.saturating_sub(self.spent)
    }
}

/// A value the book derives from the choices, shown live (a defense, Health,
/// the Roleplay Bonus).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Derived {
    /// Its name in the book.
    pub name: String,
    /// The value as the sheet prints it.
    pub value: String,
    /// Where the book derives it.
    pub rule: Rule,
}

/// One broken or unfinished rule of a draft or a sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BuildProblem {
    /// The field it is about (a [`FieldView::key`]), when it is about one.
    pub field: Option<String>,
    /// The rule.
    pub rule: Rule,
    /// What is wrong, naming the rule's numbers (`12 Skill Points spent, the book gives 10`).
    pub message: String,
    /// True when the draft is merely unfinished here (budget left, a choice not
    /// made): the builder allows it while building, `finish` does not.
    pub unfinished: bool,
}

impl fmt::Display for BuildProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}", self.message, self.rule.title())?;
        if !self.rule.section.is_empty() {
            write!(f, ", \"{}\"", self.rule.section)?;
        }
        if let Some(r) = self.rule.ruling {
            write!(f, "; {r}")?;
        }
        f.write_str(")")
    }
}

/// Everything a front end shows of a draft.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BuildView {
    /// The system id.
    pub system: String,
    /// Every creation step, in the book's order.
    pub steps: Vec<StepView>,
    /// Every budget, live.
    pub budgets: Vec<Budget>,
    /// Derived values, live.
    pub derived: Vec<Derived>,
    /// Every problem of the draft now, broken and unfinished alike.
    pub problems: Vec<BuildProblem>,
    /// The id of the first step that is not done; `None` when the draft is complete.
    pub next: Option<String>,
    /// True when [`CharacterBook::finish`] would succeed.
    pub complete: bool,
}

impl BuildView {
    /// Fill in `next`, `complete` and each step's `done` from `problems` and
    /// the required fields, so every system computes them the same way. A
    /// problem without a field marks no step; a step is done when none of its
    /// fields has a problem and every required field has a value.
    pub fn settle(mut self) -> Self {
        for step in &mut self.steps {
            step.done = step.fields.iter().all(|f| {
                (!f.required || f.value.is_some())
                    && !self
                        .problems
                        .iter()
                        .any(|p| p.field.as_deref() == Some(f.key.as_str()))
            });
        }
        self.next = self.steps.iter().find(|s| !s.done).map(|s| s.id.clone());
        self.complete = self.problems.is_empty() && self.next.is_none();
        self
    }

    /// The field with key `key`, with the step it is in.
    pub fn field(&self, key: &str) -> Option<(&StepView, &FieldView)> {
        self.steps
            .iter()
            .find_map(|s| s.fields.iter().find(|f| f.key == key).map(|f| (s, f)))
    }
}

/// The builder refused a value: the draft is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum BuildRefusal {
    /// No field has this key now.
    #[error("no field `{key}` in this draft (fields now: {known})")]
    UnknownField {
        /// The key given.
        key: String,
        /// The keys there are now, comma-separated.
        known: String,
    },
    /// The value is not of the field's kind (text for a number, an option that
    /// is not offered, too long a text).
    #[error("`{key}`: {message}")]
    BadValue {
        /// The field.
        key: String,
        /// What is wrong with the value.
        message: String,
    },
    /// The value breaks a rule of the book.
    #[error("`{key}`: {problem}")]
    Broken {
        /// The field.
        key: String,
        /// The rule broken (a problem `character validate` reports for the
        /// same sheet).
        problem: BuildProblem,
    },
}

/// An advancement command was refused: the sheet is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum AdvanceError {
    /// The sheet itself does not validate.
    #[error("the sheet is not legal: {}", problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; "))]
    Sheet {
        /// Every problem of the sheet.
        problems: Vec<BuildProblem>,
    },
    /// The line is not an advancement command, or its arguments are wrong.
    #[error("{message} (usage: {usage})")]
    Parse {
        /// What is wrong.
        message: String,
        /// How the command(s) are written.
        usage: String,
    },
    /// The command breaks a rule (not enough XP, a level above the maximum,
    /// the GM's command given by a player).
    #[error("{message} ({}, \"{}\"{})", rule.title(), rule.section, rule.ruling.map(|r| format!("; {r}")).unwrap_or_default())]
    Refused {
        /// The rule.
        rule: Rule,
        /// What is wrong, with the numbers.
        message: String,
    },
}

impl AdvanceError {
    /// [`AdvanceError::Parse`]: `message`, with the usage of every command of
    /// `commands` (a book's [`CharacterBook::ADVANCEMENT`]).
    pub fn parse(message: impl Into<String>, commands: &[CommandDoc]) -> Self {
        AdvanceError::Parse {
            message: message.into(),
            usage: advancement_usage(commands),
        }
    }

    /// [`AdvanceError::Refused`]: the command breaks `rule`; `message` gives the numbers.
    pub fn refused(rule: Rule, message: impl Into<String>) -> Self {
        AdvanceError::Refused {
            rule,
            message: message.into(),
        }
    }
}

/// The first broken (not merely unfinished) problem of `after` that `before`
/// did not have, compared by field and rule: what a `set` refuses when
/// `before` is the draft's problems and `after` those of the draft with the
/// value applied. A rule already broken stays allowed, so a player can mend
/// one thing at a time.
pub fn newly_broken(before: &[BuildProblem], after: Vec<BuildProblem>) -> Option<BuildProblem> {
    after.into_iter().find(|p| {
        !p.unfinished
            && !before
                .iter()
                .any(|b| !b.unfinished && b.field == p.field && b.rule == p.rule)
    })
}

/// [`CharacterBook::set`] as the books implement it: apply `value` to a copy
/// of `draft` with `force` (only the value's kind is checked there), refuse it
/// with [`BuildRefusal::Broken`] when [`newly_broken`] finds a rule the copy
/// breaks that `draft` did not (the draft is then unchanged), and keep the
/// copy otherwise.
///
/// # Errors
/// What `force` returns, or [`BuildRefusal::Broken`].
pub fn set_checked<D: Clone>(
    draft: &mut D,
    key: &str,
    value: &FieldValue,
    force: impl FnOnce(&mut D, &str, &FieldValue) -> Result<(), BuildRefusal>,
    problems: impl Fn(&D) -> Vec<BuildProblem>,
) -> Result<(), BuildRefusal> {
    let mut next = draft.clone();
    force(&mut next, key, value)?;
    if let Some(problem) = newly_broken(&problems(draft), problems(&next)) {
        return Err(BuildRefusal::Broken {
            key: key.into(),
            problem,
        });
    }
    *draft = next;
    Ok(())
}

/// How the commands of `commands` are written, one usage each, joined by ` | `.
pub fn advancement_usage(commands: &[CommandDoc]) -> String {
    commands
        .iter()
        .map(|c| c.usage)
        .collect::<Vec<_>>()
        .join(" | ")
}

/// A campaign's settings text that its book does not take (R-SCR-9: "A
/// campaign carries its setting's rules"; [`CharacterBook::read_setting`],
/// [`CharacterBook::table_in`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SettingError {
    /// The book takes no campaign settings: only empty text is its own.
    #[error("this book takes no campaign settings: leave them empty")]
    NotTaken,
    /// The text is not the book's setting, or a table file does not fit the
    /// campaign's setting: the book's own message, naming the field.
    #[error("{message}")]
    Invalid {
        /// What is wrong, naming the field, in the book's words.
        message: String,
        /// The rule the setting is read under (R-SCR-9 for Scratch RPS).
        rule: Rule,
    },
}

/// What one advancement command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advanced {
    /// The sheet after it (TOML that `character validate` accepts).
    pub sheet: String,
    /// One line on what changed, in the book's words (`Strength 2 -> 3 for 3 XP`).
    pub summary: String,
}

/// A character sheet as an encounter left it: the sheet with the book's
/// lasting changes (injuries, XP, wounds, new cards) applied and everything
/// that lasts only for the encounter (pools, initiative, Exhaust) as a new
/// encounter starts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetAfter {
    /// The character's name as the sheet writes it.
    pub name: String,
    /// The sheet (TOML that `character validate` accepts).
    pub sheet: String,
}

/// Character creation, lasting changes and advancement for one book.
///
/// The draft is the book's sheet with every choice optional until made;
/// `set` changes one field and refuses (changing nothing) a value that breaks a
/// rule `validate` would report; `finish` writes the sheet.
pub trait CharacterBook: TextPlay {
    /// A character being made. `Default` is the empty draft a player starts from.
    type Draft: Clone + fmt::Debug + Default + PartialEq + Serialize + DeserializeOwned;

    /// What a campaign's settings text holds for this book (shown beside the
    /// campaign form), or `None` when the book takes no settings (the
    /// default). A book fact the pages read from `GET /api/systems`.
    const CAMPAIGN_SETTINGS: Option<&'static str> = None;

    /// An example of that settings text (the form's placeholder).
    const CAMPAIGN_SETTINGS_EXAMPLE: Option<&'static str> = None;

    /// A campaign's setting as the book reads it from the campaign's settings
    /// text (R-SCR-9: a Scratch RPS campaign carries its setting's rules, the
    /// `[rules]` a table takes). A book that takes no settings says `()` and
    /// keeps the default methods below, which refuse any text
    /// ([`SettingError::NotTaken`]) and play by the book's own rules.
    type Setting: Clone + fmt::Debug;

    /// Read a campaign's settings text (never empty: empty text is the book's
    /// own rules and has no setting).
    ///
    /// # Errors
    /// [`SettingError::NotTaken`] (the default: the book takes none), or
    /// [`SettingError::Invalid`] naming the field.
    fn read_setting(text: &str) -> Result<Self::Setting, SettingError> {
        let _ = text;
        Err(SettingError::NotTaken)
    }

    /// The settings text of `setting` as a campaign keeps it: written back
    /// whole, every option (R-SCR-9). Default: empty.
    fn setting_text(setting: &Self::Setting) -> String {
        let _ = setting;
        String::new()
    }

    /// [`CharacterBook::validate`] in a campaign with `setting`: the sheet is
    /// checked against the setting's rules, not the book's (R-SCR-9).
    /// Default: the book's own validation.
    ///
    /// # Errors
    /// Every broken rule of the sheet under the setting.
    fn validate_in(setting: &Self::Setting, sheet: &str) -> Result<String, Vec<BuildProblem>> {
        let _ = setting;
        Self::validate(sheet)
    }

    /// [`CharacterBook::advance`] in a campaign with `setting`: the sheet is
    /// read and its limits are the setting's (R-SCR-9). Default: the book's
    /// own advancement.
    ///
    /// # Errors
    /// [`AdvanceError`] naming the rule; nothing changes.
    fn advance_in(
        setting: &Self::Setting,
        sheet: &str,
        seat: &Seat,
        line: &str,
        roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError> {
        let _ = setting;
        Self::advance(sheet, seat, line, roller)
    }

    /// `draft` built under `setting`: every limit, problem and derived value
    /// the builder shows, and every change it checks, are the setting's
    /// (R-SCR-9). The setting is never read from a draft's JSON: the caller
    /// applies it each time, so a draft cannot raise its own limits. Default:
    /// the draft unchanged.
    fn draft_in(setting: &Self::Setting, draft: Self::Draft) -> Self::Draft {
        let _ = setting;
        draft
    }

    /// A table file's text opened from a campaign with `setting` (R-SCR-9:
    /// "every table opened from it uses them"). Default: unchanged.
    ///
    /// # Errors
    /// [`SettingError::Invalid`] when the table does not fit the setting.
    fn table_in(setting: &Self::Setting, table: &str) -> Result<String, SettingError> {
        let _ = setting;
        Ok(table.to_string())
    }

    /// Everything the front ends show of `draft` now. Implementations end with
    /// [`BuildView::settle`].
    fn build_view(draft: &Self::Draft) -> BuildView;

    /// The table file `table` of this book with the campaign's player
    /// characters `players` placed in it (issue 27, item 8: the next
    /// encounter of a campaign), following [`crate::place`]: the file's
    /// player characters are replaced by the campaign's, its NPCs and every
    /// other setting kept. `files` reads the sheets the file names (a sheet
    /// may say whose character it is). Each book's `place` module says which
    /// entries are player characters and what a placed entry holds.
    ///
    /// # Errors
    /// [`crate::place::PlaceError`] naming the field; nothing is placed.
    fn place<F: crate::files::SheetFiles + ?Sized>(
        table: &str,
        files: &F,
        players: &[crate::place::Placed],
    ) -> Result<String, crate::place::PlaceError>;

    /// Set field `key` to `value` (a [`FieldView::key`] of [`CharacterBook::build_view`]).
    ///
    /// # Errors
    /// [`BuildRefusal`] when the key is unknown, the value is not of the
    /// field's kind, or it breaks a rule (a broken, not merely unfinished,
    /// problem `validate` reports); `draft` is then unchanged.
    fn set(draft: &mut Self::Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal>;

    /// Clear field `key` (take back a choice).
    ///
    /// # Errors
    /// [`BuildRefusal::UnknownField`].
    fn clear(draft: &mut Self::Draft, key: &str) -> Result<(), BuildRefusal>;

    /// Set `key` to `value` without any check of the book's rules (only the
    /// value's kind), for [`refusal_agrees`]: the draft may become illegal.
    ///
    /// # Errors
    /// [`BuildRefusal::UnknownField`] or [`BuildRefusal::BadValue`].
    fn force(draft: &mut Self::Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal>;

    /// The sheet `draft` makes as TOML, whether it is legal or not (what the
    /// player would save now).
    fn draft_sheet(draft: &Self::Draft) -> String;

    /// The finished sheet: TOML that `tabula <system> character validate` accepts.
    ///
    /// # Errors
    /// Every problem left, broken or unfinished.
    fn finish(draft: &Self::Draft) -> Result<String, Vec<BuildProblem>> {
        let view = Self::build_view(draft);
        if view.complete {
            Ok(Self::draft_sheet(draft))
        } else {
            let mut problems = view.problems;
            if problems.is_empty() {
                for s in &view.steps {
                    for f in &s.fields {
                        if f.required && f.value.is_none() {
                            problems.push(BuildProblem {
                                field: Some(f.key.clone()),
                                rule: s.rule,
                                message: format!("{}: no value chosen", f.label),
                                unfinished: true,
                            });
                        }
                    }
                }
            }
            Err(problems)
        }
    }

    /// What `tabula <system> character validate` says of a sheet: its
    /// character's name, or every problem (TOML errors as one problem).
    ///
    /// # Errors
    /// Every broken rule of the sheet.
    fn validate(sheet: &str) -> Result<String, Vec<BuildProblem>>;

    /// The draft a saved sheet is (to edit an imported character).
    ///
    /// # Errors
    /// The sheet's problems when it does not read.
    fn draft_from_sheet(sheet: &str) -> Result<Self::Draft, Vec<BuildProblem>>;

    /// The sheet of every character at the table as the encounter leaves it
    /// (see [`SheetAfter`]), in the table's order. Characters the table made
    /// without a sheet (nameless minions) are left out.
    fn sheets_after(state: &Self::State) -> Vec<SheetAfter>;

    /// The rules of the book that a GM's edit of a saved sheet from `old` to
    /// `new` steps past, when `new` is a legal sheet: something only character
    /// creation allows, added afterwards (A Game of Bastards' Disadvantages).
    /// The edit is the GM's right; the campaign's history says which rule it
    /// steps past. Default: none (a book whose sheet validation covers every
    /// rule of a saved sheet).
    fn steps_past(old: &str, new: &str) -> Vec<BuildProblem> {
        let _ = (old, new);
        Vec::new()
    }

    /// The advancement commands of the book (spend XP, level up, the
    /// advancement cycle), for `help` and the reference.
    const ADVANCEMENT: &'static [CommandDoc];

    /// Give one advancement command (`line`, as typed) from `seat` to a saved
    /// sheet between encounters. `seat` is the GM or the player who owns the
    /// character; a command the book leaves to the GM (awarding XP or CP)
    /// is refused to a player. Rolls, if the book asks for any, go through
    /// `roller`.
    ///
    /// # Errors
    /// [`AdvanceError`] naming the rule; nothing changes.
    fn advance(
        sheet: &str,
        seat: &Seat,
        line: &str,
        roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError>;
}

/// The property every system's builder keeps: when `set` refuses `value` for
/// `key` as breaking a rule, forcing the same value into the draft gives a sheet
/// that `validate` refuses, with a problem citing the same rule. Returns a
/// description of the disagreement, or `Ok` (also when `set` accepted, or
/// refused for an unknown key or a value of the wrong kind).
///
/// # Errors
/// A sentence naming the field, the value and what disagreed.
pub fn refusal_agrees<B: CharacterBook>(
    draft: &B::Draft,
    key: &str,
    value: &FieldValue,
) -> Result<(), String> {
    let mut tried = draft.clone();
    match B::set(&mut tried, key, value) {
        Ok(()) => Ok(()),
        Err(BuildRefusal::Broken { problem, .. }) => {
            if &tried != draft {
                return Err(format!("`{key}` = {value}: refused but the draft changed"));
            }
            let mut forced = draft.clone();
            B::force(&mut forced, key, value).map_err(|e| {
                format!("`{key}` = {value}: set refused as broken, force refused: {e}")
            })?;
            match B::validate(&B::draft_sheet(&forced)) {
                Ok(name) => Err(format!(
                    "`{key}` = {value}: the builder refused ({problem}) but validate accepts {name}"
                )),
                Err(problems) => {
                    if problems.iter().any(|p| p.rule == problem.rule) {
                        Ok(())
                    } else {
                        Err(format!(
                            "`{key}` = {value}: the builder cites {:?}, validate cites {:?}",
                            problem.rule,
                            problems.iter().map(|p| p.rule).collect::<Vec<_>>()
                        ))
                    }
                }
            }
        }
        Err(_) => {
            if &tried != draft {
                Err(format!("`{key}` = {value}: refused but the draft changed"))
            } else {
                Ok(())
            }
        }
    }
}

/// The property's other half: a draft the builder calls complete finishes,
/// and its sheet validates.
///
/// # Errors
/// A sentence naming what failed.
pub fn finished_validates<B: CharacterBook>(draft: &B::Draft) -> Result<(), String> {
    let view = B::build_view(draft);
    if !view.complete {
        return Ok(());
    }
    let sheet = B::finish(draft).map_err(|p| format!("complete but finish refused: {p:?}"))?;
    B::validate(&sheet)
        .map(|_| ())
        .map_err(|p| format!("finished sheet does not validate: {p:?}\n{sheet}"))
}

/// A value for a field of kind `kind` chosen by `pick` (any number: tests
/// pass random ones), sometimes outside what the field allows now (an
/// integer up to 3 past either end, an option that is not offered, too many
/// picks), so random walks try the builder's refusals too.
pub fn any_value(kind: &FieldKind, pick: u64) -> FieldValue {
    let spin = (pick >> 8) as usize;
    match kind {
        FieldKind::Int { min, max } => {
            let lo = min.saturating_sub(3);
            let hi = max.saturating_add(3).max(lo);
            let span = (hi - lo).unsigned_abs().saturating_add(1);
            FieldValue::Int(lo.saturating_add((pick % span) as i64))
        }
        FieldKind::Choice { options } => {
            if options.is_empty() || pick.is_multiple_of(10) {
                FieldValue::Text("not-an-option".into())
            } else {
                FieldValue::Text(options[spin % options.len()].value.clone())
            }
        }
        FieldKind::Multi { options, max, .. } => {
            let want = if options.is_empty() {
                0
            } else {
                (pick as usize) % (max + 2).min(options.len() + 1)
            };
            let mut picked = Vec::new();
            for i in 0..options.len() {
                if picked.len() == want {
                    break;
                }
                let o = &options[(spin + i * 7) % options.len()];
                if !picked.contains(&o.value) {
                    picked.push(o.value.clone());
                }
            }
            FieldValue::List(picked)
        }
        FieldKind::Text { .. } => FieldValue::Text(format!("Name {}", pick % 1000)),
    }
}

/// A value for a field of kind `kind` inside what it allows now, chosen by
/// `pick`: an integer in `min..=max` (the largest when `greedy`, which spends
/// a budget to the end), an offered option, an allowed number of picks, a
/// short name.
pub fn legal_value(kind: &FieldKind, pick: u64, greedy: bool) -> FieldValue {
    let spin = (pick >> 8) as usize;
    match kind {
        FieldKind::Int { min, max } => {
            if greedy || max < min {
                FieldValue::Int((*max).max(*min))
            } else {
                let span = (max - min).unsigned_abs().saturating_add(1);
                FieldValue::Int(min.saturating_add((pick % span) as i64))
            }
        }
        FieldKind::Choice { options } => match options.len() {
            0 => FieldValue::Text(String::new()),
            n => FieldValue::Text(options[spin % n].value.clone()),
        },
        FieldKind::Multi { options, min, max } => {
            let top = (*max).min(options.len());
            let low = (*min).min(top);
            let want = low + (pick as usize) % (top - low + 1);
            let mut picked: Vec<String> = Vec::new();
            for i in 0..options.len() {
                if picked.len() == want {
                    break;
                }
                let o = &options[(spin + i) % options.len()];
                if !picked.contains(&o.value) {
                    picked.push(o.value.clone());
                }
            }
            FieldValue::List(picked)
        }
        FieldKind::Text { .. } => FieldValue::Text(format!("Hero {}", pick % 1000)),
    }
}

/// Walk the builder as a player might: `picks` drive which field is set next
/// and to what, legal or not. Every value is first checked with
/// [`refusal_agrees`]; accepted ones are kept. Then the draft is finished
/// greedily in the book's order (each open field set to a legal value, numbers
/// to the most the budget allows), and [`finished_validates`] is checked.
/// Returns the draft reached.
///
/// # Errors
/// The first disagreement found, as a sentence.
pub fn random_build<B: CharacterBook>(picks: &[u64]) -> Result<B::Draft, String> {
    let mut draft = B::Draft::default();
    for (i, pick) in picks.iter().enumerate() {
        let view = B::build_view(&draft);
        let fields: Vec<&FieldView> = view.steps.iter().flat_map(|s| &s.fields).collect();
        if fields.is_empty() {
            break;
        }
        let field = fields[(*pick as usize) % fields.len()];
        let value = if i % 3 == 0 {
            any_value(&field.kind, pick.rotate_left(17))
        } else {
            legal_value(&field.kind, pick.rotate_left(17), false)
        };
        refusal_agrees::<B>(&draft, &field.key, &value)?;
        let _ = B::set(&mut draft, &field.key, &value);
    }
    let seed = picks.first().copied().unwrap_or(0);
    complete_greedily::<B>(&mut draft, seed);
    finished_validates::<B>(&draft)?;
    Ok(draft)
}

/// Fill every field that has no value, step by step in the book's order, with
/// a legal value chosen from `seed` (numbers to the most allowed now), until
/// the draft is complete or nothing more is accepted (at most 1,000 sets).
/// Returns true when the draft ended complete.
pub fn complete_greedily<B: CharacterBook>(draft: &mut B::Draft, seed: u64) -> bool {
    let mut pick = seed;
    for _ in 0..1000 {
        let view = B::build_view(draft);
        if view.complete {
            return true;
        }
        let mut moved = false;
        'steps: for step in &view.steps {
            for f in &step.fields {
                let problem = view
                    .problems
                    .iter()
                    .any(|p| p.field.as_deref() == Some(f.key.as_str()));
                if f.value.is_none() || problem {
                    pick = pick
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let value = legal_value(&f.kind, pick >> 11, true);
                    if B::set(draft, &f.key, &value).is_ok() && B::build_view(draft) != view {
                        moved = true;
                        break 'steps;
                    }
                }
            }
        }
        if !moved {
            return B::build_view(draft).complete;
        }
    }
    B::build_view(draft).complete
}
