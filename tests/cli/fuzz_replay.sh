#!/bin/bash
# The fuzz target's committed corpus (tests/fuzz/corpus) and every past
# crash input (tests/fuzz/crashes), replayed through the same
# bytes-to-records path under ASan+UBSan (build/chk/replay, the harness
# without libFuzzer).  A crash fails the test with the input named.
. tests/lib.sh

REPLAY=$KB_BIN_DIR/replay
ncorpus=$(find tests/fuzz/corpus -type f | wc -l)
if [ "$ncorpus" -ge 50 ]; then pass "corpus has $ncorpus seeds"; else fail "corpus has at least 50 seeds" "found $ncorpus"; fi
check "corpus replays clean" "$REPLAY" tests/fuzz/corpus
check_grep "every corpus file was run" "^replay: $ncorpus inputs" "$TMP/.out"
check "past crash inputs replay clean" "$REPLAY" tests/fuzz/crashes
