//! The sheets as one description ([`tabula_core::sheet::SheetDoc`]): what
//! `sheet` prints ([`sheet`], the character sheet in plain text) and what
//! `view` shows ([`crate::legal::view`]), with live values at the table.
//!
//! A hero's sheet is the book's character sheet (Tiers, "Character
//! Creation", "Starting Stats", "Leveling Up", "Health", "Stats and Tiers",
//! "Roleplay Bonus", "Starting Items"; 002_631931fd73349179.txt; R-TI-1,
//! R-TI-2): level, total SP, the four Stats with six tiers each and their
//! Roleplay Bonus, Health, Items; with what combat adds: Action Points
//! ("Action Points (AP)"), the Actions open to it with their AP cost
//! ("Actions"; R-TI-4), its Zone and its conditions. An enemy's entry is its
//! kind, Zone and state ("Enemies").
//!
//! Hidden as `view` and `sheet` hide it: heroes are open to every seat; an
//! enemy's Health, the shared enemy Health pool and its reserve, the
//! combat's difficulty (which gives the pool's size) and the GM's Rolls left
//! are the GM's ("Enemy Health", "Buying Rolls"; R-TI-5), an
//! [`Item::Hidden`] to a player.

use tabula_core::names::{NameLookupError, resolve};
use tabula_core::sheet::{CharacterSheet, Item, Row, Section, SheetDoc};
use tabula_core::{CommandParseError, Seat};

use crate::character::Stat;
use crate::rules;
use crate::state::{Enemy, Hero, Mode, Phase, State};

/// The sheets at the table as `seat` sees them: the table's facts, then every
/// hero (players and NPC allies, those the GM added included) and every
/// enemy, in the table's order; one the GM removed is left out.
pub fn sheet_doc(state: &State, seat: &Seat) -> SheetDoc {
    let gm = seat.is_gm();
    let mut characters: Vec<CharacterSheet> = state
        .heroes
        .iter()
        .filter(|h| !h.left)
        .map(|h| hero_doc(state, h, seat))
        .collect();
    characters.extend(
        state
            .enemies
            .iter()
            .filter(|e| !e.left)
            .map(|e| enemy_doc(state, e, seat, gm)),
    );
    SheetDoc {
        table: table_facts(state, gm),
        characters,
    }
}

/// Why a player may not read the GM's numbers.
fn gms(rule: tabula_core::Rule) -> String {
    format!("the GM's: {rule}")
}

/// The table's facts: out of combat or the round and phase ("Phases"), the
/// last combat's outcome, the Party Stat Points ("Player Stat Points as
/// Currency"), for the GM the enemy Health pool and the Rolls left, a
/// Competing Roll waiting for the GM, the Zones.
fn table_facts(state: &State, gm: bool) -> Vec<Item> {
    let mut out = Vec::new();
    if !state.title.is_empty() {
        out.push(Item::value("Table", &state.title));
    }
    match state.mode {
        Mode::Roleplay => out.push(Item::value("Mode", "out of combat (roleplay)")),
        Mode::Combat { phase, round } => {
            out.push(Item::value("Mode", "combat"));
            out.push(Item::value("Round", round));
            out.push(Item::value(
                "Phase",
                match phase {
                    Phase::Enemy => "Enemy Phase",
                    Phase::Player => "Player Phase",
                },
            ));
        }
    }
    if let Some(o) = state.outcome {
        let word = match o {
            crate::state::Outcome::Won => "won",
            crate::state::Outcome::Lost => "lost",
            crate::state::Outcome::Ended => "ended by the GM",
        };
        out.push(Item::value("Last combat", word));
    }
    out.push(Item::value("Party Stat Points (PSP)", state.psp));
    if gm {
        out.push(Item::value("Combat difficulty", state.difficulty));
        out.push(Item::value(
            "Enemy Health pool",
            format!("{} (reserve {})", state.health_pool, state.reserve),
        ));
        let left = state.rolls_left();
        out.push(Item::value(
            "Rolls left",
            format!(
                "{}d6, {}d3, {} Combat Points",
                left.d6, left.d3, left.combat_points
            ),
        ));
    } else {
        out.push(Item::hidden("Combat difficulty", gms(rules::ENEMY_HEALTH)));
        out.push(Item::hidden("Enemy Health pool", gms(rules::ENEMY_HEALTH)));
        out.push(Item::hidden("Rolls left", gms(rules::BUYING_ROLLS)));
    }
    if let Some(p) = &state.pending {
        let hero = state.heroes.get(p.hero).map_or("?", |h| h.name());
        let enemy = state.enemies.get(p.enemy).map_or("?", |e| e.name.as_str());
        out.push(Item::value(
            "Competing Roll",
            format!(
                "{hero} ({}, {}d3 + {}) against {enemy}, waiting for the GM",
                p.stat, p.d3, p.bonus
            ),
        ));
    }
    out.push(Item::tags("Zones", state.zones.names().iter().cloned()));
    out
}

