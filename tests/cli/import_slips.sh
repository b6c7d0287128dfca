#!/bin/bash
# Issue 24, import: values a real input holds that kbench dropped, split
# or pooled.  The inputs are in tests/data/issue24 (how each was derived
# from a real output: tests/README).
. tests/lib.sh
D=tests/data/issue24

# imp FILE [ARGS...]: import $D/FILE alone into a fresh store; $rc, $TMP/out.
imp() { import_alone "$@"; }
# cells VARIANT: "config=mean/sd[ flags]" of VARIANT's summaries, by config.
cells() {
	sql "select group_concat(c, ' ') from (select config || '=' || printf('%g', mean) || '/' || printf('%g', sd) ||
	     case when flags = '' then '' else ' ' || flags end as c
	     from summary s join variant v on v.id = s.variant_id where v.name = '$1' order by s.id) q"
}

# 11. A footnote mark after a cell (seed 000's hackbench table, B's
#     groups=50 cell marked): the value is read, the mark kept as the
#     footnoted flag, the cells after it read too, and --explain says so.
for f in after mid superscript apart; do
	imp footnote-$f.txt
	check_eq "footnote $f: imports" "$rc" 0
	check_eq "... all 20 cells, none dropped" "$(sql "select count(*) from summary")" 20
	check_eq "... B's row whole, the marked cell footnoted" "$(cells B)" \
		"groups=10=5.37/0.06 groups=25=15.13/0.44 groups=50=31.96/0.49 footnoted groups=100=67.14/0.43"
	check_eq "... C's row untouched" "$(cells C)" \
		"groups=10=1.31/0.08 groups=25=2.91/0.12 groups=50=5.95/0.13 groups=100=13.37/0.11"
	KBENCH_DB="$TMP/explain.db" "$KB" import --dry-run --explain "$D/footnote-$f.txt" > "$TMP/explain.out" 2>&1
	check_grep "... explain names the mark and the value kept" \
		"line 14: '(\*|¹)' after B's time value 31.96 is a footnote mark: the value is kept, flagged footnoted" \
		"$TMP/explain.out"
done
imp footnote-after.txt
check_grep "compare: the footnoted cell is marked f, not tested" "31\.96\(0\.49\)f" \
	<("$KB" compare --bench hackbench --config groups=50 --baseline A 2>&1)

# 12. numa_test's disturbance ("Running 'hackbench 20' in the
#     background") is configuration: disturb=hackbench:20.  Runs beside
#     'hackbench 10' and 'hackbench 20' are not pooled.  disturb-hackbench20.txt
#     is seed 001's first raw block byte for byte; disturb-hackbench10.txt
#     is derived from it with only the disturbance line changed (tests/README).
export KBENCH_DB="$TMP/disturb.db"
"$KB" import --variant A "$D/disturb-hackbench20.txt" "$D/disturb-hackbench10.txt" > "$TMP/out" 2>&1
check_eq "disturbance: both blocks import" "$?" 0
check_eq "... each run keeps its disturbance in its config" \
	"$(sql "select config from run order by config" | paste -sd' ')" \
	"disturb=hackbench:10,tasks=8 disturb=hackbench:20,tasks=8"
"$KB" compare --bench numa_test --metric elapsed > "$TMP/cmp.out" 2>&1
check_grep "... compare: not pooled, a row of n=1 per disturbance (hackbench:10)" \
	"^hackbench:10 +1 +46\.17$" "$TMP/cmp.out"
check_grep "... (hackbench:20)" "^hackbench:20 +1 +46\.17$" "$TMP/cmp.out"
check_eq "... --config disturb=hackbench:10 selects its run alone" \
	"$("$KB" compare --bench numa_test --metric elapsed --config disturb=hackbench:10 --format csv 2>&1 |
	   grep -c 'disturb=hackbench:10')" 1
