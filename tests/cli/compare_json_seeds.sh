#!/bin/bash
# `compare --format json` on the seeds is byte for byte what it was before
# the query layer selected in SQL (tests/data/compare_json/, written by
# the kbench of commit df42525 with KB_WRITE_EXPECTED=1, and written again
# once when each post's blocks took the variants the post names and the
# run became the unit of per-job metrics: seeds 001, 003, 004; and once more,
# adding only the "geomeans" of the geomean rows, seeds 000-003; and once
# when a verdict by size alone became inconclusive, seeds 001-003; and once
# adding only each cell's "mean_kind", every seed; and when numa_test
# configs gained disturb=hackbench:20, seeds 001, 003): the whole store,
# a metric list (E-H rule), two variants with a baseline, and a config
# filter, for every seed imported on its own.
. tests/lib.sh

EXP=tests/data/compare_json
# cases SEED-DB: one "name|args" line per comparison, args from the store
# (variants by id, the first run's first config pair) split by \x1f.
cases() {
	local v1 v2 kv s=$'\x1f'
	echo "all|"
	echo "metrics|--metric${s}elapsed,hackbench,time,user"
	v1=$(sqlite3 "$1" "select name from variant where id in (select variant_id from run union select variant_id from summary) order by id limit 1")
	v2=$(sqlite3 "$1" "select name from variant where id in (select variant_id from run union select variant_id from summary) order by id desc limit 1")
	echo "variants|--variants${s}$v2,$v1${s}--baseline${s}$v1"
	# the last pair: numa_test's tasks=N, not the disturb= every run shares
	kv=$(sqlite3 "$1" "select config from run union all select config from summary limit 1" | awk -F, '{ print $NF }')
	[ -n "$kv" ] && echo "config|--config${s}$kv"
	echo "mwu|--test${s}mwu${s}--change${s}speed"
}

for seed in "$SAMPLES"/seeds/*.txt; do
	name=$(basename "$seed" .txt)
	db="$TMP/$name.db"
	"$KB" import --db "$db" "$seed" >/dev/null 2>&1 || { fail "$name imports"; continue; }
	cases "$db" > "$TMP/cases"
	while IFS='|' read -r case args; do
		out="$TMP/$name.$case.json"
		IFS=$'\x1f' read -ra argv <<< "$args"
		"$KB" compare --db "$db" --format json "${argv[@]}" > "$out" 2>&1
		echo "exit $?" >> "$out"
		if [ "${KB_WRITE_EXPECTED:-0}" = 1 ]; then
			mkdir -p "$EXP" && cp "$out" "$EXP/$name.$case.json"
		fi
		if cmp -s "$out" "$EXP/$name.$case.json"; then
			pass "$name $case: compare --format json ${argv[*]} unchanged"
		else
			fail "$name $case: compare --format json ${argv[*]} changed" "$(diff "$EXP/$name.$case.json" "$out" | head -20)"
		fi
	done < "$TMP/cases"
done
