//! Staff accounts and sessions. Passwords are argon2id PHC strings, hashed
//! and checked on the blocking pool; a session id is 32 random bytes of
//! which only the SHA-256 is stored. Every login, logout, denial and
//! account change is an audit record written in the same
//! transaction as the change itself. API tokens, like session ids, are
//! stored only as their SHA-256. Failed logins are not a record each: the
//! login throttle ([`LoginGuard`]) summarises them as `login_failures`.

mod accounts;
pub mod admin;
mod login_guard;
mod passwords;
mod sessions;
mod tokens;

pub use accounts::*;
pub use login_guard::*;
pub use passwords::*;
pub use sessions::*;
pub use tokens::*;

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use sqlx::Row;

use super::audit::{NewRecord, append};
use super::{StoreError, WriteTx};
use crate::domain::common::audit::AuditKey;
use crate::domain::staff::{Role, check_username};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: String,
    pub username: String,
    pub role: Role,
    pub must_change_password: bool,
}

/// A live session: its user and the token every POST form must carry.
/// A request authenticated by an API token is a session of its own with
/// `token_id` set, no `id_hash` and no CSRF token (so no form passes).
#[derive(Debug, Clone)]
pub struct Session {
    pub id_hash: String,
    pub user: User,
    pub csrf_token: String,
    /// Set when an API token, not a session cookie, authenticated the request.
    pub token_id: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    /// Refused by the login throttle: no password was checked.
    #[error("too many failed logins from your address: wait {retry_after_secs} s and try again")]
    Throttled { retry_after_secs: i64 },
    #[error("wrong user name or password")]
    BadCredentials,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// An account change refused (a field error) or failed (the store's).
pub type AccountError = crate::store::write_error::WriteError;

impl From<sqlx::Error> for LoginError {
    fn from(e: sqlx::Error) -> Self {
        LoginError::Store(e.into())
    }
}

pub(super) fn invalid(field: &'static str, message: impl Into<String>) -> AccountError {
    AccountError::invalid(field, message)
}

/// UTC time in the stored form (the audit log's), so times compare as text.
pub(super) fn time_text(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

/// `n` random bytes as hex.
pub fn random_hex(n: usize) -> Result<String, StoreError> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| StoreError::Internal(format!("no randomness: {e}")))?;
    Ok(hex::encode(bytes))
}

/// The stored form of a session id.
pub fn session_id_hash(id: &str) -> String {
    hex::encode(Sha256::digest(id.as_bytes()))
}

pub(super) fn staff_record(
    actor: &str,
    event_type: &str,
    payload: serde_json::Value,
) -> Result<NewRecord, StoreError> {
    NewRecord::tableless(actor, event_type, &payload)
}

/// Appends one staff record (`actor` did `event_type`) in the caller's
/// transaction.
pub(super) async fn append_staff(
    tx: &mut WriteTx,
    key: &AuditKey,
    actor: &str,
    event_type: &str,
    payload: serde_json::Value,
) -> Result<(), StoreError> {
    append(tx, key, &[staff_record(actor, event_type, payload)?]).await?;
    Ok(())
}

pub(super) fn user_from_row<R: Row>(row: &R) -> Result<User, StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> bool: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    let role: String = row.try_get("role")?;
    Ok(User {
        id: row.try_get("id")?,
        username: row.try_get("username")?,
        role: role.parse().map_err(StoreError::Internal)?,
        must_change_password: row.try_get("must_change_password")?,
    })
}

/// The account called `username` with its disabled flag, or an error naming
/// it (the name checked first). Admin changes and tokens all look it up so.
pub(super) async fn account(
    tx: &mut WriteTx,
    username: &str,
) -> Result<(User, bool), AccountError> {
    check_username(username).map_err(|m| invalid("username", m))?;
    let sql = format!("{SELECT_USER} WHERE username = $1");
    let found = on_tx!(tx, |c| {
        match sqlx::query(&sql)
            .bind(username)
            .fetch_optional(&mut **c)
            .await?
        {
            Some(row) => Some((user_from_row(&row)?, row.try_get::<bool, _>("disabled")?)),
            None => None,
        }
    });
    found.ok_or_else(|| invalid("username", format!("no user \"{username}\"")))
}

pub(super) const SELECT_USER: &str =
    "SELECT id, username, role, must_change_password, password_hash, disabled FROM staff_users";
