/*
 * db.c - opening the store and the small SQL vocabulary every db/ file
 * uses (prepare, bind, column), in the manner of SQLite's own tools.
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

/* What the connection's last error says, with the system's word for a
 * full disk when SQLite only saw an I/O error. */
static const char *errmsg(struct db *db)
{
	int code = sqlite3_extended_errcode(db->h);

	if (sqlite3_system_errno(db->h) == ENOSPC && (code & 0xff) == SQLITE_IOERR)
		return "no space left on device (disk full)";
	return sqlite3_errmsg(db->h);
}

const char *db_errmsg(struct db *db)
{
	return db->kind == DB_PG ? db->pgmsg : errmsg(db);
}

int db_fail(struct db *db, struct kb_err *err, const char *what)
{
	return kb_err_set(err, db->path, 0, "%s: %s", what, db_errmsg(db));
}

static int rows_failed(struct db *db, int rc, struct kb_err *err)
{
	const char *msg = db_errmsg(db);

	/* the connection's message belongs to the failed step unless another
	 * call has replaced it; the code's own text is the fallback */
	if (db->kind == DB_SQLITE && (!msg || !strcmp(msg, "not an error")))
		msg = sqlite3_errstr(rc);
	return kb_err_set(err, db->path, 0, "query failed: %s", msg);
}

int db_rows_fail(struct db *db, struct dbst *st, const char *what, struct kb_err *err)
{
	char msg[512];
	int rc;

	if (db->kind != DB_SQLITE) {
		snprintf(msg, sizeof(msg), "%s", db_errmsg(db));
		db_finalize(st);
		return kb_err_set(err, db->path, 0, "%s: %s", what, msg);
	}
	/* sqlite3_finalize() gives the connection the failed step's error
	 * again: another statement stepped since (two read loops
	 * interleaved) had left "not an error" there. */
	rc = sqlite3_finalize(st->s);
	free(st);
	snprintf(msg, sizeof(msg), "%s", errmsg(db));
	if (!msg[0] || !strcmp(msg, "not an error"))
		snprintf(msg, sizeof(msg), "%s", sqlite3_errstr(rc != SQLITE_OK ? rc : SQLITE_ERROR));
	return kb_err_set(err, db->path, 0, "%s: %s", what, msg);
}

int db_rows_end(struct db *db, struct dbst *st, struct kb_err *err)
{
	int rc = db_finalize(st);

	return rc == 0 ? 0 : rows_failed(db, rc, err);
}

int db_rows_reset(struct db *db, struct dbst *st, struct kb_err *err)
{
	int rc = db_reset(st);

	return rc == 0 ? 0 : rows_failed(db, rc, err);
}

/* PostgreSQL's parameters are $1, $2: ?N becomes $N and a bare ? the
 * next number, outside quoted text. */
static char *pg_params(const char *sql, int *nparam)
{
	struct buf b = BUF_INIT;
	const char *p = sql;
	int next = 0, max = 0;
	char quote = 0;

	for (; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			buf_putc(&b, *p);
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
			buf_putc(&b, *p);
		} else if (*p == '?') {
			int n = 0;
			while (p[1] >= '0' && p[1] <= '9')
				n = n * 10 + (*++p - '0');
			if (!n)
				n = ++next;
			if (n > max)
				max = n;
			buf_printf(&b, "$%d", n);
		} else {
			buf_putc(&b, *p);
		}
	}
	*nparam = max;
	return buf_detach(&b);
}

struct dbst *db_prepare(struct db *db, const char *sql, struct kb_err *err)
{
	struct dbst *st = xcalloc(1, sizeof(*st));

	st->db = db;
	if (db->kind == DB_PG) {
		st->sql = pg_params(sql, &st->nparam);
		st->val = xcalloc((size_t)st->nparam + 1, sizeof(*st->val));
		return st;
	}
	if (sqlite3_prepare_v2(db->h, sql, -1, &st->s, NULL) != SQLITE_OK) {
		db_fail(db, err, "cannot prepare query");
		free(st);
		return NULL;
	}
	return st;
}

