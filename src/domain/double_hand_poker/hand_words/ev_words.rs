//! Every setting's exact value in words, for the value page.

use super::super::ev::{EvJob, EvResponse};
use super::{CardFace, HandWords, joker_name, wheel_name};
use crate::common::text::thousands;

/// Every setting's exact value in words (the value page): the settings
/// best first, the house way's and the best marked, and what the house
/// way's choice gives up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvWords {
    pub cards: Vec<CardFace>,
    /// "player" or "banker".
    pub side: &'static str,
    /// The other side's hands counted, grouped: "53,524,680".
    pub hands: String,
    pub rows: Vec<EvRow>,
    /// The house way's setting's number and value, and the best's.
    pub house_way: (usize, String),
    pub best: (usize, String),
    /// What the house way's setting gives up against the best, per unit
    /// bet: "0" when it is among the best.
    pub cost: String,
    pub house_way_name: String,
    pub rules: String,
}

/// One setting of [`EvWords`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvRow {
    pub number: usize,
    pub high: HandWords,
    pub low: HandWords,
    pub fouled: bool,
    pub win: String,
    pub push: String,
    pub loss: String,
    /// Per unit bet, signed: "+0.123456", "−0.5".
    pub ev: String,
    pub is_house_way: bool,
    pub is_best: bool,
}

/// The value of every setting of `job`'s cards, as `response` counted it.
pub fn ev_words(job: &EvJob, response: &EvResponse) -> EvWords {
    let signed = |d: rust_decimal::Decimal| {
        if d.is_sign_negative() && !d.is_zero() {
            format!("−{}", d.abs())
        } else if d.is_zero() {
            "0".to_string()
        } else {
            format!("+{d}")
        }
    };
    let mut rows: Vec<EvRow> = response
        .settings
        .iter()
        .zip(&job.settings)
        .enumerate()
        .map(|(i, (value, setting))| EvRow {
            number: value.number,
            high: HandWords::of(&setting.hand.high, setting.high_rank),
            low: HandWords::of(&setting.hand.low, setting.low_rank),
            fouled: value.fouled,
            win: thousands(value.win),
            push: thousands(value.push),
            loss: thousands(value.loss),
            ev: signed(value.ev),
            is_house_way: i == response.house_way,
            is_best: i == response.best,
        })
        .collect();
    // Best first; equal values in the settings' order.
    rows.sort_by(|a, b| {
        let ev = |r: &EvRow| response.settings[r.number - 1].ev;
        ev(b).cmp(&ev(a)).then(a.number.cmp(&b.number))
    });
    let numbered = |i: usize| (i + 1, signed(response.settings[i].ev));
    EvWords {
        cards: response.cards.iter().copied().map(CardFace::of).collect(),
        side: response.side.name(),
        hands: thousands(response.hands),
        rows,
        house_way: numbered(response.house_way),
        best: numbered(response.best),
        cost: response.cost.to_string(),
        house_way_name: response.house_way_name.clone(),
        rules: format!(
            "profile {}, joker {}, wheel {}",
            response.rules.profile,
            joker_name(response.rules.joker),
            wheel_name(response.rules.wheel)
        ),
    }
}
