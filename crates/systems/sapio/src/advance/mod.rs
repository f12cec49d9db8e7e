//! Between sessions: "Advancement" (and the healing and Luck the GM gives) as
//! commands on a saved sheet.
//!
//! The Sapio System, "Advancement", "Injuries and Stresses", "Luck"
//! (004_f39b4146df158cae.txt); R-SA-9, R-SA-10, R-SA-12.
//!
//! - `end-session consequential|inconsequential` (GM): "After a consequential
//!   session, the player may choose from one of the following options". A
//!   consequential session marks one advancement due on the sheet
//!   (`advancement_due`); an inconsequential one drops an advancement not
//!   taken (R-SA-9: one per consequential session, not carried over).
//! - `advance specialization|side-specialization SIDE|side-profession|quality|talent NAME`
//!   (the player, or the GM for them; a Special Talent may carry
//!   `effect=KIND amount=N text="WORDS" magic=yes|no`, "Special Talents"):
//!   spend the due advancement on one of the four options, under the cycle
//!   rule ("The player must select all types of advancement once before being
//!   able to select the same one again").
//! - `change word PROFESSION to NEW | swap SIDE | quality OLD to NEW` (the
//!   player): "Upon completion of an advancement cycle, the player may
//!   additionally do one of the following things", once per completed cycle.
//! - `heal injury|stress NAME` and `rest` (GM): "Stresses are temporary
//!   conditions or mental states that may clear when the character has time to
//!   gather themself and rest, while Injuries are physical wounds that require
//!   more time to heal": when is the GM's call. Healing the Severe entry ends a
//!   debilitation.
//! - `give-luck N` (GM): "your character can be given Luck directly by the GM
//!   for making compelling choices ... as a reward for specific character
//!   actions or milestones" ("Luck").
//!
//! Every refusal changes nothing and names its rule; the sheet written is
//! checked again by [`Character::from_draft`].

use crate::rules::{
    RULE_ADVANCEMENT, RULE_INJURIES, RULE_LUCK, RULE_SEATS, RULE_SESSION, RULE_WEAPONS,
};
use tabula_core::names::same_name;
use tabula_core::system::{CommandDoc, Giver};
use tabula_core::{AdvanceError, Advanced, Seat};

use crate::builder::{validate, write_sheet};
use crate::character::{Advance, Character, CharacterDraft, CycleChange, MAX_LUCK, Talent};
use crate::harm::{HarmKind, Track};

pub mod lasting;

/// The commands The Sapio System gives between sessions.
pub const ADVANCEMENT: &[CommandDoc] = &[
    CommandDoc::new(
        "end-session",
        &[],
        "end-session consequential|inconsequential",
        "After a consequential session, the player may choose one advancement: mark it due (an inconsequential session drops one not taken, R-SA-9)",
        Giver::Gm,
        RULE_SESSION,
    ),
    CommandDoc::new(
        "advance",
        &[],
        "advance specialization|side-specialization SIDE|side-profession|quality|talent NAME [effect=KIND amount=N text=\"WORDS\" magic=yes|no]",
        "Take the advancement due: a Specialization within the Profession, a Specialization within a Side Profession or a new Side Profession, an additional Quality, or an additional Special Talent (with its roll effect: bonus-dice, tn-cap, tn-reduction, extra-hits, extra-spares, extra-spirals or ignore-injury); every type once before one repeats",
        Giver::Player,
        RULE_ADVANCEMENT,
    ),
    CommandDoc::new(
        "change",
        &[],
        "change word PROFESSION to NEW | swap SIDE | quality OLD to NEW",
        "Upon completion of an advancement cycle: change a single word in one of their Professions, swap a Side Profession with the Main Profession, or change a Quality to something else",
        Giver::Player,
        RULE_ADVANCEMENT,
    ),
    CommandDoc::new(
        "heal",
        &[],
        "heal injury|stress NAME",
        "An Injury heals or a Stress clears (Stresses clear with rest, Injuries require more time to heal)",
        Giver::Gm,
        RULE_INJURIES,
    ),
    CommandDoc::new(
        "rest",
        &[],
        "rest",
        "The character has time to gather themself and rest: every Stress clears",
        Giver::Gm,
        RULE_INJURIES,
    ),
    CommandDoc::new(
        "give-luck",
        &[],
        "give-luck N",
        "The GM gives Luck directly for compelling choices or milestones (between 1 and 3 a session, in general)",
        Giver::Gm,
        RULE_LUCK,
    ),
];

