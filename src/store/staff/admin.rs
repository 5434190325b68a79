//! What an admin does to accounts — the `/users` page and `pitbook user
//! list|disable|enable|set-role|reset-password`: each change checked first
//! (nothing is written for bad input), then made with its audit record in
//! the same transaction. The actor is who is signed in (`cli` on the
//! command line); the account changed is the payload's `username`.

use chrono::Utc;
use serde_json::json;

use super::{
    ABSOLUTE_TIMEOUT, AccountError, IDLE_TIMEOUT, TokenInfo, User, account, add_user, append_staff,
    invalid, random_hex, time_text,
};
use crate::domain::common::audit::AuditKey;
use crate::domain::staff::{Role, check_username};
use crate::store::{Db, StoreError, WriteTx, begin_write};

/// Enabled admins, counted under the chain lock.
async fn enabled_admins(tx: &mut WriteTx) -> Result<i64, StoreError> {
    let sql = "SELECT COUNT(*) FROM staff_users WHERE role = $1 AND disabled = $2";
    Ok(on_tx!(tx, |c| sqlx::query_scalar::<_, i64>(sql)
        .bind(Role::Admin.as_str())
        .bind(false)
        .fetch_one(&mut **c)
        .await?))
}

/// Refuses when `user` is the last enabled admin (so nobody could run accounts).
async fn not_the_last_admin(
    tx: &mut WriteTx,
    user: &User,
    field: &'static str,
    doing: &str,
) -> Result<(), AccountError> {
    if user.role == Role::Admin && enabled_admins(tx).await? <= 1 {
        return Err(invalid(
            field,
            format!(
                "\"{}\" is the last enabled admin and cannot be {doing}: make another admin first",
                user.username
            ),
        ));
    }
    Ok(())
}

/// Ends every live session of `user` but `keep` (a session's id hash) and
/// records `sessions_ended` with how many and why (nothing when none was
/// live). Expired sessions are deleted too, uncounted. In the caller's
/// transaction.
pub(super) async fn end_sessions(
    tx: &mut WriteTx,
    key: &AuditKey,
    actor: &str,
    user: &User,
    keep: Option<&str>,
    reason: &str,
) -> Result<u64, StoreError> {
    let now = Utc::now();
    let stale_seen = time_text(now - IDLE_TIMEOUT);
    let stale_created = time_text(now - ABSOLUTE_TIMEOUT);
    let keep = keep.unwrap_or("");
    let live = "DELETE FROM staff_sessions WHERE user_id = $1 AND id_hash <> $2 \
        AND last_seen_at >= $3 AND created_at >= $4";
    let stale = "DELETE FROM staff_sessions WHERE user_id = $1 AND id_hash <> $2";
    let count = on_tx!(tx, |c| {
        let n = sqlx::query(live)
            .bind(&user.id)
            .bind(keep)
            .bind(&stale_seen)
            .bind(&stale_created)
            .execute(&mut **c)
            .await?
            .rows_affected();
        sqlx::query(stale)
            .bind(&user.id)
            .bind(keep)
            .execute(&mut **c)
            .await?;
        n
    });
    if count > 0 {
        let payload = json!({"username": user.username, "count": count, "reason": reason});
        append_staff(tx, key, actor, "sessions_ended", payload).await?;
    }
    Ok(count)
}

/// Disables (`disabled`) or enables an account. Disabling ends its sessions
/// at once and stops its API tokens (they are kept, and work again if the
/// account is enabled); the last enabled admin cannot be disabled. Returns
/// the number of sessions ended.
pub async fn set_disabled(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    username: &str,
    disabled: bool,
) -> Result<u64, AccountError> {
    let mut tx = begin_write(db).await?;
    let (user, was) = account(&mut tx, username).await?;
    if was == disabled {
        let state = if disabled { "disabled" } else { "enabled" };
        return Err(invalid(
            "username",
            format!("\"{username}\" is already {state}"),
        ));
    }
    if disabled {
        not_the_last_admin(&mut tx, &user, "username", "disabled").await?;
    }
    let sql = "UPDATE staff_users SET disabled = $1 WHERE id = $2";
    execute_on_tx!(&mut tx, sql, |q| q.bind(disabled).bind(&user.id));
    let event = if disabled {
        "user_disabled"
    } else {
        "user_enabled"
    };
    let payload = json!({"username": user.username});
    append_staff(&mut tx, key, actor, event, payload).await?;
    let ended = if disabled {
        end_sessions(&mut tx, key, actor, &user, None, "disabled").await?
    } else {
        0
    };
    tx.commit().await?;
    Ok(ended)
}

