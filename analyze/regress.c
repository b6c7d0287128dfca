/*
 * regress.c - findings against a baseline: the comparison table's
 * verdicts (performance) plus numa placement checks (see regress.h).
 */
#include "regress.h"
#include "qload.h"

#include "../core/buf.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/placement.h"
#include "../db/query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void an_regress_opts_init(struct an_regress_opts *o)
{
	memset(o, 0, sizeof(*o));
	an_query_init(&o->q);
	an_placement_opts_init(&o->placement);
}

const char *an_finding_kind_name(enum an_finding_kind k)
{
	return k == AN_FINDING_PLACEMENT ? "placement" : "performance";
}

int an_finding_is_regression(const struct an_finding *f)
{
	return f->verdict == AN_VERDICT_WORSE;
}

static void finding_free(struct an_finding *f)
{
	free(f->benchmark);
	free(f->config);
	free(f->metric);
	free(f->unit);
	free(f->variant);
	free(f->baseline);
	free(f->machine);
	free(f->base_machine);
	free(f->cand_machine);
	free(f->evidence);
	free(f->runs);
}

static struct an_finding *finding_new(struct an_regress *r)
{
	struct an_finding *f;

	r->findings = xrealloc(r->findings, (r->nfindings + 1) * sizeof(*r->findings));
	f = &r->findings[r->nfindings++];
	memset(f, 0, sizeof(*f));
	f->base_value = f->value = f->change_pct = NAN;
	f->ci_low = f->ci_high = f->p = f->q = f->runs_needed = NAN;
	return f;
}

/* The ok runs sorted by (variant, benchmark, config), each key's runs in
 * load order: the runs behind a cell are looked up, not scanned for (a
 * store's worth of findings times its runs). */
struct run_ix {
	const struct db_qdata *q;
	size_t *idx;
	size_t n;
};

static int run_key_cmp(const struct db_qrun *a, long long vid, const char *bench,
		       const char *config)
{
	int c;

	if (a->variant_id != vid)
		return a->variant_id < vid ? -1 : 1;
	c = strcmp(a->benchmark, bench);
	return c ? c : strcmp(a->config, config);
}

static int cmp_run_ix(const void *pa, const void *pb, void *ctx)
{
	const struct db_qdata *q = ctx;
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
	const struct db_qrun *b = &q->runs[y];
	int c = run_key_cmp(&q->runs[x], b->variant_id, b->benchmark, b->config);

	return c ? c : x < y ? -1 : x > y;
}

static void run_ix_build(struct run_ix *ix, const struct db_qdata *q)
{
	size_t i;

	ix->q = q;
	ix->idx = xcalloc(q->nruns + 1, sizeof(*ix->idx));
	ix->n = 0;
	for (i = 0; i < q->nruns; i++)
		if (q->runs[i].ok)
			ix->idx[ix->n++] = i;
	qsort_r(ix->idx, ix->n, sizeof(*ix->idx), cmp_run_ix, (void *)q);
}

/* Run ids of (variant, benchmark, config), on machine when given: the
 * runs behind a cell, in load order. */
static void add_runs(struct an_finding *f, const struct run_ix *ix, long long variant_id,
		     const char *bench, const char *machine, const char *config, int is_baseline)
{
	size_t lo = 0, hi = ix->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (run_key_cmp(&ix->q->runs[ix->idx[mid]], variant_id, bench, config) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < ix->n; i++) {
		const struct db_qrun *r = &ix->q->runs[ix->idx[i]];
		if (run_key_cmp(r, variant_id, bench, config) != 0)
			break;
		if (machine && (!r->machine_key || strcmp(r->machine_key, machine) != 0))
			continue;
		f->runs = xrealloc(f->runs, (f->nruns + 1) * sizeof(*f->runs));
		f->runs[f->nruns].id = r->id;
		f->runs[f->nruns].is_baseline = is_baseline;
		f->nruns++;
	}
}

static int cmp_size(const void *pa, const void *pb)
{
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;

	return x < y ? -1 : x > y;
}

/* "n=5", "n=5 (published summary)", "n unknown (published summary)" */
static void evidence_n(struct buf *ev, const struct an_cell *c)
{
	if (c->d.n)
		buf_printf(ev, "n=%zu", c->d.n);
	else
		buf_puts(ev, "n unknown");
	if (c->origin == AN_ORIGIN_SUMMARY)
		buf_puts(ev, " (published summary)");
}

