//! The table: characters, checks, Luck, Injuries and Stresses, Action Sequences
//! and advancement as a decide/evolve [`System`], and the terminal commands of
//! `tabula sapio play` ([`TextPlay`]).
//!
//! The Sapio System (004_f39b4146df158cae.txt): "When to Roll", "Invoking an
//! Element", "Special Situations when Rolling", "Luck", "Action Sequences",
//! "Injuries and Stresses", "Weapons and causing Injury", "Character versus
//! Character", "Advancement"; R-SA-1 to R-SA-10.

use crate::name_match::same_name;
use serde::{Deserialize, Serialize};
use tabula_core::system::{CommandParseError, CommandSpec, Seat, System, TextPlay};
use tabula_core::{Refusal, Roller, Rule, RuleError};

use crate::ID;
use crate::characters::{
    Advance, Character, CycleChange, DraftError, MAX_LUCK, RULE_ADVANCEMENT, RULE_LUCK,
    RULE_MAGIC_UNPAIRED, RULE_PRINCIPLES,
};
use crate::checks::{self, CheckRoll, MAX_BONUS, MAX_TN, PoolSpec};
use crate::harm::{self, BoxRef, Damage, HarmKind, Level, RULE_INJURIES, RULE_SIMILAR, Recording};
use crate::invoking::{
    self, Declaration, Element, Help, Nature, OpenCheck, ProfessionUse, RULE_HELP, RULE_INVOKE,
    RULE_LOCKS, RULE_SACRIFICE, RULE_TALENT_USE, RULE_VERSUS, RULE_VERSUS_LUCK,
};

/// "Action Sequences": rounds, turns, focal and supporting characters.
pub const RULE_SEQUENCE: Rule = Rule::book(crate::BOOK, "Action Sequences in Play");
/// "Players in the Action Sequence".
pub const RULE_PLAYERS: Rule = Rule::book(crate::BOOK, "Players in the Action Sequence");
/// Who gives which command at the table (Tabula's own rule: the GM sets TNs and
/// records harm, a player acts for their own character).
pub const RULE_SEATS: Rule = Rule::table("Seats");
/// Advancement happens at the GM's end-of-session step, one per character after
/// a consequential session. "Advancement"; R-SA-9.
pub const RULE_SESSION: Rule = Rule::book(crate::BOOK, "Advancement").ruling("R-SA-9");

/// The most characters at one table (a table limit).
pub const MAX_CHARACTERS: usize = 24;
/// The most Luck spent on one check (a table limit).
pub const MAX_LUCK_SPEND: u32 = 12;
/// The most text in a framing or a declaration (characters).
pub const MAX_NARRATION: usize = 500;

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
    /// no list offers it. Issue 27, item 6 ([`crate::gm::RULE_GM_TOOLS`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub removed: bool,
}

impl Member {
    fn is_locked(&self, element: &str) -> bool {
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

    fn participant(&self, i: usize) -> Option<&Participant> {
        self.sequence
            .as_ref()
            .and_then(|s| s.participants.iter().find(|p| p.character == i))
    }
}

/// The default of [`Command::Defend`]'s `fully`: a Main Profession is taken
/// as fully applicable unless the defender says partly (as `invoke` does).
fn fully_applicable() -> bool {
    true
}

/// A command a seat gives. Characters are named by their index in the table's
/// `characters`; the terminal reads names (see [`TextPlay::parse_command`]).
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
    /// GM: a character joins the encounter (`add KIND [as NAME] [to SEAT]`):
    /// one of the book's bundled sheets or a copy of a character at the
    /// table, with fresh Injury and Stress tracks, played by the GM or by
    /// `to`'s seat. Issue 27, item 6 ([`crate::gm::RULE_GM_TOOLS`]).
    Add {
        /// A bundled sheet (`roof-runner`) or a character at the table.
        kind: String,
        /// Its name at the table (default: the sheet's; "NAME 2" on a clash).
        #[serde(default)]
        name: Option<String>,
        /// The player seat that plays it (default: the GM).
        #[serde(default)]
        to: Option<String>,
    },
    /// GM: a GM character leaves the encounter (`remove CHARACTER`), between
    /// turns. Issue 27, item 6 ([`crate::gm::RULE_GM_TOOLS`]).
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

/// The Sapio System at the table.
pub struct Sapio;

fn forbid(rule: Rule, msg: impl Into<String>) -> RuleError {
    RuleError::forbidden(rule, msg)
}

fn wrong_phase(rule: Rule, msg: impl Into<String>) -> RuleError {
    RuleError::new(rule, Refusal::WrongPhase, msg)
}

fn gm_only(seat: &Seat) -> Result<(), RuleError> {
    if seat.is_gm() {
        Ok(())
    } else {
        Err(RuleError::new(
            RULE_SEATS,
            Refusal::NotPermitted,
            "only the GM may do this",
        ))
    }
}

fn may_act(state: &State, seat: &Seat, i: usize) -> bool {
    match seat {
        Seat::Gm => true,
        Seat::Player(p) => state
            .member(i)
            .and_then(|m| m.character.player())
            .is_some_and(|o| same_name(o, p)),
    }
}

/// A refusal for a name the table does not know, listing the names it does
/// ([`RuleError::unknown_among`]).
fn unknown_among(rule: Rule, field: &str, name: &str, choices: &[String]) -> RuleError {
    RuleError::unknown_among(rule, field, name.trim(), choices.iter().map(String::as_str))
}

fn unknown_character(state: &State, i: usize) -> RuleError {
    unknown_among(RULE_SEATS, "character", &format!("#{i}"), &state.names())
}

/// A player seat acts only for the characters whose sheet names it as `player`;
/// the GM acts for every character (NPCs, and to drive a table). Tabula's seat
/// rule ([`RULE_SEATS`]); "Players in the Action Sequence".
fn acts_for(state: &State, seat: &Seat, i: usize) -> Result<(), RuleError> {
    if state.member(i).is_none() {
        return Err(unknown_character(state, i));
    }
    if may_act(state, seat, i) {
        Ok(())
    } else {
        Err(RuleError::new(
            RULE_SEATS,
            Refusal::NotYourTurn,
            format!("{seat} does not play {}", state.name(i)),
        ))
    }
}

fn known(state: &State, i: usize) -> Result<&Member, RuleError> {
    state.member(i).ok_or_else(|| unknown_character(state, i))
}

/// An element of `m` by name, or a refusal listing its elements.
/// The element `name` of `m`'s sheet. A magic Quality gained alone by
/// advancement gives nothing until its pair is complete (R-SA-12): it is
/// refused wherever an element is invoked (a check, help, defending).
fn element_of(rule: Rule, m: &Member, name: &str) -> Result<Element, RuleError> {
    let el = invoking::element(&m.character, name).ok_or_else(|| {
        unknown_among(
            rule,
            &format!("element of {}", m.character.name()),
            name,
            &m.character.elements(),
        )
    })?;
    if m.character.is_unpaired(el.name()) {
        return Err(unpaired(el.name()));
    }
    Ok(el)
}

/// The refusal of a magic half that waits for its pair. R-SA-12.
fn unpaired(name: &str) -> RuleError {
    forbid(
        RULE_MAGIC_UNPAIRED,
        format!(
            "{name} is marked unpaired: it gives nothing until its magic pair (a Quality and a Special Talent) is complete"
        ),
    )
}

fn open_check(state: &State) -> Result<&OpenCheck, RuleError> {
    state.check.as_ref().ok_or_else(|| {
        wrong_phase(
            RULE_INVOKE,
            "no check is being built: the GM calls for one first",
        )
    })
}

fn no_check(state: &State) -> Result<(), RuleError> {
    if state.check.is_some() {
        Err(wrong_phase(
            RULE_INVOKE,
            "a check is being built; roll it first",
        ))
    } else {
        Ok(())
    }
}

fn focal_player<'a>(state: &'a State, seat: &Seat) -> Result<&'a OpenCheck, RuleError> {
    let c = open_check(state)?;
    if !may_act(state, seat, c.focal) {
        return Err(RuleError::new(
            RULE_PLAYERS,
            Refusal::NotYourTurn,
            format!(
                "only {}'s player (or the GM) builds this pool",
                state.name(c.focal)
            ),
        ));
    }
    Ok(c)
}

