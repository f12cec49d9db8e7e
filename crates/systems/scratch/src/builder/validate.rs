//! Validating a sheet's text under a table's rules, and the sheet an
//! encounter leaves (R-SCR-7, R-SCR-8).

use super::*;

/// What [`CharacterBook::validate`] answers for a sheet's text, under the
/// book's rules.
pub(super) fn validate_sheet(sheet: &str) -> Result<Character, Vec<BuildProblem>> {
    validate_character(sheet, &book_rules())
}

/// A sheet's character under the setting's rules `rules` (a campaign's:
/// R-SCR-9; a table's for the GM's `add FILE.toml`), or every problem.
pub(crate) fn validate_character(
    sheet: &str,
    rules: &TableRules,
) -> Result<Character, Vec<BuildProblem>> {
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
pub(super) fn sheet_after(state: &State, i: usize) -> Option<SheetAfter> {
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
pub(super) fn crafted_of(state: &State, i: usize) -> Vec<CraftedBonus> {
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
