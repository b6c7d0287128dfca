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

/* The version before init: a missing SQLite file is version 0; an
 * existing store is read without opening it for writing. */
static int version_before(const char *spec, int *version, struct kb_err *err)
{
	struct db *db;
	struct stat sb;
	int rc;

	*version = 0;
	if (!db_is_server(spec) && stat(spec, &sb) < 0)
		return 0;
	if (db_open_unchecked(&db, spec, err) < 0)
		return -1;
	rc = db_schema_read(db, version, err);
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
	res->pg = db->ops->names_sql != NULL;
	snprintf(res->name, sizeof(res->name), "%s", db_name(db));
	rc = db_schema_read(db, &res->after, err);
	/* a server's names, as psql must be given them */
	if (rc == 0 && res->pg)
		rc = one_row(db, db->ops->names_sql, names, 3, err);
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
