//! Each book's tools outside the table ([`tabula_core::tool`]), reached
//! through [`SystemId`]: the command line defines `tabula <system> check |
//! odds | character validate | character show` once over these, and each
//! book declares its parameters and run functions in its own `src/cli.rs`.

use serde::Serialize;

use tabula_core::sheet::CharacterSheet;
use tabula_core::tool::{BookTools, ParamValues, Tool, ToolError, ToolParam};

use crate::SystemId;
use crate::characters::{CharacterError, RuleNote};

/// What `character validate` says of a sheet, the same shape for every book:
/// whether it is legal, the character's name, and every problem with its rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Validation {
    /// Whether the sheet breaks no rule.
    pub valid: bool,
    /// The character's name (the sheet's `name`, when it reads).
    pub name: Option<String>,
    /// Every broken rule: the field, what is wrong, the rule.
    pub problems: Vec<RuleNote>,
}

impl SystemId {
    /// The book's tools: `check`, `odds` and its reference printouts.
    pub fn tools(self) -> Vec<Tool> {
        dispatch!(self, S => <S as BookTools>::tools())
    }

    /// The parameters `character validate|show` take besides the file.
    pub fn character_params(self) -> Vec<ToolParam> {
        dispatch!(self, S => <S as BookTools>::character_params())
    }

    /// The campaign settings those parameters stand for (empty: the book's
    /// own rules).
    ///
    /// # Errors
    /// [`ToolError`] naming the flag.
    pub fn character_settings(self, values: &ParamValues) -> Result<String, ToolError> {
        dispatch!(self, S => <S as BookTools>::character_settings(values))
    }

    /// Check a sheet against every rule of the book under `settings`
    /// ([`SystemId::validate_sheet_in`]), as one [`Validation`].
    ///
    /// # Errors
    /// [`CharacterError::Settings`] when the settings do not read.
    pub fn validation(self, settings: &str, sheet: &str) -> Result<Validation, CharacterError> {
        let name = sheet
            .parse::<toml::Table>()
            .ok()
            .and_then(|t| t.get("name").and_then(|n| n.as_str()).map(str::to_string));
        match self.validate_sheet_in(settings, sheet) {
            Ok(name) => Ok(Validation {
                valid: true,
                name: Some(name),
                problems: Vec::new(),
            }),
            Err(CharacterError::Sheet { problems }) => Ok(Validation {
                valid: false,
                name,
                problems: problems.into_iter().map(RuleNote::from).collect(),
            }),
            Err(other) => Err(other),
        }
    }

    /// The character sheet of a sheet that validates under `settings`.
    ///
    /// # Errors
    /// [`CharacterError::Sheet`] with every broken rule, first.
    pub fn character_sheet(
        self,
        settings: &str,
        sheet: &str,
    ) -> Result<CharacterSheet, CharacterError> {
        self.validate_sheet_in(settings, sheet)?;
        dispatch!(self, S => <S as BookTools>::character_sheet(settings, sheet)).map_err(
            |message| CharacterError::Sheet {
                problems: vec![tabula_core::BuildProblem {
                    field: None,
                    rule: tabula_core::Rule::table("Characters"),
                    message,
                    unfinished: false,
                }],
            },
        )
    }
}
