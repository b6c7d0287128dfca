# scripts/bench-store.sh - sourced by scripts/bench and scripts/bench-lab:
# the stores a benchmark imports into.  With KBENCH_DB set to a
# PostgreSQL URI they are databases of their own on that server (the
# database named is left alone; the role needs CREATEDB), else SQLite
# files.  Needs die().
PG=""
case "${KBENCH_DB:-}" in postgresql://* | postgres://*) PG=$KBENCH_DB ;; esac
# pguri NAME: $PG with the database NAME
pguri() { printf '%s' "$PG" | sed -E "s#^(postgres(ql)?://[^/?]*)/?[^?]*#\\1/$1#"; }
pgq() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
# freshdb NAME: an empty database NAME on the server; prints its URI
freshdb() {
	PGOPTIONS="-c client_min_messages=warning" pgq "$PG" -c "DROP DATABASE IF EXISTS $1" \
		-c "CREATE DATABASE $1" >/dev/null ||
		die "cannot create database $1 on the server"
	pguri "$1"
}
# count DB SQL: one number from the store
count() {
	if [ -n "$PG" ]; then pgq "$1" -c "$2"; else sqlite3 "$1" "$2"; fi
}
