/* The store's grouped transactions: a file that fails halfway is rolled
 * back with the group, the files kept before it are stored again, and a
 * kept file that cannot be stored again is reported as lost. */
#include "unit.h"
#include "fixture.h"
#include "../../db/db_int.h"
#include "../../ingest/record.h"

#include <stdlib.h>
#include <unistd.h>

/* kb_fail(path): fails the statement for path 'b', and for path 'a' the
 * second time it sees it (that is, when 'a' is stored again). */
static int seen_a;

static void kb_fail(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *p = (const char *)sqlite3_value_text(argv[0]);

	int fail = 0;

	(void)argc;
	if (p && strcmp(p, "b") == 0)
		fail = 1;
	if (p && strcmp(p, "a") == 0)
		fail = ++seen_a == 2;
	if (fail)
		sqlite3_result_error(ctx, "refused by the test", -1);
	else
		sqlite3_result_int(ctx, 0);
}

static int store(struct db *db, const char *path, struct db_import_result *res,
		 struct kb_err *err)
{
	struct db_import imp;
	struct rec_batch b;
	struct rec_run *r;
	char sha[65];
	int rc;

	rec_batch_init(&b);
	r = rec_run_new(&b, "hackbench", 1);
	rec_sample_add(&b, r, "time", 1.5, "s", 0);
	rec_batch_finish(&b);
	memset(&imp, 0, sizeof(imp));
	snprintf(sha, sizeof(sha), "%064x", path[0]);
	imp.path = path;
	imp.sha256 = sha;
	imp.size = 10;
	imp.format = "hackbench";
	imp.variant = "v";
	rc = db_store_batch(db, &imp, &b, res, err);
	rec_batch_release(&b);
	return rc;
}

static long long count(struct db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long n = -1;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

TEST(db_group_replay_and_lost)
{
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256];
	struct db *db = NULL;
	struct db_import_result res;
	struct kb_err err;

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	kb_err_clear(&err);
	CHECK(db_open(&db, path, &err) == 0);
	if (!db)
		return;
	CHECK(sqlite3_create_function(db->h, "kb_fail", 1, SQLITE_UTF8, NULL, kb_fail, NULL, NULL) == SQLITE_OK);
	CHECK(sqlite3_exec(db->h, "CREATE TEMP TRIGGER kb_fail BEFORE INSERT ON main.run "
			   "BEGIN SELECT kb_fail((SELECT path FROM source WHERE id = NEW.source_id)); END",
			   NULL, NULL, NULL) == SQLITE_OK);

	/* 'x' stored, then 'b' fails: 'x' is stored again and stays. */
	CHECK(store(db, "x", &res, &err) == 0);
	CHECK(store(db, "b", &res, &err) < 0);
	CHECK(strstr(err.msg, "refused by the test") != NULL);
	CHECK_INT(res.lost, 0);
	CHECK_INT(count(db, "SELECT count(*) FROM source"), 1);
	CHECK_INT(count(db, "SELECT count(*) FROM sample WHERE value = 1.5"), 1);

	/* 'a' stored, then 'b' fails, and storing 'a' again fails: 'a' is lost. */
	CHECK(store(db, "a", &res, &err) == 0);
	CHECK(store(db, "b", &res, &err) < 0);
	CHECK_INT(res.lost, 1);
	CHECK_INT(seen_a, 2);
	CHECK_INT(count(db, "SELECT count(*) FROM source WHERE path = 'a'"), 0);

	/* The store goes on: 'c' is stored and committed. */
	CHECK(store(db, "c", &res, &err) == 0);
	CHECK(db_store_flush(db, NULL, &err) == 0);
	CHECK_INT(count(db, "SELECT count(*) FROM source"), 2);
	CHECK_INT(count(db, "SELECT count(*) FROM run"), 2);
	db_close(db);
	unit_tmpdb_remove(dir);
}
