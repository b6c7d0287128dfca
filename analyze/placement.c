/*
 * placement.c - NUMA placement metrics and anomaly checks (see placement.h).
 *
 * Why these checks: seed 003 (sched-2.5.59-D7) shows a scheduler that
 * loads one node before the next when the machine is lightly loaded --
 * at 4 tasks on 4 nodes every job's main node is node 0 (4/0/0/0) where
 * the stock kernel spread them (2/1/1/0).  But placement varies from run
 * to run (a lab's stock kernel uses 2, 3 or 4 nodes for 4 tasks), so one
 * run per kernel cannot tell a packing scheduler from a packed run: every
 * check compares the candidate's runs with the baseline's by a test over
 * runs, and says `inconclusive` when the data cannot carry one.  The jobs
 * of one run share its boot and placement; they are never counted as
 * replicates.
 */
#include "placement.h"
#include "compare.h"

#include "../core/buf.h"
#include "../core/util.h"
#include "../db/placement.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void an_placement_opts_init(struct an_placement_opts *o)
{
	o->cpus_per_node = 4;
	o->cpus_per_node_given = 0;
	o->split_below = 90.0;
	o->share_min = 10.0;
	o->spread_min = 0.5;
	o->alpha = 0.05;
	o->across = 0;
}

int an_pjob_main_node(const struct db_pjob *j, int nnodes)
{
	int k, best = -1;

	if (j->main_node >= 0)
		return j->main_node;
	for (k = 0; k < nnodes; k++)
		if (!isnan(j->pct[k]) && (best < 0 || j->pct[k] > j->pct[best]))
			best = k;
	return best;
}

static void run_metrics(const struct db_prun *r, const struct an_placement_opts *o,
			struct an_prun *m)
{
	double sum_moved = 0, sum_stayed = 0;
	size_t n_moved_user = 0, n_stayed_user = 0, k;
	int node, nnodes = r->nnodes > 0 ? r->nnodes : 1;

	memset(m, 0, sizeof(*m));
	m->run_id = r->run_id;
	m->variant_id = r->variant_id;
	m->variant = r->variant;
	m->benchmark = r->benchmark;
	m->config = r->config;
	m->source = r->source;
	m->machine = r->machine_key;
	m->tasks = r->tasks > 0 ? r->tasks : (long)r->njobs;
	m->nnodes = r->nnodes;
	m->njobs = r->njobs;
	m->jobs_per_node = xcalloc((size_t)nnodes, sizeof(int));
	for (k = 0; k < r->njobs; k++) {
		const struct db_pjob *j = &r->jobs[k];
		double best = NAN;
		int mnode = an_pjob_main_node(j, r->nnodes);
		int moved = j->moved || (j->initial_node >= 0 && mnode >= 0 &&
					 j->initial_node != mnode);

		if (mnode >= 0 && mnode < nnodes)
			m->jobs_per_node[mnode]++;
		for (node = 0; node < r->nnodes; node++)
			if (!isnan(j->pct[node]) && (isnan(best) || j->pct[node] > best))
				best = j->pct[node];
		if (!isnan(best) && best < o->split_below)
			m->nsplit++;
		if (moved)
			m->nmoved++;
		if (!isnan(j->user)) {
			if (moved) {
				sum_moved += j->user;
				n_moved_user++;
			} else {
				sum_stayed += j->user;
				n_stayed_user++;
			}
		}
	}
	for (node = 0; node < nnodes; node++) {
		if (m->jobs_per_node[node] > 0)
			m->nodes_used++;
		if (m->jobs_per_node[node] > m->max_per_node)
			m->max_per_node = m->jobs_per_node[node];
	}
	m->nodes_possible = (int)(m->tasks < r->nnodes ? m->tasks : r->nnodes);
	if (m->nodes_possible < 1)
		m->nodes_possible = 1;
	m->even_share = (double)r->njobs / m->nodes_possible;
	m->moved_pct = r->njobs ? 100.0 * (double)m->nmoved / (double)r->njobs : NAN;
	m->split_pct = r->njobs ? 100.0 * (double)m->nsplit / (double)r->njobs : NAN;
	m->user_moved = n_moved_user ? sum_moved / (double)n_moved_user : NAN;
	m->user_stayed = n_stayed_user ? sum_stayed / (double)n_stayed_user : NAN;
	m->moved_penalty_pct = (n_moved_user && n_stayed_user && m->user_stayed > 0)
		? (m->user_moved - m->user_stayed) / m->user_stayed * 100.0 : NAN;
	/* The machine's CPUs per node when kbench run (lscpu, numactl -H)
	 * or an imported numactl -H recorded them; the option's guess only
	 * where nothing did, or when the user says so. */
	m->cpus_per_node = o->cpus_per_node;
	m->cpn_machine = 0;
	if (!o->cpus_per_node_given && r->machine_cpus > 0 && r->machine_nodes > 0) {
		m->cpus_per_node = r->machine_cpus / r->machine_nodes;
		if (m->cpus_per_node < 1)
			m->cpus_per_node = 1;
		m->cpn_machine = 1;
	}
	m->light = m->cpus_per_node > 0 &&
		   m->tasks <= (long)r->nnodes * (long)m->cpus_per_node;
	m->packed = m->light && r->njobs > 0 && m->nodes_used < m->nodes_possible;
}

