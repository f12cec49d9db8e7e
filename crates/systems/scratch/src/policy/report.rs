//! [`Policy`] for [`Scratch`]: the bot's command for a seat, withdrawing
//! from a long encounter, and the encounter's report.

use super::*;

/// From [`WITHDRAW_ROUND`] on: escape when he evaded on his last turn, else
/// evade (out of cover: no evading from cover) ("Basic Actions").
pub(super) fn withdraw(s: &State, a: usize, c: &Combatant, view: TurnView) -> Command {
    let evaded_last = c.evaded_on_turn.is_some() && c.evaded_on_turn == view.turns.checked_sub(1);
    if evaded_last {
        act(s, a, Action::Escape)
    } else if c.in_cover {
        act(s, a, Action::LeaveCover)
    } else {
        act(s, a, Action::Evade { with: None })
    }
}

/// The sides in table order, each once (sides compare without regard to case).
pub(super) fn sides(s: &State) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for g in &s.groups {
        if !out.iter().any(|x| names_match(x, &g.side)) {
            out.push(g.side.clone());
        }
    }
    out
}

impl Policy for Scratch {
    fn awaiting(state: &State) -> Vec<Awaiting> {
        match state.phase {
            Phase::Preparation => vec![Awaiting::table(Seat::Gm)],
            Phase::Over => Vec::new(),
            Phase::Turns => {
                let Some(group) = state.current_group().and_then(|g| state.groups.get(g)) else {
                    return Vec::new();
                };
                let seat = &group.seat;
                // `legal::actors` of the group's own seat, without its Vec.
                let one = |i: usize| {
                    state
                        .get(i)
                        .map(|c| Awaiting::participant(seat.clone(), c.id.clone()))
                };
                match state.active {
                    Some(a) => one(a).into_iter().collect(),
                    None => group
                        .members
                        .iter()
                        .copied()
                        .filter(|m| state.may_start_turn(*m))
                        .filter_map(one)
                        .collect(),
                }
            }
        }
    }

    fn suggest_for(state: &State, awaiting: &Awaiting) -> Option<Command> {
        match state.phase {
            Phase::Preparation => (awaiting.seat.is_gm() && awaiting.participant.is_none())
                .then_some(Command::Initiative),
            Phase::Over => None,
            Phase::Turns => {
                let name = awaiting.participant.as_deref()?;
                let a = state
                    .characters
                    .iter()
                    .position(|c| c.id == name)
                    .or_else(|| state.find(name))?;
                if !legal::may_act(state, &awaiting.seat, a) {
                    return None;
                }
                choose(state, a)
            }
        }
    }

    /// Each character's name, for its id: a participant is named by its id
    /// in the report and in what the table awaits, and answers to its name
    /// too, as every command's character does (`"Breakhelm X-19"` for
    /// `breakhelm`; the one command grammar's names, Tabula's table).
    fn participant_names(state: &State) -> Vec<(String, String)> {
        state
            .characters
            .iter()
            .map(|c| (c.id.clone(), c.character.name().to_string()))
            .collect()
    }

    fn report(state: &State) -> EncounterReport {
        let sides = sides(state);
        let winner = if state.phase == Phase::Over {
            let standing: Vec<&String> = sides
                .iter()
                .filter(|side| {
                    state.characters.iter().enumerate().any(|(i, c)| {
                        c.takes_turns() && state.side_of(i).is_some_and(|x| names_match(x, side))
                    })
                })
                .collect();
            match standing.as_slice() {
                [one] => Some((*one).clone()),
                _ => None,
            }
        } else {
            None
        };
        let participants = state
            .characters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let side = state.side_of(i).unwrap_or_default();
                let side = sides
                    .iter()
                    .find(|x| names_match(x, side))
                    .cloned()
                    .unwrap_or_else(|| side.to_string());
                ParticipantReport {
                    name: c.id.clone(),
                    side,
                    taken_out: c.hit_points == 0 || c.escaped,
                    resources: vec![
                        Resource::new("hit points", c.hit_points),
                        Resource::new("toughness", c.max_hit_points(&state.rules)),
                    ],
                }
            })
            .collect();
        EncounterReport {
            round: state.round,
            sides,
            winner,
            participants,
        }
    }
}
