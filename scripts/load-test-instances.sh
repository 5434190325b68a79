#!/usr/bin/env bash
# Several instances, one database: for N in 1 2 3, a fresh
# PostgreSQL database, N `pitbook serve` processes on it with the same audit
# key (each on a free 127.0.0.1 port), a supervisor and an API token made
# with the CLI, then examples/load.rs driving complete 7-seat hands with the
# tables spread over the N instances (table k through instance k mod N);
# the servers are stopped, `pitbook audit verify` runs, and the database is
# dropped. Prints the aggregate complete hands/s for each N, and where the
# instances' group commits spent their time (the phases of
# `pitbook_group_commit_phase_seconds`, scraped from each before it stops).
#
#   scripts/load-test-instances.sh                      # N = 1 2 3, 2000 hands, 24 tables
#   INSTANCES="1 3" HANDS=4000 TABLES=48 scripts/load-test-instances.sh
#   PROFILE=debug scripts/load-test-instances.sh        # the debug build (no release build)
#   PITBOOK_BIN=/path/to/old/pitbook scripts/load-test-instances.sh   # another binary (a before/after)
#
# POSTGRES_URL names the server's admin database (default the local
# trust-auth server); only a 127.0.0.1 server is accepted. CARGO_TARGET_DIR
# is honoured.
set -euo pipefail

INSTANCES=${INSTANCES:-1 2 3}
HANDS=${HANDS:-2000}
TABLES=${TABLES:-24}
WARMUP=${WARMUP:-48}
LOAD_THREADS=${LOAD_THREADS:-1}
SERVER_LOG=${SERVER_LOG:-warn}
PROFILE=${PROFILE:-release}
POSTGRES_URL=${POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}
[[ $POSTGRES_URL == postgres://*@127.0.0.1:* ]] || { echo "POSTGRES_URL must name a 127.0.0.1 server" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/lib/serve.sh"
target=${CARGO_TARGET_DIR:-$root/target}
if [[ $PROFILE == release ]]; then
    (cd "$root" && cargo build --release --locked --bin pitbook --example load)
else
    (cd "$root" && cargo build --locked --bin pitbook --example load)
fi
bin=${PITBOOK_BIN:-$target/$PROFILE/pitbook}
load=$target/$PROFILE/examples/load

work=$(mktemp -d "${TMPDIR:-/tmp}/pitbook-instances.XXXXXX")
servers=()
database=
stop_servers() {
    serve_stop "${servers[@]}"
    servers=()
}
drop_database() {
    [[ -n $database ]] && psql -q "$POSTGRES_URL" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null
    database=
}
cleanup() {
    stop_servers
    drop_database
    rm -rf "$work"
}
trap cleanup EXIT

export PITBOOK_AUDIT_KEY PITBOOK_METRICS_TOKEN
PITBOOK_AUDIT_KEY=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
PITBOOK_METRICS_TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
echo "$(nproc) CPUs shared by PostgreSQL, the instances and the load generator; $PROFILE build"
echo "load: $TABLES tables, $HANDS hands (+$WARMUP warm-up), $LOAD_THREADS generator thread(s), server log $SERVER_LOG"

status=0
summary=()
for n in $INSTANCES; do
    database=pitbook_instances_$$_$n
    psql -q "$POSTGRES_URL" -c "CREATE DATABASE $database" >/dev/null
    export DATABASE_URL=${POSTGRES_URL%/*}/$database
    urls=()
    # All N at once: they race to migrate (sqlx's migration lock) and to
    # make the first admin (the chain's lock), as a cluster's restart does.
    for k in $(seq 1 "$n"); do
        RUST_LOG="$SERVER_LOG,pitbook::cli::serve=info" "$bin" --log-format json serve --bind 127.0.0.1:0 \
            --anchor-log "$work/anchors-$n-$k" >/dev/null 2>"$work/server-$n-$k.log" &
        servers+=($!)
    done
    for k in $(seq 1 "$n"); do
        address=$(serve_address "${servers[$((k - 1))]}" "$work/server-$n-$k.log")
        urls+=(--url "http://$address")
    done
    token=$(token_of "$bin" loader supervisor "$work/cli.log")
    echo
    echo "== $n instance(s) on $database: ${urls[*]}"
    out=$work/load-$n.out
    PITBOOK_TOKEN=$token "$load" "${urls[@]}" --tables "$TABLES" --hands "$HANDS" \
        --warmup "$WARMUP" --threads "$LOAD_THREADS" | tee "$out" || status=1
    # Every instance's group commits, phase by phase: seconds in all, and
    # the share of the time the chain's lock was held (all but lock_wait).
    for url in "${urls[@]}"; do
        [[ $url == --url ]] && continue
        curl -s -H "Authorization: Bearer $PITBOOK_METRICS_TOKEN" "$url/metrics"
    done | awk '/^pitbook_group_commit_phase_seconds_sum/ {
            match($0, /phase="[a-z_]*"/); phase = substr($0, RSTART + 7, RLENGTH - 8); s[phase] += $2 }
        /^pitbook_group_commit_phase_seconds_count\{phase="commit"\}/ { batches += $2 }
        END { if (batches == 0) exit
            printf "group commits: %d batches; seconds by phase:", batches
            for (p in s) printf " %s %.1f", p, s[p]; printf "\n" }' || true
    stop_servers
    cat "$work"/server-"$n"-*.log | grep -E '"level":"(ERROR|WARN)"' | grep -v 'first start' | head -n 5 >&2 || true
    if "$bin" audit verify >"$work/verify-$n.out" 2>>"$work/cli.log"; then
        verify="audit verify OK ($(grep -c . "$work/verify-$n.out") line(s))"
    else
        verify="audit verify FAILED"
        status=1
        cat "$work/verify-$n.out" >&2
    fi
    echo "$verify"
    drop_database
    summary+=("$n instance(s): $(sed -n 's/^\(hands\/s [0-9.]*\).*errors \([0-9]*\).*/\1, errors \2/p' "$out"); $verify")
done

echo
echo "== aggregate complete hands/s"
printf '%s\n' "${summary[@]}"
exit $status
