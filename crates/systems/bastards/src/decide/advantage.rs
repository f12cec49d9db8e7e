//! Advantages used on their own ("Advantages"; R-GB-8).

use super::*;

pub(crate) fn use_advantage(
    o: &mut Out,
    i: usize,
    a: &UseAdvantage,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let mut st = o.c(i)?.status.clone();
    match a {
        UseAdvantage::AllOutDefense => {
            o.need(i, &Advantage::AllOutDefense)?;
            in_opposition(o)?;
            // "At any point during or before this character's action this round":
            // no actions this round, so the action is given up.
            let now = sacrifice_action(o, i)?;
            let mut st = o.c(i)?.status.clone();
            st.all_out_defense = true;
            o.emit(Event::StatusChanged { who: i, status: st });
            if now {
                end_turn(o);
            }
        }
        UseAdvantage::DefensiveStance(n) => {
            o.need(i, &Advantage::DefensiveStance)?;
            own_action(o, i)?;
            let body = o.c(i)?.trait_score(Trait::Body);
            if !(0..=body).contains(n) {
                return Err(RuleError::out_of_range(
                    RULE_ADVANTAGES,
                    "Defensive Stance",
                    0,
                    body,
                    *n,
                ));
            }
            st.stance = *n;
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        UseAdvantage::Serendipity | UseAdvantage::Dodge => {
            let (adv, pool) = if *a == UseAdvantage::Dodge {
                (Advantage::Dodge, Trait::Body)
            } else {
                (Advantage::Serendipity, Trait::Luck)
            };
            o.need(i, &adv)?;
            in_opposition(o)?;
            o.spend_pool(i, pool, adv.name(), roller)?;
            st.next_defense = Some(pool);
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        UseAdvantage::IronWall => {
            o.need(i, &Advantage::IronWall)?;
            in_opposition(o)?;
            o.spend_wildcard(i, "Iron Wall")?;
            st.iron_wall = true;
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        UseAdvantage::KarmicShuffle => {
            o.need(i, &Advantage::KarmicShuffle)?;
            in_opposition(o)?;
            o.spend_wildcard(i, "Karmic Shuffle")?;
            o.emit(Event::KarmicShuffle);
        }
        UseAdvantage::SoulOfSteel => {
            o.need(i, &Advantage::SoulOfSteel)?;
            in_opposition(o)?;
            o.spend_wildcard(i, "Soul of Steel")?;
            let now = sacrifice_action(o, i)?;
            let mut st = o.c(i)?.status.clone();
            st.soul_of_steel = true;
            o.emit(Event::StatusChanged { who: i, status: st });
            if now {
                end_turn(o);
            }
        }
        UseAdvantage::Study(target) => {
            o.need(i, &Advantage::Study)?;
            own_action(o, i)?;
            let t = who(o.s(), target)?;
            if !st.studied.contains(&t) {
                st.studied.push(t);
            }
            o.emit(Event::StatusChanged { who: i, status: st });
            end_turn(o);
        }
        UseAdvantage::AssPull => {
            o.need(i, &Advantage::AssPull)?;
            own_action(o, i)?;
            o.spend_pool(i, Trait::Luck, "Ass Pull", roller)?;
            if o.c(i)?.knocked_out {
                // R-GB-13: the last LP emptied a second pool.
                return Ok(());
            }
            o.draw(i, 2, DrawReason::AssPull, roller)?;
            let mut st = o.c(i)?.status.clone();
            st.must_discard = 2;
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        UseAdvantage::Berserk => {
            o.need(i, &Advantage::Berserk)?;
            own_action(o, i)?;
            o.spend_wildcard(i, "Berserk")?;
            st.berserk = true;
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        UseAdvantage::Calm => {
            own_action(o, i)?;
            if !st.berserk {
                return Err(RuleError::forbidden(RULE_ADVANTAGES, "not Berserk"));
            }
            fate_draw(
                o,
                i,
                FateAsk {
                    skill: "Meditation",
                    trait_used: Trait::Mind,
                    modifier: 0,
                    acrobat: false,
                    specialty: None,
                },
                roller,
            )?;
            if let Some(Event::FateDrawn { result, .. }) = o.events().last()
                && result.success
            {
                let mut st = o.c(i)?.status.clone();
                st.berserk = false;
                o.emit(Event::StatusChanged { who: i, status: st });
            }
            end_turn(o);
        }
    }
    Ok(())
}
