//! The quick amounts a money keypad offers (`static/keypad.js`): for a
//! wager, the common chip amounts within the table's posted limits; for the
//! PD's bank, the last hand's bank first, then the usual banks. A usual
//! amount is one tap.

use crate::domain::common::money::Money;
use crate::domain::double_hand_poker::table::TableConfig;

/// Chip amounts, in whole units of currency, a wager is usually made of.
const CHIPS: [i64; 14] = [
    1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000, 2_000, 5_000,
];
/// Most quick amounts on one keypad.
const QUICK_MAX: usize = 6;

/// The quick amounts for a wager at `table`, space-separated as the form
/// takes them ("5 10 20 25 50 100"): from the table's minimum wager up to
/// its maximum, on its unit; none without a table.
pub fn quick_amounts(table: Option<&TableConfig>) -> String {
    let Some(table) = table else {
        return String::new();
    };
    let unit = table.rules().min_unit;
    let min = table.wager_min.unwrap_or(Money::ZERO);
    let max = table.wager_max;
    let fits = |m: Money| m >= min && max.is_none_or(|max| m <= max) && unit.is_multiple(m);
    CHIPS
        .iter()
        .filter(|&&units| fits(Money::from_units(units)))
        .take(QUICK_MAX)
        .map(|units| units.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The usual banks, in whole units of currency.
const BANKS: [i64; 6] = [100, 200, 300, 500, 1_000, 2_000];

/// The quick amounts for the PD's bank: the bank of the table's last
/// closed hand, then the usual banks on the table's unit, each once.
pub fn bank_amounts(table: Option<&TableConfig>, last_bank: Option<Money>) -> String {
    let Some(table) = table else {
        return String::new();
    };
    let unit = table.rules().min_unit;
    let usual = BANKS.iter().map(|&units| Money::from_units(units));
    let mut amounts: Vec<Money> = Vec::with_capacity(QUICK_MAX);
    for m in last_bank.into_iter().chain(usual) {
        if amounts.len() < QUICK_MAX && unit.is_multiple(m) && !amounts.contains(&m) {
            amounts.push(m);
        }
    }
    amounts
        .iter()
        .map(|m| m.to_canonical().trim_end_matches(".00").to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(json: serde_json::Value) -> TableConfig {
        serde_json::from_value(json).expect("a table")
    }

    #[test]
    fn the_quick_amounts_keep_within_the_posted_limits() {
        let limited = table(
            serde_json::json!({"name": "T", "profile": "lucky-chances", "seats": 7,
            "options": {"min_unit": "1"}, "wager_min": "5", "wager_max": "40"}),
        );
        assert_eq!(quick_amounts(Some(&limited)), "5 10 20 25");
        let open = table(serde_json::json!({"name": "T", "profile": "lucky-chances", "seats": 7}));
        assert_eq!(quick_amounts(Some(&open)).split(' ').count(), QUICK_MAX);
        assert_eq!(quick_amounts(None), "");
    }

    #[test]
    fn the_bank_offers_the_last_hands_bank_first() {
        let open = table(serde_json::json!({"name": "T", "profile": "lucky-chances", "seats": 7}));
        assert_eq!(bank_amounts(Some(&open), None), "100 200 300 500 1000 2000");
        let last = Money::from_units(250);
        assert_eq!(
            bank_amounts(Some(&open), Some(last)),
            "250 100 200 300 500 1000"
        );
        let same = Money::from_units(500);
        assert_eq!(
            bank_amounts(Some(&open), Some(same)),
            "500 100 200 300 1000 2000"
        );
        assert_eq!(bank_amounts(None, Some(last)), "");
    }
}
