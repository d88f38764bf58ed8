#!/usr/bin/env bash
# SQLite write benchmark (issues 10 and 15). Loads ITEMS demo items (default
# 10,000) and LOTS lots (default 100,000) over WAREHOUSES warehouses (default
# 5) into a fresh SQLite file, starts the server on a copy of it, and measures
# with wrk at 16 connections receive, issue and move: transactions per second
# and median latency; then, in each round, the median latency of a lone
# receive (one connection, one request at a time: what a client sees at
# low load). In the same run it measures the bare driver's ceiling for a
# small durable write transaction, ../shared/tools/sqlite-ceiling at 16 goroutines with
# -sync FULL and -sync NORMAL, and prints every rate beside its ratio to the
# FULL ceiling. The FULL ceiling is measured at the start of every round,
# and each rate's ratio is the mean of its rounds' ratios to their own
# round's ceiling: on a machine whose disk is shared, the time an fsync
# takes (which the ceiling measures) was seen to change twofold within an
# hour, so a ceiling measured minutes apart from a rate says little of it.
# It ends with the invariant audit of each copy.
#
# BASE=<git revision> also builds that revision (in a temporary git worktree
# outside the repository, removed afterwards) and serves a second copy of the
# same loaded database with it, measured operation by operation back to back
# with this tree, so two designs (say synchronous=NORMAL before, FULL after)
# are compared under the same load on the same machine at the same time.
#
# NORMAL=1 also builds this tree with synchronous=NORMAL (a link-time
# setting of internal/store, for this measurement only) and serves a third
# copy with it: what durable commits (FULL) cost, on the same code. (That
# build also writes the log's frames one by one: gathering them, walVFS,
# relies on FULL's sync at every commit.)
#
#   bash bench/sqlite.sh                          # from the repository root
#   BASE=HEAD~2 bash bench/sqlite.sh              # this tree against HEAD~2
#   NORMAL=1 bash bench/sqlite.sh                 # FULL against NORMAL, same code
#   LOTS=10000 DURATION=5s bash bench/sqlite.sh
#
# STATEMENTS=1 builds this tree (and the NORMAL copy) with the stmttime tag,
# which times every statement SQLite's writer runs (internal/store/
# sqliteconn/stmttime.go), and prints, for each operation, the writer's time per request
# statement by statement: where the one writer's time goes.
#
#   STATEMENTS=1 NORMAL=1 bash bench/sqlite.sh
#
# PAGES=1 reads this tree's write-ahead log while it serves each operation
# in the last round (bench/walpages) and prints the pages a commit writes,
# per request, table by table and index by index: under FULL what a commit
# costs grows with them.
#
#   PAGES=1 bash bench/sqlite.sh
#
# Receive, issue and move are measured in ROUNDS rounds (default 2), the
# runs in one order in odd rounds and in the reverse order in even ones:
# measured back to back, the second of two runs was seen to gain 5-10% on
# the first whichever binary it was, so a fixed order reads as a difference
# between builds. Each rate is the mean over rounds, shown with its spread
# (highest less lowest), against which a difference between runs is read.
#
# Each server is warmed up first, unmeasured (lib.sh's warm_up: WARMUP of
# each operation, default 10s; 0 skips it).
#
# DURATION (default 10s) applies to every wrk run and to each ceiling run;
# CEILING names the sqlite-ceiling directory. Output is left in
# bench/out/sqlite/. The figures are only as quiet as the machine: on a shared
# one, compare within a run, not across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ITEMS=${ITEMS:-10000}
LOTS=${LOTS:-100000}
WAREHOUSES=${WAREHOUSES:-5}
DURATION=${DURATION:-10s}
CEILING=${CEILING:-../shared/tools/sqlite-ceiling}
BASE=${BASE:-}
NORMAL=${NORMAL:-}
STATEMENTS=${STATEMENTS:-}
ROUNDS=${ROUNDS:-2}
PAGES=${PAGES:-}
TAGS=()
[ -z "$STATEMENTS" ] || TAGS=(-tags stmttime)
[ -f "$CEILING/main.go" ] || { echo "no sqlite-ceiling in $CEILING (set CEILING)" >&2; exit 1; }

