//! # tabula-server
//!
//! Not built yet. This crate will hold the shared online table: an axum
//! `fn app(state) -> Router` with HTTP and WebSocket routes (create a table, invite
//! seats each with its own secret token, send commands, follow the table live),
//! one `AppError` type, and the browser page embedded from `web/`. It will depend on
//! `tabula-engine` and `tabula-store` only through their interfaces.
#![deny(missing_docs)]
#![forbid(unsafe_code)]
