//! Characters outside the table: [`tabula_core::CharacterBook`] for Sour
//! Grapes, creation in the book's order, the sheet an encounter leaves
//! ([`crate::advance::lasting`]) and the Experience table rule between
//! sessions ([`crate::advance`]).
//!
//! Sour Grapes, "Character Creation", "Stats", "Stat Mechanics", "Skills",
//! "Skill Mechanics", "Stat and Skill Summary", "Cards", "Effects",
//! "Experience" (000_05a1db5b88f54528.txt); R-SG-3, R-SG-9, R-SG-10.
//!
//! The creation steps, in the book's order:
//!
//! | step | fields | the book's limits |
//! |---|---|---|
//! | 1. Who is your character? | `name`, `concept`, `monster` | no roles or types |
//! | 2. Stats | `stats.Agility` ... `stats.Vitality` | each 1 to 10; the average adult human is 3 |
//! | 3. Skills | `skills.N.name`, `skills.N.rating`, `skills.N.notes`; `skills.LEN.name` adds one | free names, 1 (trained) to 5 (masterclass), about one page |
//! | 4. Action cards | `cards` | the book's action cards; none chosen: every card the table has |
//!
//! The book sets **no point budget** for Stats or Skills (the example stat
//! sheet totals 36): the builder offers each field's range and shows the
//! totals, and has no [`tabula_core::builder::Budget`].
//!
//! Every problem comes from [`Character::from_draft`], the check `tabula
//! sour-grapes character validate` runs, on the sheet [`draft_sheet`]
//! writes: a value that adds a broken problem is refused citing the same
//! rule ([`Problem::rule`]); a stat not chosen, a skill without a rating and
//! an empty name are merely unfinished.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use tabula_core::builder::{ChoiceOption, Derived, FieldView, MAX_TEXT_CHARS, StepView};
use tabula_core::names::MAX_NAME_CHARS;
use tabula_core::system::CommandDoc;
use tabula_core::{
    AdvanceError, Advanced, BuildProblem, BuildRefusal, BuildView, CharacterBook, FieldKind,
    FieldValue, Roller, Seat,
};

use crate::advance::{self, lasting};
use crate::cards::{CardType, book_cards};
use crate::character::{
    CardBonus, Character, CharacterDraft, CharacterFileError, EffectEntry, MAX_SKILL, MAX_SKILLS,
    Problem, SkillDraft, StatEntry,
};
use crate::rules;
use crate::state::State;
use crate::stats::{MAX_STAT, Stat};
use crate::{ID, SourGrapes};

pub mod write;

pub use write::sheet_toml;

/// One skill line of a draft: the book's skill sheet ("Name: ... Notes: ...")
/// with a rating.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftSkill {
    /// The skill's name, free text.
    pub name: String,
    /// 1 (trained) to 5 (masterclass); `None` until chosen.
    #[serde(default)]
    pub rating: Option<i64>,
    /// Tokens spent (an imported sheet's; 0 for a new character).
    #[serde(default)]
    pub used: i64,
    /// The notes line, free text.
    #[serde(default)]
    pub notes: String,
}

/// What a saved sheet carries beyond the creation choices (play and
/// Experience); a new character has none of it. Kept as it is so that
/// editing an imported sheet loses nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    /// Unspent Experience points.
    #[serde(default)]
    pub experience: i64,
    /// Experience bonuses by card.
    #[serde(default)]
    pub card_bonuses: BTreeMap<String, CardBonus>,
    /// Comparable skills agreed: a card's skill -> one of the character's.
    #[serde(default)]
    pub comparable: BTreeMap<String, String>,
    /// Effects in play, with their tokens.
    #[serde(default)]
    pub effects: Vec<EffectEntry>,
}

