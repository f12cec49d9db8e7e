//! Help for the GM: Party Stat Points (PSP), the shared enemy Health pool,
//! buying Rolls with PSP, and what a bought Roll may be used for.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::character::{Character, CharacterFileError};
use crate::event::Event;
use crate::rules;
use crate::state::{State, Target};
use tabula_core::{Refusal, RuleError, Seat};

/// SP cost of one d6 Roll ("Creating Combat").
pub const D6_COST: u32 = 12;
/// SP cost of one d3 Roll ("Creating Combat").
pub const D3_COST: u32 = 4;
/// SP cost of one Combat Point ("Creating Combat").
pub const CP_COST: u32 = 1;
/// "To quickly see how many Rolls you can buy, do PSP ÷ 16."
pub const PAIR_COST: u32 = D6_COST + D3_COST;

/// The Party Stat Points: the total SP of every player's sheet (the 12 of
/// level 0 included). NPC allies are not part of the party.
///
/// Tiers, "Player Stat Points as Currency" (002_631931fd73349179.txt).
pub fn party_stat_points<'a>(players: impl IntoIterator<Item = &'a Character>) -> u32 {
    players
        .into_iter()
        .fold(0u32, |acc, c| acc.saturating_add(c.total_sp()))
}

/// How hard a combat is, for the enemy Health pool ("Enemy Health").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CombatDifficulty {
    /// Half the PSP (rounded up, "Rounding").
    Easy,
    /// The PSP.
    #[default]
    Normal,
    /// Double the PSP.
    Hard,
}

impl CombatDifficulty {
    /// Read `easy`, `normal` or `hard` (any case).
    pub fn parse(text: &str) -> Option<CombatDifficulty> {
        match text.trim().to_ascii_lowercase().as_str() {
            "easy" => Some(CombatDifficulty::Easy),
            "normal" => Some(CombatDifficulty::Normal),
            "hard" => Some(CombatDifficulty::Hard),
            _ => None,
        }
    }
}

impl fmt::Display for CombatDifficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CombatDifficulty::Easy => "Easy",
            CombatDifficulty::Normal => "Normal",
            CombatDifficulty::Hard => "Hard",
        })
    }
}

/// The shared enemy Health pool: Easy PSP/2 (rounded up), Normal PSP, Hard 2 x PSP.
///
/// Tiers, "Enemy Health", "Rounding" (002_631931fd73349179.txt).
pub fn enemy_health_pool(psp: u32, difficulty: CombatDifficulty) -> u32 {
    match difficulty {
        CombatDifficulty::Easy => psp.div_ceil(2),
        CombatDifficulty::Normal => psp,
        CombatDifficulty::Hard => psp.saturating_mul(2),
    }
}

/// The Rolls (and Combat Points) the GM buys with PSP for the enemies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Purchase {
    /// d6 Rolls, 12 SP each.
    #[serde(default)]
    pub d6: u32,
    /// d3 Rolls, 4 SP each.
    #[serde(default)]
    pub d3: u32,
    /// Combat Points, 1 SP each.
    #[serde(default)]
    pub combat_points: u32,
}

/// Why a purchase of Rolls is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "problem", rename_all = "kebab-case")]
pub enum PurchaseError {
    /// d6 and d3 counts differ by more than one (R-TI-5).
    #[error(
        "after buying a d6 you must buy a d3 before another d6 (and the other way round): {d6}d6 and {d3}d3 differ by more than one (R-TI-5)"
    )]
    Alternation {
        /// d6 asked for.
        d6: u32,
        /// d3 asked for.
        d3: u32,
    },
    /// d3 Rolls with no d6: "1d3 (need 1d6)".
    #[error("a d3 needs a d6 bought first (\"1d3 (need 1d6)\"): {d3}d3 with no d6")]
    NeedD6 {
        /// d3 asked for.
        d3: u32,
    },
    /// The purchase costs more SP than the PSP.
    #[error("{cost} SP is more than the party's {psp} Stat Points")]
    OverBudget {
        /// The cost in SP.
        cost: u64,
        /// The PSP.
        psp: u32,
    },
}

impl Purchase {
    /// The cost in SP: 12 per d6, 4 per d3, 1 per Combat Point.
    pub fn cost(&self) -> u64 {
        u64::from(self.d6) * u64::from(D6_COST)
            + u64::from(self.d3) * u64::from(D3_COST)
            + u64::from(self.combat_points) * u64::from(CP_COST)
    }

