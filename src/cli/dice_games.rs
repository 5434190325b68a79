//! `pitbook poker-dice rank | compare | round` and `pitbook ten-thousand
//! score | game`: the dice games at the table. They call the same functions
//! as `/api/v1/poker-dice/…` and `/api/v1/ten-thousand/…`
//! (`domain::poker_dice`, `domain::ten_thousand`); `--json` prints the API's
//! body. See docs/dice-games.md.

use std::io::Read;
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use serde::de::DeserializeOwned;

use super::{CliError, output};
use crate::domain::poker_dice::{
    self, CompareRequest, CompareResponse, FacesText, RankRequest, RankResponse, RoundRequest,
    RoundResponse, Straights,
};
use crate::domain::ten_thousand::{
    self, GameOptions, GameRequest, ScoreRequest, ScoreResponse, ScoreSheet, TurnResult, thousands,
};

/// Largest game or round file read, in bytes.
const FILE_BYTES_MAX: u64 = 4 * 1024 * 1024;

#[derive(Debug, Subcommand)]
pub enum PokerDiceCommand {
    /// Name and rank one hand of five dice.
    Rank(RankArgs),
    /// Compare 2 to 8 hands: the winner or the tie, with the reason.
    Compare(CompareArgs),
    /// A recorded round (JSON FILE, or - for stdin): throws checked, winner named.
    Round(FileArgs),
}

