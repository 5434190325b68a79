//! The audit log's tamper evidence: an HMAC-SHA-256 chain. Each record's hash
//! covers every field of the record and the previous record's hash, keyed by
//! a secret that is not stored in the database. Pure: the store streams the
//! records through a [`ChainVerifier`].

use std::fmt;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The `prev_hash` of the first record.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Shortest secret accepted: 32 bytes, as HMAC-SHA-256's own output size.
pub const KEY_BYTES_MIN: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    #[error(
        "the audit key must be at least {KEY_BYTES_MIN} bytes (64 hex characters); got {0} bytes"
    )]
    TooShort(usize),
}

/// The chain's secret, already keyed into the MAC so each record costs only
/// its own bytes.
#[derive(Clone)]
pub struct AuditKey {
    mac: Hmac<Sha256>,
    fingerprint: String,
}

impl fmt::Debug for AuditKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AuditKey(fingerprint {})", self.fingerprint)
    }
}

impl AuditKey {
    /// The key text as configured: 64+ hex characters are decoded, any other
    /// text of 32+ bytes is used as is. Surrounding whitespace is ignored.
    pub fn from_text(text: &str) -> Result<AuditKey, KeyError> {
        let text = text.trim();
        let bytes = match hex::decode(text) {
            Ok(b) if b.len() >= KEY_BYTES_MIN => b,
            _ => text.as_bytes().to_vec(),
        };
        AuditKey::from_bytes(&bytes)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<AuditKey, KeyError> {
        if bytes.len() < KEY_BYTES_MIN {
            return Err(KeyError::TooShort(bytes.len()));
        }
        let mac = <Hmac<Sha256> as KeyInit>::new_from_slice(bytes)
            .map_err(|_| KeyError::TooShort(bytes.len()))?;
        // A fingerprint lets an operator tell keys apart without revealing them.
        let mut fp = mac.clone();
        fp.update(b"pitbook audit key fingerprint");
        let fingerprint = hex::encode(&fp.finalize().into_bytes()[..8]);
        Ok(AuditKey { mac, fingerprint })
    }

    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// A MAC keyed by a secret derived from this key for one `purpose`
    /// (e.g. the login form's CSRF values), so every instance sharing the
    /// audit key shares it and no other use of the key can collide with it.
    pub fn derived_mac(&self, purpose: &str) -> Hmac<Sha256> {
        let mut m = self.mac.clone();
        m.update(b"pitbook derived key: ");
        m.update(purpose.as_bytes());
        let derived = m.finalize().into_bytes();
        <Hmac<Sha256> as KeyInit>::new_from_slice(&derived).expect("HMAC takes any key length")
    }

    /// The hash of one record: HMAC over an unambiguous, length-prefixed
    /// encoding of every field, including the previous hash.
    pub fn record_hash(&self, r: &RecordFields<'_>) -> String {
        let mut hex_hash = [0u8; 64];
        self.record_hash_hex(r, &mut hex_hash);
        // Hex digits are ASCII.
        String::from_utf8_lossy(&hex_hash).into_owned()
    }

    /// The record's stored hash is the one its fields give.
    pub fn check_hash(&self, r: &RecordFields<'_>, stored_hash: &str) -> Result<(), ChainProblem> {
        let mut computed = [0u8; 64];
        self.record_hash_hex(r, &mut computed);
        if computed != stored_hash.as_bytes() {
            return Err(ChainProblem::HashMismatch { seq: r.seq });
        }
        Ok(())
    }

    /// [`Self::record_hash`] into a stack buffer: verification checks
    /// millions of records and allocates nothing per record.
    pub fn record_hash_hex(&self, r: &RecordFields<'_>, out: &mut [u8; 64]) {
        let mut mac = self.mac.clone();
        mac.update(&r.seq.to_be_bytes());
        for field in [
            Some(r.recorded_at),
            Some(r.actor),
            r.table,
            r.hand,
            Some(r.event_type),
            Some(r.payload),
            Some(r.prev_hash),
        ] {
            match field {
                None => mac.update(&[0]),
                Some(text) => {
                    mac.update(&[1]);
                    mac.update(&(text.len() as u64).to_be_bytes());
                    mac.update(text.as_bytes());
                }
            }
        }
        // 32 bytes always fit 64 hex digits.
        let _ = hex::encode_to_slice(mac.finalize().into_bytes(), out);
    }
}

/// Every field of an audit record that its hash covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordFields<'a> {
    pub seq: i64,
    /// UTC, RFC 3339 with microseconds: `2026-11-29T11:49:59.123456Z`.
    pub recorded_at: &'a str,
    pub actor: &'a str,
    pub table: Option<&'a str>,
    pub hand: Option<&'a str>,
    pub event_type: &'a str,
    /// Canonical JSON (keys sorted, no whitespace).
    pub payload: &'a str,
    pub prev_hash: &'a str,
}

