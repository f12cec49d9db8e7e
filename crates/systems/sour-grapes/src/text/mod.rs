//! Terminal play: reading a command line ([`parse`](mod@parse): read by
//! [`tabula_core::usage::read`] against its usage in [`COMMANDS`], then built
//! with every name resolved), the command reference ([`COMMANDS`]), the log lines
//! ([`describe`]) and what is printed before each prompt ([`status`]). The
//! table file is read in [`crate::setup`], the odds of the choices are in
//! [`crate::odds`](mod@crate::odds), and [`tabula_core::TextPlay`] is implemented in
//! [`crate::table`].

use std::fmt::Write as _;

use tabula_core::Seat;

use crate::check;
use crate::event::{Event, Purpose};
use crate::odds::*;
use crate::state::{Moment, State, Step};
use crate::stats::Stat;

mod describe;
pub mod parse;
mod reference;
mod status;

pub use describe::describe;
pub use reference::COMMANDS;
pub use status::{brief, default_seat, status};
