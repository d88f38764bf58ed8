#!/usr/bin/env bash
# Writes beside long reports read from a streaming replica (issue 41): what
# --db-replica is for. Makes a pair of PostgreSQL 15 clusters of its own in
# DIR (default /tmp/stockroom-bench-replica), a primary on PPORT and a
# standby on SPORT made from it by pg_basebackup, then runs bench/export.sh
# against the primary with the server reading reports from the standby:
# receive, issue and move alone and beside Inventory Activity over the
# ledger's last month back to back (BESIDE=activity), ROUNDS rounds.
#
# This machine has one pair of cores for everything; in production the
# replica is another machine. The standby here runs at the lowest CPU
# priority (nice 19), so that it takes only CPU the primary's side leaves
# idle, as another machine would take none of it. The load (LOTS lots,
# default 1,000,000) is replayed by the standby as it is written.
#
#   bash bench/replica.sh             # from the repository root, as root
#   ROUNDS=3 bash bench/replica.sh
#
# Both clusters are stopped and DIR removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
PGBIN=/usr/lib/postgresql/15/bin
DIR=${DIR:-/tmp/stockroom-bench-replica}
PPORT=${PPORT:-5491}
SPORT=${SPORT:-5492}
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
stop_all() {
  for c in standby primary; do
    [ -f "$DIR/$c/postmaster.pid" ] && as_pg "$PGBIN/pg_ctl" stop -w -m immediate -D "$DIR/$c" >/dev/null 2>&1 || true
  done
  rm -rf "$DIR"
}
stop_all
mkdir -p "$DIR"
[ "$(id -u)" = 0 ] && chown postgres "$DIR"
trap stop_all EXIT
as_pg "$PGBIN/initdb" -D "$DIR/primary" -U postgres --auth=trust >/dev/null
opts() { echo "-p $1 -c listen_addresses=127.0.0.1 -k $DIR"; }
as_pg "$PGBIN/pg_ctl" start -w -D "$DIR/primary" -l "$DIR/primary.log" -o "$(opts "$PPORT")" >/dev/null
as_pg "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$PPORT" -U postgres -D "$DIR/standby" -R -X stream
as_pg nice -n 19 "$PGBIN/pg_ctl" start -w -D "$DIR/standby" -l "$DIR/standby.log" -o "$(opts "$SPORT")" >/dev/null
echo "primary on $PPORT, standby on $SPORT (nice 19)"
PGBASE="postgres://postgres@127.0.0.1:$PPORT" \
  SERVE_FLAGS="--db-replica postgres://postgres@127.0.0.1:$SPORT/stockroom_bench_export?sslmode=disable" \
  BESIDE=activity EXPORTS=0 ROUNDS="${ROUNDS:-2}" bash bench/export.sh
echo "standby replay lag at the end: $(psql "postgres://postgres@127.0.0.1:$SPORT/postgres" -Atc \
  "SELECT now() - pg_last_xact_replay_timestamp()")"
