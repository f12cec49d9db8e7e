//! Unit tests.

use super::*;

fn draft() -> CharacterDraft {
    CharacterDraft {
        name: "Carlton".into(),
        player: "Pat".into(),
        suit: "Spades".into(),
        body: 1,
        spirit: 1,
        mind: 3,
        luck: 1,
        skills: BTreeMap::from([("Repair".to_string(), 2)]),
        custom_skills: vec!["Repair".into()],
        specialties: vec![],
        advantages: vec!["Careful".into(), "Study".into()],
        disadvantages: vec![],
        earned_xp: 0,
        wildcards: 0,
        pools: Pools::default(),
        weapons: vec![],
        armour: None,
    }
}

#[test]
fn carlton_is_legal_and_spends_two_xp() {
    let c = Character::from_draft(draft()).unwrap();
    assert_eq!(c.trait_score(Trait::Mind), 3);
    assert_eq!(c.pool_max(Trait::Mind), 15);
    assert_eq!(c.skill("Repair"), Some(2));
    assert_eq!(c.skill("Athletics"), Some(1));
    assert_eq!(c.xp(), (10, 2));
}

#[test]
fn every_broken_rule_is_listed() {
    let mut d = draft();
    d.name = " ".into();
    d.mind = 1; // Spades needs 2
    d.skills.insert("Basket Weaving".into(), 3);
    d.specialties.push(SpecialtyDraft {
        name: "Acting".into(),
        skills: vec!["Influence".into(), "Repair".into()],
    });
    d.advantages = vec!["Toughness".into(); 6];
    d.advantages.push("Flying".into());
    let e = Character::from_draft(d).unwrap_err();
    let p = &e.problems;
    assert!(p.contains(&DraftProblem::NoName));
    assert!(
        p.iter()
            .any(|x| matches!(x, DraftProblem::TraitOutOfRange { field, .. } if field == "mind"))
    );
    assert!(p.contains(&DraftProblem::UnknownSkill("Basket Weaving".into())));
    assert!(p.iter().any(
        |x| matches!(x, DraftProblem::SpecialtyRankTooLow { skill, .. } if skill == "Influence")
    ));
    assert!(p.contains(&DraftProblem::TooManyStacks("Toughness".into())));
    assert!(p.contains(&DraftProblem::UnknownAdvantage("Flying".into())));
    assert_eq!(e.draft.name, " ");
}

#[test]
fn xp_is_counted_and_disadvantages_add_one_each() {
    let mut d = draft();
    d.body = 6; // 5 XP
    d.skills.insert("Athletics".into(), 4); // 3 XP
    d.advantages.push("Speedy".into()); // 1 XP, total 11 with Repair
    let e = Character::from_draft(d.clone()).unwrap_err();
    assert_eq!(
        e.problems,
        vec![DraftProblem::Overspent {
            spent: 11,
            available: 10
        }]
    );
    d.disadvantages.push("Hunted by the Fates".into());
    assert!(Character::from_draft(d).is_ok());
}

#[test]
fn tarot_suits_and_specialty_rank() {
    let mut d = draft();
    d.suit = "Staves".into();
    d.skills.insert("Technology".into(), 3);
    d.specialties.push(SpecialtyDraft {
        name: "Jury-Rig".into(),
        skills: vec!["Technology".into(), "Repair".into()],
    });
    let c = Character::from_draft(d).unwrap();
    assert_eq!(c.suit(), Suit::Spades);
    assert_eq!(c.specialty_rank("jury-rig"), Some(2));
}

/// R-GB-8, "Advantages": two starting Advantages; "Points & Costs",
/// "Specialties": nothing is bought twice unless the Advantage says "up to 5
/// times".
#[test]
fn two_starting_advantages_and_nothing_taken_twice_r_gb_8() {
    for (list, got) in [(vec![], 0), (vec!["Careful".to_string()], 1)] {
        let mut d = draft();
        d.advantages = list;
        let e = Character::from_draft(d).unwrap_err();
        assert_eq!(e.problems, vec![DraftProblem::TooFewAdvantages { got }]);
    }
    let mut d = draft();
    d.advantages = vec!["Careful".into(), "careful".into()];
    let e = Character::from_draft(d).unwrap_err();
    assert_eq!(
        e.problems,
        vec![DraftProblem::RepeatedAdvantage("Careful".into())]
    );
    let mut d = draft();
    d.advantages = vec!["Counter<Sword>".into(), "Counter<sword>".into()];
    let e = Character::from_draft(d).unwrap_err();
    assert_eq!(
        e.problems,
        vec![DraftProblem::RepeatedAdvantage("Counter<sword>".into())]
    );
    // Toughness and Resolve may be taken up to five times.
    let mut d = draft();
    d.advantages = vec!["Toughness".into(); 5];
    d.advantages.push("Careful".into());
    let c = Character::from_draft(d).unwrap();
    assert_eq!(c.has(&Advantage::Toughness), 5);
    // Four bought beyond the two free, plus Mind 3 and Repair 2.
    assert_eq!(c.xp(), (10, 6));
    let mut d = draft();
    d.disadvantages = vec!["Hunted".into(), "hunted ".into()];
    let e = Character::from_draft(d).unwrap_err();
    assert_eq!(
        e.problems,
        vec![DraftProblem::RepeatedDisadvantage("hunted ".into())]
    );
    let mut d = draft();
    d.skills.insert("Technology".into(), 2);
    for _ in 0..2 {
        d.specialties.push(SpecialtyDraft {
            name: "Jury-Rig".into(),
            skills: vec!["Technology".into(), "Repair".into()],
        });
    }
    let e = Character::from_draft(d).unwrap_err();
    assert_eq!(
        e.problems,
        vec![DraftProblem::RepeatedSpecialty("Jury-Rig".into())]
    );
    let mut d = draft();
    d.skills.insert("repair".into(), 2);
    let e = Character::from_draft(d).unwrap_err();
    assert!(
        e.problems
            .iter()
            .any(|p| matches!(p, DraftProblem::RepeatedSkill(_))),
        "{e}"
    );
}

#[test]
fn names_with_control_characters_are_refused() {
    let mut d = draft();
    d.name = "Carl\u{1b}[2Jton".into();
    d.player = "Pat:2".into();
    let e = Character::from_draft(d).unwrap_err();
    assert_eq!(e.problems.len(), 2, "{e}");
    assert!(e.to_string().contains("name:"), "{e}");
    assert!(e.to_string().contains("player:"), "{e}");
}

#[test]
fn a_bad_toml_field_is_named() {
    let e = Character::from_toml(
        "name = \"X\"\nsuit = \"Clubs\"\nbody = 2\nspirit = 1\nmind = 1\nluck = 1\nstrength = 3\n",
    )
    .unwrap_err();
    assert!(e.to_string().contains("strength"), "{e}");
}
