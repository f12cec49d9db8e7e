//! The GM's tools mid-encounter (issue 27, item 6): `add` a character as an
//! NPC ally, `remove` an NPC ally or an enemy, and `adjust` the enemies'
//! shared Health (an enemy's Health, the pool's reserve), through commands in
//! the log. Every refusal names its rule and changes nothing; replaying the
//! log rebuilds the same table.

mod common;

use common::{example_state, give, no, ok};
use tabula_core::testkit;
use tabula_core::{Refusal, Scripted, Seat, System, Table, TextPlay};
use tabula_tiers::Tiers;
use tabula_tiers::command::Command;
use tabula_tiers::event::Event;
use tabula_tiers::gm::{BUNDLED_SHEETS, addable, bundled_characters};
use tabula_tiers::rules;
use tabula_tiers::state::{Outcome, Target};

fn table() -> Table<Tiers> {
    Table::new(example_state(false))
}

fn in_combat() -> Table<Tiers> {
    let mut t = table();
    ok(&mut t, "GM: fight", &[]);
    t
}

fn sheet_names(t: &Table<Tiers>, seat: &Seat) -> Vec<String> {
    Tiers::sheet_doc(t.state(), seat)
        .characters
        .iter()
        .map(|c| c.name.clone())
        .collect()
}

fn legal(t: &Table<Tiers>, seat: &Seat, name: &str) -> Option<tabula_core::CommandSpec> {
    Tiers::legal_commands(t.state(), seat)
        .into_iter()
        .find(|c| c.name == name)
}

fn options(spec: &tabula_core::CommandSpec, param: &str) -> Vec<String> {
    spec.params
        .iter()
        .find(|p| p.name == param)
        .map(|p| match &p.kind {
            tabula_core::ParamKind::Choice { options }
            | tabula_core::ParamKind::ChoiceOrSheet { options } => options.clone(),
            _ => Vec::new(),
        })
        .unwrap_or_default()
}

/// Every bundled sheet reads (they are compiled into the crate).
#[test]
fn the_bundled_sheets_all_read() {
    let names: Vec<String> = bundled_characters()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    assert_eq!(names.len(), BUNDLED_SHEETS.len());
    assert_eq!(
        names,
        [
            "John",
            "Cristy",
            "Steve",
            "Prologue",
            "Even Steven",
            "Brawn"
        ]
    );
    // The table's own characters come first, then the bundled sheets not
    // already at the table.
    let s = example_state(false);
    let kinds: Vec<String> = addable(&s).iter().map(|c| c.name().to_string()).collect();
    assert_eq!(
        kinds,
        [
            "John",
            "Cristy",
            "Steve",
            "Prologue",
            "Even Steven",
            "Brawn"
        ]
    );
}

/// "Phases": an NPC joining combat acts in the Player Phase. The newcomer
/// comes with its whole sheet in the event, a taken name becomes "NAME 2", it
/// is in `sheet_doc` for every seat, the GM plays it, and it can act.
#[test]
fn an_added_ally_appears_on_the_sheets_and_can_act() {
    let mut t = in_combat();
    let spec = legal(&t, &Seat::Gm, "add").expect("add is legal in combat");
    assert!(options(&spec, "character").contains(&"Even_Steven".to_string()));
    assert_eq!(
        spec.params
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["character", "as", "at"]
    );
    assert!(options(&spec, "at").contains(&"Yard".to_string()));
    assert!(legal(&t, &Seat::Player("John".into()), "add").is_none());

    let ev = ok(&mut t, "GM: add John", &[]);
    let [Event::Joined { hero }] = ev.as_slice() else {
        panic!("{ev:?}")
    };
    assert_eq!(hero.name(), "John 2");
    assert!(hero.ally && hero.joined && !hero.left);
    assert_eq!(hero.ap, 6);
    assert_eq!(hero.health, hero.max_health);
    let shop = t.state().zone("Shop").unwrap();
    assert_eq!(hero.zone, shop, "joins where the first player stands");
    assert_eq!(t.state().heroes.len(), 4);
    assert_eq!(
        t.state().psp,
        example_state(false).psp,
        "no part of the PSP"
    );

    // A bundled sheet under a name of the GM's, in a Zone of the GM's.
    ok(&mut t, "GM: add Prologue as Pro at Yard", &[]);
    let pro = &t.state().heroes[4];
    assert_eq!(pro.name(), "Pro");
    assert_eq!(pro.zone, t.state().zone("Yard").unwrap());
    assert_eq!(pro.max_health, 10);
    // A name already at the table (an enemy's too) gets a number.
    ok(&mut t, "GM: add Cristy as Gob", &[]);
    assert_eq!(t.state().heroes[5].name(), "Gob 2");

    for seat in [Seat::Gm, Seat::Player("Cristy".into())] {
        let names = sheet_names(&t, &seat);
        for n in ["John 2", "Pro", "Gob 2"] {
            assert!(names.contains(&n.to_string()), "{seat}: {names:?}");
        }
    }
    // No seat of its own: the GM plays it.
    assert_eq!(Tiers::seats(t.state()).len(), 3);
    assert!(
        Tiers::legal_commands(t.state(), &Seat::Gm)
            .iter()
            .any(|c| c.name.starts_with("John_2 "))
    );

    ok(&mut t, "GM: end-phase", &[]);
    let ev = ok(&mut t, "GM: John_2 move Street", &[]);
    assert!(ev.contains(&Event::HeroMoved {
        hero: 3,
        path: vec![t.state().zone("Street").unwrap()],
    }));
    assert_eq!(t.state().heroes[3].ap, 5);

    // Replaying the log needs no file and rebuilds the same table.
    testkit::assert_replay_rebuilds(&t);
}

