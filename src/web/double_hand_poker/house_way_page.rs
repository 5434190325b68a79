//! The house-way preview page, `GET /tools/house-way?cards=…`: the dealer
//! types seven cards (and may choose the profile, the joker and the wheel,
//! as `GET /api/v1/hands/house-way` takes them) and sees the setting — high
//! five, low two, as cards and words — and the house-way rule that made it,
//! before committing anything. Pure: nothing is stored. Bad cards or a bad
//! option: 422, the message beside its field, what was typed kept.

use askama::Template;
use axum::Router;
use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::domain::double_hand_poker::hand_words::{self, HouseWayPreview};
use crate::domain::double_hand_poker::house_way;
use crate::domain::double_hand_poker::options::{OptionOverrides, Profile};
use crate::domain::double_hand_poker::tools::CardsRequest;
use crate::domain::double_hand_poker::tools::Field;
use crate::web::staff::page;
use crate::web::{AppState, PageContext, PageResult, Staff};

pub fn router() -> Router<AppState> {
    Router::new().route("/tools/house-way", get(preview))
}

/// What the form sends; every field may be missing (the empty form). The
/// value page (`ev_page.rs`) takes the same fields and its side.
#[derive(Debug, Default, Deserialize, serde::Serialize)]
pub(super) struct PreviewQuery {
    #[serde(default)]
    pub(super) cards: String,
    #[serde(default)]
    pub(super) profile: String,
    #[serde(default)]
    pub(super) joker: String,
    #[serde(default)]
    pub(super) wheel: String,
    #[serde(default)]
    pub(super) house_way: String,
    /// The hand the dealer came from, for the link back.
    #[serde(default)]
    pub(super) hand: String,
}

impl PreviewQuery {
    /// The same cards and rules as a URL's query (for the link to the
    /// other tool).
    pub(super) fn query_string(&self) -> String {
        serde_urlencoded::to_string(self).unwrap_or_default()
    }

    /// The hand to go back to, kept to letters, digits and `-`.
    pub(super) fn hand_back(&self) -> String {
        self.hand
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .take(64)
            .collect()
    }
}

/// A hand tool's form as its page shows it: the cards and rules as typed,
/// the house ways to choose from, the hand to go back to, and the error
/// beside its field (the preview and the value page).
pub(super) struct ToolForm {
    pub(super) cards: String,
    pub(super) profile: String,
    pub(super) joker: String,
    pub(super) wheel: String,
    pub(super) house_way: String,
    /// Every house way's name, for the choice: the shipped, then the
    /// loaded.
    pub(super) house_ways: Vec<String>,
    /// The hand to go back to (only letters, digits and `-`), or empty.
    pub(super) hand: String,
    pub(super) error_field: &'static str,
    pub(super) error: String,
}

impl ToolForm {
    pub(super) fn of(q: &PreviewQuery) -> ToolForm {
        ToolForm {
            cards: q.cards.clone(),
            profile: q.profile.trim().to_string(),
            joker: q.joker.trim().to_string(),
            wheel: q.wheel.trim().to_string(),
            house_way: q.house_way.trim().to_string(),
            house_ways: house_way::names(),
            hand: q.hand_back(),
            error_field: "",
            error: String::new(),
        }
    }

    pub(super) fn is_error(&self, name: &str) -> bool {
        self.error_field == name
    }

    /// The field at fault and why, shown beside it.
    pub(super) fn refuse(&mut self, field: &'static str, message: String) {
        self.error_field = field;
        self.error = message;
    }
}

#[derive(Template)]
#[template(path = "double_hand_poker/house_way.html")]
struct PreviewPage {
    ctx: PageContext,
    form: ToolForm,
    preview: Option<HouseWayPreview>,
    /// The query of the link to the same cards' value.
    ev_query: String,
}

/// An option's value from its name, or the message for the field.
pub(super) fn option<T: DeserializeOwned>(text: &str, choices: &str) -> Result<Option<T>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    serde_json::from_value(serde_json::Value::String(text.trim().to_string()))
        .map(Some)
        .map_err(|_| format!("\"{text}\" is not {choices}"))
}

/// The request the form's fields make, or the field at fault and why.
pub(super) fn request(q: &PreviewQuery) -> Result<CardsRequest, (&'static str, String)> {
    let profile = match q.profile.trim() {
        "" => None,
        p => Some(Profile::parse(p).ok_or_else(|| {
            (
                "profile",
                format!("\"{}\" is not lucky-chances or nevada", q.profile),
            )
        })?),
    };
    let joker = option(&q.joker, "bug, wild or none").map_err(|m| ("joker", m))?;
    let wheel = option(&q.wheel, "lowest or second_highest").map_err(|m| ("wheel", m))?;
    let names = house_way::names();
    let house_way = option(&q.house_way, &format!("a house way ({})", names.join(", ")))
        .map_err(|m| ("house_way", m))?;
    Ok(CardsRequest {
        cards: crate::domain::double_hand_poker::tools::CardsText(q.cards.clone()),
        profile,
        options: Some(OptionOverrides {
            joker,
            wheel,
            house_way,
            ..OptionOverrides::default()
        }),
    })
}

async fn preview(staff: Staff, Query(q): Query<PreviewQuery>) -> PageResult {
    let mut page_data = PreviewPage {
        ctx: PageContext::of(&staff),
        form: ToolForm::of(&q),
        preview: None,
        ev_query: q.query_string(),
    };
    let outcome = request(&q).and_then(|req| {
        if q.cards.trim().is_empty() {
            return Ok(None);
        }
        hand_words::house_way_preview(&req)
            .map(Some)
            .map_err(|e| match e.field {
                Field::HouseWay => ("house_way", e.message),
                _ => ("cards", e.message),
            })
    });
    match outcome {
        Ok(preview) => {
            page_data.preview = preview;
            Ok(page(&page_data))
        }
        Err((field, message)) => {
            page_data.form.refuse(field, message);
            Ok((StatusCode::UNPROCESSABLE_ENTITY, page(&page_data)).into_response())
        }
    }
}
