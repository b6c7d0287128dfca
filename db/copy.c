/*
 * copy.c - kbench copy: every source of one store into another (SQLite or
 * PostgreSQL, either way), each source all or nothing, and none twice: a
 * source the target has (by SHA-256) is skipped.
 *
 * The target numbers its own rows; run, variant, machine and source ids
 * are mapped through tables built as rows go in.  The source store is read
 * in one snapshot (a read transaction), so an import running there at the
 * same time is seen whole or not at all.
 *
 * Order of work, in transactions of several sources each:
 *   1. (in the first one) the metric catalogue rows the target lacks, and
 *      the variants and machines the sources to copy refer to, in the
 *      source store's id order (so that the target lists and compares them
 *      in the same order), merged by name into those the target has;
 *   2. the sources, in id order: the source row (RETURNING its new id),
 *      then its runs, samples, jobs, summaries, segments and env rows, gathered in
 *      memory and written when the group ends as multi-row INSERTs
 *      (SQLite) or COPY (PostgreSQL);
 *   3. the relabel records the target lacks, appended in order.
 * A failed group is rolled back whole: the sources before it stay copied,
 * and running the copy again completes the set.
 */
#include "db_int.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A group ends after this many sources or rows, whichever comes first. */
#define GROUP_SOURCES 256
#define GROUP_ROWS 50000
/* Rows per multi-row upsert of variants and machines. */
#define INSERT_ROWS 64

/* Ids of one kind in the source store -> ids in the target, added in
 * increasing order of the source id (so lookups are a binary search). */
struct idmap {
	long long *from, *to;
	size_t n, cap;
};

static void idmap_add(struct idmap *m, long long from, long long to)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->from = xrealloc(m->from, m->cap * sizeof(*m->from));
		m->to = xrealloc(m->to, m->cap * sizeof(*m->to));
	}
	m->from[m->n] = from;
	m->to[m->n++] = to;
}

/* The target's id for from, or -1. */
static long long idmap_get(const struct idmap *m, long long from)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->from[mid] < from)
			lo = mid + 1;
		else if (m->from[mid] > from)
			hi = mid;
		else
			return m->to[mid];
	}
	return -1;
}

static void idmap_release(struct idmap *m)
{
	free(m->from);
	free(m->to);
	memset(m, 0, sizeof(*m));
}

/* The type a column of the source store is copied as. */
enum { V_INT = DB_V_INT, V_REAL = DB_V_REAL, V_TEXT = DB_V_TEXT };

/* An id of the target, or NULL for a negative one (nothing mapped). */
static void put_id(struct db_bulk *r, long long id)
{
	if (id < 0)
		db_bulk_null(r);
	else
		db_bulk_int(r, id);
}

/* Column i of the source store's row, as it is there. */
static void put_col(struct db_bulk *r, struct dbst *st, int i, int type)
{
	const char *s;

	if (db_col_null(st, i)) {
		db_bulk_null(r);
		return;
	}
	switch (type) {
	case V_INT:
		db_bulk_int(r, db_col_int(st, i));
		break;
	case V_REAL:
		db_bulk_real(r, db_col_real(st, i));
		break;
	case V_TEXT:
		s = db_col_str(st, i);
		db_bulk_text(r, s ? s : "");
		break;
	}
}

/* One source of the source store. */
struct src {
	long long id;
	char *col[9];           /* path, sha256, size, format, imported_at, mail_from,
				 * mail_date, mail_subject, message_id (size as text) */
	long long to;           /* its id in the target; -1 not there */
	int skip;               /* the target had it before */
	long long runs, summaries;
};

enum { S_PATH, S_SHA, S_SIZE, S_FORMAT, S_AT };

