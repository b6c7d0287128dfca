#!/bin/bash
# No control character from input reaches a terminal (issue 22, item 5):
# ESC, OSC and BEL in a post's legend, in mail headers and in a walked
# file name (with a newline too) are shown escaped by every verb, in its
# output, its errors and its text reports; kbench's own colours stay.
. tests/lib.sh

SEED0="$SAMPLES/seeds/000_009ccda627cb3777.txt"
ESC=$(printf '\033')
BEL=$(printf '\007')
D="$TMP/in"
mkdir -p "$D"
# a post: the legend's descriptions carry an OSC title, a colour, a bell
python3 - "$SEED0" "$D" <<'PY'
import sys
seed, d = sys.argv[1], sys.argv[2]
text = open(seed, "rb").read()
text = text.replace(b"A: vanilla O(1) scheduler", b"A: vanilla \x1b]0;pwned\x07 O(1) \x1b[2J scheduler")
text = text.replace(b"B: Michael Hohnbaums", b"B: Michael \x1b[31mHohnbaums\x07")
# the file name: ESC, BEL and a newline in it
open(d + "/post\x1b[2J\x07\nname.txt", "wb").write(text)
# a mail whose headers carry them (and an encoded word with an ESC)
mail = (b"From a@b Mon Oct  7 11:00:00 2002\n"
        b"From: Evil \x1b]0;t\x07 <e@v>\n"
        b"Subject: =?utf-8?Q?hack=1B[2Jbench?= \x1b[5mnow\n"
        b"Message-ID: <id\x1b[1m@x>\n"
        b"Date: Mon, 7 Oct 2002 11:00:00 +0000\n\n"
        b"Running with 10*40 (== 400) tasks.\nTime: 5.5\n"
        b"Running with 10*40 (== 400) tasks.\nTime: 5.6\n")
open(d + "/thread.mbox", "wb").write(mail)
PY

: >"$TMP/all.out"
run() {  # run VERB ARGS...: output and errors appended to all.out
	"$KB" "$@" >>"$TMP/all.out" 2>&1
	echo "[exit $? of $(printf "%q " "$@")]" >>"$TMP/all.out"  # (the test's own line: quoted)
}
run import "$D"
run import --explain "$D"
run import --dry-run --verbose "$D"
run import "$D"            # "already imported" lines name the files again
run import "$D/no such$ESC]0;x${BEL}file"
run ls
run ls --all
for id in 1 2 3 4 5; do run show "$id"; done
run compare
run compare --format md
run compare --bench hackbench --baseline A@post
run regress --baseline A@post
run regress --baseline A@post --verbose
run regress --baseline "no$ESC[31mvariant"
run history --metric time
run report --format text
run report --format text -o "$TMP/r.txt"
cat "$TMP/r.txt" >>"$TMP/all.out"
run regress --baseline A@post -o "$TMP/g.txt"
cat "$TMP/g.txt" >>"$TMP/all.out"
run chart --type bars --bench hackbench --dump-layout
run relabel --list
run relabel rename "x$ESC[2Jy" z
run export --format csv
run init
check_eq "the verbs ran (no crash)" "$(grep -c '^\[exit [01] of' "$TMP/all.out" | awk '{ print ($1 > 20) }')" "1"
check_eq "no ESC from input in any output, error or text report" "$(grep -c "$ESC" "$TMP/all.out")" "0"
check_eq "no BEL from input in any output, error or text report" "$(grep -c "$BEL" "$TMP/all.out")" "0"
check_grep "the legend's OSC is shown escaped" 'vanilla \\e\]0;pwned\\x07 O\(1\) \\e\[2J scheduler' "$TMP/all.out"
check_grep "a mail header's ESC is shown escaped" 'Evil \\e\]0;t\\x07' "$TMP/all.out"
check_grep "an encoded word's ESC is shown escaped" 'hack\\e\[2Jbench' "$TMP/all.out"
check_grep "a file name's newline is shown escaped, on one line" 'post\\e\[2J\\x07\\nname\.txt: ' "$TMP/all.out"
check_eq "no line starts with the rest of that file name" "$(grep -c '^name\.txt' "$TMP/all.out")" "0"

# HTML, JSON and XML escape on their own: no raw ESC in them either
"$KB" report -o "$TMP/r.html" >/dev/null 2>&1
"$KB" compare --format json >"$TMP/c.json" 2>&1
"$KB" regress --baseline A@post --format junit >"$TMP/j.xml" 2>&1
check_eq "no ESC in HTML, JSON, JUnit" "$(cat "$TMP/r.html" "$TMP/c.json" "$TMP/j.xml" | grep -c "$ESC")" "0"
check "the JSON still parses" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/c.json"

# kbench's own colours are still ESC [ ... m, and only those
"$KB" compare --bench hackbench --baseline A@post --color=always >"$TMP/color.txt" 2>&1
check_grep "--color=always still colours" "$ESC\[1;3[123]m" "$TMP/color.txt"
check_eq "... and no other ESC gets through" "$(sed "s/$ESC\[[0-9;]*m//g" "$TMP/color.txt" | grep -c "$ESC")" "0"
