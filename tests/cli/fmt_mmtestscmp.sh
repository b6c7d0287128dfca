#!/bin/bash
# Issue 23, item 1: mmtests compare-kernels tables as posted in mails
# (ingest/mmtestscmp.c).  Real mails in tests/data/mmtestscmp (README.txt
# gives each one's Message-ID, list, date and archive); every number
# checked here was read off the mail by hand.
. tests/lib.sh
D=tests/data/mmtestscmp

# imp NAME: import one mail into its own store; prints nothing, sets DB.
imp() {
	DB="$TMP/$1.db"
	if ! KBENCH_DB="$DB" "$KB" import "$D/$1.mail" > "$TMP/$1.out" 2>&1; then
		fail "import $1" "$(cat "$TMP/$1.out")"
		return 1
	fi
	pass "import $1"
}
# q SQL: query the last imported store.
q() { KBENCH_DB="$DB" sql "$1"; }
# cell VARIANT BENCH CONFIG METRIC: mean|sd|n|pub_change|pub_mark of one summary.
cell() {
	q "select printf('%.6g', t.mean) || '|' || case when t.sd is null then '-' else printf('%.6g', t.sd) end || '|' || coalesce(t.n, 0)
	   || '|' || case when t.pub_change is null then '-' else printf('%.2f', t.pub_change) end || '|' || t.pub_mark
	   from summary t join variant v on v.id = t.variant_id
	   where v.name = '$1' and t.benchmark = '$2' and t.config = '$3' and t.metric = '$4'
	   order by t.id limit 1"
}

# 1. Four kernels under one title, '*' marks; a second table repeats two.
M=01-gorman-fsnotify-four-kernels-2020
if imp $M; then
	check_eq "variants: <top>-<bottom> header lines, mmtests' run names" \
		"$(q "select name from variant order by id" | tr '\n' ' ')" \
		"5.7.0-vanilla 5.7.0-fastfsnotify-v1r1 5.7.0-amir-20200608 5.7.0-amir-for-mel "
	check_eq "baseline column: mean, no published verdict" \
		"$(cell 5.7.0-vanilla hackbench 'groups=1,ipc=pipe,mode=process' time)" "0.4837|-|0|-|"
	check_eq "significant gain kept as printed" \
		"$(cell 5.7.0-fastfsnotify-v1r1 hackbench 'groups=24,ipc=pipe,mode=process' time)" \
		"10.029|-|0|8.98|*"
	check_eq "a negative gain, marked" \
		"$(cell 5.7.0-amir-20200608 hackbench 'groups=3,ipc=pipe,mode=process' time)" \
		"1.6587|-|0|-7.38|*"
	check_eq "unmarked change" \
		"$(cell 5.7.0-amir-for-mel hackbench 'groups=30,ipc=pipe,mode=process' time)" \
		"12.163|-|0|7.16|"
	check_eq "summaries: 9 groups x 4 kernels, then 9 x 2" "$(q "select count(*) from summary")" 54
	# The second table re-compares amir-for-mel against fastfsnotify: each
	# published % is shown against its own baseline only.
	pubchg() {	# BASELINE: amir-for-mel's published % at groups=30, or "none"
		KBENCH_DB="$DB" "$KB" compare --bench hackbench --metric time --format json \
			--config groups=30,ipc=pipe,mode=process ${1:+--baseline "$1"} |
			python3 -c 'import json, sys
r = [r for r in json.load(sys.stdin)["rows"] if r["variant"] == "5.7.0-amir-for-mel"][0]
print(r["published"]["change"] if "published" in r else "none")'
	}
	check_eq "second table: its baseline column is stored as the change's baseline" \
		"$(q "select distinct p.name from summary s join variant v on v.id = s.variant_id join variant p on p.id = s.pub_base where v.name = '5.7.0-amir-for-mel' order by 1" | tr '\n' ' ')" \
		"5.7.0-fastfsnotify-v1r1 5.7.0-vanilla "
	check_eq "against vanilla: the first table's +7.16%, not the second's" "$(pubchg)" 7.16
	check_eq "against fastfsnotify: the second table's +5.35%" "$(pubchg 5.7.0-fastfsnotify-v1r1)" 5.35
	check_eq "against amir-20200608: no table compared them, none shown" "$(pubchg 5.7.0-amir-20200608)" none
	KBENCH_DB="$DB" "$KB" compare --format json > "$TMP/hb.json" 2>&1
	check_eq "direction: hackbench time lower, seconds" \
		"$(jq -r '[.rows[0].unit, .rows[0].better] | join("|")' "$TMP/hb.json")" "s|lower"
