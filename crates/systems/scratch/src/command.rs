//! The commands of an encounter: what a seat gives ([`Command`]) and what a
//! character does on its turn ([`Action`]) ("Turns", "Basic Actions", the
//! abilities).

use serde::{Deserialize, Serialize};

use crate::abilities::{Ability, Terrain};

/// A command a seat gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Command {
    /// Roll initiative for every group and begin the turns ("Turns").
    Initiative,
    /// The GM adds or removes a terrain ("Movement Abilities").
    Terrain {
        /// Which terrain.
        terrain: Terrain,
        /// Add (true) or remove.
        present: bool,
    },
    /// Give a companion a temporary +1 bonus, before the encounter ("Support
    /// Abilities", craftsmanship).
    Craft {
        /// The crafter's id.
        crafter: String,
        /// The companion's id.
        target: String,
        /// The ability (already at least level 1).
        ability: Ability,
        /// In a hurry: a craftsmanship roll of 10.
        hurry: bool,
    },
    /// Remove a temporary bonus the crafter gave, before the encounter.
    Uncraft {
        /// The crafter's id.
        crafter: String,
        /// The companion's id.
        target: String,
        /// The ability.
        ability: Ability,
    },
    /// The GM calls for a roll outside the actions: d20 + the ability's level
    /// (none: no ability) against a difficulty ("Rolls"). Takes no action.
    Roll {
        /// The character's id.
        character: String,
        /// The ability added, if any.
        ability: Option<Ability>,
        /// The difficulty, -1000..=1000.
        difficulty: i64,
        /// The roll requires the ability: refused without a level of it.
        requires: bool,
    },
    /// The GM sets or changes a character's hit points (`adjust CHARACTER
    /// VALUE AMOUNT`).
    ///
    /// "Hit Points" (001_337b5a42e331e513.txt); issue 27, item 6.
    Adjust {
        /// The character's id.
        character: String,
        /// The value.
        value: crate::gm::Value,
        /// `N`, `+N` or `-N`.
        amount: crate::gm::Amount,
    },
    /// The GM ends the encounter now.
    ///
    /// "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
    EndEncounter,
    /// The GM takes a character out of the encounter (`remove CHARACTER`).
    ///
    /// "Basic Actions", "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
    Remove {
        /// The character's id.
        character: String,
    },
    /// The GM adds a character to the encounter (`add KIND|FILE.toml [as
    /// NAME] [to SEAT]`, [`crate::gm::add`]; with `sheet`,
    /// [`crate::gm::add_sheet`]).
    ///
    /// "Turns", "Hit Points", "Abilities" (001_337b5a42e331e513.txt); R-SCR-7;
    /// issue 27, item 6.
    Add {
        /// The kind: a character at the table or a bundled sheet, by name;
        /// with `sheet`, the uploaded file's name as typed.
        kind: String,
        /// The text of the uploaded character sheet `kind` names (`add
        /// FILE.toml`), read again and validated by `decide`; absent (the
        /// default, so older JSON commands still read) for a known kind.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sheet: Option<String>,
        /// The newcomer's name (default the kind's).
        name: Option<String>,
        /// The seat whose initiative group it joins (default the GM's).
        to: Option<String>,
    },
    /// A character acts on its turn (starting its turn if it has not begun).
    Act {
        /// The character's id.
        actor: String,
        /// What it does.
        action: Action,
    },
}

/// What a character does on its turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// Basic attack: close range normal attack, 1 damage ("Basic Actions").
    Attack {
        /// The target's id.
        target: String,
        /// Fighting, wrestling or knockout to add (R-SCR-5: default the highest).
        with: Option<Ability>,
    },
    /// Throw object: long range normal attack, 1 damage; needs a throwable object.
    Throw {
        /// The target's id.
        target: String,
    },
    /// Hold: close range force attack against strength; delays, stops evading.
    Hold {
        /// The target's id.
        target: String,
        /// Wrestling, detection or a movement ability in its terrain.
        with: Option<Ability>,
    },
    /// Distract: unrepeatable close range psychic attack; delays.
    Distract {
        /// The target's id.
        target: String,
        /// A movement ability in its terrain.
        with: Option<Ability>,
    },
    /// Evade: add a movement ability to agility and strength until the next turn.
    Evade {
        /// The movement ability (R-SCR-5: default the highest usable).
        with: Option<Ability>,
    },
    /// Escape: leave the encounter; needs an evade on the last turn.
    Escape,
    /// Engage (bonus): +2 close attacks this turn, -2 agility until the next.
    Engage,
    /// Take cover (bonus): +2 agility, -2 to rolls.
    TakeCover,
    /// Leave cover (free).
    LeaveCover,
    /// Shooting: long range, 2 damage (5 automatic, R-SCR-3).
    Shoot {
        /// The target's id.
        target: String,
    },
    /// Blasting: up to three different targets, 1 damage each.
    Blast {
        /// One to three different target ids.
        targets: Vec<String>,
    },
    /// Knockout: close range, 4 damage healthy / 2 injured; delays oneself.
    Knockout {
        /// The target's id.
        target: String,
    },
    /// Fighting: two basic attacks when healthy (one when injured).
    Fight {
        /// One or two target ids (one id: both attacks at it).
        targets: Vec<String>,
    },
    /// Surprise: unrepeatable long range psychic attack with stealth or detection;
    /// panics.
    Surprise {
        /// The target's id.
        target: String,
        /// Stealth or detection (R-SCR-5: default the highest).
        with: Option<Ability>,
    },
    /// Intimidate: unrepeatable long range psychic attack with command; panics.
    Intimidate {
        /// The target's id.
        target: String,
    },
    /// Healing: revive an incapacitated character or heal an injured one.
    Heal {
        /// The target's id.
        target: String,
    },
    /// Do nothing more: end the turn.
    End,
}