/* Reads from the source store, prepared once. */
enum { R_RUNS, R_SAMPLES, R_JOBS, R_SUMMARIES, R_SEGMENTS, R_ENV, R_COUNT };
static const char *const reads[R_COUNT] = {
	[R_RUNS] = "SELECT id, variant_id, machine_id, benchmark, config, iteration, status,"
		   " error, line FROM run WHERE source_id = ?1 ORDER BY id",
	[R_SAMPLES] = "SELECT s.run_id, s.metric, s.value, s.unit, s.job FROM sample s"
		      " WHERE s.run_id IN (SELECT r.id FROM run r WHERE r.source_id = ?1)"
		      " ORDER BY s.id",
	[R_JOBS] = "SELECT j.run_id, j.job, j.initial_node, j.main_node, j.moved, j.marked,"
		   " j.user_time, j.pct FROM job j"
		   " WHERE j.run_id IN (SELECT r.id FROM run r WHERE r.source_id = ?1)"
		   " ORDER BY j.run_id, j.job",
	[R_SUMMARIES] = "SELECT variant_id, machine_id, benchmark, config, metric, mean, sd, n,"
			" min, max, unit, flags, line, pub_change, pub_mark, stats, pub_base"
			" FROM summary WHERE source_id = ?1 ORDER BY id",
	[R_SEGMENTS] = "SELECT first_line, last_line, format, hash, runs, summaries, copy_of"
		       " FROM segment WHERE source_id = ?1 ORDER BY first_line, last_line, hash, format",
	[R_ENV] = "SELECT key, value FROM env WHERE source_id = ?1 ORDER BY key",
};

struct copy {
	struct db *from, *to;
	struct db_copy_result *res;
	db_copy_fn each;
	void *ctx;
	struct src *s;
	size_t ns;
	struct idmap var, mach;         /* variant, machine ids */
	struct idmap run;               /* this group's runs */
	struct db_bulk rows[DB_T_COUNT];
	struct dbst *read[R_COUNT];
	struct dbst *ins_source, *find_source;
	int catalogued;                 /* copy_catalogue() has committed */
};

static int copy_metrics(struct copy *c, struct kb_err *err);
static int copy_names(struct copy *c, int machines, struct kb_err *err);

/* The next row of a read loop; DB_ERROR sets err. */
static int step(struct db *db, struct dbst *st, struct kb_err *err)
{
	int rc = db_step(st);

	if (rc == DB_ERROR)
		db_fail(db, err, "cannot read the store");
	return rc;
}

/* The source store's read statement slot, bound to source id. */
static struct dbst *read_stmt(struct copy *c, int slot, long long id, struct kb_err *err)
{
	struct dbst *st = c->read[slot];

	if (!st) {
		st = c->read[slot] = db_prepare_own(c->from, reads[slot], err);
		if (!st)
			return NULL;
	} else {
		db_reset(st);
	}
	db_bind_int(st, 1, id);
	return st;
}

/* A source of the target. */
struct have {
	char *sha;
	long long id;
};

static int cmp_have(const void *a, const void *b)
{
	return strcmp(((const struct have *)a)->sha, ((const struct have *)b)->sha);
}

/* Every source of the source store, in id order, and which of them the
 * target has (by SHA-256). */
static int load_sources(struct copy *c, struct kb_err *err)
{
	struct dbst *st;
	struct have *have = NULL;
	size_t cap = 0, nhave = 0, k;
	int rc, i;

	st = db_prepare(c->from, "SELECT id, path, sha256, size, format, imported_at, mail_from,"
			" mail_date, mail_subject, message_id FROM source ORDER BY id", err);
	if (!st)
		return -1;
	while ((rc = step(c->from, st, err)) == DB_ROW) {
		struct src *s;
		xgrow(&c->s, &cap, c->ns + 1, sizeof(*c->s));
		s = &c->s[c->ns++];
		memset(s, 0, sizeof(*s));
		s->id = db_col_int(st, 0);
		for (i = 0; i < 9; i++)
			s->col[i] = db_col_text(st, i + 1);
		s->to = -1;
	}
	if (db_rows_end(c->from, st, err) < 0)
		return -1;
	/* The target's sources, in one query: sorted by SHA-256 here. */
	st = db_prepare(c->to, "SELECT sha256, id FROM source", err);
	if (!st)
		return -1;
	cap = 0;
	while ((rc = step(c->to, st, err)) == DB_ROW) {
		xgrow(&have, &cap, nhave + 1, sizeof(*have));
		have[nhave].sha = db_col_text(st, 0);
		have[nhave++].id = db_col_int(st, 1);
	}
	rc = db_rows_end(c->to, st, err);
	if (nhave)
		qsort(have, nhave, sizeof(*have), cmp_have);
	for (k = 0; rc == 0 && k < c->ns; k++) {
		struct have key = { c->s[k].col[S_SHA], 0 }, *h;
		h = nhave ? bsearch(&key, have, nhave, sizeof(*have), cmp_have) : NULL;
		if (h) {
			c->s[k].to = h->id;
			c->s[k].skip = 1;
		}
	}
	for (k = 0; k < nhave; k++)
		free(have[k].sha);
	free(have);
	if (rc < 0)
		return -1;
	c->find_source = db_prepare(c->to, "SELECT id FROM source WHERE sha256 = ?1", err);
	return c->find_source ? 0 : -1;
}

