//! The rulings and rules fixed in this round (R-TI-5, R-TI-8, R-TI-9, the
//! Enchanted Armor, grapples, Death Rolls, the end of combat, seats and names),
//! each on a small table written here so the dice are easy to follow.

mod common;
use common::{no, ok};

use std::path::Path;

use tabula_core::{Refusal, Seat, System, Table, TextPlay};
use tabula_tiers::Tiers;
use tabula_tiers::event::Event;
use tabula_tiers::gm::{Purchase, PurchaseError};
use tabula_tiers::rules;
use tabula_tiers::setup::SetupError;
use tabula_tiers::state::{Outcome, Target};

const LEVEL_0: &str =
    "level = 0\nstats = { strength = [3], skill = [3], support = [3], scharisma = [3] }\n";

/// Two level-0 players (PSP 24, a Normal pool of 24), in combat from the
/// Player Phase, with the house Actions Slash (melee 1d6) and Throw (ranged 1d3).
fn table(zones: &str, players: &[(&str, &str)], enemies: &str, extra: &str) -> Table<Tiers> {
    let mut text =
        format!("title = \"test\"\nstart = \"combat\"\nfirst_phase = \"player\"\n{extra}\n");
    for (name, zone) in players {
        text.push_str(&format!(
            "[[players]]\nzone = \"{zone}\"\n[players.character]\nname = \"{name}\"\n{LEVEL_0}\n"
        ));
    }
    text.push_str(zones);
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

const LINE: &str = "[[zones]]\nname = \"A\"\ntouches = [\"B\"]\n[[zones]]\nname = \"B\"\ntouches = [\"C\", \"E\"]\n[[zones]]\nname = \"C\"\ntouches = [\"D\"]\n[[zones]]\nname = \"D\"\n[[zones]]\nname = \"E\"\n";
const HALL: &str = "[[zones]]\nname = \"Hall\"\ntouches = [\"Yard\"]\n[[zones]]\nname = \"Yard\"\n";
/// Combat Points only: no Roll, so no enemy response can be paid.
const CP_ONLY: &str = "[rolls]\ncombat_points = 24\n";

fn zone_of(t: &Table<Tiers>, who: &str) -> String {
    let s = t.state();
    let i = s.hero(who).unwrap();
    s.zones.name(s.heroes[i].zone).to_string()
}

// ---- Item 10: "You cannot move through players or enemies" (R-TI-8).

/// R-TI-8: a Zone holding a standing enemy stops a player's movement; the player
/// may leave it only back to the Zone they came from, or after the enemy is
/// defeated. Other players never block movement.
#[test]
fn enemies_stop_movement_and_players_never_block() {
    let mut t = table(
        LINE,
        &[("Ann", "A"), ("Bo", "B")],
        &enemy("Gob", "Goblin", 1, "C"),
        CP_ONLY,
    );
    // Bo stands in B: Ann walks through B and into C, where the Goblin stops her.
    ok(&mut t, "Ann: move B > C", &[]);
    let e = no(&mut t, "Ann: move D");
    assert_eq!(e.rule, rules::MOVEMENT);
    assert!(e.message.contains("back to B"), "{e}");
    // Nor can anyone pass through C.
    let e = no(&mut t, "Bo: move C > D");
    assert_eq!(e.rule, rules::MOVEMENT);
    // Back to the Zone she came from is allowed.
    ok(&mut t, "Ann: move B", &[]);
    assert_eq!(zone_of(&t, "Ann"), "B");
    // The Goblin walks into B: both start the next Player Phase with it.
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: move-enemy Gob B pay=cp", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    // Ann came to B from C: she may go back there, not on to A or E.
    assert_eq!(no(&mut t, "Ann: move A").rule, rules::MOVEMENT);
    // Bo was placed in B by the table: he came from nowhere and must stay.
    assert_eq!(no(&mut t, "Bo: move E").rule, rules::MOVEMENT);
    // Once the Goblin is defeated, B is free again.
    ok(&mut t, "Bo: act Slash on Gob", &[3, 1]);
    // Combat ended (the only enemy fell); a fresh fight is not needed to check
    // movement rules, so look at the path check through legal moves instead.
    assert_eq!(t.state().outcome, Some(Outcome::Won));
}

/// R-TI-8 after the enemy falls: the Zone no longer stops anyone.
#[test]
fn a_defeated_enemy_no_longer_stops_movement() {
    let mut t = table(
        LINE,
        &[("Ann", "B"), ("Bo", "A")],
        &(enemy("Gob", "Goblin", 1, "B") + &enemy("Ogre", "Goblin Boss", 10, "D")),
        CP_ONLY,
    );
    assert_eq!(no(&mut t, "Ann: move E").rule, rules::MOVEMENT);
    ok(&mut t, "Ann: act Slash on Gob", &[2, 1]);
    ok(&mut t, "Ann: move E", &[]);
    ok(&mut t, "Bo: move B > C", &[]);
}

// ---- Item 11: grapples.

/// "Describing Rolls" (Grapple), "Enchanted Armor": a won Competing Roll against
/// the grappler frees the character from that grapple only; the ensnare holds.
#[test]
fn a_won_competing_roll_frees_from_that_grapple_only() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &(enemy("Gob", "Goblin Boss", 10, "Hall") + &enemy("Armor", "Enchanted Armor", 10, "Hall")),
        "[rolls]\nd6 = 1\nd3 = 1\ncombat_points = 8\n",
    );
    ok(&mut t, "Ann: act Slash on Armor", &[1, 1]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: ensnare Armor Ann pay=cp", &[]);
    // Gob's 1d3 [3] against Ann's 1d3 [1] + 1.
    ok(&mut t, "GM: spend Gob Grapple d3=1 on Ann", &[3, 1]);
    let ann = &t.state().heroes[0];
    assert_eq!((ann.grappled_by, ann.ensnared_by), (Some(0), Some(1)));
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "Ann: roleplay strength 1 vs Gob", &[]);
    // Ann 1d3 [3] + 1 = 4 against Gob's free 1d3 [1].
    ok(&mut t, "GM: answer", &[3, 1]);
    let ann = &t.state().heroes[0];
    assert_eq!(ann.grappled_by, None, "the won roll frees Ann from Gob");
    assert_eq!(ann.ensnared_by, Some(1), "the Armor's ensnare holds");
    assert_eq!(t.state().enemies[1].ensnaring, Some(0));
}

