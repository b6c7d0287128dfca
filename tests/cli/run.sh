#!/bin/bash
# kbench run (issue 27): a benchmark run for real (hackbench of rt-tests,
# perf bench), N times, each run stored whole as it finishes with the
# machine's CPUs and nodes and the environment it ran in; Ctrl-C keeps the
# finished runs; a failing run is stored failed; an unknown command exits
# 127 and a command whose output no parser reads exits 2, storing nothing.
. tests/lib.sh

if ! command -v hackbench > /dev/null; then
	fail "hackbench is installed (rt-tests: scripts/install-deps --check)"
	exit 0
fi
HB=(hackbench -g 2 -l 50)
# The machine as kbench should find it: lscpu's CPUs and nodes, else the
# configured CPUs and the kernel's node directories.
cpus=$(lscpu 2>/dev/null | awk -F: '/^CPU\(s\):/ { gsub(/ /, "", $2); print $2 }')
cpus=${cpus:-$(getconf _NPROCESSORS_CONF)}
nodes=$(lscpu 2>/dev/null | awk -F: '/^NUMA node\(s\):/ { gsub(/ /, "", $2); print $2 }')
nodes=${nodes:-$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)}
export KBENCH_DB="$TMP/run.db"

# --- three runs, stored with the machine ------------------------------------
check_status "run --runs 3 -- hackbench -g 2 -l 50 exits 0" 0 \
	"$KB" run --variant stock --machine box --runs 3 -- "${HB[@]}"
cp "$TMP/.out" "$TMP/three.txt"
check_grep "the first line: variant, machine, its CPUs" \
	"^kbench run: variant stock on machine box \($cpus CPUs, $nodes nodes?\); 3 runs$" "$TMP/three.txt"
check_grep "a line per run: run i/N, the benchmark's first number, the ETA" \
	'^run 1/3: hackbench, time [0-9.]+ s \([0-9.]+ s, ETA [0-9]+:[0-9]{2}\)$' "$TMP/three.txt"
check_grep "... the last without an ETA" '^run 3/3: hackbench, time [0-9.]+ s \([0-9.]+ s\)$' "$TMP/three.txt"
check_grep "the last line counts them" '^kbench run: 3 runs stored, 0 failed$' "$TMP/three.txt"
check_eq "3 ok runs of hackbench, variant stock, on box" \
	"$(sql "select count(*), min(r.status), max(r.status), min(v.name), min(m.name) from run r
		join variant v on v.id = r.variant_id join machine m on m.id = r.machine_id")" "3|ok|ok|stock|box"
check_eq "... each a source of its own, iterations 1 2 3" \
	"$(sql "select count(distinct source_id), group_concat(iteration, ' ') from (select * from run order by id) x")" "3|1 2 3"
check_eq "... with hackbench's config from its output" \
	"$(sql "select distinct config from run")" "datasize=100,groups=2,impl=rt-tests,ipc=socket,loops=50,mode=process,tasks=80"
check_eq "... and its time, one a run, > 0" \
	"$(sql "select count(*), sum(case when value > 0 then 1 else 0 end) from sample where metric = 'time'")" "3|3"
check_eq "machine.cpus and machine.nodes filled (lscpu: $cpus CPUs, $nodes nodes)" \
	"$(sql "select cpus, nodes from machine where name = 'box'")" "$cpus|$nodes"
check_grep "... and its description from numactl -H" "node distances" \
	<(sql "select description from machine where name = 'box'")
envval() { sql "select value from env where source_id = 1 and key = '$1'"; }
check_eq "the environment with each run: the command, the kernel release" \
	"$(envval command)|$(envval kernel.release)" "hackbench -g 2 -l 50|$(uname -r)"
