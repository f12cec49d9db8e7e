//! The book's worked examples and the turn structure, replayed with scripted dice.

mod common;

use common::*;
use tabula_core::testkit;
use tabula_core::{Scripted, Seat, Seeded, System, TextPlay};
use tabula_sour_grapes::event::Event;
use tabula_sour_grapes::state::{Moment, Step};
use tabula_sour_grapes::{SourGrapes, Stat};

fn hero_stat(t: &tabula_core::Table<SourGrapes>, stat: Stat) -> u32 {
    t.state()
        .participant("Hero")
        .unwrap()
        .character
        .stat(stat)
        .current
}

/// Sour Grapes, "Check": lock-pick 2, Perception 7, five dice 6, 2, 1, 1, 5
/// against 5: five successes, failed, Perception exhausted by two (R-SG-1).
#[test]
fn lock_pick_at_the_table() {
    let mut t = table_from(TWO_SHEETS);
    give(
        &mut t,
        "Sam: check Perception 5 2 vs 5 with lock-pick",
        &mut Scripted::dice([6, 2, 1, 1, 5]),
    );
    let last = t.log().entries().last().unwrap();
    match &last.event {
        Event::Rolled { roll, success, .. } => {
            assert_eq!(roll.successes, 5);
            assert_eq!(*success, Some(false));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(hero_stat(&t, Stat::Perception), 5);
    // A single check: the skill's tokens come back at once.
    let hero = t.state().participant("Hero").unwrap();
    assert_eq!(hero.character.skill("lock-pick").unwrap().available, 2);
}

/// Sour Grapes, "Situation": the casino (20, 18, a passed check to 11, 5, then the
/// final Prestige + Fast Talking check).
#[test]
fn casino_situation() {
    let mut t = table_from(TWO_SHEETS);
    let mut none = Scripted::dice([]);
    give(
        &mut t,
        "gm: situation 20 Prestige with Fast Talking as Hero",
        &mut none,
    );
    give(&mut t, "gm: difficulty 18", &mut none);
    // The bartender conversation is a Check inside the Situation; tokens are held.
    give(
        &mut t,
        "Sam: check Prestige 3 1 vs 2 with Fast Talking",
        &mut Scripted::dice([4, 5, 2]),
    );
    assert_eq!(
        t.state()
            .participant("Hero")
            .unwrap()
            .character
            .skill("Fast Talking")
            .unwrap()
            .available,
        1
    );
    // The storyteller may give a held token back early (discretion).
    give(&mut t, "gm: giveback Fast Talking as Hero", &mut none);
    assert!(try_give(&mut t, "gm: giveback Fast Talking as Hero", &mut none).is_err());
    give(&mut t, "gm: difficulty 11", &mut none);
    give(&mut t, "gm: difficulty 5", &mut none);
    match &t.state().moment {
        Moment::Situation(s) => assert_eq!(s.history, vec![20, 18, 11, 5]),
        other => panic!("{other:?}"),
    }
    give(
        &mut t,
        "Sam: final 5 1",
        &mut Scripted::dice([6, 4, 5, 3, 2]),
    );
    assert!(matches!(t.state().moment, Moment::Free));
    assert!(
        t.log()
            .entries()
            .iter()
            .any(|e| matches!(e.event, Event::SituationEnded { success: true, .. }))
    );
    // Held tokens recover when the Situation ends.
    assert_eq!(
        t.state()
            .participant("Hero")
            .unwrap()
            .character
            .skill("Fast Talking")
            .unwrap()
            .available,
        2
    );
}

#[test]
fn spend_and_give_back() {
    let mut t = table_from(TWO_SHEETS);
    let mut none = Scripted::dice([]);
    give(&mut t, "gm: spend Might as Hero", &mut none);
    give(&mut t, "Sam: spend Strength", &mut none);
    assert_eq!(hero_stat(&t, Stat::Might), 1);
    give(&mut t, "gm: giveback Might 2 as Hero", &mut none);
    assert_eq!(hero_stat(&t, Stat::Might), 3);
    // Players cannot reward themselves.
    assert!(try_give(&mut t, "Sam: giveback Might 1 as Hero", &mut none).is_err());
}

fn start_event(t: &mut tabula_core::Table<SourGrapes>) {
    let mut none = Scripted::dice([]);
    give(t, "gm: event", &mut none);
    // No d20 at this table: Hero 3 successes, Ogre 1.
    give(
        t,
        "Sam: initiative Agility 3",
        &mut Scripted::dice([4, 5, 6]),
    );
    give(t, "gm: initiative Agility 2", &mut Scripted::dice([1, 3]));
    let e = t.state().event().unwrap();
    assert_eq!(e.order, vec!["Hero".to_string(), "Ogre".to_string()]);
    assert_eq!(e.round, 1);
}

/// Sour Grapes, "Event": initiative exhausts nothing (R-SG-8).
#[test]
fn initiative_exhausts_nothing() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    assert_eq!(
        t.state()
            .participant("Ogre")
            .unwrap()
            .character
            .stat(Stat::Agility)
            .current,
        2
    );
}

/// Steps 2-8 of an Attack with a Dodge that ties: a tie goes to the Stunt (R-SG-5);
/// damage is the Result roll, to Vitality (R-SG-10).
#[test]
fn attack_against_a_dodge_tie_goes_to_the_stunt() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Attack", &mut none);
    assert_eq!(t.state().turn().unwrap().step, Step::Interrupt);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 2 result 3 1", &mut none);
    give(&mut t, "pass", &mut none);
    assert_eq!(SourGrapes::default_seat(t.state()), Seat::Gm);
    // Step 8: stunt 2 dice (5, 3) = 2; Dodge 2 dice (4, 6) = 2: a tie, the Stunt wins.
    // Damage: 3 dice (6, 1, 2) + 1 token = 3.
    give(
        &mut t,
        "gm: react Dodge 2",
        &mut Scripted::dice([5, 3, 4, 6, 6, 1, 2]),
    );
    // 3 damage, doubled once because the Ogre is Frail (Might at zero, R-SG-7): 8 - 6.
    assert_eq!(
        t.state()
            .participant("Ogre")
            .unwrap()
            .character
            .stat(Stat::Vitality)
            .current,
        2
    );
    // The 1 on the Result roll exhausted the Hero's Might (Strength).
    assert_eq!(hero_stat(&t, Stat::Might), 2);
    // The Ogre's turn now.
    assert_eq!(t.state().turn().unwrap().controller, "Ogre");
}

