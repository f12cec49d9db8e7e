//! Every integration test of the crate, in one binary: one link instead of
//! one per file keeps the target folder small (run one file's tests with
//! `cargo test -p tabula-store --test all FILE::`).

#[macro_use]
mod common;

mod campaign;
mod campaign_settings;
mod concurrent;
mod delete;
mod file_mode;
mod log_lines;
mod story;
mod table_sources;
