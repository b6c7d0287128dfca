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

void an_history_opts_from_query(struct an_history_opts *o, const struct an_query *q,
				const char *metric)
{
	an_history_opts_init(o);
	o->metric = metric;
	o->bench = q->bench;
	o->config = q->config;
	o->nconfig = q->nconfig;
	o->machines = q->machines;
	o->nmachines = q->nmachines;
	o->better = q->better;
	o->nbetter = q->nbetter;
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

/* Merges sorted a[0..na) and b[0..nb) into out, a's first among equal
 * values (stable). */
static void merge_doubles(const double *a, size_t na, const double *b, size_t nb, double *out)
{
	size_t i = 0, j = 0, o = 0;

	while (i < na && j < nb)
		out[o++] = b[j] < a[i] ? b[j++] : a[i++];
	while (i < na)
		out[o++] = a[i++];
	while (j < nb)
		out[o++] = b[j++];
}

/* Sorts x[0..n) ascending, stably (what qsort() gives here: equal values,
 * 0 and -0, keep their order), with tmp[0..n) as scratch: insertion
 * sort for short runs, merged bottom-up. */
static void sort_doubles(double *x, size_t n, double *tmp)
{
	enum { RUN = 16 };
	double *src = x, *dst = tmp, *sw;
	size_t i, j, w;

	for (i = 0; i < n; i += RUN) {
		size_t end = i + RUN < n ? i + RUN : n;

		for (j = i + 1; j < end; j++) {
			double v = x[j];
			size_t k = j;

			while (k > i && x[k - 1] > v) {
				x[k] = x[k - 1];
				k--;
			}
			x[k] = v;
		}
	}
	for (w = RUN; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t mid = i + w < n ? i + w : n, end = i + 2 * w < n ? i + 2 * w : n;

			merge_doubles(src + i, mid - i, src + mid, end - mid, dst + i);
		}
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != x)
		memcpy(x, src, n * sizeof(*x));
}

/* sum over pairs i < j of |x_i - x_j|; x sorted. */
static double within_sorted(const double *x, size_t n)
{
	double s = 0;
	size_t i;

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

static void side_describe(double *x, size_t n, int sorted, struct side_stats *st)
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
	/* sorted (stably, no NaN): an_median()'s own sort would keep it */
	st->median = !sorted ? an_median(x, n) : !n ? NAN : n % 2 ? x[n / 2]
		   : (x[n / 2 - 1] + x[n / 2]) / 2;
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
		side_describe(left, nl, 0, &e->l);
		side_describe(right, nr, 0, &e->r);
		return;
	}
	/* each side sorted (buf + nu the scratch), then merged after both
	 * (left's first among equal values, as a stable sort of the union
	 * would have them) */
	sort_doubles(left, nl, buf + nu);
	sort_doubles(right, nr, buf + nu);
	merge_doubles(left, nl, right, nr, buf + nu);
	wu = within_sorted(buf + nu, nu);
	wl = within_sorted(left, nl);
	wr = within_sorted(right, nr);
	cross = wu - wl - wr;
	m = (double)nl;
	n = (double)nr;
	e->energy = (m * n / (m + n)) *
		    (2.0 * cross / (m * n) - wl / (m * (m - 1) / 2) - wr / (n * (n - 1) / 2));
	side_describe(left, nl, 1, &e->l);
	side_describe(right, nr, 1, &e->r);
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
	const long *commit;	/* by variant index: position in o->commits, -1 none */
};

