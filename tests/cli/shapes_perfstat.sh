#!/bin/bash
# Issue 21: perf stat and GNU time as people paste them into posts.  Each
# input in tests/data/shapes/perfstat is a few lines written to show one
# shape (not a real post); the checks are on what a user would query:
# variant, benchmark, config, metric and value.
. tests/lib.sh
D=tests/data/shapes/perfstat

# imp FILE [ARGS...]: import FILE alone into a fresh store ($KBENCH_DB);
# the exit status is in $rc, the output in $TMP/out.
imp() { import_alone "$@"; }
# vals [BENCH]: "variant|config|metric=value" of every sample, one line each, sorted.
vals() { sample_vals "$@"; }
# sums: "metric mean sd n" of every published summary (perf's "+-").
sums() {
	sql "select metric || ' ' || printf('%.10g', mean) || ' ' || case when sd is null then '-' else printf('%.4g', sd) end || ' ' || coalesce(cast(n as text), '-')
	     from summary_v order by metric"
}

# 1. Counts grouped the Indian way (en_IN: "12,27,462", "7,99,35,29,041").
imp indian-grouping.txt --variant v
check_eq "Indian grouping imports" "$rc" 0
check_eq "Indian grouping: every count as a number" "$(vals)" "$(printf '%s\n' \
	"v|cmd=./numa01|cache-misses=7993529041" "v|cmd=./numa01|cs=1227462" \
	"v|cmd=./numa01|elapsed=1407.69014881" "v|cmd=./numa01|migrate:mm_migrate_pages=98808" \
	"v|cmd=./numa01|migrations=241957" "v|cmd=./numa01|task-clock=123456.78")"
imp indian-grouping.txt --variant v --explain
check_grep "explain says the grouping was read the Indian way" "line 3: perf stat: counts grouped the Indian way" "$TMP/out"
imp grouping-mixed.txt --variant v
check_eq "a block mixing threes and Indian groups fails" "$rc" 2
check_grep "... naming both lines" "grouping-mixed.txt:4: inconsistent digit grouping: line 3 groups digits the Indian way \(12,34,567\), line 4 in threes" "$TMP/out"
check_eq "... storing nothing" "$(vals)" ""
imp grouping-bad.txt --variant v
check_eq "a grouping that is neither fails" "$rc" 2
check_grep "... with the number" "grouping-bad.txt:3: bad number '1,22,7462'" "$TMP/out"

# 2. A counter line's "# ... ( +- x% )" tail wrapped onto the next line
# (format=flowed, a mail client's line length), and perf's own "#"
# continuation line carrying the noise: the +- is the counter's.
imp wrapped-noise.txt --variant v
check_eq "wrapped tails import" "$rc" 0
check_eq "every counter keeps its +- (sd = rse * mean * sqrt(4))" "$(sums)" "$(printf '%s\n' \
	"branch-misses 6045031 7.012e+04 4" "branches 384509166 5.383e+05 4" "cpu-migrations 1081 40.86 4" \
	"elapsed 0.33225 0.006446 4" "instructions 2253177626 9.013e+07 4" "task-clock 2254.96 44.2 4")"
check_eq "... and its value: the -r means are summaries, not samples too" \
	"$(mean_vals | grep -c '^v|cmd=./hackbench -g 10|') $(vals | wc -l)" "6 0"
imp wrapped-noise.txt --variant v --explain
check_grep "explain names the wrapped line" "line 4: perf stat: the '\( \+- \)' of line 3, wrapped onto this line" "$TMP/out"

# 5. GNU time's default output as people paste it: cut after "%CPU" (one
# line per run, no second line), or wrapped by the mail client.
# runs BENCH: "iteration-less run list": one line per run, its samples joined.
runs() {
	sql "select group_concat(metric || '=' || printf('%.10g', value), ' ') from
	     (select * from samples_v where benchmark = '${1:-time}' order by run_id, metric) q group by run_id order by run_id"
}
imp time-default-cut.txt --variant v
check_eq "default format cut after %CPU imports" "$rc" 0
check_eq "... one run per line, the values it shows" "$(runs)" "$(printf '%s\n' \
	"elapsed=13.78 percent_cpu=99 sys=13.78 user=0" "elapsed=5.6 percent_cpu=99 sys=5.59 user=0" \
	"elapsed=8.35 percent_cpu=98 sys=8.35 user=0.01")"
imp time-default-cut.txt --variant v --explain
check_grep "explain says what the cut line lacks" "line 3: time: the line ends after %CPU" "$TMP/out"
imp time-default-wrapped.txt --variant v
check_eq "wrapped default format imports" "$rc" 0
check_eq "... both lines of each run joined; h:mm:ss elapsed; 0maxresident left out" "$(runs)" "$(printf '%s\n' \
	"elapsed=3608 fs_inputs=0 fs_outputs=0 major_faults=380524 minor_faults=919600 percent_cpu=4 swaps=0 sys=31.58 user=144.45" \
	"elapsed=3761 fs_inputs=0 fs_outputs=16 major_faults=612476 max_rss_kb=7424 minor_faults=633988 percent_cpu=5 swaps=0 sys=43.11 user=148.41")"
