//! The terminal play driver and the `Table` guarantees, on a tiny test system:
//! a race to 10 where each player in turn rolls a d6 and adds it to their score.

use serde::{Deserialize, Serialize};
use std::path::Path;

use tabula_core::Die;
use tabula_core::roller::{Manual, Roller, Scripted};
use tabula_core::rule::{Refusal, Rule, RuleError};
use tabula_core::system::{CommandParseError, CommandSpec, Seat, System, Table, TextPlay};
use tabula_engine::play::{self, PlayOptions};

struct Race;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct State {
    players: Vec<String>,
    scores: Vec<u32>,
    turn: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Command {
    Roll,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Event {
    Rolled { player: usize, die: u32 },
}

const TURN: Rule = Rule::table("Turn order");

impl System for Race {
    const ID: &'static str = "race";
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = State;

    fn decide(
        state: &State,
        seat: &Seat,
        _command: &Command,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, RuleError> {
        if *seat != Self::default_seat(state) {
            return Err(RuleError::new(TURN, Refusal::NotYourTurn, "not your turn"));
        }
        let die = roller.roll(Die::D6)?;
        Ok(vec![Event::Rolled {
            player: state.turn,
            die,
        }])
    }

    fn evolve(state: &mut State, event: &Event) {
        let Event::Rolled { player, die } = event;
        state.scores[*player] += die;
        state.turn = (state.turn + 1) % state.players.len();
    }

    fn view(state: &State, _seat: &Seat) -> State {
        state.clone()
    }

    fn legal_commands(_state: &State, _seat: &Seat) -> Vec<CommandSpec> {
        vec![CommandSpec::new("roll", "roll a d6", vec![])]
    }
}

impl TextPlay for Race {
    type SetupError = std::io::Error;

    fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
        text: &str,
        _files: &F,
    ) -> Result<State, std::io::Error> {
        let players: Vec<String> = text.split_whitespace().map(String::from).collect();
        Ok(State {
            scores: vec![0; players.len()],
            players,
            turn: 0,
        })
    }

    fn seats(state: &State) -> Vec<Seat> {
        tabula_core::system::seat_list(state.players.iter().map(|p| Seat::Player(p.clone())))
    }

    fn default_seat(state: &State) -> Seat {
        Seat::Player(state.players[state.turn].clone())
    }

    fn parse_command(_: &State, _: &Seat, line: &str) -> Result<Command, CommandParseError> {
        match line {
            "roll" => Ok(Command::Roll),
            other => Err(CommandParseError::Unknown {
                got: other.into(),
                known: "roll".into(),
            }),
        }
    }

    fn describe(state: &State, event: &Event) -> String {
        let Event::Rolled { player, die } = event;
        format!(
            "{} rolls d6: {die} (score {})",
            state.players[*player], state.scores[*player]
        )
    }

    fn status(state: &State, seat: &Seat) -> String {
        format!("{seat}'s turn; scores {:?}", state.scores)
    }

    fn finished(state: &State) -> bool {
        state.scores.iter().any(|s| *s >= 10)
    }
}

fn table() -> Table<Race> {
    Table::new(Race::setup("ann bob", Path::new(".")).unwrap())
}

#[test]
fn a_script_plays_with_seat_prefixes_refusals_and_undo() {
    let mut t = table();
    let script = "roll\nann: roll\n# a comment\nbob: roll\nundo\nbob: roll\nfly\nroll\n";
    let mut roller = Scripted::dice([6, 1, 5, 4, 6]);
    let mut out = Vec::new();
    let summary = play::run(
        &mut t,
        &mut script.as_bytes(),
        &mut out,
        &mut roller,
        PlayOptions {
            echo: true,
            strict: false,
        },
        &mut |_| Ok(()),
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("ann rolls d6: 6 (score 6)"), "{text}");
    assert!(text.contains("refused: not your turn"), "{text}");
    assert!(text.contains("undone"), "{text}");
    assert!(text.contains("refused: unknown command \"fly\""), "{text}");
    assert!(text.contains("The encounter is over."), "{text}");
    assert_eq!(summary.refused, 2);
    assert!(summary.finished);
    // ann 6, bob 1 (undone), bob 5, ann 4 -> ann 10.
    assert_eq!(t.state().scores, vec![10, 5]);
    assert!(t.replay_matches());
}

#[test]
fn a_refused_command_changes_nothing() {
    let mut t = table();
    let before = t.state().clone();
    let err = t
        .submit(
            &Seat::Player("bob".into()),
            &Command::Roll,
            &mut Scripted::dice([3]),
        )
        .unwrap_err();
    assert_eq!(err.kind, Refusal::NotYourTurn);
    assert_eq!(t.state(), &before);
    assert!(t.log().is_empty());
}

#[test]
fn a_manual_roller_short_of_dice_refuses_and_says_what_is_missing() {
    let mut t = table();
    let mut manual = Manual::from_values(Vec::<String>::new());
    let err = t
        .submit(&Seat::Player("ann".into()), &Command::Roll, &mut manual)
        .unwrap_err();
    assert_eq!(err.message, "need 1 more d6");
    assert!(t.log().is_empty());
    assert_eq!(t.state().scores, vec![0, 0]);
}

#[test]
fn a_saved_table_resumes() {
    let mut t = table();
    t.submit(
        &Seat::Player("ann".into()),
        &Command::Roll,
        &mut Scripted::dice([4]),
    )
    .unwrap();
    let json = play::save_json(&t, None).unwrap();
    let saved: play::SavedTable<Race> = serde_json::from_str(&json).unwrap();
    assert_eq!(saved.system, "race");
    assert_eq!(saved.table, t);
}
