//! A shift's report page, `/shifts/{id}/report`: the room's and each
//! table's totals, the PDs, the players, each table's section and the
//! charts, printable one table a page.

use askama::Template;
use axum::extract::{Path, State};

use super::chart::{Bar, Chart, bars_svg};
use super::pages::{ShiftRow, row};
use super::report_lines::{PdLine, PlayerLine, TableSection, TotalsRow, totals_row};
use super::{readable_shift, report_now};
use crate::domain::shifts::report::{Report, Standing, standing};
use crate::domain::staff::{Action, allows};
use crate::web::staff::page as render;
use crate::web::svg::Svg;
use crate::web::time::{When, when};
use crate::web::{AppState, PageContext, PageResult, Staff};

#[derive(Template)]
#[template(path = "shifts/report.html")]
struct ReportPage {
    ctx: PageContext,
    can_manage: bool,
    shift: ShiftRow,
    report: Report,
    standing: Standing,
    from: When,
    to: When,
    /// The room's totals, then each real table's.
    room: TotalsRow,
    rows: Vec<TotalsRow>,
    training: TotalsRow,
    pds: Vec<PdLine>,
    players: Vec<PlayerLine>,
    tables: Vec<TableSection>,
    charts: Vec<Svg>,
    zone: String,
}

impl ReportPage {
    fn at(&self, utc: &str) -> String {
        when(chrono_tz::Tz::UTC, utc).utc
    }

    fn local(&self, utc: &str) -> String {
        when(self.zone.parse().unwrap_or(chrono_tz::Tz::UTC), utc).local
    }
}

/// `GET /shifts/{id}/report`.
pub(super) async fn report(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> PageResult {
    let shift = readable_shift(&state, &staff, &id).await?;
    let report = report_now(&state, &shift).await?;
    let tables: Vec<TableSection> = report.tables.iter().map(TableSection::from).collect();
    let rows: Vec<TotalsRow> = report
        .tables
        .iter()
        .filter(|t| !t.training)
        .map(|t| totals_row(&t.table, &format!("table-{}", t.table), &t.totals))
        .collect();
    let hours_drop: Vec<Bar> = report
        .hours
        .iter()
        .map(|h| Bar::money(&h.hour[11..], h.drop))
        .collect();
    let hours_hands: Vec<Bar> = report
        .hours
        .iter()
        .map(|h| Bar::count(&h.hour[11..], h.hands))
        .collect();
    let tables_drop: Vec<Bar> = report
        .tables
        .iter()
        .filter(|t| !t.training)
        .map(|t| Bar::money(&t.table, t.totals.drop))
        .collect();
    let pds: Vec<Bar> = report
        .pds
        .iter()
        .map(|p| Bar::money(&p.name, p.net))
        .collect();
    let hour = "hour (the cardroom's clock)";
    let drop = |id, title, x| Chart {
        id,
        title,
        x,
        y: "drop (money)",
        none: "No drop in this range.",
    };
    let hands = Chart {
        id: "chart-hands-hour",
        title: "Hands per hour",
        x: hour,
        y: "hands",
        none: "No hands in this range.",
    };
    let pd_results = Chart {
        id: "chart-pd-results",
        title: "PD results",
        x: "PD",
        y: "net (money)",
        none: "No PD result in this range.",
    };
    let charts = vec![
        bars_svg(&drop("chart-drop-hour", "Drop per hour", hour), &hours_drop),
        bars_svg(
            &drop("chart-drop-table", "Drop per table", "table"),
            &tables_drop,
        ),
        bars_svg(&hands, &hours_hands),
        bars_svg(&pd_results, &pds),
    ];
    Ok(render(&ReportPage {
        ctx: PageContext::of(&staff),
        can_manage: allows(staff.0.user.role, Action::ManageShifts),
        shift: row(&state, &shift),
        standing: standing(&shift, &report),
        from: when(state.time_zone, &report.scope.from),
        to: when(state.time_zone, &report.scope.to),
        room: totals_row("Room", "room", &report.room),
        training: totals_row("Training tables", "training", &report.training),
        rows,
        pds: report.pds.iter().map(PdLine::from).collect(),
        players: report.players.iter().map(PlayerLine::from).collect(),
        tables,
        charts,
        zone: state.time_zone.name().to_string(),
        report,
    }))
}
