#!/bin/bash
# Issue 23, item 3: schbench's percentile blocks, in every layout it has
# printed (2016 to now), in logs, in lkp's wrapper log, in its own README
# and quoted in mails.  Every value below was read by hand from the file
# named (tests/data/schbench/README.txt says where each comes from).
. tests/lib.sh
D=tests/data/schbench

# vals FILE METRICS: import FILE alone; one line per run and metric asked:
# variant|config|iteration|metric=value, in run order.
# The store stays in $TMP/v-FILE.db (db FILE names it).
db() { echo "$TMP/v-$1.db"; }
vals() {
	local f=$1 m=$2
	export KBENCH_DB=$(db "$f")
	rm -f "$KBENCH_DB"
	"$KB" import "$D/$f" > "$TMP/out" 2>&1 || { echo "import failed ($?): $(cat "$TMP/out")"; return; }
	sql "select variant || '|' || config || '|' || iteration || '|' || metric || '=' || printf('%.10g', value)
		from samples_v where ',$m,' like '%,' || metric || ',%' order by run_id, metric"
}
explain() { "$KB" import --explain "$D/$1" > "$TMP/explain" 2>&1; echo "$TMP/explain"; }

# lkp's log: three iterations, each with three intermediate reports
# ("current rps") and a final one ("average rps"); only the final ones are runs.
check_eq "lkp log: one run per iteration, from its final report" \
	"$(vals lkp-schbench-01.txt wakeup_p99,request_p50,rps_p50,average_rps)" \
"lkp-schbench-01|message_threads=1,runtime=30,threads=128|1|average_rps=17108.7
lkp-schbench-01|message_threads=1,runtime=30,threads=128|1|request_p50=6008
lkp-schbench-01|message_threads=1,runtime=30,threads=128|1|rps_p50=17376
lkp-schbench-01|message_threads=1,runtime=30,threads=128|1|wakeup_p99=9
lkp-schbench-01|message_threads=1,runtime=30,threads=128|2|average_rps=15943.03
lkp-schbench-01|message_threads=1,runtime=30,threads=128|2|request_p50=6040
lkp-schbench-01|message_threads=1,runtime=30,threads=128|2|rps_p50=16112
lkp-schbench-01|message_threads=1,runtime=30,threads=128|2|wakeup_p99=8
lkp-schbench-01|message_threads=1,runtime=30,threads=128|3|average_rps=17007.27
lkp-schbench-01|message_threads=1,runtime=30,threads=128|3|request_p50=6040
lkp-schbench-01|message_threads=1,runtime=30,threads=128|3|rps_p50=17312
lkp-schbench-01|message_threads=1,runtime=30,threads=128|3|wakeup_p99=8"
export KBENCH_DB=$(db lkp-schbench-01.txt)
check_eq "lkp log: 18 metrics a run (6 wakeup, 6 request, 5 rps, average_rps)" \
	"$(sql "select count(*) from samples_v group by run_id" | sort -u)" "18"
check_grep "explain: the intermediate reports are not stored, and says so" \
	"line 4: schbench: 9 intermediate reports \(printed every -i seconds\) not stored: each run is its final report" \
	"$(explain lkp-schbench-01.txt)"
check_eq "directions: latencies lower, rps figures higher" \
	"$(sql "select name || '=' || better || '/' || unit from metric where benchmark = 'schbench'
		and name in ('wakeup_p99', 'request_p99_9', 'rps_p20', 'rps_min', 'average_rps') order by name")" \
"average_rps=higher/req/s
request_p99_9=lower/usec
rps_min=higher/req/s
rps_p20=higher/req/s
wakeup_p99=lower/usec"

# lkp's multi-instance log: two instances side by side, told apart in the config.
check_eq "lkp multi-instance: instance=N in the config" \
	"$(vals lkp-schbench-multi-instance.txt wakeup_p50,average_rps)" \
"lkp-schbench-multi-instance|instance=1,message_threads=1,runtime=10,threads=128|1|average_rps=16000
lkp-schbench-multi-instance|instance=1,message_threads=1,runtime=10,threads=128|1|wakeup_p50=5
lkp-schbench-multi-instance|instance=2,message_threads=1,runtime=10,threads=128|1|average_rps=1600
lkp-schbench-multi-instance|instance=2,message_threads=1,runtime=10,threads=128|1|wakeup_p50=50"

