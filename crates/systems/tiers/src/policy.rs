//! The policy: what a reasonable player (or GM) would do now at a Tiers table,
//! for the NPC autopilot (`auto NAME`) and for simulating whole encounters
//! ([`tabula_core::Policy`] for [`crate::Tiers`]).
//!
//! It never rolls and never picks at random: the same state gives the same
//! command, and the dice of `decide` are the only randomness. Where a choice
//! rests on chances it reads the exact distributions of [`crate::odds`]. It
//! reads the state in place; nothing is cloned per candidate.
//!
//! # Who the table waits on ([`Policy::awaiting`])
//!
//! - Out of combat: the GM starts the fight (`fight`, "Phases": combat
//!   "generally starts with an Enemy Phase") while an enemy with Health is in
//!   play; once a combat has ended, or with no enemy left, the GM closes the
//!   session (`close`).
//! - A Competing Roll against an enemy waits: only the GM's `answer`
//!   ("Roleplaying Against Enemies"), for that enemy.
//! - Enemy Phase ("Combat", Help for the GM): first the GM's `spawn` of the
//!   pool's reserve when one is left ("Enemy Health": the enemies share the
//!   pool, "a mass of small enemies" may make it up); then every enemy with
//!   something worth a Roll, the one whose turn it is first (they take turns
//!   by the Rolls spent this phase, so the Rolls are spread among them); then
//!   the GM's `end-phase`.
//! - Player Phase: the Healer's Combat Point Response when it has one to give
//!   ("Healer", Responses); every player character and NPC ally with AP and a
//!   useful command, in table order (a player's own seat; the GM for an NPC
//!   ally, "Phases"); then the GM's `end-phase`.
//! - The documented end: in a combat past [`ROUND_CAP`] rounds only the GM's
//!   `end-combat` (see below).
//!
//! # A character's choice (Player Phase), in order
//!
//! 1. **Heal when low** ("Health", "Items", "Sample Items"): at half its max
//!    Health or less, a character heals itself with the heal (an Item it
//!    carries or a healing Action of a tier it has) that restores the most
//!    Health per AP, counted exactly up to its max Health (the Slow Shield up to
//!    10 above it; an Action's critical d6 included, "Rolling for Criticals",
//!    R-TI-6); otherwise, unless ensnared ("Enchanted Armor": no healing of
//!    allies), it heals the lowest ally at half Health or less that its heal
//!    reaches (an Item in its Zone, an Action by its reach).
//! 2. **Attack** ("Actions", "Action Points (AP)"; R-TI-4): of every damaging
//!    Action it may pay for and every standing enemy it reaches (melee in its
//!    Zone, ranged along accessible Zones; not one in shadow form, "Shadow
//!    Goblin"; only the Armor when ensnared), the pair with the most expected
//!    Health taken per AP: the exact distribution of the dice and the critical
//!    d6, less the enemy's Block (a 1d6 Block when it is a Goblin that will
//!    block, "Goblin", R-TI-9), capped at the Health it has. Ties go to the
//!    weaker enemy, then table order. The enemies share one pool of Rolls
//!    ("Creating Combat"), so felling one early does not lower what they deal:
//!    Health taken is what ends the combat ("Enemy Health").
//! 3. **Break free** ("Describing Rolls": a grappled player cannot move away;
//!    "Roleplaying in Combat", "Competing Rolls"): when no enemy is in reach
//!    of any of its damaging Actions and a grapple holds it, it rolls against
//!    the grappler with the option of the best exact odds against the enemy's
//!    free 1d3 ([`crate::odds::contest_odds`]): a Competing Action (Taunt) or
//!    `roleplay STAT D3 vs ENEMY` with its best Roleplay Bonus, the cheapest
//!    that wins three times in four, else the likeliest.
//! 4. **Move** ("Movement", "Zones"; R-TI-8): when no enemy is in reach of any
//!    of its damaging Actions, one Zone (1 AP) along the shortest way the
//!    rules allow toward the nearest standing enemy (one out of shadow first).
//! 5. **Shield** (a Reduce Action such as Shield Up; R-TI-4): AP that cannot
//!    pay for an attack go on a reduction for the weakest character it reaches
//!    that has none up.
//!
//! Otherwise it has nothing worth its AP and is not awaited.
//!
//! # The GM's choice for an enemy (Enemy Phase)
//!
//! The GM spends one Roll per command and follows the book's advice: "take
//! care to spread the rolls out amongst the party" and "no more than 1d6 per
//! player level" ("Spending Rolls for Actions", "Using Rolls"). It keeps a d6
//! back while a Goblin that would block stands ("Goblin": it blocks when
//! attacked, with a d6, in the Player Phase) and a d3 while a Shadow Goblin
//! out of its shadow stands (it sinks when dealt damage). In order:
//!
//! 1. a Shadow Goblin in its shadow leaves it (`emerge`, "Spend any roll to
//!    get out of their shadow form");
//! 2. the Enchanted Armor absorbs from the player it ensnares (`absorb`, one
//!    Roll), or ensnares a player in its Zone who attacked it this round
//!    (`ensnare`, "Enchanted Armor");
//! 3. an enemy with a heal roll (the Healer's Heal) heals the enemy missing
//!    the most Health ("Healer": "Generally heals their allies");
//! 4. it attacks the player or ally with the most Health it reaches, with
//!    its kind's own damaging roll (Claws, Hurl, Weak Attack, Weapon; the
//!    book's generic Bite or Fireball for a kind with none), a d6 before a d3
//!    ("Describing Rolls", "Enemy Behavior").
//!
//! Enemies do not move by choice: a roll use reaches any player along
//! accessible Zones (as `decide` plays it), so a move would only spend a
//! Roll. The Enchanted Armor's approach is its built-in Response. The GM
//! spends nothing in the Player Phase (it would cost double, "Spending Rolls
//! for Actions") except the Healer's Combat Point Response, which is not
//! doubled, and its `answer` to a roll against an enemy: a raise of one d3
//! (else one d6) when the roller is grappled by that enemy, else none.
//!
//! # The end
//!
//! Combat ends by itself when every enemy in play or every player is at 0
//! Health ("Combat"; `decide::settle`). The book has no other end, and
//! "story progression should not be hindered by bad rolls" ("Stats in
//! Roleplay"): past [`ROUND_CAP`] rounds the GM ends the combat (`end-combat`,
//! "Combat": the enemies "escape the party's wrath"), an encounter with no
//! winner. Then the GM closes the session, which [`tabula_core::TextPlay::finished`]
//! reads.
//!
//! # The report ([`Policy::report`])
//!
//! Sides `players` (player characters and NPC allies) and `enemies`; the
//! winner from the combat's outcome (`players` when every enemy is defeated,
//! `enemies` when every player is at 0 Health, none when the GM ended it).
//! A character is taken out at 0 Health ("Health": it "cannot contribute to
//! the fight") or dead (Death Rolls); since players are fully healed after
//! combat ("Player Phase"), a finished combat is read from its record
//! ([`crate::state::CombatRecord`]). Resources: `Health`, `max Health`, `AP`
//! and `Items` for characters; `Health` for enemies.

