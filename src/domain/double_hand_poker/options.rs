//! Rule profiles and options for Double Hand Poker and its bank settlement.
//! A profile is a named set of defaults; each option can be overridden alone.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cards::rules::CardRules;
pub use crate::cards::rules::{JokerRule, WheelRule};
use crate::common::money::Unit;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// The defaults of the rules files.
    #[default]
    LuckyChances,
    /// Wheel second-highest, otherwise as `lucky-chances`.
    Nevada,
    /// `lucky-chances` with California's 2026 player-dealer rotation rules
    /// (docs/shifts.md): the bank offered before every hand, rotating to at
    /// least two players other than a TPPP every 40 minutes, one TPPP a
    /// table, who wagers only while holding the bank.
    #[serde(rename = "california-2026")]
    California2026,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::LuckyChances => "lucky-chances",
            Profile::Nevada => "nevada",
            Profile::California2026 => "california-2026",
        }
    }

    pub const ALL: [Profile; 3] = [
        Profile::LuckyChances,
        Profile::Nevada,
        Profile::California2026,
    ];

    pub fn parse(text: &str) -> Option<Profile> {
        match text {
            "lucky-chances" => Some(Profile::LuckyChances),
            "nevada" => Some(Profile::Nevada),
            "california-2026" => Some(Profile::California2026),
            _ => None,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The house way a table sets hands by (option `house_way`,
/// docs/house-ways.md): one of the house ways pitbook ships, or one a
/// supervisor loaded, named with the first 12 hex digits of its file's
/// SHA-256 (`my-room@3fa2c1d09b7e`), so a recorded hand names exactly the
/// file it was played under. Written in JSON as that text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum HouseWayName {
    #[default]
    Reference,
    Foxwoods,
    AtlanticCity,
    GoldStar,
    Mgm,
    /// A loaded file: its name, `@`, its digest (kept inline, so options
    /// stay `Copy`).
    Loaded(LoadedName),
}

/// A loaded house way's `name@digest`, at most [`LoadedName::CHARS_MAX`]
/// ASCII characters.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct LoadedName {
    text: [u8; LoadedName::CHARS_MAX],
    len: u8,
}

impl LoadedName {
    /// Hex digits of the SHA-256 a loaded name carries.
    pub const DIGEST_CHARS: usize = 12;
    /// A file's name (40 at most, `house_way/file.rs`), `@`, the digest.
    pub const CHARS_MAX: usize = 40 + 1 + Self::DIGEST_CHARS;

    /// `name@digest`, when `name` is a house-way name (letters, digits and
    /// `-`, not a shipped one's) and `digest` 12 lower-case hex digits.
    pub fn parse(text: &str) -> Option<LoadedName> {
        let (name, digest) = text.split_once('@')?;
        let name_ok = !name.is_empty()
            && name.len() <= 40
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        let digest_ok = digest.len() == Self::DIGEST_CHARS
            && digest
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if !name_ok || !digest_ok {
            return None;
        }
        let mut out = LoadedName {
            text: [0; Self::CHARS_MAX],
            len: text.len() as u8,
        };
        out.text[..text.len()].copy_from_slice(text.as_bytes());
        Some(out)
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.text[..usize::from(self.len)]).expect("parse keeps only ASCII")
    }

    /// The file's own name, before the `@`.
    pub fn file_name(&self) -> &str {
        self.as_str().split_once('@').map_or("", |(n, _)| n)
    }
}

impl fmt::Debug for LoadedName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl HouseWayName {
    /// The house ways pitbook ships.
    pub const ALL: [HouseWayName; 5] = [
        HouseWayName::Reference,
        HouseWayName::Foxwoods,
        HouseWayName::AtlanticCity,
        HouseWayName::GoldStar,
        HouseWayName::Mgm,
    ];

    /// Its name in files, URLs and JSON (serde's name too).
    pub fn name(&self) -> &str {
        match self {
            HouseWayName::Reference => "reference",
            HouseWayName::Foxwoods => "foxwoods",
            HouseWayName::AtlanticCity => "atlantic-city",
            HouseWayName::GoldStar => "gold-star",
            HouseWayName::Mgm => "mgm",
            HouseWayName::Loaded(loaded) => loaded.as_str(),
        }
    }

    /// A shipped house way's name, or a loaded one's `name@digest`.
    pub fn parse(text: &str) -> Option<HouseWayName> {
        HouseWayName::ALL
            .into_iter()
            .find(|w| w.name() == text)
            .or_else(|| LoadedName::parse(text).map(HouseWayName::Loaded))
    }

    fn is_reference(&self) -> bool {
        *self == HouseWayName::Reference
    }
}

