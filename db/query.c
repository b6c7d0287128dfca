/*
 * query.c - read-only loading of runs, samples, jobs, summaries and the
 * metric catalogue for analyze/ (see query.h).
 */
#include "db_int.h"
#include "query.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int col_int_or(sqlite3_stmt *st, int i, int dflt)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? dflt : sqlite3_column_int(st, i);
}

static int load_variants(struct db *db, struct db_qdata *q, struct kb_err *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;

	st = db_prepare(db, "SELECT id, name, kernel, description FROM variant ORDER BY id", err);
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct db_qvariant *v;
		xgrow(&q->variants, &cap, q->nvariants + 1, sizeof(*q->variants));
		v = &q->variants[q->nvariants++];
		v->id = sqlite3_column_int64(st, 0);
		v->name = db_col_text(st, 1);
		v->kernel = db_col_text(st, 2);
		v->description = db_col_text(st, 3);
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;
	return 0;
}

static int load_metrics(struct db *db, struct db_qdata *q, struct kb_err *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;

	st = db_prepare(db, "SELECT benchmark, name, unit, better FROM metric"
			    " ORDER BY benchmark, name", err);
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct db_qmetric *m;
		xgrow(&q->metrics, &cap, q->nmetrics + 1, sizeof(*q->metrics));
		m = &q->metrics[q->nmetrics++];
		m->benchmark = db_col_text(st, 0);
		m->name = db_col_text(st, 1);
		m->unit = db_col_text(st, 2);
		m->better = db_col_text(st, 3);
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;
	return 0;
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

static int load_runs(struct db *db, const char *bench, struct db_qdata *q,
		     struct kb_err *err)
{
	sqlite3_stmt *st;
	struct run_index *ix = NULL;
	size_t cap = 0, i;
	int rc = -1;

	st = db_prepare(db,
		"SELECT r.id, r.variant_id, r.source_id, r.benchmark, r.config, m.name,"
		" src.imported_at, r.iteration, r.status = 'ok'"
		" FROM run r JOIN source src ON src.id = r.source_id"
		" LEFT JOIN machine m ON m.id = r.machine_id"
		" WHERE ?1 IS NULL OR r.benchmark = ?1"
		" ORDER BY r.benchmark, r.config, r.variant_id, r.id", err);
	if (!st)
		return -1;
	db_bind_text(st, 1, bench);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct db_qrun *r;
		xgrow(&q->runs, &cap, q->nruns + 1, sizeof(*q->runs));
		r = &q->runs[q->nruns++];
		r->id = sqlite3_column_int64(st, 0);
		r->variant_id = sqlite3_column_int64(st, 1);
		r->source_id = sqlite3_column_int64(st, 2);
		r->benchmark = db_col_text(st, 3);
		r->config = db_col_text(st, 4);
		r->machine = db_col_text(st, 5);
		r->imported_at = db_col_text(st, 6);
		r->iteration = sqlite3_column_int(st, 7);
		r->ok = sqlite3_column_int(st, 8);
	}
	if (db_rows_end(db, st, err) < 0)
		goto out;

	ix = xcalloc(q->nruns ? q->nruns : 1, sizeof(*ix));
	for (i = 0; i < q->nruns; i++) {
		ix[i].id = q->runs[i].id;
		ix[i].idx = i;
	}
	qsort(ix, q->nruns, sizeof(*ix), cmp_run_index);

	st = db_prepare(db,
		"SELECT s.run_id, s.metric, s.unit, s.value, s.job FROM sample_all s"
		" JOIN run r ON r.id = s.run_id"
		" WHERE ?1 IS NULL OR r.benchmark = ?1"
		" ORDER BY s.run_id, s.id IS NULL, s.id, s.job", err);
	if (!st)
		goto out;
	db_bind_text(st, 1, bench);
	cap = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct db_qsample *s;
		size_t run;
		if (find_run(ix, q->nruns, sqlite3_column_int64(st, 0), &run) < 0)
			continue;
		xgrow(&q->samples, &cap, q->nsamples + 1, sizeof(*q->samples));
		s = &q->samples[q->nsamples++];
		s->run = run;
		s->metric = db_col_text(st, 1);
		s->unit = db_col_text(st, 2);
		s->value = db_col_double(st, 3);
		s->job = col_int_or(st, 4, -1);
	}
	if (db_rows_end(db, st, err) < 0)
		goto out;

	st = db_prepare(db,
		"SELECT j.run_id, j.job, j.initial_node, j.main_node, j.moved, j.user_time"
		" FROM job j JOIN run r ON r.id = j.run_id"
		" WHERE ?1 IS NULL OR r.benchmark = ?1 ORDER BY j.run_id, j.job", err);
	if (!st)
		goto out;
	db_bind_text(st, 1, bench);
	cap = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct db_qjob *j;
		size_t run;
		if (find_run(ix, q->nruns, sqlite3_column_int64(st, 0), &run) < 0)
			continue;
		xgrow(&q->jobs, &cap, q->njobs + 1, sizeof(*q->jobs));
		j = &q->jobs[q->njobs++];
		j->run = run;
		j->job = sqlite3_column_int(st, 1);
		j->initial_node = col_int_or(st, 2, -1);
		j->main_node = col_int_or(st, 3, -1);
		j->moved = sqlite3_column_int(st, 4);
		j->user = db_col_double(st, 5);
	}
	if (db_rows_end(db, st, err) < 0)
		goto out;
	rc = 0;
