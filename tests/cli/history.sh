#!/bin/bash
# kbench history acceptance: real mmtests hackbench results (the seven
# hackbench-7-<i> runs of process-pipes) spread over 30 variants 5.0 ...
# 5.29, each variant taking five of the seven runs (rotating) with a small
# jitter so that no two files are the same bytes; a history with a 15%
# step from the 20th variant (5.19) on finds one change point there, the
# same history without the step finds none.
. tests/lib.sh

LOGS="$SHARED/corpus/mmtests/prashantph-mmtests_CI/log.ltccip8.2020-06-03_1400/forkintensive/iter-0/hackbench-process-pipes/logs"

# make_history DIR STEP: 30 variant directories 5.0 ... 5.29 under DIR.
make_history() {
	local dir=$1 step=$2 i k j f scale
	for i in $(seq 0 29); do
		mkdir -p "$dir/5.$i"
		scale=1
		[ "$i" -ge 19 ] && scale=$step
		for k in 0 1 2 3 4; do
			j=$(( (i + k) % 7 + 1 ))
			f="$LOGS/hackbench-7-$j"
			awk -v s="$scale" -v seed=$((i * 10 + k + 1)) 'BEGIN { srand(seed) }
				/Total time:/ { printf "     Total time: %.5f [sec]\n", $3 * s * (1 + (rand() - 0.5) * 0.002); next }
				{ print }
				END { printf "# kbench history test: variant %s, run %d\n", v, k }' v="5.$i" k="$k" "$f" \
				>"$dir/5.$i/hackbench-7-$((k + 1))"
		done
	done
}

import_history() {
	local dir=$1 i ok=0
	for i in $(seq 0 29); do
		"$KB" import --variant "5.$i" "$dir/5.$i" >"$TMP/ih.out" 2>&1 || { ok=1; cat "$TMP/ih.out"; }
	done
	return $ok
}

check "the seven hackbench-7 runs are there" test -f "$LOGS/hackbench-7-7"

# --- with a 15% step from the 20th variant on -------------------------------
export KBENCH_DB="$TMP/step.db"
make_history "$TMP/step" 1.15
check_eq "generated files differ from each other" "$(cat "$TMP"/step/*/* | md5sum | cut -c1-8) $(sha256sum "$TMP"/step/*/* | cut -c1-64 | sort -u | wc -l)" \
	"$(cat "$TMP"/step/*/* | md5sum | cut -c1-8) 150"
check "30 variants import" import_history "$TMP/step"
check_eq "150 hackbench runs" "$(sql "select count(*) from runs_v where benchmark = 'hackbench'")" "150"
check_status "history exits 0" 0 "$KB" history --metric time --bench hackbench
"$KB" history --metric time --bench hackbench >"$TMP/step.txt" 2>&1
check_eq "one change point" "$(grep -c '···' "$TMP/step.txt")" "1"
check_grep "marked +15% worse" "··· \+1[45]\.[0-9]% worse ···" "$TMP/step.txt"
check_grep "first variant after the change is 5.19 (the 20th)" "··· .* first after: 5\.19$" "$TMP/step.txt"
check_eq "the mark sits right before 5.19" "$(grep -A1 '···' "$TMP/step.txt" | tail -1 | awk '{ print $1 }')" "5.19"
check_eq "versions in kernel order (5.2 before 5.10)" "$(awk '$1 ~ /^5\.[0-9]+$/ { printf "%s ", $1 }' "$TMP/step.txt" | cut -d' ' -f1-12)" \
	"5.0 5.1 5.2 5.3 5.4 5.5 5.6 5.7 5.8 5.9 5.10 5.11"
