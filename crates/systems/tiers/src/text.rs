//! Terminal play: reading command lines, describing events, the status line.
//!
//! Names with spaces are typed with `_` (`Even_Steven`, `Ice_Cream_Shop`) or,
//! where a command takes the rest of the line, as they are (`item Fast Potion`).
//!
//! | line | command |
//! |---|---|
//! | `roll STAT GOAL` | out of combat: d6 + Roleplay Bonus against a Goal (number or difficulty) |
//! | `compete NAME STAT NAME STAT` | GM: Competing Rolls |
//! | `consent ACTOR` | a player agrees to be the Defendant of a PvP Roll by ACTOR |
//! | `pvp ACTOR STAT DEFENDANT STAT` | GM: a PvP Roll |
//! | `super6`, `rest HOURS` | custom rules |
//! | `fight`, `end-phase` (`next`), `end-combat`, `close` | GM |
//! | `act ACTION [on TARGET] [cover]` | player: an Action |
//! | `move ZONE [> ZONE ...]` | player: 1 AP per Zone |
//! | `item ITEM [on PLAYER]` | player: an Item |
//! | `roleplay STAT D3 GOAL`, `roleplay STAT D3 vs ENEMY` | player: 1 AP per d3 |
//! | `answer [d6=N] [d3=N] [cp=N]` | GM: raise the enemy's free 1d3 |
//! | `spend ENEMY USE [d6=N] [d3=N] [cp=N] [heal=N] [to=ZONE] [on TARGET]` | GM: a roll use |
//! | `move-enemy ENEMY ZONE [pay=d3\|cp]`, `move-player PLAYER ZONE [pay=d3\|cp]` | GM |
//! | `spawn NAME KIND health=N zone=ZONE` | GM: Health from the pool's reserve |
//! | `emerge ENEMY [pay=d3\|d6]` | GM: a Shadow Goblin leaves its shadow (it sinks by itself when dealt damage; `sink` is refused) |
//! | `ensnare ENEMY PLAYER [pay=d3\|cp]`, `absorb ENEMY [d6=N] [d3=N] [cp=N]` | GM: Enchanted Armor |
//! | `ALLY act ...`, `ALLY move ...`, `ALLY item ...`, `ALLY roleplay ...` | GM: an NPC ally's command (`GM: Steve move Yard`) |

use std::collections::BTreeMap;

use crate::character::Stat;
use crate::decide::{Command, Pay};
use crate::gm::Purchase;
use crate::roleplay::{ContestResult, TieRule, parse_goal};
use crate::table::{Event, Mode, Outcome, Phase, State, Target};
use tabula_core::{CommandParseError, Seat};

const COMMANDS: &str = "roll, compete, consent, pvp, super6, rest, fight, end-phase, end-combat, close, act, move, item, roleplay, answer, spend, move-enemy, move-player, spawn, sink, emerge, ensnare, absorb; the GM plays an NPC ally with ALLY COMMAND";

/// Words that start a command (and may not name an NPC ally).
const COMMAND_WORDS: [&str; 27] = [
    "roll",
    "compete",
    "consent",
    "pvp",
    "super6",
    "super-6",
    "rest",
    "fight",
    "end-phase",
    "next",
    "end-combat",
    "close",
    "act",
    "move",
    "item",
    "use",
    "roleplay",
    "answer",
    "spend",
    "move-enemy",
    "move-player",
    "spawn",
    "sink",
    "emerge",
    "ensnare",
    "absorb",
    "help",
];

/// True when `word` starts a command (any case).
pub fn is_command(word: &str) -> bool {
    let w = word.trim().to_lowercase();
    COMMAND_WORDS.contains(&w.as_str())
}

struct Line<'a> {
    cmd: String,
    words: Vec<&'a str>,
    keys: BTreeMap<String, &'a str>,
}

fn split(line: &str) -> Line<'_> {
    let mut it = line.split_whitespace();
    let cmd = it.next().unwrap_or("").to_ascii_lowercase();
    let mut words = Vec::new();
    let mut keys = BTreeMap::new();
    for w in it {
        match w.split_once('=') {
            Some((k, v)) if !k.is_empty() => {
                keys.insert(k.to_ascii_lowercase(), v);
            }
            _ => words.push(w),
        }
    }
    Line { cmd, words, keys }
}

