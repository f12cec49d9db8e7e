//! Characters outside the table (`CharacterBook for Scratch`): creation as the
//! book teaches it ("Abilities", the ability sections, command's minions),
//! the builder's refusals agreeing with `validate`, the book's characters built
//! through the builder, advancement (R-SCR-8, proposed) and the sheet an
//! encounter leaves.

use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

use tabula_core::builder::{
    AdvanceError, BuildRefusal, CharacterBook, FieldValue, complete_greedily, random_build,
    refusal_agrees,
};
use tabula_core::files::InMemoryFiles;
use tabula_core::{Policy, Rule, Scripted, Seat, Seeded, Table, TextPlay};
use tabula_scratch::builder::Draft;
use tabula_scratch::rules;
use tabula_scratch::{Ability, Character, Scratch, State, TableRules};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch")
}

fn example(file: &str) -> String {
    std::fs::read_to_string(dir().join(file)).unwrap()
}

fn int(n: i64) -> FieldValue {
    FieldValue::Int(n)
}

fn text(t: &str) -> FieldValue {
    FieldValue::Text(t.into())
}

/// Set each field in order, every one accepted.
fn build(sets: &[(&str, FieldValue)]) -> Draft {
    let mut d = Draft::default();
    for (k, v) in sets {
        refusal_agrees::<Scratch>(&d, k, v).unwrap();
        Scratch::set(&mut d, k, v).unwrap_or_else(|e| panic!("{k} = {v}: {e}"));
    }
    d
}

fn derived(d: &Draft, name: &str) -> String {
    Scratch::build_view(d)
        .derived
        .iter()
        .find(|x| x.name == name)
        .map(|x| x.value.clone())
        .unwrap_or_else(|| panic!("no derived {name}"))
}

/// The refusal of `key = value`: broken, citing `rule`, the draft unchanged,
/// and `validate` of the forced draft citing the same rule.
fn refused(d: &Draft, key: &str, value: FieldValue, rule: Rule) -> String {
    let mut tried = d.clone();
    let err = Scratch::set(&mut tried, key, &value).unwrap_err();
    assert_eq!(&tried, d, "a refusal changes nothing");
    refusal_agrees::<Scratch>(d, key, &value).unwrap();
    match err {
        BuildRefusal::Broken { problem, .. } => {
            assert_eq!(problem.rule, rule, "{problem}");
            problem.to_string()
        }
        other => panic!("{key} = {value}: not refused by a rule: {other}"),
    }
}

/// A table of `sheets` (files `a.toml`, `b.toml` ... on sides taken in turn:
/// heroes for alice, villains for the GM), the book's `[rules]`.
fn table_of(sheets: &[(&str, String, &str)]) -> Result<State, tabula_scratch::SetupError> {
    let mut files = BTreeMap::new();
    let mut groups = String::new();
    for (seat, sheet, side) in sheets.iter() {
        let file = format!("{seat}.toml");
        files.insert(file.clone(), sheet.clone());
        groups.push_str(&format!(
            "[[groups]]\nseat = \"{seat}\"\nside = \"{side}\"\ncharacters = [\"{file}\"]\n"
        ));
    }
    Scratch::setup(&groups, &InMemoryFiles(files))
}

// ---------------------------------------------------------------- properties

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random walks through the builder: every refusal agrees with validate,
    /// and a draft the builder calls complete finishes into a sheet validate
    /// accepts.
    #[test]
    fn random_builds_agree_with_validate(picks in proptest::collection::vec(any::<u64>(), 0..80)) {
        random_build::<Scratch>(&picks).map_err(TestCaseError::fail)?;
    }

    /// A draft read back from its own sheet is the same draft, and the sheet
    /// the same character.
    #[test]
    fn a_draft_reads_back_from_its_sheet(picks in proptest::collection::vec(any::<u64>(), 0..60)) {
        let d = random_build::<Scratch>(&picks).map_err(TestCaseError::fail)?;
        let sheet = Scratch::draft_sheet(&d);
        let back = Scratch::draft_from_sheet(&sheet).unwrap();
        prop_assert_eq!(Scratch::draft_sheet(&back), sheet);
    }
}

#[test]
fn greedy_completion_from_an_empty_draft_always_finishes_and_sits_at_a_table() {
    let foe = example("thug.toml");
    for seed in 0..200u64 {
        let mut d = Draft::default();
        assert!(
            complete_greedily::<Scratch>(&mut d, seed),
            "seed {seed}: {d:?}"
        );
        let sheet = Scratch::finish(&d).unwrap();
        assert!(Scratch::validate(&sheet).is_ok(), "{sheet}");
        let state = table_of(&[
            ("alice", sheet.clone(), "heroes"),
            ("gm", foe.clone(), "villains"),
        ])
        .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{sheet}"));
        assert_eq!(state.characters.len(), 2);
    }
}

