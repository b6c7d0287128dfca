#!/bin/bash
# kbench compare's text, md and CSV tables (issue 24, items 8 and 9, and
# the geomean summary row): 80 columns with blocks of columns, the row-key
# heading, a machine's block shows only that machine's variants, CSV and md
# name the machine, --use-flagged says the footnoted cells were tested,
# every value mark of a cell with footnotes that cover it, and the geomean
# row with the number a user would check.
. tests/lib.sh

SEEDS="$SAMPLES/seeds"
widest() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }

# --- seed 000: five variants in 80 columns ----------------------------------
export KBENCH_DB="$TMP/s0.db"
"$KB" import "$SEEDS/000_009ccda627cb3777.txt" >/dev/null 2>&1
"$KB" compare --bench hackbench --baseline A@000 >"$TMP/s0.txt" 2>&1
w=$(widest "$TMP/s0.txt")
check "seed 000, 5 variants: every line within 80 columns (widest $w)" test "$w" -le 80
check_eq "... in two blocks of columns, each led by the baseline A" \
	"$(grep -cE '^groups +n +A ' "$TMP/s0.txt")" 2
check_eq "... every variant in one of them" \
	"$(grep -E '^groups +n +A ' "$TMP/s0.txt" | tr -s ' ' | cut -d' ' -f4- | tr '\n' ' ' | grep -oE '\b[B-E]\b' | sort | tr -d '\n')" BCDE
check_grep "the row-key column is headed by its key (groups)" '^groups +n +A +B +%chg' "$TMP/s0.txt"
"$KB" compare --bench hackbench --rows variant >"$TMP/s0r.txt"
check_grep "--rows variant: the key column is headed 'variant'" '^variant +n +10 +%chg' "$TMP/s0r.txt"
w=$(widest "$TMP/s0r.txt")
check "--rows variant within 80 columns (widest $w)" test "$w" -le 80

# The geomean row: benchstat's geometric mean of new/base per column.
# B: 5.37/5.54, 15.13/15.28, 31.96/32.65, 67.14/67.67 -> -1.741%.
check_grep "a geomean row under the rows: B -1.7, C -79.9" '^geomean +-1\.7 +-79\.9$' "$TMP/s0.txt"
check_grep "... and its footnote says what entered and that it is no test" \
	'g geomean: the geometric mean of new/base over the rows with a %chg' "$TMP/s0.txt"
"$KB" compare --bench hackbench --baseline A --format json >"$TMP/s0.json"
gm() {   # FILE VARIANT FIELD: the geomeans record of a variant
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print([g[sys.argv[3]] for g in d["geomeans"] if g["variant"] == sys.argv[2]][0])' "$@"
}
check_near "JSON geomeans: B change_pct = geomean of the four ratios - 1" "$(gm "$TMP/s0.json" B change_pct)" \
	"$(python3 -c 'import math; r=[5.37/5.54,15.13/15.28,31.96/32.65,67.14/67.67]; print((math.exp(sum(map(math.log,r))/4)-1)*100)')" 1e-6
check_eq "... over 4 of 4 rows" "$(gm "$TMP/s0.json" B rows)/$(gm "$TMP/s0.json" B of)" 4/4
"$KB" compare --bench hackbench --baseline A --change speed --format json >"$TMP/s0s.json"
check_near "--change speed: the geomean in the same convention (base/new - 1)" \
	"$(gm "$TMP/s0s.json" C change_pct)" \
	"$(python3 -c 'import math; r=[1.31/5.54,2.91/15.28,5.95/32.65,13.37/67.67]; print((1/math.exp(sum(map(math.log,r))/4)-1)*100)')" 1e-6
"$KB" compare --bench hackbench --format md >"$TMP/s0.md"
check_grep "md: the geomean row too" '^\| geomean \| \| \| \| -1\.7% \|' "$TMP/s0.md"
check_grep "md: the key column is headed" '^\| groups \| n \| A \|' "$TMP/s0.md"

# --- seed 001: six variants; a footnoted cell; a column with a gap -----------
export KBENCH_DB="$TMP/s1.db"
"$KB" import "$SEEDS/001_84b93bea668f5b54.txt" >/dev/null 2>&1
"$KB" compare --bench numa_test --metric elapsed,total_user --baseline A >"$TMP/s1.txt"
w=$(widest "$TMP/s1.txt")
check "seed 001, 6 variants: within 80 columns (widest $w)" test "$w" -le 80
"$KB" compare --bench numa_test --metric elapsed --baseline A --use-flagged >"$TMP/s1f.txt"
check "--use-flagged: nothing says the footnoted cell is untested" \
	bash -c "! grep -q 'not tested unless --use-flagged' '$TMP/s1f.txt'"
