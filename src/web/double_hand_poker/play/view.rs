//! What the guided hand page shows, built from the hand's folded state:
//! which step the dealer is on, the wagers with the collection due, the
//! settlement steps in action order, the summary, and the table drawing.

use crate::domain::common::money::Money;
use crate::domain::double_hand_poker::hand_record::{HandEvent, HandState, Phase};
use crate::domain::double_hand_poker::hand_words::{self, SeatWords};
use crate::domain::double_hand_poker::options::RuleOptions;
use crate::domain::double_hand_poker::settle::{self, Move, Schedule, Settlement, Verb};
use crate::domain::double_hand_poker::table::{PdProposal, TableConfig};
use crate::store::double_hand_poker::hands::HandView;
use crate::web::svg::Svg;

use crate::domain::double_hand_poker::coverage::{self, Cover};
use crate::web::double_hand_poker::drawing::{DrawnWager, SeatLink, TableDrawing};

/// The screen the dealer is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Pd,
    Wagers,
    Dice,
    Results,
    Settle,
    Close,
    Closed,
    Voided,
}

impl Step {
    pub fn name(self) -> &'static str {
        match self {
            Step::Pd => "pd",
            Step::Wagers => "wagers",
            Step::Dice => "dice",
            Step::Results => "results",
            Step::Settle => "settle",
            Step::Close => "close",
            Step::Closed => "closed",
            Step::Voided => "voided",
        }
    }

    pub fn number(self) -> u8 {
        match self {
            Step::Pd => 1,
            Step::Wagers => 2,
            Step::Dice => 3,
            Step::Results => 4,
            _ => 5,
        }
    }
}

/// A wager as the wagers list shows it: its amount and the collection due
/// as a person reads them (`Money::to_display`).
pub struct WagerRow {
    pub id: String,
    pub seat: i64,
    pub bettor: String,
    pub amount: String,
    pub backline: bool,
    pub collection: String,
}

pub struct StepRow {
    pub number: usize,
    pub wager: String,
    pub seat: u8,
    pub bettor: String,
    pub amount: String,
    /// The chips to move, first and large (`Step::moves`).
    pub moves: Vec<MoveRow>,
    /// The confirm button's words: "Paid Bo 60.00".
    pub done_words: String,
    pub outcome: &'static str,
    pub explanation: String,
    pub in_action_after: String,
    pub confirmed: bool,
}

