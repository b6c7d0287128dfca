#!/bin/bash
# Issue 13: output of real machines that kbench used to misread.  The
# files are in tests/data/issue13 (how each was produced: tests/README).
. tests/lib.sh
D=tests/data/issue13

# perf stat in five locales (perf stat report of one recording): the same
# stored numbers whatever the thousands separator and decimal mark.
want_iv=$(KBENCH_DB="$TMP/C.db" "$KB" import "$D/perfstat-locale/interval.C.txt" >/dev/null 2>&1;
	sqlite3 "$TMP/C.db" "select group_concat(coalesce(job, iteration) || ':' || metric || '=' || printf('%.10g', value), ' ') from (select * from samples_v order by coalesce(job, iteration), metric) q")
check_eq "C locale interval values" "$(echo "$want_iv" | cut -d' ' -f1-5)" \
	"1:context-switches=15065 1:cpu-migrations=530 1:page-faults=2739 1:task-clock=1130.84 1:time=1.014399804"
for f in "$D"/perfstat-locale/interval.*.txt "$D"/perfstat-locale/total.*.txt; do
	name=$(basename "$f" .txt)
	db="$TMP/$name.db"
	KBENCH_DB="$db" "$KB" import "$f" > "$TMP/out" 2>&1; rc=$?
	check_eq "$name imports" "$rc" 0
	got=$(sqlite3 "$db" "select group_concat(coalesce(job, iteration) || ':' || metric || '=' || printf('%.10g', value), ' ') from (select * from samples_v order by coalesce(job, iteration), metric) q")
	case $name in
	interval.*) check_eq "$name: the C locale's values" "$got" "$want_iv" ;;
	total.*) check_eq "$name: the C locale's values" "$got" \
		"1:context-switches=30783 1:cpu-migrations=937 1:elapsed=1.468459533 1:page-faults=4467 1:task-clock=1595.64" ;;
	esac
done
KBENCH_DB="$TMP/amb.db" "$KB" import "$D/perfstat-ambiguous.txt" > "$TMP/amb.out" 2>&1; rc=$?
check_eq "an ambiguous block fails" "$rc" 2
check_grep "the message names the line and both readings" \
	"perfstat-ambiguous.txt:2: ambiguous number format: '1,130' reads as 1130 \(',' separating thousands\) or as 1.130 \(',' the decimal mark\)" "$TMP/amb.out"

# perf stat -I 500 wrapping hackbench: one hackbench run with its config
# and time; intervals carry the command when perf printed it (--summary).
export KBENCH_DB="$TMP/wrap.db"
check_status "perf stat -I 500 hackbench imports" 0 "$KB" import --variant wrap "$D/hackbench/perf-stat-I500-hackbench.txt"
check_eq "one hackbench run, ok, with config and time" \
	"$(sql "select r.status || ' ' || r.config || ' ' || s.value from runs_v r join samples_v s using (run_id) where r.benchmark = 'hackbench'")" \
	"ok datasize=100,groups=4,impl=rt-tests,loops=600,mode=process,tasks=160 2.814"
check_eq "no failed run" "$(sql "select count(*) from runs_v where status = 'failed'")" 0
# Issue 24: the intervals are a time series within one execution, not
# six runs: one perf-stat run, its intervals numbered in the samples.
check_eq "one perf-stat run for the six intervals" "$(sql "select count(*) from runs_v where benchmark = 'perf-stat'")" 1
check_eq "... six intervals of context-switches, each with its time" \
	"$(sql "select count(*) || ' ' || count(distinct job) || ' ' || min(job) || ' ' || max(job) from samples_v where benchmark = 'perf-stat' and metric = 'context-switches'") $(sql "select count(*) from samples_v where benchmark = 'perf-stat' and metric = 'time'")" \
	"6 6 1 6 6"
check_eq "... the last interval's time and count" \
	"$(sql "select printf('%.9f', t.value) || ' ' || printf('%.0f', c.value) from samples_v t join samples_v c on c.run_id = t.run_id and c.job = t.job
	        where t.metric = 'time' and c.metric = 'context-switches' and t.job = 6")" "2.894491367 25180"
