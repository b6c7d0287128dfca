/*
 * db.c - opening the store and the small SQL vocabulary every db/ file
 * uses (prepare, bind, column), in the manner of SQLite's own tools.
 */
#include "db_int.h"
#include "../core/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the connection's last error says, with the system's word for a
 * full disk when SQLite only saw an I/O error. */
static const char *errmsg(struct db *db)
{
	int code = sqlite3_extended_errcode(db->h);

	if (sqlite3_system_errno(db->h) == ENOSPC && (code & 0xff) == SQLITE_IOERR)
		return "no space left on device (disk full)";
	return sqlite3_errmsg(db->h);
}

int db_fail(struct db *db, struct kb_err *err, const char *what)
{
	return kb_err_set(err, db->path, 0, "%s: %s", what, errmsg(db));
}

static int rows_failed(struct db *db, int rc, struct kb_err *err)
{
	const char *msg = errmsg(db);

	/* the connection's message belongs to the failed step unless another
	 * call has replaced it; the code's own text is the fallback */
	if (!msg || !strcmp(msg, "not an error"))
		msg = sqlite3_errstr(rc);
	return kb_err_set(err, db->path, 0, "query failed: %s", msg);
}

int db_rows_end(struct db *db, sqlite3_stmt *st, struct kb_err *err)
{
	int rc = sqlite3_finalize(st);

	return rc == SQLITE_OK ? 0 : rows_failed(db, rc, err);
}

int db_rows_reset(struct db *db, sqlite3_stmt *st, struct kb_err *err)
{
	int rc = sqlite3_reset(st);

	return rc == SQLITE_OK ? 0 : rows_failed(db, rc, err);
}

sqlite3_stmt *db_prepare(struct db *db, const char *sql, struct kb_err *err)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
		db_fail(db, err, "cannot prepare query");
		return NULL;
	}
	return st;
}

int db_exec(struct db *db, const char *sql, struct kb_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		kb_err_set(err, db->path, 0, "%s", msg && strcmp(msg, "disk I/O error") ? msg : errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

void db_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

void db_bind_static(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

void db_bind_int(sqlite3_stmt *st, int i, long long v)
{
	sqlite3_bind_int64(st, i, v);
}

void db_bind_double(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

char *db_col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? xstrdup((const char *)s) : NULL;
}

double db_col_double(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(st, i);
}

static int sqlite_configured;

static int open_common(struct db **out, const char *path, int flags, struct kb_err *err)
{
	struct db *db = xcalloc(1, sizeof(*db));

	db->path = xstrdup(path);
	/* No global memory statistics: they take a mutex on every allocation.
	 * Only possible before SQLite initialises (the first open). */
	if (!sqlite_configured) {
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		sqlite_configured = 1;
	}
	/* One thread per connection: no SQLite mutexes on every call. */
	if (sqlite3_open_v2(path, &db->h, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		kb_err_set(err, path, 0, "cannot open database: %s",
			   db->h ? sqlite3_errmsg(db->h) : "out of memory");
		db_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db->h, 60000);
	sqlite3_extended_result_codes(db->h, 1);
	if (db_exec(db, "PRAGMA foreign_keys = ON", err) < 0) {
		db_close(db);
		return -1;
	}
	*out = db;
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

int db_open(struct db **out, const char *path, struct kb_err *err)
{
	struct stat sb;
	struct db *db;
	int existed = stat(path, &sb) == 0;

	if (open_common(&db, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err) < 0) {
		if (!existed)
			remove_new(path);
		return -1;
	}
	/* WAL lets readers and one writer work at once; concurrent writers
	 * queue on the busy timeout instead of failing. */
	if (db_exec(db, "PRAGMA journal_mode = WAL", err) < 0 ||
	    db_exec(db, "PRAGMA synchronous = NORMAL", err) < 0 ||
	    db_migrate(db, err) < 0) {
		db_close(db);
		if (!existed)
			remove_new(path);
		return -1;
	}
	*out = db;
	return 0;
}

int db_open_existing(struct db **out, const char *path, struct kb_err *err)
{
	struct stat sb;
	struct db *db;
	int rc;

	if (stat(path, &sb) < 0)
		return kb_err_set(err, path, 0,
				  "no such database (import something first, or give --db PATH)");
	if (open_common(&db, path, SQLITE_OPEN_READONLY, err) < 0)
		return -1;
	rc = db_schema_check(db, err);
	if (rc > 0) {
		/* Written by an older kbench: the one write a reader makes is
		 * the upgrade, through a connection of its own, and only when
		 * it is needed.  Then reading goes on read-only. */
		struct db *w;
		db_close(db);
		if (db_open(&w, path, err) < 0)
			return -1;
		db_close(w);
		if (open_common(&db, path, SQLITE_OPEN_READONLY, err) < 0)
			return -1;
		rc = db_schema_check(db, err);
	}
	if (rc != 0) {
		db_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

sqlite3_stmt *db_cached(struct db *db, int slot, const char *sql, struct kb_err *err)
{
	sqlite3_stmt *st = db->cache[slot];

	if (!st) {
		st = db_prepare(db, sql, err);
		db->cache[slot] = st;
		return st;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return st;
}

void db_each_stmt(struct db *db, int (*fn)(sqlite3_stmt *))
{
	size_t i;

	for (i = 0; i < sizeof(db->cache) / sizeof(db->cache[0]); i++)
		if (db->cache[i])
			fn(db->cache[i]);
	for (i = 0; i < sizeof(db->rows) / sizeof(db->rows[0][0]); i++)
		if (db->rows[i / DB_ROWS_MAX][i % DB_ROWS_MAX])
			fn(db->rows[i / DB_ROWS_MAX][i % DB_ROWS_MAX]);
}

void db_close(struct db *db)
{

	if (!db)
		return;
	db_store_flush(db, NULL, NULL);
	db_store_release(db);
	db_ckpt_stop(db);
	db_each_stmt(db, sqlite3_finalize);
	if (db->h)
		sqlite3_close_v2(db->h);
	free(db->path);
	free(db);
}
