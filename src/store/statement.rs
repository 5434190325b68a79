//! A statement and its values, for either driver. The store writes SQL
//! with `$N` placeholders; sqlx binds them in order on both databases, and
//! rusqlite binds each by its name ([`bind_numbered`]: SQLite numbers `$N`
//! by first appearance, not by N). A write built here — its text and its
//! values, once — runs through [`Exec`] on a sqlx write transaction or on
//! the SQLite hand writer's rusqlite transaction.

use std::str::FromStr;

use rusqlite::types::{ToSqlOutput, ValueRef};

use super::{StoreError, WriteTx};

/// A bound value, typed even when NULL (PostgreSQL types a placeholder by
/// what is bound to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Value<'a> {
    Text(Option<&'a str>),
    Int(Option<i64>),
    /// An amount's canonical decimal text: NUMERIC on PostgreSQL, the text
    /// itself on SQLite.
    Money(Option<&'a str>),
}

impl<'a> Value<'a> {
    pub(crate) fn text(text: &'a str) -> Value<'a> {
        Value::Text(Some(text))
    }

    pub(crate) fn int(n: i64) -> Value<'a> {
        Value::Int(Some(n))
    }
}

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match *self {
            Value::Text(Some(t)) | Value::Money(Some(t)) => ValueRef::Text(t.as_bytes()),
            Value::Int(Some(n)) => ValueRef::Integer(n),
            Value::Text(None) | Value::Int(None) | Value::Money(None) => ValueRef::Null,
        }))
    }
}

/// A statement's text and its values, `$1` first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Statement<'a> {
    pub sql: String,
    pub values: Vec<Value<'a>>,
}

/// `rows` parenthesized rows of `width` placeholders each, numbered from
/// `$1` in reading order: `($1, $2), ($3, $4)`.
pub(crate) fn rows(rows: usize, width: usize) -> String {
    let row = |r: usize| {
        let cells: Vec<String> = (1..=width).map(|c| format!("${}", r * width + c)).collect();
        format!("({})", cells.join(", "))
    };
    (0..rows).map(row).collect::<Vec<_>>().join(", ")
}

/// `$1, …, $count`: an `IN` list's placeholders.
pub(crate) fn list(count: usize) -> String {
    (1..=count)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Binds `values` to a rusqlite statement written with `$N` placeholders,
/// each parameter by its name: `$N` takes `values[N - 1]` wherever it
/// first appears.
pub(crate) fn bind_numbered<T: rusqlite::ToSql>(
    statement: &mut rusqlite::Statement<'_>,
    values: &[T],
) -> Result<(), StoreError> {
    for index in 1..=statement.parameter_count() {
        let value = statement
            .parameter_name(index)
            .and_then(|name| name.strip_prefix('$'))
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| values.get(n.checked_sub(1)?))
            .ok_or_else(|| {
                StoreError::Internal(format!(
                    "parameter {index} of a statement is no $N of its {} values",
                    values.len()
                ))
            })?;
        statement.raw_bind_parameter(index, value)?;
    }
    Ok(())
}

fn decimal(text: Option<&str>) -> Result<Option<rust_decimal::Decimal>, StoreError> {
    text.map(|t| {
        rust_decimal::Decimal::from_str(t)
            .map_err(|e| StoreError::Internal(format!("amount {t:?}: {e}")))
    })
    .transpose()
}

type SqliteQuery<'q> = sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>>;
type PgQuery<'q> = sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>;

fn sqlite_query<'q>(s: &'q Statement<'_>) -> SqliteQuery<'q> {
    let mut q = sqlx::query(&s.sql);
    for value in &s.values {
        q = match *value {
            Value::Text(t) | Value::Money(t) => q.bind(t),
            Value::Int(n) => q.bind(n),
        };
    }
    q
}

fn pg_query<'q>(s: &'q Statement<'_>) -> Result<PgQuery<'q>, StoreError> {
    let mut q = sqlx::query(&s.sql);
    for value in &s.values {
        q = match *value {
            Value::Text(t) => q.bind(t),
            Value::Int(n) => q.bind(n),
            Value::Money(t) => q.bind(decimal(t)?),
        };
    }
    Ok(q)
}

