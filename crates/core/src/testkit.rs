//! The test kit every book's tests share (cargo feature `testkit`, for
//! dev-dependencies only): the three invariants each rule system holds,
//! written once here instead of once per book.
//!
//! - [`walk_legal`]: a random walk over what "what may this seat do now"
//!   ([`System::legal_commands`]) offers. Until the encounter is
//!   [finished](TextPlay::finished) some seat has a legal command (it never
//!   locks up), every command the book lists is one of its
//!   [`TextPlay::COMMANDS`], a line the caller marks as legal reads, and a
//!   refused command leaves the table exactly as it was.
//! - [`assert_policy_choices_accepted`]: at every step of a policy-played
//!   encounter every awaited entry gets a suggestion, the same one twice
//!   (the policy never rolls), and [`System::decide`] accepts it;
//!   [`play_policy`] plays an encounter to its end as `simulate` does.
//! - [`assert_replay_rebuilds`]: replaying the log from the initial state,
//!   also after the log went through JSON (as the store keeps it), gives the
//!   current state.
//!
//! Every function here asserts: a broken invariant **panics** with a message
//! naming the step, the seat and the command, which is a test failure (inside
//! `proptest!` too: proptest catches the panic and shrinks the input). Every
//! walk is bounded by a step cap its caller gives, so no test can loop
//! forever; [`play_policy`] panics when an encounter is not over within it.
//! The dice come from a [`Seeded`] roller, so a seed replays the same walk.

use serde::Serialize;

use crate::policy::{Awaiting, Policy};
use crate::roller::{Roller, Seeded};
use crate::system::{
    CommandSpec, EventLog, Logged, ParamKind, ParamSpec, ParamSyntax, Seat, System, Table, TextPlay,
};

/// The step cap of a policy-played encounter (`tabula <system> simulate`
/// stops there too): a run that needs more commands is a bug in the policy.
pub const STEP_CAP: usize = 10_000;

/// The seed of the probe roller [`assert_policy_choices_accepted`] decides
/// each suggestion with (the walk's own dice come from the caller's seed).
const PROBE: u64 = 0x5eed;

/// What a walk does next, as the caller of [`walk_legal`] chooses it.
#[derive(Clone, Debug)]
pub enum Choice<C> {
    /// Give this line (without its `SEAT:` prefix) as the seat. It was made
    /// from a legal command's spec, so it must read: a parse error panics.
    Line(Seat, String),
    /// Give this line as the seat if it reads; a line the parser refuses (a
    /// name that fits nothing at this moment) is skipped. The parse error
    /// changes nothing, as a refusal does.
    TryLine(Seat, String),
    /// Give this command as the seat, without the parser.
    Command(Seat, C),
    /// Give nothing this step (a rare command passed over); counts as a step.
    Skip,
    /// End the walk now.
    Stop,
}

/// What a [`walk_legal`] did, for callers that assert more (that most
/// walks got somewhere, how far an encounter went).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkReport {
    /// Steps taken (each a [`Choice`] asked for), at most the cap.
    pub steps: usize,
    /// Commands accepted.
    pub accepted: usize,
    /// Commands refused by the rules (each left the table unchanged).
    pub refused: usize,
    /// [`Choice::TryLine`]s the parser did not read.
    pub unread: usize,
    /// True when the walk ended because the encounter was finished.
    pub finished: bool,
}

/// Every command every seat may give now, as `(seat, spec)`, seats in
/// [`TextPlay::seats`] order.
pub fn all_legal<S: TextPlay>(state: &S::State) -> Vec<(Seat, CommandSpec)> {
    S::seats(state)
        .into_iter()
        .flat_map(|seat| {
            S::legal_commands(state, &seat)
                .into_iter()
                .map(move |spec| (seat.clone(), spec))
        })
        .collect()
}

