//! A record of the drills, for changing a generator's speed without
//! changing what any seed gives: every Tripoley drill at levels 1–3, seeds
//! 0..2000, in full (the drill's JSON, its explanation, the question and
//! answer in words), and a SHA-256 per other kind and level over the same.
//! Ignored by default; run it before and after a change and compare:
//!
//! ```sh
//! DRILL_RECORD=/tmp/before.txt cargo test --release --test across_games drill_record -- --ignored
//! ```

use std::fmt::Write as _;

use pitbook::domain::training::{Drill, Kind, Level};
use sha2::{Digest, Sha256};

const SEEDS: u64 = 2000;

fn line(d: &Drill) -> String {
    format!(
        "{}\t{}\t{}\t{}\n",
        serde_json::to_string(d).unwrap(),
        serde_json::to_string(&d.explanation).unwrap(),
        serde_json::to_string(&d.question_words()).unwrap(),
        serde_json::to_string(&d.answer_words()).unwrap(),
    )
}

#[test]
#[ignore = "writes the record to $DRILL_RECORD; run by hand around a generator change"]
fn drill_record() {
    let path = std::env::var("DRILL_RECORD").expect("DRILL_RECORD: where to write the record");
    let mut out = String::new();
    for kind in Kind::ALL {
        for level in Level::ALL {
            let mut hash = Sha256::new();
            for seed in 0..SEEDS {
                let l = line(&Drill::generate(kind, level, seed));
                if kind == Kind::Tripoley {
                    out.push_str(&l);
                }
                hash.update(l.as_bytes());
            }
            writeln!(
                out,
                "{kind} level {level}: {}",
                hex::encode(hash.finalize())
            )
            .unwrap();
        }
    }
    std::fs::write(path, out).unwrap();
}
