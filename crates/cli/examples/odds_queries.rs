//! Times the exact-odds queries of `bench/odds_compare.sh` through Tabula's
//! public APIs and prints, per query, one JSON line: the name, the mean time
//! of one computation in nanoseconds, the number of computations timed, and
//! the answer (a distribution as `[outcome, probability]` pairs, or one
//! probability).
//!
//! Dice queries go through the notation's exact odds (`Expr::odds`; the text
//! is parsed once, outside the timing); the joint of successes and ones
//! through `Dist<(i64, i64)>::sum_of`; the system queries through each
//! system's own odds function. Every computation starts from scratch ("cold"):
//! nothing is carried between iterations.
//!
//! Run: `cargo run --release -p tabula --example odds_queries [seconds-per-query]`

use serde_json::{Value, json};
use std::hint::black_box;
use std::time::{Duration, Instant};
use tabula_engine::bastards::chance;
use tabula_engine::bastards::fate::SkillHand;
use tabula_engine::core::notation::Expr;
use tabula_engine::core::odds::Dist;
use tabula_engine::sapio::odds as sapio_odds;
use tabula_engine::sour_grapes::check as sour_grapes_check;

/// The dice expressions, in the notation (the same text names the query).
const DICE: [&str; 11] = [
    "3d6",
    "20d6",
    "100d6",
    "4d6kh3",
    "8d6kh3",
    "20d6kh5",
    "20d10kh5",
    "50d6kh10",
    "100d20kh10",
    "500d6",
    "10d6>=5",
];

/// Time `f` for about `budget` (at least 3 runs, at most 1,000,000): the
/// mean nanoseconds per run, the runs, and the last answer.
fn time<T>(budget: Duration, mut f: impl FnMut() -> T) -> (f64, u64, T) {
    let mut answer = f();
    let mut runs = 0u64;
    let start = Instant::now();
    while runs < 3 || (start.elapsed() < budget && runs < 1_000_000) {
        answer = black_box(f());
        runs += 1;
    }
    let ns = start.elapsed().as_nanos() as f64 / runs as f64;
    (ns, runs, answer)
}

fn report(name: &str, ns: f64, runs: u64, answer: Value) {
    println!(
        "{}",
        json!({ "name": name, "ns": ns, "runs": runs, "answer": answer })
    );
}

fn pairs(d: &Dist<i64>) -> Value {
    Value::Array(d.iter().map(|(v, p)| json!([v, p])).collect())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.3);
    let budget = Duration::from_secs_f64(seconds);

    for text in DICE {
        let expr = Expr::parse(text)?;
        let (ns, runs, odds) = time(budget, || expr.odds());
        report(text, ns, runs, pairs(&odds?.dist));
    }

    // The joint distribution of successes (5 or 6) and ones over 50d6.
    let die = Dist::uniform((1..=6).map(|v| (i64::from(v >= 5), i64::from(v == 1))))?;
    let (ns, runs, joint) = time(budget, || die.sum_of(50));
    let joint: Vec<Value> = joint?
        .iter()
        .map(|((s, o), p)| json!([[s, o], p]))
        .collect();
    report("50d6 successes and ones", ns, runs, Value::Array(joint));

    // Sour Grapes: a Check of 6 dice with 2 tokens against Difficulty 5.
    let (ns, runs, p) = time(budget, || sour_grapes_check::p_success(6, 2, 5));
    report(
        "Sour Grapes check 6 dice + 2 tokens > 5",
        ns,
        runs,
        json!(p?),
    );

    // A Game of Bastards: a Skill Hand (Trait 3, rank 3, Specialty 1) against
    // the Dealer's Fate Draw with Difficulty Modifier 2.
    let hand = SkillHand {
        trait_score: 3,
        rank: 3,
        modifier: 2,
        specialty: 1,
    };
    let (ns, runs, odds) = time(budget, || chance::skill_hand(hand));
    report(
        "Bastards Skill Hand vs Fate Draw",
        ns,
        runs,
        json!(odds?.probability),
    );

    // Sapio: a pool of 5 Spiral Dice against TN 6 (the whole distribution of
    // Hits, Spares and Spirals, Improbable Success included).
    let (ns, runs, p) = time(budget, || sapio_odds::p_success(5, 6));
    report("Sapio 5 dice vs TN 6", ns, runs, json!(p?));
    Ok(())
}
