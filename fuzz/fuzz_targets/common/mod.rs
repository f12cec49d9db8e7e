//! The harness every system's fuzz target shares: the first byte picks what the
//! rest is.
//!
//! - even: a table file (TOML) for the system, set up with the system's example
//!   sheets available by name (uploaded, as on the server; nothing is read from
//!   disk). A refusal must be an error, never a panic.
//! - odd: command lines played on the system's example table through the same
//!   driver as `tabula <system> play` (seat prefixes, driver commands, undo).
//!   Nothing may panic, and replaying the journal the driver left must rebuild
//!   the same state and roller.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use tabula_engine::core::Seeded;
use tabula_engine::core::files::InMemoryFiles;
use tabula_engine::play::{self, PlayOptions};
use tabula_engine::{AnyTable, SystemId};

/// The system's example files (`examples/<id>/*.toml`) by name, read once.
fn example_files(system: SystemId) -> &'static InMemoryFiles {
    static FILES: OnceLock<Vec<(SystemId, InMemoryFiles)>> = OnceLock::new();
    let all = FILES.get_or_init(|| SystemId::ALL.iter().map(|&s| (s, read_examples(s))).collect());
    &all.iter().find(|(s, _)| *s == system).expect("one of the five").1
}

fn read_examples(system: SystemId) -> InMemoryFiles {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(system.id());
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("the examples folder") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "toml") {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            files.insert(name, std::fs::read_to_string(&path).expect("an example file"));
        }
    }
    InMemoryFiles(files)
}

/// Run one fuzz input against `system`.
pub fn run(system: SystemId, data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let files = example_files(system);
    if mode % 2 == 0 {
        if let Ok(table) = AnyTable::setup(system, text, files, Seeded::from_seed(1)) {
            let _ = table.status(&table.default_seat());
            for seat in table.seats() {
                let _ = table.legal(&seat);
                let _ = table.view(&seat, &seat);
            }
        }
        return;
    }
    let table_text = &files.0["table.toml"];
    let mut table = AnyTable::setup(system, table_text, files, Seeded::from_seed(u64::from(mode)))
        .expect("the example table sets up");
    let mut out = std::io::sink();
    let _ = play::run(
        &mut table,
        &mut text.as_bytes(),
        &mut out,
        None,
        PlayOptions::default(),
        &mut |_| Ok(()),
    );
    let back = AnyTable::restore(
        system,
        &table.initial_state(),
        &table.initial_roller(),
        &table.raw_rows_after(0),
    )
    .expect("the journal replays");
    assert_eq!(back.state(), table.state(), "replay rebuilds the state");
    assert_eq!(back.roller(), table.roller(), "replay rebuilds the roller");
}