mkdir -p "$OUT/sqlite"
DIR=$(cd "$OUT/sqlite" && pwd) # absolute: the base is built elsewhere
need_wrk

# Each run, "head" (this tree) and optionally "base", has a directory of its
# own under $DIR for its binary, database copy, server log and wrk logs;
# lib.sh's functions find them through OUT.
RUNS=(head)
HEAD_REV=$(git rev-parse --short HEAD)
[ -z "$(git status --porcelain)" ] || HEAD_REV="$HEAD_REV+changes"
OUT=$DIR/head build
[ -z "$STATEMENTS" ] || go build "${TAGS[@]}" -o "$DIR/head/stockroom" ./cmd/stockroom
[ -z "$PAGES" ] || go build -o "$DIR/walpages" ./bench/walpages
if [ -n "$BASE" ]; then
  BASE_REV=$(git rev-parse --short "$BASE^{commit}")
  RUNS=(base head)
  mkdir -p "$DIR/base"
  build_rev "$BASE_REV" "$DIR/base/stockroom"
fi
if [ -n "$NORMAL" ]; then
  RUNS+=(normal)
  mkdir -p "$DIR/normal"
  go build "${TAGS[@]}" -ldflags "-X github.com/stockroom/stockroom/internal/store/sqliteconn.sqliteSync=NORMAL" -o "$DIR/normal/stockroom" ./cmd/stockroom
fi
rev() {
  case $1 in
    base) echo "$BASE_REV" ;;
    normal) echo "$HEAD_REV-NORMAL" ;;
    *) echo "$HEAD_REV" ;;
  esac
}

# Load with the older binary when there are two, so that the newer one, which
# migrates on start, can serve the same data whatever the schema versions.
LOADED=$DIR/loaded.db
lite_load "$DIR/${RUNS[0]}/stockroom" "$LOADED"

declare -A TOKENS PIDS PORTS
port=$PORT
for r in "${RUNS[@]}"; do
  db=$DIR/$r/bench.db
  rm -f "$db" "$db-wal" "$db-shm"
  cp "$LOADED" "$db"
  [ ! -f "$LOADED-wal" ] || cp "$LOADED-wal" "$db-wal"
done
sync # the copies written back now, not during the first measurement
for r in "${RUNS[@]}"; do
  OUT=$DIR/$r PORT=$port start_server "sqlite:$DIR/$r/bench.db"
  TOKENS[$r]=$TOKEN PIDS[$r]=$SERVER_PID PORTS[$r]=$port
  port=$((port + 1))
done
trap 'kill ${PIDS[*]} 2>/dev/null || true' EXIT
for r in "${RUNS[@]}"; do # unmeasured: see lib.sh's warm_up
  OUT=$DIR/$r PORT=${PORTS[$r]} TOKEN=${TOKENS[$r]} warm_up
done

