#!/bin/bash
# Import semantics: all-or-nothing per file, bad input, re-import, concurrency.
. tests/lib.sh

SEED1="$SAMPLES/seeds/001_84b93bea668f5b54.txt"
SEED3="$SAMPLES/seeds/003_7caa478a1fca98f9.txt"

check_status "seed 001 imports" 0 "$KB" import "$SEED1"
before=$(counts)

# Re-importing identical bytes changes nothing and says so.
check_status "re-import exits 0" 0 "$KB" import "$SEED1"
check_grep "re-import says already imported" 'already imported' "$TMP/.out"
check_eq "re-import changes no table" "$(counts)" "$before"
cp "$SEED1" "$TMP/copy.txt"
check_status "same bytes under another name" 0 "$KB" import "$TMP/copy.txt"
check_grep "... are recognised as the earlier import" "already imported as .*001_84b93bea668f5b54.txt" "$TMP/.out"
check_eq "... and change nothing" "$(counts)" "$before"
check_status "--replace imports again" 0 "$KB" import --replace "$SEED1"
check_eq "--replace leaves the same row counts" "$(counts | sed 's/source=[0-9]*//')" "$(echo "$before" | sed 's/source=[0-9]*//')"
check_eq "--replace leaves no row of the old import" "$(sql "select count(*) from run where source_id not in (select id from source)")" "0"
if on_sqlite; then check_eq "... and no row whose parent is gone" "$(sql "pragma foreign_key_check")" ""; fi

# Bad input: path:line: message, exit 2, nothing stored for the bad file.
mkdir -p "$TMP/bad"
: > "$TMP/bad/empty.txt"
head -c 4096 /dev/urandom > "$TMP/bad/binary.bin"; printf '\0' >> "$TMP/bad/binary.bin"
{ printf 'Time: '; head -c 10485760 /dev/zero | tr '\0' '7'; echo; } > "$TMP/bad/huge.txt"
printf 'Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\nEach sender will pass 100 messages of 100 bytes\nTime: 0.4\xff\xfe\n' > "$TMP/bad/latin1.txt"
# A truncated numa_test job table: the tasks=4 block of seed 003 cut after job 2.
sed -n '/Executing 4 times/,/^  2 /p' "$SEED3" | head -5 > "$TMP/bad/truncated.txt"

for f in empty.txt binary.bin huge.txt latin1.txt truncated.txt; do
	before=$(counts)
	check_status "bad input $f exits 2" 2 "$KB" import "$TMP/bad/$f"
	check_grep "bad input $f reports path:line: message" "^$TMP/bad/$f:[0-9]+: .+" "$TMP/.out"
	check_eq "bad input $f changes no table" "$(counts)" "$before"
done
check_grep "the empty file says so" 'empty file' <("$KB" import "$TMP/bad/empty.txt" 2>&1)
check_grep "the binary file says so" 'binary' <("$KB" import "$TMP/bad/binary.bin" 2>&1)
check_grep "the huge line says so" 'line longer than' <("$KB" import "$TMP/bad/huge.txt" 2>&1)
check_grep "invalid UTF-8 is named with its line" 'latin1.txt:3: invalid UTF-8' <("$KB" import "$TMP/bad/latin1.txt" 2>&1)
check_grep "the truncated table names its line" 'truncated.txt:[0-9]+: ' <("$KB" import "$TMP/bad/truncated.txt" 2>&1)

# A directory with one bad file among good ones: the good ones import.
mkdir -p "$TMP/mixed"
cp "$SAMPLES/seeds/004_6cdb76245787edd0.txt" "$TMP/mixed/a-good.txt"
cp "$TMP/bad/truncated.txt" "$TMP/mixed/b-bad.txt"
cp "$SAMPLES/lkp/hackbench/hackbench" "$TMP/mixed/c-good.log"
runs_before=$(sql "select count(*) from run")
check_status "directory with one bad file exits 2" 2 "$KB" import "$TMP/mixed"
check_grep "... names the bad file and line" "b-bad.txt:[0-9]+: " "$TMP/.out"
check_eq "... and the good files import (1 + 8 runs)" "$(sql "select count(*) from run")" "$((runs_before + 9))"
check_eq "... nothing from the bad file" "$(sql "select count(*) from source where path like '%b-bad.txt'")" "0"

