/* The statement pool (db_prepare / db_finalize): a finalized statement
 * goes to the next caller of the same text, reset and with its bindings
 * cleared; two callers at once get two statements; a failed one leaves
 * the pool; and what finalize says of a failed step is said by a pooled
 * statement too. */
#include "unit.h"
#include "fixture.h"
#include "../../db/db_int.h"

#include <stdio.h>
#include <stdlib.h>

TEST(db_pool_gives_a_finalized_statement_back_reset_and_cleared)
{
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256], sql[64];
	struct db *db = NULL;
	struct dbst *a, *b, *c;
	struct kb_err err;
	int i;

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	kb_err_clear(&err);
	CHECK_INT(db_open(&db, path, &err), 0);
	if (!db)
		return;
	a = db_prepare(db, "SELECT ?1, 7", &err);
	CHECK(a != NULL);
	db_bind_int(a, 1, 42);
	CHECK_INT(db_step(a), DB_ROW);
	CHECK_INT(db_col_int(a, 0), 42);
	/* left on its row, then finalized: back in the pool */
	CHECK_INT(db_finalize(a), 0);
	b = db_prepare(db, "SELECT ?1, 7", &err);
	CHECK(b == a);
	/* from its start, with ?1 unbound (NULL) */
	CHECK_INT(db_step(b), DB_ROW);
	CHECK_INT(db_col_null(b, 0), 1);
	CHECK_INT(db_col_int(b, 1), 7);
	/* on loan: the same text again is another statement */
	c = db_prepare(db, "SELECT ?1, 7", &err);
	CHECK(c != NULL && c != b);
	CHECK_INT(db_step(c), DB_ROW);
	CHECK_INT(db_finalize(c), 0);
	CHECK_INT(db_finalize(b), 0);
	/* more texts than the pool holds: every statement still works */
	for (i = 0; i < 3 * DB_POOL_MAX; i++) {
		struct dbst *s;

		snprintf(sql, sizeof(sql), "SELECT %d", i % (2 * DB_POOL_MAX));
		s = db_prepare(db, sql, &err);
		CHECK(s != NULL);
		if (!s)
			break;
		CHECK_INT(db_step(s), DB_ROW);
		CHECK_INT(db_col_int(s, 0), i % (2 * DB_POOL_MAX));
		CHECK_INT(db_finalize(s), 0);
	}
	db_close(db);
	unit_tmpdb_remove(dir);
}

/* A statement of ins with ?1 bound to x, stepped once: its result. */
static struct dbst *insert(struct db *db, const char *ins, long long x, int *step,
			   struct kb_err *err)
{
	struct dbst *st = db_prepare(db, ins, err);

	*step = DB_ERROR;
	if (st) {
		db_bind_int(st, 1, x);
		*step = db_step(st);
	}
	return st;
}

TEST(db_pool_a_failed_statement_says_so_and_leaves)
{
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256];
	struct db *db = NULL;
	struct dbst *st, *again;
	struct kb_err err;
	int step;
	const char *ins = "INSERT INTO pool_t (x) VALUES (?1)";

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	kb_err_clear(&err);
	CHECK_INT(db_open(&db, path, &err), 0);
	if (!db)
		return;
	CHECK_INT(db_exec(db, "CREATE TABLE pool_t (x INTEGER PRIMARY KEY)", &err), 0);
	st = insert(db, ins, 1, &step, &err);
	CHECK(st != NULL);
	CHECK_INT(step, DB_DONE);
	CHECK_INT(db_finalize(st), 0);
	/* the same row again: the step fails, and finalizing the pooled
	 * statement says so, as finalizing any statement would */
	st = insert(db, ins, 1, &step, &err);
	CHECK_INT(step, DB_ERROR);
	CHECK(db_finalize(st) != 0);
	/* ... and the next caller gets it clean */
	again = insert(db, ins, 2, &step, &err);
	CHECK(again == st);
	CHECK_INT(step, DB_DONE);
	CHECK_INT(db_finalize(again), 0);
	/* a failure reported through db_rows_fail() takes it out of the
	 * pool (it is finalized there): the text is prepared anew */
	st = insert(db, ins, 2, &step, &err);
	CHECK_INT(step, DB_ERROR);
	CHECK_INT(db_rows_fail(db, st, "insert", &err), -1);
	CHECK(strstr(err.msg, "UNIQUE") != NULL || strstr(err.msg, "constraint") != NULL);
	again = insert(db, ins, 3, &step, &err);
	CHECK(again != NULL);
	CHECK_INT(step, DB_DONE);
	CHECK_INT(db_finalize(again), 0);
	db_close(db);
	unit_tmpdb_remove(dir);
}