#[derive(Debug, Subcommand)]
pub enum TenThousandCommand {
    /// Every legal keep of one throw with its points, the best, bust or not.
    Score(ScoreArgs),
    /// A recorded game (JSON FILE, or - for stdin) checked and scored to a score sheet.
    Game(FileArgs),
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ProfileArg {
    Caribena,
    Classic,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum StraightsArg {
    None,
    Ranked,
}

#[derive(Debug, Args)]
struct PokerRules {
    /// Face profile: caribena (A K Q J R N) or classic (A K Q J 10 9).
    #[arg(long, value_enum, default_value = "caribena")]
    profile: ProfileArg,
    /// Whether straights rank (between full and tercia).
    #[arg(long, value_enum, default_value = "none")]
    straights: StraightsArg,
}

impl PokerRules {
    fn profile(&self) -> poker_dice::Profile {
        match self.profile {
            ProfileArg::Caribena => poker_dice::Profile::Caribena,
            ProfileArg::Classic => poker_dice::Profile::Classic,
        }
    }

    fn straights(&self) -> Straights {
        match self.straights {
            StraightsArg::None => Straights::None,
            StraightsArg::Ranked => Straights::Ranked,
        }
    }
}

#[derive(Debug, Args)]
pub struct RankArgs {
    /// Five faces, as arguments or one quoted string: A A K K Q.
    #[arg(value_name = "FACES")]
    faces: Vec<String>,
    #[command(flatten)]
    rules: PokerRules,
    /// Print the JSON the HTTP API returns.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Each hand one quoted string: "A A A K K" "Q Q Q J N".
    #[arg(value_name = "HAND")]
    hands: Vec<String>,
    #[command(flatten)]
    rules: PokerRules,
    /// Print the JSON the HTTP API returns.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// The dice thrown (1..6), as arguments or one string: 1 1 2 3 5 6.
    #[arg(value_name = "D", allow_negative_numbers = true)]
    throw: Vec<String>,
    /// Dice in the game: 6 (default) or 5.
    #[arg(long, value_name = "5|6", allow_negative_numbers = true)]
    dice: Option<i64>,
    /// Print the JSON the HTTP API returns.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct FileArgs {
    /// The JSON record; - reads stdin.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Print the JSON the HTTP API returns.
    #[arg(long)]
    json: bool,
}

fn bad(e: impl std::fmt::Display) -> CliError {
    CliError::BadInput(e.to_string())
}

/// Reads and parses a JSON record, naming the field path on an error.
fn read_record<T: DeserializeOwned>(path: &PathBuf) -> Result<T, CliError> {
    let source = path.display().to_string();
    let mut bytes = Vec::new();
    let read = if source == "-" {
        std::io::stdin()
            .take(FILE_BYTES_MAX + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(FILE_BYTES_MAX + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| CliError::Failure(format!("cannot read {source}: {e}")))?;
    if bytes.len() as u64 > FILE_BYTES_MAX {
        return Err(CliError::BadInput(format!(
            "{source}: more than {FILE_BYTES_MAX} bytes"
        )));
    }
    let mut de = serde_json::Deserializer::from_slice(&bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let field = e.path().to_string();
        let field = if field == "." { "body".into() } else { field };
        CliError::BadInput(format!("{source}: {field}: {}", e.into_inner()))
    })?;
    de.end()
        .map_err(|e| CliError::BadInput(format!("{source}: {e}")))?;
    Ok(value)
}

pub fn run_poker_dice(command: PokerDiceCommand) -> Result<(), CliError> {
    match command {
        PokerDiceCommand::Rank(args) => {
            let r = poker_dice::rank(&RankRequest {
                faces: FacesText(args.faces.join(" ")),
                profile: args.rules.profile(),
                straights: args.rules.straights(),
            })
            .map_err(bad)?;
            output(args.json, &r, rank_text)
        }
        PokerDiceCommand::Compare(args) => {
            let r = poker_dice::compare(&CompareRequest {
                hands: args.hands.iter().map(|h| FacesText(h.clone())).collect(),
                profile: args.rules.profile(),
                straights: args.rules.straights(),
            })
            .map_err(bad)?;
            output(args.json, &r, compare_text)
        }
        PokerDiceCommand::Round(args) => {
            let req: RoundRequest = read_record(&args.file)?;
            let r = poker_dice::round(&req).map_err(bad)?;
            output(args.json, &r, round_text)
        }
    }
}

pub fn run_ten_thousand(command: TenThousandCommand) -> Result<(), CliError> {
    match command {
        TenThousandCommand::Score(args) => {
            let dice = ten_thousand::parse_dice_text(&args.throw.join(" "))
                .map_err(|m| CliError::BadInput(format!("dice: {m}")))?;
            let r = ten_thousand::score(&ScoreRequest {
                dice,
                options: GameOptions {
                    dice: args.dice,
                    ..GameOptions::default()
                },
            })
            .map_err(|e| {
                // The CLI's name for the option.
                if e.field == "options.dice" {
                    CliError::BadInput(format!("--dice: {}", e.message))
                } else {
                    bad(e)
                }
            })?;
            output(args.json, &r, score_text)
        }
        TenThousandCommand::Game(args) => {
            let req: GameRequest = read_record(&args.file)?;
            let r = ten_thousand::game(&req).map_err(bad)?;
            output(args.json, &r, sheet_text)
        }
    }
}

/// `A A A K K — Full de ases y reyes (Full house, aces over kings)`
fn rank_text(r: &RankResponse) -> String {
    format!(
        "{} — {} ({})\n",
        r.hand.faces.join(" "),
        r.hand.name_es,
        r.hand.name_en
    )
}

fn compare_text(r: &CompareResponse) -> String {
    let mut out = String::new();
    for (i, h) in r.hands.iter().enumerate() {
        out.push_str(&format!(
            "{}. {} — {}\n",
            i + 1,
            h.faces.join(" "),
            h.name_es
        ));
    }
    let who: Vec<String> = r
        .decision
        .winners
        .iter()
        .map(|w| (w + 1).to_string())
        .collect();
    match r.decision.outcome {
        poker_dice::Outcome::Winner => out.push_str(&format!(
            "Hand {} wins: {}\n",
            who.join(""),
            r.decision.reason
        )),
        poker_dice::Outcome::Tie => out.push_str(&format!(
            "Hands {} tie: {}\n",
            who.join(", "),
            r.decision
                .reason
                .strip_prefix("Tie: ")
                .unwrap_or(&r.decision.reason)
        )),
    }
    out
}

fn round_text(r: &RoundResponse) -> String {
    let mut out = String::new();
    for p in &r.players {
        let throws: Vec<String> = p.throws.iter().map(|t| t.dice.join(" ")).collect();
        out.push_str(&format!(
            "{}: {} — {}\n",
            p.name,
            throws.join(" | "),
            p.hand.name_es
        ));
    }
    out.push_str(&r.decision.reason);
    out.push('\n');
    out
}

fn show(dice: &[u8]) -> String {
    dice.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

/// One keep a line, then the best; or `bust`.
fn score_text(r: &ScoreResponse) -> String {
    if r.bust {
        return "bust: no die scores\n".into();
    }
    let mut out = String::new();
    for k in &r.keeps {
        out.push_str(&format!("{:>6}  {}\n", thousands(k.points), show(&k.dice)));
    }
    out.push_str(&format!("max {}\n", thousands(r.max)));
    out
}

fn sheet_text(s: &ScoreSheet) -> String {
    let mut out = String::new();
    for t in &s.turns {
        let throws: Vec<String> = t
            .throws
            .iter()
            .map(|th| match &th.keep {
                Some(k) => format!(
                    "{} keep {} ({})",
                    show(&th.dice),
                    show(k),
                    thousands(th.points)
                ),
                None => format!("{} bust", show(&th.dice)),
            })
            .collect();
        let result = match t.result {
            TurnResult::Recorded => format!("records {}", thousands(t.points)),
            TurnResult::Bust => format!("busts, loses {}", thousands(t.lost)),
        };
        let scores: Vec<String> = t.scores.iter().map(|&x| thousands(x)).collect();
        out.push_str(&format!(
            "{:>3}. {}: {} — {}  [{}]\n",
            t.turn,
            t.player,
            throws.join("; "),
            result,
            scores.join(" / ")
        ));
    }
    for p in &s.totals {
        out.push_str(&format!("{}: {}\n", p.player, thousands(p.score)));
    }
    out.push_str(&s.reason);
    out.push('\n');
    out
}
