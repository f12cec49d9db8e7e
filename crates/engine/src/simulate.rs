//! Simulation of whole encounters: play a table's encounter many times to its
//! end with a [`Policy`] in every seat and report who wins, how long it takes,
//! who is taken out and what is left (`tabula <system> simulate`).
//!
//! Each run starts from the table's initial state with its own seeded roller
//! ([`run_roller`])
//! (run `i` of seed `s` always rolls the same dice), asks
//! [`Policy::awaiting`] who the table waits on, gives the first of them the
//! policy's command, and decides and evolves it, until
//! [`tabula_core::TextPlay::finished`]. Runs are spread over threads with
//! `rayon` and folded in run order, so the same seed gives the same report
//! whatever the thread count. Win rates carry a 95% Wilson interval.

use std::collections::BTreeMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

use tabula_core::policy::{Awaiting, EncounterReport, Policy, wilson_95};
use tabula_core::roller::Fast;
use tabula_core::system::{CommandSpec, ParamKind};
use tabula_core::{Roller, Seeded, grammar};

/// The most runs one simulation may ask for.
pub const MAX_RUNS: u64 = 10_000_000;
/// The most commands one run may take before it counts as stuck.
pub const MAX_COMMANDS_PER_RUN: u32 = 10_000;
/// The most threads one simulation may ask for.
pub const MAX_THREADS: usize = 256;
/// Runs are played in chunks of this many (in parallel within a chunk) and
/// folded in order, which bounds memory whatever `runs` is.
const CHUNK: u64 = 4_096;
/// Failed runs whose message a report keeps (the count is always exact).
const KEEP_FAILURES: usize = 5;

/// How one participant's commands are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PolicyChoice {
    /// The system's own policy ([`Policy::suggest_for`]): a reasonable
    /// player's choice, documented in each system's `policy` module.
    Book,
    /// A uniformly random legal command of the participant's seat that names
    /// the participant (or, for a seat playing one participant, any), with
    /// random parameters; up to 32 draws, then the book policy. A baseline to
    /// compare the book policy against. Table steps (the GM's next round, the
    /// end) always follow the book policy.
    Random,
}

impl PolicyChoice {
    /// Read `book` or `random` (any case).
    ///
    /// # Errors
    /// [`SimError::Policy`] naming the word and the policies there are.
    pub fn parse(word: &str) -> Result<Self, SimError> {
        match word.trim().to_ascii_lowercase().as_str() {
            "book" | "default" => Ok(PolicyChoice::Book),
            "random" => Ok(PolicyChoice::Random),
            other => Err(SimError::Policy(format!(
                "unknown policy `{other}`: the policies are `book` and `random`"
            ))),
        }
    }
}

/// What to simulate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// How many encounters, `1..=`[`MAX_RUNS`].
    pub runs: u64,
    /// The seed: run `i` rolls with a stream fixed by (`seed`, `i`).
    pub seed: u64,
    /// Threads, `1..=`[`MAX_THREADS`]; `0` for one per core.
    pub threads: usize,
    /// Participants (by name as in the table, any case) and their policy;
    /// everyone else plays [`PolicyChoice::Book`].
    pub policies: Vec<(String, PolicyChoice)>,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            runs: 1_000,
            seed: 1,
            threads: 0,
            policies: Vec::new(),
        }
    }
}

/// A simulation could not start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", content = "message", rename_all = "kebab-case")]
pub enum SimError {
    /// `runs` is 0 or above [`MAX_RUNS`].
    #[error("--runs must be 1 to {MAX_RUNS}, not {0}")]
    Runs(u64),
    /// `threads` is above [`MAX_THREADS`].
    #[error("--threads must be 0 (one per core) to {MAX_THREADS}, not {0}")]
    Threads(usize),
    /// A `--policy` names no participant or no policy.
    #[error("--policy: {0}")]
    Policy(String),
    /// The thread pool could not be built.
    #[error("could not start the worker threads: {0}")]
    Pool(String),
}

/// One side's record over every run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideRecord {
    /// The side's name.
    pub side: String,
    /// Runs it won.
    pub wins: u64,
    /// `wins / runs`, `0.0..=1.0`.
    pub rate: f64,
    /// The 95% Wilson interval of `rate`.
    pub interval: (f64, f64),
}

