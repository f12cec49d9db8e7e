//! What an encounter leaves on a sheet, and improving a Fated between
//! encounters.
//!
//! A Game of Bastards (003_2dfeea144768d328.txt) has no chapter on either:
//! "Points & Costs" is all there is ("Increasing a trait, gaining an advantage,
//! upping a skill, or gaining a specialty costs 1 XP. Disadvantages may be taken
//! only at character creation"). What this module decides where the book is
//! silent is written down in `docs/systems/bastards.md`, "Decisions":
//!
//! - **Lasting** ([`sheets_after`]): the pools (BP, SP, MP, LP) as the
//!   encounter left them (R-GB-5; the book gives no recovery, so the Dealer's
//!   `recover` restores them), the Wildcards held ("Jokers"; "Distance" spends
//!   Wildcards "at the beginning of the scene", so they outlive scenes), the
//!   weapons in hand and carried (a weapon dropped and left on the ground goes
//!   back to its owner's sheet). Desperation and being knocked out follow from
//!   the pools when the next encounter starts (`setup::setup`).
//! - **Not lasting**: the hand, the initiative card, Berserk ("until the end of
//!   the current scene") and every other status, Followers and Extras brought
//!   in ("Building A Scene").
//! - **Advancement** ([`advance`], [`ADVANCEMENT`]): one purchase per command at
//!   1 XP each; awarding XP and restoring pools are the Dealer's.

use tabula_core::builder::{AdvanceError, Advanced, SheetAfter};
use tabula_core::grammar::words;
use tabula_core::names::{NameLookupError, resolve, same_name};
use tabula_core::roller::Roller;
use tabula_core::system::{CommandDoc, Giver, Seat};

use crate::advantages::{Advantage, MAX_STACK};
use crate::builder::{sheet_problems, write_sheet};
use crate::character::{
    Character, CharacterDraft, MAX_EARNED_XP, MAX_LIST, MAX_RANK, MAX_TRAIT, MAX_WILDCARDS,
    RULE_ADVANTAGES, RULE_CAPS, RULE_POINTS, RULE_POOLS, RULE_SKILLS, RULE_SPECIALTIES, SKILLS,
    SpecialtyDraft, Trait, Weapon, is_skill,
};
use crate::rules::RULE_SEATS;
use crate::state::{Body, State};

/// The most XP one `award` gives (a cap on input).
pub const MAX_AWARD: i64 = 100;
/// The most pool points one `recover` restores (a cap on input).
pub const MAX_RECOVER: i64 = 100;

/// The advancement commands (`help` and the reference). The book's purchases
/// ("Points & Costs", "Specialties", "Advantages"; R-GB-8) for the player who
/// owns the sheet (or the Dealer); awarding XP and restoring pools, which the
/// book leaves open, for the Dealer only.
pub const ADVANCEMENT: &[CommandDoc] = &[
    CommandDoc::new(
        "raise",
        &["trait"],
        "raise TRAIT",
        "Increase a Trait (Body, Spirit, Mind or Luck) by 1 for 1 XP; its pool grows by 5",
        Giver::Player,
        RULE_POINTS,
    ),
    CommandDoc::new(
        "skill",
        &["up"],
        "skill SKILL",
        "Up a skill by one rank for 1 XP (a new <Weapon> Combat or Craft <Type> starts at 1); the Dealer may add a skill the book does not list",
        Giver::Player,
        RULE_POINTS,
    ),
    CommandDoc::new(
        "specialty",
        &["spec"],
        "specialty NAME SKILL SKILL",
        "Gain a Specialty between two skills at rank 2 or above for 1 XP",
        Giver::Player,
        RULE_SPECIALTIES,
    ),
    CommandDoc::new(
        "advantage",
        &["adv"],
        "advantage ADVANTAGE",
        "Gain an Advantage for 1 XP (Counter<Weapon>, Florentine<Weapon> name the weapon; Toughness and Resolve up to 5 times)",
        Giver::Player,
        RULE_ADVANTAGES,
    ),
    CommandDoc::new(
        "disadvantage",
        &[],
        "disadvantage TEXT",
        "Always refused: Disadvantages may be taken only at character creation",
        Giver::Player,
        RULE_POINTS,
    ),
    CommandDoc::new(
        "award",
        &["xp"],
        "award N",
        "The Dealer awards N XP (1 to 100); the book gives no XP source, so the Dealer decides",
        Giver::Gm,
        RULE_POINTS,
    ),
    CommandDoc::new(
        "recover",
        &["heal"],
        "recover [BP|SP|MP|LP|all] [N]",
        "The Dealer restores N points (default: all) of a pool (default: every pool), up to Trait x 5",
        Giver::Gm,
        RULE_POOLS,
    ),
];

