//! Dramatic actions: `reinforce`, `involve`, `appear`, `distance` ("Building A
//! Scene").

use super::*;

/// The commands of this module (`Reinforce`, `Appear`, `Distance`); any other is left to the
/// caller.
///
/// # Errors
/// A [`RuleError`] naming the rule; [`decide`](super::decide) then returns
/// it and no event, so nothing changes.
pub(super) fn decide(
    o: &mut Out,
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    match command {
        Command::Reinforce {
            who: name,
            name: group,
            weapon,
        }
        | Command::Involve {
            who: name,
            name: group,
            weapon,
        } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            if o.s().combatants.len() + 2 > MAX_COMBATANTS {
                return Err(RuleError::forbidden(RULE_DRAMATIC, "the table is full"));
            }
            let power = o
                .c(i)?
                .character()
                .map(Character::highest_trait)
                .ok_or_else(|| {
                    RuleError::forbidden(RULE_DRAMATIC, "only a Fated may call on this")
                })?
                .clamp(1, 5);
            let controller = o.c(i)?.controller.clone();
            let reinforce = matches!(command, Command::Reinforce { .. });
            for (field, text) in std::iter::once(("name", group.as_str()))
                .chain(weapon.iter().map(|w| ("weapon", w.name.as_str())))
            {
                check_name(field, text)
                    .map_err(|e| RuleError::forbidden(RULE_DRAMATIC, e.to_string()))?;
            }
            if let Some(w) = weapon {
                let max = if reinforce { power } else { 20 };
                if !(0..=max).contains(&w.damage) {
                    return Err(RuleError::out_of_range(
                        RULE_DRAMATIC,
                        "weapon damage bonus",
                        0,
                        max,
                        w.damage,
                    ));
                }
            }
            o.spend_wildcard(i, if reinforce { "Reinforce" } else { "Involve" })?;
            let make = |n: String, body: Body| Combatant {
                name: n,
                controller: controller.clone(),
                body,
                hand: Vec::new(),
                initiative: None,
                wildcards: 0,
                knocked_out: false,
                present: true,
                wielding: weapon.iter().cloned().collect(),
                carried: Vec::new(),
                status: Status::default(),
                removed: false,
                added: false,
            };
            let mut joined = Vec::new();
            if reinforce {
                joined.push(make(
                    group.clone(),
                    Body::Extras {
                        power,
                        members: MAX_MEMBERS,
                    },
                ));
            } else {
                for k in 1..=2 {
                    joined.push(make(
                        format!("{group} {k}"),
                        Body::Follower {
                            power,
                            pool: power * 5,
                        },
                    ));
                }
            }
            for j in joined {
                if find(o.s(), &j.name).is_some() {
                    return Err(RuleError::forbidden(
                        RULE_DRAMATIC,
                        format!("there is already someone called {}", j.name),
                    ));
                }
                o.emit(Event::Joined(Box::new(j)));
                let k = o.s().combatants.len() - 1;
                if o.s().phase != Phase::Scene {
                    let n = o.c(k)?.hand_size();
                    o.draw(k, n, DrawReason::Opening, roller)?;
                    auto_initiative(o, k)?;
                }
            }
        }
        Command::Appear { who: name } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            if o.c(i)?.removed {
                return Err(RuleError::condition(
                    crate::gm::GM_TOOLS,
                    "removed",
                    "the GM removed this character from the encounter",
                ));
            }
            if o.c(i)?.present {
                return Err(RuleError::forbidden(RULE_DRAMATIC, "already in the scene"));
            }
            o.emit(Event::Appeared { who: i });
            if o.s().phase != Phase::Scene {
                o.draw(i, HAND_SIZE, DrawReason::Opening, roller)?;
                auto_initiative(o, i)?;
            }
        }
        Command::Distance {
            who: name,
            wildcards,
        } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            if state.distance.is_some() {
                return Err(RuleError::already_used(
                    RULE_DRAMATIC,
                    "Distance",
                    "only one player can use Distance in a scene",
                ));
            }
            if state.phase != Phase::Scene {
                return Err(RuleError::new(
                    RULE_DRAMATIC,
                    Refusal::WrongPhase,
                    "Distance is used at the beginning of the scene",
                ));
            }
            if *wildcards < 1 || *wildcards > o.c(i)?.wildcards {
                return Err(RuleError::out_of_range(
                    RULE_DRAMATIC,
                    "wildcards",
                    1,
                    i64::from(o.c(i)?.wildcards),
                    i64::from(*wildcards),
                ));
            }
            for _ in 0..*wildcards {
                o.spend_wildcard(i, "Distance")?;
            }
            o.emit(Event::Distance {
                who: i,
                rounds: *wildcards,
            });
        }
        _ => {}
    }
    Ok(())
}
