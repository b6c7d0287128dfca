#!/bin/bash
# Progress and quiet: import of a 20,000-file tree on a pseudo-terminal
# (script -q) draws one redrawn progress line and prints few lines; without
# a terminal every file has its line on stdout, as documented.
. tests/lib.sh

# 20,000 rt-tests hackbench runs, one per file (the three lines of
# samples/lkp/hackbench/hackbench's first run, the time varied), in
# directories of 1000 like scripts/gencorpus.c writes them.
python3 - "$SAMPLES/lkp/hackbench/hackbench" "$TMP/tree" <<'EOF'
import os, re, sys
text = open(sys.argv[1]).read()
m = re.search(r"(Running in (?:process|threaded) mode.*\n.*\n)Time: [0-9.]+\n", text)
head = m.group(1)
for i in range(20000):
    d = os.path.join(sys.argv[2], "%03d" % (i // 1000))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "%06d.log" % i), "w") as f:
        f.write("%sTime: %d.%03d\n" % (head, 1 + i // 1000, i % 1000))
EOF
check_eq "the tree holds 20,000 files" "$(find "$TMP/tree" -type f | wc -l)" "20000"
printf 'no benchmark output in here\n' > "$TMP/tree/000/README"
printf 'Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\nTime: 0.4\xff\n' > "$TMP/tree/001/bad.log"

if ! command -v script > /dev/null; then
	fail "script(1) is installed (bsdutils)"
	exit 1
fi
check_status "import on a pseudo-terminal exits 2 (one bad file)" 2 \
	script -q -e -c "'$KB' import --db '$TMP/tty.db' '$TMP/tree'" "$TMP/typescript"
# script(1) writes the terminal's bytes: \r\n line ends, \r redraws.
lines=$(tr -d '\r' < "$TMP/typescript" | grep -vc '^Script \(started\|done\)')
if [ "$lines" -lt 100 ]; then pass "fewer than 100 lines in all ($lines)"; else fail "fewer than 100 lines in all" "got $lines"; fi
draws=$(tr '\r' '\n' < "$TMP/typescript" | grep -c '^import: [0-9]*/20002 files, [0-9.]*/[0-9.]* MB, [0-9]* runs, [0-9]* files/s')
if [ "$draws" -ge 2 ]; then pass "the progress line is redrawn in place ($draws times)"; else fail "the progress line is redrawn in place" "drawn $draws times" "$(head -c 600 "$TMP/typescript")"; fi
check_grep "... with an ETA" 'ETA [0-9]+:[0-9][0-9]' "$TMP/typescript"
check_grep "the bad file is named" "tree/001/bad.log:2: invalid UTF-8" "$TMP/typescript"
check_grep "the skipped file is named" "tree/000/README: skipped, no benchmark output" "$TMP/typescript"
check_grep "the summary ends it" '20001 files: 20000 runs, 20000 samples, 0 summaries; 0 already imported, 1 failed, 1 skipped' "$TMP/typescript"
check_eq "no per-file line of an imported file" "$(grep -c '\.log: hackbench, 1 runs' "$TMP/typescript")" "0"
check_eq "every run is stored" "$(sqlite3 "$TMP/tty.db" "select count(*) from run")" "20000"
check_near "the last file's time" "$(sqlite3 "$TMP/tty.db" "select value from samples_v where source like '%/019999.log'")" 20.999

# Without a terminal: a line per file on stdout, nothing drawn on stderr.
export KBENCH_DB="$TMP/pipe.db"
"$KB" import "$TMP/tree" > "$TMP/pipe.out" 2> "$TMP/pipe.err"
check_eq "no terminal: a line per file and the summary" "$(wc -l < "$TMP/pipe.out")" "20002"
check_eq "... errors alone on stderr" "$(cat "$TMP/pipe.err")" "$TMP/tree/001/bad.log:2: invalid UTF-8 (byte 0xFF); convert the file to UTF-8"
check_eq "... no carriage return anywhere" "$(cat "$TMP/pipe.out" "$TMP/pipe.err" | tr -cd '\r' | wc -c)" "0"

# --quiet: errors and the summary only; --verbose on a terminal: every file.
export KBENCH_DB="$TMP/quiet.db"
"$KB" import --quiet "$TMP/tree/000" "$TMP/tree/001" > "$TMP/quiet.out" 2>&1
check_eq "--quiet prints the error and the summary" "$(cat "$TMP/quiet.out")" \
	"$TMP/tree/001/bad.log:2: invalid UTF-8 (byte 0xFF); convert the file to UTF-8
2001 files: 2000 runs, 2000 samples, 0 summaries; 0 already imported, 1 failed, 1 skipped"
"$KB" import --quiet "$SAMPLES/seeds/004_6cdb76245787edd0.txt" > "$TMP/quiet1.out" 2>&1
check_grep "--quiet, one file: its line is the summary" '004_6cdb76245787edd0.txt: numa_test, 1 runs, 5 samples' "$TMP/quiet1.out"
script -q -e -c "'$KB' import --verbose --db '$TMP/verbose.db' '$TMP/tree/002'" "$TMP/verbose.ts" > /dev/null
check_eq "--verbose on a terminal: a line per file" "$(grep -c '\.log: hackbench, 1 runs' "$TMP/verbose.ts")" "1000"
check_status "--verbose and --quiet together are refused" 2 "$KB" import --verbose --quiet "$TMP/tree/003"
