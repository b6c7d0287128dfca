/*
 * alerts.c - change points of every series, grouped by commit range,
 * matched with the stored alerts (see alerts.h).
 */
#include "alerts.h"
#include "qload.h"

#include "../core/util.h"
#include "../db/alert.h"
#include "../db/query.h"

#define MATHLIB_STANDALONE
#include <Rmath.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const state_names[] = { "new", "acknowledged", "invalid", "fixed" };

const char *an_alert_state_name(enum an_alert_state s)
{
	return (unsigned)s < 4 ? state_names[s] : "?";
}

int an_alert_state_parse(const char *s, enum an_alert_state *out)
{
	int i;

	for (i = 0; i < 4; i++)
		if (strcmp(s, state_names[i]) == 0) {
			*out = (enum an_alert_state)i;
			return 0;
		}
	return -1;
}

void an_alerts_opts_init(struct an_alerts_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pvalue = 0.001;
	o->alpha = 0.05;
	o->window = 50;
	o->near = 3;
	o->min_points = 3;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The distinct metric names of the loaded samples and summaries, sorted
 * (borrowed from d). */
static const char **metric_names(const struct db_qdata *d, size_t *n)
{
	const char **v = xmalloc((d->nsamples + d->nsummaries + 1) * sizeof(*v));
	size_t i, k = 0, u = 0;
	const char *last = NULL;

	/* samples name their metric through one interned copy: a pointer
	 * seen just before is the same text */
	for (i = 0; i < d->nsamples; i++)
		if (d->samples[i].metric != last)
			v[k++] = last = d->samples[i].metric;
	for (i = 0; i < d->nsummaries; i++)
		v[k++] = d->summaries[i].metric;
	qsort(v, k, sizeof(*v), cmp_str);
	for (i = 0; i < k; i++)
		if (!u || strcmp(v[u - 1], v[i]) != 0)
			v[u++] = v[i];
	*n = u;
	return v;
}

/* Welch's 95% interval of the change of means across point k of s, on
 * the points back to the change point before (or w points) and on to the
 * one after (or w points), as a percent of the mean before. */
static void change_interval(const struct an_hseries *s, size_t c, size_t w, double *lo,
			    double *hi)
{
	size_t k = s->changes[c].index;
	size_t a = c ? s->changes[c - 1].index : 0, b = c + 1 < s->nchanges ? s->changes[c + 1].index
									 : s->npoints;
	size_t i, j, n[2] = { 0, 0 };
	double sum[2] = { 0, 0 }, ss[2] = { 0, 0 }, m[2], v[2], se, df, t, d;

	*lo = *hi = NAN;
	if (k - a > w)
		a = k - w;
	if (b - k > w)
		b = k + w;
	for (i = a; i < b; i++) {
		int side = i >= k;
		for (j = 0; j < s->points[i].n; j++) {
			double x = s->points[i].values[j];
			if (isnan(x))
				continue;
			n[side]++;
			sum[side] += x;
		}
	}
	if (n[0] < 2 || n[1] < 2)
		return;
	m[0] = sum[0] / (double)n[0];
	m[1] = sum[1] / (double)n[1];
	for (i = a; i < b; i++) {
		int side = i >= k;
		for (j = 0; j < s->points[i].n; j++) {
			double x = s->points[i].values[j];
			if (!isnan(x))
				ss[side] += (x - m[side]) * (x - m[side]);
		}
	}
	if (!(fabs(m[0]) > 0))
		return;
	v[0] = ss[0] / (double)(n[0] - 1) / (double)n[0];
	v[1] = ss[1] / (double)(n[1] - 1) / (double)n[1];
	se = sqrt(v[0] + v[1]);
	d = m[1] - m[0];
	if (!(se > 0)) {
		*lo = *hi = d / fabs(m[0]) * 100.0;
		return;
	}
	df = (v[0] + v[1]) * (v[0] + v[1]) /
	     (v[0] * v[0] / (double)(n[0] - 1) + v[1] * v[1] / (double)(n[1] - 1));
	t = qt(0.975, df, 1, 0);
	*lo = (d - t * se) / fabs(m[0]) * 100.0;
	*hi = (d + t * se) / fabs(m[0]) * 100.0;
}

/* A name's position in the order, through a sorted index. */
struct name_pos {
	const char *name;
	size_t pos;
};

static int cmp_name_pos(const void *a, const void *b)
{
	return strcmp(((const struct name_pos *)a)->name, ((const struct name_pos *)b)->name);
}

static long find_pos(const struct name_pos *ix, size_t n, const char *name)
{
	struct name_pos key = { name, 0 };
	const struct name_pos *f = bsearch(&key, ix, n, sizeof(*ix), cmp_name_pos);
	return f ? (long)f->pos : -1;
}

static const char *machine_of(const struct an_hseries *s)
{
	return s->machine ? s->machine : "";
}

static int same_series(const struct an_hseries *s, const struct db_alert *d)
{
	return strcmp(machine_of(s), d->machine) == 0 && strcmp(s->benchmark, d->benchmark) == 0 &&
	       strcmp(s->config, d->config) == 0 && strcmp(s->metric, d->metric) == 0;
}

static int cmp_alert_range(const void *x, const void *y, void *ctx)
{
	const struct an_alert *all = ctx;
	const struct an_alert *a = &all[*(const size_t *)x], *b = &all[*(const size_t *)y];

	if (a->good_rank != b->good_rank)
		return a->good_rank < b->good_rank ? -1 : 1;
	if (a->bad_rank != b->bad_rank)
		return a->bad_rank < b->bad_rank ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

static int cmp_alert_size(const void *x, const void *y, void *ctx)
{
	const struct an_alert *all = ctx;
	const struct an_alert *a = &all[*(const size_t *)x], *b = &all[*(const size_t *)y];
	double da = fabs(a->change_pct), db = fabs(b->change_pct);

	if (da != db)
		return da > db ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/* name into the sorted set v[0..*n) unless there. */
static void set_add(char ***v, size_t *n, const char *name)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], name) == 0)
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(name);
}

