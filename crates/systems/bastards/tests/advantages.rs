//! Each Advantage's effect, replayed with scripted cards.

mod common;
use common::*;
use tabula_bastards::character::Trait;
use tabula_bastards::event::Event;
use tabula_bastards::state::Phase;
use tabula_core::roller::Scripted;

const A_HAND: [&str; 5] = ["2C", "9S", "5H", "KD", "4H"];
const B_HAND: [&str; 5] = ["3C", "7S", "6H", "QD", "8H"];

/// A attacks B unarmed: A plays `a_card` face down, B plays `b_card`, both call.
fn exchange(
    t: &mut tabula_core::system::Table<tabula_bastards::Bastards>,
    attack: &str,
    a_card: &str,
    b_card: &str,
    extra: &[&str],
) {
    // The one affected draws a card when the hand is declared: 2S.
    let mut r = Scripted::values(std::iter::once("2S").chain(extra.iter().copied()));
    let lines = [
        attack.to_string(),
        format!("a: play {a_card}"),
        format!("b: play {b_card}"),
        "b: call".into(),
        "a: call".into(),
    ];
    for l in &lines {
        submit(t, l, &mut r).unwrap_or_else(|e| panic!("{l}: {e}"));
    }
}

fn damage(t: &tabula_core::system::Table<tabula_bastards::Bastards>) -> Vec<(i64, i64)> {
    t.log()
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::Damage { raw, taken, .. } => Some((*raw, *taken)),
            _ => None,
        })
        .collect()
}

#[test]
fn plain_damage_is_the_margin_r_gb_5() {
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    // KD 13 + Body 2 = 15 against 7S 7 + Mind 1 = 8: margin 7.
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "KD",
        "7S",
        &[],
    );
    assert_eq!(damage(&t), vec![(7, 7)]);
    assert_eq!(c(&t, "B").pool(Trait::Body), 3);
    let raises = t.log().entries().iter().find_map(|e| match &e.event {
        Event::Revealed { raises, .. } => Some(*raises),
        _ => None,
    });
    assert_eq!(raises, Some(3), "R-GB-4: a raise per full 2 points");
}

#[test]
fn toughness_and_armour_reduce_bp_damage() {
    let mut bd = draft("B", "b", &["Toughness", "Toughness", "Careful"]);
    bd.armour = Some(tabula_bastards::character::Armour {
        name: "Coat".into(),
        reduction: 1,
    });
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(bd),
        A_HAND,
        B_HAND,
        "10C",
    );
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "KD",
        "7S",
        &[],
    );
    assert_eq!(damage(&t), vec![(7, 4)]);
}

#[test]
fn brawler_adds_unarmed_ranks_and_tenacity_draws() {
    let mut t = opened(
        fated(draft("A", "a", &["Brawler"])),
        fated(draft("B", "b", &["Tenacity"])),
        A_HAND,
        B_HAND,
        "10C",
    );
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "KD",
        "7S",
        &["JC"],
    );
    // 7 + Unarmed Combat 2 = 9, capped by the pool of 10.
    assert_eq!(damage(&t), vec![(9, 9)]);
    assert!(
        c(&t, "B").hand.iter().any(|k| k.to_string() == "JC"),
        "Tenacity drew a card"
    );
}

#[test]
fn careful_draws_after_avoiding_damage() {
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &["Careful"])),
        A_HAND,
        B_HAND,
        "10C",
    );
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "4H",
        "QD",
        &["JC"],
    );
    assert!(damage(&t).is_empty());
    assert!(c(&t, "B").hand.iter().any(|k| k.to_string() == "JC"));
}

#[test]
fn mind_over_matter_moves_bp_damage_to_mp() {
    let mut bd = draft("B", "b", &["Mind Over Matter"]);
    bd.suit = "Spades".into();
    bd.body = 1;
    bd.mind = 3;
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(bd),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(["2S"]);
    run(
        &mut t,
        &[
            "a: attack B \"unarmed combat\" physical",
            "a: play KD",
            "b: play 7S mom",
            "b: call",
            "a: call",
        ],
        &mut r,
    );
    // 15 against 7 + Mind 3 = 10: 5 damage to MP after 1 MP spent.
    assert_eq!(c(&t, "B").pool(Trait::Body), 5);
    assert_eq!(c(&t, "B").pool(Trait::Mind), 15 - 1 - 5);
}

