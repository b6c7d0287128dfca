# shellcheck shell=sh
# scripts/bench-peers.sh - sourced by scripts/bench: kbench beside the
# tools its users run today, on the same input (issue 26).  Each peer is
# an external program, used only when it is installed; none is part of
# kbench.  Needs die(), $DIR (the corpora), $KB (./kbench), $C (the peer
# corpus).  lkp_peer and mmtests_peer set peer_lkp / peer_mmtests to
# "RATIOx(files=N,peer_s=P,kbench_s=K)", RATIO = P / K, or to
# "peer not installed"; a peer that is installed but fails, or prints no
# result for a file, ends the bench through die().

# peer_secs ERRFILE: the seconds scripts/rusage wrote to ERRFILE
peer_secs() { sed -n 's/^rusage: seconds=\([0-9.]*\) .*/\1/p' "$1"; }

# peer_figure FILES PEER_S KBENCH_S: the figure for the peers line
peer_figure() {
	awk -v n="$1" -v p="$2" -v k="$3" 'BEGIN {
		if (k <= 0) exit 1
		printf "%.1fx(files=%d,peer_s=%.3f,kbench_s=%.3f)", p / k, n, p, k }' ||
		die "peers: kbench took no measurable time ($3 s)"
}

# peer_kbench NAME LIST: import the files of LIST (one path a line) into
# a fresh SQLite store $DIR/peer-NAME.db, in one kbench process, timed;
# every file must be stored as a source whose format is FORMAT ($3).
# Sets p_kbench_s.
peer_kbench() {
	p_db=$DIR/peer-$1.db
	rm -f "$p_db" "$p_db-wal" "$p_db-shm"
	p_n=$(wc -l <"$2" | tr -d ' ')
	# One argument a line: the paths come from find and globs, not from
	# words.
	p_ifs=$IFS
	IFS='
'
	set -f
	# shellcheck disable=SC2046
	set -- "$1" "$2" "$3" $(cat "$2")
	set +f
	IFS=$p_ifs
	p_name=$1 p_format=$3
	shift 3
	sync
	"$DIR/rusage" "$KB" import --db "$p_db" "$@" >"$DIR/peer-$p_name.kbench.log" 2>"$DIR/peer-$p_name.kbench.err" ||
		{ tail -3 "$DIR/peer-$p_name.kbench.err" >&2; die "peers: kbench import of the $p_name files failed"; }
	p_kbench_s=$(peer_secs "$DIR/peer-$p_name.kbench.err")
	p_got=$(sqlite3 "$p_db" "select count(*) from source where ',' || format || ',' like '%,$p_format,%'")
	[ "$p_got" -eq "$p_n" ] ||
		die "peers: kbench stored $p_got of the $p_n $p_name files as $p_format (see $DIR/peer-$p_name.kbench.log)"
}

