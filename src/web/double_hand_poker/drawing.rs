//! The SVG drawing of a Double Hand Poker table: seats clockwise around the
//! rail, each with its number and its player's short name (the full name
//! in its `<title>`), the PD's bank and what is still in action above the
//! felt, the ACTION button, the wagers as chips, and the seat whose
//! settlement step is being read out — with the same state
//! in words (the SVG's `<title>`/`<desc>` and a list under "The table in
//! words"). Each label is laid out on the ray from its seat towards the
//! felt's middle, so no two labels overlap and the ACTION button stays on
//! the felt (the layout's tests check both); long names are shortened in
//! the drawing, never in the words. With a seat-link base each seat is a
//! link (`{page}?seat=N#{form}`, named "Seat N"). Built with
//! [`SvgBuilder`], so every name is escaped on the way in.

use crate::domain::common::money::Money;
use crate::domain::double_hand_poker::settle::WagerInput;
use crate::web::svg::{Attrs, Svg, SvgBuilder, whole};

/// One wager as the drawing shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnWager {
    pub seat: i64,
    pub bettor: String,
    pub amount: Money,
    pub backline: bool,
}

impl From<&WagerInput> for DrawnWager {
    fn from(w: &WagerInput) -> DrawnWager {
        DrawnWager {
            seat: w.seat,
            bettor: w.bettor.clone(),
            amount: w.amount,
            backline: w.backline,
        }
    }
}

/// What the drawing shows.
#[derive(Debug, Default)]
pub struct TableDrawing<'a> {
    pub seats: i64,
    pub pd_seat: Option<i64>,
    /// The PD's name.
    pub pd_player: Option<&'a str>,
    pub bank: Option<String>,
    pub action_seat: Option<i64>,
    pub wagers: Vec<DrawnWager>,
    /// The seat of the step being settled.
    pub current_seat: Option<i64>,
    /// The bank's money still in action, shown on the felt.
    pub in_action: Option<&'a str>,
    /// When set, each seat is a link that chooses it for a form.
    pub seat_link: Option<SeatLink<'a>>,
    /// Each decided seat's result (`player`, `pd` or `push`), coloured as
    /// the results step colours a tapped seat.
    pub results: Vec<(i64, &'static str)>,
}

/// Where a seat's link goes: `{page}?seat=N#{form}` (the hand's page, and
/// the form the seat is chosen for: `pd-form` or `wager-form`).
#[derive(Debug, Clone, Copy)]
pub struct SeatLink<'a> {
    pub page: &'a str,
    pub form: &'a str,
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 360.0;
/// The felt: the lower half of an ellipse centred on the dealer's edge.
const CX: f64 = 320.0;
const CY: f64 = 70.0;
const RX: f64 = 280.0;
const RY: f64 = 240.0;
/// Where every seat's ray points: above the dealer's edge, so a seat's
/// things fan out between its neighbours'.
const TOWARDS: (f64, f64) = (320.0, 80.0);
/// The PD's bank and what is in action: above the felt, below "Dealer".
const TOP_LINE_Y: f64 = 56.0;
/// A seat's circle: its number and its player's short name inside.
const SEAT_R: f64 = 30.0;
/// A seat link's round target: 80 units, 44 CSS px even at 390 px wide.
const LINK_R: f64 = 40.0;
/// Between a seat's circle and the first thing on its ray.
const GAP: f64 = 10.0;
/// The most characters of the PD's name the drawing shows ("…" after).
const NAME_CHARS: usize = 6;

/// The sizes labels are drawn at (the stylesheet's, in the drawing's
/// units). The drawing is 1.25 units a CSS pixel at 1024 px
/// (`.table-drawing`'s 50rem), so the smallest label is 14 px there.
#[derive(Debug, Clone, Copy)]
struct Sizes {
    font: f64,
    /// The width of one character at most.
    char_w: f64,
    /// Half the ACTION button's width and height.
    button: (f64, f64),
}

const SIZES: Sizes = Sizes {
    font: 11.2,
    char_w: 11.2 * 0.64,
    button: ((6.0 * 11.2 * 0.64 + 10.0) / 2.0, 11.2 * 0.95),
};

