//! What a PostgreSQL store tells its process of the appends other processes make
//! ([`Store::follow`](crate::Store::follow)).

use std::time::Duration;

use sqlx::postgres::{PgListener, PgPool};

use crate::TableId;

/// The PostgreSQL `NOTIFY` channel every append notifies, with the payload
/// `"TABLE_ID NEW_SEQ"` (a table id and a number), every token reissue, with
/// `"TABLE_ID reissue SEAT"` (a seat's name), every encounter's end, with
/// `"TABLE_ID ended"`, and every table deleted or expired, with `"TABLE_ID
/// deleted"`: never a secret.
pub const NOTIFY_CHANNEL: &str = "tabula_log";

/// How long a [`Feed`] waits before it tries to listen again after its connection
/// failed: 1 second.
pub const FEED_RETRY: Duration = Duration::from_secs(1);

/// One thing a [`Feed`] learned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeedEvent {
    /// Some process committed entries of table `table` up to `seq`.
    Appended {
        /// The table.
        table: TableId,
        /// The table's seq after the append.
        seq: u64,
    },
    /// Some process reissued the token of seat `seat` at table `table`: that
    /// seat's sockets holding the old token must close.
    Reissued {
        /// The table.
        table: TableId,
        /// The seat (`gm` or the player's name).
        seat: String,
    },
    /// Some process ended table `table`'s encounter
    /// ([`Store::end_table`](crate::Store::end_table)): its log takes no more entries.
    Ended {
        /// The table.
        table: TableId,
    },
    /// Some process deleted table `table` ([`Store::delete_table`](crate::Store::delete_table),
    /// or its expiry): its pages are told and it is dropped from memory.
    Deleted {
        /// The table.
        table: TableId,
    },
    /// The listening connection was lost and is back: notices sent meanwhile are
    /// gone, so any table may have moved.
    Lost,
}

/// The appends committed to a PostgreSQL store, by any process (this one's too), in
/// commit order. Holds one connection of the store's pool while it lives.
#[derive(Debug)]
pub struct Feed {
    pool: PgPool,
    listener: Option<PgListener>,
}

impl Feed {
    pub(crate) async fn listen(pool: &PgPool) -> Result<Feed, sqlx::Error> {
        let listener = Self::connect(pool).await?;
        Ok(Feed {
            pool: pool.clone(),
            listener: Some(listener),
        })
    }

    async fn connect(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
        let mut listener = PgListener::connect_with(pool).await?;
        listener.listen(NOTIFY_CHANNEL).await?;
        Ok(listener)
    }

    /// Waits for the next event. When the connection fails it tries again every
    /// [`FEED_RETRY`] and then says [`FeedEvent::Lost`]. `None` once the store is
    /// closed ([`Store::close`](crate::Store::close)): the feed is over.
    pub async fn next(&mut self) -> Option<FeedEvent> {
        loop {
            let Some(listener) = self.listener.as_mut() else {
                if self.pool.is_closed() {
                    return None;
                }
                tokio::time::sleep(FEED_RETRY).await;
                if let Ok(listener) = Self::connect(&self.pool).await {
                    self.listener = Some(listener);
                    return Some(FeedEvent::Lost);
                }
                continue;
            };
            match listener.try_recv().await {
                Ok(Some(notice)) => {
                    if let Some(event) = parse(notice.payload()) {
                        return Some(event);
                    }
                }
                // Lost, and listening again already.
                Ok(None) => return Some(FeedEvent::Lost),
                Err(sqlx::Error::PoolClosed) => return None,
                Err(_) => self.listener = None,
            }
        }
    }
}

/// `"TABLE_ID SEQ"`, `"TABLE_ID reissue SEAT"`, `"TABLE_ID ended"` or
/// `"TABLE_ID deleted"` back to
/// an event; anything else is not ours.
fn parse(payload: &str) -> Option<FeedEvent> {
    let (table, rest) = payload.split_once(' ')?;
    if rest == "deleted" {
        return Some(FeedEvent::Deleted {
            table: table.to_string(),
        });
    }
    if rest == "ended" {
        return Some(FeedEvent::Ended {
            table: table.to_string(),
        });
    }
    if let Some(seat) = rest.strip_prefix("reissue ") {
        return Some(FeedEvent::Reissued {
            table: table.to_string(),
            seat: seat.to_string(),
        });
    }
    Some(FeedEvent::Appended {
        table: table.to_string(),
        seq: rest.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_are_an_id_and_a_seq() {
        assert_eq!(
            parse("abc 12"),
            Some(FeedEvent::Appended {
                table: "abc".into(),
                seq: 12
            })
        );
        assert_eq!(
            parse("abc reissue Ann Lee"),
            Some(FeedEvent::Reissued {
                table: "abc".into(),
                seat: "Ann Lee".into()
            })
        );
        assert_eq!(
            parse("abc ended"),
            Some(FeedEvent::Ended {
                table: "abc".into()
            })
        );
        assert_eq!(
            parse("abc deleted"),
            Some(FeedEvent::Deleted {
                table: "abc".into()
            })
        );
        assert_eq!(parse("abc"), None);
        assert_eq!(parse("abc x"), None);
    }
}
