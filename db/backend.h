/*
 * backend.h - the two backends behind one interface, as SQLite's VFS
 * (sqlite3_io_methods) or curl's struct Curl_ssl: a table of functions,
 * filled once per backend (db/sqlite.c, db/pg.c).  db.c's vocabulary and
 * the feature files (store.c, copy.c, schema.c) call through db->ops and
 * never ask which backend a store is.  Not for use outside db/.
 */
#ifndef KB_DB_BACKEND_H
#define KB_DB_BACKEND_H

#include <stddef.h>

#include "../core/err.h"

struct db;
struct dbst;
struct db_bulk;

/* Statements whose text differs between the backends (store.c's): each
 * backend's ops->sql gives all of them. */
enum {
	/* INSERT a source; a row (id, is ?9 a label another post shows)
	 * when it was new, none when the bytes are there */
	DB_SQL_INS_SOURCE,
	/* INSERT a variant (name ?1, scope ?2, label ?3) or a machine (name
	 * ?1); a row with the id when it gives one, else none: look it up */
	DB_SQL_INS_VARIANT,
	DB_SQL_INS_MACHINE,
	DB_SQL_COUNT
};

/* The first db_cached() slot of the backends' own statements (below
 * it: store.c's). */
#define DB_SLOT_BACKEND 24

/* One segment text the store looks for in earlier sources: what
 * find_copies() answers (source 0: none; path malloc'd). */
struct db_segq {
	const char *hash;
	long long source;
	char *path;
};

/* The bulk path: what the importer (store.c) and kbench copy (copy.c)
 * write in many rows at a time. */
struct db_bulk_ops {
	/* A write transaction for bulk rows, with what numbering runs needs. */
	int (*begin)(struct db *db, struct kb_err *err);
	/* COMMIT, and what the backend does after one (a WAL checkpoint). */
	int (*commit)(struct db *db, struct kb_err *err);
	/* The last bulk transaction is over (copy.c): the connection's
	 * settings back to a reader's. */
	void (*end)(struct db *db);
	/* The id of the next run; want: how many the caller will likely
	 * take (the rest serve later calls). */
	long long (*next_run_id)(struct db *db, size_t want, struct kb_err *err);
	/* Write r's rows into its table, and empty r. */
	int (*write_rows)(struct db *db, struct db_bulk *r, struct kb_err *err);
	/* Rows a table may keep waiting before they are written (0: until
	 * the file is done). */
	size_t batch;
	/* For each q[i].hash, the first earlier source that stored a
	 * segment of that text (not as a copy). */
	int (*find_copies)(struct db *db, struct db_segq *q, size_t n, struct kb_err *err);
};

/* How the store is opened (ops->open). */
enum { DB_OPEN_WRITE, DB_OPEN_READ, DB_OPEN_UNCHECKED };

struct db_ops {
	const char *name;
	/* Statements.  prepare() fills st's backend part (st->db is set);
	 * finalize() frees it (not st) and returns the last step's error
	 * like reset(): 0 or -1. */
	int (*prepare)(struct dbst *st, const char *sql, struct kb_err *err);
	int (*step)(struct dbst *st);
	int (*reset)(struct dbst *st);
	void (*clear)(struct dbst *st);
	int (*finalize)(struct dbst *st);
	/* keep: s stays valid, unchanged, until the next reset (no copy) */
	void (*bind_text)(struct dbst *st, int i, const char *s, int keep);
	void (*bind_int)(struct dbst *st, int i, long long v);
	void (*bind_double)(struct dbst *st, int i, double v);
	void (*bind_null)(struct dbst *st, int i);
	int (*col_null)(struct dbst *st, int i);
	const char *(*col_str)(struct dbst *st, int i);
	long long (*col_int)(struct dbst *st, int i);
	double (*col_real)(struct dbst *st, int i);

	/* The connection. */
	int (*exec)(struct db *db, const char *sql, struct kb_err *err);
	int (*in_txn)(struct db *db);
	/* busy / deadlock / serialization failure: the work may be tried again */
	int (*retryable)(const struct db *db);
	int (*lost)(const struct db *db);
	/* The connection's last error, one line. */
	const char *(*errmsg)(struct db *db);
	/* The reason a row loop ended with rc (db_finalize()'s or db_reset()'s). */
	const char *(*step_errmsg)(struct db *db, int rc);
	/* Finalize st (as finalize(), then free it) and put the reason of
	 * its failed step in msg. */
	void (*finalize_failed)(struct dbst *st, char *msg, size_t size);
	void (*close)(struct db *db);
	const char *begin_write;        /* a writer's BEGIN (SQLite: IMMEDIATE) */
	const char *begin_snapshot;     /* a reader's BEGIN: one picture for all */

	/* Schema (schema.c has the migrations' text). */
	int (*schema_read)(struct db *db, int *version, struct kb_err *err);
	/* Upgrade the schema to db_schema_version() (it is older). */
	int (*migrate)(struct db *db, struct kb_err *err);
	/* A reader finding an older schema (or none) upgrades it through a
	 * writer's connection of its own (a SQLite file), rather than
	 * refuse (a server's database needs kbench init by a role that may). */
	int reader_upgrades;
	/* A shared server: the names kbench init prints GRANTs for
	 * (database, schema, owner quoted for SQL), or NULL. */
	const char *names_sql;

	/* Open the store spec names: db->readonly is set; db->path is set by
	 * the backend.  On failure err is set and db is to be closed. */
	int (*open)(struct db *db, const char *spec, int mode, struct kb_err *err);
	/* After a writer's migration: may this role write?  0, or -1 with
	 * the reason. */
	int (*may_write)(struct db *db, struct kb_err *err);

	const char *const *sql;         /* [DB_SQL_*] */
	const struct db_bulk_ops *bulk;
};

extern const struct db_ops db_sqlite_ops, db_pg_ops;

/* schema.c: the text of migration i (it makes version i + 1). */
const char *db_migration(int i);

#endif
