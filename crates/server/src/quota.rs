//! Rate limits and caps against one client taking the server (issue 28,
//! "A long evening on a hostile network"): commands per seat and per address,
//! WebSocket connects per address, wrong tokens per address (past the limit the
//! address is refused everything until its wait is over, so a guess cannot
//! learn its answer), and open WebSockets per seat. Limits are per minute with
//! a burst of the whole minute's allowance (GCRA, the `governor` crate);
//! refusals are 429 with `Retry-After` ([`AppError::RateLimited`],
//! [`AppError::TooManySockets`]). Addresses come from the connection
//! ([`axum::extract::ConnectInfo`]); a request without one (the app called
//! without a socket) is limited per seat only.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::AppError;

/// The limits ([`crate::Settings::quotas`]); every default is far above what
/// a table at play sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quotas {
    /// Commands (`/commands`, `/policy`, `/undo`) per minute from one seat's
    /// token (default 1200).
    pub commands_per_seat: u32,
    /// Commands per minute from one address, all seats together (default
    /// 6000).
    pub commands_per_address: u32,
    /// WebSocket connects per minute from one address (default 20,000: one
    /// process must take 10,000 idle followers from one load generator, issue
    /// 15).
    pub ws_connects_per_address: u32,
    /// Wrong tokens (answers 401, and WebSocket first messages refused) per
    /// minute from one address (default 120); past it the address gets 429
    /// for every request until its wait is over.
    pub wrong_tokens_per_address: u32,
    /// WebSockets open at once for one seat of one table (default 4096: the
    /// issue 15 test holds 2,500 per seat from one machine; set it low, e.g.
    /// 16, where seats are people).
    pub sockets_per_seat: usize,
    /// Tables of one campaign whose encounters have not ended (default 20):
    /// opening one more is 409 `campaign-table-limit`.
    pub open_tables_per_campaign: usize,
}

impl Default for Quotas {
    fn default() -> Self {
        Quotas {
            commands_per_seat: 1200,
            commands_per_address: 6000,
            ws_connects_per_address: 20_000,
            wrong_tokens_per_address: 120,
            sockets_per_seat: 4096,
            open_tables_per_campaign: 20,
        }
    }
}

/// How many keys a limiter holds before the ones back at full allowance are
/// dropped (bounds its memory).
const RETAIN_PAST_KEYS: usize = 10_000;

/// The limiters of one server (in its [`crate::AppState`]).
pub struct Limiters {
    quotas: Quotas,
    commands_seat: DefaultKeyedRateLimiter<String>,
    commands_address: DefaultKeyedRateLimiter<IpAddr>,
    ws_address: DefaultKeyedRateLimiter<IpAddr>,
    wrong_address: DefaultKeyedRateLimiter<IpAddr>,
    blocked: Mutex<HashMap<IpAddr, Instant>>,
    sockets: Arc<Mutex<HashMap<(String, String), usize>>>,
}

impl std::fmt::Debug for Limiters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limiters")
            .field("quotas", &self.quotas)
            .finish_non_exhaustive()
    }
}

fn per_minute(n: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN))
}

/// Check `key` against `limiter`: the wait until it may go again when over.
fn check<K>(limiter: &DefaultKeyedRateLimiter<K>, key: &K) -> Result<(), Duration>
where
    K: std::hash::Hash + Eq + Clone,
{
    if limiter.len() > RETAIN_PAST_KEYS {
        limiter.retain_recent();
    }
    limiter
        .check_key(key)
        .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))
}

fn limited(what: &'static str, wait: Duration) -> AppError {
    AppError::RateLimited {
        what,
        retry_after_secs: wait.as_secs().saturating_add(1),
    }
}

/// One open WebSocket's place among its seat's [`Quotas::sockets_per_seat`];
/// given back when dropped.
#[derive(Debug)]
pub struct SocketPlace {
    key: (String, String),
    sockets: Arc<Mutex<HashMap<(String, String), usize>>>,
    first: bool,
}

impl SocketPlace {
    /// True when this is the seat's only socket at the table (it was away).
    pub fn first(&self) -> bool {
        self.first
    }
}