static void performance(struct an_regress *r, const struct an_table *t,
			const struct run_ix *q, const struct an_regress_opts *o)
{
	const struct an_variant *bv = &t->variants[t->baseline];
	size_t i, v;

	for (i = 0; i < t->nrows; i++) {
		const struct an_row *row = &t->rows[i];
		const struct an_cell *bc = &row->cells[t->baseline];

		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *c = &row->cells[v];
			struct an_finding *f;
			struct buf ev = BUF_INIT;
			const char *fl[16];
			size_t nf, k;

			/* With candidates, the table holds the baseline and them
			 * only.  A footnoted published cell left out of the tests is
			 * listed as inconclusive, with its flag, not dropped. */
			int untested = !c->has_change && c->origin != AN_ORIGIN_NONE &&
				       bc->origin != AN_ORIGIN_NONE &&
				       ((c->flags | bc->flags) & AN_F_FOOTNOTED);

			if (v == t->baseline || (!untested && (!c->has_change ||
							       c->chg.verdict == AN_VERDICT_NONE)))
				continue;
			if (o->lean && !untested && c->chg.verdict == AN_VERDICT_SAME) {
				r->ndropped[0][4]++;
				continue;
			}
			f = finding_new(r);
			f->kind = AN_FINDING_PERFORMANCE;
			f->verdict = untested ? AN_VERDICT_INCONCLUSIVE : c->chg.verdict;
			f->benchmark = xstrdup(row->benchmark);
			f->config = xstrdup(row->config);
			f->metric = xstrdup(row->metric);
			f->unit = xstrdup(row->unit ? row->unit : "");
			f->variant = xstrdup(t->variants[v].name);
			f->baseline = xstrdup(bv->name);
			/* Named when it matters: several machines, or one known by name. */
			f->machine = row->machine && (t->nmachines > 1 ||
						      strncmp(row->machine, "unknown@", 8) != 0)
					     ? xstrdup(row->machine) : NULL;
			f->dir = row->dir;
			f->base_value = bc->d.mean;
			f->value = c->d.mean;
			f->change_pct = untested ? NAN : c->chg.change;
			f->ci_low = c->chg.ci_low;
			f->ci_high = c->chg.ci_high;
			f->p = c->chg.p;
			f->q = c->chg.q;
			f->runs_needed = c->chg.runs_needed;
			if (untested)
				f->ci_low = f->ci_high = f->p = f->q = f->runs_needed = NAN;
			f->base_n = bc->d.n;
			f->n = c->d.n;
			f->flags = c->flags | bc->flags;
			/* No test possible (a published number without n), but the
			 * source's own test marks the change, against this baseline
			 * (compare shows a cell's published verdict only then): its
			 * verdict, said to be its, in kbench's direction and delta. */
			if (!untested && !o->own_verdicts && f->verdict == AN_VERDICT_INCONCLUSIVE &&
			    isnan(c->chg.p) && c->published && c->pub_mark && strchr(c->pub_mark, '*') &&
			    bc->origin == AN_ORIGIN_SUMMARY && !isnan(c->chg.raw) &&
			    fabs(c->chg.raw) >= t->opts.delta) {
				f->verdict = row->dir == AN_DIR_NONE ? AN_VERDICT_CHANGED
					     : (row->dir == AN_DIR_HIGHER) == (c->chg.raw > 0) ? AN_VERDICT_BETTER
					     : AN_VERDICT_WORSE;
				f->by_source = 1;
				f->runs_needed = NAN;
			}
			if (f->machine)
				buf_printf(&ev, "on %s: ", f->machine);
			buf_printf(&ev, "%s ", bv->name);
			evidence_n(&ev, bc);
			buf_printf(&ev, " vs %s ", t->variants[v].name);
			evidence_n(&ev, c);
			if (c->flags & AN_F_JOBS)
				buf_printf(&ev, " runs, each the mean of its jobs (jobs sd within runs %.3g vs %.3g)",
					   bc->job_sd, c->job_sd);
			nf = an_flag_names(f->flags, fl, 16);
			for (k = 0; k < nf && k < 16; k++)
				buf_printf(&ev, "%s%s", k ? "," : "; flags ", fl[k]);
			if (untested)
				buf_puts(&ev, "; footnoted in the post: not tested (--use-flagged tests it)");
			if (f->by_source) {
				buf_puts(&ev, "; the source's own verdict: its table marks ");
				if (!isnan(c->pub_change))
					buf_printf(&ev, "%+.2f%%%s", c->pub_change, c->pub_mark);
				else
					buf_printf(&ev, "the change ('%s')", c->pub_mark);
				buf_printf(&ev, " significant against %s, and kbench cannot test a "
					   "published number without n (--own-verdicts leaves it "
					   "inconclusive)", bv->name);
			}
			if (c->note && *c->note)
				buf_printf(&ev, "; %s", c->note);
			if (bc->note && *bc->note && bc->note != c->note)
				buf_printf(&ev, "; baseline: %s", bc->note);
			f->evidence = buf_detach(&ev);
			if (q) {
				add_runs(f, q, bv->id, row->benchmark, row->machine, row->config, 1);
				add_runs(f, q, t->variants[v].id, row->benchmark, row->machine,
					 row->config, 0);
			}
		}
	}
}

/* Lean: a placement finding keeps this many runs of each side. */
#define LEAN_RUNS 8

