//! Every integration test of the crate, in one binary: one link instead of
//! one per file keeps the target folder small (run one file's tests with
//! `cargo test -p tabula-web --test all FILE::`).

mod common;

mod browser;
mod characters;
mod routes;
mod wiring;
