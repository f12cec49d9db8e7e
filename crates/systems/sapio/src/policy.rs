//! The policy: what a reasonable player (or the GM) of The Sapio System does
//! now, so that a character can be handed to the NPC autopilot and whole
//! encounters can be simulated ([`Policy`] for [`Sapio`]).
//!
//! The Sapio System v0.6 (004_f39b4146df158cae.txt) has no encounter of its
//! own: the GM frames scenes and ends them. The policy plays the book's
//! bloody confrontation, an Action Sequence between the players' characters
//! and the GM's, and every step of it is a command [`Sapio`]'s `decide`
//! accepts. It never rolls and never clones the state: it reads the table and
//! the exact odds of [`crate::odds`] (cached per pool and TN), so the dice are
//! the only randomness of a simulation.
//!
//! # The encounter (the GM)
//!
//! - **Begin**: with no Action Sequence under way, the GM begins one, the
//!   fight of the table ("Action Sequences": "If characters are collectively
//!   engaging in something risky together, it is likely an Action Sequence").
//! - **Round start**: the GM threatens every character who can act, so each
//!   must take a turn this round ("Action Sequences in Play": "If a character
//!   is threatened at the start of the round, they must take a turn"; the
//!   threat is declared again each round), then frames the turn.
//! - **TN**: for an attack the GM sets the TN the target would set defending
//!   ("Character versus Character"; R-SA-5, R-SA-11: 1, plus the dice of a
//!   Profession (a free Main Profession 2, invoked again 1, a Side Profession
//!   1), one for a Specialization of it and one for a Quality the target can
//!   still invoke this round, so 2 to 5; elements the target invoked this
//!   round are dedicated, "Invoking an Element"). For a character without a weapon the
//!   turn is a defensive action (hiding, running): TN [`DEFENSIVE_TN`]
//!   ("Defensive actions should likewise have a lower TN"). Every Injury and
//!   Stress is relevant (the penalty of R-SA-7 applies).
//! - **Harm**: a weapon's Injury is recorded by the roll (R-SA-4); when the
//!   GM is asked whether it is "of a similar nature" (R-SA-6), the GM calls it
//!   similar to an existing Injury of that level made by the same weapon, and
//!   different otherwise ("Injuries and Stresses").
//! - **Declarations**: the policy's players declare none; a declaration made
//!   by someone else is accepted (R-SA-8).
//! - **End** ([`ROUND_CAP`]): the GM ends the encounter when one side has
//!   nobody left in action (every character of it debilitated by a second
//!   Severe or killed: "Injuries and Stresses", "Weapons and causing
//!   Injury"), or at the start of a round after [`ROUND_CAP`] full rounds
//!   with both sides standing (the book gives Action Sequences no length, "a
//!   skirmish might last a few minutes"; the cap keeps a fight nobody can win,
//!   such as two characters without weapons, from going on for ever). See
//!   `docs/systems/sapio.md`, "Policy and simulation".
//!
//! # A character's turn (players, and the GM for its NPCs)
//!
//! - **Sides**: a character with a player is on the side [`SIDE_PLAYERS`];
//!   one without (an NPC) on [`SIDE_GM`]. Characters help only their own side.
//! - **Focal order**: "the character attempting the most bold, effective, or
//!   dangerous action should be focal for the turn" ("Action Sequences in
//!   Play"): characters who attack are offered first, the one with the
//!   deadliest weapon first (table order on ties); characters without a weapon
//!   last, so they can support everyone first. Each is focal once a round.
//! - **Target**: the weakest reachable foe: an active participant of the other
//!   side with the fewest free Injury boxes at or above the weapon's level (the
//!   closest to a second Severe), then the lowest TN, then table order. The
//!   weapon is the deadliest one carried ("Weapons and causing Injury").
//! - **Pool** ("When to Roll", the steps of "When you invoke a character
//!   element"): the Profession giving the most dice with a free Specialization
//!   of it (the Main Profession fully applicable for two dice; invoked already
//!   this round, again for one, "Invoking an Element"; a free Side Profession
//!   for one), then a free Specialization of it, then a free Quality. The
//!   policy's player frames the action so the elements apply (the book lets
//!   characters "try anything").
//! - **Help** ("Special Situations when Rolling", "Players in the Action
//!   Sequence"): every other character of the focal character's side who can
//!   supports a roll with a stake with one element, when the bonus die adds a
//!   die to the pool or lowers the TN (R-SA-2). The helper gives an element its own roll this
//!   round does not need ("Invoked elements remain invoked within a given
//!   round, so players must decide whether to invoke them for their own check
//!   or to use them to assist others"): a Side Profession, a second Quality,
//!   the Main Profession once it is invoked anyway; anything once it has been
//!   focal this round or when it has no attack of its own.
//! - **Special Talents** ("Special Talents"): called out when they make this
//!   roll better: more dice or a lower TN (bonus dice, a TN cap or
//!   reduction), ignoring an Injury's penalty that applies, extra Hits on an
//!   attack (more damage, R-SA-4), automatic Spares; never automatic Spirals.
//!   The player frames the action in the talent's situation.
//! - **Luck** ("Luck"; R-SA-2): one Luck at a time while the next bonus die
//!   raises the exact chance of meeting the TN ([`crate::odds::p_success`],
//!   Improbable Success included, R-SA-3) by at least [`LUCK_MIN_GAIN`]; two
//!   at once when the pool is full and only a pair past six lowers the TN, if
//!   the pair gains twice that. Only on a roll with a stake (an attack, a
//!   check the GM called), never on a Character versus Character roll (a
//!   confrontation or a fight: "Players may not add luck to this", R-SA-11).
//!   Luck comes at one to three a session, so a die that barely moves the
//!   odds is kept.
//! - **Roll**: with the weapon at the target, or without one.
//! - **Defending** (Character versus Character; R-SA-5, R-SA-11): the
//!   defender raises the TN with a Profession (the Main one first, fully
//!   applicable for 2 unless that passes 5), a free Specialization of it, then
//!   a free Quality, while the TN is below 5.

