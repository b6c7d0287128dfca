#!/bin/bash
# The one output writer (issue 22, item 1): report -o, regress -o, chart -o
# and history --chart keep what they are given.  A device node stays a
# device (the test's own nodes, made with mknod in $TMP: the real /dev is
# never touched), a FIFO a FIFO, a symbolic link is followed, a hard link
# stays a link, a 0600 file stays 0600; the full node exits 2; a failed
# run leaves the old file byte for byte.
. tests/lib.sh

SEED0="$SAMPLES/seeds/000_009ccda627cb3777.txt"
check_status "seed 000 imports" 0 "$KB" import "$SEED0"

# One output of each verb, into FILE.
# ext: the file name ending the verb wants (charts need theirs).
write_to() {  # write_to VERB FILE
	case "$1" in
	report) "$KB" report --format text -o "$2" ;;
	regress) "$KB" regress --baseline A@000 --bench hackbench -o "$2" ;;
	chart) "$KB" chart --type bars --bench hackbench -o "$2" ;;
	history) "$KB" history --metric time --bench hackbench --chart "$2" >/dev/null ;;
	esac
}
# regress exits 0 here (nothing worse); every verb exits 0 on success.
ext() { case "$1" in chart | history) echo .svg ;; *) echo "" ;; esac; }

D="$TMP/out"
mkdir -p "$D"
have_nodes=0
if mknod "$D/null" c 1 3 2>/dev/null && mknod "$D/full" c 1 7 2>/dev/null; then
	have_nodes=1
elif [ "$(id -u)" = 0 ]; then
	fail "mknod works as root" "mknod $D/null c 1 3 failed"
else
	pass "device-node checks skipped (not root: mknod needs root)"
fi
ttype() { stat -c '%F %a %h' "$1"; }

