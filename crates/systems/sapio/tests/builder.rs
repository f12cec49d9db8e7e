//! Characters outside the table (`CharacterBook`): creation in the order of
//! "Building a Starting Character", the book's example characters read back,
//! refusals that agree with `character validate`, the sheets an encounter
//! leaves, and "Advancement" between sessions.

use std::collections::BTreeMap;
use std::path::PathBuf;
use tabula_sapio::rules::{
    RULE_ADVANCEMENT, RULE_ELEMENTS, RULE_INJURIES, RULE_LUCK, RULE_MAGIC, RULE_PROFESSIONS,
    RULE_QUALITIES, RULE_SEATS, RULE_SESSION, RULE_SHEET, RULE_STARTING, RULE_TALENTS,
    RULE_WEAPONS,
};

use proptest::prelude::*;
use tabula_core::builder::{complete_greedily, random_build, refusal_agrees};
use tabula_core::files::InMemoryFiles;
use tabula_core::{
    AdvanceError, BuildRefusal, CharacterBook, FieldKind, FieldValue, Rule, Scripted, Seat, Seeded,
    Table, TextPlay,
};
use tabula_sapio::Sapio;
use tabula_sapio::builder::Draft;
use tabula_sapio::character::{CharacterDraft, parse_character};
use tabula_sapio::harm::Level;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sapio")
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
    Sapio::set(d, key, &v).unwrap_or_else(|e| panic!("{key} = {v}: {e}"));
}

/// A set that must be refused as breaking `rule`, leaving the draft as it was,
/// and that `validate` refuses with the same rule once forced.
fn refused(d: &Draft, key: &str, v: FieldValue, rule: Rule) -> String {
    let mut tried = d.clone();
    let err = Sapio::set(&mut tried, key, &v).expect_err(key);
    assert_eq!(&tried, d, "{key}: a refusal changed the draft");
    refusal_agrees::<Sapio>(d, key, &v).unwrap();
    let mut forced = d.clone();
    Sapio::force(&mut forced, key, &v).unwrap();
    let problems = Sapio::validate(&Sapio::draft_sheet(&forced)).expect_err("forced sheet");
    assert!(problems.iter().any(|p| p.rule == rule), "{problems:?}");
    match err {
        BuildRefusal::Broken { problem, .. } => {
            assert_eq!(problem.rule, rule, "{key} = {v}: {problem}");
            assert!(!problem.unfinished);
            problem.to_string()
        }
        other => panic!("{key} = {v}: expected a broken rule, got {other}"),
    }
}

/// The book's Roof Runner, chosen field by field in the book's order.
fn roof_runner() -> Draft {
    let mut d = Draft::default();
    set(&mut d, "name", text("Wren"));
    set(&mut d, "player", text("Ana"));
    set(&mut d, "profession", text("Roof Runner"));
    set(&mut d, "profession.specializations.0", text("Leaping"));
    set(&mut d, "side_professions.0.name", text("Night Clerk"));
    set(&mut d, "qualities.0", text("Agile"));
    set(&mut d, "qualities.1", text("Perceptive"));
    set(
        &mut d,
        "special_talents.0.name",
        text("Hide in Plain Sight"),
    );
    set(
        &mut d,
        "special_talents.0.text",
        text("The TN to hide for this character is never more than 4"),
    );
    set(&mut d, "special_talents.0.effect", text("tn-cap"));
    set(&mut d, "principle", text("Violence is not the answer"));
    set(&mut d, "worst_impulse", text("Stealing isn't a big deal"));
    d
}

// ---- Creation --------------------------------------------------------------

#[test]
fn the_steps_follow_building_a_starting_character() {
    let view = Sapio::build_view(&Draft::default());
    let titles: Vec<&str> = view.steps.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "1. Concept",
            "2. Pick a Profession",
            "3. Pick one Specialization under that Profession",
            "4. Pick a Side Profession, but no Specializations (yet)",
            "5. Pick two Qualities",
            "6. Pick one Special Talent",
            "7. Principle and Worst Impulse",
            "8. Weapons",
            "9. Luck",
        ]
    );
    assert_eq!(view.next.as_deref(), Some("concept"));
    assert!(!view.complete);
    // Every problem of the empty draft is merely unfinished.
    assert!(!view.problems.is_empty());
    assert!(
        view.problems.iter().all(|p| p.unfinished),
        "{:?}",
        view.problems
    );
    // The budgets are the starting build's counts, nothing spent.
    let budgets: Vec<(&str, i64, i64)> = view
        .budgets
        .iter()
        .map(|b| (b.name.as_str(), b.total, b.spent))
        .collect();
    assert_eq!(
        budgets,
        [
            ("Specializations (Main Profession)", 1, 0),
            ("Side Professions", 1, 0),
            ("Qualities", 2, 0),
            ("Special Talents", 1, 0),
        ]
    );
    assert!(view.budgets.iter().all(|b| b.rule == RULE_STARTING));
    // No Luck field on a starting character.
    assert!(view.field("luck").is_none());
}

