//! Table pages: the list (and a supervisor's "new table" form), a table's
//! view with its dealers, its current hand and its recent hands; assigning
//! dealers; opening a hand. Every form is CSRF-checked; a refused form is
//! shown again with what was typed and the message beside the field.

use crate::web::{PageError, PageResult};
use askama::Template;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::table_form::TableForm;
use crate::domain::double_hand_poker::hand_record::HandEvent;
use crate::domain::double_hand_poker::house_way;
use crate::domain::double_hand_poker::options::HouseWayName;
use crate::domain::double_hand_poker::table::schedule_text;
use crate::domain::staff::{Action, allows};
use crate::store::double_hand_poker::hands::HandCommand;
use crate::store::double_hand_poker::house_ways;
use crate::store::double_hand_poker::tables::{self, AtTable, HandSummary, Table, TableStoreError};
use crate::web::error::{command_status, internal};
use crate::web::staff::page;
use crate::web::{ApiError, AppState, CsrfForm, PageContext, PagePost, Staff};

/// Hands listed on a table's page.
const RECENT_HANDS: i64 = 20;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tables", get(list).post(create))
        .route("/tables/{name}", get(show))
        .route("/tables/{name}/dealers", post(dealers))
        .route("/tables/{name}/hands", post(open_hand))
        .route("/tables/{name}/tppps", post(super::table_floor::mark))
        .route(
            "/tables/{name}/rotation-override",
            post(super::table_floor::override_clock),
        )
}

struct TableRow {
    name: String,
    training: bool,
    profile: &'static str,
    seats: i64,
    dealers: String,
}

#[derive(Template)]
#[template(path = "double_hand_poker/tables.html")]
struct TablesPage<'a> {
    ctx: PageContext,
    tables: Vec<TableRow>,
    can_create: bool,
    /// Every house way a table can name (shipped, then loaded).
    house_ways: Vec<String>,
    form: TableForm,
    error_field: &'a str,
    error: String,
}

impl TablesPage<'_> {
    /// The refusal's message when it named `field`, else nothing.
    fn error_on(&self, field: &str) -> &str {
        if self.error_field == field {
            &self.error
        } else {
            ""
        }
    }
}

async fn tables_page(
    state: &AppState,
    staff: &Staff,
    form: TableForm,
    error: Option<(&str, String)>,
) -> Response {
    let all = match tables::list(&state.db).await {
        Ok(t) => t,
        Err(e) => return internal(e),
    };
    let user = &staff.0.user;
    let (error_field, error) = error.unwrap_or(("", String::new()));
    let failed = !error.is_empty();
    let body = page(&TablesPage {
        ctx: PageContext::of(staff),
        tables: all
            .into_iter()
            .map(|t| TableRow {
                profile: t.config.profile.name(),
                seats: t.config.seats,
                dealers: t.dealers.join(", "),
                training: t.config.training,
                name: t.config.name,
            })
            .collect(),
        can_create: allows(user.role, Action::ManageTables),
        house_ways: house_way::names(),
        form,
        error_field,
        error,
    });
    if failed {
        (StatusCode::UNPROCESSABLE_ENTITY, body).into_response()
    } else {
        body
    }
}

async fn list(State(state): State<AppState>, staff: Staff) -> Response {
    tables_page(&state, &staff, TableForm::blank(), None).await
}

async fn create(
    State(state): State<AppState>,
    CsrfForm(staff, form): CsrfForm<TableForm>,
) -> PageResult {
    staff.require_here(&state, Action::ManageTables).await?;
    if let Some(name) = HouseWayName::parse(form.house_way.trim()) {
        // One another instance loaded since this one started.
        house_ways::hold(&state.db, name)
            .await
            .map_err(PageError::internal)?;
    }
    let config = match form.config() {
        Ok(c) => c,
        Err((field, message)) => {
            return Ok(tables_page(&state, &staff, form, Some((field, message))).await);
        }
    };
    match tables::create(&state.db, &state.audit_key, &staff.0.user.username, &config).await {
        Ok(()) => Ok(Redirect::to(&format!("/tables/{}", config.name)).into_response()),
        Err(TableStoreError::Invalid(e)) => {
            let refused = (e.field(), e.message().to_string());
            Ok(tables_page(&state, &staff, form, Some(refused)).await)
        }
        Err(TableStoreError::Store(e)) => Err(PageError::internal(e)),
    }
}