    /// Check the purchase against the PSP, the alternation rule (R-TI-5) and
    /// "1d3 (need 1d6)": a d3 can be bought only once a d6 is (so 2d6 + 3d3
    /// alternates d3, d6, d3, d6, d3 and is allowed; 1d3 alone is not).
    ///
    /// Tiers, "Creating Combat", "Buying Rolls" (002_631931fd73349179.txt); R-TI-5.
    ///
    /// # Errors
    /// Every [`PurchaseError`] that applies.
    pub fn validate(&self, psp: u32) -> Result<(), Vec<PurchaseError>> {
        let mut problems = Vec::new();
        if self.d6.abs_diff(self.d3) > 1 {
            problems.push(PurchaseError::Alternation {
                d6: self.d6,
                d3: self.d3,
            });
        }
        if self.d3 > 0 && self.d6 == 0 {
            problems.push(PurchaseError::NeedD6 { d3: self.d3 });
        }
        if self.cost() > u64::from(psp) {
            problems.push(PurchaseError::OverBudget {
                cost: self.cost(),
                psp,
            });
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    /// As [`Purchase::validate`], as one refusal naming the rule.
    ///
    /// # Errors
    /// A [`RuleError`] under "Buying Rolls"; R-TI-5: [`Refusal::Spent`] (of
    /// "PSP") when the purchase only costs more than the PSP, otherwise
    /// [`Refusal::Forbidden`] naming every problem.
    pub fn check(&self, psp: u32) -> Result<(), RuleError> {
        self.validate(psp).map_err(|ps| {
            let message = ps
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ");
            // Over the PSP and nothing else: too little to spend.
            if ps
                .iter()
                .all(|p| matches!(p, PurchaseError::OverBudget { .. }))
            {
                RuleError::spent(rules::BUYING_ROLLS, "PSP", message)
            } else {
                RuleError::forbidden(rules::BUYING_ROLLS, message)
            }
        })
    }

    /// The book's quick buy: as many d6 + d3 pairs as PSP ÷ 16 allows, then a d6
    /// if 12 SP are left, and the rest as Combat Points.
    ///
    /// Tiers, "Buying Rolls" (002_631931fd73349179.txt).
    pub fn quick(psp: u32) -> Purchase {
        let pairs = psp / PAIR_COST;
        let rest = psp % PAIR_COST;
        let extra = u32::from(rest >= D6_COST);
        Purchase {
            d6: pairs + extra,
            d3: pairs,
            combat_points: rest - extra * D6_COST,
        }
    }
}

impl fmt::Display for Purchase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}d6 + {}d3 + {} CP ({} SP)",
            self.d6,
            self.d3,
            self.combat_points,
            self.cost()
        )
    }
}

/// A value of a character the GM may `adjust` mid-encounter: the book tracks
/// these at the table and they change during play.
///
/// Tiers, "Health", "Action Points" (002_631931fd73349179.txt); issue 27, item 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HeroValue {
    /// Health, 0 to the character's max Health ("Health").
    Health,
    /// Action Points, 0 to [`crate::character::MAX_AP`] ("Action Points").
    Ap,
}

impl HeroValue {
    /// Every value, in the order `adjust` lists them.
    pub const ALL: [HeroValue; 2] = [HeroValue::Health, HeroValue::Ap];

    /// The word typed for it (`health`, `ap`).
    pub fn key(self) -> &'static str {
        match self {
            HeroValue::Health => "health",
            HeroValue::Ap => "ap",
        }
    }

    /// Read `health`/`hp` or `ap` (any case).
    pub fn parse(text: &str) -> Option<HeroValue> {
        match text.trim().to_ascii_lowercase().as_str() {
            "health" | "hp" => Some(HeroValue::Health),
            "ap" | "action-points" => Some(HeroValue::Ap),
            _ => None,
        }
    }
}

impl fmt::Display for HeroValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HeroValue::Health => "Health",
            HeroValue::Ap => "AP",
        })
    }
}

/// The amount of an `adjust` (`N`, `+N`, `-N`), read as every book reads it.
pub use tabula_core::grammar::Amount;