/// A grapple ends when the grappler leaves the character's Zone.
#[test]
fn a_grapple_ends_when_the_grappler_leaves() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &enemy("Gob", "Goblin Boss", 10, "Hall"),
        "[rolls]\nd6 = 1\nd3 = 1\ncombat_points = 8\n",
    );
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: spend Gob Grapple d3=1 on Bo", &[3, 1]);
    assert_eq!(t.state().heroes[1].grappled_by, Some(0));
    ok(&mut t, "GM: move-enemy Gob Yard pay=cp", &[]);
    assert_eq!(t.state().heroes[1].grappled_by, None);
}

// ---- Item 12: the Enchanted Armor ensnares any attacker of this round.

/// "Enchanted Armor": it may ensnare any player in its Zone who attacked it this
/// round, not only the most recent attacker.
#[test]
fn enchanted_armor_ensnares_any_attacker_this_round() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &enemy("Armor", "Enchanted Armor", 20, "Hall"),
        CP_ONLY,
    );
    ok(&mut t, "Ann: act Slash on Armor", &[1, 1]);
    ok(&mut t, "Bo: act Slash on Armor", &[1, 1]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: ensnare Armor Ann pay=cp", &[]);
    assert_eq!(t.state().heroes[0].ensnared_by, Some(0));
}

/// An attack of an earlier round does not count.
#[test]
fn enchanted_armor_forgets_attacks_of_earlier_rounds() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &enemy("Armor", "Enchanted Armor", 20, "Hall"),
        CP_ONLY,
    );
    ok(&mut t, "Ann: act Slash on Armor", &[1, 1]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    assert_eq!(
        no(&mut t, "GM: ensnare Armor Ann pay=cp").rule,
        rules::ENCHANTED_ARMOR
    );
}

// ---- Item 13: the dead take no further part.

/// "Death Rolls": a character dead from a Death Roll makes no rolls, no
/// Actions, uses no Items and takes no part in Competing Rolls.
#[test]
fn the_dead_take_no_further_part() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &enemy("Ogre", "Goblin Boss", 20, "Hall"),
        "[rolls]\nd6 = 1\ncombat_points = 12\n[custom_rules]\ndeath_rolls = true\nsuper_6 = true\n",
    );
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: spend Ogre Drain d6=1 cp=5 on Ann", &[5, 3]);
    assert!(t.state().heroes[0].dead);
    ok(&mut t, "GM: end-combat", &[]);
    // Out of combat too.
    assert_eq!(no(&mut t, "Ann: roll skill 3").rule, rules::DEATH_ROLLS);
    assert_eq!(no(&mut t, "Ann: super6").rule, rules::DEATH_ROLLS);
    assert_eq!(
        no(&mut t, "GM: compete Ann skill Bo skill").rule,
        rules::DEATH_ROLLS
    );
    assert_eq!(
        no(&mut t, "GM: compete Bo skill Ann skill").rule,
        rules::DEATH_ROLLS
    );
    assert_eq!(no(&mut t, "Ann: consent Bo").rule, rules::DEATH_ROLLS);
    assert_eq!(no(&mut t, "Bo: consent Ann").rule, rules::DEATH_ROLLS);
    // The dead have nothing to do.
    assert!(Tiers::legal_commands(t.state(), &Seat::Player("Ann".into())).is_empty());
}