/// The seat that plays `h`: the player of the same name, the GM for an NPC
/// ally (Tiers, "Phases": NPCs act in the Player Phase; the table's "Seats").
fn controller(h: &Hero) -> Seat {
    if h.ally {
        Seat::Gm
    } else {
        Seat::Player(h.name().to_string())
    }
}

/// A hero's sheet.
fn hero_doc(state: &State, h: &Hero, viewer: &Seat) -> CharacterSheet {
    let c = &h.character;
    let subtitle = if h.ally {
        format!("level {}, NPC ally", c.level())
    } else {
        format!("level {}", c.level())
    };
    let mut doc = CharacterSheet::new(c.name(), subtitle).played_by(&controller(h), viewer);
    // "Health" (R-TI-2): Health may pass its maximum by an overheal; at 0 the
    // hero cannot act or be healed. "Action Points (AP)": 6 for every player.
    let health_note = if h.dead {
        "dead".to_string()
    } else if h.health == 0 {
        "at 0 Health: cannot act or be healed".to_string()
    } else {
        String::new()
    };
    doc.push(
        Section::new("Health and AP")
            .with(Item::Track {
                label: "Health".into(),
                current: i64::from(h.health),
                max: i64::from(h.max_health),
                note: health_note,
            })
            .with(Item::track(
                "Action Points (AP)",
                i64::from(h.ap),
                i64::from(c.max_ap()),
            ))
            .with(Item::value("Zone", state.zones.name(h.zone))),
    );
    // "Stats and Tiers" (R-TI-3), "Roleplay Bonus" (R-TI-1), "Leveling Up".
    let mut stats = Section::new("Stats");
    stats.push(Item::value("Total SP", c.total_sp()));
    if c.unspent_sp() > 0 {
        stats.push(Item::value("SP to place", c.unspent_sp()));
    }
    let rows: Vec<Row> = Stat::ALL
        .iter()
        .map(|&st| {
            let p = c.stat(st);
            let tiers: Vec<String> = p.tiers().iter().map(u32::to_string).collect();
            Row::new(st.name(), format!("{} SP", p.total()))
                .detail(format!("tiers {}", tiers.join(" ")))
        })
        .collect();
    stats.push(Item::list("Stats (SP, tiers 1-6)", rows));
    stats.push(Item::list(
        "Roleplay Bonus",
        Stat::ALL
            .iter()
            .map(|&st| Row::new(st.name(), format!("+{}", c.roleplay_bonus(st))))
            .collect(),
    ));
    doc.push(stats);
    // "Actions" (R-TI-4): an Action is open with at least 1 SP in its tier;
    // its AP cost and dice.
    let actions: Vec<Row> = state
        .catalog
        .actions
        .iter()
        .filter(|a| c.stat(a.stat).has_tier(a.tier))
        .map(|a| {
            let mut dice = Vec::new();
            if a.d6 > 0 {
                dice.push(format!("{}d6", a.d6));
            }
            if a.d3 > 0 {
                dice.push(format!("{}d3", a.d3));
            }
            if a.flat > 0 {
                dice.push(a.flat.to_string());
            }
            let mut detail = format!("{} tier {}", a.stat, a.tier);
            if !dice.is_empty() {
                detail.push_str(&format!(", {}", dice.join(" + ")));
            }
            Row::new(a.name.clone(), format!("{} AP", a.ap)).detail(detail)
        })
        .collect();
    doc.push(Section::new("Actions").with(Item::list("Actions", actions)));
    // "Starting Items", "Items" (R-TI-7).
    doc.push(Section::new("Items").with(Item::tags("Items", h.items.iter().cloned())));
    let mut cond: Vec<String> = Vec::new();
    if let Some(e) = h.grappled_by.and_then(|e| state.enemies.get(e)) {
        cond.push(format!("grappled by {}", e.name));
    }
    if let Some(e) = h.ensnared_by.and_then(|e| state.enemies.get(e)) {
        cond.push(format!("ensnared by {}", e.name));
    }
    if h.reduction > 0 {
        cond.push(format!("the next damage is reduced by {}", h.reduction));
    }
    if h.wounds > 0 {
        // "Custom Rules": "Permanent Wounds".
        cond.push(format!("{} permanent wounds", h.wounds));
    }
    let mut more = Section::new("Conditions").with(Item::tags("Conditions", cond));
    for n in c.notes() {
        more.push(Item::note(n.clone()));
    }
    doc.push(more);
    doc
}

