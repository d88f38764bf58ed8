#!/usr/bin/env bash
# Item catalog benchmark (issue 3). Loads ITEMS demo items (default
# 1,000,000) into a fresh PostgreSQL database, starts the server on it, and
# measures the item endpoints over HTTP with wrk at 16 connections.
#
#   bash bench/items.sh                 # from the repository root
#   ITEMS=100000 DURATION=5s bash bench/items.sh
#
# Needs the local PostgreSQL (PGBASE, default postgres://postgres@127.0.0.1:5432)
# and installs wrk from Debian's packages if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ITEMS=${ITEMS:-1000000}
need_wrk
build
DSN=$(fresh_db stockroom_bench_items)
"$OUT/stockroom" migrate --db "$DSN" >/dev/null
echo "loading $ITEMS items"
time "$OUT/stockroom" demo --items "$ITEMS" --db "$DSN" 2>&1 | tail -1
psql "${DSN%%\?*}" -qc "VACUUM ANALYZE" >/dev/null
start_server "$DSN"

LAST=$(( (ITEMS + 249) / 250 ))
NEAR_END=$(( LAST > 1 ? LAST - 1 : 1 ))
BASE="http://127.0.0.1:$PORT/api/v1"
echo
echo "items: $ITEMS, 16 connections, ${DURATION:-10s} each (wrk; latencies are wrk's percentiles)"
measure "GET /Item page 1" "$BASE/Item"
measure "GET /Item page $NEAR_END (250)" "$BASE/Item?page=$NEAR_END&pageSize=250"
measure "GET /Item?key=...&type=id" -s bench/lookup.lua "$BASE/Item" -- "$ITEMS"
measure "POST /Item" -s bench/create.lua "$BASE/Item" -- "$TOKEN" "$(date +%s)"
measure "PUT /Item" -s bench/update.lua "$BASE/Item" -- "$TOKEN" "$ITEMS"
