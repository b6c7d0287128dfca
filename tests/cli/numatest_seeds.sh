#!/bin/bash
# numa_test acceptance: seed 001 imported whole, job tables reprinted,
# seeds 003/004 and the numa_test mail attachment (QP and decoded).
. tests/lib.sh

SEED1="$SAMPLES/seeds/001_84b93bea668f5b54.txt"
check_status "seed 001 imports whole" 0 "$KB" import "$SEED1"
check_eq "variants A-F" "$(sql "select group_concat(name, ' ') from (select name from variant order by name) q")" "A B C D E F"
check_eq "every variant has a description" "$(sql "select count(*) from variant where coalesce(description, '') <> ''")" "6"
check_grep "B keeps its legend text" 'steal' <(sql "select description from variant where name = 'B'")
check_eq "18 numa_test runs (A-F x N=8,16,32)" "$(sql "select count(*) from runs_v where benchmark = 'numa_test'")" "18"
check_eq "configs are tasks=8,16,32" "$(sql "select group_concat(config, ' ') from (select config from run group by config order by min(cast(substr(config, 28) as int))) q")" "disturb=hackbench:20,tasks=8 disturb=hackbench:20,tasks=16 disturb=hackbench:20,tasks=32"

# Printed values, in mail order, against stored ones in run order.
printed() { grep -E "^> $1" "$SEED1" | awk -v f="$2" '{ print $f }'; }
stored() { sql "select value from samples_v where metric = '$1' and job is null order by run_id"; }
check_eq "avg_user equals every printed AverageUserTime" "$(stored avg_user | awk '{ printf "%.2f\n", $1 }')" "$(printed AverageUserTime 3)"
check_eq "elapsed equals every printed ElapsedTime" "$(stored elapsed | awk '{ printf "%.2f\n", $1 }')" "$(printed ElapsedTime 3)"
check_eq "hackbench equals every printed Time" "$(stored hackbench | awk '{ printf "%.3f\n", $1 }')" "$(printed "Running 'hackbench" 9)"

bad=$(sql "select r.run_id from runs_v r where abs((select value from samples_v s where s.run_id = r.run_id and metric = 'avg_user')
	- (select avg(value) from samples_v s where s.run_id = r.run_id and metric = 'user' and job is not null)) > 0.01")
check_eq "avg_user equals the mean of the jobs' user times to 0.01 in every run" "$bad" ""
bad=$(sql "select r.run_id from runs_v r where abs((select value from samples_v s where s.run_id = r.run_id and metric = 'elapsed_minus_hackbench')
	- ((select value from samples_v s where s.run_id = r.run_id and metric = 'elapsed')
	 - (select value from samples_v s where s.run_id = r.run_id and metric = 'hackbench'))) > 1e-9
	or (select count(*) from samples_v s where s.run_id = r.run_id and metric = 'elapsed_minus_hackbench') <> 1")
check_eq "elapsed_minus_hackbench = ElapsedTime - hackbench Time in every run" "$bad" ""
check_near "first A run: E-H = 46.17 - 9.639" "$(sql "select value from samples_v where metric = 'elapsed_minus_hackbench' order by run_id limit 1")" 36.531 1e-9
check_eq "jobs per run: 8+16+32 per variant" "$(sql "select count(*) from job")" "$((6 * 56))"
check_eq "placement rows: 4 nodes per job" "$(sql "select count(*) from placement_v")" "$((6 * 56 * 4))"

# kbench show reprints every job table with the mail's numbers.
norm() { sed -E 's/[[:space:]]+/ /g; s/^ //; s/ $//'; }
grep -E '^> [0-9]+ [0-9. ]+\|' "$SEED1" | sed 's/^> //' | norm > "$TMP/mail.rows"
: > "$TMP/show.rows"
for id in $(sql "select run_id from runs_v order by run_id"); do
	"$KB" show "$id" | grep -E '^ *[0-9]+ +[0-9. ]+\|' | norm >> "$TMP/show.rows"
done
check_eq "kbench show reprints all 336 job rows" "$(wc -l < "$TMP/show.rows")" "336"
if cmp -s "$TMP/mail.rows" "$TMP/show.rows"; then pass "kbench show job rows equal the mail's, row for row"
else fail "kbench show job rows equal the mail's, row for row" "$(diff "$TMP/mail.rows" "$TMP/show.rows" | head -5)"; fi
"$KB" show 1 > "$TMP/show1"
check_grep "show prints the footer as in the mail" '^AverageUserTime 30.47 seconds' "$TMP/show1"
check_grep "show prints the hackbench time" "Time: 9.639" "$TMP/show1"

