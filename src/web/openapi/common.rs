//! What every route shares, added to the document in one place rather than
//! on each handler: the two ways to sign in, and the answers the shell gives
//! before or around any handler — the `Staff` extractor's 401/403/415
//! (`web::staff::session`), a body that cannot be read (422 `body`, 408),
//! the server's request timeout (408) and, where the database is read, the
//! internal error (500). An answer a route declares itself (its own 403,
//! 422) is kept as it says.

use utoipa::Modify;
use utoipa::openapi::path::{HttpMethod, Operation};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, ResponseBuilder, SecurityRequirement};

use crate::web::staff::session::SESSION_COOKIE;

pub struct Common;

impl Modify for Common {
    fn modify(&self, api: &mut OpenApi) {
        // The crate names no license; utoipa would say "" for it.
        api.info.license = None;
        let components = api.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                SESSION_COOKIE,
                "The session of a signed-in staff member (POST /login, the pages' sign-in). A \
request with a body must then say `Content-Type: application/json` (else 415).",
            ))),
        );
        components.add_security_scheme(
            "api_token",
            SecurityScheme::Http(
                Http::builder()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("pbk_…")
                    .description(Some(
                        "An API token an admin issued to an account (`pitbook user token`, \
docs/staff.md); it wins over a cookie.",
                    ))
                    .build(),
            ),
        );
        let signed_in_by_default = api.security.as_ref().is_some_and(|s| !s.is_empty());
        for item in api.paths.paths.values_mut() {
            for (method, op) in [
                (HttpMethod::Get, item.get.as_mut()),
                (HttpMethod::Post, item.post.as_mut()),
            ] {
                if let Some(op) = op {
                    add_answers(op, method, signed_in_by_default);
                }
            }
        }
    }
}

/// Whether the operation needs a signed-in staff member: its own security
/// when it has one (an empty requirement means none is needed), else the
/// document's.
fn signed_in(op: &Operation, by_default: bool) -> bool {
    match &op.security {
        Some(requirements) => !requirements.contains(&SecurityRequirement::default()),
        None => by_default,
    }
}

fn add_answers(op: &mut Operation, method: HttpMethod, signed_in_by_default: bool) {
    if signed_in(op, signed_in_by_default) {
        add(
            op,
            "401",
            "Not signed in: no live session and no valid API token (`unauthenticated`).",
        );
        add(
            op,
            "403",
            "The account's one-time password must be changed first (`password_change_required`), \
or its role may not do this (`forbidden`, recorded as `permission_denied`).",
        );
        if method == HttpMethod::Post {
            add(
                op,
                "415",
                "Signed in by the session cookie with a body that is not `application/json` (`unsupported_media_type`).",
            );
        }
    }
    if op.request_body.is_some() {
        add(
            op,
            "422",
            "The body cannot be read, or is over 256 KiB (`bad_input`, field `body`).",
        );
    }
    add(
        op,
        "408",
        "The body, or the answer, took longer than the server's limit (`timeout`).",
    );
    // The sign-in check reads the database; the public probes read none
    // they could fail on with a 500.
    if signed_in(op, signed_in_by_default) {
        add(
            op,
            "500",
            "A bug or an outage (`internal`); the detail is in the server log.",
        );
    }
}

/// Adds the `Error` answer for `status` unless the route declares its own.
fn add(op: &mut Operation, status: &str, description: &str) {
    let responses = &mut op.responses.responses;
    if responses.contains_key(status) {
        return;
    }
    let body = ContentBuilder::new()
        .schema(Some(RefOr::Ref(Ref::from_schema_name("Error"))))
        .build();
    let answer = ResponseBuilder::new()
        .description(description)
        .content("application/json", body)
        .build();
    responses.insert(status.to_string(), RefOr::T(answer));
}
