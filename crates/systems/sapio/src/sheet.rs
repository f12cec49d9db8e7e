//! `sheet [NAME]`: a character as the book lays out its sheet, in plain text,
//! with its current Luck, Injuries and Stresses and conditions.
//!
//! The Sapio System, "The Elements of a Character", "Professions and
//! Specializations", "Qualities", "Special Talents", "Principles and Worst
//! Impulses", "Luck", "Injuries and Stresses", "Advancement"
//! (004_f39b4146df158cae.txt): name, the Main Profession with its
//! Specializations, the Side Professions with theirs, Qualities, Special
//! Talents, Principle, Worst Impulse, Luck, weapons, the Injury and Stress
//! tracks (two Minor boxes, two Moderate, one Severe; R-SA-6) and the
//! advancements taken.
//!
//! Nothing is hidden in Sapio (there are no hands or secret pools), so every
//! seat may read every sheet. Without a name, a player gets the characters it
//! plays; the GM gets every character (a table holds at most
//! [`crate::table::MAX_CHARACTERS`]).

use std::fmt::Write as _;

use crate::name_match::same_name;
use tabula_core::grammar::words;
use tabula_core::names::resolve;
use tabula_core::sheet::{CharacterSheet, Item, Row, Section, SheetDoc};
use tabula_core::system::{CommandParseError, Seat};

use crate::character::{Character, CharacterDraft};
use crate::harm::{Level, Track};
use crate::state::{Member, State, Until};

/// The sheets `seat` asks for: `name`'s (among every character, without
/// regard to case, by unambiguous prefix; quotes read as the grammar reads
/// them), or without a name the seat's own characters (the GM: every
/// character), separated by blank lines.
///
/// # Errors
/// [`CommandParseError::Name`] for a name that fits no character, or several,
/// listing the characters; [`CommandParseError::Grammar`] for an unclosed quote.
pub fn sheet(s: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
    let chosen: Vec<&Member> = match name {
        Some(typed) => {
            let typed = words(typed)?.join(" ");
            let names = s.names();
            let n = resolve("character", &typed, names.iter().map(String::as_str))?;
            s.present()
                .map(|(_, m)| m)
                .filter(|m| m.character.name() == n)
                .collect()
        }
        None => s
            .present()
            .map(|(_, m)| m)
            .filter(|m| {
                seat.is_gm()
                    || m.character
                        .player()
                        .is_some_and(|p| same_name(p, &seat.to_string()))
            })
            .collect(),
    };
    if chosen.is_empty() {
        return Ok(format!("{seat} plays no character at this table."));
    }
    let sheets: Vec<String> = chosen.iter().map(|m| one(s, m)).collect();
    Ok(sheets.join("\n\n"))
}

fn boxes(track: &Track) -> String {
    let b = |o: &Option<String>| format!("[{}]", o.as_deref().unwrap_or(" "));
    format!(
        "Minor {} {}  Moderate {} {}  Severe {}",
        b(&track.minor[0]),
        b(&track.minor[1]),
        b(&track.moderate[0]),
        b(&track.moderate[1]),
        b(&track.severe)
    )
}

fn worst(track: &Track) -> Option<Level> {
    track.entries().iter().map(|(b, _)| b.level).max()
}

