#!/bin/bash
# Issue 21: tables with one column per variant, and outputs pasted side by
# side (ingest/sidebyside.c).  Each input in tests/data/shapes/sidebyside
# is a few lines written for one shape; each test checks the stored
# numbers a user would check (variant, benchmark, config, metric, value).
. tests/lib.sh
D=tests/data/shapes/sidebyside

# Import one file into a fresh store; its exit status is import's, and
# $TMP/out holds what import and import --explain said.
imp() { import_explained "$@"; }

# summaries as "variant|config|mean|sd|n" (sd to 4 digits; n empty when the
# text does not state it), sorted
sums() {
	sql "select variant || '|' || config || '|' || printf('%g', mean) || '|' ||
		case when sd is null then '' else printf('%.4g', sd) end || '|' || coalesce(cast(n as text), '') from summary_v
		where benchmark = '$1' and metric = '$2' order by variant, config"
}

# 1. Decimal commas, a relative sd, an improvement column; loops from the
#    command's "(2560/#grp)".
imp $D/commas-relative-sd.txt
check_eq "commas: imports" "$?" 0
check_eq "commas: means with decimal commas, sd relative, loops = 2560 / groups" "$(sums hackbench time)" \
"v1-base|groups=1,ipc=socket,loops=2560|1.327|0.1335|
v1-base|groups=4,ipc=socket,loops=640|1.25|0.03188|
v1-patched|groups=1,ipc=socket,loops=2560|1.247|0.06796|
v1-patched|groups=4,ipc=socket,loops=640|1.207|0.02559|"
check_eq "commas: the improvement column is no variant" \
	"$(sql "select count(*) from summary_v where variant like 'improv%' or mean = 5.97")" 0

# 2. "(x pct)" changes are not values; the banner names hackbench; two
#    tables with the same rows are kept apart by their headings; a table
#    under another benchmark's banner is not read; "*" after a row dropped.
imp $D/pct-changes.txt
check_eq "pct: imports" "$?" 0
check_eq "pct: means, groups from 'N-groups', headings as labels" "$(sums hackbench time)" \
"patched|groups=1,label=Mode - one|5.06||
patched|groups=1,label=Mode - two|4.97||
patched|groups=16,label=Mode - one|11.75||
patched|groups=16,label=Mode - two|10.07||
tip|groups=1,label=Mode - one|4.97||
tip|groups=1,label=Mode - two|4.87||
tip|groups=16,label=Mode - one|12.35||
tip|groups=16,label=Mode - two|10.27||"
check_eq "pct: the schbench table is not hackbench" \
	"$(sql "select count(*) from summary_v where mean in (13, 14.5, 31.5)")" 0
check_grep "pct: explain names the dropped annotation" "annotation '\*' after the values dropped" "$TMP/out"

# 3. Tab-separated run table: leading config columns (Procs = groups, NR =
#    loops), rows that repeat a config are runs; mode from the script.
imp $D/tabbed-runs.txt
check_eq "runs: imports" "$?" 0
check_eq "runs: one run per row and column" \
	"$(sql "select variant || '|' || config || '|' || group_concat(printf('%g', value), ',') from
		(select variant, config, value from samples_v where benchmark = 'hackbench'
		 order by variant, config, value) q group by variant, config order by variant, config")" \
"SLAB|groups=1,ipc=socket,loops=2000,mode=process|0.5,0.6
SLAB|groups=10,ipc=socket,loops=2000,mode=process|3.1,3.2
SLOB|groups=1,ipc=socket,loops=2000,mode=process|0.8,0.9
SLOB|groups=10,ipc=socket,loops=2000,mode=process|4,4.1
SLUB|groups=1,ipc=socket,loops=2000,mode=process|0.7,0.7
SLUB|groups=10,ipc=socket,loops=2000,mode=process|3.3,3.4"
check_eq "runs: no summaries, no empty command runs" \
	"$(sql "select count(*) from summary_v") $(sql "select count(*) from runs_v where status = 'failed'")" "0 0"

# 4. org-mode describe table: mean/std/min/max of a summary, n from the
#    caption, loops from its command; percentiles left out; sysbench not read.
imp $D/describe-pipes.txt
check_eq "describe: imports" "$?" 0
check_eq "describe: mean, sd, min, max, n" \
	"$(sql "select variant || '|' || config || '|' || printf('%g|%g|%g|%g', mean, sd, min, max) || '|' || n
		from summary_v order by variant")" \
"+PATCH|groups=10,ipc=socket,loops=200|1.11637|0.111952|0.936|1.354|100
-PATCH|groups=10,ipc=socket,loops=200|1.16501|0.124682|0.962|1.488|100"
check_grep "describe: the percentile row is left out with a note" "row '99%' left out" "$TMP/out"

# 5. Transposed: the columns are groups, the rows variants; the change row
#    is no variant; -p -T -l from the command line.
imp $D/transposed.txt
check_eq "transposed: imports" "$?" 0
check_eq "transposed: rows are variants" "$(sums hackbench time)" \
"w/|groups=2,ipc=pipe,loops=20000,mode=thread|1.8428||
w/|groups=4,ipc=pipe,loops=20000,mode=thread|3.7436||
w/|groups=6,ipc=pipe,loops=20000,mode=thread|5.4501||
w/o|groups=2,ipc=pipe,loops=20000,mode=thread|1.8151||
w/o|groups=4,ipc=pipe,loops=20000,mode=thread|3.8499||
w/o|groups=6,ipc=pipe,loops=20000,mode=thread|5.5142||"

