//! Staff accounts and sessions. Passwords are argon2id PHC strings, hashed
//! and checked on the blocking pool; a session id is 32 random bytes of
//! which only the SHA-256 is stored. Every login, logout, denial and
//! account change is an audit record written in the same
//! transaction as the change itself. API tokens, like session ids, are
//! stored only as their SHA-256. Failed logins are not a record each: the
//! login throttle ([`LoginGuard`]) summarises them as `login_failures`.

pub mod admin;

use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Mutex, OnceLock, Weak};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use chrono::{DateTime, Duration, Utc};
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::Row;

use super::audit::{NewRecord, append, canonical_json};
use super::{Db, StoreError, WriteTx, begin_write};
use crate::domain::common::audit::AuditKey;
use crate::domain::common::text::FreeText;
use crate::domain::staff::login_throttle::{Limits, LoginThrottle, Summary};
use crate::domain::staff::{Role, check_password, check_username};

/// A session ends after this long without a request…
pub const IDLE_TIMEOUT: Duration = Duration::minutes(30);
/// …and this long after its login in any case.
pub const ABSOLUTE_TIMEOUT: Duration = Duration::hours(12);
/// `last_seen_at` is written at most this often per session.
const TOUCH_EVERY: Duration = Duration::seconds(30);

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

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for LoginError {
    fn from(e: sqlx::Error) -> Self {
        LoginError::Store(e.into())
    }
}

impl From<sqlx::Error> for AccountError {
    fn from(e: sqlx::Error) -> Self {
        AccountError::Store(e.into())
    }
}

pub(super) fn invalid(field: &'static str, message: impl Into<String>) -> AccountError {
    AccountError::Invalid {
        field,
        message: message.into(),
    }
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

fn argon2() -> Argon2<'static> {
    // OWASP: argon2id, 19 MiB, 2 iterations, 1 lane.
    let params = Params::new(19_456, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password to a PHC string, off the async runtime.
pub async fn hash_password(password: String) -> Result<String, StoreError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| StoreError::Internal(format!("no randomness: {e}")))?;
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
        argon2()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| StoreError::Internal(e.to_string()))?
    .map_err(|e| StoreError::Internal(format!("password hashing: {e}")))
}

/// Checks a password against a PHC string, off the async runtime.
pub async fn verify_password(password: String, phc: String) -> Result<bool, StoreError> {
    tokio::task::spawn_blocking(move || {
        let parsed = PasswordHash::new(&phc).map_err(|e| e.to_string())?;
        Ok::<_, String>(
            argon2()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok(),
        )
    })
    .await
    .map_err(|e| StoreError::Internal(e.to_string()))?
    .map_err(|e| StoreError::Internal(format!("stored password hash: {e}")))
}

/// A hash to check against when the user does not exist, so an unknown
/// name takes as long to refuse as a wrong password.
async fn dummy_hash() -> Result<String, StoreError> {
    static DUMMY: OnceLock<String> = OnceLock::new();
    if let Some(h) = DUMMY.get() {
        return Ok(h.clone());
    }
    let h = hash_password(random_hex(16)?).await?;
    Ok(DUMMY.get_or_init(|| h).clone())
}

pub(super) fn staff_record(
    actor: &str,
    event_type: &str,
    payload: serde_json::Value,
) -> Result<NewRecord, StoreError> {
    Ok(NewRecord {
        actor: actor.to_string(),
        table: None,
        hand: None,
        event_type: event_type.to_string(),
        payload: canonical_json(&payload)?,
    })
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

pub(super) const SELECT_USER: &str =
    "SELECT id, username, role, must_change_password, password_hash, disabled FROM staff_users";

/// A user with its password hash and whether the account is disabled.
async fn find_user(db: &Db, username: &str) -> Result<Option<(User, String, bool)>, StoreError> {
    let sql = format!("{SELECT_USER} WHERE username = $1");
    on_pool!(db, |pool| {
        match sqlx::query(&sql)
            .bind(username)
            .fetch_optional(pool)
            .await?
        {
            Some(row) => Ok(Some((
                user_from_row(&row)?,
                row.try_get("password_hash")?,
                row.try_get("disabled")?,
            ))),
            None => Ok(None),
        }
    })
}

pub async fn user_count(db: &Db) -> Result<i64, StoreError> {
    let sql = "SELECT COUNT(*) FROM staff_users";
    Ok(on_pool!(db, |pool| sqlx::query_scalar::<_, i64>(sql)
        .fetch_one(pool)
        .await?))
}

/// How an account is shown in lists: disabled, a password change due, or active.
pub fn account_state(user: &User, disabled: bool) -> &'static str {
    if disabled {
        "disabled"
    } else if user.must_change_password {
        "password change due"
    } else {
        "active"
    }
}