static void placement(struct an_regress *r, const struct an_pfindings *pf, size_t nmachines,
		      int lean)
{
	size_t i, k;

	for (i = 0; i < pf->n; i++) {
		const struct an_pfinding *p = &pf->v[i];
		struct an_finding *f;
		int share = strcmp(p->check, "moved_jobs") == 0 || strcmp(p->check, "split_jobs") == 0;

		if (p->verdict == AN_VERDICT_NONE)
			continue;
		if (lean && p->verdict == AN_VERDICT_SAME) {
			r->ndropped[1][4]++;
			continue;
		}
		f = finding_new(r);
		f->kind = AN_FINDING_PLACEMENT;
		f->verdict = p->verdict;
		f->benchmark = xstrdup(p->benchmark);
		f->config = xstrdup(p->config);
		f->metric = xstrdup(p->check);
		f->unit = xstrdup(share ? "%" : "nodes");
		f->variant = xstrdup(p->variant);
		f->baseline = xstrdup(p->baseline);
		/* Named as a performance finding's machine is. */
		f->machine = p->machine && (nmachines > 1 || strncmp(p->machine, "unknown@", 8) != 0)
				     ? xstrdup(p->machine) : NULL;
		f->dir = share ? AN_DIR_LOWER : AN_DIR_HIGHER;
		f->base_value = p->base_value;
		f->value = p->value;
		f->change_pct = p->change_pct;
		f->p = p->p;
		f->q = p->q;
		f->base_n = p->base_n;
		f->n = p->n;
		f->evidence = xstrdup(p->evidence ? p->evidence : "");
		/* A report draws the first runs of a side (its heatmaps); a
		 * baseline of thousands of runs would be copied into every
		 * finding. */
		{
			size_t nc = p->ncand_runs, nb = p->nbase_runs;

			if (lean && nc > LEAN_RUNS)
				nc = LEAN_RUNS;
			if (lean && nb > LEAN_RUNS)
				nb = LEAN_RUNS;
			f->nruns = nc + nb;
			f->runs = xcalloc(f->nruns + 1, sizeof(*f->runs));
			for (k = 0; k < nc; k++)
				f->runs[k].id = p->runs[k];
			for (k = 0; k < nb; k++) {
				f->runs[nc + k].id = p->runs[p->ncand_runs + k];
				f->runs[nc + k].is_baseline = 1;
			}
		}
	}
}

static int rank(enum an_verdict v)
{
	switch (v) {
	case AN_VERDICT_WORSE: return 0;
	case AN_VERDICT_BETTER: return 1;
	case AN_VERDICT_CHANGED: return 2;
	case AN_VERDICT_INCONCLUSIVE: return 3;
	default: return 4;
	}
}

struct sorted {
	struct an_finding f;
	size_t pos;
};