// ---- Item 14: every enemy kind of the book acts as written (R-TI-9).

/// "Healer": it heals its allies, and responds to an ally's large damage by
/// healing with Combat Points: no house content needed (R-TI-9).
#[test]
fn the_books_healer_heals_with_combat_points_without_house_content() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &(enemy("Gob", "Goblin Boss", 10, "Hall") + &enemy("Medic", "Healer", 10, "Yard")),
        CP_ONLY,
    );
    ok(&mut t, "Ann: act Slash on Gob", &[6, 1]);
    assert_eq!(t.state().enemies[0].health, 4);
    // A Response, not an Action: not doubled in the Player Phase.
    let ev = ok(&mut t, "GM: spend Medic Heal cp=3 on Gob", &[]);
    assert!(ev.contains(&Event::Healed {
        target: Target::Enemy(0),
        amount: 3
    }));
    assert_eq!(t.state().rolls_left().combat_points, 21);
    // Combat Points alone answer damage only: an unhurt ally is not a response.
    assert_eq!(
        no(&mut t, "GM: spend Medic Heal cp=1 on Medic").rule,
        rules::HEALER
    );
    // A Goblin Boss has no Heal: it is the Healer's roll.
    assert_eq!(
        no(&mut t, "GM: spend Gob Heal cp=1 on Gob").rule,
        rules::SAMPLE_ENEMIES
    );
}

/// "Shadow Goblin": whenever dealt damage it spends any roll to sink into a
/// shadow (R-TI-9: its Response is built in).
#[test]
fn shadow_goblins_sink_when_dealt_damage() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &enemy("Shade", "Shadow Goblin", 10, "Hall"),
        "[rolls]\nd6 = 1\nd3 = 1\ncombat_points = 8\n",
    );
    let ev = ok(&mut t, "Ann: act Slash on Shade", &[3, 1]);
    assert!(ev.contains(&Event::Shadow { enemy: 0, on: true }), "{ev:?}");
    assert!(t.state().enemies[0].shadow);
    assert_eq!(t.state().rolls_left().d3, 0);
    assert_eq!(
        no(&mut t, "Bo: act Slash on Shade").rule,
        rules::SHADOW_GOBLIN
    );
}

/// "Goblin": when attacked it blocks (a d6 Block, if the GM has one left).
#[test]
fn goblins_block_when_attacked() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &enemy("Gob", "Goblin", 10, "Hall"),
        "[rolls]\nd6 = 1\nd3 = 1\ncombat_points = 8\n",
    );
    // The Goblin's Block 1d6 [2], then Ann's Slash 1d6 [5] and critical die [1].
    let ev = ok(&mut t, "Ann: act Slash on Gob", &[2, 5, 1]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Damaged {
            target: Target::Enemy(0),
            rolled: 5,
            prevented: 2,
            dealt: 3
        }
    )));
    // No d6 left: the next attack is not blocked.
    let ev = ok(&mut t, "Bo: act Slash on Gob", &[4, 1]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Damaged {
            prevented: 0,
            dealt: 4,
            ..
        }
    )));
}

/// "Enchanted Armor", Movement: whenever it takes damage it approaches whoever
/// most recently attacked it.
#[test]
fn enchanted_armor_approaches_whoever_attacked_it() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &enemy("Armor", "Enchanted Armor", 10, "Yard"),
        CP_ONLY,
    );
    let ev = ok(&mut t, "Ann: act Throw on Armor", &[2, 1]);
    assert!(
        ev.contains(&Event::EnemyMoved { enemy: 0, to: 0 }),
        "{ev:?}"
    );
    assert_eq!(t.state().rolls_left().combat_points, 23);
    // Having approached, it cannot ensnare in the same turn.
    assert_eq!(
        no(&mut t, "GM: ensnare Armor Ann pay=cp").rule,
        rules::ENCHANTED_ARMOR
    );
}

