//! Characters outside the table (issue 16): creation step by step
//! (`CharacterBook` for `Bastards`), the sheets an encounter leaves, and
//! advancement between encounters.
//!
//! A Game of Bastards, "Character Building Rules" ("Suits", "Points & Costs"),
//! "Skills", "Specialties", "Advantages" (003_2dfeea144768d328.txt); R-GB-5,
//! R-GB-8, R-GB-10.

mod common;
use common::*;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;
use tabula_bastards::Bastards;
use tabula_bastards::builder::Draft;
use tabula_bastards::character::{
    Character, RULE_ADVANTAGES, RULE_CAPS, RULE_POINTS, RULE_POOLS, RULE_SKILLS, RULE_SPECIALTIES,
    RULE_SUITS, Trait,
};
use tabula_bastards::fate::{SkillHand, check};
use tabula_bastards::rules::RULE_SEATS;
use tabula_bastards::state::{Body, State};
use tabula_core::builder::{
    AdvanceError, BuildRefusal, CharacterBook, FieldKind, FieldValue, complete_greedily,
    finished_validates, random_build, refusal_agrees,
};
use tabula_core::files::InMemoryFiles;
use tabula_core::policy::Policy;
use tabula_core::roller::{Scripted, Seeded};
use tabula_core::rule::Rule;
use tabula_core::system::{Seat, System, Table, TextPlay};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/bastards")
}

fn example(file: &str) -> String {
    std::fs::read_to_string(examples().join(file)).unwrap()
}

fn t(s: &str) -> FieldValue {
    FieldValue::Text(s.into())
}

fn n(v: i64) -> FieldValue {
    FieldValue::Int(v)
}

fn list(v: &[&str]) -> FieldValue {
    FieldValue::List(v.iter().map(|s| s.to_string()).collect())
}

/// Set each field in turn; every set must be accepted.
fn build(steps: &[(&str, FieldValue)]) -> Draft {
    let mut d = Draft::default();
    for (k, v) in steps {
        Bastards::set(&mut d, k, v).unwrap_or_else(|e| panic!("{k} = {v}: {e}"));
    }
    d
}

/// The refusal of `key = value` on `d`: broken, citing `rule`, the draft
/// unchanged, and `validate` of the forced draft citing the same rule.
fn refused(d: &Draft, key: &str, value: FieldValue, rule: Rule) -> String {
    let mut tried = d.clone();
    let e = Bastards::set(&mut tried, key, &value).expect_err(key);
    assert_eq!(&tried, d, "{key}: a refusal changed the draft");
    let BuildRefusal::Broken { problem, .. } = &e else {
        panic!("{key} = {value}: not a broken rule: {e}");
    };
    assert_eq!(problem.rule, rule, "{key} = {value}: {e}");
    refusal_agrees::<Bastards>(d, key, &value).unwrap();
    e.to_string()
}

/// Carlton, the book's mechanic ("Skill Hand": "Carlton has a Mind of 3 and a
/// Repair of 2"), built step by step. The book gives no Suit: Spades.
fn carlton() -> Draft {
    build(&[
        ("name", t("Carlton")),
        ("player", t("Pat")),
        ("suit", t("Spades")),
        ("traits.Mind", n(3)),
        ("more_skills.0.name", t("Repair")),
        ("more_skills.0.rank", n(2)),
        ("advantages", list(&["Careful", "Speedy"])),
    ])
}

fn one_fated_table(sheet: &str) -> State {
    let files = InMemoryFiles(BTreeMap::from([(
        "hero.toml".to_string(),
        sheet.to_string(),
    )]));
    Bastards::setup("[[fated]]\nfile = \"hero.toml\"\n", &files)
        .unwrap_or_else(|e| panic!("{e}\n{sheet}"))
}

