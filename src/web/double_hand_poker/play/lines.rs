//! A hand's events as the record and the replay show them: each first as a
//! sentence on the cardroom's clock ("14:02:11 dana: Ann bets 60.00 on
//! seat 4", `domain::double_hand_poker::event_words`), with the UTC the
//! record keeps, and the exact record beneath; and the record page.

use askama::Template;
use axum::extract::{Path, State};

use super::view::{self as v, Loaded, StepRow, Summary};
use super::{changes, load, notes, pd, status};
use crate::domain::double_hand_poker::event_words;
use crate::domain::double_hand_poker::hand_record::Phase;
use crate::store::audit::AuditRecord;
use crate::web::staff::page;
use crate::web::time::{When, when};
use crate::web::{AppState, PageContext, PageResult, Staff};

/// One event as shown.
pub struct EventLine<'a> {
    /// Its place in the hand, from 1 (the replay's step).
    pub step: usize,
    pub record: &'a AuditRecord,
    pub when: When,
    pub sentence: String,
    /// `correction`, `void` or `note` for what the replay marks, else empty.
    pub mark: &'static str,
}

/// Every event of `loaded`'s hand, oldest first.
pub fn lines(loaded: &Loaded, zone: chrono_tz::Tz) -> Vec<EventLine<'_>> {
    let sentences = event_words::sentences(&loaded.events);
    loaded
        .view
        .events
        .iter()
        .zip(sentences)
        .enumerate()
        .map(|(i, (record, sentence))| EventLine {
            step: i + 1,
            record,
            when: when(zone, &record.recorded_at),
            sentence,
            mark: match record.event_type.as_str() {
                "outcome_corrected" => "correction",
                "hand_voided" => "void",
                "hand_note_added" => "note",
                _ => "",
            },
        })
        .collect()
}

#[derive(Template)]
#[template(path = "double_hand_poker/hand_record.html")]
struct RecordPage<'a> {
    ctx: PageContext,
    id: &'a str,
    table: &'a str,
    number: i64,
    status: &'a str,
    /// The hand's state beside its title.
    status_tag: status::StatusTag,
    /// Each record as a sentence first, on the cardroom's clock, with the
    /// PD's option and refusals in words where it sets the PD.
    events: Vec<(EventLine<'a>, String)>,
    changes: Vec<changes::ChangeRow>,
    notes: Vec<notes::NoteRow>,
    /// Every seat's hands in words (`hand/hands_shown.html`).
    hands_shown: Vec<crate::domain::double_hand_poker::hand_words::SeatWords>,
    /// A closed hand's money: each person's staked, received and net, the
    /// collection, the PD's return (`hand/summary.html`), and its steps.
    summary: Option<Summary>,
    steps: Vec<StepRow>,
}

/// Every event of a hand: who, when, what, with its chain position.
pub(super) async fn record(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> PageResult {
    let loaded = load(&state, &id).await?;
    // The money of a closed hand only: an open hand's is not yet final, a
    // voided hand's bets all went back.
    let closed = loaded.state.phase() == Phase::Closed;
    Ok(page(&RecordPage {
        ctx: PageContext::of(&staff),
        id: &loaded.view.id,
        table: &loaded.view.table,
        number: loaded.view.number,
        status: &loaded.view.status,
        status_tag: status::status_tag(&loaded),
        events: lines(&loaded, state.time_zone)
            .into_iter()
            .map(|line| {
                let r = line.record;
                let note = match r.event_type.as_str() {
                    "pd_set" => pd::pd_set_note(&r.payload).unwrap_or_default(),
                    _ => String::new(),
                };
                (line, note)
            })
            .collect(),
        changes: changes::rows(&loaded, state.time_zone),
        notes: notes::rows(&loaded, state.time_zone),
        hands_shown: loaded.hands_shown(),
        summary: closed.then(|| loaded.with_settlement(v::summary)).flatten(),
        steps: closed
            .then(|| loaded.with_settlement(|s| v::step_rows(s, &loaded)))
            .flatten()
            .unwrap_or_default(),
    }))
}
