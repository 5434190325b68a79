//! `--house-way FILE` on the command line: a file checked once is not
//! checked again (its digest kept in the list under `PITBOOK_CACHE_DIR`),
//! a changed file is, and a format 1 file using format 2's `without` is
//! refused with its line, the word and why (exit 2, nothing kept).

use std::path::Path;
use std::process::Command;

use pitbook::domain::double_hand_poker::house_way::SHIPPED;
use pitbook::domain::double_hand_poker::house_way::loaded::full_digest_of;

use crate::common::cli::BIN;

/// Runs pitbook with its list of checked files in `cache`.
fn pitbook_with(cache: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .env("PITBOOK_CACHE_DIR", cache)
        .env_remove("RUST_LOG")
        .output()
        .expect("run pitbook");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

fn key(text: &str) -> String {
    format!(
        "house-way-check {} {}",
        env!("CARGO_PKG_VERSION"),
        full_digest_of(text)
    )
}

fn list(cache: &Path) -> Vec<String> {
    std::fs::read_to_string(cache.join("house-ways-checked"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_file_checked_once_is_kept_by_digest_and_a_changed_one_checked_again() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let file = dir.path().join("my-mgm.txt");
    let mgm = SHIPPED.iter().find(|(n, _)| *n == "mgm").unwrap().1;
    let text = mgm.replace("name mgm", "name my-mgm");
    std::fs::write(&file, &text).unwrap();
    let path = file.to_str().unwrap();
    let args = [
        "hand",
        "house-way",
        "Td Tc As Ks Qs Js 9s",
        "--house-way",
        path,
    ];
    let (code, first, err) = pitbook_with(&cache, &args);
    assert_eq!(code, 0, "{err}");
    assert!(first.starts_with("Ks Qs Js Tc 9s | As Td"), "{first}");
    assert_eq!(list(&cache), vec![key(&text)]);
    // Again: the same setting, the list unchanged.
    let (code, again, _) = pitbook_with(&cache, &args);
    assert_eq!((code, &again), (0, &first));
    assert_eq!(list(&cache), vec![key(&text)]);

    // The list is what decides: a file whose digest it holds is not set
    // over every hand again (this one leaves hands unset)...
    let pairs_only = "house-way 1\nname pairs-only\ntitle Pairs only\nsource none\n\n\
                      when one pair\nplay front best\nsay One pair: the best front\n";
    std::fs::write(&file, pairs_only).unwrap();
    let mut kept = list(&cache);
    kept.push(key(pairs_only));
    std::fs::write(cache.join("house-ways-checked"), kept.join("\n") + "\n").unwrap();
    let pair = [
        "hand",
        "house-way",
        "Ks Kh 9d 7c 5s 3d 2c",
        "--house-way",
        path,
    ];
    let (code, out, err) = pitbook_with(&cache, &pair);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("One pair: the best front"), "{out}");
    // ... and once changed it is checked again, and refused.
    std::fs::write(&file, pairs_only.replace("the best front", "best front")).unwrap();
    let (code, out, err) = pitbook_with(&cache, &pair);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty() && err.contains("set by no rule"), "{err}");
    assert_eq!(list(&cache).len(), 2, "a refused file is not kept");
}

#[test]
fn a_format_1_file_using_without_is_refused_with_its_line_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let file = dir.path().join("old.txt");
    let text = "house-way 1\nname old\n\nwhen no pair\nplay straight or flush without A\nsay x\n";
    std::fs::write(&file, text).unwrap();
    let args = ["hand", "house-way", "Ac Kd 9s 7h 5c 3d 2h", "--house-way"];
    let (code, out, err) = pitbook_with(&cache, &[&args[..], &[file.to_str().unwrap()]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("old.txt: line 5: \"without\" is a house-way 2 word")
            && err.contains("(found \"without A\")"),
        "{err}"
    );
    assert!(list(&cache).is_empty());
}