#[test]
fn the_roof_runner_is_built_in_the_books_order() {
    let d = roof_runner();
    let view = Sapio::build_view(&d);
    assert!(view.complete, "{:?}", view.problems);
    let sheet = Sapio::finish(&d).unwrap();
    assert_eq!(Sapio::validate(&sheet).unwrap(), "Wren");
    // The same character as the example file.
    let file = parse_character(&example("roof-runner.toml")).unwrap();
    let built = parse_character(&sheet).unwrap();
    assert_eq!(built.sheet().profession, file.sheet().profession);
    assert_eq!(built.sheet().qualities, file.sheet().qualities);
    assert_eq!(built.sheet().special_talents, file.sheet().special_talents);
    assert_eq!(built.sheet().principle, file.sheet().principle);
    // Live values: the budgets are spent, the Main Profession gives 2 dice.
    assert!(view.budgets.iter().all(|b| b.spent == b.total));
    let derived = |name: &str| {
        view.derived
            .iter()
            .find(|x| x.name == name)
            .unwrap()
            .value
            .clone()
    };
    assert!(derived("Main Profession").contains("Roof Runner: 2 dice"));
    assert_eq!(derived("Magic"), "none");
    // The book's amount for Hide in Plain Sight (never more than 4) is offered.
    let (_, f) = view.field("special_talents.0.amount").unwrap();
    assert_eq!(f.value, Some(int(4)));
    assert_eq!(f.kind, FieldKind::Int { min: 0, max: 5 });
}

#[test]
fn greedy_completion_from_the_empty_draft_is_legal() {
    for seed in [0, 1, 7, 99, 12345] {
        let mut d = Draft::default();
        assert!(complete_greedily::<Sapio>(&mut d, seed), "seed {seed}");
        let sheet = Sapio::finish(&d).unwrap();
        Sapio::validate(&sheet).unwrap();
        let c = parse_character(&sheet).unwrap();
        assert_eq!(c.sheet().qualities.len(), 2);
        assert_eq!(c.sheet().side_professions.len(), 1);
        assert!(c.sheet().side_professions[0].specializations.is_empty());
    }
}

