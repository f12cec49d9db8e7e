//! The commands a seat gives.

use serde::{Deserialize, Serialize};

use crate::character::{Advance, CycleChange};
use crate::harm::{HarmKind, Level};
use crate::invoking::Nature;

/// The default of [`Command::Defend`]'s `fully`: a Main Profession is taken
/// as fully applicable unless the defender says partly (as `invoke` does).
fn fully_applicable() -> bool {
    true
}

/// A command a seat gives. Characters are named by their index in the table's
/// `characters`; the terminal reads names (see
/// [`TextPlay::parse_command`](tabula_core::system::TextPlay::parse_command)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Command {
    /// GM: call for a check outside an Action Sequence.
    /// The Sapio System, "When to Roll" (004_f39b4146df158cae.txt).
    Check {
        /// The focal character.
        character: usize,
        /// The TN, 1 to 5.
        tn: u32,
        /// The task goes on: its elements stay invoked until `release`.
        ongoing: bool,
    },
    /// GM: a simple confrontation between characters.
    /// The Sapio System, "Character versus Character" (004_f39b4146df158cae.txt); R-SA-5.
    Confront {
        /// The aggressor, who rolls.
        aggressor: usize,
        /// The defender, who sets the TN by invoking elements.
        defender: usize,
    },
    /// GM: a fight between characters: an Action Sequence with the aggressor
    /// focal first. The Sapio System, "Character versus Character" (004_f39b4146df158cae.txt); R-SA-5.
    Fight {
        /// The aggressor.
        aggressor: usize,
        /// The defender.
        defender: usize,
    },
    /// GM: begin an Action Sequence.
    /// The Sapio System, "Action Sequences in Play" (004_f39b4146df158cae.txt).
    BeginSequence {
        /// The group goal.
        goal: String,
    },
    /// GM: a character is threatened at the start of the round: they take part and
    /// must take a turn. The Sapio System, "Action Sequences in Play" (004_f39b4146df158cae.txt).
    Threaten {
        /// The character.
        character: usize,
    },
    /// A player: their character enters the fray at the start of a round.
    /// The Sapio System, "Action Sequences in Play" (004_f39b4146df158cae.txt).
    EnterFray {
        /// The character.
        character: usize,
    },
    /// GM: frame the turn. The Sapio System, "Action Sequences in Play" (004_f39b4146df158cae.txt).
    Frame {
        /// What the characters and NPCs are doing, the state of the environment.
        text: String,
    },
    /// The players: the focal character of this turn, focal once a round.
    /// The Sapio System, "Action Sequences in Play" (004_f39b4146df158cae.txt).
    Focal {
        /// The character.
        character: usize,
    },
    /// GM: set the TN (1 to 5), naming any Injuries or Stresses not relevant.
    /// The Sapio System, "When to Roll", "Injuries and Stresses" (004_f39b4146df158cae.txt); R-SA-7.
    Tn {
        /// The TN.
        tn: u32,
        /// Injuries and Stresses that do not apply to this action.
        not_relevant: Vec<String>,
    },
    /// The focal player invokes an element: a Profession (Main fully or partly, or
    /// a Side Profession), a Specialization of it, or a Quality.
    /// The Sapio System, "When to Roll", "Invoking an Element" (004_f39b4146df158cae.txt).
    Invoke {
        /// The element's name.
        element: String,
        /// For the Main Profession: fully (`true`) or partly applicable.
        fully: bool,
    },
    /// Another character helps (outside a sequence) or supports (inside one) the
    /// focal character, invoking one element for a bonus die.
    /// The Sapio System, "Special Situations when Rolling", "Action Sequences in
    /// Play" (004_f39b4146df158cae.txt); R-SA-2.
    Help {
        /// The helper.
        helper: usize,
        /// The element invoked.
        element: String,
    },
    /// The defender raises the TN by invoking an element, by the dice it would
    /// add: a fully applicable Main Profession 2, a partly applicable one, a
    /// Side Profession, a Specialization or a Quality 1.
    /// The Sapio System, "Character versus Character" (004_f39b4146df158cae.txt); R-SA-5, R-SA-11.
    Defend {
        /// The element.
        element: String,
        /// A Main Profession fully applicable (2) or partly (1); ignored for
        /// other elements. Absent in a stored command: fully.
        #[serde(default = "fully_applicable")]
        fully: bool,
    },
    /// The focal player calls out a Special Talent.
    /// The Sapio System, "Special Talents" (004_f39b4146df158cae.txt).
    Talent {
        /// The talent's name.
        name: String,
    },
    /// The focal player spends Luck one for one for bonus dice.
    /// The Sapio System, "Luck" (004_f39b4146df158cae.txt); R-SA-2.
    SpendLuck {
        /// How much.
        amount: u32,
    },
    /// The focal player declares a sacrifice for the Principle or an
    /// overindulgence of the Worst Impulse.
    /// The Sapio System, "Principles and Worst Impulses" (004_f39b4146df158cae.txt); R-SA-8.
    Declare {
        /// Which.
        nature: Nature,
        /// What the character does.
        text: String,
    },
    /// GM: accept or reject the declaration.
    /// The Sapio System, "Principles and Worst Impulses" (004_f39b4146df158cae.txt); R-SA-8.
    Rule {
        /// Accepted.
        accept: bool,
    },
    /// GM: bonus dice for especially helpful support or a situation.
    /// The Sapio System, "Action Sequences in Play", "When to Roll" (004_f39b4146df158cae.txt); R-SA-2.
    Bonus {
        /// How many.
        dice: u32,
    },
    /// The focal player rolls (Improbable Success taken). With a weapon, a success
    /// records the weapon's Injury on the target at once (R-SA-4; the GM is asked
    /// only which existing Injury it is similar to, R-SA-6).
    /// The Sapio System, "When to Roll", "Weapons and causing Injury" (004_f39b4146df158cae.txt);
    /// R-SA-1, R-SA-2, R-SA-3, R-SA-4, R-SA-6, R-SA-7.
    Roll {
        /// The weapon used in an attack, if any (R-SA-4).
        weapon: Option<String>,
        /// Whom the weapon attacks; in Character versus Character, the defender.
        #[serde(default)]
        target: Option<usize>,
    },
    /// GM: the weapon's Injury just dealt is of a similar nature to this existing
    /// Injury of the target's (`Some`), or of a different nature (`None`).
    /// The Sapio System, "Injuries and Stresses" (004_f39b4146df158cae.txt); R-SA-6.
    SimilarInjury {
        /// The existing Injury it is similar to, if any.
        similar_to: Option<String>,
    },
    /// GM: the end-of-session step. After a consequential session each character
    /// may take one advancement. The Sapio System, "Advancement"
    /// (004_f39b4146df158cae.txt); R-SA-9.
    EndSession {
        /// The session was consequential.
        consequential: bool,
    },
    /// GM: record an Injury or a Stress, naming the similar entry, if any.
    /// The Sapio System, "Injuries and Stresses" (004_f39b4146df158cae.txt); R-SA-6.
    Harm {
        /// Who takes it.
        character: usize,
        /// Injury or Stress.
        kind: HarmKind,
        /// Its level.
        level: Level,
        /// One or two words.
        name: String,
        /// The existing entry of a similar nature, if any.
        similar_to: Option<String>,
    },
    /// GM: an Injury heals or a Stress clears.
    /// The Sapio System, "Injuries and Stresses" (004_f39b4146df158cae.txt).
    Heal {
        /// Whose.
        character: usize,
        /// Injury or Stress.
        kind: HarmKind,
        /// Its words.
        name: String,
    },
    /// GM: a character gains Luck for getting into trouble by their Principle.
    /// The Sapio System, "Principles and Worst Impulses" (004_f39b4146df158cae.txt).
    LuckPrinciple {
        /// The character.
        character: usize,
    },
    /// GM (or the focal player): a character's Worst Impulse caused trouble; the
    /// most inconvenienced other character gains Luck.
    /// The Sapio System, "Principles and Worst Impulses" (004_f39b4146df158cae.txt).
    LuckImpulse {
        /// Whose Worst Impulse.
        character: usize,
        /// The most inconvenienced other character.
        beneficiary: usize,
    },
    /// GM: set or change a character's Luck (`adjust CHARACTER luck AMOUNT`).
    /// The Sapio System, "Luck" (004_f39b4146df158cae.txt); issue 27, item 6.
    Adjust {
        /// Who.
        character: usize,
        /// The value.
        value: crate::gm::Value,
        /// `N`, `+N` or `-N`.
        amount: crate::gm::Amount,
    },
    /// GM: a character joins the encounter (`add KIND|FILE.toml [as NAME]
    /// [to SEAT]`): one of the book's bundled sheets, a copy of a character
    /// at the table, or the character of an uploaded sheet file, with fresh
    /// Injury and Stress tracks, played by the GM or by `to`'s seat. Issue
    /// 27, item 6 ([`crate::rules::RULE_GM_TOOLS`]).
    Add {
        /// A bundled sheet (`roof-runner`) or a character at the table; with
        /// `sheet`, the sheet file's name as the line gave it (`mira.toml`).
        kind: String,
        /// Its name at the table (default: the sheet's; "NAME 2" on a clash).
        #[serde(default)]
        name: Option<String>,
        /// The player seat that plays it (default: the GM).
        #[serde(default)]
        to: Option<String>,
        /// An uploaded character sheet's text (TOML, as `tabula sapio
        /// character validate` reads it): the newcomer is its character, and
        /// `decide` validates it again (a command sent as JSON cannot skip
        /// the sheet's rules). `None`: `kind` names a bundled sheet or a
        /// character at the table.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sheet: Option<String>,
    },
    /// GM: a GM character leaves the encounter (`remove CHARACTER`), between
    /// turns. Issue 27, item 6 ([`crate::rules::RULE_GM_TOOLS`]).
    Remove {
        /// Who.
        character: usize,
    },
    /// GM: give Luck for compelling choices. The Sapio System, "Luck" (004_f39b4146df158cae.txt).
    GiveLuck {
        /// To whom.
        character: usize,
        /// How much.
        amount: u32,
    },
    /// GM: an ongoing task ends and the character's elements are free again; or,
    /// with `element`, that one element is free again (net Spares may "allow
    /// multiple invocations of elements").
    /// The Sapio System, "Invoking an Element", "Adjudicating Outcomes"
    /// (004_f39b4146df158cae.txt).
    Release {
        /// Whose.
        character: usize,
        /// One element to free (any lock), or `None` for every ongoing-task lock.
        element: Option<String>,
    },
    /// A participant who is not threatened leaves the fray at the start of a round
    /// (engaging was optional). The Sapio System, "Action Sequences in Play"
    /// (004_f39b4146df158cae.txt).
    LeaveFray {
        /// The character.
        character: usize,
    },
    /// An advancement after a consequential session: one per character, at the
    /// GM's end-of-session step. The Sapio System, "Advancement"
    /// (004_f39b4146df158cae.txt); R-SA-9.
    Advance {
        /// Who.
        character: usize,
        /// What.
        advance: Advance,
    },
    /// A change on completing an advancement cycle, at the end-of-session step.
    /// The Sapio System, "Advancement" (004_f39b4146df158cae.txt); R-SA-9.
    Change {
        /// Who.
        character: usize,
        /// What.
        change: CycleChange,
    },
    /// GM: end the Action Sequence.
    EndSequence,
    /// GM: end the encounter. Refused while a living character's advancement
    /// is due at the end-of-session step ("After a consequential session, the
    /// player may choose"; R-SA-9): the player's choice is not taken away by
    /// ending the table. See [`Command::EndCarrying`].
    End,
    /// GM: end the encounter with the advancements still due left due on the
    /// sheets it leaves (`advancement_due`, written back by a campaign table and
    /// taken between sessions). "Advancement"; R-SA-9.
    EndCarrying,
}