impl Drop for SocketPlace {
    fn drop(&mut self) {
        let mut s = self.sockets.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = s.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                s.remove(&self.key);
            }
        }
    }
}

impl Limiters {
    /// Limiters enforcing `quotas`.
    pub fn new(quotas: Quotas) -> Limiters {
        Limiters {
            commands_seat: RateLimiter::keyed(per_minute(quotas.commands_per_seat)),
            commands_address: RateLimiter::keyed(per_minute(quotas.commands_per_address)),
            ws_address: RateLimiter::keyed(per_minute(quotas.ws_connects_per_address)),
            wrong_address: RateLimiter::keyed(per_minute(quotas.wrong_tokens_per_address)),
            blocked: Mutex::new(HashMap::new()),
            sockets: Arc::new(Mutex::new(HashMap::new())),
            quotas,
        }
    }

    /// The address is past its wrong tokens: 429 until its wait is over.
    ///
    /// # Errors
    /// [`AppError::RateLimited`].
    pub fn not_blocked(&self, address: IpAddr) -> Result<(), AppError> {
        let mut blocked = self.blocked.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        match blocked.get(&address) {
            Some(until) if *until > now => Err(limited("wrong tokens", *until - now)),
            Some(_) => {
                blocked.remove(&address);
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// Count a wrong token from `address`; past the limit, block it.
    pub fn wrong_token(&self, address: IpAddr) {
        if let Err(wait) = check(&self.wrong_address, &address) {
            let mut blocked = self.blocked.lock().unwrap_or_else(PoisonError::into_inner);
            if blocked.len() > RETAIN_PAST_KEYS {
                let now = Instant::now();
                blocked.retain(|_, until| *until > now);
            }
            blocked.insert(address, Instant::now() + wait);
        }
    }

    /// One command from the seat whose token hashes to `token_hash`, from
    /// `address` when known.
    ///
    /// # Errors
    /// [`AppError::RateLimited`] naming the limit.
    pub fn command(
        &self,
        token_hash: Option<&str>,
        address: Option<IpAddr>,
    ) -> Result<(), AppError> {
        if let Some(a) = address {
            check(&self.commands_address, &a)
                .map_err(|w| limited("commands from this address", w))?;
        }
        if let Some(h) = token_hash {
            check(&self.commands_seat, &h.to_string())
                .map_err(|w| limited("commands from this seat", w))?;
        }
        Ok(())
    }

    /// One WebSocket connect from `address`.
    ///
    /// # Errors
    /// [`AppError::RateLimited`].
    pub fn ws_connect(&self, address: IpAddr) -> Result<(), AppError> {
        check(&self.ws_address, &address)
            .map_err(|w| limited("WebSocket connects from this address", w))
    }

    /// The seats (keys: `gm` or the player's name) with a WebSocket open to
    /// `table` on this server now, sorted: who has the table open (issue 27,
    /// item 3). Servers sharing a PostgreSQL database each know their own.
    pub fn open_seats(&self, table: &str) -> Vec<String> {
        let s = self.sockets.lock().unwrap_or_else(PoisonError::into_inner);
        let mut seats: Vec<String> = s
            .iter()
            .filter(|((t, _), n)| t == table && **n > 0)
            .map(|((_, seat), _)| seat.clone())
            .collect();
        seats.sort();
        seats
    }

    /// A place for one more WebSocket of seat `seat` at table `table`.
    ///
    /// # Errors
    /// [`AppError::TooManySockets`] when the seat has
    /// [`Quotas::sockets_per_seat`] open.
    pub fn hold_socket(&self, table: &str, seat: &str) -> Result<SocketPlace, AppError> {
        let key = (table.to_string(), seat.to_string());
        let mut s = self.sockets.lock().unwrap_or_else(PoisonError::into_inner);
        let n = s.entry(key.clone()).or_insert(0);
        if *n >= self.quotas.sockets_per_seat {
            return Err(AppError::TooManySockets {
                max: self.quotas.sockets_per_seat,
            });
        }
        *n += 1;
        let first = *n == 1;
        Ok(SocketPlace {
            key,
            sockets: Arc::clone(&self.sockets),
            first,
        })
    }
}