fn args(command: &str, problem: impl Into<String>, usage: &str) -> CommandParseError {
    CommandParseError::Arguments {
        command: command.to_string(),
        problem: problem.into(),
        usage: usage.to_string(),
    }
}

fn stat(cmd: &str, w: Option<&&str>, usage: &str) -> Result<Stat, CommandParseError> {
    let w = w.ok_or_else(|| args(cmd, "a Stat is missing", usage))?;
    Stat::parse(w).ok_or_else(|| {
        args(
            cmd,
            format!("{w:?} is not a Stat (strength, skill, support, scharisma)"),
            usage,
        )
    })
}

fn num(cmd: &str, name: &str, w: Option<&str>, usage: &str) -> Result<u32, CommandParseError> {
    match w {
        None => Ok(0),
        Some(t) => t.parse::<u32>().map_err(|_| {
            args(
                cmd,
                format!("{name} must be a whole number, not {t:?}"),
                usage,
            )
        }),
    }
}

fn word(cmd: &str, what: &str, w: Option<&&str>, usage: &str) -> Result<String, CommandParseError> {
    w.map(|s| s.to_string())
        .ok_or_else(|| args(cmd, format!("{what} is missing"), usage))
}

fn pay(cmd: &str, w: Option<&str>, usage: &str) -> Result<Pay, CommandParseError> {
    match w.map(str::to_ascii_lowercase).as_deref() {
        None | Some("d3") => Ok(Pay::D3),
        Some("cp") => Ok(Pay::Cp),
        Some("d6") => Ok(Pay::D6),
        Some(o) => Err(args(cmd, format!("pay={o} (use d3, d6 or cp)"), usage)),
    }
}

fn dice(l: &Line<'_>, usage: &str) -> Result<Purchase, CommandParseError> {
    for k in l.keys.keys() {
        if !["d6", "d3", "cp", "heal", "to", "pay", "health", "zone"].contains(&k.as_str()) {
            return Err(args(&l.cmd, format!("unknown key {k}="), usage));
        }
    }
    Ok(Purchase {
        d6: num(&l.cmd, "d6", l.keys.get("d6").copied(), usage)?,
        d3: num(&l.cmd, "d3", l.keys.get("d3").copied(), usage)?,
        combat_points: num(&l.cmd, "cp", l.keys.get("cp").copied(), usage)?,
    })
}

/// Split words at a lone `on`: (before, after).
fn split_on<'a>(words: &[&'a str]) -> (Vec<&'a str>, Option<Vec<&'a str>>) {
    match words.iter().position(|w| w.eq_ignore_ascii_case("on")) {
        Some(p) => (
            words.get(..p).map(<[_]>::to_vec).unwrap_or_default(),
            Some(words.get(p + 1..).map(<[_]>::to_vec).unwrap_or_default()),
        ),
        None => (words.to_vec(), None),
    }
}

