#!/bin/bash
# Issue 21: hackbench as people paste it into posts.  Each input in
# tests/data/shapes/hackbench is a few lines written for one shape (not
# a real post); the checks are on what a user would look up: variant,
# benchmark, config, metric and value.
. tests/lib.sh
D=tests/data/shapes/hackbench

# imp FILE [ARGS]: import FILE alone into a fresh store named after it.
imp() {
	local f=$1; shift
	export KBENCH_DB="$TMP/$(basename "$f" .txt).db"
	"$KB" import "$@" "$D/$f" > "$TMP/out" 2>&1
}
# rows: "variant|benchmark|config|metric|value" of every sample, in order.
rows() {
	sql "select r.variant || '|' || r.benchmark || '|' || r.config || '|' || s.metric || '|' ||
		printf('%.10g', s.value) from runs_v r join samples_v s using (run_id) order by r.run_id"
}
explain() { "$KB" import --explain "$@" > "$TMP/explain" 2>&1; }

# 1. Indented by four blanks or a TAB: read as if flush left.
check_status "indented output imports" 0 imp indented.txt --variant v
check_eq "indented: both runs, config from their headers" "$(rows)" \
"v|hackbench|datasize=512,groups=20,impl=rt-tests,loops=800,mode=thread,tasks=800|time|2.345
v|hackbench|datasize=512,groups=20,impl=rt-tests,loops=800,mode=thread,tasks=800|time|2.401"

# 2. rt-tests' header wrapped by the mailer (at any word), or cut short
# of its "each (== N tasks)": groups, tasks and mode are kept.
check_status "wrapped headers import" 0 imp wrapped-header.txt --variant v
check_eq "wrapped headers: groups, tasks, mode of each run" "$(rows)" \
"v|hackbench|datasize=100,groups=10,impl=rt-tests,loops=100,mode=process,tasks=400|time|1.234
v|hackbench|datasize=100,groups=8,impl=rt-tests,loops=100,mode=thread,tasks=320|time|1.111
v|hackbench|datasize=100,groups=4,impl=rt-tests,loops=100,mode=process,tasks=160|time|0.777"
explain "$D/wrapped-header.txt"
check_grep "explain: the wrapped header is one line" "line 3: header wrapped over lines 3-4, read as one line" "$TMP/explain"
check_grep "explain: tasks of a cut header" "line 12: header without its '\(== N tasks\)': tasks = 4 groups x 40 descriptors" "$TMP/explain"

# 3. Shell prompts before each run: their arguments give what the output
# leaves out, as the program named reads them (rt-tests ignores words).
check_status "prompts import" 0 imp prompts.txt --variant v
check_eq "prompts: each run's config from its command, the output winning" "$(rows)" \
"v|hackbench|datasize=512,groups=20,impl=rt-tests,ipc=socket,loops=800|time|2
v|hackbench|groups=40,impl=legacy,ipc=socket,loops=500,mode=thread|time|3
v|hackbench|datasize=100,groups=4,impl=rt-tests,ipc=pipe,loops=1000,mode=thread,tasks=160|time|0.5
v|hackbench|datasize=100000,groups=10,impl=rt-tests,ipc=socket,loops=100,mode=process,tasks=400|time|4.401"
check_eq "prompts: the prompt's host is the machine" \
	"$(sql "select coalesce(machine, '-') from runs_v order by run_id" | tr '\n' ' ')" "- box box - "
explain "$D/prompts.txt"
check_grep "explain: rt-tests' ignored words" "line 11: command: rt-tests hackbench \(it has options\) ignores the words 'process 10 1000'; not used" "$TMP/explain"
check_eq "prompts: no segment without a run" "$(grep -c ': 0 runs' "$TMP/explain")" 0

# 4. Command lines are not output: a driver script alone is refused, and
# beside its output only the output counts.
check_status "a driver script alone is no benchmark output" 2 imp driver-script.txt
check_grep "it says so" "driver-script.txt:1: no benchmark output recognised" "$TMP/out"
check_status "script and output import" 0 imp driver-script-and-output.txt --variant v
check_eq "script and output: the two printed runs only" "$(rows)" \
"v|hackbench|groups=10,impl=legacy,tasks=400|time|1.5
v|hackbench|groups=10,impl=legacy,tasks=400|time|1.6"
explain "$D/driver-script-and-output.txt"
check_eq "script and output: no segment of 0 runs" "$(grep -c ': 0 runs' "$TMP/explain")" 0
# An example of the output (headers, no result) in a post is not a run.
check_status "an output example alone is no benchmark output" 2 imp output-example.txt

# 5. Annotations after the time: the value kept, the annotation a note;
# a unit that is not seconds is no result.
check_status "annotated times import" 0 imp annotated.txt --variant v
check_eq "annotated: four times, as printed" "$(rows | cut -d'|' -f4,5)" \
"time|3.12
time|2.95
time|3.01
time|3"
explain "$D/annotated.txt"
check_grep "explain: the annotation left out" "line 5: time 3.120 kept, the annotation '\( \+ 3 % vs base\)' after it left out" "$TMP/explain"
check_grep "explain: a regression note left out" "line 8: time 2.950 kept, the annotation '-45% regression' after it left out" "$TMP/explain"
check_status "milliseconds are not stored as seconds" 2 imp time-other-unit.txt
check_eq "nothing stored from it" "$(sql "select count(*) from samples_v" 2>/dev/null || echo 0)" 0