imp time-default-wrapped.txt --variant v --explain
check_grep "explain names the wrapped line" "line 3: time: line 2 wrapped onto this line, read as one" "$TMP/out"
check_grep "explain says why max_rss_kb is missing" "line 2: time: 0maxresident is the kernel not reporting it" "$TMP/out"

# ... and the shells' `time`, indented after a prompt: bash's "real
# 0m1.234s", busybox's "real 0m 1.23s"; one run each.
imp time-builtin.txt --variant v
check_eq "time builtin blocks import" "$rc" 0
check_eq "... one run each, seconds" "$(runs)" "$(printf '%s\n' "elapsed=1.234 sys=2.1 user=0.5" "elapsed=1.23 sys=0.1 user=0.5")"
check_eq "... the workload between prompt and time is its own run" \
	"$(sql "select count(*) from samples_v where benchmark = 'hackbench' and value = 0.454")" 1

# 6. Annotations the author wrote after perf's numbers: dropped with a
# note, the values (and perf's own +-) kept; perf's own brackets
# ("(66.59%)", "(msec)", "( +- x% )") are not annotations.
imp annotations.txt --variant v
check_eq "annotated block imports" "$rc" 0
check_eq "... every value kept, as the mean of the 5 runs" "$(mean_vals)" "$(printf '%s\n' \
	"v|cmd=./hackbench 10|context-switches=5653" "v|cmd=./hackbench 10|cpu-clock=123.45" \
	"v|cmd=./hackbench 10|cpu-migrations=1081" "v|cmd=./hackbench 10|elapsed=0.46225" \
	"v|cmd=./hackbench 10|page-faults=13217" "v|cmd=./hackbench 10|task-clock=2254.96")"
check_eq "... perf's +- kept, the author's '[+-1.3%]' not taken for one" "$(sums)" "$(printf '%s\n' \
	"context-switches 5653 204.8 5" "cpu-clock 123.45 - 5" "cpu-migrations 1081 - 5" "elapsed 0.46225 0.007178 5" \
	"page-faults 13217 - 5" "task-clock 2254.96 49.41 5")"
check_eq "... lines without perf's +- are means with no sd" \
	"$(sql "select group_concat(metric, ' ') from (select metric from summary_v where sd is null order by metric) q")" \
	"cpu-clock cpu-migrations page-faults"
check_eq "... and no mean is also a one-run sample" "$(vals | wc -l)" 0
imp annotations.txt --variant v --explain
for a in "3: perf stat: '\( \+ 3 % vs base\)'" "4: perf stat: '-45% regression'" "5: perf stat: '\[\+-1.3%\]'" "9: perf stat: '\(\+2.1%\)'"; do
	check_grep "explain notes the annotation on line ${a%%:*}" "line $a after the numbers is the author's annotation, not perf's: dropped" "$TMP/out"
done

# 3. A block pasted without its "Performance counter stats" header: two
# or more counter lines and perf's elapsed line are a block; counter
# lines alone are not.
imp headerless.txt --variant v
check_eq "headerless block imports" "$rc" 0
check_eq "... both blocks read (means of -r, summaries), the headerless one without a cmd" "$(mean_vals)" "$(printf '%s\n' \
	"v|cmd=./die.sh|cycles=30659870302" "v|cmd=./die.sh|elapsed=7.287011656" "v|cmd=./die.sh|task-clock=7269.033478" \
	"v||cycles=31107548846" "v||elapsed=7.389068145" "v||task-clock=7375.924053")"
imp headerless.txt --variant v --explain
check_grep "explain says the header is missing" "line 12: perf stat: a block without its 'Performance counter stats for' header" "$TMP/out"

# Hand-merged columns ("EVENT  v1 ( +- a% )  v2 ( +- b% )"): the column
# heads above ("v1      v2") say which variant each column is (without
# them the columns are left out: shapes_posts3); the rest of the post is
# still read.
imp columns.txt
check_eq "a post with hand-merged perf stat columns imports" "$rc" 0
check_eq "... each column its head's published mean" \
	"$(sql "select variant || ' ' || metric || '=' || printf('%.10g', mean) || ' n=' || n from summary_v where benchmark = 'perf-stat' order by metric, variant")" \
	"$(printf '%s\n' "v1 context-switches=43373 n=5" "v2 context-switches=44597 n=5" "v1 cpu-migrations=1211 n=5" "v2 cpu-migrations=220 n=5")"
check_eq "... the rest read" "$(sql "select group_concat(metric || '=' || printf('%.10g', value), ' ') from (select metric, value from samples_v where benchmark = 'time' order by metric) q")" \
	"elapsed=1.1 percent_cpu=99 sys=1.1 user=0"
imp columns.txt --explain
check_grep "explain says which heads named them" "line 5: perf stat: counts of 2 runs side by side, named by the column heads at line 1" "$TMP/out"
