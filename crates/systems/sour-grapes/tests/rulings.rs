//! The rulings R-SG-9, R-SG-11 and R-SG-12, the Situation's held tokens, live
//! odds with Experience bonuses, seats, names and numbers: each test is named
//! after the rule it holds the engine to, and replays scripted dice.

mod common;

use common::*;
use tabula_core::testkit;
use tabula_core::{Scripted, Table, TextPlay};
use tabula_sour_grapes::event::{Event, Purpose};
use tabula_sour_grapes::state::{Moment, Step};
use tabula_sour_grapes::{SourGrapes, Stat};

fn stat_of(t: &Table<SourGrapes>, who: &str, stat: Stat) -> u32 {
    t.state()
        .participant(who)
        .unwrap()
        .character
        .stat(stat)
        .current
}

fn tokens_of(t: &Table<SourGrapes>, who: &str, skill: &str) -> u32 {
    t.state()
        .participant(who)
        .unwrap()
        .character
        .skill(skill)
        .unwrap()
        .available
}

/// The Event of `TWO_SHEETS` (no d20): Hero 3 successes on `stat`, Ogre 1: the
/// Hero's turn first.
fn start_event_with(t: &mut Table<SourGrapes>, stat: &str) {
    let mut none = Scripted::dice([]);
    if t.state().event().is_none() {
        give(t, "gm: event", &mut none);
    }
    give(
        t,
        &format!("Sam: initiative {stat} 3"),
        &mut Scripted::dice([4, 5, 6]),
    );
    // The Ogre makes a case for Knowledge (1 die): 0 successes.
    give(t, "gm: initiative Knowledge 1", &mut Scripted::dice([1]));
    assert_eq!(t.state().turn().unwrap().controller, "Hero");
}

fn start_event(t: &mut Table<SourGrapes>) {
    start_event_with(t, "Agility");
}

fn rolls(t: &Table<SourGrapes>, purpose: Purpose) -> Vec<Event> {
    t.log()
        .entries()
        .iter()
        .filter(|e| matches!(&e.event, Event::Rolled { purpose: p, .. } if *p == purpose))
        .map(|e| e.event.clone())
        .collect()
}

// ------------------------------------------------------------ R-SG-11

