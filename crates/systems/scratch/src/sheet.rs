//! The sheets as one description ([`tabula_core::sheet::SheetDoc`]): what
//! `sheet` prints ([`sheet()`]) and what the table shows,
//! with live values at the table.
//!
//! A Scratch RPS sheet is the book's character line and ability lines
//! ("Zimzambamalam (10 agility, 10 intelligence, 10 strength, 1 stamina): a
//! master of magic", then `LEVEL ability: note`; the introduction and
//! "Abilities", 001_337b5a42e331e513.txt), plus what the encounter does to it:
//! hit points and their state ("Hit Points"), the defenses now ("Defenses"),
//! the initiative group ("Turns"), the states of "Basic Actions" and the
//! character points of the table (R-SCR-7, R-SCR-8).
//!
//! Nothing is hidden: the book plays with every sheet in the open, and every
//! seat's view is the same ([`crate::view::view_of`]), so every seat's
//! document holds every sheet whole, its own marked `mine`.

use tabula_core::Seat;
use tabula_core::sheet::{CharacterSheet, Item, Row, Section, SheetDoc};

use crate::character::Carrying;
use crate::state::{Phase, State};
use crate::text::parse::{everyone, label, resolve_character};
use tabula_core::CommandParseError;

/// The sheets at the table as `seat` sees them: the table's facts (phase,
/// round, whose turn, the initiative order, terrain, cover, things to throw)
/// and one sheet per character, in the table's order. Scratch RPS, "Turns",
/// "Basic Actions", "Movement Abilities" (001_337b5a42e331e513.txt).
pub fn sheet_doc(state: &State, seat: &Seat) -> SheetDoc {
    SheetDoc {
        table: table_facts(state),
        characters: (0..state.characters.len())
            .filter_map(|i| character_doc(state, i, seat))
            .collect(),
    }
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Preparation => "preparation",
        Phase::Turns => "turns",
        Phase::Over => "over",
    }
}

/// The table's facts. Scratch RPS, "Turns": initiative groups take turns in
/// the order of their initiative rolls.
fn table_facts(state: &State) -> Vec<Item> {
    let mut out = vec![
        Item::value("Phase", phase_name(state.phase)),
        Item::value("Round", state.round),
    ];
    let turn_of = state
        .current_group()
        .and_then(|g| state.groups.get(g))
        .map_or_else(|| "nobody yet".to_string(), |g| g.seat.to_string());
    out.push(Item::value("Turn of", turn_of));
    if let Some(c) = state.active.and_then(|a| state.get(a)) {
        out.push(Item::value(
            "Acting",
            format!("{} ({})", c.character.name(), c.id),
        ));
    }
    // The groups in turn order once initiative is rolled, else table order.
    let order: Vec<usize> = if state.order.is_empty() {
        (0..state.groups.len()).collect()
    } else {
        state.order.clone()
    };
    let rows: Vec<Row> = order
        .iter()
        .filter_map(|g| state.groups.get(*g))
        .map(|g| {
            let members: Vec<String> = g
                .members
                .iter()
                .filter_map(|m| state.get(*m))
                .map(|c| c.character.name().to_string())
                .collect();
            Row::new(
                g.seat.to_string(),
                g.initiative
                    .map_or_else(|| "not rolled".to_string(), |n| n.to_string()),
            )
            .detail(format!("{}: {}", g.side, members.join(", ")))
        })
        .collect();
    out.push(Item::list("Initiative groups", rows));
    out.push(Item::tags(
        "Terrain",
        state.terrain.iter().map(ToString::to_string),
    ));
    out.push(Item::value(
        "Cover",
        if state.cover { "available" } else { "none" },
    ));
    out.push(Item::value(
        "Things to throw",
        if state.throwable_objects { "yes" } else { "no" },
    ));
    out
}

