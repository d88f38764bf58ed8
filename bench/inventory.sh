#!/usr/bin/env bash
# Inventory benchmark (issues 4 and 11, owners). Loads ITEMS demo items
# (default 10,000) and LOTS lots (default 1,000,000) over WAREHOUSES
# warehouses (default 5) and OWNERS customers (default 3; each item's lots
# in each warehouse are spread over all of them) into a fresh PostgreSQL
# database, starts the server on it, and measures with wrk at 16
# connections: receive, issue and move transactions per second, each
# request naming one of the owners at random, and the first page of GET
# /Inventory and GET /Inventory/StockLevels; then the median of a lone
# request for StockLevels page 1, summed over owners and with ?owner=2. In
# the same run it measures pgbench's built-in tpcb-like transaction at 16
# clients on the same PostgreSQL, the database's own ceiling for a small
# write transaction, and ends with the invariant audit of everything the
# load did. With BASE, pgbench runs at the start of every round (for
# DURATION, at least 10 s) as well as for 20 s at the end, and each build's ratio to
# pgbench is the mean of its rounds' ratios to their own round's pgbench:
# on a shared machine pgbench was seen to read 2,633 and 3,210 tps an hour
# apart.
#
# The customers are inserted with SQL (parties 1..OWNERS, BENCH-1 ...):
# the load needs them before any server runs.
#
# BASE=<git revision> compares this tree with that revision back to back on
# the same rows: this tree's binary loads the data, the database is cloned
# (CREATE DATABASE ... TEMPLATE), and the clone is taken back to the base's
# schema by running, newest first, the Down section of each migration the
# base lacks (for a base before owners: migration 7, after which every lot
# is the house's, as that build knows no owners). A base binary does not
# refuse a newer schema on serve, but it would write lots and levels
# without owners and draw across them, breaking the newer schema's
# invariants, so it is not run on one. Each binary serves its copy, and
# receive, issue and move are measured base, head, base, head ... for
# ROUNDS rounds (default 3), so the difference can be read against the
# spread between rounds of one binary; the head's requests name an owner,
# the base's none. Each round ends with a lone receive of each (one
# connection, one request at a time), whose medians are compared: group
# commit (issue 15) must not make a request wait for company at low load.
# Every server is warmed up first, unmeasured (lib.sh's warm_up: WARMUP
# of each operation, default 10s; 0 skips it).
#
#   bash bench/inventory.sh             # from the repository root
#   ITEMS=1000 LOTS=30000 WAREHOUSES=2 DURATION=3s bash bench/inventory.sh
#   REUSE=1 bash bench/inventory.sh     # measure again on the last run's data
#   BASE=05d6bbe ROUNDS=3 bash bench/inventory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

pg_data
BASE=${BASE:-}
ROUNDS=${ROUNDS:-3}
need_wrk
build

# schema_version REV: the newest migration of git revision REV.
schema_version() {
  git ls-tree --name-only "$1" internal/store/migrations/postgres/ |
    sed -n 's|.*/0*\([0-9][0-9]*\)_[^/]*\.sql$|\1|p' | sort -n | tail -1
}

