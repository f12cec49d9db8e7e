//! Characters outside the table ([`tabula_core::CharacterBook`]): creation in
//! the book's order, its refusals agreeing with `character validate`, the
//! book's example character, the sheet an encounter leaves and the
//! Experience table rule between sessions.

mod common;

use std::collections::BTreeMap;

use common::*;
use proptest::prelude::*;
use tabula_core::builder::{complete_greedily, finished_validates, random_build, refusal_agrees};
use tabula_core::files::InMemoryFiles;
use tabula_core::{
    AdvanceError, BuildRefusal, CharacterBook, FieldKind, FieldValue, Policy, Rule, Scripted, Seat,
    Seeded, System, TextPlay,
};
use tabula_sour_grapes::builder::Draft;
use tabula_sour_grapes::character::Character;
use tabula_sour_grapes::rules;
use tabula_sour_grapes::state::State;
use tabula_sour_grapes::{SourGrapes, Stat};

type B = SourGrapes;

fn int(n: i64) -> FieldValue {
    FieldValue::Int(n)
}

fn text(t: &str) -> FieldValue {
    FieldValue::Text(t.into())
}

fn set(d: &mut Draft, key: &str, v: FieldValue) {
    B::set(d, key, &v).unwrap_or_else(|e| panic!("{key} = {v}: {e}"));
}

/// The rule `set` cites when it refuses `v` for `key`, after checking the
/// draft is unchanged and `validate` cites the same rule for the forced draft.
fn refused(d: &Draft, key: &str, v: FieldValue) -> Rule {
    let mut tried = d.clone();
    let err = B::set(&mut tried, key, &v)
        .err()
        .unwrap_or_else(|| panic!("{key} = {v} was accepted"));
    assert_eq!(&tried, d, "{key}: the draft changed");
    refusal_agrees::<B>(d, key, &v).unwrap();
    match err {
        BuildRefusal::Broken { problem, .. } => problem.rule,
        other => panic!("{key} = {v}: not a broken rule: {other}"),
    }
}

