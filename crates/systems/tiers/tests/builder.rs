//! Characters outside the table (`CharacterBook`): creation through `set` in
//! the book's order, the book's example characters, refusals that agree with
//! `character validate`, "Leveling Up" as commands, and the sheets an
//! encounter leaves.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use proptest::prelude::*;
use tabula_core::builder::{complete_greedily, random_build, refusal_agrees};
use tabula_core::files::InMemoryFiles;
use tabula_core::{
    AdvanceError, BuildRefusal, CharacterBook, CommandSpec, FieldValue, Rule, Seat, Seeded, System,
    Table, TextPlay,
};
use tabula_tiers::Tiers;
use tabula_tiers::builder::Draft;
use tabula_tiers::character::{Character, Stat};
use tabula_tiers::rules;
use tabula_tiers::state::State;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/tiers")
}

fn example(name: &str) -> String {
    std::fs::read_to_string(examples().join(name)).unwrap()
}

fn text(s: &str) -> FieldValue {
    FieldValue::Text(s.into())
}

fn int(n: i64) -> FieldValue {
    FieldValue::Int(n)
}

fn set(d: &mut Draft, key: &str, v: FieldValue) {
    Tiers::set(d, key, &v).unwrap_or_else(|e| panic!("{key} = {v}: {e}"));
}

/// A set that must be refused as breaking `rule`, leaving the draft as it was,
/// and that `validate` refuses with the same rule once forced.
fn refused(d: &Draft, key: &str, v: FieldValue, rule: Rule) -> String {
    let mut tried = d.clone();
    let err = Tiers::set(&mut tried, key, &v).expect_err(key);
    assert_eq!(&tried, d, "{key}: a refusal changed the draft");
    refusal_agrees::<Tiers>(d, key, &v).unwrap();
    match err {
        BuildRefusal::Broken { problem, .. } => {
            assert_eq!(problem.rule, rule, "{key} = {v}: {problem}");
            problem.to_string()
        }
        other => panic!("{key} = {v}: expected a broken rule, got {other}"),
    }
}

fn derived(d: &Draft, name: &str) -> String {
    Tiers::build_view(d)
        .derived
        .into_iter()
        .find(|x| x.name == name)
        .unwrap_or_else(|| panic!("no derived value {name}"))
        .value
}

/// A table file of one Zone seating the given sheets (`file = NAME`) as players.
fn table_with(sheets: &[(&str, &str)], extra: &str) -> Result<State, String> {
    let mut files = BTreeMap::new();
    let mut table = format!("title = \"Test\"\n{extra}\n[[zones]]\nname = \"Here\"\n");
    for (file, sheet) in sheets {
        files.insert(file.to_string(), sheet.to_string());
        table.push_str(&format!(
            "[[players]]\nfile = \"{file}\"\nzone = \"Here\"\n"
        ));
    }
    Tiers::setup(&table, &InMemoryFiles(files)).map_err(|e| e.to_string())
}

/// The example table's characters replaced by `sheets` (in the table's order:
/// John, Cristy, Steve), set up again.
fn example_table_with(sheets: &[String]) -> Result<State, String> {
    let mut files = BTreeMap::new();
    for (file, sheet) in ["john.toml", "cristy.toml", "steve.toml"]
        .iter()
        .zip(sheets)
    {
        files.insert(file.to_string(), sheet.clone());
    }
    Tiers::setup(&example("table.toml"), &InMemoryFiles(files)).map_err(|e| e.to_string())
}

// ---- Creation --------------------------------------------------------------

