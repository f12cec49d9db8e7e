//! Characters outside the table, for all five books through [`SystemId`]:
//! the builder over JSON drafts (what the terminal's prompts and the
//! browser's form both drive), sheet validation, advancement between
//! sessions, and a character's history as a list of [`CharacterEvent`]s
//! whose sheet changes replay to the current sheet.
//!
//! The rules live in each system's `CharacterBook` implementation
//! (`crates/systems/<id>/src/builder.rs`); this module only moves drafts and
//! sheets between JSON, TOML and the system's types.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

use tabula_core::builder::{
    AdvanceError, Advanced, BuildProblem, BuildRefusal, BuildView, CharacterBook, FieldValue,
    SettingError, SheetAfter,
};
use tabula_core::{CommandDoc, Roller, Seat};

use crate::SystemId;

/// The largest draft accepted as JSON, in bytes (a draft is a few KiB).
pub const MAX_DRAFT_BYTES: usize = 64 * 1024;

/// Something about a character that could not be done. Each variant names
/// what a caller can fix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CharacterError {
    /// The JSON is not a draft of this system (a field of the wrong type, or
    /// too large).
    #[error("not a {system} draft: {message}")]
    Draft {
        /// The system id.
        system: &'static str,
        /// What did not read.
        message: String,
    },
    /// The builder refused a value (the draft is unchanged).
    #[error("{0}")]
    Refused(BuildRefusal),
    /// The draft is not finished: every problem left.
    #[error("the character is not finished: {}", join(problems))]
    Unfinished {
        /// Every problem left, broken or unfinished.
        problems: Vec<BuildProblem>,
    },
    /// A sheet does not validate: every problem.
    #[error("the sheet is not a legal character: {}", join(problems))]
    Sheet {
        /// Every broken rule.
        problems: Vec<BuildProblem>,
    },
    /// An advancement command was refused (the sheet is unchanged).
    #[error("{0}")]
    Advance(AdvanceError),
    /// A character's history does not replay (a change whose old value is not
    /// the sheet's, or a history that does not start with a sheet).
    #[error("the history does not replay: {0}")]
    History(String),
    /// A campaign's settings are not its book's setting
    /// (`CharacterBook::read_setting`; Scratch RPS: the `[rules]` a table
    /// takes, R-SCR-9), a table does not fit them, or the book takes none.
    #[error("campaign settings for {system}: {message}")]
    Settings {
        /// The system id.
        system: &'static str,
        /// What is wrong, naming the field.
        message: String,
    },
}

fn join(problems: &[BuildProblem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// A rule as a character's history keeps it: the JSON shape of a
/// [`tabula_core::Rule`] (`system`, `seed`, `section`, `ruling`), owned so it
/// reads back from the store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CitedRule {
    /// The system id (`sour-grapes`, ...), or `core`.
    pub system: String,
    /// The seed file, empty for Tabula's own rules.
    #[serde(default)]
    pub seed: String,
    /// The book's section.
    pub section: String,
    /// The ruling id, when one settles the point.
    #[serde(default)]
    pub ruling: Option<String>,
}

impl From<tabula_core::Rule> for CitedRule {
    fn from(r: tabula_core::Rule) -> Self {
        CitedRule {
            system: r.system.to_string(),
            seed: r.seed.to_string(),
            section: r.section.to_string(),
            ruling: r.ruling.map(str::to_string),
        }
    }
}

/// As a [`tabula_core::Rule`] reads: `Sour Grapes, "Stats"; R-SG-13`.
impl fmt::Display for CitedRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, \"{}\"",
            self.system
                .parse::<SystemId>()
                .map_or("Tabula", SystemId::title),
            self.section
        )?;
        if let Some(r) = &self.ruling {
            write!(f, "; {r}")?;
        }
        Ok(())
    }
}

/// A rule a character's sheet breaks, or a GM's edit steps past, as the
/// history keeps it (from a [`BuildProblem`]): what the GM has to see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleNote {
    /// The sheet's field it is about, when it is about one (`stats.Might`).
    #[serde(default)]
    pub field: Option<String>,
    /// The rule.
    pub rule: CitedRule,
    /// What is wrong, in the book's words and numbers.
    pub message: String,
}

impl From<BuildProblem> for RuleNote {
    fn from(p: BuildProblem) -> Self {
        RuleNote {
            field: p.field,
            rule: p.rule.into(),
            message: p.message,
        }
    }
}

/// `message (Book, "Section"; R-..)`, as a [`BuildProblem`] reads.
impl fmt::Display for RuleNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.rule)
    }
}

