#!/bin/bash
# kbench chart: layouts from --dump-layout (never pixels), and the three
# output formats.
. "$(dirname "$0")/../lib.sh"
PNGINFO=${PNGINFO:-$KB_BIN_DIR/pnginfo}
SEED000=$SAMPLES/seeds/000_009ccda627cb3777.txt
SEED003=$SAMPLES/seeds/003_7caa478a1fca98f9.txt

# ---- bars: seed 000's hackbench table, 4 groups x 5 variants ----
export KBENCH_DB=$TMP/s000.db
check "import seed 000" "$KB" import "$SEED000"
check "bars dump" "$KB" chart --type bars --bench hackbench --dump-layout
"$KB" chart --type bars --bench hackbench --dump-layout > "$TMP/bars.txt" 2>&1
check_eq "bars: 20 bars" "$(grep -c '^bar\.' "$TMP/bars.txt")" 20
check_eq "bars: 20 whiskers" "$(grep -c '^whisker\.' "$TMP/bars.txt")" 20
check_eq "bars: 4 groups" "$(grep '^xcat\.' "$TMP/bars.txt" | sed 's/.*label=//' | tr '\n' ' ')" "10 25 50 100 "
check_eq "bars: 5 variants in the legend" \
	"$(grep -E '^legend\.[0-9]+=' "$TMP/bars.txt" | sed 's/.*label=//' | head -5 | tr '\n' ' ')" "A B C D E "
check_grep "bars: the legend says the whiskers are sd" 'label=.*sd' "$TMP/bars.txt"
# The mail's means, group-major (N=10 25 50 100) by variant A..E.
means="5.54 5.37 1.31 2.45 1.39 15.28 15.13 2.91 8.89 2.92 32.65 31.96 5.95 21.98 6.20 67.67 67.14 13.37 30.57 14.30"
want=$(echo "$means" | tr ' ' '\n' | awk '{ printf "%d.%d %s\n", int((NR-1)/5), (NR-1)%5, $1 }' |
	sort -g -k2 | cut -d' ' -f1 | tr '\n' ' ')
got=$(sed -n 's/^bar\.\([0-9]*\.[0-9]*\)=[^,]*,[^,]*,[^,]*,\([^ ]*\).*/\1 \2/p' "$TMP/bars.txt" |
	sort -g -k2 | cut -d' ' -f1 | tr '\n' ' ')
check_eq "bars: heights order as the means do" "$got" "$want"
check_eq "bars: bar 3.0 is A at N=100" "$(grep '^bar\.3\.0=' "$TMP/bars.txt" | grep -o 'group=[^ ]* series=[^ ]* value=[^ ]*')" \
	"group=100 series=A value=67.67"
"$KB" chart --type bars --bench hackbench --error ci --dump-layout > "$TMP/bars-ci.txt" 2>&1
check_grep "bars --error ci: the legend says 95% CI" 'label=.*95% CI' "$TMP/bars-ci.txt"
"$KB" chart --type bars --bench hackbench --error none --dump-layout > "$TMP/bars-none.txt" 2>&1
check_eq "bars --error none: no whiskers" "$(grep -c '^whisker\.' "$TMP/bars-none.txt")" 0

# ---- PNG / SVG / PDF ----
check "bars PNG" "$KB" chart --type bars --bench hackbench -o "$TMP/bars.png" --width 640 --height 400
check_grep "PNG decodes with cairo at the requested size" ' 640x400 colors=' <("$PNGINFO" "$TMP/bars.png")
check "bars SVG" "$KB" chart --type bars --bench hackbench -o "$TMP/bars.svg"
check "SVG parses as XML" python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(0 if r.tag.endswith('svg') else 1)" "$TMP/bars.svg"
check "bars PDF" "$KB" chart --type bars --bench hackbench -o "$TMP/bars.pdf"
check_eq "PDF starts %PDF" "$(head -c 4 "$TMP/bars.pdf")" "%PDF"
check_status "unknown extension is an error" 2 "$KB" chart --type bars --bench hackbench -o "$TMP/bars.gif"
check_status "no output is a usage error" 2 "$KB" chart --type bars --bench hackbench
check_status "unknown type is a usage error" 2 "$KB" chart --type pie --dump-layout
check_status "several metrics: pick one" 2 "$KB" chart --type bars --dump-layout
check_grep "several metrics: the error names them" 'pick one with --bench' "$TMP/.out"

# ---- lines, points, change on the same table ----
"$KB" chart --type lines --bench hackbench --log-x --log-y --dump-layout > "$TMP/lines.txt" 2>&1
check_eq "lines: 5 series x 4 points" "$(grep -c '^point\.' "$TMP/lines.txt")" 20
check_grep "lines: log x axis" '^xaxis=log' "$TMP/lines.txt"
"$KB" chart --type points --bench hackbench --dump-layout > "$TMP/points.txt" 2>&1
check_eq "points: 20 means (summaries have no samples)" "$(grep -c '^mean\.' "$TMP/points.txt")" 20
"$KB" chart --type change --bench hackbench --baseline A --dump-layout > "$TMP/change.txt" 2>&1
check_eq "change: 4 candidates x 4 groups" "$(grep -c '^row\.' "$TMP/change.txt")" 16
check_grep "change: the threshold band" '^band=' "$TMP/change.txt"
check_grep "change: C at N=10 is better" '^row\.[0-9]+=.*C: 10.*verdict=better' "$TMP/change.txt"

