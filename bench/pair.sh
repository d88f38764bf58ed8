#!/usr/bin/env bash
# Two builds under load at the same moment: the working tree (head) against
# BASE, each with a server on its own copy of the same loaded database, and
# wrk on each at once, CONNS connections apiece (default 8), for each of
# OPS (default receive, issue and move), ROUNDS times (default 4). It prints
# each round's 2xx/s of both and head ÷ base, then each operation's mean
# ratio and range.
#
# Why at once. This machine's speed drifts within seconds (a shared host):
# the same build read 30% apart in alternating 5 s runs a minute apart, with
# no CPU time stolen, so a change worth 5% could not be told from none.
# Loaded at once, both builds see the same machine at every moment, and
# share it: the one that costs less per request answers more of them. The
# ratio is a comparison of the two builds' cost, not a rate either would
# reach alone, and half the connections each make smaller batches than the
# issue's 16. The same build on both sides read 0.98–1.015 (2026-11-28,
# PostgreSQL, move and issue, three rounds). It compares cost, so it cannot
# compare builds that differ in how much of the machine they can take at
# once: three write lanes against two read 1.2x here, their third backend
# taking CPU from the other side, where run alone they were no faster
# (docs/performance.md, Where the time goes (PostgreSQL)).
#
#   BASE=HEAD~1 bash bench/pair.sh                 # PostgreSQL, 1,000,000 lots
#   BASE=main ENGINE=sqlite OPS="issue move" bash bench/pair.sh
#   BASE=HEAD~1 REUSE=1 bash bench/pair.sh         # the last run's load again
#
# PAIRDB (default stockroom_bench_pair) names the databases: the load, and
# its copies PAIRDB_base and PAIRDB_head; give one of your own when others
# may run the bench on the same PostgreSQL.
#
# ENGINE postgres (default) loads ITEMS items (default 10,000) and LOTS lots
# (default 1,000,000) for OWNERS customers (default 3) as bench/pgdirect.sh
# does; sqlite loads LOTS (default 100,000) as bench/sqlite.sh does, with
# no owners. The base's binary loads and migrates; each copy is migrated
# by its own build. Each side is warmed up (WARMUP, default 10s, each
# operation) and audited at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
[ -n "${BASE:-}" ] || { echo "set BASE to the revision to compare with" >&2; exit 1; }
ENGINE=${ENGINE:-postgres}
ROUNDS=${ROUNDS:-4}
CONNS=${CONNS:-8}
OPS=${OPS:-receive issue move}
PAIRDB=${PAIRDB:-stockroom_bench_pair}
DIR=$(mkdir -p "$OUT/pair" && cd "$OUT/pair" && pwd)
need_wrk
OUT=$DIR/head build
mkdir -p "$DIR/base"
build_rev "$(git rev-parse "$BASE^{commit}")" "$DIR/base/stockroom"

declare -A DSN
case $ENGINE in
  postgres)
    pg_data
    LOADED="$PGBASE/$PAIRDB?sslmode=disable"
    if [ -z "${REUSE:-}" ]; then
      LOADED=$(fresh_db "$PAIRDB")
      OUT=$DIR/base load "$LOADED"
    fi
    for b in base head; do
      DSN[$b]=$(fresh_db "${PAIRDB}_$b" "$PAIRDB")
      "$DIR/$b/stockroom" migrate --db "${DSN[$b]}" >/dev/null
      settle "${DSN[$b]}"
    done
    ;;
  sqlite)
    ITEMS=${ITEMS:-10000} LOTS=${LOTS:-100000} WAREHOUSES=${WAREHOUSES:-5} OWNER_LIST=
    LOADED=$DIR/loaded.db
    [ -n "${REUSE:-}" ] || lite_load "$DIR/base/stockroom" "$LOADED"
    for b in base head; do
      rm -f "$DIR/$b/bench.db" "$DIR/$b/bench.db-wal" "$DIR/$b/bench.db-shm"
      cp "$LOADED" "$DIR/$b/bench.db"
      DSN[$b]="sqlite:$DIR/$b/bench.db"
      "$DIR/$b/stockroom" migrate --db "${DSN[$b]}" >/dev/null
    done
    ;;
  *) echo "ENGINE is postgres or sqlite" >&2; exit 1 ;;
esac

declare -A PID TOK PRT=([base]=$PORT [head]=$((PORT + 1)))
for b in base head; do
  OUT=$DIR/$b PORT=${PRT[$b]} start_server "${DSN[$b]}"
  PID[$b]=$SERVER_PID TOK[$b]=$TOKEN
done
trap 'kill "${PID[base]}" "${PID[head]}" 2>/dev/null || true' EXIT

# both OP SECONDS: wrk on both servers at once; each log in $DIR/wrk-BUILD.txt.
both() {
  local b pids=()
  for b in base head; do
    wrk -t1 -c"$CONNS" -d"$2" -H "Authorization: Bearer ${TOK[$b]}" -s bench/stock.lua "http://127.0.0.1:${PRT[$b]}/" \
      -- "${TOK[$b]}" "$1" "$ITEMS" "$WAREHOUSES" "$OWNER_LIST" >"$DIR/wrk-$b.txt" 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
}

if [ "$WARMUP" != 0 ]; then
  for op in $OPS; do both "$op" "$WARMUP"; done
fi
echo "$ENGINE: head $(git rev-parse --short HEAD)$([ -z "$(git status --porcelain)" ] || echo +changes) against base $(git rev-parse --short "$BASE^{commit}"), $CONNS connections each, ${DURATION:-10s} a round"
declare -A RATIOS
for r in $(seq 1 "$ROUNDS"); do
  for op in $OPS; do
    before=$(cpu_ticks)
    both "$op" "${DURATION:-10s}"
    note_stolen "$before" "$DIR/wrk-head.txt"
    base=$(ok_rate "$DIR/wrk-base.txt") head=$(ok_rate "$DIR/wrk-head.txt")
    ratio=$(awk -v b="$base" -v h="$head" 'BEGIN { printf "%.3f", h / b }')
    RATIOS[$op]+=" $ratio"
    printf '%-8s r%-2s base %9s  head %9s 2xx/s   head/base %s   stolen %s%%\n' "$op" "$r" "$base" "$head" "$ratio" "$(stolen "$DIR/wrk-head.txt")"
  done
done
echo
for op in $OPS; do
  echo "${RATIOS[$op]}" | awk -v op="$op" '{ s = 0; lo = $1; hi = $1; for (i = 1; i <= NF; i++) { s += $i; if ($i < lo) lo = $i; if ($i > hi) hi = $i }
    printf "%-8s head/base %.3f (%.3f to %.3f over %d rounds)\n", op, s / NF, lo, hi, NF }'
done
for b in base head; do
  printf '%s: ' "$b"
  "$DIR/$b/stockroom" audit --db "${DSN[$b]}"
done
