#!/bin/bash
# Defects found by fuzzing and review (issue 12), one reproducer each:
# every check here failed before its fix.
. tests/lib.sh

SEED0="$SAMPLES/seeds/000_009ccda627cb3777.txt"
check_status "seed 000 imports" 0 "$KB" import "$SEED0"

# A. ls with an argument printed a freed pointer (ASan: heap-use-after-free).
check_status "ls ANYTHING: usage error, no crash" 2 "$KB" ls ANYTHING
check_grep "ls names the unexpected argument" "unexpected argument 'ANYTHING'" "$TMP/.out"

# B. report --assets '' read before an empty string's end.
check_status "report --assets '': usage error, no crash" 2 "$KB" report --assets '' -o "$TMP/r.html"
check_grep "report says --assets needs a name" "assets needs a directory name" "$TMP/.out"

# The 1 MiB line limit: 1,048,576 bytes pass, 1,048,577 do not (CRLF
# line ends not counted).
python3 - "$TMP" <<'PY'
import sys
d = sys.argv[1]
line = b"x" * (1 << 20)
open(d + "/line-ok.txt", "wb").write(b"Time: 1.0\n" + line + b"\n")
open(d + "/line-ok-crlf.txt", "wb").write(b"Time: 1.0\r\n" + line + b"\r\n")
open(d + "/line-long.txt", "wb").write(b"Time: 1.0\n" + line + b"x\n")
open(d + "/line-long-last.txt", "wb").write(b"Time: 1.0\n" + line + b"x")
PY
check_status "a line of exactly 1 MiB is read" 0 "$KB" import --dry-run "$TMP/line-ok.txt"
check_status "a line of 1 MiB with CRLF is read" 0 "$KB" import --dry-run "$TMP/line-ok-crlf.txt"
check_status "a line of 1 MiB + 1 byte is refused" 2 "$KB" import --dry-run "$TMP/line-long.txt"
check_grep "the long line is named" "line-long.txt:2: line longer than 1048576 bytes" "$TMP/.out"
check_status "a last line (no newline) of 1 MiB + 1 byte is refused" 2 "$KB" import --dry-run "$TMP/line-long-last.txt"

# A gzip bomb is refused by the parser's limits while inflating, not
# after 1 GiB: 200 MB of zeros (binary) and 200 MB of one line.
python3 - "$TMP" <<'PY'
import sys, zlib
d = sys.argv[1]
for name, chunk in (("zeros", b"\0" * (1 << 20)), ("oneline", b"7" * (1 << 20))):
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    out = [z.compress(b"Time: 1.0\n")]
    for _ in range(200):
        out.append(z.compress(chunk))
    out.append(z.flush())
    open(d + "/bomb-" + name + ".gz", "wb").write(b"".join(out))
