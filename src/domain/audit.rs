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
    #[error("anchor seq {seq}: the chain's hash there is {found}, the anchor says {expected}")]
    AnchorMismatch {
        seq: i64,
        expected: String,
        found: String,
    },
    #[error(
        "anchor seq {seq}: the chain ends at seq {head} — records after it were removed (truncated)"
    )]
    AnchorBeyondHead { seq: i64, head: i64 },
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

/// Walks records in ascending seq order, starting at `from` (1 for the whole
/// chain). Starting later trusts the stored hash of the record before `from`.
#[derive(Debug)]
pub struct ChainVerifier {
    key: AuditKey,
    expected_seq: i64,
    prev_hash: Option<String>,
    anchor: Option<Anchor>,
    anchor_seen: bool,
    count: u64,
}

impl ChainVerifier {
    /// `prev_hash`: the hash of record `from − 1` (GENESIS for `from == 1`).
    pub fn new(
        key: AuditKey,
        from: i64,
        prev_hash: Option<String>,
        anchor: Option<Anchor>,
    ) -> ChainVerifier {
        ChainVerifier {
            key,
            expected_seq: from.max(1),
            prev_hash,
            anchor,
            anchor_seen: false,
            count: 0,
        }
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
        if let Some(anchor) = &self.anchor
            && anchor.seq == r.seq
        {
            if anchor.hash != stored_hash {
                return Err(ChainProblem::AnchorMismatch {
                    seq: r.seq,
                    expected: anchor.hash.clone(),
                    found: stored_hash.to_string(),
                });
            }
            self.anchor_seen = true;
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

    /// Ends the walk: the anchor, if any, must have been reached.
    pub fn finish(self) -> Result<ChainReport, ChainProblem> {
        let head_seq = self.expected_seq - 1;
        if let Some(anchor) = &self.anchor
            && !self.anchor_seen
            && anchor.seq > head_seq
        {
            return Err(ChainProblem::AnchorBeyondHead {
                seq: anchor.seq,
                head: head_seq,
            });
        }
        Ok(ChainReport {
            count: self.count,
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
    /// The last record checked.
    pub head: Option<Anchor>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> AuditKey {
        AuditKey::from_text(&"ab".repeat(32)).unwrap()
    }

    struct Rec {
        seq: i64,
        payload: String,
        prev: String,
        hash: String,
    }

    fn fields(r: &Rec) -> RecordFields<'_> {
        RecordFields {
            seq: r.seq,
            recorded_at: "2026-11-29T12:00:00.000000Z",
            actor: "dana",
            table: Some("t1"),
            hand: None,
            event_type: "wager_placed",
            payload: &r.payload,
            prev_hash: &r.prev,
        }
    }

    fn chain(n: i64) -> Vec<Rec> {
        let k = key();
        let mut prev = GENESIS_HASH.to_string();
        (1..=n)
            .map(|seq| {
                let mut r = Rec {
                    seq,
                    payload: format!("{{\"amount\":\"{seq}0\"}}"),
                    prev: prev.clone(),
                    hash: String::new(),
                };
                r.hash = k.record_hash(&fields(&r));
                prev = r.hash.clone();
                r
            })
            .collect()
    }

    fn verify(recs: &[Rec], anchor: Option<Anchor>) -> Result<ChainReport, ChainProblem> {
        let mut v = ChainVerifier::new(key(), 1, Some(GENESIS_HASH.into()), anchor);
        for r in recs {
            v.check(&fields(r), &r.hash)?;
        }
        v.finish()
    }

    #[test]
    fn an_untouched_chain_verifies() {
        let recs = chain(5);
        let report = verify(
            &recs,
            Some(Anchor {
                seq: 5,
                hash: recs[4].hash.clone(),
            }),
        )
        .unwrap();
        assert_eq!(report.count, 5);
        assert_eq!(report.head.unwrap().seq, 5);
    }

    #[test]
    fn each_tamper_kind_is_named_at_its_seq() {
        let mut edited = chain(5);
        edited[2].payload = "{\"amount\":\"999\"}".into();
        assert_eq!(
            verify(&edited, None),
            Err(ChainProblem::HashMismatch { seq: 3 })
        );

        let mut deleted = chain(5);
        deleted.remove(1);
        assert_eq!(
            verify(&deleted, None),
            Err(ChainProblem::Gap {
                expected: 2,
                found: 3
            })
        );

        let mut swapped = chain(5);
        swapped.swap(1, 2);
        assert_eq!(
            verify(&swapped, None),
            Err(ChainProblem::Gap {
                expected: 2,
                found: 3
            })
        );

        let recs = chain(5);
        let truncated = &recs[..3];
        assert_eq!(
            verify(
                truncated,
                Some(Anchor {
                    seq: 5,
                    hash: recs[4].hash.clone()
                })
            ),
            Err(ChainProblem::AnchorBeyondHead { seq: 5, head: 3 })
        );
        let wrong = Anchor {
            seq: 2,
            hash: recs[3].hash.clone(),
        };
        assert!(matches!(
            verify(&recs, Some(wrong)),
            Err(ChainProblem::AnchorMismatch { seq: 2, .. })
        ));

        let other_key = AuditKey::from_text(&"cd".repeat(32)).unwrap();
        let mut v = ChainVerifier::new(other_key, 1, Some(GENESIS_HASH.into()), None);
        assert_eq!(
            v.check(&fields(&recs[0]), &recs[0].hash),
            Err(ChainProblem::HashMismatch { seq: 1 })
        );
    }

    #[test]
    fn a_reinserted_valid_record_breaks_the_link() {
        // Removing seq 3 and renumbering cannot be hidden without the key;
        // a record moved with its own valid hash fails on prev_hash.
        let recs = chain(4);
        let mut v = ChainVerifier::new(key(), 3, Some(recs[0].hash.clone()), None);
        assert_eq!(
            v.check(&fields(&recs[2]), &recs[2].hash),
            Err(ChainProblem::BrokenLink { seq: 3 })
        );
    }

    #[test]
    fn keys_must_be_long_enough() {
        assert_eq!(
            AuditKey::from_text("short").unwrap_err(),
            KeyError::TooShort(5)
        );
        assert_ne!(
            key().fingerprint(),
            AuditKey::from_text(&"cd".repeat(32)).unwrap().fingerprint()
        );
        assert_eq!(
            Anchor::parse(&format!("7:{}", "A".repeat(64)))
                .unwrap()
                .hash,
            "a".repeat(64)
        );
        assert!(Anchor::parse("0:abc").is_none());
    }
}
