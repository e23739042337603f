# Sourced by scripts/test: a throwaway PostgreSQL on 127.0.0.1 for the storage and server tests.
#   meeple_pg_start   installs Debian's postgresql if it is missing and we are root (apt-get),
#                     starts a fresh cluster in a temporary folder on a free port, and exports
#                     MEEPLE_TEST_POSTGRES (an SQLAlchemy URL of its postgres database)
#   meeple_pg_stop    stops that server (by its data folder) and removes the folder
# Without PostgreSQL (not installable here) the PostgreSQL tests are skipped with a reason;
# under CI (CI=true) that is an error instead.

meeple_pg_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}

meeple_pg_start() {
  MEEPLE_PG_DIR=""
  local bin
  bin=$(meeple_pg_bin)
  if [ -z "$bin" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing postgresql (apt-get)"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq postgresql >/dev/null || true
    bin=$(meeple_pg_bin)
  fi
  if [ -z "$bin" ]; then
    echo "== PostgreSQL is not available: its tests will be skipped" >&2
    return 0
  fi
  MEEPLE_PG_DIR=$(mktemp -d /tmp/meeple-pg.XXXXXX)
  local port run_as=()
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$MEEPLE_PG_DIR"
    run_as=(runuser -u postgres --)
  fi
  # from / : the postgres user may not enter the checkout's folder
  (cd / && "${run_as[@]}" "$bin/initdb" -D "$MEEPLE_PG_DIR/data" -U postgres -A trust >/dev/null)
  (cd / && "${run_as[@]}" "$bin/pg_ctl" -D "$MEEPLE_PG_DIR/data" -l "$MEEPLE_PG_DIR/log" -w -t 60 \
    -o "-h 127.0.0.1 -p $port -k $MEEPLE_PG_DIR -c fsync=off -c max_connections=300" start >/dev/null)
  export MEEPLE_TEST_POSTGRES="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
  MEEPLE_PG_STOP=("${run_as[@]}" "$bin/pg_ctl" -D "$MEEPLE_PG_DIR/data" -m fast -w stop)
  echo "== PostgreSQL started on 127.0.0.1:$port"
}

meeple_pg_stop() {
  if [ -n "${MEEPLE_PG_DIR:-}" ] && [ -d "$MEEPLE_PG_DIR/data" ]; then
    (cd / && "${MEEPLE_PG_STOP[@]}" >/dev/null 2>&1) || true
    rm -rf "$MEEPLE_PG_DIR"
    echo "== PostgreSQL stopped"
  fi
  MEEPLE_PG_DIR=""
}
