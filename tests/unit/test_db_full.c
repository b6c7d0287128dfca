/* A full disk in the middle of an import fails only the file that did
 * not fit.  SQLITE_FULL is injected two ways: a VFS over the default one
 * whose writes past a budget fail as a full disk does (SQLite rolls the
 * transaction back by itself), and PRAGMA max_page_count (the database
 * may not grow).  Then space "comes back" and the next files must store. */
#include "unit.h"
#include "fixture.h"
#include "../../db/db_int.h"
#include "../../ingest/record.h"

#include <stdlib.h>
#include <sys/stat.h>

/* The full-disk VFS: forwards to the default VFS; once disk_budget is
 * not negative, a write that ends past the file's size takes from it, and
 * fails with SQLITE_FULL when there is not enough. */
static sqlite3_vfs *real_vfs;
static long long disk_budget = -1;

struct full_file {
	sqlite3_file base;
	sqlite3_file *real;     /* the default VFS's file, allocated after this */
};

#define REAL(f) (((struct full_file *)(f))->real)

static int ff_close(sqlite3_file *f) { return REAL(f)->pMethods->xClose(REAL(f)); }
static int ff_read(sqlite3_file *f, void *p, int n, sqlite3_int64 off)
{ return REAL(f)->pMethods->xRead(REAL(f), p, n, off); }
static int ff_write(sqlite3_file *f, const void *p, int n, sqlite3_int64 off)
{
	sqlite3_int64 size = 0;

	if (disk_budget >= 0 && REAL(f)->pMethods->xFileSize(REAL(f), &size) == SQLITE_OK &&
	    off + n > size) {
		if (off + n - size > disk_budget)
			return SQLITE_FULL;
		disk_budget -= off + n - size;
	}
	return REAL(f)->pMethods->xWrite(REAL(f), p, n, off);
}
static int ff_truncate(sqlite3_file *f, sqlite3_int64 n) { return REAL(f)->pMethods->xTruncate(REAL(f), n); }
static int ff_sync(sqlite3_file *f, int fl) { return REAL(f)->pMethods->xSync(REAL(f), fl); }
static int ff_size(sqlite3_file *f, sqlite3_int64 *n) { return REAL(f)->pMethods->xFileSize(REAL(f), n); }
static int ff_lock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int ff_unlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int ff_check(sqlite3_file *f, int *r) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), r); }
static int ff_fcntl(sqlite3_file *f, int op, void *a) { return REAL(f)->pMethods->xFileControl(REAL(f), op, a); }
static int ff_sector(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int ff_dev(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int ff_shm_map(sqlite3_file *f, int i, int sz, int ext, void volatile **pp)
{ return REAL(f)->pMethods->xShmMap(REAL(f), i, sz, ext, pp); }
static int ff_shm_lock(sqlite3_file *f, int o, int n, int fl) { return REAL(f)->pMethods->xShmLock(REAL(f), o, n, fl); }
static void ff_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int ff_shm_unmap(sqlite3_file *f, int del) { return REAL(f)->pMethods->xShmUnmap(REAL(f), del); }
static int ff_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **pp)
{ return REAL(f)->pMethods->xFetch(REAL(f), off, n, pp); }
static int ff_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p) { return REAL(f)->pMethods->xUnfetch(REAL(f), off, p); }

static const sqlite3_io_methods full_methods = {
	3, ff_close, ff_read, ff_write, ff_truncate, ff_sync, ff_size, ff_lock, ff_unlock,
	ff_check, ff_fcntl, ff_sector, ff_dev, ff_shm_map, ff_shm_lock, ff_shm_barrier,
	ff_shm_unmap, ff_fetch, ff_unfetch,
};

static int full_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out)
{
	struct full_file *ff = (struct full_file *)f;
	int rc;

	(void)vfs;
	ff->real = (sqlite3_file *)(ff + 1);
	rc = real_vfs->xOpen(real_vfs, name, ff->real, flags, out);
	ff->base.pMethods = ff->real->pMethods ? &full_methods : NULL;
	return rc;
}

static sqlite3_vfs full_vfs;

/* Make the full-disk VFS the default (once). */
static void full_vfs_install(void)
{
	if (real_vfs)
		return;
	real_vfs = sqlite3_vfs_find(NULL);
	full_vfs = *real_vfs;
	full_vfs.zName = "kbench-unit-full";
	full_vfs.szOsFile = (int)sizeof(struct full_file) + real_vfs->szOsFile;
	full_vfs.xOpen = full_open;
	full_vfs.pNext = NULL;
	sqlite3_vfs_register(&full_vfs, 1);
}

