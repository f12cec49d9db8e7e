//! Prints rolls per second and dice per second for a few expressions with a
//! seeded roller, in the same shape as `bench/compare_d20.py` prints for
//! Python's `d20`: once parsing and rolling each time, once rolling an
//! expression parsed beforehand (closer to `d20`, which caches its parses).
//!
//! Run with `cargo run --release -p tabula-core --example dice_throughput`
//! (optionally followed by the number of seconds per measurement, default 2).

use std::hint::black_box;
use std::time::{Duration, Instant};
use tabula_core::Seeded;
use tabula_core::notation::Expr;

const EXPRESSIONS: [&str; 7] = [
    "10d6>=5",
    "4d6kh3",
    "1d20+5",
    "2d6 + 1d4",
    "(1d4 + 1) * 2",
    "4d6ro<3kh3",
    "1d6e6 + 2",
];

/// Run `f` in batches of 1024 until `budget` has passed; returns calls per second.
fn measure(budget: Duration, mut f: impl FnMut()) -> (u64, f64) {
    let start = Instant::now();
    let mut calls: u64 = 0;
    while start.elapsed() < budget {
        for _ in 0..1024 {
            f();
        }
        calls += 1024;
    }
    (calls, calls as f64 / start.elapsed().as_secs_f64())
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let budget = Duration::from_secs_f64(seconds);
    let mut roller = Seeded::from_seed(1);
    for parse_each_time in [true, false] {
        if parse_each_time {
            println!("engine: tabula-core (Expr::parse + roll each time, Seeded/ChaCha20)");
        } else {
            println!("engine: tabula-core (roll of a pre-parsed Expr, Seeded/ChaCha20)");
        }
        println!(
            "{:<14} {:>12} {:>16} {:>16}",
            "expr", "rolls", "rolls/s", "dice/s"
        );
        for text in EXPRESSIONS {
            let parsed = Expr::parse(text).expect("valid notation");
            let dice = parsed.dice_count();
            let (rolls, per_sec) = if parse_each_time {
                measure(budget, || {
                    let expr = Expr::parse(black_box(text)).expect("valid notation");
                    black_box(expr.roll(&mut roller).expect("seeded rolls never fail"));
                })
            } else {
                measure(budget, || {
                    black_box(
                        black_box(&parsed)
                            .roll(&mut roller)
                            .expect("seeded rolls never fail"),
                    );
                })
            };
            println!(
                "{:<14} {:>12} {:>16.0} {:>16.0}",
                text,
                rolls,
                per_sec,
                per_sec * f64::from(dice)
            );
        }
        println!();
    }
}
