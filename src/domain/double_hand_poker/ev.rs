//! The exact value of every setting of seven cards (`pitbook hand ev`,
//! `POST /api/v1/hands/ev`): each of the 21 settings played against every
//! hand the other side can hold from the rest of the deck, that side setting
//! by house way, counted as wins, pushes and losses. Copies go to the
//! banker; the house way never fouls, so the other side's hand is always
//! the one it sets. The other side's hands are split by their first card
//! (an index into the rest of the deck) so a shell counts the parts on
//! every CPU and adds them up ([`EvCounts::plus`]).

use rust_decimal::Decimal;

use super::house_way::census::deck_size;
use super::house_way::table::{ByRanks, SetterTable, Values};
use super::house_way::{HouseWay, NotLoaded};
use super::options::{FoulRule, OptionOverrides, Profile, RuleOptions};
use super::setting::{Setting, all_settings};
use super::tools::{CardsText, HandRules, ToolError};
use crate::cards::eval::HandRank;
use crate::cards::seven::for_each_seven;
use crate::cards::{Card, parse_exact};

/// Whose seven cards are valued.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
#[schema(as = EvSide)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// A player's, against the banker (the PD or the house) setting by
    /// house way.
    #[default]
    Player,
    /// The banker's (the PD's), against one player setting by house way.
    Banker,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Player => "player",
            Side::Banker => "banker",
        }
    }
}

/// How one setting is played: as set, or (fouled) always lost or re-set.
#[derive(Debug, Clone, Copy)]
enum Played {
    /// These hands behind and in front.
    Hands(HandRank, HandRank),
    /// A fouled player hand under `foul: loses`.
    Lost,
}

/// What is counted: the seven cards' settings as played, the cards the
/// other side's hands come from, and who banks.
#[derive(Debug, Clone)]
pub struct EvJob {
    pub cards: [Card; 7],
    pub settings: Vec<Setting>,
    /// Index into `settings` of the one the house way chooses.
    pub house_way: usize,
    pub side: Side,
    pub opts: RuleOptions,
    played: Vec<Played>,
    /// The high and low ranks the settings play, each sorted once.
    highs: Vec<HandRank>,
    lows: Vec<HandRank>,
    rest: Vec<Card>,
    /// The grid cell ([`EvJob::count_part`]) of the other side's hand, by
    /// its rank pattern and flush.
    cells: ByRanks<u16>,
}

/// Wins, pushes and losses of each setting, over some of the other side's
/// hands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EvCounts {
    pub hands: u64,
    pub win: Vec<u64>,
    pub push: Vec<u64>,
    pub loss: Vec<u64>,
}

impl EvCounts {
    fn new(settings: usize) -> EvCounts {
        EvCounts {
            hands: 0,
            win: vec![0; settings],
            push: vec![0; settings],
            loss: vec![0; settings],
        }
    }

    pub fn plus(mut self, other: EvCounts) -> EvCounts {
        if self.win.is_empty() {
            return other;
        }
        self.hands += other.hands;
        for (mine, theirs) in [
            (&mut self.win, other.win),
            (&mut self.push, other.push),
            (&mut self.loss, other.loss),
        ] {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self
    }
}

impl EvJob {
    /// The job for `cards` (seven different cards, checked by the caller),
    /// the other side's hands dealt from the rest of the options' deck,
    /// both sides setting by the options' house way.
    pub fn new(cards: [Card; 7], side: Side, opts: &RuleOptions) -> Result<EvJob, NotLoaded> {
        let deck = (0..deck_size(opts)).map(|i| Card::from_index(i).unwrap_or(Card::JOKER));
        let rest = deck.filter(|c| !cards.contains(c)).collect();
        EvJob::over(cards, rest, side, opts)
    }

