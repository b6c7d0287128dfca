#!/bin/bash
# --explain on the five seeds: every quoted output and numeric table is
# recognised, and no skipped segment holds benchmark numbers.
. tests/lib.sh

S="$SAMPLES/seeds"

# numbers_in_skipped SOURCE < EXPLAIN-OUTPUT: print each line of a skipped
# range that looks like benchmark numbers: after mail quoting is removed,
# it holds two or more numbers with a decimal point ("29.5", "(3.23)",
# "5.54(0.10)", "0.82%", "46.27s") or with thousands separators ("554,289").  Dates,
# versions (2.5.39), times of day and phone numbers do not count.
numbers_in_skipped() {
	python3 -c '
import re, sys
num = re.compile(r"^[-+(]?\d+\.\d+(\(\d+(\.\d+)?\))?[)%s,]?$|^[-+]?\d{1,3}(,\d{3})+$")
src = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
for l in sys.stdin:
    m = re.match(r"\s+lines (\d+)-(\d+): skipped", l)
    if not m:
        continue
    for i in range(int(m.group(1)), int(m.group(2)) + 1):
        s = re.sub(r"^\s*(>\s*)*", "", src[i - 1])
        if sum(1 for t in s.split() if num.match(t)) >= 2:
            print("%d: %s" % (i, s))
' "$1"
}

# segs FILE: "first-last format" per recognised segment, one a line.
segs() { sed -n 's/^  lines \([0-9]*-[0-9]*\): \([a-z_-]*\) (score.*/\1 \2/p' "$1"; }

for f in "$S"/*.txt; do
	name=$(basename "$f" .txt)
	"$KB" import --explain "$f" > "$TMP/$name.explain" 2>&1; rc=$?
	check_eq "$name: --explain exits 0" "$rc" "0"
	check_eq "$name: no skipped segment holds benchmark numbers" \
		"$(numbers_in_skipped "$f" < "$TMP/$name.explain")" ""
	check_grep "$name: skipped prose is listed" "^  lines [0-9]+-[0-9]+: skipped \([0-9]+ lines of prose\)" "$TMP/$name.explain"
done

# The check itself finds numbers: pretend seed 000's first table was skipped.
check_eq "the numbers check catches a skipped table" \
	"$(printf '  lines 44-46: skipped (3 lines of prose)\n' | numbers_in_skipped "$S/000_009ccda627cb3777.txt" | wc -l)" "2"

# 000: seven mean(sd) tables, E-H rows and all.
E="$TMP/000_009ccda627cb3777.explain"
check_eq "000: seven summary tables at their lines" "$(segs "$E" | tr '\n' ' ')" \
	"42-49 summary-table 52-59 summary-table 62-69 summary-table 72-79 summary-table 82-89 summary-table 92-99 summary-table 102-109 summary-table "
check_eq "000: 126 summaries" "$(sed -n 's/.* \([0-9]*\) summaries.*/\1/p' "$E" | awk '{ t += $1 } END { print t }')" "126"

# 001: two quoted E/H tables, then 18 numa_test outputs (A..F x N=8,16,32).
E="$TMP/001_84b93bea668f5b54.explain"
check_eq "001: quoted tables at 80-91 and 97-108" "$(segs "$E" | grep summary-table | tr '\n' ' ')" \
	"80-91 summary-table 97-108 summary-table "
check_eq "001: 18 numa_test segments" "$(segs "$E" | grep -c numa_test)" "18"
check_eq "001: numa_test segments per variant A..F" \
	"$(grep ': numa_test (' "$E" | sed 's/.*variant //' | uniq -c | awk '{printf "%s%s ", $2, $1}')" "A3 B3 C3 D3 E3 F3 "
check_grep "001: first numa_test of E (tasks=8) at 442-455" "lines 442-455: numa_test .* variant E" "$E"
check_grep "001: last numa_test (F, tasks=32) at 563-600" "lines 563-600: numa_test .* 38 samples" "$E"

# 002: autonuma tables for both kernels, perf stat + time per test and kernel.
E="$TMP/002_c5c123cd839d7edc.explain"
check_eq "002: segments in order" "$(segs "$E" | tr '\n' ' ')" \
	"23-25 autonuma 28-30 autonuma 39-45 perf-stat 47-47 time 50-57 perf-stat 59-59 time 65-72 perf-stat 74-74 time 78-85 perf-stat 87-87 time "
check_eq "002: tables carry their kernel" \
	"$(grep ': autonuma' "$E" | sed 's/.*variant //' | tr '\n' '|')" "3.9.0-mainline_v39+()|3.9.0-mainline_v39+() + mel's patches|"
check_eq "002: perf stat blocks: 5 samples each" "$(grep -c 'perf-stat (score [0-9]*): 1 runs, 5 samples' "$E")" "4"
check_eq "002: time lines: 5 samples each" "$(grep -c 'time (score [0-9]*): 1 runs, 5 samples' "$E")" "4"

# 003: Kernbench table, five Schedbench tables, four per-job blocks
# (the last one without its footer).
E="$TMP/003_7caa478a1fca98f9.explain"
check_eq "003: segments in order" "$(segs "$E" | tr '\n' ' ')" \
	"44-48 summary-table 50-54 summary-table 56-60 summary-table 62-66 summary-table 68-72 summary-table 74-78 summary-table 83-93 numa_test 98-112 numa_test 117-127 numa_test 132-142 numa_test "
check_grep "003: Kernbench table: 3 kernels x 4 columns" "lines 44-48: summary-table .* 12 summaries" "$E"
check_grep "003: footerless job block still yields its 8 jobs' samples" "lines 132-142: numa_test .* 1 runs, 9 samples" "$E"

# 004: the disp layout table.
E="$TMP/004_6cdb76245787edd0.explain"
check_eq "004: one numa_test segment (disp layout) at 37-47" "$(segs "$E" | tr '\n' ' ')" "37-47 numa_test "
check_grep "004: 4 jobs + average" "lines 37-47: numa_test .* 1 runs, 5 samples" "$E"
check_grep "004: the advice after the table is skipped prose" "lines 49-87: skipped" "$E"
