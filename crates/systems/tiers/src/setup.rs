//! The table file (TOML): who plays, where, against what, with which options and
//! table data. [`setup`] checks every part and builds the initial [`State`].
//!
//! ```toml
//! title = "Goblins behind the ice cream shop"
//! d3 = "halved-d6"          # or "true" (default)
//! tie = "nothing-happens"   # or "roll-again"
//! difficulty = "easy"       # the enemy Health pool: easy, normal, hard
//! start = "combat"          # or "roleplay" (default)
//! first_phase = "enemy"     # (default) or "player"
//! dungeon = false           # true: no full heal after combat
//!
//! [custom_rules]            # "Custom Rules", all off by default
//! cover = true
//!
//! [rolls]                   # bought with PSP (default: PSP / 16, the quick buy)
//! d6 = 2
//! d3 = 2
//! combat_points = 4
//!
//! [[players]]
//! file = "john.toml"        # a character file, relative to this file
//! zone = "Shop"
//!
//! [[allies]]                # NPC allies: act in the Player Phase, not in the PSP
//! file = "steve.toml"
//! zone = "Street"
//!
//! [[zones]]
//! name = "Shop"
//! touches = ["Street"]
//!
//! [[enemies]]
//! name = "Gob1"
//! kind = "Goblin"
//! health = 8
//! zone = "Street"
//!
//! [[actions]]               # house content (R-TI-4), see content::ActionDef
//! ```

use serde::{Deserialize, Serialize};

use crate::character::{Character, CharacterDraft, CharacterFileError, MAX_NAME, Stat};
use crate::content::{ActionDef, Catalog, ContentError, EnemyKind, ItemDef, Npc, PerkDef, RollUse};
use crate::gm::{self, CombatDifficulty, Purchase, PurchaseError};
use crate::roleplay::TieRule;
use crate::state::{CustomRules, Enemy, Hero, Mode, Phase, State, TableOptions};
use crate::zones::{ZoneDef, ZoneError, Zones};
use tabula_core::{D3Mode, Seat};

/// The most players plus allies, and the most enemies, at one table (Tabula's cap).
pub const MAX_SEATS: usize = 32;

/// Where a game starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Start {
    /// Out of combat.
    #[default]
    Roleplay,
    /// In combat, at its first phase.
    Combat,
}

/// A player or ally in a table file: a character file or an inline character.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatFile {
    /// A character file, relative to the table file.
    #[serde(default)]
    pub file: Option<String>,
    /// An inline character, instead of a file.
    #[serde(default)]
    pub character: Option<CharacterDraft>,
    /// The Zone the character starts in.
    pub zone: String,
}

/// An enemy in a table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyFile {
    /// Its name at this table (commands name it in double quotes when it has
    /// spaces: `"Goblin Chief"`).
    pub name: String,
    /// Its kind, from the catalog.
    pub kind: String,
    /// Its Health, from the shared pool.
    pub health: u32,
    /// Its Zone.
    pub zone: String,
}

/// A table file as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableFile {
    /// The title.
    #[serde(default)]
    pub title: String,
    /// How d3s are rolled.
    #[serde(default)]
    pub d3: D3Mode,
    /// What a tied Competing Roll does.
    #[serde(default)]
    pub tie: TieRule,
    /// The enemy Health pool's difficulty.
    #[serde(default)]
    pub difficulty: CombatDifficulty,
    /// Where the game starts.
    #[serde(default)]
    pub start: Start,
    /// Which phase combat starts with.
    #[serde(default)]
    pub first_phase: Phase,
    /// A dungeon: no full heal after combat.
    #[serde(default)]
    pub dungeon: bool,
    /// Custom rules.
    #[serde(default)]
    pub custom_rules: CustomRules,
    /// The enemies' Rolls (default: the quick buy).
    #[serde(default)]
    pub rolls: Option<Purchase>,
    /// Players.
    #[serde(default)]
    pub players: Vec<SeatFile>,
    /// NPC allies.
    #[serde(default)]
    pub allies: Vec<SeatFile>,
    /// Zones.
    #[serde(default)]
    pub zones: Vec<ZoneDef>,
    /// Enemies.
    #[serde(default)]
    pub enemies: Vec<EnemyFile>,
    /// House Actions (R-TI-4).
    #[serde(default)]
    pub actions: Vec<ActionDef>,
    /// House perks (R-TI-4).
    #[serde(default)]
    pub perks: Vec<PerkDef>,
    /// House Items.
    #[serde(default)]
    pub items: Vec<ItemDef>,
    /// House roll uses.
    #[serde(default)]
    pub uses: Vec<RollUse>,
    /// House enemy kinds.
    #[serde(default)]
    pub enemy_kinds: Vec<EnemyKind>,
    /// House NPCs.
    #[serde(default)]
    pub npcs: Vec<Npc>,
}