fn not_debilitated(state: &State, i: usize) -> Result<(), RuleError> {
    let m = known(state, i)?;
    if m.character.dead() {
        return Err(forbid(
            harm::RULE_WEAPONS,
            format!("{} is dead", state.name(i)),
        ));
    }
    if m.character.debilitated() {
        return Err(forbid(
            RULE_INJURIES,
            format!(
                "{} is debilitated by a second Severe Injury or Stress",
                state.name(i)
            ),
        ));
    }
    Ok(())
}

/// The turn bookkeeping of an Action Sequence, all that ending a round reads
/// of it: the round, turns framed, whether a turn waits for its focal
/// character, and each participant with whether it has been focal this round.
struct Turns {
    round: u32,
    turns: u32,
    framed: bool,
    participants: Vec<(usize, bool)>,
}

/// The round that ends once `events` are applied to `state`: `Some(round)`
/// when, in the state [`Sapio::evolve`] would make, an Action Sequence is
/// under way, no check is open, no framed turn waits for its focal
/// character, a turn has been framed this round, and every participant still
/// in action (at least one) has been focal. Found without evolving a copy of
/// the whole table: only the sequence's turn bookkeeping, whether a check is
/// open and who is out of action enter it, and this follows exactly what
/// `evolve` does to those for each event. Out of action only ever begins (a second Severe, death: no
/// event undoes either), so the characters the events take out are all
/// that change there. "Action Sequences in Play": "The round ends and a new
/// round begins when all characters have been focal once."
fn round_end_after(state: &State, events: &[Event]) -> Option<u32> {
    let mut seq = state.sequence.as_ref().map(|s| Turns {
        round: s.round,
        turns: s.turns,
        framed: s.framed,
        participants: s
            .participants
            .iter()
            .map(|p| (p.character, p.focal_done))
            .collect(),
    });
    let mut check_open = state.check.is_some();
    let mut taken_out: Vec<usize> = Vec::new();
    for e in events {
        match e {
            Event::CheckCalled { .. } => {
                check_open = true;
                if let Some(s) = &mut seq {
                    s.framed = false;
                }
            }
            Event::SequenceBegun { .. } => {
                seq = Some(Turns {
                    round: 1,
                    turns: 0,
                    framed: false,
                    participants: Vec::new(),
                });
            }
            Event::Joined { character, .. } => {
                if let Some(s) = &mut seq
                    && !s.participants.iter().any(|(c, _)| c == character)
                {
                    s.participants.push((*character, false));
                }
            }
            Event::TurnFramed { .. } => {
                if let Some(s) = &mut seq {
                    s.framed = true;
                    s.turns = s.turns.saturating_add(1);
                }
            }
            Event::Rolled { check, .. } => {
                if let Some(s) = &mut seq
                    && let Some(p) = s.participants.iter_mut().find(|(c, _)| *c == check.focal)
                {
                    p.1 = true;
                }
                check_open = false;
            }
            Event::RoundEnded { .. } => {
                if let Some(s) = &mut seq {
                    s.round = s.round.saturating_add(1);
                    s.turns = 0;
                    s.framed = false;
                    for p in &mut s.participants {
                        p.1 = false;
                    }
                }
            }
            Event::Left { character } | Event::Removed { character } => {
                if let Some(s) = &mut seq {
                    s.participants.retain(|(c, _)| c != character);
                }
            }
            Event::SequenceEnded => seq = None,
            Event::EncounterEnded => check_open = false,
            Event::Harmed {
                character,
                recording,
                ..
            } if matches!(recording.placement, harm::Placement::Debilitated) => {
                taken_out.push(*character);
            }
            Event::Killed { character, .. } => taken_out.push(*character),
            _ => {}
        }
    }
    let s = seq?;
    let active = |c: usize| {
        !taken_out.contains(&c)
            && state
                .member(c)
                .is_some_and(|m| !m.character.out_of_action())
    };
    let mut any_active = false;
    for (c, focal_done) in &s.participants {
        if active(*c) {
            if !focal_done {
                return None;
            }
            any_active = true;
        }
    }
    (!check_open && !s.framed && s.turns > 0 && any_active).then_some(s.round)
}

