//! The drawing's words, its escaping, its seat links, and its layout: no two
//! things drawn overlap and the ACTION button stays on the felt, for every
//! table size, PD seat and ACTION seat, with long names and many wagers.

use super::*;

fn m(text: &str) -> Money {
    Money::parse(text).unwrap()
}

fn wager(seat: i64, bettor: &str, amount: &str, backline: bool) -> DrawnWager {
    DrawnWager {
        seat,
        bettor: bettor.into(),
        amount: m(amount),
        backline,
    }
}

#[test]
fn draws_every_seat_the_pd_the_button_and_escaped_wagers_and_says_them() {
    let drawing = TableDrawing {
        seats: 7,
        pd_seat: Some(1),
        pd_player: Some("Dana <PD>"),
        bank: Some("200.00".into()),
        action_seat: Some(4),
        wagers: vec![
            wager(4, "Ann", "60.00", false),
            wager(4, "<b>Bo</b>", "20.00", true),
        ],
        current_seat: Some(4),
        in_action: Some("140.00"),
        seat_link: None,
        results: Vec::new(),
    };
    let svg = drawing.svg().to_string();
    assert_eq!(svg.matches("data-seat=").count(), 7);
    assert!(svg.contains(r#"id="svg-action""#));
    assert!(svg.contains("In action: 140.00"));
    assert!(svg.contains(">80.00</text>"), "the seat's total");
    assert!(svg.contains(r#"<g class="chip mixed">"#));
    assert!(svg.contains("&lt;b&gt;Bo") && !svg.contains("<b>"));
    assert!(!svg.contains("<PD>"));
    assert!(svg.contains(r#"class="seat-name">Dana …</text>"#), "{svg}");
    assert!(
        svg.contains(r#"id="svg-bank">PD bank 200.00</text>"#),
        "{svg}"
    );
    assert!(
        svg.contains(r#"class="seat-name">Ann</text>"#),
        "a seat's own bettor"
    );
    assert!(
        svg.contains("<title>Seat 4: Ann</title>"),
        "the full name on the seat"
    );
    assert_eq!(svg.matches(r#"class="seat current""#).count(), 1);
    assert!(svg.contains(r#"role="img""#) && !svg.contains("<a "));
    assert_eq!(
        drawing.in_words(),
        [
            "Dana <PD> banks 200.00, at seat 1.",
            "In action: 140.00.",
            "ACTION: seat 4.",
            "Seat 4: Ann 60.00; <b>Bo</b> 20.00 (backline).",
            "Being settled: seat 4.",
        ]
    );
    // The words are in the SVG's description and in the list under it.
    assert!(svg.contains("<desc id=\"svg-desc\">Dana &lt;PD&gt; banks 200.00, at seat 1."));
    assert!(svg.contains("<li>Seat 4: Ann 60.00; &lt;b&gt;Bo&lt;/b&gt; 20.00 (backline).</li>"));
}

#[test]
fn decided_seats_are_coloured_and_said() {
    let d = TableDrawing {
        seats: 7,
        pd_seat: Some(1),
        wagers: vec![
            wager(3, "Ann", "20.00", false),
            wager(5, "Bo", "30.00", false),
        ],
        results: vec![(3, "player"), (5, "push")],
        ..TableDrawing::default()
    };
    let svg = d.svg().to_string();
    assert!(
        svg.contains(r#"<g class="seat r-player" data-seat="3">"#),
        "{svg}"
    );
    assert!(svg.contains(r#"<g class="seat r-push" data-seat="5">"#));
    let words = d.in_words();
    assert_eq!(words[0], "The PD sits at seat 1.");
    assert!(words.contains(&"Seat 3: Ann 20.00: the player wins.".to_string()));
    assert!(words.contains(&"Seat 5: Bo 30.00: a push.".to_string()));
}

#[test]
fn with_a_seat_link_base_each_seat_is_a_named_link_to_the_wager_form() {
    let svg = TableDrawing {
        seats: 8,
        seat_link: Some(SeatLink {
            page: "/hands/h-1\"x",
            form: "wager-form",
        }),
        ..TableDrawing::default()
    }
    .svg()
    .to_string();
    assert_eq!(svg.matches("<a ").count(), 8);
    assert!(svg.contains(
        r#"<a href="/hands/h-1&quot;x?seat=3#wager-form" class="seat-link" aria-label="Seat 3" data-in-place="" data-tap-seat="3">"#
    ));
    assert!(svg.contains(r#"role="group""#));
    assert!(svg.contains("<li>8 seats; no PD yet, no wagers.</li>"));
}

/// Everything one seat draws: (what, box, round).
fn boxes(l: &SeatLayout) -> Vec<(&'static str, Boxed, bool)> {
    let circle = |(x, y): (f64, f64), r: f64| Boxed { x, y, hw: r, hh: r };
    let mut v = vec![("seat", circle(l.xy, SEAT_R), true)];
    if let Some(b) = l.button {
        v.push(("button", b, false));
    }
    if let Some((at, _)) = &l.tag {
        v.push(("tag", *at, false));
    }
    v
}

/// Whether two things drawn overlap: circles by their centres' distance, a
/// circle and a box by the box's point nearest the circle's centre.
fn overlap(a: &(Boxed, bool), b: &(Boxed, bool)) -> bool {
    let circle_box = |c: &Boxed, b: &Boxed| {
        let nearest_x = c.x.clamp(b.x - b.hw, b.x + b.hw);
        let nearest_y = c.y.clamp(b.y - b.hh, b.y + b.hh);
        (c.x - nearest_x).hypot(c.y - nearest_y) < c.hw
    };
    match (a, b) {
        ((a, true), (b, true)) => (a.x - b.x).hypot(a.y - b.y) < a.hw + b.hw,
        ((c, true), (b, false)) | ((b, false), (c, true)) => circle_box(c, b),
        ((a, false), (b, false)) => a.overlaps(b),
    }
}

#[test]
fn nothing_drawn_overlaps_and_the_action_button_stays_on_the_felt() {
    let long = "Maximiliana Bartholomew-Featherstonehaugh";
    for seats in 2..=10 {
        for pd in 1..=seats {
            for action in 1..=seats {
                let wagers = (1..=seats)
                    .filter(|&s| s != pd)
                    .flat_map(|s| {
                        [
                            wager(s, long, "10000.00", false),
                            wager(s, long, "9999.99", true),
                            wager(s, long, "5000.00", true),
                        ]
                    })
                    .collect();
                let d = TableDrawing {
                    seats,
                    pd_seat: Some(pd),
                    pd_player: Some(long),
                    bank: Some("123,456.78".into()),
                    action_seat: Some(action),
                    wagers,
                    current_seat: None,
                    in_action: Some("123,456.78"),
                    seat_link: None,
                    results: Vec::new(),
                };
                let case = format!("{seats} seats, PD {pd}, ACTION {action}");
                // Above the felt: "Dealer", then the PD's bank and what is
                // in action at 15px bold, the whole width at most.
                let top_line = Boxed {
                    x: CX,
                    y: TOP_LINE_Y - 5.0,
                    hw: CX,
                    hh: 11.0,
                };
                let dealer = Boxed {
                    x: CX,
                    y: 20.0,
                    hw: 30.0,
                    hh: 10.0,
                };
                let mut all = vec![
                    (0, "bank and in action", (top_line, false)),
                    (0, "dealer", (dealer, false)),
                ];
                for seat in 1..=seats {
                    let l = d.layout(seat);
                    for (what, b, round) in boxes(&l) {
                        all.push((seat, what, (b, round)));
                    }
                    if let Some(Boxed { x, y, hw, hh }) = l.button {
                        let inside = |x: f64, y: f64| {
                            ((x - CX) / RX).powi(2) + ((y - CY) / RY).powi(2) < 0.9
                        };
                        let on_felt =
                            inside(x - hw, y + hh) && inside(x + hw, y + hh) && y - hh > CY + 7.0;
                        assert!(on_felt, "{case}: the button is off the felt at {x},{y}");
                    }
                    if let Some((_, chips)) = &l.tag {
                        assert_eq!(
                            (chips.total.as_str(), chips.class),
                            ("24,999.99", "chip mixed")
                        );
                    }
                }
                for (i, (sa, wa, a)) in all.iter().enumerate() {
                    let b = a.0;
                    let inside = b.x - b.hw >= 0.0
                        && b.x + b.hw <= WIDTH
                        && b.y - b.hh >= 0.0
                        && b.y + b.hh <= HEIGHT;
                    assert!(inside, "{case}: seat {sa} {wa} outside the drawing: {b:?}");
                    for (sb, wb, other) in &all[i + 1..] {
                        assert!(
                            !overlap(a, other),
                            "{case}: seat {sa} {wa} {a:?} overlaps seat {sb} {wb} {other:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn long_names_are_shortened_in_the_drawing_only() {
    assert_eq!(short("Ann"), "Ann");
    assert_eq!(short("Maximiliana Bartholomew"), "Maxim…");
    let d = TableDrawing {
        seats: 7,
        pd_seat: Some(2),
        pd_player: Some("Maximiliana Bartholomew"),
        bank: Some("200.00".into()),
        ..TableDrawing::default()
    };
    let svg = d.svg().to_string();
    assert!(svg.contains(r#"class="seat-name">Maxim…</text>"#), "{svg}");
    assert!(svg.contains("<title>Seat 2: Maximiliana Bartholomew</title>"));
    assert!(d.in_words()[0].starts_with("Maximiliana Bartholomew banks"));
}
