//! A book's tools outside the table: `check`, `odds` and its reference
//! printouts, each declared once by the book (its parameters with their help,
//! kind, default and whether they are required, and a run function), and the
//! character sheet a validated character file shows. The command line builds
//! one subcommand per declared tool, so `tabula <system> check --help` lists
//! every flag the book declares, and prints the [`Report`] as text or JSON.

use serde::Serialize;
use std::collections::BTreeMap;

use crate::roller::Roller;
use crate::rule::{Rule, RuleError};
use crate::sheet::CharacterSheet;
use crate::system::ParamKind;

/// What values one parameter of a tool takes.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolKind {
    /// A value of a table parameter's kind (a whole number in a range, a name
    /// from a set, free text, a number or a name).
    Value(ParamKind),
    /// A real number in `min..=max` (a chance to reach).
    Real {
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
    },
    /// A switch: present or not, taking no value.
    Switch,
    /// A file path.
    File,
}

/// One parameter of a tool: `--name VALUE` on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolParam {
    /// The flag's name without the dashes, e.g. `dice`.
    pub name: &'static str,
    /// One line of help, in the book's words, citing its rule.
    pub help: &'static str,
    /// What values it takes.
    pub kind: ToolKind,
    /// Whether the tool needs it.
    pub required: bool,
    /// The value taken when it is not given.
    pub default: Option<&'static str>,
    /// Accepted but not listed in `--help` (a flag kept for symmetry).
    pub hidden: bool,
    /// The placeholder `--help` shows for the value (`N`, `FILE`).
    pub value_name: Option<&'static str>,
}

impl ToolParam {
    fn new(name: &'static str, help: &'static str, kind: ToolKind) -> Self {
        ToolParam {
            name,
            help,
            kind,
            required: false,
            default: None,
            hidden: false,
            value_name: None,
        }
    }

    /// A whole number in `min..=max` (the run function checks the range, so
    /// the refusal names the book's rule).
    pub fn int(name: &'static str, help: &'static str, min: i64, max: i64) -> Self {
        Self::new(name, help, ToolKind::Value(ParamKind::Int { min, max }))
    }

    /// A real number in `min..=max`.
    pub fn real(name: &'static str, help: &'static str, min: f64, max: f64) -> Self {
        Self::new(name, help, ToolKind::Real { min, max })
    }

    /// Free text (a Goal name, a card, a list of faces).
    pub fn text(name: &'static str, help: &'static str) -> Self {
        Self::new(name, help, ToolKind::Value(ParamKind::Text))
    }

    /// A switch taking no value.
    pub fn switch(name: &'static str, help: &'static str) -> Self {
        Self::new(name, help, ToolKind::Switch)
    }

    /// A file path.
    pub fn file(name: &'static str, help: &'static str) -> Self {
        Self::new(name, help, ToolKind::File)
    }

    /// The tool needs this parameter.
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// The value taken when the parameter is not given.
    pub fn default(mut self, value: &'static str) -> Self {
        self.default = Some(value);
        self
    }

    /// Accepted, not listed in `--help`.
    pub fn hidden(mut self) -> Self {
        self.hidden = true;
        self
    }

    /// The placeholder `--help` shows for the value.
    pub fn value_name(mut self, name: &'static str) -> Self {
        self.value_name = Some(name);
        self
    }
}

/// The dice a tool rolls can be given by hand (`--rolled`) or seeded
/// (`--seed`): how the typed list reads.
#[derive(Clone, Copy, Debug)]
pub struct Rolled {
    /// Help for `--rolled`: what values, in which order.
    pub help: &'static str,
    /// Each typed value as the manual roller reads it (Sapio's face labels);
    /// `None` keeps the list as typed.
    pub normalize: Option<fn(&str) -> String>,
}

/// The run function of a tool.
pub type RunTool = fn(&ParamValues, &mut dyn Roller) -> Result<Report, ToolError>;

