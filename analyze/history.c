/*
 * history.c - a metric along ordered variants and its change points
 * (see history.h).
 *
 * The energy statistic needs sums of |x - y| over all pairs; on sorted
 * values the within-set sum is sum_i x_(i) (2i - n + 1), and the cross sum
 * of two sets is the within sum of their union minus both within sums, so
 * each split costs a sort instead of a double loop.
 */
#include "history.h"
#include "qload.h"

#include "../core/util.h"
#include "../db/query.h"
#include "../ingest/record.h"
#include "version.h"

#define MATHLIB_STANDALONE
#include <Rmath.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void an_history_opts_init(struct an_history_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->order = AN_ORDER_VERSION;
	o->pvalue = 0.001;
	o->threshold = 1.0;
	o->window = 50;
}

const char *an_order_name(enum an_order o)
{
	switch (o) {
	case AN_ORDER_VERSION: return "version";
	case AN_ORDER_IMPORTED: return "imported";
	case AN_ORDER_NAME: return "name";
	}
	return "?";
}

int an_order_parse(const char *s, enum an_order *o)
{
	if (strcmp(s, "version") == 0)
		*o = AN_ORDER_VERSION;
	else if (strcmp(s, "imported") == 0)
		*o = AN_ORDER_IMPORTED;
	else if (strcmp(s, "name") == 0)
		*o = AN_ORDER_NAME;
	else
		return -1;
	return 0;
}

/* Change points ----------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* sum over pairs i < j of |x_i - x_j|; sorts x. */
static double within_sum(double *x, size_t n)
{
	double s = 0;
	size_t i;

	qsort(x, n, sizeof(double), cmp_double);
	for (i = 0; i < n; i++)
		s += x[i] * (2.0 * (double)i - (double)n + 1.0);
	return s;
}

/* The pooled values of points [a, b) appended to buf at *len. */
static void pool(const struct an_hseries *s, size_t a, size_t b, double *buf, size_t *len)
{
	size_t i, k;

	for (i = a; i < b; i++)
		for (k = 0; k < s->points[i].n; k++)
			if (!isnan(s->points[i].values[k]))
				buf[(*len)++] = s->points[i].values[k];
}

struct side_stats {
	size_t n;
	double mean, var, median;
};

static void side_describe(double *x, size_t n, struct side_stats *st)
{
	double m = 0, v = 0;
	size_t i;

	st->n = n;
	for (i = 0; i < n; i++)
		m += x[i];
	m = n ? m / (double)n : NAN;
	for (i = 0; i < n; i++)
		v += (x[i] - m) * (x[i] - m);
	st->mean = m;
	st->var = n > 1 ? v / (double)(n - 1) : NAN;
	st->median = an_median(x, n);
}

/* Welch's t-test of right against left; p NaN when undefined. */
static void welch(const struct side_stats *l, const struct side_stats *r, double *t,
		  double *df, double *p)
{
	double se2, a, b;

	*t = *df = *p = NAN;
	if (l->n < 2 || r->n < 2)
		return;
	a = l->var / (double)l->n;
	b = r->var / (double)r->n;
	se2 = a + b;
	if (!(se2 > 0)) {
		/* Both sides constant: a difference is certain, none is nothing. */
		if (l->mean != r->mean) {
			*t = r->mean > l->mean ? INFINITY : -INFINITY;
			*p = 0;
		} else {
			*t = 0;
			*p = 1;
		}
		*df = (double)(l->n + r->n - 2);
		return;
	}
	*t = (r->mean - l->mean) / sqrt(se2);
	*df = se2 * se2 / (a * a / (double)(l->n - 1) + b * b / (double)(r->n - 1));
	*p = 2.0 * pt(-fabs(*t), *df, 1, 0);
}

struct split_eval {
	double energy, t, df, p;
	struct side_stats l, r;
};

