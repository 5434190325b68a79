//! Property tests over random valid scenarios: the invariants of the rules
//! file hold for every hand, and the engine agrees with an independent
//! integer model of the rules.

use pitbook::domain::common::money::Money;
use pitbook::domain::double_hand_poker::options::{BacklineOrder, OptionOverrides};
use pitbook::domain::double_hand_poker::outcome::Outcome;
use pitbook::domain::double_hand_poker::settle::{
    ActionInput, BracketInput, CollectionInput, PdInput, Scenario, ScenarioInput, SeatMap,
    Settlement, WagerInput, settle, settle_json,
};
use proptest::prelude::*;
use rust_decimal::Decimal;

const UNITS: [&str; 4] = ["0.01", "1", "0.25", "0.05"];
const RATIOS: [(u32, u32); 8] = [
    (1, 1),
    (1, 1),
    (1, 1),
    (3, 2),
    (6, 5),
    (2, 1),
    (7, 3),
    (100, 1),
];
const NAMES: [&str; 6] = ["Ann", "Bo", "Cy", "Di", "Eve", "Dana"];

fn money(units: i64, unit: &str) -> Money {
    Money::from_decimal(Decimal::from(units) * unit.parse::<Decimal>().unwrap())
}

#[derive(Debug, Clone)]
struct RawWager {
    seat_pick: usize,
    units: i64,
    ratio: usize,
    bettor: usize,
}

#[derive(Debug, Clone)]
struct Raw {
    seats: u8,
    pd_seat: u8,
    action: Result<u8, [i64; 3]>,
    unit: usize,
    bank_units: i64,
    wagers: Vec<RawWager>,
    primary_pick: Vec<usize>,
    outcomes: Vec<u8>,
    push_consumes: bool,
    largest_first: bool,
    fees: Option<(i64, i64, i64)>,
}

fn raw() -> impl Strategy<Value = Raw> {
    (2u8..=10)
        .prop_flat_map(|seats| {
            (
                Just(seats),
                1..=seats,
                prop_oneof![
                    (1..=seats).prop_map(Ok),
                    prop::array::uniform3(1i64..=6).prop_map(Err)
                ],
                0..UNITS.len(),
                prop_oneof![1i64..=200, 1i64..=100_000],
                prop::collection::vec(
                    (
                        0usize..16,
                        prop_oneof![1i64..=100, 1i64..=50_000],
                        0..RATIOS.len(),
                        0..NAMES.len(),
                    )
                        .prop_map(|(seat_pick, units, ratio, bettor)| {
                            RawWager {
                                seat_pick,
                                units,
                                ratio,
                                bettor,
                            }
                        }),
                    0..40,
                ),
                prop::collection::vec(0usize..64, 11),
                prop::collection::vec(0u8..3, 11),
                any::<bool>(),
                any::<bool>(),
                prop::option::of((0i64..=5, 0i64..=5, 1i64..=1000)),
            )
        })
        .prop_map(
            |(
                seats,
                pd_seat,
                action,
                unit,
                bank_units,
                wagers,
                primary_pick,
                outcomes,
                push_consumes,
                largest_first,
                fees,
            )| Raw {
                seats,
                pd_seat,
                action,
                unit,
                bank_units,
                wagers,
                primary_pick,
                outcomes,
                push_consumes,
                largest_first,
                fees,
            },
        )
}

/// Builds a valid scenario input from the raw draw.
fn input(r: &Raw) -> ScenarioInput {
    let unit = UNITS[r.unit];
    let other_seats: Vec<u8> = (1..=r.seats).filter(|&s| s != r.pd_seat).collect();
    let seat_of: Vec<u8> = r
        .wagers
        .iter()
        .map(|w| other_seats[w.seat_pick % other_seats.len()])
        .collect();
    // The primary on each seat is one of its wagers, drawn.
    let mut primary_of_seat = [None; 11];
    for s in 1..=r.seats {
        let on_seat: Vec<usize> = (0..seat_of.len()).filter(|&i| seat_of[i] == s).collect();
        if !on_seat.is_empty() {
            primary_of_seat[s as usize] = Some(on_seat[r.primary_pick[s as usize] % on_seat.len()]);
        }
    }
    let wagers: Vec<WagerInput> = r
        .wagers
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let (p, q) = RATIOS[w.ratio];
            WagerInput {
                id: format!("w{i}"),
                seat: seat_of[i] as i64,
                bettor: NAMES[w.bettor].into(),
                amount: money(w.units, unit),
                backline: primary_of_seat[seat_of[i] as usize] != Some(i),
                payout: if (p, q) == (1, 1) && i % 2 == 0 {
                    None
                } else {
                    Some(format!("{p}:{q}"))
                },
            }
        })
        .collect();
    let outcomes = SeatMap(
        (1..=r.seats)
            .filter(|s| primary_of_seat[*s as usize].is_some())
            .map(|s| {
                let o =
                    [Outcome::Player, Outcome::Pd, Outcome::Push][r.outcomes[s as usize] as usize];
                (s.to_string(), o)
            })
            .collect(),
    );
    let collection = r.fees.map(|(player_fee, bank_fee, split)| {
        let top = money(1_000_000, unit);
        let split_m = money(split, unit);
        let below = money(split - 1, unit);
        CollectionInput {
            player: Some(vec![
                BracketInput {
                    from: Money::ZERO,
                    to: below,
                    fee: money(player_fee, unit),
                },
                BracketInput {
                    from: split_m,
                    to: top,
                    fee: money(player_fee + 1, unit),
                },
            ]),
            bank: Some(vec![BracketInput {
                from: Money::ZERO,
                to: top,
                fee: money(bank_fee, unit),
            }]),
        }
    });
    ScenarioInput {
        profile: None,
        options: Some(OptionOverrides {
            push_consumes_action: Some(r.push_consumes),
            backline_order: Some(if r.largest_first {
                BacklineOrder::LargestFirst
            } else {
                BacklineOrder::Placement
            }),
            min_unit: Some(serde_json::from_value(serde_json::json!(unit)).unwrap()),
            ..OptionOverrides::default()
        }),
        seats: Some(r.seats as i64),
        pd: PdInput {
            seat: r.pd_seat as i64,
            player: "Dana".into(),
            bank: money(r.bank_units, unit),
        },
        action: match r.action {
            Ok(seat) => ActionInput {
                dice: None,
                seat: Some(seat as i64),
            },
            Err(d) => ActionInput {
                dice: Some(d.to_vec()),
                seat: None,
            },
        },
        wagers,
        outcomes: Some(outcomes),
        hands: None,
        collection,
    }
}

