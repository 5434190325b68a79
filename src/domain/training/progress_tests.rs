//! Progress: the pass marks, readiness, the trend and the sign-off rule.

use super::*;

fn row(kind: Kind, level: Level, right: bool, secs: i64) -> AttemptRow {
    AttemptRow {
        kind,
        level,
        right,
        elapsed_ms: secs * 1000,
    }
}

#[test]
fn the_trend_is_every_ten_attempts_in_turn_the_latest_twelve_points() {
    let k = Kind::ActionSeat;
    // Right every third attempt, the i-th taking i seconds.
    let rows: Vec<AttemptRow> = (0..25)
        .map(|i| row(k, Level::EASY, i % 3 == 0, i))
        .collect();
    let marks = PassMarks::default();
    let spans = |p: &Progress| -> Vec<(usize, usize, usize, i64)> {
        p.kinds[0]
            .trend
            .iter()
            .map(|t| (t.first, t.last, t.right, t.median_ms))
            .collect()
    };
    assert_eq!(
        spans(&progress(&rows, &marks)),
        [(1, 10, 4, 4_000), (11, 20, 3, 14_000), (21, 25, 2, 22_000)]
    );
    let rows: Vec<AttemptRow> = (0..130).map(|i| row(k, Level::EASY, true, i)).collect();
    let trend = &progress(&rows, &marks).kinds[0].trend;
    assert_eq!(trend.len(), TREND_POINTS_MAX);
    assert_eq!((trend[0].first, trend[11].last), (11, 130));
    assert_eq!((trend[11].attempts(), trend[11].pct()), (10, 100));
}

fn mark(window: u16, pct: u8, secs: u16) -> PassMark {
    PassMark {
        window,
        accuracy_pct: pct,
        median_seconds: secs,
        level: Level::MEDIUM,
        required: true,
    }
}

#[test]
fn the_window_is_the_last_attempts_at_the_marks_level_or_above() {
    let k = Kind::ActionSeat;
    let mut rows = vec![row(k, Level::EASY, false, 5); 30];
    rows.extend(vec![row(k, Level::MEDIUM, true, 8); 19]);
    rows.push(row(k, Level::HARD, false, 30));
    let r = readiness(&rows, &mark(20, 95, 20));
    assert_eq!((r.window_right, r.window_attempts), (19, 20));
    assert_eq!(r.window_median_ms, Some(8_000));
    assert!(r.met, "{:?}", r.short_of);
    let r = readiness(&rows, &mark(20, 100, 20));
    assert!(!r.met);
    assert_eq!(r.short_of, vec!["19 right of 20 (needs 100%)".to_string()]);
    let r = readiness(&rows, &mark(40, 95, 8));
    assert_eq!(r.short_of.len(), 2, "{:?}", r.short_of);
    assert!(
        r.short_of[0].starts_with("20 of the 40"),
        "{:?}",
        r.short_of
    );
    assert!(
        r.short_of[1].contains("needs under 8 s"),
        "{:?}",
        r.short_of
    );
}

#[test]
fn progress_names_the_weakest_required_kind_and_the_sign_off_waits_for_all() {
    let mut marks = PassMarks::default();
    for kind in Kind::ALL {
        marks.set(
            kind,
            PassMark {
                required: kind == Kind::ActionSeat || kind == Kind::Collection,
                ..mark(5, 80, 20)
            },
        );
    }
    let mut rows: Vec<AttemptRow> = (0..5)
        .map(|_| row(Kind::ActionSeat, Level::MEDIUM, true, 4))
        .collect();
    rows.extend((0..5).map(|i| row(Kind::Collection, Level::MEDIUM, i % 2 == 0, 4)));
    let p = progress(&rows, &marks);
    assert!(!p.ready);
    assert_eq!(p.weakest, Some(Kind::Collection));
    let seat = &p.kinds[0];
    assert_eq!((seat.attempts, seat.accuracy_pct), (5, Some(100)));
    assert_eq!(
        seat.trend,
        [TrendPoint {
            first: 1,
            last: 5,
            right: 5,
            median_ms: 4_000
        }]
    );
    assert_eq!(
        check_sign_off("sam", "tess", &p, false, true, Role::Trainee),
        Err(SignOffRefusal::NotReady(vec![Kind::Collection]))
    );
    rows.extend((0..5).map(|_| row(Kind::Collection, Level::HARD, true, 4)));
    let p = progress(&rows, &marks);
    assert!(p.ready);
    assert_eq!(p.weakest, None);
    assert_eq!(
        check_sign_off("sam", "tess", &p, false, true, Role::Trainee),
        Ok(true)
    );
    assert_eq!(
        check_sign_off("sam", "tess", &p, false, false, Role::Trainee),
        Ok(false)
    );
    assert_eq!(
        check_sign_off("sam", "tess", &p, false, true, Role::Dealer),
        Ok(false)
    );
    assert_eq!(
        check_sign_off("tess", "tess", &p, false, true, Role::Trainee),
        Err(SignOffRefusal::OwnSignOff)
    );
    assert_eq!(
        check_sign_off("sam", "tess", &p, true, true, Role::Trainee),
        Err(SignOffRefusal::AlreadySignedOff)
    );
}

#[test]
fn practise_one_level_up_from_the_last_mastered() {
    let k = Kind::Decide;
    let mut rows: Vec<AttemptRow> = (0..10).map(|_| row(k, Level::EASY, true, 3)).collect();
    assert_eq!(next_level(&rows, k), Level::MEDIUM);
    rows.extend((0..10).map(|_| row(k, Level::MEDIUM, true, 3)));
    assert_eq!(next_level(&rows, k), Level::HARD);
    assert_eq!(next_level(&[], k), Level::EASY);
}

#[test]
fn pass_marks_name_each_field_out_of_range() {
    let errors = PassMark::parse(2, 101, 0, 4, true).unwrap_err();
    let fields: Vec<&str> = errors.iter().map(|e| e.field()).collect();
    assert_eq!(
        fields,
        ["window", "accuracy_pct", "median_seconds", "level"]
    );
    assert_eq!(PassMark::parse(40, 95, 20, 2, true), Ok(PassMark::DEFAULT));
}
