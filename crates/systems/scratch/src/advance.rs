//! Advancement between encounters.
//!
//! The book has no advancement rule, no XP and no award schedule. What it
//! says: CP and the maximum level are chosen "for new characters" ("Abilities");
//! "training and experience could give a character 1 or 2 more levels of
//! toughness" ("Toughness"); a character "cannot get flying ability without a
//! good explanation for why he can fly now when he could not fly before"
//! ("Movement Abilities"); minions' CP are the command level ("Support
//! Abilities").
//!
//! Proposed ruling **R-SCR-8**: the GM awards CP (`award-cp N`), written on the
//! sheet as `awarded_cp` and added to the table's CP at every table (the
//! table's `[rules]` still bind the creation budget and the maximum level,
//! R-SCR-7); the player spends each CP, as at creation, on one more level of
//! one ability within the maximum level (`raise ABILITY`), between encounters.
//! Flying from nothing takes the GM and the good explanation. A leader's new
//! command level is spent on his minions (`raise-minion`, `add-minion`).
//!
//! Every command validates the sheet before and after (the same check as
//! `tabula scratch character validate FILE`): a refusal changes nothing and
//! names its rule.

use tabula_core::builder::{AdvanceError, Advanced};
use tabula_core::names::{check_name, resolve, same_name};
use tabula_core::{CommandDoc, Giver, Roller, Seat};

use crate::abilities::Ability;
use crate::builder::{Draft, build_problem, sheet_text, toml_problem};
use crate::character::{Character, CharacterDraft, MAX_MINIONS, slug};
use crate::rules::{self, MAX_CP_CAP, TableRules};

/// The advancement commands (R-SCR-8, proposed), for `help` and the reference.
pub const ADVANCEMENT: [CommandDoc; 4] = [
    CommandDoc::new(
        "award-cp",
        &["award"],
        "award-cp N [REASON...]",
        "The GM awards N character points; they stay with the character (awarded_cp) on top of the table's CP.",
        Giver::Gm,
        rules::ADVANCEMENT,
    ),
    CommandDoc::new(
        "raise",
        &[],
        "raise ABILITY [EXPLANATION...]",
        "Spend one CP on one more level of ABILITY (a new one starts at 1), no more than the maximum level; flying from nothing needs the GM and a good explanation.",
        Giver::Player,
        rules::ADVANCEMENT,
    ),
    CommandDoc::new(
        "raise-minion",
        &[],
        "raise-minion MINION ABILITY [EXPLANATION...]",
        "Spend one CP of the command level on one more level of a minion's ability; minions cannot have command ability.",
        Giver::Player,
        rules::SUPPORT_ABILITIES,
    ),
    CommandDoc::new(
        "add-minion",
        &[],
        "add-minion NAME ABILITY",
        "Command provides one or two minions: a new minion NAME with 1 level of ABILITY, from the CP of the command level.",
        Giver::Player,
        rules::SUPPORT_ABILITIES,
    ),
];

fn parse_error(message: impl Into<String>) -> AdvanceError {
    AdvanceError::parse(message, &ADVANCEMENT)
}

/// The ability named `typed` on `sheet`: one of the book's, or one of the
/// sheet's own `[other_abilities]` (any case, unambiguous prefix). Returns the
/// key to write and the book's ability, if it is one.
fn ability_named(
    sheet: &CharacterDraft,
    typed: &str,
    allowed: impl Fn(Ability) -> bool,
) -> Result<(String, Option<Ability>), AdvanceError> {
    let mut names: Vec<String> = Ability::ALL
        .into_iter()
        .filter(|a| allowed(*a))
        .map(|a| a.name().to_string())
        .collect();
    names.extend(sheet.other_abilities.keys().cloned());
    let name = resolve("ability", typed, names.iter().map(String::as_str))
        .map_err(|e| parse_error(e.to_string()))?
        .to_string();
    Ok(match Ability::parse(&name) {
        Some(a) => {
            // Keep the sheet's own spelling of the key, if it has one.
            let key = sheet
                .abilities
                .keys()
                .find(|k| Ability::parse(k) == Some(a))
                .cloned()
                .unwrap_or(name);
            (key, Some(a))
        }
        None => (name, None),
    })
}

/// The level `sheet` has in `key` (0 when it has none).
fn level_of(sheet: &CharacterDraft, key: &str, book: Option<Ability>) -> i64 {
    match book {
        Some(_) => sheet.abilities.get(key).copied().unwrap_or(0),
        None => sheet.other_abilities.get(key).copied().unwrap_or(0),
    }
}

