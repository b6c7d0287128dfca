#!/bin/bash
# Issue 23, item 2: the kernel test robot's (0-day, lkp) reports as mailed
# to the lists (format lkp-report).  Real mails from 2013 to 2026 in
# tests/data/lkprobot (README.txt: provenance and the hand-read rows);
# each check is a number a user would look up after importing a report.
. tests/lib.sh
D=tests/data/lkprobot

# imp NAME FILE...: import the files into a fresh store $TMP/NAME.db.
imp() {
	local name=$1; shift
	rm -f "$TMP/$name.db"
	KBENCH_DB="$TMP/$name.db" "$KB" import "$@" > "$TMP/$name.out" 2>&1
}
# q NAME QUERY
q() { KBENCH_DB="$TMP/$1.db" sql "$2"; }
# cell NAME METRIC VARIANT COLUMN: one summary_v column of one summary.
cell() {
	q "$1" "select $4 from summary_v where metric = '$2' and variant = '$3'"
}
# stat NAME METRIC VARIANT KEY: one statistic of the summary's stats JSON.
stat() {
	cell "$1" "$2" "$3" stats | python3 -c 'import json, sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$4"
}
# nonull X: 'none' when the column is NULL (portable across both backends).
nonull() { echo "case when $1 is null then 'none' else 'some' end"; }

# --- a 2024 report: the section header, the commit list, ± ---------------
W="$D/2024-05-17_memcg_will-it-scale.eml"
check "2024 will-it-scale report imports" imp wis "$W"
check_eq "every row of its table is two summaries" "$(q wis "select count(*) from summary")" 478
check_eq "the headline row: variants, machine, benchmark, config" \
	"$(q wis "select variant || '|' || machine || '|' || benchmark || '|' || config from summary_v
		where metric = 'will-it-scale.per_process_ops' order by variant")" \
"59142d87ab|lkp-skl-fpga01|will-it-scale|compiler=gcc-13,cpufreq_governor=performance,kconfig=x86_64-rhel-8.3,mode=process,nr_task=100%,rootfs=debian-12-x86_64-20240206.cgz,test=page_fault2
70a64b7919|lkp-skl-fpga01|will-it-scale|compiler=gcc-13,cpufreq_governor=performance,kconfig=x86_64-rhel-8.3,mode=process,nr_task=100%,rootfs=debian-12-x86_64-20240206.cgz,test=page_fault2"
check_near "base mean 91713" "$(cell wis will-it-scale.per_process_ops 59142d87ab mean)" 91713
check_near "candidate mean 80789" "$(cell wis will-it-scale.per_process_ops 70a64b7919 mean)" 80789
check_near "the robot's %change is the candidate's pub_change" \
	"$(cell wis will-it-scale.per_process_ops 70a64b7919 pub_change)" -11.9
check_eq "the base column has no published change" \
	"$(cell wis will-it-scale.per_process_ops 59142d87ab "$(nonull pub_change)")" none
check_eq "the robot prints no mark, but the headline names this regression: '*'" \
	"$(cell wis will-it-scale.per_process_ops 70a64b7919 "'[' || pub_mark || ']'")" "[*]"
check_eq "... and no other row of the report is marked" \
	"$(q wis "select count(*) from summary where pub_mark <> ''")" 1
# No ± printed: lkp hides a spread of at most 2% (since 2017; this table
# prints only ± 2% and above): sd is that bound, flagged; n unknown.
check_near "no ± in a 2017+ table: sd = 2% of the mean" \
	"$(cell wis will-it-scale.per_process_ops 59142d87ab sd)" 1834.26 1e-6
check_eq "flagged sd_bound, n unknown" \
	"$(cell wis will-it-scale.per_process_ops 59142d87ab "flags || '|' || coalesce(n, 0)")" "sd_bound|0"
# ± 7%: lkp prints 100*sd/mean with %d, so sd < 8%: the upper end is kept,
# the printed 7 is a statistic of the cell.
check_near "± 7%: sd = 8% of 245257" \
	"$(cell wis 'sched_debug.cfs_rq:/.avg_vruntime.stddev' 59142d87ab sd)" 19620.56 1e-6
