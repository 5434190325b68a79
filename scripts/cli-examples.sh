#!/usr/bin/env bash
# Runs a pitbook binary on the docs' examples and saves every command's
# stdout, stderr and exit code under OUTDIR, so two builds can be compared
# byte for byte:
#
#   scripts/cli-examples.sh /tmp/pitbook-before /tmp/before
#   scripts/cli-examples.sh target/debug/pitbook /tmp/after
#   diff -r /tmp/before /tmp/after
#
# What runs: every subcommand's --help; every `$ pitbook …` line of a fenced
# block in README.md and docs/*.md (the hand, dice and dice-game ones also
# with --json); every ```json block of docs/*.md and every JSON file under
# tests/ through each command that reads a JSON file (most are refused: the
# refusal is output too); the user and audit commands on a fresh SQLite file
# with a fixed audit key. Log times, ids, hashes and tokens differ on every
# run and are masked; the paths in messages are relative, so runs compare.
set -euo pipefail
if [[ $# -ne 2 ]]; then
    echo "usage: $0 PITBOOK_BINARY OUTDIR (OUTDIR must not exist)" >&2
    exit 2
fi
bin=$(realpath "$1")
out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
if [[ -e "$out" ]]; then
    echo "$out exists: give a new directory" >&2
    exit 2
fi
mkdir -p "$out"
out=$(realpath "$out")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/json"
ln -s "$bin" "$tmp/bin/pitbook"
export PATH="$tmp/bin:$PATH"
unset DATABASE_URL PITBOOK_AUDIT_KEY PITBOOK_AUDIT_KEY_FILE RUST_LOG PITBOOK_LOG_FORMAT

n=0
# run NAME STDIN COMMAND: COMMAND in bash, in the scratch directory.
run() {
    local name input
    name=$(printf '%04d-%s' "$n" "$1")
    input=$2
    shift 2
    n=$((n + 1))
    printf '%s\n' "$*" >"$out/$name.cmd"
    local rc=0
    (cd "$tmp" && bash -c "$*") <"$input" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
    echo "$rc" >"$out/$name.rc"
    sed -i -E 's/^(\x1b\[2m)?[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/TIME/; s/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/UUID/g' \
        "$out/$name.err" "$out/$name.out"
}

for c in "" serve audit "audit verify" "audit anchor" "audit export" hand "hand eval" \
    "hand house-way" "hand settings" dice settle poker-dice "poker-dice rank" \
    "poker-dice compare" "poker-dice round" ten-thousand "ten-thousand score" \
    "ten-thousand game" tripoley "tripoley round" "tripoley final" user "user add" \
    "user token" "user revoke-token" "user list" "user disable" "user enable" \
    "user set-role" "user reset-password"; do
    run help /dev/null "pitbook $c --help"
done

while IFS= read -r line; do
    cmd=${line#\$ }
    run doc-line /dev/null "$cmd"
    case $cmd in
        "pitbook hand "* | "pitbook dice "* | "pitbook poker-dice "* | "pitbook ten-thousand "*)
            run doc-line-json /dev/null "$cmd --json" ;;
    esac
done < <(awk '/^```/ {f = !f; next} f && /^\$ pitbook /' "$repo/README.md" "$repo"/docs/*.md)

for md in "$repo"/docs/*.md; do
    awk -v dir="$tmp/json" -v base="$(basename "$md" .md)" '
        /^```json/ {f = 1; k++; file = sprintf("%s/%s-%03d.json", dir, base, k); next}
        /^```/ && f {f = 0; close(file); next}
        f {print > file}' "$md"
done
while read -r f; do
    cp "$f" "$tmp/json/tests-$(basename "$(dirname "$f")")-$(basename "$f")"
done < <(find "$repo/tests" -name '*.json' -not -path '*/node_modules/*' -not -name 'package*.json' | sort)
for f in "$tmp"/json/*.json; do
    j=json/$(basename "$f")
    b=$(basename "$f" .json)
    run "settle-$b" /dev/null "pitbook settle $j"
    run "settle-pretty-$b" "$f" "pitbook settle --pretty"
    run "tripoley-round-$b" /dev/null "pitbook tripoley round $j"
    run "tripoley-round-pretty-$b" /dev/null "pitbook tripoley round --pretty $j"
    run "tripoley-final-$b" "$f" "pitbook tripoley final -"
    run "poker-dice-round-$b" /dev/null "pitbook poker-dice round $j"
    run "poker-dice-round-json-$b" /dev/null "pitbook poker-dice round --json $j"
    run "ten-thousand-game-$b" /dev/null "pitbook ten-thousand game $j"
    run "ten-thousand-game-json-$b" /dev/null "pitbook ten-thousand game --json $j"
done

export DATABASE_URL="sqlite:cli.db?mode=rwc"
export PITBOOK_AUDIT_KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
echo 'a-long-password' >"$tmp/password"
hashes='sed -E "s/[0-9a-f]{64}/HASH/g"'
run user-add "$tmp/password" "pitbook user add dana --role dealer"
run user-add "$tmp/password" "pitbook user add sam --role supervisor --must-change-password"
run user-add-again "$tmp/password" "pitbook user add dana --role dealer"
run user-add-bad "$tmp/password" "pitbook user add 'x y' --role nobody"
run user-list /dev/null "pitbook user list"
run user-disable /dev/null "pitbook user disable dana"
run user-disable-again /dev/null "pitbook user disable dana"
run user-enable /dev/null "pitbook user enable dana"
run user-set-role /dev/null "pitbook user set-role dana supervisor"
run user-set-role-bad /dev/null "pitbook user set-role nobody supervisor"
run user-reset-password /dev/null "pitbook user reset-password dana >/dev/null"
run user-token /dev/null "pitbook user token dana --label 'load test' | sed 's/pbk_[0-9a-f]*/pbk_…/'"
run user-revoke-token /dev/null "pitbook user revoke-token dana --label 'load test'"
run user-list /dev/null "pitbook user list"
run audit-verify /dev/null "pitbook audit verify | $hashes"
run audit-verify-json /dev/null "pitbook audit verify --json | $hashes"
run audit-anchor /dev/null "pitbook audit anchor | $hashes"
run audit-export /dev/null "pitbook audit export | wc -l"
run audit-export-bad /dev/null "pitbook audit export --format xml"
echo "$n commands; outputs in $out"