/* The metric catalogue rows the target lacks. */
static int copy_metrics(struct copy *c, struct kb_err *err)
{
	struct dbst *st, *ins;
	int rc, i;

	st = db_prepare(c->from, "SELECT benchmark, name, unit, better, description FROM metric"
			" ORDER BY benchmark, name", err);
	if (!st)
		return -1;
	ins = db_prepare(c->to, "INSERT INTO metric (benchmark, name, unit, better, description)"
			 " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING RETURNING name", err);
	if (!ins) {
		db_finalize(st);
		return -1;
	}
	while ((rc = step(c->from, st, err)) == DB_ROW) {
		db_reset(ins);
		for (i = 0; i < 5; i++)
			db_bind_text(ins, i + 1, db_col_str(st, i));
		rc = db_step(ins);
		if (rc == DB_ERROR) {
			db_fail(c->to, err, "cannot store");
			break;
		}
		if (rc == DB_ROW)
			c->res->metrics++;
	}
	db_finalize(ins);
	if (rc == DB_ERROR) {
		db_finalize(st);
		return -1;
	}
	return db_rows_end(c->from, st, err);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Source id of the source store (c->s is in id order), or NULL. */
static struct src *find_src(const struct copy *c, long long id)
{
	size_t lo = 0, hi = c->ns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->s[mid].id < id)
			lo = mid + 1;
		else if (c->s[mid].id > id)
			hi = mid;
		else
			return &c->s[mid];
	}
	return NULL;
}

/* Is source id one the copy stores? */
static int to_copy(const struct copy *c, long long id)
{
	const struct src *s = find_src(c, id);

	return s && !s->skip;
}

/* The target's id of source id of the source store, or -1 (not there yet,
 * or a source the store no longer has). */
static long long source_to(const struct copy *c, long long id)
{
	const struct src *s = find_src(c, id);

	return s ? s->to : -1;
}

/* The sorted, distinct ids of kind (variant or machine) that runs and
 * summaries of the sources to copy refer to. */
static int referenced(struct copy *c, const char *col, long long **ids, size_t *n,
		      struct kb_err *err)
{
	static const char *const tbl[] = { "run", "summary" };
	size_t cap = 0, k, j;
	int t, rc;

	*ids = NULL;
	*n = 0;
	for (t = 0; t < 2; t++) {
		char *sql = buf_aprintf("SELECT DISTINCT source_id, %s FROM %s WHERE %s IS NOT NULL",
					col, tbl[t], col);
		struct dbst *st = db_prepare(c->from, sql, err);
		free(sql);
		if (!st)
			return -1;
		while ((rc = step(c->from, st, err)) == DB_ROW) {
			if (!to_copy(c, db_col_int(st, 0)))
				continue;
			xgrow(ids, &cap, *n + 1, sizeof(**ids));
			(*ids)[(*n)++] = db_col_int(st, 1);
		}
		if (db_rows_end(c->from, st, err) < 0)
			return -1;
	}
	if (*n)
		qsort(*ids, *n, sizeof(**ids), cmp_ll);
	for (k = j = 0; k < *n; k++)
		if (!j || (*ids)[j - 1] != (*ids)[k])
			(*ids)[j++] = (*ids)[k];
	*n = j;
	return 0;
}

/*
 * Variants and machines, by name (variants by name and scope): a new
 * one goes in with everything it has; one the target has keeps its own
 * values and takes only what it lacks (a kernel, a description, cpus).
 * INSERT_ROWS to a statement; RETURNING gives each row's id with its name.
 */
static const struct {
	const char *head, *tail;
	int ncols, nkey;
} upsert[2] = {
	{ "INSERT INTO variant (name, scope, scope_label, kernel, description, created_at) VALUES ",
	  " ON CONFLICT (name, scope) DO UPDATE SET"
	  " kernel = coalesce(variant.kernel, excluded.kernel),"
	  " description = coalesce(nullif(variant.description, ''), excluded.description,"
	  " variant.description) RETURNING id, name, scope", 6, 2 },
	{ "INSERT INTO machine (name, cpus, nodes, description) VALUES ",
	  " ON CONFLICT (name) DO UPDATE SET cpus = coalesce(machine.cpus, excluded.cpus),"
	  " nodes = coalesce(machine.nodes, excluded.nodes),"
	  " description = coalesce(machine.description, excluded.description) RETURNING id, name",
	  4, 1 },
};