/// A Sour Grapes character being made: every choice optional until made.
///
/// As JSON, e.g. `{"name": "Rook", "stats": {"Agility": 5}, "skills":
/// [{"name": "Ninjitsu", "rating": 2}]}`. `Default` is the empty draft.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    /// The character's name (step 1).
    #[serde(default)]
    pub name: Option<String>,
    /// What kind of character, their backstory (step 1), free text.
    #[serde(default)]
    pub concept: Option<String>,
    /// True for a monster, run by the storyteller (step 1); `None`: a player
    /// character.
    #[serde(default)]
    pub monster: Option<bool>,
    /// The Actual Stat Values chosen (step 2), by the book's stat name
    /// (`Agility`, `Might` ...). An imported sheet's exhausted or injured
    /// stat keeps its Current value and Injury marker.
    #[serde(default)]
    pub stats: BTreeMap<String, StatEntry>,
    /// The skills (step 3), in the sheet's order.
    #[serde(default)]
    pub skills: Vec<DraftSkill>,
    /// The action cards (step 4); `None`: every card the table has.
    #[serde(default)]
    pub cards: Option<Vec<String>>,
    /// What an imported sheet carries beyond creation.
    #[serde(default)]
    pub carried: Carried,
}

/// The help line of the book for each stat: what it measures, Physical or
/// Mental, and what happens at zero ("Stats").
fn stat_help(s: Stat) -> String {
    let nature = match s.nature() {
        crate::stats::Nature::Physical => "Physical",
        crate::stats::Nature::Mental => "Mental",
        crate::stats::Nature::Both => "Physical and Mental",
    };
    format!(
        "{nature}: {}. At zero: {} ({}).",
        s.description(),
        s.condition(),
        s.condition().effect()
    )
}

/// Which field a key names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Name,
    Concept,
    Monster,
    Stat(Stat),
    SkillName(usize),
    SkillRating(usize),
    SkillNotes(usize),
    Cards,
}

fn parse_key(key: &str) -> Option<Field> {
    match key {
        "name" => return Some(Field::Name),
        "concept" => return Some(Field::Concept),
        "monster" => return Some(Field::Monster),
        "cards" => return Some(Field::Cards),
        _ => {}
    }
    if let Some(stat) = key.strip_prefix("stats.") {
        return Stat::ALL
            .into_iter()
            .find(|s| s.name() == stat)
            .map(Field::Stat);
    }
    let rest = key.strip_prefix("skills.")?;
    let (i, what) = rest.split_once('.')?;
    if i.len() > 1 && i.starts_with('0') {
        return None;
    }
    let i: usize = i.parse().ok()?;
    match what {
        "name" => Some(Field::SkillName(i)),
        "rating" => Some(Field::SkillRating(i)),
        "notes" => Some(Field::SkillNotes(i)),
        _ => None,
    }
}

/// The stat entry the draft holds for `stat`, under its name or another
/// spelling (`strength`).
fn stat_entry(d: &Draft, stat: Stat) -> Option<&StatEntry> {
    d.stats
        .iter()
        .find(|(k, _)| Stat::parse(k) == Some(stat))
        .map(|(_, v)| v)
}

fn actual_of(e: &StatEntry) -> i64 {
    match e {
        StatEntry::Value(v) => *v,
        StatEntry::Full { actual, .. } => *actual,
    }
}

/// The book's action cards a character may be given (the effect a storyteller
/// puts on, Intoxicated, is not one): "There are 5 Action Cards (Stunt,
/// Interrupt, Compliment, Divert, React)", "Cards".
fn card_options() -> Vec<ChoiceOption> {
    book_cards()
        .into_iter()
        .filter(|c| c.kind != CardType::Effect)
        .map(|c| ChoiceOption {
            value: c.name.clone(),
            label: format!("{} ({})", c.name, c.kind),
            help: format!(
                "{} (value {}, Success {}, Result {})",
                c.flavour,
                c.value,
                c.success.map_or("N/A", Stat::name),
                c.result.map_or("N/A", Stat::name)
            ),
        })
        .collect()
}

fn monster_options() -> Vec<ChoiceOption> {
    vec![
        ChoiceOption::new(
            "character",
            "A player's character (\"It is up to you to decide what kind of character you want to play\")",
        ),
        ChoiceOption::new(
            "monster",
            "A monster: the same sheet, run by the storyteller (\"Monsters\")",
        ),
    ]
}