# 6. Names with spaces split at two blanks, inline changes ("-45%",
#    "- 0.46 %") dropped, n from "12 iterations of", headings as labels.
imp $D/spaced-names.txt
check_eq "spaced: imports" "$?" 0
check_eq "spaced: three variants with spaces in their names" \
	"$(sql "select group_concat(v, ',') from (select distinct variant v from summary_v order by v) q")" \
	"+ the change below,+ your patchset v5,tip/sched/core"
check_eq "spaced: a mean with n=12 and a mixed-comma relative sd" \
	"$(sql "select printf('%g|%.4f|%d', mean, sd, n) || '|' || config from summary_v where variant = '+ your patchset v5'
		and config like 'groups=1,%' and config like '%shallowest%'")" \
	"1.89|0.6634|12|groups=1,ipc=socket,label=Only the shallowest state enabled,loops=256000"
check_eq "spaced: no change stored as a value" \
	"$(sql "select count(*) from summary_v where mean in (-45, 45, 0.46, -0.46, -1.19)")" 0

# 7. A header of the key alone takes the columns above; -p in the second
#    command gives ipc=pipe for its table only.
imp $D/key-only-header.txt
check_eq "key-only: imports" "$?" 0
check_eq "key-only: the second table under the first one's variants" \
	"$(sql "select variant || '|' || config || '|' || printf('%g', mean) from summary_v where config like '%pipe%'
		order by variant, config")" \
"latency 0|groups=1,ipc=pipe,loops=2560|1.836
latency 0|groups=4,ipc=pipe,loops=640|1.586
latency 19|groups=1,ipc=pipe,loops=2560|1.148
latency 19|groups=4,ipc=pipe,loops=640|1.109"

# 8. kernbench pasted twice: the names line over the first heading; the
#    metric label repeated on each line; "Custom load".
imp $D/kernbench-twice.txt
check_eq "kernbench twice: imports (no '(std deviation)' error)" "$?" 0
check_eq "kernbench twice: each column its variant" \
	"$(sql "select variant || '|' || config || '|' || printf('%g|%g', mean, sd) from summary_v
		where metric = 'elapsed' order by config, variant")" \
"With it|jobs=32,load=custom|236.318|1.56739
Without it|jobs=32,load=custom|236.018|1.32215
With it|jobs=8,load=half|338.122|0.869207
Without it|jobs=8,load=half|336.404|1.69196"
check_eq "kernbench twice: all six metrics of the first block" \
	"$(sql "select count(*) from summary_v where config = 'jobs=8,load=half'")" 12

# 9. kernbench side by side with the names under the heading.
imp $D/kernbench-names-below.txt
check_eq "kernbench names below: imports" "$?" 0
check_eq "kernbench names below: the names line names the columns" \
	"$(sql "select variant || '|' || metric || '|' || printf('%g', mean) from summary_v
		where config = 'jobs=8,load=optimal' and metric in ('elapsed', 'percent_cpu') order by variant, metric")" \
"4.12.0-rc5|elapsed|24.268
4.12.0-rc5|percent_cpu|476
4.12.0-rc5-spf|elapsed|24.514
4.12.0-rc5-spf|percent_cpu|474.3"

# 10. Two columns of kernbench and nothing naming them: left out with a
#     note, never stored under a guess; with nothing else in it, the file
#     is refused with that reason.
imp $D/kernbench-twice-unnamed.txt
check_eq "kernbench unnamed: refused" "$?" 2
check_eq "kernbench unnamed: nothing stored" "$(sql "select count(*) from summary_v")" 0
check_grep "kernbench unnamed: explain says why" "which column is which variant cannot be told" "$TMP/out"

# 11. autonuma Base/Patched pairs; "mTHP:16K" headings are a config.
imp $D/autonuma-pairs.txt
check_eq "autonuma pairs: imports" "$?" 0
check_eq "autonuma pairs: test and mthp from the text" "$(sums autonuma elapsed)" \
"Base|mthp=16K,test=numa01|224.7||
Base|mthp=16K,test=numa02_SMT|14.8||
Base|mthp=64K,test=numa01|216.15||
Patched|mthp=16K,test=numa01|137.23||
Patched|mthp=16K,test=numa02_SMT|7.43||
Patched|mthp=64K,test=numa01|135.2||"

# 12. Numbers that read two ways ("1,327": 1327 or 1.327) are left out.
imp $D/ambiguous-commas.txt
check_eq "ambiguous: refused, nothing else in the file" "$?" 2
check_eq "ambiguous: nothing stored" "$(sql "select count(*) from summary_v")" 0
check_grep "ambiguous: explain says why" "read two ways" "$TMP/out"

# 13. A paragraph that mentions hackbench does not name the table under it.
imp $D/prose-mention.txt
check_grep "prose: not claimed" "no benchmark output recognised" "$TMP/out"
