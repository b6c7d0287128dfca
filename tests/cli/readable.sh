#!/bin/bash
# Outputs that stay readable at real sizes (issue 14): compare text within
# 80 columns up to four variants and 100 beyond, the text report of the
# demo store within 80 (every line within 100), its Findings counts equal
# to its rows, one q-value per comparison throughout, a report of a store
# with many numa_test runs that finishes with charts within 4000 px, and
# selections that match nothing exit 2 naming what exists.
. "$(dirname "$0")/../lib.sh"

maxlen() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }

# ---- the demo store (make demo) ----
export KBENCH_DB=$TMP/demo.db
for f in "$SAMPLES"/seeds/*.txt; do
	"$KB" import --variant-prefix "post$(basename "$f" | cut -c1-3):" "$f" >/dev/null 2>&1
done
check "import the demo's samples" "$KB" import "$SAMPLES/lkp" "$SAMPLES/mmtests" "$SAMPLES/numatest"

# compare: every benchmark, then each benchmark with at most four variants
"$KB" compare > "$TMP/all.txt" 2>&1
check "compare of the whole demo store: lines <= 100 (longest $(maxlen "$TMP/all.txt"))" \
	test "$(maxlen "$TMP/all.txt")" -le 100
"$KB" compare --bench hackbench --variants post000:A,post000:B,post000:C,post000:D > "$TMP/four.txt"
check "compare of four variants: lines <= 80 (longest $(maxlen "$TMP/four.txt"))" \
	test "$(maxlen "$TMP/four.txt")" -le 80
check_eq "compare of four variants: the legend once" "$(grep -c '^Values: ' "$TMP/four.txt")" 1
check_grep "compare: an n column" '^groups +n +post000:A' "$TMP/four.txt"
check_grep "compare: seed 000 hackbench A N=10 with its n" '^10 +4 +5\.54\(0\.10\)' "$TMP/four.txt"

# the lkp hackbench corpus: long configs go into one config: line
export KBENCH_DB=$TMP/lkp.db
check "import the lkp samples" "$KB" import "$SAMPLES/lkp"
"$KB" compare > "$TMP/lkp.txt"
check "compare of the lkp samples: lines <= 80 (longest $(maxlen "$TMP/lkp.txt"))" \
	test "$(maxlen "$TMP/lkp.txt")" -le 80
check_grep "lkp: keys shared by every row in one line" '^  config: datasize=100,impl=rt-tests,ipc=pipe$' "$TMP/lkp.txt"

# ---- the demo report as a mail body ----
export KBENCH_DB=$TMP/demo.db
check "report text of the demo store" "$KB" report --format text -o "$TMP/report.txt"
check "report text: every line <= 80 (longest $(maxlen "$TMP/report.txt"))" \
	test "$(maxlen "$TMP/report.txt")" -le 80
check_eq "report text: the table legend once" "$(grep -c '^Values: ' "$TMP/report.txt")" 1
check_eq "report text: never n=0" "$(grep -c 'n=0' "$TMP/report.txt")" 0
check_grep "report text: one BH family, said in the methods" \
	'Benjamini-Hochberg as one family over all [0-9]+ comparisons' "$TMP/report.txt"

python3 - "$TMP/report.txt" > "$TMP/consistency.txt" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
find = text[text.index("\nFindings\n"):text.index("\nVerdicts\n")]
verd = text[text.index("\nVerdicts\n"):]
bad = 0
# Findings: the header's counts against the rows listed (+ "and N more").
head = re.search(r"What kbench regress finds: (\d+) worse, (\d+) better, (\d+) changed, "
                 r"(\d+) inconclusive\.", " ".join(find.split()))
for i, kind in enumerate(("worse", "better", "changed", "inconclusive")):
    rows = len(re.findall(r"^  %s (performance|placement): " % kind, find, re.M))
    more = re.search(r"^  and (\d+) more %s " % kind, find, re.M)
    rows += int(more.group(1)) if more else 0
    if rows != int(head.group(i + 1)):
        bad += 1
        print("findings %s: header %s, rows %d" % (kind, head.group(i + 1), rows))
# Findings against the Verdicts counts (performance rows).
vc = re.search(r"(\d+) comparisons: (\d+) worse, (\d+) better, (\d+) inconclusive, "
               r"(\d+) changed", verd)
perf = re.search(r"comparisons of the sections below: (\d+) worse, (\d+) better, "
                 r"(\d+) changed, (\d+) inconclusive", " ".join(find.split()))
if (vc.group(2), vc.group(3), vc.group(5), vc.group(4)) != perf.groups():
    bad += 1
    print("verdicts %s vs findings %s" % (vc.groups(), perf.groups()))
# One q per comparison: (bench, metric, config, variant) -> q in both places.
qs = {}
for m in re.finditer(r"^  \w+ performance: (\S+) (\S+) (\S+), (.+?) [-+][0-9.]+%.*? q=(\S+)",
                     find, re.M):
    qs.setdefault((m.group(1), m.group(3), m.group(2), m.group(4)), set()).add(m.group(5))
for m in re.finditer(r"^  (\S+) (\S+) (\S+): (.+?) vs .+? [-+][0-9.]+%.*? q=(\S+)", verd, re.M):
    qs.setdefault((m.group(1), m.group(2), m.group(3), m.group(4)), set()).add(m.group(5))
both = [k for k, v in qs.items() if len(v) > 1]
for k in both:
    bad += 1
    print("two q-values for %s: %s" % (k, sorted(qs[k])))
print("keys=%d bad=%d" % (len(qs), bad))
EOF
check_grep "report text: Findings counts equal their rows, one q per comparison" \
	'^keys=[1-9][0-9]* bad=0$' "$TMP/consistency.txt"

# ---- many numa_test runs: a report finishes, every chart within 4000 px ----
export KBENCH_DB=$TMP/many.db
for i in 1 2 3 4 5 6 7 8; do
	# a copy with i blank lines more: other bytes, the same runs
	{ cat "$SAMPLES/seeds/001_84b93bea668f5b54.txt"; printf '%*s' "$i" '' | tr ' ' '\n'; } \
		> "$TMP/copy$i.txt"
	"$KB" import --variant-prefix "copy$i:" "$TMP/copy$i.txt" >/dev/null 2>&1
done
"$KB" import --variant many "$SAMPLES/numatest" >/dev/null 2>&1
check "report html of $(sql 'select count(*) from run') numa_test runs" \
	"$KB" report --assets "$TMP/assets" -o "$TMP/many.html"
PNGINFO=${PNGINFO:-$KB_BIN_DIR/pnginfo}
"$PNGINFO" "$TMP"/assets/*.png > "$TMP/sizes.txt" 2>&1
check_eq "report charts: none over 4000 px" \
	"$(awk '{ split($2, d, "x"); if (d[1] > 4000 || d[2] > 4000) print }' "$TMP/sizes.txt" | wc -l)" 0

# ---- selections that match nothing ----
export KBENCH_DB=$TMP/demo.db
for verb in "compare" "export --what compare" "chart --type bars --dump-layout" "report --format text" \
	    "history --metric time" "regress --baseline post000:A"; do
	$KB $verb --bench nosuch > "$TMP/err.txt" 2>&1
	rc=$?
	check_eq "$verb --bench nosuch: exit 2" "$rc" 2
	check_grep "$verb --bench nosuch: names it and what exists" \
		"no benchmark 'nosuch' \(--bench\) in the store; it has 6: autonuma, hackbench" "$TMP/err.txt"
done
for verb in "compare" "export --what compare" "chart --type bars --bench hackbench --dump-layout" \
	    "report --format text"; do
	$KB $verb --variants nosuch > "$TMP/err.txt" 2>&1
	check_eq "$verb --variants nosuch: exit 2" "$?" 2
	check_grep "$verb --variants nosuch: names the variants" \
		"no variant 'nosuch' \(--variants\) in the store; it has 21: post000:A, post000:B" "$TMP/err.txt"
done
"$KB" regress --baseline post000:A --candidate nosuch > "$TMP/err.txt" 2>&1
check_eq "regress --candidate nosuch: exit 2" "$?" 2
check_grep "regress --candidate nosuch: names the variants" "no variant 'nosuch'" "$TMP/err.txt"
"$KB" compare --bench hackbench --config groups=999 > "$TMP/err.txt" 2>&1
check_eq "compare --config groups=999: exit 2" "$?" 2
check_grep "compare --config groups=999: says what matched nothing" \
	'nothing in the store matches the selection --bench hackbench --config groups=999' "$TMP/err.txt"
