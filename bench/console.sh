#!/usr/bin/env bash
# The console's stock-level screen at scale (issue 43). Loads ITEMS demo
# items (default 10,000) and LOTS lots (default 1,000,000) over WAREHOUSES
# warehouses (5) into a fresh database (ENGINE=sqlite, the default, or
# ENGINE=postgres; REUSE=1 serves the last run's load), signs in to the
# console as the administrator, and times REQUESTS (default 50) loads of
# each of these pages, one at a time over loopback (curl's time_total: the
# server's time plus a loopback round trip), printing the median, p95 and
# the largest:
#
#   the first page of every item, the first page of warehouse 1, one item
#   searched, the 100th page (offset paging), and an item's page (its lots
#   and ledger).
#
# The goal: the first page under 300 ms.
#
#   bash bench/console.sh
#   ENGINE=postgres bash bench/console.sh
#   REUSE=1 REQUESTS=200 bash bench/console.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
pg_data
REQUESTS=${REQUESTS:-50}
ENGINE=${ENGINE:-sqlite}
build
if [ "$ENGINE" = postgres ]; then
  DSN="$PGBASE/stockroom_bench_console?sslmode=disable"
  if [ -z "${REUSE:-}" ]; then
    DSN=$(fresh_db stockroom_bench_console)
    load "$DSN"
  fi
else
  DSN="sqlite:$OUT/console.db"
  [ -n "${REUSE:-}" ] || lite_load "$OUT/stockroom" "$OUT/console.db"
fi
rm -f "$OUT/server.out"
start_server "$DSN"
BASE="http://127.0.0.1:$PORT"
JAR="$OUT/console.cookies"
creds="$OUT/server.out"
grep -q client_secret= "$creds" || creds="$OUT/client.txt"
id=$(grep -o 'client_id=[^ ]*' "$creds" | head -1 | cut -d= -f2)
secret=$(grep -o 'client_secret=[^ ]*' "$creds" | head -1 | cut -d= -f2)
curl -fsS -o /dev/null -c "$JAR" -H "Origin: $BASE" --data-urlencode "client_id=$id" \
  --data-urlencode "client_secret=$secret" "$BASE/console/signin"
item=$(curl -fsS -b "$JAR" "$BASE/console/levels" | grep -o 'data-item="[^"]*"' | sed -n 7p | cut -d'"' -f2)
[ -n "$item" ] || { echo "the console shows no stock; server log:" >&2; cat "$OUT/server.log" >&2; exit 1; }

# timed NAME PATH: REQUESTS loads of PATH, one after another.
timed() {
  local f="$OUT/console-$1.txt"
  curl -fsS -o /dev/null -b "$JAR" "$BASE$2" # warm: the first of a kind reads cold pages
  for _ in $(seq 1 "$REQUESTS"); do
    curl -fsS -o /dev/null -b "$JAR" -w '%{time_total}\n' "$BASE$2"
  done | sort -n >"$f"
  awk -v name="$1" '{ t[NR] = $1 * 1000 } END {
    printf "%-28s median %7.1f ms   p95 %7.1f ms   max %7.1f ms   (%d loads)\n",
      name, t[int((NR + 1) / 2)], t[int(NR * 0.95 + 0.5)], t[NR], NR }' "$f"
}

echo "== console pages, $ENGINE, $LOTS lots of $ITEMS items over $WAREHOUSES warehouses"
timed "levels, first page" "/console/levels"
timed "levels, warehouse 1" "/console/levels?wid=1"
timed "levels, one item" "/console/levels?item=$item"
timed "levels, page 100" "/console/levels?page=100"
timed "item page" "/console/item/$item"
