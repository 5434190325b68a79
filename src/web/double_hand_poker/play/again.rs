//! What the table's recent closed hands offer a dealer: the wagers step's
//! "last hand's wagers again" (`domain::double_hand_poker::wagers_again`)
//! and the form that places one or all of them as one command; a seat's
//! bettors seen there and at the table; the last bank, for the PD's keypad;
//! and whether results are entered as cards.

use super::ShowQuery;
use super::forms::{Fields, Refused};
use super::view::{self as v, Loaded, Step};
use crate::domain::common::money::Money;
use crate::domain::double_hand_poker::hand_record::HandEvent;
use crate::domain::double_hand_poker::settle::WagerInput;
use crate::domain::double_hand_poker::wagers_again::{WagerOffer, recent_bettors, wagers_again};
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

/// How many closed hands the bettors offered at a seat are drawn from.
const RECENT_CLOSED: usize = 3;

/// The table's latest closed hands before `loaded`, newest first (an open
/// or voided hand in between is passed over); none when they cannot be
/// read: what they offer is a convenience, never a reason to fail the page.
async fn recent_closed(state: &AppState, loaded: &Loaded) -> Vec<Loaded> {
    let Ok(recent) = tables::hands(&state.db, &loaded.state.table, LOOK_BACK_HANDS).await else {
        return Vec::new();
    };
    let closed = recent
        .iter()
        .filter(|h| h.status == "closed" && h.id != loaded.view.id)
        .take(RECENT_CLOSED);
    let mut hands = Vec::with_capacity(RECENT_CLOSED);
    for hand in closed {
        if let Ok(Some(view)) = hands::get(&state.db, &hand.id).await
            && let Ok(loaded) = Loaded::from_view(view)
        {
            hands.push(loaded);
        }
    }
    hands
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

/// What the table's recent hands offer a dealer on this page.
#[derive(Default)]
pub(super) struct Offered {
    /// The last closed hand's wagers, offered again (wagers step).
    pub again: Vec<AgainRow>,
    /// The bettors seen at the chosen seat, then at the table (wagers step).
    pub bettors: Vec<String>,
    /// Results are entered as cards: as asked, else as the last closed
    /// hand's were.
    pub cards_mode: bool,
    /// The last closed hand's bank (the PD step's first quick amount).
    pub last_bank: Option<Money>,
}

/// What the table's recent closed hands offer at this step.
pub(super) async fn offered(
    state: &AppState,
    loaded: &Loaded,
    query: &ShowQuery,
    step: Step,
    can_play: bool,
) -> Offered {
    let recent = if matches!(step, Step::Pd | Step::Wagers | Step::Results) && can_play {
        recent_closed(state, loaded).await
    } else {
        Vec::new()
    };
    let cards_mode = match query.mode.as_deref() {
        Some(mode) => mode == "cards",
        None => recent
            .first()
            .is_some_and(|p| p.state.any_entered_as_cards()),
    };
    let last_bank = recent.first().and_then(|h| h.state.pd().map(|p| p.bank));
    if step != Step::Wagers {
        return Offered {
            cards_mode,
            last_bank,
            ..Offered::default()
        };
    }
    let mut seen: Vec<&[WagerInput]> = recent.iter().map(|h| h.state.wagers()).collect();
    seen.push(loaded.state.wagers());
    let pd = loaded.state.pd().map(|p| p.player.as_str());
    Offered {
        again: offers(recent.first(), loaded),
        bettors: recent_bettors(&seen, query.seat, pd),
        cards_mode,
        last_bank,
    }
}
