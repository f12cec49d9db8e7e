//! Issue 26: adding a book touches its own crate plus one line of the
//! engine's list (`books!` in `crates/engine/src/lib.rs`). This test counts
//! the places outside the books' crates whose code names a book (its crate,
//! its `SystemId` variant or its id in quotes) and checks they are exactly
//! the known ones, so a new place that writes a book again fails here.

use std::path::{Path, PathBuf};

use tabula_engine::SystemId;

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file before its `#[cfg(test)]` module, without comments.
fn code(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .filter(|(_, l)| {
            let t = l.trim_start();
            !t.starts_with("//") && !t.starts_with("#[doc")
        })
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

fn variant(id: SystemId) -> String {
    format!("{id:?}")
}

#[test]
fn a_book_is_named_in_one_line_of_the_engine_outside_its_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for krate in ["core", "engine", "server", "store", "web", "cli"] {
        rust_files(&root.join("crates").join(krate).join("src"), &mut files);
    }
    files.sort();
    let mut places: Vec<String> = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a source file");
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        for (n, line) in code(&text) {
            for id in SystemId::ALL {
                let krate = format!("tabula_{}", id.id().replace('-', "_"));
                let module = format!("::{}::", id.id().replace('-', "_"));
                let named = line.contains(&krate)
                    || line.contains(&module)
                    || line.contains(&format!("SystemId::{}", variant(id)))
                    || line.contains(&format!("\"{}\"", id.id()));
                if named {
                    places.push(format!("{rel}:{n}: {}", line.trim()));
                }
            }
        }
    }
    // The one list, one line per book.
    let list: Vec<&String> = places
        .iter()
        .filter(|p| {
            p.starts_with("crates/engine/src/lib.rs")
                && p.contains(" => ")
                && p.contains(" = tabula_")
        })
        .collect();
    assert_eq!(list.len(), SystemId::ALL.len(), "{places:#?}");
    // No other place: Scratch RPS's campaign settings (R-SCR-9), the last
    // one, are the book's own `CharacterBook::Setting` hook now, and the CLI
    // is written once over `SystemId` (docs/ARCHITECTURE.md, "Adding a book").
    let rest: Vec<&String> = places.iter().filter(|p| !list.contains(p)).collect();
    assert!(
        rest.is_empty(),
        "a book is written again outside its crate: {rest:#?}"
    );
}

/// Issue 26, item 5: every book's crate has one skeleton, the same file (or
/// folder) names for the same roles directly under `src/`
/// (docs/ARCHITECTURE.md, "Layout"), no file over about 1,000 lines.
#[test]
fn every_book_crate_has_the_one_skeleton() {
    const ROLES: [&str; 16] = [
        "rules",
        "character",
        "builder",
        "advance",
        "table",
        "state",
        "command",
        "event",
        "decide",
        "evolve",
        "setup",
        "legal",
        "text",
        "sheet",
        "policy",
        "odds",
    ];
    let systems = Path::new(env!("CARGO_MANIFEST_DIR")).join("../systems");
    let mut books = 0;
    for id in SystemId::ALL {
        let src = systems.join(id.id()).join("src");
        assert!(src.is_dir(), "{}: no crate at {}", id.id(), src.display());
        books += 1;
        for role in ROLES {
            let file = src.join(format!("{role}.rs"));
            let folder = src.join(role).join("mod.rs");
            assert!(
                file.is_file() || folder.is_file(),
                "{}: no `{role}` (src/{role}.rs or src/{role}/mod.rs)",
                id.id()
            );
        }
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let lines = std::fs::read_to_string(&f).unwrap().lines().count();
            assert!(lines <= 1_050, "{}: {lines} lines", f.display());
        }
    }
    assert_eq!(books, SystemId::ALL.len());
}