/// A table file could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// Not TOML or a field of the wrong type.
    #[error("not a Tiers table file: {0}")]
    Toml(String),
    /// A character file could not be read.
    #[error("{path}: {message}")]
    File {
        /// The path.
        path: String,
        /// The error.
        message: String,
    },
    /// A character breaks the rules.
    #[error("character {who}: {error}")]
    Character {
        /// Which seat.
        who: String,
        /// The problems.
        error: CharacterFileError,
    },
    /// A seat has neither or both of `file` and `character`.
    #[error("{0}: give either file or character")]
    Seat(String),
    /// No players, or too many seats.
    #[error(
        "players: a table has 1 to {MAX_SEATS} players and allies and at most {MAX_SEATS} enemies"
    )]
    Seats,
    /// Two heroes or enemies share a name, or a name is unusable.
    #[error("two seats or enemies are called {0:?} (names must be unique and free of ':')")]
    Name(String),
    /// A name holds control characters, a ':' (seats) or is empty or too long.
    #[error(transparent)]
    BadName(#[from] tabula_core::names::NameError),
    /// An NPC ally is called like a command, so `GM: NAME ...` would be ambiguous.
    #[error("allies: an NPC ally may not be called {0:?}, a command's name")]
    AllyNamedLikeACommand(String),
    /// An enemy is given no Health.
    #[error("enemies: {who}: health must be at least 1 (a defeated enemy is not placed)")]
    NoHealth {
        /// The enemy.
        who: String,
    },
    /// The Zones are broken.
    #[error(transparent)]
    Zones(#[from] ZoneError),
    /// A Zone name is unknown.
    #[error("{who}: there is no Zone {zone:?}")]
    UnknownZone {
        /// Who names it.
        who: String,
        /// The name.
        zone: String,
    },
    /// An enemy kind is unknown.
    #[error("enemy {who}: there is no enemy kind {kind:?}")]
    UnknownKind {
        /// The enemy.
        who: String,
        /// The kind.
        kind: String,
    },
    /// Table data is out of range.
    #[error(transparent)]
    Content(#[from] ContentError),
    /// The enemies' Health is more than the pool.
    #[error(
        "enemies: their Health adds up to {total}, more than the {difficulty} pool of {pool} (\"Enemy Health\")"
    )]
    HealthPool {
        /// The sum.
        total: u64,
        /// The pool.
        pool: u32,
        /// The difficulty.
        difficulty: CombatDifficulty,
    },
    /// The Rolls bought break "Buying Rolls".
    #[error("rolls: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Rolls(Vec<PurchaseError>),
    /// Weighted Inventory: more Items than SP in Strength.
    #[error("{who}: carries {items} Items but has {strength} SP in Strength (Weighted Inventory)")]
    Weighted {
        /// The hero.
        who: String,
        /// Items carried.
        items: usize,
        /// SP in Strength.
        strength: u32,
    },
    /// Combat is asked to start with no enemy and no Health in reserve.
    #[error("start = \"combat\" needs at least one enemy")]
    NoEnemies,
}

fn load_seat<F: tabula_core::files::SheetFiles + ?Sized>(
    seat: &SeatFile,
    files: &F,
    label: &str,
) -> Result<Character, SetupError> {
    match (&seat.file, &seat.character) {
        (Some(f), None) => {
            let text = files.read(f).map_err(|e| SetupError::File {
                path: f.clone(),
                message: e.to_string(),
            })?;
            Character::from_toml(&text).map_err(|error| SetupError::Character {
                who: f.clone(),
                error,
            })
        }
        (None, Some(d)) => Character::from_draft(d.clone()).map_err(|e| SetupError::Character {
            who: d.name.clone(),
            error: CharacterFileError::Rules(e),
        }),
        _ => Err(SetupError::Seat(label.to_string())),
    }
}

/// Build the initial state from a table file.
///
/// "Player Stat Points as Currency", "Enemy Health", "Creating Combat",
/// Tiers, "Zones" (002_631931fd73349179.txt); R-TI-2, R-TI-4, R-TI-5.
///
/// # Errors
/// A [`SetupError`] naming the field or rule that is broken.
pub fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
    text: &str,
    files: &F,
) -> Result<State, SetupError> {
    let file: TableFile = toml::from_str(text).map_err(|e| SetupError::Toml(e.to_string()))?;
    from_file(file, files)
}

