//! Values a seat types for its own dice and cards (`rolled` on the server,
//! [`Dice::Typed`]): issue 28, items 2, 3 and 6.

use std::path::PathBuf;

use tabula_core::Seeded;
use tabula_core::roller::RollError;
use tabula_core::rule::Refusal;
use tabula_core::system::Seat;
use tabula_engine::{AnyTable, CommandError, Dice, DiceSetting, SaveFile, SystemId};

fn example(system: SystemId) -> (String, PathBuf) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(system.id());
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    (text, dir)
}

fn bastards(prefix: &str) -> AnyTable {
    let (text, dir) = example(SystemId::Bastards);
    AnyTable::setup(
        SystemId::Bastards,
        &format!("{prefix}{text}"),
        &dir,
        Seeded::from_seed(5),
    )
    .unwrap()
}

fn stella() -> Seat {
    Seat::Player("Stella".into())
}

const FATE: &str = "fate Cynthia Business Mind 3";

fn values(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn roll_error(e: &CommandError) -> &RollError {
    match e {
        CommandError::Rule(r) => match &r.kind {
            Refusal::Roll(roll) => roll,
            other => panic!("not a roll refusal: {other:?} ({e})"),
        },
        other => panic!("not a rule refusal: {other}"),
    }
}

/// Issue 28, item 2: Cynthia's Skill Hand of Business 3 takes three typed
/// cards; the Dealer's Fate Draw is the GM's and comes from the table's
/// deck. Before, a fourth typed card went to the Dealer's draw: the player
/// chose the GM's cards.
#[test]
fn issue_28_2_a_players_typed_cards_never_reach_the_dealers_fate_draw() {
    let mut t = bastards("");
    // No values: only the player's own three cards are asked for.
    let none = t
        .submit_text(&stella(), FATE, Dice::Typed(&[]))
        .unwrap_err();
    assert_eq!(roll_error(&none).to_string(), "need 3 more cards");
    // A value for the Dealer's draw is refused, naming whose draw it is.
    let four = values(&["2C", "3C", "4C", "5C"]);
    let before = t.seq();
    let e = t
        .submit_text(&stella(), FATE, Dice::Typed(&four))
        .unwrap_err();
    assert!(
        matches!(roll_error(&e), RollError::NotYourRoll { whose, values }
            if whose == "The Dealer's Fate Draw" && values == &["5C".to_string()]),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("only its own characters' dice and cards")
    );
    assert_eq!(t.seq(), before, "a refusal changed the table");
    // Her own three are taken; the Dealer draws from the deck.
    let three = values(&["2C", "3C", "4C"]);
    let accepted = t.submit_text(&stella(), FATE, Dice::Typed(&three)).unwrap();
    assert!(t.seq() > before);
    let gm_log = t.log_for(&Seat::Gm, before);
    let dealer_cards: Vec<&str> = gm_log.iter().map(|l| l.text.as_str()).collect();
    assert!(
        !dealer_cards.is_empty() && accepted.events.iter().all(|l| l.typed),
        "{dealer_cards:?}"
    );
    // Item 6: every line of the command says the values were typed, and by whom.
    for line in &accepted.events {
        assert!(line.text.ends_with("(typed by Stella)"), "{}", line.text);
    }
    let rows = t.raw_rows_after(before);
    assert!(rows.iter().all(|r| r.entry["typed"] == true), "{rows:?}");
    // The table's own draws are not marked.
    let at = t.seq();
    let untyped = t.submit_text(&stella(), FATE, Dice::Table).unwrap();
    assert!(
        untyped
            .events
            .iter()
            .all(|l| !l.typed && !l.text.contains("typed"))
    );
    assert!(
        t.raw_rows_after(at)
            .iter()
            .all(|r| r.entry.get("typed").is_none())
    );
}

/// Issue 28, item 2: the GM types the cards of the GM's own characters and
/// the Dealer's Fate Draw (both the GM's), never a player's.
#[test]
fn issue_28_2_the_gm_types_only_the_gms_own_draws() {
    let mut t = bastards("");
    let gm = Seat::Gm;
    // The investor (the GM's) draws Business 3; the Dealer 6 - Mind 2 = 4:
    // all seven are the GM's to type.
    let investor = "fate investor Business Mind 0";
    let e = t.submit_text(&gm, investor, Dice::Typed(&[])).unwrap_err();
    assert_eq!(roll_error(&e).to_string(), "need 7 more cards");
    let seven = values(&["2C", "3C", "4C", "5C", "6C", "7C", "8C"]);
    let a = t.submit_text(&gm, investor, Dice::Typed(&seven)).unwrap();
    assert!(
        a.events
            .iter()
            .all(|l| l.typed && l.text.ends_with("(typed by GM)"))
    );
    // A player's Skill Hand is not the GM's to give, typed or not.
    let before = t.seq();
    let e = t
        .submit_text(&gm, FATE, Dice::Typed(&values(&["2D", "3D", "4D"])))
        .unwrap_err();
    assert!(!matches!(e, CommandError::Rule(ref r) if matches!(r.kind, Refusal::Roll(_))));
    assert_eq!(t.seq(), before);
}

/// Issue 28, item 3: a refused draw says the same thing whether the card is
/// in the deck, in another seat's hand, in the discards, or typed twice; the
/// count of typed values is checked before any card is looked up.
#[test]
fn issue_28_3_a_refusal_reveals_nothing_about_where_a_card_is() {
    // A fresh table: every card is in the shoe of two decks (R-GB-1). Typed
    // three times, QH is refused as a card that cannot be typed, not as "no
    // QH left in the deck".
    let mut t = bastards("");
    let e = t
        .submit_text(&stella(), FATE, Dice::Typed(&values(&["QH", "QH", "QH"])))
        .unwrap_err();
    assert_eq!(
        roll_error(&e).to_string(),
        "QH cannot be typed for this draw: type the cards you drew, in order"
    );
    // QH typed twice more than a draw: the count is refused first, before
    // any card is looked up.
    let twice = t
        .submit_text(
            &stella(),
            FATE,
            Dice::Typed(&values(&["QH", "QH", "QH", "QH"])),
        )
        .unwrap_err();
    assert!(matches!(roll_error(&twice), RollError::NotYourRoll { .. }));
    // Too many values: the count is refused first, the same words whether
    // the cards are in the deck or not.
    let in_deck = t
        .submit_text(
            &stella(),
            FATE,
            Dice::Typed(&values(&["2D", "3D", "4D", "5D"])),
        )
        .unwrap_err();
    let gone = t
        .submit_text(
            &stella(),
            FATE,
            Dice::Typed(&values(&["QH", "QH", "QH", "5D"])),
        )
        .unwrap_err();
    assert_eq!(
        in_deck.to_string().replace("2D, 3D, 4D", "_"),
        gone.to_string().replace("QH, QH, QH", "_")
    );
    assert!(matches!(roll_error(&gone), RollError::NotYourRoll { .. }));
    // Too few: the same.
    let short_in = t
        .submit_text(&stella(), FATE, Dice::Typed(&values(&["2D"])))
        .unwrap_err();
    let short_gone = t
        .submit_text(
            &stella(),
            FATE,
            Dice::Typed(&values(&["QH", "QH", "QH"][..1])),
        )
        .unwrap_err();
    assert_eq!(short_in.to_string(), short_gone.to_string());
    assert_eq!(roll_error(&short_in).to_string(), "need 2 more cards");
}

/// Issue 28, item 6: `dice = "table"` in any book's table file refuses a
/// player's typed values (the GM may type the GM's own); the setting
/// survives a save and a reload; anything else is refused naming `dice`.
#[test]
fn issue_28_6_the_table_setting_dice_table_refuses_typed_values() {
    for system in SystemId::ALL {
        let (text, dir) = example(system);
        let t = AnyTable::setup(
            system,
            &format!("dice = \"table\"\n{text}"),
            &dir,
            Seeded::from_seed(1),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", system.id()));
        assert_eq!(t.dice_setting(), DiceSetting::Table, "{}", system.id());
        let plain = AnyTable::setup(system, &text, &dir, Seeded::from_seed(1)).unwrap();
        assert_eq!(plain.dice_setting(), DiceSetting::Players);
        let bad = AnyTable::setup(
            system,
            &format!("dice = \"mine\"\n{text}"),
            &dir,
            Seeded::from_seed(1),
        )
        .unwrap_err();
        assert!(bad.to_string().contains("`dice`"), "{bad}");
        let saved = serde_json::to_string(&SaveFile::of(&t)).unwrap();
        let back = SaveFile::load(system, &saved).unwrap();
        assert_eq!(back.dice_setting(), DiceSetting::Table, "{}", system.id());
    }
    let mut t = bastards("dice = \"table\"\n");
    let before = t.seq();
    let e = t
        .submit_text(&stella(), FATE, Dice::Typed(&values(&["2C", "3C", "4C"])))
        .unwrap_err();
    assert_eq!(e, CommandError::TableDice);
    assert!(e.to_string().contains("dice = \"table\""));
    assert_eq!(t.seq(), before);
    // The table's own dice still work.
    t.submit_text(&stella(), FATE, Dice::Table).unwrap();
}

/// Issue 30, item 3: `dice_dialect = "roll20"` (or `"foundry"`, `"d20"`) in
/// any book's table file is the table's dice dialect; it survives a save and
/// a reload, sits beside `dice`, and anything else is refused naming it.
#[test]
fn issue_30_3_the_table_setting_dice_dialect() {
    use tabula_engine::core::notation::Dialect;
    for system in SystemId::ALL {
        let (text, dir) = example(system);
        let t = AnyTable::setup(
            system,
            &format!("dice_dialect = \"roll20\"\ndice = \"table\"\n{text}"),
            &dir,
            Seeded::from_seed(1),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", system.id()));
        assert_eq!(t.dice_dialect(), Dialect::Roll20, "{}", system.id());
        assert_eq!(t.dice_setting(), DiceSetting::Table);
        assert_eq!(t.initial_roller()["dice_dialect"], "roll20");
        let plain = AnyTable::setup(system, &text, &dir, Seeded::from_seed(1)).unwrap();
        assert_eq!(plain.dice_dialect(), Dialect::D20);
        assert!(plain.initial_roller().get("dice_dialect").is_none());
        let bad = AnyTable::setup(
            system,
            &format!("dice_dialect = \"avrae\"\n{text}"),
            &dir,
            Seeded::from_seed(1),
        )
        .unwrap_err();
        assert!(bad.to_string().contains("`dice_dialect`"), "{bad}");
        let saved = serde_json::to_string(&SaveFile::of(&t)).unwrap();
        let back = SaveFile::load(system, &saved).unwrap();
        assert_eq!(back.dice_dialect(), Dialect::Roll20, "{}", system.id());
        assert_eq!(back.dice_setting(), DiceSetting::Table);
    }
    let (settings, rest) =
        tabula_engine::split_table_settings("dice_dialect = \"foundry\"\nname = \"x\"\n").unwrap();
    assert_eq!(settings.dice_dialect, Dialect::Foundry);
    assert!(!rest.contains("dice_dialect"));

    // Settings chosen beside the file (the page's, the API's) win over the
    // file's own; the file's stay where nothing was chosen.
    use tabula_engine::{ChosenSettings, TableSettings, with_table_settings};
    let file = "dice = \"table\"\ndice_dialect = \"foundry\"\nname = \"x\"\n";
    let chosen = ChosenSettings {
        dice: None,
        dice_dialect: Some(Dialect::Roll20),
    };
    let written = with_table_settings(file, chosen).unwrap();
    let (settings, rest) = tabula_engine::split_table_settings(&written).unwrap();
    assert_eq!(
        settings,
        TableSettings {
            dice: DiceSetting::Table,
            dice_dialect: Dialect::Roll20
        }
    );
    assert_eq!(rest.trim(), "name = \"x\"");
    assert_eq!(
        with_table_settings(file, ChosenSettings::default()).unwrap(),
        file
    );
    let bad = with_table_settings("dice = \"mine\"\n", chosen).unwrap_err();
    assert!(bad.contains("`dice`"), "{bad}");
    // Text that is not TOML comes back as it is: the book names its error.
    assert_eq!(with_table_settings("[[x", chosen).unwrap(), "[[x");
    let (text, dir) = example(SystemId::Scratch);
    let chosen = ChosenSettings {
        dice: Some(DiceSetting::Table),
        dice_dialect: Some(Dialect::Foundry),
    };
    let written = AnyTable::setup(
        SystemId::Scratch,
        &with_table_settings(&text, chosen).unwrap(),
        &dir,
        Seeded::from_seed(1),
    )
    .unwrap();
    let given = AnyTable::setup_with(
        SystemId::Scratch,
        &format!("dice_dialect = \"roll20\"\n{text}"),
        &dir,
        Seeded::from_seed(1),
        chosen,
    )
    .unwrap();
    for t in [written, given] {
        assert_eq!(
            (t.dice_setting(), t.dice_dialect()),
            (DiceSetting::Table, Dialect::Foundry)
        );
    }
    // Chosen beside a broken file, the book's error is the same as without
    // (it names the file's own lines).
    let broken = format!("{text}\nunknown_key = 3\n");
    let plain = AnyTable::setup(SystemId::Scratch, &broken, &dir, Seeded::from_seed(1))
        .unwrap_err()
        .to_string();
    let with = AnyTable::setup_with(
        SystemId::Scratch,
        &broken,
        &dir,
        Seeded::from_seed(1),
        chosen,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(plain, with);
}
