//! Character creation the way the book's "Character Creation" chapter teaches
//! it, as one [`tabula_core::CharacterBook`] description shared by every front
//! end; the lasting changes of an encounter and advancement
//! ([`crate::advance`]) complete the trait, implemented here for
//! [`crate::Tiers`].
//!
//! The steps follow the chapter's order: (a name, Tabula's), "Starting
//! Items", "Dice" and "Rounding", "Starting Stats" (the level), "Leveling Up"
//! (the SP budget), "Health", "Stats and Tiers" (where the SP go). Each Stat is
//! asked as its total SP: R-TI-3 fills tiers in order (6 in tier 1 before any in
//! tier 2...), so the tiers follow from the total and are shown live with the
//! Roleplay Bonus (R-TI-1).
//!
//! Every problem the builder reports is a [`DraftProblem`] of
//! [`Character::from_draft`], the check `tabula tiers character validate` runs,
//! on the very sheet [`Draft::to_sheet`] writes; only what is merely not done
//! yet (no name chosen, SP left to place) is marked unfinished.
//!
//! # Examples
//!
//! ```
//! use tabula_core::{CharacterBook, FieldValue};
//! use tabula_tiers::Tiers;
//! use tabula_tiers::builder::Draft;
//! // "Leveling Up": level 1, Strength increased by 4 opens tier 2 of Strength.
//! let mut d = Draft::default();
//! Tiers::set(&mut d, "name", &FieldValue::Text("John".into())).unwrap();
//! Tiers::set(&mut d, "weapon", &FieldValue::Text("Longsword".into())).unwrap();
//! Tiers::set(&mut d, "level", &FieldValue::Int(1)).unwrap();
//! Tiers::set(&mut d, "stats.Strength", &FieldValue::Int(7)).unwrap();
//! let view = Tiers::build_view(&d);
//! assert!(view.complete);
//! assert!(view.derived.iter().any(|x| x.name == "Strength: Roleplay Bonus" && x.value == "+2"));
//! assert!(Tiers::validate(&Tiers::finish(&d).unwrap()).is_ok());
//! ```

use serde::{Deserialize, Serialize};
use tabula_core::builder::{
    Budget, ChoiceOption, Derived, FieldKind, FieldView, MAX_TEXT_CHARS, StepView,
};
use tabula_core::{
    AdvanceError, Advanced, BuildProblem, BuildRefusal, BuildView, CharacterBook, FieldValue,
    Roller, Seat, SheetAfter,
};

use crate::Tiers;
use crate::character::{
    self, Character, CharacterDraft, CharacterFileError, DraftProblem, MAX_ITEMS, MAX_LEVEL,
    MAX_SP_PER_STAT, MAX_TALLY, SP_PER_LEVEL, STARTING_SP, STARTING_TIER_1, Stat, StatPoints,
    StatsDraft,
};
use crate::rules;

/// The book's Sample Items ("Sample Items"), offered at "Starting Items", with
/// the book's line for each.
pub const SAMPLE_ITEMS: [(&str, &str); 4] = [
    ("Fast Potion", "1 AP: heal 2 Health."),
    ("Potion", "2 AP: Heal 6 Health."),
    (
        "Slow Shield",
        "3 AP: Heal 5 Health. You can use this heal above your maximum Health, up to a 10 Health above your maximum.",
    ),
    (
        "Turret",
        "4 AP: Drop a turret in your Zone that has Health equal to your level. When an enemy enters the turret's Zone, it deals damage equal to your level to that enemy.",
    ),
];

/// A Tiers character being made: the book's character sheet with every choice
/// optional until made. `Default` is the blank sheet, whose only marks are the
/// 3 SP pre-filled in tier 1 of each Stat ("Starting Stats").
///
/// As JSON: the fields below; absent fields take their default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Draft {
    /// The character's name (1..=64 characters, no control characters or `:`).
    pub name: Option<String>,
    /// The main weapon(s) ("Starting Items"): the sheet's first Item.
    pub weapon: Option<String>,
    /// The other Items, in order ("as many other Items as your GM allows").
    pub items: Vec<String>,
    /// The level, 0..=33.
    pub level: Option<i64>,
    /// SP per tier of each Stat, as the sheet writes them.
    pub stats: StatsDraft,
    /// Current Health, kept from a sheet in play (None: full).
    pub health: Option<i64>,
    /// Health lost, kept from a sheet in play.
    pub damage: Option<i64>,
    /// SP a level up gave, not yet placed, kept from a sheet in play.
    pub unspent_sp: i64,
    /// Permanent Wounds, kept from a sheet in play.
    pub wounds: i64,
    /// Dead, kept from a sheet in play.
    pub dead: bool,
    /// Free notes.
    pub notes: Vec<String>,
}

