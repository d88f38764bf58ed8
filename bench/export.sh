#!/usr/bin/env bash
# CSV exports at scale (issue 41). Loads ITEMS demo items (default 10,000)
# and LOTS lots (default 1,000,000) over WAREHOUSES warehouses for OWNERS
# customers into a fresh PostgreSQL database (REUSE=1: the last run's load),
# starts the server and measures:
#
#   1. the export of every lot (GET /Inventory, Accept: text/csv), EXPORTS
#      times (default 3): rows, MiB, seconds and rows/s of each, and the
#      server's peak resident memory over them (VmHWM);
#   2. receive, issue and move at 16 connections without and with exports
#      running back to back beside them (one at a time, as a billing clerk
#      would), ROUNDS rounds (default 2) of DURATION (default 10s) each,
#      alternating which goes first, and each operation's mean ratio
#      with ÷ without (the issue's goal: 0.8 or more).
#
#   bash bench/export.sh
#   REUSE=1 ROUNDS=3 bash bench/export.sh
#   TEMPLATE=stockroom_bench_pair ROUNDS=0 bash bench/export.sh   # a copy of a loaded database
#
# BESIDE=activity runs, in place of the exports beside the writes, Inventory
# Activity (GET /Report/22, JSON, page 1 of 1,000 rows) over the ledger's
# last month back to back: a long report rather than an export.
#
# With each export it prints the server's CPU seconds for it (utime + stime),
# and BOUND=1 first times PostgreSQL alone writing the same rows as CSV
# (COPY of the export's statement, through psql), the bound of any server.
#
# The goal of the first is 100,000 rows/s or more. Both sides of a ratio
# run on the same machine within a minute of each other; these machines
# are noisy, so read the ratio against the spread between rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
need_wrk
pg_data
EXPORTS=${EXPORTS:-3}
ROUNDS=${ROUNDS:-2}
build
DSN="$PGBASE/stockroom_bench_export?sslmode=disable"
if [ -n "${TEMPLATE:-}" ]; then
  DSN=$(fresh_db stockroom_bench_export "$TEMPLATE")
  "$OUT/stockroom" migrate --db "$DSN" >/dev/null
elif [ -z "${REUSE:-}" ]; then
  DSN=$(fresh_db stockroom_bench_export)
  load "$DSN"
fi
if [ -n "${BOUND:-}" ]; then
  # The export's statement: lots in stock, newest received first, with the
  # item's, the warehouse's and the owner's names.
  q="SELECT l.rec_no, l.part_no, l.wid, l.spot, l.units, l.received, l.shipped, l.serial, l.serial2, l.rfid_tag,
    l.remark, l.owner, l.hold, l.job_id, l.active, l.reference, l.net_weight, l.gross_weight, l.price, l.expires,
    l.supplier, l.line, l.modified, i.short_id, i.description, w.name,
    COALESCE((SELECT p.name FROM parties p WHERE p.id = l.owner), '')
    FROM lots l JOIN items i ON i.part_no = l.part_no JOIN warehouses w ON w.wid = l.wid
    WHERE l.shipped IS NULL ORDER BY l.received DESC, l.rec_no DESC"
  start=$(date +%s.%N)
  bytes=$(psql "${DSN%%\?*}" -Atqc "COPY ($q) TO STDOUT WITH (FORMAT csv)" | wc -c)
  secs=$(echo "$(date +%s.%N) - $start" | bc -l)
  printf 'bound: PostgreSQL alone, COPY of the same rows: %.1f MiB in %.2f s (load %s)\n' \
    "$(echo "$bytes / 1048576" | bc -l)" "$secs" "$(cut -d' ' -f1 /proc/loadavg)"
fi
start_server "$DSN"
URL="http://127.0.0.1:$PORT/api/v1/Inventory"