impl Sapio {
    fn decide_inner(
        state: &State,
        seat: &Seat,
        cmd: &Command,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, RuleError> {
        if state.over {
            return Err(wrong_phase(RULE_SEATS, "the encounter is over"));
        }
        if let Some(p) = &state.pending_injury
            && !matches!(
                cmd,
                Command::SimilarInjury { .. } | Command::End | Command::EndCarrying
            )
        {
            return Err(wrong_phase(
                RULE_SIMILAR,
                format!(
                    "the GM first says whether {}'s new {} Injury ({}) is similar to an existing one: `similar-to ENTRY` or `different`",
                    state.name(p.character),
                    p.level,
                    p.name
                ),
            ));
        }
        match cmd {
            Command::Check {
                character,
                tn,
                ongoing,
            } => {
                gm_only(seat)?;
                no_check(state)?;
                if state.sequence.is_some() {
                    return Err(wrong_phase(
                        RULE_SEQUENCE,
                        "in an Action Sequence the GM frames the turn and the players choose the focal character",
                    ));
                }
                not_debilitated(state, *character)?;
                if *tn == 0 || *tn > MAX_TN {
                    return Err(RuleError::out_of_range(
                        checks::RULE_WHEN_TO_ROLL,
                        "TN",
                        1,
                        5,
                        i64::from(*tn),
                    ));
                }
                Ok(vec![Event::CheckCalled {
                    check: OpenCheck::new(state.next_check, *character, Some(*tn), *ongoing, None),
                }])
            }
            Command::Confront {
                aggressor,
                defender,
            } => {
                gm_only(seat)?;
                no_check(state)?;
                if state.sequence.is_some() {
                    return Err(wrong_phase(
                        RULE_VERSUS,
                        "a confrontation happens outside an Action Sequence; use fight to start one",
                    ));
                }
                not_debilitated(state, *aggressor)?;
                known(state, *defender)?;
                if aggressor == defender {
                    return Err(forbid(RULE_VERSUS, "a character cannot confront themself"));
                }
                Ok(vec![Event::CheckCalled {
                    check: OpenCheck::new(
                        state.next_check,
                        *aggressor,
                        None,
                        false,
                        Some(*defender),
                    ),
                }])
            }
            Command::Fight {
                aggressor,
                defender,
            } => {
                gm_only(seat)?;
                no_check(state)?;
                if state.sequence.is_some() {
                    return Err(wrong_phase(
                        RULE_SEQUENCE,
                        "an Action Sequence is already under way",
                    ));
                }
                not_debilitated(state, *aggressor)?;
                not_debilitated(state, *defender)?;
                if aggressor == defender {
                    return Err(forbid(RULE_VERSUS, "a character cannot fight themself"));
                }
                Ok(vec![
                    Event::SequenceBegun {
                        goal: format!(
                            "{} fights {}",
                            state.name(*aggressor),
                            state.name(*defender)
                        ),
                        fight: Some((*aggressor, *defender)),
                    },
                    Event::Joined {
                        character: *aggressor,
                        threatened: true,
                    },
                    Event::Joined {
                        character: *defender,
                        threatened: true,
                    },
                ])
            }
            Command::BeginSequence { goal } => {
                gm_only(seat)?;
                no_check(state)?;
                if state.sequence.is_some() {
                    return Err(wrong_phase(
                        RULE_SEQUENCE,
                        "an Action Sequence is already under way",
                    ));
                }
                Ok(vec![Event::SequenceBegun {
                    goal: clip(goal),
                    fight: None,
                }])
            }
            Command::Threaten { character } | Command::EnterFray { character } => {
                let threatened = matches!(cmd, Command::Threaten { .. });
                if threatened {
                    gm_only(seat)?;
                } else {
                    acts_for(state, seat, *character)?;
                }
                let s = state
                    .sequence
                    .as_ref()
                    .ok_or_else(|| wrong_phase(RULE_SEQUENCE, "no Action Sequence is under way"))?;
                if s.turns > 0 {
                    return Err(wrong_phase(
                        RULE_SEQUENCE,
                        "characters are threatened or enter the fray at the beginning of a round, before its first turn",
                    ));
                }
                not_debilitated(state, *character)?;
                if let Some(p) = state.participant(*character) {
                    if threatened && !p.threatened {
                        return Ok(vec![Event::Joined {
                            character: *character,
                            threatened,
                        }]);
                    }
                    return Err(forbid(
                        RULE_SEQUENCE,
                        format!("{} already takes part", state.name(*character)),
                    ));
                }
                Ok(vec![Event::Joined {
                    character: *character,
                    threatened,
                }])
            }
            Command::Frame { text } => {
                gm_only(seat)?;
                no_check(state)?;
                let s = state.sequence.as_ref().ok_or_else(|| {
                    wrong_phase(
                        RULE_SEQUENCE,
                        "frame is for Action Sequences; outside one the GM calls a check",
                    )
                })?;
                if s.participants.is_empty() {
                    return Err(forbid(
                        RULE_SEQUENCE,
                        "nobody takes part yet: threaten characters or let them enter the fray",
                    ));
                }
                if s.framed {
                    return Err(wrong_phase(
                        RULE_SEQUENCE,
                        "this turn is framed already; the players choose the focal character",
                    ));
                }
                Ok(vec![Event::TurnFramed {
                    round: s.round,
                    text: clip(text),
                }])
            }
            Command::Focal { character } => {
                acts_for(state, seat, *character)?;
                let s = state
                    .sequence
                    .as_ref()
                    .ok_or_else(|| wrong_phase(RULE_SEQUENCE, "no Action Sequence is under way"))?;
                if !s.framed {
                    return Err(wrong_phase(RULE_SEQUENCE, "the GM frames the turn first"));
                }
                let p = state.participant(*character).ok_or_else(|| {
                    forbid(
                        RULE_SEQUENCE,
                        format!(
                            "{} does not take part in this sequence",
                            state.name(*character)
                        ),
                    )
                })?;
                if p.focal_done {
                    return Err(forbid(
                        RULE_SEQUENCE,
                        format!(
                            "{} has been focal this round already; each participant is focal once a round",
                            state.name(*character)
                        ),
                    ));
                }
                not_debilitated(state, *character)?;
                let mut versus = None;
                if let Some((a, d)) = s.fight {
                    if s.round == 1 && s.turns == 1 && *character != a {
                        return Err(forbid(
                            RULE_VERSUS,
                            format!(
                                "in a fight the aggressor, {}, is focal first",
                                state.name(a)
                            ),
                        ));
                    }
                    if *character == a {
                        versus = Some(d);
                    } else if *character == d {
                        versus = Some(a);
                    }
                }
                Ok(vec![Event::CheckCalled {
                    check: OpenCheck::new(state.next_check, *character, None, false, versus),
                }])
            }
            Command::Tn { tn, not_relevant } => {
                gm_only(seat)?;
                let c = open_check(state)?;
                if c.versus.is_some() {
                    return Err(forbid(
                        RULE_VERSUS,
                        "against a defender the TN starts at 1 and the defender raises it",
                    ));
                }
                if *tn == 0 || *tn > MAX_TN {
                    return Err(RuleError::out_of_range(
                        checks::RULE_WHEN_TO_ROLL,
                        "TN",
                        1,
                        5,
                        i64::from(*tn),
                    ));
                }
                if not_relevant.len() > 10 {
                    return Err(RuleError::out_of_range(
                        RULE_INJURIES,
                        "entries ruled not relevant",
                        0,
                        10,
                        not_relevant.len() as i64,
                    ));
                }
                Ok(vec![Event::TnSet {
                    tn: *tn,
                    not_relevant: not_relevant.iter().map(|s| clip(s)).collect(),
                }])
            }
            Command::Invoke { element, fully } => {
                let c = focal_player(state, seat)?;
                let m = known(state, c.focal)?;
                let el = element_of(RULE_INVOKE, m, element)?;
                let locked = m.is_locked(el.name());
                match el {
                    Element::Profession { name, main } => {
                        if let Some((p, _)) = &c.profession {
                            return Err(forbid(
                                RULE_INVOKE,
                                format!("only one Profession per roll; {p} is invoked"),
                            ));
                        }
                        let usage = match (main, *fully, locked) {
                            (true, true, false) => ProfessionUse::MainFully,
                            (true, false, false) => ProfessionUse::MainPartly,
                            (true, true, true) => ProfessionUse::MainAgain,
                            (true, false, true) => {
                                return Err(forbid(
                                    RULE_LOCKS,
                                    format!(
                                        "{name} is invoked for a simultaneous task; invoked again it must be fully applicable (one die)"
                                    ),
                                ));
                            }
                            (false, _, true) => {
                                return Err(forbid(
                                    RULE_LOCKS,
                                    format!("{name} is dedicated to a simultaneous task"),
                                ));
                            }
                            (false, _, false) => ProfessionUse::Side,
                        };
                        Ok(vec![Event::Invoked {
                            element: name,
                            step: Step::Profession(usage),
                        }])
                    }
                    Element::Specialization { name, profession } => {
                        if c.specialization.is_some() {
                            return Err(forbid(RULE_INVOKE, "only one Specialization per roll"));
                        }
                        match &c.profession {
                            Some((p, _)) if same_name(p, &profession) => {}
                            _ => {
                                return Err(forbid(
                                    RULE_INVOKE,
                                    format!(
                                        "{name} is a Specialization of {profession}: invoke that Profession first"
                                    ),
                                ));
                            }
                        }
                        if locked {
                            return Err(forbid(
                                RULE_LOCKS,
                                format!("{name} is dedicated to a simultaneous task"),
                            ));
                        }
                        Ok(vec![Event::Invoked {
                            element: name,
                            step: Step::Specialization,
                        }])
                    }
                    Element::Quality { name } => {
                        if c.quality.is_some() {
                            return Err(forbid(
                                RULE_INVOKE,
                                "only one Quality may be invoked for each check",
                            ));
                        }
                        if locked {
                            return Err(forbid(
                                RULE_LOCKS,
                                format!("{name} is dedicated to a simultaneous task"),
                            ));
                        }
                        Ok(vec![Event::Invoked {
                            element: name,
                            step: Step::Quality,
                        }])
                    }
                }
            }
            Command::Help { helper, element } => {
                acts_for(state, seat, *helper)?;
                let c = open_check(state)?;
                if *helper == c.focal {
                    return Err(forbid(
                        RULE_HELP,
                        "the focal character cannot help themself",
                    ));
                }
                if Some(*helper) == c.versus {
                    return Err(forbid(
                        RULE_VERSUS,
                        "the defender cannot help the aggressor",
                    ));
                }
                not_debilitated(state, *helper)?;
                if let Some(s) = &state.sequence
                    && state.participant(*helper).is_none()
                {
                    let _ = s;
                    return Err(forbid(
                        RULE_SEQUENCE,
                        format!(
                            "{} does not take part in this Action Sequence",
                            state.name(*helper)
                        ),
                    ));
                }
                if c.help.iter().any(|h| h.helper == *helper) {
                    return Err(forbid(
                        RULE_PLAYERS,
                        "a supporting character invokes one element to add a bonus die",
                    ));
                }
                let m = known(state, *helper)?;
                if invoking::element(&m.character, element).is_none()
                    && m.character.find_talent(element).is_some()
                {
                    return Err(forbid(
                        RULE_HELP,
                        "Special Talents cannot be used to help: only Professions, Specializations and Qualities",
                    ));
                }
                let el = element_of(RULE_HELP, m, element)?;
                let main = matches!(el, Element::Profession { main: true, .. });
                if m.is_locked(el.name()) && !main {
                    return Err(forbid(
                        RULE_LOCKS,
                        format!("{} is dedicated to a simultaneous task", el.name()),
                    ));
                }
                Ok(vec![Event::Helped {
                    helper: *helper,
                    element: el.name().to_string(),
                }])
            }
            Command::Defend { element, fully } => {
                let c = open_check(state)?;
                let d = c
                    .versus
                    .ok_or_else(|| forbid(RULE_VERSUS, "this check has no defender"))?;
                acts_for(state, seat, d)?;
                let m = known(state, d)?;
                let el = element_of(RULE_VERSUS, m, element)?;
                // R-SA-5: the defender invokes what a check allows: one Profession,
                // one Specialization of that Profession, one Quality.
                let (invoked, profession) = c.defender_invoked(&m.character);
                match &el {
                    Element::Profession { .. } => {
                        if let Some(p) = profession {
                            return Err(forbid(
                                RULE_VERSUS,
                                format!(
                                    "the defender invokes one Profession, as in any check; {p} is invoked"
                                ),
                            ));
                        }
                    }
                    Element::Specialization {
                        name,
                        profession: of,
                    } => {
                        if let Some(s) = invoked
                            .iter()
                            .find(|e| matches!(e, Element::Specialization { .. }))
                        {
                            return Err(forbid(
                                RULE_VERSUS,
                                format!(
                                    "the defender invokes one Specialization, as in any check; {} is invoked",
                                    s.name()
                                ),
                            ));
                        }
                        if !profession.as_deref().is_some_and(|p| same_name(p, of)) {
                            return Err(forbid(
                                RULE_VERSUS,
                                format!(
                                    "{name} is a Specialization of {of}: the defender invokes that Profession first"
                                ),
                            ));
                        }
                    }
                    Element::Quality { .. } => {
                        if let Some(q) = invoked
                            .iter()
                            .find(|e| matches!(e, Element::Quality { .. }))
                        {
                            return Err(forbid(
                                RULE_VERSUS,
                                format!(
                                    "the defender invokes one Quality, as in any check; {} is invoked",
                                    q.name()
                                ),
                            ));
                        }
                    }
                }
                // "Invoking an Element": a dedicated element is not invoked for a
                // simultaneous task, except the Main Profession, which then gives
                // one die and only when fully applicable.
                let main = matches!(el, Element::Profession { main: true, .. });
                let locked = m.is_locked(el.name());
                if locked && !main {
                    return Err(forbid(
                        RULE_LOCKS,
                        format!("{} is dedicated to a simultaneous task", el.name()),
                    ));
                }
                // R-SA-11: the TN rises by the dice the element would add.
                let raise = match (main, *fully, locked) {
                    (true, true, false) => ProfessionUse::MainFully.dice(),
                    (true, false, true) => {
                        return Err(forbid(
                            RULE_LOCKS,
                            format!(
                                "{} is invoked for a simultaneous task; invoked again it must be fully applicable (one die)",
                                el.name()
                            ),
                        ));
                    }
                    _ => 1,
                };
                let tn = c.tn.unwrap_or(1);
                let raised = tn.saturating_add(raise);
                if raised > MAX_TN {
                    return Err(RuleError::out_of_range(
                        RULE_VERSUS,
                        "TN",
                        1,
                        i64::from(MAX_TN),
                        i64::from(raised),
                    ));
                }
                Ok(vec![Event::Defended {
                    element: el.name().to_string(),
                    tn: raised,
                }])
            }
            Command::Talent { name } => {
                let c = focal_player(state, seat)?;
                let m = known(state, c.focal)?;
                let t = m.character.find_talent(name).ok_or_else(|| {
                    unknown_among(
                        RULE_TALENT_USE,
                        &format!("Special Talent of {}", m.character.name()),
                        name,
                        &talent_names(m),
                    )
                })?;
                if m.character.is_unpaired(&t.name) {
                    return Err(unpaired(t.name.trim()));
                }
                if c.talents.iter().any(|x| same_name(x, &t.name)) {
                    return Err(forbid(
                        RULE_TALENT_USE,
                        format!("{} is called out already", t.name),
                    ));
                }
                Ok(vec![Event::TalentCalled {
                    name: t.name.trim().to_string(),
                }])
            }
            Command::SpendLuck { amount } => {
                let c = focal_player(state, seat)?;
                let m = known(state, c.focal)?;
                // "Players may not add luck to this": neither side of Character
                // versus Character spends Luck on its roll. R-SA-11.
                if c.versus.is_some() {
                    return Err(forbid(
                        RULE_VERSUS_LUCK,
                        "players may not add Luck to a Character versus Character roll",
                    ));
                }
                if *amount == 0 || c.luck.saturating_add(*amount) > MAX_LUCK_SPEND {
                    return Err(RuleError::out_of_range(
                        RULE_LUCK,
                        "Luck spent on one roll",
                        1,
                        i64::from(MAX_LUCK_SPEND.saturating_sub(c.luck)),
                        i64::from(*amount),
                    ));
                }
                if c.luck.saturating_add(*amount) > m.character.luck() {
                    return Err(forbid(
                        RULE_LUCK,
                        format!("{} has {} Luck", m.character.name(), m.character.luck()),
                    ));
                }
                Ok(vec![Event::LuckSpent { amount: *amount }])
            }
            Command::Declare { nature, text } => {
                let c = focal_player(state, seat)?;
                if c.declaration.is_some() {
                    return Err(forbid(
                        RULE_SACRIFICE,
                        "one Principle or Worst Impulse declaration per roll",
                    ));
                }
                if text.trim().is_empty() {
                    return Err(forbid(
                        RULE_SACRIFICE,
                        "say what the character sacrifices or overindulges in",
                    ));
                }
                Ok(vec![Event::Declared {
                    nature: *nature,
                    text: clip(text),
                }])
            }
            Command::Rule { accept } => {
                gm_only(seat)?;
                let c = open_check(state)?;
                match &c.declaration {
                    Some(d) if d.accepted.is_none() => Ok(vec![Event::Ruled { accepted: *accept }]),
                    _ => Err(wrong_phase(
                        RULE_SACRIFICE,
                        "no declaration waits for the GM",
                    )),
                }
            }
            Command::Bonus { dice } => {
                gm_only(seat)?;
                let c = open_check(state)?;
                if *dice == 0 || c.gm_bonus.saturating_add(*dice) > MAX_BONUS {
                    return Err(RuleError::out_of_range(
                        checks::RULE_BONUS_PAST_SIX,
                        "bonus dice",
                        1,
                        i64::from(MAX_BONUS.saturating_sub(c.gm_bonus)),
                        i64::from(*dice),
                    ));
                }
                Ok(vec![Event::BonusGiven { dice: *dice }])
            }
            Command::Roll { weapon, target } => {
                let c = focal_player(state, seat)?;
                let m = known(state, c.focal)?;
                if c.tn.is_none() {
                    return Err(wrong_phase(
                        checks::RULE_WHEN_TO_ROLL,
                        "the GM sets the TN first",
                    ));
                }
                if matches!(&c.declaration, Some(d) if d.accepted.is_none()) {
                    return Err(wrong_phase(
                        RULE_SACRIFICE,
                        "the GM accepts or rejects the declaration first",
                    ));
                }
                let w = match weapon {
                    Some(w) => Some(m.character.find_weapon(w).ok_or_else(|| {
                        unknown_among(
                            harm::RULE_WEAPONS,
                            &format!("weapon of {}", m.character.name()),
                            w,
                            &m.character
                                .sheet()
                                .weapons
                                .iter()
                                .map(|x| x.name.trim().to_string())
                                .collect::<Vec<_>>(),
                        )
                    })?),
                    None => None,
                };
                let target = attack_target(state, c, w.map(|w| w.name.trim()), *target)?;
                let (spec, auto) = c.spec(&m.character);
                let pool = checks::settle(&spec);
                let what = match (w, target) {
                    (Some(w), Some(t)) => format!(
                        "{} at {} against TN {}",
                        w.name.trim(),
                        state.name(t),
                        pool.tn
                    ),
                    (Some(w), None) => format!("{} against TN {}", w.name.trim(), pool.tn),
                    _ => format!("check against TN {}", pool.tn),
                };
                let roll = checks::roll_announced(
                    &pool,
                    &auto,
                    roller,
                    Some((m.character.name(), &what)),
                )?;
                let weapon = match w {
                    Some(w) if roll.success => Some((
                        w.name.trim().to_string(),
                        harm::weapon_damage(w.level, roll.extra_hits),
                    )),
                    _ => None,
                };
                let until = if state.sequence.is_some() {
                    Some(Until::RoundEnd)
                } else if c.ongoing {
                    Some(Until::TaskEnd(c.id))
                } else {
                    None
                };
                let mut events = vec![Event::Rolled {
                    check: c.clone(),
                    spec,
                    roll,
                    weapon: weapon.clone(),
                    target,
                    until,
                }];
                if let (Some((w, damage)), Some(t)) = (weapon, target) {
                    events.push(weapon_harm(state, t, &w, damage)?);
                }
                Ok(events)
            }
            Command::SimilarInjury { similar_to } => {
                gm_only(seat)?;
                let p = state.pending_injury.as_ref().ok_or_else(|| {
                    wrong_phase(RULE_SIMILAR, "no weapon's Injury waits for the GM's call")
                })?;
                let m = known(state, p.character)?;
                let recording = m
                    .character
                    .injuries()
                    .plan(HarmKind::Injury, p.level, &p.name, similar_to.as_deref())
                    .map_err(|e| harm_refusal(m, HarmKind::Injury, e))?;
                Ok(vec![Event::Harmed {
                    character: p.character,
                    kind: HarmKind::Injury,
                    recording,
                }])
            }
            Command::EndSession { consequential } => {
                gm_only(seat)?;
                no_check(state)?;
                if state.sequence.is_some() {
                    return Err(wrong_phase(
                        RULE_SEQUENCE,
                        "end the Action Sequence before the session",
                    ));
                }
                if state.session_over {
                    return Err(wrong_phase(
                        RULE_SESSION,
                        "the session has ended already; play resumes with the next check or Action Sequence",
                    ));
                }
                Ok(vec![Event::SessionEnded {
                    consequential: *consequential,
                }])
            }
            Command::Harm {
                character,
                kind,
                level,
                name,
                similar_to,
            } => {
                gm_only(seat)?;
                let m = known(state, *character)?;
                let track = match kind {
                    HarmKind::Injury => m.character.injuries(),
                    HarmKind::Stress => m.character.stresses(),
                };
                let recording = track
                    .plan(*kind, *level, name, similar_to.as_deref())
                    .map_err(|e| harm_refusal(m, *kind, e))?;
                Ok(vec![Event::Harmed {
                    character: *character,
                    kind: *kind,
                    recording,
                }])
            }
            Command::Heal {
                character,
                kind,
                name,
            } => {
                gm_only(seat)?;
                let m = known(state, *character)?;
                let track = match kind {
                    HarmKind::Injury => m.character.injuries(),
                    HarmKind::Stress => m.character.stresses(),
                };
                let at = track.find(name).ok_or_else(|| {
                    unknown_among(
                        RULE_INJURIES,
                        &format!("{kind} of {}", m.character.name()),
                        name,
                        &track
                            .entries()
                            .iter()
                            .map(|(_, n)| n.to_string())
                            .collect::<Vec<_>>(),
                    )
                })?;
                Ok(vec![Event::Healed {
                    character: *character,
                    kind: *kind,
                    at,
                    name: name.trim().to_string(),
                }])
            }
            Command::LuckPrinciple { character } => {
                gm_only(seat)?;
                luck_room(state, *character, 1)?;
                Ok(vec![Event::LuckGained {
                    character: *character,
                    amount: 1,
                    reason: LuckReason::Principle,
                }])
            }
            Command::LuckImpulse {
                character,
                beneficiary,
            } => {
                // The focal character chooses who was most inconvenienced.
                let focal_ok = state
                    .check
                    .as_ref()
                    .is_some_and(|c| may_act(state, seat, c.focal));
                if !seat.is_gm() && !focal_ok {
                    return Err(RuleError::new(
                        RULE_PRINCIPLES,
                        Refusal::NotPermitted,
                        "the GM or the focal player names who gains the Luck",
                    ));
                }
                known(state, *character)?;
                if character == beneficiary {
                    return Err(forbid(
                        RULE_PRINCIPLES,
                        "the most inconvenienced *other* character gains the Luck",
                    ));
                }
                luck_room(state, *beneficiary, 1)?;
                Ok(vec![Event::LuckGained {
                    character: *beneficiary,
                    amount: 1,
                    reason: LuckReason::WorstImpulse,
                }])
            }
            Command::Adjust {
                character,
                value,
                amount,
            } => crate::gm::adjust(state, seat, *character, *value, *amount),
            Command::Add { kind, name, to } => {
                crate::gm::add(state, seat, kind, name.as_deref(), to.as_deref())
            }
            Command::Remove { character } => crate::gm::remove(state, seat, *character),
            Command::GiveLuck { character, amount } => {
                gm_only(seat)?;
                if *amount == 0 || *amount > 3 {
                    return Err(RuleError::out_of_range(
                        RULE_LUCK,
                        "Luck given at once",
                        1,
                        3,
                        i64::from(*amount),
                    ));
                }
                luck_room(state, *character, *amount)?;
                Ok(vec![Event::LuckGained {
                    character: *character,
                    amount: *amount,
                    reason: LuckReason::Gm,
                }])
            }
            Command::Release {
                character,
                element: Some(element),
            } => {
                gm_only(seat)?;
                let m = known(state, *character)?;
                let lock = m
                    .locked
                    .iter()
                    .find(|l| same_name(&l.element, element))
                    .ok_or_else(|| {
                        unknown_among(
                            RULE_LOCKS,
                            &format!("invoked element of {}", m.character.name()),
                            element,
                            &m.locked
                                .iter()
                                .map(|l| l.element.clone())
                                .collect::<Vec<_>>(),
                        )
                    })?;
                Ok(vec![Event::Released {
                    character: *character,
                    element: Some(lock.element.clone()),
                }])
            }
            Command::LeaveFray { character } => {
                acts_for(state, seat, *character)?;
                let s = state
                    .sequence
                    .as_ref()
                    .ok_or_else(|| wrong_phase(RULE_SEQUENCE, "no Action Sequence is under way"))?;
                if s.turns > 0 || state.check.is_some() {
                    return Err(wrong_phase(
                        RULE_SEQUENCE,
                        "a character may leave the fray only at the beginning of a round",
                    ));
                }
                match state.participant(*character) {
                    None => Err(forbid(
                        RULE_SEQUENCE,
                        format!("{} does not take part", state.name(*character)),
                    )),
                    Some(p) if p.threatened => Err(forbid(
                        RULE_SEQUENCE,
                        format!(
                            "{} is threatened and must take a turn this round",
                            state.name(*character)
                        ),
                    )),
                    Some(_) => Ok(vec![Event::Left {
                        character: *character,
                    }]),
                }
            }
            Command::Release {
                character,
                element: None,
            } => {
                gm_only(seat)?;
                let m = known(state, *character)?;
                if !m
                    .locked
                    .iter()
                    .any(|l| matches!(l.until, Until::TaskEnd(_)))
                {
                    return Err(forbid(
                        RULE_LOCKS,
                        format!(
                            "{} has no element dedicated to an ongoing task",
                            m.character.name()
                        ),
                    ));
                }
                Ok(vec![Event::Released {
                    character: *character,
                    element: None,
                }])
            }
            Command::Advance { character, advance } => {
                acts_for(state, seat, *character)?;
                between_sessions(state)?;
                let m = known(state, *character)?;
                if !m.advancement_due {
                    return Err(forbid(
                        RULE_SESSION,
                        format!(
                            "{} has no advancement to take: one advancement per character after a consequential session, at the GM's end-of-session step",
                            m.character.name()
                        ),
                    ));
                }
                m.character
                    .check_advance(advance)
                    .map_err(|e| forbid(RULE_ADVANCEMENT, e.to_string()))?;
                Ok(vec![Event::Advanced {
                    character: *character,
                    advance: advance.clone(),
                }])
            }
            Command::Change { character, change } => {
                acts_for(state, seat, *character)?;
                between_sessions(state)?;
                known(state, *character)?
                    .character
                    .check_change(change)
                    .map_err(|e| forbid(RULE_ADVANCEMENT, e.to_string()))?;
                Ok(vec![Event::Changed {
                    character: *character,
                    change: change.clone(),
                }])
            }
            Command::EndSequence => {
                gm_only(seat)?;
                no_check(state)?;
                if state.sequence.is_none() {
                    return Err(wrong_phase(
                        RULE_SEQUENCE,
                        "no Action Sequence is under way",
                    ));
                }
                Ok(vec![Event::SequenceEnded])
            }
            Command::End => {
                gm_only(seat)?;
                let due = due_advancements(state);
                if !due.is_empty() {
                    return Err(wrong_phase(
                        RULE_SESSION,
                        format!(
                            "an advancement is still due for {}: after a consequential session the player may choose one; take it first (`advance CHARACTER ...`), or end with `end carry` to leave it due on the sheet, taken between sessions",
                            due.join(", ")
                        ),
                    ));
                }
                Ok(vec![Event::EncounterEnded])
            }
            Command::EndCarrying => {
                gm_only(seat)?;
                Ok(vec![Event::EncounterEnded])
            }
        }
    }
}

fn luck_room(state: &State, i: usize, amount: u32) -> Result<(), RuleError> {
    let m = known(state, i)?;
    if m.character.luck().saturating_add(amount) > MAX_LUCK {
        return Err(RuleError::out_of_range(
            RULE_LUCK,
            "Luck held",
            0,
            i64::from(MAX_LUCK),
            i64::from(m.character.luck().saturating_add(amount)),
        ));
    }
    Ok(())
}

/// The living characters whose advancement is due at the end-of-session step,
/// as "Name (player)" ("Name (GM)" for a character without a player). The dead
/// advance no more. "Advancement"; R-SA-9.
pub fn due_advancements(state: &State) -> Vec<String> {
    if !state.session_over {
        return Vec::new();
    }
    state
        .present()
        .map(|(_, m)| m)
        .filter(|m| m.advancement_due && !m.character.dead())
        .map(|m| {
            format!(
                "{} ({})",
                m.character.name(),
                m.character.player().unwrap_or("GM")
            )
        })
        .collect()
}

/// Advancement and cycle changes happen at the GM's end-of-session step (R-SA-9).
fn between_sessions(state: &State) -> Result<(), RuleError> {
    if !state.session_over || state.check.is_some() || state.sequence.is_some() {
        return Err(wrong_phase(
            RULE_SESSION,
            "advancement comes after a consequential session: the GM ends the session first (end-session consequential)",
        ));
    }
    Ok(())
}

fn talent_names(m: &Member) -> Vec<String> {
    m.character
        .sheet()
        .special_talents
        .iter()
        .map(|t| t.name.trim().to_string())
        .collect()
}

/// A refusal for an Injury or Stress that cannot be recorded as asked.
fn harm_refusal(m: &Member, kind: HarmKind, e: harm::HarmError) -> RuleError {
    match e {
        harm::HarmError::Words => forbid(RULE_INJURIES, e.to_string()),
        harm::HarmError::NoSuchEntry { name, .. } => {
            let track = match kind {
                HarmKind::Injury => m.character.injuries(),
                HarmKind::Stress => m.character.stresses(),
            };
            unknown_among(
                RULE_SIMILAR,
                &format!("{kind} of {}", m.character.name()),
                &name,
                &track
                    .entries()
                    .iter()
                    .map(|(_, n)| n.to_string())
                    .collect::<Vec<_>>(),
            )
        }
        harm::HarmError::OtherLevel { .. } => forbid(RULE_SIMILAR, e.to_string()),
    }
}

/// Whom a weapon attacks: the defender in Character versus Character, else the
/// character named with `at`. "Weapons and causing Injury"; R-SA-4, R-SA-5.
fn attack_target(
    state: &State,
    c: &OpenCheck,
    weapon: Option<&str>,
    target: Option<usize>,
) -> Result<Option<usize>, RuleError> {
    let Some(w) = weapon else {
        return match target {
            Some(_) => Err(forbid(
                harm::RULE_WEAPONS,
                "a target is named for an attack with a weapon: roll with WEAPON at TARGET",
            )),
            None => Ok(None),
        };
    };
    let t = match (c.versus, target) {
        (Some(d), None) => d,
        (Some(d), Some(t)) if t == d => d,
        (Some(d), Some(_)) => {
            return Err(forbid(
                RULE_VERSUS,
                format!("this attack is against the defender, {}", state.name(d)),
            ));
        }
        (None, Some(t)) => t,
        (None, None) => {
            return Err(forbid(
                harm::RULE_WEAPONS,
                format!(
                    "name whom the {w} attacks: roll with {w} at TARGET; the Injury is recorded on the target"
                ),
            ));
        }
    };
    let m = known(state, t)?;
    if t == c.focal {
        return Err(forbid(
            harm::RULE_WEAPONS,
            "a character does not attack themself",
        ));
    }
    if m.character.dead() {
        return Err(forbid(
            harm::RULE_WEAPONS,
            format!("{} is dead already", m.character.name()),
        ));
    }
    Ok(Some(t))
}

/// What a weapon's damage does to its target: an Injury recorded at once when
/// the target has no Injury of that level it could be similar to; otherwise the
/// GM is asked which one it is similar to (R-SA-6); past Severe, death (R-SA-4).
fn weapon_harm(state: &State, t: usize, weapon: &str, damage: Damage) -> Result<Event, RuleError> {
    let m = known(state, t)?;
    let level = match damage {
        Damage::Death => {
            return Ok(Event::Killed {
                character: t,
                weapon: weapon.to_string(),
            });
        }
        Damage::Injury(level) => level,
    };
    let name: String = weapon.chars().take(harm::MAX_ENTRY_CHARS).collect();
    let track = m.character.injuries();
    if track.entries().iter().any(|(b, _)| b.level == level) {
        return Ok(Event::InjuryPending {
            pending: PendingInjury {
                character: t,
                level,
                name,
            },
        });
    }
    let recording = track
        .plan(HarmKind::Injury, level, &name, None)
        .map_err(|e| harm_refusal(m, HarmKind::Injury, e))?;
    Ok(Event::Harmed {
        character: t,
        kind: HarmKind::Injury,
        recording,
    })
}

/// Play resumes after the end-of-session step: the next session begins, and an
/// advancement not taken at the step is not carried into it (R-SA-9).
fn resume_play(state: &mut State) {
    state.session_over = false;
    for m in &mut state.characters {
        m.advancement_due = false;
    }
}

fn clip(s: &str) -> String {
    s.trim().chars().take(MAX_NARRATION).collect()
}

impl System for Sapio {
    const ID: &'static str = ID;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = State;

