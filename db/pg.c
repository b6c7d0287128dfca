/*
 * pg.c - the PostgreSQL backend: a connection through libpq, statements
 * run with their parameters as text, COPY for bulk rows, and libpq's
 * reasons for failures, with any password masked.  db.c dispatches here
 * when the store is a server (db_is_server()); nothing above db/ knows.
 */
#include "db_int.h"
#include "../core/buf.h"
#include "../core/util.h"

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

void db_pg_failed(struct db *db, const PGresult *res)
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

/* A setting of the session, or err with the reason. */
static int session(struct db *db, const char *sql, struct kb_err *err)
{
	if (db_pg_exec(db, sql, NULL) == 0)
		return 0;
	return kb_err_set(err, db->path, 0, "cannot set up the session: %s", db->pgmsg);
}

int db_pg_open(struct db *db, const char *spec, struct kb_err *err)
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
	if (db_pg_exec(db, "SET client_encoding = 'UTF8'; SET extra_float_digits = 1;"
		       " SET lc_messages = 'C'", NULL) < 0 &&
	    /* lc_messages needs a superuser on some servers: not essential */
	    session(db, "SET client_encoding = 'UTF8'; SET extra_float_digits = 1", err) < 0)
		return -1;
	if (!strstr(uri, "statement_timeout"))
		db_pg_exec(db, "SET statement_timeout = '10min'", NULL);
	/* Analysis verbs never write: the server refuses it too. */
	if (db->readonly && session(db, "SET default_transaction_read_only = on", err) < 0)
		return -1;
	/* Notices (a table that exists already) are not for the user. */
	PQsetNoticeProcessor(db->pg, no_notice, NULL);
	return 0;
}

void db_pg_close(struct db *db)
{
	PQfinish(db->pg);
	db->pg = NULL;
}

int db_pg_exec(struct db *db, const char *sql, struct kb_err *err)
{
	PGresult *res = PQexec(db->pg, sql);
	ExecStatusType s = PQresultStatus(res);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK && s != PGRES_EMPTY_QUERY) {
		db_pg_failed(db, res);
		PQclear(res);
		return kb_err_set(err, db->path, 0, "%s", db->pgmsg);
	}
	PQclear(res);
	return 0;
}

int db_pg_step(struct dbst *st)
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
					db_pg_failed(db, p);
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
			db_pg_failed(db, st->res);
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

void db_pg_copy_text(struct buf *out, const char *s)
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

int db_pg_copy(struct db *db, const char *table, const char *cols, const char *data,
	       size_t len, struct kb_err *err)
{
	char *sql = buf_aprintf("COPY %s (%s) FROM STDIN", table, cols);
	PGresult *res = PQexec(db->pg, sql);
	int ok;

	free(sql);
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		db_pg_failed(db, res);
		PQclear(res);
		return kb_err_set(err, db->path, 0, "cannot store: %s", db->pgmsg);
	}
	PQclear(res);
	ok = PQputCopyData(db->pg, data, (int)len) == 1 && PQputCopyEnd(db->pg, NULL) == 1;
	/* the result of the COPY, then the end of results */
	while ((res = PQgetResult(db->pg)) != NULL) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && ok) {
			db_pg_failed(db, res);
			ok = -1;
		}
		PQclear(res);
	}
	if (ok == 1)
		return 0;
	if (ok == 0)
		db_pg_failed(db, NULL);
	return kb_err_set(err, db->path, 0, "cannot store: %s", db->pgmsg);
}