/// `remove`: an NPC ally or an enemy leaves; it is no longer on the sheets,
/// among the names the parser reads or the legal commands, and indices stay.
#[test]
fn the_gm_removes_an_ally_and_an_enemy() {
    let mut t = in_combat();
    let spec = legal(&t, &Seat::Gm, "remove").expect("remove is legal in combat");
    assert_eq!(
        options(&spec, "character"),
        ["Steve", "Gob", "Shade", "Armor", "Medic"]
    );

    let ev = ok(&mut t, "GM: remove Steve", &[]);
    assert_eq!(
        ev,
        vec![Event::Left {
            target: Target::Hero(2)
        }]
    );
    assert!(t.state().heroes[2].left, "the index stays taken");
    assert!(!sheet_names(&t, &Seat::Gm).contains(&"Steve".to_string()));
    assert!(
        !Tiers::legal_commands(t.state(), &Seat::Gm)
            .iter()
            .any(|c| c.name.starts_with("Steve "))
    );
    assert!(Tiers::parse_command(t.state(), &Seat::Gm, "Steve move Yard").is_err());
    assert_eq!(
        Tiers::describe(t.state(), &ev[0]),
        "Steve leaves the encounter"
    );

    let ev = ok(&mut t, "GM: remove Gob", &[]);
    assert_eq!(
        ev,
        vec![Event::Left {
            target: Target::Enemy(0)
        }]
    );
    assert!(!t.state().enemies[0].standing());
    assert!(!sheet_names(&t, &Seat::Player("John".into())).contains(&"Gob".to_string()));
    // Gob stood in the Street: it no longer stops movement there (R-TI-8).
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "John: move Street > Yard", &[]);

    // The last enemies leave: no enemy stands, the combat ends, won.
    ok(&mut t, "GM: remove Shade", &[]);
    ok(&mut t, "GM: remove Armor", &[]);
    let ev = ok(&mut t, "GM: remove Medic", &[]);
    assert!(ev.contains(&Event::CombatEnded {
        outcome: Outcome::Won,
        healed: true
    }));
    // A table with nobody standing cannot `fight` again.
    assert_eq!(no(&mut t, "GM: fight").rule, rules::ENEMY_HEALTH);

    testkit::assert_replay_rebuilds(&t);
}

/// Refusals name their kind and rule and change nothing: a player's seat, a
/// player's character, an unknown name, outside combat.
#[test]
fn refusals_of_add_and_remove_change_nothing() {
    let mut t = table();
    // Outside an encounter (combat).
    let e = no(&mut t, "GM: remove Steve");
    assert_eq!((e.kind, e.rule), (Refusal::WrongPhase, rules::PHASES));
    let e = no(&mut t, "GM: add John");
    assert_eq!(e.kind, Refusal::WrongPhase);
    assert!(legal(&t, &Seat::Gm, "remove").is_none());
    assert!(legal(&t, &Seat::Gm, "add").is_none());

    ok(&mut t, "GM: fight", &[]);
    // A player's seat.
    let e = no(&mut t, "John: remove Steve");
    assert_eq!((e.kind, e.rule), (Refusal::NotPermitted, rules::SEATS));
    let e = no(&mut t, "Cristy: add Prologue");
    assert_eq!(e.kind, Refusal::NotPermitted);
    // A player's character.
    let e = no(&mut t, "GM: remove John");
    assert_eq!((e.kind, e.rule), (Refusal::NotPermitted, rules::GM_TOOLS));
    assert!(e.message.contains("player's character"), "{}", e.message);
    // Unknown names, as a command built without the parser.
    let before = t.clone();
    let mut r = Scripted::dice([]);
    for cmd in [
        Command::Remove {
            character: "Zed".into(),
        },
        Command::Add {
            sheet: None,
            kind: "Zed".into(),
            name: None,
            zone: None,
        },
        Command::Add {
            sheet: None,
            kind: "John".into(),
            name: None,
            zone: Some("Moon".into()),
        },
        Command::Add {
            sheet: None,
            kind: "John".into(),
            name: Some("help".into()),
            zone: None,
        },
        Command::Add {
            sheet: None,
            kind: "John".into(),
            name: Some("a:b".into()),
            zone: None,
        },
    ] {
        let e = Tiers::decide(t.state(), &Seat::Gm, &cmd, &mut r).expect_err("refused");
        assert!(
            matches!(e.kind, Refusal::Unknown { .. } | Refusal::Forbidden),
            "{cmd:?}: {e:?}"
        );
    }
    let e = Tiers::decide(
        t.state(),
        &Seat::Gm,
        &Command::Remove {
            character: "Zed".into(),
        },
        &mut r,
    )
    .unwrap_err();
    assert_eq!(e.rule, rules::GM_TOOLS);
    assert!(e.message.contains("Steve") && e.message.contains("Gob"));
    assert!(t == before);
    // The parser lists the names too.
    let e = Tiers::parse_command(t.state(), &Seat::Gm, "add Zed").unwrap_err();
    assert!(e.to_string().contains("Prologue"), "{e}");
    // Once gone, a name is unknown.
    ok(&mut t, "GM: remove Steve", &[]);
    assert!(Tiers::parse_command(t.state(), &Seat::Gm, "remove Steve").is_err());
    let e = Tiers::decide(
        t.state(),
        &Seat::Gm,
        &Command::Remove {
            character: "Steve".into(),
        },
        &mut r,
    )
    .unwrap_err();
    assert!(matches!(e.kind, Refusal::Unknown { .. }));
}

