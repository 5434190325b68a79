//! `pitbook hand eval | house-way | settings | ev | census` and `pitbook
//! dice`: the hand tools at the table. They call the same functions as `/api/v1/hands/…`
//! and `/api/v1/dice` (`domain::double_hand_poker::tools`); `--json` prints the API's body.

use clap::{Args, Subcommand, ValueEnum};

use super::{CliError, output};
use crate::domain::cards::Card;
use crate::domain::common::text::thousands;
use crate::domain::double_hand_poker::ev::{EvRequest, EvResponse, Side};
use crate::domain::double_hand_poker::house_way::census::deck_size;
use crate::domain::double_hand_poker::options::{
    HouseWayName, JokerRule, OptionOverrides, Profile, RuleOptions, WheelRule,
};
use crate::domain::double_hand_poker::tools::{
    self, CardsRequest, CensusResponse, DiceRequest, DiceResponse, EvalResponse, Evaluated,
    HouseWayResponse, SettingsResponse, ToolError,
};

#[derive(Debug, Subcommand)]
pub enum HandCommand {
    /// Name and rank of a 5- or 2-card hand.
    Eval(CardsArgs),
    /// Set 7 cards by the house way (the reference unless --house-way): HIGH | LOW and the rule used.
    HouseWay(CardsArgs),
    /// The 21 ways to set 7 cards, fouls marked.
    Settings(CardsArgs),
    /// The exact value of each of the 21 settings against every hand the
    /// other side can hold, set by house way (docs/hands.md).
    Ev(EvArgs),
    /// Every seven-card hand of the deck counted by its best five cards'
    /// category (the joker as the rules say).
    Census(CensusArgs),
}