/// A random walk over the legal commands, from `table` as it is, for at most
/// `max_steps` steps, rolling with `Seeded::from_seed(seed)`.
///
/// Each step, unless the encounter is [finished](TextPlay::finished) (the
/// walk stops there): it asserts some seat has a legal command (the
/// encounter never locks up) and that each is one of [`TextPlay::COMMANDS`]
/// (by a word of its name); asks `choose` what to give, from the table and
/// every seat's legal commands ([`all_legal`]); reads and submits it through
/// [`Table::submit`]; asserts a refused command left the table equal to what
/// it was (state, log and initial state); and calls `after` with the table
/// and the table before the step (the same table after an unread
/// [`Choice::TryLine`]), for the book's own invariants (the events the step
/// logged are `table.log().entries()[before.log().len()..]`). At the end,
/// unless finished, the last state is not locked either, and the log
/// replays ([`assert_replay_rebuilds`]).
///
/// `choose` draws its picks from whatever randomness the test has (a proptest
/// vector shrinks best); the book renders a spec's parameters as its parser
/// reads them, so that part stays in each book.
///
/// # Panics
/// On a broken invariant above (a test failure), naming the step and seat.
pub fn walk_legal<S: TextPlay>(
    table: &mut Table<S>,
    seed: u64,
    max_steps: usize,
    mut choose: impl FnMut(&Table<S>, &[(Seat, CommandSpec)]) -> Choice<S::Command>,
    mut after: impl FnMut(&Table<S>, &Table<S>),
) -> WalkReport {
    let mut roller = Seeded::from_seed(seed);
    let mut report = WalkReport::default();
    while report.steps < max_steps {
        if S::finished(table.state()) {
            report.finished = true;
            break;
        }
        let legal = assert_not_locked::<S>(table.state(), report.steps);
        let choice = choose(table, &legal);
        report.steps += 1;
        let (seat, command, line) = match choice {
            Choice::Stop => break,
            Choice::Skip => continue,
            Choice::Command(seat, command) => (seat, command, None),
            Choice::Line(seat, line) => match S::parse_command(table.state(), &seat, &line) {
                Ok(command) => (seat, command, Some(line)),
                Err(e) => panic!(
                    "step {}: a line made from a legal command does not read: {seat}: {line}: {e}",
                    report.steps
                ),
            },
            Choice::TryLine(seat, line) => match S::parse_command(table.state(), &seat, &line) {
                Ok(command) => (seat, command, Some(line)),
                Err(_) => {
                    report.unread += 1;
                    after(table, table);
                    continue;
                }
            },
        };
        let before = table.clone();
        if table.submit(&seat, &command, &mut roller).is_ok() {
            report.accepted += 1;
        } else {
            report.refused += 1;
            assert!(
                *table == before,
                "step {}: a refused command changed the table: {seat}: {}",
                report.steps,
                line.unwrap_or_else(|| format!("{command:?}"))
            );
        }
        after(table, &before);
    }
    if !report.finished {
        report.finished = S::finished(table.state());
        if !report.finished {
            assert_not_locked::<S>(table.state(), report.steps);
        }
    }
    assert_replay_rebuilds(table);
    report
}

/// Before the end some seat has a legal command, and every one is in
/// [`TextPlay::COMMANDS`] (by its name's first or last word, as that
/// constant's documentation says); returns them ([`all_legal`]). `step` is for the
/// message.
fn assert_not_locked<S: TextPlay>(state: &S::State, step: usize) -> Vec<(Seat, CommandSpec)> {
    let legal = all_legal::<S>(state);
    assert!(
        !legal.is_empty(),
        "step {step}: locked up, no seat has a legal command before the end:\n{}",
        S::status(state, &Seat::Gm)
    );
    for (seat, spec) in &legal {
        // A name may carry more words than the command: the character it
        // is given for (Tiers' `Steve roll`) or a variant (Bastards' `bet
        // wild`).
        let mut words = spec.name.split(' ');
        let (first, last) = (words.next().unwrap_or_default(), words.next_back());
        let known = std::iter::once(first)
            .chain(last)
            .any(|w| crate::system::find_command(S::COMMANDS, w).is_some());
        assert!(
            known,
            "step {step}: {seat} is offered `{}`, which is not in COMMANDS",
            spec.name
        );
    }
    legal
}

/// A value a form could send for parameter `param` of `spec`: the default
/// samples of [`assert_forms_read`] (for a [`ParamKind::Text`] parameter,
/// `None`; a book gives its own with a closure).
///
/// Int: its smallest and largest value; a choice (or choice-or-sheet): its
/// first and last option; number-or-name: its smallest number and first
/// name; text: none.
pub fn sample_values(param: &ParamSpec) -> Vec<String> {
    match &param.kind {
        ParamKind::Int { min, max } => {
            let mut v = vec![min.to_string()];
            if max != min {
                v.push(max.to_string());
            }
            v
        }
        ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => {
            let mut v: Vec<String> = options.iter().take(1).cloned().collect();
            if options.len() > 1 {
                v.extend(options.last().cloned());
            }
            v
        }
        ParamKind::NumberOrName { min, names, .. } => {
            let mut v = vec![min.to_string()];
            v.extend(names.first().cloned());
            v
        }
        ParamKind::Text => Vec::new(),
    }
}