/// The wagers of the steps not yet confirmed, as the confirm form names
/// them (`w1,w2`).
pub fn pending(steps: &[StepRow]) -> String {
    steps
        .iter()
        .filter(|s| !s.confirmed)
        .map(|s| s.wager.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// One movement of chips as a page shows it: PAY 60.00 to Bo (seat 5).
pub struct MoveRow {
    /// PAY, COLLECT or RETURN.
    pub verb: &'static str,
    /// Its style (`pay`, `collect`, `return`): a colour beside the word.
    pub class: &'static str,
    pub amount: String,
    pub whom: String,
}

impl From<&Move> for MoveRow {
    fn from(m: &Move) -> MoveRow {
        MoveRow {
            verb: m.verb.word(),
            class: match m.verb {
                Verb::Pay => "pay",
                Verb::Collect => "collect",
                Verb::Return => "return",
            },
            amount: m.amount.to_display(),
            whom: m.whom.clone(),
        }
    }
}

/// A line of the summary: its amounts as a person reads them
/// (`Money::to_display`: "1,234.50", "−60.00").
pub struct TotalRow {
    pub name: String,
    pub staked: String,
    pub received: String,
    pub net: String,
    pub fee: String,
}

pub struct Summary {
    pub players: Vec<TotalRow>,
    pub pd: TotalRow,
    pub pd_returned: String,
    pub house_collection: String,
    pub money_in: String,
    pub money_out: String,
    pub balanced: bool,
}

/// A hand loaded for a page.
pub struct Loaded {
    pub view: HandView,
    pub state: HandState,
    /// The hand's events, as recorded (`view.events`' payloads).
    pub events: Vec<HandEvent>,
}

impl Loaded {
    pub fn from_view(view: HandView) -> Result<Loaded, String> {
        let events = view
            .events
            .iter()
            .map(|r| HandEvent::from_json(&r.payload).map_err(|e| format!("seq {}: {e}", r.seq)))
            .collect::<Result<Vec<_>, _>>()?;
        let state = HandState::fold(&events).map_err(|e| e.to_string())?;
        Ok(Loaded {
            view,
            state,
            events,
        })
    }

    /// The hand as it was after its first `n` events (1..=the number of
    /// events): the same fold over fewer events, the view cut to them.
    pub fn after(&self, n: usize) -> Result<Loaded, String> {
        let events = self.events.get(..n).ok_or("no such step")?.to_vec();
        let state = HandState::fold(&events).map_err(|e| e.to_string())?;
        let mut view = self.view.clone();
        view.events.truncate(n);
        Ok(Loaded {
            view,
            state,
            events,
        })
    }

    /// The settlement walkthrough as the hand stands: the next step to
    /// confirm (its index), its seat, and the bank still in action — the
    /// PD's bank before the first step, after the last confirmed one
    /// since.
    pub fn in_action(&self, steps: &[StepRow]) -> (Option<usize>, Option<i64>, Option<String>) {
        let next_step = steps.iter().position(|s| !s.confirmed);
        let current_seat = next_step.map(|i| i64::from(steps[i].seat));
        let in_action = match next_step {
            Some(0) => self.state.pd().map(|p| p.bank.to_display()),
            Some(i) => Some(steps[i - 1].in_action_after.clone()),
            None => steps.last().map(|s| s.in_action_after.clone()),
        };
        (next_step, current_seat, in_action)
    }

    /// The step to show; `asked` is the `?step=` of the address.
    pub fn step(&self, asked: Option<&str>) -> Step {
        match self.state.phase() {
            Phase::Voided => Step::Voided,
            Phase::Closed => Step::Closed,
            Phase::Betting if self.state.pd().is_none() => Step::Pd,
            Phase::Betting if asked == Some("dice") && !self.state.wagers().is_empty() => {
                Step::Dice
            }
            Phase::Betting => Step::Wagers,
            Phase::Dealt => match self.state.scenario() {
                Err(_) => Step::Results,
                Ok(scenario) => match settle::settle(&scenario) {
                    Ok(s)
                        if s.steps
                            .iter()
                            .all(|st| self.state.confirmed().contains(st.wager)) =>
                    {
                        Step::Close
                    }
                    _ => Step::Settle,
                },
            },
        }
    }

    /// Seats with a wager, in seat order.
    pub fn wagered_seats(&self) -> Vec<i64> {
        let mut seats: Vec<i64> = self.state.wagers().iter().map(|w| w.seat).collect();
        seats.sort_unstable();
        seats.dedup();
        seats
    }

    /// The line under the drawing while bets are taken (the wagers and
    /// dice steps): the wagers, their total and the bank, and by how much
    /// the wagers pass it ("4 wagers · 260.00 wagered · bank 200.00 · 60.00
    /// more than the bank"); empty on the other steps and before the PD.
    pub fn running_line(&self, step: Step) -> String {
        let Some(pd) = self
            .state
            .pd()
            .filter(|_| matches!(step, Step::Wagers | Step::Dice))
        else {
            return String::new();
        };
        let wagers = self.state.wagers();
        let total = wagers.iter().fold(Money::ZERO, |sum, w| sum + w.amount);
        let count = match wagers.len() {
            1 => "1 wager".to_string(),
            n => format!("{n} wagers"),
        };
        let mut line = format!(
            "{count} · {} wagered · bank {}",
            total.to_display(),
            pd.bank.to_display()
        );
        if total > pd.bank {
            let over = (total - pd.bank).to_display();
            line.push_str(&format!(" · {over} more than the bank"));
        }
        line
    }

    /// On the results step: each wager in ACTION order with what the bank
    /// covers of it (`domain::double_hand_poker::coverage`).
    pub fn covers(&self, step: Step) -> Vec<Cover> {
        if step != Step::Results {
            return Vec::new();
        }
        coverage::before_results(&self.state.scenario_input()).unwrap_or_default()
    }

    /// The seats with wagers in ACTION order: from the ACTION seat
    /// clockwise (up the seat numbers, wrapping), as the steps are settled;
    /// by number before the dice.
    pub fn seats_in_action_order(&self) -> Vec<i64> {
        let mut seats = self.wagered_seats();
        if let Some(action) = self.action_seat() {
            let count = self.seats();
            seats.sort_by_key(|&seat| (seat - action).rem_euclid(count));
        }
        seats
    }

    pub fn action_seat(&self) -> Option<i64> {
        self.state.scenario_input().action.seat.or_else(|| {
            let dice = self.state.scenario_input().action.dice?;
            let dice: [i64; 3] = dice.try_into().ok()?;
            let pd = self.state.pd()?;
            crate::domain::double_hand_poker::action_dice::action_seat(dice, pd.seat, self.seats())
                .ok()
                .map(i64::from)
        })
    }

    pub fn seats(&self) -> i64 {
        self.state.scenario_input().seats.unwrap_or(7)
    }

    pub fn wager_rows(&self, table: Option<&TableConfig>) -> Vec<WagerRow> {
        let schedule = table.and_then(|t| {
            let unit = t.rules().min_unit;
            t.player_schedule
                .as_deref()
                .and_then(|b| Schedule::parse("player_schedule", b, unit).ok())
        });
        self.state
            .wagers()
            .iter()
            .map(|w| WagerRow {
                id: w.id.clone(),
                seat: w.seat,
                bettor: w.bettor.clone(),
                amount: w.amount.to_display(),
                backline: w.backline,
                collection: match &schedule {
                    Some(s) => s
                        .fee_for(w.amount)
                        .map_or("outside the schedule".into(), |f| f.to_display()),
                    None => "none".into(),
                },
            })
            .collect()
    }

    /// The settlement as it stands (every result in), or None.
    pub fn with_settlement<T>(&self, f: impl FnOnce(&Settlement<'_>) -> T) -> Option<T> {
        let scenario = self.state.scenario().ok()?;
        let settlement = settle::settle(&scenario).ok()?;
        Some(f(&settlement))
    }

    /// Every seat's hands in words once the results decide the hand
    /// (empty before).
    pub fn hands_shown(&self) -> Vec<SeatWords> {
        self.state
            .scenario()
            .ok()
            .and_then(|s| {
                let way = s.options().house_way().ok()?;
                Some(hand_words::hands_shown(&s, way))
            })
            .unwrap_or_default()
    }

    /// The house-way preview under the hand's card rules, with the way back.
    pub fn house_way_href(&self) -> String {
        let input = self.state.scenario_input();
        let opts = RuleOptions::for_profile(input.profile.unwrap_or_default())
            .with(&input.options.unwrap_or_default());
        format!(
            "/tools/house-way?profile={}&joker={}&wheel={}&house_way={}&hand={}",
            opts.profile,
            hand_words::joker_name(opts.joker),
            hand_words::wheel_name(opts.wheel),
            opts.house_way.name(),
            self.view.id
        )
    }

    /// The wagers still on the felt: a chip leaves as its settlement step
    /// is confirmed, and none is left once the hand is closed or voided.
    fn chips_on_the_felt(&self) -> Vec<DrawnWager> {
        if matches!(self.state.phase(), Phase::Closed | Phase::Voided) {
            return Vec::new();
        }
        let confirmed = self.state.confirmed();
        self.state
            .wagers()
            .iter()
            .filter(|w| !confirmed.contains(&w.id))
            .map(DrawnWager::from)
            .collect()
    }

    /// The table drawn; with `seat_link` (the PD and wagers steps) each
    /// seat is a link that chooses it for the step's form. A voided hand's chips are
    /// gone (every bet was returned); its page greys the drawing.
    pub fn drawing(
        &self,
        current_seat: Option<i64>,
        in_action: Option<&str>,
        seat_link: Option<SeatLink<'_>>,
    ) -> Svg {
        let pd = self.state.pd();
        TableDrawing {
            seats: self.seats(),
            pd_seat: pd.map(|p| p.seat),
            pd_player: pd.map(|p| p.player.as_str()),
            bank: pd.map(|p| p.bank.to_display()),
            action_seat: self.action_seat(),
            wagers: self.chips_on_the_felt(),
            current_seat,
            in_action,
            seat_link,
            results: Vec::new(),
        }
        .svg()
    }
}

pub fn step_rows(s: &Settlement<'_>, loaded: &Loaded) -> Vec<StepRow> {
    s.steps
        .iter()
        .enumerate()
        .map(|(i, st)| StepRow {
            number: i + 1,
            wager: st.wager.to_string(),
            seat: st.seat,
            bettor: st.bettor.to_string(),
            amount: st.amount.to_display(),
            moves: st.moves().iter().map(MoveRow::from).collect(),
            done_words: st.done_words(),
            outcome: match st.outcome {
                crate::domain::double_hand_poker::outcome::Outcome::Player => "player wins",
                crate::domain::double_hand_poker::outcome::Outcome::Pd => "PD wins",
                crate::domain::double_hand_poker::outcome::Outcome::Push => "push",
            },
            explanation: st.explanation_shown(),
            in_action_after: st.in_action_after().to_display(),
            confirmed: loaded.state.confirmed().contains(st.wager),
        })
        .collect()
}

fn total_row(name: &str, t: &settle::Total) -> TotalRow {
    TotalRow {
        name: name.to_string(),
        staked: t.staked.to_display(),
        received: t.received.to_display(),
        net: t.net.to_display(),
        fee: t.fee.to_display(),
    }
}

pub fn summary(s: &Settlement<'_>) -> Summary {
    let c = &s.conservation;
    Summary {
        players: s
            .totals
            .bettors
            .iter()
            .map(|(name, t)| total_row(name, t))
            .collect(),
        pd: total_row(&format!("{} (PD)", s.pd.player), &s.totals.pd),
        pd_returned: s.pd_returned.to_display(),
        house_collection: s.house_collection.to_display(),
        money_in: c.money_in.to_display(),
        money_out: c.money_out.to_display(),
        balanced: c.money_in == c.money_out && c.fees_taken == c.house_collection,
    }
}

/// The proposal shown on the PD screen, as text.
pub fn proposal_text(p: &Option<PdProposal>) -> String {
    match p {
        Some(p) => format!("Seat {}, {}: {}", p.seat, p.player, p.why),
        None => "No proposal: ask the table who takes the bank.".to_string(),
    }
}

/// Money typed in a form: refused with the field named.
pub fn money_field(field: &str, text: &str) -> Result<Money, (String, String)> {
    Money::parse(text.trim()).map_err(|e| (field.to_string(), format!("\"{text}\": {e}")))
}
