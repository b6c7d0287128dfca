#!/bin/bash
# Issue 3 acceptance through the CLI: seed 002 (autonuma tables, perf stat
# blocks and time lines for both kernels), the mmtests tree, bad input for
# every parser of this issue.
. tests/lib.sh

SEED="$SAMPLES/seeds/002_c5c123cd839d7edc.txt"
K1="3.9.0-mainline_v39+()"
K2="3.9.0-mainline_v39+() + mel's patches"
check_status "seed 002 imports" 0 "$KB" import "$SEED"
q() { sqlite3 -batch -noheader "$KBENCH_DB" "$1"; }
esc() { printf '%s' "$1" | sed "s/'/''/g"; }

# autonuma summaries: min, max, mean, n = 5 ("Ran 5 iterations").
summ() {
	q "select printf('%.2f %.2f %.2f %d', min, max, mean, n) from summary_v where benchmark = 'autonuma'
	   and variant = '$(esc "$1")' and config = 'test=$2' and metric = 'elapsed'"
}
check_eq "K1 numa01 summary" "$(summ "$K1" numa01)" "1784.16 1864.15 1800.16 5"
check_eq "K1 numa02 summary" "$(summ "$K1" numa02)" "32.07 32.72 32.59 5"
check_eq "K2 numa01 summary" "$(summ "$K2" numa01)" "1752.48 1859.60 1785.60 5"
check_eq "K2 numa02 summary" "$(summ "$K2" numa02)" "47.21 60.58 53.43 5"
check_eq "four summaries, nothing from %Change" "$(q "select count(*) from summary")" "4"

# perf stat counters per kernel and test.
perf() {
	q "select group_concat(metric || '=' || printf('%.9g', value), ' ') from
	   (select metric, value from samples_v where benchmark = 'perf-stat' and variant = '$(esc "$1")'
	    and config like '%./$2' order by metric) q"
}
check_eq "K1 numa01 perf stat" "$(perf "$K1" numa01)" \
	"cs=554289 elapsed=1784.17175 faults=1982054 migrate:mm_migrate_pages=5819 migrations=26727"
check_eq "K2 numa01 perf stat" "$(perf "$K2" numa01)" \
	"cs=1072118 elapsed=1763.96163 faults=5226896 migrate:mm_migrate_pages=2815 migrations=43796"
check_eq "K1 numa02 perf stat" "$(perf "$K1" numa02)" \
	"cs=14018 elapsed=32.729238 faults=40847 migrate:mm_migrate_pages=629 migrations=1209"
check_eq "K2 numa02 perf stat" "$(perf "$K2" numa02)" \
	"cs=35891 elapsed=53.9708149 faults=173443 migrate:mm_migrate_pages=1106 migrations=1579"
check_near "elapsed keeps perf's nanoseconds" \
	"$(q "select printf('%.9f', value) from samples_v where benchmark = 'perf-stat' and metric = 'elapsed' and config like '%./numa01' and variant = '$(esc "$K1")'")" \
	1784.171745972 1e-12

# The -f "%e %S %U %c %w" lines: autonuma runs with test=<name>.
tline() {
	q "select group_concat(metric || '=' || printf('%.10g', value), ' ') from
	   (select metric, value from samples_v where benchmark = 'autonuma' and variant = '$(esc "$1")'
	    and config = 'test=$2' order by metric) q"
}
check_eq "K1 numa01 time line" "$(tline "$K1" numa01)" \
	"elapsed=1784.16 involuntary_cs=141242 sys=352.58 user=68140.96 voluntary_cs=4862"
check_eq "K2 numa01 time line" "$(tline "$K2" numa01)" \
	"elapsed=1763.95 involuntary_cs=233740 sys=321.62 user=78358.88 voluntary_cs=2712"
check_eq "K1 numa02 time line" "$(tline "$K1" numa02)" \
	"elapsed=32.72 involuntary_cs=6013 sys=51.25 user=1415.06 voluntary_cs=111"
check_eq "K2 numa02 time line" "$(tline "$K2" numa02)" \
	"elapsed=53.96 involuntary_cs=9291 sys=128.9 user=2301.9 voluntary_cs=148"
check_eq "8 runs, 40 samples" "$(q "select count(*) || ' ' || (select count(*) from sample) from run")" "8 40"

# The same time lines named by the user: --time-format.
export KBENCH_DB="$TMP/tf.db"
printf 'results of the build test\nbuild 12.50 1.25 40.00 17 3\nnuma01 1784.16 352.58 68140.96 141242 4862\n' > "$TMP/tf.txt"
check_status "--time-format lines import" 0 "$KB" import --time-format '%e %S %U %c %w' "$TMP/tf.txt"
check_eq "a word other than an autonuma test: benchmark time, test=<word>" \
	"$(sql "select benchmark || ' ' || config || ' ' || printf('%.1f', value) from samples_v where metric = 'user' and config = 'test=build'")" "time test=build 40.0"
