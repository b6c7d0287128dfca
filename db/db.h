/*
 * db.h - the store: schema and migrations, an all-or-nothing import of
 * each source file, and query functions that return plain C structs.
 * Two backends behind the one interface: a SQLite file (the embedded
 * default) or a PostgreSQL server (a lab's shared store, a postgresql://
 * URI or libpq's keyword/value string); db_open() chooses from the name,
 * and nothing here differs between them.
 *
 * Values are always bound, never formatted into SQL.  Every function
 * returns 0 on success and -1 with err set on failure; nothing prints.
 */
#ifndef KB_DB_H
#define KB_DB_H

#include <stddef.h>

#include "../core/err.h"
#include "../ingest/record.h"

struct db;

/* Open (creating and migrating as needed) the store path names.  Several
 * importers can write at once (SQLite: WAL mode, foreign keys and a busy
 * timeout; PostgreSQL: a role that may write, checked here). */
int db_open(struct db **out, const char *path, struct kb_err *err);
/* Open an existing store read-only (SQLITE_OPEN_READONLY, or a read-only
 * PostgreSQL session: nothing a reader does can change it); fails when
 * path does not exist.  A SQLite file an older kbench wrote is first
 * upgraded through a short read-write connection, the only write a
 * reader makes; a server's store asks for kbench init. */
int db_open_existing(struct db **out, const char *path, struct kb_err *err);
void db_close(struct db *db);
int db_schema_version(void);
/* Does spec name a PostgreSQL store rather than a SQLite file?  A
 * postgresql:// or postgres:// URI in either case, or any keyword/value
 * string libpq reads (host=... dbname=..., service=NAME). */
int db_is_server(const char *spec);
/* spec as it may be shown, appended to out: a SQLite file as it is, a
 * server's connection string with every password in it as ***
 * (pg_conninfo.c, on libpq's own parser). */
struct buf;
void db_mask_spec(const char *spec, struct buf *out);
/* The store as messages show it: a file, or the URI without its password. */
const char *db_name(const struct db *db);
/* Has the connection to the store's server been lost (PostgreSQL)? */
int db_lost(const struct db *db);

/* Importing ------------------------------------------------------------- */

struct db_import {
	const char *path;           /* as the user named it */
	const char *sha256;         /* hex of the bytes */
	long long size;
	const char *format;         /* parser names, comma-separated */
	const char *machine;        /* --machine or NULL */
	const char *variant;        /* --variant: wins over everything */
	const char *variant_fallback;   /* parent directory name */
	const char *kernel;         /* --kernel */
	const char *scope_label;    /* the source's short name, shown as name@label when
				     * a variant its text names shares a name */
	int global_labels;          /* --variant / --variant-prefix: names are the user's */
	/* A mail message (NULL otherwise): its headers, decoded. */
	const char *mail_from, *mail_date, *mail_subject, *message_id;
	int replace;                /* --replace: drop the earlier import of these bytes */
	int dry_run;                /* do everything, then roll back */
};

struct db_import_result {
	int already;                /* same bytes were imported before: nothing changed */
	char already_path[1024];
	long long source_id;
	size_t runs, failed_runs, samples, summaries, jobs;
	size_t lost;                /* files stored earlier that could not be kept */
	size_t copied_runs, copied_summaries;   /* already stored from another source */
	char copied_from[1024];     /* the first such source's path */
};

/* Store a finished batch: all of it or nothing.  Consecutive batches
 * share one transaction for up to DB_GROUP_SECONDS or
 * DB_GROUP_BYTES of source, and the store keeps each one's records (it
 * takes them: b is left empty) until the transaction commits: if a file
 * fails halfway, the transaction is rolled back and the kept files are
 * stored again, so nothing of the failed file stays and the others do.
 * (One commit per file made WAL writes a large part of importing many
 * small files.)  On failure res->lost counts kept files that could not
 * be stored again.  With imp->dry_run the batch is stored in its own
 * transaction and rolled back. */
int db_store_batch(struct db *db, const struct db_import *imp, struct rec_batch *b,
		   struct db_import_result *res, struct kb_err *err);
#define DB_GROUP_SECONDS 0.25
#define DB_GROUP_BYTES (512LL << 10)

/* Commit the group.  On failure *lost is how many files were not stored.
 * db_close() commits too. */
int db_store_flush(struct db *db, size_t *lost, struct kb_err *err);
/* How many stored files wait for the group to commit (0: all committed). */
size_t db_store_pending(const struct db *db);

/* Queries for listing ------------------------------------------------------ */

struct db_variant {
	long long id;
	char *name, *kernel, *description;
	long long runs, summaries;
	char *created_at;       /* first import, ISO 8601 UTC ("2024-12-01T18:58:01.123Z") */
};

struct db_machine {
	long long id;
	char *name, *description;
	long long runs;
};

struct db_bench {
	char *benchmark;
	long long runs, failed, samples, summaries, variants;
};

struct db_source {
	long long id;
	char *path, *sha256, *format, *imported_at;
	char *mail_from, *mail_date, *mail_subject;     /* NULL unless a mail message */
	long long size, runs, summaries;
};

struct db_list {
	struct db_variant *variants;
	size_t nvariants;
	struct db_machine *machines;
	size_t nmachines;
	long long unknown_runs, unknown_posts;  /* runs on no named machine, and the
						 * posts they came from */
	struct db_bench *benches;
	size_t nbenches;
	struct db_source *sources;
	size_t nsources;
};

int db_list(struct db *db, struct db_list *out, struct kb_err *err);
void db_list_release(struct db_list *l);