# Each setting as the machine has it, or, where the file is not there,
# named in 'missing' instead (the run does not fail for it).
for f in kernel.numa_balancing:/proc/sys/kernel/numa_balancing \
	thp.enabled:/sys/kernel/mm/transparent_hugepage/enabled \
	thp.defrag:/sys/kernel/mm/transparent_hugepage/defrag \
	cpufreq.governor:/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor; do
	key=${f%%:*} file=${f#*:}
	if [ -r "$file" ]; then
		check_eq "... $key as $file says" "$(envval "$key")" "$(sed 's/.*\[\(.*\)\].*/\1/' "$file")"
	else
		check_eq "... $key: no $file here, said in 'missing'" \
			"$(envval "$key")|$(envval missing | grep -c "$key")" "|1"
	fi
done
check_eq "... uname -a's words and /proc/cmdline" \
	"$(sql "select value from env where source_id = 1 and key in ('uname', 'cmdline') order by key")" \
	"$(cat /proc/cmdline)
$(uname -s) $(uname -n) $(uname -r) $(uname -v) $(uname -m)"
check_eq "... hackbench's version: its Debian package's (no benchmark run to ask)" \
	"$(sql "select value from env where source_id = 1 and key = 'tool.version'")" \
	"rt-tests $(dpkg-query -W -f '${Version}' rt-tests) ($(readlink -f "$(command -v hackbench)"))"
check_eq "--monitor numa (the default): the vmstat deltas numa_* and pgmigrate_* of each run" \
	"$(sql "select count(distinct run_id), sum(case when metric like 'vmstat.numa%' or metric like 'vmstat.pgmigrate%'
		then 0 else 1 end) from sample where metric like 'vmstat.%'")" "3|0"
check_eq "... neutral direction in the catalogue" \
	"$(sql "select distinct better from metric where name like 'vmstat.%'")" "none"
v0=$(awk '$1 == "numa_hit" { print $2 }' /proc/vmstat)
check_eq "... a delta, not a level: numa_hit of a run is below the counter ($v0)" \
	"$(sql "select count(*) from sample where metric = 'vmstat.numa_hit' and value >= 0 and value < $v0")" "3"

# --- on a terminal: the progress line, run i/N and the ETA -----------------
TERM=xterm script -q -e -c "'$KB' run --db '$TMP/tty.db' --variant tty --machine box --runs 3 --monitor none -- hackbench -g 2 -l 50" \
	"$TMP/tty.txt" > /dev/null
check_grep "a terminal gets the progress line: run 2/3 and the ETA" "run: run 2/3, ETA [0-9]+:[0-9]{2}" "$TMP/tty.txt"
check "... erased before each run's line" grep -q $'\e\[Krun 3/3: hackbench' "$TMP/tty.txt"
check_status "--quiet: exits 0" 0 "$KB" run --db "$TMP/tty.db" --variant q --machine box --runs 2 --quiet --monitor none -- "${HB[@]}"
check_eq "... prints the first and last lines only (and what was not recorded)" \
	"$(grep -c '^run ' "$TMP/.out") $(tail -1 "$TMP/.out")" "0 kbench run: 2 runs stored, 0 failed"

check_eq "the view env_v: each run's settings with its machine and variant" \
	"$(sql "select machine, variant, count(distinct source) from env_v where key = 'kernel.release' and value = '$(uname -r)' group by 1, 2")" \
	"box|stock|3"

# --- show --machine ---------------------------------------------------------
check_status "show --machine box exits 0" 0 "$KB" show --machine box
cp "$TMP/.out" "$TMP/show.txt"
check_grep "show --machine: the machine's CPUs, nodes and runs" \
	"^machine box: $cpus CPUs, $nodes nodes?, 3 runs$" "$TMP/show.txt"
check_grep "... the variant's environment" "^variant stock \(recorded 20" "$TMP/show.txt"
check_grep "... the kernel release as recorded" "^  kernel\.release +$(uname -r)$" "$TMP/show.txt"
if [ -r /proc/sys/kernel/numa_balancing ]; then
	check_grep "... kernel.numa_balancing as recorded" \
		"^  kernel\.numa_balancing +$(cat /proc/sys/kernel/numa_balancing)$" "$TMP/show.txt"
fi
check_status "show --machine of no machine exits 2" 2 "$KB" show --machine nosuch
check_eq "... saying so" "$(cat "$TMP/.out")" "kbench show: no machine 'nosuch' in the store (see kbench ls)"

# --- kbench copy takes the environment along ------------------------------
check_status "copy of the store exits 0" 0 "$KB" copy --from "$TMP/run.db" --to "$TMP/copy.db"
check_eq "... every env row, on the copied sources" \
	"$(KBENCH_DB="$TMP/copy.db" sql "select count(*), count(distinct source_id) from env")" \
	"$(sql "select count(*), count(distinct source_id) from env")"
check_eq "... show --machine reads the same from the copy" \
	"$("$KB" show --db "$TMP/copy.db" --machine box | sed 1,2d)" "$(sed 1,2d "$TMP/show.txt")"

# --- defaults: variant uname -r, machine the host name; perf bench ----------
if command -v perf > /dev/null && perf bench sched messaging -g 1 -l 20 > /dev/null 2>&1; then
	check_status "run -- perf bench sched messaging exits 0" 0 \
		"$KB" run --runs 1 -- perf bench sched messaging -g 1 -l 20
	check_eq "... the variant is uname -r, the machine the host name" \
		"$(sql "select v.name, m.name from run r join variant v on v.id = r.variant_id
			join machine m on m.id = r.machine_id where r.id = 4")" "$(uname -r)|$(hostname)"
	check_eq "... read by the perf bench parser" "$(sql "select benchmark, config from run where id = 4")" \
		"hackbench|groups=1,impl=perf,ipc=socket,loops=20,mode=process,tasks=40"
else
	pass "perf bench is not permitted here: its run is left out"
fi

# --- GNU time -v (a make -jN under it, kernbench style), perf stat ----------
export KBENCH_DB="$TMP/tools.db"
if [ -x /usr/bin/time ]; then
	mkdir -p "$TMP/mk"
	printf 'all: a b\na b:\n\t@sleep 0.05\n' > "$TMP/mk/Makefile"
	check_status "run -- /usr/bin/time -v make -j2 exits 0" 0 \
		"$KB" run --variant t --runs 2 --monitor none -- /usr/bin/time -v make -s -j2 -C "$TMP/mk"
	check_eq "... two runs of GNU time's parser, the command as config, elapsed >= 0.05 s" \
		"$(sql "select count(*), min(config), sum(case when s.value >= 0.05 then 1 else 0 end) from run r
			join sample s on s.run_id = r.id and s.metric = 'elapsed'")" "2|command=make -s -j2 -C $TMP/mk|2"
else
	fail "/usr/bin/time is installed (time: scripts/install-deps --check)"
fi
if command -v perf > /dev/null && perf stat true > /dev/null 2>&1; then
	check_status "run -- perf stat true exits 0" 0 "$KB" run --variant p --runs 2 --monitor none -- perf stat true
	check_eq "... two runs of perf stat's parser with task-clock" \
		"$(sql "select count(*), min(r.config) from run r join sample s on s.run_id = r.id
			and s.metric = 'task-clock' where r.benchmark = 'perf-stat'")" "2|cmd=true"
	check_status "run -- perf stat -r 3 true exits 0" 0 "$KB" run --variant p3 --runs 1 --monitor none -- perf stat -r 3 true
	check_grep "... perf's own mean of 3, stored as summaries, said so" \
		"^run 1/1: perf-stat, [0-9]+ summaries \(task-clock [0-9.]+ msec, n 3\)" "$TMP/.out"
else
	pass "perf stat is not permitted here: its runs are left out"
fi

# --- a failing run is stored failed, with its exit status and stderr --------
check_status "a run that fails: exit 1" 1 "$KB" run --variant stock --machine box --runs 1 -- hackbench -g 2 -l 50 --no-such-option
check_grep "... said" "^run 1/1: failed, exit status 1" "$TMP/.out"
check_eq "... stored failed with hackbench's message" \
	"$(sql "select status, case when error like 'exit status 1: %unrecognized option%' then 'said' end
		from run order by id desc limit 1")" "failed|said"

# --- bad input: nothing stored ----------------------------------------------
before=$(sql "select count(*) from source")
check_status "an unknown command exits 127" 127 "$KB" run --runs 2 -- no-such-benchmark-xyz
check_grep "... naming it" "^kbench run: cannot run 'no-such-benchmark-xyz': No such file or directory$" "$TMP/.out"
check_status "a command that prints nothing parseable exits 2" 2 "$KB" run --runs 2 -- echo hello
check_grep "... naming the formats tried" \
	"^kbench run: the output of 'echo hello' is no format kbench reads \(tried: numa_test, hackbench, .*perf-stat, time, .*schbench, perf-bench" "$TMP/.out"
check_status "a {placeholder} naming no config exits 2" 2 "$KB" run --runs 1 -- hackbench -g '{groups}'
check_eq "... saying so" "$(cat "$TMP/.out")" "kbench run: '{groups}' in the command names no --config key (none given)"
check_status "no command exits 2" 2 "$KB" run --runs 1
check_eq "... and nothing of these was stored" "$(sql "select count(*) from source")" "$before"
# No shell: the words go as they are ('$HOME', ';', '*' and blanks untouched).
printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/argv"\necho "Time: 0.125"\n' "$TMP" > "$TMP/argbench"
chmod +x "$TMP/argbench"
check_status "arguments pass as they are (no sh -c)" 0 "$KB" run --runs 1 -- "$TMP/argbench" '$HOME;' 'a b' '*'
check_eq "... the command got them untouched" "$(cat "$TMP/argv")" '$HOME;
a b
*'

# --- monitors: numastat per node, all of vmstat, none ----------------------
export KBENCH_DB="$TMP/mon.db"
check_status "--monitor numastat,vmstat exits 0" 0 "$KB" run --variant m --runs 2 --monitor numastat,vmstat -- "${HB[@]}"
nn=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
check_eq "numastat: numa_hit per node ($nn nodes), each run" \
	"$(sql "select count(distinct metric), count(*) from sample where metric like 'numastat.node%.numa_hit'")" "$nn|$((2 * nn))"
check_eq "vmstat: every /proc/vmstat counter (pgfault among them), each run" \
	"$(sql "select count(*) from sample where metric = 'vmstat.pgfault'")" "2"
check_eq "... the counters compared like any metric (no direction: changed or not)" \
	"$("$KB" compare --baseline m --metric vmstat.pgfault | head -1)" "hackbench  vmstat.pgfault, no better direction"
check_status "--monitor none exits 0" 0 "$KB" run --variant m0 --runs 1 --monitor none -- "${HB[@]}"
check_eq "... and stores no counter" "$(sql "select count(*) from sample s join run r on r.id = s.run_id
	join variant v on v.id = r.variant_id where v.name = 'm0' and s.metric <> 'time'")" "0"
check_status "an unknown monitor exits 2" 2 "$KB" run --monitor numa,bogus -- "${HB[@]}"
check_eq "... naming it" "$(cat "$TMP/.out")" "kbench run: --monitor: unknown monitor 'bogus' (numa, vmstat, numastat or none)"

# --- configs, shuffled per round, reproducible with --seed ------------------
export KBENCH_DB="$TMP/cfg.db"
order() { grep '^run [0-9]*/12 ' "$1" | sed 's/^run \([0-9]*\)\/12 \[groups=\([0-9]*\)\].*/\2/' | tr '\n' ' '; }
check_status "run --config groups=1,2,3,4 --runs 3 --seed 7 exits 0" 0 \
	"$KB" run --variant s7 --runs 3 --seed 7 --monitor none --config groups=1,2,3,4 -- hackbench -g '{groups}' -l 10
cp "$TMP/.out" "$TMP/seed7a.txt"
check_grep "... the seed is printed" "^kbench run: .*; 12 runs of 4 configs, shuffled with --seed 7$" "$TMP/seed7a.txt"
"$KB" run --variant s7b --runs 3 --seed 7 --monitor none --config groups=1,2,3,4 -- hackbench -g '{groups}' -l 10 > "$TMP/seed7b.txt" 2>&1
"$KB" run --variant s8 --runs 3 --seed 8 --monitor none --config groups=1,2,3,4 -- hackbench -g '{groups}' -l 10 > "$TMP/seed8.txt" 2>&1
check_eq "the same seed, the same order" "$(order "$TMP/seed7b.txt")" "$(order "$TMP/seed7a.txt")"
check "another seed, another order ($(order "$TMP/seed8.txt")vs $(order "$TMP/seed7a.txt"))" \
	test "$(order "$TMP/seed8.txt")" != "$(order "$TMP/seed7a.txt")"
rounds() { order "$1" | awk '{ for (r = 0; r < 3; r++) { n = split("", a); s = ""
	for (i = 1; i <= 4; i++) { v = $(r * 4 + i); a[v]++ } for (k in a) n++; printf "%d", n } }'; }
