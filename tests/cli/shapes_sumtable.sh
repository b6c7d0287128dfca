#!/bin/bash
# Issue 21: the shapes of published summary tables, kernbench and
# autonuma output that real posts use (tests/data/shapes/sumtable, each
# file a few lines written for one shape).  Each test states the stored
# numbers a user would check: variant, benchmark, config, metric, value.
. tests/lib.sh
D=tests/data/shapes/sumtable

# imp NAME: import D/NAME.txt alone into its own store; exit status in $rc,
# output in $TMP/NAME.out
imp() {
	local name=$1; shift
	export KBENCH_DB="$TMP/$name.db"
	"$KB" import "$@" "$D/$name.txt" > "$TMP/$name.out" 2>&1; rc=$?
}
# val VARIANT METRIC [CONFIG]: "mean" (and "/sd" when there is one) of the summaries
val() {
	sql "select group_concat(printf('%g', mean) || case when sd is null then '' else '/' || printf('%g', sd) end, ' ')
	     from summary_v where variant = '$1' and metric = '$2' and config = '${3:-}'"
}
explain() { "$KB" import --dry-run --explain "$D/$1.txt" 2>&1; }

# 1. Headings it did not know.
imp heading-numa-prefix
check_eq "NUMA schedbench 4: imports" "$rc" 0
check_eq "NUMA schedbench 4: tasks=4 from the heading" \
	"$(val patched elapsed tasks=4) $(val base total_user tasks=4)" "25.1 84.4"
imp heading-slash-bare-grid
check_eq "schedbench/hackbench + numabench/numa_test import" "$rc" 0
check_eq "bare '10 25 50' grid header: groups from the columns" \
	"$(val new time groups=25) $(sql "select benchmark from summary_v where variant = 'old' and config = 'groups=50'")" \
	"1.9/0.06 hackbench"
check_eq "numabench/numa_test 8: tasks=8, '---' is no value" \
	"$(val new avg_user tasks=8) [$(val old avg_user tasks=8)] $(val old elapsed tasks=8)" "20/0.5 [] 30.5/1.5"
imp heading-prose-legend
check_eq "a prose line ending in Kernbench: then a legend, then the table" \
	"$rc $(val lazy percent_cpu) $(val vanilla elapsed)" "0 826 50"
check_eq "the legend describes the variants" \
	"$(sql "select description from variant_v where display = 'lazy'")" "2.6.10 with the lazy balancing patch"

# 2. Column labels that contradict the numbers.
imp columns-misordered-numa
check_eq "numa_test: header Elapsed AvgUser.. over AvgUser Elapsed.. numbers: read by the checks" \
	"$rc $(val kern-a avg_user tasks=16) $(val kern-a elapsed tasks=16) $(val kern-b avg_user tasks=16)" "0 40.1 60.2 38.5"
check_grep "the note names the check and the order taken" \
	"header says Elapsed AvgUser TotalUser TotalSys but row 'kern-a' fails TotalUser = AvgUser x tasks; as AvgUser Elapsed TotalUser TotalSys" \
	<(explain columns-misordered-numa)
imp columns-misordered-kernbench
check_eq "kernbench: CPU and System swapped in the header: CPU% = (User+System)/Elapsed decides" \
	"$rc $(val tree-a percent_cpu) $(val tree-a system) $(val tree-b percent_cpu)" "0 1000 50 1021"
imp columns-other-order-true
check_eq "Elapsed System User CPU, printed and true, is not reordered" \
	"$rc $(val tree-a system) $(val tree-a user) $(val tree-b system)" "0 80 520 88"
imp columns-contradict-refused
check_eq "no order passes: refused" "$rc" 2
check_grep "the refusal names the row and the check" \
	"columns-contradict-refused.txt:3: summary table: row 'kern-a' fails TotalUser = AvgUser x tasks" "$TMP/columns-contradict-refused.out"
check_eq "refused: nothing stored" "$(sql "select count(*) from summary_v")" 0

# 3. Placeholders.
imp placeholders
check_eq "placeholders import" "$rc" 0
check_eq "AvgUser 0.00 is no summary; the other columns are" \
	"[$(val stock avg_user tasks=8)] $(val stock elapsed tasks=8) $(val patched total_sys tasks=8)" "[] 40.1 1.2"
check_eq "a blank row and an all-zero row store nothing" \
	"$(sql "select count(*) from summary_v where variant in ('crashed', 'rerun')")" 0
check_grep "the notes say so" "'crashed' has no values" <(explain placeholders)
check_grep "the notes say so (zeros)" "'rerun' holds only zeros" <(explain placeholders)

# 4. Annotations after the values.
imp annotations
check_eq "annotated rows keep their values" \
	"$rc $(val patched system) $(val v2 percent_cpu) $(val v3 system)" "0 44 1199 39"
check_eq "no annotation becomes a value" "$(sql "select count(*) from summary_v")" 16
check_grep "the remark is noted" "'-3% regression' after the values is the author's remark" <(explain annotations)
imp kernbench-remarks --variant dave
check_eq "kernbench: remarks after (sd) are dropped, the values and sds kept" \
	"$rc $(val dave elapsed jobs=24,load=optimal) $(val dave system jobs=24,load=optimal) $(val dave context_switches jobs=24,load=optimal)" \
	"0 424.486/16.7365 419.24/62.4507 393363/268899"
check_eq "kernbench: six summaries, no remark stored" "$(sql "select count(*) from summary_v")" 6
check_grep "kernbench: the remark is noted" "'-45% regression' after the System Time value is the author's remark" \
	<(explain kernbench-remarks)
imp kernbench-side-by-side --variant x
check_eq "kernbench: two columns nothing names are refused" "$rc" 2
check_grep "kernbench: the refusal says what is there (not 'expected (std deviation)')" \
	"kernbench-side-by-side.txt:1: no benchmark output stored: sidebyside: kernbench pasted 2 times side by side, but nothing names its columns" \
	"$TMP/kernbench-side-by-side.out"

# 5. Same-named tables under headings that differ by the load.
imp loads-kernbench
check_eq "loads: four tables, four configs" \
	"$rc $(sql "select group_concat(config, ' ') from (select distinct config from summary_v order by config) q")" \
	"0 jobs=64 load=16xcpus load=2xcpus load=maximal"
check_eq "loads: each table's own numbers" \
	"$(val tree-a elapsed load=2xcpus) $(val tree-a elapsed load=16xcpus) $(val tree-a elapsed load=maximal) $(val tree-a elapsed jobs=64)" \
	"44 44.3 44.4 45"

# 6. autonuma's Testcase table with StdDev.
imp autonuma-stddev
check_eq "autonuma StdDev: the sd of the summary" \
	"$rc $(val 3.9.0 elapsed test=numa01) $(val 3.9.0 elapsed test=numa02)" "0 120.96/1.17 37.09/0.31"
check_eq "autonuma StdDev: min and max kept" \
	"$(sql "select printf('%g %g', min, max) from summary_v where config = 'test=numa01'")" "118.98 122.37"
