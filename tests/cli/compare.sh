#!/bin/bash
# kbench compare / export acceptance on seeds 000-003: the mails' tables
# reproduced, verdicts, the JSON contract, md/csv round trips.
. tests/lib.sh

SEEDS="$SAMPLES/seeds"

# cell FILE.json BENCH CONFIG METRIC VARIANT FIELD: one field of one JSON row
# ("None" when null, "missing" when there is no such row).
cell() {
	python3 - "$@" <<'EOF'
import json, sys
f, bench, config, metric, variant, field = sys.argv[1:7]
d = json.load(open(f))
for r in d["rows"]:
    if (r["benchmark"], r["config"], r["metric"], r["variant"]) == (bench, config, metric, variant):
        v = r[field]
        print(",".join(v) if isinstance(v, list) else v)
        break
else:
    print("missing")
EOF
}

# --- seed 000: hackbench A-E x N=10..100 from a published mean(sd) table -----
export KBENCH_DB="$TMP/s0.db"
check "seed 000 imports" "$KB" import "$SEEDS/000_009ccda627cb3777.txt"
"$KB" compare --bench hackbench --baseline A > "$TMP/s0.txt" 2>&1
check_status "compare --bench hackbench --baseline A exits 0" 0 "$KB" compare --bench hackbench --baseline A
for v in "5.54(0.10)" "15.28(0.03)" "32.65(0.35)" "67.67(0.69)" "5.37(0.06)" "1.31(0.08)" \
	"2.91(0.12)" "13.37(0.11)" "2.45(0.44)" "30.57(17.10)" "1.39(0.08)" "14.30(0.28)"; do
	check_grep "text shows $v" "$(printf '%s' "$v" | sed 's/[().]/\\&/g')" "$TMP/s0.txt"
done
check_grep "rows 10 25 50 100 in natural order" "^10 " "$TMP/s0.txt"
# (five variants wrap into two blocks of columns: the rows of the first)
check_eq "row order" "$(sed '/^$/q' "$TMP/s0.txt" | grep -E '^(10|25|50|100) ' | awk '{print $1}' | tr '\n' ' ')" "10 25 50 100 "
check_grep "C at N=10: -76.4, better" '1\.31\(0\.08\)n? +-76\.4 \+' "$TMP/s0.txt"
check_grep "D at N=100 marked very noisy" '30\.57\(17\.10\)N' "$TMP/s0.txt"
check_grep "very noisy footnote names D 100" 'very noisy.*D 100' <(tr '\n' ' ' < "$TMP/s0.txt")
check_grep "footer names the convention" 'raw: \(new - base\) / base' "$TMP/s0.txt"
"$KB" compare --bench hackbench --baseline A --format json > "$TMP/s0.json"
check_near "C N=10 change_pct = 1.31/5.54 - 1" "$(cell "$TMP/s0.json" hackbench groups=10 time C change_pct)" -76.3538 1e-4
check_eq "C N=10 verdict better" "$(cell "$TMP/s0.json" hackbench groups=10 time C verdict)" better
check_eq "A is the baseline" "$(cell "$TMP/s0.json" hackbench groups=10 time A verdict)" baseline
check_grep "D N=100 flags very_noisy" very_noisy <(cell "$TMP/s0.json" hackbench groups=100 time D flags)
check_eq "summary cells are summary_only" "$(cell "$TMP/s0.json" hackbench groups=10 time B origin)" summary
check "up to 4 variants fit 80 columns" awk 'length($0) > 80 { exit 1 }' \
	<("$KB" compare --bench hackbench --variants A,B,C,D)
"$KB" compare --bench hackbench --rows variant > "$TMP/s0r.txt"
check_grep "--rows variant: variants are rows (with n)" '^C +4 +1\.31\(0\.08\)' "$TMP/s0r.txt"
check_grep "--rows variant: configs are columns" '^variant +n +10 +%chg +25' "$TMP/s0r.txt"
check_status "--rows config --cols metric is refused" 2 "$KB" compare --rows config --cols metric
check_status "unknown baseline is an error" 2 "$KB" compare --baseline nosuch
check_status "bad --change is an error" 2 "$KB" compare --change faster
"$KB" compare --bench hackbench --variants C,A > "$TMP/s0v.txt"
check_grep "--variants C,A: C first and baseline" '^groups +n +C +A +%chg' "$TMP/s0v.txt"
"$KB" compare --bench hackbench --change better --format json > "$TMP/s0b.json"
check_near "--change better: C N=10 positive" "$(cell "$TMP/s0b.json" hackbench groups=10 time C change_pct)" 76.3538 1e-4
check_eq "JSON names the convention" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["change"])' "$TMP/s0b.json")" better