impl Default for Draft {
    fn default() -> Self {
        let tier_1 = || vec![i64::from(STARTING_TIER_1)];
        Draft {
            name: None,
            weapon: None,
            items: Vec::new(),
            level: None,
            stats: StatsDraft {
                strength: tier_1(),
                skill: tier_1(),
                support: tier_1(),
                scharisma: tier_1(),
            },
            health: None,
            damage: None,
            unspent_sp: 0,
            wounds: 0,
            dead: false,
            notes: Vec::new(),
        }
    }
}

impl Draft {
    /// The sheet this draft writes (whether legal or not): a missing name is
    /// empty, a missing level is 0, the weapon is the first Item, and the
    /// total SP the sheet tracks "for the GM" ("Leveling Up") is the Stats' sum.
    pub fn to_sheet(&self) -> CharacterDraft {
        CharacterDraft {
            name: self.name.clone().unwrap_or_default(),
            level: self.level.unwrap_or(0),
            total_sp: Some(self.stats.written_sum()),
            stats: self.stats.clone(),
            health: self.health,
            items: self.weapon.iter().chain(&self.items).cloned().collect(),
            notes: self.notes.clone(),
            damage: self.damage,
            unspent_sp: self.unspent_sp,
            wounds: self.wounds,
            dead: self.dead,
        }
    }

    /// The draft a sheet is: its first Item is the weapon; its `total_sp` is
    /// dropped (the draft writes the Stats' sum).
    pub fn from_sheet(sheet: CharacterDraft) -> Draft {
        let mut items = sheet.items.into_iter();
        Draft {
            name: Some(sheet.name).filter(|n| !n.is_empty()),
            weapon: items.next(),
            items: items.collect(),
            level: Some(sheet.level),
            stats: sheet.stats,
            health: sheet.health,
            damage: sheet.damage,
            unspent_sp: sheet.unspent_sp,
            wounds: sheet.wounds,
            dead: sheet.dead,
            notes: sheet.notes,
        }
    }

    fn level_now(&self) -> u32 {
        u32::try_from(self.level.unwrap_or(0).clamp(0, i64::from(MAX_LEVEL))).unwrap_or(0)
    }

    fn item_count(&self) -> usize {
        self.items
            .len()
            .saturating_add(usize::from(self.weapon.is_some()))
    }
}

fn stat_key(stat: Stat) -> String {
    format!("stats.{}", stat.name())
}

/// The SP budget of the draft's level and what the Stats (plus SP not yet
/// placed) spend, as [`Character::from_draft`] counts them.
fn budget(d: &Draft) -> (i64, i64) {
    let total = i64::from(character::sp_budget(d.level_now()));
    let spent = d
        .stats
        .written_sum()
        .saturating_add(d.unspent_sp.clamp(-1_000_000, 1_000_000));
    (total, spent)
}

/// Every problem of `d`: the [`DraftProblem`]s of [`Character::from_draft`] on
/// [`Draft::to_sheet`], each with the builder's field and whether it is merely
/// unfinished.
pub fn problems(d: &Draft) -> Vec<BuildProblem> {
    match Character::from_draft(d.to_sheet()) {
        Ok(_) => Vec::new(),
        Err(e) => e.problems.iter().map(|p| build_problem(d, p)).collect(),
    }
}

