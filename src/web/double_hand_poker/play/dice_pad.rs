//! The dice step by touch: each die a row of six keys (radio inputs, so a
//! tap records nothing and needs no page load, with or without scripts),
//! and the ACTION seat each sum of the dice gives at this table, from the
//! core's rule, for `static/dice.js` to show before the dice are recorded.

use super::view::Loaded;
use crate::domain::double_hand_poker::action_dice::action_seat;

/// [`seats_by_sum`] for the hand's PD and table; empty before the PD.
pub fn of_hand(loaded: &Loaded) -> String {
    let seats = loaded.seats();
    let pd = loaded.state.pd();
    pd.map_or_else(String::new, |pd| seats_by_sum(pd.seat, seats))
}

/// `sum:seat` for every sum of three dice (3..=18), space-separated; empty
/// when the PD's seat or the table's size gives none.
pub fn seats_by_sum(pd_seat: i64, seats: i64) -> String {
    (3..=18)
        .filter_map(|sum| {
            let seat = action_seat(dice_of(sum), pd_seat, seats).ok()?;
            Some(format!("{sum}:{seat}"))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Three dice that sum to `sum` (3..=18): the rule reads the sum alone.
fn dice_of(sum: i64) -> [i64; 3] {
    let first = (sum - 2).min(6);
    let second = (sum - first - 1).min(6);
    [first, second, sum - first - second]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sum_gives_the_seat_the_rule_gives_its_every_throw() {
        for (pd, seats) in [(1, 7), (3, 7), (6, 9), (2, 2)] {
            let map = seats_by_sum(pd, seats);
            assert_eq!(map.split(' ').count(), 16, "{map}");
            for throw in
                (1..=6).flat_map(|a| (1..=6).flat_map(move |b| (1..=6).map(move |c| [a, b, c])))
            {
                let seat = action_seat(throw, pd, seats).unwrap();
                let sum: i64 = throw.iter().sum();
                assert!(
                    map.split(' ').any(|p| p == format!("{sum}:{seat}")),
                    "{throw:?} {map}"
                );
            }
        }
        assert_eq!(seats_by_sum(9, 7), "");
    }
}
