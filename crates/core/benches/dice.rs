//! Dice notation throughput: parse-and-roll with a seeded roller, reported in
//! dice per second, and parse alone, reported in expressions per second.
//!
//! Run with `cargo bench -p tabula-core --bench dice`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
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

fn parse_and_roll(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse_and_roll");
    for text in EXPRESSIONS {
        let dice = Expr::parse(text).map(|e| e.dice_count()).unwrap_or(0);
        group.throughput(Throughput::Elements(u64::from(dice)));
        let mut roller = Seeded::from_seed(1);
        group.bench_function(text, |b| {
            b.iter(|| {
                let expr = Expr::parse(black_box(text)).expect("valid notation");
                expr.roll(&mut roller).expect("seeded rolls never fail")
            })
        });
    }
    group.finish();
}

fn roll_only(c: &mut Criterion) {
    let mut group = c.benchmark_group("roll");
    for text in EXPRESSIONS {
        let expr = Expr::parse(text).expect("valid notation");
        group.throughput(Throughput::Elements(u64::from(expr.dice_count())));
        let mut roller = Seeded::from_seed(1);
        group.bench_function(text, |b| {
            b.iter(|| {
                black_box(&expr)
                    .roll(&mut roller)
                    .expect("seeded rolls never fail")
            })
        });
    }
    group.finish();
}

fn parse_only(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    for text in EXPRESSIONS {
        group.throughput(Throughput::Elements(1));
        group.bench_function(text, |b| b.iter(|| Expr::parse(black_box(text))));
    }
    group.finish();
}

criterion_group!(benches, parse_and_roll, roll_only, parse_only);
criterion_main!(benches);
