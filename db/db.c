/*
 * db.c - the small SQL vocabulary every db/ file uses (prepare, bind,
 * step, column), in the manner of SQLite's own tools.  Each word calls
 * the store's backend (db->ops, backend.h); opening and closing a store
 * is open.c's.
 */
#include "db_int.h"
#include "../core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *db_errmsg(struct db *db)
{
	return db->ops->errmsg(db);
}

int db_fail(struct db *db, struct kb_err *err, const char *what)
{
	return kb_err_set(err, db->path, 0, "%s: %s", what, db_errmsg(db));
}

static int rows_failed(struct db *db, int rc, struct kb_err *err)
{
	return kb_err_set(err, db->path, 0, "query failed: %s", db->ops->step_errmsg(db, rc));
}

int db_rows_fail(struct db *db, struct dbst *st, const char *what, struct kb_err *err)
{
	char msg[512];

	if (st->pooled) {
		/* a failed statement leaves the pool: finalized below */
		struct db_pooled *p = &db->pool[st->pooled - 1];

		free(p->sql);
		memset(p, 0, sizeof(*p));
		st->pooled = 0;
	}
	db->ops->finalize_failed(st, msg, sizeof(msg));
	return kb_err_set(err, db->path, 0, "%s: %s", what, msg);
}

int db_rows_end(struct db *db, struct dbst *st, struct kb_err *err)
{
	int rc = db_finalize(st);

	return rc == 0 ? 0 : rows_failed(db, rc, err);
}

int db_rows_reset(struct db *db, struct dbst *st, struct kb_err *err)
{
	int rc = db_reset(st);

	return rc == 0 ? 0 : rows_failed(db, rc, err);
}

struct dbst *db_prepare_own(struct db *db, const char *sql, struct kb_err *err)
{
	struct dbst *st = xcalloc(1, sizeof(*st));

	st->db = db;
	if (db->ops->prepare(st, sql, err) < 0) {
		free(st);
		return NULL;
	}
	return st;
}

int db_step(struct dbst *st)
{
	return st->db->ops->step(st);
}

int db_reset(struct dbst *st)
{
	return st->db->ops->reset(st);
}

void db_clear(struct dbst *st)
{
	st->db->ops->clear(st);
}

int db_finalize(struct dbst *st)
{
	int rc;

	if (!st)
		return 0;
	if (st->pooled && st->on_loan) {
		/* back to the pool: reset says what finalize would have
		 * (the last step's failure) */
		rc = db_reset(st);
		db_clear(st);
		st->on_loan = 0;
		return rc;
	}
	rc = st->db->ops->finalize(st);
	free(st);
	return rc;
}

struct dbst *db_prepare(struct db *db, const char *sql, struct kb_err *err)
{
	struct db_pooled *free_slot = NULL, *old = NULL;
	struct dbst *st;
	size_t i;

	for (i = 0; i < DB_POOL_MAX; i++) {
		struct db_pooled *p = &db->pool[i];

		if (!p->st) {
			if (!free_slot)
				free_slot = p;
			continue;
		}
		if (p->st->on_loan)
			continue;
		if (strcmp(p->sql, sql) == 0) {
			p->used = ++db->pool_tick;
			p->st->on_loan = 1;
			return p->st;
		}
		if (!old || p->used < old->used)
			old = p;
	}
	st = db_prepare_own(db, sql, err);
	if (!st)
		return NULL;
	if (!free_slot && old) {
		/* the least recently used idle one makes room */
		old->st->pooled = 0;
		db_finalize(old->st);
		free(old->sql);
		memset(old, 0, sizeof(*old));
		free_slot = old;
	}
	if (free_slot) {
		free_slot->sql = xstrdup(sql);
		free_slot->st = st;
		free_slot->used = ++db->pool_tick;
		st->pooled = (int)(free_slot - db->pool) + 1;
		st->on_loan = 1;
	}
	return st;     /* every slot on loan: an ordinary statement */
}

static int strings_eq(const void *arr, size_t i, const void *key)
{
	return strcmp(((char *const *)arr)[i], key) == 0;
}