/// "Goblin Boss": when dealt damage it screeches at the attacker; "Enemies":
/// each kind's named rolls are built in and belong to that kind.
#[test]
fn each_kind_has_its_responses_and_named_rolls() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &(enemy("Boss", "Goblin Boss", 8, "Hall")
            + &enemy("Gob", "Goblin", 4, "Hall")
            + &enemy("Medic", "Healer", 4, "Yard")
            + &enemy("Armor", "Enchanted Armor", 4, "Yard")),
        "[rolls]\nd6 = 1\nd3 = 1\ncombat_points = 8\n",
    );
    let ev = ok(&mut t, "Ann: act Slash on Boss", &[3, 1]);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Screeched {
                enemy: 0,
                hero: Some(0)
            }
        )),
        "{ev:?}"
    );
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: spend Boss Hurl d6=1 on Ann", &[4]);
    ok(&mut t, "GM: spend Gob Claws d3=1 on Ann", &[2]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: spend Medic Weak_Attack d3=1 on Bo", &[1]);
    ok(&mut t, "GM: spend Armor Weapon d6=1 on Bo", &[1]);
    // The Healer's attacks are weak: d3s only.
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    assert_eq!(
        no(&mut t, "GM: spend Medic Weak_Attack d6=1 on Bo").rule,
        rules::DESCRIBING_ROLLS
    );
    assert_eq!(
        no(&mut t, "GM: spend Gob Hurl d3=1 on Ann").rule,
        rules::SAMPLE_ENEMIES
    );
}

// ---- Item 15: "1d3 (need 1d6)".

/// "Creating Combat": a d3 needs a d6 bought first (with R-TI-5).
#[test]
fn a_d3_needs_a_d6_bought_first() {
    let lone = Purchase {
        d6: 0,
        d3: 1,
        combat_points: 0,
    };
    assert_eq!(
        lone.validate(100),
        Err(vec![PurchaseError::NeedD6 { d3: 1 }])
    );
    // 1d6 + 2d3 alternates d3, d6, d3 and has its d6: allowed, like 2d6 + 3d3.
    for (d6, d3) in [(1, 2), (2, 3), (1, 1), (1, 0)] {
        let p = Purchase {
            d6,
            d3,
            combat_points: 0,
        };
        assert_eq!(p.validate(100), Ok(()), "{d6}d6 + {d3}d3");
    }
    let text = format!(
        "[rolls]\nd3 = 1\n[[players]]\nzone = \"Hall\"\n[players.character]\nname = \"Ann\"\n{LEVEL_0}\n{HALL}"
    );
    let Err(SetupError::Rolls(p)) = Tiers::setup(&text, Path::new(".")) else {
        panic!("1d3 alone must be refused")
    };
    assert_eq!(p, vec![PurchaseError::NeedD6 { d3: 1 }]);
}

// ---- Item 16: combat ends by itself.

/// "Combat", "Enemy Health": when every enemy is defeated the combat ends and
/// the log says so, even with Health left in the pool's reserve.
#[test]
fn combat_ends_when_every_enemy_is_defeated() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &enemy("Gob", "Goblin Boss", 2, "Hall"),
        CP_ONLY,
    );
    assert!(t.state().reserve > 0);
    let ev = ok(&mut t, "Ann: act Slash on Gob", &[3, 1]);
    let Some(
        end @ Event::CombatEnded {
            outcome: Outcome::Won,
            ..
        },
    ) = ev.last()
    else {
        panic!("{ev:?}")
    };
    let said = Tiers::describe(t.state(), end);
    assert!(said.contains("every enemy is defeated"), "{said}");
    assert_eq!(t.state().outcome, Some(Outcome::Won));
    assert!(t.state().phase().is_none());
}

// ---- Seats and names.

/// Seat discipline: a player acts only for their own character; the GM acts for
/// the NPC allies ("Phases": NPCs act in the Player Phase) and the enemies.
#[test]
fn a_player_acts_only_for_their_own_character() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../examples/tiers/table.toml"),
    )
    .unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../examples/tiers");
    let mut t = Table::new(Tiers::setup(&text, &dir).unwrap());
    let seats = Tiers::seats(t.state());
    assert_eq!(
        seats,
        vec![
            Seat::Gm,
            Seat::Player("John".into()),
            Seat::Player("Cristy".into())
        ]
    );
    ok(&mut t, "GM: fight", &[]);
    // The Goblin leaves the Street, where it stopped Steve (R-TI-8).
    ok(&mut t, "GM: move-enemy Gob Shop pay=d3", &[]);
    ok(&mut t, "GM: end-phase", &[]);
    // Steve is an NPC: the GM plays him.
    let e = no(&mut t, "Steve: move Yard");
    assert_eq!(e.kind, Refusal::NotPermitted);
    ok(&mut t, "GM: Steve move Yard", &[]);
    // The GM does not play the players' characters.
    assert_eq!(
        no(&mut t, "GM: John move Street").kind,
        Refusal::NotPermitted
    );
    // Names match without regard to case.
    ok(&mut t, "GM: steve move street", &[]);
    ok(&mut t, "john: item fast potion", &[]);
}

