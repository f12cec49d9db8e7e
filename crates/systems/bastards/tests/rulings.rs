//! Rulings R-GB-13 .. R-GB-17 (issue 29): a pool emptied by a cost, Distance
//! against a ranged attack, the simple hand, the defender's mulligan, Wild
//! Swing in Desperation; and an empty shoe.

mod common;
use common::*;
use tabula_bastards::Bastards;
use tabula_bastards::character::{Trait, Weapon};
use tabula_bastards::event::Event;
use tabula_bastards::state::{Body, Combatant, HandKind, Phase};
use tabula_core::roller::Scripted;
use tabula_core::system::{Seat, System, Table, TextPlay};

const A_HAND: [&str; 5] = ["2C", "9S", "5H", "KD", "4H"];
const B_HAND: [&str; 5] = ["3C", "7S", "6H", "QD", "8H"];
/// Cards for draws after the opening (never in the hands above).
const MORE: [&str; 8] = ["JC", "10D", "9C", "JS", "10H", "9D", "6C", "5S"];

/// Set pool `k` (BP, SP, MP, LP) of a Fated and derive Desperation as a sheet
/// does (one empty pool: Desperate, R-GB-5).
fn with_pool(mut c: Combatant, k: usize, to: i64) -> Combatant {
    if let Body::Fated {
        pools, desperate, ..
    } = &mut c.body
    {
        pools[k] = to;
        *desperate = pools.contains(&0);
    }
    c
}

fn events(t: &Table<Bastards>) -> Vec<Event> {
    t.log().entries().iter().map(|e| e.event.clone()).collect()
}

fn actor(t: &Table<Bastards>) -> Option<String> {
    match &t.state().phase {
        Phase::Turn { actor, .. } => t.state().combatants.get(*actor).map(|c| c.name.clone()),
        _ => None,
    }
}

/// The Advantages whose cost is a pool point, the pool (index), and the line
/// that pays it in A's active phase.
const COSTS: [(&str, usize, &str); 7] = [
    ("Serendipity", 3, "a: use A serendipity"),
    ("Dodge", 0, "a: use A dodge"),
    ("Savage", 0, "a: attack B Unarmed_Combat physical savage"),
    (
        "Wild Swing",
        0,
        "a: attack B Unarmed_Combat physical wild=1",
    ),
    ("Zeal", 1, "a: attack B Unarmed_Combat physical zeal"),
    ("Fortune", 3, "a: attack B Unarmed_Combat physical fortune"),
    ("Disarm", 2, "a: attack B Unarmed_Combat physical disarm"),
];

#[test]
fn r_gb_13_paying_the_last_luck_makes_desperate() {
    let a = with_pool(fated(draft("A", "a", &["Serendipity"])), 3, 1);
    let mut t = opened(a, fated(draft("B", "b", &[])), A_HAND, B_HAND, "10C");
    let before = c(&t, "A").hand.len();
    run(
        &mut t,
        &["a: use A serendipity"],
        &mut Scripted::values(MORE),
    );
    let a = c(&t, "A");
    assert_eq!(a.pool(Trait::Luck), 0);
    assert!(
        a.desperate(),
        "the last LP paid empties the pool: Desperate"
    );
    assert!(!a.knocked_out);
    // "immediately draws a number of cards equal to their Spirit or Luck" (1).
    assert_eq!(a.hand.len(), before + 1);
    assert!(
        events(&t)
            .iter()
            .any(|e| matches!(e, Event::Desperate { .. }))
    );
}

#[test]
fn r_gb_13_every_cost_that_empties_a_pool_makes_desperate() {
    let ass_pull = ("Ass Pull", 3, "a: use A ass-pull");
    for (adv, k, line) in COSTS.into_iter().chain([ass_pull]) {
        let a = with_pool(fated(draft("A", "a", &[adv])), k, 1);
        let mut t = opened(a, fated(draft("B", "b", &[])), A_HAND, B_HAND, "10C");
        submit(&mut t, line, &mut Scripted::values(MORE)).unwrap_or_else(|e| panic!("{adv}: {e}"));
        let a = c(&t, "A");
        assert_eq!(a.pool(Trait::ALL[k]), 0, "{adv}");
        assert!(
            a.desperate(),
            "{adv}: the pool its cost emptied makes Desperate"
        );
        assert!(!a.knocked_out, "{adv}");
    }
    // Mind Over Matter: the defender pays its last MP when taking BP damage.
    let b = with_pool(fated(draft("B", "b", &["Mind Over Matter"])), 2, 1);
    let mut t = opened(fated(draft("A", "a", &[])), b, A_HAND, B_HAND, "10C");
    run(
        &mut t,
        &[
            "a: attack B Unarmed_Combat physical",
            "a: play KD",
            "b: play 7S mom",
            "b: call",
            "a: call",
        ],
        &mut Scripted::values(MORE),
    );
    let b = c(&t, "B");
    assert_eq!(b.pool(Trait::Mind), 0);
    assert_eq!(b.pool(Trait::Body), 10, "the damage went to MP");
    assert!(b.desperate(), "Mind Over Matter's last MP makes Desperate");
}

