//! The command reference ([`COMMANDS`]): every command of the table once, with
//! its usage, a summary in the book's words, who gives it and the rule it
//! plays; and the character sheet in plain text ([`sheet`]).
//!
//! `help`, the parser's usage messages ([`crate::text::parse`]) and
//! `docs/COMMANDS.md` are all made from [`COMMANDS`].

use tabula_core::names::{NameLookupError, resolve};
use tabula_core::system::{CommandDoc, Giver};
use tabula_core::{CommandParseError, Seat};

use crate::character::Stat;
use crate::rules;
use crate::table::{Enemy, Hero, State};

/// Every command of Tiers (002_631931fd73349179.txt), once each. The GM gives
/// an NPC ally's `act`, `move`, `item`, `roleplay`, `roll` and `rest` by
/// putting the ally's name first (`GM: Steve move Yard`; "Phases").
pub const COMMANDS: &[CommandDoc] = &[
    CommandDoc::new(
        "roll",
        &[],
        "roll STAT GOAL",
        "out of combat: roll a d6 and add the Stat's Roleplay Bonus; meet the Goal (a number or a difficulty) to succeed",
        Giver::Player,
        rules::ASKING_FOR_ROLLS,
    ),
    CommandDoc::new(
        "compete",
        &[],
        "compete CHARACTER STAT CHARACTER STAT",
        "Competing Rolls: both roll with their Roleplay Bonus; the higher total wins",
        Giver::Gm,
        rules::COMPETING_ROLLS,
    ),
    CommandDoc::new(
        "consent",
        &[],
        "consent ACTOR",
        "agree to be the Defendant of a PvP Roll by ACTOR",
        Giver::Player,
        rules::PVP_ROLLS,
    ),
    CommandDoc::new(
        "pvp",
        &[],
        "pvp ACTOR STAT DEFENDANT STAT",
        "a PvP Roll against a consenting Defendant; the Defendant wins ties",
        Giver::Gm,
        rules::PVP_ROLLS,
    ),
    CommandDoc::new(
        "super6",
        &["super-6"],
        "super6",
        "custom rule: roll 2d6 for an incredibly unlikely but very cool thing; it happens if both dice are 6s",
        Giver::Player,
        rules::SUPER_6,
    ),
    CommandDoc::new(
        "rest",
        &[],
        "rest HOURS",
        "custom rule: resting restores Health over time",
        Giver::Player,
        rules::RESTING,
    ),
    CommandDoc::new(
        "fight",
        &[],
        "fight",
        "combat starts: all enemies act in the Enemy Phase, then all players in the Player Phase",
        Giver::Gm,
        rules::PHASES,
    ),
    CommandDoc::new(
        "end-phase",
        &["next"],
        "end-phase",
        "end the current phase: the Enemy Phase gives way to the Player Phase, and the other way round",
        Giver::Gm,
        rules::PHASES,
    ),
    CommandDoc::new(
        "end-combat",
        &[],
        "end-combat",
        "the GM ends the combat",
        Giver::Gm,
        rules::AFTER_COMBAT,
    ),
    CommandDoc::new(
        "close",
        &[],
        "close",
        "the GM closes the session",
        Giver::Gm,
        rules::AFTER_COMBAT,
    ),
    CommandDoc::new(
        "adjust",
        &[],
        "adjust CHARACTER VALUE AMOUNT | adjust ENEMY health AMOUNT | adjust reserve AMOUNT",
        "the GM sets (N) or changes (+N, -N) a character's Health (0 to max Health) or AP (0 to 6), an enemy's Health (to and from the pool's reserve) or the pool's reserve; 0 Health takes the character out, or defeats the enemy, as damage would",
        Giver::Gm,
        rules::GM_TOOLS,
    ),
    CommandDoc::new(
        "add",
        &[],
        "add CHARACTER|FILE.toml [as NAME] [at ZONE]",
        "in combat, the GM brings in one of the table's characters, a bundled sheet (John, Cristy, Steve, Prologue, Even Steven, Brawn) or an uploaded character sheet FILE.toml as an NPC ally with full AP; a name already taken becomes \"NAME 2\"; enemies join by `spawn`",
        Giver::Gm,
        rules::GM_TOOLS,
    ),
    CommandDoc::new(
        "remove",
        &[],
        "remove CHARACTER",
        "in combat, the GM takes an NPC ally or an enemy out of the encounter (not a player's character)",
        Giver::Gm,
        rules::GM_TOOLS,
    ),
    CommandDoc::new(
        "act",
        &[],
        "act ACTION [on TARGET] [cover]",
        "use an Action of a tier you have at least 1 SP in, paying its AP",
        Giver::Player,
        rules::ACTIONS,
    ),
    CommandDoc::new(
        "move",
        &[],
        "move ZONE [> ZONE ...]",
        "move to a touching, accessible Zone for 1 AP each",
        Giver::Player,
        rules::MOVEMENT,
    ),
    CommandDoc::new(
        "item",
        &["use"],
        "item ITEM [on PLAYER]",
        "use an Item you carry, paying its AP",
        Giver::Player,
        rules::ITEMS,
    ),
    CommandDoc::new(
        "roleplay",
        &[],
        "roleplay STAT D3 GOAL | roleplay STAT D3 vs ENEMY",
        "roleplaying in combat: 1 AP per d3, added to the Stat's Roleplay Bonus, against a Goal or an enemy's 1d3",
        Giver::Player,
        rules::ROLEPLAYING_IN_COMBAT,
    ),
    CommandDoc::new(
        "answer",
        &[],
        "answer [d6=N] [d3=N] [cp=N]",
        "settle a Competing Roll against an enemy: its free 1d3, raised by Rolls or Combat Points",
        Giver::Gm,
        rules::ROLEPLAY_AGAINST_ENEMIES,
    ),
    CommandDoc::new(
        "spend",
        &[],
        "spend ENEMY USE [d6=N] [d3=N] [cp=N] [heal=N] [to=ZONE] [on TARGET]",
        "an enemy uses bought Rolls: Bite, Block, Fireball and the other roll uses",
        Giver::Gm,
        rules::DESCRIBING_ROLLS,
    ),
    CommandDoc::new(
        "move-enemy",
        &[],
        "move-enemy ENEMY ZONE [pay=d3|cp]",
        "move an enemy to a touching, accessible Zone for a d3 or 1 Combat Point",
        Giver::Gm,
        rules::USING_ROLLS_MOVE,
    ),
    CommandDoc::new(
        "move-player",
        &[],
        "move-player PLAYER ZONE [pay=d3|cp]",
        "enemy movement: move a player a Zone for a d3 or 2 Combat Points",
        Giver::Gm,
        rules::ENEMY_MOVEMENT,
    ),
    CommandDoc::new(
        "spawn",
        &[],
        "spawn NAME KIND health=N zone=ZONE",
        "an enemy joins, its Health from the pool's reserve",
        Giver::Gm,
        rules::ENEMY_HEALTH,
    ),
    CommandDoc::new(
        "sink",
        &[],
        "sink ENEMY [pay=d3|d6]",
        "a Shadow Goblin sinks into a shadow when dealt damage, by itself: the command is refused",
        Giver::Gm,
        rules::SHADOW_GOBLIN,
    ),
    CommandDoc::new(
        "emerge",
        &[],
        "emerge ENEMY [pay=d3|d6]",
        "a Shadow Goblin spends any roll to leave its shadow",
        Giver::Gm,
        rules::SHADOW_GOBLIN,
    ),
    CommandDoc::new(
        "ensnare",
        &[],
        "ensnare ENEMY PLAYER [pay=d3|cp]",
        "the Enchanted Armor ensnares a player in its Zone who attacked it",
        Giver::Gm,
        rules::ENCHANTED_ARMOR,
    ),
    CommandDoc::new(
        "absorb",
        &[],
        "absorb ENEMY [d6=N] [d3=N] [cp=N]",
        "the Enchanted Armor absorbs Health from the player it ensnares",
        Giver::Gm,
        rules::ENCHANTED_ARMOR,
    ),
];

/// The error for wrong arguments of `command`, with its usage from [`COMMANDS`].
pub(crate) fn args(command: &str, problem: impl Into<String>) -> CommandParseError {
    CommandParseError::arguments_for(COMMANDS, command, problem)
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
