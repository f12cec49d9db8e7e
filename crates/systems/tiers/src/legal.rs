//! "What may this seat do now": the legal commands with their parameters, and
//! what each seat may see.

use serde::Serialize;

use crate::character::Stat;
use crate::content::When;
use crate::gm::Purchase;
use crate::table::{Mode, Outcome, Phase, State};
use tabula_core::{CommandSpec, ParamSpec, Seat};

fn stats() -> Vec<&'static str> {
    Stat::ALL.iter().map(|s| s.key()).collect()
}

/// The commands `seat` may give now.
pub fn legal_commands(s: &State, seat: &Seat) -> Vec<CommandSpec> {
    let mut out = Vec::new();
    if s.closed {
        return out;
    }
    let heroes: Vec<String> = s
        .heroes
        .iter()
        .map(|h| h.name().replace(' ', "_"))
        .collect();
    let live_enemies: Vec<String> = s
        .enemies
        .iter()
        .filter(|e| e.health > 0)
        .map(|e| e.name.clone())
        .collect();
    let zones: Vec<String> = s
        .zones
        .names()
        .iter()
        .map(|z| z.replace(' ', "_"))
        .collect();
    let left = s.rolls_left();
    if s.pending.is_some() {
        if seat.is_gm() {
            out.push(CommandSpec::new(
                "answer",
                "settle the Competing Roll: the enemy's free 1d3, raised by Rolls or Combat Points",
                vec![
                    ParamSpec::int("d6=", 0, i64::from(left.d6)),
                    ParamSpec::int("d3=", 0, i64::from(left.d3)),
                    ParamSpec::int("cp=", 0, i64::from(left.combat_points)),
                ],
            ));
        }
        return out;
    }
    match seat {
        Seat::Gm => {
            match s.mode {
                Mode::Roleplay => {
                    out.push(CommandSpec::new(
                        "compete",
                        "Competing Rolls: d6 + Roleplay Bonus each, higher does the thing",
                        vec![
                            ParamSpec::choice("first", heroes.clone()),
                            ParamSpec::choice("stat", stats()),
                            ParamSpec::choice("second", heroes.clone()),
                            ParamSpec::choice("stat", stats()),
                        ],
                    ));
                    if !s.consents.is_empty() {
                        out.push(CommandSpec::new(
                            "pvp",
                            "a PvP Roll; the Defendant wins ties",
                            vec![
                                ParamSpec::choice("actor", heroes.clone()),
                                ParamSpec::choice("stat", stats()),
                                ParamSpec::choice("defendant", heroes.clone()),
                                ParamSpec::choice("stat", stats()),
                            ],
                        ));
                    }
                    if !live_enemies.is_empty() {
                        out.push(CommandSpec::new("fight", "combat begins", vec![]));
                    }
                }
                Mode::Combat { .. } => {
                    out.push(CommandSpec::new(
                        "end-phase",
                        "end this phase, begin the next",
                        vec![],
                    ));
                    out.push(CommandSpec::new("end-combat", "end the combat now", vec![]));
                    if !live_enemies.is_empty() {
                        let uses: Vec<String> =
                            s.catalog.uses.iter().map(|u| u.name.clone()).collect();
                        out.push(CommandSpec::new(
                            "spend",
                            "an enemy spends Rolls (doubled in the Player Phase)",
                            vec![
                                ParamSpec::choice("enemy", live_enemies.clone()),
                                ParamSpec::choice("use", uses),
                                ParamSpec::int("d6=", 0, i64::from(left.d6)),
                                ParamSpec::int("d3=", 0, i64::from(left.d3)),
                                ParamSpec::int("cp=", 0, i64::from(left.combat_points)),
                                ParamSpec::text("on TARGET, to=ZONE (Shove), heal=N (Drain)"),
                            ],
                        ));
                        out.push(CommandSpec::new(
                            "move-enemy",
                            "move an enemy to a touching, accessible Zone (1d3 or 1 CP)",
                            vec![
                                ParamSpec::choice("enemy", live_enemies.clone()),
                                ParamSpec::choice("zone", zones.clone()),
                                ParamSpec::choice("pay=", ["d3", "cp"]),
                            ],
                        ));
                        out.push(CommandSpec::new(
                            "move-player",
                            "move a player (a d3 or 2 CP per Zone)",
                            vec![
                                ParamSpec::choice("player", heroes.clone()),
                                ParamSpec::choice("zone", zones.clone()),
                                ParamSpec::choice("pay=", ["d3", "cp"]),
                            ],
                        ));
                    }
                    let kind = |f: fn(&crate::content::EnemyKind) -> bool| -> Vec<String> {
                        s.enemies
                            .iter()
                            .filter(|e| e.health > 0 && s.catalog.enemy(&e.kind).is_some_and(f))
                            .map(|e| e.name.clone())
                            .collect()
                    };
                    let shadows = kind(|k| k.shadow_form);
                    if !shadows.is_empty() {
                        for (name, what) in [
                            ("sink", "sink into a shadow"),
                            ("emerge", "leave the shadow"),
                        ] {
                            out.push(CommandSpec::new(
                                name,
                                what,
                                vec![
                                    ParamSpec::choice("enemy", shadows.clone()),
                                    ParamSpec::choice("pay=", ["d3", "d6"]),
                                ],
                            ));
                        }
                    }
                    let armors = kind(|k| k.ensnare);
                    if !armors.is_empty() {
                        out.push(CommandSpec::new(
                            "ensnare",
                            "ensnare a player in its Zone who attacked it",
                            vec![
                                ParamSpec::choice("enemy", armors.clone()),
                                ParamSpec::choice("player", heroes.clone()),
                                ParamSpec::choice("pay=", ["d3", "cp"]),
                            ],
                        ));
                        out.push(CommandSpec::new(
                            "absorb",
                            "heal for the rolls, the ensnared player takes half",
                            vec![
                                ParamSpec::choice("enemy", armors),
                                ParamSpec::int("d6=", 0, i64::from(left.d6)),
                                ParamSpec::int("d3=", 0, i64::from(left.d3)),
                                ParamSpec::int("cp=", 0, i64::from(left.combat_points)),
                            ],
                        ));
                    }
                }
            }
            if s.reserve > 0 {
                let kinds: Vec<String> = s.catalog.enemies.iter().map(|k| k.name.clone()).collect();
                out.push(CommandSpec::new(
                    "spawn",
                    "an enemy joins with Health from the pool's reserve",
                    vec![
                        ParamSpec::text("name"),
                        ParamSpec::choice("kind", kinds),
                        ParamSpec::int("health=", 1, i64::from(s.reserve)),
                        ParamSpec::choice("zone=", zones.clone()),
                    ],
                ));
            }
            out.push(CommandSpec::new("close", "close the session", vec![]));
        }
        Seat::Player(name) => {
            let Some(i) = s.hero(name) else {
                return out;
            };
            let Some(h) = s.heroes.get(i) else {
                return out;
            };
            let others: Vec<String> = heroes
                .iter()
                .filter(|n| crate::table::norm(n) != crate::table::norm(h.name()))
                .cloned()
                .collect();
            match s.mode {
                Mode::Roleplay => {
                    out.push(CommandSpec::new(
                        "roll",
                        "d6 + the Stat's Roleplay Bonus against the GM's Goal",
                        vec![
                            ParamSpec::choice("stat", stats()),
                            ParamSpec::text("goal (number or difficulty)"),
                        ],
                    ));
                    out.push(CommandSpec::new(
                        "consent",
                        "agree to be the Defendant of a PvP Roll",
                        vec![ParamSpec::choice("actor", others)],
                    ));
                    if s.options.custom.resting && !h.dead {
                        out.push(CommandSpec::new(
                            "rest",
                            "rest, 1d6 Health per hour",
                            vec![ParamSpec::int("hours", 1, 24)],
                        ));
                    }
                }
                Mode::Combat { phase, .. } if h.up() => {
                    let actions: Vec<String> = s
                        .catalog
                        .actions
                        .iter()
                        .filter(|a| {
                            a.ap <= h.ap
                                && h.character.stat(a.stat).has_tier(a.tier)
                                && (phase == Phase::Player || a.when == When::AnyPhase)
                        })
                        .map(|a| a.name.clone())
                        .collect();
                    if !actions.is_empty() {
                        let targets: Vec<String> =
                            live_enemies.iter().chain(heroes.iter()).cloned().collect();
                        out.push(CommandSpec::new(
                            "act",
                            "use an Action (its AP; at least 1 SP in its tier)",
                            vec![
                                ParamSpec::choice("action", actions),
                                ParamSpec::choice("on", targets),
                            ],
                        ));
                    }
                    if phase == Phase::Player && h.ap > 0 {
                        let near: Vec<String> = s
                            .zones
                            .neighbours(h.zone)
                            .into_iter()
                            .map(|z| s.zones.name(z).replace(' ', "_"))
                            .collect();
                        if h.ensnared_by.is_none() && !near.is_empty() {
                            out.push(CommandSpec::new(
                                "move",
                                "1 AP per touching, accessible Zone",
                                vec![ParamSpec::choice("zone", near)],
                            ));
                        }
                        let items: Vec<String> = h
                            .items
                            .iter()
                            .filter_map(|n| s.catalog.item(n))
                            .filter(|d| d.ap() <= h.ap)
                            .map(|d| d.name.clone())
                            .collect();
                        if !items.is_empty() {
                            out.push(CommandSpec::new(
                                "item",
                                "use an Item (Fast 1, Normal 2, Slow 3, Special 4+ AP)",
                                vec![ParamSpec::choice("item", items)],
                            ));
                        }
                        out.push(CommandSpec::new(
                            "roleplay",
                            "1 AP per d3, + Roleplay Bonus, against a Goal or `vs ENEMY`",
                            vec![
                                ParamSpec::choice("stat", stats()),
                                ParamSpec::int("d3", 1, i64::from(h.ap)),
                                ParamSpec::text("goal, or vs ENEMY"),
                            ],
                        ));
                    }
                }
                Mode::Combat { .. } => {}
            }
            if s.options.custom.super_6 {
                out.push(CommandSpec::new(
                    "super6",
                    "2d6 for an incredibly unlikely, very cool thing: both 6s",
                    vec![],
                ));
            }
        }
    }
    out
}