static int cmp_finding(const void *a, const void *b)
{
	const struct sorted *x = a, *y = b;
	int rx = rank(x->f.verdict), ry = rank(y->f.verdict);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (rx <= 2) {
		double ax = isnan(x->f.change_pct) ? -1 : fabs(x->f.change_pct);
		double ay = isnan(y->f.change_pct) ? -1 : fabs(y->f.change_pct);
		/* Placement rules have no size in percent of a metric: a packed
		 * light load leads its verdict group. */
		if (x->f.kind != y->f.kind)
			return x->f.kind == AN_FINDING_PLACEMENT ? -1 : 1;
		if (ax != ay)
			return ax > ay ? -1 : 1;
	} else if (rx == 3) {
		double nx = isnan(x->f.runs_needed) ? INFINITY : x->f.runs_needed;
		double ny = isnan(y->f.runs_needed) ? INFINITY : y->f.runs_needed;
		if (nx != ny)
			return nx < ny ? -1 : 1;
	}
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * Lean (a report): keep the first LEAN_KEEP findings of each verdict in
 * the final order, count the rest.  The order is total (insertion order
 * breaks ties) and the kept ones stay in insertion order, so pruning as
 * findings come keeps exactly the ones a single sort at the end would.
 */
#define LEAN_KEEP 64

static void prune(struct an_regress *r)
{
	struct sorted *s;
	unsigned char *keep;
	size_t i, k, cnt[5] = { 0 };

	if (r->nfindings <= LEAN_KEEP)
		return;
	s = xmalloc(r->nfindings * sizeof(*s));
	keep = xcalloc(r->nfindings, 1);
	for (i = 0; i < r->nfindings; i++) {
		s[i].f = r->findings[i];
		s[i].pos = i;
	}
	qsort(s, r->nfindings, sizeof(*s), cmp_finding);
	for (i = 0; i < r->nfindings; i++) {
		int rk = rank(s[i].f.verdict);

		if (cnt[rk] < LEAN_KEEP) {
			cnt[rk]++;
			keep[s[i].pos] = 1;
		} else {
			r->ndropped[s[i].f.kind == AN_FINDING_PLACEMENT][rk]++;
			finding_free(&r->findings[s[i].pos]);
		}
	}
	for (i = k = 0; i < r->nfindings; i++)
		if (keep[i])
			r->findings[k++] = r->findings[i];
	r->nfindings = k;
	free(keep);
	free(s);
}

/* prune() once enough findings have come. */
static void maybe_prune(struct an_regress *r, int lean)
{
	if (lean && r->nfindings >= 64 * LEAN_KEEP)
		prune(r);
}

static void order(struct an_regress *r)
{
	struct sorted *s;
	size_t i;

	if (r->nfindings < 2)
		goto count;
	s = xmalloc(r->nfindings * sizeof(*s));
	for (i = 0; i < r->nfindings; i++) {
		s[i].f = r->findings[i];
		s[i].pos = i;
	}
	qsort(s, r->nfindings, sizeof(*s), cmp_finding);
	for (i = 0; i < r->nfindings; i++)
		r->findings[i] = s[i].f;
	free(s);
count:
	{
		size_t n[2][5] = { { 0 } }, kd;
		int rk;

		for (i = 0; i < r->nfindings; i++)
			n[r->findings[i].kind == AN_FINDING_PLACEMENT][rank(r->findings[i].verdict)]++;
		for (kd = 0; kd < 2; kd++)
			for (rk = 0; rk < 5; rk++)
				n[kd][rk] += r->ndropped[kd][rk];
		r->nworse = n[0][0] + n[1][0];
		r->nbetter = n[0][1] + n[1][1];
		r->nchanged = n[0][2] + n[1][2];
		r->ninconclusive = n[0][3] + n[1][3];
		r->nsame = n[0][4] + n[1][4];
		for (rk = 0; rk < 4; rk++)
			r->nplacement[rk] = n[1][rk];
	}
}

/* The (benchmark, machine) pairs of t's rows where its baseline has data:
 * where a candidate's placement is checked (like with like).  NULL when
 * machines were compared across (any machine will do). */
struct bmach {
	const char **bench, **machine;
	size_t n;
};

static void bmach_build(struct bmach *bm, const struct an_table *t)
{
	size_t i, k;

	memset(bm, 0, sizeof(*bm));
	bm->bench = xcalloc(t->nrows + 1, sizeof(*bm->bench));
	bm->machine = xcalloc(t->nrows + 1, sizeof(*bm->machine));
	for (i = 0; i < t->nrows; i++) {
		const struct an_row *row = &t->rows[i];

		if (!t->nvariants || row->cells[t->baseline].origin == AN_ORIGIN_NONE)
			continue;
		for (k = 0; k < bm->n; k++)
			if (strcmp(bm->bench[k], row->benchmark) == 0 &&
			    an_machine_cmp(bm->machine[k], row->machine) == 0)
				break;
		if (k == bm->n) {
			bm->bench[bm->n] = row->benchmark;
			bm->machine[bm->n++] = row->machine;
		}
	}
}

static int bmach_has(const struct bmach *bm, const char *bench, const char *machine)
{
	size_t k;

	for (k = 0; k < bm->n; k++)
		if (strcmp(bm->bench[k], bench) == 0 && an_machine_cmp(bm->machine[k], machine) == 0)
			return 1;
	return 0;
}

static void bmach_release(struct bmach *bm)
{
	free(bm->bench);
	free(bm->machine);
}

/* Findings of tables (each a comparison of the selection in o) plus the
 * placement checks of the selection.  The variants the user asked for are
 * the tables' (their names resolved); with candidates, table 0 holds the
 * baseline and them only. */
static int findings_into(struct db *db, const struct an_regress_opts *o,
			 const struct an_query *qq, const struct an_table *const *tables,
			 size_t ntables, int sec, struct an_regress *r, struct an_regress *rl,
			 const struct an_pindex *pix_pl, const struct an_placement *pm_pl,
			 struct kb_err *err)
{
	struct an_query q = *qq;
	struct db_qdata qd;
	const char **tnames = NULL, **cands = NULL;
	size_t i, k, ntn = 0, ncand = 0;
	int rc = -1;

	memset(&qd, 0, sizeof(qd));
	if (r->baseline) {
		/* a later section of an accumulation: its first set these */
	} else if (ntables) {
		r->opts = tables[0]->opts;
		if (q.baseline)
			r->baseline = xstrdup(q.baseline);
		else if (tables[0]->nvariants)
			r->baseline = xstrdup(tables[0]->variants[tables[0]->baseline].name);
	} else if (q.baseline) {
		r->baseline = xstrdup(q.baseline);
	}
	for (k = 0; k < ntables; k++)
		ntn += tables[k]->nvariants;
	tnames = xcalloc(ntn + 1, sizeof(*tnames));
	cands = xcalloc(ntn + 1, sizeof(*cands));
	ntn = 0;
	for (k = 0; k < ntables; k++)
		for (i = 0; i < tables[k]->nvariants; i++) {
			tnames[ntn++] = tables[k]->variants[i].name;
			if (k == 0 && i != tables[0]->baseline)
				cands[ncand++] = tables[0]->variants[i].name;
		}
	/* The runs behind each performance finding (a report lists none). */
	if (!o->lean && an_query_load_runs(db, &q, &qd, err) < 0)
		goto out;
	if (!o->no_performance) {
		struct run_ix ix;

		run_ix_build(&ix, &qd);
		for (k = 0; k < ntables; k++)
			if (tables[k]->nrows) {
				performance(r, tables[k], o->lean ? NULL : &ix, o);
				maybe_prune(r, o->lean);
			}
		free(ix.idx);
	}
	/* Only stores with job rows have placement to check (and
	 * db_placement_load is spared an empty result).  Each table's runs
	 * against its own baseline: a report's sections (one post, one
	 * machine) are never checked against each other's. */
	if (!o->no_placement && r->baseline && (o->pl ? o->pl->nruns : (qd.njobs || q.near))) {
		struct db_placement own, view;
		const struct db_placement *p = o->pl;
		struct an_placement_opts po = o->placement;
		size_t g, ngroups = sec ? ntables : 1, *pick = NULL, cappick = 0, nkeep;
		struct an_pindex pix_own = { 0 };
		const struct an_pindex *pix;

		memset(&own, 0, sizeof(own));
		if (!p) {
			/* Placement pools a task count's configurations: near the
			 * baseline's machines, not its configurations. */
			struct an_query pq = q;

			pq.near_config = 0;
			if (an_placement_load(db, &pq, &own, err) < 0)
				goto out;
			p = &own;
		}
		if (!q.alpha || isnan(q.alpha))
			po.alpha = 0.05;
		else
			po.alpha = q.alpha;
		/* The runs by variant name: a group's runs are looked up (a
		 * report has thousands of groups), then taken in load order. */
		if (o->pl && pix_pl) {
			pix = pix_pl;
		} else {
			pm_pl = NULL;	/* metrics of o->pl's runs, not of own's */
			an_pindex_init_db(&pix_own, p);
			pix = &pix_own;
		}
		view.runs = NULL;
		for (g = 0; g < ngroups; g++) {
			const struct an_table *tg = ntables ? tables[g] : NULL;
			const char **gnames = tnames, **gcands = cands;
			size_t ngn = ntn, ngc = ncand, npick = 0;
			const char *pbase = r->baseline;
			struct an_placement m;
			struct an_pfindings pf;
			struct bmach bm;
			int by_machine = tg && !tg->across;

			if (sec) {
				/* this section's variants, its baseline, its candidates */
				if (!tg->nvariants || !tg->nrows)
					continue;
				gnames = xcalloc(tg->nvariants + 1, sizeof(*gnames));
				gcands = xcalloc(tg->nvariants + 1, sizeof(*gcands));
				ngn = ngc = 0;
				for (i = 0; i < tg->nvariants; i++) {
					gnames[ngn++] = tg->variants[i].name;
					if (i != tg->baseline)
						gcands[ngc++] = tg->variants[i].name;
				}
				pbase = tg->variants[tg->baseline].name;
			}
			memset(&bm, 0, sizeof(bm));
			if (by_machine)
				bmach_build(&bm, tg);
			po.across = !by_machine;
			/* The runs of the group's variants (every run when the
			 * selection names none), in load order. */
			if (!q.variants && !sec) {
				for (i = 0; i < p->nruns; i++) {
					xgrow(&pick, &cappick, npick + 1, sizeof(*pick));
					pick[npick++] = i;
				}
			} else {
				/* A section is one benchmark's: its variants' runs of
				 * that benchmark only (the index's second field). */
				const char *kbench = sec ? tg->rows[0].benchmark : q.bench;

				for (k = 0; k < ngn; k++) {
					struct an_pkey key = { gnames[k], kbench, NULL, 0, kbench ? 2 : 1 };
					size_t lo, hi;

					an_pindex_range(pix, &key, &lo, &hi);
					for (; lo < hi; lo++) {
						xgrow(&pick, &cappick, npick + 1, sizeof(*pick));
						pick[npick++] = pix->idx[lo];
					}
				}
				if (npick)
					qsort(pick, npick, sizeof(*pick), cmp_size);
			}
			/* ... of the selection: benchmark, config, machines, and the
			 * baseline's machines (pick keeps their indexes). */
			nkeep = 0;
			for (i = 0; i < npick; i++) {
				const struct db_prun *pr = &p->runs[pick[i]];

				if (i && pick[i] == pick[i - 1])
					continue;
				if ((!q.bench || strcmp(q.bench, pr->benchmark) == 0) &&
				    (!sec || strcmp(tg->rows[0].benchmark, pr->benchmark) == 0) &&
				    an_query_match(&q, pr->config, pr->machine_key) &&
				    (!by_machine || bmach_has(&bm, pr->benchmark, pr->machine_key)))
					pick[nkeep++] = pick[i];
			}
			if (!sec && ntables == 1 && !q.baseline && nkeep)
				pbase = tables[0]->variants[tables[0]->baseline].name;
			if (pm_pl) {
				/* the metrics of every run were computed once */
				an_placement_view(pm_pl, pick, nkeep, &m);
			} else {
				/* a shallow view of p's runs, measured here */
				view.nruns = 0;
				view.runs = xrealloc(view.runs, (nkeep + 1) * sizeof(*view.runs));
				for (i = 0; i < nkeep; i++)
					view.runs[view.nruns++] = p->runs[pick[i]];
				memset(&m, 0, sizeof(m));
				an_placement_metrics(&view, &po, &m);
			}
			an_placement_findings(&m, pbase,
					      sec ? gcands : o->ncandidates ? cands : NULL,
					      sec ? ngc : o->ncandidates ? ncand : 0, &po, &pf);
			placement(rl, &pf, tg ? tg->nmachines : 0, o->lean);
			maybe_prune(rl, o->lean);
			an_pfindings_release(&pf);
			bmach_release(&bm);
			if (!o->lean && !rl->placement.runs && m.nruns) {
				an_placement_detach(&m);	/* kept past p */
				rl->placement = m;
			} else {
				an_placement_release(&m);
			}
			if (sec) {
				free(gnames);
				free(gcands);
			}
		}
		free(view.runs);
		an_pindex_release(&pix_own);
		free(pick);
		db_placement_release(&own);
	}
	rc = 0;
out:
	free(tnames);
	free(cands);
	db_qdata_release(&qd);
	return rc;
}

/* Findings of tables (each a comparison of the selection in o) plus the
 * placement checks, ordered. */
static int findings(struct db *db, const struct an_regress_opts *o, const struct an_query *qq,
		    const struct an_table *const *tables, size_t ntables, struct an_regress *r,
		    struct kb_err *err)
{
	if (findings_into(db, o, qq, tables, ntables, ntables > 1, r, r, NULL, NULL, err) < 0)
		return -1;
	if (o->lean)
		prune(r);
	order(r);
	return 0;
}

/*
 * Machines.  A candidate with no run on the baseline's machines, for a
 * benchmark both have data of: one (candidate, baseline's machines,
 * candidate's machines) group, with the benchmarks it holds for.
 */
struct xgroup {
	const char *variant;		/* the candidate (points into the keys) */
	char *bkeys, *ckeys;		/* the machines, as said */
	const char **bench;
	size_t nbench;
	size_t ncommon;			/* benchmarks the two have data of */
	int unknown;			/* a side names no machine */
};

struct xcheck {
	struct db_vbkey *k;		/* the selection's (benchmark, variant, machine) */
	size_t nk;
	struct xgroup *g;
	size_t ng;
	long long base_id;
	const char *base;		/* the baseline's name */
};

static int key_named(const char *key)
{
	return key && strncmp(key, "unknown@", 8) != 0;
}

static void put_key(struct buf *b, const char *key)
{
	if (!key)
		buf_puts(b, "unknown machine");
	else if (strncmp(key, "unknown@", 8) == 0)
		buf_printf(b, "unknown machine (post %s)", key + 8);
	else
		buf_puts(b, key);
}

/* The machines of keys [lo, hi), as said: "boxA, boxB". */
static char *keys_str(const struct db_vbkey *k, size_t lo, size_t hi)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = lo; i < hi; i++) {
		if (i > lo)
			buf_puts(&b, ", ");
		put_key(&b, k[i].key);
	}
	return buf_detach(&b);
}

