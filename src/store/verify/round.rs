//! The hands' rows checked a round at a time. A verification walks the log
//! in rounds of records (`mod.rs`); once a round's parts are read, the rows
//! whose `last_seq` falls in the round's window are compared with the
//! hands it replayed (`hand_search.rs`, then `hand_rows.rs`, each reading
//! the window by `hands_by_last_seq`), and the round's hands are let go;
//! the next round's runs are read meanwhile. So memory holds two rounds'
//! hands, and PostgreSQL reads one round's
//! rows by index (nothing sorted on disk), however long the log. What spans rounds is carried: each
//! table's count of hands opened (their numbers) and the name keys.

use std::collections::HashSet;
use std::sync::Arc;

use super::hand_rows::Numbering;
use super::replay::HandReplay;
use super::{Problem, earliest};
use crate::store::{Db, StoreError};

/// The row checks of a walk, round after round.
pub(super) struct RowChecks {
    names: Arc<HashSet<String>>,
    numbering: Numbering,
    head_seq: i64,
}

impl RowChecks {
    /// For a walk from `from` to `head_seq`.
    pub(super) async fn new(db: &Db, from: i64, head_seq: i64) -> Result<RowChecks, StoreError> {
        Ok(RowChecks {
            names: super::hand_search::names(db).await?,
            numbering: Numbering::new(from),
            head_seq,
        })
    }

    /// The round's rows (`window`: its first and last `last_seq`) against
    /// the hands it replayed.
    pub(super) async fn round(
        &mut self,
        db: &Db,
        hands: HandReplay,
        window: (i64, i64),
    ) -> Result<Option<Problem>, StoreError> {
        let started = std::time::Instant::now();
        let took = |check: &str| {
            let elapsed_ms = started.elapsed().as_millis() as u64;
            tracing::debug!(elapsed_ms, ?window, "verify: projection: {check} done");
        };
        let views = hands.into_views();
        let (search, views) =
            super::hand_search::first_problem(db, views, self.names.clone(), window, self.head_seq)
                .await?;
        took("search rows");
        let rows =
            super::hand_rows::first_problem(db, views, &mut self.numbering, window, self.head_seq)
                .await?;
        took("hand rows");
        Ok(earliest(rows, search))
    }

    /// What only the whole can say, once every round is checked: a name
    /// no row holds, and the daily totals against the rows.
    pub(super) async fn finish(self, db: &Db, from: i64) -> Result<Option<Problem>, StoreError> {
        let unused = super::hand_search::unused_name(db, self.head_seq).await?;
        let days = super::hand_days::first_problem(db, self.head_seq, from).await?;
        Ok(earliest(unused, days))
    }
}