/// An enemy's entry ("Enemies"): kind, Zone, state and what its kind does;
/// its Health for the GM only ("Enemy Health": the pool is the GM's).
fn enemy_doc(state: &State, e: &Enemy, viewer: &Seat, gm: bool) -> CharacterSheet {
    let mut doc = CharacterSheet::new(e.name.clone(), format!("{}, enemy", e.kind))
        .played_by(&Seat::Gm, viewer);
    let mut now = Section::new("Enemy");
    if gm {
        now.push(Item::track(
            "Health",
            i64::from(e.health),
            i64::from(e.start_health),
        ));
    } else {
        now.push(Item::hidden("Health", gms(rules::ENEMY_HEALTH)));
    }
    let mut tags = vec![if e.health == 0 { "defeated" } else { "up" }.to_string()];
    if e.shadow {
        tags.push("in a shadow".into());
    }
    if gm && let Some(h) = e.ensnaring.and_then(|h| state.heroes.get(h)) {
        tags.push(format!("ensnaring {}", h.name()));
    }
    now.push(Item::tags("State", tags));
    now.push(Item::value("Zone", state.zones.name(e.zone)));
    doc.push(now);
    if let Some(k) = state.catalog.enemy(&e.kind) {
        let mut kind = Section::new(format!("{} (the kind)", k.name));
        if !k.description.is_empty() {
            kind.push(Item::note(k.description.clone()));
        }
        for (what, text) in [
            ("Movement", &k.movement),
            ("Actions", &k.actions),
            ("Responses", &k.responses),
        ] {
            if !text.is_empty() {
                kind.push(Item::value(what, text));
            }
        }
        doc.push(kind);
    }
    doc
}

fn bonus_line(h: &Hero, st: Stat) -> String {
    let p = h.character.stat(st);
    let tiers: Vec<String> = p.tiers().iter().map(u32::to_string).collect();
    format!(
        "  {:<10} {:>2} SP  tiers {}  Roleplay Bonus +{}",
        st.name(),
        p.total(),
        tiers.join(" "),
        h.character.roleplay_bonus(st)
    )
}

/// A hero's sheet, as the book's character sheet has it ("Character
/// Creation": level, Health, total SP, the four Stats with six tiers each and
/// their Roleplay Bonus, Items), with the values now: Health, AP, Zone, the
/// Actions open to it (a tier with at least 1 SP, R-TI-4) and its conditions.
fn hero_sheet(s: &State, h: &Hero) -> String {
    let c = &h.character;
    let mut out = format!(
        "{}{} (level {}, {} total SP{})\n",
        c.name(),
        if h.ally {
            ", NPC ally played by the GM"
        } else {
            ""
        },
        c.level(),
        c.total_sp(),
        if c.unspent_sp() > 0 {
            format!(", {} SP to place", c.unspent_sp())
        } else {
            String::new()
        }
    );
    out.push_str(&format!(
        "  Health {}/{}  AP {}/{}  Zone {}\n",
        h.health,
        h.max_health,
        h.ap,
        c.max_ap(),
        s.zones.name(h.zone)
    ));
    for st in Stat::ALL {
        out.push_str(&bonus_line(h, st));
        out.push('\n');
    }
    let open: Vec<&str> = s
        .catalog
        .actions
        .iter()
        .filter(|a| c.stat(a.stat).has_tier(a.tier))
        .map(|a| a.name.as_str())
        .collect();
    out.push_str(&format!(
        "  Actions: {}\n",
        if open.is_empty() {
            "none".to_string()
        } else {
            open.join(", ")
        }
    ));
    out.push_str(&format!(
        "  Items: {}\n",
        if h.items.is_empty() {
            "none".to_string()
        } else {
            h.items.join(", ")
        }
    ));
    let mut cond: Vec<String> = Vec::new();
    if h.dead {
        cond.push("dead".into());
    } else if h.health == 0 {
        cond.push("at 0 Health: cannot act or be healed".into());
    }
    if let Some(e) = h.grappled_by.and_then(|e| s.enemies.get(e)) {
        cond.push(format!("grappled by {}", e.name));
    }
    if let Some(e) = h.ensnared_by.and_then(|e| s.enemies.get(e)) {
        cond.push(format!("ensnared by {}", e.name));
    }
    if h.reduction > 0 {
        cond.push(format!("the next damage is reduced by {}", h.reduction));
    }
    if h.wounds > 0 {
        cond.push(format!("{} permanent wounds", h.wounds));
    }
    out.push_str(&format!(
        "  Conditions: {}\n",
        if cond.is_empty() {
            "none".to_string()
        } else {
            cond.join("; ")
        }
    ));
    for n in c.notes() {
        out.push_str(&format!("  Note: {n}\n"));
    }
    out
}

