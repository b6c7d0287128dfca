#!/bin/bash
# Issue 21: perf stat results as people paste them without the block
# around them.  Each input in tests/data/shapes/perfstat2 is a few lines
# written to show one shape (not a real post); the checks are on what a
# user would query: variant, benchmark, config, metric and value, and
# the published mean, sd and n of perf's "+-".
. tests/lib.sh
D=tests/data/shapes/perfstat2

# imp FILE [ARGS...]: import FILE alone into a fresh store ($KBENCH_DB);
# the exit status is in $rc, the output in $TMP/out.
imp() { import_alone "$@"; }
# vals: "variant|config|metric=value" of every perf-stat sample, sorted.
vals() { sample_vals "$@"; }
# sums: "variant|metric mean sd n" of every published summary (sd and n '-' when unknown).
sums() {
	sql "select variant || '|' || metric || ' ' || printf('%.10g', mean) || ' ' ||
	            case when sd is null then '-' else printf('%.4g', sd) end || ' ' || coalesce(nullif(cast(n as text), '0'), '-')
	     from summary_v order by 1"
}

# 1. An -r summary reduced to its elapsed line, under the perf stat
#    command that gives the workload and the number of runs.
imp bare-under-command.txt --variant v
check_eq "bare elapsed line under its command imports" "$rc" 0
check_eq "... the run: cmd from the command, elapsed the mean" "$(mean_vals)" \
	"v|cmd=hackbench -g 4 -l 1000|elapsed=1.2345"
check_eq "... its summary: sd = se * sqrt(10), n = 10 from --repeat 10" "$(sums)" \
	"v|elapsed 1.2345 0.03162 10"
check_eq "... and the mean of 10 runs is not also stored as a one-run sample" \
	"$(sql "select count(*) from samples_v") $(sql "select count(*) from runs_v")" "0 0"
check_eq "... compare uses the summary's n = 10, not one run" \
	"$("$KB" compare --format json 2>/dev/null | jq -r '.rows[] | "\(.n) \(.origin)"')" "10 summary"

# 2. The same line alone: the mean is kept; how many runs, nothing says,
#    so no sd (and the explain says why).
imp bare-alone.txt --variant v
check_eq "bare elapsed line alone imports" "$rc" 0
check_eq "... the mean, no cmd" "$(mean_vals)" "v||elapsed=5.7295"
check_eq "... no sd, no n" "$(sums)" "v|elapsed 5.7295 - -"
imp bare-alone.txt --variant v --explain
check_grep "... explain: the header is missing" "line 5: perf stat: a block without its 'Performance counter stats for' header" "$TMP/out"
check_grep "... explain: the sd is not known" "line 5: perf stat: its '..' is the standard error of the mean over runs that nothing here counts" "$TMP/out"

# 3. perf's older form ("X seconds time elapsed ( +- Z% )") under
#    "# perf stat -r 10 CMD" prompts, each after a setup command typed
#    right above it: the setup tells the runs of one command apart.
imp setup-prompts.txt
check_eq "setup prompts import" "$rc" 0
check_eq "... two runs, the label names the variant, the setup the config" "$(mean_vals)" "$(printf '%s\n' \
	"Without the patch|cmd=hackbench 50,label=echo 0 > events/enable|elapsed=0.790706626" \
	"Without the patch|cmd=hackbench 50,label=echo 1 > events/enable|elapsed=1.566904059")"
check_eq "... sd from the relative +- (rse * mean * sqrt(10)), n = 10" "$(sums)" "$(printf '%s\n' \
	"Without the patch|elapsed 0.790706626 0.01775 10" "Without the patch|elapsed 1.566904059 0.01338 10")"
imp setup-prompts.txt --explain
check_grep "... explain names the setup" "line 5: perf stat: 'echo 0 > events/enable', typed right before perf stat, is the setup" "$TMP/out"

# 4. "[ NAME ]" before each result line names its variant (a trailing
#    ':' is not part of the name); the prompt, a wrapper (taskset) and a
#    nested perf stat: cmd is the inner command, n the outer --repeat.
imp bracket-labels.txt
check_eq "bracket labels import" "$rc" 0
check_eq "... one run per line, the bracket the variant" "$(mean_vals)" "$(printf '%s\n' \
	"+the fix|cmd=perf stat --null --repeat 5 perf bench sched pipe|elapsed=19.3972" \
	"-base|cmd=perf stat --null --repeat 5 perf bench sched pipe|elapsed=19.5514")"
check_eq "... n = 5 from the outer --repeat" "$(sums)" "$(printf '%s\n' \
	"+the fix|elapsed 19.3972 0.04629 5" "-base|elapsed 19.5514 0.05255 5")"
imp bracket-labels.txt --explain
check_grep "... explain says the bracket names the run" "line 8: perf stat: '.the fix' before the numbers names the run" "$TMP/out"

# 5. Counter lines that each begin with their run's name
#    ("KERNEL/TEST:"): the part the names differ in is the variant, the
#    part they share the test.
imp prefixed-runs.txt
check_eq "prefixed lines import" "$rc" 0
check_eq "... two runs, variant and test from the names" "$(mean_vals)" "$(printf '%s\n' \
	"6.9.0-lazy|test=pipe.60|context-switches=177889639" "6.9.0-lazy|test=pipe.60|elapsed=30.731126312" \
	"6.9.0|test=pipe.60|context-switches=170719761" "6.9.0|test=pipe.60|elapsed=30.833112186")"
check_eq "... means kept, sd unknown (no run count)" "$(sums)" "$(printf '%s\n' \
	"6.9.0-lazy|context-switches 177889639 - -" "6.9.0-lazy|elapsed 30.73112631 - -" \
	"6.9.0|context-switches 170719761 - -" "6.9.0|elapsed 30.83311219 - -")"
imp prefixed-runs.txt --explain
check_grep "... explain says how the name was split" "line 8: perf stat: '6.9.0-lazy/pipe.60' before the numbers names the run: variant '6.9.0-lazy'" "$TMP/out"

# 6. Named counter lines with no elapsed line, and a list's number before
#    an elapsed line, are no result: nothing is stored under a guess.
imp prefixed-not-runs.txt
check_eq "named counters without elapsed, numbered line: nothing read" "$rc" 2
check_grep "... says no output was recognised" "no benchmark output recognised" "$TMP/out"

# 7. A block without its header needs perf's elapsed line, not two
#    counters: one counter and the elapsed line are a run.
imp one-counter-headerless.txt --variant v
check_eq "one counter and elapsed import" "$rc" 0
check_eq "... both read" "$(vals)" "$(printf '%s\n' "v||cpu-migrations=5819" "v||elapsed=1.784171745")"