static void xcheck_release(struct xcheck *x)
{
	size_t i;

	for (i = 0; i < x->ng; i++) {
		free(x->g[i].bkeys);
		free(x->g[i].ckeys);
		free(x->g[i].bench);
	}
	free(x->g);
	db_vbkeys_free(x->k, x->nk);
	memset(x, 0, sizeof(*x));
}

/* Each benchmark's candidates that share no machine with the baseline. */
static int xcheck_build(struct db *db, const struct an_query *q, long long base_id,
			const char *base, struct xcheck *x, struct kb_err *err)
{
	const char **cname = NULL;	/* each candidate's benchmarks in common */
	size_t *ccount = NULL, nc = 0;
	size_t lo, hi, b0, b1, c0, c1, i, j, g;

	memset(x, 0, sizeof(*x));
	x->base_id = base_id;
	x->base = base;
	if (an_query_variant_bench_keys(db, q, &x->k, &x->nk, err) < 0)
		return -1;
	for (lo = 0; lo < x->nk; lo = hi) {
		for (hi = lo; hi < x->nk && strcmp(x->k[hi].benchmark, x->k[lo].benchmark) == 0; hi++)
			;
		/* by variant id within a benchmark: the baseline's keys */
		for (b0 = lo; b0 < hi && x->k[b0].variant_id != base_id; b0++)
			;
		for (b1 = b0; b1 < hi && x->k[b1].variant_id == base_id; b1++)
			;
		if (b0 == hi)
			continue;
		for (c0 = lo; c0 < hi; c0 = c1) {
			int shared = 0, named = 0, unknown = 0;
			char *bk, *ck;

			for (c1 = c0; c1 < hi && x->k[c1].variant_id == x->k[c0].variant_id; c1++)
				;
			if (c0 == b0)
				continue;
			for (i = 0; i < nc && strcmp(cname[i], x->k[c0].variant) != 0; i++)
				;
			if (i == nc) {
				cname = xrealloc(cname, (nc + 1) * sizeof(*cname));
				ccount = xrealloc(ccount, (nc + 1) * sizeof(*ccount));
				cname[nc] = x->k[c0].variant;
				ccount[nc++] = 0;
			}
			ccount[i]++;
			for (i = b0; i < b1; i++) {
				named |= key_named(x->k[i].key);
				unknown |= !key_named(x->k[i].key);
				for (j = c0; j < c1 && !shared; j++)
					shared = an_machine_cmp(x->k[i].key, x->k[j].key) == 0;
			}
			for (j = c0; j < c1; j++) {
				named |= key_named(x->k[j].key);
				unknown |= !key_named(x->k[j].key);
			}
			/* Compared on the shared machines; a post's own variants
			 * (no machine named on either side) as they always were. */
			if (shared || !named)
				continue;
			bk = keys_str(x->k, b0, b1);
			ck = keys_str(x->k, c0, c1);
			for (g = 0; g < x->ng; g++)
				if (strcmp(x->g[g].variant, x->k[c0].variant) == 0 &&
				    strcmp(x->g[g].bkeys, bk) == 0 && strcmp(x->g[g].ckeys, ck) == 0)
					break;
			if (g == x->ng) {
				x->g = xrealloc(x->g, (x->ng + 1) * sizeof(*x->g));
				memset(&x->g[g], 0, sizeof(x->g[g]));
				x->g[g].variant = x->k[c0].variant;
				x->g[g].bkeys = bk;
				x->g[g].ckeys = ck;
				x->ng++;
			} else {
				free(bk);
				free(ck);
			}
			x->g[g].bench = xrealloc(x->g[g].bench, (x->g[g].nbench + 1) * sizeof(*x->g[g].bench));
			x->g[g].bench[x->g[g].nbench++] = x->k[c0].benchmark;
			x->g[g].unknown |= unknown;
		}
	}
	for (g = 0; g < x->ng; g++)
		for (i = 0; i < nc; i++)
			if (strcmp(cname[i], x->g[g].variant) == 0)
				x->g[g].ncommon = ccount[i];
	free(cname);
	free(ccount);
	return 0;
}