use tabula_core::Seat;
use tabula_core::odds::Dist;
use tabula_core::policy::{Awaiting, EncounterReport, ParticipantReport, Policy, Resource};

use crate::Tiers;
use crate::character::Stat;
use crate::combat::{reach_ok, step_ok};
use crate::command::{Command, Pay};
use crate::content::{ActionDef, ActionEffect, Response, UseDie, UseEffect, When};
use crate::gm::Purchase;
use crate::odds;
use crate::roleplay::{Contest, RollKind};
use crate::state::{Enemy, Hero, Mode, Outcome, Phase, State};

/// The round past which the GM ends a combat that has not ended by itself
/// (the policy's own cap: the book gives combat no other end).
pub const ROUND_CAP: u32 = 50;

/// The side of the player characters and NPC allies in a report.
pub const PLAYERS: &str = "players";
/// The side of the enemies in a report.
pub const ENEMIES: &str = "enemies";

/// The chance of winning a Competing Roll that the policy counts as enough to
/// pay no more AP for a better one.
const GOOD_ODDS: f64 = 0.75;

impl Policy for Tiers {
    fn awaiting(state: &State) -> Vec<Awaiting> {
        awaiting(state)
    }

    fn suggest_for(state: &State, awaiting: &Awaiting) -> Option<Command> {
        suggest_for(state, awaiting)
    }

    fn report(state: &State) -> EncounterReport {
        report(state)
    }
}