#[derive(Debug, Args)]
pub struct CensusArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct EvArgs {
    #[command(flatten)]
    cards: CardsArgs,
    /// Whose seven cards: a player's against the banker, or the banker's
    /// (the PD's) against one player.
    #[arg(long, value_enum, default_value = "player")]
    side: SideArg,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum SideArg {
    Player,
    Banker,
}

#[derive(Debug, Args)]
pub struct CardsArgs {
    /// The cards, as several arguments or one quoted string: As Kd 10h JK.
    #[arg(value_name = "CARDS")]
    cards: Vec<String>,
    #[command(flatten)]
    rules: RuleArgs,
    /// Print the JSON the HTTP API returns.
    #[arg(long)]
    json: bool,
}

/// The rule profile and the options that change a hand's value.
#[derive(Debug, Args)]
pub struct RuleArgs {
    /// Rule profile.
    #[arg(long, value_enum, default_value = "lucky-chances")]
    profile: ProfileArg,
    /// The joker, over the profile: bug (ace or straight/flush card), wild, or none (not dealt).
    #[arg(long, value_enum)]
    joker: Option<JokerArg>,
    /// Where A-2-3-4-5 ranks, over the profile.
    #[arg(long, value_enum)]
    wheel: Option<WheelArg>,
    /// The house way hands are set by (docs/house-ways.md), over the
    /// profile's reference: reference, foxwoods, atlantic-city, gold-star, mgm,
    /// or a house-way file's path (checked as loading one checks it, once
    /// per text: the checked digests are kept, docs/house-ways.md).
    #[arg(long, value_name = "NAME|FILE", value_parser = house_way_arg)]
    house_way: Option<HouseWayName>,
}

/// A shipped house way's name, else a file read and checked (a bad file
/// is clap's usage error: exit 2 with the file's line).
fn house_way_arg(text: &str) -> Result<HouseWayName, String> {
    if let Some(name) = HouseWayName::ALL.into_iter().find(|w| w.name() == text) {
        return Ok(name);
    }
    let file = std::fs::read_to_string(text).map_err(|e| {
        format!(
            "not a shipped house way (reference, foxwoods, atlantic-city, gold-star, mgm) \
             and not a readable file: {e}"
        )
    })?;
    super::checked_ways::load(&file).map_err(|e| format!("{text}: {e}"))
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ProfileArg {
    LuckyChances,
    Nevada,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum JokerArg {
    Bug,
    Wild,
    None,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum WheelArg {
    Lowest,
    #[value(name = "second_highest", alias = "second-highest")]
    SecondHighest,
}

impl RuleArgs {
    fn profile(&self) -> Profile {
        match self.profile {
            ProfileArg::LuckyChances => Profile::LuckyChances,
            ProfileArg::Nevada => Profile::Nevada,
        }
    }

    fn overrides(&self) -> OptionOverrides {
        OptionOverrides {
            joker: self.joker.map(|j| match j {
                JokerArg::Bug => JokerRule::Bug,
                JokerArg::Wild => JokerRule::Wild,
                JokerArg::None => JokerRule::None,
            }),
            wheel: self.wheel.map(|w| match w {
                WheelArg::Lowest => WheelRule::Lowest,
                WheelArg::SecondHighest => WheelRule::SecondHighest,
            }),
            house_way: self.house_way,
            ..OptionOverrides::default()
        }
    }

    /// The options these arguments give.
    pub(crate) fn options(&self) -> RuleOptions {
        RuleOptions::for_profile(self.profile()).with(&self.overrides())
    }
}

impl CardsArgs {
    fn request(&self) -> CardsRequest {
        CardsRequest {
            cards: tools::CardsText(self.cards.join(" ")),
            profile: Some(self.rules.profile()),
            options: Some(self.rules.overrides()),
        }
    }
}

#[derive(Debug, Args)]
pub struct DiceArgs {
    /// The three dice (1..6), as three arguments or one quoted string.
    #[arg(value_name = "D1 D2 D3", allow_negative_numbers = true)]
    dice: Vec<String>,
    /// The PD's seat (1..seats).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pd_seat: i64,
    /// Seats at the table (2..10).
    #[arg(long, default_value_t = tools::DEFAULT_SEATS, allow_negative_numbers = true)]
    seats: i64,
    /// Print the JSON the HTTP API returns.
    #[arg(long)]
    json: bool,
}

fn bad_input(e: ToolError) -> CliError {
    CliError::BadInput(e.cli_message())
}

pub fn run(command: HandCommand) -> Result<(), CliError> {
    match command {
        HandCommand::Eval(args) => {
            let r = tools::eval(&args.request()).map_err(bad_input)?;
            output(args.json, &r, eval_text)
        }
        HandCommand::HouseWay(args) => {
            let r = tools::house_way(&args.request()).map_err(bad_input)?;
            output(args.json, &r, house_way_text)
        }
        HandCommand::Settings(args) => {
            let r = tools::settings(&args.request()).map_err(bad_input)?;
            output(args.json, &r, settings_text)
        }
        HandCommand::Ev(args) => {
            let cards = args.cards.request();
            let request = EvRequest {
                cards: cards.cards,
                side: match args.side {
                    SideArg::Player => Side::Player,
                    SideArg::Banker => Side::Banker,
                },
                profile: cards.profile,
                options: cards.options,
            };
            let job = request.job().map_err(bad_input)?;
            let r = job.response(&job.count(job.parts()));
            output(args.cards.json, &r, ev_text)
        }
        HandCommand::Census(args) => {
            let r = census(&args.rules.options());
            output(args.json, &r, census_text)
        }
    }
}

/// The census's parts (one per lowest card) on rayon's threads.
fn census(opts: &RuleOptions) -> CensusResponse {
    use crate::domain::cards::eval::EvalRules;
    use crate::domain::cards::seven::census_part;
    use rayon::prelude::*;
    let deck: Vec<Card> = (0..deck_size(opts)).filter_map(Card::from_index).collect();
    let rules = EvalRules::from_options(opts);
    let counts = (0..deck.len() - 6)
        .into_par_iter()
        .map(|first| census_part(&deck, first, rules))
        .reduce(
            || [0; 10],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    CensusResponse::new(opts, counts)
}

/// One line a category, the count and the share of all hands.
fn census_text(r: &CensusResponse) -> String {
    let mut out = format!(
        "{} seven-card hands ({}), by their best five cards:\n",
        thousands(r.hands),
        match r.rules.joker {
            JokerRule::Bug => "53 cards, the joker a bug",
            JokerRule::Wild => "53 cards, the joker wild",
            JokerRule::None => "52 cards, no joker",
        }
    );
    for row in &r.categories {
        let share = row.hands as f64 * 100.0 / r.hands.max(1) as f64;
        out += &format!(
            "{:<16} {:>12}  {:>8.4} %\n",
            row.name,
            thousands(row.hands),
            share
        );
    }
    out
}

pub fn run_dice(args: DiceArgs) -> Result<(), CliError> {
    let dice = tools::parse_dice_text(&args.dice.join(" ")).map_err(bad_input)?;
    let r = tools::dice(&DiceRequest {
        dice,
        pd_seat: args.pd_seat,
        seats: Some(args.seats),
    })
    .map_err(bad_input)?;
    output(args.json, &r, dice_text)
}

fn cards(h: &Evaluated) -> String {
    crate::domain::cards::format_cards(&h.cards)
}

/// `Kh Kd Ks 4c 4d — Full house, kings over fours (rank 402661384)`
fn eval_text(r: &EvalResponse) -> String {
    format!(
        "{} — {} (rank {})\n",
        cards(&r.hand),
        r.hand.name,
        r.hand.rank.value()
    )
}

/// `Qd Jc 9h 8s 8d | As Ks — One pair: …` then both hands' names.
fn house_way_text(r: &HouseWayResponse) -> String {
    format!(
        "{} | {} — {}\nhigh: {}; low: {}\n",
        cards(&r.high),
        cards(&r.low),
        r.house_way.rule,
        r.high.name,
        r.low.name
    )
}

fn settings_text(r: &SettingsResponse) -> String {
    let mut out = format!(
        "{} — {} settings, {} fouled\n",
        crate::domain::cards::format_cards(&r.cards),
        r.settings.len(),
        r.fouled_count
    );
    let widest = |names: &mut dyn Iterator<Item = &str>| {
        names.map(|name| name.chars().count()).max().unwrap_or(0)
    };
    let width = widest(&mut r.settings.iter().map(|s| s.high.name.as_str()));
    let low_width = widest(&mut r.settings.iter().map(|s| s.low.name.as_str()));
    for s in &r.settings {
        let mark = if s.fouled {
            "FOUL"
        } else if r.house_way.setting == Some(s.number) {
            "house way"
        } else {
            ""
        };
        let line = format!(
            "{:>2}. {} | {}   {:<width$} | {:<low_width$}  {}",
            s.number,
            cards(&s.high),
            cards(&s.low),
            s.high.name,
            s.low.name,
            mark
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    match r.house_way.setting {
        Some(n) => out.push_str(&format!(
            "House way ({}): setting {n} — {}\n",
            r.house_way.name, r.house_way.rule
        )),
        None => out.push_str(&format!(
            "House way ({}): {}\n",
            r.house_way.name, r.house_way.rule
        )),
    }
    out
}

/// `ACTION: seat 5` then how it was counted.
fn dice_text(r: &DiceResponse) -> String {
    format!("ACTION: seat {}\n{}\n", r.action_seat, r.explanation)
}

/// Each setting's counts and value, then the house way's choice, the best
/// and what the house way's choice costs.
fn ev_text(r: &EvResponse) -> String {
    use crate::domain::cards::format_cards;
    let mut out = format!(
        "{} as the {}, against every {} hand of the other {} cards set by house way {}: {} hands\n",
        format_cards(&r.cards),
        r.side.name(),
        match r.side {
            Side::Player => "banker",
            Side::Banker => "player",
        },
        if r.rules.joker == JokerRule::None {
            45
        } else {
            46
        },
        r.house_way_name,
        r.hands
    );
    out.push_str(" #  behind          front   fouled        win       push       loss        ev\n");
    for (i, s) in r.settings.iter().enumerate() {
        let mark = match (i == r.house_way, i == r.best) {
            (true, true) => "  house way, best",
            (true, false) => "  house way",
            (false, true) => "  best",
            (false, false) => "",
        };
        out.push_str(&format!(
            "{:>2}  {:<15} {:<7} {:<6} {:>10} {:>10} {:>10} {:>9}{mark}\n",
            s.number,
            format_cards(&s.high),
            format_cards(&s.low),
            if s.fouled { "fouled" } else { "" },
            s.win,
            s.push,
            s.loss,
            s.ev
        ));
    }
    out.push_str(&format!(
        "House way: #{} ({}); best: #{} ({}); the house way's choice costs {} per unit bet\n",
        r.settings[r.house_way].number,
        r.settings[r.house_way].ev,
        r.settings[r.best].number,
        r.settings[r.best].ev,
        r.cost
    ));
    out
}
