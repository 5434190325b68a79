//! A Double Hand Poker table for the settlement drills (`action-order`,
//! `settle-step`, `settle-all`): the PD, the wagers in placement order and
//! each seat's outcome, drawn by level and written in the settle contract
//! (docs/settle.md), so `pitbook settle` settles exactly the question.

use rust_decimal::Decimal;

use crate::common::money::Money;
use crate::double_hand_poker::options::{BacklineOrder, OptionOverrides};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{
    ActionInput, BracketInput, CollectionInput, PdInput, Scenario, ScenarioInput, SeatMap,
    WagerInput, settle,
};
use crate::training::Level;
use crate::training::rng::Rng;

/// The bettors' names, in the order they are handed out.
const NAMES: [&str; 20] = [
    "Ann", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max", "Ned",
    "Oli", "Pat", "Quin", "Rex", "Sal", "Tess",
];

/// The PD's name in every drill.
pub(super) const PD_NAME: &str = "Dana";

/// Money from a whole number of cents.
pub(super) fn cents(n: i64) -> Money {
    Money::from_decimal(Decimal::new(n, 2))
}

/// How a table is drawn.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shape {
    /// Seats with wagers, at least and at most.
    pub seats_with_wagers: (i64, i64),
    /// Backline wagers (level 2 up).
    pub backlines: bool,
}

/// A wager amount: whole $5s at level 1 and 2, any multiple of 5 cents at
/// level 3.
pub(super) fn amount(level: Level, rng: &mut Rng) -> Money {
    match level.get() {
        1 => Money::from_units(5 * rng.range(1, 20)),
        2 => Money::from_units(5 * rng.range(1, 40)),
        _ => cents(5 * rng.range(20, 4000)),
    }
}

/// A table drawn for `level`: level 1 has even money, no backline and a
/// bank that covers every wager; level 2 adds backlines, dice for the
/// ACTION seat and a bank that may run out; level 3 adds 3:2 and 6:5
/// backlines (breakage), amounts in cents, the rule options
/// `push_consumes_action` and `backline_order`, collection schedules, and
/// a bank that runs out inside a seat.
pub(super) fn draw(level: Level, shape: Shape, rng: &mut Rng) -> ScenarioInput {
    let pd_seat = rng.range(1, 7);
    let mut open: Vec<i64> = (1..=7).filter(|&s| s != pd_seat).collect();
    rng.shuffle(&mut open);
    let n = rng.range(shape.seats_with_wagers.0, shape.seats_with_wagers.1) as usize;
    let mut seats: Vec<i64> = open[..n.min(open.len())].to_vec();
    seats.sort_unstable();
    let mut names = NAMES.iter();
    let mut wagers = Vec::new();
    for &seat in &seats {
        let mut add = |backline: bool, rng: &mut Rng| {
            let payout = (backline && level >= Level::HARD && rng.chance(1, 2))
                .then(|| rng.pick(&["3:2", "6:5"]).to_string());
            wagers.push(WagerInput {
                id: String::new(),
                seat,
                bettor: names.next().copied().unwrap_or("Zed").to_string(),
                amount: amount(level, rng),
                backline,
                payout,
            });
        };
        add(false, rng);
        if shape.backlines && level >= Level::MEDIUM {
            for _ in 0..rng.range(0, 2) {
                add(true, rng);
            }
        }
    }
    // Placed in any order; a backline may be placed before its primary.
    rng.shuffle(&mut wagers);
    for (i, w) in wagers.iter_mut().enumerate() {
        w.id = format!("w{}", i + 1);
    }
    let total: Money = wagers.iter().map(|w| w.amount).sum();
    let bank = bank(level, total, rng);
    let outcomes = SeatMap(
        seats
            .iter()
            .map(|s| {
                let o = *rng.pick(&[Outcome::Player, Outcome::Pd, Outcome::Push]);
                (s.to_string(), o)
            })
            .collect(),
    );
    let action = if level >= Level::MEDIUM {
        ActionInput {
            dice: Some((0..3).map(|_| rng.range(1, 6)).collect()),
            seat: None,
        }
    } else {
        ActionInput {
            dice: None,
            seat: Some(*rng.pick(&seats)),
        }
    };
    let hard = level >= Level::HARD;
    let options = hard.then(|| OptionOverrides {
        push_consumes_action: Some(rng.chance(1, 2)),
        backline_order: Some(if rng.chance(1, 2) {
            BacklineOrder::LargestFirst
        } else {
            BacklineOrder::Placement
        }),
        ..OptionOverrides::default()
    });
    let mut input = ScenarioInput {
        profile: None,
        options,
        seats: None,
        pd: PdInput {
            seat: pd_seat,
            player: PD_NAME.to_string(),
            bank,
        },
        action,
        wagers,
        outcomes: Some(outcomes),
        hands: None,
        collection: hard.then(collection),
    };
    if hard {
        run_out_inside_a_seat(&mut input, rng);
    }
    input
}

