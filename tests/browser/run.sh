#!/usr/bin/env bash
# The browser tests: starts `pitbook serve` on a fresh SQLite database in a
# temporary directory, on a free 127.0.0.1 port, and runs Debian's chromium
# (driven by playwright-core) against it, every step clicked, tapped or typed
# on the real page: e2e.mjs (the first admin's one-time password, the forced
# change, a table, the seed's $200 example hand), then on the same server
# dealer.mjs, history.mjs, training.mjs, shifts.mjs, games.mjs (Tripoley and
# the dice games, a round also with scripts off) and forms.mjs (every other
# POST form, clicked once). Then the server is stopped and `pitbook audit
# verify` must pass on the database it wrote. Then a second fresh server,
# and pages.mjs visits every page at 390 and 1024 px (no sideways scrolling,
# no serious or critical axe-core violation, 44 px targets), making the data
# it needs itself; `audit verify` again.
#
# Needs /usr/bin/chromium (apt-get install chromium), pdftotext
# (apt-get install poppler-utils: the printed report and record are read
# back) and `npm ci` in this directory; .ci/run installs them when missing.
#
# The binary: PITBOOK_BIN if set, else the debug build. .ci/run runs this
# right after `cargo test`, which has already built target/debug/pitbook (the
# CLI tests run it), so the build below is a no-op there; a release build
# would compile every crate again (minutes on 2 cores) to save nothing here —
# argon2 is optimised in the dev profile too (Cargo.toml).
#
# Artefacts: target/browser/final.png (the final screen),
# target/browser/pages/*.png (every page at both widths),
# target/browser/games/*.png and forms/*.png (every step) and, on a failure,
# target/browser/failure.png, the server's log and then the end of the
# failing script's output again. Every script starts chromium the same way
# (chromium.mjs).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
source "$root/scripts/lib/serve.sh"
target_dir=${CARGO_TARGET_DIR:-$root/target}
out_dir=$root/target/browser
mkdir -p "$out_dir"
rm -f "$out_dir/final.png" "$out_dir/failure.png" "$out_dir/serve.log"
rm -rf "$out_dir/pages" "$out_dir/games" "$out_dir/forms"

bin=$(test_binary "$target_dir")
[[ -x /usr/bin/chromium ]] || { echo "browser test: /usr/bin/chromium is missing (apt-get install chromium)" >&2; exit 1; }
command -v pdftotext >/dev/null || { echo "browser test: pdftotext is missing (apt-get install poppler-utils)" >&2; exit 1; }
for module in playwright-core axe-core; do
    [[ -d tests/browser/node_modules/$module ]] || { echo "browser test: run 'npm ci' in tests/browser first ($module is missing)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/pitbook-browser.XXXXXX")
log=$work/serve.log
# The running script's output, its end repeated after the server's log on a
# failure: a CI report shows a log's end, and the server's log is long.
script_log=$work/script.log
server_pid=

stop_server() {
    [[ -n "$server_pid" ]] && serve_stop "$server_pid"
    server_pid=
}
cleanup() {
    local rc=$?
    stop_server
    if [[ $rc -ne 0 ]]; then
        cp "$log" "$out_dir/serve.log" 2>/dev/null || true
        echo "browser test: FAILED (exit $rc); the server's log follows (also in target/browser/serve.log)" >&2
        sed 's/one-time password [0-9a-f]*/one-time password …/' "$log" >&2 2>/dev/null || true
        if [[ -s "$script_log" ]]; then
            echo "browser test: FAILED (exit $rc); the end of the failing script's output, as above:" >&2
            tail -n 60 "$script_log" >&2
        fi
    fi
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts `pitbook serve` on a fresh database in $work/NAME; sets db_url,
# key_file, base_url and password (the first admin's one-time password).
start_server() {
    local dir=$work/$1
    mkdir -p "$dir"
    db_url="sqlite:$dir/pitbook.db"
    key_file=$dir/audit-key
    new_audit_key "$key_file"
    log=$dir/serve.log
    # Made here, not by the background job's redirect: the loop below may read
    # it before that job has opened it (sed on a missing file fails the script).
    : >"$log"
    # Only ever loopback; port 0 lets the kernel pick a free port, which the
    # server reports in its "pitbook listening" line.
    NO_COLOR=1 RUST_LOG=info "$bin" serve \
        --database-url "$db_url" --audit-key-file "$key_file" \
        --bind 127.0.0.1:0 >"$log" 2>&1 &
    server_pid=$!

    local address=
    password=
    local deadline=$((SECONDS + 30))
    while [[ -z "$address" || -z "$password" ]]; do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "browser test: pitbook serve exited before listening" >&2
            exit 1
        fi
        if ((SECONDS >= deadline)); then
            echo "browser test: pitbook serve did not report its address and the admin password within 30 s" >&2
            exit 1
        fi
        # src/cli/serve.rs: 'pitbook: first start: created user "admin" with one-time password HEX — …'
        password=$(sed -n 's/.*created user "admin" with one-time password \([0-9a-f]\{1,\}\).*/\1/p' "$log" | head -n1)
        address=$(sed -n 's/.*pitbook listening.*address=\(127\.0\.0\.1:[0-9]\{1,\}\).*/\1/p' "$log" | head -n1)
        [[ -n "$address" && -n "$password" ]] || sleep 0.1
    done
    base_url="http://$address"

    until curl -fsS --max-time 2 "$base_url/readyz" >/dev/null 2>&1; do
        if ((SECONDS >= deadline)) || ! kill -0 "$server_pid" 2>/dev/null; then
            echo "browser test: $base_url/readyz never answered 200" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "browser test: pitbook serving at $base_url (database $dir/pitbook.db)"
}

verify() {
    stop_server
    echo "browser test: pitbook audit verify"
    NO_COLOR=1 "$bin" audit verify --database-url "$db_url" --audit-key-file "$key_file"
}

# Runs tests/browser/SCRIPT against the server, signing in with PASSWORD.
run_script() {
    local script=$1 admin_password=$2
    PITBOOK_URL=$base_url \
        PITBOOK_ADMIN_PASSWORD=$admin_password \
        PITBOOK_OUT_DIR=$out_dir \
        node "tests/browser/$script" 2>&1 | tee "$script_log"
}

start_server e2e
run_script e2e.mjs "$password"
# The dealer's hand by touch, by keyboard, Back then resubmit,
# on e2e's table; the admin's password is the one e2e.mjs set.
run_script dealer.mjs browser-test-passphrase-42
# Reviewing the history: search, a hand by number, replay, a
# note, export — on the same server's hands.
run_script history.mjs browser-test-passphrase-42
# Training a new dealer: a trainee's practice drill wrong then
# right on a phone, their progress, the side-by-side page.
run_script training.mjs browser-test-passphrase-42
# A shift: opened for DHP-1, two hands with a dealer change
# between, closed and signed, the report's drop checked; the report
# and a hand's record printed to PDF and read back.
run_script shifts.mjs browser-test-passphrase-42
# Tripoley and the dice games kept by clicks, scripts on: a Tripoley round
# step by step (refusals beside their fields), a 10,000 game to a win, a
# poker dice round; the Tripoley round again with scripts off.
run_script games.mjs browser-test-passphrase-42
# Every other POST form clicked once, scripts on (an API token from the CLI).
DATABASE_URL=$db_url PITBOOK_AUDIT_KEY_FILE=$key_file PITBOOK_BIN=$bin \
    run_script forms.mjs browser-test-passphrase-42
verify

start_server pages
run_script pages.mjs "$password"
verify
echo "browser test: passed"
