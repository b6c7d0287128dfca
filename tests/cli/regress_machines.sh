#!/bin/bash
# kbench regress across machines (issue 24, item 5): a candidate with no
# run on the baseline's machines is an error naming both sides' machines,
# unless --across-machines; then text, JSON and JUnit say so.  A pair that
# shares a machine is compared there only, as before.
#
# Data: lkp's hackbench log (8 timings, mean 10.2729 s) as v1, and the same
# log with every time 3 s longer (mean 13.2729 s: +29.2%) or 40% shorter
# (mean 6.16375 s) as other kernels' runs.
. tests/lib.sh

LKP="$SHARED/corpus/lkp/hackbench/hackbench"
awk '/^Time:/ { printf "Time: %.3f\n", $2 + 3; next } { print }' "$LKP" >"$TMP/slow.log"
awk '/^Time:/ { printf "Time: %.3f\n", $2 * 0.6; next } { print }' "$LKP" >"$TMP/fast.log"
awk '/^Time:/ { printf "Time: %.3f\n", $2 * 0.5; next } { print }' "$LKP" >"$TMP/fast2.log"
jq() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$2"; }

# --- v1 on boxA, v2 on boxB: no machine in common ---------------------------
export KBENCH_DB="$TMP/ab.db"
"$KB" import --variant v1 --machine boxA "$LKP" >/dev/null
"$KB" import --variant v2 --machine boxB "$TMP/slow.log" >/dev/null
check_status "v1 on boxA against v2 on boxB: an error (2), not a silent 'worse'" 2 \
	"$KB" regress --baseline v1
check_eq "... one line on stderr naming both variants and both machines" "$(cat "$TMP/.out")" \
	"kbench regress: v2 has no run on the baseline's machines (v1: boxA; v2: boxB); comparing across machines needs --across-machines"
check_status "... with --candidate v2 too" 2 "$KB" regress --baseline v1 --candidate v2 --format json
check_grep "... still naming the machines (nothing on stdout)" "^kbench regress: v2 has no run .*\(v1: boxA; v2: boxB\)" "$TMP/.out"
check_status "--across-machines: compared, +29.2% is worse (exit 1)" 1 \
	"$KB" regress --baseline v1 --across-machines --verbose
cp "$TMP/.out" "$TMP/ab.txt"
check_eq "... the warning, third line, right under the summary" "$(sed -n 3p "$TMP/ab.txt")" \
	"warning: compared across machines: v1 on boxA against v2 on boxB"
check_grep "... the finding: 10.2729 -> 13.2729 s +29.2%" \
	"^  worse +hackbench .* time  v2: 10\.2729 -> 13\.2729 s  \+29\.2%" "$TMP/ab.txt"
check_grep "... its evidence names both machines" "^      across machines, v1 on boxA vs v2 on boxB: v1 n=8 vs v2 n=8" "$TMP/ab.txt"
"$KB" regress --baseline v1 --across-machines --format json >"$TMP/ab.json"
check_eq "JSON: warnings array" "$(jq 'd["warnings"]' "$TMP/ab.json")" \
	"['compared across machines: v1 on boxA against v2 on boxB']"
check_eq "JSON: the finding names both machines, no 'machine'" \
	"$(jq '[(f["verdict"], f["baseline_machine"], f["candidate_machine"], "machine" in f) for f in d["findings"]]' "$TMP/ab.json")" \
	"[('worse', 'boxA', 'boxB', False)]"
check_near "JSON: change_pct +29.2" "$(jq 'd["findings"][0]["change_pct"]' "$TMP/ab.json")" 29.2035 1e-4
"$KB" regress --baseline v1 --across-machines --format junit >"$TMP/ab.xml"
check_eq "JUnit: the warning as a testsuite property" \
	"$(python3 -c 'import xml.etree.ElementTree as E,sys; t=E.parse(sys.argv[1]); print([p.get("value") for p in t.iter("property") if p.get("name") == "warning"], len(list(t.iter("failure"))))' "$TMP/ab.xml")" \
	"['compared across machines: v1 on boxA against v2 on boxB'] 1"