fi

# 2. Glued names (vanillasched-scalewakegran-v2r4), Hmean (throughput).
M=02-gorman-wakegran-hackbench-tbench4-specjbb-2021
if imp $M; then
	DB2=$DB
	check_eq "glued names cut where the columns end" \
		"$(q "select v.name from variant v where exists (select 1 from summary t where t.variant_id = v.id and t.benchmark = 'tbench4') order by v.id" | tr '\n' ' ')" \
		"5.15.0-rc1-vanilla 5.15.0-rc1-sched-scalewakegran-v2r4 5.15.0-rc1-sched-moveforward-v1r1 "
	check_eq "tbench4 Hmean: throughput, clients" \
		"$(cell 5.15.0-rc1-sched-moveforward-v1r1 tbench4 clients=8 throughput)" "2684.21|-|0|-4.96|*"
	KBENCH_DB="$DB" "$KB" compare --bench tbench4 --format json > "$TMP/tb.json" 2>&1
	check_eq "Hmean tables are higher-is-better, MB/s" \
		"$(jq -r '[.rows[0].unit, .rows[0].better] | join("|")' "$TMP/tb.json")" "MB/s|higher"
	check_eq "specjbb tput-8: metric tput, the rest param=" \
		"$(cell 5.15.0-rc1-vanilla specjbb param=8 tput)" "237983|-|0|-|"
	check_eq "hackbench-process-pipes, 3 kernels" \
		"$(cell 5.15.0-rc1-sched-scalewakegran-v2r4 hackbench 'groups=296,ipc=pipe,mode=process' time)" \
		"29.4237|-|0|25.01|*"
fi

# 3. kernbench user-/syst-/elsp-, Stddev and CoeffVar; prose titles.
M=03-gorman-wakegran-kernbench-netperf-dbench-2021
if imp $M; then
	check_eq "kernbench elsp-80: elapsed at jobs=80, sd from Stddev" \
		"$(cell 5.15.0-rc1-sched-moveforward-v1r1 kernbench jobs=80 elapsed)" "48.7|2.4|0|0.14|"
	check_eq "kernbench syst-80: system, marked" \
		"$(cell 5.15.0-rc1-sched-moveforward-v1r1 kernbench jobs=80 system)" "232.93|3.65|0|6.29|*"
	check_eq "CoeffVar kept as a statistic" \
		"$(q "select stats from summary_v where variant = '5.15.0-rc1-vanilla' and benchmark = 'kernbench' and metric = 'user'")" \
		'{"CoeffVar":0.67}'
	check_eq "netperf-tcp-rr: Hmean, Min and Max" \
		"$(q "select printf('%.2f|%.2f|%.2f|%.2f', mean, sd, min, max) from summary_v where benchmark = 'netperf-tcp-rr' and variant = '5.15.0-rc1-vanilla'")" \
		"39112.22|3471.61|32388.28|53019.93"
	check_eq "dbench named in the sentence above: loadfile latency" \
		"$(cell 5.15.0-rc1-sched-moveforward-v1r1 dbench clients=128 latency)" "531.35|-|0|-60.81|*"
	check_eq "dbench4 table" "$(cell 5.15.0-rc1-vanilla dbench4 clients=1 latency)" "29.51|1.43|0|-|"
	"$KB" import --explain "$D/$M.mail" > "$TMP/explain3" 2>&1
	check_grep "explain: glued names noted" "kernel names run together; cut where their columns end" "$TMP/explain3"
	check_grep "explain: benchmark from prose noted" "benchmark dbench read from this line above the table" "$TMP/explain3"
fi