/// One [`DraftProblem`] as a [`BuildProblem`]: its rule, its message, the
/// field it is about and whether it is merely unfinished (no name chosen yet;
/// SP left to place).
pub fn build_problem(d: &Draft, p: &DraftProblem) -> BuildProblem {
    let mut unfinished = false;
    let field = match p {
        DraftProblem::Name => {
            unfinished = d.name.is_none();
            Some("name".to_string())
        }
        DraftProblem::Level { .. } => Some("level".into()),
        DraftProblem::TooManyTiers { stat, .. }
        | DraftProblem::TierPoints { stat, .. }
        | DraftProblem::StartingPoints { stat, .. }
        | DraftProblem::TierLocked { stat, .. } => Some(stat_key(*stat)),
        DraftProblem::Budget { got, expected, .. } => if *got < i64::from(*expected) {
            unfinished = true;
            Stat::ALL
                .into_iter()
                .find(|&s| d.stats.total(s) < i64::from(MAX_SP_PER_STAT))
                .map(stat_key)
        } else {
            Stat::ALL
                .into_iter()
                .find(|&s| d.stats.total(s) > i64::from(STARTING_TIER_1))
                .map(stat_key)
        }
        .or_else(|| Some("level".into())),
        DraftProblem::TotalSp { .. }
        | DraftProblem::UnspentSp { .. }
        | DraftProblem::Wounds { .. } => None,
        DraftProblem::Health { .. } => Some("health".into()),
        DraftProblem::Damage { .. } => Some("damage".into()),
        DraftProblem::Items => Some(items_problem_field(d)),
    };
    BuildProblem {
        field,
        rule: p.rule(),
        message: p.to_string(),
        unfinished,
    }
}

fn bad_item(i: &str) -> bool {
    i.trim().is_empty() || i.len() > character::MAX_NAME || i.chars().any(char::is_control)
}

fn items_problem_field(d: &Draft) -> String {
    if d.weapon.as_deref().is_some_and(bad_item) {
        return "weapon".into();
    }
    if let Some(k) = d.items.iter().position(|i| bad_item(i)) {
        return format!("items.{k}");
    }
    if d.items.is_empty() {
        "weapon".into()
    } else {
        format!("items.{}", d.items.len() - 1)
    }
}

fn text_field(
    key: String,
    label: &str,
    help: &str,
    max: usize,
    value: Option<&String>,
    required: bool,
) -> FieldView {
    FieldView {
        key,
        label: label.into(),
        help: help.into(),
        kind: FieldKind::Text { max_chars: max },
        value: value.map(|v| FieldValue::Text(v.clone())),
        required,
    }
}

fn is_sample(item: &str) -> Option<&'static str> {
    SAMPLE_ITEMS
        .iter()
        .map(|(n, _)| *n)
        .find(|n| tabula_core::names::same_name(n, item))
}

/// Everything a front end shows of `d`: the book's steps, the SP budget, the
/// derived values (tiers, Roleplay Bonus, max Health, AP) and the problems.
pub fn view(d: &Draft) -> BuildView {
    let problems = problems(d);
    let (total, spent) = budget(d);
    let left = total.saturating_sub(spent);
    let level = d.level_now();
    let steps = vec![
        name_step(d),
        items_step(d),
        dice_step(),
        level_step(d),
        leveling_up_step(level, total),
        health_step(d, level),
        stats_step(d, left),
    ];
    BuildView {
        system: crate::ID.into(),
        steps,
        budgets: vec![Budget {
            name: "Stat Points (SP)".into(),
            total,
            spent,
            rule: rules::LEVELING_UP,
        }],
        derived: derived(d),
        problems,
        next: None,
        complete: false,
    }
    .settle()
}

/// Step 1, the name: Tabula's (the book's sheet leaves it to the player;
/// Tabula's caps).
fn name_step(d: &Draft) -> StepView {
    StepView {
        id: "name".into(),
        title: "1. Name".into(),
        help: "What your character is called. The book's sheet leaves this to you; at a table it is also your seat's name.".into(),
        rule: rules::CAPS,
        fields: vec![text_field(
            "name".into(),
            "Name",
            "1 to 64 characters, no ':'.",
            tabula_core::names::MAX_NAME_CHARS,
            d.name.as_ref(),
            true,
        )],
        done: false,
    }
}