fn one(s: &State, m: &Member) -> String {
    let c = &m.character;
    let d = c.sheet();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({})",
        c.name(),
        c.player()
            .map_or("a GM character".to_string(), |p| format!("played by {p}"))
    );
    let specs = |v: &[String]| {
        if v.is_empty() {
            String::new()
        } else {
            format!(": {}", v.join(", "))
        }
    };
    let _ = writeln!(
        out,
        "  Profession: {}{}",
        d.profession.name,
        specs(&d.profession.specializations)
    );
    for side in &d.side_professions {
        let _ = writeln!(
            out,
            "  Side Profession: {}{}",
            side.name,
            specs(&side.specializations)
        );
    }
    // A magic half waiting for its pair is shown as such (R-SA-12).
    let mark = |name: &str| {
        if c.is_unpaired(name) {
            " (unpaired: gives nothing until its pair)"
        } else {
            ""
        }
    };
    let qualities: Vec<String> = d
        .qualities
        .iter()
        .map(|q| format!("{q}{}", mark(q)))
        .collect();
    let _ = writeln!(out, "  Qualities: {}", qualities.join(", "));
    for t in &d.special_talents {
        let _ = write!(out, "  Special Talent: {}{}", t.name, mark(&t.name));
        if !t.text.trim().is_empty() {
            let _ = write!(out, " - {}", t.text.trim());
        }
        if let Some(e) = t.effect {
            let _ = write!(out, " ({e})");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "  Principle: {}", d.principle);
    let _ = writeln!(out, "  Worst Impulse: {}", d.worst_impulse);
    let _ = writeln!(out, "  Luck: {}", c.luck());
    for w in &d.weapons {
        let _ = writeln!(out, "  Weapon: {} ({})", w.name, w.level);
    }
    let _ = writeln!(out, "  Injuries: {}", boxes(c.injuries()));
    let _ = writeln!(out, "  Stresses: {}", boxes(c.stresses()));
    let mut conditions: Vec<String> = Vec::new();
    if c.dead() {
        conditions.push("dead".into());
    } else if c.debilitated() {
        conditions.push("debilitated (a second Severe)".into());
    }
    let penalty = [worst(c.injuries()), worst(c.stresses())]
        .into_iter()
        .flatten()
        .map(Level::penalty)
        .max()
        .unwrap_or(0);
    if penalty > 0 {
        conditions.push(format!("TN +{penalty} from Injuries and Stresses (R-SA-7)"));
    }
    let invoked: Vec<String> = m
        .locked
        .iter()
        .map(|l| match l.until {
            Until::RoundEnd => format!("{} (until the round ends)", l.element),
            Until::TaskEnd(id) => format!("{} (ongoing task {id})", l.element),
        })
        .collect();
    if !invoked.is_empty() {
        conditions.push(format!("invoked: {}", invoked.join(", ")));
    }
    if let Some(i) = s.find(c.name())
        && let Some(seq) = &s.sequence
        && let Some(p) = seq.participants.iter().find(|p| p.character == i)
    {
        conditions.push(format!(
            "in the Action Sequence{}{}",
            if p.threatened { ", threatened" } else { "" },
            if p.focal_done {
                ", has been focal this round"
            } else {
                ""
            }
        ));
    }
    if m.advancement_due {
        conditions.push("an advancement is due".into());
    }
    let _ = writeln!(
        out,
        "  Condition: {}",
        if conditions.is_empty() {
            "well".into()
        } else {
            conditions.join("; ")
        }
    );
    let cycle = c.cycle();
    let _ = write!(
        out,
        "  Advancements: {} taken, {} cycle(s) complete",
        d.advancements.len(),
        cycle.completed
    );
    out
}

/// The seat that plays a member: its player, or the GM for a GM character.
fn seat_of(m: &Member) -> Seat {
    m.character
        .player()
        .map_or(Seat::Gm, |p| Seat::Player(p.to_string()))
}

/// A track's five boxes as rows (`Minor`, `Moderate`, `Severe`), each with
/// what fills it or `free`. "Injuries and Stresses"; R-SA-6.
fn box_rows(track: &Track) -> Vec<Row> {
    let row = |level: &str, b: &Option<String>| Row::new(level, b.as_deref().unwrap_or("free"));
    vec![
        row("Minor", &track.minor[0]),
        row("Minor", &track.minor[1]),
        row("Moderate", &track.moderate[0]),
        row("Moderate", &track.moderate[1]),
        row("Severe", &track.severe),
    ]
}

