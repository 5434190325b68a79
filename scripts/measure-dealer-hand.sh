#!/usr/bin/env bash
# Measures a touch-only dealer's work for three hands (taps, characters
# typed, page loads): starts `pitbook serve` on a fresh SQLite database on
# 127.0.0.1, adds a dealer-capable account, and runs
# tests/browser/measure.mjs in headless chromium.
# Usage: scripts/measure-dealer-hand.sh [BIN]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/pitbook}
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
export DATABASE_URL="sqlite:$work/p.db" PITBOOK_AUDIT_KEY_FILE="$work/key"
(umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$work/key")
echo 'measure-passphrase-42' | "$bin" user add sue --role admin >/dev/null
NO_COLOR=1 "$bin" serve --bind 127.0.0.1:0 >"$work/log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    address=$(sed -n 's/.*pitbook listening.*address=\(127\.0\.0\.1:[0-9]\{1,\}\).*/\1/p' "$work/log" | head -n1)
    [[ -n "$address" ]] && break
    sleep 0.1
done
[[ -n "${address:-}" ]] || { cat "$work/log" >&2; exit 1; }
PITBOOK_URL="http://$address" PITBOOK_USER=sue PITBOOK_PASSWORD=measure-passphrase-42 \
    node tests/browser/measure.mjs
