#!/bin/bash
# Issue 21: more tables with one column per variant and outputs pasted in
# columns (ingest/sidebyside.c), as the held-out posts write them.  Each
# input in tests/data/shapes/sidebyside2 is a few lines written for one
# shape; each test checks the stored numbers a user would check (variant,
# benchmark, config, metric, value).
. tests/lib.sh
D=tests/data/shapes/sidebyside2

# Import one file into a fresh store; its exit status is import's, and
# $TMP/out holds what import and import --explain said.
imp() { import_explained "$@"; }

# summaries as "variant|config|mean|sd|n" (sd to 4 digits; n empty when the
# text does not state it), sorted
sums() {
	sql "select variant || '|' || config || '|' || printf('%g', mean) || '|' ||
		case when sd is null then '' else printf('%.4g', sd) end || '|' || coalesce(cast(n as text), '') from summary_v
		where benchmark = '$1' and metric = '$2' order by variant, config"
}

# runs' samples as "variant|config|value", sorted
samples() {
	sql "select variant || '|' || config || '|' || printf('%g', value) from samples_v
		where benchmark = '$1' and metric = '$2' order by variant, config, value"
}

# 1. One kernbench heading over a line of names with spaces and '%', blank
#    lines around the names, "mean (sd)" cells, a derived Total row.
imp $D/kernbench-names-sd-total.txt
check_eq "kb names: imports" "$?" 0
check_eq "kb names: elapsed per column, sd, load and -j from 'Average Optimal -j 4 Load Run:'" \
	"$(sums kernbench elapsed)" \
"Fix + cap 50%|jobs=4,load=optimal|510.2|2.25|
Stock 2.6|jobs=4,load=optimal|500.5|1.5|
With fix|jobs=4,load=optimal|490|0.4|"
check_eq "kb names: rows after the Total row are read" "$(sums kernbench context_switches)" \
"Fix + cap 50%|jobs=4,load=optimal|80000|150.8|
Stock 2.6|jobs=4,load=optimal|40000.5|100.3|
With fix|jobs=4,load=optimal|39000|90.5|"
check_eq "kb names: '(0)' is an sd of 0" \
	"$(sql "select printf('%g', sd) from summary_v where variant = 'Stock 2.6' and metric = 'percent_cpu'")" 0
check_eq "kb names: the Total row is no value" \
	"$(sql "select count(*) from summary_v where mean in (990.5, 978.5, 996)")" 0
check_grep "kb names: explain says the Total row is left out" "row 'Total' is derived" "$TMP/out"

# 2. Two kernbench outputs in columns, each its own heading, named by
#    "kernel: NAME" over them; a Host: line is not a name.
imp $D/kernbench-columns-named.txt
check_eq "kb columns: imports" "$?" 0
check_eq "kb columns: elapsed per kernel and load ('Average Maximal -j Load Run:' is maximal)" \
	"$(sums kernbench elapsed)" \
"2.6.9-base|jobs=16,load=optimal|100||
2.6.9-base|load=maximal|98.5||
2.6.9-lru|jobs=16,load=optimal|95.5||
2.6.9-lru|load=maximal|97.25||"
check_eq "kb columns: the right column's sleeps" \
	"$(sql "select printf('%g', mean) from summary_v where variant = '2.6.9-lru' and metric = 'sleeps' and config like '%optimal%'")" 21000.5
check_eq "kb columns: no variant from the Host: line" \
	"$(sql "select count(*) from summary_v where variant like '%box%' or variant like 'kernel%'")" 0

# 3. Two loads in two columns under "=== name ===" banners: the columns are
#    one variant, the banner's; footnote marks after a value dropped; n from
#    "the average of 3 runs" above.
imp $D/kernbench-columns-loads.txt
check_eq "kb loads: imports" "$?" 0
check_eq "kb loads: each column its load, the banner the variant" "$(sums kernbench elapsed)" \
"patched|jobs=2,load=half|201.5||3
patched|jobs=8,load=optimal|110.5||3
unpatched|jobs=2,load=half|200.5||3
unpatched|jobs=8,load=optimal|120.25||3"
check_eq "kb loads: a value with a footnote mark after it" \
	"$(sql "select printf('%g', mean) from summary_v where variant = 'patched' and metric = 'system' and config like '%optimal%'")" 25.75
check_grep "kb loads: explain names the dropped mark" "'---\(\*2\)' after a value" "$TMP/out"

# 4. Two columns of one load and nothing naming them: refused, not guessed.
imp $D/kernbench-columns-unnamed.txt
check_eq "kb unnamed: nothing stored, exit 2" "$?" 2
check_grep "kb unnamed: the reason" "which column is which variant cannot be told" "$TMP/out"
check_eq "kb unnamed: no summary" "$(sql "select count(*) from summary_v")" 0