#[test]
fn the_steps_follow_the_book_and_the_budget_is_live() {
    let d = Draft::default();
    let v = Scratch::build_view(&d);
    let titles: Vec<&str> = v.steps.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "1. The character",
            "2. Character points and maximum level",
            "3. Toughness",
            "4. Attack Abilities",
            "5. Stalking Abilities",
            "6. Movement Abilities",
            "7. Support Abilities",
            "8. Other abilities",
            "9. Minions",
        ]
    );
    assert_eq!(v.next.as_deref(), Some("character"));
    assert!(!v.complete);
    assert_eq!((v.budgets[0].total, v.budgets[0].spent), (10, 0));
    // Every ability of the book has its field, in the book's order.
    let keys: Vec<String> = v
        .steps
        .iter()
        .flat_map(|s| s.fields.iter().map(|f| f.key.clone()))
        .filter(|k| k.starts_with("abilities."))
        .collect();
    let book: Vec<String> = Ability::ALL
        .iter()
        .map(|a| format!("abilities.{}", a.name()))
        .collect();
    assert_eq!(keys, book);
    // Maximum level 4 bounds a level; the CP left bound it too.
    let max = |d: &Draft, key: &str| match &Scratch::build_view(d).field(key).unwrap().1.kind {
        tabula_core::FieldKind::Int { max, .. } => *max,
        k => panic!("{k:?}"),
    };
    assert_eq!(max(&d, "abilities.shooting"), 4);
    let d = build(&[
        ("abilities.toughness", int(4)),
        ("abilities.shooting", int(4)),
    ]);
    assert_eq!(max(&d, "abilities.blasting"), 2);
    assert_eq!(max(&d, "abilities.shooting"), 4);
    let v = Scratch::build_view(&d);
    assert_eq!((v.budgets[0].total, v.budgets[0].spent), (10, 8));
    // Notes appear once an ability has a level, and go with it.
    assert!(v.field("notes.shooting").is_some() && v.field("notes.stealth").is_none());
    let mut d = d;
    Scratch::set(&mut d, "notes.shooting", &text("sidearm")).unwrap();
    Scratch::set(&mut d, "abilities.shooting", &int(0)).unwrap();
    assert!(d.notes.is_empty());
    // A lower table limit (R-SCR-7 lets a sheet only tighten) lowers the maxima.
    Scratch::set(&mut d, "max_level", &int(3)).unwrap_err();
    Scratch::set(&mut d, "abilities.toughness", &int(3)).unwrap();
    Scratch::set(&mut d, "max_level", &int(3)).unwrap();
    Scratch::set(&mut d, "cp", &int(8)).unwrap();
    assert_eq!(max(&d, "abilities.shooting"), 3);
    let v = Scratch::build_view(&d);
    assert_eq!((v.budgets[0].total, v.budgets[0].spent), (8, 3));
    assert!(Scratch::draft_sheet(&d).contains("cp = 8"));
}

// ---------------------------------------------------------- the book's characters

/// Flipfire ("Combat Example"): 11 agility, 11 intelligence, 12 strength, 2
/// stamina, 10 CP spent, no level above 4.
#[test]
fn flipfire_built_through_the_builder_has_the_books_numbers() {
    let d = build(&[
        ("name", text("Flipfire")),
        ("description", text("medic and commando turned mercenary")),
        ("abilities.toughness", int(4)),
        ("notes.toughness", text("light body armor")),
        ("abilities.shooting", int(2)),
        ("notes.shooting", text("bayoneted assault rifle")),
        ("abilities.fighting", int(2)),
        ("notes.fighting", text("acrobatic fighting style")),
        ("abilities.acrobatics", int(1)),
        (
            "notes.acrobatics",
            text("leaps between fallen comrades as she attempts to revive them"),
        ),
        ("abilities.healing", int(1)),
        ("notes.healing", text("medic training")),
    ]);
    let v = Scratch::build_view(&d);
    assert!(v.complete, "{:?}", v.problems);
    assert_eq!((v.budgets[0].total, v.budgets[0].spent), (10, 10));
    assert_eq!(
        derived(&d, "Sheet"),
        "Flipfire (11 agility, 11 intelligence, 12 strength, 2 stamina): medic and commando turned mercenary"
    );
    assert_eq!(derived(&d, "Maximum hit points"), "4");
    assert_eq!(
        derived(&d, "Hit points"),
        "healthy 3-4, injured 1-2, incapacitated 0"
    );
    assert_eq!(
        derived(&d, "Carrying"),
        "pack 24 kg (53 lbs), carry 60 kg (130 lbs), lift 120 kg (260 lbs)"
    );
    let sheet = Scratch::finish(&d).unwrap();
    let built = Character::from_toml(&sheet, &TableRules::default()).unwrap();
    let book = Character::from_toml(&example("flipfire.toml"), &TableRules::default()).unwrap();
    assert_eq!(built.levels(), book.levels());
    assert_eq!(built.defenses(8), book.defenses(8));
    for a in built.levels().keys() {
        assert_eq!(built.note(a.name()), book.note(a.name()), "{a}");
    }
}