# The current layout recorded here: "sched delay" lines, intermediate
# reports every 2 s (-i 2), the final one at runtime 6.
check_eq "current layout: the final report, sched delay and -F from the prompt" \
	"$(vals rec-schbench-cur-m1-t2-r6-i2.txt wakeup_p99,request_p99_9,rps_p20,rps_max,average_rps,sched_delay_worker)" \
"rec-schbench-cur-m1-t2-r6-i2|footprint=64,message_threads=1,runtime=6,threads=2|1|average_rps=1208.67
rec-schbench-cur-m1-t2-r6-i2|footprint=64,message_threads=1,runtime=6,threads=2|1|request_p99_9=16336
rec-schbench-cur-m1-t2-r6-i2|footprint=64,message_threads=1,runtime=6,threads=2|1|rps_max=1504
rec-schbench-cur-m1-t2-r6-i2|footprint=64,message_threads=1,runtime=6,threads=2|1|rps_p20=807
rec-schbench-cur-m1-t2-r6-i2|footprint=64,message_threads=1,runtime=6,threads=2|1|sched_delay_worker=0
rec-schbench-cur-m1-t2-r6-i2|footprint=64,message_threads=1,runtime=6,threads=2|1|wakeup_p99=4680"
check_eq "pipe mode: the wakeup block with its 20th percentile and the transfer rate" \
	"$(vals rec-schbench-cur-pipe4096-r4.txt wakeup_p20,wakeup_max,transfer_ops,transfer_rate)" \
"rec-schbench-cur-pipe4096-r4|message_threads=1,pipe=4096,runtime=4,threads=2|1|transfer_ops=65375.66
rec-schbench-cur-pipe4096-r4|message_threads=1,pipe=4096,runtime=4,threads=2|1|transfer_rate=255.37
rec-schbench-cur-pipe4096-r4|message_threads=1,pipe=4096,runtime=4,threads=2|1|wakeup_max=8016
rec-schbench-cur-pipe4096-r4|message_threads=1,pipe=4096,runtime=4,threads=2|1|wakeup_p20=3"

# 2021: "Latency percentiles (usec) runtime N (s)" every -i seconds and at
# the end, nothing else marking the final one; "warmup done" between two.
check_eq "2021 layout: the last block of the run is its result" \
	"$(vals rec-schbench-2021-m1-t2-r6-i2.txt latency_p50,latency_p99,latency_max)" \
"rec-schbench-2021-m1-t2-r6-i2|message_threads=1,runtime=6,threads=2|1|latency_max=17598
rec-schbench-2021-m1-t2-r6-i2|message_threads=1,runtime=6,threads=2|1|latency_p50=2484
rec-schbench-2021-m1-t2-r6-i2|message_threads=1,runtime=6,threads=2|1|latency_p99=17568"
check_eq "2021 layout, two runs of a shell loop: a smaller runtime starts the next run; config from the loop's command" \
	"$(vals rec-schbench-2021-loop2-r4-i2-w1.txt latency_p99)" \
"rec-schbench-2021-loop2-r4-i2-w1|message_threads=1,runtime=4,threads=2,warmup=1|1|latency_p99=13168
rec-schbench-2021-loop2-r4-i2-w1|message_threads=1,runtime=4,threads=2,warmup=1|2|latency_p99=11792"
check_eq "2019 layout (*99.0th), one block a run; percentiles 75, 95, 99.5 too" \
	"$(vals rec-schbench-2019-m1-t2-r4.txt latency_p75,latency_p99,latency_p99_5,latency_min,latency_max)" \
