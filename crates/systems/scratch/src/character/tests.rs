//! Unit tests of characters.

use super::*;

#[test]
fn the_level_table_follows_the_order_of_every_ability() {
    for (i, a) in Ability::ALL.into_iter().enumerate() {
        assert_eq!(a as usize, i, "{a}");
    }
    let c = Character::from_toml(
        "name = \"X\"\n[abilities]\nshooting = 2\ncommand = 3\ntoughness = 1\n",
        &TableRules::default(),
    )
    .unwrap();
    for a in Ability::ALL {
        assert_eq!(c.level(a), c.levels().get(&a).copied().unwrap_or(0), "{a}");
    }
    // Serialized as the sheet, read back the same (level table included).
    let json = serde_json::to_string(&c).unwrap();
    assert!(json.starts_with("{\"name\":\"X\""), "{json}");
    let back: Character = serde_json::from_str(&json).unwrap();
    assert_eq!(back, c);
    assert_eq!(back.level(Ability::Command), 3);
}

#[test]
fn carrying_table_matches_the_book() {
    // strength, pack kg, pack lb, carry kg, carry lb, lift kg, lift lb
    let book: [(u32, u32, u32, u32, u32, u32, u32); 11] = [
        (10, 20, 44, 50, 110, 100, 220),
        (11, 22, 48, 55, 120, 110, 240),
        (12, 24, 53, 60, 130, 120, 260),
        (13, 26, 57, 65, 145, 130, 290),
        (14, 28, 62, 70, 155, 140, 310),
        (15, 30, 66, 75, 165, 150, 330),
        (16, 32, 70, 80, 175, 160, 350),
        (17, 34, 75, 85, 185, 170, 370),
        (18, 36, 79, 90, 200, 180, 400),
        (19, 38, 84, 95, 210, 190, 420),
        (20, 40, 88, 100, 220, 200, 440),
    ];
    for (s, pk, pl, ck, cl, lk, ll) in book {
        let c = Carrying::for_strength(s);
        assert_eq!(
            (
                c.pack_kg, c.pack_lb, c.carry_kg, c.carry_lb, c.lift_kg, c.lift_lb
            ),
            (pk, pl, ck, cl, lk, ll),
            "strength {s}"
        );
    }
    let huge = Carrying::for_strength(u32::MAX);
    assert_eq!(huge.lift_kg, u32::MAX);
}

#[test]
fn seven_toughness_hit_point_states() {
    // "Hit Points": 7 toughness, stamina 3; healthy 4..=7, injured 1..=3, 0 incapacitated.
    let d = Defenses::from_levels(|a| if a == Ability::Toughness { 7 } else { 0 }, 8);
    assert_eq!(d.stamina, 3);
    assert_eq!(d.max_hit_points, 7);
    for hp in 4..=7 {
        assert_eq!(HitPointState::of(hp, d.stamina), HitPointState::Healthy);
    }
    for hp in 1..=3 {
        assert_eq!(HitPointState::of(hp, d.stamina), HitPointState::Injured);
    }
    assert_eq!(
        HitPointState::of(0, d.stamina),
        HitPointState::Incapacitated
    );
}

#[test]
fn defenses_examples_from_the_text() {
    // "If a character has 2 levels of acrobatics and 3 levels of quickness, then his agility is 13."
    let d = Defenses::from_levels(
        |a| match a {
            Ability::Acrobatics => 2,
            Ability::Quickness => 3,
            _ => 0,
        },
        8,
    );
    assert_eq!(d.agility, 13);
    assert_eq!(d.intelligence, 10);
    assert_eq!(d.strength, 8);
    let text = Defenses::from_levels(|a| if a == Ability::Toughness { 3 } else { 0 }, 7);
    assert_eq!(text.strength, 10);
}

#[test]
fn every_broken_rule_is_listed() {
    let draft = CharacterDraft {
        name: String::new(),
        abilities: BTreeMap::from([
            ("shooting".into(), 8),
            ("toughness".into(), 6),
            ("lasers".into(), 1),
            ("stealth".into(), -1),
        ]),
        notes: BTreeMap::from([("flying".into(), "wings".into())]),
        minions: vec![CharacterDraft {
            name: "Thug".into(),
            abilities: BTreeMap::from([("command".into(), 1)]),
            ..Default::default()
        }],
        ..Default::default()
    };
    let err = Character::from_draft(draft.clone(), &TableRules::default()).unwrap_err();
    assert_eq!(*err.draft, draft);
    let kinds: Vec<&Problem> = err.problems.iter().collect();
    assert!(kinds.contains(&&Problem::EmptyName));
    assert!(kinds.contains(&&Problem::UnknownAbility {
        name: "lasers".into()
    }));
    assert!(
        kinds
            .iter()
            .any(|p| matches!(p, Problem::NegativeLevel { .. }))
    );
    assert!(
        kinds
            .iter()
            .any(|p| matches!(p, Problem::AboveMaxLevel { level: 8, .. }))
    );
    assert!(
        kinds
            .iter()
            .any(|p| matches!(p, Problem::AboveMaxLevel { level: 6, .. }))
    );
    assert!(kinds.contains(&&Problem::OverBudget { spent: 14, cp: 10 }));
    assert!(kinds.contains(&&Problem::NoteWithoutAbility {
        name: "flying".into()
    }));
    assert!(kinds.contains(&&Problem::MinionsWithoutCommand));
    assert!(kinds.contains(&&Problem::MinionHasCommand {
        index: 0,
        minion: "Thug".into()
    }));
    let text = err.to_string();
    assert!(text.contains("abilities.shooting"), "{text}");
}
