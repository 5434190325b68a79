//! The audit chain's health page: the head (for the shift report), the last
//! verification and who ran it, and "verify now" — whose result is itself
//! an audit record (`chain_verified`), so the page shows the last one.

use crate::web::PageResult;
use askama::Template;
use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;

use super::staff::page;
use super::{AppState, CsrfForm, NoFields, PageContext, Staff};
use crate::domain::staff::Action;
use crate::store::audit::{NewRecord, canonical_json, last_of_type, record};
use crate::store::verify;

/// One verification at a time: it reads the whole log.
static VERIFYING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub fn router() -> Router<AppState> {
    Router::new().route("/chain", get(show).post(verify_now))
}

#[derive(Template)]
#[template(path = "audit/chain.html")]
struct ChainPage {
    ctx: PageContext,
    head: String,
    last: Option<(String, String, String)>,
    busy: bool,
    /// Whether the role may run a verification (the form is shown).
    can_verify: bool,
}

async fn show(State(state): State<AppState>, staff: Staff) -> PageResult {
    let head = verify::anchor(&state.db)
        .await?
        .map_or("empty".to_string(), |a| a.to_string());
    let last = last_of_type(&state.db, "chain_verified")
        .await?
        .map(|r| (r.recorded_at, r.actor, r.payload));
    let last = last.map(|(at, who, payload)| {
        let v: serde_json::Value = serde_json::from_str(&payload).unwrap_or_default();
        let verdict = match v.get("problem").filter(|p| !p.is_null()) {
            Some(p) => format!(
                "FAILED at seq {}: {}",
                p["seq"],
                p["message"].as_str().unwrap_or_default()
            ),
            None => format!(
                "OK: {} records verified, {} settlements recomputed, {} Tripoley games replayed, head {}",
                v["count"],
                v["hands_settled"],
                // Absent from records of verifications before it was counted.
                v["tripoley_games"].as_u64().unwrap_or(0),
                v["head"].as_str().unwrap_or("-")
            ),
        };
        (at, who, verdict)
    });
    let user = &staff.0.user;
    Ok(page(&ChainPage {
        ctx: PageContext::of(&staff),
        head,
        last,
        busy: VERIFYING.try_lock().is_err(),
        can_verify: crate::domain::staff::allows(user.role, Action::VerifyChain),
    }))
}

async fn verify_now(
    State(state): State<AppState>,
    CsrfForm(staff, NoFields {}): CsrfForm<NoFields>,
) -> PageResult {
    staff.require_here(&state, Action::VerifyChain).await?;
    let Ok(_running) = VERIFYING.try_lock() else {
        return Ok(Redirect::to("/chain").into_response());
    };
    let report = verify::verify(&state.db, &state.audit_key, 1, None).await?;
    if !report.ok() {
        tracing::error!(problem = ?report.problem, "audit chain verification FAILED");
    }
    let payload = serde_json::to_value(&report)?;
    let entry = NewRecord {
        actor: staff.0.user.username.clone(),
        table: None,
        hand: None,
        event_type: "chain_verified".into(),
        payload: canonical_json(&payload)?,
    };
    record(&state.db, &state.audit_key, entry).await?;
    Ok(Redirect::to("/chain").into_response())
}
