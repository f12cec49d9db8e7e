//! Skill Hands against the Dealer's Fate Draw, the Difficulty Modifier, and the
//! simple opposed hand.
//!
//! A Game of Bastards, "Fate Draw", "Skill Hand", "Difficulty Modifier" and "Core
//! Mechanic" (003_2dfeea144768d328.txt); R-GB-2, R-GB-3, R-GB-6.

use serde::{Deserialize, Serialize};
use tabula_core::cards::{Card, Shoe};
use tabula_core::roller::Roller;
use tabula_core::rule::{Refusal, Rule, RuleError};

use crate::deck::{self, DrawStep};
use crate::values::{self, Total};

/// R-GB-6: a plain Skill Hand against a Fate Draw.
pub const RULE_SKILL_HAND: Rule = Rule::book(crate::BOOK, "Skill Hand").ruling("R-GB-6");
/// The Difficulty Modifier, +1 to +20.
pub const RULE_DIFFICULTY: Rule = Rule::book(crate::BOOK, "Difficulty Modifier");

/// The largest Difficulty Modifier ("between 1 and 20").
pub const MAX_MODIFIER: i64 = 20;

/// Who draws the Fate Draw against a Skill Hand, as the roller is told
/// ("The Dealer or another player draws 6 cards minus the trait", "Skill
/// Hand"): the GM's draw, never the player's to type (issue 28, item 2).
pub const DEALER: &str = "The Dealer";
/// The largest Trait a check accepts (a cap on input; a starting Trait is 1 or 2).
pub const MAX_TRAIT: i64 = 20;
/// The largest skill rank a check accepts (a cap on input; every rank is a card).
pub const MAX_RANK: i64 = 20;
/// The largest Specialty bonus a check accepts.
pub const MAX_SPECIALTY: i64 = 20;

/// The book's guideline labels for the Difficulty Modifier, by the modifier they
/// head: +1, +3, +5, +7, +10, +15, +20.
pub const DIFFICULTY_LABELS: [(i64, &str); 7] = [
    (1, "Minor increase in difficulty"),
    (3, "Noticeably difficult"),
    (5, "Significant challenge"),
    (7, "A serious undertaking"),
    (10, "A challenge requiring the peak of human ability"),
    (15, "Basically impossible"),
    (20, "The stuff of legend"),
];

/// The guideline label of a Difficulty Modifier: the label of the highest guideline
/// at or below it; "No Difficulty Modifier" for 0.
pub fn difficulty_label(modifier: i64) -> &'static str {
    DIFFICULTY_LABELS
        .iter()
        .rev()
        .find(|(m, _)| *m <= modifier)
        .map(|(_, l)| *l)
        .unwrap_or("No Difficulty Modifier")
}

/// A Skill Hand to be played against the Dealer's Fate Draw (R-GB-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillHand {
    /// The Trait added to the played card (1..=[`MAX_TRAIT`]); the Dealer draws
    /// 6 - Trait cards (at least 1).
    pub trait_score: i64,
    /// The rank in the skill: the player draws this many cards (at least 1),
    /// 0..=[`MAX_RANK`].
    pub rank: i64,
    /// The Difficulty Modifier added to the Dealer's card, 0..=20.
    pub modifier: i64,
    /// A Specialty's rank, added to the player's total ("The player gains their
    /// rank in the specialty to any fate draw involving the specialty"), 0..=20.
    pub specialty: i64,
}

impl SkillHand {
    /// Check the numbers against the rules and caps.
    ///
    /// # Errors
    /// [`RuleError`] naming the field out of range.
    pub fn validate(&self) -> Result<(), RuleError> {
        if !(1..=MAX_TRAIT).contains(&self.trait_score) {
            return Err(RuleError::out_of_range(
                RULE_SKILL_HAND,
                "Trait",
                1,
                MAX_TRAIT,
                self.trait_score,
            ));
        }
        if !(0..=MAX_RANK).contains(&self.rank) {
            return Err(RuleError::out_of_range(
                RULE_SKILL_HAND,
                "rank",
                0,
                MAX_RANK,
                self.rank,
            ));
        }
        if !(0..=MAX_MODIFIER).contains(&self.modifier) {
            return Err(RuleError::out_of_range(
                RULE_DIFFICULTY,
                "Difficulty Modifier",
                0,
                MAX_MODIFIER,
                self.modifier,
            ));
        }
        if !(0..=MAX_SPECIALTY).contains(&self.specialty) {
            return Err(RuleError::out_of_range(
                RULE_SKILL_HAND,
                "Specialty",
                0,
                MAX_SPECIALTY,
                self.specialty,
            ));
        }
        Ok(())
    }

    /// Cards the player draws: the rank, at least 1 (R-GB-6).
    pub fn player_draws(&self) -> usize {
        self.rank.max(1) as usize
    }

    /// Cards the Dealer draws: 6 - Trait, at least 1 (R-GB-6).
    pub fn dealer_draws(&self) -> usize {
        (6 - self.trait_score).max(1) as usize
    }