/// The Ogre's Might is depleted: it cannot play Attack (Result: Strength).
/// Sour Grapes, "Stats" note; and Frail doubles damage to its physical stats (R-SG-7).
#[test]
fn depleted_stat_blocks_cards_and_frail_doubles() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 1 result 2", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "gm: take", &mut Scripted::dice([4, 5, 5]));
    // 2 damage, doubled by Frail: 8 - 4.
    assert_eq!(
        t.state()
            .participant("Ogre")
            .unwrap()
            .character
            .stat(Stat::Vitality)
            .current,
        4
    );
    let before = t.clone();
    let err = try_give(&mut t, "gm: stunt Attack", &mut none).unwrap_err();
    assert!(err.contains("Might is depleted"), "{err}");
    assert_eq!(t, before, "a refused command changes nothing");
}

/// Step 3: a successful Interrupt applies and ends the turn.
#[test]
fn interrupt_ends_the_turn() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "end", &mut none);
    // Ogre's turn: it cannot Attack (Might depleted), so it ends; Round 2, Hero.
    give(&mut t, "gm: end", &mut none);
    assert_eq!(t.state().event().unwrap().round, 2);
    // Only the Controller lays down a Stunt.
    assert!(
        try_give(&mut t, "gm: stunt Attack", &mut none)
            .unwrap_err()
            .contains("Controller")
    );
}