/// The new value of an adjustment of `current` by `amount`, checked against
/// `0..=max`.
///
/// Issue 27, item 6 (GM tools): the GM may change a tracked value, never out of
/// the book's range.
///
/// # Errors
/// [`Refusal::OutOfRange`] naming `value` and its range (an i64 overflow
/// included); nothing changes.
pub fn adjusted(
    value: HeroValue,
    current: u32,
    max: u32,
    amount: Amount,
) -> Result<u32, RuleError> {
    let rule = match value {
        HeroValue::Health => rules::HEALTH,
        HeroValue::Ap => rules::GM_TOOLS,
    };
    let out = |got: i64| {
        RuleError::new(
            rule,
            Refusal::OutOfRange {
                field: value.to_string(),
                min: 0,
                max: i64::from(max),
                got,
            },
            format!("{value} must stay between 0 and {max}, not {got}"),
        )
    };
    let Some(new) = amount.apply(i64::from(current)) else {
        return Err(RuleError::new(
            rule,
            Refusal::OutOfRange {
                field: value.to_string(),
                min: 0,
                max: i64::from(max),
                got: i64::MAX,
            },
            format!("{value} {amount} is out of range (0 to {max})"),
        ));
    };
    match u32::try_from(new) {
        Ok(n) if n <= max => Ok(n),
        _ => Err(out(new)),
    }
}

/// The GM's `adjust`: set or change a character's Health or AP. Health
/// reaching 0 has the consequences damage has ("Health": out of the fight;
/// a Death Roll and a Permanent Wound when the table plays them; every player
/// at 0 ends the combat, lost, "Combat"); a dead
/// character is not adjusted, and a character at 0 Health gets no AP (it
/// "cannot contribute to the fight"). The GM may raise a character's Health
/// from 0 (a correction the GM makes, not a heal).
///
/// `character` may also name an enemy ([`adjust_enemy`]) or be
/// [`RESERVE`] ([`adjust_reserve`]): the enemies' shared Health.
///
/// Tiers, "Health", "Action Points", "Death Rolls", "Enemy Health"
/// (002_631931fd73349179.txt); issue 27, item 6.
///
/// # Errors
/// An unknown character (listing the characters), a dead one, AP for a
/// character at 0 Health, or a result outside `0..=max`; nothing changes.
pub(crate) fn adjust(
    s: &State,
    character: &str,
    value: HeroValue,
    amount: Amount,
    roller: &mut dyn tabula_core::Roller,
    out: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if s.hero(character).is_none() {
        if let Some(e) = s.enemy(character) {
            return adjust_enemy(s, e, value, amount, out);
        }
        if tabula_core::names::same_name(character, RESERVE) {
            return adjust_reserve(s, value, amount, out);
        }
    }
    let i = s.hero(character).ok_or_else(|| {
        crate::decide::unknown_among(
            rules::SEATS,
            "character",
            character,
            adjustable(s)
                .into_iter()
                .map(|n| tabula_core::grammar::quote(&n)),
        )
    })?;
    let h = crate::decide::hero(s, i)?;
    if h.dead {
        return Err(RuleError::condition(
            rules::DEATH_ROLLS,
            "dead",
            format!("{} is dead", h.name()),
        ));
    }
    let (current, max) = match value {
        HeroValue::Health => (h.health, h.max_health),
        HeroValue::Ap => {
            if !h.up() {
                return Err(RuleError::condition(
                    rules::HEALTH_ZERO,
                    "0 Health",
                    format!(
                        "{} is at 0 Health and cannot contribute to the fight",
                        h.name()
                    ),
                ));
            }
            (h.ap, crate::character::MAX_AP)
        }
    };
    let to = adjusted(value, current, max, amount)?;
    out.push(Event::Adjusted {
        hero: i,
        value,
        from: current,
        to,
    });
    if value == HeroValue::Health && to == 0 && current > 0 {
        crate::decide::fall_to_zero(s, i, h.name(), roller, out)?;
        crate::decide::settle(s, out);
    }
    Ok(())
}

/// The word `adjust` takes for the enemies' Health pool's reserve (`adjust
/// reserve AMOUNT`).
pub const RESERVE: &str = "reserve";

/// The most Health the GM may put in the pool's reserve (Tabula's cap; the
/// book's pools are at most twice the PSP).
pub const MAX_RESERVE: u32 = 100_000;

/// Every name `adjust` takes: the characters still in the encounter and not
/// dead, the enemies still in it, and [`RESERVE`].
pub(crate) fn adjustable(s: &State) -> Vec<String> {
    s.heroes
        .iter()
        .filter(|h| !h.dead && !h.left)
        .map(|h| h.name().to_string())
        .chain(s.enemies.iter().filter(|e| !e.left).map(|e| e.name.clone()))
        .chain(std::iter::once(RESERVE.to_string()))
        .collect()
}

