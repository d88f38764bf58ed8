# Shared by the benchmark scripts: a fresh PostgreSQL database, the server
# binary, a running server and a token. Source it; it defines functions only.

PGBASE=${PGBASE:-postgres://postgres@127.0.0.1:5432}
PORT=${PORT:-18181}
OUT=${OUT:-bench/out}
# WARMUP: how long warm_up runs each operation (0: not at all).
WARMUP=${WARMUP:-10s}

need_wrk() {
  command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
}

# fresh_db NAME [TEMPLATE]: drop and create a database (a copy of the
# database TEMPLATE when given), print its DSN.
fresh_db() {
  PGOPTIONS=--client-min-messages=warning psql "$PGBASE/postgres" -qc "DROP DATABASE IF EXISTS $1" \
    -c "CREATE DATABASE $1${2:+ TEMPLATE $2}" >/dev/null
  echo "$PGBASE/$1?sslmode=disable"
}

build() {
  mkdir -p "$OUT"
  go build -o "$OUT/stockroom" ./cmd/stockroom
}

# build_rev REV DEST: build the stockroom binary of git revision REV to the
# absolute path DEST, in a temporary worktree outside the repository that is
# removed afterwards.
build_rev() {
  local tmp built=0
  tmp=$(mktemp -d)
  git worktree add -q --detach "$tmp/src" "$1"
  (cd "$tmp/src" && go build -o "$2" ./cmd/stockroom) && built=1
  git worktree remove --force "$tmp/src"
  rm -rf "$tmp"
  [ "$built" = 1 ] || { echo "could not build $1" >&2; return 1; }
}

# start_server DSN: run the server in the background, wait for it, and set
# TOKEN to a token of a client with every permission: the administrator
# printed on first start, or (on a database used before) a new client.
# SERVE_FLAGS, when set, are more flags of serve (split at spaces).
start_server() {
  # shellcheck disable=SC2086 # SERVE_FLAGS is a list of flags
  "$OUT/stockroom" serve --db "$1" --addr "127.0.0.1:$PORT" --log-level WARN --rate-limit 60000000 ${SERVE_FLAGS:-} >"$OUT/server.out" 2>"$OUT/server.log" &
  SERVER_PID=$!
  trap 'kill $SERVER_PID 2>/dev/null || true' EXIT
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.1; done
  local creds="$OUT/server.out"
  if ! grep -q client_secret= "$creds"; then
    creds="$OUT/client.txt"
    "$OUT/stockroom" client add --db "$1" --name bench --permissions all --warehouses all >"$creds"
  fi
  TOKEN=$(token_of "$creds")
  [ -n "$TOKEN" ] || { echo "no token; server log:" >&2; cat "$OUT/server.log" >&2; exit 1; }
}

# token_of CREDS: an access token, from the server on PORT, for the client
# whose credentials the file CREDS holds (as `client add` and a first
# `serve` print them; the first client in it).
token_of() {
  local id secret
  id=$(grep -o 'client_id=[^ ]*' "$1" | head -1 | cut -d= -f2)
  secret=$(grep -o 'client_secret=[^ ]*' "$1" | head -1 | cut -d= -f2)
  curl -fs "http://127.0.0.1:$PORT/api/v1/Token" -d grant_type=client_credentials \
    -d client_id="$id" -d client_secret="$secret" | sed 's/.*"access_token":"\([^"]*\)".*/\1/'
}

# report_token NAME DSN: an access token of a new client NAME of the
# database DSN that may run every report (permission 11, every warehouse).
report_token() {
  local creds="$OUT/$1-client.txt"
  "$OUT/stockroom" client add --db "$2" --name "$1" --permissions 11 --warehouses all --reports all >"$creds"
  token_of "$creds"
}

# iso SECONDS: the moment SECONDS after the epoch as the API writes times.
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%S.%6NZ; }

# measure NAME WRK-ARGS...: measure_at 16 connections.
measure() { measure_at 16 "$@"; }