fn gm_only(seat: &Seat, command: &str) -> Result<(), AdvanceError> {
    if seat.is_gm() {
        Ok(())
    } else {
        Err(AdvanceError::refused(
            RULE_SEATS,
            format!("only the GM may give `{command}`"),
        ))
    }
}

/// A player acts only for the character they play; the GM for anyone.
fn plays(seat: &Seat, c: &Character) -> Result<(), AdvanceError> {
    match seat {
        Seat::Gm => Ok(()),
        Seat::Player(p) if c.player().is_some_and(|o| same_name(o, p)) => Ok(()),
        Seat::Player(p) => Err(AdvanceError::refused(
            RULE_SEATS,
            format!(
                "{p} does not play {} ({})",
                c.name(),
                c.player()
                    .map_or("a GM character".to_string(), |o| format!("played by {o}"))
            ),
        )),
    }
}

fn alive(c: &Character) -> Result<(), AdvanceError> {
    if c.dead() {
        Err(AdvanceError::refused(
            RULE_WEAPONS,
            format!("{} was killed and advances no more", c.name()),
        ))
    } else {
        Ok(())
    }
}

/// The changed sheet, checked again: a problem left refuses the command.
fn finish(draft: CharacterDraft, summary: String) -> Result<Advanced, AdvanceError> {
    match Character::from_draft(draft) {
        Ok(c) => Ok(Advanced {
            sheet: write_sheet(c.sheet()),
            summary,
        }),
        Err(e) => {
            let first = e.problems.first();
            Err(AdvanceError::refused(
                first.map_or(RULE_ADVANCEMENT, |p| p.rule()),
                first.map_or_else(String::new, ToString::to_string),
            ))
        }
    }
}

fn joined(words: &[String]) -> String {
    words.join(" ").trim().to_string()
}

/// `advance ...`: which advancement.
fn parse_advance(c: &Character, args: &[String]) -> Result<Advance, AdvanceError> {
    let Some((kw, rest)) = args.split_first() else {
        return Err(AdvanceError::parse(
            "advance takes specialization, side-specialization, side-profession, quality or talent, and a name",
            ADVANCEMENT,
        ));
    };
    let name = joined(rest);
    let need_name = |what: &str| {
        if name.is_empty() {
            Err(AdvanceError::parse(
                format!("the {what} is missing"),
                ADVANCEMENT,
            ))
        } else {
            Ok(name.clone())
        }
    };
    Ok(match kw.to_ascii_lowercase().as_str() {
        "specialization" => Advance::ProfessionSpecialization {
            name: need_name("Specialization")?,
        },
        "side-specialization" => {
            // The longest run of words naming a Side Profession; the rest is
            // the Specialization.
            let sides: Vec<&str> = c
                .sheet()
                .side_professions
                .iter()
                .map(|s| s.name.trim())
                .collect();
            let split = (1..rest.len())
                .rev()
                .find(|&k| sides.iter().any(|s| same_name(s, &joined(&rest[..k]))));
            match split {
                Some(k) => Advance::SideSpecialization {
                    profession: joined(&rest[..k]),
                    name: joined(&rest[k..]),
                },
                None if rest.len() >= 2 => Advance::SideSpecialization {
                    profession: rest[0].clone(),
                    name: joined(&rest[1..]),
                },
                None => {
                    return Err(AdvanceError::parse(
                        "side-specialization takes the Side Profession and the Specialization",
                        ADVANCEMENT,
                    ));
                }
            }
        }
        "side-profession" => Advance::SideProfession {
            name: need_name("Side Profession")?,
        },
        "quality" => Advance::Quality {
            name: need_name("Quality")?,
        },
        "talent" | "special-talent" => Advance::SpecialTalent {
            talent: parse_talent(rest).map_err(|e| AdvanceError::parse(e, ADVANCEMENT))?,
        },
        other => {
            return Err(AdvanceError::parse(
                format!(
                    "{other:?}: expected specialization, side-specialization, side-profession, quality or talent"
                ),
                ADVANCEMENT,
            ));
        }
    })
}