use std::sync::OnceLock;

use crate::name_match::same_name;
use tabula_core::policy::{Awaiting, EncounterReport, ParticipantReport, Policy, Resource};
use tabula_core::system::{Seat, TextPlay};

use crate::character::TalentEffect;
use crate::checks::{self, MAX_TN, Pool, PoolSpec};
use crate::command::Command;
use crate::harm::{self, Level, Track};
use crate::invoking::{self, Element, OpenCheck};
use crate::odds;
use crate::state::{Member, State};
use crate::table::{MAX_LUCK_SPEND, Sapio};

/// The side of the characters that have a player.
pub const SIDE_PLAYERS: &str = "players";
/// The side of the GM's characters (NPCs: no player on the sheet).
pub const SIDE_GM: &str = "GM";
/// Full rounds after which the GM ends an Action Sequence both sides still
/// stand in (the book sets no length; see the module docs).
pub const ROUND_CAP: u32 = 12;
/// The TN the GM sets for a defensive action (hiding, running) of a character
/// without a weapon. "Action Sequences in Play": "Defensive actions should
/// likewise have a lower TN".
pub const DEFENSIVE_TN: u32 = 2;
/// The least gain in the chance of meeting the TN (0..1) for which the policy
/// spends one Luck on a bonus die. "Luck".
pub const LUCK_MIN_GAIN: f64 = 0.10;

/// The largest pool and TN whose chance is cached.
const CACHED_DICE: u32 = 6;
const CACHED_TN: u32 = 12;

/// The exact chance that `dice` Spiral Dice meet `tn`, Improbable Success
/// included ([`odds::p_success`]; R-SA-1, R-SA-3), from a table computed once.
fn chance(dice: u32, tn: u32) -> f64 {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let dice = dice.max(1);
    if dice <= CACHED_DICE && tn <= CACHED_TN {
        let table = TABLE.get_or_init(|| {
            let mut t = Vec::new();
            for d in 1..=CACHED_DICE {
                for tn in 0..=CACHED_TN {
                    t.push(odds::p_success(d, tn).unwrap_or(0.0));
                }
            }
            t
        });
        let at = ((dice - 1) * (CACHED_TN + 1) + tn) as usize;
        return table.get(at).copied().unwrap_or(0.0);
    }
    odds::p_success(dice, tn).unwrap_or(0.0)
}