fn enemies_have_health_only(value: HeroValue) -> Result<(), RuleError> {
    if value == HeroValue::Health {
        Ok(())
    } else {
        Err(RuleError::forbidden(
            rules::ENEMY_HEALTH,
            "enemies have Health from the shared pool and no AP (they use the Rolls the GM bought)",
        ))
    }
}

/// The GM's `adjust ENEMY health AMOUNT`: an enemy's Health, from 0 to its
/// Health now plus the pool's reserve. The difference comes from, or goes
/// back to, the reserve: "All enemies share a pool of Health Points that you
/// choose how to distribute". At 0 the enemy is defeated as damage defeats it
/// (a combat in which every enemy is down ends, won); raised from 0 it stands
/// again (a correction the GM makes). The numbers are the GM's: a player's
/// log line says only whose Health the GM adjusted.
///
/// Tiers, "Enemy Health" (002_631931fd73349179.txt); the crate's GM tools
/// (issue 27, item 6).
///
/// # Errors
/// AP (enemies have none) or a result out of range; nothing changes.
pub(crate) fn adjust_enemy(
    s: &State,
    e: usize,
    value: HeroValue,
    amount: Amount,
    out: &mut Vec<Event>,
) -> Result<(), RuleError> {
    enemies_have_health_only(value)?;
    let x = crate::decide::enemy(s, e)?;
    let max = x.health.saturating_add(s.reserve);
    let to = adjusted(value, x.health, max, amount).map_err(|mut err| {
        err.rule = rules::ENEMY_HEALTH;
        err
    })?;
    out.push(Event::EnemyAdjusted {
        enemy: e,
        from: x.health,
        to,
    });
    if to == 0 && x.health > 0 {
        out.push(Event::EnemyDefeated { enemy: e });
        crate::decide::settle(s, out);
    }
    Ok(())
}

/// The GM's `adjust reserve AMOUNT`: the Health of the enemies' pool not yet
/// given to an enemy (what `spawn` draws from), 0 to [`MAX_RESERVE`]; the pool
/// grows or shrinks by as much. The book lets the GM choose the pool's
/// difficulty and how it is distributed ("Enemy Health"); this is the GM's
/// correction mid-encounter. The numbers are the GM's.
///
/// Tiers, "Enemy Health" (002_631931fd73349179.txt); the crate's GM tools
/// (issue 27, item 6).
///
/// # Errors
/// AP, or a result out of range; nothing changes.
pub(crate) fn adjust_reserve(
    s: &State,
    value: HeroValue,
    amount: Amount,
    out: &mut Vec<Event>,
) -> Result<(), RuleError> {
    enemies_have_health_only(value)?;
    let max = MAX_RESERVE.max(s.reserve);
    let to = adjusted(value, s.reserve, max, amount).map_err(|mut err| {
        err.rule = rules::ENEMY_HEALTH;
        err
    })?;
    out.push(Event::ReserveAdjusted {
        from: s.reserve,
        to,
    });
    Ok(())
}

/// The book's character sheets bundled with the crate (`examples/tiers/`):
/// John and Cristy (the book's examples), Steve (its NPC), and the "Starting
/// Stats" and "Leveling Up" examples. The GM may bring any of them into an
/// encounter as an NPC ally (`add`).
pub const BUNDLED_SHEETS: [&str; 6] = [
    include_str!("../../../../examples/tiers/john.toml"),
    include_str!("../../../../examples/tiers/cristy.toml"),
    include_str!("../../../../examples/tiers/steve.toml"),
    include_str!("../../../../examples/tiers/level0.toml"),
    include_str!("../../../../examples/tiers/level1-even.toml"),
    include_str!("../../../../examples/tiers/level1-strength.toml"),
];

/// The bundled sheets ([`BUNDLED_SHEETS`]) as characters (each one is checked
/// by the crate's tests; one that did not read would be left out).
pub fn bundled_characters() -> Vec<Character> {
    BUNDLED_SHEETS
        .iter()
        .filter_map(|t| Character::from_toml(t).ok())
        .collect()
}