check_status "--across-machines --change better: the verdict stands (exit 1)" 1 \
	"$KB" regress --baseline v1 --across-machines --change better

# report makes no comparison across machines: each machine's section says why
"$KB" report --format text --output "$TMP/ab.report" >/dev/null 2>&1
check_eq "report: both machines' sections say nothing is compared, and why" \
	"$(grep -c '^Only this variant has numbers here: nothing to compare it with' "$TMP/ab.report") $(grep -c '^%chg against' "$TMP/ab.report")" "2 0"

# --- shared machine: unchanged, no warning ---------------------------------
export KBENCH_DB="$TMP/aa.db"
"$KB" import --variant v1 --machine boxA "$LKP" >/dev/null
"$KB" import --variant v2 --machine boxA "$TMP/slow.log" >/dev/null
check_status "both on boxA: worse, exit 1, no flag needed" 1 "$KB" regress --baseline v1
check_eq "... no warning line" "$(grep -c '^warning' "$TMP/.out")" "0"
"$KB" regress --baseline v1 --format json >"$TMP/aa.json"
check_eq "... JSON: warnings [] and the same change" \
	"$(jq '(d["warnings"], round(d["findings"][0]["change_pct"], 1), "baseline_machine" in d["findings"][0])' "$TMP/aa.json")" \
	"([], 29.2, False)"

# --- a pair sharing one machine of two: compared there only ----------------
# v2 is slower on boxA, and much faster on boxB, where v1 has no run.
export KBENCH_DB="$TMP/ab2.db"
"$KB" import --variant v1 --machine boxA "$LKP" >/dev/null
"$KB" import --variant v2 --machine boxA "$TMP/slow.log" >/dev/null
"$KB" import --variant v2 --machine boxB "$TMP/fast2.log" >/dev/null
check_status "v2 on boxA and boxB, v1 on boxA: compared on boxA, worse (exit 1)" 1 \
	"$KB" regress --baseline v1 --format json --output "$TMP/ab2.json"
check_eq "... one finding, on boxA, 8 runs a side, boxA's means (boxB not pooled)" \
	"$(jq '[(f["machine"], f["base_n"], f["n"], f["base_value"], round(f["value"], 4)) for f in d["findings"]]' "$TMP/ab2.json")" \
	"[('boxA', 8, 8, 10.272875, 13.2729)]"
check_eq "... and no warning" "$(jq 'd["warnings"]' "$TMP/ab2.json")" "[]"
"$KB" report --format text --output "$TMP/ab2.report" >/dev/null 2>&1
check_eq "report: boxA's section compares v2 with v1, boxB's (v2 alone) says why not" \
	"$(grep -c '^%chg against v1' "$TMP/ab2.report") $(grep -c '^Only this variant has numbers here' "$TMP/ab2.report")" "1 1"
check_status "... text: exit 1 without --across-machines" 1 "$KB" regress --baseline v1
check_grep "... the finding names boxA" "^  worse +hackbench on boxA .* v2: 10\.2729 -> 13\.2729 s" "$TMP/.out"

# --- a third variant on a machine of its own -------------------------------
"$KB" import --variant v3 --machine boxC "$TMP/fast.log" >/dev/null
check_status "v3 on boxC only: an error again (2)" 2 "$KB" regress --baseline v1
check_eq "... naming v3's machine, not v2" "$(cat "$TMP/.out")" \
	"kbench regress: v3 has no run on the baseline's machines (v1: boxA; v3: boxC); comparing across machines needs --across-machines"
check_status "--across-machines: v2's boxA regression (exit 1)" 1 "$KB" regress --baseline v1 --across-machines
check_grep "... v3 left out, and said so" \
	"^warning: not compared: v3 has no run on the baseline's machines \(v1: boxA; v3: boxC\).*--candidate v3" "$TMP/.out"