/// The sheet of every Fated at the table as the encounter leaves it, in the
/// table's order (Followers and Extras have no sheet and are left out). See
/// the module documentation for what lasts.
pub fn sheets_after(state: &State) -> Vec<SheetAfter> {
    let mut ground: Vec<Weapon> = state.ground.clone();
    let mut out = Vec::new();
    // A participant the GM's `add` brought in is a guest of the encounter:
    // its sheet is not written back (issue 27, item 6).
    for c in state.combatants.iter().filter(|c| !c.added) {
        let Body::Fated {
            character, pools, ..
        } = &c.body
        else {
            continue;
        };
        let mut d = character.to_draft();
        for (t, now) in Trait::ALL.into_iter().zip(pools.iter()) {
            let max = character.pool_max(t);
            d.pools.set(t, (*now < max).then_some((*now).clamp(0, max)));
        }
        d.wildcards = c.wildcards.min(MAX_WILDCARDS);
        let mut weapons: Vec<Weapon> = c.wielding.iter().chain(&c.carried).cloned().collect();
        // A weapon of the sheet dropped (Disarm) and left on the ground goes
        // back to its owner when the encounter ends.
        for w in character.weapons() {
            let had = character.weapons().iter().filter(|x| *x == w).count();
            let has = weapons.iter().filter(|x| *x == w).count();
            if has < had
                && let Some(i) = ground.iter().position(|g| g == w)
            {
                weapons.push(ground.remove(i));
            }
        }
        weapons.truncate(MAX_LIST);
        d.weapons = weapons;
        out.push(SheetAfter {
            name: c.name.clone(),
            sheet: write_sheet(&d),
        });
    }
    out
}

fn parse_err(message: impl Into<String>) -> AdvanceError {
    AdvanceError::parse(message, ADVANCEMENT)
}

/// 1 XP must be left ("Points & Costs").
fn pay(c: &Character, what: &str) -> Result<i64, AdvanceError> {
    let (available, spent) = c.xp();
    let left = available - spent;
    if left < 1 {
        return Err(AdvanceError::refused(
            RULE_POINTS,
            format!(
                "{what} costs 1 XP and {} has {left} left ({spent} of {available} spent)",
                c.name()
            ),
        ));
    }
    Ok(left - 1)
}

/// A skill the sheet knows (its own or the book's), by name or unambiguous
/// prefix; `Ok(None)` when it fits none.
fn find_skill(c: &Character, typed: &str) -> Result<Option<String>, AdvanceError> {
    let mut names: Vec<&str> = SKILLS.to_vec();
    names.extend(c.skills().keys().map(String::as_str));
    match resolve("skill", typed, names) {
        Ok(n) => Ok(Some(n.to_string())),
        Err(NameLookupError::Unknown { .. }) => Ok(None),
        Err(e) => Err(parse_err(e.to_string())),
    }
}

fn number(word: &str, what: &str, max: i64) -> Result<i64, AdvanceError> {
    match word.parse::<i64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(parse_err(format!(
            "{what} must be a whole number from 1 to {max}, not {word:?}"
        ))),
    }
}

fn set_trait(d: &mut CharacterDraft, t: Trait, v: i64) {
    match t {
        Trait::Body => d.body = v,
        Trait::Spirit => d.spirit = v,
        Trait::Mind => d.mind = v,
        Trait::Luck => d.luck = v,
    }
}