check_eq "... each round runs every config once (4 distinct in each of the 3 rounds)" "$(rounds "$TMP/seed7a.txt")" "444"
check_eq "... stored per config: 3 runs each, groups from the output, the round as iteration" \
	"$(sql "select config, count(*), min(iteration), max(iteration) from run r join variant v on v.id = r.variant_id
		where v.name = 's7' group by config order by config")" \
	"datasize=100,groups=1,impl=rt-tests,ipc=socket,loops=10,mode=process,tasks=40|3|1|3
datasize=100,groups=2,impl=rt-tests,ipc=socket,loops=10,mode=process,tasks=80|3|1|3
datasize=100,groups=3,impl=rt-tests,ipc=socket,loops=10,mode=process,tasks=120|3|1|3
datasize=100,groups=4,impl=rt-tests,ipc=socket,loops=10,mode=process,tasks=160|3|1|3"
check_eq "... each run's command as run, {groups} put in" \
	"$(sql "select group_concat(distinct e.value) from env e join run r on r.source_id = e.source_id
		where e.key = 'command' and r.config like '%groups=3,%'")" "hackbench -g 3 -l 10"
check_status "a --config its command does not use exits 2" 2 "$KB" run --config groups=1,2 -- hackbench -l 10
check_eq "... saying so" "$(cat "$TMP/.out")" "kbench run: --config groups: the command has no {groups} to put its values in"
check_status "a --config value of the wrong kind exits 2" 2 "$KB" run --config groups=0 -- hackbench -g '{groups}'
check_eq "... saying so" "$(cat "$TMP/.out")" "kbench run: --config groups needs a positive whole number, not '0'"
check_status "a bad --seed exits 2" 2 "$KB" run --seed x1 -- hackbench
check_eq "... saying so" "$(cat "$TMP/.out")" "kbench run: --seed needs a whole number, not 'x1'"

