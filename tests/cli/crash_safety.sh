#!/bin/bash
# All-or-nothing per file under a grouped import (issue 26 item 4), on
# each backend (tests/run runs this script on SQLite, then on PostgreSQL):
#
# - kill -9 at 30 random moments of an import into a fresh store: every
#   file a killed import named as stored is stored and whole (both of its
#   runs and samples), no source is partial, the store passes its
#   integrity checks, and importing again converges on the counts of one
#   uninterrupted import;
# - a row the store refuses (a trigger the test adds) in the middle of
#   one large group: that file alone fails, named with the store's
#   reason; every other file of the group is stored whole; once the
#   trigger is gone, the same import stores the missing file and nothing
#   twice.
. tests/lib.sh

# The process to kill is kbench itself, not kb-pg's wrapper around it.
REAL=${KB_REAL:-$KB}
# store PATH: the store kbench opens for PATH (kb-pg's database on PostgreSQL)
store() {
	if on_sqlite; then printf '%s' "$1"; else "$KB_PG_MAP" --uri "$1"; fi
}

# Files of two hackbench runs each, all different (a copy would be
# skipped as a copy, not stored): SQLite gets enough for its import to
# last a few seconds under the sanitizers, PostgreSQL (slower per file)
# fewer.
if on_sqlite; then N=4000; else N=1200; fi
mkdir -p "$TMP/hb"
awk -v n="$N" -v dir="$TMP/hb" 'BEGIN {
	for (i = 1; i <= n; i++) {
		f = dir "/f" i ".log"
		printf "Running with 10*40 (== 400) tasks.\nTime: %d.%03d\n", 4 + i % 7, i % 1000 > f
		printf "Running with 10*40 (== 400) tasks.\nTime: %d.%03d\n", 5 + i % 3, (i * 7) % 1000 > f
		close(f)
	}
}'

counts_q="select (select count(*) from source) || ' ' || (select count(*) from run) || ' ' || (select count(*) from sample)"
# Sources whose runs or samples are not the two each file has.
partial_q="select count(*) from source s where (select count(*) from run r where r.source_id = s.id) <> 2
	or (select count(*) from sample x join run r on r.id = x.run_id where r.source_id = s.id) <> 2"

# --- the reference: one uninterrupted import -----------------------------------------
export KBENCH_DB="$TMP/ref.db"
start=$(date +%s%N)
check "an uninterrupted import of $N files" "$KB" import --variant hb "$TMP/hb"
ref_ms=$((($(date +%s%N) - start) / 1000000))
check_eq "... stores 2 runs and 2 samples per file" "$(sql "$counts_q")" "$N $((N * 2)) $((N * 2))"

# --- kill -9 at 30 random moments -----------------------------------------------------
# Each of 30 imports starts on a fresh store and is killed at a moment
# drawn from the whole length of the uninterrupted import (opening the
# store, walking, parsing, storing, committing).  The last killed store
# is then imported into again.
bad_named="" bad_whole="" bad_check="" killed=0 mid_write=0
for k in $(seq 1 30); do
	export KBENCH_DB="$TMP/kill$k.db"
	"$KB" init > /dev/null 2>&1 || { fail "kill $k: a fresh store" "$("$KB" init 2>&1)"; continue; }
	U=$(store "$KBENCH_DB")
	"$REAL" import --db "$U" --variant hb "$TMP/hb" > "$TMP/kill$k.out" 2>&1 &
	pid=$!
	ms=$((RANDOM % (ref_ms + 1)))
	sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
	kill -9 "$pid" 2>/dev/null && killed=$((killed + 1))
	wait "$pid" 2>/dev/null
	sed -n 's|^.*/\(f[0-9]*\.log\): hackbench, 2 runs, 2 samples$|\1|p' "$TMP/kill$k.out" | sort > "$TMP/said"
	sql "select path from source" | sed 's|^.*/||' | sort > "$TMP/stored"
	[ "$(comm -23 "$TMP/said" "$TMP/stored" | wc -l)" = 0 ] || bad_named="$bad_named $k"
	[ "$(sql "$partial_q")" = 0 ] || bad_whole="$bad_whole $k"
	n=$(wc -l < "$TMP/stored")
	[ "$n" -gt 0 ] && [ "$n" -lt "$N" ] && mid_write=$((mid_write + 1))
	if on_sqlite; then
		[ "$(sql "pragma integrity_check") $(sql "pragma foreign_key_check" | wc -l)" = "ok 0" ] ||
			bad_check="$bad_check $k"
	fi
	[ "$k" = 30 ] || { on_sqlite && rm -f "$KBENCH_DB" "$KBENCH_DB-wal" "$KBENCH_DB-shm"; }