# 5. One header line with names holding quotes; pipes and sockets.
M=05-song-slub-hackbench-pipes-sockets-2024
if imp $M; then
	check_eq "one header line: names as printed" \
		"$(q "select name from variant order by id" | tr '\n' '|')" '6.9-rc2(with ">")|6.9.0-rc2(with ">=")|'
	check_eq "hackbench-process-sockets: ipc=socket" \
		"$(cell '6.9.0-rc2(with ">=")' hackbench 'groups=64,ipc=socket,mode=process' time)" "3.764|-|0|-0.65|*"
fi

# 6. A commit mail: tbench named in prose, Amean and Stddev rows.
M=06-tipbot-avgidle-tbench-prose-hackbench-2021
if imp $M; then
	check_eq "tbench from the sentence above it" \
		"$(cell 5.13.0-rc2-sched-avgidle-v1r5 tbench clients=8 throughput)" "2586.4|-|0|-10.47|*"
	check_eq "hackbench mean and sd from Amean and Stddev" \
		"$(cell 5.13.0-rc2-sched-avgidle-v1r5 hackbench 'groups=110,ipc=pipe,mode=process' time)" \
		"19.4263|0.0532|0|8.47|*"
fi

# 7. Duration and Ops blocks (monitor metrics), a '%gain' heading.
M=07-raghavendra-numascan-kernbench-duration-ops-2024
if imp $M; then
	check_eq "'%gain' is no kernel" "$(q "select name from variant order by id" | tr '\n' ' ')" "base patched "
	check_eq "Duration User" "$(cell patched kernbench '' duration_user)" "41375.1|-|0|-|"
	check_eq "Ops NUMA hint faults" "$(cell base kernbench '' numa_hint_faults)" "263296|-|0|-|"
	check_eq "Ops: direction none" \
		"$(q "select better from metric where benchmark = 'kernbench' and name = 'numa_pages_migrated'")" none
	check_eq "Duration: lower, seconds" \
		"$(q "select unit || '|' || better from metric where benchmark = 'kernbench' and name = 'duration_sys'")" "s|lower"
fi

# 8. A reply quoting ("> ") one-header-line pgbench and tbench tables of
# four kernels, then a second pgbench table under "Also on Raspberrypi 4B:".
M=08-guittot-quotes-yang-migcost-pgbench-tbench-2021
if imp $M; then
	check_eq "four kernels from one quoted header line" \
		"$(q "select name from variant order by id" | tr '\n' ' ')" \
		"mig-cost-500000 mig-cost-100000 mig-cost-10000 mig-cost-1000000 "
	check_eq "pgbench Hmean: tps at clients, a negative marked gain" \
		"$(cell mig-cost-1000000 pgbench clients=144 tps)" "64940.6|-|0|-14.88|*"
	check_eq "pgbench: an unmarked change" \
		"$(cell mig-cost-100000 pgbench clients=48 tps)" "67867.9|-|0|-0.43|"
	check_eq "pgbench baseline column" "$(cell mig-cost-500000 pgbench clients=256 tps)" "57476.1|-|0|-|"
	check_eq "tbench (config-network-tbench) title" \
		"$(cell mig-cost-100000 tbench clients=128 throughput)" "6810.9|-|0|46.94|*"
	check_eq "the second machine's table: two kernels kept apart, labelled" \
		"$(q "select v.name || ' ' || printf('%.2f', s.mean) || ' ' || case when s.pub_change is null then '-' else printf('%.2f', s.pub_change) end from summary s join variant v on v.id = s.variant_id where s.config = 'clients=1,label=Also on Raspberrypi 4B' order by s.id" | tr '\n' '|')" \
		"mig-cost-500000 1651.41 -|mig-cost-100000 3444.27 108.56|"
	check_eq "summaries: pgbench 13x4 + 4x2, tbench 10x4" \
		"$(q "select group_concat(x, ' ') from (select benchmark || '=' || count(*) as x from summary group by benchmark order by benchmark) q")" \
		"pgbench=60 tbench=40"
	check_eq "pgbench tps: higher, txn/s" \
		"$(q "select unit || '|' || better from metric where benchmark = 'pgbench' and name = 'tps'")" "txn/s|higher"
	KBENCH_DB="$DB" "$KB" compare --bench pgbench --baseline mig-cost-500000 \
		--variants mig-cost-500000,mig-cost-10000 --change better --format json > "$TMP/pg.json" 2>&1
	check_eq "compare: 13 published pgbench rows for mig-cost-10000 (the Kunpeng table)" \
		"$(jq '[.rows[] | select(.published) | select(.config | tostring | test("label") | not)] | length' "$TMP/pg.json")" 13
	check_eq "compare: kbench's change within 0.3 points of every printed one" \
		"$(jq '[.rows[] | select(.published) | (.change_pct - .published.change) | fabs | select(. > 0.3)] | length' "$TMP/pg.json")" 0