#[test]
fn carlton_is_built_as_the_book_gives_him_and_repairs_his_ship() {
    let d = carlton();
    let v = Bastards::build_view(&d);
    assert!(v.complete, "{:?}", v.problems);
    let xp = v.budgets.iter().find(|b| b.name == "XP").unwrap();
    // Mind 3 is one above Spades' 2, Repair 2 one above 1 ("Points & Costs").
    assert_eq!((xp.total, xp.spent, xp.left()), (10, 2, 8));
    let derived = |name: &str| {
        v.derived
            .iter()
            .find(|x| x.name == name)
            .unwrap_or_else(|| panic!("{name}"))
            .value
            .clone()
    };
    // "The Dealer draws 3 cards(6 minus Carlton's Mind of 3)".
    assert_eq!(
        derived("Fate Draw off Mind"),
        "+3 to your card; the Dealer draws 3"
    );
    assert_eq!(derived("MP"), "15");
    assert_eq!(derived("Patron Fate"), "Aiyala");
    let sheet = Bastards::finish(&d).unwrap();
    assert_eq!(Bastards::validate(&sheet), Ok("Carlton".into()));
    // The same character as the example sheet.
    let built = Character::from_toml(&sheet).unwrap();
    let shipped = Character::from_toml(&example("carlton.toml")).unwrap();
    assert!(built.same_sheet(&shipped), "{built:?}\n{shipped:?}");
    // "He will draw 2 cards and add 3 ... Carlton manages a 9 (12 after adding
    // his Mind) and beats the dealer's Jack (Worth 11)."
    let hand = SkillHand {
        trait_score: built.trait_score(Trait::Mind),
        rank: built.skill("Repair").unwrap(),
        modifier: 0,
        specialty: 0,
    };
    let mut cards = Scripted::values(["9S", "4C", "JH", "2D", "7S"]);
    let r = check(hand, &mut cards).unwrap();
    assert!(r.success);
    assert_eq!((r.player_total, r.dealer_total), (12, 11));
}

#[test]
fn the_steps_follow_the_books_order() {
    let v = Bastards::build_view(&Draft::default());
    let titles: Vec<&str> = v.steps.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Name",
            "i. Suits",
            "ii. Points & Costs",
            "iii. Traits",
            "iv. Skills",
            "v. Specialties",
            "vi. Advantages",
            "vii. Disadvantages",
            "The Charts (weapons and armour)"
        ]
    );
    let (_, suit) = v.field("suit").unwrap();
    let FieldKind::Choice { options } = &suit.kind else {
        panic!()
    };
    let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Clubs (Swords)",
            "Hearts (Cups)",
            "Spades (Staves)",
            "Diamonds (Coins)"
        ]
    );
    let (_, adv) = v.field("advantages").unwrap();
    let FieldKind::Multi { options, min, .. } = &adv.kind else {
        panic!()
    };
    // 31 Advantages: 27 picked here, Counter and Florentine name a weapon,
    // Toughness and Resolve are counted.
    assert_eq!((options.len(), *min), (27, 2));
    for key in [
        "advantages.Counter",
        "advantages.Florentine",
        "advantages.Toughness",
        "advantages.Resolve",
    ] {
        assert!(v.field(key).is_some(), "{key}");
    }
    let (_, athletics) = v.field("skills.Athletics").unwrap();
    assert!(
        athletics.help.contains("Yoga (x Meditation)"),
        "{}",
        athletics.help
    );
}

#[test]
fn the_budget_sets_each_maximum_and_a_disadvantage_gives_one_xp() {
    let mut d = build(&[("name", t("Kodos")), ("suit", t("Spades"))]);
    let max = |d: &Draft, key: &str| match Bastards::build_view(d).field(key).unwrap().1.kind {
        FieldKind::Int { max, .. } => max,
        ref k => panic!("{k:?}"),
    };
    // Mind starts at 2 for Spades; 10 XP left: Mind may reach 10 (the cap),
    // Body 1 + 10 = 11 capped at 10.
    assert_eq!(max(&d, "traits.Mind"), 10);
    Bastards::set(&mut d, "traits.Body", &n(8)).unwrap(); // 7 XP
    assert_eq!(max(&d, "traits.Spirit"), 4);
    assert_eq!(max(&d, "skills.Technology"), 4);
    Bastards::set(&mut d, "disadvantages.0", &t("Intense: puts people off")).unwrap();
    assert_eq!(max(&d, "skills.Technology"), 5);
    let v = Bastards::build_view(&d);
    let xp = &v.budgets[0];
    assert_eq!((xp.total, xp.spent), (11, 7));
    // The Disadvantage pays for spending; taking it back is then refused.
    Bastards::set(&mut d, "skills.Technology", &n(5)).unwrap();
    let mut tried = d.clone();
    let e = Bastards::clear(&mut tried, "disadvantages.0").unwrap_err();
    assert!(
        matches!(&e, BuildRefusal::Broken { problem, .. } if problem.rule == RULE_POINTS),
        "{e}"
    );
    assert_eq!(tried, d);
}