    /// The player's bonus: Trait plus Specialty.
    pub fn player_bonus(&self) -> i64 {
        self.trait_score + self.specialty
    }
}

/// Everything that happened in one Skill Hand against a Fate Draw: every card
/// drawn (Jokers included), the cards played, the totals and the result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FateDrawResult {
    /// True when the player's total beats the Dealer's (ties by suit, identical
    /// cards to the Dealer, R-GB-2).
    pub success: bool,
    /// The hand as asked.
    pub hand: SkillHand,
    /// The player's draw, step by step (cards, Jokers, reshuffles).
    pub player_draw: Vec<DrawStep>,
    /// The Dealer's draw, step by step.
    pub dealer_draw: Vec<DrawStep>,
    /// The card the player plays (the best of the draw).
    pub player_card: Card,
    /// The card the Dealer plays (the best of the draw).
    pub dealer_card: Card,
    /// Card plus Trait plus Specialty.
    pub player_total: i64,
    /// Card plus Difficulty Modifier.
    pub dealer_total: i64,
    /// Player total minus Dealer total.
    pub margin: i64,
    /// Wildcards the player gained from Jokers (R-GB-3).
    pub player_wildcards: u32,
    /// Wildcards the Dealer gained from Jokers (R-GB-3).
    pub dealer_wildcards: u32,
    /// The guideline label of the Difficulty Modifier.
    pub difficulty: String,
}

/// Play a Skill Hand against the Dealer's Fate Draw from `shoe`: the player draws
/// first, then the Dealer; each plays its best card. The cards stay out of `shoe`
/// (the caller discards them and shuffles, "Shuffle all cards back into deck").
///
/// A Game of Bastards, "Skill Hand" (003_2dfeea144768d328.txt); R-GB-2, R-GB-3,
/// R-GB-6.
///
/// # Errors
/// A [`RuleError`] for numbers out of range or cards the roller could not give.
pub fn play_skill_hand(
    hand: SkillHand,
    shoe: &mut Shoe,
    roller: &mut dyn Roller,
) -> Result<FateDrawResult, RuleError> {
    play_skill_hand_for(hand, "The player", "Skill Hand", shoe, roller)
}

/// [`play_skill_hand`] for character `who` checking `what` (a Skill): a
/// manual roller's prompt names them ("Cynthia, Skill Hand (Business): draw 2
/// cards").
///
/// # Errors
/// As [`play_skill_hand`].
pub fn play_skill_hand_for(
    hand: SkillHand,
    who: &str,
    what: &str,
    shoe: &mut Shoe,
    roller: &mut dyn Roller,
) -> Result<FateDrawResult, RuleError> {
    hand.validate()?;
    let (mine, theirs) = (hand.player_draws(), hand.dealer_draws());
    roller.announce_draw(who, what, mine.try_into().unwrap_or(u32::MAX));
    let player_draw = deck::draw(shoe, roller, mine)?;
    roller.announce_draw(DEALER, "Fate Draw", theirs.try_into().unwrap_or(u32::MAX));
    let dealer_draw = deck::draw(shoe, roller, theirs)?;
    let no_card = || RuleError::new(RULE_SKILL_HAND, Refusal::Forbidden, "a hand drew no card");
    let player_card = values::best(&deck::cards(&player_draw)).ok_or_else(no_card)?;
    let dealer_card = values::best(&deck::cards(&dealer_draw)).ok_or_else(no_card)?;
    let pv = values::value(player_card.face).unwrap_or(0);
    let dv = values::value(dealer_card.face).unwrap_or(0);
    let player_total = pv + hand.player_bonus();
    let dealer_total = dv + hand.modifier;
    let success = values::aggressor_wins(
        Total {
            total: player_total,
            suit: values::suit_of(player_card.face),
        },
        Total {
            total: dealer_total,
            suit: values::suit_of(dealer_card.face),
        },
    );
    Ok(FateDrawResult {
        success,
        hand,
        player_wildcards: deck::jokers(&player_draw),
        dealer_wildcards: deck::jokers(&dealer_draw),
        player_draw,
        dealer_draw,
        player_card,
        dealer_card,
        player_total,
        dealer_total,
        margin: player_total - dealer_total,
        difficulty: difficulty_label(hand.modifier).to_string(),
    })
}

/// A one-shot Skill Hand from a fresh shoe (R-GB-1), as `tabula bastards check`
/// plays it.
///
/// # Errors
/// As [`play_skill_hand`].
pub fn check(hand: SkillHand, roller: &mut dyn Roller) -> Result<FateDrawResult, RuleError> {
    let mut shoe = Shoe::new(values::DECKS, true)
        .map_err(|e| RuleError::forbidden(values::RULE_SHOE, e.to_string()))?;
    play_skill_hand(hand, &mut shoe, roller)
}

