//! Describing events for the log, for the GM and for a player, and the
//! status line.

use super::*;

fn result_text(r: ContestResult, first: &str, second: &str) -> String {
    match r {
        ContestResult::First => format!("{first} wins"),
        ContestResult::Second => format!("{second} wins"),
        ContestResult::Tie(TieRule::NothingHappens) => "a tie: nothing happens".into(),
        ContestResult::Tie(TieRule::RollAgain) => "a tie: roll again".into(),
    }
}

/// The log line `seat` may read for `e` (`s` is the state just after it).
///
/// The GM reads [`describe`]. A player never reads what the GM keeps (the
/// book's "Enemy Health": "all enemies share a pool of Health Points that you
/// choose how to distribute", and the Rolls the GM bought): an enemy's Health
/// after damage or healing is "up" or "defeated", an enemy joining says where,
/// not with how much Health or what reserve is left, and the Rolls the GM spends
/// say what was spent, not what is left. The same split as `status` and `view`
/// (Tiers, "Enemy Health" (002_631931fd73349179.txt); issue 27, bug 13).
pub fn describe_for(s: &State, e: &Event, seat: &Seat) -> String {
    if seat.is_gm() {
        return describe(s, e);
    }
    let enemy_state = |i: usize| {
        if s.enemies.get(i).is_some_and(|x| x.health > 0) {
            "up"
        } else {
            "defeated"
        }
    };
    match e {
        Event::Damaged {
            target: Target::Enemy(i),
            rolled,
            prevented,
            dealt,
        } => format!(
            "{} takes {dealt} damage{} ({})",
            s.target_name(Target::Enemy(*i)),
            if *prevented > 0 {
                format!(" ({rolled} less {prevented} reduced)")
            } else {
                String::new()
            },
            enemy_state(*i)
        ),
        Event::Healed {
            target: Target::Enemy(i),
            amount,
        } => format!(
            "{} heals {amount} ({})",
            s.target_name(Target::Enemy(*i)),
            enemy_state(*i)
        ),
        Event::EnemySpawned { enemy: x } => {
            format!("{} ({}) joins in {}", x.name, x.kind, s.zones.name(x.zone))
        }
        Event::RollsSpent { spent } => format!(
            "the GM spends {}d6 + {}d3 + {} CP",
            spent.d6, spent.d3, spent.combat_points
        ),
        Event::EnemyAdjusted { enemy: x, .. } => format!(
            "The GM adjusts {}'s Health ({})",
            s.target_name(Target::Enemy(*x)),
            enemy_state(*x)
        ),
        Event::ReserveAdjusted { .. } => "The GM adjusts the enemies' Health pool".into(),
        _ => describe(s, e),
    }
}

/// The event as `seat` may see it: everything, except that a player gets no
/// copy of [`Event::EnemySpawned`], [`Event::EnemyAdjusted`] or
/// [`Event::ReserveAdjusted`] (they carry the enemies' Health, the GM's),
/// only [`describe_for`]'s line.
pub fn event_for(e: &Event, seat: &Seat) -> Option<Event> {
    match e {
        Event::EnemySpawned { .. }
        | Event::EnemyAdjusted { .. }
        | Event::ReserveAdjusted { .. }
            if !seat.is_gm() =>
        {
            None
        }
        _ => Some(e.clone()),
    }
}

/// One line (or a few) for an event, with every die and everything in it
/// (the GM's; `s` is the state just after `e`).
pub fn describe(s: &State, e: &Event) -> String {
    match e {
        Event::Rolled { .. }
        | Event::Contested { .. }
        | Event::ConsentGiven { .. }
        | Event::ConsentUsed { .. }
        | Event::Super6 { .. }
        | Event::Rested { .. } => describe_out_of_combat(s, e),
        Event::CombatStarted
        | Event::PhaseBegan { .. }
        | Event::PendingSet { .. }
        | Event::PendingCleared
        | Event::CombatEnded { .. }
        | Event::Closed => describe_turns(s, e),
        Event::ApSpent { .. }
        | Event::ActionRolled { .. }
        | Event::Damaged { .. }
        | Event::Healed { .. }
        | Event::Reduction { .. }
        | Event::Attacked { .. }
        | Event::HeroMoved { .. }
        | Event::ItemUsed { .. }
        | Event::TurretPlaced { .. }
        | Event::FellToZero { .. }
        | Event::DeathRoll { .. }
        | Event::Wounded { .. } => describe_players(s, e),
        Event::RollsSpent { .. }
        | Event::EnemyRolled { .. }
        | Event::Blocked { .. }
        | Event::EnemyMoved { .. }
        | Event::TurretFired { .. }
        | Event::Grappled { .. }
        | Event::Released { .. }
        | Event::Screeched { .. }
        | Event::Ensnared { .. }
        | Event::Shadow { .. }
        | Event::EnemyDefeated { .. }
        | Event::EnemySpawned { .. } => describe_enemies(s, e),
        Event::Adjusted { .. }
        | Event::EnemyAdjusted { .. }
        | Event::ReserveAdjusted { .. }
        | Event::Joined { .. }
        | Event::Left { .. } => describe_gm_tools(s, e),
    }
}