/// The words after `advance talent`: the Special Talent's name, and optionally
/// `effect=KIND` (one of the builder's effects: bonus-dice, tn-cap,
/// tn-reduction, extra-hits, extra-spares, extra-spirals, ignore-injury, none),
/// `amount=N` (the effect's amount; left out, the book's example amount),
/// `text="WORDS"` (what it does) and `magic=yes|no` (R-SA-10; left out or
/// `from-words`, read from the name and text). The Sapio System, "Special
/// Talents"; R-SA-10.
///
/// The ranges (a TN cap 0 to 5, other amounts 1 to 3) are checked with the
/// rest of the advancement by `Character::check_advance`.
///
/// # Errors
/// What does not read, in words (the caller wraps it as its parse error).
pub(crate) fn parse_talent(rest: &[String]) -> Result<Talent, String> {
    let mut name = Vec::new();
    let (mut effect, mut amount, mut text, mut magic) = (None, None, String::new(), None);
    for w in rest {
        let Some((key, value)) = w.split_once('=') else {
            name.push(w.clone());
            continue;
        };
        match key.to_ascii_lowercase().as_str() {
            "effect" => {
                let kind = value.trim().to_ascii_lowercase();
                effect = Some(crate::builder::fields::effect_of(&kind).ok_or_else(|| {
                    let kinds: Vec<&str> = crate::builder::fields::EFFECTS
                        .iter()
                        .map(|(k, _, _)| *k)
                        .collect();
                    format!("effect={value:?}: expected one of {}", kinds.join(", "))
                })?);
            }
            "amount" => {
                amount = Some(value.trim().parse::<u32>().map_err(|_| {
                    format!(
                        "amount={value:?}: expected a whole number (a TN cap 0 to 5, other amounts 1 to 3)"
                    )
                })?);
            }
            "text" => text = value.trim().to_string(),
            "magic" => {
                magic = match value.trim().to_ascii_lowercase().as_str() {
                    "yes" | "true" | "magical" => Some(true),
                    "no" | "false" | "not-magical" => Some(false),
                    "from-words" => None,
                    _ => return Err(format!("magic={value:?}: expected yes or no")),
                };
            }
            _ => name.push(w.clone()),
        }
    }
    let name = joined(&name);
    if name.is_empty() {
        return Err("the Special Talent is missing".to_string());
    }
    let effect = match (effect.flatten(), amount) {
        (Some(e), Some(n)) if crate::builder::fields::has_amount(e) => {
            Some(crate::builder::fields::with_amount(e, n))
        }
        (Some(_), Some(_)) | (None, Some(_)) => {
            return Err(
                "amount= goes with an effect that has an amount (bonus-dice, tn-cap, tn-reduction, extra-hits, extra-spares, extra-spirals)"
                    .to_string(),
            );
        }
        (e, None) => e,
    };
    Ok(Talent {
        name,
        text,
        effect,
        magic,
    })
}

/// `change ...`: which completed-cycle change.
fn parse_change(args: &[String]) -> Result<CycleChange, AdvanceError> {
    let Some((kw, rest)) = args.split_first() else {
        return Err(AdvanceError::parse(
            "change takes word, swap or quality",
            ADVANCEMENT,
        ));
    };
    let kw = kw.to_ascii_lowercase();
    match kw.as_str() {
        "word" | "quality" => {
            let to = rest
                .iter()
                .position(|w| w.eq_ignore_ascii_case("to"))
                .filter(|&t| t > 0 && t + 1 < rest.len())
                .ok_or_else(|| {
                    AdvanceError::parse(
                        if kw == "word" {
                            "expected `change word PROFESSION to NEW`"
                        } else {
                            "expected `change quality OLD to NEW`"
                        },
                        ADVANCEMENT,
                    )
                })?;
            let from = joined(&rest[..to]);
            let new = joined(&rest[to + 1..]);
            Ok(if kw == "word" {
                CycleChange::ProfessionWord {
                    profession: from,
                    to: new,
                }
            } else {
                CycleChange::Quality { from, to: new }
            })
        }
        "swap" if !rest.is_empty() => Ok(CycleChange::Swap { side: joined(rest) }),
        "swap" => Err(AdvanceError::parse(
            "expected `change swap SIDE`",
            ADVANCEMENT,
        )),
        other => Err(AdvanceError::parse(
            format!("{other:?}: expected word, swap or quality"),
            ADVANCEMENT,
        )),
    }
}