/// Step 2: the main weapon(s), other Items, the book's Sample Items.
///
/// Tiers, "Starting Items", "Sample Items" (002_631931fd73349179.txt).
fn items_step(d: &Draft) -> StepView {
    let mut item_fields = vec![text_field(
        "weapon".into(),
        "Main weapon(s)",
        "You start with your main weapon(s). For example: Longsword that glows with an eternal fire.",
        MAX_TEXT_CHARS,
        d.weapon.as_ref(),
        true,
    )];
    for (k, item) in d.items.iter().enumerate() {
        item_fields.push(text_field(
            format!("items.{k}"),
            &format!("Item {}", k + 2),
            "Another Item your GM allows (clear it to drop it).",
            MAX_TEXT_CHARS,
            Some(item),
            false,
        ));
    }
    if d.item_count() < MAX_ITEMS {
        item_fields.push(FieldView {
            key: format!("items.{}", d.items.len()),
            label: "Another Item".into(),
            help: "As many other Items as your GM allows, for example: I also wield a shield in my opposite hand. Leave empty when done.".into(),
            kind: FieldKind::Text {
                max_chars: MAX_TEXT_CHARS,
            },
            value: Some(FieldValue::Text(String::new())),
            required: false,
        });
    }
    let picked: Vec<String> = SAMPLE_ITEMS
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| d.items.iter().any(|i| tabula_core::names::same_name(i, n)))
        .map(String::from)
        .collect();
    item_fields.push(FieldView {
        key: "sample_items".into(),
        label: "Sample Items".into(),
        help: "The book's Sample Items, if your GM allows them. Spend 1 AP to use a Fast Item, 2 a Normal, 3 a Slow, 4 or more a Special Item.".into(),
        kind: FieldKind::Multi {
            options: SAMPLE_ITEMS
                .iter()
                .map(|(n, h)| ChoiceOption::new(*n, *h))
                .collect(),
            min: 0,
            max: SAMPLE_ITEMS.len(),
        },
        value: Some(FieldValue::List(picked)),
        required: false,
    });
    StepView {
        id: "items".into(),
        title: "2. Starting Items".into(),
        help: "You start with your main weapon(s) and as many other Items as your GameMaster (GM) allows. Work with your GM on what Items would be appropriate for the game.".into(),
        rule: rules::STARTING_ITEMS,
        fields: item_fields,
        done: false,
    }
}

/// Step 3: nothing to choose.
///
/// Tiers, "Dice", "Rounding" (002_631931fd73349179.txt).
fn dice_step() -> StepView {
    StepView {
        id: "dice".into(),
        title: "3. Dice and Rounding".into(),
        help: "Multiple three-sided dice are abbreviated as Xd3: 2d3 means 2 three-sided dice. If you don't have three-sided dice, roll 1d6 and halve the result, rounding up. If you ever have a decimal, round up: a 1.5 counts as 2. Nothing to choose here.".into(),
        rule: rules::DICE,
        fields: Vec::new(),
        done: false,
    }
}

/// Step 4: the level, at least what the written SP and Health need.
///
/// Tiers, "Starting Stats" (002_631931fd73349179.txt).
fn level_step(d: &Draft) -> StepView {
    let health_floor = d
        .health
        .map_or(0, |h| (h.clamp(0, 1_000_000) + 9) / 10 - 1)
        .max(0);
    let sp_floor = (d
        .stats
        .written_sum()
        .saturating_add(d.unspent_sp.clamp(-1_000_000, 1_000_000))
        - i64::from(STARTING_SP)
        + i64::from(SP_PER_LEVEL)
        - 1)
    .div_euclid(i64::from(SP_PER_LEVEL))
    .max(0);
    StepView {
        id: "level".into(),
        title: "4. Starting Stats".into(),
        help: "You can play a level 0 character, who starts with 10 max Health and 12 total Stat Points (SP), but it's recommended to level up at least once. You might want to play level 0 in a prologue session.".into(),
        rule: rules::STARTING_STATS,
        fields: vec![FieldView {
            key: "level".into(),
            label: "Level".into(),
            help: "Players have 10 Health and 4 Stat Points per level (in addition to the 12 SP they start with).".into(),
            kind: FieldKind::Int {
                min: sp_floor.max(health_floor).min(i64::from(MAX_LEVEL)),
                max: i64::from(MAX_LEVEL),
            },
            value: d.level.map(FieldValue::Int),
            required: true,
        }],
        done: false,
    }
}

