/*
 * compare.c - build the comparison table (see compare.h): select
 * samples and summaries through db/query.h, derive per-run metrics,
 * describe each cell, compare each with the baseline, then BH over the
 * whole table.
 */
#include "compare.h"
#include "qload.h"
#include "version.h"
#include "../core/buf.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/query.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One value headed for a cell.  Strings are borrowed from the db_qdata
 * or are static (derived metric names). */
struct obs {
	const char *bench, *config, *metric, *unit;
	const char *machine;	/* machine key, NULL unknown */
	long long vid;
	size_t run;		/* index into db_qdata.runs */
	int job;		/* -1 run level */
	int derived;
	double value;
	size_t jobs;		/* a mean of this many jobs (0: a run-level value) */
	double jss;		/* ... and their sum of squared deviations */
	size_t rank;		/* metric_rank(), set once before sorting */
};

/* A row key while building. */
struct rkey {
	const char *bench, *config, *metric, *unit;
	const char *machine;
	int derived;
	size_t rank;		/* metric display order */
};

/* Machine keys compare NULL (unknown) first. */
int an_machine_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

/* A hash index of keys made of two integers and up to four strings
 * (NULL allowed): the whole store's summaries and rows are matched by
 * key, and a linear scan per item made that quadratic. */
struct tkey {
	long long i1, i2;
	const char *s[4];
};

struct tindex {
	struct tkey *keys;	/* in order of insertion */
	size_t n, cap;
	size_t *slot;		/* key index + 1, 0 = empty */
	size_t nslot;		/* power of two */
};

static size_t tkey_hash(const struct tkey *k)
{
	size_t h = STR_HASH_INIT ^ (size_t)k->i1 * 31 ^ (size_t)k->i2 * 1000003;
	int i;

	for (i = 0; i < 4; i++)
		h = str_hash_add(h, k->s[i]);
	return h;
}

static int tkey_eq(const struct tkey *a, const struct tkey *b)
{
	int i;

	if (a->i1 != b->i1 || a->i2 != b->i2)
		return 0;
	for (i = 0; i < 4; i++)
		if (an_machine_cmp(a->s[i], b->s[i]) != 0)
			return 0;
	return 1;
}

/* Index of key k; added (the strings borrowed) when absent and add is set,
 * else -1. */
static long tindex_find(struct tindex *t, const struct tkey *k, int add)
{
	size_t h, i;

	if (2 * (t->n + 1) > t->nslot) {
		size_t nn = t->nslot ? 2 * t->nslot : 64, *ns = xcalloc(nn, sizeof(*ns));
		for (i = 0; i < t->nslot; i++) {
			if (!t->slot[i])
				continue;
			h = tkey_hash(&t->keys[t->slot[i] - 1]) & (nn - 1);
			while (ns[h])
				h = (h + 1) & (nn - 1);
			ns[h] = t->slot[i];
		}
		free(t->slot);
		t->slot = ns;
		t->nslot = nn;
	}
	for (h = tkey_hash(k) & (t->nslot - 1); t->slot[h]; h = (h + 1) & (t->nslot - 1))
		if (tkey_eq(&t->keys[t->slot[h] - 1], k))
			return (long)(t->slot[h] - 1);
	if (!add)
		return -1;
	xgrow(&t->keys, &t->cap, t->n + 1, sizeof(*t->keys));
	t->keys[t->n] = *k;
	t->slot[h] = ++t->n;
	return (long)(t->n - 1);
}