    /// The job with the other side's hands dealt from `rest` alone (tests
    /// count a small deck by hand with it).
    pub fn over(
        cards: [Card; 7],
        rest: Vec<Card>,
        side: Side,
        opts: &RuleOptions,
    ) -> Result<EvJob, NotLoaded> {
        let way = opts.house_way()?;
        let table = SetterTable::of(opts)?;
        let settings = all_settings(&cards, opts);
        let chosen = way.set_ranked(&cards, opts).hand;
        let house_way = settings
            .iter()
            .position(|s| s.hand == chosen)
            .unwrap_or_default();
        let hw = &settings[house_way];
        let played = settings
            .iter()
            .map(|s| match (s.fouled, side, opts.foul) {
                (false, _, _) => Played::Hands(s.high_rank, s.low_rank),
                (true, Side::Player, FoulRule::Loses) => Played::Lost,
                // Re-set by house way: a fouled PD hand always, a player's
                // under `foul: reset_house_way`.
                (true, _, _) => Played::Hands(hw.high_rank, hw.low_rank),
            })
            .collect::<Vec<_>>();
        let ranks = |of: fn(HandRank, HandRank) -> HandRank| {
            let mut ranks: Vec<HandRank> = played
                .iter()
                .filter_map(|p| match *p {
                    Played::Hands(high, low) => Some(of(high, low)),
                    Played::Lost => None,
                })
                .collect();
            ranks.sort_unstable();
            ranks.dedup();
            ranks
        };
        let mut job = EvJob {
            cards,
            settings,
            house_way,
            side,
            opts: *opts,
            highs: ranks(|high, _| high),
            lows: ranks(|_, low| low),
            played,
            rest,
            cells: ByRanks::default(),
        };
        job.cells = table.values.map(|v| job.cell(v));
        Ok(job)
    }

    /// The parts [`EvJob::count_part`] takes: one per possible first card.
    pub fn parts(&self) -> std::ops::Range<usize> {
        0..self.rest.len().saturating_sub(6)
    }

    /// The parts `parts` counted on rayon's threads and added up: with
    /// [`EvJob::parts`], every hand the other side can hold.
    pub fn count(&self, parts: std::ops::Range<usize>) -> EvCounts {
        use rayon::prelude::*;
        let way = self
            .opts
            .house_way()
            .expect("EvJob::new found it; a loaded house way is never dropped");
        parts
            .into_par_iter()
            .map(|first| self.count_part(way, first))
            .reduce(EvCounts::default, EvCounts::plus)
    }

    /// Every hand of the other side: C(n, 7) of the `n` cards left.
    pub fn hands(&self) -> u64 {
        let n = self.rest.len() as u64;
        (0..7).fold(1, |c, k| c * (n - k) / (k + 1))
    }

    /// Counts the other side's hands whose first card is `rest[first]`.
    ///
    /// Each hand is set by the house way and only its place among the
    /// settings' own ranks is counted: `a`, how many of the high ranks it
    /// beats or ties (player: copies lose, so `≤`; banker: copies win, so
    /// `<`), and `b`, the same of the low ranks — its grid cell, which the
    /// house way's table ([`SetterTable`]) gives by the hand's rank pattern
    /// (`cells`, placed once for the job), so a hand costs one read. A
    /// setting whose high is the `jh`-th of them then wins behind exactly
    /// when `a ≤ jh`, so its wins are the grid's corner `a ≤ jh, b ≤ jl`
    /// and its losses the corner `a > jh, b > jl` — summed once per part,
    /// not compared 21 times a hand.
    pub fn count_part(&self, way: &dyn HouseWay, first: usize) -> EvCounts {
        let mut grid = vec![0u64; (self.highs.len() + 1) * (self.lows.len() + 1)];
        for_each_seven(&self.rest, first, |other, dealt| {
            let cell = match self.cells.get(dealt) {
                Some(cell) => usize::from(cell),
                None => {
                    let set = way.set_ranked(other, &self.opts);
                    usize::from(self.cell((set.high, set.low)))
                }
            };
            grid[cell] += 1;
        });
        let columns = self.lows.len() + 1;
        let mut counts = EvCounts::new(self.settings.len());
        counts.hands = grid.iter().sum();
        for (i, played) in self.played.iter().enumerate() {
            let Played::Hands(high, low) = *played else {
                counts.loss[i] = counts.hands;
                continue;
            };
            let (jh, jl) = (beaten_at(&self.highs, high), beaten_at(&self.lows, low));
            for (a, row) in grid.chunks_exact(columns).enumerate() {
                for (b, &n) in row.iter().enumerate() {
                    match (a <= jh, b <= jl) {
                        (true, true) => counts.win[i] += n,
                        (false, false) => counts.loss[i] += n,
                        _ => counts.push[i] += n,
                    }
                }
            }
        }
        counts
    }
}

impl EvJob {
    /// The grid cell of an other side's hand that plays `values`.
    fn cell(&self, (high, low): Values) -> u16 {
        let beaten = |ranks: &[HandRank], r: HandRank| match self.side {
            Side::Player => ranks.partition_point(|t| *t <= r),
            Side::Banker => ranks.partition_point(|t| *t < r),
        };
        // At most 22 × 22 cells.
        (beaten(&self.highs, high) * (self.lows.len() + 1) + beaten(&self.lows, low)) as u16
    }
}

/// The place of a setting's own rank among the sorted `ranks`.
fn beaten_at(ranks: &[HandRank], rank: HandRank) -> usize {
    ranks.partition_point(|t| *t < rank)
}

/// `hand ev` / `POST /api/v1/hands/ev`: seven cards, whose side they are,
/// and the rules (`options.house_way` names the house way both sides use).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EvRequest {
    pub cards: CardsText,
    #[serde(default)]
    pub side: Side,
    #[serde(default)]
    pub profile: Option<Profile>,
    #[serde(default)]
    pub options: Option<OptionOverrides>,
}