#[test]
fn over_budget_out_of_range_and_illegal_combinations_are_refused_naming_the_rule() {
    let d = build(&[
        ("name", t("Cynthia")),
        ("suit", t("Hearts")),
        ("traits.Body", n(2)),
        ("skills.Technology", n(2)),
        ("skills.Business", n(3)),
    ]);
    // 4 XP spent, 6 left: Body 9 would spend 7 more.
    let e = refused(&d, "traits.Body", n(9), RULE_POINTS);
    assert!(e.contains("spent 11 but has 10"), "{e}");
    // Out of range: below the start ("Suits"), above the cap (Tabula's caps).
    refused(&d, "traits.Spirit", n(1), RULE_SUITS);
    refused(&d, "traits.Body", n(0), RULE_SUITS);
    refused(&d, "skills.Athletics", n(0), RULE_POINTS);
    refused(&d, "traits.Luck", n(11), RULE_CAPS);
    // Three Advantages beyond the free two, then eight: over budget.
    let many = list(&[
        "Careful", "Speedy", "Dodge", "Study", "Zeal", "Faith", "Savage", "Disarm", "Fortune",
    ]);
    refused(&d, "advantages", many, RULE_POINTS);
    // Illegal combinations: Toughness a sixth time; Counter<Sword> twice.
    refused(&d, "advantages.Toughness", n(6), RULE_ADVANTAGES);
    refused(&d, "advantages.Counter", t("Sword, sword"), RULE_ADVANTAGES);
    // A Specialty joins two skills at rank 2 or above; lowering one is refused.
    let mut s = d.clone();
    Bastards::set(&mut s, "specialties.0.name", &t("Investor relations")).unwrap();
    Bastards::set(
        &mut s,
        "specialties.0.skills",
        &list(&["Technology", "Business"]),
    )
    .unwrap();
    refused(&s, "skills.Technology", n(1), RULE_SPECIALTIES);
    let mut tried = s.clone();
    let e = Bastards::clear(&mut tried, "skills.Technology").unwrap_err();
    assert!(matches!(e, BuildRefusal::Broken { .. }), "{e}");
    // A skill below rank 2 is not offered for a Specialty.
    let e = Bastards::set(
        &mut s.clone(),
        "specialties.0.skills",
        &list(&["Technology", "Guts"]),
    )
    .unwrap_err();
    assert!(matches!(e, BuildRefusal::BadValue { .. }), "{e}");
    // A name with a control character (it would reach other screens).
    let e = refused(&d, "name", t("Cyn\u{1b}[2Jthia"), Rule::table("Names"));
    assert!(e.contains("control"), "{e}");
    // Wrong kinds and unknown keys change nothing either.
    let mut tried = d.clone();
    assert!(matches!(
        Bastards::set(&mut tried, "suit", &t("Moons")),
        Err(BuildRefusal::BadValue { .. })
    ));
    assert!(matches!(
        Bastards::set(&mut tried, "traits.Charm", &n(3)),
        Err(BuildRefusal::UnknownField { .. })
    ));
    assert!(matches!(
        Bastards::set(&mut tried, "more_skills.0.name", &t("Athletics")),
        Err(BuildRefusal::BadValue { .. })
    ));
    assert_eq!(tried, d);
}

#[test]
fn unfinished_is_not_broken_and_finish_lists_what_is_missing() {
    let d = build(&[("name", t("Half")), ("advantages", list(&["Careful"]))]);
    let v = Bastards::build_view(&d);
    assert!(!v.complete);
    assert!(v.problems.iter().all(|p| p.unfinished), "{:?}", v.problems);
    let missing = Bastards::finish(&d).unwrap_err();
    let fields: Vec<Option<&str>> = missing.iter().map(|p| p.field.as_deref()).collect();
    assert!(fields.contains(&Some("suit")), "{missing:?}");
    assert!(fields.contains(&Some("advantages")), "{missing:?}");
    // The same sheet written now is refused by `validate` for the same rules.
    let problems = Bastards::validate(&Bastards::draft_sheet(&d)).unwrap_err();
    assert!(problems.iter().any(|p| p.rule == RULE_SUITS));
    assert!(problems.iter().any(|p| p.rule == RULE_ADVANTAGES));
}

