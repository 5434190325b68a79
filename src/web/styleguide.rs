//! `/styleguide`: every component of the pages' design system on one page
//! (tokens, buttons, tags, notices, the error summary and a field's error,
//! summary lists, a data table with figures and totals, the step indicator,
//! the money moves), for whoever writes or reviews a template. Any signed-in
//! staff member may read it; it records nothing.

use askama::Template;
use axum::Router;
use axum::response::Response;
use axum::routing::get;

use crate::domain::common::money::Money;
use crate::web::{AppState, PageContext, Staff};

pub fn router() -> Router<AppState> {
    Router::new().route("/styleguide", get(show))
}

#[derive(Template)]
#[template(path = "layout/styleguide.html")]
struct StyleguidePage {
    ctx: PageContext,
    /// Figures as every page writes them (`Money::to_display`).
    figures: Vec<(&'static str, String)>,
}

async fn show(staff: Staff) -> Response {
    let figure = |text: &str| {
        Money::parse(text)
            .map(Money::to_display)
            .unwrap_or_default()
    };
    super::staff::page(&StyleguidePage {
        ctx: PageContext::of(&staff),
        figures: vec![
            ("Ann", figure("-60")),
            ("Bo", figure("60")),
            ("Cy", figure("-80")),
            ("Maximiliana Featherstonehaugh-Oyelaran", figure("54248.76")),
        ],
    })
}
