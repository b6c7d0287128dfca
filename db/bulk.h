/*
 * bulk.h - rows on their way to one table in bulk: the importer's
 * (store.c) and kbench copy's (copy.c), written by the backend's
 * ops->bulk->write_rows() as multi-row INSERTs (SQLite) or COPY
 * (PostgreSQL).  Not for use outside db/.
 */
#ifndef KB_DB_BULK_H
#define KB_DB_BULK_H

#include <stddef.h>

#include "../core/buf.h"
#include "../core/err.h"

struct db;

/* The tables written in bulk, and their columns in the order a row
 * gives its values.  A row's table comes before its children's: runs
 * before their samples. */
enum { DB_T_RUN, DB_T_SAMPLE, DB_T_JOB, DB_T_SUMMARY, DB_T_SEGMENT, DB_T_ENV, DB_T_COUNT };
struct db_table {
	const char *table, *cols;
	int ncols;
};
extern const struct db_table db_tables[DB_T_COUNT];

enum { DB_V_NULL, DB_V_INT, DB_V_REAL, DB_V_TEXT };
struct db_val {
	int type;
	long long i;
	double d;
	const char *s;          /* DB_V_TEXT kept by the caller, or NULL: */
	size_t off;             /* DB_V_TEXT copied: where in rows.text */
};

struct db_bulk {
	int table;              /* DB_T_* */
	int ncols;
	struct db_val *v;
	size_t n, cap;          /* values; n / ncols rows */
	struct buf text;        /* copied text values, each NUL-ended */
};

void db_bulk_init(struct db_bulk *r, int table);
void db_bulk_release(struct db_bulk *r);
/* Forget the rows (written, or dropped). */
void db_bulk_reset(struct db_bulk *r);
size_t db_bulk_count(const struct db_bulk *r);

/* The next value of the row being given. */
void db_bulk_int(struct db_bulk *r, long long v);
/* v, or NULL when it is not positive (no machine, no job, unknown n). */
void db_bulk_positive(struct db_bulk *r, long long v);
void db_bulk_real(struct db_bulk *r, double v);        /* NaN gives NULL */
void db_bulk_null(struct db_bulk *r);
/* Text, copied (NULL gives NULL). */
void db_bulk_text(struct db_bulk *r, const char *s);
/* Text that stays valid, unchanged, until r is written (NULL gives NULL). */
void db_bulk_static(struct db_bulk *r, const char *s);
/* The text of value v of r. */
const char *db_bulk_str(const struct db_bulk *r, const struct db_val *v);

/* Write r's rows (the backend's bulk path) and empty r; 0 or -1 with err. */
int db_bulk_write(struct db *db, struct db_bulk *r, struct kb_err *err);

#endif
