//! Table talk and the free roller at every book's table (issue 27, items 1
//! and 2; `tabula_engine::talk`): who may say what, who sees it, that it
//! survives a save and an undo, and that a roll names who rolled.

use crate::common;

use tabula_core::Seeded;
use tabula_core::system::Seat;
use tabula_engine::session::TalkError;
use tabula_engine::{AnyTable, CommandError, Dice, LogLine, SaveFile, SystemId};

fn example_table(system: SystemId) -> AnyTable {
    let dir = common::examples(system);
    let text = std::fs::read_to_string(dir.join("table.toml")).expect("table.toml");
    AnyTable::setup(system, &text, &dir, Seeded::from_seed(7)).expect("the example table")
}

fn player(t: &AnyTable) -> Seat {
    t.seats()
        .into_iter()
        .find(|s| !s.is_gm())
        .expect("a player seat")
}

fn texts(lines: &[LogLine]) -> Vec<String> {
    lines.iter().map(|l| l.text.clone()).collect()
}

/// The lines of `seat`'s log whose text holds `needle`.
fn said(t: &AnyTable, seat: &Seat, needle: &str) -> Vec<LogLine> {
    t.log_for(seat, 0)
        .into_iter()
        .filter(|l| l.text.contains(needle))
        .collect()
}

/// In each book: a player's `say`, `ooc` and `roll` reach every seat with
/// the player's name; a whisper reaches the speaker, the listener and the
/// GM only; narration and secret rolls are the GM's; refusals change
/// nothing; everything survives a save and reload.
#[test]
fn talk_and_rolls_reach_exactly_the_seats_they_should_in_every_book() {
    for system in SystemId::ALL {
        let mut t = example_table(system);
        let ana = player(&t);
        let others: Vec<Seat> = t.seats().into_iter().filter(|s| *s != ana).collect();
        let before = t.seq();
        let acc = t
            .submit_text(&ana, "say We go in through the back.", Dice::Table)
            .unwrap_or_else(|e| panic!("{system:?}: say: {e}"));
        assert_eq!(acc.seq, before + 1, "{system:?}: one row");
        assert_eq!(acc.events.len(), 1);
        assert_eq!(acc.events[0].kind, "say");
        assert_eq!(acc.events[0].seat, ana.to_string());
        t.submit_text(&ana, "ooc brb, pizza", Dice::Table).unwrap();
        let acc = t
            .submit_text(&ana, "roll 2d6 + 1 # test", Dice::Table)
            .unwrap_or_else(|e| panic!("{system:?}: roll: {e}"));
        let roll = &acc.events[0];
        assert_eq!(roll.kind, "roll", "{system:?}: {roll:?}");
        assert!(
            roll.text.starts_with(&format!("{ana} rolls 2d6 (")),
            "{system:?}: {}",
            roll.text
        );
        assert!(roll.text.ends_with("for “test”"), "{}", roll.text);
        let total = roll.event.as_ref().unwrap()["roll"]["total"]
            .as_i64()
            .unwrap();
        assert!((3..=13).contains(&total));
        for seat in t.seats() {
            assert_eq!(said(&t, &seat, "back.").len(), 1, "{system:?}: {seat}");
            assert_eq!(said(&t, &seat, "pizza").len(), 1, "{system:?}: {seat}");
            assert_eq!(said(&t, &seat, "for “test”").len(), 1, "{system:?}: {seat}");
        }

        // A whisper to the GM: the speaker and the GM, nobody else.
        t.submit_text(&ana, "whisper gm I pocket the key", Dice::Table)
            .unwrap();
        assert_eq!(said(&t, &ana, "pocket the key").len(), 1);
        assert_eq!(said(&t, &Seat::Gm, "pocket the key").len(), 1);
        for seat in others.iter().filter(|s| !s.is_gm()) {
            assert!(said(&t, seat, "pocket").is_empty(), "{system:?}: {seat}");
        }

        // The GM narrates and rolls in secret; a player may do neither.
        t.submit_text(&Seat::Gm, "narrate The lights go out.", Dice::Table)
            .unwrap();
        t.submit_text(&Seat::Gm, "roll 1d20 + 3 secret ambush", Dice::Table)
            .unwrap();
        assert_eq!(said(&t, &Seat::Gm, "“ambush”").len(), 1);
        assert!(said(&t, &ana, "ambush").is_empty());
        assert!(said(&t, &ana, "in secret").is_empty());
        let seq = t.seq();
        assert_eq!(
            t.submit_text(&ana, "narrate I am the GM now", Dice::Table)
                .unwrap_err(),
            CommandError::Talk(TalkError::NarrateGmOnly)
        );
        assert_eq!(
            t.submit_text(&ana, "roll secret 1d6", Dice::Table)
                .unwrap_err(),
            CommandError::Talk(TalkError::SecretGmOnly)
        );
        assert!(matches!(
            t.submit_text(&ana, "say", Dice::Table).unwrap_err(),
            CommandError::Talk(TalkError::Empty { .. })
        ));
        assert!(matches!(
            t.submit_text(&ana, &format!("say {}", "a".repeat(1001)), Dice::Table)
                .unwrap_err(),
            CommandError::Talk(TalkError::TooLong { max: 1000, .. })
        ));
        assert!(matches!(
            t.submit_text(&ana, "whisper nobody-here hi", Dice::Table)
                .unwrap_err(),
            CommandError::UnknownSeat { .. }
        ));
        assert!(matches!(
            t.submit_text(&ana, "roll 2d6 +", Dice::Table).unwrap_err(),
            CommandError::Talk(TalkError::Notation { .. }) | CommandError::Parse(_)
        ));
        assert_eq!(t.seq(), seq, "{system:?}: a refusal changed the table");

        // A save and reload keeps every line, as each seat saw it.
        let saved = serde_json::to_string(&SaveFile::of(&t)).unwrap();
        let back = SaveFile::load(system, &saved).unwrap();
        for seat in t.seats() {
            assert_eq!(
                texts(&back.log_for(&seat, 0)),
                texts(&t.log_for(&seat, 0)),
                "{system:?}: {seat}"
            );
        }
    }
}

