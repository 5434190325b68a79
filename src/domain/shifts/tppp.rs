//! Third-party proposition players (TPPPs) and the PD rotation overrides
//! (docs/shifts.md): a supervisor registers a TPPP (name,
//! company, badge), marks them at a table (at most the table's
//! `tppp_max_per_table`, one table at a time), and may override the
//! rotation clock with a reason. Pure, like the rest of the shift log.

use serde::Serialize;

use super::{ShiftRefusal, Stamp, invalid};
use crate::common::text::{FreeText, NAME_CHARS_MAX, REASON_CHARS_MAX};

/// Longest badge number (letters, digits and '-').
pub const BADGE_CHARS_MAX: usize = 32;
/// Most TPPPs one registry keeps.
pub const TPPPS_MAX: usize = 1_000;

/// A registered TPPP.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Tppp {
    pub name: String,
    pub company: String,
    pub badge: String,
    #[serde(flatten)]
    pub registered: Stamp,
}

/// A supervisor's override of the rotation clock at a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct RotationOverride {
    pub table: String,
    pub reason: String,
    #[serde(flatten)]
    pub stamp: Stamp,
}

/// Names compare trimmed and case-insensitively.
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The checked fields of a registration: name and company free text,
/// the badge letters, digits and '-'; neither name nor badge already
/// registered.
pub fn check_registration(
    name: &str,
    company: &str,
    badge: &str,
    registry: &[Tppp],
) -> Result<(String, String, String), ShiftRefusal> {
    let text = |field: &str, v: &str| {
        FreeText::line(field, v, NAME_CHARS_MAX)
            .map(FreeText::into_string)
            .map_err(|e| invalid(field, format!("\"{}\": {}", e.value, e.message)))
    };
    let name = text("name", name)?;
    let company = text("company", company)?;
    let badge = badge.trim().to_string();
    if badge.is_empty()
        || badge.chars().count() > BADGE_CHARS_MAX
        || !badge.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return Err(invalid(
            "badge",
            format!(
                "\"{badge}\" is not a badge number: 1..{BADGE_CHARS_MAX} letters, digits or '-'"
            ),
        ));
    }
    if registry.len() >= TPPPS_MAX {
        return Err(ShiftRefusal::Conflict(format!(
            "the registry holds {TPPPS_MAX} TPPPs, the most it keeps"
        )));
    }
    if let Some(t) = registry
        .iter()
        .find(|t| name_key(&t.name) == name_key(&name))
    {
        return Err(ShiftRefusal::Conflict(format!(
            "{} is already registered as a TPPP (badge {}, {})",
            t.name, t.badge, t.company
        )));
    }
    if let Some(t) = registry
        .iter()
        .find(|t| t.badge.eq_ignore_ascii_case(&badge))
    {
        return Err(ShiftRefusal::Conflict(format!(
            "badge {badge} is already {}'s",
            t.name
        )));
    }
    Ok((name, company, badge))
}

/// A TPPP marked at a table: `marks` are the room's (table, TPPP name)
/// now, `max` the table's `tppp_max_per_table`. Returns the registered
/// name.
pub fn check_mark(
    name: &str,
    table: &str,
    max: u32,
    registry: &[Tppp],
    marks: &[(String, String)],
) -> Result<String, ShiftRefusal> {
    let Some(tppp) = registry
        .iter()
        .find(|t| name_key(&t.name) == name_key(name))
    else {
        return Err(invalid(
            "name",
            format!(
                "\"{}\" is not a registered TPPP: register them first",
                name.trim()
            ),
        ));
    };
    if let Some((at, _)) = marks.iter().find(|(_, n)| name_key(n) == name_key(name)) {
        let why = if at == table {
            format!("{} is already marked at {table}", tppp.name)
        } else {
            format!(
                "{} is marked at {at}: a TPPP works one table at a time (unmark them there first)",
                tppp.name
            )
        };
        return Err(ShiftRefusal::Conflict(why));
    }
    let here = marks.iter().filter(|(t, _)| t == table).count();
    if here as u32 >= max {
        return Err(ShiftRefusal::Conflict(format!(
            "{table} allows {max} TPPP{} at a time (tppp_max_per_table) and has {here}",
            if max == 1 { "" } else { "s" }
        )));
    }
    Ok(tppp.name.clone())
}

