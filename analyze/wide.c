/*
 * wide.c - a comparable set too wide for a table: history per metric and
 * one small comparison table per candidate (see wide.h).
 */
#include "wide.h"
#include "qload.h"
#include "../core/util.h"
#include "../db/query.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One comparison: candidate cand (index into ids), in series s of
 * history m, its point p. */
struct wrec {
	size_t cand, m, s, p;
};

static int cmp_wrec(const void *pa, const void *pb)
{
	const struct wrec *a = pa, *b = pb;

	if (a->cand != b->cand)
		return a->cand < b->cand ? -1 : 1;
	if (a->m != b->m)
		return a->m < b->m ? -1 : 1;
	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	return 0;
}

struct idpos {
	long long id;
	size_t pos;
};

static int cmp_idpos(const void *pa, const void *pb)
{
	const struct idpos *a = pa, *b = pb;

	return a->id < b->id ? -1 : a->id > b->id;
}

static long idpos_find(const struct idpos *v, size_t n, long long id)
{
	struct idpos key = { id, 0 };
	const struct idpos *hit = bsearch(&key, v, n, sizeof(*v), cmp_idpos);

	return hit ? (long)hit->pos : -1;
}

/* The set's stored metrics (of d, loaded for it), in the order its
 * samples, then summaries, first name them. */
