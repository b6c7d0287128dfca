/* Errors that cannot be missed: a row loop that stops on an error is not
 * a short result (every query through db_rows_end()), and a reader's
 * connection cannot write. */
#include "unit.h"
#include "fixture.h"
#include "../../db/db_int.h"
#include "../../db/query.h"
#include "../../ingest/record.h"

#include <stdlib.h>

/* A database with n sources of one hackbench run each. */
static int fill(const char *path, int n)
{
	struct db *db = NULL;
	struct kb_err err;
	int i, rc = 0;

	kb_err_clear(&err);
	if (db_open(&db, path, &err) < 0)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		struct db_import_result res;
		char name[32];
		snprintf(name, sizeof(name), "f%d", i);
		rc = unit_store_run(db, name, i % 2 ? "odd" : "even", 1, &res, &err);
	}
	if (rc == 0)
		rc = db_store_flush(db, NULL, &err);
	db_close(db);
	return rc;
}

/* Interrupt the connection's statements after *budget progress calls. */
static int interrupt_after(void *p)
{
	int *budget = p;

	return --*budget < 0;
}

TEST(db_rows_an_interrupted_loop_is_an_error)
{
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256];
	struct db *db = NULL;
	struct db_list l;
	struct db_qdata q;
	struct kb_err err;
	int budget;

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	CHECK_INT(fill(path, 200), 0);
	kb_err_clear(&err);
	CHECK_INT(db_open_existing(&db, path, &err), 0);
	if (!db)
		return;
	CHECK_INT(db_list(db, &l, &err), 0);     /* whole, it lists 200 sources */
	CHECK_INT(l.nvariants, 2);
	db_list_release(&l);
	/* Stopped halfway (as SQLITE_BUSY or SQLITE_IOERR would stop it), a
	 * listing is an error, not a shorter list. */
	budget = 20;
	sqlite3_progress_handler(db->h, 10, interrupt_after, &budget);
	CHECK_INT(db_list(db, &l, &err), -1);
	CHECK(strstr(err.msg, "interrupt") != NULL);
	budget = 50;
	CHECK_INT(db_query_load(db, "hackbench", &q, &err), -1);
	sqlite3_progress_handler(db->h, 0, NULL, NULL);
	CHECK_INT(db_query_load(db, "hackbench", &q, &err), 0);
	CHECK_INT(q.nruns, 200);
	db_qdata_release(&q);
	db_close(db);
	unit_tmpdb_remove(dir);
}

TEST(db_open_existing_cannot_write)
{
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256];
	struct db *db = NULL;
	struct kb_err err;

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	CHECK_INT(fill(path, 1), 0);
	kb_err_clear(&err);
	CHECK_INT(db_open_existing(&db, path, &err), 0);
	if (!db)
		return;
	CHECK_INT(db_exec(db, "CREATE TABLE reader_wrote (x)", &err), -1);
	CHECK(strstr(err.msg, "readonly") != NULL);
	db_close(db);
	unit_tmpdb_remove(dir);
}