# Four importers at once into one database all succeed.
export KBENCH_DB="$TMP/concurrent.db"
pids=""
for f in "$SAMPLES/seeds/001_84b93bea668f5b54.txt" "$SAMPLES/seeds/003_7caa478a1fca98f9.txt" \
	 "$SAMPLES/lkp/hackbench/hackbench" "$SAMPLES/numatest/lkml_20021009_hohnbaum_numa_test.41_rev1_attachment_N4-N24.decoded.txt"; do
	"$KB" import "$f" > "$TMP/conc.$(basename "$f").out" 2>&1 &
	pids="$pids $!"
done
ok=0
for p in $pids; do wait "$p" && ok=$((ok + 1)); done
check_eq "four concurrent imports all succeed" "$ok" "4"
check_eq "every run of the four is stored (18+4+8+5)" "$(sql "select count(*) from run")" "35"
check_eq "four sources" "$(sql "select count(*) from source")" "4"
# ... every time, on a new store: switching a new store to WAL takes a lock
# SQLite does not wait for, and an importer that failed there removed the
# store the others were writing ("disk I/O error").  SQLite stores only.
if on_sqlite; then
	bad=0
	for round in 1 2 3 4 5 6 7 8; do
		db="$TMP/race$round.db" pids=""
		for f in "$SAMPLES/seeds/001_84b93bea668f5b54.txt" "$SAMPLES/seeds/003_7caa478a1fca98f9.txt" \
			 "$SAMPLES/lkp/hackbench/hackbench" "$SAMPLES/numatest/lkml_20021009_hohnbaum_numa_test.41_rev1_attachment_N4-N24.decoded.txt"; do
			KBENCH_DB="$db" "$KB" import "$f" > "$TMP/race.$round.$(basename "$f").out" 2>&1 &
			pids="$pids $!"
		done
		for p in $pids; do wait "$p" || bad=$((bad + 1)); done
		[ "$(KBENCH_DB="$db" sql "select count(*) from source")" = 4 ] || bad=$((bad + 1))
	done
	check_eq "eight rounds of four importers starting on a new store: all stored" "$bad" "0"
fi

# --variant-prefix keeps two posts' A..E apart.
export KBENCH_DB="$TMP/prefix.db"
check_status "seed 000 with a prefix" 0 "$KB" import --variant-prefix 'p0:' "$SAMPLES/seeds/000_009ccda627cb3777.txt"
check_status "seed 001 with another" 0 "$KB" import --variant-prefix 'p1:' "$SEED1"
check_eq "eleven variants, each post's own" "$(sql "select group_concat(name, ' ') from (select name from variant order by name) q")" \
	"p0:A p0:B p0:C p0:D p0:E p1:A p1:B p1:C p1:D p1:E p1:F"
check_grep "legends describe the prefixed names" 'vanilla O\(1\) scheduler' <(sql "select description from variant where name = 'p0:A'")
check_eq "p1:A holds seed 001's raw runs" "$(sql "select count(*) from runs_v where variant = 'p1:A'")" "3"

# Without a prefix a post's own labels still stay the post's: seeds 000 and
# 001 both say A..E, and give eleven variants, each with its own legend.
export KBENCH_DB="$TMP/posts.db"
check_status "seed 000 as it is" 0 "$KB" import "$SAMPLES/seeds/000_009ccda627cb3777.txt"
check_status "seed 001 as it is" 0 "$KB" import "$SEED1"
check_eq "eleven variants (5 + 6), shown as name@post" \
	"$(sql "select group_concat(display, ' ') from (select display from variant_v order by display) q")" \
	"A@000_009ccda627cb3777 A@001_84b93bea668f5b54 B@000_009ccda627cb3777 B@001_84b93bea668f5b54 C@000_009ccda627cb3777 C@001_84b93bea668f5b54 D@000_009ccda627cb3777 D@001_84b93bea668f5b54 E@000_009ccda627cb3777 E@001_84b93bea668f5b54 F"
