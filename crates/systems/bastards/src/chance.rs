//! Exact odds: a Skill Hand against the Dealer's Fate Draw, and a given card in an
//! opposed hand.
//!
//! R-GB-11: a drawn Joker is replaced with its Wildcard banked, so a Fate Draw is the
//! same as drawing from the 104 cards that are not Jokers. Both hands come from the
//! same shoe without replacement. Counts are exact integers (`u128`); only the final
//! division is floating point.

use serde::{Deserialize, Serialize};
use tabula_core::cards::{Face, Rank, Suit};
use tabula_core::rule::{Rule, RuleError};

use crate::fate::{self, SkillHand};
use crate::values::{self};

/// R-GB-11: the odds of a Fate Draw.
pub const RULE_ODDS: Rule = Rule::book(crate::BOOK, "Fate Draw").ruling("R-GB-11");

/// `C(n, k)` exactly; 0 when `k > n`. Exact while the result fits in `u128`, which
/// holds for every draw the caps allow (at most 20 + 5 cards from 104).
pub fn choose(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        // r * (n - i) is divisible by (i + 1) at every step.
        r = r.saturating_mul(u128::from(n - i)) / u128::from(i + 1);
    }
    r
}

/// The 52 card strengths (keys 0..=51, see [`values::key`]) with two copies each:
/// the 104 non-Joker cards of the shoe (R-GB-1, R-GB-11).
pub fn shoe_counts() -> Vec<u64> {
    vec![2; 52]
}

/// The face of a key 0..=51.
pub fn face_of_key(key: usize) -> Face {
    let rank = Rank::ALL.get(key / 4).copied().unwrap_or(Rank::Two);
    let suit = Suit::ALL.get(key % 4).copied().unwrap_or(Suit::Clubs);
    Face::Standard { rank, suit }
}

/// The joint distribution, as exact counts, of the best key of a hand of `a` cards
/// and the best key of a hand of `b` cards drawn after it from the same deck
/// without replacement, where `counts[k]` cards have key `k`. Returns
/// `(ways[ka][kb], total_ways)`.
pub fn joint_best(counts: &[u64], a: u64, b: u64) -> (Vec<Vec<u128>>, u128) {
    let n = counts.len();
    let mut below = vec![0u64; n + 1];
    for (i, c) in counts.iter().enumerate() {
        below[i + 1] = below[i] + c;
    }
    let total_cards = below[n];
    // cdf(x, y): both hands' best keys are below x and below y (x, y = 0..=n).
    let cdf = |x: usize, y: usize| -> u128 {
        let (na, nb) = (below[x], below[y]);
        if na <= nb {
            choose(na, a).saturating_mul(choose(nb.saturating_sub(a), b))
        } else {
            choose(nb, b).saturating_mul(choose(na.saturating_sub(b), a))
        }
    };
    let mut ways = vec![vec![0u128; n]; n];
    for (x, row) in ways.iter_mut().enumerate() {
        for (y, cell) in row.iter_mut().enumerate() {
            // Inclusion-exclusion on the exact integer CDF (never negative).
            let v = cdf(x + 1, y + 1).saturating_add(cdf(x, y));
            *cell = v.saturating_sub(cdf(x, y + 1).saturating_add(cdf(x + 1, y)));
        }
    }
    let total = choose(total_cards, a).saturating_mul(choose(total_cards.saturating_sub(a), b));
    (ways, total)
}

/// The exact chance of a Skill Hand against the Dealer's Fate Draw, with the
/// counts behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkillHandOdds {
    /// The chance that the Skill Hand succeeds, 0..=1.
    pub probability: f64,
    /// The hand asked about.
    pub hand: SkillHand,
    /// Cards the player draws.
    pub player_draws: usize,
    /// Cards the Dealer draws.
    pub dealer_draws: usize,
    /// Ordered draws (player's set, then Dealer's set) that succeed.
    pub successes: String,
    /// All ordered draws.
    pub outcomes: String,
    /// The guideline label of the Difficulty Modifier.
    pub difficulty: String,
}