#[test]
fn the_steps_follow_the_books_character_creation() {
    let view = Tiers::build_view(&Draft::default());
    let titles: Vec<&str> = view.steps.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "1. Name",
            "2. Starting Items",
            "3. Dice and Rounding",
            "4. Starting Stats",
            "5. Leveling Up",
            "6. Health",
            "7. Stats and Tiers"
        ]
    );
    // The blank sheet: 3 SP pre-filled in tier 1 of each Stat, nothing to place
    // until a level is chosen (level 0: 12 SP).
    assert_eq!(view.next.as_deref(), Some("name"));
    assert!(!view.complete);
    let b = &view.budgets[0];
    assert_eq!(
        (b.name.as_str(), b.total, b.spent),
        ("Stat Points (SP)", 12, 12)
    );
    for s in Stat::ALL {
        let (_, f) = view.field(&format!("stats.{}", s.name())).unwrap();
        assert_eq!(f.value, Some(int(3)));
    }
    // Every problem of a blank draft is merely unfinished.
    assert!(
        view.problems.iter().all(|p| p.unfinished),
        "{:?}",
        view.problems
    );
    // The Sample Items are offered with the book's lines.
    let (_, f) = view.field("sample_items").unwrap();
    let tabula_core::FieldKind::Multi { options, .. } = &f.kind else {
        panic!("sample_items is a multiple choice");
    };
    let names: Vec<&str> = options.iter().map(|o| o.value.as_str()).collect();
    assert_eq!(names, ["Fast Potion", "Potion", "Slow Shield", "Turret"]);
    assert!(options[0].help.contains("heal 2 Health"));
}

/// "Starting Stats": a level 0 character starts with 10 max Health and 12 SP,
/// 3 in tier 1 of each Stat (Roleplay Bonus +1 each).
#[test]
fn a_level_zero_character() {
    let mut d = Draft::default();
    set(&mut d, "name", text("Prologue"));
    set(&mut d, "weapon", text("Wooden sword"));
    set(&mut d, "level", int(0));
    let view = Tiers::build_view(&d);
    assert!(view.complete, "{:?}", view.problems);
    assert_eq!(derived(&d, "Total SP"), "12");
    assert!(derived(&d, "Max Health").starts_with("10 "));
    assert_eq!(derived(&d, "Max AP"), "6");
    for s in Stat::ALL {
        assert_eq!(derived(&d, &format!("{}: Roleplay Bonus", s.name())), "+1");
    }
    let sheet = Tiers::finish(&d).unwrap();
    assert_eq!(
        Character::from_toml(&sheet).unwrap(),
        Character::from_toml(&example("level0.toml")).unwrap()
    );
}

/// "Leveling Up": "if you level up to level 1, you can increase each Stat by
/// 1 (so that you have 4 SP in each Stat), you could increase Strength by 4
/// (so you have access to tier 2 of Strength)". Budgets and Health are live.
#[test]
fn the_level_one_choices_of_leveling_up() {
    let mut even = Draft::default();
    set(&mut even, "name", text("Even Steven"));
    set(&mut even, "weapon", text("Quarterstaff"));
    set(&mut even, "level", int(1));
    let view = Tiers::build_view(&even);
    assert_eq!((view.budgets[0].total, view.budgets[0].left()), (16, 4));
    assert!(derived(&even, "Max Health").starts_with("20 "));
    // 4 SP left: the unfinished problem points at the Stats step.
    assert_eq!(view.next.as_deref(), Some("stats"));
    let (_, f) = view.field("stats.Strength").unwrap();
    assert_eq!(f.kind, tabula_core::FieldKind::Int { min: 3, max: 7 });
    for s in Stat::ALL {
        set(&mut even, &format!("stats.{}", s.name()), int(4));
    }
    // Budget spent: every Stat is at its value, no more room.
    let view = Tiers::build_view(&even);
    assert!(view.complete);
    let (_, f) = view.field("stats.Skill").unwrap();
    assert_eq!(f.kind, tabula_core::FieldKind::Int { min: 3, max: 4 });
    assert_eq!(
        Character::from_toml(&Tiers::finish(&even).unwrap()).unwrap(),
        Character::from_toml(&example("level1-even.toml")).unwrap()
    );

    let mut strong = Draft::default();
    set(&mut strong, "name", text("Strong"));
    set(&mut strong, "weapon", text("Greatsword"));
    set(&mut strong, "level", int(1));
    set(&mut strong, "stats.Strength", int(7));
    assert_eq!(derived(&strong, "Strength: tiers"), "6 1 0 0 0 0");
    assert_eq!(derived(&strong, "Strength: Roleplay Bonus"), "+2");
    assert_eq!(derived(&strong, "Skill: Roleplay Bonus"), "+1");
    let c = Character::from_toml(&Tiers::finish(&strong).unwrap()).unwrap();
    assert_eq!(c.stat(Stat::Strength).tiers(), [6, 1, 0, 0, 0, 0]);
    assert_eq!((c.total_sp(), c.base_max_health()), (16, 20));
}