/// Where a [`Statement`] runs: a sqlx write transaction, or the SQLite hand
/// writer's rusqlite transaction ([`Blocking`]).
pub(crate) trait Exec {
    /// Runs it; the rows it wrote.
    async fn execute(&mut self, statement: &Statement<'_>) -> Result<u64, StoreError>;
    /// Runs it; each row's first column, text.
    async fn texts(&mut self, statement: &Statement<'_>) -> Result<Vec<String>, StoreError>;
    /// Runs it; each row's text and integer.
    async fn text_ints(
        &mut self,
        statement: &Statement<'_>,
    ) -> Result<Vec<(String, i64)>, StoreError>;
}

impl Exec for WriteTx {
    async fn execute(&mut self, s: &Statement<'_>) -> Result<u64, StoreError> {
        Ok(match self {
            WriteTx::Sqlite(c) => sqlite_query(s).execute(&mut **c).await?.rows_affected(),
            WriteTx::Postgres(c) => pg_query(s)?.execute(&mut **c).await?.rows_affected(),
        })
    }

    async fn texts(&mut self, s: &Statement<'_>) -> Result<Vec<String>, StoreError> {
        use sqlx::Row;
        Ok(match self {
            WriteTx::Sqlite(c) => sqlite_query(s)
                .fetch_all(&mut **c)
                .await?
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?,
            WriteTx::Postgres(c) => pg_query(s)?
                .fetch_all(&mut **c)
                .await?
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?,
        })
    }

    async fn text_ints(&mut self, s: &Statement<'_>) -> Result<Vec<(String, i64)>, StoreError> {
        use sqlx::Row;
        Ok(match self {
            WriteTx::Sqlite(c) => sqlite_query(s)
                .fetch_all(&mut **c)
                .await?
                .iter()
                .map(|r| Ok::<_, sqlx::Error>((r.try_get(0)?, r.try_get(1)?)))
                .collect::<Result<_, _>>()?,
            WriteTx::Postgres(c) => pg_query(s)?
                .fetch_all(&mut **c)
                .await?
                .iter()
                .map(|r| Ok::<_, sqlx::Error>((r.try_get(0)?, r.try_get(1)?)))
                .collect::<Result<_, _>>()?,
        })
    }
}

/// A rusqlite connection (its open transaction) as an [`Exec`]: each statement prepared once
/// (the connection's cache) and run in place. Its futures never wait:
/// [`Blocking::run`] polls one to its end.
pub(crate) struct Blocking<'c>(pub &'c rusqlite::Connection);

impl Blocking<'_> {
    fn prepared(&self, s: &Statement<'_>) -> Result<rusqlite::CachedStatement<'_>, StoreError> {
        let mut statement = self.0.prepare_cached(&s.sql)?;
        bind_numbered(&mut statement, &s.values)?;
        Ok(statement)
    }

    /// Runs `work` (over a [`Blocking`], which never waits) to its end.
    pub(crate) fn run<T>(
        work: impl std::future::Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        use futures_util::FutureExt;
        work.now_or_never()
            .unwrap_or_else(|| Err(StoreError::Internal("a blocking write waited".into())))
    }
}

impl Exec for Blocking<'_> {
    async fn execute(&mut self, s: &Statement<'_>) -> Result<u64, StoreError> {
        Ok(self.prepared(s)?.raw_execute()? as u64)
    }

    async fn texts(&mut self, s: &Statement<'_>) -> Result<Vec<String>, StoreError> {
        let mut statement = self.prepared(s)?;
        let mut rows = statement.raw_query();
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            out.push(row.get(0)?);
        }
        Ok(out)
    }

    async fn text_ints(&mut self, s: &Statement<'_>) -> Result<Vec<(String, i64)>, StoreError> {
        let mut statement = self.prepared(s)?;
        let mut rows = statement.raw_query();
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            out.push((row.get(0)?, row.get(1)?));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_numbered_in_reading_order() {
        assert_eq!(rows(2, 3), "($1, $2, $3), ($4, $5, $6)");
        assert_eq!(list(3), "$1, $2, $3");
    }

    #[test]
    fn rusqlite_binds_each_placeholder_by_its_number() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        // $2 first appears before $1: SQLite numbers it parameter 1.
        let mut statement = conn.prepare("SELECT $2 || '-' || $1 || '-' || $2").unwrap();
        bind_numbered(&mut statement, &[Value::text("a"), Value::text("b")]).unwrap();
        let mut rows = statement.raw_query();
        let row = rows.next().unwrap().unwrap();
        assert_eq!(row.get::<_, String>(0).unwrap(), "b-a-b");
        drop(rows);
        let mut three = conn.prepare("SELECT $3").unwrap();
        assert!(bind_numbered(&mut three, &[Value::int(1)]).is_err());
    }
}