/// Step 5: the SP budget of `level` (`total`).
///
/// Tiers, "Leveling Up" (002_631931fd73349179.txt).
fn leveling_up_step(level: u32, total: i64) -> StepView {
    StepView {
        id: "leveling-up".into(),
        title: "5. Leveling Up".into(),
        help: format!(
            "A level {level} character has 12 + 4 x {level} = {total} SP to place. For example, at level 1 you can increase each Stat by 1 (so that you have 4 SP in each Stat), or increase Strength by 4 (so you have access to tier 2 of Strength), or many other combinations! Track your total SP on your character sheet (this helps the GM)."
        ),
        rule: rules::LEVELING_UP,
        fields: Vec::new(),
        done: false,
    }
}

/// Step 6: 10 max Health per level; Health now or lost, when the sheet came
/// from play.
///
/// Tiers, "Health" (002_631931fd73349179.txt).
fn health_step(d: &Draft, level: u32) -> StepView {
    let base = character::base_max_health(level);
    let mut health_fields = Vec::new();
    if d.health.is_some() {
        health_fields.push(FieldView {
            key: "health".into(),
            label: "Health now".into(),
            help: "Health left from play; clear it for full Health.".into(),
            kind: FieldKind::Int {
                min: 0,
                max: i64::from(base),
            },
            value: d.health.map(FieldValue::Int),
            required: false,
        });
    }
    if d.damage.is_some() {
        health_fields.push(FieldView {
            key: "damage".into(),
            label: "Health lost".into(),
            help: "Health lost in play below the table's max Health; clear it for full Health."
                .into(),
            kind: FieldKind::Int {
                min: 0,
                max: MAX_TALLY,
            },
            value: d.damage.map(FieldValue::Int),
            required: false,
        });
    }
    StepView {
        id: "health".into(),
        title: "6. Health".into(),
        help: format!(
            "This can be the physical strength a character has left or even just the mental energy they have left to fight. Players have 10 max Health per level (level 0 has 10): {base} at level {level}, and increasing Strength can increase your maximum Health even further (the table's Stat perks). Once Health reaches 0, you cannot contribute to the fight and you cannot be healed."
        ),
        rule: rules::HEALTH,
        fields: health_fields,
        done: false,
    }
}

/// Step 7: each Stat's total SP, at most what is `left` to place; R-TI-3
/// fills its tiers in order.
///
/// Tiers, "Stats and Tiers" (002_631931fd73349179.txt); R-TI-3.
fn stats_step(d: &Draft, left: i64) -> StepView {
    let stat_help = |s: Stat| match s {
        Stat::Strength => {
            "Determines how powerful your character is, or how easily they surpass mental barriers to push through pain. In combat, Strength increases your health and damage output."
        }
        Stat::Skill => {
            "Determines how in touch your character is with their inner power. This could come from years of training or from natural talent! In combat, Skill provides a range of expertise."
        }
        Stat::Support => {
            "Determines how in touch your character is with who, or what is around them, which could be through strong empathy or a connection with nature! In combat, Support reduces and heals damage."
        }
        Stat::Scharisma => {
            "Determines how personable or persuasive your character is. This could be through humor, entertaining qualities, or even mind control spells! In combat, Scharisma changes dice rolls and has some minor healing power."
        }
    };
    let stat_fields = Stat::ALL
        .into_iter()
        .map(|s| {
            let now = d.stats.total(s);
            FieldView {
                key: stat_key(s),
                label: format!("{} (SP)", s.name()),
                help: stat_help(s).into(),
                kind: FieldKind::Int {
                    min: i64::from(STARTING_TIER_1),
                    max: now
                        .saturating_add(left.max(0))
                        .min(i64::from(MAX_SP_PER_STAT)),
                },
                value: Some(FieldValue::Int(now)),
                required: true,
            }
        })
        .collect();
    StepView {
        id: "stats".into(),
        title: "7. Stats and Tiers".into(),
        help: "Each Stat has 6 tiers with unique perks and Actions, which you can utilize if you have at least 1 Stat Point (SP) in the Action's tier. To put a Point in a tier, you must have 6 SP in the previous tier. Players start with 3 SP in tier 1 for each Stat. Give each Stat's SP: they fill its tiers in order, 6 to a tier, 36 at most.".into(),
        rule: rules::STATS_AND_TIERS,
        fields: stat_fields,
        done: false,
    }
}