/// The kind of field `f` in draft `d` now.
fn kind_of(f: Field) -> FieldKind {
    match f {
        Field::Name | Field::SkillName(_) => FieldKind::Text {
            max_chars: MAX_NAME_CHARS,
        },
        Field::Concept | Field::SkillNotes(_) => FieldKind::Text {
            max_chars: MAX_TEXT_CHARS,
        },
        Field::Monster => FieldKind::Choice {
            options: monster_options(),
        },
        Field::Stat(_) => FieldKind::Int {
            min: 1,
            max: i64::from(MAX_STAT),
        },
        Field::SkillRating(_) => FieldKind::Int {
            min: 1,
            max: i64::from(MAX_SKILL),
        },
        Field::Cards => {
            let options = card_options();
            let max = options.len();
            FieldKind::Multi {
                options,
                min: 0,
                max,
            }
        }
    }
}

/// True when the draft offers field `f` now: a skill's rating and notes once
/// it has a name; one new skill line while the page has room.
fn offered(d: &Draft, f: Field) -> bool {
    match f {
        Field::SkillName(i) => i < d.skills.len() || (i == d.skills.len() && i < MAX_SKILLS),
        Field::SkillRating(i) | Field::SkillNotes(i) => i < d.skills.len(),
        _ => true,
    }
}

fn value_of(d: &Draft, f: Field) -> Option<FieldValue> {
    match f {
        Field::Name => d.name.clone().map(FieldValue::Text),
        Field::Concept => d.concept.clone().map(FieldValue::Text),
        Field::Monster => d
            .monster
            .map(|m| FieldValue::Text(if m { "monster" } else { "character" }.into())),
        Field::Stat(s) => stat_entry(d, s).map(|e| FieldValue::Int(actual_of(e))),
        Field::SkillName(i) => d.skills.get(i).map(|k| FieldValue::Text(k.name.clone())),
        Field::SkillRating(i) => d.skills.get(i).and_then(|k| k.rating).map(FieldValue::Int),
        Field::SkillNotes(i) => d
            .skills
            .get(i)
            .filter(|k| !k.notes.is_empty())
            .map(|k| FieldValue::Text(k.notes.clone())),
        Field::Cards => d.cards.clone().map(FieldValue::List),
    }
}

/// The sheet the draft makes (what [`draft_sheet`] writes), legal or not.
pub fn to_sheet(d: &Draft) -> CharacterDraft {
    CharacterDraft {
        name: d.name.clone().unwrap_or_default(),
        monster: d.monster.unwrap_or(false),
        concept: d.concept.clone().unwrap_or_default(),
        stats: d
            .stats
            .iter()
            .map(|(k, v)| {
                let key = Stat::parse(k)
                    .filter(|s| s.name() == k)
                    .map_or_else(|| k.clone(), |s| s.name().to_ascii_lowercase());
                (key, v.clone())
            })
            .collect(),
        skills: d
            .skills
            .iter()
            .map(|k| SkillDraft {
                name: k.name.clone(),
                rating: k.rating.unwrap_or(0),
                used: k.used,
                notes: k.notes.clone(),
            })
            .collect(),
        experience: d.carried.experience,
        card_bonuses: d.carried.card_bonuses.clone(),
        cards: d.cards.clone(),
        comparable: d.carried.comparable.clone(),
        effects: d.carried.effects.clone(),
    }
}

/// The draft a sheet is (the inverse of [`to_sheet`]).
pub fn from_sheet(s: CharacterDraft) -> Draft {
    let mut stats = BTreeMap::new();
    for (k, v) in s.stats {
        let key = match Stat::parse(&k) {
            Some(st) if !stats.contains_key(st.name()) => st.name().to_string(),
            _ => k,
        };
        stats.insert(key, v);
    }
    Draft {
        name: Some(s.name).filter(|n| !n.is_empty()),
        concept: Some(s.concept).filter(|c| !c.is_empty()),
        monster: Some(s.monster),
        stats,
        skills: s
            .skills
            .into_iter()
            .map(|k| DraftSkill {
                name: k.name,
                rating: Some(k.rating),
                used: k.used,
                notes: k.notes,
            })
            .collect(),
        cards: s.cards,
        carried: Carried {
            experience: s.experience,
            card_bonuses: s.card_bonuses,
            comparable: s.comparable,
            effects: s.effects,
        },
    }
}

