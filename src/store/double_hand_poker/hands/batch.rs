//! What a group commit's commands read once and write once. Inside the
//! batch's transaction, which holds the chain, nothing else writes: so the
//! idempotency keys' stored results and the hands' versions are read for
//! every command of the batch in one query each, a table's row once, the
//! chain's head is read once and carried from command to command, and the
//! commands' records, hands, people and results are held ([`Pending`]) and
//! written a statement per table before the commit. On PostgreSQL each
//! saved statement is a round trip made while every other instance waits
//! for the chain (BENCHMARKS.md, "Several instances, one database").
//!
//! A command reads what the batch's earlier commands wrote from here (a
//! key used twice in one batch, a hand moved by an earlier command), as it
//! would from the database.

use std::collections::HashMap;

use sqlx::Row;

use super::pending::{HandWrite, Pending};
use super::{HandCommand, plan};
use crate::domain::double_hand_poker::table::TableConfig;
use crate::store::audit::AuditRecord;
use crate::store::statement::list;
use crate::store::{StoreError, WriteTx};

/// Most rows in one statement (the batch is at most 64 commands).
const ROWS_MAX: usize = 64;

/// A command's stored result: (request hash, response body).
pub(super) type Stored = (String, String);

/// The batch's reads and its pending result rows.
#[derive(Default)]
pub(in crate::store::double_hand_poker) struct BatchReads {
    /// Read for every command up front; else each is read when asked.
    prefetched: bool,
    head: Option<(i64, String)>,
    stored: HashMap<String, Stored>,
    versions: HashMap<String, Option<u64>>,
    /// Each table a new hand opened at, as read once for the batch.
    tables: HashMap<String, Option<(TableConfig, plan::ShiftAtOpen)>>,
    /// The commands' records, hands, people and results, written by
    /// [`Self::flush`].
    pending: Pending,
}

impl BatchReads {
    /// Reads the stored results of every command's key and the version of
    /// every hand the commands name: two statements for the batch.
    pub(in crate::store::double_hand_poker) async fn prefetch(
        tx: &mut WriteTx,
        commands: &[(Option<&str>, &HandCommand)],
    ) -> Result<BatchReads, StoreError> {
        let mut reads = BatchReads {
            prefetched: true,
            ..BatchReads::default()
        };
        for chunk in commands.chunks(ROWS_MAX) {
            let keys: Vec<&str> = chunk
                .iter()
                .map(|(_, c)| c.idempotency_key.as_str())
                .collect();
            let sql = format!(
                "SELECT key, request_hash, response_body FROM idempotency_keys WHERE key IN ({})",
                list(keys.len())
            );
            let rows: Vec<(String, String, String)> = on_tx!(tx, |c| {
                let mut q = sqlx::query(&sql);
                for k in &keys {
                    q = q.bind(*k);
                }
                q.fetch_all(&mut **c)
                    .await?
                    .iter()
                    .map(|r| (r.get(0), r.get(1), r.get(2)))
                    .collect()
            });
            reads
                .stored
                .extend(rows.into_iter().map(|(k, h, b)| (k, (h, b))));
            let ids: Vec<&str> = chunk.iter().filter_map(|(id, _)| *id).collect();
            if ids.is_empty() {
                continue;
            }
            let sql = format!(
                "SELECT id, version FROM hands WHERE id IN ({})",
                list(ids.len())
            );
            let rows: Vec<(String, i64)> = on_tx!(tx, |c| {
                let mut q = sqlx::query(&sql);
                for id in &ids {
                    q = q.bind(*id);
                }
                q.fetch_all(&mut **c)
                    .await?
                    .iter()
                    .map(|r| (r.get(0), r.get(1)))
                    .collect()
            });
            for id in ids {
                reads.versions.entry(id.to_string()).or_insert(None);
            }
            for (id, version) in rows {
                reads.versions.insert(id, Some(version as u64));
            }
        }
        Ok(reads)
    }

