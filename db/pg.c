/*
 * pg.c - the PostgreSQL backend: a connection through libpq, statements
 * run with their parameters as text, COPY for bulk rows, and libpq's
 * reasons for failures, with any password masked; the schema in the
 * table kbench_schema, and the bulk path through COPY with run ids from
 * the run table's sequence.  One of the two tables of struct db_ops
 * (backend.h), chosen when the store is a server (db_is_server());
 * sqlite.c is the other.
 */
#include "db_int.h"
#include "schema_pg.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpq's message as one line, password masked, into db->pgmsg. */
static void set_msg(struct db *db, const char *msg)
{
	char one[sizeof(db->pgmsg)];
	size_t i;

	snprintf(one, sizeof(one), "%s", msg && msg[0] ? msg : "unknown error");
	for (i = 0; one[i]; i++)
		if (one[i] == '\n' || one[i] == '\t')
			one[i] = ' ';
	while (i > 0 && one[i - 1] == ' ')
		one[--i] = '\0';
	{
		struct buf m = BUF_INIT;

		db_mask_message(db->spec ? db->spec : "", one, &m);
		snprintf(db->pgmsg, sizeof(db->pgmsg), "%s", buf_str(&m));
		buf_release(&m);
	}
}

static void pg_failed(struct db *db, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;

	snprintf(db->pgstate, sizeof(db->pgstate), "%s", state ? state : "");
	if (msg && PQstatus(db->pg) == CONNECTION_OK) {
		set_msg(db, msg);
		return;
	}
	/* the connection's own message: a lost server, a refused login */
	set_msg(db, PQerrorMessage(db->pg));
	if (PQstatus(db->pg) != CONNECTION_OK && !db->pgstate[0])
		snprintf(db->pgstate, sizeof(db->pgstate), "08006");
}

static int has_param(const char *uri, const char *key)
{
	const char *p = strstr(uri, key);
	return p && (p == uri || p[-1] == '?' || p[-1] == '&' || p[-1] == ' ');
}

static void no_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static int pg_exec(struct db *db, const char *sql, struct kb_err *err);

/* A setting of the session, or err with the reason. */
static int session(struct db *db, const char *sql, struct kb_err *err)
{
	if (pg_exec(db, sql, NULL) == 0)
		return 0;
	return kb_err_set(err, db->path, 0, "cannot set up the session: %s", db->pgmsg);
}

static int pg_connect(struct db *db, const char *spec, struct kb_err *err)
{
	const char *keys[4], *vals[4];
	struct buf shown = BUF_INIT;
	char *uri;
	int n = 0;

	db_mask_spec(spec, &shown);
	db->path = buf_detach(&shown);
	/* kept for masking libpq's messages, as libpq reads it */
	uri = db->spec = db_conninfo(spec);
	if (db_conninfo_check(spec, err) < 0)
		return -1;
	/* Sane defaults, which the URI may set otherwise: give up on a
	 * server that does not answer in 10 s; the application name shows
	 * in pg_stat_activity. */
	keys[n] = "dbname";
	vals[n++] = uri;
	if (!has_param(uri, "connect_timeout=")) {
		keys[n] = "connect_timeout";
		vals[n++] = "10";
	}
	if (!has_param(uri, "application_name=")) {
		keys[n] = "application_name";
		vals[n++] = "kbench";
	}
	keys[n] = NULL;
	vals[n] = NULL;
	db->pg = PQconnectdbParams(keys, vals, 1);
	if (!db->pg)
		return kb_err_set(err, db->path, 0, "cannot connect: out of memory");
	if (PQstatus(db->pg) != CONNECTION_OK) {
		set_msg(db, PQerrorMessage(db->pg));
		return kb_err_set(err, db->path, 0, "cannot connect: %s", db->pgmsg);
	}
	/* Messages in one language; numbers and text as SQLite gives them:
	 * floats in their shortest exact form, UTF-8 text; a statement that
	 * hangs (a lock never released) fails after 10 minutes unless the
	 * URI's options say otherwise. */
	if (pg_exec(db, "SET client_encoding = 'UTF8'; SET extra_float_digits = 1;"
		       " SET lc_messages = 'C'", NULL) < 0 &&
	    /* lc_messages needs a superuser on some servers: not essential */
	    session(db, "SET client_encoding = 'UTF8'; SET extra_float_digits = 1", err) < 0)
		return -1;
	if (!strstr(uri, "statement_timeout"))
		pg_exec(db, "SET statement_timeout = '10min'", NULL);
	/* Analysis verbs never write: the server refuses it too. */
	if (db->readonly && session(db, "SET default_transaction_read_only = on", err) < 0)
		return -1;
	/* Notices (a table that exists already) are not for the user. */
	PQsetNoticeProcessor(db->pg, no_notice, NULL);
	return 0;
}

