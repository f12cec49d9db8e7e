//! Every character in the book, from its file under examples/scratch, with its
//! printed defenses reproduced or the difference explained (R-SCR-1, R-SCR-2).

use std::path::PathBuf;
use tabula_scratch::{Ability, Character, CharacterDraft, Problem, TableRules};

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../examples/scratch")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn load(name: &str) -> Character {
    load_under(name, &TableRules::default())
}

fn load_under(name: &str, rules: &TableRules) -> Character {
    Character::from_toml(&example(name), rules).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The rules of the example table that seats every book character (R-SCR-7).
fn example_table_rules() -> TableRules {
    tabula_scratch::setup::table_rules(&example("table.toml")).unwrap()
}

/// (file, agility, intelligence, strength, stamina) as computed.
fn assert_defenses(c: &Character, want: (u32, u32, u32, u32)) {
    let d = c.defenses(8);
    assert_eq!(
        (d.agility, d.intelligence, d.strength, d.stamina),
        want,
        "{}",
        c.name()
    );
}

fn assert_all_printed_match(c: &Character) {
    let checks = c.printed_checks(8);
    assert_eq!(checks.len(), 4, "{} prints four numbers", c.name());
    for k in checks {
        assert_eq!(k.printed, k.computed, "{} {}", c.name(), k.defense);
        assert!(k.why.is_empty());
    }
}

#[test]
fn zimzambamalam() {
    let c = load_under("zimzambamalam.toml", &example_table_rules());
    assert_defenses(&c, (10, 10, 10, 1));
    assert_all_printed_match(&c);
    assert_eq!(c.defenses(8).max_hit_points, 2);
    // Under the table's maximum level 4 his 8 shooting is refused.
    let draft: CharacterDraft = toml::from_str(&example("zimzambamalam.toml")).unwrap();
    let err = Character::from_draft(draft, &TableRules::default()).unwrap_err();
    assert_eq!(
        err.problems,
        vec![Problem::AboveMaxLevel {
            ability: "shooting".into(),
            level: 8,
            max: 4
        }]
    );
}

#[test]
fn the_boss_and_his_thugs() {
    let c = load("the-boss.toml");
    // R-SCR-2: intelligence is 10 + 4 command = 14, not the printed 11.
    assert_defenses(&c, (10, 14, 11, 1));
    let checks = c.printed_checks(8);
    let int = checks.iter().find(|k| k.defense == "intelligence").unwrap();
    assert_eq!((int.printed, int.computed), (11, 14));
    assert!(
        int.why.contains("R-SCR-2") && int.why.contains("4 command"),
        "{}",
        int.why
    );
    for k in checks.iter().filter(|k| k.defense != "intelligence") {
        assert_eq!(k.printed, k.computed, "{}", k.defense);
    }
    assert_eq!(c.minions().len(), 2);
    for m in c.minions() {
        assert_defenses(m, (10, 10, 10, 1));
        assert_all_printed_match(m);
    }
    let thug = load("thug.toml");
    assert_defenses(&thug, (10, 10, 10, 1));
    assert_all_printed_match(&thug);
}

#[test]
fn minions_beyond_command_are_refused() {
    let text = example("the-boss.toml").replace("command = 4", "command = 3");
    let err = Character::from_toml(&text, &TableRules::default()).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("total CP 4 is greater than the command level 3"),
        "{text}"
    );
}

#[test]
fn breakhelm_x_19() {
    let combat = tabula_scratch::setup::table_rules(&example("combat-example.toml")).unwrap();
    assert_eq!((combat.cp, combat.max_level), (14, 6));
    let c = load_under("breakhelm-x-19.toml", &combat);
    assert_eq!(c.id(), "breakhelm");
    assert_defenses(&c, (10, 10, 14, 3));
    assert_all_printed_match(&c);
    // Under 10 CP / maximum 4 both broken rules are listed.
    let draft: CharacterDraft = toml::from_str(&example("breakhelm-x-19.toml")).unwrap();
    let err = Character::from_draft(draft, &TableRules::default()).unwrap_err();
    assert_eq!(
        err.problems,
        vec![
            Problem::AboveMaxLevel {
                ability: "toughness".into(),
                level: 6,
                max: 4
            },
            Problem::OverBudget { spent: 14, cp: 10 },
        ]
    );
}

#[test]
fn chokestar() {
    let c = load("chokestar.toml");
    assert_defenses(&c, (13, 10, 12, 1));
    assert_all_printed_match(&c);
    assert_eq!(c.cp_spent(), 8);
    assert_eq!(c.level(Ability::Stealth), 3);
}

#[test]
fn flipfire() {
    let c = load("flipfire.toml");
    assert_defenses(&c, (11, 11, 12, 2));
    assert_all_printed_match(&c);
    assert_eq!(c.cp_spent(), 10);
}

#[test]
fn the_text_strength_option_explains_the_difference() {
    // With the text's "7 plus toughness" (a table option), every printed strength
    // without wrestling is one too high, and the check says why (R-SCR-1).
    let c = load("flipfire.toml");
    let k = c
        .printed_checks(7)
        .into_iter()
        .find(|k| k.defense == "strength")
        .unwrap();
    assert_eq!((k.printed, k.computed), (12, 11));
    assert!(k.why.contains("R-SCR-1"));
}

#[test]
fn a_broken_file_names_the_key() {
    let err = Character::from_toml(
        "name = \"X\"\n[abilities]\ntoughness = \"three\"\n",
        &TableRules::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("toughness"), "{err}");
    let err =
        Character::from_toml("name = \"X\"\nwings = 2\n", &TableRules::default()).unwrap_err();
    assert!(err.to_string().contains("wings"), "{err}");
}