check_eq "... each with its own description" \
	"$(sql "select count(distinct description) from variant where name in ('A','B','C','D','E')")" "10"
check_grep "... seed 000's B is seed 000's" "." <(sql "select description from variant_v where display = 'B@000_009ccda627cb3777'")
check_eq "... seed 001's B keeps seed 001's legend" \
	"$(sql "select count(*) from variant_v a join variant_v b on a.name = b.name and a.id < b.id where a.description = b.description")" "0"
check_eq "... its raw runs stay with seed 001's A" "$(sql "select count(*) from runs_v where variant = 'A@001_84b93bea668f5b54'")" "3"
check_status "compare seed 000's A-E by their short names" 0 \
	"$KB" compare --bench hackbench --variants A@000,B@000,C@000,D@000,E@000 --format json
cp "$TMP/.out" "$TMP/posts.json"
check_eq "... seed 000's table: 5 variants x 4 groups, no other post" \
	"$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['rows']; print(len(r), len({x['variant'] for x in r}), len({x['config'] for x in r}), sorted({x['variant'][0] for x in r}))" "$TMP/posts.json")" \
	"20 5 4 ['A', 'B', 'C', 'D', 'E']"
check_status "a bare 'A' is ambiguous here" 2 "$KB" compare --bench hackbench --baseline A
check_grep "... and the error names both" "ambiguous: A@000_009ccda627cb3777, A@001_84b93bea668f5b54" "$TMP/.out"
# Nine more posts that name an A (seed 000 with A's first hackbench cell
# changed in each: new numbers, not copies): the error names eight and
# counts the rest instead of printing a lab's hundreds.
for i in 1 2 3 4 5 6 7 8 9; do
	sed "45s/5\.54(0\.10)/6.0$i(0.10)/" "$SHARED/seeds/000_009ccda627cb3777.txt" >"$TMP/post$i.txt"
done
"$KB" import "$TMP"/post[1-9].txt >/dev/null 2>&1
check_status "eleven posts name an A: a bare 'A' is ambiguous" 2 "$KB" compare --bench hackbench --baseline A
check_grep "... the error names eight and counts the other three" \
	"is ambiguous: A@000_009ccda627cb3777, A@001_84b93bea668f5b54, A@post1, A@post2, A@post3, A@post4, A@post5, A@post6 and 3 more \(kbench ls --all lists them\)$" "$TMP/.out"

# Standard input, --dry-run and --explain store nothing; stdin imports.
export KBENCH_DB="$TMP/stdin.db"
check_status "--dry-run of seed 004" 0 "$KB" import --dry-run "$SAMPLES/seeds/004_6cdb76245787edd0.txt"
check_grep "--dry-run says what it would import" 'would import numa_test, 1 runs' "$TMP/.out"
check_eq "--dry-run stores no run" "$(sql "select count(*) from run")" "0"
check_status "--explain of seed 004" 0 "$KB" import --explain "$SAMPLES/seeds/004_6cdb76245787edd0.txt"
check_grep "--explain names the numa_test segment" 'lines [0-9]+-[0-9]+: numa_test' "$TMP/.out"
check_eq "--explain stores nothing" "$(sql "select count(*) from source")" "0"
check_status "import from standard input" 0 sh -c "\"$KB\" import --variant piped - < \"$SAMPLES/lkp/hackbench/hackbench\""
check_eq "stdin: 8 hackbench runs under the given variant" "$(sql "select count(*) from runs_v where variant = 'piped'")" "8"
check_eq "stdin: the source is named -" "$(sql "select path from source")" "-"

