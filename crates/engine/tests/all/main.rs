//! Every integration test of the crate, in one binary: one link instead of
//! one per file keeps the target folder small (run one file's tests with
//! `cargo test -p tabula-engine --test all FILE::`).

mod common;

mod campaign_end;
mod campaign_settings;
mod one_list;
mod reference;
mod secrets;
mod session;
mod simulate;
mod snapshot;
mod talk;
mod typed;
