//! Snapshots and catching up (issue 15): a table restored from a snapshot of its
//! state, or caught up row by row with rows another server wrote, is the table the
//! full replay of its log gives: state, roller, journal, every seat's log and lines,
//! and every undo back to the start.

use crate::common;
use common::Shipped;

use tabula_core::roller::Roller;
use tabula_core::system::Seat;
use tabula_engine::play::{self, PlayOptions};
use tabula_engine::{AnyTable, RawRow, SystemId};

/// Every shipped script of every system, played on its table: each with a few
/// undos given in the middle and at the end, so the journal holds undo rows.
fn played_tables() -> Vec<(SystemId, String, AnyTable)> {
    let mut tables = Vec::new();
    for Shipped {
        system,
        stem,
        table: mut t,
        script,
        mut dice,
        ..
    } in common::shipped_scripts(5)
    {
        let lines: Vec<&str> = script.lines().collect();
        for (i, chunk) in lines.chunks(7).enumerate() {
            let mut text = chunk.join("\n");
            text.push('\n');
            play::run(
                &mut t,
                &mut text.as_bytes(),
                &mut Vec::new(),
                dice.as_mut().map(|m| m as &mut dyn Roller),
                PlayOptions::default(),
                &mut |_| Ok(()),
            )
            .unwrap();
            if i % 3 == 1 {
                let _ = t.undo(&Seat::Gm);
            }
        }
        let _ = t.undo(&Seat::Gm);
        let _ = t.undo(&Seat::Gm);
        tables.push((system, stem, t));
    }
    assert!(tables.len() >= 7, "only {} scripts", tables.len());
    tables
}

fn replay(t: &AnyTable, rows: &[RawRow]) -> AnyTable {
    AnyTable::restore(t.system(), &t.initial_state(), &t.initial_roller(), rows).unwrap()
}

/// Everything a seat or the store can see of a table.
fn assert_same(a: &AnyTable, b: &AnyTable, what: &str) {
    assert_eq!(a.seq(), b.seq(), "{what}: seq");
    assert_eq!(a.state(), b.state(), "{what}: state");
    assert_eq!(a.roller(), b.roller(), "{what}: roller");
    assert_eq!(a.raw_rows_after(0), b.raw_rows_after(0), "{what}: journal");
    for seat in a.seats() {
        assert_eq!(a.log_for(&seat, 0), b.log_for(&seat, 0), "{what}: log");
        assert_eq!(
            a.view(&seat, &seat).ok(),
            b.view(&seat, &seat).ok(),
            "{what}: view"
        );
    }
}