# ---- placement and nodeload: seed 003's four detailed blocks ----
export KBENCH_DB=$TMP/s003.db
awk -v dir="$TMP" '/^Executing/ { n++; f = sprintf("%s/block%d.txt", dir, n) }
	/^(Detailed|Control|-- )/ { f = "" } f { print > f }' "$SEED003"
check "import the D7 blocks" "$KB" import --variant ingoD7-59.stats "$TMP/block1.txt" "$TMP/block2.txt"
check "import the stock blocks" "$KB" import --variant stock59-stats "$TMP/block3.txt" "$TMP/block4.txt"
D7RUN=$(sql "select run_id from runs_v where variant = 'ingoD7-59.stats' and config = 'disturb=hackbench:20,tasks=4'")
"$KB" chart --type placement --run "$D7RUN" --dump-layout > "$TMP/pl.txt" 2>&1
check_eq "placement: one panel" "$(grep -c '^panel\.' "$TMP/pl.txt")" 1
check_eq "placement: 4 jobs x 4 nodes" "$(grep -c '^cell\.' "$TMP/pl.txt")" 16
check_eq "placement: three jobs at 100% on node 0" \
	"$(grep -E '^cell\.0\.[0-9]+\.0=.* pct=100$' "$TMP/pl.txt" | grep -o 'job=[0-9]*' | tr '\n' ' ')" "job=1 job=3 job=4 "
check_eq "placement: job 2 split 58.4 / 41.6" \
	"$(grep -E '^cell\.0\.1\.[03]=' "$TMP/pl.txt" | grep -o 'pct=.*' | tr '\n' ' ')" "pct=58.4 pct=41.6 "
check_eq "placement: every job started on node 0" "$(grep -c '^init\.0\.[0-9]*=.* node=0' "$TMP/pl.txt")" 4
check_eq "placement: nothing flagged on D7 tasks=4" "$(grep -c 'flagged=1' "$TMP/pl.txt")" 0
"$KB" chart --type placement --variants ingoD7-59.stats,stock59-stats --dump-layout > "$TMP/pl4.txt" 2>&1
check_eq "placement small multiples: 4 panels" "$(grep -c '^panel\.' "$TMP/pl4.txt")" 4
check_eq "placement: stock tasks=8 job 5 moved (0 -> 3) is flagged" \
	"$(grep '^row\.3\.4=' "$TMP/pl4.txt" | grep -o 'initial=.*')" "initial=0 main=3 flagged=1"
check "placement PNG" "$KB" chart --type placement --run "$D7RUN" -o "$TMP/pl.png"
# the canvas follows the content: the PNG has the size the layout chose
plsize=$(sed -n 's/^chart\.size=//p' "$TMP/pl.txt")
check_grep "placement PNG decodes at the layout's size ($plsize)" " $plsize colors=" <("$PNGINFO" "$TMP/pl.png")
check_status "placement of a run without jobs" 2 "$KB" chart --type placement --run 999 --dump-layout

"$KB" chart --type nodeload --variants ingoD7-59.stats,stock59-stats --dump-layout > "$TMP/nl.txt" 2>&1
# jobs per node "a/b/c/d" of series S at group G (a missing stack is 0 jobs)
per_node() {
	local n out=""
	for n in 0 1 2 3; do
		local j
		j=$(grep "^stack\.$1\.$2\.$n=" "$TMP/nl.txt" | sed 's/.*jobs=//')
		out="$out${out:+/}${j:-0}"
	done
	echo "$out"
}
check_eq "nodeload: categories" "$(grep '^xcat\.' "$TMP/nl.txt" | sed 's/.*label=//' | tr '\n' ' ')" "4 8 "
check_eq "nodeload: D7 packs tasks=4 onto node 0" "$(per_node 0 0)" "4/0/0/0"
check_eq "nodeload: stock spreads tasks=4" "$(per_node 0 1)" "2/1/1/0"
check_eq "nodeload: D7 tasks=8" "$(per_node 1 0)" "4/3/1/0"
check_eq "nodeload: stock tasks=8" "$(per_node 1 1)" "2/2/2/2"
check "nodeload SVG" "$KB" chart --type nodeload -o "$TMP/nl.svg"
check "nodeload SVG parses as XML" python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$TMP/nl.svg"
check_status "nodeload: nothing at tasks=16 is an error" 2 "$KB" chart --type nodeload --config tasks=16 --dump-layout

# --- throughput: a bar is the cell's harmonic mean ------------------------------
# lkp's schbench fixture: average_rps 17108.7 15943.03 17007.27 (higher is
# better) -> 3 / sum(1/x) = 16669.3 (arithmetic 16686.3).  The CI of a
# harmonic mean is not symmetric: the whisker takes its larger side, up
# to compare's ci_high.
export KBENCH_DB="$TMP/hm.db"
"$KB" import "$SHARED/corpus/lkp/schbench/01" >/dev/null 2>&1
"$KB" chart --type bars --bench schbench --metric average_rps --error ci --dump-layout >"$TMP/hm.txt" 2>&1
check_grep "schbench average_rps: the bar is the harmonic mean 16669.3" '^bar\.0\.0=.* value=16669\.3 ' "$TMP/hm.txt"
hi=$("$KB" compare --bench schbench --metric average_rps --format json | jq -r '.rows[0].ci_high')
check_near "... its CI whisker reaches compare's ci_high ($hi)" \
	"$(sed -n 's/^whisker\.0\.0=.* hi=//p' "$TMP/hm.txt")" "$hi" 1e-5
