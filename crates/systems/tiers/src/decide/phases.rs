//! The GM's table commands: combat begins, a phase ends, the combat ends, the
//! session closes, and the GM's tools (`adjust`, `add`, `remove`).
//!
//! Tiers, "Phases", "Combat", "Player Phase" (002_631931fd73349179.txt); the
//! crate's GM tools (issue 27, item 6).

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
        Command::Fight => {
            gm_only(seat)?;
            if s.phase().is_some() {
                return Err(RuleError::new(
                    rules::PHASES,
                    Refusal::WrongPhase,
                    "combat is already on",
                ));
            }
            if s.enemies.iter().all(|e| !e.standing()) {
                return Err(RuleError::forbidden(
                    rules::ENEMY_HEALTH,
                    "no enemy with Health is in play (spawn one from the pool first)",
                ));
            }
            out.push(Event::CombatStarted);
            out.push(Event::PhaseBegan {
                phase: s.first_phase,
                round: 1,
            });
        }
        Command::EndPhase => {
            gm_only(seat)?;
            let Mode::Combat { phase, round } = s.mode else {
                return Err(in_combat(s).err().unwrap_or_else(|| {
                    RuleError::new(rules::PHASES, Refusal::WrongPhase, "no combat")
                }));
            };
            let (next, round) = match phase {
                Phase::Enemy if s.first_phase == Phase::Enemy => (Phase::Player, round),
                Phase::Enemy => (Phase::Player, round.saturating_add(1)),
                Phase::Player if s.first_phase == Phase::Player => (Phase::Enemy, round),
                Phase::Player => (Phase::Enemy, round.saturating_add(1)),
            };
            out.push(Event::PhaseBegan { phase: next, round });
        }
        Command::EndCombat => {
            gm_only(seat)?;
            in_combat(s)?;
            out.push(Event::CombatEnded {
                outcome: Outcome::Ended,
                healed: heals_after(s),
            });
        }
        Command::Close => {
            gm_only(seat)?;
            out.push(Event::Closed);
        }
        Command::Adjust {
            character,
            value,
            amount,
        } => {
            gm_only(seat)?;
            crate::gm::adjust(s, character, *value, *amount, roller, out)?;
        }
        Command::Add {
            kind,
            sheet,
            name,
            zone,
        } => {
            gm_only(seat)?;
            crate::gm::add(
                s,
                kind,
                sheet.as_deref(),
                name.as_deref(),
                zone.as_deref(),
                out,
            )?;
        }
        Command::Remove { character } => {
            gm_only(seat)?;
            crate::gm::remove(s, character, out)?;
        }
        _ => {}
    }
    Ok(())
}
