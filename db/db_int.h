/*
 * db_int.h - what the db layer files share: the handle and a tiny SQL vocabulary.
 * Not for use outside db/.
 */
#ifndef KB_DB_INT_H
#define KB_DB_INT_H

#include <sqlite3.h>
#include <libpq-fe.h>

#include "db.h"
#include "backend.h"
#include "bulk.h"
#include "../core/buf.h"
#include "../core/hidx.h"

/* Rows per multi-row INSERT (SQLite's bulk path). */
#define DB_ROWS_MAX 64

/* Everything above db/ sees struct db only; inside db/, the files speak
 * through the statement vocabulary below, which calls the backend's
 * ops (backend.h): db/sqlite.c and db/pg.c. */

/* What db_step() returns. */
enum { DB_ERROR = -1, DB_DONE = 0, DB_ROW = 1 };

/* A prepared statement of either backend. */
struct dbst {
	struct db *db;
	sqlite3_stmt *s;            /* SQLite */
	/* PostgreSQL: the text with $n parameters, the values bound (text, owned,
	 * NULL for SQL NULL), the whole result and the row the cursor is on. */
	char *sql;
	int nparam;
	char **val;
	PGresult *res;
	int row, nrows;
	int failed;                 /* the last step failed */
	int slot;                   /* db_cached() slot + 1: prepared on the server once */
	int pooled;                 /* db_prepare(): db->pool slot + 1 */
	int on_loan;                /* pooled and handed out, not finalized yet */
	int prepared;
};

#define DB_POOL_MAX 32

struct db {
	const struct db_ops *ops;   /* the backend */
	sqlite3 *h;                 /* SQLite */
	PGconn *pg;                 /* PostgreSQL */
	char *path;                 /* the store as shown: a file, or the URI without its password */
	char *spec;                 /* PostgreSQL: the connection string as given (never shown) */
	char pgstate[6];            /* PostgreSQL: SQLSTATE of the last failure, "" none */
	char pgmsg[512];            /* PostgreSQL: its message */
	int readonly;               /* opened for reading only */
	int created, discard;       /* SQLite: this open made the file; remove it at close */
	struct dbst *cache[32];     /* prepared once, see db_cached() */
	/* Statements of text built at run time, kept for the next caller of
	 * the same text (db_prepare()); least recently used goes. */
	struct db_pooled {
		char *sql;
		struct dbst *st;
		unsigned long used;
	} pool[DB_POOL_MAX];
	unsigned long pool_tick;
	/* SQLite's bulk rows: rows[table][n - 1] inserts n rows. */
	struct dbst *rows[DB_T_COUNT][DB_ROWS_MAX];
	/* Run ids: SQLite numbers them itself from the highest (read when a
	 * bulk transaction begins); PostgreSQL's come from the run table's
	 * sequence, several at a time, those not used yet kept here. */
	long long last_run;
	long long *run_ids;
	size_t nrun_ids, next_run_id;
	/* db_store_batch() groups files into one transaction: */
	int grouped;                /* a group transaction is open */
	struct group *group;        /* what it stored, kept until it commits */
	struct ckpt *ckpt;          /* the checkpointer thread (sqlite_checkpoint.c) */
	struct vcache *vcache;      /* readers: names resolved (variant.c) */
};

/* variant.c: free db->vcache. */
void db_vcache_free(struct db *db);
/* variant.c: the variant a user names by want (display name, name alone
 * when unique, or name@start-of-post): its id, name and scope (owned by
 * the caller); -1 with err "unknown variant" or "... is ambiguous". */
int db_variant_find(struct db *db, const char *want, long long *id, char **name,
		    char **scope, struct kb_err *err);

/* The distinct texts of one load, each copied once: v[0..n) is the
 * caller's to keep (and free, strings and array) after db_strings_done(),
 * which drops the index.  A million samples name a few dozen metrics; a
 * report's placement runs a few hundred posts. */
struct db_strings {
	char **v;
	size_t n, cap;
	struct hidx ix;
};
/* Column i of st's row as the one copy of its text; NULL stays NULL. */
char *db_col_interned(struct db_strings *s, struct dbst *st, int i);
void db_strings_done(struct db_strings *s);

/* db_close(): the pool's statements finalized. */
void db_pool_free(struct db *db);

/* A statement prepared on first use and kept until db_close(); reset and
 * with bindings cleared on every call.  slot must be unique per sql. */
struct dbst *db_cached(struct db *db, int slot, const char *sql, struct kb_err *err);

/* Call fn (db_reset, db_finalize) on every cached statement. */
void db_each_stmt(struct db *db, int (*fn)(struct dbst *));
/* Prepare sql; on failure set err and return NULL.  Parameters are
 * written ?1, ?2 (or ?, numbered in order) for either backend.
 * db_finalize() keeps the statement in db->pool and the next call with
 * the same text gets it back, reset and with bindings cleared: a report
 * prepares the same hundred texts over a hundred thousand times.  A
 * statement its caller keeps for long (db_cached(), the bulk rows) is
 * made with db_prepare_own(), which never takes a place in the pool. */
