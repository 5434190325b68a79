//! The examples in docs/tripoley.md are the code's real output: each input
//! block is played and must give exactly the output block below it, and the
//! inputs are the ones the CLI and HTTP tests use (tests/tripoley/).
//! `TRIPOLEY_DOCS_BLESS=1 cargo test --test tripoley_docs` rewrites the outputs.

use pitbook::domain::tripoley::{TripoleyError, final_json, round_json};
use serde_json::Value;

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tripoley.md");
const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tripoley");

type Compute = fn(&[u8], bool) -> Result<String, TripoleyError>;

/// The JSON block after the marker line, as (start, end) byte offsets of its body.
fn block(doc: &str, marker: &str) -> (usize, usize) {
    let at = doc
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} not found"));
    let open = at + doc[at..].find("```json\n").expect("a json block") + "```json\n".len();
    let close = open + doc[open..].find("```").expect("block end");
    (open, close)
}

#[test]
fn the_examples_are_the_codes_output() {
    let mut doc = std::fs::read_to_string(DOC).unwrap();
    let bless = std::env::var_os("TRIPOLEY_DOCS_BLESS").is_some();
    let examples: [(&str, Compute); 2] = [("round", round_json), ("final", final_json)];
    for (name, compute) in examples {
        let (i0, i1) = block(&doc, &format!("<!-- example:{name} input -->"));
        let input = doc[i0..i1].to_string();
        let file = std::fs::read_to_string(format!("{DIR}/{name}.json")).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&input).unwrap(),
            serde_json::from_str::<Value>(&file).unwrap(),
            "docs/tripoley.md example {name} differs from tests/tripoley/{name}.json"
        );
        let out = compute(input.as_bytes(), true).unwrap_or_else(|e| panic!("{name}: {e}")) + "\n";
        let (o0, o1) = block(&doc, &format!("<!-- example:{name} output -->"));
        if bless {
            doc.replace_range(o0..o1, &out);
        } else {
            assert_eq!(
                doc[o0..o1],
                out,
                "docs/tripoley.md example {name} is stale: run with TRIPOLEY_DOCS_BLESS=1"
            );
        }
    }
    if bless {
        std::fs::write(DOC, doc).unwrap();
    }
}
