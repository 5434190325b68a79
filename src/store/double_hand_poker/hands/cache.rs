//! Open hands' folded state, kept by the writer between commands so a
//! command does not re-read and re-fold its hand's whole stream. An entry
//! is used only when its version is the version the database holds inside
//! the command's transaction, so a hand written by anyone else (another app
//! instance, the CLI) is simply re-read. Entries made inside a transaction
//! are pending until it commits; a rollback forgets them.

use std::collections::HashMap;

use super::plan::{Planned, Prior};
use crate::domain::double_hand_poker::hand_record::{HandEvent, HandState, Phase};

/// Most hands kept; past it the cache starts again empty (a cardroom has far
/// fewer open hands than this).
pub const OPEN_HANDS_MAX: usize = 4096;

/// Where an executor looks for a hand's state before reading the log.
pub trait HandCache: Send {
    /// The hand's state at `version`, if kept; taken out either way.
    fn take(&mut self, hand_id: &str, version: u64) -> Option<Prior>;
    /// The hand after a command that was written (not yet committed).
    fn keep(&mut self, planned: Planned);
}

/// Keeps nothing: every command reads its hand from the log.
pub struct NoCache;

impl HandCache for NoCache {
    fn take(&mut self, _: &str, _: u64) -> Option<Prior> {
        None
    }
    fn keep(&mut self, _: Planned) {}
}

struct Kept {
    version: u64,
    state: HandState,
    events: Vec<HandEvent>,
}

/// The writer's cache of open hands.
#[derive(Default)]
pub struct OpenHands {
    committed: HashMap<String, Kept>,
    pending: HashMap<String, Kept>,
}

impl OpenHands {
    /// The transaction holding the pending entries committed.
    pub fn committed(&mut self) {
        if self.committed.len() + self.pending.len() > OPEN_HANDS_MAX {
            self.committed.clear();
        }
        self.committed.extend(self.pending.drain());
    }

    /// The transaction was rolled back (or its commit failed): what it
    /// wrote may not exist.
    pub fn rolled_back(&mut self) {
        self.pending.clear();
    }
}

impl HandCache for OpenHands {
    fn take(&mut self, hand_id: &str, version: u64) -> Option<Prior> {
        let kept = match self.pending.remove(hand_id) {
            Some(kept) => kept,
            None => self.committed.remove(hand_id)?,
        };
        (kept.version == version).then(|| Prior {
            hand_id: hand_id.to_string(),
            state: Some(kept.state),
            events: kept.events,
            opening: None,
        })
    }

    fn keep(&mut self, planned: Planned) {
        // A closed or voided hand takes only rare corrections: read them
        // from the log.
        if matches!(planned.state.phase(), Phase::Closed | Phase::Voided) {
            return;
        }
        self.pending.insert(
            planned.hand_id,
            Kept {
                version: planned.state.version,
                state: planned.state,
                events: planned.events,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::double_hand_poker::hands::HandCommand;
    use crate::store::double_hand_poker::hands::plan::{self, Prior};

    fn command(events: serde_json::Value) -> HandCommand {
        serde_json::from_value(serde_json::json!({
            "idempotency_key": "k", "actor": "dana", "events": events}))
        .expect("command")
    }

    /// A hand opened (version 1), as the writer would keep it.
    fn opened(id: &str) -> Planned {
        let prior = Prior {
            hand_id: id.into(),
            state: None,
            events: Vec::new(),
            opening: None,
        };
        let open = command(serde_json::json!([
            {"type": "hand_opened", "table": "T1", "dealer": "dana"}]));
        plan::plan(prior, &open).expect("open")
    }

    #[test]
    fn a_kept_hand_is_served_only_at_its_version() {
        let mut cache = OpenHands::default();
        cache.keep(opened("h1"));
        cache.committed();
        assert!(cache.take("h1", 2).is_none(), "the database moved on");
        assert!(cache.take("h1", 1).is_none(), "a mismatch drops the entry");

        cache.keep(opened("h2"));
        cache.committed();
        let prior = cache.take("h2", 1).expect("kept at version 1");
        assert_eq!(prior.events.len(), 1);
        assert_eq!(prior.state.expect("state").version, 1);
        assert!(cache.take("h2", 1).is_none(), "taking removes it");
    }

    #[test]
    fn a_rolled_back_transaction_leaves_nothing_behind() {
        let mut cache = OpenHands::default();
        cache.keep(opened("h1"));
        // Within the transaction the pending entry serves the next command.
        assert!(cache.take("h1", 1).is_some());
        cache.keep(opened("h1"));
        cache.rolled_back();
        cache.committed();
        assert!(cache.take("h1", 1).is_none());
    }

    #[test]
    fn closed_hands_are_not_kept_and_the_cache_is_bounded() {
        let mut cache = OpenHands::default();
        let mut voided = opened("h1");
        let void = command(serde_json::json!([{"type": "hand_voided", "reason": "misdeal"}]));
        let prior = Prior {
            hand_id: voided.hand_id.clone(),
            state: Some(voided.state),
            events: std::mem::take(&mut voided.events),
            opening: None,
        };
        let voided = plan::plan(prior, &void).expect("void");
        assert_eq!(voided.state.phase(), Phase::Voided);
        cache.keep(voided);
        cache.committed();
        assert!(cache.take("h1", 2).is_none());

        for i in 0..=OPEN_HANDS_MAX {
            cache.keep(opened(&format!("h{i}")));
            cache.committed();
        }
        assert!(cache.committed.len() <= OPEN_HANDS_MAX);
    }
}