/// The first thing wrong with a chain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainProblem {
    #[error("seq {found}: expected seq {expected} — records are missing (a gap)")]
    Gap { expected: i64, found: i64 },
    #[error("seq {found}: expected seq {expected} — records are out of order")]
    Reordered { expected: i64, found: i64 },
    #[error("seq {seq}: prev_hash does not match the hash of seq {} — a record was removed, inserted or moved", seq - 1)]
    BrokenLink { seq: i64 },
    #[error(
        "seq {seq}: hash mismatch — the record was altered, or the key is not the one it was written with"
    )]
    HashMismatch { seq: i64 },
    #[error(
        "anchor seq {seq} ({origin}): the chain's hash there is {found}, the anchor says {expected}"
    )]
    AnchorMismatch {
        seq: i64,
        expected: String,
        found: String,
        origin: String,
    },
    #[error(
        "anchor seq {seq} ({origin}): the chain ends at seq {head} — records after it were removed (truncated)"
    )]
    AnchorBeyondHead { seq: i64, head: i64, origin: String },
}

impl ChainProblem {
    pub fn seq(&self) -> i64 {
        match self {
            ChainProblem::Gap { found, .. } | ChainProblem::Reordered { found, .. } => *found,
            ChainProblem::BrokenLink { seq }
            | ChainProblem::HashMismatch { seq }
            | ChainProblem::AnchorMismatch { seq, .. }
            | ChainProblem::AnchorBeyondHead { seq, .. } => *seq,
        }
    }
}

/// A (seq, hash) pair written down outside the database (the shift report).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    pub seq: i64,
    pub hash: String,
}

impl Anchor {
    /// Parses `SEQ:HASH`.
    pub fn parse(text: &str) -> Option<Anchor> {
        let (seq, hash) = text.split_once(':')?;
        let seq: i64 = seq.parse().ok().filter(|s| *s >= 1)?;
        let valid = hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit());
        valid.then(|| Anchor {
            seq,
            hash: hash.to_ascii_lowercase(),
        })
    }
}

impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.seq, self.hash)
    }
}

/// An anchor to check and where it came from (`--anchor`, `anchors.log
/// line 3`), so a problem names the line an auditor must look at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnchorCheck {
    pub anchor: Anchor,
    pub origin: String,
}

impl AnchorCheck {
    /// The anchor given with `--anchor`, if any, as the one check.
    pub fn flag(anchor: Option<Anchor>) -> Vec<AnchorCheck> {
        anchor
            .map(|anchor| AnchorCheck {
                anchor,
                origin: "--anchor".to_string(),
            })
            .into_iter()
            .collect()
    }
}

/// Walks records in ascending seq order, starting at `from` (1 for the whole
/// chain). Starting later trusts the stored hash of the record before `from`.
///
/// Checks any number of anchors: at each anchor's seq the record's hash
/// must be the anchor's, and no anchor may lie past the head (a removed
/// tail). Anchors before `from` are not walked, so not checked (counted
/// as skipped).
#[derive(Debug)]
pub struct ChainVerifier {
    key: AuditKey,
    expected_seq: i64,
    prev_hash: Option<String>,
    /// Sorted by seq, each at or after `from`.
    anchors: Vec<AnchorCheck>,
    /// The first anchor not yet reached, and its seq (`i64::MAX` when none:
    /// one comparison per record).
    next_anchor: usize,
    next_anchor_seq: i64,
    anchors_checked: u64,
    anchors_skipped: u64,
    count: u64,
}

impl ChainVerifier {
    /// `prev_hash`: the hash of record `from − 1` (GENESIS for `from == 1`).
    /// `anchor`: one anchor given as `--anchor`.
    pub fn new(
        key: AuditKey,
        from: i64,
        prev_hash: Option<String>,
        anchor: Option<Anchor>,
    ) -> ChainVerifier {
        ChainVerifier::with_anchors(key, from, prev_hash, AnchorCheck::flag(anchor))
    }