/// John and Cristy of the book's examples (Skill +1 / Strength +2; Skill +2 /
/// Strength +2), built through `set`, are the example table's sheets.
#[test]
fn john_and_cristy_through_the_builder() {
    let mut john = Draft::default();
    set(&mut john, "name", text("John"));
    set(
        &mut john,
        "weapon",
        text("Longsword that glows with an eternal fire"),
    );
    set(&mut john, "items.0", text("Shield"));
    set(
        &mut john,
        "sample_items",
        FieldValue::List(vec!["Fast Potion".into(), "Turret".into()]),
    );
    set(&mut john, "level", int(1));
    set(&mut john, "stats.Strength", int(7));
    assert_eq!(derived(&john, "Skill: Roleplay Bonus"), "+1");
    assert_eq!(derived(&john, "Strength: Roleplay Bonus"), "+2");
    let sheet = Tiers::finish(&john).unwrap();
    assert_eq!(Tiers::validate(&sheet), Ok("John".to_string()));
    assert_eq!(
        Character::from_toml(&sheet).unwrap(),
        Character::from_toml(&example("john.toml")).unwrap()
    );
    // The sheet reads back into the same draft.
    assert_eq!(Tiers::draft_from_sheet(&sheet).unwrap(), john);

    let mut cristy = Draft::default();
    set(&mut cristy, "name", text("Cristy"));
    set(&mut cristy, "weapon", text("Twin daggers"));
    set(
        &mut cristy,
        "sample_items",
        FieldValue::List(vec!["Potion".into(), "Slow Shield".into()]),
    );
    set(&mut cristy, "level", int(2));
    set(&mut cristy, "stats.Strength", int(7));
    set(&mut cristy, "stats.Skill", int(7));
    assert_eq!(derived(&cristy, "Skill: Roleplay Bonus"), "+2");
    assert!(derived(&cristy, "Max Health").starts_with("30 "));
    assert_eq!(
        Character::from_toml(&Tiers::finish(&cristy).unwrap()).unwrap(),
        Character::from_toml(&example("cristy.toml")).unwrap()
    );
}

/// "Enemy Health": "if a party of four level-1 players get into easy combat,
/// all enemies share 32 Health" (16 SP each, tracked on the sheets).
#[test]
fn four_level_one_players_from_the_builder_share_32() {
    let mut sheets = Vec::new();
    for (i, strength) in [4, 7, 5, 3].into_iter().enumerate() {
        let mut d = Draft::default();
        set(&mut d, "name", text(&format!("Player {i}")));
        set(&mut d, "weapon", text("Club"));
        set(&mut d, "level", int(1));
        set(&mut d, "stats.Strength", int(strength));
        assert!(complete_greedily::<Tiers>(&mut d, i as u64));
        assert_eq!(derived(&d, "Total SP"), "16");
        sheets.push((format!("p{i}.toml"), Tiers::finish(&d).unwrap()));
    }
    let refs: Vec<(&str, &str)> = sheets
        .iter()
        .map(|(f, s)| (f.as_str(), s.as_str()))
        .collect();
    let s = table_with(&refs, "difficulty = \"easy\"").unwrap();
    assert_eq!((s.psp, s.health_pool), (64, 32));
}

