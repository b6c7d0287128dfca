#!/bin/bash
# kbench alerts on a small generated lab (scripts/genlab.c: 3 hosts x 40
# commits, hackbench +8% on lkp-lab-h01 at commit 17, autonuma numa01
# +10% on every host at commit 31): the injected changes are found, one
# summary each, at the generator's commits; the second night reports only
# what is new; triage (ack, invalid, fixed) survives re-imports; a change
# point that moves by a commit stays the same alert; the mail fits 80
# columns.  Runs on SQLite and (tests/run's second pass) PostgreSQL.
. tests/lib.sh

cc -O2 -o "$TMP/genlab" scripts/genlab.c -lm || { fail "genlab builds"; exit 1; }
"$TMP/genlab" -H 3 -C 40 -s 7 "$TMP/lab" >/dev/null || { fail "genlab writes the lab"; exit 1; }
T="$TMP/lab.truth"
HB_HOST=$(sed -n 's/^change host=\(lkp[^ ]*\) .*/\1/p' "$T")
HB_FROM=$(sed -n 's/^change host=lkp.* from=\([^ ]*\) .*/\1/p' "$T")
HB_BEFORE=$(sed -n 's/^change host=lkp.* before=\([^ ]*\) .*/\1/p' "$T")
AN_FROM=$(sed -n 's/^change host=\* .* from=\([^ ]*\) .*/\1/p' "$T")
AN_BEFORE=$(sed -n 's/^change host=\* .* before=\([^ ]*\) .*/\1/p' "$T")
check_eq "the truth: hackbench on lkp-lab-h01 from commit 17, autonuma from 31" \
	"$HB_HOST ${HB_FROM%%-g*} ${AN_FROM%%-g*}" "lkp-lab-h01 6.9.0-00017 6.9.0-00031"