/// The sheets at the table for `seat` (issue 26, item 2): the table's facts
/// (the Action Sequence with its goal and round, "Action Sequences in Play";
/// the check being built with its focal character, TN and the pool so far,
/// "When you invoke a character element"; the encounter's end) and one
/// [`CharacterSheet`] per character with everything [`sheet`] writes: The
/// Sapio System, "The Elements of a Character", "Professions and
/// Specializations", "Qualities", "Special Talents", "Principles and Worst
/// Impulses", "Luck", "Injuries and Stresses", "Advancement"
/// (004_f39b4146df158cae.txt); R-SA-6, R-SA-7, R-SA-9, R-SA-12.
///
/// Nothing is hidden in Sapio (no hands, no secret pools): every seat's
/// document holds the same values; only `mine` differs.
pub fn sheet_doc(s: &State, seat: &Seat) -> SheetDoc {
    let name_of = |i: usize| {
        s.characters
            .get(i)
            .map_or_else(|| "?".to_string(), |m| m.character.name().to_string())
    };
    let mut table = Vec::new();
    if let Some(q) = &s.sequence {
        table.push(Item::value(
            "Action Sequence",
            format!("{} (round {})", q.goal, q.round),
        ));
        if let Some((a, d)) = q.fight {
            table.push(Item::value(
                "Fight",
                format!("{} against {}", name_of(a), name_of(d)),
            ));
        }
    }
    if let Some(c) = &s.check {
        table.push(Item::value(
            "Check",
            format!(
                "#{}: {} focal, TN {}",
                c.id,
                name_of(c.focal),
                c.tn.map_or_else(|| "not set".to_string(), |t| t.to_string())
            ),
        ));
        let mut pool: Vec<String> = Vec::new();
        if let Some(v) = c.versus {
            pool.push(format!("against {}", name_of(v)));
        }
        if let Some((p, how)) = &c.profession {
            pool.push(format!("Profession {p} ({how:?})"));
        }
        if let Some(sp) = &c.specialization {
            pool.push(format!("Specialization {sp}"));
        }
        if let Some(q) = &c.quality {
            pool.push(format!("Quality {q}"));
        }
        for h in &c.help {
            pool.push(format!("help from {}: {}", name_of(h.helper), h.element));
        }
        if c.luck > 0 {
            pool.push(format!("Luck {}", c.luck));
        }
        if c.gm_bonus > 0 {
            pool.push(format!("GM bonus {}", c.gm_bonus));
        }
        for t in &c.talents {
            pool.push(format!("Talent {t}"));
        }
        table.push(Item::tags("The pool so far", pool));
    }
    if s.over {
        table.push(Item::value("Encounter", "over"));
    }
    SheetDoc {
        table,
        characters: s
            .present()
            .map(|(_, m)| character_sheet(s, m, seat))
            .collect(),
    }
}

/// One character's sheet, as [`sheet`] writes it: the book's sections in
/// order, each built by its own step.
fn character_sheet(s: &State, m: &Member, seat: &Seat) -> CharacterSheet {
    let c = &m.character;
    let d = c.sheet();
    let subtitle = c
        .player()
        .map_or("a GM character".to_string(), |p| format!("played by {p}"));
    let mut out = CharacterSheet::new(c.name(), subtitle).played_by(&seat_of(m), seat);
    out.push(professions_section(d));
    out.push(qualities_section(c, d));
    out.push(principles_section(c, d));
    out.push(harm_section(c));
    out.push(condition_section(s, m));
    out.push(advancement_section(m));
    out
}

/// The Main Profession and the Side Professions with their
/// Specializations ("Professions and Specializations").
fn professions_section(d: &CharacterDraft) -> Section {
    Section::new("Professions")
        .with(Item::list(
            "Main Profession",
            vec![
                Row::new(d.profession.name.clone(), "")
                    .detail(d.profession.specializations.join(", ")),
            ],
        ))
        .with(Item::list(
            "Side Professions",
            d.side_professions
                .iter()
                .map(|p| Row::new(p.name.clone(), "").detail(p.specializations.join(", ")))
                .collect(),
        ))
}

