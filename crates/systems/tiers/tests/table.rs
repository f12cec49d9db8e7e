//! The table as a decide/evolve System: the example encounter, the book's
//! worked examples at the table, refusals that change nothing, and properties.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use tabula_core::testkit;
use tabula_core::{Refusal, Roller, RuleError, Scripted, Seat, Seeded, System, Table, TextPlay};
use tabula_tiers::Tiers;
use tabula_tiers::command::Command;
use tabula_tiers::event::Event;
use tabula_tiers::gm::PurchaseError;
use tabula_tiers::roleplay::{ContestResult, TieRule};
use tabula_tiers::setup::SetupError;
use tabula_tiers::state::{Mode, Outcome, Phase, State, Target};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/tiers")
}

fn example_table() -> Table<Tiers> {
    let text = std::fs::read_to_string(examples().join("table.toml")).unwrap();
    Table::new(Tiers::setup(&text, &examples()).unwrap())
}

/// Split `SEAT: command` as the play driver does.
fn seat_and_body<'a>(state: &State, line: &'a str) -> (Seat, &'a str) {
    match line.split_once(':') {
        Some((seat, rest)) if !seat.trim().is_empty() => (Seat::parse(seat), rest.trim()),
        _ => (Tiers::default_seat(state), line),
    }
}

fn give(
    t: &mut Table<Tiers>,
    line: &str,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    let (seat, body) = seat_and_body(t.state(), line);
    let cmd =
        Tiers::parse_command(t.state(), &seat, body).unwrap_or_else(|e| panic!("{line}: {e}"));
    t.submit(&seat, &cmd, roller)
        .map(|entries| entries.iter().map(|e| e.event.clone()).collect())
}

fn ok(t: &mut Table<Tiers>, line: &str, dice: &[u32]) -> Vec<Event> {
    let mut r = Scripted::dice(dice.iter().copied());
    let ev = give(t, line, &mut r).unwrap_or_else(|e| panic!("{line}: {e}"));
    assert_eq!(r.remaining(), 0, "{line}: dice left over");
    ev
}

fn refused(t: &mut Table<Tiers>, line: &str) -> RuleError {
    let before = t.clone();
    let mut r = Scripted::dice([1, 1, 1, 1, 1, 1, 1, 1]);
    let err = give(t, line, &mut r).expect_err(line);
    assert!(*t == before, "{line}: a refused command changed the table");
    err
}

#[test]
fn the_encounter_script_plays_through_with_seed_1() {
    let mut t = example_table();
    let mut roller = Seeded::from_seed(1);
    let script = std::fs::read_to_string(examples().join("encounter.script")).unwrap();
    for line in script.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        give(&mut t, line, &mut roller).unwrap_or_else(|e| panic!("{line}: refused: {e}"));
    }
    assert_eq!(t.state().outcome, Some(Outcome::Won));
    assert!(Tiers::finished(t.state()));
    testkit::assert_replay_rebuilds(&t);
    // Fully healed after combat.
    assert!(t.state().heroes.iter().all(|h| h.health == h.max_health));
}

#[test]
fn the_example_table_follows_the_gm_rules() {
    let t = example_table();
    let s = t.state();
    assert_eq!(s.psp, 36);
    assert_eq!(s.health_pool, 18);
    assert_eq!(s.reserve, 2);
    assert_eq!((s.rolls.d6, s.rolls.d3, s.rolls.cost()), (2, 3, 36));
    // R-TI-2 + the table's house perk: John is level 1 (20) with Strength tier 2 (+5).
    assert_eq!(s.heroes[0].max_health, 25);
}