/// Trained Breathing: a Stunt that puts an effect in play; at the start of the
/// next turn it must be rolled for (R-SG-9); ones on Agility exhaust Stamina.
#[test]
fn trained_breathing_keep_roll() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Trained Breathing", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target success 3", &mut none);
    // The effect is not in play yet during its own Stunt roll: the 1 exhausts Agility.
    give(&mut t, "pass", &mut Scripted::dice([1, 4, 5]));
    assert_eq!(hero_stat(&t, Stat::Agility), 4);
    give(&mut t, "gm: end", &mut none);
    let turn = t.state().turn().unwrap();
    assert_eq!(turn.pending_effects, vec!["Trained Breathing".to_string()]);
    assert!(
        try_give(&mut t, "stunt Attack", &mut none)
            .unwrap_err()
            .contains("keep")
    );
    // Kept with 2 successes (needs 2); its 1 exhausts Stamina instead of Agility.
    give(
        &mut t,
        "keep Trained Breathing 3",
        &mut Scripted::dice([1, 4, 5]),
    );
    assert_eq!(hero_stat(&t, Stat::Agility), 4);
    assert_eq!(hero_stat(&t, Stat::Stamina), 3);
    assert_eq!(t.state().participant("Hero").unwrap().effects.len(), 1);
    give(&mut t, "end", &mut none);
    give(&mut t, "gm: end", &mut none);
    // Failing the roll discards it.
    give(
        &mut t,
        "keep Trained Breathing 2",
        &mut Scripted::dice([1, 1]),
    );
    assert!(t.state().participant("Hero").unwrap().effects.is_empty());
}

/// Intoxicated: four tokens, one removed at the start of each turn; no Skill
/// Tokens with Agility points in one roll.
#[test]
fn intoxicated_counts_down_and_forbids_tokens_with_agility() {
    let mut t = table_from(TWO_SHEETS);
    let mut none = Scripted::dice([]);
    give(&mut t, "gm: afflict Intoxicated as Hero", &mut none);
    start_event(&mut t);
    assert_eq!(t.state().participant("Hero").unwrap().effects[0].tokens, 3);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    let err = try_give(&mut t, "target Ogre success 2 1", &mut none).unwrap_err();
    assert!(err.contains("Skill Tokens"), "{err}");
    give(&mut t, "target Ogre success 2", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "gm: take", &mut Scripted::dice([4, 4]));
    give(&mut t, "gm: end", &mut none);
    give(&mut t, "end", &mut none);
    give(&mut t, "gm: end", &mut none);
    give(&mut t, "end", &mut none);
    give(&mut t, "gm: end", &mut none);
    // Round 4: the fourth token is gone and the card discarded.
    assert!(t.state().participant("Hero").unwrap().effects.is_empty());
}

/// Step 6: a Shove must beat the attacker's Current Agility (R-SG-6) and moves
/// the stunt; slot conflicts go to the most points.
#[test]
fn shove_redirects() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 2 result 1", &mut none);
    // The Ogre has no Shove card.
    assert!(try_give(&mut t, "gm: divert Shove success 1 to Hero", &mut none).is_err());
    // The Hero diverts its own Attack onto itself: needs more than Agility 5.
    give(&mut t, "divert Shove success 5 1 to Hero", &mut none);
    give(&mut t, "pass", &mut Scripted::dice([6, 6, 6, 6, 6]));
    assert_eq!(
        t.state().turn().unwrap().receivers,
        vec!["Hero".to_string()]
    );
    assert_eq!(t.state().turn().unwrap().step, Step::Reaction);
}

/// Bad input changes nothing and names the rule.
#[test]
fn refusals_change_nothing() {
    let mut t = table_from(TWO_SHEETS);
    let mut none = Scripted::dice([]);
    let before = t.clone();
    for (line, needle) in [
        ("Sam: check Perception 8 vs 3", "Current Stat Value"),
        ("Sam: check Perception 2 3 vs 3 with lock-pick", "tokens"),
        ("Sam: stunt Attack", "Event"),
        ("Sam: event", "storyteller"),
        ("Sam: spend Luck", "no Stat called \"Luck\""),
        ("Ogre: check Agility 1 vs 1", "plays no character"),
        ("gm: difficulty 3", "no Situation"),
        ("dance", "unknown command"),
    ] {
        let e = try_give(&mut t, line, &mut none).unwrap_err();
        assert!(e.contains(needle), "{line}: {e}");
    }
    assert_eq!(t, before);
}

/// The example table and script play through without a refusal (seed 1).
#[test]
fn encounter_script_plays_through() {
    let mut t = example_table();
    let script = std::fs::read_to_string(examples().join("encounter.script")).unwrap();
    let mut roller = Seeded::from_seed(1);
    for line in script
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        give(&mut t, line, &mut roller);
    }
    assert!(SourGrapes::finished(t.state()));
    testkit::assert_replay_rebuilds(&t);
    // Every kind of turn event happened.
    let log = t.log().entries();
    for probe in [
        "Offered",
        "SlotWon",
        "Diverted",
        "EffectCountdown",
        "EffectRemoved",
        "InitiativeSettled",
        "NewRound",
        "Damaged",
        "SituationEnded",
        "Raised",
    ] {
        assert!(
            log.iter()
                .any(|e| format!("{:?}", e.event).starts_with(probe)),
            "no {probe}"
        );
    }
    // Views and legal commands work for every seat.
    for seat in [
        Seat::Gm,
        Seat::Player("Sam".into()),
        Seat::Player("Ana".into()),
    ] {
        let _ = SourGrapes::view(t.state(), &seat);
    }
}

