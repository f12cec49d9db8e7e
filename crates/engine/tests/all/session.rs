//! The seat rules, the journal and saves every front end shares, on the books'
//! example tables (issue "Rules the table must keep", items 22, 27-30).

use tabula_core::Seeded;
use tabula_core::roller::Manual;
use tabula_core::system::Seat;
use tabula_engine::play::{self, PlayOptions};
use tabula_engine::{AnyTable, CommandError, Dice, SaveError, SaveFile, SystemId};

use crate::common;
use common::examples;

fn table(system: SystemId, seed: u64) -> AnyTable {
    let dir = examples(system);
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    AnyTable::setup(system, &text, &dir, Seeded::from_seed(seed)).unwrap()
}

fn player(name: &str) -> Seat {
    Seat::Player(name.into())
}

#[test]
fn undo_is_the_gms_alone() {
    let mut t = table(SystemId::Bastards, 1);
    t.submit_text(
        &player("Stella"),
        "fate Cynthia Business Mind 3",
        Dice::Table,
    )
    .unwrap();
    let seq = t.seq();
    let e = t.undo(&player("Stella")).unwrap_err();
    assert!(matches!(e, CommandError::GmOnly { .. }), "{e}");
    assert_eq!(t.seq(), seq, "a refused undo changes nothing");
    let acc = t.undo(&Seat::Gm).unwrap();
    assert_eq!(acc.events.len(), 1);
    assert_eq!(acc.events[0].kind, "undo");
    assert!(matches!(
        t.undo(&Seat::Gm),
        Err(CommandError::NothingToUndo)
    ));
}

#[test]
fn undo_is_never_a_reroll() {
    for system in [SystemId::Bastards, SystemId::Sapio, SystemId::Tiers] {
        let mut t = table(system, 7);
        let (seat, line) = match system {
            SystemId::Bastards => (player("Stella"), "fate Cynthia Business Mind 3"),
            SystemId::Tiers => (player("John"), "roll skill very-easy"),
            _ => (Seat::Gm, "check Wren 3"),
        };
        let first = t.submit_text(&seat, line, Dice::Table).unwrap();
        t.undo(&Seat::Gm).unwrap();
        let again = t.submit_text(&seat, line, Dice::Table).unwrap();
        let texts = |a: &tabula_engine::Accepted| {
            a.events.iter().map(|l| l.text.clone()).collect::<Vec<_>>()
        };
        assert_eq!(
            texts(&first),
            texts(&again),
            "{system}: the same dice again"
        );
        // The undo itself is in the log, and the sequence numbers never repeat.
        let log = t.log_for(&Seat::Gm, 0);
        assert!(log.iter().any(|l| l.kind == "undo"), "{system}");
        let seqs: Vec<u64> = log.iter().map(|l| l.seq).collect();
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{system}: {seqs:?}");
    }
}

#[test]
fn a_refused_command_does_not_move_the_roller() {
    let mut a = table(SystemId::Tiers, 3);
    let mut b = table(SystemId::Tiers, 3);
    assert!(
        a.submit_text(&player("John"), "fly to the moon", Dice::Table)
            .is_err()
    );
    assert!(
        a.submit_text(&player("John"), "roll skill impossible-goal", Dice::Table)
            .is_err()
    );
    let x = a
        .submit_text(&player("John"), "roll skill very-easy", Dice::Table)
        .unwrap();
    let y = b
        .submit_text(&player("John"), "roll skill very-easy", Dice::Table)
        .unwrap();
    assert_eq!(x, y);
}

#[test]
fn a_name_that_is_no_seat_is_refused_with_the_seats() {
    let mut t = table(SystemId::Bastards, 1);
    let e = t.resolve_seat("Mallory").unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("Mallory") && text.contains("Stella") && text.contains("GM"),
        "{text}"
    );
    assert_eq!(t.resolve_seat("stella").unwrap(), player("Stella"));
    assert_eq!(t.resolve_seat("DEALER").unwrap(), Seat::Gm);
    let e = t
        .submit_text(
            &player("Mallory"),
            "fate Cynthia Business Mind 3",
            Dice::Table,
        )
        .unwrap_err();
    assert!(matches!(e, CommandError::UnknownSeat { .. }));
}

