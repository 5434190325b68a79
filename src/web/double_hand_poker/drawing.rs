//! The SVG drawing of a Double Hand Poker table: seats clockwise around the
//! rail, the PD and its bank, the ACTION button, the wagers as chips, and
//! the seat whose settlement step is being read out. Built with
//! [`SvgBuilder`], so every name is escaped on the way in.

use crate::web::svg::{Svg, SvgBuilder, whole};

/// What the drawing shows.
#[derive(Debug, Default)]
pub struct TableDrawing<'a> {
    pub seats: i64,
    pub pd_seat: Option<i64>,
    pub bank: Option<String>,
    pub action_seat: Option<i64>,
    /// (seat, amount text, backline) per wager.
    pub wagers: Vec<(i64, String, bool)>,
    /// The seat of the step being settled.
    pub current_seat: Option<i64>,
    /// The bank's money still in action, shown on the felt.
    pub in_action: Option<&'a str>,
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 360.0;

/// Where seat `seat` (1-based) sits: on the lower arc of the rail, seat 1
/// at the dealer's left (the viewer's right), clockwise from there.
fn seat_xy(seat: i64, seats: i64) -> (f64, f64) {
    let span = std::f64::consts::PI * 0.9;
    let start = std::f64::consts::PI * 0.05;
    let t = if seats > 1 {
        (seat - 1) as f64 / (seats - 1) as f64
    } else {
        0.5
    };
    let angle = start + span * t;
    let (cx, cy) = (WIDTH / 2.0, 70.0);
    (cx + 280.0 * angle.cos(), cy + 240.0 * angle.sin())
}

impl TableDrawing<'_> {
    pub fn svg(&self) -> Svg {
        let mut s = SvgBuilder::default();
        let view_box = format!("0 0 {WIDTH} {HEIGHT}");
        s.open(
            "svg",
            &[
                ("class", &"table-drawing"),
                ("viewBox", &view_box),
                ("role", &"img"),
                ("aria-label", &"Table drawing"),
                ("xmlns", &"http://www.w3.org/2000/svg"),
            ],
        );
        s.empty(
            "path",
            &[
                ("d", &"M 40 70 A 280 240 0 0 0 600 70 Z"),
                ("fill", &"#0b6e4f"),
                ("stroke", &"#5a3b1a"),
                ("stroke-width", &14),
            ],
        );
        s.element(
            "text",
            &[
                ("x", &320),
                ("y", &40),
                ("text-anchor", &"middle"),
                ("class", &"dealer"),
            ],
            "Dealer",
        );
        if let Some(in_action) = self.in_action {
            s.element(
                "text",
                &[
                    ("x", &320),
                    ("y", &140),
                    ("text-anchor", &"middle"),
                    ("class", &"in-action"),
                    ("id", &"svg-in-action"),
                ],
                format!("In action: {in_action}"),
            );
        }
        for seat in 1..=self.seats {
            self.seat(&mut s, seat);
        }
        s.close("svg");
        s.finish()
    }

    /// One seat: its circle, the PD's bank, the ACTION button, its chips.
    fn seat(&self, s: &mut SvgBuilder, seat: i64) {
        let (x, y) = seat_xy(seat, self.seats);
        let is_pd = self.pd_seat == Some(seat);
        let current = self.current_seat == Some(seat);
        let class = match (is_pd, current) {
            (_, true) => "seat current",
            (true, false) => "seat pd",
            _ => "seat",
        };
        let (sx, sy) = (whole(x), whole(y));
        s.open("g", &[("class", &class), ("data-seat", &seat)])
            .empty("circle", &[("cx", &sx), ("cy", &sy), ("r", &24)])
            .element(
                "text",
                &[
                    ("x", &sx),
                    ("y", &whole(y + 6.0)),
                    ("text-anchor", &"middle"),
                ],
                seat,
            )
            .close("g");
        if is_pd {
            let bank = self.bank.as_deref().unwrap_or_default();
            s.element(
                "text",
                &[
                    ("x", &sx),
                    ("y", &whole(y + 44.0)),
                    ("text-anchor", &"middle"),
                    ("class", &"pd-label"),
                ],
                format!("PD {bank}"),
            );
        }
        if self.action_seat == Some(seat) {
            s.open("g", &[("class", &"action-button"), ("id", &"svg-action")])
                .empty(
                    "circle",
                    &[("cx", &sx), ("cy", &whole(y - 44.0)), ("r", &16)],
                )
                .element(
                    "text",
                    &[
                        ("x", &sx),
                        ("y", &whole(y - 41.0)),
                        ("text-anchor", &"middle"),
                    ],
                    "ACTION",
                )
                .close("g");
        }
        // Chips between the seat and the centre, one per wager.
        let chips = self.wagers.iter().filter(|w| w.0 == seat);
        for (i, (_, amount, backline)) in chips.enumerate() {
            let (cx, cy) = (
                320.0 + (x - 320.0) * 0.62,
                70.0 + (y - 70.0) * 0.62 - i as f64 * 22.0,
            );
            let class = if *backline { "chip backline" } else { "chip" };
            s.open("g", &[("class", &class)])
                .empty(
                    "circle",
                    &[("cx", &whole(cx)), ("cy", &whole(cy)), ("r", &10)],
                )
                .element(
                    "text",
                    &[("x", &whole(cx + 14.0)), ("y", &whole(cy + 5.0))],
                    amount,
                )
                .close("g");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_seat_the_pd_the_button_and_escaped_wagers() {
        let svg = TableDrawing {
            seats: 7,
            pd_seat: Some(1),
            bank: Some("200.00".into()),
            action_seat: Some(4),
            wagers: vec![(4, "60.00".into(), false), (4, "<b>".into(), true)],
            current_seat: Some(4),
            in_action: Some("140.00"),
        }
        .svg()
        .to_string();
        assert_eq!(svg.matches("data-seat=").count(), 7);
        assert!(svg.contains("PD 200.00"));
        assert!(svg.contains(r#"id="svg-action""#));
        assert!(svg.contains("In action: 140.00"));
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"));
        assert_eq!(svg.matches(r#"class="seat current""#).count(), 1);
    }
}