# --- --until-decided: stop when the verdict against the baseline is decided --
# fakebench MEAN SALT prints hackbench's output with Time = MEAN (1 + 0.02 z):
# known numbers, the same on every machine.
cat > "$TMP/fakebench" <<'EOS'
#!/bin/sh
d=$(dirname "$0"); n=$(cat "$d/count" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$d/count"
awk -v m="$1" -v s="$n$2" 'BEGIN { srand(s); z = -6; for (i = 0; i < 12; i++) z += rand()
	print "Running in process mode with 2 groups using 40 file descriptors each (== 80 tasks)"
	print "Each sender will pass 50 messages of 100 bytes"
	printf "Time: %.4f\n", m * (1 + 0.02 * z) }'
EOS
chmod +x "$TMP/fakebench"
export KBENCH_DB="$TMP/until.db"
FB=(--monitor none -- "$TMP/fakebench")
"$KB" run --variant base --machine box --runs 10 "${FB[@]}" 1.00 1 > /dev/null 2>&1
check_status "same command as the baseline, threshold 1%: inconclusive at max-runs (exit 3)" 3 \
	"$KB" run --variant again --machine box --until-decided --baseline base --max-runs 8 "${FB[@]}" 1.00 2
cp "$TMP/.out" "$TMP/again.txt"
check_grep "... a verdict at each look from --min-runs on, at its spent alpha (0.05 x 3/8 at look 3)" \
	"^  look 3 \(alpha 0\.0188\): time \[datasize=100,groups=2,.*\] inconclusive \([-+][0-9.]+%, 3 vs 10 runs, p [0-9.e-]+\)$" "$TMP/again.txt"
