#!/bin/bash
# Issue 23, item 4: perf bench's output: sched pipe (default and
# --format=simple), syscall, mem, numa mem and futex (perf-bench parser),
# sched messaging (the hackbench family: hackbench parser, impl=perf).
# Every value below was read by hand from the file named
# (tests/data/perfbench/README.txt says where each comes from).
. tests/lib.sh
D=tests/data/perfbench

db() { echo "$TMP/v-$1.db"; }
# vals FILE [METRICS]: import FILE alone; one line per sample:
# variant|benchmark|config|metric=value, in run order (METRICS: only those).
vals() {
	local f=$1 m=${2:-}
	export KBENCH_DB=$(db "$f")
	rm -f "$KBENCH_DB"
	"$KB" import "$D/$f" > "$TMP/out" 2>&1 || { echo "import failed ($?): $(cat "$TMP/out")"; return; }
	sql "select variant || '|' || benchmark || '|' || config || '|' || metric || '=' || printf('%.10g', value)
		from samples_v where '$m' = '' or ',$m,' like '%,' || metric || ',%' order by run_id, metric"
}

check_eq "sched pipe: time, usecs/op, ops/sec; loops and mode from the printed line" \
	"$(vals rec-pipe-l100000.txt)" \
"rec-pipe-l100000|perf-bench-sched-pipe|loops=100000,mode=process|ops_per_sec=143101
rec-pipe-l100000|perf-bench-sched-pipe|loops=100000,mode=process|time=0.698
rec-pipe-l100000|perf-bench-sched-pipe|loops=100000,mode=process|usecs_per_op=6.98804"
check_eq "sched pipe -T: between two threads" \
	"$(vals rec-pipe-T-l100000.txt)" \
"rec-pipe-T-l100000|perf-bench-sched-pipe|loops=100000,mode=thread|ops_per_sec=133338
rec-pipe-T-l100000|perf-bench-sched-pipe|loops=100000,mode=thread|time=0.749
rec-pipe-T-l100000|perf-bench-sched-pipe|loops=100000,mode=thread|usecs_per_op=7.49969"
check_eq "--format=simple: the bare seconds under its command line, loops from -l" \
	"$(vals rec-pipe-simple.txt)" \
"rec-pipe-simple|perf-bench-sched-pipe|loops=50000,mode=process|time=0.276"
export KBENCH_DB=$(db rec-pipe-l100000.txt)
check_eq "directions: times lower, ops/sec higher" \
	"$(sql "select name || '=' || better || '/' || unit from metric where benchmark in ('', 'perf-bench-sched-pipe')
		and name in ('time', 'usecs_per_op', 'ops_per_sec') order by name")" \
"ops_per_sec=higher/ops/s
time=lower/s
usecs_per_op=lower/usec"

check_eq "syscall basic: the syscall and its count in the config" \
	"$(vals rec-syscall-basic.txt)" \
"rec-syscall-basic|perf-bench-syscall|loops=1000000,syscall=getppid|ops_per_sec=5102952
rec-syscall-basic|perf-bench-syscall|loops=1000000,syscall=getppid|time=0.195
rec-syscall-basic|perf-bench-syscall|loops=1000000,syscall=getppid|usecs_per_op=0.195965"
check_eq "lkp's syscall log: four syscalls, no '# Running' headers" \
	"$(vals lkp-perf-bench-syscall-01.txt usecs_per_op)" \
"lkp-perf-bench-syscall-01|perf-bench-syscall|loops=10000000,syscall=getppid|usecs_per_op=0.1234
lkp-perf-bench-syscall-01|perf-bench-syscall|loops=10000000,syscall=getpgid|usecs_per_op=0.1456
lkp-perf-bench-syscall-01|perf-bench-syscall|loops=10000,syscall=fork|usecs_per_op=78.9
lkp-perf-bench-syscall-01|perf-bench-syscall|loops=10000,syscall=execve|usecs_per_op=156.7"

check_eq "mem memcpy: one run per function, in GB/s; -l from the prompt" \
	"$(vals rec-mem-memcpy-1MB.txt)" \
"rec-mem-memcpy-1MB|perf-bench-mem|function=default,loops=100,op=memcpy,size=1MB|bandwidth=44.228374
rec-mem-memcpy-1MB|perf-bench-mem|function=x86-64-unrolled,loops=100,op=memcpy,size=1MB|bandwidth=28.587895
rec-mem-memcpy-1MB|perf-bench-mem|function=x86-64-movsq,loops=100,op=memcpy,size=1MB|bandwidth=40.105236
rec-mem-memcpy-1MB|perf-bench-mem|function=x86-64-movsb,loops=100,op=memcpy,size=1MB|bandwidth=38.614571"
check_eq "lkp's mem log: memcpy and memset" \
	"$(vals lkp-perf-bench-mem-01.txt | sed -n '1p;4p;6p')" \
