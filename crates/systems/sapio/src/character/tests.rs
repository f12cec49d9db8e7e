//! Unit tests of the character rules.

use super::*;

pub(crate) fn roof_runner() -> CharacterDraft {
    toml::from_str(include_str!(
        "../../../../../examples/sapio/roof-runner.toml"
    ))
    .unwrap()
}

#[test]
fn the_roof_runner_is_a_legal_starting_character() {
    let c = Character::from_draft(roof_runner()).unwrap();
    assert_eq!(c.sheet().profession.name, "Roof Runner");
    assert_eq!(
        c.find_specialization("leaping"),
        Some(("Roof Runner", "Leaping"))
    );
    assert_eq!(c.sheet().principle, "Violence is not the answer");
    assert_eq!(c.sheet().worst_impulse, "Stealing isn't a big deal");
}

#[test]
fn every_broken_rule_is_listed() {
    let mut d = roof_runner();
    d.name = String::new();
    d.profession.name = "Gas Station Clerk".into();
    d.qualities = vec!["Agile".into(), "Agile".into(), "Quick".into()];
    d.principle = String::new();
    d.advancements = vec![AdvanceKind::Quality, AdvanceKind::Quality];
    d.luck = 1000;
    let e = Character::from_draft(d).unwrap_err();
    let has = |f: &dyn Fn(&DraftProblem) -> bool| e.problems.iter().any(f);
    assert!(has(&|p| matches!(p, DraftProblem::NoName)));
    assert!(has(&|p| matches!(
        p,
        DraftProblem::ProfessionWords { words: 3, .. }
    )));
    assert!(has(&|p| matches!(p, DraftProblem::Duplicate { .. })));
    assert!(has(
        &|p| matches!(p, DraftProblem::Missing { field, .. } if field == "principle")
    ));
    assert!(has(&|p| matches!(
        p,
        DraftProblem::CycleRule { index: 1, .. }
    )));
    assert!(has(
        &|p| matches!(p, DraftProblem::BuildCount { field, .. } if field == "qualities")
    ));
    assert!(has(&|p| matches!(p, DraftProblem::Luck { got: 1000 })));
    assert_eq!(e.draft.luck, 1000);
}

#[test]
fn starting_build_counts() {
    let mut d = roof_runner();
    d.side_professions[0]
        .specializations
        .push("Cash Register".into());
    d.special_talents.push(Talent {
        name: "Weather Sense".into(),
        ..Talent::default()
    });
    let e = Character::from_draft(d).unwrap_err();
    assert_eq!(e.problems.len(), 2, "{e}");
}

/// "Qualities": "'Lucky' and 'Competent' ... should not be used"; R-SA-10
/// makes them errors, on the sheet, in advancement and in a cycle change.
#[test]
fn lucky_and_competent_are_refused_as_qualities() {
    let mut d = roof_runner();
    d.qualities[1] = "lucky".into();
    let e = Character::from_draft(d).unwrap_err();
    assert!(
        e.problems.iter().any(|p| matches!(
            p,
            DraftProblem::TooGeneric { field, quality } if field == "qualities[1]" && quality == "lucky"
        )),
        "{e}"
    );
    assert!(e.to_string().contains("R-SA-10"), "{e}");
    let mut c = Character::from_draft(roof_runner()).unwrap();
    assert_eq!(
        c.check_advance(&Advance::Quality {
            name: "Competent".into()
        }),
        Err(AdvanceError::TooGeneric {
            name: "Competent".into()
        })
    );
    // A completed cycle may change a Quality, but not to "Lucky".
    for adv in [
        Advance::Quality {
            name: "Durable".into(),
        },
        Advance::ProfessionSpecialization {
            name: "Quick Escapes".into(),
        },
        Advance::SideProfession {
            name: "Bike Courier".into(),
        },
        Advance::SpecialTalent {
            talent: Talent {
                name: "Weather Sense".into(),
                ..Talent::default()
            },
        },
    ] {
        c.check_advance(&adv).unwrap();
        c.apply_advance(&adv);
    }
    assert!(matches!(
        c.check_change(&CycleChange::Quality {
            from: "Agile".into(),
            to: "LUCKY".into()
        }),
        Err(AdvanceError::TooGeneric { .. })
    ));
}

