//! Ending a campaign encounter never fails on a state the table accepted
//! (R-SG-13, for every book): a sheet after the encounter that does not
//! validate is recorded all the same, with the rules it breaks, and the
//! character needs the GM's edit until the GM fixes the sheet.

use crate::common;

use tabula_core::Seeded;
use tabula_core::builder::SheetAfter;
use tabula_engine::characters::{
    CampaignSheet, CharacterEvent, RuleNote, replay_history, sheet_changes, sheets_changes,
};
use tabula_engine::{AnyTable, SystemId};

fn example_table(system: SystemId) -> AnyTable {
    let dir = common::examples(system);
    let text = std::fs::read_to_string(dir.join("table.toml")).expect("table.toml");
    AnyTable::setup(system, &text, &dir, Seeded::from_seed(1)).expect("the example table")
}

/// The sheet with its `name = "..."` line emptied: a sheet no book accepts.
fn broken(sheet: &str) -> String {
    sheet
        .lines()
        .map(|l| {
            if l.starts_with("name = ") {
                "name = \"\""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// In each of the five books: the first character of the example table
/// comes back from the encounter with a sheet forced to break a rule. The
/// encounter is recorded (the broken sheet, the changes, the problems);
/// the character needs the GM's edit; the history replays; the GM's edit
/// back to a legal sheet clears it and the history replays and validates.
#[test]
fn r_sg_13_ending_an_encounter_records_a_sheet_that_breaks_a_rule_in_every_book() {
    for system in SystemId::ALL {
        let table = example_table(system);
        let after = table.sheets_after();
        let first = after
            .first()
            .unwrap_or_else(|| panic!("{system:?}: no sheet"));
        system
            .validate_sheet(&first.sheet)
            .unwrap_or_else(|e| panic!("{system:?}: {e}"));
        let before = CampaignSheet {
            id: "c1".into(),
            name: first.name.clone(),
            sheet: first.sheet.clone(),
        };
        let forced = broken(&first.sheet);
        assert_ne!(forced, first.sheet, "{system:?}: the sheet has a name line");
        let found = sheets_changes(
            system,
            vec![SheetAfter {
                name: first.name.clone(),
                sheet: forced.clone(),
            }],
            "t1",
            "the fight",
            std::slice::from_ref(&before),
        );
        assert_eq!(found.len(), 1, "{system:?}");
        let (id, sheet, event) = &found[0];
        assert_eq!(id, "c1");
        assert_eq!(sheet, &forced, "{system:?}: the encounter's sheet is kept");
        let CharacterEvent::Encounter {
            changes, problems, ..
        } = event
        else {
            panic!("{system:?}: {event:?}");
        };
        assert!(!changes.is_empty(), "{system:?}");
        assert!(!problems.is_empty(), "{system:?}: the problems are listed");
        assert!(
            event.summary().contains("needs the GM's edit"),
            "{system:?}: {}",
            event.summary()
        );
        assert!(!system.needs_edit(sheet).is_empty(), "{system:?}");
        // The event goes through the store's JSON and back.
        let json = serde_json::to_value(event).expect("json");
        let back: CharacterEvent = serde_json::from_value(json).expect("reads back");
        assert_eq!(&back, event);
        // The history replays to the encounter's sheet.
        let mut history = vec![CharacterEvent::Imported {
            sheet: first.sheet.clone(),
        }];
        history.push(back);
        let replayed =
            replay_history(system, &history).unwrap_or_else(|e| panic!("{system:?}: {e}"));
        assert!(tabula_engine::characters::same_sheet(&replayed, sheet));
        // The GM's edit fixes it: a legal sheet again, and it replays.
        history.push(CharacterEvent::Edited {
            changes: sheet_changes(sheet, &first.sheet).expect("changes"),
            steps_past: Vec::<RuleNote>::new(),
        });
        let fixed = replay_history(system, &history).unwrap_or_else(|e| panic!("{system:?}: {e}"));
        assert!(system.needs_edit(&fixed).is_empty(), "{system:?}");
    }
}

/// A legal sheet after the encounter records no problems (and the JSON
/// leaves the field out, as stored events were before).
#[test]
fn a_legal_sheet_after_the_encounter_records_no_problems() {
    for system in SystemId::ALL {
        let table = example_table(system);
        let after = table.sheets_after();
        let first = &after[0];
        let before = CampaignSheet {
            id: "c1".into(),
            name: first.name.clone(),
            sheet: first.sheet.clone(),
        };
        let found = tabula_engine::characters::encounter_changes(&table, "t1", "x", &[before]);
        let json = serde_json::to_value(&found[0].2).expect("json");
        assert!(json.get("problems").is_none(), "{system:?}: {json}");
        let old = serde_json::json!({"kind": "encounter", "table": "t0", "table_name": "x", "changes": []});
        let read: CharacterEvent = serde_json::from_value(old).expect("an old event reads");
        assert!(matches!(read, CharacterEvent::Encounter { problems, .. } if problems.is_empty()));
    }
}
