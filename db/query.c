/*
 * query.c - read-only loading of runs, samples, jobs, summaries and the
 * metric catalogue for analyze/ (see query.h).
 */
#include "db_int.h"
#include "query.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A run's or summary's machine key (db_qrun.machine_key), over t joined
 * with its variant v and its machine m. */
#define MACHINE_KEY "CASE WHEN m.name IS NOT NULL THEN m.name" \
		    " WHEN v.scope <> '' THEN '" DB_UNKNOWN_AT "' || v.scope_label END"

static int col_int_or(struct dbst *st, int i, int dflt)
{
	return db_col_null(st, i) ? dflt : (int)db_col_int(st, i);
}

/* A row loop ended: DB_DONE, or the error of the last step. */
static int loop_end(struct db *db, struct dbst *st, int rc, struct kb_err *err)
{
	if (rc != DB_DONE)
		return db_rows_fail(db, st, "cannot read the store", err);
	db_finalize(st);
	return 0;
}

static int load_variants(struct db *db, const struct db_qsel *sel, struct db_qdata *q,
			 struct kb_err *err)
{
	struct dbst *st;
	struct buf sql = BUF_INIT;
	size_t cap = 0, i;
	int step;

	buf_puts(&sql, "SELECT id, display, kernel, description FROM variant_v");
	if (sel && sel->nvariant_ids) {
		buf_puts(&sql, " WHERE id IN (");
		for (i = 0; i < sel->nvariant_ids; i++)
			buf_puts(&sql, i ? ", ?" : "?");
		buf_puts(&sql, ")");
	}
	buf_puts(&sql, " ORDER BY id");
	st = db_prepare(db, buf_str(&sql), err);
	buf_release(&sql);
	if (!st)
		return -1;
	for (i = 0; sel && i < sel->nvariant_ids; i++)
		db_bind_int(st, (int)i + 1, sel->variant_ids[i]);
	while ((step = db_step(st)) == DB_ROW) {
		struct db_qvariant *v;
		xgrow(&q->variants, &cap, q->nvariants + 1, sizeof(*q->variants));
		v = &q->variants[q->nvariants++];
		v->id = db_col_int(st, 0);
		v->name = db_col_text(st, 1);
		v->kernel = db_col_text(st, 2);
		v->description = db_col_text(st, 3);
	}
	return loop_end(db, st, step, err);
}

static int load_metrics(struct db *db, struct db_qdata *q, struct kb_err *err)
{
	struct dbst *st;
	size_t cap = 0;

	int step;

	st = db_prepare(db, "SELECT benchmark, name, unit, better FROM metric"
			    " ORDER BY benchmark, name", err);
	if (!st)
		return -1;
	while ((step = db_step(st)) == DB_ROW) {
		struct db_qmetric *m;
		xgrow(&q->metrics, &cap, q->nmetrics + 1, sizeof(*q->metrics));
		m = &q->metrics[q->nmetrics++];
		m->benchmark = db_col_text(st, 0);
		m->name = db_col_text(st, 1);
		m->unit = db_col_text(st, 2);
		m->better = db_col_text(st, 3);
	}
	return loop_end(db, st, step, err);
}

/* Index of run id in q->runs (sorted by id only within their groups, so
 * a lookup table keyed on id is built by the caller). */
struct run_index {
	long long id;
	size_t idx;
};

