/*
 * sqlite.c - the SQLite backend (the embedded default): a file opened
 * in WAL mode with a busy timeout, statements prepared by SQLite,
 * migrations on PRAGMA user_version, and the bulk path as multi-row
 * INSERTs with runs numbered by the store itself.  One of the two
 * tables of struct db_ops (backend.h); pg.c is the other.
 */
#include "db_int.h"
#include "../core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { SLOT_MAX_RUN = DB_SLOT_BACKEND, SLOT_FIND_SEGMENT };

/* What the connection's last error says, with the system's word for a
 * full disk when SQLite only saw an I/O error. */
static const char *sq_errmsg(struct db *db)
{
	int code = sqlite3_extended_errcode(db->h);

	if (sqlite3_system_errno(db->h) == ENOSPC && (code & 0xff) == SQLITE_IOERR)
		return "no space left on device (disk full)";
	return sqlite3_errmsg(db->h);
}

static const char *sq_step_errmsg(struct db *db, int rc)
{
	const char *msg = sq_errmsg(db);

	/* the connection's message belongs to the failed step unless another
	 * call has replaced it; the code's own text is the fallback */
	if (!msg || !strcmp(msg, "not an error"))
		msg = sqlite3_errstr(rc);
	return msg;
}

static void sq_finalize_failed(struct dbst *st, char *msg, size_t size)
{
	struct db *db = st->db;
	/* sqlite3_finalize() gives the connection the failed step's error
	 * again: another statement stepped since (two read loops
	 * interleaved) had left "not an error" there. */
	int rc = sqlite3_finalize(st->s);

	free(st);
	snprintf(msg, size, "%s", sq_errmsg(db));
	if (!msg[0] || !strcmp(msg, "not an error"))
		snprintf(msg, size, "%s", sqlite3_errstr(rc != SQLITE_OK ? rc : SQLITE_ERROR));
}

static int sq_prepare(struct dbst *st, const char *sql, struct kb_err *err)
{
	if (sqlite3_prepare_v2(st->db->h, sql, -1, &st->s, NULL) != SQLITE_OK)
		return db_fail(st->db, err, "cannot prepare query");
	return 0;
}

static int sq_step(struct dbst *st)
{
	int rc = sqlite3_step(st->s);

	if (rc == SQLITE_ROW)
		return DB_ROW;
	if (rc == SQLITE_DONE)
		return DB_DONE;
	st->failed = 1;
	return DB_ERROR;
}

static int sq_reset(struct dbst *st)
{
	st->failed = 0;
	return sqlite3_reset(st->s) == SQLITE_OK ? 0 : -1;
}

static void sq_clear(struct dbst *st)
{
	sqlite3_clear_bindings(st->s);
}

static int sq_finalize(struct dbst *st)
{
	return sqlite3_finalize(st->s) == SQLITE_OK ? 0 : -1;
}

static void sq_bind_text(struct dbst *st, int i, const char *s, int keep)
{
	if (s)
		sqlite3_bind_text(st->s, i, s, -1, keep ? SQLITE_STATIC : SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st->s, i);
}

static void sq_bind_int(struct dbst *st, int i, long long v)
{
	sqlite3_bind_int64(st->s, i, v);
}

static void sq_bind_double(struct dbst *st, int i, double v)
{
	sqlite3_bind_double(st->s, i, v);
}

static void sq_bind_null(struct dbst *st, int i)
{
	sqlite3_bind_null(st->s, i);
}

static int sq_col_null(struct dbst *st, int i)
{
	return sqlite3_column_type(st->s, i) == SQLITE_NULL;
}

static const char *sq_col_str(struct dbst *st, int i)
{
	return (const char *)sqlite3_column_text(st->s, i);
}

static long long sq_col_int(struct dbst *st, int i)
{
	return sqlite3_column_int64(st->s, i);
}

static double sq_col_real(struct dbst *st, int i)
{
	return sqlite3_column_double(st->s, i);
}