void an_placement_metrics(const struct db_placement *p,
			  const struct an_placement_opts *o,
			  struct an_placement *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!p->nruns)
		return;
	out->runs = xcalloc(p->nruns, sizeof(*out->runs));
	out->nruns = p->nruns;
	for (i = 0; i < p->nruns; i++)
		run_metrics(&p->runs[i], o, &out->runs[i]);
}

static const char *keep(struct an_placement *m, size_t *cap, const char *s)
{
	if (!s)
		return NULL;
	xgrow(&m->strings, cap, m->nstrings + 1, sizeof(char *));
	m->strings[m->nstrings] = xstrdup(s);
	return m->strings[m->nstrings++];
}

void an_placement_view(const struct an_placement *all, const size_t *pick, size_t n,
		       struct an_placement *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->borrowed = 1;
	if (!n)
		return;
	out->runs = xcalloc(n, sizeof(*out->runs));
	out->nruns = n;
	for (i = 0; i < n; i++)
		out->runs[i] = all->runs[pick[i]];
}

void an_placement_detach(struct an_placement *m)
{
	size_t i, cap = m->nstrings;

	for (i = 0; i < m->nruns; i++) {
		struct an_prun *r = &m->runs[i];

		if (m->borrowed) {
			int nn = r->nnodes > 0 ? r->nnodes : 1;
			int *own = xcalloc((size_t)nn, sizeof(int));

			memcpy(own, r->jobs_per_node, (size_t)nn * sizeof(int));
			r->jobs_per_node = own;
		}

		r->variant = keep(m, &cap, r->variant);
		r->benchmark = keep(m, &cap, r->benchmark);
		r->config = keep(m, &cap, r->config);
		r->source = keep(m, &cap, r->source);
		r->machine = keep(m, &cap, r->machine);
	}
	m->borrowed = 0;
}

void an_placement_release(struct an_placement *m)
{
	size_t i;

	for (i = 0; i < m->nruns && !m->borrowed; i++)
		free(m->runs[i].jobs_per_node);
	for (i = 0; i < m->nstrings; i++)
		free(m->strings[i]);
	free(m->runs);
	free(m->strings);
	memset(m, 0, sizeof(*m));
}

