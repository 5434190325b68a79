//! Player names typed on the kept games' start forms are the core's free
//! text on every path: a look-alike (a zero-width or bidi character, a
//! control character) or a second spelling of a name already at the table
//! ("Jose\u{301}" beside "José") is refused with 422 beside the form, what
//! was typed kept, and nothing recorded.

use crate::common::browser::signed_in;
use crate::common::{Backend, records, spawn_app};
use pitbook::domain::staff::Role;

/// One start form: its page, the fields other than `players`, the record a
/// started game writes.
struct StartForm {
    path: &'static str,
    fields: &'static [(&'static str, &'static str)],
    started: &'static str,
}

const FORMS: [StartForm; 3] = [
    StartForm {
        path: "/tripoley",
        fields: &[
            ("chips", "40"),
            ("chip_value", "0.25"),
            ("profile", "classic"),
            ("ante", "1"),
            ("bet_limit", "10"),
        ],
        started: "tripoley_started",
    },
    StartForm {
        path: "/dice",
        fields: &[("game", "ten-thousand")],
        started: "ten_thousand_started",
    },
    StartForm {
        path: "/dice",
        fields: &[("game", "poker-dice"), ("profile", "caribena")],
        started: "poker_dice_started",
    },
];

/// (the players as typed, what the refusal says)
const LOOK_ALIKES: [(&str, &str); 4] = [
    ("José, Bo\u{200B}, Cy", "U+200B"),
    ("José, Bo\u{202E}x, Cy", "U+202E"),
    ("José, Bo\u{7}, Cy", "U+0007"),
    ("José, Jose\u{301}, Cy", "José"),
];

async fn look_alike_names_are_refused_on_every_start_form(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    for form in &FORMS {
        for (players, words) in LOOK_ALIKES {
            let csrf = dana.csrf(form.path).await;
            let mut fields = vec![("csrf", csrf.as_str()), ("players", players)];
            fields.extend_from_slice(form.fields);
            let page = dana.post(form.path, &fields).await;
            let case = format!("{} {} {players:?}", form.path, form.started);
            assert_eq!(page.status, 422, "{case}: {}", page.body);
            assert!(page.body.contains(words), "{case}: {}", page.body);
            // The players typed are kept in the form (the control and
            // format characters may be shown escaped; the first name is not).
            assert!(page.body.contains("value=\"José,"), "{case}: {}", page.body);
            assert_eq!(records(&app, form.started).await, 0, "{case}");
        }
        // The same names written once are accepted: the refusal was the
        // look-alike, not the form.
        let csrf = dana.csrf(form.path).await;
        let mut fields = vec![("csrf", csrf.as_str()), ("players", "José, Bo, Cy")];
        fields.extend_from_slice(form.fields);
        let page = dana.post(form.path, &fields).await;
        assert_eq!(page.status, 303, "{}: {}", form.path, page.body);
        assert_eq!(records(&app, form.started).await, 1, "{}", form.started);
    }
}

on_both_databases!(look_alike_names_are_refused_on_every_start_form);