static size_t strings_hash(const void *arr, size_t i)
{
	return str_hash_add(STR_HASH_INIT, ((char *const *)arr)[i]);
}

char *db_col_interned(struct db_strings *s, struct dbst *st, int i)
{
	const char *t = db_col_str(st, i);
	size_t h, k;

	if (!t)
		return NULL;
	h = str_hash_add(STR_HASH_INIT, t);
	k = hidx_find(&s->ix, h, s->v, t, strings_eq);
	if (k != (size_t)-1)
		return s->v[k];
	xgrow(&s->v, &s->cap, s->n + 1, sizeof(*s->v));
	s->v[s->n] = xstrdup(t);
	hidx_add(&s->ix, h, s->n, s->v, strings_hash);
	return s->v[s->n++];
}

void db_strings_done(struct db_strings *s)
{
	hidx_release(&s->ix);
}

void db_pool_free(struct db *db)
{
	size_t i;

	for (i = 0; i < DB_POOL_MAX; i++) {
		struct db_pooled *p = &db->pool[i];

		if (!p->st)
			continue;
		/* one still on loan is its caller's to finalize */
		p->st->pooled = 0;
		if (!p->st->on_loan)
			db_finalize(p->st);
		free(p->sql);
		memset(p, 0, sizeof(*p));
	}
}

int db_exec(struct db *db, const char *sql, struct kb_err *err)
{
	return db->ops->exec(db, sql, err);
}

int db_begin(struct db *db, struct kb_err *err)
{
	return db_exec(db, db->ops->begin_write, err);
}

int db_begin_read(struct db *db, struct kb_err *err)
{
	return db_exec(db, db->ops->begin_snapshot, err);
}

int db_in_txn(struct db *db)
{
	return db->ops->in_txn(db);
}

int db_retryable(const struct db *db)
{
	return db->ops->retryable(db);
}

void db_bind_text(struct dbst *st, int i, const char *s)
{
	st->db->ops->bind_text(st, i, s, 0);
}

void db_bind_static(struct dbst *st, int i, const char *s)
{
	st->db->ops->bind_text(st, i, s, 1);
}

void db_bind_null(struct dbst *st, int i)
{
	st->db->ops->bind_null(st, i);
}

void db_bind_int(struct dbst *st, int i, long long v)
{
	st->db->ops->bind_int(st, i, v);
}

void db_bind_double(struct dbst *st, int i, double v)
{
	if (isnan(v))
		db_bind_null(st, i);
	else
		st->db->ops->bind_double(st, i, v);
}

int db_col_null(struct dbst *st, int i)
{
	return st->db->ops->col_null(st, i);
}

const char *db_col_str(struct dbst *st, int i)
{
	return st->db->ops->col_str(st, i);
}

long long db_col_int(struct dbst *st, int i)
{
	return st->db->ops->col_int(st, i);
}

double db_col_real(struct dbst *st, int i)
{
	return st->db->ops->col_real(st, i);
}

char *db_col_text(struct dbst *st, int i)
{
	const char *s = db_col_str(st, i);
	return s ? xstrdup(s) : NULL;
}

double db_col_double(struct dbst *st, int i)
{
	if (db_col_null(st, i))
		return NAN;
	return db_col_real(st, i);
}

struct dbst *db_cached(struct db *db, int slot, const char *sql, struct kb_err *err)
{
	struct dbst *st = db->cache[slot];

	if (!st) {
		st = db_prepare_own(db, sql, err);
		if (st)
			st->slot = slot + 1;
		db->cache[slot] = st;
		return st;
	}
	db_reset(st);
	db_clear(st);
	return st;
}

void db_each_stmt(struct db *db, int (*fn)(struct dbst *))
{
	size_t i;

	for (i = 0; i < sizeof(db->cache) / sizeof(db->cache[0]); i++)
		if (db->cache[i])
			fn(db->cache[i]);
	for (i = 0; i < sizeof(db->rows) / sizeof(db->rows[0][0]); i++)
		if (db->rows[i / DB_ROWS_MAX][i % DB_ROWS_MAX])
			fn(db->rows[i / DB_ROWS_MAX][i % DB_ROWS_MAX]);
}
