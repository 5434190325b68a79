//! The hand-history format `pitbook-hand-history/1`: one Double Hand Poker
//! hand per JSON line (docs/hand-history.md, docs/hand-history.schema.json).
//! Everything but `format`, `number` and `records` is derived from
//! `records` by [`super::build`], so `pitbook history check` can derive it
//! again and compare.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::common::audit::RecordFields;
use crate::common::money::Money;
use crate::double_hand_poker::hand_record::{Declined, PdOption, PostedRules, RecordedSettlement};
use crate::double_hand_poker::options::{OptionOverrides, Profile};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{BracketInput, HandInput};

/// The `format` of every line; a reader refuses any other.
pub const FORMAT: &str = "pitbook-hand-history/1";

/// One hand, as one line of an export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedHand {
    /// Always [`FORMAT`].
    pub format: String,
    /// The hand's key (a UUID).
    pub id: String,
    /// The table's hand number (the n-th hand of its table), when known.
    pub number: Option<i64>,
    /// The id of the hand on the line before (null on the first line), so
    /// a line removed from or moved within the file is seen. Set by the
    /// writer, not derived from the records.
    pub previous: Option<String>,
    pub table: String,
    pub game: String,
    pub status: Status,
    /// UTC, RFC 3339 with microseconds: its first record's time.
    pub opened_at: String,
    /// The `hand_closed` record's time.
    pub closed_at: Option<String>,
    /// The `hand_voided` record's time.
    pub voided_at: Option<String>,
    pub dealer: String,
    /// The table's rules as `hand_opened` recorded them.
    pub rules: Rules,
    pub pd: Option<Pd>,
    pub action: Option<Action>,
    /// The wagers standing (placed and not removed), in placement order.
    pub wagers: Vec<Wager>,
    pub removed_wagers: Vec<RemovedWager>,
    /// The collection taken before play (the posted schedules).
    pub collection: Option<Collection>,
    /// Each seat's result as entered (an outcome, or the seat's hand), by seat.
    pub results: Vec<SeatResult>,
    /// The house collection the last settlement states.
    pub house_collection: Option<Money>,
    /// The last recorded settlement (at the close or the latest correction),
    /// exactly as recorded: the `POST /api/v1/settle` output (docs/settle.md).
    pub settlement: Option<SettlementText>,
    pub corrections: Vec<Correction>,
    pub void: Option<Void>,
    /// Notes staff added to the hand (`hand_note_added`: a dispute, what
    /// surveillance showed), in seq order.
    pub notes: Vec<Note>,
    /// The hand's audit records in seq order, as `pitbook audit export`
    /// writes them: every record of the hand, also of a kind this version
    /// does not render.
    pub records: Vec<ExportRecord>,
}

/// Where the hand stands: the search's status, one enum for both.
pub use crate::history::filter::Status;

/// `hand_opened`'s rules: null where the hand recorded none (hands recorded
/// before they were, which replay with the defaults).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub profile: Option<Profile>,
    pub options: Option<OptionOverrides>,
    pub seats: Option<i64>,
    pub posted: Option<PostedRules>,
}

/// The Player-Dealer, as the last `pd_set` recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pd {
    pub seat: i64,
    pub player: String,
    pub bank: Money,
    pub option: Option<PdOption>,
    pub declined: Vec<Declined>,
    /// What the bank received over the hand, its net and its fee (closed
    /// hands).
    pub result: Option<Total>,
}

/// A participant's money over the hand, as the settlement's totals state it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Total {
    pub received: Money,
    pub net: Money,
    pub fee: Money,
}

/// The dice as `action_set` recorded them (or the seat given directly), and
/// the ACTION seat they name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub dice: Option<Vec<i64>>,
    pub seat: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wager {
    pub id: String,
    pub seat: i64,
    pub bettor: String,
    pub amount: Money,
    pub backline: bool,
    /// The payout ratio, "p:q".
    pub payout: String,
    /// How the settlement paid it (closed hands).
    pub result: Option<WagerResult>,
}

/// One wager's step of the settlement, in the CSV's terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WagerResult {
    pub outcome: Outcome,
    /// The part the PD's money in action covered.
    pub covered: Money,
    /// `amount − covered`, returned untouched.
    pub no_action: Money,
    /// Everything the bettor got back at this step: stake and winnings.
    pub paid: Money,
    /// `paid − amount`.
    pub net: Money,
    /// The collection fee taken on this wager before play.
    pub collection: Money,
    /// The step's sentence, as a dealer reads it aloud.
    pub explanation: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemovedWager {
    pub id: String,
    pub reason: String,
    pub by: String,
    pub at: String,
}

/// The schedules `collection_taken` recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Collection {
    pub player: Option<Vec<BracketInput>>,
    pub bank: Option<Vec<BracketInput>>,
}

/// A seat's result as the dealer entered it: exactly one of `outcome` and
/// `hand` (the cards, set by the player or by the house way).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatResult {
    pub seat: i64,
    pub outcome: Option<Outcome>,
    pub hand: Option<HandInput>,
}

/// A supervisor's correction of a closed hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Correction {
    pub seq: i64,
    pub at: String,
    pub by: String,
    pub seat: i64,
    pub outcome: Option<Outcome>,
    pub hand: Option<HandInput>,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Void {
    pub seq: i64,
    pub at: String,
    pub by: String,
    pub reason: String,
}

/// A note on the hand: its text, who wrote it and when, and its record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Note {
    pub seq: i64,
    pub at: String,
    pub by: String,
    pub text: String,
}

/// One audit record, every field its HMAC covers (docs/audit.md): the
/// payload is the exact text hashed, so it stays a JSON string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRecord {
    pub seq: i64,
    pub recorded_at: String,
    pub actor: String,
    pub table_id: Option<String>,
    pub hand_id: Option<String>,
    pub event_type: String,
    pub payload: String,
    pub prev_hash: String,
    pub hash: String,
}

impl ExportRecord {
    pub fn fields(&self) -> RecordFields<'_> {
        RecordFields {
            seq: self.seq,
            recorded_at: &self.recorded_at,
            actor: &self.actor,
            table: self.table_id.as_deref(),
            hand: self.hand_id.as_deref(),
            event_type: &self.event_type,
            payload: &self.payload,
            prev_hash: &self.prev_hash,
        }
    }
}

/// A settlement as recorded, written as the JSON object it is and compared
/// as text (it is copied from a record, never rebuilt; a rebuilt hand
/// shares its record's text, which its replay has already read as JSON).
#[derive(Debug, Clone)]
pub struct SettlementText(Arc<str>);

impl SettlementText {
    /// The text of a recorded settlement: JSON its replay has matched
    /// against the recomputed settlement.
    pub fn recorded(settlement: &RecordedSettlement) -> SettlementText {
        SettlementText(settlement.shared_text())
    }

    pub fn text(&self) -> &str {
        &self.0
    }
}

impl PartialEq for SettlementText {
    fn eq(&self, other: &SettlementText) -> bool {
        self.text() == other.text()
    }
}

impl Eq for SettlementText {}

impl Serialize for SettlementText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let raw: &RawValue =
            serde_json::from_str(self.text()).map_err(serde::ser::Error::custom)?;
        raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for SettlementText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        if !raw.get().starts_with('{') {
            return Err(serde::de::Error::custom("a settlement is a JSON object"));
        }
        Ok(SettlementText(Arc::from(raw.get())))
    }
}