check_eq "an autonuma name: benchmark autonuma" "$(sql "select benchmark from runs_v where config = 'test=numa01'")" "autonuma"
"$KB" import --dry-run --replace "$TMP/tf.txt" > "$TMP/tf.out" 2>&1
check_grep "without --time-format only the autonuma line is read" "time, 1 runs, 5 samples" "$TMP/tf.out"

check_status "a --time-format that is not blank-separated directives is a usage error" 2 \
	"$KB" import --time-format '%e,%S' "$TMP/tf.txt"

# mmtests tree: variants, configs, iterations; one sample per result file
# with a result line.
export KBENCH_DB="$TMP/mm.db"
MM="$SHARED/corpus/mmtests/prashantph-mmtests_CI"
"$KB" import "$MM" > "$TMP/mm.out" 2>&1; rc=$?
check_eq "the mmtests tree imports" "$rc" "0"
hb=$(grep -rl 'Total time:' "$MM" --include='hackbench-*' | wc -l)
tm=$(grep -rlE '[0-9]elapsed|Elapsed \(wall clock\)|^real' "$MM" --include='time-*' | wc -l)
check_eq "hackbench samples = files with 'Total time:' ($hb)" \
	"$(sql "select count(*) from samples_v where benchmark = 'hackbench' and metric = 'time'")" "$hb"
check_eq "time elapsed samples = time-* files with an elapsed value ($tm)" \
	"$(sql "select count(*) from samples_v where benchmark = 'time' and metric = 'elapsed'")" "$tm"
check_eq "variants are the run names" "$(sql "select group_concat(variant, ' ') from (select distinct variant from runs_v order by 1) q")" \
	"forkintensive hackbench-process-pipes schbench"
check_eq "time-296-7 -> groups=296, iteration 7, thread mode over sockets" \
	"$(sql "select iteration || ' ' || config from runs_v where source like '%/forkintensive/iter-0/hackbench-thread-sockets/logs/time-296-7'")" \
	"7 groups=296,ipc=socket,mode=thread"
check_eq "forkintensive: 4 modes x 15 group counts" \
	"$(sql "select count(distinct config) from runs_v where variant = 'forkintensive' and benchmark = 'hackbench'")" "60"
check_eq "iterations 1..7 in forkintensive" \
	"$(sql "select min(iteration) || '-' || max(iteration) from runs_v where variant = 'forkintensive'")" "1-7"

# Bad input, one per parser: path:line: message, exit 2, nothing stored.
export KBENCH_DB="$TMP/bad.db"
check_status "seed 002 imports (a non-empty store)" 0 "$KB" import "$SEED"
before=$(counts)
bad() {   # name line pattern text
	printf '%b' "$4" > "$TMP/$1"
	"$KB" import "$TMP/$1" > "$TMP/$1.out" 2>&1; local rc=$?
	check_eq "$1: exit 2" "$rc" "2"
	check_grep "$1: path:line: message" "^$TMP/$1:$2: $3" "$TMP/$1.out"
}
bad hackbench.txt 3 "bad time '0\\.4\\.5'" \
	'Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\nEach sender will pass 100 messages of 100 bytes\nTime: 0.4.5\n'
bad kernbench.txt 3 "kernbench: 'User Time' has no number" \
	'Average Optimal load -j 24 Run (std deviation):\nElapsed Time 93.78 (0.43)\nUser Time 1x1.2 (1.2)\nSystem Time 3.2 (0.1)\n'
bad perfstat.txt 3 "unreadable perf stat line" \
	" Performance counter stats for './numa01':\n\n   554,28x9 cs                [100.00%]\n     1,209 migrations\n\n 1784.17 seconds time elapsed\n"
bad time-default.txt 2 "time: report ends before" \
	'some prose\n42.68user 357.25system 0:05.44elapsed 7351%CPU (0avgtext+0avgdata 7424maxresident)k\n'
bad time-f.txt 2 "time: 4 values after 'numa01'" \
	'start_bench output\nnuma01 1784.16 352.58 68140.96 141242\n'
bad autonuma.txt 4 "autonuma: bad seconds '31.3.7' for numa02" 'numa01\n313.17\nnuma02\n31.3.7\n'
bad autonuma-table.txt 3 "autonuma: 2 values in a row of a 3-column table" \
	'                Testcase:      Min      Max      Avg\n                  numa01:  1784.16  1864.15  1800.16\n                  numa02:    32.07    32.72\n'
check_eq "row counts unchanged after every bad file" "$(counts)" "$before"
