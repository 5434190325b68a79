//! `pitbook drill KIND [--level N] [--seed N] [--answer] [--json]`: a
//! training drill (docs/training.md) — the question in words and, with
//! `--answer`, its answer and explanation (for writing course material);
//! with `--json` the drill as one object `{kind, level, seed, question,
//! answer}`. The drill is `domain::training`'s pure function of (kind,
//! level, seed); only the seed, when none is given, comes from here.

use clap::Args;

use super::{CliError, print_json};
use crate::domain::training::{Drill, Kind, Level, seed_from_bits};

#[derive(Debug, Args)]
pub struct DrillArgs {
    /// The kind: action-seat, action-order, settle-step, settle-all,
    /// decide, house-way, collection, tripoley, ten-thousand, poker-dice.
    #[arg(value_name = "KIND")]
    kind: String,
    /// 1 (easy) to 3 (hard).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    level: i64,
    /// The seed (the same seed always gives the same drill); drawn at
    /// random and printed when absent.
    #[arg(long, allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Print the answer and the explanation too.
    #[arg(long)]
    answer: bool,
    /// Print the drill as one JSON object (it holds the answer).
    #[arg(long)]
    json: bool,
}

pub fn run(args: DrillArgs) -> Result<(), CliError> {
    let kind = Kind::parse(&args.kind).map_err(|e| CliError::BadInput(e.to_string()))?;
    let level = Level::new(args.level).map_err(|e| CliError::BadInput(e.to_string()))?;
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            let mut bytes = [0u8; 8];
            getrandom::fill(&mut bytes)
                .map_err(|e| CliError::Failure(format!("no randomness for a seed: {e}")))?;
            seed_from_bits(u64::from_le_bytes(bytes))
        }
    };
    let drill = Drill::generate(kind, level, seed);
    if args.json {
        return print_json(&drill);
    }
    print!("{}", text(&drill, args.answer));
    Ok(())
}

/// The drill in words: a header naming kind, level and seed, the question,
/// and (with `answer`) the answer and the explanation.
fn text(drill: &Drill, answer: bool) -> String {
    let mut out = format!(
        "Drill {} (level {}, seed {})\n{}\n",
        drill.kind,
        drill.level,
        drill.seed,
        drill.question_words().trim_end()
    );
    if answer {
        out.push_str(&format!(
            "Answer: {}\n{}\n",
            drill.answer_words(),
            drill.explanation
        ));
    }
    out
}