/* Evaluate split k of segment [a, b) with windows of w points a side. */
static void eval_split(const struct an_hseries *s, size_t a, size_t b, size_t k, size_t w,
		       double *buf, struct split_eval *e)
{
	size_t la = k - a > w ? k - w : a, rb = b - k > w ? k + w : b;
	size_t nl = 0, nr = 0, nu;
	double *left = buf, *right, wl, wr, wu, cross, m, n;

	pool(s, la, k, left, &nl);
	right = left + nl;
	pool(s, k, rb, right, &nr);
	nu = nl + nr;
	e->energy = 0;
	e->t = e->df = e->p = NAN;
	if (nl < 2 || nr < 2) {
		side_describe(left, nl, &e->l);
		side_describe(right, nr, &e->r);
		return;
	}
	/* within(union) first (sorting left+right together in place would mix
	 * them), so copy the union after both sides. */
	memcpy(buf + nu, buf, nu * sizeof(double));
	wu = within_sum(buf + nu, nu);
	wl = within_sum(left, nl);
	wr = within_sum(right, nr);
	cross = wu - wl - wr;
	m = (double)nl;
	n = (double)nr;
	e->energy = (m * n / (m + n)) *
		    (2.0 * cross / (m * n) - wl / (m * (m - 1) / 2) - wr / (n * (n - 1) / 2));
	side_describe(left, nl, &e->l);
	side_describe(right, nr, &e->r);
	welch(&e->l, &e->r, &e->t, &e->df, &e->p);
}

static void add_change(struct an_hseries *s, size_t k, const struct split_eval *e)
{
	struct an_hchange *c;

	s->changes = xrealloc(s->changes, (s->nchanges + 1) * sizeof(*s->changes));
	c = &s->changes[s->nchanges++];
	memset(c, 0, sizeof(*c));
	c->index = k;
	c->before_median = e->l.median;
	c->after_median = e->r.median;
	c->change_pct = (e->r.median - e->l.median) / fabs(e->l.median) * 100.0;
	c->p = e->p;
	c->t = e->t;
	c->df = e->df;
	c->energy = e->energy;
	c->n_before = e->l.n;
	c->n_after = e->r.n;
	if (s->dir == AN_DIR_NONE)
		c->verdict = AN_VERDICT_CHANGED;
	else if ((s->dir == AN_DIR_LOWER) == (c->change_pct > 0))
		c->verdict = AN_VERDICT_WORSE;
	else
		c->verdict = AN_VERDICT_BETTER;
}

static void segment(struct an_hseries *s, size_t a, size_t b, const struct an_history_opts *o,
		    double *buf, int depth)
{
	struct split_eval best, e;
	size_t k, best_k = 0;
	double d;

	if (b - a < 2 || depth > 64)
		return;
	memset(&best, 0, sizeof(best));
	best.energy = -INFINITY;
	for (k = a + 1; k < b; k++) {
		eval_split(s, a, b, k, o->window ? o->window : 50, buf, &e);
		if (isnan(e.p))
			continue;
		if (e.energy > best.energy) {
			best = e;
			best_k = k;
		}
	}
	if (!best_k || isnan(best.p) || best.p > o->pvalue)
		return;
	d = (best.r.median - best.l.median) / fabs(best.l.median) * 100.0;
	if (!(fabs(d) >= o->threshold))
		return;
	add_change(s, best_k, &best);
	segment(s, a, best_k, o, buf, depth + 1);
	segment(s, best_k, b, o, buf, depth + 1);
}

static int cmp_change(const void *a, const void *b)
{
	const struct an_hchange *x = a, *y = b;
	return x->index < y->index ? -1 : x->index > y->index;
}

void an_history_changes(struct an_hseries *s, const struct an_history_opts *o)
{
	size_t total = 0, i;
	double *buf;

	free(s->changes);
	s->changes = NULL;
	s->nchanges = 0;
	for (i = 0; i < s->npoints; i++)
		total += s->points[i].n;
	if (s->npoints < 2 || total < 4)
		return;
	buf = xmalloc(2 * total * sizeof(double) + sizeof(double));
	segment(s, 0, s->npoints, o, buf, 0);
	free(buf);
	if (s->nchanges > 1)
		qsort(s->changes, s->nchanges, sizeof(*s->changes), cmp_change);
}

