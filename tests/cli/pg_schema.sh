#!/bin/bash
# The PostgreSQL schema (db/schema_pg.c) against SQLite's (db/schema.c):
# a store made by `kbench import samples/` is copied row by row into a
# fresh PostgreSQL database holding db_pg_schema; the same hand-written
# rows (edge cases: NULLs, shared variant names, doubles that need 17
# digits, placement arrays with nulls, bytewise text order, defaults,
# cascading deletes) go into both; then every table and view must have the
# same columns in the same order and the same rows, values and types.
#
# Runs in the PostgreSQL pass of tests/run (KBENCH_PG_URI is the
# cluster's base URI); the test makes and drops a database of its own.
# In the SQLite pass there is nothing to compare with.
. tests/lib.sh

on_sqlite && exit 0
KBENCH_PG_TEST_URI=$KBENCH_PG_URI
unset -f sqlite3   # this test reads its SQLite store itself
TABLES_Q=$SQLITE_TABLES_Q
KB=${KB_REAL:-$KB}

# pg_uri NAME: the base URI with database NAME (before any ?parameters).
pg_uri() {
	local b=${KBENCH_PG_TEST_URI%%\?*}
	local q=${KBENCH_PG_TEST_URI#"$b"}
	case $b in */) ;; *) b=$b/ ;; esac
	printf '%s%s%s' "$b" "$1" "$q"
}
ADMIN=$(pg_uri postgres)
DBNAME=kbench_pg_schema_$$
PGDB=$(pg_uri "$DBNAME")
trap 'psql -X -q -d "$ADMIN" -c "DROP DATABASE IF EXISTS $DBNAME WITH (FORCE)" >/dev/null 2>&1; rm -rf "$TMP"' EXIT

# pgq SQL: one query on the test database, rows as a|b lines.
pgq() { psql -X -A -t -q -v ON_ERROR_STOP=1 -d "$PGDB" -c "$1"; }
# pg_file FILE: a script on the test database, in one transaction.
pg_file() { psql -X -q -v ON_ERROR_STOP=1 -1 -d "$PGDB" -f "$1"; }
# sqlite_fk: sqlite3 on the store with foreign keys on, as kbench has
# them; the SQL on stdin.
sqlite_fk() { { echo "PRAGMA foreign_keys = ON;"; cat; } | sqlite3 -bail "$KBENCH_DB"; }
# both SQL: the same statements on the SQLite store and on PostgreSQL.
both() { echo "$1" | sqlite_fk && pgq "$1"; }

check "the cluster answers at KBENCH_PG_TEST_URI" psql -X -A -t -d "$ADMIN" -c "SELECT 1"
# A database whose own collation is not bytewise (ICU English, where
# 'a' < 'B'), when the server has ICU: then the order checks below show
# that the columns' COLLATE "C" decides, not the database default.
if psql -X -q -d "$ADMIN" -c "CREATE DATABASE $DBNAME TEMPLATE template0 ENCODING 'UTF8'
		LOCALE 'C' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'" >"$TMP/.out" 2>&1; then
	echo "pg_schema: the test database's default collation is ICU en-US"
else
	check "a test database is created" psql -X -q -d "$ADMIN" -c "CREATE DATABASE $DBNAME TEMPLATE template0 ENCODING 'UTF8'"
fi

# The schema text, printed by a four-line program built from db/schema_pg.c.
cat >"$TMP/print_schema.c" <<'EOF'
#include <stdio.h>
#include "schema_pg.h"
int main(void)
{
	int i;
	if (fputs(db_pg_schema, stdout) < 0)
		return 1;
	for (i = 0; i < db_pg_nmigrations; i++)
		if (fputs(db_pg_migrations[i], stdout) < 0)
			return 1;
	return 0;
}
EOF
check "db/schema_pg.c compiles" ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -Idb \
	-o "$TMP/print_schema" "$TMP/print_schema.c" db/schema_pg.c
"$TMP/print_schema" >"$TMP/schema.sql"
check "db_pg_schema and db_pg_migrations run on an empty database, in one transaction" pg_file "$TMP/schema.sql"
check_eq "... and stores no schema version itself" "$(pgq "SELECT count(*) FROM kbench_schema")" "0"
check "kbench_schema takes the version" pgq "INSERT INTO kbench_schema VALUES (5)"
check_status "... one row only" 1 pgq "INSERT INTO kbench_schema VALUES (6)"
check_eq "... which reads 5" "$(pgq "SELECT version FROM kbench_schema")" "5"

