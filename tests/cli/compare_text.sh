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
