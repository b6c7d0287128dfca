/*
 * seq.c - repeated looks at a candidate against a baseline, with the
 * false-alarm level spent across the looks (see seq.h).
 */
#include "seq.h"
#include "compare.h"
#include "query.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void an_seq_opts_init(struct an_seq_opts *o)
{
	o->alpha = 0.05;
	o->threshold = 1.0;
	o->min_runs = 3;
	o->max_runs = 30;
}

double an_seq_alpha(const struct an_seq_opts *o, size_t n)
{
	size_t lo = o->min_runs ? o->min_runs : 1, hi = o->max_runs < lo ? lo : o->max_runs;

	if (n < lo || n > hi)
		return 0;
	if (n == lo)
		return o->alpha * (double)lo / (double)hi;
	return o->alpha / (double)hi;
}

void an_seq_decide(const struct an_seq_opts *o, const double *base, size_t nb,
		   const double *cand, size_t nc, enum an_direction dir,
		   struct an_change *c)
{
	struct an_side sb, sc;
	struct an_opts ao;
	double a = an_seq_alpha(o, nc);

	an_opts_init(&ao);
	ao.dir = dir;
	ao.delta = o->threshold;
	an_side_samples_dir(&sb, base, nb, dir);
	an_side_samples_dir(&sc, cand, nc, dir);
	if (a <= 0) {
		/* before min_runs (or past max_runs): described, not decided */
		ao.alpha = o->alpha;
		an_compare(&sb, &sc, &ao, c);
		if (c->verdict != AN_VERDICT_NONE)
			c->verdict = AN_VERDICT_INCONCLUSIVE;
		return;
	}
	ao.alpha = a;
	ao.level = 1 - a;
	an_compare(&sb, &sc, &ao, c);
}

static int selected(const struct an_row *r, const char *const *metrics, size_t n)
{
	size_t i;

	if (n == 0)
		return r->dir != AN_DIR_NONE;
	for (i = 0; i < n; i++)
		if (strcmp(metrics[i], r->metric) == 0)
			return 1;
	return 0;
}

int an_seq_look(struct db *db, const struct an_seq_opts *o, const char *bench,
		const char *machine, const char *baseline, const char *cand,
		const char *const *metrics, size_t nmetrics, size_t ncand,
		struct an_seq_look *out, struct kb_err *err)
{
	const char *variants[2] = { baseline, cand };
	struct an_query q;
	struct an_table t;
	size_t i, vc;

	memset(out, 0, sizeof(*out));
	an_query_init(&q);
	q.bench = bench;
	q.metrics = metrics;
	q.nmetrics = nmetrics;
	q.variants = variants;
	q.nvariants = 2;
	q.machines = &machine;
	q.nmachines = 1;
	q.baseline = baseline;
	q.threshold = o->threshold;
	q.alpha = o->alpha;
	q.no_derived = 1;
	if (an_compare_build(db, &q, &t, err) < 0)
		return -1;
	vc = t.baseline == 0 ? 1 : 0;
	out->alpha = an_seq_alpha(o, ncand);
	out->decided = 1;
	for (i = 0; i < t.nrows; i++) {
		const struct an_row *r = &t.rows[i];
		const struct an_cell *b = &r->cells[t.baseline], *c = &r->cells[vc];
		struct an_seq_row *sr;

		if (!selected(r, metrics, nmetrics) || b->origin != AN_ORIGIN_SAMPLES)
			continue;
		out->rows = xrealloc(out->rows, (out->nrows + 1) * sizeof(*out->rows));
		sr = &out->rows[out->nrows++];
		memset(sr, 0, sizeof(*sr));
		sr->benchmark = xstrdup(r->benchmark);
		sr->config = xstrdup(r->config);
		sr->metric = xstrdup(r->metric);
		sr->dir = r->dir;
		sr->nbase = b->nvalues;
		sr->ncand = c->origin == AN_ORIGIN_SAMPLES ? c->nvalues : 0;
		if (sr->ncand == 0) {
			sr->chg.verdict = AN_VERDICT_INCONCLUSIVE;
			sr->chg.raw = NAN;
			out->decided = 0;
			continue;
		}
		an_seq_decide(o, b->values, b->nvalues, c->values, c->nvalues, r->dir, &sr->chg);
		switch (sr->chg.verdict) {
		case AN_VERDICT_SAME:
		case AN_VERDICT_BETTER:
		case AN_VERDICT_CHANGED:
			break;
		case AN_VERDICT_WORSE:
			out->worse = 1;
			break;
		default:
			out->decided = 0;
		}
	}
	if (out->nrows == 0)
		out->decided = 0;
	an_table_release(&t);
	return 0;
}

void an_seq_look_release(struct an_seq_look *l)
{
	size_t i;

	for (i = 0; i < l->nrows; i++) {
		free(l->rows[i].benchmark);
		free(l->rows[i].config);
		free(l->rows[i].metric);
	}
	free(l->rows);
	memset(l, 0, sizeof(*l));
}
