#!/bin/bash
# kbench copy and kbench init: a copy of the samples/ store reproduces it
# row by row (ids aside), a second copy changes nothing, each source goes
# whole or not at all, and analysis gives the same bytes on the copy.
# In the PostgreSQL pass of tests/run ($KBENCH_PG_URI, a base URI ending
# in '/'), the same through PostgreSQL (SQLite -> PostgreSQL -> SQLite)
# and init's GRANTs, tried with a writer and a reader login.  The stores
# this test names as files are SQLite files in both passes.
. tests/lib.sh
unset -f sqlite3
TABLES_Q=$SQLITE_TABLES_Q
KB=${KB_REAL:-$KB}

# dump DB: every table's rows with the ids replaced by natural keys: a
# source by its SHA-256, a variant by name@scope, a machine by name, a run
# (and a sample, a summary, a relabel record) by its rank in id order -
# the copy keeps the order of the rows, and the views and queries list
# them in that order.  Variants and machines that no run or summary names
# (a relabel can leave one) are not copied, and not listed.  Doubles with
# 17 digits: equal text is the same double.
dump() {
	sqlite3 -batch -noheader "$1" "
CREATE TEMP VIEW k_src AS SELECT id, sha256 AS k FROM source;
CREATE TEMP VIEW k_run AS SELECT id, row_number() OVER (ORDER BY id) AS k FROM run;
CREATE TEMP VIEW k_var AS SELECT id, name || '@' || scope AS k FROM variant;
CREATE TEMP VIEW used_var AS SELECT variant_id AS id FROM run UNION SELECT variant_id FROM summary;
CREATE TEMP VIEW used_mach AS SELECT machine_id AS id FROM run UNION SELECT machine_id FROM summary;
SELECT 'source', row_number() OVER (ORDER BY id), path, sha256, size, format, imported_at,
  mail_from, mail_date, mail_subject, message_id FROM source ORDER BY id;
SELECT 'variant', row_number() OVER (ORDER BY id), name, scope, scope_label, kernel, description,
  created_at FROM variant WHERE id IN used_var ORDER BY id;
SELECT 'machine', row_number() OVER (ORDER BY id), name, cpus, nodes, description
  FROM machine WHERE id IN used_mach ORDER BY id;
SELECT 'run', kr.k, s.k, v.k, m.name, r.benchmark, r.config, r.iteration, r.status, r.error, r.line
  FROM run r JOIN k_run kr ON kr.id = r.id JOIN k_src s ON s.id = r.source_id
  JOIN k_var v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id ORDER BY r.id;
SELECT 'sample', row_number() OVER (ORDER BY x.id), kr.k, x.metric, printf('%.17g', x.value),
  x.unit, x.job FROM sample x JOIN k_run kr ON kr.id = x.run_id ORDER BY x.id;
SELECT 'job', kr.k, j.job, j.initial_node, j.main_node, j.moved, j.marked,
  printf('%.17g', j.user_time), j.pct FROM job j JOIN k_run kr ON kr.id = j.run_id ORDER BY kr.k, j.job;
SELECT 'summary', row_number() OVER (ORDER BY x.id), s.k, v.k, m.name, x.benchmark, x.config,
  x.metric, printf('%.17g', x.mean), printf('%.17g', x.sd), x.n, printf('%.17g', x.min),
  printf('%.17g', x.max), x.unit, x.flags, x.line
  FROM summary x JOIN k_src s ON s.id = x.source_id JOIN k_var v ON v.id = x.variant_id
  LEFT JOIN machine m ON m.id = x.machine_id ORDER BY x.id;
SELECT 'segment', s.k, g.first_line, g.last_line, g.format, g.hash, g.runs, g.summaries, c.k
  FROM segment g JOIN k_src s ON s.id = g.source_id LEFT JOIN k_src c ON c.id = g.copy_of
  ORDER BY s.k, g.first_line, g.last_line, g.hash, g.format;
SELECT 'metric', benchmark, name, unit, better, description FROM metric ORDER BY benchmark, name;
SELECT 'relabel', row_number() OVER (ORDER BY id), at, action, detail, source_sha, line, benchmark,
  config, from_name, from_scope, to_name, to_scope, machine FROM relabel ORDER BY id;
"
}

