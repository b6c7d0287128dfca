#!/bin/bash
# kbench chart bars / points: every value is placed by its own key
# (variant, configuration, machine), never by its position in the table,
# and the chart says what it leaves out (issue 24, items 6 and 7).
. "$(dirname "$0")/../lib.sh"
CVC="$(dirname "$0")/../tools/chart-vs-compare"

# ---- the demo store: several posts (each its own unknown machine) ----
export KBENCH_DB=$TMP/demo.db
check "import the bundled samples" "$KB" import --quiet "$SAMPLES"
"$KB" compare --bench numa_test --metric elapsed --format json > "$TMP/cmp.json" 2>&1
for kind in bars points; do
	"$KB" chart --type $kind --bench numa_test --metric elapsed --dump-layout > "$TMP/$kind.lay" 2>&1
	mark=bar
	[ $kind = points ] && mark=mean
	check "$kind: every value is compare's for its (variant, config, machine)" \
		python3 "$CVC" "$TMP/$kind.lay" "$TMP/cmp.json" $mark
done
# The numbers a user reads: A of post 000 at tasks=32 is 83.52 (42.95 is
# its tasks=4), and it sits under the label 32.
check_grep "bars: A@000 at tasks=32 is 83.52" \
	'^bar\.[0-9]+\.[0-9]+=.* group=32 series=A@000_009ccda627cb3777 value=83\.52( |$)' "$TMP/bars.lay"
check_grep "bars: A@000 at tasks=4 is 42.95" \
	'^bar\.[0-9]+\.[0-9]+=.* group=4 series=A@000_009ccda627cb3777 value=42\.95( |$)' "$TMP/bars.lay"
# The raw blocks (and the tables of their posts) ran beside 'hackbench
# 20' (disturb=hackbench:20); seed 000's tables state no disturbance: two
# sets of configurations, each in task order, the shared key after the value.
check_eq "bars: every x label once, in task order" \
	"$(grep '^xcat\.' "$TMP/bars.lay" | sed 's/.*label=//' | tr '\n' ' ')" \
	"4, disturb=hackbench:20 8, disturb=hackbench:20 12, disturb=hackbench:20 16, disturb=hackbench:20 24, disturb=hackbench:20 32, disturb=hackbench:20 64, disturb=hackbench:20 4 8 16 32 64 "
# (103 since samples/mail/: its thread's six kernels at tasks=4..32)
check_eq "bars: 103 bars, one per compare cell" "$(grep -c '^bar\.' "$TMP/bars.lay")" 103

# A variant asked for that has no value here: not a silent legend entry.
"$KB" chart --type bars --bench numa_test --metric elapsed --config tasks=64 \
	--variants A@001_84b93bea668f5b54,D@001_84b93bea668f5b54 --dump-layout > "$TMP/miss.lay" 2>&1
check_eq "bars: only series with bars are in the legend" \
	"$(grep -E '^legend\.[0-9]+=' "$TMP/miss.lay" | sed 's/.*label=//' | tr '\n' ' ')" \
	"A@001_84b93bea668f5b54 whiskers: ± sd "
check_grep "bars: the note names the variant left out" \
	'^note=no elapsed values for D@001_84b93bea668f5b54' "$TMP/miss.lay"
check_grep "bars: the note is drawn in the chart" \
	'^text\.[0-9]+=.* text=no elapsed values for D@001' "$TMP/miss.lay"

# ---- one variant on two machines: two series, never one ----
export KBENCH_DB=$TMP/two.db
mkdir -p "$TMP/a" "$TMP/b"
for g in 10 20; do
	for i in 1 2 3; do
		printf 'Running with %s*40 (== %s) tasks.\nTime: %s\n' $g $((g * 40)) \
			"$(awk -v g=$g -v i=$i 'BEGIN { printf "%.3f", g * 0.5 + i * 0.01 }')" > "$TMP/a/v1-$g-$i.txt"
		printf 'Running with %s*40 (== %s) tasks.\nTime: %s\n' $g $((g * 40)) \
			"$(awk -v g=$g -v i=$i 'BEGIN { printf "%.3f", g * 0.8 + i * 0.01 }')" > "$TMP/b/v1-$g-$i.txt"
	done
