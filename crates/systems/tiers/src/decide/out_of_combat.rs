//! Out of combat (Roleplaying): Stat rolls, Competing and PvP Rolls, consent,
//! Super 6 and Resting.
//!
//! Tiers, "Roleplay Bonus", "Asking for Rolls", "Competing Rolls", "Ties",
//! "PvP Rolls", "Custom Rules" (002_631931fd73349179.txt).

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
        Command::Roll { stat, goal } => {
            let i = hero_seat(s, seat)?;
            out_of_combat(s)?;
            let bonus = alive(s, i)?.character.roleplay_bonus(*stat);
            roller.announce(hero(s, i)?.name(), stat.name(), 1, Die::D6);
            let outcome = roleplay::check(
                RollKind::OutOfCombat,
                i64::from(bonus),
                *goal,
                s.options.d3,
                roller,
            )
            .map_err(|e| roll_err(e, rules::ASKING_FOR_ROLLS))?;
            out.push(Event::Rolled {
                hero: i,
                stat: *stat,
                outcome,
            });
        }
        Command::Compete {
            first,
            first_stat,
            second,
            second_stat,
        } => {
            gm_only(seat)?;
            out_of_combat(s)?;
            let a = find_hero(s, first)?;
            let b = find_hero(s, second)?;
            alive(s, a)?;
            alive(s, b)?;
            if a == b {
                return Err(RuleError::forbidden(
                    rules::COMPETING_ROLLS,
                    "a Competing Roll needs two characters",
                ));
            }
            // "Ties": when the table's GM has ties rolled again, the characters
            // do another Roll (every Roll shown), at most MAX_REROLLS times.
            for _ in 0..=MAX_REROLLS {
                let ev = contest_out_of_combat(
                    s,
                    (a, *first_stat),
                    (b, *second_stat),
                    Contest::Competing { tie: s.options.tie },
                    roller,
                )?;
                let again = matches!(
                    ev,
                    Event::Contested {
                        result: ContestResult::Tie(TieRule::RollAgain),
                        ..
                    }
                );
                out.push(ev);
                if !again {
                    break;
                }
            }
        }
        Command::Consent { actor } => {
            let d = hero_seat(s, seat)?;
            let a = find_hero(s, actor)?;
            alive(s, d)?;
            alive(s, a)?;
            if a == d {
                return Err(RuleError::forbidden(
                    rules::PVP_ROLLS,
                    "a PvP Roll is between two players",
                ));
            }
            out.push(Event::ConsentGiven {
                defendant: d,
                actor: a,
            });
        }
        Command::Pvp {
            actor,
            actor_stat,
            defendant,
            defendant_stat,
        } => {
            gm_only(seat)?;
            out_of_combat(s)?;
            let a = find_hero(s, actor)?;
            let d = find_hero(s, defendant)?;
            alive(s, a)?;
            alive(s, d)?;
            if !s.consents.contains(&(d, a)) {
                return Err(RuleError::forbidden(
                    rules::PVP_ROLLS,
                    format!(
                        "{} has not consented to a PvP Roll by {} (\"When in doubt, ask for consent!\")",
                        hero(s, d)?.name(),
                        hero(s, a)?.name()
                    ),
                ));
            }
            out.push(contest_out_of_combat(
                s,
                (a, *actor_stat),
                (d, *defendant_stat),
                Contest::Pvp {
                    first_defends: false,
                },
                roller,
            )?);
            out.push(Event::ConsentUsed {
                defendant: d,
                actor: a,
            });
        }
        Command::Super6 => {
            let i = hero_seat(s, seat)?;
            alive(s, i)?;
            if !s.options.custom.super_6 {
                return Err(RuleError::forbidden(
                    rules::SUPER_6,
                    "this table does not play the Super 6 custom rule",
                ));
            }
            roller.announce(hero(s, i)?.name(), "Super 6", 2, Die::D6);
            let a = roller.roll(Die::D6)?;
            let b = roller.roll(Die::D6)?;
            out.push(Event::Super6 {
                hero: i,
                dice: [a, b],
                success: a == 6 && b == 6,
            });
        }
        Command::Rest { hours } => {
            let i = hero_seat(s, seat)?;
            if !s.options.custom.resting {
                return Err(RuleError::forbidden(
                    rules::RESTING,
                    "this table does not play the Resting custom rule",
                ));
            }
            out_of_combat(s)?;
            if !(1..=MAX_REST_HOURS).contains(hours) {
                return Err(RuleError::out_of_range(
                    rules::CAPS,
                    "hours",
                    1,
                    i64::from(MAX_REST_HOURS),
                    i64::from(*hours),
                ));
            }
            let h = alive(s, i)?;
            roller.announce(h.name(), "Resting", *hours, Die::D6);
            let dice = (0..*hours)
                .map(|_| roller.roll(Die::D6))
                .collect::<Result<Vec<u32>, _>>()?;
            let sum: u32 = dice.iter().sum();
            let healed = sum.min(h.max_health.saturating_sub(h.health));
            out.push(Event::Rested {
                hero: i,
                dice,
                healed,
            });
        }
        _ => {}
    }
    Ok(())
}

/// A contest out of combat: each rolls a d6 + the Stat's Roleplay Bonus.
fn contest_out_of_combat(
    s: &State,
    (a, sa): (usize, Stat),
    (b, sb): (usize, Stat),
    contest: Contest,
    roller: &mut dyn Roller,
) -> R<Event> {
    let ha = hero(s, a)?;
    let hb = hero(s, b)?;
    roller.announce(ha.name(), sa.name(), 1, Die::D6);
    let ra = roleplay::roll(
        RollKind::OutOfCombat,
        i64::from(ha.character.roleplay_bonus(sa)),
        s.options.d3,
        roller,
    )
    .map_err(|e| roll_err(e, rules::COMPETING_ROLLS))?;
    roller.announce(hb.name(), sb.name(), 1, Die::D6);
    let rb = roleplay::roll(
        RollKind::OutOfCombat,
        i64::from(hb.character.roleplay_bonus(sb)),
        s.options.d3,
        roller,
    )
    .map_err(|e| roll_err(e, rules::COMPETING_ROLLS))?;
    let result = roleplay::contest(ra.total, rb.total, contest);
    Ok(Event::Contested {
        first: ha.name().to_string(),
        second: hb.name().to_string(),
        first_roll: ra,
        second_roll: rb,
        contest,
        result,
        about: format!("{sa} against {sb}"),
    })
}
