//! Custom rules as table options, Items, the sample enemies' special rules and
//! the GM's roll uses, at the table.

mod common;
use common::{no, ok};

use std::path::PathBuf;

use tabula_core::{Refusal, Table, TextPlay};
use tabula_tiers::Tiers;
use tabula_tiers::event::Event;
use tabula_tiers::rules;
use tabula_tiers::setup::SetupError;
use tabula_tiers::state::Target;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/tiers")
}

fn table_with(replace: &[(&str, &str)]) -> Result<Table<Tiers>, SetupError> {
    let mut text = std::fs::read_to_string(examples().join("table.toml")).unwrap();
    for (a, b) in replace {
        assert!(text.contains(a), "{a}");
        text = text.replace(a, b);
    }
    Tiers::setup(&text, &examples()).map(Table::new)
}

fn table() -> Table<Tiers> {
    table_with(&[]).unwrap()
}

const COVER_ON: (&str, &str) = (
    "[custom_rules]\ncover = true",
    "[custom_rules]\ncover = true\nsuper_6 = true\nresting = true",
);

#[test]
fn super_6_needs_both_sixes_and_the_option() {
    let mut t = table();
    assert_eq!(no(&mut t, "John: super6").rule, rules::SUPER_6);
    let mut t = table_with(&[COVER_ON]).unwrap();
    assert!(
        ok(&mut t, "John: super6", &[6, 5]).contains(&Event::Super6 {
            hero: 0,
            dice: [6, 5],
            success: false
        })
    );
    assert!(
        ok(&mut t, "John: super6", &[6, 6]).contains(&Event::Super6 {
            hero: 0,
            dice: [6, 6],
            success: true
        })
    );
}

/// "Resting": no heal after combat; 1d6 per hour of rest.
#[test]
fn resting_heals_by_the_hour_instead_of_after_combat() {
    let mut t = table_with(&[COVER_ON]).unwrap();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: spend Gob Bite d3=3 on John", &[3, 3, 3]);
    let ev = ok(&mut t, "GM: end-combat", &[]);
    assert!(matches!(
        ev.last(),
        Some(Event::CombatEnded { healed: false, .. })
    ));
    assert_eq!(t.state().heroes[0].health, 16);
    assert_eq!(
        no(&mut t, "John: rest 25").kind,
        Refusal::OutOfRange {
            field: "hours".into(),
            min: 1,
            max: 24,
            got: 25
        }
    );
    ok(&mut t, "John: rest 2", &[4, 6]);
    assert_eq!(t.state().heroes[0].health, 25);
    ok(&mut t, "John: rest 1", &[3]);
    assert_eq!(t.state().heroes[0].health, 25);
}

/// "Weighted Inventory": 1 Item per SP in Strength.
#[test]
fn weighted_inventory_is_checked_at_setup() {
    let r = table_with(&[(
        "[custom_rules]\ncover = true",
        "[custom_rules]\nweighted_inventory = true",
    )]);
    assert!(r.is_ok(), "John has 7 SP in Strength and 4 Items");
    let heavy = std::fs::read_to_string(examples().join("table.toml"))
        .unwrap()
        .replace(
            "[custom_rules]\ncover = true",
            "[custom_rules]\nweighted_inventory = true",
        );
    let heavy = heavy.replace(
        "file = \"steve.toml\"",
        "character = { name = \"Packer\", level = 0, items = [\"a\", \"b\", \"c\", \"d\"], stats = { strength = [3], skill = [3], support = [3], scharisma = [3] } }",
    );
    assert!(matches!(
        Tiers::setup(&heavy, &examples()),
        Err(SetupError::Weighted {
            items: 4,
            strength: 3,
            ..
        })
    ));
}