for v in C de_DE; do
	KBENCH_DB="$TMP/ivn.db" "$KB" import --variant "$v" "$D/perfstat-locale/interval.$v.txt" > /dev/null 2>&1
done
check_eq "compare: one execution a side is n=1 (its 3 intervals within it), not n=3" \
	"$(KBENCH_DB="$TMP/ivn.db" "$KB" compare --bench perf-stat --format json 2>/dev/null |
	   jq -r '[.rows[] | "\(.n)/\(.jobs)"] | unique | join(",")')" "1/3"
# ... and Time: after perf's last interval (the same output without its
# last interval) is still the wrapped hackbench's, not a run apart.
export KBENCH_DB="$TMP/wrap-last.db"
check_status "Time: after the last interval imports" 0 "$KB" import --variant w "$D/hackbench/perf-stat-I500-hackbench-time-last.txt"
check_eq "... one hackbench run, ok, with its config and time" \
	"$(sql "select r.status || ' ' || r.config || ' ' || s.value from runs_v r join samples_v s using (run_id) where r.benchmark = 'hackbench'")" \
	"ok datasize=100,groups=4,impl=rt-tests,loops=600,mode=process,tasks=160 2.814"
check_eq "... no failed run, no second hackbench" "$(sql "select count(*) from runs_v where status = 'failed' or benchmark = 'hackbench'")" 1
check_eq "... five intervals in one perf-stat run" \
	"$(sql "select count(distinct run_id) || ' ' || count(distinct job) from samples_v where benchmark = 'perf-stat'")" "1 5"
export KBENCH_DB="$TMP/wrap.db"
check_status "perf stat -I 500 --summary hackbench imports" 0 "$KB" import --variant wrap2 "$D/hackbench/perf-stat-I500-summary-hackbench.en_US.txt"
check_eq "intervals carry cmd from the closing header" \
	"$(sql "select count(distinct job) from samples_v where variant = 'wrap2' and benchmark = 'perf-stat' and config = 'cmd=hackbench -g 4 -l 600' and metric = 'time'")" 6
check_eq "the whole run is the summary run" \
	"$(sql "select printf('%.10g', s.value) from runs_v r join samples_v s using (run_id) where r.variant = 'wrap2' and r.config = 'cmd=hackbench -g 4 -l 600,summary=yes' and s.metric in ('context-switches', 'elapsed') order by s.metric")" \
	"$(printf '51845\n3.221498752')"
check_eq "wrapped hackbench with --summary" \
	"$(sql "select r.status || ' ' || s.value from runs_v r join samples_v s using (run_id) where r.variant = 'wrap2' and r.benchmark = 'hackbench'")" "ok 3.127"

# Interrupted, killed, children failed: failed runs with the reason, no time.
export KBENCH_DB="$TMP/hb.db"
hb() {  # file -> "status|error" of its runs, and the count of samples
	"$KB" import --variant "$1" "$D/hackbench/$1.txt" > /dev/null 2>&1
	echo "$(sql "select group_concat(status || '|' || error, ';') from runs_v where variant = '$1'") samples=$(sql "select count(*) from samples_v where variant = '$1'")"
}
check_eq "SIGINT" "$(hb rt-tests-sigint)" "failed|Signal 2 caught, longjmp'ing out! samples=0"
check_eq "SIGINT, threaded (no Time printed)" "$(hb rt-tests-threaded-sigint)" "failed|no result samples=0"
check_eq "SIGTERM, then the senders failed" "$(hb rt-tests-sigterm-senders-failed)" \
	"failed|Signal 15 caught, longjmp'ing out!; SENDER: write (error: Connection reset by peer) samples=0"
check_eq "senders failed" "$(hb rt-tests-senders-failed)" "failed|SENDER: write (error: Connection reset by peer) samples=0"
check_eq "receiver killed, hung, SIGINT by timeout" "$(hb rt-tests-receiver-killed-timeout-sigint)" \
	"failed|Signal 2 caught, longjmp'ing out! samples=0"
check_eq "perf bench with a killed child" "$(hb perf-bench-child-killed)" "failed|no result samples=0"
check_eq "SIGKILL, the shell's Killed line" "$(hb rt-tests-sigkill-bash)" \
	"failed|bash: line 1: 32612 Killed                  hackbench -g 4 -l 200000 samples=0"