static int cmp_vkey(const void *a, const void *b, void *ctx)
{
	const struct sort_ctx *sc = ctx;
	const struct vkey *x = a, *y = b;
	const struct db_qvariant *vx = &sc->q->variants[x->vi], *vy = &sc->q->variants[y->vi];
	int c;

	if (sc->commit) {
		long a = sc->commit[x->vi], b = sc->commit[y->vi];
		if (a != b)
			return a < 0 ? 1 : b < 0 ? -1 : a < b ? -1 : 1;
	} else switch (sc->order) {
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

struct chash {
	const char *hash;
	size_t pos;
};

static int cmp_chash(const void *a, const void *b)
{
	return strcmp(((const struct chash *)a)->hash, ((const struct chash *)b)->hash);
}

/* Each variant's position in commits[0..n) (full hashes), -1 when its
 * name stands for none: through the hashes sorted, a variant's hash part
 * is looked up as a prefix (the first of several, the earliest commit). */
static long *commit_positions(const struct db_qdata *q, const char *const *commits, size_t n)
{
	struct chash *ix = xmalloc((n + 1) * sizeof(*ix));
	long *out = xmalloc((q->nvariants + 1) * sizeof(*out));
	size_t i;

	for (i = 0; i < n; i++)
		ix[i] = (struct chash){ commits[i], i };
	qsort(ix, n, sizeof(*ix), cmp_chash);
	for (i = 0; i < q->nvariants; i++) {
		const char *v = q->variants[i].name, *h;
		size_t len = an_commit_hash(v, &h), lo = 0, hi = n, k;

		out[i] = -1;
		if (!len)
			h = v, len = strlen(v);
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (strncmp(ix[mid].hash, h, len) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (k = lo; k < n && strncmp(ix[k].hash, h, len) == 0; k++)
			if (an_commit_match(v, ix[k].hash) &&
			    (out[i] < 0 || (long)ix[k].pos < out[i]))
				out[i] = (long)ix[k].pos;
	}
	free(ix);
	return out;
}

/* Series keys (benchmark, config, machine) in order of first appearance,
 * found through an open-addressing hash: a store holds thousands of
 * series, and every sample and summary asks for its own. */
struct skey {
	const char *bench, *config, *machine;
};

struct series_set {
	struct skey *keys;
	size_t n, cap;
	size_t *slot;		/* key index + 1, 0 = empty */
	size_t nslot;		/* power of two */
};

/* A run or summary with this config and machine passes o's --config and
 * --machine, by the selection's one rule (query.h). */
static int history_selected(const struct an_history_opts *o, const char *config,
			    const char *machine_key)
{
	return an_config_match(o->config, o->nconfig, config) &&
	       an_machine_selected(o->machines, o->nmachines, machine_key);
}

static size_t skey_hash(const char *bench, const char *config, const char *machine)
{
	return str_hash_add(str_hash_add(str_hash_add(STR_HASH_INIT, bench), config), machine);
}

/* Index of the key; adds it when absent and add is set, else -1. */
static long series_find(struct series_set *ss, const char *bench, const char *config,
			const char *machine, int add)
{
	size_t h, k;

	if (2 * (ss->n + 1) > ss->nslot) {
		size_t nn = ss->nslot ? 2 * ss->nslot : 64, *ns = xcalloc(nn, sizeof(*ns));
		for (k = 0; k < ss->nslot; k++) {
			const struct skey *x;
			if (!ss->slot[k])
				continue;
			x = &ss->keys[ss->slot[k] - 1];
			h = skey_hash(x->bench, x->config, x->machine) & (nn - 1);
			while (ns[h])
				h = (h + 1) & (nn - 1);
			ns[h] = ss->slot[k];
		}
		free(ss->slot);
		ss->slot = ns;
		ss->nslot = nn;
	}
	for (h = skey_hash(bench, config, machine) & (ss->nslot - 1); ss->slot[h];
	     h = (h + 1) & (ss->nslot - 1)) {
		const struct skey *x = &ss->keys[ss->slot[h] - 1];
		if (strcmp(x->bench, bench) == 0 && strcmp(x->config, config) == 0 &&
		    an_machine_cmp(x->machine, machine) == 0)
			return (long)(ss->slot[h] - 1);
	}
	if (!add)
		return -1;
	xgrow(&ss->keys, &ss->cap, ss->n + 1, sizeof(*ss->keys));
	ss->keys[ss->n] = (struct skey){ bench, config, machine };
	ss->slot[h] = ++ss->n;
	return (long)(ss->n - 1);
}

static void point_add(struct an_hpoint *p, double v)
{
	p->values = xrealloc(p->values, (p->n + 1) * sizeof(double));
	p->values[p->n++] = v;
}

/* Index of variant id in q->variants (loaded in id order), or -1. */
static long variant_index(const struct db_qdata *q, long long id)
{
	size_t lo = 0, hi = q->nvariants;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (q->variants[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < q->nvariants && q->variants[lo].id == id)
		return (long)lo;
	/* Not in id order after all: look everywhere. */
	for (lo = 0; lo < q->nvariants; lo++)
		if (q->variants[lo].id == id)
			return (long)lo;
	return -1;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Items (samples or summaries) grouped by series, each group in the
 * order of the items: start[s] .. start[s + 1] index idx. */
struct groups {
	size_t *start, *idx;
};

static void groups_build(struct groups *g, const long *series, size_t n, size_t nseries)
{
	size_t i, *fill;

	g->start = xcalloc(nseries + 2, sizeof(*g->start));
	g->idx = xcalloc(n + 1, sizeof(*g->idx));
	for (i = 0; i < n; i++)
		if (series[i] >= 0)
			g->start[series[i] + 1]++;
	for (i = 0; i < nseries; i++)
		g->start[i + 1] += g->start[i];
	fill = xcalloc(nseries + 1, sizeof(*fill));
	for (i = 0; i < n; i++)
		if (series[i] >= 0)
			g->idx[g->start[series[i]] + fill[series[i]]++] = i;
	free(fill);
}

static void groups_release(struct groups *g)
{
	free(g->start);
	free(g->idx);
}

int an_history_build(struct db *db, const struct an_history_opts *o,
		     struct an_history *h, struct kb_err *err)
{
	struct db_qdata q;
	struct vkey *keys = NULL;
	size_t *rank = NULL;	/* variant index -> history position */
	struct series_set ss;
	struct sort_ctx sctx;
	struct groups gs, gm;
	long *run_series = NULL, *smp_series = NULL, *sum_series = NULL, *smp_rank = NULL;
	size_t *seg = NULL, *touched = NULL, *sum_last = NULL;
	struct an_hpoint *pts = NULL;	/* by rank, reset after each series */
	long long *last_run = NULL;
	long *commit_pos = NULL;
	size_t i, j, s;

	memset(h, 0, sizeof(*h));
	memset(&ss, 0, sizeof(ss));
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
		if (o->data)
			q = *o->data;	/* borrowed: not released below */
		else if ((o->nvariant_ids ? an_query_load_ids(db, &sel, o->variant_ids,
							       o->nvariant_ids, &q, err)
					  : an_query_load(db, &sel, &q, err)) < 0)
			return -1;
	}
	h->opts = *o;
	h->opts.metric = h->opts.bench = NULL;
	h->opts.config = NULL;
	h->opts.better = NULL;
	h->opts.machines = NULL;
	h->opts.nmachines = 0;
	h->opts.variant_ids = NULL;
	h->opts.nvariant_ids = 0;
	h->opts.data = NULL;
	h->opts.commits = NULL;
	h->opts.ncommits = 0;

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
	sctx.commit = NULL;
	if (o->ncommits) {
		commit_pos = commit_positions(&q, o->commits, o->ncommits);
		sctx.commit = commit_pos;
	}
	qsort_r(keys, q.nvariants, sizeof(*keys), cmp_vkey, &sctx);
	for (i = 0; i < q.nvariants; i++)
		rank[keys[i].vi] = i;

	/* Series: distinct (benchmark, config, machine) of ok runs holding the
	 * metric, in the order the samples, then the summaries, show them.  A
	 * run's series is decided once (-2: not yet). */
	run_series = xmalloc((q.nruns + 1) * sizeof(*run_series));
	for (i = 0; i < q.nruns; i++)
		run_series[i] = -2;
	smp_series = xmalloc((q.nsamples + 1) * sizeof(*smp_series));
	smp_rank = xmalloc((q.nsamples + 1) * sizeof(*smp_rank));
	for (i = 0; i < q.nsamples; i++) {
		const struct db_qrun *r = &q.runs[q.samples[i].run];
		long *rs = &run_series[q.samples[i].run];

		smp_series[i] = -1;
		if (!r->ok || strcmp(q.samples[i].metric, o->metric) != 0)
			continue;
		if (*rs == -2) {
			*rs = -1;
			if (history_selected(o, r->config, r->machine_key))
				*rs = series_find(&ss, r->benchmark, r->config, r->machine_key, 1);
		}
		smp_series[i] = *rs;
	}
	for (i = 0; i < q.nsummaries; i++) {
		const struct db_qsummary *m = &q.summaries[i];

		if (strcmp(m->metric, o->metric) != 0 || isnan(m->mean) ||
		    (o->bench && strcmp(o->bench, m->benchmark) != 0) ||
		    !history_selected(o, m->config, m->machine_key))
			continue;
		series_find(&ss, m->benchmark, m->config, m->machine_key, 1);
	}
	/* A summary joins the series of its own key (whatever made it). */
	sum_series = xmalloc((q.nsummaries + 1) * sizeof(*sum_series));
	for (i = 0; i < q.nsummaries; i++) {
		const struct db_qsummary *m = &q.summaries[i];
		long vi;

		sum_series[i] = -1;
		if (strcmp(m->metric, o->metric) != 0 || isnan(m->mean) ||
		    (vi = variant_index(&q, m->variant_id)) < 0 || (commit_pos && commit_pos[vi] < 0))
			continue;
		sum_series[i] = series_find(&ss, m->benchmark, m->config, m->machine_key, 0);
	}
	/* A sample's variant, by history rank; a variant not loaded drops it. */
	for (i = 0; i < q.nsamples; i++) {
		long vi;

		if (smp_series[i] < 0)
			continue;
		vi = variant_index(&q, q.runs[q.samples[i].run].variant_id);
		if (vi < 0 || (commit_pos && commit_pos[vi] < 0))
			smp_series[i] = -1;
		else
			smp_rank[i] = (long)rank[vi];
	}
	/* Per-job values are summed per run and enter as the run's mean (jobs
	 * are not replicates).  A run's job values end at the next run-level
	 * sample or the next run, whatever its series: seg counts those ends,
	 * so two job samples belong to one mean when no end lies between. */
	seg = xcalloc(q.nsamples + 1, sizeof(*seg));
	for (i = 1; i < q.nsamples; i++)
		seg[i] = seg[i - 1] + (q.samples[i].job < 0 || q.samples[i - 1].run != q.samples[i].run);
	groups_build(&gs, smp_series, q.nsamples, ss.n);
	groups_build(&gm, sum_series, q.nsummaries, ss.n);

	pts = xcalloc(q.nvariants + 1, sizeof(*pts));
	last_run = xcalloc(q.nvariants + 1, sizeof(*last_run));
	sum_last = xmalloc((q.nvariants + 1) * sizeof(*sum_last));
	for (i = 0; i < q.nvariants; i++)
		sum_last[i] = (size_t)-1;
	touched = xmalloc((q.nvariants + 1) * sizeof(*touched));

	h->series = xcalloc(ss.n + 1, sizeof(*h->series));
	h->nseries = ss.n;
	for (s = 0; s < ss.n; s++) {
		struct an_hseries *se = &h->series[s];
		const struct skey *sk = &ss.keys[s];
		const char *unit = NULL;
		size_t np = 0, nt = 0, jn = 0, jrk = 0, jlast = 0;
		double jsum = 0;

		se->benchmark = xstrdup(sk->bench);
		se->config = xstrdup(sk->config);
		se->machine = sk->machine ? xstrdup(sk->machine) : NULL;
		se->metric = xstrdup(o->metric);
		se->dir = direction(&q, sk->bench, o->metric, o);
		for (j = gs.start[s]; j < gs.start[s + 1]; j++) {
			size_t i = gs.idx[j], rk = (size_t)smp_rank[i];
			const struct db_qsample *x = &q.samples[i];
			const struct db_qrun *r = &q.runs[x->run];

			if (jn && seg[i] != seg[jlast]) {
				point_add(&pts[jrk], jsum / (double)jn);
				jsum = 0;
				jn = 0;
			}
			if (!pts[rk].n && !last_run[rk] && !pts[rk].nruns)
				touched[nt++] = rk;
			if (x->job >= 0) {
				jsum += x->value;
				jn++;
				jrk = rk;
				jlast = i;
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
		if (jn)
			point_add(&pts[jrk], jsum / (double)jn);
		/* A variant with only a published summary contributes its mean
		 * (the last imported summary, as compare does). */
		for (j = gm.start[s]; j < gm.start[s + 1]; j++) {
			size_t i = gm.idx[j];
			size_t rk = rank[variant_index(&q, q.summaries[i].variant_id)];

			if (pts[rk].n)
				continue;
			if (sum_last[rk] == (size_t)-1 && !pts[rk].nruns && !last_run[rk])
				touched[nt++] = rk;
			sum_last[rk] = i;
		}
		qsort(touched, nt, sizeof(*touched), cmp_size);
		for (j = 0; j < nt; j++) {
			size_t rk = touched[j];
			if (!pts[rk].n && sum_last[rk] != (size_t)-1) {
				const struct db_qsummary *last = &q.summaries[sum_last[rk]];
				point_add(&pts[rk], last->mean);
				if (!unit && last->unit && *last->unit)
					unit = last->unit;
			}
		}
		se->unit = xstrdup(unit ? unit : "");
		se->points = xcalloc(nt + 1, sizeof(*se->points));
		for (j = 0; j < nt; j++) {
			size_t rk = touched[j], k;

			if (pts[rk].n) {
				se->points[np] = pts[rk];
				se->points[np].variant = xstrdup(q.variants[keys[rk].vi].name);
				se->points[np].variant_id = q.variants[keys[rk].vi].id;
				se->points[np].rank = rk;
				se->points[np].version = xstrdup(keys[rk].has_version ? keys[rk].version : "");
				se->points[np].mean = 0;
				for (k = 0; k < pts[rk].n; k++)
					se->points[np].mean += pts[rk].values[k];
				se->points[np].mean /= (double)pts[rk].n;
				/* throughput: the harmonic mean, as compare's cells
				 * (an_describe_dir()); a value <= 0 keeps the
				 * arithmetic one.  Published means stay as published. */
				if (se->dir == AN_DIR_HIGHER && se->points[np].nruns) {
					double hm = an_hmean(pts[rk].values, pts[rk].n);

					if (!isnan(hm)) {
						se->points[np].mean = hm;
						se->points[np].harmonic = 1;
					}
				}
				se->points[np].median = an_median(pts[rk].values, pts[rk].n);
				np++;
			}
			memset(&pts[rk], 0, sizeof(pts[rk]));
			last_run[rk] = 0;
			sum_last[rk] = (size_t)-1;
		}
		se->npoints = np;
		an_history_changes(se, o);
	}
	groups_release(&gs);
	groups_release(&gm);
	free(pts);
	free(last_run);
	free(sum_last);
	free(touched);
	free(seg);
	free(run_series);
	free(smp_series);
	free(smp_rank);
	free(sum_series);
	free(ss.keys);
	free(ss.slot);
	free(keys);
	free(rank);
	free(commit_pos);
	if (!o->data)
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
