//! Property tests: random command sequences never panic, keep the invariants,
//! change nothing when refused, and replaying the log rebuilds the state.

use proptest::prelude::*;
use std::path::PathBuf;

use tabula_core::{Seat, Seeded, Table, TextPlay};
use tabula_scratch::rolls::{self, D6_TABLE};
use tabula_scratch::{D20Method, Scratch, State};

fn table() -> Table<Scratch> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch");
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(Scratch::setup(&text, &dir).unwrap())
}

const SEATS: [&str; 4] = ["gm", "alice", "bob", "nobody"];
const ACTIONS: [&str; 18] = [
    "attack",
    "throw",
    "hold",
    "distract",
    "evade",
    "escape",
    "engage",
    "cover",
    "leave-cover",
    "shoot",
    "blast",
    "knockout",
    "fight",
    "surprise",
    "intimidate",
    "heal",
    "end",
    "initiative",
];

fn invariants(s: &State) {
    for c in &s.characters {
        let d = c.base_defenses(&s.rules);
        assert!(
            c.hit_points
                <= d.max_hit_points
                    .max(c.character.level(tabula_scratch::Ability::Toughness))
        );
    }
    if let Some(a) = s.active {
        let c = &s.characters[a];
        assert_eq!(
            Some(c.group),
            s.current_group(),
            "the active character is in the group whose turn it is"
        );
        assert!(c.takes_turns() || s.phase != tabula_scratch::Phase::Turns);
    }
    if s.phase == tabula_scratch::Phase::Turns {
        assert!(s.current_group().is_some());
        assert!(s.sides_standing().len() >= 2);
    }
}

/// Every command "what may this seat do now" lists is accepted (with its first
/// target, when it takes one).
fn legal_commands_are_accepted(t: &Table<Scratch>, seed: u64) {
    use tabula_core::{ParamKind, System};
    let seat = Scratch::default_seat(t.state());
    for spec in Scratch::legal_commands(t.state(), &seat) {
        if ["terrain", "craft", "uncraft", "roll"].contains(&spec.name.as_str()) {
            continue;
        }
        let mut line = spec.name.clone();
        if let Some(p) = spec.params.iter().find(|p| p.name == "target")
            && let ParamKind::Choice { options } = &p.kind
        {
            line.push(' ');
            line.push_str(&options[0]);
        }
        let cmd = Scratch::parse_command(t.state(), &seat, &line)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let mut copy = t.clone();
        let mut roller = Seeded::from_seed(seed ^ 0x5eed);
        if let Err(e) = copy.submit(&seat, &cmd, &mut roller) {
            panic!("listed as legal but refused: {line}: {e}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn random_commands_keep_invariants_and_replay(
        seed in any::<u64>(),
        steps in proptest::collection::vec((0usize..4, 0usize..8, 0usize..18, 0usize..8, 0usize..8), 1..80),
    ) {
        let mut t = table();
        let mut roller = Seeded::from_seed(seed);
        let ids: Vec<String> = t.state().characters.iter().map(|c| c.id.clone()).collect();
        let first = Seat::Gm;
        let init = Scratch::parse_command(t.state(), &first, "initiative").unwrap();
        t.submit(&first, &init, &mut roller).unwrap();
        for (seat, actor, action, t1, t2) in steps {
            // Mostly the actor's own seat, sometimes another (out of turn, not permitted).
            let own = t.state().find(ids.get(actor).map(String::as_str).unwrap_or("")).and_then(|i| t.state().seat_of(i).cloned());
            let seat = match (seat, own) {
                (0..=2, Some(own)) => own,
                _ => Seat::parse(SEATS[seat]),
            };
            let actor = ids.get(actor).cloned().unwrap_or_default();
            let target = ids.get(t1).cloned().unwrap_or_else(|| "nobody".into());
            let target2 = ids.get(t2).cloned().unwrap_or_else(|| "nobody".into());
            let verb = ACTIONS[action];
            let line = match verb {
                "initiative" => "initiative".to_string(),
                "evade" | "escape" | "engage" | "cover" | "leave-cover" | "end" => format!("{actor} {verb}"),
                "blast" | "fight" => format!("{actor} {verb} {target} {target2}"),
                _ => format!("{actor} {verb} {target}"),
            };
            let Ok(cmd) = Scratch::parse_command(t.state(), &seat, &line) else { continue };
            let before = t.clone();
            match t.submit(&seat, &cmd, &mut roller) {
                Ok(_) => {}
                Err(_) => prop_assert_eq!(&t, &before),
            }
            invariants(t.state());
            legal_commands_are_accepted(&t, seed);
        }
        prop_assert!(t.replay_matches());
        let json = serde_json::to_string(t.state()).unwrap();
        let back: State = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, t.state());
    }

    #[test]
    fn odds_match_enumeration(level in 0i64..=12, difficulty in -5i64..=40, modifier in -4i64..=4) {
        let p = rolls::probability(level, difficulty, modifier, D20Method::D20);
        let count = (1..=20i64).filter(|v| *v == 20 || v + level + modifier >= difficulty).count();
        prop_assert!((p - count as f64 / 20.0).abs() < 1e-12);
        let p = rolls::probability(level, difficulty, modifier, D20Method::D6Table);
        let count = D6_TABLE.iter().flatten().filter(|v| **v == 20 || i64::from(**v) + level + modifier >= difficulty).count();
        prop_assert!((p - count as f64 / 36.0).abs() < 1e-12);
    }
}