/// Every account, by user name: (user, disabled).
pub async fn list_users(db: &Db) -> Result<Vec<(User, bool)>, StoreError> {
    let sql = format!("{SELECT_USER} ORDER BY username");
    on_pool!(db, |pool| {
        let rows = sqlx::query(&sql).fetch_all(pool).await?;
        rows.iter()
            .map(|r| Ok((user_from_row(r)?, r.try_get("disabled")?)))
            .collect()
    })
}

async fn insert_user(
    tx: &mut WriteTx,
    key: &AuditKey,
    actor: &str,
    username: &str,
    role: Role,
    phc: &str,
    must_change_password: bool,
) -> Result<User, StoreError> {
    let user = User {
        id: uuid::Uuid::now_v7().to_string(),
        username: username.to_string(),
        role,
        must_change_password,
    };
    let sql = "INSERT INTO staff_users \
        (id, username, role, password_hash, must_change_password, disabled, created_at) \
        VALUES ($1, $2, $3, $4, $5, $6, $7)";
    let now = time_text(Utc::now());
    on_tx!(tx, |c| sqlx::query(sql)
        .bind(&user.id)
        .bind(username)
        .bind(role.as_str())
        .bind(phc)
        .bind(must_change_password)
        .bind(false)
        .bind(&now)
        .execute(&mut **c)
        .await
        .map(drop)?);
    let payload = json!({"username": username, "role": role.as_str(),
        "must_change_password": must_change_password});
    append(tx, key, &[staff_record(actor, "user_added", payload)?]).await?;
    Ok(user)
}

async fn username_taken(tx: &mut WriteTx, username: &str) -> Result<bool, StoreError> {
    let sql = "SELECT COUNT(*) FROM staff_users WHERE username = $1";
    let n: i64 = on_tx!(tx, |c| sqlx::query_scalar(sql)
        .bind(username)
        .fetch_one(&mut **c)
        .await?);
    Ok(n > 0)
}

/// Adds an account (`actor` is who adds it). The name and password are
/// checked first; nothing is written for bad input or a taken name.
pub async fn add_user(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    username: &str,
    role: Role,
    password: &str,
    must_change_password: bool,
) -> Result<User, AccountError> {
    check_username(username).map_err(|m| invalid("username", m))?;
    check_password(password).map_err(|m| invalid("password", m))?;
    let phc = hash_password(password.to_string()).await?;
    let mut tx = begin_write(db).await?;
    if username_taken(&mut tx, username).await? {
        return Err(invalid(
            "username",
            format!("\"{username}\" already exists"),
        ));
    }
    let user = insert_user(
        &mut tx,
        key,
        actor,
        username,
        role,
        &phc,
        must_change_password,
    )
    .await?;
    tx.commit().await?;
    Ok(user)
}

/// On a database with no accounts, creates `admin` with a random one-time
/// password (returned, to be shown once) that must be changed at first login.
pub async fn ensure_first_admin(db: &Db, key: &AuditKey) -> Result<Option<String>, StoreError> {
    if user_count(db).await? > 0 {
        return Ok(None);
    }
    let password = random_hex(12)?;
    let phc = hash_password(password.clone()).await?;
    let mut tx = begin_write(db).await?;
    // Another instance may have raced us to it: check again under the lock.
    let sql = "SELECT COUNT(*) FROM staff_users";
    let n: i64 = on_tx!(&mut tx, |c| sqlx::query_scalar(sql)
        .fetch_one(&mut **c)
        .await?);
    if n > 0 {
        return Ok(None);
    }
    insert_user(&mut tx, key, "system", "admin", Role::Admin, &phc, true).await?;
    tx.commit().await?;
    Ok(Some(password))
}