impl fmt::Display for HouseWayName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl TryFrom<String> for HouseWayName {
    type Error = String;
    fn try_from(text: String) -> Result<HouseWayName, String> {
        HouseWayName::parse(&text).ok_or_else(|| {
            format!(
                "\"{text}\" is not a house way: reference, foxwoods, atlantic-city, gold-star, mgm, \
                 or a loaded one's name@digest"
            )
        })
    }
}

impl From<HouseWayName> for String {
    fn from(name: HouseWayName) -> String {
        name.name().to_string()
    }
}

impl utoipa::PartialSchema for HouseWayName {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A shipped house way (reference, foxwoods, atlantic-city, gold-star, mgm) or a \
                 loaded one's name@digest (the first 12 hex digits of its file's SHA-256).",
            ))
            .pattern(Some(
                "^(reference|foxwoods|atlantic-city|gold-star|mgm|[a-z0-9-]{1,40}@[0-9a-f]{12})$",
            ))
            .examples([serde_json::json!("foxwoods")])
            .into()
    }
}

impl utoipa::ToSchema for HouseWayName {}

/// What happens to a fouled player hand (option `foul`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FoulRule {
    Loses,
    ResetHouseWay,
}

/// Order of backline wagers within a seat (option `backline_order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BacklineOrder {
    Placement,
    LargestFirst,
}

/// Every rule option, resolved: a profile's defaults with overrides applied.
/// The rotation options are written only when they differ from
/// `lucky-chances` (no clock, no offer rule), so a settlement of a table
/// without them reads exactly as before they existed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RuleOptions {
    pub profile: Profile,
    pub joker: JokerRule,
    pub wheel: WheelRule,
    pub foul: FoulRule,
    pub push_consumes_action: bool,
    pub backline_order: BacklineOrder,
    pub min_unit: Unit,
    pub pd_min_wagers: u32,
    /// The PD position is offered before every hand: the PD's acceptance
    /// (the option chosen) is recorded, and a TPPP banks only when no
    /// eligible player is left to take it.
    #[serde(skip_serializing_if = "is_false")]
    pub pd_offer_each_hand: bool,
    /// The rotation clock's window; 0: no clock.
    #[serde(skip_serializing_if = "is_zero")]
    pub pd_rotation_minutes: u32,
    /// Players other than a TPPP who must bank within every window.
    #[serde(skip_serializing_if = "is_zero")]
    pub pd_rotation_min_other_players: u32,
    /// TPPPs marked at one table at a time.
    #[serde(skip_serializing_if = "is_one")]
    pub tppp_max_per_table: u32,
    /// A TPPP takes wagers only as the PD: never recorded as a bettor.
    #[serde(skip_serializing_if = "is_false")]
    pub tppp_wagers_only_as_pd: bool,
    /// The house way the PD's hand and "set it house way" follow; written
    /// only when not the reference, so earlier records read as before.
    #[serde(skip_serializing_if = "HouseWayName::is_reference")]
    pub house_way: HouseWayName,
}

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero(n: &u32) -> bool {
    *n == 0
}
fn is_one(n: &u32) -> bool {
    *n == 1
}

/// Longest rotation window a table may set, in minutes (a shift).
pub const ROTATION_MINUTES_MAX: u32 = 720;
/// Most players a rotation window may require, and most TPPPs a table.
pub const ROTATION_PLAYERS_MAX: u32 = 9;
/// Most primary wagers a player may be asked for before banking.
pub const PD_MIN_WAGERS_MAX: u32 = 100;

/// The counted options' limits, by field: a window of 0..=720 minutes
/// (0: no clock), 0..=9 players, 0..=9 TPPPs, 0..=100 wagers.
fn check_count(field: &'static str, n: u32) -> Result<(), (&'static str, String)> {
    let message = match field {
        "pd_rotation_minutes" if n > ROTATION_MINUTES_MAX => {
            format!("{n} minutes is longer than a shift: 0 (no clock) to {ROTATION_MINUTES_MAX}")
        }
        "pd_rotation_min_other_players" | "tppp_max_per_table" if n > ROTATION_PLAYERS_MAX => {
            format!("{n} is more than a table seats: 0 to {ROTATION_PLAYERS_MAX}")
        }
        "pd_min_wagers" if n > PD_MIN_WAGERS_MAX => {
            format!("{n} is more wagers than a PD is asked for: 0 to {PD_MIN_WAGERS_MAX}")
        }
        _ => return Ok(()),
    };
    Err((field, message))
}

/// A subset of options to override; unknown names are errors.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionOverrides {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joker: Option<JokerRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wheel: Option<WheelRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foul: Option<FoulRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_consumes_action: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backline_order: Option<BacklineOrder>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_unit: Option<Unit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pd_min_wagers: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pd_offer_each_hand: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pd_rotation_minutes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pd_rotation_min_other_players: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tppp_max_per_table: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tppp_wagers_only_as_pd: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub house_way: Option<HouseWayName>,
}

