/*
 * open.c - opening and closing a store: the one place that chooses the
 * backend (a server's URI or a SQLite file), then the sequence every
 * store goes through: the schema brought up to date (a writer) or
 * checked (a reader), and at close the import group committed and what
 * the connection kept released.
 */
#include "db_int.h"
#include "../core/util.h"

#include <stdlib.h>

static int open_store(struct db **out, const char *spec, int mode, struct kb_err *err)
{
	struct db *db = xcalloc(1, sizeof(*db));

	db->ops = db_is_server(spec) ? &db_pg_ops : &db_sqlite_ops;
	db->readonly = mode != DB_OPEN_WRITE;
	if (db->ops->open(db, spec, mode, err) < 0) {
		db_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

int db_open(struct db **out, const char *path, struct kb_err *err)
{
	struct db *db;

	if (open_store(&db, path, DB_OPEN_WRITE, err) < 0)
		return -1;
	if (db_migrate(db, err) < 0 || db->ops->may_write(db, err) < 0) {
		db->discard = 1;        /* a store this open created goes again */
		db_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

int db_open_unchecked(struct db **out, const char *spec, struct kb_err *err)
{
	return open_store(out, spec, DB_OPEN_UNCHECKED, err);
}

int db_open_existing(struct db **out, const char *path, struct kb_err *err)
{
	struct db *db;
	int rc;

	if (open_store(&db, path, DB_OPEN_READ, err) < 0)
		return -1;
	rc = db_schema_check(db, err);
	if (rc > 0 && db->ops->reader_upgrades) {
		/* Written by an older kbench: the one write a reader makes is
		 * the upgrade, through a connection of its own, and only when
		 * it is needed.  Then reading goes on read-only. */
		struct db *w;
		db_close(db);
		if (db_open(&w, path, err) < 0)
			return -1;
		db_close(w);
		if (open_store(&db, path, DB_OPEN_READ, err) < 0)
			return -1;
		rc = db_schema_check(db, err);
	}
	if (rc > 0)
		rc = kb_err_set(err, db->path, 0, "the store's schema is older than this kbench: "
				"run 'kbench init' (or an import) as a role that may change it");
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

int db_lost(const struct db *db)
{
	return db && db->ops->lost(db);
}

void db_close(struct db *db)
{
	if (!db)
		return;
	db_store_flush(db, NULL, NULL);
	db_store_release(db);
	db_each_stmt(db, db_finalize);
	db_pool_free(db);
	db_vcache_free(db);
	db->ops->close(db);
	free(db->path);
	free(db->spec);
	free(db);
}