fn notes_text(notes: &[RuleNote]) -> String {
    notes
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The builder's answer to one change of a draft.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BuildAnswer {
    /// The draft after the change (the same draft when it was refused).
    pub draft: Value,
    /// Everything to show of it.
    pub view: BuildView,
    /// The refusal, when the value broke a rule or was not the field's kind.
    pub refusal: Option<BuildRefusal>,
    /// The sheet the draft writes now, as TOML (legal or not).
    pub sheet: String,
}

fn read_draft<B: CharacterBook>(
    system: SystemId,
    draft: &Value,
) -> Result<B::Draft, CharacterError> {
    let size = serde_json::to_vec(draft)
        .map(|v| v.len())
        .unwrap_or(usize::MAX);
    if size > MAX_DRAFT_BYTES {
        return Err(CharacterError::Draft {
            system: system.id(),
            message: format!("{size} bytes, the most is {MAX_DRAFT_BYTES}"),
        });
    }
    serde_json::from_value(draft.clone()).map_err(|e| CharacterError::Draft {
        system: system.id(),
        message: e.to_string(),
    })
}

fn write_draft<B: CharacterBook>(
    system: SystemId,
    draft: &B::Draft,
) -> Result<Value, CharacterError> {
    serde_json::to_value(draft).map_err(|e| CharacterError::Draft {
        system: system.id(),
        message: e.to_string(),
    })
}

fn answer<B: CharacterBook>(
    system: SystemId,
    draft: &B::Draft,
    refusal: Option<BuildRefusal>,
) -> Result<BuildAnswer, CharacterError> {
    Ok(BuildAnswer {
        draft: write_draft::<B>(system, draft)?,
        view: B::build_view(draft),
        refusal,
        sheet: B::draft_sheet(draft),
    })
}

/// Apply `changes` to `d` in order, stopping at the first refused one.
fn change<B: CharacterBook>(
    system: SystemId,
    mut d: B::Draft,
    changes: &[DraftChange],
) -> Result<BuildAnswer, CharacterError> {
    let mut refusal = None;
    for change in changes {
        let done = match change {
            DraftChange::Set { key, value } => B::set(&mut d, key, value),
            DraftChange::Clear { key } => B::clear(&mut d, key),
        };
        if let Err(e) = done {
            refusal = Some(e);
            break;
        }
    }
    answer::<B>(system, &d, refusal)
}

/// The setting of a campaign with `settings` for book `B`
/// (`CharacterBook::read_setting`; R-SCR-9). `None`: empty text (the book's
/// own rules), or a book that takes no settings, whose rules stay its own
/// whatever the text ([`SystemId::campaign_settings`] refuses that text when
/// a campaign is made).
fn setting<B: CharacterBook>(
    system: SystemId,
    settings: &str,
) -> Result<Option<B::Setting>, CharacterError> {
    if settings.trim().is_empty() {
        return Ok(None);
    }
    match B::read_setting(settings) {
        Ok(s) => Ok(Some(s)),
        Err(SettingError::NotTaken) => Ok(None),
        Err(e) => Err(system.settings_error(&e)),
    }
}

/// One change to a draft: set a field, or take a choice back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DraftChange {
    /// Set field `key` to `value`.
    Set {
        /// The field's key.
        key: String,
        /// The value.
        value: FieldValue,
    },
    /// Clear field `key`.
    Clear {
        /// The field's key.
        key: String,
    },
}

impl SystemId {
    /// The empty draft a player starts from, as JSON, with its view.
    pub fn new_draft(self) -> BuildAnswer {
        dispatch!(self, S => {
            let draft = <S as CharacterBook>::Draft::default();
            BuildAnswer {
                draft: serde_json::to_value(&draft).unwrap_or(Value::Null),
                view: <S as CharacterBook>::build_view(&draft),
                refusal: None,
                sheet: <S as CharacterBook>::draft_sheet(&draft),
            }
        })
    }

    /// Apply `changes` to `draft` in order. A refused change stops there: the
    /// answer holds the draft as it was before that change, and the refusal.
    ///
    /// # Errors
    /// [`CharacterError::Draft`] when `draft` is not this system's draft.
    pub fn change_draft(
        self,
        draft: &Value,
        changes: &[DraftChange],
    ) -> Result<BuildAnswer, CharacterError> {
        dispatch!(self, S => {
            let d = read_draft::<S>(self, draft)?;
            change::<S>(self, d, changes)
        })
    }