/// Read one command line.
///
/// # Errors
/// [`CommandParseError`] naming the command or argument.
pub fn parse(s: &State, seat: &Seat, line: &str) -> Result<Command, CommandParseError> {
    // "Phases": the GM plays the NPC allies, `GM: Steve move Yard`.
    if seat.is_gm() {
        let mut it = line.trim_start().splitn(2, char::is_whitespace);
        let first = it.next().unwrap_or("");
        if !is_command(first) && s.hero(first).is_some() {
            let rest = it.next().unwrap_or("").trim();
            if rest.is_empty() {
                return Err(args(
                    first,
                    "the ally's command is missing",
                    "ALLY act|move|item|roleplay|roll|rest ...",
                ));
            }
            let does = parse(s, &Seat::Player(first.to_string()), rest)?;
            return Ok(Command::Ally {
                ally: first.to_string(),
                does: Box::new(does),
            });
        }
    }
    let l = split(line);
    let c = l.cmd.as_str();
    let w = &l.words;
    match c {
        "roll" => {
            let u = "roll STAT GOAL";
            let goal = parse_goal(&word(c, "the Goal", w.get(1), u)?)
                .map_err(|e| args(c, e.to_string(), u))?;
            Ok(Command::Roll {
                stat: stat(c, w.first(), u)?,
                goal,
            })
        }
        "compete" | "pvp" => {
            let u = if c == "pvp" {
                "pvp ACTOR STAT DEFENDANT STAT"
            } else {
                "compete NAME STAT NAME STAT"
            };
            let a = word(c, "the first character", w.first(), u)?;
            let sa = stat(c, w.get(1), u)?;
            let b = word(c, "the second character", w.get(2), u)?;
            let sb = stat(c, w.get(3), u)?;
            Ok(if c == "pvp" {
                Command::Pvp {
                    actor: a,
                    actor_stat: sa,
                    defendant: b,
                    defendant_stat: sb,
                }
            } else {
                Command::Compete {
                    first: a,
                    first_stat: sa,
                    second: b,
                    second_stat: sb,
                }
            })
        }
        "consent" => Ok(Command::Consent {
            actor: word(c, "the actor", w.first(), "consent ACTOR")?,
        }),
        "super6" | "super-6" => Ok(Command::Super6),
        "rest" => Ok(Command::Rest {
            hours: num(c, "hours", w.first().copied(), "rest HOURS")?,
        }),
        "fight" => Ok(Command::Fight),
        "end-phase" | "next" => Ok(Command::EndPhase),
        "end-combat" => Ok(Command::EndCombat),
        "close" => Ok(Command::Close),
        "act" => {
            let u = "act ACTION [on TARGET] [cover]";
            let mut words = w.clone();
            let cover = words
                .last()
                .is_some_and(|x| x.eq_ignore_ascii_case("cover"));
            if cover {
                words.pop();
            }
            let (name, target) = split_on(&words);
            if name.is_empty() {
                return Err(args(c, "the Action is missing", u));
            }
            Ok(Command::Act {
                action: name.join(" "),
                target: target.filter(|t| !t.is_empty()).map(|t| t.join(" ")),
                cover,
            })
        }
        "move" => {
            let rest = w.join(" ");
            let path: Vec<String> = rest
                .split(['>', ','])
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(String::from)
                .collect();
            if path.is_empty() {
                return Err(args(c, "the Zone is missing", "move ZONE [> ZONE ...]"));
            }
            Ok(Command::Move { path })
        }
        "item" | "use" => {
            let (name, target) = split_on(w);
            if name.is_empty() {
                return Err(args(c, "the Item is missing", "item ITEM [on PLAYER]"));
            }
            Ok(Command::UseItem {
                item: name.join(" "),
                target: target.filter(|t| !t.is_empty()).map(|t| t.join(" ")),
            })
        }
        "roleplay" => {
            let u = "roleplay STAT D3 GOAL | roleplay STAT D3 vs ENEMY";
            let st = stat(c, w.first(), u)?;
            let d3 = num(c, "d3", Some(&word(c, "the number of d3", w.get(1), u)?), u)?;
            if w.get(2).is_some_and(|x| x.eq_ignore_ascii_case("vs")) {
                Ok(Command::RoleplayVs {
                    enemy: word(c, "the enemy", w.get(3), u)?,
                    stat: st,
                    d3,
                })
            } else {
                let goal = parse_goal(&word(c, "the Goal", w.get(2), u)?)
                    .map_err(|e| args(c, e.to_string(), u))?;
                Ok(Command::Roleplay { stat: st, d3, goal })
            }
        }
        "answer" => Ok(Command::Answer {
            raise: dice(&l, "answer [d6=N] [d3=N] [cp=N]")?,
        }),
        "spend" => {
            let u = "spend ENEMY USE [d6=N] [d3=N] [cp=N] [heal=N] [to=ZONE] [on TARGET]";
            let (before, target) = split_on(w);
            let en = word(c, "the enemy", before.first(), u)?;
            let use_name = before.get(1..).map(|x| x.join(" ")).unwrap_or_default();
            if use_name.is_empty() {
                return Err(args(c, "the roll use is missing (Bite, Block, ...)", u));
            }
            Ok(Command::Spend {
                enemy: en,
                use_name,
                dice: dice(&l, u)?,
                heal_d6: num(c, "heal", l.keys.get("heal").copied(), u)?,
                target: target.filter(|t| !t.is_empty()).map(|t| t.join(" ")),
                to: l.keys.get("to").map(|s| s.to_string()),
            })
        }
        "move-enemy" | "move-player" => {
            let u = "move-enemy ENEMY ZONE [pay=d3|cp]";
            let who = word(c, "who moves", w.first(), u)?;
            let to = w.get(1..).map(|x| x.join(" ")).unwrap_or_default();
            if to.is_empty() {
                return Err(args(c, "the Zone is missing", u));
            }
            let pay = pay(c, l.keys.get("pay").copied(), u)?;
            Ok(if c == "move-enemy" {
                Command::MoveEnemy {
                    enemy: who,
                    to,
                    pay,
                }
            } else {
                Command::MovePlayer {
                    player: who,
                    to,
                    pay,
                }
            })
        }
        "spawn" => {
            let u = "spawn NAME KIND health=N zone=ZONE";
            let name = word(c, "the name", w.first(), u)?;
            let kind = w.get(1..).map(|x| x.join(" ")).unwrap_or_default();
            Ok(Command::Spawn {
                name,
                kind,
                health: num(c, "health", l.keys.get("health").copied(), u)?,
                zone: l
                    .keys
                    .get("zone")
                    .map(|s| s.to_string())
                    .ok_or_else(|| args(c, "zone= is missing", u))?,
            })
        }
        "sink" | "emerge" => {
            let u = "sink ENEMY [pay=d3|d6]";
            let en = word(c, "the enemy", w.first(), u)?;
            let pay = pay(c, l.keys.get("pay").copied(), u)?;
            Ok(if c == "sink" {
                Command::Sink { enemy: en, pay }
            } else {
                Command::Emerge { enemy: en, pay }
            })
        }
        "ensnare" => {
            let u = "ensnare ENEMY PLAYER [pay=d3|cp]";
            Ok(Command::Ensnare {
                enemy: word(c, "the enemy", w.first(), u)?,
                player: word(c, "the player", w.get(1), u)?,
                pay: pay(c, l.keys.get("pay").copied(), u)?,
            })
        }
        "absorb" => {
            let u = "absorb ENEMY [d6=N] [d3=N] [cp=N]";
            Ok(Command::Absorb {
                enemy: word(c, "the enemy", w.first(), u)?,
                dice: dice(&l, u)?,
            })
        }
        other => Err(CommandParseError::Unknown {
            got: other.to_string(),
            known: COMMANDS.to_string(),
        }),
    }
}