/// An enemy's entry ("Enemies"): its kind and what the kind does, its Zone and
/// state. Its Health only for the GM: players see whether it is up or
/// defeated, as in `status` and `view`.
fn enemy_sheet(s: &State, e: &Enemy, gm: bool) -> String {
    let health = if e.health == 0 {
        "defeated".to_string()
    } else if gm {
        format!("Health {}/{}", e.health, e.start_health)
    } else {
        "up".to_string()
    };
    let mut out = format!(
        "{} ({}), enemy\n  {health}  Zone {}{}\n",
        e.name,
        e.kind,
        s.zones.name(e.zone),
        if e.shadow { "  in a shadow" } else { "" }
    );
    if let Some(k) = s.catalog.enemy(&e.kind) {
        if !k.description.is_empty() {
            out.push_str(&format!("  {}\n", k.description));
        }
        for (what, text) in [
            ("Movement", &k.movement),
            ("Actions", &k.actions),
            ("Responses", &k.responses),
        ] {
            if !text.is_empty() {
                out.push_str(&format!("  {what}: {text}\n"));
            }
        }
    }
    if gm && let Some(h) = e.ensnaring.and_then(|h| s.heroes.get(h)) {
        out.push_str(&format!("  ensnaring {}\n", h.name()));
    }
    out
}

/// The sheet of `name` (a player character, an NPC ally or an enemy) or,
/// without a name, of the characters `seat` plays: a player its own
/// character; the GM every character and every enemy. Heroes are open to
/// every seat (as in `view`); an enemy's Health only to the GM.
///
/// # Errors
/// [`CommandParseError::Name`] when `name` is no character or enemy,
/// listing them.
pub fn sheet(s: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
    let gm = seat.is_gm();
    let mut parts: Vec<String> = Vec::new();
    match name {
        Some(n) => {
            let names: Vec<&str> = s
                .heroes
                .iter()
                .filter(|h| !h.left)
                .map(|h| h.name())
                .chain(
                    s.enemies
                        .iter()
                        .filter(|e| !e.left)
                        .map(|e| e.name.as_str()),
                )
                .collect();
            let found = resolve("character", n, names)?;
            if let Some(i) = s.hero(found) {
                parts.extend(s.heroes.get(i).map(|h| hero_sheet(s, h)));
            } else if let Some(i) = s.enemy(found) {
                parts.extend(s.enemies.get(i).map(|e| enemy_sheet(s, e, gm)));
            }
        }
        None if gm => {
            parts.extend(
                s.heroes
                    .iter()
                    .filter(|h| !h.left)
                    .map(|h| hero_sheet(s, h)),
            );
            parts.extend(
                s.enemies
                    .iter()
                    .filter(|e| !e.left)
                    .map(|e| enemy_sheet(s, e, true)),
            );
        }
        None => {
            let Seat::Player(p) = seat else {
                return Ok(String::new());
            };
            match s.hero(p).and_then(|i| s.heroes.get(i)) {
                Some(h) => parts.push(hero_sheet(s, h)),
                None => {
                    return Err(NameLookupError::Unknown {
                        field: "player".into(),
                        got: p.clone(),
                        candidates: s
                            .heroes
                            .iter()
                            .filter(|h| !h.ally)
                            .map(|h| h.name().to_string())
                            .collect(),
                    }
                    .into());
                }
            }
        }
    }
    Ok(parts.join("\n").trim_end().to_string())
}
