//! The events of a Double Hand Poker hand, as recorded in the audit log.
//! Each is one dealer or supervisor action; a hand's state is their fold.

use serde::{Deserialize, Serialize};

use super::pd::{Declined, PdOption};
use super::posted::PostedRules;
use super::{PdChoice, RecordedSettlement};
use crate::common::money::Money;
use crate::double_hand_poker::options::{OptionOverrides, Profile};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{BracketInput, HandInput, PdInput};

/// Game name recorded on every Double Hand Poker hand.
pub const GAME_DOUBLE_HAND_POKER: &str = "double-hand-poker";

/// Declares [`HandEvent`] once and, from the same text, its mirror
/// `Tracked`: the same variants externally tagged, which serde reads without
/// buffering, so an API error names the exact field (`events[2].amount`);
/// and `read_untagged`, which reads a recorded payload whose tag is known
/// as that variant's fields alone, again without buffering (serde's tagged
/// enums buffer the whole event first: most of a replay's parsing time).
macro_rules! hand_events {
    (
        $(#[$enum_attr:meta])*
        pub enum HandEvent {
            $(
                $(#[$variant_attr:meta])*
                $variant:ident {
                    $( $(#[$field_attr:meta])* $field:ident : $ty:ty ),* $(,)?
                }
            ),* $(,)?
        }
    ) => {
        $(#[$enum_attr])*
        pub enum HandEvent {
            $( $(#[$variant_attr])* $variant { $( $(#[$field_attr])* $field : $ty ),* } ),*
        }

        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case", deny_unknown_fields)]
        enum Tracked {
            $( $variant { $( $(#[$field_attr])* $field : $ty ),* } ),*
        }

        impl From<Tracked> for HandEvent {
            fn from(t: Tracked) -> HandEvent {
                match t {
                    $( Tracked::$variant { $($field),* } => HandEvent::$variant { $($field),* } ),*
                }
            }
        }

        /// The event types, as their tags.
        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum Tag {
            $( $variant ),*
        }

        /// Reads `json`, whose `type` is `tag`, as that variant; None for a
        /// tag that is no event's.
        fn read_untagged(tag: &str, json: &str) -> Option<Result<HandEvent, serde_json::Error>> {
            use serde::de::IntoDeserializer;
            let tag: Result<Tag, serde::de::value::Error> =
                Tag::deserialize(tag.into_deserializer());
            Some(match tag.ok()? {
                $( Tag::$variant => {
                    #[derive(Deserialize)]
                    #[serde(deny_unknown_fields)]
                    struct Fields {
                        #[serde(rename = "type")]
                        _kind: serde::de::IgnoredAny,
                        $( $(#[$field_attr])* $field : $ty ),*
                    }
                    serde_json::from_str::<Fields>(json)
                        .map(|Fields { $($field,)* .. }| HandEvent::$variant { $($field),* })
                } )*
            })
        }
    };
}

hand_events! {
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum HandEvent {
    /// A new hand at a table, with the table's rules at that moment.
    /// A client sends only `table` (and `dealer`, if at all, as the
    /// signed-in user): the store records the rest from the table.
    HandOpened {
        table: String,
        #[serde(default)]
        dealer: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        profile: Option<Profile>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<OptionOverrides>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seats: Option<i64>,
        /// Wager limits and collection schedules; absent only on hands
        /// recorded before they were (those replay exactly as before).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        posted: Option<PostedRules>,
        /// The TPPPs marked at the table when the hand opened (docs/shifts.md):
        /// under `tppp_wagers_only_as_pd` none of them may be a bettor.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tppps: Vec<String>,
    },
    /// Who banks, how much, which option they chose and who refused the
    /// option before them. `option` and `declined` are absent from events
    /// recorded before they existed (and `option` on an API command that
    /// omits it): such events read and replay exactly as before.
    PdSet {
        seat: i64,
        player: String,
        bank: Money,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        option: Option<PdOption>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        declined: Vec<Declined>,
    },
    /// A bet, in placement order.
    WagerPlaced {
        id: String,
        seat: i64,
        bettor: String,
        amount: Money,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        backline: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        payout: Option<String>,
    },
    /// Undo of a wager placed by mistake, before the dice.
    WagerRemoved { id: String, reason: String },
    /// The collection (house fee) taken before play, by the posted schedules.
    CollectionTaken {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Vec<BracketInput>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bank: Option<Vec<BracketInput>>,
    },
    /// The PD's dice (or the ACTION seat given directly).
    ActionSet {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dice: Option<Vec<i64>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<i64>,
    },
    /// The result of a seat, as the dealer read it from the cards.
    OutcomeRecorded { seat: i64, outcome: Outcome },
    /// The hand of a seat (or the PD's): set by the player, or 7 cards to
    /// set by house way; the outcome is decided by the hand-rules engine.
    HandRecorded { seat: i64, hand: HandInput },
    /// The dealer carried out these settlement steps (in action order).
    StepsConfirmed { wagers: Vec<String> },
    /// The end of the hand. `settlement` is computed by pitbook from the
    /// events; a client sends none, the recorded event carries it.
    HandClosed {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        settlement: Option<RecordedSettlement>,
    },
    /// A supervisor's correction of a closed hand's result; the settlement
    /// is recomputed and recorded with it.
    OutcomeCorrected {
        seat: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<Outcome>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<HandInput>,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        settlement: Option<RecordedSettlement>,
    },
    /// A supervisor voids the hand: every bet is returned.
    HandVoided { reason: String },
    /// A supervisor's, auditor's or admin's note on the hand (a dispute,
    /// what surveillance showed), in any phase: it changes no money. Who
    /// and when are the record's actor and time.
    HandNoteAdded { text: String },
}
}

impl HandEvent {
    /// A `pd_set`'s PD and choice; None for any other event.
    pub fn pd_set(&self) -> Option<(PdInput, PdChoice)> {
        let HandEvent::PdSet {
            seat,
            player,
            bank,
            option,
            declined,
        } = self
        else {
            return None;
        };
        let pd = PdInput {
            seat: *seat,
            player: player.clone(),
            bank: *bank,
        };
        let choice = PdChoice {
            option: *option,
            declined: declined.clone(),
        };
        Some((pd, choice))
    }

    /// The `event_type` column of the audit log.
    pub fn type_name(&self) -> &'static str {
        match self {
            HandEvent::HandOpened { .. } => "hand_opened",
            HandEvent::PdSet { .. } => "pd_set",
            HandEvent::WagerPlaced { .. } => "wager_placed",
            HandEvent::WagerRemoved { .. } => "wager_removed",
            HandEvent::CollectionTaken { .. } => "collection_taken",
            HandEvent::ActionSet { .. } => "action_set",
            HandEvent::OutcomeRecorded { .. } => "outcome_recorded",
            HandEvent::HandRecorded { .. } => "hand_recorded",
            HandEvent::StepsConfirmed { .. } => "steps_confirmed",
            HandEvent::HandClosed { .. } => "hand_closed",
            HandEvent::OutcomeCorrected { .. } => "outcome_corrected",
            HandEvent::HandVoided { .. } => "hand_voided",
            HandEvent::HandNoteAdded { .. } => "hand_note_added",
        }
    }

    /// The settlement the event carries (a recorded close or correction).
    pub fn settlement(&self) -> Option<&RecordedSettlement> {
        match self {
            HandEvent::HandClosed { settlement }
            | HandEvent::OutcomeCorrected { settlement, .. } => settlement.as_ref(),
            _ => None,
        }
    }

    /// True for the `event_type` of an event that carries a settlement.
    pub fn carries_settlement(event_type: &str) -> bool {
        matches!(event_type, "hand_closed" | "outcome_corrected")
    }

    /// Only a supervisor may record these.
    pub fn is_supervisor_only(&self) -> bool {
        matches!(
            self,
            HandEvent::OutcomeCorrected { .. } | HandEvent::HandVoided { .. }
        )
    }

    /// A note: recorded by those who may add notes (`Action::AddNotes`),
    /// never as part of running the hand.
    pub fn is_note(&self) -> bool {
        matches!(self, HandEvent::HandNoteAdded { .. })
    }
    /// Parses a recorded event, read without buffering (serde's tagged
    /// enums buffer their content, which a settlement kept as raw text
    /// cannot pass through).
    pub fn from_json(json: &str) -> Result<HandEvent, serde_json::Error> {
        use std::borrow::Cow;

        #[derive(Deserialize)]
        struct Kind<'a> {
            #[serde(rename = "type", borrow)]
            kind: Cow<'a, str>,
        }
        // A recorded close is exactly this; its settlement (kilobytes) is
        // parsed once, when it is checked against the recomputed one.
        const CLOSED_PREFIX: &str = r#"{"type":"hand_closed","settlement":{"#;
        if let Some(settlement) = json
            .strip_prefix(CLOSED_PREFIX)
            .and_then(|rest| rest.strip_suffix('}'))
        {
            let text = &json[CLOSED_PREFIX.len() - 1..][..settlement.len() + 1];
            return Ok(HandEvent::HandClosed {
                settlement: Some(RecordedSettlement::unparsed(text)),
            });
        }
        // Recorded payloads put the tag first (`{"type":"hand_closed",…`);
        // reading it there spares a scan of a settlement's kilobytes.
        let tag_first = json
            .strip_prefix(r#"{"type":""#)
            .and_then(|rest| rest.split_once('"'))
            .map(|(tag, _)| tag)
            .filter(|tag| !tag.contains('\\'));
        let kind: Cow<'_, str> = match tag_first {
            Some(tag) => Cow::Borrowed(tag),
            None => serde_json::from_str::<Kind<'_>>(json)?.kind,
        };
        match read_untagged(&kind, json) {
            Some(read) => read,
            // Not an event's type: serde says so in its own words.
            None => serde_json::from_str(json),
        }
    }
}

impl HandEvent {
    /// Reads an event sent to the API (`{"type": "...", ...}`), naming the
    /// exact field of an error: `Err((path, message))` with `path` like
    /// `.amount` (empty for the event as a whole, `.type` for its tag).
    pub fn parse_tracked(value: serde_json::Value) -> Result<HandEvent, (String, String)> {
        let serde_json::Value::Object(mut fields) = value else {
            return Err((String::new(), "an event is a JSON object".into()));
        };
        let kind = match fields.remove("type") {
            Some(serde_json::Value::String(kind)) => kind,
            Some(other) => return Err((".type".into(), format!("{other} is not an event type"))),
            None => return Err((".type".into(), "missing: every event names its type".into())),
        };
        let mut tagged = serde_json::Map::new();
        tagged.insert(kind, serde_json::Value::Object(fields));
        serde_path_to_error::deserialize::<_, Tracked>(serde_json::Value::Object(tagged))
            .map(HandEvent::from)
            .map_err(|e| {
                let mut path = String::new();
                for segment in e.path().iter() {
                    use serde_path_to_error::Segment;
                    match segment {
                        Segment::Map { key } | Segment::Enum { variant: key } => {
                            path.push('.');
                            path.push_str(key);
                        }
                        Segment::Seq { index } => path.push_str(&format!("[{index}]")),
                        Segment::Unknown => {}
                    }
                }
                // The first segment is the event type itself.
                let path = match path.strip_prefix('.').and_then(|p| p.split_once('.')) {
                    Some((_, rest)) => format!(".{rest}"),
                    None if e.inner().to_string().starts_with("unknown variant") => ".type".into(),
                    None => String::new(),
                };
                (path, e.into_inner().to_string())
            })
    }
}
