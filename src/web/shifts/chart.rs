//! The shift report's charts, drawn on the server as SVG, readable without
//! hovering: a title, the axes named with their unit, each bar's figure
//! at the bar (while bars are wide enough to hold it; its title always),
//! a zero line, bars below it for a loss (PD results), and a series of
//! nothing said in words. The figures are also in the report's tables.

use rust_decimal::prelude::ToPrimitive;

use crate::domain::common::money::Money;
use crate::web::svg::{Svg, SvgBuilder, whole};

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 320.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 8.0;
/// Above the plot: the title and the y axis's name.
const TOP: f64 = 70.0;
/// Below it: the labels and the x axis's name.
const BOTTOM: f64 = 62.0;
/// The labels' size (the stylesheet's, in the chart's units): 14 px on a
/// chart drawn 480 px wide, two charts a row at 1024 px.
const FONT: f64 = 19.0;
/// The narrowest bar slot that holds its figure (about eight digits).
const SLOT_FOR_FIGURE: f64 = 92.0;

/// One bar: its label, its value, and the figure its title gives.
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub shown: String,
}

impl Bar {
    pub fn money(label: &str, m: Money) -> Bar {
        Bar {
            label: label.to_string(),
            value: m.as_decimal().to_f64().unwrap_or(0.0),
            shown: m.to_display(),
        }
    }

    pub fn count(label: &str, n: u64) -> Bar {
        Bar {
            label: label.to_string(),
            value: n as f64,
            shown: n.to_string(),
        }
    }
}

/// What a chart says around its bars: its title, its axes' names
/// ("Drop per hour"; "hour (the cardroom's clock)"; "drop (money)") and
/// what it says when every bar is nothing ("No drop in this range.").
pub struct Chart<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub x: &'a str,
    pub y: &'a str,
    pub none: &'a str,
}

/// A bar chart of `bars`, left to right.
pub fn bars_svg(chart: &Chart<'_>, bars: &[Bar]) -> Svg {
    let mut s = SvgBuilder::default();
    let view = format!("0 0 {WIDTH} {HEIGHT}");
    s.open_chart("report-chart", chart.id, &view, chart.title)
        .white_background(WIDTH, HEIGHT);
    let text = |s: &mut SvgBuilder, (x, y): (f64, f64), anchor: &str, class: &str, t: &str| {
        let at = (whole(x), whole(y));
        s.element(
            "text",
            &[
                ("x", &at.0),
                ("y", &at.1),
                ("text-anchor", &anchor),
                ("class", &class),
            ],
            t,
        );
    };
    let (title, y_axis, x_axis) = (
        (WIDTH / 2.0, 28.0),
        (LEFT, 58.0),
        (WIDTH / 2.0, HEIGHT - 8.0),
    );
    text(&mut s, title, "middle", "chart-title", chart.title);
    text(&mut s, y_axis, "start", "chart-axis", chart.y);
    text(&mut s, x_axis, "middle", "chart-axis", chart.x);
    if bars.iter().all(|b| b.value == 0.0) {
        let middle = (WIDTH / 2.0, TOP + (HEIGHT - TOP - BOTTOM) / 2.0);
        text(&mut s, middle, "middle", "chart-empty", chart.none);
        s.close("svg");
        return s.finish();
    }
    plot(&mut s, bars);
    s.close("svg");
    s.finish()
}

