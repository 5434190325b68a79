//! The settlement engine: a pure function of a validated [`Scenario`].
//!
//! Rules (see the rules file `lucky-chances-action.md`):
//! - Action order: from the ACTION seat clockwise once round the table,
//!   skipping the PD seat and seats without wagers (an ACTION seat that is
//!   the PD seat therefore starts at the next seat). Within a seat, the
//!   primary wager first, then the backline wagers by `backline_order`
//!   (`placement`, or `largest_first` with ties kept in placement order).
//! - With `A` the PD money in action (initially the bank) and a wager of
//!   `amount` at payout p:q: `covered = min(amount, floor_unit(A × q / p))`,
//!   `no_action = amount − covered`, and the covering money
//!   `payout = floor_unit(covered × p / q)` (= `covered` at even money).
//!   * player wins: bettor gets `amount + payout`; `A ← A − payout`;
//!     breakage `covered × p / q − payout` stays with the PD;
//!   * PD wins (copies and fouls included): bettor gets `no_action`, the PD
//!     gets `covered + payout`; `A ← A − payout`;
//!   * push: bettor gets `amount`; with `push_consumes_action` the covering
//!     money leaves action and returns to the PD (`A ← A − payout`),
//!     otherwise it stays in action.
//! - What is left in action at the end is returned to the PD.

use super::error::SettleError;
use super::limits::WAGERS_MAX;
use super::output::{Conservation, Settlement, Step, StepUnits, Total, Totals};
use super::scenario::{Grid, Scenario, Wager};
use crate::common::money::Money;
use crate::double_hand_poker::action_dice::SEATS_MAX;
use crate::double_hand_poker::options::BacklineOrder;
use crate::double_hand_poker::outcome::Outcome;

/// Bettors whose running totals `settle` keeps on the stack.
const SUMS_ON_STACK: usize = 32;

/// Settles one hand. Pure and deterministic: the same scenario always gives
/// the same settlement.
///
/// The arithmetic is exact: amounts are counted in whole units of
/// `min_unit` (integers), and only the output is turned back into money.
///
/// Conservation is asserted, not just reported: money in (wagers + bank)
/// must equal money out (to bettors + to the PD), fees taken must equal the
/// house collection, every step must balance and keep `A` from increasing,
/// and the PD's net must lie within ±bank. A failure is a bug and returns
/// [`SettleError::Conservation`]; nothing should be recorded or paid then.
pub fn settle(sc: &Scenario) -> Result<Settlement<'_>, SettleError> {
    let wagers = sc.wagers();
    let mut order = [0u8; WAGERS_MAX];
    let n = action_order(sc, &mut order);
    if n != wagers.len() {
        return Err(broken("every wager settled once", n, wagers.len()));
    }
    // Per bettor: (staked, received, fee) in units; on the stack for a
    // table's usual handful of bettors, on the heap beyond that.
    let mut sums_stack = [(0i64, 0i64, 0i64); SUMS_ON_STACK];
    let mut sums_heap = Vec::new();
    let sums: &mut [BettorSums] = match sums_stack.get_mut(..sc.bettors().len()) {
        Some(s) => s,
        None => {
            sums_heap.resize(sc.bettors().len(), (0, 0, 0));
            &mut sums_heap
        }
    };
    let mut run = Run::new(sc);
    let mut steps = Vec::with_capacity(n);
    for &i in &order[..n] {
        steps.push(run.wager(&wagers[i as usize], sums)?);
    }
    let balance = run.balance(sums)?;
    Ok(settlement(sc, steps, sums, &balance))
}

/// A bettor's (staked, received, fee), in units.
type BettorSums = (i64, i64, i64);

/// The settlement's running sums, in units, as the wagers are settled in
/// action order.
struct Run<'a> {
    sc: &'a Scenario,
    grid: Grid,
    push_consumes_action: bool,
    /// PD money in action (initially the bank).
    in_action: i64,
    to_pd: i64,
    to_bettors: i64,
    staked: i64,
    fees: i64,
}

/// The balances of a whole hand, in units, once conservation holds.
struct Balance {
    pd_returned: i64,
    pd_received: i64,
    pd_net: i64,
    money_in: i64,
    money_out: i64,
    fees: i64,
    house_collection: i64,
}