/// The terminal's newcomer (`crates/cli/tests/character_new.rs`): every field
/// in the book's order, the most a number allows, the first option, a text
/// like "Newcomer 7", an optional text left empty; when refused, one less or
/// the next option.
#[test]
fn a_newcomer_answering_first_options_and_max_numbers_finishes() {
    let mut d = Draft::default();
    let mut asked: Vec<String> = Vec::new();
    let mut n = 0;
    for _ in 0..400 {
        let view = Sapio::build_view(&d);
        if view.complete {
            break;
        }
        let next = view
            .steps
            .iter()
            .flat_map(|s| &s.fields)
            .find(|f| !asked.contains(&f.key))
            .cloned();
        let Some(f) = next else {
            // Ask again the fields with a problem or without a value.
            asked.retain(|k| {
                !view.problems.iter().any(|p| p.field.as_deref() == Some(k))
                    && view
                        .field(k)
                        .is_none_or(|(_, f)| !f.required || f.value.is_some())
            });
            continue;
        };
        let optional_text = matches!(f.kind, FieldKind::Text { .. })
            && f.value == Some(FieldValue::Text(String::new()));
        if optional_text {
            asked.push(f.key.clone());
            continue;
        }
        let mut done = false;
        for tries in 0..12 {
            n += 1;
            let v = match &f.kind {
                FieldKind::Int { max, .. } => int(max - tries),
                FieldKind::Choice { options } => {
                    text(&options[(tries as usize) % options.len()].value)
                }
                FieldKind::Multi { .. } => unreachable!("no multiple choice"),
                FieldKind::Text { .. } => text(&format!("Newcomer {n}")),
            };
            if Sapio::set(&mut d, &f.key, &v).is_ok() {
                done = true;
                break;
            }
        }
        assert!(done, "{} refused every answer", f.key);
        asked.push(f.key.clone());
    }
    let view = Sapio::build_view(&d);
    assert!(view.complete, "{:?}", view.problems);
    Sapio::validate(&Sapio::finish(&d).unwrap()).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random picks, legal and not: every refusal agrees with `validate`, and
    /// a draft completed greedily validates.
    #[test]
    fn refusals_agree_with_validate(picks in proptest::collection::vec(any::<u64>(), 0..60)) {
        random_build::<Sapio>(&picks).map_err(TestCaseError::fail)?;
    }

    /// The same from an advanced example sheet (open slots of Side
    /// Specializations, several Qualities).
    #[test]
    fn refusals_agree_from_an_advanced_sheet(picks in proptest::collection::vec(any::<u64>(), 0..40)) {
        let mut d = Sapio::draft_from_sheet(&advanced_sheet()).unwrap();
        for (i, pick) in picks.iter().enumerate() {
            let view = Sapio::build_view(&d);
            let fields: Vec<_> = view.steps.iter().flat_map(|s| &s.fields).collect();
            let f = fields[(*pick as usize) % fields.len()];
            let v = if i % 2 == 0 {
                tabula_core::builder::any_value(&f.kind, pick.rotate_left(9))
            } else {
                tabula_core::builder::legal_value(&f.kind, pick.rotate_left(9), false)
            };
            refusal_agrees::<Sapio>(&d, &f.key, &v).map_err(TestCaseError::fail)?;
            let _ = Sapio::set(&mut d, &f.key, &v);
            if i % 7 == 6 {
                let _ = Sapio::clear(&mut d, &f.key);
            }
        }
        complete_greedily::<Sapio>(&mut d, picks.first().copied().unwrap_or(0));
        tabula_core::builder::finished_validates::<Sapio>(&d).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn every_example_sheet_reads_back() {
    let mut n = 0;
    for entry in std::fs::read_dir(examples()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".toml") || name == "table.toml" {
            continue;
        }
        let original = std::fs::read_to_string(&path).unwrap();
        let who = Sapio::validate(&original).unwrap();
        let d = Sapio::draft_from_sheet(&original).unwrap();
        assert!(Sapio::build_view(&d).complete, "{name}");
        let again = Sapio::draft_sheet(&d);
        assert_eq!(Sapio::validate(&again).unwrap(), who, "{name}");
        let a: CharacterDraft = toml::from_str(&original).unwrap();
        let b: CharacterDraft = toml::from_str(&again).unwrap();
        assert_eq!(a, b, "{name}");
        n += 1;
    }
    assert_eq!(n, 4);
}

#[test]
fn each_limit_is_refused_with_its_rule() {
    let d = roof_runner();
    // "The Profession should be two or less words."
    refused(
        &d,
        "profession",
        text("Gas Station Clerk"),
        RULE_PROFESSIONS,
    );
    refused(
        &d,
        "side_professions.0.name",
        text("Gas Station Clerk"),
        RULE_PROFESSIONS,
    );
    // "'Lucky' and 'Competent' ... should not be used" (R-SA-10).
    let m = refused(&d, "qualities.1", text("lucky"), RULE_QUALITIES);
    assert!(m.contains("R-SA-10"), "{m}");
    refused(&d, "qualities.0", text("Competent"), RULE_QUALITIES);
    // Element names differ, so invoking one by name is not ambiguous.
    refused(&d, "qualities.1", text("agile"), RULE_ELEMENTS);
    refused(&d, "profession.specializations.0", text(" "), RULE_ELEMENTS);
    // Magic needs both a specific Quality and a Special Talent (R-SA-10).
    refused(&d, "special_talents.0.magic", text("magical"), RULE_MAGIC);
    refused(
        &d,
        "special_talents.0.name",
        text("Spellcaster"),
        RULE_MAGIC,
    );
    refused(&d, "qualities.1", text("Magically Trained"), RULE_MAGIC);
    // A Special Talent's numbers.
    refused(&d, "special_talents.0.amount", int(6), RULE_TALENTS);
    // Tabula's own: a GM character leaves `player` out; names a table shows.
    refused(&d, "player", text("GM"), RULE_SHEET);
    refused(&d, "player", text("Ana: the first"), RULE_SHEET);
    refused(&d, "name", text("Wr\u{1b}[2Jen"), RULE_SHEET);
    refused(&d, "name", text(""), RULE_SHEET);
    refused(&d, "principle", text(""), RULE_ELEMENTS);
    // The book's counts: one Specialization, a Side Profession without any,
    // two Qualities, one Special Talent: no field offers more.
    for key in [
        "profession.specializations.1",
        "side_professions.0.specializations.0",
        "side_professions.1.name",
        "qualities.2",
        "special_talents.1.name",
    ] {
        let mut tried = d.clone();
        assert!(
            matches!(
                Sapio::set(&mut tried, key, &text("More")),
                Err(BuildRefusal::UnknownField { .. })
            ),
            "{key}"
        );
        assert_eq!(tried, d);
    }
    // Values of the wrong kind change nothing.
    let mut tried = d.clone();
    assert!(matches!(
        Sapio::set(&mut tried, "special_talents.0.effect", &text("fly")),
        Err(BuildRefusal::BadValue { .. })
    ));
    assert!(matches!(
        Sapio::set(&mut tried, "special_talents.0.amount", &int(-1)),
        Err(BuildRefusal::BadValue { .. })
    ));
    assert!(matches!(
        Sapio::set(&mut tried, "principle", &text(&"x".repeat(201))),
        Err(BuildRefusal::BadValue { .. })
    ));
    assert_eq!(tried, d);
}

/// R-SA-10 across two steps: a magic Quality picked before its Special Talent
/// is unfinished (the Talent's slot is open), not broken.
#[test]
fn a_magic_pair_is_made_across_two_steps() {
    let mut d = Draft::default();
    set(&mut d, "name", text("Brannoc"));
    set(&mut d, "profession", text("Arcane Knight"));
    set(&mut d, "profession.specializations.0", text("Pyromancy"));
    set(&mut d, "side_professions.0.name", text("Tavern Bard"));
    set(&mut d, "qualities.0", text("Magically Trained"));
    set(&mut d, "qualities.1", text("Battle-hardened"));
    let view = Sapio::build_view(&d);
    let p = view
        .problems
        .iter()
        .find(|p| p.rule == RULE_MAGIC)
        .expect("the pair is not made yet");
    assert!(p.unfinished);
    assert_eq!(p.field.as_deref(), Some("special_talents.0.name"));
    // A talent that is not magical would break the pair: refused.
    refused(
        &d,
        "special_talents.0.name",
        text("Weather Sense"),
        RULE_MAGIC,
    );
    set(&mut d, "special_talents.0.name", text("Spellcaster"));
    set(&mut d, "principle", text("Protect the weak"));
    set(
        &mut d,
        "worst_impulse",
        text("Settle every insult with steel"),
    );
    let view = Sapio::build_view(&d);
    assert!(view.complete, "{:?}", view.problems);
    assert!(
        view.derived
            .iter()
            .any(|x| x.name == "Magic" && x.value.contains("Spellcaster"))
    );
    // The other way round: a magical Talent first waits for its Quality.
    let mut d = Draft::default();
    set(&mut d, "qualities.0", text("Tough"));
    set(&mut d, "special_talents.0.name", text("Blessing"));
    set(&mut d, "special_talents.0.magic", text("magical"));
    let p = Sapio::build_view(&d)
        .problems
        .into_iter()
        .find(|p| p.rule == RULE_MAGIC)
        .unwrap();
    assert!(p.unfinished);
    assert_eq!(p.field.as_deref(), Some("qualities.1"));
    refused(&d, "qualities.1", text("Quick"), RULE_MAGIC);
    set(&mut d, "qualities.1", text("Annointed"));
    assert!(
        !Sapio::build_view(&d)
            .problems
            .iter()
            .any(|p| p.rule == RULE_MAGIC)
    );
}

#[test]
fn clearing_takes_a_choice_back() {
    let mut d = roof_runner();
    Sapio::clear(&mut d, "qualities.0").unwrap();
    assert_eq!(d.qualities, ["Perceptive"]);
    let view = Sapio::build_view(&d);
    assert!(!view.complete);
    assert_eq!(view.next.as_deref(), Some("qualities"));
    assert!(view.field("qualities.1").unwrap().1.value.is_none());
    Sapio::clear(&mut d, "special_talents.0.effect").unwrap();
    assert_eq!(d.special_talents[0].effect, None);
    assert!(
        Sapio::build_view(&d)
            .field("special_talents.0.amount")
            .is_none()
    );
    Sapio::clear(&mut d, "special_talents.0.name").unwrap();
    assert!(d.special_talents.is_empty());
    assert!(matches!(
        Sapio::clear(&mut d, "weapons.3.level"),
        Err(BuildRefusal::UnknownField { .. })
    ));
}

#[test]
fn weapons_are_added_and_levelled() {
    let mut d = roof_runner();
    // The open slot: empty adds nothing.
    set(&mut d, "weapons.0.name", text(""));
    assert!(d.weapons.is_empty());
    set(&mut d, "weapons.0.name", text("Knife"));
    set(&mut d, "weapons.1.name", text("Shotgun"));
    set(&mut d, "weapons.1.level", text("severe"));
    let c = parse_character(&Sapio::finish(&d).unwrap()).unwrap();
    assert_eq!(c.find_weapon("knife").unwrap().level, Level::Minor);
    assert_eq!(c.find_weapon("shotgun").unwrap().level, Level::Severe);
    // A weapon's name is free (weapons are not invoked), but not too long.
    let mut tried = d.clone();
    assert!(matches!(
        Sapio::set(&mut tried, "weapons.1.name", &text(&"x".repeat(201))),
        Err(BuildRefusal::BadValue { .. })
    ));
    assert_eq!(tried, d);
}

/// A sheet in play: an empty box of a track is written `""` and reads back;
/// Luck, Injuries, Stresses and advancements are kept by the draft.
#[test]
fn a_sheet_in_play_round_trips() {
    let sheet = advanced_sheet();
    Sapio::validate(&sheet).unwrap();
    let d = Sapio::draft_from_sheet(&sheet).unwrap();
    let view = Sapio::build_view(&d);
    assert!(view.complete, "{:?}", view.problems);
    assert_eq!(view.field("luck").unwrap().1.value, Some(int(3)));
    assert!(view.derived.iter().any(|x| x.name == "Injuries"));
    let again = Sapio::draft_sheet(&d);
    assert!(again.contains("minor = [\"\", \"Cut\"]"), "{again}");
    let a: CharacterDraft = toml::from_str(&sheet).unwrap();
    let b: CharacterDraft = toml::from_str(&again).unwrap();
    assert_eq!(a, b);
    // The advancements give two Qualities more: dropping one opens its slot.
    let mut d2 = d.clone();
    Sapio::clear(&mut d2, "qualities.3").unwrap();
    let view = Sapio::build_view(&d2);
    let p = view
        .problems
        .iter()
        .find(|p| p.rule == RULE_STARTING)
        .unwrap();
    assert!(p.unfinished);
    assert_eq!(p.field.as_deref(), Some("qualities.3"));
    // Luck past the table's cap is refused with the Luck rule.
    refused(&d, "luck", int(100), RULE_LUCK);
    // A TOML error is one problem.
    let e = Sapio::validate("name = [").unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].rule, RULE_SHEET);
    assert!(Sapio::draft_from_sheet("name = 3").is_err());
}

