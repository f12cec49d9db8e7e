//! The roll path against the machine's limit: how many d6 per second a bare
//! generator loop makes, and how many reach a caller through a roller and
//! through the notation (`10d6>=5`, the success pool of the benchmarks).
//!
//! Run with `cargo bench -p tabula-core --bench roll`. Every figure is in
//! dice per second (criterion's "elements").

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use std::hint::black_box;
use tabula_core::notation::Expr;
use tabula_core::{Die, Fast, Roller, Seeded};

/// Dice per measured iteration of the loops.
const POOL: usize = 10_000;

/// wyrand: the cheapest good 64-bit generator, the machine's limit here.
#[inline(always)]
fn wyrand(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0xa076_1d64_78bd_642f);
    let t = u128::from(*state) * u128::from(*state ^ 0xe703_7ed1_a0b4_28db);
    ((t >> 64) ^ t) as u64
}

/// A d6 from 64 random bits by multiply-shift (the bias, 2^-62, is ignored
/// in the bare loops).
#[inline(always)]
fn d6_of_u64(x: u64) -> u32 {
    ((u128::from(x) * 6) >> 64) as u32 + 1
}

#[inline(always)]
fn d6_of_u32(x: u32) -> u32 {
    ((u64::from(x) * 6) >> 32) as u32 + 1
}

fn generators(c: &mut Criterion) {
    let mut group = c.benchmark_group("d6");
    group.throughput(Throughput::Elements(POOL as u64));
    group.bench_function("bare wyrand loop", |b| {
        let mut s = 1u64;
        b.iter(|| {
            let mut hits = 0u32;
            for _ in 0..POOL {
                hits += u32::from(d6_of_u64(wyrand(&mut s)) >= 5);
            }
            black_box(hits)
        })
    });
    group.bench_function("bare ChaCha20 loop", |b| {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        b.iter(|| {
            let mut hits = 0u32;
            for _ in 0..POOL {
                hits += u32::from(d6_of_u32(rng.next_u32()) >= 5);
            }
            black_box(hits)
        })
    });
    group.bench_function("bare Xoshiro256++ loop", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        b.iter(|| {
            let mut hits = 0u32;
            for _ in 0..POOL {
                hits += u32::from(d6_of_u32(rng.next_u32()) >= 5);
            }
            black_box(hits)
        })
    });
    group.bench_function("Seeded roll per die (dyn Roller)", |b| {
        let mut seeded = Seeded::from_seed(1);
        let roller: &mut dyn Roller = &mut seeded;
        b.iter(|| {
            let mut hits = 0u32;
            for _ in 0..POOL {
                hits += u32::from(roller.roll(Die::D6).unwrap_or(1) >= 5);
            }
            black_box(hits)
        })
    });
    let mut pool = vec![0u32; POOL];
    group.bench_function("Seeded roll_many (dyn Roller)", |b| {
        let mut seeded = Seeded::from_seed(1);
        let roller: &mut dyn Roller = &mut seeded;
        b.iter(|| {
            let _ = roller.roll_many(Die::D6, &mut pool);
            black_box(pool.iter().filter(|v| **v >= 5).count())
        })
    });
    group.bench_function("Fast roll_many (dyn Roller)", |b| {
        let mut fast = Fast::from_seed(1);
        let roller: &mut dyn Roller = &mut fast;
        b.iter(|| {
            let _ = roller.roll_many(Die::D6, &mut pool);
            black_box(pool.iter().filter(|v| **v >= 5).count())
        })
    });
    group.finish();
}

fn notation(c: &mut Criterion) {
    let mut group = c.benchmark_group("10d6>=5");
    group.throughput(Throughput::Elements(10));
    let Ok(expr) = Expr::parse("10d6>=5") else {
        return;
    };
    group.bench_function("notation roll, Seeded", |b| {
        let mut roller = Seeded::from_seed(1);
        b.iter(|| black_box(&expr).roll(&mut roller).map(|o| o.total))
    });
    group.bench_function("notation roll, Fast", |b| {
        let mut roller = Fast::from_seed(1);
        b.iter(|| black_box(&expr).roll(&mut roller).map(|o| o.total))
    });
    group.bench_function("notation roll_total, Seeded", |b| {
        let mut roller = Seeded::from_seed(1);
        b.iter(|| black_box(&expr).roll_total(&mut roller))
    });
    group.bench_function("notation roll_total, Fast", |b| {
        let mut roller = Fast::from_seed(1);
        b.iter(|| black_box(&expr).roll_total(&mut roller))
    });
    group.finish();
}

criterion_group!(benches, generators, notation);
criterion_main!(benches);