/// Names: control characters and ':' are refused in a table file, and an
/// unknown name lists the valid choices.
#[test]
fn names_are_checked_and_unknown_names_list_the_choices() {
    let bad = format!(
        "[[players]]\nzone = \"Hall\"\n[players.character]\nname = \"An\\u001bn\"\n{LEVEL_0}\n{HALL}"
    );
    let e = Tiers::setup(&bad, Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("control"), "{e}");
    let colon = format!(
        "[[players]]\nzone = \"Hall\"\n[players.character]\nname = \"A:nn\"\n{LEVEL_0}\n{HALL}"
    );
    let e = Tiers::setup(&colon, Path::new("."))
        .unwrap_err()
        .to_string();
    assert!(e.contains("':'"), "{e}");
    let none = format!("title = \"empty\"\n{HALL}");
    let e = Tiers::setup(&none, Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("players"), "{e}");
    let zero = format!(
        "[[players]]\nzone = \"Hall\"\n[players.character]\nname = \"Ann\"\n{LEVEL_0}\n{HALL}{}",
        enemy("Gob", "Goblin", 0, "Hall")
    );
    let e = Tiers::setup(&zero, Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("health"), "{e}");
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &enemy("Gob", "Goblin", 4, "Hall"),
        CP_ONLY,
    );
    // Unknown names are refused when the line is read, listing the names
    // that fit there.
    let unread = |t: &Table<Tiers>, line: &str| {
        let (seat, body) = common::seat_and_body(t.state(), line);
        match Tiers::parse_command(t.state(), &seat, body) {
            Err(e @ tabula_core::CommandParseError::Name(_)) => e.to_string(),
            other => panic!("{line}: {other:?}"),
        }
    };
    let e = unread(&t, "Ann: act Slash on Dragon");
    assert!(e.contains("enemy") && e.contains("Gob"), "{e}");
    let e = unread(&t, "GM: move-player Cid Yard pay=cp");
    assert!(e.contains("Ann") && e.contains("Bo"), "{e}");
    let e = unread(&t, "Ann: move Moon");
    assert!(e.contains("Yard"), "{e}");
    // A command built without the parser is refused by the rules, listing them.
    let before = t.clone();
    let cmd = tabula_tiers::command::Command::MovePlayer {
        player: "Cid".into(),
        to: "Yard".into(),
        pay: tabula_tiers::command::Pay::Cp,
    };
    let e = t
        .submit(&Seat::Gm, &cmd, &mut tabula_core::Scripted::dice([]))
        .unwrap_err();
    assert!(e.message.contains("Ann") && e.message.contains("Bo"), "{e}");
    assert!(t == before);
}

// ---- Enemy Health is the GM's in the log too (issue 27, bug 13).

/// Tiers, "Enemy Health": the GM distributes the enemies' Health, so a player
/// reads "up" or "defeated" for an enemy in `status`, `view` and the log alike;
/// the GM reads the number.
#[test]
fn enemy_health_is_the_gms_in_the_log_as_in_the_status() {
    let mut t = table(
        HALL,
        &[("Ann", "Hall"), ("Bo", "Hall")],
        &enemy("Gob", "Goblin", 10, "Hall"),
        CP_ONLY,
    );
    ok(&mut t, "Ann: act Slash on Gob", &[4, 1]);
    let ann = Seat::parse("Ann");
    let gm = Seat::parse("GM");
    let damaged = t
        .log()
        .entries()
        .iter()
        .map(|e| e.event.clone())
        .find(|e| {
            matches!(
                e,
                Event::Damaged {
                    target: Target::Enemy(0),
                    ..
                }
            )
        })
        .expect("Gob was damaged");
    let player = Tiers::describe_for(t.state(), &damaged, &ann);
    assert_eq!(player, "Gob takes 4 damage (up)");
    assert!(Tiers::status(t.state(), &ann).contains("Gob (Goblin) up"));
    let gm_line = Tiers::describe_for(t.state(), &damaged, &gm);
    assert_eq!(gm_line, "Gob takes 4 damage (Health 6)");
}