/// Rounds to the end over every finished run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RoundStats {
    /// Mean round the encounter ended in.
    pub mean: f64,
    /// Median (the lower middle for an even count).
    pub median: u32,
    /// 90th percentile (nearest rank).
    pub p90: u32,
    /// Longest run.
    pub max: u32,
    /// `(round, runs that ended in it)`, rounds ascending.
    pub histogram: Vec<(u32, u64)>,
}

/// One participant's record over every run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParticipantRecord {
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: String,
    /// The policy that played it.
    pub policy: PolicyChoice,
    /// Runs in which it was taken out.
    pub taken_out: u64,
    /// `taken_out / runs`.
    pub taken_out_rate: f64,
    /// Each tracked resource's mean at the end, in the system's order.
    pub resources: Vec<(String, f64)>,
}

/// A run that could not be played to its end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunFailure {
    /// The run's index (from 0); `--seed S` and this index replay it.
    pub run: u64,
    /// What went wrong: the refused command and its rule, or "stuck".
    pub message: String,
}

/// The report of a simulation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimReport {
    /// The system id.
    pub system: String,
    /// The book's title (`Scratch RPS`).
    pub title: String,
    /// Runs asked for.
    pub runs: u64,
    /// The seed.
    pub seed: u64,
    /// Runs played to their end.
    pub finished: u64,
    /// Each side's wins with its interval, in the table's order.
    pub sides: Vec<SideRecord>,
    /// Finished runs that ended with no side the winner.
    pub no_winner: u64,
    /// Rounds to the end.
    pub rounds: RoundStats,
    /// Mean commands per finished run.
    pub mean_commands: f64,
    /// Every participant, in the table's order.
    pub participants: Vec<ParticipantRecord>,
    /// Runs that were refused or stuck (at most the first 5 kept; see
    /// `failed` for the count).
    pub failures: Vec<RunFailure>,
    /// How many runs failed.
    pub failed: u64,
}

/// The roller of run `run` of seed `seed`: independent streams for every run.
/// A simulation rolls with [`Fast`] (Xoshiro256++): uniform and unbiased like
/// the table's ChaCha20 [`Seeded`] roller, about twice as fast, and nobody
/// needs it to be unpredictable (the table's own dice still are).
pub fn run_roller(seed: u64, run: u64) -> Fast {
    Fast::from_seed(splitmix64(splitmix64(seed) ^ run))
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The result of one run: its report and its command count.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// How the encounter ended.
    pub report: EncounterReport,
    /// Commands given.
    pub commands: u32,
}

/// Play one encounter from `initial` to its end with `roller`; participants
/// named in `policies` play theirs, the rest the book policy.
///
/// # Errors
/// A message naming the refused command and its rule, or that the table
/// waited on nobody (or the policy had nothing) before the end, or that the
/// run passed [`MAX_COMMANDS_PER_RUN`].
pub fn play_one<P: Policy>(
    initial: &P::State,
    roller: &mut dyn Roller,
    policies: &[(String, PolicyChoice)],
    choice_seed: u64,
) -> Result<RunResult, String> {
    let mut state = initial.clone();
    let mut random = ChaCha8Rng::seed_from_u64(choice_seed);
    for commands in 0..MAX_COMMANDS_PER_RUN {
        if P::finished(&state) {
            return Ok(RunResult {
                report: P::report(&state),
                commands,
            });
        }
        let awaiting = P::awaiting(&state);
        let Some(first) = awaiting.first() else {
            return Err("stuck: the table waits on nobody before the encounter ends".into());
        };
        let command = choose::<P>(&state, first, policies, &mut random).ok_or_else(|| {
            format!(
                "stuck: the policy has no command for {}{}",
                first.seat,
                first
                    .participant
                    .as_deref()
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default()
            )
        })?;
        let events = P::decide(&state, &first.seat, &command, roller)
            .map_err(|e| format!("refused {command:?} from {}: {e}", first.seat))?;
        for event in &events {
            P::evolve(&mut state, event);
        }
    }
    if P::finished(&state) {
        return Ok(RunResult {
            report: P::report(&state),
            commands: MAX_COMMANDS_PER_RUN,
        });
    }
    Err(format!(
        "stuck: no end after {MAX_COMMANDS_PER_RUN} commands"
    ))
}

/// The policy a participant plays under `policies`.
fn policy_of(awaiting: &Awaiting, policies: &[(String, PolicyChoice)]) -> PolicyChoice {
    let Some(name) = awaiting.participant.as_deref() else {
        return PolicyChoice::Book;
    };
    policies
        .iter()
        .find(|(n, _)| tabula_core::names::same_name(n, name))
        .map_or(PolicyChoice::Book, |(_, p)| *p)
}