/// One tool a book offers: `tabula <system> NAME --flag VALUE ...`.
#[derive(Clone, Debug)]
pub struct Tool {
    /// The subcommand's name, e.g. `check`.
    pub name: &'static str,
    /// One line saying what it does, citing the rule.
    pub about: &'static str,
    /// Its parameters.
    pub params: Vec<ToolParam>,
    /// Whether it rolls dice or draws cards (`--rolled`, `--seed`).
    pub rolled: Option<Rolled>,
    /// Whether it can draw its chances to a file (`--chart FILE`): the run
    /// function then fills [`Report::chart`] when `chart` is given.
    pub chart: bool,
    /// Runs it.
    pub run: RunTool,
}

impl Tool {
    /// A tool with no parameters yet.
    pub fn new(name: &'static str, about: &'static str, run: RunTool) -> Self {
        Tool {
            name,
            about,
            params: Vec::new(),
            rolled: None,
            chart: false,
            run,
        }
    }

    /// Add a parameter.
    pub fn param(mut self, p: ToolParam) -> Self {
        self.params.push(p);
        self
    }

    /// It rolls (or draws): accept `--rolled` and `--seed`.
    pub fn rolls(mut self, rolled: Rolled) -> Self {
        self.rolled = Some(rolled);
        self
    }

    /// It draws a chart with `--chart FILE`.
    pub fn charts(mut self) -> Self {
        self.chart = true;
        self
    }
}

/// The chance of success against one input, drawn by `--chart FILE`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Chart {
    /// The chart's title.
    pub title: String,
    /// What the x axis counts.
    pub x_label: String,
    /// `(x, probability)` points.
    pub points: Vec<(i64, f64)>,
}

/// What a tool prints: text, or with `--json` one JSON document.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The text printed without `--json`.
    pub text: String,
    /// The document printed with `--json`.
    pub json: serde_json::Value,
    /// The chart to draw when `--chart FILE` was given.
    pub chart: Option<Chart>,
}

impl Report {
    /// A report of `value` as JSON and `text`.
    ///
    /// # Errors
    /// [`ToolError::Failure`] when the value does not serialize.
    pub fn of<T: Serialize>(value: &T, text: String) -> Result<Self, ToolError> {
        Ok(Report {
            text,
            json: serde_json::to_value(value).map_err(|e| ToolError::Failure(e.to_string()))?,
            chart: None,
        })
    }

    /// With a chart.
    pub fn with_chart(mut self, chart: Option<Chart>) -> Self {
        self.chart = chart;
        self
    }
}

/// Why a tool refused its input. Each names the flag (and the rule when one
/// decides); nothing was rolled or written.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ToolError {
    /// The value does not read as its kind (not a number, too large for any).
    #[error("{flag}: {message}")]
    Unreadable {
        /// The flag, e.g. `--dice`.
        flag: String,
        /// What is wrong with it.
        message: String,
    },
    /// A number outside the range allowed.
    #[error("{flag} must be between {min} and {max}, not {got}")]
    OutOfRange {
        /// The flag.
        flag: String,
        /// Smallest allowed.
        min: String,
        /// Largest allowed.
        max: String,
        /// What was given.
        got: String,
    },
    /// A value the book's rule refuses, naming the flag when one is to blame.
    #[error("{}{error}", flag.as_ref().map(|f| format!("{f}: ")).unwrap_or_default())]
    Refused {
        /// The flag, when the refusal is about one value.
        flag: Option<String>,
        /// The book's refusal, with its rule.
        error: RuleError,
    },
    /// Something else wrong with the input, naming the flag and the rule.
    #[error("{message}")]
    Invalid {
        /// The flag(s) at fault.
        flag: String,
        /// What is wrong.
        message: String,
        /// The rule that decides, when one does.
        rule: Option<Rule>,
    },
    /// Not the user's input: the book's own data failed to load.
    #[error("{0}")]
    Failure(String),
}