/// Qualities and Special Talents, a magic half waiting for its pair marked
/// (R-SA-12) ("Qualities", "Special Talents").
fn qualities_section(c: &Character, d: &CharacterDraft) -> Section {
    // A magic half waiting for its pair (R-SA-12).
    let mark = |name: &str| {
        if c.is_unpaired(name) {
            "unpaired: gives nothing until its pair".to_string()
        } else {
            String::new()
        }
    };
    Section::new("Qualities and Talents")
        .with(Item::list(
            "Qualities",
            d.qualities
                .iter()
                .map(|q| Row::new(q.clone(), "").detail(mark(q)))
                .collect(),
        ))
        .with(Item::list(
            "Special Talents",
            d.special_talents
                .iter()
                .map(|t| {
                    let mut detail = t.text.trim().to_string();
                    if let Some(e) = t.effect {
                        detail = if detail.is_empty() {
                            e.to_string()
                        } else {
                            format!("{detail}; {e}")
                        };
                    }
                    let m = mark(&t.name);
                    if !m.is_empty() {
                        detail = if detail.is_empty() {
                            m
                        } else {
                            format!("{detail}; {m}")
                        };
                    }
                    Row::new(t.name.clone(), "").detail(detail)
                })
                .collect(),
        ))
}

/// Principle, Worst Impulse, Luck and weapons ("Principles and Worst
/// Impulses", "Luck", "Weapons and causing Injury").
fn principles_section(c: &Character, d: &CharacterDraft) -> Section {
    Section::new("Principles")
        .with(Item::value("Principle", &d.principle))
        .with(Item::value("Worst Impulse", &d.worst_impulse))
        .with(Item::value("Luck", c.luck()))
        .with(Item::list(
            "Weapons",
            d.weapons
                .iter()
                .map(|w| Row::new(w.name.clone(), w.level.to_string()))
                .collect(),
        ))
}

/// The Injury and Stress tracks and their boxes ("Injuries and Stresses";
/// R-SA-6).
fn harm_section(c: &Character) -> Section {
    let track = |label: &str, t: &Track| {
        let filled = i64::try_from(t.entries().len()).unwrap_or(i64::MAX);
        Item::Track {
            label: label.to_string(),
            current: filled,
            max: 5,
            note: worst(t).map_or_else(String::new, |l| format!("worst {l}")),
        }
    };
    Section::new("Injuries and Stresses")
        .with(track("Injuries", c.injuries()))
        .with(Item::list("Injury boxes", box_rows(c.injuries())))
        .with(track("Stresses", c.stresses()))
        .with(Item::list("Stress boxes", box_rows(c.stresses())))
}

/// Conditions (dead, debilitated, the TN penalty of R-SA-7, the Action
/// Sequence part) and the invoked elements.
fn condition_section(s: &State, m: &Member) -> Section {
    let c = &m.character;
    let mut conditions: Vec<String> = Vec::new();
    if c.dead() {
        conditions.push("dead".into());
    } else if c.debilitated() {
        conditions.push("debilitated (a second Severe)".into());
    }
    let penalty = [worst(c.injuries()), worst(c.stresses())]
        .into_iter()
        .flatten()
        .map(Level::penalty)
        .max()
        .unwrap_or(0);
    if penalty > 0 {
        conditions.push(format!("TN +{penalty} from Injuries and Stresses (R-SA-7)"));
    }
    if let Some(i) = s.find(c.name())
        && let Some(seq) = &s.sequence
        && let Some(p) = seq.participants.iter().find(|p| p.character == i)
    {
        conditions.push(format!(
            "in the Action Sequence{}{}",
            if p.threatened { ", threatened" } else { "" },
            if p.focal_done {
                ", has been focal this round"
            } else {
                ""
            }
        ));
    }
    let invoked: Vec<String> = m
        .locked
        .iter()
        .map(|l| match l.until {
            Until::RoundEnd => format!("{} (until the round ends)", l.element),
            Until::TaskEnd(id) => format!("{} (ongoing task {id})", l.element),
        })
        .collect();
    Section::new("Condition")
        .with(Item::tags("Condition", conditions))
        .with(Item::tags("Invoked", invoked))
}

/// Advancement due, taken and the current cycle ("Advancement"; R-SA-9).
fn advancement_section(m: &Member) -> Section {
    let d = m.character.sheet();
    let cycle = m.character.cycle();
    Section::new("Advancement")
        .with(Item::value(
            "Advancement due",
            if m.advancement_due { "yes" } else { "no" },
        ))
        .with(Item::value("Advancements taken", d.advancements.len()))
        .with(Item::value("Cycles complete", cycle.completed))
        .with(Item::tags(
            "This cycle",
            cycle.current.iter().map(ToString::to_string),
        ))
}