check_near "the printed 7 is kept as stddev_pct" \
	"$(stat wis 'sched_debug.cfs_rq:/.avg_vruntime.stddev' 59142d87ab stddev_pct)" 7
check_near "a '...%' stat's change in points is change_abs, not pub_change" \
	"$(stat wis 'mpstat.cpu.all.usr%' 70a64b7919 change_abs)" -0.8
check_eq "... and it has no pub_change" \
	"$(cell wis 'mpstat.cpu.all.usr%' 70a64b7919 "$(nonull pub_change)")" none
check_eq "the commit list's titles describe the variants" \
	"$(q wis "select description from variant where name = '70a64b7919'")" "memcg: dynamically allocate lruvec_stats"
check_eq "catalogue: per_process_ops and workload higher, a perf-stat counter none" \
	"$(q wis "select name || '=' || better from metric where benchmark = 'will-it-scale' and
		name in ('will-it-scale.per_process_ops', 'will-it-scale.workload', 'perf-stat.i.ipc') order by name")" \
"perf-stat.i.ipc=none
will-it-scale.per_process_ops=higher
will-it-scale.workload=higher"
"$KB" import --explain "$W" > "$TMP/wis.explain" 2>&1
check_grep "explain: how sd and n were read" "sd is the upper end of the printed relative spread.*at most 2%.*n unknown" "$TMP/wis.explain"
check_grep "explain: the robot prints no mark and lists only changed stats" \
	"prints no significance mark and lists only the stats its own test found changed" "$TMP/wis.explain"

# --- compare with the robot's verdict beside kbench's: a hackbench section
H="$D/2025-03-10_memcg_netperf_hackbench.eml"
check "2025 netperf report with a hackbench section imports" imp hb "$H"
check_eq "seven sections, six testcases" \
	"$(q hb "select distinct benchmark from summary order by benchmark" | tr '\n' ' ')" \
	"hackbench lmbench3 netperf stress-ng vm-scalability will-it-scale "
check_eq "hackbench config in kbench's key names (mode=thread for lkp's threads)" \
	"$(q hb "select distinct machine || '|' || config from summary_v where benchmark = 'hackbench'")" \
	"lkp-icl-2sp2|compiler=gcc-12,cpufreq_governor=performance,ipc=socket,iterations=4,kconfig=x86_64-rhel-9.4,mode=thread,nr_threads=100%,rootfs=debian-12-x86_64-20240206.cgz"
check_near "hackbench.throughput published change" \
	"$(cell hb hackbench.throughput 01d37228d3 pub_change)" -26.6
KBENCH_DB="$TMP/hb.db" "$KB" compare --bench hackbench --metric hackbench.throughput > "$TMP/hb.compare" 2>&1
check_grep "compare --bench hackbench --metric hackbench.throughput: kbench's change, the table's" \
	"415614 +304910 +-26\.6 \? -26\.60%" "$TMP/hb.compare"
check_grep "compare says why it cannot test: the report gives no n" \
	"without n \(the source does not say over" "$TMP/hb.compare"
# The report names its regressions in its own words: the headline and
# the "testcase: change" table.  Those rows, and only those, carry the
# robot's own verdict ('*'), which regress takes where it cannot test.
"$KB" import --explain "$H" > "$TMP/hb.explain" 2>&1
check_grep "explain: the headline's regression is marked, with the line it names it at" \
	"netperf.Throughput_Mbps -37.9% for 01d37228d3 is the regression the report names at line 5: marked '\*'" "$TMP/hb.explain"
check_grep "explain: a row of the 'testcase: change' table" \
	"hackbench.throughput -26.6% for 01d37228d3 is the regression the report names at line 37" "$TMP/hb.explain"
check_eq "marked: the 7 changes the report names, in 7 sections" \
	"$(q hb "select count(*) from summary where pub_mark = '*'")" 7