# downgrade DSN REV: take the database back to the schema of revision REV
# by running, newest first, the Down section of each of this tree's
# migrations that REV does not have (the statements goose would run), each
# with the removal of its version, in one transaction.
downgrade() {
  local want f v
  want=$(schema_version "$2")
  for f in $(ls -r internal/store/migrations/postgres/*.sql); do
    v=$(basename "$f" | sed 's/_.*//; s/^0*//')
    [ "$v" -gt "$want" ] || continue
    echo "base copy: migration $v down"
    { sed -n '/^-- +goose Down/,$p' "$f"; echo "DELETE FROM goose_db_version WHERE version_id = $v;"; } |
      PGOPTIONS=--client-min-messages=warning psql "${1%%\?*}" -q -1 -v ON_ERROR_STOP=1 >/dev/null
  done
  settle "$1"
}

# lone NAME-SUFFIX [OWNERS]: the median of a lone receive (one connection,
# one request at a time): what a client sees at low load, where group
# commit must add nothing.
lone() {
  measure_at 1 "lone receive $1" -s bench/stock.lua "http://127.0.0.1:$PORT/" -- "$TOKEN" receive "$ITEMS" "$WAREHOUSES" "${2:-}"
}

# levels NAME-SUFFIX: the median of a lone request for StockLevels page 1,
# summed over owners and (for a build with owners) with ?owner=2.
levels() {
  local url="http://127.0.0.1:$PORT/api/v1/Inventory/StockLevels"
  measure_at 1 "StockLevels p1 $1" "$url"
  [ -z "${2:-}" ] || measure_at 1 "StockLevels?owner=2 p1 $1" "$url?owner=2"
}

pgbench_tps() {
  echo
  echo "pgbench tpcb-like, 16 clients, 20 s, scale 10 (the database's ceiling for a small write transaction):"
  [ -n "${PGB:-}" ] || pgbench_init
  pgbench_run 20 "$OUT/pgbench.txt"
  cat "$OUT/pgbench.txt"
  PGTPS=$(tps_of "$OUT/pgbench.txt")
}


if [ -n "$BASE" ]; then
  BASE_REV=$(git rev-parse --short "$BASE^{commit}")
  HEAD_REV=$(git rev-parse --short HEAD)
  [ -z "$(git status --porcelain)" ] || HEAD_REV="$HEAD_REV+changes"
  HEADOUT=$(cd "$OUT" && pwd) BASEOUT=$(cd "$OUT" && pwd)/base
  mkdir -p "$BASEOUT"
  rm -f "$HEADOUT"/wrk-StockLevels_* "$BASEOUT"/wrk-StockLevels_*
  build_rev "$BASE_REV" "$BASEOUT/stockroom"
  DSN=$(fresh_db stockroom_bench_inventory)
  load "$DSN"
  BASEDSN=$(fresh_db stockroom_bench_inventory_base stockroom_bench_inventory)
  downgrade "$BASEDSN" "$BASE_REV"
  # The downgrade rebuilt some of the base copy's indexes (lots_draw)
  # compactly, while the head's grew through the load: rebuild both
  # copies' lot and ledger indexes, so neither starts with tidier pages.
  for d in "$DSN" "$BASEDSN"; do
    psql "${d%%\?*}" -q -c "REINDEX TABLE lots" -c "REINDEX TABLE transactions" -c "REINDEX TABLE transaction_lines" >/dev/null
    settle "$d"
  done
  BASE_OWNERS=""  # a base before owners (migration 7) takes no owner field
  [ "$(schema_version "$BASE_REV")" -lt 7 ] || BASE_OWNERS=$OWNER_LIST
  OUT=$BASEOUT start_server "$BASEDSN"
  BASEPID=$SERVER_PID BASETOKEN=$TOKEN BASEPORT=$PORT
  PORT=$((PORT + 1)) OUT=$HEADOUT start_server "$DSN"
  HEADPID=$SERVER_PID HEADTOKEN=$TOKEN HEADPORT=$((PORT + 1))
  trap 'kill $BASEPID $HEADPID 2>/dev/null || true' EXIT
  echo
  echo "items: $ITEMS, lots: $LOTS, warehouses: $WAREHOUSES, owners: $OWNER_LIST; 16 connections, ${DURATION:-10s} each (wrk);" \
    "base $BASE_REV, head $HEAD_REV, $ROUNDS rounds"
  # The two databases share PostgreSQL's buffer cache, so whichever runs
  # second finds its pages evicted by the first: the order alternates from
  # round to round, so neither build always pays for it.
  # both ROUND FN [ARGS...]: FN ARGS "RUN rROUND" OWNERS on each build's
  # server (its OUT, PORT and TOKEN), base first in odd rounds, head first
  # in even ones.
  both() {
    local round=$1 r runs=(base head)
    shift
    [ $((round % 2)) = 1 ] || runs=(head base)
    for r in "${runs[@]}"; do
      if [ "$r" = base ]; then
        OUT=$BASEOUT PORT=$BASEPORT TOKEN=$BASETOKEN "$@" "base r$round" "$BASE_OWNERS"
      else
        OUT=$HEADOUT PORT=$HEADPORT TOKEN=$HEADTOKEN "$@" "head r$round" "$OWNER_LIST"
      fi
    done
  }
  stock_as() { stock "$1" "$1 $2" "$3"; } # OP RUN-ROUND OWNERS
  warm() { warm_up "$2"; } # RUN-ROUND OWNERS: both's call of warm_up
  both 1 warm
  pgbench_init
  ROUND_SECONDS=$(pgbench_seconds)
  for round in $(seq 1 "$ROUNDS"); do
    pgbench_run "$ROUND_SECONDS" "$HEADOUT/pgbench-r$round.txt"
    printf '%-28s %10s tps %64s\n' "pgbench r$round" "$(tps_of "$HEADOUT/pgbench-r$round.txt")" "stolen $(stolen "$HEADOUT/pgbench-r$round.txt")%"
    for op in receive issue move; do
      both "$round" stock_as "$op"
    done
    # A lone receive of each in every round, in the round's order:
    # measured once, base then head, the second read slower whichever
    # build it was.
    both "$round" lone
  done
  OUT=$BASEOUT PORT=$BASEPORT TOKEN=$BASETOKEN levels base "$BASE_OWNERS"
  OUT=$HEADOUT PORT=$HEADPORT TOKEN=$HEADTOKEN levels head owners
  kill "$BASEPID" "$HEADPID"; wait "$BASEPID" "$HEADPID" 2>/dev/null || true
  OUT=$HEADOUT pgbench_tps
  tpss=$(for round in $(seq 1 "$ROUNDS"); do tps_of "$HEADOUT/pgbench-r$round.txt"; done | tr '\n' ' ')
  echo "pgbench at the start of each round: $tpss"
  echo
  for op in receive issue move; do
    for run in base head; do
      dir=$HEADOUT; [ "$run" = head ] || dir=$BASEOUT
      rates=$(for round in $(seq 1 "$ROUNDS"); do ok_rate "$dir/wrk-${op}_${run}_r$round.txt"; done | tr '\n' ' ')
      refs=$(for round in $(seq 1 "$ROUNDS"); do refused "$dir/wrk-${op}_${run}_r$round.txt"; done | tr '\n' ' ')
      echo "$rates" | awk -v op="$op" -v run="$run" -v t="$tpss" -v x="$refs" '{
        s = 0; k = 0; lo = $1; hi = $1; split(t, p, " ")
        for (i = 1; i <= NF; i++) { s += $i; k += $i / p[i]; if ($i < lo) lo = $i; if ($i > hi) hi = $i }
        printf "%-8s %-5s rounds %-30s mean %7.0f 2xx/s (%5.1f%% of its rounds\047 pgbench), spread %5.0f, refused %% %s\n", op, run, $0, s / NF, 100 * k / NF, hi - lo, x
      }'
    done
  done
  for name in StockLevels_p1_base StockLevels_owner_2_p1_base StockLevels_p1_head StockLevels_owner_2_p1_head; do
    dir=$HEADOUT; [ "${name%_base}" = "$name" ] || dir=$BASEOUT
    [ -f "$dir/wrk-$name.txt" ] || continue
    printf '%-28s median %8.3f ms (goal < 10 ms)\n' "$name" "$(wrk_ms "$dir/wrk-$name.txt" 50%)"
  done
  for run in base head; do
    dir=$HEADOUT; [ "$run" = head ] || dir=$BASEOUT
    printf '%-28s median %8.3f ms, mean of the rounds (goal: head no worse than base)\n' "lone receive $run" \
      "$(for round in $(seq 1 "$ROUNDS"); do wrk_ms "$dir/wrk-lone_receive_${run}_r$round.txt" 50%; done | awk '{ s += $1 } END { printf "%.3f\n", s / NR }')"
  done
  echo
  printf 'base: '; "$BASEOUT/stockroom" audit --db "$BASEDSN"
  printf 'head: '; "$HEADOUT/stockroom" audit --db "$DSN"
  exit 0
