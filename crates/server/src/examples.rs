//! The bundled examples: every file of `examples/<system>/` (tables, character
//! sheets, scripts), compiled into the binary so the server reads no files.

use std::sync::OnceLock;

use serde::Serialize;

use tabula_engine::core::Seeded;
use tabula_engine::core::files::InMemoryFiles;
use tabula_engine::{AnyTable, SystemId};

mod generated {
    include!(concat!(env!("OUT_DIR"), "/examples.rs"));
}

/// One bundled file: its system, its file name, its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExampleFile {
    /// The system id (`bastards`).
    pub system: &'static str,
    /// The file name (`table.toml`, `cynthia.toml`, `encounter.script`).
    pub name: &'static str,
    /// The file's text.
    pub text: &'static str,
}

/// Every bundled file, sorted by system then name.
pub fn files() -> impl Iterator<Item = ExampleFile> {
    generated::FILES
        .iter()
        .map(|&(system, name, text)| ExampleFile { system, name, text })
}

/// The bundled file `name` of `system`, if there is one.
pub fn file(system: SystemId, name: &str) -> Option<ExampleFile> {
    files().find(|f| f.system == system.id() && f.name == name)
}

/// The text of the table file `example` of `system` (`"table"` means
/// `table.toml`) with every `.toml` of that system's folder as the files it may
/// name; `None` when there is no such file.
pub fn table(system: SystemId, example: &str) -> Option<(&'static str, InMemoryFiles)> {
    let name = format!("{}.toml", example.trim_end_matches(".toml"));
    let table = file(system, &name)?;
    let mut sheets = InMemoryFiles::default();
    for f in files().filter(|f| f.system == system.id() && f.name.ends_with(".toml")) {
        sheets.0.insert(f.name.to_string(), f.text.to_string());
    }
    Some((table.text, sheets))
}

/// The names (without `.toml`) of `system`'s bundled TOML files: the tables
/// among them can be given as `"example"` (a character sheet is refused as a
/// table with the system's message).
pub fn names(system: SystemId) -> Vec<&'static str> {
    files()
        .filter(|f| f.system == system.id())
        .filter_map(|f| f.name.strip_suffix(".toml"))
        .collect()
}

/// The names (without `.toml`) of `system`'s bundled table files: the TOML
/// files the system sets up as a table (character sheets, and a file kept to
/// show a refusal, are not), in file-name order. Worked out once per process
/// (issue 27, bug 10: the lobby offered character sheets as tables).
pub fn tables(system: SystemId) -> Vec<&'static str> {
    static TABLES: OnceLock<Vec<(SystemId, Vec<&'static str>)>> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            SystemId::ALL
                .into_iter()
                .map(|s| {
                    let names = names(s)
                        .into_iter()
                        .filter(|n| {
                            table(s, n).is_some_and(|(text, files)| {
                                AnyTable::setup(s, text, &files, Seeded::from_seed(0)).is_ok()
                            })
                        })
                        .collect();
                    (s, names)
                })
                .collect()
        })
        .iter()
        .find(|(s, _)| *s == system)
        .map(|(_, names)| names.clone())
        .unwrap_or_default()
}

/// What `GET /api/examples` lists for one system.
#[derive(Clone, Debug, Serialize)]
pub struct SystemExamples {
    /// The system id.
    pub system: &'static str,
    /// Every bundled file name of the system (tables, sheets, scripts).
    pub files: Vec<&'static str>,
    /// The bundled table files, without `.toml` ([`tables`]): what the lobby
    /// offers as "example".
    pub tables: Vec<&'static str>,
}

/// The bundled examples, one entry per system that has any.
pub fn catalog() -> Vec<SystemExamples> {
    SystemId::ALL
        .into_iter()
        .map(|s| SystemExamples {
            system: s.id(),
            files: files()
                .filter(|f| f.system == s.id())
                .map(|f| f.name)
                .collect(),
            tables: tables(s),
        })
        .filter(|e| !e.files.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_system_has_a_bundled_table() {
        for s in SystemId::ALL {
            let (text, sheets) = table(s, "table").expect("a table.toml per system");
            assert!(!text.is_empty());
            assert!(!sheets.0.is_empty());
        }
        assert!(table(SystemId::Bastards, "indirect").is_some());
        assert!(table(SystemId::Bastards, "../../etc/passwd").is_none());
        assert!(file(SystemId::Bastards, "encounter.script").is_some());
    }
}
