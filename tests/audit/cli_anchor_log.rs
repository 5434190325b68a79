//! The real binary: `serve` appends the chain's head to the anchor log at
//! start and at shutdown; `audit verify` checks every line and names the
//! one that is wrong (docs/audit.md, "Anchors kept outside the database").

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{Backend, TEST_KEY_HEX, TestDb};

const BIN: &str = env!("CARGO_BIN_EXE_pitbook");

/// How a test names its database, key and anchor log to every command.
struct Setup {
    url: String,
    dir: PathBuf,
    /// None: the SQLite default (the key file and the log beside the database).
    explicit: Option<PathBuf>,
}

impl Setup {
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .args(["--database-url", &self.url])
            .current_dir(&self.dir)
            .env_remove("PITBOOK_AUDIT_KEY")
            .env_remove("PITBOOK_ANCHOR_LOG")
            .env_remove("RUST_LOG");
        if let Some(log) = &self.explicit {
            cmd.env("PITBOOK_AUDIT_KEY", TEST_KEY_HEX)
                .env("PITBOOK_ANCHOR_LOG", log);
        }
        cmd
    }

    fn log(&self) -> PathBuf {
        match &self.explicit {
            Some(path) => path.clone(),
            None => self.dir.join("pitbook.db.anchors"),
        }
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(self.log())
            .expect("the anchor log")
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn verify(&self, extra: &[&str]) -> (i32, String) {
        let out = self
            .command(&[&["audit", "verify"][..], extra].concat())
            .output()
            .expect("verify");
        (
            out.status.code().expect("exit code"),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    fn head(&self) -> String {
        let out = self.command(&["audit", "anchor"]).output().expect("anchor");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}

fn seq_hash(line: &str) -> &str {
    let (time, anchor) = line.split_once(' ').expect("TIME SEQ:HASH");
    assert!(chrono::DateTime::parse_from_rfc3339(time).is_ok(), "{line}");
    anchor
}

async fn serve_anchors_at_start_and_shutdown_and_verify_checks_them(backend: Backend) {
    let db = TestDb::new(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let setup = Setup {
        url: match backend {
            Backend::Sqlite => format!("sqlite:{}", dir.path().join("pitbook.db").display()),
            Backend::Postgres => db.url.clone(),
        },
        dir: dir.path().to_path_buf(),
        explicit: match backend {
            Backend::Sqlite => None,
            Backend::Postgres => Some(dir.path().join("shipped.anchors")),
        },
    };

    let mut server = setup
        .command(&["serve", "--bind", "127.0.0.1:0", "--log-format", "json"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve");
    let mut lines = BufReader::new(server.stderr.take().unwrap()).lines();
    loop {
        let line = lines.next().expect("a log line").expect("utf-8");
        let record: serde_json::Value = serde_json::from_str(&line).expect("json log");
        if record["message"] == "pitbook listening" {
            assert_eq!(
                record["anchor_log"].as_str(),
                Some(setup.log().to_str().unwrap())
            );
            break;
        }
    }
    std::thread::spawn(move || for _ in lines.by_ref() {});
    // At start: the head as it was.
    let at_start = setup.lines();
    assert_eq!(at_start.len(), 1, "{at_start:?}");
    assert_eq!(seq_hash(&at_start[0]), setup.head());

    // The chain moves (another process adds an account) …
    let mut add = setup
        .command(&["user", "add", "bob", "--role", "dealer"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    add.stdin
        .take()
        .unwrap()
        .write_all(b"a-long-enough-password\n")
        .unwrap();
    assert!(add.wait().unwrap().success());
    // … and at shutdown the new head is appended.
    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(server.wait().unwrap().success(), "graceful exit 0");
    let lines = setup.lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(seq_hash(&lines[1]), setup.head());
    assert_ne!(seq_hash(&lines[0]), seq_hash(&lines[1]));

    // verify reads the log (by default, or as named) and counts its anchors.
    let (code, out) = setup.verify(&[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 of 2 anchors checked"), "{out}");
    assert!(out.contains(setup.log().to_str().unwrap()), "{out}");
    let given = setup.head();
    let (code, out) = setup.verify(&["--anchor", &given, "--json"]);
    assert_eq!(code, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["anchors_checked"], 3, "{report}");

    // A rewritten past: an anchor line whose hash the chain no longer has.
    let good = std::fs::read_to_string(setup.log()).unwrap();
    let mut tampered: Vec<String> = lines.clone();
    let last = tampered[0].pop().unwrap();
    tampered[0].push(if last == '0' { '1' } else { '0' });
    write_lines(&setup.log(), &tampered);
    let (code, out) = setup.verify(&[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("FAILED at seq"), "{out}");
    assert!(
        out.contains("anchor_mismatch") && out.contains("line 1)"),
        "{out}"
    );

    // An anchor past the head (records at the end removed): named too.
    let (seq, hash) = seq_hash(&lines[1]).split_once(':').unwrap();
    let beyond = format!(
        "2026-12-01T10:00:00Z {}:{hash}",
        seq.parse::<i64>().unwrap() + 5
    );
    write_lines(&setup.log(), &[lines[0].clone(), lines[1].clone(), beyond]);
    let (code, out) = setup.verify(&[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("truncated") && out.contains("line 3)"),
        "{out}"
    );

    // A line that is not an anchor at all.
    write_lines(&setup.log(), &[lines[0].clone(), "28:deadbeef".to_string()]);
    let (code, out) = setup.verify(&[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("FAILED: ") && out.contains("line 2"),
        "{out}"
    );

    // A log named that does not exist is an error, not a pass.
    std::fs::write(setup.log(), good).unwrap();
    let (code, out) = setup.verify(&["--anchor-log", "/no/such/anchors"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(setup.verify(&[]).0, 0);
}

fn write_lines(path: &Path, lines: &[String]) {
    std::fs::write(path, format!("{}\n", lines.join("\n"))).unwrap();
}

on_both_databases!(serve_anchors_at_start_and_shutdown_and_verify_checks_them);

#[test]
fn an_anchor_log_that_cannot_be_written_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args(["serve", "--bind", "127.0.0.1:0", "--anchor-log"])
        .arg(dir.path().join("missing-dir/pitbook.anchors"))
        .current_dir(dir.path())
        .env_remove("DATABASE_URL")
        .env_remove("PITBOOK_ANCHOR_LOG")
        .output()
        .expect("serve");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains("anchor log") && errors[0].contains("missing-dir/pitbook.anchors"),
        "{stderr}"
    );
}

/// At shutdown a line is appended only if the head moved since start.
#[test]
fn a_quiet_server_appends_no_second_line() {
    let dir = tempfile::tempdir().unwrap();
    let setup = Setup {
        url: format!("sqlite:{}", dir.path().join("pitbook.db").display()),
        dir: dir.path().to_path_buf(),
        explicit: None,
    };
    let mut server = setup
        .command(&["serve", "--bind", "127.0.0.1:0", "--log-format", "json"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve");
    let mut lines = BufReader::new(server.stderr.take().unwrap()).lines();
    loop {
        let line = lines.next().expect("a log line").expect("utf-8");
        let record: serde_json::Value = serde_json::from_str(&line).expect("json log");
        if record["message"] == "pitbook listening" {
            break;
        }
    }
    std::thread::spawn(move || for _ in lines.by_ref() {});
    // SIGTERM right after "listening" is already a graceful stop.
    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(server.wait().unwrap().success());
    let lines = setup.lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(seq_hash(&lines[0]), setup.head());
}