int db_step(struct dbst *st)
{
	int rc;

	if (st->db->kind == DB_PG)
		return db_pg_step(st);
	rc = sqlite3_step(st->s);
	if (rc == SQLITE_ROW)
		return DB_ROW;
	if (rc == SQLITE_DONE)
		return DB_DONE;
	st->failed = 1;
	return DB_ERROR;
}

static void pg_forget(struct dbst *st)
{
	if (st->res)
		PQclear(st->res);
	st->res = NULL;
	st->row = -1;
	st->nrows = 0;
}

int db_reset(struct dbst *st)
{
	int failed = st->failed;

	st->failed = 0;
	if (st->db->kind == DB_PG) {
		pg_forget(st);
		return failed ? -1 : 0;
	}
	return sqlite3_reset(st->s) == SQLITE_OK ? 0 : -1;
}

void db_clear(struct dbst *st)
{
	int i;

	if (st->db->kind == DB_SQLITE) {
		sqlite3_clear_bindings(st->s);
		return;
	}
	for (i = 0; i < st->nparam; i++) {
		free(st->val[i]);
		st->val[i] = NULL;
	}
}

int db_finalize(struct dbst *st)
{
	int rc;

	if (!st)
		return 0;
	if (st->db->kind == DB_PG) {
		rc = db_reset(st);
		db_clear(st);
		free(st->val);
		free(st->sql);
	} else {
		rc = sqlite3_finalize(st->s) == SQLITE_OK ? 0 : -1;
	}
	free(st);
	return rc;
}