/* "v2 has no run on the baseline's machines (v1: boxA; v2: boxB)". */
static void xgroup_say(struct buf *b, const struct xcheck *x, const struct xgroup *g)
{
	size_t i;

	buf_printf(b, "%s has no run ", g->variant);
	if (g->nbench < g->ncommon) {
		buf_puts(b, "of ");
		for (i = 0; i < g->nbench; i++)
			buf_printf(b, "%s%s", i ? ", " : "", g->bench[i]);
		buf_putc(b, ' ');
	}
	buf_printf(b, "on the baseline's machines (%s: %s; %s: %s)", x->base, g->bkeys, g->variant,
		   g->ckeys);
}

#define XGROUPS_SAID 3

static int xcheck_refuse(const struct xcheck *x, struct kb_err *err)
{
	struct buf b = BUF_INIT;
	size_t i;
	int unknown = 0;

	for (i = 0; i < x->ng && i < XGROUPS_SAID; i++) {
		if (i)
			buf_puts(&b, ", ");
		xgroup_say(&b, x, &x->g[i]);
		unknown |= x->g[i].unknown;
	}
	if (x->ng > XGROUPS_SAID)
		buf_printf(&b, ", and %zu more", x->ng - XGROUPS_SAID);
	if (unknown)
		buf_puts(&b, "; a run with no machine named may or may not share one, kbench cannot tell");
	buf_puts(&b, "; comparing across machines needs --across-machines");
	kb_err_set(err, "", 0, "%s", buf_str(&b));
	buf_release(&b);
	return -1;
}