# JSON contract: every key, types, one row per variant per (bench, config, metric).
check "JSON contract" python3 - "$TMP/s0.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kbench"] == "compare" and d["version"] == 1
assert d["baseline"] == "A" and d["change"] == "raw"
assert d["alpha"] == 0.05 and d["threshold_pct"] == 1
keys = ["benchmark", "config", "metric", "unit", "better", "variant", "n", "mean", "sd",
        "median", "min", "max", "cv_pct", "ci_low", "ci_high", "change_pct", "change_ci_low",
        "change_ci_high", "p", "q", "verdict", "flags"]
assert len(d["rows"]) == 20, len(d["rows"])
seen = set()
for r in d["rows"]:
    for k in keys:
        assert k in r, k
    assert isinstance(r["flags"], list)
    assert r["better"] in ("lower", "higher", "none")
    assert r["verdict"] in ("baseline", "better", "worse", "same", "changed", "inconclusive")
    if r["verdict"] == "baseline":
        assert r["change_pct"] is None and r["p"] is None
    assert r["median"] is None          # summaries have no median: null, not NaN
    k = (r["benchmark"], r["config"], r["metric"], r["variant"])
    assert k not in seen
    seen.add(k)
EOF

# md and csv carry the same numbers as JSON.
"$KB" compare --bench hackbench --format csv > "$TMP/s0.csv"
"$KB" compare --bench hackbench --format md > "$TMP/s0.md"
check "csv round-trips JSON numbers" python3 - "$TMP/s0.csv" "$TMP/s0.json" <<'EOF'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
js = json.load(open(sys.argv[2]))["rows"]
assert len(rows) == len(js)
for c, j in zip(rows, js):
    for k in ("mean", "sd", "change_pct", "p", "q"):
        if j[k] is None:
            assert c[k] == "", (k, c[k])
        else:
            assert abs(float(c[k]) - j[k]) <= 1e-9 * max(1, abs(j[k])), (k, c[k], j[k])
    assert c["verdict"] == j["verdict"] and c["variant"] == j["variant"]
    assert c["flags"] == ";".join(j["flags"])
EOF
check "md table round-trips mean(sd) and change" python3 - "$TMP/s0.md" "$TMP/s0.json" <<'EOF'
import json, re, sys
md = open(sys.argv[1]).read().splitlines()
js = json.load(open(sys.argv[2]))["rows"]
lines = [l for l in md if l.startswith("| ") and not l.startswith("| groups")
         and not l.startswith("| geomean")]
head = [h.strip() for h in [l for l in md if l.startswith("| groups")][0].strip("|").split("|")]
assert len(lines) == 4
for l in lines:
    cells = [c.strip() for c in l.strip("|").split("|")]
    cfg = "groups=" + cells[0]
    for j in js:
        if j["config"] != cfg:
            continue
        v = cells[head.index(j["variant"])]
        m = re.match(r"([-0-9.]+)\(([-0-9.]+)\)", v)
        assert abs(float(m.group(1)) - j["mean"]) < 0.006 and abs(float(m.group(2)) - j["sd"]) < 0.006
        if j["verdict"] != "baseline":
            ch = cells[head.index("%chg " + j["variant"])]
            assert abs(float(ch.split("%")[0]) - j["change_pct"]) < 0.051, (ch, j["change_pct"])
EOF
check_grep "md is a GFM table" '^\|---\|---:\|' "$TMP/s0.md"

# export
"$KB" export --what summary --format csv --bench hackbench > "$TMP/sum.csv"
check_eq "export summary csv: 20 rows + header" "$(wc -l < "$TMP/sum.csv")" 21
check_grep "export summary has D 100" '"D","hackbench","groups=100","time","30.57","17.1","4"' "$TMP/sum.csv"
"$KB" export --what compare --format json --bench hackbench > "$TMP/exp.json"
check_eq "export --what compare = compare --format json" "$(cmp -s "$TMP/exp.json" "$TMP/s0.json" && echo same)" same
check_status "export refuses text" 2 "$KB" export --format text

