//! One query text, two backends: SQL in this crate uses `$1` placeholders,
//! which SQLite (through sqlx) and PostgreSQL both accept, so a body written
//! once is compiled for each pool type.

/// Runs `$body` with `$pool` bound to the SQLite or the PostgreSQL pool.
macro_rules! on_pool {
    ($db:expr, |$pool:ident| $body:expr) => {
        match $db {
            $crate::store::Db::Sqlite($pool) => $body,
            $crate::store::Db::Postgres($pool) => $body,
        }
    };
}

/// Runs `$body` with `$conn` bound to the open write transaction.
macro_rules! on_tx {
    ($tx:expr, |$conn:ident| $body:expr) => {
        match $tx {
            $crate::store::WriteTx::Sqlite($conn) => $body,
            $crate::store::WriteTx::Postgres($conn) => $body,
        }
    };
}

/// Runs the statement `$sql` in the open write transaction for its effect,
/// `$binds` (`|q| q.bind(…)…`) giving its parameters.
macro_rules! execute_on_tx {
    ($tx:expr, $sql:expr, |$q:ident| $binds:expr) => {
        on_tx!($tx, |c| {
            let $q = sqlx::query($sql);
            $binds.execute(&mut **c).await.map(drop)?
        })
    };
}