/// Changes an account's role (it applies to its live sessions and tokens
/// at their next request); the last enabled admin keeps the admin role.
/// Returns the role it had.
pub async fn set_role(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    username: &str,
    role: Role,
) -> Result<Role, AccountError> {
    let mut tx = begin_write(db).await?;
    let (user, disabled) = account(&mut tx, username).await?;
    if user.role == role {
        return Err(invalid("role", format!("\"{username}\" is already {role}")));
    }
    if !disabled {
        not_the_last_admin(&mut tx, &user, "role", "given another role").await?;
    }
    let sql = "UPDATE staff_users SET role = $1 WHERE id = $2";
    execute_on_tx!(&mut tx, sql, |q| q.bind(role.as_str()).bind(&user.id));
    let payload =
        json!({"username": user.username, "from": user.role.as_str(), "to": role.as_str()});
    append_staff(&mut tx, key, actor, "role_changed", payload).await?;
    tx.commit().await?;
    Ok(user.role)
}

/// A new random one-time password (24 hex digits, like the first admin's).
fn one_time_password() -> Result<String, StoreError> {
    random_hex(12)
}

/// Gives an account a new one-time password (returned, to be shown once),
/// to be changed at its next login, and ends every session it has.
/// Returns the password and the number of sessions ended.
pub async fn reset_password(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    username: &str,
) -> Result<(String, u64), AccountError> {
    check_username(username).map_err(|m| invalid("username", m))?;
    let password = one_time_password()?;
    let phc = super::hash_password(password.clone()).await?;
    let mut tx = begin_write(db).await?;
    let (user, _) = account(&mut tx, username).await?;
    super::set_password_hash(&mut tx, &user.id, &phc, true).await?;
    let payload = json!({"username": user.username});
    append_staff(&mut tx, key, actor, "password_reset", payload).await?;
    let ended = end_sessions(&mut tx, key, actor, &user, None, "password_reset").await?;
    tx.commit().await?;
    Ok((password, ended))
}

/// Adds an account with a random one-time password (returned, to be shown
/// once) that must be changed at its first login. Recorded as `user_added`.
pub async fn add_with_one_time_password(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    username: &str,
    role: Role,
) -> Result<(User, String), AccountError> {
    check_username(username).map_err(|m| invalid("username", m))?;
    let password = one_time_password()?;
    let user = add_user(db, key, actor, username, role, &password, true).await?;
    Ok((user, password))
}

/// Every API token of `username`, live and revoked, oldest first.
pub async fn tokens_of(db: &Db, username: &str) -> Result<Vec<TokenInfo>, AccountError> {
    check_username(username).map_err(|m| invalid("username", m))?;
    let sql = "SELECT t.id, t.label, t.created_at, t.revoked_at \
        FROM api_tokens t JOIN staff_users u ON u.id = t.user_id \
        WHERE u.username = $1 ORDER BY t.created_at, t.id";
    let exists = "SELECT COUNT(*) FROM staff_users WHERE username = $1";
    on_pool!(db, |pool| {
        let n: i64 = sqlx::query_scalar(exists)
            .bind(username)
            .fetch_one(pool)
            .await?;
        if n == 0 {
            return Err(invalid("username", format!("no user \"{username}\"")));
        }
        let rows: Vec<(String, String, String, Option<String>)> =
            sqlx::query_as(sql).bind(username).fetch_all(pool).await?;
        Ok(rows
            .into_iter()
            .map(|(id, label, created_at, revoked_at)| TokenInfo {
                id,
                username: username.to_string(),
                label,
                created_at,
                revoked_at,
            })
            .collect())
    })
}