void an_prun_jobs_per_node(const struct an_prun *r, char *out, size_t n)
{
	size_t len = 0;
	int node;

	if (!n)
		return;
	out[0] = '\0';
	for (node = 0; node < r->nnodes && len + 1 < n; node++) {
		int w = snprintf(out + len, n - len, "%s%d", node ? "/" : "",
				 r->jobs_per_node[node]);
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

/* The placement index (placement.h) ------------------------------------ */

static int pkey_cmp(const struct an_pkey *r, const struct an_pkey *k, int across)
{
	int c = strcmp(r->variant, k->variant);

	if (c || k->depth < 2)
		return c;
	c = strcmp(r->bench, k->bench);
	if (c || k->depth < 3)
		return c;
	c = across ? 0 : an_machine_cmp(r->machine, k->machine);
	if (c || k->depth < 4)
		return c;
	return r->tasks < k->tasks ? -1 : r->tasks > k->tasks;
}

static int cmp_pindex(const void *pa, const void *pb, void *ctx)
{
	const struct an_pindex *ix = ctx;
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
	int c = pkey_cmp(&ix->keys[x], &ix->keys[y], ix->across);

	return c ? c : x < y ? -1 : x > y;
}

static void pindex_sort(struct an_pindex *ix)
{
	size_t i;

	ix->idx = xcalloc(ix->n + 1, sizeof(*ix->idx));
	for (i = 0; i < ix->n; i++)
		ix->idx[i] = i;
	qsort_r(ix->idx, ix->n, sizeof(*ix->idx), cmp_pindex, ix);
}

void an_pindex_init(struct an_pindex *ix, const struct an_placement *m, int across)
{
	size_t i;

	ix->n = m->nruns;
	ix->across = across;
	ix->keys = xcalloc(m->nruns + 1, sizeof(*ix->keys));
	for (i = 0; i < m->nruns; i++) {
		const struct an_prun *r = &m->runs[i];

		ix->keys[i] = (struct an_pkey){ r->variant, r->benchmark, r->machine, r->tasks, 4 };
	}
	pindex_sort(ix);
}

void an_pindex_init_db(struct an_pindex *ix, const struct db_placement *p)
{
	size_t i;

	ix->n = p->nruns;
	ix->across = 0;
	ix->keys = xcalloc(p->nruns + 1, sizeof(*ix->keys));
	for (i = 0; i < p->nruns; i++) {
		const struct db_prun *r = &p->runs[i];

		/* the task count as the metrics take it (run_metrics) */
		ix->keys[i] = (struct an_pkey){ r->variant, r->benchmark, r->machine_key,
						r->tasks > 0 ? r->tasks : (long)r->njobs, 4 };
	}
	pindex_sort(ix);
}

void an_pindex_release(struct an_pindex *ix)
{
	free(ix->keys);
	free(ix->idx);
	memset(ix, 0, sizeof(*ix));
}

void an_pindex_range(const struct an_pindex *ix, const struct an_pkey *k, size_t *lo, size_t *hi)
{
	size_t a = 0, b = ix->n;

	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (pkey_cmp(&ix->keys[ix->idx[mid]], k, ix->across) < 0)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a;
	for (b = a; b < ix->n && pkey_cmp(&ix->keys[ix->idx[b]], k, ix->across) == 0; b++)
		;
	*hi = b;
}

void an_pindex_variant(const struct an_pindex *ix, const char *variant, size_t *lo, size_t *hi)
{
	struct an_pkey k = { variant, NULL, NULL, 0, 1 };

	an_pindex_range(ix, &k, lo, hi);
}

/* Findings ---------------------------------------------------------------- */

/* The runs of one variant on one machine at one (benchmark, task count). */
struct group {
	const struct an_prun **r;
	size_t n;
};

/* The runs of one key (depth 4), in order. */
static void group_collect(const struct an_pindex *ix, const struct an_placement *m,
			  const struct an_pkey *k, struct group *g)
{
	size_t lo, hi, i;

	g->r = NULL;
	g->n = 0;
	an_pindex_range(ix, k, &lo, &hi);
	if (hi == lo)
		return;
	g->r = xmalloc((hi - lo) * sizeof(*g->r));
	for (i = lo; i < hi; i++)
		g->r[g->n++] = &m->runs[ix->idx[i]];
}

/* A (benchmark, machine, tasks) group of one variant, by its first run. */
struct pgroup {
	size_t first;		/* index into m->runs */
};

static int cmp_pgroup(const void *a, const void *b)
{
	size_t x = ((const struct pgroup *)a)->first, y = ((const struct pgroup *)b)->first;
	return x < y ? -1 : x > y;
}

static void describe_group(struct buf *b, const struct group *g, int nruns_max)
{
	char jpn[256];
	size_t i;

	for (i = 0; i < g->n && (int)i < nruns_max; i++) {
		const struct an_prun *r = g->r[i];

		an_prun_jobs_per_node(r, jpn, sizeof(jpn));
		buf_printf(b, "%srun %lld: jobs per node %s, %d of %d nodes used",
			   i ? "; " : "", r->run_id, jpn, r->nodes_used, r->nodes_possible);
		if (r->nodes_used == 1 && r->njobs > 1) {
			int node;
			for (node = 0; node < r->nnodes; node++)
				if (r->jobs_per_node[node])
					buf_printf(b, " (all %zu jobs' main node is node %d)", r->njobs, node);
		}
		if (r->nmoved)
			buf_printf(b, ", %zu moved", r->nmoved);
		if (r->nsplit)
			buf_printf(b, ", %zu split", r->nsplit);
	}
	if (g->n > (size_t)nruns_max)
		buf_printf(b, "; and %zu more runs", g->n - (size_t)nruns_max);
}

static struct an_pfinding *pf_new(struct an_pfindings *out, const char *check,
				  const char *variant, const char *baseline,
				  const struct group *cand, const struct group *base)
{
	struct an_pfinding *f;
	size_t i;

	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	f = &out->v[out->n++];
	memset(f, 0, sizeof(*f));
	f->check = check;
	f->variant = variant;
	f->baseline = baseline;
	f->benchmark = cand->r[0]->benchmark;
	f->config = cand->r[0]->config;
	f->machine = out->across ? NULL : cand->r[0]->machine;
	f->tasks = cand->r[0]->tasks;
	f->p = f->q = NAN;
	f->base_value = f->value = f->change_pct = NAN;
	f->ncand_runs = cand->n;
	f->nbase_runs = base ? base->n : 0;
	f->runs = xmalloc((f->ncand_runs + f->nbase_runs + 1) * sizeof(long long));
	for (i = 0; i < cand->n; i++)
		f->runs[i] = cand->r[i]->run_id;
	for (i = 0; base && i < base->n; i++)
		f->runs[cand->n + i] = base->r[i]->run_id;
	return f;
}

static void evidence(struct an_pfinding *f, const char *what, const struct group *cand,
		     const struct group *base)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s: %s (tasks=%ld) ", what, f->variant, f->tasks);
	describe_group(&b, cand, 4);
	if (base && base->n) {
		buf_printf(&b, " | baseline %s ", f->baseline);
		describe_group(&b, base, 4);
	} else {
		buf_printf(&b, " | baseline %s has no run at tasks=%ld", f->baseline, f->tasks);
	}
	f->evidence = buf_detach(&b);
}

/* Verdict of a difference d (positive = worse) that must reach min and a
 * p-value that must reach alpha.  Without a test (one run on a side, p
 * NaN) nothing is decided, "same" included: equal values of one run each
 * are no more evidence than different ones. */
static enum an_verdict decide(double d, double min, double p, double alpha)
{
	if (isnan(d))
		return AN_VERDICT_NONE;
	if (isnan(p))
		return AN_VERDICT_INCONCLUSIVE;
	if (fabs(d) < min)
		return AN_VERDICT_SAME;
	if (!isnan(p) && p <= alpha)
		return d > 0 ? AN_VERDICT_WORSE : AN_VERDICT_BETTER;
	return AN_VERDICT_INCONCLUSIVE;
}

/* Is check one of the nodes-used checks (the others are shares)? */
static int nodes_check(const char *check)
{
	return strcmp(check, "light_load_packed") == 0 || strcmp(check, "node_spread") == 0;
}

/* The verdict of a finding from its values and q (again after BH). */
static enum an_verdict pf_decide(const struct an_pfinding *f, const struct an_placement_opts *o)
{
	if (nodes_check(f->check))
		return decide(f->base_value - f->value, o->spread_min, f->q, o->alpha);
	return decide(f->change_pct, o->share_min, f->q, o->alpha);
}

/* The per-run values of a group into x (caller frees); their mean. */
static double group_values(const struct group *g, double (*value)(const struct an_prun *),
			   double **x, size_t *n)
{
	double s = 0;
	size_t i;

	*x = xmalloc((g->n + 1) * sizeof(**x));
	*n = 0;
	for (i = 0; i < g->n; i++) {
		double v = value(g->r[i]);

		if (isnan(v))
			continue;
		(*x)[(*n)++] = v;
		s += v;
	}
	return *n ? s / (double)*n : NAN;
}

/* The test over runs: the two-sided exact rank test of the runs' values
 * (analyze/stats.h an_rank_test), or none with one run on a side. */
static void test_over_runs(struct an_pfinding *f, const double *xc, size_t nc,
			   const double *xb, size_t nb, struct buf *b)
{
	f->n = nc;
	f->base_n = nb;
	if (nc < 2 || nb < 2) {
		f->p = f->q = NAN;
		buf_printf(b, "; %zu run%s against %zu: no test over runs (the jobs of one run are not replicates)",
			   nc, nc == 1 ? "" : "s", nb);
		return;
	}
	f->p = f->q = an_rank_test_p(xc, nc, xb, nb);
	buf_printf(b, "; rank test over runs, %zu against %zu: p=%.2g", nc, nb, f->p);
}

/* A check's end: the test over runs, the verdict, the evidence with
 * what; frees xc, xb and what's text. */
static void finish_check(struct an_pfinding *f, double *xc, size_t nc, double *xb, size_t nb,
			 struct buf *what, const struct group *cand, const struct group *base,
			 const struct an_placement_opts *o)
{
	char *w;

	test_over_runs(f, xc, nc, xb, nb, what);
	f->verdict = pf_decide(f, o);
	w = buf_detach(what);
	evidence(f, w, cand, base);
	free(w);
	free(xc);
	free(xb);
}

static double run_nodes_used(const struct an_prun *r)
{
	return r->njobs ? (double)r->nodes_used : NAN;
}

static double run_moved_pct(const struct an_prun *r)
{
	return r->moved_pct;
}

static double run_split_pct(const struct an_prun *r)
{
	return r->split_pct;
}

static void put_values(struct buf *b, const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 8; i++)
		buf_printf(b, "%s%.3g", i ? "/" : "", x[i]);
	if (n > 8)
		buf_printf(b, "/... (%zu runs)", n);
}

