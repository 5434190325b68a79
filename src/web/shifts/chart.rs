//! The shift report's charts, drawn on the server as SVG: one bar a label
//! (an hour, a table, a PD), each titled with its exact figure, a zero
//! line, and bars below it for a loss (PD results). The figures are also in
//! the report's tables: a chart is for looking, the table for reading.

use rust_decimal::prelude::ToPrimitive;

use crate::domain::common::money::Money;
use crate::web::svg::{Svg, SvgBuilder, whole};

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 200.0;
const LEFT: f64 = 8.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 34.0;

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

/// A bar chart of `bars` (left to right) titled `caption`.
pub fn bars_svg(id: &str, caption: &str, bars: &[Bar]) -> Svg {
    let mut s = SvgBuilder::default();
    let view = format!("0 0 {WIDTH} {HEIGHT}");
    s.open_chart("report-chart", id, &view, caption)
        .white_background(WIDTH, HEIGHT);
    let max = bars.iter().map(|b| b.value).fold(0.0_f64, f64::max);
    let min = bars.iter().map(|b| b.value).fold(0.0_f64, f64::min);
    let span = if max - min > 0.0 { max - min } else { 1.0 };
    let plot_h = HEIGHT - TOP - BOTTOM;
    let zero_y = TOP + plot_h * max / span;
    let n = bars.len().max(1) as f64;
    let slot = (WIDTH - 2.0 * LEFT) / n;
    let bar_w = (slot * 0.7).max(1.0);
    // Label every bar while they fit, else about twelve of them.
    let label_every = (bars.len() / 12).max(1);
    for (i, b) in bars.iter().enumerate() {
        let h = plot_h * b.value.abs() / span;
        let x = LEFT + slot * i as f64 + (slot - bar_w) / 2.0;
        let y = if b.value >= 0.0 { zero_y - h } else { zero_y };
        let fill = if b.value >= 0.0 { "#2563eb" } else { "#b91c1c" };
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
        if i % label_every == 0 {
            s.element(
                "text",
                &[
                    ("x", &whole(x + bar_w / 2.0)),
                    ("y", &whole(HEIGHT - BOTTOM + 14.0)),
                    ("text-anchor", &"middle"),
                    ("font-size", &11),
                    ("fill", &"#374151"),
                ],
                &b.label,
            );
        }
    }
    s.empty(
        "line",
        &[
            ("x1", &whole(LEFT)),
            ("x2", &whole(WIDTH - LEFT)),
            ("y1", &whole(zero_y)),
            ("y2", &whole(zero_y)),
            ("stroke", &"#6b7280"),
        ],
    );
    s.close("svg");
    s.finish()
}