/// The name a failed login is recorded under: what was typed, kept short.
fn attempted_name(username: &str) -> String {
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

    fn lock(&self) -> std::sync::MutexGuard<'_, LoginThrottle> {
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

fn summary_record(s: &Summary) -> Result<NewRecord, StoreError> {
    let start = DateTime::<Utc>::from_timestamp_millis(s.window_start_ms).unwrap_or_default();
    let payload = json!({"username": s.username, "address": s.address.to_string(),
        "count": s.count, "window_start": time_text(start)});
    staff_record(&s.username, "login_failures", payload)
}

async fn write_summaries(db: &Db, key: &AuditKey, due: &[Summary]) -> Result<(), StoreError> {
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
    on_tx!(&mut tx, |c| sqlx::query(sql)
        .bind(&session.id_hash)
        .execute(&mut **c)
        .await
        .map(drop)?);
    let r = staff_record(&session.user.username, "logout", json!({}))?;
    append(&mut tx, key, &[r]).await?;
    tx.commit().await
}

/// Changes a user's own password: the current one must be right and the
/// new one must follow the rules and differ from it. Clears the forced
/// change and ends every other session of the user (the one it was
/// changed from stays); returns how many were ended.
pub async fn change_password(
    db: &Db,
    key: &AuditKey,
    session: &Session,
    current: &str,
    new: &str,
) -> Result<u64, AccountError> {
    let user = &session.user;
    let Some((_, phc, _)) = find_user(db, &user.username).await? else {
        return Err(invalid("current", "the account no longer exists"));
    };
    if !verify_password(current.to_string(), phc).await? {
        return Err(invalid("current", "wrong password"));
    }
    check_password(new).map_err(|m| invalid("new", m))?;
    if new == current {
        return Err(invalid(
            "new",
            "choose a password other than the current one",
        ));
    }
    let phc = hash_password(new.to_string()).await?;
    let mut tx = begin_write(db).await?;
    set_password_hash(&mut tx, &user.id, &phc, false).await?;
    let payload = json!({"forced": user.must_change_password});
    append(
        &mut tx,
        key,
        &[staff_record(&user.username, "password_changed", payload)?],
    )
    .await?;
    let ended = admin::end_sessions(
        &mut tx,
        key,
        &user.username,
        user,
        Some(&session.id_hash),
        "password_changed",
    )
    .await?;
    tx.commit().await?;
    Ok(ended)
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
    super::audit::record(
        db,
        key,
        staff_record(&user.username, "permission_denied", payload)?,
    )
    .await
    .map(drop)
}

/// Every API token starts with this, so a leaked one is recognisable.
pub const TOKEN_PREFIX: &str = "pbk_";
/// Random bytes in a token (hex-encoded after the prefix).
const TOKEN_BYTES: usize = 32;
/// Longest token label.
pub const TOKEN_LABEL_MAX: usize = 64;
/// Most live (unrevoked) tokens one user may hold.
pub const TOKENS_PER_USER_MAX: i64 = 10;

/// An API token's public facts (never the token itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    pub id: String,
    pub username: String,
    pub label: String,
    pub created_at: String,
    pub revoked_at: Option<String>,
}

/// Which of a user's live tokens to revoke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RevokeWhich {
    /// The one token with this id.
    Id(String),
    /// Every live token with this label.
    Label(String),
}

/// A token label as stored: empty, or one line of free text of at most
/// [`TOKEN_LABEL_MAX`] characters (trimmed, NFC, no control, zero-width or
/// bidi characters — `domain::common::text::FreeText`).
pub fn check_token_label(label: &str) -> Result<String, String> {
    if label.trim().is_empty() && !label.chars().any(crate::domain::common::text::refused_char) {
        return Ok(String::new());
    }
    FreeText::line("label", label, TOKEN_LABEL_MAX)
        .map(FreeText::into_string)
        .map_err(|e| {
            // The field is named by the caller.
            e.to_string()
                .strip_prefix("label: ")
                .map(str::to_string)
                .unwrap_or_else(|| e.to_string())
        })
}