check_eq "netperf twice, told apart by size and parameters: -37.9% at nr_threads=50%, +39.9% at 200%" \
	"$(q hb "select case when config like '%nr_threads=50\%%' escape '\\' then '50' when config like '%nr_threads=200\%%' escape '\\' then '200' else '?' end, pub_change from summary_v where metric = 'netperf.Throughput_Mbps' and pub_mark = '*' order by pub_change" | tr '\n' ' ')" \
	"50|-37.9 200|39.9 "
check_eq "an unnamed row of the same section stays unmarked" \
	"$(cell hb hackbench.throughput_avg 01d37228d3 pub_mark)" ""
check_eq "the baseline of the published change is the report's first column" \
	"$(cell hb hackbench.throughput 01d37228d3 pub_base)" 8c57b687e8
check_status "regress --baseline <parent commit> exits 1: the report's regressions, by its own test" 1 \
	env KBENCH_DB="$TMP/hb.db" "$KB" regress --baseline 8c57b687e8 --bench hackbench --metric hackbench.throughput
KBENCH_DB="$TMP/hb.db" "$KB" regress --baseline 8c57b687e8 --bench hackbench --metric hackbench.throughput > "$TMP/hb.regress" 2>&1
check_grep "... names hackbench.throughput -26.6%, said to be the source's verdict" \
	"^  worse +hackbench on lkp-icl-2sp2 .*hackbench.throughput +01d37228d3: 415614 -> 304910 +-26\.6% +q=- +by the source's own test" "$TMP/hb.regress"
KBENCH_DB="$TMP/hb.db" "$KB" regress --baseline 8c57b687e8 > "$TMP/hb.all" 2>&1
check_eq "the whole report: worse are the six regressions it names" \
	"$(grep '^  worse ' "$TMP/hb.all" | grep -c "by the source's own test")|$(grep -c '^  worse ' "$TMP/hb.all")" "6|6"
check_grep "... and better the one improvement it names" \
	"^  better +netperf on lkp-icl-2sp2 .*nr_threads=200%.*netperf.Throughput_Mbps .*\+39\.9% +q=- +by the source's own test" "$TMP/hb.all"
check_grep "... a row it does not name stays inconclusive" \
	"^  inconclusive hackbench .*hackbench.throughput_avg .*-25\.9%" "$TMP/hb.all"
KBENCH_DB="$TMP/hb.db" "$KB" regress --baseline 8c57b687e8 --format json --bench hackbench --metric hackbench.throughput > "$TMP/hb.rjson" 2>&1
check_eq "JSON: verdict_by says whose verdict it is" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(f["verdict"]+":"+f["verdict_by"] for f in d["findings"]))' "$TMP/hb.rjson")" "worse:source"
check_status "--own-verdicts: kbench's own tests only, nothing is worse (exit 0)" 0 \
	env KBENCH_DB="$TMP/hb.db" "$KB" regress --own-verdicts --baseline 8c57b687e8 --bench hackbench --metric hackbench.throughput
KBENCH_DB="$TMP/hb.db" "$KB" regress --own-verdicts --baseline 8c57b687e8 --bench hackbench --metric hackbench.throughput > "$TMP/hb.own" 2>&1
check_grep "... it is inconclusive, too few" "inconclusive hackbench .*hackbench.throughput .*-26\.6%.*too_few" "$TMP/hb.own"
check_status "against another baseline the robot's verdict is not taken (exit 0)" 0 \
	env KBENCH_DB="$TMP/hb.db" "$KB" regress --baseline 01d37228d3 --bench hackbench --metric hackbench.throughput

# --- n from fail:runs: regress names the regression the report names ----
F="$D/2021-02-14_ext4_fxmark_failruns.eml"
check "2021 fxmark report with fail:runs imports" imp fx "$F"
check_eq "n = 4 runs a side, from ':4'" \
	"$(q fx "select distinct n from summary_v where metric = 'fxmark.hdd_ext4_no_jnl_MWCL_1_bufferedio.works/sec'")" 4