/// The command for `awaiting` under its policy.
pub fn choose<P: Policy>(
    state: &P::State,
    awaiting: &Awaiting,
    policies: &[(String, PolicyChoice)],
    random: &mut ChaCha8Rng,
) -> Option<P::Command> {
    if policy_of(awaiting, policies) == PolicyChoice::Random
        && let Some(command) = random_command::<P>(state, awaiting, random)
    {
        return Some(command);
    }
    P::suggest_for(state, awaiting)
}

/// A random legal command for `awaiting` (see [`PolicyChoice::Random`]).
fn random_command<P: Policy>(
    state: &P::State,
    awaiting: &Awaiting,
    random: &mut ChaCha8Rng,
) -> Option<P::Command> {
    let name = awaiting.participant.as_deref()?;
    let specs: Vec<CommandSpec> = P::legal_commands(state, &awaiting.seat)
        .into_iter()
        .filter(|s| {
            !s.params.iter().any(|p| matches!(p.kind, ParamKind::Text))
                && names_participant(s, name)
        })
        .collect();
    if specs.is_empty() {
        return None;
    }
    for _ in 0..32 {
        let spec = &specs[random.random_range(0..specs.len())];
        let mut line = spec.name.clone();
        for param in &spec.params {
            line.push(' ');
            match &param.kind {
                ParamKind::Int { min, max } if min <= max => {
                    line.push_str(&random.random_range(*min..=*max).to_string());
                }
                ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options }
                    if !options.is_empty() =>
                {
                    let pick = &options[random.random_range(0..options.len())];
                    line.push_str(&grammar::quote(pick));
                }
                ParamKind::NumberOrName { min, max, names } if min <= max => {
                    // A name or a number, as often as each.
                    if !names.is_empty() && random.random_range(0..2) == 0 {
                        let pick = &names[random.random_range(0..names.len())];
                        line.push_str(&grammar::quote(pick));
                    } else {
                        line.push_str(&random.random_range(*min..=*max).to_string());
                    }
                }
                _ => return None,
            }
        }
        let Ok(command) = P::parse_command(state, &awaiting.seat, &line) else {
            continue;
        };
        // Check it against the rules with a throwaway roller: a random
        // command the rules refuse is drawn again.
        let mut probe = Seeded::from_seed(0);
        if P::decide(state, &awaiting.seat, &command, &mut probe).is_ok() {
            return Some(command);
        }
    }
    None
}

/// True when a legal command is one `name` gives: its name or one of its
/// choices names it, or it names no participant at all.
fn names_participant(spec: &CommandSpec, name: &str) -> bool {
    let mut names_someone = false;
    for param in &spec.params {
        if let ParamKind::Choice { options } = &param.kind {
            if options
                .iter()
                .any(|o| tabula_core::names::same_name(o, name))
            {
                return true;
            }
            names_someone = true;
        }
    }
    let lower = spec.name.to_lowercase();
    lower.contains(&name.to_lowercase()) || !names_someone
}