#[test]
fn a_player_sees_only_its_own_view() {
    let t = table(SystemId::Bastards, 1);
    assert!(t.view(&player("Stella"), &player("Stella")).is_ok());
    assert!(matches!(
        t.view(&player("Stella"), &player("Blaine")),
        Err(CommandError::NotYourView { .. })
    ));
    assert!(matches!(
        t.view(&player("Stella"), &Seat::Gm),
        Err(CommandError::NotYourView { .. })
    ));
    assert!(t.view(&Seat::Gm, &player("Stella")).is_ok());
}

#[test]
fn manual_dice_that_run_short_refuse_the_whole_command() {
    let mut t = table(SystemId::Tiers, 1);
    let mut short = Manual::from_values(Vec::<String>::new());
    let e = t
        .submit_text(
            &player("John"),
            "roll skill very-easy",
            Dice::Manual(&mut short),
        )
        .unwrap_err();
    assert!(e.to_string().contains("need 1 more d6"), "{e}");
    assert_eq!(t.seq(), 0);
    let mut given = Manual::from_values(["4"]);
    let acc = t
        .submit_text(
            &player("John"),
            "roll skill very-easy",
            Dice::Manual(&mut given),
        )
        .unwrap();
    assert!(acc.events.iter().any(|l| l.text.contains('4')), "{acc:?}");
}

#[test]
fn book_commands_win_over_driver_commands() {
    // Sapio's `help` is Receiving Help: the driver must not take it.
    let t = table(SystemId::Sapio, 1);
    assert!(t.knows_command(&player("Ben"), "help Brannoc Battle-hardened"));
    let t = table(SystemId::Tiers, 1);
    assert!(!t.knows_command(&player("John"), "status"));
}

fn play_script(t: &mut AnyTable, script: &str) -> (play::PlaySummary, String) {
    let mut out = Vec::new();
    let summary = play::run(
        t,
        &mut script.as_bytes(),
        &mut out,
        None,
        PlayOptions {
            echo: true,
            strict: false,
            saving: false,
            json: false,
        },
        &mut |_| Ok(()),
    )
    .unwrap();
    (summary, String::from_utf8(out).unwrap())
}

#[test]
fn the_terminal_keeps_the_seat_rules() {
    let mut t = table(SystemId::Bastards, 1);
    let script = "Stella: fate Cynthia Business Mind 3\nStella: undo\nMallory: begin\n\
                  Stella: view Blaine\nstella: view\ngm: undo\n/fly\nquit\n";
    let (summary, text) = play_script(&mut t, script);
    assert!(text.contains("only the GM may undo"), "{text}");
    assert!(text.contains("\"Mallory\" is no seat"), "{text}");
    assert!(text.contains("may see only their own view"), "{text}");
    assert!(text.contains("undid the last command"), "{text}");
    assert!(text.contains("unknown driver command"), "{text}");
    assert!(text.contains("not saved"), "{text}");
    assert_eq!(summary.accepted, 2);
    assert_eq!(summary.refused, 4);
}

#[test]
fn a_line_that_never_ends_is_refused_in_bounded_memory() {
    let mut t = table(SystemId::Tiers, 1);
    let endless = std::io::Read::take(std::io::repeat(b'x'), 1 << 30);
    let mut reader = std::io::BufReader::new(endless);
    let mut out = Vec::new();
    let e = play::run(
        &mut t,
        &mut reader,
        &mut out,
        None,
        PlayOptions::default(),
        &mut |_| Ok(()),
    )
    .unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
}