#[test]
fn zeal_attacks_with_spirit_and_costs_sp() {
    let mut ad = draft("A", "a", &["Zeal"]);
    ad.spirit = 4;
    let mut t = opened(
        fated(ad),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    exchange(
        &mut t,
        "a: attack B Unarmed_Combat physical zeal",
        "9S",
        "7S",
        &[],
    );
    // 9 + Spirit 4 = 13 against 8: 5.
    assert_eq!(damage(&t), vec![(5, 5)]);
    assert_eq!(c(&t, "A").pool(Trait::Spirit), 19);
}

#[test]
fn fortune_makes_both_sides_use_luck() {
    let mut ad = draft("A", "a", &["Fortune"]);
    ad.luck = 5;
    let mut bd = draft("B", "b", &[]);
    bd.luck = 3;
    let mut t = opened(fated(ad), fated(bd), A_HAND, B_HAND, "10C");
    exchange(
        &mut t,
        "a: attack B Unarmed_Combat physical fortune",
        "9S",
        "7S",
        &[],
    );
    // 9 + 5 = 14 against 7 + 3 = 10.
    assert_eq!(damage(&t), vec![(4, 4)]);
}

#[test]
fn disarm_drops_the_weapon_and_two_raises_take_it() {
    let mut ad = draft("A", "a", &["Disarm"]);
    ad.mind = 3;
    let mut bd = draft("B", "b", &[]);
    bd.weapons = vec![weapon("Sword", 2, "Unarmed Combat")];
    let mut t = opened(fated(ad), fated(bd), A_HAND, B_HAND, "10C");
    exchange(
        &mut t,
        "a: attack B Unarmed_Combat physical disarm",
        "KD",
        "7S",
        &[],
    );
    assert!(damage(&t).is_empty(), "Disarm deals no damage");
    assert!(c(&t, "B").wielding.is_empty());
    assert_eq!(
        c(&t, "A").wielding.first().map(|w| w.name.as_str()),
        Some("Sword")
    );
}

#[test]
fn savage_makes_a_second_attack_at_minus_two() {
    let mut t = opened(
        fated(draft("A", "a", &["Savage"])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    exchange(
        &mut t,
        "a: attack B Unarmed_Combat physical savage",
        "KD",
        "6H",
        &["3S"],
    );
    match &t.state().phase {
        Phase::Exchange(x) => assert_eq!(x.attacker_bonus, 2 - 2),
        other => panic!("expected the follow-up attack, got {other:?}"),
    }
    assert_eq!(c(&t, "A").pool(Trait::Body), 9, "1 BP for Savage");
}

#[test]
fn wild_swing_trades_body_for_double_damage() {
    let mut t = opened(
        fated(draft("A", "a", &["Wild Swing"])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    exchange(
        &mut t,
        "a: attack B Unarmed_Combat physical wild=2",
        "KD",
        "7S",
        &[],
    );
    // 13 + 0 = 13 against 8: 5, plus 2 x 2 = 9.
    assert_eq!(damage(&t), vec![(9, 9)]);
}

#[test]
fn berserk_doubles_body_to_damage_and_forbids_defensive_advantages() {
    let mut ad = draft("A", "a", &["Berserk", "Dodge"]);
    ad.wildcards = 1;
    let mut t = opened(
        fated(ad),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(Vec::<String>::new());
    run(&mut t, &["a: use A berserk"], &mut r);
    assert!(
        submit(&mut t, "a: use A dodge", &mut r).is_err(),
        "Berserk: offensive Advantages only"
    );
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "KD",
        "7S",
        &["JC"],
    );
    assert_eq!(damage(&t), vec![(7 + 4, 10)]);
}

#[test]
fn iron_wall_and_soul_of_steel_reduce_damage() {
    let mut bd = draft("B", "b", &["Iron Wall"]);
    bd.wildcards = 1;
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(bd),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(Vec::<String>::new());
    run(&mut t, &["b: use B iron-wall"], &mut r);
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "KD",
        "7S",
        &[],
    );
    assert_eq!(damage(&t), vec![(7, 5)]);
}

#[test]
fn dodge_and_serendipity_change_the_next_defense_trait() {
    let mut bd = draft("B", "b", &["Dodge"]);
    bd.body = 4;
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(bd),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(Vec::<String>::new());
    run(&mut t, &["b: use B dodge"], &mut r);
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "KD",
        "7S",
        &[],
    );
    // 15 against 7 + Body 4 = 11.
    assert_eq!(damage(&t), vec![(4, 4)]);
    assert_eq!(c(&t, "B").pool(Trait::Body), 20 - 1 - 4);
    assert_eq!(c(&t, "B").status.next_defense, None, "used up");
}

#[test]
fn all_out_defense_doubles_body_and_forbids_actions() {
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &["All-Out Defense"])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(Vec::<String>::new());
    run(&mut t, &["b: use B all-out-defense"], &mut r);
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "KD",
        "7S",
        &[],
    );
    // 15 against 7 + 2 x 2 = 11.
    assert_eq!(damage(&t), vec![(4, 4)]);
}

#[test]
fn study_doubles_mind_against_the_studied_opponent() {
    let mut t = opened(
        fated(draft("A", "a", &["Study"])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(["JD"]);
    run(&mut t, &["a: use A study B", "b: draw"], &mut r);
    assert!(c(&t, "A").status.studied.contains(&1));
    // B attacks A: B 12 (QD) + 2 = 14 against A 9 + 2 x Mind 1 = 11.
    let mut r = Scripted::values(["2S"]);
    run(
        &mut t,
        &[
            "b: attack A Unarmed_Combat physical",
            "b: play QD",
            "a: play 9S",
            "a: call",
            "b: call",
        ],
        &mut r,
    );
    assert_eq!(damage(&t), vec![(3, 3)]);
}

#[test]
fn karmic_shuffle_makes_defense_use_luck() {
    let mut ad = draft("A", "a", &["Karmic Shuffle"]);
    ad.wildcards = 1;
    let mut bd = draft("B", "b", &[]);
    bd.luck = 4;
    let mut t = opened(fated(ad), fated(bd), A_HAND, B_HAND, "10C");
    let mut r = Scripted::values(Vec::<String>::new());
    run(&mut t, &["a: use A karmic-shuffle"], &mut r);
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "KD",
        "7S",
        &[],
    );
    assert_eq!(damage(&t), vec![(4, 4)]);
}

#[test]
fn speedy_replaces_initiative_without_losing_the_action() {
    let mut t = opened(
        fated(draft("A", "a", &["Speedy"])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(Vec::<String>::new());
    run(&mut t, &["a: reinit 9S"], &mut r);
    assert!(matches!(
        t.state().phase,
        Phase::Turn {
            actor: 0,
            drawn: true
        }
    ));
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    run(&mut t, &["a: reinit 9S"], &mut r);
    assert!(
        matches!(t.state().phase, Phase::Turn { actor: 1, .. }),
        "without Speedy it costs the action"
    );
}

#[test]
fn hearty_criminal_and_cunning_linguist_add_a_card() {
    let mut t = opened(
        fated(draft("A", "a", &["Hearty"])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(["2S", "2S"]);
    run(&mut t, &["a: attack B Athletics physical"], &mut r);
    let Phase::Exchange(x) = &t.state().phase else {
        panic!()
    };
    assert_eq!(x.attacker_limit, 1 + 1);
    let mut t = opened(
        fated(draft("A", "a", &["Cunning Linguist", "Criminal"])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    run(&mut t, &["a: attack B Influence social"], &mut r);
    let Phase::Exchange(x) = &t.state().phase else {
        panic!()
    };
    assert_eq!(x.attacker_limit, 1 + 2);
}

#[test]
fn two_weapons_cost_two_and_ambidextrous_one_r_gb_7() {
    for (adv, penalty) in [(vec![], 2), (vec!["Ambidextrous"], 1)] {
        let mut ad = draft("A", "a", &adv);
        ad.weapons = vec![
            weapon("Knife", 1, "Unarmed Combat"),
            weapon("Dagger", 2, "Unarmed Combat"),
        ];
        let mut t = opened(
            fated(ad),
            fated(draft("B", "b", &[])),
            A_HAND,
            B_HAND,
            "10C",
        );
        let mut r = Scripted::values(Vec::<String>::new());
        run(&mut t, &["a: wield Dagger"], &mut r);
        exchange(
            &mut t,
            "a: attack B \"unarmed combat\" physical",
            "KD",
            "7S",
            &[],
        );
        // 13 + 2 - penalty against 8; damage adds both weapons (3).
        let margin = 15 - penalty - 8;
        assert_eq!(damage(&t), vec![(margin + 3, (margin + 3).min(10))]);
    }
}

#[test]
fn ass_pull_draws_two_and_must_discard_two() {
    let mut t = opened(
        fated(draft("A", "a", &["Ass Pull"])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(["AC", "AS"]);
    run(&mut t, &["a: use A ass-pull"], &mut r);
    assert!(
        submit(&mut t, "a: pass", &mut r).is_err(),
        "discard two first"
    );
    run(
        &mut t,
        &["a: discard 4H", "a: discard 5H", "a: pass"],
        &mut r,
    );
    assert_eq!(c(&t, "A").pool(Trait::Luck), 4);
}

#[test]
fn advantages_of_a_suit_with_an_empty_pool_cannot_be_used() {
    let mut t = opened(
        fated(draft("A", "a", &["Zeal"])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    // Empty A's SP by hand-editing the start state.
    let mut s = t.state().clone();
    if let tabula_bastards::state::Body::Fated { pools, .. } = &mut s.combatants[0].body {
        pools[1] = 0;
    }
    t = tabula_core::system::Table::new(s);
    let mut r = Scripted::values(Vec::<String>::new());
    let e = submit(&mut t, "a: attack B Unarmed_Combat physical zeal", &mut r).unwrap_err();
    assert!(e.message.contains("Zeal"), "{e}");
}

#[test]
fn desperation_then_knock_out() {
    let mut bd = draft("B", "b", &[]);
    bd.body = 1;
    bd.suit = "Spades".into();
    bd.mind = 2;
    bd.spirit = 2;
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(bd),
        A_HAND,
        B_HAND,
        "10C",
    );
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "KD",
        "6H",
        &["2D", "3D"],
    );
    assert!(c(&t, "B").desperate(), "BP emptied");
    assert_eq!(c(&t, "B").hand.len(), 3 + 1 + 2, "draws Spirit (2) cards");
    assert!(!c(&t, "B").knocked_out);
    assert!(
        t.log()
            .entries()
            .iter()
            .any(|e| matches!(e.event, Event::Desperate { .. }))
    );
}

#[test]
fn extras_lose_a_member_per_two_points_r_gb_9() {
    use tabula_bastards::state::Body;
    let mut thugs = fated(draft("B", "b", &[]));
    thugs.body = Body::Extras {
        power: 2,
        members: 5,
    };
    let mut t = opened(fated(draft("A", "a", &[])), thugs, A_HAND, B_HAND, "10C");
    let mut r = Scripted::values(["2S"]);
    run(
        &mut t,
        &[
            "a: attack B \"unarmed combat\" physical",
            "a: play KD",
            "b: play 6H",
            "b: call",
            "a: call",
        ],
        &mut r,
    );
    // 15 against 6 (Extras add no Trait): 9, four members.
    assert_eq!(c(&t, "B").pool(Trait::Body), 1);
    assert!(!c(&t, "B").knocked_out);
    // One member left: the group's hand shrinks to its best card.
    assert_eq!(c(&t, "B").hand.len(), 1);
}

#[test]
fn initiative_ace_is_one_and_lowest_acts_first() {
    let mut t = tabula_core::system::Table::new(state(vec![
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
    ]));
    let mut r = Scripted::values(["2C", "9S", "5H", "KD", "4H", "AS", "7S", "6H", "QD", "8H"]);
    run(
        &mut t,
        &["gm: begin", "a: init A 2C", "b: init B AS"],
        &mut r,
    );
    assert!(
        matches!(t.state().phase, Phase::Turn { actor: 1, .. }),
        "B's Ace (1) acts before A's 2"
    );
}

#[test]
fn betting_is_limited_by_skill_ranks_but_a_wildcard_may_still_be_bet() {
    let mut bd = draft("B", "b", &[]);
    bd.wildcards = 1;
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(bd),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(["2S", "JH"]);
    run(
        &mut t,
        &[
            "a: attack B Athletics physical",
            "a: play 9S",
            "b: play 7S",
            "b: bet 8H",
        ],
        &mut r,
    );
    run(&mut t, &["a: bet 5H"], &mut r);
    assert!(
        submit(&mut t, "b: bet 6H", &mut r).is_err(),
        "Athletics 1: one face-up card"
    );
    run(&mut t, &["b: bet wild", "a: call", "b: call"], &mut r);
    // A: 9 + 5 + 2 = 16; B: 7 + 8 + 11 + 1 = 27.
    assert!(damage(&t).is_empty());
}

#[test]
fn counter_turns_a_successful_defense_into_an_attack_with_the_held_cards() {
    let mut ad = draft("A", "a", &[]);
    ad.weapons = vec![weapon("Club", 1, "Unarmed Combat")];
    let mut bd = draft("B", "b", &["Counter<Staff>"]);
    bd.weapons = vec![weapon("Staff", 1, "Unarmed Combat")];
    let mut t = opened(fated(ad), fated(bd), A_HAND, B_HAND, "10C");
    let mut r = Scripted::values(["2S", "2S", "2S"]);
    // B holds back one of its two Unarmed Combat cards: A 4 + 2 = 6 against QD 12 + 1.
    run(
        &mut t,
        &[
            "a: attack B \"unarmed combat\" physical",
            "a: play 4H",
            "b: play QD counter=1",
        ],
        &mut r,
    );
    let Phase::Exchange(x) = &t.state().phase else {
        panic!()
    };
    assert_eq!((x.defender_limit, x.counter), (1, 1));
    run(&mut t, &["b: call", "a: call"], &mut r);
    let Phase::Exchange(x) = &t.state().phase else {
        panic!("the counter-attack")
    };
    assert_eq!((x.attacker, x.defender, x.attacker_limit), (1, 0, 1));
    // Without the weapon in hand, Counter is refused.
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &["Counter<Staff>"])),
        A_HAND,
        B_HAND,
        "10C",
    );
    run(
        &mut t,
        &["a: attack B \"unarmed combat\" physical", "a: play 4H"],
        &mut r,
    );
    assert!(submit(&mut t, "b: play QD counter=1", &mut r).is_err());
}

#[test]
fn a_new_scene_shuffles_and_ends_berserk() {
    let mut ad = draft("A", "a", &["Berserk"]);
    ad.wildcards = 1;
    let mut t = opened(
        fated(ad),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(Vec::<String>::new());
    run(
        &mut t,
        &["a: use A berserk", "gm: end", "gm: scene"],
        &mut r,
    );
    assert!(!c(&t, "A").status.berserk);
    assert_eq!(t.state().shoe.pile().len(), 108);
}

/// A frightening (fear) attack: Spirit against Spirit, damage to SP.
#[test]
fn resolve_and_faith_on_sp_damage() {
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &["Resolve", "Faith"])),
        A_HAND,
        B_HAND,
        "10C",
    );
    exchange(&mut t, "a: attack B Guts fear", "KD", "6H", &["JC", "JS"]);
    // 13 + Spirit 1 = 14 against 6 + 1 = 7: 7, Resolve -1 = 6, SP 5 empties.
    assert_eq!(damage(&t), vec![(7, 5)]);
    assert!(
        c(&t, "B").hand.iter().any(|k| k.to_string() == "JC"),
        "Faith drew"
    );
    assert!(c(&t, "B").desperate());
}

#[test]
fn soul_of_steel_costs_the_action_and_reduces_bp_damage() {
    let mut ad = draft("A", "a", &["Soul of Steel"]);
    ad.wildcards = 1;
    ad.spirit = 2;
    let mut t = opened(
        fated(ad),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(["JD"]);
    run(&mut t, &["a: use A soul-of-steel", "b: draw"], &mut r);
    assert!(c(&t, "A").status.soul_of_steel);
    let mut r = Scripted::values(["2S"]);
    run(
        &mut t,
        &[
            "b: attack A Unarmed_Combat physical",
            "b: play QD",
            "a: play 4H",
            "a: call",
            "b: call",
        ],
        &mut r,
    );
    // 12 + 2 = 14 against 4 + 1 = 5: 9, less 2 x Spirit 2 = 5.
    assert_eq!(damage(&t), vec![(9, 5)]);
}

#[test]
fn defensive_stance_moves_cards_from_attack_to_defense() {
    let mut t = opened(
        fated(draft("A", "a", &["Defensive Stance"])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(["2S"]);
    assert!(
        submit(&mut t, "a: use A stance 3", &mut r).is_err(),
        "at most Body"
    );
    run(
        &mut t,
        &["a: use A stance 2", "a: attack B Unarmed_Combat physical"],
        &mut r,
    );
    let Phase::Exchange(x) = &t.state().phase else {
        panic!()
    };
    assert_eq!(x.attacker_limit, 0);
}

#[test]
fn florentine_removes_the_two_weapon_penalty_on_defense() {
    let mut bd = draft("B", "b", &["Florentine<Knife>"]);
    bd.weapons = vec![
        weapon("Knife", 1, "Unarmed Combat"),
        weapon("Dagger", 1, "Unarmed Combat"),
    ];
    let mut b = fated(bd);
    let dagger = b.carried.remove(0);
    b.wielding.push(dagger);
    let mut t = opened(fated(draft("A", "a", &[])), b, A_HAND, B_HAND, "10C");
    let mut r = Scripted::values(["2S"]);
    run(
        &mut t,
        &[
            "a: attack B \"unarmed combat\" physical",
            "a: play KD",
            "b: play 7S",
        ],
        &mut r,
    );
    let Phase::Exchange(x) = &t.state().phase else {
        panic!()
    };
    assert_eq!(x.defender_bonus, 1, "Mind 1, no -2");
}

#[test]
fn acrobat_redraws_in_a_fate_draw() {
    let mut ad = draft("A", "a", &["Acrobat"]);
    ad.skills.insert("Athletics".into(), 2);
    let mut t = tabula_core::system::Table::new(state(vec![fated(ad)]));
    // Athletics 2 + min(Body 2, 1) = 3 cards; the Dealer draws 6 - 2 = 4.
    let mut r = Scripted::values(["2C", "3C", "KS", "4C", "5C", "6C", "7C"]);
    run(&mut t, &["a: fate A Athletics Body 0 acrobat"], &mut r);
    let Some(Event::FateDrawn { result, .. }) = t.log().entries().last().map(|e| &e.event) else {
        panic!()
    };
    assert_eq!(result.player_card.to_string(), "KS");
    assert!(result.success);
}

#[test]
fn a_follower_takes_damage_to_its_one_power_pool() {
    use tabula_bastards::state::Body;
    let mut f = fated(draft("B", "b", &[]));
    f.body = Body::Follower { power: 5, pool: 5 };
    let mut t = opened(
        fated(draft("A", "a", &[])),
        f,
        A_HAND,
        ["3C", "7S", "6H", "QD", "8H"],
        "10C",
    );
    let mut r = Scripted::values(["2S"]);
    run(
        &mut t,
        &[
            "a: attack B \"unarmed combat\" physical",
            "a: play KD",
            "b: play 6H",
            "b: call",
            "a: call",
        ],
        &mut r,
    );
    // 15 against 6 + Power 5 = 11: 4 of 5.
    assert!(!c(&t, "B").knocked_out);
    assert_eq!(c(&t, "B").pool(Trait::Body), 1);
}

#[test]
fn reinforce_and_involve_spend_a_wildcard_and_distance_keeps_melee_off() {
    let mut ad = draft("A", "a", &[]);
    ad.wildcards = 3;
    ad.body = 4;
    let mut t =
        tabula_core::system::Table::new(state(vec![fated(ad), fated(draft("B", "b", &[]))]));
    let mut r = Scripted::values(Vec::<String>::new());
    run(
        &mut t,
        &[
            "a: reinforce A Police",
            "a: involve A Cop",
            "a: distance A 1",
        ],
        &mut r,
    );
    assert_eq!(t.state().combatants.len(), 5);
    assert_eq!(c(&t, "Police").pool(Trait::Body), 5);
    assert_eq!(
        c(&t, "Cop 1").trait_score(Trait::Body),
        4,
        "Power Rating = highest Trait"
    );
    assert_eq!(c(&t, "A").wildcards, 0);
    assert!(
        submit(&mut t, "b: distance B 1", &mut r).is_err(),
        "one player per scene"
    );
    let mut ad = draft("A", "a", &[]);
    ad.wildcards = 2;
    let mut t = tabula_core::system::Table::new(state(vec![fated(ad)]));
    // Power Rating 2 (highest Trait): a club +3 is too heavy for the group.
    assert!(submit(&mut t, "a: reinforce A Thugs Club 3", &mut r).is_err());
    run(
        &mut t,
        &["a: reinforce A Thugs Club 2", "a: involve A Guard Rifle 4"],
        &mut r,
    );
    assert_eq!(c(&t, "Thugs").wielding.first().map(|w| w.damage), Some(2));
    assert_eq!(
        c(&t, "Guard 2").wielding.first().map(|w| w.skill.as_str()),
        Some("Rifle Combat")
    );
}

#[test]
fn mulligan_sacrifices_the_action() {
    let mut t = tabula_core::system::Table::new(state(vec![
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
    ]));
    let mut r = Scripted::values([
        "2C", "9S", "5H", "KD", "4H", "3C", "7S", "6H", "QD", "8H", "2D", "3D", "4D", "5D", "6D",
    ]);
    run(
        &mut t,
        &["gm: begin", "a: init A 2C", "b: init B 3C", "a: mulligan"],
        &mut r,
    );
    assert_eq!(c(&t, "A").hand.len(), 5);
    assert!(matches!(t.state().phase, Phase::Turn { actor: 1, .. }));
}

#[test]
fn soul_of_steel_and_all_out_defense_before_the_turn_skip_it() {
    let mut bd = draft("B", "b", &["Soul of Steel", "All-Out Defense"]);
    bd.wildcards = 1;
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(bd),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(Vec::<String>::new());
    // During A's turn B gives up its coming action.
    run(&mut t, &["b: use B soul-of-steel"], &mut r);
    assert!(c(&t, "B").status.sacrificed && c(&t, "B").status.soul_of_steel);
    run(&mut t, &["a: pass"], &mut r);
    // B's turn was skipped: round 2 begins with A.
    assert_eq!(t.state().round, 2);
    assert!(matches!(t.state().phase, Phase::Turn { actor: 0, .. }));
    assert!(!c(&t, "B").status.sacrificed);
    let mut r = Scripted::values(["JC"]);
    run(&mut t, &["a: draw", "a: pass"], &mut r);
    // It is B's turn; A has acted this round and cannot give up its action.
    assert!(
        submit(&mut t, "a: use A all-out-defense", &mut r).is_err(),
        "already acted this round"
    );
}

#[test]
fn status_shows_the_chance_of_winning_if_both_call() {
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    );
    let mut r = Scripted::values(["2S"]);
    run(
        &mut t,
        &[
            "a: attack B \"unarmed combat\" physical",
            "a: play KD",
            "b: play 7S",
        ],
        &mut r,
    );
    let a = tabula_core::system::Seat::Player("a".into());
    // A has 15; B has 1 + an unknown card among the 97 A has not seen: only the
    // two Aces of Diamonds (15, Diamonds, the defender's tie) beat it.
    let p = tabula_bastards::odds::lead_chance(t.state(), &a).unwrap();
    assert!((p - 95.0 / 97.0).abs() < 1e-12, "{p}");
    assert!(tabula_bastards::text::status(t.state(), &a).contains("97.9%"));
    assert!(
        tabula_bastards::odds::lead_chance(t.state(), &tabula_core::system::Seat::Gm).is_none()
    );
}

#[test]
fn careful_also_draws_when_reductions_stop_every_point() {
    let mut bd = draft("B", "b", &["Careful", "Toughness", "Toughness"]);
    bd.armour = Some(tabula_bastards::character::Armour {
        name: "Plate".into(),
        reduction: 5,
    });
    let mut t = opened(
        fated(draft("A", "a", &[])),
        fated(bd),
        A_HAND,
        B_HAND,
        "10C",
    );
    exchange(
        &mut t,
        "a: attack B \"unarmed combat\" physical",
        "KD",
        "7S",
        &["JC"],
    );
    assert_eq!(damage(&t), vec![(7, 0)]);
    assert!(c(&t, "B").hand.iter().any(|k| k.to_string() == "JC"));
}