impl<'a> Run<'a> {
    fn new(sc: &'a Scenario) -> Run<'a> {
        Run {
            sc,
            grid: sc.grid(),
            push_consumes_action: sc.options().push_consumes_action,
            in_action: sc.bank_units(),
            to_pd: 0,
            to_bettors: 0,
            staked: 0,
            fees: 0,
        }
    }

    /// Settles `w` against the PD money in action: its step, checked, with
    /// the running sums and its bettor's `sums` brought up to date.
    fn wager(&mut self, w: &'a Wager, sums: &mut [BettorSums]) -> Result<Step<'a>, SettleError> {
        let Some(outcome) = self.sc.outcome(w.seat) else {
            return Err(broken(
                "an outcome for every seat with wagers",
                w.seat as usize,
                0,
            ));
        };
        let u = settle_units(w, outcome, self.in_action, self.push_consumes_action);
        check_step(&u, w.units, self.in_action, self.grid)?;
        self.in_action = u.after;
        self.to_pd += u.to_pd;
        self.to_bettors += u.to_bettor;
        self.staked += w.units;
        self.fees += w.fee_units;
        let Some(t) = sums.get_mut(w.bettor_index) else {
            return Err(broken(
                "a total for every bettor",
                w.bettor_index,
                self.sc.bettors().len(),
            ));
        };
        t.0 += w.units;
        t.1 += u.to_bettor;
        t.2 += w.fee_units;
        Ok(step(w, outcome, &u, self.grid))
    }

    /// Conservation, in exact units, after the last wager: money in equals
    /// money out, the PD's net lies within ±bank, the nets sum to zero and
    /// the fees taken equal the house collection.
    fn balance(self, sums: &[BettorSums]) -> Result<Balance, SettleError> {
        let (sc, grid) = (self.sc, self.grid);
        let bank = sc.bank_units();
        let pd_returned = self.in_action;
        let pd_received = self.to_pd + pd_returned;
        let (money_in, money_out) = (self.staked + bank, self.to_bettors + pd_received);
        check("money in = money out", grid, money_in, money_out)?;
        let pd_net = pd_received - bank;
        if pd_net.abs() > bank {
            return Err(SettleError::Conservation {
                check: "PD net within ±bank",
                left: grid.money(pd_net),
                right: sc.pd().bank,
            });
        }
        let nets: i64 = sums.iter().map(|t| t.1 - t.0).sum::<i64>() + pd_net;
        check("nets sum to zero", grid, nets, 0)?;
        let fees = self.fees + sc.pd_fee_units();
        let house_collection = sums.iter().map(|t| t.2).sum::<i64>() + sc.pd_fee_units();
        check(
            "fees taken = house collection",
            grid,
            fees,
            house_collection,
        )?;
        Ok(Balance {
            pd_returned,
            pd_received,
            pd_net,
            money_in,
            money_out,
            fees,
            house_collection,
        })
    }
}

/// Wager `w`'s step, its amounts kept in units of `grid`.
fn step<'a>(w: &'a Wager, outcome: Outcome, u: &Units, grid: Grid) -> Step<'a> {
    Step {
        wager: &w.id,
        seat: w.seat,
        bettor: &w.bettor,
        backline: w.backline,
        amount: w.amount,
        payout: w.payout,
        outcome,
        fee: w.fee,
        units: StepUnits {
            grid,
            amount: w.units,
            covered: u.covered,
            before: u.before,
            after: u.after,
            to_bettor: u.to_bettor,
            to_pd: u.to_pd,
            breakage_num: u.breakage_num,
        },
    }
}

/// The settlement of `sc`: its steps, each bettor's and the PD's totals,
/// and the balances that held.
fn settlement<'a>(
    sc: &'a Scenario,
    steps: Vec<Step<'a>>,
    sums: &[BettorSums],
    b: &Balance,
) -> Settlement<'a> {
    let grid = sc.grid();
    let pd = sc.pd();
    let bettors = sc
        .bettors()
        .iter()
        .zip(sums.iter())
        .map(|(name, &(staked, received, fee))| {
            let total = Total {
                staked: grid.money(staked),
                received: grid.money(received),
                net: grid.money(received - staked),
                fee: grid.money(fee),
            };
            (name.as_str(), total)
        })
        .collect();
    let pd_total = Total {
        staked: pd.bank,
        received: grid.money(b.pd_received),
        net: grid.money(b.pd_net),
        fee: pd.fee,
    };
    let action = sc.action();
    Settlement {
        action_seat: action.seat,
        action_dice: action.dice,
        pd,
        hands: sc.hands(),
        steps,
        pd_returned: grid.money(b.pd_returned),
        totals: Totals {
            bettors,
            pd: pd_total,
        },
        house_collection: grid.money(b.house_collection),
        conservation: Conservation {
            money_in: grid.money(b.money_in),
            money_out: grid.money(b.money_out),
            fees_taken: grid.money(b.fees),
            house_collection: grid.money(b.house_collection),
        },
        rules: sc.options(),
    }
}