/// The Roof Runner after a full advancement cycle and some play.
fn advanced_sheet() -> String {
    let mut s = example("roof-runner.toml");
    s = s.replace(
        "qualities = [\"Agile\", \"Perceptive\"]",
        "qualities = [\"Agile\", \"Perceptive\", \"Durable\", \"Likeable\"]",
    );
    s = s.replace("luck = 1", "luck = 3\nadvancements = [\"quality\", \"side-specialization\", \"profession-specialization\", \"special-talent\", \"quality\"]");
    s = s.replace(
        "specializations = [\"Leaping\"]",
        "specializations = [\"Leaping\", \"Quick Escapes\"]",
    );
    s = s.replace("specializations = []", "specializations = [\"Haggling\"]");
    s.push_str(
        "\n[[special_talents]]\nname = \"Weather Sense\"\n\n[injuries]\nminor = [\"\", \"Cut\"]\nmoderate = [\"\", \"\"]\n",
    );
    s
}

// ---- Lasting changes -------------------------------------------------------

fn table_of(sheets: &[(&str, String)]) -> Table<Sapio> {
    let mut files = BTreeMap::new();
    let mut t = String::from("title = \"Test\"\n");
    for (file, sheet) in sheets {
        files.insert(file.to_string(), sheet.clone());
        t.push_str(&format!("[[characters]]\nfile = \"{file}\"\n"));
    }
    Table::new(Sapio::setup(&t, &InMemoryFiles(files)).unwrap())
}