    /// [`Self::new`] with every anchor in `anchors` (any order, repeats
    /// allowed: each is checked).
    pub fn with_anchors(
        key: AuditKey,
        from: i64,
        prev_hash: Option<String>,
        mut anchors: Vec<AnchorCheck>,
    ) -> ChainVerifier {
        let from = from.max(1);
        // Stable: anchors at one seq keep their order (the first wrong one
        // is the one named).
        anchors.sort_by_key(|a| a.anchor.seq);
        let skipped = anchors.iter().take_while(|a| a.anchor.seq < from).count();
        anchors.drain(..skipped);
        let next_anchor_seq = anchors.first().map_or(i64::MAX, |a| a.anchor.seq);
        ChainVerifier {
            key,
            expected_seq: from,
            prev_hash,
            anchors,
            next_anchor: 0,
            next_anchor_seq,
            anchors_checked: 0,
            anchors_skipped: skipped as u64,
            count: 0,
        }
    }

    /// Every anchor at `seq` names `stored_hash`.
    fn check_anchors(&mut self, seq: i64, stored_hash: &str) -> Result<(), ChainProblem> {
        while let Some(a) = self.anchors.get(self.next_anchor)
            && a.anchor.seq == seq
        {
            if a.anchor.hash != stored_hash {
                return Err(ChainProblem::AnchorMismatch {
                    seq,
                    expected: a.anchor.hash.clone(),
                    found: stored_hash.to_string(),
                    origin: a.origin.clone(),
                });
            }
            self.anchors_checked += 1;
            self.next_anchor += 1;
        }
        self.next_anchor_seq = self
            .anchors
            .get(self.next_anchor)
            .map_or(i64::MAX, |a| a.anchor.seq);
        Ok(())
    }

    /// Checks one record in full: its place in the sequence, its own hash,
    /// and its link to the record before it.
    pub fn check(&mut self, r: &RecordFields<'_>, stored_hash: &str) -> Result<(), ChainProblem> {
        self.check_sequence(r)?;
        self.key.check_hash(r, stored_hash)?;
        self.link(r, stored_hash)
    }

    /// The record is the next one in seq order.
    pub fn check_sequence(&self, r: &RecordFields<'_>) -> Result<(), ChainProblem> {
        if r.seq > self.expected_seq {
            return Err(ChainProblem::Gap {
                expected: self.expected_seq,
                found: r.seq,
            });
        }
        if r.seq < self.expected_seq {
            return Err(ChainProblem::Reordered {
                expected: self.expected_seq,
                found: r.seq,
            });
        }
        Ok(())
    }

    /// Links a record in sequence to the one before it (and checks the
    /// anchor) and moves on to the next. Its own hash is checked apart, by
    /// [`AuditKey::check_hash`] (the verifier does that on other threads);
    /// at one seq a hash mismatch is the problem to report, before this one.
    pub fn link(&mut self, r: &RecordFields<'_>, stored_hash: &str) -> Result<(), ChainProblem> {
        // A record whose own hash is valid but whose predecessor changed was
        // moved or had a neighbour removed.
        if let Some(prev) = &self.prev_hash
            && prev != r.prev_hash
        {
            return Err(ChainProblem::BrokenLink { seq: r.seq });
        }
        if r.seq == self.next_anchor_seq {
            self.check_anchors(r.seq, stored_hash)?;
        }
        match &mut self.prev_hash {
            // Reuse the buffer: one allocation for the whole walk.
            Some(prev) => {
                prev.clear();
                prev.push_str(stored_hash);
            }
            None => self.prev_hash = Some(stored_hash.to_string()),
        }
        self.expected_seq += 1;
        self.count += 1;
        Ok(())
    }

    /// Ends the walk: every anchor must have been reached (one past the
    /// head means records at the end were removed).
    pub fn finish(self) -> Result<ChainReport, ChainProblem> {
        let head_seq = self.expected_seq - 1;
        if let Some(a) = self.anchors.get(self.next_anchor) {
            return Err(ChainProblem::AnchorBeyondHead {
                seq: a.anchor.seq,
                head: head_seq,
                origin: a.origin.clone(),
            });
        }
        Ok(ChainReport {
            count: self.count,
            anchors_checked: self.anchors_checked,
            anchors_skipped: self.anchors_skipped,
            head: self.prev_hash.map(|hash| Anchor {
                seq: head_seq,
                hash,
            }),
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainReport {
    /// Records checked.
    pub count: u64,
    /// Anchors found in the chain with their hash.
    pub anchors_checked: u64,
    /// Anchors before `from`, not walked.
    pub anchors_skipped: u64,
    /// The last record checked.
    pub head: Option<Anchor>,
}

#[cfg(test)]
#[path = "audit_tests.rs"]
mod tests;