/// Step 5-8 with a Compliment: Flame Weapon's Result is additional damage,
/// rolled once; a non-target cannot react.
#[test]
fn flame_weapon_adds_damage_and_only_targets_react() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 2 result 2", &mut none);
    give(
        &mut t,
        "compliment Flame Weapon success 4 result 3",
        &mut none,
    );
    // Step 6: the Compliment needs 4: 6, 6, 6, 6.
    give(&mut t, "pass", &mut Scripted::dice([6, 6, 6, 6]));
    assert!(t.state().turn().unwrap().compliment.is_some());
    let err = try_give(&mut t, "Sam: react Dodge 2", &mut none).unwrap_err();
    assert!(err.contains("no target"), "{err}");
    // Step 8: Stunt 5, 5; damage 4, 4 = 2; Flame Weapon 3, 3, 3 = 3.
    give(
        &mut t,
        "gm: take",
        &mut Scripted::dice([5, 5, 4, 4, 3, 3, 3]),
    );
    let dmg: Vec<u32> = t
        .log()
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::Damaged {
                points, doubled, ..
            } => {
                assert!(*doubled, "the Ogre is Frail");
                Some(*points)
            }
            _ => None,
        })
        .collect();
    assert_eq!(dmg, vec![4, 6]);
    // The Ogre is Dying: the only monster, so the Event ends.
    assert!(matches!(t.state().moment, Moment::Free));
}

/// R-SG-8: equal initiative totals roll a d20 again.
#[test]
fn initiative_ties_roll_again() {
    let mut t = table_from(TWO_SHEETS);
    let mut none = Scripted::dice([]);
    give(&mut t, "gm: event", &mut none);
    give(
        &mut t,
        "Sam: initiative Agility 2",
        &mut Scripted::dice([4, 5]),
    );
    // Tie at 2: the d20s (Hero 5, Ogre 12) put the Ogre first.
    give(
        &mut t,
        "gm: initiative Agility 2",
        &mut Scripted::dice([3, 3, 5, 12]),
    );
    assert_eq!(
        t.state().event().unwrap().order,
        vec!["Ogre".to_string(), "Hero".to_string()]
    );
}

/// "If the player places an invalid interrupt it can be rejected by the table":
/// the storyteller rejects an offer, which is taken back unrolled.
#[test]
fn storyteller_rejects_an_invalid_card() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "end", &mut none);
    // The Ogre cannot attack (Might depleted); give the Hero's turn back.
    give(&mut t, "gm: end", &mut none);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 1 result 1", &mut none);
    give(&mut t, "compliment Flame Weapon success 3", &mut none);
    assert!(try_give(&mut t, "Sam: reject as Hero", &mut none).is_err());
    give(&mut t, "gm: reject as Hero", &mut none);
    assert!(t.state().turn().unwrap().compliments.is_empty());
    // Nothing to roll in step 6 now.
    give(&mut t, "pass", &mut none);
    assert_eq!(t.state().turn().unwrap().step, Step::Reaction);
}

/// A broken table file lists every problem, naming the field.
#[test]
fn broken_table_file_lists_every_problem() {
    let text = r#"
start = "battle"
[[participant]]
file = "nope.toml"
[[participant]]
file = "rook.toml"
cards = ["Attack", "Kick", "Intoxicated"]
[[card]]
value = "x"
name = "Kick"
type = "stunt"
outcome = "damage"
"#;
    let err = SourGrapes::setup(text, &examples()).unwrap_err();
    let all = err.problems.join("\n");
    for needle in [
        "value (A)",
        "Success stat (B)",
        "participant[0].file",
        "participant[1].cards: no card called \"Kick\"",
        "Intoxicated is an effect",
        "start:",
    ] {
        assert!(all.contains(needle), "{needle} not in {all}");
    }
}

