# The steps every script that runs `pitbook serve` on loopback shares:
# sourced by scripts/load-test.sh, scripts/load-test-instances.sh,
# tests/api-fuzz/run.sh and tests/browser/run.sh.

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