#[derive(Template)]
#[template(path = "double_hand_poker/table.html")]
struct TablePage<'a> {
    ctx: PageContext,
    table: &'a Table,
    rules: String,
    /// The house way's name, for its chart's link.
    house_way: String,
    player_schedule: String,
    bank_schedule: String,
    limits: String,
    /// The recent hands, each with when it was opened on the floor's clock.
    hands: Vec<(HandSummary, crate::web::time::When)>,
    current: Option<&'a HandSummary>,
    can_assign: bool,
    can_play: bool,
    idempotency_key: String,
    refusal: TableRefusal,
    /// The open shift covering the table (its id, what it covers, since
    /// when), and who is in the box (docs/shifts.md).
    shift: Option<(String, String, String)>,
    in_the_box: String,
    /// The rotation clock and the TPPPs (docs/shifts.md).
    floor: super::table_floor::FloorView,
}

/// A refused form of a table's page: the assign form's message beside its
/// user name, with the name typed kept; opening a hand's beside its button;
/// the TPPP and override forms' beside theirs (`table_floor.rs`).
#[derive(Default)]
pub(super) struct TableRefusal {
    pub dealer: String,
    pub username: String,
    pub open: String,
    pub tppp: String,
    pub tppp_name: String,
    pub rotation: String,
    pub reason: String,
}

impl TableRefusal {
    fn any(&self) -> bool {
        ![&self.dealer, &self.open, &self.tppp, &self.rotation]
            .iter()
            .all(|m| m.is_empty())
    }
}

pub(super) async fn load_table(state: &AppState, name: &str) -> Result<Table, PageError> {
    match tables::get(&state.db, name).await {
        Ok(Some(t)) => Ok(t),
        Ok(None) => Err(ApiError::NotFound(format!("table: no table \"{name}\"")).into()),
        Err(e) => Err(e.into()),
    }
}

/// Refuses (403, recorded) unless the signed-in staff member may run hands
/// at `table`: a dealer only where assigned.
pub(super) async fn require_play(
    state: &AppState,
    staff: &Staff,
    table: &str,
) -> Result<(), PageError> {
    let action = play_action(state, staff, table).await?;
    Ok(staff.require_here(state, action).await?)
}

/// Whether the signed-in staff member may run hands at `table`.
pub(super) async fn may_play(
    state: &AppState,
    staff: &Staff,
    table: &str,
) -> Result<bool, PageError> {
    let action = play_action(state, staff, table).await?;
    Ok(allows(staff.0.user.role, action))
}

/// What running hands at `table` takes of the signed-in staff member: a
/// training table takes the training right, a real one the assignment.
async fn play_action(state: &AppState, staff: &Staff, table: &str) -> Result<Action, PageError> {
    let found =
        tables::assignment(&state.db, AtTable::Table(table), &staff.0.user.username).await?;
    Ok(found.map_or(Action::ActOnTable { assigned: false }, |a| a.run_hands()))
}

/// The table's PD rotation rules in words, when it has any.
fn rotation_words(rules: &crate::domain::double_hand_poker::options::RuleOptions) -> String {
    let clock = crate::domain::double_hand_poker::rotation_clock::RotationRule::of(rules)
        .map(|r| {
            format!(
                "; the bank to {} players other than a TPPP every {} minutes",
                r.min_other, r.minutes
            )
        })
        .unwrap_or_default();
    let offer = if rules.pd_offer_each_hand {
        "; the bank offered before every hand"
    } else {
        ""
    };
    let tppp = if rules.tppp_wagers_only_as_pd {
        format!(
            "; at most {} TPPP, who bets only as the PD",
            rules.tppp_max_per_table
        )
    } else {
        String::new()
    };
    format!("{clock}{offer}{tppp}")
}