check "kbench import samples/ makes the SQLite store" "$KB" import "$SAMPLES"
check_eq "the SQLite store is at version 10 (a migration 11 must come to db_pg_migrations too)" \
	"$(sql "PRAGMA user_version")" "10"

# Structure: types, collations, indexes, keys.
check_eq "every text column of every table and view is COLLATE \"C\"" "$(pgq "
	SELECT c.relname || '.' || a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
	LEFT JOIN pg_collation co ON co.oid = a.attcollation
	WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'v') AND a.attnum > 0
	  AND NOT a.attisdropped AND a.atttypid = 'text'::regtype AND co.collname IS DISTINCT FROM 'C'
	ORDER BY 1")" ""
check_eq "integers are bigint and reals double precision (no int4, float4, numeric)" "$(pgq "
	SELECT c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
	FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
	WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'v') AND a.attnum > 0
	  AND c.relname <> 'kbench_schema' AND NOT a.attisdropped
	  AND a.atttypid NOT IN ('bigint'::regtype, 'double precision'::regtype, 'text'::regtype)
	ORDER BY 1")" ""
check_eq "the same indexes, on the same columns" "$(pgq "
	SELECT i.relname || ' ' || t.relname || '(' || string_agg(a.attname, ',' ORDER BY k.ord) || ')'
	FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
	CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY k(attnum, ord)
	JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
	WHERE t.relnamespace = 'public'::regnamespace AND NOT x.indisprimary AND NOT x.indisunique
	GROUP BY i.relname, t.relname" | LC_ALL=C sort)" "$(sql "
	SELECT m.name || ' ' || m.tbl_name || '(' ||
	       (SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_index_info(m.name) ORDER BY seqno)) || ')'
	FROM sqlite_master m WHERE m.type = 'index' AND m.name NOT LIKE 'sqlite_autoindex%'" | LC_ALL=C sort)"
check_eq "the same unique constraints" "$(pgq "
	SELECT t.relname || '(' || string_agg(a.attname, ',' ORDER BY k.ord) || ')'
	FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid
	CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY k(attnum, ord)
	JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
	WHERE t.relnamespace = 'public'::regnamespace AND NOT x.indisprimary AND x.indisunique
	  AND t.relname <> 'kbench_schema'
	GROUP BY x.indexrelid, t.relname" | LC_ALL=C sort)" "$(sql "
	SELECT m.tbl_name || '(' ||
	       (SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_index_info(m.name) ORDER BY seqno)) || ')'
	FROM sqlite_master m WHERE m.type = 'index' AND m.name LIKE 'sqlite_autoindex%'" | LC_ALL=C sort)"
check_eq "the same primary keys" "$(pgq "
	SELECT t.relname || '(' || string_agg(a.attname, ',' ORDER BY k.ord) || ')'
	FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid
	CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY k(attnum, ord)
	JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
	WHERE t.relnamespace = 'public'::regnamespace AND x.indisprimary
	GROUP BY t.relname" | LC_ALL=C sort)" "$(sql "
	SELECT m.name || '(' || (SELECT group_concat(name, ',') FROM
	       (SELECT name FROM pragma_table_info(m.name) WHERE pk > 0 ORDER BY pk)) || ')'
	FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
	  AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE pk > 0)" | LC_ALL=C sort)"
check_eq "the same foreign keys, cascading alike" "$(pgq "
	SELECT t.relname || '.' || a.attname || ' -> ' || r.relname || '.' || ra.attname || ' ' ||
	       CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'a' THEN 'NO ACTION' ELSE c.confdeltype::text END
	FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
	JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = c.conkey[1]
	JOIN pg_attribute ra ON ra.attrelid = r.oid AND ra.attnum = c.confkey[1]
	WHERE c.contype = 'f' AND t.relnamespace = 'public'::regnamespace" | LC_ALL=C sort)" "$(sql "
	SELECT m.name || '.' || f.\"from\" || ' -> ' || f.\"table\" || '.' || f.\"to\" || ' ' || f.on_delete
	FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table'" | LC_ALL=C sort)"
check_eq "the same NOT NULL columns (primary keys aside)" "$(pgq "
	SELECT c.relname || '.' || a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
	WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0
	  AND a.attnotnull AND c.relname <> 'kbench_schema'
	  AND NOT EXISTS (SELECT 1 FROM pg_index x WHERE x.indrelid = c.oid AND x.indisprimary
	                  AND a.attnum = ANY (x.indkey))" | LC_ALL=C sort)" "$(sql "
	SELECT m.name || '.' || p.name FROM sqlite_master m, pragma_table_info(m.name) p
	WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND p.\"notnull\" AND p.pk = 0" | LC_ALL=C sort)"

