#!/bin/bash
# kbench relabel: every change holds again after import --replace, in the
# order it was made (a rename then a merge of the new name); published
# summaries move with their segment and keep their machine; a change
# that changes nothing says so and records nothing.
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

SEED3="$SHARED/seeds/003_7caa478a1fca98f9.txt"
# Seed 003: a summary table per benchmark (kernbench at lines 44-48,
# numa_test tasks=4 at 50-54, ...; a row per variant: testD7-59,
# ingoD7-59.stats, stock59-stats, 4 metrics each), then four numa_test
# runs of ingoD7-59.stats and stock59-stats.
n_of() { sql "select count(*) from summary_v where $1"; }

# --- a rename, then a merge of the new name, replayed ------------------------
export KBENCH_DB="$TMP/merge.db"
check_status "seed 003 imports" 0 "$KB" import "$SEED3"
check_status "rename testD7-59 to D7" 0 "$KB" relabel rename testD7-59 D7
check_status "merge D7 into ingoD7-59.stats" 0 "$KB" relabel merge D7 ingoD7-59.stats
check_eq "... ingoD7-59.stats holds its 24 summaries and D7's 24" "$(n_of "variant = 'ingoD7-59.stats'")" "48"
check_status "re-import with --replace" 0 "$KB" import --replace "$SEED3"
check_eq "... the merge holds: 48 summaries on ingoD7-59.stats" "$(n_of "variant = 'ingoD7-59.stats'")" "48"
check_eq "... no variant testD7-59 or D7 is left" \
	"$(sql "select count(*) from variant where name in ('testD7-59', 'D7')")" "0"
check_eq "... its kernbench elapsed is the post's 28.96 (testD7-59's row)" \
	"$(sql "select count(*) from summary_v where variant = 'ingoD7-59.stats' and benchmark = 'kernbench'
		and metric = 'elapsed' and abs(mean - 28.96) < 1e-9")" "1"

# --- published summaries move with --segment, and stay moved -----------------
export KBENCH_DB="$TMP/move.db"
check_status "seed 003 imports" 0 "$KB" import "$SEED3"
check_status "a segment holding three variants' rows is not pooled into one" 2 \
	"$KB" relabel move --source "$SEED3" --segment 46 --to D7-kb
check_grep "... saying whose they are and what to do" \
	"summaries of 3 variants \(testD7-59, ingoD7-59.stats, stock59-stats\).*--from V" "$TMP/.out"
check_eq "... nothing moved" "$(n_of "variant = 'D7-kb'"):$(sql "select count(*) from relabel")" "0:0"
check_status "move testD7-59's kernbench row (segment 44-48) to D7-kb" 0 \
	"$KB" relabel move --source "$SEED3" --segment 46 --from testD7-59 --to D7-kb
check_grep "... saying what moved" "^moved 4 summaries to D7-kb$" "$TMP/.out"
check_eq "... its 4 summaries are on D7-kb" "$(n_of "variant = 'D7-kb' and benchmark = 'kernbench'")" "4"
check_eq "... each recorded" "$(sql "select count(*) from relabel where action = 'move'")" "4"
check_eq "... testD7-59 keeps its 20 numa_test summaries" "$(n_of "variant = 'testD7-59'")" "20"
check_status "the runs of a segment and their post's table: segment 117-127 (run 3)" 0 \
	"$KB" relabel move --source "$SEED3" --segment 120 --to stock-moved
check_grep "... one run" "^moved 1 run to stock-moved$" "$TMP/.out"
check_status "the post's machine, for its runs and summaries" 0 "$KB" relabel machine numa4 --source "$SEED3"
check_grep "... saying so" "^put 4 runs and 72 summaries on numa4$" "$TMP/.out"
check_eq "... each summary's change recorded" \
	"$(sql "select count(*) from relabel where action = 'machine' and metric is not null")" "72"
check_status "re-import with --replace" 0 "$KB" import --replace "$SEED3"
check_eq "... the moved summaries are on D7-kb" "$(n_of "variant = 'D7-kb'")" "4"
check_eq "... with the post's 28.96 for elapsed" \
	"$(sql "select count(*) from summary_v where variant = 'D7-kb' and metric = 'elapsed' and abs(mean - 28.96) < 1e-9")" "1"
