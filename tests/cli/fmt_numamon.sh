#!/bin/bash
# NUMA monitors (ingest/numamon.c, ingest/numactl.c): numastat tables,
# /proc/vmstat before/after snapshots, vmstat(8), lkp's monitor files and
# numactl -H, on the real files of tests/data/numamon (README.txt) and
# lkp's corpus.  Values read by hand from the files.
. tests/lib.sh
D=tests/data/numamon
L="$SHARED/corpus/lkp"
v() { sql "select printf('%.6g', value) from samples_v where variant = '$1' and metric = '$2'"; }

# Before/after snapshots: counters stored as after minus before.
check_status "numastat before/after imports" 0 "$KB" import --variant nsba $D/vm-numastat-before-after.txt
check_eq "... numa_hit 47418911 - 47225294 = 193617 pages" "$(v nsba numa-numastat.node0.numa_hit)" "193617"
check_eq "... a run of its own, benchmark numastat, 6 counters" \
	"$(sql "select benchmark || ' ' || count(*) from samples_v where variant = 'nsba' group by benchmark")" "numastat 6"
check_eq "... neutral direction in the catalogue" \
	"$(sql "select better || ' ' || unit from metric where name = 'numa-numastat.node0.numa_hit'")" "none pages"
check_status "grep of /proc/vmstat before/after imports" 0 "$KB" import --variant grepba $D/vm-grep-numa-before-after.txt
check_eq "... proc-vmstat.numa_hit 47805277 - 47608123" "$(v grepba proc-vmstat.numa_hit)" "197154"
check_eq "... 13 keys, all counters" "$(sql "select count(*) from samples_v where variant = 'grepba'")" "13"
check_status "cat /proc/vmstat before/after imports" 0 "$KB" import --variant catba $D/vm-proc-vmstat-before-after.txt
check_eq "... numa_hit 47607989 - 47419323" "$(v catba proc-vmstat.numa_hit)" "188666"
check_eq "... pgfault 65673764 - 65475596" "$(v catba proc-vmstat.pgfault)" "198168"
check_eq "... levels (nr_free_pages) are not stored from a pair" \
	"$(sql "select count(*) from samples_v where variant = 'catba' and metric = 'proc-vmstat.nr_free_pages'")" "0"
check_status "--explain says so" 0 "$KB" import --explain $D/vm-proc-vmstat-before-after.txt
check_grep "... counters as after minus before, levels left out with the reason" \
	"142 counters stored as after minus before; 50 levels not stored: a before/after pair measures events" "$TMP/.out"
check_status "numastat -n before/after imports" 0 "$KB" import --variant nsn $D/vm-numastat-n-before-after.txt
check_near "... Numa_Hit 187406.79 - 186739.96 MB" "$(v nsn numastat.node0.Numa_Hit)" "666.83" 1e-6

# A lone snapshot of counters since boot measures no run: refused.
for f in vm-numastat.txt vm-numastat-n.txt vm-grep-numa-once.txt; do
	"$KB" import $D/$f > "$TMP/one.out" 2>&1; rc=$?
	check_eq "$f: a lone snapshot of counters is refused" "$rc" "2"
	check_grep "... file:line: the reason" "$f:[0-9]+: no benchmark output stored: .*not stored: one snapshot of counters kept since boot measures no run" "$TMP/one.out"
done
n0=$(sql "select count(*) from run")
"$KB" import $D/post-rooflinemeasurement-readme.md > /dev/null 2>&1
check_eq "a post whose only numastat is one snapshot stores no run" "$(sql "select count(*) from run")" "$n0"

# Tables of levels are stored as read.
check_status "numastat -m imports (stderr's 'Token ... not in hash table' lines among it)" 0 \
	"$KB" import --variant nsm $D/vm-numastat-m.txt
check_eq "... MemTotal and MemFree of node 0, MB" \
	"$(v nsm numastat.node0.MemTotal) $(v nsm numastat.node0.MemFree)" "5849.73 4500.03"
check_eq "... the Total column is checked, not stored" \
	"$(sql "select count(*) from samples_v where variant = 'nsm' and metric like '%Total%' and metric not like '%HugePages_Total'")" "1"
