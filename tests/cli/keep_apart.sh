#!/bin/bash
# What must stay apart stays apart: copies of an output are stored once,
# labelled blocks of one kernel stay two groups, relabel undoes itself,
# and a lab's machines are never pooled.
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

SEED1="$SHARED/seeds/001_84b93bea668f5b54.txt"
SEED3="$SHARED/seeds/003_7caa478a1fca98f9.txt"

# --- a reply re-quoting seed 001's raw blocks, quoted-printable encoded ------
export KBENCH_DB="$TMP/copies.db"
check_status "seed 001 imports" 0 "$KB" import "$SEED1"
# The raw numa_test blocks of the post (already quoted once with "> "),
# quoted once more and sent as quoted-printable, as a reply would carry them.
python3 - "$SEED1" "$TMP/reply.txt" <<'EOF'
import quopri, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
start = next(i for i, l in enumerate(lines) if "Running 'hackbench 20'" in l) - 2
body = ["On Mon, Oct 07, 2002, Erich Focht wrote:"]
body += ["> " + l if l else ">" for l in lines[start:600]]
body += ["", "Thanks, I see the same on my box.", ""]
text = "\n".join(body).encode("utf-8")
header = (b"From: someone@example.org\nSubject: Re: [PATCH] node affine NUMA scheduler\n"
          b"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
          b"Content-Transfer-Encoding: quoted-printable\n\n")
open(sys.argv[2], "wb").write(header + quopri.encodestring(text))
EOF
check_grep "the reply is quoted-printable" "=3D|=20$|=$" "$TMP/reply.txt"
check_grep "... and quoted twice" "^> > Job" "$TMP/reply.txt"
before=$(sql "select count(*) from run")
check_status "the reply imports" 0 "$KB" import "$TMP/reply.txt"
check_grep "... with no new run, saying where they are" \
	": numa_test, 0 runs, 0 samples; 18 runs already stored from .*001_84b93bea668f5b54\.txt" "$TMP/.out"
check_eq "... the store holds seed 001's 18 runs, once" "$(sql "select count(*) from run")" "$before"
check_eq "... the reply's segments point at the post" \
	"$(sql "select count(distinct copy_of) from segment g join source s on s.id = g.source_id where s.path like '%reply.txt'")" \
	"1"

# --- labelled kernbench blocks of one kernel ---------------------------------
export KBENCH_DB="$TMP/labels.db"
K="$SHARED/corpus/kernbench"
check_status "two labelled blocks of 2.6.16 import" 0 \
	"$KB" import "$K/lkml_20060418_vivier_kernbench_console_2.6.16_two_runs.txt"
check_eq "... both are stored (2 x 18 summaries)" "$(sql "select count(*) from summary")" "36"
check_eq "... as two variants named by their label lines" \
	"$(sql "select group_concat(variant || ':' || config, ' ') from (select distinct variant, config from summary_v where config like '%jobs=8%' order by variant) q")" \
	"With atomic_long_t:jobs=8,load=half With percpu_counter:jobs=8,load=half"
"$KB" compare --bench kernbench --metric elapsed --baseline "With atomic_long_t" --format json > "$TMP/lab.json"
check_eq "compare tells them apart: 120.68 with percpu_counter" \
	"$(python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["rows"]:
    if r["config"] == "jobs=8,load=half" and r["variant"] == "With percpu_counter": print(r["mean"])' "$TMP/lab.json")" "120.68"
check_eq "... and the other block's own half-load elapsed" \
	"$(python3 -c 'import json,sys
print(len([r for r in json.load(open(sys.argv[1]))["rows"] if r["config"] == "jobs=8,load=half"]))' "$TMP/lab.json")" "2"
check_eq "... the kernel of both is kernbench's own line" \
	"$(sql "select group_concat(description, ';') from (select distinct v.description from variant v where v.name like 'With %' order by 1) q")" \
	"kernel 2.6.16"
check_status "Enabled / Disabled blocks import" 0 \
	"$KB" import "$K/linuxmm_20101130_balbir_kernbench_console_optimal_only_stddev0.txt"
check_eq "... both kept, as the variants their labels name" \
	"$(sql "select group_concat(variant || ':' || config, ' ') from (select distinct variant, config from summary_v where variant like '%abled' order by variant) q")" \
	"Disabled:jobs=8,load=optimal Enabled:jobs=8,load=optimal"
check_status "import --explain names the labels" 0 \
	"$KB" import --explain "$K/linuxmm_20170823_tycho_kernbench_log_halfload_j2_3runs.txt"
check_grep "... '# __flush_tlb_one'" "label '__flush_tlb_one'" "$TMP/.out"
check_grep "... and '# flush_tlb_kernel_range()'" "label 'flush_tlb_kernel_range\(\)'" "$TMP/.out"

