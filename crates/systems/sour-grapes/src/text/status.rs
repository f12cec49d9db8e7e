//! What `play` prints before each prompt: whose turn, which step, what each
//! seat may do, with the odds.

use super::*;

/// Whose turn, which step, what they may do, and odds next to each dice choice.
pub fn status(state: &State, seat: &Seat) -> String {
    if state.over {
        return "the encounter is over".into();
    }
    let offers = offers(state);
    let lines_of = |kind: OfferKind| offers.iter().filter(move |o| o.kind == kind);
    match &state.moment {
        Moment::Free => format!(
            "{}: between moments - the storyteller (gm) may call a check, a Situation or an Event (`event` starts the fight; `help` lists every command)",
            title(state)
        ),
        Moment::Situation(sit) => {
            if let Some(why) = state.check_forbidden(&sit.who, sit.stat) {
                return format!(
                    "Situation for {}: difficulty {} (so far {:?}); {why}: the final check cannot be made, `final 0` ends the Situation as failed",
                    sit.who, sit.difficulty, sit.history
                );
            }
            let diff = sit.difficulty.saturating_add(dazed(state, &sit.who));
            let mut s = format!(
                "Situation for {}: difficulty {} (so far {:?})",
                sit.who, diff, sit.history,
            );
            for o in lines_of(OfferKind::Final) {
                let _ = write!(
                    s,
                    "; final check {} {} + {} tokens {}: {}",
                    o.stat,
                    o.max,
                    o.skill,
                    o.tokens,
                    check::chances_line(&o.chances)
                );
            }
            s
        }
        Moment::Event(e) => {
            let Some(t) = &e.turn else {
                let waiting: Vec<&str> = state
                    .participants
                    .iter()
                    .map(|p| p.character.name())
                    .filter(|n| e.initiative.get(*n).is_some_and(Option::is_none))
                    .collect();
                return format!(
                    "Event, initiative: waiting for {} (each: `initiative STAT DICE`, any stat they make a case for; exhausts nothing)",
                    waiting.join(", ")
                );
            };
            let mut s = format!(
                "Round {}, {}'s turn (Controller), {}",
                e.round,
                t.controller,
                t.step.title()
            );
            let ctl = &t.controller;
            match t.step {
                Step::Prep => {
                    if t.free_point {
                        s.push_str("; free point unused (`recover STAT|SKILL`)");
                    }
                    if !t.pending_effects.is_empty() {
                        let _ = write!(
                            s,
                            "; roll to keep or discard: {}",
                            t.pending_effects.join(", ")
                        );
                    }
                    let _ = write!(s, "\n   {}", brief(state, ctl));
                    for o in lines_of(OfferKind::Keep) {
                        let _ = write!(s, "\n   keep {} (or `end` discards it)", offer_line(o));
                    }
                    for o in lines_of(OfferKind::Stunt) {
                        let _ = write!(s, "\n   stunt {}", offer_line(o));
                    }
                }
                Step::Interrupt => {
                    let _ = write!(
                        s,
                        "; Stunt {} on the table; others may `interrupt`, then `pass`",
                        t.stunt.as_deref().unwrap_or("?")
                    );
                    for o in lines_of(OfferKind::Interrupt) {
                        let _ = write!(s, "\n   {}", offer_line(o));
                    }
                }
                Step::Targeting => {
                    if let Some(c) = t.stunt.as_deref().and_then(|c| state.card(c)) {
                        let _ = write!(
                            s,
                            "; `target NAME success D T result D T`\n   success {}",
                            lines_of(OfferKind::Success)
                                .next()
                                .map(offer_line)
                                .unwrap_or_default()
                        );
                        if let Some(r) = c.result {
                            let _ = write!(
                                s,
                                "\n   result {r} up to {} dice (+ tokens from the same {} pool, R-SG-4): expected damage {:.2} per die",
                                cur(state, ctl, r),
                                match (&c.skill, state.participant(ctl)) {
                                    (Some(k), Some(p)) => p.skill_for(k),
                                    _ => "skill".to_string(),
                                },
                                5.0 / 6.0
                            );
                        }
                    }
                }
                Step::Support => {
                    let _ = write!(
                        s,
                        "; targets: {}; `compliment`/`divert` may be offered, then `pass`",
                        if t.targets.is_empty() {
                            "none".to_string()
                        } else {
                            t.targets.join(", ")
                        }
                    );
                    for o in lines_of(OfferKind::Support) {
                        let _ = write!(s, "\n   {}", offer_line(o));
                    }
                }
                Step::Reaction => {
                    let pending: Vec<&String> = t
                        .receivers
                        .iter()
                        .filter(|r| !t.reactions.contains_key(*r))
                        .collect();
                    let _ = write!(
                        s,
                        "; waiting for {} to `react CARD DICE TOKENS` or `take`; the Stunt has {} placed",
                        pending
                            .iter()
                            .map(|x| x.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                        t.success
                    );
                    for o in lines_of(OfferKind::Reaction) {
                        let _ = write!(s, "\n   {}", offer_line(o));
                    }
                }
            }
            let _ = seat;
            s
        }
    }
}

/// One line of a participant's sheet: stats (current/actual, `*` injured),
/// skill tokens, effects.
pub fn brief(state: &State, who: &str) -> String {
    let Some(p) = state.participant(who) else {
        return String::new();
    };
    let c = &p.character;
    let stats: Vec<String> = Stat::ALL
        .iter()
        .map(|st| {
            let v = c.stat(*st);
            format!(
                "{} {}/{}{}",
                st.abbreviation(),
                v.current,
                v.actual,
                if v.injured { "*" } else { "" }
            )
        })
        .collect();
    let skills: Vec<String> = c
        .skills()
        .iter()
        .map(|k| format!("{} {}/{}", k.name, k.available, k.rating))
        .collect();
    let mut line = format!("{who}: {} | {}", stats.join(" "), skills.join(", "));
    if !p.effects.is_empty() {
        let effects: Vec<String> = p
            .effects
            .iter()
            .map(|e| {
                if e.tokens > 0 {
                    format!("{} ({} tokens)", e.card, e.tokens)
                } else {
                    e.card.clone()
                }
            })
            .collect();
        let _ = write!(line, " | effects: {}", effects.join(", "));
    }
    let conditions = c.conditions();
    if !conditions.is_empty() {
        let names: Vec<String> = conditions.iter().map(|c| c.to_string()).collect();
        let _ = write!(line, " | {}", names.join(", "));
    }
    line
}

pub(super) fn title(state: &State) -> &str {
    if state.title.is_empty() {
        "Sour Grapes"
    } else {
        &state.title
    }
}

/// The seat that acts next by default.
pub fn default_seat(state: &State) -> Seat {
    let seat_of = |n: &str| state.participant(n).map_or(Seat::Gm, |p| p.seat.clone());
    match &state.moment {
        Moment::Free => Seat::Gm,
        Moment::Situation(sit) => seat_of(&sit.who),
        Moment::Event(e) => match &e.turn {
            None => state
                .participants
                .iter()
                .map(|p| p.character.name())
                .find(|n| e.initiative.get(*n).is_some_and(Option::is_none))
                .map_or(Seat::Gm, seat_of),
            Some(t) => match t.step {
                Step::Reaction => t
                    .receivers
                    .iter()
                    .find(|r| !t.reactions.contains_key(*r))
                    .map_or_else(|| seat_of(&t.controller), |r| seat_of(r)),
                _ => seat_of(&t.controller),
            },
        },
    }
}