check_status "numastat -p imports" 0 "$KB" import --variant nsp $D/vm-numastat-p.txt
check_eq "... Private 1.75 MB, pid and process in the config, the Total row left out" \
	"$(sql "select config || ' ' || printf('%.2f', value) from samples_v where variant = 'nsp' and metric = 'numastat-p.node0.Private'") $(sql "select count(*) from samples_v where variant = 'nsp'")" \
	"pid=27218,process=sleep 1.75 4"
check_status "vmstat(8) imports" 0 "$KB" import --variant vm8 $D/vm-vmstat-1-4.txt
check_eq "... the since-boot first row left out: cs mean of 3 rows" \
	"$(v vm8 vmstat.system.cs)" "$(awk 'NR > 3 { s += $12; n++ } END { printf "%.6g", s / n }' $D/vm-vmstat-1-4.txt)"

# vmstat(8) with other options (recorded here, README.txt): levels as the
# mean of the rows after the first, read by hand.
vv() { sql "select group_concat(printf('%.6g', value), ' ') from (select value from samples_v where variant = '$1' and metric in ($2) order by metric) q"; }
check_status "vmstat 1 5 imports" 0 "$KB" import --variant vm15 $D/vm-vmstat-1-5.txt
check_eq "... cs (1657+1489+1626+1572)/4, us 60, sy 39.25" \
	"$(v vm15 vmstat.system.cs) $(v vm15 vmstat.cpu.us) $(v vm15 vmstat.cpu.sy)" "1586 60 39.25"
check_status "vmstat -t 1 3 imports" 0 "$KB" import --variant vmt $D/vm-vmstat-t.txt
check_eq "... bo (1356+1484)/2, the timestamp not a column, 17 metrics" \
	"$(v vmt vmstat.io.bo) $(sql "select count(*) from samples_v where variant = 'vmt'")" "1420 17"
check_status "vmstat -a 1 3 imports" 0 "$KB" import --variant vma $D/vm-vmstat-a.txt
check_eq "... inact 1095772, active 814712, bo (10848+836)/2" \
	"$(v vma vmstat.memory.inact) $(v vma vmstat.memory.active) $(v vma vmstat.io.bo)" "1.09577e+06 814712 5842"
check_status "vmstat -w 1 3 (wide: '--procs--' header) imports" 0 "$KB" import --variant vmw $D/vm-vmstat-w.txt
check_eq "... in (708+826)/2, cs (1721+1494)/2, free 23154508, gu" \
	"$(v vmw vmstat.system.in) $(v vmw vmstat.system.cs) $(sql "select printf('%.0f', value) from samples_v where variant = 'vmw' and metric = 'vmstat.memory.free'") $(v vmw vmstat.cpu.gu)" \
	"767 1607.5 23154508 0"
check_status "vmstat -a -w 2 3 imports" 0 "$KB" import --variant vmaw $D/vm-vmstat-a-w.txt
check_eq "... bi (42622+12404)/2, inact 709960, r (8+16)/2" \
	"$(v vmaw vmstat.io.bi) $(v vmaw vmstat.memory.inact) $(v vmaw vmstat.procs.r)" "27513 709960 12"
check_status "vmstat -t -w 1 3 imports" 0 "$KB" import --variant vmtw $D/vm-vmstat-t-w.txt
check_eq "... bo (2308+1288)/2, in (913+788)/2, 18 metrics" \
	"$(v vmtw vmstat.io.bo) $(v vmtw vmstat.system.in) $(sql "select count(*) from samples_v where variant = 'vmtw'")" "1798 850.5 18"
check_status "vmstat -S M 1 3 imports" 0 "$KB" import --variant vmsm $D/vm-vmstat-S-M.txt
check_eq "... free 22575 and cache 1321 as printed (MiB), bo (0+17656)/2" \
	"$(v vmsm vmstat.memory.free) $(v vmsm vmstat.memory.cache) $(v vmsm vmstat.io.bo)" "22575 1321 8828"