/// Simulate `options.runs` encounters from `initial` (see the module docs).
/// `progress` is called after every run with the number of runs done so
/// far, from whichever worker thread finished it (so counts may arrive a
/// little out of order).
///
/// # Errors
/// [`SimError`] for options out of range or a policy naming nobody.
pub fn simulate<P: Policy>(
    initial: &P::State,
    options: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimReport, SimError>
where
    P::State: Sync,
{
    if options.runs == 0 || options.runs > MAX_RUNS {
        return Err(SimError::Runs(options.runs));
    }
    if options.threads > MAX_THREADS {
        return Err(SimError::Threads(options.threads));
    }
    let start = P::report(initial);
    for (name, _) in &options.policies {
        if !start
            .participants
            .iter()
            .any(|p| tabula_core::names::same_name(&p.name, name))
        {
            let known: Vec<&str> = start.participants.iter().map(|p| p.name.as_str()).collect();
            return Err(SimError::Policy(format!(
                "no participant is called `{name}`; the participants are {}",
                known.join(", ")
            )));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| SimError::Pool(e.to_string()))?;
    let mut fold = Fold::new(&start, &options.policies);
    let finished = std::sync::atomic::AtomicU64::new(0);
    let mut done = 0;
    while done < options.runs {
        let end = (done + CHUNK).min(options.runs);
        let results: Vec<Result<RunResult, String>> = pool.install(|| {
            (done..end)
                .into_par_iter()
                .map(|run| {
                    let mut roller = run_roller(options.seed, run);
                    let choice_seed = splitmix64(run ^ splitmix64(options.seed ^ 0xC401CE));
                    let result =
                        play_one::<P>(initial, &mut roller, &options.policies, choice_seed);
                    let n = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    progress(n);
                    result
                })
                .collect()
        });
        for (i, result) in results.into_iter().enumerate() {
            fold.add(done + i as u64, result);
        }
        done = end;
    }
    Ok(fold.finish(P::ID, options))
}

/// Running totals, folded in run order.
struct Fold {
    sides: Vec<String>,
    wins: Vec<u64>,
    no_winner: u64,
    rounds: Vec<u32>,
    commands: u64,
    participants: Vec<(String, String, PolicyChoice)>,
    taken_out: Vec<u64>,
    resources: Vec<Vec<(String, f64)>>,
    failures: Vec<RunFailure>,
    failed: u64,
}

impl Fold {
    fn new(start: &EncounterReport, policies: &[(String, PolicyChoice)]) -> Self {
        let n = start.participants.len();
        Fold {
            sides: start.sides.clone(),
            wins: vec![0; start.sides.len()],
            no_winner: 0,
            rounds: Vec::new(),
            commands: 0,
            participants: start
                .participants
                .iter()
                .map(|p| {
                    let policy = policies
                        .iter()
                        .find(|(name, _)| tabula_core::names::same_name(name, &p.name))
                        .map_or(PolicyChoice::Book, |(_, c)| *c);
                    (p.name.clone(), p.side.clone(), policy)
                })
                .collect(),
            taken_out: vec![0; n],
            resources: start
                .participants
                .iter()
                .map(|p| p.resources.iter().map(|r| (r.name.clone(), 0.0)).collect())
                .collect(),
            failures: Vec::new(),
            failed: 0,
        }
    }

    fn add(&mut self, run: u64, result: Result<RunResult, String>) {
        let r = match result {
            Ok(r) => r,
            Err(message) => {
                self.failed += 1;
                if self.failures.len() < KEEP_FAILURES {
                    self.failures.push(RunFailure { run, message });
                }
                return;
            }
        };
        self.rounds.push(r.report.round);
        self.commands += u64::from(r.commands);
        match r
            .report
            .winner
            .as_ref()
            .and_then(|w| self.sides.iter().position(|s| s == w))
        {
            Some(i) => self.wins[i] += 1,
            None => self.no_winner += 1,
        }
        for p in &r.report.participants {
            let Some(i) = self.participants.iter().position(|(n, _, _)| *n == p.name) else {
                continue;
            };
            if p.taken_out {
                self.taken_out[i] += 1;
            }
            for res in &p.resources {
                match self.resources[i].iter_mut().find(|(n, _)| *n == res.name) {
                    Some((_, sum)) => *sum += res.value,
                    None => self.resources[i].push((res.name.clone(), res.value)),
                }
            }
        }
    }

    fn finish(mut self, system: &str, options: &SimOptions) -> SimReport {
        let finished = self.rounds.len() as u64;
        // A mean over the finished runs (0 when none finished).
        let mean = |sum: f64| {
            if finished == 0 {
                0.0
            } else {
                sum / finished as f64
            }
        };
        let per = |x: u64| mean(x as f64);
        let sides = self
            .sides
            .iter()
            .zip(&self.wins)
            .map(|(side, &wins)| SideRecord {
                side: side.clone(),
                wins,
                rate: per(wins),
                interval: wilson_95(wins, finished),
            })
            .collect();
        self.rounds.sort_unstable();
        let mut histogram: BTreeMap<u32, u64> = BTreeMap::new();
        for &r in &self.rounds {
            *histogram.entry(r).or_default() += 1;
        }
        let rounds = if self.rounds.is_empty() {
            RoundStats::default()
        } else {
            let n = self.rounds.len();
            let sum: u64 = self.rounds.iter().map(|&r| u64::from(r)).sum();
            RoundStats {
                mean: sum as f64 / n as f64,
                median: self.rounds[(n - 1) / 2],
                p90: self.rounds[(n * 9).div_ceil(10).saturating_sub(1)],
                max: self.rounds[n - 1],
                histogram: histogram.into_iter().collect(),
            }
        };
        let participants = self
            .participants
            .into_iter()
            .enumerate()
            .map(|(i, (name, side, policy))| ParticipantRecord {
                name,
                side,
                policy,
                taken_out: self.taken_out[i],
                taken_out_rate: per(self.taken_out[i]),
                resources: self.resources[i]
                    .iter()
                    .map(|(n, sum)| (n.clone(), mean(*sum)))
                    .collect(),
            })
            .collect();
        SimReport {
            system: system.to_string(),
            title: system
                .parse::<crate::SystemId>()
                .map_or_else(|_| system.to_string(), |id| id.title().to_string()),
            runs: options.runs,
            seed: options.seed,
            finished,
            sides,
            no_winner: self.no_winner,
            rounds,
            mean_commands: per(self.commands),
            participants,
            failures: self.failures,
            failed: self.failed,
        }
    }
}

impl SimReport {
    /// The report as text for the terminal: win rates in percent with their
    /// interval, rounds, who is taken out and what is left.
    pub fn to_text(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let mut out = format!(
            "{} encounters of {} (seed {}), {} played to the end\n",
            self.runs, self.title, self.seed, self.finished
        );
        out.push_str("\nWins (95% interval)\n");
        for s in &self.sides {
            out.push_str(&format!(
                "  {:<20} {:>7}  ({} to {})  {} runs\n",
                s.side,
                pct(s.rate),
                pct(s.interval.0),
                pct(s.interval.1),
                s.wins
            ));
        }
        if self.no_winner > 0 {
            out.push_str(&format!(
                "  {:<20} {:>7}  {} runs\n",
                "no winner",
                pct(self.no_winner as f64 / self.finished.max(1) as f64),
                self.no_winner
            ));
        }
        out.push_str(&format!(
            "\nRounds to the end: mean {:.2}, median {}, p90 {}, longest {}; {:.1} commands a run\n",
            self.rounds.mean, self.rounds.median, self.rounds.p90, self.rounds.max, self.mean_commands
        ));
        out.push_str("\nParticipants (taken out; mean at the end)\n");
        for p in &self.participants {
            let res: Vec<String> = p
                .resources
                .iter()
                .map(|(n, v)| format!("{n} {v:.2}"))
                .collect();
            let policy = if p.policy == PolicyChoice::Random {
                " [random policy]"
            } else {
                ""
            };
            out.push_str(&format!(
                "  {:<20} {:<12} taken out {:>6}  {}{}\n",
                p.name,
                p.side,
                pct(p.taken_out_rate),
                res.join(", "),
                policy
            ));
        }
        if self.failed > 0 {
            out.push_str(&format!(
                "\n{} runs could not be played to the end:\n",
                self.failed
            ));
            for f in &self.failures {
                out.push_str(&format!("  run {}: {}\n", f.run, f.message));
            }
        }
        out
    }
}

/// An `--override` could not be applied to the table file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum OverrideError {
    /// Not `PATH=VALUE`.
    #[error("--override `{0}`: write it as PATH=VALUE, e.g. `Thugs.members=5`")]
    Form(String),
    /// The table file is not TOML.
    #[error("the table file is not TOML: {0}")]
    Table(String),
    /// A step of the path names nothing in the table file.
    #[error("--override `{text}`: `{step}` is not in the table file{hint}")]
    Path {
        /// The whole override.
        text: String,
        /// The step that names nothing.
        step: String,
        /// What is there instead.
        hint: String,
    },
}

/// Apply `PATH=VALUE` changes to a table file's TOML text, for "what if"
/// runs. A path is dot-separated keys; a step into a list is its index or the
/// name of an entry (an entry whose `name`, `id`, `side`, `seat` or `file`
/// is that name, any case), so `Thugs.members=5` reaches the `members` of the
/// entry named Thugs wherever it is; the first step may be skipped like that
/// at any depth. VALUE is a TOML value (`6`, `"text"`, `true`), or text.
///
/// # Errors
/// [`OverrideError`] naming the override and the step that names nothing.
pub fn apply_overrides(text: &str, overrides: &[String]) -> Result<String, OverrideError> {
    if overrides.is_empty() {
        return Ok(text.to_string());
    }
    let mut doc: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| OverrideError::Table(e.to_string()))?;
    for o in overrides {
        let (path, value) = o
            .split_once('=')
            .ok_or_else(|| OverrideError::Form(o.clone()))?;
        let steps: Vec<&str> = path.trim().split('.').map(str::trim).collect();
        if steps.iter().any(|s| s.is_empty()) {
            return Err(OverrideError::Form(o.clone()));
        }
        let value = parse_value(value.trim());
        let mut root = toml::Value::Table(std::mem::take(&mut doc));
        let result = set_path(&mut root, &steps, value);
        if let toml::Value::Table(t) = root {
            doc = t;
        }
        result.map_err(|(step, hint)| OverrideError::Path {
            text: o.clone(),
            step,
            hint,
        })?;
    }
    toml::to_string(&doc).map_err(|e| OverrideError::Table(e.to_string()))
}