fn give(t: &mut Table<Sapio>, who: &str, line: &str, roller: &mut dyn tabula_core::Roller) {
    let seat = Seat::parse(who);
    let cmd =
        Sapio::parse_command(t.state(), &seat, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    t.submit(&seat, &cmd, roller)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
}

fn after_of(t: &Table<Sapio>, name: &str) -> CharacterDraft {
    let all = Sapio::sheets_after(t.state());
    let s = all.iter().find(|s| s.name == name).unwrap();
    Sapio::validate(&s.sheet).unwrap_or_else(|p| panic!("{p:?}\n{}", s.sheet));
    toml::from_str(&s.sheet).unwrap()
}

#[test]
fn the_example_encounter_leaves_legal_sheets_with_what_lasts() {
    let dir = examples();
    let mut t = Table::new(Sapio::setup(&example("table.toml"), &dir).unwrap());
    let mut roller = Seeded::from_seed(1);
    for line in example("encounter.script").lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (who, body) = line.split_once(':').unwrap();
        give(&mut t, who, body.trim(), &mut roller);
    }
    let after = Sapio::sheets_after(t.state());
    assert_eq!(
        after.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["Wren", "Brannoc", "Sable", "Vance"]
    );
    for (s, m) in after.iter().zip(&t.state().characters) {
        let sheet: CharacterDraft = toml::from_str(&s.sheet).unwrap();
        Sapio::validate(&s.sheet).unwrap();
        // Injuries, Stresses, Luck and advancements are the table's.
        let c = m.character.sheet();
        assert_eq!(sheet.injuries, c.injuries);
        assert_eq!(sheet.stresses, c.stresses);
        assert_eq!(sheet.luck, c.luck);
        assert_eq!(sheet.advancements, c.advancements);
        assert_eq!(sheet.qualities, c.qualities);
        assert_eq!(sheet.advancement_due, m.advancement_due);
    }
    // Wren took Durable at the end-of-session step; her ribs still hurt.
    let wren = after_of(&t, "Wren");
    assert!(wren.qualities.iter().any(|q| q == "Durable"));
    assert!(wren.moderate_or_worse());
    assert!(!wren.advancement_due);
    // Sable and Vance did not advance: still due, written on the sheet.
    assert!(after_of(&t, "Sable").advancement_due);
    // Every sheet loads at a new table, the due advancement with it.
    let sheets: Vec<(String, String)> = after
        .iter()
        .map(|s| (format!("{}.toml", s.name), s.sheet.clone()))
        .collect();
    let refs: Vec<(&str, String)> = sheets
        .iter()
        .map(|(f, s)| (f.as_str(), s.clone()))
        .collect();
    let t2 = table_of(&refs);
    let sable = t2.state().find("Sable").unwrap();
    assert!(t2.state().characters[sable].advancement_due);
}

trait Hurt {
    fn moderate_or_worse(&self) -> bool;
}

impl Hurt for CharacterDraft {
    fn moderate_or_worse(&self) -> bool {
        self.injuries
            .entries()
            .iter()
            .any(|(b, _)| b.level >= Level::Moderate)
    }
}

#[test]
fn a_scripted_encounter_keeps_harm_and_luck_and_drops_the_rest() {
    let mut t = table_of(&[
        ("wren.toml", example("roof-runner.toml")),
        ("sable.toml", example("desert-commando.toml")),
    ]);
    let wren_luck = parse_character(&example("roof-runner.toml"))
        .unwrap()
        .luck();
    // A check with 1 Luck spent, elements invoked for an ongoing task.
    give(&mut t, "GM", "check Wren 2", &mut Scripted::default());
    give(
        &mut t,
        "Ana",
        "invoke \"Roof Runner\" full",
        &mut Scripted::default(),
    );
    give(&mut t, "Ana", "invoke Agile", &mut Scripted::default());
    give(&mut t, "Ana", "luck 1", &mut Scripted::default());
    give(&mut t, "Ana", "roll", &mut Seeded::from_seed(3));
    // An Action Sequence left under way, elements invoked for the round.
    give(
        &mut t,
        "GM",
        "begin-sequence Escape",
        &mut Scripted::default(),
    );
    give(&mut t, "GM", "threaten Wren", &mut Scripted::default());
    give(&mut t, "Cy", "enter-fray Sable", &mut Scripted::default());
    give(
        &mut t,
        "GM",
        "frame The roof shakes",
        &mut Scripted::default(),
    );
    give(&mut t, "Ana", "focal Wren", &mut Scripted::default());
    give(&mut t, "GM", "tn 1", &mut Scripted::default());
    give(
        &mut t,
        "Ana",
        "invoke \"Roof Runner\" full",
        &mut Scripted::default(),
    );
    give(&mut t, "Ana", "invoke Leaping", &mut Scripted::default());
    give(&mut t, "Ana", "roll", &mut Seeded::from_seed(4));
    // Invoked for the round ("Invoked elements remain invoked within a given round").
    assert!(!t.state().characters[0].locked.is_empty());

    // A Stress, and two Severe Injuries: the second debilitates.
    give(
        &mut t,
        "GM",
        "stress Wren minor Winded",
        &mut Scripted::default(),
    );
    give(
        &mut t,
        "GM",
        "injury Sable severe Stabbed",
        &mut Scripted::default(),
    );
    give(
        &mut t,
        "GM",
        "injury Sable severe Shot",
        &mut Scripted::default(),
    );
    assert!(t.state().characters[1].character.debilitated());
    // A Luck gained from the Principle.
    give(
        &mut t,
        "GM",
        "luck-principle Sable",
        &mut Scripted::default(),
    );
    let wren = after_of(&t, "Wren");
    assert_eq!(wren.luck, wren_luck - 1, "Luck spent on a roll is gone");
    assert_eq!(wren.stresses.minor[0].as_deref(), Some("Winded"));
    let sable = after_of(&t, "Sable");
    assert_eq!(sable.luck, 3);
    assert_eq!(sable.injuries.severe.as_deref(), Some("Stabbed"));
    assert!(sable.injuries.debilitated);
    // Invoked elements and the sequence are not on the sheet: a new table
    // starts with nothing invoked and no sequence.
    assert!(t.state().sequence.is_some());
    let next = table_of(&[
        ("wren.toml", Sapio::sheets_after(t.state())[0].sheet.clone()),
        (
            "sable.toml",
            Sapio::sheets_after(t.state())[1].sheet.clone(),
        ),
    ]);
    assert!(next.state().characters.iter().all(|m| m.locked.is_empty()));
    assert!(next.state().sequence.is_none());
    assert_eq!(next.state().characters[0].character.luck(), wren_luck - 1);

    // Healing the Severe Injury ends the debilitation.
    let mut t = next;
    give(
        &mut t,
        "GM",
        "heal Sable injury Stabbed",
        &mut Scripted::default(),
    );
    let sable = after_of(&t, "Sable");
    assert!(sable.injuries.severe.is_none());
    assert!(!sable.injuries.debilitated);
}