# measure_at CONNS NAME WRK-ARGS...: run wrk at CONNS connections (one
# thread per connection up to two, so that CONNS=1 gives the latency of a
# lone request) and print one summary line: requests per second, median and
# 99th percentile latency, errors, the share of the machine's CPU time
# stolen by its host meanwhile and the share idle (see cpu_ticks), and the
# machine's CPU time per request (every process's: the server's, the
# database's and wrk's). The whole wrk output stays in $OUT, with those
# shares as its last lines.
measure_at() {
  local conns=$1 name=$2; shift 2
  local log="$OUT/wrk-$(echo "$name" | tr -c 'A-Za-z0-9\n' '_').txt" before
  before=$(cpu_ticks)
  wrk -t"$(( conns < 2 ? conns : 2 ))" -c"$conns" -d"${DURATION:-10s}" --latency -H "Authorization: Bearer $TOKEN" "$@" >"$log" 2>&1
  note_stolen "$before" "$log"
  local rps p50 p99 errs
  rps=$(awk '/^Requests\/sec/ {print $2}' "$log")
  p50=$(awk '$1 == "50%" {print $2}' "$log")
  p99=$(awk '$1 == "99%" {print $2}' "$log")
  errs=$(awk '/Non-2xx/ {print $NF}' "$log")
  printf '%-28s %10s req/s   p50 %8s   p99 %8s   non-2xx %-6s %s\n' "$name" "$rps" "$p50" "$p99" "${errs:-0}" "$(machine "$log" req)"
}

# machine LOG UNIT: what the machine did during a run whose LOG note_stolen
# has ended: the shares stolen and idle, and the CPU time per UNIT (req or tx);
# with WAL set, also the PostgreSQL log written per UNIT (see wal_now).
machine() {
  echo "stolen $(stolen "$1")%   idle $(idle "$1")%   cpu $(per_request "$1" busy) µs/$2${WAL:+   db $(per_request "$1" db) µs   wal $(wal_per_request "$1") /$2}"
}

# cpu_ticks: the machine's CPU time so far, in ticks, the part of it
# stolen and the part idle. Stolen: the time its virtual CPUs were ready to
# run but the host ran something else (/proc/stat's first line; guest time
# is already counted in user time). On a shared host a run's rate falls with what is stolen from
# it: SQLite's move read 997 and 1,262 2xx/s with 36% and 19% of the time
# stolen, against 2,219 and 2,607 with under 1% stolen an hour before, the
# same build on the same data (2026-11-27). Read it beside a rate that stands
# out, and compare runs stolen alike.
#
# idle: the time no one ran (idle and waiting on I/O). Under load at 16
# connections the server's lanes wait on round trips, and the machine can
# stand idle while every request waits: PostgreSQL's issue and move load
# left 15-21% of it idle (2026-11-28), pgbench's 1%. A rate with idle time
# to spare is bound by waits, not by work; one without, by what each
# request costs.
cpu_ticks() {
  awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; printf "%d %d %d", t, $9, $5 + $6; exit }' /proc/stat
  if [ -n "${WAL:-}" ]; then echo " $(wal_now) $(db_ticks)"; else echo; fi
}
# note_stolen "TICKS STOLEN IDLE" LOG: append to a run's LOG the percent of
# the CPU time stolen, the percent idle, and the seconds of CPU time used
# (neither stolen nor idle), since cpu_ticks read TICKS STOLEN IDLE, as its
# last three lines; stolen LOG, idle LOG and busy LOG read them back.
note_stolen() {
  local t0 s0 i0 r0 f0 b0 d0 t1 s1 i1 r1 f1 b1 d1
  read -r t0 s0 i0 r0 f0 b0 d0 <<<"$1"
  read -r t1 s1 i1 r1 f1 b1 d1 <<<"$(cpu_ticks)"
  awk -v t="$((t1 - t0))" -v s="$((s1 - s0))" -v i="$((i1 - i0))" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "stolen: %.0f%%\nidle: %.0f%%\nbusy: %.2f s\n", (t > 0 ? 100 * s / t : 0), (t > 0 ? 100 * i / t : 0), (t - s - i) / hz }' >>"$2"
  [ -z "$r0" ] || echo "wal: $((r1 - r0)) $((f1 - f0)) $((b1 - b0))" >>"$2"
  [ -z "$d0" ] || awk -v d="$((d1 - d0))" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "db: %.2f s\n", d / hz }' >>"$2"
}
stolen() { awk '/^stolen: / { sub(/%$/, "", $2); print $2 }' "$1"; }
# wal_now: PostgreSQL's write-ahead log so far, the whole cluster's
# (pg_stat_wal): records, full-page images and bytes. What a request writes
# to the log is the part of the database's work that no other load on the
# host changes: beside a rate read on a busy host, it tells whether a change
# made the database do less (a row lock is a record, the first change of a
# page since a checkpoint an image of the page). With WAL=1, cpu_ticks also
# reads it and note_stolen records what a run wrote; it counts every
# database's writes, so run nothing else on the cluster meanwhile.
wal_now() { psql "$PGBASE/postgres" -AtF' ' -c "SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal"; }
# db_ticks: the CPU time, in ticks, of the local PostgreSQL cluster's
# processes so far: every live one's (backends, log writer, checkpointer)
# and what the postmaster's exited children used (its cutime and cstime),
# so that a backend that ends between two readings (pgbench closes its
# connections as a run ends) still counts once. What the database itself
# spends per request, beside the machine's whole CPU time: compared with
# tpcb-like's whole transaction (database and pgbench together), it tells
# whether any server could reach tpcb-like's rate with the statements it
# sends, since the server's own work only adds to it.
db_ticks() {
  local pm
  pm=$(pgrep -o -x postgres) || { echo 0; return; }
  {
    awk '{ sub(/^.*\) /, ""); print $14 + $15 }' "/proc/$pm/stat"
    # A process may end between pgrep and cat: cat goes on to the next.
    cat $(pgrep -x postgres | sed 's|.*|/proc/&/stat|') 2>/dev/null | awk '{ sub(/^.*\) /, ""); print $12 + $13 }'
  } | awk '{ t += $1 } END { printf "%d", t }'
}
# wal_per_request LOG: the log records, full-page images and kilobytes a
# request (or pgbench transaction) of LOG wrote.
wal_per_request() {
  awk -v n="$(request_count "$1")" '/^wal: / { r = $2; f = $3; b = $4 }
    END { if (n > 0) printf "%.1f rec %.2f fpi %.1f kB", r / n, f / n, b / n / 1024 }' "$1"
}
idle() { awk '/^idle: / { sub(/%$/, "", $2); print $2 }' "$1"; }
# request_count LOG: the requests of a wrk LOG, or the transactions of a
# pgbench LOG.
request_count() {
  awk '/requests in/ { n = $1 } /^number of transactions actually processed:/ { n = $NF } END { print n + 0 }' "$1"
}
# per_request LOG NAME: the seconds of CPU time on the "NAME: " line that
# note_stolen appended to LOG, per request (or pgbench transaction) of it,
# in microseconds: busy, the machine's (with the rate and the idle share it
# tells a change that costs less per request from one that only waits
# less: docs/performance.md, Where the time goes (PostgreSQL)), or db, the
# database's (db_ticks).
per_request() {
  awk -v n="$(request_count "$1")" -v name="$2:" '$1 == name { s = $2 }
    END { if (n > 0) printf "%.0f", s * 1e6 / n }' "$1"
}