fn parse_value(text: &str) -> toml::Value {
    let wrapped = format!("v = {text}");
    match wrapped.parse::<toml::Table>() {
        Ok(mut t) => t
            .remove("v")
            .unwrap_or(toml::Value::String(text.to_string())),
        Err(_) => toml::Value::String(text.to_string()),
    }
}

fn entry_named(v: &toml::Value, name: &str) -> bool {
    let toml::Value::Table(t) = v else {
        return false;
    };
    ["name", "id", "side", "seat", "file"].iter().any(|k| {
        t.get(*k)
            .and_then(toml::Value::as_str)
            .is_some_and(|s| tabula_core::names::same_name(s, name))
    })
}

/// Set `steps` under `at` to `value`; a step not found directly is searched
/// for as a named entry anywhere below. Errors give the step and a hint.
fn set_path(
    at: &mut toml::Value,
    steps: &[&str],
    value: toml::Value,
) -> Result<(), (String, String)> {
    let Some((&step, rest)) = steps.split_first() else {
        *at = value;
        return Ok(());
    };
    if let Some(next) = direct_child(at, step) {
        return set_path(next, rest, value);
    }
    if let Some(next) = find_named(at, step) {
        return set_path(next, rest, value);
    }
    let hint = match at {
        toml::Value::Table(t) => format!(
            "; here there is {}",
            t.keys().cloned().collect::<Vec<_>>().join(", ")
        ),
        _ => String::new(),
    };
    Err((step.to_string(), hint))
}

