//! `/users`: the staff accounts an admin runs — add one with a one-time
//! password (shown once), disable, enable, change role, reset the password
//! (a new one-time password, shown once), list an account's API tokens and
//! revoke them. Admin only (403, recorded as `permission_denied`); every
//! form carries the session's CSRF token; a refused change shows the page
//! again with the message beside its field and what was typed kept.
//! The same changes as `pitbook user …` (`store::staff::admin`).

use crate::domain::common::field_error::FieldError;
use crate::web::{PageError, PageResult};
use askama::Template;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use serde::Deserialize;

use super::page;
use crate::domain::staff::{Action, Role};
use crate::store::staff::{self as store, AccountError, RevokeWhich, TokenInfo};
use crate::web::{ApiError, AppState, AtPath, CsrfForm, NoFields, PageContext, PagePost, Staff};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/users", get(list).post(add))
        .route("/users/{name}/disable", post(disable))
        .route("/users/{name}/enable", post(enable))
        .route("/users/{name}/role", post(set_role))
        .route("/users/{name}/reset-password", post(reset_password))
        .route("/users/{name}/tokens", get(tokens))
        .route("/users/{name}/tokens/revoke", post(revoke_token))
}

/// One account's row: its forms, and a refused change's message.
struct UserRow {
    name: String,
    role: &'static str,
    state: &'static str,
    disabled: bool,
    /// The role shown chosen in the row's role form (the one typed after a refusal).
    chosen_role: String,
    role_error: Option<String>,
    error: Option<String>,
}

#[derive(Template, Default)]
#[template(path = "staff/users.html")]
struct UsersPage {
    ctx: PageContext,
    rows: Vec<UserRow>,
    roles: Vec<&'static str>,
    notice: Option<String>,
    /// (user name, password) to show once.
    one_time: Option<(String, String)>,
    add_username: String,
    add_role: String,
    add_username_error: Option<String>,
    add_role_error: Option<String>,
}

/// What the page shows besides the list after a form.
#[derive(Default)]
struct Outcome {
    notice: Option<String>,
    one_time: Option<(String, String)>,
    /// The user name and the field error of a refused row change, with the typed role.
    row_error: Option<(String, FieldError)>,
    typed_role: Option<(String, String)>,
    add: Option<AddForm>,
    add_error: Option<FieldError>,
}

async fn admin(staff: &Staff, state: &AppState) -> Result<(), PageError> {
    Ok(staff.require_here(state, Action::ManageUsers).await?)
}

async fn render(state: &AppState, staff: &Staff, outcome: Outcome) -> PageResult {
    let accounts = store::list_users(&state.db).await?;
    let rows = accounts
        .into_iter()
        .map(|(u, disabled)| {
            let mut row = UserRow {
                chosen_role: u.role.as_str().to_string(),
                name: u.username.clone(),
                role: u.role.as_str(),
                state: store::account_state(&u, disabled),
                disabled,
                role_error: None,
                error: None,
            };
            if let Some((name, typed)) = &outcome.typed_role
                && *name == u.username
            {
                row.chosen_role = typed.clone();
            }
            if let Some((name, e)) = &outcome.row_error
                && *name == u.username
            {
                let message = Some(e.message().to_string());
                match e.field() {
                    "role" => row.role_error = message,
                    _ => row.error = message,
                }
            }
            row
        })
        .collect();
    // A refused form is the page again, beside its field: 422.
    let status = if outcome.add_error.is_some() || outcome.row_error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let add = outcome.add.unwrap_or_default();
    let (add_username_error, add_role_error) = match &outcome.add_error {
        Some(e) if e.field() == "role" => (None, Some(e.message().to_string())),
        Some(e) => (Some(e.message().to_string()), None),
        None => (None, None),
    };
    let body = page(&UsersPage {
        ctx: PageContext::of(staff),
        rows,
        roles: Role::ALL.iter().map(|r| r.as_str()).collect(),
        notice: outcome.notice,
        one_time: outcome.one_time,
        add_username: add.username,
        add_role: if add.role.is_empty() {
            Role::Dealer.as_str().to_string()
        } else {
            add.role
        },
        add_username_error,
        add_role_error,
    });
    Ok((status, body).into_response())
}