/* Building from the store --------------------------------------------------- */

static enum an_direction direction(const struct db_qdata *q, const char *bench,
				   const char *metric, const struct an_history_opts *o)
{
	const char *better = NULL;
	enum an_direction d = AN_DIR_NONE;
	size_t i;

	for (i = 0; i < o->nbetter; i++)
		if (strcmp(o->better[i].metric, metric) == 0)
			return o->better[i].dir;
	for (i = 0; i < q->nmetrics; i++)
		if (strcmp(q->metrics[i].name, metric) == 0 &&
		    strcmp(q->metrics[i].benchmark, bench) == 0)
			better = q->metrics[i].better;
	if (!better)
		for (i = 0; i < q->nmetrics; i++)
			if (strcmp(q->metrics[i].name, metric) == 0 &&
			    q->metrics[i].benchmark[0] == '\0')
				better = q->metrics[i].better;
	/* (Spelled out rather than an_direction_parse() so that history does
	 * not need the comparison module.) */
	if (better && strcmp(better, "lower") == 0)
		d = AN_DIR_LOWER;
	else if (better && strcmp(better, "higher") == 0)
		d = AN_DIR_HIGHER;
	return d;
}

struct vkey {
	size_t vi;		/* index into q->variants */
	char version[128];
	int has_version;
};

struct sort_ctx {
	enum an_order order;
	const struct db_qdata *q;
};

static int cmp_vkey(const void *a, const void *b, void *ctx)
{
	const struct sort_ctx *sc = ctx;
	const struct vkey *x = a, *y = b;
	const struct db_qvariant *vx = &sc->q->variants[x->vi], *vy = &sc->q->variants[y->vi];
	int c;

	switch (sc->order) {
	case AN_ORDER_VERSION:
		if (x->has_version != y->has_version)
			return x->has_version ? -1 : 1;
		if (x->has_version) {
			c = an_version_cmp(x->version, y->version);
			if (c)
				return c;
		}
		break;
	case AN_ORDER_NAME:
		c = strcmp(vx->name, vy->name);
		if (c)
			return c;
		break;
	case AN_ORDER_IMPORTED:
		break;
	}
	return vx->id < vy->id ? -1 : vx->id > vy->id;
}

/* Series key: index of the first run with this (benchmark, config). */
struct skey {
	const char *bench, *config, *machine;
};



static void point_add(struct an_hpoint *p, double v)
{
	p->values = xrealloc(p->values, (p->n + 1) * sizeof(double));
	p->values[p->n++] = v;
}

int an_history_build(struct db *db, const struct an_history_opts *o,
		     struct an_history *h, struct kb_err *err)
{
	struct db_qdata q;
	struct vkey *keys = NULL;
	size_t *rank = NULL;	/* variant index -> history position */
	struct skey *sk = NULL;
	struct sort_ctx sctx;
	size_t nsk = 0, i, j, s;

	memset(h, 0, sizeof(*h));
	if (!o->metric || !*o->metric)
		return kb_err_set(err, "", 0, "a metric is required (--metric M)");
	if (!(o->pvalue > 0 && o->pvalue <= 1))
		return kb_err_set(err, "", 0, "the p-value must lie in (0, 1], not %g", o->pvalue);
	if (!(o->threshold >= 0))
		return kb_err_set(err, "", 0, "the threshold must be >= 0, not %g", o->threshold);
	{
		/* Load the selection only: the benchmark, the metric, the configs,
		 * the machines. */
		struct an_query sel;
		an_query_init(&sel);
		sel.bench = o->bench;
		sel.metrics = &o->metric;
		sel.nmetrics = 1;
		sel.config = o->config;
		sel.nconfig = o->nconfig;
		sel.machines = o->machines;
		sel.nmachines = o->nmachines;
		if (an_query_load(db, &sel, &q, err) < 0)
			return -1;
	}
	h->opts = *o;
	h->opts.metric = h->opts.bench = NULL;
	h->opts.config = NULL;
	h->opts.better = NULL;
	h->opts.machines = NULL;
	h->opts.nmachines = 0;

