//! Criterion benchmarks of the exact-odds layer: the computations the systems
//! show live next to a player's choices.
//!
//! Run: `cargo bench -p tabula-core --bench odds`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tabula_core::odds::{self, Dist};

fn bench_odds(c: &mut Criterion) {
    let d6 = Dist::die(6).unwrap();
    let d20 = Dist::die(20).unwrap();
    c.bench_function("odds 3d6 sum", |b| {
        b.iter(|| black_box(&d6).sum_of(black_box(3)).unwrap())
    });
    c.bench_function("odds 20d6 sum", |b| {
        b.iter(|| black_box(&d6).sum_of(black_box(20)).unwrap())
    });
    c.bench_function("odds 4d6kh3", |b| {
        b.iter(|| black_box(&d6).keep_highest(4, 3).unwrap())
    });
    c.bench_function("odds 2d20kl1", |b| {
        b.iter(|| black_box(&d20).keep_lowest(2, 1).unwrap())
    });
    c.bench_function("odds 10d6>=5 count", |b| {
        b.iter(|| black_box(&d6).count_successes(10, |v| v >= 5).unwrap())
    });
    let shoe: Vec<i64> = (2..=14).flat_map(|v| std::iter::repeat_n(v, 8)).collect();
    c.bench_function("odds best of 5 draws from 104 cards", |b| {
        b.iter(|| odds::best_of_draws(black_box(&shoe), 5).unwrap())
    });
}

criterion_group!(benches, bench_odds);
criterion_main!(benches);