/// As [`setup`], from a parsed [`TableFile`].
///
/// # Errors
/// As [`setup`].
pub fn from_file<F: tabula_core::files::SheetFiles + ?Sized>(
    file: TableFile,
    files: &F,
) -> Result<State, SetupError> {
    let seats = file.players.len() + file.allies.len();
    if file.players.is_empty() || seats > MAX_SEATS || file.enemies.len() > MAX_SEATS {
        return Err(SetupError::Seats);
    }
    let zones = Zones::new(&file.zones)?;
    for z in zones.names() {
        tabula_core::names::check_seat_name("zones: name", z)?;
    }
    if let Some(c) = file.title.chars().find(|c| c.is_control()) {
        return Err(SetupError::BadName(
            tabula_core::names::NameError::ControlCharacter {
                field: "title".into(),
                code: c as u32,
            },
        ));
    }
    let mut catalog = Catalog::sample()?;
    catalog.extend(Catalog {
        actions: file.actions,
        perks: file.perks,
        items: file.items,
        uses: file.uses,
        enemies: file.enemy_kinds,
        npcs: file.npcs,
    })?;
    let mut heroes: Vec<Hero> = Vec::new();
    let all = file
        .players
        .iter()
        .map(|s| (s, false))
        .chain(file.allies.iter().map(|s| (s, true)));
    for (i, (seat, ally)) in all.enumerate() {
        let label = format!("{}[{i}]", if ally { "allies" } else { "players" });
        let c = load_seat(seat, files, &label)?;
        let zone =
            zones
                .index(&seat.zone.replace('_', " "))
                .ok_or_else(|| SetupError::UnknownZone {
                    who: c.name().to_string(),
                    zone: seat.zone.clone(),
                })?;
        tabula_core::names::check_seat_name(
            if ally {
                "allies: character name"
            } else {
                "players: character name"
            },
            c.name(),
        )?;
        if heroes
            .iter()
            .any(|h| tabula_core::names::same_name(h.name(), c.name()))
            || Seat::parse(c.name()).is_gm()
        {
            return Err(SetupError::Name(c.name().to_string()));
        }
        if ally && crate::text::is_command(c.name()) {
            return Err(SetupError::AllyNamedLikeACommand(c.name().to_string()));
        }
        let strength = c.stat(Stat::Strength).total();
        if file.custom_rules.weighted_inventory && c.items().len() > strength as usize {
            return Err(SetupError::Weighted {
                who: c.name().to_string(),
                items: c.items().len(),
                strength,
            });
        }
        heroes.push(hero_from(c, ally, zone, &catalog));
    }
    // The dead take no further part, so their SP buy nothing for the enemies.
    let psp = gm::party_stat_points(heroes.iter().filter(|h| h.plays()).map(|h| &h.character));
    let pool = gm::enemy_health_pool(psp, file.difficulty);
    let mut enemies: Vec<Enemy> = Vec::new();
    let mut total: u64 = 0;
    for e in &file.enemies {
        let name = e.name.trim().to_string();
        tabula_core::names::check_seat_name("enemies: name", &name)?;
        if e.health == 0 {
            return Err(SetupError::NoHealth { who: name });
        }
        if name.is_empty()
            || name.len() > MAX_NAME
            || enemies
                .iter()
                .any(|x| tabula_core::names::same_name(&x.name, &name))
            || heroes
                .iter()
                .any(|h| tabula_core::names::same_name(h.name(), &name))
        {
            return Err(SetupError::Name(name));
        }
        let kind = catalog
            .enemy(&e.kind)
            .ok_or_else(|| SetupError::UnknownKind {
                who: name.clone(),
                kind: e.kind.clone(),
            })?
            .name
            .clone();
        let zone =
            zones
                .index(&e.zone.replace('_', " "))
                .ok_or_else(|| SetupError::UnknownZone {
                    who: name.clone(),
                    zone: e.zone.clone(),
                })?;
        total = total.saturating_add(u64::from(e.health));
        enemies.push(Enemy::new(name, kind, e.health, zone));
    }
    if total > u64::from(pool) {
        return Err(SetupError::HealthPool {
            total,
            pool,
            difficulty: file.difficulty,
        });
    }
    let rolls = file.rolls.unwrap_or_else(|| Purchase::quick(psp));
    rolls.validate(psp).map_err(SetupError::Rolls)?;
    let mut state = State {
        title: file.title,
        options: TableOptions {
            d3: file.d3,
            tie: file.tie,
            dungeon: file.dungeon,
            custom: file.custom_rules,
        },
        zones,
        catalog,
        mode: Mode::Roleplay,
        first_phase: file.first_phase,
        heroes,
        enemies,
        difficulty: file.difficulty,
        psp,
        health_pool: pool,
        reserve: pool.saturating_sub(u32::try_from(total).unwrap_or(u32::MAX)),
        rolls,
        spent: Purchase::default(),
        pending: None,
        consents: Vec::new(),
        turrets: Vec::new(),
        outcome: None,
        closed: false,
        last_combat: None,
    };
    if file.start == Start::Combat {
        if state.enemies.is_empty() {
            return Err(SetupError::NoEnemies);
        }
        state.mode = Mode::Combat {
            phase: state.first_phase,
            round: 1,
        };
    }
    Ok(state)
}

/// A character seated at a table: max Health with the table's Stat perks
/// (R-TI-2), 6 AP, in `zone`, and what play left on the sheet: Health (or
/// damage), death, Permanent Wounds ("Health", "Death Rolls", "Permanent
/// Wounds"). The table file's characters and those the GM `add`s mid-encounter
/// sit the same way.
pub(crate) fn hero_from(c: Character, ally: bool, zone: usize, catalog: &Catalog) -> Hero {
    let max_health = c
        .base_max_health()
        .saturating_add(catalog.perk_health(|s, t| c.stat(s).has_tier(t)));
    Hero {
        health: c.health_at(max_health),
        max_health,
        ally,
        ap: crate::character::MAX_AP,
        zone,
        came_from: None,
        items: c.items().to_vec(),
        reduction: 0,
        grappled_by: None,
        ensnared_by: None,
        dead: c.dead(),
        wounds: c.wounds(),
        character: c,
        left: false,
        joined: false,
    }
}
