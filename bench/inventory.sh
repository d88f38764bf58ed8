#!/usr/bin/env bash
# Inventory benchmark (issues 4 and 11). Loads ITEMS demo items (default
# 10,000) and LOTS lots (default 1,000,000) over WAREHOUSES warehouses
# (default 5) into a fresh PostgreSQL database, starts the server on it, and
# measures with wrk at 16 connections: receive, issue and move transactions
# per second and the first page of GET /Inventory and GET
# /Inventory/StockLevels. In the same run it measures pgbench's built-in
# tpcb-like transaction at 16 clients on the same PostgreSQL, the database's
# own ceiling for a small write transaction, and ends with the invariant
# audit of everything the load did.
#
# BASE=<git revision> compares this tree with that revision back to back:
# the base binary loads the data, the database is cloned (CREATE DATABASE
# ... TEMPLATE), each binary serves its copy, and receive, issue and move are
# measured base, head, base, head ... for ROUNDS rounds (default 3), so the
# difference can be read against the spread between rounds of one binary.
#
#   bash bench/inventory.sh             # from the repository root
#   LOTS=100000 DURATION=5s bash bench/inventory.sh
#   REUSE=1 bash bench/inventory.sh     # measure again on the last run's data
#   BASE=fc0b0cf ROUNDS=3 bash bench/inventory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ITEMS=${ITEMS:-10000}
LOTS=${LOTS:-1000000}
WAREHOUSES=${WAREHOUSES:-5}
BASE=${BASE:-}
ROUNDS=${ROUNDS:-3}
need_wrk
build

# load DSN BINARY: a fresh load of the demo data, vacuumed and checkpointed
# so that what is measured is the steady state, not the load's write-back.
load() {
  "$2" migrate --db "$1" >/dev/null
  echo "loading $ITEMS items and $LOTS lots over $WAREHOUSES warehouses"
  time "$2" demo --items "$ITEMS" --lots "$LOTS" --warehouses "$WAREHOUSES" --db "$1" 2>&1 | tail -1
  psql "${1%%\?*}" -qc "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
}

stock() { # OP NAME: wrk on one stock operation of the server at $PORT
  measure "$2" -s bench/stock.lua "http://127.0.0.1:$PORT/" -- "$TOKEN" "$1" "$ITEMS" "$WAREHOUSES"
}

pgbench_tps() {
  echo
  echo "pgbench tpcb-like, 16 clients, 20 s, scale 10 (the database's ceiling for a small write transaction):"
  local pgb
  pgb=$(fresh_db stockroom_bench_pgbench)
  pgbench -q -i -s 10 "${pgb%%\?*}" >/dev/null 2>&1
  pgbench -c 16 -j 2 -T 20 "${pgb%%\?*}" 2>/dev/null | grep -E '^tps' | tee "$OUT/pgbench.txt"
  PGTPS=$(awk '/^tps/ {print $3; exit}' "$OUT/pgbench.txt")
}

rps() { awk '/^Requests\/sec/ {print $2}' "$1"; }

if [ -n "$BASE" ]; then
  BASE_REV=$(git rev-parse --short "$BASE^{commit}")
  HEAD_REV=$(git rev-parse --short HEAD)
  [ -z "$(git status --porcelain)" ] || HEAD_REV="$HEAD_REV+changes"
  HEADOUT=$(cd "$OUT" && pwd) BASEOUT=$(cd "$OUT" && pwd)/base
  mkdir -p "$BASEOUT"
  build_rev "$BASE_REV" "$BASEOUT/stockroom"
  DSN=$(fresh_db stockroom_bench_inventory)
  load "$DSN" "$BASEOUT/stockroom"
  PGOPTIONS=--client-min-messages=warning psql "$PGBASE/postgres" -q \
    -c "DROP DATABASE IF EXISTS stockroom_bench_inventory_head" \
    -c "CREATE DATABASE stockroom_bench_inventory_head TEMPLATE stockroom_bench_inventory" >/dev/null
  HEADDSN="$PGBASE/stockroom_bench_inventory_head?sslmode=disable"
  OUT=$BASEOUT start_server "$DSN"
  BASEPID=$SERVER_PID BASETOKEN=$TOKEN BASEPORT=$PORT
  PORT=$((PORT + 1)) OUT=$HEADOUT start_server "$HEADDSN"
  HEADPID=$SERVER_PID HEADTOKEN=$TOKEN HEADPORT=$((PORT + 1))
  trap 'kill $BASEPID $HEADPID 2>/dev/null || true' EXIT
  echo
  echo "items: $ITEMS, lots: $LOTS, warehouses: $WAREHOUSES; 16 connections, ${DURATION:-10s} each (wrk);" \
    "base $BASE_REV, head $HEAD_REV, $ROUNDS rounds"
  for round in $(seq 1 "$ROUNDS"); do
    for op in receive issue move; do
      OUT=$BASEOUT PORT=$BASEPORT TOKEN=$BASETOKEN stock "$op" "$op base r$round"
      OUT=$HEADOUT PORT=$HEADPORT TOKEN=$HEADTOKEN stock "$op" "$op head r$round"
    done
  done
  kill "$BASEPID" "$HEADPID"; wait "$BASEPID" "$HEADPID" 2>/dev/null || true
  OUT=$HEADOUT pgbench_tps
  echo
  for op in receive issue move; do
    for run in base head; do
      dir=$HEADOUT; [ "$run" = head ] || dir=$BASEOUT
      rates=$(for round in $(seq 1 "$ROUNDS"); do rps "$dir/wrk-${op}_${run}_r$round.txt"; done | tr '\n' ' ')
      echo "$rates" | awk -v op="$op" -v run="$run" -v p="$PGTPS" '{
        s = 0; lo = $1; hi = $1
        for (i = 1; i <= NF; i++) { s += $i; if ($i < lo) lo = $i; if ($i > hi) hi = $i }
        printf "%-8s %-5s rounds %-30s mean %7.0f tx/s (%5.1f%% of pgbench), spread %5.0f\n", op, run, $0, s / NF, 100 * s / NF / p, hi - lo
      }'
    done
  done
  echo
  printf 'base: '; "$BASEOUT/stockroom" audit --db "$DSN"
  printf 'head: '; "$HEADOUT/stockroom" audit --db "$HEADDSN"
  exit 0
fi

if [ -n "${REUSE:-}" ]; then
  DSN="$PGBASE/stockroom_bench_inventory?sslmode=disable"
  "$OUT/stockroom" migrate --db "$DSN" >/dev/null
  psql "${DSN%%\?*}" -qc "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
else
  DSN=$(fresh_db stockroom_bench_inventory)
  load "$DSN" "$OUT/stockroom"
fi
start_server "$DSN"

BASEURL="http://127.0.0.1:$PORT/api/v1"
echo
echo "items: $ITEMS, lots: $LOTS, warehouses: $WAREHOUSES; 16 connections, ${DURATION:-10s} each (wrk)"
stock receive "POST /Inventory/Receive"
stock issue "POST /Inventory/Issue"
stock move "POST /Inventory/Move"
measure "GET /Inventory page 1" "$BASEURL/Inventory"
measure "GET /Inventory/StockLevels p1" "$BASEURL/Inventory/StockLevels"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

pgbench_tps
echo
for op in Receive Issue Move; do
  awk -v op="$op" -v r="$(rps "$OUT/wrk-POST__Inventory_$op.txt")" -v p="$PGTPS" \
    'BEGIN { printf "%-8s %8.0f tx/s = %5.1f%% of pgbench\n", op, r, 100 * r / p }'
done
echo
"$OUT/stockroom" audit --db "$DSN"