/// A table of one character whose sheet is `sheet`, read through in-memory
/// files as the server reads uploads.
fn sets_up(sheet: &str) -> State {
    let files = InMemoryFiles(BTreeMap::from([("pc.toml".to_string(), sheet.to_string())]));
    let table = "title = \"new character\"\n[[participant]]\nfile = \"pc.toml\"\nseat = \"Sam\"\n";
    B::setup(table, &files).unwrap_or_else(|e| panic!("{e}\n{sheet}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Random walks through the builder: every refusal agrees with
    /// `validate` (same rule), the draft then completes greedily and its
    /// sheet validates and sets up at a table.
    #[test]
    fn random_builds_agree_with_validate(picks in prop::collection::vec(any::<u64>(), 0..80)) {
        let draft = random_build::<B>(&picks).map_err(TestCaseError::fail)?;
        let view = B::build_view(&draft);
        prop_assert!(view.complete, "{:?}", view.problems);
        let sheet = B::finish(&draft).map_err(|p| TestCaseError::fail(format!("{p:?}")))?;
        let state = sets_up(&sheet);
        prop_assert_eq!(state.participants.len(), 1);
        // The sheet reads back as the same draft and the same sheet.
        let back = B::draft_from_sheet(&sheet).map_err(|p| TestCaseError::fail(format!("{p:?}")))?;
        prop_assert_eq!(
            Character::from_toml(&B::draft_sheet(&back)).ok(),
            Character::from_toml(&sheet).ok()
        );
    }

    /// Any draft's sheet: `validate` accepts exactly what the builder calls
    /// complete, and `finish` agrees.
    #[test]
    fn complete_means_valid(picks in prop::collection::vec(any::<u64>(), 0..40)) {
        let mut d = Draft::default();
        for p in &picks {
            let view = B::build_view(&d);
            let fields: Vec<_> = view.steps.iter().flat_map(|s| &s.fields).collect();
            let f = fields[(*p as usize) % fields.len()];
            let v = tabula_core::builder::legal_value(&f.kind, p >> 7, false);
            let _ = B::set(&mut d, &f.key, &v);
            finished_validates::<B>(&d).map_err(TestCaseError::fail)?;
            let view = B::build_view(&d);
            if view.complete {
                prop_assert!(B::validate(&B::draft_sheet(&d)).is_ok());
            }
        }
    }
}

/// `complete_greedily` from the empty draft reaches a complete character for
/// many seeds, and each sets up at a table with every card of the table.
#[test]
fn greedy_completion_reaches_a_legal_character() {
    for seed in 0..200u64 {
        let mut d = Draft::default();
        assert!(complete_greedily::<B>(&mut d, seed), "seed {seed}");
        let sheet = B::finish(&d).unwrap();
        assert!(B::validate(&sheet).is_ok());
        let state = sets_up(&sheet);
        let p = &state.participants[0];
        assert_eq!(p.seat, Seat::Player("Sam".into()));
        assert!(p.cards.iter().any(|c| c == "Attack"));
    }
}

/// The steps follow the book's Character Creation in order, every field has
/// the book's range, and an empty draft is unfinished, not broken.
#[test]
fn steps_follow_the_book() {
    let view = B::build_view(&Draft::default());
    let ids: Vec<&str> = view.steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["who", "stats", "skills", "cards"]);
    assert_eq!(view.next.as_deref(), Some("who"));
    assert!(!view.complete);
    assert!(
        view.problems.iter().all(|p| p.unfinished),
        "{:?}",
        view.problems
    );
    assert!(view.budgets.is_empty(), "the book sets no point budget");
    let stats = &view.steps[1];
    assert_eq!(stats.fields.len(), 9);
    for (f, s) in stats.fields.iter().zip(Stat::ALL) {
        assert_eq!(f.key, format!("stats.{}", s.name()));
        assert_eq!(f.kind, FieldKind::Int { min: 1, max: 10 });
        assert!(f.help.contains(s.description()), "{}", f.help);
    }
    assert!(stats.help.contains("Random Adult Human Average"));
    let (_, new_skill) = view.field("skills.0.name").unwrap();
    assert!(!new_skill.required);
    let (_, cards) = view.field("cards").unwrap();
    match &cards.kind {
        FieldKind::Multi { options, .. } => {
            let names: Vec<&str> = options.iter().map(|o| o.value.as_str()).collect();
            assert_eq!(
                names,
                [
                    "Attack",
                    "Sand Strike",
                    "Flame Weapon",
                    "Shove",
                    "Dodge",
                    "Trained Breathing"
                ]
            );
        }
        other => panic!("{other:?}"),
    }
}

/// The book's example character: the stat sheet of "Stats" (Agility 5,
/// Might 3, Knowledge 4, Perception 6, Prestige 2, Resolve 4, Spirit 2,
/// Stamina 4, Vitality 6) and the skill sheet of "Skills" (the book prints
/// no ratings: ours are those of `example-character.toml`), built through
/// `set` and giving the same numbers as the book and the example sheet.
#[test]
fn the_books_example_character() {
    let mut d = Draft::default();
    set(&mut d, "name", text("Example Player"));
    set(
        &mut d,
        "concept",
        text("The rule book's example character sheet"),
    );
    let book = [5, 3, 4, 6, 2, 4, 2, 4, 6];
    for (s, v) in Stat::ALL.iter().zip(book) {
        set(&mut d, &format!("stats.{}", s.name()), int(v));
    }
    let skills = [
        ("fencing", 3),
        ("acrobatics", 2),
        ("handguns", 2),
        ("Stunt driving", 1),
        ("boxing", 2),
        ("persuasion", 3),
        ("luxury", 1),
        ("electronics", 1),
    ];
    for (i, (name, rating)) in skills.iter().enumerate() {
        set(&mut d, &format!("skills.{i}.name"), text(name));
        assert!(
            !B::build_view(&d).complete,
            "a skill without a rating is unfinished"
        );
        set(&mut d, &format!("skills.{i}.rating"), int(*rating));
    }
    let view = B::build_view(&d);
    assert!(view.complete, "{:?}", view.problems);
    let derived = |name: &str| {
        view.derived
            .iter()
            .find(|x| x.name.starts_with(name))
            .map(|x| x.value.clone())
            .unwrap()
    };
    assert_eq!(derived("Stat total"), "36");
    assert_eq!(derived("Stats chosen"), "9 of 9");
    assert_eq!(derived("Skill tokens"), "15");
    assert_eq!(derived("Skill page"), "8 lines, page 1");
    assert_eq!(derived("Conditions"), "none");
    let made = Character::from_toml(&B::finish(&d).unwrap()).unwrap();
    let printed = std::fs::read_to_string(examples().join("example-character.toml")).unwrap();
    let printed = Character::from_toml(&printed).unwrap();
    for s in Stat::ALL {
        assert_eq!(made.stat(s).actual, printed.stat(s).actual, "{s}");
        // A new sheet: every die coloured in, no Injury (the book's injured
        // Resolve is its example of play, not of creation).
        assert_eq!(made.stat(s).current, made.stat(s).actual);
        assert!(!made.stat(s).injured);
    }
    assert_eq!(made.skills(), printed.skills());
    assert_eq!(made.name(), printed.name());
    // Imported back, the printed sheet keeps its injured Resolve.
    let text = std::fs::read_to_string(examples().join("example-character.toml")).unwrap();
    let imported = B::draft_from_sheet(&text).unwrap();
    let again = Character::from_toml(&B::draft_sheet(&imported)).unwrap();
    assert_eq!(again, printed);
    let view = B::build_view(&imported);
    assert!(view.complete);
    assert_eq!(
        view.field("stats.Resolve").unwrap().1.value,
        Some(FieldValue::Int(4))
    );
}

/// Refusals name the rule, change nothing, and `validate` refuses the same
/// forced value under the same rule. The book sets no budget, so what is
/// refused is out of range (Stats 1-10, Skills 1-5) or an illegal
/// combination (a skill twice, a card twice).
#[test]
fn refusals_name_the_rule() {
    let mut d = Draft::default();
    assert_eq!(refused(&d, "stats.Agility", int(11)), rules::STATS);
    assert_eq!(refused(&d, "stats.Agility", int(0)), rules::STATS);
    assert_eq!(refused(&d, "name", text("Bad\u{7}Name")), rules::CREATION);
    // A blank name is no name yet: unfinished, not broken.
    let mut blank = d.clone();
    set(&mut blank, "name", text("   "));
    assert_eq!(blank.name, None);
    set(&mut d, "skills.0.name", text("fencing"));
    assert_eq!(refused(&d, "skills.0.rating", int(6)), rules::SKILL_SHEET);
    assert_eq!(refused(&d, "skills.0.rating", int(0)), rules::SKILL_SHEET);
    // Illegal combination: the same skill twice (any case).
    assert_eq!(
        refused(&d, "skills.1.name", text("Fencing")),
        rules::SKILL_SHEET
    );
    assert_eq!(
        refused(
            &d,
            "cards",
            FieldValue::List(vec!["Attack".into(), "Attack".into()])
        ),
        rules::HAND
    );
    // Not of the field's kind: refused without a rule, nothing changes.
    for (key, v) in [
        ("stats.Agility", text("five")),
        ("name", int(3)),
        ("monster", text("dragon")),
        ("cards", FieldValue::List(vec!["Fireball".into()])),
        ("name", text(&"x".repeat(65))),
    ] {
        let mut tried = d.clone();
        assert!(matches!(
            B::set(&mut tried, key, &v),
            Err(BuildRefusal::BadValue { .. })
        ));
        assert_eq!(tried, d);
    }
    let mut tried = d.clone();
    assert!(matches!(
        B::set(&mut tried, "stats.Luck", &int(3)),
        Err(BuildRefusal::UnknownField { .. })
    ));
    assert!(matches!(
        B::set(&mut tried, "skills.5.rating", &int(3)),
        Err(BuildRefusal::UnknownField { .. })
    ));
    // Clearing a skill's name takes the skill off the sheet.
    B::clear(&mut d, "skills.0.name").unwrap();
    assert!(d.skills.is_empty());
    // A broken sheet: every problem, each with its rule.
    let problems = B::validate("name = \"\"\n[stats]\nagility = 11\n").unwrap_err();
    assert!(problems.iter().any(|p| p.rule == rules::CREATION));
    assert!(problems.iter().any(|p| p.rule == rules::STATS));
    let toml = B::validate("name = [").unwrap_err();
    assert_eq!(toml.len(), 1);
}

/// A saved sheet with cards, comparables and effects sets up with them; a
/// table file's list wins over the sheet's cards.
#[test]
fn the_sheets_cards_comparables_and_effects_reach_the_table() {
    let sheet = r#"
name = "Rook"
cards = ["Attack", "Dodge"]
comparable = { Swords = "Ninjitsu" }
effects = [{ card = "Intoxicated", tokens = 2 }]
[stats]
agility = 5
might = 3
knowledge = 4
perception = 7
prestige = 3
resolve = 4
spirit = 4
stamina = 4
vitality = 5
[[skills]]
name = "Ninjitsu"
rating = 2
notes = "the old ways"
"#;
    assert_eq!(B::validate(sheet).unwrap(), "Rook");
    let state = sets_up(sheet);
    let p = &state.participants[0];
    assert_eq!(p.cards, ["Attack", "Dodge"]);
    assert_eq!(
        p.comparable.get("Swords").map(String::as_str),
        Some("Ninjitsu")
    );
    assert_eq!(p.effects.len(), 1);
    assert_eq!(
        (p.effects[0].card.as_str(), p.effects[0].tokens),
        ("Intoxicated", 2)
    );
    // Nothing happened: the same sheet comes back.
    let after = B::sheets_after(&state);
    assert_eq!(
        Character::from_toml(&after[0].sheet).unwrap(),
        Character::from_toml(sheet).unwrap()
    );
    assert!(after[0].sheet.contains("the old ways"));
    // The table file's cards win at that table.
    let files = InMemoryFiles(BTreeMap::from([("pc.toml".to_string(), sheet.to_string())]));
    let table = "[[participant]]\nfile = \"pc.toml\"\nseat = \"Ana\"\ncards = [\"Shove\"]\n";
    let state = B::setup(table, &files).unwrap();
    assert_eq!(state.participants[0].cards, ["Shove"]);
    // Broken lists are refused by validate with their rules.
    let bad = sheet.replace("Ninjitsu\" }", "Fencing\" }");
    let problems = B::validate(&bad).unwrap_err();
    assert!(
        problems.iter().any(|p| p.rule == rules::SKILL_SHEET),
        "{problems:?}"
    );
    let bad = sheet.replace("tokens = 2", "tokens = 500");
    let problems = B::validate(&bad).unwrap_err();
    assert!(
        problems.iter().any(|p| p.rule == rules::EFFECTS),
        "{problems:?}"
    );
}

fn example_sheets() -> BTreeMap<String, Character> {
    ["example-character", "rook", "tavern-brute", "drunk-sailor"]
        .iter()
        .map(|f| {
            let t = std::fs::read_to_string(examples().join(format!("{f}.toml"))).unwrap();
            let c = Character::from_toml(&t).unwrap();
            (c.name().to_string(), c)
        })
        .collect()
}

/// Nothing happened at the table: every sheet comes back as it was, except
/// the Drunk Sailor, whom the table file put in play Intoxicated (a negative
/// effect, which lasts).
#[test]
fn nothing_happened_gives_the_same_characters() {
    let t = example_table();
    let after = B::sheets_after(t.state());
    let before = example_sheets();
    assert_eq!(after.len(), 4);
    for s in &after {
        let c = Character::from_toml(&s.sheet).unwrap();
        if s.name == "Drunk Sailor" {
            assert_eq!(c.effects().len(), 1);
            assert_eq!(c.effects()[0].card, "Intoxicated");
            assert_eq!(c.effects()[0].tokens, Some(4));
            let mut d = c.to_draft();
            d.effects.clear();
            assert_eq!(Character::from_draft(d).unwrap(), before[&s.name]);
        } else {
            assert_eq!(c, before[&s.name], "{}", s.name);
        }
    }
}

/// After the example session (`encounter.script`, seed 1): the Experience
/// spent shows (fencing 3 -> 4, Attack +1 damage, no points left), the
/// injuries and effects that last are on the sheets, and the sheets set up
/// at the same table again.
#[test]
fn the_example_session_leaves_its_lasting_changes() {
    let mut t = example_table();
    let script = std::fs::read_to_string(examples().join("encounter.script")).unwrap();
    let mut roller = Seeded::from_seed(1);
    for line in script
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        give(&mut t, line, &mut roller);
    }
    let state = t.state();
    let after = B::sheets_after(state);
    let sheets: BTreeMap<String, Character> = after
        .iter()
        .map(|s| (s.name.clone(), Character::from_toml(&s.sheet).unwrap()))
        .collect();
    let hero = &sheets["Example Player"];
    assert_eq!(hero.skill("fencing").unwrap().rating, 4);
    assert_eq!(hero.card_bonus("Attack").damage, 1);
    assert_eq!(hero.experience(), 0);
    let before = example_sheets();
    let mut changed = false;
    for p in &state.participants {
        let c = &sheets[p.character.name()];
        for s in Stat::ALL {
            assert_eq!(c.stat(s), p.character.stat(s), "{} {s}", c.name());
        }
        let lasting: Vec<&str> = p
            .effects
            .iter()
            .filter(|e| e.card != "Trained Breathing")
            .map(|e| e.card.as_str())
            .collect();
        let written: Vec<&str> = c.effects().iter().map(|e| e.card.as_str()).collect();
        assert_eq!(written, lasting, "{}", c.name());
        changed |= Stat::ALL
            .iter()
            .any(|s| c.stat(*s) != before[c.name()].stat(*s));
    }
    assert!(changed, "the brawl left no mark");
    // The sheets go back to the same table.
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for (file, s) in ["example-character", "rook", "tavern-brute", "drunk-sailor"]
        .iter()
        .zip(&after)
    {
        files.insert(format!("{file}.toml"), s.sheet.clone());
    }
    let table = std::fs::read_to_string(examples().join("table.toml")).unwrap();
    let again = B::setup(&table, &InMemoryFiles(files)).unwrap();
    for (p, q) in again.participants.iter().zip(&state.participants) {
        assert_eq!(
            p.character.stat(Stat::Vitality),
            q.character.stat(Stat::Vitality)
        );
        for e in &p.effects {
            assert!(q.effects.contains(e) || e.card == "Intoxicated", "{e:?}");
        }
    }
}

