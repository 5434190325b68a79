//! A kind's trend as a server-drawn SVG chart: each day's accuracy (the
//! share of that day's attempts answered right) as a line of points, the
//! pass mark's accuracy as a dashed line, each point titled with its day,
//! right answers, attempts and median time.

use super::{day_text, seconds};
use crate::domain::training::progress::DayPoint;
use crate::web::svg::{Svg, SvgBuilder, whole};

const WIDTH: f64 = 360.0;
const HEIGHT: f64 = 150.0;
const LEFT: f64 = 34.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 26.0;
/// The most days whose values are written at their points.
const LABELLED_DAYS_MAX: usize = 14;

/// Where a day's point goes: x by its place among the days, y by accuracy.
fn point(i: usize, n: usize, pct: f64) -> (f64, f64) {
    let plot_w = WIDTH - LEFT - RIGHT;
    let x = if n <= 1 {
        LEFT + plot_w / 2.0
    } else {
        LEFT + plot_w * i as f64 / (n - 1) as f64
    };
    let y = TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - pct / 100.0);
    (x, y)
}

/// The chart of `days` (oldest first) against the pass mark `mark_pct`.
pub(super) fn trend_svg(id: &str, caption: &str, days: &[DayPoint], mark_pct: u8) -> Svg {
    let mut s = SvgBuilder::default();
    let view = format!("0 0 {WIDTH} {HEIGHT}");
    s.open_chart("trend", id, &view, caption)
        .white_background(WIDTH, HEIGHT);
    grid_and_mark(&mut s, mark_pct);
    day_points(&mut s, days);
    day_labels(&mut s, days);
    s.close("svg");
    s.finish()
}

/// The 0, 50 and 100% lines with their labels, and the pass mark's
/// accuracy as a dashed line.
fn grid_and_mark(s: &mut SvgBuilder, mark_pct: u8) {
    for pct in [0u8, 50, 100] {
        let (_, y) = point(0, 2, f64::from(pct));
        let (x0, x1) = (whole(LEFT), whole(WIDTH - RIGHT));
        s.empty(
            "line",
            &[
                ("x1", &x0),
                ("x2", &x1),
                ("y1", &whole(y)),
                ("y2", &whole(y)),
                ("stroke", &"#d1d5db"),
            ],
        );
        let label = format!("{pct}%");
        s.element(
            "text",
            &[
                ("x", &whole(LEFT - 4.0)),
                ("y", &whole(y + 4.0)),
                ("text-anchor", &"end"),
                ("font-size", &11),
                ("fill", &"#374151"),
            ],
            label,
        );
    }
    let (_, mark_y) = point(0, 2, f64::from(mark_pct));
    s.empty(
        "line",
        &[
            ("class", &"pass-mark"),
            ("x1", &whole(LEFT)),
            ("x2", &whole(WIDTH - RIGHT)),
            ("y1", &whole(mark_y)),
            ("y2", &whole(mark_y)),
            ("stroke", &"#b45309"),
            ("stroke-dasharray", &"5 4"),
        ],
    );
    s.element(
        "text",
        &[
            ("x", &whole(WIDTH - RIGHT)),
            ("y", &whole(mark_y - 4.0)),
            ("text-anchor", &"end"),
            ("font-size", &11),
            ("fill", &"#b45309"),
        ],
        format!("pass mark {mark_pct}%"),
    );
}

/// Each day's accuracy as a point titled with its figures, joined by a line.
fn day_points(s: &mut SvgBuilder, days: &[DayPoint]) {
    let n = days.len();
    let points: Vec<(f64, f64)> = days
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let pct = 100.0 * d.right as f64 / d.attempts.max(1) as f64;
            point(i, n, pct)
        })
        .collect();
    if n > 1 {
        let line = points
            .iter()
            .map(|(x, y)| format!("{},{}", whole(*x), whole(*y)))
            .collect::<Vec<_>>()
            .join(" ");
        s.empty(
            "polyline",
            &[
                ("points", &line),
                ("fill", &"none"),
                ("stroke", &"#1d4ed8"),
                ("stroke-width", &2),
            ],
        );
    }
    for (d, (x, y)) in days.iter().zip(&points) {
        let title = format!(
            "{}: {} right of {}, median {}",
            day_text(d.day),
            d.right,
            d.attempts,
            seconds(d.median_ms)
        );
        s.open(
            "circle",
            &[
                ("cx", &whole(*x)),
                ("cy", &whole(*y)),
                ("r", &4),
                ("fill", &"#1d4ed8"),
            ],
        )
        .element("title", &[], title)
        .close("circle");
        // Each day's share at its point, while the points stand apart.
        if n <= LABELLED_DAYS_MAX {
            let pct = d.right * 100 / d.attempts.max(1);
            let ly = if *y < TOP + 14.0 { y + 16.0 } else { y - 8.0 };
            s.element(
                "text",
                &[
                    ("x", &whole(*x)),
                    ("y", &whole(ly)),
                    ("text-anchor", &"middle"),
                    ("font-size", &11),
                    ("fill", &"#1e3a8a"),
                    ("class", &"value"),
                ],
                format!("{pct}%"),
            );
        }
    }
}

/// The first and the last day under the chart.
fn day_labels(s: &mut SvgBuilder, days: &[DayPoint]) {
    let n = days.len();
    if let (Some(first), Some(last)) = (days.first(), days.last()) {
        let y = whole(HEIGHT - 8.0);
        s.element(
            "text",
            &[
                ("x", &whole(LEFT)),
                ("y", &y),
                ("font-size", &11),
                ("fill", &"#374151"),
            ],
            day_text(first.day),
        );
        if n > 1 {
            s.element(
                "text",
                &[
                    ("x", &whole(WIDTH - RIGHT)),
                    ("y", &y),
                    ("text-anchor", &"end"),
                    ("font-size", &11),
                    ("fill", &"#374151"),
                ],
                day_text(last.day),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_day_is_a_titled_point_and_the_mark_a_dashed_line() {
        let days = [
            DayPoint {
                day: 20_000,
                attempts: 4,
                right: 2,
                median_ms: 9_000,
            },
            DayPoint {
                day: 20_001,
                attempts: 5,
                right: 5,
                median_ms: 6_500,
            },
        ];
        let svg = trend_svg("t", "ACTION seat by day", &days, 95).to_string();
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(
            svg.contains("2024-10-04: 2 right of 4, median 9.0 s"),
            "{svg}"
        );
        assert!(svg.contains("class=\"pass-mark\""));
        assert!(svg.contains(">pass mark 95%</text>"));
        assert!(svg.contains(r#"class="value">50%</text>"#), "{svg}");
        assert!(svg.contains(r#"class="value">100%</text>"#));
        assert!(svg.contains("<polyline"));
    }
}
