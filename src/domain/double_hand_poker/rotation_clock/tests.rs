use super::*;
use chrono::TimeZone;

fn at(minute: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 3, 10, 0, 0).unwrap() + Duration::minutes(minute)
}

fn hand(minute: i64, pd: &str) -> RecentHand {
    RecentHand {
        opened_at: at(minute),
        pd: (!pd.is_empty()).then(|| pd.to_string()),
    }
}

fn facts(hands: &[(i64, &str)]) -> ClockFacts {
    ClockFacts {
        hands: hands.iter().map(|(m, pd)| hand(*m, pd)).collect(),
        override_at: None,
        tppps: vec!["Ted".into()],
    }
}

const RULE: RotationRule = RotationRule {
    minutes: 40,
    min_other: 2,
};

fn hhmm(t: DateTime<Utc>) -> String {
    t.format("%H:%M").to_string()
}

struct Case {
    name: &'static str,
    hands: &'static [(i64, &'static str)],
    override_at: Option<i64>,
    now: i64,
    state: ClockState,
    deadline: Option<i64>,
    words: &'static str,
}

#[test]
fn the_clock_follows_the_banks_of_other_players() {
    let cases = [
        Case {
            name: "no hand yet: idle",
            hands: &[],
            override_at: None,
            now: 0,
            state: ClockState::Idle,
            deadline: None,
            words: "Rotation clock: no game running; the next hand starts the 40-minute clock",
        },
        Case {
            name: "the TPPP banks from 10:00: 40 minutes from the first hand",
            hands: &[(0, "Ted"), (5, "Ted")],
            override_at: None,
            now: 10,
            state: ClockState::Running,
            deadline: Some(40),
            words: "Rotation clock: 30 min left — before 10:40, the bank must go to 2 more players who are not TPPPs",
        },
        Case {
            name: "one other player banked: one more, not Ann",
            hands: &[(0, "Ted"), (5, "Ann"), (10, "Ted")],
            override_at: None,
            now: 32,
            state: ClockState::Warning,
            deadline: Some(40),
            words: "Rotation clock: 8 min left — before 10:40, the bank must go to a player other than Ann who is not a TPPP",
        },
        Case {
            name: "two others: the older one's bank leaves the window at 10:45",
            hands: &[(0, "Ted"), (5, "Ann"), (20, "Bo"), (30, "Ted")],
            override_at: None,
            now: 30,
            state: ClockState::Running,
            deadline: Some(45),
            words: "Rotation clock: 15 min left — before 10:45, the bank must go to a player other than Bo who is not a TPPP",
        },
        Case {
            name: "a TPPP's name in any case is still the TPPP",
            hands: &[(0, "ted"), (5, " TED "), (10, "Ann")],
            override_at: None,
            now: 20,
            state: ClockState::Running,
            deadline: Some(40),
            words: "Rotation clock: 20 min left — before 10:40, the bank must go to a player other than Ann who is not a TPPP",
        },
        Case {
            name: "ran out: only the TPPP banked after Ann",
            hands: &[(0, "Ann"), (10, "Ted"), (30, "Ted")],
            override_at: None,
            now: 41,
            state: ClockState::Expired,
            deadline: Some(40),
            words: "Rotation clock ran out at 10:40: a supervisor's override is needed to go on",
        },
        Case {
            name: "an override restarts the clock",
            hands: &[(0, "Ann"), (10, "Ted"), (30, "Ted")],
            override_at: Some(42),
            now: 43,
            state: ClockState::Running,
            deadline: Some(82),
            words: "Rotation clock: 39 min left — before 11:22, the bank must go to 2 more players who are not TPPPs",
        },
        Case {
            name: "an idle table stopped: the next hand starts a new game",
            hands: &[(0, "Ted"), (10, "Ted")],
            override_at: None,
            now: 50,
            state: ClockState::Idle,
            deadline: None,
            words: "Rotation clock: no game running; the next hand starts the 40-minute clock",
        },
        Case {
            name: "a hand whose PD is not set yet does not bank, but the game runs",
            hands: &[(0, "Ann"), (30, "")],
            override_at: None,
            now: 35,
            state: ClockState::Warning,
            deadline: Some(40),
            words: "Rotation clock: 5 min left — before 10:40, the bank must go to a player other than Ann who is not a TPPP",
        },
        Case {
            name: "a long game: banks older than the window do not count",
            hands: &[(0, "Ann"), (5, "Bo"), (30, "Ted"), (60, "Cy"), (70, "Ted")],
            override_at: None,
            now: 75,
            state: ClockState::Expired,
            deadline: Some(45),
            words: "Rotation clock ran out at 10:45: a supervisor's override is needed to go on",
        },
    ];
    for case in cases {
        let mut f = facts(case.hands);
        f.override_at = case.override_at.map(at);
        let clock = Clock::at(RULE, &f, at(case.now));
        assert_eq!(clock.state(), case.state, "{}", case.name);
        assert_eq!(clock.deadline, case.deadline.map(at), "{}", case.name);
        assert_eq!(clock.words(hhmm), case.words, "{}", case.name);
        assert_eq!(
            clock.check_open(hhmm).is_err(),
            case.state == ClockState::Expired,
            "{}",
            case.name
        );
    }
}

#[test]
fn the_refusal_says_why_and_what_to_do() {
    let clock = Clock::at(RULE, &facts(&[(0, "Ted"), (5, "Ann")]), at(40));
    assert_eq!(
        clock.check_open(hhmm).unwrap_err(),
        "the PD rotation clock ran out at 10:40: the bank did not go to 2 players other than a TPPP within 40 minutes (other players who banked: Ann), so the game stops; a supervisor may override the rule with a reason on the table page"
    );
}

#[test]
fn the_profile_turns_the_clock_on_and_an_option_off() {
    use crate::double_hand_poker::options::{OptionOverrides, Profile};
    let ca = RuleOptions::for_profile(Profile::California2026);
    assert_eq!(RotationRule::of(&ca), Some(RULE));
    assert_eq!(RotationRule::of(&RuleOptions::default()), None);
    let off = ca.with(&OptionOverrides {
        pd_rotation_minutes: Some(0),
        ..OptionOverrides::default()
    });
    assert_eq!(RotationRule::of(&off), None);
    assert_eq!(RULE.warning(), Duration::minutes(10));
    let short = RotationRule {
        minutes: 8,
        min_other: 1,
    };
    assert_eq!(short.warning(), Duration::minutes(2));
}