fn spellcaster() -> Talent {
    Talent {
        name: "Spellcaster".into(),
        text: "This character can cast magical spells".into(),
        ..Talent::default()
    }
}

/// "In a setting with magical or divine abilities, characters possessing these
/// abilities must take both a specific Quality and a Special Talent to use
/// them" (the footnote of "Building a Starting Character"); R-SA-10.
#[test]
fn magic_needs_its_quality_and_special_talent_pair() {
    // The Talent without the Quality.
    let mut d = roof_runner();
    d.special_talents[0] = spellcaster();
    let e = Character::from_draft(d).unwrap_err();
    assert!(
        e.problems.iter().any(|p| matches!(
            p,
            DraftProblem::MagicWithoutQuality { field, .. } if field == "special_talents[0]"
        )),
        "{e}"
    );
    // The Quality without the Talent.
    let mut d = roof_runner();
    d.qualities[1] = "Magically Trained".into();
    let e = Character::from_draft(d).unwrap_err();
    assert!(
        e.problems.iter().any(|p| matches!(
            p,
            DraftProblem::MagicQualityWithoutTalent { field, .. } if field == "qualities[1]"
        )),
        "{e}"
    );
    // Both: legal (the book's Arcane Knight).
    let mut d = roof_runner();
    d.qualities[1] = "Magical".into();
    d.special_talents[0] = spellcaster();
    let c = Character::from_draft(d).unwrap();
    // A talent may say it is not magic, whatever its words.
    let mut d = roof_runner();
    d.special_talents[0] = Talent {
        name: "Spell Breaker".into(),
        text: "Immune to magic".into(),
        magic: Some(false),
        ..Talent::default()
    };
    Character::from_draft(d).unwrap();
    // Advancement may gain one half alone (R-SA-12, which replaces the
    // refusal of a lone half here: see
    // `r_sa_12_one_magic_half_waits_at_a_time`); the last magic Quality
    // stays while a magic Talent remains.
    let plain = Character::from_draft(roof_runner()).unwrap();
    assert_eq!(
        plain.check_advance(&Advance::SpecialTalent {
            talent: Talent {
                name: "Blessing".into(),
                magic: Some(true),
                ..Talent::default()
            }
        }),
        Ok(())
    );
    assert_eq!(
        plain.check_advance(&Advance::Quality {
            name: "Annointed".into()
        }),
        Ok(())
    );
    assert!(
        c.check_advance(&Advance::SpecialTalent {
            talent: Talent {
                name: "Divine Ward".into(),
                ..Talent::default()
            }
        })
        .is_ok()
    );
    assert_eq!(
        c.check_new_quality("Stoic", Some("Magical")),
        Err(AdvanceError::MagicNeedsQuality {
            talent: "Spellcaster".into()
        })
    );
}

/// R-SA-12: a magic half gained alone is marked unpaired and gives
/// nothing; while it waits, a second lone half is refused; its pair clears
/// the mark; changing the waiting Quality away clears it too.
#[test]
fn r_sa_12_one_magic_half_waits_at_a_time() {
    let mut c = Character::from_draft(roof_runner()).unwrap();
    c.apply_advance(&Advance::Quality {
        name: "Magical".into(),
    });
    assert_eq!(c.sheet().unpaired.as_deref(), Some("Magical"));
    assert!(c.is_unpaired("magical"));
    assert!(!c.is_unpaired("Agile"));
    Character::from_draft(c.sheet().clone()).unwrap();
    // Complete the cycle with elements that are not magic.
    for adv in [
        Advance::ProfessionSpecialization {
            name: "Quick Escapes".into(),
        },
        Advance::SideProfession {
            name: "Bike Courier".into(),
        },
        Advance::SpecialTalent {
            talent: Talent {
                name: "Weather Sense".into(),
                ..Talent::default()
            },
        },
    ] {
        c.check_advance(&adv).unwrap();
        c.apply_advance(&adv);
    }
    assert_eq!(c.sheet().unpaired.as_deref(), Some("Magical"));
    // Another magic Quality alone while Magical waits is refused.
    let annointed = Advance::Quality {
        name: "Annointed".into(),
    };
    let e = c.check_advance(&annointed).unwrap_err();
    assert_eq!(
        e,
        AdvanceError::UnpairedWaiting {
            waiting: "Magical".into()
        }
    );
    assert_eq!(e.rule().ruling, Some("R-SA-12"));
    // The waiting Quality changed to a plain one no longer waits.
    let mut changed = c.clone();
    let to = CycleChange::Quality {
        from: "Magical".into(),
        to: "Stoic".into(),
    };
    changed.check_change(&to).unwrap();
    changed.apply_change(&to);
    assert_eq!(changed.sheet().unpaired, None);
    Character::from_draft(changed.sheet().clone()).unwrap();
    // The Talent completes the pair and clears the mark.
    let spell = Advance::SpecialTalent {
        talent: Talent {
            name: "Spellcaster".into(),
            text: "This character can cast magical spells".into(),
            ..Talent::default()
        },
    };
    c.check_advance(&spell).unwrap();
    c.apply_advance(&spell);
    assert_eq!(c.sheet().unpaired, None);
    assert!(!c.is_unpaired("Magical"));
    Character::from_draft(c.sheet().clone()).unwrap();
}