/// One command between sessions on `sheet` from `seat` (see the module).
///
/// # Errors
/// [`AdvanceError::Sheet`] when the sheet does not validate,
/// [`AdvanceError::Parse`] for a line that is not one of [`ADVANCEMENT`],
/// [`AdvanceError::Refused`] naming the rule; nothing changes.
pub fn advance(sheet: &str, seat: &Seat, line: &str) -> Result<Advanced, AdvanceError> {
    let c = match validate(sheet) {
        Ok(_) => crate::character::parse_character(sheet).map_err(|e| {
            AdvanceError::parse(format!("the sheet does not read: {e}"), ADVANCEMENT)
        })?,
        Err(problems) => return Err(AdvanceError::Sheet { problems }),
    };
    let words = tabula_core::grammar::words(line)
        .map_err(|e| AdvanceError::parse(e.to_string(), ADVANCEMENT))?;
    let Some((command, args)) = words.split_first() else {
        return Err(AdvanceError::parse("no command given", ADVANCEMENT));
    };
    let command = command.to_ascii_lowercase();
    match command.as_str() {
        "end-session" => end_session(&c, seat, args),
        "advance" => take_advance(&c, seat, args),
        "change" => take_change(&c, seat, args),
        "heal" => heal(&c, seat, args),
        "rest" => rest(&c, seat, args),
        "give-luck" => give_luck(&c, seat, args),
        other => Err(AdvanceError::parse(
            format!("{other:?} is not a command between sessions"),
            ADVANCEMENT,
        )),
    }
}

/// `end-session consequential|inconsequential` (GM): a consequential session
/// marks one advancement due; an inconsequential one drops an advancement not
/// taken ("Advancement", R-SA-9).
fn end_session(c: &Character, seat: &Seat, args: &[String]) -> Result<Advanced, AdvanceError> {
    let mut d = c.sheet().clone();
    let consequential = match args {
        [w] if w.eq_ignore_ascii_case("consequential") => true,
        [w] if w.eq_ignore_ascii_case("inconsequential") => false,
        _ => {
            return Err(AdvanceError::parse(
                "end-session takes consequential or inconsequential",
                ADVANCEMENT,
            ));
        }
    };
    gm_only(seat, "end-session")?;
    if consequential {
        alive(c)?;
    }
    let before = d.advancement_due;
    d.advancement_due = consequential;
    let summary = match (consequential, before) {
        (true, false) => format!("{}: an advancement is due", c.name()),
        (true, true) => format!(
            "{}: an advancement is due (still one: the one not taken is not carried over, R-SA-9)",
            c.name()
        ),
        (false, true) => format!(
            "{}: an inconsequential session; the advancement not taken is dropped (R-SA-9)",
            c.name()
        ),
        (false, false) => {
            format!("{}: an inconsequential session, no advancement", c.name())
        }
    };
    finish(d, summary)
}

/// `advance ...` (the player, or the GM for them): the due advancement
/// spent on one option under the cycle rule; a magic half gained alone is
/// marked unpaired ("Advancement", "Special Talents"; R-SA-9, R-SA-10,
/// R-SA-12).
fn take_advance(c: &Character, seat: &Seat, args: &[String]) -> Result<Advanced, AdvanceError> {
    let adv = parse_advance(c, args)?;
    plays(seat, c)?;
    alive(c)?;
    if !c.sheet().advancement_due {
        return Err(AdvanceError::refused(
            RULE_SESSION,
            format!(
                "{} has no advancement due: one advancement after a consequential session, which the GM marks (end-session consequential)",
                c.name()
            ),
        ));
    }
    c.check_advance(&adv)
        .map_err(|e| AdvanceError::refused(e.rule(), e.to_string()))?;
    let mut after = c.clone();
    after.apply_advance(&adv);
    let cycle = after.cycle();
    // R-SA-12: a magic half gained alone is kept, marked unpaired.
    let unpaired = match &after.sheet().unpaired {
        Some(u) if after.is_unpaired(u) => format!(
            "; {} is marked unpaired and gives nothing until its magic pair is gained",
            u.trim()
        ),
        _ => String::new(),
    };
    let summary = format!(
        "{} {adv}; {} of 4 types taken in this cycle, {} cycle(s) complete{}{unpaired}",
        c.name(),
        cycle.current.len(),
        cycle.completed,
        if cycle.completed > c.cycle().completed {
            " (a change is now open: change word|swap|quality)"
        } else {
            ""
        }
    );
    finish(after.sheet().clone(), summary)
}