static int set_has(char *const *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], name) == 0)
			return 1;
	return 0;
}

/* The machines where a series of the same benchmark, config and metric as
 * one of the summary's alerts spans its range and did not move. */
static void summary_quiet(struct an_alerts *a, struct an_alert_summary *sm, const size_t *pos)
{
	size_t h, s, k, i;

	for (h = 0; h < a->nhist; h++)
		for (s = 0; s < a->hist[h].nseries; s++) {
			const struct an_hseries *se = &a->hist[h].series[s];
			int kin = 0, before = 0, after = 0;

			if (set_has(sm->machines, sm->nmachines, machine_of(se)) ||
			    set_has(sm->quiet, sm->nquiet, machine_of(se)))
				continue;
			for (k = 0; k < sm->nalerts && !kin; k++) {
				const struct an_hseries *x = a->alerts[sm->alerts[k]].series;
				kin = strcmp(x->benchmark, se->benchmark) == 0 &&
				      strcmp(x->config, se->config) == 0 && strcmp(x->metric, se->metric) == 0;
			}
			if (!kin)
				continue;
			for (i = 0; i < se->npoints; i++) {
				size_t p = pos[se->points[i].rank];
				before |= p <= sm->good_rank;
				after |= p >= sm->bad_rank;
			}
			if (before && after)
				set_add(&sm->quiet, &sm->nquiet, machine_of(se));
		}
	if (sm->nquiet > 1)
		qsort(sm->quiet, sm->nquiet, sizeof(*sm->quiet), cmp_str);
}

/* Which stored alert each alert is, and so which stored summary. */
static void match_stored(struct an_alerts *a, const struct db_alerts *st, long long *summary_of)
{
	struct name_pos *ix = xcalloc(a->norder + 1, sizeof(*ix));
	long *spos = xcalloc(st->nalerts + 1, sizeof(*spos));
	char *taken = xcalloc(st->nalerts + 1, 1);
	size_t i, j;

	for (i = 0; i < a->norder; i++)
		ix[i] = (struct name_pos){ a->order[i], i };
	qsort(ix, a->norder, sizeof(*ix), cmp_name_pos);
	for (j = 0; j < st->nalerts; j++)
		spos[j] = find_pos(ix, a->norder, st->alerts[j].bad);
	for (i = 0; i < a->nalerts; i++) {
		struct an_alert *al = &a->alerts[i];
		size_t best = (size_t)-1, bestd = (size_t)-1;

		summary_of[i] = 0;
		for (j = 0; j < st->nalerts; j++) {
			size_t d;

			if (taken[j] || !same_series(al->series, &st->alerts[j]))
				continue;
			if (strcmp(st->alerts[j].bad, al->bad) == 0)
				d = 0;
			else if (spos[j] < 0)
				continue;
			else
				d = (size_t)spos[j] > al->bad_rank ? (size_t)spos[j] - al->bad_rank
								   : al->bad_rank - (size_t)spos[j];
			if (d <= a->opts.near && d < bestd) {
				best = j;
				bestd = d;
			}
		}
		if (best != (size_t)-1) {
			taken[best] = 1;
			al->id = st->alerts[best].id;
			summary_of[i] = st->alerts[best].summary_id;
		}
	}
	free(ix);
	free(spos);
	free(taken);
}