/// One setting's exact value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct EvSetting {
    /// 1..21, as `hand settings` numbers them.
    pub number: usize,
    pub high: Vec<Card>,
    pub low: Vec<Card>,
    pub fouled: bool,
    pub win: u64,
    pub push: u64,
    pub loss: u64,
    /// (win − loss) / hands, per unit bet, to 6 places.
    #[schema(value_type = String, pattern = r"^-?[0-9]+(\.[0-9]+)?$", example = "0.123456")]
    pub ev: Decimal,
}

/// Every setting's value, the house way's choice and the best.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct EvResponse {
    pub cards: Vec<Card>,
    pub side: Side,
    /// The other side's hands counted: C(46, 7) = 53,524,680 with the joker.
    pub hands: u64,
    pub settings: Vec<EvSetting>,
    /// Index into `settings` of the house way's setting.
    pub house_way: usize,
    /// Index into `settings` of the setting worth the most (the house way's
    /// when it is among the best).
    pub best: usize,
    /// What the house way's setting gives up against the best, per unit bet.
    #[schema(value_type = String, pattern = r"^-?[0-9]+(\.[0-9]+)?$", example = "0.000000")]
    pub cost: Decimal,
    pub house_way_name: String,
    pub rules: HandRules,
}

/// Places an `ev` is given to.
pub const EV_PLACES: u32 = 6;

impl EvRequest {
    /// The job this request asks for, its cards and options checked.
    pub fn job(&self) -> Result<EvJob, ToolError> {
        let opts = super::tools::rule_options(self.profile, self.options.as_ref())?;
        let cards: [Card; 7] = parse_exact(&self.cards.0, &opts)?;
        Ok(EvJob::new(cards, self.side, &opts)?)
    }
}

impl EvJob {
    /// The response, from the counts over all of [`EvJob::parts`].
    pub fn response(&self, counts: &EvCounts) -> EvResponse {
        let hands = counts.hands.max(1);
        let net = |i: usize| counts.win[i] as i128 - counts.loss[i] as i128;
        let per_hand = |n: i128| {
            (Decimal::from_i128_with_scale(n, 0) / Decimal::from(hands))
                .round_dp(EV_PLACES)
                .normalize()
        };
        let most = (0..self.settings.len()).map(net).max().unwrap_or_default();
        let best = if net(self.house_way) == most {
            self.house_way
        } else {
            (0..self.settings.len())
                .find(|&i| net(i) == most)
                .unwrap_or_default()
        };
        EvResponse {
            cards: self.cards.to_vec(),
            side: self.side,
            hands: counts.hands,
            settings: self
                .settings
                .iter()
                .enumerate()
                .map(|(i, s)| EvSetting {
                    number: i + 1,
                    high: s.hand.high.to_vec(),
                    low: s.hand.low.to_vec(),
                    fouled: s.fouled,
                    win: counts.win[i],
                    push: counts.push[i],
                    loss: counts.loss[i],
                    ev: per_hand(net(i)),
                })
                .collect(),
            house_way: self.house_way,
            best,
            cost: per_hand(most - net(self.house_way)),
            house_way_name: self.opts.house_way.name().to_string(),
            rules: HandRules::from(&self.opts),
        }
    }
}

#[cfg(test)]
#[path = "ev_tests.rs"]
mod tests;