/* Upsert rows [first, first + k) of r (kind 0 variants, 1 machines);
 * to[i] = the target's id of row first + i. */
static int upsert_rows(struct copy *c, int kind, struct db_bulk *r, size_t first, size_t k,
		       long long *to, struct kb_err *err)
{
	struct buf sql = BUF_INIT;
	const struct db_val *v = &r->v[first * (size_t)r->ncols];
	struct dbst *st;
	size_t i, j, got = 0;
	int col, rc;

	buf_puts(&sql, upsert[kind].head);
	for (i = 0; i < k; i++) {
		buf_puts(&sql, i ? ", (" : "(");
		for (col = 0; col < r->ncols; col++)
			buf_puts(&sql, col ? ", ?" : "?");
		buf_putc(&sql, ')');
	}
	buf_puts(&sql, upsert[kind].tail);
	st = db_prepare(c->to, buf_str(&sql), err);
	buf_release(&sql);
	if (!st)
		return -1;
	for (j = 0; j < k * (size_t)r->ncols; j++) {
		if (v[j].type == DB_V_NULL)
			db_bind_null(st, (int)j + 1);
		else if (v[j].type == DB_V_INT)
			db_bind_int(st, (int)j + 1, v[j].i);
		else
			db_bind_static(st, (int)j + 1, db_bulk_str(r, &v[j]));
	}
	for (i = 0; i < k; i++)
		to[i] = -1;
	while ((rc = db_step(st)) == DB_ROW) {
		/* the row of that name (and scope) */
		for (i = 0; i < k; i++) {
			const struct db_val *row = &v[i * (size_t)r->ncols];
			if (to[i] < 0 && strcmp(db_bulk_str(r, &row[0]), db_col_str(st, 1)) == 0 &&
			    (upsert[kind].nkey == 1 ||
			     strcmp(db_bulk_str(r, &row[1]), db_col_str(st, 2)) == 0))
				break;
		}
		if (i < k) {
			to[i] = db_col_int(st, 0);
			got++;
		}
	}
	if (rc == DB_ERROR) {
		db_fail(c->to, err, "cannot store");
		db_finalize(st);
		return -1;
	}
	if (db_rows_end(c->to, st, err) < 0)
		return -1;
	if (got != k)
		return kb_err_set(err, db_name(c->to), 0, "cannot store the %s",
				  kind ? "machines" : "variants");
	return 0;
}

static int copy_names(struct copy *c, int machines, struct kb_err *err)
{
	const char *col = machines ? "machine_id" : "variant_id";
	struct idmap *map = machines ? &c->mach : &c->var;
	struct db_bulk r;
	struct dbst *st;
	long long *ids, *from = NULL, *to = NULL;
	size_t n, k, nf = 0, done;
	int rc, i;

	if (referenced(c, col, &ids, &n, err) < 0)
		return -1;
	if (!n) {
		free(ids);
		return 0;
	}
	memset(&r, 0, sizeof(r));
	r.ncols = upsert[machines].ncols;
	st = db_prepare(c->from, machines
			? "SELECT id, name, cpus, nodes, description FROM machine ORDER BY id"
			: "SELECT id, name, scope, scope_label, kernel, description, created_at"
			  " FROM variant ORDER BY id", err);
	rc = st ? DB_DONE : DB_ERROR;
	from = xcalloc(n, sizeof(*from));
	to = xcalloc(n, sizeof(*to));
	k = 0;
	while (st && (rc = step(c->from, st, err)) == DB_ROW) {
		long long id = db_col_int(st, 0);
		while (k < n && ids[k] < id)
			k++;
		if (k == n)
			break;
		if (ids[k] != id)
			continue;
		from[nf++] = id;
		for (i = 1; i <= r.ncols; i++)
			put_col(&r, st, i, machines && (i == 2 || i == 3) ? V_INT : V_TEXT);
	}
	if (rc == DB_ERROR) {
		db_finalize(st);
		rc = -1;
	} else {
		rc = db_rows_end(c->from, st, err);
	}
	if (rc == 0 && nf != n)
		rc = kb_err_set(err, db_name(c->from), 0, "a run or summary names a %s that is not stored",
				machines ? "machine" : "variant");
	for (done = 0; rc == 0 && done < nf; done += k) {
		k = nf - done < INSERT_ROWS ? nf - done : INSERT_ROWS;
		rc = upsert_rows(c, machines, &r, done, k, to + done, err);
	}
	for (k = 0; rc == 0 && k < nf; k++)
		idmap_add(map, from[k], to[k]);
	if (rc == 0 && machines)
		c->res->machines += nf;
	else if (rc == 0)
		c->res->variants += nf;
	db_bulk_release(&r);
	free(from);
	free(to);
	free(ids);
	return rc;
}