impl ToolError {
    /// A refusal of the book's with no flag singled out.
    pub fn refused(error: RuleError) -> Self {
        ToolError::Refused { flag: None, error }
    }

    /// Bad input about `flag` (e.g. `--goal`), saying what the book said.
    pub fn invalid(flag: &str, message: impl ToString) -> Self {
        ToolError::Invalid {
            flag: flag.to_string(),
            message: message.to_string(),
            rule: None,
        }
    }

    /// Whether the user's input is to blame (the command line's exit code 2).
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, ToolError::Failure(_))
    }
}

/// The values given to a tool, by parameter name (defaults filled in;
/// switches are present with the value `true`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamValues {
    values: BTreeMap<String, String>,
}

impl ParamValues {
    /// No values.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set `name` to `value`.
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.values.insert(name.to_string(), value.into());
    }

    /// The text of `name`, when given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Whether a switch is on (or a value given).
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// A whole number of any size, read without wrapping: `None` when not
    /// given.
    ///
    /// # Errors
    /// [`ToolError::Unreadable`] naming the flag: not a whole number, or too
    /// large or too small for any integer.
    pub fn int(&self, name: &str) -> Result<Option<i64>, ToolError> {
        let Some(text) = self.get(name) else {
            return Ok(None);
        };
        let t = text.trim();
        let unreadable = |message: String| ToolError::Unreadable {
            flag: format!("--{name}"),
            message,
        };
        match t.parse::<i128>() {
            Ok(n) => i64::try_from(n).map(Some).map_err(|_| {
                unreadable(if n < 0 {
                    format!("{t} is too small (out of range)")
                } else {
                    format!("{t} is too large (out of range)")
                })
            }),
            Err(_) => {
                let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
                Err(unreadable(
                    if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
                        if t.starts_with('-') {
                            format!("{t} is too small (out of range)")
                        } else {
                            format!("{t} is too large (out of range)")
                        }
                    } else {
                        format!("{t:?} is not a whole number")
                    },
                ))
            }
        }
    }

    /// A whole number the tool needs (clap refuses a missing required flag
    /// first; this names it again for other callers).
    ///
    /// # Errors
    /// As [`ParamValues::int`]; [`ToolError::Invalid`] when missing.
    pub fn need_int(&self, name: &str) -> Result<i64, ToolError> {
        self.int(name)?.ok_or_else(|| ToolError::Invalid {
            flag: format!("--{name}"),
            message: format!("--{name} is needed"),
            rule: None,
        })
    }

    /// A count (dice, Combat Points): a whole number, 0 or more.
    ///
    /// # Errors
    /// [`ToolError::Unreadable`] naming the flag when negative or past
    /// `u32`.
    pub fn count(&self, name: &str) -> Result<Option<u32>, ToolError> {
        let Some(n) = self.int(name)? else {
            return Ok(None);
        };
        let unreadable = |message: String| ToolError::Unreadable {
            flag: format!("--{name}"),
            message,
        };
        if n < 0 {
            return Err(unreadable(format!(
                "{n} is negative; must be 0 or more, not {n}"
            )));
        }
        u32::try_from(n)
            .map(Some)
            .map_err(|_| unreadable(format!("{n} is too large (at most {})", u32::MAX)))
    }

    /// A real number, `None` when not given.
    ///
    /// # Errors
    /// [`ToolError::Unreadable`] naming the flag.
    pub fn real(&self, name: &str) -> Result<Option<f64>, ToolError> {
        self.get(name)
            .map(|t| {
                t.trim().parse::<f64>().map_err(|_| ToolError::Unreadable {
                    flag: format!("--{name}"),
                    message: format!("{t:?} is not a number"),
                })
            })
            .transpose()
    }
}

/// What a book offers outside the table, declared once in its own crate and
/// reached by the command line through the engine's list of books.
pub trait BookTools {
    /// The book's tools: `check`, `odds`, and any reference printouts.
    fn tools() -> Vec<Tool>;

