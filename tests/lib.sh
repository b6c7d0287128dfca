# Shared helpers for tests/cli/*.sh.  Each check prints "PASS desc" or
# "FAIL desc" (with what differed); tests/run counts them.
KB=${KB:-$PWD/build/chk/kbench}
# Where the test binaries are (pnginfo, replay): beside kbench.
KB_BIN_DIR=$(dirname "${KB_REAL:-$KB}")
SHARED=${KBENCH_SHARED:-$(cd .. && pwd)/shared}
SAMPLES=${KBENCH_SAMPLES:-$PWD/samples}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export KBENCH_DB="$TMP/kbench.db"

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; shift; [ $# -gt 0 ] && printf '  %s\n' "$@"; }

# check DESC CMD...: passes when CMD exits 0.
check() {
	local d=$1; shift
	if "$@" >"$TMP/.out" 2>&1; then pass "$d"; else fail "$d" "command: $*" "$(head -c 2000 "$TMP/.out")"; fi
}

# check_status DESC EXPECTED CMD...: passes when CMD exits with EXPECTED.
check_status() {
	local d=$1 want=$2; shift 2
	"$@" >"$TMP/.out" 2>&1; local rc=$?
	if [ "$rc" = "$want" ]; then pass "$d"; else fail "$d" "exit $rc, expected $want: $*" "$(head -c 2000 "$TMP/.out")"; fi
}

# check_eq DESC ACTUAL EXPECTED
check_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got:      $2" "expected: $3"; fi
}

# check_near DESC ACTUAL EXPECTED [TOL]: numbers equal within TOL (default 1e-9 relative).
check_near() {
	if awk -v a="$2" -v b="$3" -v t="${4:-1e-9}" 'BEGIN { d = a - b; if (d < 0) d = -d;
		m = b < 0 ? -b : b; if (m < 1) m = 1; exit !(a != "" && d <= t * m) }'; then
		pass "$1"; else fail "$1" "got: $2" "expected: $3 (tol ${4:-1e-9})"; fi
}

# check_grep DESC PATTERN FILE
check_grep() {
	if grep -qE -- "$2" "$3"; then pass "$1"; else fail "$1" "no /$2/ in:" "$(head -c 2000 "$3")"; fi
}

# sql QUERY: run a query on $KBENCH_DB, print rows with '|' separators.
sql() { sqlite3 -batch -noheader "$KBENCH_DB" "$1"; }

# counts: one line with the row count of every table (to prove nothing
# changed); TABLES_Q lists the store's tables.
SQLITE_TABLES_Q="select name from sqlite_master where type='table' and name not like 'sqlite_%' order by name"
TABLES_Q=$SQLITE_TABLES_Q
counts() {
	local t out=""
	for t in $(sqlite3 "$KBENCH_DB" "$TABLES_Q"); do
		out="$out $t=$(sqlite3 "$KBENCH_DB" "select count(*) from \"$t\"")"
	done
	echo "$out"
}

# The PostgreSQL pass (tests/run sets KBENCH_PG_URI and KB=tests/tools/kb-pg):
# the tests' own queries go to the database kb-pg made for the store
# path, through psql, with sqlite3's output form.  on_sqlite is true in
# the SQLite pass: checks of SQLite itself (its files, PRAGMAs, .dump)
# run only there.
on_sqlite() { [ -z "${KBENCH_PG_URI-}" ]; }
if ! on_sqlite; then
	KB_PG_MAP=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/tools/kb-pg
	sqlite3() {
		local sep='|' db="" q="" uri head=-t
		while [ $# -gt 0 ]; do
			case "$1" in
			-separator) sep=$2; shift 2 ;;
			-header) head=""; shift ;;
			-batch | -noheader | -list) shift ;;
			-*) echo "sqlite3 (kb-pg): option $1 not mapped" >&2; return 2 ;;
			*) if [ -z "$db" ]; then db=$1; else q=$1; fi; shift ;;
			esac
		done
		if ! uri=$("$KB_PG_MAP" --uri "$db"); then
			echo "sqlite3 (kb-pg): $db is not a store kb-pg made" >&2; return 2
		fi
		case "$q" in
		.* | [Pp][Rr][Aa][Gg][Mm][Aa]*) echo "sqlite3 (kb-pg): SQLite only: $q" >&2; return 2 ;;
		esac
		if [ -n "$q" ]; then
			psql -X -q -A $head -P footer=off -F "$sep" -v ON_ERROR_STOP=1 "$uri" -c "$q"
		else
			psql -X -q -A $head -P footer=off -F "$sep" -v ON_ERROR_STOP=1 "$uri"
		fi
	}
	TABLES_Q="select table_name from information_schema.tables where table_schema = 'public'
		and table_type = 'BASE TABLE' and table_name <> 'kbench_schema' order by table_name"
fi

# The real-post shape scripts (tests/cli/shapes_*.sh):
# import_explained FILE: import FILE alone into $TMP/<name>.db (now
# $KBENCH_DB); its output, then --explain's, in $TMP/out; returns the
# import's exit status.
import_explained() {
	local rc
	export KBENCH_DB="$TMP/$(basename "$1" .txt).db"
	"$KB" import "$1" > "$TMP/out" 2>&1
	rc=$?
	KBENCH_DB="$TMP/explain.db" "$KB" import --explain "$1" >> "$TMP/out" 2>&1
	rm -f "$TMP/explain.db"
	return $rc
}
# import_alone FILE [ARGS...]: import $D/FILE alone into a fresh store
# ($KBENCH_DB); the exit status in $rc, the output in $TMP/out.
import_alone_n=0
import_alone() {
	local f=$1; shift
	import_alone_n=$((import_alone_n + 1))
	export KBENCH_DB="$TMP/s$import_alone_n.db"
	"$KB" import "$@" "$D/$f" > "$TMP/out" 2>&1; rc=$?
}
# sample_vals [BENCH]: "variant|config|metric=value" of every sample of
# BENCH (perf-stat), one line each, sorted.
sample_vals() {
	sql "select variant || '|' || config || '|' || metric || '=' || printf('%.12g', value) from samples_v
	     where benchmark = '${1:-perf-stat}' order by 1"
}
# mean_vals [BENCH]: "variant|config|metric=mean" of every published
# summary of BENCH (perf-stat), one line each, sorted: perf stat -r's
# means are stored as summaries only (issue 24).
mean_vals() {
	sql "select variant || '|' || config || '|' || metric || '=' || printf('%.12g', mean) from summary_v
	     where benchmark = '${1:-perf-stat}' order by 1"
}