/*
 * Nodes used per run against the baseline's, on the same machine and task
 * count: light_load_packed at light load (where a scheduler that fills
 * one node first shows), node_spread otherwise.  Packing is worse only
 * when the candidate's runs use fewer nodes than the baseline's by a test
 * over runs: using as few nodes as the baseline is the same, and
 * spreading wider can only be better.
 */
static void check_nodes(struct an_pfindings *out, const char *variant, const char *baseline,
			const struct group *cand, const struct group *base,
			const struct an_placement_opts *o)
{
	int light = cand->r[0]->light;
	struct an_pfinding *f = pf_new(out, light ? "light_load_packed" : "node_spread", variant,
				       baseline, cand, base);
	struct buf what = BUF_INIT;
	double *xc, *xb;
	size_t nc, nb, i, cpk = 0, bpk = 0;

	f->value = group_values(cand, run_nodes_used, &xc, &nc);
	f->base_value = group_values(base, run_nodes_used, &xb, &nb);
	f->change_pct = f->base_value > 0 ? (f->value - f->base_value) / f->base_value * 100 : NAN;
	for (i = 0; i < cand->n; i++)
		cpk += cand->r[i]->packed;
	for (i = 0; i < base->n; i++)
		bpk += base->r[i]->packed;
	buf_printf(&what, "nodes used per run ");
	put_values(&what, xc, nc);
	buf_printf(&what, " against ");
	put_values(&what, xb, nb);
	if (light)
		buf_printf(&what, " (light load: %ld tasks <= %d nodes x %d CPUs%s; runs on fewer than %d nodes: %zu of %zu against %zu of %zu)",
			   cand->r[0]->tasks, cand->r[0]->nnodes, cand->r[0]->cpus_per_node,
			   cand->r[0]->cpn_machine ? " (the machine's)" : "",
			   cand->r[0]->nodes_possible, cpk, cand->n, bpk, base->n);
	finish_check(f, xc, nc, xb, nb, &what, cand, base, o);
}

