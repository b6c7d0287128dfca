#!/bin/bash
# Unix conventions: man pages made from the option tables, bash (and zsh)
# completion, colour only where asked for.
. tests/lib.sh

"$KB" import "$SAMPLES/seeds/000_009ccda627cb3777.txt" > /dev/null
"$KB" import --variant-prefix 'focht-oct07:' "$SAMPLES/seeds/001_84b93bea668f5b54.txt" > /dev/null

# Man pages: one per verb, each rendered by man -l, each holding every
# option its --help lists.
verbs=$("$KB" __complete 1 kbench '' | grep -v '^-' | grep -vx help)
check_eq "the verbs to document" "$(echo $verbs)" "import run ls show chart report compare export regress history alerts relabel init copy"
mkdir -p "$TMP/man"
"$KB" --man > "$TMP/man/kbench.1"
for v in $verbs; do "$KB" --man "$v" > "$TMP/man/kbench-$v.1"; done
if ! command -v man > /dev/null; then
	fail "man is installed (man-db, groff-base: scripts/install-deps --check)"
	exit 1
fi
for page in "$TMP"/man/*.1; do
	name=$(basename "$page" .1)
	LC_ALL=C MANWIDTH=120 man --warnings -l -P cat "$page" > "$TMP/man/$name.txt" 2> "$TMP/man/$name.err"
	rc=$?
	check_eq "man -l renders $name (no warning)" "$rc:$(cat "$TMP/man/$name.err")" "0:"
done
check_grep "kbench(1) names every verb's page" 'kbench-history\(1\)' "$TMP/man/kbench.txt"
check_grep "kbench(1) documents KBENCH_DB" 'KBENCH_DB' "$TMP/man/kbench.txt"
for v in $verbs; do
	opts=$("$KB" "$v" --help | sed -n 's/^  \(--[a-z][a-z-]*\).*/\1/p')
	missing=""
	for o in $opts; do
		grep -q -- "^ *$o\b" "$TMP/man/kbench-$v.txt" || missing="$missing $o"
	done
	check_eq "every option of $v ($(echo $opts | wc -w)) is in kbench-$v(1)" "$missing" ""
done
check_grep "kbench-import(1) has its NAME line" '^ +kbench-import - read benchmark output' "$TMP/man/kbench-import.txt"
check_grep "kbench-import(1) lists --quiet with its help" '^ +--quiet$' "$TMP/man/kbench-import.txt"
check_grep "... and --layout with its choices" '^ +--layout mmtests\|lkp\|none$' "$TMP/man/kbench-import.txt"
check_status "--man of no such verb fails" 2 "$KB" --man frobnicate
check_eq "copy's stores complete as file names" "$("$KB" __complete 3 kbench copy --from '')" ":files"
check_eq "... and init's" "$("$KB" __complete 3 kbench init --db '')" ":files"

# Bash completion: the script parses, and completes a verb, an option, a
# choice and a variant name read from the store.
check "completion/kbench.bash parses (bash -n)" bash -n completion/kbench.bash
if command -v zsh > /dev/null; then
	check "completion/_kbench parses (zsh -n)" zsh -n completion/_kbench
fi
mkdir -p "$TMP/bin"
ln -s "$KB" "$TMP/bin/kbench"
# complete LINE: what <TAB> at the end of LINE offers, one per line.
complete_line() {
	PATH="$TMP/bin:$PATH" bash -c '
		. "$2"/completion/kbench.bash
		COMP_LINE=$1
		COMP_POINT=${#COMP_LINE}
		# bash splits words at blanks and at = and : (COMP_WORDBREAKS)
		read -ra COMP_WORDS <<< "$(sed "s/\([=:]\)/ \1 /g" <<< "$COMP_LINE")"
		[[ $COMP_LINE =~ [[:space:]]$ ]] && COMP_WORDS+=("")
		COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
		_kbench kbench "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$1" "$PWD"
}
check_eq "kbench im<TAB> completes the verb" "$(complete_line 'kbench im')" "import"
check_eq "kbench re<TAB> offers report, regress and relabel" "$(complete_line 'kbench re')" "report
regress
relabel"
check_eq "kbench import --qu<TAB>" "$(complete_line 'kbench import --qu')" "--quiet"
check_eq "kbench compare --format <TAB> offers the formats" "$(complete_line 'kbench compare --format ')" "text
md
csv
json"
check_eq "kbench import --format nu<TAB> offers the parsers" "$(complete_line 'kbench import --format nu')" \
	"$(printf '%s\n' numa_test numastat numactl)"
check_eq "kbench compare --baseline fo<TAB> completes the variants from the store" \
	"$(complete_line 'kbench compare --baseline fo')" "$(printf 'focht-oct07:%s\n' A B C D E F)"
check_eq "kbench compare --variants=focht-oct07:F<TAB> (a name with ':' and '=')" \
	"$(complete_line 'kbench compare --variants=focht-oct07:F')" "F"
check_eq "kbench compare --variants A,B,focht-oct07:E<TAB> completes the last item" \
	"$(complete_line 'kbench compare --variants A,B,focht-oct07:E')" "E"
check_eq "kbench regress --color=al<TAB>" "$(complete_line 'kbench regress --color=al')" "always"
check_eq "kbench ls --db <TAB> completes file names" \
	"$(complete_line "kbench ls --db $TMP/kben" | sort | head -1)" "$TMP/kbench.db"
# The same candidates through compgen, as a user's own completion might ask:
check_eq "compgen -W over __complete" \
	"$(compgen -W "$("$KB" __complete 3 kbench regress --change '')" -- s)" "speed"

# Colour: verdict marks only where asked for.
esc=$(printf '\033')
"$KB" compare --bench hackbench --baseline A > "$TMP/plain.txt"
check_eq "no colour when stdout is not a terminal" "$(grep -c "$esc" "$TMP/plain.txt")" "0"
"$KB" compare --bench hackbench --baseline A --color=always > "$TMP/color.txt"
check_grep "--color=always colours the marks (+ green)" "$esc\[1;32m\+$esc\[0m" "$TMP/color.txt"
check_eq "... and the text is otherwise the same" "$(sed "s/$esc\[[0-9;]*m//g" "$TMP/color.txt")" "$(cat "$TMP/plain.txt")"
script -q -e -c "'$KB' compare --bench hackbench --baseline A" "$TMP/tty.txt" > /dev/null
check_grep "auto colours a terminal" "$esc\[1;32m\+" "$TMP/tty.txt"
NO_COLOR=1 script -q -e -c "'$KB' compare --bench hackbench --baseline A" "$TMP/nocolor.txt" > /dev/null
check_eq "NO_COLOR turns it off" "$(grep -c "$esc\[1;3" "$TMP/nocolor.txt")" "0"
script -q -e -c "'$KB' compare --bench hackbench --baseline A --color=never" "$TMP/never.txt" > /dev/null
check_eq "--color=never turns it off" "$(grep -c "$esc\[1;3" "$TMP/never.txt")" "0"
"$KB" regress --baseline A --bench hackbench --color=always > "$TMP/regress.txt"
check_grep "regress colours the verdict word" "^  $esc\[1;32mbetter$esc\[0m +hackbench" "$TMP/regress.txt"
check_status "--color=sometimes is refused" 2 "$KB" compare --bench hackbench --color=sometimes