/// The sheet of `draft` as TOML (the format table files load with `file =
/// "x.toml"`), legal or not.
pub fn draft_sheet(draft: &Draft) -> String {
    sheet_toml(&to_sheet(draft))
}

/// A problem of the sheet as the builder shows it.
fn build_problem(p: &Problem, unfinished: bool) -> BuildProblem {
    BuildProblem {
        field: p.field(),
        rule: p.rule(),
        message: p.to_string(),
        unfinished,
    }
}

/// True when `p` is only a choice not made yet in `d`: no name, a stat not
/// chosen, a skill without a rating.
fn unfinished(d: &Draft, p: &Problem) -> bool {
    match p {
        Problem::Name(tabula_core::names::NameError::Empty { .. }) => {
            d.name.as_deref().is_none_or(|n| n.trim().is_empty())
        }
        Problem::MissingStat(_) => true,
        Problem::SkillRating { index, .. } => {
            d.skills.get(*index).is_some_and(|k| k.rating.is_none())
        }
        _ => false,
    }
}

/// Every problem of the draft: [`Character::from_draft`] on the sheet it
/// makes, unfinished ones marked.
pub fn problems(d: &Draft) -> Vec<BuildProblem> {
    match Character::from_draft(to_sheet(d)) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .problems
            .iter()
            .map(|p| build_problem(p, unfinished(d, p)))
            .collect(),
    }
}

fn field_view(
    d: &Draft,
    key: String,
    f: Field,
    label: String,
    help: String,
    required: bool,
) -> FieldView {
    FieldView {
        key,
        label,
        help,
        kind: kind_of(f),
        value: value_of(d, f),
        required,
    }
}

fn steps(d: &Draft) -> Vec<StepView> {
    let who = StepView {
        id: "who".into(),
        title: "1. Who is your character?".into(),
        help: "Sour Grapes does not come with any sort of roles or types of characters for you to select. It is up to you to decide what kind of character you want to play, their backstory and what makes them special in this universe.".into(),
        rule: rules::CREATION,
        fields: vec![
            field_view(d, "name".into(), Field::Name, "Name".into(), "The character's name, as the sheet and the table call them.".into(), true),
            field_view(d, "concept".into(), Field::Concept, "What kind of character, and their backstory".into(), "Free text: there are no roles, backgrounds or traits in the default game.".into(), false),
            field_view(d, "monster".into(), Field::Monster, "Player character or monster".into(), "Monsters use the same sheet and are run by the storyteller.".into(), false),
        ],
        done: false,
    };
    let stats = StepView {
        id: "stats".into(),
        title: "2. Stats".into(),
        help: "There are 9 Stats in the game. Each stat can have a value from 1 to 10 and the \"Random Adult Human Average\" value of a Stat is 3. Write the stat value in pen (the Actual Stat Value); the dice coloured in pencil are the Current Stat Value, which every roll uses. The book sets no total: most recommendations start characters \"fairly proficient\".".into(),
        rule: rules::STATS,
        fields: Stat::ALL
            .into_iter()
            .map(|s| {
                field_view(
                    d,
                    format!("stats.{}", s.name()),
                    Field::Stat(s),
                    format!("{} ({})", s.name(), s.abbreviation()),
                    stat_help(s),
                    true,
                )
            })
            .collect(),
        done: false,
    };
    let mut fields = Vec::new();
    for (i, k) in d.skills.iter().enumerate() {
        let shown = if k.name.trim().is_empty() {
            format!("skill {}", i + 1)
        } else {
            k.name.clone()
        };
        fields.push(field_view(d, format!("skills.{i}.name"), Field::SkillName(i), format!("Skill {}: name", i + 1), "Your own skill (\"fencing\", \"Stunt driving\"); clear it to take the skill off the sheet.".into(), true));
        fields.push(field_view(d, format!("skills.{i}.rating"), Field::SkillRating(i), format!("{shown}: rating"), "1 (trained) to 5 (masterclass, \"world-renown\"): that many Free Tokens, automatic successes on a roll the skill is part of.".into(), true));
        fields.push(field_view(
            d,
            format!("skills.{i}.notes"),
            Field::SkillNotes(i),
            format!("{shown}: notes"),
            "The sheet's Notes line, free text.".into(),
            false,
        ));
    }
    let n = d.skills.len();
    if n < MAX_SKILLS {
        fields.push(field_view(
            d,
            format!("skills.{n}.name"),
            Field::SkillName(n),
            format!("Skill {}: name of a new skill (leave empty when done)", n + 1),
            "A character should rarely have more than one page of skills (ten lines on the book's sheet).".into(),
            false,
        ));
    }
    let skills = StepView {
        id: "skills".into(),
        title: "3. Skills".into(),
        help: "There are no default skills in the game: come up with your own. Skills are in values from 1 (trained) to 5 (masterclass) and are used as Free Tokens. Common skills of the character's era are assumed and not written. There are no other backgrounds or traits as part of the default game.".into(),
        rule: rules::SKILL_SHEET,
        fields,
        done: false,
    };
    let cards = StepView {
        id: "cards".into(),
        title: "4. Action cards".into(),
        help: "The action cards this character may play in an Event (Stunt, Interrupt, Compliment, Divert, React). The Rule Book's Character Creation gives no starting cards; leave this empty and the character may play every card the table has.".into(),
        rule: rules::HAND,
        fields: vec![field_view(d, "cards".into(), Field::Cards, "Action cards".into(), "The book's cards; a table may add its own.".into(), false)],
        done: false,
    };
    vec![who, stats, skills, cards]
}