mapfile -t C < <(ls "$TMP"/lab/hackbench/*/lkp-lab-h00/*/*/*/ | sort)
dirs() { local c; for c in "$@"; do ls -d "$TMP"/lab/*/*/*/*/*/*/"$c"; done; }

# --- night 1: the first 20 commits -------------------------------------------
# shellcheck disable=SC2046
check_status "the first 20 commits import" 0 "$KB" import --layout lkp $(dirs "${C[@]:0:20}")
check_status "alerts: a new regression exits 1" 1 "$KB" alerts
cp "$TMP/.out" "$TMP/n1.txt"
check_eq "... one summary" "$(grep -c '^Alert summary #' "$TMP/n1.txt")" "1"
check_grep "... the hackbench regression, on its one host" \
	'^Alert summary #1 \[new\]: regression on 1 machine, 1 alert \(1 worse, 0 better\)$' "$TMP/n1.txt"
check_eq "... its range is last good .. first bad of the generator" \
	"$(grep -A1 '^Suspect range' "$TMP/n1.txt" | tail -1)" "  $HB_BEFORE .. $HB_FROM"
check_grep "... the machine, +8% (7-9.5), q tiny" \
	'^ +\+[789]\.[0-9]%  \+[0-9.]+\.\.\+[0-9.]+ +[0-9.]+e-[0-9]+  lkp-lab-h01 .* worse$' "$TMP/n1.txt"
check_grep "... the hosts that did not move" '^Did not move: lkp-lab-h00 lkp-lab-h02$' "$TMP/n1.txt"
check_grep "... the bisect command" "^  git bisect start $HB_FROM $HB_BEFORE\$" "$TMP/n1.txt"
check_eq "the mail fits 80 columns" "$(awk 'length($0) > 80' "$TMP/n1.txt" | wc -l)" "0"
check_eq "stored: one summary, one alert, state new" \
	"$(sql "select count(*), min(state) from alert_summary"):$(sql "select count(*) from alert")" "1|new:1"

# --- night 2: 20 more commits ------------------------------------------------
# shellcheck disable=SC2046
check_status "20 more commits import" 0 "$KB" import --layout lkp $(dirs "${C[@]:20:20}")
check_status "alerts --new: the new regression exits 1" 1 "$KB" alerts --new
cp "$TMP/.out" "$TMP/n2.txt"
check_eq "... only the new summary" "$(grep '^Alert summary #' "$TMP/n2.txt")" \
	"Alert summary #2 [new]: regression on 3 machines, 3 alerts (3 worse, 0 better)"
check_eq "... at the generator's commit" "$(grep -A1 '^Suspect range' "$TMP/n2.txt" | tail -1)" \
	"  $AN_BEFORE .. $AN_FROM"
check_eq "... numa01 elapsed on all three hosts, +9 to +11%" \
	"$(grep -cE '^ +\+(9|10|11)\.[0-9]% .* lkp-lab-h0[012] .* worse$' "$TMP/n2.txt")" "3"
check_grep "... and every host moved" '^Did not move: none$' "$TMP/n2.txt"
check_eq "... the mail fits 80 columns" "$(awk 'length($0) > 80' "$TMP/n2.txt" | wc -l)" "0"
check_status "alerts --new again: nothing new, exit 0" 0 "$KB" alerts --new
check_eq "... no summary" "$(grep -c '^Alert summary' "$TMP/.out")" "0"
check_status "alerts: both untriaged, exit 1" 1 "$KB" alerts
check_eq "... both listed, as before" "$(grep -o '^Alert summary #[0-9]* \[[a-z]*\]' "$TMP/.out" | tr '\n' ' ')" \
	"Alert summary #1 [new] Alert summary #2 [new] "
check_eq "stored: two summaries, four alerts" \
	"$(sql "select count(*) from alert_summary"):$(sql "select count(*) from alert")" "2:4"

# --- the JSON contract (docs/alerts.md) -------------------------------------
check_status "alerts --format json exits 1 as the text does" 1 "$KB" alerts --format json
cp "$TMP/.out" "$TMP/n2.json"
check "... validates against the schema in docs/alerts.md" python3 tests/tools/schema_check.py docs/alerts.md "$TMP/n2.json"
check_eq "... the two summaries: ranges, widths, machines, regression" \
	"$(python3 -c 'import json,sys
for s in json.load(open(sys.argv[1]))["summaries"]:
    print(s["id"], s["good"], s["bad"], s["width"], ",".join(s["machines"]), s["regression"], s["state"], s["new"])' "$TMP/n2.json")" \
	"1 $HB_BEFORE $HB_FROM 2 lkp-lab-h01 True new False
2 $AN_BEFORE $AN_FROM 2 lkp-lab-h00,lkp-lab-h01,lkp-lab-h02 True new False"
check_eq "... each alert: metric, verdict, change within its interval, q < 0.05" \
	"$(python3 -c 'import json,sys
for s in json.load(open(sys.argv[1]))["summaries"]:
    for a in s["alerts"]:
        lo, hi = a["interval_pct"]
        print(a["machine"], a["metric"], a["verdict"], lo < hi and lo > 5 and hi < 13, a["q"] < 0.05)' "$TMP/n2.json" | sort)" \
	"lkp-lab-h00 elapsed worse True True
lkp-lab-h01 elapsed worse True True
lkp-lab-h01 time worse True True
lkp-lab-h02 elapsed worse True True"
echo '{"kbench": "alerts", "version": 1}' > "$TMP/bad.json"
check_status "... and the check can fail: a document without the keys" 1 \
	python3 tests/tools/schema_check.py docs/alerts.md "$TMP/bad.json"

# --- triage ------------------------------------------------------------------
check_status "ack 1 --note" 0 "$KB" alerts ack 1 --note "known: the pipe change"
check_status "invalid 2" 0 "$KB" alerts invalid 2
check_status "alerts: nothing untriaged, exit 0" 0 "$KB" alerts
check_eq "... no summary shown" "$(grep -c '^Alert summary' "$TMP/.out")" "0"
check_status "alerts --new: exit 0" 0 "$KB" alerts --new
check_status "alerts --all lists both, with their states, exit 0" 0 "$KB" alerts --all
check_eq "... states" "$(grep -o '^Alert summary #[0-9]* \[[a-z]*\]' "$TMP/.out" | tr '\n' ' ')" \
	"Alert summary #1 [acknowledged] Alert summary #2 [invalid] "
check_grep "... the note" '^Note: known: the pipe change$' "$TMP/.out"
check_status "fixed 1 without --by is an error" 2 "$KB" alerts fixed 1
check_status "ack of no such summary is an error" 2 "$KB" alerts ack 99
check_grep "... that says so" 'no alert summary 99' "$TMP/.out"
check_status "ack with a bad ID is an error" 2 "$KB" alerts ack 1x
check_status "alerts frobnicate is an error" 2 "$KB" alerts frobnicate 1
check_status "fixed 1 --by COMMIT" 0 "$KB" alerts fixed 1 --by "${C[39]}"
check_eq "stored: state fixed, the fix, the note kept" \
	"$(sql "select state || ' ' || fixed_by || ' ' || note from alert_summary where id = 1")" \
	"fixed ${C[39]} known: the pipe change"

# --- the states survive a re-import ------------------------------------------
check_status "the whole tree imported again (--replace)" 0 "$KB" import --replace --layout lkp "$TMP/lab"
check_status "alerts after the re-import: nothing untriaged, exit 0" 0 "$KB" alerts
check_eq "... nothing new" "$(grep -c '^Alert summary' "$TMP/.out")" "0"
check_eq "... still two summaries, four alerts, states kept" \
	"$(sql "select count(*) from alert"):$(sql "select string_agg(state, ' ' order by id) from alert_summary" 2>/dev/null ||
	   sql "select group_concat(state, ' ') from (select state from alert_summary order by id) q")" "4:fixed invalid"

# --- a change point one commit off is the same alert -------------------------
# The stored hackbench alert as if an earlier night had put it a commit
# later; tonight's finds it at the generator's commit: the same alert.
id=$(sql "select id from alert where benchmark = 'hackbench'")
check "the stored alert moved one commit on" sql "update alert set good = '$HB_FROM', bad = '${C[17]}' where id = $id"
check_status "alerts --new: exit 0" 0 "$KB" alerts --new
check_eq "... not new" "$(grep -c '^Alert summary' "$TMP/.out")" "0"
check_eq "... the same alert, its range updated" \
	"$(sql "select count(*) from alert"):$(sql "select bad from alert where id = $id")" "4:$HB_FROM"
check "four commits on is another alert" sql "update alert set bad = '${C[20]}' where id = $id"
check_status "alerts --new: an alert of no stored range is new, exit 1" 1 "$KB" alerts --new
check_eq "... one new summary, the hackbench one" "$(grep -c '^Alert summary #3 \[new\]: regression on 1 machine' "$TMP/.out")" "1"

# --- the report's Alerts section ---------------------------------------------
check_status "ack 3 with a note that is HTML and a control character" 0 \
	"$KB" alerts ack 3 --note $'<script>alert(1)</script> \e[31m'
check_status "report --format text" 0 "$KB" report --format text -o "$TMP/r.txt"
sed -n '/^Alerts$/,/^Verdicts$/p' "$TMP/r.txt" > "$TMP/r.alerts"
# (summary 1 has no current alert since its stored one was put 4 commits off)
check_eq "... an Alerts section: tonight's two summaries, by range, and their states" \
	"$(grep -o '^Alert summary #[0-9]* \[[a-z]*\]' "$TMP/r.alerts" | tr '\n' ' ')" \
	"Alert summary #3 [acknowledged] Alert summary #2 [invalid] "
check_grep "... the note, its control character escaped" '^Note: <script>alert\(1\)</script> \\e\[31m$' "$TMP/r.alerts"
check_eq "... within 80 columns" "$(awk 'length($0) > 80' "$TMP/r.alerts" | wc -l)" "0"
check_status "report (HTML)" 0 "$KB" report -o "$TMP/r.html"
python3 - "$TMP/r.html" > "$TMP/r.html.check" <<'PY'
import re, sys
h = open(sys.argv[1], encoding="utf-8").read()
i = h.index('<section id="alerts">')
sec = h[i:h.index("</section>", i)]
print("summaries", len(re.findall(r"<h3>Alert summary #", sec)))
print("rows", len(re.findall(r"<tr class=", sec)))
print("charts", len(re.findall(r"<img ", sec)))
print("escaped", "&lt;script&gt;alert(1)&lt;/script&gt;" in sec, "<script>" in h)
PY
check_eq "... an Alerts section: 2 summaries, 4 alerts, a history chart each, the note escaped" \
	"$(cat "$TMP/r.html.check" | tr '\n' ' ')" "summaries 2 rows 4 charts 4 escaped True False "
check_status "report --alerts off" 0 "$KB" report --format text --alerts off -o "$TMP/r2.txt"
check_eq "... has none" "$(grep -c '^Alerts$' "$TMP/r2.txt")" "0"
check_status "report --alerts maybe is an error" 2 "$KB" report --alerts maybe
check_grep "... that says so" "alerts is auto, on or off, not 'maybe'" "$TMP/.out"

# --- grouping: overlapping ranges across machines and configs are one summary
# hackbench on boxA (400 tasks) 5 s -> 6 s from commit 7, on boxB (800
# tasks) from commit 8 (ranges 6..7 and 7..8 share commit 7), on boxC
# (400 tasks) unchanged; and boxA again 7 s -> from commit 20, far off:
# a summary of its own.
export KBENCH_DB="$TMP/group.db"
hb() { # FILE GROUPS BASE I SALT: five runs (SALT: bytes of their own, not a copy)
	local r
	for r in 1 2 3 4 5; do
		printf 'Running with %d*40 (== %d) tasks.\nTime: %d.%03d\n' "$2" $(($2 * 40)) "$3" $(( ($4 * 37 + r * $5) % 40 + 100 ))
	done > "$1"
}
for i in $(seq 1 26); do
	v=$(printf '6.9.0-%05d' "$i")
	a=5; [ "$i" -ge 7 ] && a=6; [ "$i" -ge 20 ] && a=7
	b=5; [ "$i" -ge 8 ] && b=6
	hb "$TMP/ga-$i.log" 10 $a $i 53; hb "$TMP/gb-$i.log" 20 $b $i 53; hb "$TMP/gc-$i.log" 10 5 $i 59
	"$KB" import --variant "$v" --machine boxA "$TMP/ga-$i.log" >/dev/null 2>&1 &&
	"$KB" import --variant "$v" --machine boxB "$TMP/gb-$i.log" >/dev/null 2>&1 &&
	"$KB" import --variant "$v" --machine boxC "$TMP/gc-$i.log" >/dev/null 2>&1 || fail "import $v"
done
check_status "alerts over three machines: exit 1" 1 "$KB" alerts --format json
cp "$TMP/.out" "$TMP/group.json"
check_eq "two summaries: 6..8 on boxA and boxB (2 alerts, width 3, boxC quiet); 19..20 on boxA alone" \
	"$(python3 -c 'import json,sys
for s in json.load(open(sys.argv[1]))["summaries"]:
    print(s["good"], s["bad"], s["width"], len(s["alerts"]), ",".join(s["machines"]), ",".join(s["quiet"]))' "$TMP/group.json")" \
	"6.9.0-00006 6.9.0-00008 3 2 boxA,boxB boxC
6.9.0-00019 6.9.0-00020 2 1 boxA boxC"
check_eq "... the first summary's alerts by size, each with its own range" \
	"$(python3 -c 'import json,sys
s = json.load(open(sys.argv[1]))["summaries"][0]
print(" ".join("%s:%s..%s:%.0f" % (a["machine"], a["good"][-2:], a["bad"][-2:], a["change_pct"]) for a in s["alerts"]))' "$TMP/group.json")" \
	"boxA:06..07:20 boxB:07..08:20"

# --- options ----------------------------------------------------------------
check_status "--new with --all is an error" 2 "$KB" alerts --new --all
check_status "--note without an action is an error" 2 "$KB" alerts --note x
check_status "--format xml is an error" 2 "$KB" alerts --format xml
check_status "a store that is not there is an error" 2 "$KB" alerts --db "$TMP/none.db"
check "... and is not made" test ! -e "$TMP/none.db"
check_status "--machine nosuch is an error" 2 "$KB" alerts --machine nosuch
check_status "--machine of the unchanged host: nothing of its own, exit 0" 0 "$KB" alerts --machine boxC
check_eq "... no summary" "$(grep -c '^Alert summary' "$TMP/.out")" "0"
check_status "--machine boxB: its own summary alone, exit 1" 1 "$KB" alerts --machine boxB --format json
check_eq "... 6..8 is now 7..8, boxB's own range" \
	"$(python3 -c 'import json,sys
print(" ".join("%s..%s" % (s["good"], s["bad"]) for s in json.load(open(sys.argv[1]))["summaries"]))' "$TMP/.out")" \
	"6.9.0-00007..6.9.0-00008"

# --- documented: every option of alerts --help in README's section, with an example
sed -n '/^### kbench alerts$/,/^### /p' README.md > "$TMP/readme.alerts"
missing=""
for o in $("$KB" alerts --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p' | grep -vx -- --help); do
	grep -qE -- "^\./kbench alerts .*$o( |$)" "$TMP/readme.alerts" || missing="$missing $o"
done
check_eq "README shows every option of alerts in an example" "$missing" ""
for a in ack invalid fixed; do
	check_grep "README shows alerts $a" "^\./kbench alerts $a " "$TMP/readme.alerts"
done
check_grep "docs/alerts.md documents the exit status" '^Exit status: \*\*1\*\*' docs/alerts.md

# --- --git: the order of a repository's first-parent history -----------------
# A repository made here: 10 first-parent commits on master, a side
# branch of 2 merged as the 8th; a variant per commit named by its hash,
# imported in scrambled order (the store's own order means nothing here),
# hackbench 5.0 s up to the 7th commit and 6.0 s from the merge on.
G="$TMP/repo"
git init -q -b master "$G" && git -C "$G" config user.email t@example.org && git -C "$G" config user.name t &&
	git -C "$G" config commit.gpgsign false
commit() { echo "$1" >> "$G/${2:-f}"; git -C "$G" add "${2:-f}" && git -C "$G" commit -q -m "$1"; }
for i in 1 2 3 4 5 6; do commit "sched: step $i"; done
git -C "$G" checkout -q -b side
commit "side: first" g; commit "side: second" g
git -C "$G" checkout -q master
commit "sched: step 7"
git -C "$G" merge -q --no-ff -m "Merge branch 'side' (the slow one)" side
for i in 9 10; do commit "sched: step $i"; done
mapfile -t FP < <(git -C "$G" rev-list --first-parent --reverse HEAD)
check_eq "the repository: 10 first-parent commits" "${#FP[@]}" "10"
SIDE=$(git -C "$G" rev-parse side)
export KBENCH_DB="$TMP/git.db"
for i in 4 9 0 6 2 8 1 5 3 7 side; do
	if [ "$i" = side ]; then h=$SIDE; base=6; else h=${FP[$i]}; base=$([ "$i" -ge 7 ] && echo 6 || echo 5); fi
	for r in 1 2 3 4 5; do
		printf 'Running with 10*40 (== 400) tasks.\nTime: %d.%03d\n' "$base" $(( (i * 37 + r * 53) % 40 + 100 ))
	done > "$TMP/hb-$i.log"
	"$KB" import --variant "${h:0:12}" --machine gitbox "$TMP/hb-$i.log" >/dev/null 2>&1 || fail "import commit $i"
done
check_status "alerts --git: the regression, exit 1" 1 "$KB" alerts --git "$G"
cp "$TMP/.out" "$TMP/git.txt"
check_eq "... one summary" "$(grep -c '^Alert summary #' "$TMP/git.txt")" "1"
check_eq "... at the merge, in first-parent order" "$(grep -A1 '^Suspect range' "$TMP/git.txt" | tail -1)" \
	"  ${FP[6]:0:12} .. ${FP[7]:0:12}"
check_grep "... the range's commits named" "^Commits \(first-parent history of .*, 1\):$" "$TMP/git.txt"
check_grep "... with the merge's subject" "^  ${FP[7]:0:12} Merge branch 'side' \(the slow one\)$" "$TMP/git.txt"
check_eq "... nothing of the side branch (not first-parent)" "$(grep -c -e 'side: ' -e "${SIDE:0:12}" "$TMP/git.txt")" "0"
check_grep "... 10 commits in the order: the side commit's variant left out" " of 10$| of 10 *commits" <(tr '\n' ' ' < "$TMP/git.txt")
check_eq "... fits 80 columns" "$(awk 'length($0) > 80' "$TMP/git.txt" | wc -l)" "0"
"$KB" alerts --git "$G" --all --format json > "$TMP/git.json"
check "... its JSON validates" python3 tests/tools/schema_check.py docs/alerts.md "$TMP/git.json"
check_eq "... order git, the merge in git_commits" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["summaries"][0]
print(d["order"], d["commits"], [c["subject"] for c in s["git_commits"]], s["width"])' "$TMP/git.json")" \
	"git 10 [\"Merge branch 'side' (the slow one)\"] 2"
"$KB" alerts --all --format json > "$TMP/nogit.json"
check_eq "without --git, the store's order (import order: scrambled) puts no summary at the merge" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(d["order"], sum(1 for s in d["summaries"] if s["bad"] == sys.argv[2]))' "$TMP/nogit.json" "${FP[7]:0:12}")" "store 0"
# A range over many untested commits: the mail names the first 20.
for i in $(seq 1 25); do commit "filler $i"; done
for i in 1 2 3 4 5; do commit "late $i"; done
mapfile -t FP2 < <(git -C "$G" rev-list --first-parent --reverse HEAD)
export KBENCH_DB="$TMP/git2.db"
for i in 0 1 2 3 4 5 6 35 36 37 38 39; do
	base=$([ "$i" -ge 35 ] && echo 6 || echo 5)
	for r in 1 2 3 4 5; do
		printf 'Running with 10*40 (== 400) tasks.\nTime: %d.%03d\n' "$base" $(( (i * 37 + r * 53) % 40 + 100 ))
	done > "$TMP/hb2-$i.log"
	"$KB" import --variant "${FP2[$i]:0:12}" --machine gitbox "$TMP/hb2-$i.log" >/dev/null 2>&1 || fail "import commit $i"
done
check_status "alerts --git over a range of 29 untested commits" 1 "$KB" alerts --git "$G"
cp "$TMP/.out" "$TMP/git2.txt"
check_grep "... 29 commits in the range" "^Commits \(first-parent history of .*, 29\):$" "$TMP/git2.txt"
check_eq "... 20 named" "$(grep -cE '^  [0-9a-f]{12} (filler|sched|Merge)' "$TMP/git2.txt")" "20"
check_grep "... the rest as a git log" "^  and 9 more: git log --first-parent ${FP2[6]:0:12}\.\.${FP2[35]:0:12}\$" "$TMP/git2.txt"
"$KB" alerts --git "$G" --all --format json > "$TMP/git2.json"
check_eq "... the JSON has all 29, the first after good, the last the first bad" \
	"$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["summaries"][0]["git_commits"]
print(len(c), c[0]["commit"], c[-1]["commit"])' "$TMP/git2.json")" "29 ${FP2[7]} ${FP2[35]}"
check_status "--git of a repository none of whose commits is a variant is an error" 2 \
	"$KB" alerts --db "$TMP/group.db" --git "$G"
check_grep "... that says why" "no variant in this selection names a commit of .*first-parent history" "$TMP/.out"
check_status "--git DIR, whatever GIT_DIR says (a hook's environment)" 1 \
	env GIT_DIR="$TMP/nosuch" "$KB" alerts --git "$G"
check_status "--git of a directory that is not a repository is an error" 2 "$KB" alerts --git "$TMP/lab"
check_grep "... that says git failed" 'git log failed' "$TMP/.out"
