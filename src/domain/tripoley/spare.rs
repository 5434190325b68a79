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
