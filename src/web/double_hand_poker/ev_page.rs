//! The value page, `GET /tools/hand-ev?cards=…&side=…`: seven cards and
//! the rules (the house-way preview's fields, `house_way_page.rs`), and for
//! each of the 21 settings the exact wins, pushes and losses against every
//! hand the other side can hold, set by house way — the house way's
//! setting and the best marked, and what the house way's choice gives up.
//! Counted as `POST /api/v1/hands/ev` counts (`ev_api::count`: one count
//! at a time, a few seconds; 409 while another runs). Nothing is stored.
//! Reached from the house-way preview and the house-way drill.

use askama::Template;
use axum::Router;
use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use serde::Deserialize;

use super::ev_api;
use super::house_way_page::{PreviewQuery, ToolForm, option, request};
use crate::domain::double_hand_poker::ev::{EvRequest, Side};
use crate::domain::double_hand_poker::hand_words::{self, EvWords};
use crate::web::staff::page;
use crate::web::{ApiError, AppState, PageContext, PageResult, Staff};

pub fn router() -> Router<AppState> {
    Router::new().route("/tools/hand-ev", get(value_page))
}

#[derive(Debug, Default, Deserialize)]
struct EvQuery {
    #[serde(flatten)]
    tool: PreviewQuery,
    /// `player` (the default) or `banker`.
    #[serde(default)]
    side: String,
}

#[derive(Template)]
#[template(path = "double_hand_poker/hand_ev.html")]
struct EvPage {
    ctx: PageContext,
    form: ToolForm,
    side: String,
    /// The query of the link back to the house-way preview.
    preview_query: String,
    value: Option<EvWords>,
}

async fn value_page(staff: Staff, Query(q): Query<EvQuery>) -> PageResult {
    let tool = &q.tool;
    let mut view = EvPage {
        ctx: PageContext::of(&staff),
        form: ToolForm::of(tool),
        side: q.side.trim().to_string(),
        preview_query: tool.query_string(),
        value: None,
    };
    let side = option::<Side>(&q.side, "player or banker").map_err(|m| ("side", m));
    let job = side.and_then(|side| {
        let side = side.unwrap_or_default();
        let cards = request(tool)?;
        if tool.cards.trim().is_empty() {
            return Ok(None);
        }
        let req = EvRequest {
            cards: cards.cards,
            side,
            profile: cards.profile,
            options: cards.options,
        };
        req.job().map(Some).map_err(|e| ("cards", e.message))
    });
    let refused = |mut view: EvPage, status: StatusCode, field, message| {
        view.form.refuse(field, message);
        (status, page(&view)).into_response()
    };
    match job {
        Err((field, message)) => Ok(refused(
            view,
            StatusCode::UNPROCESSABLE_ENTITY,
            field,
            message,
        )),
        Ok(None) => Ok(page(&view)),
        Ok(Some(job)) => match ev_api::count(job).await {
            Ok((job, response)) => {
                view.value = Some(hand_words::ev_words(&job, &response));
                Ok(page(&view))
            }
            Err(ApiError::Conflict(message)) => {
                Ok(refused(view, StatusCode::CONFLICT, "count", message))
            }
            Err(e) => Err(e.into()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::common::text::thousands;
    use crate::domain::double_hand_poker::ev::EvRequest;
    use crate::domain::double_hand_poker::tools::CardsText;

    /// The page of a counted hand: every setting in a row, best first, the
    /// house way's marked in words, the summary naming both.
    #[test]
    fn a_counted_hand_shows_every_setting_with_the_house_ways_marked() {
        // Some of the other side's hands counted: the parts from the 31st
        // card on, a few thousand hands.
        let job = EvRequest {
            cards: CardsText("JK Ah Kh 7c 7d 3s 2h".into()),
            ..EvRequest::default()
        }
        .job()
        .unwrap();
        let response = job.response(&job.count(30..job.parts().end));
        let view = EvPage {
            ctx: PageContext {
                username: "dana".into(),
                role: "dealer",
                csrf: "x".into(),
                nav: Vec::new(),
                zone: chrono_tz::UTC,
            },
            form: ToolForm::of(&PreviewQuery {
                cards: "JK Ah Kh 7c 7d 3s 2h".into(),
                ..PreviewQuery::default()
            }),
            side: String::new(),
            preview_query: String::new(),
            value: Some(hand_words::ev_words(&job, &response)),
        };
        let html = view.render().unwrap();
        assert_eq!(html.matches("<tr id=\"setting-").count(), 21);
        let house = response.house_way + 1;
        let row = format!("<tr id=\"setting-{house}\" class=\"house-way-setting\">");
        let at = html.find(&row).unwrap_or_else(|| panic!("{row} in {html}"));
        assert!(html[at..].contains("<span class=\"badge ok\">House way</span>"));
        assert_eq!(html.matches("class=\"house-way-setting\"").count(), 1);
        assert_eq!(html.matches(">Best</span>").count(), 1);
        let summary = format!(
            "The house way (reference) plays setting {house}, worth <strong>{}</strong> per unit bet.",
            view.value.as_ref().unwrap().house_way.1
        );
        assert!(html.contains(&summary), "{summary} in {html}");
        assert!(html.contains(&format!("against {} hands", thousands(response.hands))));
        assert!(html.contains("<option value=\"player\" selected>"));
    }
}