/// "How to Roleplay": John rolls 2 + 1 = 3.
#[test]
fn johns_treasure_roll_at_the_table() {
    let mut t = example_table();
    let ev = ok(&mut t, "John: roll skill very-easy", &[2]);
    let Event::Rolled { outcome, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!((outcome.roll.d6.clone(), outcome.roll.total), (vec![2], 3));
    assert!(outcome.success);
}

/// "Competing Rolls": both roll 2; John +1, Cristy +2; Cristy claims it.
/// "Ties": both roll 1 with +2: nothing happens.
#[test]
fn john_and_cristy_compete_and_tie() {
    let mut t = example_table();
    let ev = ok(&mut t, "GM: compete John skill Cristy skill", &[2, 2]);
    assert!(
        matches!(&ev[0], Event::Contested { result: ContestResult::Second, first_roll, second_roll, .. }
        if first_roll.total == 3 && second_roll.total == 4)
    );
    let ev = ok(&mut t, "GM: compete John strength Cristy strength", &[1, 1]);
    assert!(matches!(
        &ev[0],
        Event::Contested { result: ContestResult::Tie(TieRule::NothingHappens), first_roll, .. }
            if first_roll.total == 3
    ));
}

/// "Defendants & Tied PvP Rolls": both roll 3 with +2; John defends and wins.
#[test]
fn the_pvp_tie_goes_to_john_the_defendant() {
    let mut t = example_table();
    let err = refused(&mut t, "GM: pvp Cristy strength John strength");
    assert_eq!(err.rule, tabula_tiers::rules::PVP_ROLLS);
    ok(&mut t, "John: consent Cristy", &[]);
    let ev = ok(&mut t, "GM: pvp Cristy strength John strength", &[3, 3]);
    assert!(
        matches!(&ev[0], Event::Contested { result: ContestResult::Second, second, .. } if second == "John")
    );
    // The consent is used up.
    refused(&mut t, "GM: pvp Cristy strength John strength");
}

/// "Sample Items": spend 1 AP to drink a Fast Potion, restoring 2 Health.
#[test]
fn the_fast_potion() {
    let mut t = example_table();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: spend Gob Bite d3=1 on John", &[3]);
    assert_eq!(t.state().heroes[0].health, 22);
    ok(&mut t, "GM: end-phase", &[]);
    let ev = ok(&mut t, "John: item Fast Potion", &[]);
    assert!(ev.contains(&Event::ApSpent { hero: 0, ap: 1 }));
    assert!(ev.contains(&Event::Healed {
        target: Target::Hero(0),
        amount: 2
    }));
    assert_eq!(t.state().heroes[0].health, 24);
    assert_eq!(t.state().heroes[0].ap, 5);
    // It is used up.
    refused(&mut t, "John: item Fast Potion");
}

/// "Rolling for Criticals" and R-TI-6: a player's 6 doubles; enemies never roll one.
#[test]
fn criticals_for_players_only() {
    let mut t = example_table();
    ok(&mut t, "GM: fight", &[]);
    // An enemy's Bite rolls its d3 only: no critical die is asked for.
    ok(&mut t, "GM: move-enemy Gob Shop pay=d3", &[]);
    ok(&mut t, "GM: spend Gob Bite d3=1 on John", &[2]);
    ok(&mut t, "GM: end-phase", &[]);
    // The Goblin blocks 1d6 [1] (its Response), John's 1d6 [2] doubles to 4.
    let ev = ok(&mut t, "John: act Slash on Gob", &[1, 2, 6]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::ActionRolled {
            critical: Some(6),
            amount: 4,
            ..
        }
    )));
    assert_eq!(t.state().enemies[0].health, 2);
}

#[test]
fn actions_need_a_point_in_their_tier_and_the_player_phase() {
    let mut t = example_table();
    ok(&mut t, "GM: fight", &[]);
    // Enemy Phase: Slash is a Player Phase Action.
    let e = refused(&mut t, "Cristy: act Slash on Gob");
    assert_eq!(e.kind, Refusal::WrongPhase);
    ok(&mut t, "GM: end-phase", &[]);
    // John has no SP in tier 2 of Skill (R-TI-4: Dash is tier 2).
    let e = refused(&mut t, "John: act Dash on Street");
    assert_eq!(e.rule.ruling, Some("R-TI-4"));
    // Melee needs the same Zone.
    refused(&mut t, "John: act Slash on Gob");
    // Players cannot give the GM's commands, nor act for an unknown seat.
    assert_eq!(
        refused(&mut t, "John: end-phase").kind,
        Refusal::NotPermitted
    );
    refused(&mut t, "Nobody: move Street");
    // Out of AP.
    ok(&mut t, "John: move Street", &[]);
    ok(&mut t, "John: act Heavy Blow on Gob", &[1, 1, 1, 1]);
    refused(&mut t, "John: act Heavy Blow on Gob");
}

