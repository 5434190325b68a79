//! The login throttle in the shell: [`LoginGuard`] holds the pure
//! [`LoginThrottle`], and its failures are written as `login_failures`
//! summaries by a sweep.

use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Mutex, Weak};

use chrono::{DateTime, Utc};
use serde_json::json;

use super::{staff_record, time_text};
use crate::domain::common::audit::AuditKey;
use crate::domain::staff::login_throttle::{Limits, LoginThrottle, Summary};
use crate::store::audit::{NewRecord, append};
use crate::store::{Db, StoreError, begin_write};

/// The name a failed login is recorded under: what was typed, kept short.
pub(super) fn attempted_name(username: &str) -> String {
    username.chars().take(64).collect()
}

/// This process's login throttle (`domain::staff::login_throttle`, kept in memory:
/// one instance's figures; docs/staff.md) and the writing of its summaries
/// as `login_failures` records.
#[derive(Debug)]
pub struct LoginGuard {
    throttle: Mutex<LoginThrottle>,
}

impl LoginGuard {
    pub fn new(limits: Limits) -> LoginGuard {
        LoginGuard {
            throttle: Mutex::new(LoginThrottle::new(limits)),
        }
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, LoginThrottle> {
        // A panic while holding it leaves counts that are still counts.
        self.throttle.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes the summaries of the windows closed by now; returns how many.
    pub async fn sweep(&self, db: &Db, key: &AuditKey) -> Result<usize, StoreError> {
        let due = self.lock().take_due(Utc::now().timestamp_millis());
        write_summaries(db, key, &due).await?;
        Ok(due.len())
    }

    /// Writes every open summary, closing its window early (at shutdown).
    pub async fn flush(&self, db: &Db, key: &AuditKey) -> Result<usize, StoreError> {
        let due = self.lock().take_all();
        write_summaries(db, key, &due).await?;
        Ok(due.len())
    }
}

impl Default for LoginGuard {
    fn default() -> LoginGuard {
        LoginGuard::new(Limits::default())
    }
}

/// How often [`sweep_login_failures`] writes the closed windows' summaries.
pub const LOGIN_SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// Writes closed windows' `login_failures` records every
/// [`LOGIN_SWEEP_EVERY`] until the guard is gone.
pub async fn sweep_login_failures(guard: Weak<LoginGuard>, db: Db, key: AuditKey) {
    loop {
        tokio::time::sleep(LOGIN_SWEEP_EVERY).await;
        let Some(guard) = guard.upgrade() else {
            return;
        };
        if let Err(e) = guard.sweep(&db, &key).await {
            tracing::error!(error = %e, "cannot write the login_failures records");
        }
    }
}

pub(super) fn summary_record(s: &Summary) -> Result<NewRecord, StoreError> {
    let start = DateTime::<Utc>::from_timestamp_millis(s.window_start_ms).unwrap_or_default();
    let payload = json!({"username": s.username, "address": s.address.to_string(),
        "count": s.count, "window_start": time_text(start)});
    staff_record(&s.username, "login_failures", payload)
}

pub(super) async fn write_summaries(
    db: &Db,
    key: &AuditKey,
    due: &[Summary],
) -> Result<(), StoreError> {
    if due.is_empty() {
        return Ok(());
    }
    let records = due
        .iter()
        .map(summary_record)
        .collect::<Result<Vec<_>, _>>()?;
    let mut tx = begin_write(db).await?;
    append(&mut tx, key, &records).await?;
    tx.commit().await
}

/// The address failures are counted under: an IPv4 address as it is, an
/// IPv6 address by its /64 (one host's share of a network).
pub fn throttle_address(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
        v4 => v4,
    }
}
