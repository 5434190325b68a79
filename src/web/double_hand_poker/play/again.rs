//! The wagers step's "last hand's wagers again": the offers
//! (`domain::double_hand_poker::wagers_again`) from the table's last closed
//! hand, and the form that places one or all of them as one command.

use super::ShowQuery;
use super::forms::{Fields, Refused};
use super::view::{self as v, Loaded, Step};
use crate::domain::double_hand_poker::hand_record::HandEvent;
use crate::domain::double_hand_poker::wagers_again::{WagerOffer, wagers_again};
use crate::store::double_hand_poker::{hands, tables};
use crate::web::AppState;

/// How many of the table's latest hands are looked through for the last
/// closed one (an open or voided hand in between is passed over).
const LOOK_BACK_HANDS: i64 = 5;

/// An offer as the page shows it and its form sends it back.
pub struct AgainRow {
    pub seat: i64,
    pub bettor: String,
    pub amount: String,
    pub backline: bool,
    /// `SEAT:AMOUNT:KIND:BETTOR`, the bettor last so it may hold a colon.
    pub value: String,
}

/// The table's last closed hand before `loaded`, or none (no such hand,
/// or it cannot be read: what it offers is a convenience, never a reason
/// to fail the page).
pub(super) async fn last_closed(state: &AppState, loaded: &Loaded) -> Option<Loaded> {
    let recent = tables::hands(&state.db, &loaded.state.table, LOOK_BACK_HANDS)
        .await
        .ok()?;
    let last = recent
        .iter()
        .find(|h| h.status == "closed" && h.id != loaded.view.id)?;
    let view = hands::get(&state.db, &last.id).await.ok()??;
    Loaded::from_view(view).ok()
}

/// The wagers of `previous` (the last closed hand) to offer in `loaded`.
pub(super) fn offers(previous: Option<&Loaded>, loaded: &Loaded) -> Vec<AgainRow> {
    let Some(previous) = previous else {
        return Vec::new();
    };
    let pd = loaded.state.pd().map(|p| (p.seat, p.player.as_str()));
    wagers_again(previous.state.wagers(), loaded.state.wagers(), pd)
        .into_iter()
        .map(row)
        .collect()
}

fn row(o: WagerOffer) -> AgainRow {
    let kind = if o.backline { "backline" } else { "own" };
    AgainRow {
        value: format!("{}:{}:{kind}:{}", o.seat, o.amount, o.bettor),
        seat: o.seat,
        bettor: o.bettor,
        amount: o.amount.to_display(),
        backline: o.backline,
    }
}

/// The wagers an "again" form sends, each `WagerPlaced` with an id from
/// the form's key and its place in the form (a form sent twice is the
/// same command).
pub(super) fn events(fields: &Fields, key: &str) -> Result<Vec<HandEvent>, Refused> {
    let sent: Vec<&str> = fields
        .0
        .iter()
        .filter(|(k, _)| k == "again")
        .map(|(_, v)| v.as_str())
        .collect();
    if sent.is_empty() {
        return Err(("again".into(), "choose a wager to place again".into()));
    }
    sent.iter()
        .enumerate()
        .map(|(i, value)| {
            let bad = || {
                (
                    "again".to_string(),
                    "that wager is not one this page offered; reload the page".to_string(),
                )
            };
            let mut parts = value.splitn(4, ':');
            let (Some(seat), Some(amount), Some(kind), Some(bettor)) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(bad());
            };
            Ok(HandEvent::WagerPlaced {
                id: format!("w-{key}-{}", i + 1),
                seat: seat.parse().map_err(|_| bad())?,
                bettor: bettor.to_string(),
                amount: v::money_field("again", amount)?,
                backline: match kind {
                    "own" => false,
                    "backline" => true,
                    _ => return Err(bad()),
                },
                payout: None,
            })
        })
        .collect()
}

/// The last closed hand's wagers offered again (at the wagers step), and
/// whether results are entered as cards: as asked, else as that hand's
/// were.
pub(super) async fn offered(
    state: &AppState,
    loaded: &Loaded,
    query: &ShowQuery,
    step: Step,
    can_play: bool,
) -> (Vec<AgainRow>, bool) {
    let previous = if matches!(step, Step::Wagers | Step::Results) && can_play {
        last_closed(state, loaded).await
    } else {
        None
    };
    let again = match step {
        Step::Wagers => offers(previous.as_ref(), loaded),
        _ => Vec::new(),
    };
    let cards_mode = match query.mode.as_deref() {
        Some(mode) => mode == "cards",
        None => previous.is_some_and(|p| p.state.any_entered_as_cards()),
    };
    (again, cards_mode)
}