/// Every command every seat may give now ([`all_legal`]), written as a form
/// writes it ([`CommandSpec::line`], following each parameter's
/// [`ParamSyntax`]) with sample values, reads with the book's parser
/// ([`TextPlay::parse_command`]): so the page's forms, which write the same
/// lines from the same declarations, send only lines the book reads
/// (issue 26, item 1). Returns the number of lines read.
///
/// For each spec: a line with every required parameter at each of its
/// samples (the others at their first), then one line per optional
/// parameter and sample with it added, then one with every parameter
/// filled. `text(spec, param)` gives the samples of a [`ParamKind::Text`]
/// parameter (and may override any other's; empty for "use
/// [`sample_values`]"); a spec with a required parameter without samples is
/// passed over.
///
/// # Panics
/// When a line does not read, naming the seat, the line and the error; or
/// when a [`ParamSyntax::Flag`] parameter is not a choice of one word.
pub fn assert_forms_read<S: TextPlay>(
    state: &S::State,
    text: impl FnMut(&CommandSpec, &ParamSpec) -> Vec<String>,
) -> usize {
    assert_specs_read::<S>(state, all_legal::<S>(state), text)
}

/// [`assert_forms_read`] over the given `(seat, spec)` pairs instead of
/// every legal command: for a book's test that leaves out or rewrites some
/// specs (a form checked on its own) without wrapping the book in a type of
/// its own. Returns the number of lines read.
///
/// # Panics
/// As [`assert_forms_read`].
pub fn assert_specs_read<S: TextPlay>(
    state: &S::State,
    specs: Vec<(Seat, CommandSpec)>,
    mut text: impl FnMut(&CommandSpec, &ParamSpec) -> Vec<String>,
) -> usize {
    let mut read = 0;
    for (seat, spec) in specs {
        let samples: Vec<Vec<String>> = spec
            .params
            .iter()
            .map(|p| {
                if p.syntax == ParamSyntax::Flag {
                    match &p.kind {
                        ParamKind::Choice { options } if options.len() == 1 => {}
                        other => panic!(
                            "{seat}: `{}`'s flag parameter {:?} is not a choice of one word: {other:?}",
                            spec.name, p.name
                        ),
                    }
                }
                let own = text(&spec, p);
                if own.is_empty() { sample_values(p) } else { own }
            })
            .collect();
        let required: Vec<usize> = (0..spec.params.len())
            .filter(|&i| !spec.params[i].optional)
            .collect();
        if required.iter().any(|&i| samples[i].is_empty()) {
            continue;
        }
        let base: Vec<String> = (0..spec.params.len())
            .map(|i| {
                if required.contains(&i) {
                    samples[i][0].clone()
                } else {
                    String::new()
                }
            })
            .collect();
        let mut lines = vec![spec.line(&base)];
        for (i, vals) in samples.iter().enumerate() {
            for v in vals.iter().skip(usize::from(required.contains(&i))) {
                let mut values = base.clone();
                values[i] = v.clone();
                lines.push(spec.line(&values));
            }
        }
        let full: Vec<String> = samples
            .iter()
            .map(|v| v.first().cloned().unwrap_or_default())
            .collect();
        lines.push(spec.line(&full));
        lines.dedup();
        for line in lines {
            if let Err(e) = S::parse_command(state, &seat, &line) {
                panic!(
                    "{seat}: the form of `{}` writes {line:?}, which does not read: {e}",
                    spec.name
                );
            }
            read += 1;
        }
    }
    read
}

/// `legal` ([`all_legal`]) grouped by seat, in order: each seat that has a
/// legal command, with its commands.
pub fn by_seat(legal: &[(Seat, CommandSpec)]) -> Vec<(&Seat, Vec<&CommandSpec>)> {
    let mut out: Vec<(&Seat, Vec<&CommandSpec>)> = Vec::new();
    for (seat, spec) in legal {
        match out.iter_mut().find(|(s, _)| *s == seat) {
            Some((_, specs)) => specs.push(spec),
            None => out.push((seat, vec![spec])),
        }
    }
    out
}