echo
echo "items: $ITEMS, lots: $LOTS, warehouses: $WAREHOUSES; $DURATION each (wrk), $ROUNDS rounds; runs: $(for r in "${RUNS[@]}"; do printf '%s=%s ' "$r" "$(rev "$r")"; done)"
# timed RUN: whether RUN's binary times its writer's statements.
timed() { [ -n "$STATEMENTS" ] && [ "$1" != base ]; }
# report_statements RUN: has RUN's server write its statement times since
# the last report (and start again), and waits until it has.
report_statements() {
  local log=$DIR/$1/server.log n
  n=$(grep -c -- '^-- end of writer statements --$' "$log" || true)
  kill -USR1 "${PIDS[$1]}"
  for _ in $(seq 1 50); do
    [ "$(grep -c -- '^-- end of writer statements --$' "$log" || true)" -gt "$n" ] && return
    sleep 0.1
  done
  echo "no statement report from $1" >&2
  exit 1
}
# write_counts RUN: RUN's write transactions and the requests they carried
# so far, from its metrics.
write_counts() {
  curl -fs "http://127.0.0.1:${PORTS[$1]}/metrics" | awk '
    $1 == "stockroom_write_batches_total" { b = $2 } $1 == "stockroom_write_batched_total" { m = $2 }
    $1 == "stockroom_write_alone_total" { a = $2 } $1 == "stockroom_write_again_total" { g = $2 }
    END { printf "%d %d\n", b + a, m + a - g }'
}
# paged RUN ROUND: whether the pages RUN's commits write are read in ROUND.
paged() { [ -n "$PAGES" ] && [ "$1" = head ] && [ "$2" = "$ROUNDS" ]; }
# ceiling_run MODE FILE: the driver's ceiling at 16 goroutines, into FILE.
(cd "$CEILING" && go build -o "$DIR/sqlite-ceiling" .)
# rate_of FILE: the tx/s of a ceiling run.
rate_of() { sed -n 's/.* = \([0-9.]*\) tx\/s.*/\1/p' "$1"; }
ceiling_run() {
  local before
  before=$(cpu_ticks)
  "$DIR/sqlite-ceiling" -db "$DIR/ceiling.db" -sync "$1" -conns 1 -g 16 -d "$DURATION" >"$2"
  note_stolen "$before" "$2"
  rm -f "$DIR/ceiling.db" "$DIR/ceiling.db-wal" "$DIR/ceiling.db-shm"
}
REVERSED=()
for ((i = ${#RUNS[@]} - 1; i >= 0; i--)); do REVERSED+=("${RUNS[$i]}"); done
for round in $(seq 1 "$ROUNDS"); do
  ceiling_run FULL "$DIR/ceiling-FULL-r$round.txt"
  printf '%-28s %10s tx/s %60s\n' "sqlite-ceiling FULL r$round" "$(rate_of "$DIR/ceiling-FULL-r$round.txt")" \
    "stolen $(stolen "$DIR/ceiling-FULL-r$round.txt")%"
  order=("${RUNS[@]}")
  [ $((round % 2)) = 1 ] || order=("${REVERSED[@]}")
  for op in receive issue move; do
    for r in "${order[@]}"; do
      ! timed "$r" || report_statements "$r"
      if paged "$r" "$round"; then
        read -r commits0 requests0 <<<"$(write_counts "$r")"
        "$DIR/walpages" -watch "$DURATION" "$DIR/$r/bench.db" >"$DIR/$r/pages-$op.tsv" &
        WALPAGES=$!
      fi
      OUT=$DIR/$r TOKEN=${TOKENS[$r]} measure "$op $r r$round" -s bench/stock.lua \
        "http://127.0.0.1:${PORTS[$r]}/" -- "${TOKENS[$r]}" "$op" "$ITEMS" "$WAREHOUSES"
      if paged "$r" "$round"; then
        wait "$WALPAGES"
        read -r commits1 requests1 <<<"$(write_counts "$r")"
        echo "# $((requests1 - requests0)) requests in $((commits1 - commits0)) commits" >>"$DIR/$r/pages-$op.tsv"
      fi
      if timed "$r"; then
        report_statements "$r"
        awk '/^-- writer statements/ { s = ""; next } /^-- end of writer statements --$/ { last = s; next } { s = s $0 "\n" }
          END { printf "%s", last }' "$DIR/$r/server.log" >"$DIR/$r/statements-$op-r$round.txt"
      fi
    done
  done
  # A lone receive in each round too, in the round's order: measured once,
  # after the others, the second build read 50-60 µs slower whichever it
  # was.
  for r in "${order[@]}"; do
    OUT=$DIR/$r TOKEN=${TOKENS[$r]} measure_at 1 "lone_receive $r r$round" -s bench/stock.lua \
      "http://127.0.0.1:${PORTS[$r]}/" -- "${TOKENS[$r]}" receive "$ITEMS" "$WAREHOUSES"
  done
done
for r in "${RUNS[@]}"; do
  kill "${PIDS[$r]}"
  wait "${PIDS[$r]}" 2>/dev/null || true
done

ceiling_run NORMAL "$DIR/ceiling-NORMAL.txt"
echo
echo "sqlite-ceiling, 16 goroutines, $DURATION (the driver's own ceiling for a small write transaction):"
for round in $(seq 1 "$ROUNDS"); do cat "$DIR/ceiling-FULL-r$round.txt"; done # not an earlier run's rounds
cat "$DIR/ceiling-NORMAL.txt"
# ceilings: the FULL ceiling of each round, in order.
ceilings() { for round in $(seq 1 "$ROUNDS"); do rate_of "$DIR/ceiling-FULL-r$round.txt"; done; }
FULL=$(ceilings | awk '{ s += $1 } END { printf "%.1f\n", s / NR }')
FULL_SPREAD=$(ceilings | awk 'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $1 > hi { hi = $1 } END { printf "%.0f\n", hi - lo }')

# logs RUN OP: RUN's wrk logs of OP, one per round.
logs() {
  for round in $(seq 1 "$ROUNDS"); do echo "$DIR/$1/wrk-${2}_$1_r$round.txt"; done
}
# stats RUN OP: over OP's rounds, the mean 2xx/s, its spread (highest less
# lowest), the mean share refused (percent), the mean median latency (ms),
# the mean of each round's ratio to that round's FULL ceiling and the
# mean share of the time stolen (lib.sh's cpu_ticks).
stats() {
  local l rates="" refs="" p50s="" stole="" ceils
  for l in $(logs "$1" "$2"); do
    rates="$rates $(ok_rate "$l")" refs="$refs $(refused "$l")" p50s="$p50s $(wrk_ms "$l" 50%)" stole="$stole $(stolen "$l")"
  done
  ceils=$(ceilings | tr '\n' ' ')
  awk -v r="$rates" -v x="$refs" -v p="$p50s" -v c="$ceils" -v st="$stole" 'BEGIN {
    n = split(r, a, " "); split(x, b, " "); split(p, d, " "); split(c, f, " "); split(st, g, " "); lo = a[1]; hi = a[1]
    for (i = 1; i <= n; i++) {
      s += a[i]; e += b[i]; q += d[i]; k += a[i] / f[i]; v += g[i]
      if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i]
    }
    printf "%.1f %.1f %.0f %.3f %.3f %.0f\n", s / n, hi - lo, e / n, q / n, k / n, v / n }'
}
# ceilings_stolen: the mean share stolen over the FULL ceiling's rounds.
ceilings_stolen() {
  for round in $(seq 1 "$ROUNDS"); do stolen "$DIR/ceiling-FULL-r$round.txt"; done | awk '{ s += $1 } END { printf "%.0f\n", s / NR }'
}
echo
printf '%-44s %10s %8s %8s %9s %8s %8s\n' "" "2xx/s" "spread" "x FULL" "refused" "p50 ms" "stolen"
awk -v n="sqlite-ceiling -sync FULL (per round)" -v r="$FULL" -v d="$FULL_SPREAD" -v st="$(ceilings_stolen)" \
  'BEGIN { printf "%-44s %10.0f %8.0f %8.2f %9s %8s %7s%%\n", n, r, d, 1, "", "", st }'
awk -v n="sqlite-ceiling -sync NORMAL" -v r="$(rate_of "$DIR/ceiling-NORMAL.txt")" -v f="$FULL" -v st="$(stolen "$DIR/ceiling-NORMAL.txt")" \
  'BEGIN { printf "%-44s %10.0f %8s %8.2f %9s %8s %7s%%\n", n, r, "", r / f, "", "", st }'
row() { # NAME RUN OP
  local rate spread ref p50 ratio st
  read -r rate spread ref p50 ratio st <<<"$(stats "$2" "$3")"
  awk -v n="$1" -v r="$rate" -v d="$spread" -v x="$ref" -v p="$p50" -v k="$ratio" -v st="$st" \
    'BEGIN { printf "%-44s %10.0f %8.0f %8.2f %8s%% %8.2f %7s%%\n", n, r, d, k, x, p, st }'
}
for op in receive issue move; do
  for r in "${RUNS[@]}"; do row "$op $r $(rev "$r")" "$r" "$op"; done
done
for r in "${RUNS[@]}"; do row "lone receive $r $(rev "$r")" "$r" lone_receive; done
compare() { # OTHER: head against another run, operation by operation
  echo
  local op b bd h hd bp hp
  for op in receive issue move lone_receive; do
    read -r b bd _ bp _ <<<"$(stats "$1" "$op")"
    read -r h hd _ hp _ <<<"$(stats head "$op")"
    awk -v op="${op/_/ }" -v o="$1" -v b="$b" -v bd="$bd" -v h="$h" -v hd="$hd" -v bp="$bp" -v hp="$hp" \
      'BEGIN { printf "%-14s head/%s: %5.2f x 2xx/s (spread over rounds: %s %.0f%%, head %.0f%%), p50 %.2f ms -> %.2f ms\n",
        op, o, h / b, o, 100 * bd / b, 100 * hd / h, bp, hp }'
  done
}
[ -z "$BASE" ] || compare base
[ -z "$NORMAL" ] || compare normal