/// One card played in a simple opposed hand: who played it and the bonus added.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimplePlay {
    /// Who played it.
    pub who: String,
    /// The card.
    pub card: Card,
    /// Any bonus added (0 for the book's simple action).
    pub bonus: i64,
}

/// The winner of a simple opposed hand ("each player simply chooses a card to
/// play, with the highest coming out better in the deal"): the highest total,
/// ties by suit (R-GB-2); between identical cards the earlier play (the defender,
/// listed first) keeps it. `None` for no plays.
///
/// A Game of Bastards, "Core Mechanic" (003_2dfeea144768d328.txt); R-GB-2.
pub fn simple_winner(plays: &[SimplePlay]) -> Option<&SimplePlay> {
    let mut best: Option<&SimplePlay> = None;
    for p in plays {
        let t = |p: &SimplePlay| Total {
            total: values::value(p.card.face).unwrap_or(0) + p.bonus,
            suit: values::suit_of(p.card.face),
        };
        best = match best {
            None => Some(p),
            Some(b) if values::aggressor_wins(t(p), t(b)) => Some(p),
            keep => keep,
        };
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::roller::Scripted;

    #[test]
    fn carltons_repair() {
        // Mind 3, Repair 2: he draws two cards and plays a 9 for 12; the Dealer
        // draws three and its best, a Jack, makes 11.
        let hand = SkillHand {
            trait_score: 3,
            rank: 2,
            modifier: 0,
            specialty: 0,
        };
        let mut r = Scripted::values(["9S", "4C", "JH", "2D", "7S"]);
        let res = check(hand, &mut r).unwrap();
        assert_eq!(deck::cards(&res.player_draw).len(), 2);
        assert_eq!(deck::cards(&res.dealer_draw).len(), 3);
        assert_eq!(res.player_card.to_string(), "9S");
        assert_eq!(res.player_total, 12);
        assert_eq!(res.dealer_card.to_string(), "JH");
        assert_eq!(res.dealer_total, 11);
        assert!(res.success);
        assert_eq!(res.margin, 1);
    }

    #[test]
    fn a_joker_gives_a_wildcard_and_is_replaced() {
        let hand = SkillHand {
            trait_score: 5,
            rank: 1,
            modifier: 0,
            specialty: 0,
        };
        let mut r = Scripted::values(["Joker", "2C", "3C"]);
        let res = check(hand, &mut r).unwrap();
        assert_eq!(res.player_wildcards, 1);
        assert_eq!(res.player_card.to_string(), "2C");
        assert!(res.player_draw.contains(&DrawStep::Reshuffle));
        assert!(res.success);
    }

    #[test]
    fn an_identical_card_goes_to_the_dealer() {
        let hand = SkillHand {
            trait_score: 5,
            rank: 1,
            modifier: 5,
            specialty: 0,
        };
        let mut r = Scripted::values(["9S", "9S"]);
        assert!(!check(hand, &mut r).unwrap().success);
    }

    #[test]
    fn difficulty_labels() {
        assert_eq!(difficulty_label(0), "No Difficulty Modifier");
        assert_eq!(difficulty_label(1), "Minor increase in difficulty");
        assert_eq!(difficulty_label(4), "Noticeably difficult");
        assert_eq!(difficulty_label(20), "The stuff of legend");
    }

    #[test]
    fn out_of_range_is_refused() {
        let hand = SkillHand {
            trait_score: 3,
            rank: 2,
            modifier: 21,
            specialty: 0,
        };
        let e = check(hand, &mut Scripted::values(["9S"])).unwrap_err();
        assert_eq!(e.rule, RULE_DIFFICULTY);
    }

    #[test]
    fn kodos_cynthia_and_the_investor() {
        // Each draws five; Stella (Cynthia) plays her King, Blaine (Kodos) a 7,
        // Edward (the investor) a 9: the King wins.
        let mut shoe = Shoe::new(2, true).unwrap();
        let mut r = Scripted::values([
            "KH", "2C", "3C", "4C", "5C", // Cynthia
            "7S", "8D", "2H", "3H", "4H", // Kodos
            "9C", "10C", "2S", "3S", "4S", // the investor
        ]);
        let mut hands = Vec::new();
        for _ in 0..3 {
            hands.push(deck::cards(&deck::draw(&mut shoe, &mut r, 5).unwrap()));
        }
        let pick = |h: &[Card], s: &str| *h.iter().find(|c| c.to_string() == s).unwrap();
        let plays = vec![
            SimplePlay {
                who: "the investor".into(),
                card: pick(&hands[2], "9C"),
                bonus: 0,
            },
            SimplePlay {
                who: "Kodos".into(),
                card: pick(&hands[1], "7S"),
                bonus: 0,
            },
            SimplePlay {
                who: "Cynthia".into(),
                card: pick(&hands[0], "KH"),
                bonus: 0,
            },
        ];
        assert_eq!(simple_winner(&plays).unwrap().who, "Cynthia");
    }
}