static void tindex_release(struct tindex *t)
{
	free(t->keys);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* Key of a summary as a cell holds it: a cell a post's second table
 * re-compares against another column is kept once per baseline, and
 * build_rows() takes the one against the comparison's baseline. */
static struct tkey sum_key(const struct db_qsummary *s)
{
	return (struct tkey){ s->variant_id, s->pub_base,
			      { s->benchmark, s->machine_key, s->config, s->metric } };
}

/* Key of a row: (benchmark, machine, config, metric). */
static struct tkey row_key(const char *bench, const char *machine, const char *config,
			   const char *metric)
{
	return (struct tkey){ 0, 0, { bench, machine, config, metric } };
}

/* A table variant's id and index, sorted by id (names may repeat ids). */
struct vpos {
	long long id;
	size_t v;
};

static int cmp_vpos(const void *a, const void *b)
{
	const struct vpos *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

static struct vpos *vpos_build(const struct an_table *t)
{
	struct vpos *vp = xcalloc(t->nvariants + 1, sizeof(*vp));
	size_t v;

	for (v = 0; v < t->nvariants; v++)
		vp[v] = (struct vpos){ t->variants[v].id, v };
	qsort(vp, t->nvariants, sizeof(*vp), cmp_vpos);
	return vp;
}

/* First entry of id in vp[0..n), or n. */
static size_t vpos_first(const struct vpos *vp, size_t n, long long id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (vp[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct build {
	const struct an_query *q;
	struct db_qdata d;
	struct obs *obs;
	size_t nobs, capobs;
	const struct db_qsummary **sums;	/* selected, last one per key wins */
	size_t nsums, capsums;
	struct tindex sumix;	/* sums' keys: key i is sums[i]'s */
	double *sumalt;		/* per sums[i]: another value the same source
				 * published for that key (NaN: none) */
	size_t capalt;
	struct db_qsummary *dsums;	/* E-H of published cells (sums point here) */
	size_t ndsums;
	const char **mnames;	/* metric order of first appearance */
	size_t nmnames, capmnames;
	struct tindex mnix;	/* mnames' index: key i is mnames[i] */
	struct db *db;
	long long *sel;		/* ids of q->variants, resolved once */
	long long base_id;	/* id of q->baseline, when given */
	int across;		/* compare across machines, as asked (see compare.h) */
	int decided;		/* near_load() decided across already */
	size_t nmachines_all;	/* near_load(): the selection's machine keys */
};

static const char *sum_machine(const struct build *b, const struct db_qsummary *s)
{
	return b->across ? NULL : s->machine_key;
}

/* Names ------------------------------------------------------------------ */

const char *an_origin_name(enum an_origin o)
{
	return o == AN_ORIGIN_SAMPLES ? "samples" : o == AN_ORIGIN_SUMMARY ? "summary" : "none";
}

static const struct {
	unsigned bit;
	const char *name;
} flag_names[] = {
	{ AN_F_NOISY, "noisy" },
	{ AN_F_VERY_NOISY, "very_noisy" },
	{ AN_F_OUTLIERS, "outliers" },
	{ AN_F_BIMODAL, "bimodal" },
	{ AN_F_SUMMARY_ONLY, "summary_only" },
	{ AN_F_SD_ESTIMATED, "sd_estimated" },
	{ AN_F_TOO_FEW, "too_few" },
	{ AN_F_ZERO_VAR, "zero_var" },
	{ AN_F_TIES, "ties" },
	{ AN_F_HMEAN, "harmonic_mean" },
	{ AN_F_HMEAN_NONPOS, "arithmetic_nonpositive" },
	{ AN_F_RAW_PREFERRED, "raw_preferred" },
	{ AN_F_DERIVED, "derived" },
	{ AN_F_JOBS, "jobs" },
	{ AN_F_FOOTNOTED, "footnoted" },
	{ AN_F_FROM_SUMMARIES, "from_summaries" },
	{ AN_F_AMBIGUOUS, "ambiguous" },
};

size_t an_flag_names(unsigned flags, const char **out, size_t max)
{
	size_t i, k = 0;

	for (i = 0; i < ARRAY_SIZE(flag_names); i++) {
		if (!(flags & flag_names[i].bit))
			continue;
		if (k < max)
			out[k] = flag_names[i].name;
		k++;
	}
	return k;
}

/* Ordering ------------------------------------------------------------------- */

/* Natural order: runs of digits compare as numbers, so tasks=8 < tasks=16. */
int an_natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			int c = an_digits_cmp(&a, &b);

			if (c)
				return c;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static size_t metric_rank(const struct build *b, const char *metric, int derived)
{
	size_t i;

	if (b->q->nmetrics) {
		for (i = 0; i < b->q->nmetrics; i++)
			if (strcmp(b->q->metrics[i], metric) == 0)
				return i;
		return b->q->nmetrics + (derived ? 1 : 0);
	}
	for (i = 0; i < b->nmnames; i++)
		if (strcmp(b->mnames[i], metric) == 0)
			return i + (derived ? 100000 : 0);
	return 200000;
}

static int key_cmp(const char *ba, const char *xa, const char *ca, size_t ra, const char *ma,
		   const char *bb, const char *xb, const char *cb, size_t rb, const char *mb)
{
	int c = strcmp(ba, bb);

	if (c)
		return c;
	c = an_machine_cmp(xa, xb);
	if (c)
		return c;
	c = an_natural_cmp(ca, cb);
	if (c)
		return c;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(ma, mb);
}

static int cmp_obs(const void *pa, const void *pb)
{
	const struct obs *a = pa, *b = pb;
	size_t ra = a->rank, rb = b->rank;
	int c = key_cmp(a->bench, a->machine, a->config, ra, a->metric, b->bench, b->machine,
			b->config, rb, b->metric);

	if (c)
		return c;
	if (a->vid != b->vid)
		return a->vid < b->vid ? -1 : 1;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	return (a->job > b->job) - (a->job < b->job);
}

static int cmp_rkey(const void *pa, const void *pb)
{
	const struct rkey *a = pa, *b = pb;

	return key_cmp(a->bench, a->machine, a->config, a->rank, a->metric, b->bench, b->machine,
		       b->config, b->rank, b->metric);
}

/* Selection --------------------------------------------------------------- */

static int variant_selected(const struct build *b, long long vid)
{
	size_t i;

	if (!b->q->nvariants)
		return 1;
	for (i = 0; i < b->q->nvariants; i++)
		if (b->sel[i] == vid)
			return 1;
	return 0;
}

static void note_metric(struct build *b, const char *metric)
{
	struct tkey k = { 0, 0, { metric, NULL, NULL, NULL } };

	if ((size_t)tindex_find(&b->mnix, &k, 1) < b->nmnames)
		return;
	xgrow(&b->mnames, &b->capmnames, b->nmnames + 1, sizeof(*b->mnames));
	b->mnames[b->nmnames++] = metric;
}

static struct obs *add_obs(struct build *b, size_t run, const char *metric, const char *unit,
			   int job, int derived, double value)
{
	const struct db_qrun *r = &b->d.runs[run];
	struct obs *o;

	if (isnan(value) || !an_query_metric_selected(b->q, metric))
		return NULL;
	xgrow(&b->obs, &b->capobs, b->nobs + 1, sizeof(*b->obs));
	o = &b->obs[b->nobs++];
	memset(o, 0, sizeof(*o));
	o->bench = r->benchmark;
	o->machine = r->machine_key;
	o->config = r->config;
	o->metric = metric;
	o->unit = unit;
	o->vid = r->variant_id;
	o->run = run;
	o->job = job;
	o->derived = derived;
	o->value = value;
	if (!derived)
		note_metric(b, metric);
	return o;
}

static int run_selected(const struct build *b, const struct db_qrun *r)
{
	return r->ok && an_query_match(b->q, r->config, r->machine_key) &&
	       variant_selected(b, r->variant_id);
}

/* A per-job metric of one run, while its jobs are read. */
struct jobacc {
	const char *metric, *unit;
	size_t n;
	double mean, m2;	/* Welford's running mean and squared deviations */
};

static void jobacc_add(struct jobacc **acc, size_t *n, size_t *cap, const char *metric,
		       const char *unit, double x)
{
	struct jobacc *a = NULL;
	double d;
	size_t i;

	if (isnan(x))
		return;
	for (i = 0; i < *n; i++)
		if (strcmp((*acc)[i].metric, metric) == 0)
			a = &(*acc)[i];
	if (!a) {
		xgrow(acc, cap, *n + 1, sizeof(**acc));
		a = &(*acc)[(*n)++];
		memset(a, 0, sizeof(*a));
		a->metric = metric;
		a->unit = unit;
	}
	a->n++;
	d = x - a->mean;
	a->mean += d / (double)a->n;
	a->m2 += d * (x - a->mean);
}

/* Samples of selected runs, plus derived per-run metrics.  samples and
 * jobs are grouped by run (sorted by run id), runs are not: index the
 * groups first. */
static void collect_samples(struct build *b)
{
	size_t *s0 = xcalloc(b->d.nruns + 1, sizeof(*s0)), *sn = xcalloc(b->d.nruns + 1, sizeof(*sn));
	size_t *j0 = xcalloc(b->d.nruns + 1, sizeof(*j0)), *jn = xcalloc(b->d.nruns + 1, sizeof(*jn));
	struct an_job *jobs = NULL;
	struct jobacc *acc = NULL;
	size_t capj = 0, i, run, nacc = 0, capacc = 0;

	for (i = 0; i < b->d.nsamples; i++) {
		if (!sn[b->d.samples[i].run]++)
			s0[b->d.samples[i].run] = i;
	}
	for (i = 0; i < b->d.njobs; i++) {
		if (!jn[b->d.jobs[i].run]++)
			j0[b->d.jobs[i].run] = i;
	}
	for (run = 0; run < b->d.nruns; run++) {
		const struct db_qrun *r = &b->d.runs[run];
		double elapsed = NAN, hackbench = NAN;
		int have_emh = 0;
		struct an_derived dv;

		if (!run_selected(b, r))
			continue;
		nacc = 0;
		for (i = s0[run]; i < s0[run] + sn[run]; i++) {
			const struct db_qsample *x = &b->d.samples[i];

			if (x->job >= 0) {
				jobacc_add(&acc, &nacc, &capacc, x->metric, x->unit, x->value);
				continue;
			}
			add_obs(b, run, x->metric, x->unit, -1, 0, x->value);
			if (strcmp(x->metric, "elapsed") == 0)
				elapsed = x->value;
			else if (strcmp(x->metric, "hackbench") == 0)
				hackbench = x->value;
			else if (strcmp(x->metric, "elapsed_minus_hackbench") == 0)
				have_emh = 1;
		}
		/* A per-job metric enters as the run's mean of its jobs. */
		for (i = 0; i < nacc; i++) {
			struct obs *o = add_obs(b, run, acc[i].metric, acc[i].unit, -1, 0, acc[i].mean);
			if (o) {
				o->jobs = acc[i].n;
				o->jss = acc[i].m2;
			}
		}
		if (b->q->no_derived)
			continue;
		xgrow(&jobs, &capj, jn[run] + 1, sizeof(*jobs));
		for (i = 0; i < jn[run]; i++) {
			jobs[i].moved = b->d.jobs[j0[run] + i].moved;
			jobs[i].user = b->d.jobs[j0[run] + i].user;
		}
		an_derive_numa_run(elapsed, hackbench, jobs, jn[run], &dv);
		if (!have_emh)
			add_obs(b, run, "elapsed_minus_hackbench", "s", -1, 1,
				dv.elapsed_minus_hackbench);
		if (jn[run]) {
			add_obs(b, run, "user_moved", "s", -1, 1, dv.user_moved);
			add_obs(b, run, "user_stayed", "s", -1, 1, dv.user_stayed);
			add_obs(b, run, "moved_pct", "%", -1, 1, dv.moved_pct);
		}
	}
	free(jobs);
	free(acc);
	free(s0);
	free(sn);
	free(j0);
	free(jn);
}

/* Keep s as the summary of its (variant, benchmark, config, metric). */
static void keep_summary(struct build *b, const struct db_qsummary *s)
{
	struct tkey key = sum_key(s);
	size_t k = (size_t)tindex_find(&b->sumix, &key, 1);

	if (k == b->nsums) {
		xgrow(&b->sums, &b->capsums, b->nsums + 1, sizeof(*b->sums));
		xgrow(&b->sumalt, &b->capalt, b->nsums + 1, sizeof(*b->sumalt));
		b->sumalt[k] = NAN;
		b->nsums++;
	} else if (b->sums[k]->source_id == s->source_id &&
		   fabs(b->sums[k]->mean - s->mean) > 1e-9 * fmax(fabs(s->mean), 1e-300)) {
		/* one source, two values for one cell: which is meant, kbench
		 * cannot tell (two sides under one name, two machines' tables) */
		b->sumalt[k] = b->sums[k]->mean;
	}
	b->sums[k] = s;	/* the later import replaces the earlier */
	note_metric(b, s->metric);
}

/*
 * E-H from published cells: where one source publishes both the elapsed
 * and the hackbench mean of a variant and configuration (seed 001's E and
 * H tables) and no E-H of its own, the mean of the difference is the
 * difference of the means.  Its sd is unknown (E and H are correlated in
 * ways the post does not say), so it is never tested without raw runs.
 * A footnoted operand makes the result footnoted.
 */
static void derive_summaries(struct build *b)
{
	struct tindex gix = { NULL, 0, 0, NULL, 0 };
	size_t i, j, g, *gid, *start, *member;

	if (b->q->no_derived || !an_query_metric_selected(b->q, "elapsed_minus_hackbench"))
		return;
	b->dsums = xcalloc(b->d.nsummaries ? b->d.nsummaries : 1, sizeof(*b->dsums));
	/* The summaries of each (source, variant, benchmark, config), in
	 * import order: start[g] .. start[g + 1] of member. */
	gid = xcalloc(b->d.nsummaries + 1, sizeof(*gid));
	for (i = 0; i < b->d.nsummaries; i++) {
		const struct db_qsummary *x = &b->d.summaries[i];
		struct tkey k = { x->source_id, x->variant_id, { x->benchmark, x->config, NULL, NULL } };
		gid[i] = (size_t)tindex_find(&gix, &k, 1);
	}
	start = xcalloc(gix.n + 2, sizeof(*start));
	member = xcalloc(b->d.nsummaries + 1, sizeof(*member));
	for (i = 0; i < b->d.nsummaries; i++)
		start[gid[i] + 1]++;
	for (g = 0; g < gix.n; g++)
		start[g + 1] += start[g];
	for (i = 0; i < b->d.nsummaries; i++)
		member[start[gid[i]]++] = i;
	for (g = gix.n; g > 0; g--)
		start[g] = start[g - 1];
	start[0] = 0;
	for (i = 0; i < b->d.nsummaries; i++) {
		const struct db_qsummary *e = &b->d.summaries[i], *h = NULL;
		struct db_qsummary *d;
		int published = 0;

		if (strcmp(e->metric, "elapsed") != 0 || isnan(e->mean) ||
		    !an_query_match(b->q, e->config, e->machine_key) || !variant_selected(b, e->variant_id))
			continue;
		for (j = start[gid[i]]; j < start[gid[i] + 1]; j++) {
			const struct db_qsummary *x = &b->d.summaries[member[j]];
			if (strcmp(x->metric, "elapsed_minus_hackbench") == 0) {
				published = 1;	/* published itself */
				break;
			}
			if (strcmp(x->metric, "hackbench") == 0 && !isnan(x->mean))
				h = x;
		}
		if (published || !h)
			continue;
		d = &b->dsums[b->ndsums++];
		*d = *e;
		d->metric = (char *)"elapsed_minus_hackbench";
		d->mean = e->mean - h->mean;
		d->sd = d->min = d->max = NAN;
		d->n = 0;
		d->pub_change = NAN;	/* kbench's own arithmetic: no table printed it */
		d->pub_mark = (char *)"";
		d->pub_base = 0;
		d->flags = (char *)(str_list_has(e->flags, "footnoted") || str_list_has(h->flags, "footnoted")
				    ? "from_summaries,footnoted" : "from_summaries");
		keep_summary(b, d);
	}
	free(gid);
	free(start);
	free(member);
	tindex_release(&gix);
}

static void collect_summaries(struct build *b)
{
	size_t i;

	for (i = 0; i < b->d.nsummaries; i++) {
		const struct db_qsummary *s = &b->d.summaries[i];

		if (!an_query_match(b->q, s->config, s->machine_key) || !variant_selected(b, s->variant_id) ||
		    !an_query_metric_selected(b->q, s->metric))
			continue;
		if (isnan(s->mean))
			continue;
		keep_summary(b, s);
	}
	derive_summaries(b);
}

/* Direction ----------------------------------------------------------------- */

static enum an_direction direction_of(const struct build *b, const char *bench,
				      const char *metric)
{
	enum an_direction d = AN_DIR_NONE;
	size_t i;
	int found = 0;

	for (i = 0; i < b->q->nbetter; i++)
		if (strcmp(b->q->better[i].metric, metric) == 0)
			return b->q->better[i].dir;
	for (i = 0; i < b->d.nmetrics; i++) {
		const struct db_qmetric *m = &b->d.metrics[i];
		if (strcmp(m->name, metric) != 0)
			continue;
		if (strcmp(m->benchmark, bench) == 0 || (!found && m->benchmark[0] == '\0')) {
			an_direction_parse(m->better, &d);
			found = 1 + (m->benchmark[0] != '\0');
			if (found == 2)
				break;
		}
	}
	if (!found && (strcmp(metric, "user_moved") == 0 || strcmp(metric, "user_stayed") == 0))
		d = AN_DIR_LOWER;
	return d;
}

static const char *catalogue_unit(const struct build *b, const char *bench, const char *metric)
{
	size_t i;
	const char *u = "";

	for (i = 0; i < b->d.nmetrics; i++) {
		const struct db_qmetric *m = &b->d.metrics[i];
		if (strcmp(m->name, metric) != 0)
			continue;
		if (strcmp(m->benchmark, bench) == 0)
			return m->unit;
		if (m->benchmark[0] == '\0')
			u = m->unit;
	}
	return u;
}

/* Building ------------------------------------------------------------------- */

static void cell_note(struct an_cell *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append one sentence to the cell's note ("; " between sentences). */
static void cell_note(struct an_cell *c, const char *fmt, ...)
{
	struct buf nb = BUF_INIT;
	va_list ap;

	if (c->note) {
		buf_puts(&nb, c->note);
		buf_puts(&nb, "; ");
		free(c->note);
	}
	va_start(ap, fmt);
	buf_vprintf(&nb, fmt, ap);
	va_end(ap);
	c->note = buf_detach(&nb);
}

static void explain(const struct an_table *t, const struct an_row *row, struct an_cell *c)
{
	const struct an_cell *base = &row->cells[t->baseline];
	const struct an_change *g = &c->chg;

	if (g->verdict != AN_VERDICT_INCONCLUSIVE)
		return;
	if ((base->flags | c->flags) & AN_F_AMBIGUOUS)
		return;	/* not tested: the ambiguity's own note says why */
	if ((base->origin == AN_ORIGIN_SUMMARY && base->d.n == 0) ||
	    (c->origin == AN_ORIGIN_SUMMARY && c->d.n == 0)) {
		/* A published mean with its sd but no count of runs (the robot's
		 * tables, mmtests' compare-kernels): the test needs n, and kbench
		 * does not invent one. */
		if (!isnan(base->d.sd) && !isnan(c->d.sd))
			cell_note(c, "a published number without n (the source does not say over "
				  "how many runs): no test possible");
		else
			cell_note(c, "a published number without n or sd: no test possible");
	} else if ((base->flags | c->flags) & AN_F_JOBS && (base->d.n < 2 || c->d.n < 2)) {
		if (base->d.n == 1 && c->d.n == 1)
			cell_note(c, "1 run per side: the jobs of one run are not replicates");
		else
			cell_note(c, "%zu vs %zu runs: too few runs for any test (jobs are not runs)",
				  base->d.n, c->d.n);
	} else if (base->d.n < 2 || c->d.n < 2) {
		cell_note(c, "n = %zu vs %zu: too few values for any test", base->d.n, c->d.n);
	} else if (g->test == AN_TEST_MWU && !(g->p_min < t->opts.alpha)) {
		cell_note(c, "%zu vs %zu values: Mann-Whitney cannot reach p < %g", base->d.n,
			  c->d.n, t->opts.alpha);
	} else if (isnan(g->p)) {
		cell_note(c, "no standard deviation: no test possible");
	}
	if (!isnan(g->runs_needed))
		cell_note(c, "about %.0f runs per side needed", g->runs_needed);
}

/* Is s's published verdict one against variant base (the table's own
 * baseline column is the comparison's)?  A store older than migration 7
 * does not know (0): taken as before. */
static int pub_against(const struct db_qsummary *s, long long base)
{
	return s->pub_base == 0 || s->pub_base == base;
}

static void fill_cell(struct build *b, struct an_row *row, struct an_cell *c,
		      const struct obs *o, size_t n, const struct db_qsummary *sum,
		      long long base)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->d.mean = c->d.sd = c->d.median = c->d.min = c->d.max = NAN;
	c->d.cv = c->d.ci_low = c->d.ci_high = NAN;
	if (n && sum && sum->n > 0 && !isnan(sum->mean)) {
		/* A summary over more runs than we hold raw (autonuma mails: "Ran
		 * 5 iterations", one detailed run quoted) carries more. */
		size_t runs = 0;
		long long last_run = -1;

		for (i = 0; i < n; i++)
			if ((long long)o[i].run != last_run) {
				runs++;
				last_run = (long long)o[i].run;
			}
		if ((size_t)sum->n > runs) {
			n = 0;
			cell_note(c, "published summary over %lld runs used, not the %zu raw run%s",
				  sum->n, runs, runs == 1 ? "" : "s");
		}
	}
	c->job_sd = NAN;
	if (n) {
		long long last_run = -1;
		double jss = 0;
		size_t dof = 0;

		c->origin = AN_ORIGIN_SAMPLES;
		c->values = xmalloc(n * sizeof(*c->values));
		for (i = 0; i < n; i++) {
			c->values[i] = o[i].value;
			if (o[i].jobs) {
				c->flags |= AN_F_JOBS;
				c->njobs += o[i].jobs;
				jss += o[i].jss;
				dof += o[i].jobs - 1;
			}
			if ((long long)o[i].run != last_run) {
				c->nruns++;
				last_run = (long long)o[i].run;
			}
		}
		if (dof)
			c->job_sd = sqrt(jss / (double)dof);
		c->nvalues = n;
		/* throughput rows: the harmonic mean, as mmtests' Hmean */
		an_describe_dir(c->values, n, row->dir, &c->d);
		if (sum && str_list_has(sum->flags, "from_summaries")) {
			/* Published E and H are rounded to 2 decimals each. */
			if (fabs(c->d.mean - sum->mean) <= 0.011 + 1e-9 * fabs(sum->mean))
				cell_note(c, "raw runs used, E-H of the published E and H agrees");
			else
				cell_note(c, "raw runs used, E-H of the published E and H is %.2f",
					  sum->mean);
		} else if (sum) {
			c->flags |= AN_F_RAW_PREFERRED;
			cell_note(c, "raw samples used, published summary ignored");
		}
	} else if (sum) {
		c->origin = AN_ORIGIN_SUMMARY;
		an_describe_summary(sum->mean, sum->sd, sum->n > 0 ? (size_t)sum->n : 0, sum->min,
				    sum->max, &c->d);
		if (str_list_has(sum->flags, "footnoted"))
			c->flags |= AN_F_FOOTNOTED;
		{
			struct tkey key = sum_key(sum);
			long k = tindex_find(&b->sumix, &key, 0);

			if (k >= 0 && !isnan(b->sumalt[k])) {
				c->flags |= AN_F_AMBIGUOUS;
				cell_note(c, "its source publishes two values for this cell (%g, then %g), "
					  "kbench cannot tell which is meant: the last is shown, its "
					  "change not tested", b->sumalt[k], sum->mean);
			}
		}
		if (str_list_has(sum->flags, "from_summaries"))
			c->flags |= AN_F_FROM_SUMMARIES;
		if ((!isnan(sum->pub_change) || (sum->pub_mark && sum->pub_mark[0])) &&
		    pub_against(sum, base)) {
			c->published = 1;
			c->pub_change = sum->pub_change;
			c->pub_mark = xstrdup(sum->pub_mark ? sum->pub_mark : "");
		}
	}
	if (row->derived)
		c->flags |= AN_F_DERIVED;
	c->flags |= c->d.flags;
	(void)b;
}

static int build_rows(struct build *b, struct an_table *t, struct kb_err *err)
{
	struct rkey *keys = NULL;
	struct tindex kix = { NULL, 0, 0, NULL, 0 }, mix = { NULL, 0, 0, NULL, 0 };
	size_t *firstk = NULL, capfirst = 0;	/* kix key -> first row key */
	size_t nkeys = 0, capkeys = 0, i, k, oi, g, v;
	size_t *sgid, *sstart, *smember, *ostart, *oend, *touched, nt, *otouched, nto;
	const struct db_qsummary **sumv;
	struct vpos *vp;
	int dv;
	/* the baseline's variant: a published verdict is shown against it only */
	long long bid = t->nvariants ? t->variants[t->baseline].id : 0;

	(void)err;
	{
		/* Each obs' metric rank, asked once per distinct (metric, derived):
		 * metric strings of one load are shared, so the pointer will do
		 * as the cache's key (the rank itself still goes by name). */
		struct tindex rix = { NULL, 0, 0, NULL, 0 };
		size_t *rv = NULL, caprv = 0, had;

		for (i = 0; i < b->nobs; i++) {
			struct obs *o = &b->obs[i];
			struct tkey rkk = { (long long)(uintptr_t)o->metric, o->derived,
					    { NULL, NULL, NULL, NULL } };
			long x;

			had = rix.n;
			x = tindex_find(&rix, &rkk, 1);
			if (rix.n > had) {
				xgrow(&rv, &caprv, (size_t)x + 1, sizeof(*rv));
				rv[x] = metric_rank(b, o->metric, o->derived);
			}
			o->rank = rv[x];
		}
		free(rv);
		tindex_release(&rix);
	}
	if (b->nobs)
		qsort(b->obs, b->nobs, sizeof(*b->obs), cmp_obs);
	for (i = 0; i < b->nobs; i++) {
		const struct obs *o = &b->obs[i];
		struct tkey rk;
		size_t had;
		long x;

		if (nkeys && strcmp(keys[nkeys - 1].bench, o->bench) == 0 &&
		    an_machine_cmp(keys[nkeys - 1].machine, o->machine) == 0 &&
		    strcmp(keys[nkeys - 1].config, o->config) == 0 &&
		    strcmp(keys[nkeys - 1].metric, o->metric) == 0)
			continue;
		xgrow(&keys, &capkeys, nkeys + 1, sizeof(*keys));
		keys[nkeys++] = (struct rkey){ o->bench, o->config, o->metric, o->unit, o->machine,
					       o->derived, o->rank };
		rk = row_key(o->bench, o->machine, o->config, o->metric);
		had = kix.n;
		x = tindex_find(&kix, &rk, 1);
		if (kix.n > had) {
			xgrow(&firstk, &capfirst, (size_t)x + 1, sizeof(*firstk));
			firstk[x] = nkeys - 1;
		}
	}
	for (i = 0; i < b->nsums; i++) {
		const struct db_qsummary *s = b->sums[i];
		struct tkey rk = row_key(s->benchmark, sum_machine(b, s), s->config, s->metric);
		long x = tindex_find(&kix, &rk, 0);

		if (x >= 0) {
			k = firstk[x];
			if (!keys[k].unit[0])
				keys[k].unit = s->unit;
			continue;
		}
		x = tindex_find(&kix, &rk, 1);
		dv = str_list_has(s->flags, "from_summaries");
		xgrow(&keys, &capkeys, nkeys + 1, sizeof(*keys));
		keys[nkeys++] = (struct rkey){ s->benchmark, s->config, s->metric, s->unit,
					       sum_machine(b, s), dv, metric_rank(b, s->metric, dv) };
		xgrow(&firstk, &capfirst, (size_t)x + 1, sizeof(*firstk));
		firstk[x] = nkeys - 1;
	}
	if (nkeys)
		qsort(keys, nkeys, sizeof(*keys), cmp_rkey);

	/* Each row's summaries: those of its key (rows of one key share
	 * them), grouped in sums order. */
	sgid = xcalloc(b->nsums + 1, sizeof(*sgid));
	for (i = 0; i < b->nsums; i++) {
		struct tkey rk = row_key(b->sums[i]->benchmark, sum_machine(b, b->sums[i]),
					 b->sums[i]->config, b->sums[i]->metric);
		sgid[i] = (size_t)tindex_find(&kix, &rk, 0);
	}
	sstart = xcalloc(kix.n + 2, sizeof(*sstart));
	smember = xcalloc(b->nsums + 1, sizeof(*smember));
	for (i = 0; i < b->nsums; i++)
		sstart[sgid[i] + 1]++;
	for (g = 0; g < kix.n; g++)
		sstart[g + 1] += sstart[g];
	for (i = 0; i < b->nsums; i++)
		smember[sstart[sgid[i]]++] = i;
	for (g = kix.n; g > 0; g--)
		sstart[g] = sstart[g - 1];
	sstart[0] = 0;

	vp = vpos_build(t);
	ostart = xcalloc(t->nvariants + 1, sizeof(*ostart));
	oend = xcalloc(t->nvariants + 1, sizeof(*oend));
	otouched = xcalloc(t->nvariants + 1, sizeof(*otouched));
	for (v = 0; v < t->nvariants; v++)
		ostart[v] = oend[v] = b->nobs;	/* no obs; reset after each row */
	sumv = xcalloc(t->nvariants + 1, sizeof(*sumv));
	touched = xcalloc(t->nvariants + 1, sizeof(*touched));

	t->rows = xcalloc(nkeys ? nkeys : 1, sizeof(*t->rows));
	t->nrows = 0;
	oi = 0;
	for (k = 0; k < nkeys; k++) {
		struct an_row *row = &t->rows[t->nrows];
		const struct rkey *key = &keys[k];
		struct tkey rk = row_key(key->bench, key->machine, key->config, key->metric);
		size_t gend, p;
		long x;

		if (k == 0 || an_machine_cmp(keys[k - 1].machine, key->machine) != 0) {
			struct tkey mk = { 0, 0, { key->machine, NULL, NULL, NULL } };
			tindex_find(&mix, &mk, 1);
			t->nmachines = mix.n;
		}
		/* obs are sorted in row order; skip any that sort before. */
		while (oi < b->nobs && cmp_rkey(&(struct rkey){ b->obs[oi].bench,
				b->obs[oi].config, b->obs[oi].metric, "", b->obs[oi].machine, 0,
				b->obs[oi].rank }, key) < 0)
			oi++;
		/* The row's obs: from oi while the key holds.  A variant's cell
		 * takes its first stretch of obs in there. */
		for (gend = oi; gend < b->nobs; gend++) {
			const struct obs *o = &b->obs[gend];
			if (strcmp(o->bench, key->bench) || strcmp(o->config, key->config) ||
			    strcmp(o->metric, key->metric) || an_machine_cmp(o->machine, key->machine))
				break;
		}
		nto = 0;
		for (p = oi; p < gend;) {
			size_t q = p + 1, w;

			while (q < gend && b->obs[q].vid == b->obs[p].vid)
				q++;
			for (w = vpos_first(vp, t->nvariants, b->obs[p].vid);
			     w < t->nvariants && vp[w].id == b->obs[p].vid; w++)
				if (ostart[vp[w].v] == b->nobs) {
					ostart[vp[w].v] = p;
					oend[vp[w].v] = q;
					otouched[nto++] = vp[w].v;
				}
			p = q;
		}
		x = tindex_find(&kix, &rk, 0);
		nt = 0;
		if (x >= 0)
			for (i = sstart[x]; i < sstart[x + 1]; i++) {
				const struct db_qsummary *s = b->sums[smember[i]];
				size_t w;

				for (w = vpos_first(vp, t->nvariants, s->variant_id);
				     w < t->nvariants && vp[w].id == s->variant_id; w++) {
					const struct db_qsummary *had = sumv[vp[w].v];

					if (!had)
						touched[nt++] = vp[w].v;
					/* the cell's latest summary, but one whose published
					 * change is against this baseline wins over one
					 * against another (a second table of the post) */
					if (!had || s->pub_base == bid || had->pub_base != bid)
						sumv[vp[w].v] = s;
				}
			}
		if (b->q->baseline_rows_only && t->nvariants &&
		    ostart[t->baseline] == b->nobs && !sumv[t->baseline]) {
			for (i = 0; i < nt; i++)
				sumv[touched[i]] = NULL;
			for (i = 0; i < nto; i++)
				ostart[otouched[i]] = oend[otouched[i]] = b->nobs;
			continue;	/* nothing to compare with: no row */
		}
		row->benchmark = xstrdup(key->bench);
		row->machine = key->machine ? xstrdup(key->machine) : NULL;
		row->config = xstrdup(key->config);
		row->metric = xstrdup(key->metric);
		row->unit = xstrdup(key->unit[0] ? key->unit
						 : catalogue_unit(b, key->bench, key->metric));
		row->dir = direction_of(b, key->bench, key->metric);
		row->derived = key->derived;
		row->cells = xcalloc(t->nvariants ? t->nvariants : 1, sizeof(*row->cells));
		for (v = 0; v < t->nvariants; v++) {
			size_t start = ostart[v], end = oend[v];

			if (start == b->nobs)
				start = end = gend;
			fill_cell(b, row, &row->cells[v], b->obs + start, end - start, sumv[v], bid);
			row->cells[v].is_baseline = v == t->baseline;
		}
		for (i = 0; i < nt; i++)
			sumv[touched[i]] = NULL;
		for (i = 0; i < nto; i++)
			ostart[otouched[i]] = oend[otouched[i]] = b->nobs;
		t->nrows++;
	}
	free(keys);
	free(firstk);
	free(sgid);
	free(sstart);
	free(smember);
	free(vp);
	free(ostart);
	free(oend);
	free(otouched);
	free(sumv);
	free(touched);
	tindex_release(&kix);
	tindex_release(&mix);
	return 0;
}

static void compare_rows(struct an_table *t)
{
	struct an_change **all = NULL;
	size_t nall = 0, cap = 0, r, v;

	for (r = 0; r < t->nrows; r++) {
		struct an_row *row = &t->rows[r];
		struct an_cell *base = &row->cells[t->baseline];
		struct an_opts o = t->opts;
		struct an_side sb, sc;

		o.dir = row->dir;
		if (base->origin == AN_ORIGIN_NONE)
			continue;
		if (base->origin == AN_ORIGIN_SAMPLES)
			an_side_samples_dir(&sb, base->values, base->nvalues, row->dir);
		else
			sb.x = NULL, sb.nx = 0, sb.d = base->d;
		for (v = 0; v < t->nvariants; v++) {
			struct an_cell *c = &row->cells[v];

			if (v == t->baseline || c->origin == AN_ORIGIN_NONE)
				continue;
			if (!t->use_flagged && ((base->flags | c->flags) & AN_F_FOOTNOTED)) {
				if (!(c->flags & AN_F_FOOTNOTED))
					cell_note(c, "the baseline is footnoted in the post: not tested");
				continue;
			}
			if (c->origin == AN_ORIGIN_SAMPLES)
				an_side_samples_dir(&sc, c->values, c->nvalues, row->dir);
			else
				sc.x = NULL, sc.nx = 0, sc.d = c->d;
			an_compare(&sb, &sc, &o, &c->chg);
			c->has_change = 1;
			c->flags |= c->chg.flags & (AN_F_TOO_FEW | AN_F_ZERO_VAR | AN_F_TIES);
			if ((base->flags | c->flags) & AN_F_AMBIGUOUS) {
				/* which of the source's values is meant, kbench cannot
				 * tell: the change of the last, with no test, no verdict */
				c->chg.p = c->chg.q = NAN;
				c->chg.raw_low = c->chg.raw_high = c->chg.ci_low = c->chg.ci_high = NAN;
				c->chg.ci_method = AN_CI_NONE;
				an_decide(&c->chg, &o);
				if (!(c->flags & AN_F_AMBIGUOUS))
					cell_note(c, "the baseline's source publishes more than one value "
						  "for its cell: not tested");
			}
			if (!isnan(c->chg.p)) {
				xgrow(&all, &cap, nall + 1, sizeof(*all));
				all[nall++] = &c->chg;
			}
		}
	}
	free(all);
	t->ncompared = nall;
	if (!t->defer_bh)
		an_tables_bh(&t, 1);
}

double an_geomean_change(const struct an_table *t, const size_t *rows, size_t n, size_t v,
			 size_t *used)
{
	double sum = 0;
	size_t i, k = 0;

	*used = 0;
	if (!n || v >= t->nvariants)
		return NAN;
	for (i = 0; i < n; i++) {
		const struct an_cell *c = &t->rows[rows[i]].cells[v];
		double ratio;

		if (!c->has_change || isnan(c->chg.raw))
			continue;
		ratio = 1 + c->chg.raw / 100;
		if (!(ratio > 0) || isinf(ratio))
			continue;
		sum += log(ratio);
		k++;
	}
	*used = k;
	if (!k)
		return NAN;
	return an_convert((exp(sum / (double)k) - 1) * 100, t->rows[rows[0]].dir, t->opts.conv);
}

size_t an_table_pvalues(const struct an_table *t, double **p, size_t *n, size_t *cap)
{
	size_t r, v, had = *n;

	for (r = 0; r < t->nrows; r++)
		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *c = &t->rows[r].cells[v];

			if (c->has_change && !isnan(c->chg.p)) {
				xgrow(p, cap, *n + 1, sizeof(**p));
				(*p)[(*n)++] = c->chg.p;
			}
		}
	return *n - had;
}

void an_table_set_q(struct an_table *t, const double *q, size_t nq, size_t family)
{
	size_t r, v, i = 0;

	for (r = 0; r < t->nrows; r++)
		for (v = 0; v < t->nvariants; v++) {
			struct an_cell *c = &t->rows[r].cells[v];

			if (c->has_change && !isnan(c->chg.p) && i < nq)
				c->chg.q = q[i++];
		}
	t->ncompared = family;
	/* Decide again with q, each row under its own direction. */
	for (r = 0; r < t->nrows; r++) {
		struct an_row *row = &t->rows[r];
		struct an_opts o = t->opts;

		o.dir = row->dir;
		for (v = 0; v < t->nvariants; v++) {
			struct an_cell *c = &row->cells[v];
			if (!c->has_change)
				continue;
			an_decide(&c->chg, &o);
			/* Runs needed to resolve the change seen (at least delta):
			 * an_decide() sizes for delta alone, which asks for
			 * thousands of runs when a noisy cell moved by 40%. */
			if ((c->flags | row->cells[t->baseline].flags) & AN_F_AMBIGUOUS)
				c->chg.runs_needed = NAN;	/* more runs do not tell
								 * which value is meant */
			else if (!isnan(c->chg.runs_needed))
				c->chg.runs_needed = an_runs_needed(c->chg.cv,
					fmax(t->opts.delta, fabs(c->chg.raw)));
			explain(t, row, c);
		}
	}
}

void an_tables_bh(struct an_table *const *tables, size_t ntables)
{
	double *p = NULL;
	size_t n = 0, cap = 0, k, at = 0;
	size_t *cnt = xcalloc(ntables + 1, sizeof(*cnt));

	for (k = 0; k < ntables; k++)
		cnt[k] = an_table_pvalues(tables[k], &p, &n, &cap);
	if (n)
		an_bh(p, n, p);
	for (k = 0; k < ntables; k++) {
		an_table_set_q(tables[k], p ? p + at : NULL, cnt[k], n);
		at += cnt[k];
	}
	free(cnt);
	free(p);
}

static void add_variant(struct an_table *t, size_t *cap, const struct db_qvariant *v)
{
	xgrow(&t->variants, cap, t->nvariants + 1, sizeof(*t->variants));
	t->variants[t->nvariants].id = v->id;
	t->variants[t->nvariants].name = xstrdup(v->name);
	t->variants[t->nvariants].description = v->description ? xstrdup(v->description) : NULL;
	t->nvariants++;
}

/* The variants a user means by name (db_variant_resolve_id(): display
 * name, name alone when unique, name@start-of-post), as ids, before
 * anything is loaded: q->variants into b->sel, then q->baseline. */
static int resolve_variants(struct build *b, struct kb_err *err)
{
	size_t i;
	char *disp;

	b->sel = xcalloc(b->q->nvariants + 2, sizeof(*b->sel));
	for (i = 0; i < b->q->nvariants; i++) {
		if (db_variant_resolve_id(b->db, b->q->variants[i], &b->sel[i], &disp, err) < 0)
			return -1;
		free(disp);
	}
	if (b->q->baseline) {
		if (db_variant_resolve_id(b->db, b->q->baseline, &b->base_id, &disp, err) < 0)
			return -1;
		free(disp);
	}
	return 0;
}

/* The loaded variant of id, or -1 with err set. */
static int find_variant(const struct build *b, long long id, const char *name, size_t *idx,
			struct kb_err *err)
{
	size_t j;

	for (j = 0; j < b->d.nvariants && b->d.variants[j].id != id; j++)
		;
	if (j == b->d.nvariants)
		return kb_err_set(err, "", 0, "unknown variant '%s'", name);
	*idx = j;
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

static int pick_variants(struct build *b, struct an_table *t, struct kb_err *err)
{
	size_t i, j, cap = 0;

	if (b->q->nvariants) {
		for (i = 0; i < b->q->nvariants; i++)
			for (j = 0; j < b->d.nvariants; j++)
				if (b->d.variants[j].id == b->sel[i])
					add_variant(t, &cap, &b->d.variants[j]);
	} else {
		/* The ids with data, sorted: each variant looks itself up. */
		long long *used = xcalloc(b->nobs + b->nsums + 1, sizeof(*used));
		size_t nused = 0;

		for (i = 0; i < b->nobs; i++)
			if (!nused || used[nused - 1] != b->obs[i].vid)
				used[nused++] = b->obs[i].vid;
		for (i = 0; i < b->nsums; i++)
			used[nused++] = b->sums[i]->variant_id;
		qsort(used, nused, sizeof(*used), cmp_ll);
		for (j = 0; j < b->d.nvariants; j++) {
			long long id = b->d.variants[j].id;
			if (bsearch(&id, used, nused, sizeof(*used), cmp_ll))
				add_variant(t, &cap, &b->d.variants[j]);
		}
		free(used);
	}
	t->baseline = 0;
	if (b->q->baseline) {
		if (find_variant(b, b->base_id, b->q->baseline, &j, err) < 0)
			return -1;
		for (i = 0; i < t->nvariants; i++)
			if (t->variants[i].id == b->d.variants[j].id)
				break;
		if (i == t->nvariants)
			return kb_err_set(err, "", 0, "baseline '%s' has no data in this selection",
					  b->q->baseline);
		t->baseline = i;
	}
	return 0;
}

/* How a machine key reads in a sentence. */
static void put_machine(struct buf *out, const char *key)
{
	if (!key)
		buf_puts(out, "an unknown machine");
	else if (strncmp(key, "unknown@", 8) == 0)
		buf_printf(out, "an unknown machine (post %s)", key + 8);
	else
		buf_puts(out, key);
}

/*
 * Runs of different machines are never pooled: rows are per machine.
 * But when the user named the variants (q.variants or q.baseline) and
 * they share no machine, each on one machine only, there is nothing to
 * compare per machine: compare them across machines, as asked, and say
 * so above the table.
 */
static int cmp_mkey(const void *a, const void *b)
{
	return an_machine_cmp(*(const char *const *)a, *(const char *const *)b);
}

#define SEVERAL_MACHINES "the variants asked for ran on different machines and some on " \
			 "several: each machine is compared on its own, and a variant is " \
			 "compared only where the baseline ran too"

static int cmp_vkey(const void *pa, const void *pb)
{
	const struct db_vkey *a = pa, *b = pb;

	if (a->variant_id != b->variant_id)
		return a->variant_id < b->variant_id ? -1 : 1;
	return an_machine_cmp(a->key, b->key);
}

/*
 * A baseline alone against every variant with data (regress): only the
 * rows where the baseline has data can hold a verdict, so only what
 * shares a (benchmark, config) and a machine with the baseline is loaded,
 * not the selection.  Whether machines are compared across
 * (decide_across()) is decided first, from the selection's (variant,
 * machine) pairs: a variant is on a machine where it has an ok run or a
 * summary.  When it would compare across, everything is loaded and
 * decided as for any table.  The table's machine count is the
 * selection's, as with a whole load.
 */
static int near_load(struct build *b, struct an_table *t, struct kb_err *err)
{
	struct an_query nq = *b->q;
	struct db_vkey *vk;
	const char **keys;
	size_t n, i, nvar = 0, nkeys = 0;
	int single = 1, shared = 0, rc;

	if (an_query_variant_keys(b->db, b->q, &vk, &n, err) < 0)
		return -1;
	if (n)  /* qsort() wants an array, even of nothing */
		qsort(vk, n, sizeof(*vk), cmp_vkey);
	keys = xcalloc(n + 1, sizeof(*keys));
	for (i = 0; i < n; i++) {
		if (i && vk[i].variant_id == vk[i - 1].variant_id)
			single = 0;
		else
			nvar++;
		keys[i] = vk[i].key;
	}
	qsort(keys, n, sizeof(*keys), cmp_mkey);       /* keys: never NULL */
	for (i = 0; i < n; i++) {
		if (i && an_machine_cmp(keys[i - 1], keys[i]) == 0)
			shared = 1;
		else
			nkeys++;
	}
	free(keys);
	db_vkeys_free(vk, n);
	if (single && !shared && nvar >= 2)
		return an_query_load(b->db, b->q, &b->d, err);
	b->decided = 1;
	b->nmachines_all = nkeys;
	if (!single && !shared)
		t->warning = xstrdup(SEVERAL_MACHINES);
	nq.near = b->base_id;
	nq.near_config = 1;
	nq.near_any_machine = 0;
	rc = an_query_load(b->db, &nq, &b->d, err);
	return rc;
}

static void decide_across(struct build *b, struct an_table *t)
{
	const char **key = xcalloc(t->nvariants + 1, sizeof(*key));
	int *seen = xcalloc(t->nvariants + 1, sizeof(*seen));
	int single = 1, shared = 0, unknown = 0;
	size_t i, v, w, nk = 0;
	struct buf msg = BUF_INIT;
	struct vpos *vp;
	const char **sk;

	if (!b->q->nvariants && !b->q->baseline)
		goto out;
	/* Each variant's items in item order, found by id. */
	vp = vpos_build(t);
	for (i = 0; i < b->nobs + b->nsums; i++) {
		long long vid = i < b->nobs ? b->obs[i].vid : b->sums[i - b->nobs]->variant_id;
		const char *k = i < b->nobs ? b->obs[i].machine : b->sums[i - b->nobs]->machine_key;

		for (w = vpos_first(vp, t->nvariants, vid); w < t->nvariants && vp[w].id == vid; w++) {
			v = vp[w].v;
			if (!seen[v]) {
				seen[v] = 1;
				key[v] = k;
			} else if (an_machine_cmp(key[v], k) != 0) {
				single = 0;
			}
		}
	}
	free(vp);
	for (v = 0; v < t->nvariants; v++)
		if (seen[v] && (!key[v] || strncmp(key[v], "unknown@", 8) == 0))
			unknown = 1;
	/* Two variants on one machine: equal keys side by side once sorted. */
	sk = xcalloc(t->nvariants + 1, sizeof(*sk));
	for (v = 0; v < t->nvariants; v++)
		if (seen[v])
			sk[nk++] = key[v];
	qsort(sk, nk, sizeof(*sk), cmp_mkey);
	for (i = 1; i < nk && !shared; i++)
		shared = an_machine_cmp(sk[i - 1], sk[i]) == 0;
	free(sk);
	if (!single) {
		if (!shared)
			t->warning = xstrdup(SEVERAL_MACHINES);
		goto out;
	}
	if (shared || t->nvariants < 2)
		goto out;
	b->across = 1;
	for (i = 0; i < b->nobs; i++)
		b->obs[i].machine = NULL;
	buf_puts(&msg, unknown ? "machines differ or are unknown, compared as asked: "
			       : "machines differ, compared as asked: ");
	for (v = 0; v < t->nvariants; v++) {
		if (!seen[v])
			continue;
		buf_printf(&msg, "%s%s on ", v ? "; " : "", t->variants[v].name);
		put_machine(&msg, key[v]);
	}
	t->warning = buf_detach(&msg);
out:
	buf_release(&msg);
	free(key);
	free(seen);
}

void an_table_opts(struct an_table *t, const struct an_query *q)
{
	an_opts_init(&t->opts);
	t->opts.conv = q->conv;
	t->opts.test = q->test;
	t->opts.alpha = q->alpha;
	t->opts.delta = q->threshold;
	t->use_flagged = q->use_flagged;
}

int an_compare_build(struct db *db, const struct an_query *q, struct an_table *t,
		     struct kb_err *err)
{
	struct build b;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	memset(&b, 0, sizeof(b));
	b.db = db;
	b.q = q;
	if (!(q->threshold >= 0) || !(q->alpha > 0 && q->alpha < 1))
		return kb_err_set(err, "", 0, "threshold must be >= 0 and alpha in (0, 1)");
	an_table_opts(t, q);
	if (resolve_variants(&b, err) < 0)
		goto out;
	if (q->nvariants) {
		/* the variants named and the baseline, by id */
		size_t n = q->nvariants;

		if (q->baseline)
			b.sel[n++] = b.base_id;
		if (an_query_load_ids(db, q, b.sel, n, &b.d, err) < 0)
			goto out;
	} else if (q->baseline && q->baseline_rows_only && !q->near) {
		if (near_load(&b, t, err) < 0)
			goto out;
	} else if (an_query_load(db, q, &b.d, err) < 0) {
		goto out;
	}
	collect_samples(&b);
	collect_summaries(&b);
	if (pick_variants(&b, t, err) < 0)
		goto out;
	if (!b.decided)
		decide_across(&b, t);
	t->across = b.across;
	if (build_rows(&b, t, err) < 0)
		goto out;
	if (b.decided)
		t->nmachines = b.nmachines_all;
	t->defer_bh = q->defer_bh;
	compare_rows(t);
	rc = 0;
out:
	free(b.obs);
	free(b.sums);
	free(b.sumalt);
	tindex_release(&b.sumix);
	free(b.dsums);
	free(b.mnames);
	tindex_release(&b.mnix);
	free(b.sel);
	db_qdata_release(&b.d);
	if (rc < 0)
		an_table_release(t);
	return rc;
}

void an_table_release(struct an_table *t)
{
	size_t r, v;

	for (r = 0; r < t->nrows; r++) {
		struct an_row *row = &t->rows[r];
		for (v = 0; v < t->nvariants; v++) {
			free(row->cells[v].values);
			free(row->cells[v].note);
			free(row->cells[v].pub_mark);
		}
		free(row->cells);
		free(row->benchmark);
		free(row->machine);
		free(row->config);
		free(row->metric);
		free(row->unit);
	}
	for (v = 0; v < t->nvariants; v++) {
		free(t->variants[v].name);
		free(t->variants[v].description);
	}
	free(t->rows);
	free(t->variants);
	free(t->warning);
	memset(t, 0, sizeof(*t));
}