/// What the GM may `add`, by name: every character the table loaded (its
/// players and NPC allies, one who left included, not one added since), then
/// the bundled sheets whose names the table's characters do not already have.
pub fn addable(s: &State) -> Vec<Character> {
    let mut out: Vec<Character> = s
        .heroes
        .iter()
        .filter(|h| !h.joined)
        .map(|h| h.character.clone())
        .collect();
    for c in bundled_characters() {
        if !out
            .iter()
            .any(|o| tabula_core::names::same_name(o.name(), c.name()))
        {
            out.push(c);
        }
    }
    out
}

/// Every broken rule of a character sheet the book's validating reader
/// ([`Character::from_toml`], the one the table file's `file = "..."` sheets
/// and `tabula tiers character validate` use) refused, one entry each: a
/// rule of "Character Creation" names its field and its rule
/// (`stats.skill tier 1: ... [Tiers, "Starting Stats"]`); text that is no
/// character file is one entry naming the field the TOML reader stopped at.
pub fn sheet_problems(e: &CharacterFileError) -> Vec<String> {
    match e {
        CharacterFileError::Toml(m) => vec![format!("not a character file: {m}")],
        CharacterFileError::Rules(d) => d
            .problems
            .iter()
            .map(|p| format!("{p} [{}]", p.rule()))
            .collect(),
    }
}

/// Read an uploaded character sheet (`add FILE.toml`, issue 27, item 6) with
/// the book's validating reader ([`Character::from_toml`]).
///
/// "Character Creation", "Starting Stats", "Leveling Up", "Stats and Tiers",
/// "Health" (002_631931fd73349179.txt); R-TI-2, R-TI-3.
///
/// # Errors
/// Every broken rule ([`sheet_problems`]), at least one.
pub fn read_sheet(text: &str) -> Result<Character, Vec<String>> {
    Character::from_toml(text).map_err(|e| sheet_problems(&e))
}

/// The refusal of `add FILE.toml` whose sheet text breaks the rules (a
/// command sent as JSON is checked again in `decide`): every problem, under
/// the first broken rule's citation (the GM-tools rule for text that is no
/// character file).
fn sheet_refusal(file: &str, e: &CharacterFileError) -> RuleError {
    let rule = match e {
        CharacterFileError::Rules(d) => d.problems.first().map_or(rules::GM_TOOLS, |p| p.rule()),
        CharacterFileError::Toml(_) => rules::GM_TOOLS,
    };
    RuleError::forbidden(
        rule,
        format!(
            "the sheet {file:?} is not a legal character: {}",
            sheet_problems(e).join("; ")
        ),
    )
}

/// The character `kind` names among [`addable`], or the refusal listing them.
/// A `kind` naming a sheet file (`mira.toml`) whose text did not come with
/// the command is refused as such.
fn known_kind(s: &State, kind: &str) -> Result<Character, RuleError> {
    let choices = addable(s);
    if let Some(c) = choices
        .iter()
        .find(|c| tabula_core::names::same_name(c.name(), kind))
    {
        return Ok(c.clone());
    }
    if tabula_core::files::names_sheet_file(kind) {
        return Err(RuleError::new(
            rules::GM_TOOLS,
            Refusal::Unknown {
                field: "sheet".into(),
                name: kind.to_string(),
            },
            format!("{kind:?} names a sheet file, and its text did not come with the command"),
        ));
    }
    Err(crate::decide::unknown_among(
        rules::GM_TOOLS,
        "character",
        kind,
        choices
            .iter()
            .map(|c| tabula_core::grammar::quote(c.name())),
    ))
}

/// The first of `name`, `name 2`, `name 3`... that no character or enemy at
/// the table has (one who left included).
pub(crate) fn free_name(s: &State, name: &str) -> String {
    if !s.name_taken(name) {
        return name.to_string();
    }
    (2u32..)
        .map(|n| format!("{name} {n}"))
        .find(|n| !s.name_taken(n))
        .unwrap_or_else(|| name.to_string())
}