#[test]
fn every_shipped_sheet_reads_into_a_draft_and_back() {
    for file in [
        "carlton.toml",
        "cynthia.toml",
        "kodos.toml",
        "investor.toml",
    ] {
        let text = example(file);
        let d = Bastards::draft_from_sheet(&text).unwrap_or_else(|p| panic!("{file}: {p:?}"));
        assert!(Bastards::build_view(&d).complete, "{file}");
        let back = Bastards::finish(&d).unwrap();
        let a = Character::from_toml(&text).unwrap();
        let b = Character::from_toml(&back).unwrap();
        assert!(a.same_sheet(&b), "{file}:\n{back}");
    }
    let e = Bastards::draft_from_sheet(&example("broken.toml")).unwrap_err();
    assert!(e.len() >= 4, "{e:?}");
    let e = Bastards::validate("name = 3").unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].rule, Rule::table("Character sheets"));
}

#[test]
fn greedy_completion_from_the_empty_draft_sets_up_at_a_table() {
    for seed in 0..60u64 {
        let mut d = Draft::default();
        assert!(complete_greedily::<Bastards>(&mut d, seed), "seed {seed}");
        finished_validates::<Bastards>(&d).unwrap();
        let sheet = Bastards::finish(&d).unwrap();
        let s = one_fated_table(&sheet);
        assert_eq!(s.combatants.len(), 1);
        assert!(s.combatants[0].active());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every refusal of the builder is a refusal of `validate` for the same
    /// rule; every draft the builder calls complete validates.
    #[test]
    fn random_builds_agree_with_validate(picks in proptest::collection::vec(any::<u64>(), 0..80)) {
        let d = random_build::<Bastards>(&picks).map_err(TestCaseError::fail)?;
        if Bastards::build_view(&d).complete {
            let sheet = Bastards::finish(&d).unwrap();
            one_fated_table(&sheet);
            let back = Bastards::draft_from_sheet(&sheet).map_err(|p| TestCaseError::fail(format!("{p:?}")))?;
            prop_assert_eq!(Bastards::finish(&back).map(|s| Character::from_toml(&s).unwrap().same_sheet(&Character::from_toml(&sheet).unwrap())), Ok(true));
        }
    }

    /// Greedy completion from any seed reaches a complete character.
    #[test]
    fn greedy_completion_reaches_complete(seed in any::<u64>()) {
        let mut d = Draft::default();
        prop_assert!(complete_greedily::<Bastards>(&mut d, seed));
    }
}

// ----- Advancement -----

fn gm() -> Seat {
    Seat::Gm
}

fn player(name: &str) -> Seat {
    Seat::Player(name.into())
}

fn adv(sheet: &str, seat: &Seat, line: &str) -> Result<String, AdvanceError> {
    let mut r = Seeded::from_seed(0);
    Bastards::advance(sheet, seat, line, &mut r).map(|a| {
        assert!(
            Bastards::validate(&a.sheet).is_ok(),
            "{line}: the sheet after does not validate\n{}",
            a.sheet
        );
        a.sheet
    })
}

fn rule_of(e: &AdvanceError) -> Rule {
    match e {
        AdvanceError::Refused { rule, .. } => *rule,
        other => panic!("not a refusal: {other}"),
    }
}

#[test]
fn spending_xp_buys_one_thing_per_command_at_one_xp() {
    // Kodos: 10 + 1 (a Disadvantage) XP, 7 spent (Spirit 2, Mind 3 for
    // Spades, Technology 3, Influence 2, Unarmed Combat 2, the Specialty Invent).
    let kodos = example("kodos.toml");
    let blaine = player("Blaine");
    let mut r = Seeded::from_seed(0);
    let a = Bastards::advance(&kodos, &blaine, "raise body", &mut r).unwrap();
    assert_eq!(a.summary, "Body 1 -> 2 for 1 XP (BP 5 -> 10); XP left 3");
    let c = Character::from_toml(&a.sheet).unwrap();
    assert_eq!((c.trait_score(Trait::Body), c.xp()), (2, (11, 8)));
    let s = adv(&a.sheet, &blaine, "skill tech").unwrap();
    let c = Character::from_toml(&s).unwrap();
    assert_eq!(c.skill("Technology"), Some(4));
    let s = adv(&s, &blaine, "specialty Computer Technology influence").unwrap();
    let c = Character::from_toml(&s).unwrap();
    assert_eq!(c.specialty_rank("Computer"), Some(2));
    // One XP left: one more purchase, then none.
    let s = adv(&s, &blaine, "advantage Counter<Sword>").unwrap();
    let c = Character::from_toml(&s).unwrap();
    assert_eq!(c.xp(), (11, 11));
    let e = adv(&s, &blaine, "raise luck").unwrap_err();
    assert_eq!(rule_of(&e), RULE_POINTS);
    assert!(
        e.to_string().contains("costs 1 XP and Kodos has 0 left"),
        "{e}"
    );
    // The Dealer awards XP; the player may not.
    let e = adv(&s, &blaine, "award 3").unwrap_err();
    assert_eq!(rule_of(&e), RULE_POINTS);
    let s = adv(&s, &gm(), "award 3").unwrap();
    let c = Character::from_toml(&s).unwrap();
    assert_eq!((c.earned_xp(), c.xp()), (3, (14, 11)));
    let s = adv(&s, &blaine, "skill Sword Combat").unwrap();
    assert_eq!(
        Character::from_toml(&s).unwrap().skill("Sword Combat"),
        Some(2)
    );
    adv(&s, &blaine, "raise luck").unwrap();
}

#[test]
fn advancement_refusals_name_the_rule() {
    let kodos = example("kodos.toml");
    let blaine = player("blaine");
    let cases: [(&str, Rule); 6] = [
        ("disadvantage Greedy", RULE_POINTS),
        ("specialty Vehicle Technology Perception", RULE_SPECIALTIES),
        ("advantage Study", RULE_ADVANTAGES),
        ("advantage Flying", RULE_ADVANTAGES),
        ("skill Basket Weaving", RULE_SKILLS),
        ("recover", RULE_POOLS),
    ];
    for (line, rule) in cases {
        let e = adv(&kodos, &blaine, line).unwrap_err();
        if line == "recover" {
            // The Dealer's command, refused to a player with its rule.
            assert_eq!(rule_of(&e), rule, "{line}: {e}");
            let e = adv(&kodos, &gm(), line).unwrap_err();
            assert!(e.to_string().contains("already full"), "{e}");
        }
        assert_eq!(rule_of(&e), rule, "{line}: {e}");
    }
    // Another player's character, and one of the Dealer's.
    let e = adv(&kodos, &player("Stella"), "raise body").unwrap_err();
    assert_eq!(rule_of(&e), RULE_SEATS);
    let e = adv(&example("investor.toml"), &player("Blaine"), "raise body").unwrap_err();
    assert_eq!(rule_of(&e), RULE_SEATS);
    adv(&example("investor.toml"), &gm(), "raise body").unwrap();
    // The Dealer may add a skill the book does not list.
    let s = adv(&kodos, &gm(), "skill \"Basket Weaving\"").unwrap();
    assert_eq!(
        Character::from_toml(&s).unwrap().skill("Basket Weaving"),
        Some(2)
    );
    // Toughness five times at most.
    let mut s = adv(&kodos, &gm(), "award 10").unwrap();
    for _ in 0..5 {
        s = adv(&s, &blaine, "advantage Toughness").unwrap();
    }
    let e = adv(&s, &blaine, "advantage Toughness").unwrap_err();
    assert_eq!(rule_of(&e), RULE_ADVANTAGES);
    // Caps and bad arguments.
    let mut s = adv(&kodos, &gm(), "award 20").unwrap();
    for _ in 0..7 {
        s = adv(&s, &blaine, "raise mind").unwrap();
    }
    let e = adv(&s, &blaine, "raise mind").unwrap_err();
    assert_eq!(rule_of(&e), RULE_CAPS);
    for line in [
        "",
        "fly",
        "raise",
        "raise charm",
        "award -1",
        "award 1000",
        "recover XP",
    ] {
        let e = adv(&kodos, &gm(), line).unwrap_err();
        assert!(matches!(e, AdvanceError::Parse { .. }), "{line}: {e}");
    }
    let e = adv(&example("broken.toml"), &gm(), "raise body").unwrap_err();
    assert!(matches!(e, AdvanceError::Sheet { .. }), "{e}");
    // Every command is in the reference.
    let names: Vec<&str> = <Bastards as CharacterBook>::ADVANCEMENT
        .iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(
        names,
        [
            "raise",
            "skill",
            "specialty",
            "advantage",
            "disadvantage",
            "award",
            "recover"
        ]
    );
}

#[test]
fn raising_a_trait_raises_a_damaged_pool_with_it_and_recover_restores() {
    let sheet =
        example("kodos.toml").replace("wildcards = 0", "wildcards = 0\npools = { BP = 2, MP = 0 }");
    let c = Character::from_toml(&sheet).unwrap();
    assert_eq!((c.pool_now(Trait::Body), c.pool_now(Trait::Mind)), (2, 0));
    let s = adv(&sheet, &player("Blaine"), "raise body").unwrap();
    let c = Character::from_toml(&s).unwrap();
    assert_eq!((c.pool_now(Trait::Body), c.pool_max(Trait::Body)), (7, 10));
    let mut r = Seeded::from_seed(0);
    let a = Bastards::advance(&s, &gm(), "recover mp 4", &mut r).unwrap();
    assert_eq!(a.summary, "Kodos recovers: MP 0 -> 4");
    let a = Bastards::advance(&a.sheet, &gm(), "recover", &mut r).unwrap();
    assert_eq!(a.summary, "Kodos recovers: BP 7 -> 10, MP 4 -> 15");
    assert!(!a.sheet.contains("pools"), "{}", a.sheet);
    // A pool above Trait x 5 is refused (R-GB-5).
    let e = Bastards::validate(&sheet.replace("BP = 2", "BP = 6")).unwrap_err();
    assert_eq!(e[0].rule, RULE_POOLS);
}

// ----- What an encounter leaves -----

fn table_files() -> (String, PathBuf) {
    (example("table.toml"), examples())
}

fn fated_sheets(s: &State) -> BTreeMap<String, Character> {
    s.combatants
        .iter()
        .filter_map(|c| c.character().map(|ch| (c.name.clone(), ch.clone())))
        .collect()
}

#[test]
fn nothing_happened_leaves_the_same_characters() {
    let (text, dir) = table_files();
    let s = Bastards::setup(&text, &dir).unwrap();
    let after = Bastards::sheets_after(&s);
    let names: Vec<&str> = after.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["Cynthia", "Kodos", "The investor", "Carlton"]);
    let before = fated_sheets(&s);
    for a in &after {
        let c = Character::from_toml(&a.sheet).unwrap();
        assert!(c.same_sheet(&before[&a.name]), "{}", a.sheet);
        assert!(!a.sheet.contains("pools"), "{}", a.sheet);
    }
}

