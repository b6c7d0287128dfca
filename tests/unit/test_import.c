/* The import pipeline (import/): the option checks, the prepare stage on
 * real samples with --set and --variant-prefix, mail messages, and the
 * pipe over a small directory, seen through the events it sends. */
#include "unit.h"
#include "fixture.h"
#include "../../core/buf.h"
#include "../../db/db.h"
#include "../../import/pipe.h"
#include "../../import/prepare.h"
#include "../../import/source.h"
#include "../../ingest/mail.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* samples/seeds/004_...: one numa_test run of 5 samples. */
#define SEED_ONE_RUN "seeds/004_6cdb76245787edd0.txt"

static void sample_path(char *out, size_t cap, const char *rel)
{
	snprintf(out, cap, "%s/%s", unit_samples_dir(), rel);
}

static int has_config(const struct rec_run *r, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < r->nconfig; i++)
		if (strcmp(r->config[i].key, key) == 0 && strcmp(r->config[i].value, value) == 0)
			return 1;
	return 0;
}

TEST(import_opts_check_fills_in_and_refuses)
{
	const char *good[] = { "runs=3", "tasks=8" }, *bad[] = { "tasks=many" };
	struct import_opts o;
	struct buf msg = BUF_INIT;

	memset(&o, 0, sizeof(o));
	o.set = good;
	o.nset = 2;
	o.layout_name = "lkp";
	CHECK_INT(import_opts_check(&o, &msg), 0);
	CHECK_INT(o.runs, 3);
	CHECK_INT(o.layout, LAYOUT_LKP);
	o.set = bad;
	o.nset = 1;
	CHECK_INT(import_opts_check(&o, &msg), -1);
	CHECK_STR(buf_str(&msg), "--set tasks needs a positive whole number, not 'many'");
	buf_reset(&msg);
	o.nset = 0;
	o.layout_name = "tree";
	CHECK_INT(import_opts_check(&o, &msg), -1);
	CHECK_STR(buf_str(&msg), "unknown layout 'tree' (mmtests, lkp or none)");
	buf_release(&msg);
}

TEST(import_source_names)
{
	char *n = import_source_name("dir/003_7caa478a1fca98f9.txt.gz");

	CHECK_STR(n, "003_7caa478a1fca98f9");
	free(n);
	n = import_source_name("-");
	CHECK_STR(n, "");
	free(n);
	n = import_mail_label("Erich Focht <efocht@ess.nec.de>", "2002-10-07T10:00:00Z", NULL, "x");
	CHECK_STR(n, "Focht-2002-10-07");
	free(n);
}

TEST(import_prepare_seed_with_set_and_prefix)
{
	const char *set[] = { "note=unit" };
	struct import_opts o;
	struct import_item *it;
	struct buf data = BUF_INIT, msg = BUF_INIT;
	struct kb_err err;
	char path[1024], sha[65];
	size_t i;

	sample_path(path, sizeof(path), SEED_ONE_RUN);
	kb_err_clear(&err);
	CHECK_INT(import_read_source(path, &data, &err), 0);
	memset(&o, 0, sizeof(o));
	o.set = set;
	o.nset = 1;
	o.variant_prefix = "P-";
	o.layout = LAYOUT_NONE;
	CHECK_INT(import_opts_check(&o, &msg), 0);
	it = import_prepare(&o, path, &data, 0);
	CHECK_INT(it->kind, IMPORT_READY);
	CHECK_STR(buf_str(&it->fmt), "numa_test");
	CHECK_INT(it->batch.nruns, 1);
	CHECK_INT(it->bytes, data.len);
	for (i = 0; i < it->batch.nruns; i++) {
		CHECK_INT(it->batch.runs[i]->nsamples, 5);
		CHECK(has_config(it->batch.runs[i], "note", "unit"));
		CHECK(strstr(it->batch.runs[i]->config_str, "note=unit") != NULL);
		if (it->batch.runs[i]->variant)
			CHECK(strncmp(it->batch.runs[i]->variant, "P-", 2) == 0);
	}
	/* the runs nothing names are the file's, prefixed; the labels are
	 * global (the user named them) */
	CHECK_STR(it->imp.variant_fallback, "P-004_6cdb76245787edd0");
	CHECK_STR(it->imp.scope_label, "004_6cdb76245787edd0");
	CHECK_INT(it->imp.global_labels, 1);
	import_source_identity(LAYOUT_NONE, path, &data, sha);
	CHECK_STR(it->imp.sha256, sha);
	CHECK_INT(it->imp.size, (long long)data.len);
	import_item_free(it);
	buf_release(&data);
	buf_release(&msg);
}

TEST(import_prepare_explain_stores_nothing)
{
	struct import_opts o;
	struct import_item *it;
	struct buf data = BUF_INIT;
	struct kb_err err;
	char path[1024];

	sample_path(path, sizeof(path), SEED_ONE_RUN);
	kb_err_clear(&err);
	CHECK_INT(import_read_source(path, &data, &err), 0);
	memset(&o, 0, sizeof(o));
	o.explain = 1;
	it = import_prepare(&o, path, &data, 0);
	CHECK_INT(it->kind, IMPORT_EXPLAINED);
	CHECK(it->explained && strstr(it->explained, "numa_test (score") != NULL);
	import_item_free(it);
	buf_release(&data);
}

