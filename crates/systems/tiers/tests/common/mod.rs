//! What the Tiers table tests share: give a `SEAT: command` line with scripted
//! dice, checking that an accepted command used every die and that a refused
//! one changed nothing.

#![allow(dead_code)]

use tabula_core::{RuleError, Scripted, Seat, Table, TextPlay};
use tabula_tiers::Tiers;
use tabula_tiers::table::{Event, State};

/// Split `SEAT: command` as the play driver does.
pub fn seat_and_body<'a>(state: &State, line: &'a str) -> (Seat, &'a str) {
    match line.split_once(':') {
        Some((seat, rest)) if !seat.trim().is_empty() => (Seat::parse(seat), rest.trim()),
        _ => (Tiers::default_seat(state), line),
    }
}

/// Give `line` with `dice`: accepted, it used every die; refused, it changed
/// nothing.
pub fn give(t: &mut Table<Tiers>, line: &str, dice: &[u32]) -> Result<Vec<Event>, RuleError> {
    let (seat, body) = seat_and_body(t.state(), line);
    let cmd =
        Tiers::parse_command(t.state(), &seat, body).unwrap_or_else(|e| panic!("{line}: {e}"));
    let mut r = Scripted::dice(dice.iter().copied());
    let before = t.clone();
    let out = t
        .submit(&seat, &cmd, &mut r)
        .map(|entries| entries.iter().map(|e| e.event.clone()).collect());
    match &out {
        Ok(_) => assert_eq!(r.remaining(), 0, "{line}: dice left over"),
        Err(_) => assert!(*t == before, "{line}: a refused command changed the table"),
    }
    out
}

/// Give `line`, which must be accepted.
pub fn ok(t: &mut Table<Tiers>, line: &str, dice: &[u32]) -> Vec<Event> {
    give(t, line, dice).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Give `line`, which must be refused.
pub fn no(t: &mut Table<Tiers>, line: &str) -> RuleError {
    give(t, line, &[1; 12]).expect_err(line)
}
