//! The quick amounts a wager's money keypad offers (`static/keypad.js`):
//! the common chip amounts within the table's posted limits, so a usual
//! wager is one tap.

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
}