/* The target's id of a variant or machine, or an error. */
static long long mapped(const struct copy *c, const struct idmap *m, long long id,
			const char *what, struct kb_err *err)
{
	long long to = idmap_get(m, id);

	if (to < 0)
		kb_err_set(err, db_name(c->from), 0, "%s %lld is not stored", what, id);
	return to;
}

static int copy_runs(struct copy *c, struct src *s, struct kb_err *err)
{
	struct db_bulk *r = &c->rows[DB_T_RUN];
	size_t first = db_bulk_count(r), k, n;
	struct dbst *st = read_stmt(c, R_RUNS, s->id, err);
	int rc;

	if (!st)
		return -1;
	c->run.n = 0;
	while ((rc = step(c->from, st, err)) == DB_ROW) {
		long long vid = mapped(c, &c->var, db_col_int(st, 1), "variant", err);
		long long mid = db_col_null(st, 2) ? -1 : mapped(c, &c->mach, db_col_int(st, 2), "machine", err);
		if (vid < 0 || (mid < 0 && !db_col_null(st, 2)))
			return -1;
		idmap_add(&c->run, db_col_int(st, 0), 0);
		db_bulk_int(r, 0);          /* the id, below */
		db_bulk_int(r, s->to);
		db_bulk_int(r, vid);
		put_id(r, mid);
		put_col(r, st, 3, V_TEXT);
		put_col(r, st, 4, V_TEXT);
		put_col(r, st, 5, V_INT);
		put_col(r, st, 6, V_TEXT);
		put_col(r, st, 7, V_TEXT);
		put_col(r, st, 8, V_INT);
	}
	if (rc == DB_ERROR)
		return -1;
	n = c->run.n;
	for (k = 0; k < n; k++) {
		long long id = c->to->ops->bulk->next_run_id(c->to, n - k, err);
		if (id < 0)
			return -1;
		c->run.to[k] = id;
		r->v[(first + k) * (size_t)r->ncols].i = id;
	}
	s->runs = (long long)n;
	c->res->runs += n;
	return 0;
}

/* The target's id of a run of this source. */
static long long run_of(struct copy *c, struct dbst *st, struct kb_err *err)
{
	long long id = db_col_int(st, 0), to = idmap_get(&c->run, id);

	if (to < 0)
		kb_err_set(err, db_name(c->from), 0, "run %lld is not of its source", id);
	return to;
}

