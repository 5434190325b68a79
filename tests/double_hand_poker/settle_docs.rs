//! The examples in docs/settle.md are the code's real output: each input
//! block is settled and must give exactly the output block below it.
//! `SETTLE_DOCS_BLESS=1 cargo test --test double_hand_poker settle_docs` rewrites the outputs.

use crate::common::docs::DocExamples;
use pitbook::domain::double_hand_poker::settle::{parse_scenario, settle, to_json_pretty};

#[test]
fn the_examples_are_the_codes_output() {
    let mut doc = DocExamples::open("settle.md", "SETTLE_DOCS_BLESS");
    for name in ["seed", "hands"] {
        let input = doc.json(&format!("<!-- example:{name} input -->"));
        let scenario = parse_scenario(&input).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = to_json_pretty(&settle(&scenario).unwrap()).unwrap() + "\n";
        doc.check(name, &format!("<!-- example:{name} output -->"), &out);
    }
    doc.finish();
}