/// The policy walk: from `table` as it is, for at most `max_steps` steps,
/// rolling with `Seeded::from_seed(seed)`. Returns the commands given.
///
/// At every step: when the encounter is [finished](TextPlay::finished),
/// nothing is [awaited](Policy::awaiting) and the walk stops; before that
/// something is. For every awaited entry the policy has a
/// [suggestion](Policy::suggest_for); asking again gives the same command
/// (compared as JSON: the policy never rolls); [`System::decide`] accepts it
/// on the current state (with a probe roller); [`Policy::suggest`] has a
/// command for that entry's seat; and `check` gets the state, the entry and
/// the command for the book's own assertions. Then the first entry's command
/// is given through [`Table::submit`] and must be accepted with at least one
/// event. At the end the log replays ([`assert_replay_rebuilds`]).
///
/// # Panics
/// On a broken invariant above (a test failure).
pub fn assert_policy_choices_accepted<S: Policy>(
    table: &mut Table<S>,
    seed: u64,
    max_steps: usize,
    mut check: impl FnMut(&S::State, &Awaiting, &S::Command),
) -> usize {
    let mut roller = Seeded::from_seed(seed);
    let mut given = 0;
    while given < max_steps {
        let state = table.state();
        let awaiting = S::awaiting(state);
        if S::finished(state) {
            assert!(
                awaiting.is_empty(),
                "step {given}: finished, yet awaiting {awaiting:?}"
            );
            break;
        }
        assert!(
            !awaiting.is_empty(),
            "step {given}: nothing awaited before the end:\n{}",
            S::status(state, &Seat::Gm)
        );
        for a in &awaiting {
            let Some(command) = S::suggest_for(state, a) else {
                panic!("step {given}: no suggestion for {a:?}");
            };
            assert_eq!(
                json(&S::suggest_for(state, a)),
                json(&Some(command.clone())),
                "step {given}: the same state gives another command for {a:?}"
            );
            let mut probe = Seeded::from_seed(seed ^ PROBE);
            if let Err(e) = S::decide(state, &a.seat, &command, &mut probe) {
                panic!("step {given}: {command:?} for {a:?} refused: {e}");
            }
            assert!(
                S::suggest(state, &a.seat).is_some(),
                "step {given}: no suggestion for the seat {} awaited as {a:?}",
                a.seat
            );
            check(state, a, &command);
        }
        policy_step(table, &mut roller);
        given += 1;
    }
    assert_replay_rebuilds(table);
    given
}

/// One step as `simulate` takes it: the first [awaited](Policy::awaiting)
/// entry's suggestion, given through [`Table::submit`]. Returns the entry,
/// the command and the events it logged.
///
/// # Panics
/// When nothing is awaited, the policy has no suggestion, or the command is
/// refused or logs no event (each a test failure).
pub fn policy_step<S: Policy>(
    table: &mut Table<S>,
    roller: &mut dyn Roller,
) -> (Awaiting, S::Command, Vec<Logged<S::Event>>) {
    let awaiting = S::awaiting(table.state());
    let Some(first) = awaiting.into_iter().next() else {
        panic!(
            "nothing awaited before the end:\n{}",
            S::status(table.state(), &Seat::Gm)
        );
    };
    let Some(command) = S::suggest_for(table.state(), &first) else {
        panic!("no suggestion for {first:?}");
    };
    let logged = match table.submit(&first.seat, &command, roller) {
        Ok(entries) => entries.to_vec(),
        Err(e) => panic!("{command:?} for {first:?} refused: {e}"),
    };
    assert!(
        !logged.is_empty(),
        "{command:?} for {first:?} logged no event"
    );
    (first, command, logged)
}