static int copy_children(struct copy *c, struct src *s, struct kb_err *err)
{
	struct db_bulk *r;
	struct dbst *st;
	int rc;

	r = &c->rows[DB_T_SAMPLE];
	st = read_stmt(c, R_SAMPLES, s->id, err);
	if (!st)
		return -1;
	while ((rc = step(c->from, st, err)) == DB_ROW) {
		long long run = run_of(c, st, err);
		if (run < 0)
			return -1;
		db_bulk_int(r, run);
		put_col(r, st, 1, V_TEXT);
		put_col(r, st, 2, V_REAL);
		put_col(r, st, 3, V_TEXT);
		put_col(r, st, 4, V_INT);
		c->res->samples++;
	}
	if (rc == DB_ERROR)
		return -1;
	r = &c->rows[DB_T_JOB];
	st = read_stmt(c, R_JOBS, s->id, err);
	if (!st)
		return -1;
	while ((rc = step(c->from, st, err)) == DB_ROW) {
		long long run = run_of(c, st, err);
		int i;
		if (run < 0)
			return -1;
		db_bulk_int(r, run);
		for (i = 1; i <= 5; i++)
			put_col(r, st, i, V_INT);
		put_col(r, st, 6, V_REAL);
		put_col(r, st, 7, V_TEXT);
		c->res->jobs++;
	}
	if (rc == DB_ERROR)
		return -1;
	r = &c->rows[DB_T_SUMMARY];
	st = read_stmt(c, R_SUMMARIES, s->id, err);
	if (!st)
		return -1;
	while ((rc = step(c->from, st, err)) == DB_ROW) {
		long long vid = mapped(c, &c->var, db_col_int(st, 0), "variant", err);
		long long mid = db_col_null(st, 1) ? -1 : mapped(c, &c->mach, db_col_int(st, 1), "machine", err);
		if (vid < 0 || (mid < 0 && !db_col_null(st, 1)))
			return -1;
		db_bulk_int(r, s->to);
		db_bulk_int(r, vid);
		put_id(r, mid);
		put_col(r, st, 2, V_TEXT);
		put_col(r, st, 3, V_TEXT);
		put_col(r, st, 4, V_TEXT);
		put_col(r, st, 5, V_REAL);
		put_col(r, st, 6, V_REAL);
		put_col(r, st, 7, V_INT);
		put_col(r, st, 8, V_REAL);
		put_col(r, st, 9, V_REAL);
		put_col(r, st, 10, V_TEXT);
		put_col(r, st, 11, V_TEXT);
		put_col(r, st, 12, V_INT);
		put_col(r, st, 13, V_REAL);
		put_col(r, st, 14, V_TEXT);
		put_col(r, st, 15, V_TEXT);
		/* the published change's baseline; NULL when none (or when
		 * its variant is no longer stored) */
		put_id(r, db_col_null(st, 16) ? -1 : idmap_get(&c->var, db_col_int(st, 16)));
		s->summaries++;
		c->res->summaries++;
	}
	if (rc == DB_ERROR)
		return -1;
	r = &c->rows[DB_T_SEGMENT];
	st = read_stmt(c, R_SEGMENTS, s->id, err);
	if (!st)
		return -1;
	while ((rc = step(c->from, st, err)) == DB_ROW) {
		db_bulk_int(r, s->to);
		put_col(r, st, 0, V_INT);
		put_col(r, st, 1, V_INT);
		put_col(r, st, 2, V_TEXT);
		put_col(r, st, 3, V_TEXT);
		put_col(r, st, 4, V_INT);
		put_col(r, st, 5, V_INT);
		/* the source that carried it first, in the target; a source
		 * the store no longer has (replaced since) is none */
		put_id(r, db_col_null(st, 6) ? -1 : source_to(c, db_col_int(st, 6)));
		c->res->segments++;
	}
	if (rc == DB_ERROR)
		return -1;
	/* the environment kbench run recorded with the source */
	r = &c->rows[DB_T_ENV];
	st = read_stmt(c, R_ENV, s->id, err);
	if (!st)
		return -1;
	while ((rc = step(c->from, st, err)) == DB_ROW) {
		db_bulk_int(r, s->to);
		put_col(r, st, 0, V_TEXT);
		put_col(r, st, 1, V_TEXT);
	}
	return rc == DB_ERROR ? -1 : 0;
}

/* Store source s in the open transaction; s->skip when another writer
 * stored the same bytes since the target was read. */
static int copy_source(struct copy *c, struct src *s, struct kb_err *err)
{
	struct dbst *st = c->ins_source;
	int rc, i;

	if (!st) {
		st = c->ins_source = db_prepare(c->to,
			"INSERT INTO source (path, sha256, size, format, imported_at, mail_from,"
			" mail_date, mail_subject, message_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
			" ON CONFLICT (sha256) DO NOTHING RETURNING id", err);
		if (!st)
			return -1;
	} else {
		db_reset(st);
	}
	for (i = 0; i < 9; i++) {
		if (i == S_SIZE)
			db_bind_int(st, i + 1, strtoll(s->col[i], NULL, 10));
		else
			db_bind_text(st, i + 1, s->col[i]);
	}
	rc = step(c->to, st, err);
	if (rc == DB_ERROR)
		return -1;
	if (rc == DB_DONE) {
		/* stored by another writer after the target was read */
		if (db_rows_reset(c->to, st, err) < 0)
			return -1;
		st = c->find_source;
		db_reset(st);
		db_bind_text(st, 1, s->col[S_SHA]);
		if (step(c->to, st, err) != DB_ROW)
			return err->msg[0] ? -1 : kb_err_set(err, db_name(c->to), 0,
							     "cannot store: the source is stored and not found");
		s->to = db_col_int(st, 0);
		s->skip = 1;
		return db_rows_reset(c->to, st, err);
	}
	s->to = db_col_int(st, 0);
	if (db_rows_reset(c->to, st, err) < 0)
		return -1;
	if (copy_runs(c, s, err) < 0 || copy_children(c, s, err) < 0)
		return -1;
	return 0;
}