#[test]
fn a_table_restored_from_any_snapshot_is_the_replayed_table() {
    let mut checked = 0;
    for (system, stem, t) in played_tables() {
        let rows = t.raw_rows_after(0);
        assert!(
            rows.iter().any(|r| r.entry["kind"] == "undo"),
            "{system} {stem}: no undo row"
        );
        // Snapshots only ever sit at command ends (a command's rows are one append);
        // every fourth one, and the last.
        let ends: Vec<usize> = (0..rows.len()).filter(|&k| rows[k].command_end).collect();
        let picked = ends
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 4 == 0 || i + 1 == ends.len());
        let whole = replay(&t, &rows);
        let middle = ends.len() / 8 * 4;
        for (i, &k) in picked {
            let row = &rows[k];
            let what = format!("{system} {stem} snapshot at {}", row.seq);
            let at = replay(&t, &rows[..=k]);
            let state = at.state();
            let from = AnyTable::restore_from_snapshot(
                system,
                &t.initial_state(),
                &t.initial_roller(),
                Some((row.seq, &state)),
                &rows,
            )
            .unwrap();
            assert_same(&from, &t, &what);
            // Undo back past the snapshot (from the middle one, all the way back):
            // the undo points and the event log came back too.
            let (mut a, mut b) = (from, replay(&whole, &rows));
            let undos = if i == middle { usize::MAX } else { 3 };
            for _ in 0..undos {
                let (x, y) = (a.undo(&Seat::Gm), b.undo(&Seat::Gm));
                assert_eq!(x.is_ok(), y.is_ok(), "{what}: undo");
                assert_eq!(a.state(), b.state(), "{what}: state after undo");
                assert_eq!(a.roller(), b.roller(), "{what}: roller after undo");
                if x.is_err() {
                    break;
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} snapshots checked");
}

#[test]
fn a_snapshot_past_the_log_or_of_another_system_is_not_taken() {
    let (system, _, t) = played_tables().remove(0);
    let rows = t.raw_rows_after(0);
    let state = t.state();
    // Past the last row: ignored, the log is replayed.
    let far = AnyTable::restore_from_snapshot(
        system,
        &t.initial_state(),
        &t.initial_roller(),
        Some((t.seq() + 5, &state)),
        &rows,
    )
    .unwrap();
    assert_same(&far, &t, "far snapshot");
    // Not this system's state: refused.
    let other = serde_json::json!({"not": "a state"});
    assert!(
        AnyTable::restore_from_snapshot(
            system,
            &t.initial_state(),
            &t.initial_roller(),
            Some((1, &other)),
            &rows,
        )
        .is_err()
    );
}

#[test]
fn a_table_caught_up_with_rows_from_elsewhere_is_the_replayed_table() {
    let mut checked = 0;
    for (system, stem, t) in played_tables() {
        let rows = t.raw_rows_after(0);
        let ends: Vec<usize> = rows
            .iter()
            .enumerate()
            .filter(|(_, r)| r.command_end)
            .map(|(k, _)| k + 1)
            .collect();
        // Behind by one command and by three, from every fifth command end.
        for (i, &from) in ends.iter().enumerate().filter(|(i, _)| i % 5 == 0) {
            for &to in [ends.get(i + 1), ends.get(i + 3)].into_iter().flatten() {
                let what = format!("{system} {stem} rows {from}..{to}");
                let mut behind = replay(&t, &rows[..from]);
                let before = behind.seq();
                behind.extend(&rows[from..to]).unwrap();
                let whole = replay(&t, &rows[..to]);
                assert_same(&behind, &whole, &what);
                // The lines pushed to each seat are the log's lines.
                for seat in whole.seats() {
                    assert_eq!(
                        behind.lines_since(&seat, before),
                        whole.log_for(&seat, before),
                        "{what}: lines"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} catch-ups checked");
}

#[test]
fn rows_that_do_not_follow_on_are_refused() {
    let (_, _, t) = played_tables().remove(0);
    let rows = t.raw_rows_after(0);
    let mut behind = replay(&t, &rows[..1]);
    // A gap: row 3 after row 1.
    assert!(behind.extend(&rows[2..3]).is_err());
    assert_eq!(behind.seq(), 1);
}

/// Issue 28, item 1: a table loaded from a snapshot and the rows from the
/// snapshot's row on (never the older ones) answers as the whole replay does:
/// state, roller, the rows it holds, every seat's log after the snapshot and
/// view; its undos agree with the whole table's until one would go back past
/// the snapshot, which is refused as `OlderRowsNeeded` (the server then loads
/// the whole log), never answered wrongly.
#[test]
fn a_table_loaded_from_a_snapshot_and_the_rows_after_it_is_the_replayed_table() {
    let (mut checked, mut refused, mut past) = (0, 0, 0);
    for (system, stem, t) in played_tables() {
        let rows = t.raw_rows_after(0);
        let ends: Vec<usize> = (0..rows.len()).filter(|&k| rows[k].command_end).collect();
        for (i, &k) in ends.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
            let at = rows[k].seq;
            let what = format!("{system} {stem} snapshot at {at}");
            let state = replay(&t, &rows[..=k]).state();
            let loaded = AnyTable::restore_tail(
                system,
                &t.initial_state(),
                &t.initial_roller(),
                (at, &state),
                &rows[k..],
            );
            let mut a = match loaded {
                Ok(a) => a,
                Err(_) => {
                    // Only an undo row after the snapshot that goes back before it
                    // may refuse the tail (the whole log is loaded instead).
                    let back = rows[k + 1..].iter().any(|r| {
                        r.entry["kind"] == "undo"
                            && r.entry["back_to"].as_u64().is_some_and(|b| b <= at)
                    });
                    assert!(back, "{what}: refused without an undo past it");
                    refused += 1;
                    continue;
                }
            };
            assert_eq!(a.first_held_seq(), at, "{what}: first row held");
            assert_holds_as_whole(&a, &t, &what);
            let mut b = replay(&t, &rows);
            if undo_both(
                &mut a,
                &mut b,
                if i % 4 == 0 { usize::MAX } else { 2 },
                &what,
            ) {
                past += 1;
            }
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} tails checked");
    assert!(past > 5, "only {past} undos went back past a snapshot");
    eprintln!("{checked} tails, {refused} refused for an undo past them, {past} undos past");
}

/// Issue 28, "a long evening": a table told after some of its commands that
/// the store keeps a snapshot of its state ([`AnyTable::snapshot_kept`])
/// forgets the rows before the previous such snapshot, and still answers as
/// the table that holds every row: seq, state, roller, the rows it holds,
/// every seat's log after them and view. Its undos agree with the whole
/// table's until one would go back past the rows it holds, which is refused
/// as `OlderRowsNeeded` (the server then loads the whole log).
#[test]
fn a_table_that_forgets_the_rows_before_its_snapshots_is_the_whole_table() {
    let (mut trimmed, mut past, mut reloaded) = (0, 0, 0);
    for (system, stem, t) in played_tables() {
        let rows = t.raw_rows_after(0);
        for every in [1, 3] {
            let what = format!("{system} {stem}, a snapshot every {every} commands");
            let mut a = replay(&t, &[]);
            let mut ends = 0;
            for (k, row) in rows.iter().enumerate() {
                if a.extend(std::slice::from_ref(row)).is_err() {
                    // Only an undo back past the rows held: the server reloads
                    // the whole log then (`catch_up`).
                    assert!(
                        row.entry["kind"] == "undo"
                            && row.entry["back_to"]
                                .as_u64()
                                .is_some_and(|b| b < a.first_held_seq()),
                        "{what}: row {} refused",
                        row.seq
                    );
                    a = replay(&t, &rows[..=k]);
                    reloaded += 1;
                }
                if row.command_end {
                    ends += 1;
                    if ends % every == 0 {
                        let held = a.first_held_seq();
                        a.snapshot_kept();
                        if a.first_held_seq() > held {
                            trimmed += 1;
                        }
                    }
                }
            }
            assert_holds_as_whole(&a, &t, &what);
            let mut b = replay(&t, &rows);
            if undo_both(&mut a, &mut b, usize::MAX, &what) {
                past += 1;
            }
        }
    }
    assert!(trimmed > 50, "rows were forgotten only {trimmed} times");
    assert!(past >= 5, "only {past} undos went back past the rows held");
    eprintln!("rows forgotten {trimmed} times, {past} undos past them, {reloaded} reloads");
}

/// `a`, holding the rows from its first held on, answers as the whole table
/// `t` does: seq, state, roller, initial state, the rows it holds, every
/// seat's log after them and view.
fn assert_holds_as_whole(a: &AnyTable, t: &AnyTable, what: &str) {
    let from = a.first_held_seq();
    assert_eq!(a.seq(), t.seq(), "{what}: seq");
    assert_eq!(a.state(), t.state(), "{what}: state");
    assert_eq!(a.roller(), t.roller(), "{what}: roller");
    assert_eq!(a.initial_state(), t.initial_state(), "{what}: initial");
    assert_eq!(
        a.raw_rows_after(from - 1),
        t.raw_rows_after(from - 1),
        "{what}: rows held"
    );
    for seat in t.seats() {
        assert_eq!(
            a.log_for(&seat, from),
            t.log_for(&seat, from),
            "{what}: log"
        );
        assert_eq!(
            a.view(&seat, &seat).ok(),
            t.view(&seat, &seat).ok(),
            "{what}: view"
        );
    }
}

/// The GM undoes on `a` (holding some rows) and on `b` (the whole table) in
/// turn, at most `limit` times: each pair agrees (state, roller, the rows
/// `a` holds, and every seat's line of the undo is the replay's). Stops at
/// the first refusal, which must be the whole table's too unless `a` refused
/// as `OlderRowsNeeded`: then `b` still had a point to go back to, and this
/// returns true.
fn undo_both(a: &mut AnyTable, b: &mut AnyTable, limit: usize, what: &str) -> bool {
    for _ in 0..limit {
        match a.undo(&Seat::Gm) {
            Ok(_) => {
                b.undo(&Seat::Gm).unwrap();
                assert_eq!(a.state(), b.state(), "{what}: state after undo");
                assert_eq!(a.roller(), b.roller(), "{what}: roller after undo");
                let (from, to) = (a.first_held_seq(), a.seq());
                assert_eq!(a.raw_rows_after(from), b.raw_rows_after(from));
                for seat in b.seats() {
                    assert_eq!(
                        a.lines_since(&seat, to - 1),
                        b.log_for(&seat, to - 1),
                        "{what}: the undo's line"
                    );
                }
            }
            Err(tabula_engine::CommandError::OlderRowsNeeded) => {
                assert!(b.undo(&Seat::Gm).is_ok(), "{what}: refused a real undo");
                return true;
            }
            Err(e) => {
                assert_eq!(Err(e), b.undo(&Seat::Gm).map(|_| ()), "{what}");
                return false;
            }
        }
    }
    false
}