/// A hero as every seat sees them.
#[derive(Clone, Debug, Serialize)]
pub struct HeroView {
    /// Name.
    pub name: String,
    /// NPC ally.
    pub ally: bool,
    /// Level.
    pub level: u32,
    /// Health.
    pub health: u32,
    /// Max Health.
    pub max_health: u32,
    /// AP.
    pub ap: u32,
    /// Zone.
    pub zone: String,
    /// Items.
    pub items: Vec<String>,
    /// Roleplay Bonus per Stat.
    pub roleplay_bonus: Vec<(Stat, u32)>,
    /// Total SP.
    pub total_sp: u32,
    /// Grappled or ensnared by.
    pub held_by: Option<String>,
    /// Dead (Death Rolls).
    pub dead: bool,
    /// Permanent wounds.
    pub wounds: u32,
}

/// An enemy as a seat sees it: players see no Health numbers (the pool is the GM's).
#[derive(Clone, Debug, Serialize)]
pub struct EnemyView {
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: String,
    /// Zone.
    pub zone: String,
    /// Health, for the GM only.
    pub health: Option<u32>,
    /// At 0 Health.
    pub defeated: bool,
    /// In shadow form.
    pub shadow: bool,
}

/// What one seat may see.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The seat.
    pub seat: Seat,
    /// The title.
    pub title: String,
    /// Out of combat or the phase.
    pub mode: Mode,
    /// The last combat's outcome.
    pub outcome: Option<Outcome>,
    /// Players and allies.
    pub heroes: Vec<HeroView>,
    /// Enemies.
    pub enemies: Vec<EnemyView>,
    /// Zones.
    pub zones: Vec<String>,
    /// The GM's Rolls left (GM only).
    pub rolls_left: Option<Purchase>,
    /// The enemy Health pool and reserve (GM only).
    pub health_pool: Option<(u32, u32)>,
    /// Party Stat Points.
    pub psp: u32,
}

