#!/usr/bin/env bash
# The web API load test, end to end in a fresh temp dir:
# build release, start `pitbook serve` on a new SQLite database
# (synchronous=FULL) on a free 127.0.0.1 port, add a supervisor (who creates
# the configured tables the hands open at) and an API
# token with the CLI, drive complete 7-seat hands through the HTTP API with
# examples/load.rs, stop the server, and run `pitbook audit verify`.
#
#   scripts/load-test.sh                     # 2000 hands, 16 tables
#   HANDS=5000 TABLES=32 scripts/load-test.sh
#   PITBOOK_BIN=/path/to/before/pitbook scripts/load-test.sh   # LOAD_BIN=…: its load generator too
#   TABLES=50 FLOOR=1 scripts/load-test.sh   # the floor's speed under load
#   TRAINING=1 scripts/load-test.sh          # a drill's page and a test's result
#   PG=postgres://postgres@127.0.0.1:5432 scripts/load-test.sh  # on PostgreSQL
#   SIZES=1 scripts/load-test.sh             # the database's bytes a hand, by table
#   PITBOOK_IDEMPOTENCY_RETENTION=1m SIZES=1 scripts/load-test.sh  # keys pruned as it runs
#
# PG: a fresh database on that server (created, then dropped at the end)
# instead of SQLite. FLOOR=1 opens a shift for the room first, so the
# floor reads each table's hands and drop since it began.
#
# Only ever talks to 127.0.0.1. CARGO_TARGET_DIR is honoured.
set -euo pipefail

HANDS=${HANDS:-2000}
TABLES=${TABLES:-16}
WARMUP=${WARMUP:-32}
LOAD_THREADS=${LOAD_THREADS:-1}
# PAGES=0: no third process fetching pages during the load; FLOOR=1: it
# fetches the floor (/floor, every table at once) instead of a table's
# page and its newest hand's.
PAGES=${PAGES:-1}
FLOOR=${FLOOR:-0}
# TRAINING=1: it fetches a drill on screen (a whole settlement drawn as the
# table) and a finished test's result, the supervisor's own runs.
TRAINING=${TRAINING:-0}
[[ $TRAINING == 0 ]] || FLOOR=0
# The server's RUST_LOG: info (its default) logs a line per request;
# SERVER_LOG=warn measures without the request log.
SERVER_LOG=${SERVER_LOG:-info}

root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/lib/serve.sh"
target=${CARGO_TARGET_DIR:-$root/target}
# PITBOOK_BIN: measure that binary (another commit's, for a before and
# after in one run) instead of building this tree's; the load generator is
# this tree's either way.
if [[ -n ${PITBOOK_BIN:-} ]]; then
    # LOAD_BIN: a load generator already built (nothing compiled here).
    [[ -n ${LOAD_BIN:-} ]] || (cd "$root" && cargo build --release --locked --example load)
    bin=$PITBOOK_BIN
else
    (cd "$root" && cargo build --release --locked --bin pitbook --example load)
    bin=$target/release/pitbook
fi
load=${LOAD_BIN:-$target/release/examples/load}

work=$(mktemp -d "${TMPDIR:-/tmp}/pitbook-load.XXXXXX")
server=
cleanup() {
    [[ -n $server ]] && serve_stop "$server"
    rm -rf "$work"
    if [[ -n ${pg_db:-} ]]; then
        psql -q "$PG/postgres" -c "DROP DATABASE IF EXISTS $pg_db" || true
    fi
}
trap cleanup EXIT

if [[ -n ${PG:-} ]]; then
    pg_db=pitbook_load_$$
    psql -q "$PG/postgres" -c "CREATE DATABASE $pg_db"
    export DATABASE_URL="$PG/$pg_db"
else
    export DATABASE_URL="sqlite:$work/pitbook.db"
fi
export PITBOOK_AUDIT_KEY_FILE=$work/audit.key
new_audit_key "$PITBOOK_AUDIT_KEY_FILE"

token=$(token_of "$bin" loader supervisor "$work/cli.log")