static void warn(struct an_regress *r, char *w)
{
	r->warnings = xrealloc(r->warnings, (r->nwarnings + 1) * sizeof(*r->warnings));
	r->warnings[r->nwarnings++] = w;
}

/* --across-machines: what became of each group, and the findings of an
 * across table named with both sides' machines. */
static void xcheck_warn(const struct xcheck *x, const struct an_table *t, struct an_regress *r)
{
	size_t i, k;

	for (i = 0; i < x->ng; i++) {
		const struct xgroup *g = &x->g[i];
		struct buf b = BUF_INIT;
		int compared = 0;

		for (k = 0; k < t->nvariants && !compared; k++)
			compared = t->across && strcmp(t->variants[k].name, g->variant) == 0;
		if (compared) {
			buf_printf(&b, "compared across machines: %s on %s against %s on %s", x->base,
				   g->bkeys, g->variant, g->ckeys);
			if (g->nbench < g->ncommon)
				for (k = 0; k < g->nbench; k++)
					buf_printf(&b, "%s%s", k ? ", " : " (", g->bench[k]);
			if (g->nbench < g->ncommon)
				buf_putc(&b, ')');
			if (g->unknown)
				buf_puts(&b, "; a run with no machine named may or may not be on another");
		} else {
			buf_puts(&b, "not compared: ");
			xgroup_say(&b, x, g);
			buf_printf(&b, ", and kbench compares across machines only variants on one "
				   "machine each, none shared (try --candidate %s)", g->variant);
		}
		warn(r, buf_detach(&b));
	}
	if (!t->across)
		return;
	for (i = 0; i < r->nfindings; i++) {
		struct an_finding *f = &r->findings[i];
		struct buf b = BUF_INIT;

		for (k = 0; k < x->ng; k++)
			if (strcmp(x->g[k].variant, f->variant) == 0)
				break;
		if (k == x->ng)
			continue;
		f->base_machine = xstrdup(x->g[k].bkeys);
		f->cand_machine = xstrdup(x->g[k].ckeys);
		buf_printf(&b, "across machines, %s on %s vs %s on %s: %s", f->baseline, f->base_machine,
			   f->variant, f->cand_machine, f->evidence);
		free(f->evidence);
		f->evidence = buf_detach(&b);
	}
}

int an_regress_build(struct db *db, const struct an_regress_opts *o,
		     struct an_regress *r, struct kb_err *err)
{
	struct an_query q = o->q;
	struct an_table t;
	const struct an_table *tp = &t;
	const char **vars = NULL;
	struct xcheck x;
	long long base_id = 0;
	char *base_name = NULL;
	size_t i;
	int have_table = 0, rc = -1;