#[test]
fn zones_movement_and_ranged_access() {
    let mut t = example_table();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    // The Goblin in the Street stops movement (R-TI-8).
    let e = refused(&mut t, "John: move Street > Alley");
    assert!(e.message.contains("through"), "{e}");
    refused(&mut t, "GM: Steve move Alley");
    ok(&mut t, "John: move Street", &[]);
    // The Street does not give access to the Roof.
    refused(&mut t, "GM: move-enemy Medic Street pay=d3");
    // A knife reaches the roof along the ladder.
    ok(&mut t, "Cristy: act Throw Knife on Medic", &[1, 1, 1]);
}

/// "Enemy Movement", "Spending Rolls for Actions": moving a player costs a d3 or
/// 2 CP per Zone; in the Player Phase enemy rolls cost double.
#[test]
fn enemy_rolls_are_used_once_per_phase_and_doubled_in_player_phase() {
    let mut t = example_table();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: move-player John Street pay=d3", &[]);
    assert_eq!(t.state().rolls_left().d3, 2);
    ok(&mut t, "GM: spend Gob Bite d3=2 on John", &[1, 1]);
    let e = refused(&mut t, "GM: spend Gob Bite d3=1 on John");
    assert_eq!(e.rule, tabula_tiers::rules::USING_ROLLS);
    ok(&mut t, "GM: end-phase", &[]);
    // 1d6 of Block costs 2d6 now.
    ok(&mut t, "GM: spend Gob Block d6=1", &[4]);
    assert_eq!(t.state().rolls_left().d6, 0);
    ok(&mut t, "GM: end-phase", &[]);
    assert_eq!(t.state().rolls_left().d6, 2);
    assert_eq!(
        t.state().mode,
        Mode::Combat {
            phase: Phase::Enemy,
            round: 2
        }
    );
}

/// "Roleplaying Against Enemies": the enemy's free 1d3, raised by the GM.
#[test]
fn roleplay_against_an_enemy_waits_for_the_gm() {
    let mut t = example_table();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "Cristy: roleplay scharisma 2 vs Gob", &[]);
    assert_eq!(t.state().heroes[1].ap, 4);
    assert_eq!(Tiers::default_seat(t.state()), Seat::Gm);
    refused(&mut t, "John: move Street");
    let ev = ok(&mut t, "GM: answer d3=1", &[3, 3, 1, 1]);
    assert!(ev.iter().any(|e| matches!(e, Event::Contested { result: ContestResult::First, first_roll, second_roll, .. }
        if first_roll.total == 7 && second_roll.total == 2)));
    assert!(t.state().pending.is_none());
}

fn small_table(extra: &str) -> Table<Tiers> {
    let text = format!(
        r#"
title = "Two level-0 players"
start = "combat"
{extra}
[rolls]
d6 = 1
d3 = 0

[[players]]
zone = "Hall"
[players.character]
name = "Ann"
level = 0
stats = {{ strength = [3], skill = [3], support = [3], scharisma = [3] }}

[[players]]
zone = "Hall"
[players.character]
name = "Bo"
level = 0
items = ["Potion"]
stats = {{ strength = [3], skill = [3], support = [3], scharisma = [3] }}

[[zones]]
name = "Hall"

[[enemies]]
name = "Ogre"
kind = "Goblin Boss"
health = 12
zone = "Hall"

[[actions]]
name = "Mend"
stat = "support"
tier = 1
ap = 2
d3 = 1
effect = "heal"
house = true
"#
    );
    Table::new(Tiers::setup(&text, Path::new(".")).unwrap())
}

