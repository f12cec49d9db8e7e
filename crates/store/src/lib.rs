//! # tabula-store
//!
//! Not built yet. This crate will hold the `Store` trait (create a table, append
//! events with an optimistic `(table, seq)` lock, load a table to resume it) with an
//! embedded SQLite backend as the default and a PostgreSQL backend for several
//! stateless servers (DESIGN.md, "Scale"). Until then the CLI keeps a table in
//! memory for one `play` session.
#![deny(missing_docs)]
#![forbid(unsafe_code)]
