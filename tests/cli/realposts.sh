#!/bin/bash
# The real-post measure: each post of tests/realposts imported alone into
# a fresh store; every hand-read value and comparison checked.  Fails on
# any wrong value, and on fewer right values or comparisons reached than
# tests/realposts/FLOOR records.  (The scorer reads SQLite stores: the
# PostgreSQL pass leaves it out; copy.sh and pg_*.sh cover that backend.)
. tests/lib.sh
if [ -n "${KBENCH_PG_URI:-}" ]; then exit 0; fi
scripts/realposts --kb "$KB" --verbose --floor tests/realposts/FLOOR > "$TMP/rp.out" 2>&1; rc=$?
tally=$(grep '^realposts: posts=' "$TMP/rp.out")
check_eq "realposts ran every post" "$(test -n "$tally" && echo yes || echo "no tally: $(tail -3 "$TMP/rp.out")")" yes
wrong=$(echo "$tally" | sed -n 's/.* wrong=\([0-9]*\).*/\1/p')
check_eq "no value is stored wrong ($tally)" "$wrong" "0"
check_status "right values and comparisons at or above tests/realposts/FLOOR" 0 test "$rc" = 0
[ "$rc" = 0 ] || grep -E ': wrong:|FAIL' "$TMP/rp.out" | head -40
