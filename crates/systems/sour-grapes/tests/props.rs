//! Property tests: no command sequence panics or breaks an invariant, and
//! replaying the log rebuilds the same state.

mod common;

use common::*;
use proptest::prelude::*;
use tabula_core::testkit;
use tabula_core::{Seeded, System, Table};
use tabula_sour_grapes::state::State;
use tabula_sour_grapes::stats::MAX_STAT;
use tabula_sour_grapes::{SourGrapes, Stat};

const SEATS: [&str; 4] = ["gm", "Sam", "Ana", "Nobody"];
const WHO: [&str; 5] = [
    "Example Player",
    "Rook",
    "Tavern Brute",
    "Drunk Sailor",
    "Ghost",
];
const CARDS: [&str; 8] = [
    "Attack",
    "Sand Strike",
    "Flame Weapon",
    "Shove",
    "Dodge",
    "Trained Breathing",
    "Intoxicated",
    "Kick",
];
const STATS: [&str; 5] = ["Agility", "Strength", "Perception", "Vitality", "Luck"];

fn line() -> impl Strategy<Value = String> {
    (
        0usize..4,
        0usize..34,
        0usize..5,
        0usize..8,
        0usize..5,
        0u32..12,
        0u32..4,
        0u32..25,
    )
        .prop_map(|(seat, kind, who, card, stat, a, b, c)| {
            let (seat, who, card, stat) = (SEATS[seat], WHO[who], CARDS[card], STATS[stat]);
            let body = match kind {
                0 => format!("spend {stat} as {who}"),
                1 => format!("check {stat} {a} {b} vs {c} with fencing"),
                2 => format!("giveback {stat} {b} as {who}"),
                3 => format!("heal {stat} as {who}"),
                4 => "rest".into(),
                5 => format!("situation {c} {stat} with Fast Talking as {who}"),
                6 => format!("difficulty {c}"),
                7 => format!("final {a} {b}"),
                8 | 9 => "event".into(),
                10 | 11 => format!("initiative {stat} {a} as {who}"),
                12 => format!("recover {stat}"),
                13 => format!("keep {card} {a} {b}"),
                14 => format!("discard {card}"),
                15 | 16 => format!("stunt {card}"),
                17 => "end".into(),
                18 => format!("interrupt {card} {a} {b} as {who}"),
                19 | 20 => "pass".into(),
                21 | 22 => format!("target {who} success {a} {b} result {a} {b}"),
                23 => format!("compliment {card} success {a} {b} result {b} as {who}"),
                24 => format!("divert {card} success {a} {b} to {who} as {who}"),
                25 => format!("react {card} {a} {b} as {who}"),
                26 => format!("take as {who}"),
                27 => format!("afflict {card} as {who}"),
                28 => format!("award {b} as {who}"),
                29 => format!("giveback Fast Talking {b} as {who}"),
                30 => format!("reject as {who}"),
                31 => format!("cure {card} as {who}"),
                32 => format!("improve {card} damage as {who}"),
                _ => format!("raise {stat} as {who}"),
            };
            // Half the lines carry no seat: the default seat gives them.
            if a % 2 == 0 {
                body
            } else {
                format!("{seat}: {body}")
            }
        })
}

fn invariants(s: &State) {
    for p in &s.participants {
        for st in Stat::ALL {
            let v = p.character.stat(st);
            assert!(
                v.actual >= 1 && v.actual <= MAX_STAT,
                "{st} actual {}",
                v.actual
            );
            assert!(v.current <= v.actual, "{st} current above actual");
            // A stat reaching zero is injured (`StatValue::lower`); the
            // storyteller may heal it while it is still at zero.
        }
        for k in p.character.skills() {
            assert!(k.available <= k.rating && k.rating <= 5);
        }
    }
    if let Some(t) = s.turn() {
        assert!(s.participant(&t.controller).is_some());
    }
}