#[test]
fn a_weapons_injury_left_pending_is_recorded() {
    let mut t = table_of(&[
        ("sable.toml", example("desert-commando.toml")),
        ("vance.toml", example("enforcer.toml")),
    ]);
    give(
        &mut t,
        "GM",
        "injury Vance moderate Cut",
        &mut Scripted::default(),
    );
    give(&mut t, "GM", "check Sable 3", &mut Scripted::default());
    give(
        &mut t,
        "Cy",
        "invoke \"Desert Commando\" full",
        &mut Scripted::default(),
    );
    give(
        &mut t,
        "Cy",
        "roll with \"Hunting Rifle\" at Vance",
        &mut Scripted::values(["H", "H", "H"]),
    );
    // A Moderate hit on a Moderate Injury: the GM's similarity call (R-SA-6)
    // is pending when the encounter ends.
    let p = t
        .state()
        .pending_injury
        .clone()
        .expect("the call is pending");
    assert_eq!(p.level, Level::Moderate);
    let vance = after_of(&t, "Vance");
    assert_eq!(
        vance.injuries.moderate,
        [Some("Cut".to_string()), Some(p.name.clone())],
        "recorded as of a different nature"
    );
}

// ---- Advancement -------------------------------------------------------------

fn adv(sheet: &str, seat: &str, line: &str) -> Result<String, AdvanceError> {
    let r = Sapio::advance(sheet, &Seat::parse(seat), line, &mut Scripted::default())?;
    Sapio::validate(&r.sheet).unwrap_or_else(|p| panic!("{line}: {p:?}"));
    assert!(!r.summary.is_empty());
    Ok(r.sheet)
}

fn refused_adv(sheet: &str, seat: &str, line: &str, rule: Rule) -> String {
    match Sapio::advance(sheet, &Seat::parse(seat), line, &mut Scripted::default()) {
        Err(AdvanceError::Refused { rule: r, message }) => {
            assert_eq!(r, rule, "{line}: {message}");
            message
        }
        other => panic!("{line}: expected a refusal citing {rule:?}, got {other:?}"),
    }
}

fn draft(sheet: &str) -> CharacterDraft {
    toml::from_str(sheet).unwrap()
}

/// "Special Talents": an advanced Special Talent carries its roll effect, its
/// text and its magic flag (R-SA-10) when the player gives them; the amounts
/// keep the sheet's ranges, and a word the command does not know is refused
/// as a line, not taken as part of a name.
#[test]
fn an_advanced_special_talent_carries_its_effect() {
    use tabula_sapio::character::TalentEffect;
    let due = adv(
        &example("roof-runner.toml"),
        "GM",
        "end-session consequential",
    )
    .unwrap();
    let talent = |sheet: &str, name: &str| {
        draft(sheet)
            .special_talents
            .into_iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} on the sheet"))
    };
    // The book's example: One with the Forest adds a bonus die ("with" stays
    // in the name).
    let forest = adv(
        &due,
        "Ana",
        r#"advance talent One with the Forest effect=bonus-dice text="In temperate wooded areas""#,
    )
    .unwrap();
    let t = talent(&forest, "One with the Forest");
    assert_eq!(t.effect, Some(TalentEffect::BonusDice { dice: 1 }));
    assert_eq!(t.text, "In temperate wooded areas");
    let hide = adv(
        &due,
        "Ana",
        "advance talent Blend In effect=tn-cap amount=3",
    )
    .unwrap();
    assert_eq!(
        talent(&hide, "Blend In").effect,
        Some(TalentEffect::TnCap { max: 3 })
    );
    let bloody = adv(
        &due,
        "Ana",
        "advance talent Usually Bloody effect=ignore-injury",
    )
    .unwrap();
    assert_eq!(
        talent(&bloody, "Usually Bloody").effect,
        Some(TalentEffect::IgnoreInjury)
    );
    // A name that reads as magic but is not, said so (R-SA-10).
    let not = adv(&due, "Ana", "advance talent Spell Checker magic=no").unwrap();
    assert_eq!(talent(&not, "Spell Checker").magic, Some(false));
    // A magic Talent alone is kept, marked unpaired (R-SA-12).
    let card = adv(&due, "Ana", "advance talent Card Sharp magic=yes").unwrap();
    assert_eq!(talent(&card, "Card Sharp").magic, Some(true));
    assert_eq!(draft(&card).unpaired.as_deref(), Some("Card Sharp"));
    // Out of range: the sheet's limits, "Special Talents".
    let m = refused_adv(
        &due,
        "Ana",
        "advance talent Deadly Aim effect=extra-hits amount=4",
        RULE_TALENTS,
    );
    assert!(m.contains("1 to 3"), "{m}");
    refused_adv(
        &due,
        "Ana",
        "advance talent Hide effect=tn-cap amount=6",
        RULE_TALENTS,
    );
    // Lines that do not read change nothing and say what was expected.
    for (line, says) in [
        ("advance talent Deadly Aim effect=sharp", "bonus-dice"),
        (
            "advance talent Deadly Aim effect=extra-hits amount=two",
            "whole number",
        ),
        ("advance talent Deadly Aim amount=2", "amount="),
        (
            "advance talent Usually Bloody effect=ignore-injury amount=1",
            "amount=",
        ),
        ("advance talent Odd magic=perhaps", "yes or no"),
        ("advance talent effect=extra-hits", "missing"),
    ] {
        match Sapio::advance(&due, &Seat::parse("Ana"), line, &mut Scripted::default()) {
            Err(AdvanceError::Parse { message, .. }) => {
                assert!(message.contains(says), "{line}: {message}")
            }
            other => panic!("{line}: expected a parse error, got {other:?}"),
        }
    }
}

