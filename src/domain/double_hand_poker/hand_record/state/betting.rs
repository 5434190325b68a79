//! The betting phase's events: the PD and the bank, the wagers, the
//! collection. A new event is held to the table's posted rules and to the
//! settlement's own field checks ([`TableRules`]) as it is taken.

use super::apply::{Applied, Origin};
use super::{Bank, HandState, PdChoice, Phase, Stage, unset_pd};
use crate::double_hand_poker::hand_record::HandError;
use crate::double_hand_poker::hand_record::events::HandEvent;
use crate::double_hand_poker::hand_record::pd::{Declined, PdOption, check_declined};
use crate::double_hand_poker::settle::{self, BracketInput, CollectionInput, PdInput, WagerInput};

impl HandState {
    /// `pd_set`: who banks, how much, the option they chose and who
    /// refused it first. May be sent again (a new PD) until the dice.
    pub(super) fn set_pd(
        &mut self,
        pd: PdInput,
        option: Option<PdOption>,
        declined: &[Declined],
        origin: Origin,
    ) -> Applied {
        self.require(Phase::Betting, "pd_set", "the PD is set before the dice")?;
        self.check_offer_recorded(option)?;
        if let Some(rules) = &self.setup.enforced {
            rules.check_seat("seat", pd.seat)?;
        }
        if origin == Origin::New {
            let seats = self.setup.seats.unwrap_or(settle::DEFAULT_SEATS);
            check_declined(pd.seat, declined, seats)?;
        }
        let player = self.name("player", &pd.player, origin)?;
        // The refusing players' names, normalised like the PD's.
        let mut renamed = false;
        let mut refused = Vec::with_capacity(declined.len());
        for (i, d) in declined.iter().enumerate() {
            let name = self.name(&format!("declined[{i}].player"), &d.player, origin)?;
            renamed |= name.is_some();
            refused.push(Declined {
                seat: d.seat,
                player: name.unwrap_or_else(|| d.player.clone()),
            });
        }
        let pd = PdInput {
            player: player.clone().unwrap_or(pd.player),
            ..pd
        };
        let recorded = (player.is_some() || renamed).then(|| HandEvent::PdSet {
            seat: pd.seat,
            player: pd.player.clone(),
            bank: pd.bank,
            option,
            declined: refused.clone(),
        });
        let choice = PdChoice {
            option,
            declined: refused,
        };
        self.bets.bank = Some(Bank { pd, choice });
        if origin == Origin::New {
            self.check_bets()?;
        }
        Ok(recorded)
    }

    /// `wager_placed`: a bet, in placement order, once the PD is set.
    pub(super) fn place_wager(&mut self, wager: WagerInput, origin: Origin) -> Applied {
        const EVENT: &str = "wager_placed";
        self.require(
            Phase::Betting,
            EVENT,
            "wagers close when the dice are rolled",
        )?;
        if self.bets.bank.is_none() {
            return Err(self.wrong_phase(EVENT, "set the PD and the bank first"));
        }
        if let Some(rules) = &self.setup.enforced {
            rules.check_wager(wager.seat, wager.amount)?;
        }
        let bettor = self.name("bettor", &wager.bettor, origin)?;
        let wager = WagerInput {
            bettor: bettor.clone().unwrap_or(wager.bettor),
            ..wager
        };
        self.check_tppp_bettor(&wager.bettor)?;
        let recorded = bettor.is_some().then(|| HandEvent::WagerPlaced {
            id: wager.id.clone(),
            seat: wager.seat,
            bettor: wager.bettor.clone(),
            amount: wager.amount,
            backline: wager.backline,
            payout: wager.payout.clone(),
        });
        self.bets.wagers.push(wager);
        if origin == Origin::New {
            self.check_bets()?;
        }
        Ok(recorded)
    }

    /// `wager_removed`: a wager placed by mistake, undone before the dice.
    pub(super) fn remove_wager(&mut self, id: &str, reason: &str, origin: Origin) -> Applied {
        self.require(
            Phase::Betting,
            "wager_removed",
            "wagers can be removed only before the dice",
        )?;
        self.reason(reason, origin)?;
        let index = self.wager_index(id)?;
        self.bets.wagers.remove(index);
        Ok(None)
    }

    /// `collection_taken`: the house fee, by the table's posted schedules
    /// (recorded as posted when the client sent none).
    pub(super) fn take_collection(
        &mut self,
        player: &Option<Vec<BracketInput>>,
        bank: &Option<Vec<BracketInput>>,
        origin: Origin,
    ) -> Applied {
        const EVENT: &str = "collection_taken";
        self.require(Phase::Betting, EVENT, "collection is taken before play")?;
        if self.bets.collection.is_some() {
            return Err(self.wrong_phase(EVENT, "the collection was already taken"));
        }
        let given = CollectionInput {
            player: player.clone(),
            bank: bank.clone(),
        };
        let collection = match &self.setup.enforced {
            Some(rules) => rules.collection(player, bank)?,
            None => given.clone(),
        };
        let recorded = (collection != given).then(|| HandEvent::CollectionTaken {
            player: collection.player.clone(),
            bank: collection.bank.clone(),
        });
        self.bets.collection = Some(collection);
        if origin == Origin::New {
            self.check_bets()?;
        }
        Ok(recorded)
    }

    /// The PD and the wagers by the settlement's field checks, and the
    /// collection, if taken, covering each of them. Run after the event is
    /// applied: a refused event's state is dropped with the error.
    fn check_bets(&self) -> Result<(), HandError> {
        let rules = self.table_rules()?;
        let pd = self.pd().cloned().unwrap_or_else(unset_pd);
        let pd_seat = rules.pd(&pd)?;
        rules.wagers(&self.bets.wagers, pd_seat)?;
        if let Some(collection) = &self.bets.collection {
            rules.collection(collection, &self.bets.wagers, &pd)?;
        }
        Ok(())
    }

    /// What a command must leave true while bets can still change: every
    /// backline is on a seat with its own wager (a command may place the
    /// backline before the primary).
    pub(super) fn check_backlines(&self) -> Result<(), HandError> {
        let (Stage::Betting | Stage::Dealt(_), Some(bank)) = (&self.stage, &self.bets.bank) else {
            return Ok(());
        };
        let rules = self.table_rules()?;
        let pd_seat = rules.pd(&bank.pd)?;
        Ok(rules.backlines(&self.bets.wagers, pd_seat)?)
    }
}