static void pg_close(struct db *db)
{
	if (db->pg)
		PQfinish(db->pg);
	db->pg = NULL;
	free(db->run_ids);
	db->run_ids = NULL;
}

static int pg_exec(struct db *db, const char *sql, struct kb_err *err)
{
	PGresult *res = PQexec(db->pg, sql);
	ExecStatusType s = PQresultStatus(res);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK && s != PGRES_EMPTY_QUERY) {
		pg_failed(db, res);
		PQclear(res);
		return kb_err_set(err, db->path, 0, "%s", db->pgmsg);
	}
	PQclear(res);
	return 0;
}

static int pg_step(struct dbst *st)
{
	struct db *db = st->db;

	if (st->failed)
		return DB_ERROR;
	if (!st->res) {
		ExecStatusType s;
		char name[16];
		if (st->slot) {
			/* A statement kept for the connection's life is parsed and
			 * planned once, on its first run (an import runs some of
			 * them once per file). */
			snprintf(name, sizeof(name), "kb%d", st->slot);
			if (!st->prepared) {
				PGresult *p = PQprepare(db->pg, name, st->sql, st->nparam, NULL);
				if (PQresultStatus(p) != PGRES_COMMAND_OK) {
					pg_failed(db, p);
					PQclear(p);
					st->failed = 1;
					return DB_ERROR;
				}
				PQclear(p);
				st->prepared = 1;
			}
			st->res = PQexecPrepared(db->pg, name, st->nparam,
						 (const char *const *)st->val, NULL, NULL, 0);
		} else {
			st->res = PQexecParams(db->pg, st->sql, st->nparam, NULL,
					       (const char *const *)st->val, NULL, NULL, 0);
		}
		s = PQresultStatus(st->res);
		if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
			pg_failed(db, st->res);
			PQclear(st->res);
			st->res = NULL;
			st->failed = 1;
			return DB_ERROR;
		}
		st->nrows = s == PGRES_TUPLES_OK ? PQntuples(st->res) : 0;
		st->row = -1;
	}
	if (st->row + 1 < st->nrows) {
		st->row++;
		return DB_ROW;
	}
	st->row = st->nrows;
	return DB_DONE;
}

/* Append s to out in COPY's text format (\\N for NULL). */
static void copy_text(struct buf *out, const char *s)
{
	if (!s) {
		buf_puts(out, "\\N");
		return;
	}
	for (; *s; s++) {
		switch (*s) {
		case '\\': buf_puts(out, "\\\\"); break;
		case '\t': buf_puts(out, "\\t"); break;
		case '\n': buf_puts(out, "\\n"); break;
		case '\r': buf_puts(out, "\\r"); break;
		default: buf_putc(out, *s);
		}
	}
}

/* COPY table (cols) FROM STDIN with data in COPY's text format. */
static int pg_copy(struct db *db, const char *table, const char *cols, const char *data,
		   size_t len, struct kb_err *err)
{
	char *sql = buf_aprintf("COPY %s (%s) FROM STDIN", table, cols);
	PGresult *res = PQexec(db->pg, sql);
	int ok;

	free(sql);
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		pg_failed(db, res);
		PQclear(res);
		return kb_err_set(err, db->path, 0, "cannot store: %s", db->pgmsg);
	}
	PQclear(res);
	ok = PQputCopyData(db->pg, data, (int)len) == 1 && PQputCopyEnd(db->pg, NULL) == 1;
	/* the result of the COPY, then the end of results */
	while ((res = PQgetResult(db->pg)) != NULL) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && ok) {
			pg_failed(db, res);
			ok = -1;
		}
		PQclear(res);
	}
	if (ok == 1)
		return 0;
	if (ok == 0)
		pg_failed(db, NULL);
	return kb_err_set(err, db->path, 0, "cannot store: %s", db->pgmsg);
}