static size_t pending_rows(const struct copy *c)
{
	size_t t, n = 0;

	for (t = 0; t < DB_T_COUNT; t++)
		n += db_bulk_count(&c->rows[t]);
	return n;
}

static int group_begin(struct copy *c, struct kb_err *err)
{
	/* The backend's bulk transaction: runs can be numbered here and
	 * sent later (SQLite: from max(id), the write lock held; foreign-key
	 * checks off, as for an import: every reference a copied row makes
	 * is to a row the copy made or mapped). */
	if (c->to->ops->bulk->begin(c->to, err) < 0)
		return -1;
	/* The first group brings the catalogue, variants and machines: a
	 * copy that fails there leaves nothing behind. */
	if (!c->catalogued && (copy_metrics(c, err) < 0 || copy_names(c, 0, err) < 0 ||
			       copy_names(c, 1, err) < 0))
		return -1;
	return 0;
}

/* Write the group's rows and commit (when a transaction is open), then
 * tell the caller about the sources s[first..end), copied or skipped. */
static int group_end(struct copy *c, int open, size_t first, size_t end, struct kb_err *err)
{
	size_t t, k;

	for (t = 0; open && t < DB_T_COUNT; t++)
		if (db_bulk_write(c->to, &c->rows[t], err) < 0)
			return -1;
	if (open && c->to->ops->bulk->commit(c->to, err) < 0)
		return -1;
	if (open)
		c->catalogued = 1;
	for (k = first; k < end; k++) {
		struct db_copy_source cs;
		cs.path = c->s[k].col[S_PATH];
		cs.sha256 = c->s[k].col[S_SHA];
		cs.skipped = c->s[k].skip;
		cs.runs = c->s[k].runs;
		cs.summaries = c->s[k].summaries;
		if (cs.skipped)
			c->res->skipped++;
		else
			c->res->copied++;
		if (c->each)
			c->each(c->ctx, &cs);
	}
	return 0;
}

static int copy_all_sources(struct copy *c, struct kb_err *err)
{
	size_t k = 0, first, t;

	while (k < c->ns) {
		int open = 0;
		first = k;
		for (; k < c->ns && k - first < GROUP_SOURCES && pending_rows(c) < GROUP_ROWS; k++) {
			if (c->s[k].skip)
				continue;
			if (!open) {
				open = 1;
				if (group_begin(c, err) < 0)
					goto fail;
			}
			if (copy_source(c, &c->s[k], err) < 0)
				goto fail;
		}
		if (group_end(c, open, first, k, err) < 0)
			goto fail;
	}
	return 0;
fail:
	db_exec(c->to, "ROLLBACK", NULL);
	for (t = 0; t < DB_T_COUNT; t++)
		db_bulk_reset(&c->rows[t]);
	return -1;
}

/* A relabel record's columns in one string: NULL and '' differ. */
#define RELABEL_COLS "at, action, detail, source_sha, line, benchmark, config, from_name," \
	" from_scope, to_name, to_scope, machine, metric"
#define RELABEL_NCOLS 13