    /// The finished sheet of `draft`: TOML that `tabula <system> character
    /// validate` accepts.
    ///
    /// # Errors
    /// [`CharacterError::Draft`], or [`CharacterError::Unfinished`] with every
    /// problem left.
    pub fn finish_draft(self, draft: &Value) -> Result<String, CharacterError> {
        dispatch!(self, S => {
            let d = read_draft::<S>(self, draft)?;
            <S as CharacterBook>::finish(&d).map_err(|problems| CharacterError::Unfinished { problems })
        })
    }

    /// The draft a saved sheet is, as JSON (to edit a character).
    ///
    /// # Errors
    /// [`CharacterError::Sheet`] when the sheet does not read.
    pub fn draft_from_sheet(self, sheet: &str) -> Result<BuildAnswer, CharacterError> {
        dispatch!(self, S => {
            let d = <S as CharacterBook>::draft_from_sheet(sheet)
                .map_err(|problems| CharacterError::Sheet { problems })?;
            answer::<S>(self, &d, None)
        })
    }

    /// What `tabula <system> character validate` says of a sheet: the
    /// character's name.
    ///
    /// # Errors
    /// [`CharacterError::Sheet`] with every broken rule.
    pub fn validate_sheet(self, sheet: &str) -> Result<String, CharacterError> {
        dispatch!(self, S => {
            <S as CharacterBook>::validate(sheet).map_err(|problems| CharacterError::Sheet { problems })
        })
    }

    /// What the GM must fix on a stored sheet before the character can sit
    /// at a table again: every rule it breaks (empty when it validates). A
    /// sheet that breaks a rule is in a campaign only when an encounter left
    /// it so ([`encounter_changes`]: the end of an encounter never fails).
    pub fn needs_edit(self, sheet: &str) -> Vec<BuildProblem> {
        self.needs_edit_in("", sheet)
    }

    /// [`SystemId::needs_edit`] in a campaign with `settings` (R-SCR-9: the
    /// sheet is checked against the setting's rules,
    /// [`SystemId::validate_sheet_in`]; settings that do not read are a
    /// problem the GM must fix).
    pub fn needs_edit_in(self, settings: &str, sheet: &str) -> Vec<BuildProblem> {
        match self.validate_sheet_in(settings, sheet) {
            Err(CharacterError::Sheet { problems }) => problems,
            Err(other) => vec![BuildProblem {
                field: None,
                rule: tabula_core::Rule::table("Characters"),
                message: other.to_string(),
                unfinished: false,
            }],
            Ok(_) => Vec::new(),
        }
    }

    /// The rules of the book a GM's edit from sheet `old` to sheet `new` steps
    /// past while the new sheet is legal (a Disadvantage added after creation
    /// in A Game of Bastards): the GM's right, said in the history
    /// (`CharacterBook::steps_past`).
    pub fn steps_past(self, old: &str, new: &str) -> Vec<BuildProblem> {
        dispatch!(self, S => <S as CharacterBook>::steps_past(old, new))
    }

    /// A campaign's settings text checked for this book, as the campaign keeps
    /// it: the book reads it (`CharacterBook::read_setting`; Scratch RPS: the
    /// `[rules]` a table takes, `cp`, `max_level`, `strength_base`, `d20`,
    /// R-SCR-9) and writes it back whole (`CharacterBook::setting_text`); a
    /// book that takes no settings takes empty text only. Empty text is the
    /// book's own rules and stays empty.
    ///
    /// # Errors
    /// [`CharacterError::Settings`] naming the field.
    pub fn campaign_settings(self, text: &str) -> Result<String, CharacterError> {
        if text.trim().is_empty() {
            return Ok(String::new());
        }
        dispatch!(self, S => <S as CharacterBook>::read_setting(text)
            .map(|s| <S as CharacterBook>::setting_text(&s))
            .map_err(|e| self.settings_error(&e)))
    }

    fn settings_error(self, e: &SettingError) -> CharacterError {
        CharacterError::Settings {
            system: self.id(),
            message: e.to_string(),
        }
    }

    /// [`SystemId::validate_sheet`] in a campaign with `settings`
    /// ([`SystemId::campaign_settings`]): a campaign's characters are checked
    /// against its setting (`CharacterBook::validate_in`; R-SCR-9).
    ///
    /// # Errors
    /// [`CharacterError::Sheet`] with every broken rule;
    /// [`CharacterError::Settings`].
    pub fn validate_sheet_in(self, settings: &str, sheet: &str) -> Result<String, CharacterError> {
        dispatch!(self, S => match setting::<S>(self, settings)? {
            Some(s) => <S as CharacterBook>::validate_in(&s, sheet)
                .map_err(|problems| CharacterError::Sheet { problems }),
            None => self.validate_sheet(sheet),
        })
    }

