//! Staff accounts: finding, listing and adding users, the first admin, and
//! changing a password.

use chrono::Utc;
use serde_json::json;
use sqlx::Row;

use super::{
    AccountError, SELECT_USER, Session, User, append_staff, hash_password, invalid, random_hex,
    time_text, user_from_row, verify_password,
};
use crate::domain::common::audit::AuditKey;
use crate::domain::staff::{Role, check_password, check_username};
use crate::store::{Db, StoreError, WriteTx, begin_write};

/// A user with its password hash and whether the account is disabled.
pub(super) async fn find_user(
    db: &Db,
    username: &str,
) -> Result<Option<(User, String, bool)>, StoreError> {
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

pub(super) async fn insert_user(
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
    execute_on_tx!(tx, sql, |q| q
        .bind(&user.id)
        .bind(username)
        .bind(role.as_str())
        .bind(phc)
        .bind(must_change_password)
        .bind(false)
        .bind(&now));
    let payload = json!({"username": username, "role": role.as_str(),
        "must_change_password": must_change_password});
    append_staff(tx, key, actor, "user_added", payload).await?;
    Ok(user)
}

pub(super) async fn username_taken(tx: &mut WriteTx, username: &str) -> Result<bool, StoreError> {
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
    append_staff(&mut tx, key, &user.username, "password_changed", payload).await?;
    let ended = super::admin::end_sessions(
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

/// Stores a new password hash and whether a change is due at next login.
pub(in crate::store) async fn set_password_hash(
    tx: &mut WriteTx,
    user_id: &str,
    phc: &str,
    must_change: bool,
) -> Result<(), StoreError> {
    let sql = "UPDATE staff_users SET password_hash = $1, must_change_password = $2 WHERE id = $3";
    execute_on_tx!(tx, sql, |q| q.bind(phc).bind(must_change).bind(user_id));
    Ok(())
}