/// What `seat` may see: everything but the enemies' Health, Rolls and pool,
/// which are the GM's.
pub fn view(s: &State, seat: &Seat) -> View {
    let gm = seat.is_gm();
    View {
        seat: seat.clone(),
        title: s.title.clone(),
        mode: s.mode,
        outcome: s.outcome,
        heroes: s
            .heroes
            .iter()
            .map(|h| HeroView {
                name: h.name().to_string(),
                ally: h.ally,
                level: h.character.level(),
                health: h.health,
                max_health: h.max_health,
                ap: h.ap,
                zone: s.zones.name(h.zone).to_string(),
                items: h.items.clone(),
                roleplay_bonus: Stat::ALL
                    .iter()
                    .map(|&st| (st, h.character.roleplay_bonus(st)))
                    .collect(),
                total_sp: h.character.total_sp(),
                held_by: h
                    .grappled_by
                    .or(h.ensnared_by)
                    .and_then(|e| s.enemies.get(e))
                    .map(|e| e.name.clone()),
                dead: h.dead,
                wounds: h.wounds,
            })
            .collect(),
        enemies: s
            .enemies
            .iter()
            .map(|e| EnemyView {
                name: e.name.clone(),
                kind: e.kind.clone(),
                zone: s.zones.name(e.zone).to_string(),
                health: gm.then_some(e.health),
                defeated: e.health == 0,
                shadow: e.shadow,
            })
            .collect(),
        zones: s.zones.names().to_vec(),
        rolls_left: gm.then(|| s.rolls_left()),
        health_pool: gm.then_some((s.health_pool, s.reserve)),
        psp: s.psp,
    }
}