/// [`Policy::awaiting`] for Tiers: see the module documentation.
pub fn awaiting(s: &State) -> Vec<Awaiting> {
    let mut out = Vec::new();
    if s.closed {
        return out;
    }
    if let Some(p) = &s.pending {
        if let Some(e) = s.enemies.get(p.enemy) {
            out.push(Awaiting::participant(Seat::Gm, e.name.clone()));
        }
        return out;
    }
    let Mode::Combat { phase, round } = s.mode else {
        out.push(Awaiting::table(Seat::Gm));
        return out;
    };
    if round > ROUND_CAP {
        out.push(Awaiting::table(Seat::Gm));
        return out;
    }
    match phase {
        Phase::Enemy => {
            let spawning = spawn_command(s).is_some();
            if spawning {
                out.push(Awaiting::table(Seat::Gm));
            }
            for e in enemy_turns(s) {
                if let Some(x) = s.enemies.get(e) {
                    out.push(Awaiting::participant(Seat::Gm, x.name.clone()));
                }
            }
            if !spawning {
                out.push(Awaiting::table(Seat::Gm));
            }
        }
        Phase::Player => {
            for (e, x) in s.enemies.iter().enumerate() {
                if healer_response(s, e).is_some() {
                    out.push(Awaiting::participant(Seat::Gm, x.name.clone()));
                }
            }
            for (i, h) in s.heroes.iter().enumerate() {
                if hero_command(s, i).is_some() {
                    out.push(Awaiting::participant(hero_seat(h), h.name().to_string()));
                }
            }
            out.push(Awaiting::table(Seat::Gm));
        }
    }
    out
}

/// [`Policy::suggest_for`] for Tiers: see the module documentation.
pub fn suggest_for(s: &State, a: &Awaiting) -> Option<Command> {
    if s.closed {
        return None;
    }
    let Some(name) = a.participant.as_deref() else {
        return if a.seat.is_gm() { table_step(s) } else { None };
    };
    if let Some(i) = s.hero(name) {
        let h = s.heroes.get(i)?;
        if !a.seat.same_seat(&hero_seat(h)) || s.pending.is_some() {
            return None;
        }
        let cmd = hero_command(s, i)?;
        return Some(if h.ally {
            Command::Ally {
                ally: h.name().to_string(),
                does: Box::new(cmd),
            }
        } else {
            cmd
        });
    }
    let e = s.enemy(name)?;
    if !a.seat.is_gm() {
        return None;
    }
    if let Some(p) = &s.pending {
        return (p.enemy == e).then(|| answer(s));
    }
    match s.phase()? {
        Phase::Enemy => enemy_command(s, e),
        Phase::Player => healer_response(s, e),
    }
}

/// The seat that gives a character's commands: its player's, or the GM's for
/// an NPC ally ("Phases").
fn hero_seat(h: &Hero) -> Seat {
    if h.ally {
        Seat::Gm
    } else {
        Seat::Player(h.name().to_string())
    }
}

/// The GM's table step: fight, close, spawn, end the phase or the combat.
fn table_step(s: &State) -> Option<Command> {
    if s.pending.is_some() {
        return None;
    }
    match s.mode {
        Mode::Roleplay => {
            if s.outcome.is_none() && s.enemies.iter().any(Enemy::standing) {
                Some(Command::Fight)
            } else {
                Some(Command::Close)
            }
        }
        Mode::Combat { round, .. } if round > ROUND_CAP => Some(Command::EndCombat),
        Mode::Combat { phase, .. } => {
            if phase == Phase::Enemy
                && let Some(c) = spawn_command(s)
            {
                return Some(c);
            }
            Some(Command::EndPhase)
        }
    }
}

/// The GM brings in the pool's reserve as one enemy of the table's first
/// enemy's kind, in the Zone of the first standing enemy ("Enemy Health").
fn spawn_command(s: &State) -> Option<Command> {
    if s.reserve == 0 || s.phase() != Some(Phase::Enemy) {
        return None;
    }
    if s.enemies.len() >= crate::setup::MAX_SEATS * 4 {
        return None;
    }
    let kind = s.enemies.first()?.kind.clone();
    s.catalog.enemy(&kind)?;
    let at = s.enemies.iter().find(|e| e.standing())?.zone;
    let name = (2..=u32::try_from(s.enemies.len())
        .unwrap_or(u32::MAX)
        .saturating_add(2))
        .map(|n| format!("{kind} {n}"))
        .find(|n| {
            s.enemy(n).is_none()
                && s.hero(n).is_none()
                && tabula_core::names::check_seat_name("name", n).is_ok()
        })?;
    Some(Command::Spawn {
        name,
        kind,
        health: s.reserve,
        zone: s.zones.name(at).to_string(),
    })
}

// ---------------------------------------------------------------- characters