/// Chokestar: "Abilities" says he "was created by distributing 2 CP to piloting
/// ability, 2 CP to toughness ability, 3 CP to wrestling ability and 3 CP to
/// stalking ability, for a total of 10 ability levels, and no more than 4
/// levels of any single ability"; his printed sheet is 2 wrestling, 3 stealth,
/// 3 toughness (13 agility, 10 intelligence, 12 strength, 1 stamina).
#[test]
fn chokestar_both_ways_the_book_gives_him() {
    let d = build(&[
        ("name", text("Chokestar")),
        ("other.0.name", text("piloting")),
        ("other.0.level", int(2)),
        ("abilities.toughness", int(2)),
        ("abilities.wrestling", int(3)),
        ("abilities.stealth", int(3)),
    ]);
    let v = Scratch::build_view(&d);
    assert!(v.complete, "{:?}", v.problems);
    assert_eq!((v.budgets[0].total, v.budgets[0].spent), (10, 10));
    let sheet = Scratch::finish(&d).unwrap();
    assert!(sheet.contains("piloting = 2"), "{sheet}");
    // Nothing is left for another level anywhere.
    refused(&d, "abilities.quickness", int(1), rules::ABILITIES);
    refused(&d, "other.0.level", int(3), rules::ABILITIES);

    let d = build(&[
        ("name", text("Chokestar")),
        ("abilities.wrestling", int(2)),
        ("abilities.stealth", int(3)),
        ("abilities.toughness", int(3)),
    ]);
    assert_eq!(
        derived(&d, "Sheet"),
        "Chokestar (13 agility, 10 intelligence, 12 strength, 1 stamina)"
    );
    let v = Scratch::build_view(&d);
    assert!(v.complete);
    // The printed sheet spends 8 of 10: the 2 left are banked (R-SCR-8).
    assert_eq!((v.budgets[0].total, v.budgets[0].spent), (10, 8));
}

/// The Boss and his two thugs ("Support Abilities"): 4 command, two minions
/// with 2 CP each; his intelligence is 14 by the text (R-SCR-2), the book
/// prints 11.
#[test]
fn the_boss_and_his_thugs_built_through_the_builder() {
    let thug = "concealing blunt weapons under their long overcoats";
    let d = build(&[
        ("name", text("The Boss")),
        ("description", text("an enforcer in a white suit")),
        ("abilities.shooting", int(2)),
        ("abilities.detection", int(1)),
        ("abilities.command", int(4)),
        ("abilities.toughness", int(3)),
        ("minions", int(2)),
        ("minions.0.name", text("Thug 1")),
        ("minions.0.description", text(thug)),
        ("minions.0.abilities.toughness", int(2)),
        ("minions.1.name", text("Thug 2")),
        ("minions.1.description", text(thug)),
        ("minions.1.abilities.toughness", int(2)),
    ]);
    let v = Scratch::build_view(&d);
    assert!(v.complete, "{:?}", v.problems);
    assert_eq!((v.budgets[1].total, v.budgets[1].spent), (4, 4));
    assert_eq!(
        derived(&d, "Sheet"),
        "The Boss (10 agility, 14 intelligence, 11 strength, 1 stamina): an enforcer in a white suit"
    );
    let minions: Vec<String> = v
        .derived
        .iter()
        .filter(|x| x.name == "Minion")
        .map(|x| x.value.clone())
        .collect();
    assert_eq!(
        minions,
        [
            format!("Thug 1 (10 agility, 10 intelligence, 10 strength, 1 stamina): {thug}"),
            format!("Thug 2 (10 agility, 10 intelligence, 10 strength, 1 stamina): {thug}"),
        ]
    );
    // The command level is spent: no more minion levels, no command for them,
    // no third minion, and command cannot drop below what the minions hold.
    refused(
        &d,
        "minions.0.abilities.shooting",
        int(1),
        rules::SUPPORT_ABILITIES,
    );
    refused(&d, "minions", int(3), rules::SUPPORT_ABILITIES);
    refused(&d, "abilities.command", int(3), rules::SUPPORT_ABILITIES);
    refused(&d, "abilities.command", int(0), rules::SUPPORT_ABILITIES);
    let sheet = Scratch::finish(&d).unwrap();
    let built = Character::from_toml(&sheet, &TableRules::default()).unwrap();
    let book = Character::from_toml(&example("the-boss.toml"), &TableRules::default()).unwrap();
    assert_eq!(built.levels(), book.levels());
    assert_eq!(built.minions().len(), 2);
    for (b, k) in built.minions().iter().zip(book.minions()) {
        assert_eq!((b.name(), b.levels()), (k.name(), k.levels()));
    }
}

/// Breakhelm X-19 (6 toughness, 14 levels) and Zimzambamalam (8 shooting) are
/// beyond the book's 10 CP and maximum level 4: a table raises its `[rules]`
/// for them (R-SCR-7); the builder, at the book's limits, refuses them.
#[test]
fn characters_beyond_the_books_limits_are_refused_with_the_rule() {
    let d = build(&[("name", text("Zimzambamalam"))]);
    let msg = refused(&d, "abilities.shooting", int(8), rules::ABILITIES);
    assert!(msg.contains("above the maximum level 4"), "{msg}");
    let d = build(&[
        ("name", text("Breakhelm X-19")),
        ("abilities.shooting", int(4)),
        ("abilities.fighting", int(4)),
    ]);
    let msg = refused(&d, "abilities.toughness", int(6), rules::ABILITIES);
    assert!(msg.contains("maximum level 4"), "{msg}");
    let msg = refused(&d, "abilities.toughness", int(3), rules::ABILITIES);
    assert!(
        msg.contains("11 levels distributed but only 10 CP"),
        "{msg}"
    );
}

