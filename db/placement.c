/*
 * placement.c - numa_test job placement for charts and anomaly checks.
 */
#include "db_int.h"
#include "../core/buf.h"
#include "placement.h"
#include "query.h"
#include "../core/num.h"
#include "../core/util.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static long config_tasks(const char *config, size_t njobs)
{
	const char *p = config ? strstr(config, "tasks=") : NULL;
	long v;
	size_t n = 0;

	if (p && (p == config || p[-1] == ',')) {
		p += 6;
		while (p[n] >= '0' && p[n] <= '9')
			n++;
		if (num_parse_long(p, n, &v) == 0)
			return v;
	}
	return (long)njobs;
}

/* A job's pct column, a JSON array: NULL when it holds no number, else
 * [count, v0, v1, ...] with NaN where an entry is not a number, count
 * the entries up to the last number (nodes 4096 and up are left out, as
 * the load always did); *nnodes grows to count. */
static double *job_pct(const char *text, int *nnodes)
{
	json_error_t jerr;
	json_t *a = text ? json_loads(text, 0, &jerr) : NULL;
	double *v = NULL;
	size_t i, n = 0, len;

	if (!a)
		return NULL;
	if (json_is_array(a)) {
		len = json_array_size(a);
		for (i = 0; i < len && i < 4096; i++)
			if (json_is_number(json_array_get(a, i)))
				n = i + 1;
		if (n) {
			v = xmalloc((n + 1) * sizeof(*v));
			v[0] = (double)n;
			for (i = 0; i < n; i++) {
				json_t *e = json_array_get(a, i);
				v[i + 1] = json_is_number(e) ? json_number_value(e) : NAN;
			}
			if ((int)n > *nnodes)
				*nnodes = (int)n;
		}
	}
	json_decref(a);
	return v;
}

static struct db_prun *find_run(struct db_placement *p, long long id)
{
	size_t lo = 0, hi = p->nruns;

	/* runs are loaded in id order before sorting, so binary search works */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (p->runs[mid].run_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nruns && p->runs[lo].run_id == id ? &p->runs[lo] : NULL;
}

static int cmp_run(const void *a, const void *b)
{
	const struct db_prun *x = a, *y = b;

	if (x->variant_id != y->variant_id)
		return x->variant_id < y->variant_id ? -1 : 1;
	if (x->tasks != y->tasks)
		return x->tasks < y->tasks ? -1 : 1;
	return x->run_id < y->run_id ? -1 : x->run_id > y->run_id;
}

/* Prepare head WHERE <w> AND t.status = 'ok' AND <config> tail, bound. */
static struct dbst *prepare_sel(struct db *db, const char *head, const struct db_where *w,
				 const char *config, const char *tail, struct kb_err *err)
{
	char *t = buf_aprintf(" AND t.status = 'ok' AND (CAST(? AS TEXT) IS NULL OR t.config = ?)%s", tail);
	struct dbst *st = db_where_prepare(db, head, w, t, err);
	int next = (int)w->n + 1;

	free(t);
	if (st) {
		db_bind_text(st, next, config);
		db_bind_text(st, next + 1, config);
	}
	return st;
}

/* Every loop of the load ends through here: DB_DONE or the error. */
static int loop_done(struct db *db, struct dbst *st, int rc, struct kb_err *err)
{
	db_finalize(st);
	return rc == DB_DONE ? 0 : db_fail(db, err, "cannot read job rows");
}

static int placement_load(struct db *db, const struct db_qsel *sel, const char *config,
			  struct db_placement *out, struct kb_err *err)
{
	struct db_strings ps = { NULL, 0, 0, { NULL, 0, 0 } };
	struct dbst *st;
	struct db_where w;
	size_t cap = 0, i;
	int step;

	memset(out, 0, sizeof(*out));
	db_where_build(&w, sel);
	st = prepare_sel(db,
		"SELECT t.id, v.id, v.display, t.benchmark, t.config, s.path, t.iteration,"
		" CASE WHEN m.name IS NOT NULL THEN m.name"
		" WHEN v.scope <> '' THEN '" DB_UNKNOWN_AT "' || v.scope_label END,"
		" m.cpus, m.nodes"
		" FROM run t JOIN variant_v v ON v.id = t.variant_id JOIN source s ON s.id = t.source_id"
		" LEFT JOIN machine m ON m.id = t.machine_id",
		&w, config, " AND EXISTS (SELECT 1 FROM job j WHERE j.run_id = t.id) ORDER BY t.id", err);
	if (!st) {
		db_where_release(&w);
		return -1;
	}
	while ((step = db_step(st)) == DB_ROW) {
		struct db_prun *r;
		xgrow(&out->runs, &cap, out->nruns + 1, sizeof(*out->runs));
		r = &out->runs[out->nruns++];
		memset(r, 0, sizeof(*r));
		r->run_id = db_col_int(st, 0);
		r->variant_id = db_col_int(st, 1);
		r->variant = db_col_interned(&ps, st, 2);
		r->benchmark = db_col_interned(&ps, st, 3);
		r->config = db_col_interned(&ps, st, 4);
		r->source = db_col_interned(&ps, st, 5);
		r->iteration = (int)db_col_int(st, 6);
		r->machine_key = db_col_interned(&ps, st, 7);
		r->machine_cpus = db_col_null(st, 8) ? 0 : (int)db_col_int(st, 8);
		r->machine_nodes = db_col_null(st, 9) ? 0 : (int)db_col_int(st, 9);
	}
	db_strings_done(&ps);
	out->strings = ps.v;
	out->nstrings = ps.n;
	if (loop_done(db, st, step, err) < 0)
		goto fail;