#[test]
fn r_gb_13_a_cost_that_empties_a_second_pool_knocks_out() {
    let ass_pull = ("Ass Pull", 3, "a: use A ass-pull");
    for (adv, k, line) in COSTS.into_iter().chain([ass_pull]) {
        // Already Desperate: another pool is empty.
        let other = if k == 2 { 1 } else { 2 };
        let a = with_pool(fated(draft("A", "a", &[adv])), k, 1);
        let a = with_pool(a, other, 0);
        assert!(a.desperate());
        let mut t = opened(a, fated(draft("B", "b", &[])), A_HAND, B_HAND, "10C");
        submit(&mut t, line, &mut Scripted::values(MORE)).unwrap_or_else(|e| panic!("{adv}: {e}"));
        assert!(
            c(&t, "A").knocked_out,
            "{adv}: a second empty pool knocks out"
        );
        // Knocked out, A takes no further part: no hand is declared, B acts.
        assert_eq!(actor(&t).as_deref(), Some("B"), "{adv}");
    }
}

#[test]
fn r_gb_13_a_defender_knocked_out_by_its_dodge_abandons_the_hand() {
    let b = with_pool(fated(draft("B", "b", &["Dodge"])), 0, 1);
    let b = with_pool(b, 2, 0);
    let mut t = opened(fated(draft("A", "a", &[])), b, A_HAND, B_HAND, "10C");
    run(
        &mut t,
        &[
            "a: attack B Unarmed_Combat physical",
            "a: play KD",
            "b: use B dodge",
        ],
        &mut Scripted::values(MORE),
    );
    assert!(c(&t, "B").knocked_out);
    assert!(
        !matches!(t.state().phase, Phase::Exchange(_)),
        "the hand is over"
    );
    // Every card is still accounted for: A's face-down card went to the discards.
    let s = t.state();
    let held: usize = s
        .combatants
        .iter()
        .map(|c| c.hand.len() + usize::from(c.initiative.is_some()))
        .sum();
    assert_eq!(held + s.shoe.pile().len() + s.shoe.discards().len(), 108);
}

/// Two Fated from `st` opened as [`opened`] does.
fn open_state(st: tabula_bastards::State) -> Table<Bastards> {
    let mut t = Table::<Bastards>::new(st);
    let mut cards: Vec<&str> = A_HAND.to_vec();
    cards.extend(B_HAND);
    cards.push("10C");
    run(
        &mut t,
        &["gm: begin", "a: init A 2C", "b: init B 3C", "a: draw"],
        &mut Scripted::values(cards),
    );
    t
}

#[test]
fn r_gb_14_distance_does_not_stop_a_ranged_attack() {
    let mut ad = draft("A", "a", &[]);
    ad.skills.insert("Pistol Combat".into(), 2);
    ad.weapons = vec![Weapon {
        name: "Pistol".into(),
        damage: 2,
        skill: "Pistol Combat".into(),
        melee: false,
        ready: true,
    }];
    let mut st = state(vec![fated(ad), fated(draft("B", "b", &[]))]);
    st.distance = Some(("B".into(), 1));
    let mut t = open_state(st);
    let e = submit(
        &mut t,
        "a: attack B Unarmed_Combat physical",
        &mut Scripted::values(MORE),
    )
    .expect_err("Distance keeps melee off");
    assert!(e.to_string().contains("Distance"), "{e}");
    submit(
        &mut t,
        "a: attack B \"Pistol Combat\" physical",
        &mut Scripted::values(MORE),
    )
    .expect("R-GB-14: a ranged attack is not delayed by Distance");
    assert!(matches!(t.state().phase, Phase::Exchange(_)));
}

