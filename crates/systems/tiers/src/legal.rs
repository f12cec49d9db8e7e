//! "What may this seat do now": the legal commands with their parameters, and
//! what each seat may see.

use serde::Serialize;

use crate::character::Stat;
use crate::content::When;
use crate::gm::Purchase;
use crate::state::{Mode, Outcome, Phase, State};
use tabula_core::{CommandSpec, ParamSpec, Seat};

fn stats() -> Vec<&'static str> {
    Stat::ALL.iter().map(|s| s.key()).collect()
}

fn typed(name: &str) -> String {
    name.replace(' ', "_")
}

/// The commands `seat` may give now. Each parameter declares how the parser
/// ([`crate::text::parse`]) reads it (issue 26, item 1): the names ending in
/// `=` are [`ParamSpec::equals`] (`d6=2`, `pay=cp`, `zone=Street`); `on`,
/// `vs`, and `add`'s `as` and `at` are [`ParamSpec::keyword`]s (`on Gob`,
/// `vs Gob`); the rest are required positional values, as the usage in
/// [`crate::text::COMMANDS`] has them. Two words the parser requires are
/// declared optional, as these syntaxes are: `spawn`'s `zone=` and the
/// second `roleplay`'s `vs` (the first `roleplay` is the one without it).
pub fn legal_commands(s: &State, seat: &Seat) -> Vec<CommandSpec> {
    let mut out = Vec::new();
    if s.closed {
        return out;
    }
    let left = s.rolls_left();
    if s.pending.is_some() {
        if seat.is_gm() {
            out.push(CommandSpec::new(
                "answer",
                "settle the Competing Roll: the enemy's free 1d3, raised by Rolls or Combat Points",
                vec![
                    ParamSpec::int("d6=", 0, i64::from(left.d6)).equals("d6"),
                    ParamSpec::int("d3=", 0, i64::from(left.d3)).equals("d3"),
                    ParamSpec::int("cp=", 0, i64::from(left.combat_points)).equals("cp"),
                ],
            ));
        }
        return out;
    }
    match seat {
        Seat::Gm => gm_commands(s, &mut out),
        Seat::Player(name) => {
            if let Some(i) = s.hero(name)
                && s.heroes.get(i).is_some_and(|h| !h.ally)
            {
                character_commands(s, i, "", &mut out);
            }
        }
    }
    out
}