# --- seed 001: raw numa_test blocks (one run per cell) win over the summary table --
export KBENCH_DB="$TMP/s1.db"
check "seed 001 imports" "$KB" import "$SEEDS/001_84b93bea668f5b54.txt"
"$KB" compare --bench numa_test --metric avg_user,total_user,elapsed,hackbench \
	--config tasks=8,tasks=16,tasks=32 --format json > "$TMP/s1.json"
"$KB" compare --bench numa_test --metric avg_user,total_user,elapsed,hackbench \
	--config tasks=8,tasks=16,tasks=32 > "$TMP/s1.txt"
# The mail's U, TU, E and H rows (A-F) at N=8, 16, 32.
while read -r n metric values; do
	i=0
	for v in A B C D E F; do
		i=$((i + 1))
		want=$(echo "$values" | awk -v i=$i '{print $i}')
		got=$(cell "$TMP/s1.json" numa_test "disturb=hackbench:20,tasks=$n" "$metric" "$v" mean)
		# The mail rounds the runs' numbers: allow half its last digit.
		tol=$(awk -v w="$want" 'BEGIN { d = index(w, ".") ? length(w) - index(w, ".") : 0;
			a = w < 0 ? -w : w; if (a < 1) a = 1; printf "%.12g", (0.5 * 10 ^ -d + 1e-9) / a }')
		check_near "N=$n $metric $v = $want" "$got" "$want" "$tol"
	done
done <<'EOF'
8 avg_user 30.47 31.39 31.65 30.76 28.67 30.08
16 avg_user 36.42 33.64 32.18 32.27 31.50 32.83
32 avg_user 38.69 34.83 34.05 33.76 33.89 34.11
8 total_user 243.86 251.27 253.30 246.23 229.51 240.75
16 total_user 582.91 538.49 515.11 516.53 504.17 525.59
32 total_user 1238.4 1114.9 1090.1 1080.8 1084.9 1091.9
8 elapsed 46.17 39.50 42.53 39.72 30.28 38.28
16 elapsed 47.21 44.67 49.66 42.97 36.98 42.51
32 elapsed 88.60 79.92 80.34 78.35 76.84 77.38
8 hackbench 9.64 1.86 7.27 2.07 2.33 1.86
16 hackbench 5.90 4.69 2.93 5.178 5.56 5.94
32 hackbench 6.29 5.23 2.85 4.51 5.29 4.28
EOF
check_eq "n = 1 per cell" "$(cell "$TMP/s1.json" numa_test disturb=hackbench:20,tasks=16 elapsed C n)" 1
check_eq "raw samples used, not the summary" "$(cell "$TMP/s1.json" numa_test disturb=hackbench:20,tasks=16 elapsed C origin)" samples
check_grep "raw_preferred flag" raw_preferred <(cell "$TMP/s1.json" numa_test disturb=hackbench:20,tasks=16 elapsed C flags)
check_near "elapsed_minus_hackbench listed: A N=8 = 46.17 - 9.639" \
	"$(cell "$TMP/s1.json" numa_test disturb=hackbench:20,tasks=8 elapsed_minus_hackbench A mean)" 36.531 1e-6
check_grep "text has the E-H block" 'numa_test  elapsed_minus_hackbench' "$TMP/s1.txt"
check_eq "1 vs 1 is inconclusive" "$(cell "$TMP/s1.json" numa_test disturb=hackbench:20,tasks=8 elapsed E verdict)" inconclusive
check_grep "and says why" 'too few values' <(cell "$TMP/s1.json" numa_test disturb=hackbench:20,tasks=8 elapsed E note)
check_eq "N=4 and N=64 come from the summary table" "$(cell "$TMP/s1.json" numa_test disturb=hackbench:20,tasks=4 elapsed A mean)" missing
"$KB" compare --bench numa_test --config tasks=8 --metric user_moved,user_stayed,moved_pct --format json > "$TMP/s1d.json"
# A, N=8: jobs 5 and 6 stayed (29.96, 29.63); six moved.
check_near "derived user_stayed A N=8" "$(cell "$TMP/s1d.json" numa_test disturb=hackbench:20,tasks=8 user_stayed A mean)" 29.795 1e-9
check_near "derived moved_pct A N=8" "$(cell "$TMP/s1d.json" numa_test disturb=hackbench:20,tasks=8 moved_pct A mean)" 75 1e-9
check_grep "derived flag" derived <(cell "$TMP/s1d.json" numa_test disturb=hackbench:20,tasks=8 user_moved A flags)