async fn list(State(state): State<AppState>, staff: Staff) -> PageResult {
    admin(&staff, &state).await?;
    render(&state, &staff, Outcome::default()).await
}

#[derive(Deserialize, Default, Clone)]
struct AddForm {
    #[serde(default)]
    username: String,
    /// The control is `staff_role`: one named `role` would shadow the
    /// form's own `role` property.
    #[serde(default, rename = "staff_role")]
    role: String,
}

async fn add(
    State(state): State<AppState>,
    CsrfForm(staff, form): CsrfForm<AddForm>,
) -> PageResult {
    admin(&staff, &state).await?;
    let username = form.username.trim().to_string();
    let refused = |e: FieldError| Outcome {
        add: Some(AddForm {
            username: username.clone(),
            ..form.clone()
        }),
        add_error: Some(e),
        ..Outcome::default()
    };
    let role: Role = match form.role.parse() {
        Ok(r) => r,
        Err(m) => return render(&state, &staff, refused(FieldError::new("role", m))).await,
    };
    let actor = &staff.0.user.username;
    let outcome = match store::admin::add_with_one_time_password(
        &state.db,
        &state.audit_key,
        actor,
        &username,
        role,
    )
    .await
    {
        Ok((user, password)) => Outcome {
            notice: Some(format!(
                "Added \"{}\" ({}). Give them the one-time password below; it is shown only now and must be changed at their first login.",
                user.username, user.role
            )),
            one_time: Some((user.username, password)),
            ..Outcome::default()
        },
        Err(AccountError::Invalid(e)) => refused(e),
        Err(AccountError::Store(e)) => return Err(PageError::internal(e)),
    };
    render(&state, &staff, outcome).await
}

/// A row change's result: the notice, or the page with the message in the row.
async fn row_result<T>(
    state: &AppState,
    staff: &Staff,
    name: &str,
    result: Result<T, AccountError>,
    notice: impl FnOnce(T) -> Outcome,
) -> PageResult {
    let outcome = match result {
        Ok(done) => notice(done),
        Err(AccountError::Invalid(e)) => Outcome {
            row_error: Some((name.to_string(), e)),
            ..Outcome::default()
        },
        Err(AccountError::Store(e)) => return Err(PageError::internal(e)),
    };
    render(state, staff, outcome).await
}

/// Disables or enables the account the form was posted about.
async fn set_disabled(post: PagePost<NoFields>, disabled: bool) -> PageResult {
    let PagePost {
        state,
        id: name,
        staff,
        ..
    } = post;
    admin(&staff, &state).await?;
    let actor = &staff.0.user.username;
    let result =
        store::admin::set_disabled(&state.db, &state.audit_key, actor, &name, disabled).await;
    row_result(&state, &staff, &name, result, |ended| Outcome {
        notice: Some(if disabled {
            format!(
                "Disabled \"{name}\": {ended} sessions signed out; its API tokens stop working."
            )
        } else {
            format!("Enabled \"{name}\".")
        }),
        ..Outcome::default()
    })
    .await
}

async fn disable(post: PagePost<NoFields>) -> PageResult {
    set_disabled(post, true).await
}

async fn enable(post: PagePost<NoFields>) -> PageResult {
    set_disabled(post, false).await
}

#[derive(Deserialize)]
struct RoleForm {
    #[serde(default, rename = "staff_role")]
    role: String,
}

