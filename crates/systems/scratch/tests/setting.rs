//! R-SCR-9: "A campaign carries its setting's rules (the `[rules]` a Scratch
//! table takes: CP, maximum level, d20 method, strength base); its characters
//! are checked against them, and every table opened from it uses them." The
//! book's own `CharacterBook::Setting` hook, which the engine calls for every
//! book alike.

use tabula_core::builder::{CharacterBook, SettingError};
use tabula_core::{Scripted, Seat};
use tabula_scratch::builder::Draft;
use tabula_scratch::{Scratch, TableRules, rules};

/// "12 CP and a maximum level limit of 5" ("Abilities").
const SLIGHTLY_MORE: &str = "[rules]\ncp = 12\nmax_level = 5\n";

fn example(file: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../examples/scratch")
        .join(file);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn r_scr_9_the_setting_is_the_rules_a_table_takes_written_back_whole() {
    let s = <Scratch as CharacterBook>::read_setting(SLIGHTLY_MORE).unwrap();
    assert_eq!(
        s,
        TableRules {
            cp: 12,
            max_level: 5,
            ..TableRules::default()
        }
    );
    let text = <Scratch as CharacterBook>::setting_text(&s);
    assert_eq!(
        text,
        "[rules]\ncp = 12\nmax_level = 5\nstrength_base = 8\nd20 = \"d20\"\n"
    );
    assert_eq!(<Scratch as CharacterBook>::read_setting(&text).unwrap(), s);
}

#[test]
fn r_scr_9_a_setting_out_of_range_is_refused_naming_the_field_and_the_rule() {
    let e = <Scratch as CharacterBook>::read_setting("[rules]\ncp = 0\n").unwrap_err();
    assert_eq!(
        e,
        SettingError::Invalid {
            message: "rules.cp: 0 must be between 1 and 1000".into(),
            rule: rules::SETTING,
        }
    );
    assert_eq!(rules::SETTING.ruling, Some("R-SCR-9"));
}

#[test]
fn r_scr_9_characters_builder_advancement_and_tables_use_the_setting() {
    let s = <Scratch as CharacterBook>::read_setting(SLIGHTLY_MORE).unwrap();
    // 12 levels with a 5: refused by the book's 10 CP and level 4, a
    // character of this setting.
    let twelve = "name = \"Veteran\"\n[abilities]\nshooting = 5\nquickness = 3\ntoughness = 4\n";
    assert!(<Scratch as CharacterBook>::validate(twelve).is_err());
    assert_eq!(
        <Scratch as CharacterBook>::validate_in(&s, twelve).unwrap(),
        "Veteran"
    );
    // The builder's draft carries the setting.
    let d = <Scratch as CharacterBook>::draft_in(&s, Draft::default());
    assert_eq!(d.setting, Some(s));
    // Advancement: the GM awards CP under the setting's limits.
    let mut dice = Scripted::dice([]);
    let a = <Scratch as CharacterBook>::advance_in(&s, twelve, &Seat::Gm, "award-cp 2", &mut dice)
        .unwrap();
    assert!(a.sheet.contains("awarded_cp = 2"), "{}", a.sheet);
    // A table opened from the campaign takes its `[rules]`; one with other
    // rules is refused, citing R-SCR-9.
    let table = "[encounter]\nterrain = [\"level-ground\"]\n";
    let opened = <Scratch as CharacterBook>::table_in(&s, table).unwrap();
    assert!(
        opened.contains("cp = 12") && opened.contains("max_level = 5"),
        "{opened}"
    );
    let other = format!("[rules]\ncp = 20\n{table}");
    match <Scratch as CharacterBook>::table_in(&s, &other) {
        Err(SettingError::Invalid { message, rule }) => {
            assert!(
                message.contains("R-SCR-9") && message.contains("cp = 20"),
                "{message}"
            );
            assert_eq!(rule, rules::SETTING);
        }
        other => panic!("{other:?}"),
    }
    // The book's own characters fit a campaign with room for them.
    let books =
        <Scratch as CharacterBook>::read_setting("[rules]\ncp = 14\nmax_level = 8\n").unwrap();
    assert!(<Scratch as CharacterBook>::validate(&example("breakhelm-x-19.toml")).is_err());
    assert_eq!(
        <Scratch as CharacterBook>::validate_in(&books, &example("breakhelm-x-19.toml")).unwrap(),
        "Breakhelm X-19"
    );
}
