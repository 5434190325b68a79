//! The real binary: `pitbook settle [FILE] [--pretty]` on the examples of
//! docs/settle.md (FILE, stdin, `-`), and every bad input of
//! `shell_settle` (exit 2, one line on stderr naming the field and value,
//! nothing on stdout); unreadable files exit 1.

use std::io::Write;

use crate::shell_settle::{bad_cases, compact, doc_block, seed_input, seed_output_pretty};
use pitbook::domain::double_hand_poker::settle::{limits, settle_json};

use crate::common::cli::with_stdin as pitbook;

/// Succeeds with nothing on stderr; returns stdout.
fn ok(args: &[&str], stdin: &[u8]) -> String {
    let (code, stdout, stderr) = pitbook(args, stdin);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    assert_eq!(stderr, "", "{args:?}");
    stdout
}

/// Fails with `code`, nothing on stdout and one `error: …` line on stderr
/// containing `needle`.
fn fails(code: i32, args: &[&str], stdin: &[u8], needle: &str) {
    let (got, stdout, stderr) = pitbook(args, stdin);
    assert_eq!(got, code, "{args:?}: {stderr}");
    assert_eq!(stdout, "", "{args:?}: nothing on stdout");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr:?}");
    assert!(stderr.ends_with('\n'), "{args:?}: {stderr:?}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr:?}");
    assert!(
        stderr.contains(needle),
        "{args:?}: {stderr:?} lacks {needle:?}"
    );
}

/// A temporary file holding `content`.
fn file(content: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(content).expect("write temp file");
    f
}

fn path(f: &tempfile::NamedTempFile) -> &str {
    f.path().to_str().expect("utf-8 temp path")
}

#[test]
fn the_seed_example_from_a_file_prints_the_docs_settlement_on_one_line() {
    let input = file(seed_input().as_bytes());
    let stdout = ok(&["settle", path(&input)], b"");
    assert_eq!(stdout, compact(&seed_output_pretty()) + "\n");
    assert_eq!(stdout.lines().count(), 1);
    assert!(stdout.contains(
        "\"explanation\":\"Seat 4, Ann, $60 loses: collect $60 for the bank; $140 left in action\""
    ));
}

#[test]
fn the_seed_example_from_stdin_is_the_same() {
    let from_file = ok(&["settle", path(&file(seed_input().as_bytes()))], b"");
    assert_eq!(ok(&["settle"], seed_input().as_bytes()), from_file);
    assert_eq!(ok(&["settle", "-"], seed_input().as_bytes()), from_file);
    // stdin is not read when a FILE is given.
    assert_eq!(
        ok(
            &["settle", path(&file(seed_input().as_bytes()))],
            b"not json"
        ),
        from_file
    );
}

#[test]
fn pretty_prints_exactly_the_docs_blocks() {
    for name in ["seed", "hands"] {
        let input = doc_block(name, "input");
        let output = doc_block(name, "output");
        let f = file(input.as_bytes());
        assert_eq!(ok(&["settle", "--pretty", path(&f)], b""), output, "{name}");
        assert_eq!(ok(&["settle", path(&f), "--pretty"], b""), output, "{name}");
        assert_eq!(
            ok(&["settle", "--pretty"], input.as_bytes()),
            output,
            "{name}"
        );
        assert_eq!(
            ok(&["settle", "-", "--pretty"], input.as_bytes()),
            output,
            "{name}"
        );
        assert!(output.lines().count() > 50, "{name}: indented");
    }
}

#[test]
fn compact_output_is_the_engines_json_plus_a_newline() {
    for name in ["seed", "hands"] {
        let input = doc_block(name, "input");
        let stdout = ok(&["settle"], input.as_bytes());
        assert_eq!(stdout, settle_json(&input).unwrap() + "\n", "{name}");
        assert_eq!(stdout, compact(&doc_block(name, "output")) + "\n", "{name}");
    }
}

#[test]
fn every_bad_input_exits_2_with_one_line_naming_the_field_and_value() {
    let cases = bad_cases();
    assert!(cases.len() >= 20);
    for c in &cases {
        let (code, stdout, stderr) = pitbook(&["settle"], c.input.as_bytes());
        assert_eq!(code, 2, "{}: {stderr}", c.what);
        assert_eq!(stdout, "", "{}: nothing on stdout", c.what);
        assert_eq!(stderr.lines().count(), 1, "{}: {stderr:?}", c.what);
        assert!(stderr.starts_with("error: "), "{}: {stderr:?}", c.what);
        assert!(
            stderr.contains(c.needle),
            "{}: {stderr:?} lacks {:?}",
            c.what,
            c.needle
        );
        fails(2, &["settle", "-"], c.input.as_bytes(), c.needle);
    }
}

#[test]
fn every_bad_input_from_a_file_is_the_same_error() {
    for c in bad_cases() {
        let f = file(c.input.as_bytes());
        fails(2, &["settle", path(&f)], b"", c.needle);
        fails(2, &["settle", "--pretty", path(&f)], b"", c.needle);
    }
}

#[test]
fn input_up_to_the_limit_is_read_and_one_byte_more_is_refused() {
    let max = limits::INPUT_BYTES_MAX;
    let seed = seed_input();
    // Whitespace after the object is allowed: pad to exactly the limit.
    let at_limit = format!("{seed}{}", " ".repeat(max - seed.len()));
    assert_eq!(at_limit.len(), max);
    let expected = compact(&seed_output_pretty()) + "\n";
    assert_eq!(ok(&["settle"], at_limit.as_bytes()), expected);
    assert_eq!(
        ok(&["settle", path(&file(at_limit.as_bytes()))], b""),
        expected
    );

    let over = format!("{at_limit} ");
    fails(
        2,
        &["settle"],
        over.as_bytes(),
        &format!("input: stdin is more than the limit of {max} bytes"),
    );
    let f = file(over.as_bytes());
    fails(
        2,
        &["settle", path(&f)],
        b"",
        &format!("is more than the limit of {max} bytes"),
    );
    // A much longer input is refused the same way, without reading it all.
    let huge = vec![b' '; 4 * max];
    fails(2, &["settle"], &huge, "input: stdin is more than the limit");
}

#[test]
fn input_that_is_not_utf8_is_bad_input() {
    let mut bytes = seed_input().into_bytes();
    bytes.insert(10, 0xff);
    fails(
        2,
        &["settle"],
        &bytes,
        "input: stdin is not UTF-8 text (invalid byte at offset 10)",
    );
    fails(
        2,
        &["settle", path(&file(&bytes))],
        b"",
        "is not UTF-8 text (invalid byte at offset 10)",
    );
}

#[test]
fn an_unreadable_file_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    let missing = missing.to_str().unwrap();
    fails(
        1,
        &["settle", missing],
        b"",
        &format!("cannot read {missing}"),
    );
    let dir_path = dir.path().to_str().unwrap();
    fails(
        1,
        &["settle", dir_path],
        b"",
        &format!("cannot read {dir_path}"),
    );
}

#[test]
fn usage_errors_exit_2() {
    let f = file(seed_input().as_bytes());
    fails(
        2,
        &["settle", path(&f), path(&f)],
        b"",
        "unexpected argument",
    );
    fails(2, &["settle", "--compact"], b"", "--compact");
}
