//! Fuzz the Sapio table file and command text (see `common/mod.rs`).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use tabula_engine::SystemId;

fuzz_target!(|data: &[u8]| common::run(SystemId::Sapio, data));
