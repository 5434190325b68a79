//! API tokens: issued, revoked and looked up, stored only as their SHA-256.

use chrono::Utc;
use serde_json::json;
use sqlx::Row;

use super::{
    AccountError, User, account, append_staff, invalid, random_hex, session_id_hash, staff_record,
    time_text, user_from_row,
};
use crate::domain::common::audit::AuditKey;
use crate::domain::common::text::FreeText;
use crate::domain::staff::check_username;
use crate::store::audit::append;
use crate::store::{Db, StoreError, WriteTx, begin_write};

/// Every API token starts with this, so a leaked one is recognisable.
pub const TOKEN_PREFIX: &str = "pbk_";
/// Random bytes in a token (hex-encoded after the prefix).
pub(super) const TOKEN_BYTES: usize = 32;
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
pub(super) fn token_shaped(token: &str) -> bool {
    token.strip_prefix(TOKEN_PREFIX).is_some_and(|hex| {
        hex.len() == TOKEN_BYTES * 2 && hex.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// The live account called `username` (not disabled), or an error naming it.
pub(super) async fn live_user(tx: &mut WriteTx, username: &str) -> Result<User, AccountError> {
    let (user, disabled) = account(tx, username).await?;
    if disabled {
        return Err(invalid("username", format!("\"{username}\" is disabled")));
    }
    Ok(user)
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
    execute_on_tx!(&mut tx, sql, |q| q
        .bind(&info.id)
        .bind(&user.id)
        .bind(session_id_hash(&token))
        .bind(label)
        .bind(&info.created_at));
    let payload = json!({"username": username, "token_id": info.id, "label": label});
    append_staff(&mut tx, key, actor, "token_issued", payload).await?;
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
    let (user, _) = account(&mut tx, username).await?;
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
        execute_on_tx!(&mut tx, sql, |q| q.bind(&now).bind(&id));
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