pub(super) async fn table_page(
    state: &AppState,
    staff: &Staff,
    name: &str,
    refusal: TableRefusal,
) -> PageResult {
    let table = load_table(state, name).await?;
    let hands = tables::hands(&state.db, name, RECENT_HANDS).await?;
    let can_play = may_play(state, staff, name).await?;
    let user = &staff.0.user;
    let config = &table.config;
    let rules = config.rules();
    let limits = match (config.wager_min, config.wager_max) {
        (None, None) => "none".to_string(),
        (lo, hi) => format!(
            "{} to {}",
            lo.map_or("—".into(), |m| m.to_string()),
            hi.map_or("—".into(), |m| m.to_string())
        ),
    };
    let current = hands.iter().find(|h| h.is_open());
    let failed = refusal.any();
    let floor = super::table_floor::floor_view(state, staff, config).await?;
    let open_shift = crate::store::shifts::open_at(&state.db, &config.name).await?;
    let in_the_box = open_shift
        .as_ref()
        .and_then(|s| s.dealer_now(&config.name))
        .unwrap_or("")
        .to_string();
    let shift = open_shift.map(|s| {
        let scope = match &s.table {
            Some(t) => format!("table {t}"),
            None => "the room".to_string(),
        };
        let since = crate::web::time::when(state.time_zone, &s.opened.at).local;
        (s.id, scope, since)
    });
    let body = page(&TablePage {
        ctx: PageContext::of(staff),
        rules: format!(
            "{}: joker {:?}, wheel {:?}, foul {:?}, smallest unit {}, PD needs {} wagers",
            config.profile.name(),
            rules.joker,
            rules.wheel,
            rules.foul,
            rules.min_unit,
            rules.pd_min_wagers
        )
        .to_lowercase()
            + &rotation_words(&rules),
        house_way: rules.house_way.name().to_string(),
        player_schedule: schedule_text(config.player_schedule.as_deref()),
        bank_schedule: schedule_text(config.bank_schedule.as_deref()),
        limits,
        current,
        hands: hands
            .iter()
            .map(|h| {
                (
                    h.clone(),
                    crate::web::time::when(state.time_zone, &h.opened_at),
                )
            })
            .collect(),
        table: &table,
        can_assign: allows(user.role, Action::AssignDealers),
        can_play,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        refusal,
        shift,
        in_the_box,
        floor,
    });
    Ok(if failed {
        (StatusCode::UNPROCESSABLE_ENTITY, body).into_response()
    } else {
        body
    })
}

async fn show(State(state): State<AppState>, staff: Staff, Path(name): Path<String>) -> PageResult {
    table_page(&state, &staff, &name, TableRefusal::default()).await
}

#[derive(Deserialize)]
struct DealerForm {
    #[serde(default)]
    username: String,
    #[serde(default)]
    op: String,
}

async fn dealers(
    PagePost {
        state,
        id: name,
        staff,
        form,
    }: PagePost<DealerForm>,
) -> PageResult {
    staff.require_here(&state, Action::AssignDealers).await?;
    let refused = |message: String| TableRefusal {
        dealer: message,
        username: form.username.clone(),
        ..TableRefusal::default()
    };
    let assign = match form.op.as_str() {
        "assign" => true,
        "remove" => false,
        other => {
            let message = format!("\"{other}\" is neither Assign nor Remove: press one of them");
            return table_page(&state, &staff, &name, refused(message)).await;
        }
    };
    let actor = &staff.0.user.username;
    match tables::set_dealer(
        &state.db,
        &state.audit_key,
        actor,
        &name,
        form.username.trim(),
        assign,
    )
    .await
    {
        Ok(()) => Ok(Redirect::to(&format!("/tables/{name}")).into_response()),
        Err(TableStoreError::Invalid(e)) => {
            table_page(&state, &staff, &name, refused(e.message().to_string())).await
        }
        Err(TableStoreError::Store(e)) => Err(PageError::internal(e)),
    }
}

#[derive(Deserialize)]
struct OpenForm {
    #[serde(default)]
    idempotency_key: String,
}

/// Opens a hand with the table's rules as they are now.
async fn open_hand(
    PagePost {
        state,
        id: name,
        staff,
        form,
    }: PagePost<OpenForm>,
) -> PageResult {
    let table = load_table(&state, &name).await?;
    require_play(&state, &staff, &name).await?;
    let config = &table.config;
    let command = HandCommand {
        idempotency_key: form.idempotency_key,
        expected_version: None,
        actor: staff.0.user.username.clone(),
        // The store records the table's rules as they are when it runs.
        events: vec![HandEvent::HandOpened {
            table: config.name.clone(),
            dealer: String::new(),
            profile: None,
            options: None,
            seats: None,
            posted: None,
            tppps: Vec::new(),
        }],
    };
    match state.hand_writer.submit(None, command).await {
        Ok((result, _)) => Ok(Redirect::to(&format!("/hands/{}", result.hand_id)).into_response()),
        Err(e) if command_status(&e) == StatusCode::INTERNAL_SERVER_ERROR => {
            Err(PageError::internal(e))
        }
        Err(e) => {
            let refusal = TableRefusal {
                open: e.to_string(),
                ..TableRefusal::default()
            };
            table_page(&state, &staff, &name, refusal).await
        }
    }
}
