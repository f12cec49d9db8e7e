//! What each event says: the lines `play` prints for the log.

use super::*;

pub(super) fn purpose_text(p: &Purpose) -> &'static str {
    match p {
        Purpose::Check => "Check",
        Purpose::SituationFinal => "final check",
        Purpose::KeepEffect => "roll to keep",
        Purpose::Interrupt => "Interrupt",
        Purpose::Compliment => "Compliment (step 6)",
        Purpose::Divert => "Divert (step 6)",
        Purpose::Stunt => "Stunt (step 8)",
        Purpose::Reaction => "Reaction (step 8)",
        Purpose::Damage => "damage",
        Purpose::ExtraDamage => "additional damage",
        Purpose::LessDamage => "damage taken off",
        Purpose::LostSlot => "lost the slot, rolls for exhaustion",
    }
}

/// One event as text, with every die: each kind of event in the words of
/// the part of the rules it belongs to.
pub fn describe(state: &State, e: &Event) -> String {
    match e {
        Event::Spent { .. }
        | Event::GivenBack { .. }
        | Event::Healed { .. }
        | Event::TokensBack { .. }
        | Event::Rested { .. }
        | Event::Damaged { .. }
        | Event::Awarded { .. }
        | Event::Raised { .. }
        | Event::Improved { .. }
        | Event::Adjusted { .. } => describe_sheet(state, e),
        Event::Rolled { .. } => describe_roll(state, e),
        Event::SituationStarted { .. }
        | Event::DifficultyChanged { .. }
        | Event::SituationEnded { .. }
        | Event::EventStarted { .. }
        | Event::InitiativeRolled { .. }
        | Event::InitiativeSettled { .. }
        | Event::NewRound { .. }
        | Event::TurnBegan { .. }
        | Event::TurnEnded { .. }
        | Event::EventEnded { .. }
        | Event::EncounterEnded => describe_moment(e),
        Event::Rejected { .. }
        | Event::EffectCountdown { .. }
        | Event::EffectAdded { .. }
        | Event::EffectRemoved { .. }
        | Event::EffectKept { .. }
        | Event::FreePoint { .. }
        | Event::StuntPlayed { .. }
        | Event::Offered { .. }
        | Event::SlotWon { .. }
        | Event::StepReached { .. }
        | Event::TargetsDeclared { .. }
        | Event::Diverted { .. }
        | Event::ComplimentApplies { .. }
        | Event::ReactionSkipped { .. }
        | Event::Reacted { .. } => describe_step(e),
        Event::Joined { .. } | Event::Left { .. } => describe_roster(e),
    }
}

/// An event on a character's sheet: a stat spent, given back, healed,
/// damaged (with the condition of a depleted stat), rested or set by the
/// storyteller; skill tokens given back; experience awarded and spent.
/// Sour Grapes, "Stat Mechanics", "Injury, Exhaust & Damage", "Experience"
/// (000_05a1db5b88f54528.txt); R-SG-7, R-SG-10.
fn describe_sheet(state: &State, e: &Event) -> String {
    match e {
        Event::Spent { who, stat } => format!(
            "{who} spends a point of {stat} (now {})",
            cur(state, who, *stat)
        ),
        Event::GivenBack { who, stat, points } => format!(
            "the storyteller gives {who} {points} {stat} back (now {})",
            cur(state, who, *stat)
        ),
        Event::Healed { who, stat } => format!("{who}'s {stat} injury is healed"),
        Event::TokensBack { who, skill, points } => {
            format!("the storyteller gives {who} {points} {skill} token(s) back")
        }
        Event::Rested { who } => format!(
            "a short rest: {} recover exhausted uninjured stats and skill tokens",
            who.join(", ")
        ),
        Event::Damaged {
            who,
            stat,
            points,
            doubled,
            source,
        } => format!(
            "{source} deals {points} damage to {who}'s {stat}{} (now {}){}",
            if *doubled { " (doubled)" } else { "" },
            cur(state, who, *stat),
            if cur(state, who, *stat) == 0 {
                format!(
                    ": {stat} is depleted and injured - {}: {}",
                    stat.condition(),
                    stat.condition().effect()
                )
            } else {
                String::new()
            }
        ),
        Event::Awarded { who, points } => format!("{who} is awarded {points} experience"),
        Event::Raised { who, what } => format!("{who} spends an experience point: {what} +1"),
        Event::Improved { who, card, damage } => format!(
            "{who} spends an experience point: {card} {}",
            if *damage {
                "deals 1 more damage"
            } else {
                "needs 1 success less"
            }
        ),
        Event::Adjusted {
            who,
            stat,
            from,
            to,
        } => {
            format!("The storyteller sets {who}'s {stat} to {to} (was {from}).")
        }
        // The other events are described by [`describe`]'s other steps.
        _ => String::new(),
    }
}

