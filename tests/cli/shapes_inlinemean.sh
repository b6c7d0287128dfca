#!/bin/bash
# Issue 21, item 5: published means written inline, one variant a line
# ("mainline : 3.871(+/- 0.84%)"), under a heading or command line that
# names the benchmark.  One small input per shape in
# tests/data/shapes/inlinemean; each check is what a user would look up:
# variant, benchmark, config, metric, mean, sd, n.
. tests/lib.sh
D=tests/data/shapes/inlinemean

# sums NAME: import NAME.txt alone into a fresh store; one line per
# summary: variant|benchmark|config|metric|mean|sd|n (sd "-" unknown).
sums() {
	local db="$TMP/$1.db"
	if ! KBENCH_DB="$db" "$KB" import "$D/$1.txt" > "$TMP/$1.out" 2>&1; then
		echo "import failed: $(cat "$TMP/$1.out")"
		return
	fi
	KBENCH_DB="$db" sql "select variant || '|' || benchmark || '|' || config || '|' || metric || '|' ||
		printf('%.6g', mean) || '|' || case when sd is null then '-' else printf('%.6g', sd) end || '|' || coalesce(n, 0)
		from summary_v order by benchmark, config, variant"
}
explain() { "$KB" import --explain "$D/$1.txt" > "$TMP/$1.explain" 2>&1; echo "$TMP/$1.explain"; }

# "3.871(+/- 0.84%)": the percent is relative (sd = mean x pct / 100); the
# command line gives the config, "the average of 10 runs" gives n.
check_eq "relative spread under a hackbench command line" "$(sums pct-hackbench)" \
"mainline|hackbench|groups=20,ipc=socket,loops=800|time|3.871|0.0325164|10
patched|hackbench|groups=20,ipc=socket,loops=800|time|4.102|0.086142|10"
check_grep "explain says where benchmark, config and n came from" \
	"inline published means: hackbench time \(heading line 3\), config .*groups=20.*, n 10 \(line 3\); sd = mean x pct / 100" \
	"$(explain pct-hackbench)"

# "12.3 +/- 0.4", "11.9 +- 0.5 s": an absolute spread; a shell prompt with
# perf bench sched messaging is hackbench with impl=perf; n from a prose
# line between the command and the means.
check_eq "absolute spread under perf bench sched messaging" "$(sums abs-perfbench)" \
"v6.8|hackbench|groups=10,impl=perf,ipc=pipe,loops=1000|time|12.3|0.4|5
v6.9-rc1|hackbench|groups=10,impl=perf,ipc=pipe,loops=1000|time|11.9|0.5|5"

# "mean 312.5 stddev 4.1" under "numa01": autonuma's elapsed, test=numa01;
# no run count in the post: n unknown (0), never a guess.
check_eq "mean/stddev words under an autonuma test name" "$(sums meanstddev-numa01)" \
"base|autonuma|test=numa01|elapsed|312.5|4.1|0
numab|autonuma|test=numa01|elapsed|287.25|3.5|0"

# kernbench has several times: the heading must name one.  The second
# block's heading does not: not stored, and explain says why.
check_eq "kernbench: the metric from the heading, jobs from -j" "$(sums kernbench-metric)" \
"batched|kernbench|jobs=32|elapsed|92.1|0.51|5
vanilla|kernbench|jobs=32|elapsed|93.78|0.43|5"
check_grep "a kernbench block with no metric named is left out, with the reason" \
	"line 8: published means not stored: the kernbench heading does not say which time" \
	"$(explain kernbench-metric)"

# Means under no heading that names a benchmark: not stored, with a note;
# the rest of the post is read as usual.
check_eq "no benchmark named: no summary" "$(sums no-benchmark)" ""
check_eq "no benchmark named: the raw run beside it is stored" \
	"$(KBENCH_DB="$TMP/no-benchmark.db" sql "select benchmark || ' ' || value from samples_v")" "hackbench 0.454"
check_grep "no benchmark named: explain says so" \
	"line 5: published means not stored: no heading or command line in the 6 lines above names the benchmark" \
	"$(explain no-benchmark)"

# Labels that are not variants: a statistic, a change, a benchmark.
check_eq "only the variants' lines are stored" "$(sums label-not-variant)" \
"mainline|hackbench|groups=10,ipc=socket,loops=1000|time|2.5|0.025|0
patched|hackbench|groups=10,ipc=socket,loops=1000|time|2.4|0.048|0"
f=$(explain label-not-variant)
check_grep "'Average' is a statistic" "line 5: not stored: the label 'Average' names a statistic" "$f"
check_grep "'improvement' is a change" "line 6: not stored: the label 'improvement' names a change" "$f"
check_grep "'kernbench' is a benchmark" "line 7: not stored: the label 'kernbench' names a benchmark" "$f"

