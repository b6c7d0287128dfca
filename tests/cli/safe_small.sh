#!/bin/bash
# The smaller items of issue 22 (item 7), each at its cause; every check
# here failed before its fix.
. tests/lib.sh

SEED0="$SAMPLES/seeds/000_009ccda627cb3777.txt"
SEED1="$SAMPLES/seeds/001_84b93bea668f5b54.txt"
check_status "seeds 000 and 001 import" 0 "$KB" import "$SEED0" "$SEED1"

if on_sqlite; then
	# A. a negative user_version ran migrations[-1] (UBSan), read-only verbs too
	cp "$KBENCH_DB" "$TMP/neg.db"
	sqlite3 "$TMP/neg.db" "PRAGMA user_version = -1"
	for v in ls compare "report --format text" "import $SEED0"; do
		# shellcheck disable=SC2086
		check_status "user_version -1: $v exits 2" 2 "$KB" $v --db "$TMP/neg.db"
		check_grep "... saying it is not a kbench store" "neg.db: not a kbench store: its schema version is -1" "$TMP/.out"
	done

	# B. a WAL store in a directory the reader may not write
	RO=$(mktemp -d /tmp/kbro.XXXXXX)
	chmod 755 "$RO"
	cp "$KBENCH_DB" "$RO/k.db"
	sqlite3 "$RO/k.db" "PRAGMA journal_mode" >/dev/null
	check_eq "the store is in WAL mode" "$(sqlite3 "$RO/k.db" "PRAGMA journal_mode")" "wal"
	rm -f "$RO/k.db-wal" "$RO/k.db-shm"
	if [ "$(id -u)" = 0 ]; then
		as_reader() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
		chmod 644 "$RO/k.db"
	else
		as_reader() { "$@"; }
		chmod 555 "$RO"
	fi
	if ! as_reader "$KB" --version >/dev/null 2>&1; then
		# (a checkout under a private home: uid 65534 cannot run kbench)
		pass "read-only directory checks skipped: the reader cannot run $KB"
		chmod 755 "$RO"
		rm -rf "$RO"
	else
	check "a reader lists a WAL store in a directory it may not write" as_reader "$KB" ls --db "$RO/k.db"
	check_grep "... and sees its contents" "^Store: variants" "$TMP/.out"
	check "... compares" as_reader "$KB" compare --db "$RO/k.db" --bench hackbench
	check_eq "... and leaves no -shm behind" "$(ls "$RO")" "k.db"
	# a -wal with changes and no -shm: what is needed is said
	chmod 755 "$RO"
	python3 - "$RO/k.db" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("CREATE TABLE pending_change (x)")
c.execute("INSERT INTO pending_change VALUES (1)")
os._exit(0)     # no checkpoint: the -wal stays
PY
	rm -f "$RO/k.db-shm"
	if [ "$(id -u)" != 0 ]; then chmod 555 "$RO"; fi
	check_status "a -wal without -shm: exit 2" 2 as_reader "$KB" ls --db "$RO/k.db"
	check_grep "... saying what is needed" "changes wait in .*k\.db-wal, which only a process that may write its directory can read" "$TMP/.out"
	chmod 755 "$RO"
	rm -rf "$RO"
	fi

	# C. a corrupted store said "cannot read the store: not an error"
	cp "$KBENCH_DB" "$TMP/bad.db"
	sqlite3 "$TMP/bad.db" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE" >/dev/null
	pages=$(sqlite3 "$TMP/bad.db" "SELECT pageno FROM dbstat WHERE name = 'sample' AND pagetype = 'leaf'" 2>/dev/null)
	if [ -z "$pages" ]; then
		fail "dbstat lists the sample table's pages"
	else
		psize=$(sqlite3 "$TMP/bad.db" "PRAGMA page_size")
		for pg in $pages; do
			python3 -c "import sys; f = open(sys.argv[1], 'r+b'); f.seek(int(sys.argv[2])); f.write(b'\xff' * 200)" \
				"$TMP/bad.db" $(( (pg - 1) * psize + 1000 ))
		done
		for v in compare export "report --format text"; do
			# shellcheck disable=SC2086
			check_status "a corrupt sample table: $v exits 2" 2 "$KB" $v --db "$TMP/bad.db"
			if grep -q "not an error\|unknown error" "$TMP/.out"; then
				fail "... with SQLite's reason" "$(cat "$TMP/.out")"; else
				check_grep "... with SQLite's reason" "malformed|not a database|corrupt" "$TMP/.out"; fi
		done
	fi

	# D. ulimit -f killed an import with SIGXFSZ
	check_status "import past ulimit -f: exit 2, no SIGXFSZ" 2 bash -c "ulimit -f 100; '$KB' import --db '$TMP/fsz.db' '$SAMPLES/seeds'"
	check_grep "... a clean error" "fsz.db" "$TMP/.out"