check_eq "... the moved run is on stock-moved" "$(sql "select count(*) from runs_v where variant = 'stock-moved'")" "1"
check_eq "... every summary is on numa4, as the runs are" \
	"$(n_of "machine = 'numa4'"):$(sql "select count(*) from runs_v where machine = 'numa4'")" "72:4"
check_eq "... and none on no machine" "$(n_of "machine is null")" "0"

# --- a change that changes nothing ---------------------------------------
before=$(sql "select count(*) from relabel")
check_status "moving runs to the variant they are on changes nothing: exit 1" 1 \
	"$KB" relabel move --source "$SEED3" --segment 120 --to stock-moved
check_grep "... and says so" "nothing moved: the 1 run or summary selected is on stock-moved already" "$TMP/.out"
check_status "setting the machine they are on: exit 1" 1 "$KB" relabel machine numa4 --source "$SEED3"
check_grep "... says so" "nothing put: the 76 runs or summaries selected are on numa4 already" "$TMP/.out"
check_eq "... neither recorded anything" "$(sql "select count(*) from relabel")" "$before"
check_status "a move of some already there moves the others" 0 \
	"$KB" relabel move --run "$(sql "select group_concat(run_id) from (select run_id from runs_v where benchmark = 'numa_test' order by run_id) q")" --to stock-moved
check_grep "... and counts both" "^moved 3 runs to stock-moved \(1 was there already\)$" "$TMP/.out"
check_status "a segment with nothing in it is an error" 2 "$KB" relabel move --source "$SEED3" --segment 2 --to x
check_grep "... saying so" "no run or summary in a segment of .*003_7caa478a1fca98f9.txt at line 2" "$TMP/.out"
check_status "a source not stored is an error" 2 "$KB" relabel move --source nosuch.txt --to x
check_grep "... naming it" "no source nosuch.txt" "$TMP/.out"

# --- export honours the selection --------------------------------------------
export KBENCH_DB="$TMP/export.db"
check_status "seed 003 imports" 0 "$KB" import "$SEED3"
csv_rows() { "$KB" export "$@" > "$TMP/x.csv" && python3 -c 'import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1])))))' "$TMP/x.csv"; }
check_eq "export --what summary --metric elapsed: one per variant and config (3 x 6)" \
	"$(csv_rows --what summary --metric elapsed)" "18"
check_eq "... every row is elapsed" "$(python3 -c 'import csv,sys; print(sorted({r["metric"] for r in csv.DictReader(open(sys.argv[1]))}))' "$TMP/x.csv")" "['elapsed']"
check_eq "export --what summary --variants testD7-59 --config tasks=8: its 4 metrics" \
	"$(csv_rows --what summary --variants testD7-59 --config tasks=8)" "4"
check_eq "... testD7-59's tasks=8 elapsed, as posted" \
	"$(python3 -c 'import csv,sys; print([r["mean"] for r in csv.DictReader(open(sys.argv[1])) if r["metric"] == "elapsed"])' "$TMP/x.csv")" "['53.66']"
check_eq "export --what samples --metric elapsed --config tasks=4: one per run (2)" \
	"$(csv_rows --what samples --metric elapsed --config tasks=4)" "2"
check_eq "export --what samples --variants stock59-stats: that variant's samples only" \
	"$(csv_rows --what samples --variants stock59-stats --format csv; python3 -c 'import csv,sys; print(sorted({r["variant"] for r in csv.DictReader(open(sys.argv[1]))}))' "$TMP/x.csv")" \
	"$(sql "select count(*) from samples_v where variant = 'stock59-stats'")
['stock59-stats']"
check_status "export --metric nosuch: an error" 2 "$KB" export --metric nosuch
check_grep "... saying nothing matches" "nothing in the store matches" "$TMP/.out"
check_status "export --what summary --variants stock59-stats --config tasks=3: an error" 2 \
	"$KB" export --what summary --variants stock59-stats --config tasks=3
"$KB" relabel machine numa4 --run 1 > /dev/null
check_eq "export --what samples --machine numa4: run 1's samples only" \
	"$(csv_rows --what samples --machine numa4)" "$(sql "select count(*) from samples_v where run_id = 1")"
check_eq "... --machine unknown: the others" \
	"$(csv_rows --what samples --machine unknown)" "$(sql "select count(*) from samples_v where run_id <> 1")"
check_eq "export --what samples with no selection: every sample" \
	"$(csv_rows --what samples)" "$(sql "select count(*) from samples_v")"
