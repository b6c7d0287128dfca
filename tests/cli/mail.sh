#!/bin/bash
# Mail threads: an mbox (plain, gzipped), a Maildir; MIME decoding; one
# source per message with its author, date and subject.
. tests/lib.sh

QP="$SAMPLES/numatest/lkml_20021009_hohnbaum_numa_test.41_rev1_attachment_N4-N24.qp.txt"
DECODED="$SAMPLES/numatest/lkml_20021009_hohnbaum_numa_test.41_rev1_attachment_N4-N24.decoded.txt"
# The thread lives in a directory named seeds, like the seed files, so a
# run whose variant comes from the directory gets the same name both ways.
mkdir -p "$TMP/seeds" "$TMP/one/seeds"
check "the seed thread is written" python3 tests/tools/mkmbox.py seeds "$SHARED/seeds" "$QP" "$TMP/seeds/thread.mbox"
check_eq "it holds 8 messages" "$(grep -c '^From ' "$TMP/seeds/thread.mbox")" "8"
check_grep "seed 001 is base64-encoded" '^Content-Transfer-Encoding: base64' "$TMP/seeds/thread.mbox"

# Every seed, and the attachment as the file it was, one by one.
ONE="$TMP/one.db"
cp "$DECODED" "$TMP/one/seeds/numa_test.41_rev1"
for f in "$SHARED"/seeds/*.txt "$TMP/one/seeds/numa_test.41_rev1"; do
	KBENCH_DB=$ONE "$KB" import "$f" > /dev/null || fail "seed $f imports one by one"
done

check_status "the thread imports" 0 "$KB" import "$TMP/seeds/thread.mbox"
cp "$TMP/.out" "$TMP/first.out"
check_grep "... 6 messages imported, 2 skipped" '^6 files \(6 mail messages\): 36 runs, 626 samples, 313 summaries; 0 already imported, 0 failed, 2 skipped' "$TMP/first.out"
check_grep "... the HTML-only message is skipped with a note" 'thread.mbox#20021009190144.GA4410@sgi.com: line [0-9]+: HTML part \(text/html\) skipped' "$TMP/first.out"
check_grep "... and as a message with no text" 'thread.mbox#20021009190144.GA4410@sgi.com: skipped, no text part' "$TMP/first.out"
check_grep "... a reply with no numbers is skipped" 'thread.mbox#200210100915.02210.efocht@ess.nec.de: skipped, no benchmark output' "$TMP/first.out"

# A post's own variant names are the same both ways; shown as name@post
# they differ (the post is a file name one way, its author and day the
# other), so the bare names are compared, and a post whose text names no
# variant is named after itself either way (a global name: the file's or
# the message's).
bare="(select case when v.scope = '' then '(the post itself)' else v.name end from variant v where v.id = x.variant_id)"
samples_q="select $bare, m.name, r.benchmark, r.config, r.iteration, s.job, s.metric, s.value, s.unit from sample_all s join run r on r.id = s.run_id join run x on x.id = r.id left join machine m on m.id = r.machine_id order by 1,2,3,4,5,6,7,8"
summary_q="select $bare, m.name, x.benchmark, x.config, x.metric, x.mean, x.sd, x.n, x.min, x.max, x.unit from summary x left join machine m on m.id = x.machine_id order by 1,2,3,4,5,6,7,8"
runs_q="select $bare, x.benchmark, x.config, x.iteration, x.status from run x order by 1,2,3,4,5"
check_eq "every sample as when the seeds are imported one by one" "$(sql "$samples_q" | md5sum)" "$(sqlite3 "$ONE" "$samples_q" | md5sum)"
check_eq "every summary likewise" "$(sql "$summary_q" | md5sum)" "$(sqlite3 "$ONE" "$summary_q" | md5sum)"
check_eq "every run likewise" "$(sql "$runs_q" | md5sum)" "$(sqlite3 "$ONE" "$runs_q" | md5sum)"
check_eq "seed 001's 18 runs and 111 summaries" \
	"$(sql "select (select count(*) from run r where r.source_id = s.id) || ',' || (select count(*) from summary m where m.source_id = s.id) from source s where path like '%#1034008671.1581.24.camel@dyn9-47-17-164.beaverton.ibm.com'")" "18,111"
check_near "the attachment's tasks=12 elapsed time" "$(sql "select value from samples_v where source like '%#1034186235.1592.48.camel@%' and config = 'disturb=hackbench:20,tasks=12' and metric = 'elapsed'")" 91.51 1e-9
check_eq "one source per message with a body" "$(sql "select count(*) from source")" "6"

# Author, date and subject with the source.
check_eq "From, Date, Subject are stored (encoded word decoded)" \
	"$(sql "select mail_from || '|' || mail_date || '|' || mail_subject from source where message_id = '20130627145305.GA1398@linux.vnet.ibm.com'")" \
	"Srikar Dronamraju <srikar@linux.vnet.ibm.com>|2013-06-27 20:23:05 +0530|Re: [PATCH 0/6] Basic scheduler support for automatic NUMA balancing"
"$KB" ls > "$TMP/ls.out" 2>&1
check_grep "ls shows author, day and subject" '^ +Erich Focht, 2002-10-06, NUMA schedulers tests$' "$TMP/ls.out"
check_grep "... of the attachment's post too" '^ +Michael Hohnbaum, 2002-10-09, numa_test results for 2.5.41, node affine rev 1$' "$TMP/ls.out"
run=$(sql "select min(run_id) from runs_v where source like '%#Pine.LNX.4.21.0203151001310.2105-100000@sx6.ess.nec.de'")
"$KB" show "$run" > "$TMP/show.out" 2>&1
check_grep "show names the post" '^posted by Erich Focht, 2002-03-15, Re: Node affine NUMA scheduler$' "$TMP/show.out"
check "report --format text" "$KB" report --format text -o "$TMP/report.txt"
check_grep "the report lists the post" 'Michael Hohnbaum, 2002-10-07, Re: \[RFC\] NUMA schedulers' "$TMP/report.txt"

# Twice: nothing changes.  A gzipped copy is the same messages.
before=$(counts)
check_status "the thread again" 0 "$KB" import "$TMP/seeds/thread.mbox"
check_grep "... all 6 already imported" '6 already imported, 0 failed' "$TMP/.out"
check_eq "... and no table changes" "$(counts)" "$before"
gzip -c "$TMP/seeds/thread.mbox" > "$TMP/seeds/thread.mbox.gz"
check_status "the gzipped thread" 0 "$KB" import "$TMP/seeds/thread.mbox.gz"
check_grep "... is recognised message by message" '6 already imported, 0 failed' "$TMP/.out"
check_eq "... and changes nothing" "$(counts)" "$before"
export KBENCH_DB="$TMP/gz.db"
check_status "the gzipped thread into a fresh store" 0 "$KB" import "$TMP/seeds/thread.mbox.gz"
check_eq "... stores the same samples" "$(sql "$samples_q" | md5sum)" "$(sqlite3 "$ONE" "$samples_q" | md5sum)"
check_eq "... and summaries" "$(sql "$summary_q" | md5sum)" "$(sqlite3 "$ONE" "$summary_q" | md5sum)"

# A Maildir of the same messages: the same sources (identity is the decoded message).
check "the thread as a Maildir" python3 tests/tools/mkmbox.py maildir "$SHARED/seeds" "$QP" "$TMP/mdir/seeds"
touch "$TMP/mdir/seeds/tmp/1034999999.partial"
check_status "the Maildir imports into the gz store" 0 "$KB" import "$TMP/mdir/seeds"
check_grep "... every message already imported" '6 already imported, 0 failed, 2 skipped' "$TMP/.out"
check_eq "... tmp/ is not read" "$(grep -c partial "$TMP/.out")" "0"
export KBENCH_DB="$TMP/maildir.db"
check_status "the Maildir into a fresh store" 0 "$KB" import "$TMP/mdir/seeds"
check_eq "... stores the same samples" "$(sql "$samples_q" | md5sum)" "$(sqlite3 "$ONE" "$samples_q" | md5sum)"
check_grep "... sources named file#Message-ID" "mdir/seeds/cur/1034000004.M4P4242.box:2,S#Pine.LNX.4.21.0203151001310.2105-100000@sx6.ess.nec.de" <(sql "select path from source")

# Bad mail: an unknown charset names the message's line; the others import.
export KBENCH_DB="$TMP/bad.db"
{
	printf 'From a@b Mon Oct  7 11:00:00 2002\nFrom: A <a@b>\nSubject: one\nMessage-ID: <1@b>\nContent-Type: text/plain; charset=x-no-such-charset\n\nTime: 5.54\n\n'
	printf 'From a@b Mon Oct  7 11:00:00 2002\nFrom: A <a@b>\nSubject: two\nMessage-ID: <2@b>\n\nRunning in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\nEach sender will pass 100 messages of 100 bytes\nTime: 0.454\n'
} > "$TMP/bad.mbox"
check_status "an mbox with a bad message exits 2" 2 "$KB" import "$TMP/bad.mbox"
check_grep "... names the mbox and the line" "^$TMP/bad.mbox:7: unknown charset x-no-such-charset" "$TMP/.out"
check_eq "... the good message is stored" "$(sql "select path from source")" "$TMP/bad.mbox#2@b"

# A reply that quotes the first post's raw numa_test blocks: the runs are
# stored once, and the reply's line says which message carried them first.
export KBENCH_DB="$TMP/quoted.db"
check "the quoting thread is written" python3 tests/tools/mkmbox.py quoted "$SHARED/seeds" "$QP" "$TMP/quoted.mbox"
check_status "the quoting thread imports" 0 "$KB" import "$TMP/quoted.mbox"
check_grep "... the reply's quoted blocks are recognised as the post's" \
	'#200210100915.02211.efocht@ess.nec.de: numa_test, 0 runs, 0 samples; 5 runs already stored from .*quoted\.mbox#' "$TMP/.out"
check_eq "quoted numa_test runs are stored once" "$(sql "select count(*) from run")" "5"
