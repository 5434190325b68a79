//! The SVG drawing of a Double Hand Poker table: seats clockwise around the
//! rail, the PD and its bank, the ACTION button, the wagers as chips, and
//! the seat whose settlement step is being read out. Built as text here, so
//! every name is escaped on the way in.

use std::fmt::Write;

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

/// Escapes text for SVG/HTML content and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

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
    pub fn svg(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            r##"<svg class="table-drawing" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="Table drawing" xmlns="http://www.w3.org/2000/svg">"##
        );
        s.push_str(r##"<path d="M 40 70 A 280 240 0 0 0 600 70 Z" fill="#0b6e4f" stroke="#5a3b1a" stroke-width="14"/>"##);
        s.push_str(r##"<text x="320" y="40" text-anchor="middle" class="dealer">Dealer</text>"##);
        if let Some(in_action) = self.in_action {
            let _ = write!(
                s,
                r##"<text x="320" y="140" text-anchor="middle" class="in-action" id="svg-in-action">In action: {}</text>"##,
                escape(in_action)
            );
        }
        for seat in 1..=self.seats {
            let (x, y) = seat_xy(seat, self.seats);
            let is_pd = self.pd_seat == Some(seat);
            let current = self.current_seat == Some(seat);
            let class = match (is_pd, current) {
                (_, true) => "seat current",
                (true, false) => "seat pd",
                _ => "seat",
            };
            let _ = write!(
                s,
                r##"<g class="{class}" data-seat="{seat}"><circle cx="{x:.0}" cy="{y:.0}" r="24"/><text x="{x:.0}" y="{:.0}" text-anchor="middle">{seat}</text></g>"##,
                y + 6.0
            );
            if is_pd {
                let bank = self.bank.as_deref().map(escape).unwrap_or_default();
                let _ = write!(
                    s,
                    r##"<text x="{x:.0}" y="{:.0}" text-anchor="middle" class="pd-label">PD {bank}</text>"##,
                    y + 44.0
                );
            }
            if self.action_seat == Some(seat) {
                let _ = write!(
                    s,
                    r##"<g class="action-button" id="svg-action"><circle cx="{:.0}" cy="{:.0}" r="16"/><text x="{:.0}" y="{:.0}" text-anchor="middle">ACTION</text></g>"##,
                    x,
                    y - 44.0,
                    x,
                    y - 41.0
                );
            }
            // Chips between the seat and the centre, one per wager.
            let chips: Vec<_> = self.wagers.iter().filter(|w| w.0 == seat).collect();
            for (i, (_, amount, backline)) in chips.iter().enumerate() {
                let (cx, cy) = (
                    320.0 + (x - 320.0) * 0.62,
                    70.0 + (y - 70.0) * 0.62 - i as f64 * 22.0,
                );
                let class = if *backline { "chip backline" } else { "chip" };
                let _ = write!(
                    s,
                    r##"<g class="{class}"><circle cx="{cx:.0}" cy="{cy:.0}" r="10"/><text x="{:.0}" y="{:.0}">{}</text></g>"##,
                    cx + 14.0,
                    cy + 5.0,
                    escape(amount)
                );
            }
        }
        s.push_str("</svg>");
        s
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
        .svg();
        assert_eq!(svg.matches("data-seat=").count(), 7);
        assert!(svg.contains("PD 200.00"));
        assert!(svg.contains(r#"id="svg-action""#));
        assert!(svg.contains("In action: 140.00"));
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"));
        assert_eq!(svg.matches(r#"class="seat current""#).count(), 1);
    }
}