/* Statements --------------------------------------------------------------- */

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

static int pg_prepare(struct dbst *st, const char *sql, struct kb_err *err)
{
	(void)err;
	st->sql = pg_params(sql, &st->nparam);
	st->val = xcalloc((size_t)st->nparam + 1, sizeof(*st->val));
	return 0;
}

static int pg_reset(struct dbst *st)
{
	int failed = st->failed;

	st->failed = 0;
	if (st->res)
		PQclear(st->res);
	st->res = NULL;
	st->row = -1;
	st->nrows = 0;
	return failed ? -1 : 0;
}

static void pg_clear(struct dbst *st)
{
	int i;

	for (i = 0; i < st->nparam; i++) {
		free(st->val[i]);
		st->val[i] = NULL;
	}
}

static int pg_finalize(struct dbst *st)
{
	int rc = pg_reset(st);

	pg_clear(st);
	free(st->val);
	free(st->sql);
	return rc;
}

/* Value i: text, owned. */
static void pg_set(struct dbst *st, int i, char *v)
{
	if (i < 1 || i > st->nparam) {
		free(v);
		return;
	}
	free(st->val[i - 1]);
	st->val[i - 1] = v;
}

/* libpq reads values at the step: text kept by the caller is copied too. */
static void pg_bind_text(struct dbst *st, int i, const char *s, int keep)
{
	(void)keep;
	pg_set(st, i, s ? xstrdup(s) : NULL);
}

static void pg_bind_int(struct dbst *st, int i, long long v)
{
	pg_set(st, i, buf_aprintf("%lld", v));
}

static void pg_bind_double(struct dbst *st, int i, double v)
{
	/* 17 significant digits read back as the same double */
	pg_set(st, i, buf_aprintf("%.17g", v));
}

static void pg_bind_null(struct dbst *st, int i)
{
	pg_set(st, i, NULL);
}

static int pg_col_null(struct dbst *st, int i)
{
	return !st->res || st->row < 0 || PQgetisnull(st->res, st->row, i);
}

static const char *pg_col_str(struct dbst *st, int i)
{
	return pg_col_null(st, i) ? NULL : PQgetvalue(st->res, st->row, i);
}

static long long pg_col_int(struct dbst *st, int i)
{
	const char *s = pg_col_str(st, i);

	if (!s)
		return 0;
	/* booleans ("t"/"f") count as 1/0, as SQLite's comparisons do */
	if (s[0] == 't' && !s[1])
		return 1;
	return strtoll(s, NULL, 10);
}

static double pg_col_real(struct dbst *st, int i)
{
	const char *s = pg_col_str(st, i);

	return s ? strtod(s, NULL) : 0.0;
}

/* The connection ---------------------------------------------------------- */

static int pg_in_txn(struct db *db)
{
	return PQtransactionStatus(db->pg) != PQTRANS_IDLE;
}

static int pg_retryable(const struct db *db)
{
	/* 40001 serialization failure, 40P01 deadlock detected */
	return !strcmp(db->pgstate, "40001") || !strcmp(db->pgstate, "40P01");
}

static int pg_lost(const struct db *db)
{
	return !db->pg || PQstatus(db->pg) != CONNECTION_OK;
}

static const char *pg_errmsg(struct db *db)
{
	return db->pgmsg;
}

static const char *pg_step_errmsg(struct db *db, int rc)
{
	(void)rc;
	return db->pgmsg;
}

static void pg_finalize_failed(struct dbst *st, char *msg, size_t size)
{
	snprintf(msg, size, "%s", st->db->pgmsg);
	pg_finalize(st);
	free(st);
}

static int pg_open(struct db *db, const char *spec, int mode, struct kb_err *err)
{
	(void)mode;     /* db->readonly says it */
	return pg_connect(db, spec, err);
}

/* Before any work: may this role write the store?  A reader's import
 * fails here, with the reason, not on its first file. */
static int pg_may_write(struct db *db, struct kb_err *err)
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

/* Schema ------------------------------------------------------------------- */