/* One run as stored. */
struct db_sample {
	char *metric, *unit;
	double value;
	int job;                    /* 0 = run level */
};

struct db_job {
	int job, initial_node, main_node, moved, marked;
	double user;                /* NAN when unknown */
	int nnodes;
	double *pct;
};

struct db_run {
	long long id;
	char *source, *variant, *variant_desc, *machine, *benchmark, *config, *status, *error;
	char *mail_from, *mail_date, *mail_subject;     /* the source's, NULL unless a mail */
	int iteration;
	long line;
	struct db_sample *samples;
	size_t nsamples;
	struct db_job *jobs;
	size_t njobs;
};

/* Returns 0 and fills out, or -1 (err says "no run N"). */
int db_get_run(struct db *db, long long id, struct db_run *out, struct kb_err *err);
void db_run_release(struct db_run *r);
/* Run ids of one source, in order. */
int db_source_runs(struct db *db, long long source_id, long long **ids, size_t *n,
		   struct kb_err *err);

/* What may be compared with what: per benchmark, each post's own
 * variants (post = 1, key = the post's SHA-256, label its short name), and
 * each machine's variants with global names (post = 0, key = the machine,
 * '' unknown; label the machine or NULL).  Variants by display name, in
 * import order.  bench NULL: every benchmark. */
struct db_cset {
	char *benchmark, *key, *label;
	int post;
	long long source_id;    /* the first source of the set */
	char **variants;
	size_t nvariants;
};

int db_comparable_sets(struct db *db, const char *bench, struct db_cset **out, size_t *n,
		       struct kb_err *err);
void db_csets_free(struct db_cset *c, size_t n);

/* The display name of the variant a user means by want (display name,
 * name alone when unique, name@start-of-post; variant.c); -1 with err "unknown
 * variant" or "... is ambiguous: ...".  *display is malloc'd. */
int db_variant_resolve(struct db *db, const char *want, char **display, struct kb_err *err);
/* The same, and the variant's id. */
int db_variant_resolve_id(struct db *db, const char *want, long long *id, char **display,
			  struct kb_err *err);

/* The machine key of a post's runs on a machine the post does not name:
 * DB_UNKNOWN_AT "<post label>" (db_qrun.machine_key).  kbench prints it
 * where it prints a machine, so --machine takes it back. */
#define DB_UNKNOWN_AT "unknown@"

/* Is there a benchmark (runs or summaries) or a machine of that name?
 * A machine's name is also "unknown@<post>" (DB_UNKNOWN_AT).
 * 1 or 0, or -1 with err set. */
enum db_name_kind { DB_NAME_BENCH, DB_NAME_MACHINE };
int db_name_exists(struct db *db, enum db_name_kind kind, const char *name, struct kb_err *err);

/* The environment `kbench run` recorded (env.c) ------------------------- */

/* One variant's environment on a machine: the settings stored with its
 * latest run's source (kbench run), keys in order. */
struct db_env {
	char *variant;              /* display name */
	char *recorded_at;          /* that source's import time */
	char **keys, **values;
	size_t n;
};

/* A machine as stored, and each of its variants' environment. */
struct db_machine_env {
	char *name, *description;
	long long cpus, nodes;      /* 0 when unknown */
	long long runs;
	struct db_env *envs;        /* variants in the order they were made */
	size_t nenvs;
};

/* The machine named name with its variants' environments (only variant:
 * that one's alone, when not NULL).  0, or -1 with err set ("no machine
 * NAME"). */
int db_machine_env(struct db *db, const char *name, const char *variant,
		   struct db_machine_env *out, struct kb_err *err);
void db_machine_env_release(struct db_machine_env *m);
/* The value of key in e, or NULL. */
const char *db_env_get(const struct db_env *e, const char *key);

/* Initialising a store (init.c) ------------------------------------------- */

struct db_init_result {
	int before, after;          /* schema version before (0: no store) and after */
	int pg;                     /* a PostgreSQL store: */
	char name[1024];            /* the store as shown (no password) */
	char database[256], schema[256], owner[256];   /* quoted for SQL, as
						 * quote_ident() gives them */
};

/* Create or upgrade the schema of the store spec names (db_open()) and
 * say what it was before and is now.  -1 with err set (the server's
 * reason, password masked) when it cannot. */
int db_init(const char *spec, struct db_init_result *res, struct kb_err *err);

/* Copying a store (copy.c) ------------------------------------------------ */

/* One source of a copy, as the copy ends its transaction. */
struct db_copy_source {
	const char *path, *sha256;
	int skipped;                /* the target had these bytes: nothing copied */
	long long runs, summaries;
};

struct db_copy_result {
	size_t copied, skipped;     /* sources */
	size_t runs, samples, jobs, summaries, segments;
	size_t variants, machines;  /* the copied sources' (new or merged by name) */
	size_t metrics, relabels;   /* catalogue rows and relabel records added */
};

typedef void (*db_copy_fn)(void *ctx, const struct db_copy_source *s);

/*
 * Copy every source of from into to, with the rows that hang off it
 * (runs, samples, jobs, summaries, segments), the variants and machines
 * they refer to (by name: one the target has is merged, taking only what
 * it lacks), the metric catalogue rows and the relabel records the target
 * lacks.  A source whose SHA-256 the target has is skipped.  Each source
 * goes in whole or not at all (several share a transaction); to numbers
 * its own rows.  each (may be NULL) hears of every source, copied or
 * skipped, in from's order, once its transaction has committed.  On
 * failure the sources reported so far are stored and the rest not.
 */
int db_copy(struct db *from, struct db *to, db_copy_fn each, void *ctx,
	    struct db_copy_result *res, struct kb_err *err);

#endif