done
# boxB has only groups=20: its value must not slide under groups=10
rm -f "$TMP"/b/v1-10-*.txt
check "import v1 on boxA" "$KB" import --quiet --variant v1 --machine boxA "$TMP/a"
check "import v1 on boxB" "$KB" import --quiet --variant v1 --machine boxB "$TMP/b"
"$KB" compare --bench hackbench --metric time --format json > "$TMP/two.json" 2>&1
"$KB" chart --type bars --bench hackbench --metric time --dump-layout > "$TMP/two.lay" 2>&1
check "two machines: every bar is compare's for its key" python3 "$CVC" "$TMP/two.lay" "$TMP/two.json" bar
check_eq "two machines: a series per machine" \
	"$(grep -E '^legend\.[0-9]+=' "$TMP/two.lay" | sed 's/.*label=//' | head -2 | tr '\n' '|')" \
	"v1 on boxA|v1 on boxB|"
check_grep "two machines: boxB's 16.02 is at groups=20" \
	'^bar\.[0-9]+\.[0-9]+=.* group=groups=20,tasks=800 series=v1 on boxB value=16\.02 ' "$TMP/two.lay"
check_eq "two machines: three bars" "$(grep -c '^bar\.' "$TMP/two.lay")" 3
"$KB" chart --type points --bench hackbench --metric time --dump-layout > "$TMP/twop.lay" 2>&1
check "two machines: points' means are compare's" python3 "$CVC" "$TMP/twop.lay" "$TMP/two.json" mean
check_eq "two machines: 9 points, 3 a cell" "$(grep -c '^point\.' "$TMP/twop.lay")" 9

# ---- history: legends say what varies, the x axis is the history order ----
export KBENCH_DB=$TMP/demo.db
"$KB" chart --type history --bench numa_test --metric elapsed --dump-layout > "$TMP/hist.lay" 2>&1
check_eq "history: no legend label twice" \
	"$(grep -E '^legend\.[0-9]+=' "$TMP/hist.lay" | sed 's/.*label=//' | sort | uniq -d | head -3)" ""
check_grep "history: a series is named by its tasks, then its machine" \
	'^legend\.[0-9]+=.* label=tasks=32 on unknown@001_' "$TMP/hist.lay"
check_grep "history: the title names the benchmark they share" \
	'^title=.* text=numa_test: elapsed history$' "$TMP/hist.lay"
# no versions: history order is import order (mail/, numatest/, then seeds 000, 001, 003)
check_eq "history: x in history order across machines" \
	"$(grep '^xcat\.' "$TMP/hist.lay" | sed 's/.*label=//' | sed 's/_[0-9a-f]\{16\}$//' | tr '\n' ' ')" \
	"2.5.44-mm4 2.5.44-mm4-f1-h2 2.5.44-mm4-focht-1 2.5.44-mm4-focht-12 2.5.44-mm4-hbaum-1 2.5.44-mm4-hbaum-12 lkml_20021009_hohnbaum_numa_test.41_rev1_attachment_N4-N24.decoded A@000 B@000 C@000 D@000 E@000 A@001 B@001 C@001 D@001 E@001 F ingoD7-59.stats stock59-stats testD7-59 "

# ---- forest plot over several benchmarks: the title names them all ----
"$KB" chart --type change --variants A@000_009ccda627cb3777,B@000_009ccda627cb3777 \
	--dump-layout > "$TMP/forest.lay" 2>&1
check_grep "forest: rows of three benchmarks" '^row\.[0-9]+=.* label=kernbench ' "$TMP/forest.lay"
check_grep "forest: the title names every benchmark of its rows" \
	'^title=.* text=hackbench, kernbench, numa_test: change vs A@000_009ccda627cb3777$' "$TMP/forest.lay"

# ---- placement: a panel's title keeps its tasks and run ----
"$KB" chart --type placement --variants A@001_84b93bea668f5b54 --dump-layout > "$TMP/pl.lay" 2>&1
check_grep "placement: the panel title's second line has tasks and run" \
	'^text\.[0-9]+=.* text=tasks=16 \(run [0-9]+\)$' "$TMP/pl.lay"
check_grep "placement: its first line the variant, whole" \
	'^text\.[0-9]+=.* text=A@001_84b93bea668f5b54$' "$TMP/pl.lay"

# ---- nodeload: x labels and bar names shortened to what varies ----
"$KB" chart --type nodeload --variants A@001_84b93bea668f5b54,B@001_84b93bea668f5b54,F \
	--dump-layout > "$TMP/nl.lay" 2>&1
check_eq "nodeload: x labels are the task counts" \
	"$(grep '^xcat\.' "$TMP/nl.lay" | sed 's/.*label=//' | tr '\n' ' ')" "8 16 32 "
check_grep "nodeload: the x axis says tasks" '^text\.[0-9]+=.* text=tasks$' "$TMP/nl.lay"
check_eq "nodeload: bars named A, B, F" \
	"$(grep '^barlabel\.0\.' "$TMP/nl.lay" | sed 's/.* series=\([^ ]*\) .*/\1/' | tr '\n' ' ')" "A B F "