/// Where seat `seat` (1-based) sits: on the lower arc of the rail, seat 1
/// at the dealer's left (the viewer's right), clockwise from there.
fn seat_xy(seat: i64, seats: i64) -> (f64, f64) {
    // Seven seats or more span the rail; a smaller table sits closer
    // together round its middle.
    let pi = std::f64::consts::PI;
    let span = pi * (0.22 * (seats - 1) as f64).min(0.9);
    let start = (pi - span) / 2.0;
    let t = if seats > 1 {
        (seat - 1) as f64 / (seats - 1) as f64
    } else {
        0.5
    };
    let angle = start + span * t;
    (CX + RX * angle.cos(), CY + RY * angle.sin())
}

/// The unit vector of a seat's ray.
fn ray((x, y): (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (TOWARDS.0 - x, TOWARDS.1 - y);
    let len = dx.hypot(dy);
    (dx / len, dy / len)
}

/// A box drawn on the felt: its centre, half width and half height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Boxed {
    pub x: f64,
    pub y: f64,
    pub hw: f64,
    pub hh: f64,
}

#[cfg(test)]
impl Boxed {
    fn overlaps(&self, o: &Boxed) -> bool {
        (self.x - o.x).abs() < self.hw + o.hw && (self.y - o.y).abs() < self.hh + o.hh
    }
}

/// A box placed on a seat's ray, its near edge `from` units out; with how
/// far out its far edge is.
fn on_ray(seat: (f64, f64), u: (f64, f64), from: f64, hw: f64, hh: f64) -> (Boxed, f64) {
    // How far the box reaches along the ray from its centre.
    let reach = u.0.abs() * hw + u.1.abs() * hh;
    let d = from + reach;
    let at = Boxed {
        x: seat.0 + u.0 * d,
        y: seat.1 + u.1 * d,
        hw,
        hh,
    };
    (at, d + reach)
}

fn short(name: &str) -> String {
    if name.chars().count() <= NAME_CHARS {
        return name.to_string();
    }
    let cut: String = name.chars().take(NAME_CHARS - 1).collect();
    format!("{cut}…")
}

/// A seat's chips: their total; red all primary, blue all backline, red
/// edged blue both.
#[derive(Debug, Clone, PartialEq)]
struct Chips {
    total: String,
    class: &'static str,
}

/// One seat as laid out: the seat, its ACTION button, its tag.
struct SeatLayout {
    xy: (f64, f64),
    button: Option<Boxed>,
    tag: Option<(Boxed, Chips)>,
}

/// A label's width in characters: a comma or a point is half of one.
fn label_len(text: &str) -> f64 {
    text.chars()
        .map(|c| if matches!(c, ',' | '.') { 0.5 } else { 1.0 })
        .sum()
}