// ---------------------------------------------------------------- refusals

#[test]
fn refusals_name_the_rule_and_change_nothing() {
    let d = build(&[("name", text("Hero")), ("abilities.toughness", int(3))]);
    // Over budget, out of range, illegal combinations.
    let d2 = build(&[
        ("abilities.toughness", int(4)),
        ("abilities.shooting", int(4)),
    ]);
    refused(&d2, "abilities.blasting", int(3), rules::ABILITIES);
    refused(&d, "abilities.shooting", int(5), rules::ABILITIES);
    refused(&d, "abilities.shooting", int(-1), rules::ABILITIES);
    refused(&d, "abilities.shooting", int(1_000), rules::CAPS);
    let msg = refused(&d, "cp", int(12), rules::TABLE_LIMITS);
    assert!(msg.contains("R-SCR-7"), "{msg}");
    refused(&d, "max_level", int(5), rules::TABLE_LIMITS);
    refused(&d, "cp", int(0), rules::ABILITIES);
    refused(&d, "cp", int(2), rules::ABILITIES);
    refused(&d, "id", text("not an id!"), rules::NAMES);
    refused(&d, "name", text("Bad\u{1b}[2Jname"), rules::NAMES);
    // Minions need command; minions cannot have command (not even offered).
    assert!(Scratch::build_view(&d).field("minions").is_none());
    assert!(matches!(
        Scratch::set(&mut d.clone(), "minions", &int(1)),
        Err(BuildRefusal::UnknownField { .. })
    ));
    let boss = build(&[
        ("abilities.command", int(2)),
        ("minions", int(1)),
        ("minions.0.name", text("Goon")),
        ("minions.0.abilities.toughness", int(2)),
    ]);
    assert!(
        Scratch::build_view(&boss)
            .field("minions.0.abilities.command")
            .is_none()
    );
    refused(
        &boss,
        "minions.0.abilities.toughness",
        int(3),
        rules::SUPPORT_ABILITIES,
    );
    // Values of the wrong kind and unknown fields.
    let mut x = d.clone();
    assert!(matches!(
        Scratch::set(&mut x, "abilities.shooting", &text("four")),
        Err(BuildRefusal::BadValue { .. })
    ));
    assert!(matches!(
        Scratch::set(&mut x, "abilities.lasers", &int(1)),
        Err(BuildRefusal::UnknownField { .. })
    ));
    assert!(matches!(
        Scratch::set(&mut x, "other.0.name", &text("Shooting")),
        Err(BuildRefusal::BadValue { .. })
    ));
    assert!(matches!(
        Scratch::set(&mut x, "name", &text(&"x".repeat(201))),
        Err(BuildRefusal::BadValue { .. })
    ));
    assert_eq!(x, d);
    // Forcing a broken value gives a sheet validate refuses with the same rule.
    let mut forced = d.clone();
    Scratch::force(&mut forced, "abilities.shooting", &int(9)).unwrap();
    let problems = Scratch::validate(&Scratch::draft_sheet(&forced)).unwrap_err();
    assert!(problems.iter().any(|p| p.rule == rules::ABILITIES));
    assert!(Scratch::finish(&forced).is_err());
}

#[test]
fn an_unfinished_draft_says_what_is_missing() {
    let d = Draft::default();
    let problems = Scratch::finish(&d).unwrap_err();
    assert!(problems.iter().all(|p| p.unfinished), "{problems:?}");
    assert!(problems.iter().any(|p| p.field.as_deref() == Some("name")));
    assert!(
        problems
            .iter()
            .any(|p| p.field.as_deref() == Some("abilities.toughness"))
    );
    // Toughness 0 is legal, and the builder says what it means.
    let d = build(&[("name", text("Ghost")), ("abilities.stealth", int(3))]);
    assert!(Scratch::build_view(&d).complete);
    assert!(derived(&d, "Abilities").contains("No toughness"));
}

#[test]
fn validate_is_the_command_lines_validate() {
    for f in [
        "chokestar.toml",
        "flipfire.toml",
        "the-boss.toml",
        "thug.toml",
    ] {
        assert!(Scratch::validate(&example(f)).is_ok(), "{f}");
    }
    // The book's limits: Breakhelm X-19 needs a table that allows 14 CP and level 6.
    let problems = Scratch::validate(&example("breakhelm-x-19.toml")).unwrap_err();
    assert!(problems.iter().any(|p| p.rule == rules::ABILITIES));
    let problems = Scratch::validate("name = [").unwrap_err();
    assert_eq!(problems.len(), 1);
    // A sheet cannot raise the table's CP (R-SCR-7), but CP awarded travel with it.
    let raiser = "name = \"R\"\ncp = 14\n[abilities]\ntoughness = 3\n";
    let p = Scratch::validate(raiser).unwrap_err();
    assert!(p.iter().any(|p| p.rule == rules::TABLE_LIMITS));
    let veteran = "name = \"V\"\nawarded_cp = 4\n[abilities]\nshooting = 4\nfighting = 4\ntoughness = 4\nstealth = 2\n";
    assert_eq!(Scratch::validate(veteran).unwrap(), "V");
    let p = Scratch::validate(&veteran.replace("= 4\n[", "= -1\n[")).unwrap_err();
    assert!(p.iter().any(|p| p.rule == rules::ADVANCEMENT), "{p:?}");
    // Imported sheets read back into drafts, and their broken rules show.
    let d = Scratch::draft_from_sheet(&example("breakhelm-x-19.toml")).unwrap();
    assert!(!Scratch::build_view(&d).problems.is_empty());
    let d = Scratch::draft_from_sheet(&example("the-boss.toml")).unwrap();
    assert!(Scratch::build_view(&d).complete);
    assert!(Scratch::draft_from_sheet("name = [").is_err());
}