check_eq "... with no unit claimed" "$(sql "select count(*) from samples_v where variant = 'vmsm' and metric like 'vmstat.memory.%' and coalesce(unit, '') <> ''")" "0"
check_status "... --explain" 0 "$KB" import --explain $D/vm-vmstat-S-M.txt
check_grep "... says the memory columns' unit is not known from the output" \
	"line 2: vmstat: the memory columns are stored as printed, with no unit: KiB, unless vmstat was run with -S" "$TMP/.out"

# numastat -p of several processes (recorded here): left out with a note,
# not an error that fails the file.
"$KB" import $D/vm-numastat-p-multi.txt > "$TMP/pm.out" 2>&1; rc=$?
check_eq "numastat -p of two PIDs alone stores nothing" "$rc" "2"
check_grep "... file:line: the reason" \
	"vm-numastat-p-multi.txt:2: no benchmark output stored: numastat -p: not stored: a table of several processes" "$TMP/pm.out"
{ cat $D/vm-numastat-p-multi.txt; echo; cat $D/vm-numastat-before-after.txt; } > "$TMP/pm-pair.txt"
KBENCH_DB="$TMP/pm.db" check_status "the table of two PIDs before a numastat before/after pair: the file imports" 0 \
	"$KB" import --variant pmpair "$TMP/pm-pair.txt"
check_eq "... the pair's numa_hit 193617, nothing of the PIDs stored" \
	"$(KBENCH_DB="$TMP/pm.db" v pmpair numa-numastat.node0.numa_hit) $(KBENCH_DB="$TMP/pm.db" sql "select count(*) from samples_v where metric like 'numastat-p%'")" "193617 0"
KBENCH_DB="$TMP/pm.db" check_status "... --explain" 0 "$KB" import --explain "$TMP/pm-pair.txt"
check_grep "... names the table left out" "line 2: numastat -p: not stored: a table of several processes \(one row per PID" "$TMP/.out"

# A mail that quotes the snapshots.
{ printf 'From: a@example.org\nSubject: Re: numa counters\nMessage-ID: <numamon-quoted@example.org>\n\nOn Monday someone wrote:\n'
  sed 's/^/> /' $D/vm-grep-numa-before-after.txt; } > "$TMP/quoted.mail"
KBENCH_DB="$TMP/quoted.db" check_status "the pair quoted in a mail imports" 0 "$KB" import --variant quoted "$TMP/quoted.mail"
check_eq "... the same change" "$(KBENCH_DB="$TMP/quoted.db" v quoted proc-vmstat.numa_hit)" "197154"
check_status "... and into the store that has the file: a copy, not a second run" 0 "$KB" import "$TMP/quoted.mail"
check_eq "... one run of that change" "$(sql "select count(*) from samples_v where metric = 'proc-vmstat.numa_hit' and value = 197154")" "1"

# Compared like any metric.
check_status "compare two variants on a monitor metric" 0 "$KB" compare --bench vmstat --metric proc-vmstat.numa_hit \
	--variants grepba,catba --baseline grepba
check_grep "... both values in the table" "197154.*188666" "$TMP/.out"

# numactl -H fills the machine's nodes and CPUs.
check_status "numactl --hardware (4 nodes) imports onto --machine" 0 "$KB" import --machine rhel4 $D/post-nrookie-redhat-recap.md
check_eq "... 40 CPUs, 4 nodes" "$(sql "select cpus || ' ' || nodes from machine where name = 'rhel4'")" "40 4"
check_grep "... distances in the description" "x" <(sql "select description from machine where name = 'rhel4'" | grep -q "10 21 21 21 / 21 10 21 21" && echo x)
check_status "numactl -H in a post with numastat" 0 "$KB" import --machine roofline $D/post-rooflinemeasurement-readme.md
check_eq "... 36 CPUs, 2 nodes" "$(sql "select cpus || ' ' || nodes from machine where name = 'roofline'")" "36 2"
"$KB" import $D/vm-numactl-H.txt > "$TMP/nm.out" 2>&1; rc=$?
check_eq "numactl -H alone naming no machine is refused" "$rc" "2"
check_grep "... with the reason" "vm-numactl-H.txt:(1:)? .*does not name it: give --machine NAME" "$TMP/nm.out"
check_status "... and stored with --machine" 0 "$KB" import --machine vm $D/vm-numactl-hardware.txt
check_eq "... 2 CPUs, 1 node" "$(sql "select cpus || ' ' || nodes from machine where name = 'vm'")" "2 1"

