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

# schbench's and perf bench's lkp files: the program file is named after the
# testcase; benchmark from the parser, variant, machine and params from the path.
export KBENCH_DB="$TMP/lkpnew.db"
lkpdir() { echo "$TMP/lkpnew/$1/$2/$3/debian-12-x86_64/x86_64-rhel-9.4/gcc-12/$4/$5"; }
for c in 0a1b2c3d4e 9f8e7d6c5b; do
	for r in 0 1; do
		d=$(lkpdir schbench performance-1-128-30s lkp-icl-2sp2 $c $r)
		mkdir -p "$d"
		cp "$L/schbench/01" "$d/schbench"
	done
	for f in perf-bench-numa-mem perf-bench-syscall perf-bench-mem perf-bench-futex perf-bench-sched-messaging; do
		d=$(lkpdir $f performance-300s lkp-spr-2sp1 $c 0)
		mkdir -p "$d"
		cp "$L/$f/01" "$d/$f"
	done
done
d=$(lkpdir schbench performance-2-instances lkp-icl-2sp2 0a1b2c3d4e 0)
mkdir -p "$d"
gzip -c "$L/schbench/schbench-multi-instance" > "$d/schbench.gz"
cp "$L/vmstat/1" "$d/vmstat"
d=$(lkpdir perf-bench-futex performance-wake-4t lkp-spr-2sp1 0a1b2c3d4e 0)
mkdir -p "$d"
cp "$L/perf-bench-futex/02" "$d/perf-bench-futex"
# lkp's fixtures have no sched pipe file: perf's own output, named as lkp would
d=$(lkpdir perf-bench-sched-pipe performance-100000 lkp-spr-2sp1 9f8e7d6c5b 0)
mkdir -p "$d"
cp tests/data/perfbench/rec-pipe-l100000.txt "$d/perf-bench-sched-pipe"
echo 'testcase: schbench' > "$d/job.yaml"
"$KB" import --layout lkp "$TMP/lkpnew" > "$TMP/lkpnew.out" 2>&1; rc=$?
check_eq "schbench/perf-bench lkp tree imports" "$rc" "0"
check_grep "all 18 program files and the vmstat monitor read, job.yaml not" \
	"^18 files: .* 0 already imported, 0 failed, 0 skipped" "$TMP/lkpnew.out"
check_eq "benchmark per testcase, machine from the host directory, both commits" \
	"$(sql "select group_concat(x, '; ') from (select benchmark || ' ' || machine || ' ' || group_concat(distinct variant) as x from (select * from runs_v order by variant) r group by benchmark, machine order by 1) q")" \
	"hackbench lkp-spr-2sp1 0a1b2c3d4e,9f8e7d6c5b; perf-bench-futex lkp-spr-2sp1 0a1b2c3d4e,9f8e7d6c5b; perf-bench-mem lkp-spr-2sp1 0a1b2c3d4e,9f8e7d6c5b; perf-bench-numa-mem lkp-spr-2sp1 0a1b2c3d4e,9f8e7d6c5b; perf-bench-sched-pipe lkp-spr-2sp1 9f8e7d6c5b; perf-bench-syscall lkp-spr-2sp1 0a1b2c3d4e,9f8e7d6c5b; schbench lkp-icl-2sp2 0a1b2c3d4e,9f8e7d6c5b"
check_eq "every run's variant is its commit directory" \
	"$(sql "select count(*) from runs_v where source not like '%/gcc-12/' || variant || '/%'")" "0"
check_eq "schbench: params beside the command line's configuration" \
	"$(sql "select distinct config from runs_v where benchmark = 'schbench' and source like '%/performance-1-128-30s/%'")" \
	"message_threads=1,params=performance-1-128-30s,runtime=30,threads=128"
n=$(grep -c '^Iteration : ' "$L/schbench/01")
check_eq "schbench: run 0 -> iterations 1..$n, run 1 -> $((n + 1))..$((2 * n))" \
	"$(sql "select group_concat(iteration, ',') from (select iteration from runs_v where benchmark = 'schbench' and variant = '9f8e7d6c5b' order by 1) q")" \
	"$(seq -s, 1 $((2 * n)))"