/// Level 3: the bank set so it runs out partway through a wager that
/// shares its seat with another (a primary and its backlines), read from
/// the engine's own steps with a bank that never runs out. Left as drawn
/// when no wager would use the bank.
fn run_out_inside_a_seat(input: &mut ScenarioInput, rng: &mut Rng) {
    let mut probe = input.clone();
    probe.pd.bank = Money::from_units(1_000_000);
    let Ok(scenario) = Scenario::from_input(&probe) else {
        return;
    };
    let Ok(settlement) = settle(&scenario) else {
        return;
    };
    let steps = &settlement.steps;
    let shares_seat = |j: usize| {
        (j > 0 && steps[j - 1].seat == steps[j].seat)
            || steps.get(j + 1).is_some_and(|n| n.seat == steps[j].seat)
    };
    let candidates: Vec<usize> = (0..steps.len())
        .filter(|&j| shares_seat(j) && to_cents(steps[j].consumed()) >= 2)
        .collect();
    if candidates.is_empty() {
        return;
    }
    let j = *rng.pick(&candidates);
    let before: Money = steps[..j].iter().map(|s| s.consumed()).sum();
    let partial = cents(rng.range(1, to_cents(steps[j].consumed()) - 1));
    input.pd.bank = before + partial;
}

fn to_cents(m: Money) -> i64 {
    (m.as_decimal() * Decimal::from(100))
        .trunc()
        .try_into()
        .unwrap_or(0)
}

/// Level 1: at least every wager, in $10s (the bank never runs out).
/// Above: a fifth to all of the wagers, so the bank often runs out.
fn bank(level: Level, total: Money, rng: &mut Rng) -> Money {
    let total_cents = (total.as_decimal() * Decimal::from(100))
        .trunc()
        .try_into()
        .unwrap_or(100_000i64);
    match level.get() {
        1 => {
            let tens = (total_cents + 999) / 1000 + rng.range(0, 10);
            Money::from_units(10 * tens.max(1))
        }
        2 => {
            let fives = total_cents * rng.range(30, 100) / 100 / 500;
            Money::from_units(5 * fives.max(1))
        }
        _ => cents((total_cents * rng.range(20, 90) / 100).max(100)),
    }
}

/// The collection schedules posted at level 3: $1 up to $99.99, $2 from
/// $100; the bank pays $2.
pub(super) fn collection() -> CollectionInput {
    let bracket = |from: Money, to: Money, fee: Money| BracketInput { from, to, fee };
    let top = Money::from_units(1_000_000_000);
    CollectionInput {
        player: Some(vec![
            bracket(Money::ZERO, cents(9999), Money::from_units(1)),
            bracket(Money::from_units(100), top, Money::from_units(2)),
        ]),
        bank: Some(vec![bracket(Money::ZERO, top, Money::from_units(2))]),
    }
}