# The imported store, row by row (ids kept; identity sequences moved past them).
check "the SQLite store copies into PostgreSQL" python3 tests/tools/pgsqlite.py copy "$KBENCH_DB" "$PGDB"

# The same rows by hand into both, in statements both dialects take.  Ids
# come from the columns' defaults: SQLite's max(id) + 1, PostgreSQL's
# identity moved to max(id) by the copy - the same numbers.
cat >"$TMP/hand.sql" <<'EOF'
INSERT INTO variant (name, scope, scope_label, kernel, description, created_at) VALUES
  ('hand-A', '', '', '6.1.0', 'the global A', '2024-01-02T03:04:05.678Z'),
  ('hand-A', 'f00dfeed', 'post-7', NULL, 'A as post 7 names it', '2024-01-02T03:04:05.679Z'),
  ('Zeta', '', '', NULL, NULL, '2024-01-02T03:04:05.680Z'),
  ('alpha', '', '', NULL, NULL, '2024-01-02T03:04:05.681Z'),
  ('Ärger', '', '', NULL, 'non-ASCII sorts after ASCII, bytewise', '2024-01-02T03:04:05.682Z'),
  ('_under', 'abc', 'post-8', NULL, NULL, '2024-01-02T03:04:05.683Z');
INSERT INTO variant (name) VALUES ('hand-defaults');
INSERT INTO machine (name, cpus, nodes, description) VALUES ('lab-01', 64, 4, 'four sockets');
INSERT INTO machine (name) VALUES ('lab-02');
INSERT INTO source (path, sha256, size, format, imported_at, mail_from, mail_date, mail_subject, message_id) VALUES
  ('/data/hand one.txt', 'hand-sha-1', 1234, 'hackbench', '2024-01-02T03:04:05.000Z',
   'Ann Example <ann@example.org>', '2002-10-07 17:20:11 +0200', 'Re: [PATCH] numa ü', 'm1@example.org'),
  ('/data/hand two.txt', 'hand-sha-2', 0, 'numa_test', '2024-01-02T03:04:06.000Z', NULL, NULL, NULL, NULL),
  ('/data/hand del.txt', 'hand-sha-del', 9, 'numa_test', '2024-01-02T03:04:07.000Z', NULL, NULL, NULL, NULL);
INSERT INTO source (path, sha256, size, format) VALUES ('/data/hand defaults.txt', 'hand-sha-defaults', 1, 'time');
INSERT INTO run (source_id, variant_id, machine_id, benchmark, config, iteration, status, error, line) VALUES
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-1'), (SELECT id FROM variant WHERE name = 'hand-A' AND scope = ''),
   (SELECT id FROM machine WHERE name = 'lab-01'), 'hackbench', 'groups=10,loops=100', 1, 'ok', NULL, 900001),
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-1'), (SELECT id FROM variant WHERE name = 'hand-A' AND scope = 'f00dfeed'),
   NULL, 'hackbench', 'groups=10,loops=100', 2, 'failed', 'timed out after 600 s', NULL),
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-2'), (SELECT id FROM variant WHERE name = 'Ärger'),
   (SELECT id FROM machine WHERE name = 'lab-02'), 'numa_test', 'tasks=5', 1, 'ok', NULL, 900003),
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-del'), (SELECT id FROM variant WHERE name = 'alpha'),
   NULL, 'numa_test', 'tasks=1', 1, 'ok', NULL, 900009);
INSERT INTO run (source_id, variant_id, benchmark, iteration, status, line) VALUES
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-defaults'), (SELECT id FROM variant WHERE name = 'hand-defaults'),
   'time', 1, 'ok', 900004);
INSERT INTO sample (run_id, metric, value, unit, job) VALUES
  ((SELECT id FROM run WHERE line = 900001), 'time', 0.30000000000000004, 's', NULL),
  ((SELECT id FROM run WHERE line = 900001), 'throughput', 123456789.12345679, 'KiB/s', NULL),
  ((SELECT id FROM run WHERE line = 900001), 'tiny', 4.9406564584124654e-324, '', NULL),
  ((SELECT id FROM run WHERE line = 900001), 'huge', 1.7976931348623157e308, '', NULL),
  ((SELECT id FROM run WHERE line = 900001), 'whole', 42, '', NULL),
  ((SELECT id FROM run WHERE line = 900003), 'elapsed', 61.25, 's', NULL),
  ((SELECT id FROM run WHERE line = 900003), 'user', 2.5, 's', 3),
  ((SELECT id FROM run WHERE line = 900009), 'elapsed', 1, 's', NULL);
