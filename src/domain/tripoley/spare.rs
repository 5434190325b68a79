//! The spare hand (`classic` only): the dealer may swap hands with the unseen
//! spare, then sell the spare (the old hand, after a swap) to a buyer, who
//! pays the dealer and puts their own hand down as the new dead hand.

use super::board::{Ledger, Note, Place};
use super::deal::Deal;
use super::error::{TripoleyError, chips};
use super::input::{Profile, SpareInput};
use super::step::StepKind;
use super::table::{CHIPS_MAX, Table, chip_count, not_at_table, seat_of};

pub fn play_spare(
    profile: Profile,
    spare: Option<&SpareInput>,
    table: &Table,
    in_round: &[bool],
    deal: &mut Deal,
    ledger: &mut Ledger,
) -> Result<(), TripoleyError> {
    let Some(spare) = spare else {
        return Ok(());
    };
    let dealer = table.dealer;
    let dealer_name = &table.names[dealer];
    let wanted = [
        ("spare.dealer_swaps", spare.dealer_swaps),
        ("spare.auction", spare.auction.is_some()),
    ];
    for (field, used) in wanted {
        if !used {
            continue;
        }
        if profile == Profile::Cadaco {
            return Err(TripoleyError::input(
                field,
                "the spare hand is not played under the cadaco profile (classic only)",
            ));
        }
        if !in_round[dealer] {
            return Err(TripoleyError::input(
                field,
                format!("the dealer \"{dealer_name}\" sits this round out"),
            ));
        }
    }
    if spare.dealer_swaps {
        if let Some(Some(hand)) = deal.hands.get_mut(dealer) {
            std::mem::swap(hand, &mut deal.spare);
        }
        ledger.note(
            None,
            Some(dealer_name.clone()),
            Some("spare".into()),
            Note::new(
                StepKind::SpareSwap,
                format!("{dealer_name} (dealer) takes the unseen spare; their old hand is now the spare, face down."),
            ),
        );
    }
    let Some(auction) = &spare.auction else {
        return Ok(());
    };
    let buyer_field = "spare.auction.buyer";
    let buyer = seat_of(&table.names, &auction.buyer)
        .ok_or_else(|| not_at_table(buyer_field, &auction.buyer))?;
    let buyer_name = &table.names[buyer];
    if buyer == dealer {
        return Err(TripoleyError::input(
            buyer_field,
            format!("\"{buyer_name}\" is the dealer, who sells the spare"),
        ));
    }
    if !in_round[buyer] {
        return Err(TripoleyError::input(
            buyer_field,
            format!("\"{buyer_name}\" sits this round out"),
        ));
    }
    let price = chip_count("spare.auction.price", auction.price, CHIPS_MAX)?;
    let has = ledger.held(Place::Player(buyer));
    if price > has {
        return Err(TripoleyError::input(
            "spare.auction.price",
            format!(
                "{price} is more than the {} \"{buyer_name}\" has after the ante",
                chips(has)
            ),
        ));
    }
    ledger.transfer(
        Place::Player(buyer),
        Place::Player(dealer),
        price,
        Note::new(
            StepKind::SpareAuction,
            format!(
                "{buyer_name} buys the unseen spare for {}, paid to {dealer_name} (dealer); {buyer_name}'s old hand is now the dead hand.",
                chips(price)
            ),
        ),
    )?;
    if let Some(Some(hand)) = deal.hands.get_mut(buyer) {
        std::mem::swap(hand, &mut deal.spare);
    }
    Ok(())
}

/// The spare's auction as a form gives it, a buyer and a price each typed
/// or not: both is a sale, neither is none. A price with no buyer is
/// refused, never dropped (the dealer meant to record a sale), and so is a
/// buyer with no price.
pub fn auction_of(
    buyer: Option<&str>,
    price: Option<i64>,
) -> Result<Option<(String, i64)>, TripoleyError> {
    match (buyer.map(str::trim).filter(|b| !b.is_empty()), price) {
        (Some(buyer), Some(price)) => Ok(Some((buyer.to_string(), price))),
        (None, None) => Ok(None),
        (Some(buyer), None) => Err(TripoleyError::input(
            "spare.auction.price",
            format!("type the chips {buyer} pays the dealer for the spare"),
        )),
        (None, Some(price)) => Err(TripoleyError::input(
            "spare.auction.buyer",
            format!(
                "a price of {} was typed but nobody buys the spare: choose the buyer, or clear the price",
                chips(price.unsigned_abs())
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::field_error::AsFieldError;

    #[test]
    fn an_auction_needs_both_its_buyer_and_its_price() {
        let sale = Some(("Bo".to_string(), 3));
        type Case<'a> = (
            Option<&'a str>,
            Option<i64>,
            Result<Option<(String, i64)>, &'a str>,
        );
        let cases: Vec<Case> = vec![
            (Some("Bo"), Some(3), Ok(sale)),
            (None, None, Ok(None)),
            (Some("  "), None, Ok(None)),
            (None, Some(3), Err("spare.auction.buyer")),
            (Some(" "), Some(0), Err("spare.auction.buyer")),
            (Some("Bo"), None, Err("spare.auction.price")),
        ];
        for (buyer, price, want) in cases {
            let got = auction_of(buyer, price).map_err(|e| {
                let fe = e.field_error().expect("bad input");
                assert!(!fe.message().is_empty());
                fe.field().to_string()
            });
            assert_eq!(got, want.map_err(str::to_string), "{buyer:?} {price:?}");
        }
    }
}