TEST(import_prepare_mbox_messages)
{
	struct import_opts o;
	struct buf data = BUF_INIT;
	struct kb_err err;
	struct mail_mbox m;
	const char *msg;
	size_t len, index = 0, ready = 0;
	long line;
	char path[1024];

	sample_path(path, sizeof(path), "mail/lkml-2002-10-numa-scheduler.mbox.gz");
	kb_err_clear(&err);
	CHECK_INT(import_read_source(path, &data, &err), 0);
	CHECK(mail_is_mbox(buf_str(&data), data.len));
	memset(&o, 0, sizeof(o));
	o.variant_prefix = "M-";
	mail_mbox_init(&m, data.data, data.len);
	while (mail_mbox_next(&m, &msg, &len, &line) == 0) {
		struct import_item *it = import_prepare_message(&o, path, msg, len, 1, line, ++index);

		CHECK_INT(it->mail, 1);
		CHECK(strncmp(it->path, path, strlen(path)) == 0 && it->path[strlen(path)] == '#');
		CHECK(it->kind == IMPORT_READY || it->kind == IMPORT_SKIPPED);
		if (it->kind == IMPORT_READY) {
			ready++;
			CHECK(it->imp.mail_from != NULL);
			CHECK(strncmp(it->imp.variant_fallback, "M-", 2) == 0);
		}
		import_item_free(it);
	}
	CHECK(index > 1);
	CHECK(ready > 0);
	buf_release(&data);
}

/* What the pipe said, as a test sees it. */
struct heard {
	int stored, failed, already, other, progress;
	size_t runs, samples;
	char failed_file[1024];
	long failed_line;
	size_t total_files;
};

static void heard_said(void *ctx, const struct import_event *e)
{
	struct heard *h = ctx;

	switch (e->kind) {
	case IMPORT_EV_STORED:
		h->stored++;
		h->runs += e->res->runs;
		h->samples += e->res->samples;
		break;
	case IMPORT_EV_FAILED:
		h->failed++;
		snprintf(h->failed_file, sizeof(h->failed_file), "%s", e->err->file);
		h->failed_line = e->err->line;
		break;
	case IMPORT_EV_ALREADY:
		h->already++;
		break;
	default:
		h->other++;
		break;
	}
}

static void heard_progress(void *ctx, const struct import_totals *t)
{
	struct heard *h = ctx;

	h->progress++;
	h->total_files = t->total_files;
}

/* Copy the seed to dir/a.txt and a text with invalid UTF-8 on its third
 * line to dir/b.txt. */
static void two_files(const char *dir)
{
	char from[1024], to[1024];
	size_t len = 0;
	char *text;
	FILE *f;

	sample_path(from, sizeof(from), SEED_ONE_RUN);
	text = unit_read_file(from, &len);
	CHECK(text != NULL);
	snprintf(to, sizeof(to), "%s/a.txt", dir);
	f = fopen(to, "wb");
	CHECK(f != NULL);
	if (f && text) {
		CHECK_INT(fwrite(text, 1, len, f), len);
		fclose(f);
	}
	free(text);
	snprintf(to, sizeof(to), "%s/b.txt", dir);
	f = fopen(to, "wb");
	CHECK(f != NULL);
	if (f) {
		fputs("hackbench\nTime: 1.0\n\xff bad\n", f);
		fclose(f);
	}
}

TEST(import_pipe_stores_one_and_fails_the_other)
{
	char dbdir[] = "/tmp/kbench-unit-XXXXXX", in[] = "/tmp/kbench-unit-in-XXXXXX";
	char dbpath[256], bpath[512];
	const char *args[1];
	struct import_opts o;
	struct import_totals t;
	struct heard h;
	const struct import_events ev = { &h, heard_said, heard_progress };
	struct db *db = NULL;
	struct kb_err err;

	CHECK(unit_tmpdb(dbdir, dbpath, sizeof(dbpath)) == 0);
	CHECK(mkdtemp(in) != NULL);
	two_files(in);
	kb_err_clear(&err);
	CHECK(db_open(&db, dbpath, &err) == 0);
	if (!db)
		return;
	memset(&o, 0, sizeof(o));
	memset(&t, 0, sizeof(t));
	memset(&h, 0, sizeof(h));
	args[0] = in;
	import_pipe_run(db, &o, &ev, args, 1, &t);
	CHECK_INT(h.stored, 1);
	CHECK_INT(h.failed, 1);
	CHECK_INT(h.other, 0);
	CHECK_INT(h.runs, 1);
	CHECK_INT(h.samples, 5);
	snprintf(bpath, sizeof(bpath), "%s/b.txt", in);
	CHECK_STR(h.failed_file, bpath);
	CHECK_INT(h.failed_line, 3);
	/* counted first for the progress line, then a call per file */
	CHECK_INT(h.total_files, 2);
	CHECK_INT(h.progress, 2);
	CHECK_INT(t.files, 2);
	CHECK_INT(t.failed, 1);
	CHECK_INT(t.runs, 1);
	CHECK_INT(t.samples, 5);
	CHECK_INT(t.disk_files, 2);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM source"), 1);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM run"), 1);

	/* the same again: the stored file is already there */
	memset(&t, 0, sizeof(t));
	memset(&h, 0, sizeof(h));
	import_pipe_run(db, &o, &ev, args, 1, &t);
	CHECK_INT(h.already, 1);
	CHECK_INT(h.failed, 1);
	CHECK_INT(h.stored, 0);
	CHECK_INT(t.already, 1);
	db_close(db);
	unit_tmpdb_remove(dbdir);
	snprintf(bpath, sizeof(bpath), "%s/a.txt", in);
	unlink(bpath);
	snprintf(bpath, sizeof(bpath), "%s/b.txt", in);
	unlink(bpath);
	rmdir(in);
}