    /// [`SystemId::advance`] in a campaign with `settings`: the sheet is read
    /// and its limits are the setting's (`CharacterBook::advance_in`;
    /// R-SCR-9).
    ///
    /// # Errors
    /// As [`SystemId::advance`]; [`CharacterError::Settings`].
    pub fn advance_in(
        self,
        settings: &str,
        sheet: &str,
        seat: &Seat,
        line: &str,
        roller: &mut dyn Roller,
    ) -> Result<Advanced, CharacterError> {
        dispatch!(self, S => match setting::<S>(self, settings)? {
            Some(s) => <S as CharacterBook>::advance_in(&s, sheet, seat, line, roller)
                .map_err(CharacterError::Advance),
            None => self.advance(sheet, seat, line, roller),
        })
    }

    /// [`SystemId::new_draft`] in a campaign with `settings`: the builder's
    /// limits are the setting's (`CharacterBook::draft_in`; R-SCR-9).
    ///
    /// # Errors
    /// [`CharacterError::Settings`].
    pub fn new_draft_in(self, settings: &str) -> Result<BuildAnswer, CharacterError> {
        dispatch!(self, S => match setting::<S>(self, settings)? {
            Some(s) => {
                let d = <S as CharacterBook>::draft_in(&s, Default::default());
                answer::<S>(self, &d, None)
            }
            None => Ok(self.new_draft()),
        })
    }

    /// [`SystemId::change_draft`] in a campaign with `settings`: every change is
    /// checked against the setting's rules (`CharacterBook::draft_in`;
    /// R-SCR-9).
    ///
    /// # Errors
    /// As [`SystemId::change_draft`]; [`CharacterError::Settings`].
    pub fn change_draft_in(
        self,
        settings: &str,
        draft: &Value,
        changes: &[DraftChange],
    ) -> Result<BuildAnswer, CharacterError> {
        dispatch!(self, S => match setting::<S>(self, settings)? {
            Some(s) => {
                let d = <S as CharacterBook>::draft_in(&s, read_draft::<S>(self, draft)?);
                change::<S>(self, d, changes)
            }
            None => self.change_draft(draft, changes),
        })
    }

    /// [`SystemId::finish_draft`] in a campaign with `settings`
    /// (`CharacterBook::draft_in`; R-SCR-9).
    ///
    /// # Errors
    /// As [`SystemId::finish_draft`]; [`CharacterError::Settings`].
    pub fn finish_draft_in(self, settings: &str, draft: &Value) -> Result<String, CharacterError> {
        dispatch!(self, S => match setting::<S>(self, settings)? {
            Some(s) => {
                let d = <S as CharacterBook>::draft_in(&s, read_draft::<S>(self, draft)?);
                <S as CharacterBook>::finish(&d)
                    .map_err(|problems| CharacterError::Unfinished { problems })
            }
            None => self.finish_draft(draft),
        })
    }

    /// [`SystemId::draft_from_sheet`] in a campaign with `settings`
    /// (`CharacterBook::draft_in`; R-SCR-9).
    ///
    /// # Errors
    /// As [`SystemId::draft_from_sheet`]; [`CharacterError::Settings`].
    pub fn draft_from_sheet_in(
        self,
        settings: &str,
        sheet: &str,
    ) -> Result<BuildAnswer, CharacterError> {
        dispatch!(self, S => match setting::<S>(self, settings)? {
            Some(s) => {
                let d = <S as CharacterBook>::draft_from_sheet(sheet)
                    .map_err(|problems| CharacterError::Sheet { problems })?;
                let d = <S as CharacterBook>::draft_in(&s, d);
                answer::<S>(self, &d, None)
            }
            None => self.draft_from_sheet(sheet),
        })
    }

    /// A table file's text opened from a campaign with `settings`
    /// (`CharacterBook::table_in`; R-SCR-9: "every table opened from it uses
    /// them": Scratch RPS's table takes the setting's `[rules]`); a book
    /// without settings leaves its tables unchanged.
    ///
    /// # Errors
    /// [`CharacterError::Settings`] when the table does not fit the setting
    /// (Scratch RPS: its own `[rules]` differ from the setting's, or it does
    /// not read).
    pub fn table_in(self, settings: &str, table: &str) -> Result<String, CharacterError> {
        dispatch!(self, S => match setting::<S>(self, settings)? {
            Some(s) => <S as CharacterBook>::table_in(&s, table)
                .map_err(|e| self.settings_error(&e)),
            None => Ok(table.to_string()),
        })
    }

