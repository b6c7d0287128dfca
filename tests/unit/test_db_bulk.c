/* The backend interface: both tables are complete, and the bulk path
 * writes rows as given (text kept or copied, NULLs, numbers) in chunks
 * of the multi-row INSERT. */
#include "unit.h"
#include "fixture.h"
#include "../../db/db_int.h"

#include <stdio.h>
#include <string.h>

static void check_ops(const struct db_ops *o)
{
	CHECK(o->prepare && o->step && o->reset && o->clear && o->finalize);
	CHECK(o->bind_text && o->bind_int && o->bind_double && o->bind_null);
	CHECK(o->col_null && o->col_str && o->col_int && o->col_real);
	CHECK(o->exec && o->in_txn && o->retryable && o->lost && o->errmsg);
	CHECK(o->step_errmsg && o->finalize_failed && o->close && o->open && o->may_write);
	CHECK(o->begin_write && o->begin_snapshot && o->schema_read && o->migrate);
	CHECK(o->sql && o->sql[DB_SQL_INS_SOURCE] && o->sql[DB_SQL_INS_VARIANT] &&
	      o->sql[DB_SQL_INS_MACHINE]);
	CHECK(o->bulk && o->bulk->begin && o->bulk->commit && o->bulk->end &&
	      o->bulk->next_run_id && o->bulk->write_rows && o->bulk->find_copies);
}

TEST(db_bulk_both_backends_fill_every_entry)
{
	check_ops(&db_sqlite_ops);
	check_ops(&db_pg_ops);
}

TEST(db_bulk_rows_go_in_as_given)
{
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256], text[32];
	struct db *db = NULL;
	struct db_bulk r;
	struct kb_err err;
	int i, n = DB_ROWS_MAX * 2 + 3;     /* two full statements and a short one */

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	kb_err_clear(&err);
	CHECK_INT(db_open(&db, path, &err), 0);
	if (!db)
		return;
	CHECK_INT(db_exec(db, "INSERT INTO source (path, sha256, size, format)"
			  " VALUES ('p', 'x', 1, 'f')", &err), 0);
	CHECK_INT(db->ops->bulk->begin(db, &err), 0);
	CHECK_INT(db->last_run, 0);
	db_bulk_init(&r, DB_T_SEGMENT);
	for (i = 0; i < n; i++) {
		snprintf(text, sizeof(text), "h%d", i);
		db_bulk_int(&r, 1);
		db_bulk_int(&r, i);
		db_bulk_int(&r, i + 1);
		db_bulk_static(&r, i % 2 ? "odd" : "even");
		db_bulk_text(&r, text);         /* copied: text changes next time */
		db_bulk_int(&r, i);
		db_bulk_int(&r, 0);
		db_bulk_positive(&r, i);        /* 0 gives NULL */
	}
	CHECK_INT((long long)db_bulk_count(&r), n);
	CHECK_INT(db_bulk_write(db, &r, &err), 0);
	CHECK_INT((long long)db_bulk_count(&r), 0);
	CHECK_INT(db->ops->bulk->commit(db, &err), 0);
	db_bulk_release(&r);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM segment"), n);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM segment WHERE format = 'odd'"), n / 2);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM segment WHERE hash = 'h' || first_line"), n);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM segment WHERE copy_of IS NULL"), 1);
	CHECK_INT(unit_sql_int(db, "SELECT count(*) FROM segment WHERE runs = first_line"), n);
	CHECK_INT(unit_sql_int(db, "SELECT sum(last_line - first_line) FROM segment"), n);
	/* runs numbered from the highest id, one after another */
	CHECK_INT(db->ops->bulk->begin(db, &err), 0);
	CHECK_INT(db->ops->bulk->next_run_id(db, 3, &err), 1);
	CHECK_INT(db->ops->bulk->next_run_id(db, 3, &err), 2);
	CHECK_INT(db_exec(db, "ROLLBACK", &err), 0);
	db->ops->bulk->end(db);
	CHECK_INT(unit_sql_int(db, "PRAGMA foreign_keys"), 1);
	db_close(db);
	unit_tmpdb_remove(dir);
}