# same_dump DESC A B: the dumps of stores A and B are equal (and not empty).
same_dump() {
	dump "$2" > "$TMP/dump.a"; dump "$3" > "$TMP/dump.b"
	if [ -s "$TMP/dump.a" ] && cmp -s "$TMP/dump.a" "$TMP/dump.b"; then
		pass "$1"
	else
		fail "$1" "$(diff "$TMP/dump.a" "$TMP/dump.b" | head -20)"
	fi
}

# The samples/ store, with two relabels (a rename, a machine set) and a
# mail message (its headers are columns of its source; samples/mail/'s
# thread brings two more).
A="$TMP/a.db"
printf 'From: Ann Tester <ann@example.org>\nDate: Tue, 8 Oct 2002 10:00:00 +0200\nSubject: hackbench on 2.5.41\nMessage-ID: <hb41@example.org>\n\nRunning in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\nEach sender will pass 100 messages of 100 bytes\nTime: 0.533\n' > "$TMP/hb41.eml"
"$KB" import --quiet --db "$A" "$SAMPLES" "$TMP/hb41.eml" >/dev/null 2>&1
"$KB" relabel --db "$A" rename A@000_009ccda627cb3777 A-renamed >/dev/null 2>&1
"$KB" relabel --db "$A" machine numa9 --source "$SAMPLES/seeds/004_6cdb76245787edd0.txt" >/dev/null 2>&1
nsrc=$(sqlite3 "$A" "select count(*) from source")
nruns=$(sqlite3 "$A" "select count(*) from run")
check_eq "the samples store has sources, runs, relabels, mail headers, flags, in-file copies" \
	"$(sqlite3 "$A" "select count(*) > 50 from source; select count(*) > 100 from run;
	  select count(*) from relabel; select count(*) from source where mail_from is not null;
	  select count(*) > 0 from summary where flags <> ''; select count(*) > 0 from job where pct is not null;
	  select count(*) > 0 from segment where copy_of is not null")" "$(printf '1\n1\n2\n3\n1\n1\n1')"

# SQLite -> SQLite.
B="$TMP/b.db"
check_status "copy into a new SQLite store exits 0" 0 "$KB" copy --from "$A" --to "$B"
cp "$TMP/.out" "$TMP/copy1.out"
check_eq "... says one line per source" "$(grep -c '^copied  ' "$TMP/copy1.out")" "$nsrc"
check_grep "... and the total" "^copied $nsrc sources \($nruns runs, [0-9]+ samples, [0-9]+ jobs, [0-9]+ summaries, [0-9]+ segments\), skipped 0 sources already there; [0-9]+ variants, [0-9]+ machines, [0-9]+ new metrics, 2 relabel records$" "$TMP/copy1.out"
check_grep "... a source's line counts its runs and summaries" "^copied  .*/seeds/001_84b93bea668f5b54.txt \(18 runs, 111 summaries\)$" "$TMP/copy1.out"
same_dump "the copy reproduces every table row by row, ids aside" "$A" "$B"
check_eq "... with no dangling reference" "$(sqlite3 "$B" "pragma foreign_key_check")" ""
check_eq "... and the relabel records as they were" \
	"$(sqlite3 "$B" "select action, detail from relabel order by id")" \
	"$(sqlite3 "$A" "select action, detail from relabel order by id")"
before=$(KBENCH_DB=$B counts)
check_status "a second copy exits 0" 0 "$KB" copy --from "$A" --to "$B"
check_grep "... skips every source" "^copied 0 sources \(0 runs, 0 samples, 0 jobs, 0 summaries, 0 segments\), skipped $nsrc sources already there; 0 variants, 0 machines, 0 new metrics, 0 relabel records$" "$TMP/.out"
check_eq "... with a line for each" "$(grep -c '^skipped .* (already there)$' "$TMP/.out")" "$nsrc"
check_eq "... and changes no table" "$(KBENCH_DB=$B counts)" "$before"
same_dump "... nor any row" "$A" "$B"
check_status "--quiet prints only the total" 0 "$KB" copy --quiet --from "$A" --to "$B"
check_eq "... one line" "$(wc -l < "$TMP/.out")" "1"