/// Fills `order` with wager indices in action order; returns how many.
/// A counting sort by seat: seats in action order get consecutive slices of
/// `order`, each holding its primary wager then its backlines. The per-seat
/// tables are indexed by the `u8` seat itself (no bounds checks) and hold
/// counts and positions as `u8` (at most [`WAGERS_MAX`] < 256).
fn action_order(sc: &Scenario, order: &mut [u8; WAGERS_MAX]) -> usize {
    const _: () = assert!(WAGERS_MAX < 256);
    let wagers = sc.wagers();
    let seats = sc.seats();
    let pd_seat = sc.pd().seat;
    let start = sc.action().seat;
    let mut count = [0u8; 256];
    for w in wagers.iter().take(WAGERS_MAX) {
        count[w.seat as usize] += 1;
    }
    // Where each seat's slice begins, seats taken in action order.
    let mut begin = [0u8; 256];
    let mut n = 0usize;
    for k in 0..seats {
        let seat = ((start - 1 + k) % seats + 1) as usize;
        if seat as u8 == pd_seat {
            continue;
        }
        begin[seat] = n as u8;
        n += count[seat] as usize;
    }
    if n > WAGERS_MAX {
        return n;
    }
    // Primary first (validation guarantees exactly one per seat with
    // wagers), then backlines in placement order.
    let mut next = begin;
    for (i, w) in wagers.iter().enumerate() {
        let at = next[w.seat as usize] as usize;
        if !w.backline && at < WAGERS_MAX {
            order[at] = i as u8;
            next[w.seat as usize] += 1;
        }
    }
    for (i, w) in wagers.iter().enumerate() {
        let at = next[w.seat as usize] as usize;
        if w.backline && at < WAGERS_MAX {
            order[at] = i as u8;
            next[w.seat as usize] += 1;
        }
    }
    if sc.options().backline_order == BacklineOrder::LargestFirst {
        for seat in 1..=SEATS_MAX as usize {
            if count[seat] > 1
                && let Some(backlines) =
                    order.get_mut(begin[seat] as usize + 1..next[seat] as usize)
            {
                largest_first(backlines, wagers);
            }
        }
    }
    n.min(wagers.len())
}

/// Stable insertion sort by amount, largest first (ties keep placement
/// order). The slices are a seat's backlines: short, and no allocation.
fn largest_first(idx: &mut [u8], wagers: &[Wager]) {
    for i in 1..idx.len() {
        let mut j = i;
        while j > 0 && wagers[idx[j - 1] as usize].units < wagers[idx[j] as usize].units {
            idx.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// One step in whole units of `min_unit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Units {
    covered: i64,
    before: i64,
    after: i64,
    consumed: i64,
    to_bettor: i64,
    to_pd: i64,
    /// Breakage is `breakage_num / q` of a unit (0 ≤ it < q).
    breakage_num: i64,
}

/// Settles one wager against `a` units of PD money in action. With `p ≥ q`
/// (validated) and amounts bounded by validation, no product overflows.
fn settle_units(w: &Wager, outcome: Outcome, a: i64, push_consumes_action: bool) -> Units {
    let amount = w.units;
    let (p, q) = (i64::from(w.payout.p()), i64::from(w.payout.q()));
    let (covered, payout, breakage_num) = if p == q {
        let covered = amount.min(a);
        (covered, covered, 0)
    } else {
        // covered = min(amount, floor(A × q / p)); payout = floor(c × p / q).
        let covered = amount.min(div_floor(a * q, p).0);
        let (payout, breakage_num) = div_floor(covered * p, q);
        (covered, payout, breakage_num)
    };
    let (to_bettor, to_pd, consumed, breakage_num) = match outcome {
        Outcome::Player => (amount + payout, 0, payout, breakage_num),
        Outcome::Pd => (amount - covered, covered + payout, payout, 0),
        Outcome::Push if push_consumes_action => (amount, payout, payout, 0),
        Outcome::Push => (amount, 0, 0, 0),
    };
    Units {
        covered,
        before: a,
        after: a - consumed,
        consumed,
        to_bettor,
        to_pd,
        breakage_num,
    }
}

/// `(n / d, n % d)` for `n ≥ 0`, `d ≥ 1`. Table amounts in units almost
/// always fit 32 bits, and a 32-bit division is several times faster than
/// a 64-bit one on the machines this runs on.
#[inline]
fn div_floor(n: i64, d: i64) -> (i64, i64) {
    match (u32::try_from(n), u32::try_from(d)) {
        (Ok(n), Ok(d)) if d > 0 => (i64::from(n / d), i64::from(n % d)),
        _ if d > 0 => (n / d, n % d),
        _ => (0, 0),
    }
}

/// The per-step invariants: cheap integer comparisons.
fn check_step(u: &Units, amount: i64, a: i64, grid: Grid) -> Result<(), SettleError> {
    if u.before != a || u.consumed < 0 || u.after < 0 || u.after > u.before {
        return Err(SettleError::Conservation {
            check: "in action never increases nor goes below 0",
            left: grid.money(u.before),
            right: grid.money(u.after),
        });
    }
    if u.to_bettor < 0 || u.to_pd < 0 || u.covered < 0 || u.covered > amount || u.breakage_num < 0 {
        return Err(SettleError::Conservation {
            check: "no negative transfer",
            left: grid.money(u.to_bettor),
            right: grid.money(u.to_pd),
        });
    }
    check(
        "step balances",
        grid,
        amount + u.consumed,
        u.to_bettor + u.to_pd,
    )
}

fn check(what: &'static str, grid: Grid, left: i64, right: i64) -> Result<(), SettleError> {
    if left == right {
        Ok(())
    } else {
        Err(SettleError::Conservation {
            check: what,
            left: grid.money(left),
            right: grid.money(right),
        })
    }
}

fn broken(what: &'static str, left: usize, right: usize) -> SettleError {
    SettleError::Conservation {
        check: what,
        left: Money::from_units(left as i64),
        right: Money::from_units(right as i64),
    }
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