/* No PRAGMA user_version: the version is the one row of kbench_schema. */
static int pg_schema_read(struct db *db, int *version, struct kb_err *err)
{
	struct dbst *st;
	int rc;

	*version = 0;
	/* pg_class read with the statement's snapshot: to_regclass()
	 * goes through the catalogue cache, which a wait on an
	 * advisory lock does not refresh (see pg_migrate). */
	st = db_prepare(db, "SELECT count(*) FROM pg_catalog.pg_class c"
			" JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
			" WHERE c.relname = 'kbench_schema' AND n.nspname = current_schema()", err);
	if (!st)
		return -1;
	rc = db_step(st) == DB_ROW && db_col_int(st, 0);
	if (db_rows_end(db, st, err) < 0)
		return -1;
	if (!rc)
		return 0;
	st = db_prepare(db, "SELECT max(version) FROM kbench_schema", err);
	if (!st)
		return -1;
	*version = db_step(st) == DB_ROW ? (int)db_col_int(st, 0) : 0;
	return db_rows_end(db, st, err);
}

/* PostgreSQL stores begin at SQLite's version PG_SCHEMA_BASE: db_pg_schema
 * creates that schema at once, and migrations after it are written for
 * both (db_pg_migrations[] where SQLite's text would not do). */
static int pg_migrate(struct db *db, struct kb_err *err)
{
	int version, tries = 0;
	char sql[128];

again:
	/* One migrator at a time: the others wait on the lock, then see
	 * the version it wrote. */
	if (db_begin(db, err) < 0)
		return -1;
	if (pg_exec(db, "SELECT pg_advisory_xact_lock(7140531)", err) < 0 ||
	    db_schema_read(db, &version, err) < 0)
		goto fail;
	if (version == 0) {
		if (pg_exec(db, db_pg_schema, err) < 0 ||
		    pg_exec(db, "CREATE TABLE IF NOT EXISTS kbench_schema (version INTEGER NOT NULL)", err) < 0)
			goto fail;
		snprintf(sql, sizeof(sql), "INSERT INTO kbench_schema VALUES (%d)", PG_SCHEMA_BASE);
		if (pg_exec(db, sql, err) < 0)
			goto fail;
		version = PG_SCHEMA_BASE;
	}
	for (; version < db_schema_version(); version++) {
		snprintf(sql, sizeof(sql), "UPDATE kbench_schema SET version = %d", version + 1);
		const char *text = version - PG_SCHEMA_BASE < db_pg_nmigrations
			? db_pg_migrations[version - PG_SCHEMA_BASE] : db_migration(version);
		if (pg_exec(db, text, err) < 0 || pg_exec(db, sql, err) < 0)
			goto fail;
	}
	return pg_exec(db, "COMMIT", err);
fail:
	pg_exec(db, "ROLLBACK", NULL);
	/* Another first open created the schema while this one waited
	 * (42P07: a table exists already): read the version again. */
	if (!strcmp(db->pgstate, "42P07") && tries++ < 3)
		goto again;
	return -1;
}

/* The bulk path ------------------------------------------------------------ */

enum { SLOT_LOCK_SEGMENTS = DB_SLOT_BACKEND, SLOT_FIND_SEGMENTS, SLOT_RUN_IDS };

/* Many importers may write at once; the server checks the keys. */
static int pg_bulk_begin(struct db *db, struct kb_err *err)
{
	return db_begin(db, err);
}

static int pg_bulk_commit(struct db *db, struct kb_err *err)
{
	return pg_exec(db, "COMMIT", err);
}

static void pg_bulk_end(struct db *db)
{
	(void)db;
}

/* n run ids from the run table's sequence, in one query. */
static int run_ids(struct db *db, long long *ids, size_t n, struct kb_err *err)
{
	struct dbst *st = db_cached(db, SLOT_RUN_IDS,
				    "SELECT nextval(pg_get_serial_sequence('run', 'id'))"
				    " FROM generate_series(1, CAST(?1 AS INTEGER))", err);
	size_t k = 0;

	if (!st)
		return -1;
	db_bind_int(st, 1, (long long)n);
	while (k < n && db_step(st) == DB_ROW)
		ids[k++] = db_col_int(st, 0);
	if (db_rows_reset(db, st, err) < 0)
		return -1;
	if (k != n)
		return kb_err_set(err, db->path, 0, "cannot number the runs");
	return 0;
}