fn direct_child<'a>(at: &'a mut toml::Value, step: &str) -> Option<&'a mut toml::Value> {
    match at {
        toml::Value::Table(t) => {
            let key = t
                .keys()
                .find(|k| tabula_core::names::same_name(k, step))?
                .clone();
            t.get_mut(&key)
        }
        toml::Value::Array(items) => {
            if let Ok(i) = step.parse::<usize>() {
                return items.get_mut(i);
            }
            items.iter_mut().find(|v| entry_named(v, step))
        }
        _ => None,
    }
}

fn find_named<'a>(at: &'a mut toml::Value, step: &str) -> Option<&'a mut toml::Value> {
    match at {
        toml::Value::Table(t) => t.iter_mut().find_map(|(_, v)| find_named(v, step)),
        toml::Value::Array(items) => {
            if let Some(i) = items.iter().position(|v| entry_named(v, step)) {
                return items.get_mut(i);
            }
            items.iter_mut().find_map(|v| find_named(v, step))
        }
        _ => None,
    }
}

/// [`simulate`] for a system chosen at run time, from a table file's text
/// (after [`apply_overrides`]) and the directory its sheets are in.
///
/// # Errors
/// [`SimSetupError::Setup`] for a broken table file; [`SimSetupError::Options`]
/// for options out of range.
pub fn simulate_table(
    system: crate::SystemId,
    text: &str,
    files: &(dyn tabula_core::files::SheetFiles + Sync),
    options: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimReport, SimSetupError> {
    fn run<P>(
        text: &str,
        files: &(dyn tabula_core::files::SheetFiles + Sync),
        options: &SimOptions,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<SimReport, SimSetupError>
    where
        P: Policy,
        P::State: Sync,
    {
        // The table's own settings (`dice`) do not change a simulation.
        let (_, text) = crate::any::split_table_settings(text).map_err(SimSetupError::Setup)?;
        let initial = P::setup(&text, files).map_err(|e| SimSetupError::Setup(e.to_string()))?;
        simulate::<P>(&initial, options, progress).map_err(SimSetupError::Options)
    }
    use crate::SystemId;
    dispatch!(system, S => run::<S>(text, files, options, progress))
}

/// [`simulate_table`] could not start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum SimSetupError {
    /// The table file is broken (the system's message, naming the field).
    #[error("table: {0}")]
    Setup(String),
    /// The options are out of range.
    #[error(transparent)]
    Options(SimError),
}