#[test]
fn r_gb_15_a_simple_hand_is_one_card_each() {
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    run(
        &mut t,
        &["a: attack B Influence simple", "a: play 9S"],
        &mut Scripted::values(MORE),
    );
    let Phase::Exchange(x) = &t.state().phase else {
        panic!("a hand is in progress");
    };
    assert_eq!((x.kind, x.attacker_limit), (HandKind::Simple, 0));
    let declared = events(&t)
        .iter()
        .rev()
        .find(|e| matches!(e, Event::Declared(_)))
        .map(|e| Bastards::describe(t.state(), e))
        .unwrap_or_default();
    assert!(!declared.contains("face-up"), "{declared}");
    run(&mut t, &["b: play 7S"], &mut Scripted::values(MORE));
    // The two cards are revealed at once: no betting step, no raises.
    let revealed = events(&t).into_iter().find_map(|e| match e {
        Event::Revealed {
            attacker,
            defender,
            raises,
            cards,
            ..
        } => Some((attacker, defender, raises, cards.0.len(), cards.1.len())),
        _ => None,
    });
    assert_eq!(revealed, Some((9, 7, 0, 1, 1)));
    // Each event described in the state just after it: no betting step is announced.
    let mut st = t.initial().clone();
    for e in events(&t) {
        Bastards::evolve(&mut st, &e);
        let text = Bastards::describe(&st, &e);
        assert!(!text.contains("Betting"), "{text}");
    }
    assert_eq!(actor(&t).as_deref(), Some("B"), "the turn passed");
    for seat in [Seat::Player("a".into()), Seat::Player("b".into())] {
        assert!(
            !Bastards::legal_commands(t.state(), &seat)
                .iter()
                .any(|c| c.name.starts_with("bet")),
        );
    }
}

/// The attacker's total and the damage of A's unarmed attack on B with
/// `options`, A Desperate (Luck 4), the same cards each time.
fn desperate_wild_swing(options: &str) -> (i64, i64) {
    let mut ad = draft("A", "a", &["Wild Swing"]);
    ad.body = 3;
    ad.luck = 4;
    let a = with_pool(fated(ad), 1, 0);
    assert!(a.desperate());
    let mut t = opened(a, fated(draft("B", "b", &[])), A_HAND, B_HAND, "10C");
    run(
        &mut t,
        &[
            &format!("a: attack B Unarmed_Combat physical {options}"),
            "a: play KD",
            "b: play 7S",
            "b: call",
            "a: call",
        ],
        &mut Scripted::values(MORE),
    );
    let ev = events(&t);
    let total = ev
        .iter()
        .find_map(|e| match e {
            Event::Revealed { attacker, .. } => Some(*attacker),
            _ => None,
        })
        .unwrap_or_default();
    let raw = ev
        .iter()
        .find_map(|e| match e {
            Event::Damage { raw, .. } => Some(*raw),
            _ => None,
        })
        .unwrap_or_default();
    (total, raw)
}

#[test]
fn r_gb_17_desperation_never_erases_wild_swings_lowering() {
    let (plain_total, plain_damage) = desperate_wild_swing("");
    let (wild_total, wild_damage) = desperate_wild_swing("wild=3");
    // KD 13 + Luck 4 (Desperation) = 17; Wild Swing 3 lowers it to 14.
    assert_eq!(plain_total, 17);
    assert_eq!(
        wild_total,
        plain_total - 3,
        "the roll bonus is lowered by N"
    );
    // The margin falls by 3 and the damage gains 2 x 3.
    assert_eq!(wild_damage, plain_damage - 3 + 6);
}

#[test]
fn r_gb_16_the_one_acted_against_may_mulligan_once_before_playing() {
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let b = Seat::Player("b".into());
    run(
        &mut t,
        &["a: attack B Unarmed_Combat physical", "a: play KD"],
        &mut Scripted::values(["2S"]),
    );
    assert!(
        Bastards::legal_commands(t.state(), &b)
            .iter()
            .any(|c| c.name == "mulligan"),
        "offered to the one acted against"
    );
    // Only the one acted against, not the acting character.
    assert!(submit(&mut t, "a: mulligan", &mut Scripted::values(MORE)).is_err());
    let old = c(&t, "B").hand.clone();
    run(&mut t, &["b: mulligan"], &mut Scripted::values(MORE));
    let hand = &c(&t, "B").hand;
    assert_eq!(hand.len(), 5, "a new hand of five");
    assert!(hand.iter().all(|k| !old.contains(k)));
    // "sacrificing their action": B's turn this round is still to come.
    assert!(c(&t, "B").status.sacrificed);
    let again = submit(&mut t, "b: mulligan", &mut Scripted::values(MORE));
    assert!(
        again.is_err_and(|e| e.to_string().contains("R-GB-16")),
        "once per hand"
    );
    run(
        &mut t,
        &["b: play best", "b: call", "a: call"],
        &mut Scripted::values(MORE),
    );
    // B gave up its action: the round ends and A acts again.
    assert_eq!(actor(&t).as_deref(), Some("A"));
}