fn result_text(r: ContestResult, first: &str, second: &str) -> String {
    match r {
        ContestResult::First => format!("{first} wins"),
        ContestResult::Second => format!("{second} wins"),
        ContestResult::Tie(TieRule::NothingHappens) => "a tie: nothing happens".into(),
        ContestResult::Tie(TieRule::RollAgain) => "a tie: roll again".into(),
    }
}

/// One line (or a few) for an event, with every die.
pub fn describe(s: &State, e: &Event) -> String {
    let hero = |i: usize| s.heroes.get(i).map_or("?", |h| h.name()).to_string();
    let enemy = |i: usize| {
        s.enemies
            .get(i)
            .map_or("?", |x| x.name.as_str())
            .to_string()
    };
    let zone = |i: usize| s.zones.name(i).to_string();
    match e {
        Event::Rolled {
            hero: h,
            stat,
            outcome,
        } => format!(
            "{} rolls {stat}: {} against Goal {}{}: {}",
            hero(*h),
            outcome.roll.describe(),
            outcome.goal,
            outcome
                .difficulty
                .map(|d| format!(" ({})", d.name()))
                .unwrap_or_default(),
            if outcome.success {
                "success"
            } else {
                "failure"
            }
        ),
        Event::Contested {
            first,
            second,
            first_roll,
            second_roll,
            result,
            about,
            contest,
        } => format!(
            "{} roll ({about}): {first} {} vs {second} {}: {}",
            match contest {
                crate::roleplay::Contest::Pvp { .. } => "PvP",
                crate::roleplay::Contest::Competing { .. } => "Competing",
            },
            first_roll.describe(),
            second_roll.describe(),
            result_text(*result, first, second)
        ),
        Event::ConsentGiven { defendant, actor } => format!(
            "{} consents to a PvP Roll by {} and is the Defendant",
            hero(*defendant),
            hero(*actor)
        ),
        Event::ConsentUsed { .. } => "(the consent is used)".into(),
        Event::Super6 {
            hero: h,
            dice: [a, b],
            success,
        } => format!(
            "{} tries a Super 6: 2d6 [{a}, {b}]: {}",
            hero(*h),
            if *success {
                "both 6s, the cool thing happens!"
            } else {
                "not both 6s"
            }
        ),
        Event::Rested {
            hero: h,
            dice,
            healed,
        } => format!(
            "{} rests {} hour(s): {}d6 {:?}, heals {healed} (Health {})",
            hero(*h),
            dice.len(),
            dice.len(),
            dice,
            s.heroes.get(*h).map_or(0, |x| x.health)
        ),
        Event::CombatStarted => "Combat begins.".into(),
        Event::PhaseBegan { phase, round } => match phase {
            Phase::Enemy => format!(
                "Round {round}: the Enemy Phase begins; the enemies' Rolls are ready again."
            ),
            Phase::Player => {
                format!("Round {round}: the Player Phase begins; every player has 6 AP.")
            }
        },
        Event::ApSpent { hero: h, ap } => format!(
            "{} spends {ap} AP ({} left)",
            hero(*h),
            s.heroes.get(*h).map_or(0, |x| x.ap)
        ),
        Event::RollsSpent { spent } => {
            let left = s.rolls_left();
            format!(
                "the GM spends {}d6 + {}d3 + {} CP (left: {}d6 + {}d3 + {} CP)",
                spent.d6, spent.d3, spent.combat_points, left.d6, left.d3, left.combat_points
            )
        }
        Event::ActionRolled {
            hero: h,
            action,
            roll,
            critical,
            amount,
        } => format!(
            "{} uses {action}: {}{}",
            hero(*h),
            roll.describe(),
            match critical {
                Some(6) => format!(", critical d6 [6]: doubled to {amount}!"),
                Some(d) => format!(", critical d6 [{d}]: no critical"),
                None => String::new(),
            }
        ),
        Event::EnemyRolled {
            enemy: x,
            use_name,
            roll,
        } => format!(
            "{} uses {use_name}: {} (the + is Combat Points)",
            enemy(*x),
            roll.describe()
        ),
        Event::Damaged {
            target,
            rolled,
            prevented,
            dealt,
        } => {
            let health = match target {
                Target::Hero(i) => s.heroes.get(*i).map_or(0, |h| h.health),
                Target::Enemy(i) => s.enemies.get(*i).map_or(0, |x| x.health),
            };
            format!(
                "{} takes {dealt} damage{} (Health {health})",
                s.target_name(*target),
                if *prevented > 0 {
                    format!(" ({rolled} less {prevented} reduced)")
                } else {
                    String::new()
                }
            )
        }
        Event::Healed { target, amount } => {
            let health = match target {
                Target::Hero(i) => s.heroes.get(*i).map_or(0, |h| h.health),
                Target::Enemy(i) => s.enemies.get(*i).map_or(0, |x| x.health),
            };
            format!(
                "{} heals {amount} (Health {health})",
                s.target_name(*target)
            )
        }
        Event::Reduction { hero: h, amount } => {
            format!("{}'s next damage is reduced by {amount}", hero(*h))
        }
        Event::Attacked { enemy: x, hero: h } => format!("{} attacks {}", hero(*h), enemy(*x)),
        Event::Blocked { enemy: x, amount } => {
            format!(
                "{} will block {amount} damage of the next attack",
                enemy(*x)
            )
        }
        Event::HeroMoved { hero: h, path } => format!(
            "{} moves to {}",
            hero(*h),
            path.iter()
                .map(|z| zone(*z))
                .collect::<Vec<_>>()
                .join(" > ")
        ),
        Event::EnemyMoved { enemy: x, to } => format!("{} moves to {}", enemy(*x), zone(*to)),
        Event::ItemUsed { hero: h, item } => format!("{} uses a {item}", hero(*h)),
        Event::TurretPlaced { turret } => format!(
            "{} drops a turret in {} (Health {}, deals {})",
            hero(turret.owner),
            zone(turret.zone),
            turret.health,
            turret.damage
        ),
        Event::TurretFired { turret, enemy: x } => format!(
            "the turret in {} fires at {}",
            s.turrets
                .get(*turret)
                .map_or(String::new(), |t| zone(t.zone)),
            enemy(*x)
        ),
        Event::Grappled { enemy: x, hero: h } => {
            format!("{} grapples {}: they cannot move away", enemy(*x), hero(*h))
        }
        Event::Released { hero: h } => format!("{} is free of the grapple", hero(*h)),
        Event::Screeched { enemy: x, hero: h } => match h {
            Some(h) => format!(
                "{} screeches at {} and threatens the other Goblins",
                enemy(*x),
                hero(*h)
            ),
            None => format!("{} screeches and threatens the other Goblins", enemy(*x)),
        },
        Event::Ensnared { enemy: x, hero: h } => format!(
            "{} ensnares {}: trapped inside, they cannot move away, help or heal allies",
            enemy(*x),
            hero(*h)
        ),
        Event::Shadow { enemy: x, on } => {
            if *on {
                format!("{} sinks into a shadow on the ground", enemy(*x))
            } else {
                format!("{} rises out of its shadow", enemy(*x))
            }
        }
        Event::FellToZero { hero: h } => format!(
            "{} reaches 0 Health: out of the fight, and cannot be healed",
            hero(*h)
        ),
        Event::DeathRoll { hero: h, die, dead } => format!(
            "{} makes a Death Roll: d6 [{die}]: {}",
            hero(*h),
            if *dead {
                "odd, dead"
            } else {
                "even, fine but at 0 Health"
            }
        ),
        Event::Wounded { hero: h } => format!("{} suffers a permanent wound", hero(*h)),
        Event::EnemyDefeated { enemy: x } => format!("{} is defeated", enemy(*x)),
        Event::EnemySpawned { enemy: x } => format!(
            "{} ({}) joins in {} with {} Health (reserve left: {})",
            x.name,
            x.kind,
            zone(x.zone),
            x.health,
            s.reserve
        ),
        Event::PendingSet { pending } => format!(
            "{} rolls against {}: the GM answers (the enemy rolls a free 1d3; `answer [d3=N] [cp=N]` raises it)",
            hero(pending.hero),
            enemy(pending.enemy)
        ),
        Event::PendingCleared => "(the Competing Roll is settled)".into(),
        Event::CombatEnded { outcome, healed } => format!(
            "Combat ends: {}.{}",
            match outcome {
                Outcome::Won => "every enemy is defeated, the players win",
                Outcome::Lost => "every player is at 0 Health, the players lose",
                Outcome::Ended => "the GM ends it",
            },
            if *healed {
                " Players are fully healed."
            } else {
                " No full heal."
            }
        ),
        Event::Closed => "The GM closes the session.".into(),
    }
}