/// The name of character `i`, `?` for none.
fn hero_of(s: &State, i: usize) -> String {
    s.heroes.get(i).map_or("?", |h| h.name()).to_string()
}

/// The name of enemy `i`, `?` for none.
fn enemy_of(s: &State, i: usize) -> String {
    s.enemies
        .get(i)
        .map_or("?", |x| x.name.as_str())
        .to_string()
}

/// The name of Zone `i`.
fn zone_of(s: &State, i: usize) -> String {
    s.zones.name(i).to_string()
}

/// An event of the rolls out of combat: a Stat roll against a Goal,
/// Competing and PvP Rolls, consent, Super 6, resting.
///
/// Tiers, "Asking for Rolls", "Competing Rolls", "Player-Versus-Player
/// Rolls", "Custom Rules" (002_631931fd73349179.txt).
fn describe_out_of_combat(s: &State, e: &Event) -> String {
    match e {
        Event::Rolled {
            hero: h,
            stat,
            outcome,
        } => format!(
            "{} rolls {stat}: {} against Goal {}{}: {}",
            hero_of(s, *h),
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
            hero_of(s, *defendant),
            hero_of(s, *actor)
        ),
        Event::ConsentUsed { .. } => "(the consent is used)".into(),
        Event::Super6 {
            hero: h,
            dice: [a, b],
            success,
        } => format!(
            "{} tries a Super 6: 2d6 [{a}, {b}]: {}",
            hero_of(s, *h),
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
            hero_of(s, *h),
            dice.len(),
            dice.len(),
            dice,
            s.heroes.get(*h).map_or(0, |x| x.health)
        ),
        // Not an event of this group: `describe` sends each to its own.
        _ => String::new(),
    }
}