PY
rss() {  # rss FILE: peak RSS (KiB) of importing FILE, exit status in $TMP/rc
	python3 - "$KB" "$1" "$TMP/rc" <<'PY'
import resource, subprocess, sys
rc = subprocess.call([sys.argv[1], "import", "--dry-run", sys.argv[2]],
                     stdout=subprocess.DEVNULL, stderr=open(sys.argv[3] + ".err", "w"))
open(sys.argv[3], "w").write(str(rc))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
for b in zeros oneline; do
	kb=$(rss "$TMP/bomb-$b.gz")
	check_eq "gzip bomb ($b) is refused" "$(cat "$TMP/rc")" 2
	if [ "$kb" -lt 200000 ]; then pass "gzip bomb ($b) refused within 200 MB (peak ${kb} KiB)"; else
		fail "gzip bomb ($b) refused within 200 MB" "peak RSS ${kb} KiB"; fi
	cp "$TMP/rc.err" "$TMP/bomb-$b.err"
done
check_grep "the zeros bomb is called binary" "binary data \\(NUL byte\\)" "$TMP/bomb-zeros.err"
check_grep "the one-line bomb names its line" "bomb-oneline.gz:2: line longer than" "$TMP/bomb-oneline.err"

# Standard output that cannot be written is an error for every verb
# (checked once, in main): exit 2 and a message, not 0.
if [ -w /dev/full ]; then
	full() {  # full DESC CMD...: CMD > /dev/full exits 2 and says why
		local d=$1; shift
		"$@" >/dev/full 2>"$TMP/full.err"; local rc=$?
		if [ "$rc" = 2 ] && grep -q "write" "$TMP/full.err"; then pass "$d > /dev/full: exit 2"; else
			fail "$d > /dev/full: exit 2 with a message" "exit $rc: $*" "$(head -c 500 "$TMP/full.err")"; fi
	}
	SEED1="$SAMPLES/seeds/001_84b93bea668f5b54.txt"
	"$KB" import "$SEED1" >/dev/null
	full "import" "$KB" import --db "$TMP/full.db" "$SEED1"
	full "import --dry-run" "$KB" import --dry-run "$SEED1"
	full "ls" "$KB" ls
	full "show" "$KB" show "$(sql "select min(id) from run")"
	full "compare" "$KB" compare --bench numa_test
	full "export" "$KB" export --bench numa_test
	full "regress" "$KB" regress --baseline A@001 --bench numa_test
	full "history" "$KB" history --bench numa_test --metric elapsed
	full "report --format text" "$KB" report --format text
	# chart writes files (-o FILE.png/.svg/.pdf); what it writes to stdout is its
	# layout dump.  (This was "-o - --format svg", which chart has never taken:
	# it passed only because the whole usage it printed held the word "write".)
	full "chart --dump-layout" "$KB" chart --type bars --bench numa_test --metric elapsed --dump-layout
	full "help" "$KB" help
	full "ls --help" "$KB" ls --help
	full "--version" "$KB" --version
else
	fail "/dev/full is there to write to"
fi

# --config reads configs with one reader: a value holding '=' (a GNU
# time command line) selects in compare, regress, chart, report and
# history alike, and two long values sharing 600 bytes stay apart.
export KBENCH_DB="$TMP/config.db"
HB="$SAMPLES/lkp/hackbench/hackbench"
LONG=$(printf 'x%.0s' $(seq 600))
"$KB" import --variant base --set 'cmd=sh -c i=0' "$HB" >/dev/null
sed 's/Time: \([0-9]*\)\./Time: 1\1./' "$HB" > "$TMP/hb-slow"
"$KB" import --variant slow --set 'cmd=sh -c i=0' "$TMP/hb-slow" >/dev/null
sed 's/Time: \([0-9]*\)\./Time: 2\1./' "$HB" > "$TMP/hb-a"
"$KB" import --variant slow --set "cmd=${LONG}a" "$TMP/hb-a" >/dev/null
sed 's/Time: \([0-9]*\)\./Time: 3\1./' "$HB" > "$TMP/hb-b"
"$KB" import --variant base --set "cmd=${LONG}b" "$TMP/hb-b" >/dev/null
check_status "compare --config with '=' in the value" 0 "$KB" compare --config 'cmd=sh -c i=0' --baseline base
check_grep "... selects the two variants" "slow" "$TMP/.out"
check_status "regress --config with '=' in the value finds the regression" 1 "$KB" regress --config 'cmd=sh -c i=0' --baseline base --metric time
check_status "chart --config with '=' in the value" 0 "$KB" chart --type bars --config 'cmd=sh -c i=0' -o "$TMP/c.svg"
check_status "report --config with '=' in the value" 0 "$KB" report --format text --config 'cmd=sh -c i=0' -o "$TMP/r.txt"
check_status "history --config with '=' in the value" 0 "$KB" history --metric time --config 'cmd=sh -c i=0'
check_status "export --what compare --config with a long value" 0 "$KB" export --what compare --config "cmd=${LONG}a" --format csv
check_eq "... selects only the runs of that value (variant slow), not its 600-byte twin" \
	"$(python3 -c 'import csv, sys; print(" ".join(sorted({r["variant"] for r in csv.DictReader(open(sys.argv[1]))})))' "$TMP/.out")" "slow"

# The directory walk: links back up are not followed (two of them made
# the walk exponential), a file reached through several links is read
# once, and an entry that cannot be stat'ed is reported, not skipped.
export KBENCH_DB="$TMP/walk.db"
mkdir -p "$TMP/walk/a/b"
cp "$SAMPLES/lkp/hackbench/hackbench" "$TMP/walk/a/b/hb.log"
ln -s .. "$TMP/walk/a/b/up1"
ln -s ../.. "$TMP/walk/a/b/up2"
ln -s b/hb.log "$TMP/walk/a/same.log"
timeout 60 "$KB" import --dry-run "$TMP/walk" >"$TMP/walk.out" 2>&1; rc=$?
check_eq "a tree with two links back up imports, in time" "$rc" 0
check_eq "... its one file is read once" "$(grep -c 'would import' "$TMP/walk.out")" 1
check_grep "... the loops are named" "up1: skipped, a link to a directory it is inside" "$TMP/walk.out"
check_grep "... the second link to the file is named" "same.log: skipped, the same file as one read before" "$TMP/walk.out"
ln -s nowhere "$TMP/walk/a/dangling.log"
check_status "an entry that cannot be stat'ed fails the import" 2 "$KB" import --dry-run "$TMP/walk"
check_grep "... and is named" "dangling.log: cannot stat: No such file or directory" "$TMP/.out"
rm "$TMP/walk/a/dangling.log"

# Names that are not UTF-8 (from the command line or a directory) are
# refused: they became variants the JSON dropped and the XML broke on.
mkdir -p "$TMP/utf/$(printf 'run\xff')"
cp "$SAMPLES/lkp/hackbench/hackbench" "$TMP/utf/$(printf 'run\xff')/hb.log"
check_status "a directory name that is not UTF-8 fails" 2 "$KB" import "$TMP/utf"
check_grep "... and says so" "name is not valid UTF-8" "$TMP/.out"
check_eq "... nothing was stored under that name" "$(sql "select count(*) from variant where name like 'run%'")" 0
check_status "a file named on the command line that is not UTF-8 fails" 2 "$KB" import "$TMP/utf/$(printf 'run\xff')/hb.log"
check_status "--variant that is not UTF-8 is a usage error" 2 "$KB" import --variant "$(printf 'v\xfe')" "$SAMPLES/lkp/hackbench/hackbench"
check_grep "... and says so" "--variant is not valid UTF-8" "$TMP/.out"

# A read error is named by the errno of the read (saved before fclose).
check_status "stdin that is a directory cannot be read" 2 "$KB" import --dry-run - < "$TMP"
check_grep "... and the error says why" "^-: cannot read stdin: Is a directory" "$TMP/.out"

# A 10 KB line of GNU time values is recognised as GNU time output (the
# pattern ran out of JIT stack and the line silently became prose).
python3 -c "print('numa01 ' + ' '.join(['1.5'] * 3000))" > "$TMP/long-time.txt"
check_status "a 10 KB line of time values is read" 2 "$KB" import --dry-run --time-format '%e' "$TMP/long-time.txt"
check_grep "... by the time parser, which says what is wrong" "long-time.txt:1: time: 3000 values after 'numa01'" "$TMP/.out"

# chart --width/--height: the area is limited, not each side (30000 x
# 30000 took 36 s and 3.5 GB); a long thin chart is still drawn.
export KBENCH_DB="$TMP/kbench.db"
check_status "chart 30000 x 30000 is refused" 2 timeout 20 "$KB" chart --type bars --bench summary-table -o "$TMP/huge.png" --width 30000 --height 30000
check_grep "... naming the limit" "megapixels" "$TMP/.out"
check_status "chart 8000 x 400 is drawn" 0 "$KB" chart --type bars --bench numa_test --metric elapsed -o "$TMP/wide.svg" --width 8000 --height 400
check_status "chart --width 0.5 is refused" 2 "$KB" chart --type bars --bench numa_test --metric elapsed -o "$TMP/tiny.svg" --width 0.5
# ... nor does the current directory's name, when a file is named without one.
mkdir -p "$TMP/cwd/$(printf 'x\xff')"
cp "$SAMPLES/lkp/hackbench/hackbench" "$TMP/cwd/$(printf 'x\xff')/hb.log"
(cd "$TMP/cwd/$(printf 'x\xff')" && "$KB" import --db "$TMP/cwd.db" hb.log >/dev/null 2>&1)
check_eq "a file in a directory named with invalid UTF-8 is named after itself, never the directory" \
	"$(sqlite3 "$TMP/cwd.db" "select group_concat(name) from variant")" "hb"
