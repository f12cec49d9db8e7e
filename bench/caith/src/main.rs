//! Dice throughput: Tabula's notation against the Rust crate `caith` 4.2.4 on
//! the same rolls, in one process, one after the other.
//!
//! Each engine parses and rolls each expression in a loop for a fixed time
//! (parse + roll each time), then rolls an expression parsed beforehand. Prints
//! rolls per second and Tabula's lead. The Python `d20` side of the comparison is
//! `bench/compare_d20.py`; `bench/dice_compare.sh` runs both.
//!
//! Usage: cargo run --release --manifest-path bench/caith/Cargo.toml -- [seconds]

use std::hint::black_box;
use std::time::{Duration, Instant};
use tabula_core::notation::Expr;
use tabula_core::{Roller, Seeded};

/// (Tabula, caith) spellings of the same roll. caith: `K3` keeps the highest 3,
/// `r2` rerolls a die showing 2 or less once, `ie6` explodes on 6 without
/// limit, `t5` counts dice showing 5 or more.
const EXPRESSIONS: [(&str, &str); 7] = [
    ("10d6>=5", "10d6 t5"),
    ("4d6kh3", "4d6 K3"),
    ("1d20+5", "1d20 + 5"),
    ("2d6 + 1d4", "2d6 + 1d4"),
    ("(1d4 + 1) * 2", "(1d4 + 1) * 2"),
    ("4d6ro<3kh3", "4d6 r2 K3"),
    ("1d6e6 + 2", "1d6 ie6 + 2"),
];

/// The calling thread's time on a core so far, in nanoseconds (Linux's
/// `/proc/thread-self/schedstat`, first field), or `None` elsewhere.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Run `f` in batches of 256 until `budget` has passed; returns calls per
/// second of the thread's time on a core (of wall time where that is not
/// known), so that other work on a shared machine slows the count less.
fn measure(budget: Duration, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let cpu_start = cpu_ns();
    let mut calls: u64 = 0;
    while start.elapsed() < budget {
        for _ in 0..256 {
            f();
        }
        calls += 256;
    }
    let wall = start.elapsed().as_secs_f64();
    let seconds = match (cpu_start, cpu_ns()) {
        (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
        _ => wall,
    };
    calls as f64 / seconds
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let budget = Duration::from_secs_f64(seconds);
    let mut seeded = Seeded::from_seed(1);
    // `-- calls N EXPR`: parse and roll one expression exactly N times, for
    // an instruction count (`valgrind --tool=callgrind`) that does not depend
    // on the time taken.
    if std::env::args().nth(1).as_deref() == Some("calls") {
        let n: u64 = std::env::args()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .unwrap_or(100_000);
        let text = std::env::args().nth(3).unwrap_or_else(|| "4d6kh3".into());
        for _ in 0..n {
            let expr = Expr::parse(black_box(&text)).expect("valid notation");
            black_box(expr.roll(&mut seeded).expect("seeded rolls never fail"));
        }
        return;
    }
    // `-- SECONDS dice N`: time the seeded roller alone, N d6 in one
    // `roll_many` (ChaCha20 and the face from its words): the part of a
    // parse + roll that no change of the notation's code can remove.
    if let (Some(n), Some("dice")) = (
        std::env::args()
            .nth(3)
            .and_then(|n| n.parse::<usize>().ok()),
        std::env::args().nth(2).as_deref(),
    ) {
        let mut faces = vec![0u32; n];
        let rate = measure(budget, || {
            seeded
                .roll_many(tabula_core::dice::Die::D6, black_box(&mut faces))
                .expect("seeded rolls never fail");
            black_box(&faces);
        });
        println!("{n} d6 from the seeded roller: {:.1} ns", 1e9 / rate);
        return;
    }
    // `-- SECONDS EXPR odds`: time Tabula's exact odds of one expression.
    if let (Some(text), Some("odds")) =
        (std::env::args().nth(2), std::env::args().nth(3).as_deref())
    {
        let expr = Expr::parse(&text).expect("valid notation");
        let rate = measure(budget, || {
            black_box(black_box(&expr).odds().expect("odds"));
        });
        println!("{text}: odds in {:.1} us", 1e6 / rate);
        return;
    }
    // `-- SECONDS EXPR parse` and `-- SECONDS EXPR roll`: time Tabula's parse
    // alone, or its roll of an expression parsed beforehand (for a profiler).
    if let (Some(text), Some(part @ ("parse" | "roll"))) =
        (std::env::args().nth(2), std::env::args().nth(3).as_deref())
    {
        let expr = Expr::parse(&text).expect("valid notation");
        let rate = if part == "parse" {
            measure(budget, || {
                black_box(Expr::parse(black_box(&text)).expect("valid notation"));
            })
        } else {
            measure(budget, || {
                black_box(black_box(&expr).roll(&mut seeded).expect("seeded"));
            })
        };
        println!("{text}: {rate:.0} {part} per second");
        return;
    }
    // `-- SECONDS EXPR`: parse and roll one Tabula expression only (for a profiler).
    if let Some(text) = std::env::args().nth(2) {
        let rate = measure(budget, || {
            let expr = Expr::parse(black_box(&text)).expect("valid notation");
            black_box(expr.roll(&mut seeded).expect("seeded rolls never fail"));
        });
        println!("{text}: {rate:.0} parse + roll per second");
        return;
    }
    println!("tabula-core (Seeded/ChaCha20) against caith 4.2.4, rolls per second of CPU time");
    println!(
        "{:<14} {:>14} {:>14} {:>6}   {:>14} {:>14} {:>6}",
        "expr", "tabula p+r", "caith p+r", "lead", "tabula roll", "caith roll", "lead"
    );
    for (ours, theirs) in EXPRESSIONS {
        let parsed = Expr::parse(ours).expect("valid notation");
        let roller = caith::Roller::new(theirs).expect("caith reads it");
        roller.roll().expect("caith rolls it");
        let t_pr = measure(budget, || {
            let expr = Expr::parse(black_box(ours)).expect("valid notation");
            black_box(expr.roll(&mut seeded).expect("seeded rolls never fail"));
        });
        let c_pr = measure(budget, || {
            let r = caith::Roller::new(black_box(theirs)).expect("caith reads it");
            black_box(r.roll().expect("caith rolls it"));
        });
        let t_r = measure(budget, || {
            black_box(black_box(&parsed).roll(&mut seeded).expect("seeded"));
        });
        let c_r = measure(budget, || {
            black_box(black_box(&roller).roll().expect("caith rolls it"));
        });
        println!(
            "{:<14} {:>14.0} {:>14.0} {:>5.1}x   {:>14.0} {:>14.0} {:>5.1}x",
            ours,
            t_pr,
            c_pr,
            t_pr / c_pr,
            t_r,
            c_r,
            t_r / c_r
        );
    }
}
