//! The Enemy side (the GM's): answering a Competing Roll, spending Rolls,
//! moving enemies and players, spawning, and the sample enemies' rules.
//!
//! Tiers, "Creating Combat", "Describing Rolls", "Enemy Movement", "Enemy
//! Health", "Roleplaying against Enemies", "Enemies" (002_631931fd73349179.txt).

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
        Command::Answer { raise } => {
            gm_only(seat)?;
            let Some(p) = &s.pending else {
                return Err(RuleError::new(
                    rules::ROLEPLAY_AGAINST_ENEMIES,
                    Refusal::WrongPhase,
                    "no Competing Roll waits for an answer",
                ));
            };
            cap("d6", raise.d6)?;
            cap("d3", raise.d3)?;
            cap("cp", raise.combat_points)?;
            if *raise != Purchase::default() {
                out.push(take_rolls(s, *raise)?);
            }
            let hero_name = hero(s, p.hero)?.name().to_string();
            let enemy_name = enemy(s, p.enemy)?.name.clone();
            let hero_roll = roll_dice(s, 0, p.d3, p.bonus, roller, (&hero_name, "roleplaying"))?;
            let enemy_roll = roll_dice(
                s,
                raise.d6,
                raise.d3.saturating_add(1),
                raise.combat_points,
                roller,
                (&enemy_name, "against roleplaying"),
            )?;
            let result = roleplay::contest(
                hero_roll.total,
                enemy_roll.total,
                Contest::Competing { tie: s.options.tie },
            );
            out.push(Event::Contested {
                first: hero(s, p.hero)?.name().to_string(),
                second: enemy(s, p.enemy)?.name.clone(),
                first_roll: hero_roll,
                second_roll: enemy_roll,
                contest: Contest::Competing { tie: s.options.tie },
                result,
                about: p.about.clone(),
            });
            out.push(Event::PendingCleared);
            if result == ContestResult::First && hero(s, p.hero)?.grappled_by == Some(p.enemy) {
                out.push(Event::Released { hero: p.hero });
            }
        }
        Command::Spend {
            enemy: en,
            use_name,
            dice,
            heal_d6,
            target,
            to,
        } => spend(
            s,
            seat,
            en,
            use_name,
            *dice,
            *heal_d6,
            target.as_deref(),
            to.as_deref(),
            roller,
            out,
        )?,
        Command::MoveEnemy { enemy: en, to, pay } => {
            gm_only(seat)?;
            in_combat(s)?;
            let e = find_enemy(s, en)?;
            let z = find_zone(s, to)?;
            move_enemy(s, e, z, *pay, out)?;
        }
        Command::MovePlayer { player, to, pay } => move_player(s, seat, player, to, pay, out)?,
        Command::Spawn {
            name,
            kind,
            health,
            zone,
        } => spawn(s, seat, name, kind, health, zone, out)?,
        Command::Sink { enemy: en, pay } | Command::Emerge { enemy: en, pay } => {
            shadow(s, seat, cmd, en, pay, out)?
        }
        Command::Ensnare {
            enemy: en,
            player,
            pay,
        } => ensnare(s, seat, en, player, pay, out)?,
        Command::Absorb { enemy: en, dice } => absorb(s, seat, en, dice, roller, out)?,
        _ => {}
    }
    Ok(())
}