INSERT INTO sample (run_id, metric, value) VALUES ((SELECT id FROM run WHERE line = 900004), 'elapsed', -1.5e-7);
INSERT INTO job (run_id, job, initial_node, main_node, moved, marked, user_time, pct) VALUES
  ((SELECT id FROM run WHERE line = 900003), 1, 0, 0, 0, 1, 12.5, '[100.0,0.0,0.0,0.0]'),
  ((SELECT id FROM run WHERE line = 900003), 2, 1, 2, 1, 0, NULL, '[12.5,null,87.5]'),
  ((SELECT id FROM run WHERE line = 900003), 3, NULL, NULL, 0, 0, 3.25, '[]'),
  ((SELECT id FROM run WHERE line = 900003), 4, 0, 0, 0, 0, 7, NULL),
  ((SELECT id FROM run WHERE line = 900003), 5, 2, 2, 0, 0, 0.30000000000000004, '[1e2, 3, 0.30000000000000004, 33.333333333333336]'),
  ((SELECT id FROM run WHERE line = 900009), 1, 0, 0, 0, 0, 1, '[50.0,50.0]');
INSERT INTO job (run_id, job) VALUES ((SELECT id FROM run WHERE line = 900003), 6);
INSERT INTO summary (source_id, variant_id, machine_id, benchmark, config, metric, mean, sd, n, min, max, unit, flags, line) VALUES
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-1'), (SELECT id FROM variant WHERE name = 'hand-A' AND scope = 'f00dfeed'),
   NULL, 'hackbench', 'groups=10', 'time', 33.32, 0.1, 5, 33.1, 33.5, 's', 'footnoted', 12),
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-1'), (SELECT id FROM variant WHERE name = 'Zeta'),
   (SELECT id FROM machine WHERE name = 'lab-01'), 'hackbench', '', 'time', NULL, NULL, NULL, NULL, NULL, 's', '', NULL),
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-del'), (SELECT id FROM variant WHERE name = 'alpha'),
   NULL, 'numa_test', '', 'elapsed', 1, 0, 1, 1, 1, 's', '', 3);
INSERT INTO summary (source_id, variant_id, benchmark, metric) VALUES
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-2'), (SELECT id FROM variant WHERE name = '_under'), 'numa_test', 'elapsed');
INSERT INTO metric (benchmark, name, unit, better, description) VALUES
  ('hand-bench', 'ops', 'ops/s', 'higher', NULL),
  ('hand-bench', 'latency', 'us', 'lower', 'per-operation latency');
INSERT INTO metric (name, better) VALUES ('hand-default', 'none');
INSERT INTO segment (source_id, first_line, last_line, format, hash, runs, summaries, copy_of) VALUES
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-1'), 1, 20, 'hackbench', 'seg-hash-1', 2, 2, NULL),
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-2'), 5, 9, 'numa_test', 'seg-hash-1', 0, 0,
   (SELECT id FROM source WHERE sha256 = 'hand-sha-1')),
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-del'), 1, 3, 'numa_test', 'seg-hash-del', 1, 1, NULL);
INSERT INTO segment (source_id, first_line, last_line, format, hash) VALUES
  ((SELECT id FROM source WHERE sha256 = 'hand-sha-defaults'), 1, 1, 'time', 'seg-hash-defaults');
INSERT INTO relabel (at, action, detail, source_sha, line, benchmark, config, from_name, from_scope, to_name, to_scope, machine) VALUES
  ('2024-01-02T03:04:05.000Z', 'rename', 'hand-A -> hand-B', NULL, NULL, NULL, NULL, 'hand-A', '', 'hand-B', '', NULL),
  ('2024-01-02T03:04:06.000Z', 'move', 'run moved', 'hand-sha-1', 7, 'hackbench', 'groups=10', 'hand-A', 'f00dfeed', 'Zeta', '', NULL),
  ('2024-01-02T03:04:07.000Z', 'machine', 'machine set', 'hand-sha-2', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'lab-02');
