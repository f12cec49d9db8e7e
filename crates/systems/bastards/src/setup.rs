//! Making a table: the table file read into a [`State`], and the seat a line
//! without `seat:` is given by.
//!
//! A table file (TOML):
//!
//! ```toml
//! title = "The investor's office"
//! indirect = false            # true: no Dealer; `gm` runs the Indirect Opposition
//! [[fated]]
//! file = "cynthia.toml"       # a character sheet beside the table file
//! controller = "Stella"       # optional: default the sheet's player, else gm
//! present = true              # optional: false waits for `appear`
//! [[followers]]
//! name = "Bodyguard"
//! power = 3                   # 1..=5
//! weapon = { name = "Club", damage = 1, skill = "Club Combat" }
//! [[extras]]
//! name = "Thugs"
//! power = 2                   # 1..=5
//! members = 5                 # 1..=5
//! ```

use serde::Deserialize;
use tabula_core::cards::Shoe;
use tabula_core::names::{NameError, check_name, check_seat_name, same_name};
use tabula_core::system::Seat;

use crate::character::{Character, SheetError, Trait, Weapon};
use crate::rules;
use crate::state::{Body, Combatant, Phase, Side, State, Status};
use crate::values;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    #[serde(default)]
    title: String,
    #[serde(default)]
    indirect: bool,
    #[serde(default)]
    fated: Vec<FatedEntry>,
    #[serde(default)]
    followers: Vec<FollowerEntry>,
    #[serde(default)]
    extras: Vec<ExtrasEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FatedEntry {
    file: String,
    controller: Option<String>,
    #[serde(default = "yes")]
    present: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FollowerEntry {
    name: String,
    power: i64,
    controller: Option<String>,
    weapon: Option<Weapon>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtrasEntry {
    name: String,
    power: i64,
    members: i64,
    controller: Option<String>,
    weapon: Option<Weapon>,
}

/// A table file that could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// Unreadable TOML or an unknown field (named).
    #[error("{0}")]
    Toml(String),
    /// A character file could not be read.
    #[error("{file}: {message}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        message: String,
    },
    /// A character sheet is broken.
    #[error("{file}: {error}")]
    Sheet {
        /// The file.
        file: String,
        /// Every broken rule.
        error: SheetError,
    },
    /// A Power Rating or member count out of range.
    #[error("{name}: {field} must be 1 to 5, not {got} [\"Optional Rules\"]")]
    OutOfRange {
        /// Who.
        name: String,
        /// power or members.
        field: &'static str,
        /// The value.
        got: i64,
    },
    /// Two combatants share a name (without regard to case).
    #[error("two combatants are called {0}")]
    Duplicate(String),
    /// A table with nobody in it.
    #[error(
        "the table has no characters: list at least one [[fated]], [[followers]] or [[extras]]"
    )]
    NoCombatants,
    /// A name or seat name that cannot be used (control characters, empty, too
    /// long, a `:` in a seat name); the field is named.
    #[error("{0}")]
    Name(#[from] NameError),
    /// A weapon's damage bonus out of range (R-GB-10).
    #[error("{field}: the damage bonus must be 0 to 20, not {got} [R-GB-10]")]
    WeaponDamage {
        /// Where the weapon is, e.g. `extras.Thugs.weapon.damage`.
        field: String,
        /// The value.
        got: i64,
    },
    /// Too many combatants.
    #[error("a table holds at most {0} combatants")]
    TooMany(usize),
    /// No shoe.
    #[error("the shoe could not be built")]
    Shoe,
}

/// The seat a table entry names: its `controller`, else `default` (the sheet's
/// player), else the Dealer. The name is checked (`field` names it).
fn seat_of(field: &str, text: Option<&str>, default: &str) -> Result<Seat, NameError> {
    let name = match text.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => t,
        None if default.trim().is_empty() => return Ok(Seat::Gm),
        None => default.trim(),
    };
    check_seat_name(field, name)?;
    Ok(Seat::parse(name))
}

/// A weapon given in the table file: a usable name and a damage bonus 0..=20
/// (R-GB-10).
fn check_weapon(field: &str, w: Option<&Weapon>) -> Result<(), TableError> {
    if let Some(w) = w {
        check_name(&format!("{field}.weapon.name"), &w.name)?;
        check_name(&format!("{field}.weapon.skill"), &w.skill)?;
        if !(0..=20).contains(&w.damage) {
            return Err(TableError::WeaponDamage {
                field: format!("{field}.weapon.damage"),
                got: w.damage,
            });
        }
    }
    Ok(())
}

fn blank(name: String, controller: Seat, body: Body) -> Combatant {
    Combatant {
        name,
        controller,
        body,
        hand: Vec::new(),
        initiative: None,
        wildcards: 0,
        knocked_out: false,
        present: true,
        wielding: Vec::new(),
        carried: Vec::new(),
        status: Status::default(),
        removed: false,
        added: false,
    }
}

