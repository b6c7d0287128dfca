/*
 * fixture.h - the parse fixture the parser tests share: load a document
 * (a file under ../shared or inline text), run ingest_parse_doc() on it
 * and keep what came out.
 *
 *   struct unit_doc f;
 *   unit_doc_load(&f, "lkp/time/...", NULL, NULL);   corpus file, all parsers
 *   unit_doc_load(&f, NULL, "text", &opts);          inline text
 *   ...CHECK on f.rc, f.batch, f.res...
 *   unit_doc_free(&f);
 */
#ifndef KB_UNIT_FIXTURE_H
#define KB_UNIT_FIXTURE_H

#include "../../ingest/ingest.h"

struct unit_doc {
	struct ingest_doc doc;
	struct rec_batch batch;
	struct ingest_result res;
	struct kb_err err;
	int rc;
	int loaded;             /* doc was loaded (or tried): release it */
};

/* Parse len bytes of text, named name, with opts and every parser (only
 * NULL) or one.  Fills f from scratch; returns f->rc: 0, or -1 with f->err. */
int unit_doc_parse(struct unit_doc *f, const char *name, const char *text, size_t len,
		   const struct ingest_opts *opts, const struct ingest_parser *only);
/* rel (a path under unit_shared_dir()) when set, else text named "inline",
 * parsed with every parser.  A file that cannot be read or parsed fails
 * the test at file:line (f->rc -99 when unreadable). */
void unit_doc_load_at(const char *file, int line, struct unit_doc *f, const char *rel,
		      const char *text, const struct ingest_opts *opts);
#define unit_doc_load(f, rel, text, opts) unit_doc_load_at(__FILE__, __LINE__, f, rel, text, opts)
void unit_doc_free(struct unit_doc *f);

/* Value of metric in run r (the first sample of that name); NAN when absent. */
double unit_sample(const struct rec_run *r, const char *metric);
/* Value of "key: value" in an lkp .yaml text (strtod); NAN when absent. */
double unit_yaml(const char *yaml, const char *key);

/* A database in a fresh temporary directory: dir (a "...XXXXXX" template)
 * is filled in and path set to dir/t.db.  0, or -1 when mkdtemp fails. */
int unit_tmpdb(char *dir, char *path, size_t pathlen);
/* Remove that database (with its -wal and -shm files) and the directory. */
void unit_tmpdb_remove(const char *dir);

struct db;
struct db_import_result;
/* Store a source named path (its SHA-256 is that of the name) holding
 * one hackbench run of nsamples 'time' samples, under variant, through
 * db_store_batch().  Returns its result. */
int unit_store_run(struct db *db, const char *path, const char *variant, int nsamples,
		   struct db_import_result *res, struct kb_err *err);
/* Store batch b (finished) as a source named path under variant, as
 * unit_store_run() does. */
struct rec_batch;
int unit_store_batch(struct db *db, const char *path, const char *variant, struct rec_batch *b,
		     struct db_import_result *res, struct kb_err *err);
/* The first column of the first row of sql on db's connection; -1 when
 * it fails or returns no row. */
long long unit_sql_int(struct db *db, const char *sql);

#endif