    /// The result stored under `key`, by this batch or before it.
    pub(super) async fn stored_result(
        &mut self,
        tx: &mut WriteTx,
        key: &str,
    ) -> Result<Option<Stored>, StoreError> {
        if let Some(stored) = self.stored.get(key) {
            return Ok(Some(stored.clone()));
        }
        if self.prefetched {
            return Ok(None);
        }
        Ok(on_tx!(tx, |c| sqlx::query(plan::SELECT_STORED_RESULT)
            .bind(key)
            .fetch_optional(&mut **c)
            .await?
            .map(|r| (r.get(0), r.get(1)))))
    }

    /// The hand's version, as this batch left it or as stored.
    pub(super) async fn hand_version(
        &mut self,
        tx: &mut WriteTx,
        id: &str,
    ) -> Result<Option<u64>, StoreError> {
        if let Some(version) = self.versions.get(id) {
            return Ok(*version);
        }
        let version: Option<i64> = on_tx!(tx, |c| sqlx::query(plan::SELECT_HAND_VERSION)
            .bind(id)
            .fetch_optional(&mut **c)
            .await?
            .map(|r| r.get(0)));
        Ok(version.map(|v| v as u64))
    }

    /// The chain's head: as the batch's last append left it, else read.
    pub(super) async fn head(&mut self, tx: &mut WriteTx) -> Result<(i64, String), StoreError> {
        match self.head.take() {
            Some(head) => Ok(head),
            None => crate::store::audit::head(tx).await,
        }
    }

    /// What a command wrote: its records (the chain's new head), its
    /// hand's row and people, its result; written by [`Self::flush`].
    pub(super) fn wrote(
        &mut self,
        records: Vec<AuditRecord>,
        hand: HandWrite<'_>,
        result: (&str, &str, &str),
    ) {
        let (key, hash, body) = result;
        if let Some(last) = records.last() {
            self.head = Some((last.seq, last.hash.clone()));
        }
        self.versions
            .insert(hand.id.to_string(), Some(hand.row.version as u64));
        self.pending.add(records, hand, result);
        self.stored
            .insert(key.to_string(), (hash.to_string(), body.to_string()));
    }

    /// The table's row and the shift covering it, read once a batch.
    pub(super) async fn table(
        &mut self,
        tx: &mut WriteTx,
        name: &str,
    ) -> Result<Option<(TableConfig, plan::ShiftAtOpen)>, StoreError> {
        if let Some(table) = self.tables.get(name) {
            return Ok(table.clone());
        }
        let table = on_tx!(tx, |c| sqlx::query(plan::SELECT_TABLE_AT_OPEN)
            .bind(name)
            .fetch_optional(&mut **c)
            .await?
            .as_ref()
            .map(|row| {
                let config = crate::store::double_hand_poker::tables::config_from_row(row)?;
                let shift = plan::ShiftAtOpen {
                    covering: row.try_get(10)?,
                    required: row.try_get(11)?,
                    tppps: row.try_get(12)?,
                };
                Ok::<_, StoreError>((config, shift))
            })
            .transpose()?);
        self.tables.insert(name.to_string(), table.clone());
        Ok(table)
    }

    /// Writes what the batch's commands hold before a read that must see
    /// it (a hand's events read from the database).
    pub(super) async fn write_held(
        &mut self,
        tx: &mut WriteTx,
        hand_id: &str,
    ) -> Result<(), StoreError> {
        if self.pending.holds(hand_id) {
            self.pending.flush(tx).await?;
        }
        Ok(())
    }

    /// Writes what the batch's commands hold, their results with them;
    /// before the commit, in the same transaction as the records they
    /// answer.
    pub(in crate::store::double_hand_poker) async fn flush(
        mut self,
        tx: &mut WriteTx,
    ) -> Result<(), StoreError> {
        self.pending.flush(tx).await
    }
}