    fn decide(
        state: &State,
        seat: &Seat,
        command: &Command,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, RuleError> {
        let mut events = Self::decide_inner(state, seat, command, roller)?;
        // "The round ends and a new round begins when all characters have been focal once."
        if let Some(round) = round_end_after(state, &events) {
            events.push(Event::RoundEnded { round });
        }
        Ok(events)
    }

    fn evolve(state: &mut State, event: &Event) {
        match event {
            Event::CheckCalled { check } => {
                resume_play(state);
                state.next_check = check.id.saturating_add(1);
                if let Some(s) = &mut state.sequence {
                    s.framed = false;
                }
                state.check = Some(check.clone());
            }
            Event::SequenceBegun { goal, fight } => {
                resume_play(state);
                state.sequence = Some(Sequence {
                    goal: goal.clone(),
                    round: 1,
                    turns: 0,
                    framed: false,
                    participants: Vec::new(),
                    fight: *fight,
                });
            }
            Event::Joined {
                character,
                threatened,
            } => {
                if let Some(s) = &mut state.sequence {
                    match s
                        .participants
                        .iter_mut()
                        .find(|p| p.character == *character)
                    {
                        Some(p) => p.threatened |= *threatened,
                        None => s.participants.push(Participant {
                            character: *character,
                            threatened: *threatened,
                            focal_done: false,
                        }),
                    }
                }
            }
            Event::TurnFramed { .. } => {
                if let Some(s) = &mut state.sequence {
                    s.framed = true;
                    s.turns = s.turns.saturating_add(1);
                }
            }
            Event::TnSet { tn, not_relevant } => {
                if let Some(c) = &mut state.check {
                    c.tn = Some(*tn);
                    c.not_relevant = not_relevant.clone();
                }
            }
            Event::Invoked { element, step } => {
                if let Some(c) = &mut state.check {
                    match step {
                        Step::Profession(u) => c.profession = Some((element.clone(), *u)),
                        Step::Specialization => c.specialization = Some(element.clone()),
                        Step::Quality => c.quality = Some(element.clone()),
                    }
                }
            }
            Event::Helped { helper, element } => {
                if let Some(c) = &mut state.check {
                    c.help.push(Help {
                        helper: *helper,
                        element: element.clone(),
                    });
                }
            }
            Event::Defended { element, tn } => {
                if let Some(c) = &mut state.check {
                    c.defended_with.push(element.clone());
                    c.tn = Some(*tn);
                }
            }
            Event::TalentCalled { name } => {
                if let Some(c) = &mut state.check {
                    c.talents.push(name.clone());
                }
            }
            Event::LuckSpent { amount } => {
                if let Some(c) = &mut state.check {
                    c.luck = c.luck.saturating_add(*amount);
                }
            }
            Event::Declared { nature, text } => {
                if let Some(c) = &mut state.check {
                    c.declaration = Some(Declaration {
                        nature: *nature,
                        text: text.clone(),
                        accepted: None,
                    });
                }
            }
            Event::Ruled { accepted } => {
                if let Some(c) = &mut state.check
                    && let Some(d) = &mut c.declaration
                {
                    d.accepted = Some(*accepted);
                }
            }
            Event::BonusGiven { dice } => {
                if let Some(c) = &mut state.check {
                    c.gm_bonus = c.gm_bonus.saturating_add(*dice);
                }
            }
            Event::Rolled {
                check, roll, until, ..
            } => {
                if let Some(m) = state.characters.get_mut(check.focal) {
                    let s = m.character.sheet_mut();
                    s.luck = s.luck.saturating_sub(check.luck);
                }
                if let Some(until) = until {
                    for (who, element) in check.locks() {
                        if let Some(m) = state.characters.get_mut(who)
                            && !m.is_locked(&element)
                        {
                            m.locked.push(Lock {
                                element,
                                until: *until,
                            });
                        }
                    }
                }
                if let Some(s) = &mut state.sequence
                    && let Some(p) = s
                        .participants
                        .iter_mut()
                        .find(|p| p.character == check.focal)
                {
                    p.focal_done = true;
                }
                state.last_roll = Some(roll.clone());
                state.check = None;
            }
            Event::RoundEnded { .. } => {
                if let Some(s) = &mut state.sequence {
                    s.round += 1;
                    s.turns = 0;
                    s.framed = false;
                    for p in &mut s.participants {
                        p.focal_done = false;
                        // Threatened "at the start of the round": the GM says so again.
                        p.threatened = false;
                    }
                }
                for m in &mut state.characters {
                    m.locked.retain(|l| l.until != Until::RoundEnd);
                }
            }
            Event::Released { character, element } => {
                if let Some(m) = state.characters.get_mut(*character) {
                    match element {
                        Some(e) => m.locked.retain(|l| !same_name(&l.element, e)),
                        None => m.locked.retain(|l| !matches!(l.until, Until::TaskEnd(_))),
                    }
                }
            }
            Event::Left { character } => {
                if let Some(s) = &mut state.sequence {
                    s.participants.retain(|p| p.character != *character);
                }
            }
            Event::SequenceEnded => {
                state.sequence = None;
                for m in &mut state.characters {
                    m.locked.retain(|l| l.until != Until::RoundEnd);
                }
            }
            Event::LuckGained {
                character, amount, ..
            } => {
                if let Some(m) = state.characters.get_mut(*character) {
                    let s = m.character.sheet_mut();
                    s.luck = s.luck.saturating_add(*amount).min(MAX_LUCK);
                }
            }
            Event::Harmed {
                character,
                kind,
                recording,
            } => {
                if let Some(m) = state.characters.get_mut(*character) {
                    let s = m.character.sheet_mut();
                    match kind {
                        HarmKind::Injury => s.injuries.apply(recording),
                        HarmKind::Stress => s.stresses.apply(recording),
                    }
                }
                if *kind == HarmKind::Injury
                    && state
                        .pending_injury
                        .as_ref()
                        .is_some_and(|p| p.character == *character)
                {
                    state.pending_injury = None;
                }
            }
            Event::InjuryPending { pending } => {
                state.pending_injury = Some(pending.clone());
            }
            Event::Killed { character, .. } => {
                if let Some(m) = state.characters.get_mut(*character) {
                    m.character.sheet_mut().dead = true;
                }
            }
            Event::SessionEnded { consequential } => {
                state.session_over = true;
                if *consequential {
                    for m in state.characters.iter_mut().filter(|m| !m.removed) {
                        m.advancement_due = true;
                    }
                }
            }
            Event::Healed {
                character,
                kind,
                at,
                ..
            } => {
                if let Some(m) = state.characters.get_mut(*character) {
                    let s = m.character.sheet_mut();
                    match kind {
                        HarmKind::Injury => s.injuries.clear(*at),
                        HarmKind::Stress => s.stresses.clear(*at),
                    };
                }
            }
            Event::Advanced { character, advance } => {
                if let Some(m) = state.characters.get_mut(*character) {
                    m.character.apply_advance(advance);
                    m.advancement_due = false;
                }
            }
            Event::Changed { character, change } => {
                if let Some(m) = state.characters.get_mut(*character) {
                    m.character.apply_change(change);
                }
            }
            Event::EncounterEnded => {
                state.over = true;
                state.check = None;
            }
            Event::Adjusted {
                character,
                value: crate::gm::Value::Luck,
                to,
                ..
            } => {
                if let Some(m) = state.characters.get_mut(*character) {
                    m.character.sheet_mut().luck = *to;
                }
            }
            Event::Added { newcomer } => state.characters.push(Member {
                character: newcomer.clone(),
                locked: Vec::new(),
                advancement_due: false,
                removed: false,
            }),
            Event::Removed { character } => {
                if let Some(m) = state.characters.get_mut(*character) {
                    m.removed = true;
                    m.locked.clear();
                    m.advancement_due = false;
                }
                if let Some(s) = &mut state.sequence {
                    s.participants.retain(|p| p.character != *character);
                }
            }
        }
    }

    fn view(state: &State, _seat: &Seat) -> State {
        state.clone()
    }

    fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
        crate::text::legal(state, seat)
    }
}

/// A table file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// Not TOML, or a field of the wrong type.
    #[error("table file: {0}")]
    Toml(String),
    /// A character file could not be read.
    #[error("characters[{index}]: cannot read {path}: {error}")]
    File {
        /// Index in `characters`.
        index: usize,
        /// The path.
        path: String,
        /// The I/O error.
        error: String,
    },
    /// A character file is not TOML of a character.
    #[error("characters[{index}] ({path}): {error}")]
    Sheet {
        /// Index in `characters`.
        index: usize,
        /// The path or `inline`.
        path: String,
        /// What is wrong.
        error: String,
    },
    /// A character breaks the rules.
    #[error("characters[{index}] ({path}): {error}")]
    Character {
        /// Index in `characters`.
        index: usize,
        /// The path or `inline`.
        path: String,
        /// Every broken rule.
        error: DraftError,
    },
    /// A table needs at least one character and at most [`MAX_CHARACTERS`].
    #[error("characters: a table needs 1 to {MAX_CHARACTERS} characters, not {0}")]
    Count(usize),
    /// Two characters share a name.
    #[error("characters: two characters are called {0:?}")]
    Duplicate(String),
    /// Each entry names a file or holds a sheet, not both or neither.
    #[error("characters[{0}]: give either `file` or `sheet`")]
    Entry(usize),
}