/// R-SG-11: the Hero places 5 Agility dice on its Attack, then its own Shove's
/// two 1s exhaust Agility to 3 before step 8. The Stunt rolls 3 dice, the other
/// 2 are lost, and the turn reaches its end (it used to refuse every command).
#[test]
fn committed_dice_roll_up_to_the_current_value() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 5 result 2", &mut none);
    give(&mut t, "divert Shove success 5 to Ogre", &mut none);
    // Step 6: Shove needs more than the attacker's Agility 5: 3 successes fail;
    // the two 1s exhaust Agility to 3.
    give(&mut t, "pass", &mut Scripted::dice([1, 1, 6, 6, 6]));
    assert_eq!(stat_of(&t, "Hero", Stat::Agility), 3);
    // Step 8: the Stunt rolls 3 dice (5, 5, 5); damage 2 dice (4, 4) = 2,
    // doubled because the Ogre is Frail.
    give(&mut t, "gm: take", &mut Scripted::dice([5, 5, 5, 4, 4]));
    match rolls(&t, Purpose::Stunt).as_slice() {
        [e @ Event::Rolled { roll, .. }] => {
            assert_eq!(roll.dice.len(), 3);
            assert!(
                format!("{e:?}").contains("lost: Bet { dice: 2, tokens: 0 }"),
                "{e:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(stat_of(&t, "Ogre", Stat::Vitality), 4);
    assert_eq!(t.state().turn().unwrap().controller, "Ogre");
    testkit::assert_replay_rebuilds(&t);
}

/// R-SG-11: a card whose Success and Result are the same stat: the Stunt's own
/// 1s exhaust the stat, and the Result rolls what is left of its placed dice.
#[test]
fn the_stunts_own_ones_leave_fewer_result_dice() {
    let text = TWO_SHEETS.replace(
        "cards = [\"Attack\", \"Dodge\", \"Shove\"",
        "cards = [\"Wild Swing\", \"Attack\", \"Dodge\", \"Shove\"",
    ) + r#"
[[card]]
value = "1"
name = "Wild Swing"
success = "Agility"
result = "Agility"
target = "Vitality"
type = "stunt"
outcome = "damage"
"#;
    let mut t = table_from(&text);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Wild Swing", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 5 result 5", &mut none);
    give(&mut t, "pass", &mut none);
    // Stunt 1, 1, 1, 6, 6: 2 successes, Agility 5 -> 2. Damage: 2 dice (3, 3).
    give(
        &mut t,
        "gm: take",
        &mut Scripted::dice([1, 1, 1, 6, 6, 3, 3]),
    );
    match rolls(&t, Purpose::Damage).as_slice() {
        [e @ Event::Rolled { roll, .. }] => {
            assert_eq!(roll.successes, 2);
            assert!(format!("{e:?}").contains("lost: Bet { dice: 3"), "{e:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(stat_of(&t, "Ogre", Stat::Vitality), 4);
    assert!(t.state().turn().is_some_and(|t| t.controller == "Ogre"));
}

/// R-SG-4 and R-SG-11: tokens placed on the Stunt are committed there, so the
/// Controller cannot place them again on a card of their own in step 5.
#[test]
fn placed_tokens_are_committed_to_their_roll() {
    // The table agreed the Hero's Swords is comparable for Fire Magic, so the
    // Attack and Flame Weapon draw on one pool.
    let text = TWO_SHEETS.replace(
        "\"Sand Strike\", \"Flame Weapon\"]",
        "\"Sand Strike\", \"Flame Weapon\"]\ncomparable = { \"Fire Magic\" = \"Swords\" }",
    );
    let mut t = table_from(&text);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 1 2", &mut none);
    let err = try_give(&mut t, "compliment Flame Weapon success 1 1", &mut none).unwrap_err();
    assert!(err.contains("tokens"), "{err}");
    give(&mut t, "compliment Flame Weapon success 1", &mut none);
}

// ------------------------------------------------------------ R-SG-9

/// "At the start of your turn Roll for this effect or discard the effect"
/// (R-SG-9): a turn that ends without the keep roll discards the effect.
#[test]
fn ending_the_turn_without_the_keep_roll_discards_the_effect() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Trained Breathing", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target success 3", &mut none);
    give(&mut t, "pass", &mut Scripted::dice([4, 4, 5]));
    assert_eq!(t.state().participant("Hero").unwrap().effects.len(), 1);
    give(&mut t, "gm: end", &mut none);
    assert_eq!(
        t.state().turn().unwrap().pending_effects,
        vec!["Trained Breathing".to_string()]
    );
    give(&mut t, "end", &mut none);
    assert!(t.state().participant("Hero").unwrap().effects.is_empty());
}

/// The storyteller ending the Event during the Controller's Prep is also a turn
/// ending without the keep roll (R-SG-9).
#[test]
fn ending_the_event_before_the_keep_roll_discards_the_effect() {
    let mut t = table_from(TWO_SHEETS);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Trained Breathing", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target success 3", &mut none);
    give(&mut t, "pass", &mut Scripted::dice([4, 4, 5]));
    give(&mut t, "gm: end", &mut none);
    give(&mut t, "gm: end-event", &mut none);
    assert!(t.state().participant("Hero").unwrap().effects.is_empty());
}

// ------------------------------------------------------------ Situation tokens

/// "Situation Roll - Skill is not recovered until end of Situation": every
/// character who spent tokens in it gets them back, not only the one it was
/// called for.
#[test]
fn situation_tokens_come_back_for_everyone_who_spent_them() {
    let mut t = example_table();
    let mut none = Scripted::dice([]);
    give(
        &mut t,
        "gm: situation 20 Prestige with Fast Talking as Rook",
        &mut none,
    );
    // The Example Player helps: a check inside the Situation holds the tokens.
    give(
        &mut t,
        "Sam: check Agility 2 2 vs 1 with acrobatics",
        &mut Scripted::dice([4, 5]),
    );
    give(
        &mut t,
        "Ana: check Prestige 2 1 vs 1 with Fast Talking",
        &mut Scripted::dice([3, 6]),
    );
    assert_eq!(tokens_of(&t, "Example Player", "acrobatics"), 0);
    assert_eq!(tokens_of(&t, "Rook", "Fast Talking"), 1);
    give(&mut t, "Ana: final 3 1", &mut Scripted::dice([2, 2, 2]));
    assert!(matches!(t.state().moment, Moment::Free));
    assert_eq!(tokens_of(&t, "Example Player", "acrobatics"), 2);
    assert_eq!(tokens_of(&t, "Rook", "Fast Talking"), 2);
}

/// Tokens spent before the Situation (here, already used on the sheet) are not
/// the Situation's to give back.
#[test]
fn only_tokens_held_in_the_situation_come_back() {
    let text = TWO_SHEETS.replace(
        "name = \"Swords\"\nrating = 2",
        "name = \"Swords\"\nrating = 2\nused = 1",
    );
    let mut t = table_from(&text);
    let mut none = Scripted::dice([]);
    assert_eq!(tokens_of(&t, "Hero", "Swords"), 1);
    give(
        &mut t,
        "gm: situation 3 Prestige with Fast Talking as Hero",
        &mut none,
    );
    give(&mut t, "Sam: final 2 2", &mut Scripted::dice([5, 5]));
    assert_eq!(tokens_of(&t, "Hero", "Fast Talking"), 2);
    assert_eq!(tokens_of(&t, "Hero", "Swords"), 1);
}

// ------------------------------------------------------------ R-SG-12

fn hero_with(stat_line: &str, depleted: &str) -> String {
    TWO_SHEETS.replacen(stat_line, depleted, 1)
}

/// R-SG-12: Dying allows no check and no card.
#[test]
fn dying_allows_no_check_and_no_card() {
    let text = hero_with(
        "vitality = 6",
        "vitality = { actual = 6, current = 0, injured = true }",
    );
    let mut t = table_from(&text);
    let mut none = Scripted::dice([]);
    for stat in ["Agility", "Knowledge", "Perception"] {
        let err = try_give(&mut t, &format!("Sam: check {stat} 1 vs 1"), &mut none).unwrap_err();
        assert!(err.contains("Dying") && err.contains("R-SG-12"), "{err}");
    }
}

/// R-SG-12: Incapacitated allows no check with a Physical stat (Perception is
/// Physical and Mental); Mental ones still go.
#[test]
fn incapacitated_allows_no_physical_check() {
    let text = hero_with(
        "stamina = 4",
        "stamina = { actual = 4, current = 0, injured = true }",
    );
    let mut t = table_from(&text);
    let mut none = Scripted::dice([]);
    for stat in ["Agility", "Might", "Perception", "Vitality"] {
        let err = try_give(&mut t, &format!("Sam: check {stat} 1 vs 1"), &mut none).unwrap_err();
        assert!(err.contains("Incapacitated"), "{stat}: {err}");
    }
    give(
        &mut t,
        "Sam: check Knowledge 1 vs 0",
        &mut Scripted::dice([4]),
    );
}

/// R-SG-12: Panicked allows no check with a Mental stat.
#[test]
fn panicked_allows_no_mental_check() {
    let text = hero_with(
        "resolve = 4",
        "resolve = { actual = 4, current = 0, injured = true }",
    );
    let mut t = table_from(&text);
    let mut none = Scripted::dice([]);
    for stat in ["Knowledge", "Perception", "Prestige", "Spirit"] {
        let err = try_give(&mut t, &format!("Sam: check {stat} 1 vs 1"), &mut none).unwrap_err();
        assert!(err.contains("Panicked"), "{stat}: {err}");
    }
    give(
        &mut t,
        "Sam: check Agility 1 vs 0",
        &mut Scripted::dice([4]),
    );
}

/// R-SG-12: a card uses the stats of its Success and Result: a Knowledge /
/// Might card is a Physical action an Incapacitated character cannot play.
#[test]
fn a_card_uses_the_stats_of_its_success_and_result() {
    let text = hero_with(
        "stamina = 4",
        "stamina = { actual = 4, current = 0, injured = true }",
    )
    .replace(
        "cards = [\"Attack\", \"Dodge\", \"Shove\"",
        "cards = [\"Mind Blade\", \"Attack\", \"Dodge\", \"Shove\"",
    ) + r#"
[[card]]
value = "1"
name = "Mind Blade"
success = "Knowledge"
result = "Strength"
target = "Vitality"
type = "stunt"
outcome = "damage"
"#;
    let mut t = table_from(&text);
    // Initiative is a check: Incapacitated, the Hero makes a case for Knowledge.
    give(&mut t, "gm: event", &mut Scripted::dice([]));
    let err = try_give(&mut t, "Sam: initiative Agility 3", &mut Scripted::dice([])).unwrap_err();
    assert!(err.contains("Incapacitated"), "{err}");
    start_event_with(&mut t, "Knowledge");
    let err = try_give(&mut t, "stunt Mind Blade", &mut Scripted::dice([])).unwrap_err();
    assert!(
        err.contains("Incapacitated") && err.contains("R-SG-12"),
        "{err}"
    );
}

/// "Cannot be reacted against" (R-SG-12): the Reaction step is skipped for an
/// Incapacitated receiver of a Physical Stunt; step 8 runs at once.
#[test]
fn cannot_be_reacted_against_skips_the_reaction_step() {
    let text = TWO_SHEETS.replacen(
        "stamina = 5",
        "stamina = { actual = 5, current = 0, injured = true }",
        1,
    );
    let mut t = table_from(&text);
    start_event(&mut t);
    let mut none = Scripted::dice([]);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    give(&mut t, "target Ogre success 2 result 1", &mut none);
    // Closing step 5 skips step 7 and rolls step 8: Stunt 5, 5; damage 4.
    give(&mut t, "pass", &mut Scripted::dice([5, 5, 4]));
    assert!(
        t.log()
            .entries()
            .iter()
            .any(|e| format!("{:?}", e.event).starts_with("ReactionSkipped { who: \"Ogre\""))
    );
    assert_eq!(t.state().turn().unwrap().controller, "Ogre");
    // 1 damage, doubled (Frail).
    assert_eq!(stat_of(&t, "Ogre", Stat::Vitality), 6);
}

/// R-SG-12 and R-SG-8: a participant who may check with no stat (Incapacitated
/// and Panicked) rolls initiative with no dice (the d20 alone), so the Event
/// can start.
#[test]
fn initiative_without_a_stat_to_check_is_the_d20_alone() {
    let text = hero_with(
        "stamina = 4",
        "stamina = { actual = 4, current = 0, injured = true }",
    )
    .replacen(
        "resolve = 4",
        "resolve = { actual = 4, current = 0, injured = true }",
        1,
    );
    let mut t = table_from(&text);
    let mut none = Scripted::dice([]);
    give(&mut t, "gm: event", &mut none);
    let err = try_give(&mut t, "Sam: initiative Agility 2", &mut none).unwrap_err();
    assert!(err.contains("0 dice"), "{err}");
    give(&mut t, "Sam: initiative Agility 0", &mut none);
    give(
        &mut t,
        "gm: initiative Agility 2",
        &mut Scripted::dice([4, 3]),
    );
    assert_eq!(t.state().turn().unwrap().controller, "Ogre");
}

/// R-SG-12: a Situation's final check that may not be made fails: `final 0`
/// ends the Situation as failed; dice are refused.
#[test]
fn a_final_check_that_cannot_be_made_fails() {
    let text = hero_with(
        "vitality = 6",
        "vitality = { actual = 6, current = 0, injured = true }",
    );
    let mut t = table_from(&text);
    let mut none = Scripted::dice([]);
    give(&mut t, "gm: situation 5 Prestige as Hero", &mut none);
    let err = try_give(&mut t, "Sam: final 2", &mut none).unwrap_err();
    assert!(err.contains("final 0"), "{err}");
    give(&mut t, "Sam: final 0", &mut none);
    assert!(
        t.log()
            .entries()
            .iter()
            .any(|e| matches!(e.event, Event::SituationEnded { success: false, .. }))
    );
}

// ------------------------------------------------------------ odds

/// Live odds use the character's Experience card bonuses: an Attack made one
/// success easier shows the odds of needing 0; Flame Weapon made two easier
/// shows "needs 2" in step 5.
#[test]
fn odds_show_the_experience_card_bonus() {
    let text = TWO_SHEETS.replace("title = \"test\"", "title = \"test\"\nexperience = true");
    let mut t = table_from(&text);
    let mut none = Scripted::dice([]);
    give(&mut t, "gm: award 3 as Hero", &mut none);
    give(&mut t, "Sam: improve Attack easier", &mut none);
    give(&mut t, "Sam: improve Flame Weapon easier", &mut none);
    give(&mut t, "Sam: improve Flame Weapon easier", &mut none);
    start_event(&mut t);
    let gm = tabula_core::Seat::Gm;
    let status = SourGrapes::status(t.state(), &gm);
    assert!(
        status.contains("Attack [Agility 5, Swords tokens 2, needs 0"),
        "{status}"
    );
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    let status = SourGrapes::status(t.state(), &gm);
    assert!(status.contains("needs 0"), "{status}");
    give(&mut t, "target Ogre success 1 result 1", &mut none);
    let status = SourGrapes::status(t.state(), &gm);
    assert!(
        status.contains("Hero Flame Weapon [Knowledge 4"),
        "{status}"
    );
    assert!(status.contains("needs 2"), "{status}");
}

// ------------------------------------------------------------ seats and names

/// Tabula's seats: a player seat acts only for its own characters; the
/// storyteller acts for the monsters (and may dictate a Spend to anyone).
#[test]
fn a_player_acts_only_for_its_own_characters() {
    let mut t = example_table();
    let mut none = Scripted::dice([]);
    let before = t.clone();
    for line in [
        "Sam: check Agility 1 vs 1 as Rook",
        "Sam: spend Agility as Rook",
        "Sam: spend Agility as Tavern Brute",
        "gm: check Agility 1 vs 1 as Rook",
        "Ana: raise Agility as Example Player",
    ] {
        let err = try_give(&mut t, line, &mut none).unwrap_err();
        assert!(
            err.contains("does not play") && err.contains("Seats"),
            "{line}: {err}"
        );
    }
    assert_eq!(t, before);
    give(&mut t, "gm: spend Agility as Rook", &mut none);
    // Rook's Situation: only Rook's seat rolls its final check.
    give(&mut t, "gm: situation 5 Prestige as Rook", &mut none);
    for line in ["gm: final 1", "Sam: final 1"] {
        let err = try_give(&mut t, line, &mut none).unwrap_err();
        assert!(err.contains("does not play Rook"), "{line}: {err}");
    }
    give(&mut t, "Ana: final 1", &mut Scripted::dice([4]));
    give(&mut t, "gm: event", &mut none);
    let err = try_give(&mut t, "Sam: initiative Agility 1 as Rook", &mut none).unwrap_err();
    assert!(err.contains("does not play"), "{err}");
}

/// Seat and character names typed in commands match without regard to case.
#[test]
fn seat_and_character_names_match_without_regard_to_case() {
    let mut t = example_table();
    let mut none = Scripted::dice([]);
    give(
        &mut t,
        "sam: check agility 1 vs 0",
        &mut Scripted::dice([5]),
    );
    give(&mut t, "SAM: spend Agility as EXAMPLE PLAYER", &mut none);
    give(&mut t, "gm: spend Agility as rook", &mut none);
    assert_eq!(stat_of(&t, "Rook", Stat::Agility), 4);
    let ana = |seat: &str| t.legal_commands(&tabula_core::Seat::parse(seat));
    assert!(!ana("Ana").is_empty());
    assert_eq!(ana("ana"), ana("Ana"));
}

/// An unknown name is refused with the valid choices listed.
#[test]
fn an_unknown_name_lists_the_choices() {
    let mut t = example_table();
    let mut none = Scripted::dice([]);
    let err = try_give(&mut t, "gm: spend Agility as Nobody", &mut none).unwrap_err();
    assert!(
        err.contains("Example Player, Rook, Tavern Brute, Drunk Sailor"),
        "{err}"
    );
    let err = try_give(&mut t, "gm: afflict Hangover as Rook", &mut none).unwrap_err();
    assert!(err.contains("Intoxicated"), "{err}");
}

/// A table file refuses nonsense names, naming the field.
#[test]
fn table_file_refuses_bad_names() {
    let bad = TWO_SHEETS
        // A terminal escape code, written as a TOML escape.
        .replace("name = \"Hero\"", "name = \"He\\u001b[2Jro\"");
    let err = SourGrapes::setup(&bad, &examples()).unwrap_err();
    let all = err.problems.join("\n");
    assert!(all.contains("control characters"), "{all}");
    let bad = TWO_SHEETS.replace("seat = \"Sam\"", "seat = \"Sam:x\"");
    let all = SourGrapes::setup(&bad, &examples())
        .unwrap_err()
        .problems
        .join("\n");
    assert!(
        all.contains("participant[0].seat") && all.contains("':'"),
        "{all}"
    );
    let bad = TWO_SHEETS.replace(
        "\"Sand Strike\", \"Flame Weapon\"]",
        "\"Sand Strike\", \"Flame Weapon\"]\ncomparable = { Swords = \"Nope\" }",
    );
    let all = SourGrapes::setup(&bad, &examples())
        .unwrap_err()
        .problems
        .join("\n");
    assert!(all.contains("no skill called \"Nope\""), "{all}");
    let all = SourGrapes::setup("title = \"empty\"", &examples())
        .unwrap_err()
        .problems
        .join("\n");
    assert!(all.contains("at least one character"), "{all}");
}

// ------------------------------------------------------------ numbers

/// A number past the integer range is refused as too large, a negative one as
/// below 0, and a sum of absurd bets is refused, never wrapped.
#[test]
fn absurd_numbers_are_refused_never_wrapped() {
    let mut t = table_from(TWO_SHEETS);
    let mut none = Scripted::dice([]);
    let err = try_give(&mut t, "Sam: check Agility 99999999999 vs 1", &mut none).unwrap_err();
    assert!(err.contains("too large"), "{err}");
    let err = try_give(&mut t, "Sam: check Agility -4 vs 1", &mut none).unwrap_err();
    assert!(err.contains("0 or more"), "{err}");
    start_event(&mut t);
    give(&mut t, "stunt Attack", &mut none);
    give(&mut t, "pass", &mut none);
    let before = t.clone();
    let err = try_give(
        &mut t,
        "target Ogre success 2 4294967295 result 0 4294967295",
        &mut none,
    )
    .unwrap_err();
    assert!(err.contains("tokens"), "{err}");
    assert_eq!(t, before);
    assert_eq!(t.state().turn().unwrap().step, Step::Targeting);
}

// ------------------------------------------------------------ experience

/// Experience (table rule): a card bonus is bought on one of the character's
/// own cards. The Ogre holds Attack and Dodge only: improving Flame Weapon for
/// him is refused and costs nothing, and the legal list offers each seat only
/// its characters' cards (issue 27, bug 1).
#[test]
fn improve_only_a_card_the_character_holds() {
    let text = TWO_SHEETS.replace("title = \"test\"", "title = \"test\"\nexperience = true");
    let mut t = table_from(&text);
    let mut none = Scripted::dice([]);
    give(&mut t, "gm: award 1 as Ogre", &mut none);
    let before = t.clone();
    let err = try_give(&mut t, "gm: improve Flame Weapon easier as Ogre", &mut none).unwrap_err();
    assert!(err.contains("does not hold Flame Weapon"), "{err}");
    assert!(t == before, "a refused improve changed the table");
    let offered = |t: &Table<SourGrapes>, seat: &str| -> Vec<String> {
        let spec = t
            .legal_commands(&tabula_core::Seat::parse(seat))
            .into_iter()
            .find(|c| c.name == "improve")
            .expect("improve is offered");
        match &spec.params[0].kind {
            tabula_core::ParamKind::Choice { options } => options.clone(),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(offered(&t, "GM"), ["Attack", "Dodge"]);
    give(&mut t, "gm: improve Attack damage as Ogre", &mut none);
    give(&mut t, "gm: award 1 as Hero", &mut none);
    assert_eq!(offered(&t, "Sam").len(), 6);
}