#[test]
fn the_advancement_commands_are_documented() {
    let names: Vec<&str> = <Sapio as CharacterBook>::ADVANCEMENT
        .iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(
        names,
        [
            "end-session",
            "advance",
            "change",
            "heal",
            "rest",
            "give-luck"
        ]
    );
}

#[test]
fn an_advancement_after_a_consequential_session() {
    let wren = example("roof-runner.toml");
    // The GM marks the session; a player may not.
    refused_adv(&wren, "Ana", "end-session consequential", RULE_SEATS);
    // No advancement before a consequential session.
    refused_adv(&wren, "Ana", "advance quality Durable", RULE_SESSION);
    let due = adv(&wren, "GM", "end-session consequential").unwrap();
    assert!(draft(&due).advancement_due);
    // Another player's character, and the book's limits.
    refused_adv(&due, "Ben", "advance quality Durable", RULE_SEATS);
    refused_adv(&due, "Ana", "advance quality Lucky", RULE_QUALITIES);
    refused_adv(&due, "Ana", "advance quality agile", RULE_ELEMENTS);
    // A magic Special Talent alone is no longer refused (R-SA-12): see
    // `r_sa_12_a_magic_half_gained_alone_waits_marked_unpaired`.
    refused_adv(
        &due,
        "Ana",
        "advance side-profession Gas Station Clerk",
        RULE_PROFESSIONS,
    );
    refused_adv(
        &due,
        "Ana",
        "advance side-specialization Bike Courier Sprints",
        RULE_ADVANCEMENT,
    );
    let one = adv(&due, "Ana", "advance quality Durable").unwrap();
    let d = draft(&one);
    assert!(d.qualities.iter().any(|q| q == "Durable"));
    assert!(!d.advancement_due, "the advancement is spent");
    refused_adv(
        &one,
        "Ana",
        "advance specialization Quick Escapes",
        RULE_SESSION,
    );
    // The cycle rule: every type once before one repeats.
    let due = adv(&one, "GM", "end-session consequential").unwrap();
    refused_adv(&due, "Ana", "advance quality Likeable", RULE_ADVANCEMENT);
    // No change before a cycle is complete.
    refused_adv(&due, "Ana", "change swap Night Clerk", RULE_ADVANCEMENT);
    // The GM may act for the player; the other three types complete the cycle.
    let two = adv(
        &due,
        "GM",
        "advance side-specialization Night Clerk Haggling",
    )
    .unwrap();
    let two = adv(&two, "GM", "end-session consequential").unwrap();
    let three = adv(&two, "Ana", "advance specialization Quick Escapes").unwrap();
    let three = adv(&three, "GM", "end-session consequential").unwrap();
    let four = adv(&three, "Ana", "advance talent Weather Sense").unwrap();
    let c = parse_character(&four).unwrap();
    assert_eq!(c.cycle().completed, 1);
    // A completed cycle opens one change.
    let swapped = adv(&four, "Ana", "change swap Night Clerk").unwrap();
    let s = draft(&swapped);
    assert_eq!(s.profession.name, "Night Clerk");
    assert_eq!(s.profession.specializations, ["Haggling"]);
    refused_adv(
        &swapped,
        "Ana",
        "change quality Agile to Lithe",
        RULE_ADVANCEMENT,
    );
    let word = adv(&four, "Ana", "change word Roof Runner to Roof Dancer").unwrap();
    assert_eq!(draft(&word).profession.name, "Roof Dancer");
    refused_adv(
        &four,
        "Ana",
        "change word Roof Runner to Sky Dancer",
        RULE_ADVANCEMENT,
    );
    let q = adv(&four, "Ana", "change quality Perceptive to Lithe").unwrap();
    assert!(draft(&q).qualities.iter().any(|x| x == "Lithe"));
    // The advanced sheets still build: their drafts are complete.
    assert!(Sapio::build_view(&Sapio::draft_from_sheet(&q).unwrap()).complete);
    // An inconsequential session drops an advancement not taken (R-SA-9).
    let dropped = adv(&two, "GM", "end-session inconsequential").unwrap();
    assert!(!draft(&dropped).advancement_due);
}