/// The GM's `add KIND [as NAME] [at ZONE]`: a character joins the encounter
/// as an NPC ally the GM plays. KIND is one of the table's characters or a
/// bundled sheet ([`addable`]); the newcomer is a fresh copy of that sheet
/// (its Health as the sheet gives it, with the table's Stat perks, R-TI-2),
/// named NAME (default: the sheet's name), and a name already at the table
/// becomes "NAME 2" (then 3...). It stands in ZONE (default: the first
/// player character's Zone) with full AP (6): the book gives every character
/// 6 AP when combat begins and says only that joining NPCs "act during the
/// Player Phase", so one joining in the Player Phase acts at once. It is no
/// part of the PSP (an NPC), so the enemies' pool and Rolls stay as bought.
/// Enemies join by `spawn` (their Health from the pool's reserve).
///
/// With `sheet` (the text of an uploaded sheet, `add FILE.toml`; KIND is then
/// the file's name as typed) the newcomer is that sheet's character instead,
/// read and validated again here ([`read_sheet`]) so a command sent as JSON
/// cannot bypass the rules; it then joins exactly as a copy of a known kind
/// (issue 27, item 6: a participant "from an uploaded sheet").
///
/// Tiers, "Phases" ("If any non-player characters (NPCs) join combat, they act
/// during the Player Phase"), "Action Points (AP)", "Health" (002_631931fd73349179.txt);
/// R-TI-2; the crate's GM tools (issue 27, item 6).
///
/// # Errors
/// Not in combat ([`Refusal::WrongPhase`]); an unknown KIND or Zone
/// ([`Refusal::Unknown`], listing the choices); an uploaded sheet that breaks
/// the rules ([`Refusal::Forbidden`], naming every broken rule); a dead
/// sheet ([`Refusal::Condition`] "dead"); a name that is no seat name, is named like a command, or too long;
/// the table full ([`rules::CAPS`]). Nothing changes.
pub(crate) fn add(
    s: &State,
    kind: &str,
    sheet: Option<&str>,
    name: Option<&str>,
    zone: Option<&str>,
    out: &mut Vec<Event>,
) -> Result<(), RuleError> {
    crate::decide::in_combat(s)?;
    let c = match sheet {
        Some(text) => Character::from_toml(text).map_err(|e| sheet_refusal(kind, &e))?,
        None => known_kind(s, kind)?,
    };
    if c.dead() {
        return Err(RuleError::condition(
            rules::DEATH_ROLLS,
            "dead",
            format!("{} is dead and takes no further part", c.name()),
        ));
    }
    let zone = match zone {
        Some(z) => crate::decide::find_zone(s, z)?,
        None => s.heroes.iter().find(|h| !h.ally).map_or(0, |h| h.zone),
    };
    if s.heroes.len() >= crate::setup::MAX_SEATS * 2 {
        return Err(RuleError::forbidden(
            rules::CAPS,
            format!(
                "a table holds at most {} characters",
                crate::setup::MAX_SEATS * 2
            ),
        ));
    }
    let wanted = name.map_or(c.name(), str::trim);
    if let Err(e) = tabula_core::names::check_seat_name("name", wanted) {
        return Err(RuleError::forbidden(rules::SEATS, e.to_string()));
    }
    if wanted.is_empty() || wanted.contains(':') || Seat::parse(wanted).is_gm() {
        return Err(RuleError::forbidden(
            rules::SEATS,
            format!("{wanted:?} is no name for a character (not empty, no ':', not GM)"),
        ));
    }
    if crate::text::is_command(wanted) {
        return Err(RuleError::forbidden(
            rules::SEATS,
            format!("{wanted:?} is a command: an NPC ally may not be named like one"),
        ));
    }
    let given = free_name(s, wanted);
    let mut draft = c.to_draft();
    draft.name = given.clone();
    let character = Character::from_draft(draft)
        .map_err(|e| RuleError::forbidden(rules::SEATS, format!("{given:?} cannot join: {e}")))?;
    let mut hero = crate::setup::hero_from(character, true, zone, &s.catalog);
    hero.joined = true;
    out.push(Event::Joined {
        hero: Box::new(hero),
    });
    Ok(())
}