/* The sequence hands out as many as asked, in one query, so that
 * concurrent importers never take the same; those left (runs that were
 * copies) serve the next call, so one importer numbers its runs without
 * gaps, as SQLite does.  Kept across a rollback: a value the sequence
 * gave is never given again. */
static long long pg_next_run_id(struct db *db, size_t want, struct kb_err *err)
{
	if (db->next_run_id < db->nrun_ids)
		return db->run_ids[db->next_run_id++];
	if (!want)
		want = 1;
	free(db->run_ids);
	db->run_ids = xcalloc(want, sizeof(*db->run_ids));
	db->nrun_ids = db->next_run_id = 0;
	if (run_ids(db, db->run_ids, want, err) < 0)
		return -1;
	db->nrun_ids = want;
	return db->run_ids[db->next_run_id++];
}

/* The rows as COPY text, in one COPY. */
static int pg_write_rows(struct db *db, struct db_bulk *r, struct kb_err *err)
{
	struct buf data = BUF_INIT;
	size_t j;
	int rc;

	for (j = 0; j < r->n; j++) {
		const struct db_val *v = &r->v[j];
		if (j % (size_t)r->ncols)
			buf_putc(&data, '\t');
		switch (v->type) {
		case DB_V_NULL: buf_puts(&data, "\\N"); break;
		case DB_V_INT: buf_printf(&data, "%lld", v->i); break;
		/* 17 significant digits read back as the same double */
		case DB_V_REAL: buf_printf(&data, "%.17g", v->d); break;
		case DB_V_TEXT: copy_text(&data, db_bulk_str(r, v)); break;
		}
		if (j % (size_t)r->ncols == (size_t)r->ncols - 1)
			buf_putc(&data, '\n');
	}
	rc = pg_copy(db, db_tables[r->table].table, db_tables[r->table].cols, data.data,
		     data.len, err);
	buf_release(&data);
	return rc;
}