/// One character's sheet: the same content as `sheet` prints.
fn character_doc(state: &State, i: usize, viewer: &Seat) -> Option<CharacterSheet> {
    let c = state.get(i)?;
    let ch = &c.character;
    let d = c.base_defenses(&state.rules);
    let side = state.side_of(i).unwrap_or_default();
    let subtitle = match c.leader.and_then(|l| state.get(l)) {
        Some(l) => format!("{side}, minion of {}", l.character.name()),
        None => side.to_string(),
    };
    let mut doc = CharacterSheet::new(ch.name(), subtitle);
    if let Some(s) = state.seat_of(i) {
        doc = doc.played_by(s, viewer);
    }
    if !ch.description().is_empty() {
        doc.push(Section::new("Description").with(Item::note(ch.description())));
    }
    // "Hit Points": toughness is the maximum; healthy above stamina, injured
    // at or below it, incapacitated at 0.
    doc.push(
        Section::new("Hit Points")
            .with(Item::Track {
                label: "Hit points".into(),
                current: i64::from(c.hit_points),
                max: i64::from(d.max_hit_points),
                note: c.hp_state(&state.rules).to_string(),
            })
            .with(Item::value("Stamina", d.stamina)),
    );
    // "Defenses": the difficulties now, the states' modifiers included.
    doc.push(
        Section::new("Defenses")
            .with(Item::value("Agility", state.agility(i)))
            .with(Item::value("Intelligence", state.intelligence(i)))
            .with(Item::value("Strength", state.strength(i))),
    );
    // "Abilities": each with its level; a note as the book prints one.
    let mut rows: Vec<Row> = ch
        .levels()
        .iter()
        .map(|(a, l)| {
            Row::new(a.name(), l.to_string()).detail(ch.note(a.name()).unwrap_or_default())
        })
        .collect();
    rows.extend(
        ch.other_abilities()
            .iter()
            .map(|(a, l)| Row::new(a.clone(), l.to_string()).detail("no rules in the book")),
    );
    doc.push(Section::new("Abilities").with(Item::list("Abilities", rows)));
    // "Turns", "Basic Actions": the group, the turn's actions, the states.
    let mut enc = Section::new("Encounter");
    enc.push(Item::value("Id", &c.id));
    if let Some(g) = state.groups.get(c.group) {
        let init = g
            .initiative
            .map_or_else(|| "not rolled".to_string(), |n| n.to_string());
        enc.push(Item::value(
            "Initiative group",
            format!("{} (initiative {init})", g.seat),
        ));
    }
    if state.active == Some(i) {
        let used = |u: bool| if u { "used" } else { "free" };
        enc.push(Item::value("Regular action", used(c.regular_used)));
        enc.push(Item::value("Bonus action", used(c.bonus_used)));
    }
    enc.push(Item::tags("States", crate::view::states_of(c)));
    doc.push(enc);
    // R-SCR-7, R-SCR-8: character points and the table's maximum level;
    // "Defenses": what strength carries.
    let carry = Carrying::for_strength(d.strength);
    doc.push(
        Section::new("Character points")
            .with(Item::value(
                "CP",
                format!("{} of {} spent", ch.cp_spent(), ch.cp()),
            ))
            .with(Item::value("Maximum level", ch.max_level()))
            .with(Item::value(
                "Carrying",
                format!(
                    "strength {}: pack {} kg ({} lbs), carry {} kg ({} lbs), lift {} kg ({} lbs)",
                    d.strength,
                    carry.pack_kg,
                    carry.pack_lb,
                    carry.carry_kg,
                    carry.carry_lb,
                    carry.lift_kg,
                    carry.lift_lb
                ),
            )),
    );
    Some(doc)
}

fn carrying_text(c: &Carrying) -> String {
    format!(
        "pack {} kg ({} lbs), carry {} kg ({} lbs), lift {} kg ({} lbs)",
        c.pack_kg, c.pack_lb, c.carry_kg, c.carry_lb, c.lift_kg, c.lift_lb
    )
}

/// One character's sheet, as the book prints its characters ("Support
/// Abilities", "Combat Example"): `Name (A agility, I intelligence, S
/// strength, T stamina): description`, then one line per ability, `LEVEL
/// ability: note`; then what the encounter has done to it: hit points and
/// their state ("Hit Points"), the states it is in, its side and seat.
/// The defenses in the first line are the ones now, states included.
fn sheet_of(state: &State, i: usize) -> String {
    let Some(c) = state.get(i) else {
        return String::new();
    };
    let d = c.base_defenses(&state.rules);
    let ch = &c.character;
    let mut out = format!(
        "{} ({} agility, {} intelligence, {} strength, {} stamina)",
        ch.name(),
        state.agility(i),
        state.intelligence(i),
        state.strength(i),
        d.stamina
    );
    if !ch.description().is_empty() {
        out.push_str(&format!(": {}", ch.description()));
    }
    out.push('\n');
    for (a, l) in ch.levels() {
        let note = ch
            .note(a.name())
            .map(|n| format!(": {n}"))
            .unwrap_or_default();
        out.push_str(&format!("  {l} {a}{note}\n"));
    }
    for (a, l) in ch.other_abilities() {
        out.push_str(&format!("  {l} {a} (no rules in the book)\n"));
    }
    out.push_str(&format!(
        "  hit points {} of {}: {}\n",
        c.hit_points,
        d.max_hit_points,
        c.hp_state(&state.rules)
    ));
    let states = crate::view::states_of(c);
    out.push_str(&format!(
        "  states: {}\n",
        if states.is_empty() {
            "none".to_string()
        } else {
            states.join(", ")
        }
    ));
    if let Some(l) = c.leader.and_then(|l| state.get(l)) {
        out.push_str(&format!("  minion of {}\n", l.character.name()));
    }
    out.push_str(&format!(
        "  id {}; side {}; played by {}; {} of {} CP, maximum level {}\n",
        c.id,
        state.side_of(i).unwrap_or_default(),
        state.seat_of(i).map(|s| s.to_string()).unwrap_or_default(),
        ch.cp_spent(),
        ch.cp(),
        ch.max_level()
    ));
    out.push_str(&format!(
        "  carrying (strength {}): {}\n",
        d.strength,
        carrying_text(&Carrying::for_strength(d.strength))
    ));
    out
}

/// The sheets of `name` or, without a name, of every character `seat`
/// controls (the GM: every character at the table). Scratch RPS hides
/// nothing: every seat may read every sheet.
///
/// # Errors
/// [`CommandParseError::Name`] when `name` is no character, listing them.
pub fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
    let which: Vec<usize> = match name {
        Some(n) => vec![resolve_character(state, "character", n, &everyone(state))?],
        None if seat.is_gm() => everyone(state),
        None => (0..state.characters.len())
            .filter(|i| state.controls(seat, *i))
            .collect(),
    };
    if which.is_empty() {
        let all: Vec<String> = everyone(state).iter().map(|i| label(state, *i)).collect();
        return Ok(format!(
            "{seat} plays no character at this table; name one: {}",
            all.join(", ")
        ));
    }
    Ok(which
        .iter()
        .map(|i| sheet_of(state, *i))
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string())
}