# lkp_peer: lkp-tests' programs/hackbench/parse, one ruby process per
# plain hackbench output of the full corpus (lkp runs one parse per job
# output), against one kbench import of the same files.
lkp_peer() {
	peer_lkp="peer not installed"
	p_lkp=${LKP_SRC:-/lkp/lkp-tests}
	p_parse=$p_lkp/programs/hackbench/parse
	command -v ruby >/dev/null 2>&1 && [ -f "$p_parse" ] || return 0
	# The files lkp's parse reads whole: each of the three lines it
	# computes throughput from (groups and tasks, messages and bytes,
	# Time) at the start of a line, and no line quoted with '>' (a
	# mail-quoted copy, which the parse cannot read and kbench can).
	find "$DIR/full" -type f -name '*.txt' -exec awk '
		function done_file() { if (f != "" && r && e && t && !q) print f }
		FNR == 1 { done_file(); f = FILENAME; r = e = t = q = 0 }
		/^Running in .* mode with [0-9]+ groups using [0-9]+ file descriptors/ { r = 1 }
		/^Each sender (will pass|passed) [0-9]+ messages of [0-9]+ bytes/ { e = 1 }
		/^Time: / { t = 1 }
		/^>/ { q = 1 }
		END { done_file() }' {} + | sort >"$DIR/peer-lkp.list" ||
		die "peers: cannot list the hackbench files of $DIR/full"
	p_n=$(wc -l <"$DIR/peer-lkp.list" | tr -d ' ')
	[ "$p_n" -gt 0 ] || die "peers: no plain hackbench file in $DIR/full"
	sync
	# (the list is the loop's stdin; each ruby reads its file)
	# shellcheck disable=SC2016
	LKP_SRC=$p_lkp "$DIR/rusage" sh -c 'while IFS= read -r f; do
		printf "== %s\n" "$f"
		ruby "$1" <"$f" || echo "exit $?"
	done' sh "$p_parse" <"$DIR/peer-lkp.list" >"$DIR/peer-lkp.out" 2>"$DIR/peer-lkp.err" ||
		{ tail -3 "$DIR/peer-lkp.err" >&2; die "peers: lkp's hackbench parse could not be run"; }
	p_peer_s=$(peer_secs "$DIR/peer-lkp.err")
	# "GOOD FIRST-BAD": files with a numeric throughput, the first without
	# shellcheck disable=SC2046
	set -- $(awk '
		function done_file() { if (ok) good++; else if (bad == "") bad = f }
		/^== / { if (f != "") done_file(); f = substr($0, 4); ok = 0; next }
		/^throughput: [0-9]/ { ok = 1 }
		END { if (f != "") done_file(); print good + 0, bad }' "$DIR/peer-lkp.out")
	[ "$1" -eq "$p_n" ] || { grep -v '^rusage: ' "$DIR/peer-lkp.err" | head -3 >&2
		die "peers: lkp's hackbench parse ($p_parse) printed no throughput for $((p_n - $1)) of $p_n files, first $2 (see $DIR/peer-lkp.out, $DIR/peer-lkp.err)"; }
	peer_kbench lkp "$DIR/peer-lkp.list" hackbench
	# shellcheck disable=SC2034
	peer_lkp=$(peer_figure "$p_n" "$p_peer_s" "$p_kbench_s")
}

# The real mmtests tree of the peer corpus (see its README.txt).
MMTESTS_TREE=$C/mmtests/prashantph-mmtests_CI/log.ltccip8.2020-06-03_1400

# mmtests_peer: mmtests' bin/extract-mmtests.pl, one process per run and
# hackbench benchmark of the tree, against one kbench import of the same hackbench-<groups>-<iteration> files.
mmtests_peer() {
	peer_mmtests="peer not installed"
	p_mm=${MMTESTS:-${MMTESTS_DIR:-}}
	p_extract=$p_mm/bin/extract-mmtests.pl
	[ -n "$p_mm" ] && [ -f "$p_extract" ] && command -v perl >/dev/null 2>&1 || return 0
	[ -d "$MMTESTS_TREE" ] || die "peers: mmtests tree not found at $MMTESTS_TREE"
	# "RUN BENCHMARK" of every hackbench benchmark of a run: the results
	# both tools read in this tree (kbench's mmtests layout reads only
	# hackbench-* and time-* logs; extract-mmtests.pl of hackbench reads
	# no time-* file, so those are left out of both sides).
	for p_logs in "$MMTESTS_TREE"/*/iter-*/hackbench-*/logs; do
		[ -d "$p_logs" ] || continue
		p_run=${p_logs#"$MMTESTS_TREE"/}
		p_bench=${p_logs%/logs}
		echo "${p_run%%/*} ${p_bench##*/}"
	done | sort -u >"$DIR/peer-mmtests.pairs"
	[ -s "$DIR/peer-mmtests.pairs" ] || die "peers: no hackbench benchmark in $MMTESTS_TREE"
	while read -r p_run p_bench; do
		for p_f in "$MMTESTS_TREE/$p_run"/iter-*/"$p_bench"/logs/hackbench-*-*; do
			if [ -f "$p_f" ]; then echo "$p_f"; fi
		done
	done <"$DIR/peer-mmtests.pairs" >"$DIR/peer-mmtests.list"
	p_n=$(wc -l <"$DIR/peer-mmtests.list" | tr -d ' ')
	sync
	# extract-mmtests.pl finds its modules through FindBin ($MMTESTS/bin/lib),
	# no PERL5LIB needed;
	# CACHE_MMTESTS empty: no result cache from an earlier run.
	# shellcheck disable=SC2016
	CACHE_MMTESTS="" "$DIR/rusage" sh -c 'while read -r run bench; do
		printf "== %s %s\n" "$run" "$bench"
		perl "$1" -d "$2" -n "$run" -b "$bench" </dev/null || echo "exit $?"
	done' sh "$p_extract" "$MMTESTS_TREE" <"$DIR/peer-mmtests.pairs" >"$DIR/peer-mmtests.out" 2>"$DIR/peer-mmtests.err" ||
		{ tail -3 "$DIR/peer-mmtests.err" >&2; die "peers: extract-mmtests.pl could not be run"; }
	p_peer_s=$(peer_secs "$DIR/peer-mmtests.err")
	# "RESULTS PAIRS-WITHOUT FIRST-WITHOUT": one result line (label,
	# iteration, sample, seconds) per file is what it prints for hackbench
	# shellcheck disable=SC2046
	set -- $(awk '
		function done_pair() { if (!ok && bad == "") bad = p; if (!ok) none++ }
		/^== / { if (p != "") done_pair(); p = substr($0, 4); sub(/ /, ":", p); ok = 0; next }
		NF == 4 && $4 ~ /^[0-9.]+$/ { ok = 1; results++ }
		END { if (p != "") done_pair(); print results + 0, none + 0, bad }' "$DIR/peer-mmtests.out")
	{ [ "$2" -eq 0 ] && [ "$1" -eq "$p_n" ]; } || { grep -v '^rusage: ' "$DIR/peer-mmtests.err" | head -3 >&2
		die "peers: extract-mmtests.pl ($p_extract) printed $1 results for $p_n hackbench files; none for $2 benchmarks${3:+, first $3} (see $DIR/peer-mmtests.out, $DIR/peer-mmtests.err)"; }
	peer_kbench mmtests "$DIR/peer-mmtests.list" hackbench
	# shellcheck disable=SC2034
	peer_mmtests=$(peer_figure "$p_n" "$p_peer_s" "$p_kbench_s")
}