/// An undo takes back the last command of the rules, never the talk after
/// it, and does not roll the dice of a free roll again.
#[test]
fn an_undo_never_removes_talk_or_a_free_roll() {
    for system in SystemId::ALL {
        let mut t = example_table(system);
        let seat = t.default_seat();
        let command = t
            .suggest(&seat)
            .unwrap_or_else(|| panic!("{system:?}: the policy has a first command"));
        t.submit_json(&seat, &command, Dice::Table).unwrap();
        let moved = t.seq();
        let ana = player(&t);
        t.submit_text(&ana, "say Did that work?", Dice::Table)
            .unwrap();
        t.submit_text(&ana, "/roll 1d6 # luck", Dice::Table)
            .unwrap();
        let undo = t.undo(&Seat::Gm).unwrap();
        assert!(undo.seq > moved + 2);
        for seat in t.seats() {
            assert_eq!(said(&t, &seat, "Did that work?").len(), 1, "{system:?}");
            assert_eq!(said(&t, &seat, "“luck”").len(), 1, "{system:?}");
        }
        let saved = serde_json::to_string(&SaveFile::of(&t)).unwrap();
        let back = SaveFile::load(system, &saved).unwrap();
        assert_eq!(back.state(), t.state());
        assert_eq!(back.roller(), t.roller());
    }
}

/// A seat may roll its own dice: the values typed are used and marked typed.
#[test]
fn a_free_roll_with_typed_dice_uses_them_and_says_so() {
    let mut t = example_table(SystemId::SourGrapes);
    let ana = player(&t);
    let typed = ["3".to_string(), "4".to_string()];
    let acc = t
        .submit_text(&ana, "roll 2d6 + 1", Dice::Typed(&typed))
        .unwrap();
    let line = &acc.events[0];
    assert!(line.typed);
    assert_eq!(line.event.as_ref().unwrap()["roll"]["total"], 8);
    assert!(
        line.text.ends_with(&format!("(typed by {ana})")),
        "{}",
        line.text
    );
    let seq = t.seq();
    let short = ["3".to_string()];
    assert!(matches!(
        t.submit_text(&ana, "roll 2d6", Dice::Typed(&short)),
        Err(CommandError::Talk(TalkError::Roll { .. }))
    ));
    assert_eq!(t.seq(), seq);
}

/// Tiers' own `roll` is the book's check; a line the book cannot read but
/// the dice notation can is a free roll.
#[test]
fn tiers_roll_is_the_books_and_dice_notation_is_the_free_roller() {
    let mut t = example_table(SystemId::Tiers);
    let ana = player(&t);
    let acc = t
        .submit_text(&ana, "roll 2d6 + 1 # test", Dice::Table)
        .unwrap();
    assert_eq!(acc.events[0].kind, "roll");
    assert!(t.knows_command(&ana, "roll"));
}