# Seeds 003 and 004, and the attachment in both encodings.
export KBENCH_DB="$TMP/other.db"
check_status "seed 003 imports" 0 "$KB" import "$SAMPLES/seeds/003_7caa478a1fca98f9.txt"
check_eq "seed 003: D7 tasks=4 job 2 is 58.4/0/0/41.6, main node 0" \
	"$(sql "select group_concat(printf('%.1f', pct), '/') from (select pct from placement_v p join runs_v r using (run_id) where r.config = 'disturb=hackbench:20,tasks=4' and r.iteration = 1 and job = 2 and r.run_id = (select min(id) from run) order by node) q")" "58.4/0.0/0.0/41.6"
check_eq "seed 003: D7 tasks=4 main nodes 0,0,0,0" \
	"$(sql "select group_concat(main_node, ',') from (select distinct job, main_node from placement_v where run_id = (select min(id) from run) order by job) q")" "0,0,0,0"
check_eq "seed 003: stock tasks=8 (no footer) has 8 jobs" \
	"$(sql "select count(*) from job where run_id = (select max(id) from run)")" "8"
check_eq "seed 003: stock tasks=8 job 5 moved from node 0 to 3" \
	"$(sql "select initial_node || '>' || main_node || ' moved=' || moved from job where run_id = (select max(id) from run) and job = 5")" "0>3 moved=1"
check_status "seed 004 (disp layout) imports" 0 "$KB" import "$SAMPLES/seeds/004_6cdb76245787edd0.txt"
check_eq "seed 004: avg_user 28.00 and 4 jobs" \
	"$(sql "select printf('%.1f', value) from samples_v where source like '%004_%' and metric = 'avg_user'"):$(sql "select count(*) from job j join run r on r.id = j.run_id join source s on s.id = r.source_id where s.path like '%004_%'")" "28.0:4"
check_eq "seed 004: job 2 ran 100% on node 3" \
	"$(sql "select group_concat(printf('%.1f', pct), '/') from (select pct from placement p join run r on r.id = p.run_id join source s on s.id = r.source_id where s.path like '%004_%' and p.job = 2 order by node) q")" "0.0/0.0/0.0/100.0"
Q="$SAMPLES/numatest/lkml_20021009_hohnbaum_numa_test.41_rev1_attachment_N4-N24.qp.txt"
D="$SAMPLES/numatest/lkml_20021009_hohnbaum_numa_test.41_rev1_attachment_N4-N24.decoded.txt"
MAIN_DB=$KBENCH_DB
export KBENCH_DB="$TMP/decoded.db"
check_status "numa_test attachment (decoded) imports on its own" 0 "$KB" import --variant decoded "$D"
d=$(sql "select config, job, node, pct from placement_v order by 1, 2, 3")
export KBENCH_DB=$MAIN_DB
check_status "numa_test attachment (quoted-printable) imports" 0 "$KB" import --variant qp "$Q"
q=$(sql "select config, job, node, pct from placement_v where variant = 'qp' order by 1, 2, 3")
check_eq "QP and decoded attachments give the same placement" "$q" "$d"
# Both copies in one store: the same output is stored once (5 runs, not 10).
check_status "the decoded copy imports after the QP one" 0 "$KB" import --variant decoded "$D"
check_grep "... adding no run: its runs are already stored" \
	"0 runs, 0 samples; 5 runs already stored from .*N4-N24\.qp\.txt" "$TMP/.out"
check_eq "... so the store holds 5 attachment runs" \
	"$(sql "select count(*) from runs_v where variant in ('qp', 'decoded')")" 5
check_eq "... and remembers which source carried them first" \
	"$(sql "select count(*) from segment g join source s on s.id = g.source_id where s.path like '%decoded%' and g.copy_of is not null")" \
	"$(sql "select count(*) from segment g join source s on s.id = g.source_id where s.path like '%qp.txt'")"
check_eq "attachment: tasks 4, 8, 12, 16, 24" "$(sql "select group_concat(config, ' ') from (select config from runs_v where variant = 'qp' group by config order by min(run_id)) q")" "disturb=hackbench:20,tasks=4 disturb=hackbench:20,tasks=8 disturb=hackbench:20,tasks=12 disturb=hackbench:20,tasks=16 disturb=hackbench:20,tasks=24"
check_eq "attachment tasks=4 job 3: 100% node 3, user 41.32" \
	"$(sql "select main_node || ' ' || user_time from job j join runs_v r using (run_id) where r.variant = 'qp' and r.config = 'disturb=hackbench:20,tasks=4' and j.job = 3")" "3 41.32"
if on_sqlite; then check_eq "every stored row has its parent (foreign keys)" "$(sql "pragma foreign_key_check")" ""; fi