"rec-schbench-2019-m1-t2-r4|message_threads=1,runtime=4,threads=2|1|latency_max=18770
rec-schbench-2019-m1-t2-r4|message_threads=1,runtime=4,threads=2|1|latency_min=0
rec-schbench-2019-m1-t2-r4|message_threads=1,runtime=4,threads=2|1|latency_p75=3588
rec-schbench-2019-m1-t2-r4|message_threads=1,runtime=4,threads=2|1|latency_p99=11760
rec-schbench-2019-m1-t2-r4|message_threads=1,runtime=4,threads=2|1|latency_p99_5=18784"
check_eq "2016 layout (50.0000th, Over=0, min=..): the first version" \
	"$(vals rec-schbench-2016-m1-t2-r4.txt latency_p50,latency_p99_9,latency_max)" \
"rec-schbench-2016-m1-t2-r4|message_threads=1,runtime=4,threads=2|1|latency_max=19992
rec-schbench-2016-m1-t2-r4|message_threads=1,runtime=4,threads=2|1|latency_p50=773
rec-schbench-2016-m1-t2-r4|message_threads=1,runtime=4,threads=2|1|latency_p99_9=20000"

# schbench's own README: three examples behind "$ ./schbench ..." prompts,
# "setting worker threads to 52" and "..." between prompt and output.
check_eq "README: config from each prompt; pipe mode's 1.34GB/s in MB/s" \
	"$(vals masoncl-schbench-README.md request_p99,average_rps,transfer_rate)" \
"masoncl-schbench-README|calibrate=on,footprint=256,operations=5,runtime=10|1|average_rps=3024.6
masoncl-schbench-README|calibrate=on,footprint=256,operations=5,runtime=10|1|request_p99=17248
masoncl-schbench-README|footprint=256,operations=5,runtime=90|1|average_rps=3009.1
masoncl-schbench-README|footprint=256,operations=5,runtime=90|1|request_p99=19616
masoncl-schbench-README|pipe=65536,runtime=30,threads=4|1|transfer_rate=1372.16"

# A mail quoting ("> ") the old layout five times under "Baseline (5 runs)"
# and "SIS_CACHE (5 runs)", then the current layout under "Baseline" and
# "SIS_CACHE": the labels name the variants.
M=chenyu-quotes-madadi-sis-cache-old-and-new-2023.mail
import_alone "$M"
check_eq "quoted mail: imports" "$rc" "0"
check_eq "quoted mail: runs per labelled variant" \
	"$(sql "select variant || '=' || count(*) from runs_v group by variant order by variant")" \
"Baseline=1
Baseline (5 runs)=5
SIS_CACHE=1
SIS_CACHE (5 runs)=5"
check_eq "quoted mail: the old blocks' 99th percentiles, as printed" \
	"$(sql "select variant || ' ' || printf('%g', value) from samples_v where metric = 'latency_p99' order by run_id" |
		awk '$0 ~ /^Baseline/ { b = b " " $NF } $0 ~ /^SIS/ { c = c " " $NF } END { print "Baseline (5 runs)" b; print "SIS_CACHE (5 runs)" c }')" \
"Baseline (5 runs) 981 495 1326 55 711
SIS_CACHE (5 runs) 1894 2396 2132 1090 1786"
check_eq "quoted mail: the new blocks (wakeup p99.9, request p99, average rps)" \
	"$(sql "select variant || ' ' || metric || '=' || printf('%g', value) from samples_v
		where metric in ('wakeup_p99_9', 'request_p99', 'average_rps') and config = 'runtime=30' order by variant, metric")" \
"Baseline average_rps=6984.77
Baseline request_p99=14320
Baseline wakeup_p99_9=775
SIS_CACHE average_rps=6981.07
SIS_CACHE request_p99=14352
SIS_CACHE wakeup_p99_9=1146"
"$KB" compare --variants "Baseline (5 runs),SIS_CACHE (5 runs)" --metric latency_p99 --format json > "$TMP/cmp.json" 2>&1
check_near "compare: SIS_CACHE's 99th percentile +160.6% over Baseline (713.6 -> 1859.6 usec)" \
	"$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['rows']; print(r[1]['change_pct'])" "$TMP/cmp.json")" \
	"160.594170404" 1e-6
check_eq "compare: lower is better, the author's reading (worse), not yet significant with 5 runs a side" \
	"$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['rows']; print(r[1]['better'], r[0]['mean'], r[1]['mean'], r[1]['verdict'])" "$TMP/cmp.json")" \
	"lower 713.6 1859.6 inconclusive"