fn set_level(sheet: &mut CharacterDraft, key: &str, book: Option<Ability>, level: i64) {
    match book {
        Some(_) => sheet.abilities.insert(key.to_string(), level),
        None => sheet.other_abilities.insert(key.to_string(), level),
    };
}

/// "A character with no flying ability cannot fly, and cannot get flying ability
/// without a good explanation for why he can fly now when he could not fly
/// before" ("Movement Abilities"): the GM judges the explanation, which
/// becomes the ability's note.
fn flying_gate(
    sheet: &mut CharacterDraft,
    seat: &Seat,
    from: i64,
    book: Option<Ability>,
    explanation: &str,
) -> Result<(), AdvanceError> {
    if book != Some(Ability::Flying) || from > 0 {
        return Ok(());
    }
    if !seat.is_gm() {
        return Err(AdvanceError::refused(
            rules::MOVEMENT_ABILITIES,
            "a character cannot get flying ability without a good explanation for why he can fly now when he could not fly before: the GM gives it (`raise flying EXPLANATION`)",
        ));
    }
    if explanation.trim().is_empty() {
        return Err(AdvanceError::refused(
            rules::MOVEMENT_ABILITIES,
            "flying needs a good explanation for why he can fly now: `raise flying EXPLANATION`",
        ));
    }
    sheet
        .notes
        .entry("flying".to_string())
        .or_insert_with(|| explanation.trim().to_string());
    Ok(())
}

/// One advancement command on a sheet. See the module documentation.
///
/// # Errors
/// [`AdvanceError::Sheet`] when the sheet does not validate under the book's
/// limits; [`AdvanceError::Parse`] for a command or name that is not one;
/// [`AdvanceError::Refused`] naming the rule (the GM's command from a player,
/// no CP left, the maximum level, command's limits on minions).
pub fn advance(
    sheet: &str,
    seat: &Seat,
    line: &str,
    roller: &mut dyn Roller,
) -> Result<Advanced, AdvanceError> {
    advance_in(sheet, seat, line, roller, &TableRules::default())
}

/// [`advance`] under a setting's rules instead of the book's: a campaign's
/// characters advance within its CP and maximum level (R-SCR-9).
///
/// # Errors
/// As [`advance`], the sheet checked and the limits read under `rules`.
pub fn advance_in(
    sheet: &str,
    seat: &Seat,
    line: &str,
    _roller: &mut dyn Roller,
    rules: &TableRules,
) -> Result<Advanced, AdvanceError> {
    let rules = *rules;
    let (draft, character) = read_sheet(sheet, &rules)?;
    let words = tabula_core::grammar::words(line).map_err(|e| parse_error(e.to_string()))?;
    let Some((command, args)) = words.split_first() else {
        return Err(parse_error("no command"));
    };
    let command = command.to_ascii_lowercase();
    let doc = ADVANCEMENT
        .iter()
        .find(|d| d.name == command || d.aliases.contains(&command.as_str()))
        .ok_or_else(|| parse_error(format!("{command:?} is not an advancement command")))?;
    let mut after = draft.clone();
    let name = character.name().to_string();
    let x = Advancing {
        seat,
        args,
        draft: &draft,
        character: &character,
        name: &name,
    };
    let summary = match doc.name {
        "award-cp" => award_cp(&x, &mut after)?,
        "raise" => raise(&x, &mut after)?,
        "raise-minion" => raise_minion(&x, &mut after, &rules)?,
        "add-minion" => add_minion(&x, &mut after)?,
        _ => {
            return Err(parse_error(format!(
                "{command:?} is not an advancement command"
            )));
        }
    };
    // The result is what validate accepts, or nothing changes.
    if let Err(e) = Character::from_draft(after.clone(), &rules) {
        let d = Draft::from_sheet(after);
        let first = e.problems.first().map(|p| build_problem(p, &d));
        return Err(match first {
            Some(p) => AdvanceError::refused(p.rule, p.message),
            None => parse_error("the sheet would not be legal"),
        });
    }
    Ok(Advanced {
        sheet: sheet_text(&after),
        summary,
    })
}

/// The sheet read and checked as `validate` checks it (R-SCR-7 under
/// `rules`): its draft and the character.
fn read_sheet(
    sheet: &str,
    rules: &TableRules,
) -> Result<(CharacterDraft, Character), AdvanceError> {
    let draft: CharacterDraft = toml::from_str(sheet).map_err(|e| AdvanceError::Sheet {
        problems: vec![toml_problem(e.to_string())],
    })?;
    let character = Character::from_draft(draft.clone(), rules).map_err(|e| {
        let d = Draft::from_sheet(*e.draft.clone());
        AdvanceError::Sheet {
            problems: e.problems.iter().map(|p| build_problem(p, &d)).collect(),
        }
    })?;
    Ok((draft, character))
}