if [ -n "$STATEMENTS" ]; then
  echo
  echo "SQLite's writer, per request, statement by statement, over every round (the ten costliest; all in statements-OP.txt):"
  for r in "${RUNS[@]}"; do
    timed "$r" || continue
    for op in receive issue move; do
      requests=$(cat $(logs "$r" "$op") | awk '/requests in/ { n += $1 } END { print n }')
      awk -F '\t' '{ runs[$4] += $1; ms[$4] += $2 }
        END { for (k in runs) printf "%d\t%.1f\t%.1f\t%s\n", runs[k], ms[k], 1000 * ms[k] / runs[k], k }' \
        "$DIR/$r"/statements-"$op"-r*.txt | sort -t "$(printf '\t')" -k2,2 -rn >"$DIR/$r/statements-$op.txt"
      echo "$op $r $(rev "$r"), $requests requests:"
      awk -F '\t' -v n="$requests" '{ t += $2 }
        NR <= 10 { printf "  %8.1f µs/request %8.1f µs/run %8d runs  %s\n", 1000 * $2 / n, $3, $1, $4 }
        END { printf "  %8.1f µs/request in all\n", 1000 * t / n }' "$DIR/$r/statements-$op.txt"
    done
  done
fi

if [ -n "$PAGES" ]; then
  echo
  echo "Pages a commit of head $(rev head) wrote to the log, per request (round $ROUNDS; all in pages-OP.tsv):"
  for op in receive issue move; do
    awk -F '\t' -v op="$op" '/^# [0-9]+ commits$/ { seen = $0; sub(/^# /, "", seen) }
      /^# [0-9]+ requests in/ { split($0, w, " "); per = w[2] / w[5] }
      !/^#/ { name[++n] = $1; pages[n] = $2 }
      END {
        printf "%s: %s read, %.1f requests per commit, %.1f pages per commit, %.2f per request\n", op, seen, per, pages[1], pages[1] / per
        for (i = 2; i <= n && i <= 12; i++) printf "  %6.2f per request  %s\n", pages[i] / per, name[i]
      }' "$DIR/head/pages-$op.tsv"
  done
fi

echo
for r in "${RUNS[@]}"; do
  printf '%s: ' "$r"
  "$DIR/$r/stockroom" audit --db "sqlite:$DIR/$r/bench.db"
done
