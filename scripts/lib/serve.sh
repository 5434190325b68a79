# The steps every script that runs `pitbook serve` on loopback shares:
# sourced by scripts/load-test.sh, scripts/load-test-instances.sh,
# tests/api-fuzz/run.sh and tests/browser/run.sh.

# test_binary TARGET_DIR: prints PITBOOK_BIN if set, else the debug build
# `cargo test` makes of pitbook (dev-dependencies' features included; the
# `server` test binary runs it), so after `cargo test` nothing is compiled
# again. Fails when there is no such executable.
test_binary() {
    local bin=${PITBOOK_BIN:-}
    if [[ -z $bin ]]; then
        cargo test --locked --no-run --quiet --test server >&2
        bin=$1/debug/pitbook
    fi
    [[ -x $bin ]] || { echo "no pitbook binary at $bin" >&2; return 1; }
    echo "$bin"
}

# new_audit_key FILE: a fresh 32-byte audit key, in hex, only its owner may read.
new_audit_key() {
    (umask 077 && od -An -N32 -tx1 /dev/urandom | tr -d ' \n' >"$1")
}

# serve_address PID LOG: prints the 127.0.0.1 address the server PID
# (started with `--log-format json serve --bind 127.0.0.1:0`, its log at
# LOG) says it listens on, once it has said so. Fails with the log if the
# server exits first, or after 30 seconds.
serve_address() {
    local pid=$1 log=$2 address
    for _ in $(seq 1 300); do
        address=$(sed -n 's/.*"address":"\(127\.0\.0\.1:[0-9]*\)".*/\1/p' "$log" 2>/dev/null | head -n1)
        [[ -n $address ]] && { echo "$address"; return 0; }
        kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; return 1; }
        sleep 0.1
    done
    echo "pitbook serve (pid $pid) named no 127.0.0.1 address in 30 s" >&2
    return 1
}

# serve_stop PID...: asks each server to stop (SIGTERM: it finishes its
# requests and appends a last anchor), then waits for all of them.
serve_stop() {
    local pid
    for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "$@"; do wait "$pid" 2>/dev/null || true; done
}

# The password of the accounts token_of adds (a script may sign in with it).
SCRIPT_PASSWORD=script-test-password

# token_of BIN NAME ROLE LOG: adds the account NAME with ROLE to the
# database the environment names and prints a new API token of it; the
# CLI's messages go to LOG.
token_of() {
    local bin=$1 name=$2 role=$3 log=$4
    echo "$SCRIPT_PASSWORD" | "$bin" user add "$name" --role "$role" >/dev/null 2>>"$log"
    "$bin" user token "$name" --label script 2>>"$log"
}
