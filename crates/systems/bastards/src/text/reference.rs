//! The command reference: every command once ([`COMMANDS`]), the source of
//! `help`, of `docs/COMMANDS.md` and of the parser's grammar: each usage is
//! the line [`tabula_core::usage::read`] matches a typed line against
//! ([`super::parse`]).

use tabula_core::system::{CommandDoc, Giver};

use crate::{fate, rules, values};

/// Every command of A Game of Bastards, once each (003_2dfeea144768d328.txt;
/// the rule each plays is cited in its entry): the source of `help`, of
/// `docs/COMMANDS.md` and of the parser's grammar (each usage is read by
/// [`tabula_core::usage::read`]).
pub const COMMANDS: &[CommandDoc] = &[
    CommandDoc::new(
        "fate",
        &["check"],
        "fate WHO SKILL TRAIT [MODIFIER] [acrobat] [spec=NAME]",
        "Skill Check: a Skill Hand against the Dealer's Fate Draw (Difficulty Modifier 0..20)",
        Giver::Player,
        fate::RULE_SKILL_HAND,
    ),
    CommandDoc::new(
        "scene",
        &[],
        "scene",
        "Begin a new scene: shuffle the deck; Berserk and Distance end",
        Giver::Gm,
        values::RULE_SHOE,
    ),
    CommandDoc::new(
        "begin",
        &[],
        "begin",
        "Begin an Opposition: shuffle, everyone draws a hand",
        Giver::Gm,
        rules::RULE_STEPS,
    ),
    CommandDoc::new(
        "init",
        &["initiative"],
        "init WHO CARD",
        "Play a card for initiative (Ace = 1, lowest acts first)",
        Giver::Player,
        rules::RULE_INITIATIVE,
    ),
    CommandDoc::new(
        "draw",
        &[],
        "draw",
        "Draw step: draw one card",
        Giver::Any,
        rules::RULE_HAND,
    ),
    CommandDoc::new(
        "mulligan",
        &[],
        "mulligan",
        "Sacrifice the action, discard the hand, draw a new one (in the draw step, or the one acted against before its face-down card)",
        Giver::Any,
        rules::RULE_MULLIGAN,
    ),
    CommandDoc::new(
        "discard",
        &[],
        "discard CARD",
        "Discard a card (once a hand; the one affected before its face-down card)",
        Giver::Any,
        rules::RULE_HAND,
    ),
    CommandDoc::new(
        "wildcard",
        &[],
        "wildcard WHO",
        "Spend a Wildcard to draw a card into the hand",
        Giver::Player,
        rules::RULE_WILDCARD,
    ),
    CommandDoc::new(
        "attack",
        &[],
        "attack TARGET SKILL [physical|social|fear|simple|melee|mental|sanity] [zeal] [fortune] [disarm] [savage] [wild=N] [spec=NAME]",
        "Declare an opposed hand against a target",
        Giver::Any,
        rules::RULE_STEPS,
    ),
    CommandDoc::new(
        "play",
        &[],
        "play CARD [SKILL] [mom] [counter=N]",
        "Play the face-down card (the one affected names its skill)",
        Giver::Any,
        rules::RULE_BETTING,
    ),
    CommandDoc::new(
        "bet",
        &[],
        "bet CARD|wild|wildcard",
        "Bet a card face up from the hand, or a Wildcard's new card",
        Giver::Any,
        rules::RULE_BETTING,
    ),
    CommandDoc::new(
        "call",
        &[],
        "call",
        "Call; when both call, reveal and settle",
        Giver::Any,
        rules::RULE_STEPS,
    ),
    CommandDoc::new(
        "reinit",
        &[],
        "reinit CARD",
        "Replace the initiative card (the action, unless Speedy)",
        Giver::Any,
        rules::RULE_INITIATIVE,
    ),
    CommandDoc::new(
        "wield",
        &[],
        "wield WEAPON",
        "Take a carried weapon in hand (the action unless it is ready)",
        Giver::Any,
        rules::RULE_RANDOM,
    ),
    CommandDoc::new(
        "pickup",
        &[],
        "pickup WEAPON",
        "Pick up a weapon from the ground (the action)",
        Giver::Any,
        rules::RULE_RANDOM,
    ),
    CommandDoc::new(
        "pass",
        &[],
        "pass",
        "End the action without acting",
        Giver::Any,
        rules::RULE_STEPS,
    ),
    CommandDoc::new(
        "use",
        &[],
        "use WHO ADVANTAGE [N|TARGET]",
        "Use an Advantage that is not part of an attack: all-out-defense, stance N (Defensive Stance), serendipity, iron-wall, karmic-shuffle, soul-of-steel, study TARGET, dodge, ass-pull, berserk or calm",
        Giver::Player,
        rules::RULE_ADVANTAGES,
    ),
    CommandDoc::new(
        "reinforce",
        &[],
        "reinforce WHO NAME [WEAPON DAMAGE]",
        "Reinforce: a Wildcard brings a group of 5 Extras",
        Giver::Player,
        rules::RULE_EXTRAS,
    ),
    CommandDoc::new(
        "involve",
        &[],
        "involve WHO NAME [WEAPON DAMAGE]",
        "Involve: a Wildcard brings two Touched",
        Giver::Player,
        rules::RULE_DRAMATIC,
    ),
    CommandDoc::new(
        "appear",
        &[],
        "appear WHO",
        "Appearance: a Fated not yet present enters the Opposition",
        Giver::Player,
        rules::RULE_DRAMATIC,
    ),
    CommandDoc::new(
        "distance",
        &[],
        "distance WHO WILDCARDS",
        "Distance: Wildcards for rounds before melee (once a scene)",
        Giver::Player,
        rules::RULE_DRAMATIC,
    ),
    CommandDoc::new(
        "end",
        &[],
        "end",
        "End the Opposition and shuffle every card back",
        Giver::Gm,
        rules::RULE_STEPS,
    ),
    CommandDoc::new(
        "adjust",
        &[],
        "adjust WHO VALUE AMOUNT",
        "The Dealer sets (N) or changes (+N, -N) a combatant's pool (bp, sp, mp, lp: 0 to Trait x 5; a Follower's Power Pool is bp), members (Extras, 0 to 5) or Wildcards while an Opposition runs; an emptied pool counts as damage would",
        Giver::Gm,
        crate::gm::GM_TOOLS,
    ),
    CommandDoc::new(
        "add",
        &[],
        "add KIND|FILE.toml [as NAME] [to SEAT]",
        "The Dealer brings a participant in: a copy of one the table loaded or of the book's sheets (Carlton, Cynthia, Kodos, The investor), or the character of a sheet file sent with the command, named NAME (a name taken becomes NAME 2), controlled by SEAT (default the GM); mid-Opposition it draws its hand and plays its lowest card as initiative",
        Giver::Gm,
        crate::gm::GM_TOOLS,
    ),
    CommandDoc::new(
        "remove",
        &[],
        "remove WHO",
        "The Dealer takes a participant out of the encounter: its hand and initiative card go to the discard pile; its turn or opposed hand ends",
        Giver::Gm,
        crate::gm::GM_TOOLS,
    ),
    CommandDoc::new(
        "finish",
        &[],
        "finish",
        "End the encounter",
        Giver::Gm,
        rules::RULE_STEPS,
    ),
];

#[cfg(test)]
mod tests {
    use super::COMMANDS;

    /// Every usage is written in the usage language, since the parser reads
    /// lines with it ([`tabula_core::usage`]; issue 26, item 1).
    #[test]
    fn every_usage_compiles() {
        tabula_core::usage::check_all(COMMANDS).unwrap();
    }
}
