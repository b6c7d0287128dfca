#!/bin/bash
# Real-post shapes of kernbench's own output: kernbench 0.3x's "Average
# Optimal -j 128 Load Run:" heading, values with a decimal comma, and the
# boot setting that names each block (cpusched=staircase).
. tests/lib.sh
D=tests/data/shapes/kernbench
check_status "0.3x heading, decimal commas, cpusched= labels import" 0 "$KB" import $D/old-heading-decimal-comma.txt
check_eq "... the values read with the comma as decimal mark, under the scheduler each line names" \
	"$(sql "select variant || ' ' || config || ' ' || metric || '=' || printf('%.10g', mean) from summary_v where metric in ('elapsed', 'context_switches', 'sleeps') order by variant, metric")" \
	"$(printf '%s\n' "ingosched jobs=128,load=optimal context_switches=38296.8" "ingosched jobs=128,load=optimal elapsed=365.4" \
		"ingosched jobs=128,load=optimal sleeps=37867" "staircase jobs=128,load=optimal context_switches=96470.2" \
		"staircase jobs=128,load=optimal elapsed=611.6" "staircase jobs=128,load=optimal sleeps=122413")"
check_status "import --explain" 0 "$KB" import --explain $D/old-heading-decimal-comma.txt
check_grep "... says the comma is the decimal mark, and why" "',' is the decimal mark in this block \('365,4'" "$TMP/.out"
export KBENCH_DB="$TMP/mixed.db"
check_status "a block with '365,4' and '38,296' is refused" 2 "$KB" import $D/mixed-commas.txt
check_grep "... naming both readings' lines" "mixed-commas.txt:6: kernbench: ',' separates thousands here but is a decimal mark on line 2" "$TMP/.out"

# Blocks cut down to the lines a post talks about, under old headings
# ("Average Optimum Load Run:", "Average Maximal -j Load Run:"), each
# kernel named by its release and where its results are.
export KBENCH_DB="$TMP/partial.db"
check_status "partial blocks under old headings import" 0 "$KB" import $D/partial-blocks.txt
check_eq "... each block's elapsed, under the release line above it" \
	"$(sql "select variant || ' ' || config || ' ' || printf('%.10g', mean) from summary_v order by variant, config")" \
	"$(printf '%s\n' "2.6.4 load=half 112.084" "2.6.4 load=maximal 80.926" "2.6.4 load=optimal 79.07" \
		"2.6.4-s jobs=64,load=optimal 78.6866" "2.6.4-s jobs=8,load=half 106.59" "2.6.4-s load=maximal 83.2134")"
check_status "import --explain" 0 "$KB" import --explain $D/partial-blocks.txt
check_grep "... says what each block leaves out" "the block gives 1 of 6 values; not in it: User Time, System Time" "$TMP/.out"