	/* The jobs with their per-node percentages, read from the job's JSON
	 * array (the placement view's rows: a number at index n is node n),
	 * in one pass: the view, a json_each per job read twice and sorted,
	 * was most of the load. */
	st = prepare_sel(db,
		"SELECT j.run_id, j.job, j.initial_node, j.main_node, j.moved, j.user_time, j.pct"
		" FROM run t JOIN job j ON j.run_id = t.id", &w, config,
		" ORDER BY j.run_id, j.job", err);
	if (!st)
		goto fail;
	{
		struct db_prun *cur = NULL;
		size_t jcap = 0;
		while ((step = db_step(st)) == DB_ROW) {
			long long id = db_col_int(st, 0);
			struct db_pjob *j;
			if (!cur || cur->run_id != id) {
				cur = find_run(out, id);
				jcap = cur ? cur->njobs : 0;
			}
			if (!cur)
				continue;
			xgrow(&cur->jobs, &jcap, cur->njobs + 1, sizeof(*cur->jobs));
			j = &cur->jobs[cur->njobs++];
			j->job = (int)db_col_int(st, 1);
			j->initial_node = (int)db_col_int(st, 2);
			j->main_node = (int)db_col_int(st, 3);
			j->moved = (int)db_col_int(st, 4);
			j->user = db_col_double(st, 5);
			j->pct = job_pct(db_col_str(st, 6), &cur->nnodes);
		}
	}
	if (loop_done(db, st, step, err) < 0)
		goto fail;
	/* Every job gets nnodes values, NaN where its array had none: one
	 * block per run (a store's report holds every run's), jobs[0].pct
	 * owning it; the job array trimmed to its jobs. */
	for (i = 0; i < out->nruns; i++) {
		struct db_prun *r = &out->runs[i];
		size_t k, nn = (size_t)(r->nnodes > 0 ? r->nnodes : 1);
		double *block;
		int n;

		if (!r->njobs) {
			r->tasks = config_tasks(r->config, r->njobs);
			continue;
		}
		block = xmalloc(sizeof(double) * nn * r->njobs);
		for (k = 0; k < r->njobs; k++) {
			double *pct = block + k * nn;
			for (n = 0; n < r->nnodes; n++)
				pct[n] = r->jobs[k].pct && n < (int)r->jobs[k].pct[0]
					 ? r->jobs[k].pct[n + 1] : NAN;
			free(r->jobs[k].pct);
			r->jobs[k].pct = pct;
		}
		r->jobs = xrealloc(r->jobs, r->njobs * sizeof(*r->jobs));
		r->tasks = config_tasks(r->config, r->njobs);
	}
	if (out->nruns > 1)
		qsort(out->runs, out->nruns, sizeof(*out->runs), cmp_run);
	db_where_release(&w);
	return 0;
fail:
	db_where_release(&w);
	db_placement_release(out);
	return -1;
}

int db_placement_load(struct db *db, const char *variant, const char *config,
		      struct db_placement *out, struct kb_err *err)
{
	struct db_qsel sel;

	memset(&sel, 0, sizeof(sel));
	if (variant) {
		sel.variants = &variant;
		sel.nvariants = 1;
	}
	return placement_load(db, &sel, config, out, err);
}

int db_placement_select(struct db *db, const struct db_qsel *sel, struct db_placement *out,
			struct kb_err *err)
{
	return placement_load(db, sel, NULL, out, err);
}

void db_placement_release(struct db_placement *p)
{
	size_t i;

	for (i = 0; i < p->nruns; i++) {
		struct db_prun *r = &p->runs[i];
		if (r->njobs)
			free(r->jobs[0].pct);	/* the run's block */
		free(r->jobs);
	}
	for (i = 0; i < p->nstrings; i++)
		free(p->strings[i]);
	free(p->strings);
	free(p->runs);
	memset(p, 0, sizeof(*p));
}