# numactl -H quoted in mails (README.txt) and recorded again here.
mach() { sql "select cpus || ' ' || nodes from machine where name = '$1'"; }
desc() { sql "select description from machine where name = '$1'"; }
check_status "numactl -H quoted in a 2012 linux-mm reply (an 'AA>' partial copy above it)" 0 \
	"$KB" import --machine aa24 $D/post-arcangeli-autonuma-alpha6-2012.mail
check_eq "... 24 CPUs, 2 nodes" "$(mach aa24)" "24 2"
check_grep "... 12276 + 12288 MB, distances 10 21 / 21 10" "24564 MB; node distances 10 21 / 21 10" <(desc aa24)
check_status "numactl -H of a memory-tiering box (two CPU-less PMEM nodes)" 0 \
	"$KB" import --machine tier96 $D/post-zijlstra-tiering-slit-2022.mail
check_eq "... 96 CPUs, 4 nodes" "$(mach tier96)" "96 4"
check_grep "... 64136 + 64466 + 2 x 253952 MB, the SLIT's distances" \
	"636506 MB; node distances 10 21 17 28 / 21 10 28 17 / 17 28 10 28 / 28 17 28 10" <(desc tier96)
check_status "numactl -H of a 4-node VM quoted in a netdev reply" 0 \
	"$KB" import --machine vm16 $D/post-toukan-cpumask-local-spread-2022.mail
check_eq "... 16 CPUs, 4 nodes" "$(mach vm16)" "16 4"
check_grep "... 3869 + 1969 + 1967 + 7842 MB, distances 10 50 30 70 / ..." \
	"15647 MB; node distances 10 50 30 70 / 50 10 70 30 / 30 70 10 50 / 70 30 50 10" <(desc vm16)
check_status "numactl -H recorded again here" 0 "$KB" import --machine vm2 $D/vm-numactl-H-2.txt
check_eq "... 2 CPUs, 1 node" "$(mach vm2)" "2 1"
check_grep "... 7897 MB" "1 NUMA node, 2 CPUs, 7897 MB" <(desc vm2)

# lkp's monitors, alone: the change of counters over the series, the
# mean of levels.
check_status "lkp numa-numastat imports" 0 "$KB" import --variant lkpns $L/generated/numa-numastat/01
check_eq "... numa_hit 4065091 - 4052644 over 3 readings" "$(v lkpns numa-numastat.node0.numa_hit)" "12447"
check_status "recorded numa-meminfo imports" 0 "$KB" import --variant lkpmi $D/lkp-vm/numa-meminfo
check_eq "... MemFree: the mean of 4369704 4223112 4012964 3879228 kB" "$(v lkpmi numa-meminfo.node0.MemFree)" "4.12125e+06"