/// One advancement command as each step reads it: who gives it, its
/// arguments, and the sheet before it (R-SCR-8).
#[derive(Clone, Copy)]
struct Advancing<'a> {
    /// The seat giving the command.
    seat: &'a Seat,
    /// The words after the command.
    args: &'a [String],
    /// The sheet as read.
    draft: &'a CharacterDraft,
    /// The character the sheet makes.
    character: &'a Character,
    /// The character's name, for the summary.
    name: &'a str,
}

/// `award-cp N [REASON...]`: the GM awards N CP, kept on the sheet as
/// `awarded_cp` (R-SCR-8), within the caps. Returns the summary.
fn award_cp(x: &Advancing<'_>, after: &mut CharacterDraft) -> Result<String, AdvanceError> {
    let Advancing {
        seat,
        args,
        character,
        name,
        ..
    } = *x;
    if !seat.is_gm() {
        return Err(AdvanceError::refused(
            rules::ADVANCEMENT,
            "the GM awards character points; a player spends them",
        ));
    }
    let n: i64 = args
        .first()
        .ok_or_else(|| parse_error("award-cp needs a number of CP"))?
        .parse()
        .map_err(|_| parse_error("award-cp N: N is a whole number"))?;
    if n < 1 {
        return Err(AdvanceError::refused(
            rules::ADVANCEMENT,
            format!("award 1 CP or more, not {n}"),
        ));
    }
    let old = i64::from(character.awarded_cp());
    let new = old.checked_add(n).filter(|v| {
        v.checked_add(i64::from(character.creation_cp()))
            .is_some_and(|t| t <= i64::from(MAX_CP_CAP))
    });
    let Some(new) = new else {
        return Err(AdvanceError::refused(
            rules::CAPS,
            format!("a character holds at most {MAX_CP_CAP} CP in all"),
        ));
    };
    after.awarded_cp = Some(new);
    let reason = args.get(1..).unwrap_or_default().join(" ");
    let left = i64::from(character.cp()) + n - character.cp_spent() as i64;
    Ok(format!(
        "{name}: {n} CP awarded{} ({new} awarded in all); {left} CP to spend",
        if reason.is_empty() {
            String::new()
        } else {
            format!(" for {reason}")
        }
    ))
}

/// `raise ABILITY [EXPLANATION...]`: one CP on one more level, within the
/// maximum level ("Abilities", R-SCR-8); flying from nothing needs the GM
/// and a good explanation ("Movement Abilities"). Returns the summary.
fn raise(x: &Advancing<'_>, after: &mut CharacterDraft) -> Result<String, AdvanceError> {
    let Advancing {
        seat,
        args,
        draft,
        character,
        name,
    } = *x;
    let typed = args
        .first()
        .ok_or_else(|| parse_error("raise needs an ability"))?;
    let explanation = args.get(1..).unwrap_or_default().join(" ");
    let (key, book) = ability_named(draft, typed, |_| true)?;
    let left = i64::from(character.cp()) - character.cp_spent() as i64;
    if left < 1 {
        return Err(AdvanceError::refused(
            rules::ADVANCEMENT,
            format!(
                "no CP to spend: {} of {} spent; the GM awards CP (`award-cp N`)",
                character.cp_spent(),
                character.cp()
            ),
        ));
    }
    let from = level_of(draft, &key, book);
    let to = from.saturating_add(1);
    if to > i64::from(character.max_level()) {
        return Err(AdvanceError::refused(
            rules::ABILITIES,
            format!(
                "{key} {from} -> {to} is above the maximum level {}: no ability can receive more levels",
                character.max_level()
            ),
        ));
    }
    flying_gate(after, seat, from, book, &explanation)?;
    set_level(after, &key, book, to);
    Ok(format!(
        "{name}: {key} {from} -> {to} for 1 CP; {} CP to spend",
        left - 1
    ))
}

