//! Where a shift's report stands against its signature: unsigned, as
//! signed, or superseded by the corrections and voids that came after.

use serde::Serialize;

use super::super::Shift;
use super::{HandChange, Report};

/// Where a shift's report stands against its signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ReportStanding)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Standing {
    /// Not signed yet (the shift is open).
    Unsigned,
    /// The report as signed: its hands give the signed digest.
    Signed {
        digest: String,
        by: String,
        at: String,
        seq: i64,
    },
    /// A hand changed after the signature: the digest differs, and these
    /// corrections or voids came after it.
    Superseded {
        signed_digest: String,
        by: String,
        at: String,
        seq: i64,
        changed: Vec<HandChange>,
    },
}

/// `report` (as its hands stand now) against `shift`'s last signature.
pub fn standing(shift: &Shift, report: &Report) -> Standing {
    let Some(s) = shift.signature() else {
        return Standing::Unsigned;
    };
    if s.digest == report.digest {
        return Standing::Signed {
            digest: s.digest.clone(),
            by: s.stamp.by.clone(),
            at: s.stamp.at.clone(),
            seq: s.stamp.seq,
        };
    }
    Standing::Superseded {
        signed_digest: s.digest.clone(),
        by: s.stamp.by.clone(),
        at: s.stamp.at.clone(),
        seq: s.stamp.seq,
        changed: report
            .changes
            .iter()
            .filter(|c| c.seq > s.stamp.seq)
            .cloned()
            .collect(),
    }
}