#[test]
fn a_save_replays_its_log_and_keeps_the_dice_stream() {
    let mut t = table(SystemId::Bastards, 5);
    t.submit_text(
        &player("Stella"),
        "fate Cynthia Business Mind 3",
        Dice::Table,
    )
    .unwrap();
    t.submit_text(&Seat::Gm, "begin", Dice::Table).unwrap();
    t.undo(&Seat::Gm).unwrap();
    let text = serde_json::to_string(&SaveFile::of(&t)).unwrap();
    let mut back = SaveFile::load(SystemId::Bastards, &text).unwrap();
    assert_eq!(back.state(), t.state());
    assert_eq!(back.seq(), t.seq());
    let a = t.submit_text(&Seat::Gm, "begin", Dice::Table).unwrap();
    let b = back.submit_text(&Seat::Gm, "begin", Dice::Table).unwrap();
    assert_eq!(a, b, "the same dice stream continues");
    // Another system's save says which system it is.
    let e = SaveFile::load(SystemId::Sapio, &text).unwrap_err();
    assert!(matches!(e, SaveError::OtherSystem { .. }));
    assert!(e.to_string().contains("bastards"), "{e}");
    // A stored state that disagrees with the replay is refused.
    let mut save: serde_json::Value = serde_json::from_str(&text).unwrap();
    save["state"]["round"] = serde_json::json!(99);
    let e = SaveFile::load(SystemId::Bastards, &save.to_string()).unwrap_err();
    assert!(e.to_string().contains("disagrees"), "{e}");
}

#[test]
fn raw_rows_restore_the_same_table() {
    let mut t = table(SystemId::Sapio, 9);
    let mut out = Vec::new();
    let script =
        std::fs::read_to_string(examples(SystemId::Sapio).join("encounter.script")).unwrap();
    play::run(
        &mut t,
        &mut script.as_bytes(),
        &mut out,
        None,
        PlayOptions::default(),
        &mut |_| Ok(()),
    )
    .unwrap();
    assert!(t.seq() > 10);
    let rows = t.raw_rows_after(0);
    let back = AnyTable::restore(
        SystemId::Sapio,
        &t.initial_state(),
        &t.initial_roller(),
        &rows,
    )
    .unwrap();
    assert_eq!(back.state(), t.state());
    assert_eq!(back.roller(), t.roller());
    assert_eq!(back.log_for(&Seat::Gm, 0), t.log_for(&Seat::Gm, 0));
}

