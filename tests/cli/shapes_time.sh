#!/bin/bash
# Real-post shapes of GNU time output: an author's remark written inside a
# -v report is left out, the report stays one run.
. tests/lib.sh
D=tests/data/shapes/time
check_status "a -v report with a remark inside imports" 0 "$KB" import $D/verbose-remark.txt
check_eq "... as one run of its label's variant, every field kept" \
	"$(sql "select variant || ' ' || metric || '=' || printf('%.10g', value) from samples_v where metric in ('elapsed', 'max_rss_kb', 'voluntary_cs') order by metric")" \
	"$(printf '%s\n' "with the vanilla kernel elapsed=76" "with the vanilla kernel max_rss_kb=2120988" "with the vanilla kernel voluntary_cs=49485")"
check_eq "... one run" "$(sql "select count(*) from run")" 1
check_status "import --explain" 0 "$KB" import --explain $D/verbose-remark.txt
check_grep "... says the remark was left out" "is the author's remark: not a field" "$TMP/.out"

# The same line twice in a row is the same result measured twice, not a
# re-quoted copy: every run is kept.
export KBENCH_DB="$TMP/repeated.db"
check_status "runs that repeat a line import" 0 "$KB" import $D/repeated-runs.txt
check_eq "... every run kept, under '1)Before' / '2)After'" \
	"$(sql "select variant || ':' || count(*) from runs_v group by variant order by variant")" \
	"$(printf '%s\n' "After:5" "Before:2")"
