/*
 * bulk.c - rows on their way to one table in bulk (bulk.h).
 */
#include "bulk.h"
#include "db_int.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Multi-row INSERTs and COPY name the same columns in the same order. */
const struct db_table db_tables[DB_T_COUNT] = {
	[DB_T_RUN] = { "run", "id, source_id, variant_id, machine_id, benchmark, config, iteration,"
		       " status, error, line", 10 },
	[DB_T_SAMPLE] = { "sample", "run_id, metric, value, unit, job", 5 },
	[DB_T_JOB] = { "job", "run_id, job, initial_node, main_node, moved, marked, user_time, pct", 8 },
	[DB_T_SUMMARY] = { "summary", "source_id, variant_id, machine_id, benchmark, config, metric,"
			   " mean, sd, n, min, max, unit, flags, line, pub_change, pub_mark, stats,"
			   " pub_base", 18 },
	[DB_T_SEGMENT] = { "segment", "source_id, first_line, last_line, format, hash, runs,"
			   " summaries, copy_of", 8 },
	[DB_T_ENV] = { "env", "source_id, key, value", 3 },
};

void db_bulk_init(struct db_bulk *r, int table)
{
	memset(r, 0, sizeof(*r));
	r->table = table;
	r->ncols = db_tables[table].ncols;
}

void db_bulk_release(struct db_bulk *r)
{
	free(r->v);
	buf_release(&r->text);
	r->v = NULL;
	r->n = r->cap = 0;
}

void db_bulk_reset(struct db_bulk *r)
{
	r->n = 0;
	buf_reset(&r->text);
}

size_t db_bulk_count(const struct db_bulk *r)
{
	return r->n / (size_t)r->ncols;
}

static struct db_val *push(struct db_bulk *r)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		r->v = xrealloc(r->v, r->cap * sizeof(*r->v));
	}
	memset(&r->v[r->n], 0, sizeof(r->v[r->n]));
	return &r->v[r->n++];
}

void db_bulk_null(struct db_bulk *r)
{
	push(r)->type = DB_V_NULL;
}

void db_bulk_int(struct db_bulk *r, long long v)
{
	struct db_val *x = push(r);

	x->type = DB_V_INT;
	x->i = v;
}

void db_bulk_positive(struct db_bulk *r, long long v)
{
	if (v > 0)
		db_bulk_int(r, v);
	else
		db_bulk_null(r);
}

void db_bulk_real(struct db_bulk *r, double v)
{
	struct db_val *x = push(r);

	if (isnan(v))
		return;         /* DB_V_NULL */
	x->type = DB_V_REAL;
	x->d = v;
}

void db_bulk_text(struct db_bulk *r, const char *s)
{
	struct db_val *x = push(r);

	if (!s)
		return;
	x->type = DB_V_TEXT;
	x->off = r->text.len;
	buf_puts(&r->text, s);
	buf_putc(&r->text, '\0');
}

void db_bulk_static(struct db_bulk *r, const char *s)
{
	struct db_val *x = push(r);

	if (!s)
		return;
	x->type = DB_V_TEXT;
	x->s = s;
}

const char *db_bulk_str(const struct db_bulk *r, const struct db_val *v)
{
	return v->s ? v->s : r->text.data + v->off;
}

int db_bulk_write(struct db *db, struct db_bulk *r, struct kb_err *err)
{
	int rc;

	if (!r->n)
		return 0;
	rc = db->ops->bulk->write_rows(db, r, err);
	db_bulk_reset(r);
	return rc;
}