/// The bars, their labels and figures, and the zero line.
fn plot(s: &mut SvgBuilder, bars: &[Bar]) {
    let max = bars.iter().map(|b| b.value).fold(0.0_f64, f64::max);
    let min = bars.iter().map(|b| b.value).fold(0.0_f64, f64::min);
    let span = max - min;
    // Room for a figure above the tallest bar and below the lowest.
    let plot_h = HEIGHT - TOP - BOTTOM - 2.0 * FONT;
    let zero_y = TOP + FONT + plot_h * max / span;
    let slot = (WIDTH - LEFT - RIGHT) / bars.len() as f64;
    let bar_w = (slot * 0.7).max(1.0);
    let figures = slot >= SLOT_FOR_FIGURE;
    // Label every bar while they fit, else about twelve of them.
    let label_every = (bars.len() / 12).max(1);
    for (i, b) in bars.iter().enumerate() {
        let h = plot_h * b.value.abs() / span;
        let x = LEFT + slot * i as f64 + (slot - bar_w) / 2.0;
        let mid = whole(x + bar_w / 2.0);
        let (y, fill, figure_y) = match b.value >= 0.0 {
            true => (zero_y - h, "#2563eb", zero_y - h - 4.0),
            false => (zero_y, "#b91c1c", zero_y + h + FONT),
        };
        s.open(
            "rect",
            &[
                ("x", &whole(x)),
                ("y", &whole(y)),
                ("width", &whole(bar_w)),
                ("height", &whole(h.max(1.0))),
                ("fill", &fill),
            ],
        );
        s.element("title", &[], format!("{}: {}", b.label, b.shown));
        s.close("rect");
        let label = |s: &mut SvgBuilder, y: f64, class: &str, t: &str| {
            let y = whole(y);
            s.element(
                "text",
                &[
                    ("x", &mid),
                    ("y", &y),
                    ("text-anchor", &"middle"),
                    ("class", &class),
                ],
                t,
            );
        };
        if figures {
            label(s, figure_y, "chart-figure", &b.shown);
        }
        if i % label_every == 0 {
            label(s, HEIGHT - BOTTOM + 24.0, "chart-label", &b.label);
        }
    }
    s.empty(
        "line",
        &[
            ("x1", &whole(LEFT)),
            ("x2", &whole(WIDTH - RIGHT)),
            ("y1", &whole(zero_y)),
            ("y2", &whole(zero_y)),
            ("stroke", &"#6b7280"),
        ],
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOURS: Chart<'static> = Chart {
        id: "chart-drop-hour",
        title: "Drop per hour",
        x: "hour (the cardroom's clock)",
        y: "drop (money)",
        none: "No drop in this range.",
    };

    #[test]
    fn a_chart_reads_without_hovering() {
        let bars = [
            Bar::money("18:00", Money::from_units(1250)),
            Bar::money("19:00", Money::from_units(-40)),
        ];
        let svg = bars_svg(&HOURS, &bars).to_string();
        for visible in [
            r#"class="chart-title">Drop per hour</text>"#,
            r#"class="chart-axis">drop (money)</text>"#,
            r#"class="chart-axis">hour (the cardroom&#39;s clock)</text>"#,
            r#"class="chart-figure">1,250.00</text>"#,
            r#"class="chart-figure">−40.00</text>"#,
            r#"class="chart-label">18:00</text>"#,
        ] {
            assert!(svg.contains(visible), "{visible} in {svg}");
        }
    }

    #[test]
    fn an_empty_series_says_so() {
        for bars in [vec![], vec![Bar::count("18:00", 0)]] {
            let svg = bars_svg(&HOURS, &bars).to_string();
            assert!(svg.contains("No drop in this range."), "{svg}");
            assert!(svg.contains("Drop per hour"), "the title still");
            assert!(!svg.contains("<rect x=\"40\""), "no bars: {svg}");
        }
    }

    #[test]
    fn many_bars_keep_their_figures_in_their_titles() {
        let bars: Vec<Bar> = (0..24)
            .map(|h| Bar::count(&format!("{h:02}:00"), h))
            .collect();
        let svg = bars_svg(&HOURS, &bars).to_string();
        assert!(!svg.contains("chart-figure"), "too narrow for figures");
        assert!(svg.contains("<title>23:00: 23</title>"));
        assert_eq!(
            svg.matches("chart-label").count(),
            12,
            "every other hour labelled"
        );
    }
}
