//! Shared helpers for the opposition tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use tabula_bastards::Bastards;
use tabula_bastards::character::{Character, CharacterDraft, Weapon};
use tabula_bastards::command::Command;
use tabula_bastards::state::{Body, Combatant, Phase, State, Status};
use tabula_core::cards::Shoe;
use tabula_core::roller::{Roller, Scripted};
use tabula_core::rule::RuleError;
use tabula_core::system::{CommandParseError, Seat, Table, TextPlay};

/// Advantages that change nothing in these tests (Grapple Combat damage, Acrobat's
/// Skill Checks), used to fill a sheet up to its two starting Advantages (R-GB-8).
const FILLERS: [&str; 2] = ["Grappler", "Acrobat"];

/// A legal starting draft: Clubs (Body 2), Unarmed Combat 2, with `advantages`
/// (filled up to the two every character starts with, R-GB-8, with [`FILLERS`]).
pub fn draft(name: &str, player: &str, advantages: &[&str]) -> CharacterDraft {
    let mut advantages: Vec<String> = advantages.iter().map(|s| s.to_string()).collect();
    for f in FILLERS {
        if advantages.len() < 2 && !advantages.iter().any(|a| a == f) {
            advantages.push(f.to_string());
        }
    }
    CharacterDraft {
        name: name.into(),
        player: player.into(),
        suit: "Clubs".into(),
        body: 2,
        spirit: 1,
        mind: 1,
        luck: 1,
        skills: BTreeMap::from([("Unarmed Combat".to_string(), 2)]),
        custom_skills: vec![],
        specialties: vec![],
        advantages,
        disadvantages: vec![],
        earned_xp: 20,
        wildcards: 0,
        pools: Default::default(),
        weapons: vec![],
        armour: None,
    }
}

pub fn fated(d: CharacterDraft) -> Combatant {
    let c = Character::from_draft(d).unwrap();
    let pools = [
        c.pool_max(tabula_bastards::character::Trait::Body),
        c.pool_max(tabula_bastards::character::Trait::Spirit),
        c.pool_max(tabula_bastards::character::Trait::Mind),
        c.pool_max(tabula_bastards::character::Trait::Luck),
    ];
    let seat = if c.player().is_empty() {
        Seat::Gm
    } else {
        Seat::Player(c.player().into())
    };
    let mut weapons = c.weapons().to_vec();
    let wielding = if weapons.is_empty() {
        vec![]
    } else {
        vec![weapons.remove(0)]
    };
    Combatant {
        name: c.name().into(),
        controller: seat,
        wildcards: c.wildcards(),
        body: Body::Fated {
            character: Box::new(c),
            pools,
            desperate: false,
        },
        hand: vec![],
        initiative: None,
        knocked_out: false,
        present: true,
        wielding,
        carried: weapons,
        status: Status::default(),
        removed: false,
        added: false,
    }
}

pub fn weapon(name: &str, damage: i64, skill: &str) -> Weapon {
    Weapon {
        name: name.into(),
        damage,
        skill: skill.into(),
        melee: true,
        ready: true,
    }
}

pub fn state(combatants: Vec<Combatant>) -> State {
    State {
        title: "test".into(),
        shoe: Shoe::new(2, true).unwrap(),
        combatants,
        phase: Phase::Scene,
        round: 0,
        order: vec![],
        turn: 0,
        dealer_wildcards: 0,
        distance: None,
        karmic_shuffle: false,
        indirect: false,
        finished: false,
        ground: vec![],
        loaded: vec![],
    }
}

/// Split `seat: command` (or the default seat) and read the command against
/// the table as it stands.
pub fn parse(t: &Table<Bastards>, line: &str) -> (Seat, Result<Command, CommandParseError>) {
    let (seat, body) = match line.split_once(':') {
        Some((s, rest)) => (Seat::parse(s), rest.trim()),
        None => (Bastards::default_seat(t.state()), line),
    };
    let cmd = Bastards::parse_command(t.state(), &seat, body);
    (seat, cmd)
}

/// Split `seat: command` (or the default seat) and submit; a line that does
/// not parse panics.
pub fn submit(
    t: &mut Table<Bastards>,
    line: &str,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let (seat, cmd) = parse(t, line);
    let cmd = cmd.unwrap_or_else(|e| panic!("{line}: {e}"));
    t.submit(&seat, &cmd, roller).map(|_| ())
}

/// Run lines, panicking on the first refusal.
pub fn run(t: &mut Table<Bastards>, lines: &[&str], roller: &mut Scripted) {
    for l in lines {
        if let Err(e) = submit(t, l, roller) {
            panic!("{l}: {e}");
        }
    }
}

/// Two Fated, A (seat a) and B (seat b): begin with the given hands (A's five,
/// then B's five), A plays 2C and B 3C for initiative, A draws `a_draw`.
pub fn opened(
    a: Combatant,
    b: Combatant,
    a_hand: [&str; 5],
    b_hand: [&str; 5],
    a_draw: &str,
) -> Table<Bastards> {
    let mut t = Table::<Bastards>::new(state(vec![a, b]));
    let mut cards: Vec<&str> = a_hand.to_vec();
    cards.extend(b_hand);
    cards.push(a_draw);
    let mut r = Scripted::values(cards);
    run(
        &mut t,
        &["gm: begin", "a: init A 2C", "b: init B 3C", "a: draw"],
        &mut r,
    );
    t
}

pub fn c<'a>(t: &'a Table<Bastards>, name: &str) -> &'a Combatant {
    t.state()
        .combatants
        .iter()
        .find(|c| c.name == name)
        .unwrap()
}