# wrk_ms LOG PERCENTILE: a latency percentile ("50%") from a wrk --latency
# log, in milliseconds.
wrk_ms() {
  awk -v p="$2" '$1 == p {
    v = $2
    if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 }
    else if (v ~ /ms$/) { sub(/ms$/, "", v) }
    else if (v ~ /m$/) { sub(/m$/, "", v); v *= 60000 }
    else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }
    printf "%.3f\n", v
  }' "$1"
}

# Rates count answered 2xx only: a refusal (409, no stock) commits nothing,
# so it says nothing about the cost of a durable commit, and a load that
# runs an item's stock out would otherwise look faster.
ok_rate() { # LOG: 2xx answers per second in a wrk log
  awk '/requests in/ { n = $1; t = $4; if (sub(/m,$/, "", t)) t *= 60; else sub(/s,$/, "", t) }
    /Non-2xx/ { e = $NF }
    END { printf "%.1f\n", (n - e) / t }' "$1"
}
refused() { # LOG: the share of answers that were not 2xx, in percent
  awk '/requests in/ { n = $1 } /Non-2xx/ { e = $NF } END { printf "%.0f\n", 100 * e / n }' "$1"
}

# pg_data: the PostgreSQL benchmarks' data (inventory.sh, pgdirect.sh), from
# the environment or by default: ITEMS items (10,000), LOTS lots (1,000,000)
# over WAREHOUSES warehouses (5), for customers 1..OWNERS (3), OWNER_LIST.
pg_data() {
  ITEMS=${ITEMS:-10000}
  LOTS=${LOTS:-1000000}
  WAREHOUSES=${WAREHOUSES:-5}
  OWNERS=${OWNERS:-3}
  OWNER_LIST=$(seq -s, 1 "$OWNERS")
}

