#!/bin/bash
# The PostgreSQL store as a lab uses it (the PostgreSQL pass of tests/run
# only: KBENCH_PG_URI is the cluster's base URI, KBENCH_PG_DIR its
# scripts/pg-cluster directory): 16 importers at once, kill -9 at random
# moments, the server stopped in the middle of an import, a read-only
# role, and passwords that never show.
. tests/lib.sh
on_sqlite && exit 0
REAL=${KB_REAL:?}
BASE=$KBENCH_PG_URI
PGDIR=${KBENCH_PG_DIR:?KBENCH_PG_DIR: the test cluster}
unset KBENCH_DB

newdb() {   # NAME: a fresh database; prints its URI (a test without one stops here)
	PGOPTIONS="-c client_min_messages=warning" psql -X -q "${BASE}postgres" -v ON_ERROR_STOP=1 \
		-c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null || return 1
	printf '%s' "$BASE$1"
}
q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 "$1" -c "$2"; }

# --- files: 120 hackbench logs of 3 runs each, and 3,000 of two runs ------------
mkdir -p "$TMP/hb" "$TMP/k"
for i in $(seq 1 120); do
	printf 'Running with 10*40 (== 400) tasks.\nTime: %d.%03d\nRunning with 10*40 (== 400) tasks.\nTime: %d.%03d\nRunning with 10*40 (== 400) tasks.\nTime: %d.%03d\n' \
		$((5 + i % 3)) "$i" $((5 + i % 5)) $((i + 1)) $((6 + i % 2)) $((i + 2)) > "$TMP/hb/hb$i.log"
done
for i in $(seq 1 3000); do
	printf 'Running with 10*40 (== 400) tasks.\nTime: %d.%03d\nRunning with 10*40 (== 400) tasks.\nTime: %d.%03d\n' \
		$((4 + i % 7)) $((i % 1000)) $((5 + i % 3)) $(((i * 7) % 1000)) > "$TMP/k/k$i.log"