#[test]
fn the_encounter_scripts_lasting_changes_are_on_the_sheets() {
    let (text, dir) = table_files();
    let mut t = Table::<Bastards>::new(Bastards::setup(&text, &dir).unwrap());
    let mut r = Seeded::from_seed(1);
    for line in example("encounter.script")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        submit(&mut t, line, &mut r).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    let end = t.state();
    let after = Bastards::sheets_after(end);
    assert_eq!(after.len(), 4);
    // The next encounter starts from those sheets.
    let files = InMemoryFiles(
        after
            .iter()
            .map(|a| (format!("{}.toml", a.name), a.sheet.clone()))
            .collect(),
    );
    let table: String = after
        .iter()
        .map(|a| format!("[[fated]]\nfile = \"{}.toml\"\n", a.name))
        .collect();
    let next = Bastards::setup(&table, &files).unwrap();
    let mut damaged = 0;
    for c in &end.combatants {
        let Body::Fated {
            pools, character, ..
        } = &c.body
        else {
            continue;
        };
        let n = next.combatants.iter().find(|x| x.name == c.name).unwrap();
        let Body::Fated {
            pools: next_pools,
            desperate,
            ..
        } = &n.body
        else {
            panic!()
        };
        assert_eq!(pools, next_pools, "{}: pools carry over", c.name);
        assert_eq!(n.wildcards, c.wildcards, "{}: Wildcards carry over", c.name);
        assert_eq!(*desperate, pools.contains(&0), "{}", c.name);
        assert_eq!(
            n.knocked_out,
            pools.iter().filter(|p| **p == 0).count() >= 2
        );
        let full = Trait::ALL.map(|t| character.pool_max(t));
        if *pools != full {
            damaged += 1;
        }
        // XP and everything bought stay as they were (no XP in play).
        assert_eq!(n.character().unwrap().xp(), character.xp());
    }
    assert!(
        damaged >= 2,
        "the script deals damage to Kodos and the investor"
    );
    // The investor's MP was emptied by Cynthia's offer: Desperate next time.
    let investor = next
        .combatants
        .iter()
        .find(|c| c.name == "The investor")
        .unwrap();
    assert_eq!(investor.pool(Trait::Mind), 0);
    assert!(investor.desperate());
}