    /// The table file `table` of this book with a campaign's player
    /// characters placed in it (`CharacterBook::place`; issue 27, item 8).
    ///
    /// # Errors
    /// [`tabula_core::place::PlaceError`] naming the field.
    pub fn place(
        self,
        table: &str,
        files: &dyn tabula_core::files::SheetFiles,
        players: &[tabula_core::place::Placed],
    ) -> Result<String, tabula_core::place::PlaceError> {
        dispatch!(self, S => <S as CharacterBook>::place(table, files, players))
    }

    /// The book's advancement commands, for `help` and the reference.
    pub fn advancement(self) -> &'static [CommandDoc] {
        dispatch!(self, S => <S as CharacterBook>::ADVANCEMENT)
    }

    /// Give one advancement command to a saved sheet (see
    /// `CharacterBook::advance`).
    ///
    /// # Errors
    /// [`CharacterError::Advance`] naming the rule; nothing changes.
    pub fn advance(
        self,
        sheet: &str,
        seat: &Seat,
        line: &str,
        roller: &mut dyn Roller,
    ) -> Result<Advanced, CharacterError> {
        dispatch!(self, S => {
            <S as CharacterBook>::advance(sheet, seat, line, roller).map_err(CharacterError::Advance)
        })
    }
}

/// One step of a path into a sheet: a key of a table or an index of an array.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PathPart {
    /// A key of a TOML table.
    Key(String),
    /// An index of a TOML array, from 0.
    Index(usize),
}

/// One value of a sheet that changed: where, from what, to what (`None` for
/// absent).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheetChange {
    /// Where in the sheet, from its top.
    pub path: Vec<PathPart>,
    /// The value before (`None`: the key was absent).
    pub from: Option<toml::Value>,
    /// The value after (`None`: the key was removed).
    pub to: Option<toml::Value>,
}

impl SheetChange {
    /// The path as a reader writes it: `stats.Strength`, `skills[2].level`.
    pub fn path_text(&self) -> String {
        let mut out = String::new();
        for p in &self.path {
            match p {
                PathPart::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                PathPart::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }
}

impl fmt::Display for SheetChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &Option<toml::Value>| match v {
            None => "(none)".to_string(),
            Some(toml::Value::String(s)) => format!("{s:?}"),
            Some(v) => v.to_string(),
        };
        write!(
            f,
            "{}: {} -> {}",
            self.path_text(),
            show(&self.from),
            show(&self.to)
        )
    }
}

/// The seat that plays the character of a saved sheet: its top-level
/// `player` (Sapio, A Game of Bastards), `None` when the sheet names none
/// (a GM character, or a book whose sheets have no player) or is not TOML.
/// The command line gives advancement commands as this seat unless told
/// otherwise (`--gm`, `--seat`).
pub fn sheet_player(sheet: &str) -> Option<String> {
    let table = sheet.parse::<toml::Table>().ok()?;
    let player = table.get("player")?.as_str()?.trim();
    (!player.is_empty()).then(|| player.to_string())
}

/// The changes that turn sheet `old` into sheet `new` (both TOML), leaf by
/// leaf; an array whose length changed is one change of the whole array.
///
/// # Errors
/// [`CharacterError::History`] when either is not TOML.
pub fn sheet_changes(old: &str, new: &str) -> Result<Vec<SheetChange>, CharacterError> {
    let a = parse_sheet(old)?;
    let b = parse_sheet(new)?;
    let mut out = Vec::new();
    diff_tables(&mut Vec::new(), &a, &b, &mut out);
    Ok(out)
}

fn parse_sheet(text: &str) -> Result<toml::Table, CharacterError> {
    text.parse::<toml::Table>()
        .map_err(|e| CharacterError::History(format!("not a TOML sheet: {}", e.message())))
}

fn diff_tables(
    path: &mut Vec<PathPart>,
    a: &toml::Table,
    b: &toml::Table,
    out: &mut Vec<SheetChange>,
) {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        path.push(PathPart::Key(k.clone()));
        diff_values(path, a.get(k), b.get(k), out);
        path.pop();
    }
}

