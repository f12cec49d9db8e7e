//! Every integration test of the crate, in one binary: one link instead of
//! one per file keeps the target folder small (run one file's tests with
//! `cargo test -p tabula-server --test all FILE::`).

#[macro_use]
mod common;

mod campaign;
mod campaign_books;
mod campaign_pages;
mod campaign_settings;
mod delete;
mod gm_add;
mod harden;
mod log_pages;
mod logs;
mod next_encounter;
mod secrets;
mod sheets;
mod story;
mod talk;
mod ws;