/// A roll with every die: what it is for, the card, the stat's dice and the
/// skill's tokens, the successes against what it needs, what it exhausts,
/// and dice placed but lost.
/// Sour Grapes, "Check", "Turn Mechanics" (000_05a1db5b88f54528.txt); R-SG-1,
/// R-SG-11.
fn describe_roll(state: &State, e: &Event) -> String {
    match e {
        Event::Rolled {
            purpose,
            who,
            card,
            stat,
            skill,
            roll,
            needed,
            success,
            exhausts,
            tokens_spent,
            lost,
        } => {
            let mut s = format!("{who} rolls {}", purpose_text(purpose));
            if let Some(c) = card {
                let _ = write!(s, " [{c}]");
            }
            let _ = write!(s, ": {stat} {}d", roll.dice.len());
            if roll.tokens > 0 {
                let _ = write!(
                    s,
                    " + {} {} tokens",
                    roll.tokens,
                    skill.as_deref().unwrap_or("skill")
                );
            }
            let _ = write!(s, " -> {} = {} successes", roll.shown(), roll.successes);
            if let Some(n) = needed {
                let _ = write!(s, " (needs {n})");
            }
            match success {
                Some(true) => s.push_str(": SUCCESS"),
                Some(false) => s.push_str(": FAILED"),
                None => {}
            }
            for (st, n) in exhausts {
                let _ = write!(s, "; {st} exhausted by {n} (now {})", cur(state, who, *st));
            }
            if *tokens_spent > 0 {
                let _ = write!(s, "; {tokens_spent} tokens spent");
            }
            if !lost.is_empty() {
                let _ = write!(
                    s,
                    "; placed but lost (R-SG-11: the stat or skill fell below what was placed): {lost}"
                );
            }
            s
        }
        // The other events are described by [`describe`]'s other steps.
        _ => String::new(),
    }
}

/// The moments: a Situation and its difficulty, an Event with its
/// initiative, rounds and turns, and the end of the encounter.
/// Sour Grapes, "Game Moments", "Situation", "Event" (000_05a1db5b88f54528.txt);
/// R-SG-8.
fn describe_moment(e: &Event) -> String {
    match e {
        Event::SituationStarted {
            who,
            stat,
            skill,
            difficulty,
        } => format!(
            "Situation: {who} faces difficulty {difficulty}; the final check is {stat}{}",
            skill
                .as_ref()
                .map(|k| format!(" + {k}"))
                .unwrap_or_default()
        ),
        Event::DifficultyChanged { from, to } => {
            format!("the Situation's difficulty goes from {from} to {to}")
        }
        Event::SituationEnded { who, success } => format!(
            "the Situation ends: {who} {}; held skill tokens recover",
            if *success { "succeeds" } else { "fails" }
        ),
        Event::EventStarted { participants } => format!(
            "An Event! Initiative: {} each roll `initiative STAT DICE`",
            participants.join(", ")
        ),
        Event::InitiativeRolled {
            who,
            stat,
            roll,
            d20,
            total,
        } => format!(
            "{who} rolls initiative on {stat}: {} = {} successes{} = {total} (exhausts nothing)",
            roll.shown(),
            roll.successes,
            d20.map(|d| format!(" + d20 {d}")).unwrap_or_default()
        ),
        Event::InitiativeSettled { order, tiebreaks } => {
            let mut s = format!("initiative order: {}", order.join(", "));
            for (n, r) in tiebreaks {
                let _ = write!(s, "; tie-break d20 for {n}: {r:?}");
            }
            s
        }
        Event::NewRound { round } => format!("=== New Round {round} ==="),
        Event::TurnBegan { controller, .. } => {
            format!("--- {controller}'s turn: {controller} is the Controller ---")
        }
        Event::TurnEnded { controller, reason } => format!("{controller}'s turn is over: {reason}"),
        Event::EventEnded { reason } => format!("The Event ends: {reason}"),
        Event::EncounterEnded => "The storyteller ends the encounter.".into(),
        // The other events are described by [`describe`]'s other steps.
        _ => String::new(),
    }
}