/* Has change c of s min points (commits) on each side, back to the
 * change before and on to the one after?  A level seen on one or two
 * commits is not yet a level: the first commits of a series, or a
 * commit that ran once on a noisy day. */
static int enough_points(const struct an_hseries *s, size_t c, size_t min)
{
	size_t k = s->changes[c].index;
	size_t a = c ? s->changes[c - 1].index : 0, b = c + 1 < s->nchanges ? s->changes[c + 1].index
									 : s->npoints;
	return k - a >= min && b - k >= min;
}

/* Candidate change points, before the q cut. */
struct cand {
	const struct an_hseries *s;
	size_t change;
	double p;
};

static void collect(struct an_alerts *a, struct cand **cv, size_t *nc)
{
	size_t h, s, c, cap = 0;

	*cv = NULL;
	*nc = 0;
	for (h = 0; h < a->nhist; h++)
		for (s = 0; s < a->hist[h].nseries; s++) {
			const struct an_hseries *se = &a->hist[h].series[s];

			if (se->npoints < 2)
				continue;
			a->nseries++;
			/* history tests the whole series once, and both
			 * sides of every split it accepts again */
			a->ntests += 1 + 2 * se->nchanges;
			for (c = 0; c < se->nchanges; c++) {
				/* the split is the best of npoints - 1: its p
				 * counts for all of them (Bonferroni), since
				 * the best of many splits of noise has a small
				 * Welch p by its choosing alone */
				double p = se->changes[c].p * (double)(se->npoints - 1);

				xgrow(cv, &cap, *nc + 1, sizeof(**cv));
				(*cv)[(*nc)++] = (struct cand){ se, c, p < 1 ? p : 1 };
			}
		}
}

/* The one commit order of every series: a->order by position, and
 * pos[rank] for history's ranks. */
static size_t *build_order(struct an_alerts *a)
{
	size_t h, s, i, maxr = 0, n = 0, *pos;
	const char **byrank;

	for (h = 0; h < a->nhist; h++)
		for (s = 0; s < a->hist[h].nseries; s++)
			for (i = 0; i < a->hist[h].series[s].npoints; i++)
				if (a->hist[h].series[s].points[i].rank + 1 > maxr)
					maxr = a->hist[h].series[s].points[i].rank + 1;
	byrank = xcalloc(maxr + 1, sizeof(*byrank));
	pos = xcalloc(maxr + 1, sizeof(*pos));
	for (h = 0; h < a->nhist; h++)
		for (s = 0; s < a->hist[h].nseries; s++)
			for (i = 0; i < a->hist[h].series[s].npoints; i++) {
				const struct an_hpoint *p = &a->hist[h].series[s].points[i];
				byrank[p->rank] = p->variant;
			}
	a->order = xcalloc(maxr + 1, sizeof(*a->order));
	for (i = 0; i < maxr; i++)
		if (byrank[i]) {
			pos[i] = n;
			a->order[n++] = xstrdup(byrank[i]);
		}
	a->norder = n;
	free(byrank);
	return pos;
}

