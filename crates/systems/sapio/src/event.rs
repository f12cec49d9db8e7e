//! What happens at the table.

use serde::{Deserialize, Serialize};

use crate::character::{Advance, Character, CycleChange};
use crate::checks::{CheckRoll, PoolSpec};
use crate::harm::{BoxRef, Damage, HarmKind, Recording};
use crate::invoking::{Nature, OpenCheck, ProfessionUse};
use crate::state::{PendingInjury, Until};

/// A step of building the pool ("When you invoke a character element").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Step 2: a Profession.
    Profession(ProfessionUse),
    /// Step 3: a Specialization.
    Specialization,
    /// Step 4: a Quality.
    Quality,
}

/// Where Luck came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LuckReason {
    /// Trouble pursuing the Principle over their own wellbeing.
    Principle,
    /// Inconvenienced by another's Worst Impulse.
    WorstImpulse,
    /// Given by the GM.
    Gm,
}

/// What happened at the table, with every die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A check is called: its focal character, TN, versus.
    CheckCalled {
        /// The check.
        check: OpenCheck,
    },
    /// An Action Sequence begins.
    SequenceBegun {
        /// The goal.
        goal: String,
        /// A fight (aggressor, defender).
        fight: Option<(usize, usize)>,
    },
    /// A character takes part in the sequence.
    Joined {
        /// The character.
        character: usize,
        /// Threatened (must take a turn).
        threatened: bool,
    },
    /// The GM framed a turn.
    TurnFramed {
        /// The round.
        round: u32,
        /// The framing.
        text: String,
    },
    /// The GM set the TN.
    TnSet {
        /// The TN.
        tn: u32,
        /// Entries ruled not relevant.
        not_relevant: Vec<String>,
    },
    /// The focal character invoked an element.
    Invoked {
        /// The element.
        element: String,
        /// Which step.
        step: Step,
    },
    /// A character helped with an element.
    Helped {
        /// The helper.
        helper: usize,
        /// The element.
        element: String,
    },
    /// The defender raised the TN.
    Defended {
        /// The element.
        element: String,
        /// The TN now.
        tn: u32,
    },
    /// A Special Talent was called out.
    TalentCalled {
        /// Its name.
        name: String,
    },
    /// Luck set aside for this roll (taken from the sheet when it is rolled).
    LuckSpent {
        /// How much.
        amount: u32,
    },
    /// A sacrifice or overindulgence was declared.
    Declared {
        /// Which.
        nature: Nature,
        /// What.
        text: String,
    },
    /// The GM ruled on the declaration.
    Ruled {
        /// Accepted.
        accepted: bool,
    },
    /// The GM gave bonus dice.
    BonusGiven {
        /// How many.
        dice: u32,
    },
    /// The check was rolled: every die, the outcome, the weapon's damage.
    Rolled {
        /// The check as built.
        check: OpenCheck,
        /// The numbers that went into it.
        spec: PoolSpec,
        /// Every die and the outcome.
        roll: CheckRoll,
        /// The weapon and its damage on a success (R-SA-4).
        weapon: Option<(String, Damage)>,
        /// Whom the weapon attacked.
        #[serde(default)]
        target: Option<usize>,
        /// How long its elements stay invoked (`None`: released at once).
        until: Option<Until>,
    },
    /// A weapon's Injury waits for the GM's similarity call (R-SA-6).
    InjuryPending {
        /// The Injury.
        pending: PendingInjury,
    },
    /// A weapon's damage went past Severe: the target is killed (R-SA-4).
    Killed {
        /// Who.
        character: usize,
        /// The weapon.
        weapon: String,
    },
    /// The GM ended the session (R-SA-9).
    SessionEnded {
        /// Consequential: each character may take one advancement.
        consequential: bool,
    },
    /// Every participant has been focal: the round ends, a new one begins.
    RoundEnded {
        /// The round that ended.
        round: u32,
    },
    /// A character's elements for ongoing tasks (or one element) are free again.
    Released {
        /// The character.
        character: usize,
        /// The one element freed, or `None` for every ongoing-task lock.
        element: Option<String>,
    },
    /// A participant left the fray at a round's start.
    Left {
        /// The character.
        character: usize,
    },
    /// The Action Sequence ended.
    SequenceEnded,
    /// A character gained Luck.
    LuckGained {
        /// Who.
        character: usize,
        /// How much.
        amount: u32,
        /// Why.
        reason: LuckReason,
    },
    /// An Injury or Stress was recorded.
    Harmed {
        /// Who.
        character: usize,
        /// Injury or Stress.
        kind: HarmKind,
        /// Where it went.
        recording: Recording,
    },
    /// An Injury healed or a Stress cleared.
    Healed {
        /// Whose.
        character: usize,
        /// Injury or Stress.
        kind: HarmKind,
        /// The box.
        at: BoxRef,
        /// Its words.
        name: String,
    },
    /// An advancement.
    Advanced {
        /// Who.
        character: usize,
        /// What.
        advance: Advance,
    },
    /// A completed-cycle change.
    Changed {
        /// Who.
        character: usize,
        /// What.
        change: CycleChange,
    },
    /// The encounter ended.
    EncounterEnded,
    /// The GM set a character's Luck (`adjust`).
    /// The Sapio System, "Luck" (004_f39b4146df158cae.txt); issue 27, item 6.
    Adjusted {
        /// Who.
        character: usize,
        /// The value.
        value: crate::gm::Value,
        /// Before.
        from: u32,
        /// After.
        to: u32,
    },
    /// A character joined the encounter (`add`), its whole sheet carried so
    /// that replaying the log needs no file. Issue 27, item 6.
    Added {
        /// The newcomer, as it joins.
        newcomer: Character,
    },
    /// The GM removed a character from the encounter (`remove`). Issue 27,
    /// item 6.
    Removed {
        /// Who.
        character: usize,
    },
}