    /// Parameters `character validate|show` take besides the file (Scratch
    /// RPS: the table's character points and maximum level, R-SCR-7).
    fn character_params() -> Vec<ToolParam> {
        Vec::new()
    }

    /// The campaign settings text those parameters stand for (empty: the
    /// book's own rules), as `SystemId::validate_sheet_in` reads it.
    ///
    /// # Errors
    /// [`ToolError`] naming the flag.
    fn character_settings(values: &ParamValues) -> Result<String, ToolError> {
        let _ = values;
        Ok(String::new())
    }

    /// The character sheet of a character file that validates under
    /// `settings`, as the book's character sheet section lays it out.
    ///
    /// # Errors
    /// A message when the file does not read (validation said why first).
    fn character_sheet(settings: &str, sheet: &str) -> Result<CharacterSheet, String>;
}

/// The text of a chance as a percentage with one decimal, as every tool prints.
pub fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(pairs: &[(&str, &str)]) -> ParamValues {
        let mut v = ParamValues::new();
        for (k, val) in pairs {
            v.set(k, *val);
        }
        v
    }

    #[test]
    fn numbers_read_without_wrapping_and_name_the_flag() {
        let v = values(&[
            ("dice", "-4"),
            ("huge", "99999999999999999999"),
            ("tiny", "-99999999999999999999"),
            ("word", "four"),
            ("big", "4294967296"),
        ]);
        assert_eq!(v.int("dice"), Ok(Some(-4)));
        assert_eq!(v.int("missing"), Ok(None));
        assert_eq!(
            v.int("huge").unwrap_err().to_string(),
            "--huge: 99999999999999999999 is too large (out of range)"
        );
        assert_eq!(
            v.int("tiny").unwrap_err().to_string(),
            "--tiny: -99999999999999999999 is too small (out of range)"
        );
        assert_eq!(
            v.int("word").unwrap_err().to_string(),
            "--word: \"four\" is not a whole number"
        );
        assert_eq!(
            v.count("dice").unwrap_err().to_string(),
            "--dice: -4 is negative; must be 0 or more, not -4"
        );
        assert_eq!(
            v.count("big").unwrap_err().to_string(),
            "--big: 4294967296 is too large (at most 4294967295)"
        );
        assert!(v.need_int("missing").is_err());
    }

    #[test]
    fn errors_name_the_flag_and_the_rule() {
        let rule = Rule::table("Check");
        let e = ToolError::Refused {
            flag: Some("--bonus".into()),
            error: RuleError::out_of_range(rule, "bonus", -100, 100, 200),
        };
        assert!(
            e.to_string()
                .starts_with("--bonus: bonus must be between -100 and 100, not 200"),
            "{e}"
        );
        let e = ToolError::OutOfRange {
            flag: "--target".into(),
            min: "0".into(),
            max: "1".into(),
            got: "-0.5".into(),
        };
        assert_eq!(e.to_string(), "--target must be between 0 and 1, not -0.5");
        assert!(e.is_bad_input());
        assert!(!ToolError::Failure("x".into()).is_bad_input());
    }

    #[test]
    fn a_tool_declares_its_parameters_once() {
        fn run(v: &ParamValues, _: &mut dyn Roller) -> Result<Report, ToolError> {
            Report::of(&v.int("dice")?, "ran".into())
        }
        let t = Tool::new("check", "A check.", run)
            .param(ToolParam::int("dice", "Dice.", 0, 10).required())
            .param(ToolParam::switch("cover", "Cover.").default("0").hidden())
            .charts();
        assert_eq!(t.params.len(), 2);
        assert!(t.params[0].required && t.params[1].hidden && t.chart);
        assert_eq!(t.params[1].default, Some("0"));
        let mut roller = crate::Seeded::from_seed(1);
        let r = (t.run)(&values(&[("dice", "3")]), &mut roller).unwrap();
        assert_eq!(r.json, serde_json::json!(3));
        assert_eq!(r.text, "ran");
    }
}
