//! Properties of characters, purchases and odds.

use proptest::prelude::*;
use tabula_tiers::character::{Character, CharacterDraft, Stat, StatsDraft, sp_budget};
use tabula_tiers::gm::Purchase;
use tabula_tiers::odds;
use tabula_tiers::roleplay::RollKind;

fn tiers() -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(-2i64..9, 0..8)
}

proptest! {
    /// Any draft is either a character that keeps every rule, or an error with
    /// at least one problem and the draft handed back unchanged.
    #[test]
    fn drafts_validate_or_list_problems(
        level in -3i64..40,
        s in tiers(), k in tiers(), u in tiers(), c in tiers(),
        health in prop::option::of(-5i64..400),
    ) {
        let draft = CharacterDraft {
            name: "P".into(),
            level,
            stats: StatsDraft { strength: s, skill: k, support: u, scharisma: c },
            health,
            ..CharacterDraft::default()
        };
        match Character::from_draft(draft.clone()) {
            Ok(ch) => {
                prop_assert_eq!(ch.total_sp(), sp_budget(ch.level()));
                for st in Stat::ALL {
                    let rb = ch.roleplay_bonus(st);
                    prop_assert!((1..=6).contains(&rb));
                    let t = ch.stat(st).tiers();
                    for i in 1..6 {
                        prop_assert!(t[i] == 0 || t[i - 1] == 6);
                    }
                }
                let again = Character::from_toml(&toml::to_string(&ch.to_draft()).unwrap()).unwrap();
                prop_assert_eq!(again, ch);
            }
            Err(e) => {
                prop_assert!(!e.problems.is_empty());
                prop_assert_eq!(*e.draft, draft);
            }
        }
    }

    /// R-TI-5, "1d3 (need 1d6)" and the budget, against a direct reading of the rule.
    #[test]
    fn purchases(d6 in 0u32..10, d3 in 0u32..10, cp in 0u32..20, psp in 0u32..200) {
        let p = Purchase { d6, d3, combat_points: cp };
        let ok = d6.abs_diff(d3) <= 1 && (d3 == 0 || d6 > 0) && 12 * d6 + 4 * d3 + cp <= psp;
        prop_assert_eq!(p.validate(psp).is_ok(), ok);
    }

    /// N d3 + bonus against a Goal, against enumeration of every face.
    #[test]
    fn d3_odds_match_enumeration(n in 1u32..6, bonus in -7i64..7, goal in 0u32..25) {
        let mut totals = vec![0i64];
        for _ in 0..n {
            totals = totals.iter().flat_map(|t| (1..=3).map(move |f| t + f)).collect();
        }
        let hits = totals.iter().filter(|t| **t + bonus >= i64::from(goal)).count();
        let want = hits as f64 / totals.len() as f64;
        let got = odds::check(RollKind::InCombat { d3: n }, bonus, goal).unwrap().probability;
        prop_assert!((got - want).abs() < 1e-12);
    }
}

/// Every level from 0 to 33 has a valid sheet: 3 SP per Stat, the rest filled
/// Stat by Stat, tier by tier.
#[test]
fn every_level_has_a_valid_sheet() {
    for level in 0u32..=33 {
        let mut extra = sp_budget(level) - 12;
        let mut totals = [3u32; 4];
        for t in &mut totals {
            let add = extra.min(36 - *t);
            *t += add;
            extra -= add;
        }
        let draft = CharacterDraft {
            name: "L".into(),
            level: i64::from(level),
            stats: StatsDraft::from_totals(totals[0], totals[1], totals[2], totals[3]),
            ..CharacterDraft::default()
        };
        let c = Character::from_draft(draft).unwrap();
        assert_eq!(c.base_max_health(), 10 * (level + 1));
    }
}