static int cmp_segq(const void *a, const void *b, void *arg)
{
	const struct db_segq *q = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(q[x].hash, q[y].hash);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

/*
 * The segments looked up in two statements, not two per segment.
 * Concurrent importers: the one that stores a segment's text first holds
 * a transaction lock on its hash until it commits; another with the same
 * text waits, then finds it.  The locks are taken in hash order.
 */
static int pg_find_copies(struct db *db, struct db_segq *q, size_t n, struct kb_err *err)
{
	struct buf arr = BUF_INIT;
	struct dbst *st;
	struct { char *hash, *path; long long id; } *hit = NULL;
	size_t k, nhit = 0, cap = 0, *order;
	int rc = 0, step;

	if (!n)
		return 0;
	order = xcalloc(n, sizeof(*order));
	for (k = 0; k < n; k++)
		order[k] = k;
	qsort_r(order, n, sizeof(*order), cmp_segq, q);
	buf_putc(&arr, '{');
	for (k = 0; k < n; k++)
		buf_printf(&arr, "%s%s", k ? "," : "", q[order[k]].hash);       /* hex digits */
	buf_putc(&arr, '}');
	free(order);
	/* transaction locks on the hashes of the array, in its order */
	st = db_cached(db, SLOT_LOCK_SEGMENTS,
		       "SELECT count(*) FROM (SELECT pg_advisory_xact_lock(hashtextextended(h, 0))"
		       " FROM unnest(CAST(?1 AS TEXT[])) AS u(h)) x", err);
	if (!st || (db_bind_text(st, 1, buf_str(&arr)), db_step(st)) != DB_ROW) {
		buf_release(&arr);
		return st ? db_fail(db, err, "cannot lock the segments") : -1;
	}
	db_reset(st);
	/* and the sources that carried any of them */
	st = db_cached(db, SLOT_FIND_SEGMENTS,
		       "SELECT g.hash, src.id, src.path FROM segment g"
		       " JOIN source src ON src.id = g.source_id"
		       " WHERE g.hash = ANY (CAST(?1 AS TEXT[])) AND g.copy_of IS NULL"
		       " ORDER BY g.hash, src.id", err);
	if (!st) {
		buf_release(&arr);
		return -1;
	}
	db_bind_text(st, 1, buf_str(&arr));
	buf_release(&arr);
	while ((step = db_step(st)) == DB_ROW) {
		const char *h = db_col_str(st, 0);
		if (nhit && strcmp(hit[nhit - 1].hash, h) == 0)
			continue;       /* the first source of each hash */
		xgrow(&hit, &cap, nhit + 1, sizeof(*hit));
		hit[nhit].hash = xstrdup(h);
		hit[nhit].id = db_col_int(st, 1);
		hit[nhit].path = db_col_text(st, 2);
		nhit++;
	}
	if (step != DB_DONE)
		rc = db_fail(db, err, "cannot look up earlier copies");
	db_reset(st);
	/* hits come sorted by hash, bytewise (COLLATE "C") */
	for (k = 0; rc == 0 && k < n; k++) {
		size_t lo = 0, hi = nhit;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = strcmp(hit[mid].hash, q[k].hash);
			if (c == 0) {
				q[k].source = hit[mid].id;
				q[k].path = xstrdup(hit[mid].path ? hit[mid].path : "");
				break;
			}
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	for (k = 0; k < nhit; k++) {
		free(hit[k].hash);
		free(hit[k].path);
	}
	free(hit);
	return rc;
}

static const struct db_bulk_ops pg_bulk = {
	.begin = pg_bulk_begin,
	.commit = pg_bulk_commit,
	.end = pg_bulk_end,
	.next_run_id = pg_next_run_id,
	.write_rows = pg_write_rows,
	.batch = 0,     /* each file's rows in one COPY per table, when it is done */
	.find_copies = pg_find_copies,
};

/* PostgreSQL's own text, where it saves a round trip: the insert gives
 * the id, new or not, in one statement.  (Its SELECT sees the
 * statement's snapshot: a row another importer committed while this one
 * waited is not in it, so no row means: ask again.) */
static const char *const pg_sql[DB_SQL_COUNT] = {
	/* and whether another post shows the label already */
	[DB_SQL_INS_SOURCE] = "WITH ins AS (INSERT INTO source (path, sha256, size, format, mail_from,"
			      " mail_date, mail_subject, message_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
			      " ON CONFLICT (sha256) DO NOTHING RETURNING id)"
			      " SELECT id, EXISTS (SELECT 1 FROM variant WHERE scope_label = ?9 AND scope <> ?2)"
			      " FROM ins",
	[DB_SQL_INS_VARIANT] = "WITH ins AS (INSERT INTO variant (name, scope, scope_label)"
			       " VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING RETURNING id)"
			       " SELECT id FROM ins UNION ALL"
			       " SELECT id FROM variant WHERE name = ?1 AND scope = ?2 LIMIT 1",
	[DB_SQL_INS_MACHINE] = "WITH ins AS (INSERT INTO machine (name) VALUES (?1)"
			       " ON CONFLICT DO NOTHING RETURNING id)"
			       " SELECT id FROM ins UNION ALL SELECT id FROM machine WHERE name = ?1 LIMIT 1",
};

const struct db_ops db_pg_ops = {
	.name = "postgresql",
	.prepare = pg_prepare,
	.step = pg_step,
	.reset = pg_reset,
	.clear = pg_clear,
	.finalize = pg_finalize,
	.bind_text = pg_bind_text,
	.bind_int = pg_bind_int,
	.bind_double = pg_bind_double,
	.bind_null = pg_bind_null,
	.col_null = pg_col_null,
	.col_str = pg_col_str,
	.col_int = pg_col_int,
	.col_real = pg_col_real,
	.exec = pg_exec,
	.in_txn = pg_in_txn,
	.retryable = pg_retryable,
	.lost = pg_lost,
	.errmsg = pg_errmsg,
	.step_errmsg = pg_step_errmsg,
	.finalize_failed = pg_finalize_failed,
	.close = pg_close,
	.begin_write = "BEGIN",
	.begin_snapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
	.schema_read = pg_schema_read,
	.migrate = pg_migrate,
	.reader_upgrades = 0,
	.names_sql = "SELECT quote_ident(current_database()), quote_ident(current_schema()),"
		     " quote_ident(current_user)",
	.open = pg_open,
	.may_write = pg_may_write,
	.sql = pg_sql,
	.bulk = &pg_bulk,
};
