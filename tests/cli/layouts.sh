#!/bin/bash
# Result trees named with --layout (lkp, mmtests, none) and gzipped logs.
. tests/lib.sh

L="$SHARED/corpus/lkp"
# An lkp result root: two commits, run directories 0 and 1, monitors beside.
P="performance-pipe-8-process-100%"
for c in 0a1b2c3d4e 9f8e7d6c5b; do
	for r in 0 1; do
		d="$TMP/lkp/hackbench/$P/lkp-icl-2sp2/debian-12-x86_64/x86_64-rhel-9.4/gcc-12/$c/$r"
		mkdir -p "$d"
		cp "$L/hackbench/hackbench" "$d/hackbench"
		cp "$L/generated/time/01" "$d/time"
		echo '{"hackbench.throughput": [1]}' > "$d/hackbench.json"
		echo 'testcase: hackbench' > "$d/job.yaml"
		echo 'not a benchmark' | gzip > "$d/kmsg.gz"
		printf '1 2\n3 4\n' > "$d/vmstat"
	done
done
d="$TMP/lkp/kernbench/8-threads/lkp-skl-d01/debian-12-x86_64/x86_64-rhel-9.4/gcc-12/0a1b2c3d4e/0"
mkdir -p "$d"
gzip -c "$L/kernbench/01" > "$d/kernbench.gz"
d="$TMP/lkp/autonuma-benchmark/numa01/lkp-skl-d01/debian-12-x86_64/x86_64-rhel-9.4/gcc-12/0a1b2c3d4e/0"
mkdir -p "$d"
cp "$L/autonuma-benchmark/01" "$d/autonuma-benchmark"

"$KB" import --layout lkp "$TMP/lkp" > "$TMP/lkp.out" 2>&1; rc=$?
check_eq "lkp tree imports" "$rc" "0"
check_eq "only program files are read (4 hackbench, 4 time, kernbench.gz, autonuma-benchmark)" \
	"$(grep -c '^/.*: [a-z,-]*, [0-9]* runs' "$TMP/lkp.out")" "10"
check_eq "other monitors and json/yaml are not even opened" "$(grep -cE 'json|yaml|kmsg' "$TMP/lkp.out")" "0"
# vmstat is a NUMA monitor kbench reads (numamon.c); this one is no vmstat output
check_eq "a 'vmstat' that is no vmstat output is tried and skipped" \
	"$(grep -c '/vmstat: skipped' "$TMP/lkp.out")" "4"
check_eq "variants are the commits" \
	"$(sql "select group_concat(variant, ' ') from (select distinct variant from runs_v order by 1) q")" "0a1b2c3d4e 9f8e7d6c5b"
check_eq "machine from the host directory" \
	"$(sql "select group_concat(machine, ' ') from (select distinct machine from runs_v order by 1) q")" "lkp-icl-2sp2 lkp-skl-d01"
check_eq "params in the config" \
	"$(sql "select distinct config from runs_v where benchmark = 'hackbench'")" \
	"datasize=100,groups=256,impl=rt-tests,ipc=pipe,loops=30000,mode=process,params=$P,tasks=10240"
n=$(grep -c '^Time:' "$L/hackbench/hackbench")
check_eq "hackbench: run 0 -> iterations 1..$n, run 1 -> $((n + 1))..$((2 * n))" \
	"$(sql "select min(iteration) || '-' || max(iteration) || ' ' || count(*) from runs_v where benchmark = 'hackbench' and variant = '0a1b2c3d4e' and source like '%/0/hackbench'"):$(sql "select min(iteration) || '-' || max(iteration) from runs_v where benchmark = 'hackbench' and variant = '0a1b2c3d4e' and source like '%/1/hackbench'")" \
	"1-$n $n:$((n + 1))-$((2 * n))"
check_eq "time: one run per directory, iterations 1 and 2" \
	"$(sql "select group_concat(iteration, ',') from (select iteration from runs_v where benchmark = 'time' and variant = '9f8e7d6c5b' order by 1) q")" "1,2"
check_eq "byte-identical files in different run directories are different sources" \
	"$(sql "select count(*) from source where path like '%/hackbench'")" "4"
check_eq "gzipped kernbench summaries, variant and params from the path" \
	"$(sql "select variant || ' ' || config || ' ' || mean from summary_v where metric = 'elapsed'")" \
	"0a1b2c3d4e jobs=8,load=optimal,params=8-threads 28.094"
check_eq "autonuma: every numa01 pass is a run" \
	"$(sql "select count(*) from runs_v where benchmark = 'autonuma' and config = 'params=numa01,test=numa01'")" "$(grep -c '^numa01$' "$L/autonuma-benchmark/01")"