static char *relabel_key(struct dbst *st)
{
	struct buf b = BUF_INIT;
	int i;

	for (i = 0; i < RELABEL_NCOLS; i++) {
		if (db_col_null(st, i))
			buf_putc(&b, '\001');
		else if (i == 4)
			buf_printf(&b, "=%lld", db_col_int(st, i));
		else
			buf_printf(&b, "=%s", db_col_str(st, i));
		buf_putc(&b, '\0');
	}
	/* NULs inside would end the key early: the separators are \002 */
	for (size_t k = 0; k < b.len; k++)
		if (!b.data[k])
			b.data[k] = '\002';
	return buf_detach(&b);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append the relabel records the target lacks (all columns alike), in order. */
static int copy_relabels(struct copy *c, struct kb_err *err)
{
	struct dbst *st, *ins = NULL;
	char **have = NULL, *key;
	size_t n = 0, cap = 0, k;
	int rc, i, open = 0;

	st = db_prepare(c->to, "SELECT " RELABEL_COLS " FROM relabel", err);
	if (!st)
		return -1;
	while ((rc = step(c->to, st, err)) == DB_ROW) {
		xgrow(&have, &cap, n + 1, sizeof(*have));
		have[n++] = relabel_key(st);
	}
	rc = db_rows_end(c->to, st, err);
	if (n)
		qsort(have, n, sizeof(*have), cmp_str);
	st = rc < 0 ? NULL : db_prepare(c->from, "SELECT " RELABEL_COLS " FROM relabel ORDER BY id", err);
	if (!st)
		goto out;
	while ((rc = step(c->from, st, err)) == DB_ROW) {
		key = relabel_key(st);
		if (n && bsearch(&key, have, n, sizeof(*have), cmp_str)) {
			free(key);
			continue;
		}
		free(key);
		if (!open) {
			ins = db_prepare(c->to, "INSERT INTO relabel (" RELABEL_COLS ") VALUES"
					 " (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)", err);
			if (!ins || db_begin(c->to, err) < 0) {
				rc = DB_ERROR;
				break;
			}
			open = 1;
		}
		db_reset(ins);
		for (i = 0; i < RELABEL_NCOLS; i++) {
			if (i == 4 && !db_col_null(st, i))
				db_bind_int(ins, i + 1, db_col_int(st, i));
			else
				db_bind_text(ins, i + 1, db_col_str(st, i));
		}
		if (db_step(ins) != DB_DONE) {
			db_fail(c->to, err, "cannot store");
			rc = DB_ERROR;
			break;
		}
		c->res->relabels++;
	}
	if (rc == DB_ERROR) {
		db_finalize(st);
		rc = -1;
	} else {
		rc = db_rows_end(c->from, st, err);
	}
	db_finalize(ins);
	if (open)
		rc = rc < 0 ? (db_exec(c->to, "ROLLBACK", NULL), -1) : db_exec(c->to, "COMMIT", err);
out:
	for (k = 0; k < n; k++)
		free(have[k]);
	free(have);
	return rc;
}

/* What the source store holds beside its sources: metrics, then the
 * variants and machines that the sources to copy refer to.  The first
 * group of sources brings them (group_begin()); when every source is
 * skipped, the metrics come in a transaction of their own. */
static int copy_catalogue(struct copy *c, struct kb_err *err)
{
	if (c->catalogued)
		return 0;
	if (db_begin(c->to, err) < 0)
		return -1;
	if (copy_metrics(c, err) < 0 || copy_names(c, 0, err) < 0 || copy_names(c, 1, err) < 0) {
		db_exec(c->to, "ROLLBACK", NULL);
		return -1;
	}
	return db_exec(c->to, "COMMIT", err);
}

int db_copy(struct db *from, struct db *to, db_copy_fn each, void *ctx,
	    struct db_copy_result *res, struct kb_err *err)
{
	struct copy c;
	size_t k;
	int rc, t;

	memset(res, 0, sizeof(*res));
	memset(&c, 0, sizeof(c));
	c.from = from;
	c.to = to;
	c.res = res;
	c.each = each;
	c.ctx = ctx;
	for (t = 0; t < DB_T_COUNT; t++)
		db_bulk_init(&c.rows[t], (int)t);
	/* One snapshot of the source store for the whole copy. */
	rc = db_begin_read(from, err);
	if (rc == 0)
		rc = load_sources(&c, err);
	if (rc == 0)
		rc = copy_all_sources(&c, err);
	if (rc == 0)
		rc = copy_catalogue(&c, err);
	if (rc == 0)
		rc = copy_relabels(&c, err);
	if (db_in_txn(from))
		db_exec(from, "ROLLBACK", NULL);
	to->ops->bulk->end(to);
	for (t = 0; t < R_COUNT; t++)
		db_finalize(c.read[t]);
	for (t = 0; t < DB_T_COUNT; t++)
		db_bulk_release(&c.rows[t]);
	db_finalize(c.ins_source);
	db_finalize(c.find_source);
	for (k = 0; k < c.ns; k++)
		for (t = 0; t < 9; t++)
			free(c.s[k].col[t]);
	free(c.s);
	idmap_release(&c.var);
	idmap_release(&c.mach);
	idmap_release(&c.run);
	return rc;
}