/// A table file (TOML): a title and the characters (files relative to the table
/// file, or inline sheets).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableFile {
    /// The encounter's title.
    #[serde(default)]
    pub title: String,
    /// The characters.
    pub characters: Vec<TableCharacter>,
}

/// One character of a table file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableCharacter {
    /// A character file, relative to the table file.
    #[serde(default)]
    pub file: Option<String>,
    /// An inline sheet.
    #[serde(default)]
    pub sheet: Option<crate::characters::CharacterDraft>,
}

/// Build a table from a table file's text.
///
/// # Errors
/// [`SetupError`] naming the field or character.
pub fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
    text: &str,
    files: &F,
) -> Result<State, SetupError> {
    let file: TableFile = toml::from_str(text).map_err(|e| SetupError::Toml(e.to_string()))?;
    if file.characters.is_empty() || file.characters.len() > MAX_CHARACTERS {
        return Err(SetupError::Count(file.characters.len()));
    }
    let mut chars: Vec<Character> = Vec::new();
    for (index, entry) in file.characters.iter().enumerate() {
        let (path, draft) = match (&entry.file, &entry.sheet) {
            (Some(f), None) => {
                let t = files.read(f).map_err(|e| SetupError::File {
                    index,
                    path: f.clone(),
                    error: e.to_string(),
                })?;
                let d = toml::from_str(&t).map_err(|e| SetupError::Sheet {
                    index,
                    path: f.clone(),
                    error: e.to_string(),
                })?;
                (f.clone(), d)
            }
            (None, Some(s)) => ("inline".to_string(), s.clone()),
            _ => return Err(SetupError::Entry(index)),
        };
        let c = Character::from_draft(draft).map_err(|error| SetupError::Character {
            index,
            path: path.clone(),
            error,
        })?;
        if chars.iter().any(|x| same_name(x.name(), c.name())) {
            return Err(SetupError::Duplicate(c.name().to_string()));
        }
        chars.push(c);
    }
    Ok(State::new(&file.title, chars))
}