static int sq_exec(struct db *db, const char *sql, struct kb_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		kb_err_set(err, db->path, 0, "%s", msg && strcmp(msg, "disk I/O error") ? msg : sq_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int sq_in_txn(struct db *db)
{
	return !sqlite3_get_autocommit(db->h);
}

/* Writers queue on the busy timeout: a failure is not one to try again. */
static int sq_retryable(const struct db *db)
{
	(void)db;
	return 0;
}

static int sq_lost(const struct db *db)
{
	(void)db;
	return 0;
}

/* A database this process created but could not set up (a full disk)
 * is removed, so that the next try starts afresh. */
static void remove_new(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	char name[4200];
	size_t i;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++)
		if ((size_t)snprintf(name, sizeof(name), "%s%s", path, suffix[i]) < sizeof(name))
			unlink(name);
}

static void sq_close(struct db *db)
{
	db_ckpt_stop(db);
	if (db->h)
		sqlite3_close_v2(db->h);
	db->h = NULL;
	if (db->created && db->discard)
		remove_new(db->path);
}

static int sqlite_configured;

static int open_file(struct db *db, const char *path, int flags, struct kb_err *err)
{
	/* No global memory statistics: they take a mutex on every allocation.
	 * Only possible before SQLite initialises (the first open). */
	if (!sqlite_configured) {
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		sqlite_configured = 1;
	}
	/* One thread per connection: no SQLite mutexes on every call. */
	if (sqlite3_open_v2(path, &db->h, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return kb_err_set(err, path, 0, "cannot open database: %s",
				  db->h ? sqlite3_errmsg(db->h) : "out of memory");
	sqlite3_busy_timeout(db->h, 60000);
	sqlite3_extended_result_codes(db->h, 1);
	return sq_exec(db, "PRAGMA foreign_keys = ON", err);
}

/*
 * WAL lets readers and one writer work at once; concurrent writers queue
 * on the busy timeout instead of failing.  Switching a new database to
 * WAL takes an exclusive lock that SQLite does not wait for: importers
 * starting together on a new store got "database is locked" here, so the
 * switch is tried again for as long as the busy timeout would wait.
 */
static int set_wal(struct db *db, struct kb_err *err)
{
	struct timespec ts = { 0, 0 };
	long waited_ms = 0;

	for (;;) {
		if (sq_exec(db, "PRAGMA journal_mode = WAL", err) == 0)
			return 0;
		if ((sqlite3_errcode(db->h) & 0xff) != SQLITE_BUSY || waited_ms >= 60000)
			return -1;
		ts.tv_nsec = (5 + rand() % 20) * 1000000L;
		nanosleep(&ts, NULL);
		waited_ms += ts.tv_nsec / 1000000L;
	}
}

static int open_writer(struct db *db, const char *path, struct kb_err *err)
{
	/* Created here (not by another importer starting at the same time):
	 * only then is a failed set-up's file ours to remove. */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd >= 0) {
		db->created = 1;
		close(fd);
	}
	db->discard = 1;        /* until it is set up */
	if (open_file(db, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err) < 0 ||
	    set_wal(db, err) < 0 || sq_exec(db, "PRAGMA synchronous = NORMAL", err) < 0)
		return -1;
	db->discard = 0;
	return 0;
}

/*
 * A reader's connection to a SQLite store.  In a directory the reader may
 * not write, a WAL store cannot be opened as usual: SQLite would create
 * its -shm file ("attempt to write a readonly database").  With no -wal
 * file (or an empty one) the file is the whole store, read as it is
 * (immutable); with a -wal and its -shm, SQLite reads both read-only;
 * a -wal without -shm only a writer can read, and the message says so.
 */
static int open_reader(struct db *db, const char *path, struct kb_err *err)
{
	struct buf dir = BUF_INIT, uri = BUF_INIT;
	const char *slash = strrchr(path, '/'), *p;
	char *wal, *shm;
	struct stat ws;
	int rc, writable;

	if (stat(path, &ws) < 0)
		return kb_err_set(err, path, 0,
				  "no such database (import something first, or give --db PATH)");
	if (slash)
		buf_add(&dir, path, slash == path ? 1 : (size_t)(slash - path));
	else
		buf_puts(&dir, ".");
	writable = access(buf_str(&dir), W_OK) == 0;
	buf_release(&dir);
	if (writable)
		return open_file(db, path, SQLITE_OPEN_READONLY, err);
	wal = buf_aprintf("%s-wal", path);
	shm = buf_aprintf("%s-shm", path);
	if (stat(wal, &ws) != 0 || ws.st_size == 0) {
		/* file:PATH?immutable=1, the path percent-encoded where a URI
		 * would read it otherwise */
		buf_puts(&uri, "file:");
		for (p = path; *p; p++)
			if (*p == '%' || *p == '?' || *p == '#')
				buf_printf(&uri, "%%%02X", (unsigned char)*p);
			else
				buf_putc(&uri, *p);
		buf_puts(&uri, "?immutable=1");
		rc = open_file(db, buf_str(&uri), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, err);
		if (rc < 0)
			snprintf(err->file, sizeof(err->file), "%s", path);
	} else if (access(shm, R_OK) == 0) {
		rc = open_file(db, path, SQLITE_OPEN_READONLY, err);
	} else {
		rc = kb_err_set(err, path, 0, "cannot read the store here: changes wait in %s, "
				"which only a process that may write its directory can read (run "
				"kbench ls there once as one, or copy the store with its -wal file)",
				wal);
	}
	buf_release(&uri);
	free(wal);
	free(shm);
	return rc;
}

static int sq_open(struct db *db, const char *path, int mode, struct kb_err *err)
{
	db->path = xstrdup(path);
	switch (mode) {
	case DB_OPEN_WRITE:
		return open_writer(db, path, err);
	case DB_OPEN_READ:
		return open_reader(db, path, err);
	default:
		return open_file(db, path, SQLITE_OPEN_READONLY, err);
	}
}

/* Any role that may open the file for writing may write it. */
static int sq_may_write(struct db *db, struct kb_err *err)
{
	(void)db;
	(void)err;
	return 0;
}

/* Schema ---------------------------------------------------------------- */

static int sq_schema_read(struct db *db, int *version, struct kb_err *err)
{
	struct dbst *st = db_prepare(db, "PRAGMA user_version", err);

	*version = 0;
	if (!st)
		return -1;
	*version = db_step(st) == DB_ROW ? (int)db_col_int(st, 0) : 0;
	return db_rows_end(db, st, err);
}

static int sq_migrate(struct db *db, struct kb_err *err)
{
	int version, i;

	if (db_schema_read(db, &version, err) < 0)
		return -1;
	/* A migration may rebuild a table that others reference (variant in
	 * 3): foreign keys are off while migrating (the pragma is a no-op
	 * inside a transaction, so it is set here). */
	if (version < db_schema_version() && sq_exec(db, "PRAGMA foreign_keys = OFF", err) < 0)
		return -1;
	for (i = version; i < db_schema_version(); i++) {
		char pragma[64];
		/* BEGIN IMMEDIATE: concurrent first opens wait, then see the
		 * version the winner wrote. */
		if (db_begin(db, err) < 0)
			return -1;
		if (db_schema_read(db, &version, err) < 0) {
			sq_exec(db, "ROLLBACK", NULL);
			return -1;
		}
		if (version > i) {
			sq_exec(db, "COMMIT", NULL);
			i = version - 1;
			continue;
		}
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", i + 1);
		if (sq_exec(db, db_migration(i), err) < 0 || sq_exec(db, pragma, err) < 0 ||
		    sq_exec(db, "COMMIT", err) < 0) {
			sq_exec(db, "ROLLBACK", NULL);
			sq_exec(db, "PRAGMA foreign_keys = ON", NULL);
			return -1;
		}
	}
	return sq_exec(db, "PRAGMA foreign_keys = ON", err);
}

/* The bulk path ------------------------------------------------------------ */

/* The store writes the ids of rows it has just written, so SQLite's
 * foreign-key check of every child row (a lookup of its parent, a tenth
 * of the import time) is switched off for this connection; tests check
 * PRAGMA foreign_key_check after imports.  The write lock is held from
 * BEGIN IMMEDIATE on, so runs are numbered from max(id) here.  The log
 * is copied back by the checkpointer thread (sqlite_checkpoint.c). */
static int sq_bulk_begin(struct db *db, struct kb_err *err)
{
	struct dbst *st;

	db_ckpt_start(db);
	if (sq_exec(db, "PRAGMA foreign_keys = OFF", err) < 0 || db_begin(db, err) < 0)
		return -1;
	st = db_cached(db, SLOT_MAX_RUN, "SELECT coalesce(max(id), 0) FROM run", err);
	if (!st || db_step(st) != DB_ROW) {
		if (st)
			db_fail(db, err, "cannot read the run table");
		sq_exec(db, "ROLLBACK", NULL);
		return -1;
	}
	db->last_run = db_col_int(st, 0);
	db_reset(st);
	return 0;
}

static int sq_bulk_commit(struct db *db, struct kb_err *err)
{
	if (sq_exec(db, "COMMIT", err) < 0)
		return -1;
	db_ckpt_after_commit(db);
	return 0;
}

static void sq_bulk_end(struct db *db)
{
	if (!sq_in_txn(db))
		sq_exec(db, "PRAGMA foreign_keys = ON", NULL);
}

static long long sq_next_run_id(struct db *db, size_t want, struct kb_err *err)
{
	(void)want;
	(void)err;
	return ++db->last_run;
}

/* The statement inserting n rows (1 <= n <= DB_ROWS_MAX) into table, reset;
 * its parameters are numbered row by row.  The caller binds every one. */
static struct dbst *rows_stmt(struct db *db, int table, size_t n, struct kb_err *err)
{
	struct dbst **slot = &db->rows[table][n - 1];
	struct buf sql = BUF_INIT;
	size_t r;
	int c;

	if (*slot) {
		db_reset(*slot);
		return *slot;
	}
	buf_printf(&sql, "INSERT INTO %s (%s) VALUES ", db_tables[table].table, db_tables[table].cols);
	for (r = 0; r < n; r++) {
		buf_puts(&sql, r ? ", (" : "(");
		for (c = 0; c < db_tables[table].ncols; c++)
			buf_puts(&sql, c ? ", ?" : "?");
		buf_putc(&sql, ')');
	}
	*slot = db_prepare_own(db, buf_str(&sql), err);
	buf_release(&sql);
	return *slot;
}

/* Multi-row INSERTs, DB_ROWS_MAX rows per statement: they save SQLite's
 * per-statement work (opening cursors, halting) on most rows. */
static int sq_write_rows(struct db *db, struct db_bulk *r, struct kb_err *err)
{
	size_t total = db_bulk_count(r), done = 0;

	while (done < total) {
		size_t k = total - done < DB_ROWS_MAX ? total - done : DB_ROWS_MAX, j;
		struct dbst *st = rows_stmt(db, r->table, k, err);
		const struct db_val *v = &r->v[done * (size_t)r->ncols];

		if (!st)
			return -1;
		for (j = 0; j < k * (size_t)r->ncols; j++) {
			int p = (int)j + 1;
			switch (v[j].type) {
			case DB_V_NULL: db_bind_null(st, p); break;
			case DB_V_INT: db_bind_int(st, p, v[j].i); break;
			case DB_V_REAL: db_bind_double(st, p, v[j].d); break;
			case DB_V_TEXT: db_bind_static(st, p, db_bulk_str(r, &v[j])); break;
			}
		}
		if (db_step(st) != DB_DONE)
			return db_fail(db, err, "cannot store");
		db_reset(st);
		done += k;
	}
	return 0;
}

/* One indexed lookup per segment: the writer holds the store's lock, so
 * no other importer stores the same text meanwhile. */
static int sq_find_copies(struct db *db, struct db_segq *q, size_t n, struct kb_err *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		/* The first source that carried a segment of the same text. */
		struct dbst *st = db_cached(db, SLOT_FIND_SEGMENT,
					    "SELECT src.id, src.path FROM segment g"
					    " JOIN source src ON src.id = g.source_id"
					    " WHERE g.hash = ?1 AND g.copy_of IS NULL"
					    " ORDER BY src.id LIMIT 1", err);
		int rc;

		if (!st)
			return -1;
		db_bind_text(st, 1, q[i].hash);
		rc = db_step(st);
		if (rc == DB_ROW) {
			const char *p = db_col_str(st, 1);
			q[i].source = db_col_int(st, 0);
			q[i].path = xstrdup(p ? p : "");
		} else if (rc != DB_DONE) {
			return db_fail(db, err, "cannot look up earlier copies");
		}
		db_reset(st);
	}
	return 0;
}

static const struct db_bulk_ops sq_bulk = {
	.begin = sq_bulk_begin,
	.commit = sq_bulk_commit,
	.end = sq_bulk_end,
	.next_run_id = sq_next_run_id,
	.write_rows = sq_write_rows,
	.batch = DB_ROWS_MAX,
	.find_copies = sq_find_copies,
};

static const char *const sq_sql[DB_SQL_COUNT] = {
	[DB_SQL_INS_SOURCE] = "INSERT INTO source (path, sha256, size, format, mail_from, mail_date,"
			      " mail_subject, message_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
			      /* another importer's copy of the same bytes: nothing, and no row */
			      " ON CONFLICT (sha256) DO NOTHING RETURNING id,"
			      " EXISTS (SELECT 1 FROM variant WHERE scope_label = ?9 AND scope <> ?2)",
	[DB_SQL_INS_VARIANT] = "INSERT INTO variant (name, scope, scope_label) VALUES (?1, ?2, ?3)"
			       " ON CONFLICT DO NOTHING",
	[DB_SQL_INS_MACHINE] = "INSERT INTO machine (name) VALUES (?1) ON CONFLICT DO NOTHING",
};

const struct db_ops db_sqlite_ops = {
	.name = "sqlite",
	.prepare = sq_prepare,
	.step = sq_step,
	.reset = sq_reset,
	.clear = sq_clear,
	.finalize = sq_finalize,
	.bind_text = sq_bind_text,
	.bind_int = sq_bind_int,
	.bind_double = sq_bind_double,
	.bind_null = sq_bind_null,
	.col_null = sq_col_null,
	.col_str = sq_col_str,
	.col_int = sq_col_int,
	.col_real = sq_col_real,
	.exec = sq_exec,
	.in_txn = sq_in_txn,
	.retryable = sq_retryable,
	.lost = sq_lost,
	.errmsg = sq_errmsg,
	.step_errmsg = sq_step_errmsg,
	.finalize_failed = sq_finalize_failed,
	.close = sq_close,
	.begin_write = "BEGIN IMMEDIATE",
	.begin_snapshot = "BEGIN",
	.schema_read = sq_schema_read,
	.migrate = sq_migrate,
	.reader_upgrades = 1,
	.names_sql = NULL,
	.open = sq_open,
	.may_write = sq_may_write,
	.sql = sq_sql,
	.bulk = &sq_bulk,
};
