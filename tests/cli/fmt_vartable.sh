#!/bin/bash
# Issue 23, item 5: hand-made tables with one column per variant whose rows
# are metrics ("Total time"), time(1)'s real/user/sys, vmstat counters or
# bare runs, under the line that says what ran.  Real posts in
# tests/data/vartable (README.txt: provenance, hand-read values and each
# author's own comparison).
. tests/lib.sh
D=tests/data/vartable

# load FILE: import $D/FILE alone into a fresh store, now $KBENCH_DB.
# sums: one line per summary of the store:
# variant|benchmark|config|metric|mean|sd|n (sd "-" unknown).
# (A post's own labels are stored as NAME@Author-date: the name is shown
# up to the '@'.)
load() {
	export KBENCH_DB="$TMP/$(basename "$1").db"
	rm -f "$KBENCH_DB"
	"$KB" import "$D/$1" > "$TMP/out" 2>&1 || echo "import of $1 failed: $(cat "$TMP/out")"
}
# refused FILE MESSAGE: importing $D/FILE stores nothing, fails with the
# reason at its line (file:line: ...).
refused() {
	export KBENCH_DB="$TMP/$(basename "$1").db"
	rm -f "$KBENCH_DB"
	check_status "$1: refused (exit 2)" 2 "$KB" import "$D/$1"
	check_grep "$1: the reason at its line" "^$D/$1:$2" "$TMP/.out"
	check_eq "$1: nothing stored" "$(sql "select count(*) from summary") $(sql "select count(*) from run")" "0 0"
}
strip_post() { sed -E 's/^([^|=@]*)@[^|=]*/\1/'; }
sums() {
	sql "select variant || '|' || benchmark || '|' || config || '|' || metric || '|' ||
		printf('%.6f', mean) || '|' || case when sd is null then '-' else printf('%.6g', sd) end ||
		'|' || coalesce(n, 0) from summary_v" | strip_post | LC_ALL=C sort
}
# runs: one line per sample: variant|benchmark|config|iteration|metric|value.
runs() {
	sql "select r.variant || '|' || r.benchmark || '|' || r.config || '|' || r.iteration || '|' ||
		s.metric || '|' || printf('%.3f', s.value) from samples_v s join runs_v r on r.run_id = s.run_id" |
		strip_post | LC_ALL=C sort
}
explain() { "$KB" import --explain "$1" > "$TMP/explain" 2>&1; echo "$TMP/explain"; }
# change B C BENCH METRIC [CONFIG]: kbench compare's change_pct for C (json).
vname() {
	sql "select distinct variant from (select variant from summary_v union select variant from runs_v) v
		where variant = '$1' or variant like '$1@%'"
}
change() {
	local b c
	b=$(vname "$1"); c=$(vname "$2")
	"$KB" compare --baseline "$b" --variants "$b,$c" --bench "$3" --metric "$4" --format json 2>&1 |
		python3 -c 'import json,sys
d = json.load(sys.stdin)
cfg = sys.argv[2]
for r in d["rows"]:
    if r["variant"].split("@")[0] == sys.argv[1] and (not cfg or all(p in r["config"].split(",") for p in cfg.split(","))):
        print("%.2f" % r["change_pct"]); break' "$2" "${5:-}"
}

HB='groups=5,impl=perf,ipc=socket,loops=100000,mode=thread'

# "Total time  7.473  7.209" under "perf bench sched messaging -g 5 -t -l
# 100000": two published values of hackbench's time, config from the
# command (perf's -t is thread mode), n and sd unknown.
for f in 01-zhou-slub-optimize-cover-total-time-2024 02-zhou-slub-optimize-patch1-total-time-2024 \
	07-babka-reply-quotes-total-time-2024 08-zhou-slub-optimize-v2-cover-total-time-2024; do
	load $f.mail
	check_eq "$f: the Total time row" "$(sums)" \
