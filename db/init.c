/*
 * init.c - kbench init: create or upgrade a store's schema and say what
 * was done, with what a PostgreSQL admin needs to grant rights on it.
 */
#include "db_int.h"
#include "../core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The schema version of an open store: SQLite's PRAGMA user_version,
 * PostgreSQL's kbench_schema (0 when there is none). */
static int version_of(struct db *db, int *version, struct kb_err *err)
{
	struct dbst *st;
	int has = 1;

	*version = 0;
	if (db->kind == DB_PG) {
		st = db_prepare(db, "SELECT to_regclass('kbench_schema') IS NOT NULL", err);
		if (!st)
			return -1;
		has = db_step(st) == DB_ROW && db_col_int(st, 0);
		if (db_rows_end(db, st, err) < 0)
			return -1;
	}
	if (!has)
		return 0;
	st = db_prepare(db, db->kind == DB_PG ? "SELECT max(version) FROM kbench_schema"
			: "PRAGMA user_version", err);
	if (!st)
		return -1;
	if (db_step(st) == DB_ROW)
		*version = (int)db_col_int(st, 0);
	return db_rows_end(db, st, err);
}

/* The version before init: a SQLite file is read without opening it for
 * writing (a missing file is version 0); a server through a read-only
 * session that checks nothing. */
static int version_before(const char *spec, int *version, struct kb_err *err)
{
	struct db *db = xcalloc(1, sizeof(*db));
	struct stat sb;
	int rc;

	*version = 0;
	if (db_is_server(spec)) {
		db->kind = DB_PG;
		db->readonly = 1;
		rc = db_pg_open(db, spec, err);
	} else {
		if (stat(spec, &sb) < 0) {
			free(db);
			return 0;
		}
		db->path = xstrdup(spec);
		rc = sqlite3_open_v2(spec, &db->h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK ? 0
			: kb_err_set(err, spec, 0, "cannot open database: %s",
				     db->h ? sqlite3_errmsg(db->h) : "out of memory");
		if (rc == 0)
			sqlite3_busy_timeout(db->h, 60000);
	}
	if (rc == 0)
		rc = version_of(db, version, err);
	db_close(db);
	return rc;
}

/* Text of column 0..n-1 of a one-row query, malloc'd. */
static int one_row(struct db *db, const char *sql, char **out, int n, struct kb_err *err)
{
	struct dbst *st = db_prepare(db, sql, err);
	int i;

	if (!st)
		return -1;
	if (db_step(st) == DB_ROW)
		for (i = 0; i < n; i++)
			out[i] = db_col_text(st, i);
	if (db_rows_end(db, st, err) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (!out[i])
			return kb_err_set(err, db->path, 0, "cannot read the database's names");
	return 0;
}

int db_init(const char *spec, struct db_init_result *res, struct kb_err *err)
{
	struct db *db;
	char *names[3] = { NULL, NULL, NULL };
	int rc;

	memset(res, 0, sizeof(*res));
	if (version_before(spec, &res->before, err) < 0)
		return -1;
	if (db_open(&db, spec, err) < 0)
		return -1;
	res->pg = db->kind == DB_PG;
	snprintf(res->name, sizeof(res->name), "%s", db_name(db));
	rc = version_of(db, &res->after, err);
	/* quote_ident: names as psql must be given them */
	if (rc == 0 && res->pg)
		rc = one_row(db, "SELECT quote_ident(current_database()), quote_ident(current_schema()),"
			     " quote_ident(current_user)", names, 3, err);
	if (rc == 0 && res->pg) {
		snprintf(res->database, sizeof(res->database), "%s", names[0]);
		snprintf(res->schema, sizeof(res->schema), "%s", names[1]);
		snprintf(res->owner, sizeof(res->owner), "%s", names[2]);
	}
	free(names[0]);
	free(names[1]);
	free(names[2]);
	db_close(db);
	return rc;
}