run10=$(sql "select id from run where config like 'disturb=hackbench:10,%'")
"$KB" show "$run10" > "$TMP/show.out" 2>&1
check_grep "... show: the config names it" "^run $run10: numa_test disturb=hackbench:10,tasks=8," "$TMP/show.out"
check_grep "... show: the block's line as numa_test printed it" \
	"^Running 'hackbench 10' in the background: Time: 9\.639$" "$TMP/show.out"

# The published tables of seed 001 state no disturbance; its 18 raw
# blocks all state 'hackbench 20': the cells inherit it, flagged and
# explained.  The footnoted E:N=64 cells too (kbench does not read the
# footnote, "without hackbench disturbance"): they stay footnoted, and
# explain says the footnote may tell otherwise.
export KBENCH_DB="$TMP/seed001.db"
"$KB" import "$SAMPLES/seeds/001_84b93bea668f5b54.txt" > "$TMP/out" 2>&1
check_eq "seed 001: every summary inherits the raw blocks' disturbance, flagged" \
	"$(sql "select count(*) from summary where config like 'disturb=hackbench:20,%' and flags like '%disturb_inherited'")" 111
check_eq "... the footnoted E:N=64 cells stay footnoted" \
	"$(sql "select group_concat(config || ' ' || flags, '; ') from summary where flags like 'footnoted%'")" \
	"disturb=hackbench:20,tasks=64 footnoted,disturb_inherited; disturb=hackbench:20,tasks=64 footnoted,disturb_inherited; disturb=hackbench:20,tasks=64 footnoted,disturb_inherited"
check_eq "... the raw runs and their table cells still meet (A, B tasks=8: raw preferred)" \
	"$("$KB" compare --bench numa_test --metric elapsed --variants A,B --config tasks=8 --format csv 2>&1 |
	   grep -c '^"numa_test","disturb=hackbench:20,tasks=8",.*raw_preferred')" 2
"$KB" import --dry-run --explain "$SAMPLES/seeds/001_84b93bea668f5b54.txt" > "$TMP/explain.out" 2>&1
check_grep "... explain says where it came from" \
	"line 80: numa_test summaries: the table states no disturbance; 56 cells take disturb=hackbench:20 from the file's 18 raw numa_test blocks, which all state it \(flagged disturb_inherited\)" \
	"$TMP/explain.out"
check_grep "... and that a footnote may tell otherwise" \
	"line 97: numa_test summaries: footnoted among them: 1; the footnote may say they ran otherwise" "$TMP/explain.out"
# Raw blocks that disagree (seed 001 to its first block, then the
# 'hackbench 10' copy): the tables get none, and explain says why.
{ sed -n 1,132p "$SAMPLES/seeds/001_84b93bea668f5b54.txt"; echo; cat "$D/disturb-hackbench10.txt"; } > "$TMP/mixed.txt"
export KBENCH_DB="$TMP/mixed.db"
"$KB" import "$TMP/mixed.txt" > "$TMP/out" 2>&1
check_eq "mixed disturbances: no summary inherits one" \
	"$(sql "select count(*) from summary where config like '%disturb=%'")" 0
"$KB" import --dry-run --explain "$TMP/mixed.txt" > "$TMP/explain.out" 2>&1
check_grep "... explain says the blocks differ" \
	"line 80: numa_test summaries: 56 cells get no disturbance: the file's raw numa_test blocks state different ones \(disturb=hackbench:20, disturb=hackbench:10\)" \
	"$TMP/explain.out"

# 15. A tree walk meets binary files (mmtests' example_html_report PNGs
#     beside real outputs): they are skipped and counted, the text files
#     imported, and the import does not fail.
mkdir -p "$TMP/tree/report"
cp tests/data/issue13/perfstat-locale/interval.C.txt tests/data/issue13/hackbench/perf-stat-I500-hackbench.txt "$TMP/tree/"
cp "$SHARED"/corpus/mmtests/gormanm-mmtests/example_html_report/graph-stream.png \
   "$SHARED"/corpus/mmtests/gormanm-mmtests/example_html_report/graph-stream-vmstat-us.png "$TMP/tree/report/"