"$KB" import --layout lkp "$TMP/lkp" > "$TMP/lkp2.out" 2>&1
check_grep "re-import: everything already imported" "^10 files: .* 10 already imported, 0 failed" "$TMP/lkp2.out"
check_status "unknown layout is a usage error" 2 "$KB" import --layout nosuch "$TMP/lkp"

# --layout none reads every file and gives paths no meaning.
export KBENCH_DB="$TMP/none.db"
"$KB" import --layout none "$TMP/lkp/hackbench/$P/lkp-icl-2sp2/debian-12-x86_64/x86_64-rhel-9.4/gcc-12/0a1b2c3d4e/0" > "$TMP/none.out" 2>&1
check_grep "--layout none: monitors are tried and skipped" "kmsg.gz: skipped" "$TMP/none.out"
check_eq "--layout none: no params from the path" "$(sql "select count(*) from runs_v where config like '%params=%'")" "0"

# --layout mmtests on a copy of one run directory that detection cannot see
# (its iter-0 is below a directory named '.'), the same numbers as detected.
export KBENCH_DB="$TMP/mm.db"
MM="$SHARED/corpus/mmtests/prashantph-mmtests_CI/log.ltccip8.2020-06-03_1400/hackbench-process-pipes"
"$KB" import --layout mmtests "$MM/iter-0/hackbench-process-pipes/logs" > "$TMP/mm.out" 2>&1; rc=$?
check_eq "--layout mmtests on a logs directory" "$rc" "0"
check_eq "only result files: no 'skipped' lines" "$(grep -c ': skipped' "$TMP/mm.out")" "0"
check_eq "variant and groups from the path" \
	"$(sql "select variant || ' ' || iteration || ' ' || config from runs_v where source like '%/logs/hackbench-12-3'")" \
	"hackbench-process-pipes 3 groups=12,impl=perf,ipc=pipe,mode=process,tasks=480"

# Gzipped logs: given directly, in a tree, corrupt.
export KBENCH_DB="$TMP/gz.db"
gzip -c "$SAMPLES/seeds/002_c5c123cd839d7edc.txt" > "$TMP/seed002.txt.gz"
check_status "a .gz file imports" 0 "$KB" import "$TMP/seed002.txt.gz"
check_eq "same runs and samples as the plain file" \
	"$(sql "select count(*) || ' ' || (select count(*) from sample) || ' ' || (select count(*) from summary) from run")" "8 40 4"
check_status "the plain file is the same source (identity is of the text)" 0 "$KB" import "$SAMPLES/seeds/002_c5c123cd839d7edc.txt"
check_eq "... so nothing is added" "$(sql "select count(*) from source")" "1"
mkdir -p "$TMP/mmgz/run/iter-0/hackbench-process-pipes/logs"
gzip -c "$MM/iter-0/hackbench-process-pipes/logs/hackbench-12-3" > "$TMP/mmgz/run/iter-0/hackbench-process-pipes/logs/hackbench-12-3.gz"
check_status "a gzipped mmtests result file in a tree imports" 0 "$KB" import "$TMP/mmgz"
check_eq "... with groups and iteration from its name" \
	"$(sql "select iteration || ' ' || config from runs_v where variant = 'run'")" \
	"3 groups=12,impl=perf,ipc=pipe,mode=process,tasks=480"
before=$(counts)
head -c 300 "$TMP/seed002.txt.gz" > "$TMP/cut.gz"
"$KB" import "$TMP/cut.gz" > "$TMP/cut.out" 2>&1; rc=$?
check_eq "a truncated .gz: exit 2" "$rc" "2"
check_grep "... with a path: message" "cut.gz: truncated gzip data" "$TMP/cut.out"
( head -c 40 "$TMP/seed002.txt.gz"; head -c 200 /dev/zero | tr '\0' 'x'; tail -c +241 "$TMP/seed002.txt.gz" ) > "$TMP/bad.gz"
"$KB" import "$TMP/bad.gz" > "$TMP/bad.out" 2>&1; rc=$?
check_eq "a corrupt .gz: exit 2" "$rc" "2"
check_grep "... with a path: message" "bad.gz: (corrupt|truncated) gzip data" "$TMP/bad.out"
echo "plain text" > "$TMP/fake.gz"
check_status "text named .gz: exit 2" 2 "$KB" import "$TMP/fake.gz"
check_eq "row counts unchanged" "$(counts)" "$before"
check_status "gzip on stdin" 0 sh -c "\"$KB\" import --dry-run --replace - < \"$TMP/seed002.txt.gz\""
if on_sqlite; then check_eq "every stored row has its parent (foreign keys)" "$(sql "pragma foreign_key_check")" ""; fi
