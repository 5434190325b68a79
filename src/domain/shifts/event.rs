//! The shift log's records: each event's type name as the audit log
//! names it, and its payload as recorded and read back.

use serde::{Deserialize, Serialize};

use crate::common::money::Money;

/// The event types of the shift log, as the audit log names them.
pub const SHIFT_EVENTS: [&str; 9] = [
    "shift_opened",
    "dealer_changed",
    "shift_closed",
    "shift_report_signed",
    "shifts_required_set",
    "tppp_registered",
    "tppp_marked",
    "tppp_unmarked",
    "pd_rotation_overridden",
];

/// One shift record's payload (the audit log's `event_type` is the tag).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ShiftEvent {
    /// A shift opened for the room (`table` absent) or for one table.
    ShiftOpened {
        shift: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<String>,
    },
    /// A dealer takes the box at a table (`dealer` absent: the box is left
    /// empty, the dealer before it leaves).
    DealerChanged {
        shift: String,
        table: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dealer: Option<String>,
    },
    ShiftClosed {
        shift: String,
    },
    /// The closing supervisor's signature on the report: its digest, and
    /// what it counted, for the reader of the log.
    ShiftReportSigned {
        shift: String,
        digest: String,
        hands: u64,
        drop: Money,
    },
    /// Whether a hand may open at a table no open shift covers.
    ShiftsRequiredSet {
        required: bool,
    },
    /// A third-party proposition player registered (`tppp.rs`).
    TpppRegistered {
        name: String,
        company: String,
        badge: String,
    },
    /// A TPPP marked at a table: recorded in each hand opened there.
    TpppMarked {
        table: String,
        name: String,
    },
    TpppUnmarked {
        table: String,
        name: String,
    },
    /// A supervisor lets the game go on past the PD rotation clock.
    PdRotationOverridden {
        table: String,
        reason: String,
    },
}

impl ShiftEvent {
    pub fn type_name(&self) -> &'static str {
        match self {
            ShiftEvent::ShiftOpened { .. } => "shift_opened",
            ShiftEvent::DealerChanged { .. } => "dealer_changed",
            ShiftEvent::ShiftClosed { .. } => "shift_closed",
            ShiftEvent::ShiftReportSigned { .. } => "shift_report_signed",
            ShiftEvent::ShiftsRequiredSet { .. } => "shifts_required_set",
            ShiftEvent::TpppRegistered { .. } => "tppp_registered",
            ShiftEvent::TpppMarked { .. } => "tppp_marked",
            ShiftEvent::TpppUnmarked { .. } => "tppp_unmarked",
            ShiftEvent::PdRotationOverridden { .. } => "pd_rotation_overridden",
        }
    }

    /// The payload as recorded: the event without its tag (the record's
    /// `event_type` carries it).
    pub fn payload(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        if let Some(map) = value.as_object_mut() {
            map.remove("type");
        }
        value
    }

    /// A recorded payload read back as its event.
    pub fn parse(event_type: &str, payload: &str) -> Result<ShiftEvent, String> {
        let mut value: serde_json::Value =
            serde_json::from_str(payload).map_err(|e| format!("not JSON: {e}"))?;
        let map = value
            .as_object_mut()
            .ok_or_else(|| "not a JSON object".to_string())?;
        map.insert("type".into(), event_type.into());
        serde_json::from_value(value).map_err(|e| e.to_string())
    }
}
