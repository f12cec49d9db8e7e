//! R-SCR-9: a campaign carries its setting's rules (Scratch RPS's `[rules]`:
//! CP, maximum level, d20 method, strength base); its characters are checked
//! against them (import, the builder, advancement, the sheets an encounter
//! leaves), and every table opened from it uses them.

use std::collections::BTreeMap;

use serde_json::json;
use tabula_engine::SystemId;
use tabula_engine::characters::{CharacterError, DraftChange};
use tabula_engine::core::builder::FieldValue;
use tabula_engine::core::files::InMemoryFiles;
use tabula_engine::core::{Scripted, Seat};

fn example(file: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/scratch")
        .join(file);
    std::fs::read_to_string(path).unwrap()
}

/// "12 CP and a maximum level limit of 5" ("Abilities").
const SLIGHTLY_MORE: &str = "[rules]\ncp = 12\nmax_level = 5\n";
/// Room for the book's own characters (Breakhelm X-19: 14 levels, 6
/// toughness; Zimzambamalam: 8 shooting).
const THE_BOOKS: &str = "[rules]\ncp = 14\nmax_level = 8\n";

#[test]
fn r_scr_9_a_campaign_checks_its_characters_against_its_setting() {
    let scratch = SystemId::Scratch;
    // The settings read and are written back whole; empty is the book's.
    let kept = scratch.campaign_settings(SLIGHTLY_MORE).unwrap();
    assert!(
        kept.contains("cp = 12") && kept.contains("max_level = 5"),
        "{kept}"
    );
    assert!(
        kept.contains("strength_base = 8") && kept.contains("d20 = \"d20\""),
        "{kept}"
    );
    assert_eq!(scratch.campaign_settings("  \n").unwrap(), "");
    // The example setting reads.
    let example_rules = scratch
        .campaign_settings(&example("campaign-rules.toml"))
        .unwrap();
    assert!(example_rules.contains("cp = 14"), "{example_rules}");
    for bad in [
        "[rules]\ncp = 0\n",
        "[rules]\nmana = 3\n",
        "cp = 12\n",
        "[rules]\nd20 = \"d7\"\n",
    ] {
        assert!(
            matches!(
                scratch.campaign_settings(bad),
                Err(CharacterError::Settings { .. })
            ),
            "{bad}"
        );
    }
    // The other books take none yet.
    assert!(matches!(
        SystemId::Tiers.campaign_settings(SLIGHTLY_MORE),
        Err(CharacterError::Settings { .. })
    ));
    assert_eq!(SystemId::Tiers.campaign_settings("").unwrap(), "");

    // Import: the book's characters are refused under the book's 10 CP and
    // level 4, accepted in a campaign whose setting has room for them.
    for (file, name) in [
        ("breakhelm-x-19.toml", "Breakhelm X-19"),
        ("zimzambamalam.toml", "Zimzambamalam"),
    ] {
        let sheet = example(file);
        assert!(matches!(
            scratch.validate_sheet_in("", &sheet),
            Err(CharacterError::Sheet { .. })
        ));
        let set = scratch.campaign_settings(THE_BOOKS).unwrap();
        assert_eq!(scratch.validate_sheet_in(&set, &sheet).unwrap(), name);
    }
    // 12 CP and level 5: a character of 12 levels with a 5 fits; Breakhelm
    // X-19's 14 levels do not.
    let twelve = "name = \"Veteran\"\n[abilities]\nshooting = 5\nquickness = 3\ntoughness = 4\n";
    assert!(scratch.validate_sheet_in("", twelve).is_err());
    assert_eq!(
        scratch.validate_sheet_in(SLIGHTLY_MORE, twelve).unwrap(),
        "Veteran"
    );
    let e = scratch
        .validate_sheet_in(SLIGHTLY_MORE, &example("breakhelm-x-19.toml"))
        .unwrap_err();
    assert!(e.to_string().contains("12"), "{e}");
}