/// "Cover": a Competing RP-Roll before the Action hits.
#[test]
fn cover_needs_a_won_competing_roll() {
    let mut t = table();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    // Cristy (Skill +2) throws at the hidden Healer: 1d3 [1] + 2 = 3 vs 1d3 [3]: a tie, a miss.
    let ev = ok(&mut t, "Cristy: act Throw Knife on Medic cover", &[1, 3]);
    assert!(!ev.iter().any(|e| matches!(e, Event::Damaged { .. })));
    assert_eq!(t.state().heroes[1].ap, 4);
    // 1d3 [2] + 2 = 4 vs [1]: hit, 2d3 [2, 2], critical [1].
    let ev = ok(
        &mut t,
        "Cristy: act Throw Knife on Medic cover",
        &[2, 1, 2, 2, 1],
    );
    assert!(ev.iter().any(|e| matches!(e, Event::EnemyDefeated { .. })));
    let mut plain = table_with(&[("[custom_rules]\ncover = true", "[custom_rules]")]).unwrap();
    ok(&mut plain, "GM: fight", &[]);
    ok(&mut plain, "GM: end-phase", &[]);
    assert_eq!(
        no(&mut plain, "Cristy: act Throw Knife on Medic cover").rule,
        rules::COVER
    );
}

/// "Sample Items": the Slow Shield heals above the maximum, up to 10 above.
#[test]
fn slow_shield_overheals_up_to_ten() {
    let mut t = table();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "Cristy: item Slow Shield", &[]);
    assert_eq!(t.state().heroes[1].health, 40);
    assert_eq!(t.state().heroes[1].ap, 3);
    ok(&mut t, "Cristy: item Potion", &[]);
    assert_eq!(t.state().heroes[1].health, 40);
}

/// "Sample Items": the Turret deals the owner's level to an enemy entering its Zone.
#[test]
fn turret_fires_at_enemies_entering_its_zone() {
    let mut t = table();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "John: item Turret", &[]);
    assert_eq!(t.state().heroes[0].ap, 2);
    ok(&mut t, "GM: end-phase", &[]);
    let ev = ok(&mut t, "GM: move-enemy Gob Shop pay=d3", &[]);
    assert!(ev.contains(&Event::TurretFired {
        turret: 0,
        enemy: 0
    }));
    assert_eq!(t.state().enemies[0].health, 4);
}

/// "Shadow Goblin": in shadow form it can move but cannot receive or deal damage.
#[test]
fn shadow_form() {
    let mut t = table();
    ok(&mut t, "GM: fight", &[]);
    assert_eq!(no(&mut t, "GM: sink Gob pay=d3").rule, rules::SHADOW_GOBLIN);
    // It sinks by itself when dealt damage, not at the GM's word (R-TI-9).
    assert_eq!(
        no(&mut t, "GM: sink Shade pay=d6").rule,
        rules::SHADOW_GOBLIN
    );
    ok(&mut t, "GM: end-phase", &[]);
    // Cristy's knife: 2d3 [1, 1], critical [1]; the Shade sinks for a d3.
    let ev = ok(&mut t, "Cristy: act Throw Knife on Shade", &[1, 1, 1]);
    assert!(ev.contains(&Event::Shadow { enemy: 1, on: true }));
    assert_eq!(t.state().rolls_left().d3, 2);
    assert_eq!(
        no(&mut t, "GM: spend Shade Bite d3=1 on Steve").rule,
        rules::SHADOW_GOBLIN
    );
    // It can move (doubled in the Player Phase: 2d3).
    ok(&mut t, "GM: move-enemy Shade Street pay=d3", &[]);
    assert_eq!(
        no(&mut t, "Cristy: act Throw Knife on Shade").rule,
        rules::SHADOW_GOBLIN
    );
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: emerge Shade pay=d3", &[]);
    ok(&mut t, "GM: spend Shade Bite d3=1 on Steve", &[2]);
    ok(&mut t, "GM: end-phase", &[]);
    // Sinks again on the next hit (the last d3); leaving the shadow in the
    // Player Phase is an Action: doubled, 2d6.
    ok(&mut t, "Cristy: act Throw Knife on Shade", &[1, 1, 1]);
    assert!(t.state().enemies[1].shadow);
    ok(&mut t, "GM: emerge Shade pay=d6", &[]);
    assert_eq!(t.state().rolls_left().d6, 0);
}

