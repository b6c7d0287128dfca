#!/bin/bash
# Real-post shapes found in the held-out posts of tests/realposts (the
# 500s and 600s), one small input each in tests/data/shapes/posts3:
# run tags before GNU time lines, a quoted line's own indentation, a
# release named in a sentence, perf's generic counters pasted without
# header or elapsed line, sibling labels, one spelling per variant,
# perf's labelled elapsed lines under a heading inline-mean cannot read,
# a heading that sizes its system, hackbench's Time above perf stat's
# report of its command, kernbench's "(vs ...)" column.
. tests/lib.sh
D=tests/data/shapes/posts3

vals() {        # variant|machine|config|metric=value of samples (or S summaries)
	sql "select variant || '|' || coalesce(machine, '') || '|' || config || '|' || metric || '=' ||
	     printf('%.10g', value) from samples_v where metric in ($1) order by 1"
}
means() {       # the same of summaries (perf stat -r's means are summaries only)
	sql "select variant || '|' || coalesce(machine, '') || '|' || config || '|' || metric || '=' ||
	     printf('%.10g', mean) from summary_v where metric in ($1) order by 1"
}

# 1. "A:  35.57user ..." : a run's tag, not a variant; the label above names it.
import_alone time-run-tags.txt
check_eq "run tags: the file imports" "$rc" 0
check_eq "... each tagged line one run of its label's variant" "$(vals "'user'")" "$(printf '%s\n' \
	"2.4.x|||user=28.32" "2.4.x|||user=28.54" \
	"2.6.7-rc2-bk8-s63|||user=35.48" "2.6.7-rc2-bk8-s63|||user=35.54" "2.6.7-rc2-bk8-s63|||user=35.57")"
check_eq "... five runs, not variants A, B, C" \
	"$(sql "select variant || ':' || count(*) from runs_v group by variant order by 1")" \
	"$(printf '%s\n' "2.4.x:2" "2.6.7-rc2-bk8-s63:3")"
import_explained $D/time-run-tags.txt
check_grep "... --explain says the tag tells the runs apart" "'A' before the report tags the run, not a variant" "$TMP/out"
check_grep "... and which sentence named 2.4.x" "variant 2.4.x: label line 11 names it" "$TMP/out"

# 2. A tag the post's legend defines names the legend's variant.
import_alone time-legend-tags.txt
check_eq "legend tags: A's run is A's, B's is B's" "$(vals "'user'")" "$(printf '%s\n' "A|||user=35.57" "B|||user=35.54")"

# 3. A quoted line keeps its own indentation: "> >  2.6.7-rc2-bk8-s63:"
#    under "> > ... between" is a label of its own, not the sentence's end.
import_alone quoted-indent.mail
check_eq "quoted indentation: the label under the sentence names the runs" \
	"$(sql "select group_concat(distinct variant) from runs_v")" "2.6.7-rc2-bk8-s63"

# 4. perf's generic events pasted without header or elapsed line, one
#    "(70.1%)" glued to a name; sibling labels "tips numa/core:" / "autoNUMA:".
import_alone perf-generic-counters.txt
check_eq "generic counters: both blocks, each under its own label" "$(vals "'node-loads', 'node-load-misses'")" \
	"$(printf '%s\n' "autoNUMA|||node-load-misses=2666374830" "autoNUMA|||node-loads=4538975144" \
	"tips numa/core|||node-load-misses=3806419082" "tips numa/core|||node-loads=5429632865")"
import_alone counted-lines.txt
check_eq "... counts of words perf does not print are not perf's" "$rc" 2
check_grep "... and the file says so" "no benchmark output recognised" "$TMP/out"

# 5. One spelling per variant: "without the patch" is "Without the patch".
import_alone spelling.txt
check_eq "spelling: one variant, two runs" "$(sql "select variant || ':' || count(*) from runs_v group by variant order by 1")" \
	"$(printf '%s\n' "With the patch:1" "Without the patch:2")"
import_explained $D/spelling.txt
check_grep "... --explain says which spelling was read" "variant 'without the patch' is 'Without the patch' of line 3" "$TMP/out"