"lkp-perf-bench-mem-01|perf-bench-mem|function=default,op=memcpy,size=1MB|bandwidth=8.24531
lkp-perf-bench-mem-01|perf-bench-mem|function=default,op=memset,size=1MB|bandwidth=10.512233
lkp-perf-bench-mem-01|perf-bench-mem|function=x86-64-stosq,op=memset,size=1MB|bandwidth=15.234561"

check_eq "numa mem (recorded; its progress line has carriage returns): rows as perf names them" \
	"$(vals rec-numa-mem-p2-t1-P64-s3.txt 'runtime-max/thread,spread-runtime/thread,data-total,total-speed')" \
"rec-numa-mem-p2-t1-P64-s3|perf-bench-numa-mem|args=-p 2 -t 1 -P 64 -s 3,tasks=2,test=main|data-total=14.245
rec-numa-mem-p2-t1-P64-s3|perf-bench-numa-mem|args=-p 2 -t 1 -P 64 -s 3,tasks=2,test=main|runtime-max/thread=3.04
rec-numa-mem-p2-t1-P64-s3|perf-bench-numa-mem|args=-p 2 -t 1 -P 64 -s 3,tasks=2,test=main|spread-runtime/thread=0.66
rec-numa-mem-p2-t1-P64-s3|perf-bench-numa-mem|args=-p 2 -t 1 -P 64 -s 3,tasks=2,test=main|total-speed=4.686"
check_eq "numa mem (lkp, 2 nodes): the convergence latency row too" \
	"$(vals lkp-perf-bench-numa-mem-01.txt 'NUMA-convergence-latency,runtime/byte/thread,thread-speed')" \
"lkp-perf-bench-numa-mem-01|perf-bench-numa-mem|args=-p 128 -t 2 -m -0 -P 300,tasks=256,test=main|NUMA-convergence-latency=6.801
lkp-perf-bench-numa-mem-01|perf-bench-numa-mem|args=-p 128 -t 2 -m -0 -P 300,tasks=256,test=main|runtime/byte/thread=8.136
lkp-perf-bench-numa-mem-01|perf-bench-numa-mem|args=-p 128 -t 2 -m -0 -P 300,tasks=256,test=main|thread-speed=0.123"
export KBENCH_DB=$(db lkp-perf-bench-numa-mem-01.txt)
check_eq "numa mem directions: speeds and data higher, times and spread lower" \
	"$(sql "select name || '=' || better || '/' || unit from metric where benchmark = 'perf-bench-numa-mem'
		and name in ('total-speed', 'data-total', 'runtime-avg/thread', 'spread-runtime/thread', 'runtime/byte/thread') order by name")" \
"data-total=higher/GB
runtime-avg/thread=lower/s
runtime/byte/thread=lower/ns
spread-runtime/thread=lower/%
total-speed=higher/GB/s"

check_eq "futex hash: ops/sec over the threads, perf's +- as rse_pct" \
	"$(vals rec-futex-hash-r2.txt)" \
"rec-futex-hash-r2|perf-bench-futex|futexes=private,op=hash,threads=2|ops_per_sec=1384960
rec-futex-hash-r2|perf-bench-futex|futexes=private,op=hash,threads=2|rse_pct=10.83"
check_eq "futex wake: the averaged wake-up time (ms)" \
	"$(vals rec-futex-wake-t4.txt)" \
"rec-futex-wake-t4|perf-bench-futex|futexes=private,op=wake,threads=4|rse_pct=10.79
rec-futex-wake-t4|perf-bench-futex|futexes=private,op=wake,threads=4|wakeup_time=0.1509"
check_eq "futex requeue and wake-parallel (lkp)" \
	"$(vals lkp-perf-bench-futex-03.txt requeue_time; vals lkp-perf-bench-futex-04.txt per_thread_latency)" \
"lkp-perf-bench-futex-03|perf-bench-futex|futexes=shared,op=requeue,threads=8|requeue_time=0.0138
lkp-perf-bench-futex-04|perf-bench-futex|futexes=shared,op=wake-parallel,threads=8|per_thread_latency=0.0112"

# sched messaging is hackbench: groups, mode, ipc and loops in the config
# under the hackbench parser's names (-p: pipes, -t: threads).
check_eq "sched messaging -p -t -g 2 -l 200: hackbench, ipc=pipe, mode=thread" \
	"$(vals rec-messaging-p-t-g2-l200.txt)" \
