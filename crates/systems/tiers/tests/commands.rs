//! The one command grammar at a Tiers table: quoted names in any letter case
//! and by unambiguous prefix, refusals that list the names, the command
//! reference (`Tiers::COMMANDS`), `--manual` announcements and the sheet.

mod common;

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use tabula_core::names::NameLookupError;
use tabula_core::system::find_command;
use tabula_core::{CommandParseError, Scripted, Seat, Seeded, Table, TextPlay};
use tabula_tiers::Tiers;
use tabula_tiers::character::Stat;
use tabula_tiers::command::{Command, Pay};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/tiers")
}

fn example_table() -> Table<Tiers> {
    let text = std::fs::read_to_string(examples().join("table.toml")).unwrap();
    Table::new(Tiers::setup(&text, &examples()).unwrap())
}

const LEVEL_1: &str =
    "level = 1\nstats = { strength = [4], skill = [4], support = [4], scharisma = [4] }\n";

/// Two players with names of two words ("Even Steven", "Even Odds"), an NPC
/// ally, a Zone and an enemy with spaces in their names, in the Player Phase.
fn spaced_table() -> Table<Tiers> {
    let mut text = String::from(
        "title = \"spaces\"\nstart = \"combat\"\nfirst_phase = \"player\"\n[rolls]\nd6 = 2\nd3 = 2\n",
    );
    for (name, zone) in [
        ("Even Steven", "Ice Cream Shop"),
        ("Even Odds", "Back Alley"),
    ] {
        text.push_str(&format!(
            "[[players]]\nzone = \"{zone}\"\n[players.character]\nname = \"{name}\"\nitems = [\"Fast Potion\"]\n{LEVEL_1}\n"
        ));
    }
    text.push_str(&format!(
        "[[allies]]\nzone = \"Back Alley\"\n[allies.character]\nname = \"Old Marun\"\n{LEVEL_1}\n"
    ));
    text.push_str(
        "[[zones]]\nname = \"Ice Cream Shop\"\ntouches = [\"Back Alley\"]\n[[zones]]\nname = \"Back Alley\"\n\
         [[enemies]]\nname = \"Goblin Chief\"\nkind = \"Goblin Boss\"\nhealth = 9\nzone = \"Ice Cream Shop\"\n\
         [[enemies]]\nname = \"Gob\"\nkind = \"Goblin\"\nhealth = 3\nzone = \"Back Alley\"\n\
         [[actions]]\nname = \"Heavy Blow\"\nstat = \"strength\"\ntier = 1\nap = 2\nd6 = 1\neffect = \"damage\"\nhouse = true\n\
         [[actions]]\nname = \"Heal Up\"\nstat = \"support\"\ntier = 1\nap = 1\nd3 = 1\neffect = \"heal\"\nreach = \"ranged\"\nhouse = true\n",
    );
    Table::new(Tiers::setup(&text, Path::new(".")).unwrap())
}

fn parse(t: &Table<Tiers>, seat: &str, line: &str) -> Result<Command, CommandParseError> {
    Tiers::parse_command(t.state(), &Seat::parse(seat), line)
}