"mm-stable|hackbench|$HB|time|7.473000|-|0
slub-optimize|hackbench|$HB|time|7.209000|-|0"
	check_near "$f: compare gives the author's -3.53%" "$(change mm-stable slub-optimize hackbench time)" -3.53 0.3
done
check_grep "quoted reply: mail quoting undone before the table is read" "mail quoting removed" \
	"$(explain $D/07-babka-reply-quotes-total-time-2024.mail)"
check_grep "explain names the parser and what the cells are" \
	"vartable: hackbench table, one column per variant \(2\); cells read as published values \(n not stated\)" \
	"$(explain $D/01-zhou-slub-optimize-cover-total-time-2024.mail)"

# Rows without a key under " - perf bench sched messaging": one run per
# cell, the glued "s" read as seconds; plain, ">>"-quoted with TABs, and
# quoted-printable with the TABs made spaces.
for f in 03-zhou-delay-freezing-rfc-runs-and-stressng-2023 04-zhou-reply-requotes-rfc-runs-2023 \
	05-yoo-reply-qp-quoted-rfc-runs-2023; do
	load $f.mail
	check_eq "$f: three runs per variant" "$(runs)" \
"RFC|hackbench|$HB|1|time|6.966
RFC|hackbench|$HB|2|time|7.045
RFC|hackbench|$HB|3|time|6.985
baseline|hackbench|$HB|1|time|7.042
baseline|hackbench|$HB|2|time|7.022
baseline|hackbench|$HB|3|time|7.054"
	check_eq "$f: the stress-ng table is not stored" \
		"$(sql "select count(*) from runs_v where benchmark <> 'hackbench'") $(sql "select count(*) from summary_v")" "0 0"
	check_near "$f: compare gives the author's 'no much improvement' (-0.58%)" \
		"$(change baseline RFC hackbench time)" -0.58 0.3
done
check_grep "another benchmark's table is refused with the reason" \
	"line 85: vartable: table of one column per variant left out: it is stress-ng's, a benchmark kbench does not read here" \
	"$(explain $D/03-zhou-delay-freezing-rfc-runs-and-stressng-2023.mail)"

# time(1)'s real/user/sys and vmstat counters under an autonuma test name.
F=06-raghavendra-vma-scan-fix-time-rows-counters-2023.mail
T='test=numa01_THREAD_ALLOC'
load $F
check_eq "time(1) rows under an autonuma test: elapsed, user, sys in seconds" \
	"$(sums | grep -E '\|(elapsed|user|sys)\|')" \
"base+fix|autonuma|$T|elapsed|63.551000|-|0
base+fix|autonuma|$T|sys|155.767000|-|0
base+fix|autonuma|$T|user|13195.662000|-|0
base-numascan|autonuma|$T|elapsed|63.025000|-|0
base-numascan|autonuma|$T|sys|386.598000|-|0
base-numascan|autonuma|$T|user|12824.232000|-|0
base|autonuma|$T|elapsed|84.163000|-|0
base|autonuma|$T|sys|13.056000|-|0
base|autonuma|$T|user|15063.638000|-|0"
check_eq "vmstat counters as printed, after the blank line" \
	"$(sql "select variant || '=' || printf('%.1f', mean) from summary_v where metric = 'numa_pte_updates'" | strip_post | LC_ALL=C sort)
$(sql "select variant || '=' || printf('%.1f', mean) from summary_v where metric = 'numa_pages_migrated'" | strip_post | LC_ALL=C sort)
$(sql "select count(distinct metric) from summary_v")" \
"base+fix=1265014.0
base-numascan=1989274.0
base=11606.0
base+fix=577728.0
base-numascan=784211.0
base=29.0
10"
check_eq "counters have no better direction; elapsed is lower-is-better" \
	"$(sql "select distinct name || ':' || better from metric where name in ('numa_hint_faults', 'elapsed') order by 1")" \
	"elapsed:lower
numa_hint_faults:none"
check_near "compare gives the author's regression (+33.54%)" \
	"$(change base-numascan base autonuma elapsed)" 33.54 0.3
