//! What every CLI test shares: running the built `tabula` binary from the
//! workspace root, so `examples/...` paths read as they do in the README.

#![allow(dead_code)]

use std::process::{Command, Output};

/// Run `tabula ARGS` from the workspace root.
pub fn tabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .args(args)
        .output()
        .expect("the tabula binary runs")
}

/// Run `tabula ARGS` and return (exit code, stdout, stderr).
pub fn tabula_text(args: &[&str]) -> (i32, String, String) {
    let out = tabula(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