"$KB" compare --variants "Baseline,SIS_CACHE" --metric average_rps --format json > "$TMP/cmp2.json" 2>&1
check_near "compare: average rps 6984.77 -> 6981.07 (-0.053%)" \
	"$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['rows']; print(r[1]['change_pct'])" "$TMP/cmp2.json")" \
	"-0.0529726" 1e-5

# The same mail in an mbox with another: read as before.
{ printf 'From a@b Thu Oct 19 10:57:00 2023\n'; cat "$D/$M"; printf '\nFrom c@d Tue Jul  8 17:29:00 2025\n';
  cat "$D/hegde-schbench-regression-cmdline-2025.mail"; } > "$TMP/two.mbox"
export KBENCH_DB="$TMP/mbox.db"
check_status "mbox of two mails: imports" 0 "$KB" import "$TMP/two.mbox"
check_eq "mbox of two mails: 13 runs" "$(sql "select count(*) from runs_v where benchmark = 'schbench'")" "13"

# A command line (-t given twice: getopt's last wins; -L, -M auto, -n 0;
# -i is when to print, not part of the config), no request block, a blank
# line between two blocks.
check_eq "mail with a command line: config from it" \
	"$(vals hegde-schbench-regression-cmdline-2025.mail wakeup_p99,rps_p50,average_rps)" \
"Hegde-2025-07-08|locking=off,message_cpus=auto,message_threads=4,operations=0,runtime=30,threads=60|1|average_rps=628514.3
Hegde-2025-07-08|locking=off,message_cpus=auto,message_threads=4,operations=0,runtime=30,threads=60|1|rps_p50=629760
Hegde-2025-07-08|locking=off,message_cpus=auto,message_threads=4,operations=0,runtime=30,threads=60|1|wakeup_p99=316"

# The author's note after a value is dropped with a note; a block with no
# average rps line is stored without it.
check_eq "labelled blocks: values, the note after average rps dropped" \
	"$(vals hegde-base-vs-series-two-systems-2025.mail wakeup_p99,average_rps)" \
"Hegde-2025-07-09|runtime=30|1|average_rps=1442889.23
Hegde-2025-07-09|runtime=30|1|wakeup_p99=36
base + clm's patch + series|runtime=30|1|average_rps=907530.1
base + clm's patch + series|runtime=30|1|wakeup_p99=182
base|runtime=30|1|wakeup_p99=44
base + clm's patch + series|runtime=30|2|average_rps=1144229.23
base + clm's patch + series|runtime=30|2|wakeup_p99=122"
check_grep "explain: the words after average rps are the author's" \
	"line 61: schbench: the words after average rps \('<<< close to 40% drop in RPS.'\) are the author's, not schbench's: dropped" \
	"$(explain hegde-base-vs-series-two-systems-2025.mail)"

# Quoted-printable, quoted, soft line breaks inside the blocks' lines and
# EN SPACEs where the tabs were: the two runs as printed, kept apart by
# their headings.
check_eq "quoted-printable mail with EN SPACEs: both runs" \
	"$(vals zang-quotes-chenyu-next-buddy-qp-2024.mail wakeup_p99,wakeup_max,request_p99_9,rps_p20,average_rps)" \
"Zang-2024-06-11|label=NO_NEXT_BUDDY,runtime=100|1|average_rps=17025.23
Zang-2024-06-11|label=NO_NEXT_BUDDY,runtime=100|1|request_p99_9=15888
Zang-2024-06-11|label=NO_NEXT_BUDDY,runtime=100|1|rps_p20=16864
Zang-2024-06-11|label=NO_NEXT_BUDDY,runtime=100|1|wakeup_max=4741
Zang-2024-06-11|label=NO_NEXT_BUDDY,runtime=100|1|wakeup_p99=29
Zang-2024-06-11|label=NEXT_BUDDY,runtime=100|1|average_rps=16572.68
Zang-2024-06-11|label=NEXT_BUDDY,runtime=100|1|request_p99_9=15728
Zang-2024-06-11|label=NEXT_BUDDY,runtime=100|1|rps_p20=16544
Zang-2024-06-11|label=NEXT_BUDDY,runtime=100|1|wakeup_max=7428
Zang-2024-06-11|label=NEXT_BUDDY,runtime=100|1|wakeup_p99=24"