"$KB" history --metric time --bench hackbench --format json >"$TMP/step.json"
check "JSON: one change at index 19 (5.19), about +15%, p <= 0.001, worse" python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); assert d["kbench"]=="history" and d["version"]==1
s=d["series"]; assert len(s)==1, len(s)
c=s[0]["changes"]; assert len(c)==1, c
c=c[0]; assert c["index"]==19 and c["variant"]=="5.19", c
assert 13 < c["change_pct"] < 17 and c["p"] <= 0.001 and c["verdict"]=="worse", c
assert c["after_median"] > c["before_median"]
assert [p["variant"] for p in s[0]["points"]][:3]==["5.0","5.1","5.2"]
assert all(p["n"]==5 and p["runs"]==5 for p in s[0]["points"])' "$TMP/step.json"
check_status "--order name exits 0" 0 "$KB" history --metric time --order name --format json
cp "$TMP/.out" "$TMP/name.json"
check "--order name puts 5.10 before 5.2" python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); v=[p["variant"] for p in d["series"][0]["points"]]
assert v.index("5.10") < v.index("5.2"), v' "$TMP/name.json"
check_status "a threshold above the step finds nothing" 0 "$KB" history --metric time --threshold 20
check_eq "--threshold 20: no change point" "$(grep -c '···' "$TMP/.out")" "0"
check_status "--chart draws the history" 0 "$KB" history --metric time --chart "$TMP/h.svg"
check_grep "the SVG is drawn" "<svg" "$TMP/h.svg"
check_status "--chart PNG" 0 "$KB" history --metric time --chart "$TMP/h.png"
check "PNG signature" bash -c "head -c 8 '$TMP/h.png' | od -An -c | grep -q 'P   N   G'"
check_status "kbench chart --type history draws it too" 0 "$KB" chart --type history --metric time --dump-layout
check_grep "chart layout: the change mark at 5.19" "^change\.0=.* at=5\.19 verdict=worse text=\+1[45]\.[0-9]% worse" "$TMP/.out"
check_status "kbench chart --type history wants one --metric" 2 "$KB" chart --type history --dump-layout

# --- the same history without the step -----------------------------------------
export KBENCH_DB="$TMP/flat.db"
make_history "$TMP/flat" 1
check "30 flat variants import" import_history "$TMP/flat"
check_status "flat history exits 0" 0 "$KB" history --metric time --bench hackbench
check_eq "no change point without the step" "$(grep -c '···' "$TMP/.out")" "0"
check_grep "the flat history lists all 30 variants" "30 variants, 0 change points" "$TMP/.out"

# --- errors ---------------------------------------------------------------------
check_status "missing --metric (2)" 2 "$KB" history
check_status "unknown metric (2)" 2 "$KB" history --metric nosuch
check_status "bad --order (2)" 2 "$KB" history --metric time --order random
check_status "bad --pvalue (2)" 2 "$KB" history --metric time --pvalue 0
check_status "--format junit is regress only (2)" 2 "$KB" history --metric time --format junit

# --- throughput: a point's mean is the harmonic mean, as compare's cells --------
# lkp's hackbench fixture, 8 runs of time made higher-is-better by --better.
export KBENCH_DB="$TMP/hm.db"
"$KB" import "$SHARED/corpus/lkp/hackbench/hackbench" >/dev/null 2>&1
"$KB" history --metric time --bench hackbench --better time=higher --format json >"$TMP/hm.json"
check_near "--better time=higher: the point's mean is n / sum(1/x)" \
	"$(jq -r '.series[0].points[0].mean' "$TMP/hm.json")" \
	"$(sqlite3 "$KBENCH_DB" "select value from samples_v where metric='time'" |
		python3 -c 'import sys; x = [float(l) for l in sys.stdin]; print(len(x) / sum(1 / v for v in x))')" 1e-8
check_eq "... mean_kind harmonic" "$(jq -r '.series[0].points[0].mean_kind' "$TMP/hm.json")" harmonic
"$KB" history --metric time --bench hackbench --better time=higher >"$TMP/hm.txt"
check_grep "... the text says so above the column" "^  \(mean: the harmonic mean of the runs" "$TMP/hm.txt"
"$KB" history --metric time --bench hackbench --format json >"$TMP/hl.json"
check_eq "as catalogued (lower is better): arithmetic" \
	"$(jq -r '.series[0].points[0].mean_kind' "$TMP/hl.json")" arithmetic
