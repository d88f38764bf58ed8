#!/usr/bin/env bash
# The server against a plain client of the same statements (issue 15). The
# goal compares receive, issue and move through the server with pgbench's
# tpcb-like transaction. This benchmark also runs, in the same rounds,
# pgbench on the statements the server sends for one request of each kind,
# as pg_stat_statements recorded them (bench/pgscripts.sh writes the
# scripts), sent as a plain client would: one transaction per request and a
# round trip per statement (prepared; pgbench cannot pipeline a script that
# reads a result on the way, and each of ours does), at 16 clients. That is
# not the database's ceiling for our work: paying a round trip for each, it
# mostly counts statements (with BEGIN and END, tpcb-like sends seven, a
# receive six, a move eleven, an issue twelve). It shows what the server's
# pipelines and batches are worth against the plain way, and the scripts
# let a change to the statements be tried on the database alone first (as
# docs/performance.md records two were). It prints for each operation
#
#   server / tpcb-like      the issue's goal (1.0)
#   direct / tpcb-like      the plain client of our statements
#   server / direct         what the server, its HTTP, pipelines and
#                           batches make of the same statements
#
# each the mean of its rounds' ratios. The two sides run on separate copies
# of the same loaded database (CREATE DATABASE ... TEMPLATE), so neither
# takes stock from the other; the server's copy is audited at the end.
#
# Loads ITEMS demo items (default 10,000) and LOTS lots (default 1,000,000)
# over WAREHOUSES warehouses (default 5) for OWNERS customers (default 3),
# as bench/inventory.sh does; REUSE=1 measures again on the last run's
# load. ROUNDS rounds (default 3); DURATION each run (default 10s, and
# pgbench at least 10 s: it reads low in its first seconds), after a
# warm-up of each side (WARMUP each operation, default 10s; 0 skips it).
# Within a round, server and direct alternate which goes first. Leave KEYS
# unset: the scripts claim no idempotency key. Each run's line also shows
# the CPU time PostgreSQL's processes spent per request (or transaction),
# "db" (lib.sh's db_ticks), and what a request wrote to the log (wal_now):
# records, full-page images and kilobytes, the database's work as no other
# load on the host changes it; WAL= (empty) leaves both out. When a
# request's "db" alone reaches tpcb-like's whole "cpu" (database and
# pgbench together), no server sending those statements can reach
# tpcb-like's rate on this machine.
#
#   bash bench/pgdirect.sh                        # from the repository root
#   ITEMS=1000 LOTS=30000 DURATION=5s ROUNDS=1 bash bench/pgdirect.sh
#   REUSE=1 bash bench/pgdirect.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
source bench/pgscripts.sh
pg_data
ROUNDS=${ROUNDS:-3}
WAL=${WAL-1}
OUT=bench/out/pgdirect
need_wrk
build
pg_scripts "$OUT"

LOADED="$PGBASE/stockroom_bench_direct?sslmode=disable"
if [ -n "${REUSE:-}" ]; then
  "$OUT/stockroom" migrate --db "$LOADED" >/dev/null
else
  LOADED=$(fresh_db stockroom_bench_direct)
  load "$LOADED"
fi
SERVERDSN=$(fresh_db stockroom_bench_direct_server stockroom_bench_direct)
SQLDSN=$(fresh_db stockroom_bench_direct_sql stockroom_bench_direct)
settle "$SERVERDSN"
settle "$SQLDSN"
pgbench_init
start_server "$SERVERDSN"

SECONDS_EACH=$(pgbench_seconds)

# direct OP ROUND: pgbench on OP's script at 16 clients; its output in
# $OUT/db-OP-rROUND.log.
direct() {
  local before
  before=$(cpu_ticks)
  pgbench -n -M prepared -c 16 -j 2 -T "$SECONDS_EACH" -D items="$ITEMS" -D whs="$WAREHOUSES" -D owners="$OWNERS" \
    -f "$OUT/$1.sql" "${SQLDSN%%\?*}" >"$OUT/db-$1-r$2.log" 2>&1 || { cat "$OUT/db-$1-r$2.log" >&2; exit 1; }
  note_stolen "$before" "$OUT/db-$1-r$2.log"
  printf '%-28s %10s tps %49s%s\n' "direct $1 r$2" "$(tps_of "$OUT/db-$1-r$2.log")" "" "$(machine "$OUT/db-$1-r$2.log" tx)"
}
# server OP ROUND: wrk on the server's OP at 16 connections.
server() { stock "$1" "server $1 r$2" "$OWNER_LIST"; }

# Each side warmed up first (lib.sh's warm_up), unmeasured: the server with
# its three operations, the plain client's copy with its three scripts, and
# pgbench's database with tpcb-like.
if [ "$WARMUP" != 0 ]; then
  warm_up "$OWNER_LIST"
  WARM_SECONDS=$(whole_seconds "$WARMUP" 1)
  for op in receive issue move; do
    SECONDS_EACH=$WARM_SECONDS direct "$op" warm-up >/dev/null
  done
  pgbench_run "$WARM_SECONDS" "$OUT/tpcb-warm-up.txt"
fi

echo
echo "items: $ITEMS, lots: $LOTS, warehouses: $WAREHOUSES, owners: $OWNER_LIST; 16 clients; wrk ${DURATION:-10s}, pgbench ${SECONDS_EACH}s each; $ROUNDS rounds"
for round in $(seq 1 "$ROUNDS"); do
  pgbench_run "$SECONDS_EACH" "$OUT/tpcb-r$round.txt"
  printf '%-28s %10s tps %49s%s\n' "pgbench tpcb-like r$round" "$(tps_of "$OUT/tpcb-r$round.txt")" "" "$(machine "$OUT/tpcb-r$round.txt" tx)"
  for op in receive issue move; do
    if [ $((round % 2)) = 1 ]; then server "$op" "$round"; direct "$op" "$round"; else direct "$op" "$round"; server "$op" "$round"; fi
  done
done
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

echo
echo "each the mean of its rounds' ratios (rates: mean over rounds):"
printf '%-8s %9s %9s %9s   %15s %17s %17s\n' "" "server" "direct" "tpcb" "server/tpcb" "direct/tpcb" "server/direct"
for op in receive issue move; do
  for round in $(seq 1 "$ROUNDS"); do
    echo "$(ok_rate "$OUT/wrk-server_${op}_r$round.txt") $(tps_of "$OUT/db-$op-r$round.log") $(tps_of "$OUT/tpcb-r$round.txt")"
  done | awk -v op="$op" '{ s += $1; d += $2; t += $3; st += $1 / $3; dt += $2 / $3; sd += $1 / $2 }
    END { printf "%-8s %9.0f %9.0f %9.0f   %15.2f %17.2f %17.2f\n", op, s / NR, d / NR, t / NR, st / NR, dt / NR, sd / NR }'
done
echo
printf 'server: '; "$OUT/stockroom" audit --db "$SERVERDSN"