/// Whether a player card (key `kp`) plus `pb` beats a Dealer card (key `kd`) plus
/// `db` (R-GB-2: ties by suit, the same suit to the Dealer).
fn key_wins(kp: usize, pb: i64, kd: usize, db: i64) -> bool {
    let fp = face_of_key(kp);
    let fd = face_of_key(kd);
    values::aggressor_wins(
        values::Total {
            total: values::value(fp).unwrap_or(0) + pb,
            suit: values::suit_of(fp),
        },
        values::Total {
            total: values::value(fd).unwrap_or(0) + db,
            suit: values::suit_of(fd),
        },
    )
}

/// The most cards either hand of a Skill Hand draws: the player's rank (at most
/// [`fate::MAX_RANK`]); the Dealer's 6 - Trait is at most 5.
const MAX_HAND: usize = fate::MAX_RANK as usize;
/// The non-Joker cards of the shoe (R-GB-1, R-GB-11).
const SHOE_CARDS: usize = 104;

/// `C(n, k)` for `n` in 0..=104 and `k` in 0..=[`MAX_HAND`], by Pascal's rule at
/// compile time (every entry fits in `u128`: the largest is `C(104, 20)`).
static CHOOSE: [[u128; MAX_HAND + 1]; SHOE_CARDS + 1] = {
    let mut t = [[0u128; MAX_HAND + 1]; SHOE_CARDS + 1];
    let mut n = 0;
    while n <= SHOE_CARDS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_HAND && n > 0 {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)` from [`CHOOSE`]; 0 when `k > n` (and, unreachable within the caps,
/// outside the table).
fn choose_small(n: usize, k: usize) -> u128 {
    CHOOSE
        .get(n)
        .and_then(|row| row.get(k))
        .copied()
        .unwrap_or(0)
}

/// The exact chance that `hand` beats the Dealer's Fate Draw (R-GB-6, R-GB-11).
///
/// Counted without listing the joint table of best cards: with two copies of each
/// of the 52 keys, the player's best key `kp` beats exactly the Dealer's keys
/// below `kp + 4 * (player bonus - modifier)` (clamped to 0..=52; R-GB-2 orders
/// totals, then suits, the same way as keys), so the successes are
/// `sum over kp of cdf(kp + 1, t) - cdf(kp, t)`, where `cdf(x, y)` counts the
/// ordered draws whose best keys are below `x` and `y`: 104 products of two
/// binomials from a table built at compile time.
///
/// A Game of Bastards, "Skill Hand", "Fate Draw" and "Combat"
/// (003_2dfeea144768d328.txt); R-GB-6, R-GB-11, R-GB-2.
///
/// # Errors
/// A [`RuleError`] naming a number out of range.
pub fn skill_hand(hand: SkillHand) -> Result<SkillHandOdds, RuleError> {
    hand.validate()?;
    let (pd, dd) = (hand.player_draws(), hand.dealer_draws());
    // Both hands' best keys below x and below y: 2x and 2y cards to draw from.
    let cdf = |x: usize, y: usize| -> u128 {
        let (na, nb) = (2 * x, 2 * y);
        if na <= nb {
            choose_small(na, pd).saturating_mul(choose_small(nb.saturating_sub(pd), dd))
        } else {
            choose_small(nb, dd).saturating_mul(choose_small(na.saturating_sub(dd), pd))
        }
    };
    // validate() bounds both bonuses to 0..=40 and 0..=20.
    let shift = 4 * (hand.player_bonus() - hand.modifier);
    let mut wins: u128 = 0;
    for kp in 0..52usize {
        let t = (kp as i64 + shift).clamp(0, 52) as usize;
        if t > 0 {
            wins = wins.saturating_add(cdf(kp + 1, t).saturating_sub(cdf(kp, t)));
        }
    }
    let total = choose_small(SHOE_CARDS, pd)
        .saturating_mul(choose_small(SHOE_CARDS.saturating_sub(pd), dd));
    Ok(SkillHandOdds {
        probability: ratio(wins, total),
        hand,
        player_draws: pd,
        dealer_draws: dd,
        successes: wins.to_string(),
        outcomes: total.to_string(),
        difficulty: fate::difficulty_label(hand.modifier).to_string(),
    })
}

#[cfg(test)]
/// The former computation of [`skill_hand`] (every cell of [`joint_best`]), kept
/// as the oracle of the fast one.
///
/// # Errors
/// A [`RuleError`] naming a number out of range.
fn skill_hand_by_joint_table(hand: SkillHand) -> Result<SkillHandOdds, RuleError> {
    hand.validate()?;
    let (pd, dd) = (hand.player_draws(), hand.dealer_draws());
    let (ways, total) = joint_best(&shoe_counts(), pd as u64, dd as u64);
    let mut wins: u128 = 0;
    for (kp, row) in ways.iter().enumerate() {
        for (kd, w) in row.iter().enumerate() {
            if *w > 0 && key_wins(kp, hand.player_bonus(), kd, hand.modifier) {
                wins += *w;
            }
        }
    }
    Ok(SkillHandOdds {
        probability: ratio(wins, total),
        hand,
        player_draws: pd,
        dealer_draws: dd,
        successes: wins.to_string(),
        outcomes: total.to_string(),
        difficulty: fate::difficulty_label(hand.modifier).to_string(),
    })
}

fn ratio(num: u128, den: u128) -> f64 {
    if den == 0 {
        0.0
    } else {
        num as f64 / den as f64
    }
}

/// The largest number of cards an opponent may draw in [`card_wins`].
pub const MAX_OPPONENT_DRAWS: i64 = 20;
/// The largest bonus (either side's) [`card_wins`] accepts, and minus the smallest.
pub const MAX_BONUS: i64 = 100;

/// The exact chance that a given card, played with `bonus`, wins an opposed hand
/// against an opponent who draws `opponent_draws` cards from the rest of the
/// shoe's 104 non-Joker cards (R-GB-11) and plays the best of them plus
/// `opponent_bonus`. `defending`: the given card is the defender's, so an
/// identical-suit tie goes to it (R-GB-2).
///
/// # Errors
/// A [`RuleError`] when the card is a Joker, or naming the number out of range:
/// `opponent draws` (1..=20), `bonus` or `opponent bonus` (-100..=100).
pub fn card_wins(
    face: Face,
    bonus: i64,
    opponent_draws: i64,
    opponent_bonus: i64,
    defending: bool,
) -> Result<f64, RuleError> {
    let Some(k) = values::key(face) else {
        return Err(RuleError::forbidden(
            values::RULE_JOKERS,
            "a Joker is never played: it becomes a Wildcard",
        ));
    };
    if !(1..=MAX_OPPONENT_DRAWS).contains(&opponent_draws) {
        return Err(RuleError::out_of_range(
            RULE_ODDS,
            "opponent draws",
            1,
            MAX_OPPONENT_DRAWS,
            opponent_draws,
        ));
    }
    for (field, got) in [("bonus", bonus), ("opponent bonus", opponent_bonus)] {
        if !(-MAX_BONUS..=MAX_BONUS).contains(&got) {
            return Err(RuleError::out_of_range(
                RULE_ODDS, field, -MAX_BONUS, MAX_BONUS, got,
            ));
        }
    }
    let opponent_draws = opponent_draws.unsigned_abs();
    let mut counts = shoe_counts();
    if let Some(c) = counts.get_mut(k as usize) {
        *c -= 1;
    }
    let n: u64 = counts.iter().sum();
    // C(m, draws) for every m = 0..=n, one step from the last: C(m, d) =
    // C(m - 1, d) * m / (m - d), exact (the product is a multiple of m - d).
    let mut ways_below = Vec::with_capacity(n as usize + 1);
    let mut w: u128 = 0;
    for m in 0..=n {
        w = match m.cmp(&opponent_draws) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => {
                w.saturating_mul(u128::from(m)) / u128::from(m - opponent_draws)
            }
        };
        ways_below.push(w);
    }
    let choose_below = |m: u64| ways_below.get(m as usize).copied().unwrap_or(0);
    let total = choose_below(n);
    let mut below = 0u64;
    let mut wins: u128 = 0;
    for (ko, c) in counts.iter().enumerate() {
        let p_le = choose_below(below + c);
        let p_lt = choose_below(below);
        below += c;
        let ways = p_le - p_lt;
        if ways == 0 {
            continue;
        }
        let mine_wins = if defending {
            !key_wins(ko, opponent_bonus, k as usize, bonus)
        } else {
            key_wins(k as usize, bonus, ko, opponent_bonus)
        };
        if mine_wins {
            wins += ways;
        }
    }
    Ok(ratio(wins, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: every ordered pair of disjoint hands from a deck of keys.
    fn brute(deck: &[usize], a: usize, b: usize) -> (Vec<Vec<u128>>, u128) {
        let n = deck.iter().max().map_or(0, |m| m + 1);
        let mut ways = vec![vec![0u128; n]; n];
        let mut total = 0u128;
        let m = deck.len();
        for sa in 0u32..(1 << m) {
            if sa.count_ones() as usize != a {
                continue;
            }
            for sb in 0u32..(1 << m) {
                if sb & sa != 0 || sb.count_ones() as usize != b {
                    continue;
                }
                let best = |s: u32| {
                    (0..m)
                        .filter(|i| s & (1 << i) != 0)
                        .map(|i| deck[i])
                        .max()
                        .unwrap()
                };
                ways[best(sa)][best(sb)] += 1;
                total += 1;
            }
        }
        (ways, total)
    }

    #[test]
    fn joint_best_matches_brute_force_on_small_decks() {
        let counts = [2u64, 1, 3, 2, 2];
        let deck: Vec<usize> = counts
            .iter()
            .enumerate()
            .flat_map(|(k, c)| std::iter::repeat_n(k, *c as usize))
            .collect();
        for a in 1..=3 {
            for b in 1..=3 {
                assert_eq!(
                    joint_best(&counts, a as u64, b as u64),
                    brute(&deck, a, b),
                    "a={a} b={b}"
                );
            }
        }
    }

    /// Brute force over the real 104 cards for one card each and for two against one.
    fn brute_real(hand: SkillHand) -> f64 {
        let deck: Vec<usize> = (0..52).flat_map(|k| [k, k]).collect();
        let (pd, dd) = (hand.player_draws(), hand.dealer_draws());
        let mut wins = 0u64;
        let mut total = 0u64;
        let n = deck.len();
        match (pd, dd) {
            (1, 1) => {
                for i in 0..n {
                    for j in 0..n {
                        if i != j {
                            total += 1;
                            wins += u64::from(key_wins(
                                deck[i],
                                hand.player_bonus(),
                                deck[j],
                                hand.modifier,
                            ));
                        }
                    }
                }
            }
            (2, 1) => {
                for i in 0..n {
                    for i2 in i + 1..n {
                        for j in 0..n {
                            if j != i && j != i2 {
                                total += 1;
                                let p = deck[i].max(deck[i2]);
                                wins += u64::from(key_wins(
                                    p,
                                    hand.player_bonus(),
                                    deck[j],
                                    hand.modifier,
                                ));
                            }
                        }
                    }
                }
            }
            (1, 2) => {
                for i in 0..n {
                    for j in 0..n {
                        for j2 in j + 1..n {
                            if j != i && j2 != i {
                                total += 1;
                                let d = deck[j].max(deck[j2]);
                                wins += u64::from(key_wins(
                                    deck[i],
                                    hand.player_bonus(),
                                    d,
                                    hand.modifier,
                                ));
                            }
                        }
                    }
                }
            }
            _ => unreachable!(),
        }
        wins as f64 / total as f64
    }

    #[test]
    fn skill_hand_odds_match_brute_force() {
        for (t, r, m) in [
            (5, 1, 0),
            (5, 1, 3),
            (5, 2, 0),
            (5, 2, 7),
            (4, 1, 0),
            (4, 0, 2),
        ] {
            let hand = SkillHand {
                trait_score: t,
                rank: r,
                modifier: m,
                specialty: 0,
            };
            let exact = skill_hand(hand).unwrap().probability;
            let brute = brute_real(hand);
            assert!(
                (exact - brute).abs() < 1e-12,
                "{hand:?}: {exact} vs {brute}"
            );
        }
    }

    #[test]
    fn the_choose_table_matches_choose() {
        for n in 0..=SHOE_CARDS {
            for k in 0..=MAX_HAND {
                assert_eq!(
                    choose_small(n, k),
                    choose(n as u64, k as u64),
                    "C({n}, {k})"
                );
            }
        }
        assert_eq!(choose_small(SHOE_CARDS + 1, 1), 0);
        assert_eq!(choose_small(3, MAX_HAND + 1), 0);
    }

    proptest::proptest! {
        /// The fast count equals the former one over the whole joint table: the
        /// same exact counts, and the same chance to 1e-12, anywhere within the caps.
        #[test]
        fn skill_hand_equals_the_joint_table(
            trait_score in 1..=fate::MAX_TRAIT,
            rank in 0..=fate::MAX_RANK,
            modifier in 0..=fate::MAX_MODIFIER,
            specialty in 0..=fate::MAX_SPECIALTY,
        ) {
            let hand = SkillHand { trait_score, rank, modifier, specialty };
            let fast = skill_hand(hand).unwrap();
            let old = skill_hand_by_joint_table(hand).unwrap();
            proptest::prop_assert!((fast.probability - old.probability).abs() < 1e-12);
            proptest::prop_assert_eq!(fast, old);
        }
    }

    #[test]
    fn skill_hand_odds_are_sane() {
        let carlton = SkillHand {
            trait_score: 3,
            rank: 2,
            modifier: 0,
            specialty: 0,
        };
        let p = skill_hand(carlton).unwrap().probability;
        assert!(p > 0.5 && p < 1.0, "{p}");
        let legend = SkillHand {
            modifier: 20,
            ..carlton
        };
        assert!(skill_hand(legend).unwrap().probability < 0.05);
        let harder = SkillHand {
            modifier: 5,
            ..carlton
        };
        assert!(skill_hand(harder).unwrap().probability < p);
    }

    #[test]
    fn card_wins_matches_brute_force() {
        let face = face_of_key(30);
        for defending in [false, true] {
            let exact = card_wins(face, 2, 1, 3, defending).unwrap();
            let mut deck: Vec<usize> = (0..52).flat_map(|k| [k, k]).collect();
            let pos = deck.iter().position(|k| *k == 30).unwrap();
            deck.remove(pos);
            let wins = deck
                .iter()
                .filter(|&&ko| {
                    if defending {
                        !key_wins(ko, 3, 30, 2)
                    } else {
                        key_wins(30, 2, ko, 3)
                    }
                })
                .count();
            assert!((exact - wins as f64 / deck.len() as f64).abs() < 1e-12);
        }
        let ace = card_wins(face_of_key(51), 0, 3, 0, false).unwrap();
        assert!(ace > 0.9);
    }

    /// Item 21: each number out of range is refused naming itself, and no value
    /// (not even `i64::MIN`) panics.
    #[test]
    fn range_errors_name_the_parameter_out_of_range() {
        use tabula_core::rule::Refusal;
        let face = face_of_key(30);
        let field = |r: Result<f64, RuleError>| match r.unwrap_err().kind {
            Refusal::OutOfRange { field, .. } => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(field(card_wins(face, 101, 1, 0, false)), "bonus");
        assert_eq!(field(card_wins(face, 0, 1, 101, false)), "opponent bonus");
        assert_eq!(field(card_wins(face, i64::MIN, 1, 0, false)), "bonus");
        assert_eq!(
            field(card_wins(face, 0, 1, i64::MIN, false)),
            "opponent bonus"
        );
        assert_eq!(field(card_wins(face, 0, 0, 0, false)), "opponent draws");
        assert_eq!(field(card_wins(face, 0, -1, 0, false)), "opponent draws");
        assert_eq!(
            field(card_wins(face, 0, i64::MAX, 0, false)),
            "opponent draws"
        );
        let e = card_wins(face, 0, 1, 200, false).unwrap_err().to_string();
        assert!(
            e.starts_with("opponent bonus must be between -100 and 100, not 200"),
            "{e}"
        );
        for (hand, name) in [
            (
                SkillHand {
                    trait_score: 0,
                    rank: 1,
                    modifier: 0,
                    specialty: 0,
                },
                "Trait",
            ),
            (
                SkillHand {
                    trait_score: 1,
                    rank: -1,
                    modifier: 0,
                    specialty: 0,
                },
                "rank",
            ),
            (
                SkillHand {
                    trait_score: 1,
                    rank: 1,
                    modifier: i64::MIN,
                    specialty: 0,
                },
                "Difficulty Modifier",
            ),
            (
                SkillHand {
                    trait_score: 1,
                    rank: 1,
                    modifier: 0,
                    specialty: i64::MAX,
                },
                "Specialty",
            ),
        ] {
            assert_eq!(field(skill_hand(hand).map(|o| o.probability)), name);
        }
    }
}