# add_customers DSN: customers 1..OWNERS, inserted as POST /Customer would
# store them (the load runs before any server), and the id sequence moved
# past them.
add_customers() {
  psql "${1%%\?*}" -q -v ON_ERROR_STOP=1 -v n="$OWNERS" >/dev/null <<'SQL'
INSERT INTO parties (id, kind, short_id, short_id_key, name, address1, address2, city, state, zip, country,
    phone, fax, email, contact, active, created, modified)
SELECT g, 'customer', 'BENCH-' || g, 'bench-' || g, 'Bench customer ' || g, '', '', '', '', '', '', '', '', '', '',
    TRUE, CAST(EXTRACT(EPOCH FROM now()) * 1000000 AS BIGINT), CAST(EXTRACT(EPOCH FROM now()) * 1000000 AS BIGINT)
FROM generate_series(1, :n) g;
SELECT setval(pg_get_serial_sequence('parties', 'id'), :n);
SQL
}

# settle DSN: vacuumed and checkpointed, so that what is measured is the
# steady state, not the load's write-back.
settle() { psql "${1%%\?*}" -qc "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null; }

# load DSN: a fresh load of the demo data by this tree's binary.
load() {
  "$OUT/stockroom" migrate --db "$1" >/dev/null
  add_customers "$1"
  echo "loading $ITEMS items and $LOTS lots over $WAREHOUSES warehouses and owners $OWNER_LIST"
  time "$OUT/stockroom" demo --items "$ITEMS" --lots "$LOTS" --warehouses "$WAREHOUSES" --owners "$OWNER_LIST" \
    --db "$1" 2>&1 | tail -1
  settle "$1"
}

# lite_load BIN FILE: a fresh SQLite database FILE, migrated by the stockroom
# binary BIN and loaded by it with ITEMS demo items and LOTS lots over
# WAREHOUSES warehouses.
lite_load() {
  rm -f "$2" "$2-wal" "$2-shm"
  "$1" migrate --db "sqlite:$2" >/dev/null
  echo "loading $ITEMS items and $LOTS lots over $WAREHOUSES warehouses"
  time "$1" demo --items "$ITEMS" --lots "$LOTS" --warehouses "$WAREHOUSES" --db "sqlite:$2" 2>&1 | tail -1
}

stock() { # OP NAME [OWNERS]: wrk on one stock operation of the server at $PORT
  measure "$2" -s bench/stock.lua "http://127.0.0.1:$PORT/" -- "$TOKEN" "$1" "$ITEMS" "$WAREHOUSES" "${3:-}"
}

# warm_up [OWNERS]: receive, issue and move on the server at $PORT for
# WARMUP each, not measured. A server just started knows no item: it
# resolves each ShortID once (a read of the database) and keeps it, and the
# database's cache holds none of the copy it serves. Measured cold, the
# first operation of the first round read 1,065 2xx/s where the same
# operation read 1,607 and 1,676 in the next two rounds (receive,
# bench/pgdirect.sh, 2026-11-27); warmed 5 s an operation, still 1,200
# against 1,521 and 1,585, when its 17,000 or so requests would leave about
# a sixth of the 10,000 items unseen. A steady rate is what the benches
# compare.
warm_up() {
  [ "$WARMUP" != 0 ] || return 0
  local op
  for op in receive issue move; do
    DURATION=$WARMUP stock "$op" "warm-up $op" "${1:-}" >/dev/null
  done
}

# pgbench_init: a fresh pgbench database at scale 10, PGB.
pgbench_init() {
  PGB=$(fresh_db stockroom_bench_pgbench)
  pgbench -q -i -s 10 "${PGB%%\?*}" >/dev/null 2>&1
}
# pgbench_run SECONDS FILE: pgbench tpcb-like at 16 clients on PGB; its tps
# line into FILE.
pgbench_run() {
  local before
  before=$(cpu_ticks)
  pgbench -c 16 -j 2 -T "$1" "${PGB%%\?*}" 2>/dev/null | grep -E '^(tps|number of transactions actually processed)' >"$2"
  note_stolen "$before" "$2"
}
# tps_of FILE: the tps of a pgbench run's tps line.
tps_of() { awk '/^tps/ {print $3; exit}' "$1"; }
# whole_seconds D MIN: a duration as wrk takes it ("10s"), in whole seconds
# for pgbench -T; MIN when it is less or not whole seconds.
whole_seconds() {
  local s=${1%s}
  [[ "$s" =~ ^[0-9]+$ ]] && [ "$s" -ge "$2" ] || s=$2
  echo "$s"
}
# pgbench_seconds: DURATION in whole seconds, at least 10: pgbench reads low
# in its first seconds (3 s: 2,244-2,536 tps where 20 s read 2,742), and a
# short reference would flatter the ratios to it.
pgbench_seconds() { whole_seconds "${DURATION:-10s}" 10; }