	memset(r, 0, sizeof(*r));
	memset(&t, 0, sizeof(t));
	memset(&x, 0, sizeof(x));
	if (o->placement.cpus_per_node < 1)
		return kb_err_set(err, "", 0, "CPUs per node must be at least 1, not %d",
				  o->placement.cpus_per_node);
	if (!(o->placement.split_below > 0 && o->placement.split_below <= 100))
		return kb_err_set(err, "", 0, "the split threshold must lie in (0, 100], not %g",
				  o->placement.split_below);
	/* Candidates given: compare exactly the baseline and them. */
	if (o->candidates && o->ncandidates) {
		if (!q.baseline)
			return kb_err_set(err, "", 0, "candidates need a baseline");
		vars = xmalloc((o->ncandidates + 1) * sizeof(*vars));
		vars[0] = q.baseline;
		for (i = 0; i < o->ncandidates; i++)
			vars[i + 1] = o->candidates[i];
		q.variants = vars;
		q.nvariants = o->ncandidates + 1;
	}
	q.defer_bh = 0;
	q.baseline_rows_only = 1;	/* rows without the baseline hold no verdict */
	memset(&x, 0, sizeof(x));
	if (q.baseline && db_variant_resolve_id(db, q.baseline, &base_id, &base_name, err) == 0) {
		if (xcheck_build(db, &q, base_id, base_name, &x, err) < 0)
			goto out;
		if (x.ng && !o->across_machines) {
			xcheck_refuse(&x, err);
			goto out;
		}
	}
	kb_err_clear(err);
	if (an_compare_build(db, &q, &t, err) < 0)
		goto out;
	have_table = 1;
	if (t.nvariants) {
		q.baseline = NULL;      /* the table's own (resolved) baseline */
		if (!q.nvariants) {
			/* The baseline alone: the runs behind its rows, and the
			 * placement of its machines (an_compare_build's near load). */
			q.near = t.variants[t.baseline].id;
			q.near_config = 1;
			q.near_any_machine = t.across;
		}
		rc = findings(db, o, &q, &tp, 1, r, err);
		if (rc == 0)
			xcheck_warn(&x, &t, r);
	} else {
		rc = findings(db, o, &q, &tp, 0, r, err);
		if (rc == 0)
			r->opts = t.opts;
	}
out:
	if (have_table)
		an_table_release(&t);
	xcheck_release(&x);
	free(base_name);
	free(vars);
	if (rc < 0)
		an_regress_release(r);
	return rc;
}

int an_regress_from_tables(struct db *db, const struct an_regress_opts *o,
			   const struct an_table *const *tables, size_t ntables,
			   struct an_regress *r, struct kb_err *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	rc = findings(db, o, &o->q, tables, ntables, r, err);
	if (rc < 0)
		an_regress_release(r);
	return rc;
}

void an_regress_acc_init(struct an_regress_acc *a)
{
	memset(a, 0, sizeof(*a));
}

/* The accumulator's index and metrics of o->pl's runs. */
static void acc_drop_runs(struct an_regress_acc *a)
{
	if (a->pix)
		an_pindex_release(a->pix);
	free(a->pix);
	if (a->pm)
		an_placement_release(a->pm);
	free(a->pm);
}

int an_regress_acc_add(struct db *db, const struct an_regress_opts *o, struct an_regress_acc *a,
		       const struct an_table *const *tables, size_t ntables, struct kb_err *err)
{
	if (o->pl && !a->pix) {
		a->pix = xmalloc(sizeof(*a->pix));
		an_pindex_init_db(a->pix, o->pl);
		/* a run's metrics are the same in every section it is in */
		a->pm = xmalloc(sizeof(*a->pm));
		an_placement_metrics(o->pl, &o->placement, a->pm);
	}
	if (findings_into(db, o, &o->q, tables, ntables, 1, &a->perf, &a->plac, a->pix, a->pm,
			  err) < 0)
		return -1;
	return 0;
}

/* The findings in the order one an_regress_from_tables() over every
 * table would give: its performance findings came first, then the
 * placement ones (insertion order breaks ties). */
void an_regress_acc_end(const struct an_regress_opts *o, struct an_regress_acc *a,
			struct an_regress *r)
{
	size_t i, k;

	memset(r, 0, sizeof(*r));
	r->baseline = a->perf.baseline;
	a->perf.baseline = NULL;
	r->opts = a->perf.opts;
	r->nfindings = a->perf.nfindings + a->plac.nfindings;
	r->findings = xcalloc(r->nfindings + 1, sizeof(*r->findings));
	for (i = 0; i < a->perf.nfindings; i++)
		r->findings[i] = a->perf.findings[i];
	for (k = 0; k < a->plac.nfindings; k++)
		r->findings[i + k] = a->plac.findings[k];
	for (i = 0; i < 2; i++)
		for (k = 0; k < 5; k++)
			r->ndropped[i][k] = a->perf.ndropped[i][k] + a->plac.ndropped[i][k];
	r->placement = a->perf.placement.runs ? a->perf.placement : a->plac.placement;
	if (a->perf.placement.runs)
		an_placement_release(&a->plac.placement);
	free(a->perf.findings);
	free(a->plac.findings);
	free(a->plac.baseline);
	acc_drop_runs(a);
	memset(a, 0, sizeof(*a));
	if (o->lean)
		prune(r);
	order(r);
}

void an_regress_acc_release(struct an_regress_acc *a)
{
	an_regress_release(&a->perf);
	an_regress_release(&a->plac);
	acc_drop_runs(a);
	memset(a, 0, sizeof(*a));
}

size_t an_regress_count(const struct an_regress *r, enum an_verdict v)
{
	switch (v) {
	case AN_VERDICT_WORSE: return r->nworse;
	case AN_VERDICT_BETTER: return r->nbetter;
	case AN_VERDICT_CHANGED: return r->nchanged;
	case AN_VERDICT_INCONCLUSIVE: return r->ninconclusive;
	default: return r->nsame;
	}
}

void an_regress_release(struct an_regress *r)
{
	size_t i;

	for (i = 0; i < r->nfindings; i++)
		finding_free(&r->findings[i]);
	free(r->findings);
	free(r->baseline);
	for (i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	an_placement_release(&r->placement);
	memset(r, 0, sizeof(*r));
}