#[test]
fn multi_word_names_work_quoted_in_any_case_and_by_prefix() {
    let t = spaced_table();
    let want = Command::Act {
        action: "Heavy Blow".into(),
        target: Some("Goblin Chief".into()),
        cover: false,
    };
    for line in [
        r#"act "Heavy Blow" on "Goblin Chief""#,
        r#"ACT "heavy blow" ON "GOBLIN CHIEF""#,
        "act Heavy_Blow on goblin_chief",
        r#"act "heav" on "goblin c""#,
        "act Heavy Blow on Goblin Chief",
        "act “Heavy Blow” on “Goblin Chief”",
    ] {
        assert_eq!(parse(&t, "Even Steven", line).unwrap(), want, "{line}");
    }
    // A character named with two words: as a target, in Competing Rolls, in
    // PvP, as the GM's NPC ally.
    assert_eq!(
        parse(&t, "Even Steven", r#"act "Heal Up" on "even o""#).unwrap(),
        Command::Act {
            action: "Heal Up".into(),
            target: Some("Even Odds".into()),
            cover: false
        }
    );
    assert_eq!(
        parse(&t, "gm", r#"compete "EVEN STEVEN" str "even odds" SKILL"#).unwrap(),
        Command::Compete {
            first: "Even Steven".into(),
            first_stat: Stat::Strength,
            second: "Even Odds".into(),
            second_stat: Stat::Skill
        }
    );
    assert_eq!(
        parse(&t, "gm", r#""old marun" move "back alley""#).unwrap(),
        Command::Ally {
            ally: "Old Marun".into(),
            does: Box::new(Command::Move {
                path: vec!["Back Alley".into()]
            })
        }
    );
    assert_eq!(
        parse(&t, "gm", r#"move-player "even s" "ice cream shop" pay=cp"#).unwrap(),
        Command::MovePlayer {
            player: "Even Steven".into(),
            to: "Ice Cream Shop".into(),
            pay: Pay::Cp
        }
    );
    // Keyword options take quoted values.
    let Command::Spend { to, enemy, .. } = parse(
        &t,
        "gm",
        r#"spend "goblin chief" hurl d3=1 to="Ice Cream Shop""#,
    )
    .unwrap() else {
        panic!()
    };
    assert_eq!(
        (enemy.as_str(), to.as_deref()),
        ("Goblin Chief", Some("Ice Cream Shop"))
    );
    assert_eq!(
        parse(&t, "Even Odds", r#"item "fast" on "Even Steven""#).unwrap(),
        Command::UseItem {
            item: "Fast Potion".into(),
            target: Some("Even Steven".into())
        }
    );
}

#[test]
fn a_quoted_multi_word_name_plays_at_the_table() {
    let mut t = spaced_table();
    let seat = Seat::parse("even steven");
    let cmd = parse(&t, "even steven", r#"act "heavy blow" on "goblin chief""#).unwrap();
    // 1d6 = 4, critical d6 = 1: the Goblin Chief takes 4.
    t.submit(&seat, &cmd, &mut Seeded::from_seed(1)).unwrap();
    let chief = t.state().enemy("Goblin Chief").unwrap();
    assert!(
        t.state().enemies[chief].attacked_by.contains(&0),
        "{:?}",
        t.state().enemies[chief]
    );
}

#[test]
fn ambiguous_and_unknown_names_list_the_candidates_and_change_nothing() {
    let t = spaced_table();
    let before = t.clone();
    match parse(&t, "gm", r#"compete even strength "Even Odds" skill"#) {
        Err(CommandParseError::Name(NameLookupError::Ambiguous { matches, .. })) => {
            assert_eq!(matches, ["Even Steven", "Even Odds"]);
        }
        other => panic!("{other:?}"),
    }
    match parse(&t, "Even Steven", r#"act "Heavy Blow" on Dragon"#) {
        Err(CommandParseError::Name(NameLookupError::Unknown {
            field, candidates, ..
        })) => {
            assert_eq!(field, "enemy");
            assert_eq!(candidates, ["Goblin Chief", "Gob"]);
        }
        other => panic!("{other:?}"),
    }
    let e = parse(&t, "Even Steven", r#"act "Fly Away""#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("Heavy Blow") && e.contains("Heal Up"), "{e}");
    let e = parse(&t, "Even Steven", "move Moon")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("Ice Cream Shop") && e.contains("Back Alley"),
        "{e}"
    );
    let e = parse(&t, "Even Steven", "roll s 3").unwrap_err();
    assert!(
        matches!(&e, CommandParseError::Name(NameLookupError::Ambiguous { matches, .. }) if matches.len() == 4),
        "{e}"
    );
    let e = parse(&t, "Even Steven", r#"act "Heavy Blow on Gob"#).unwrap_err();
    assert!(matches!(e, CommandParseError::Grammar(_)), "{e}");
    let e = parse(&t, "gm", "dance").unwrap_err();
    assert!(
        matches!(&e, CommandParseError::Unknown { known, .. } if known.contains("spend") && known.contains("Old Marun")),
        "{e}"
    );
    assert!(t == before);
}

/// Every command `legal_commands` offers over the example script is in
/// `COMMANDS`.
#[test]
fn every_legal_command_is_in_the_reference() {
    let mut t = example_table();
    let script = std::fs::read_to_string(examples().join("encounter.script")).unwrap();
    let mut rng = Seeded::from_seed(1);
    let mut seen = 0;
    let mut check = |t: &Table<Tiers>| {
        for seat in Tiers::seats(t.state()) {
            for spec in t.legal_commands(&seat) {
                // The GM's commands for an NPC ally are `ALLY COMMAND`.
                let word = spec.name.rsplit(' ').next().unwrap_or_default();
                assert!(
                    find_command(Tiers::COMMANDS, word).is_some(),
                    "{} is not in COMMANDS",
                    spec.name
                );
                seen += 1;
            }
        }
    };
    for line in script.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        check(&t);
        let (seat, body) = common::seat_and_body(t.state(), line);
        let cmd =
            Tiers::parse_command(t.state(), &seat, body).unwrap_or_else(|e| panic!("{line}: {e}"));
        t.submit(&seat, &cmd, &mut rng)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    check(&t);
    assert!(seen > 50, "{seen}");
}

/// Every name and alias in `COMMANDS` is a command the parser knows.
#[test]
fn every_command_in_the_reference_is_recognised() {
    let t = example_table();
    for d in Tiers::COMMANDS {
        assert!(!d.usage.is_empty() && !d.summary.is_empty(), "{}", d.name);
        for word in std::iter::once(&d.name).chain(d.aliases) {
            for seat in ["GM", "John"] {
                let r = parse(&t, seat, word);
                assert!(
                    !matches!(r, Err(CommandParseError::Unknown { .. })),
                    "{word}: {r:?}"
                );
            }
        }
    }
    // Usage messages come from the reference.
    match parse(&t, "GM", "spawn") {
        Err(CommandParseError::Arguments { usage, .. }) => {
            assert_eq!(usage, find_command(Tiers::COMMANDS, "spawn").unwrap().usage);
        }
        other => panic!("{other:?}"),
    }
}

/// A roller that writes down what each pool is for.
struct Recording {
    dice: Scripted,
    asked: Vec<String>,
}

impl tabula_core::Roller for Recording {
    fn roll(&mut self, die: tabula_core::Die) -> Result<u32, tabula_core::RollError> {
        self.dice.roll(die)
    }

    fn draw(&mut self, pile: &[tabula_core::Card]) -> Result<usize, tabula_core::RollError> {
        self.dice.draw(pile)
    }

    fn announce(&mut self, who: &str, what: &str, count: u32, die: tabula_core::Die) {
        self.asked
            .push(format!("{who}, {what}: roll {count} {die}"));
    }
}

/// `--manual` prompts say whose roll it is and what for.
#[test]
fn each_pool_is_announced_with_who_and_what_for() {
    let mut t = example_table();
    let mut r = Recording {
        dice: Scripted::dice([2, 2, 2]),
        asked: Vec::new(),
    };
    let cmd = parse(&t, "John", "roll skill 3").unwrap();
    t.submit(&Seat::parse("John"), &cmd, &mut r).unwrap();
    let cmd = parse(&t, "GM", "compete john skill cristy skill").unwrap();
    t.submit(&Seat::Gm, &cmd, &mut r).unwrap();
    assert_eq!(
        r.asked,
        [
            "John, Skill: roll 1 d6",
            "John, Skill: roll 1 d6",
            "Cristy, Skill: roll 1 d6"
        ]
    );
}

#[test]
fn the_sheet_follows_the_books_character_sheet() {
    let t = example_table();
    let john = Tiers::sheet(t.state(), &Seat::parse("john"), None).unwrap();
    assert!(john.starts_with("John (level 1, 16 total SP)"), "{john}");
    assert!(john.contains("Health 25/25  AP 6/6  Zone Shop"), "{john}");
    assert!(
        john.contains("Strength") && john.contains("Roleplay Bonus +2"),
        "{john}"
    );
    assert!(
        john.contains("Items:") && john.contains("Conditions: none"),
        "{john}"
    );
    assert!(!john.contains("Cristy"), "{john}");
    let all = Tiers::sheet(t.state(), &Seat::Gm, None).unwrap();
    for name in [
        "John (",
        "Cristy (",
        "Steve, NPC ally",
        "Gob (Goblin)",
        "Medic (Healer)",
    ] {
        assert!(all.contains(name), "{name} in {all}");
    }
    // An enemy's Health is the GM's to see.
    let gob_gm = Tiers::sheet(t.state(), &Seat::Gm, Some("gob")).unwrap();
    assert!(gob_gm.contains("Health 5/5"), "{gob_gm}");
    let gob_john = Tiers::sheet(t.state(), &Seat::parse("John"), Some("GOB")).unwrap();
    assert!(
        gob_john.contains("up") && !gob_john.contains("Health 5"),
        "{gob_john}"
    );
    let e = Tiers::sheet(t.state(), &Seat::Gm, Some("Dragon")).unwrap_err();
    assert!(
        e.to_string().contains("Cristy") && e.to_string().contains("Medic"),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// However the example encounter goes, a player's sheet never shows an
    /// enemy's Health (the GM's to see; `view` hides it too), and any letter
    /// case of a quoted name finds the same sheet.
    #[test]
    fn a_players_sheet_never_shows_an_enemys_health(seed in any::<u64>(), upper in any::<bool>()) {
        let mut t = example_table();
        let mut rng = Seeded::from_seed(seed);
        let script = std::fs::read_to_string(examples().join("encounter.script")).unwrap();
        for line in script.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (seat, body) = common::seat_and_body(t.state(), line);
            if let Ok(cmd) = Tiers::parse_command(t.state(), &seat, body) {
                let _ = t.submit(&seat, &cmd, &mut rng);
            }
            for player in ["John", "Cristy"] {
                let seat = Seat::parse(player);
                let all = Tiers::sheet(t.state(), &Seat::Gm, None).unwrap();
                prop_assert!(all.contains("Health"));
                for e in &t.state().enemies {
                    let name = if upper { e.name.to_uppercase() } else { e.name.to_lowercase() };
                    let quoted = tabula_core::grammar::quote(&name);
                    let words = tabula_core::grammar::words(&quoted).unwrap();
                    let s = Tiers::sheet(t.state(), &seat, Some(&words[0])).unwrap();
                    prop_assert!(s.starts_with(&e.name), "{}", s);
                    let health = format!("Health {}/", e.health);
                    prop_assert!(!s.contains(&health), "{}", s);
                }
            }
        }
    }

    /// However the example encounter goes, no line of a player's log says an
    /// enemy's Health, the Health reserve or the GM's Rolls left (Tiers, "Enemy
    /// Health"; the same split as the sheet, `status` and `view`), no event a
    /// player is sent carries an enemy's Health, and the GM's log is whole.
    #[test]
    fn a_players_log_never_shows_an_enemys_health(seed in any::<u64>()) {
        let mut t = example_table();
        let mut rng = Seeded::from_seed(seed);
        let script = std::fs::read_to_string(examples().join("encounter.script")).unwrap();
        for line in script.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (seat, body) = common::seat_and_body(t.state(), line);
            let before = t.log().len();
            if let Ok(cmd) = Tiers::parse_command(t.state(), &seat, body) {
                let _ = t.submit(&seat, &cmd, &mut rng);
            }
            for entry in &t.log().entries()[before..] {
                let gm = Tiers::describe_for(t.state(), &entry.event, &Seat::Gm);
                prop_assert_eq!(&gm, &Tiers::describe(t.state(), &entry.event));
                for player in ["John", "Cristy"] {
                    let seat = Seat::parse(player);
                    let text = Tiers::describe_for(t.state(), &entry.event, &seat);
                    let names_enemy = t.state().enemies.iter().any(|e| text.starts_with(&e.name));
                    prop_assert!(!(names_enemy && text.contains("Health")), "{}", text);
                    prop_assert!(!text.contains("reserve left") && !text.contains("(left:"), "{}", text);
                    let sent = Tiers::event_for(t.state(), &entry.event, &seat);
                    let spawn_sent = matches!(sent, Some(tabula_tiers::event::Event::EnemySpawned { .. }));
                    prop_assert!(!spawn_sent, "{:?}", sent);
                }
            }
        }
    }
}