/// One advancement command (see [`ADVANCEMENT`]) given by `seat` to a saved
/// sheet; the sheet after it, or the rule that refuses it (nothing changes).
///
/// # Errors
/// [`AdvanceError::Sheet`] when the sheet does not validate;
/// [`AdvanceError::Parse`] for an unknown command or wrong arguments;
/// [`AdvanceError::Refused`] naming the rule: not enough XP ("Points &
/// Costs"), a Specialty's skills below rank 2 ("Specialties"), an Advantage
/// taken twice or a sixth Toughness ("Advantages"), a Disadvantage after
/// creation ("Points & Costs"), the Dealer's command from a player, another
/// player's character (table rule "Seats"), a cap.
pub fn advance(
    sheet: &str,
    seat: &Seat,
    line: &str,
    _roller: &mut dyn Roller,
) -> Result<Advanced, AdvanceError> {
    let c = Character::from_toml(sheet).map_err(|e| AdvanceError::Sheet {
        problems: sheet_problems(e),
    })?;
    let w = words(line).map_err(|e| parse_err(e.to_string()))?;
    let Some((head, args)) = w.split_first() else {
        return Err(parse_err("no command given"));
    };
    let head = head.to_ascii_lowercase();
    let Some(doc) = ADVANCEMENT
        .iter()
        .find(|d| d.name == head || d.aliases.contains(&head.as_str()))
    else {
        return Err(parse_err(format!("{head:?} is not an advancement command")));
    };
    if doc.giver == Giver::Gm && !seat.is_gm() {
        return Err(AdvanceError::refused(
            doc.rule,
            format!(
                "`{}` is the Dealer's (the book gives no rule for it; the Dealer decides)",
                doc.name
            ),
        ));
    }
    if !seat.is_gm() {
        if c.player().is_empty() {
            return Err(AdvanceError::refused(
                RULE_SEATS,
                format!("{} is one of the Dealer's characters", c.name()),
            ));
        }
        if !Seat::parse(c.player()).same_seat(seat) {
            return Err(AdvanceError::refused(
                RULE_SEATS,
                format!("{} is played by {}, not {seat}", c.name(), c.player()),
            ));
        }
    }
    let mut d = c.to_draft();
    let rest = args.join(" ");
    let summary = match doc.name {
        "raise" => raise(&c, &mut d, args)?,
        "skill" => up_skill(&c, &mut d, seat, &rest)?,
        "specialty" => add_specialty(&c, &mut d, args)?,
        "advantage" => add_advantage(&c, &mut d, &rest)?,
        "disadvantage" => {
            return Err(AdvanceError::refused(
                RULE_POINTS,
                "Disadvantages may be taken only at character creation",
            ));
        }
        "award" => award(&c, &mut d, args)?,
        "recover" => recover(&c, &mut d, args)?,
        _ => return Err(parse_err(format!("{head:?} is not an advancement command"))),
    };
    let text = write_sheet(&d);
    match Character::from_toml(&text) {
        Ok(_) => Ok(Advanced {
            sheet: text,
            summary,
        }),
        Err(e) => {
            let problems = sheet_problems(e);
            let first = problems.first();
            Err(AdvanceError::refused(
                first.map_or(RULE_POINTS, |p| p.rule),
                first.map_or_else(
                    || "the sheet would break a rule".into(),
                    |p| p.message.clone(),
                ),
            ))
        }
    }
}

/// `raise TRAIT`: a Trait up by 1 for 1 XP, its pool by 5 ("Points & Costs";
/// R-GB-8; the cap [`MAX_TRAIT`]).
fn raise(c: &Character, d: &mut CharacterDraft, args: &[String]) -> Result<String, AdvanceError> {
    let [word] = args else {
        return Err(parse_err("raise takes one Trait: raise Body"));
    };
    let t = Trait::parse(word).ok_or_else(|| {
        parse_err(format!(
            "there is no Trait called {word:?} (Body, Spirit, Mind, Luck)"
        ))
    })?;
    let cur = c.trait_score(t);
    if cur >= MAX_TRAIT {
        return Err(AdvanceError::refused(
            RULE_CAPS,
            format!("{t} is {cur}, the most a sheet holds"),
        ));
    }
    let left = pay(c, &format!("Raising {t}"))?;
    set_trait(d, t, cur + 1);
    let now = c.pool_now(t);
    if let Some(p) = d.pools.get(t) {
        d.pools.set(t, Some(p + 5));
    }
    Ok(format!(
        "{t} {cur} -> {} for 1 XP ({} {now} -> {}); XP left {left}",
        cur + 1,
        t.pool_name(),
        now + 5
    ))
}