fi

if [ -n "${REUSE:-}" ]; then
  DSN="$PGBASE/stockroom_bench_inventory?sslmode=disable"
  "$OUT/stockroom" migrate --db "$DSN" >/dev/null
  settle "$DSN"
else
  DSN=$(fresh_db stockroom_bench_inventory)
  load "$DSN"
fi
start_server "$DSN"
warm_up "$OWNER_LIST"

BASEURL="http://127.0.0.1:$PORT/api/v1"
echo
echo "items: $ITEMS, lots: $LOTS, warehouses: $WAREHOUSES, owners: $OWNER_LIST; 16 connections, ${DURATION:-10s} each (wrk)"
stock receive "POST /Inventory/Receive" "$OWNER_LIST"
stock issue "POST /Inventory/Issue" "$OWNER_LIST"
stock move "POST /Inventory/Move" "$OWNER_LIST"
measure "GET /Inventory page 1" "$BASEURL/Inventory"
measure "GET /Inventory/StockLevels p1" "$BASEURL/Inventory/StockLevels"
levels lone owners
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

pgbench_tps
echo
for op in Receive Issue Move; do
  log="$OUT/wrk-POST__Inventory_$op.txt"
  awk -v op="$op" -v r="$(ok_rate "$log")" -v x="$(refused "$log")" -v p="$PGTPS" \
    'BEGIN { printf "%-8s %8.0f 2xx/s = %5.1f%% of pgbench (%s%% refused)\n", op, r, 100 * r / p, x }'
done
for name in "StockLevels_p1_lone" "StockLevels_owner_2_p1_lone"; do
  printf '%-28s median %8.3f ms (goal < 10 ms)\n' "$name" "$(wrk_ms "$OUT/wrk-$name.txt" 50%)"
done
echo
"$OUT/stockroom" audit --db "$DSN"