impl RuleOptions {
    pub fn for_profile(profile: Profile) -> RuleOptions {
        let lucky = RuleOptions {
            profile,
            joker: JokerRule::Bug,
            wheel: WheelRule::Lowest,
            foul: FoulRule::Loses,
            push_consumes_action: false,
            backline_order: BacklineOrder::Placement,
            min_unit: Unit::CENT,
            pd_min_wagers: 3,
            pd_offer_each_hand: false,
            pd_rotation_minutes: 0,
            pd_rotation_min_other_players: 0,
            tppp_max_per_table: 1,
            tppp_wagers_only_as_pd: false,
            house_way: HouseWayName::Reference,
        };
        match profile {
            Profile::LuckyChances => lucky,
            Profile::Nevada => RuleOptions {
                wheel: WheelRule::SecondHighest,
                ..lucky
            },
            Profile::California2026 => RuleOptions {
                pd_offer_each_hand: true,
                pd_rotation_minutes: 40,
                pd_rotation_min_other_players: 2,
                tppp_max_per_table: 1,
                tppp_wagers_only_as_pd: true,
                ..lucky
            },
        }
    }

    pub fn with(mut self, o: &OptionOverrides) -> RuleOptions {
        self.joker = o.joker.unwrap_or(self.joker);
        self.wheel = o.wheel.unwrap_or(self.wheel);
        self.foul = o.foul.unwrap_or(self.foul);
        self.push_consumes_action = o.push_consumes_action.unwrap_or(self.push_consumes_action);
        self.backline_order = o.backline_order.unwrap_or(self.backline_order);
        self.min_unit = o.min_unit.unwrap_or(self.min_unit);
        self.pd_min_wagers = o.pd_min_wagers.unwrap_or(self.pd_min_wagers);
        self.pd_offer_each_hand = o.pd_offer_each_hand.unwrap_or(self.pd_offer_each_hand);
        self.pd_rotation_minutes = o.pd_rotation_minutes.unwrap_or(self.pd_rotation_minutes);
        self.pd_rotation_min_other_players = o
            .pd_rotation_min_other_players
            .unwrap_or(self.pd_rotation_min_other_players);
        self.tppp_max_per_table = o.tppp_max_per_table.unwrap_or(self.tppp_max_per_table);
        self.tppp_wagers_only_as_pd = o
            .tppp_wagers_only_as_pd
            .unwrap_or(self.tppp_wagers_only_as_pd);
        self.house_way = o.house_way.unwrap_or(self.house_way);
        self
    }

    /// The house way these rules set hands by.
    /// None for a loaded house way this process has not loaded (the
    /// store loads every stored one: [`super::house_way::loaded`]).
    pub fn house_way(
        &self,
    ) -> Result<&'static (dyn super::house_way::HouseWay + Sync), super::house_way::NotLoaded> {
        super::house_way::by_name(self.house_way)
    }

    /// The counted options' limits ([`check_count`]), named by field.
    pub fn check_rotation(&self) -> Result<(), (&'static str, String)> {
        check_count("pd_rotation_minutes", self.pd_rotation_minutes)?;
        check_count(
            "pd_rotation_min_other_players",
            self.pd_rotation_min_other_players,
        )?;
        check_count("tppp_max_per_table", self.tppp_max_per_table)?;
        check_count("pd_min_wagers", self.pd_min_wagers)
    }
}

impl OptionOverrides {
    /// The limits of the counted options given, named by field: checked on
    /// every route that takes options, whether or not it reads them.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        RuleOptions::default().with(self).check_rotation()
    }
}

/// The joker and wheel options are what the card kernel reads.
impl From<&RuleOptions> for CardRules {
    fn from(opts: &RuleOptions) -> CardRules {
        CardRules {
            joker: opts.joker,
            wheel: opts.wheel,
        }
    }
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions::for_profile(Profile::LuckyChances)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nevada_differs_only_in_wheel() {
        let lucky = RuleOptions::for_profile(Profile::LuckyChances);
        let nevada = RuleOptions::for_profile(Profile::Nevada);
        assert_eq!(nevada.wheel, WheelRule::SecondHighest);
        assert_eq!(
            RuleOptions {
                wheel: lucky.wheel,
                profile: lucky.profile,
                ..nevada
            },
            lucky
        );
    }

    #[test]
    fn overrides_apply_alone_and_unknown_names_fail() {
        let o: OptionOverrides = serde_json::from_str(r#"{"push_consumes_action": true}"#).unwrap();
        let opts = RuleOptions::default().with(&o);
        assert!(opts.push_consumes_action);
        assert_eq!(opts.foul, FoulRule::Loses);
        assert!(serde_json::from_str::<OptionOverrides>(r#"{"pushes": true}"#).is_err());
        assert!(serde_json::from_str::<OptionOverrides>(r#"{"foul": "maybe"}"#).is_err());
    }
}
