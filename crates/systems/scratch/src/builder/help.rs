//! The builder's help for each ability and note, and the book's sections the
//! abilities are listed under ("Abilities" and the ability sections).

use super::*;

/// One line of the book on each ability ("Toughness" ... "Support Abilities").
pub(super) fn ability_help(a: Ability) -> &'static str {
    match a {
        Ability::Toughness => {
            "Toughness ability level is a character's maximum hit points; an average person without armor has 3, a big person 4, heavy armor gives 2 more. Characters without toughness may not perform actions during encounters."
        }
        Ability::Shooting => {
            "A powerful long range normal attack against one character: 2 damage on a success."
        }
        Ability::Blasting => {
            "A long range normal attack on up to three separate enemies: 1 damage to each one hit."
        }
        Ability::Knockout => {
            "An extremely devastating close range attack: 4 damage if the attacker is healthy, 2 if injured; it delays the attacker."
        }
        Ability::Fighting => {
            "Used for basic attack rolls; a healthy attacker makes two basic attacks as a single action."
        }
        Ability::Wrestling => {
            "Added to basic attack and hold rolls; holds cause 1 damage when the attacker is healthy and not delayed. Counts for strength."
        }
        Ability::Stealth => {
            "Add 2 times the highest stealth in the initiative group to its initiative roll. Counts for agility."
        }
        Ability::Detection => {
            "Add 10 times the highest detection in the initiative group to its initiative roll; can make hold rolls. Counts for intelligence."
        }
        Ability::Acrobatics => {
            "Getting up, across or over ropes, nets, ledges, ladders, fences, trees and cliffs. Counts for agility."
        }
        Ability::Quickness => "Movement on relatively level ground. Counts for agility.",
        Ability::Flying => {
            "Moving through the air when there is room to fly. Counts for agility. Gained later only with a good explanation."
        }
        Ability::Swimming => {
            "Moving in water: added to agility and close range attacks in water. Counts for strength."
        }
        Ability::Healing => {
            "Revive incapacitated characters and heal injured ones (difficulty 10); not oneself. Counts for intelligence."
        }
        Ability::Craftsmanship => {
            "For each level, a temporary +1 bonus to a traveling companion's ability already at level 1 or more. Counts for intelligence."
        }
        Ability::Command => {
            "Provides one or two minions whose total CP is no greater than the command level; allows intimidate. Counts for intelligence."
        }
    }
}

/// The book's "could represent" line of each ability, for its note.
pub(super) fn note_help(a: Ability) -> &'static str {
    match a {
        Ability::Toughness => {
            "Less toughness could represent fragility or lack of determination; more could represent armor, endurance or size."
        }
        Ability::Shooting => {
            "Shooting could represent guns, bows, throwing spears or powers that damage an enemy from a distance."
        }
        Ability::Blasting => {
            "Blasting could represent grenades, a submachine gun or breathing fire."
        }
        Ability::Knockout => {
            "Knockout could represent a powerful bludgeoning weapon, deadly assassination techniques, fast-acting venom or a very large character."
        }
        Ability::Fighting => {
            "Fighting could represent prowess with swords, other close range weapons, natural weapons or powerful striking martial arts."
        }
        Ability::Wrestling => {
            "Wrestling holds could represent chokes, locks and throws or a mixture of grappling and striking techniques."
        }
        Ability::Stealth => {
            "Stealth could represent camouflage, moving silently, hiding in shadows or slinking close to the ground."
        }
        Ability::Detection => {
            "Detection could represent alertness, perception, keen senses or tracking skills."
        }
        Ability::Acrobatics => {
            "Acrobatics could represent good balance, climbing, or jumping, or equipment that helps."
        }
        Ability::Quickness => {
            "Quickness could represent combat footwork, sprinting speed, or being able to keep moving without getting exhausted."
        }
        Ability::Flying => {
            "Flying could represent wings, a jetpack or other means of defying gravity."
        }
        Ability::Swimming => {
            "One or two levels could represent trained human ability; more, fins or a streamlined body."
        }
        Ability::Healing => {
            "Healing could represent emergency medicine training, fast-acting potions, or miraculous healing powers."
        }
        Ability::Craftsmanship => {
            "Craftsmanship could represent woodcarving, blacksmithing, auto mechanics, electrical engineering or robotics."
        }
        Ability::Command => {
            "Command could represent charisma to attract followers, rank that provides underlings, or teaching ability and students."
        }
    }
}

/// The ability sections of the book, in its order.
pub(super) const SECTIONS: [(&str, &str, &str, Rule, &[Ability]); 5] = [
    (
        "toughness",
        "Toughness",
        "All characters have toughness: its level is the maximum hit points, and stamina is half of it, rounded down.",
        rules::TOUGHNESS,
        &[Ability::Toughness],
    ),
    (
        "attack",
        "Attack Abilities",
        "Most characters have at least one attack ability.",
        rules::ATTACK_ABILITIES,
        &[
            Ability::Shooting,
            Ability::Blasting,
            Ability::Knockout,
            Ability::Fighting,
            Ability::Wrestling,
        ],
    ),
    (
        "stalking",
        "Stalking Abilities",
        "Stealth and detection help a group go first in combat, and allow the surprise attack.",
        rules::STALKING_ABILITIES,
        &[Ability::Stealth, Ability::Detection],
    ),
    (
        "movement",
        "Movement Abilities",
        "Many characters have a defensive ability: movement abilities evade, distract and hold, each in its own terrain.",
        rules::MOVEMENT_ABILITIES,
        &[
            Ability::Acrobatics,
            Ability::Quickness,
            Ability::Flying,
            Ability::Swimming,
        ],
    ),
    (
        "support",
        "Support Abilities",
        "Healing, craftsmanship and command help allies.",
        rules::SUPPORT_ABILITIES,
        &[Ability::Healing, Ability::Craftsmanship, Ability::Command],
    ),
];