# "4.102 (2.10%)" with no +/- may be a change: not read.  A change the
# author appended after the spread is dropped, with a note.
check_eq "a percent without +/- is not a spread; annotations are dropped" "$(sums not-spread)" \
"tip|hackbench|groups=16,ipc=socket,loops=500|time|3.9|0.039|0
tip+fix|hackbench|groups=16,ipc=socket,loops=500|time|3.8|0.038|0"
f=$(explain not-spread)
check_grep "the percent without +/- is noted" "line 4: not stored: no '\+/-' makes its percent a spread" "$f"
check_grep "the dropped annotation is noted" "line 7: the annotation '-2.6% better' is not stored" "$f"

# Two headings, two configs: each block takes its own command line; a
# count on the first heading ("8 runs each") is not the second's; a line
# with other numbers ("Time: 5.5 ...") ends the look-up, so the third
# block has no heading and is not stored.
check_eq "each block under its own command line" "$(sums two-blocks)" \
"base|hackbench|groups=20,ipc=socket,loops=500,mode=process|time|1|0.01|8
patched|hackbench|groups=20,ipc=socket,loops=500,mode=process|time|0.9|0.018|8
base|hackbench|groups=40,ipc=pipe,loops=400,mode=thread|time|2|0.1|0
patched|hackbench|groups=40,ipc=pipe,loops=400,mode=thread|time|1.8|0.2|0"
check_grep "the block after a line of other numbers is not stored" \
	"line 14: published means not stored: no heading" "$(explain two-blocks)"

# perf stat -r N's summary line after a label, under test headings: the
# "+-" is perf's error of the mean, so sd = it x sqrt(n) with n from
# --repeat in the prose above, for both headings.
check_eq "labelled perf stat elapsed lines under autonuma test headings" "$(sums perf-repeat-autonuma)" \
"mm-a|autonuma|test=numa01|elapsed|146.88|20.6813|10
mm-b|autonuma|test=numa01|elapsed|147.45|42.3429|10
mm-a|autonuma|test=numa02|elapsed|16.03|0.197326|10
mm-b|autonuma|test=numa02|elapsed|16.1281|0.298835|10"
check_eq "without a run count, perf's error of the mean gives no sd" "$(sums perf-norepeat-autonuma)" \
"mm-a|autonuma|test=numa01|elapsed|146.88|-|0"

# A label given twice under one heading: the first is kept.
check_eq "a repeated label is stored once" "$(sums repeated-label)" \
"base|hackbench|groups=8,ipc=socket|time|1.5|0.1|0"
check_grep "the repeated label is noted" "line 5: not stored: 'base' has a mean already under this heading" \
	"$(explain repeated-label)"

# The means are summaries, so they compare as published numbers.
KBENCH_DB="$TMP/pct-hackbench.db" "$KB" compare --baseline mainline --variants mainline,patched \
	--bench hackbench --metric time --format json > "$TMP/cmp.json" 2>&1
check_grep "compare reaches the author's comparison (+5.97%)" '"change_pct": ?5\.9[67]' "$TMP/cmp.json"

# A heading that names a benchmark kbench does not read means of
# (schbench) starts a block of its own: its means are not stored under
# the hackbench heading above it.
check_eq "a block under an unknown benchmark's heading is not the previous one's" \
	"$(sums unknown-subheading)" \
"base|hackbench|groups=20,ipc=socket,loops=800|time|1|0.01|0
patched|hackbench|groups=20,ipc=socket,loops=800|time|0.9|0.018|0"
check_grep "the unknown heading is named" \
	"line 8: published means not stored: the heading \(line 7\) names no benchmark kbench reads means of" \
	"$(explain unknown-subheading)"

# A command line whose option has no readable number: the config is not
# known, so the block is not stored (never under a partial config).
check_status "a bad option value: nothing stored, the file refused with the reason" 2 \
	"$KB" import --db "$TMP/bad-command.db" "$D/bad-command.txt"
check_grep "... which the message gives" \
	"bad-command.txt:4: no benchmark output stored: published means not stored: a hackbench option's number is missing" \
	"$TMP/.out"
check_grep "the bad option is the reason" \
	"line 4: published means not stored: a hackbench option's number is missing or not a number \(line 3\)" \
	"$(explain bad-command)"