# 5. A hackbench table keyed by "num_group", a change column named over two
#    header lines, a bounded change ">700%" on one row only; the command a
#    paragraph above is for other text, not the table's config.
imp $D/numgroup-bounded-change.txt
check_eq "num_group: imports" "$?" 0
check_eq "num_group: groups from the row key, no config from the command above" "$(sums hackbench time)" \
"+ fix|groups=50|19.875||
+ fix|groups=60|25.5||
+ fix|groups=70|60.125||
2.6.30-base|groups=50|20.125||
2.6.30-base|groups=60|30.25||
2.6.30-base|groups=70|500.75||"
check_eq "num_group: the ratio column is no variant, '>700%' no value" \
	"$(sql "select count(*) from summary_v where variant in ('ratio', 'improvement') or mean = 700")" 0
check_grep "num_group: explain says why the command is not taken" "names hackbench anew" "$TMP/out"

# 6. A tab-led header (its first cell empty) over numbered run rows
#    run1..run3 and an avg(s) row; the command gives the config; a legend
#    "build1: v6.5" describes a column and is no config.
imp $D/numbered-runs-avg-legend.txt
check_eq "numbered runs: imports" "$?" 0
check_eq "numbered runs: one run per cell, config from the testcase line" "$(samples hackbench time)" \
"build1|groups=20,ipc=pipe,loops=5000,mode=thread|10.5
build1|groups=20,ipc=pipe,loops=5000,mode=thread|10.7
build1|groups=20,ipc=pipe,loops=5000,mode=thread|10.9
build2|groups=20,ipc=pipe,loops=5000,mode=thread|9.5
build2|groups=20,ipc=pipe,loops=5000,mode=thread|9.7
build2|groups=20,ipc=pipe,loops=5000,mode=thread|9.9"
check_eq "numbered runs: the run numbers are the iterations" \
	"$(sql "select group_concat(iteration) from (select iteration from samples_v where variant = 'build2' order by iteration) q")" "1,2,3"
check_eq "numbered runs: the avg(s) row is no value and no summary" \
	"$(sql "select (select count(*) from summary_v) + (select count(*) from samples_v where value = 10.7 and iteration not in (2))")" 0
check_eq "numbered runs: the legend describes the variants" \
	"$(sql "select name || '=' || description from variant_v order by name")" \
"build1=v6.5
build2=v6.5 + the fix"
check_grep "numbered runs: explain says the avg row is left out" "row 'avg\(s\)' is a statistic" "$TMP/out"

# 7. A command with an option kbench does not know: none of it is taken
#    as config (never a default loops=100 under a guess).
imp $D/unknown-option.txt
check_eq "unknown option: imports" "$?" 0
check_eq "unknown option: the runs without a config" \
	"$(sql "select count(*) || '|' || group_concat(distinct config) from samples_v")" "6|"

# 8. kernbench's metrics as rows (User, System) and the variants as
#    columns, under a header set in by one cell, with a change column; a
#    Total row is derived; one table per machine, kept apart by its
#    heading.  The benchmark only from the prose above.
imp $D/kernbench-metric-rows.txt
check_eq "metric rows: imports" "$?" 0
check_eq "metric rows: user per variant and machine" "$(sums kernbench user)" \
"New|label=ppc64|488.25||
New|label=x86-64 small|84.75||
Old|label=ppc64|488.75||
Old|label=x86-64 small|85.25||"
check_eq "metric rows: system" \
	"$(sql "select printf('%g', mean) from summary_v where variant = 'New' and metric = 'system' and config = 'label=ppc64'")" 56.25
check_eq "metric rows: no Total, no change column, no header word as a variant" \
	"$(sql "select count(*) from summary_v where mean in (119.75, 118.5, 545.5, 544.5, -0.59, -2.17) or variant not in ('Old', 'New')")" 0
check_grep "metric rows: explain says Total is left out" "row 'Total' is derived" "$TMP/out"

# 9. The same table under prose that names no benchmark: User/System of
#    what cannot be told, so it is not read.
imp $D/metric-rows-unnamed.txt
check_eq "metric rows, no benchmark: nothing stored" "$(sql "select count(*) from summary_v")" 0

# 10. A quoted box: a bracketed caption as the key's name, a '|' between
#     the columns, an underline row under a bracketed caption, a spacer of
#     '|' alone, a "[ vs. v4.1]" change column; rows after the box's next
#     caption ("524k") are not read.
imp $D/boxed-autonuma-bracket-change.txt
check_eq "boxed: imports" "$?" 0
check_eq "boxed: one column per kernel, the test from the row" "$(sums autonuma elapsed)" \
"NewNUMA|test=numa01|200.5||
NewNUMA|test=numa02_SMT|30.5||
numa/next|test=numa01|150.5||
numa/next|test=numa02_SMT|20.5||
v4.1|test=numa01|300.5||
v4.1|test=numa02_SMT|60.5||"
check_eq "boxed: the change column is no variant" \
	"$(sql "select count(*) from summary_v where variant like '%vs%' or mean in (99.7, 195.1, 524, 638)")" 0
