//! The `california-2026` rotation rules that need the table's history,
//! checked before a command reaches the writer (docs/shifts.md): a hand
//! opens only while the rotation clock runs, and a TPPP takes the bank only
//! when every eligible player was offered it and refused. The rules are the
//! core's (`rotation_clock`, `rotation::propose_pd`); this reads what they
//! need. Read before the write transaction: a table's hands and their PDs
//! are set one after another, by its dealer.

use super::plan::{SELECT_HAND_EVENTS, existing_hand, table_to_open};
use super::{CommandError, HandCommand};
use crate::domain::double_hand_poker::hand_record::{HandError, HandEvent};
use crate::domain::double_hand_poker::options::RuleOptions;
use crate::domain::double_hand_poker::rotation_clock::is_tppp;
use crate::domain::double_hand_poker::table::{PastHand, propose_pd};
use crate::store::double_hand_poker::tables;
use crate::store::{Db, StoreError};

/// Closed hands read back for the rotation proposal.
pub const ROTATION_HANDS: i64 = 12;

/// Refuses a command the table's rotation rules forbid (see the module).
pub(in crate::store) async fn check_rotation(
    db: &Db,
    zone: chrono_tz::Tz,
    hand_id: Option<&str>,
    command: &HandCommand,
) -> Result<(), CommandError> {
    let pd_set = command
        .events
        .iter()
        .position(|e| matches!(e, HandEvent::PdSet { .. }));
    if hand_id.is_some() && pd_set.is_none() {
        return Ok(());
    }
    // Where the command works: the hand's table, rules and marked TPPPs.
    let (table, rules, tppps, seats) = match hand_id {
        Some(id) => {
            let payloads = payloads(db, id).await?;
            if payloads.is_empty() {
                return Ok(()); // The writer names the unknown hand.
            }
            let state = existing_hand(id, &payloads)?
                .state
                .ok_or(HandError::NotOpened)?;
            let seats = state
                .scenario_input()
                .seats
                .unwrap_or(crate::domain::double_hand_poker::settle::DEFAULT_SEATS);
            (
                state.table.clone(),
                state.rules(),
                state.tppps().to_vec(),
                seats,
            )
        }
        None => {
            let Ok(name) = table_to_open(command) else {
                return Ok(()); // The writer names the fault.
            };
            let Some(table) = tables::get(db, &name).await? else {
                return Ok(());
            };
            let now = chrono::Utc::now();
            if let Some(clock) = crate::store::shifts::floor::clock(db, &table.config, now).await? {
                clock
                    .check_open(|t| t.with_timezone(&zone).format("%H:%M").to_string())
                    .map_err(CommandError::RotationClock)?;
            }
            let rules = table.config.rules();
            if pd_set.is_none() || !rules.pd_offer_each_hand {
                return Ok(());
            }
            let tppps = crate::store::shifts::floor::marks_at(db, &name).await?;
            (name, rules, tppps, table.config.seats)
        }
    };
    if let Some(index) = pd_set {
        check_tppp_offer(
            db,
            &table,
            &rules,
            &tppps,
            seats,
            index,
            &command.events[index],
        )
        .await?;
    }
    Ok(())
}

/// A TPPP as PD under `pd_offer_each_hand`: nobody the rotation would
/// offer the bank to may be left after the refusals recorded.
async fn check_tppp_offer(
    db: &Db,
    table: &str,
    rules: &RuleOptions,
    tppps: &[String],
    seats: i64,
    index: usize,
    event: &HandEvent,
) -> Result<(), CommandError> {
    let HandEvent::PdSet {
        player, declined, ..
    } = event
    else {
        return Ok(());
    };
    if !rules.pd_offer_each_hand || !is_tppp(tppps, player) {
        return Ok(());
    }
    let history = rotation_history(db, table, ROTATION_HANDS).await?;
    let refused: Vec<i64> = declined.iter().map(|d| d.seat).collect();
    let Some(next) = propose_pd(&history, &refused, seats, rules.pd_min_wagers) else {
        return Ok(());
    };
    if is_tppp(tppps, &next.player) {
        return Ok(());
    }
    Err(HandError::At {
        index,
        error: Box::new(HandError::Refused {
            field: "player".into(),
            value: player.clone(),
            why: format!(
                "is a TPPP, and {} (seat {}) may still take the bank: offer it to them and record their refusal first; a TPPP banks only when every eligible player refused (pd_offer_each_hand)",
                next.player, next.seat
            ),
        }),
    }
    .into())
}

async fn payloads(db: &Db, hand_id: &str) -> Result<Vec<String>, StoreError> {
    Ok(on_pool!(db, |pool| sqlx::query_scalar(SELECT_HAND_EVENTS)
        .bind(hand_id)
        .fetch_all(pool)
        .await?))
}

/// The table's last `limit` closed hands, oldest first, as the rotation
/// proposal reads them.
pub async fn rotation_history(
    db: &Db,
    table: &str,
    limit: i64,
) -> Result<Vec<PastHand>, StoreError> {
    let recent = tables::hands(db, table, limit).await?;
    let mut history = Vec::new();
    for h in recent.iter().rev().filter(|h| h.status == "closed") {
        let prior = existing_hand(&h.id, &payloads(db, &h.id).await?)
            .map_err(|e| StoreError::Internal(format!("hand {}: {e}", h.id)))?;
        let Some(state) = prior.state else { continue };
        let Some(pd) = state.pd() else { continue };
        let choice = state.pd_choice();
        history.push(PastHand {
            pd_seat: pd.seat,
            pd_player: pd.player.clone(),
            option: choice.option,
            declined: choice.declined.clone(),
            primary_wagers: state
                .wagers()
                .iter()
                .filter(|w| !w.backline)
                .map(|w| (w.seat, w.bettor.clone()))
                .collect(),
        });
    }
    Ok(history)
}