check_grep "nodeload: the note says what was left off the names" \
	'^note=variants shown without their @001_84b93bea668f5b54$' "$TMP/nl.lay"

# ---- one colour rule for chart and report: a variant's place in the store ----
PNGINFO=${PNGINFO:-$KB_BIN_DIR/pnginfo}
export KBENCH_DB=$TMP/s001.db
check "import seed 001 (A..F)" "$KB" import --quiet "$SAMPLES/seeds/001_84b93bea668f5b54.txt"
"$KB" chart --type bars --bench numa_test --metric elapsed --variants C,E --dump-layout -o "$TMP/ce.png" > "$TMP/ce.lay" 2>&1
check_eq "chart C,E: C and E keep their store colours (3rd, 5th)" \
	"$(grep '^bar\.' "$TMP/ce.lay" | sed 's/.* series=\([^ ]*\) .* color=\([^ ]*\) .*/\1 \2/' | sort -u | tr '\n' ' ')" \
	"C #009E73 E #CC79A7 "
check_eq "chart C,E PNG: no bar in the first colour (A's)" \
	"$("$PNGINFO" --count 0072B2 "$TMP/ce.png" | cut -d' ' -f2)" 0
"$KB" report --bench numa_test -o "$TMP/r.html" > /dev/null 2>&1
python3 - "$TMP/r.html" "$TMP/rpng" <<'PY'
import base64, re, sys
html = open(sys.argv[1]).read()
for i, b in enumerate(re.findall(r'data:image/png;base64,([A-Za-z0-9+/=]+)', html)):
    open("%s%d.png" % (sys.argv[2], i), "wb").write(base64.b64decode(b))
PY
for col in 009E73 CC79A7; do
	n=0
	for f in "$TMP"/rpng*.png; do n=$((n + $("$PNGINFO" --count $col "$f" | cut -d' ' -f2))); done
	check_eq "report draws its bars in the same colour #$col" "$([ "$n" -gt 1000 ] && echo yes)" yes
	check_eq "chart draws C/E in #$col too" "$([ "$("$PNGINFO" --count $col "$TMP/ce.png" | cut -d' ' -f2)" -gt 1000 ] && echo yes)" yes
done

# ---- --log-y for bars; all-zero metrics say so ----
export KBENCH_DB=$TMP/logy.db
mkdir -p "$TMP/la" "$TMP/lb"
for g in 10 20; do
	for i in 1 2 3; do
		printf 'Running with %s*40 (== %s) tasks.\nTime: 5.%s%s\n' $g $((g * 40)) $i $g > "$TMP/la/t-$g-$i.txt"
		t=6.$i
		[ $g = 20 ] && t=80$i
		printf 'Running with %s*40 (== %s) tasks.\nTime: %s\n' $g $((g * 40)) $t > "$TMP/lb/t-$g-$i.txt"
	done
done
check "import v1" "$KB" import --quiet --variant v1 "$TMP/la"
check "import v2 (802 s at groups=20)" "$KB" import --quiet --variant v2 "$TMP/lb"
"$KB" chart --type bars --bench hackbench --metric time --log-y --dump-layout > "$TMP/logy.lay" 2>&1
check_grep "bars --log-y: a log y axis" '^yaxis=log min=1 max=1000 ' "$TMP/logy.lay"
# v1's 5.2 s bar: a third of the plot on the log axis, not 0.6% of it
h=$(grep '^bar\.0\.0=' "$TMP/logy.lay" | sed 's/^[^=]*=[^,]*,[^,]*,[^,]*,\([^ ]*\) .*/\1/')
check_eq "bars --log-y: the 5.2 s bar is over 90 units high (got $h)" "$(awk -v h="$h" 'BEGIN { print (h > 90) ? "yes" : "no" }')" yes
"$KB" chart --type points --bench hackbench --metric time --log-y --dump-layout > "$TMP/logyp.lay" 2>&1
check_grep "points --log-y: a log y axis" '^yaxis=log ' "$TMP/logyp.lay"
export KBENCH_DB=$TMP/demo.db
"$KB" chart --type bars --bench time --metric swaps --dump-layout > "$TMP/zero.lay" 2>&1
check_grep "all-zero metric: the note says every value is 0" '^note=every value is 0$' "$TMP/zero.lay"
check_grep "all-zero metric: said in the plot" '^text\.[0-9]+=.* text=every value is 0$' "$TMP/zero.lay"
check_grep "all-zero metric: a plain 0..1 axis" '^yaxis=linear min=0 max=1 ' "$TMP/zero.lay"