/// The derived values: total SP, max Health and AP, each Stat's tiers and
/// Roleplay Bonus, the Weighted Inventory, and what play left (SP to place,
/// Permanent Wounds, dead).
///
/// Tiers, "Leveling Up", "Health", "Action Points", "Stats and Tiers",
/// "Roleplay Bonus", "Custom Rules" (002_631931fd73349179.txt); R-TI-1.
fn derived(d: &Draft) -> Vec<Derived> {
    let base = character::base_max_health(d.level_now());
    let mut derived = vec![
        Derived {
            name: "Total SP".into(),
            value: d.stats.written_sum().to_string(),
            rule: rules::LEVELING_UP,
        },
        Derived {
            name: "Max Health".into(),
            value: format!("{base} (plus what the table's Stat perks add)"),
            rule: rules::HEALTH,
        },
        Derived {
            name: "Max AP".into(),
            value: character::MAX_AP.to_string(),
            rule: rules::ACTION_POINTS,
        },
    ];
    for s in Stat::ALL {
        let total = d.stats.total(s);
        let points = StatPoints::filled(u32::try_from(total.clamp(0, 36)).unwrap_or(0));
        let tiers: Vec<String> = points.tiers().iter().map(u32::to_string).collect();
        derived.push(Derived {
            name: format!("{}: tiers", s.name()),
            value: tiers.join(" "),
            rule: rules::STATS_AND_TIERS,
        });
        derived.push(Derived {
            name: format!("{}: Roleplay Bonus", s.name()),
            value: format!("+{}", points.roleplay_bonus()),
            rule: rules::ROLEPLAY_BONUS,
        });
    }
    derived.push(Derived {
        name: "Weighted Inventory".into(),
        value: format!(
            "{} Items carried; up to {} (1 per SP in Strength) if your table plays this custom rule",
            d.item_count(),
            d.stats.total(Stat::Strength).max(0)
        ),
        rule: rules::WEIGHTED_INVENTORY,
    });
    if d.unspent_sp != 0 {
        derived.push(Derived {
            name: "SP to place".into(),
            value: d.unspent_sp.to_string(),
            rule: rules::LEVELING_UP,
        });
    }
    if d.wounds != 0 {
        derived.push(Derived {
            name: "Permanent Wounds".into(),
            value: d.wounds.to_string(),
            rule: rules::PERMANENT_WOUNDS,
        });
    }
    if d.dead {
        derived.push(Derived {
            name: "Dead".into(),
            value: "the character takes no further part".into(),
            rule: rules::DEATH_ROLLS,
        });
    }
    derived
}