RUST_LOG="$SERVER_LOG,pitbook::cli::serve=info" "$bin" --log-format json serve --bind 127.0.0.1:0 >"$work/server.out" 2>"$work/server.log" &
server=$!
address=$(serve_address "$server" "$work/server.log")
echo "server: $address, database $DATABASE_URL$([[ -z ${PG:-} ]] && echo ' (synchronous=FULL)'), $(nproc) CPUs"
echo "server log: RUST_LOG=$SERVER_LOG"
echo "load:   $TABLES tables, $HANDS hands (+$WARMUP warm-up), $LOAD_THREADS generator thread(s)"

if [[ $FLOOR != 0 ]]; then
    curl -sf -o /dev/null -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d '{}' "http://$address/api/v1/shifts"
fi
status=0
PITBOOK_TOKEN=$token "$load" --url "http://$address" --tables "$TABLES" --hands "$HANDS" \
    --warmup "$WARMUP" --threads "$LOAD_THREADS" &
load_pid=$!
# Pages under the load: signed in as the supervisor, a third
# process fetches a table's page and its newest hand's page in turn until
# the load ends; their latencies (curl's time_total) are summarised below.
jar=$work/cookies
page_times=$work/page-times
: >"$page_times"
csrf=$(curl -s -c "$jar" "http://$address/login" | sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -n1)
curl -s -b "$jar" -c "$jar" -o /dev/null --data-urlencode "csrf=$csrf" \
    --data-urlencode "username=loader" --data-urlencode "password=$SCRIPT_PASSWORD" "http://$address/login"
sleep 2
while [[ $PAGES != 0 && $FLOOR != 0 ]] && kill -0 "$load_pid" 2>/dev/null; do
    curl -s -b "$jar" -o /dev/null -w '%{time_total}\n' "http://$address/floor" >>"$page_times"
done
if [[ $PAGES != 0 && $TRAINING != 0 ]]; then
    # The first "id" of an API answer.
    post() {
        curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d "$2" \
            "http://$address$1" | grep -o '"id":"[^"]*"' | head -n1 | cut -d'"' -f4
    }
    test_run=$(post /api/v1/drill-runs '{"kind":"action-seat","level":2,"mode":"test","questions":1}')
    drill=$(post /api/v1/drills "{\"run\":\"$test_run\"}")
    post "/api/v1/drills/$drill/answer" '{"answer":{"seat":1}}' >/dev/null || true
    practice=$(post /api/v1/drill-runs '{"kind":"settle-all","level":3,"mode":"practice"}')
    post /api/v1/drills "{\"run\":\"$practice\"}" >/dev/null
    for run in "$practice" "$test_run"; do
        code=$(curl -s -b "$jar" -o "$work/run.html" -w '%{http_code}' "http://$address/training/runs/$run")
        [[ $code == 200 ]] || { echo "training run page $run: HTTP $code" >&2; exit 1; }
        echo "training: /training/runs/$run, $(wc -c <"$work/run.html") bytes"
    done
fi
while [[ $PAGES != 0 && $TRAINING != 0 ]] && kill -0 "$load_pid" 2>/dev/null; do
    for run in "$practice" "$test_run"; do
        curl -s -b "$jar" -o /dev/null -w '%{time_total}\n' "http://$address/training/runs/$run" >>"$page_times"
    done
done
while [[ $PAGES != 0 && $FLOOR == 0 && $TRAINING == 0 ]] && kill -0 "$load_pid" 2>/dev/null; do
    table=$(curl -s -b "$jar" "http://$address/tables" | sed -n 's/.*href="\(\/tables\/[^"]*\)".*/\1/p' | head -n1)
    [[ -n $table ]] || { sleep 0.2; continue; }
    hand=$(curl -s -b "$jar" "http://$address$table" | sed -n 's/.*href="\(\/hands\/[^"/]*\)".*/\1/p' | head -n1)
    for _ in $(seq 1 20); do
        curl -s -b "$jar" -o /dev/null -w '%{time_total}\n' "http://$address$table" >>"$page_times"
        [[ -n $hand ]] && curl -s -b "$jar" -o /dev/null -w '%{time_total}\n' "http://$address$hand" >>"$page_times"
    done