static void build_summaries(struct an_alerts *a, const size_t *pos)
{
	size_t *ix = xmalloc((a->nalerts + 1) * sizeof(*ix)), i, k, cap = 0;
	struct an_alert_summary *sm = NULL;

	for (i = 0; i < a->nalerts; i++)
		ix[i] = i;
	qsort_r(ix, a->nalerts, sizeof(*ix), cmp_alert_range, a->alerts);
	for (i = 0; i < a->nalerts; i++) {
		struct an_alert *al = &a->alerts[ix[i]];

		if (!a->nsummaries || al->good_rank > sm->bad_rank) {
			xgrow(&a->summaries, &cap, a->nsummaries + 1, sizeof(*a->summaries));
			sm = &a->summaries[a->nsummaries++];
			memset(sm, 0, sizeof(*sm));
			sm->good_rank = al->good_rank;
			sm->bad_rank = al->bad_rank;
		}
		sm->alerts = xrealloc(sm->alerts, (sm->nalerts + 1) * sizeof(*sm->alerts));
		sm->alerts[sm->nalerts++] = ix[i];
		if (al->bad_rank > sm->bad_rank)
			sm->bad_rank = al->bad_rank;
		al->summary = a->nsummaries - 1;
	}
	for (k = 0; k < a->nsummaries; k++) {
		sm = &a->summaries[k];
		sm->good = a->order[sm->good_rank];
		sm->bad = a->order[sm->bad_rank];
		qsort_r(sm->alerts, sm->nalerts, sizeof(*sm->alerts), cmp_alert_size, a->alerts);
		for (i = 0; i < sm->nalerts; i++) {
			const struct an_alert *al = &a->alerts[sm->alerts[i]];
			set_add(&sm->machines, &sm->nmachines, machine_of(al->series));
			sm->worse |= al->verdict == AN_VERDICT_WORSE;
		}
		if (sm->nmachines > 1)
			qsort(sm->machines, sm->nmachines, sizeof(*sm->machines), cmp_str);
		summary_quiet(a, sm, pos);
	}
	free(ix);
}

int an_alerts_build(struct db *db, const struct an_alerts_opts *o, struct an_alerts *a,
		    struct kb_err *err)
{
	struct an_query sel, dflt;
	struct db_qdata data;
	struct db_alerts stored;
	struct cand *cv = NULL;
	const char **metrics;
	size_t nmetrics, i, nc, cap = 0, *pos;
	double *p, *q;
	long long *summary_of;

	memset(a, 0, sizeof(*a));
	if (!(o->pvalue > 0 && o->pvalue <= 1) || !(o->alpha > 0 && o->alpha <= 1))
		return kb_err_set(err, "", 0, "the p-value and alpha must lie in (0, 1]");
	if (o->window < 1)
		return kb_err_set(err, "", 0, "the window must be at least one point");
	an_query_init(&dflt);
	an_query_init(&sel);
	if (o->q) {
		sel.bench = o->q->bench;
		sel.metrics = o->q->metrics;
		sel.nmetrics = o->q->nmetrics;
		sel.config = o->q->config;
		sel.nconfig = o->q->nconfig;
		sel.machines = o->q->machines;
		sel.nmachines = o->q->nmachines;
	}
	if (an_query_load(db, &sel, &data, err) < 0)
		return -1;
	metrics = metric_names(&data, &nmetrics);
	a->hist = xcalloc(nmetrics + 1, sizeof(*a->hist));
	for (i = 0; i < nmetrics; i++) {
		struct an_history_opts ho;

		an_history_opts_from_query(&ho, o->q ? o->q : &dflt, metrics[i]);
		ho.threshold = o->q ? o->q->threshold : dflt.threshold;
		ho.pvalue = o->pvalue;
		ho.window = o->window;
		ho.commits = o->order;
		ho.ncommits = o->norder;
		ho.data = &data;
		if (an_history_build(db, &ho, &a->hist[i], err) < 0) {
			free(metrics);
			db_qdata_release(&data);
			an_alerts_release(a);
			return -1;
		}
		a->nhist++;
	}
	free(metrics);
	db_qdata_release(&data);
	a->opts = *o;
	a->opts.q = NULL;
	a->opts.order = NULL;
	a->opts.norder = 0;

	pos = build_order(a);
	collect(a, &cv, &nc);
	/* BH over every split tested; the ones not accepted count with p = 1
	 * (their own p is above pvalue, or their change too small) */
	p = xmalloc((a->ntests + 1) * sizeof(*p));
	q = xmalloc((a->ntests + 1) * sizeof(*q));
	for (i = 0; i < a->ntests; i++)
		p[i] = i < nc ? cv[i].p : 1.0;
	an_bh(p, a->ntests, q);
	for (i = 0; i < nc; i++) {
		const struct an_hseries *s = cv[i].s;
		const struct an_hchange *c = &s->changes[cv[i].change];
		struct an_alert *al;

		if (!(q[i] < o->alpha) || c->index < 1 ||
		    !enough_points(s, cv[i].change, o->min_points))
			continue;
		xgrow(&a->alerts, &cap, a->nalerts + 1, sizeof(*a->alerts));
		al = &a->alerts[a->nalerts++];
		memset(al, 0, sizeof(*al));
		al->series = s;
		al->change = cv[i].change;
		al->good_rank = pos[s->points[c->index - 1].rank];
		al->bad_rank = pos[s->points[c->index].rank];
		al->good = a->order[al->good_rank];
		al->bad = a->order[al->bad_rank];
		al->before = c->before_median;
		al->after = c->after_median;
		al->change_pct = c->change_pct;
		al->p = c->p;
		al->q = q[i];
		al->verdict = c->verdict;
		change_interval(s, cv[i].change, o->window, &al->lo_pct, &al->hi_pct);
	}
	free(p);
	free(q);
	free(cv);
	build_summaries(a, pos);
	free(pos);