fn diff_values(
    path: &mut Vec<PathPart>,
    a: Option<&toml::Value>,
    b: Option<&toml::Value>,
    out: &mut Vec<SheetChange>,
) {
    match (a, b) {
        (Some(toml::Value::Table(x)), Some(toml::Value::Table(y))) => diff_tables(path, x, y, out),
        (Some(toml::Value::Array(x)), Some(toml::Value::Array(y))) if x.len() == y.len() => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                path.push(PathPart::Index(i));
                diff_values(path, Some(u), Some(v), out);
                path.pop();
            }
        }
        (x, y) if x != y => out.push(SheetChange {
            path: path.clone(),
            from: x.cloned(),
            to: y.cloned(),
        }),
        _ => {}
    }
}

/// Apply `changes` to the TOML sheet `sheet`, checking each change's old
/// value; the new sheet as TOML.
///
/// # Errors
/// [`CharacterError::History`] naming the first change whose old value is not
/// the sheet's, or whose path does not exist.
pub fn apply_changes(sheet: &str, changes: &[SheetChange]) -> Result<String, CharacterError> {
    let mut root = toml::Value::Table(parse_sheet(sheet)?);
    for c in changes {
        apply_one(&mut root, c)?;
    }
    toml::to_string(&root).map_err(|e| CharacterError::History(e.to_string()))
}

fn apply_one(root: &mut toml::Value, change: &SheetChange) -> Result<(), CharacterError> {
    let broken = |why: &str| CharacterError::History(format!("{}: {why}", change.path_text()));
    let Some((last, parents)) = change.path.split_last() else {
        return Err(broken("an empty path"));
    };
    let mut at = root;
    for p in parents {
        at = match (p, at) {
            (PathPart::Key(k), toml::Value::Table(t)) => {
                t.get_mut(k).ok_or_else(|| broken("no such key"))?
            }
            (PathPart::Index(i), toml::Value::Array(a)) => {
                a.get_mut(*i).ok_or_else(|| broken("no such index"))?
            }
            _ => return Err(broken("the path does not fit the sheet")),
        };
    }
    match (last, at) {
        (PathPart::Key(k), toml::Value::Table(t)) => {
            if t.get(k) != change.from.as_ref() {
                return Err(broken("the old value is not the sheet's"));
            }
            match &change.to {
                Some(v) => {
                    t.insert(k.clone(), v.clone());
                }
                None => {
                    t.remove(k);
                }
            }
        }
        (PathPart::Index(i), toml::Value::Array(a)) => {
            let slot = a.get_mut(*i).ok_or_else(|| broken("no such index"))?;
            if Some(&*slot) != change.from.as_ref() {
                return Err(broken("the old value is not the sheet's"));
            }
            match &change.to {
                Some(v) => *slot = v.clone(),
                None => return Err(broken("an array element cannot be removed alone")),
            }
        }
        _ => return Err(broken("the path does not fit the sheet")),
    }
    Ok(())
}

/// True when two sheets hold the same values (formatting aside).
pub fn same_sheet(a: &str, b: &str) -> bool {
    matches!((parse_sheet(a), parse_sheet(b)), (Ok(x), Ok(y)) if x == y)
}

/// One event of a character's history. A history starts with `created` or
/// `imported` (the whole sheet); every later event carries the changes to
/// the sheet, so replaying the history rebuilds the current sheet
/// ([`replay_history`]).
///
/// As JSON: `{"kind": "created", "sheet": "..."}`, `{"kind": "encounter",
/// "table": "ID", "table_name": "...", "changes": [...]}`, ...
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CharacterEvent {
    /// Made with the builder (or written by hand) and added to the campaign.
    Created {
        /// The sheet, TOML.
        sheet: String,
    },
    /// Imported from a sheet file.
    Imported {
        /// The sheet, TOML.
        sheet: String,
    },
    /// An encounter ended and left these lasting changes.
    Encounter {
        /// The table's id.
        table: String,
        /// The table's name.
        table_name: String,
        /// What changed on the sheet (empty when nothing lasting happened).
        changes: Vec<SheetChange>,
        /// The rules the sheet the encounter left breaks: the encounter is
        /// recorded all the same, and the character needs the GM's edit
        /// before it sits at a table again. Empty (and left out of the JSON)
        /// when the sheet validates.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        problems: Vec<RuleNote>,
    },
    /// An advancement command was given between encounters.
    Advanced {
        /// The command as typed.
        command: String,
        /// What it did, in the book's words.
        summary: String,
        /// What changed on the sheet.
        changes: Vec<SheetChange>,
    },
    /// The sheet was replaced by a new version of itself (an edited or
    /// re-imported file), as changes.
    Edited {
        /// What changed on the sheet.
        changes: Vec<SheetChange>,
        /// The book's rules the edit steps past (the GM's right; the new sheet
        /// validates). Empty (and left out of the JSON) for an edit within the
        /// rules.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        steps_past: Vec<RuleNote>,
    },
}