#[test]
fn names_with_control_characters_or_a_gm_player_are_refused() {
    let mut d = roof_runner();
    d.name = "Wr\u{1b}[2Jen".into();
    d.player = Some("GM".into());
    d.qualities[0] = "Ag\u{7}ile".into();
    let e = Character::from_draft(d).unwrap_err();
    let has = |f: &dyn Fn(&DraftProblem) -> bool| e.problems.iter().any(f);
    assert!(has(&|p| matches!(p, DraftProblem::Name { .. })), "{e}");
    assert!(
        has(&|p| matches!(p, DraftProblem::PlayerIsGm { .. })),
        "{e}"
    );
    assert!(
        has(
            &|p| matches!(p, DraftProblem::ControlCharacter { field, .. } if field == "qualities[0]")
        ),
        "{e}"
    );
    let mut d = roof_runner();
    d.player = Some("Ana: the first".into());
    let e = Character::from_draft(d).unwrap_err();
    assert!(e.to_string().contains("player"), "{e}");
}

#[test]
fn advancement_cycle_and_changes() {
    let mut c = Character::from_draft(roof_runner()).unwrap();
    let q = Advance::Quality {
        name: "Durable".into(),
    };
    c.check_advance(&q).unwrap();
    c.apply_advance(&q);
    let q2 = Advance::Quality {
        name: "Likeable".into(),
    };
    assert!(matches!(
        c.check_advance(&q2),
        Err(AdvanceError::CycleRule { .. })
    ));
    assert_eq!(
        c.check_change(&CycleChange::Swap {
            side: "Night Clerk".into()
        }),
        Err(AdvanceError::NoCycleCompleted)
    );
    for adv in [
        Advance::ProfessionSpecialization {
            name: "Quick Escapes".into(),
        },
        Advance::SideSpecialization {
            profession: "Night Clerk".into(),
            name: "Haggling".into(),
        },
        Advance::SpecialTalent {
            talent: Talent {
                name: "Weather Sense".into(),
                text: "always knows tomorrow's weather".into(),
                effect: None,
                magic: None,
            },
        },
    ] {
        c.check_advance(&adv).unwrap();
        c.apply_advance(&adv);
    }
    assert_eq!(c.cycle().completed, 1);
    c.check_advance(&q2).unwrap();
    let swap = CycleChange::Swap {
        side: "Night Clerk".into(),
    };
    c.check_change(&swap).unwrap();
    c.apply_change(&swap);
    assert_eq!(c.sheet().profession.name, "Night Clerk");
    assert_eq!(c.sheet().profession.specializations, vec!["Haggling"]);
    assert_eq!(c.cycle_changes_left(), 0);
    // The advanced sheet still validates from its file form.
    Character::from_draft(c.sheet().clone()).unwrap();
    let word = CycleChange::ProfessionWord {
        profession: "Roof Runner".into(),
        to: "Roof Dancer".into(),
    };
    assert_eq!(c.check_change(&word), Err(AdvanceError::NoCycleCompleted));
}
