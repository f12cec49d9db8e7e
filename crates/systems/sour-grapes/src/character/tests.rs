//! Unit tests of the character sheet.

mod unit {
    use super::super::*;

    const SHEET: &str = include_str!("../../../../../examples/sour-grapes/example-character.toml");

    /// Sour Grapes, "Stat Mechanics": the book's example stat sheet, with the
    /// Injured stat at Actual 4 and Current 2.
    #[test]
    fn book_example_sheet() {
        let c = Character::from_toml(SHEET).unwrap();
        assert_eq!(c.stat(Stat::Agility).actual, 5);
        assert_eq!(c.stat(Stat::Might).actual, 3);
        assert_eq!(c.stat(Stat::Perception).actual, 6);
        assert_eq!(c.stat(Stat::Vitality).actual, 6);
        let res = c.stat(Stat::Resolve);
        assert_eq!((res.actual, res.current, res.injured), (4, 2, true));
        assert!(c.recovery_blocked(Stat::Resolve).is_some());
        assert_eq!(c.skills().len(), 8);
        assert!(c.conditions().is_empty());
    }

    #[test]
    fn every_problem_is_listed() {
        let text = r#"
name = ""
[stats]
agility = 11
strength = 3
might = 3
luck = 2
perception = { actual = 4, current = 5 }
prestige = { actual = 2, current = 0 }
[[skills]]
name = "boxing"
rating = 6
[[skills]]
name = "Boxing"
rating = 2
"#;
        let err = match Character::from_toml(text) {
            Err(CharacterFileError::Draft(e)) => e,
            other => panic!("expected a draft error, got {other:?}"),
        };
        let p = &err.problems;
        assert!(p.iter().any(|p| matches!(p, Problem::Name(_))));
        assert!(p.contains(&Problem::ActualOutOfRange {
            stat: Stat::Agility,
            got: 11
        }));
        assert!(p.contains(&Problem::DuplicateStat(Stat::Might)));
        assert!(p.contains(&Problem::UnknownStat("luck".into())));
        assert!(p.contains(&Problem::MissingStat(Stat::Vitality)));
        assert!(p.iter().any(|x| matches!(
            x,
            Problem::CurrentOutOfRange {
                stat: Stat::Perception,
                ..
            }
        )));
        assert!(p.iter().any(|x| matches!(x, Problem::SkillRating { .. })));
        assert!(err.to_string().contains("stats.Vitality"));
    }

    #[test]
    fn draft_round_trip() {
        let c = Character::from_toml(SHEET).unwrap();
        let again = Character::from_draft(c.to_draft()).unwrap();
        assert_eq!(c, again);
    }
}

mod name_tests {
    use proptest::prelude::*;

    proptest! {
        /// Lookups by key agree with comparing the built keys.
        #[test]
        fn same_key_agrees_with_key(a in "[ _\\-AaBbİi]{0,8}", b in "[ _\\-AaBbİi]{0,8}") {
            prop_assert_eq!(
                crate::cards::same_key(&a, &b),
                crate::cards::key(&a) == crate::cards::key(&b)
            );
        }
    }
}