/// The GM's `remove CHARACTER`: an NPC ally or an enemy leaves the encounter.
/// It takes no further part: it cannot act or be targeted, an enemy no longer
/// stops movement and releases whom it grappled or ensnared, and a combat in
/// which no enemy is left standing ends, won (as when the last one falls,
/// "Combat"). An enemy's Health leaves with it (the GM may `adjust reserve`).
/// Its index stays taken, so every event in the log keeps naming the same
/// character. A player's character leaves only with its player.
///
/// Tiers, "Combat", "Enemy Health" (002_631931fd73349179.txt); the crate's GM
/// tools (issue 27, item 6).
///
/// # Errors
/// Not in combat ([`Refusal::WrongPhase`]); a player's character
/// ([`Refusal::NotPermitted`]); an unknown name or one already gone
/// ([`Refusal::Unknown`], listing who may be removed). Nothing changes.
pub(crate) fn remove(s: &State, character: &str, out: &mut Vec<Event>) -> Result<(), RuleError> {
    crate::decide::in_combat(s)?;
    let target = if let Some(i) = s.hero(character) {
        let h = crate::decide::hero(s, i)?;
        if !h.ally {
            return Err(RuleError::new(
                rules::GM_TOOLS,
                Refusal::NotPermitted,
                format!(
                    "{} is a player's character: it leaves the encounter only with its player",
                    h.name()
                ),
            ));
        }
        Target::Hero(i)
    } else if let Some(e) = s.enemy(character) {
        Target::Enemy(e)
    } else {
        return Err(crate::decide::unknown_among(
            rules::GM_TOOLS,
            "character",
            character,
            removable(s)
                .into_iter()
                .map(|n| tabula_core::grammar::quote(&n)),
        ));
    };
    out.push(Event::Left { target });
    crate::decide::settle(s, out);
    Ok(())
}

/// Who the GM may `remove`: the NPC allies and enemies still in the encounter.
pub(crate) fn removable(s: &State) -> Vec<String> {
    s.heroes
        .iter()
        .filter(|h| h.ally && !h.left)
        .map(|h| h.name().to_string())
        .chain(s.enemies.iter().filter(|e| !e.left).map(|e| e.name.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::character::{CharacterDraft, StatsDraft};

    fn level_one(name: &str) -> Character {
        Character::from_draft(CharacterDraft {
            name: name.into(),
            level: 1,
            stats: StatsDraft::from_totals(4, 4, 4, 4),
            ..CharacterDraft::default()
        })
        .unwrap()
    }

    /// "Enemy Health": four level-1 players in an Easy combat share 32 Health.
    #[test]
    fn four_level_one_players_easy_share_32() {
        let party: Vec<Character> = ["A", "B", "C", "D"].iter().map(|n| level_one(n)).collect();
        let psp = party_stat_points(&party);
        assert_eq!(psp, 64);
        assert_eq!(enemy_health_pool(psp, CombatDifficulty::Easy), 32);
        assert_eq!(enemy_health_pool(psp, CombatDifficulty::Normal), 64);
        assert_eq!(enemy_health_pool(psp, CombatDifficulty::Hard), 128);
        assert_eq!(enemy_health_pool(33, CombatDifficulty::Easy), 17);
    }

    /// "Creating Combat": 2d6 + 3d3 costs 36 SP and is allowed; 2d6 + 4d3 is not.
    #[test]
    fn buying_two_d6_and_three_d3() {
        let ok = Purchase {
            d6: 2,
            d3: 3,
            combat_points: 0,
        };
        assert_eq!(ok.cost(), 36);
        assert_eq!(ok.validate(64), Ok(()));
        let refused = Purchase {
            d6: 2,
            d3: 4,
            combat_points: 0,
        };
        assert_eq!(
            refused.validate(64),
            Err(vec![PurchaseError::Alternation { d6: 2, d3: 4 }])
        );
        let err = refused.check(64).unwrap_err();
        assert_eq!(err.rule.ruling, Some("R-TI-5"));
        assert_eq!(err.kind, Refusal::Forbidden);
        let broke = Purchase {
            d6: 3,
            d3: 3,
            combat_points: 0,
        };
        assert!(matches!(
            broke.validate(36).unwrap_err().as_slice(),
            [PurchaseError::OverBudget { cost: 48, psp: 36 }]
        ));
        let err = broke.check(36).unwrap_err();
        assert!(
            matches!(&err.kind, Refusal::Spent { resource } if resource == "PSP"),
            "{err:?}"
        );
    }

    #[test]
    fn quick_buy_follows_psp_over_16() {
        assert_eq!(
            Purchase::quick(64),
            Purchase {
                d6: 4,
                d3: 4,
                combat_points: 0
            }
        );
        assert_eq!(
            Purchase::quick(36),
            Purchase {
                d6: 2,
                d3: 2,
                combat_points: 4
            }
        );
        assert_eq!(
            Purchase::quick(20),
            Purchase {
                d6: 1,
                d3: 1,
                combat_points: 4
            }
        );
        for psp in 0..200 {
            assert_eq!(Purchase::quick(psp).validate(psp), Ok(()));
            assert_eq!(Purchase::quick(psp).cost(), u64::from(psp));
        }
    }
}
