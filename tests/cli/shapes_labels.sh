#!/bin/bash
# Real-post shapes (tests/realposts): label lines, headings and sentences
# that name the variant of the output after them, up to the next such
# line; boxed pastes; what is not a label.  Each input is written for its
# shape in tests/data/shapes/labels/.
. tests/lib.sh
D=tests/data/shapes/labels
vals() {  # file -> "variant=value" of its runs' time/elapsed/cache-misses, in order
	export KBENCH_DB="$TMP/$(basename "$1" .txt).db"
	"$KB" import "$1" > "$TMP/$(basename "$1").out" 2>&1 || echo "import failed: $(cat "$TMP/$(basename "$1").out")"
	sql "select variant || '=' || printf('%.12g', value) from samples_v where metric in ('time', '$2') order by run_id" | tr '\n' ' '
}
means() {  # file -> "variant=mean" of its summaries of metric $2, in order (perf stat -r's means)
	export KBENCH_DB="$TMP/$(basename "$1" .txt).db"
	"$KB" import "$1" > "$TMP/$(basename "$1").out" 2>&1 || echo "import failed: $(cat "$TMP/$(basename "$1").out")"
	sql "select v.name || '=' || printf('%.12g', s.mean) from summary s join variant v on v.id = s.variant_id
	     where s.metric = '$2' order by s.id" | tr '\n' ' '
}

check_eq "Without the patch: / With the patch: name the blocks after them" \
	"$(vals $D/with-without.txt time)" \
	"Without the patch=3.12 Without the patch=3.18 With the patch=2.91 With the patch=2.95 "
check_eq "* Before * names both perf stat blocks under it, * After * the next" \
	"$(means $D/before-after-perfstat.txt elapsed)" \
	"Before=11.627897174 Before=4.627897174 After=11.504999837 "
check_eq "... and the variants can be compared by those names" \
	"$(KBENCH_DB="$TMP/before-after-perfstat.db" "$KB" compare --baseline Before --variants Before,After --bench perf-stat --metric elapsed --format json |
	   python3 -c 'import json,sys; print(" ".join("%s:%.2f" % (r["variant"], r["change_pct"]) for r in json.load(sys.stdin)["rows"] if r["change_pct"] is not None))')" \
	"After:-1.06"
check_eq "a sentence names its side (before this patch), a box edge is undone, Config=n is a kernel" \
	"$(vals $D/sentence-box-config.txt time)" \
	"before this patch=4.12 with this patch=4.31 Config=n=3 Config=y=3.1 "
check_eq "underlined (3.14-rc6), '#'-framed v5.16-rc8 and -fast-headers-v2" \
	"$(vals $D/underlined-and-marked.txt time)" \
	"3.14-rc6=2 3.14-rc6 with fix=1.5 v5.16-rc8=5 -fast-headers-v2=4 "
check_eq "'X wrote:', 'Here are the results:', 'Try calling:', 'Ebizzy results' and an emphasis name no variant" \
	"$(vals $D/not-labels.txt time)" \
	"not-labels=2 not-labels=2.1 within the default container=2.3 not-labels=2.4 "
check_eq "... and the blocks nothing named stay apart, by their headings or where they are" \
	"$(KBENCH_DB="$TMP/not-labels.db" sql "select group_concat(config, ' ') from (select config from runs_v where variant = 'not-labels' order by run_id) q")" \
	"groups=10,impl=legacy,label=Here are the results,tasks=400 groups=10,impl=legacy,label=line 14,tasks=400 groups=10,impl=legacy,label=Ebizzy results,tasks=400"
check_eq "list items name variants, an underlined build name too; cyclictest lines and a mailer's separator name none" \
	"$(vals $D/bullets-builds.txt time)" \
	"your patch=1.1 my patch=1.2 bzImage_cgroups_preempt=14.94 "
check_eq "GNU time -f lines are read with the format the post's command line states, under its kernel line" \
	"$(KBENCH_DB="$TMP/tf.db" "$KB" import $D/time-format-stated.txt >/dev/null 2>&1;
	   KBENCH_DB="$TMP/tf.db" sql "select variant || ' ' || benchmark || ' ' || config || ' ' || metric || '=' || printf('%.10g', value) from samples_v where metric in ('elapsed', 'voluntary_cs') order by run_id, metric" | tr '\n' ';')" \
	"3.9.0 autonuma test=numa01 elapsed=1407.69;3.9.0 autonuma test=numa01 voluntary_cs=36128;3.9.0 autonuma test=numa01 elapsed=1401.02;3.9.0 autonuma test=numa01 voluntary_cs=36001;"
