//! Property tests: random command sequences never panic, keep the invariants,
//! change nothing when refused, and replaying the log rebuilds the state.

use proptest::prelude::*;
use std::path::PathBuf;

use tabula_core::testkit::{self, Choice};
use tabula_core::{CommandSpec, ParamKind, Seat, Seeded, System, Table, TextPlay};
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
        // Hit points never above the maximum, temporary bonuses included.
        assert!(c.hit_points <= c.max_hit_points(&s.rules));
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
    let seat = Scratch::default_seat(t.state());
    for spec in Scratch::legal_commands(t.state(), &seat) {
        if [
            "terrain", "craft", "uncraft", "roll", "adjust", "remove", "add",
        ]
        .contains(&spec.name.as_str())
        {
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

/// A command line for `spec` with parameters picked in its advertised ranges.
fn line_for(spec: &CommandSpec, picks: &[usize]) -> String {
    let mut line = spec.name.clone();
    for (i, p) in spec.params.iter().enumerate() {
        let pick = picks.get(i % picks.len().max(1)).copied().unwrap_or(0);
        let value = match &p.kind {
            ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options }
                if options.is_empty() =>
            {
                continue;
            }
            ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => {
                options[pick % options.len()].clone()
            }
            ParamKind::Int { min, max } => {
                let span = u64::try_from(max - min).unwrap_or(0) + 1;
                (min + i64::try_from(pick as u64 % span).unwrap_or(0)).to_string()
            }
            // The GM's `adjust` AMOUNT: N, +N or -N.
            ParamKind::Text if p.name == "amount" => {
                format!("{}{}", ["", "+", "-"][pick % 3], pick % 5)
            }
            ParamKind::Text => "x".to_string(),
            ParamKind::NumberOrName { min, .. } => min.to_string(),
        };
        if p.name == "with" {
            // `with ABILITY` is optional: leave it out half the time.
            if pick % 2 == 0 {
                continue;
            }
            line.push_str(" with");
        }
        // The GM's `add`: `as NAME` and `to SEAT` are optional keyword
        // parameters, spelled as the page spells them (the keyword, then the
        // value); left out now and then.
        if let Some(keyword) = ["as ", "to "].iter().find(|k| p.name.starts_with(**k)) {
            if pick % 3 == 0 {
                continue;
            }
            line.push(' ');
            line.push_str(keyword.trim());
        }
        line.push(' ');
        line.push_str(&value);
    }
    line
}

/// Commands that never move the encounter on (the GM may give them any time),
/// and the GM's tools: `end-encounter` ends any encounter, so it is left out
/// of the commands that show the encounter is not locked up, and so is
/// `remove`, which may take out every character but one, and `add`, which
/// brings one in but takes no turn.
const ANY_TIME: [&str; 6] = [
    "roll",
    "terrain",
    "adjust",
    "remove",
    "add",
    "end-encounter",
];

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
        testkit::assert_replay_rebuilds(&t);
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

    /// From the example table, random legal commands (any seat, parameters in
    /// the advertised ranges) always leave some seat a command that moves the
    /// encounter on until it is finished: it never locks up. Refused ones
    /// change nothing, and replaying the log rebuilds the same state.
    #[test]
    fn the_encounter_never_locks_up(
        seed in any::<u64>(),
        picks in proptest::collection::vec((any::<usize>(), proptest::collection::vec(any::<usize>(), 4)), 1..300),
    ) {
        let mut t = table();
        let cap = picks.len();
        let mut picks = picks.into_iter();
        testkit::walk_legal(&mut t, seed, cap, |t, all| {
            let Some((choice, params)) = picks.next() else {
                return Choice::Stop;
            };
            for seat in Scratch::seats(t.state()) {
                for o in Scratch::odds(t.state(), &seat) {
                    assert!((0.0..=1.0).contains(&o.probability), "{o:?}");
                }
            }
            let moving: Vec<&(Seat, CommandSpec)> = all
                .iter()
                .filter(|(_, spec)| !ANY_TIME.contains(&spec.name.as_str()))
                .collect();
            assert!(
                !moving.is_empty(),
                "locked up: no seat has a command that moves the encounter on\n{}",
                Scratch::status(t.state(), &Seat::Gm)
            );
            // Mostly commands that move on; now and then one of the GM's.
            let (seat, spec) = if choice % 8 == 0 {
                &all[choice / 8 % all.len()]
            } else {
                moving[choice % moving.len()]
            };
            Choice::Line(seat.clone(), line_for(spec, &params))
        }, |t, _| invariants(t.state()));
    }
}