/// Every shipped script plays with its table, `--strict`, with no refusal: a
/// line the driver or the book does not take is a refusal, so none is ignored.
/// `X.script` plays `X.toml` when there is one, else `table.toml`; `X.dice`
/// beside it holds the dice rolled at the table, typed as `--manual` would ask.
#[test]
fn every_shipped_script_plays_strictly_with_no_line_ignored() {
    let mut played = 0;
    for common::Shipped {
        path,
        table: mut t,
        script,
        mut dice,
        ..
    } in common::shipped_scripts(1)
    {
        let mut out = Vec::new();
        let summary = play::run(
            &mut t,
            &mut script.as_bytes(),
            &mut out,
            dice.as_mut()
                .map(|m| m as &mut dyn tabula_core::roller::Roller),
            PlayOptions {
                echo: true,
                strict: true,
                saving: false,
                json: false,
            },
            &mut |_| Ok(()),
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(summary.refused, 0, "{}:\n{out}", path.display());
        assert!(summary.accepted > 0, "{}", path.display());
        played += 1;
    }
    assert!(played >= 7, "only {played} scripts found");
}

/// The lines an accepted command returns (described from the states kept for
/// it) are the lines the log gives for the same rows (described by replaying
/// the journal), for every seat.
#[test]
fn a_commands_lines_match_the_replayed_log_for_every_seat() {
    let mut t = table(SystemId::Bastards, 11);
    let script =
        std::fs::read_to_string(examples(SystemId::Bastards).join("encounter.script")).unwrap();
    let mut out = Vec::new();
    let mut checked = 0;
    for line in script
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let before = t.seq();
        play::run(
            &mut t,
            &mut format!("{line}\n").as_bytes(),
            &mut out,
            None,
            PlayOptions::default(),
            &mut |_| Ok(()),
        )
        .unwrap();
        if t.seq() > before + 1 {
            for seat in t.seats() {
                assert_eq!(
                    t.lines_since(&seat, before),
                    t.log_for(&seat, before),
                    "{line}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 5);
}

fn run_with(
    t: &mut AnyTable,
    script: &str,
    manual: Option<&mut dyn tabula_core::roller::Roller>,
    json: bool,
) -> (play::PlaySummary, String) {
    let mut out = Vec::new();
    let summary = play::run(
        t,
        &mut script.as_bytes(),
        &mut out,
        manual,
        PlayOptions {
            echo: true,
            strict: false,
            saving: false,
            json,
        },
        &mut |_| Ok(()),
    )
    .unwrap();
    (summary, String::from_utf8(out).unwrap())
}

/// Issue "One command language", part 3: `undo` at a manual prompt takes back
/// the command being rolled for, `quit` also stops play; neither changes the
/// table, and the prompt says whose draw it is and what for.
#[test]
fn undo_and_quit_at_the_dice_prompt_withdraw_the_command() {
    use std::sync::{Arc, Mutex};
    use tabula_core::roller::Answer;
    let asked = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = asked.clone();
    let mut answers = vec![Answer::Quit, Answer::Withdraw];
    let mut manual = Manual::prompting(Box::new(move |q, _| {
        seen.lock().unwrap().push(q.to_string());
        answers.pop().unwrap_or(Answer::End)
    }));
    let mut t = table(SystemId::Bastards, 1);
    let script = "stella: fate Cynthia Business Mind 3\nstella: fate Cynthia Business Mind 3\nstella: fate Cynthia Business Mind 3\n";
    let (summary, out) = run_with(&mut t, script, Some(&mut manual), false);
    assert_eq!(summary.withdrawn, 2, "{out}");
    assert_eq!(summary.accepted + summary.refused, 0, "{out}");
    assert_eq!(t.seq(), 0, "nothing changed");
    assert_eq!(
        out.matches("> stella: fate").count(),
        2,
        "quit stopped play:\n{out}"
    );
    assert!(out.contains("withdrawn at the dice prompt"), "{out}");
    let asked = asked.lock().unwrap();
    assert!(
        asked[0].starts_with("Cynthia, Skill Hand (Business): draw 3 cards"),
        "the prompt names the draw: {asked:?}"
    );
}

/// Issue "One command language", part 1: a seat typed by the start of its
/// name and in any case; a name before a colon that is no seat is refused
/// with the seats.
#[test]
fn a_seat_prefix_is_read_by_the_start_of_its_name() {
    let mut t = table(SystemId::Bastards, 1);
    let (summary, out) = run_with(
        &mut t,
        "STEL: fate cynthia business mind 3\nMallory: draw\n",
        None,
        false,
    );
    assert_eq!((summary.accepted, summary.refused), (1, 1), "{out}");
    assert!(out.contains("Stella") && out.contains("GM"), "{out}");
    assert_eq!(t.log_for(&Seat::Gm, 0)[0].seat, "Stella");
}

/// Issue "One command language", part 4: `--json play` prints one JSON object
/// per line: prompts, events, refusals, driver answers and the summary.
#[test]
fn json_play_prints_one_object_per_line() {
    let mut t = table(SystemId::Bastards, 1);
    let (_, out) = run_with(
        &mut t,
        "stella: fate Cynthia Business Mind 3\nstella: fate Nobody Business Mind 3\n/sheet Cynthia\n?\n",
        None,
        true,
    );
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let types: Vec<&str> = objects
        .iter()
        .map(|o| o["type"].as_str().unwrap())
        .collect();
    for want in ["prompt", "event", "refused", "sheet", "help", "summary"] {
        assert!(types.contains(&want), "no {want} in {types:?}");
    }
    assert_eq!(types.last(), Some(&"summary"));
    let refused = objects.iter().find(|o| o["type"] == "refused").unwrap();
    assert_eq!(refused["error"]["parse"], "name");
    assert!(
        refused["error"]["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "Cynthia")
    );
    let prompt = &objects[0];
    assert!(prompt["legal"].is_array() && prompt["status"].is_string());
}