# --- relabel: moving seed 003's runs away and back leaves the store as it was --
export KBENCH_DB="$TMP/relabel.db"
check_status "seed 003 imports" 0 "$KB" import "$SEED3"
dump() {
	if on_sqlite; then sqlite3 "$KBENCH_DB" .dump | grep -v '^INSERT INTO relabel'; return; fi
	local t
	for t in variant machine source run sample job summary metric segment; do
		echo "== $t"; sqlite3 "$KBENCH_DB" "select x::text from $t x order by 1"
	done
}
dump > "$TMP/before.sql"
check_status "move the D7 runs to a new variant" 0 "$KB" relabel move --run 1,2 --to D7-by-hand
check_eq "... they are there" "$(sql "select count(*) from runs_v where variant = 'D7-by-hand'")" "2"
check_status "move a control run to the D7 kernel" 0 "$KB" relabel move --source "$SEED3" --segment 120 --to ingoD7-59.stats
check_eq "... the segment's one run moved" "$(sql "select variant from runs_v where run_id = 3")" "ingoD7-59.stats"
check_status "and back" 0 "$KB" relabel move --run 1,2 --to ingoD7-59.stats
check_status "and back again" 0 "$KB" relabel move --run 3 --to stock59-stats
dump > "$TMP/after.sql"
check "the store is as it was, row by row" diff "$TMP/before.sql" "$TMP/after.sql"
check_status "the changes are listed" 0 "$KB" relabel --list
check_eq "... all four moves of six runs" "$(grep -c ' move run ' "$TMP/.out")" "6"
check_status "kbench ls lists them too" 0 "$KB" ls
check_grep "... under Relabels" "^Relabels \(6\)" "$TMP/.out"
check_status "set the machine of the post" 0 "$KB" relabel machine --source "$SEED3" numa4
check_eq "... every run of it is on numa4" "$(sql "select count(*) from runs_v where machine = 'numa4'")" "4"
check_status "rename a variant" 0 "$KB" relabel rename testD7-59 D7-test
check_status "re-import with --replace" 0 "$KB" import --replace "$SEED3"
check_eq "... keeps the machine" "$(sql "select count(*) from runs_v where machine = 'numa4'")" "4"
check_eq "... and the rename" "$(sql "select count(*) from variant where name = 'testD7-59'"):$(sql "select count(*) from summary_v where variant = 'D7-test'")" "0:24"
check_status "an unknown variant is an error" 2 "$KB" relabel rename nosuch x
check_status "a run that does not exist is an error" 2 "$KB" relabel move --run 99 --to x

# --- make demo's store: every post on its own, no finding across posts ------
export KBENCH_DB="$TMP/demo.db"
check_status "samples/ imports as it is (no --variant-prefix)" 0 "$KB" import "$SAMPLES"
check_status "its report as a mail body" 0 "$KB" report --format text -o "$TMP/demo.txt"
# (a variant named like a benchmark, as the lkp sample 'hackbench' is, is
# left out: its name in a finding cannot be told from the benchmark's)
sqlite3 -separator $'\t' "$KBENCH_DB" "select display, case when scope <> '' then scope else 'global' end from variant_v
	where display not in (select benchmark from run union select benchmark from summary)" > "$TMP/variants.tsv"
check "no finding pairs variants of different posts" python3 - "$TMP/demo.txt" "$TMP/variants.tsv" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
scope = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[2]))
find = text[text.index("\nFindings\n"):text.index("\nVerdicts\n")]
names = sorted(scope, key=len, reverse=True)
pat = re.compile(r"(?<![\w@.+()-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w@.+()-])")
entries, cur = [], []
for line in find.split("\n"):
    if re.match(r"^  (worse|better|inconclusive|changed|same)\b", line):
        if cur: entries.append(" ".join(cur))
        cur = [line]
    elif cur:
        cur.append(line.strip())
if cur: entries.append(" ".join(cur))
assert len(entries) >= 10, len(entries)
bad = []
for e in entries:
    posts = {scope[n] for n in pat.findall(e)} - {"global"}
    if len(posts) > 1:
        bad.append(e[:160])
assert not bad, bad
print(len(entries), "findings, each within one post")
PY
# (seed 003 has one numa_test run a variant: its placement checks are
# counted, and none is decided; tests/cli/regress.sh decides one over runs)
check_grep "... seed 003's placement checks are counted, none decided with one run a side" \
	"numa_test placement checks: 0 worse, 0 better, 0 changed, [0-9]+ inconclusive" <(tr -s ' \n' '  ' <"$TMP/demo.txt")
check_grep "... seed 002: numa02 worse under mel's patches" "numa02" "$TMP/demo.txt"
# (4 since samples/mail/: Bligh's post of 2002-10-27 names its kernels)
check_eq "... a section per post and benchmark (numa_test in 4 posts that name their variants)" \
	"$(grep -c '^numa_test in ' "$TMP/demo.txt")" "4"
check_grep "... seed 004 on the machine its prompt names" '^numa_test on azusa$' "$TMP/demo.txt"
