//! The odds of each action a seat may take now, for the status and the
//! page ("Rolls").

use tabula_core::{ChoiceOdds, Seat};

use crate::command::Action;
use crate::decide::{self, RollPreview};
use crate::event::ActionKind;
use crate::legal;
use crate::state::{Phase, State};

/// One action a character may take now against one target, with the chance of
/// its roll and the damage split ([`decide::preview`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ActionOdds {
    /// The action as typed: `attack`, `hold`, `shoot`, `fight`, `knockout`, `heal`.
    pub verb: &'static str,
    /// The chance of the action's (first) roll at the target and the chance of
    /// each total damage to it.
    pub roll: RollPreview,
}

/// The actions one character of the seat may take now, with their odds.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorOdds {
    /// The character's index.
    pub actor: usize,
    /// Each legal action at each target (heal at allies, the rest at enemies).
    pub choices: Vec<ActionOdds>,
}

/// The odds of every attack and action `seat`'s characters may take now (the
/// character whose turn is on, or each who may start one), against every
/// target: what `status` prints next to each choice and [`TextPlay::odds`](tabula_core::TextPlay::odds)
/// offers. Empty when it is not the seat's group's turn.
///
/// Scratch RPS, "Rolls", "Basic Actions", "Attack Abilities", "Healing"
/// (001_337b5a42e331e513.txt); R-SCR-3, R-SCR-4, R-SCR-6.
pub fn action_odds(state: &State, seat: &Seat) -> Vec<ActorOdds> {
    let mut out = Vec::new();
    if state.phase != Phase::Turns {
        return out;
    }
    for a in legal::actors(state, seat) {
        if state.get(a).is_none() {
            continue;
        }
        let mut choices = Vec::new();
        let my_side = state.side_of(a);
        for (ti, t) in state.characters.iter().enumerate() {
            let ally = state.side_of(ti) == my_side;
            for tpl in [
                Action::Attack {
                    target: t.id.clone(),
                    with: None,
                },
                Action::Hold {
                    target: t.id.clone(),
                    with: None,
                },
                Action::Shoot {
                    target: t.id.clone(),
                },
                Action::Fight {
                    targets: vec![t.id.clone()],
                },
                Action::Knockout {
                    target: t.id.clone(),
                },
                Action::Heal {
                    target: t.id.clone(),
                },
            ] {
                if ally != matches!(tpl, Action::Heal { .. }) {
                    continue;
                }
                if let Some(p) = decide::preview(state, a, &tpl)
                    && let Some(first) = p.into_iter().next()
                {
                    choices.push(ActionOdds {
                        verb: verb_word(&tpl),
                        roll: first,
                    });
                }
            }
        }
        out.push(ActorOdds { actor: a, choices });
    }
    out
}

/// " [0: 35%, 2: 60%, 5: 5%]" for damaging actions, empty otherwise.
pub(super) fn damage_text(d: &[(i64, f64)]) -> String {
    if d.iter().all(|(v, _)| *v == 0) {
        return String::new();
    }
    format!(
        " [{}]",
        d.iter()
            .map(|(v, p)| format!("{v}: {:.1}%", p * 100.0))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

pub(super) fn verb_word(a: &Action) -> &'static str {
    match a {
        Action::Attack { .. } => "attack",
        Action::Hold { .. } => "hold",
        Action::Shoot { .. } => "shoot",
        Action::Fight { .. } => "fight",
        Action::Knockout { .. } => "knockout",
        Action::Heal { .. } => "heal",
        _ => "",
    }
}

pub(super) fn verb(kind: ActionKind) -> &'static str {
    match kind {
        ActionKind::Attack => "makes a basic attack",
        ActionKind::Throw => "throws an object",
        ActionKind::Hold => "tries a hold",
        ActionKind::HoldWhileDelayed => "holds back while delayed (wrestling)",
        ActionKind::Distract => "tries to distract",
        ActionKind::Evade => "evades",
        ActionKind::Escape => "escapes",
        ActionKind::Engage => "engages",
        ActionKind::TakeCover => "takes cover",
        ActionKind::LeaveCover => "leaves cover",
        ActionKind::Shoot => "shoots",
        ActionKind::Blast => "blasts",
        ActionKind::Knockout => "tries a knockout",
        ActionKind::Fight => "fights",
        ActionKind::Surprise => "tries to surprise",
        ActionKind::Intimidate => "tries to intimidate",
        ActionKind::Heal => "uses healing",
    }
}

/// [`action_odds`], one entry per action and target: the chance of its
/// (first) roll at that target, with the damage split in the detail.
pub fn choice_odds(state: &State, seat: &Seat) -> Vec<ChoiceOdds> {
    let mut out = Vec::new();
    for o in action_odds(state, seat) {
        let Some(c) = state.get(o.actor) else {
            continue;
        };
        for x in o.choices {
            let what = match x.verb {
                "heal" => "the healing roll reaches its difficulty",
                "hold" => "the hold reaches the target's strength",
                "fight" => "each fighting attack reaches the target's agility",
                "shoot" => "the shot reaches the target's agility",
                _ => "the roll reaches the target's defense",
            };
            let what = format!("{what} (d20 + level, a natural 20 always succeeds)");
            let detail = if x.roll.damage.iter().all(|(v, _)| *v == 0) {
                what
            } else {
                format!("{what}; damage{}", damage_text(&x.roll.damage))
            };
            out.push(ChoiceOdds {
                choice: format!("{} {} {}", c.id, x.verb, x.roll.target),
                probability: x.roll.probability.clamp(0.0, 1.0),
                detail,
            });
        }
    }
    out
}