/// Issue 27, bug 8: the Brute's Divert is rolled when Ana's `pass` closes the
/// step; its log line names the GM's seat (the Brute's), and says Ana's
/// command closed it. Sour Grapes, "Divert" (000_05a1db5b88f54528.txt).
#[test]
fn a_roll_made_when_another_seats_command_closes_a_step_names_its_roller() {
    let shipped = common::shipped_scripts(1)
        .into_iter()
        .find(|s| s.system == SystemId::SourGrapes && s.stem == "encounter")
        .expect("the Sour Grapes encounter script");
    let mut t = shipped.table;
    let mut dice = shipped.dice;
    let ana = Seat::Player("Ana".into());
    let mut diverted = false;
    for line in shipped.script.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (seat, text) = line.split_once(": ").unwrap();
        let seat = t.resolve_seat(seat).unwrap();
        let roll = match dice.as_mut() {
            Some(d) => Dice::Manual(d),
            None => Dice::Table,
        };
        t.submit_text(&seat, text, roll)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        diverted |= text.starts_with("divert");
        if diverted && line == "Ana: pass" {
            break;
        }
    }
    assert!(diverted, "the script has the Brute's Divert");
    let lines = t.log_for(&ana, 0);
    let closed: Vec<&LogLine> = lines
        .iter()
        .filter(|l| l.given_by.as_deref() == Some("Ana"))
        .collect();
    assert!(
        closed
            .iter()
            .any(|l| l.seat == "GM" && l.text.contains("Tavern Brute")),
        "the Brute's roll is credited to the GM's seat: {lines:#?}"
    );
    for l in &lines {
        if l.text.starts_with("Rook") || l.text.contains("Rook rolls") {
            assert_eq!(l.seat, "Ana", "{l:?}");
        }
    }
}

/// Issue 27, bug 8 in the other four books: playing each shipped encounter
/// script, a line credited to another seat than the one whose command made
/// it names the seat that plays the roller (checked per book below).
#[test]
fn every_book_credits_a_roll_to_the_seat_that_plays_the_roller() {
    for shipped in common::shipped_scripts(1)
        .into_iter()
        .filter(|s| s.stem == "encounter" && s.system != SystemId::SourGrapes)
    {
        let system = shipped.system;
        let mut t = shipped.table;
        let mut dice = shipped.dice;
        for line in shipped.script.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            // `SEAT: COMMAND`, or a command of whose turn it is.
            let (seat, text) = match line
                .split_once(": ")
                .and_then(|(s, x)| t.resolve_seat(s).ok().map(|s| (s, x)))
            {
                Some(p) => p,
                None => (t.default_seat(), line),
            };
            // The driver's own words (`status`, `sheet`) are not the table's.
            if !t.knows_command(&seat, text) {
                continue;
            }
            let roll = match dice.as_mut() {
                Some(d) => Dice::Manual(d),
                None => Dice::Table,
            };
            t.submit_text(&seat, text, roll)
                .unwrap_or_else(|e| panic!("{system}: {line}: {e}"));
        }
        let lines = t.log_for(&Seat::Gm, 0);
        let credited = |seat: &str, by: &str, text: &str| {
            lines.iter().any(|l| {
                l.seat == seat && l.given_by.as_deref() == Some(by) && l.text.contains(text)
            })
        };
        match system {
            // Tiers, "Responses": Gob's Block answers John's attack; the
            // enemy's roll is the GM's.
            SystemId::Tiers => assert!(credited("GM", "John", "Gob uses Block"), "{lines:#?}"),
            // A Game of Bastards: the Dealer deals every hand; each is drawn
            // by the seat that commands the character.
            SystemId::Bastards => {
                assert!(credited("Stella", "GM", "Cynthia draws"), "{lines:#?}");
                assert!(credited("Blaine", "GM", "Kodos draws"), "{lines:#?}");
            }
            _ => {}
        }
        // Sapio: a check's dice are the focal character's player's.
        if system == SystemId::Sapio {
            for l in lines.iter().filter(|l| l.text.starts_with("Wren rolls")) {
                assert_eq!(l.seat, "Ana", "{l:?}");
            }
        }
    }
    // Scratch RPS, "Rolls": a roll the GM calls for is the character's.
    let mut t = example_table(SystemId::Scratch);
    t.submit_text(&Seat::Gm, "roll chokestar 15", Dice::Table)
        .expect("the GM calls a roll");
    let lines = t.log_for(&Seat::Gm, 0);
    let last = lines.last().expect("a line");
    assert_eq!(
        (last.seat.as_str(), last.given_by.as_deref()),
        ("alice", Some("GM")),
        "{last:?}"
    );
}