/// A Fated as a table sets it up from its sheet, controlled by `controller`:
/// the pools as the sheet carries them (full unless an earlier encounter left
/// them lower; R-GB-5 and "Decisions" in docs/systems/bastards.md): one empty
/// pool is Desperation, two knock the character out. The Desperation draw
/// ("immediately draws") was made when the pool emptied and is not repeated.
/// It holds its first weapon and carries the rest. The GM's `add` sets up a
/// bundled sheet the same way (issue 27, item 6).
pub(crate) fn fated_from_sheet(ch: &Character, controller: Seat) -> Combatant {
    let pools = Trait::ALL.map(|t| ch.pool_now(t));
    let empty = pools.iter().filter(|p| **p <= 0).count();
    let mut c = blank(
        ch.name().to_string(),
        controller,
        Body::Fated {
            character: Box::new(ch.clone()),
            pools,
            desperate: empty >= 1,
        },
    );
    c.knocked_out = empty >= 2;
    c.wildcards = ch.wildcards();
    // Each Fated starts holding its first weapon; the rest are carried.
    let mut weapons = ch.weapons().to_vec();
    if !weapons.is_empty() {
        c.wielding.push(weapons.remove(0));
    }
    c.carried = weapons;
    c
}

/// Build the initial state from a table file.
///
/// # Errors
/// [`TableError`] naming the field, file or rule.
pub fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
    text: &str,
    files: &F,
) -> Result<State, TableError> {
    let t: TableFile = toml::from_str(text).map_err(|e| TableError::Toml(e.to_string()))?;
    let total = t.fated.len() + t.followers.len() + t.extras.len();
    if total > rules::MAX_COMBATANTS {
        return Err(TableError::TooMany(rules::MAX_COMBATANTS));
    }
    if total == 0 {
        return Err(TableError::NoCombatants);
    }
    if !t.title.is_empty() {
        check_name("title", &t.title)?;
    }
    let mut combatants: Vec<Combatant> = Vec::new();
    for f in &t.fated {
        let sheet = files.read(&f.file).map_err(|e| TableError::Read {
            file: f.file.clone(),
            message: e.to_string(),
        })?;
        let ch = Character::from_toml(&sheet).map_err(|error| TableError::Sheet {
            file: f.file.clone(),
            error,
        })?;
        let mut c = fated_from_sheet(
            &ch,
            seat_of("fated.controller", f.controller.as_deref(), ch.player())?,
        );
        c.present = f.present;
        combatants.push(c);
    }
    for f in &t.followers {
        if !(1..=5).contains(&f.power) {
            return Err(TableError::OutOfRange {
                name: f.name.clone(),
                field: "power",
                got: f.power,
            });
        }
        check_name("followers.name", &f.name)?;
        check_weapon(&format!("followers.{}", f.name), f.weapon.as_ref())?;
        let mut c = blank(
            f.name.trim().to_string(),
            seat_of("followers.controller", f.controller.as_deref(), "")?,
            Body::Follower {
                power: f.power,
                pool: f.power * 5,
            },
        );
        c.wielding.extend(f.weapon.clone());
        combatants.push(c);
    }
    for f in &t.extras {
        for (field, got) in [("power", f.power), ("members", f.members)] {
            if !(1..=5).contains(&got) {
                return Err(TableError::OutOfRange {
                    name: f.name.clone(),
                    field,
                    got,
                });
            }
        }
        check_name("extras.name", &f.name)?;
        check_weapon(&format!("extras.{}", f.name), f.weapon.as_ref())?;
        let mut c = blank(
            f.name.trim().to_string(),
            seat_of("extras.controller", f.controller.as_deref(), "")?,
            Body::Extras {
                power: f.power,
                members: f.members,
            },
        );
        c.wielding.extend(f.weapon.clone());
        combatants.push(c);
    }
    for (i, c) in combatants.iter().enumerate() {
        if combatants
            .iter()
            .skip(i + 1)
            .any(|d| same_name(&d.name, &c.name))
        {
            return Err(TableError::Duplicate(c.name.clone()));
        }
    }
    // One seat, one spelling: `stella` on one entry and `Stella` on another are
    // the same seat, written as it is first given.
    let mut spellings: Vec<Seat> = Vec::new();
    for c in &mut combatants {
        match spellings.iter().find(|s| s.same_seat(&c.controller)) {
            Some(first) => c.controller = first.clone(),
            None => spellings.push(c.controller.clone()),
        }
    }
    Ok(State {
        title: t.title,
        shoe: Shoe::new(values::DECKS, true).map_err(|_| TableError::Shoe)?,
        loaded: combatants.clone(),
        combatants,
        phase: Phase::Scene,
        round: 0,
        order: Vec::new(),
        turn: 0,
        dealer_wildcards: 0,
        distance: None,
        karmic_shuffle: false,
        indirect: t.indirect,
        finished: false,
        ground: Vec::new(),
    })
}

/// The seat a line without `seat:` is given by: whoever must act now.
pub fn default_seat(s: &State) -> Seat {
    let ctl = |i: usize| {
        s.combatants
            .get(i)
            .map_or(Seat::Gm, |c| c.controller.clone())
    };
    match &s.phase {
        Phase::Scene => Seat::Gm,
        Phase::Initiative => s
            .combatants
            .iter()
            .find(|c| c.active() && c.initiative.is_none())
            .map_or(Seat::Gm, |c| c.controller.clone()),
        Phase::Turn { actor, .. } => ctl(*actor),
        Phase::Exchange(x) => {
            if x.attacker_down.is_none()
                || (x.defender_down.is_some() && x.to_act == Side::Attacker)
            {
                ctl(x.attacker)
            } else {
                ctl(x.defender)
            }
        }
    }
}
