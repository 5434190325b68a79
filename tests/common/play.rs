//! The guided hand's pages driven as a browser would: a form found on a
//! page posted with its hidden fields, a table with its dealer, a new hand.

use super::browser::{Browser, Page, input_value};
use super::{TEST_PASSWORD as PASSWORD, TestApp};
use pitbook::domain::staff::Role;

/// Posts a form found on `path`, with its hidden fields (csrf, version,
/// idempotency key) plus `fields`.
pub async fn submit(b: &mut Browser, path: &str, form_id: &str, fields: &[(&str, &str)]) -> Page {
    let page = b.get(path).await;
    assert_eq!(page.status, 200, "{path}: {}", page.body);
    let form = form_html(&page.body, form_id);
    let action = attr(&form, "action");
    let mut all: Vec<(String, String)> = [
        "csrf",
        "version",
        "idempotency_key",
        "step",
        "mode",
        "wagers",
    ]
    .iter()
    .filter(|name| form.contains(&format!("name=\"{name}\" value=")))
    .map(|name| (name.to_string(), input_value(&form, name)))
    .collect();
    all.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let pairs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    b.post(&action, &pairs).await
}

/// The `<form>…` element holding the element of id `id`.
pub fn form_html(html: &str, id: &str) -> String {
    let start = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no form {id} in:\n{html}"));
    let open = html[..start].rfind("<form").expect("form start");
    let end = html[start..].find("</form>").expect("form end") + start;
    html[open..end].to_string()
}

/// The value of the first attribute `name` in `html`.
pub fn attr(html: &str, name: &str) -> String {
    let needle = format!("{name}=\"");
    let start = html.find(&needle).expect("attribute") + needle.len();
    let end = html[start..].find('"').expect("quote") + start;
    html[start..end].to_string()
}

/// Creates table `name` through the /tables form (lucky-chances, 7 seats,
/// unit 0.01), with the form fields `extra` added or replacing those.
pub async fn create_table(b: &mut Browser, name: &str, extra: &[(&str, &str)]) -> Page {
    let mut fields = vec![
        ("table", name),
        ("profile", "lucky-chances"),
        ("seats", "7"),
        ("min_unit", "0.01"),
    ];
    fields.retain(|(k, _)| !extra.iter().any(|(e, _)| e == k));
    fields.extend_from_slice(extra);
    submit(b, "/tables", "new-table", &fields).await
}

/// A table DHP-1 (wagers up to 500) with dealer `dana` assigned; returns
/// dana's browser.
pub async fn table_with_dealer(app: &TestApp) -> Browser {
    table_with_dealer_and(app, &[("wager_max", "500")]).await
}

/// A table DHP-1 made with the form fields `extra`, with dealer `dana`
/// assigned; returns dana's browser.
pub async fn table_with_dealer_and(app: &TestApp, extra: &[(&str, &str)]) -> Browser {
    let mut sup = super::browser::signed_in(app, "sue", Role::Supervisor).await;
    let page = create_table(&mut sup, "DHP-1", extra).await;
    assert_eq!(
        (page.status, page.location.as_str()),
        (303, "/tables/DHP-1"),
        "{}",
        page.body
    );
    app.add_user("dana", Role::Dealer).await;
    let page = submit(
        &mut sup,
        "/tables/DHP-1",
        "assign",
        &[("username", "dana"), ("op", "assign")],
    )
    .await;
    assert_eq!(page.status, 303, "{}", page.body);
    let mut dana = Browser::new(app);
    assert_eq!(dana.login("dana", PASSWORD).await.status, 303);
    dana
}

/// Opens a hand as the browser's user; returns the hand's page path.
pub async fn open_hand(b: &mut Browser) -> String {
    let page = submit(b, "/tables/DHP-1", "open-hand", &[]).await;
    assert_eq!(page.status, 303, "{}", page.body);
    assert!(page.location.starts_with("/hands/"), "{}", page.location);
    page.location
}

/// The PD form of the seed's example: Dana on seat 1 banks 200, two hands.
pub const DANA_BANKS_200: &[(&str, &str)] = &[
    ("seat", "1"),
    ("player", "Dana"),
    ("bank", "200"),
    ("option", "bank_two"),
];

/// Sets the PD of the seed's example on `hand`.
pub async fn dana_banks_200(b: &mut Browser, hand: &str) {
    ok(b, hand, "pd-form", DANA_BANKS_200).await;
}