export KBENCH_DB="$TMP/tree.db"
"$KB" import "$TMP/tree" > "$TMP/tree.out" 2>&1; rc=$?
check_eq "a tree with PNGs imports (exit 0)" "$rc" 0
check_grep "... the summary counts the binary files skipped" \
	"^2 files: .* 0 failed, 2 skipped \(2 binary\)$" "$TMP/tree.out"
check_grep "... each PNG said skipped, not failed" "report/graph-stream.png: skipped, binary file" "$TMP/tree.out"
check_eq "... the text files' runs stored" "$(sql "select count(*) from source")" 2
check_status "a PNG named on the command line still fails" 2 "$KB" import "$TMP/tree/report/graph-stream.png"

# 14. An lkp result tree (scripts/genlab.c, 2 hosts x 8 commits) imported
#     without --layout, as the README's lab example does: its run
#     directories are recognised, so the commits are the variants and the
#     hosts the machines, as with --layout lkp (which still forces it).
cc -O2 -o "$TMP/genlab" scripts/genlab.c -lm || fail "genlab builds"
"$TMP/genlab" -H 2 -C 8 -s 7 "$TMP/lab" > /dev/null
export KBENCH_DB="$TMP/lab-detect.db"
"$KB" import "$TMP/lab" > "$TMP/lab.out" 2>&1; rc=$?
check_eq "lkp tree without --layout imports" "$rc" 0
check_eq "... commits are the variants (8), not one" "$(sql "select count(*) from variant")" 8
check_eq "... hosts are the machines" \
	"$(sql "select group_concat(name, ' ') from (select name from machine order by 1) q")" "lkp-lab-h00 lkp-lab-h01"
detected=$(sql "select variant || '|' || machine || '|' || benchmark || '|' || config || '|' || iteration || '|' || metric || '=' || value
		from samples_v order by 1" | md5sum)
export KBENCH_DB="$TMP/lab-forced.db"
"$KB" import --layout lkp "$TMP/lab" > /dev/null 2>&1
check_eq "... the same samples as --layout lkp" "$detected" \
	"$(sql "select variant || '|' || machine || '|' || benchmark || '|' || config || '|' || iteration || '|' || metric || '=' || value
		from samples_v order by 1" | md5sum)"
export KBENCH_DB="$TMP/lab-one.db"
one=$(find "$TMP/lab/hackbench" -type f -name hackbench | sort | head -1)
"$KB" import "$one" > /dev/null 2>&1
check_eq "... one run file named alone: its commit the variant, its host the machine" \
	"$(sql "select distinct variant || ' ' || machine from runs_v")" \
	"$(echo "$one" | awk -F/ '{print $(NF-2) " " $(NF-6)}')"
# Not lkp's: a directory whose path only has the shape (no commit, no
# program file) is read as plain files.
mkdir -p "$TMP/notlkp/a/b/c/d/e/f/g/0"
cp tests/data/issue13/hackbench/rt-tests-sigint.txt "$TMP/notlkp/a/b/c/d/e/f/g/0/log.txt"
export KBENCH_DB="$TMP/notlkp.db"
"$KB" import "$TMP/notlkp" > /dev/null 2>&1
check_eq "a look-alike path is not taken for lkp's" "$(sql "select group_concat(variant) from runs_v")" "log"

# A number too large for a double ("Time: 1e999") is refused with its
# line, not stored as an ok run with no sample; the store keeps what it had.
export KBENCH_DB="$TMP/overflow.db"
check "a store with seed 000" "$KB" import "$SAMPLES/seeds/000_009ccda627cb3777.txt"
before=$(counts)
printf 'Running with 10*40 (== 400) tasks.\nTime: 5.54\nRunning with 10*40 (== 400) tasks.\nTime: 1e999\n' > "$TMP/overflow.log"
check_status "Time: 1e999 is refused" 2 "$KB" import "$TMP/overflow.log"
check_grep "... at its line" "overflow\.log:4: bad time '1e999'" "$TMP/.out"
check_eq "... and the store keeps what it had (no run of the file)" "$(counts)" "$before"
