//! What the character builder costs the server: one `POST
//! /api/systems/SYSTEM/builder` is one [`SystemId::change_draft`] (the draft
//! read from JSON, one change, the view, the draft and the sheet written
//! back), and a whole character is one such request per answer.
//!
//! Run with `cargo bench -p tabula-engine --bench characters`. Figures are
//! per request (`change`) and per finished character (`whole`).

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;
use tabula_core::builder::{FieldValue, FieldView, legal_value};
use tabula_engine::SystemId;
use tabula_engine::characters::DraftChange;

/// The first field without a value, and a legal value for it (the most a
/// number allows, the first options): the answer a newcomer gives.
fn next_answer(view: &tabula_core::builder::BuildView) -> Option<(String, FieldValue)> {
    let open: Vec<&FieldView> = view
        .steps
        .iter()
        .flat_map(|s| &s.fields)
        .filter(|f| {
            f.value.is_none()
                || view
                    .problems
                    .iter()
                    .any(|p| p.field.as_deref() == Some(&f.key))
        })
        .collect();
    open.first()
        .map(|f| (f.key.clone(), legal_value(&f.kind, 0, true)))
}

/// Build a whole character one request at a time, as the browser does;
/// returns the draft and the number of requests it took (at most 400).
fn whole(system: SystemId) -> (Value, usize) {
    let mut answer = system.new_draft();
    let mut requests = 0;
    while !answer.view.complete && requests < 400 {
        let Some((key, value)) = next_answer(&answer.view) else {
            break;
        };
        let next = system
            .change_draft(
                &answer.draft,
                &[DraftChange::Set {
                    key: key.clone(),
                    value,
                }],
            )
            .expect("the engine's own draft reads back");
        requests += 1;
        if next.refusal.is_some() {
            // A refused answer: skip it the way a newcomer takes the next option.
            let cleared = system
                .change_draft(&answer.draft, &[DraftChange::Clear { key }])
                .expect("clear");
            if cleared.view == answer.view {
                break;
            }
            answer = cleared;
        } else {
            answer = next;
        }
    }
    (answer.draft, requests)
}

fn builder(c: &mut Criterion) {
    let mut group = c.benchmark_group("builder");
    for system in SystemId::ALL {
        let (half, _) = {
            // Half a character: the draft after the first few answers.
            let mut answer = system.new_draft();
            for _ in 0..4 {
                if let Some((key, value)) = next_answer(&answer.view) {
                    let next = system
                        .change_draft(&answer.draft, &[DraftChange::Set { key, value }])
                        .expect("change");
                    if next.refusal.is_none() {
                        answer = next;
                    }
                }
            }
            (answer.draft.clone(), answer)
        };
        let change = next_answer(&system.change_draft(&half, &[]).expect("view").view);
        let changes: Vec<DraftChange> = change
            .map(|(key, value)| vec![DraftChange::Set { key, value }])
            .unwrap_or_default();
        group.bench_function(format!("{}/change", system.id()), |b| {
            b.iter(|| {
                black_box(
                    system
                        .change_draft(black_box(&half), &changes)
                        .expect("change"),
                )
            })
        });
        let (_, requests) = whole(system);
        eprintln!("{}: a whole character in {requests} requests", system.id());
        group.bench_function(format!("{}/whole", system.id()), |b| {
            b.iter(|| black_box(whole(system)))
        });
    }
    group.finish();
}

criterion_group!(benches, builder);
criterion_main!(benches);
