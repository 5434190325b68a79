//! The 16-byte digest `audit verify` keeps of a hand's search projection
//! instead of the projection itself: every column and person,
//! length-prefixed, people in one order, so two projections digest alike
//! only if they are equal.

use sha2::{Digest as _, Sha256};

use crate::domain::double_hand_poker::hand_record::HandState;
use crate::store::history::projection::{HandSearch, PersonRow, SearchColumns};

/// What the replay keeps of a hand's search projection.
pub(super) type SearchDigest = [u8; 16];

/// The digest of what the search must hold for the folded hand (Err: the
/// hand gives none, e.g. a settlement whose totals do not read).
pub(super) fn derived(state: &HandState) -> Result<SearchDigest, String> {
    HandSearch::of(state)
        .map(|s| digest(&s.columns, &s.people))
        .map_err(|e| e.to_string())
}

fn feed_int(h: &mut Sha256, v: Option<i64>) {
    match v {
        None => h.update([0]),
        Some(v) => {
            h.update([1]);
            h.update(v.to_le_bytes());
        }
    }
}

fn feed_text(h: &mut Sha256, v: Option<&str>) {
    match v {
        None => h.update([0]),
        Some(v) => {
            h.update([1]);
            h.update((v.len() as u64).to_le_bytes());
            h.update(v.as_bytes());
        }
    }
}

/// The people in one order, whatever order they were stored or derived in.
fn sorted(people: &[PersonRow]) -> Vec<&PersonRow> {
    let mut sorted: Vec<&PersonRow> = people.iter().collect();
    sorted.sort_by(|a, b| {
        (
            a.role,
            &a.name,
            &a.name_key,
            a.staked_e4,
            a.received_e4,
            a.net_e4,
        )
            .cmp(&(
                b.role,
                &b.name,
                &b.name_key,
                b.staked_e4,
                b.received_e4,
                b.net_e4,
            ))
    });
    sorted
}

/// Every column and person, length-prefixed, so two projections digest
/// alike only if they are equal (people compared as a set).
pub(super) fn digest(c: &SearchColumns, people: &[PersonRow]) -> SearchDigest {
    let mut h = Sha256::new();
    feed_text(&mut h, c.pd_name.as_deref());
    for v in [c.pd_net_e4, c.bank_e4, Some(c.wagered_e4), c.max_wager_e4] {
        feed_int(&mut h, v);
    }
    feed_int(&mut h, c.collection_e4);
    feed_int(&mut h, Some(c.corrected));
    h.update((people.len() as u64).to_le_bytes());
    for p in sorted(people) {
        feed_text(&mut h, Some(p.role));
        feed_text(&mut h, Some(&p.name));
        feed_text(&mut h, Some(&p.name_key));
        for v in [Some(p.staked_e4), p.received_e4, p.net_e4] {
            feed_int(&mut h, v);
        }
        feed_text(&mut h, Some(&p.keys_before));
    }
    let full = h.finalize();
    let mut out = [0; 16];
    out.copy_from_slice(&full[..16]);
    out
}