/// "Enchanted Armor": ensnare a player who attacked it, in its Zone, not after
/// moving; the ensnared player can still hit it but not move or heal others;
/// Absorb heals it and deals half; defeat frees the player.
#[test]
fn enchanted_armor() {
    let mut t = table();
    ok(&mut t, "GM: fight", &[]);
    // The Goblin leaves the Street, where it stopped Steve (R-TI-8).
    ok(&mut t, "GM: move-enemy Gob Shop pay=d3", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: Steve move Yard", &[]);
    ok(&mut t, "GM: Steve act Slash on Armor", &[1, 1]);
    ok(&mut t, "GM: end-phase", &[]);
    assert_eq!(
        no(&mut t, "GM: ensnare Armor John").rule,
        rules::ENCHANTED_ARMOR
    );
    ok(&mut t, "GM: ensnare Armor Steve pay=d3", &[]);
    assert_eq!(
        no(&mut t, "GM: move-enemy Armor Street pay=d3").rule,
        rules::ENCHANTED_ARMOR
    );
    let ev = ok(&mut t, "GM: absorb Armor d6=1", &[3]);
    assert!(ev.contains(&Event::Healed {
        target: Target::Enemy(2),
        amount: 1
    }));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Damaged {
            target: Target::Hero(2),
            dealt: 2,
            ..
        }
    )));
    ok(&mut t, "GM: end-phase", &[]);
    assert_eq!(
        no(&mut t, "GM: Steve move Street").rule,
        rules::ENCHANTED_ARMOR
    );
    ok(&mut t, "GM: Steve act Slash on Armor", &[3, 1]);
    assert!(t.state().heroes[2].ensnared_by.is_none());
    ok(&mut t, "GM: Steve move Street", &[]);
}

/// "Describing Rolls": Grapple, Shove (Xd3 + X CP), Drain, Fireball, Block; the
/// Healer heals with Combat Points alone.
#[test]
fn the_books_roll_uses() {
    let mut t = table_with(&[("combat_points = 0", "combat_points = 0\n")]).unwrap();
    ok(&mut t, "GM: fight", &[]);
    // Grapple: Gob (Street) grapples Steve (Street): 1d3 [3] vs Steve 1d3 [1] + 2.
    ok(&mut t, "GM: spend Gob Grapple d3=1 on Steve", &[3, 1]);
    assert!(t.state().heroes[2].grappled_by.is_none());
    ok(&mut t, "GM: spend Gob Grapple d3=1 on Steve", &[3, 1]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: spend Gob Grapple d3=2 on Steve", &[3, 3, 1]);
    assert_eq!(t.state().heroes[2].grappled_by, Some(0));
    ok(&mut t, "GM: end-phase", &[]);
    assert_eq!(
        no(&mut t, "GM: Steve move Yard").rule,
        rules::DESCRIBING_ROLLS
    );
    ok(&mut t, "GM: end-phase", &[]);
    // Shove needs as many CP as d3; this table bought none.
    assert_eq!(
        no(&mut t, "GM: spend Gob Shove d3=1 on Steve to=Yard").rule,
        rules::DESCRIBING_ROLLS
    );
    assert_eq!(
        no(&mut t, "GM: spend Gob Shove d3=1 cp=1 on Steve to=Yard").rule,
        rules::USING_ROLLS
    );
    // Drain: 1d6 damage, 1d6 heal (Gob is at full Health: heals 0).
    let ev = ok(&mut t, "GM: spend Gob Drain d6=1 heal=1 on John", &[4, 2]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Damaged {
            target: Target::Hero(0),
            dealt: 4,
            ..
        }
    )));
    assert_eq!(
        no(&mut t, "GM: spend Gob Bite d6=1 on John").rule,
        rules::DESCRIBING_ROLLS
    );
}

#[test]
fn fireball_divides_and_rounds_up() {
    let mut t = table();
    ok(&mut t, "GM: fight", &[]);
    let ev = ok(&mut t, "GM: spend Gob Fireball d6=1 on Shop", &[5]);
    let dealt: Vec<u32> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { dealt, .. } => Some(*dealt),
            _ => None,
        })
        .collect();
    assert_eq!(dealt, vec![3, 3]);
}