/// The command the policy gives for character `i` itself (not yet wrapped
/// for an NPC ally), in the Player Phase.
fn hero_command(s: &State, i: usize) -> Option<Command> {
    if s.pending.is_some() || s.phase() != Some(Phase::Player) {
        return None;
    }
    let h = s.heroes.get(i)?;
    if !h.up() || h.ap == 0 {
        return None;
    }
    if let Some(c) = heal_command(s, i, h) {
        return Some(c);
    }
    if let Some((a, e)) = best_attack(s, h, h.ap) {
        return Some(Command::Act {
            action: a.name.clone(),
            target: Some(e.name.clone()),
            cover: false,
        });
    }
    // No enemy in reach even with full AP: a matter of position.
    if best_attack(s, h, crate::character::MAX_AP).is_none() {
        if let Some(c) = break_free(s, h) {
            return Some(c);
        }
        if let Some(c) = move_closer(s, h) {
            return Some(c);
        }
    }
    shield(s, i, h)
}

/// True for a character at half its max Health or less (and still up).
fn low(h: &Hero) -> bool {
    h.up() && u64::from(h.health) * 2 <= u64::from(h.max_health)
}

/// The Actions `h` has the tier for and may use now with `ap` AP.
fn actions<'a>(s: &'a State, h: &'a Hero, ap: u32) -> impl Iterator<Item = &'a ActionDef> + 'a {
    let phase = s.phase();
    s.catalog.actions.iter().filter(move |a| {
        h.character.stat(a.stat).has_tier(a.tier)
            && a.ap <= ap
            && (phase == Some(Phase::Player) || a.when == When::AnyPhase)
    })
}

/// The distribution of an Action's amount: its dice and flat amount, doubled
/// on a critical 6 for damage and healing ("Rolling for Criticals"; R-TI-6).
fn action_amount(a: &ActionDef) -> Option<Dist> {
    let roll = odds::rolls(a.d6, a.d3, i64::from(a.flat)).ok()?;
    if matches!(a.effect, ActionEffect::Damage | ActionEffect::Heal) {
        roll.combine(&Dist::die(6).ok()?, |x, c| {
            let x = (*x).max(0);
            if *c == 6 { x.saturating_mul(2) } else { x }
        })
        .ok()
    } else {
        Some(roll.map(|x| (*x).max(0)))
    }
}

/// E[min(max(X - B, 0), cap)]: the expected amount that lands of `amount`
/// less a Block `block` (a fixed amount, or a distribution), capped at `cap`.
fn expected_landing(amount: &Dist, block: &Dist, cap: u32) -> f64 {
    let cap = i64::from(cap);
    let mut sum = 0.0;
    for (x, p) in amount.iter() {
        for (b, q) in block.iter() {
            let landed = (x - b).clamp(0, cap);
            sum += p * q * landed as f64;
        }
    }
    sum
}

/// The Health a heal restores on `h`, capped at max Health plus `overheal`.
fn room(h: &Hero, overheal: u32) -> u32 {
    h.max_health
        .saturating_add(overheal)
        .saturating_sub(h.health)
}

/// Heal itself when low, else the lowest low ally it reaches.
fn heal_command(s: &State, i: usize, h: &Hero) -> Option<Command> {
    if low(h)
        && let Some(c) = best_heal(s, i, h, i)
    {
        return Some(c);
    }
    if h.ensnared_by.is_some() {
        return None;
    }
    let mut others: Vec<(usize, &Hero)> = s
        .heroes
        .iter()
        .enumerate()
        .filter(|(t, o)| *t != i && low(o))
        .collect();
    others.sort_by_key(|(t, o)| (o.health, *t));
    others.into_iter().find_map(|(t, _)| best_heal(s, i, h, t))
}

/// The heal (Item or Action) from `h` (index `i`) on character `t` with the
/// most expected Health per AP; none when nothing would restore Health.
fn best_heal(s: &State, i: usize, h: &Hero, t: usize) -> Option<Command> {
    let th = s.heroes.get(t)?;
    if !th.up() {
        return None;
    }
    let target = (t != i).then(|| th.name().to_string());
    let mut best: Option<(f64, f64, Command)> = None;
    let mut consider = |per_ap: f64, total: f64, c: Command| {
        if total > 0.0
            && best
                .as_ref()
                .is_none_or(|(p, q, _)| (per_ap, total) > (*p, *q))
        {
            best = Some((per_ap, total, c));
        }
    };
    // Items: on yourself or a player in your Zone ("Items"; R-TI-7).
    if t == i || th.zone == h.zone {
        let mut seen: Vec<&str> = Vec::new();
        for name in &h.items {
            let Some(def) = s.catalog.item(name) else {
                continue;
            };
            if def.heal == 0 || def.ap() > h.ap || seen.contains(&def.name.as_str()) {
                continue;
            }
            seen.push(def.name.as_str());
            let total = f64::from(def.heal.min(room(th, def.overheal)));
            consider(
                total / f64::from(def.ap().max(1)),
                total,
                Command::UseItem {
                    item: def.name.clone(),
                    target: target.clone(),
                },
            );
        }
    }
    for a in actions(s, h, h.ap).filter(|a| a.effect == ActionEffect::Heal) {
        if t != i
            && (a.reach == crate::content::Reach::Own || !reach_ok(s, a.reach, h.zone, th.zone))
        {
            continue;
        }
        let Some(d) = action_amount(a) else {
            continue;
        };
        let total = expected_landing(&d, &Dist::certain(0), room(th, 0));
        consider(
            total / f64::from(a.ap.max(1)),
            total,
            Command::Act {
                action: a.name.clone(),
                target: target.clone(),
                cover: false,
            },
        );
    }
    best.map(|(_, _, c)| c)
}