// ---------------------------------------------------------------- advancement

fn advance(sheet: &str, seat: &str, line: &str) -> Result<String, AdvanceError> {
    Scratch::advance(sheet, &Seat::parse(seat), line, &mut Seeded::from_seed(1)).map(|a| {
        assert!(Scratch::validate(&a.sheet).is_ok(), "{}", a.sheet);
        a.sheet
    })
}

fn refused_rule(r: Result<String, AdvanceError>) -> Rule {
    match r {
        Err(AdvanceError::Refused { rule, .. }) => rule,
        other => panic!("not refused by a rule: {other:?}"),
    }
}

#[test]
fn the_gm_awards_cp_and_the_player_raises_abilities() {
    let flipfire = example("flipfire.toml");
    // Flipfire spent her 10 CP: nothing to raise until the GM awards some.
    assert_eq!(
        refused_rule(advance(&flipfire, "bob", "raise shooting")),
        rules::ADVANCEMENT
    );
    // Only the GM awards CP.
    assert_eq!(
        refused_rule(advance(&flipfire, "bob", "award-cp 2")),
        rules::ADVANCEMENT
    );
    let a = Scratch::advance(
        &flipfire,
        &Seat::Gm,
        "award-cp 2 \"the capture of Breakhelm X-19\"",
        &mut Seeded::from_seed(1),
    )
    .unwrap();
    assert!(a.summary.contains("2 CP awarded"), "{}", a.summary);
    assert!(a.sheet.contains("awarded_cp = 2"), "{}", a.sheet);
    let s = advance(&a.sheet, "bob", "raise shoot").unwrap();
    let c = Character::from_toml(&s, &TableRules::default()).unwrap();
    assert_eq!(c.level(Ability::Shooting), 3);
    assert_eq!((c.cp(), c.cp_spent()), (12, 11));
    // No level above the maximum level.
    assert_eq!(
        refused_rule(advance(&s, "bob", "raise toughness")),
        rules::ABILITIES
    );
    // A new ability starts at 1.
    let s = advance(&s, "bob", "raise quickness").unwrap();
    let c = Character::from_toml(&s, &TableRules::default()).unwrap();
    assert_eq!((c.level(Ability::Quickness), c.cp_spent()), (1, 12));
    assert_eq!(
        refused_rule(advance(&s, "bob", "raise quickness")),
        rules::ADVANCEMENT
    );
    // The awarded CP still count at a table, whose [rules] bind the rest.
    let state = table_of(&[
        ("bob", s.clone(), "heroes"),
        ("gm", example("thug.toml"), "villains"),
    ])
    .unwrap();
    assert_eq!(state.characters[0].character.cp(), 12);
}

/// "Training and experience could give a character 1 or 2 more levels of
/// toughness" ("Toughness"): Chokestar's 2 unspent CP buy one, up to the
/// maximum level 4, and the other waits for another ability.
#[test]
fn unspent_cp_are_banked_and_training_raises_toughness() {
    let c = example("chokestar.toml");
    let s = advance(&c, "alice", "raise toughness").unwrap();
    let ch = Character::from_toml(&s, &TableRules::default()).unwrap();
    assert_eq!(ch.level(Ability::Toughness), 4);
    assert_eq!(ch.defenses(8).stamina, 2);
    assert_eq!(
        refused_rule(advance(&s, "alice", "raise toughness")),
        rules::ABILITIES
    );
    let s = advance(&s, "alice", "raise wrestling").unwrap();
    assert_eq!(
        refused_rule(advance(&s, "alice", "raise wrestling")),
        rules::ADVANCEMENT
    );
}

#[test]
fn flying_from_nothing_needs_the_gm_and_a_good_explanation() {
    let c = example("chokestar.toml");
    assert_eq!(
        refused_rule(advance(&c, "alice", "raise flying \"a jetpack\"")),
        rules::MOVEMENT_ABILITIES
    );
    assert_eq!(
        refused_rule(advance(&c, "gm", "raise flying")),
        rules::MOVEMENT_ABILITIES
    );
    let s = advance(&c, "gm", "raise flying \"a stolen jetpack\"").unwrap();
    assert!(
        s.contains("flying = 1") && s.contains("a stolen jetpack"),
        "{s}"
    );
    // Once he flies, raising it is his own.
    let s = advance(&s, "alice", "raise flying").unwrap();
    assert!(s.contains("flying = 2"), "{s}");
}

