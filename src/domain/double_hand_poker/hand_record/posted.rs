//! The rules a table posts beyond the game's options — wager limits and the
//! collection schedules — recorded in `hand_opened` with the profile,
//! options and seats, and enforced on every event of the hand (new or
//! replayed by `audit verify`). A hand recorded before they were recorded
//! carries none and replays exactly as before.

use serde::{Deserialize, Serialize};

use super::HandError;
use super::events::HandEvent;
use crate::common::money::{Money, Unit};
use crate::double_hand_poker::settle::{BracketInput, CollectionInput};
use crate::double_hand_poker::table::TableConfig;

/// Posted with the hand: what the table's sign says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PostedRules {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wager_min: Option<Money>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wager_max: Option<Money>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_schedule: Option<Vec<BracketInput>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_schedule: Option<Vec<BracketInput>>,
}

impl PostedRules {
    /// True when the table takes a collection before play.
    pub fn takes_collection(&self) -> bool {
        self.player_schedule.is_some() || self.bank_schedule.is_some()
    }

    /// The collection as `collection_taken` must record it.
    pub fn collection(&self) -> CollectionInput {
        CollectionInput {
            player: self.player_schedule.clone(),
            bank: self.bank_schedule.clone(),
        }
    }
}

/// The opening event of a hand at `table`, dealt by `dealer` (the signed-in
/// user): the table's rules as they are now, and the TPPPs marked there,
/// all recorded.
pub fn opened_at(table: &TableConfig, dealer: &str, tppps: Vec<String>) -> HandEvent {
    HandEvent::HandOpened {
        table: table.name.clone(),
        dealer: dealer.to_string(),
        profile: Some(table.profile),
        options: Some(table.options.clone()),
        seats: Some(table.seats),
        posted: Some(PostedRules {
            wager_min: table.wager_min,
            wager_max: table.wager_max,
            player_schedule: table.player_schedule.clone(),
            bank_schedule: table.bank_schedule.clone(),
        }),
        tppps,
    }
}

/// What a client may send to open a hand: the table's name, and the dealer
/// only if it is the signed-in user. Returns the table's name, checked as
/// free text (NFC; no control, zero-width or bidi character), to be looked
/// up exactly. The rules come from the table, never from the client.
pub fn open_request(event: &HandEvent, actor: &str) -> Result<String, HandError> {
    let HandEvent::HandOpened {
        table,
        dealer,
        profile,
        options,
        seats,
        posted,
        tppps,
    } = event
    else {
        return Err(HandError::NotOpened);
    };
    let given = [
        ("tppps", !tppps.is_empty()),
        ("profile", profile.is_some()),
        ("options", options.is_some()),
        ("seats", seats.is_some()),
        ("posted", posted.is_some()),
    ];
    if let Some((field, _)) = given.iter().find(|(_, given)| *given) {
        return Err(HandError::Refused {
            field: (*field).to_string(),
            value: String::new(),
            why: "the hand's rules come from its table as configured; leave it out".into(),
        });
    }
    if !dealer.is_empty() && dealer != actor {
        return Err(HandError::Refused {
            field: "dealer".into(),
            value: dealer.clone(),
            why: format!(
                "is not the signed-in user \"{actor}\"; leave it out: the dealer is who is signed in"
            ),
        });
    }
    let name =
        crate::common::text::FreeText::line("table", table, crate::common::text::NAME_CHARS_MAX)?;
    Ok(name.into_string())
}

/// The limits and the unit a hand's wagers are held to.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Enforced {
    pub posted: PostedRules,
    pub unit: Unit,
    pub seats: i64,
}

impl Enforced {
    /// A wager's amount, seat and unit against the posted rules.
    pub fn check_wager(&self, seat: i64, amount: Money) -> Result<(), HandError> {
        self.check_seat("seat", seat)?;
        let refuse = |why: String| HandError::Refused {
            field: "amount".into(),
            value: amount.to_string(),
            why,
        };
        if amount <= Money::ZERO || !self.unit.is_multiple(amount) {
            return Err(refuse(format!(
                "must be above zero and a multiple of the table's unit {}",
                self.unit
            )));
        }
        if let Some(lo) = self.posted.wager_min
            && amount < lo
        {
            return Err(refuse(format!("is below the table minimum {lo}")));
        }
        if let Some(hi) = self.posted.wager_max
            && amount > hi
        {
            return Err(refuse(format!("is above the table maximum {hi}")));
        }
        Ok(())
    }

    pub fn check_seat(&self, field: &str, seat: i64) -> Result<(), HandError> {
        if (1..=self.seats).contains(&seat) {
            return Ok(());
        }
        Err(HandError::Refused {
            field: field.into(),
            value: seat.to_string(),
            why: format!("is not a seat of this table (1..{})", self.seats),
        })
    }

    /// The collection recorded must be the posted schedules; none given
    /// means "by the posted schedules" and is recorded as them.
    pub fn collection(
        &self,
        player: &Option<Vec<BracketInput>>,
        bank: &Option<Vec<BracketInput>>,
    ) -> Result<CollectionInput, HandError> {
        if !self.posted.takes_collection() {
            return Err(HandError::Refused {
                field: "player".into(),
                value: String::new(),
                why: "this table posts no collection schedule; take no collection".into(),
            });
        }
        let posted = self.posted.collection();
        if player.is_none() && bank.is_none() {
            return Ok(posted);
        }
        for (field, given, want) in [
            ("player", player, &posted.player),
            ("bank", bank, &posted.bank),
        ] {
            if given != want {
                return Err(HandError::Refused {
                    field: field.into(),
                    value: crate::double_hand_poker::table::schedule_text(given.as_deref()),
                    why: format!(
                        "is not the table's posted schedule \"{}\"",
                        crate::double_hand_poker::table::schedule_text(want.as_deref())
                    ),
                });
            }
        }
        Ok(posted)
    }
}