static void set_metrics(const struct db_qdata *d, const struct an_query *q, char ***out,
			size_t *n)
{
	size_t i, k, cap = 0;
	char **v = NULL;

	*out = NULL;
	*n = 0;
	for (i = 0; i < d->nsamples + d->nsummaries; i++) {
		const char *m;
		int bench_ok;

		if (i < d->nsamples) {
			const struct db_qrun *r = &d->runs[d->samples[i].run];

			m = d->samples[i].metric;
			bench_ok = r->ok && (!q->bench || !strcmp(r->benchmark, q->bench));
		} else {
			const struct db_qsummary *s = &d->summaries[i - d->nsamples];

			m = s->metric;
			bench_ok = !q->bench || !strcmp(s->benchmark, q->bench);
		}
		if (!bench_ok || (*n && !strcmp(v[*n - 1], m)))
			continue;
		for (k = 0; k < *n && strcmp(v[k], m); k++)
			;
		if (k < *n)
			continue;
		xgrow(&v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = xstrdup(m);
	}
	*out = v;
}

static void fill_point(struct an_cell *c, const struct an_hpoint *p, int is_baseline,
		       enum an_direction dir)
{
	memset(c, 0, sizeof(*c));
	c->job_sd = NAN;
	c->is_baseline = is_baseline;
	if (p->nruns) {
		c->origin = AN_ORIGIN_SAMPLES;
		c->values = xmalloc((p->n ? p->n : 1) * sizeof(*c->values));
		memcpy(c->values, p->values, p->n * sizeof(*c->values));
		c->nvalues = p->n;
		c->nruns = p->nruns;
		an_describe_dir(c->values, c->nvalues, dir, &c->d);
	} else {
		/* a published summary's mean (the history keeps no more) */
		c->origin = AN_ORIGIN_SUMMARY;
		an_describe_summary(p->mean, NAN, 0, NAN, NAN, &c->d);
	}
	c->flags |= c->d.flags;
}

/* The baseline's cell of a series: its statistics once per series (a
 * baseline of 50,000 runs is not copied and sorted for each of 2,000
 * candidates); the values stay with the history, the cell keeps none. */
struct bdesc {
	struct an_desc d;
	int done;
};

static void fill_base(struct an_cell *c, const struct an_hpoint *p, struct bdesc *bd,
		      enum an_direction dir)
{
	memset(c, 0, sizeof(*c));
	c->job_sd = NAN;
	c->is_baseline = 1;
	if (!bd->done) {
		if (p->nruns)
			an_describe_dir(p->values, p->n, dir, &bd->d);
		else
			an_describe_summary(p->mean, NAN, 0, NAN, NAN, &bd->d);
		bd->done = 1;
	}
	c->origin = p->nruns ? AN_ORIGIN_SAMPLES : AN_ORIGIN_SUMMARY;
	c->nruns = p->nruns;
	c->d = bd->d;
	c->flags |= c->d.flags;
}

static void side_of(struct an_side *s, const struct an_cell *c, enum an_direction dir)
{
	if (c->origin == AN_ORIGIN_SAMPLES) {
		an_side_samples_dir(s, c->values, c->nvalues, dir);
	} else {
		memset(s, 0, sizeof(*s));
		s->d = c->d;
	}
}

static void put_variant(struct an_variant *v, long long id, const char *name)
{
	v->id = id;
	v->name = xstrdup(name);
	v->description = NULL;
}

int an_wide_build(struct db *db, const struct an_query *q, const long long *ids, size_t nids,
		  long long baseline_id, struct an_wide *w, struct kb_err *err)
{
	char **metrics = NULL;
	size_t nmetrics = 0, i, m, s, p, nrec = 0, caprec = 0, nvar = 0;
	struct wrec *rec = NULL;
	struct bdesc **bd = NULL;
	struct idpos *pos;
	unsigned char *seen;
	struct db_qdata all;
	int rc = 0;

	memset(w, 0, sizeof(*w));
	{
		/* The set's runs once, with the samples of every metric: each
		 * metric's history reads its own (a load per metric read the
		 * runs again each time).  With no metrics named, every metric
		 * is loaded and the set's are found in what was. */
		struct an_query lq;

		an_query_init(&lq);
		lq.bench = q->bench;
		if (q->metrics && q->nmetrics) {
			lq.metrics = q->metrics;
			lq.nmetrics = q->nmetrics;
		}
		lq.config = q->config;
		lq.nconfig = q->nconfig;
		lq.machines = q->machines;
		lq.nmachines = q->nmachines;
		if (an_query_load_ids(db, &lq, ids, nids, &all, err) < 0)
			return -1;
	}
	if (q->metrics && q->nmetrics) {
		metrics = xcalloc(q->nmetrics, sizeof(*metrics));
		for (i = 0; i < q->nmetrics; i++)
			metrics[i] = xstrdup(q->metrics[i]);
		nmetrics = q->nmetrics;
	} else {
		set_metrics(&all, q, &metrics, &nmetrics);
	}
	pos = xcalloc(nids + 1, sizeof(*pos));
	for (i = 0; i < nids; i++)
		pos[i] = (struct idpos){ ids[i], i };
	qsort(pos, nids, sizeof(*pos), cmp_idpos);
	seen = xcalloc(nids + 1, 1);

	w->hist = xcalloc(nmetrics + 1, sizeof(*w->hist));
	for (m = 0; m < nmetrics && rc == 0; m++) {
		struct an_history_opts ho;

		an_history_opts_from_query(&ho, q, metrics[m]);
		ho.threshold = q->threshold;
		ho.variant_ids = ids;
		ho.nvariant_ids = nids;
		ho.data = &all;
		if (an_history_build(db, &ho, &w->hist[m], err) < 0) {
			rc = -1;
			break;
		}
		w->nhist++;
	}
	db_qdata_release(&all);
	/* Every candidate point of a series the baseline has a point in. */
	for (m = 0; m < w->nhist && rc == 0; m++) {
		const struct an_history *h = &w->hist[m];

		for (s = 0; s < h->nseries; s++) {
			const struct an_hseries *se = &h->series[s];
			size_t b = se->npoints;

			for (p = 0; p < se->npoints; p++) {
				long at = idpos_find(pos, nids, se->points[p].variant_id);

				if (at >= 0 && !seen[at]) {
					seen[at] = 1;
					nvar++;
				}
				if (se->points[p].variant_id == baseline_id) {
					b = p;
					if (!w->baseline)
						w->baseline = xstrdup(se->points[p].variant);
				}
			}
			if (b == se->npoints)
				continue;
			for (p = 0; p < se->npoints; p++) {
				long at = idpos_find(pos, nids, se->points[p].variant_id);

				if (p == b || at < 0)
					continue;
				xgrow(&rec, &caprec, nrec + 1, sizeof(*rec));
				rec[nrec++] = (struct wrec){ (size_t)at, m, s, p };
			}
		}
	}
	w->nvariants = nvar;
	bd = xcalloc(w->nhist + 1, sizeof(*bd));
	for (m = 0; m < w->nhist; m++)
		bd[m] = xcalloc(w->hist[m].nseries + 1, sizeof(**bd));
	if (nrec)
		qsort(rec, nrec, sizeof(*rec), cmp_wrec);
	/* One table per candidate. */
	for (i = 0; i < nrec && rc == 0;) {
		size_t j = i, r;
		struct an_table *t;

		while (j < nrec && rec[j].cand == rec[i].cand)
			j++;
		w->pairs = xrealloc(w->pairs, (w->npairs + 1) * sizeof(*w->pairs));
		t = &w->pairs[w->npairs++];
		memset(t, 0, sizeof(*t));
		an_table_opts(t, q);
		t->defer_bh = 1;
		t->nmachines = 1;
		t->baseline = 0;
		t->nvariants = 2;
		t->variants = xcalloc(2, sizeof(*t->variants));
		put_variant(&t->variants[0], baseline_id, w->baseline);
		{
			const struct an_hpoint *cp =
				&w->hist[rec[i].m].series[rec[i].s].points[rec[i].p];
			put_variant(&t->variants[1], cp->variant_id, cp->variant);
		}
		t->rows = xcalloc(j - i, sizeof(*t->rows));
		for (r = i; r < j; r++) {
			const struct an_hseries *se = &w->hist[rec[r].m].series[rec[r].s];
			struct an_row *row = &t->rows[t->nrows++];
			const struct an_hpoint *bp = NULL;
			struct an_opts o = t->opts;
			struct an_side sb, sc;
			struct an_cell *c;

			for (p = 0; p < se->npoints && !bp; p++)
				if (se->points[p].variant_id == baseline_id)
					bp = &se->points[p];
			row->benchmark = xstrdup(se->benchmark);
			row->config = xstrdup(se->config);
			row->metric = xstrdup(se->metric);
			row->machine = se->machine ? xstrdup(se->machine) : NULL;
			row->unit = xstrdup(se->unit ? se->unit : "");
			row->dir = se->dir;
			row->cells = xcalloc(2, sizeof(*row->cells));
			fill_base(&row->cells[0], bp, &bd[rec[r].m][rec[r].s], se->dir);
			fill_point(&row->cells[1], &se->points[rec[r].p], 0, se->dir);
			c = &row->cells[1];
			o.dir = row->dir;
			memset(&sb, 0, sizeof(sb));
			if (bp->nruns) {
				sb.x = bp->values;
				sb.nx = bp->n;
			}
			sb.d = row->cells[0].d;
			side_of(&sc, c, row->dir);
			an_compare(&sb, &sc, &o, &c->chg);
			c->has_change = 1;
			c->flags |= c->chg.flags & (AN_F_TOO_FEW | AN_F_ZERO_VAR | AN_F_TIES);
			if (!isnan(c->chg.p))
				t->ncompared++;
		}
		i = j;
	}
	for (m = 0; bd && m < w->nhist; m++)
		free(bd[m]);
	free(bd);
	free(rec);
	free(pos);
	free(seen);
	for (i = 0; i < nmetrics; i++)
		free(metrics[i]);
	free(metrics);
	if (rc < 0)
		an_wide_release(w);
	return rc;
}

void an_wide_release(struct an_wide *w)
{
	size_t i;

	for (i = 0; i < w->nhist; i++)
		an_history_release(&w->hist[i]);
	free(w->hist);
	for (i = 0; i < w->npairs; i++)
		an_table_release(&w->pairs[i]);
	free(w->pairs);
	free(w->baseline);
	memset(w, 0, sizeof(*w));
}