/// The status line: mode, phase, each hero and enemy, the Rolls left.
pub fn status(s: &State, seat: &Seat) -> String {
    let mut parts = Vec::new();
    parts.push(match s.mode {
        Mode::Roleplay => match s.outcome {
            Some(o) => format!("Out of combat (last combat: {o:?})"),
            None => "Out of combat".into(),
        },
        Mode::Combat { phase, round } => format!(
            "Round {round}, {} Phase",
            if phase == Phase::Enemy {
                "Enemy"
            } else {
                "Player"
            }
        ),
    });
    let heroes: Vec<String> = s
        .heroes
        .iter()
        .map(|h| {
            format!(
                "{}{} {}/{} HP {} AP @{}{}",
                h.name(),
                if h.ally { " (ally)" } else { "" },
                h.health,
                h.max_health,
                h.ap,
                s.zones.name(h.zone),
                if h.dead { " dead" } else { "" }
            )
        })
        .collect();
    parts.push(heroes.join("; "));
    if !s.enemies.is_empty() {
        let gm = seat.is_gm();
        let enemies: Vec<String> = s
            .enemies
            .iter()
            .map(|x| {
                let hp = if x.health == 0 {
                    "defeated".to_string()
                } else if gm {
                    format!("{} HP", x.health)
                } else {
                    "up".to_string()
                };
                format!(
                    "{} ({}) {hp} @{}{}",
                    x.name,
                    x.kind,
                    s.zones.name(x.zone),
                    if x.shadow { " in shadow" } else { "" }
                )
            })
            .collect();
        parts.push(format!("Enemies: {}", enemies.join("; ")));
    }
    if seat.is_gm() && s.phase().is_some() {
        let l = s.rolls_left();
        parts.push(format!(
            "Rolls left: {}d6 {}d3 {} CP (reserve {} Health)",
            l.d6, l.d3, l.combat_points, s.reserve
        ));
    }
    if s.pending.is_some() {
        parts.push("waiting for the GM's answer".into());
    }
    // The same numbers `TextPlay::odds` offers (`odds::choices`).
    let odds = crate::odds::choices(s, seat);
    if !odds.is_empty() {
        let shown: Vec<String> = odds
            .iter()
            .map(|o| format!("{} {:.0}%", o.choice, o.probability * 100.0))
            .collect();
        parts.push(format!("odds: {}", shown.join(", ")));
    }
    parts.join(" | ")
}
