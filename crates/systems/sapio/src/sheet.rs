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
use tabula_core::system::{CommandParseError, Seat};

use crate::harm::{Level, Track};
use crate::table::{Member, State, Until};

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
            s.characters
                .iter()
                .filter(|m| m.character.name() == n)
                .collect()
        }
        None => s
            .characters
            .iter()
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