out:
	free(ix);
	return rc;
}

static int load_summaries(struct db *db, const char *bench, struct db_qdata *q,
			  struct kb_err *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;

	st = db_prepare(db,
		"SELECT variant_id, source_id, benchmark, config, metric, unit, flags,"
		" mean, sd, min, max, n FROM summary"
		" WHERE ?1 IS NULL OR benchmark = ?1 ORDER BY id", err);
	if (!st)
		return -1;
	db_bind_text(st, 1, bench);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct db_qsummary *s;
		xgrow(&q->summaries, &cap, q->nsummaries + 1, sizeof(*q->summaries));
		s = &q->summaries[q->nsummaries++];
		s->variant_id = sqlite3_column_int64(st, 0);
		s->source_id = sqlite3_column_int64(st, 1);
		s->benchmark = db_col_text(st, 2);
		s->config = db_col_text(st, 3);
		s->metric = db_col_text(st, 4);
		s->unit = db_col_text(st, 5);
		s->flags = db_col_text(st, 6);
		s->mean = db_col_double(st, 7);
		s->sd = db_col_double(st, 8);
		s->min = db_col_double(st, 9);
		s->max = db_col_double(st, 10);
		s->n = sqlite3_column_type(st, 11) == SQLITE_NULL ? 0 : sqlite3_column_int64(st, 11);
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;
	return 0;
}

int db_query_load(struct db *db, const char *bench, struct db_qdata *out,
		  struct kb_err *err)
{
	memset(out, 0, sizeof(*out));
	/* One read transaction: a concurrent import cannot split the picture. */
	if (db_exec(db, "BEGIN", err) < 0)
		return -1;
	if (load_variants(db, out, err) < 0 || load_metrics(db, out, err) < 0 ||
	    load_runs(db, bench, out, err) < 0 || load_summaries(db, bench, out, err) < 0) {
		db_exec(db, "ROLLBACK", NULL);
		db_qdata_release(out);
		return -1;
	}
	db_exec(db, "COMMIT", NULL);
	return 0;
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
		free(q->runs[i].imported_at);
	}
	for (i = 0; i < q->nsamples; i++) {
		free(q->samples[i].metric);
		free(q->samples[i].unit);
	}
	for (i = 0; i < q->nsummaries; i++) {
		free(q->summaries[i].benchmark);
		free(q->summaries[i].config);
		free(q->summaries[i].metric);
		free(q->summaries[i].unit);
		free(q->summaries[i].flags);
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