/// "Healer": it heals its allies with its Heal (an Action: doubled in the
/// Player Phase), and responds to an ally's damage with Combat Points alone (a
/// Response: not doubled). R-TI-9.
#[test]
fn healer_heals_with_combat_points() {
    let mut t = table_with(&[(
        "d6 = 2\nd3 = 3\ncombat_points = 0",
        "d6 = 2\nd3 = 2\ncombat_points = 4",
    )])
    .unwrap();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: spend Gob Bite d3=1 on Steve", &[1]);
    ok(&mut t, "GM: end-phase", &[]);
    // The Goblin blocks 1d6 [1]; Steve's Slash 1d6 [4] deals 3.
    ok(&mut t, "GM: Steve act Slash on Gob", &[1, 4, 1]);
    assert_eq!(t.state().enemies[0].health, 2);
    ok(&mut t, "GM: spend Medic Heal cp=1 on Gob", &[]);
    assert_eq!(t.state().enemies[0].health, 3);
    assert_eq!(t.state().rolls_left().combat_points, 3);
    // The Heal with a Roll is an Action: 1d3 costs 2d3 now, and 1 is left.
    assert_eq!(
        no(&mut t, "GM: spend Medic Heal d3=1 on Gob").rule,
        rules::USING_ROLLS
    );
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: spend Medic Heal d3=1 on Gob", &[2]);
    assert_eq!(t.state().enemies[0].health, 5);
    assert_eq!(t.state().rolls_left().d3, 1);
}

/// Block (an enemy's) and a house reduction Action (a player's) each soak the
/// next damage once; a Goblin blocks when attacked (R-TI-9); a movement Action
/// moves up to its roll, past players but not through a standing enemy (R-TI-8).
#[test]
fn block_reduction_and_a_movement_action() {
    let mut t = table();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: spend Gob Block d6=1", &[4]);
    ok(&mut t, "John: act Shield Up", &[2]);
    ok(&mut t, "GM: spend Gob Bite d3=2 on John", &[3, 2]);
    assert_eq!(t.state().heroes[0].health, 22);
    assert_eq!(t.state().heroes[0].reduction, 0);
    ok(&mut t, "GM: end-phase", &[]);
    // Dash (Skill tier 2, flat 2): Cristy may end in the Street with the Goblin.
    ok(&mut t, "Cristy: act Dash on Street", &[]);
    // Its Block soaks 4 of the first Slash.
    ok(&mut t, "Cristy: act Slash on Gob", &[5, 2]);
    assert_eq!(t.state().enemies[0].health, 4);
    // "When a goblin is attacked, they will block": a d6 is left, so it blocks
    // 1d6 [1] before Cristy's 1d6 [5] lands.
    ok(&mut t, "Cristy: act Slash on Gob", &[1, 5, 2]);
    assert_eq!(t.state().enemies[0].health, 0);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: move-player Cristy Shop pay=d3", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    // Steve stands in the Street: players never block (R-TI-8).
    ok(&mut t, "Cristy: act Dash on Alley", &[]);
    // The Shadow Goblin stands in the Alley: out only the way she came.
    assert_eq!(no(&mut t, "Cristy: act Dash on Roof").rule, rules::MOVEMENT);
    ok(&mut t, "Cristy: act Dash on Street", &[]);
}

/// "Ties": a table whose GM has ties rolled again gets another Roll at once.
#[test]
fn ties_roll_again_when_the_table_says_so() {
    let mut t = table_with(&[("tie = \"nothing-happens\"", "tie = \"roll-again\"")]).unwrap();
    let ev = ok(
        &mut t,
        "GM: compete John strength Cristy strength",
        &[1, 1, 4, 2],
    );
    let results: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Contested { result, .. } => Some(*result),
            _ => None,
        })
        .collect();
    use tabula_tiers::roleplay::{ContestResult, TieRule};
    assert_eq!(
        results,
        vec![ContestResult::Tie(TieRule::RollAgain), ContestResult::First]
    );
}
