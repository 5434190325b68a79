//! `audit verify`'s check of the staff accounts: each account's role and
//! disabled flag re-derived from the log (`user_added` — the first-start
//! admin's too, actor `system` — `role_changed`, `user_disabled`,
//! `user_enabled`) and compared with its `staff_users` row. A row edited
//! around the log (its role or disabled flag changed by SQL, a row with no
//! `user_added`, a recorded account with no row) is a `projection` problem
//! at the seq of the last record about that account.

use std::collections::{BTreeMap, HashMap};

use sqlx::Row;

use super::Problem;
use crate::store::{Db, StoreError};

/// The records an account's role and disabled flag are the fold of, found
/// through the partial index of the records without a hand (0011).
const SELECT_ACCOUNT_RECORDS: &str = "SELECT seq, event_type, payload FROM audit_log \
    WHERE hand_id IS NULL AND event_type IN ('user_added', 'role_changed', 'user_disabled', 'user_enabled') \
    ORDER BY seq";

const PROJECTION: &str = "projection";

/// What the log says of one account.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Derived {
    role: String,
    disabled: bool,
    last_seq: i64,
}

fn problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: PROJECTION,
        message: format!("seq {seq}: {message}"),
    }
}

/// Folds the account records (in seq order) into each account's state.
fn fold(records: &[(i64, String, String)]) -> Result<HashMap<String, Derived>, Problem> {
    let mut accounts: HashMap<String, Derived> = HashMap::new();
    for (seq, event, payload) in records {
        let seq = *seq;
        let v: serde_json::Value = serde_json::from_str(payload)
            .map_err(|e| problem(seq, format!("{event}: the payload is not JSON: {e}")))?;
        let text = |field: &str| -> Result<String, Problem> {
            v[field]
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| problem(seq, format!("{event}: no \"{field}\" in the payload")))
        };
        let username = text("username")?;
        if event == "user_added" {
            let role = text("role")?;
            accounts.insert(
                username,
                Derived {
                    role,
                    disabled: false,
                    last_seq: seq,
                },
            );
            continue;
        }
        let Some(account) = accounts.get_mut(&username) else {
            return Err(problem(
                seq,
                format!("{event} for \"{username}\", who was never added"),
            ));
        };
        match event.as_str() {
            "role_changed" => account.role = text("to")?,
            "user_disabled" => account.disabled = true,
            _ => account.disabled = false,
        }
        account.last_seq = seq;
    }
    Ok(accounts)
}

/// Compares the rows with the fold; accounts with a record after the walked
/// head (a live server goes on writing) are left for the next verification.
fn compare(
    rows: &BTreeMap<String, (String, bool)>,
    derived: &HashMap<String, Derived>,
    head_seq: i64,
) -> Option<Problem> {
    let mut problems = Vec::new();
    for (username, (role, disabled)) in rows {
        match derived.get(username) {
            None => problems.push(problem(
                head_seq,
                format!("the account \"{username}\" ({role}) has no user_added record in the log"),
            )),
            Some(d) if d.last_seq > head_seq => {}
            Some(d) if d.role != *role || d.disabled != *disabled => {
                let state = |r: &str, off: bool| {
                    format!("{r}, {}", if off { "disabled" } else { "enabled" })
                };
                problems.push(problem(
                    d.last_seq,
                    format!(
                        "the account \"{username}\" is stored as {} but its records make it {}",
                        state(role, *disabled),
                        state(&d.role, d.disabled)
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    for (username, d) in derived {
        if d.last_seq <= head_seq && !rows.contains_key(username) {
            problems.push(problem(
                d.last_seq,
                format!("the account \"{username}\" is in the log but has no stored row"),
            ));
        }
    }
    problems.into_iter().min_by_key(|p| p.seq)
}

/// The first problem with the staff accounts.
pub async fn check(db: &Db, head_seq: i64) -> Result<Option<Problem>, StoreError> {
    // The rows first: a change committed after this read has its record
    // after the walked head, and that account is skipped.
    let rows_sql = "SELECT username, role, disabled FROM staff_users";
    let (rows, records) = on_pool!(db, |pool| {
        let rows: BTreeMap<String, (String, bool)> = sqlx::query(rows_sql)
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| Ok((r.try_get(0)?, (r.try_get(1)?, r.try_get(2)?))))
            .collect::<Result<_, sqlx::Error>>()?;
        let records: Vec<(i64, String, String)> = sqlx::query_as(SELECT_ACCOUNT_RECORDS)
            .fetch_all(pool)
            .await?;
        (rows, records)
    });
    Ok(match fold(&records) {
        Err(p) if p.seq <= head_seq => Some(p),
        Err(_) => None,
        Ok(derived) => compare(&rows, &derived, head_seq),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(seq: i64, event: &str, payload: serde_json::Value) -> (i64, String, String) {
        (seq, event.to_string(), payload.to_string())
    }

    #[test]
    fn the_fold_follows_every_change_and_names_the_last_record() {
        let records = [
            rec(
                1,
                "user_added",
                serde_json::json!({"username": "admin", "role": "admin", "must_change_password": true}),
            ),
            rec(
                2,
                "user_added",
                serde_json::json!({"username": "dana", "role": "dealer", "must_change_password": false}),
            ),
            rec(
                5,
                "role_changed",
                serde_json::json!({"username": "dana", "from": "dealer", "to": "supervisor"}),
            ),
            rec(7, "user_disabled", serde_json::json!({"username": "dana"})),
        ];
        let derived = fold(&records).expect("fold");
        let dana = &derived["dana"];
        assert_eq!(
            (dana.role.as_str(), dana.disabled, dana.last_seq),
            ("supervisor", true, 7)
        );
        let mut rows = BTreeMap::new();
        rows.insert("admin".to_string(), ("admin".to_string(), false));
        rows.insert("dana".to_string(), ("supervisor".to_string(), true));
        assert_eq!(compare(&rows, &derived, 10), None);
        rows.insert("dana".to_string(), ("supervisor".to_string(), false));
        let p = compare(&rows, &derived, 10).expect("a problem");
        assert_eq!((p.seq, p.kind), (7, "projection"));
        assert!(
            p.message.contains("stored as supervisor, enabled"),
            "{}",
            p.message
        );
        // Changed after the walked head: left for the next verification.
        assert_eq!(compare(&rows, &derived, 6), None);
        rows.insert("mallory".to_string(), ("admin".to_string(), false));
        rows.insert("dana".to_string(), ("supervisor".to_string(), true));
        let p = compare(&rows, &derived, 10).expect("a problem");
        assert_eq!(p.seq, 10);
        assert!(
            p.message.contains("\"mallory\" (admin) has no user_added"),
            "{}",
            p.message
        );
        let mut rows = BTreeMap::new();
        rows.insert("admin".to_string(), ("admin".to_string(), false));
        assert!(
            compare(&rows, &derived, 10)
                .expect("gone")
                .message
                .contains("no stored row")
        );
        let orphan = [rec(3, "user_enabled", serde_json::json!({"username": "x"}))];
        assert_eq!(fold(&orphan).unwrap_err().seq, 3);
    }
}