fi

# 9. A reply that comments inside the tables it quotes: netperf-udp's
# header, the reply's paragraph, the send- rows, another paragraph, the
# recv- rows; a netperf-tcp table quoted without its header is left.
M=09-bellasi-quotes-eggemann-uclamp-netperf-2020
if imp $M; then
	check_eq "kernels from the two quoted header lines" \
		"$(q "select name from variant order by id" | tr '\n' ' ')" \
		"./5.7.0-rc7-without-clamp ./5.7.0-rc7-with-clamp ./5.7.0-rc7-with-clamp-tskgrp "
	check_eq "send-8192: metric send at size=8192, marked" \
		"$(cell ./5.7.0-rc7-with-clamp netperf-udp size=8192 send)" "14418.9|-|0|-3.63|*"
	check_eq "recv rows after the reply's second paragraph" \
		"$(cell ./5.7.0-rc7-without-clamp netperf-udp size=8192 recv)" "14961.6|-|0|-|"
	check_eq "recv-2048 third kernel" \
		"$(cell ./5.7.0-rc7-with-clamp-tskgrp netperf-udp size=2048 recv)" "4665.95|-|0|1.24|*"
	check_eq "54 summaries: 9 sizes x send, recv x 3 kernels; no headerless netperf-tcp" \
		"$(q "select count(*) || '|' || count(distinct benchmark) from summary")" "54|1"
	check_eq "netperf-udp send: higher, Mbit/s" \
		"$(q "select unit || '|' || better from metric where benchmark = 'netperf-udp' and name = 'send'")" "Mbit/s|higher"
	"$KB" import --explain "$D/$M.mail" > "$TMP/explain9" 2>&1
	check_grep "explain: the reply's words between header and rows" \
		"line 36: mmtests table: the reply's own words between the quoted header" "$TMP/explain9"
	check_grep "explain: the reply's words between rows" "lines 47-54 are the reply's own words" "$TMP/explain9"
	check_grep "explain: the headerless netperf-tcp table left as prose" "| netperf-tcp" "$TMP/explain9"
fi

# 4. No line names the benchmark: refused, nothing stored.
M=04-molnar-quotes-gorman-numab-untitled-2023
KBENCH_DB="$TMP/r.db" "$KB" import "$D/$M.mail" > "$TMP/refuse.out" 2>&1
check_eq "untitled table refused (exit 2)" "$?" 2
check_grep "refusal names file, line and reason" \
	"04-molnar.*:7: mmtests table: no line above names its benchmark" "$TMP/refuse.out"
check_eq "nothing stored" "$(KBENCH_DB="$TMP/r.db" sql "select count(*) from summary" 2>/dev/null || echo 0)" 0

# Quoted in a reply ("> " and "> > "), and quoted-printable.
sed 's/^/> /' "$D/05-song-slub-hackbench-pipes-sockets-2024.mail" > "$TMP/quoted.txt"
KBENCH_DB="$TMP/qt.db" "$KB" import "$TMP/quoted.txt" > "$TMP/qt.out" 2>&1
check_eq "quoted: same cell" "$(DB="$TMP/qt.db"; cell '6.9.0-rc2(with ">=")' hackbench 'groups=1,ipc=pipe,mode=process' time)" \
	"0.0356|-|0|4.60|*"
sed 's/^/> > /' "$D/02-gorman-wakegran-hackbench-tbench4-specjbb-2021.mail" > "$TMP/quoted2.txt"
KBENCH_DB="$TMP/qt2.db" "$KB" import "$TMP/quoted2.txt" > "$TMP/qt2.out" 2>&1
# quoting keeps the quoted text's own indent (one blank after the last
# '>' is quoting's): the glued names (tbench4's) are cut by the columns
# as in the post itself
check_eq "doubly quoted: the hackbench table read whole" \
	"$(KBENCH_DB="$TMP/qt2.db" sql "select count(*) || '|' || printf('%.4f', sum(mean)) from summary where benchmark = 'hackbench'")" \
	"$(KBENCH_DB="$DB2" sql "select count(*) || '|' || printf('%.4f', sum(mean)) from summary where benchmark = 'hackbench'")"