fn derived(d: &Draft) -> Vec<Derived> {
    let chosen: Vec<(Stat, &StatEntry)> = Stat::ALL
        .into_iter()
        .filter_map(|s| stat_entry(d, s).map(|e| (s, e)))
        .collect();
    let total: i64 = chosen
        .iter()
        .fold(0i64, |t, (_, e)| t.saturating_add(actual_of(e)));
    let mut out = vec![
        Derived {
            name: "Stats chosen".into(),
            value: format!("{} of 9", chosen.len()),
            rule: rules::STATS,
        },
        Derived {
            name: "Stat total (the book sets no budget; its example sheet totals 36)".into(),
            value: total.to_string(),
            rule: rules::STATS,
        },
        Derived {
            name: "Stats above / below the average adult human (3)".into(),
            value: format!(
                "{} above, {} below",
                chosen.iter().filter(|(_, e)| actual_of(e) > 3).count(),
                chosen.iter().filter(|(_, e)| actual_of(e) < 3).count()
            ),
            rule: rules::STATS,
        },
    ];
    let tokens: i64 = d
        .skills
        .iter()
        .fold(0i64, |t, k| t.saturating_add(k.rating.unwrap_or(0)));
    out.push(Derived {
        name: "Skill tokens (Free Tokens)".into(),
        value: tokens.to_string(),
        rule: rules::SKILL_SHEET,
    });
    out.push(Derived {
        name: "Skill page (ten lines; \"rarely more than one page\")".into(),
        value: format!(
            "{} lines, page {}",
            d.skills.len(),
            d.skills.len().max(1).div_ceil(10)
        ),
        rule: rules::SKILL_SHEET,
    });
    let depleted: Vec<String> = chosen
        .iter()
        .filter(|(_, e)| {
            matches!(
                e,
                StatEntry::Full {
                    current: Some(0),
                    ..
                } | StatEntry::Value(0)
            )
        })
        .map(|(s, _)| format!("{}: {}", s.condition(), s.condition().effect()))
        .collect();
    out.push(Derived {
        name: "Conditions".into(),
        value: if depleted.is_empty() {
            "none".into()
        } else {
            depleted.join("; ")
        },
        rule: rules::CONDITIONS,
    });
    if d.carried.experience != 0 {
        out.push(Derived {
            name: "Experience points".into(),
            value: d.carried.experience.to_string(),
            rule: rules::EXPERIENCE,
        });
    }
    out
}

/// Everything a front end shows of `d` now.
pub fn build_view(d: &Draft) -> BuildView {
    BuildView {
        system: ID.into(),
        steps: steps(d),
        budgets: Vec::new(),
        derived: derived(d),
        problems: problems(d),
        next: None,
        complete: false,
    }
    .settle()
}

