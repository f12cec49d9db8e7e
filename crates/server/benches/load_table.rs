//! What loading a long table costs a server (a restart, or the first command
//! after the table left memory): from its latest snapshot and the rows after it
//! (`state::load`, issue 28, item 1) beside replaying every row
//! (`state::load_whole`, what every load did before), at tables of 1,000 and
//! 10,000 rows on a SQLite file. The tables are stored as the server stores
//! them, with 99 rows after the latest snapshot (the most a server leaves).
//!
//! Run with `cargo bench -p tabula-server --bench load_table`.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

use common::{sqlite_bench, table_of};
use tabula_server::state::{load, load_whole};

fn bench(c: &mut Criterion) {
    // `bench` keeps the SQLite file's directory until the end.
    let bench = sqlite_bench();
    let (rt, state) = (&bench.rt, &bench.state);
    let store = state.store().clone();
    let mut group = c.benchmark_group("load_table");
    for rows in [1_000u64, 10_000] {
        let (id, _, played) = rt.block_on(table_of(state, rows, true));
        let tail = rt.block_on(load(&*store, &id)).expect("loads");
        assert_eq!(tail.seq(), played.seq());
        assert!(
            tail.first_held_seq() > 1,
            "the bench table loads from its snapshot"
        );
        assert_eq!(tail.state(), played.state());
        group.bench_function(format!("from the snapshot at {rows} rows"), |b| {
            b.iter(|| rt.block_on(load(&*store, &id)).expect("loads"));
        });
        group.bench_function(format!("every row (before) at {rows} rows"), |b| {
            b.iter(|| rt.block_on(load_whole(&*store, &id)).expect("loads"));
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