async fn set_role(
    PagePost {
        state,
        id: name,
        staff,
        form,
    }: PagePost<RoleForm>,
) -> PageResult {
    admin(&staff, &state).await?;
    let result = match form.role.parse::<Role>() {
        Ok(role) => {
            let actor = &staff.0.user.username;
            store::admin::set_role(&state.db, &state.audit_key, actor, &name, role)
                .await
                .map(|from| (from, role))
        }
        Err(m) => Err(AccountError::invalid("role", m)),
    };
    let outcome = match result {
        Ok((from, to)) => Outcome {
            notice: Some(format!("\"{name}\" is now {to} (was {from}).")),
            ..Outcome::default()
        },
        // Refused: the message beside the row's role, the role typed kept.
        Err(AccountError::Invalid(e)) => Outcome {
            row_error: Some((name.clone(), e)),
            typed_role: Some((name.clone(), form.role.clone())),
            ..Outcome::default()
        },
        Err(AccountError::Store(e)) => return Err(PageError::internal(e)),
    };
    render(&state, &staff, outcome).await
}

async fn reset_password(
    PagePost {
        state,
        id: name,
        staff,
        form: NoFields {},
    }: PagePost<NoFields>,
) -> PageResult {
    admin(&staff, &state).await?;
    let actor = &staff.0.user.username;
    let result = store::admin::reset_password(&state.db, &state.audit_key, actor, &name).await;
    row_result(&state, &staff, &name, result, |(password, ended)| Outcome {
        notice: Some(format!(
            "New one-time password for \"{name}\" (shown only now; it must be changed at the next login); {ended} sessions signed out."
        )),
        one_time: Some((name.clone(), password)),
        ..Outcome::default()
    })
    .await
}

#[derive(Template)]
#[template(path = "staff/user_tokens.html")]
struct TokensPage {
    ctx: PageContext,
    account: String,
    tokens: Vec<TokenInfo>,
    notice: Option<String>,
    error: Option<String>,
}

async fn render_tokens(
    state: &AppState,
    staff: &Staff,
    name: &str,
    notice: Option<String>,
    error: Option<String>,
) -> PageResult {
    let tokens = match store::admin::tokens_of(&state.db, name).await {
        Ok(t) => t,
        Err(AccountError::Invalid(e)) => {
            return Err(ApiError::NotFound(e.to_string()).into());
        }
        Err(AccountError::Store(e)) => return Err(PageError::internal(e)),
    };
    let status = match error {
        Some(_) => StatusCode::UNPROCESSABLE_ENTITY,
        None => StatusCode::OK,
    };
    let body = page(&TokensPage {
        ctx: PageContext::of(staff),
        account: name.to_string(),
        tokens,
        notice,
        error,
    });
    Ok((status, body).into_response())
}

async fn tokens(
    AtPath {
        state,
        staff,
        id: name,
    }: AtPath,
) -> PageResult {
    admin(&staff, &state).await?;
    render_tokens(&state, &staff, &name, None, None).await
}

#[derive(Deserialize)]
struct RevokeForm {
    /// The control is `token_id` (one named `id` would shadow the form's id).
    #[serde(default, rename = "token_id")]
    id: String,
}

async fn revoke_token(
    PagePost {
        state,
        id: name,
        staff,
        form,
    }: PagePost<RevokeForm>,
) -> PageResult {
    admin(&staff, &state).await?;
    let actor = &staff.0.user.username;
    let which = RevokeWhich::Id(form.id.clone());
    match store::revoke_tokens(&state.db, &state.audit_key, actor, &name, &which).await {
        Ok(revoked) => {
            let notice = revoked
                .iter()
                .map(|t| format!("Revoked API token {} (label \"{}\").", t.id, t.label))
                .collect::<Vec<_>>()
                .join(" ");
            render_tokens(&state, &staff, &name, Some(notice), None).await
        }
        Err(AccountError::Invalid(e)) => {
            render_tokens(&state, &staff, &name, None, Some(e.message().to_string())).await
        }
        Err(AccountError::Store(e)) => Err(PageError::internal(e)),
    }
}