# The same analysis on the copy: compare --format json byte for byte, on
# the whole store and on each seed's store of its own.
"$KB" compare --db "$A" --format json > "$TMP/a.json" 2>&1
"$KB" compare --db "$B" --format json > "$TMP/b.json" 2>&1
if [ -s "$TMP/a.json" ] && cmp -s "$TMP/a.json" "$TMP/b.json"; then
	pass "compare --format json of the samples store: the same bytes on the copy"
else
	fail "compare --format json of the samples store: the same bytes on the copy" "$(diff "$TMP/a.json" "$TMP/b.json" | head)"
fi
for seed in "$SAMPLES"/seeds/*.txt; do
	name=$(basename "$seed" .txt)
	"$KB" import --db "$TMP/s-$name.db" "$seed" >/dev/null 2>&1
	"$KB" copy --quiet --from "$TMP/s-$name.db" --to "$TMP/c-$name.db" >/dev/null 2>&1
	"$KB" compare --db "$TMP/s-$name.db" --format json > "$TMP/s.json" 2>&1
	"$KB" compare --db "$TMP/c-$name.db" --format json > "$TMP/c.json" 2>&1
	if grep -q '"rows"' "$TMP/s.json" && cmp -s "$TMP/s.json" "$TMP/c.json"; then
		pass "seed $name: compare --format json the same on the copy"
	else
		fail "seed $name: compare --format json the same on the copy" "$(diff "$TMP/s.json" "$TMP/c.json" | head)"
	fi
done

# Into a store that has some of the sources: those are skipped, the rest
# copied, the variants the two share merged by name.
E="$TMP/e.db"
"$KB" import --db "$E" "$SAMPLES/seeds/001_84b93bea668f5b54.txt" "$SAMPLES/lkp" >/dev/null 2>&1
have=$(sqlite3 "$E" "select count(*) from source")
check_status "copy into a store that has some sources" 0 "$KB" copy --from "$A" --to "$E"
check_grep "... skips those" "skipped $have sources already there" "$TMP/.out"
check_grep "... copies the rest" "^copied $((nsrc - have)) sources" "$TMP/.out"
check_eq "... and then holds every source once, with all its runs" \
	"$(sqlite3 "$E" "select count(*), count(distinct sha256) from source; select count(*) from run")" \
	"$(sqlite3 "$A" "select count(*), count(distinct sha256) from source; select count(*) from run")"
check_eq "... one variant per name and scope" \
	"$(sqlite3 "$E" "select count(*) from (select name, scope from variant group by name, scope having count(*) > 1)")" "0"

# All or nothing: a target that refuses one sample (a trigger) takes none
# of the sources whose transaction it was in, and no part of any; the
# next copy completes the set.
F="$TMP/f.db"
"$KB" init --db "$F" >/dev/null 2>&1
# the last source's first sample
last=$(sqlite3 "$A" "select s.metric from sample s join run r on r.id = s.run_id
	where r.source_id = (select max(source_id) from run) order by s.id limit 1")
sqlite3 "$F" "CREATE TRIGGER refuse BEFORE INSERT ON sample WHEN NEW.metric = '$last'
	BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
check_status "a copy the target refuses halfway exits 2" 2 "$KB" copy --from "$A" --to "$F"
check_grep "... with the target's reason" "refused by the test" "$TMP/.out"
check_grep "... and says what to do" "run the copy again" "$TMP/.out"
# every source there has all its runs, samples, jobs, summaries, segments
part() {
	sqlite3 "$1" "ATTACH '$A' AS a;
	SELECT count(*) FROM source s JOIN a.source t ON t.sha256 = s.sha256 WHERE
	  (SELECT count(*) FROM run WHERE source_id = s.id) <> (SELECT count(*) FROM a.run WHERE source_id = t.id)
	  OR (SELECT count(*) FROM sample x JOIN run r ON r.id = x.run_id WHERE r.source_id = s.id)
	     <> (SELECT count(*) FROM a.sample x JOIN a.run r ON r.id = x.run_id WHERE r.source_id = t.id)
	  OR (SELECT count(*) FROM job x JOIN run r ON r.id = x.run_id WHERE r.source_id = s.id)
	     <> (SELECT count(*) FROM a.job x JOIN a.run r ON r.id = x.run_id WHERE r.source_id = t.id)
	  OR (SELECT count(*) FROM summary WHERE source_id = s.id) <> (SELECT count(*) FROM a.summary WHERE source_id = t.id)
	  OR (SELECT count(*) FROM segment WHERE source_id = s.id) <> (SELECT count(*) FROM a.segment WHERE source_id = t.id);
	SELECT count(*) FROM run WHERE source_id NOT IN (SELECT id FROM source)"
}
check_eq "... leaves no source in part" "$(part "$F")" "$(printf '0\n0')"
check_eq "... and not the source it refused" \
	"$(sqlite3 "$F" "select count(*) from source where sha256 = '$(sqlite3 "$A" "select sha256 from source where id = (select max(source_id) from run)")'")" "0"
check_eq "... nor a variant or machine of a source it did not copy" \
	"$(sqlite3 "$F" "select count(*) from variant where id not in (select variant_id from run union select variant_id from summary);
	  select count(*) from machine where id not in (select machine_id from run where machine_id is not null
	    union select machine_id from summary where machine_id is not null)")" "$(printf '0\n0')"
check_grep "... and says how many sources it copied before" "[0-9]+ sources? copied and [0-9]+ skipped before the error" "$TMP/.out"
sqlite3 "$F" "DROP TRIGGER refuse"
check_status "... and the next copy completes it" 0 "$KB" copy --from "$A" --to "$F"
same_dump "... row by row" "$A" "$F"

# Usage and store errors.
check_status "copy without --to exits 2" 2 "$KB" copy --from "$A"
check_grep "... and says what is missing" "--from STORE --to STORE" "$TMP/.out"
check_status "copy of a store into itself exits 2" 2 "$KB" copy --from "$A" --to "$TMP/../$(basename "$TMP")/a.db"
check_status "copy from a store that does not exist exits 2" 2 "$KB" copy --from "$TMP/none.db" --to "$TMP/x.db"
check_grep "... naming it" "none.db: no such database" "$TMP/.out"

# kbench init on SQLite.
check_status "init creates a new SQLite store" 0 "$KB" init --db "$TMP/i.db"
check_grep "... and says so, with the schema version" "i.db: created the store, schema version [0-9]+$" "$TMP/.out"
check_grep "... and that SQLite has no roles" "SQLite has no roles" "$TMP/.out"
check_eq "... an empty store with the metric catalogue" \
	"$(sqlite3 "$TMP/i.db" "select count(*) from source; select count(*) > 0 from metric")" "$(printf '0\n1')"
check_status "init again" 0 "$KB" init --db "$TMP/i.db"
check_grep "... says it is up to date" "i.db: schema version [0-9]+, up to date$" "$TMP/.out"
KBENCH_DB="$TMP/env.db" check_status "init takes \$KBENCH_DB" 0 "$KB" init
check_eq "... and creates that store" "$(test -f "$TMP/env.db" && echo yes)" "yes"
mkdir -p "$TMP/dir.db"
check_status "init of a store that cannot be opened exits 2" 2 "$KB" init --db "$TMP/dir.db"
check_grep "... with the reason" "dir.db: " "$TMP/.out"

# PostgreSQL.
on_sqlite && exit 0
PGDB=kbench_copy_$$
PGADMIN="${KBENCH_PG_URI}postgres"
psql -Xq "$PGADMIN" -c "CREATE DATABASE $PGDB" >/dev/null 2>&1
PG="${KBENCH_PG_URI}$PGDB"
pg_cleanup() {
	psql -Xq "$PGADMIN" -c "DROP DATABASE IF EXISTS $PGDB WITH (FORCE)" \
		-c "DROP ROLE IF EXISTS kbcopy_w_$$" -c "DROP ROLE IF EXISTS kbcopy_r_$$" >/dev/null 2>&1
	rm -rf "$TMP"
}
trap pg_cleanup EXIT

"$KB" init --db "$PG" > "$TMP/grants.sql" 2> "$TMP/init.err"
check_eq "init creates the PostgreSQL store" "$?" "0"
check_grep "... says so, as an SQL comment" "^-- .*$PGDB: created the store, schema version [0-9]+$" "$TMP/grants.sql"
check_grep "... grants the writer its rights on this database" "^GRANT CONNECT ON DATABASE $PGDB TO kbench_writer, kbench_reader;$" "$TMP/grants.sql"
check_grep "... the writer writes every table" "^GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO kbench_writer;$" "$TMP/grants.sql"
check_grep "... and takes ids from the sequences" "^GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO kbench_writer;$" "$TMP/grants.sql"
check_grep "... the reader only reads" "^GRANT SELECT ON ALL TABLES IN SCHEMA public TO kbench_reader;$" "$TMP/grants.sql"
check_status "init again on PostgreSQL" 0 "$KB" init --db "$PG"
check_grep "... says it is up to date" "^-- .*: schema version [0-9]+, up to date$" "$TMP/.out"

check_status "copy SQLite -> PostgreSQL exits 0" 0 "$KB" copy --quiet --from "$A" --to "$PG"
check_grep "... copies every source" "^copied $nsrc sources \($nruns runs" "$TMP/.out"
check_status "copy PostgreSQL -> SQLite exits 0" 0 "$KB" copy --quiet --from "$PG" --to "$TMP/back.db"
same_dump "SQLite -> PostgreSQL -> SQLite reproduces the store row by row" "$A" "$TMP/back.db"
check_status "a second copy into PostgreSQL exits 0" 0 "$KB" copy --quiet --from "$A" --to "$PG"
check_grep "... and skips every source" "^copied 0 sources .*skipped $nsrc sources already there; 0 variants, 0 machines, 0 new metrics, 0 relabel records$" "$TMP/.out"
"$KB" compare --db "$PG" --format json > "$TMP/pg.json" 2>&1
if cmp -s "$TMP/a.json" "$TMP/pg.json"; then
	pass "compare --format json: the same bytes on the PostgreSQL copy"
else
	fail "compare --format json: the same bytes on the PostgreSQL copy" "$(diff "$TMP/a.json" "$TMP/pg.json" | head)"
fi

# The GRANTs as printed, through psql, then a writer and a reader login.
check "the GRANTs init printed run in psql" psql -Xq -v ON_ERROR_STOP=0 "$PG" -f "$TMP/grants.sql"
psql -Xq "$PGADMIN" -c "CREATE ROLE kbcopy_w_$$ LOGIN IN ROLE kbench_writer" \
	-c "CREATE ROLE kbcopy_r_$$ LOGIN IN ROLE kbench_reader" >/dev/null 2>&1
for t in 0.412 0.397 0.5; do
	printf 'Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\nEach sender will pass 100 messages of 100 bytes\nTime: %s\n' "$t" > "$TMP/hb-$t.log"
done
check_status "the reader compares" 0 "$KB" compare --db "$PG?user=kbcopy_r_$$" --format json
check_status "the reader exports" 0 "$KB" export --db "$PG?user=kbcopy_r_$$" --format csv
check_status "the reader may not import" 2 "$KB" import --db "$PG?user=kbcopy_r_$$" "$TMP/hb-0.5.log"
check_status "the reader may not copy into the store" 2 "$KB" copy --from "$TMP/s-001_84b93bea668f5b54.db" --to "$PG?user=kbcopy_r_$$"
cp "$TMP/.out" "$TMP/reader.out"
check_grep "... and is told why" "permission denied|read-only|may not write" "$TMP/reader.out"
"$KB" import --db "$TMP/new.db" --variant w1 "$TMP/hb-0.412.log" >/dev/null 2>&1
check_status "the writer copies into the store" 0 "$KB" copy --quiet --from "$TMP/new.db" --to "$PG?user=kbcopy_w_$$"
check_grep "... a new source" "^copied 1 source \(1 run," "$TMP/.out"
check_status "the writer imports" 0 "$KB" import --db "$PG?user=kbcopy_w_$$" --variant w2 "$TMP/hb-0.397.log"
check_eq "... and the store has both" \
	"$(psql -Xqt -A "$PG" -c "select v.name from run r join variant v on v.id = r.variant_id where v.name in ('w1', 'w2') order by 1")" \
	"$(printf 'w1\nw2')"