# sd at most 2% (population, divided by n): the sample sd bound is
# 2% * sqrt(4/3) of the mean.
check_near "sd bound with n known: 10532 * 0.02 * sqrt(4/3)" \
	"$(cell fx fxmark.hdd_ext4_no_jnl_MWCL_1_bufferedio.works/sec a932b2b788 sd)" 243.2261 1e-5
check_status "regress --baseline <parent commit> exits 1" 1 \
	env KBENCH_DB="$TMP/fx.db" "$KB" regress --baseline a932b2b788
KBENCH_DB="$TMP/fx.db" "$KB" regress --baseline a932b2b788 > "$TMP/fx.regress" 2>&1
check_grep "... and names the report's regression" \
	"^  worse +fxmark on lkp-knm01 .*fxmark\.hdd_ext4_no_jnl_MWCL_1_bufferedio\.works/sec +ef4eebad9c: 10532 -> 9497 +-9\.8%" "$TMP/fx.regress"
check_eq "... and nothing else worse" "$(grep -c '^  worse ' "$TMP/fx.regress")" 1
KBENCH_DB="$TMP/fx.db" "$KB" compare --metric fxmark.hdd_ext4_no_jnl_MWCL_1_bufferedio.works/sec > "$TMP/fx.compare" 2>&1
check_grep "compare: n, mean(sd) per commit, kbench's worse mark beside the robot's -9.80%" \
	"^ +4 10532\(243\) +9497\(219\) +-9\.8 - -9\.80%" "$TMP/fx.compare"
"$KB" import --explain "$F" > "$TMP/fx.explain" 2>&1
check_grep "explain: n from the fail:runs rows" "n per column from the fail:runs rows \(4 runs of a932b2b788" "$TMP/fx.explain"

# --- the same report quoted whole in a quoted-printable reply -----------
Q="$D/2021-02-25_re_dilger_fxmark_qp.eml"
check "the quoted-printable reply imports alone" imp qp "$Q"
check_eq "quoted, QP: the same 720 summaries" "$(q qp "select count(*) from summary")" 720
check_near "quoted, QP: the headline row's candidate" \
	"$(cell qp fxmark.hdd_ext4_no_jnl_MWCL_1_bufferedio.works/sec ef4eebad9c mean)" 9497
check "report and reply together" imp both "$F" "$Q"
check_eq "the reply's copy is not stored twice" "$(q both "select count(*) from summary")" 720

# --- 2013: '~ N%', host/category/testcase/params rows, TOTAL -------------
O="$D/2013-12-18_wu_tlb-flush_hackbench.eml"
check "2013 report imports" imp old "$O"
check_eq "TOTAL hackbench.throughput block: three rows, two columns" \
	"$(q old "select variant || '|' || machine || '|' || config || '|' || printf('%.6g', mean) || '|' || printf('%.6g', sd) || '|' ||
		case when pub_change is null then '-' else printf('%.3g', pub_change) end from summary_v where metric = 'hackbench.throughput'
		order by machine, config, variant")" \
"eabb1f8990|brickland2|params=600%-process-pipe|86131|861.31|-3.1
v3.13-rc3|brickland2|params=600%-process-pipe|88901|2667.03|-
eabb1f8990|brickland2|params=600%-process-socket|157931|3158.62|3.1
v3.13-rc3|brickland2|params=600%-process-socket|153250|4597.5|-
eabb1f8990|lkp-snb01|params=1600%-threads-pipe|167969|1679.69|1.9
v3.13-rc3|lkp-snb01|params=1600%-threads-pipe|164886|3297.72|-"
"$KB" import --explain "$O" > "$TMP/old.explain" 2>&1
check_grep "the TOTAL row, a sum, is not stored" "TOTAL hackbench.throughput is the sum of the rows above it: not stored" "$TMP/old.explain"
check_eq "benchmark from the row: hackbench, not the monitor's" \
	"$(q old "select count(*) from summary where benchmark = 'hackbench' and metric = 'proc-vmstat.nr_tlb_remote_flush'")" 20

