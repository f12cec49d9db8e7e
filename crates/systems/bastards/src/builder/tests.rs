//! Unit tests.

use super::*;

#[test]
fn the_empty_draft_asks_for_a_name_a_suit_and_two_advantages() {
    let v = view(&Draft::default());
    assert!(!v.complete);
    assert_eq!(v.next.as_deref(), Some("name"));
    assert!(v.problems.iter().all(|p| p.unfinished), "{:?}", v.problems);
    let xp = &v.budgets[0];
    assert_eq!((xp.total, xp.spent), (10, 0));
}

/// A draft read back from JSON may hold anything: the view and the sheet
/// never panic, and the extremes are problems.
#[test]
fn absurd_numbers_in_a_stored_draft_are_problems_not_panics() {
    let d = Draft {
        name: Some("X".into()),
        suit: Some("Clubs".into()),
        body: Some(i64::MAX),
        spirit: Some(i64::MIN),
        toughness: i64::MAX,
        resolve: i64::MAX,
        earned_xp: i64::MIN,
        wildcards: u32::MAX,
        skills: BTreeMap::from([("Athletics".to_string(), i64::MAX)]),
        more_skills: vec![MoreSkill {
            name: "Sword Combat".into(),
            rank: i64::MIN,
        }],
        weapons: vec![Weapon {
            name: "Sword".into(),
            damage: i64::MAX,
            skill: "Sword Combat".into(),
            melee: true,
            ready: true,
        }],
        pools: Pools {
            bp: Some(i64::MAX),
            ..Pools::default()
        },
        ..Draft::default()
    };
    let v = view(&d);
    assert!(!v.complete);
    assert!(v.problems.iter().any(|p| !p.unfinished));
    let sheet = <Bastards as CharacterBook>::draft_sheet(&d);
    assert!(<Bastards as CharacterBook>::validate(&sheet).is_err());
}

#[test]
fn a_trait_at_its_start_is_not_stored() {
    let mut d = Draft::default();
    apply(&mut d, "traits.Spirit", Some(&FieldValue::Int(1))).unwrap();
    assert_eq!(d.spirit, None);
    apply(&mut d, "suit", Some(&FieldValue::Text("Hearts".into()))).unwrap();
    assert_eq!(trait_score(&d, Trait::Spirit), 2);
}