done
wait "$load_pid" || status=$?
what="a table page and its newest hand"
[[ $FLOOR == 0 ]] || what="the floor"
[[ $TRAINING == 0 ]] || what="a drill drawn and a test's result"
sort -n "$page_times" | awk -v what="$what" '{ t[NR] = $1 * 1000 } END {
    if (NR == 0) { print "pages under load: none fetched"; exit }
    printf "pages under load: %d fetched (%s), p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
        NR, what, t[int(NR * 0.5) + (NR * 0.5 > int(NR * 0.5))], t[int(NR * 0.99) + (NR * 0.99 > int(NR * 0.99))], t[NR] }'

serve_stop "$server"
server=
grep -E '"level":"(ERROR|WARN)"' "$work/server.log" | head -n 5 >&2 || true

if [[ ${SIZES:-0} != 0 ]]; then
    # Each table's and index's bytes (SQLite: dbstat; PostgreSQL: the
    # relation's size, TOAST included), largest first, and a hand's share
    # of the whole after VACUUM (SQLite) / VACUUM FULL (PostgreSQL): the
    # rows as they stand, without the space deleted rows leave for reuse.
    n=$((HANDS + WARMUP))
    if [[ -n ${PG:-} ]]; then
        psql -q "$DATABASE_URL" -c 'VACUUM FULL' >/dev/null
        sizes=$(psql -qAt -F' ' "$DATABASE_URL" -c "SELECT c.relname, pg_total_relation_size(c.oid) - \
            CASE WHEN c.relkind = 'r' THEN pg_indexes_size(c.oid) ELSE 0 END FROM pg_class c \
            JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = 'public' AND c.relkind IN ('r', 'i')")
    else
        sqlite3 "${DATABASE_URL#sqlite:}" 'VACUUM'
        sizes=$(sqlite3 -separator ' ' "${DATABASE_URL#sqlite:}" 'SELECT name, SUM(pgsize) FROM dbstat GROUP BY name')
    fi
    sort -k2,2nr <<<"$sizes" | awk -v n="$n" '{ total += $2; line[NR] = sprintf("  %-40s %12d bytes  %8.0f a hand", $1, $2, $2 / n) }
        $1 ~ /^idempotency_keys/ || $1 ~ /^sqlite_autoindex_idempotency_keys/ { keys += $2 }
        END { for (i = 1; i <= NR && i <= 20; i++) print line[i];
              printf "database: %d bytes for %d hands, %.0f a hand; %.0f a hand without the idempotency keys\n", total, n, total / n, (total - keys) / n }'
    keys="SELECT COUNT(*), COALESCE(SUM(opens_hand), 0) FROM idempotency_keys"
    if [[ -n ${PG:-} ]]; then keys=$(psql -qAt -F' ' "$DATABASE_URL" -c "$keys"); else keys=$(sqlite3 -separator ' ' "${DATABASE_URL#sqlite:}" "$keys"); fi
    echo "idempotency keys left: $keys (all, opening hands); pruned $(grep -c 'idempotency keys pruned' "$work/server.log") times"
    # The log's payloads by event type: what a hand's records carry.
    payloads="SELECT event_type, COUNT(*), SUM(LENGTH(payload)) FROM audit_log GROUP BY event_type ORDER BY 3 DESC LIMIT 6"
    if [[ -n ${PG:-} ]]; then
        payloads=$(psql -qAt -F' ' "$DATABASE_URL" -c "$payloads")
    else
        payloads=$(sqlite3 -separator ' ' "${DATABASE_URL#sqlite:}" "$payloads")
    fi
    awk -v n="$n" '{ printf "  payloads %-22s %8d records %12d bytes  %6.0f a hand\n", $1, $2, $3, $3 / n }' <<<"$payloads"
fi

echo "audit verify:"
"$bin" audit verify 2>>"$work/cli.log" || status=$?
exit $status