check_eq "doubly quoted: the tbench4 table with glued names read as in the post" \
	"$(KBENCH_DB="$TMP/qt2.db" sql "select group_concat(x, ';') from (select v.name || ' ' || s.config || ' ' || printf('%.4f', s.mean) as x from summary s join variant v on v.id = s.variant_id where s.benchmark = 'tbench4' order by s.id) q")" \
	"$(KBENCH_DB="$DB2" sql "select group_concat(x, ';') from (select v.name || ' ' || s.config || ' ' || printf('%.4f', s.mean) as x from summary s join variant v on v.id = s.variant_id where s.benchmark = 'tbench4' order by s.id) q")"
check_eq "... all of it" "$(KBENCH_DB="$TMP/qt2.db" sql "select count(*) from summary where benchmark = 'tbench4'")" \
	"$(KBENCH_DB="$DB2" sql "select count(*) from summary where benchmark = 'tbench4'")"

# In an mbox: two messages, each read as its own post.
{ echo "From mmtests@kbench Thu Jun 18 08:46:05 2021"; cat "$D/06-tipbot-avgidle-tbench-prose-hackbench-2021.mail"
  echo; echo "From mmtests@kbench Thu Apr  4 13:58:26 2024"; cat "$D/05-song-slub-hackbench-pipes-sockets-2024.mail"; } > "$TMP/two.mbox"
KBENCH_DB="$TMP/mb.db" "$KB" import "$TMP/two.mbox" > "$TMP/mb.out" 2>&1
check_eq "mbox: both messages' summaries" "$(KBENCH_DB="$TMP/mb.db" sql "select count(*) from summary")" 82

# Acceptance 4: compare reproduces the table's percent column (mmtests
# prints a gain: --change better is its convention) within 0.3 points and
# shows its '*' beside kbench's verdict.
M=06-tipbot-avgidle-tbench-prose-hackbench-2021
KBENCH_DB="$TMP/acc.db" "$KB" import "$D/$M.mail" > /dev/null 2>&1
KBENCH_DB="$TMP/acc.db" "$KB" compare --bench hackbench --baseline 5.13.0-rc2-vanilla \
	--variants 5.13.0-rc2-vanilla,5.13.0-rc2-sched-avgidle-v1r5 --change better --format json > "$TMP/acc.json"
check_eq "acceptance 4: 15 candidate rows carry the table's verdict" \
	"$(jq '[.rows[] | select(.published)] | length' "$TMP/acc.json")" 15
check_eq "acceptance 4: kbench's change within 0.3 points of every printed one" \
	"$(jq '[.rows[] | select(.published) | (.change_pct - .published.change) | fabs | select(. > 0.3)] | length' "$TMP/acc.json")" 0
check_eq "acceptance 4: the marks as printed" \
	"$(jq -r '[.rows[] | select(.published) | .published.mark] | map(if . == "*" then "*" else "." end) | join("")' "$TMP/acc.json")" \
	"...***.********"
KBENCH_DB="$TMP/acc.db" "$KB" compare --bench hackbench --baseline 5.13.0-rc2-vanilla \
	--variants 5.13.0-rc2-vanilla,5.13.0-rc2-sched-avgidle-v1r5 --change better > "$TMP/acc.txt"
check_grep "acceptance 4: text shows the table column" ' %chg +table$' "$TMP/acc.txt"
check_grep "acceptance 4: groups=110 beside kbench's +8.5" '^110 .* \+8\.5 . +\+8\.47%\*$' "$TMP/acc.txt"