/// [`submit`]s the form `form` of the hand page `hand` and expects 303.
pub async fn ok(b: &mut Browser, hand: &str, form: &str, fields: &[(&str, &str)]) {
    let page = submit(b, hand, form, fields).await;
    assert_eq!(page.status, 303, "{form} {fields:?}: {}", page.body);
}

/// Voids `hand` through the page as a supervisor does: the void form, then
/// its confirmation (the void asks first).
pub async fn void_hand(b: &mut Browser, hand: &str, reason: &str) {
    let page = submit(b, hand, "void-form", &[("reason", reason)]).await;
    assert_eq!(page.status, 200, "the void asks first: {}", page.body);
    let names = ["step", "confirm", "reason"];
    let done = send_form(b, hand, &page.body, "void-confirm-form", &names).await;
    assert_eq!(done.status, 303, "the confirmed void: {}", done.body);
}

/// Sends the form holding `id` on the page `html` (of `path`) as it is:
/// its token, version and key, and the hidden fields `names`.
pub async fn send_form(b: &mut Browser, path: &str, html: &str, id: &str, names: &[&str]) -> Page {
    let form = form_html(html, id);
    let fields: Vec<(String, String)> = ["csrf", "version", "idempotency_key"]
        .iter()
        .chain(names)
        .map(|n| (n.to_string(), input_value(&form, n)))
        .collect();
    let pairs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    b.post(path, &pairs).await
}

/// Opens a hand, sets the seed's PD (Dana at seat 1 banks 200), places
/// `wagers` (seat, bettor, amount) through the wager form and throws 1, 1,
/// 2: the hand is at its results, the ACTION seat 4. Returns its path.
pub async fn hand_at_results(b: &mut Browser, wagers: &[(&str, &str, &str)]) -> String {
    let hand = open_hand(b).await;
    dana_banks_200(b, &hand).await;
    for &(seat, bettor, amount) in wagers {
        let fields = [("seat", seat), ("bettor", bettor), ("amount", amount)];
        ok(b, &hand, "wager-form", &fields).await;
    }
    let dice = [("d1", "1"), ("d2", "1"), ("d3", "2")];
    ok(b, &format!("{hand}?step=dice"), "dice-form", &dice).await;
    hand
}

/// The hand page's wagers list, a row each: `SEAT BETTOR AMOUNT KIND`.
pub fn wager_rows(html: &str) -> Vec<String> {
    let Some(start) = html.find("<table id=\"wagers\">") else {
        return Vec::new();
    };
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    table
        .split("<tr><td")
        .skip(1)
        .map(|row| {
            // Each cell's text, whatever its attributes (`<td class="num">`).
            let cells: Vec<&str> = row
                .split("</td>")
                .take(4)
                .map(|c| {
                    c.trim_start_matches("<td")
                        .split_once('>')
                        .map_or(c, |(_, t)| t)
                })
                .collect();
            cells.join(" ")
        })
        .collect()
}

/// A tool page's refusals, each `(query, field, words, kept)`: the page at
/// `path?query` is 422 with the message (holding `words`) beside its field
/// — after the field's own input — what was typed kept (`kept` is in the
/// page), and no result shown (no element `result_id`).
pub async fn refused_beside_their_fields(
    b: &mut Browser,
    path: &str,
    bad: &[(&str, &str, &str, &str)],
    result_id: &str,
) {
    for &(query, field, words, kept) in bad {
        let page = b.get(&format!("{path}?{query}")).await;
        assert_eq!(page.status, 422, "{query}: {}", page.body);
        let error = format!("<p class=\"error\" id=\"{field}-error\">");
        let at = page
            .body
            .find(&error)
            .unwrap_or_else(|| panic!("{query}: no {error} in:\n{}", page.body));
        assert!(page.body[at..].contains(words), "{query}: {}", page.body);
        let input = page
            .body
            .find(&format!("id=\"{field}\""))
            .expect("the field");
        assert!(
            input < at && at - input < 2500,
            "{query}: error beside the field"
        );
        assert!(
            page.body.contains(kept),
            "{query}: typed kept: {}",
            page.body
        );
        assert!(
            !page.body.contains(&format!("id=\"{result_id}\"")),
            "{query}: no result"
        );
    }
}