impl CharacterEvent {
    /// The event's kind as stored: `created`, `imported`, `encounter`,
    /// `advanced`, `edited`.
    pub fn kind(&self) -> &'static str {
        match self {
            CharacterEvent::Created { .. } => "created",
            CharacterEvent::Imported { .. } => "imported",
            CharacterEvent::Encounter { .. } => "encounter",
            CharacterEvent::Advanced { .. } => "advanced",
            CharacterEvent::Edited { .. } => "edited",
        }
    }

    /// One line for a history list.
    pub fn summary(&self) -> String {
        let changes = |c: &[SheetChange]| {
            if c.is_empty() {
                "no lasting change".to_string()
            } else {
                c.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            }
        };
        match self {
            CharacterEvent::Created { .. } => "created".into(),
            CharacterEvent::Imported { .. } => "imported from a sheet file".into(),
            CharacterEvent::Encounter {
                table_name,
                changes: c,
                problems,
                ..
            } => {
                let mut out = format!("encounter \"{table_name}\": {}", changes(c));
                if !problems.is_empty() {
                    out.push_str(&format!("; needs the GM's edit: {}", notes_text(problems)));
                }
                out
            }
            CharacterEvent::Advanced {
                command, summary, ..
            } => format!("{command}: {summary}"),
            CharacterEvent::Edited {
                changes: c,
                steps_past,
            } => {
                let mut out = format!("edited: {}", changes(c));
                if !steps_past.is_empty() {
                    out.push_str(&format!(
                        "; the GM's edit steps past: {}",
                        notes_text(steps_past)
                    ));
                }
                out
            }
        }
    }
}

/// The sheet a history leads to: the first event's sheet with every later
/// event's changes applied in order, then checked with `system`'s validator
/// (unless the last event is an encounter that recorded the rules its sheet
/// breaks: that sheet awaits the GM's edit).
///
/// # Errors
/// [`CharacterError::History`] when the history is empty, does not start with
/// a sheet, has a second start, or a change does not fit;
/// [`CharacterError::Sheet`] when the result is not a legal character.
pub fn replay_history(
    system: SystemId,
    events: &[CharacterEvent],
) -> Result<String, CharacterError> {
    replay_history_in("", system, events)
}

/// [`replay_history`] of a character of a campaign with `settings`: the sheet
/// it rebuilds is checked against the campaign's setting (R-SCR-9: a Scratch
/// RPS character at 14 CP and level 8 is legal in a campaign set to them).
///
/// # Errors
/// As [`replay_history`]; [`CharacterError::Settings`] for settings that do
/// not read.
pub fn replay_history_in(
    settings: &str,
    system: SystemId,
    events: &[CharacterEvent],
) -> Result<String, CharacterError> {
    let mut sheet = match events.first() {
        Some(CharacterEvent::Created { sheet } | CharacterEvent::Imported { sheet }) => {
            sheet.clone()
        }
        Some(_) => {
            return Err(CharacterError::History(
                "it does not start with a sheet".into(),
            ));
        }
        None => return Err(CharacterError::History("it is empty".into())),
    };
    for e in &events[1..] {
        let changes = match e {
            CharacterEvent::Encounter { changes, .. }
            | CharacterEvent::Advanced { changes, .. }
            | CharacterEvent::Edited { changes, .. } => changes,
            CharacterEvent::Created { .. } | CharacterEvent::Imported { .. } => {
                return Err(CharacterError::History("a second start".into()));
            }
        };
        if !changes.is_empty() {
            sheet = apply_changes(&sheet, changes)?;
        }
    }
    // A sheet an encounter left breaking rules (recorded with the event) is
    // the campaign's sheet until the GM's edit: it replays as it was written.
    let awaits_edit = matches!(
        events.last(),
        Some(CharacterEvent::Encounter { problems, .. }) if !problems.is_empty()
    );
    if !awaits_edit {
        system.validate_sheet_in(settings, &sheet)?;
    }
    Ok(sheet)
}

/// A campaign's character as the encounter-ending code needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignSheet {
    /// The character's id in the store.
    pub id: String,
    /// Its name (matched to the table's characters without regard to case).
    pub name: String,
    /// Its current sheet.
    pub sheet: String,
}