#[test]
fn healing_rest_and_luck_between_sessions() {
    let mut sable = draft(&example("desert-commando.toml"));
    for (lvl, name) in [(Level::Minor, "Winded"), (Level::Severe, "Shaken")] {
        let rec = sable
            .stresses
            .plan(tabula_sapio::harm::HarmKind::Stress, lvl, name, None)
            .unwrap();
        sable.stresses.apply(&rec);
    }
    for name in ["Stabbed", "Shot"] {
        let rec = sable
            .injuries
            .plan(
                tabula_sapio::harm::HarmKind::Injury,
                Level::Severe,
                name,
                None,
            )
            .unwrap();
        sable.injuries.apply(&rec);
    }
    assert!(sable.injuries.debilitated);
    let sheet = toml::to_string(&sable).unwrap();
    Sapio::validate(&sheet).unwrap();
    // Healing is the GM's call.
    refused_adv(&sheet, "Cy", "heal injury Stabbed", RULE_SEATS);
    refused_adv(&sheet, "GM", "heal injury Bruise", RULE_INJURIES);
    let healed = adv(&sheet, "GM", "heal injury stabbed").unwrap();
    let h = draft(&healed);
    assert!(h.injuries.severe.is_none());
    assert!(!h.injuries.debilitated, "no Severe left: not debilitated");
    // Rest clears every Stress, and only Stresses.
    refused_adv(&sheet, "Cy", "rest", RULE_SEATS);
    let rested = adv(&healed, "GM", "rest").unwrap();
    let r = draft(&rested);
    assert!(r.stresses.is_clear());
    assert_eq!(r.injuries, h.injuries);
    refused_adv(&rested, "GM", "rest", RULE_INJURIES);
    // Luck from the GM, within the table's cap.
    let lucky = adv(&sheet, "GM", "give-luck 3").unwrap();
    assert_eq!(draft(&lucky).luck, sable.luck + 3);
    refused_adv(&sheet, "Cy", "give-luck 1", RULE_SEATS);
    refused_adv(&sheet, "GM", "give-luck 99", RULE_LUCK);
}

#[test]
fn the_dead_do_not_advance_and_bad_lines_are_parse_errors() {
    let mut vance = draft(&example("enforcer.toml"));
    vance.dead = true;
    let sheet = toml::to_string(&vance).unwrap();
    refused_adv(&sheet, "GM", "end-session consequential", RULE_WEAPONS);
    let wren = example("roof-runner.toml");
    for line in [
        "",
        "fly",
        "advance",
        "advance quality",
        "advance levitation Up",
        "change word Roof Runner",
        "give-luck x",
        "give-luck 0",
        "heal wound Cut",
        "end-session maybe",
        "rest now",
    ] {
        match Sapio::advance(&wren, &Seat::Gm, line, &mut Scripted::default()) {
            Err(AdvanceError::Parse { usage, .. }) => assert!(usage.contains("end-session")),
            other => panic!("{line:?}: {other:?}"),
        }
    }
    // A sheet that does not validate is refused whole.
    let broken = wren.replace("Roof Runner", "Gas Station Clerk");
    assert!(matches!(
        Sapio::advance(&broken, &Seat::Gm, "rest", &mut Scripted::default()),
        Err(AdvanceError::Sheet { .. })
    ));
}

/// R-SA-12: a magic Quality and its magic Special Talent may be gained one
/// advancement apart: the first alone is kept, marked unpaired, gives nothing
/// until the pair is complete; the sheet round-trips and validates; a sheet
/// at creation may not hold a half marked unpaired.
#[test]
fn r_sa_12_a_magic_half_gained_alone_waits_marked_unpaired() {
    let wren = example("roof-runner.toml");
    let due = adv(&wren, "GM", "end-session consequential").unwrap();
    // The Quality first, alone: kept and marked.
    let r = Sapio::advance(
        &due,
        &Seat::parse("Ana"),
        "advance quality Magically Trained",
        &mut Scripted::default(),
    )
    .unwrap();
    assert!(r.summary.contains("unpaired"), "{}", r.summary);
    let half = r.sheet;
    let d = draft(&half);
    assert!(d.qualities.iter().any(|q| q == "Magically Trained"));
    assert_eq!(d.unpaired.as_deref(), Some("Magically Trained"));
    Sapio::validate(&half).unwrap();
    let c = parse_character(&half).unwrap();
    assert!(c.is_unpaired("magically trained"));
    // The sheet round-trips through the builder, which shows the mark.
    let back = Sapio::draft_from_sheet(&half).unwrap();
    assert_eq!(draft(&Sapio::draft_sheet(&back)), d);
    let view = Sapio::build_view(&back);
    assert!(view.complete, "{:?}", view.problems);
    assert!(view.derived.iter().any(|x| x.name == "Unpaired"));
    // Its Special Talent, at the next advancement, completes the pair.
    let due = adv(&half, "GM", "end-session consequential").unwrap();
    let pair = adv(
        &due,
        "Ana",
        r#"advance talent Spellcaster text="This character can cast magical spells""#,
    )
    .unwrap();
    let d = draft(&pair);
    assert_eq!(d.unpaired, None);
    assert!(d.special_talents.iter().any(|t| t.name == "Spellcaster"));
    assert!(
        !parse_character(&pair)
            .unwrap()
            .is_unpaired("Magically Trained")
    );
    // The Talent first works the same way.
    let due = adv(&wren, "GM", "end-session consequential").unwrap();
    let talent = adv(&due, "Ana", "advance talent Spellcaster").unwrap();
    assert_eq!(draft(&talent).unpaired.as_deref(), Some("Spellcaster"));
    let due = adv(&talent, "GM", "end-session consequential").unwrap();
    let pair = adv(&due, "Ana", "advance quality Magical").unwrap();
    assert_eq!(draft(&pair).unpaired, None);
    // At creation a lone half is still refused, marked or not (R-SA-10).
    let lone = wren.replace(
        "qualities = [\"Agile\", \"Perceptive\"]",
        "qualities = [\"Agile\", \"Magical\"]\nunpaired = \"Magical\"",
    );
    assert!(lone.contains("unpaired"));
    let problems = Sapio::validate(&lone).unwrap_err();
    assert!(
        problems.iter().any(|p| p.rule == RULE_MAGIC),
        "{problems:?}"
    );
    // A mark naming no magic half of the sheet is refused (R-SA-12).
    let stray = half.replace("unpaired = \"Magically Trained\"", "unpaired = \"Agile\"");
    assert_ne!(stray, half);
    let problems = Sapio::validate(&stray).unwrap_err();
    assert!(
        problems.iter().any(|p| p.rule.ruling == Some("R-SA-12")),
        "{problems:?}"
    );
}