/// Issue 30, item 3: a table's free roller reads the table setting
/// `dice_dialect`. At a `roll20` table `roll 8d6!` explodes and `roll
/// 10d10>7` counts the dice of 7 or more, each exactly as
/// `Expr::parse_in(TEXT, Roll20)` rolls it from the same stream, and the
/// line says "(roll20)"; at a `d20` table (the default) the same text is
/// read as d20 reads it (`10d10>7` counts the dice above 7) or refused
/// (`8d6!`), and a refusal changes nothing.
#[test]
fn the_free_roller_reads_the_tables_dice_dialect_in_every_book() {
    use tabula_core::notation::{Dialect, Expr};
    let table = |system: SystemId, dialect: Dialect| {
        let dir = common::examples(system);
        let text = std::fs::read_to_string(dir.join("table.toml")).expect("table.toml");
        let text = format!("dice_dialect = \"{dialect}\"\n{text}");
        AnyTable::setup(system, &text, &dir, Seeded::from_seed(11)).expect("the example table")
    };
    // What the table's fresh stream gives for `text` read in `dialect`.
    let expected = |text: &str, dialect: Dialect| {
        Expr::parse_in(text, dialect)
            .unwrap()
            .roll(&mut Seeded::from_seed(11))
            .unwrap()
    };
    for system in SystemId::ALL {
        for (text, dialect) in [
            ("8d6!", Dialect::Roll20),
            ("10d10>7", Dialect::Roll20),
            ("10d10>7", Dialect::D20),
            ("{4d6+3, 2d8}kh1", Dialect::Foundry),
        ] {
            let mut t = table(system, dialect);
            let ana = player(&t);
            let acc = t
                .submit_text(&ana, &format!("roll {text} # hits"), Dice::Table)
                .unwrap_or_else(|e| panic!("{system:?} {dialect}: roll {text}: {e}"));
            let want = expected(text, dialect);
            let event = acc.events[0].event.as_ref().unwrap();
            assert_eq!(
                event["roll"]["total"].as_i64(),
                Some(want.total),
                "{system:?} {dialect}: {text}"
            );
            assert_eq!(event["roll"]["outcome"], want.to_string());
            let line = &acc.events[0].text;
            assert_eq!(
                line.contains(&format!("({dialect})")),
                !dialect.is_d20(),
                "{system:?}: {line}"
            );
            // Another dialect's text is shown as typed before the outcome's
            // one spelling.
            let typed_first = format!("{ana} rolls {text} → {want}");
            assert_eq!(
                line.starts_with(&typed_first),
                !dialect.is_d20(),
                "{system:?}: {line}"
            );
            for seat in t.seats() {
                assert_eq!(said(&t, &seat, "“hits”").len(), 1, "{system:?}: {seat}");
            }
        }
        // Roll20's `>` includes the target, d20's does not: the same faces
        // count differently.
        let faces = |o: &tabula_core::notation::RollOutcome| -> Vec<i64> {
            o.root.dice().iter().map(|d| d.value).collect()
        };
        let (r20, d20) = (
            expected("10d10>7", Dialect::Roll20),
            expected("10d10>7", Dialect::D20),
        );
        assert_eq!(faces(&r20), faces(&d20));
        let count = |at_least: i64| faces(&r20).iter().filter(|v| **v >= at_least).count();
        assert_eq!(r20.total, count(7) as i64);
        assert_eq!(d20.total, count(8) as i64);

        // d20 has no `!`: refused at a d20 table, naming the dialect, and
        // nothing changes (`/roll` is the table's word in every book; a
        // bare `roll` a book has is that book's command when the dice
        // notation cannot read the line).
        let mut t = table(system, Dialect::D20);
        let ana = player(&t);
        let seq = t.seq();
        let refused = t
            .submit_text(&ana, "/roll 8d6!", Dice::Table)
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("in d20 notation (this table's `dice_dialect`)"),
            "{system:?}: {refused}"
        );
        assert_eq!(t.seq(), seq, "{system:?}");
    }
}
