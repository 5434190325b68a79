//! The files the pages load, served by the app itself (no network at
//! runtime): the stylesheet and the small scripts of progressive
//! enhancement. Each is compiled into the binary; every page works without
//! the scripts. Cached for an hour (every other answer is `no-store`).

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

use super::AppState;

/// Path, content type and content of every served file.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/static/pitbook.css",
        "text/css; charset=utf-8",
        include_str!("../../static/pitbook.css"),
    ),
    (
        "/static/hands.css",
        "text/css; charset=utf-8",
        include_str!("../../static/hands.css"),
    ),
    (
        "/static/cards.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/cards.js"),
    ),
    (
        "/static/replay.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/replay.js"),
    ),
    (
        "/static/dice.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/dice.js"),
    ),
    (
        "/static/keypad.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/keypad.js"),
    ),
    (
        "/static/clock.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/clock.js"),
    ),
    (
        "/static/enhance.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/enhance.js"),
    ),
];

pub fn router() -> Router<AppState> {
    // Browsers ask for an icon on every site; there is none, and saying so
    // with 204 keeps a 404 out of every page's console.
    let no_icon = Router::new().route(
        "/favicon.ico",
        get(|| async { axum::http::StatusCode::NO_CONTENT }),
    );
    ASSETS
        .iter()
        .fold(no_icon, |router, &(path, content_type, body)| {
            router.route(
                path,
                get(move || async move {
                    (
                        [
                            (header::CONTENT_TYPE, content_type),
                            (header::CACHE_CONTROL, "public, max-age=3600"),
                        ],
                        body,
                    )
                        .into_response()
                }),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::ASSETS;

    /// The bytes of every served file of a content type.
    fn total(kind: &str) -> usize {
        ASSETS
            .iter()
            .filter(|(_, t, _)| t.starts_with(kind))
            .map(|(_, _, body)| body.len())
            .sum()
    }

    /// Pages stay light on a cardroom's tablet: every stylesheet together
    /// at most 30 KB, every script at most 20 KB (docs/staff.md).
    #[test]
    fn the_styles_and_scripts_stay_within_their_budget() {
        let (css, js) = (total("text/css"), total("text/javascript"));
        assert!(css <= 30 * 1024, "CSS {css} bytes > 30 KB");
        assert!(js <= 20 * 1024, "JS {js} bytes > 20 KB");
    }
}
