//! The hand and dice tools — evaluate a hand, set seven cards by house way,
//! list the 21 settings, dice → ACTION seat — as one request/response
//! contract shared by the CLI (`pitbook hand …`, `pitbook dice`, `--json`)
//! and the HTTP API (`/api/v1/hands/{eval,house-way,settings}`,
//! `/api/v1/dice`). Both shells build a request, call the function here and
//! print the response, so the CLI's `--json` is byte for byte the API's body.
//! The contract is documented in `docs/hands.md`.

use crate::common::field_error::{AsFieldError, FieldError};
use serde::{Deserialize, Serialize};

use super::action_dice::{self, DiceError};
pub use super::cards_text::CardsText;
use super::options::{JokerRule, OptionOverrides, Profile, RuleOptions, WheelRule};
use super::setting::{SetHand, all_settings};
use crate::cards::eval::{Category, HandRank, eval_any};
use crate::cards::{Card, CardError, parse_cards, parse_exact};

/// Seats at a table when the request does not say.
pub const DEFAULT_SEATS: i64 = 7;

/// A request naming cards: `eval`, `house-way`, `settings`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CardsRequest {
    pub cards: CardsText,
    /// Rule profile; default `lucky-chances`.
    #[serde(default)]
    pub profile: Option<Profile>,
    /// Any subset of the rule options over the profile (the same object as
    /// in a settlement scenario); `joker` and `wheel` change these results.
    #[serde(default)]
    pub options: Option<OptionOverrides>,
}

impl CardsRequest {
    pub fn new(cards: impl Into<String>) -> CardsRequest {
        CardsRequest {
            cards: CardsText(cards.into()),
            ..CardsRequest::default()
        }
    }

    fn rule_options(&self) -> Result<RuleOptions, ToolError> {
        rule_options(self.profile, self.options.as_ref())
    }
}

/// `POST /api/v1/dice`: three dice, the PD's seat, the table's seat count.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DiceRequest {
    pub dice: Vec<i64>,
    pub pd_seat: i64,
    /// Default 7.
    #[serde(default)]
    pub seats: Option<i64>,
}

/// The rule options that decide a hand's value, as applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct HandRules {
    pub profile: Profile,
    pub joker: JokerRule,
    pub wheel: WheelRule,
}

impl From<&RuleOptions> for HandRules {
    fn from(o: &RuleOptions) -> HandRules {
        HandRules {
            profile: o.profile,
            joker: o.joker,
            wheel: o.wheel,
        }
    }
}

/// `pitbook hand census`: every seven-card hand the rules' deck deals,
/// counted by the category of its best five cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CensusResponse {
    /// C(53, 7) = 154,143,080 with the joker, C(52, 7) without.
    pub hands: u64,
    /// Five of a kind first, high card last.
    pub categories: Vec<CensusRow>,
    pub rules: HandRules,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CensusRow {
    pub category: Category,
    pub name: &'static str,
    pub hands: u64,
}

impl CensusResponse {
    /// The response from the counts by category (`Category as usize`).
    pub fn new(opts: &RuleOptions, counts: [u64; 10]) -> CensusResponse {
        CensusResponse {
            hands: counts.iter().sum(),
            categories: Category::ALL
                .iter()
                .rev()
                .map(|&category| CensusRow {
                    category,
                    name: category.name(),
                    hands: counts[category as usize],
                })
                .collect(),
            rules: HandRules::from(opts),
        }
    }
}

/// A 5- or 2-card hand and its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Evaluated {
    /// Canonical card text.
    pub cards: Vec<Card>,
    pub category: Category,
    /// "Full house, kings over fours".
    pub name: String,
    /// Comparable value: higher beats lower, across 5- and 2-card hands.
    pub rank: HandRank,
}

impl Evaluated {
    fn new(cards: &[Card], rank: HandRank) -> Evaluated {
        Evaluated {
            cards: cards.to_vec(),
            category: rank.category(),
            name: rank.name(),
            rank,
        }
    }
}

/// `hand eval`: the hand, as given, and its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct EvalResponse {
    #[serde(flatten)]
    pub hand: Evaluated,
    pub rules: HandRules,
}

/// Which house way set the hand, and by which of its rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct HouseWayUsed {
    pub name: String,
    pub rule: String,
    /// In `settings`: the number (1..21) of the setting it chose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setting: Option<usize>,
}

/// `hand house-way`: seven cards set by the reference house way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct HouseWayResponse {
    /// The seven cards as given (canonical text).
    pub cards: Vec<Card>,
    /// Five cards behind, highest first.
    pub high: Evaluated,
    /// Two cards in front, highest first.
    pub low: Evaluated,
    pub house_way: HouseWayUsed,
    pub rules: HandRules,
}

