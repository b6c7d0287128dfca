/* fixture.c - the shared parse fixture (fixture.h). */
#include "fixture.h"
#include "unit.h"
#include "../../core/sha256.h"
#include "../../db/db_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int unit_doc_parse(struct unit_doc *f, const char *name, const char *text, size_t len,
		   const struct ingest_opts *opts, const struct ingest_parser *only)
{
	memset(f, 0, sizeof(*f));
	rec_batch_init(&f->batch);
	f->loaded = 1;
	f->rc = ingest_doc_load(&f->doc, name, text, len, &f->err);
	if (f->rc == 0)
		f->rc = ingest_parse_doc(&f->doc, opts, only, &f->batch, &f->res, &f->err);
	return f->rc;
}

void unit_doc_load_at(const char *file, int line, struct unit_doc *f, const char *rel,
		      const char *text, const struct ingest_opts *opts)
{
	char path[2048];
	char *data = NULL;
	size_t len;

	if (rel) {
		snprintf(path, sizeof(path), "%s/%s", unit_shared_dir(), rel);
		data = unit_read_file(path, &len);
		if (!data) {
			unit_fail(file, line, "CHECK(data != NULL)");
			memset(f, 0, sizeof(*f));
			rec_batch_init(&f->batch);
			f->rc = -99;
			return;
		}
	} else {
		snprintf(path, sizeof(path), "inline");
		len = strlen(text);
	}
	unit_doc_parse(f, path, data ? data : text, len, opts, NULL);
	if (f->rc != 0 && rel)
		unit_fail(file, line, "%s: %s:%ld: %s", rel, f->err.file, f->err.line, f->err.msg);
	free(data);
}

void unit_doc_free(struct unit_doc *f)
{
	if (f->loaded)
		ingest_doc_release(&f->doc);
	rec_batch_release(&f->batch);
	ingest_result_release(&f->res);
}

double unit_sample(const struct rec_run *r, const char *metric)
{
	size_t i;

	for (i = 0; i < r->nsamples; i++)
		if (strcmp(r->samples[i].metric, metric) == 0)
			return r->samples[i].value;
	return NAN;
}

double unit_yaml(const char *yaml, const char *key)
{
	size_t klen = strlen(key);
	const char *p = yaml;

	while (p && *p) {
		if (strncmp(p, key, klen) == 0 && p[klen] == ':')
			return strtod(p + klen + 1, NULL);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NAN;
}

int unit_tmpdb(char *dir, char *path, size_t pathlen)
{
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, pathlen, "%s/t.db", dir);
	return 0;
}

void unit_tmpdb_remove(const char *dir)
{
	static const char *const files[] = { "t.db", "t.db-wal", "t.db-shm" };
	char path[512];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

int unit_store_batch(struct db *db, const char *path, const char *variant, struct rec_batch *b,
		     struct db_import_result *res, struct kb_err *err)
{
	struct db_import imp;
	char sha[65];

	memset(&imp, 0, sizeof(imp));
	sha256_hex(path, strlen(path), sha);
	imp.path = path;
	imp.sha256 = sha;
	imp.size = 10;
	imp.format = "hackbench";
	imp.variant = variant;
	memset(res, 0, sizeof(*res));
	return db_store_batch(db, &imp, b, res, err);
}

int unit_store_run(struct db *db, const char *path, const char *variant, int nsamples,
		   struct db_import_result *res, struct kb_err *err)
{
	struct rec_batch b;
	struct rec_run *r;
	int rc, i;

	rec_batch_init(&b);
	r = rec_run_new(&b, "hackbench", 1);
	for (i = 0; i < nsamples; i++)
		rec_sample_add(&b, r, "time", 1.5 + i, "s", 0);
	rec_batch_finish(&b);
	rc = unit_store_batch(db, path, variant, &b, res, err);
	rec_batch_release(&b);
	return rc;
}

long long unit_sql_int(struct db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long n = -1;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}