fn gm_commands(s: &State, out: &mut Vec<CommandSpec>) {
    gm_adjust(s, out);
    let left = s.rolls_left();
    let alive: Vec<String> = s
        .heroes
        .iter()
        .filter(|h| !h.dead && !h.left)
        .map(|h| typed(h.name()))
        .collect();
    let up: Vec<String> = s
        .heroes
        .iter()
        .filter(|h| h.up())
        .map(|h| typed(h.name()))
        .collect();
    let live_enemies: Vec<String> = s
        .enemies
        .iter()
        .filter(|e| e.standing())
        .map(|e| e.name.clone())
        .collect();
    let zones: Vec<String> = s.zones.names().iter().map(|z| typed(z)).collect();
    match s.mode {
        Mode::Roleplay => {
            if alive.len() >= 2 {
                out.push(CommandSpec::new(
                    "compete",
                    "Competing Rolls: d6 + Roleplay Bonus each, higher does the thing",
                    vec![
                        ParamSpec::choice("first", alive.clone()),
                        ParamSpec::choice("stat", stats()),
                        ParamSpec::choice("second", alive.clone()),
                        ParamSpec::choice("stat", stats()),
                    ],
                ));
            }
            if !s.consents.is_empty() {
                let actors: Vec<String> = s
                    .consents
                    .iter()
                    .filter_map(|(_, a)| s.heroes.get(*a))
                    .map(|h| typed(h.name()))
                    .collect();
                let defendants: Vec<String> = s
                    .consents
                    .iter()
                    .filter_map(|(d, _)| s.heroes.get(*d))
                    .map(|h| typed(h.name()))
                    .collect();
                out.push(CommandSpec::new(
                    "pvp",
                    "a PvP Roll; the Defendant wins ties",
                    vec![
                        ParamSpec::choice("actor", actors),
                        ParamSpec::choice("stat", stats()),
                        ParamSpec::choice("defendant", defendants),
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
                let uses: Vec<String> = s.catalog.uses.iter().map(|u| typed(&u.name)).collect();
                let targets: Vec<String> = up
                    .iter()
                    .chain(live_enemies.iter())
                    .chain(zones.iter())
                    .cloned()
                    .collect();
                out.push(CommandSpec::new(
                    "spend",
                    "an enemy spends Rolls on a roll use (doubled in the Player Phase; also to=ZONE for Shove, heal=N for Drain)",
                    vec![
                        ParamSpec::choice("enemy", live_enemies.clone()),
                        ParamSpec::choice("use", uses),
                        ParamSpec::int("d6=", 0, i64::from(left.d6)).equals("d6"),
                        ParamSpec::int("d3=", 0, i64::from(left.d3)).equals("d3"),
                        ParamSpec::int("cp=", 0, i64::from(left.combat_points)).equals("cp"),
                        ParamSpec::choice("on", targets).keyword("on"),
                    ],
                ));
                out.push(CommandSpec::new(
                    "move-enemy",
                    "move an enemy to a touching, accessible Zone (1d3 or 1 CP)",
                    vec![
                        ParamSpec::choice("enemy", live_enemies.clone()),
                        ParamSpec::choice("zone", zones.clone()),
                        ParamSpec::choice("pay=", ["d3", "cp"]).equals("pay"),
                    ],
                ));
                if !up.is_empty() {
                    out.push(CommandSpec::new(
                        "move-player",
                        "move a player (a d3 or 2 CP per Zone)",
                        vec![
                            ParamSpec::choice("player", up.clone()),
                            ParamSpec::choice("zone", zones.clone()),
                            ParamSpec::choice("pay=", ["d3", "cp"]).equals("pay"),
                        ],
                    ));
                }
            }
            let kind = |f: fn(&crate::content::EnemyKind) -> bool| -> Vec<String> {
                s.enemies
                    .iter()
                    .filter(|e| e.standing() && s.catalog.enemy(&e.kind).is_some_and(f))
                    .map(|e| e.name.clone())
                    .collect()
            };
            let shadows: Vec<String> = s
                .enemies
                .iter()
                .filter(|e| e.standing() && e.shadow)
                .map(|e| e.name.clone())
                .collect();
            if !shadows.is_empty() {
                out.push(CommandSpec::new(
                    "emerge",
                    "leave the shadow form (any roll; doubled in the Player Phase)",
                    vec![
                        ParamSpec::choice("enemy", shadows),
                        ParamSpec::choice("pay=", ["d3", "d6"]).equals("pay"),
                    ],
                ));
            }
            let armors = kind(|k| k.ensnare);
            if !armors.is_empty() && !up.is_empty() {
                out.push(CommandSpec::new(
                    "ensnare",
                    "ensnare a player in its Zone who attacked it this round",
                    vec![
                        ParamSpec::choice("enemy", armors.clone()),
                        ParamSpec::choice("player", up.clone()),
                        ParamSpec::choice("pay=", ["d3", "cp"]).equals("pay"),
                    ],
                ));
                out.push(CommandSpec::new(
                    "absorb",
                    "heal for the rolls, the ensnared player takes half",
                    vec![
                        ParamSpec::choice("enemy", armors),
                        ParamSpec::int("d6=", 0, i64::from(left.d6)).equals("d6"),
                        ParamSpec::int("d3=", 0, i64::from(left.d3)).equals("d3"),
                        ParamSpec::int("cp=", 0, i64::from(left.combat_points)).equals("cp"),
                    ],
                ));
            }
        }
    }
    // "Phases": the GM plays the NPC allies (`GM: Steve move Yard`).
    for (i, h) in s.heroes.iter().enumerate() {
        if h.ally && !h.left {
            let prefix = format!("{} ", typed(h.name()));
            character_commands(s, i, &prefix, out);
        }
    }
    if s.reserve > 0 {
        let kinds: Vec<String> = s.catalog.enemies.iter().map(|k| typed(&k.name)).collect();
        out.push(CommandSpec::new(
            "spawn",
            "an enemy joins with Health from the pool's reserve",
            vec![
                ParamSpec::text("name"),
                ParamSpec::choice("kind", kinds),
                ParamSpec::int("health=", 1, i64::from(s.reserve)).equals("health"),
                ParamSpec::choice("zone=", zones).equals("zone").required(),
            ],
        ));
    }
    out.push(CommandSpec::new("close", "close the session", vec![]));
}

/// The commands of character `i` (a player's own, or an NPC ally's for the GM,
/// each name then starting with `prefix`). The dead take no further part.
fn character_commands(s: &State, i: usize, prefix: &str, out: &mut Vec<CommandSpec>) {
    let Some(h) = s.heroes.get(i) else {
        return;
    };
    if h.dead {
        return;
    }
    let name = |n: &str| format!("{prefix}{n}");
    // The GM's Goal: a number or a difficulty of the Suggested Difficulty
    // Curve ("Asking for Rolls"; issue 27, bug 6).
    let goal = || {
        ParamSpec::number_or_name(
            "goal",
            0,
            i64::from(crate::roleplay::MAX_NUMBER),
            crate::roleplay::Difficulty::ALL.map(crate::roleplay::Difficulty::typed),
        )
    };
    match s.mode {
        Mode::Roleplay => {
            out.push(CommandSpec::new(
                &name("roll"),
                "d6 + the Stat's Roleplay Bonus against the GM's Goal (a number or a difficulty)",
                vec![ParamSpec::choice("stat", stats()), goal()],
            ));
            if !h.ally {
                let others: Vec<String> = s
                    .heroes
                    .iter()
                    .enumerate()
                    .filter(|(j, o)| *j != i && !o.dead && !o.ally)
                    .map(|(_, o)| typed(o.name()))
                    .collect();
                if !others.is_empty() {
                    out.push(CommandSpec::new(
                        &name("consent"),
                        "agree to be the Defendant of a PvP Roll",
                        vec![ParamSpec::choice("actor", others)],
                    ));
                }
            }
            if s.options.custom.resting {
                out.push(CommandSpec::new(
                    &name("rest"),
                    "rest, 1d6 Health per hour",
                    vec![ParamSpec::int(
                        "hours",
                        1,
                        i64::from(crate::command::MAX_REST_HOURS),
                    )],
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
                .map(|a| typed(&a.name))
                .collect();
            if !actions.is_empty() {
                let enemies: Vec<String> = s
                    .enemies
                    .iter()
                    .enumerate()
                    .filter(|(e, x)| x.standing() && h.ensnared_by.is_none_or(|armor| armor == *e))
                    .map(|(_, x)| x.name.clone())
                    .collect();
                let targets: Vec<String> = enemies
                    .into_iter()
                    .chain(s.heroes.iter().filter(|o| o.up()).map(|o| typed(o.name())))
                    .chain(s.zones.names().iter().map(|z| typed(z)))
                    .collect();
                out.push(CommandSpec::new(
                    &name("act"),
                    "use an Action (its AP; at least 1 SP in its tier) on an enemy, a player or a Zone",
                    vec![
                        ParamSpec::choice("action", actions),
                        ParamSpec::choice("on", targets).keyword("on"),
                    ],
                ));
            }
            if phase == Phase::Player && h.ap > 0 {
                let held = h.ensnared_by.is_some()
                    || h.grappled_by
                        .and_then(|g| s.enemies.get(g))
                        .is_some_and(|g| g.standing());
                let near: Vec<String> = crate::combat::steps_for(s, i)
                    .into_iter()
                    .map(|z| typed(s.zones.name(z)))
                    .collect();
                if !held && !near.is_empty() {
                    out.push(CommandSpec::new(
                        &name("move"),
                        "1 AP per touching, accessible Zone; a standing enemy's Zone lets you out only the way you came (R-TI-8)",
                        vec![ParamSpec::choice("zone", near)],
                    ));
                }
                let items: Vec<String> = h
                    .items
                    .iter()
                    .filter_map(|n| s.catalog.item(n))
                    .filter(|d| d.ap() <= h.ap)
                    .map(|d| typed(&d.name))
                    .collect();
                if !items.is_empty() {
                    out.push(CommandSpec::new(
                        &name("item"),
                        "use an Item (Fast 1, Normal 2, Slow 3, Special 4+ AP)",
                        vec![ParamSpec::choice("item", items)],
                    ));
                }
                out.push(CommandSpec::new(
                    &name("roleplay"),
                    "1 AP per d3, + Roleplay Bonus, against a Goal",
                    vec![
                        ParamSpec::choice("stat", stats()),
                        ParamSpec::int("d3", 1, i64::from(h.ap)),
                        goal(),
                    ],
                ));
                let foes: Vec<String> = s
                    .enemies
                    .iter()
                    .filter(|x| x.standing())
                    .map(|x| x.name.clone())
                    .collect();
                if !foes.is_empty() {
                    out.push(CommandSpec::new(
                        &name("roleplay"),
                        "1 AP per d3, + Roleplay Bonus, against an enemy's free 1d3 (the GM answers)",
                        vec![
                            ParamSpec::choice("stat", stats()),
                            ParamSpec::int("d3", 1, i64::from(h.ap)),
                            ParamSpec::choice("vs", foes).keyword("vs").required(),
                        ],
                    ));
                }
            }
        }
        Mode::Combat { .. } => {}
    }
    if s.options.custom.super_6 && !h.ally {
        out.push(CommandSpec::new(
            &name("super6"),
            "2d6 for an incredibly unlikely, very cool thing: both 6s",
            vec![],
        ));
    }
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
            .filter(|h| !h.left)
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
            .filter(|e| !e.left)
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

/// The GM's tools (issue 27, item 6): `adjust` (a living character's Health
/// or AP, an enemy's Health, the pool's reserve), and in combat `add` (a
/// table character or a bundled sheet joins as an NPC ally, `as NAME`, `at
/// ZONE`) and `remove` (an NPC ally or an enemy leaves).
fn gm_adjust(s: &State, out: &mut Vec<CommandSpec>) {
    out.push(CommandSpec::new(
        "adjust",
        "set (N) or change (+N, -N) a character's Health or AP, an enemy's Health or the pool's reserve",
        vec![
            ParamSpec::choice(
                "character",
                crate::gm::adjustable(s).iter().map(|n| typed(n)),
            ),
            ParamSpec::choice("value", crate::gm::HeroValue::ALL.iter().map(|v| v.key())),
            ParamSpec::text("amount"),
        ],
    ));
    if s.phase().is_none() {
        return;
    }
    if s.heroes.len() < crate::setup::MAX_SEATS * 2 {
        let kinds: Vec<String> = crate::gm::addable(s)
            .iter()
            .filter(|c| !c.dead())
            .map(|c| typed(c.name()))
            .collect();
        if !kinds.is_empty() {
            out.push(CommandSpec::new(
                "add",
                "a character joins as an NPC ally (one of the table's or a bundled sheet)",
                vec![
                    ParamSpec::choice_or_sheet("character", kinds),
                    ParamSpec::text("as").keyword("as"),
                    ParamSpec::choice("at", s.zones.names().iter().map(|z| typed(z))).keyword("at"),
                ],
            ));
        }
    }
    let removable = crate::gm::removable(s);
    if !removable.is_empty() {
        out.push(CommandSpec::new(
            "remove",
            "an NPC ally or an enemy leaves the encounter",
            vec![ParamSpec::choice(
                "character",
                removable.iter().map(|n| typed(n)),
            )],
        ));
    }
}