#[test]
fn a_dropped_weapon_goes_back_to_its_owner_and_a_taken_one_stays_taken() {
    let mut a = draft("A", "a", &[]);
    a.weapons = vec![
        weapon("Sword", 2, "Sword Combat"),
        weapon("Knife", 1, "Knife Combat"),
    ];
    let b = draft("B", "b", &[]);
    let mut s = state(vec![fated(a), fated(b)]);
    // A was disarmed of the sword; B picked up the knife A carried.
    let sword = s.combatants[0].wielding.remove(0);
    s.ground.push(sword);
    let knife = s.combatants[0].carried.remove(0);
    s.combatants[1].wielding.push(knife);
    s.combatants[0].wildcards = 3;
    let after = Bastards::sheets_after(&s);
    let a = Character::from_toml(&after[0].sheet).unwrap();
    let b = Character::from_toml(&after[1].sheet).unwrap();
    let names = |c: &Character| {
        c.weapons()
            .iter()
            .map(|w| w.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&a), ["Sword"]);
    assert_eq!(names(&b), ["Knife"]);
    assert_eq!(a.wildcards(), 3);
}

/// A random state of the example tables reached by the policy (the first few
/// encounters' worth of commands, any of the awaited seats).
fn play_randomly(s: &mut State, seed: u64, steps: usize, rand: &[u32]) {
    let mut roller = Seeded::from_seed(seed);
    for i in 0..steps {
        if Bastards::finished(s) {
            break;
        }
        let awaiting = Bastards::awaiting(s);
        if awaiting.is_empty() {
            break;
        }
        let pick = rand.get(i % rand.len().max(1)).copied().unwrap_or(0) as usize;
        let mut tries = vec![awaiting[pick % awaiting.len()].clone()];
        tries.push(awaiting[0].clone());
        let Some((seat, cmd)) = tries
            .into_iter()
            .find_map(|a| Bastards::suggest_for(s, &a).map(|c| (a.seat, c)))
        else {
            break;
        };
        let Ok(events) = Bastards::decide(s, &seat, &cmd, &mut roller) else {
            break;
        };
        for e in &events {
            Bastards::evolve(s, e);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever state play reaches, every sheet it leaves validates and sets
    /// up the next encounter, which again leaves sheets that validate.
    #[test]
    fn sheets_after_any_reachable_state_validate(
        seed in any::<u64>(),
        steps in 0usize..400,
        rand in proptest::collection::vec(any::<u32>(), 1..20),
        indirect in any::<bool>(),
    ) {
        let file = if indirect { "indirect.toml" } else { "table.toml" };
        let mut s = Bastards::setup(&example(file), &examples()).unwrap();
        for round in 0..2 {
            play_randomly(&mut s, seed.wrapping_add(round), steps, &rand);
            let after = Bastards::sheets_after(&s);
            for a in &after {
                prop_assert!(Bastards::validate(&a.sheet).is_ok(), "{}", a.sheet);
            }
            let files = InMemoryFiles(
                after.iter().enumerate().map(|(i, a)| (format!("{i}.toml"), a.sheet.clone())).collect(),
            );
            let table: String = (0..after.len())
                .map(|i| format!("[[fated]]\nfile = \"{i}.toml\"\n"))
                .collect();
            if after.len() < 2 {
                break;
            }
            s = Bastards::setup(&table, &files).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
    }
}
