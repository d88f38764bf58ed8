#!/usr/bin/env bash
# Inventory benchmark (issue 4). Loads ITEMS demo items (default 10,000) and
# LOTS lots (default 1,000,000) over WAREHOUSES warehouses (default 5) into a
# fresh PostgreSQL database, starts the server on it, and measures with wrk at
# 16 connections: receive, issue and move transactions per second and the
# first page of GET /Inventory and GET /Inventory/StockLevels. In the same run
# it measures pgbench's built-in tpcb-like transaction at 16 clients on the
# same PostgreSQL, the database's own ceiling for a small write transaction,
# and ends with the invariant audit of everything the load did.
#
#   bash bench/inventory.sh             # from the repository root
#   LOTS=100000 DURATION=5s bash bench/inventory.sh
#   REUSE=1 bash bench/inventory.sh     # measure again on the last run's data
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ITEMS=${ITEMS:-10000}
LOTS=${LOTS:-1000000}
WAREHOUSES=${WAREHOUSES:-5}
need_wrk
build
if [ -n "${REUSE:-}" ]; then
  DSN="$PGBASE/stockroom_bench_inventory?sslmode=disable"
  "$OUT/stockroom" migrate --db "$DSN" >/dev/null
else
  DSN=$(fresh_db stockroom_bench_inventory)
  "$OUT/stockroom" migrate --db "$DSN" >/dev/null
  echo "loading $ITEMS items and $LOTS lots over $WAREHOUSES warehouses"
  time "$OUT/stockroom" demo --items "$ITEMS" --lots "$LOTS" --warehouses "$WAREHOUSES" --db "$DSN" 2>&1 | tail -1
fi
# Measure the steady state, not the load's write-back: vacuum, then checkpoint.
psql "${DSN%%\?*}" -qc "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
start_server "$DSN"

BASE="http://127.0.0.1:$PORT/api/v1"
echo
echo "items: $ITEMS, lots: $LOTS, warehouses: $WAREHOUSES; 16 connections, ${DURATION:-10s} each (wrk)"
measure "POST /Inventory/Receive" -s bench/stock.lua "$BASE/Inventory/Receive" -- "$TOKEN" receive "$ITEMS" "$WAREHOUSES"
measure "POST /Inventory/Issue" -s bench/stock.lua "$BASE/Inventory/Issue" -- "$TOKEN" issue "$ITEMS" "$WAREHOUSES"
measure "POST /Inventory/Move" -s bench/stock.lua "$BASE/Inventory/Move" -- "$TOKEN" move "$ITEMS" "$WAREHOUSES"
measure "GET /Inventory page 1" "$BASE/Inventory"
measure "GET /Inventory/StockLevels p1" "$BASE/Inventory/StockLevels"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

echo
echo "pgbench tpcb-like, 16 clients, 20 s, scale 10 (the database's ceiling for a small write transaction):"
PGB=$(fresh_db stockroom_bench_pgbench)
pgbench -q -i -s 10 "${PGB%%\?*}" >/dev/null 2>&1
pgbench -c 16 -j 2 -T 20 "${PGB%%\?*}" 2>/dev/null | grep -E '^tps' | tee "$OUT/pgbench.txt"
PGTPS=$(awk '/^tps/ {print $3; exit}' "$OUT/pgbench.txt")
echo
for op in Receive Issue Move; do
  rps=$(awk '/^Requests\/sec/ {print $2}' "$OUT/wrk-POST__Inventory_$op.txt")
  awk -v op="$op" -v r="$rps" -v p="$PGTPS" 'BEGIN { printf "%-8s %8.0f tx/s = %5.1f%% of pgbench\n", op, r, 100 * r / p }'
done
echo
"$OUT/stockroom" audit --db "$DSN"