/// One way to set the seven cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SettingView {
    /// 1..21, in a fixed order: the low hand takes positions (1,2), (1,3),
    /// … (6,7) of the cards as given.
    pub number: usize,
    pub high: Evaluated,
    pub low: Evaluated,
    /// The high hand does not outrank the low hand.
    pub fouled: bool,
}

/// `hand settings`: all 21 settings, fouls marked, and house way's choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SettingsResponse {
    pub cards: Vec<Card>,
    pub settings: Vec<SettingView>,
    /// How many of the 21 are fouled.
    pub fouled_count: usize,
    pub house_way: HouseWayUsed,
    pub rules: HandRules,
}

/// `dice`: the ACTION seat and how it was counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct DiceResponse {
    pub dice: [u8; 3],
    pub total: u8,
    /// ((total − 1) mod 7) + 1: the pile counted clockwise from the PD (1).
    pub position: u8,
    pub pd_seat: u8,
    pub seats: u8,
    pub action_seat: u8,
    pub explanation: String,
}

/// The input a tool request names wrongly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Cards,
    /// All the dice, or die `n` (0-based).
    Dice(Option<usize>),
    PdSeat,
    Seats,
    /// The options' house way (one not loaded here).
    HouseWay,
    /// Another option out of its range (`tppp_max_per_table`).
    Option(&'static str),
}

impl Field {
    /// The JSON field path: `cards`, `dice[1]`, `pd_seat`, `seats`.
    pub fn api_name(self) -> String {
        match self {
            Field::Cards => "cards".into(),
            Field::Dice(None) => "dice".into(),
            Field::Dice(Some(i)) => format!("dice[{i}]"),
            Field::PdSeat => "pd_seat".into(),
            Field::Seats => "seats".into(),
            Field::HouseWay => "options.house_way".into(),
            Field::Option(name) => format!("options.{name}"),
        }
    }

    /// The CLI's name: `CARDS`, `die 2`, `--pd-seat`, `--seats`.
    pub fn cli_name(self) -> String {
        match self {
            Field::Cards => "cards".into(),
            Field::Dice(None) => "dice".into(),
            Field::Dice(Some(i)) => format!("die {}", i + 1),
            Field::PdSeat => "--pd-seat".into(),
            Field::Seats => "--seats".into(),
            Field::HouseWay => "--house-way".into(),
            Field::Option(name) => format!("option {name}"),
        }
    }
}

/// Bad input to a tool: the field and a message naming the value. Displays
/// with the JSON field name; [`ToolError::cli_message`] with the CLI's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", field.api_name())]
pub struct ToolError {
    pub field: Field,
    pub message: String,
}

impl From<super::house_way::NotLoaded> for ToolError {
    fn from(e: super::house_way::NotLoaded) -> ToolError {
        ToolError::new(Field::HouseWay, e.to_string())
    }
}

/// The profile with the overrides over it, every option given in range
/// though a tool reads only some.
pub(super) fn rule_options(
    profile: Option<Profile>,
    overrides: Option<&OptionOverrides>,
) -> Result<RuleOptions, ToolError> {
    let opts = RuleOptions::for_profile(profile.unwrap_or_default());
    let Some(o) = overrides else {
        return Ok(opts);
    };
    o.check()
        .map_err(|(field, message)| ToolError::new(Field::Option(field), message))?;
    Ok(opts.with(o))
}

impl ToolError {
    fn new(field: Field, message: impl Into<String>) -> ToolError {
        ToolError {
            field,
            message: message.into(),
        }
    }

    pub fn cli_message(&self) -> String {
        format!("{}: {}", self.field.cli_name(), self.message)
    }
}

impl AsFieldError for ToolError {
    fn field_error(&self) -> Option<FieldError> {
        Some(FieldError::new(
            self.field.api_name(),
            self.message.as_str(),
        ))
    }
}

impl From<CardError> for ToolError {
    fn from(e: CardError) -> ToolError {
        let message = match e {
            CardError::JokerNotInPlay => {
                "\"JK\": the joker is not in play when the joker rule is \"none\"".to_string()
            }
            other => other.to_string(),
        };
        ToolError::new(Field::Cards, message)
    }
}

/// Evaluates a 5- or 2-card hand.
pub fn eval(req: &CardsRequest) -> Result<EvalResponse, ToolError> {
    let opts = req.rule_options()?;
    let cards = parse_cards(&req.cards.0)?;
    let rank = eval_any(&cards, &opts)?;
    Ok(EvalResponse {
        hand: Evaluated::new(&cards, rank),
        rules: HandRules::from(&opts),
    })
}

fn split_view(hand: &SetHand, opts: &RuleOptions) -> (Evaluated, Evaluated) {
    (
        Evaluated::new(&hand.high, hand.high_rank(opts)),
        Evaluated::new(&hand.low, hand.low_rank(opts)),
    )
}