/// Play `table` with the policy to its end, as `simulate` does, rolling with
/// `Seeded::from_seed(seed)`: [`policy_step`] until
/// [finished](TextPlay::finished), then nothing is awaited and the log
/// replays ([`assert_replay_rebuilds`]). `after` gets the state before each
/// step and the events the step logged. Returns the commands given.
///
/// # Panics
/// When a step fails ([`policy_step`]), or the encounter is not over after
/// `cap` commands.
pub fn play_policy<S: Policy>(
    table: &mut Table<S>,
    seed: u64,
    cap: usize,
    mut after: impl FnMut(&S::State, &[Logged<S::Event>]),
) -> usize {
    let mut roller = Seeded::from_seed(seed);
    let mut given = 0;
    while !S::finished(table.state()) {
        assert!(given < cap, "seed {seed}: more than {cap} commands");
        let before = table.state().clone();
        let (_, _, logged) = policy_step(table, &mut roller);
        after(&before, &logged);
        given += 1;
    }
    let awaiting = S::awaiting(table.state());
    assert!(
        awaiting.is_empty(),
        "seed {seed}: finished, yet awaiting {awaiting:?}"
    );
    assert_replay_rebuilds(table);
    given
}

/// Replaying the log rebuilds the table: [`Table::replay`] of the whole log
/// from the initial state equals the current state
/// ([`Table::replay_matches`]), and so does replaying the log after a JSON
/// round trip (the log as a store keeps it), and the whole table read back
/// from JSON (a saved game) equals the table.
///
/// # Panics
/// When any of the three differs (a test failure), showing both states.
pub fn assert_replay_rebuilds<S: System>(table: &Table<S>) {
    let rebuilt = Table::<S>::replay(table.initial(), table.log(), usize::MAX);
    assert!(
        rebuilt == *table.state(),
        "replaying {} events does not rebuild the state:\nreplayed {rebuilt:?}\ncurrent {:?}",
        table.log().len(),
        table.state()
    );
    assert!(table.replay_matches());
    let text = serde_json::to_string(table.log()).expect("the log writes as JSON");
    let log: EventLog<S::Event> = serde_json::from_str(&text).expect("the log reads back");
    assert!(log == *table.log(), "the log changed through JSON: {text}");
    let from_json = Table::<S>::replay(table.initial(), &log, usize::MAX);
    assert!(
        from_json == *table.state(),
        "the log read back from JSON does not rebuild the state"
    );
    let saved = serde_json::to_string(table).expect("the table writes as JSON");
    let back: Table<S> = serde_json::from_str(&saved).expect("the table reads back");
    assert!(back == *table, "the table changed through JSON");
}

/// `value` as JSON, for comparing commands (which need not be `PartialEq`).
fn json<T: Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).expect("a command writes as JSON")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roller::Roller;
    use crate::rule::{Refusal, Rule, RuleError};
    use serde::{Deserialize, Serialize};

    /// A counter to 3: `add N` (N >= 1) while below 3.
    struct Count;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Added(u32);

    impl System for Count {
        const ID: &'static str = "count";
        type State = u32;
        type Command = u32;
        type Event = Added;
        type View = u32;
        fn decide(
            state: &u32,
            _: &Seat,
            command: &u32,
            _: &mut dyn Roller,
        ) -> Result<Vec<Added>, RuleError> {
            if *state >= 3 || *command == 0 {
                return Err(RuleError::new(
                    Rule::table("count"),
                    Refusal::WrongPhase,
                    "no",
                ));
            }
            Ok(vec![Added(*command)])
        }
        fn evolve(state: &mut u32, event: &Added) {
            *state = (*state + event.0).min(3);
        }
        fn view(state: &u32, _: &Seat) -> u32 {
            *state
        }
        fn legal_commands(_: &u32, _: &Seat) -> Vec<CommandSpec> {
            Vec::new()
        }
    }

    fn counted() -> Table<Count> {
        let mut t = Table::<Count>::new(0);
        let mut r = Seeded::from_seed(1);
        t.submit(&Seat::Gm, &1, &mut r).unwrap();
        t.submit(&Seat::Gm, &5, &mut r).unwrap();
        t
    }

    #[test]
    fn a_table_built_by_submit_replays() {
        assert_replay_rebuilds(&counted());
    }

    /// A saved table whose state is not what its log gives (edited by hand)
    /// fails the check.
    #[test]
    #[should_panic(expected = "does not rebuild the state")]
    fn a_state_the_log_does_not_give_fails() {
        let mut saved = serde_json::to_value(counted()).unwrap();
        saved["state"] = serde_json::json!(2);
        let t: Table<Count> = serde_json::from_value(saved).unwrap();
        assert_replay_rebuilds(&t);
    }
}
