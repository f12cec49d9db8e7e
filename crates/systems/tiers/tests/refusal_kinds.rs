//! Refusal kinds a caller can match (issue 26, item 6): each kind the book
//! uses besides `Forbidden`, reached through `Table::submit` from a text
//! command; the message and the rule cited stay as they were, and a refused
//! command changes nothing (checked by `common::give`).

mod common;
use common::{no, ok};

use std::path::{Path, PathBuf};

use tabula_core::{Refusal, Table, TextPlay};
use tabula_tiers::Tiers;
use tabula_tiers::rules;

const LEVEL_0: &str =
    "level = 0\nstats = { strength = [3], skill = [3], support = [3], scharisma = [3] }\n";
/// Combat Points only: no Roll, so no enemy response can be paid.
const CP_ONLY: &str = "[rolls]\ncombat_points = 24\n";
const HALL: &str = "[[zones]]\nname = \"Hall\"\ntouches = [\"Yard\"]\n[[zones]]\nname = \"Yard\"\n";

/// Two level-0 players (PSP 24, a Normal pool of 24) in `Hall`, in combat from
/// the Player Phase, with the house Actions Slash (melee 1d6, 2 AP) and Throw
/// (ranged 1d3, 2 AP).
fn table(enemies: &str, extra: &str) -> Table<Tiers> {
    let mut text =
        format!("title = \"kinds\"\nstart = \"combat\"\nfirst_phase = \"player\"\n{extra}\n");
    for name in ["Ann", "Bo"] {
        text.push_str(&format!(
            "[[players]]\nzone = \"Hall\"\n[players.character]\nname = \"{name}\"\n{LEVEL_0}\n"
        ));
    }
    text.push_str(HALL);
    text.push_str(enemies);
    text.push_str(
        "\n[[actions]]\nname = \"Slash\"\nstat = \"strength\"\ntier = 1\nap = 2\nd6 = 1\neffect = \"damage\"\nhouse = true\n\
         \n[[actions]]\nname = \"Throw\"\nstat = \"skill\"\ntier = 1\nap = 2\nd3 = 1\neffect = \"damage\"\nreach = \"ranged\"\nhouse = true\n",
    );
    Table::new(Tiers::setup(&text, Path::new(".")).unwrap_or_else(|e| panic!("{e}\n{text}")))
}

fn enemy(name: &str, kind: &str, health: u32, zone: &str) -> String {
    format!(
        "[[enemies]]\nname = \"{name}\"\nkind = \"{kind}\"\nhealth = {health}\nzone = \"{zone}\"\n"
    )
}

/// The example table (`examples/tiers/table.toml`).
fn example_table() -> Table<Tiers> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/tiers");
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(Tiers::setup(&text, &dir).unwrap())
}

/// "Action Points (AP)": a player with 6 AP slashes three times (2 AP each);
/// the fourth is too little AP.
#[test]
fn too_few_action_points_is_spent() {
    let mut t = table(&enemy("Gob", "Goblin Boss", 20, "Hall"), "");
    for _ in 0..3 {
        ok(&mut t, "Ann: act Slash on Gob", &[1, 1]);
    }
    let e = no(&mut t, "Ann: act Slash on Gob");
    assert!(
        matches!(&e.kind, Refusal::Spent { resource } if resource == "Action Points"),
        "{e:?}"
    );
    assert_eq!(e.rule, rules::ACTION_POINTS);
    assert_eq!(e.message, "Ann has 0 AP left, this needs 2");
}

/// "Using Rolls": a Roll used is gone until the next Enemy Phase; asking for
/// more than is left is too little of the Rolls.
#[test]
fn too_few_rolls_left_is_spent() {
    let mut t = example_table();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: move-player John Street pay=d3", &[]);
    ok(&mut t, "GM: spend Gob Bite d3=2 on John", &[1, 1]);
    let e = no(&mut t, "GM: spend Gob Bite d3=1 on John");
    assert!(
        matches!(&e.kind, Refusal::Spent { resource } if resource == "Rolls"),
        "{e:?}"
    );
    assert_eq!(e.rule, rules::USING_ROLLS);
}

/// "Enchanted Armor": Ensnare uses the Armor's movement; having moved this
/// turn (out of Ann's Zone and back), it has used it.
#[test]
fn ensnare_after_moving_is_already_used() {
    let mut t = table(&enemy("Armor", "Enchanted Armor", 20, "Hall"), CP_ONLY);
    ok(&mut t, "Ann: act Slash on Armor", &[1, 1]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: move-enemy Armor Yard pay=cp", &[]);
    ok(&mut t, "GM: move-enemy Armor Hall pay=cp", &[]);
    let e = no(&mut t, "GM: ensnare Armor Ann pay=cp");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "movement"),
        "{e:?}"
    );
    assert_eq!(e.rule, rules::ENCHANTED_ARMOR);
    assert_eq!(
        e.message,
        "Armor approached this phase and cannot ensnare in the same turn"
    );
}