done
# the reference: everything, once, into SQLite
"$REAL" import --db "$TMP/ref.db" --variant hb "$TMP/hb" "$SAMPLES" >/dev/null 2>&1
refcounts=$(command sqlite3 "$TMP/ref.db" "select (select count(*) from source), (select count(*) from run),
	(select count(*) from sample), (select count(*) from summary), (select count(*) from job)")

# --- 16 concurrent importers, overlapping sets ---------------------------------------
U=$(newdb kb_conc) || { fail "a fresh database kb_conc on the test cluster"; exit 1; }
"$REAL" init --db "$U" >/dev/null 2>&1 || "$REAL" import --db "$U" /dev/null >/dev/null 2>&1
for k in $(seq 0 15); do
	(
		set --
		for i in $(seq 1 120); do [ $(((i + k) % 4)) != 0 ] && set -- "$@" "$TMP/hb/hb$i.log"; done
		[ $((k % 2)) = 0 ] && set -- "$@" "$SAMPLES"
		"$REAL" import --db "$U" --variant hb "$@" > "$TMP/conc$k.out" 2>&1
		echo $? > "$TMP/conc$k.rc"
	) &
done
wait
bad=""
for k in $(seq 0 15); do [ "$(cat "$TMP/conc$k.rc")" = 0 ] || bad="$bad $k"; done
check_eq "16 concurrent importers all exit 0" "$bad" ""
[ -n "$bad" ] && head -5 "$TMP/conc${bad# }.out" | sed 's/^/  /'
check_eq "... every source stored once" "$(q "$U" "select count(*) from (select sha256 from source group by sha256 having count(*) > 1) d")" "0"
check_eq "... the counts of one sequential SQLite import (sources|runs|samples|summaries|jobs)" \
	"$(q "$U" "select (select count(*) from source), (select count(*) from run), (select count(*) from sample), (select count(*) from summary), (select count(*) from job)")" \
	"$refcounts"
check_eq "... no variant or machine twice" \
	"$(q "$U" "select (select count(*) - count(distinct (name, scope)) from variant) + (select count(*) - count(distinct name) from machine)")" "0"

# --- kill -9 at 10 random moments -----------------------------------------------
# Every source stored has all its runs (the reference's count for its
# bytes); running the import again completes the set.
U=$(newdb kb_kill) || { fail "a fresh database kb_kill on the test cluster"; exit 1; }
"$REAL" import --db "$U" --variant hb "$TMP/hb/hb1.log" >/dev/null 2>&1
for k in $(seq 1 10); do
	"$REAL" import --db "$U" --variant hb "$TMP/hb" "$SAMPLES" > "$TMP/kill.out" 2>&1 &
	pid=$!
	sleep "0.$((RANDOM % 6))$((RANDOM % 10))"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
done
command sqlite3 -separator ' ' "$TMP/ref.db" "select s.sha256, (select count(*) from run r where r.source_id = s.id),
	(select count(*) from summary m where m.source_id = s.id) from source s order by s.sha256" > "$TMP/ref.rows"
psql -X -q -At -F ' ' "$U" -c "select s.sha256, (select count(*) from run r where r.source_id = s.id),
	(select count(*) from summary m where m.source_id = s.id) from source s order by s.sha256" > "$TMP/kill.rows"
check_eq "after 10 kills: every stored source whole (runs and summaries as the reference's)" \
	"$(join "$TMP/kill.rows" "$TMP/ref.rows" | awk '$2 != $4 || $3 != $5' | wc -l) $(join -v1 "$TMP/kill.rows" "$TMP/ref.rows" | wc -l)" "0 0"
check "... importing again completes" "$REAL" import --db "$U" --variant hb "$TMP/hb" "$SAMPLES"
check_eq "... to the reference's counts" \
	"$(q "$U" "select (select count(*) from source), (select count(*) from run), (select count(*) from sample), (select count(*) from summary), (select count(*) from job)")" \
	"$refcounts"

# --- the server stopped in the middle of an import of 3,000 files -------------------
U=$(newdb kb_stop) || { fail "a fresh database kb_stop on the test cluster"; exit 1; }
"$REAL" import --db "$U" --variant k "$TMP/k/k1.log" >/dev/null 2>&1
"$REAL" import --db "$U" --variant k --verbose "$TMP/k" > "$TMP/stop.out" 2> "$TMP/stop.err" &
pid=$!
for _ in $(seq 1 200); do
	n=$(q "$U" "select count(*) from source" 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 100 ] && break
	sleep 0.05
done
scripts/pg-cluster kill "$PGDIR" > /dev/null 2>&1
wait "$pid"; rc=$?
check_eq "server stopped mid-import: exit 2" "$rc" "2"
check_grep "... says the connection was lost and to import again" "connection to .* was lost.*import the same files again" "$TMP/stop.err"
grep -oE 'k[0-9]+\.log: time' "$TMP/stop.out" | sed 's/: time//' | sort > "$TMP/said"
scripts/pg-cluster start "$PGDIR" > /dev/null 2>"$TMP/restart.err" || fail "the cluster restarts" "$(cat "$TMP/restart.err")"
q "$U" "select substr(s.path, length(s.path) - position('/' in reverse(s.path)) + 2), count(r.id) from source s left join run r on r.source_id = s.id group by s.id, s.path order by 1" > "$TMP/stored"
check_eq "... every file it named as stored is stored" \
	"$(comm -23 "$TMP/said" <(cut -d'|' -f1 "$TMP/stored" | sort) | wc -l)" "0"
check_eq "... none partial (2 runs each)" "$(awk -F'|' '$2 != 2' "$TMP/stored" | wc -l)" "0"
check "... after a restart the same import completes" "$REAL" import --db "$U" --variant k "$TMP/k"
check_eq "... 3,000 sources, 6,000 runs" "$(q "$U" "select count(*) || ' ' || (select count(*) from run) from source")" "3000 6000"

# --- a read-only role -------------------------------------------------------------
U=$(newdb kb_read) || { fail "a fresh database kb_read on the test cluster"; exit 1; }
"$REAL" import --db "$U" "$SAMPLES" >/dev/null 2>&1
q "$U" "DROP ROLE IF EXISTS kb_reader; CREATE ROLE kb_reader LOGIN;
	GRANT CONNECT ON DATABASE kb_read TO kb_reader; GRANT USAGE ON SCHEMA public TO kb_reader;
	GRANT SELECT ON ALL TABLES IN SCHEMA public TO kb_reader" >/dev/null
R=${U/postgres@/kb_reader@}
check "reader: ls" "$REAL" ls --db "$R"
check "reader: show" "$REAL" show --db "$R" "$(q "$U" "select min(id) from run")"
check "reader: compare" "$REAL" compare --db "$R" --bench numa_test --variants A@001,F
# The samples hold seed 004 on azusa and seed 001 on no named machine:
# regress reads both and refuses to compare them (exit 2, machines named).
"$REAL" regress --db "$R" --bench numa_test --baseline A@001 > "$TMP/reg.out" 2>&1
check_eq "reader: regress across machines (exit 2)" "$?" "2"
check_grep "... naming both machines" "unknown machine \\(post 001_84b93bea668f5b54\\); 004_6cdb76245787edd0: azusa" "$TMP/reg.out"
"$REAL" regress --db "$R" --bench numa_test --baseline A@001 --candidate F > "$TMP/reg.out" 2>&1
check_eq "reader: regress of one post's F (exit 0: one run a side, nothing decided)" "$?" "0"
check_grep "... 49 rows inconclusive" "^0 worse, 0 better, 0 changed, 49 inconclusive, 0 same" "$TMP/reg.out"
check "reader: history" "$REAL" history --db "$R" --bench hackbench --metric time
check "reader: chart" "$REAL" chart --db "$R" --type bars --bench numa_test --metric elapsed --variants A@001,F -o "$TMP/r.png"
check "reader: report" "$REAL" report --db "$R" -o "$TMP/r.html"
check "reader: export" "$REAL" export --db "$R" --bench numa_test
check_status "reader: import is refused (exit 2)" 2 "$REAL" import --db "$R" "$TMP/hb/hb1.log"
check_grep "... saying the role may not write" "role kb_reader may not write this store" "$TMP/.out"
check_status "reader: relabel is refused (exit 2)" 2 "$REAL" relabel --db "$R" rename F F2

# --- passwords never show; a server that is not there ------------------------------
q "$U" "DROP ROLE IF EXISTS kb_pw; CREATE ROLE kb_pw LOGIN PASSWORD 'Hunter2secret';
	GRANT CONNECT ON DATABASE kb_read TO kb_pw; GRANT USAGE ON SCHEMA public TO kb_pw;
	GRANT SELECT ON ALL TABLES IN SCHEMA public TO kb_pw" >/dev/null
scripts/pg-cluster password-auth "$PGDIR" kb_pw >/dev/null 2>&1 || fail "the cluster asks kb_pw for a password"
P=${U/postgres@/kb_pw:Hunter2secret@}
W=${U/postgres@/kb_pw:WrongSecret9@}
check "the right password: ls" "$REAL" ls --db "$P"
check_status "a wrong password: exit 2" 2 "$REAL" ls --db "$W"
check_grep "... with libpq's reason" "password authentication failed" "$TMP/.out"
check_status "a missing database: exit 2" 2 "$REAL" ls --db "${P%/*}/no_such_db"
check_grep "... with libpq's reason" "does not exist" "$TMP/.out"
check_status "a missing role: exit 2" 2 "$REAL" ls --db "${U/postgres@/nobody_here:Hunter2secret@}"
check_grep "... with libpq's reason" "nobody_here" "$TMP/.out"
check_status "no server at that socket: exit 2" 2 "$REAL" ls --db "postgresql://kb_pw:Hunter2secret@%2Fnonexistent%2Fsock/kb_read?connect_timeout=2"
check_grep "... with libpq's reason" "connect|No such file" "$TMP/.out"
KBENCH_DB=$W "$REAL" import "$TMP/hb/hb2.log" > "$TMP/pw.out" 2>&1
for p in "$P" "$W"; do
	"$REAL" ls --db "$p" >> "$TMP/pw.out" 2>&1
	"$REAL" import --db "$p" "$TMP/hb/hb3.log" >> "$TMP/pw.out" 2>&1
	"$REAL" report --db "$p" -o "$TMP/pw.html" >> "$TMP/pw.out" 2>&1
	"$REAL" regress --db "$p" --baseline nothing >> "$TMP/pw.out" 2>&1
	"$REAL" ls --db "${p%/*}/no_such_db" >> "$TMP/pw.out" 2>&1
	"$REAL" init --db "$p" >> "$TMP/pw.out" 2>&1
	"$REAL" copy --from "$p" --to "$TMP/pwcopy.db" >> "$TMP/pw.out" 2>&1
	"$REAL" copy --from "$TMP/ref.db" --to "$p" >> "$TMP/pw.out" 2>&1
	"$REAL" relabel --db "$p" rename F F2 >> "$TMP/pw.out" 2>&1
done
cat "$TMP/pw.html" >> "$TMP/pw.out" 2>/dev/null
check_eq "no password in any output, error or report" "$(grep -c -e Hunter2secret -e WrongSecret9 "$TMP/pw.out")" "0"
check_grep "... the URI is shown masked" "kb_pw:\*\*\*@" "$TMP/pw.out"

# --- the same bytes from either backend ---------------------------------------------
# Each seed on its own into a SQLite file and a PostgreSQL database:
# compare --format json and regress --format json must not differ by a byte.
for seed in "$SAMPLES"/seeds/*.txt; do
	n=$(basename "$seed" .txt); n=${n%%_*}
	U=$(newdb "kb_json$n") || { fail "seed $n: a database for it"; continue; }
	"$REAL" import --db "$TMP/json$n.db" "$seed" >/dev/null 2>&1
	"$REAL" import --db "$U" "$seed" >/dev/null 2>&1
	base=$(command sqlite3 "$TMP/json$n.db" "select display from variant_v where id in (select variant_id from run union select variant_id from summary) order by id limit 1")
	for args in "compare --format json" "compare --format json --test mwu --change speed" \
		"regress --format json --baseline $base"; do
		# shellcheck disable=SC2086
		"$REAL" $args --db "$TMP/json$n.db" > "$TMP/a.json" 2>&1; ra=$?
		# shellcheck disable=SC2086
		"$REAL" $args --db "$U" > "$TMP/b.json" 2>&1; rb=$?
		if [ "$ra" = "$rb" ] && [ -s "$TMP/a.json" ] && cmp -s "$TMP/a.json" "$TMP/b.json"; then
			pass "seed $n: $args: the same bytes on SQLite and PostgreSQL ($(wc -c < "$TMP/a.json") bytes, exit $ra)"
		else
			fail "seed $n: $args: the same bytes on SQLite and PostgreSQL" "exit $ra vs $rb" "$(diff "$TMP/a.json" "$TMP/b.json" | head -10)"
		fi
	done
done