# export_once: one export of every lot; prints rows, bytes and seconds.
export_once() {
  local start end rows bytes
  start=$(date +%s.%N)
  read -r rows bytes < <(curl -fsS -H "Authorization: Bearer $TOKEN" -H 'Accept: text/csv' "$URL" |
    awk '{ n++; b += length($0) + 1 } END { print n - 1, b }')
  end=$(date +%s.%N)
  echo "$rows $bytes $(echo "$end - $start" | bc -l)"
}

echo "== export of every lot"
cpu() { awk '{ print ($14 + $15) / 100 }' "/proc/$SERVER_PID/stat"; }
for i in $(seq 1 "$EXPORTS"); do
  before=$(cpu)
  read -r rows bytes secs < <(export_once)
  printf 'export %d: %d rows, %.1f MiB in %.2f s: %.0f rows/s, server CPU %.2f s (load %s)\n' "$i" "$rows" \
    "$(echo "$bytes / 1048576" | bc -l)" "$secs" "$(echo "$rows / $secs" | bc -l)" "$(echo "$(cpu) - $before" | bc -l)" \
    "$(cut -d' ' -f1 /proc/loadavg)"
done
echo "server peak resident memory: $(awk '/VmHWM/ {print $2, $3}' "/proc/$SERVER_PID/status")"

if (( ROUNDS == 0 )); then
  exit 0
fi
echo "== receive, issue and move without and with exports beside them"
warm_up "$OWNER_LIST"
BESIDE_URL=$URL BESIDE_ACCEPT=text/csv BESIDE_TOKEN=$TOKEN
if [ "${BESIDE:-}" = activity ]; then
  last=$(psql "${DSN%%\?*}" -At -c "SELECT MAX(time) FROM transactions")
  to=$((last / 1000000 + 1))
  BESIDE_URL="http://127.0.0.1:$PORT/api/v1/Report/22?pageSize=1000&from=$(iso $((to - 30 * 86400)))&to=$(iso "$to")"
  BESIDE_ACCEPT=application/json
  BESIDE_TOKEN=$(report_token beside-bench "$DSN")
  echo "(beside the writes: Inventory Activity over the ledger's last month, not exports)"
fi
exporting() { # CMD...: run CMD while exports (or BESIDE) run back to back
  # The loop ends its curl, by its process id, when it is told to end.
  ( trap 'kill "$c" 2>/dev/null; exit 0' TERM
    while :; do
      curl -fsS -H "Authorization: Bearer $BESIDE_TOKEN" -H "Accept: $BESIDE_ACCEPT" "$BESIDE_URL" -o /dev/null &
      c=$!
      wait "$c" || true
    done ) &
  local loop=$!
  "$@"
  kill "$loop"; wait "$loop" 2>/dev/null || true
}
declare -A ratios
for round in $(seq 1 "$ROUNDS"); do
  for op in receive issue move; do
    if (( round % 2 )); then
      stock "$op" "$op alone r$round" "$OWNER_LIST" >/dev/null
      exporting stock "$op" "$op exporting r$round" "$OWNER_LIST" >/dev/null
    else
      exporting stock "$op" "$op exporting r$round" "$OWNER_LIST" >/dev/null
      stock "$op" "$op alone r$round" "$OWNER_LIST" >/dev/null
    fi
    alone=$(ok_rate "$OUT/wrk-${op}_alone_r$round.txt")
    with=$(ok_rate "$OUT/wrk-${op}_exporting_r$round.txt")
    r=$(echo "$with / $alone" | bc -l)
    ratios[$op]="${ratios[$op]:-} $r"
    printf 'round %d %-8s alone %8.0f 2xx/s, exporting %8.0f 2xx/s: %.2f\n' "$round" "$op" "$alone" "$with" "$r"
  done
done
for op in receive issue move; do
  [ -n "${ratios[$op]:-}" ] || continue
  echo "${ratios[$op]}" | awk -v op="$op" '{ s = 0; for (i = 1; i <= NF; i++) s += $i; printf "%-8s exporting / alone: mean %.2f over %d rounds\n", op, s / NF, NF }'
done
"$OUT/stockroom" audit --db "$DSN" >/dev/null && echo "audit: clean"
