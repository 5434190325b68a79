//! Running the real `pitbook` binary from tests.

use std::io::Write;
use std::process::{Command, Stdio};

/// The `pitbook` binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_pitbook");

/// Runs pitbook; returns (exit code, stdout, stderr).
pub fn pitbook(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("run pitbook");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// Runs pitbook with `stdin` as its standard input; returns (exit code,
/// stdout, stderr). pitbook may stop reading early (an over-long input): a
/// broken pipe while writing is ignored.
pub fn with_stdin(args: &[&str], stdin: impl AsRef<[u8]>) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pitbook");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.as_ref().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for pitbook");
    writer.join().expect("stdin writer");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// Succeeds and prints nothing on stderr; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = pitbook(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    assert_eq!(stderr, "", "{args:?}");
    stdout
}

/// Exit 2, nothing on stdout, one stderr line containing `needle`.
pub fn bad(args: &[&str], needle: &str) {
    let (code, stdout, stderr) = pitbook(args);
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert_eq!(stdout, "", "{args:?}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        stderr.contains(needle),
        "{args:?}: {stderr:?} lacks {needle:?}"
    );
}

/// The `--json` output of a command that must succeed.
pub fn cli_json(args: &[&str]) -> serde_json::Value {
    let (code, stdout, stderr) = pitbook(&[args, &["--json"]].concat());
    assert_eq!(code, 0, "{args:?}: {stderr}");
    serde_json::from_str(&stdout).expect("JSON on stdout")
}
