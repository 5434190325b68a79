//! The examples in docs/tripoley.md are the code's real output: each input
//! block is played and must give exactly the output block below it, and the
//! inputs are the ones the CLI and HTTP tests use (tests/tripoley/).
//! `TRIPOLEY_DOCS_BLESS=1 cargo test --test tripoley tripoley_docs` rewrites the outputs.

use crate::common::docs::DocExamples;
use pitbook::domain::tripoley::{TripoleyError, final_json, round_json};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tripoley");

type Compute = fn(&[u8], bool) -> Result<String, TripoleyError>;

#[test]
fn the_examples_are_the_codes_output() {
    let mut doc = DocExamples::open("tripoley.md", "TRIPOLEY_DOCS_BLESS");
    let examples: [(&str, Compute); 2] = [("round", round_json), ("final", final_json)];
    for (name, compute) in examples {
        let input = doc.json(&format!("<!-- example:{name} input -->"));
        let file = std::fs::read_to_string(format!("{DIR}/{name}.json")).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&input).unwrap(),
            serde_json::from_str::<Value>(&file).unwrap(),
            "docs/tripoley.md example {name} differs from tests/tripoley/{name}.json"
        );
        let out = compute(input.as_bytes(), true).unwrap_or_else(|e| panic!("{name}: {e}")) + "\n";
        doc.check(name, &format!("<!-- example:{name} output -->"), &out);
    }
    doc.finish();
}
