/*
 * seq.c - repeated looks at a candidate against a baseline, with the
 * false-alarm level spent across the looks (see seq.h).
 */
#include "seq.h"
#include "compare.h"
#include "query.h"
#include "../core/buf.h"
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

/* The table of one or two variants (the baseline first) on machine. */
static int table(struct db *db, const struct an_seq_opts *o, const char *bench,
		 const char *machine, const char *const *variants, size_t nvariants,
		 const char *const *metrics, size_t nmetrics, struct an_table *t, struct kb_err *err)
{
	struct an_query q;

	an_query_init(&q);
	q.bench = bench;
	q.metrics = metrics;
	q.nmetrics = nmetrics;
	q.variants = variants;
	q.nvariants = nvariants;
	q.machines = &machine;
	q.nmachines = 1;
	q.baseline = variants[0];
	q.threshold = o->threshold;
	q.alpha = o->alpha;
	q.no_derived = 1;
	return an_compare_build(db, &q, t, err);
}

/* Decide one row and count it into the look. */
static void add_row(struct an_seq_look *out, const struct an_seq_opts *o, const struct an_row *r,
		    const char *config, const struct an_cell *b, const struct an_cell *c)
{
	struct an_seq_row *sr;

	out->rows = xrealloc(out->rows, (out->nrows + 1) * sizeof(*out->rows));
	sr = &out->rows[out->nrows++];
	memset(sr, 0, sizeof(*sr));
	sr->benchmark = xstrdup(r->benchmark);
	sr->config = xstrdup(config);
	sr->metric = xstrdup(r->metric);
	sr->dir = r->dir;
	sr->nbase = b->nvalues;
	sr->ncand = c && c->origin == AN_ORIGIN_SAMPLES ? c->nvalues : 0;
	if (sr->ncand == 0) {
		sr->chg.verdict = AN_VERDICT_INCONCLUSIVE;
		sr->chg.raw = NAN;
		sr->chg.p = NAN;
		out->decided = 0;
		return;
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

/* The one config of t's selected rows, or NULL when there are none or
 * several. */
static const char *only_config(const struct an_table *t, const char *const *metrics, size_t n)
{
	const char *one = NULL;
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		if (!selected(&t->rows[i], metrics, n) || t->rows[i].cells[0].origin != AN_ORIGIN_SAMPLES)
			continue;
		if (one && strcmp(one, t->rows[i].config) != 0)
			return NULL;
		one = t->rows[i].config;
	}
	return one;
}

/* No config with runs of both: each side's one config, metric by metric.
 * 1 when compared so, 0 when a side ran several configs, -1 error. */
static int across_configs(struct db *db, const struct an_seq_opts *o, const char *bench,
			  const char *machine, const char *baseline, const char *cand,
			  const char *const *metrics, size_t nmetrics, struct an_seq_look *out,
			  struct kb_err *err)
{
	struct an_table tb, tc;
	const char *cb, *cc;
	size_t i, k;
	int rc = 0;

	if (table(db, o, bench, machine, &baseline, 1, metrics, nmetrics, &tb, err) < 0)
		return -1;
	if (table(db, o, bench, machine, &cand, 1, metrics, nmetrics, &tc, err) < 0) {
		an_table_release(&tb);
		return -1;
	}
	cb = only_config(&tb, metrics, nmetrics);
	cc = only_config(&tc, metrics, nmetrics);
	if (cb && cc) {
		struct buf note = BUF_INIT;

		for (i = 0; i < tc.nrows; i++) {
			const struct an_row *r = &tc.rows[i];

			if (!selected(r, metrics, nmetrics) || r->cells[0].origin != AN_ORIGIN_SAMPLES)
				continue;
			for (k = 0; k < tb.nrows; k++)
				if (strcmp(tb.rows[k].metric, r->metric) == 0 &&
				    tb.rows[k].cells[0].origin == AN_ORIGIN_SAMPLES)
					break;
			if (k < tb.nrows)
				add_row(out, o, r, r->config, &tb.rows[k].cells[0], &r->cells[0]);
		}
		buf_printf(&note, "the configs differ, compared as the one each ran: %s %s against %s %s",
			   baseline, cb, cand, cc);
		out->note = buf_detach(&note);
		rc = 1;
	}
	an_table_release(&tb);
	an_table_release(&tc);
	return rc;
}

int an_seq_look(struct db *db, const struct an_seq_opts *o, const char *bench,
		const char *machine, const char *baseline, const char *cand,
		const char *const *metrics, size_t nmetrics, size_t ncand,
		struct an_seq_look *out, struct kb_err *err)
{
	const char *variants[2] = { baseline, cand };
	struct an_table t;
	size_t i, vc, paired = 0;

	memset(out, 0, sizeof(*out));
	out->alpha = an_seq_alpha(o, ncand);
	out->decided = 1;
	if (table(db, o, bench, machine, variants, 2, metrics, nmetrics, &t, err) < 0)
		return -1;
	vc = t.baseline == 0 ? 1 : 0;
	for (i = 0; i < t.nrows; i++) {
		const struct an_row *r = &t.rows[i];

		if (selected(r, metrics, nmetrics) && r->cells[t.baseline].origin == AN_ORIGIN_SAMPLES &&
		    r->cells[vc].origin == AN_ORIGIN_SAMPLES)
			paired++;
	}
	if (paired == 0) {
		int rc = across_configs(db, o, bench, machine, baseline, cand, metrics, nmetrics,
					out, err);
		if (rc != 0) {
			an_table_release(&t);
			if (rc > 0 && out->nrows == 0)
				out->decided = 0;
			return rc < 0 ? -1 : 0;
		}
	}
	for (i = 0; i < t.nrows; i++) {
		const struct an_row *r = &t.rows[i];

		/* rows of the candidate's configs (a baseline's other configs
		 * are not waited for) */
		if (!selected(r, metrics, nmetrics) || r->cells[t.baseline].origin != AN_ORIGIN_SAMPLES ||
		    r->cells[vc].origin != AN_ORIGIN_SAMPLES)
			continue;
		add_row(out, o, r, r->config, &r->cells[t.baseline], &r->cells[vc]);
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
	free(l->note);
	memset(l, 0, sizeof(*l));
}