# A table whose rows are "<word>-<param>" ("Wakeup-50th-80" ... "Wakeup-max-80",
# tests/realposts/700): every row of it keeps its metric word, the ones
# whose param does not start with a digit too.
R=tests/realposts/700-gorman-preemptnext-hackbench-schbench-mmtests-2025.mail
KBENCH_DB="$TMP/sw.db" "$KB" import "$R" > "$TMP/sw.out" 2>&1
check_eq "schbench Wakeup-max-80: metric wakeup at param=max-80, like Wakeup-50th-80" \
	"$(KBENCH_DB="$TMP/sw.db" sql "select metric || ' ' || config || ' ' || printf('%.2f', mean) from summary_v
		where benchmark = 'schbench' and variant = '6.18.0-rc1-vanilla' and config like 'param=%max%' order by metric")" \
	"rps param=max-80 9193.50
wakeup param=max-80 3874.28"
check_eq "... and no row of the table is left under the generic metric" \
	"$(KBENCH_DB="$TMP/sw.db" sql "select count(*) from summary_v where benchmark = 'schbench' and metric = 'value'")" 0

# A quoted changelog (tests/realposts/702): titles "netperf-tcp -- mmtests
# config config-network-netperf-unbound" name one benchmark (what follows
# " -- mmtests config " is the config file), and a mean row printed twice
# for one size with two values ("Hmean 16384" 38684.28, then 38732.22)
# leaves that cell out; the column whose two values agree keeps it.
R=tests/realposts/702-guittot-quotes-gorman-lbnuma-mmtests-2019.mail
check_status "title with ' -- mmtests config <file>': imports" 0 env KBENCH_DB="$TMP/lb.db" "$KB" import "$R"
check_eq "hackbench-process-pipes under such a title" \
	"$(KBENCH_DB="$TMP/lb.db" sql "select printf('%.4f', mean) from summary_v where benchmark = 'hackbench'
		and variant = '5.5.0-rc1-lbnuma-v1' and config = 'groups=192,ipc=pipe,mode=process'")" "238.3680"
check_eq "a mean printed twice with two values: neither stored" \
	"$(KBENCH_DB="$TMP/lb.db" sql "select count(*) from summary_v where benchmark = 'netperf-tcp'
		and variant = 'lbnuma-v1' and abs(mean - 38684.28) < 0.01 or abs(mean - 38732.22) < 0.01")" 0
check_eq "... the same twice: kept" \
	"$(KBENCH_DB="$TMP/lb.db" sql "select count(*) from summary_v where benchmark = 'netperf-tcp'
		and variant = 'baseline' and abs(mean - 37033.70) < 0.01")" 1
KBENCH_DB="$TMP/lb.db" "$KB" import --dry-run --explain "$R" > "$TMP/lb.explain" 2>&1
check_grep "explain says why" "lbnuma-v1 at size=16384: its Hmean row is printed twice with different values: left out" "$TMP/lb.explain"

# Two tables of one benchmark, the same clients and kernels, under two
# titles ("dbench4 Loadfile Execution Time", "dbench4 All Clients Loadfile
# Execution Time", tests/realposts/700): two measures, each labelled with
# its title's words, not pooled in one cell.
check_eq "dbench4: the two loadfile tables told apart by their titles" \
	"$(KBENCH_DB="$TMP/sw.db" sql "select config || ' ' || printf('%.2f', mean) from summary_v
		where benchmark = 'dbench4' and variant = '6.18-rc1-vanilla' and metric = 'latency' and config like 'clients=4,%' order by mean")" \
	"clients=4,label=Loadfile Execution Time 18.76
clients=4,label=All Clients Loadfile Execution Time 348.88"
check_eq "... a title over another metric (throughput) is not needed: no label" \
	"$(KBENCH_DB="$TMP/sw.db" sql "select config from summary_v where benchmark = 'dbench4' and metric = 'throughput'
		and variant = '6.18-rc1-vanilla' and config = 'clients=4'")" "clients=4"

# Old (2012-2014) autonumabench tables, before mmtests printed statistics:
# the row's first word is the metric (User, System, Elapsed, CPU), the
# second the test (NUMA01 ...), one mean per kernel with its gain.  Written
# for this check (the real post is tests/realposts/751).
cat > "$TMP/oldauto.txt" <<'EOT'
autonumabench
                               3.9.0                 3.9.0
                             vanilla             fix-v1r2
