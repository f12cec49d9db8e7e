//! A policy: the command a reasonable player or GM would give now, so that a
//! participant can be handed to the engine (the NPC autopilot, `auto NAME` in
//! `play`) and whole encounters can be simulated (`tabula <system> simulate`).
//!
//! Each system implements [`Policy`] in its own crate with what its policy
//! tries to do, in the book's terms. A policy never rolls: it reads the state
//! (and the exact odds the system already computes) and returns a command that
//! [`System::decide`](crate::System::decide) accepts. The dice are the only randomness of a
//! simulation, so the same seed plays the same encounter.

use serde::{Deserialize, Serialize};

use crate::system::{Seat, TextPlay};

/// One thing the table waits for now: a command from `seat`, for
/// `participant` when the step belongs to one character or group (its turn,
/// its reaction, its bet), or for the seat itself when it is a table step
/// (the GM starting the next round, closing the encounter).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Awaiting {
    /// The seat that gives the command (the GM for every NPC).
    pub seat: Seat,
    /// The character, group or side whose step it is, by its name in the
    /// table file; `None` for a table step of the seat itself.
    pub participant: Option<String>,
}

impl Awaiting {
    /// A step of `participant`, given by `seat`.
    pub fn participant(seat: Seat, participant: impl Into<String>) -> Self {
        Awaiting {
            seat,
            participant: Some(participant.into()),
        }
    }

    /// A table step of `seat` itself.
    pub fn table(seat: Seat) -> Self {
        Awaiting {
            seat,
            participant: None,
        }
    }
}

/// How one encounter stands, for simulation reports: who won, how long it
/// took, who was taken out and what each participant has left.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EncounterReport {
    /// The round the encounter is in (or ended in), counting from 1; 0 for a
    /// system or table that has no rounds.
    pub round: u32,
    /// Every side, in the table's order (`players`, `GM`, `Opposition`, ...).
    pub sides: Vec<String>,
    /// The side that won, one of `sides`; `None` while undecided, or for an
    /// encounter that ended with no winner.
    pub winner: Option<String>,
    /// Every participant, in the table's order.
    pub participants: Vec<ParticipantReport>,
}

/// One participant's state at the end of an encounter.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ParticipantReport {
    /// The name in the table file.
    pub name: String,
    /// Its side, one of [`EncounterReport::sides`].
    pub side: String,
    /// True when the book's rules took it out of the encounter (dead,
    /// incapacitated, Out of Action, every Stat exhausted, ...).
    pub taken_out: bool,
    /// The resources the book tracks for it, by the book's names (`HP`,
    /// `Stats exhausted`, `Luck`, `cards in hand`), as numbers.
    pub resources: Vec<Resource>,
}

/// One tracked resource and its value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Resource {
    /// The book's name for it.
    pub name: String,
    /// Its value (a count or a number of points).
    pub value: f64,
}

impl Resource {
    /// A resource named `name` with `value`.
    pub fn new(name: impl Into<String>, value: impl Into<f64>) -> Self {
        Resource {
            name: name.into(),
            value: value.into(),
        }
    }
}

/// A system's policy: who the table waits on, what a reasonable player (or
/// GM) would do for each, and how the encounter stands.
pub trait Policy: TextPlay {
    /// Everything the table waits for now, the step the rules expect first at
    /// the front. Empty when [`TextPlay::finished`] is true, or when nothing
    /// can happen (which a simulation reports as stuck).
    fn awaiting(state: &Self::State) -> Vec<Awaiting>;

    /// The command the policy gives for `awaiting` now; `None` when it has
    /// nothing legal to give. Every `Some` is accepted by
    /// [`System::decide`](crate::System::decide) for `awaiting.seat` (a property test in each
    /// system checks it over random states of its example tables).
    fn suggest_for(state: &Self::State, awaiting: &Awaiting) -> Option<Self::Command>;

    /// The command the policy gives for `seat`: for the first of
    /// [`Policy::awaiting`] that this seat gives. `None` when the table waits
    /// for nothing from `seat`.
    fn suggest(state: &Self::State, seat: &Seat) -> Option<Self::Command> {
        Self::awaiting(state)
            .iter()
            .filter(|a| a.seat.same_seat(seat))
            .find_map(|a| Self::suggest_for(state, a))
    }

    /// How the encounter stands now (at its end, for a simulation).
    fn report(state: &Self::State) -> EncounterReport;

    /// Other names a participant answers to, as `(participant, name)`: the
    /// participant as [`Policy::report`] names it, and a name a command may
    /// use for it instead (a system naming participants by ids gives each
    /// one's display name here, so `auto "Breakhelm X-19"` finds the
    /// participant `breakhelm`). Default: none.
    fn participant_names(state: &Self::State) -> Vec<(String, String)> {
        let _ = state;
        Vec::new()
    }
}

/// The Wilson score interval for `successes` out of `trials` at 95%
/// (z = 1.959964), as `(low, high)` in `0.0..=1.0`; `(0.0, 1.0)` for no
/// trials. Used for simulated win rates, where the plain normal interval is
/// wrong near 0 and 1.
pub fn wilson_95(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 and at every trial the interval reaches the bound exactly (the
    // formula gives it up to rounding).
    let low = if successes == 0 {
        0.0
    } else {
        ((centre - spread) / denom).clamp(0.0, p)
    };
    let high = if successes >= trials {
        1.0
    } else {
        ((centre + spread) / denom).clamp(p, 1.0)
    };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 50/100: 0.4038..0.5962 (textbook value).
        let (lo, hi) = wilson_95(50, 100);
        assert!((lo - 0.403_8).abs() < 1e-4, "{lo}");
        assert!((hi - 0.596_2).abs() < 1e-4, "{hi}");
        // 0/10: 0..0.2775.
        let (lo, hi) = wilson_95(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.277_5).abs() < 1e-4, "{hi}");
        assert_eq!(wilson_95(0, 0), (0.0, 1.0));
    }
}