static void full_vfs_remove(void)
{
	if (!real_vfs)
		return;
	sqlite3_vfs_unregister(&full_vfs);
	sqlite3_vfs_register(real_vfs, 1);
	real_vfs = NULL;
}

TEST(db_full_disk_fails_only_the_file_that_did_not_fit)
{
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256];
	struct db *db = NULL;
	struct db_import_result res;
	struct kb_err err;

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	full_vfs_install();
	kb_err_clear(&err);
	CHECK(db_open(&db, path, &err) == 0);
	if (!db) {
		full_vfs_remove();
		return;
	}
	CHECK_INT(unit_store_run(db, "a", "v1", 1, &res, &err), 0);
	CHECK_INT(db_store_flush(db, NULL, &err), 0);
	CHECK_INT(unit_store_run(db, "b", "v1", 1, &res, &err), 0);   /* kept, not committed */
	disk_budget = 64 * 1024;                           /* the disk fills up */
	CHECK_INT(unit_store_run(db, "x-big", "v2", 300000, &res, &err), -1);
	CHECK(strstr(err.msg, "full") != NULL);
	disk_budget = -1;                                  /* space is back */
	kb_err_clear(&err);
	CHECK_INT(unit_store_run(db, "c", "v1", 1, &res, &err), 0);
	CHECK_INT(unit_store_run(db, "d", "v3", 2, &res, &err), 0);
	if (err.msg[0])
		unit_fail(__FILE__, __LINE__, "after the full disk: %s", err.msg);
	CHECK_INT(db_store_flush(db, NULL, &err), 0);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM source WHERE path = 'x-big'"), 0);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM source WHERE path IN ('c', 'd')"), 2);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM variant WHERE name IN ('v1', 'v3')"), 2);
	db_close(db);
	full_vfs_remove();
	unit_tmpdb_remove(dir);
}

TEST(db_full_pages_fails_only_the_file_that_did_not_fit)
{
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256], sql[128];
	struct db *db = NULL;
	struct db_import_result res;
	struct kb_err err;
	long long pages;

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	kb_err_clear(&err);
	CHECK(db_open(&db, path, &err) == 0);
	if (!db)
		return;
	CHECK_INT(unit_store_run(db, "a", "v1", 1, &res, &err), 0);
	CHECK_INT(db_store_flush(db, NULL, &err), 0);
	CHECK_INT(unit_store_run(db, "b", "v1", 1, &res, &err), 0);   /* kept, not committed */
	/* The disk fills up: the next big file cannot be stored. */
	pages = unit_sql_int(db, "PRAGMA page_count");
	snprintf(sql, sizeof(sql), "PRAGMA max_page_count = %lld", pages + 2);
	CHECK_INT(db_exec(db, sql, &err), 0);
	CHECK_INT(unit_store_run(db, "x-big", "v2", 20000, &res, &err), -1);
	CHECK(strstr(err.msg, "full") != NULL);
	CHECK_INT(res.lost, 0);
	/* Space is back: the files after it store, variants and all. */
	CHECK_INT(db_exec(db, "PRAGMA max_page_count = 1000000", &err), 0);
	kb_err_clear(&err);
	CHECK_INT(unit_store_run(db, "c", "v1", 1, &res, &err), 0);
	CHECK_INT(unit_store_run(db, "d", "v3", 2, &res, &err), 0);
	if (err.msg[0])
		unit_fail(__FILE__, __LINE__, "after the full disk: %s", err.msg);
	CHECK_INT(db_store_flush(db, NULL, &err), 0);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM source"), 4);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM source WHERE path = 'x-big'"), 0);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM sample"), 5);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM variant WHERE name IN ('v1', 'v3')"), 2);
	db_close(db);
	unit_tmpdb_remove(dir);
}

TEST(db_full_new_database_is_not_left_behind)
{
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256];
	struct db *db = NULL;
	struct kb_err err;
	struct stat sb;

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	full_vfs_install();
	disk_budget = 0;                                   /* not a byte free */
	kb_err_clear(&err);
	CHECK_INT(db_open(&db, path, &err), -1);
	disk_budget = -1;
	full_vfs_remove();
	CHECK(strstr(err.msg, "full") != NULL);
	CHECK(stat(path, &sb) < 0);                        /* no empty store left */
	if (db)
		db_close(db);
	unit_tmpdb_remove(dir);
}
