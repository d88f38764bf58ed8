#!/usr/bin/env bash
# Outbound benchmark (issue 14). Loads ITEMS demo items (default 10,000) and
# LOTS lots (default 100,000) over WAREHOUSES warehouses (default 5) into a
# fresh PostgreSQL database, starts the server on it, and measures with wrk
# at 16 connections, in one run:
#
#   - placing one-line shipping orders (BENCH-<n>, 1 unit of a random item
#     and warehouse) through the API, for CREATE (default 3 x DURATION);
#   - commits (for 2 x DURATION, after 3 s of commits not measured and an
#     ANALYZE), packs (1 unit) and ships (DURATION each)
#     of those orders, each order once per step (packs and ships only of
#     the orders the commits reached): each rate counts the requests answered 2xx (a
#     thread whose orders run out asks for BENCH-0, refused and not counted;
#     the script says so if that happened, as the rate is then a lower
#     bound);
#
# each step after plain issues of 1 unit (bench/stock.lua's issue) for
# DURATION, on the same database as it then is, and reports each rate and
# its ratio to the issue rate measured just before it (the goal: at least
# 0.70 each). It ends with the invariant audit of everything the load
# did.
#
#   bash bench/outbound.sh                # from the repository root
#   ITEMS=1000 LOTS=10000 DURATION=3s bash bench/outbound.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ITEMS=${ITEMS:-10000}
LOTS=${LOTS:-100000}
WAREHOUSES=${WAREHOUSES:-5}
D=${DURATION:-10s}
CREATE=${CREATE:-$((3 * ${D%s}))s}
need_wrk
build

DSN=$(fresh_db stockroom_bench_outbound)
PSQL="${DSN%%\?*}"
"$OUT/stockroom" migrate --db "$DSN" >/dev/null
echo "loading $ITEMS items and $LOTS lots over $WAREHOUSES warehouses"
"$OUT/stockroom" demo --items "$ITEMS" --lots "$LOTS" --warehouses "$WAREHOUSES" --db "$DSN" 2>&1 | tail -1
start_server "$DSN"
API="http://127.0.0.1:$PORT/api/v1"
curl -fsS -o /dev/null -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' "$API/Customer" \
  -d '{"shortID":"BENCH-C","name":"Bench customer"}'
psql "$PSQL" -qc "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
URL="http://127.0.0.1:$PORT/"

echo
echo "items: $ITEMS, lots: $LOTS, warehouses: $WAREHOUSES; 16 connections, $D each (wrk), orders placed for $CREATE"
issue() { measure "issue $1" -s bench/stock.lua "$URL" -- "$TOKEN" issue "$ITEMS" "$WAREHOUSES"; }
DURATION=$CREATE measure "place order" -s bench/outbound.lua "$URL" -- "$TOKEN" create "$ITEMS" "$WAREHOUSES" 2
last=$(psql "$PSQL" -tAc "SELECT COALESCE(MAX(CAST(SUBSTRING(order_no FROM 7) AS bigint)), 0) FROM orders WHERE kind = 'shipping' AND order_no LIKE 'BENCH-%'")
placed=$(psql "$PSQL" -tAc "SELECT COUNT(*) FROM orders WHERE kind = 'shipping'")
psql "$PSQL" -qc "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
# A few seconds of commits first, then ANALYZE: with the allocations table
# analyzed while empty, PostgreSQL plans the actions' reads for an empty
# table, which costs them a third of their rate until autovacuum analyzes
# it (a minute or so into a new database's first commits).
DURATION=3s measure "commit warm-up" -s bench/outbound.lua "$URL" -- "$TOKEN" commit 1 "$last" 2
from=$(psql "$PSQL" -tAc "SELECT COALESCE(MAX(CAST(SUBSTRING(o.order_no FROM 7) AS bigint)), 0) + 1
  FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.kind = 'shipping' AND l.committed > 0")
psql "$PSQL" -qc "VACUUM ANALYZE" >/dev/null
issue commit
DURATION=$((2 * ${D%s}))s measure "commit" -s bench/outbound.lua "$URL" -- "$TOKEN" commit "$from" "$last" 2
# Packs and ships walk the orders committed, so that none is asked of an
# order the commits did not reach; the commits ran twice as long, so that
# they do not run out.
read -r committed ncommitted < <(psql "$PSQL" -F ' ' -tAc "SELECT COALESCE(MAX(CAST(SUBSTRING(o.order_no FROM 7) AS bigint)), 0), COUNT(*)
  FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.kind = 'shipping' AND l.committed > 0")
for step in pack ship; do
  # As a running database would be: its tables analyzed since they filled.
  psql "$PSQL" -qc "VACUUM ANALYZE" >/dev/null
  issue "$step"
  measure "$step" -s bench/outbound.lua "$URL" -- "$TOKEN" "$step" 1 "$committed" 2
done
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

# answered LOG: requests answered 2xx.
answered() { awk '/requests in/ { total = $1 } /Non-2xx/ { bad = $NF } END { print total - bad }' "$1"; }
echo
echo "place order  $(ok_rate "$OUT/wrk-place_order.txt") tx/s ($placed orders)"
for step in commit pack ship; do
  issue=$(ok_rate "$OUT/wrk-issue_$step.txt")
  echo "issue        $issue tx/s (just before the ${step}s)"
  r=$(ok_rate "$OUT/wrk-$step.txt")
  n=$(answered "$OUT/wrk-$step.txt")
  all=$((last - from + 1))
  [ "$step" = commit ] || all=$ncommitted
  # wrk does not count the requests still running when it stops (up to one
  # per connection).
  awk -v s="$step" -v r="$r" -v i="$issue" -v n="$n" -v all="$all" 'BEGIN {
    printf "%-12s %s tx/s (%d of %d orders), / issue = %.2f (goal >= 0.70)\n", s, r, n, all, r / i
    if (n + 16 >= all) print "  (every order was done before the time was up: the rate is a lower bound)"
  }'
done
echo
"$OUT/stockroom" audit --db "$DSN"