check_grep "... 0.05/8 at the later looks" "^  look 4 \(alpha 0\.0063\)" "$TMP/again.txt"
check_eq "... no look before --min-runs" "$(grep -c '^  look [12] ' "$TMP/again.txt")" "0"
check_eq "... the final line says which and why" "$(tail -1 "$TMP/again.txt")" \
	"kbench run: inconclusive at max-runs (8 runs): a metric is neither same nor changed at the spent alpha; give --max-runs more"
check_eq "... never worse at any look" "$(grep -c ' worse (' "$TMP/again.txt")" "0"
check_eq "... 8 runs stored" "$(sql "select count(*) from run r join variant v on v.id = r.variant_id where v.name = 'again'")" "8"
check_status "same command, --threshold 5: stops at same before max-runs (exit 0)" 0 \
	"$KB" run --variant same5 --machine box --until-decided --baseline base --threshold 5 --max-runs 12 "${FB[@]}" 1.00 3
check_grep "... decided same" "^kbench run: decided after [0-9]+ runs: same \(0 worse, 0 better, 1 same of 1 metrics" "$TMP/.out"
n=$(sed -n 's/^kbench run: decided after \([0-9]*\) runs.*/\1/p' "$TMP/.out")
check "... before max-runs ($n < 12)" test "${n:-99}" -lt 12
check_status "a baseline 10% faster: stops at worse (exit 1)" 1 \
	"$KB" run --variant slow --machine box --until-decided --baseline base "${FB[@]}" 1.10 4