/// `adjust` of the enemies' shared Health ("Enemy Health"): an enemy's Health
/// to and from the pool's reserve, and the reserve itself; the GM's numbers
/// never reach a player (log line, event copy, refusal).
#[test]
fn the_gm_adjusts_the_enemies_shared_health() {
    let mut t = in_combat();
    let (pool, reserve) = (t.state().health_pool, t.state().reserve);
    assert_eq!(reserve, 2);
    let spec = legal(&t, &Seat::Gm, "adjust").unwrap();
    let who = options(&spec, "character");
    assert!(who.contains(&"Gob".to_string()) && who.contains(&"reserve".to_string()));

    // Gob 5 -> 3: 2 go back to the reserve.
    let ev = ok(&mut t, "GM: adjust Gob health -2", &[]);
    assert_eq!(
        ev,
        vec![Event::EnemyAdjusted {
            enemy: 0,
            from: 5,
            to: 3
        }]
    );
    assert_eq!((t.state().enemies[0].health, t.state().reserve), (3, 4));
    let john = Seat::Player("John".into());
    let line = Tiers::describe_for(t.state(), &ev[0], &john);
    assert_eq!(line, "The GM adjusts Gob's Health (up)");
    assert!(Tiers::event_for(t.state(), &ev[0], &john).is_none());
    assert!(Tiers::describe_for(t.state(), &ev[0], &Seat::Gm).contains("to 3 (was 5"));

    // At most its Health plus the reserve.
    let e = no(&mut t, "GM: adjust Gob health 8");
    assert_eq!(e.rule, rules::ENEMY_HEALTH);
    assert!(matches!(e.kind, Refusal::OutOfRange { max: 7, got: 8, .. }));
    ok(&mut t, "GM: adjust Gob health 7", &[]);
    assert_eq!((t.state().enemies[0].health, t.state().reserve), (7, 0));
    // Enemies have no AP.
    assert_eq!(no(&mut t, "GM: adjust Gob ap 1").rule, rules::ENEMY_HEALTH);

    // The reserve: the pool grows as much.
    let ev = ok(&mut t, "GM: adjust reserve +10", &[]);
    assert_eq!(ev, vec![Event::ReserveAdjusted { from: 0, to: 10 }]);
    assert_eq!(t.state().reserve, 10);
    assert_eq!(t.state().health_pool, pool + 10);
    assert_eq!(
        Tiers::describe_for(t.state(), &ev[0], &john),
        "The GM adjusts the enemies' Health pool"
    );
    assert!(Tiers::event_for(t.state(), &ev[0], &john).is_none());
    ok(&mut t, "GM: adjust reserve health -4", &[]);
    assert_eq!(t.state().reserve, 6);
    no(&mut t, "GM: adjust reserve -7");

    // A player may not, and the refusal gives no number.
    let e = no(&mut t, "John: adjust Gob health 1");
    assert_eq!(e.kind, Refusal::NotPermitted);
    assert!(
        !e.message.chars().any(|c| c.is_ascii_digit()),
        "{}",
        e.message
    );
    let e = no(&mut t, "John: adjust reserve 1");
    assert!(
        !e.message.chars().any(|c| c.is_ascii_digit()),
        "{}",
        e.message
    );

    // 0 Health defeats the enemy as damage does; every enemy down ends it.
    let ev = ok(&mut t, "GM: adjust Gob health 0", &[]);
    assert!(ev.contains(&Event::EnemyDefeated { enemy: 0 }));
    assert_eq!(t.state().reserve, 13);
    for e in ["Shade", "Armor", "Medic"] {
        give(&mut t, &format!("GM: adjust {e} health 0"), &[]).unwrap();
    }
    assert_eq!(t.state().outcome, Some(Outcome::Won));

    testkit::assert_replay_rebuilds(&t);
}
