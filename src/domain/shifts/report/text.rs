//! The report as text for a terminal or a plain printout: a heading, a
//! line of totals for the room and each table, then each section that has
//! something to say (PDs, rotation clocks, TPPPs, corrections and voids,
//! dealer changes), the anchors and the digest.

use super::{Report, Totals};

/// The report as text for a terminal or a plain printout.
pub fn text(report: &Report) -> String {
    let mut out = heading(report);
    totals_lines(&mut out, report);
    pds(&mut out, report);
    rotation_clocks(&mut out, report);
    tppps(&mut out, report);
    changes(&mut out, report);
    dealer_changes(&mut out, report);
    for a in &report.anchors {
        out.push_str(&format!(
            "Anchor: seq {} hash {} at {}\n",
            a.seq, a.hash, a.at
        ));
    }
    out.push_str(&format!("Digest: {}\n", report.digest));
    out
}

/// What the report covers, and its range.
fn heading(report: &Report) -> String {
    let s = &report.scope;
    let what = match (&s.shift, &s.table) {
        (Some(id), _) => format!("Shift {id}"),
        (None, Some(t)) => format!("Table {t}"),
        (None, None) => "The room".to_string(),
    };
    format!("{what}: {} to {}\n", s.from, s.to)
}

/// One line of totals for the room, then one for each table.
fn totals_lines(out: &mut String, report: &Report) {
    out.push_str(&totals_line("Room", &report.room));
    for t in &report.tables {
        let name = if t.training {
            format!("{} (training)", t.table)
        } else {
            t.table.clone()
        };
        out.push_str(&totals_line(&name, &t.totals));
    }
}

fn totals_line(name: &str, t: &Totals) -> String {
    format!(
        "{name:<16} {:>6} hands ({} closed, {} voided, {} corrected, {} open)  wagered {:>12}  drop {:>10} ({} an hour)  PDs {}\n",
        t.hands,
        t.closed,
        t.voided,
        t.corrected,
        t.open,
        t.wagered.to_canonical(),
        t.drop.to_canonical(),
        t.drop_per_hour.to_canonical(),
        t.pd_net.to_canonical(),
    )
}

fn pds(out: &mut String, report: &Report) {
    if report.pds.is_empty() {
        return;
    }
    out.push_str("\nPDs\n");
    for p in &report.pds {
        out.push_str(&format!(
            "  {:<24} {:>4} banks  banked {:>12}  net {:>12}\n",
            p.name,
            p.banks,
            p.banked.to_canonical(),
            p.net.to_canonical()
        ));
    }
}

/// Each table's rotation clock verdict, its breaks and its overrides.
fn rotation_clocks(out: &mut String, report: &Report) {
    for t in &report.tables {
        let Some(c) = &t.compliance else { continue };
        out.push_str(&format!(
            "\nPD rotation at {}: {} ({} players other than a TPPP every {} minutes)\n",
            t.table, c.verdict, c.min_other_players, c.minutes
        ));
        for b in &c.breaks {
            out.push_str(&format!(
                "  #{} opened at {} after the clock ran out at {}\n",
                b.number, b.opened_at, b.ran_out_at
            ));
        }
        for o in &c.overrides {
            out.push_str(&format!(
                "  override by {} at {}: {}\n",
                o.stamp.by, o.stamp.at, o.reason
            ));
        }
    }
}

fn tppps(out: &mut String, report: &Report) {
    if report.tppps.is_empty() {
        return;
    }
    out.push_str("\nTPPPs\n");
    for a in &report.tppps {
        out.push_str(&format!(
            "  {:<24} {} badge {}  {:>4} banks  banked {:>12}  net {:>12}\n",
            a.name,
            a.company,
            a.badge,
            a.banks,
            a.banked.to_canonical(),
            a.net.to_canonical()
        ));
    }
}

fn changes(out: &mut String, report: &Report) {
    if report.changes.is_empty() {
        return;
    }
    out.push_str("\nCorrections and voids\n");
    for c in &report.changes {
        out.push_str(&format!(
            "  {} #{} {} by {} at {}: {}\n",
            c.table, c.number, c.kind, c.by, c.at, c.reason
        ));
    }
}

fn dealer_changes(out: &mut String, report: &Report) {
    if report.dealer_changes.is_empty() {
        return;
    }
    out.push_str("\nDealer changes\n");
    for c in &report.dealer_changes {
        out.push_str(&format!(
            "  {} {}: {} (by {})\n",
            c.stamp.at,
            c.table,
            c.dealer.as_deref().unwrap_or("box left empty"),
            c.stamp.by
        ));
    }
}
