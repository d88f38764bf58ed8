#!/usr/bin/env bash
# Import benchmark (issue 42, contract §15): `stockroom import stock` of
# ROWS receipts (default 50,000) of ITEMS items (default 10,000, imported
# first with `stockroom import items`) into a fresh database, ROUNDS times
# (default 3), each into a database of its own. Prints each run's summary
# line (rows/s from the command's own clock, which includes reading and
# checking every row) and the wall time of the whole command, then the audit.
#
#   bash bench/import.sh                 SQLite (a file in OUT)
#   DB=postgres bash bench/import.sh     PostgreSQL (PGBASE as in bench/lib.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
ROWS=${ROWS:-50000}
ITEMS=${ITEMS:-10000}
ROUNDS=${ROUNDS:-3}
DB=${DB:-sqlite}

build
awk -v n="$ITEMS" 'BEGIN { print "shortID,description,unit"; for (i = 0; i < n; i++) printf "IMP-%06d,Part %d,EA\n", i, i }' >"$OUT/items.csv"
awk -v n="$ROWS" -v items="$ITEMS" 'BEGIN {
  print "itemID,wid,units,reasonCode,serial,price,spot,reference"
  for (i = 0; i < n; i++) printf "IMP-%06d,%d,%d.5,1,S%07d,0.25,A-%02d,R%07d\n", i % items, 1 + i % 3, 1 + i % 40, i, i % 50, i
}' >"$OUT/stock.csv"

for round in $(seq 1 "$ROUNDS"); do
  if [ "$DB" = postgres ]; then
    dsn=$(fresh_db stockroom_bench_import)
  else
    rm -f "$OUT/import.db" "$OUT/import.db-wal" "$OUT/import.db-shm"
    dsn="sqlite:$OUT/import.db"
  fi
  sr() { "$OUT/stockroom" "$@" --db "$dsn"; }
  sr migrate >/dev/null
  for w in 1 2 3; do sr warehouse add --id "$w" --name "W$w" >/dev/null; done
  sr reasoncode add --code 1 --description "Opening balance" --direction receive >/dev/null
  sr import items "$OUT/items.csv"
  t0=$(date +%s.%N)
  sr import stock "$OUT/stock.csv"
  t1=$(date +%s.%N)
  awk -v r="$round" -v n="$ROWS" -v s="$(echo "$t1 - $t0" | bc)" 'BEGIN { printf "round %d: %d rows in %.2f s wall (%.0f rows/s, start-up included)\n", r, n, s, n / s }'
  sr audit
done