# --set runs=N gives the n of kernbench's mean(sd) summaries (it wins over
# the 5 "run number" lines of the console log).
export KBENCH_DB="$TMP/runs.db"
check_status "kernbench with --set runs=7" 0 "$KB" import --set runs=7 "$SHARED/corpus/lkp/kernbench/01"
check_eq "every summary has n = 7" "$(sql "select group_concat(distinct n) from summary_v")" "7"

# The files of one import share a transaction, each inside its own
# savepoint: a file that fails while being stored leaves no trace and the
# files around it stay.
mkdir -p "$TMP/group"
cp "$SAMPLES/seeds/004_6cdb76245787edd0.txt" "$TMP/group/a.txt"
cp "$SHARED/corpus/lkp/kernbench/01" "$TMP/group/b.log"
cp "$SAMPLES/lkp/hackbench/hackbench" "$TMP/group/c.log"
export KBENCH_DB="$TMP/group.db"
check_status "a database to refuse kernbench runs" 0 "$KB" import "$SAMPLES/lkp/hackbench/hackbench-multi-instance"
if on_sqlite; then
	sql "CREATE TRIGGER no_kernbench BEFORE INSERT ON summary WHEN NEW.benchmark = 'kernbench'
	     BEGIN SELECT RAISE(ABORT, 'kernbench refused by the test'); END"
else
	sql "CREATE FUNCTION no_kernbench() RETURNS trigger LANGUAGE plpgsql AS
	     \$\$ BEGIN IF NEW.benchmark = 'kernbench' THEN RAISE EXCEPTION 'kernbench refused by the test';
	     END IF; RETURN NEW; END \$\$;
	     CREATE TRIGGER no_kernbench BEFORE INSERT ON summary FOR EACH ROW EXECUTE FUNCTION no_kernbench()"
fi
before=$(sql "select count(*) from source")
check_status "a file refused by the store exits 2" 2 "$KB" import "$TMP/group"
check_grep "... and is named with the store's message" "b.log: cannot store: kernbench refused by the test" "$TMP/.out"
check_eq "... the files before and after it are stored" \
	"$(sql "select group_concat(path, ' ') from (select replace(path, '$TMP/group/', '') as path from source where id > $before order by id) q")" "a.txt c.log"
check_eq "... nothing of the refused file" "$(sql "select count(*) from summary where benchmark = 'kernbench'")" "0"
check_eq "... the summary line counts it as failed" "$(grep -c '3 files: .* 1 failed' "$TMP/.out")" "1"

# When SQLite itself rolls the whole transaction back (an I/O error, a
# full disk; here a trigger's RAISE(ROLLBACK)), the files stored before
# the error in that transaction are stored again: only the bad file fails.
export KBENCH_DB="$TMP/rollback.db"
check_status "a database whose hackbench runs roll everything back" 0 "$KB" import "$SAMPLES/lkp/hackbench/hackbench-multi-instance"
if on_sqlite; then
	sql "CREATE TRIGGER no_hackbench BEFORE INSERT ON run WHEN NEW.benchmark = 'hackbench'
	     BEGIN SELECT RAISE(ROLLBACK, 'hackbench rolled back by the test'); END"
else    # (any error rolls a PostgreSQL transaction back)
	sql "CREATE FUNCTION no_hackbench() RETURNS trigger LANGUAGE plpgsql AS
	     \$\$ BEGIN IF NEW.benchmark = 'hackbench' THEN RAISE EXCEPTION 'hackbench rolled back by the test';
	     END IF; RETURN NEW; END \$\$;
	     CREATE TRIGGER no_hackbench BEFORE INSERT ON run FOR EACH ROW EXECUTE FUNCTION no_hackbench()"
fi
before=$(sql "select count(*) from source")
check_status "a whole-transaction rollback exits 2" 2 "$KB" import "$TMP/group/a.txt" "$TMP/group/c.log" "$TMP/group/b.log"
check_grep "... names the file that failed" "c.log: cannot store: hackbench rolled back by the test" "$TMP/.out"
check_grep "... and counts only it as failed" "3 files: .* 1 failed" "$TMP/.out"
check_eq "... the files before and after it are stored" \
	"$(sql "select group_concat(path, ' ') from (select replace(path, '$TMP/group/', '') as path from source where id > $before order by id) q")" "a.txt b.log"
