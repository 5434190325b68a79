//! `pitbook house-way`: check a house-way file over every seven-card hand,
//! and count the hands two house ways set differently (docs/house-ways.md).
//! A way is a file's path or a shipped house way's name.

use clap::{Args, Subcommand};
use rayon::prelude::*;

use super::CliError;
use super::hand::RuleArgs;
use crate::domain::cards::Card;
use crate::domain::double_hand_poker::house_way::census::{
    CheckCounts, DiffCounts, check_part, deck_size, diff_part,
};
use crate::domain::double_hand_poker::house_way::{HouseWayFile, SHIPPED, shipped};

#[derive(Debug, Subcommand)]
pub enum HouseWayCommand {
    /// Set every seven-card hand by the house way: refused (exit 1) if any
    /// hand is left unset, fouls or does not use its seven cards; prints
    /// how many hands each rule decides.
    Check(CheckArgs),
    /// Count the hands two house ways set differently, with examples.
    Diff(DiffArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A house-way file, or a shipped house way's name (reference).
    #[arg(value_name = "FILE|NAME")]
    way: String,
    #[command(flatten)]
    rules: RuleArgs,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    #[arg(value_name = "A")]
    a: String,
    #[arg(value_name = "B")]
    b: String,
    #[command(flatten)]
    rules: RuleArgs,
}

/// A shipped house way by name, else the file at that path, parsed.
fn load(way: &str) -> Result<HouseWayFile, CliError> {
    if let Some(file) = shipped(way) {
        return Ok(file);
    }
    let text = std::fs::read_to_string(way).map_err(|e| {
        let names: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
        CliError::BadInput(format!(
            "{way}: not a shipped house way ({}) and not a readable file: {e}",
            names.join(", ")
        ))
    })?;
    HouseWayFile::parse(&text).map_err(|e| CliError::BadInput(format!("{way}: {e}")))
}

fn cards_text(cards: &[Card; 7]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(command: HouseWayCommand) -> Result<(), CliError> {
    match command {
        HouseWayCommand::Check(args) => check(&args),
        HouseWayCommand::Diff(args) => diff(&args),
    }
}

fn check(args: &CheckArgs) -> Result<(), CliError> {
    let way = load(&args.way)?;
    let opts = args.rules.options();
    let counts = (0..deck_size(&opts))
        .into_par_iter()
        .map(|first| check_part(&way, &opts, first))
        .reduce(CheckCounts::default, CheckCounts::plus);
    println!(
        "house way {} ({}): {} hands",
        way.name, way.title, counts.hands
    );
    for (rule, n) in way.rules.iter().zip(&counts.by_rule) {
        let words = rule.words.replace("{played}", "straight or flush");
        println!("{n:>11}  line {:>3}  {words}", rule.line);
    }
    if counts.unset > 0 {
        println!("{:>11}  set by no rule", counts.unset);
    }
    for problem in &counts.examples {
        println!("  {}: {}", cards_text(&problem.cards), problem.what);
    }
    if counts.unset + counts.fouled > 0 {
        return Err(CliError::Verification(format!(
            "house way {}: {} hands set by no rule, {} fouled or not using their seven cards",
            way.name, counts.unset, counts.fouled
        )));
    }
    println!("OK: every hand set, none fouled, each from its own seven cards");
    Ok(())
}

fn diff(args: &DiffArgs) -> Result<(), CliError> {
    let (a, b) = (load(&args.a)?, load(&args.b)?);
    let opts = args.rules.options();
    let counts = (0..deck_size(&opts))
        .into_par_iter()
        .map(|first| diff_part(&a, &b, &opts, first))
        .reduce(DiffCounts::default, DiffCounts::plus);
    println!(
        "{} of {} hands set differently by {} and {}",
        counts.different, counts.hands, a.name, b.name
    );
    for (cards, x, y) in &counts.examples {
        println!("  {}", cards_text(cards));
        println!("    {}: {} ({})", a.name, x.hand, x.rule);
        println!("    {}: {} ({})", b.name, y.hand, y.rule);
    }
    Ok(())
}
