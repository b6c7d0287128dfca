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
	"import run ls show chart report compare export regress history alerts relabel init copy help"
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
# (script's own first and last lines hold the time)
check_eq "... and the same text" "$(sed "1d;\$d;s/$esc\[[0-9;]*m//g" "$TMP/tty.txt")" "$(sed '1d;$d' "$TMP/dumb.txt")"
TERM=dumb script -q -e -c "'$KB' regress --bench hackbench --baseline A" "$TMP/dumbr.txt" > /dev/null
check_eq "TERM=dumb: regress gets no colour either" "$(grep -c "$esc\[" "$TMP/dumbr.txt")" "0"
TERM=dumb script -q -e -c "'$KB' compare --bench hackbench --baseline A --color=always" "$TMP/always.txt" > /dev/null
check_grep "--color=always still colours on TERM=dumb" "$esc\[1;3[12]m" "$TMP/always.txt"

# 5. Whatever kbench prints for a machine, --machine takes back: here two
#    posts on machines they do not name, printed as unknown@<post>.
export KBENCH_DB="$TMP/posts.db"
"$KB" import "$SHARED/seeds/000_009ccda627cb3777.txt" "$SHARED/seeds/001_84b93bea668f5b54.txt" > /dev/null
"$KB" compare --metric elapsed > "$TMP/cmp.txt"
labels=$(sed -n 's/^  machine: //p' "$TMP/cmp.txt" | sort -u)
check_eq "compare prints the posts' machines" "$(echo $labels)" \
	"unknown@000_009ccda627cb3777 unknown@001_84b93bea668f5b54"
M=unknown@001_84b93bea668f5b54
check_status "compare --machine <printed label>" 0 "$KB" compare --metric elapsed --machine "$M"
check_eq "... selects that post's variants only" \
	"$(grep -o '[A-Z]@00[01]_[0-9a-f]*' "$TMP/.out" | sed 's/^.@//' | sort -u)" "001_84b93bea668f5b54"
"$KB" compare --metric elapsed --machine "$M" --format json > "$TMP/m.json"
check_eq "compare --format json: that post's variants (F is its own name)" \
	"$(python3 -c 'import json,sys; print(sorted({r["variant"] for r in json.load(open(sys.argv[1]))["rows"]}))' "$TMP/m.json")" \
	"['A@001_84b93bea668f5b54', 'B@001_84b93bea668f5b54', 'C@001_84b93bea668f5b54', 'D@001_84b93bea668f5b54', 'E@001_84b93bea668f5b54', 'F']"
check_status "history --machine <printed label>" 0 "$KB" history --metric elapsed --machine "$M"
check_grep "... the history of that post's machine" "^numa_test on $M disturb=hackbench:20,tasks=8 elapsed" "$TMP/.out"
check_eq "... and no other" "$(grep -c 'on unknown@000' "$TMP/.out")" "0"
check_status "regress --machine <printed label>" 0 "$KB" regress --baseline A@001_84b93bea668f5b54 --machine "$M"
check_grep "... compares that post's variants" 'B@001_84b93bea668f5b54' "$TMP/.out"
check_status "chart --machine <printed label>" 0 "$KB" chart --type bars --bench numa_test --metric elapsed \
	--machine "$M" --dump-layout
check_eq "... draws that post's variants only" \
	"$(grep -o 'series=[A-Z]@00[01]_' "$TMP/.out" | sort -u | sed 's/series=.@//' | sort -u)" "001_"
check_status "report --machine <printed label>" 0 "$KB" report --format text --machine "$M" -o "$TMP/r.txt"
check_eq "... reports that post's variants only" "$(grep -c '[A-Z]@000_009ccda627cb3777' "$TMP/r.txt")" "0"
check_status "export --what compare --machine <printed label>" 0 "$KB" export --what compare \
	--metric elapsed --machine "$M"
check_eq "... that post's rows only" "$(grep -c '@000_009ccda627cb3777' "$TMP/.out")" "0"
check_grep "... and they are there" '"A@001_84b93bea668f5b54"' "$TMP/.out"
check_status "a label of no post is still refused" 2 "$KB" compare --machine unknown@nosuch
check_grep "... named" "no machine 'unknown@nosuch'" "$TMP/.out"
export KBENCH_DB="$TMP/kbench.db"

# 6. make demo builds the man pages too (make -n: what it would run).
make -n --no-print-directory BUILD="$TMP/demo-build" demo > "$TMP/demo.n" 2>&1
check_grep "make demo builds kbench(1)" "^\./kbench --man > $TMP/demo-build/man/kbench\.1" "$TMP/demo.n"
check_grep "... and kbench-VERB(1)" "kbench --man \\\$v > $TMP/demo-build/man/kbench-\\\$v\.1" "$TMP/demo.n"
check_grep "... then runs the demo" 'scripts/demo$' "$TMP/demo.n"

# 7. The README tour's mail thread: a real thread in samples/mail/, small,
#    made byte for byte from the real posts samples/README.md names, and
#    the tour's commands run as written.
MBOX=$SAMPLES/mail/lkml-2002-10-numa-scheduler.mbox.gz
check "the tour's thread is in samples/mail/" test -s "$MBOX"
check_eq "... small (under 50 KB)" "$(( $(stat -c %s "$MBOX") < 50000 ))" "1"
python3 tests/tools/mkmbox.py posts "$TMP/t.mbox" \
	tests/realposts/104-bligh-schedbench-header-misordered-2002.mail \
	tests/realposts/105-focht-quotes-schedbench-quoted-printable-2002.mail
check "... is the real posts, byte for byte (samples/README.md)" cmp "$TMP/t.mbox" <(gzip -dc "$MBOX")
for id in '3129290732.1035737182@\[10.10.2.3\]' '200210281811.47708.efocht@ess.nec.de'; do
	check_grep "samples/README.md gives the provenance of <$id>" "$id.*linux-kernel" "$SAMPLES/README.md"
done
check_grep "README's tour imports it" "^\./kbench import samples/mail/lkml-2002-10-numa-scheduler\.mbox\.gz$" README.md
if on_sqlite; then
	mkdir "$TMP/tour"
	ln -s "$KB" "$TMP/tour/kbench"
	ln -s "$SAMPLES" "$TMP/tour/samples"
	sed -n '/^## A tour/,/^```$/p' README.md | sed '1,/^```sh$/d;$d' > "$TMP/tour.sh"
	check_grep "the tour is there" '^\./kbench import samples/seeds/001' "$TMP/tour.sh"
	(cd "$TMP/tour" && unset KBENCH_DB && bash -e "$TMP/tour.sh") > "$TMP/tour.out" 2>&1
	check_eq "every command of the tour runs as written" "$?" "0"
	check_grep "... the thread: two messages" '^2 files \(2 mail messages\): 0 runs, 0 samples, 144 summaries' "$TMP/tour.out"
	check_grep "... the reply's quoted tables stored once" \
		'#200210281811\.47708\.efocht@ess\.nec\.de: summary-table, 0 runs, 0 samples; 144 summaries already stored' \
		"$TMP/tour.out"
	check_grep "... the tour's regress of seed 003 exits as its comment says" \
		"$(sed -n 's/.*--bench numa_test; echo "exit \$?" *# \([0-9]\):.*/^exit \1$/p' README.md)" "$TMP/tour.out"
fi

# 8. docs/report.md says what kbench does with seeds 000 and 001 in one
#    store: each post's A..E are its own, never pooled.
export KBENCH_DB="$TMP/seeds.db"
"$KB" import "$SAMPLES/seeds/000_009ccda627cb3777.txt" "$SAMPLES/seeds/001_84b93bea668f5b54.txt" > /dev/null
check_eq "seeds 000 and 001 in one store: each post's A is a variant of its own" \
	"$(sql "select count(*) from variant where name = 'A'")" "2"
"$KB" compare --bench numa_test --metric elapsed --format json > "$TMP/s.json"
check_eq "... compared apart, on their own machines (A@000's and A@001's rows)" \
	"$(python3 -c 'import json,sys
rows = json.load(open(sys.argv[1]))["rows"]
print(sorted({(r["variant"], r["machine"] or "") for r in rows if r["variant"].startswith("A@")}))' "$TMP/s.json")" \
	"[('A@000_009ccda627cb3777', 'unknown@000_009ccda627cb3777'), ('A@001_84b93bea668f5b54', 'unknown@001_84b93bea668f5b54')]"
check_eq "docs/report.md no longer says they merge" "$(grep -c 'into one store merges them' docs/report.md)" "0"
check_grep "docs/report.md says they stay apart" 'stay apart in one store' docs/report.md
check_grep "... and how to name each" 'A@000_009ccda627cb3777' docs/report.md
export KBENCH_DB="$TMP/kbench.db"

# relabel's own commands are words to correct too.
check_status "a misspelled relabel command exits 2" 2 "$KB" relabel renmae A B
check_eq "... with did you mean" "$(cat "$TMP/.out")" \
"kbench relabel: unknown or incomplete command 'renmae'; did you mean 'rename'?
run 'kbench relabel --help' for its commands"