/// `change word|swap|quality ...` (the player): one change per completed
/// advancement cycle ("Advancement").
fn take_change(c: &Character, seat: &Seat, args: &[String]) -> Result<Advanced, AdvanceError> {
    let change = parse_change(args)?;
    plays(seat, c)?;
    alive(c)?;
    c.check_change(&change)
        .map_err(|e| AdvanceError::refused(e.rule(), e.to_string()))?;
    let mut after = c.clone();
    after.apply_change(&change);
    let summary = format!("{} {change}", c.name());
    finish(after.sheet().clone(), summary)
}

/// `heal injury|stress NAME` (GM): the entry is erased; healing the Severe
/// one ends a debilitation ("Injuries and Stresses").
fn heal(c: &Character, seat: &Seat, args: &[String]) -> Result<Advanced, AdvanceError> {
    let mut d = c.sheet().clone();
    let Some((kind, rest)) = args.split_first() else {
        return Err(AdvanceError::parse(
            "heal takes injury or stress and its words",
            ADVANCEMENT,
        ));
    };
    let kind = match kind.to_ascii_lowercase().as_str() {
        "injury" => HarmKind::Injury,
        "stress" => HarmKind::Stress,
        other => {
            return Err(AdvanceError::parse(
                format!("{other:?}: expected injury or stress"),
                ADVANCEMENT,
            ));
        }
    };
    let name = joined(rest);
    if name.is_empty() {
        return Err(AdvanceError::parse(
            format!("the {kind} to heal is missing"),
            ADVANCEMENT,
        ));
    }
    gm_only(seat, "heal")?;
    let track: &mut Track = match kind {
        HarmKind::Injury => &mut d.injuries,
        HarmKind::Stress => &mut d.stresses,
    };
    let at = track.find(&name).ok_or_else(|| {
        let have: Vec<String> = track.entries().iter().map(|(_, n)| n.to_string()).collect();
        AdvanceError::refused(
            RULE_INJURIES,
            format!(
                "{} has no {kind} called {name:?} ({})",
                c.name(),
                if have.is_empty() {
                    "none".to_string()
                } else {
                    have.join(", ")
                }
            ),
        )
    })?;
    let was_debilitated = track.debilitated;
    let healed = track.clear(at).unwrap_or_default();
    let summary = format!(
        "{}: the {} {kind} {healed} {}{}",
        c.name(),
        at.level,
        if kind == HarmKind::Injury {
            "heals"
        } else {
            "clears"
        },
        if was_debilitated && !track.debilitated {
            "; no longer debilitated"
        } else {
            ""
        }
    );
    finish(d, summary)
}

/// `rest` (GM): every Stress clears ("Injuries and Stresses").
fn rest(c: &Character, seat: &Seat, args: &[String]) -> Result<Advanced, AdvanceError> {
    let mut d = c.sheet().clone();
    if !args.is_empty() {
        return Err(AdvanceError::parse("rest takes nothing more", ADVANCEMENT));
    }
    gm_only(seat, "rest")?;
    if d.stresses.is_clear() {
        return Err(AdvanceError::refused(
            RULE_INJURIES,
            format!("{} has no Stress to clear", c.name()),
        ));
    }
    let cleared: Vec<String> = d
        .stresses
        .entries()
        .iter()
        .map(|(b, n)| format!("{} {n}", b.level))
        .collect();
    d.stresses = Track::default();
    finish(
        d,
        format!(
            "{} rests: every Stress clears ({})",
            c.name(),
            cleared.join(", ")
        ),
    )
}

/// `give-luck N` (GM): Luck for compelling choices, up to the table's
/// [`MAX_LUCK`] ("Luck").
fn give_luck(c: &Character, seat: &Seat, args: &[String]) -> Result<Advanced, AdvanceError> {
    let mut d = c.sheet().clone();
    let [n] = args else {
        return Err(AdvanceError::parse(
            "give-luck takes the Luck given",
            ADVANCEMENT,
        ));
    };
    let n: u32 = n.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
        AdvanceError::parse(format!("{n:?}: the Luck given is 1 or more"), ADVANCEMENT)
    })?;
    gm_only(seat, "give-luck")?;
    let now = d
        .luck
        .checked_add(n)
        .filter(|&l| l <= MAX_LUCK)
        .ok_or_else(|| {
            AdvanceError::refused(
                RULE_LUCK,
                format!(
                    "{} holds {} Luck; {n} more passes the table's {MAX_LUCK}",
                    c.name(),
                    d.luck
                ),
            )
        })?;
    let summary = format!("{} gains {n} Luck: {} -> {now}", c.name(), d.luck);
    d.luck = now;
    finish(d, summary)
}
