/*
 * db_int.h - what the db layer files share: the handle and a tiny SQL vocabulary.
 * Not for use outside db/.
 */
#ifndef KB_DB_INT_H
#define KB_DB_INT_H

#include <sqlite3.h>

#include "db.h"
#include "../core/buf.h"

#define DB_ROWS_MAX 16

struct db {
	sqlite3 *h;
	char *path;
	sqlite3_stmt *cache[32];    /* prepared once, see db_cached() */
	/* store.c's multi-row INSERTs: rows[table][n - 1] inserts n rows. */
	sqlite3_stmt *rows[4][DB_ROWS_MAX];
	/* db_store_batch() groups files into one transaction: */
	int grouped;                /* a group transaction is open */
	struct group *group;        /* what it stored, kept until it commits */
	struct ckpt *ckpt;          /* the checkpointer thread (checkpoint.c) */
};

/* A statement prepared on first use and kept until db_close(); reset and
 * with bindings cleared on every call.  slot must be unique per sql. */
sqlite3_stmt *db_cached(struct db *db, int slot, const char *sql, struct kb_err *err);

/* Call fn (sqlite3_reset, sqlite3_finalize) on every cached statement. */
void db_each_stmt(struct db *db, int (*fn)(sqlite3_stmt *));
/* Prepare sql; on failure set err and return NULL. */
sqlite3_stmt *db_prepare(struct db *db, const char *sql, struct kb_err *err);
/* Execute statements without results. */
int db_exec(struct db *db, const char *sql, struct kb_err *err);
/*
 * End a row loop through one door: finalize st (or, for a statement that
 * is kept, reset it) and return 0 when its last step succeeded, or set err
 * from the step's real result and return -1.  A loop that stopped on
 * SQLITE_BUSY, SQLITE_IOERR or SQLITE_CORRUPT is not one that ran out
 * of rows: sqlite3_finalize() and sqlite3_reset() return that error.
 */
int db_rows_end(struct db *db, sqlite3_stmt *st, struct kb_err *err);
int db_rows_reset(struct db *db, sqlite3_stmt *st, struct kb_err *err);
/* Set err from the connection's last error, with a context word; returns -1. */
int db_fail(struct db *db, struct kb_err *err, const char *what);

void db_bind_text(sqlite3_stmt *st, int i, const char *s);    /* NULL binds NULL */
/* Bind text that stays valid, unchanged, until the statement is next
 * reset (no copy); NULL binds NULL. */
void db_bind_static(sqlite3_stmt *st, int i, const char *s);
void db_bind_int(sqlite3_stmt *st, int i, long long v);
void db_bind_double(sqlite3_stmt *st, int i, double v);       /* NaN binds NULL */
/* Column as a malloc'd string (NULL for SQL NULL). */
char *db_col_text(sqlite3_stmt *st, int i);
/* Column as double; SQL NULL gives NAN. */
double db_col_double(sqlite3_stmt *st, int i);

/* The WAL checkpointer thread (checkpoint.c): started by the store for
 * an import, stopped by db_close() before the connection closes. */
void db_ckpt_start(struct db *db);
void db_ckpt_stop(struct db *db);
/* After a COMMIT: keep the log from growing without end. */
void db_ckpt_after_commit(struct db *db);

/* Free what db_store_batch() keeps (store.c); db_close() calls it. */
void db_store_release(struct db *db);

/* Schema (schema.c).  db_migrate() upgrades the schema (a write);
 * db_schema_check() only reads: 0 current, 1 older (needs db_migrate()),
 * -1 with err set when newer than this kbench or unreadable. */
int db_migrate(struct db *db, struct kb_err *err);
int db_schema_check(struct db *db, struct kb_err *err);


/* Selections (where.c) ------------------------------------------------------ */

struct db_qsel;

/* A WHERE clause over a run (or summary) row aliased t, and the values it
 * binds, in order.  Only placeholders go into the text. */
struct db_where {
	struct buf sql;
	struct wbind {
		const char *text;	/* NULL: the integer */
		long long i;
		char *owned;		/* text built here (LIKE patterns) */
	} *b;
	size_t n, cap;
};

/* w = the selection sel (NULL = all) over a row aliased t with columns
 * benchmark, config, variant_id, machine_id, source_id: "1 = 1 AND ...". */
void db_where_build(struct db_where *w, const struct db_qsel *sel);
/* Append " IN (?, ...)" to w's text, binding v[0..n). */
void db_where_in(struct db_where *w, const char *const *v, size_t n);
/* Bind w's values from placeholder first on; returns the next one. */
int db_where_bind(const struct db_where *w, sqlite3_stmt *st, int first);
void db_where_release(struct db_where *w);
/* Prepare head + " WHERE " + w + tail and bind w; NULL with err set. */
sqlite3_stmt *db_where_prepare(struct db *db, const char *head, const struct db_where *w,
			       const char *tail, struct kb_err *err);

#endif