# --- seed 002: autonuma Min/Max/Avg summaries (5 iterations) and perf counters ---
export KBENCH_DB="$TMP/s2.db"
check "seed 002 imports" "$KB" import "$SEEDS/002_c5c123cd839d7edc.txt"
"$KB" compare --bench autonuma --change speed > "$TMP/s2s.txt"
check_grep "speed: numa01 +0.82" '^numa01 .* \+0\.82 ' "$TMP/s2s.txt"
check_grep "speed: numa02 -39.00" '^numa02 .* -39\.00 ' "$TMP/s2s.txt"
check_grep "speed convention named" 'speed: base / new - 1' "$TMP/s2s.txt"
"$KB" compare --bench autonuma --format json > "$TMP/s2.json"
B2="3.9.0-mainline_v39+()"; N2="3.9.0-mainline_v39+() + mel's patches"
check_eq "first KernelVersion is the baseline" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["baseline"])' "$TMP/s2.json")" "$B2"
check_near "raw: numa02 +63.9%" "$(cell "$TMP/s2.json" autonuma test=numa02 elapsed "$N2" change_pct)" 63.94 0.0002
check_eq "numa02 worse" "$(cell "$TMP/s2.json" autonuma test=numa02 elapsed "$N2" verdict)" worse
check "numa01 not worse" test "$(cell "$TMP/s2.json" autonuma test=numa01 elapsed "$N2" verdict)" != worse
check_grep "sd estimated from the range" sd_estimated <(cell "$TMP/s2.json" autonuma test=numa02 elapsed "$N2" flags)
"$KB" compare --format json > "$TMP/s2all.json"
check "perf counters of one run a side: inconclusive, never a verdict by size" python3 - "$TMP/s2all.json" <<'EOF'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"]
        if r["benchmark"] == "perf-stat" and r["better"] == "none" and r["verdict"] != "baseline"]
assert len(rows) >= 8, len(rows)
for r in rows:
    assert r["verdict"] == "inconclusive" and "too_few" in r["flags"], r
EOF

# --- seed 003: per-job user times of the D7 and stock control runs --------------
export KBENCH_DB="$TMP/s3.db"
S3="$SEEDS/003_7caa478a1fca98f9.txt"
check "seed 003 imports" "$KB" import "$S3"
# Imported as posted, the post's own evidence names its blocks: the D7 runs
# repeat the ingoD7-59.stats rows of "Schedbench 4/8", the control runs the
# stock59-stats rows (and "on a stock59 kernel").
check_eq "seed 003: D7 blocks under ingoD7-59.stats, control under stock59-stats" \
	"$(sql "select group_concat(variant || ':' || config, ' ') from (select variant, config from runs_v order by run_id) q")" \
	"ingoD7-59.stats:disturb=hackbench:20,tasks=4 ingoD7-59.stats:disturb=hackbench:20,tasks=8 stock59-stats:disturb=hackbench:20,tasks=4 stock59-stats:disturb=hackbench:20,tasks=8"
# The jobs of one run are not replicates: per-job user time is one value per
# run (the mean of its jobs), so one run per side cannot be tested.
"$KB" compare --bench numa_test --variants stock59-stats,ingoD7-59.stats --metric user \
	--config tasks=4,tasks=8 --test mwu --format json > "$TMP/s3.json"
check_eq "per-job user: n counts runs (1), not jobs (4)" "$(cell "$TMP/s3.json" numa_test disturb=hackbench:20,tasks=4 user ingoD7-59.stats n)" 1
check_eq "per-job user: n counts runs (1), not jobs (8)" "$(cell "$TMP/s3.json" numa_test disturb=hackbench:20,tasks=8 user ingoD7-59.stats n)" 1
check_eq "... the cell is the mean of the run's jobs (44.765)" "$(cell "$TMP/s3.json" numa_test disturb=hackbench:20,tasks=4 user ingoD7-59.stats mean)" 44.765
check_eq "... the jobs behind it are counted" "$(cell "$TMP/s3.json" numa_test disturb=hackbench:20,tasks=4 user ingoD7-59.stats jobs)" 4
check_eq "... and their spread within the run kept (sd 2.401)" \
	"$(python3 -c "import json,sys; print('%.3f' % [r for r in json.load(open(sys.argv[1]))['rows'] if r['config']=='disturb=hackbench:20,tasks=4' and r['metric']=='user' and r['variant']=='ingoD7-59.stats'][0]['job_sd'])" "$TMP/s3.json")" 2.401