INSERT INTO relabel (action, detail) VALUES ('merge', 'hand-defaults');
INSERT INTO alert_summary (state, note, fixed_by, good, bad, first_seen) VALUES
  ('acknowledged', 'known: the pipe change', NULL, '6.9.0-00016-g1f424956d1e0', '6.9.0-00017-gfdf54ade4b42',
   '2024-01-02T03:04:05.000Z'),
  ('fixed', NULL, 'a2e90611b9f4', 'v1', 'v2', '2024-01-02T03:04:06.000Z');
INSERT INTO alert_summary (good, bad) VALUES ('hand-defaults', 'hand-defaults-bad');
INSERT INTO alert (summary_id, machine, benchmark, config, metric, good, bad, change_pct, q, verdict, first_seen) VALUES
  ((SELECT id FROM alert_summary WHERE good = '6.9.0-00016-g1f424956d1e0'), 'lkp-lab-h01', 'hackbench',
   'params=performance-pipe-8-process-100%', 'time', '6.9.0-00016-g1f424956d1e0',
   '6.9.0-00017-gfdf54ade4b42', 8.000000000000002, 1.2e-300, 'worse', '2024-01-02T03:04:05.000Z'),
  ((SELECT id FROM alert_summary WHERE good = 'v1'), '', 'autonuma', 'test=numa01', 'elapsed', 'v1', 'v2', -0.1,
   NULL, 'better', '2024-01-02T03:04:06.000Z');
INSERT INTO alert (summary_id, machine, benchmark, config, metric, good, bad, verdict) VALUES
  ((SELECT id FROM alert_summary WHERE good = 'v1'), 'cascade-me', 'b', '', 'm', 'v1', 'v2', 'changed');
EOF
check "the hand rows go into the SQLite store" sqlite_fk <"$TMP/hand.sql"
check "the same hand rows go into PostgreSQL" pg_file "$TMP/hand.sql"