#[test]
fn a_leaders_command_level_is_spent_on_his_minions() {
    let boss = "name = \"Boss\"\n[abilities]\ncommand = 2\ntoughness = 3\nshooting = 3\n[[minions]]\nname = \"Goon\"\n[minions.abilities]\ntoughness = 1\n";
    let s = advance(boss, "gm", "raise-minion goon toughness").unwrap();
    assert!(s.contains("toughness = 2"), "{s}");
    // The command level is spent.
    assert_eq!(
        refused_rule(advance(&s, "gm", "raise-minion goon shooting")),
        rules::SUPPORT_ABILITIES
    );
    assert_eq!(
        refused_rule(advance(&s, "gm", "add-minion Lackey shooting")),
        rules::SUPPORT_ABILITIES
    );
    // More command (2 CP still unspent) makes room for a second minion.
    let s = advance(&s, "gm", "raise command").unwrap();
    let s2 = advance(&s, "gm", "add-minion Lackey shooting").unwrap();
    let c = Character::from_toml(&s2, &TableRules::default()).unwrap();
    assert_eq!(c.minions().len(), 2);
    assert_eq!(c.minions()[1].level(Ability::Shooting), 1);
    // Minions cannot have command; at most two minions; names of their own.
    assert_eq!(
        refused_rule(advance(&s, "gm", "raise-minion goon command")),
        rules::SUPPORT_ABILITIES
    );
    assert_eq!(
        refused_rule(advance(&s, "gm", "add-minion Goon shooting")),
        rules::NAMES
    );
    let s3 = advance(&s2, "gm", "raise command").unwrap();
    assert_eq!(
        refused_rule(advance(&s3, "gm", "add-minion Third shooting")),
        rules::SUPPORT_ABILITIES
    );
    // Without command there are no minions to add.
    assert_eq!(
        refused_rule(advance(
            &example("flipfire.toml"),
            "gm",
            "add-minion X toughness"
        )),
        rules::SUPPORT_ABILITIES
    );
}

#[test]
fn advancement_parse_errors_and_broken_sheets() {
    let c = example("chokestar.toml");
    for line in [
        "",
        "levelup",
        "raise",
        "raise lasers",
        "award-cp",
        "award-cp many",
    ] {
        assert!(
            matches!(advance(&c, "gm", line), Err(AdvanceError::Parse { .. })),
            "{line}"
        );
    }
    assert_eq!(
        refused_rule(advance(&c, "gm", "award-cp 0")),
        rules::ADVANCEMENT
    );
    assert_eq!(
        refused_rule(advance(&c, "gm", "award-cp 99999")),
        rules::CAPS
    );
    assert!(matches!(
        advance(&example("breakhelm-x-19.toml"), "gm", "award-cp 1"),
        Err(AdvanceError::Sheet { .. })
    ));
    assert!(matches!(
        advance("name = [", "gm", "award-cp 1"),
        Err(AdvanceError::Sheet { .. })
    ));
    // Every command of the reference is recognised.
    for d in Scratch::ADVANCEMENT {
        let r = advance(&c, "gm", d.name);
        assert!(
            !matches!(&r, Err(AdvanceError::Parse { message, .. }) if message.contains("is not an advancement command")),
            "{}: {r:?}",
            d.name
        );
    }
}

// ---------------------------------------------------------------- sheets after

fn example_table() -> Table<Scratch> {
    Table::new(Scratch::setup(&example("table.toml"), &dir()).unwrap())
}

/// Each sheet after, read under the table's rules, against the character the
/// table started with.
fn same_characters(state: &State, start: &State) {
    let after = Scratch::sheets_after(state);
    let leaders: Vec<&Character> = start
        .characters
        .iter()
        .filter(|c| c.leader.is_none())
        .map(|c| &c.character)
        .collect();
    assert_eq!(after.len(), leaders.len());
    for (a, c) in after.iter().zip(leaders) {
        assert_eq!(a.name, c.name());
        let back = Character::from_toml(&a.sheet, &state.rules).unwrap();
        assert_eq!(&back, c, "{}", a.sheet);
    }
}

#[test]
fn nothing_happened_gives_the_same_characters() {
    let t = example_table();
    same_characters(t.state(), t.state());
    // Those within the book's limits validate as they are.
    for a in Scratch::sheets_after(t.state()) {
        if ["Chokestar", "Flipfire", "The Boss"].contains(&a.name.as_str()) {
            assert_eq!(Scratch::validate(&a.sheet).unwrap(), a.name);
        }
    }
}

/// After the example encounter hit points and every encounter state are gone
/// (a new encounter starts at full hit points); the characters are the same.
#[test]
fn after_the_example_encounter_only_lasting_changes_remain() {
    let mut t = example_table();
    let start = t.state().clone();
    let script = example("encounter.script");
    let seats = Scratch::seats(t.state());
    let mut rng = Seeded::from_seed(1);
    for line in script.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line == "status" {
            continue;
        }
        let (seat, rest) = tabula_core::grammar::seat_prefix(line, &seats).unwrap();
        let cmd = Scratch::parse_command(t.state(), &seat, rest).unwrap();
        t.submit(&seat, &cmd, &mut rng).unwrap();
    }
    assert!(
        t.state()
            .characters
            .iter()
            .any(|c| c.hit_points < c.character.level(Ability::Toughness))
    );
    same_characters(t.state(), &start);
    for a in Scratch::sheets_after(t.state()) {
        assert!(!a.sheet.contains("hit_points"), "{}", a.sheet);
    }
}