/// The Block an attack on `x` meets: its Block up, or the 1d6 a Goblin
/// raises when attacked with a d6 left ("Goblin"; R-TI-9).
fn block_of(s: &State, x: &Enemy) -> Dist {
    let blocks = s
        .catalog
        .enemy(&x.kind)
        .is_some_and(|k| k.response == Some(Response::Block));
    if blocks && x.block == 0 && s.rolls_left().d6 > 0 {
        Dist::die(6).unwrap_or_else(|_| Dist::certain(0))
    } else {
        Dist::certain(i64::from(x.block))
    }
}

/// True when `h` may aim a damaging Action at `x`: standing, out of its
/// shadow, and the Armor only when `h` is ensnared.
fn damageable(h: &Hero, e: usize, x: &Enemy) -> bool {
    x.standing() && !x.shadow && h.ensnared_by.is_none_or(|armor| armor == e)
}

/// The damaging Action and enemy with the most expected Health taken per AP
/// (ties: the weaker enemy, then table order), paying at most `ap`.
fn best_attack<'a>(s: &'a State, h: &'a Hero, ap: u32) -> Option<(&'a ActionDef, &'a Enemy)> {
    let mut best: Option<(f64, u32, &ActionDef, &Enemy)> = None;
    let mut blocks: Vec<Option<Dist>> = vec![None; s.enemies.len()];
    for a in actions(s, h, ap).filter(|a| a.effect == ActionEffect::Damage) {
        let mut amount: Option<Dist> = None;
        for (e, x) in s.enemies.iter().enumerate() {
            if !damageable(h, e, x) || !reach_ok(s, a.reach, h.zone, x.zone) {
                continue;
            }
            if amount.is_none() {
                amount = action_amount(a);
            }
            let Some(d) = amount.as_ref() else {
                break;
            };
            let Some(slot) = blocks.get_mut(e) else {
                continue;
            };
            let block = slot.get_or_insert_with(|| block_of(s, x));
            let value = expected_landing(d, block, x.health) / f64::from(a.ap.max(1));
            let better = best
                .as_ref()
                .is_none_or(|(v, health, _, _)| value > *v || (value == *v && x.health < *health));
            if better {
                best = Some((value, x.health, a, x));
            }
        }
    }
    best.map(|(_, _, a, x)| (a, x))
}

/// When grappled and out of reach of every enemy: the Competing Roll against
/// the grappler with the best exact odds against its free 1d3 ("Describing
/// Rolls": Grapple; "Roleplaying in Combat", "Roleplaying Against Enemies").
fn break_free(s: &State, h: &Hero) -> Option<Command> {
    let g = h.grappled_by?;
    let x = s.enemies.get(g)?;
    if !x.standing() || h.ensnared_by.is_some() {
        return None;
    }
    let theirs = odds::rolls(0, 1, 0).ok()?;
    let contest = Contest::Competing { tie: s.options.tie };
    let p_win = |mine: Dist| {
        odds::contest_odds(&mine, &theirs, contest)
            .map(|o| o.probability)
            .unwrap_or(0.0)
    };
    // (AP, chance, command), cheapest first.
    let mut options: Vec<(u32, f64, Command)> = Vec::new();
    for a in actions(s, h, h.ap).filter(|a| a.effect == ActionEffect::Compete) {
        if !reach_ok(s, a.reach, h.zone, x.zone) {
            continue;
        }
        let bonus = a.flat.saturating_add(h.character.roleplay_bonus(a.stat));
        let Ok(mine) = odds::rolls(a.d6, a.d3, i64::from(bonus)) else {
            continue;
        };
        options.push((
            a.ap,
            p_win(mine),
            Command::Act {
                action: a.name.clone(),
                target: Some(x.name.clone()),
                cover: false,
            },
        ));
    }
    let stat = Stat::ALL
        .into_iter()
        .max_by_key(|st| (h.character.roleplay_bonus(*st), std::cmp::Reverse(*st)))?;
    let bonus = i64::from(h.character.roleplay_bonus(stat));
    for d3 in 1..=h.ap {
        let Ok(mine) = odds::total(RollKind::InCombat { d3 }, bonus) else {
            break;
        };
        options.push((
            d3,
            p_win(mine),
            Command::RoleplayVs {
                enemy: x.name.clone(),
                stat,
                d3,
            },
        ));
    }
    options.sort_by_key(|o| o.0);
    if let Some(k) = options.iter().position(|o| o.1 >= GOOD_ODDS) {
        return options.into_iter().nth(k).map(|o| o.2);
    }
    let mut best: Option<(u32, f64, Command)> = None;
    for o in options {
        if best.as_ref().is_none_or(|b| o.1 > b.1) {
            best = Some(o);
        }
    }
    best.map(|o| o.2)
}