impl TableDrawing<'_> {
    fn layout(&self, seat: i64) -> SeatLayout {
        let z = SIZES;
        let xy = seat_xy(seat, self.seats);
        let u = ray(xy);
        let mut near = SEAT_R + GAP;
        let button = (self.action_seat == Some(seat)).then(|| {
            let (at, far) = on_ray(xy, u, near, z.button.0, z.button.1);
            near = far + 3.0;
            at
        });
        // The PD's seat has no chips: its bank is written above the felt.
        let chips: Vec<&DrawnWager> = self.wagers.iter().filter(|w| w.seat == seat).collect();
        let tag = (!chips.is_empty()).then(|| {
            // Wager amounts are bounded by the core (a few billions at most).
            let total = chips.iter().fold(Money::ZERO, |sum, w| sum + w.amount);
            let total = total.to_display();
            let class = match (
                chips.iter().any(|w| !w.backline),
                chips.iter().any(|w| w.backline),
            ) {
                (true, true) => "chip mixed",
                (false, true) => "chip backline",
                _ => "chip",
            };
            let half_width = (label_len(&total) * z.char_w + 8.0) / 2.0;
            let (at, _) = on_ray(xy, u, near, half_width, z.font * 0.8);
            (at, Chips { total, class })
        });
        SeatLayout { xy, button, tag }
    }

    /// The result drawn at `seat`, if decided.
    fn result(&self, seat: i64) -> Option<&'static str> {
        self.results
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, r)| *r)
    }

    /// Who sits at `seat` as far as the hand knows: the PD, else the
    /// bettor of the seat's own wager, else its first backline bettor.
    fn seat_player(&self, seat: i64) -> Option<&str> {
        if self.pd_seat == Some(seat) {
            return self.pd_player;
        }
        let at = || self.wagers.iter().filter(|w| w.seat == seat);
        at().find(|w| !w.backline)
            .or_else(|| at().next())
            .map(|w| w.bettor.as_str())
    }

    /// The state in words, one sentence a line.
    pub fn in_words(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let who = self.pd_player.unwrap_or("The PD");
        match (self.pd_seat, &self.bank) {
            (Some(seat), Some(bank)) => lines.push(format!("{who} banks {bank}, at seat {seat}.")),
            (Some(seat), None) => lines.push(format!("{who} sits at seat {seat}.")),
            _ => {}
        }
        if let Some(in_action) = self.in_action {
            lines.push(format!("In action: {in_action}."));
        }
        if let Some(seat) = self.action_seat {
            lines.push(format!("ACTION: seat {seat}."));
        }
        for seat in 1..=self.seats {
            let wagers: Vec<String> = self
                .wagers
                .iter()
                .filter(|w| w.seat == seat)
                .map(|w| {
                    let kind = if w.backline { " (backline)" } else { "" };
                    format!("{} {}{kind}", w.bettor, w.amount.to_display())
                })
                .collect();
            if !wagers.is_empty() {
                let result = match self.result(seat) {
                    Some("player") => ": the player wins",
                    Some("pd") => ": the PD wins",
                    Some(_) => ": a push",
                    None => "",
                };
                lines.push(format!("Seat {seat}: {}{result}.", wagers.join("; ")));
            }
        }
        if let Some(seat) = self.current_seat {
            lines.push(format!("Being settled: seat {seat}."));
        }
        if lines.is_empty() {
            lines.push(format!("{} seats; no PD yet, no wagers.", self.seats));
        }
        lines
    }

    pub fn svg(&self) -> Svg {
        let mut s = SvgBuilder::default();
        let view_box = format!("0 0 {WIDTH} {HEIGHT}");
        let words = self.in_words();
        // Links inside role="img" would be hidden from assistive technology.
        let role = if self.seat_link.is_some() {
            "group"
        } else {
            "img"
        };
        s.open(
            "svg",
            &[
                ("class", &"table-drawing"),
                ("viewBox", &view_box),
                ("role", &role),
                ("aria-labelledby", &"svg-title svg-desc"),
                ("xmlns", &"http://www.w3.org/2000/svg"),
            ],
        );
        s.element("title", &[("id", &"svg-title")], "The table");
        s.element("desc", &[("id", &"svg-desc")], words.join(" "));
        let (left, right) = (whole(CX - RX), whole(CX + RX));
        let felt = format!("M {left} {CY} A {RX} {RY} 0 0 0 {right} {CY} Z");
        s.empty(
            "path",
            &[
                ("d", &felt),
                ("fill", &"#0b6e4f"),
                ("stroke", &"#5a3b1a"),
                ("stroke-width", &14),
                ("aria-hidden", &"true"),
            ],
        );
        self.above_the_felt(&mut s);
        for seat in 1..=self.seats {
            self.seat(&mut s, seat);
        }
        s.close("svg");
        s.open("details", &[("class", &"in-words")])
            .element("summary", &[], "The table in words")
            .open("ul", &[("id", &"table-in-words")]);
        for line in &words {
            s.element("li", &[], line);
        }
        s.close("ul").close("details");
        s.finish()
    }

    /// Above the felt: the dealer's place, then the PD's bank and what of
    /// it is still in action.
    fn above_the_felt(&self, s: &mut SvgBuilder) {
        s.element(
            "text",
            &[
                ("x", &CX),
                ("y", &24),
                ("text-anchor", &"middle"),
                ("class", &"dealer"),
            ],
            "Dealer",
        );
        let line = |s: &mut SvgBuilder, x: f64, anchor: &str, id: &str, text: String| {
            let attrs = [
                ("x", &whole(x) as &dyn std::fmt::Display),
                ("y", &TOP_LINE_Y),
                ("text-anchor", &anchor),
                ("class", &"above"),
                ("id", &id),
            ];
            s.element("text", &attrs, text);
        };
        let bank = self.bank.as_ref().map(|b| format!("PD bank {b}"));
        let in_action = self.in_action.map(|a| format!("In action: {a}"));
        match (bank, in_action) {
            (Some(bank), Some(in_action)) => {
                line(s, CX - 10.0, "end", "svg-bank", bank);
                line(s, CX + 10.0, "start", "svg-in-action", in_action);
            }
            (Some(bank), None) => line(s, CX, "middle", "svg-bank", bank),
            (None, Some(in_action)) => line(s, CX, "middle", "svg-in-action", in_action),
            (None, None) => {}
        }
    }

    /// One seat: its circle (a link when the drawing has a seat-link base)
    /// with its number and player, the ACTION button, its chips' total.
    fn seat(&self, s: &mut SvgBuilder, seat: i64) {
        let l = self.layout(seat);
        let (x, y) = l.xy;
        let is_pd = self.pd_seat == Some(seat);
        let current = self.current_seat == Some(seat);
        let class = match (is_pd, current, self.result(seat)) {
            (_, true, _) => "seat current".to_string(),
            (true, false, _) => "seat pd".to_string(),
            (false, false, Some(r)) => format!("seat r-{r}"),
            _ => "seat".to_string(),
        };
        let (sx, sy) = (whole(x), whole(y));
        let link = self
            .seat_link
            .map(|to| format!("{}?seat={seat}#{}", to.page, to.form));
        if let Some(href) = &link {
            let name = format!("Seat {seat}");
            s.open(
                "a",
                &[
                    ("href", href),
                    ("class", &"seat-link"),
                    ("aria-label", &name),
                    ("data-in-place", &""),
                    ("data-tap-seat", &seat),
                ],
            )
            .empty(
                "circle",
                &[
                    ("cx", &sx),
                    ("cy", &sy),
                    ("r", &LINK_R),
                    ("class", &"target"),
                ],
            )
            // The seat is drawn over its link, which holds no text: the
            // link's name is its label alone.
            .close("a");
        }
        s.open("g", &[("class", &class), ("data-seat", &seat)])
            .empty("circle", &[("cx", &sx), ("cy", &sy), ("r", &SEAT_R)]);
        let name = self.seat_player(seat);
        let text = |s: &mut SvgBuilder, dy: f64, class: &str, line: String| {
            let ty = whole(y + dy);
            s.element(
                "text",
                &[
                    ("x", &sx),
                    ("y", &ty),
                    ("text-anchor", &"middle"),
                    ("class", &class),
                ],
                line,
            );
        };
        match name {
            Some(name) => {
                s.element("title", &[], format!("Seat {seat}: {name}"));
                text(s, -4.0, "seat-no", seat.to_string());
                text(s, 13.0, "seat-name", short(name));
            }
            None => text(s, 6.0, "seat-no", seat.to_string()),
        }
        s.close("g");
        if let Some(at) = l.button {
            action_button(s, at);
        }
        let Some((at, chips)) = &l.tag else {
            return;
        };
        let chip = [("class", &chips.class as &dyn std::fmt::Display)];
        boxed_label(s, &chip, *at, 6.0, &chips.total);
    }
}

/// The ACTION button: a white pill on its seat's ray.
fn action_button(s: &mut SvgBuilder, at: Boxed) {
    let button = [
        ("class", &"action-button" as &dyn std::fmt::Display),
        ("id", &"svg-action"),
    ];
    boxed_label(s, &button, at, at.hh, "ACTION");
}

/// A label in a box on the felt (`group` its `<g>`'s attributes): a seat's
/// chips, the ACTION button.
fn boxed_label(s: &mut SvgBuilder, group: Attrs<'_>, at: Boxed, corner: f64, text: &str) {
    s.open("g", group)
        .empty(
            "rect",
            &[
                ("x", &whole(at.x - at.hw)),
                ("y", &whole(at.y - at.hh)),
                ("width", &whole(2.0 * at.hw)),
                ("height", &whole(2.0 * at.hh)),
                ("rx", &whole(corner)),
            ],
        )
        .element(
            "text",
            &[
                ("x", &whole(at.x)),
                ("y", &whole(at.y + SIZES.font * 0.35)),
                ("text-anchor", &"middle"),
            ],
            text,
        )
        .close("g");
}

#[cfg(test)]
#[path = "drawing_tests.rs"]
mod tests;
