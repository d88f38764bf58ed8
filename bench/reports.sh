#!/usr/bin/env bash
# Reports on PostgreSQL at 1,000,000 lots (issue 41): the median time of
#
#   valuation   GET /Report/15?pageSize=1000             page 1 of Stock Valuation
#   valuation-p GET /Report/15?pageSize=1000&page=25     a page in the middle
#   activity    GET /Report/22?from=...&to=...            Inventory Activity over
#               the month that ends at the ledger's last entry, and over a
#               month holding a tenth of the ledger (ACTIVITY_SHARE, default 0.1)
#   storage-sh  GET /Report/103?from=...&to=...           Storage by Owner over
#               the latter month
#
# each run RUNS times (default 15) one after another through the server, as
# curl sees it (time_total, including HTTP and JSON). Goals: Stock Valuation
# page 1 under 100 ms, Inventory Activity for a month under 500 ms.
#
# The data is the PostgreSQL benchmarks' (bench/lib.sh pg_data: ITEMS items,
# LOTS lots over WAREHOUSES warehouses for OWNERS customers). The load takes
# minutes, so the database is a copy of one already loaded when it can be:
# TEMPLATE=NAME copies database NAME (a loaded bench database, for example
# stockroom_bench_pair of bench/pair.sh, with no one connected to it);
# REUSE=1 measures again on this script's last database; otherwise it loads
# afresh. Either way the copy is migrated by this tree's binary.
#
#   TEMPLATE=stockroom_bench_pair bash bench/reports.sh   # from the repository root
#   REUSE=1 RUNS=31 bash bench/reports.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
pg_data
RUNS=${RUNS:-15}
ACTIVITY_SHARE=${ACTIVITY_SHARE:-0.1}
OUT=bench/out/reports
build

NAME=stockroom_bench_reports
DSN="$PGBASE/$NAME?sslmode=disable"
if [ -n "${REUSE:-}" ]; then
  :
elif [ -n "${TEMPLATE:-}" ]; then
  echo "copying $TEMPLATE"
  fresh_db "$NAME" "$TEMPLATE" >/dev/null
else
  fresh_db "$NAME" >/dev/null
  load "$DSN"
fi
"$OUT/stockroom" migrate --db "$DSN" >/dev/null
settle "$DSN"
psql "${DSN%%\?*}" -Atc "SELECT 'lots ' || COUNT(*) FROM lots" -c "SELECT 'ledger lines ' || COUNT(*) FROM transaction_lines"

start_server "$DSN"
TOKEN=$(report_token reports-bench "$DSN")

# median NAME PATH: RUNS timed requests of PATH after one untimed; prints
# the median in milliseconds and the rows and totalCount of the answer.
median() {
  local url="http://127.0.0.1:$PORT$2" body="$OUT/$1.json"
  curl -fs -o "$body" -H "Authorization: Bearer $TOKEN" "$url"
  for _ in $(seq 1 "$RUNS"); do
    curl -fs -o /dev/null -w '%{time_total}\n' -H "Authorization: Bearer $TOKEN" "$url"
  done | sort -n | awk -v n="$RUNS" -v name="$1" -v body="$body" '
    { t[NR] = $1 * 1000 }
    END {
      getline line < body
      rows = gsub(/"wid":/, "", line)
      match(line, /"totalCount":[0-9]+/)
      printf "%-12s median %7.1f ms  (min %.1f, max %.1f; %d rows of %s)\n", name, t[int((n + 1) / 2)], t[1], t[n], rows, substr(line, RSTART + 13, RLENGTH - 13)
    }'
}

read -r first last < <(psql "${DSN%%\?*}" -AtF' ' -c "SELECT MIN(time), MAX(time) FROM transactions")
to=$((last / 1000000 + 1))
from=$((to - 30 * 86400))
# A month that holds ACTIVITY_SHARE of the ledger: its start cuts the
# ledger at that share from the end.
cut=$(psql "${DSN%%\?*}" -At -c "SELECT time FROM transactions ORDER BY time DESC OFFSET (SELECT CAST(COUNT(*) * $ACTIVITY_SHARE AS BIGINT) FROM transactions) LIMIT 1")

median valuation "/api/v1/Report/15?pageSize=1000"
median valuation-p "/api/v1/Report/15?pageSize=1000&page=25"
median activity "/api/v1/Report/22?pageSize=1000&from=$(iso "$from")&to=$(iso "$to")"
median activity-sh "/api/v1/Report/22?pageSize=1000&from=$(iso $((cut / 1000000)))&to=$(iso "$to")"
median storage-sh "/api/v1/Report/103?pageSize=1000&from=$(iso $((cut / 1000000)))&to=$(iso "$to")"
