#!/bin/bash
# Reads with a bound (issue 22, item 4): plain files and standard input are
# held to the gzip path's limits while they are read - the same 256 MiB
# cap, NUL and line checks - not read whole first.  The time and memory
# bounds are the product's: measured on the release binary (./kbench,
# which make check builds), the messages on the sanitised one too.
. tests/lib.sh
KB=${KB_REAL:-$KB}
REL=${KB_RELEASE:-$PWD/kbench}

# measure OUT BIN ARGS...: "SECONDS KIB STATUS" of BIN ARGS reading
# standard input from the command in $FEED (or nothing), stderr in OUT
measure() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time, os
out, args = sys.argv[1], sys.argv[2:]
feed = os.environ.get("FEED")
t = time.time()
src = subprocess.Popen(feed, shell=True, stdout=subprocess.PIPE) if feed else None
p = subprocess.Popen(args, stdin=src.stdout if src else subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=open(out, "w"))
try:
    rc = p.wait(timeout=30)
except subprocess.TimeoutExpired:   # no bound at all: stop it
    p.kill(); rc = p.wait()
if src:
    src.stdout.close(); src.kill(); src.wait()
el = time.time() - t
print("%.2f %d %d" % (el, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc))
PY
}
CAP="more than 268435456 bytes of text \(the most kbench reads of one source\)"

check_status "import /dev/zero: exit 2" 2 "$KB" import --dry-run /dev/zero
check_grep "... binary data at once, named" "^/dev/zero:1: binary data \(NUL byte\): not a text file" "$TMP/.out"
# (each bounded in time: a reader without the bound would eat memory)
check_status "yes | import -: exit 2" 2 timeout 60 bash -c "yes 'Time: 1.0' | '$KB' import --dry-run -"
check_grep "... stopped at the cap, said so" "^-: $CAP" "$TMP/.out"
# a 300 MB plain file of short lines: the cap, the same message
if truncate -s 0 "$TMP/big.txt" 2>/dev/null && yes 'Time: 1.0' | head -c 300000000 >"$TMP/big.txt"; then
	check_status "a 300 MB plain file: exit 2" 2 "$KB" import --dry-run "$TMP/big.txt"
	check_grep "... the cap's message" "big.txt: $CAP" "$TMP/.out"
	rm -f "$TMP/big.txt"
fi
# the line limit on standard input, while reading
check_status "one endless line on stdin: exit 2" 2 timeout 60 bash -c "tr '\\0' x </dev/zero | '$KB' import --dry-run -"
check_grep "... the line limit, line 1" "^-:1: line longer than 1048576 bytes \(not a benchmark log\)" "$TMP/.out"
# a NUL after text: its line, as the front end would say
printf 'Time: 1.0\nTime: 2.0\n\0' >"$TMP/nul.txt"
check_status "a NUL on line 3: exit 2" 2 "$KB" import --dry-run "$TMP/nul.txt"
check_grep "... named on its line" "nul.txt:3: binary data \(NUL byte\): not a text file" "$TMP/.out"
# what is under the cap still reads, from a file and from stdin
printf 'Time: 1.0\nTime: 2.0\n' >"$TMP/ok.txt"
check_status "a small file still imports" 0 "$KB" import --dry-run "$TMP/ok.txt"
check_status "... and from stdin" 0 bash -c "'$KB' import --dry-run - <'$TMP/ok.txt'"

if [ -x "$REL" ]; then
	r=$(measure "$TMP/m.err" "$REL" import --dry-run /dev/zero)
	set -- $r
	if [ "$3" = 2 ] && awk -v s="$1" -v k="$2" 'BEGIN { exit !(s < 2 && k < 300000) }'; then
		pass "import /dev/zero: stops in under 2 s and 300 MB ($1 s, $2 KiB)"; else
		fail "import /dev/zero: stops in under 2 s and 300 MB" "$r" "$(cat "$TMP/m.err")"; fi
	for feed in "yes" "yes 'Time: 1.0'"; do
		r=$(FEED=$feed measure "$TMP/m.err" "$REL" import --dry-run -)
		set -- $r
		if [ "$3" = 2 ] && awk -v s="$1" -v k="$2" 'BEGIN { exit !(s < 2 && k < 300000) }' &&
			grep -qE "^-: $CAP" "$TMP/m.err"; then
			pass "$feed | import -: the cap in under 2 s and 300 MB ($1 s, $2 KiB)"; else
			fail "$feed | import -: the cap in under 2 s and 300 MB" "$r" "$(cat "$TMP/m.err")"; fi
	done
else
	pass "time and memory bounds skipped: no release binary $REL (make kbench)"
fi