fn known_keys(d: &Draft) -> String {
    steps(d)
        .iter()
        .flat_map(|s| s.fields.iter().map(|f| f.key.clone()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn field(d: &Draft, key: &str) -> Result<Field, BuildRefusal> {
    parse_key(key)
        .filter(|f| offered(d, *f))
        .ok_or_else(|| BuildRefusal::UnknownField {
            key: key.to_string(),
            known: known_keys(d),
        })
}

fn bad(key: &str, message: impl Into<String>) -> BuildRefusal {
    BuildRefusal::BadValue {
        key: key.to_string(),
        message: message.into(),
    }
}

/// Apply `value` to field `f` of `d` after checking only its kind (a number
/// for a number, an offered option, a text not too long).
fn apply(d: &mut Draft, key: &str, f: Field, value: &FieldValue) -> Result<(), BuildRefusal> {
    let text = |max: usize| -> Result<String, BuildRefusal> {
        match value {
            FieldValue::Text(t) if t.chars().count() <= max => Ok(t.clone()),
            FieldValue::Text(_) => Err(bad(key, format!("at most {max} characters"))),
            _ => Err(bad(key, "give a text")),
        }
    };
    let int = || match value {
        FieldValue::Int(n) => Ok(*n),
        _ => Err(bad(key, "give a whole number")),
    };
    match f {
        Field::Name => {
            let t = text(MAX_NAME_CHARS)?;
            d.name = Some(t).filter(|t| !t.trim().is_empty());
        }
        Field::Concept => {
            let t = text(MAX_TEXT_CHARS)?;
            d.concept = Some(t).filter(|t| !t.trim().is_empty());
        }
        Field::Monster => match text(MAX_TEXT_CHARS)?.as_str() {
            "character" => d.monster = Some(false),
            "monster" => d.monster = Some(true),
            other => {
                return Err(bad(
                    key,
                    format!("{other:?} is not an option (character, monster)"),
                ));
            }
        },
        Field::Stat(s) => {
            let v = int()?;
            let old = stat_entry(d, s).cloned();
            d.stats.retain(|k, _| Stat::parse(k) != Some(s));
            // An imported sheet's exhausted or injured stat keeps its marks.
            let entry = match old {
                Some(StatEntry::Full {
                    actual,
                    current,
                    injured,
                }) if injured || current.is_some_and(|c| c < actual) => StatEntry::Full {
                    actual: v,
                    current: current.map(|c| if v >= 0 { c.min(v) } else { c }),
                    injured,
                },
                _ => StatEntry::Value(v),
            };
            d.stats.insert(s.name().to_string(), entry);
        }
        Field::SkillName(i) => {
            let t = text(MAX_NAME_CHARS)?;
            match d.skills.get_mut(i) {
                Some(k) => k.name = t,
                None => d.skills.push(DraftSkill {
                    name: t,
                    ..DraftSkill::default()
                }),
            }
        }
        Field::SkillRating(i) => {
            let v = int()?;
            if let Some(k) = d.skills.get_mut(i) {
                k.rating = Some(v);
            }
        }
        Field::SkillNotes(i) => {
            let t = text(MAX_TEXT_CHARS)?;
            if let Some(k) = d.skills.get_mut(i) {
                k.notes = t;
            }
        }
        Field::Cards => {
            let FieldValue::List(picked) = value else {
                return Err(bad(key, "give a list of cards"));
            };
            let options = card_options();
            if let Some(p) = picked
                .iter()
                .find(|p| !options.iter().any(|o| &o.value == *p))
            {
                return Err(bad(
                    key,
                    format!(
                        "{p:?} is not one of the cards offered ({})",
                        options
                            .iter()
                            .map(|o| o.value.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            d.cards = Some(picked.clone());
        }
    }
    Ok(())
}

/// Set `key` to `value`, refusing what breaks a rule `validate` reports that
/// the draft did not break before (core's [`tabula_core::builder::set_checked`]
/// with [`force`] and [`problems`]).
///
/// # Errors
/// [`BuildRefusal`]; the draft is then unchanged.
pub fn set(d: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    tabula_core::builder::set_checked(d, key, value, force, problems)
}

/// Set `key` to `value` checking only the value's kind.
///
/// # Errors
/// [`BuildRefusal::UnknownField`], [`BuildRefusal::BadValue`].
pub fn force(d: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    let f = field(d, key)?;
    let mut next = d.clone();
    apply(&mut next, key, f, value)?;
    *d = next;
    Ok(())
}

/// Take back a choice: a skill's name takes the skill off the sheet.
///
/// # Errors
/// [`BuildRefusal::UnknownField`].
pub fn clear(d: &mut Draft, key: &str) -> Result<(), BuildRefusal> {
    match field(d, key)? {
        Field::Name => d.name = None,
        Field::Concept => d.concept = None,
        Field::Monster => d.monster = None,
        Field::Stat(s) => d.stats.retain(|k, _| Stat::parse(k) != Some(s)),
        Field::SkillName(i) => {
            if i < d.skills.len() {
                d.skills.remove(i);
            }
        }
        Field::SkillRating(i) => {
            if let Some(k) = d.skills.get_mut(i) {
                k.rating = None;
            }
        }
        Field::SkillNotes(i) => {
            if let Some(k) = d.skills.get_mut(i) {
                k.notes.clear();
            }
        }
        Field::Cards => d.cards = None,
    }
    Ok(())
}

/// What `tabula sour-grapes character validate` says of a sheet: the
/// character's name, or every problem ([`Character::from_toml`]).
///
/// # Errors
/// Every broken rule; malformed TOML as one problem citing "Character
/// Creation".
pub fn validate(sheet: &str) -> Result<String, Vec<BuildProblem>> {
    match Character::from_toml(sheet) {
        Ok(c) => Ok(c.name().to_string()),
        Err(e) => Err(file_problems(e)),
    }
}

/// The problems of a sheet that does not read.
pub(crate) fn file_problems(e: CharacterFileError) -> Vec<BuildProblem> {
    match e {
        CharacterFileError::Toml(message) => vec![BuildProblem {
            field: None,
            rule: rules::CREATION,
            message: format!("not a character sheet: {message}"),
            unfinished: false,
        }],
        CharacterFileError::Draft(d) => {
            d.problems.iter().map(|p| build_problem(p, false)).collect()
        }
    }
}

/// The draft a saved sheet is.
///
/// # Errors
/// One problem when the TOML does not read as a sheet.
pub fn draft_from_sheet(sheet: &str) -> Result<Draft, Vec<BuildProblem>> {
    toml::from_str::<CharacterDraft>(sheet)
        .map(from_sheet)
        .map_err(|e| file_problems(CharacterFileError::Toml(e.to_string())))
}

impl CharacterBook for SourGrapes {
    type Draft = Draft;
    type Setting = ();

    fn place<F: tabula_core::files::SheetFiles + ?Sized>(
        table: &str,
        files: &F,
        players: &[tabula_core::place::Placed],
    ) -> Result<String, tabula_core::place::PlaceError> {
        crate::place::place(table, files, players)
    }

    fn build_view(draft: &Draft) -> BuildView {
        build_view(draft)
    }

    fn set(draft: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        set(draft, key, value)
    }

    fn clear(draft: &mut Draft, key: &str) -> Result<(), BuildRefusal> {
        clear(draft, key)
    }

    fn force(draft: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        force(draft, key, value)
    }

    fn draft_sheet(draft: &Draft) -> String {
        draft_sheet(draft)
    }

    fn validate(sheet: &str) -> Result<String, Vec<BuildProblem>> {
        validate(sheet)
    }

    fn draft_from_sheet(sheet: &str) -> Result<Draft, Vec<BuildProblem>> {
        draft_from_sheet(sheet)
    }

    fn sheets_after(state: &State) -> Vec<tabula_core::SheetAfter> {
        lasting::sheets_after(state)
    }

    const ADVANCEMENT: &'static [CommandDoc] = advance::ADVANCEMENT;

    fn advance(
        sheet: &str,
        seat: &Seat,
        line: &str,
        roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError> {
        advance::advance(sheet, seat, line, roller)
    }
}
