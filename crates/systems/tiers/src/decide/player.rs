//! The Player Phase: Actions, Movement, Items and roleplaying in combat (a
//! player for their own character, the GM for an NPC ally).
//!
//! Tiers, "Player Phase", "Actions", "Movement", "Items", "Roleplaying in
//! Combat" (002_631931fd73349179.txt).

use super::*;

/// Decide the commands of this part (`cmd` is one of them; others add nothing).
pub(super) fn decide(
    s: &State,
    seat: &By,
    cmd: &Command,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    match cmd {
        Command::Act {
            action,
            target,
            cover,
        } => act(s, seat, action, target.as_deref(), *cover, roller, out)?,
        Command::Move { path } => {
            let i = hero_seat(s, seat)?;
            player_phase(s, When::PlayerPhase)?;
            up(s, i)?;
            if path.is_empty() || path.len() > crate::character::MAX_AP as usize {
                return Err(RuleError::out_of_range(
                    rules::MOVEMENT,
                    "Zones in one move",
                    1,
                    i64::from(crate::character::MAX_AP),
                    path.len() as i64,
                ));
            }
            let zones = path
                .iter()
                .map(|z| find_zone(s, z))
                .collect::<R<Vec<usize>>>()?;
            check_free_to_move(s, i)?;
            check_path(s, i, &zones)?;
            out.push(spend_ap(s, i, zones.len() as u32)?);
            out.push(Event::HeroMoved {
                hero: i,
                path: zones,
            });
        }
        Command::UseItem { item, target } => {
            use_item(s, seat, item, target.as_deref(), out)?;
        }
        Command::Roleplay { stat, d3, goal } => {
            let i = hero_seat(s, seat)?;
            player_phase(s, When::PlayerPhase)?;
            let h = up(s, i)?;
            if *d3 == 0 {
                return Err(RuleError::forbidden(
                    rules::ROLEPLAYING_IN_COMBAT,
                    "roleplaying in combat takes at least 1 AP for 1d3",
                ));
            }
            out.push(spend_ap(s, i, *d3)?);
            roller.announce(h.name(), stat.name(), *d3, d3_die(s));
            let outcome = roleplay::check(
                RollKind::InCombat { d3: *d3 },
                i64::from(h.character.roleplay_bonus(*stat)),
                *goal,
                s.options.d3,
                roller,
            )
            .map_err(|e| roll_err(e, rules::ROLEPLAYING_IN_COMBAT))?;
            out.push(Event::Rolled {
                hero: i,
                stat: *stat,
                outcome,
            });
        }
        Command::RoleplayVs {
            enemy: en,
            stat,
            d3,
        } => {
            let i = hero_seat(s, seat)?;
            player_phase(s, When::PlayerPhase)?;
            let h = up(s, i)?;
            let e = find_enemy(s, en)?;
            if enemy(s, e)?.health == 0 {
                return Err(RuleError::condition(
                    rules::ROLEPLAY_AGAINST_ENEMIES,
                    "0 Health",
                    format!("{en} is already at 0 Health"),
                ));
            }
            if *d3 == 0 {
                return Err(RuleError::forbidden(
                    rules::ROLEPLAYING_IN_COMBAT,
                    "roleplaying in combat takes at least 1 AP for 1d3",
                ));
            }
            out.push(spend_ap(s, i, *d3)?);
            out.push(Event::PendingSet {
                pending: Pending {
                    hero: i,
                    enemy: e,
                    stat: *stat,
                    d3: *d3,
                    bonus: h.character.roleplay_bonus(*stat),
                    about: "roleplay".into(),
                },
            });
        }
        _ => {}
    }
    Ok(())
}
