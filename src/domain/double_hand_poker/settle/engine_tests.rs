//! Tests of the engine: a balanced step passes its checks, a broken step
//! stops the settlement as an internal error, and the units of each
//! outcome follow the rules file.

use super::*;
use crate::common::money::Unit;

fn grid() -> Grid {
    Grid::new(Unit::CENT).unwrap()
}

fn good() -> Units {
    // $60 loses against $200: covered 60, the PD gets 120.
    Units {
        covered: 6000,
        before: 20000,
        after: 14000,
        consumed: 6000,
        to_bettor: 0,
        to_pd: 12000,
        breakage_num: 0,
    }
}

#[test]
fn a_balanced_step_passes_the_checks() {
    assert_eq!(check_step(&good(), 6000, 20000, grid()), Ok(()));
}

#[test]
fn broken_steps_stop_the_settlement_as_internal_errors() {
    let cases = [
        Units {
            to_pd: 11999,
            ..good()
        },
        Units {
            after: 20001,
            consumed: -1,
            ..good()
        },
        Units {
            after: -1,
            ..good()
        },
        Units {
            to_bettor: -1,
            to_pd: 12001,
            ..good()
        },
        Units {
            covered: 6001,
            ..good()
        },
    ];
    for u in cases {
        let err = check_step(&u, 6000, 20000, grid()).unwrap_err();
        assert!(matches!(err, SettleError::Conservation { .. }), "{u:?}");
        assert!(!err.is_bad_input());
    }
    // The running total in action must be the step's starting point.
    assert!(check_step(&good(), 6000, 19999, grid()).is_err());
    let err = check("money in = money out", grid(), 46000, 45999).unwrap_err();
    assert_eq!(
        err.to_string(),
        "internal error: settlement invariant \"money in = money out\" failed (460.00 vs 459.99); nothing was settled"
    );
}

#[test]
fn units_follow_the_rules_file() {
    let w = |units: i64, p: u32, q: u32| Wager {
        id: "w".into(),
        seat: 2,
        bettor: "Ann".into(),
        bettor_index: 0,
        amount: grid().money(units),
        backline: false,
        payout: super::super::ratio::Ratio::parse("payout", &format!("{p}:{q}")).unwrap(),
        fee: Money::ZERO,
        units,
        fee_units: 0,
    };
    // 3:2 win of $25.05 against $100: pays $37.57, 0.5 of a cent breakage.
    let u = settle_units(&w(2505, 3, 2), Outcome::Player, 10000, false);
    assert_eq!(
        (u.covered, u.consumed, u.to_bettor, u.breakage_num),
        (2505, 3757, 6262, 1)
    );
    // Partial 3:2 coverage: $62.43 covers floor(62.43 × 2/3) = $41.62.
    let u = settle_units(&w(5000, 3, 2), Outcome::Pd, 6243, false);
    assert_eq!(
        (u.covered, u.consumed, u.to_bettor, u.to_pd, u.after),
        (4162, 6243, 838, 10405, 0)
    );
    // Push: stays in action by default, leaves it with the option.
    let u = settle_units(&w(6000, 1, 1), Outcome::Push, 10000, false);
    assert_eq!((u.consumed, u.to_bettor, u.to_pd), (0, 6000, 0));
    let u = settle_units(&w(6000, 1, 1), Outcome::Push, 4000, true);
    assert_eq!(
        (u.covered, u.consumed, u.to_bettor, u.to_pd, u.after),
        (4000, 4000, 6000, 4000, 0)
    );
}
