//! The page's forms send only lines Tiers reads (issue 26, item 1): along
//! random legal walks over the example table, every legal command of every
//! seat, written with sample values as its parameters' syntax declarations
//! say ([`tabula_core::CommandSpec::line`]), reads with the book's parser
//! ([`testkit::assert_forms_read`]).
//!
//! Two commands have a word the parser requires that the syntaxes can only
//! declare optional: `spawn`'s `zone=` ("spawn NAME KIND health=N
//! zone=ZONE") and the second `roleplay`'s `vs` ("roleplay STAT D3 vs
//! ENEMY"; the first `roleplay` is the one with a Goal). [`Forms`] is Tiers
//! without those two specs, for `assert_forms_read`; [`assert_required_words_read`]
//! reads them with every field filled, as the page must send them.

mod common;

use std::collections::BTreeSet;

use tabula_core::files::SheetFiles;
use tabula_core::sheet::SheetDoc;
use tabula_core::system::CommandDoc;
use tabula_core::testkit::{self, Choice};
use tabula_core::{
    CommandParseError, CommandSpec, ParamKind, ParamSpec, RuleError, Seat, System, Table, TextPlay,
};
use tabula_core::{Roller, rule::Book};
use tabula_tiers::Tiers;
use tabula_tiers::table::State;

/// The specs whose named parameter the parser requires though its syntax
/// (equals, keyword) is optional: (command word, parameter).
const REQUIRED_WORDS: &[(&str, &str)] = &[("spawn", "zone="), ("roleplay", "vs")];

/// True when `spec` is one of [`REQUIRED_WORDS`] (its name's last word is
/// the command: an NPC ally's `Steve roleplay` too).
fn has_required_word(spec: &CommandSpec) -> bool {
    let word = spec.name.rsplit(' ').next().unwrap_or_default();
    REQUIRED_WORDS
        .iter()
        .any(|(cmd, param)| *cmd == word && spec.params.iter().any(|p| p.name == *param))
}

/// Tiers, offering every legal command but those of [`REQUIRED_WORDS`].
struct Forms;

impl System for Forms {
    const ID: &'static str = Tiers::ID;
    type State = State;
    type Command = <Tiers as System>::Command;
    type Event = <Tiers as System>::Event;
    type View = <Tiers as System>::View;

    fn decide(
        state: &State,
        seat: &Seat,
        command: &Self::Command,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Self::Event>, RuleError> {
        Tiers::decide(state, seat, command, roller)
    }

    fn evolve(state: &mut State, event: &Self::Event) {
        Tiers::evolve(state, event);
    }

    fn view(state: &State, seat: &Seat) -> Self::View {
        Tiers::view(state, seat)
    }

    fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
        Tiers::legal_commands(state, seat)
            .into_iter()
            .filter(|spec| !has_required_word(spec))
            .collect()
    }
}

impl TextPlay for Forms {
    type SetupError = <Tiers as TextPlay>::SetupError;
    const COMMANDS: &'static [CommandDoc] = Tiers::COMMANDS;
    const BOOK: Book = Tiers::BOOK;

    fn setup<F: SheetFiles + ?Sized>(text: &str, files: &F) -> Result<State, Self::SetupError> {
        Tiers::setup(text, files)
    }

    fn default_seat(state: &State) -> Seat {
        Tiers::default_seat(state)
    }

    fn seats(state: &State) -> Vec<Seat> {
        Tiers::seats(state)
    }

    fn parse_command_with(
        state: &State,
        seat: &Seat,
        line: &str,
        sheets: &dyn SheetFiles,
    ) -> Result<Self::Command, CommandParseError> {
        Tiers::parse_command_with(state, seat, line, sheets)
    }

    fn describe(state: &State, event: &Self::Event) -> String {
        Tiers::describe(state, event)
    }

    fn status(state: &State, seat: &Seat) -> String {
        Tiers::status(state, seat)
    }

    fn finished(state: &State) -> bool {
        Tiers::finished(state)
    }

    fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
        Tiers::sheet(state, seat, name)
    }

    fn sheet_doc(state: &State, seat: &Seat) -> SheetDoc {
        Tiers::sheet_doc(state, seat)
    }
}