# Cut logs.  A block cut in the middle: refused, with the line, nothing stored.
head -n 16 "$D/rec-schbench-cur-m1-t2-r6-i2.txt" > "$TMP/cut-block.txt"
export KBENCH_DB="$TMP/cut.db"
check_status "a block cut short: exit 2" 2 "$KB" import "$TMP/cut-block.txt"
check_grep "... with file:line and the reason" \
	"cut-block.txt:14: schbench: the 'RPS percentiles' block ends without its min=, max= line \(cut short\?\)" "$TMP/.out"
check_eq "... and nothing stored" "$(sql "select count(*) from run")" "0"
# Complete intermediate reports and no final one: a failed run, no numbers.
head -n 16 "$D/lkp-schbench-01.txt" > "$TMP/cut-run.txt"
check_status "a run cut before its final report: imports" 0 "$KB" import "$TMP/cut-run.txt"
check_eq "... as a failed run with the reason, no samples" \
	"$(sql "select status || '|' || error || '|' || (select count(*) from sample) from runs_v")" \
	"failed|no final block: the output stops after 1 intermediate report|0"
# 2021 layout cut after its first report (runtime 2 of -r 6): failed too.
head -n 10 "$D/rec-schbench-2021-m1-t2-r6-i2.txt" > "$TMP/cut-2021.txt"
export KBENCH_DB="$TMP/cut2.db"
check_status "2021 layout cut after 2 s of -r 6: imports" 0 "$KB" import "$TMP/cut-2021.txt"
check_eq "... as a failed run: its last block is not the final one" \
	"$(sql "select status || '|' || error from runs_v")" \
	"failed|the last block is at runtime 2 (s) of -r 6: the run was cut before its final block"
# "average rps" with its blocks cut away: refused.
tail -n 3 "$D/rec-schbench-cur-m1-t2-r6-i2.txt" > "$TMP/cut-top.txt"
printf 'Wakeup Latencies percentiles (usec) runtime 6 (s) (7252 total samples)\n' | cat - "$TMP/cut-top.txt" > "$TMP/cut-top2.txt"
check_status "a header then average rps, the percentiles cut away: exit 2" 2 "$KB" import "$TMP/cut-top2.txt"

# A reply (tests/realposts/703): the command in the prose ("schbench -m 2
# -r 100" alone on its line, a sentence after it), then a block under
# "baseline:" / "NO_DELAY_DEQUEUE" / "NO_DELAY_ZERO" and one under
# "DELAY_DEQUEUE" / "DELAY_ZERO": the same sched features turned on are
# the other side, named by its feature lines, not more of the baseline;
# the command gives both blocks' config.
R=tests/realposts/703-chenyu-schbench-feature-pair-blocks-2024.mail
export KBENCH_DB="$TMP/feat.db"
check_status "feature-pair blocks: imports" 0 "$KB" import "$R"
check_eq "two variants: baseline, and the features turned on" \
	"$(sql "select variant || '|' || config || '|' || printf('%g', value) from samples_v
		where metric = 'wakeup_p99' order by run_id")" \
"baseline|message_threads=2,runtime=100|25
DELAY_DEQUEUE DELAY_ZERO|message_threads=2,runtime=100|31"
# Plain labels that are not the same features turned ("numa02", "numa01"
# under one "baseline:") stay blocks of the one variant.
printf 'baseline:\n\nNUMA_ONE\n%s\n\nNUMA_TWO\n%s\n' "$(cat "$D/rec-schbench-cur-m1-t2-r6-i2.txt")" \
	"$(cat "$D/rec-schbench-cur-m1-t2-r6-i2.txt")" > "$TMP/notfeat.txt"
export KBENCH_DB="$TMP/notfeat.db"
"$KB" import "$TMP/notfeat.txt" > /dev/null 2>&1
check_eq "labels that are not a feature toggle: no new variant" \
	"$(sql "select distinct variant from samples_v")" "baseline"
