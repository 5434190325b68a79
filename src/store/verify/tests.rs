//! Tests of `verify`.

use super::*;

fn at(seq: i64, kind: &'static str) -> Option<Problem> {
    Some(Problem {
        seq,
        kind,
        message: String::new(),
    })
}

#[test]
fn the_earliest_problem_is_reported_and_a_changed_record_first_at_one_seq() {
    let cases = [
        (
            at(5, "broken_link"),
            at(5, "hash_mismatch"),
            "hash_mismatch",
            5,
        ),
        (
            at(5, "hash_mismatch"),
            at(5, "broken_link"),
            "hash_mismatch",
            5,
        ),
        (at(5, SETTLEMENT_MISMATCH), at(5, "gap"), "gap", 5),
        (
            at(4, SETTLEMENT_MISMATCH),
            at(5, "hash_mismatch"),
            SETTLEMENT_MISMATCH,
            4,
        ),
        (None, at(9, "anchor_mismatch"), "anchor_mismatch", 9),
    ];
    for (a, b, kind, seq) in cases {
        let found = earliest(a, b).unwrap();
        assert_eq!((found.kind, found.seq), (kind, seq));
    }
    assert!(earliest(None, None).is_none());
}

#[test]
fn the_log_is_split_into_runs_that_cover_it_exactly_once() {
    let min = PART_RECORDS_MIN;
    let cases = [
        // (from, head, parts_max, records_min, expected runs)
        (1, 0, 4, min, vec![]),
        (1, 10, 4, min, vec![(1, 10)]),
        (1, 3 * min, 2, min, vec![(1, 30_000), (30_001, 60_000)]),
        (5, 3 * min, 8, min, vec![(5, 30_002), (30_003, 60_000)]),
        (
            1,
            3 * min,
            8,
            min,
            vec![(1, 20_000), (20_001, 40_000), (40_001, 60_000)],
        ),
        (1, 2 * min, 1, min, vec![(1, 40_000)]),
        (1, 10, 4, 1, vec![(1, 3), (4, 6), (7, 9), (10, 10)]),
        (1, 2, 4, 1, vec![(1, 1), (2, 2)]),
    ];
    for (from, head, parts_max, records_min, runs) in cases {
        let found = split(from, head, parts_max, records_min);
        assert_eq!(found, runs, "{from}..={head} in {parts_max}");
    }
}

#[test]
fn rounds_cover_the_log_exactly_once_each_split_into_parts() {
    let how = |round_records| Split {
        parts_max: 2,
        part_records_min: 1,
        round_records,
    };
    let cases = [
        // (from, head, round_records, expected rounds)
        (1, 0, 4, vec![vec![(1, 0)]]),
        (5, 4, 4, vec![vec![(5, 4)]]),
        (1, 3, 4, vec![vec![(1, 2), (3, 3)]]),
        (1, 4, 4, vec![vec![(1, 2), (3, 4)]]),
        (
            1,
            9,
            4,
            vec![vec![(1, 2), (3, 4)], vec![(5, 6), (7, 8)], vec![(9, 9)]],
        ),
        (
            3,
            7,
            2,
            vec![vec![(3, 3), (4, 4)], vec![(5, 5), (6, 6)], vec![(7, 7)]],
        ),
        (1, 5, i64::MAX, vec![vec![(1, 3), (4, 5)]]),
    ];
    for (from, head, round_records, rounds) in cases {
        assert_eq!(
            plan(from, head, how(round_records)),
            rounds,
            "{from}..={head} in rounds of {round_records}"
        );
    }
}
