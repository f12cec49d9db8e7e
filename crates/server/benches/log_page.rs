//! What one `GET /api/tables/ID/log?limit=50` costs at a table of 100 rows and
//! at one of 10,000 (issue 28: constant cost whatever the log's length), through
//! the whole router on a SQLite file, beside what the same page cost before the
//! lines were stored: the journal replayed for the seat (`AnyTable::log_for`).
//!
//! Run with `cargo bench -p tabula-server --bench log_page`.

mod common;

use std::hint::black_box;

use axum::http::Method;
use criterion::{Criterion, criterion_group, criterion_main};

use common::{call, sqlite_bench, table_of};
use tabula_engine::core::system::Seat;

fn bench(c: &mut Criterion) {
    // `bench` keeps the SQLite file's directory until the end.
    let bench = sqlite_bench();
    let (rt, state) = (&bench.rt, &bench.state);
    let mut group = c.benchmark_group("log_page");
    for rows in [100u64, 10_000] {
        let (id, gm, played) = rt.block_on(table_of(state, rows, false));
        let uri = format!("/api/tables/{id}/log?limit=50");
        let page = rt.block_on(call(state, Method::GET, &uri, Some(&gm), None));
        assert_eq!(page["lines"].as_array().map(Vec::len), Some(50));
        group.bench_function(format!("GET /log?limit=50 at {rows} rows"), |b| {
            b.iter(|| rt.block_on(call(state, Method::GET, &uri, Some(&gm), None)));
        });
        let after = played.seq() - 50;
        group.bench_function(format!("replay log_for (before) at {rows} rows"), |b| {
            b.iter(|| black_box(played.log_for(&Seat::Gm, after)));
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