check_grep "... at the first look, 3 runs of 30" \
	"^kbench run: decided after 3 runs: worse \(1 worse, 0 better, 0 same of 1 metrics, each at its look's alpha\)$" "$TMP/.out"
check_eq "... and stored those 3" "$(sql "select count(*) from run r join variant v on v.id = r.variant_id where v.name = 'slow'")" "3"
check_status "--until-decided without --baseline exits 2" 2 "$KB" run --until-decided "${FB[@]}" 1
check_eq "... saying so" "$(cat "$TMP/.out")" "kbench run: --until-decided needs --baseline VARIANT"
check_status "an unknown baseline exits 2 before anything runs" 2 "$KB" run --until-decided --baseline nosuch "${FB[@]}" 1
check_eq "... saying so" "$(cat "$TMP/.out")" "kbench run: unknown variant 'nosuch'"
check_status "--until-decided with a command that always fails: stops at --min-runs (exit 1)" 1 \
	"$KB" run --variant broken --machine box --until-decided --baseline base --monitor none -- hackbench --no-such-option
check_eq "... saying why" "$(tail -1 "$TMP/.out")" "kbench run: stopped: none of the 3 runs gave a result (each failed)"
# For real: hackbench with 4 times the loops is worse.  (The same command
# against a baseline run minutes before is left to fakebench above: on a
# shared machine the load between the two drifts for real, by 30% at times.)
"$KB" run --variant hb50 --machine box --runs 5 --monitor none -- hackbench -g 2 -l 50 > /dev/null 2>&1
check_status "real hackbench -l 200 against -l 50: worse (exit 1)" 1 \
	"$KB" run --variant hb200 --machine box --until-decided --baseline hb50 --max-runs 6 --monitor none -- hackbench -g 2 -l 200
check_grep "... said before max-runs" "^kbench run: decided after [3-5] runs: worse" "$TMP/.out"
check_grep "... saying the configs differ (loops=50 against loops=200), each side's one compared as asked" \
	"^kbench run: the configs differ, compared as the one each ran: hb50 datasize=100,groups=2,impl=rt-tests,ipc=socket,loops=50,mode=process,tasks=80 against hb200 datasize=100,groups=2,impl=rt-tests,ipc=socket,loops=200,mode=process,tasks=80$" "$TMP/.out"

# --- report: where two variants' recorded environments differ -------------
export KBENCH_DB="$TMP/envdiff.db"
"$KB" run --variant stock --machine box --runs 3 "${FB[@]}" 1.00 5 > /dev/null 2>&1
"$KB" run --variant patched --machine box --runs 3 "${FB[@]}" 1.00 5 > /dev/null 2>&1
check_status "report of two runs in the same environment exits 0" 0 "$KB" report --baseline stock --format text
check_eq "... no environment section: nothing differs" "$(grep -c '^Environment differences' "$TMP/.out")" "0"
# The patched kernel's runs as if on numa_balancing=1 and THP always (a
# machine's settings cannot be changed by a test).
patched="select r.source_id from run r join variant v on v.id = r.variant_id where v.name = 'patched'"
sql "delete from env where key in ('kernel.numa_balancing', 'thp.enabled') and source_id in ($patched)"
sql "insert into env (source_id, key, value) select x.source_id, 'kernel.numa_balancing', '1' from ($patched) x"
sql "insert into env (source_id, key, value) select x.source_id, 'thp.enabled', 'always' from ($patched) x"
# (where this machine has no such file, the baseline's side is '-')
nb=$(cat /proc/sys/kernel/numa_balancing 2>/dev/null)
nb=${nb:--}
thp=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
thp=${thp:--}
"$KB" report --baseline stock --format text > "$TMP/envdiff.txt"
check_eq "report --format text: the header says where the pair's environments differ" \
	"$(sed -n '/^Environment differences/,/^$/p' "$TMP/envdiff.txt" | tr -s ' \n' ' ')" \
	"Environment differences ----------------------- on box, patched against stock: kernel.numa_balancing $nb -> 1; thp.enabled $thp -> always "