# In an lkp result tree, the monitors are samples of the directory's run.
P=performance-pipe-8-process-100%
for r in 0 1; do
	d="$TMP/lkp/hackbench/$P/lkp-vm/debian-12-x86_64/x86_64-rhel-9.4/gcc-12/0a1b2c3d4e/$r"
	mkdir -p "$d"
	cp "$L/hackbench/hackbench" "$d/hackbench"
	if [ $r = 0 ]; then cp $D/lkp-vm/* "$d/"; else cp "$L"/generated/{numa-numastat,proc-vmstat,numa-vmstat,numa-meminfo}/01 "$d/" 2>/dev/null
		for m in numa-numastat proc-vmstat numa-vmstat numa-meminfo; do cp "$L/generated/$m/01" "$d/$m"; done; rm -f "$d/01"; gzip "$d/proc-vmstat"; fi
done
export KBENCH_DB="$TMP/tree.db"
"$KB" import --layout lkp "$TMP/lkp" > "$TMP/tree.out" 2>&1; rc=$?
check_eq "an lkp tree with monitors imports" "$rc" "0"
check_eq "... 2 hackbench logs and 8 monitor files read" "$(grep -c '^/.*: [a-z,-]*, [0-9]* runs' "$TMP/tree.out")" "10"
check_eq "... monitor runs: benchmark hackbench, the commit, the host, params, iterations 1 and 2" \
	"$(sql "select benchmark || ' ' || variant || ' ' || machine || ' ' || config || ' ' || iteration from samples_v where metric = 'numa-numastat.node0.numa_hit' order by iteration")" \
	"$(printf '%s\n' "hackbench 0a1b2c3d4e lkp-vm params=$P 1" "hackbench 0a1b2c3d4e lkp-vm params=$P 2")"
check_eq "... run 0's numa_hit: 48593502 - 48358574 (recorded here), run 1's: lkp's 12447" \
	"$(sql "select group_concat(printf('%.0f', value), ' ') from (select value from samples_v where metric = 'numa-numastat.node0.numa_hit' order by iteration) q")" "234928 12447"
check_eq "... the gzipped proc-vmstat too" \
	"$(sql "select printf('%.0f', value) from samples_v where metric = 'proc-vmstat.numa_hit' and iteration = 2")" \
	"$(awk '$1 == "numa_hit" { v[n++] = $2 } END { print v[n-1] - v[0] }' "$L/generated/proc-vmstat/01")"
check_status "compare --bench hackbench --metric proc-vmstat.numa_hit" 0 "$KB" compare --bench hackbench --metric proc-vmstat.numa_hit
check_grep "... one row, the two directories as runs" "proc-vmstat.numa_hit" "$TMP/.out"

# The report shows a section's NUMA monitors next to numa_test's job
# placement (an lkp tree of numa_test with monitors, two commits).
S="$SHARED/seeds/003_7caa478a1fca98f9.txt"
for c in aaaa1111 bbbb2222; do
	d="$TMP/nt/numa_test/4-randupdt/lkp-vm/debian-12-x86_64/x86_64-rhel-9.4/gcc-12/$c/0"
	mkdir -p "$d"
	if [ $c = aaaa1111 ]; then sed -n 83,95p "$S" > "$d/numa_test"; cp $D/lkp-vm/* "$d/"
	else sed -n 117,129p "$S" > "$d/numa_test"
		for m in numa-numastat proc-vmstat numa-vmstat numa-meminfo; do cp "$L/generated/$m/01" "$d/$m"; done; fi
done
export KBENCH_DB="$TMP/nt.db"
check_status "an lkp numa_test tree with monitors imports" 0 "$KB" import --layout lkp "$TMP/nt"
check_status "report --format text" 0 "$KB" report --format text -o "$TMP/nt.txt"
check_grep "... a NUMA monitors block after the job placement" "numa_test NUMA monitors of these runs" "$TMP/nt.txt"
check_eq "... placement first, then the monitors" \
	"$(grep -nE 'job placement: percent|NUMA monitors of these runs' "$TMP/nt.txt" | cut -d: -f2- | cut -c1-30 | tr '\n' '|')" \
	"numa_test job placement: perce|numa_test NUMA monitors of the|"
check_grep "... numa_hit of both commits: 234928 and 12447" "^params=4-randupdt 1 +234928 +12447" "$TMP/nt.txt"
check_grep "... memory levels counted, not shown" "[0-9]+ other monitor metrics \(memory" "$TMP/nt.txt"
# (the Findings list every inconclusive comparison, monitors' too; the
# tables from "Verdicts" on leave the memory levels out)
check_eq "... and not in the main table" "$(sed -n '/^Verdicts$/,$p' "$TMP/nt.txt" | grep -c 'nr_free_pages\|MemFree')" "0"
check_status "report --format html" 0 "$KB" report -o "$TMP/nt.html" --no-charts
check_grep "... an HTML block of its own" "<h3>NUMA monitors</h3>" "$TMP/nt.html"
check_eq "... after the job placement" \
	"$(grep -o '<h3>Job placement</h3>\|<h3>NUMA monitors</h3>' "$TMP/nt.html" | tr '\n' '|')" "<h3>Job placement</h3>|<h3>NUMA monitors</h3>|"