/// The steps of a turn: effects, the free point, the Stunt, cards offered,
/// rejected and winning their slot, targets and bets, the Divert and
/// Compliment, the Reactions.
/// Sour Grapes, "Turn Mechanics", "Effects", "Reactions"
/// (000_05a1db5b88f54528.txt); R-SG-5, R-SG-9.
fn describe_step(e: &Event) -> String {
    match e {
        Event::Rejected { who } => {
            format!("the table rejects {who}'s card as invalid here; it is taken back unrolled")
        }
        Event::EffectCountdown {
            who,
            effect,
            tokens,
        } => format!("{who}'s {effect} loses a token ({tokens} left)"),
        Event::EffectAdded {
            who,
            effect,
            tokens,
        } => format!(
            "{effect} is in play on {who}{}",
            if *tokens > 0 {
                format!(" with {tokens} tokens")
            } else {
                String::new()
            }
        ),
        Event::EffectRemoved { who, effect } => format!("{who}'s {effect} is discarded"),
        Event::EffectKept { who, effect } => format!("{who} keeps {effect}"),
        Event::FreePoint { who, into } => format!("{who} puts the free point into {into}"),
        Event::StuntPlayed { by, card } => format!("{by} lays down the Stunt {card}"),
        Event::Offered { slot, play } => format!(
            "{} offers {:?} {} ({} on Success{})",
            play.by,
            slot,
            play.card,
            play.success,
            if play.result.points() > 0 {
                format!(", {} on Result", play.result)
            } else {
                String::new()
            }
        ),
        Event::SlotWon { slot, by, over } => format!(
            "{by} wins the {slot:?} slot over {} (more points)",
            over.join(", ")
        ),
        Event::StepReached { step } => format!("now {}", step.title()),
        Event::TargetsDeclared {
            targets,
            success,
            result,
        } => format!(
            "targets: {}; {success} on Success, {result} on Result (placed, not rolled)",
            if targets.is_empty() {
                "none".to_string()
            } else {
                targets.join(", ")
            }
        ),
        Event::Diverted { from, to } => {
            format!("the Stunt is diverted from {} to {to}", from.join(", "))
        }
        Event::ComplimentApplies { play } => {
            format!("{}'s {} will modify the Stunt", play.by, play.card)
        }
        Event::ReactionSkipped { who, reason } => {
            format!("{who} cannot react (step 7 skipped): {reason}")
        }
        Event::Reacted { who, play } => match play {
            Some(p) => format!("{who} reacts with {} ({} placed)", p.card, p.success),
            None => format!("{who} takes it (no Reaction)"),
        },
        // The other events are described by [`describe`]'s other steps.
        _ => String::new(),
    }
}

/// The storyteller brings a character in or takes one out (GM tools, issue
/// 27, item 6).
fn describe_roster(e: &Event) -> String {
    match e {
        Event::Joined {
            participant, sheet, ..
        } => {
            let p = participant;
            let from = sheet
                .as_ref()
                .map(|f| format!(" from the sheet {f}"))
                .unwrap_or_default();
            let whose = if p.seat.is_gm() {
                "the storyteller's".to_string()
            } else {
                format!("{}'s", p.seat)
            };
            format!(
                "The storyteller brings {} into the encounter{from} ({whose}; cards: {}).",
                p.character.name(),
                if p.cards.is_empty() {
                    "none".to_string()
                } else {
                    p.cards.join(", ")
                }
            )
        }
        Event::Left { who } => {
            format!("The storyteller takes {who} out of the encounter, with their cards.")
        }
        // The other events are described by [`describe`]'s other steps.
        _ => String::new(),
    }
}