/// A Situation the end of the encounter cut short gives its held tokens back.
#[test]
fn a_situation_cut_short_gives_its_tokens_back() {
    let mut t = example_table();
    let mut none = Scripted::dice([]);
    give(
        &mut t,
        "gm: situation 20 Prestige with \"Fast Talking\" as Rook",
        &mut none,
    );
    let mut dice = Scripted::dice([6, 6, 6]);
    give(
        &mut t,
        "Ana: check Prestige 3 2 vs 2 with \"Fast Talking\"",
        &mut dice,
    );
    let rook = t.state().participant("Rook").unwrap();
    assert_eq!(rook.character.skill("Fast Talking").unwrap().available, 0);
    give(&mut t, "gm: end-encounter", &mut none);
    let after = B::sheets_after(t.state());
    let rook = Character::from_toml(&after[1].sheet).unwrap();
    assert_eq!(rook.skill("Fast Talking").unwrap().available, 2);
}

fn hero() -> String {
    std::fs::read_to_string(examples().join("example-character.toml")).unwrap()
}

fn gm() -> Seat {
    Seat::Gm
}

fn sam() -> Seat {
    Seat::Player("Sam".into())
}

fn advance(sheet: &str, seat: &Seat, line: &str) -> Result<String, AdvanceError> {
    let mut none = Scripted::dice([]);
    let out = B::advance(sheet, seat, line, &mut none)?;
    assert!(B::validate(&out.sheet).is_ok(), "{}", out.sheet);
    assert!(!out.summary.is_empty());
    Ok(out.sheet)
}