/// `raise-minion MINION ABILITY [EXPLANATION...]`: one CP of the command
/// level on one more level of a minion's ability, never command ("Support
/// Abilities"), within the minion's maximum level. Returns the summary.
fn raise_minion(
    x: &Advancing<'_>,
    after: &mut CharacterDraft,
    rules: &TableRules,
) -> Result<String, AdvanceError> {
    let Advancing {
        seat,
        args,
        draft,
        character,
        name,
    } = *x;
    let (Some(who), Some(typed)) = (args.first(), args.get(1)) else {
        return Err(parse_error("raise-minion needs a minion and an ability"));
    };
    let explanation = args.get(2..).unwrap_or_default().join(" ");
    let k = minion_named(draft, who)?;
    let command = character.level(Ability::Command);
    let total: u64 = character.minions().iter().map(Character::cp_spent).sum();
    if total >= u64::from(command) {
        return Err(AdvanceError::refused(
            rules::SUPPORT_ABILITIES,
            format!("the minions' total CP {total} already equals the command level {command}"),
        ));
    }
    let Some(m) = draft.minions.get(k) else {
        return Err(parse_error(format!("no minion {who}")));
    };
    if Ability::parse(typed) == Some(Ability::Command) {
        return Err(AdvanceError::refused(
            rules::SUPPORT_ABILITIES,
            "minions cannot have command ability",
        ));
    }
    let (key, book) = ability_named(m, typed, |a| a != Ability::Command)?;
    let from = level_of(m, &key, book);
    let to = from.saturating_add(1);
    let max = character
        .minions()
        .get(k)
        .map_or(rules.max_level, Character::max_level);
    if to > i64::from(max) {
        return Err(AdvanceError::refused(
            rules::ABILITIES,
            format!("{key} {from} -> {to} is above the maximum level {max}"),
        ));
    }
    let Some(am) = after.minions.get_mut(k) else {
        return Err(parse_error(format!("no minion {who}")));
    };
    flying_gate(am, seat, from, book, &explanation)?;
    set_level(am, &key, book, to);
    Ok(format!(
        "{name}'s minion {}: {key} {from} -> {to}; {} of {command} command CP left",
        am.name,
        u64::from(command) - total - 1
    ))
}

/// `add-minion NAME ABILITY`: command provides one or two minions; a new one
/// with 1 level of ABILITY (never command), from the CP of the command level
/// ("Support Abilities"), named apart from the leader and his minions.
/// Returns the summary.
fn add_minion(x: &Advancing<'_>, after: &mut CharacterDraft) -> Result<String, AdvanceError> {
    let Advancing {
        args,
        draft,
        character,
        name,
        ..
    } = *x;
    let (Some(new_name), Some(typed)) = (args.first(), args.get(1)) else {
        return Err(parse_error("add-minion needs a name and an ability"));
    };
    let command = character.level(Ability::Command);
    if command == 0 {
        return Err(AdvanceError::refused(
            rules::SUPPORT_ABILITIES,
            "only command ability provides minions",
        ));
    }
    if draft.minions.len() >= MAX_MINIONS {
        return Err(AdvanceError::refused(
            rules::SUPPORT_ABILITIES,
            "command provides one or two minions",
        ));
    }
    let total: u64 = character.minions().iter().map(Character::cp_spent).sum();
    if total >= u64::from(command) {
        return Err(AdvanceError::refused(
            rules::SUPPORT_ABILITIES,
            format!("the minions' total CP {total} already equals the command level {command}"),
        ));
    }
    check_name("minion name", new_name)
        .map_err(|e| AdvanceError::refused(rules::NAMES, e.to_string()))?;
    let id = slug(new_name);
    let taken = std::iter::once(character.id())
        .chain(character.minions().iter().map(Character::id))
        .any(|x| x == id)
        || draft.minions.iter().any(|m| same_name(&m.name, new_name));
    if taken || id.is_empty() {
        return Err(AdvanceError::refused(
            rules::NAMES,
            format!("{new_name:?} is not a name of its own beside {name} and his minions"),
        ));
    }
    let Some(a) = Ability::parse(typed) else {
        return Err(parse_error(format!(
            "{typed:?} is not one of the book's abilities"
        )));
    };
    if a == Ability::Command {
        return Err(AdvanceError::refused(
            rules::SUPPORT_ABILITIES,
            "minions cannot have command ability",
        ));
    }
    let mut m = CharacterDraft {
        name: new_name.trim().to_string(),
        ..CharacterDraft::default()
    };
    m.abilities.insert(a.name().to_string(), 1);
    after.minions.push(m);
    Ok(format!("{name}: new minion {new_name} with 1 {a}"))
}

/// The minion of `sheet` named `typed` (any case, unambiguous prefix).
fn minion_named(sheet: &CharacterDraft, typed: &str) -> Result<usize, AdvanceError> {
    let name = resolve(
        "minion",
        typed,
        sheet.minions.iter().map(|m| m.name.as_str()),
    )
    .map_err(|e| parse_error(e.to_string()))?;
    sheet
        .minions
        .iter()
        .position(|m| m.name == name)
        .ok_or_else(|| parse_error(format!("no minion {typed}")))
}
