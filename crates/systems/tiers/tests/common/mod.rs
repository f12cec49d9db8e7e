//! What the Tiers table tests share: give a `SEAT: command` line with scripted
//! dice, checking that an accepted command used every die and that a refused
//! one changed nothing.

#![allow(dead_code)]

use std::path::PathBuf;

use tabula_core::{CommandSpec, ParamKind, RuleError, Scripted, Seat, Table, TextPlay};
use tabula_tiers::Tiers;
use tabula_tiers::event::Event;
use tabula_tiers::state::State;

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

/// The example table's initial state (`examples/tiers/table.toml`); with
/// `every_rule`, halved d6s, a dungeon, ties rolled again, every custom rule
/// and Combat Points bought.
pub fn example_state(every_rule: bool) -> State {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/tiers");
    let mut text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    if every_rule {
        text = text
            .replace("d3 = \"true\"", "d3 = \"halved-d6\"\ndungeon = true")
            .replace("tie = \"nothing-happens\"", "tie = \"roll-again\"")
            .replace(
                "[custom_rules]\ncover = true",
                "[custom_rules]\ncover = true\nsuper_6 = true\nresting = true\ndeath_rolls = true\npermanent_wounds = true",
            )
            .replace(
                "d6 = 2\nd3 = 3\ncombat_points = 0",
                "d6 = 2\nd3 = 2\ncombat_points = 4",
            );
    }
    Tiers::setup(&text, &dir).unwrap()
}

/// A command line from a legal command's spec, its parameters picked by `r`.
/// Parameter names ending in `=` are typed `name=value`; `on`, `vs` and the
/// GM's `add` keywords `as` and `at` are typed `on X`, `vs X`, `as X`, `at X`.
pub fn render(spec: &CommandSpec, r: &[u32]) -> Option<String> {
    let mut words = vec![spec.name.clone()];
    for (k, p) in spec.params.iter().enumerate() {
        let pick = r.get(k).copied().unwrap_or(0);
        let value = match &p.kind {
            ParamKind::Int { min, max } => {
                let span = u64::try_from(max - min).ok()?.saturating_add(1);
                // Mostly small numbers, so rolls and AP are often affordable.
                let span = span.min(if pick % 4 == 0 { span } else { 4 });
                (min + i64::try_from(u64::from(pick) % span).ok()?).to_string()
            }
            ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => {
                if options.is_empty() {
                    return None;
                }
                options[pick as usize % options.len()].clone()
            }
            // The GM's `adjust` AMOUNT: N, +N or -N.
            ParamKind::Text if p.name == "amount" => {
                format!("{}{}", ["", "+", "-"][pick as usize % 3], pick % 5)
            }
            ParamKind::Text => format!("X{pick}"),
            // A Goal: a difficulty's name half the time, else a number.
            ParamKind::NumberOrName { min, max, names } => {
                if pick % 2 == 0 && !names.is_empty() {
                    names[(pick as usize / 2) % names.len()].clone()
                } else {
                    let span = u64::try_from(max - min).ok()?.saturating_add(1);
                    (min + i64::try_from(u64::from(pick) % span).ok()?).to_string()
                }
            }
        };
        if p.name.ends_with('=') {
            words.push(format!("{}{value}", p.name));
        } else if ["on", "vs", "as", "at"].contains(&p.name.as_str()) {
            words.push(format!("{} {value}", p.name));
        } else {
            words.push(value);
        }
    }
    Some(words.join(" "))
}
