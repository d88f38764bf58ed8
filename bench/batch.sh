#!/usr/bin/env bash
# Batch benchmark (issue 42): on PostgreSQL, 1,000 receipts as ONE atomic
# POST /Inventory/Batch against 1,000 single POST /Inventory/Receive sent
# one after another by one client (one curl process, one kept-alive
# connection), on a fresh database. The batch is sent BATCHES times (default
# 5), one after another, each 1,000 new receipts: its first is the first of
# its statements' shapes on its connection (pgx prepares them), so one alone
# says more of the machine's mood than of the batch. Prints the singles'
# time, each batch's, and the ratio to the median batch (and to the first).
#
#   bench/batch.sh            (PGBASE, PORT, OUT as in bench/lib.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
N=${N:-1000}
BATCHES=${BATCHES:-5}

build
start_server "$(fresh_db stockroom_bench_batch)"
api="http://127.0.0.1:$PORT/api/v1"
curl -fs "$api/Item" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d '{"shortID":"BENCH-B"}' >/dev/null

receipt='"itemID":"BENCH-B","units":1,"wid":1,"reasonCode":1'
# The singles: one curl config of N requests, "next" between them.
cfg="$OUT/singles.curl"
: >"$cfg"
for i in $(seq 1 "$N"); do
  [ "$i" = 1 ] || echo next >>"$cfg"
  printf 'url = "%s/Inventory/Receive"\nheader = "Authorization: Bearer %s"\nheader = "Content-Type: application/json"\ndata = "{%s,\\"reference\\":\\"S%d\\"}"\nsilent\noutput = /dev/null\n' \
    "$api" "$TOKEN" "${receipt//\"/\\\"}" "$i" >>"$cfg"
done
ops=$(for i in $(seq 1 "$N"); do printf '%s{"op":"receive",%s,"reference":"B%d"}' "$([ "$i" = 1 ] || echo ,)" "$receipt" "$i"; done)
echo "{\"operations\":[$ops]}" >"$OUT/batch.json"

# Warm the server and the database once each way.
curl -fs "$api/Inventory/Receive" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "{$receipt}" >/dev/null

t0=$(date +%s.%N)
curl -K "$cfg"
t1=$(date +%s.%N)
singles=$(echo "$t1 - $t0" | bc)
: >"$OUT/batch.times"
for b in $(seq 1 "$BATCHES"); do
  status=$(curl -s -o "$OUT/batch.out" -w '%{http_code} %{time_total}' "$api/Inventory/Batch" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' --data-binary @"$OUT/batch.json")
  [ "${status%% *}" = 200 ] || { echo "batch answered $status: $(head -c 300 "$OUT/batch.out")" >&2; exit 1; }
  echo "${status#* }" >>"$OUT/batch.times"
done
ledger=$(curl -fs "$api/Inventory/Transactions?pageSize=1" -H "Authorization: Bearer $TOKEN" | sed 's/.*"totalCount":\([0-9]*\).*/\1/')
awk -v n="$N" -v s="$singles" -v l="$ledger" '{ t[NR] = $1; all = all sprintf(" %.3f", $1) } END {
  first = t[1]; m = NR; for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
  med = t[int((m + 1) / 2)]
  printf "%d single receipts: %.3f s (%.0f/s)\n", n, s, n / s
  printf "%d atomic batches of %d receipts, s each:%s; median %.3f s (%.0f/s)\n", m, n, all, med, n / med
  printf "batch is %.1f x faster (median batch; the first alone: %.1f x); ledger holds %d entries\n", s / med, s / first, l
}' "$OUT/batch.times"
