#!/bin/bash
# hackbench acceptance: lkp's wrapper logs (best/mean/worst and lkp's
# throughput) and the mmtests trees.
. tests/lib.sh

LKP="$SHARED/corpus/lkp/hackbench"
check_status "lkp hackbench log imports" 0 "$KB" import --variant lkp1 "$LKP/hackbench"
# lkp: throughput = (tasks * messages * bytes >> 10) / time, best = min time.
yaml() { awk -F': ' -v k="$2" '$1 == k { print $2 }' "$1"; }
tp() { sql "select (CAST(10240 AS BIGINT) * 30000 * 100 / 1024) / $1(value) from samples_v where variant = 'lkp1' and metric = 'time'"; }
check_near "lkp throughput_best from the best time" "$(tp min)" "$(yaml "$LKP/hackbench.yaml" throughput_best)" 1e-6
check_near "lkp throughput_worst from the worst time" "$(tp max)" "$(yaml "$LKP/hackbench.yaml" throughput_worst)" 1e-6
check_near "lkp throughput_avg from the mean time (lkp rounds to 2 dp)" "$(tp avg)" "$(yaml "$LKP/hackbench.yaml" throughput_avg)" 1e-8
check_eq "best, mean, worst times" "$(sql "select printf('%.3f %.4f %.3f', min(value), avg(value), max(value)) from samples_v where variant = 'lkp1'")" "9.541 10.2729 12.241"
check_eq "config from the command line and the header" "$(sql "select distinct config from runs_v where variant = 'lkp1'")" \
	"datasize=100,groups=256,impl=rt-tests,ipc=pipe,loops=30000,mode=process,tasks=10240"
check_status "lkp multi-instance log imports" 0 "$KB" import --variant lkp2 "$LKP/hackbench-multi-instance"
check_eq "multi-instance: 16 timings, none failed" \
	"$(sql "select count(*) from samples_v where variant = 'lkp2'"):$(sql "select count(*) from runs_v where variant = 'lkp2' and status = 'failed'")" "16:0"

# mmtests trees: groups and iteration from the file names, variant from the run directory.
MM="$SHARED/corpus/mmtests/prashantph-mmtests_CI"
export KBENCH_DB="$TMP/mm.db"
"$KB" import "$MM" > "$TMP/mm.out" 2>&1; rc=$?
check_eq "the mmtests tree imports" "$rc" "0"
files=$(grep -rl 'Total time:' "$MM" --include='hackbench-*' | wc -l)
check_eq "hackbench samples = files with a 'Total time:' line ($files)" "$(sql "select count(*) from samples_v where benchmark = 'hackbench'")" "$files"
check_eq "hackbench-12-3 -> groups=12, iteration 3" \
	"$(sql "select r.iteration || ' ' || r.config from runs_v r where r.variant = 'hackbench-process-pipes' and r.source like '%/logs/hackbench-12-3'")" \
	"3 groups=12,impl=perf,ipc=pipe,mode=process,tasks=480"
check_eq "variants are the run directories" "$(sql "select group_concat(variant, ' ') from (select distinct variant from runs_v where benchmark = 'hackbench' order by variant) q")" \
	"forkintensive hackbench-process-pipes"
check_eq "groups 1..296: 15 configs in the pipes run" "$(sql "select count(distinct config) from runs_v where variant = 'hackbench-process-pipes' and benchmark = 'hackbench'")" "15"
check_near "the groups=203 outlier iteration is kept" "$(sql "select min(value) from samples_v where variant = 'hackbench-process-pipes' and config like 'groups=203,%' and benchmark = 'hackbench' and metric = 'time'")" 67.175 1e-9
