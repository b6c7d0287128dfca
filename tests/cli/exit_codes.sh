#!/bin/bash
# kbench regress exit statuses: 0 no regression, 1 regression, 2 error,
# 3 nothing regressed but something inconclusive (--strict only).
. tests/lib.sh

SEED2="$SHARED/seeds/002_c5c123cd839d7edc.txt"
BASE='3.9.0-mainline_v39+()'
check_status "seed 002 imports" 0 "$KB" import "$SEED2"

# 1: numa02 is 64% slower.
check_status "exit 1: a regression (numa02)" 1 "$KB" regress --baseline "$BASE" --bench autonuma --metric elapsed
check_status "exit 1 wins over --strict" 1 "$KB" regress --baseline "$BASE" --bench autonuma --metric elapsed --strict
# numa01 alone: -0.8%, inconclusive (109 runs a side needed).
check_status "exit 0: numa01 alone has no regression" 0 "$KB" regress --baseline "$BASE" --bench autonuma --metric elapsed --config test=numa01
check_grep "numa01 is inconclusive" "^  inconclusive .*numa01 elapsed" "$TMP/.out"
check_status "exit 3: numa01 alone under --strict (inconclusive)" 3 "$KB" regress --baseline "$BASE" --bench autonuma --metric elapsed --config test=numa01 --strict
check_status "exit 3 in JSON too" 3 "$KB" regress --baseline "$BASE" --bench autonuma --metric elapsed --config test=numa01 --strict --format json
check_status "exit 3 in JUnit too" 3 "$KB" regress --baseline "$BASE" --bench autonuma --metric elapsed --config test=numa01 --strict --format junit
# 3 under --strict: a counter of one run a side has no test, so it is
# inconclusive like elapsed would be -- not 'changed' by the size of the change.
check_status "exit 3 under --strict: counters of one run a side are untested" 3 "$KB" regress --baseline "$BASE" --bench perf-stat --metric cs --strict
check_grep "cs is inconclusive" "^  inconclusive .* cs .*\[too_few\]" "$TMP/.out"
check_eq "and not 'changed'" "$(grep -c '^  changed' "$TMP/.out")" "0"
# 2: errors.
check_status "exit 2: unknown baseline" 2 "$KB" regress --baseline nosuch
check_status "exit 2: unknown candidate" 2 "$KB" regress --baseline "$BASE" --candidate nosuch
check_status "exit 2: missing store" 2 "$KB" regress --db "$TMP/none/kbench.db" --baseline "$BASE"
check_status "exit 2: unknown option" 2 "$KB" regress --baseline "$BASE" --frobnicate
check_status "exit 2: bad --test" 2 "$KB" regress --baseline "$BASE" --test ks
check_status "exit 2: bad --alpha" 2 "$KB" regress --baseline "$BASE" --alpha 2
check_status "exit 2: nothing selected" 2 "$KB" regress --baseline "$BASE" --bench nosuch
check_status "exit 2: unwritable --output" 2 "$KB" regress --baseline "$BASE" --output "$TMP/none/x.txt"