	/* History order of the variants. */
	keys = xcalloc(q.nvariants + 1, sizeof(*keys));
	rank = xcalloc(q.nvariants + 1, sizeof(*rank));
	for (i = 0; i < q.nvariants; i++) {
		keys[i].vi = i;
		keys[i].has_version =
			(q.variants[i].kernel && an_version_find(q.variants[i].kernel, keys[i].version,
								 sizeof(keys[i].version))) ||
			an_version_find(q.variants[i].name, keys[i].version, sizeof(keys[i].version));
	}
	sctx.order = o->order;
	sctx.q = &q;
	qsort_r(keys, q.nvariants, sizeof(*keys), cmp_vkey, &sctx);
	for (i = 0; i < q.nvariants; i++)
		rank[keys[i].vi] = i;

	/* Series: distinct (benchmark, config) of ok runs holding the metric. */
	for (i = 0; i < q.nsamples; i++) {
		const struct db_qrun *r = &q.runs[q.samples[i].run];
		int found = 0;

		if (!r->ok || strcmp(q.samples[i].metric, o->metric) != 0 ||
		    !REC_CONFIG_MATCH(r->config, o->config, o->nconfig) ||
		    !an_machine_selected(o->machines, o->nmachines, r->machine_key))
			continue;
		for (j = 0; j < nsk && !found; j++)
			if (strcmp(sk[j].bench, r->benchmark) == 0 && strcmp(sk[j].config, r->config) == 0 &&
			    an_machine_cmp(sk[j].machine, r->machine_key) == 0)
				found = 1;
		if (!found) {
			sk = xrealloc(sk, (nsk + 1) * sizeof(*sk));
			sk[nsk].bench = r->benchmark;
			sk[nsk].config = r->config;
			sk[nsk].machine = r->machine_key;
			nsk++;
		}
	}
	for (i = 0; i < q.nsummaries; i++) {
		const struct db_qsummary *m = &q.summaries[i];
		int found = 0;

		if (strcmp(m->metric, o->metric) != 0 || isnan(m->mean) ||
		    !REC_CONFIG_MATCH(m->config, o->config, o->nconfig) ||
		    (o->bench && strcmp(o->bench, m->benchmark) != 0) ||
		    !an_machine_selected(o->machines, o->nmachines, m->machine_key))
			continue;
		for (j = 0; j < nsk && !found; j++)
			if (strcmp(sk[j].bench, m->benchmark) == 0 && strcmp(sk[j].config, m->config) == 0 &&
			    an_machine_cmp(sk[j].machine, m->machine_key) == 0)
				found = 1;
		if (!found) {
			sk = xrealloc(sk, (nsk + 1) * sizeof(*sk));
			sk[nsk].bench = m->benchmark;
			sk[nsk].config = m->config;
			sk[nsk].machine = m->machine_key;
			nsk++;
		}
	}