# 6. The author's average after a block: a published mean with n = the
# block's runs, under the block's variant and config; never a run; left
# out when it is not the runs' mean.
check_status "averages import" 0 imp average.txt
check_eq "average: the runs are the five printed" "$(sql "select count(*) from samples_v")" 5
check_eq "average: the matching one is a summary of its block" \
	"$(sql "select variant || '|' || benchmark || '|' || config || '|' || metric || '|' || printf('%.10g', mean) || '|' || n from summary_v")" \
	"Before the patch|hackbench|groups=10,impl=legacy,tasks=400|time|4.1333|3"
explain "$D/average.txt"
check_grep "explain: why the other is left out" "line 19: the author's average 3.5 left out: the mean of the 2 runs above it is 3.1" "$TMP/explain"

# 7. perf bench sched messaging: groups, tasks, mode from its own lines,
# loops and ipc from the prompt.
check_status "perf bench messaging imports" 0 imp perf-messaging.txt --variant v
check_eq "perf bench: config from its lines and its command" "$(rows)" \
"v|hackbench|groups=20,impl=perf,ipc=pipe,loops=1000,mode=thread,tasks=800|time|0.234
v|hackbench|groups=10,impl=perf,ipc=socket,loops=500,mode=process,tasks=400|time|0.101"

# Several results on one line after the command (the first hackbench posts).
check_status "runs on one line import" 0 imp runs-on-one-line.txt --variant v
check_eq "runs on one line: one run each, groups from the command" "$(rows)" \
"v|hackbench|groups=50,impl=legacy,ipc=socket|time|851.469
v|hackbench|groups=50,impl=legacy,ipc=socket|time|847.143
v|hackbench|groups=50,impl=legacy,ipc=socket|time|826.868
v|hackbench|groups=10,impl=legacy,ipc=socket|time|15.12
v|hackbench|groups=10,impl=legacy,ipc=socket|time|14.766"

# Runs listed after a label under one printed header ("w/o: 7.689 ...
# 7.674=7.5853"): one run each of the header's config, named by the
# label; a line of numbers alone goes on with the list (wrapped); the
# "=MEAN" the author's mean, kept when it is the runs' mean.
check_status "labelled run lists import" 0 imp labelled-runs.txt
check_eq "labelled runs: variant from the label, config from the header" "$(rows | sed 's/|.*|/ /')" \
"vanilla 1.1
vanilla 1.2
vanilla 1.3
patched 1
patched 1.02
patched 1.04
with the fix reverted 1.5
with the fix reverted 1.6"
check_eq "labelled runs: every run has the header's config" \
	"$(sql "select distinct config from runs_v")" "datasize=100,groups=2,impl=rt-tests,loops=1000,mode=thread,tasks=80"
check_eq "labelled runs: the matching =MEAN is a summary" \
	"$(sql "select variant || '|' || printf('%.10g', mean) || '|' || n from summary_v")" "patched|1.02|3"
explain "$D/labelled-runs.txt"
check_grep "explain: the slip is left out" "line 9: the author's average 1.70 left out: the mean of the 2 runs above it is 1.55" "$TMP/explain"
# A table over the group count under an example header is no list of
# runs: its rows spread by factors, and a sentence is no label.
check_status "a transposed table under an example header is no run" 2 imp transposed-under-header.txt

# A command alone in the prose above labelled blocks ("hackbench -g 4
# ... --pipe ..." / "Before patch:" / output): the output never prints
# pipes or sockets, so the command's ipc is the runs', for each block up
# to the next command or sentence; a command whose groups disagree with
# the printed ones, or one a sentence parts from the output, gives none.
check_status "prose command above labels imports" 0 imp prose-command-above-labels.txt
check_eq "prose command: ipc of each pair from its command" "$(rows | sed 's/datasize=64,groups=4,impl=rt-tests,//; s/loops=2000,mode=process,tasks=80|time|//')" \
"Before patch|hackbench|ipc=socket,3.21
After patch|hackbench|ipc=socket,3.105
Before patch|hackbench|ipc=pipe,1.502
After patch|hackbench|ipc=pipe,1.498
Before patch|hackbench|1.611
After patch|hackbench|1.6"
explain "$D/prose-command-above-labels.txt"
check_grep "explain: where the ipc came from" "line 7: hackbench: pipes or sockets from the command 'hackbench -g 4 -f 10 -l 2000 -s 64' of line 4 above it" "$TMP/explain"
# A heading that names a mode ends the command above it: "pipe mode:"
# over blocks the socket command did not run.
check_status "a mode heading after a prose command imports" 0 imp prose-command-mode-heading.txt
check_eq "mode heading: the socket command stops at 'pipe mode:'" \
	"$(sql "select config from runs_v order by run_id" | sed 's/datasize=64,groups=4,impl=rt-tests,//; s/,\{0,1\}loops=2000,mode=process,tasks=80//' | tr '\n' ';')" \
	"ipc=socket;;"