static int cmp_run_index(const void *a, const void *b)
{
	const struct run_index *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int find_run(const struct run_index *ix, size_t n, long long id, size_t *out)
{
	struct run_index key = { id, 0 };
	const struct run_index *hit = bsearch(&key, ix, n, sizeof(*ix), cmp_run_index);

	if (!hit)
		return -1;
	*out = hit->idx;
	return 0;
}

static void add_sample(struct db_qdata *q, size_t *cap, struct db_strings *in, size_t run,
		       struct dbst *st)
{
	struct db_qsample *s;

	xgrow(&q->samples, cap, q->nsamples + 1, sizeof(*q->samples));
	s = &q->samples[q->nsamples++];
	s->run = run;
	s->metric = db_col_interned(in, st, 1);
	s->unit = db_col_interned(in, st, 2);
	s->value = db_col_double(st, 3);
	s->job = col_int_or(st, 4, -1);
}

/*
 * Samples of the selected runs, as sample_all presents them: by run, a
 * run's sample rows in insertion order, then its jobs' user times.  The
 * two tables are read by two statements and merged on run id, so each
 * uses its own index (sample_run, the job key) under the run selection.
 */
static int load_samples(struct db *db, const struct db_qsel *sel, const struct db_where *w,
			const struct run_index *ix, struct db_qdata *q, struct kb_err *err)
{
	struct dbst *ss, *js = NULL;
	struct buf mf = BUF_INIT;
	size_t cap = 0, i, run;
	int want_user = !sel || !sel->nmetrics, src, jrc = DB_DONE;
	struct db_strings in = { NULL, 0, 0, { NULL, 0, 0 } };
	char *head;

	if (sel && sel->nmetrics) {
		buf_puts(&mf, " AND s.metric IN (");
		for (i = 0; i < sel->nmetrics; i++) {
			buf_puts(&mf, i ? ", ?" : "?");
			want_user |= strcmp(sel->metrics[i], "user") == 0;
		}
		buf_puts(&mf, ")");
	}
	head = buf_aprintf("SELECT s.run_id, s.metric, s.unit, s.value, s.job"
			 " FROM run t JOIN sample s ON s.run_id = t.id");
	{
		char *tail = buf_aprintf("%s ORDER BY s.run_id, s.id", buf_str(&mf));
		ss = db_where_prepare(db, head, w, tail, err);
		free(tail);
	}
	free(head);
	buf_release(&mf);
	if (!ss)
		return -1;
	if (sel)
		for (i = 0; i < sel->nmetrics; i++)
			db_bind_text(ss, (int)(w->n + 1 + i), sel->metrics[i]);
	if (want_user) {
		js = db_where_prepare(db, "SELECT j.run_id, 'user', 's', j.user_time, j.job"
				       " FROM run t JOIN job j ON j.run_id = t.id", w,
				   " AND j.user_time IS NOT NULL ORDER BY j.run_id, j.job", err);
		if (!js) {
			db_finalize(ss);
			return -1;
		}
		jrc = db_step(js);
	}
	src = db_step(ss);
	while (src == DB_ROW || jrc == DB_ROW) {
		/* A run's samples before its jobs' user times. */
		int from_sample = src == DB_ROW &&
			(jrc != DB_ROW ||
			 db_col_int(ss, 0) <= db_col_int(js, 0));
		struct dbst *st = from_sample ? ss : js;

		if (find_run(ix, q->nruns, db_col_int(st, 0), &run) == 0)
			add_sample(q, &cap, &in, run, st);
		if (from_sample)
			src = db_step(ss);
		else
			jrc = db_step(js);
	}
	db_strings_done(&in);
	q->strings = in.v;      /* released with q */
	q->nstrings = in.n;
	if (js && loop_end(db, js, jrc, err) < 0) {
		db_finalize(ss);
		return -1;
	}
	return loop_end(db, ss, src, err);
}

static int load_runs(struct db *db, const struct db_qsel *sel, struct db_qdata *q,
		     struct kb_err *err)
{
	struct dbst *st;
	struct run_index *ix = NULL;
	struct db_where w;
	size_t cap = 0, i;
	int rc = -1, step;

	db_where_build(&w, sel);
	st = db_where_prepare(db,
		"SELECT t.id, t.variant_id, t.source_id, t.benchmark, t.config, m.name,"
		" src.imported_at, t.iteration, t.status = 'ok', " MACHINE_KEY
		" FROM run t JOIN source src ON src.id = t.source_id"
		" JOIN variant v ON v.id = t.variant_id"
		" LEFT JOIN machine m ON m.id = t.machine_id", &w,
		" ORDER BY t.benchmark, t.config, t.variant_id, t.id", err);
	if (!st)
		goto out;
	while ((step = db_step(st)) == DB_ROW) {
		struct db_qrun *r;
		xgrow(&q->runs, &cap, q->nruns + 1, sizeof(*q->runs));
		r = &q->runs[q->nruns++];
		r->id = db_col_int(st, 0);
		r->variant_id = db_col_int(st, 1);
		r->source_id = db_col_int(st, 2);
		r->benchmark = db_col_text(st, 3);
		r->config = db_col_text(st, 4);
		r->machine = db_col_text(st, 5);
		r->imported_at = db_col_text(st, 6);
		r->iteration = (int)db_col_int(st, 7);
		r->ok = (int)db_col_int(st, 8);
		r->machine_key = db_col_text(st, 9);
	}
	if (loop_end(db, st, step, err) < 0)
		goto out;

	ix = xcalloc(q->nruns ? q->nruns : 1, sizeof(*ix));
	for (i = 0; i < q->nruns; i++) {
		ix[i].id = q->runs[i].id;
		ix[i].idx = i;
	}
	qsort(ix, q->nruns, sizeof(*ix), cmp_run_index);

	if ((!sel || !sel->runs_only) && load_samples(db, sel, &w, ix, q, err) < 0)
		goto out;

	st = db_where_prepare(db,
		"SELECT j.run_id, j.job, j.initial_node, j.main_node, j.moved, j.user_time"
		" FROM run t JOIN job j ON j.run_id = t.id", &w, " ORDER BY j.run_id, j.job", err);
	if (!st)
		goto out;
	cap = 0;
	while ((step = db_step(st)) == DB_ROW) {
		struct db_qjob *j;
		size_t run;
		if (find_run(ix, q->nruns, db_col_int(st, 0), &run) < 0)
			continue;
		xgrow(&q->jobs, &cap, q->njobs + 1, sizeof(*q->jobs));
		j = &q->jobs[q->njobs++];
		j->run = run;
		j->job = (int)db_col_int(st, 1);
		j->initial_node = col_int_or(st, 2, -1);
		j->main_node = col_int_or(st, 3, -1);
		j->moved = (int)db_col_int(st, 4);
		j->user = db_col_double(st, 5);
	}
	if (loop_end(db, st, step, err) < 0)
		goto out;
	rc = 0;
out:
	db_where_release(&w);
	free(ix);
	return rc;
}

static int load_summaries(struct db *db, const struct db_qsel *sel, struct db_qdata *q,
			  struct kb_err *err)
{
	struct dbst *st;
	struct db_where w;
	size_t cap = 0;
	int step;

	db_where_build(&w, sel);
	if (sel && sel->nmetrics) {
		buf_puts(&w.sql, " AND t.metric");
		db_where_in(&w, sel->metrics, sel->nmetrics);
	}
	st = db_where_prepare(db, "SELECT t.variant_id, t.source_id, t.benchmark, t.config, t.metric,"
			       " t.unit, t.flags, t.mean, t.sd, t.min, t.max, t.n, " MACHINE_KEY ","
			       " t.pub_change, t.pub_mark, t.pub_base"
			       " FROM summary t JOIN variant v ON v.id = t.variant_id"
			       " LEFT JOIN machine m ON m.id = t.machine_id",
			   &w, " ORDER BY t.id", err);
	db_where_release(&w);
	if (!st)
		return -1;
	while ((step = db_step(st)) == DB_ROW) {
		struct db_qsummary *s;
		xgrow(&q->summaries, &cap, q->nsummaries + 1, sizeof(*q->summaries));
		s = &q->summaries[q->nsummaries++];
		s->variant_id = db_col_int(st, 0);
		s->source_id = db_col_int(st, 1);
		s->benchmark = db_col_text(st, 2);
		s->config = db_col_text(st, 3);
		s->metric = db_col_text(st, 4);
		s->unit = db_col_text(st, 5);
		s->flags = db_col_text(st, 6);
		s->mean = db_col_double(st, 7);
		s->sd = db_col_double(st, 8);
		s->min = db_col_double(st, 9);
		s->max = db_col_double(st, 10);
		s->n = db_col_null(st, 11) ? 0 : db_col_int(st, 11);
		s->machine_key = db_col_text(st, 12);
		s->pub_change = db_col_double(st, 13);
		s->pub_mark = db_col_text(st, 14);
		if (!s->pub_mark)
			s->pub_mark = xstrdup("");
		s->pub_base = db_col_null(st, 15) ? 0 : db_col_int(st, 15);
	}
	return loop_end(db, st, step, err);
}

int db_query_select(struct db *db, const struct db_qsel *sel, struct db_qdata *out,
		    struct kb_err *err)
{
	memset(out, 0, sizeof(*out));
	/* One read transaction: a concurrent import cannot split the picture
	 * (PostgreSQL: one snapshot for all its statements). */
	if (db_begin_read(db, err) < 0)
		return -1;
	if (load_variants(db, sel, out, err) < 0 || load_metrics(db, out, err) < 0 ||
	    load_runs(db, sel, out, err) < 0 ||
	    ((!sel || !sel->runs_only) && load_summaries(db, sel, out, err) < 0)) {
		db_exec(db, "ROLLBACK", NULL);
		db_qdata_release(out);
		return -1;
	}
	db_exec(db, "COMMIT", NULL);
	return 0;
}

int db_query_load(struct db *db, const char *bench, struct db_qdata *out,
		  struct kb_err *err)
{
	struct db_qsel sel;

	memset(&sel, 0, sizeof(sel));
	sel.bench = bench;
	return db_query_select(db, &sel, out, err);
}

/* Prepare sql, a union of two halves whose WHERE clauses are w's and
 * ws's, bind both (w's first), and release sql, w and ws. */
static struct dbst *prepare_union(struct db *db, struct buf *sql, struct db_where *w,
				  struct db_where *ws, struct kb_err *err)
{
	struct dbst *st = db_prepare(db, buf_str(sql), err);

	buf_release(sql);
	if (st)
		db_where_bind(ws, st, db_where_bind(w, st, 1));
	db_where_release(w);
	db_where_release(ws);
	return st;
}

int db_query_variant_keys(struct db *db, const struct db_qsel *sel, struct db_vkey **out,
			  size_t *n, struct kb_err *err)
{
	struct db_where w, ws;          /* the runs', the summaries' (with sel's metrics) */
	struct buf sql = BUF_INIT;
	struct dbst *st;
	size_t cap = 0;
	int step;

	*out = NULL;
	*n = 0;
	db_where_build(&w, sel);
	db_where_build(&ws, sel);
	if (sel && sel->nmetrics) {
		buf_puts(&ws.sql, " AND t.metric");
		db_where_in(&ws, sel->metrics, sel->nmetrics);
	}
	buf_printf(&sql, "SELECT t.variant_id, " MACHINE_KEY " FROM run t"
		   " JOIN variant v ON v.id = t.variant_id LEFT JOIN machine m ON m.id = t.machine_id"
		   " WHERE %s AND t.status = 'ok'"
		   " UNION SELECT t.variant_id, " MACHINE_KEY " FROM summary t"
		   " JOIN variant v ON v.id = t.variant_id LEFT JOIN machine m ON m.id = t.machine_id"
		   " WHERE %s ORDER BY 1, 2", buf_str(&w.sql), buf_str(&ws.sql));
	st = prepare_union(db, &sql, &w, &ws, err);
	if (!st)
		return -1;
	while ((step = db_step(st)) == DB_ROW) {
		xgrow(out, &cap, *n + 1, sizeof(**out));
		(*out)[*n].variant_id = db_col_int(st, 0);
		(*out)[(*n)++].key = db_col_text(st, 1);
	}
	if (loop_end(db, st, step, err) < 0) {
		db_vkeys_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

void db_vkeys_free(struct db_vkey *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].key);
	free(v);
}

int db_query_variant_bench_keys(struct db *db, const struct db_qsel *sel, struct db_vbkey **out,
				size_t *n, struct kb_err *err)
{
	struct db_where w, ws;          /* as db_query_variant_keys() */
	struct buf sql = BUF_INIT;
	struct dbst *st;
	size_t cap = 0;
	int step;

	*out = NULL;
	*n = 0;
	db_where_build(&w, sel);
	db_where_build(&ws, sel);
	if (sel && sel->nmetrics) {
		buf_puts(&ws.sql, " AND t.metric");
		db_where_in(&ws, sel->metrics, sel->nmetrics);
	}
	buf_printf(&sql, "SELECT k.benchmark, k.variant_id, vv.display, k.mkey FROM ("
		   "SELECT t.benchmark AS benchmark, t.variant_id AS variant_id, " MACHINE_KEY " AS mkey"
		   " FROM run t JOIN variant v ON v.id = t.variant_id"
		   " LEFT JOIN machine m ON m.id = t.machine_id WHERE %s AND t.status = 'ok'"
		   " UNION SELECT t.benchmark, t.variant_id, " MACHINE_KEY " FROM summary t"
		   " JOIN variant v ON v.id = t.variant_id LEFT JOIN machine m ON m.id = t.machine_id"
		   " WHERE %s) k JOIN variant_v vv ON vv.id = k.variant_id ORDER BY 1, 2, 4",
		   buf_str(&w.sql), buf_str(&ws.sql));
	st = prepare_union(db, &sql, &w, &ws, err);
	if (!st)
		return -1;
	while ((step = db_step(st)) == DB_ROW) {
		xgrow(out, &cap, *n + 1, sizeof(**out));
		(*out)[*n].benchmark = db_col_text(st, 0);
		(*out)[*n].variant_id = db_col_int(st, 1);
		(*out)[*n].variant = db_col_text(st, 2);
		(*out)[(*n)++].key = db_col_text(st, 3);
	}
	if (loop_end(db, st, step, err) < 0) {
		db_vbkeys_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

void db_vbkeys_free(struct db_vbkey *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].benchmark);
		free(v[i].variant);
		free(v[i].key);
	}
	free(v);
}