#[test]
fn refusals_name_the_rule_and_change_nothing() {
    let mut d = Draft::default();
    set(&mut d, "name", text("Tester"));
    // Over budget: level 0 has 12 SP, all pre-filled.
    let m = refused(&d, "stats.Strength", int(4), rules::LEVELING_UP);
    assert!(m.contains("12"), "{m}");
    set(&mut d, "level", int(1));
    let m = refused(&d, "stats.Strength", int(8), rules::LEVELING_UP);
    assert!(m.contains("has 16 SP") && m.contains("17"), "{m}");
    // Out of range: fewer than the 3 pre-filled SP; a level past 33 or below 0.
    refused(&d, "stats.Skill", int(2), rules::STARTING_STATS);
    refused(&d, "level", int(34), rules::LEVELING_UP);
    refused(&d, "level", int(-1), rules::LEVELING_UP);
    // Illegal combination: the level taken back below what the Stats spend.
    set(&mut d, "stats.Strength", int(7));
    refused(&d, "level", int(0), rules::LEVELING_UP);
    // R-TI-3: 36 SP per Stat (six full tiers), even with the budget to spare.
    set(&mut d, "stats.Strength", int(3));
    set(&mut d, "level", int(33));
    let m = refused(&d, "stats.Strength", int(37), rules::STATS_AND_TIERS);
    assert!(m.contains("R-TI-3") || m.contains("6 tiers"), "{m}");
    assert_eq!(rules::STATS_AND_TIERS.ruling, Some("R-TI-3"));
    // A name that cannot sit at a table (its seat): ':' or the GM's.
    refused(&d, "name", text("Mr: T"), rules::CAPS);
    refused(&d, "name", text("gm"), rules::CAPS);
    refused(&d, "name", text("  "), rules::CAPS);
    // An empty Item name.
    set(&mut d, "weapon", text("Axe"));
    refused(&d, "weapon", text(" "), rules::CAPS);
    // Not the field's kind: refused without a rule, nothing changes.
    for (key, v) in [
        (
            "sample_items",
            FieldValue::List(vec!["Sword of Doom".into()]),
        ),
        (
            "sample_items",
            FieldValue::List(vec!["Potion".into(), "potion".into()]),
        ),
        ("level", text("three")),
        ("name", text(&"x".repeat(65))),
        ("stats.Luck", int(4)),
        ("health", int(3)),
    ] {
        let mut tried = d.clone();
        assert!(matches!(
            Tiers::set(&mut tried, key, &v),
            Err(BuildRefusal::BadValue { .. } | BuildRefusal::UnknownField { .. })
        ));
        assert_eq!(tried, d);
    }
}

/// Tabula's cap of 100 Items: the open slot goes away at 100 and the Sample
/// Items past it are refused.
#[test]
fn the_item_cap() {
    let mut d = Draft::default();
    set(&mut d, "weapon", text("Axe"));
    for k in 0..98 {
        set(&mut d, &format!("items.{k}"), text("Rope"));
    }
    assert!(Tiers::build_view(&d).field("items.98").is_some());
    refused(
        &d,
        "sample_items",
        FieldValue::List(vec!["Potion".into(), "Turret".into()]),
        rules::CAPS,
    );
    set(&mut d, "items.98", text("Rope"));
    assert!(Tiers::build_view(&d).field("items.99").is_none());
    Tiers::clear(&mut d, "items.0").unwrap();
    assert_eq!(d.items.len(), 98);
}

#[test]
fn validate_is_character_validate() {
    // The broken example lists its 5 problems, each with its rule.
    let problems = Tiers::validate(&example("broken-character.toml")).unwrap_err();
    assert_eq!(problems.len(), 5);
    assert!(
        problems
            .iter()
            .any(|p| p.rule == rules::STATS_AND_TIERS
                && p.field.as_deref() == Some("stats.Strength"))
    );
    assert!(problems.iter().any(|p| p.rule == rules::HEALTH));
    // Not a sheet: one problem naming the field.
    let p = Tiers::validate("name = \"x\"\nlevle = 1\n").unwrap_err();
    assert_eq!(p.len(), 1);
    assert!(p[0].message.contains("levle"));
    assert!(Tiers::draft_from_sheet("name = [").is_err());
    for f in ["john.toml", "cristy.toml", "steve.toml", "level0.toml"] {
        assert!(Tiers::validate(&example(f)).is_ok(), "{f}");
        // A sheet read as a draft writes the same character back.
        let d = Tiers::draft_from_sheet(&example(f)).unwrap();
        assert_eq!(
            Character::from_toml(&Tiers::draft_sheet(&d)).unwrap(),
            Character::from_toml(&example(f)).unwrap()
        );
    }
}

