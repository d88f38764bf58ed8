#!/usr/bin/env bash
# Inbound benchmark (issue 13). Loads ITEMS demo items (default 10,000) and
# LOTS lots (default 100,000) over WAREHOUSES warehouses (default 5) into a
# fresh PostgreSQL database, starts the server on it, makes ORDERS purchase
# orders (default 100) of LINES lines each (default 50) through the API, and
# measures with wrk at 16 connections, in one run:
#
#   - plain receipts and receipts against purchase-order lines, alternating
#     for ROUNDS rounds (default 3) after 3 s of each not counted, and the
#     ratio of their means (the goal: at least 0.8);
#   - staged transfers (a move with shipToWid and transitSlip) for twice
#     DURATION;
#   - receipts of those transits at the destination, each once, for
#     DURATION: the rate counts the receipts answered 2xx (a thread whose
#     transits run out asks for transit 0, refused and not counted; the
#     script says so if that happened).
#
# It ends with the invariant audit of everything the load did.
#
#   bash bench/inbound.sh                 # from the repository root
#   ITEMS=1000 LOTS=10000 DURATION=3s ROUNDS=2 bash bench/inbound.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ITEMS=${ITEMS:-10000}
LOTS=${LOTS:-100000}
WAREHOUSES=${WAREHOUSES:-5}
ORDERS=${ORDERS:-100}
LINES=${LINES:-50}
ROUNDS=${ROUNDS:-3}
need_wrk
build

DSN=$(fresh_db stockroom_bench_inbound)
"$OUT/stockroom" migrate --db "$DSN" >/dev/null
echo "loading $ITEMS items and $LOTS lots over $WAREHOUSES warehouses"
"$OUT/stockroom" demo --items "$ITEMS" --lots "$LOTS" --warehouses "$WAREHOUSES" --db "$DSN" 2>&1 | tail -1
start_server "$DSN"
API="http://127.0.0.1:$PORT/api/v1"
post() { curl -fsS -o /dev/null -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' "$API/$1" -d "$2"; }

echo "making $ORDERS purchase orders of $LINES lines"
post Vendor '{"shortID":"BENCH-V","name":"Bench vendor"}'
for p in $(seq 1 "$ORDERS"); do
  body=$(awk -v p="$p" -v lines="$LINES" -v items="$ITEMS" -v whs="$WAREHOUSES" 'BEGIN {
    printf "{\"poNo\":\"BENCH-%d\",\"vendorID\":\"BENCH-V\",\"lines\":[", p
    for (l = 1; l <= lines; l++) {
      n = ((p - 1) * lines + l - 1) % items + 1
      printf "%s{\"itemID\":\"DEMO-%07d\",\"units\":100000000,\"unitPrice\":2.5,\"warehouse\":%d}", (l > 1 ? "," : ""), n, (p + l) % whs + 1
    }
    printf "]}"
  }')
  post PurchaseOrder "$body"
done
psql "${DSN%%\?*}" -qc "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null

# What autovacuum would do for the small tables the load churns, between
# steps: PostgreSQL on the development and CI machines runs with autovacuum
# off (SHOW autovacuum), where the 100 order headers, updated by every
# receipt, pile up dead rows, and the transits are planned as the empty
# table they were at the start. A production server runs autovacuum.
tidy() { psql "${DSN%%\?*}" -qc "VACUUM ANALYZE orders, order_lines, transits, transit_lines" >/dev/null; }

echo
echo "items: $ITEMS, lots: $LOTS, warehouses: $WAREHOUSES, orders: $ORDERS x $LINES lines; 16 connections, ${DURATION:-10s} each (wrk)"
echo "autovacuum: $(psql "${DSN%%\?*}" -tAc 'SHOW autovacuum'); the script vacuums and analyzes orders and transits between steps"
# Both kinds once, not counted: the first seconds of a fresh server and
# database run slower, and would count against whichever kind went first.
DURATION=3s measure "receive warm-up" -s bench/stock.lua "http://127.0.0.1:$PORT/" -- "$TOKEN" receive "$ITEMS" "$WAREHOUSES"
DURATION=3s measure "po-receive warm-up" -s bench/inbound.lua "http://127.0.0.1:$PORT/" -- "$TOKEN" po "$ITEMS" "$WAREHOUSES" "$ORDERS" "$LINES"
for round in $(seq 1 "$ROUNDS"); do
  tidy
  measure "receive r$round" -s bench/stock.lua "http://127.0.0.1:$PORT/" -- "$TOKEN" receive "$ITEMS" "$WAREHOUSES"
  measure "po-receive r$round" -s bench/inbound.lua "http://127.0.0.1:$PORT/" -- "$TOKEN" po "$ITEMS" "$WAREHOUSES" "$ORDERS" "$LINES"
done

before=$(psql "${DSN%%\?*}" -tAc "SELECT COALESCE(MAX(id), 0) FROM transits")
D=${DURATION:-10s}
DURATION=$((2 * ${D%s}))s measure "transit ship" -s bench/inbound.lua "http://127.0.0.1:$PORT/" -- "$TOKEN" ship "$ITEMS" "$WAREHOUSES"
after=$(psql "${DSN%%\?*}" -tAc "SELECT COALESCE(MAX(id), 0) FROM transits")
tidy
measure "transit receive" -s bench/inbound.lua "http://127.0.0.1:$PORT/" -- "$TOKEN" arrive $((before + 1)) "$after" 2
received=$(psql "${DSN%%\?*}" -tAc "SELECT COUNT(*) FROM transits WHERE id > $before AND status = 'Received'")
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

echo
mean() { for r in $(seq 1 "$ROUNDS"); do ok_rate "$OUT/wrk-${1//-/_}_r$r.txt"; done | awk '{ s += $1; printf "%s ", $1 } END { printf "mean %.0f", s / NR }'; }
echo "receive     rounds $(mean receive) tx/s"
echo "po-receive  rounds $(mean po-receive) tx/s"
awk -v a="$(mean po-receive | sed 's/.*mean //')" -v b="$(mean receive | sed 's/.*mean //')" \
  'BEGIN { printf "po-receive / receive = %.2f (goal >= 0.80)\n", a / b }'
echo "transit ship    $(ok_rate "$OUT/wrk-transit_ship.txt") tx/s ($((after - before)) transits)"
awk -v r="$(ok_rate "$OUT/wrk-transit_receive.txt")" -v n="$received" -v all="$((after - before))" 'BEGIN {
  printf "transit receive %.0f tx/s (%d of %d transits received)\n", r, n, all
  if (n >= all) print "  (every transit was received before the time was up: the rate is a lower bound)"
}'
echo
"$OUT/stockroom" audit --db "$DSN"
