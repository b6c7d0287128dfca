#!/bin/bash
# Issue 23: a published table's own verdict (summary.pub_change and
# pub_mark: mmtests' "*   3.30%*", the robot's %change) shown beside
# kbench's in compare: a "table" column in text and Markdown, a
# "published" object in JSON; nothing changes where no cell has one.
# The store is filled from a real-shaped post, then the verdict set by
# SQL, so this does not depend on any one parser.
. tests/lib.sh
D=tests/data/shapes/inlinemean

check "import a post of two published means" "$KB" import "$D/pct-hackbench.txt"
"$KB" compare > "$TMP/before.txt" 2>&1
"$KB" compare --format json > "$TMP/before.json" 2>&1
if grep -q "table" "$TMP/before.txt"; then
	fail "no table column without a published verdict" "$(cat "$TMP/before.txt")"
else
	pass "no table column without a published verdict"
fi
if grep -qE '"published": *\{' "$TMP/before.json"; then
	fail "no published object without a published verdict"
else
	pass "no published object without a published verdict"
fi

sql "update summary set pub_change = 5.96, pub_mark = '*'
     where variant_id = (select id from variant where name = 'patched')"
"$KB" compare > "$TMP/after.txt" 2>&1
check_grep "text: a table column" '^config +n +mainline +patched +%chg +table$' "$TMP/after.txt"
check_grep "text: the verdict as printed beside kbench's" \
	'^ +10 +3\.87\(0\.03\) +4\.10\(0\.09\) +\+6\.0 - +\+5\.96%\*$' "$TMP/after.txt"
check_grep "text: the legend says what the column is" "^table: the published table's own %change" \
	"$TMP/after.txt"
"$KB" compare --format json > "$TMP/after.json" 2>&1
check_eq "json: the candidate carries published change and mark" \
	"$(jq -c '[.rows[] | select(.variant == "patched") | .published]' "$TMP/after.json")" \
	'[{"change":5.96,"mark":"*"}]'
check_eq "json: the baseline has none" \
	"$(jq -c '[.rows[] | select(.variant == "mainline") | has("published")]' "$TMP/after.json")" \
	'[false]'
check_eq "json: kbench's own change is still its own" \
	"$(jq -r '.rows[] | select(.variant == "patched") | .change_pct | . * 100 | round / 100' "$TMP/after.json")" \
	"5.97"
"$KB" compare --format md > "$TMP/after.md" 2>&1
check_grep "markdown: a table column" '\| table patched \|' "$TMP/after.md"
check_grep "markdown: the mark escaped" '\| \+5\.96%\\\* \|' "$TMP/after.md"

# A mark without a printed change (a table that marks, prints no %).
sql "update summary set pub_change = null, pub_mark = '*'
     where variant_id = (select id from variant where name = 'patched')"
"$KB" compare > "$TMP/mark.txt" 2>&1
check_grep "text: a mark alone" '^ +10 +3\.87\(0\.03\) +4\.10\(0\.09\) +\+6\.0 - +\*$' "$TMP/mark.txt"
"$KB" compare --format json > "$TMP/mark.json" 2>&1
check_eq "json: change null, mark kept" \
	"$(jq -c '[.rows[] | select(.variant == "patched") | .published]' "$TMP/mark.json")" \
	'[{"change":null,"mark":"*"}]'

# One source, two published values for one cell (tests/realposts/606:
# JoonSoo ran perf stat -r 20 twice per kernel; other posts give two sides
# under one name): the last is shown, marked m, its change computed but not
# tested, and the note gives both values.
export KBENCH_DB="$TMP/amb.db"
check "import a post with two perf stat blocks per kernel" "$KB" import \
	tests/realposts/606-enberg-quotes-joonsoo-wrapped-perfstat-2012.mail
"$KB" compare --metric elapsed > "$TMP/amb.txt" 2>&1
check_grep "text: both cells marked m" '^ +20 14\.46\(0\.22\)m +14\.34\(0\.18\)m -0\.9 \?$' "$TMP/amb.txt"
check_grep "text: the legend says what m is" "^       m its source publishes more than one value for the cell" "$TMP/amb.txt"
"$KB" compare --metric elapsed --format json > "$TMP/amb.json" 2>&1
check_eq "json: flagged ambiguous, inconclusive, no test, no runs needed" \
	"$(jq -c '[.rows[] | select(.variant == "patch applied") | [(.flags | index("ambiguous") != null), .verdict, .p, .runs_needed]]' "$TMP/amb.json")" \
	'[[true,"inconclusive",null,null]]'
check_grep "json: the note gives both values" '14\.249, then 14\.3368' "$TMP/amb.json"
check_status "regress: an ambiguous cell is no regression" 0 "$KB" regress --baseline vanilla --metric elapsed