/// An event of the combat's course: it begins, each phase, a Competing
/// Roll waiting for the GM, its end, the session's close.
///
/// Tiers, "Combat", "Phases", "Roleplaying Against Enemies"
/// (002_631931fd73349179.txt).
fn describe_turns(s: &State, e: &Event) -> String {
    match e {
        Event::CombatStarted => "Combat begins.".into(),
        Event::PhaseBegan { phase, round } => match phase {
            Phase::Enemy => format!(
                "Round {round}: the Enemy Phase begins; the enemies' Rolls are ready again."
            ),
            Phase::Player => {
                format!("Round {round}: the Player Phase begins; every player has 6 AP.")
            }
        },
        Event::PendingSet { pending } => format!(
            "{} rolls against {}: the GM answers (the enemy rolls a free 1d3; `answer [d3=N] [cp=N]` raises it)",
            hero_of(s, pending.hero),
            enemy_of(s, pending.enemy)
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
        // Not an event of this group: `describe` sends each to its own.
        _ => String::new(),
    }
}

/// An event of the players' side of combat: AP spent, an Action's roll,
/// damage and healing (of anyone), reductions, attacks, movement, Items,
/// falling to 0 Health, Death Rolls, wounds.
///
/// Tiers, "Actions", "Action Points", "Rolling for Criticals", "Health",
/// "Movement", "Items", "Custom Rules" (002_631931fd73349179.txt).
fn describe_players(s: &State, e: &Event) -> String {
    match e {
        Event::ApSpent { hero: h, ap } => format!(
            "{} spends {ap} AP ({} left)",
            hero_of(s, *h),
            s.heroes.get(*h).map_or(0, |x| x.ap)
        ),
        Event::ActionRolled {
            hero: h,
            action,
            roll,
            critical,
            amount,
        } => format!(
            "{} uses {action}: {}{}",
            hero_of(s, *h),
            roll.describe(),
            match critical {
                Some(6) => format!(", critical d6 [6]: doubled to {amount}!"),
                Some(d) => format!(", critical d6 [{d}]: no critical"),
                None => String::new(),
            }
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
            format!("{}'s next damage is reduced by {amount}", hero_of(s, *h))
        }
        Event::Attacked { enemy: x, hero: h } => {
            format!("{} attacks {}", hero_of(s, *h), enemy_of(s, *x))
        }
        Event::HeroMoved { hero: h, path } => format!(
            "{} moves to {}",
            hero_of(s, *h),
            path.iter()
                .map(|z| zone_of(s, *z))
                .collect::<Vec<_>>()
                .join(" > ")
        ),
        Event::ItemUsed { hero: h, item } => format!("{} uses a {item}", hero_of(s, *h)),
        Event::TurretPlaced { turret } => format!(
            "{} drops a turret in {} (Health {}, deals {})",
            hero_of(s, turret.owner),
            zone_of(s, turret.zone),
            turret.health,
            turret.damage
        ),
        Event::FellToZero { hero: h } => format!(
            "{} reaches 0 Health: out of the fight, and cannot be healed",
            hero_of(s, *h)
        ),
        Event::DeathRoll { hero: h, die, dead } => format!(
            "{} makes a Death Roll: d6 [{die}]: {}",
            hero_of(s, *h),
            if *dead {
                "odd, dead"
            } else {
                "even, fine but at 0 Health"
            }
        ),
        Event::Wounded { hero: h } => format!("{} suffers a permanent wound", hero_of(s, *h)),
        // Not an event of this group: `describe` sends each to its own.
        _ => String::new(),
    }
}

/// An event of the enemies' side: Rolls spent and rolled, Blocks,
/// movement, a turret's shot, grapples, the sample enemies' Responses,
/// defeat, a newcomer from the reserve.
///
/// Tiers, "Describing Rolls", "Enemy Movement", "Enemies", "Enemy Health",
/// "Sample Items" (002_631931fd73349179.txt); R-TI-9.
fn describe_enemies(s: &State, e: &Event) -> String {
    match e {
        Event::RollsSpent { spent } => {
            let left = s.rolls_left();
            format!(
                "the GM spends {}d6 + {}d3 + {} CP (left: {}d6 + {}d3 + {} CP)",
                spent.d6, spent.d3, spent.combat_points, left.d6, left.d3, left.combat_points
            )
        }
        Event::EnemyRolled {
            enemy: x,
            use_name,
            roll,
        } => format!(
            "{} uses {use_name}: {} (the + is Combat Points)",
            enemy_of(s, *x),
            roll.describe()
        ),
        Event::Blocked { enemy: x, amount } => {
            format!(
                "{} will block {amount} damage of the next attack",
                enemy_of(s, *x)
            )
        }
        Event::EnemyMoved { enemy: x, to } => {
            format!("{} moves to {}", enemy_of(s, *x), zone_of(s, *to))
        }
        Event::TurretFired { turret, enemy: x } => format!(
            "the turret in {} fires at {}",
            s.turrets
                .get(*turret)
                .map_or(String::new(), |t| zone_of(s, t.zone)),
            enemy_of(s, *x)
        ),
        Event::Grappled { enemy: x, hero: h } => {
            format!(
                "{} grapples {}: they cannot move away",
                enemy_of(s, *x),
                hero_of(s, *h)
            )
        }
        Event::Released { hero: h } => format!("{} is free of the grapple", hero_of(s, *h)),
        Event::Screeched { enemy: x, hero: h } => match h {
            Some(h) => format!(
                "{} screeches at {} and threatens the other Goblins",
                enemy_of(s, *x),
                hero_of(s, *h)
            ),
            None => format!(
                "{} screeches and threatens the other Goblins",
                enemy_of(s, *x)
            ),
        },
        Event::Ensnared { enemy: x, hero: h } => format!(
            "{} ensnares {}: trapped inside, they cannot move away, help or heal allies",
            enemy_of(s, *x),
            hero_of(s, *h)
        ),
        Event::Shadow { enemy: x, on } => {
            if *on {
                format!("{} sinks into a shadow on the ground", enemy_of(s, *x))
            } else {
                format!("{} rises out of its shadow", enemy_of(s, *x))
            }
        }
        Event::EnemyDefeated { enemy: x } => format!("{} is defeated", enemy_of(s, *x)),
        Event::EnemySpawned { enemy: x } => format!(
            "{} ({}) joins in {} with {} Health (reserve left: {})",
            x.name,
            x.kind,
            zone_of(s, x.zone),
            x.health,
            s.reserve
        ),
        // Not an event of this group: `describe` sends each to its own.
        _ => String::new(),
    }
}

/// An event of the GM's tools: adjusting Health, AP and the reserve, an
/// NPC ally joining, a character leaving.
///
/// Tiers, "Health", "Action Points", "Enemy Health", "Phases"
/// (002_631931fd73349179.txt); the crate's GM tools (issue 27, item 6).
fn describe_gm_tools(s: &State, e: &Event) -> String {
    match e {
        Event::Adjusted {
            hero: h,
            value,
            from,
            to,
        } => format!(
            "The GM sets {}'s {value} to {to} (was {from})",
            hero_of(s, *h)
        ),
        Event::EnemyAdjusted { enemy: x, from, to } => format!(
            "The GM sets {}'s Health to {to} (was {from}; the pool's reserve is now {})",
            enemy_of(s, *x),
            s.reserve
        ),
        Event::ReserveAdjusted { from, to } => format!(
            "The GM sets the enemies' Health reserve to {to} (was {from}; the pool is now {})",
            s.health_pool
        ),
        Event::Joined { hero: h } => format!(
            "{} joins the fight as an NPC ally in {} ({}/{} Health, {} AP); the GM plays it",
            h.name(),
            zone_of(s, h.zone),
            h.health,
            h.max_health,
            h.ap
        ),
        Event::Left { target } => {
            format!("{} leaves the encounter", s.target_name(*target))
        }
        // Not an event of this group: `describe` sends each to its own.
        _ => String::new(),
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
        .filter(|h| !h.left)
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
            .filter(|x| !x.left)
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
            .map(|o| format!("{} {:.1}%", o.choice, o.probability * 100.0))
            .collect();
        parts.push(format!("odds: {}", shown.join(", ")));
    }
    parts.join(" | ")
}
