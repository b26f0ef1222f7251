#!/bin/sh
# npm run bench:pg [-- stop]
#   The bench's own PostgreSQL server, with pg_stat_statements loaded, so the marketplace and claim
#   floors replay the statements the app really sends (decision 210). It never touches another
#   server: its own data directory under /tmp, its own port (5433 unless BENCH_PG_PORT), trust auth
#   on 127.0.0.1 only. Run as root, the server runs as the `postgres` OS user. Idempotent: a server
#   already running there is left as it is and its URL printed again.
set -eu

PORT="${BENCH_PG_PORT:-5433}"
DIR="${BENCH_PG_DIR:-/tmp/elo-bench-pg-$PORT}"
BIN="${BENCH_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
URL="postgres://postgres@127.0.0.1:$PORT/postgres"

if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
  echo "No PostgreSQL server binaries in /usr/lib/postgresql/*/bin: install the server package (postgresql-15 or newer), or set BENCH_PG_BIN" >&2
  exit 1
fi

# Commands run as the postgres OS user when this script runs as root (initdb refuses root).
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ "${1:-}" = "stop" ]; then
  if as_pg "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then as_pg "$BIN/pg_ctl" -D "$DIR" -m fast -w stop; else echo "Not running: $DIR"; fi
  exit 0
fi

if [ ! -f "$DIR/PG_VERSION" ]; then
  mkdir -p "$DIR"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
  chmod 700 "$DIR"
  as_pg "$BIN/initdb" -D "$DIR" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  echo "Initialised $DIR ($("$BIN/postgres" --version))"
fi

if as_pg "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
  echo "Already running: $DIR on port $PORT"
else
  # Only 127.0.0.1, a socket directory of its own (not /var/run/postgresql, which the system server uses).
  as_pg "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w start -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all" >/dev/null
  echo "Started $DIR on port $PORT (log: $DIR/server.log)"
fi

echo "Use it with:"
echo "  BENCH_POSTGRES_URL=$URL npm run bench ..."
echo "Stop it with: npm run bench:pg -- stop"