fi

# E. mbox: a body line "From the run below" after a blank line split the message
printf 'From a@b Mon Oct  7 11:00:00 2002\nFrom: A <a@b>\nSubject: one\nMessage-ID: <one@b>\n\nRunning with 10*40 (== 400) tasks.\nTime: 5.5\n\nFrom the run below\nTime: 5.6\n\n' >"$TMP/from.mbox"
check_status "an mbox whose body says 'From the run below' imports" 0 "$KB" import "$TMP/from.mbox"
check_grep "... as one message" "^1 files \(1 mail messages\)|from\.mbox#one@b: hackbench, 2 runs" "$TMP/.out"
check_eq "... one source for it" "$(sql "select count(*) from source where path like '%from.mbox%'")" "1"

# F. Content-Transfer-Encoding: base64x was decoded as base64
printf 'From: A <a@b>\nSubject: b64x\nMessage-ID: <b64x@b>\nContent-Transfer-Encoding: base64x\n\nTime: 5.5\nTime: 5.7\n' >"$TMP/b64x.eml"
check_status "base64x is not base64: the text stays and imports" 0 "$KB" import "$TMP/b64x.eml"
check_grep "... two runs from it" "b64x.eml.*2 runs" "$TMP/.out"

# G. a NUL from an encoded word cut the Subject
printf 'From: A <a@b>\nSubject: =?utf-8?Q?ab=00cd?= tail\nMessage-ID: <nul@b>\n\nTime: 6.5\n' >"$TMP/nul.eml"
check_status "a NUL in an encoded Subject imports" 0 "$KB" import "$TMP/nul.eml"
check_eq "... the Subject kept whole (U+FFFD for the NUL)" \
	"$(sql "select mail_subject from source where message_id = 'nul@b'")" "$(printf 'ab\357\277\275cd tail')"

# H. invalid UTF-8 in headers was stored as it came
printf 'From: =?utf-8?B?/w==?= <x@y>\nSubject: s\nMessage-ID: <\377ff@b>\n\nTime: 7.5\n' >"$TMP/ff.eml"
check_status "a header of invalid UTF-8 imports" 0 "$KB" import "$TMP/ff.eml"
check_eq "... stored as valid UTF-8" \
	"$(sql "select count(*) from source where mail_from = '$(printf '\357\277\275') <x@y>' and message_id = '$(printf '\357\277\275')ff@b'")" "1"

# I. nonsense accepted with exit 0
check_status "report --limit -1: exit 2" 2 "$KB" report --format text --limit -1
check_grep "... saying why" "limit takes a whole number of at least 1" "$TMP/.out"
check_status "report --limit 0: exit 2" 2 "$KB" report --format text --limit 0
check_status "report --since 2024-02-30: exit 2" 2 "$KB" report --format text --since 2024-02-30
check_status "report --since 2023-02-29: exit 2" 2 "$KB" report --format text --since 2023-02-29
check_status "report --since 2024-02-29 (a leap day): exit 0" 0 "$KB" report --format text --since 2024-02-29
check_status "chart --width 0: exit 2" 2 "$KB" chart --type bars --bench hackbench --dump-layout --width 0
check_status "chart --width 1e3: exit 2" 2 "$KB" chart --type bars --bench hackbench --dump-layout --width 1e3
check_status "chart --height 0: exit 2" 2 "$KB" chart --type bars --bench hackbench --dump-layout --height 0
check_status "chart --width 1000: exit 0" 0 "$KB" chart --type bars --bench hackbench --dump-layout --width 1000
check_status "import --variant '': exit 2" 2 "$KB" import --variant '' "$SEED0"
check_grep "... saying why" "variant needs a name" "$TMP/.out"
src=$(sql "select min(source_id) from run")
before=$(sql "select group_concat(variant_id) from (select variant_id from run order by id)")
check_status "relabel move --segment 0: exit 2" 2 "$KB" relabel move --to Z --source "$src" --segment 0
check_status "relabel move --segment -5: exit 2" 2 "$KB" relabel move --to Z --source "$src" --segment -5
check_grep "... saying why" "segment takes a line number of at least 1" "$TMP/.out"
check_eq "... and nothing moved" "$(sql "select group_concat(variant_id) from (select variant_id from run order by id)")" "$before"
check_status "relabel --list junk: exit 2" 2 "$KB" relabel --list junk
check_status "relabel --list: exit 0" 0 "$KB" relabel --list

# J. --assets hrefs were not URL-encoded
A="$TMP/a#b c?d"
check_status "report --assets 'a#b c?d': exit 0" 0 "$KB" report --bench hackbench --assets "$A" -o "$TMP/r.html"
check_grep "... the href is URL-encoded" 'src="a%23b%20c%3Fd/chart-1\.png"' "$TMP/r.html"
check "... and names the file written" test -s "$A/chart-1.png"