/// "Health": at 0 you leave the fight and cannot be healed; all players at 0
/// lose ("Combat"); Death Rolls as a custom rule.
#[test]
fn zero_health_leaves_the_fight_and_all_down_loses() {
    let mut t = small_table("[custom_rules]\ndeath_rolls = true\npermanent_wounds = true\n");
    ok(&mut t, "GM: spend Ogre Drain d6=1 on Ann", &[6]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    let ev = ok(&mut t, "GM: spend Ogre Drain d6=1 on Ann", &[6, 2]);
    assert!(ev.contains(&Event::FellToZero { hero: 0 }));
    assert!(ev.contains(&Event::DeathRoll {
        hero: 0,
        die: 2,
        dead: false
    }));
    assert!(ev.contains(&Event::Wounded { hero: 0 }));
    ok(&mut t, "GM: end-phase", &[]);
    let e = refused(&mut t, "Bo: act Mend on Ann");
    assert_eq!(e.rule, tabula_tiers::rules::HEALTH_ZERO);
    refused(&mut t, "Bo: item Potion on Ann");
    refused(&mut t, "Ann: move Hall");
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: spend Ogre Drain d6=1 on Bo", &[6]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    let ev = ok(&mut t, "GM: spend Ogre Drain d6=1 on Bo", &[5, 2]);
    assert!(ev.contains(&Event::CombatEnded {
        outcome: Outcome::Lost,
        healed: true
    }));
    // Fully healed after combat.
    assert!(t.state().heroes.iter().all(|h| h.health == 10));
}

/// A dungeon: no full heal after combat.
#[test]
fn dungeons_do_not_heal() {
    let mut t = small_table("dungeon = true\n");
    ok(&mut t, "GM: spend Ogre Drain d6=1 on Ann", &[4]);
    ok(&mut t, "GM: end-combat", &[]);
    assert_eq!(t.state().heroes[0].health, 6);
}

/// "Enemy Health": four level-1 players in an Easy combat share 32 Health;
/// enemies given more are refused.
#[test]
fn four_level_one_players_share_32_and_overfull_is_refused() {
    let mut players = String::new();
    for n in ["A", "B", "C", "D"] {
        players.push_str(&format!(
            "[[players]]\nzone = \"Hall\"\n[players.character]\nname = \"{n}\"\nlevel = 1\nstats = {{ strength = [4], skill = [4], support = [4], scharisma = [4] }}\n"
        ));
    }
    let tail = format!("{players}[[zones]]\nname = \"Hall\"\n");
    let base = format!("difficulty = \"easy\"\n{tail}");
    let s = Tiers::setup(&base, Path::new(".")).unwrap();
    assert_eq!((s.psp, s.health_pool, s.reserve), (64, 32, 32));
    let over = format!(
        "{base}[[enemies]]\nname = \"Big\"\nkind = \"Goblin\"\nhealth = 33\nzone = \"Hall\"\n"
    );
    assert!(matches!(
        Tiers::setup(&over, Path::new(".")),
        Err(SetupError::HealthPool {
            total: 33,
            pool: 32,
            ..
        })
    ));
    // "Creating Combat": 2d6 + 4d3 is refused (R-TI-5).
    let bad = format!("difficulty = \"easy\"\n[rolls]\nd6 = 2\nd3 = 4\n{tail}");
    let Err(SetupError::Rolls(p)) = Tiers::setup(&bad, Path::new(".")) else {
        panic!("2d6 + 4d3 must be refused")
    };
    assert_eq!(p, vec![PurchaseError::Alternation { d6: 2, d3: 4 }]);
    let good = format!("difficulty = \"easy\"\n[rolls]\nd6 = 2\nd3 = 3\n{tail}");
    assert!(Tiers::setup(&good, Path::new(".")).is_ok());
}

#[test]
fn broken_table_files_name_the_field() {
    let e = Tiers::setup("title = 3", Path::new(".")).unwrap_err();
    assert!(e.to_string().contains("title"), "{e}");
    let text = std::fs::read_to_string(examples().join("table.toml"))
        .unwrap()
        .replace("kind = \"Healer\"", "kind = \"Dragon\"");
    let e = Tiers::setup(&text, &examples()).unwrap_err();
    assert!(matches!(e, SetupError::UnknownKind { .. }), "{e}");
}

/// The example table with every custom rule on, a dungeon, halved d6s and
/// ties rolled again.
fn every_rule_table() -> Table<Tiers> {
    let text = std::fs::read_to_string(examples().join("table.toml"))
        .unwrap()
        .replace("d3 = \"true\"", "d3 = \"halved-d6\"\ndungeon = true")
        .replace("tie = \"nothing-happens\"", "tie = \"roll-again\"")
        .replace(
            "[custom_rules]\ncover = true",
            "[custom_rules]\ncover = true\nsuper_6 = true\nresting = true\ndeath_rolls = true\npermanent_wounds = true\nweighted_inventory = true",
        );
    let state = Tiers::setup(&text, &examples()).unwrap();
    assert!(state.options.custom.death_rolls && state.options.dungeon);
    Table::new(state)
}

fn line_strategy() -> impl Strategy<Value = String> {
    let heroes = prop::sample::select(vec!["John", "Cristy", "Steve", "GM"]);
    let enemies = prop::sample::select(vec!["Gob", "Shade", "Armor", "Medic", "Boss", "Nope"]);
    let zones = prop::sample::select(vec!["Shop", "Street", "Alley", "Yard", "Roof", "Moon"]);
    let actions = prop::sample::select(vec![
        "Slash",
        "Heavy Blow",
        "Throw Knife",
        "Dash",
        "Mend",
        "Shield Up",
        "Taunt",
        "Fly",
    ]);
    let uses = prop::sample::select(vec![
        "Bite", "Block", "Fireball", "Drain", "Grapple", "Shove", "Move", "Heal", "Sing",
    ]);
    let items = prop::sample::select(vec!["Fast Potion", "Potion", "Slow Shield", "Turret"]);
    let stats = prop::sample::select(vec!["strength", "skill", "support", "scharisma"]);
    (
        heroes,
        enemies,
        zones,
        actions,
        uses,
        items,
        stats,
        0u32..4,
        0u32..4,
        0u8..27,
    )
        .prop_map(|(h, e, z, a, u, i, st, n, m, k)| {
            let body = match k {
                0 => format!("roll {st} {}", n + 2),
                1 => "fight".to_string(),
                2 | 3 => "end-phase".to_string(),
                4 => format!("act {a} on {e}"),
                5 => format!("act {a} on {h}"),
                6 => format!("move {z}"),
                7 => format!("item {i}"),
                8 => format!("roleplay {st} {n} vs {e}"),
                9 => format!("answer d3={n} cp={m}"),
                10 => format!("spend {e} {u} d6={n} d3={m} on {h}"),
                11 => format!("spend {e} {u} d3={n} cp={n} to={z} on {h}"),
                12 => format!("move-enemy {e} {z} pay=d3"),
                13 => format!("move-player {h} {z} pay=cp"),
                14 => format!("sink {e} pay=d3"),
                15 => format!("ensnare {e} {h}"),
                16 => format!("absorb {e} d3={n}"),
                17 => format!("spawn X{n} Goblin health={m} zone={z}"),
                18 => format!("compete {h} {st} Cristy skill"),
                19 => format!("consent {h}"),
                20 => "end-combat".to_string(),
                21 => "super6".to_string(),
                22 => format!("rest {n}"),
                23 => format!("act {a} on {e} cover"),
                24 => format!("pvp {h} {st} Cristy strength"),
                25 => format!("emerge {e} pay=d6"),
                _ => format!("roleplay {st} {n} {}", m + 3),
            };
            format!("{h}: {body}")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random command sequences never panic, refused commands change nothing,
    /// the invariants hold, and replaying the log rebuilds the state.
    #[test]
    fn random_commands_keep_invariants(
        seed in any::<u64>(),
        every_rule in any::<bool>(),
        lines in prop::collection::vec(line_strategy(), 1..60),
    ) {
        let mut t = if every_rule { every_rule_table() } else { example_table() };
        let mut roller = Seeded::from_seed(seed);
        for line in &lines {
            let (seat, body) = seat_and_body(t.state(), line);
            let Ok(cmd) = Tiers::parse_command(t.state(), &seat, body) else { continue };
            let before = t.clone();
            if t.submit(&seat, &cmd, &mut roller).is_err() {
                prop_assert!(t == before);
            }
            let s = t.state();
            for h in &s.heroes {
                prop_assert!(h.ap <= 6);
                prop_assert!(h.health <= h.max_health + 10);
            }
            let left = s.rolls_left();
            prop_assert!(s.spent.d6 <= s.rolls.d6 && s.spent.d3 <= s.rolls.d3);
            prop_assert!(left.combat_points <= s.rolls.combat_points);
            for e in &s.enemies {
                prop_assert!(e.health <= e.start_health);
            }
            let placed: u32 = s.enemies.iter().map(|e| e.start_health).sum();
            prop_assert_eq!(placed + s.reserve, s.health_pool);
            let _ = Tiers::view(s, &seat);
            let _ = Tiers::legal_commands(s, &seat);
            let _ = Tiers::status(s, &seat);
            for o in Tiers::odds(s, &seat) {
                prop_assert!((0.0..=1.0).contains(&o.probability), "{:?}", o);
            }
        }
        testkit::assert_replay_rebuilds(&t);
        let mut state = t.initial().clone();
        for entry in t.log().entries() {
            Tiers::evolve(&mut state, &entry.event);
            let _ = Tiers::describe(&state, &entry.event);
        }
        prop_assert_eq!(&state, t.state());
    }

    /// Whatever a command line says, parsing never panics.
    #[test]
    fn parsing_never_panics(line in ".{0,80}") {
        let t = example_table();
        let _ = Tiers::parse_command(t.state(), &Seat::Gm, &line);
    }
}

#[test]
fn legal_commands_follow_the_phase() {
    let mut t = example_table();
    let names = |t: &Table<Tiers>, s: &Seat| -> Vec<String> {
        t.legal_commands(s).into_iter().map(|c| c.name).collect()
    };
    let john = Seat::Player("John".into());
    assert!(names(&t, &john).contains(&"roll".to_string()));
    assert!(names(&t, &Seat::Gm).contains(&"fight".to_string()));
    ok(&mut t, "GM: fight", &[]);
    assert!(!names(&t, &john).contains(&"move".to_string()));
    // Shield Up may be used in the Enemy Phase.
    assert!(names(&t, &john).contains(&"act".to_string()));
    ok(&mut t, "GM: end-phase", &[]);
    let n = names(&t, &john);
    for c in ["act", "move", "item", "roleplay"] {
        assert!(n.contains(&c.to_string()), "{c} in {n:?}");
    }
    assert_eq!(Tiers::default_seat(t.state()), john);
    // Players do not see the enemies' Health or the GM's Rolls.
    let v = Tiers::view(t.state(), &john);
    assert!(v.enemies.iter().all(|e| e.health.is_none()));
    assert!(v.rolls_left.is_none());
    let _ = Command::Fight;
}

/// Every total of `d6` d6 + `d3` d3 + `plus`, one per face combination.
fn all_totals(d6: u32, d3: u32, plus: i64) -> Vec<i64> {
    let mut totals = vec![plus];
    for (n, sides) in [(d6, 6i64), (d3, 3)] {
        for _ in 0..n {
            totals = totals
                .iter()
                .flat_map(|t| (1..=sides).map(move |f| t + f))
                .collect();
        }
    }
    totals
}

/// Brute force: the chance the first total is strictly higher.
fn brute_wins(first: &[i64], second: &[i64]) -> f64 {
    let wins: usize = first
        .iter()
        .map(|a| second.iter().filter(|b| a > *b).count())
        .sum();
    wins as f64 / (first.len() * second.len()) as f64
}

/// `TextPlay::odds` at the example table (Tiers, "Roleplaying in Combat",
/// "Competing Rolls", "Roleplaying Against Enemies", "Enemy Behavior";
/// R-TI-4): in the Player Phase Cristy is offered rolling against an enemy
/// with each Stat and d3 count, and the house Action Taunt at each enemy, each
/// the chance of beating the enemy's 1d3 by brute force; once her roll against
/// Gob waits, the GM alone is offered each answer (the Rolls left), the chance
/// Gob's raised roll beats hers. Status prints the same numbers; a seat with
/// nothing to choose gets nothing.
#[test]
fn odds_of_competing_rolls_against_enemies() {
    let mut t = example_table();
    // Out of combat no roll waits: nobody is offered odds.
    for s in ["GM", "John", "Cristy"] {
        assert!(Tiers::odds(t.state(), &Seat::parse(s)).is_empty(), "{s}");
    }
    ok(&mut t, "GM: fight", &[]);
    // The Enemy Phase: the players' Actions wait for their phase.
    assert!(Tiers::odds(t.state(), &Seat::parse("Cristy")).is_empty());
    ok(&mut t, "GM: end-phase", &[]);
    let cristy = Seat::parse("Cristy");
    let odds = Tiers::odds(t.state(), &cristy);
    let free = all_totals(0, 1, 0);
    use tabula_tiers::character::Stat;
    let scharisma_bonus = i64::from(
        t.state().heroes[1]
            .character
            .roleplay_bonus(Stat::Scharisma),
    );
    let scharisma: Vec<_> = odds
        .iter()
        .filter(|o| o.choice.starts_with("roleplay scharisma "))
        .collect();
    assert!(!scharisma.is_empty(), "{odds:?}");
    for (k, o) in scharisma.iter().enumerate() {
        let d3 = k as u32 + 1;
        assert_eq!(o.choice, format!("roleplay scharisma {d3} vs an enemy"));
        let b = brute_wins(&all_totals(0, d3, scharisma_bonus), &free);
        assert!((o.probability - b).abs() < 1e-12, "{o:?} vs {b}");
    }
    let taunt = odds
        .iter()
        .find(|o| o.choice == "act Taunt on Gob")
        .unwrap_or_else(|| panic!("{odds:?}"));
    // Taunt: 1d3 + Scharisma's Roleplay Bonus against Gob's 1d3.
    let b = brute_wins(&all_totals(0, 1, scharisma_bonus), &free);
    assert!((taunt.probability - b).abs() < 1e-12, "{taunt:?} vs {b}");
    let status = Tiers::status(t.state(), &cristy);
    for o in &odds {
        let shown = format!("{} {:.1}%", o.choice, o.probability * 100.0);
        assert!(status.contains(&shown), "{shown} not in {status}");
    }

    ok(&mut t, "Cristy: roleplay scharisma 2 vs Gob", &[]);
    for s in ["John", "Cristy"] {
        assert!(Tiers::odds(t.state(), &Seat::parse(s)).is_empty(), "{s}");
    }
    let odds = Tiers::odds(t.state(), &Seat::Gm);
    let hers = all_totals(0, 2, scharisma_bonus);
    // Rolls left: 2d6 and 3d3 ("Creating Combat", the table's purchase).
    let want = [
        ("answer", all_totals(0, 1, 0)),
        ("answer d3=1", all_totals(0, 2, 0)),
        ("answer d3=2", all_totals(0, 3, 0)),
        ("answer d3=3", all_totals(0, 4, 0)),
        ("answer d6=1", all_totals(1, 1, 0)),
        ("answer d6=2", all_totals(2, 1, 0)),
    ];
    assert_eq!(odds.len(), want.len(), "{odds:?}");
    for (o, (choice, gob)) in odds.iter().zip(want) {
        assert_eq!(o.choice, choice);
        let b = brute_wins(&gob, &hers);
        assert!((o.probability - b).abs() < 1e-12, "{o:?} vs {b}");
    }
    let status = Tiers::status(t.state(), &Seat::Gm);
    for o in &odds {
        let shown = format!("{} {:.1}%", o.choice, o.probability * 100.0);
        assert!(status.contains(&shown), "{shown} not in {status}");
    }
    // Answered: nothing waits and Cristy still has AP for her own choices.
    ok(&mut t, "GM: answer d3=1", &[3, 3, 1, 1]);
    assert!(
        Tiers::odds(t.state(), &Seat::Gm)
            .iter()
            .all(|o| o.choice.starts_with("Steve ")),
        "the GM's own choices are the NPC ally's"
    );
}

/// The GM's `adjust` (issue 27, item 6): sets or changes Health and AP,
/// replays from the log, is the GM's only, and stays in range.
#[test]
fn the_gm_adjusts_health_and_ap() {
    let mut t = small_table("");
    let ev = ok(&mut t, "GM: adjust Ann health 4", &[]);
    assert_eq!(
        ev,
        vec![Event::Adjusted {
            hero: 0,
            value: tabula_tiers::gm::HeroValue::Health,
            from: 10,
            to: 4
        }]
    );
    assert_eq!(t.state().heroes[0].health, 4);
    assert_eq!(
        Tiers::describe(t.state(), &ev[0]),
        "The GM sets Ann's Health to 4 (was 10)"
    );
    ok(&mut t, "GM: adjust Ann hp +3", &[]);
    assert_eq!(t.state().heroes[0].health, 7);
    ok(&mut t, "GM: adjust Bo ap -2", &[]);
    assert_eq!(t.state().heroes[1].ap, 4);
    testkit::assert_replay_rebuilds(&t);
    let replayed = Table::<Tiers>::replay(t.initial(), t.log(), t.log().len());
    assert_eq!(replayed.heroes[0].health, 7);
    assert_eq!(replayed.heroes[1].ap, 4);

    // A player may not; out of range is refused; nothing changes.
    let e = refused(&mut t, "Ann: adjust Ann health 10");
    assert_eq!(e.kind, Refusal::NotPermitted);
    let e = refused(&mut t, "GM: adjust Ann health 11");
    assert_eq!(
        e.kind,
        Refusal::OutOfRange {
            field: "Health".into(),
            min: 0,
            max: 10,
            got: 11
        }
    );
    let e = refused(&mut t, "GM: adjust Ann health -8");
    assert!(matches!(e.kind, Refusal::OutOfRange { got: -1, .. }));
    refused(&mut t, "GM: adjust Bo ap +3");
    refused(&mut t, &format!("GM: adjust Bo ap +{}", i64::MAX));
    assert_eq!(t.state().heroes[0].health, 7);
    assert_eq!(t.state().heroes[1].ap, 4);
    let unknown = Tiers::parse_command(t.state(), &Seat::Gm, "adjust Zed health 1");
    assert!(unknown.unwrap_err().to_string().contains("Ann"));
    let value = Tiers::parse_command(t.state(), &Seat::Gm, "adjust Ann mana 1");
    assert!(value.unwrap_err().to_string().contains("health"));

    // Legal for the GM only.
    assert!(
        Tiers::legal_commands(t.state(), &Seat::Gm)
            .iter()
            .any(|c| c.name == "adjust")
    );
    assert!(
        !Tiers::legal_commands(t.state(), &Seat::Player("Ann".into()))
            .iter()
            .any(|c| c.name == "adjust")
    );
}

/// An `adjust` to 0 Health takes the character out as damage does: a Death
/// Roll when the table plays them, and every player at 0 loses the combat.
#[test]
fn an_adjust_to_zero_health_is_a_fall() {
    let mut t = small_table("[custom_rules]\ndeath_rolls = true\n");
    let ev = ok(&mut t, "GM: adjust Ann health 0", &[2]);
    assert!(ev.contains(&Event::FellToZero { hero: 0 }));
    assert!(ev.contains(&Event::DeathRoll {
        hero: 0,
        die: 2,
        dead: false
    }));
    assert_eq!(t.state().heroes[0].ap, 0);
    assert_eq!(
        refused(&mut t, "GM: adjust Ann ap 3").rule,
        tabula_tiers::rules::HEALTH_ZERO
    );
    let ev = ok(&mut t, "GM: adjust Bo health -10", &[4]);
    assert!(ev.contains(&Event::CombatEnded {
        outcome: Outcome::Lost,
        healed: true
    }));
    testkit::assert_replay_rebuilds(&t);
}