fn run(lines: &[String], seed: u64, table: Table<SourGrapes>) {
    let mut t = table;
    let mut roller = Seeded::from_seed(seed);
    for l in lines {
        let before = t.clone();
        if try_give(&mut t, l, &mut roller).is_err() {
            assert_eq!(t, before, "a refused command changed the table: {l}");
        }
        invariants(t.state());
        for seat in [
            tabula_core::Seat::Gm,
            tabula_core::Seat::Player("Sam".into()),
        ] {
            let _ = SourGrapes::legal_commands(t.state(), &seat);
            let _ = <SourGrapes as tabula_core::TextPlay>::status(t.state(), &seat);
            for o in <SourGrapes as tabula_core::TextPlay>::odds(t.state(), &seat) {
                assert!((0.0..=1.0).contains(&o.probability), "{o:?}");
            }
        }
    }
    testkit::assert_replay_rebuilds(&t);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn random_commands_never_panic(lines in prop::collection::vec(line(), 1..120), seed in 0u64..1000) {
        run(&lines, seed, example_table());
    }

    #[test]
    fn random_commands_in_an_event(lines in prop::collection::vec(line(), 1..120), seed in 0u64..1000) {
        // Start inside an Event with initiative rolled, so turns get exercised.
        let mut prefix: Vec<String> = vec![
            "gm: event".into(),
            "Sam: initiative Agility 5".into(),
            "Ana: initiative Perception 7".into(),
            "gm: initiative Might 5 as Tavern Brute".into(),
            "gm: initiative Agility 4 as Drunk Sailor".into(),
        ];
        prefix.extend(lines);
        run(&prefix, seed, example_table());
    }
}

/// The example script is deterministic: two runs give the same log.
#[test]
fn script_replays_identically() {
    let script = std::fs::read_to_string(examples().join("encounter.script")).unwrap();
    let lines: Vec<String> = script
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    let play = || {
        let mut t = example_table();
        let mut r = Seeded::from_seed(1);
        for l in &lines {
            give(&mut t, l, &mut r);
        }
        t
    };
    let a = play();
    let b = play();
    assert_eq!(a, b);
    let json = serde_json::to_string(a.log()).unwrap();
    let log: tabula_core::EventLog<tabula_sour_grapes::Event> =
        serde_json::from_str(&json).unwrap();
    assert_eq!(
        Table::<SourGrapes>::replay(a.initial(), &log, usize::MAX),
        *a.state()
    );
    // A saved table (play --save / --resume) reads back identical.
    let saved = serde_json::to_string(&a).unwrap();
    let back: Table<SourGrapes> = serde_json::from_str(&saved).unwrap();
    assert_eq!(back, a);
}

