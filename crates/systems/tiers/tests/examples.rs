//! The book's characters and the level-1 SP choices, as files under
//! `examples/tiers/`.

use std::path::PathBuf;
use tabula_tiers::character::{Character, CharacterFileError, DraftProblem, Stat};

fn example(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../examples/tiers")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// "Leveling Up": level 1, +1 in each Stat (4 SP each).
#[test]
fn level_one_even_spread() {
    let c = Character::from_toml(&example("level1-even.toml")).unwrap();
    assert_eq!(c.total_sp(), 16);
    for s in Stat::ALL {
        assert_eq!(c.stat(s).total(), 4);
        assert_eq!(c.roleplay_bonus(s), 1);
    }
}

/// "Leveling Up": level 1, +4 Strength opens tier 2 of Strength.
#[test]
fn level_one_strength_opens_tier_two() {
    let c = Character::from_toml(&example("level1-strength.toml")).unwrap();
    assert_eq!(c.total_sp(), 16);
    assert_eq!(c.stat(Stat::Strength).tiers(), [6, 1, 0, 0, 0, 0]);
    assert_eq!(c.roleplay_bonus(Stat::Strength), 2);
}

/// "Starting Stats": level 0, 12 SP, 10 max Health.
#[test]
fn level_zero() {
    let c = Character::from_toml(&example("level0.toml")).unwrap();
    assert_eq!((c.total_sp(), c.base_max_health(), c.max_ap()), (12, 10, 6));
}

/// John and Cristy carry the Roleplay Bonuses the book's examples give them.
#[test]
fn john_and_cristy() {
    let john = Character::from_toml(&example("john.toml")).unwrap();
    assert_eq!(john.roleplay_bonus(Stat::Skill), 1);
    assert_eq!(john.roleplay_bonus(Stat::Strength), 2);
    let cristy = Character::from_toml(&example("cristy.toml")).unwrap();
    assert_eq!(cristy.roleplay_bonus(Stat::Skill), 2);
    assert_eq!(cristy.roleplay_bonus(Stat::Strength), 2);
}

#[test]
fn broken_file_names_every_rule() {
    let Err(CharacterFileError::Rules(e)) = Character::from_toml(&example("broken-character.toml"))
    else {
        panic!("the broken file must be refused by the rules");
    };
    assert_eq!(e.problems.len(), 5);
    assert!(
        e.problems
            .iter()
            .any(|p| matches!(p, DraftProblem::TierLocked { .. }))
    );
    assert!(e.to_string().contains("stats.strength tier 2"));
}