if on_sqlite; then check_eq "... every row has its parent" "$(sql "pragma foreign_key_check")" ""; fi
check_eq "... with all their rows" "$(sql "select count(*) from job"):$(sql "select count(*) from summary where benchmark = 'kernbench'")" "4:6"

# A database written by an older kbench (schema version 1: a placement
# table, per-job user samples) migrates on open and reads as before.
# (SQLite only: PostgreSQL stores begin at version 5.)
if on_sqlite; then
export KBENCH_DB="$TMP/v1.db"
sqlite3 "$KBENCH_DB" < tests/data/kbench-v1.sql
check_status "a version-1 database opens" 0 "$KB" ls
"$KB" import --db "$TMP/fresh.db" "$SAMPLES/seeds/004_6cdb76245787edd0.txt" > /dev/null
check_eq "... and is migrated to the current version" "$(sql "pragma user_version")" \
	"$(sqlite3 "$TMP/fresh.db" "pragma user_version")"
export KBENCH_DB="$TMP/v2.db"
(cd "$SAMPLES/.." && "$KB" import samples/seeds/004_6cdb76245787edd0.txt samples/lkp/hackbench/hackbench >/dev/null)
# (variant left out: version 1 named seed 004's runs after its folder, now
# after the post itself; the migration keeps the names it finds)
q_place="select config, job, node, pct, initial_node, main_node from placement_v order by run_id, job, node"
q_samples="select source, benchmark, config, iteration, job, metric, value, unit from samples_v order by run_id, job, metric"
fresh_place=$(sql "$q_place") fresh_samples=$(sql "$q_samples")
export KBENCH_DB="$TMP/v1.db"
check_eq "... its placement_v equals a fresh import's" "$(sql "$q_place")" "$fresh_place"
check_eq "... its samples_v too (per-job user times included)" "$(sql "$q_samples")" "$fresh_samples"
check_eq "... placement holds 4 nodes x 4 jobs of seed 004" "$(sql "select count(*) from placement")" "16"
check_eq "... job 2 ran on node 3 only" "$(sql "select group_concat(pct, '/') from (select pct from placement where job = 2 order by node) q")" "0.0/0.0/0.0/100.0"
check_eq "... the per-job user samples are in samples_v" "$(sql "select count(*) from samples_v where job is not null and metric = 'user'")" "4"
check_status "kbench show reprints its job table" 0 "$KB" show 1
check_grep "... with the mail's numbers" "^ +2 +0\.0 +0\.0 +0\.0 +100\.0 " "$TMP/.out"
fi

# A file is reported as imported only once its transaction has committed:
# kill an import of 5,000 files once it has named some, and every file
# the output named is in the database.
mkdir -p "$TMP/many"
for i in $(seq 1 5000); do
	{ cat "$SAMPLES/lkp/hackbench/hackbench"; printf '%*s\n' "$i" ''; } > "$TMP/many/f$i.log"
done
export KBENCH_DB="$TMP/killed.db"
"$KB" import "$TMP/many" > "$TMP/killed.out" 2>&1 &
pid=$!
for i in $(seq 1 1000); do
	[ "$(wc -l < "$TMP/killed.out")" -ge 100 ] && break
	sleep 0.01
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
grep -o '^[^:]*f[0-9]*\.log: hackbench' "$TMP/killed.out" | sed 's/: hackbench$//' | sort > "$TMP/killed.said"
sql "select path from source" | sort > "$TMP/killed.stored"
check_eq "a killed import named only stored files" "$(comm -23 "$TMP/killed.said" "$TMP/killed.stored" | wc -l)" "0"
check_status "importing the same files again finishes the job" 0 "$KB" import "$TMP/many"
check_eq "... and every file is stored once" "$(sql "select count(*) from source")" "5000"