const TINKER: &str =
    "name = \"Tinker\"\n[abilities]\ncraftsmanship = 2\ntoughness = 3\nshooting = 2\n";
const GUNNER: &str = "name = \"Gunner\"\n[abilities]\nshooting = 3\ntoughness = 3\n";

/// Craftsmanship bonuses last "until he removes it or they are no longer
/// traveling companions" ("Support Abilities"): they are written on the
/// companion's sheet, come back at the next table with the crafter on the same
/// side, and end at a table without him.
#[test]
fn craftsmanship_bonuses_last_while_they_travel_together() {
    let state = table_of(&[
        ("alice", TINKER.to_string(), "heroes"),
        ("bob", GUNNER.to_string(), "heroes"),
        ("gm", example("thug.toml"), "villains"),
    ])
    .unwrap();
    let mut t = Table::<Scratch>::new(state);
    for (seat, line, dice) in [
        ("alice", "craft tinker gunner shooting", vec![]),
        // A hurried bonus whose roll fails cannot be used until the hurry is over.
        ("alice", "craft tinker gunner toughness hurry", vec![1]),
        ("gm", "initiative", vec![10, 5, 3]),
    ] {
        let seat = Seat::parse(seat);
        let cmd = Scratch::parse_command(t.state(), &seat, line).unwrap();
        t.submit(&seat, &cmd, &mut Scripted::dice(dice)).unwrap();
    }
    let gunner = t.state().find("gunner").unwrap();
    assert!(!t.state().characters[gunner].bonuses[&Ability::Toughness].usable);
    let after = Scratch::sheets_after(t.state());
    let g = after.iter().find(|a| a.name == "Gunner").unwrap();
    assert!(g.sheet.contains("crafter = \"tinker\""), "{}", g.sheet);
    assert_eq!(Scratch::validate(&g.sheet).unwrap(), "Gunner");
    let tinker = after.iter().find(|a| a.name == "Tinker").unwrap();
    // Together again: both bonuses are back, usable.
    let next = table_of(&[
        ("alice", tinker.sheet.clone(), "heroes"),
        ("bob", g.sheet.clone(), "heroes"),
        ("gm", example("thug.toml"), "villains"),
    ])
    .unwrap();
    let gi = next.find("gunner").unwrap();
    let gc = &next.characters[gi];
    assert_eq!(gc.level(Ability::Shooting), 4);
    assert_eq!(gc.level(Ability::Toughness), 4);
    assert_eq!(gc.hit_points, 4);
    assert_eq!(
        Scratch::sheets_after(&next)
            .iter()
            .find(|a| a.name == "Gunner")
            .unwrap()
            .sheet,
        g.sheet
    );
    // Apart (the tinker on the other side, or not there): the bonuses have ended.
    for apart in [
        vec![
            ("bob", g.sheet.clone(), "heroes"),
            ("gm", example("thug.toml"), "villains"),
        ],
        vec![
            ("bob", g.sheet.clone(), "heroes"),
            ("gm", tinker.sheet.clone(), "villains"),
        ],
    ] {
        let s = table_of(&apart).unwrap();
        let gc = &s.characters[s.find("gunner").unwrap()];
        assert_eq!(gc.level(Ability::Shooting), 3);
        assert!(gc.bonuses.is_empty());
        let sheet = &Scratch::sheets_after(&s)[0].sheet;
        assert!(!sheet.contains("crafted"), "{sheet}");
    }
}