/// One Zone (1 AP) along the shortest way the rules allow toward the nearest
/// standing enemy, one out of its shadow first ("Movement"; R-TI-8).
fn move_closer(s: &State, h: &Hero) -> Option<Command> {
    if h.ensnared_by.is_some()
        || h.grappled_by
            .and_then(|g| s.enemies.get(g))
            .is_some_and(Enemy::standing)
    {
        return None;
    }
    let start = h.zone;
    let mut best: Option<(bool, usize, usize)> = None;
    for x in s.enemies.iter().filter(|x| x.standing()) {
        let Some(route) = s.zones.route(start, x.zone, |from, to| {
            step_ok(s, from, if from == start { h.came_from } else { None }, to)
        }) else {
            continue;
        };
        let Some(&first) = route.first() else {
            continue;
        };
        let key = (x.shadow, route.len(), first);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    let (_, _, to) = best?;
    Some(Command::Move {
        path: vec![s.zones.name(to).to_string()],
    })
}

/// A Reduce Action (Shield Up) on the weakest character it reaches with no
/// reduction up: AP that cannot pay for an attack.
fn shield(s: &State, i: usize, h: &Hero) -> Option<Command> {
    let a = actions(s, h, h.ap).find(|a| a.effect == ActionEffect::Reduce)?;
    let mut best: Option<(u32, usize)> = None;
    for (t, th) in s.heroes.iter().enumerate() {
        if !th.up() || th.reduction > 0 {
            continue;
        }
        if t != i
            && (h.ensnared_by.is_some()
                || a.reach == crate::content::Reach::Own
                || !reach_ok(s, a.reach, h.zone, th.zone))
        {
            continue;
        }
        // The weakest; yourself first on a tie, then table order.
        let key = (th.health, if t == i { 0 } else { t + 1 });
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    let (_, k) = best?;
    let target = if k == 0 {
        None
    } else {
        s.heroes.get(k - 1).map(|th| th.name().to_string())
    };
    Some(Command::Act {
        action: a.name.clone(),
        target,
        cover: false,
    })
}

// ------------------------------------------------------------------- the GM

/// The Rolls the GM may spend now: what is left, less a d6 kept for a Goblin
/// that would block and a d3 for a Shadow Goblin that would sink (R-TI-9).
fn spendable(s: &State) -> Purchase {
    let left = s.rolls_left();
    let response = |r: Response| {
        s.enemies.iter().any(|x| {
            x.standing()
                && !x.shadow
                && (r != Response::Block || x.block == 0)
                && s.catalog
                    .enemy(&x.kind)
                    .is_some_and(|k| k.response == Some(r))
        })
    };
    Purchase {
        d6: left.d6.saturating_sub(u32::from(response(Response::Block))),
        d3: left.d3.saturating_sub(u32::from(response(Response::Sink))),
        combat_points: left.combat_points,
    }
}

/// One die of the spendable Rolls: a d6 before a d3 when `d6_first`.
fn one_roll(p: Purchase, d6_first: bool) -> Option<Purchase> {
    let d6 = Purchase {
        d6: 1,
        ..Purchase::default()
    };
    let d3 = Purchase {
        d3: 1,
        ..Purchase::default()
    };
    match (p.d6 > 0, p.d3 > 0, d6_first) {
        (true, _, true) | (true, false, false) => Some(d6),
        (_, true, _) => Some(d3),
        _ => None,
    }
}

/// The enemies with a command now, the one whose turn it is first: they take
/// turns in table order by the number of Rolls spent this phase.
fn enemy_turns(s: &State) -> Vec<usize> {
    let able: Vec<usize> = (0..s.enemies.len())
        .filter(|&e| enemy_command(s, e).is_some())
        .collect();
    if able.is_empty() {
        return able;
    }
    let spent = s
        .spent
        .d6
        .saturating_add(s.spent.d3)
        .saturating_add(s.spent.combat_points) as usize;
    let k = spent % able.len();
    able.iter()
        .skip(k)
        .chain(able.iter().take(k))
        .copied()
        .collect()
}

/// The GM's command for enemy `e` in the Enemy Phase.
fn enemy_command(s: &State, e: usize) -> Option<Command> {
    if s.pending.is_some() || s.phase() != Some(Phase::Enemy) {
        return None;
    }
    let x = s.enemies.get(e)?;
    if !x.standing() {
        return None;
    }
    let kind = s.catalog.enemy(&x.kind)?;
    let avail = spendable(s);
    // 1. Out of the shadow ("Shadow Goblin": any roll).
    if x.shadow {
        if !kind.shadow_form {
            return None;
        }
        let pay = if avail.d3 > 0 {
            Pay::D3
        } else if avail.d6 > 0 {
            Pay::D6
        } else {
            return None;
        };
        return Some(Command::Emerge {
            enemy: x.name.clone(),
            pay,
        });
    }
    // 2. The Enchanted Armor's Absorb and Ensnare.
    if kind.ensnare {
        if let Some(v) = x.ensnaring {
            if s.heroes.get(v).is_some_and(Hero::up)
                && let Some(dice) = one_roll(avail, false)
            {
                return Some(Command::Absorb {
                    enemy: x.name.clone(),
                    dice,
                });
            }
        } else if !x.moved {
            let pay = if avail.combat_points > 0 {
                Some(Pay::Cp)
            } else if avail.d3 > 0 {
                Some(Pay::D3)
            } else {
                None
            };
            let victim = s.heroes.iter().enumerate().find(|(i, h)| {
                h.up()
                    && h.ensnared_by.is_none()
                    && h.zone == x.zone
                    && x.attacked_this_round_by(*i)
            });
            if let (Some(pay), Some((_, h))) = (pay, victim) {
                return Some(Command::Ensnare {
                    enemy: x.name.clone(),
                    player: h.name().to_string(),
                    pay,
                });
            }
        }
    }
    // 3. Heal the enemy missing the most Health, with a heal roll of its kind.
    let heal = s
        .catalog
        .uses
        .iter()
        .find(|u| u.effect == UseEffect::Heal && u.usable_by(&x.kind));
    if let Some(u) = heal {
        let hurt = s
            .enemies
            .iter()
            .filter(|o| o.standing() && o.health < o.start_health)
            .max_by_key(|o| {
                (
                    o.start_health - o.health,
                    std::cmp::Reverse(o.name.as_str()),
                )
            });
        let dice = match u.die {
            UseDie::D6 => one_roll(Purchase { d3: 0, ..avail }, true),
            UseDie::D3 => one_roll(Purchase { d6: 0, ..avail }, false),
            UseDie::Any => one_roll(avail, true),
        };
        if let (Some(o), Some(dice)) = (hurt, dice) {
            return Some(Command::Spend {
                enemy: x.name.clone(),
                use_name: u.name.clone(),
                dice,
                heal_d6: 0,
                target: Some(o.name.clone()),
                to: None,
            });
        }
    }
    // 4. Attack the player with the most Health it reaches.
    attack_command(s, x, avail)
}

/// An enemy's attack: its kind's own damaging roll (else the book's generic
/// Bite or Fireball), one die, a d6 first, at the player or ally with the
/// most Health it reaches along accessible Zones.
fn attack_command(s: &State, x: &Enemy, avail: Purchase) -> Option<Command> {
    let (_, target) = s
        .heroes
        .iter()
        .enumerate()
        .filter(|(_, h)| h.up() && s.zones.distance(x.zone, h.zone).is_some())
        .max_by_key(|(i, h)| (h.health, std::cmp::Reverse(*i)))?;
    let damaging = |u: &&crate::content::RollUse| {
        matches!(u.effect, UseEffect::Damage | UseEffect::Divided) && u.usable_by(&x.kind)
    };
    let own = s
        .catalog
        .uses
        .iter()
        .filter(damaging)
        .any(|u| !u.kinds.is_empty());
    let uses = s
        .catalog
        .uses
        .iter()
        .filter(damaging)
        .filter(|u| u.kinds.is_empty() != own);
    let mut pick: Option<(&crate::content::RollUse, Purchase)> = None;
    for u in uses {
        let dice = match u.die {
            UseDie::D6 => one_roll(Purchase { d3: 0, ..avail }, true),
            UseDie::D3 => one_roll(Purchase { d6: 0, ..avail }, false),
            UseDie::Any => one_roll(avail, true),
        };
        let Some(dice) = dice else {
            continue;
        };
        if pick.is_none_or(|(_, p)| dice.d6 > p.d6) {
            pick = Some((u, dice));
        }
    }
    let (u, dice) = pick?;
    let target = if u.effect == UseEffect::Divided {
        s.zones.name(target.zone).to_string()
    } else {
        target.name().to_string()
    };
    Some(Command::Spend {
        enemy: x.name.clone(),
        use_name: u.name.clone(),
        dice,
        heal_d6: 0,
        target: Some(target),
        to: None,
    })
}

/// The Healer's Response in the Player Phase: Combat Points alone heal an
/// ally (another enemy) dealt damage this phase ("Healer", Responses;
/// R-TI-9); not doubled.
fn healer_response(s: &State, e: usize) -> Option<Command> {
    if s.pending.is_some() || s.phase() != Some(Phase::Player) {
        return None;
    }
    let x = s.enemies.get(e)?;
    let kind = s.catalog.enemy(&x.kind)?;
    let cp = s.rolls_left().combat_points;
    if !x.standing() || kind.response != Some(Response::HealWithCombatPoints) || cp == 0 {
        return None;
    }
    let u = s
        .catalog
        .uses
        .iter()
        .find(|u| u.effect == UseEffect::Heal && u.usable_by(&x.kind))?;
    let (_, o) = s
        .enemies
        .iter()
        .enumerate()
        .filter(|(j, o)| *j != e && o.standing() && o.hurt && o.health < o.start_health)
        .max_by_key(|(j, o)| (o.start_health - o.health, std::cmp::Reverse(*j)))?;
    Some(Command::Spend {
        enemy: x.name.clone(),
        use_name: u.name.clone(),
        dice: Purchase {
            combat_points: cp
                .min(o.start_health - o.health)
                .min(crate::command::MAX_SPEND),
            ..Purchase::default()
        },
        heal_d6: 0,
        target: Some(o.name.clone()),
        to: None,
    })
}

/// The GM's answer to a roll against an enemy: one d3 (else one d6) more
/// when the roller is grappled by that enemy, else the free 1d3 alone
/// ("Roleplaying Against Enemies"; raises are not doubled).
fn answer(s: &State) -> Command {
    let left = s.rolls_left();
    let grappled = s.pending.as_ref().is_some_and(|p| {
        s.heroes
            .get(p.hero)
            .is_some_and(|h| h.grappled_by == Some(p.enemy))
    });
    let raise = if grappled {
        one_roll(left, false).unwrap_or_default()
    } else {
        Purchase::default()
    };
    Command::Answer { raise }
}

// ------------------------------------------------------------------- report

/// [`Policy::report`] for Tiers: see the module documentation.
pub fn report(s: &State) -> EncounterReport {
    let in_combat = matches!(s.mode, Mode::Combat { .. });
    let round = match s.mode {
        Mode::Combat { round, .. } => round,
        Mode::Roleplay => s.last_combat.as_ref().map_or(0, |r| r.round),
    };
    let winner = match (in_combat, s.outcome) {
        (false, Some(Outcome::Won)) => Some(PLAYERS.to_string()),
        (false, Some(Outcome::Lost)) => Some(ENEMIES.to_string()),
        _ => None,
    };
    let record = s.last_combat.as_ref().filter(|_| !in_combat);
    let mut participants = Vec::with_capacity(s.heroes.len() + s.enemies.len());
    for (i, h) in s.heroes.iter().enumerate() {
        let health = record
            .and_then(|r| r.health.get(i).copied())
            .unwrap_or(h.health);
        let items = h
            .items
            .iter()
            .filter(|n| s.catalog.item(n).is_some())
            .count();
        participants.push(ParticipantReport {
            name: h.name().to_string(),
            side: PLAYERS.to_string(),
            taken_out: health == 0 || h.dead || h.left,
            resources: vec![
                Resource::new("Health", health),
                Resource::new("max Health", h.max_health),
                Resource::new("AP", h.ap),
                Resource::new("Items", u32::try_from(items).unwrap_or(u32::MAX)),
            ],
        });
    }
    for x in &s.enemies {
        participants.push(ParticipantReport {
            name: x.name.clone(),
            side: ENEMIES.to_string(),
            taken_out: !x.standing(),
            resources: vec![Resource::new("Health", x.health)],
        });
    }
    EncounterReport {
        round,
        sides: vec![PLAYERS.to_string(), ENEMIES.to_string()],
        winner,
        participants,
    }
}
