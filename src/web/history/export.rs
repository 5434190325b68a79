//! `GET /history/export` (the search page's download links) and
//! `GET /api/v1/hands/export`: the search's filters and `format=csv|jsonl`
//! (docs/hand-history.md). The filters are checked before any byte is sent
//! (a 422 naming the field); the body is then streamed: the export is
//! written on a blocking thread into a bounded channel the body reads, so
//! memory does not grow with the number of hands, and a client that goes
//! away stops the export.

use std::io::Write;

use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;

use super::export_lines::{Format, write_export};
use super::{Pairs, checked, refused};
use crate::domain::common::field_error::FieldError;
use crate::domain::history::{HandFilter, TimeRange};
use crate::domain::staff::Action;
use crate::web::{ApiError, AppState, ErrorBody, Staff};

/// Bytes sent to the body at a time.
const CHUNK_BYTES: usize = 256 * 1024;
/// Chunks written ahead of the client at most.
const CHUNKS_AHEAD: usize = 4;

/// The keys of paging, which an export ignores: it holds the whole set.
const PAGING: [&str; 2] = ["after", "limit"];

/// Export the hands a search keeps, whole (no paging).
///
/// JSON lines (`pitbook-hand-history/1`, one hand a line, checkable offline
/// with `pitbook history check`) or CSV (one row a wager). Streamed.
#[utoipa::path(get, path = "/api/v1/hands/export", operation_id = "export_hands", tag = "history",
    params(
        ("format" = Option<String>, Query, description = "jsonl (default) or csv."),
        ("table" = Option<String>, Query, description = "As the search (`GET /api/v1/hands`)."),
        ("dealer" = Option<String>, Query, description = "As the search."),
        ("pd" = Option<String>, Query, description = "As the search."),
        ("player" = Option<String>, Query, description = "As the search."),
        ("status" = Option<String>, Query, description = "As the search."),
        ("kind" = Option<String>, Query, description = "As the search."),
        ("bank_min" = Option<String>, Query, description = "As the search."),
        ("wager_min" = Option<String>, Query, description = "As the search."),
        ("number" = Option<String>, Query, description = "As the search."),
        ("note" = Option<String>, Query, description = "As the search."),
        ("period" = Option<String>, Query, description = "As the search."),
        ("date" = Option<String>, Query, description = "As the search."),
        ("from" = Option<String>, Query, description = "As the search."),
        ("to" = Option<String>, Query, description = "As the search."),
    ),
    responses(
        (status = 200, description = "The export, as a download (`Content-Disposition`). Each \
JSON line is one hand, valid against docs/hand-history.schema.json (docs/hand-history.md).",
            content(
                (String = "application/x-ndjson"),
                (String = "text/csv"),
            )),
        (status = 403, description = "Not an admin, supervisor or auditor (`forbidden`).", body = ErrorBody),
        (status = 422, description = "A malformed filter or format, naming it; nothing is sent before the check.", body = ErrorBody),
    ))]
pub async fn export(
    State(state): State<AppState>,
    staff: Staff,
    Query(pairs): Pairs,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::ReviewHistory).await?;
    let mut format = Format::Jsonl;
    let mut filters = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        if key == "format" {
            format = Format::parse(&value).ok_or_else(|| {
                let message = format!("\"{value}\" is not an export format; choose csv or jsonl");
                refused(vec![FieldError::new("format", message).with_value(value)])
            })?;
        } else if !PAGING.contains(&key.as_str()) {
            filters.push((key, value));
        }
    }
    let internal = |e: crate::store::StoreError| ApiError::from(e).into_response();
    let (filter, bounds) = match checked(&state, &filters).await.map_err(internal)? {
        Ok(checked) => checked,
        Err(errors) => return Err(refused(errors)),
    };
    let today = chrono::Utc::now()
        .with_timezone(&state.time_zone)
        .date_naive()
        .to_string();
    let filename = file_name(&filter, &today, format);
    let (sender, receiver) = mpsc::channel::<std::io::Result<Bytes>>(CHUNKS_AHEAD);
    let (db, zone) = (state.db.clone(), state.time_zone);
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let mut body = ToBody {
            sender: sender.clone(),
            buffer: Vec::with_capacity(CHUNK_BYTES),
        };
        if let Err(e) = write_export(&db, &runtime, &filter, bounds, format, zone, &mut body) {
            // The client sees a cut body, never a complete-looking file.
            tracing::error!(error = %e, "hand-history export failed");
            let _ = sender.blocking_send(Err(std::io::Error::other(e.to_string())));
        }
    });
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|chunk| (chunk, receiver))
    });
    let disposition = format!("attachment; filename=\"{filename}\"");
    let mut response = Body::from_stream(stream).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(format.content_type()),
    );
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// `hands-T1-2026-11-24.csv`: the table (or `all-tables`) and the day the
/// filter names (else `today`), in characters safe in a header.
fn file_name(filter: &HandFilter, today: &str, format: Format) -> String {
    let table: String = filter
        .table()
        .unwrap_or("all-tables")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let day = match &filter.range {
        Some(TimeRange::Day(d)) => d.to_string(),
        _ => today.to_string(),
    };
    format!("hands-{table}-{day}.{}", format.extension())
}

/// The body's end of the channel, as a `Write` for the export.
struct ToBody {
    sender: mpsc::Sender<std::io::Result<Bytes>>,
    buffer: Vec<u8>,
}

impl ToBody {
    fn send(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::replace(
            &mut self.buffer,
            Vec::with_capacity(CHUNK_BYTES),
        ));
        self.sender.blocking_send(Ok(chunk)).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away")
        })
    }
}

impl Write for ToBody {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= CHUNK_BYTES {
            self.send()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}