# --set values are checked by key; a long key is kept whole.
export KBENCH_DB="$TMP/set.db"
for bad in runs=abc runs=-5 runs=0 groups=x mode=fast ipc=shm =x 'a,b=1' 'k='; do
	check_status "--set $bad is refused" 2 "$KB" import --set "$bad" "$D/hackbench/rt-tests-sigint.txt"
done
check_grep "the message says what runs wants" "runs needs a positive whole number, not 'abc'" \
	<("$KB" import --set runs=abc "$D/hackbench/rt-tests-sigint.txt" 2>&1)
check_eq "nothing was stored" "$(sql "select count(*) from runs_v" 2>/dev/null || echo 0)" 0
long=$(printf 'k%.0s' $(seq 300))
check_status "--set with a 300-byte key" 0 "$KB" import --set "$long=v" "$D/hackbench/rt-tests-sigint.txt"
check_eq "the 300-byte key is stored whole" "$(sql "select count(*) from runs_v where config like '%,$long=v,%'")" 1

# mmtests: kernel.version gives the machine and each variant's kernel
# release; the log root's name the machine when it is missing.
MM="$SHARED/corpus/mmtests/prashantph-mmtests_CI"
export KBENCH_DB="$TMP/mm.db"
check_status "the mmtests corpus tree imports" 0 "$KB" import "$MM"
check_eq "machine ltccip8 for every run" "$(sql "select group_concat(distinct ifnull(machine, 'NULL')) from runs_v")" ltccip8
check_eq "every variant's kernel release" "$(sql "select group_concat(name || '=' || ifnull(kernel, 'NULL'), ' ') from (select * from variant order by name) q")" \
	"forkintensive=4.18.0-184.el8.ppc64le hackbench-process-pipes=4.18.0-184.el8.ppc64le schbench=4.18.0-184.el8.ppc64le"
"$KB" ls > "$TMP/ls.out"
check_grep "ls shows the machine" "^  ltccip8 +936 runs" "$TMP/ls.out"
check_grep "ls shows the kernel" "^  hackbench-process-pipes +90 runs .*kernel 4\.18\.0-184\.el8\.ppc64le" "$TMP/ls.out"
export KBENCH_DB="$TMP/mm2.db"
check_status "samples/mmtests (no kernel.version) imports" 0 "$KB" import "$SAMPLES/mmtests"
check_eq "machine from log.ltccip8.2020-06-03_1400" "$(sql "select group_concat(distinct ifnull(machine, 'NULL')) from runs_v")" ltccip8
check_eq "no kernel without kernel.version" "$(sql "select ifnull(kernel, 'NULL') from variant")" NULL
export KBENCH_DB="$TMP/mm3.db"
check_status "--variant, --machine and --kernel win" 0 "$KB" import --variant mine --machine box --kernel 6.1.0 \
	"$MM/log.ltccip8.2020-06-03_1400/schbench"
check_eq "the user's names are stored" "$(sql "select distinct variant || ' ' || machine from runs_v"):$(sql "select group_concat(name || '=' || kernel) from variant")" \
	"mine box:mine=6.1.0"

# Seed 001: footnoted published cells carry their flag in summary_v, are
# marked by compare/regress/report and left out of tests unless --use-flagged.
export KBENCH_DB="$TMP/s1.db"
check_status "seed 001 imports" 0 "$KB" import "$SAMPLES/seeds/001_84b93bea668f5b54.txt"
check_eq "summary_v flags: the footnoted cells" \
	"$(sql "select group_concat(variant || ' ' || config || ' ' || metric || ' ' || printf('%.10g', mean) || ' ' || flags, '; ') from summary_v where flags like '%footnoted%'")" \
	"E disturb=hackbench:20,tasks=64 avg_user 33.32 footnoted,disturb_inherited; E disturb=hackbench:20,tasks=64 total_user 2133 footnoted,disturb_inherited; E disturb=hackbench:20,tasks=64 elapsed 133.9 footnoted,disturb_inherited"
