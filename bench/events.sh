#!/usr/bin/env bash
# The change feed and webhooks at speed (issue 40), on PostgreSQL. Loads
# ITEMS demo items (default 10,000) and LOTS lots (default 1,000,000) over
# WAREHOUSES warehouses for OWNERS customers into a fresh database EVENTSDB
# (default stockroom_bench_events; REUSE=1: the last run's load; FROM=DB: a
# copy of database DB, loaded alike, e.g. bench/pair.sh's), starts the
# server with --webhook-allow-private, warms it up, and runs
# bench/eventbench (a Go program: it times what wrk cannot, an event's way
# from its write to a reader and to a webhook receiver on loopback):
#
#   1. steady, RATE writes/s (default 400, receive, issue and move alike,
#      CONNS connections, default 16) for DURATION (default 40s, the first
#      SETTLE, default 10s, not counted), a webhook subscription of every
#      event delivering to the receiver and READERS (default 2) readers
#      following GET /Events?wait=30: writes/s, events delivered/s, and each
#      event's delay to the readers and the receiver (the issue's goals:
#      under 100 ms at the median and 500 ms at p99 to a reader);
#   2. the same with writes as fast as the server answers them (RATE=0);
#   3. webhook catch-up: a subscription disabled by hand while BACKLOG
#      (default 20s) of writes run, then enabled: events delivered a
#      second (the issue's goal: 1,000 or more);
#   4. GET /Events?limit=1000 over the feed's pages, PAGES reads (default
#      200): the time to the answer's last byte (goal: under 20 ms).
#
#   bash bench/events.sh
#   REUSE=1 RATE=600 bash bench/events.sh
#   FROM=stockroom_bench_pair PARTS="1 4" bash bench/events.sh
#
# PARTS (default "1 2 3 4") chooses the parts to run.
#
# The database is dropped at the end unless KEEP=1. The load average is
# printed before and after each part: on the shared 2-core machine read the
# figures beside it. Receive, issue and move against the build before the
# feed: BASE=b6c61b5 bash bench/pair.sh (docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
pg_data
RATE=${RATE:-400}
CONNS=${CONNS:-16}
DURATION=${DURATION:-40s}
SETTLE=${SETTLE:-10s}
READERS=${READERS:-2}
BACKLOG=${BACKLOG:-20s}
PAGES=${PAGES:-200}
PARTS=${PARTS:-1 2 3 4}
EVENTSDB=${EVENTSDB:-stockroom_bench_events}
build
go build -o "$OUT/eventbench" ./bench/eventbench
DSN="$PGBASE/$EVENTSDB?sslmode=disable"
if [ -n "${FROM:-}" ]; then
  DSN=$(fresh_db "$EVENTSDB" "$FROM")
  "$OUT/stockroom" migrate --db "$DSN" >/dev/null
  settle "$DSN"
elif [ -z "${REUSE:-}" ]; then
  DSN=$(fresh_db "$EVENTSDB")
  load "$DSN"
fi
SERVE_FLAGS=--webhook-allow-private start_server "$DSN"
drop() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  [ -n "${KEEP:-}" ] || psql "$PGBASE/postgres" -qc "DROP DATABASE IF EXISTS $EVENTSDB" >/dev/null
}
trap drop EXIT
need_wrk
warm_up "$OWNER_LIST"

eb() { # MODE FLAGS...: one run of eventbench, between two load averages
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$OUT/eventbench" -url "http://127.0.0.1:$PORT" -token "$TOKEN" -items "$ITEMS" -warehouses "$WAREHOUSES" \
    -owners "$OWNER_LIST" -mode "$@"
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
}
part() { [[ " $PARTS " == *" $1 "* ]]; }
if part 1; then
  echo "== 1. steady: $RATE writes/s on $CONNS connections, a webhook, $READERS feed readers, $DURATION ($SETTLE not counted)"
  eb steady -rate "$RATE" -conns "$CONNS" -duration "$DURATION" -settle "$SETTLE" -readers "$READERS"
fi
if part 2; then
  echo "== 2. steady: writes as fast as answered on $CONNS connections, a webhook, $READERS feed readers, $DURATION"
  eb steady -rate 0 -conns "$CONNS" -duration "$DURATION" -settle "$SETTLE" -readers "$READERS"
fi
if part 3; then
  echo "== 3. webhook catch-up after $BACKLOG of writes on $CONNS connections"
  eb backlog -conns "$CONNS" -duration "$BACKLOG"
fi
if part 4; then
  echo "== 4. pages of 1,000 events"
  eb page -pages "$PAGES"
fi