check_grep "--use-flagged: E 64 is tested, and shown with its change" '133\.90f +-19\.9 \?' "$TMP/s1f.txt"
check_grep "... the footnote says it was tested" 'f footnoted in the post: tested \(--use-flagged\): E 64' "$TMP/s1f.txt"
"$KB" compare --bench numa_test --metric elapsed --baseline A >"$TMP/s1n.txt"
check_grep "without it, the footnote says untested" 'f footnoted in the post: not tested unless --use-flagged: E 64' "$TMP/s1n.txt"
# D has no published tasks=4 and 64: its geomean is over 3 of 5 rows, and says so
check_grep "a geomean over fewer rows names them (D 3 of 5 rows)" 'D 3 of 5 rows' \
	<(tr '\n' ' ' <"$TMP/s1n.txt" | tr -s ' ')

# --- seed 002: a cell with two marks, both footnotes -------------------------
export KBENCH_DB="$TMP/s2.db"
"$KB" import "$SEEDS/002_c5c123cd839d7edc.txt" >/dev/null 2>&1
"$KB" compare --bench autonuma --metric elapsed --change speed >"$TMP/s2.txt"
check_grep "53.43(~5.75) is noisy and its sd estimated: both marks" '53\.43\(~5\.75\)ne +-39\.00 -' "$TMP/s2.txt"
tr '\n' ' ' <"$TMP/s2.txt" | tr -s ' ' >"$TMP/s2.flat"
check_grep "... the 'sd estimated' footnote names that cell" 'e sd estimated [^:]*: [^?*]*\] numa02[^?*]*\] numa02' "$TMP/s2.flat"
check_grep "... and so does the 'noisy' one" 'n noisy \(CV > 5%\): \[2\] numa02' "$TMP/s2.flat"
"$KB" compare --bench autonuma --metric elapsed --change speed --format md >"$TMP/s2.md"
check_grep "md: both marks" '53\.43\(~5\.75\) ne \|' "$TMP/s2.md"

# --- three machines: a block per machine, only its variants -------------------
export KBENCH_DB="$TMP/m.db"
hb() { for t in "$@"; do printf 'Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\nEach sender will pass 100 messages of 100 bytes\nTime: %s\n' "$t"; done; }
hb 5.50 5.60 5.55 >"$TMP/a1.txt"; hb 5.20 5.25 5.30 >"$TMP/b1.txt"
hb 6.50 6.60 6.55 >"$TMP/a2.txt"; hb 6.20 6.25 6.31 >"$TMP/b2.txt"
hb 7.10 7.20 7.30 >"$TMP/c3.txt"
"$KB" import --variant A --machine boxA "$TMP/a1.txt" >/dev/null
"$KB" import --variant B --machine boxA "$TMP/b1.txt" >/dev/null
"$KB" import --variant A --machine boxB "$TMP/a2.txt" >/dev/null
"$KB" import --variant B --machine boxB "$TMP/b2.txt" >/dev/null
"$KB" import --variant C --machine boxC "$TMP/c3.txt" >/dev/null
"$KB" compare --baseline A >"$TMP/m.txt"
check_eq "boxA's and boxB's blocks have columns A and B, no all-'-' C" \
	"$(grep -E '^config +n ' "$TMP/m.txt" | tr -s ' ' | tr '\n' '|')" "config n A B %chg|config n A B %chg|config n C|"
check_grep "boxC's block says the baseline has no data there" \
	'machine: boxC  the baseline A has no data here: no changes' <(tr '\n' ' ' <"$TMP/m.txt" | sed 's/  */ /g; s/boxC the/boxC  the/')
"$KB" compare --baseline A --format csv >"$TMP/m.csv"
check_eq "CSV: a machine column, one record per machine (boxA/boxB give two B rows)" \
	"$(python3 -c 'import csv,sys; print(" ".join(r["machine"]+":"+r["variant"]+":"+r["mean"] for r in csv.DictReader(open(sys.argv[1]))))' "$TMP/m.csv")" \
	"boxA:A:5.55 boxA:B:5.25 boxB:A:6.55 boxB:B:6.25333333333 boxC:C:7.2"
"$KB" compare --baseline A --format md >"$TMP/m.md"
check_eq "md: each block names its machine" "$(grep -c '^machine: box[ABC]$' "$TMP/m.md")" 3
check_eq "md: boxC's block has only C" "$(grep -A6 '^machine: boxC' "$TMP/m.md" | grep '^| config')" "| config | n | C |"

# --- throughput: the harmonic mean of the runs, as mmtests' Hmean ----------
# lkp's schbench fixture: three runs of average_rps (higher is better),
# 17108.7 15943.03 17007.27 -> 3 / sum(1/x) = 16669.30 (the arithmetic
# mean would be 16686.33).
export KBENCH_DB="$TMP/h.db"
"$KB" import "$SHARED/corpus/lkp/schbench/01" >/dev/null 2>&1
"$KB" compare --bench schbench --metric average_rps >"$TMP/h.txt"
check_grep "schbench average_rps: the harmonic mean 16669.30, marked h" \
	'^ +3 16669\.30\(645\.71\)h$' "$TMP/h.txt"
check_grep "... the legend says what h means" \
	"h harmonic mean of the runs \(higher is better, as mmtests' Hmean\)" "$TMP/h.txt"