fn pool_chance(pool: &Pool) -> f64 {
    chance(pool.dice, pool.tn)
}

/// More dice or a lower TN ("When to Roll" step 5; R-SA-2).
fn better(new: &Pool, old: &Pool) -> bool {
    new.dice > old.dice || new.tn < old.tn
}

fn seat_of(m: &Member) -> Seat {
    m.character
        .player()
        .map_or(Seat::Gm, |p| Seat::Player(p.to_string()))
}

fn side_of(m: &Member) -> &'static str {
    if m.character.player().is_some() {
        SIDE_PLAYERS
    } else {
        SIDE_GM
    }
}

fn active(state: &State, i: usize) -> bool {
    state
        .member(i)
        .is_some_and(|m| !m.character.out_of_action())
}

/// Whether `m` cannot invoke `element`: dedicated to a task ("Invoking an
/// Element"), or a magic Quality waiting for its pair (R-SA-12).
fn locked(m: &Member, element: &str) -> bool {
    m.locked.iter().any(|l| same_name(&l.element, element)) || m.character.is_unpaired(element)
}

/// The sides in table order (first appearance).
fn sides(state: &State) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (_, m) in state.present() {
        let s = side_of(m);
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The sides with at least one character in action.
fn standing(state: &State) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (_, m) in state.present() {
        let s = side_of(m);
        if !m.character.out_of_action() && !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// One side (or none) is left in action: the fight is over.
fn decided(state: &State) -> bool {
    standing(state).len() <= 1
}

fn takes_part(state: &State, i: usize) -> bool {
    state
        .sequence
        .as_ref()
        .is_some_and(|s| s.participants.iter().any(|p| p.character == i))
}

fn focal_done(state: &State, i: usize) -> bool {
    state.sequence.as_ref().is_some_and(|s| {
        s.participants
            .iter()
            .any(|p| p.character == i && p.focal_done)
    })
}

/// The deadliest weapon `m` carries: its index on the sheet and its level.
fn best_weapon(m: &Member) -> Option<(usize, Level)> {
    let mut best: Option<(usize, Level)> = None;
    for (k, w) in m.character.sheet().weapons.iter().enumerate() {
        if best.is_none_or(|(_, l)| w.level > l) {
            best = Some((k, w.level));
        }
    }
    best
}

/// Free Injury boxes at `level` or above: how many such hits the target
/// takes before a second Severe debilitates it ("Injuries and Stresses").
fn free_boxes(track: &Track, level: Level) -> usize {
    let mut n = 0;
    if level <= Level::Minor {
        n += track.minor.iter().filter(|b| b.is_none()).count();
    }
    if level <= Level::Moderate {
        n += track.moderate.iter().filter(|b| b.is_none()).count();
    }
    n + usize::from(track.severe.is_none())
}

/// The TN `t` would set defending (R-SA-5, R-SA-11): 1, plus the dice of a
/// Profession (the Main one 2 when free, 1 invoked again; a free Side
/// Profession 1), a free Specialization of it, a free Quality; never above
/// [`MAX_TN`].
fn defended_tn(state: &State, t: usize) -> u32 {
    let Some(m) = state.member(t) else {
        return 1;
    };
    let sheet = m.character.sheet();
    let spec_free = |specs: &[String]| specs.iter().any(|s| !locked(m, s.trim()));
    let main_dice = if locked(m, sheet.profession.name.trim()) {
        1
    } else {
        2
    };
    let mut profession = main_dice + u32::from(spec_free(&sheet.profession.specializations));
    for side in &sheet.side_professions {
        if !locked(m, side.name.trim()) {
            profession = profession.max(1 + u32::from(spec_free(&side.specializations)));
        }
    }
    let quality = u32::from(sheet.qualities.iter().any(|q| !locked(m, q.trim())));
    (1 + profession + quality).min(MAX_TN)
}

/// What `i` does on its turn in an Action Sequence: the weapon (index on
/// the sheet) at the weakest reachable foe, or `None` for a defensive action
/// (no weapon, no foe in reach, or no Action Sequence).
fn attack(state: &State, i: usize) -> Option<(usize, usize)> {
    let s = state.sequence.as_ref()?;
    let me = state.member(i)?;
    let (weapon, level) = best_weapon(me)?;
    let side = side_of(me);
    let mut best: Option<((usize, u32, usize), usize)> = None;
    for p in &s.participants {
        let t = p.character;
        let Some(m) = state.member(t) else {
            continue;
        };
        if t == i || side_of(m) == side || m.character.out_of_action() {
            continue;
        }
        let key = (
            free_boxes(m.character.injuries(), level),
            defended_tn(state, t),
            t,
        );
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((key, t));
        }
    }
    best.map(|(_, t)| (weapon, t))
}

/// The Profession `m` invokes: the one giving the most dice together with a
/// free Specialization of it; the Main Profession on ties. Its canonical
/// name and whether it is the Main one.
fn profession_choice(m: &Member) -> (String, bool) {
    let sheet = m.character.sheet();
    let spec_free = |specs: &[String]| specs.iter().any(|s| !locked(m, s.trim()));
    let main = sheet.profession.name.trim();
    let mut best_dice = if locked(m, main) { 1 } else { 2 }
        + u32::from(spec_free(&sheet.profession.specializations));
    let mut best = (main.to_string(), true);
    for side in &sheet.side_professions {
        let name = side.name.trim();
        if locked(m, name) {
            continue;
        }
        let dice = 1 + u32::from(spec_free(&side.specializations));
        if dice > best_dice {
            best_dice = dice;
            best = (name.to_string(), false);
        }
    }
    best
}

/// The free Specialization of `profession` `m` invokes, if any.
fn specialization_choice(m: &Member, profession: &str) -> Option<String> {
    let sheet = m.character.sheet();
    std::iter::once(&sheet.profession)
        .chain(sheet.side_professions.iter())
        .find(|p| same_name(p.name.trim(), profession))?
        .specializations
        .iter()
        .map(|s| s.trim())
        .find(|s| {
            !locked(m, s)
                && matches!(invoking::element(&m.character, s),
                    Some(Element::Specialization { profession: of, .. }) if same_name(&of, profession))
        })
        .map(str::to_string)
}

/// The free Quality `m` invokes, if any (the first on the sheet).
fn quality_choice(m: &Member) -> Option<String> {
    m.character
        .sheet()
        .qualities
        .iter()
        .map(|q| q.trim())
        .find(|q| {
            !locked(m, q)
                && matches!(
                    invoking::element(&m.character, q),
                    Some(Element::Quality { .. })
                )
        })
        .map(str::to_string)
}

/// The elements `m`'s own roll this round uses.
fn own_pool(m: &Member) -> Vec<String> {
    let (profession, _) = profession_choice(m);
    let mut out = Vec::with_capacity(3);
    if let Some(s) = specialization_choice(m, &profession) {
        out.push(s);
    }
    out.push(profession);
    if let Some(q) = quality_choice(m) {
        out.push(q);
    }
    out
}

/// The element `h` helps with: one the decide step accepts (free, or the
/// Main Profession) and, while `h` still has an attack of its own to make this
/// round, one that roll does not need.
fn help_element(state: &State, h: usize) -> Option<String> {
    let m = state.member(h)?;
    let sheet = m.character.sheet();
    let main = sheet.profession.name.trim();
    let stake = state.sequence.is_some() && !focal_done(state, h) && attack(state, h).is_some();
    let own = if stake { own_pool(m) } else { Vec::new() };
    let main_locked = locked(m, main);
    let mut candidates: Vec<&str> = Vec::new();
    if main_locked {
        candidates.push(main);
    }
    for side in &sheet.side_professions {
        candidates.push(side.name.trim());
    }
    for side in &sheet.side_professions {
        candidates.extend(side.specializations.iter().map(|s| s.trim()));
    }
    candidates.extend(sheet.qualities.iter().map(|q| q.trim()));
    candidates.extend(sheet.profession.specializations.iter().map(|s| s.trim()));
    if !main_locked {
        candidates.push(main);
    }
    candidates.into_iter().find_map(|name| {
        let el = invoking::element(&m.character, name)?;
        let is_main = matches!(el, Element::Profession { main: true, .. });
        let free = is_main || !locked(m, el.name());
        let spare = !own.iter().any(|o| same_name(o, el.name())) || (is_main && main_locked);
        (free && spare).then(|| el.name().to_string())
    })
}

/// Whether the open check takes help at all: it has a stake and one more
/// bonus die adds a die or lowers the TN (R-SA-2). The same for every
/// helper, so computed once per step.
fn wants_help(state: &State, c: &OpenCheck) -> bool {
    let Some(focal) = state.member(c.focal) else {
        return false;
    };
    if !stake(state, c, plan(state, c)) {
        return false;
    }
    let (spec, _) = c.spec(&focal.character);
    let with = checks::settle(&PoolSpec {
        bonus: spec.bonus.saturating_add(1),
        ..spec
    });
    better(&with, &checks::settle(&spec))
}

/// The Help `h` gives the open check, if the policy helps; `wanted` is
/// [`wants_help`] of the check.
fn help_command(state: &State, c: &OpenCheck, h: usize, wanted: bool) -> Option<Command> {
    let focal = state.member(c.focal)?;
    let m = state.member(h)?;
    if !wanted
        || h == c.focal
        || Some(h) == c.versus
        || m.character.out_of_action()
        || side_of(m) != side_of(focal)
        || c.help.iter().any(|x| x.helper == h)
        || (state.sequence.is_some() && !takes_part(state, h))
    {
        return None;
    }
    Some(Command::Help {
        helper: h,
        element: help_element(state, h)?,
    })
}

/// True when a Special Talent's effect makes this roll better.
fn talent_helps(
    effect: TalentEffect,
    c: &OpenCheck,
    m: &Member,
    spec: &PoolSpec,
    attacking: bool,
) -> bool {
    let now = checks::settle(spec);
    match effect {
        TalentEffect::BonusDice { dice } => better(
            &checks::settle(&PoolSpec {
                bonus: spec.bonus.saturating_add(dice),
                ..*spec
            }),
            &now,
        ),
        TalentEffect::TnCap { max } => better(
            &checks::settle(&PoolSpec {
                tn_cap: Some(spec.tn_cap.map_or(max, |x| x.min(max))),
                ..*spec
            }),
            &now,
        ),
        TalentEffect::TnReduction { by } => better(
            &checks::settle(&PoolSpec {
                tn_reduction: spec.tn_reduction.saturating_add(by),
                ..*spec
            }),
            &now,
        ),
        TalentEffect::IgnoreInjury => {
            let relevant = |list: Vec<(String, u32)>| -> Vec<u32> {
                list.into_iter()
                    .filter(|(n, _)| !c.not_relevant.iter().any(|x| same_name(x, n)))
                    .map(|(_, p)| p)
                    .collect()
            };
            let ignoring = harm::largest_penalty(
                &relevant(m.character.injuries().penalties()),
                &relevant(m.character.stresses().penalties()),
                true,
            );
            ignoring < spec.penalty
        }
        TalentEffect::ExtraHits { .. } => attacking,
        TalentEffect::ExtraSpares { .. } => true,
        TalentEffect::ExtraSpirals { .. } => false,
    }
}

/// The attack of the open check: the focal character's weapon (index on the
/// sheet) and its target; in a fight (R-SA-5) the defender.
fn plan(state: &State, c: &OpenCheck) -> Option<(usize, usize)> {
    match c.versus {
        Some(d) if state.sequence.is_some() => {
            let m = state.member(c.focal)?;
            best_weapon(m)
                .filter(|_| state.member(d).is_some_and(|x| !x.character.dead()))
                .map(|(w, _)| (w, d))
        }
        Some(_) => None,
        None => attack(state, c.focal),
    }
}

/// The open check has a stake: an attack, a confrontation, or a check the GM
/// called outside an Action Sequence. A defensive turn in an Action Sequence
/// changes nothing the table tracks, so nobody spends Luck or help on it.
fn stake(state: &State, c: &OpenCheck, plan: Option<(usize, usize)>) -> bool {
    plan.is_some() || c.versus.is_some() || state.sequence.is_none()
}

/// The focal character's next step: an element, a Special Talent, Luck, or
/// the roll.
fn focal_step(state: &State, c: &OpenCheck) -> Option<Command> {
    let m = state.member(c.focal)?;
    if c.profession.is_none() {
        let (profession, _) = profession_choice(m);
        return Some(Command::Invoke {
            element: profession,
            fully: true,
        });
    }
    if c.specialization.is_none()
        && let Some((p, _)) = &c.profession
        && let Some(s) = specialization_choice(m, p)
    {
        return Some(Command::Invoke {
            element: s,
            fully: true,
        });
    }
    if c.quality.is_none()
        && let Some(q) = quality_choice(m)
    {
        return Some(Command::Invoke {
            element: q,
            fully: true,
        });
    }
    let plan = plan(state, c);
    let (spec, _) = c.spec(&m.character);
    for t in &m.character.sheet().special_talents {
        let name = t.name.trim();
        if let Some(effect) = t.effect
            && !m.character.is_unpaired(name)
            && !c.talents.iter().any(|x| same_name(x, name))
            && talent_helps(effect, c, m, &spec, plan.is_some())
        {
            return Some(Command::Talent {
                name: name.to_string(),
            });
        }
    }
    if c.versus.is_none()
        && stake(state, c, plan)
        && let Some(amount) = luck_to_spend(m.character.luck(), c.luck, &spec)
    {
        return Some(Command::SpendLuck { amount });
    }
    Some(match plan {
        Some((w, t)) => Command::Roll {
            weapon: m
                .character
                .sheet()
                .weapons
                .get(w)
                .map(|w| w.name.trim().to_string()),
            target: Some(t),
        },
        None => Command::Roll {
            weapon: None,
            target: None,
        },
    })
}

/// The Luck the focal character spends now: one, or two when a single die
/// past six would be lost and the pair lowers the TN (R-SA-2), when each
/// Luck raises the exact chance of meeting the TN by at least
/// [`LUCK_MIN_GAIN`]; `None` to keep it. `held` is the sheet's Luck, `set`
/// what is set aside for this roll already.
fn luck_to_spend(held: u32, set: u32, spec: &PoolSpec) -> Option<u32> {
    let now = pool_chance(&checks::settle(spec));
    (1..=2u32).find(|&k| {
        let total = set.saturating_add(k);
        total <= held
            && total <= MAX_LUCK_SPEND
            && pool_chance(&checks::settle(&PoolSpec {
                bonus: spec.bonus.saturating_add(k),
                ..*spec
            })) - now
                >= f64::from(k) * LUCK_MIN_GAIN
    })
}

/// The defender's next element raising the TN (R-SA-5), if any.
fn defend_step(state: &State, c: &OpenCheck, d: usize) -> Option<Command> {
    let m = state.member(d)?;
    if c.tn.unwrap_or(1) >= MAX_TN || m.character.out_of_action() {
        return None;
    }
    let (invoked, profession) = c.defender_invoked(&m.character);
    let tn = c.tn.unwrap_or(1);
    let element = match profession {
        None => {
            // R-SA-11: a free Main Profession fully applicable raises the TN
            // by 2; partly applicable by 1 when 2 would pass 5.
            let (name, main) = profession_choice(m);
            let fully = !(main && !locked(m, &name) && tn.saturating_add(2) > MAX_TN);
            return Some(Command::Defend {
                element: name,
                fully,
            });
        }
        Some(p) => {
            let has_spec = invoked
                .iter()
                .any(|e| matches!(e, Element::Specialization { .. }));
            let has_quality = invoked.iter().any(|e| matches!(e, Element::Quality { .. }));
            let spec = if has_spec {
                None
            } else {
                specialization_choice(m, &p)
            };
            spec.or_else(|| if has_quality { None } else { quality_choice(m) })
        }
    }?;
    Some(Command::Defend {
        element,
        fully: true,
    })
}

/// The GM's table step: the TN, a ruling, the similarity call, beginning,
/// threatening, framing, ending.
fn gm_step(state: &State) -> Option<Command> {
    if Sapio::finished(state) {
        return None;
    }
    if let Some(p) = &state.pending_injury {
        let m = state.member(p.character)?;
        // R-SA-6: similar when an Injury of that level came from the same
        // weapon (the entry `similar-to` finds is the highest of that name).
        let similar = m
            .character
            .injuries()
            .find(&p.name)
            .filter(|b| b.level == p.level)
            .map(|_| p.name.clone());
        return Some(Command::SimilarInjury {
            similar_to: similar,
        });
    }
    if let Some(c) = &state.check {
        if c.tn.is_none() {
            let tn = match attack(state, c.focal) {
                Some((_, t)) => defended_tn(state, t),
                None => DEFENSIVE_TN,
            };
            return Some(Command::Tn {
                tn,
                not_relevant: Vec::new(),
            });
        }
        if c.declaration.as_ref().is_some_and(|d| d.accepted.is_none()) {
            return Some(Command::Rule { accept: true });
        }
        return None;
    }
    if decided(state) {
        return Some(end(state));
    }
    let Some(s) = &state.sequence else {
        return Some(Command::BeginSequence {
            goal: format!(
                "{}: take the other side out of action",
                if state.title.trim().is_empty() {
                    "The fight"
                } else {
                    state.title.trim()
                }
            ),
        });
    };
    if s.framed || (s.turns == 0 && s.round > ROUND_CAP) {
        // Framed with nobody left to be focal, or the round cap: the GM ends it.
        return Some(end(state));
    }
    if s.turns == 0
        && let Some(i) = (0..state.characters.len()).find(|&i| {
            active(state, i)
                && !s
                    .participants
                    .iter()
                    .any(|p| p.character == i && p.threatened)
        })
    {
        return Some(Command::Threaten { character: i });
    }
    Some(Command::Frame {
        text: format!("Round {}, turn {}", s.round, s.turns.saturating_add(1)),
    })
}

/// The participants who may be focal now, in the policy's order: attackers
/// by their weapon's level (deadliest first), then the others; table order on
/// ties. In a fight the aggressor is focal first (R-SA-5).
fn focal_candidates(state: &State) -> Vec<usize> {
    let Some(s) = &state.sequence else {
        return Vec::new();
    };
    if !s.framed || state.check.is_some() {
        return Vec::new();
    }
    let mut out: Vec<(std::cmp::Reverse<Option<Level>>, usize)> = s
        .participants
        .iter()
        .filter(|p| !p.focal_done && active(state, p.character))
        .filter(|p| match s.fight {
            Some((a, _)) if s.round == 1 && s.turns == 1 => p.character == a,
            _ => true,
        })
        .map(|p| {
            let level = attack(state, p.character).and_then(|_| {
                state
                    .member(p.character)
                    .and_then(best_weapon)
                    .map(|(_, l)| l)
            });
            (std::cmp::Reverse(level), p.character)
        })
        .collect();
    out.sort();
    out.into_iter().map(|(_, i)| i).collect()
}

fn entry(state: &State, i: usize) -> Option<Awaiting> {
    let m = state.member(i)?;
    Some(Awaiting::participant(seat_of(m), m.character.name()))
}

fn may_give(state: &State, seat: &Seat, i: usize) -> bool {
    match seat {
        Seat::Gm => true,
        Seat::Player(p) => state
            .member(i)
            .and_then(|m| m.character.player())
            .is_some_and(|o| same_name(o, p)),
    }
}

fn resources(m: &Member) -> Vec<Resource> {
    let count = |b: &[Option<String>]| b.iter().filter(|x| x.is_some()).count() as f64;
    let i = m.character.injuries();
    let s = m.character.stresses();
    vec![
        Resource::new("Luck", m.character.luck()),
        Resource::new("Minor Injuries", count(&i.minor)),
        Resource::new("Moderate Injuries", count(&i.moderate)),
        Resource::new("Severe Injuries", count(std::slice::from_ref(&i.severe))),
        Resource::new("Minor Stresses", count(&s.minor)),
        Resource::new("Moderate Stresses", count(&s.moderate)),
        Resource::new("Severe Stresses", count(std::slice::from_ref(&s.severe))),
    ]
}

impl Policy for Sapio {
    /// The GM's table step when the rules wait on the GM (a TN, a ruling, the
    /// similarity call of R-SA-6, beginning, threatening, framing, ending);
    /// while a pool is built, the defender's raise (R-SA-5) and the focal
    /// character's elements first, then each helper, then the focal
    /// character's talents, Luck and roll; after framing, every character who
    /// may be focal, in the policy's order.
    fn awaiting(state: &State) -> Vec<Awaiting> {
        if Sapio::finished(state) {
            return Vec::new();
        }
        if state.pending_injury.is_none()
            && let Some(c) = &state.check
            && c.tn.is_some()
            && c.declaration.as_ref().is_none_or(|d| d.accepted.is_some())
        {
            let mut out = Vec::new();
            if let Some(d) = c.versus
                && defend_step(state, c, d).is_some()
            {
                out.extend(entry(state, d));
            }
            let building = c.profession.is_none()
                || (c.specialization.is_none()
                    && state.member(c.focal).is_some_and(|m| {
                        c.profession
                            .as_ref()
                            .is_some_and(|(p, _)| specialization_choice(m, p).is_some())
                    }))
                || (c.quality.is_none()
                    && state
                        .member(c.focal)
                        .is_some_and(|m| quality_choice(m).is_some()));
            if building {
                out.extend(entry(state, c.focal));
            }
            let wanted = wants_help(state, c);
            for h in 0..state.characters.len() {
                if help_command(state, c, h, wanted).is_some() {
                    out.extend(entry(state, h));
                }
            }
            if !building {
                out.extend(entry(state, c.focal));
            }
            return out;
        }
        if state.pending_injury.is_none() && state.check.is_none() {
            let focal = focal_candidates(state);
            if !focal.is_empty() {
                return focal.into_iter().filter_map(|i| entry(state, i)).collect();
            }
        }
        if gm_step(state).is_some() {
            vec![Awaiting::table(Seat::Gm)]
        } else {
            Vec::new()
        }
    }

    fn suggest_for(state: &State, awaiting: &Awaiting) -> Option<Command> {
        let Some(name) = &awaiting.participant else {
            return if awaiting.seat.is_gm() {
                gm_step(state)
            } else {
                None
            };
        };
        let i = state.find(name)?;
        if !may_give(state, &awaiting.seat, i)
            || state.pending_injury.is_some()
            || Sapio::finished(state)
        {
            return None;
        }
        if let Some(c) = &state.check {
            if c.tn.is_none() || c.declaration.as_ref().is_some_and(|d| d.accepted.is_none()) {
                return None;
            }
            return if i == c.focal {
                focal_step(state, c)
            } else if Some(i) == c.versus {
                defend_step(state, c, i)
            } else {
                help_command(state, c, i, wants_help(state, c))
            };
        }
        focal_candidates(state)
            .contains(&i)
            .then_some(Command::Focal { character: i })
    }

    /// The round the Action Sequence is in (the last full one when it ended
    /// at a round's start; 0 without one); the sides [`SIDE_PLAYERS`] and
    /// [`SIDE_GM`] in table order; the winner when only one side has anyone
    /// in action; each character taken out when debilitated or dead
    /// ("Injuries and Stresses", "Weapons and causing Injury"), with its Luck
    /// and its Injuries and Stresses per level.
    fn report(state: &State) -> EncounterReport {
        let round = state.sequence.as_ref().map_or(0, |s| {
            if s.turns == 0 && s.round > 1 {
                s.round - 1
            } else {
                s.round
            }
        });
        let all = sides(state);
        let up = standing(state);
        let winner = if all.len() > 1 && up.len() == 1 {
            up.first().map(|s| s.to_string())
        } else {
            None
        };
        EncounterReport {
            round,
            sides: all.iter().map(|s| s.to_string()).collect(),
            winner,
            participants: state
                .present()
                .map(|(_, m)| ParticipantReport {
                    name: m.character.name().to_string(),
                    side: side_of(m).to_string(),
                    taken_out: m.character.out_of_action(),
                    resources: resources(m),
                })
                .collect(),
        }
    }
}

/// The GM's end of the encounter: `end`, or `end carry` while an advancement
/// is due (the policy takes no player's choice; "Advancement"; R-SA-9).
fn end(state: &State) -> Command {
    if crate::decide::due_advancements(state).is_empty() {
        Command::End
    } else {
        Command::EndCarrying
    }
}