/* The mean user-time penalty of moved jobs over g's runs that have
 * both moved and stayed jobs; NaN when none has. */
static double mean_penalty(const struct group *g)
{
	double s = 0;
	size_t i, k = 0;

	for (i = 0; i < g->n; i++)
		if (!isnan(g->r[i]->moved_penalty_pct)) {
			s += g->r[i]->moved_penalty_pct;
			k++;
		}
	return k ? s / (double)k : NAN;
}

/* Moved or split jobs: the share of a run's jobs, per run, against the
 * baseline's runs (the jobs of one run share its boot and its
 * placement: they are not replicates). */
static void check_share(struct an_pfindings *out, const char *check, const char *variant,
			const char *baseline, const struct group *cand, const struct group *base,
			const struct an_placement_opts *o)
{
	struct an_pfinding *f;
	size_t i, cj = 0, bj = 0, cx = 0, bx = 0, nc, nb;
	int moved = strcmp(check, "moved_jobs") == 0;
	double *xc, *xb;
	struct buf what = BUF_INIT;

	for (i = 0; i < cand->n; i++) {
		cj += cand->r[i]->njobs;
		cx += moved ? cand->r[i]->nmoved : cand->r[i]->nsplit;
	}
	for (i = 0; i < base->n; i++) {
		bj += base->r[i]->njobs;
		bx += moved ? base->r[i]->nmoved : base->r[i]->nsplit;
	}
	if (!cj || !bj)
		return;
	f = pf_new(out, check, variant, baseline, cand, base);
	f->value = group_values(cand, moved ? run_moved_pct : run_split_pct, &xc, &nc);
	f->base_value = group_values(base, moved ? run_moved_pct : run_split_pct, &xb, &nb);
	f->change_pct = f->value - f->base_value;
	if (moved) {
		double pc, pb;
		char pcs[32] = "n/a", pbs[32] = "n/a";

		pc = mean_penalty(cand);
		pb = mean_penalty(base);
		if (!isnan(pc))
			snprintf(pcs, sizeof(pcs), "%+.1f%%", pc);
		if (!isnan(pb))
			snprintf(pbs, sizeof(pbs), "%+.1f%%", pb);
		buf_printf(&what, "moved jobs %zu of %zu vs %zu of %zu; per run ", cx, cj, bx, bj);
		put_values(&what, xc, nc);
		buf_puts(&what, "% against ");
		put_values(&what, xb, nb);
		buf_printf(&what, "%% (mean %.1f%% vs %.1f%%); user-time penalty of moved jobs %s vs %s",
			   f->value, f->base_value, pcs, pbs);
	} else {
		buf_printf(&what, "split jobs (max node share below %.0f%%) %zu of %zu vs %zu of %zu; per run ",
			   o->split_below, cx, cj, bx, bj);
		put_values(&what, xc, nc);
		buf_puts(&what, "% against ");
		put_values(&what, xb, nb);
		buf_printf(&what, "%% (mean %.1f%% vs %.1f%%)", f->value, f->base_value);
	}
	finish_check(f, xc, nc, xb, nb, &what, cand, base, o);
}

