//! The book's abilities ("Abilities" and its sub-sections) and the terrain each
//! movement ability needs ("Movement Abilities").

use serde::{Deserialize, Serialize};
use std::fmt;

/// One ability of the book. A character without at least one level of an ability
/// does not have it and cannot use it ("Scratch RPS" introduction).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ability {
    /// "Toughness": maximum hit points.
    Toughness,
    /// "Attack Abilities": a long range attack for 2 damage.
    Shooting,
    /// "Attack Abilities": up to three targets, 1 damage each.
    Blasting,
    /// "Attack Abilities": a close attack for 4 (healthy) or 2 (injured) damage.
    Knockout,
    /// "Attack Abilities": two basic attacks in one action when healthy.
    Fighting,
    /// "Attack Abilities": basic attacks and holds; R-SCR-4.
    Wrestling,
    /// "Stalking Abilities": 2 x level to the group's initiative; agility.
    Stealth,
    /// "Stalking Abilities": 10 x level to the group's initiative; holds.
    Detection,
    /// "Movement Abilities": obstacles.
    Acrobatics,
    /// "Movement Abilities": level ground.
    Quickness,
    /// "Movement Abilities": room to fly.
    Flying,
    /// "Movement Abilities": water.
    Swimming,
    /// "Support Abilities": revive and heal others.
    Healing,
    /// "Support Abilities": temporary +1 bonuses to companions.
    Craftsmanship,
    /// "Support Abilities": minions; intimidate.
    Command,
}

impl Ability {
    /// Every ability, in the book's order.
    pub const ALL: [Ability; 15] = [
        Ability::Toughness,
        Ability::Shooting,
        Ability::Blasting,
        Ability::Knockout,
        Ability::Fighting,
        Ability::Wrestling,
        Ability::Stealth,
        Ability::Detection,
        Ability::Acrobatics,
        Ability::Quickness,
        Ability::Flying,
        Ability::Swimming,
        Ability::Healing,
        Ability::Craftsmanship,
        Ability::Command,
    ];

    /// The movement abilities ("Movement Abilities").
    pub const MOVEMENT: [Ability; 4] = [
        Ability::Acrobatics,
        Ability::Quickness,
        Ability::Flying,
        Ability::Swimming,
    ];

    /// The book's name, lower case (`toughness`, `shooting`...).
    pub fn name(self) -> &'static str {
        match self {
            Ability::Toughness => "toughness",
            Ability::Shooting => "shooting",
            Ability::Blasting => "blasting",
            Ability::Knockout => "knockout",
            Ability::Fighting => "fighting",
            Ability::Wrestling => "wrestling",
            Ability::Stealth => "stealth",
            Ability::Detection => "detection",
            Ability::Acrobatics => "acrobatics",
            Ability::Quickness => "quickness",
            Ability::Flying => "flying",
            Ability::Swimming => "swimming",
            Ability::Healing => "healing",
            Ability::Craftsmanship => "craftsmanship",
            Ability::Command => "command",
        }
    }

    /// Read an ability name (any case).
    pub fn parse(text: &str) -> Option<Ability> {
        let t = text.trim().to_ascii_lowercase();
        Ability::ALL.into_iter().find(|a| a.name() == t)
    }

    /// The terrain a movement ability needs, or `None` for other abilities.
    /// "Movement Abilities": acrobatics needs obstacles, quickness level ground,
    /// flying room to fly, swimming water (deep water is water too).
    pub fn terrain(self) -> Option<Terrain> {
        match self {
            Ability::Acrobatics => Some(Terrain::Obstacles),
            Ability::Quickness => Some(Terrain::LevelGround),
            Ability::Flying => Some(Terrain::RoomToFly),
            Ability::Swimming => Some(Terrain::Water),
            _ => None,
        }
    }
}

impl fmt::Display for Ability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of terrain in an encounter ("Movement Abilities").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    /// Ropes, nets, ledges, ladders, fences, trees, cliffs: acrobatics.
    Obstacles,
    /// Relatively level ground: quickness.
    LevelGround,
    /// Room to fly (usually outdoors): flying.
    RoomToFly,
    /// Water: swimming adds to agility and close range attack rolls.
    Water,
    /// Deep water: as water, and a swimmer who evades by swimming cannot be
    /// attacked at long range or by characters without swimming.
    DeepWater,
}

impl Terrain {
    /// Every terrain.
    pub const ALL: [Terrain; 5] = [
        Terrain::Obstacles,
        Terrain::LevelGround,
        Terrain::RoomToFly,
        Terrain::Water,
        Terrain::DeepWater,
    ];

    /// The name used in table files and commands.
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Obstacles => "obstacles",
            Terrain::LevelGround => "level-ground",
            Terrain::RoomToFly => "room-to-fly",
            Terrain::Water => "water",
            Terrain::DeepWater => "deep-water",
        }
    }

    /// Read a terrain name.
    pub fn parse(text: &str) -> Option<Terrain> {
        let t = text.trim().to_ascii_lowercase();
        Terrain::ALL.into_iter().find(|x| x.name() == t)
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