/// Sets seven cards by the rules' house way (the reference by default).
pub fn house_way(req: &CardsRequest) -> Result<HouseWayResponse, ToolError> {
    let opts = req.rule_options()?;
    let cards: [Card; 7] = parse_exact(&req.cards.0, &opts)?;
    let way = opts.house_way()?;
    let set = way.set(&cards, &opts);
    let (high, low) = split_view(&set.hand, &opts);
    Ok(HouseWayResponse {
        cards: cards.to_vec(),
        high,
        low,
        house_way: HouseWayUsed {
            name: way.name().to_string(),
            rule: set.rule,
            setting: None,
        },
        rules: HandRules::from(&opts),
    })
}

/// The 21 ways to set seven cards, fouls marked, and house way's choice.
pub fn settings(req: &CardsRequest) -> Result<SettingsResponse, ToolError> {
    let opts = req.rule_options()?;
    let cards: [Card; 7] = parse_exact(&req.cards.0, &opts)?;
    let way = opts.house_way()?;
    let chosen = way.set(&cards, &opts);
    let all = all_settings(&cards, &opts);
    let settings: Vec<SettingView> = all
        .iter()
        .enumerate()
        .map(|(i, s)| SettingView {
            number: i + 1,
            high: Evaluated::new(&s.hand.high, s.high_rank),
            low: Evaluated::new(&s.hand.low, s.low_rank),
            fouled: s.fouled,
        })
        .collect();
    let setting = all
        .iter()
        .position(|s| s.hand == chosen.hand)
        .map(|i| i + 1);
    Ok(SettingsResponse {
        cards: cards.to_vec(),
        fouled_count: all.iter().filter(|s| s.fouled).count(),
        settings,
        house_way: HouseWayUsed {
            name: way.name().to_string(),
            rule: chosen.rule,
            setting,
        },
        rules: HandRules::from(&opts),
    })
}

/// Dice as text: `4 5 3`, `4,5,3`. Each value must be a whole number; the
/// range (1..6) and the count (3) are checked by [`dice`].
pub fn parse_dice_text(text: &str) -> Result<Vec<i64>, ToolError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| {
            t.parse::<i64>().map_err(|_| {
                ToolError::new(
                    Field::Dice(Some(i)),
                    format!("\"{t}\" is not a die value (1..6)"),
                )
            })
        })
        .collect()
}

/// Three dice → the ACTION seat.
pub fn dice(req: &DiceRequest) -> Result<DiceResponse, ToolError> {
    let [a, b, c] = <[i64; 3]>::try_from(req.dice.as_slice()).map_err(|_| {
        ToolError::new(
            Field::Dice(None),
            format!("expected 3 dice, got {}", req.dice.len()),
        )
    })?;
    // The dice first: they come first on the command line and in the body.
    for (index, &value) in [a, b, c].iter().enumerate() {
        if !(1..=6).contains(&value) {
            return Err(ToolError::new(
                Field::Dice(Some(index)),
                format!("{value} is not a die value (1..6)"),
            ));
        }
    }
    let seats = req.seats.unwrap_or(DEFAULT_SEATS);
    let seat = action_dice::action_seat([a, b, c], req.pd_seat, seats).map_err(|e| match e {
        DiceError::Die { index, value } => ToolError::new(
            Field::Dice(Some(index)),
            format!("{value} is not a die value (1..6)"),
        ),
        DiceError::Seats(n) => ToolError::new(
            Field::Seats,
            format!(
                "{n} is not a table size ({}..{})",
                action_dice::SEATS_MIN,
                action_dice::SEATS_MAX
            ),
        ),
        DiceError::PdSeat { seat, seats } => ToolError::new(
            Field::PdSeat,
            format!("{seat} is not a seat at a {seats}-seat table (1..{seats})"),
        ),
    })?;
    // action_seat accepted them: dice are 1..=6, seats 2..=10, pd_seat 1..=seats.
    let d = [a as u8, b as u8, c as u8];
    let total = d[0] + d[1] + d[2];
    let position = (total - 1) % 7 + 1;
    let pd_seat = req.pd_seat as u8;
    let where_ = if seat == pd_seat {
        format!("seat {seat}, the PD's own seat")
    } else {
        format!("seat {seat}")
    };
    let explanation = format!(
        "Dice {} + {} + {} = {total}: counting clockwise from the PD at seat {pd_seat} \
         (the PD counts as 1, 8 and 15), {total} lands on position {position}: {where_}.",
        d[0], d[1], d[2]
    );
    Ok(DiceResponse {
        dice: d,
        total,
        position,
        pd_seat,
        seats: seats as u8,
        action_seat: seat,
        explanation,
    })
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
