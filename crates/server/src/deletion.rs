//! Deleting a table (`DELETE /api/tables/{id}`, the GM's) and expiring the
//! tables nobody touched for [`Settings::expire_after_days`] days (issue 28).
//!
//! Either way the table goes from the store (seats, log, log lines, snapshot:
//! [`tabula_store::Store::delete_table`]) and from this server's memory, and
//! its open WebSockets are told (`{"type": "deleted", "message":
//! DELETED_MESSAGE}`, or [`EXPIRED_MESSAGE`]) and closed. On PostgreSQL the
//! other servers hear of it through the store's feed and do the same.
//!
//! A deleted table answers as an unknown one: 401 with the one body of every
//! unknown table or wrong token, so an answer never tells whether a table
//! existed.

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use tracing::Span;

use tabula_store::{Role, StoreError};

use crate::auth;
use crate::error::AppError;
use crate::state::{AppState, Settings};

/// How often the server looks for expired tables: every hour (and once when
/// it starts).
pub const EXPIRE_EVERY: Duration = Duration::from_secs(60 * 60);

/// One day in milliseconds.
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// What a table's pages are told when its GM deletes it.
pub const DELETED_MESSAGE: &str =
    "The GM deleted this table: its log and its links are gone, and it takes no more commands.";

/// What a table's pages are told when it expires.
pub const EXPIRED_MESSAGE: &str = "This table expired: nobody had played at it for longer than this server keeps tables, so its log and its links are gone.";

/// `DELETE /api/tables/{id}`: the GM deletes the table. 204 on success; 403
/// `forbidden` for a player's token (nothing changes); 409
/// `campaign-history` for a campaign table whose encounter has ended; 401 as
/// every route for an unknown table or a wrong token; 404 `not-found` when
/// the table went (another GM request, the expiry) between the token check
/// and the deletion.
///
/// # Errors
/// As above; [`AppError::Internal`] when the store fails.
pub async fn delete_table(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, AppError> {
    let span = Span::current();
    span.record("table", id.as_str());
    let who = state.authenticate(&id, auth::bearer(&headers)).await?;
    span.record("seat", who.key.as_str());
    if who.role != Role::Gm {
        return Err(AppError::Forbidden(
            "only the GM may delete this table; nothing changed".into(),
        ));
    }
    state.delete_table(&id).await?;
    tracing::info!(table = %id, "table deleted by its GM");
    Ok(StatusCode::NO_CONTENT)
}

impl AppState {
    /// Delete table `id` from the store and from memory, and tell its
    /// WebSockets ([`DELETED_MESSAGE`]). A command in flight at the table
    /// finishes first (the deletion waits for the table's write lock).
    ///
    /// # Errors
    /// [`AppError::NotFound`] when the store has no such table;
    /// [`AppError::CampaignHistory`] for a campaign's ended table;
    /// [`AppError::Internal`] when the store fails. Nothing changes then.
    pub async fn delete_table(&self, id: &str) -> Result<(), AppError> {
        let slot = self.held_slot(id);
        let guard = match &slot {
            Some(slot) => Some(slot.table.clone().write_owned().await),
            None => None,
        };
        match self.store().delete_table(id).await {
            Ok(()) => {}
            Err(StoreError::NotFound) => {
                return Err(AppError::NotFound("no such table (it was deleted)".into()));
            }
            Err(StoreError::EndedCampaignTable) => return Err(AppError::CampaignHistory),
            Err(e) => return Err(AppError::store(e)),
        }
        drop(guard);
        self.forget(id, DELETED_MESSAGE);
        Ok(())
    }

    /// Delete every table of no campaign nobody touched in the
    /// [`Settings::expire_after_days`] days before `now_ms` (milliseconds since
    /// the Unix epoch; the caller's clock, so tests need not wait), drop them
    /// from memory and tell their WebSockets ([`EXPIRED_MESSAGE`]). Returns
    /// their ids; none when expiry is off.
    ///
    /// # Errors
    /// [`AppError::Internal`] when the store fails (nothing is deleted).
    pub async fn expire_tables(&self, now_ms: i64) -> Result<Vec<String>, AppError> {
        let Some(cutoff) = expiry_cutoff(self.settings(), now_ms) else {
            return Ok(Vec::new());
        };
        let ids = self
            .store()
            .expire_tables(cutoff)
            .await
            .map_err(AppError::store)?;
        for id in &ids {
            self.forget(id, EXPIRED_MESSAGE);
        }
        Ok(ids)
    }

    /// Look for expired tables now and every [`EXPIRE_EVERY`] until the server
    /// shuts down, logging at INFO how many expired (never their tokens).
    /// Returns at once when expiry is off.
    pub async fn expire_periodically(self) {
        let Some(days) = self.settings().expire_after_days else {
            return;
        };
        let mut shutdown = self.shutdown_signal();
        let mut every = tokio::time::interval(EXPIRE_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = shutdown.changed() => return,
            }
            match self.expire_tables(now_ms()).await {
                Ok(ids) if ids.is_empty() => {}
                Ok(ids) => tracing::info!(
                    expired = ids.len(),
                    days,
                    "expired the tables nobody touched in {days} days"
                ),
                Err(e) => tracing::warn!(error = %e, "looking for expired tables"),
            }
        }
    }
}

/// The cutoff of `settings`' expiry at `now_ms`: tables last touched before it
/// expire. `None` when expiry is off.
pub fn expiry_cutoff(settings: &Settings, now_ms: i64) -> Option<i64> {
    let days = settings.expire_after_days?;
    Some(now_ms.saturating_sub(i64::from(days).saturating_mul(DAY_MS)))
}

/// Now, in milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cutoff_is_the_given_days_before_now_or_none() {
        let mut s = Settings {
            expire_after_days: Some(30),
            ..Settings::default()
        };
        assert_eq!(
            expiry_cutoff(&s, 100 * DAY_MS),
            Some(70 * DAY_MS),
            "30 days before day 100"
        );
        s.expire_after_days = None;
        assert_eq!(expiry_cutoff(&s, 100 * DAY_MS), None);
        s.expire_after_days = Some(u32::MAX);
        assert_eq!(expiry_cutoff(&s, 0), Some(-i64::from(u32::MAX) * DAY_MS));
    }
}