done
echo "# $killed of 30 imports killed while running, $mid_write between the first and the last file stored"
check_eq "30 kills: each import named only files that are stored" "$bad_named" ""
check_eq "... no source partial after any kill" "$bad_whole" ""
on_sqlite && check_eq "... every killed store passes integrity_check and foreign_key_check" "$bad_check" ""
# The moments are random: most of them fall while files are being
# stored (some stored, not all), not only before or after.
check_eq "... at least 5 of the 30 kills fell between the first and the last file stored" \
	"$([ "$mid_write" -ge 5 ] && echo yes || echo "only $mid_write (of $killed kills)")" "yes"
check "importing the same files again after the last kill" "$KB" import --variant hb "$TMP/hb"
check_eq "... converges on the uninterrupted import's counts" "$(sql "$counts_q")" "$N $((N * 2)) $((N * 2))"
check_eq "... every source once" "$(sql "select count(*) from (select sha256 from source group by sha256 having count(*) > 1) d")" "0"
check_eq "... one variant, no machine twice" "$(sql "select count(*) from variant") $(sql "select count(*) - count(distinct name) from machine")" "1 0"
check_status "... and a third import stores nothing" 0 "$KB" import --variant hb "$TMP/hb"
check_grep "... (every file already imported)" "^$N files: 0 runs, 0 samples, 0 summaries; $N already imported, 0 failed" "$TMP/.out"

# --- a refused row in the middle of one large group -----------------------------------
# The files go through a few large group transactions; the store refuses
# the run of the file in the middle.
export KBENCH_DB="$TMP/refused.db"
check "a store for the refused row" "$KB" import --variant hb "$TMP/hb/f1.log"
mid=f$((N / 2)).log
if on_sqlite; then
	sql "CREATE TRIGGER refuse BEFORE INSERT ON run
		WHEN (SELECT path FROM source WHERE id = NEW.source_id) LIKE '%/$mid'
		BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
else
	sql "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS \$\$
		BEGIN
			IF (SELECT path FROM source WHERE id = NEW.source_id) LIKE '%/$mid' THEN
				RAISE EXCEPTION 'refused by the test';
			END IF;
			RETURN NEW;
		END \$\$;
		CREATE TRIGGER refuse BEFORE INSERT ON run FOR EACH ROW EXECUTE FUNCTION refuse()"
fi
check_status "an import with one refused file exits 2" 2 "$KB" import --variant hb "$TMP/hb"
cp "$TMP/.out" "$TMP/refused.out"
check_grep "... names that file with the store's reason" "/$mid: cannot store: .*refused by the test" "$TMP/refused.out"
check_eq "... and no other" "$(grep -c 'cannot store' "$TMP/refused.out")" "1"
check_grep "... counts one failed" "^$N files: $(((N - 2) * 2)) runs, $(((N - 2) * 2)) samples, 0 summaries; 1 already imported, 1 failed" "$TMP/refused.out"
check_eq "... every other file stored, each whole" "$(sql "select count(*) from source") $(sql "$partial_q")" "$((N - 1)) 0"
check_eq "... the refused file not at all" "$(sql "select count(*) from source where path like '%/$mid'")" "0"
if on_sqlite; then
	sql "DROP TRIGGER refuse"
else
	sql "DROP TRIGGER refuse ON run; DROP FUNCTION refuse()"
fi
check "without the trigger, the same import again" "$KB" import --variant hb "$TMP/hb"
check_grep "... stores the one file that failed" "^$N files: 2 runs, 2 samples, 0 summaries; $((N - 1)) already imported, 0 failed" "$TMP/.out"
check_eq "... converging on the uninterrupted import's counts" "$(sql "$counts_q")" "$N $((N * 2)) $((N * 2))"