/// What an encounter leaves on each campaign character that took part: the
/// character's id, its new sheet, and the [`CharacterEvent::Encounter`] with
/// the changes. Characters of the table that are not the campaign's (NPCs
/// brought by the GM) and campaign characters not at the table are left out.
///
/// Ending an encounter never fails on a state the table accepted (R-SG-13,
/// for every book): a sheet the system writes back that does not validate is
/// recorded all the same, with the rules it breaks in the event's `problems`
/// ([`SystemId::needs_edit`] then lists them until the GM's edit).
pub fn encounter_changes(
    table: &crate::AnyTable,
    table_id: &str,
    table_name: &str,
    characters: &[CampaignSheet],
) -> Vec<(String, String, CharacterEvent)> {
    encounter_changes_in("", table, table_id, table_name, characters)
}

/// [`encounter_changes`] of a campaign with `settings`: the sheets the
/// encounter leaves are checked against the campaign's setting (R-SCR-9);
/// one that breaks it is written back all the same, with its problems.
pub fn encounter_changes_in(
    settings: &str,
    table: &crate::AnyTable,
    table_id: &str,
    table_name: &str,
    characters: &[CampaignSheet],
) -> Vec<(String, String, CharacterEvent)> {
    sheets_changes_in(
        settings,
        table.system(),
        table.sheets_after(),
        table_id,
        table_name,
        characters,
    )
}

/// [`encounter_changes`] for the sheets `afters` a table of `system` wrote
/// back. A sheet that is not even TOML (a bug of the system) leaves the
/// character's sheet as it was, and the event says so in its `problems`.
pub fn sheets_changes(
    system: SystemId,
    afters: Vec<SheetAfter>,
    table_id: &str,
    table_name: &str,
    characters: &[CampaignSheet],
) -> Vec<(String, String, CharacterEvent)> {
    sheets_changes_in("", system, afters, table_id, table_name, characters)
}

/// [`sheets_changes`] of a campaign with `settings` (R-SCR-9).
pub fn sheets_changes_in(
    settings: &str,
    system: SystemId,
    afters: Vec<SheetAfter>,
    table_id: &str,
    table_name: &str,
    characters: &[CampaignSheet],
) -> Vec<(String, String, CharacterEvent)> {
    let mut out = Vec::new();
    for after in afters {
        let Some(c) = characters
            .iter()
            .find(|c| tabula_core::names::same_name(&c.name, &after.name))
        else {
            continue;
        };
        let (sheet, changes, problems) = match sheet_changes(&c.sheet, &after.sheet) {
            Ok(changes) => {
                let problems = system.needs_edit_in(settings, &after.sheet);
                (after.sheet, changes, problems)
            }
            Err(e) => (
                c.sheet.clone(),
                Vec::new(),
                vec![BuildProblem {
                    field: None,
                    rule: tabula_core::Rule::table("Campaigns"),
                    message: format!(
                        "the sheet the encounter left was not written back ({e}); the sheet is as it was before the encounter"
                    ),
                    unfinished: false,
                }],
            ),
        };
        out.push((
            c.id.clone(),
            sheet,
            CharacterEvent::Encounter {
                table: table_id.to_string(),
                table_name: table_name.to_string(),
                changes,
                problems: problems.into_iter().map(RuleNote::from).collect(),
            },
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_replay_to_the_new_sheet() {
        let old = "name = \"Kodos\"\nxp = 3\n[traits]\nMight = 2\n[[skills]]\nname = \"Brawl\"\nlevel = 1\n";
        let new = "name = \"Kodos\"\nxp = 1\nwounds = [\"arm\"]\n[traits]\nMight = 3\n[[skills]]\nname = \"Brawl\"\nlevel = 2\n";
        let changes = sheet_changes(old, new).unwrap();
        let texts: Vec<String> = changes.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            vec![
                "skills[0].level: 1 -> 2",
                "traits.Might: 2 -> 3",
                "wounds: (none) -> [\"arm\"]",
                "xp: 3 -> 1"
            ]
        );
        let rebuilt = apply_changes(old, &changes).unwrap();
        assert!(same_sheet(&rebuilt, new));
        // Changes go through JSON (the store) and back unchanged.
        let json = serde_json::to_string(&changes).unwrap();
        let back: Vec<SheetChange> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, changes);
    }

    #[test]
    fn a_change_that_does_not_fit_is_refused() {
        let changes = sheet_changes("a = 1", "a = 2").unwrap();
        assert!(matches!(
            apply_changes("a = 5", &changes),
            Err(CharacterError::History(m)) if m.contains("a: the old value")
        ));
        assert!(apply_changes("a = 1", &changes).is_ok());
    }
}