/// Samples for the free-text parameters the parser reads: `adjust`'s amount
/// (N, +N, -N), `add`'s `as` name (one word and two) and `spawn`'s name.
fn text_samples(_: &CommandSpec, p: &ParamSpec) -> Vec<String> {
    match (&p.kind, p.name.as_str()) {
        (ParamKind::Text, "amount") => vec!["+1".into(), "-1".into(), "2".into()],
        (ParamKind::Text, "as") => vec!["Newcomer".into(), "New Comer".into()],
        (ParamKind::Text, _) => vec!["Newcomer".into()],
        _ => Vec::new(),
    }
}

/// The specs of [`REQUIRED_WORDS`] read with every field filled, each at its
/// first and at its last sample. Returns the lines read.
fn assert_required_words_read(state: &State) -> usize {
    let mut read = 0;
    for (seat, spec) in testkit::all_legal::<Tiers>(state) {
        if !has_required_word(&spec) {
            continue;
        }
        let samples: Vec<Vec<String>> = spec
            .params
            .iter()
            .map(|p| {
                let own = text_samples(&spec, p);
                if own.is_empty() {
                    testkit::sample_values(p)
                } else {
                    own
                }
            })
            .collect();
        for pick in [<[String]>::first, <[String]>::last] {
            let values: Vec<String> = samples
                .iter()
                .map(|v| pick(v).cloned().unwrap_or_default())
                .collect();
            let line = spec.line(&values);
            if let Err(e) = Tiers::parse_command(state, &seat, &line) {
                panic!(
                    "{seat}: the filled form of `{}` writes {line:?}, which does not read: {e}",
                    spec.name
                );
            }
            read += 1;
        }
    }
    read
}

/// A small deterministic stream of picks (splitmix64), so each seed walks
/// the same way every run.
struct Picks(u64);

impl Picks {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        u32::try_from((z ^ (z >> 31)) >> 32).unwrap_or(0)
    }
}

/// Random legal walks from the example table (with and without every
/// optional rule), as `legal::legal_commands_never_lock_up` takes them: at
/// every step every legal command's form reads. The walks reach combat, the
/// GM's answers and spends, NPC allies and spawns, so many lines and most
/// commands are read.
#[test]
fn every_legal_commands_form_reads_along_random_walks() {
    let mut read = 0usize;
    let mut steps = 0usize;
    let mut commands: BTreeSet<String> = BTreeSet::new();
    let mut ally_specs = 0usize;
    for seed in 0..6u64 {
        let mut t = Table::<Tiers>::new(common::example_state(seed % 2 == 0));
        let mut picks = Picks(seed);
        let mut check = |t: &Table<Tiers>| {
            read += testkit::assert_forms_read::<Forms>(t.state(), text_samples);
            read += assert_required_words_read(t.state());
            for (_, spec) in testkit::all_legal::<Tiers>(t.state()) {
                // An NPC ally's command carries its name first (`Steve roll`).
                ally_specs += usize::from(spec.name.contains(' '));
                commands.insert(spec.name.rsplit(' ').next().unwrap_or_default().to_string());
            }
        };
        check(&t);
        let walk = testkit::walk_legal(
            &mut t,
            seed,
            100,
            |_, legal| {
                let seats = testkit::by_seat(legal);
                let (seat, specs) = &seats[picks.next() as usize % seats.len()];
                let spec = specs[picks.next() as usize % specs.len()];
                // Closing or ending the fight ends the walk early: rarely.
                if (spec.name == "close" || spec.name == "end-combat")
                    && !picks.next().is_multiple_of(16)
                {
                    return Choice::Skip;
                }
                let params: Vec<u32> = (0..8).map(|_| picks.next()).collect();
                match common::render(spec, &params) {
                    Some(line) => Choice::Line((*seat).clone(), line),
                    None => Choice::Skip,
                }
            },
            |t, _| check(t),
        );
        steps += walk.steps;
    }
    // Measured: 31,142 lines over these walks, 1,293 NPC ally specs among
    // them; lower bounds well below.
    assert!(read >= 20_000, "only {read} lines read in {steps} steps");
    assert!(
        ally_specs >= 200,
        "only {ally_specs} NPC ally commands offered"
    );
    for cmd in [
        "roll",
        "answer",
        "spend",
        "act",
        "roleplay",
        "move-enemy",
        "adjust",
        "add",
    ] {
        assert!(
            commands.contains(cmd),
            "no walk offered `{cmd}`: {commands:?}"
        );
    }
}