"rec-messaging-p-t-g2-l200|hackbench|groups=2,impl=perf,ipc=pipe,loops=200,mode=thread,tasks=80|time=0.156"
check_eq "sched messaging -t -g 4 -l 100: sockets unless -p" \
	"$(vals rec-messaging-t-g4-l100.txt)" \
"rec-messaging-t-g4-l100|hackbench|groups=4,impl=perf,ipc=socket,loops=100,mode=thread,tasks=160|time=0.296"
check_eq "sched messaging with no options: 10 groups of processes" \
	"$(vals rec-messaging-default.txt)" \
"rec-messaging-default|hackbench|groups=10,impl=perf,ipc=socket,mode=process,tasks=400|time=1.186"

# A mail quoting ("> > ") two runs under "Before:" and "After:".
check_eq "quoted mail: Before and After name the runs" \
	"$(vals vagin-wf-sync-before-after-quoted-2022.mail usecs_per_op,ops_per_sec)" \
"Before|perf-bench-sched-pipe|loops=1000000,mode=process|ops_per_sec=113456
Before|perf-bench-sched-pipe|loops=1000000,mode=process|usecs_per_op=8.813985
After|perf-bench-sched-pipe|loops=1000000,mode=process|ops_per_sec=267096
After|perf-bench-sched-pipe|loops=1000000,mode=process|usecs_per_op=3.743971"
export KBENCH_DB=$(db vagin-wf-sync-before-after-quoted-2022.mail)
"$KB" compare --metric usecs_per_op,ops_per_sec --format json > "$TMP/cmp.json" 2>&1
check_eq "compare: the author's 8.8 -> 3.7 usecs/op is -57.5%, ops/sec +135.4%, both better" \
	"$(python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['rows']:
    if r['variant'] == 'After':
        print(r['metric'], r['better'], '%.1f' % r['change_pct'])" "$TMP/cmp.json")" \
"usecs_per_op lower -57.5
ops_per_sec higher 135.4"
check_grep "compare text names both labels" "Before" "$TMP/cmp.json"

check_eq "perf bench sched all (older '# Running sched/pipe benchmark...'): pipe here, messaging hackbench's" \
	"$(vals aziz-stable-review-sched-all-2022.mail | cut -d'|' -f2-)" \
"hackbench|groups=10,impl=perf,mode=process,tasks=400|time=0.449
perf-bench-sched-pipe|loops=1000000,mode=process|ops_per_sec=91991
perf-bench-sched-pipe|loops=1000000,mode=process|time=10.87
perf-bench-sched-pipe|loops=1000000,mode=process|usecs_per_op=10.8706"

# Cut output is refused with file:line, and nothing of the file is stored.
export KBENCH_DB="$TMP/cut.db"
head -n 3 "$D/rec-pipe-l100000.txt" > "$TMP/cut-pipe2.txt"
check_status "sched pipe cut before any result: exit 2" 2 "$KB" import "$TMP/cut-pipe2.txt"
check_grep "... nothing recognised in it" "cut-pipe2.txt:1: no benchmark output recognised" "$TMP/.out"
head -n 20 "$D/rec-numa-mem-p2-t1-P64-s3.txt" > "$TMP/cut-numa.txt"
check_status "numa mem cut before its result rows: exit 2" 2 "$KB" import "$TMP/cut-numa.txt"
check_eq "... nothing stored" "$(sql "select count(*) from run")" "0"
# numa mem's test line, its rows cut away, and another test's rows: refused.
{ head -n 20 "$D/rec-numa-mem-p2-t1-P64-s3.txt"; sed -n 22,30p "$D/lkp-perf-bench-numa-mem-01.txt" | sed 's/^ main,/ RAM-bw-local,/'; } > "$TMP/mixed-numa.txt"
check_status "numa mem rows of another test under a test line: exit 2" 2 "$KB" import "$TMP/mixed-numa.txt"
check_grep "... says whose rows they are" "mixed-numa.txt:21: perf bench: a result row of 'RAM-bw-local' under the test 'main'" "$TMP/.out"
# An author who cut the usecs/op and ops/sec lines: the time is stored, with a note.
head -n 5 "$D/rec-pipe-l100000.txt" > "$TMP/cut-pipe.txt"
check_status "sched pipe cut after its total time: imports" 0 "$KB" import "$TMP/cut-pipe.txt"
check_eq "... the time alone" "$(sql "select metric || '=' || value from samples_v")" "time=0.698"
"$KB" import --explain "$TMP/cut-pipe.txt" > "$TMP/cut-pipe.explain" 2>&1
check_grep "... and explain says what is missing" \
	"line 2: perf bench: the sched/pipe block shows no usecs/op line \(cut by the author\?\): stored without it" "$TMP/cut-pipe.explain"