/// `skill SKILL`: a skill up by one rank for 1 XP; a skill the book does not
/// list only from the Dealer ("Skills", "Points & Costs"; the cap
/// [`MAX_RANK`]).
fn up_skill(
    c: &Character,
    d: &mut CharacterDraft,
    seat: &Seat,
    rest: &str,
) -> Result<String, AdvanceError> {
    if rest.trim().is_empty() {
        return Err(parse_err("skill takes a skill: skill Technology"));
    }
    let (name, new_custom) = match find_skill(c, rest)? {
        Some(n) => (n, false),
        None if is_skill(rest, &[]) => (rest.trim().to_string(), false),
        None if seat.is_gm() => (rest.trim().to_string(), true),
        None => {
            return Err(AdvanceError::refused(
                RULE_SKILLS,
                format!(
                    "{:?} is not a skill of the book; the Dealer may allow it (gm: skill {})",
                    rest.trim(),
                    rest.trim()
                ),
            ));
        }
    };
    let cur = c.skill(&name).unwrap_or(1);
    if cur >= MAX_RANK {
        return Err(AdvanceError::refused(
            RULE_CAPS,
            format!("{name} is rank {cur}, the most a sheet holds"),
        ));
    }
    let left = pay(c, &format!("Upping {name}"))?;
    if new_custom {
        d.custom_skills.push(name.clone());
    }
    let key = d
        .skills
        .keys()
        .find(|k| k.trim().eq_ignore_ascii_case(name.trim()))
        .cloned()
        .unwrap_or_else(|| name.clone());
    d.skills.insert(key, cur + 1);
    Ok(format!(
        "{name} {cur} -> {} for 1 XP; XP left {left}",
        cur + 1
    ))
}

/// `specialty NAME SKILL SKILL`: a Specialty joining two different skills at
/// rank 2 or more, for 1 XP ("Specialties").
fn add_specialty(
    c: &Character,
    d: &mut CharacterDraft,
    args: &[String],
) -> Result<String, AdvanceError> {
    let [name, a, b] = args else {
        return Err(parse_err(
            "specialty takes a name and two skills: specialty \"Jury-Rig\" Technology Repair",
        ));
    };
    if c.specialties().iter().any(|(n, _, _)| same_name(n, name)) {
        return Err(AdvanceError::refused(
            RULE_SPECIALTIES,
            format!("{} already has the Specialty {name}", c.name()),
        ));
    }
    let mut pair: Vec<(String, i64)> = Vec::new();
    for typed in [a, b] {
        let skill = find_skill(c, typed)?.unwrap_or_else(|| typed.trim().to_string());
        let r = c.skill(&skill).unwrap_or(0);
        if r < 2 {
            return Err(AdvanceError::refused(
                RULE_SPECIALTIES,
                format!("{skill} is rank {r}; a Specialty joins two skills at rank 2 or above"),
            ));
        }
        pair.push((skill, r));
    }
    let [(x, rx), (y, ry)] = pair.as_slice() else {
        return Err(parse_err("a Specialty joins two skills"));
    };
    if same_name(x, y) {
        return Err(AdvanceError::refused(
            RULE_SPECIALTIES,
            "a Specialty joins two different skills",
        ));
    }
    let left = pay(c, &format!("The Specialty {name}"))?;
    let summary = format!(
        "Specialty {name} ({x} x {y}), rank {}, for 1 XP; XP left {left}",
        rx.min(ry)
    );
    let skills = vec![x.clone(), y.clone()];
    d.specialties.push(SpecialtyDraft {
        name: name.clone(),
        skills,
    });
    Ok(summary)
}