User    NUMA01          1000.00 (  0.00%)      800.00 ( 20.00%)
User    NUMA02_SMT       200.00 (  0.00%)      210.00 ( -5.00%)
System  NUMA01            50.00 (  0.00%)       60.00 (-20.00%)
Elapsed NUMA01           300.00 (  0.00%)      240.00 ( 20.00%)
CPU     NUMA01           350.00 (  0.00%)      340.00 (  2.86%)
EOT
check_status "old autonumabench rows import" 0 env KBENCH_DB="$TMP/oldauto.db" "$KB" import "$TMP/oldauto.txt"
DB="$TMP/oldauto.db"
check_eq "old autonumabench: metric from the first word, test from the second" \
	"$(q "select variant || '|' || config || '|' || metric || '|' || printf('%.2f', mean) || '|' || unit from summary_v where variant = '3.9.0-vanilla' order by config, metric")" \
"3.9.0-vanilla|test=NUMA01|cpu|350.00|%
3.9.0-vanilla|test=NUMA01|elapsed|300.00|s
3.9.0-vanilla|test=NUMA01|system|50.00|s
3.9.0-vanilla|test=NUMA01|user|1000.00|s
3.9.0-vanilla|test=NUMA02_SMT|user|200.00|s"
check_eq "old autonumabench: the printed gain is kept" "$(cell 3.9.0-fix-v1r2 autonumabench test=NUMA01 system)" "60|-|0|-20.00|"
# The same rows under another benchmark's title are no guess: refused.
sed 's/^autonumabench$/hackbench-process-pipes/' "$TMP/oldauto.txt" > "$TMP/oldhb.txt"
check_status "old autonumabench rows under another title are refused" 2 env KBENCH_DB="$TMP/oldhb.db" "$KB" import "$TMP/oldhb.txt"
# Old kernbench rows ("User min ...") are not read as tests.
printf 'kernbench\n                  3.9.0     3.9.0\n                vanilla  fix-v1r2\nUser    min   1000.00 (  0.00%%)   990.00 (  1.00%%)\n' > "$TMP/oldkb.txt"
check_status "old kernbench rows are no autonumabench rows" 2 env KBENCH_DB="$TMP/oldkb.db" "$KB" import "$TMP/oldkb.txt"
# Below an old autonumabench table, after the author's paragraph: the
# totals without "Duration" and the vmstat rows without "Ops", under their
# own header; the paragraph is no label.  Alone, such a table is none.
cat "$TMP/oldauto.txt" - > "$TMP/oldauto2.txt" <<'EOT'


The system time of NUMA01 is worse but
the rest is fine.

                 3.9.0       3.9.0
               vanilla    fix-v1r2
User           1250.00     1010.00
System           50.00       60.00
Elapsed         300.00      240.00

NUMA hint faults        1000        1200
NUMA pages migrated      500         900

That is all.
EOT
check_status "old totals below an old autonumabench table import" 0 env KBENCH_DB="$TMP/oldauto2.db" "$KB" import "$TMP/oldauto2.txt"
DB="$TMP/oldauto2.db"
check_eq "old totals: Duration and Ops rows of both kernels, no label" \
	"$(q "select variant || '|' || config || '|' || metric || '|' || printf('%g', mean) from summary_v where config not like 'test=%' order by metric, variant")" \
"3.9.0-fix-v1r2||duration_elapsed|240
3.9.0-vanilla||duration_elapsed|300
3.9.0-fix-v1r2||duration_sys|60
3.9.0-vanilla||duration_sys|50
3.9.0-fix-v1r2||duration_user|1010
3.9.0-vanilla||duration_user|1250
3.9.0-fix-v1r2||numa_hint_faults|1200
3.9.0-vanilla||numa_hint_faults|1000
3.9.0-fix-v1r2||numa_pages_migrated|900
3.9.0-vanilla||numa_pages_migrated|500"
sed -n '/^   *3.9.0       3.9.0$/,$p' "$TMP/oldauto2.txt" > "$TMP/oldtotals.txt"
KBENCH_DB="$TMP/oldtotals.db" "$KB" import --dry-run --explain "$TMP/oldtotals.txt" > "$TMP/oldtotals.out" 2>&1
check_eq "old totals alone are no mmtests table" "$(grep -c 'mmtests-compare' "$TMP/oldtotals.out")" 0