check_eq "the issue's label shapes: 'Hackbench, after:', '=== patched (v3 series)', 'old allocator:', an underlined Stock, 'rc4 plus the fix:', a line alone" \
	"$(vals $D/issue-shapes.txt time)" \
	"before=3.12 after=2.91 vanilla=5.1 patched (v3 series)=4.9 old allocator=7.1 allocator with per-node lists=6.9 Stock=9.1 rc4 plus the fix=8.7 Without this change=11 "
check_eq "a label names blocks at its own quoting depth; an underlined 'tip: schedutil:' is a heading" \
	"$(vals $D/quote-depth.txt time)" \
	"Before=3.1 After=3 quote-depth=2 tip: schedutil=5.1 tip+patch: schedutil=5 "
check_eq "a sentence leading into a list names nothing; a commit line, 'this patch on top X' and 'zone reclaiming on:' do" \
	"$(vals $D/sentences-commits.txt time)" \
	"sentences-commits=3 a2e90611b9f4 - sched/fair: Remove capacity inversion detection=2.5 this patch on top 829c1651e9c4=2.4 zone reclaiming on=2.3 Without a temp buffer=4 With this patch=3.8 "
export KBENCH_DB="$TMP/explain.db"
check_status "import --explain says which label line named a block" 0 \
	"$KB" import --explain $D/with-without.txt
check_grep "... 'label line 10 names it'" "variant With the patch: label line 10 names it" "$TMP/.out"

# Options before the verb, as git's -C.
export KBENCH_DB="$TMP/unused.db"
check_status "kbench --db PATH import" 0 "$KB" --db "$TMP/global.db" import $D/with-without.txt
check_eq "... imports into PATH" "$(KBENCH_DB="$TMP/global.db" sql "select count(*) from run")" "4"
check_status "kbench -q --db=PATH import" 0 "$KB" -q --db="$TMP/global.db" import $D/with-without.txt
check_status "kbench --db PATH alone is an error" 2 "$KB" --db "$TMP/global.db"
check_grep "... that says there is no verb" "no verb" "$TMP/.out"
# (the PostgreSQL pass's wrapper makes a store for \$KBENCH_DB whatever the verb is given)
[ -n "${KBENCH_PG_URI:-}" ] ||
	check_eq "nothing was written to \$KBENCH_DB" "$(test -e "$TMP/unused.db" && echo exists || echo none)" "none"

# The mail a reply quotes labels none of the reply's blocks: the quoted
# changelog's "> Signed-off-by: ..." over "> ---" (an underline by its
# look) is not the label of the reply's schbench block below; the
# reply's own sentence is (tests/realposts/703 had the quoted line).
F=tests/data/schbench/rec-schbench-cur-m1-t2-r6-i2.txt
{ printf 'From: a@b\nSubject: Re: x\nMessage-ID: <q@x>\n\n> A patch.\n>\n> Signed-off-by: Someone <s@x>\n> ---\n\nTwo runs of the same kernel gave these.\n\n'
  cat "$F"; printf '\nAnd then, rebooting and running it once more, this:\n\n'; cat "$F"; } > "$TMP/quotedlabel.mail"
export KBENCH_DB="$TMP/quotedlabel.db"
"$KB" import "$TMP/quotedlabel.mail" > /dev/null 2>&1
check_eq "a quoted Signed-off-by line is no label of the reply's block" \
	"$(sql "select count(*) from samples_v where config like '%Signed-off-by%'")" 0

# "echo [NO_]FEATURE > .../sched/features" (or sched_features, behind a
# prompt) right above a run: the scheduler feature off or on is its side,
# named as written, up to the next label; another echo is no side.
check_eq "a sched feature echo names the run below it" \
	"$(vals $D/sched-feature-echo.txt time)" \
	"NO_TOY_FEATURE=2.5 TOY_FEATURE=2.4 OTHER_FEATURE=2.3 OTHER_FEATURE=2.35 "
check_eq "... and the echo of another setting is a label of the config" \
	"$(KBENCH_DB="$TMP/sched-feature-echo.db" sql "select count(*) from runs_v where config like '%label=echo 1 > /proc/sys/kernel/sched_schedstats%'")" 1