# 6. perf's labelled elapsed lines under a heading that names no benchmark
#    inline-mean reads ("a workload of 'perf bench sched pipe'").
import_alone perf-bracket-inline.txt
check_eq "bracket labels: both lines, each its label's" "$(means "'elapsed'")" "$(printf '%s\n' \
	"+the commit||cmd=perf bench sched pipe|elapsed=19.3972" "-vanilla||cmd=perf bench sched pipe|elapsed=19.5514")"

# 7. "Smaller system ( 12Cores, 96CPUS)": two systems' baselines are not pooled.
import_alone sized-systems.txt
check_eq "sized systems: each section on its own machine" "$(means "'elapsed'")" "$(printf '%s\n' \
	"baseline|320-cpu|cmd=system-wide|elapsed=26.403" "baseline|96-cpu|cmd=system-wide|elapsed=55.93" \
	"patched|320-cpu|cmd=system-wide|elapsed=32.368" "patched|96-cpu|cmd=system-wide|elapsed=65.75")"
"$KB" compare --bench perf-stat --metric elapsed --baseline baseline --machine 96-cpu > "$TMP/c.txt" 2>&1
check_grep "... compare on one machine gives its change, +17.6%" "[+]17\.6 " "$TMP/c.txt"

# 8. hackbench's bare Time right above perf stat's report of its command.
import_alone time-then-perf.txt
check_eq "time then perf: the hackbench run has the command's configuration" \
	"$(sql "select config || ' ' || value from samples_v where benchmark = 'hackbench'")" \
	"groups=4,impl=rt-tests,ipc=socket,loops=10000 189.947"

# 9. kernbench "Elapsed Time 573.582 (vs 576.196)": the Subject's release
#    is the "(vs ...)" side, the one patch file linked is the first.
import_alone kernbench-vs.mail
check_eq "kernbench (vs): both sides" \
	"$(sql "select variant || ' ' || metric || '=' || printf('%.10g', mean) from summary_v where metric in ('elapsed', 'user') order by 1")" \
	"$(printf '%s\n' "2.6.6 elapsed=576.196" "2.6.6 user=1582.19" "2.6.6-spa elapsed=573.582" "2.6.6-spa user=1576.36")"
"$KB" compare --bench kernbench --metric elapsed --baseline 2.6.6 > "$TMP/c.txt" 2>&1
check_grep "... compare gives the author's -0.45% (shown as -0.5)" " -0\.5 " "$TMP/c.txt"
import_alone kernbench-vs-unnamed.mail
check_eq "... a Subject without a release: the other side is not stored" \
	"$(sql "select count(distinct variant) || ' ' || count(*) from summary_v")" "1 6"
import_explained $D/kernbench-vs-unnamed.mail
check_grep "... and --explain says why" "values are another kernel's, which the post does not name" "$TMP/out"

# 10. A perf stat command line typed in the prose above headerless blocks:
#     their command, and n (--repeat 10) turns each '+-' into an sd.
import_alone perf-cmdline-prose.txt
check_eq "perf command in prose: command and n of both blocks" \
	"$(sql "select variant || '|' || config || '|' || n || '|' || printf('%.4f', sd) from summary_v where metric = 'elapsed' order by 1")" \
	"$(printf '%s\n' "829c1651e9c4 - sched/fair: sanitize vruntime of entity being placed|cmd=perf bench sched messaging -g 50 -l 5000|10|0.0939" \
	"a2e90611b9f4 - sched/fair: Remove capacity inversion detection|cmd=perf bench sched messaging -g 50 -l 5000|10|0.0693")"
import_explained $D/perf-cmdline-prose.txt
check_grep "... --explain names the line" "the command line at line 3 says what ran" "$TMP/out"

# 11. Hand-merged perf stat columns take the column heads above them.
import_alone perf-columns-heads.txt
check_eq "perf columns: each column its head's, sd from the '+-' and 5 runs" \
	"$(sql "select variant || '|' || metric || '=' || printf('%.10g', mean) || '|' || n || '|' || printf('%.2f', sd) from summary_v order by metric, variant")" \
	"$(printf '%s\n' "v5.4|context-switches=43373|5|387.94" "v5.4 + patch|context-switches=44597|5|548.47" \
	"v5.4|cpu-migrations=1211|5|136.48" "v5.4 + patch|cpu-migrations=220|5|30.65")"
import_alone perf-columns-noheads.txt
check_eq "... without heads the columns are left out" "$rc" 2
check_grep "... with the reason" "which variant each column is, the block does not say" "$TMP/out"