static int seen(const char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

void an_placement_findings(const struct an_placement *m, const char *baseline,
			   const char *const *candidates, size_t ncandidates,
			   const struct an_placement_opts *o,
			   struct an_pfindings *out)
{
	const char **vars = NULL;
	struct an_pindex ix;
	struct pgroup *groups;
	size_t nvars = 0, v, i, k;
	double *p;
	size_t np = 0;

	memset(out, 0, sizeof(*out));
	out->across = o->across;
	if (!baseline)
		return;
	an_pindex_init(&ix, m, o->across);
	/* Candidates in the order given, else in placement (variant id) order. */
	if (candidates && ncandidates) {
		vars = xmalloc(ncandidates * sizeof(*vars));
		for (i = 0; i < ncandidates; i++)
			if (strcmp(candidates[i], baseline) != 0 && !seen(vars, nvars, candidates[i]))
				vars[nvars++] = candidates[i];
	} else {
		/* Every variant but the baseline, in order of its first run:
		 * each variant's range starts with its first run. */
		struct pgroup *first = xcalloc(m->nruns + 1, sizeof(*first));
		size_t nfirst = 0;

		for (i = 0; i < ix.n; i++)
			if (i == 0 || strcmp(m->runs[ix.idx[i - 1]].variant,
					     m->runs[ix.idx[i]].variant) != 0)
				first[nfirst++].first = ix.idx[i];
		qsort(first, nfirst, sizeof(*first), cmp_pgroup);
		vars = xmalloc((m->nruns + 1) * sizeof(*vars));
		for (i = 0; i < nfirst; i++)
			if (strcmp(m->runs[first[i].first].variant, baseline) != 0)
				vars[nvars++] = m->runs[first[i].first].variant;
		free(first);
	}
	groups = xcalloc(m->nruns + 1, sizeof(*groups));
	for (v = 0; v < nvars; v++) {
		size_t lo, hi, ng = 0, gi;

		/* Visit each (benchmark, machine, tasks) once, in the order of
		 * its first run. */
		an_pindex_variant(&ix, vars[v], &lo, &hi);
		for (i = lo; i < hi; i++)
			if (i == lo || pkey_cmp(&ix.keys[ix.idx[i - 1]], &ix.keys[ix.idx[i]],
						ix.across) != 0)
				groups[ng++].first = ix.idx[i];
		qsort(groups, ng, sizeof(*groups), cmp_pgroup);
		for (gi = 0; gi < ng; gi++) {
			struct an_pkey ck = ix.keys[groups[gi].first], bk = ck;
			struct group cand, base;

			bk.variant = baseline;
			group_collect(&ix, m, &ck, &cand);
			group_collect(&ix, m, &bk, &base);
			/* Nothing to compare without the baseline's runs. */
			if (base.n) {
				check_nodes(out, vars[v], baseline, &cand, &base, o);
				check_share(out, "moved_jobs", vars[v], baseline, &cand, &base, o);
				check_share(out, "split_jobs", vars[v], baseline, &cand, &base, o);
			}
			free(cand.r);
			free(base.r);
		}
	}
	free(groups);
	an_pindex_release(&ix);
	free(vars);

	/* BH over the tests, then decide again with q. */
	p = xmalloc((out->n + 1) * sizeof(double));
	for (k = 0; k < out->n; k++)
		p[k] = out->v[k].p;
	np = out->n;
	an_bh(p, np, p);
	for (k = 0; k < out->n; k++) {
		struct an_pfinding *f = &out->v[k];
		if (isnan(f->p))
			continue;
		f->q = p[k];
		f->verdict = pf_decide(f, o);
	}
	free(p);
}

void an_pfindings_release(struct an_pfindings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].evidence);
		free(f->v[i].runs);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}
