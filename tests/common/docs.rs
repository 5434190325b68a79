//! The examples in docs/*.md, for the tests that check them against the
//! code: a fenced block is found by the marker line before it
//! (`<!-- example:NAME … -->`), read, and checked or, when blessing,
//! rewritten in place.

/// The path of `docs/{file}` in the repository (`file`: e.g. `settle.md`).
pub fn doc_path(file: &str) -> String {
    format!("{}/docs/{file}", env!("CARGO_MANIFEST_DIR"))
}

/// The body of the first ```` ```{lang} ```` block after `marker` in `doc`,
/// as (start, end) byte offsets (the body ends with its last newline).
pub fn fenced_block(doc: &str, marker: &str, lang: &str) -> (usize, usize) {
    let fence = format!("```{lang}\n");
    let at = doc
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} not found"));
    let open = at
        + doc[at..]
            .find(&fence)
            .unwrap_or_else(|| panic!("a {lang} block after {marker}"))
        + fence.len();
    let close = open + doc[open..].find("```").expect("block end");
    (open, close)
}

/// The body of the ```` ```json ```` block after `marker` in docs/`file`.
pub fn json_block_in(file: &str, marker: &str) -> String {
    let doc =
        std::fs::read_to_string(doc_path(file)).unwrap_or_else(|e| panic!("docs/{file}: {e}"));
    let (open, close) = fenced_block(&doc, marker, "json");
    doc[open..close].to_string()
}

/// One docs file whose example outputs must be the code's output. With the
/// environment variable `bless_var` set, [`DocExamples::check`] rewrites a
/// stale block instead of failing and [`DocExamples::finish`] saves the file.
pub struct DocExamples {
    file: &'static str,
    bless_var: &'static str,
    bless: bool,
    /// The file's text (with the blocks rewritten so far, when blessing).
    pub doc: String,
}

impl DocExamples {
    /// Reads docs/`file`; blesses when `bless_var` is set.
    pub fn open(file: &'static str, bless_var: &'static str) -> DocExamples {
        DocExamples {
            file,
            bless_var,
            bless: std::env::var_os(bless_var).is_some(),
            doc: std::fs::read_to_string(doc_path(file)).unwrap(),
        }
    }

    /// The body of the ```` ```json ```` block after `marker`.
    pub fn json(&self, marker: &str) -> String {
        let (open, close) = fenced_block(&self.doc, marker, "json");
        self.doc[open..close].to_string()
    }

    /// Checks that the ```` ```json ```` block after `marker` is exactly
    /// `expected` (example `name`), or rewrites it when blessing.
    pub fn check(&mut self, name: &str, marker: &str, expected: &str) {
        let (open, close) = fenced_block(&self.doc, marker, "json");
        if self.bless {
            self.doc.replace_range(open..close, expected);
        } else {
            assert_eq!(
                self.doc[open..close],
                *expected,
                "docs/{} example {name} is stale: run with {}=1",
                self.file,
                self.bless_var
            );
        }
    }

    /// Saves the rewritten file when blessing.
    pub fn finish(self) {
        if self.bless {
            std::fs::write(doc_path(self.file), self.doc).unwrap();
        }
    }
}