#[test]
fn r_gb_16_no_mulligan_after_the_face_down_card() {
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    run(
        &mut t,
        &[
            "a: attack B Unarmed_Combat physical",
            "a: play KD",
            "b: play 7S",
        ],
        &mut Scripted::values(["2S"]),
    );
    let e = submit(&mut t, "b: mulligan", &mut Scripted::values(MORE)).unwrap_err();
    assert!(e.to_string().contains("before playing"), "{e}");
}

/// R-GB-13 / R-GB-5 with every cost at hand: sheets with low pools.
pub fn low_pool_table() -> tabula_bastards::State {
    let a = with_pool(
        fated(draft(
            "A",
            "a",
            &["Serendipity", "Dodge", "Savage", "Ass Pull"],
        )),
        0,
        2,
    );
    let a = with_pool(with_pool(a, 3, 1), 2, 1);
    let b = with_pool(
        fated(draft(
            "B",
            "b",
            &["Wild Swing", "Zeal", "Fortune", "Disarm"],
        )),
        0,
        1,
    );
    let b = with_pool(with_pool(with_pool(b, 1, 1), 2, 1), 3, 1);
    let g = with_pool(
        fated(draft("G", "", &["Dodge", "Mind Over Matter", "Savage"])),
        0,
        2,
    );
    let g = with_pool(g, 2, 1);
    state(vec![a, b, g])
}

#[test]
fn r_gb_13_a_sheet_that_starts_with_an_empty_pool_is_desperate() {
    let sheet = "name = \"Kodos\"\nplayer = \"Blaine\"\nsuit = \"Clubs\"\nbody = 2\nspirit = 1\nmind = 1\nluck = 1\nadvantages = [\"Dodge\", \"Savage\"]\npools = { LP = 0 }\n";
    let two = sheet
        .replace("Kodos", "Cynthia")
        .replace("Blaine", "Stella")
        .replace("{ LP = 0 }", "{ LP = 0, MP = 0 }");
    let dir = std::env::temp_dir().join(format!("tabula-bastards-r-gb-13-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("kodos.toml"), sheet).unwrap();
    std::fs::write(dir.join("cynthia.toml"), two).unwrap();
    let text = "title = \"Pools\"\n\n[[fated]]\nfile = \"kodos.toml\"\n\n[[fated]]\nfile = \"cynthia.toml\"\n";
    let st = Bastards::setup(text, dir.as_path());
    let _ = std::fs::remove_dir_all(&dir);
    let st = st.unwrap_or_else(|e| panic!("{e}"));
    let k = st.combatants.iter().find(|c| c.name == "Kodos").unwrap();
    assert!(k.desperate() && !k.knocked_out, "one empty pool: Desperate");
    let cy = st.combatants.iter().find(|c| c.name == "Cynthia").unwrap();
    assert!(cy.desperate() && cy.knocked_out, "two: knocked out");
}

/// "Shuffling": with the deck and the discard pile both empty, a draw gets
/// nothing and is accepted; what needs a card from the shoe is refused naming
/// the rule and is not offered (a Wildcard's card, a Skill Check, acting against
/// someone who holds no card).
#[test]
fn an_empty_shoe_draws_nothing_and_refuses_what_needs_a_card() {
    let mut ad = draft("A", "a", &[]);
    ad.wildcards = 1;
    let t = opened(
        fated(ad),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut st = t.state().clone();
    // Every card left in the deck goes out of play (as if in other hands).
    for k in st.shoe.pile().to_vec() {
        st.shoe.take(k);
    }
    assert_eq!(tabula_bastards::deck::drawable(&st.shoe), 0);
    let b = st.combatants.iter().position(|c| c.name == "B").unwrap();
    st.combatants[b].hand.clear();
    let mut t = Table::<Bastards>::new(st);
    let mut r = Scripted::values(Vec::<String>::new());
    let a = Seat::Player("a".into());
    let legal: Vec<String> = Bastards::legal_commands(t.state(), &a)
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert!(
        !legal.iter().any(|n| n == "wildcard" || n == "fate"),
        "{legal:?}"
    );
    for (line, says) in [
        ("a: wildcard A", "no card is left to draw"),
        ("a: fate A Athletics Body", "left to draw"),
        (
            "a: attack B Unarmed_Combat physical",
            "none is left to draw",
        ),
    ] {
        let e = submit(&mut t, line, &mut r).expect_err(line);
        assert!(e.to_string().contains(says), "{line}: {e}");
    }
    assert_eq!(c(&t, "A").wildcards, 1, "nothing spent");
    // B's turn: its draw is accepted and brings nothing.
    run(&mut t, &["a: pass", "b: draw"], &mut r);
    assert!(c(&t, "B").hand.is_empty());
    assert!(matches!(t.state().phase, Phase::Turn { drawn: true, .. }));
}