check_eq "... no finding of v3" "$(grep -c '^  .* v3: ' "$TMP/.out")" "0"
check_status "--candidate v3 --across-machines: v3 alone, better (-40.0%), exit 0" 0 \
	"$KB" regress --baseline v1 --candidate v3 --across-machines
check_grep "... the warning names boxA and boxC" "^warning: compared across machines: v1 on boxA against v3 on boxC$" "$TMP/.out"
check_grep "... and the finding" "^  better +hackbench .* v3: 10\.2729 -> 6\.16375 s  -40\.0%" "$TMP/.out"

# --- one side names no machine: kbench cannot tell --------------------------
export KBENCH_DB="$TMP/au.db"
"$KB" import --variant v1 --machine boxA "$LKP" >/dev/null
"$KB" import --variant v2 "$TMP/slow.log" >/dev/null
check_status "v1 on boxA, v2 on no machine named: an error (2)" 2 "$KB" regress --baseline v1
check_grep "... saying kbench cannot tell" \
	"v2 has no run on the baseline's machines \(v1: boxA; v2: unknown machine\); .*kbench cannot tell; comparing across machines needs --across-machines" "$TMP/.out"
check_status "... --across-machines: compared (exit 1)" 1 "$KB" regress --baseline v1 --across-machines
check_grep "... with the warning" "^warning: compared across machines: v1 on boxA against v2 on unknown machine" "$TMP/.out"

# --- neither side names a machine: as before --------------------------------
export KBENCH_DB="$TMP/uu.db"
"$KB" import --variant v1 "$LKP" >/dev/null
"$KB" import --variant v2 "$TMP/slow.log" >/dev/null
check_status "no machine on either side: compared as before (exit 1)" 1 "$KB" regress --baseline v1
check_eq "... no warning" "$(grep -c '^warning' "$TMP/.out")" "0"
# a post's own variants (seed 002: one post, no machine) are unchanged too
export KBENCH_DB="$TMP/s2.db"
"$KB" import "$SHARED/seeds/002_c5c123cd839d7edc.txt" >/dev/null
check_status "seed 002 (a post's own variants): exit 1 as before, no flag" 1 \
	"$KB" regress --baseline '3.9.0-mainline_v39+()'
check_eq "... no warning" "$(grep -c '^warning' "$TMP/.out")" "0"

# --- placement across machines (seed 003's 8-task runs) ---------------------
S3=$SHARED/seeds/003_7caa478a1fca98f9.txt
sed -n 132,143p "$S3" >"$TMP/stock-8.txt"
sed -n 98,112p "$S3" >"$TMP/d7-8.txt"
export KBENCH_DB="$TMP/pa.db"
"$KB" import --variant stock --machine m1 "$TMP/stock-8.txt" >/dev/null
"$KB" import --variant d7 --machine m2 "$TMP/d7-8.txt" >/dev/null
check_status "placement, stock on m1 against d7 on m2: an error (2)" 2 \
	"$KB" regress --baseline stock --no-performance
check_grep "... naming m1 and m2" "d7 has no run on the baseline's machines \(stock: m1; d7: m2\)" "$TMP/.out"
check_status "... --across-machines: pooled, one run a side is inconclusive (exit 0)" 0 \
	"$KB" regress --baseline stock --no-performance --across-machines
check_grep "... the warning" "^warning: compared across machines: stock on m1 against d7 on m2$" "$TMP/.out"
check_grep "... the packing check names both machines" \
	"^      across machines, stock on m1 vs d7 on m2: nodes used per run 3 against 4" "$TMP/.out"

# --- usage -----------------------------------------------------------------
check_status "--help lists --across-machines" 0 "$KB" regress --help
check_grep "... in the options" "--across-machines" "$TMP/.out"