fn refusal_rule(r: Result<String, AdvanceError>) -> Rule {
    match r {
        Err(AdvanceError::Refused { rule, .. }) => rule,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The Experience table rule as the example session plays it: the storyteller
/// awards 2 points at the chapter's end; the player raises fencing and makes
/// Attack deal one more damage; a third point is refused.
#[test]
fn experience_between_sessions() {
    let sheet = hero();
    let s = advance(&sheet, &gm(), "award 2").unwrap();
    assert_eq!(Character::from_toml(&s).unwrap().experience(), 2);
    let mut none = Scripted::dice([]);
    let out = B::advance(&s, &sam(), "raise fencing", &mut none).unwrap();
    assert_eq!(
        out.summary,
        "fencing 3 -> 4 for 1 experience point (1 left)"
    );
    let s = advance(&out.sheet, &sam(), "improve Attack damage").unwrap();
    let c = Character::from_toml(&s).unwrap();
    assert_eq!(c.skill("fencing").unwrap().rating, 4);
    assert_eq!(c.card_bonus("Attack").damage, 1);
    assert_eq!(c.experience(), 0);
    assert_eq!(
        refusal_rule(advance(&s, &sam(), "raise Agility")),
        rules::EXPERIENCE
    );
    // A new skill starts at 1; a stat gains a fresh point (Actual and Current).
    let s = advance(&sheet, &gm(), "award 3").unwrap();
    let s = advance(&s, &sam(), "raise \"Fire Magic\"").unwrap();
    let s = advance(&s, &sam(), "raise Strength").unwrap();
    let s = advance(&s, &gm(), "raise Agility as \"Example Player\"").unwrap();
    let c = Character::from_toml(&s).unwrap();
    assert_eq!(c.skill("Fire Magic").unwrap().rating, 1);
    assert_eq!(
        (c.stat(Stat::Might).actual, c.stat(Stat::Might).current),
        (4, 4)
    );
    assert_eq!(c.stat(Stat::Agility).actual, 6);
    assert_eq!(c.experience(), 0);
}

/// Refusals: the storyteller's commands from a player, past the book's
/// limits, nothing to spend, not an advancement command; each names the rule.
#[test]
fn advancement_refusals_name_the_rule() {
    let sheet = hero();
    // GM only.
    for line in ["award 2", "heal Resolve", "rest"] {
        let rule = refusal_rule(advance(&sheet, &sam(), line));
        assert!(
            rule == rules::EXPERIENCE || rule == rules::STAT_MECHANICS,
            "{line}"
        );
    }
    // Limits of the book: a stat is at most 10, a skill at most 5.
    let mut s = advance(&sheet, &gm(), "award 20").unwrap();
    for _ in 6..10 {
        s = advance(&s, &sam(), "raise Perception").unwrap();
    }
    assert_eq!(
        refusal_rule(advance(&s, &sam(), "raise Perception")),
        rules::STATS
    );
    for _ in 0..2 {
        s = advance(&s, &sam(), "raise fencing").unwrap();
    }
    assert_eq!(
        refusal_rule(advance(&s, &sam(), "raise fencing")),
        rules::SKILLS
    );
    // Dodge's value is a `*`: it cannot be made easier; it deals no damage.
    assert_eq!(
        refusal_rule(advance(&s, &sam(), "improve Dodge easier")),
        rules::EXPERIENCE
    );
    assert_eq!(
        refusal_rule(advance(&s, &sam(), "improve Dodge damage")),
        rules::EXPERIENCE
    );
    // Award limits: 1 to 100 at a time.
    assert_eq!(
        refusal_rule(advance(&sheet, &gm(), "award 0")),
        rules::EXPERIENCE
    );
    assert_eq!(
        refusal_rule(advance(&sheet, &gm(), "award 101")),
        rules::EXPERIENCE
    );
    // Healing a stat that is not injured.
    assert_eq!(
        refusal_rule(advance(&sheet, &gm(), "heal Agility")),
        rules::STAT_MECHANICS
    );
    // Not an advancement command, or nothing to name.
    assert!(matches!(
        advance(&sheet, &gm(), "stunt Attack"),
        Err(AdvanceError::Parse { .. })
    ));
    assert!(matches!(
        advance(&sheet, &gm(), "heal Luck"),
        Err(AdvanceError::Parse { .. })
    ));
    assert!(matches!(
        advance(&sheet, &gm(), "cure Intoxicated"),
        Err(AdvanceError::Parse { .. }) | Err(AdvanceError::Refused { .. })
    ));
    // A broken sheet is refused as it is.
    assert!(matches!(
        advance("name = \"x\"", &gm(), "rest"),
        Err(AdvanceError::Sheet { .. })
    ));
    // The list of commands: the storyteller's are marked so.
    let gm_only: Vec<&str> = <B as CharacterBook>::ADVANCEMENT
        .iter()
        .filter(|c| c.giver == tabula_core::Giver::Gm)
        .map(|c| c.name)
        .collect();
    assert_eq!(gm_only, ["award", "heal", "rest", "cure"]);
}

/// The storyteller's care between sessions: the book's injured Resolve
/// (Actual 4, Current 2) does not recover with rest until healed; then it does.
#[test]
fn heal_and_rest_as_the_book_says() {
    let sheet = hero();
    let rested = advance(&sheet, &gm(), "rest").unwrap();
    let c = Character::from_toml(&rested).unwrap();
    assert_eq!(
        (c.stat(Stat::Resolve).current, c.stat(Stat::Resolve).injured),
        (2, true)
    );
    let healed = advance(&rested, &gm(), "heal Resolve").unwrap();
    let c = Character::from_toml(&healed).unwrap();
    assert_eq!(
        (c.stat(Stat::Resolve).current, c.stat(Stat::Resolve).injured),
        (2, false)
    );
    let rested = advance(&healed, &gm(), "rest").unwrap();
    let c = Character::from_toml(&rested).unwrap();
    assert_eq!(c.stat(Stat::Resolve).current, 4);
    // An effect that lasts is taken out of play by the storyteller.
    let with = &sheet.replace(
        "[stats]",
        "effects = [{ card = \"Bleeding\", tokens = 2 }]\n\n[stats]",
    );
    assert_eq!(Character::from_toml(with).unwrap().effects().len(), 1);
    assert_eq!(
        refusal_rule(advance(with, &sam(), "cure Bleeding")),
        rules::EFFECTS
    );
    let raised = advance(with, &gm(), "award 1").unwrap();
    assert_eq!(Character::from_toml(&raised).unwrap().effects().len(), 1);
    let cured = advance(with, &gm(), "cure Bleeding").unwrap();
    assert!(Character::from_toml(&cured).unwrap().effects().is_empty());
}

/// A random line from a pool of storyteller and player commands (refusals
/// are fine: they change nothing).
fn random_line(pick: u64) -> String {
    let who = ["Example Player", "Rook", "Tavern Brute", "Drunk Sailor"][(pick % 4) as usize];
    let stat =
        ["Agility", "Might", "Perception", "Vitality", "Resolve"][((pick >> 3) % 5) as usize];
    let n = (pick >> 8) % 4;
    match (pick >> 12) % 10 {
        0 => format!("gm: spend {stat} as \"{who}\""),
        1 => format!(
            "gm: situation {} {stat} with \"Fast Talking\" as Rook",
            n + 3
        ),
        2 => format!("Ana: check {stat} {n} 1 vs {n} with \"Fast Talking\""),
        3 => format!("gm: afflict Bleeding as \"{who}\""),
        4 => format!("gm: award {} as \"{who}\"", n + 1),
        5 => "Sam: raise fencing".into(),
        6 => format!("gm: heal {stat} as \"{who}\""),
        7 => "gm: event".into(),
        8 => "gm: end-encounter".into(),
        _ => "gm: rest".into(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The sheets after any reachable state (random storyteller and player
    /// lines, then the policy's play for a random number of steps) validate
    /// and set up at the same table again.
    #[test]
    fn sheets_after_any_state_validate(seed in any::<u64>(), lines in prop::collection::vec(any::<u64>(), 0..12), steps in 0usize..300) {
        let mut t = example_table();
        let mut roller = Seeded::from_seed(seed);
        for l in &lines {
            let _ = try_give(&mut t, &random_line(*l), &mut roller);
        }
        let mut state = t.state().clone();
        for _ in 0..steps {
            if B::finished(&state) {
                break;
            }
            let waiting = B::awaiting(&state);
            let Some(first) = waiting.first() else { break };
            let Some(cmd) = B::suggest_for(&state, first) else { break };
            let Ok(events) = B::decide(&state, &first.seat, &cmd, &mut roller) else { break };
            for e in &events {
                B::evolve(&mut state, e);
            }
        }
        let after = B::sheets_after(&state);
        prop_assert_eq!(after.len(), state.participants.len());
        let mut files = BTreeMap::new();
        for (file, s) in ["example-character", "rook", "tavern-brute", "drunk-sailor"].iter().zip(&after) {
            prop_assert!(B::validate(&s.sheet).is_ok(), "{:?}\n{}", B::validate(&s.sheet), s.sheet);
            let back = B::draft_from_sheet(&s.sheet).map_err(|p| TestCaseError::fail(format!("{p:?}")))?;
            prop_assert!(B::build_view(&back).complete);
            files.insert(format!("{file}.toml"), s.sheet.clone());
        }
        let table = std::fs::read_to_string(examples().join("table.toml")).unwrap();
        prop_assert!(B::setup(&table, &InMemoryFiles(files)).is_ok());
    }
}

/// Drafts travel as JSON (the engine saves them so): an empty draft, a
/// finished one and an imported mid-game sheet read back the same.
#[test]
fn drafts_round_trip_as_json() {
    let mut built = Draft::default();
    assert!(complete_greedily::<B>(&mut built, 7));
    set(&mut built, "skills.0.name", text("fencing"));
    let imported = B::draft_from_sheet(&hero()).unwrap();
    for d in [Draft::default(), built, imported] {
        let json = serde_json::to_string(&d).unwrap();
        let back: Draft = serde_json::from_str(&json).unwrap();
        assert_eq!(back, d, "{json}");
    }
}

/// Step 1's "Player character or monster" shows the choice made, either
/// way, and a sheet read back keeps it ("Monsters").
#[test]
fn the_character_or_monster_choice_is_shown_back_either_way() {
    for (choice, monster) in [("character", false), ("monster", true)] {
        let mut d = Draft::default();
        set(&mut d, "monster", text(choice));
        let view = B::build_view(&d);
        let (_, field) = view.field("monster").expect("the monster field");
        assert_eq!(field.value, Some(text(choice)));
        let sheet = B::draft_sheet(&d);
        let back = B::draft_from_sheet(&sheet).expect("the draft's sheet reads back");
        let (_, field) = B::build_view(&back)
            .field("monster")
            .map(|(s, f)| (s.clone(), f.clone()))
            .unwrap();
        assert_eq!(field.value, Some(text(choice)), "monster = {monster}");
    }
}

/// R-SG-13: a stat spent to zero is injured; the storyteller heals it while it
/// is still at zero (the table accepts that); the sheet the encounter leaves
/// validates and sets up at the next table, at zero and not injured.
#[test]
fn r_sg_13_a_stat_healed_at_zero_leaves_a_sheet_the_next_table_accepts() {
    let mut t = example_table();
    let mut none = Scripted::dice([]);
    give(&mut t, "Sam: spend Prestige", &mut none);
    give(&mut t, "Sam: spend Prestige", &mut none);
    let p = t.state().participant("Example Player").unwrap();
    assert_eq!(p.character.stat(Stat::Prestige).current, 0);
    assert!(p.character.stat(Stat::Prestige).injured);
    give(&mut t, "gm: heal Prestige as \"Example Player\"", &mut none);
    give(&mut t, "gm: end-encounter", &mut none);
    let after = B::sheets_after(t.state());
    let hero = after.iter().find(|s| s.name == "Example Player").unwrap();
    assert_eq!(B::validate(&hero.sheet), Ok("Example Player".to_string()));
    let again = sets_up(&hero.sheet);
    let prestige = again.participants[0].character.stat(Stat::Prestige);
    assert_eq!((prestige.current, prestige.injured), (0, false));
}

/// R-SG-13 between sessions: `heal` of a stat at zero is accepted, and the
/// stat then recovers as an uninjured stat does (a rest).
#[test]
fn r_sg_13_heal_at_zero_between_sessions_then_a_rest_recovers() {
    let sheet = hero().replace(
        "prestige = 2",
        "prestige = { actual = 2, current = 0, injured = true }",
    );
    let s = advance(&sheet, &gm(), "heal Prestige").unwrap();
    let c = Character::from_toml(&s).unwrap();
    assert_eq!(
        (
            c.stat(Stat::Prestige).current,
            c.stat(Stat::Prestige).injured
        ),
        (0, false)
    );
    let s = advance(&s, &gm(), "rest").unwrap();
    let c = Character::from_toml(&s).unwrap();
    assert_eq!(c.stat(Stat::Prestige).current, 2);
}

/// A table file with the example's four characters and none of its own cards
/// (no Bleeding), reading the sheets from `files`.
const TABLE_WITHOUT_BLEEDING: &str = r#"
title = "the morning after"
[[participant]]
file = "example-character.toml"
seat = "Sam"
[[participant]]
file = "rook.toml"
seat = "Ana"
"#;

/// "Effects" are "continuously in play": the example table's own Bleeding
/// lasts on the sheet with its card, and a next table that does not define
/// the card opens and keeps it in play, acting at each Round's start as
/// before. A sheet written without the card (before sheets carried them)
/// still opens: the effect is known by its name and stays until cured.
#[test]
fn effects_a_tables_own_effect_lasts_at_a_table_that_does_not_define_it() {
    let mut t = example_table();
    let mut none = Scripted::dice([]);
    give(
        &mut t,
        "gm: afflict Bleeding as \"Example Player\"",
        &mut none,
    );
    give(&mut t, "gm: end-encounter", &mut none);
    let after = B::sheets_after(t.state());
    let hero = after.iter().find(|s| s.name == "Example Player").unwrap();
    assert!(hero.sheet.contains("definition = {"), "{}", hero.sheet);
    B::validate(&hero.sheet).unwrap();
    let rook = after.iter().find(|s| s.name == "Rook").unwrap();
    let files = InMemoryFiles(BTreeMap::from([
        ("example-character.toml".to_string(), hero.sheet.clone()),
        ("rook.toml".to_string(), rook.sheet.clone()),
    ]));
    let state = B::setup(TABLE_WITHOUT_BLEEDING, &files).unwrap_or_else(|e| panic!("{e}"));
    let p = &state.participants[0];
    assert_eq!(p.effects.len(), 1);
    assert_eq!(
        (p.effects[0].card.as_str(), p.effects[0].tokens),
        ("Bleeding", 3)
    );
    let card = state.card("Bleeding").unwrap();
    assert_eq!(card, t.state().card("Bleeding").unwrap(), "the same card");
    // The sheet this table leaves carries the card on.
    let again = B::sheets_after(&state);
    assert!(again[0].sheet.contains("definition = {"));
    // A sheet without the card: the effect by its name only.
    let old = "name = \"Old\"\neffects = [{ card = \"Bleeding\", tokens = 2 }]\n[stats]\nagility = 3\nmight = 3\nknowledge = 3\nperception = 3\nprestige = 3\nresolve = 3\nspirit = 3\nstamina = 3\nvitality = 3\n";
    let files = InMemoryFiles(BTreeMap::from([
        ("example-character.toml".to_string(), old.to_string()),
        ("rook.toml".to_string(), rook.sheet.clone()),
    ]));
    let state = B::setup(TABLE_WITHOUT_BLEEDING, &files).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(state.participants[0].effects[0].tokens, 2);
    // A carried card that is not a legal effect card is the sheet's problem.
    let bad = hero.sheet.replace("type = \"effect\"", "type = \"stunt\"");
    assert_ne!(bad, hero.sheet);
    let problems = B::validate(&bad).unwrap_err();
    assert!(
        problems.iter().any(|p| p.rule == rules::EFFECTS),
        "{problems:?}"
    );
}