/// "Actions": an Action needs at least 1 SP in its tier (R-TI-4); John has
/// none in tier 2 of Skill, where Dash is.
#[test]
fn an_action_of_a_tier_without_sp_is_not_held() {
    let mut t = example_table();
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    let e = no(&mut t, "John: act Dash on Street");
    assert!(
        matches!(&e.kind, Refusal::NotHeld { what } if what == "Action"),
        "{e:?}"
    );
    assert_eq!(e.rule.ruling, Some("R-TI-4"));
}

/// "Items": Ann carries no Potion; Bo does.
#[test]
fn an_item_not_carried_is_not_held() {
    let mut t = table(&enemy("Gob", "Goblin Boss", 20, "Hall"), "");
    let e = no(&mut t, "Ann: item Potion");
    assert!(
        matches!(&e.kind, Refusal::NotHeld { what } if what == "Item"),
        "{e:?}"
    );
    assert_eq!(e.rule, rules::ITEMS);
}

/// "Shadow Goblin": a Goblin has no shadow form to leave.
#[test]
fn a_shadow_form_the_kind_lacks_is_not_held() {
    let mut t = example_table();
    ok(&mut t, "GM: fight", &[]);
    let e = no(&mut t, "GM: emerge Gob pay=d6");
    assert!(
        matches!(&e.kind, Refusal::NotHeld { what } if what == "shadow form"),
        "{e:?}"
    );
    assert_eq!(e.rule, rules::SHADOW_GOBLIN);
}

/// "Health": an enemy at 0 Health is out of the fight; hitting it again is
/// refused for its condition. Combat Points only, so no Block answers.
#[test]
fn an_enemy_at_zero_health_is_a_condition() {
    let mut t = table(
        &(enemy("Gob", "Goblin Boss", 10, "Hall") + &enemy("Weak", "Goblin", 1, "Hall")),
        CP_ONLY,
    );
    ok(&mut t, "Ann: act Slash on Weak", &[1, 1]);
    assert_eq!(t.state().enemies[1].health, 0);
    let e = no(&mut t, "Bo: act Slash on Weak");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "0 Health"),
        "{e:?}"
    );
    assert_eq!(e.message, "Weak is already at 0 Health");
}

/// "Death Rolls" (custom rule): a dead character takes no further part.
#[test]
fn the_dead_is_a_condition() {
    let mut t = table(
        &enemy("Ogre", "Goblin Boss", 20, "Hall"),
        "[rolls]\nd6 = 1\ncombat_points = 12\n[custom_rules]\ndeath_rolls = true\n",
    );
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: spend Ogre Drain d6=1 cp=5 on Ann", &[5, 3]);
    assert!(t.state().heroes[0].dead);
    ok(&mut t, "GM: end-combat", &[]);
    let e = no(&mut t, "Ann: roll skill 3");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "dead"),
        "{e:?}"
    );
    assert_eq!(e.rule, rules::DEATH_ROLLS);
}

/// "Enchanted Armor": an ensnared player cannot move away from it.
#[test]
fn an_ensnared_player_cannot_move_a_condition() {
    let mut t = table(&enemy("Armor", "Enchanted Armor", 20, "Hall"), CP_ONLY);
    ok(&mut t, "Ann: act Slash on Armor", &[1, 1]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: ensnare Armor Ann pay=cp", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    let e = no(&mut t, "Ann: move Yard");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "ensnared"),
        "{e:?}"
    );
    assert_eq!(e.message, "Ann is ensnared and cannot move away");
}

/// "Describing Rolls" (Grapple): a grappled player cannot move away.
#[test]
fn a_grappled_player_cannot_move_a_condition() {
    let mut t = table(
        &enemy("Gob", "Goblin Boss", 10, "Hall"),
        "[rolls]\nd6 = 1\nd3 = 1\ncombat_points = 8\n",
    );
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: spend Gob Grapple d3=1 on Bo", &[3, 1]);
    assert_eq!(t.state().heroes[1].grappled_by, Some(0));
    ok(&mut t, "GM: end-phase", &[]);
    let e = no(&mut t, "Bo: move Yard");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "grappled"),
        "{e:?}"
    );
    assert_eq!(e.message, "Bo is grappled and cannot move away");
}