check_eq "summary_v's columns: flags, then the published verdict and statistics, added last" \
	"$(sqlite3 -header "$KBENCH_DB" "select * from summary_v limit 1" | head -1)" \
	"source|variant|machine|benchmark|config|metric|mean|sd|n|min|max|unit|flags|pub_change|pub_mark|stats|pub_base"
"$KB" compare --bench numa_test --metric elapsed --baseline A > "$TMP/c.txt"
check_grep "compare marks the footnoted cell" "^64 +[0-9?]+ +167\.10 .* 133\.90f( |$)" "$TMP/c.txt"
check_grep "... and says what the mark means" "f footnoted in the post: not tested unless --use-flagged: E 64" "$TMP/c.txt"
"$KB" compare --bench numa_test --metric elapsed --baseline A --format json > "$TMP/c.json"
check_eq "json: flagged, no verdict, not counted in BH" "$(python3 -c "
import json; d = json.load(open('$TMP/c.json'))
c = [c for c in d['rows'] if c['variant'] == 'E' and c['config'] == 'disturb=hackbench:20,tasks=64'][0]
print(c['flags'], c['verdict'], c['change_pct'])")" "['summary_only', 'footnoted'] None None"
"$KB" compare --bench numa_test --metric elapsed --baseline A --use-flagged > "$TMP/cf.txt"
check_grep "--use-flagged tests it (change shown)" "^64 +[0-9?]+ +167\.10 .* 133\.90f -19\.9 \?" "$TMP/cf.txt"
"$KB" regress --baseline A --bench numa_test --metric elapsed --no-placement > "$TMP/r.txt"
check_grep "regress lists it untested with its flag" "inconclusive numa_test disturb=hackbench:20,tasks=64 elapsed  E: 167\.1 -> 133\.9 s  q=-  \[summary_only,footnoted\]" "$TMP/r.txt"
"$KB" regress --baseline A --bench numa_test --metric elapsed --no-placement --use-flagged > "$TMP/rf.txt"
check_grep "regress --use-flagged tests it" "E: 167\.1 -> 133\.9 s  -19\.9%  q=-  \[summary_only,too_few,footnoted\]" "$TMP/rf.txt"
"$KB" report --bench numa_test --metric elapsed --baseline A --format text --no-findings -o "$TMP/rep.txt"
check_grep "report marks it" "133\.90f" "$TMP/rep.txt"
"$KB" report --bench numa_test --metric elapsed --baseline A --format text --no-findings --use-flagged -o "$TMP/repf.txt"
check_grep "report --use-flagged tests it" "133\.90f -19\.9 \?" "$TMP/repf.txt"

# E-H from the published E and H tables, beside E-H from the raw runs.
"$KB" compare --bench numa_test --metric elapsed_minus_hackbench --baseline A --format json > "$TMP/emh.json"
emh() { python3 -c "
import json; d = json.load(open('$TMP/emh.json'))
print(' '.join('%s:%s=%.2f%s' % (c['variant'], c['config'].split('tasks=')[1], c['mean'], '/d' if 'from_summaries' in c['flags'] else '')
      for c in d['rows'] if c['mean'] is not None and c['config'] == 'disturb=hackbench:20,tasks=$1'))"; }
check_eq "N=4: every variant with both E and H published (D has none)" "$(emh 4)" "A:4=27.35/d B:4=36.47/d C:4=37.66/d E:4=26.15/d F:4=34.48/d"
check_eq "N=64: E has no H (\"(-)\"), so no E-H" "$(emh 64)" "A:64=161.14/d B:64=142.49/d C:64=147.49/d F:64=142.08/d"
check_eq "N=8: from the raw runs (A 36.53)" "$(emh 8)" "A:8=36.53 B:8=37.64 C:8=35.26 D:8=37.65 E:8=27.95 F:8=36.42"
check_eq "published and raw E-H agree for all 18 raw cells" \
	"$(python3 -c "
import json; d = json.load(open('$TMP/emh.json'))
print(sum(1 for c in d['rows'] if (c['note'] or '').find('E-H of the published E and H agrees') >= 0))")" 18
check_eq "the published-only cells have no sd" "$(python3 -c "
import json; d = json.load(open('$TMP/emh.json'))
print(set(c['sd'] for c in d['rows'] if 'from_summaries' in c['flags']))")" "{None}"