impl TextPlay for Sapio {
    const BOOK: tabula_core::rule::Book = crate::BOOK;

    type SetupError = SetupError;

    fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
        text: &str,
        files: &F,
    ) -> Result<State, SetupError> {
        setup(text, files)
    }

    fn seats(state: &State) -> Vec<Seat> {
        tabula_core::system::seat_list(
            state
                .characters
                .iter()
                .filter_map(|m| m.character.player().map(|p| Seat::Player(p.to_string()))),
        )
    }

    fn default_seat(state: &State) -> Seat {
        crate::text::default_seat(state)
    }

    fn parse_command(state: &State, seat: &Seat, line: &str) -> Result<Command, CommandParseError> {
        crate::commands::parse(state, seat, line)
    }

    const COMMANDS: &'static [tabula_core::system::CommandDoc] = crate::commands::COMMANDS;
    /// The GM ends the encounter with `end` ([`RULE_SEQUENCE`]).
    const END_COMMANDS: &'static [&'static str] = &["end"];
    const LOG_SYMBOLS: tabula_core::system::LogSymbols =
        tabula_core::system::LogSymbols::SpiralDice;

    /// Issue 27, bug 8: a check's Spiral Dice are the focal character's roll,
    /// credited to the seat that plays the focal character (the GM for a
    /// character without a player), whoever's command rolled them
    /// ([`RULE_SEQUENCE`]).
    fn event_seat(state: &State, event: &Event) -> Option<Seat> {
        let Event::Rolled { check, .. } = event else {
            return None;
        };
        let m = state.characters.get(check.focal)?;
        Some(
            m.character
                .player()
                .map_or(Seat::Gm, |p| Seat::Player(p.to_string())),
        )
    }

    /// [`crate::sheet::sheet`]: the character sheet; nothing is hidden in Sapio.
    fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
        crate::sheet::sheet(state, seat, name)
    }

    /// [`crate::sheet::sheet_doc`]: the table's facts and every character's
    /// sheet; nothing is hidden in Sapio.
    fn sheet_doc(state: &State, seat: &Seat) -> tabula_core::sheet::SheetDoc {
        crate::sheet::sheet_doc(state, seat)
    }

    fn describe(state: &State, event: &Event) -> String {
        crate::text::describe(state, event)
    }

    fn status(state: &State, seat: &Seat) -> String {
        crate::text::status(state, seat)
    }

    /// The open check's pool against its TN for the focal character's seat
    /// (`text::choice_odds`), the chance status prints.
    fn odds(state: &State, seat: &Seat) -> Vec<tabula_core::system::ChoiceOdds> {
        crate::text::choice_odds(state, seat)
    }

    fn finished(state: &State) -> bool {
        state.over
            || (state.present().next().is_some()
                && state.present().all(|(_, m)| m.character.out_of_action()))
    }
}
