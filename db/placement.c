/*
 * placement.c - numa_test job placement for charts and anomaly checks.
 */
#include "db_int.h"
#include "../core/buf.h"
#include "placement.h"
#include "query.h"
#include "../core/num.h"
#include "../core/util.h"

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
	struct dbst *st;
	struct db_where w;
	size_t cap = 0, i;
	int step;

	memset(out, 0, sizeof(*out));
	db_where_build(&w, sel);
	st = prepare_sel(db,
		"SELECT t.id, v.id, v.display, t.benchmark, t.config, s.path, t.iteration"
		" FROM run t JOIN variant_v v ON v.id = t.variant_id JOIN source s ON s.id = t.source_id",
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
		r->variant = db_col_text(st, 2);
		r->benchmark = db_col_text(st, 3);
		r->config = db_col_text(st, 4);
		r->source = db_col_text(st, 5);
		r->iteration = (int)db_col_int(st, 6);
	}
	if (loop_done(db, st, step, err) < 0)
		goto fail;

	st = prepare_sel(db,
		"SELECT j.run_id, j.job, j.initial_node, j.main_node, j.moved, j.user_time"
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
			j->pct = NULL;
		}
	}
	if (loop_done(db, st, step, err) < 0)
		goto fail;

	st = prepare_sel(db,
		"SELECT p.run_id, p.job, p.node, p.pct FROM run t JOIN placement p ON p.run_id = t.id",
		&w, config, " ORDER BY p.run_id, p.job, p.node", err);
	if (!st)
		goto fail;
	while ((step = db_step(st)) == DB_ROW) {
		struct db_prun *r = find_run(out, db_col_int(st, 0));
		int job = (int)db_col_int(st, 1), node = (int)db_col_int(st, 2);
		if (r && node >= 0 && node < 4096 && node + 1 > r->nnodes)
			r->nnodes = node + 1;
		(void)job;
	}
	if (step != DB_DONE) {
		loop_done(db, st, step, err);
		goto fail;
	}
	db_reset(st);
	for (i = 0; i < out->nruns; i++) {
		struct db_prun *r = &out->runs[i];
		size_t k;
		int n;
		for (k = 0; k < r->njobs; k++) {
			r->jobs[k].pct = xmalloc(sizeof(double) * (size_t)(r->nnodes > 0 ? r->nnodes : 1));
			for (n = 0; n < r->nnodes; n++)
				r->jobs[k].pct[n] = NAN;
		}
		r->tasks = config_tasks(r->config, r->njobs);
	}
	while ((step = db_step(st)) == DB_ROW) {
		struct db_prun *r = find_run(out, db_col_int(st, 0));
		int job = (int)db_col_int(st, 1), node = (int)db_col_int(st, 2);
		size_t k;
		if (!r || node < 0 || node >= r->nnodes)
			continue;
		for (k = 0; k < r->njobs; k++)
			if (r->jobs[k].job == job)
				r->jobs[k].pct[node] = db_col_real(st, 3);
	}
	if (loop_done(db, st, step, err) < 0)
		goto fail;
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
	size_t i, k;

	for (i = 0; i < p->nruns; i++) {
		struct db_prun *r = &p->runs[i];
		for (k = 0; k < r->njobs; k++)
			free(r->jobs[k].pct);
		free(r->jobs);
		free(r->variant);
		free(r->benchmark);
		free(r->config);
		free(r->source);
	}
	free(p->runs);
	memset(p, 0, sizeof(*p));
}