struct dbst *db_prepare(struct db *db, const char *sql, struct kb_err *err);
struct dbst *db_prepare_own(struct db *db, const char *sql, struct kb_err *err);
/* The next row: DB_ROW, DB_DONE, or DB_ERROR (the reason is the
 * connection's, for db_fail(), and the statement's, for db_rows_end()). */
int db_step(struct dbst *st);
/* Back to the start, bindings kept; returns the last step's error
 * (0 when it was none), like sqlite3_reset(). */
int db_reset(struct dbst *st);
/* Free st; returns the last step's error like db_reset(). */
int db_finalize(struct dbst *st);
/* Clear every binding to NULL. */
void db_clear(struct dbst *st);
/* Columns of the current row.  db_col_str()'s text is valid until the
 * next step or reset; NULL for SQL NULL.  db_col_real() gives 0 for NULL. */
long long db_col_int(struct dbst *st, int i);
double db_col_real(struct dbst *st, int i);
const char *db_col_str(struct dbst *st, int i);
int db_col_null(struct dbst *st, int i);
/* BEGIN a write transaction (SQLite: IMMEDIATE, so writers queue). */
int db_begin(struct db *db, struct kb_err *err);
/* BEGIN a read transaction: one picture for all its statements
 * (PostgreSQL: one snapshot, REPEATABLE READ). */
int db_begin_read(struct db *db, struct kb_err *err);
/* Is a transaction open on the connection? */
int db_in_txn(struct db *db);
/* Did the last failure come from a conflict with another writer
 * (PostgreSQL: deadlock, serialization failure), so that trying the
 * same work again may succeed? */
int db_retryable(const struct db *db);
/* Execute statements without results. */
int db_exec(struct db *db, const char *sql, struct kb_err *err);
/*
 * End a row loop through one door: finalize st (or, for a statement that
 * is kept, reset it) and return 0 when its last step succeeded, or set err
 * from the step's real result and return -1.  A loop that stopped on
 * SQLITE_BUSY, SQLITE_IOERR or SQLITE_CORRUPT is not one that ran out
 * of rows: sqlite3_finalize() and sqlite3_reset() return that error.
 */
int db_rows_end(struct db *db, struct dbst *st, struct kb_err *err);
int db_rows_reset(struct db *db, struct dbst *st, struct kb_err *err);
/* The connection's last error, one line. */
const char *db_errmsg(struct db *db);
/* Set err from the connection's last error, with a context word; returns -1. */
int db_fail(struct db *db, struct kb_err *err, const char *what);
/* A read loop that stopped on an error: st finalized, err "what: the
 * step's reason" (its own code's text when the connection's message is
 * another statement's by now).  Returns -1. */
int db_rows_fail(struct db *db, struct dbst *st, const char *what, struct kb_err *err);

void db_bind_text(struct dbst *st, int i, const char *s);    /* NULL binds NULL */
/* Bind text that stays valid, unchanged, until the statement is next
 * reset (no copy); NULL binds NULL. */
void db_bind_static(struct dbst *st, int i, const char *s);
void db_bind_int(struct dbst *st, int i, long long v);
void db_bind_double(struct dbst *st, int i, double v);       /* NaN binds NULL */
void db_bind_null(struct dbst *st, int i);
/* Column as a malloc'd string (NULL for SQL NULL). */
char *db_col_text(struct dbst *st, int i);
/* Column as double; SQL NULL gives NAN. */
double db_col_double(struct dbst *st, int i);

/* The WAL checkpointer thread (sqlite_checkpoint.c): started by the
 * bulk path's first transaction, stopped before the connection closes. */
void db_ckpt_start(struct db *db);
void db_ckpt_stop(struct db *db);
/* After a COMMIT: keep the log from growing without end. */
void db_ckpt_after_commit(struct db *db);

/* Free what db_store_batch() keeps (store.c); db_close() calls it. */
void db_store_release(struct db *db);

/* pg_conninfo.c: spec as libpq takes it (the URI scheme lowered); caller frees. */
char *db_conninfo(const char *spec);
/* msg with every password of spec in it replaced by ***, appended to out. */
void db_mask_message(const char *spec, const char *msg, struct buf *out);
/* 0 when libpq reads spec as written; else -1 and err (spec masked):
 * a string libpq cannot read, or a URI password it would cut. */
int db_conninfo_check(const char *spec, struct kb_err *err);

/* Schema (schema.c).  db_migrate() upgrades the schema (a write);
 * db_schema_check() only reads: 0 current, 1 older (needs db_migrate()),
 * -1 with err set when newer than this kbench or unreadable. */
int db_migrate(struct db *db, struct kb_err *err);
int db_schema_check(struct db *db, struct kb_err *err);
/* The store's schema version into *version (0: no kbench schema yet);
 * -1 with err set when it cannot be read. */
int db_schema_read(struct db *db, int *version, struct kb_err *err);
/* Open the store read-only and check nothing (not its schema): what
 * `kbench init` reads before it changes anything. */
int db_open_unchecked(struct db **out, const char *spec, struct kb_err *err);


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
int db_where_bind(const struct db_where *w, struct dbst *st, int first);
void db_where_release(struct db_where *w);
/* Prepare head + " WHERE " + w + tail and bind w; NULL with err set. */
struct dbst *db_where_prepare(struct db *db, const char *head, const struct db_where *w,
			       const char *tail, struct kb_err *err);

#endif
