//! What the engine's tests share: the books' example files and every shipped
//! play script, set up on its table with its dice.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::path::PathBuf;

use tabula_core::Seeded;
use tabula_core::roller::{Answer, Manual};
use tabula_engine::{AnyTable, SystemId};

/// `examples/<system>/`.
pub fn examples(system: SystemId) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(system.id())
}

/// One shipped script, ready to play: its table (the script's own `STEM.toml`,
/// else `table.toml`), its lines, and a manual roller giving the values of
/// `STEM.dice` when the script has one.
pub struct Shipped {
    /// The system.
    pub system: SystemId,
    /// The script's file name without `.script`.
    pub stem: String,
    /// The script's path, for messages.
    pub path: PathBuf,
    /// The table, freshly set up with the given seed.
    pub table: AnyTable,
    /// The script's text.
    pub script: String,
    /// The book's dice for the script, when it has a `.dice` file.
    pub dice: Option<Manual>,
}

/// Every shipped script of every system, in name order, each on a new table
/// seeded with `seed`.
pub fn shipped_scripts(seed: u64) -> Vec<Shipped> {
    let mut all = Vec::new();
    for system in SystemId::ALL {
        let dir = examples(system);
        let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "script"))
            .collect();
        scripts.sort();
        for path in scripts {
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            let table_file = [dir.join(format!("{stem}.toml")), dir.join("table.toml")]
                .into_iter()
                .find(|p| p.exists())
                .unwrap();
            let text = std::fs::read_to_string(&table_file).unwrap();
            let table = AnyTable::setup(system, &text, &dir, Seeded::from_seed(seed)).unwrap();
            let script = std::fs::read_to_string(&path).unwrap();
            let dice_file = dir.join(format!("{stem}.dice"));
            let dice = dice_file.exists().then(|| {
                let mut values: VecDeque<String> = std::fs::read_to_string(&dice_file)
                    .unwrap()
                    .lines()
                    .map(|l| l.trim().to_string())
                    .filter(|l| !l.is_empty())
                    .collect();
                Manual::prompting(Box::new(move |_ask, _err| {
                    values.pop_front().map_or(Answer::End, Answer::Values)
                }))
            });
            all.push(Shipped {
                system,
                stem,
                path,
                table,
                script,
                dice,
            });
        }
    }
    all
}
