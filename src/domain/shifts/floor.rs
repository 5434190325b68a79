//! The floor at a glance: what calls a supervisor to a table. A pure
//! function of what each table is doing now; the shell reads the tables,
//! their hands, shifts and rotation clocks and shows the alerts first.

/// Minutes a hand may stay open before the floor calls it out, unless the
/// room sets its own (`--hand-alert-mins`).
pub const HAND_ALERT_MINUTES_DEFAULT: i64 = 20;

/// One table now, as far as the floor's alerts go.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TableNow {
    pub table: String,
    /// The hand in progress: its number and how many minutes it has been open.
    pub open_hand: Option<(i64, i64)>,
    /// Whether an open shift covers the table.
    pub in_shift: bool,
    /// The dealer in the box under that shift (None: the box is empty or
    /// no dealer change was recorded).
    pub dealer_in_box: Option<String>,
    /// The rotation clock's state (`idle`, `running`, `warning`, `expired`),
    /// at a table under a rotation rule.
    pub clock: Option<&'static str>,
    /// The rotation's latest override here this shift, in words ("at 18:40
    /// by sup.kim: a TPPP's game ran over").
    pub overridden: Option<String>,
}

/// Something the floor calls out at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alert {
    pub table: String,
    pub words: String,
    /// `danger` or `warning`: how it looks.
    pub kind: &'static str,
}

/// The alerts of `tables`, a table's in the order checked: a hand open
/// longer than `limit_minutes`, a shift with nobody in the box, a rotation
/// clock run out or about to, a rotation overridden this shift.
pub fn alerts(tables: &[TableNow], limit_minutes: i64) -> Vec<Alert> {
    let mut out = Vec::new();
    for t in tables {
        let mut say = |kind, words: String| {
            out.push(Alert {
                table: t.table.clone(),
                words,
                kind,
            })
        };
        if let Some((number, minutes)) = t.open_hand.filter(|(_, m)| *m > limit_minutes) {
            let words =
                format!("hand #{number} open {minutes} min (the room allows {limit_minutes})");
            say("warning", words);
        }
        if t.in_shift && t.dealer_in_box.is_none() {
            say("warning", "in a shift with nobody in the box".to_string());
        }
        match t.clock {
            Some("expired") => say("danger", "the PD rotation clock has run out".to_string()),
            Some("warning") => say(
                "warning",
                "the PD rotation clock is about to run out".to_string(),
            ),
            _ => {}
        }
        if let Some(words) = &t.overridden {
            say("danger", format!("the PD rotation was overridden {words}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str) -> TableNow {
        TableNow {
            table: name.to_string(),
            ..TableNow::default()
        }
    }

    #[test]
    fn the_floor_calls_out_what_needs_a_supervisor() {
        let quiet = TableNow {
            open_hand: Some((3, 20)),
            in_shift: true,
            dealer_in_box: Some("dana".into()),
            clock: Some("running"),
            ..table("A")
        };
        let busy = TableNow {
            open_hand: Some((12, 42)),
            in_shift: true,
            dealer_in_box: None,
            clock: Some("expired"),
            ..table("B")
        };
        let idle = TableNow {
            clock: Some("warning"),
            overridden: Some("at 18:40 by sup.kim: the game ran over".into()),
            ..table("C")
        };
        let got: Vec<(String, String, &str)> = alerts(&[quiet, busy, idle], 20)
            .into_iter()
            .map(|a| (a.table, a.words, a.kind))
            .collect();
        let want = [
            ("B", "hand #12 open 42 min (the room allows 20)", "warning"),
            ("B", "in a shift with nobody in the box", "warning"),
            ("B", "the PD rotation clock has run out", "danger"),
            ("C", "the PD rotation clock is about to run out", "warning"),
            (
                "C",
                "the PD rotation was overridden at 18:40 by sup.kim: the game ran over",
                "danger",
            ),
        ];
        let want: Vec<(String, String, &str)> = want
            .iter()
            .map(|(t, w, k)| (t.to_string(), w.to_string(), *k))
            .collect();
        assert_eq!(got, want, "a hand open exactly the limit is not called out");
    }
}