# --- 2013, quoted in a reply ----------------------------------------------
R="$D/2013-12-20_re_gorman_ebizzy.eml"
check "2013 quoted reply imports" imp mel "$R"
check_eq "quoted 2013 tables: ebizzy rows" \
	"$(q mel "select variant || '|' || machine || '|' || config || '|' || printf('%.6g', mean) from summary_v
		where metric = 'ebizzy.throughput' and machine in ('lkp-ib03', 'lkp-t410') order by config, machine, variant")" \
"eabb1f8990|lkp-ib03|params=200%-100-10|48650
v3.13-rc3|lkp-ib03|params=200%-100-10|49242
eabb1f8990|lkp-t410|params=200%-100-10|2744
v3.13-rc3|lkp-t410|params=200%-100-10|2738
eabb1f8990|lkp-ib03|params=400%-5-30|49549
v3.13-rc3|lkp-ib03|params=400%-5-30|50307"
check_near "'~ 1%': sd below 2% of 50307" \
	"$(q mel "select sd from summary_v where variant = 'v3.13-rc3' and config = 'params=400%-5-30'")" 1006.14 1e-6
"$KB" import --explain "$R" > "$TMP/mel.explain" 2>&1
check_grep "rows quoted without their TOTAL line are left out, with the reason" \
	"mail quoting removed" "$TMP/mel.explain"

# --- 2014: 'test case:' over TOTAL rows, +Inf%, spreads with no value -----
J="$D/2014-06-26_mempolicy_vm-scalability.eml"
check "2014 report imports" imp jet "$J"
check_eq "2014: the test case line gives machine, benchmark and params" \
	"$(q jet "select variant || '|' || machine || '|' || benchmark || '|' || config || '|' || printf('%.6g', mean) || '|' ||
		case when pub_change is null then '-' else printf('%.3g', pub_change) end from summary_v where metric = 'vm-scalability.migrate_mbps' order by variant")" \
"5507231dd0|ivb44|vm-scalability|params=300s-migrate|284195|-18.2
8c81f3eeb3|ivb44|vm-scalability|params=300s-migrate|347258|-"
check_eq "a spread with no value is no summary" \
	"$(q jet "select count(*) from summary where metric = 'turbostat.Cor_W'")" 0
"$KB" import --explain "$J" > "$TMP/jet.explain" 2>&1
check_grep "explain: +Inf% is a change from 0" "'\+Inf%' is a change from 0: no published % change" "$TMP/jet.explain"
check_grep "explain: the valueless spread" "a spread printed with no value: no summary" "$TMP/jet.explain"

# --- a reply's own table: three commit columns, no parameter header -----
T="$D/2024-05-19_re_sang_will-it-scale_3col.eml"
check "3-column reply imports" imp three "$T"
check_eq "three columns, each against the first" \
	"$(q three "select variant || '|' || printf('%.6g', mean) || '|' || case when pub_change is null then '-' else printf('%.3g', pub_change) end || '|' || coalesce(machine, '-') || '|' || config
		from summary_v order by variant")" \
"59142d87ab|91713|-|-|
70a64b7919|80789|-11.9|-|
ff48c71c26|79612|-13.2|-|"
"$KB" import --explain "$T" > "$TMP/three.explain" 2>&1
check_grep "explain: benchmark from the rows' names" "no parameter header: benchmark will-it-scale from the rows' names" "$TMP/three.explain"
check_grep "explain: no spread printed, sd unknown" "no spread is printed: sd unknown" "$TMP/three.explain"
check_eq "no spread: sd unknown" "$(q three "select count(*) from summary where sd is not null")" 0

