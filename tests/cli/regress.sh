#!/bin/bash
# kbench regress acceptance: seed 002 (numa02 39% slower with mel's
# patches), seed 003 (D7 packs light loads onto node 0), JSON and JUnit
# agree with the text.
. tests/lib.sh

SEED2="$SHARED/seeds/002_c5c123cd839d7edc.txt"
SEED3="$SHARED/seeds/003_7caa478a1fca98f9.txt"
BASE='3.9.0-mainline_v39+()'
CAND="$BASE + mel's patches"

# --- seed 002 ------------------------------------------------------------
export KBENCH_DB="$TMP/s2.db"
check_status "seed 002 imports" 0 "$KB" import "$SEED2"
check_status "regress against 3.9.0 mainline exits 1 (a regression)" 1 "$KB" regress --baseline "$BASE"
"$KB" regress --baseline "$BASE" >"$TMP/s2.txt" 2>&1
check_grep "numa02 elapsed is worse, +63.9%" "^  worse +autonuma test=numa02 elapsed .*32.59 -> 53.43 s +\+63\.9%" "$TMP/s2.txt"
check_eq "numa01 is not worse" "$(grep -c '^  worse.*numa01' "$TMP/s2.txt")" "0"
check_eq "exactly one regression" "$(grep -c '^  worse' "$TMP/s2.txt")" "1"
check_grep "the regression comes first" "^Regressions" <(sed -n 4p "$TMP/s2.txt")
# one perf stat run a side: a counter's change is no more decided than
# a time's (issue 24, item 4), and never worse
check_grep "counters of one run a side are inconclusive, never worse: cs" "^  inconclusive .*perf-stat .*numa02 cs " "$TMP/s2.txt"
check_grep "... migrations too" "^  inconclusive .*numa01 migrations " "$TMP/s2.txt"
check_eq "... and none is 'changed' by size alone" "$(grep -c '^  changed ' "$TMP/s2.txt")" 0
"$KB" regress --baseline "$BASE" --change speed >"$TMP/s2s.txt" 2>&1
check_grep "--change speed: -39.0%" "^  worse +autonuma test=numa02 elapsed .* -39\.0%" "$TMP/s2s.txt"
# A direction makes a counter a verdict; with one run a side it cannot be
# tested, so it is inconclusive (not 'changed', and not worse by size alone).
check_status "--better cs=lower: no longer 'changed'" 0 \
	"$KB" regress --baseline "$BASE" --bench perf-stat --metric cs --better cs=lower
check_grep "--better cs=lower with n = 1 a side: inconclusive" "^  inconclusive .* cs " "$TMP/.out"
check_eq "--better cs=lower: nothing 'changed'" "$(grep -c '^  changed' "$TMP/.out")" "0"

# JSON and JUnit parse and agree with each other and with the text.
"$KB" regress --baseline "$BASE" --format json >"$TMP/s2.json"
"$KB" regress --baseline "$BASE" --format junit >"$TMP/s2.xml"
check "JSON parses" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/s2.json"
check "JUnit parses" python3 -c 'import xml.etree.ElementTree as E,sys; E.parse(sys.argv[1])' "$TMP/s2.xml"
check_eq "JSON header" "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["kbench"], d["version"], d["baseline"])' "$TMP/s2.json")" "regress 1 $BASE"
check_eq "JSON: the one worse finding is numa02 elapsed" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
w=[f for f in d["findings"] if f["verdict"]=="worse"]
print(len(w), w[0]["kind"], w[0]["benchmark"], w[0]["config"], w[0]["metric"], w[0]["variant"], "%.1f" % w[0]["change_pct"], w[0]["base_value"], w[0]["value"])' "$TMP/s2.json")" \
	"1 performance autonuma test=numa02 elapsed $CAND 63.9 32.59 53.43"
check "JSON: interval around the change, q below alpha, evidence text" python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); f=d["findings"][0]
assert f["change_ci_low"] < f["change_pct"] < f["change_ci_high"], f
assert f["q"] < 0.05 and isinstance(f["evidence"], str) and f["evidence"], f
for g in d["findings"]:
    for k in ("kind","verdict","benchmark","config","metric","variant","base_value","value","change_pct","change_ci_low","change_ci_high","q","evidence"):
        assert k in g, (k, g)' "$TMP/s2.json"