/// Lines that fit the state now (so whole turns get played), chosen by `pick`.
fn fitting_line(s: &State, pick: &mut impl FnMut(u32) -> u32) -> String {
    use tabula_sour_grapes::state::{Moment, Step};
    let seat_of = |n: &str| {
        s.participant(n)
            .map_or("gm".to_string(), |p| p.seat.to_string())
    };
    let names: Vec<String> = s
        .participants
        .iter()
        .map(|p| p.character.name().to_string())
        .collect();
    let any = |pick: &mut dyn FnMut(u32) -> u32| names[pick(names.len() as u32) as usize].clone();
    let n = |pick: &mut dyn FnMut(u32) -> u32| pick(6);
    let Moment::Event(e) = &s.moment else {
        return match pick(4) {
            0 => "gm: event".into(),
            1 => "gm: rest".into(),
            2 => format!("gm: spend Agility as {}", any(pick)),
            _ => "gm: event".into(),
        };
    };
    let Some(t) = &e.turn else {
        let who = names
            .iter()
            .find(|w| e.initiative.get(*w).is_some_and(Option::is_none));
        return match who {
            Some(w) => format!("{}: initiative Agility {} as {w}", seat_of(w), pick(4)),
            None => "gm: end-event".into(),
        };
    };
    let ctl = &t.controller;
    let cs = seat_of(ctl);
    match t.step {
        Step::Prep => match pick(7) {
            0 => format!("{cs}: end"),
            1 => format!("{cs}: recover Agility"),
            2 => format!("{cs}: keep Trained Breathing {}", n(pick)),
            3 => format!("{cs}: stunt Trained Breathing"),
            4 => format!("gm: afflict Intoxicated as {}", any(pick)),
            _ => format!("{cs}: stunt Attack"),
        },
        Step::Interrupt => {
            let w = any(pick);
            match pick(3) {
                0 => format!("{}: interrupt Sand Strike {} as {w}", seat_of(&w), n(pick)),
                _ => format!("{cs}: pass"),
            }
        }
        Step::Targeting => format!(
            "{cs}: target {} success {} {} result {} {}",
            if pick(5) == 0 {
                String::new()
            } else {
                any(pick)
            },
            n(pick),
            pick(2),
            n(pick),
            pick(2)
        ),
        Step::Support => {
            let w = any(pick);
            match pick(4) {
                0 => format!(
                    "{}: compliment Flame Weapon success {} result {} as {w}",
                    seat_of(&w),
                    n(pick),
                    n(pick)
                ),
                1 => format!(
                    "{}: divert Shove success {} {} to {} as {w}",
                    seat_of(&w),
                    n(pick),
                    pick(2),
                    any(pick)
                ),
                _ => format!("{cs}: pass"),
            }
        }
        Step::Reaction => {
            let r = t
                .receivers
                .iter()
                .find(|r| !t.reactions.contains_key(*r))
                .cloned()
                .unwrap_or_else(|| ctl.clone());
            match pick(2) {
                0 => format!("{}: react Dodge {} as {r}", seat_of(&r), n(pick)),
                _ => format!("{}: take as {r}", seat_of(&r)),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Commands that fit the state drive whole turns: invariants hold, refusals
    /// change nothing, replay rebuilds the state.
    #[test]
    fn fitting_commands_play_whole_turns(choices in prop::collection::vec(0u32..1000, 50..400), seed in 0u64..1000) {
        let mut t = example_table();
        let mut roller = Seeded::from_seed(seed);
        let mut i = 0usize;
        let mut pick = |m: u32| {
            let v = choices.get(i % choices.len()).copied().unwrap_or(0) % m.max(1);
            i += 1;
            v
        };
        for _ in 0..choices.len() {
            let l = fitting_line(t.state(), &mut pick);
            let before = t.clone();
            if try_give(&mut t, &l, &mut roller).is_err() {
                prop_assert_eq!(&t, &before);
            }
            invariants(t.state());
        }
        if std::env::var("SG_DEBUG").is_ok() {
            let k = |p: &str| t.log().entries().iter().filter(|e| format!("{:?}", e.event).starts_with(p)).count();
            eprintln!("turns {} damaged {} rolled {} rounds {}", k("TurnEnded"), k("Damaged"), k("Rolled"), k("NewRound"));
        }
        testkit::assert_replay_rebuilds(&t);
    }
}

// ---------------------------------------------------------------- never locks up

use tabula_core::testkit::Choice;
use tabula_core::{CommandSpec, ParamKind, Seat, TextPlay};

/// One legal command as a play line, its parameters picked by `pick` within the
/// advertised ranges and choices. Free-text parameters get a sensible value
/// (targets: some participants; a stat or skill: a stat; a skill: none).
fn render(s: &State, spec: &CommandSpec, pick: &mut impl FnMut(u32) -> u32) -> String {
    let names = s.participant_names();
    let mut positional: Vec<String> = Vec::new();
    let mut keywords: Vec<(String, Vec<String>)> = Vec::new();
    for p in &spec.params {
        let value = match &p.kind {
            ParamKind::Int { min, max } => {
                let span = (max - min).clamp(0, 1000) as u32;
                (min + i64::from(pick(span + 1))).to_string()
            }
            ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => {
                if options.is_empty() {
                    continue;
                }
                options[pick(options.len() as u32) as usize].clone()
            }
            ParamKind::Text => match p.name.as_str() {
                "targets, comma-separated" => {
                    let k = pick(3);
                    (0..k)
                        .map(|_| names[pick(names.len() as u32) as usize].clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
                "skill (with)" => continue,
                // The storyteller's `adjust` AMOUNT: N, +N or -N.
                "amount" => format!("{}{}", ["", "+", "-"][pick(3) as usize], pick(4)),
                _ => Stat::ALL[pick(9) as usize].name().to_string(),
            },
            ParamKind::NumberOrName { min, .. } => min.to_string(),
        };
        let keyword = match p.name.as_str() {
            "as" => Some("as"),
            "to" => Some("to"),
            "difficulty (vs)" => Some("vs"),
            "skill (with)" => Some("with"),
            "success dice" | "success tokens" => Some("success"),
            "result dice" | "result tokens" => Some("result"),
            _ => None,
        };
        match keyword {
            Some(k) => match keywords.last_mut() {
                Some((last, v)) if last == k => v.push(value),
                _ => keywords.push((k.to_string(), vec![value])),
            },
            None => positional.push(value),
        }
    }
    let mut line = spec.name.clone();
    for w in positional {
        line.push(' ');
        line.push_str(&w);
    }
    for (k, v) in keywords {
        line.push_str(&format!(" {k} {}", v.join(" ")));
    }
    line
}

/// Every legal command of every seat now, as (seat, spec).
fn all_legal(s: &State) -> Vec<(Seat, CommandSpec)> {
    testkit::all_legal::<SourGrapes>(s)
}

/// Try `line` from `seat`; true when accepted (the table changes only then).
fn submit(t: &mut Table<SourGrapes>, seat: &Seat, line: &str, roller: &mut Seeded) -> bool {
    let Ok(cmd) = SourGrapes::parse_command(t.state(), seat, line) else {
        return false;
    };
    let before = t.clone();
    let ok = t.submit(seat, &cmd, roller).is_ok();
    if !ok {
        assert_eq!(*t, before, "a refused command changed the table: {line}");
    }
    ok
}

/// Drive the turn in progress to its end with the commands that close each
/// step, each taken from `legal_commands` with its smallest parameters: `end`
/// in Prep, `pass` in steps 3 and 5, `target` with no dice in step 4, `take` for
/// each receiver in step 7. Panics when a step has no such command or it is
/// refused (R-SG-11: "A turn always reaches its end").
fn finish_turn(t: &mut Table<SourGrapes>, roller: &mut Seeded) {
    use tabula_sour_grapes::state::Step;
    let turns_ended = |t: &Table<SourGrapes>| {
        t.log()
            .entries()
            .iter()
            .filter(|e| {
                matches!(
                    e.event,
                    tabula_sour_grapes::Event::TurnEnded { .. }
                        | tabula_sour_grapes::Event::EventEnded { .. }
                )
            })
            .count()
    };
    let start = turns_ended(t);
    for _ in 0..12 {
        let Some(turn) = t.state().turn().cloned() else {
            return;
        };
        if turns_ended(t) > start {
            return;
        }
        let wanted = match turn.step {
            Step::Prep => "end",
            Step::Interrupt | Step::Support => "pass",
            Step::Targeting => "target",
            Step::Reaction => "take",
        };
        let found = all_legal(t.state())
            .into_iter()
            .find(|(_, c)| c.name == wanted);
        let Some((seat, spec)) = found else {
            panic!(
                "no `{wanted}` for anyone at {:?}: {}",
                turn.step,
                SourGrapes::status(t.state(), &Seat::Gm)
            );
        };
        // Smallest parameters; a Stunt that needs a target gets the first name.
        let mut first = |_: u32| 0;
        let mut line = render(t.state(), &spec, &mut first);
        if wanted == "target" {
            let stunt = turn.stunt.as_deref().and_then(|c| t.state().card(c));
            let wants = stunt.is_some_and(|c| {
                c.outcome == tabula_sour_grapes::cards::Outcome::Damage || c.target.is_some()
            });
            if wants {
                let who = t.state().participant_names()[0].clone();
                line = format!("target {who} success 0");
            } else {
                line = "target success 0".into();
            }
        }
        let prefixed = format!("{seat}: {line}");
        assert!(
            submit(t, &seat, &line, roller),
            "`{prefixed}` refused at {:?}: {}",
            turn.step,
            SourGrapes::status(t.state(), &Seat::Gm)
        );
    }
    assert!(
        t.state().turn().is_none() || turns_ended(t) > start,
        "the turn did not end"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random legal commands (any seat's `legal_commands`, random parameters in
    /// the advertised ranges) from the example table: until the encounter is
    /// finished some seat always has a command that is accepted; every turn
    /// reached can be finished by legal commands (R-SG-11); replaying the log
    /// rebuilds the state.
    #[test]
    fn random_legal_commands_never_lock_the_encounter(
        choices in prop::collection::vec(0u32..10_000, 200..500),
        seed in 0u64..10_000,
    ) {
        let mut t = example_table();
        let mut i = 0usize;
        let mut pick = |m: u32| {
            let v = choices[i % choices.len()] % m.max(1);
            i += 1;
            v
        };
        let mut step = 0u64;
        testkit::walk_legal(&mut t, seed, choices.len(), |t, legal| {
            // Now and then, prove the turn in progress can be finished, on a copy.
            if step.is_multiple_of(7) && t.state().turn().is_some() {
                let mut copy = t.clone();
                let mut r = Seeded::from_seed(seed ^ step);
                finish_turn(&mut copy, &mut r);
            }
            step += 1;
            // Ending the encounter or the Event is rare, so turns get played.
            let (seat, spec) = &legal[pick(legal.len() as u32) as usize];
            if matches!(spec.name.as_str(), "end-encounter" | "end-event") && pick(20) != 0 {
                return Choice::Skip;
            }
            Choice::TryLine(seat.clone(), render(t.state(), spec, &mut pick))
        }, |t, _| invariants(t.state()));
        let mut roller = Seeded::from_seed(seed ^ 0x5eed);
        // Something is always accepted: the closing commands of a turn, or the
        // storyteller's moves between moments.
        if !SourGrapes::finished(t.state()) {
            if t.state().turn().is_some() {
                finish_turn(&mut t, &mut roller);
            }
            let accepted = all_legal(t.state()).into_iter().any(|(seat, spec)| {
                let mut copy = t.clone();
                let mut r = roller.clone();
                let line = render(copy.state(), &spec, &mut |_| 0);
                submit(&mut copy, &seat, &line, &mut r)
            });
            prop_assert!(accepted, "no legal command is accepted: {}", SourGrapes::status(t.state(), &Seat::Gm));
        }
        if std::env::var("SG_DEBUG").is_ok() {
            let k = |p: &str| t.log().entries().iter().filter(|e| format!("{:?}", e.event).starts_with(p)).count();
            eprintln!(
                "turns {} stunts {} damaged {} rounds {} lost {} skipped {} situations {} over {}",
                k("TurnEnded"), k("StuntPlayed"), k("Damaged"), k("NewRound"),
                t.log().entries().iter().filter(|e| { let d = format!("{:?}", e.event); d.contains("lost: Bet") && !d.contains("lost: Bet { dice: 0, tokens: 0 }") }).count(),
                k("ReactionSkipped"), k("SituationEnded"), SourGrapes::finished(t.state())
            );
        }
        testkit::assert_replay_rebuilds(&t);
    }
}