/// Whether `token` has the shape of an API token (`pbk_` + 64 hex digits).
fn token_shaped(token: &str) -> bool {
    token.strip_prefix(TOKEN_PREFIX).is_some_and(|hex| {
        hex.len() == TOKEN_BYTES * 2 && hex.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// The live account called `username` (not disabled), or an error naming it.
async fn live_user(tx: &mut WriteTx, username: &str) -> Result<User, AccountError> {
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
    match found {
        None => Err(invalid("username", format!("no user \"{username}\""))),
        Some((_, true)) => Err(invalid("username", format!("\"{username}\" is disabled"))),
        Some((user, false)) => Ok(user),
    }
}

/// Issues a new API token for `username` (`actor` is who issues it) and
/// returns it with its facts. The token itself is returned only here: the
/// database keeps its SHA-256. Recorded as `token_issued`.
pub async fn issue_token(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    username: &str,
    label: &str,
) -> Result<(String, TokenInfo), AccountError> {
    check_username(username).map_err(|m| invalid("username", m))?;
    let label = &check_token_label(label).map_err(|m| invalid("label", m))?;
    let token = format!("{TOKEN_PREFIX}{}", random_hex(TOKEN_BYTES)?);
    let mut tx = begin_write(db).await?;
    let user = live_user(&mut tx, username).await?;
    let sql = "SELECT COUNT(*) FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL";
    let live: i64 = on_tx!(&mut tx, |c| sqlx::query_scalar(sql)
        .bind(&user.id)
        .fetch_one(&mut **c)
        .await?);
    if live >= TOKENS_PER_USER_MAX {
        return Err(invalid(
            "username",
            format!(
                "\"{username}\" already has {live} live tokens (at most {TOKENS_PER_USER_MAX}): revoke one first"
            ),
        ));
    }
    let info = TokenInfo {
        id: uuid::Uuid::now_v7().to_string(),
        username: user.username.clone(),
        label: label.to_string(),
        created_at: time_text(Utc::now()),
        revoked_at: None,
    };
    let sql = "INSERT INTO api_tokens (id, user_id, token_hash, label, created_at) \
        VALUES ($1, $2, $3, $4, $5)";
    on_tx!(&mut tx, |c| sqlx::query(sql)
        .bind(&info.id)
        .bind(&user.id)
        .bind(session_id_hash(&token))
        .bind(label)
        .bind(&info.created_at)
        .execute(&mut **c)
        .await
        .map(drop)?);
    let payload = json!({"username": username, "token_id": info.id, "label": label});
    append(
        &mut tx,
        key,
        &[staff_record(actor, "token_issued", payload)?],
    )
    .await?;
    tx.commit().await?;
    Ok((token, info))
}

/// Revokes `username`'s live tokens chosen by `which` (`actor` is who
/// revokes them); each is recorded as `token_revoked`. None matching is an
/// error naming the id or label, and nothing is written.
pub async fn revoke_tokens(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    username: &str,
    which: &RevokeWhich,
) -> Result<Vec<TokenInfo>, AccountError> {
    check_username(username).map_err(|m| invalid("username", m))?;
    let mut tx = begin_write(db).await?;
    let sql = format!("{SELECT_USER} WHERE username = $1");
    let user = on_tx!(&mut tx, |c| {
        match sqlx::query(&sql)
            .bind(username)
            .fetch_optional(&mut **c)
            .await?
        {
            Some(row) => user_from_row(&row)?,
            None => return Err(invalid("username", format!("no user \"{username}\""))),
        }
    });
    let (column, value) = match which {
        RevokeWhich::Id(id) => ("id", id),
        RevokeWhich::Label(label) => ("label", label),
    };
    let sql = format!(
        "SELECT id, label, created_at FROM api_tokens \
         WHERE user_id = $1 AND revoked_at IS NULL AND {column} = $2 ORDER BY id"
    );
    let found: Vec<(String, String, String)> = on_tx!(&mut tx, |c| sqlx::query_as(&sql)
        .bind(&user.id)
        .bind(value)
        .fetch_all(&mut **c)
        .await?);
    if found.is_empty() {
        let (field, what) = match which {
            RevokeWhich::Id(id) => ("id", format!("no live token \"{id}\"")),
            RevokeWhich::Label(label) => ("label", format!("no live token labelled \"{label}\"")),
        };
        return Err(invalid(field, format!("{what} for \"{username}\"")));
    }
    let now = time_text(Utc::now());
    let mut revoked = Vec::with_capacity(found.len());
    let mut records = Vec::with_capacity(found.len());
    for (id, label, created_at) in found {
        let sql = "UPDATE api_tokens SET revoked_at = $1 WHERE id = $2";
        on_tx!(&mut tx, |c| sqlx::query(sql)
            .bind(&now)
            .bind(&id)
            .execute(&mut **c)
            .await
            .map(drop)?);
        let payload = json!({"username": username, "token_id": id, "label": label});
        records.push(staff_record(actor, "token_revoked", payload)?);
        revoked.push(TokenInfo {
            id,
            username: user.username.clone(),
            label,
            created_at,
            revoked_at: Some(now.clone()),
        });
    }
    append(&mut tx, key, &records).await?;
    tx.commit().await?;
    Ok(revoked)
}

/// The user an API token authenticates, with the token's id; None for a
/// malformed, unknown or revoked token, or a disabled account.
pub async fn token_user(db: &Db, token: &str) -> Result<Option<(String, User)>, StoreError> {
    if !token_shaped(token) {
        return Ok(None);
    }
    let sql = "SELECT t.id AS token_id, u.id, u.username, u.role, u.must_change_password \
        FROM api_tokens t JOIN staff_users u ON u.id = t.user_id \
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND u.disabled = $2";
    on_pool!(db, |pool| {
        match sqlx::query(sql)
            .bind(session_id_hash(token))
            .bind(false)
            .fetch_optional(pool)
            .await?
        {
            Some(row) => Ok(Some((row.try_get("token_id")?, user_from_row(&row)?))),
            None => Ok(None),
        }
    })
}

/// Stores a new password hash and whether a change is due at next login.
pub(super) async fn set_password_hash(
    tx: &mut WriteTx,
    user_id: &str,
    phc: &str,
    must_change: bool,
) -> Result<(), StoreError> {
    let sql = "UPDATE staff_users SET password_hash = $1, must_change_password = $2 WHERE id = $3";
    on_tx!(tx, |c| sqlx::query(sql)
        .bind(phc)
        .bind(must_change)
        .bind(user_id)
        .execute(&mut **c)
        .await
        .map(drop)?);
    Ok(())
}
