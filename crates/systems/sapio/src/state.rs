//! The table's state: characters, locks, the Action Sequence.

use crate::name_match::same_name;
use serde::{Deserialize, Serialize};

use crate::character::Character;
use crate::checks::CheckRoll;
use crate::harm::Level;
use crate::invoking::OpenCheck;

/// How long an invoked element stays invoked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Until {
    /// Until the Action Sequence round ends ("Invoked elements remain invoked
    /// within a given round").
    RoundEnd,
    /// Until the GM ends the ongoing task with this id.
    TaskEnd(u32),
}

/// An element dedicated to a task ("Invoking an Element").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lock {
    /// The element's canonical name.
    pub element: String,
    /// Until when.
    pub until: Until,
}

/// A character at the table, with the elements now invoked for ongoing tasks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// The character (Luck, Injuries and Stresses live on the sheet).
    pub character: Character,
    /// Elements dedicated to ongoing or simultaneous tasks.
    pub locked: Vec<Lock>,
    /// The GM ended a consequential session and this character has not taken its
    /// advancement yet (R-SA-9).
    #[serde(default)]
    pub advancement_due: bool,
    /// The GM removed the character from the encounter (`remove`): it keeps
    /// its place (indices and the log stay valid) and its sheet (the sheets
    /// the encounter leaves), but no longer takes part: no command names it,
    /// no list offers it. Issue 27, item 6 ([`crate::rules::RULE_GM_TOOLS`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub removed: bool,
    /// Brought in by the GM's `add`: a guest, whose sheet the encounter does
    /// not write back to a campaign (a copy or a bundled sheet never
    /// overwrites a campaign character of the same name). Issue 27, item 6
    /// ([`crate::rules::RULE_GM_TOOLS`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub added: bool,
}

impl Member {
    pub(crate) fn is_locked(&self, element: &str) -> bool {
        self.locked.iter().any(|l| same_name(&l.element, element))
    }
}

/// A weapon's Injury the roll dealt, waiting for the GM to say which existing
/// Injury of the target's it is similar to, if any (R-SA-4, R-SA-6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingInjury {
    /// The target (index in the table).
    pub character: usize,
    /// The level the weapon dealt.
    pub level: Level,
    /// The words it is recorded as (the weapon's name).
    pub name: String,
}

/// One character in an Action Sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participant {
    /// Index in the table's characters.
    pub character: usize,
    /// Threatened at the start of the round: must take a turn.
    pub threatened: bool,
    /// Has been focal this round.
    pub focal_done: bool,
}

/// An Action Sequence under way. "Action Sequences in Play".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    /// What the group is trying to do.
    pub goal: String,
    /// The round, from 1.
    pub round: u32,
    /// Turns framed this round (0: the round is at its start, characters may
    /// enter the fray).
    pub turns: u32,
    /// A turn is framed and waits for the players to choose the focal character.
    pub framed: bool,
    /// Everyone taking part.
    pub participants: Vec<Participant>,
    /// A fight between two characters (R-SA-5): aggressor, defender.
    pub fight: Option<(usize, usize)>,
}

/// The whole table. Nothing is hidden in Sapio, so every seat sees all of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The encounter's title.
    pub title: String,
    /// The characters.
    pub characters: Vec<Member>,
    /// The check being built, if any.
    pub check: Option<OpenCheck>,
    /// The Action Sequence under way, if any.
    pub sequence: Option<Sequence>,
    /// The id the next check gets.
    pub next_check: u32,
    /// The last roll, for the status line.
    pub last_roll: Option<CheckRoll>,
    /// The GM ended the encounter.
    pub over: bool,
    /// The GM ended the session (the end-of-session step, R-SA-9); play resumes
    /// with the next check or Action Sequence.
    #[serde(default)]
    pub session_over: bool,
    /// A weapon's Injury waiting for the GM's similarity call (R-SA-6).
    #[serde(default)]
    pub pending_injury: Option<PendingInjury>,
}

impl State {
    /// A table of these characters.
    pub fn new(title: &str, characters: Vec<Character>) -> State {
        State {
            title: title.to_string(),
            characters: characters
                .into_iter()
                .map(|character| Member {
                    // An advancement the sheet says is due (the GM marked a
                    // consequential session between encounters) can be taken at
                    // the end-of-session step before play resumes (R-SA-9).
                    advancement_due: character.sheet().advancement_due,
                    character,
                    locked: Vec::new(),
                    removed: false,
                    added: false,
                })
                .collect(),
            check: None,
            sequence: None,
            next_check: 1,
            last_roll: None,
            over: false,
            session_over: false,
            pending_injury: None,
        }
    }

    /// The index of the character called `name` (case-insensitive), among
    /// the characters present (not removed by the GM).
    pub fn find(&self, name: &str) -> Option<usize> {
        self.present()
            .find(|(_, m)| same_name(m.character.name(), name))
            .map(|(i, _)| i)
    }

    /// The names of the characters present, in table order.
    pub fn names(&self) -> Vec<String> {
        self.present()
            .map(|(_, m)| m.character.name().to_string())
            .collect()
    }

    /// The characters present (every one the GM has not removed), with their
    /// index in [`State::characters`].
    pub fn present(&self) -> impl Iterator<Item = (usize, &Member)> {
        self.characters
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.removed)
    }

    /// A character's name, removed or not (for the log).
    pub(crate) fn name(&self, i: usize) -> &str {
        self.characters.get(i).map_or("?", |m| m.character.name())
    }

    /// The character at `i`, if it is present (not removed by the GM).
    pub(crate) fn member(&self, i: usize) -> Option<&Member> {
        self.characters.get(i).filter(|m| !m.removed)
    }

    pub(crate) fn participant(&self, i: usize) -> Option<&Participant> {
        self.sequence
            .as_ref()
            .and_then(|s| s.participants.iter().find(|p| p.character == i))
    }
}