check "JUnit agrees with JSON: one failure per worse finding, a test case per finding" python3 -c 'import json,sys,xml.etree.ElementTree as E
d=json.load(open(sys.argv[1])); x=E.parse(sys.argv[2]).getroot()
cases=x.findall(".//testcase"); fails=[c for c in cases if c.find("failure") is not None]
worse=[f for f in d["findings"] if f["verdict"]=="worse"]
assert len(fails)==len(worse)==1, (len(fails), len(worse))
assert int(x.get("failures"))==1
assert len(cases)==sum(d["summary"].values()), (len(cases), d["summary"])
assert "numa02" in fails[0].get("name") and "elapsed" in fails[0].get("name")
skipped=[c for c in cases if c.find("skipped") is not None]
assert len(skipped)==d["summary"]["inconclusive"]' "$TMP/s2.json" "$TMP/s2.xml"
check_eq "text, JSON and JUnit count the same regressions" \
	"$(grep -c '^  worse' "$TMP/s2.txt") $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["worse"])' "$TMP/s2.json") $(python3 -c 'import xml.etree.ElementTree as E,sys; print(E.parse(sys.argv[1]).getroot().get("failures"))' "$TMP/s2.xml")" "1 1 1"
check_status "--output writes the file" 1 "$KB" regress --baseline "$BASE" --format junit --output "$TMP/o.xml"
check "--output file is the JUnit" cmp "$TMP/o.xml" "$TMP/s2.xml"

# --- seed 003 as posted: D7 vs stock, the post names its own blocks -------
export KBENCH_DB="$TMP/s3.db"
check_status "seed 003 imports as it is" 0 "$KB" import "$SEED3"
check_eq "four numa_test runs: D7's under ingoD7-59.stats, the control's under stock59-stats" \
	"$(sql "select group_concat(variant, ' ') from (select variant from runs_v where benchmark = 'numa_test' order by run_id) q")" \
	"ingoD7-59.stats ingoD7-59.stats stock59-stats stock59-stats"
# One numa_test run a side: placement is tested over runs (the jobs of one
# run are not replicates), so nothing is decided and nothing fails CI.
check_status "regress --baseline stock59-stats exits 0: one run a side decides nothing" 0 "$KB" regress --baseline stock59-stats
"$KB" regress --baseline stock59-stats >"$TMP/s3.txt" 2>&1
"$KB" regress --baseline stock59-stats --format json >"$TMP/s3.json"
pl() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for f in d["findings"]:
    if f["kind"]=="placement" and f["config"]==sys.argv[2] and f["metric"]==sys.argv[3]:
        print(f["verdict"]); print(f["evidence"])' "$TMP/s3.json" "$1" "$2"; }
pl disturb=hackbench:20,tasks=4 light_load_packed >"$TMP/p4"
pl disturb=hackbench:20,tasks=8 light_load_packed >"$TMP/p8"
check_eq "disturb=hackbench:20,tasks=4: placement finding 'inconclusive' (one run a side)" "$(head -1 "$TMP/p4")" "inconclusive"
check_grep "disturb=hackbench:20,tasks=4 evidence: nodes used 1 against 3, and why no test" \
	"nodes used per run 1 against 3 .*1 run against 1: no test over runs \(the jobs of one run are not replicates\)" "$TMP/p4"
check_grep "disturb=hackbench:20,tasks=4 evidence: D7 jobs per node 4/0/0/0" "jobs per node 4/0/0/0" "$TMP/p4"
check_grep "disturb=hackbench:20,tasks=4 evidence: every job's main node is node 0" "all 4 jobs' main node is node 0" "$TMP/p4"
check_grep "disturb=hackbench:20,tasks=4 evidence: the control's 2/1/1/0" "baseline stock59-stats run [0-9]+: jobs per node 2/1/1/0" "$TMP/p4"
check_eq "disturb=hackbench:20,tasks=8: placement finding 'inconclusive' (one run a side)" "$(head -1 "$TMP/p8")" "inconclusive"
check_grep "disturb=hackbench:20,tasks=8 evidence: 4/3/1/0 against 2/2/2/2" "jobs per node 4/3/1/0.*baseline stock59-stats run [0-9]+: jobs per node 2/2/2/2" "$TMP/p8"
check_grep "evidence names the runs" "ingoD7-59.stats \(tasks=8\) run [0-9]+" "$TMP/p8"
# The jobs of one run are not replicates: one run per side tests nothing.
check_grep "per-job user time at disturb=hackbench:20,tasks=4: run means, inconclusive with one run per side" \
	"^  inconclusive +numa_test disturb=hackbench:20,tasks=4 user +ingoD7-59.stats: 22.255 -> 44.765 s +\+101\.1%" "$TMP/s3.txt"