int db_query_has_jobs(struct db *db, int *has, struct kb_err *err)
{
	struct dbst *st = db_prepare(db, "SELECT EXISTS (SELECT 1 FROM job)", err);
	int rc;

	*has = 0;
	if (!st)
		return -1;
	rc = db_step(st);
	if (rc == DB_ROW)
		*has = (int)db_col_int(st, 0);
	db_finalize(st);
	return rc == DB_ROW ? 0 : db_fail(db, err, "cannot read job rows");
}

void db_qdata_keep(struct db_qdata *q, const unsigned char *keep_sample,
		   const unsigned char *keep_summary)
{
	size_t i, n = 0;

	for (i = 0; i < q->nsamples; i++)
		if (keep_sample[i])
			q->samples[n++] = q->samples[i];
	q->nsamples = n;
	for (i = n = 0; i < q->nsummaries; i++) {
		struct db_qsummary *s = &q->summaries[i];

		if (keep_summary[i]) {
			q->summaries[n++] = *s;
			continue;
		}
		free(s->benchmark);
		free(s->config);
		free(s->metric);
		free(s->unit);
		free(s->flags);
		free(s->machine_key);
		free(s->pub_mark);
	}
	q->nsummaries = n;
}

void db_qdata_release(struct db_qdata *q)
{
	size_t i;

	for (i = 0; i < q->nvariants; i++) {
		free(q->variants[i].name);
		free(q->variants[i].kernel);
		free(q->variants[i].description);
	}
	for (i = 0; i < q->nruns; i++) {
		free(q->runs[i].benchmark);
		free(q->runs[i].config);
		free(q->runs[i].machine);
		free(q->runs[i].machine_key);
		free(q->runs[i].imported_at);
	}
	for (i = 0; i < q->nstrings; i++)
		free(q->strings[i]);
	free(q->strings);
	for (i = 0; i < q->nsummaries; i++) {
		free(q->summaries[i].benchmark);
		free(q->summaries[i].config);
		free(q->summaries[i].metric);
		free(q->summaries[i].unit);
		free(q->summaries[i].flags);
		free(q->summaries[i].machine_key);
		free(q->summaries[i].pub_mark);
	}
	for (i = 0; i < q->nmetrics; i++) {
		free(q->metrics[i].benchmark);
		free(q->metrics[i].name);
		free(q->metrics[i].unit);
		free(q->metrics[i].better);
	}
	free(q->variants);
	free(q->runs);
	free(q->samples);
	free(q->jobs);
	free(q->summaries);
	free(q->metrics);
	memset(q, 0, sizeof(*q));
}
