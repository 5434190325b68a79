//! Idempotency keys expire. A hand command's key keeps the command's first
//! result, returned to a repeat of it, for the server's retention
//! (`--idempotency-retention`); then it is deleted, oldest first, a
//! thousand rows a statement, so no command waits long behind it. A key
//! that opened its hand is kept for good: one row a hand, so a late repeat
//! of an open returns its hand rather than opening another. Every other
//! command carries `expected_version`, so a repeat after its key is gone
//! is refused as stale (409) and records nothing (docs/audit.md).

use std::time::Duration;

use crate::store::{Db, StoreError, audit};

/// Rows deleted a statement.
pub const PRUNE_CHUNK: i64 = 1_000;

const PRUNE: &str = "DELETE FROM idempotency_keys WHERE key IN (SELECT key FROM \
    idempotency_keys WHERE opens_hand = 0 AND created_at < $1 ORDER BY created_at LIMIT $2)";

/// The time before which a key has expired, as the keys' `created_at`
/// is written (the audit clock's text, which sorts as time does).
pub fn cutoff(now: chrono::DateTime<chrono::Utc>, retention: Duration) -> String {
    let retention = chrono::Duration::from_std(retention).unwrap_or(chrono::Duration::MAX);
    audit::time_text(
        now.checked_sub_signed(retention)
            .unwrap_or(chrono::DateTime::UNIX_EPOCH),
    )
}

/// Deletes the keys that expired before `cutoff`, a chunk a statement;
/// returns how many. Several instances may prune at once: a row another
/// deleted is simply not deleted again.
pub async fn prune_expired_keys(db: &Db, cutoff: &str) -> Result<u64, StoreError> {
    let mut total = 0;
    loop {
        let deleted = on_pool!(db, |pool| sqlx::query(PRUNE)
            .bind(cutoff)
            .bind(PRUNE_CHUNK)
            .execute(pool)
            .await?
            .rows_affected());
        total += deleted;
        if deleted < PRUNE_CHUNK as u64 {
            return Ok(total);
        }
        tokio::task::yield_now().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cutoff_is_the_retention_before_now_in_the_keys_own_format() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-12-07T12:00:00.5Z")
            .unwrap()
            .to_utc();
        assert_eq!(
            cutoff(now, Duration::from_secs(48 * 3600)),
            "2026-12-05T12:00:00.500000Z"
        );
        assert_eq!(cutoff(now, Duration::MAX), "1970-01-01T00:00:00.000000Z");
    }
}