/// Random characters from the builder at a table with the book's rules,
/// random crafting, then random play by the policy: every sheet after
/// validates and sits at a table again.
fn random_state(picks: &[u64], steps: usize) -> State {
    let mut sheets = Vec::new();
    for (k, name) in ["Ann", "Bo", "Cy"].iter().enumerate() {
        let seed = picks.get(k).copied().unwrap_or(k as u64);
        let mut d = random_build::<Scratch>(&picks[k.min(picks.len())..]).unwrap();
        complete_greedily::<Scratch>(&mut d, seed);
        Scratch::set(&mut d, "name", &text(name)).unwrap();
        let _ = Scratch::clear(&mut d, "id");
        for i in 0..d.minions.len() {
            let _ = Scratch::set(
                &mut d,
                &format!("minions.{i}.name"),
                &text(&format!("{name} Minion {i}")),
            );
        }
        if !Scratch::build_view(&d).complete {
            d = Draft::default();
            complete_greedily::<Scratch>(&mut d, seed);
            Scratch::set(&mut d, "name", &text(name)).unwrap();
            let _ = Scratch::clear(&mut d, "id");
        }
        // The heroes' first character crafts when the CP left allow it.
        if k == 0 {
            for level in (1..=3).rev() {
                if Scratch::set(&mut d, "abilities.craftsmanship", &int(level)).is_ok() {
                    break;
                }
            }
        }
        sheets.push(Scratch::finish(&d).unwrap());
    }
    let state = table_of(&[
        ("alice", sheets[0].clone(), "heroes"),
        ("bob", sheets[1].clone(), "heroes"),
        ("gm", sheets[2].clone(), "villains"),
    ])
    .unwrap_or_else(|e| panic!("{e}\n{sheets:?}"));
    let mut t = Table::<Scratch>::new(state);
    let mut rng = Seeded::from_seed(picks.first().copied().unwrap_or(0));
    // Random crafting before the encounter, mostly by crafters on abilities
    // their companions have (refusals change nothing).
    let people: Vec<(String, Vec<Ability>)> = t
        .state()
        .characters
        .iter()
        .map(|c| (c.id.clone(), c.character.levels().keys().copied().collect()))
        .collect();
    for (n, p) in picks.iter().enumerate().take(8) {
        let seat = Seat::parse(["alice", "bob", "gm"][n % 3]);
        let (crafter, _) = &people[(*p as usize) % people.len()];
        let (target, has) = &people[((*p >> 8) as usize) % people.len()];
        let ability = match has.len() {
            0 => Ability::ALL[((*p >> 16) as usize) % Ability::ALL.len()],
            k => has[((*p >> 16) as usize) % k],
        };
        let crafter = if p % 4 == 0 { crafter.as_str() } else { "ann" };
        let hurry = if (p >> 24) % 3 == 0 { " hurry" } else { "" };
        let line = format!("craft {crafter} {target} {ability}{hurry}");
        if let Ok(cmd) = Scratch::parse_command(t.state(), &seat, &line) {
            let _ = t.submit(&seat, &cmd, &mut rng);
        }
    }
    for _ in 0..steps {
        let waiting = Scratch::awaiting(t.state());
        let Some(w) = waiting.first() else { break };
        let Some(cmd) = Scratch::suggest_for(t.state(), w) else {
            break;
        };
        if t.submit(&w.seat, &cmd, &mut rng).is_err() {
            break;
        }
    }
    t.state().clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sheets_after_random_play_always_validate(
        picks in proptest::collection::vec(any::<u64>(), 3..30),
        steps in 0usize..120,
    ) {
        let state = random_state(&picks, steps);
        let after = Scratch::sheets_after(&state);
        prop_assert_eq!(after.len(), 3);
        for a in &after {
            let name = Scratch::validate(&a.sheet).map_err(|p| TestCaseError::fail(format!("{p:?}\n{}", a.sheet)))?;
            prop_assert_eq!(&name, &a.name);
        }
        // The sheets sit at a table again, with the bonuses still held.
        let again = table_of(&[
            ("alice", after[0].sheet.clone(), "heroes"),
            ("bob", after[1].sheet.clone(), "heroes"),
            ("gm", after[2].sheet.clone(), "villains"),
        ]).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let held = |s: &State| s.characters.iter().map(|c| c.bonuses.len()).sum::<usize>();
        prop_assert_eq!(held(&again), held(&state));
        let again_after = Scratch::sheets_after(&again);
        for (x, y) in again_after.iter().zip(&after) {
            prop_assert_eq!(&x.sheet, &y.sheet);
        }
    }
}

/// Level 0 for the empty "other ability" slot takes nothing: no entry that
/// would then ask for a name, and the draft is as before.
#[test]
fn level_zero_in_the_empty_other_slot_adds_nothing() {
    let before = Draft::default();
    let mut d = before.clone();
    Scratch::set(&mut d, "other.0.level", &int(0)).unwrap();
    assert_eq!(d, before);
    let mut named = build(&[("other.0.name", text("piloting"))]);
    Scratch::set(&mut named, "other.0.level", &int(0)).unwrap();
    assert!(
        !Scratch::build_view(&named)
            .problems
            .iter()
            .any(|p| p.field.as_deref() == Some("other.0.name")),
        "a named ability at level 0 asks nothing more of its name"
    );
}

/// `set` goes through core's `set_checked` and keeps the book's leniency: an
/// imported sheet over its CP budget (Breakhelm X-19's 14 levels under the
/// book's 10 CP) mends one level at a time, but is never overspent further.
#[test]
fn an_overspent_sheet_mends_one_level_at_a_time_but_never_overspends_further() {
    let sheet = example("breakhelm-x-19.toml").replace("id = \"breakhelm\"\n", "");
    // 10 CP, maximum level 8: only the budget is broken (4 shooting, 4
    // fighting, 6 toughness: 14 levels).
    let mut d = Scratch::draft_from_sheet(&sheet)
        .unwrap()
        .in_setting(TableRules {
            cp: 10,
            max_level: 8,
            ..TableRules::default()
        });
    let before = d.clone();
    let e = Scratch::set(&mut d, "abilities.shooting", &int(5)).unwrap_err();
    assert!(matches!(e, BuildRefusal::Broken { .. }), "{e:?}");
    assert_eq!(d, before);
    // Lowering mends: accepted though still over budget.
    Scratch::set(&mut d, "abilities.toughness", &int(5)).unwrap();
    Scratch::set(&mut d, "abilities.shooting", &int(3)).unwrap();
    // Raising again past what it was is refused.
    let before = d.clone();
    assert!(Scratch::set(&mut d, "abilities.fighting", &int(5)).is_err());
    assert_eq!(d, before);
}
