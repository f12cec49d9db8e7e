//! # tabula-bastards
//!
//! The rules of A Game of Bastards (003_2dfeea144768d328.txt), system id `bastards`.
//!
//! Not built yet: this crate compiles so the workspace has its final shape. Its
//! issue fills it with the book's characters (a draft validated into a character),
//! its checks and odds, and its turn structure as a decide/evolve
//! [`tabula_core::System`]. It depends on `tabula-core` only.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

/// The system id used on the command line and in table files.
pub const ID: &str = "bastards";