check_near "compare gives the author's recovery (-24.49%)" \
	"$(change base base+fix autonuma elapsed)" -24.49 0.3

# Refusals: derived from the real tables, with what makes them unreadable.
printf 'It has small performance improvement in testing:\n\n            mm-stable   slub-optimize\nTotal time      7.473    7.209\n' \
	> "$TMP/nobench.txt"
D=$TMP
refused nobench.txt "3: no benchmark output stored: vartable: table of one column per variant left out: nothing above it names its benchmark"
printf ' - perf bench sched messaging -g 5 -t -l 100000\n   baseline\tRFC\n   7.042s\t6.966s\n   7.022s\t7.045s\t7.1s\n   7.054s\t6.985s\n' \
	> "$TMP/ragged.txt"
refused ragged.txt "4: no benchmark output stored: vartable: table left out: this row has 3 values for 2 columns"
printf 'perf bench sched messaging -g 5 --frobnicate -l 100000\n\n            mm-stable   slub-optimize\nTotal time      7.473    7.209\n' \
	> "$TMP/badopt.txt"
refused badopt.txt "3: .*its command has an option kbench does not know \\('--frobnicate'\\)"
printf 'numa01 and numa02 with the patch:\n\n        base   patched\nreal    1m3.025s   1m1.000s\n' > "$TMP/twotests.txt"
refused twotests.txt "3: .*the line above it names more than one autonuma test"
printf 'hackbench -g 10 -l 1000\n\n        base   patched\nreal    0m3.025s   0m3.000s\nTotal time  2.5  2.4\n' > "$TMP/hbreal.txt"
check_eq "time(1)'s real under hackbench is not hackbench's Time" "$(load hbreal.txt; sums)" \
"base|hackbench|groups=10,ipc=socket,loops=1000|time|2.500000|-|0
patched|hackbench|groups=10,ipc=socket,loops=1000|time|2.400000|-|0"
check_grep "the real row is left out with the reason" "row 'real' left out: it is no hackbench metric" \
	"$(explain $TMP/hbreal.txt)"
# A table whose rows are configs stays sidebyside's.
printf 'hackbench results:\n\nGroups  Loops   SLAB    SLUB\n10      1000    1.23    1.10\n' > "$TMP/configrows.txt"
check_grep "config rows are not claimed here" "sidebyside \(score" "$(explain $TMP/configrows.txt)"

# The author's change, as a column of its own (under a "Metric" title) or
# after the values: never a value, and the variants' cells stay theirs.
printf 'perf bench sched messaging -g 5 -t -l 100000\n\n    Metric      mm-stable   slub-optimize   change\n    Total time      7.473    7.209          -3.53%%\n' \
	> "$TMP/changecol.txt"
printf 'perf bench sched messaging -g 5 -t -l 100000\n\n            mm-stable   slub-optimize\nTotal time      7.473    7.209   (-3.53%%)\n' \
	> "$TMP/changeafter.txt"
for f in changecol changeafter; do
	check_eq "$f: the change is not stored" "$(load $f.txt; sums)" \
"mm-stable|hackbench|$HB|time|7.473000|-|0
slub-optimize|hackbench|$HB|time|7.209000|-|0"
done
check_grep "explain says the change is the author's" "line 4: vartable: a change beside the values is the author's comparison" \
	"$(explain $TMP/changeafter.txt)"
# "± sd" after a value, a unit in the row key.
printf 'hackbench -g 10 -l 1000 -p\n\n                 base          patched\nTime (msec)      2500 ± 30     2400 ± 25\n' > "$TMP/sd.txt"
check_eq "a ± sd and a unit in the row key" "$(load sd.txt; sums)" \
"base|hackbench|groups=10,ipc=pipe,loops=1000|time|2.500000|0.03|0
patched|hackbench|groups=10,ipc=pipe,loops=1000|time|2.400000|0.025|0"