#[test]
fn r_scr_9_the_builder_and_advancement_use_the_campaigns_setting() {
    let scratch = SystemId::Scratch;
    let set = |key: &str, value: FieldValue| DraftChange::Set {
        key: key.into(),
        value,
    };
    // The builder's budget is the setting's.
    let fresh = scratch.new_draft_in(SLIGHTLY_MORE).unwrap();
    let budgets = serde_json::to_string(&fresh.view.budgets).unwrap();
    assert!(budgets.contains("12"), "{budgets}");
    let changes = [
        set("name", FieldValue::Text("Veteran".into())),
        set("abilities.shooting", FieldValue::Int(5)),
    ];
    // A level of 5 is refused under the book's maximum of 4 ...
    let book = scratch.change_draft(&json!({}), &changes).unwrap();
    assert!(book.refusal.is_some(), "{book:?}");
    // ... and accepted in the campaign.
    let built = scratch
        .change_draft_in(SLIGHTLY_MORE, &json!({}), &changes)
        .unwrap();
    assert!(built.refusal.is_none(), "{:?}", built.refusal);
    let built = scratch
        .change_draft_in(
            SLIGHTLY_MORE,
            &built.draft,
            &[
                set("abilities.quickness", FieldValue::Int(3)),
                set("abilities.toughness", FieldValue::Int(4)),
            ],
        )
        .unwrap();
    assert!(built.refusal.is_none(), "{:?}", built.refusal);
    // The draft cannot carry its own setting: read as the book's it fails.
    assert!(scratch.finish_draft(&built.draft).is_err());
    let sheet = scratch
        .finish_draft_in(SLIGHTLY_MORE, &built.draft)
        .unwrap();
    assert_eq!(
        scratch.validate_sheet_in(SLIGHTLY_MORE, &sheet).unwrap(),
        "Veteran"
    );
    let again = scratch.draft_from_sheet_in(SLIGHTLY_MORE, &sheet).unwrap();
    assert!(
        again.view.problems.iter().all(|p| p.unfinished),
        "{:?}",
        again.view.problems
    );
    // Advancement: awarded CP are spent within the setting's maximum level.
    let mut dice = Scripted::dice([]);
    let awarded = scratch
        .advance_in(SLIGHTLY_MORE, &sheet, &Seat::Gm, "award-cp 2", &mut dice)
        .unwrap();
    let raised = scratch
        .advance_in(
            SLIGHTLY_MORE,
            &awarded.sheet,
            &Seat::parse("ann"),
            "raise quickness",
            &mut dice,
        )
        .unwrap();
    assert!(raised.sheet.contains("quickness = 4"), "{}", raised.sheet);
    let e = scratch
        .advance_in(
            SLIGHTLY_MORE,
            &raised.sheet,
            &Seat::parse("ann"),
            "raise shooting",
            &mut dice,
        )
        .unwrap_err();
    assert!(e.to_string().contains('5'), "{e}");
    // Under the book's rules the sheet does not even read.
    assert!(
        scratch
            .advance(&sheet, &Seat::Gm, "award-cp 1", &mut dice)
            .is_err()
    );
}

#[test]
fn r_scr_9_every_table_opened_from_the_campaign_uses_its_setting() {
    let scratch = SystemId::Scratch;
    let table = "[encounter]\nterrain = [\"level-ground\"]\n\n[[groups]]\nseat = \"gm\"\nside = \"outlaws\"\ncharacters = [\"breakhelm-x-19.toml\"]\n\n[[groups]]\nseat = \"alice\"\nside = \"hunters\"\ncharacters = [\"chokestar.toml\"]\n";
    let files = InMemoryFiles(BTreeMap::from([
        (
            "breakhelm-x-19.toml".to_string(),
            example("breakhelm-x-19.toml"),
        ),
        ("chokestar.toml".to_string(), example("chokestar.toml")),
    ]));
    let seeded = || tabula_engine::core::roller::Seeded::from_seed(1);
    // Without the campaign's setting, Breakhelm X-19 does not sit down.
    assert!(tabula_engine::AnyTable::setup(scratch, table, &files, seeded()).is_err());
    let opened = scratch.table_in(THE_BOOKS, table).unwrap();
    assert!(opened.contains("max_level = 8"), "{opened}");
    assert!(tabula_engine::AnyTable::setup(scratch, &opened, &files, seeded()).is_ok());
    // A table whose own [rules] are the setting's is unchanged; others are
    // refused naming both.
    let same = format!("{THE_BOOKS}{table}");
    assert_eq!(scratch.table_in(THE_BOOKS, &same).unwrap(), same);
    let other = format!("[rules]\ncp = 20\nmax_level = 8\n{table}");
    let e = scratch.table_in(THE_BOOKS, &other).unwrap_err();
    assert!(
        e.to_string().contains("R-SCR-9") && e.to_string().contains("cp = 20"),
        "{e}"
    );
    // Another book's table, or a campaign with the book's rules: unchanged.
    assert_eq!(scratch.table_in("", table).unwrap(), table);
    assert_eq!(SystemId::Tiers.table_in("", "x = 1").unwrap(), "x = 1");
}

/// The settings hook is each book's (`CharacterBook::Setting`): a book whose
/// facts offer no campaign settings refuses any text when a campaign is made,
/// and plays by its own rules whatever text it is given afterwards; a book
/// that offers them (Scratch RPS, R-SCR-9) reads them.
#[test]
fn r_scr_9_only_a_book_that_takes_settings_reads_them() {
    for system in SystemId::ALL {
        let read = system.campaign_settings(SLIGHTLY_MORE);
        if system.facts().campaign_settings.is_some() {
            assert!(read.is_ok(), "{system}: {read:?}");
            continue;
        }
        assert_eq!(
            read,
            Err(CharacterError::Settings {
                system: system.id(),
                message: "this book takes no campaign settings: leave them empty".into(),
            })
        );
        let sheet = "name = 1\n";
        assert_eq!(
            system.validate_sheet_in(SLIGHTLY_MORE, sheet),
            system.validate_sheet(sheet)
        );
        assert_eq!(
            system.table_in(SLIGHTLY_MORE, "[encounter]\n").unwrap(),
            "[encounter]\n"
        );
        assert_eq!(
            system.new_draft_in(SLIGHTLY_MORE).unwrap(),
            system.new_draft()
        );
    }
}