# --- other testcases and years --------------------------------------------
check "2020 fio report imports" imp fio "$D/2020-09-25_ext4_fio-basic.eml"
check_near "fio.write_iops candidate" "$(cell fio fio.write_iops 4e8fc10115 mean)" 11683335
check_near "fio.write_iops change" "$(cell fio fio.write_iops 4e8fc10115 pub_change)" 330.6
check_eq "fio: iops higher, a latency lower in us" \
	"$(q fio "select name || '=' || better || '/' || unit from metric where name in ('fio.write_iops', 'fio.write_clat_mean_us') order by name")" \
"fio.write_clat_mean_us=lower/us
fio.write_iops=higher/"
check "2021 707 KB aim7 report imports" imp aim7 "$D/2021-07-27_ext4_aim7.eml"
check_near "aim7.jobs-per-min base" "$(cell aim7 aim7.jobs-per-min 45f1df8c51 mean)" 90668
check_near "aim7.jobs-per-min change" "$(cell aim7 aim7.jobs-per-min 57e8668f62 pub_change)" 60.2
check_eq "aim7: jobs-per-min is higher" \
	"$(q aim7 "select better from metric where name = 'aim7.jobs-per-min'")" higher
check "2026 stress-ng report imports" imp sng "$D/2026-05-12_mm_stress-ng.eml"
check_near "stress-ng.switch.ops_per_sec candidate" "$(cell sng stress-ng.switch.ops_per_sec 01b9da291c mean)" 12355813
check_near "... its printed ± 3% kept" \
	"$(stat sng stress-ng.switch.ops_per_sec 01b9da291c stddev_pct)" 3

# --- what is not stored, and says why -------------------------------------
"$KB" import --explain "$D/2025-10-27_sched_rcutorture_failruns-only.eml" > "$TMP/fail.explain" 2>&1
check_grep "a fail:runs table alone: nothing to store, and why" \
	"only a fail:runs table \(counts of runs that failed, no performance numbers\): nothing to store" "$TMP/fail.explain"
check_status "refusals: a file whose sections cannot be placed fails (exit 2)" 2 \
	"$KB" import "$D/derived-refusals.txt"
"$KB" import "$D/derived-refusals.txt" > "$TMP/ref.out" 2>&1
check_grep "... with file:line and the reason" \
	"derived-refusals.txt:9: no benchmark output stored: lkp-report: 9 parameter names over 8 values" "$TMP/ref.out"
"$KB" import --explain "$D/derived-refusals.txt" > "$TMP/ref.explain" 2>&1
check_grep "a table of monitor rows with no header is refused" \
	"line 28: lkp-report: a table with no parameter header whose rows name no one testcase: not stored" "$TMP/ref.explain"
"$KB" import --list-formats > "$TMP/formats" 2>&1
check_grep "import --list-formats lists lkp-report with an example" \
	"^lkp-report +kernel test robot .*hackbench\.throughput" "$TMP/formats"

# --- inside an mbox: each message its own source ---------------------------
for f in 2024-05-17_memcg_will-it-scale.eml 2024-05-19_re_sang_will-it-scale_3col.eml 2013-12-20_re_gorman_ebizzy.eml; do
	printf 'From lkp@example Thu Jan  1 00:00:00 1970\n'; cat "$D/$f"; printf '\n'
done > "$TMP/robot.mbox"
check "an mbox of three robot mails imports" imp mbox "$TMP/robot.mbox"
check_eq "... every message's tables: 478 + 3 + 14 summaries" "$(q mbox "select count(*) from summary")" 495
check_near "... the report's headline row from inside the mbox" \
	"$(q mbox "select mean from summary_v where metric = 'will-it-scale.per_process_ops' and variant like '70a64b7919@%'
		and source like '%202405171353.b56b845-oliver.sang@intel.com'")" 80789
# A post's names are its own: two mails naming one commit show it as
# name@post (kbench relabel can merge them), never pooled by a guess.
check_eq "... the commit both mails name is kept apart per mail" \
	"$(q mbox "select variant from summary_v where metric = 'will-it-scale.per_process_ops' and variant like '59142d87ab%' order by variant")" \
"59142d87ab@Sang-2024-05-19
59142d87ab@robot-2024-05-17"
