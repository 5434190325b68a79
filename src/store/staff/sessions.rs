//! Sessions: login, looking a session up (idle and absolute timeouts),
//! logout, and the audit record of a permission denied.

use std::net::IpAddr;

use chrono::{Duration, Utc};
use serde_json::json;
use sqlx::Row;

use super::{
    LoginError, LoginGuard, Session, User, attempted_name, dummy_hash, find_user, random_hex,
    session_id_hash, staff_record, summary_record, throttle_address, time_text, user_from_row,
    verify_password, write_summaries,
};
use crate::domain::common::audit::AuditKey;
use crate::store::audit::append;
use crate::store::{Db, StoreError, begin_write};

/// A session ends after this long without a request…
pub const IDLE_TIMEOUT: Duration = Duration::minutes(30);
/// …and this long after its login in any case.
pub const ABSOLUTE_TIMEOUT: Duration = Duration::hours(12);
/// `last_seen_at` is written at most this often per session.
pub(super) const TOUCH_EVERY: Duration = Duration::seconds(30);

/// Checks the password and opens a new session; returns the new session id
/// (for the cookie) and the user. `address` is the client's. The throttle
/// comes first: a refused attempt checks no password and writes nothing.
/// Failures are summarised in `login_failures` records (the throttle's
/// windows), a success writes its pair's summary with its `login` record.
pub async fn login(
    db: &Db,
    key: &AuditKey,
    guard: &LoginGuard,
    username: &str,
    password: &str,
    address: IpAddr,
) -> Result<(String, User), LoginError> {
    let actor = attempted_name(username);
    let address = throttle_address(address);
    let due = match guard
        .lock()
        .attempt(&actor, address, Utc::now().timestamp_millis())
    {
        Ok(due) => due,
        Err(t) => {
            metrics::counter!(crate::telemetry::metric::LOGIN_THROTTLED).increment(1);
            return Err(LoginError::Throttled {
                retry_after_secs: (t.retry_after_ms + 999) / 1000,
            });
        }
    };
    let found = find_user(db, username).await?;
    let user = match found {
        Some((user, phc, disabled)) => {
            let ok = verify_password(password.to_string(), phc).await?;
            (ok && !disabled).then_some(user)
        }
        None => {
            verify_password(password.to_string(), dummy_hash().await?).await?;
            None
        }
    };
    let Some(user) = user else {
        metrics::counter!(crate::telemetry::metric::LOGIN_FAILURES).increment(1);
        write_summaries(db, key, &due).await?;
        return Err(LoginError::BadCredentials);
    };
    let mut records = due
        .iter()
        .map(summary_record)
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(s) = guard.lock().succeeded(&actor, address) {
        records.push(summary_record(&s)?);
    }
    let mut tx = begin_write(db).await?;
    let id = random_hex(32)?;
    let csrf = random_hex(32)?;
    let now = Utc::now();
    let stale_seen = time_text(now - IDLE_TIMEOUT);
    let stale_created = time_text(now - ABSOLUTE_TIMEOUT);
    let now = time_text(now);
    on_tx!(&mut tx, |c| {
        sqlx::query("DELETE FROM staff_sessions WHERE last_seen_at < $1 OR created_at < $2")
            .bind(&stale_seen)
            .bind(&stale_created)
            .execute(&mut **c)
            .await?;
        sqlx::query(
            "INSERT INTO staff_sessions (id_hash, user_id, csrf_token, created_at, last_seen_at) \
             VALUES ($1, $2, $3, $4, $4)",
        )
        .bind(session_id_hash(&id))
        .bind(&user.id)
        .bind(&csrf)
        .bind(&now)
        .execute(&mut **c)
        .await?;
    });
    records.push(staff_record(
        &user.username,
        "login",
        json!({"role": user.role.as_str()}),
    )?);
    append(&mut tx, key, &records).await?;
    tx.commit().await?;
    Ok((id, user))
}

/// The live session for a session id, or None (unknown, expired, or its
/// account disabled). An expired session is deleted; a live one is touched.
pub async fn session(db: &Db, id: &str) -> Result<Option<Session>, StoreError> {
    let id_hash = session_id_hash(id);
    let sql = "SELECT u.id, u.username, u.role, u.must_change_password, u.disabled, \
        s.csrf_token, s.created_at, s.last_seen_at \
        FROM staff_sessions s JOIN staff_users u ON u.id = s.user_id WHERE s.id_hash = $1";
    let now = Utc::now();
    let found = on_pool!(db, |pool| {
        match sqlx::query(sql).bind(&id_hash).fetch_optional(pool).await? {
            None => None,
            Some(row) => Some((
                user_from_row(&row)?,
                row.try_get::<bool, _>("disabled")?,
                row.try_get::<String, _>("csrf_token")?,
                row.try_get::<String, _>("created_at")?,
                row.try_get::<String, _>("last_seen_at")?,
            )),
        }
    });
    let Some((user, disabled, csrf_token, created_at, last_seen_at)) = found else {
        return Ok(None);
    };
    let expired = disabled
        || created_at < time_text(now - ABSOLUTE_TIMEOUT)
        || last_seen_at < time_text(now - IDLE_TIMEOUT);
    if expired {
        let sql = "DELETE FROM staff_sessions WHERE id_hash = $1";
        on_pool!(db, |pool| sqlx::query(sql)
            .bind(&id_hash)
            .execute(pool)
            .await
            .map(drop)?);
        return Ok(None);
    }
    if last_seen_at < time_text(now - TOUCH_EVERY) {
        let sql = "UPDATE staff_sessions SET last_seen_at = $1 WHERE id_hash = $2";
        on_pool!(db, |pool| sqlx::query(sql)
            .bind(time_text(now))
            .bind(&id_hash)
            .execute(pool)
            .await
            .map(drop)?);
    }
    Ok(Some(Session {
        id_hash,
        user,
        csrf_token,
        token_id: None,
    }))
}

/// Ends a session.
pub async fn logout(db: &Db, key: &AuditKey, session: &Session) -> Result<(), StoreError> {
    let mut tx = begin_write(db).await?;
    let sql = "DELETE FROM staff_sessions WHERE id_hash = $1";
    execute_on_tx!(&mut tx, sql, |q| q.bind(&session.id_hash));
    let r = staff_record(&session.user.username, "logout", json!({}))?;
    append(&mut tx, key, &[r]).await?;
    tx.commit().await
}

/// Records that `user` tried something their role does not allow.
pub async fn permission_denied(
    db: &Db,
    key: &AuditKey,
    user: &User,
    action: &str,
    path: &str,
) -> Result<(), StoreError> {
    let payload = json!({"role": user.role.as_str(), "action": action, "path": path});
    crate::store::audit::record(
        db,
        key,
        staff_record(&user.username, "permission_denied", payload)?,
    )
    .await
    .map(drop)
}
