//! A kind's trend as a server-drawn SVG chart: the share answered right
//! of every ten attempts in turn as a line of points, each with its share
//! written above it and the last attempt it counts below, the pass mark's
//! accuracy as a dashed line, the axes named ("% right", "attempts, 10 a
//! point"); each point titled with its attempts, right answers and median
//! time.

use super::seconds;
use crate::domain::training::progress::{TREND_BLOCK, TrendPoint};
use crate::web::svg::{Svg, SvgBuilder, whole};

const WIDTH: f64 = 360.0;
const HEIGHT: f64 = 180.0;
const LEFT: f64 = 34.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 24.0;
const BOTTOM: f64 = 34.0;

/// Where a point goes: x by its place among the points, y by accuracy.
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

/// The chart of `trend` (oldest first) against the pass mark `mark_pct`.
pub(super) fn trend_svg(id: &str, caption: &str, trend: &[TrendPoint], mark_pct: u8) -> Svg {
    let mut s = SvgBuilder::default();
    let view = format!("0 0 {WIDTH} {HEIGHT}");
    s.open_chart("trend", id, &view, caption)
        .white_background(WIDTH, HEIGHT);
    grid_and_mark(&mut s, mark_pct);
    trend_points(&mut s, trend);
    attempt_labels(&mut s, trend);
    s.close("svg");
    s.finish()
}

/// The axis's name, the 0, 50 and 100% lines with their labels, and the
/// pass mark's accuracy as a dashed line.
fn grid_and_mark(s: &mut SvgBuilder, mark_pct: u8) {
    s.element(
        "text",
        &[
            ("x", &2),
            ("y", &12),
            ("font-size", &11),
            ("fill", &"#374151"),
        ],
        "% right",
    );
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

/// Each point's accuracy as a dot titled with its figures, its share
/// written above it, joined by a line.
fn trend_points(s: &mut SvgBuilder, trend: &[TrendPoint]) {
    let n = trend.len();
    let points: Vec<(f64, f64)> = trend
        .iter()
        .enumerate()
        .map(|(i, t)| point(i, n, t.pct() as f64))
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
    for (t, (x, y)) in trend.iter().zip(&points) {
        let title = format!(
            "attempts {}: {} right of {}, median {}",
            span(t),
            t.right,
            t.attempts(),
            seconds(t.median_ms)
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
            format!("{}%", t.pct()),
        );
    }
}

/// `11–20`, or `21` for a point of one attempt.
fn span(t: &TrendPoint) -> String {
    if t.first == t.last {
        t.first.to_string()
    } else {
        format!("{}\u{2013}{}", t.first, t.last)
    }
}

/// Under each point the last attempt it counts, and the axis's name.
fn attempt_labels(s: &mut SvgBuilder, trend: &[TrendPoint]) {
    let n = trend.len();
    for (i, t) in trend.iter().enumerate() {
        let (x, _) = point(i, n, 0.0);
        s.element(
            "text",
            &[
                ("x", &whole(x)),
                ("y", &whole(HEIGHT - 16.0)),
                ("text-anchor", &"middle"),
                ("font-size", &10),
                ("fill", &"#374151"),
                ("class", &"attempt"),
            ],
            t.last,
        );
    }
    s.element(
        "text",
        &[
            ("x", &whole(LEFT + (WIDTH - LEFT - RIGHT) / 2.0)),
            ("y", &whole(HEIGHT - 3.0)),
            ("text-anchor", &"middle"),
            ("font-size", &11),
            ("fill", &"#374151"),
        ],
        format!("attempts, {TREND_BLOCK} a point"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_point_is_titled_labelled_and_the_mark_a_dashed_line() {
        let trend = [
            TrendPoint {
                first: 1,
                last: 10,
                right: 5,
                median_ms: 9_000,
            },
            TrendPoint {
                first: 11,
                last: 14,
                right: 4,
                median_ms: 6_500,
            },
        ];
        let svg = trend_svg("t", "ACTION seat", &trend, 95).to_string();
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(
            svg.contains("attempts 1\u{2013}10: 5 right of 10, median 9.0 s"),
            "{svg}"
        );
        assert!(svg.contains("class=\"pass-mark\""));
        assert!(svg.contains(">pass mark 95%</text>"));
        assert!(svg.contains(r#"class="value">50%</text>"#), "{svg}");
        assert!(svg.contains(r#"class="value">100%</text>"#));
        assert!(svg.contains(r#"class="attempt">14</text>"#));
        assert!(svg.contains(">% right</text>") && svg.contains(">attempts, 10 a point</text>"));
        assert!(svg.contains("<polyline"));
    }
}