for verb in report regress chart history; do
	e=$(ext "$verb")
	if [ "$have_nodes" = 1 ]; then
		# A node of its own per verb, named as the verb wants
		mknod "$D/null-$verb$e" c 1 3
		mknod "$D/full-$verb$e" c 1 7
		check_status "$verb -o a null node exits 0" 0 write_to "$verb" "$D/null-$verb$e"
		check_eq "$verb -o a null node: still a character device" \
			"$(stat -c '%F %t,%T' "$D/null-$verb$e")" "character special file 1,3"
		check_status "$verb -o a full node exits 2" 2 write_to "$verb" "$D/full-$verb$e"
		check_grep "$verb -o a full node: a write error, named" "full-$verb$e: (write error|cannot write)" "$TMP/.out"
		check_eq "$verb -o a full node: still a character device" \
			"$(stat -c '%F %t,%T' "$D/full-$verb$e")" "character special file 1,7"
		# through a symbolic link to a node, too
		ln -s "null-$verb$e" "$D/lnull-$verb$e"
		check_status "$verb -o a link to a null node exits 0" 0 write_to "$verb" "$D/lnull-$verb$e"
		check_eq "$verb -o a link to a null node: link and node stay" \
			"$(stat -c '%F' "$D/lnull-$verb$e") $(stat -c '%F' "$D/null-$verb$e")" \
			"symbolic link character special file"
	fi

	# a FIFO: written in place, read by cat
	mkfifo "$D/fifo-$verb$e"
	# (bounded: a writer that replaced the FIFO leaves the reader waiting)
	timeout 60 cat "$D/fifo-$verb$e" >"$D/fifo-$verb.read" &
	reader=$!
	check_status "$verb -o a FIFO exits 0" 0 write_to "$verb" "$D/fifo-$verb$e"
	[ -p "$D/fifo-$verb$e" ] || kill "$reader" 2>/dev/null
	wait "$reader"
	check_eq "$verb -o a FIFO: still a FIFO" "$(stat -c '%F' "$D/fifo-$verb$e")" "fifo"
	if [ -s "$D/fifo-$verb.read" ]; then pass "$verb -o a FIFO: the reader got the output"; else
		fail "$verb -o a FIFO: the reader got the output" "nothing read"; fi

	# a symbolic link (relative, to a file in another directory): followed
	mkdir -p "$D/real"
	echo old >"$D/real/target-$verb$e"
	ln -s "real/target-$verb$e" "$D/link-$verb$e"
	check_status "$verb -o a symlink exits 0" 0 write_to "$verb" "$D/link-$verb$e"
	check_eq "$verb -o a symlink: the link stays a link to its target" \
		"$(stat -c '%F' "$D/link-$verb$e") $(readlink "$D/link-$verb$e")" "symbolic link real/target-$verb$e"
	if [ "$(cat "$D/real/target-$verb$e")" != old ] && [ -s "$D/real/target-$verb$e" ]; then
		pass "$verb -o a symlink: the target was written"; else
		fail "$verb -o a symlink: the target was written" "$(head -c 200 "$D/real/target-$verb$e")"; fi
	# a dangling link creates its target
	ln -s "real/new-$verb$e" "$D/dangling-$verb$e"
	check_status "$verb -o a dangling symlink exits 0" 0 write_to "$verb" "$D/dangling-$verb$e"
	check_eq "$verb -o a dangling symlink: creates the file it names" \
		"$(stat -c '%F' "$D/dangling-$verb$e") $(stat -c '%F' "$D/real/new-$verb$e")" \
		"symbolic link regular file"

	# a hard link: both names stay one file
	echo old >"$D/h1-$verb$e"
	ln "$D/h1-$verb$e" "$D/h2-$verb$e"
	check_status "$verb -o a hard link exits 0" 0 write_to "$verb" "$D/h1-$verb$e"
	check_eq "$verb -o a hard link: the link stays" \
		"$(stat -c '%i %h' "$D/h1-$verb$e")" "$(stat -c '%i 2' "$D/h2-$verb$e")"
	if cmp -s "$D/h1-$verb$e" "$D/h2-$verb$e" && [ "$(cat "$D/h2-$verb$e")" != old ]; then
		pass "$verb -o a hard link: both names see the output"; else
		fail "$verb -o a hard link: both names see the output"; fi

	# a 0600 file stays 0600
	echo old >"$D/priv-$verb$e"
	chmod 600 "$D/priv-$verb$e"
	check_status "$verb -o a 0600 file exits 0" 0 write_to "$verb" "$D/priv-$verb$e"
	check_eq "$verb -o a 0600 file: mode kept" "$(stat -c '%a' "$D/priv-$verb$e")" "600"
	# a 0640 file of another group keeps its group (root may give it)
	if [ "$(id -u)" = 0 ]; then
		echo old >"$D/grp-$verb$e"
		chmod 640 "$D/grp-$verb$e"
		chown 1:1 "$D/grp-$verb$e"
		check_status "$verb -o another owner's file exits 0" 0 write_to "$verb" "$D/grp-$verb$e"
		check_eq "$verb -o another owner's file: owner and mode kept" \
			"$(stat -c '%u:%g %a' "$D/grp-$verb$e")" "1:1 640"
	fi

	# a failed run (ulimit -f: EFBIG) leaves the old file byte for byte,
	# and no temporary file beside it
	head -c 3000 /dev/urandom >"$D/keep-$verb$e"
	cp "$D/keep-$verb$e" "$D/real/orig-keep-$verb"
	check_status "$verb -o FILE past ulimit -f exits 2 (no SIGXFSZ)" 2 \
		bash -c "ulimit -f 1; $(declare -f write_to); KB='$KB'; write_to $verb '$D/keep-$verb$e'"
	check "$verb: a failed run leaves the old file byte for byte" cmp "$D/keep-$verb$e" "$D/real/orig-keep-$verb"
	check_eq "$verb: a failed run leaves no temporary file" \
		"$(ls "$D" | grep -c "^keep-$verb$e\.")" "0"
	check_eq "$verb: no temporary files left anywhere" "$(ls "$D" "$D/real" | grep -c '\.[A-Za-z0-9]\{6\}$')" "0"
done

# -o - is standard output, not a file named '-'
(cd "$D" && "$KB" report --format text -o - >"$D/dash.out" 2>&1)
check_eq "report -o - writes standard output" "$(test -e "$D/-" && echo file || echo none) $(grep -c 'kbench report' "$D/dash.out")" "none 1"

# a directory is refused, and stays
mkdir -p "$D/adir"
check_status "report -o DIR exits 2" 2 "$KB" report -o "$D/adir"
check_grep "report -o DIR: says so" "adir: cannot write: Is a directory" "$TMP/.out"