# the fixture's second iteration ends "average rps: 15943.03"
check_near "schbench: run 1's second iteration's average rps" \
	"$(sql "select s.value from runs_v r join sample s on s.run_id = r.run_id where r.benchmark = 'schbench' and r.variant = '9f8e7d6c5b' and r.iteration = $((n + 2)) and s.metric = 'average_rps'")" 15943.03 1e-9
check_eq "schbench multi-instance (gzipped): instance and params in the config" \
	"$(sql "select group_concat(config, ' ') from (select distinct config from runs_v where benchmark = 'schbench' and config like 'instance=%' order by 1) q")" \
	"instance=1,message_threads=1,params=performance-2-instances,runtime=10,threads=128 instance=2,message_threads=1,params=performance-2-instances,runtime=10,threads=128"
check_eq "vmstat beside schbench: its samples are the schbench run's" \
	"$(sql "select distinct benchmark || ' ' || config from runs_v where source like '%/vmstat'")" "schbench params=performance-2-instances"
# lkp's .yaml values for the same files
check_near "perf-bench-futex hash: ops/s (lkp 491926)" \
	"$(sql "select s.value from runs_v r join sample s on s.run_id = r.run_id where r.variant = '9f8e7d6c5b' and r.config = 'futexes=shared,op=hash,params=performance-300s,threads=8' and s.metric = 'ops_per_sec'")" 491926
check_near "perf-bench-futex wake: wokeup time (lkp 0.0186 ms), params from its directory" \
	"$(sql "select s.value from runs_v r join sample s on s.run_id = r.run_id where r.benchmark = 'perf-bench-futex' and r.config like '%params=performance-wake-4t%' and s.metric not in ('rse_pct')")" 0.0186
check_near "perf-bench-mem: memcpy x86-64-movsq GB/s (lkp 12.328273)" \
	"$(sql "select s.value from runs_v r join sample s on s.run_id = r.run_id where r.variant = '0a1b2c3d4e' and r.config = 'function=x86-64-movsq,op=memcpy,params=performance-300s,size=1MB' and s.metric = 'bandwidth'")" 12.328273
check_near "perf-bench-numa-mem: total-speed (lkp GB_sec_total 31.463)" \
	"$(sql "select s.value from runs_v r join sample s on s.run_id = r.run_id where r.benchmark = 'perf-bench-numa-mem' and r.variant = '9f8e7d6c5b' and r.config like '%params=performance-300s%' and s.metric = 'total-speed'")" 31.463
check_near "perf-bench-syscall: fork usecs/op (lkp 78.9)" \
	"$(sql "select s.value from runs_v r join sample s on s.run_id = r.run_id where r.variant = '0a1b2c3d4e' and r.config = 'loops=10000,params=performance-300s,syscall=fork' and s.metric = 'usecs_per_op'")" 78.9
check_near "perf-bench-sched-messaging as hackbench: time (lkp 0.055)" \
	"$(sql "select s.value from runs_v r join sample s on s.run_id = r.run_id where r.benchmark = 'hackbench' and r.variant = '9f8e7d6c5b' and r.config like '%params=performance-300s%' and s.metric = 'time'")" 0.055
check_near "perf-bench-sched-pipe: usecs/op" \
	"$(sql "select s.value from runs_v r join sample s on s.run_id = r.run_id where r.benchmark = 'perf-bench-sched-pipe' and r.config like '%params=performance-100000%' and s.metric = 'usecs_per_op'")" 6.988040
check_eq "byte-identical perf bench files of two commits are two sources" \
	"$(sql "select count(*) from source where path like '%/perf-bench-mem'")" "2"
"$KB" import --layout lkp "$TMP/lkpnew" > "$TMP/lkpnew2.out" 2>&1
check_grep "re-import: everything already imported" "^18 files: .* 18 already imported, 0 failed" "$TMP/lkpnew2.out"

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
