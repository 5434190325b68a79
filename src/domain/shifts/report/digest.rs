//! The report's digest: the SHA-256 of one line per hand, which a shift's
//! signature pins, so any later correction or void of a hand shows.

use sha2::{Digest, Sha256};

use super::{ReportHand, hand_order};
use crate::common::money::Money;

/// The text a report's digest is the SHA-256 of: one line per hand, in
/// (table, number) order — its id, number, table, state, whether
/// corrected, PD, bank, wagered, collection, PD's net and the seq of its
/// latest settlement — so any correction, void or hand added or taken
/// away changes it, and a note does not.
pub fn digest_text(hands: &[ReportHand]) -> String {
    let money = |m: Option<Money>| m.map(Money::to_canonical).unwrap_or_default();
    let mut text = String::new();
    for h in hands {
        text.push_str(&format!(
            "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}\n",
            h.id,
            h.number,
            h.table,
            h.status.as_str(),
            u8::from(h.corrected),
            h.pd.as_deref().unwrap_or(""),
            money(h.bank),
            h.wagered.to_canonical(),
            money(h.collection),
            money(h.pd_net),
            h.settlement_seq.map(|s| s.to_string()).unwrap_or_default(),
        ));
    }
    text
}

/// The digest of `hands` (sorted as the report sorts them).
pub fn digest(hands: &[ReportHand]) -> String {
    let mut sorted: Vec<&ReportHand> = hands.iter().collect();
    sorted.sort_by(|a, b| hand_order(a).cmp(&hand_order(b)));
    let owned: Vec<ReportHand> = sorted.into_iter().cloned().collect();
    hex::encode(Sha256::digest(digest_text(&owned).as_bytes()))
}
