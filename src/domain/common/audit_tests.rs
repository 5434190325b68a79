//! Tests of `audit`.

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
        Err(ChainProblem::AnchorBeyondHead {
            seq: 5,
            head: 3,
            origin: "--anchor".into()
        })
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

fn check(seq: i64, hash: &str, origin: &str) -> AnchorCheck {
    AnchorCheck {
        anchor: Anchor {
            seq,
            hash: hash.to_string(),
        },
        origin: origin.to_string(),
    }
}

fn verify_many(
    recs: &[Rec],
    from: i64,
    anchors: Vec<AnchorCheck>,
) -> Result<ChainReport, ChainProblem> {
    let prev = if from == 1 {
        GENESIS_HASH.to_string()
    } else {
        recs[from as usize - 2].hash.clone()
    };
    let mut v = ChainVerifier::with_anchors(key(), from, Some(prev), anchors);
    for r in &recs[from as usize - 1..] {
        v.check(&fields(r), &r.hash)?;
    }
    v.finish()
}

#[test]
fn every_anchor_is_checked_in_any_order() {
    let recs = chain(6);
    let anchors = vec![
        check(5, &recs[4].hash, "log line 3"),
        check(2, &recs[1].hash, "log line 1"),
        check(5, &recs[4].hash, "log line 4"),
        check(6, &recs[5].hash, "--anchor"),
        check(3, &recs[2].hash, "log line 2"),
    ];
    let report = verify_many(&recs, 1, anchors.clone()).unwrap();
    assert_eq!((report.count, report.anchors_checked), (6, 5));
    assert_eq!(report.anchors_skipped, 0);

    // From seq 4: the anchors before it are not walked.
    let report = verify_many(&recs, 4, anchors).unwrap();
    assert_eq!((report.count, report.anchors_checked), (3, 3));
    assert_eq!(report.anchors_skipped, 2);

    // None at all.
    let report = verify_many(&recs, 1, Vec::new()).unwrap();
    assert_eq!((report.anchors_checked, report.anchors_skipped), (0, 0));
}

#[test]
fn a_wrong_or_unknown_anchor_is_named_by_its_origin() {
    let recs = chain(6);
    // The second of two anchors at seq 5 is wrong: it is the one named.
    let wrong = vec![
        check(2, &recs[1].hash, "log line 1"),
        check(5, &recs[4].hash, "log line 2"),
        check(5, &recs[3].hash, "log line 3"),
    ];
    let problem = verify_many(&recs, 1, wrong).unwrap_err();
    assert_eq!(
        problem,
        ChainProblem::AnchorMismatch {
            seq: 5,
            expected: recs[3].hash.clone(),
            found: recs[4].hash.clone(),
            origin: "log line 3".into(),
        }
    );
    assert!(problem.to_string().contains("(log line 3)"), "{problem}");

    // Past the head: the first such anchor, however many.
    let beyond = vec![
        check(9, &recs[0].hash, "log line 5"),
        check(2, &recs[1].hash, "log line 1"),
        check(7, &recs[0].hash, "log line 4"),
    ];
    assert_eq!(
        verify_many(&recs, 1, beyond),
        Err(ChainProblem::AnchorBeyondHead {
            seq: 7,
            head: 6,
            origin: "log line 4".into()
        })
    );
    // A truncated tail is caught even when walking from later on.
    let truncated = &recs[..4];
    assert!(matches!(
        verify_many(truncated, 3, vec![check(6, &recs[5].hash, "log line 9")]),
        Err(ChainProblem::AnchorBeyondHead {
            seq: 6,
            head: 4,
            ..
        })
    ));
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