	if (db_alerts_load(db, &stored, err) < 0) {
		an_alerts_release(a);
		return -1;
	}
	summary_of = xcalloc(a->nalerts + 1, sizeof(*summary_of));
	match_stored(a, &stored, summary_of);
	for (i = 0; i < a->nsummaries; i++) {
		struct an_alert_summary *sm = &a->summaries[i];
		const struct db_alert_summary *ds;
		long long id = 0;
		size_t k;

		for (k = 0; k < sm->nalerts; k++) {
			long long sid = summary_of[sm->alerts[k]];
			if (sid > 0 && (!id || sid < id))
				id = sid;
		}
		sm->is_new = !id;
		sm->state = AN_ALERT_NEW;
		if (id && (ds = db_alerts_summary(&stored, id))) {
			sm->id = id;
			an_alert_state_parse(ds->state, &sm->state);
			sm->note = ds->note ? xstrdup(ds->note) : NULL;
			sm->fixed_by = ds->fixed_by ? xstrdup(ds->fixed_by) : NULL;
			sm->first_seen = xstrdup(ds->first_seen);
		}
	}
	free(summary_of);
	db_alerts_release(&stored);
	return 0;
}

int an_alerts_save(struct db *db, struct an_alerts *a, struct kb_err *err)
{
	struct db_alert_write w;
	size_t i, *sidx;
	int rc;

	memset(&w, 0, sizeof(w));
	w.ns = a->nsummaries;
	w.na = a->nalerts;
	w.s = xcalloc(w.ns + 1, sizeof(*w.s));
	w.a = xcalloc(w.na + 1, sizeof(*w.a));
	sidx = xcalloc(w.na + 1, sizeof(*sidx));
	for (i = 0; i < w.ns; i++) {
		w.s[i].id = a->summaries[i].id;
		w.s[i].good = (char *)a->summaries[i].good;
		w.s[i].bad = (char *)a->summaries[i].bad;
	}
	for (i = 0; i < w.na; i++) {
		const struct an_alert *al = &a->alerts[i];
		struct db_alert *d = &w.a[i];

		d->id = al->id;
		d->machine = (char *)machine_of(al->series);
		d->benchmark = al->series->benchmark;
		d->config = al->series->config;
		d->metric = al->series->metric;
		d->good = (char *)al->good;
		d->bad = (char *)al->bad;
		d->change_pct = al->change_pct;
		d->q = al->q;
		d->verdict = (char *)an_verdict_name(al->verdict);
		sidx[i] = al->summary;
	}
	w.summary = sidx;
	rc = db_alerts_save(db, &w, err);
	if (rc == 0) {
		for (i = 0; i < w.ns; i++)
			a->summaries[i].id = w.s[i].id;
		for (i = 0; i < w.na; i++)
			a->alerts[i].id = w.a[i].id;
	}
	free(w.s);
	free(w.a);
	free(sidx);
	return rc;
}

int an_alerts_stored(struct db *db, size_t *n, struct kb_err *err)
{
	struct db_alerts st;

	*n = 0;
	if (db_alerts_load(db, &st, err) < 0)
		return -1;
	*n = st.nsummaries;
	db_alerts_release(&st);
	return 0;
}

void an_alerts_release(struct an_alerts *a)
{
	size_t i, k;

	for (i = 0; i < a->nhist; i++)
		an_history_release(&a->hist[i]);
	free(a->hist);
	for (i = 0; i < a->norder; i++)
		free(a->order[i]);
	free(a->order);
	for (i = 0; i < a->nsummaries; i++) {
		struct an_alert_summary *sm = &a->summaries[i];
		for (k = 0; k < sm->nmachines; k++)
			free(sm->machines[k]);
		for (k = 0; k < sm->nquiet; k++)
			free(sm->quiet[k]);
		free(sm->machines);
		free(sm->quiet);
		free(sm->alerts);
		free(sm->note);
		free(sm->fixed_by);
		free(sm->first_seen);
	}
	free(a->summaries);
	free(a->alerts);
	memset(a, 0, sizeof(*a));
}