"$KB" compare --bench schbench --metric average_rps,wakeup_p50 --format json >"$TMP/h.json"
hj() {   # FILE METRIC FIELD: that field of the metric's one cell
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
v = [c[sys.argv[3]] for c in d["rows"] if c["metric"] == sys.argv[2]][0]
print(" ".join(v) if isinstance(v, list) else v)' "$@"
}
hm() { python3 -c 'import sys; x=[float(v) for v in sys.argv[1:]]; print(len(x) / sum(1 / v for v in x))' "$@"; }
check_near "JSON: mean is 3 / sum(1/x) of the stored runs" "$(hj "$TMP/h.json" average_rps mean)" \
	"$(hm $(sql "select value from samples_v where metric='average_rps'"))" 1e-9
check_eq "JSON: mean_kind harmonic, flag harmonic_mean" \
	"$(hj "$TMP/h.json" average_rps mean_kind) $(hj "$TMP/h.json" average_rps flags | grep -o harmonic_mean)" \
	"harmonic harmonic_mean"
# the CI: Student t on the reciprocals, inverted (t(0.975, 2) = 4.302652730)
check_near "JSON: ci_low = 1 / (mean(1/x) + t s(1/x) / sqrt(3))" "$(hj "$TMP/h.json" average_rps ci_low)" \
	"$(python3 -c 'import statistics as s, math
y = [1 / v for v in (17108.7, 15943.03, 17007.27)]
print(1 / (s.mean(y) + 4.302652729911275 * s.stdev(y) / math.sqrt(3)))')" 1e-8
check_eq "JSON: a lower-is-better metric keeps its arithmetic mean" \
	"$(hj "$TMP/h.json" wakeup_p50 mean_kind)" arithmetic
"$KB" compare --bench schbench --metric average_rps --better average_rps=none >"$TMP/hn.txt"
check_grep "--better average_rps=none: the arithmetic mean 16686.33, no h" \
	'^ +3 16686\.33\(645\.71\)$' "$TMP/hn.txt"

# mmtests' hackbench trees, two kernels; time made higher-is-better by
# --better (as compare resolves a direction): %chg between harmonic means.
export KBENCH_DB="$TMP/hb.db"
"$KB" import "$SHARED/corpus/mmtests/prashantph-mmtests_CI/log.ltccip8.2020-06-03_1400" >/dev/null 2>&1
cfg=groups=1,impl=perf,ipc=pipe,mode=process,tasks=40
"$KB" compare --bench hackbench --metric time --config "$cfg" --better time=higher \
	--baseline forkintensive --format json >"$TMP/hb.json"
"$KB" compare --bench hackbench --metric time --config "$cfg" --better time=higher \
	--baseline forkintensive >"$TMP/hb.txt"
hv() { sql "select value from samples_v where benchmark='hackbench' and config='$cfg' and variant='$1'"; }
hbase=$(hm $(hv forkintensive)); hcand=$(hm $(hv hackbench-process-pipes))
check_near "--better time=higher: change_pct is between the harmonic means" \
	"$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print([c["change_pct"] for c in d["rows"] if c["variant"] == "hackbench-process-pipes"][0])' "$TMP/hb.json")" \
	"$(python3 -c "print(($hcand - $hbase) / $hbase * 100)")" 1e-9
check_grep "... both cells marked h, the change +908.3 better" \
	'^ +3/7 +0\.09\(0\.01\)nh 0\.92\(0\.04\)h \+908\.3 \+$' "$TMP/hb.txt"
w=$(widest "$TMP/hb.txt")
check "... within 80 columns (widest $w)" test "$w" -le 80
"$KB" compare --bench hackbench --metric time --config "$cfg" --baseline forkintensive >"$TMP/hl.txt"
check "time as catalogued (lower is better): no h, no harmonic legend" \
	bash -c "! grep -qE '\)n?h|harmonic' '$TMP/hl.txt'"

# A value <= 0: no harmonic mean.  The mmtests schbench run's time(1) sys
# seconds, 0.01 0.19 0.0 0.29 0.04 0.07, made higher-is-better: the
# arithmetic mean 0.100, marked a, and the note says why.
"$KB" compare --bench time --metric sys --variants schbench --better sys=higher >"$TMP/h0.txt"
check_grep "a value <= 0: the arithmetic mean 0.100, marked a" '^-  +6 0\.100\(0\.116\)Na$' "$TMP/h0.txt"
check_grep "... the note says why" 'a arithmetic mean: a value <= 0 has no harmonic mean: schbench' "$TMP/h0.txt"
"$KB" compare --bench time --metric sys --variants schbench --better sys=higher --format json >"$TMP/h0.json"
check_eq "JSON: mean_kind arithmetic, flag arithmetic_nonpositive" \
	"$(hj "$TMP/h0.json" sys mean_kind) $(hj "$TMP/h0.json" sys flags | grep -o arithmetic_nonpositive)" \
	"arithmetic arithmetic_nonpositive"
