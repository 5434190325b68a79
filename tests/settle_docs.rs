//! The examples in docs/settle.md are the code's real output: each input
//! block is settled and must give exactly the output block below it.
//! `SETTLE_DOCS_BLESS=1 cargo test --test settle_docs` rewrites the outputs.

use pitbook::domain::double_hand_poker::settle::{parse_scenario, settle, to_json_pretty};

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/settle.md");

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
    let bless = std::env::var_os("SETTLE_DOCS_BLESS").is_some();
    for name in ["seed", "hands"] {
        let (i0, i1) = block(&doc, &format!("<!-- example:{name} input -->"));
        let scenario = parse_scenario(&doc[i0..i1]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = to_json_pretty(&settle(&scenario).unwrap()).unwrap() + "\n";
        let (o0, o1) = block(&doc, &format!("<!-- example:{name} output -->"));
        if bless {
            doc.replace_range(o0..o1, &out);
        } else {
            assert_eq!(
                doc[o0..o1],
                out,
                "docs/settle.md example {name} is stale: run with SETTLE_DOCS_BLESS=1"
            );
        }
    }
    if bless {
        std::fs::write(DOC, doc).unwrap();
    }
}