/// "New Round": a table's own effect acts at the beginning of each Round and
/// cannot be discarded by its holder; the storyteller removes it.
#[test]
fn round_start_effect_and_cure() {
    let text = TWO_SHEETS.to_string()
        + r#"
[[card]]
value = "*"
star = "notes"
name = "Bleeding"
success = "N/A"
type = "effect"
outcome = "none"
effect = { keep = "stays", tokens = 3, round_start = { damage = 1, stat = "Vitality", countdown = true } }
"#;
    let mut t = table_from(&text);
    let mut none = Scripted::dice([]);
    give(&mut t, "gm: afflict Bleeding as Hero", &mut none);
    start_event(&mut t);
    assert_eq!(hero_stat(&t, Stat::Vitality), 5);
    let err = try_give(&mut t, "discard Bleeding", &mut none).unwrap_err();
    assert!(err.contains("cannot be discarded"), "{err}");
    give(&mut t, "end", &mut none);
    give(&mut t, "gm: end", &mut none);
    assert_eq!(hero_stat(&t, Stat::Vitality), 4);
    give(&mut t, "gm: cure Bleeding as Hero", &mut none);
    assert!(t.state().participant("Hero").unwrap().effects.is_empty());
}

/// A negative Compliment (a table's own card): its Result is taken off the
/// Stunt's damage ("modify the Stunt in a positive or negative way").
#[test]
fn negative_compliment_lessens_damage() {
    let text = TWO_SHEETS.replace(
        "cards = [\"Attack\", \"Dodge\"]",
        "cards = [\"Attack\", \"Dodge\", \"Parry Call\"]",
    ) + r#"
[[card]]
value = "1"
name = "Parry Call"
success = "Perception"
result = "Resolve"
type = "compliment"
outcome = "less-damage"
"#;
    let mut t = table_from(&text);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 1 result 3", &mut none);
    give(
        &mut t,
        "gm: compliment Parry Call success 2 result 2",
        &mut none,
    );
    // Step 6: Parry Call 4, 4 (needs 1).
    give(&mut t, "pass", &mut Scripted::dice([4, 4]));
    // Step 8: Stunt 5; damage 6, 6, 6 = 3; Parry Call's Result 3, 5 = 2: 1 damage,
    // doubled by Frail.
    give(&mut t, "gm: take", &mut Scripted::dice([5, 6, 6, 6, 3, 5]));
    assert_eq!(
        t.state()
            .participant("Ogre")
            .unwrap()
            .character
            .stat(Stat::Vitality)
            .current,
        6
    );
}

/// Experience (table rule): points raise a stat or skill, or buy a card bonus
/// (the book's "smaller bonuses": cost less, deal more damage).
#[test]
fn experience_raises_and_card_bonuses() {
    let text = TWO_SHEETS.replace("title = \"test\"", "title = \"test\"\nexperience = true");
    let mut t = table_from(&text);
    let mut none = Scripted::dice([]);
    assert!(
        try_give(&mut t, "Sam: raise Agility", &mut none).is_err(),
        "no points yet"
    );
    give(&mut t, "gm: award 3 as Hero", &mut none);
    give(&mut t, "Sam: raise Agility", &mut none);
    assert_eq!(
        t.state()
            .participant("Hero")
            .unwrap()
            .character
            .stat(Stat::Agility)
            .actual,
        6
    );
    give(&mut t, "Sam: improve Attack damage", &mut none);
    // Attack needs 1: one less is 0, still allowed once.
    give(&mut t, "Sam: improve Attack easier", &mut none);
    let err = try_give(&mut t, "Sam: improve Dodge easier", &mut none).unwrap_err();
    assert!(err.contains("no experience"), "{err}");
    let b = t
        .state()
        .participant("Hero")
        .unwrap()
        .character
        .card_bonus("attack");
    assert_eq!((b.easier, b.damage), (1, 1));
    // In the Event the Attack deals its Result + 1.
    start_event(&mut t);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 0 result 1", &mut none);
    give(&mut t, "pass", &mut none);
    // Stunt: no dice, needs 0: success. Damage 4 = 1, + 1 bonus = 2, doubled (Frail).
    give(&mut t, "gm: take", &mut Scripted::dice([4]));
    assert_eq!(
        t.state()
            .participant("Ogre")
            .unwrap()
            .character
            .stat(Stat::Vitality)
            .current,
        4
    );
}
