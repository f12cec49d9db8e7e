//! Embeds `examples/<system>/*` (tables, sheets, scripts) into the server binary,
//! so `POST /api/tables {"example": "table"}` needs no files beside the binary.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("../../examples");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut entries: Vec<(String, String, String)> = Vec::new();
    if let Ok(systems) = std::fs::read_dir(&root) {
        for system in systems.flatten() {
            let path = system.path();
            if !path.is_dir() {
                continue;
            }
            println!("cargo:rerun-if-changed={}", path.display());
            let system_name = system.file_name().to_string_lossy().into_owned();
            if let Ok(files) = std::fs::read_dir(&path) {
                for file in files.flatten() {
                    let p = file.path();
                    let name = file.file_name().to_string_lossy().into_owned();
                    let keep = [".toml", ".script", ".dice"]
                        .iter()
                        .any(|ext| name.ends_with(ext));
                    if p.is_file() && keep {
                        let abs = p.canonicalize().unwrap_or(p);
                        entries.push((system_name.clone(), name, abs.display().to_string()));
                    }
                }
            }
        }
    }
    entries.sort();
    let mut out = String::from(
        "/// Every bundled example file: (system id, file name, text).\n\
         pub(crate) static FILES: &[(&str, &str, &str)] = &[\n",
    );
    for (system, name, path) in &entries {
        let _ = writeln!(out, "    ({system:?}, {name:?}, include_str!({path:?})),");
    }
    out.push_str("];\n");
    let dest =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("examples.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