/// `advantage NAME`: an Advantage for 1 XP, once (Toughness and Resolve up to
/// [`MAX_STACK`] times) ("Advantages"; R-GB-8).
fn add_advantage(
    c: &Character,
    d: &mut CharacterDraft,
    rest: &str,
) -> Result<String, AdvanceError> {
    let a = Advantage::parse(rest).ok_or_else(|| {
        AdvanceError::refused(
            RULE_ADVANTAGES,
            format!(
                "{:?} is not an Advantage of the book (Counter and Florentine name a weapon: advantage Counter<Sword>)",
                rest.trim()
            ),
        )
    })?;
    let has = c
        .advantages()
        .iter()
        .filter(|x| same_name(&x.to_string(), &a.to_string()))
        .count();
    let stacks = matches!(a, Advantage::Toughness | Advantage::Resolve);
    if stacks && has >= MAX_STACK {
        return Err(AdvanceError::refused(
            RULE_ADVANTAGES,
            format!("{a} may be taken at most {MAX_STACK} times"),
        ));
    }
    if !stacks && has > 0 {
        return Err(AdvanceError::refused(
            RULE_ADVANTAGES,
            format!(
                "{} already has {a}; only Toughness and Resolve may be taken again",
                c.name()
            ),
        ));
    }
    let left = pay(c, &format!("The Advantage {a}"))?;
    d.advantages.push(a.to_string());
    Ok(format!("{a} ({}) for 1 XP; XP left {left}", a.suit()))
}

/// `award N`: the Dealer gives XP (the book is silent; capped at
/// [`MAX_EARNED_XP`] earned).
fn award(c: &Character, d: &mut CharacterDraft, args: &[String]) -> Result<String, AdvanceError> {
    let [n] = args else {
        return Err(parse_err("award takes a number of XP: award 2"));
    };
    let n = number(n, "XP awarded", MAX_AWARD)?;
    let earned = c.earned_xp();
    if earned + n > MAX_EARNED_XP {
        return Err(AdvanceError::refused(
            RULE_CAPS,
            format!(
                "earned XP would be {}, more than {MAX_EARNED_XP}",
                earned + n
            ),
        ));
    }
    d.earned_xp = earned + n;
    let (available, spent) = c.xp();
    Ok(format!(
        "{} earns {n} XP (earned {earned} -> {}); XP left {}",
        c.name(),
        earned + n,
        available + n - spent
    ))
}

/// `recover [POOL|all] [N]`: the Dealer restores pools, at most to Trait x 5
/// ("Combat"; R-GB-5; the book gives no recovery).
fn recover(c: &Character, d: &mut CharacterDraft, args: &[String]) -> Result<String, AdvanceError> {
    let (which, amount) = match args {
        [] => (None, None),
        [one] => match one.parse::<i64>() {
            Ok(_) => (None, Some(number(one, "points", MAX_RECOVER)?)),
            Err(_) => (Some(one.as_str()), None),
        },
        [p, n] => (Some(p.as_str()), Some(number(n, "points", MAX_RECOVER)?)),
        _ => return Err(parse_err("recover takes a pool and a number: recover BP 3")),
    };
    let pools: Vec<Trait> = match which {
        None => Trait::ALL.to_vec(),
        Some(w) if w.eq_ignore_ascii_case("all") => Trait::ALL.to_vec(),
        Some(w) => vec![Trait::parse(w).ok_or_else(|| {
            parse_err(format!(
                "there is no pool called {w:?} (BP, SP, MP, LP or all)"
            ))
        })?],
    };
    let mut changed = Vec::new();
    for t in pools {
        let now = c.pool_now(t);
        let max = c.pool_max(t);
        let after = amount.map_or(max, |n| (now + n).min(max));
        if after != now {
            changed.push(format!("{} {now} -> {after}", t.pool_name()));
        }
        d.pools.set(t, (after < max).then_some(after));
    }
    if changed.is_empty() {
        return Err(AdvanceError::refused(
            RULE_POOLS,
            format!("{}'s pools are already full (Trait x 5)", c.name()),
        ));
    }
    Ok(format!("{} recovers: {}", c.name(), changed.join(", ")))
}