"$KB" report --baseline stock > "$TMP/envdiff.html"
check_grep "... and the HTML page" \
	"^<li>on box, patched against stock: kernel\.numa_balancing $nb -&gt; 1; thp\.enabled $thp -&gt; always</li>$" "$TMP/envdiff.html"

# --- completion ------------------------------------------------------------
check_eq "completion: run --format offers the parsers" "$("$KB" __complete 3 kbench run --format sch)" "schbench"
check_eq "completion: run --monitor offers the monitors" "$("$KB" __complete 3 kbench run --monitor numa)" "numa
numastat"
check_eq "completion: run --baseline offers the store's variants" \
	"$("$KB" __complete 5 kbench run --db "$TMP/until.db" --baseline sa)" "same5"

# --- Ctrl-C: the current run finishes, the finished ones stay ---------------
export KBENCH_DB="$TMP/int.db"
"$KB" run --variant v --machine box --runs 500 --monitor none -- hackbench -g 2 -l 200 > "$TMP/int.txt" 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ "$(grep -c '^run [0-9]*/500:' "$TMP/int.txt")" -ge 2 ] && break
	sleep 0.1
done
kill -INT "$pid"
wait "$pid"
rc=$?
check_eq "SIGINT in the middle: exit 130" "$rc" "130"
n=$(grep -c '^run [0-9]*/500: hackbench' "$TMP/int.txt")
check_grep "... says how many were kept" "^kbench run: interrupted \(SIGINT\): $n of 500 runs stored \(each one whole\)$" "$TMP/int.txt"
check_eq "... those runs are stored, each with its time" \
	"$(sql "select count(*), count(distinct s.run_id) from run r join sample s on s.run_id = r.id and s.metric = 'time'")" "$n|$n"
check "... fewer than 500, at least 2 ($n)" test "$n" -ge 2 -a "$n" -lt 500
if on_sqlite; then
	check_eq "... the store passes integrity_check" "$(sqlite3 "$KBENCH_DB" 'pragma integrity_check')" "ok"
	check_eq "... and foreign_key_check" "$(sqlite3 "$KBENCH_DB" 'pragma foreign_key_check')" ""
fi
check_eq "... no run without its source, no source without its run" \
	"$(sql "select (select count(*) from run where source_id not in (select id from source)),
		(select count(*) from source where id not in (select source_id from run))")" "0|0"

# SIGTERM (a kill, or SIGHUP when the terminal goes): the current run is
# ended with kbench, not left running in its own process group.
export KBENCH_DB="$TMP/term.db"
"$KB" run --variant v --machine box --runs 50 --monitor none -- hackbench -g 2 -l 1777 > "$TMP/term.txt" 2>&1 &
pid=$!
for _ in $(seq 200); do
	[ "$(grep -c '^run [0-9]*/50:' "$TMP/term.txt")" -ge 1 ] && break
	sleep 0.1
done
sleep 0.2
kill -TERM "$pid"
wait "$pid"
rc=$?
check_eq "SIGTERM: exit 143" "$rc" "143"
n=$(grep -c '^run [0-9]*/50: hackbench' "$TMP/term.txt")
check_grep "... says so, with the runs kept" "^kbench run: interrupted \(SIGTERM\): $n of 50 runs stored" "$TMP/term.txt"
check_eq "... the runs it said are stored" "$(sql "select count(*) from run")" "$n"
sleep 0.3
check_eq "... and the benchmark it was running is gone too" "$(pgrep -f 'hackbench -g 2 -l 1777' | wc -l)" "0"