/// A forced, illegal draft is written as the illegal sheet it is, so that
/// `validate` sees what the builder refused (the creation budget is exact).
#[test]
fn draft_sheets_keep_the_creation_limits() {
    let mut d = Draft::default();
    Tiers::force(&mut d, "level", &int(1)).unwrap();
    Tiers::force(&mut d, "name", &text("Short")).unwrap();
    let p = Tiers::validate(&Tiers::draft_sheet(&d)).unwrap_err();
    assert!(
        p.iter()
            .any(|p| p.rule == rules::LEVELING_UP && p.unfinished)
    );
    assert!(Tiers::finish(&d).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random walks through the builder: each refusal agrees with `validate`,
    /// and the draft finished greedily validates and sets up at a table.
    #[test]
    fn random_builds_agree_with_validate(picks in prop::collection::vec(any::<u64>(), 0..80)) {
        let d = random_build::<Tiers>(&picks);
        prop_assert!(d.is_ok(), "{:?}", d.err());
        let d = d.unwrap();
        let view = Tiers::build_view(&d);
        prop_assert!(view.complete, "{:?}", view.problems);
        let sheet = Tiers::finish(&d).unwrap();
        prop_assert!(table_with(&[("hero.toml", &sheet)], "").is_ok());
        // The budget is spent exactly and the draft reads back from its sheet.
        prop_assert_eq!(view.budgets[0].left(), 0);
        prop_assert_eq!(Tiers::draft_from_sheet(&sheet).unwrap(), d);
    }
}

#[test]
fn greedy_builds_complete_and_sit_at_a_table() {
    for seed in 0..200u64 {
        let mut d = Draft::default();
        assert!(complete_greedily::<Tiers>(&mut d, seed), "seed {seed}");
        let sheet = Tiers::finish(&d).unwrap();
        let s = table_with(&[("hero.toml", &sheet)], "")
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{sheet}"));
        assert_eq!(
            s.heroes[0].max_health,
            s.heroes[0].character.base_max_health()
        );
    }
}

// ---- Advancement -----------------------------------------------------------

fn gm(sheet: &str, line: &str) -> Result<tabula_core::Advanced, AdvanceError> {
    Tiers::advance(sheet, &Seat::Gm, line, &mut Seeded::from_seed(0))
}

fn player(sheet: &str, line: &str) -> Result<tabula_core::Advanced, AdvanceError> {
    Tiers::advance(
        sheet,
        &Seat::Player("Prologue".into()),
        line,
        &mut Seeded::from_seed(0),
    )
}

fn refused_rule(r: Result<tabula_core::Advanced, AdvanceError>) -> Rule {
    match r {
        Err(AdvanceError::Refused { rule, .. }) => rule,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// "Leveling Up" from the level 0 character: the GM grants level 1, then the
/// player increases Strength by 4 (tier 2 opens), or each Stat by 1.
#[test]
fn level_up_then_increase_as_the_book_says() {
    let level0 = example("level0.toml");
    let up = gm(&level0, "level-up").unwrap();
    assert!(up.summary.contains("level 1") && up.summary.contains("4 SP to place"));
    assert!(up.summary.contains("10 -> 20"), "{}", up.summary);
    let c = Character::from_toml(&up.sheet).unwrap();
    assert_eq!((c.level(), c.unspent_sp(), c.total_sp()), (1, 4, 12));
    assert_eq!(Tiers::validate(&up.sheet), Ok("Prologue".into()));

    let strong = player(&up.sheet, "increase Strength 4").unwrap();
    assert!(
        strong.summary.contains("tier 2 opens"),
        "{}",
        strong.summary
    );
    let c = Character::from_toml(&strong.sheet).unwrap();
    assert_eq!(c.stat(Stat::Strength).tiers(), [6, 1, 0, 0, 0, 0]);
    assert_eq!(
        (
            c.roleplay_bonus(Stat::Strength),
            c.unspent_sp(),
            c.total_sp()
        ),
        (2, 0, 16)
    );
    assert!(Tiers::validate(&strong.sheet).is_ok());

    let mut even = up.sheet.clone();
    for s in ["str", "skill", "SUPPORT", "sch"] {
        even = player(&even, &format!("increase {s} 1")).unwrap().sheet;
        assert!(Tiers::validate(&even).is_ok());
    }
    let c = Character::from_toml(&even).unwrap();
    for s in Stat::ALL {
        assert_eq!((c.stat(s).total(), c.roleplay_bonus(s)), (4, 1));
    }
    // Now nothing is left to place.
    assert_eq!(
        refused_rule(player(&even, "increase Strength 1")),
        rules::LEVELING_UP
    );
}

#[test]
fn advancement_refusals_name_the_rule() {
    let level0 = example("level0.toml");
    // GM only.
    assert_eq!(refused_rule(player(&level0, "level-up")), rules::SEATS);
    // No SP to place before a level; not more than the level gave.
    assert_eq!(
        refused_rule(player(&level0, "increase Strength 1")),
        rules::LEVELING_UP
    );
    let up = gm(&level0, "level-up Prologue").unwrap().sheet;
    assert_eq!(
        refused_rule(player(&up, "increase Strength 5")),
        rules::LEVELING_UP
    );
    // R-TI-3: 36 SP per Stat at most.
    let mut high = Tiers::draft_from_sheet(&level0).unwrap();
    high.level = Some(9);
    high.stats.strength = vec![6; 6];
    high.stats.skill = vec![6];
    let high = Tiers::draft_sheet(&high);
    assert!(Tiers::validate(&high).is_ok(), "{high}");
    let high_up = gm(&high, "level-up").unwrap().sheet;
    assert_eq!(
        refused_rule(player(&high_up, "increase Strength 1")),
        rules::STATS_AND_TIERS
    );
    // Level 33 is the top (every tier full).
    let mut top = Tiers::draft_from_sheet(&level0).unwrap();
    top.level = Some(33);
    for s in Stat::ALL {
        *top.stats.of_mut(s) = vec![6; 6];
    }
    assert_eq!(
        refused_rule(gm(&Tiers::draft_sheet(&top), "level-up")),
        rules::LEVELING_UP
    );
    // The dead take no further part.
    let dead = format!("dead = true\n{level0}");
    assert!(Tiers::validate(&dead).is_ok());
    assert_eq!(refused_rule(gm(&dead, "level-up")), rules::DEATH_ROLLS);
    // Not a command, a wrong name, a bad number, a broken sheet.
    assert!(matches!(
        gm(&level0, "fly"),
        Err(AdvanceError::Parse { .. })
    ));
    assert!(matches!(
        gm(&level0, "level-up Cristy"),
        Err(AdvanceError::Parse { .. })
    ));
    assert!(matches!(
        player(&up, "increase Strength 0"),
        Err(AdvanceError::Parse { .. })
    ));
    assert!(matches!(
        player(&up, "increase Luck 1"),
        Err(AdvanceError::Parse { .. })
    ));
    assert!(matches!(
        gm(&example("broken-character.toml"), "level-up"),
        Err(AdvanceError::Sheet { problems }) if problems.len() == 5
    ));
    assert_eq!(Tiers::ADVANCEMENT.len(), 2);
}

/// A level raises max Health by 10; Health written on the sheet rises with it
/// (damage taken stays), and 0 stays 0.
#[test]
fn a_level_keeps_the_damage_taken() {
    let hurt = example("level1-even.toml").replace("level = 1\n", "level = 1\nhealth = 15\n");
    let up = gm(&hurt, "level-up").unwrap();
    let c = Character::from_toml(&up.sheet).unwrap();
    assert_eq!((c.health(), c.base_max_health()), (Some(25), 30));
    let down = example("level1-even.toml").replace("level = 1\n", "level = 1\nhealth = 0\n");
    let c = Character::from_toml(&gm(&down, "level-up").unwrap().sheet).unwrap();
    assert_eq!(c.health(), Some(0));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random advancement lines from either seat: every result validates and
    /// every refusal is a refusal (the sheet given is never changed).
    #[test]
    fn advancement_keeps_sheets_valid(steps in prop::collection::vec((any::<bool>(), 0usize..6, 0u32..8), 1..40)) {
        let mut sheet = example("level0.toml");
        for (gm_seat, which, n) in steps {
            let line = match which {
                0 | 1 => "level-up".to_string(),
                k => format!("increase {} {n}", Stat::ALL[k - 2].name()),
            };
            let seat = if gm_seat { Seat::Gm } else { Seat::Player("Prologue".into()) };
            if let Ok(a) = Tiers::advance(&sheet, &seat, &line, &mut Seeded::from_seed(0)) {
                prop_assert!(Tiers::validate(&a.sheet).is_ok(), "{line}: {}", a.sheet);
                sheet = a.sheet;
            }
        }
    }
}

// ---- Sheets after an encounter ----------------------------------------------

fn characters(s: &State) -> Vec<Character> {
    Tiers::sheets_after(s)
        .iter()
        .map(|a| {
            assert_eq!(Tiers::validate(&a.sheet), Ok(a.name.clone()), "{}", a.sheet);
            Character::from_toml(&a.sheet).unwrap()
        })
        .collect()
}

#[test]
fn nothing_happened_leaves_the_same_characters() {
    for every_rule in [false, true] {
        let s = common::example_state(every_rule);
        let after = Tiers::sheets_after(&s);
        let names: Vec<&str> = after.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["John", "Cristy", "Steve"]);
        let before: Vec<Character> = ["john.toml", "cristy.toml", "steve.toml"]
            .iter()
            .map(|f| Character::from_toml(&example(f)).unwrap())
            .collect();
        assert_eq!(characters(&s), before);
    }
}

/// The example encounter (seed 1): John drinks his Fast Potion and drops his
/// Turret (Items are used up); everyone is fully healed after combat.
#[test]
fn the_example_encounter_leaves_its_lasting_changes() {
    let mut t: Table<Tiers> = Table::new(common::example_state(false));
    let mut roller = Seeded::from_seed(1);
    for line in example("encounter.script").lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (seat, body) = common::seat_and_body(t.state(), line);
        let cmd = Tiers::parse_command(t.state(), &seat, body).unwrap();
        t.submit(&seat, &cmd, &mut roller).unwrap();
    }
    let after = characters(t.state());
    assert_eq!(
        after[0].items(),
        ["Longsword that glows with an eternal fire", "Shield"]
    );
    let cristy = Character::from_toml(&example("cristy.toml")).unwrap();
    assert_eq!(after[1], cristy);
    assert!(after.iter().all(|c| c.health().is_none() && !c.dead()));
    // The sheets sit at the next table.
    let sheets: Vec<String> = Tiers::sheets_after(t.state())
        .into_iter()
        .map(|a| a.sheet)
        .collect();
    let next = example_table_with(&sheets).unwrap();
    assert!(next.heroes[0].items.iter().all(|i| i != "Fast Potion"));
}

/// In a dungeon there is no heal after combat: John (max 20, 25 with the
/// table's Sturdy perk) keeps the damage; above the sheet's own 20 it is
/// written as damage, so the next table with the perk gives him the same Health.
#[test]
fn a_dungeon_keeps_damage_across_tables() {
    let mut t: Table<Tiers> = Table::new(common::example_state(true));
    common::ok(&mut t, "GM: fight", &[]);
    // A d3 is a halved d6 at this table: 5 -> 3.
    common::ok(&mut t, "GM: spend Gob Bite d3=1 on John", &[5]);
    common::ok(&mut t, "GM: end-combat", &[]);
    assert_eq!(t.state().heroes[0].health, 22);
    let after = Tiers::sheets_after(t.state());
    let john = Character::from_toml(&after[0].sheet).unwrap();
    assert_eq!((john.health(), john.damage()), (None, Some(3)));
    let sheets: Vec<String> = after.into_iter().map(|a| a.sheet).collect();
    let next = example_table_with(&sheets).unwrap();
    assert_eq!(next.heroes[0].health, 22);
    // Below the sheet's own max it is plain Health.
    let mut s = t.state().clone();
    s.heroes[0].health = 7;
    let john = Character::from_toml(&Tiers::sheets_after(&s)[0].sheet).unwrap();
    assert_eq!((john.health(), john.damage()), (Some(7), None));
}

/// Death Rolls and Permanent Wounds last: the sheet says so, and the next
/// table seats the dead as dead (they take no part, and their SP are not in
/// the PSP).
#[test]
fn death_and_wounds_last() {
    let mut s = common::example_state(true);
    s.heroes[1].health = 0;
    s.heroes[1].dead = true;
    s.heroes[1].wounds = 2;
    s.heroes[0].wounds = 1;
    let after = characters(&s);
    assert!(after[1].dead());
    assert_eq!((after[1].wounds(), after[1].health()), (2, Some(0)));
    assert_eq!(after[0].wounds(), 1);
    let sheets: Vec<String> = Tiers::sheets_after(&s)
        .into_iter()
        .map(|a| a.sheet)
        .collect();
    let mut files = BTreeMap::new();
    files.insert("cristy.toml".to_string(), sheets[1].clone());
    files.insert("john.toml".to_string(), sheets[0].clone());
    let table = "[[zones]]\nname = \"Here\"\n[[players]]\nfile = \"john.toml\"\nzone = \"Here\"\n[[players]]\nfile = \"cristy.toml\"\nzone = \"Here\"\n";
    let next = Tiers::setup(table, &InMemoryFiles(files)).unwrap();
    assert!(next.heroes[1].dead && !next.heroes[1].up());
    assert_eq!((next.heroes[0].wounds, next.heroes[1].wounds), (1, 2));
    assert_eq!(next.psp, 16);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// From any state random legal play reaches, in or out of combat, every
    /// sheet the table leaves validates, keeps its level and SP, and (while
    /// nobody died) the sheets sit at the example table again.
    #[test]
    fn sheets_after_any_reachable_state_validate(
        seed in any::<u64>(),
        every_rule in any::<bool>(),
        steps in prop::collection::vec(
            (any::<u32>(), any::<u32>(), prop::collection::vec(any::<u32>(), 8)),
            1..120,
        ),
    ) {
        let mut t: Table<Tiers> = Table::new(common::example_state(every_rule));
        let mut roller = Seeded::from_seed(seed);
        for (i, (seat_pick, cmd_pick, params)) in steps.iter().enumerate() {
            if Tiers::finished(t.state()) {
                break;
            }
            let choices: Vec<(Seat, Vec<CommandSpec>)> = Tiers::seats(t.state())
                .into_iter()
                .map(|s| { let c = Tiers::legal_commands(t.state(), &s); (s, c) })
                .filter(|(_, c)| !c.is_empty())
                .collect();
            if choices.is_empty() {
                break;
            }
            let (seat, specs) = &choices[*seat_pick as usize % choices.len()];
            let spec = &specs[*cmd_pick as usize % specs.len()];
            if (spec.name == "close" || spec.name == "end-combat") && cmd_pick % 16 != 0 {
                continue;
            }
            let Some(line) = common::render(spec, params) else { continue };
            let Ok(cmd) = Tiers::parse_command(t.state(), seat, &line) else { continue };
            let _ = t.submit(seat, &cmd, &mut roller);
            if i % 15 == 0 {
                check_after(t.state())?;
            }
        }
        check_after(t.state())?;
    }
}

fn check_after(s: &State) -> Result<(), TestCaseError> {
    let after = Tiers::sheets_after(s);
    // The table file's characters; an NPC ally the GM `add`ed mid-encounter
    // is a copy of a sheet and leaves none.
    let sheeted: Vec<&tabula_tiers::state::Hero> = s.heroes.iter().filter(|h| !h.joined).collect();
    prop_assert_eq!(after.len(), sheeted.len());
    for (a, h) in after.iter().zip(sheeted.iter().copied()) {
        let c = Tiers::validate(&a.sheet);
        prop_assert!(c.is_ok(), "{:?}\n{}", c, a.sheet);
        let c = Character::from_toml(&a.sheet).unwrap();
        prop_assert_eq!(c.level(), h.character.level());
        prop_assert_eq!(c.total_sp(), h.character.total_sp());
        prop_assert_eq!(c.dead(), h.dead);
        prop_assert_eq!(c.wounds(), h.wounds);
    }
    if !sheeted.iter().any(|h| h.dead) {
        let sheets: Vec<String> = after.into_iter().map(|a| a.sheet).collect();
        let next = example_table_with(&sheets);
        prop_assert!(next.is_ok(), "{:?}", next.err());
        // Health carries over (a combat still running closes as `end-combat` would).
        let next = next.unwrap();
        for (n, h) in next.heroes.iter().zip(sheeted.iter().copied()) {
            prop_assert!(n.health <= n.max_health);
            if !matches!(s.mode, tabula_tiers::state::Mode::Combat { .. }) {
                prop_assert_eq!(n.health, h.health.min(h.max_health));
            }
        }
    }
    Ok(())
}
