//! Three dice → the ACTION seat. The PD's position counts as 1, 8 and 15,
//! counting clockwise (increasing seat numbers, wrapping).

use crate::common::field_error::{AsFieldError, FieldError};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    #[error("dice[{index}]: {value} is not a die value (1..6)")]
    Die { index: usize, value: i64 },
    #[error("seats: {0} is not a table size (2..10)")]
    Seats(i64),
    #[error("pd.seat: {seat} is not a seat at a {seats}-seat table (1..{seats})")]
    PdSeat { seat: i64, seats: u8 },
}

impl AsFieldError for DiceError {
    fn field_error(&self) -> Option<FieldError> {
        let (field, value) = match self {
            DiceError::Die { index, value } => (format!("dice[{index}]"), value),
            DiceError::Seats(seats) => ("seats".to_string(), seats),
            DiceError::PdSeat { seat, .. } => ("pd.seat".to_string(), seat),
        };
        Some(FieldError::worded(field, self).with_value(value.to_string()))
    }
}

/// The ACTION dice: three, each 1 to 6.
pub const DICE: usize = 3;
pub const DIE_MAX: i64 = 6;

/// Smallest and largest table sizes the product supports.
pub const SEATS_MIN: u8 = 2;
pub const SEATS_MAX: u8 = 10;

pub fn check_seats(seats: i64) -> Result<u8, DiceError> {
    if (SEATS_MIN as i64..=SEATS_MAX as i64).contains(&seats) {
        Ok(seats as u8)
    } else {
        Err(DiceError::Seats(seats))
    }
}

pub fn check_seat(seat: i64, seats: u8) -> Result<u8, DiceError> {
    if (1..=seats as i64).contains(&seat) {
        Ok(seat as u8)
    } else {
        Err(DiceError::PdSeat { seat, seats })
    }
}

/// The seat that receives the first pile: position = ((total − 1) mod 7) + 1,
/// counted clockwise from the PD (position 1 = the PD itself). The 7 is the
/// number of piles dealt, which is fixed by the game, not the seat count.
pub fn action_seat(dice: [i64; 3], pd_seat: i64, seats: i64) -> Result<u8, DiceError> {
    let seats = check_seats(seats)?;
    let pd_seat = check_seat(pd_seat, seats)?;
    for (index, &value) in dice.iter().enumerate() {
        if !(1..=DIE_MAX).contains(&value) {
            return Err(DiceError::Die { index, value });
        }
    }
    let total: i64 = dice.iter().sum();
    let position = ((total - 1) % 7) + 1;
    let seat = (pd_seat as i64 - 1 + position - 1) % seats as i64 + 1;
    Ok(seat as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pd_counts_as_one_eight_and_fifteen() {
        // totals 8 and 15 land on the PD, as does... 1 (impossible with 3 dice).
        assert_eq!(action_seat([2, 3, 3], 3, 7), Ok(3));
        assert_eq!(action_seat([5, 5, 5], 3, 7), Ok(3));
        assert_eq!(action_seat([6, 6, 6], 3, 7), Ok(6)); // 18 → position 4
        assert_eq!(action_seat([1, 1, 1], 1, 7), Ok(3)); // 3 → position 3
    }

    #[test]
    fn counts_clockwise_and_wraps() {
        assert_eq!(action_seat([4, 5, 3], 1, 7), Ok(5)); // 12 → position 5 → seat 5 from seat 1
        assert_eq!(action_seat([1, 1, 2], 6, 7), Ok(2)); // 4 → position 4: 6,7,1,2
        assert_eq!(action_seat([1, 2, 4], 7, 7), Ok(6)); // 7 → position 7: 7,1,..,6
    }

    #[test]
    fn bad_dice_and_seats_are_named() {
        assert_eq!(
            action_seat([0, 1, 1], 1, 7),
            Err(DiceError::Die { index: 0, value: 0 })
        );
        assert_eq!(
            action_seat([1, 7, 1], 1, 7),
            Err(DiceError::Die { index: 1, value: 7 })
        );
        assert_eq!(
            action_seat([1, 1, 1], 8, 7),
            Err(DiceError::PdSeat { seat: 8, seats: 7 })
        );
        assert_eq!(action_seat([1, 1, 1], 1, 1), Err(DiceError::Seats(1)));
    }
}
