#!/usr/bin/env bash
# The API fuzzed from its contract: schemathesis (pinned with every module it
# needs in requirements.txt, installed into a virtual environment under the
# target dir) reads the served OpenAPI document of a fresh `pitbook serve`
# and sends what it allows and what it forbids to every operation, as a
# supervisor and as a dealer, on SQLite and on PostgreSQL: no server error,
# every answer as its schema says, every schema-violating request refused,
# every schema-valid one accepted except the refusals schemathesis.toml
# lists with their reasons. A fixed seed and a bounded number of examples an
# operation: the same requests every run.
#
#   tests/api-fuzz/run.sh                 # SQLite, then PostgreSQL at PITBOOK_TEST_POSTGRES_URL
#   DATABASES=sqlite tests/api-fuzz/run.sh
#   EXAMPLES=50 SEED=11 tests/api-fuzz/run.sh
#
# The binary: PITBOOK_BIN if set, else the debug build `cargo test` makes.
# Reports (JUnit, one a database and role) in target/api-fuzz/. Only ever
# talks to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
here=$root/tests/api-fuzz
source "$root/scripts/lib/serve.sh"
target_dir=${CARGO_TARGET_DIR:-$root/target}
out_dir=$root/target/api-fuzz
EXAMPLES=${EXAMPLES:-10}
SEED=${SEED:-7}
DATABASES=${DATABASES:-sqlite postgres}
PG=${PITBOOK_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}
mkdir -p "$out_dir"

bin=$(test_binary "$target_dir")

# The pinned fuzzer, installed again only when requirements.txt changes.
venv=$target_dir/api-fuzz-venv
if ! cmp -s "$here/requirements.txt" "$venv/requirements.txt" 2>/dev/null; then
    rm -rf "$venv"
    if ! python3 -m venv "$venv"; then
        # Debian's python3 keeps venv in a package of its own.
        as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
        as_root env DEBIAN_FRONTEND=noninteractive apt-get -q install -y python3-venv
        rm -rf "$venv" && python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    cp "$here/requirements.txt" "$venv/requirements.txt"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pitbook-fuzz.XXXXXX")
server=
pg_db=
stop_server() {
    [[ -n $server ]] && serve_stop "$server"
    server=
}
drop_database() {
    if [[ -n $pg_db ]]; then
        psql -q "$PG" -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" || true
    fi
    pg_db=
}
cleanup() { stop_server; drop_database; rm -rf "$work"; }
trap cleanup EXIT

# A fresh database and server; sets `address`, `supervisor` and `dealer`
# (their API tokens).
start() {
    local db=$1 dir=$work/$1
    mkdir -p "$dir"
    if [[ $db == postgres ]]; then
        pg_db=pitbook_fuzz_$$
        psql -q "$PG" -c "CREATE DATABASE $pg_db"
        export DATABASE_URL="${PG%/*}/$pg_db"
    else
        export DATABASE_URL="sqlite:$dir/pitbook.db"
    fi
    export PITBOOK_AUDIT_KEY_FILE=$dir/audit.key
    new_audit_key "$PITBOOK_AUDIT_KEY_FILE"
    supervisor=$(token_of "$bin" fuzz-supervisor supervisor "$dir/cli.log")
    dealer=$(token_of "$bin" fuzz-dealer dealer "$dir/cli.log")
    RUST_LOG=warn,pitbook::cli::serve=info "$bin" --log-format json serve --bind 127.0.0.1:0 \
        >"$dir/server.out" 2>"$dir/server.log" &
    server=$!
    address=$(serve_address "$server" "$dir/server.log")
}

status=0
for db in $DATABASES; do
    start "$db"
    for role in supervisor dealer; do
        token=${!role}
        echo "== api fuzz: $db, as a $role ($EXAMPLES examples an operation, seed $SEED)"
        # Signed in by the token alone: the contract offers a session cookie
        # or a token, and generating the other one (an empty cookie beside
        # the token) would make every answer look like an ignored sign-in.
        "$venv/bin/schemathesis" --config-file "$here/schemathesis.toml" run \
            "http://$address/api/v1/openapi.json" \
            --checks all --seed "$SEED" --max-examples "$EXAMPLES" \
            --generation-database none \
            --generation-with-security-parameters false \
            -H "Authorization: Bearer $token" \
            --report junit --report-junit-path "$out_dir/$db-$role.xml" || status=1
    done
    stop_server
    # Whatever the fuzzer got recorded, the log still verifies.
    "$bin" audit verify >/dev/null 2>"$work/verify.log" || { cat "$work/verify.log" >&2; status=1; }
    drop_database
done
exit $status