fn keys(d: &Draft) -> String {
    view(d)
        .steps
        .iter()
        .flat_map(|s| s.fields.iter().map(|f| f.key.clone()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn unknown(d: &Draft, key: &str) -> BuildRefusal {
    BuildRefusal::UnknownField {
        key: key.into(),
        known: keys(d),
    }
}

fn bad(key: &str, message: impl Into<String>) -> BuildRefusal {
    BuildRefusal::BadValue {
        key: key.into(),
        message: message.into(),
    }
}

fn want_int(key: &str, v: &FieldValue) -> Result<i64, BuildRefusal> {
    match v {
        FieldValue::Int(n) => Ok(*n),
        _ => Err(bad(key, "a whole number is expected")),
    }
}

fn want_text(key: &str, v: &FieldValue, max: usize) -> Result<String, BuildRefusal> {
    match v {
        FieldValue::Text(t) if t.chars().count() <= max => Ok(t.clone()),
        FieldValue::Text(_) => Err(bad(key, format!("at most {max} characters"))),
        _ => Err(bad(key, "text is expected")),
    }
}

/// What `key` names.
enum Key {
    Name,
    Weapon,
    Item(usize),
    Samples,
    Level,
    Stat(Stat),
    Health,
    Damage,
}

fn parse_key(d: &Draft, key: &str) -> Option<Key> {
    match key {
        "name" => Some(Key::Name),
        "weapon" => Some(Key::Weapon),
        "sample_items" => Some(Key::Samples),
        "level" => Some(Key::Level),
        "health" if d.health.is_some() => Some(Key::Health),
        "damage" if d.damage.is_some() => Some(Key::Damage),
        _ => {
            if let Some(n) = key.strip_prefix("items.") {
                let k: usize = n.parse().ok()?;
                let open = k < d.items.len() || (k == d.items.len() && d.item_count() < MAX_ITEMS);
                return open.then_some(Key::Item(k));
            }
            key.strip_prefix("stats.")
                .and_then(Stat::parse)
                .map(Key::Stat)
        }
    }
}

/// Set `key` to `value` checking only the value's kind (a number for a
/// number, text within its length, offered options): the draft may break the
/// book's rules afterwards.
///
/// # Errors
/// [`BuildRefusal::UnknownField`], [`BuildRefusal::BadValue`]; `d` is then unchanged.
pub fn apply(d: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    match parse_key(d, key).ok_or_else(|| unknown(d, key))? {
        Key::Name => {
            d.name = Some(want_text(key, value, tabula_core::names::MAX_NAME_CHARS)?);
        }
        Key::Weapon => d.weapon = Some(want_text(key, value, MAX_TEXT_CHARS)?),
        Key::Item(k) => {
            let t = want_text(key, value, MAX_TEXT_CHARS)?;
            match d.items.get_mut(k) {
                Some(slot) => *slot = t,
                // The open slot: empty text adds nothing.
                None if t.trim().is_empty() => {}
                None => d.items.push(t),
            }
        }
        Key::Samples => {
            let FieldValue::List(picked) = value else {
                return Err(bad(key, "a list of the Sample Items is expected"));
            };
            let mut chosen: Vec<&'static str> = Vec::new();
            for p in picked {
                let name = is_sample(p).ok_or_else(|| {
                    bad(
                        key,
                        format!(
                            "{p:?} is not one of the Sample Items ({})",
                            SAMPLE_ITEMS.map(|(n, _)| n).join(", ")
                        ),
                    )
                })?;
                if chosen.contains(&name) {
                    return Err(bad(key, format!("{name} is picked twice")));
                }
                chosen.push(name);
            }
            d.items.retain(|i| is_sample(i).is_none());
            d.items.extend(chosen.into_iter().map(String::from));
        }
        Key::Level => d.level = Some(want_int(key, value)?),
        Key::Stat(s) => {
            *d.stats.of_mut(s) = StatsDraft::tiers_for_total(want_int(key, value)?);
        }
        Key::Health => d.health = Some(want_int(key, value)?),
        Key::Damage => d.damage = Some(want_int(key, value)?),
    }
    Ok(())
}

/// Set `key` to `value`, refusing a value that breaks a rule `validate` would
/// report (a broken problem the draft did not have before, same field and rule).
///
/// # Errors
/// As [`apply`], and [`BuildRefusal::Broken`] with the problem; `d` is then unchanged.
pub fn set(d: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    tabula_core::builder::set_checked(d, key, value, apply, problems)
}

/// Take back the choice of `key`: no name, weapon or level; an Item dropped;
/// the Sample Items dropped; a Stat back to its 3 pre-filled SP; full Health.
///
/// # Errors
/// [`BuildRefusal::UnknownField`].
pub fn clear(d: &mut Draft, key: &str) -> Result<(), BuildRefusal> {
    match parse_key(d, key).ok_or_else(|| unknown(d, key))? {
        Key::Name => d.name = None,
        Key::Weapon => d.weapon = None,
        Key::Item(k) => {
            if k < d.items.len() {
                d.items.remove(k);
            }
        }
        Key::Samples => d.items.retain(|i| is_sample(i).is_none()),
        Key::Level => d.level = None,
        Key::Stat(s) => *d.stats.of_mut(s) = vec![i64::from(STARTING_TIER_1)],
        Key::Health => d.health = None,
        Key::Damage => d.damage = None,
    }
    Ok(())
}

/// The sheet TOML `d` writes (the format table files load with `file = ...`).
pub fn sheet_text(d: &Draft) -> String {
    write_sheet(&d.to_sheet())
}

/// A sheet as TOML. Never fails on a sheet's values (strings and integers).
pub fn write_sheet(sheet: &CharacterDraft) -> String {
    toml::to_string(sheet).unwrap_or_default()
}

fn file_problem(message: String) -> BuildProblem {
    BuildProblem {
        field: None,
        rule: rules::SHEET_FILE,
        message,
        unfinished: false,
    }
}

/// What `tabula tiers character validate` says of `sheet` (the same
/// [`Character::from_toml`]): the character's name, or every problem.
///
/// # Errors
/// Every problem; a file that is not a sheet as one problem.
pub fn validate(sheet: &str) -> Result<String, Vec<BuildProblem>> {
    match Character::from_toml(sheet) {
        Ok(c) => Ok(c.name().to_string()),
        Err(CharacterFileError::Toml(m)) => Err(vec![file_problem(m)]),
        Err(CharacterFileError::Rules(e)) => {
            let d = Draft::from_sheet(*e.draft);
            Err(e.problems.iter().map(|p| build_problem(&d, p)).collect())
        }
    }
}

/// The draft a saved sheet is.
///
/// # Errors
/// One problem when the text is not a sheet (TOML or a field of the wrong kind).
pub fn draft_from_sheet(sheet: &str) -> Result<Draft, Vec<BuildProblem>> {
    toml::from_str::<CharacterDraft>(sheet)
        .map(Draft::from_sheet)
        .map_err(|e| vec![file_problem(format!("not a character file: {e}"))])
}

/// Characters outside the table: this module (creation),
/// [`crate::advance`] (the sheets an encounter leaves, and leveling up) and
/// [`crate::place`].
impl CharacterBook for Tiers {
    type Draft = Draft;
    type Setting = ();

    fn place<F: tabula_core::files::SheetFiles + ?Sized>(
        table: &str,
        files: &F,
        players: &[tabula_core::place::Placed],
    ) -> Result<String, tabula_core::place::PlaceError> {
        crate::place::place(table, files, players)
    }

    fn build_view(draft: &Self::Draft) -> BuildView {
        view(draft)
    }

    fn set(draft: &mut Self::Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        set(draft, key, value)
    }

    fn clear(draft: &mut Self::Draft, key: &str) -> Result<(), BuildRefusal> {
        clear(draft, key)
    }

    fn force(draft: &mut Self::Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        apply(draft, key, value)
    }

    fn draft_sheet(draft: &Self::Draft) -> String {
        sheet_text(draft)
    }

    fn validate(sheet: &str) -> Result<String, Vec<BuildProblem>> {
        validate(sheet)
    }

    fn draft_from_sheet(sheet: &str) -> Result<Self::Draft, Vec<BuildProblem>> {
        draft_from_sheet(sheet)
    }

    fn sheets_after(state: &Self::State) -> Vec<SheetAfter> {
        crate::advance::sheets_after(state)
    }

    const ADVANCEMENT: &'static [tabula_core::system::CommandDoc] = crate::advance::ADVANCEMENT;

    /// Tiers' advancement rolls no dice: `roller` is unused.
    fn advance(
        sheet: &str,
        seat: &Seat,
        line: &str,
        _roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError> {
        crate::advance::advance(sheet, seat, line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_items_are_the_catalogs() {
        let c = crate::content::Catalog::sample().unwrap();
        for (n, _) in SAMPLE_ITEMS {
            assert!(c.item(n).is_some(), "{n}");
        }
    }

    #[test]
    fn tiers_for_a_total_fill_in_order() {
        assert_eq!(StatsDraft::tiers_for_total(3), vec![3]);
        assert_eq!(StatsDraft::tiers_for_total(7), vec![6, 1]);
        assert_eq!(StatsDraft::tiers_for_total(36), vec![6; 6]);
        assert_eq!(StatsDraft::tiers_for_total(40), vec![6, 6, 6, 6, 6, 6, 4]);
        assert_eq!(StatsDraft::tiers_for_total(-2), vec![-2]);
        assert_eq!(StatsDraft::tiers_for_total(i64::MAX).len(), 7);
    }
}
