#!/bin/bash
# Habits a user trips over (issue 24 item 19): a misspelled verb or option
# gets one line and a "did you mean", help of help, help within 80
# columns, no colour on TERM=dumb, machine labels typed back, make demo's
# man pages, the README tour's mail thread, docs/report.md on seeds.
. tests/lib.sh

# 1. A misspelled verb: one line naming it, the nearest verb, where the
#    list is; exit 2, not the whole usage.
check_status "misspelled verb exits 2" 2 "$KB" comapre
check_eq "misspelled verb: did you mean, and where the list is" "$(cat "$TMP/.out")" \
"kbench: unknown command 'comapre'; did you mean 'compare'?
run 'kbench help' for the list"
check_status "a word near no verb exits 2" 2 "$KB" frobnicate
check_eq "... named, with no guess" "$(head -1 "$TMP/.out")" "kbench: unknown command 'frobnicate'"
check_eq "... in two lines, not the usage" "$(wc -l < "$TMP/.out")" "2"
check_status "help of a misspelled verb exits 2" 2 "$KB" help regres
check_eq "... with did you mean" "$(head -1 "$TMP/.out")" \
	"kbench help: unknown command 'regres'; did you mean 'regress'?"
check_status "a misspelled global option exits 2" 2 "$KB" --verison
check_eq "... with did you mean" "$(head -1 "$TMP/.out")" \
	"kbench: unknown option '--verison'; did you mean '--version'?"

# A misspelled option, of every verb alike (one parser, cli/opt.c).
check_status "misspelled option exits 2" 2 "$KB" compare --varaints A,B
check_eq "misspelled option: did you mean, and a pointer to --help" "$(cat "$TMP/.out")" \
"kbench compare: unknown option '--varaints'; did you mean '--variants'?
run 'kbench compare --help' for its options"
check_status "misspelled option=value exits 2" 2 "$KB" regress --baseline A --treshold=5
check_eq "... names the option, not its value" "$(head -1 "$TMP/.out")" \
	"kbench regress: unknown option '--treshold'; did you mean '--threshold'?"
check_status "one dash too few exits 2" 2 "$KB" chart -bench hackbench
check_eq "... offers the option as it is spelled" "$(head -1 "$TMP/.out")" \
	"kbench chart: unknown option '-bench'; did you mean '--bench'?"
check_status "an option near none exits 2" 2 "$KB" import --bogus x
check_eq "... two lines, no guess" "$(cat "$TMP/.out")" \
"kbench import: unknown option '--bogus'
run 'kbench import --help' for its options"
check_status "a missing value exits 2" 2 "$KB" import --variant
check_eq "... two lines, not the usage" "$(wc -l < "$TMP/.out")" "2"

# 2. help's own help.
for h in --help -h; do
	check_status "kbench help $h exits 0" 0 "$KB" help $h
	check_grep "kbench help $h prints help's usage" '^usage: kbench help \[VERB\]' "$TMP/.out"
done
check_status "kbench help compare exits 0" 0 "$KB" help compare
check_grep "kbench help compare is compare --help" '^usage: kbench compare ' "$TMP/.out"
check_eq "... the same text" "$(cat "$TMP/.out")" "$("$KB" compare --help)"
check_status "kbench help help exits 0" 0 "$KB" help help
check_grep "... help's usage" '^usage: kbench help \[VERB\]' "$TMP/.out"

# 3. Every help fits 80 columns: kbench help and each verb's --help.
"$KB" help > "$TMP/help.txt"
check_eq "kbench help fits 80 columns" "$(awk 'length > 80' "$TMP/help.txt")" ""
verbs=$(awk '/^verbs:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' "$TMP/help.txt")
check_eq "kbench help lists the verbs" "$(echo $verbs)" \
	"import ls show chart report compare export regress history relabel init copy help"
for v in $verbs; do
	"$KB" "$v" --help > "$TMP/vh.txt"
	check_eq "kbench $v --help fits 80 columns" "$(awk 'length > 80' "$TMP/vh.txt")" ""
done
# Wrapped, not cut: every option is still there, and a bracket stays whole.
check_grep "regress --help: a long help goes on under its column" \
	'^ {29}default: each machine on its own\)$' <("$KB" regress --help)
check_grep "regress --help: [--format text|json|junit] is whole" '\[--format text\|json\|junit\]' \
	<("$KB" regress --help)

# 4. Colour on a terminal only where the terminal takes it: not with
#    TERM=dumb (nor NO_COLOR, nor off a terminal; tests/cli/unix.sh).
"$KB" import "$SAMPLES/seeds/000_009ccda627cb3777.txt" > /dev/null
esc=$(printf '\033')
TERM=xterm script -q -e -c "'$KB' compare --bench hackbench --baseline A" "$TMP/tty.txt" > /dev/null
check_grep "a terminal gets colour (the control)" "$esc\[1;3[12]m" "$TMP/tty.txt"
TERM=dumb script -q -e -c "'$KB' compare --bench hackbench --baseline A" "$TMP/dumb.txt" > /dev/null
check_eq "TERM=dumb gets no colour" "$(grep -c "$esc\[" "$TMP/dumb.txt")" "0"
check_eq "... and the same text" "$(sed "s/$esc\[[0-9;]*m//g" "$TMP/tty.txt")" "$(cat "$TMP/dumb.txt")"
TERM=dumb script -q -e -c "'$KB' regress --bench hackbench --baseline A" "$TMP/dumbr.txt" > /dev/null
check_eq "TERM=dumb: regress gets no colour either" "$(grep -c "$esc\[" "$TMP/dumbr.txt")" "0"
TERM=dumb script -q -e -c "'$KB' compare --bench hackbench --baseline A --color=always" "$TMP/always.txt" > /dev/null
check_grep "--color=always still colours on TERM=dumb" "$esc\[1;3[12]m" "$TMP/always.txt"