/// Checks every invariant of the rules file on one settlement.
fn check_invariants(sc: &Scenario, s: &Settlement<'_>) -> Result<(), TestCaseError> {
    let unit = sc.options().min_unit.amount();
    let bank = sc.pd().bank;
    prop_assert_eq!(s.steps.len(), sc.wagers().len());
    let mut a = bank;
    let (mut to_bettors, mut to_pd, mut staked) = (Money::ZERO, Money::ZERO, Money::ZERO);
    for st in &s.steps {
        // A never increases; after = before − consumed; steps chain.
        prop_assert_eq!(st.in_action_before(), a);
        prop_assert!(st.in_action_after() <= st.in_action_before());
        prop_assert!(!st.in_action_after().is_negative());
        prop_assert_eq!(st.in_action_after(), st.in_action_before() - st.consumed());
        a = st.in_action_after();
        // Bettor gets between 0 and amount × (1 + p/q).
        let max = st.amount.as_decimal() * Decimal::from(st.payout.p() + st.payout.q())
            / Decimal::from(st.payout.q());
        prop_assert!(!st.to_bettor().is_negative() && !st.to_pd().is_negative());
        prop_assert!(
            st.to_bettor().as_decimal() <= max,
            "{} > {}",
            st.to_bettor(),
            max
        );
        prop_assert_eq!(st.covered() + st.no_action(), st.amount);
        // 0 ≤ breakage < unit.
        prop_assert!(!st.breakage().is_negative() && st.breakage() < unit);
        // Each step balances.
        prop_assert_eq!(st.amount + st.consumed(), st.to_bettor() + st.to_pd());
        to_bettors += st.to_bettor();
        to_pd += st.to_pd();
        staked += st.amount;
    }
    prop_assert_eq!(s.pd_returned, a);
    // Conservation to the cent.
    prop_assert_eq!(staked + bank, to_bettors + to_pd + s.pd_returned);
    // PD net within ±bank.
    let pd_net = s.totals.pd.net;
    prop_assert_eq!(pd_net, to_pd + s.pd_returned - bank);
    prop_assert!(
        pd_net <= bank && -pd_net <= bank,
        "PD net {} outside ±{}",
        pd_net,
        bank
    );
    // Fees: taken = house collection.
    let fees: Money = sc.wagers().iter().map(|w| w.fee).sum::<Money>() + sc.pd().fee;
    prop_assert_eq!(s.house_collection, fees);
    let total_fees: Money =
        s.totals.bettors.iter().map(|(_, t)| t.fee).sum::<Money>() + s.totals.pd.fee;
    prop_assert_eq!(total_fees, fees);
    // Nets sum to zero (the game is zero-sum before fees).
    let nets: Money = s.totals.bettors.iter().map(|(_, t)| t.net).sum::<Money>() + pd_net;
    prop_assert_eq!(nets, Money::ZERO);
    Ok(())
}