check_grep "per-job user time at disturb=hackbench:20,tasks=8: inconclusive too" \
	"^  inconclusive +numa_test disturb=hackbench:20,tasks=8 user " "$TMP/s3.txt"
check_grep "... the evidence says why" "1 run per side" <(python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["metric"]=="user" and f["config"]=="disturb=hackbench:20,tasks=4": print(f["evidence"])' "$TMP/s3.json")
check "placement findings carry their runs" python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
p=[f for f in d["findings"] if f["kind"]=="placement" and f["metric"]=="light_load_packed"]
assert len(p)==2 and all(len(f["runs"])==1 and len(f["baseline_runs"])==1 for f in p), p' "$TMP/s3.json"
check_status "--no-placement: one run per side is no performance regression" 0 "$KB" regress --baseline stock59-stats --no-placement
check_eq "--no-placement drops placement findings" "$(grep -c placement "$TMP/.out")" "0"
"$KB" regress --baseline stock59-stats --no-performance --cpus-per-node 1 --format json >"$TMP/cpn1.json"
check_eq "--cpus-per-node 1: 8 tasks are no light load, 4 still are" \
	"$(python3 -c 'import json,sys
print(" ".join(sorted(f["config"] for f in json.load(open(sys.argv[1]))["findings"] if f["metric"]=="light_load_packed")))' "$TMP/cpn1.json")" "disturb=hackbench:20,tasks=4"
check_status "the other way round: no placement regression" 0 \
	"$KB" regress --baseline ingoD7-59.stats --no-performance
check_eq "stock vs D7: disturb=hackbench:20,tasks=8 stock spreads (2/2/2/2)" "$(grep -c '^  worse .*disturb=hackbench:20,tasks=8 light_load_packed' "$TMP/.out")" "0"
"$KB" regress --baseline stock59-stats --format junit >"$TMP/s3.xml"
check "seed 003 JUnit: inconclusive placement is skipped, its evidence escaped" python3 -c 'import xml.etree.ElementTree as E,sys
x=E.parse(sys.argv[1]).getroot()
c=[c for c in x.iter("testcase") if c.get("name").startswith("disturb=hackbench:20,tasks=4 light_load_packed")]
assert len(c)==1 and c[0].find("failure") is None and c[0].find("skipped") is not None, c
assert "all 4 jobs\x27 main node is node 0" in c[0].find("system-out").text' "$TMP/s3.xml"

# kbench report shows the regress findings at the top (text and HTML).
if "$KB" report --help >/dev/null 2>&1; then
	"$KB" report --baseline stock59-stats --format text >"$TMP/r3.txt" 2>&1
	check_grep "report: findings count the placement checks, none decided" \
		"numa_test placement checks: 0 worse, 0 better, 0 changed, 6 inconclusive" <(tr -s ' \n' '  ' <"$TMP/r3.txt")
	check_eq "report: findings come before the first comparison table" \
		"$(awk '/^Findings/ { print "findings"; exit } /^numa_test/ { print "table"; exit }' "$TMP/r3.txt")" "findings"
	"$KB" report --baseline stock59-stats --format html --output "$TMP/r3.html" >/dev/null 2>&1 ||
		"$KB" report --baseline stock59-stats --format html -o "$TMP/r3.html" >/dev/null 2>&1
	check_grep "report HTML: the placement checks counted, none decided" \
		"finds against stock59-stats: 0 worse, 0 better, 0 changed, [0-9]+ inconclusive \(performance and numa_test placement checks\)" "$TMP/r3.html"
fi

# --- placement over runs: the lab generator's packed light load ----------
# scripts/genlab.c -P: on lkp-lab-h00 alone, from the middle commit on, the
# 4 jobs of tasks=4 all run on node 0; everywhere else every job's node is
# drawn from the 4.  Six runs a commit, so that a rank test over runs can
# decide (with 3 against 3 the smallest two-sided p is 0.1).
cc -O2 -o "$TMP/genlab" scripts/genlab.c -lm || fail "genlab builds"
"$TMP/genlab" -H 2 -C 8 -R 6 -P -s 5 "$TMP/plab" >/dev/null || fail "genlab -P writes its tree"
PB=$(sed -n 's/^change .*metric=light_load_packed .* before=\([^ ]*\) .*/\1/p' "$TMP/plab.truth")
PF=$(sed -n 's/^change .*metric=light_load_packed from=\([^ ]*\) .*/\1/p' "$TMP/plab.truth")
PL=$(sed -n 's/^commits=[^ ]* \([^ ]*\) .*/\1/p' "$TMP/plab.truth")
export KBENCH_DB="$TMP/plab.db"
check_status "the packed lab's numa_test tree imports" 0 "$KB" import "$TMP/plab/numa_test"
check_status "regress across the packing commit exits 1" 1 \
	"$KB" regress --baseline "$PB" --candidate "$PF" --no-performance
cp "$TMP/.out" "$TMP/plab.txt"
check_eq "... one regression: the packing, on its host" "$(grep -c '^  worse' "$TMP/plab.txt")" "1"
check_grep "... light_load_packed on lkp-lab-h00 at tasks=4, by a rank test over 6 runs a side" \
	"^  worse +placement numa_test on lkp-lab-h00 disturb=hackbench:20,params=performance-randupdt,tasks=4 light_load_packed +$PF: [0-9.]+ -> 1 nodes .* q=0\.0[0-4]" "$TMP/plab.txt"
check_grep "... its evidence: 1/1/1/1/1/1 nodes per run, and the test" \
	"nodes used per run 1/1/1/1/1/1 against [1-4/]+ .*rank test over runs, 6 against 6: p=" "$TMP/plab.txt"
"$KB" regress --baseline "$PB" --candidate "$PF" --no-performance --format junit >"$TMP/plab.xml"
check "JUnit: the packing is the one failure, its evidence escaped" python3 -c 'import xml.etree.ElementTree as E,sys
x=E.parse(sys.argv[1]).getroot()
f=[c for c in x.iter("testcase") if c.find("failure") is not None]
assert len(f)==1 and "light_load_packed" in f[0].get("name"), [c.get("name") for c in f]
assert "all 4 jobs\x27 main node is node 0" in f[0].find("failure").text' "$TMP/plab.xml"
check_status "the other way round, the candidate spreads more: no regression" 0 \
	"$KB" regress --baseline "$PF" --candidate "$PB" --no-performance
check_grep "... it is better placement, not worse" \
	"^  better +placement numa_test on lkp-lab-h00 disturb=hackbench:20,params=performance-randupdt,tasks=4 light_load_packed +$PB: 1 -> " "$TMP/.out"
check_status "packed exactly like its baseline (1 -> 1 nodes): no regression" 0 \
	"$KB" regress --baseline "$PF" --candidate "$PL" --no-performance --verbose
check_grep "... 'same' by the test over runs" \
	"^  same +placement numa_test on lkp-lab-h00 disturb=hackbench:20,params=performance-randupdt,tasks=4 light_load_packed +$PL: 1 -> 1 nodes +\+0\.0% +q=1" "$TMP/.out"
if "$KB" report --help >/dev/null 2>&1; then
	"$KB" report --baseline "$PB" --variants "$PB,$PF" --format text >"$TMP/plab-r.txt" 2>&1
	check_grep "report: Findings lead with the packing" \
		"^  worse +placement: numa_test on lkp-lab-h00( disturb=hackbench:20,params=performance-randupdt,tasks=4)?\$" <(sed -n '/^Findings/,/^Verdicts/p' "$TMP/plab-r.txt" | grep -m1 '^  [a-z]')
	check_grep "report: the evidence's jobs per node" "4/0/0/0" "$TMP/plab-r.txt"
	"$KB" report --baseline "$PB" --variants "$PB,$PF" --format html --output "$TMP/plab-r.html" >/dev/null 2>&1
	check_grep "report HTML: the placement finding, on its host" \
		'<td class="v-worse">worse</td><td>placement</td><td>numa_test on lkp-lab-h00</td><td>disturb=hackbench:20,params=performance-randupdt,tasks=4</td><td>light_load_packed</td>' "$TMP/plab-r.html"
fi

# --- errors ----------------------------------------------------------------
check_status "unknown baseline is an error (2)" 2 "$KB" regress --baseline nosuch
check_status "missing --baseline is a usage error (2)" 2 "$KB" regress
check_status "bad --format (2)" 2 "$KB" regress --baseline stock59-stats --format xml
check_status "bad --cpus-per-node (2)" 2 "$KB" regress --baseline stock59-stats --cpus-per-node 0
check_status "--help exits 0" 0 "$KB" regress --help

# --- placement, like with like: a run is judged against the baseline's on
# its own machine.  Seed 003's two 8-task runs as raw logs: the control
# (all 4 nodes used) on m1, D7 (3 of 4 nodes: packed) on m2, and a second
# D7 run on m1 that spreads like the control (the control's log with two
# user times changed: a new run, not a copy).
S3=$SHARED/seeds/003_7caa478a1fca98f9.txt
sed -n 132,143p "$S3" >"$TMP/stock-8.txt"
sed -n 98,112p "$S3" >"$TMP/d7-8.txt"
sed -e 's/27\.77/27.81/; s/29\.34/29.30/' "$TMP/stock-8.txt" >"$TMP/d7-spread-8.txt"
export KBENCH_DB="$TMP/pm.db"
check_status "control run imports on m1" 0 "$KB" import --variant stock --machine m1 "$TMP/stock-8.txt"
check_status "D7's packed run imports on m2" 0 "$KB" import --variant d7 --machine m2 "$TMP/d7-8.txt"
check_status "D7's spread run imports on m1" 0 "$KB" import --variant d7 --machine m1 "$TMP/d7-spread-8.txt"
check_status "regress: D7 on m1 spreads like the control; m2 has no control run, nothing regressed" 0 \
	"$KB" regress --baseline stock --verbose --output "$TMP/pm.txt"
check_eq "the three placement checks are m1's, inconclusive with one run a side" \
	"$(grep -c '^  inconclusive  *placement numa_test on m1 disturb=hackbench:20,tasks=8 ' "$TMP/pm.txt") $(grep -c '^  [a-z]* *placement' "$TMP/pm.txt")" "3 3"
check_grep "... D7's m1 run against the control's m1 run: 4 of 4 nodes each" \
	"d7 \(tasks=8\) run 3: jobs per node 2/2/2/2, 4 of 4 nodes used, 1 moved, 1 split \| baseline stock run 1: jobs per node 2/2/2/2" "$TMP/pm.txt"
check_status "with --candidate too: nothing regressed" 0 "$KB" regress --baseline stock --candidate d7
check_eq "... and no placement finding names m2" "$(grep -c 'on m2' "$TMP/.out")" "0"
# Only the packed run left for D7, on another machine than the control:
# the variants share no machine, so they are compared across machines, as
# asked, and so is their placement.
export KBENCH_DB="$TMP/pa.db"
"$KB" import --variant stock --machine m1 "$TMP/stock-8.txt" >/dev/null
"$KB" import --variant d7 --machine m2 "$TMP/d7-8.txt" >/dev/null
check_status "across machines (each variant on its own): refused, exit 2" 2 \
	"$KB" regress --baseline stock --no-performance
check_grep "... naming the machines" "d7 has no run on the baseline's machines \(stock: m1; d7: m2\)" "$TMP/.out"
check_status "with --across-machines: compared, one run a side decides nothing" 0 \
	"$KB" regress --baseline stock --no-performance --across-machines --verbose
check_grep "... the warning names both machines" "^warning: compared across machines: stock on m1 against d7 on m2" "$TMP/.out"
check_grep "... the packing is an inconclusive finding, pooled across the machines" \
	"^  inconclusive +placement numa_test disturb=hackbench:20,tasks=8 light_load_packed +d7: 4 -> 3 nodes" "$TMP/.out"