/// A TPPP leaving a table: they must be marked there. Returns their name
/// as marked.
pub fn check_unmark(
    name: &str,
    table: &str,
    marks: &[(String, String)],
) -> Result<String, ShiftRefusal> {
    marks
        .iter()
        .find(|(t, n)| t == table && name_key(n) == name_key(name))
        .map(|(_, n)| n.clone())
        .ok_or_else(|| {
            invalid(
                "name",
                format!("\"{}\" is not marked at {table}", name.trim()),
            )
        })
}

/// An override's reason: required free text; refused at a table whose
/// rules have no rotation clock (nothing to override).
pub fn check_override(table: &str, clock_on: bool, reason: &str) -> Result<String, ShiftRefusal> {
    if !clock_on {
        return Err(ShiftRefusal::Conflict(format!(
            "{table} has no PD rotation clock (its rule profile's pd_rotation_minutes is 0): there is nothing to override"
        )));
    }
    let reason = FreeText::paragraph("reason", reason, REASON_CHARS_MAX)
        .map_err(|e| invalid("reason", format!("\"{}\": {}", e.value, e.message)))?
        .into_string();
    Ok(reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp() -> Stamp {
        Stamp {
            at: "2026-12-03T10:00:00Z".into(),
            by: "sam".into(),
            seq: 1,
        }
    }

    fn ted() -> Tppp {
        Tppp {
            name: "Ted".into(),
            company: "Acme Gaming".into(),
            badge: "TP-100".into(),
            registered: stamp(),
        }
    }

    fn marks(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(t, n)| (t.to_string(), n.to_string()))
            .collect()
    }

    #[test]
    fn a_registration_is_checked_field_by_field() {
        let reg = [ted()];
        assert_eq!(
            check_registration(" Uma ", "Acme", "TP-101", &reg),
            Ok(("Uma".into(), "Acme".into(), "TP-101".into()))
        );
        let refused = |name, company, badge, field: &str, start: &str| {
            let e = check_registration(name, company, badge, &reg).unwrap_err();
            match &e {
                ShiftRefusal::Invalid(fe) => assert_eq!(fe.field(), field, "{e}"),
                ShiftRefusal::Conflict(_) => assert_eq!(field, "", "{e}"),
            }
            assert!(e.to_string().contains(start), "{e}");
        };
        refused("", "Acme", "TP-1", "name", "is empty");
        refused("Uma", "", "TP-1", "company", "is empty");
        refused("Uma", "Acme", "TP 1", "badge", "is not a badge number");
        refused("ted", "Acme", "TP-1", "", "Ted is already registered");
        refused("Uma", "Acme", "tp-100", "", "badge tp-100 is already Ted's");
    }

    #[test]
    fn a_tppp_works_one_table_within_its_limit() {
        let reg = [ted()];
        assert_eq!(check_mark("ted", "DHP-1", 1, &reg, &[]), Ok("Ted".into()));
        let cases = [
            ("Uma", "DHP-1", 1, marks(&[]), "is not a registered TPPP"),
            (
                "Ted",
                "DHP-1",
                1,
                marks(&[("DHP-1", "Ted")]),
                "already marked at DHP-1",
            ),
            (
                "Ted",
                "DHP-2",
                1,
                marks(&[("DHP-1", "Ted")]),
                "one table at a time",
            ),
            (
                "Ted",
                "DHP-2",
                1,
                marks(&[("DHP-2", "Zed")]),
                "allows 1 TPPP at a time",
            ),
            ("Ted", "DHP-2", 0, marks(&[]), "allows 0 TPPPs at a time"),
        ];
        for (name, table, max, m, want) in cases {
            let e = check_mark(name, table, max, &reg, &m).unwrap_err();
            assert!(e.to_string().contains(want), "{name} at {table}: {e}");
        }
        assert_eq!(
            check_unmark("TED", "DHP-1", &marks(&[("DHP-1", "Ted")])),
            Ok("Ted".into())
        );
        assert!(check_unmark("Ted", "DHP-2", &marks(&[("DHP-1", "Ted")])).is_err());
    }

    #[test]
    fn an_override_needs_a_clock_and_a_reason() {
        assert_eq!(
            check_override("DHP-1", true, " players asked to restart "),
            Ok("players asked to restart".into())
        );
        let e = check_override("DHP-1", true, "  ").unwrap_err();
        assert!(
            matches!(&e, ShiftRefusal::Invalid(fe) if fe.field() == "reason"),
            "{e}"
        );
        let e = check_override("DHP-1", false, "why").unwrap_err();
        assert!(e.to_string().contains("nothing to override"), "{e}");
    }
}