check_eq "D7 user tasks=4: inconclusive with one run per side" "$(cell "$TMP/s3.json" numa_test disturb=hackbench:20,tasks=4 user ingoD7-59.stats verdict)" inconclusive
check_eq "D7 user tasks=8: inconclusive with one run per side" "$(cell "$TMP/s3.json" numa_test disturb=hackbench:20,tasks=8 user ingoD7-59.stats verdict)" inconclusive
check_grep "... and says so" "1 run per side" <(cell "$TMP/s3.json" numa_test disturb=hackbench:20,tasks=4 user ingoD7-59.stats note)
check_grep "jobs flag" jobs <(cell "$TMP/s3.json" numa_test disturb=hackbench:20,tasks=8 user ingoD7-59.stats flags)
# A block cut from the post and imported again is the same output: no new run.
awk -v dir="$TMP" '
	/^Executing [0-9]+ times/ { k++; f = dir "/s3_" k ".txt" }
	f && /^(--|Control run|Detailed stats)/ { f = "" }
	f { print > f }' "$S3"
check_eq "four blocks cut" "$(ls "$TMP"/s3_*.txt | wc -l)" 4
check "a cut block imports" "$KB" import --variant ingoD7-59.stats "$TMP/s3_1.txt"
check_grep "... as 0 runs, already stored from the post" "0 runs, 0 samples; 1 runs already stored from .*003_7caa478a1fca98f9.txt" "$TMP/.out"
check_eq "... the store still holds 4 numa_test runs" "$(sql "select count(*) from run where benchmark = 'numa_test'")" 4
"$KB" compare --bench kernbench --variants stock59-stats,ingoD7-59.stats,testD7-59 --format json > "$TMP/s3k.json"
for v in ingoD7-59.stats testD7-59; do
	got=$(cell "$TMP/s3k.json" kernbench "" elapsed "$v" verdict)
	check "kernbench elapsed $v is inconclusive or same ($got)" test "$got" = inconclusive -o "$got" = same
	check_grep "kernbench elapsed $v says why" 'no test possible' <(cell "$TMP/s3k.json" kernbench "" elapsed "$v" note)
done
"$KB" compare --bench kernbench --variants stock59-stats,ingoD7-59.stats > "$TMP/s3k.txt"
check_grep "the text shows the note" 'without n or sd' "$TMP/s3k.txt"

# --- MWU with 3 vs 3: no p can pass; say so -------------------------------------
export KBENCH_DB="$TMP/mwu.db"
for v in base:10.0,10.1,10.2 new:12.0,12.1,12.2; do
	name=${v%%:*}
	mkdir -p "$TMP/$name"
	i=0
	for x in $(echo "${v#*:}" | tr ',' ' '); do
		i=$((i + 1))
		printf '%s real\n0.5 user\n0.1 sys\n' "$x" > /dev/null
		printf 'Running with 10*40 (== 400) tasks.\nTime: %s\n' "$x" > "$TMP/$name/hb$i.txt"
	done
	"$KB" import --variant "$name" "$TMP/$name"/*.txt > /dev/null 2>&1
done
if [ "$(sql "select count(*) from run")" = 6 ]; then
	"$KB" compare --test mwu --format json > "$TMP/mwu.json"
	cfg=$(sql "select config from run limit 1")
	check_eq "MWU 3 vs 3 inconclusive" "$(cell "$TMP/mwu.json" hackbench "$cfg" time new verdict)" inconclusive
	check_grep "MWU 3 vs 3 says no p can pass" 'cannot reach' <(cell "$TMP/mwu.json" hackbench "$cfg" time new note)
	"$KB" compare --format json > "$TMP/w.json"
	check_eq "Welch 3 vs 3 finds it" "$(cell "$TMP/w.json" hackbench "$cfg" time new verdict)" worse
else
	fail "hackbench fixtures imported" "$(sql "select count(*) from run") runs"
fi