/// An independent model of the rules in integer units (i128), with its own
/// action order; returns (wager index, covered, to_bettor, to_pd) per step.
fn model(sc: &Scenario) -> Vec<(usize, i128, i128, i128)> {
    let unit = sc.options().min_unit.amount().as_decimal();
    let units = |m: Money| -> i128 { (m.as_decimal() / unit).trunc().to_string().parse().unwrap() };
    let seats = sc.seats();
    let pd = sc.pd().seat;
    let start = sc.action().seat;
    let mut order = Vec::new();
    let seat_list: Vec<u8> = (0..seats)
        .map(|k| (start - 1 + k) % seats + 1)
        .filter(|&s| s != pd)
        .collect();
    for s in seat_list {
        let on: Vec<usize> = (0..sc.wagers().len())
            .filter(|&i| sc.wagers()[i].seat == s)
            .collect();
        order.extend(on.iter().copied().filter(|&i| !sc.wagers()[i].backline));
        let mut backs: Vec<usize> = on
            .iter()
            .copied()
            .filter(|&i| sc.wagers()[i].backline)
            .collect();
        if sc.options().backline_order == BacklineOrder::LargestFirst {
            backs.sort_by_key(|&i| std::cmp::Reverse(units(sc.wagers()[i].amount)));
        }
        order.extend(backs);
    }
    let mut a = units(sc.pd().bank);
    order
        .into_iter()
        .map(|i| {
            let w = &sc.wagers()[i];
            let (p, q) = (w.payout.p() as i128, w.payout.q() as i128);
            let amount = units(w.amount);
            let covered = amount.min(a * q / p);
            let pay = covered * p / q;
            let (to_bettor, to_pd, used) = match sc.outcome(w.seat).unwrap() {
                Outcome::Player => (amount + pay, 0, pay),
                Outcome::Pd => (amount - covered, covered + pay, pay),
                Outcome::Push if sc.options().push_consumes_action => (amount, pay, pay),
                Outcome::Push => (amount, 0, 0),
            };
            a -= used;
            (i, covered, to_bettor, to_pd)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn invariants_hold_for_every_hand(r in raw()) {
        let sc = Scenario::from_input(&input(&r)).expect("generated scenarios are valid");
        let s = settle(&sc).expect("settles");
        check_invariants(&sc, &s)?;
    }

    #[test]
    fn the_engine_agrees_with_an_integer_model(r in raw()) {
        let sc = Scenario::from_input(&input(&r)).unwrap();
        let s = settle(&sc).unwrap();
        let unit = sc.options().min_unit.amount().as_decimal();
        let units = |m: Money| -> i128 { (m.as_decimal() / unit).trunc().to_string().parse().unwrap() };
        let got: Vec<(usize, i128, i128, i128)> = s
            .steps
            .iter()
            .map(|st| {
                let i = sc.wagers().iter().position(|w| w.id == st.wager).unwrap();
                (i, units(st.covered()), units(st.to_bettor()), units(st.to_pd()))
            })
            .collect();
        prop_assert_eq!(got, model(&sc));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    #[test]
    fn the_same_input_gives_the_same_steps(r in raw()) {
        let text = serde_json::to_string(&input(&r)).unwrap();
        let first = settle_json(&text).unwrap();
        let second = settle_json(&text).unwrap();
        prop_assert_eq!(&first, &second);
        let sc = Scenario::from_input(&input(&r)).unwrap();
        let typed = serde_json::to_string(&settle(&sc).unwrap()).unwrap();
        prop_assert_eq!(first, typed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    /// The money a page says to move at each step is the settlement's: a
    /// win pays the winnings beside the stake, a loss collects what was
    /// covered, what had no action goes back, and a push or a bet with no
    /// action at all goes back whole; the confirm button says the same.
    #[test]
    fn the_money_moves_are_the_settlements(r in raw()) {
        use pitbook::domain::double_hand_poker::settle::Verb;
        let sc = Scenario::from_input(&input(&r)).unwrap();
        let s = settle(&sc).unwrap();
        for st in &s.steps {
            let moves = st.moves();
            let amount_of = |verb: Verb| moves.iter().filter(|m| m.verb == verb).fold(Money::ZERO, |a, m| a + m.amount);
            let (paid, collected, returned) = (amount_of(Verb::Pay), amount_of(Verb::Collect), amount_of(Verb::Return));
            let (first, done) = match moves.first().map(|m| m.verb) {
                Some(Verb::Pay) => {
                    prop_assert_eq!(st.to_bettor(), st.amount + paid);
                    prop_assert_eq!(returned, st.no_action());
                    (Verb::Pay, "Paid ")
                }
                Some(Verb::Collect) => {
                    prop_assert_eq!(collected, st.covered());
                    prop_assert_eq!(st.to_bettor(), returned);
                    prop_assert_eq!(returned, st.no_action());
                    (Verb::Collect, "Collected ")
                }
                Some(Verb::Return) => {
                    prop_assert_eq!(moves.len(), 1);
                    prop_assert_eq!(st.to_bettor(), st.amount);
                    prop_assert_eq!(returned, st.amount);
                    (Verb::Return, "Returned ")
                }
                None => return Err(TestCaseError::fail("a step with no money move")),
            };
            prop_assert!(moves.len() <= 2 && moves[1..].iter().all(|m| m.verb == Verb::Return));
            prop_assert!(first != Verb::Pay || st.outcome == Outcome::Player);
            prop_assert!(st.done_words().starts_with(done), "{}", st.done_words());
        }
    }
}