int db_exec(struct db *db, const char *sql, struct kb_err *err)
{
	char *msg = NULL;

	if (db->kind == DB_PG)
		return db_pg_exec(db, sql, err);
	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		kb_err_set(err, db->path, 0, "%s", msg && strcmp(msg, "disk I/O error") ? msg : errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int db_begin(struct db *db, struct kb_err *err)
{
	return db_exec(db, db->kind == DB_PG ? "BEGIN" : "BEGIN IMMEDIATE", err);
}

int db_in_txn(struct db *db)
{
	if (db->kind == DB_PG)
		return PQtransactionStatus(db->pg) != PQTRANS_IDLE;
	return !sqlite3_get_autocommit(db->h);
}

int db_retryable(const struct db *db)
{
	/* 40001 serialization failure, 40P01 deadlock detected */
	return db->kind == DB_PG && (!strcmp(db->pgstate, "40001") || !strcmp(db->pgstate, "40P01"));
}

/* PostgreSQL's value i: text, owned. */
static void pg_set(struct dbst *st, int i, char *v)
{
	if (i < 1 || i > st->nparam) {
		free(v);
		return;
	}
	free(st->val[i - 1]);
	st->val[i - 1] = v;
}

void db_bind_text(struct dbst *st, int i, const char *s)
{
	if (st->db->kind == DB_PG)
		pg_set(st, i, s ? xstrdup(s) : NULL);
	else if (s)
		sqlite3_bind_text(st->s, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st->s, i);
}

void db_bind_static(struct dbst *st, int i, const char *s)
{
	if (st->db->kind == DB_PG)
		db_bind_text(st, i, s);         /* libpq reads values at the step: copied */
	else if (s)
		sqlite3_bind_text(st->s, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st->s, i);
}

void db_bind_null(struct dbst *st, int i)
{
	if (st->db->kind == DB_PG)
		pg_set(st, i, NULL);
	else
		sqlite3_bind_null(st->s, i);
}

void db_bind_int(struct dbst *st, int i, long long v)
{
	if (st->db->kind == DB_PG)
		pg_set(st, i, buf_aprintf("%lld", v));
	else
		sqlite3_bind_int64(st->s, i, v);
}

void db_bind_double(struct dbst *st, int i, double v)
{
	if (isnan(v))
		db_bind_null(st, i);
	else if (st->db->kind == DB_PG)
		/* 17 significant digits read back as the same double */
		pg_set(st, i, buf_aprintf("%.17g", v));
	else
		sqlite3_bind_double(st->s, i, v);
}

int db_col_null(struct dbst *st, int i)
{
	if (st->db->kind == DB_PG)
		return !st->res || st->row < 0 || PQgetisnull(st->res, st->row, i);
	return sqlite3_column_type(st->s, i) == SQLITE_NULL;
}

const char *db_col_str(struct dbst *st, int i)
{
	if (st->db->kind == DB_PG)
		return db_col_null(st, i) ? NULL : PQgetvalue(st->res, st->row, i);
	return (const char *)sqlite3_column_text(st->s, i);
}

long long db_col_int(struct dbst *st, int i)
{
	const char *s;

	if (st->db->kind == DB_SQLITE)
		return sqlite3_column_int64(st->s, i);
	s = db_col_str(st, i);
	if (!s)
		return 0;
	/* booleans ("t"/"f") count as 1/0, as SQLite's comparisons do */
	if (s[0] == 't' && !s[1])
		return 1;
	return strtoll(s, NULL, 10);
}

double db_col_real(struct dbst *st, int i)
{
	const char *s;

	if (st->db->kind == DB_SQLITE)
		return sqlite3_column_double(st->s, i);
	s = db_col_str(st, i);
	return s ? strtod(s, NULL) : 0.0;
}

char *db_col_text(struct dbst *st, int i)
{
	const char *s = db_col_str(st, i);
	return s ? xstrdup(s) : NULL;
}

double db_col_double(struct dbst *st, int i)
{
	if (db_col_null(st, i))
		return NAN;
	return db_col_real(st, i);
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

/* Before any work: may this role write the store?  A reader's import
 * fails here, with the reason, not on its first file. */
static int may_write(struct db *db, struct kb_err *err)
{
	struct dbst *st = db_prepare(db, "SELECT current_user,"
				     " has_table_privilege('source', 'INSERT'),"
				     " has_table_privilege('run', 'INSERT'),"
				     " has_table_privilege('sample', 'INSERT')", err);
	char *user = NULL;
	int ok = 0;

	if (!st)
		return -1;
	if (db_step(st) == DB_ROW) {
		user = db_col_text(st, 0);
		ok = db_col_int(st, 1) && db_col_int(st, 2) && db_col_int(st, 3);
	}
	if (db_rows_end(db, st, err) < 0) {
		free(user);
		return -1;
	}
	if (!ok)
		kb_err_set(err, db->path, 0, "role %s may not write this store (no INSERT on its "
			   "tables): importing needs a writer role ('kbench init' prints the GRANTs)",
			   user ? user : "?");
	free(user);
	return ok ? 0 : -1;
}

/* A PostgreSQL store: connect (the reason, password masked, when that
 * fails), then bring the schema up to date or only check it. */
/* A connection to a PostgreSQL store, its schema unchecked. */
static int connect_server(struct db **out, const char *uri, int readonly, struct kb_err *err)
{
	struct db *db = xcalloc(1, sizeof(*db));

	db->kind = DB_PG;
	db->readonly = readonly;
	if (db_pg_open(db, uri, err) < 0) {
		db_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

static int open_server(struct db **out, const char *uri, int readonly, struct kb_err *err)
{
	struct db *db;
	int rc;

	if (connect_server(&db, uri, readonly, err) < 0)
		return -1;
	rc = readonly ? db_schema_check(db, err) : db_migrate(db, err);
	if (rc > 0)
		rc = kb_err_set(err, db->path, 0, "the store's schema is older than this kbench: "
				"run 'kbench init' (or an import) as a role that may change it");
	if (rc == 0 && !readonly)
		rc = may_write(db, err);
	if (rc < 0) {
		db_close(db);
		return -1;
	}
	*out = db;
	return 0;
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
		if (db_exec(db, "PRAGMA journal_mode = WAL", err) == 0)
			return 0;
		if ((sqlite3_errcode(db->h) & 0xff) != SQLITE_BUSY || waited_ms >= 60000)
			return -1;
		ts.tv_nsec = (5 + rand() % 20) * 1000000L;
		nanosleep(&ts, NULL);
		waited_ms += ts.tv_nsec / 1000000L;
	}
}

int db_open(struct db **out, const char *path, struct kb_err *err)
{
	struct db *db;
	int created = 0, fd;

	if (db_is_server(path))
		return open_server(out, path, 0, err);
	/* Created here (not by another importer starting at the same time):
	 * only then is a failed set-up's file ours to remove. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		created = 1;
		close(fd);
	}
	if (open_common(&db, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err) < 0) {
		if (created)
			remove_new(path);
		return -1;
	}
	if (set_wal(db, err) < 0 ||
	    db_exec(db, "PRAGMA synchronous = NORMAL", err) < 0 ||
	    db_migrate(db, err) < 0) {
		db_close(db);
		if (created)
			remove_new(path);
		return -1;
	}
	*out = db;
	return 0;
}

int db_open_unchecked(struct db **out, const char *spec, struct kb_err *err)
{
	struct db *db;

	if (!db_is_server(spec)) {
		if (open_common(&db, spec, SQLITE_OPEN_READONLY, err) < 0)
			return -1;
		db->readonly = 1;
		*out = db;
		return 0;
	}
	return connect_server(out, spec, 1, err);
}

/*
 * A reader's connection to a SQLite store.  In a directory the reader may
 * not write, a WAL store cannot be opened as usual: SQLite would create
 * its -shm file ("attempt to write a readonly database").  With no -wal
 * file (or an empty one) the file is the whole store, read as it is
 * (immutable); with a -wal and its -shm, SQLite reads both read-only;
 * a -wal without -shm only a writer can read, and the message says so.
 */
static int open_reader(struct db **out, const char *path, struct kb_err *err)
{
	struct buf dir = BUF_INIT, uri = BUF_INIT;
	const char *slash = strrchr(path, '/'), *p;
	char *wal, *shm;
	struct stat ws;
	int rc, writable;

	if (slash)
		buf_add(&dir, path, slash == path ? 1 : (size_t)(slash - path));
	else
		buf_puts(&dir, ".");
	writable = access(buf_str(&dir), W_OK) == 0;
	buf_release(&dir);
	if (writable)
		return open_common(out, path, SQLITE_OPEN_READONLY, err);
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
		rc = open_common(out, buf_str(&uri), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, err);
		if (rc == 0) {
			free((*out)->path);
			(*out)->path = xstrdup(path);
		} else {
			snprintf(err->file, sizeof(err->file), "%s", path);
		}
	} else if (access(shm, R_OK) == 0) {
		rc = open_common(out, path, SQLITE_OPEN_READONLY, err);
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

int db_open_existing(struct db **out, const char *path, struct kb_err *err)
{
	struct stat sb;
	struct db *db;
	int rc;

	if (db_is_server(path))
		return open_server(out, path, 1, err);
	if (stat(path, &sb) < 0)
		return kb_err_set(err, path, 0,
				  "no such database (import something first, or give --db PATH)");
	if (open_reader(&db, path, err) < 0)
		return -1;
	db->readonly = 1;
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
		if (open_reader(&db, path, err) < 0)
			return -1;
		db->readonly = 1;
		rc = db_schema_check(db, err);
	}
	if (rc != 0) {
		db_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

const char *db_name(const struct db *db)
{
	return db->path;
}

int db_is_pg(const struct db *db)
{
	return db->kind == DB_PG;
}

int db_lost(const struct db *db)
{
	return db && db->kind == DB_PG && (!db->pg || PQstatus(db->pg) != CONNECTION_OK);
}

struct dbst *db_cached(struct db *db, int slot, const char *sql, struct kb_err *err)
{
	struct dbst *st = db->cache[slot];

	if (!st) {
		st = db_prepare(db, sql, err);
		if (st)
			st->slot = slot + 1;
		db->cache[slot] = st;
		return st;
	}
	db_reset(st);
	db_clear(st);
	return st;
}

void db_each_stmt(struct db *db, int (*fn)(struct dbst *))
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
	db_each_stmt(db, db_finalize);
	db_vcache_free(db);
	if (db->h)
		sqlite3_close_v2(db->h);
	if (db->pg)
		db_pg_close(db);
	free(db->path);
	free(db->spec);
	free(db);
}