# Default timestamps: strftime's text on both sides, at the time of the
# insert; then set alike so that the rows compare.
ts='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$'
now=$(date -u +%Y-%m-%dT%H)
for q in "variant created_at WHERE name = 'hand-defaults'" "source imported_at WHERE sha256 = 'hand-sha-defaults'" \
	 "relabel at WHERE detail = 'hand-defaults'" "alert_summary first_seen WHERE good = 'hand-defaults'" \
	 "alert first_seen WHERE machine = 'cascade-me'"; do
	set -- $q
	col=$2; tbl=$1; where=${q#* * }
	for side in sqlite postgresql; do
		if [ $side = sqlite ]; then v=$(sql "SELECT $col FROM $tbl $where"); else v=$(pgq "SELECT $col FROM $tbl $where"); fi
		if [[ $v =~ $ts ]] && [ "${v:0:13}" = "$now" ]; then pass "$side default $tbl.$col is UTC now as %Y-%m-%dT%H:%M:%fZ ($v)"
		else fail "$side default $tbl.$col is UTC now as %Y-%m-%dT%H:%M:%fZ" "got: $v"; fi
	done
	check "$tbl.$col set alike on both sides" both "UPDATE $tbl SET $col = '2000-01-01T00:00:00.000Z' $where"
done

# ON DELETE CASCADE: a source's runs, samples, jobs, summaries and segments go with it.
rid=$(pgq "SELECT id FROM run WHERE line = 900009")
check_eq "the run to cascade has the same id on both sides" "$(sql "SELECT id FROM run WHERE line = 900009")" "$rid"
check "deleting a source" both "DELETE FROM source WHERE sha256 = 'hand-sha-del'"
left="SELECT (SELECT count(*) FROM run WHERE id = $rid) + (SELECT count(*) FROM sample WHERE run_id = $rid)
	+ (SELECT count(*) FROM job WHERE run_id = $rid) + (SELECT count(*) FROM placement WHERE run_id = $rid)
	+ (SELECT count(*) FROM summary WHERE line = 3 AND metric = 'elapsed' AND benchmark = 'numa_test')
	+ (SELECT count(*) FROM segment WHERE hash = 'seg-hash-del')"
check_eq "... deletes its rows in PostgreSQL" "$(pgq "$left")" "0"
check_eq "... and in SQLite" "$(sql "$left")" "0"

# ON DELETE CASCADE: a summary's alerts go with it; a state outside the four is refused.
check_eq "alert_summary's default state is new, on both sides" \
	"$(sql "SELECT state FROM alert_summary WHERE good = 'hand-defaults'"):$(pgq "SELECT state FROM alert_summary WHERE good = 'hand-defaults'")" "new:new"
check "deleting an alert summary" both "DELETE FROM alert_summary WHERE good = 'v1'"
check_eq "... deletes its alerts in both" "$(sql "SELECT count(*) FROM alert WHERE good = 'v1'"):$(pgq "SELECT count(*) FROM alert WHERE good = 'v1'")" "0:0"
check_status "SQLite refuses a state that is not one of the four" 1 sqlite_fk <<<"UPDATE alert_summary SET state = 'maybe' WHERE good = 'hand-defaults'"
check_status "PostgreSQL too" 1 pgq "UPDATE alert_summary SET state = 'maybe' WHERE good = 'hand-defaults'"

# Every table and view: columns, rows, values, types.
python3 tests/tools/pgsqlite.py compare "$KBENCH_DB" "$PGDB"
rc=$?
[ $rc -le 1 ] || fail "tests/tools/pgsqlite.py compare ran (exit $rc)"

# Order and comparisons of text are bytewise on both sides.
python3 tests/tools/pgsqlite.py ordered "$KBENCH_DB" "$PGDB" \
	"SELECT display, id FROM variant_v ORDER BY display, id" \
	"SELECT name FROM variant WHERE name >= 'Z' ORDER BY name, id" \
	"SELECT min(name), max(name), min(display), max(display) FROM variant_v" \
	"SELECT path FROM source ORDER BY path" \
	"SELECT metric, count(*), min(value), max(value) FROM samples_v GROUP BY metric ORDER BY metric" \
	"SELECT run_id, job, node, pct FROM placement_v ORDER BY run_id, job, node" \
	"SELECT variant, metric, mean FROM summary_v WHERE mean IS NOT NULL ORDER BY variant, metric, mean"
rc=$?
[ $rc -le 1 ] || fail "tests/tools/pgsqlite.py ordered ran (exit $rc)"

# What both refuse: CHECK, foreign key, UNIQUE, NOT NULL, primary key.
# (Last: a refused insert still takes an identity value in PostgreSQL.)
# refuses SIDE KIND WHAT STMT: STMT fails on SIDE, by a KIND constraint.
refuses() {
	local side=$1 kind=$2 what=$3 stmt=$4 rc want
	if [ "$side" = SQLite ]; then
		echo "$stmt" | sqlite_fk >"$TMP/.out" 2>&1; rc=$?
		want="${kind^^} constraint failed"; want=${want/NOT-NULL/NOT NULL}
	else
		pgq "$stmt" >"$TMP/.out" 2>&1; rc=$?
		want="violates $kind constraint"
	fi
	if [ $rc != 0 ] && grep -q "$want" "$TMP/.out"; then pass "$side refuses $what"
	else fail "$side refuses $what" "exit $rc, expected an error with \"$want\"" "$(cat "$TMP/.out")"; fi
}
while IFS='|' read -r kind what stmt; do
	refuses SQLite "$kind" "$what" "$stmt"
	refuses PostgreSQL "$kind" "$what" "$stmt"
done <<'EOF'
check|a run status outside ok/failed|INSERT INTO run (source_id, variant_id, benchmark, iteration, status) VALUES ((SELECT id FROM source WHERE sha256 = 'hand-sha-1'), (SELECT id FROM variant WHERE name = 'Zeta'), 'x', 1, 'weird')
check|a metric direction outside lower/higher/none|INSERT INTO metric (name, better) VALUES ('hand-bad', 'sideways')
check|a relabel action it does not know|INSERT INTO relabel (action, detail) VALUES ('bogus', 'x')
foreign key|a sample of no run|INSERT INTO sample (run_id, metric, value) VALUES (987654321, 'x', 1)
foreign key|a run of no variant|INSERT INTO run (source_id, variant_id, benchmark, iteration, status) VALUES ((SELECT id FROM source WHERE sha256 = 'hand-sha-1'), 987654321, 'x', 1, 'ok')
unique|a second variant of the same name and scope|INSERT INTO variant (name, scope) VALUES ('hand-A', '')
unique|a second source of the same SHA-256|INSERT INTO source (path, sha256, size, format) VALUES ('/x', 'hand-sha-1', 1, 'x')
unique|a second machine of the same name|INSERT INTO machine (name) VALUES ('lab-01')
not-null|a sample without a value|INSERT INTO sample (run_id, metric, value) VALUES ((SELECT id FROM run WHERE line = 900001), 'x', NULL)
unique|a second row for the same job|INSERT INTO job (run_id, job) VALUES ((SELECT id FROM run WHERE line = 900003), 1)
EOF