	h->series = xcalloc(nsk + 1, sizeof(*h->series));
	h->nseries = nsk;
	for (s = 0; s < nsk; s++) {
		struct an_hseries *se = &h->series[s];
		struct an_hpoint *pts = xcalloc(q.nvariants + 1, sizeof(*pts));	/* by rank */
		long long *last_run = xcalloc(q.nvariants + 1, sizeof(long long));
		const char *unit = NULL;
		size_t np = 0;

		se->benchmark = xstrdup(sk[s].bench);
		se->config = xstrdup(sk[s].config);
		se->machine = sk[s].machine ? xstrdup(sk[s].machine) : NULL;
		se->metric = xstrdup(o->metric);
		se->dir = direction(&q, sk[s].bench, o->metric, o);
		/* Per-job values are summed per run (samples come by run) and
		 * enter as the run's mean: jobs are not replicates. */
		double jsum = 0;
		size_t jn = 0, jrk = 0;

		for (i = 0; i <= q.nsamples; i++) {
			const struct db_qsample *x = i < q.nsamples ? &q.samples[i] : NULL;
			const struct db_qrun *r = x ? &q.runs[x->run] : NULL;
			size_t vi, rk;

			if (jn && (!x || x->job < 0 || q.runs[q.samples[i - 1].run].id != r->id)) {
				point_add(&pts[jrk], jsum / (double)jn);
				jsum = 0;
				jn = 0;
			}
			if (!x)
				break;
			if (!r->ok || strcmp(x->metric, o->metric) != 0 ||
			    strcmp(r->benchmark, sk[s].bench) != 0 || strcmp(r->config, sk[s].config) != 0 ||
			    an_machine_cmp(r->machine_key, sk[s].machine) != 0)
				continue;
			for (vi = 0; vi < q.nvariants && q.variants[vi].id != r->variant_id; vi++)
				;
			if (vi == q.nvariants)
				continue;
			rk = rank[vi];
			if (x->job >= 0) {
				jsum += x->value;
				jn++;
				jrk = rk;
			} else {
				point_add(&pts[rk], x->value);
			}
			if (last_run[rk] != r->id) {
				pts[rk].nruns++;
				last_run[rk] = r->id;
			}
			if (!unit && x->unit && *x->unit)
				unit = x->unit;
		}
		/* A variant with only a published summary contributes its mean
		 * (the last imported summary, as compare does). */
		for (i = 0; i < q.nvariants; i++) {
			const struct db_qsummary *last = NULL;
			size_t vi = keys[i].vi;

			if (pts[i].n)
				continue;
			for (j = 0; j < q.nsummaries; j++) {
				const struct db_qsummary *m = &q.summaries[j];
				if (m->variant_id == q.variants[vi].id && strcmp(m->metric, o->metric) == 0 &&
				    strcmp(m->benchmark, sk[s].bench) == 0 &&
				    an_machine_cmp(m->machine_key, sk[s].machine) == 0 &&
				    strcmp(m->config, sk[s].config) == 0 && !isnan(m->mean))
					last = m;
			}
			if (last) {
				point_add(&pts[i], last->mean);
				if (!unit && last->unit && *last->unit)
					unit = last->unit;
			}
		}
		se->unit = xstrdup(unit ? unit : "");
		se->points = xcalloc(q.nvariants + 1, sizeof(*se->points));
		for (i = 0; i < q.nvariants; i++) {
			if (!pts[i].n)
				continue;
			se->points[np] = pts[i];
			se->points[np].variant = xstrdup(q.variants[keys[i].vi].name);
			se->points[np].version = xstrdup(keys[i].has_version ? keys[i].version : "");
			se->points[np].mean = 0;
			for (j = 0; j < pts[i].n; j++)
				se->points[np].mean += pts[i].values[j];
			se->points[np].mean /= (double)pts[i].n;
			se->points[np].median = an_median(pts[i].values, pts[i].n);
			np++;
		}
		se->npoints = np;
		free(pts);
		free(last_run);
		an_history_changes(se, o);
	}
	free(sk);
	free(keys);
	free(rank);
	db_qdata_release(&q);
	return 0;
}

void an_history_release(struct an_history *h)
{
	size_t s, i;

	for (s = 0; s < h->nseries; s++) {
		struct an_hseries *se = &h->series[s];
		for (i = 0; i < se->npoints; i++) {
			free(se->points[i].variant);
			free(se->points[i].version);
			free(se->points[i].values);
		}
		free(se->points);
		free(se->changes);
		free(se->benchmark);
		free(se->config);
		free(se->machine);
		free(se->metric);
		free(se->unit);
	}
	free(h->series);
	memset(h, 0, sizeof(*h));
}
