/*
 * cmd_report.c - `kbench report [selection] --format html|text [-o FILE]
 * [--assets DIR]`: a whole report.  This file gathers everything (the
 * store's variants, machines and sources; one comparison per benchmark;
 * charts; numa_test job tables; regress findings) into the report model
 * of render/report.h, which renders it.
 */
#include "cli.h"
#include "progress.h"
#include "select.h"
#include "../analyze/regress.h"
#include "../analyze/wide.h"
#include "../core/buf.h"
#include "../core/outfile.h"
#include "../core/term.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/placement.h"
#include "../ingest/mail.h"
#include "../render/chart.h"
#include "../render/regress.h"
#include "../render/report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Charts of a benchmark's section: a bars chart per metric, the change
 * forest plot when it stays readable. */
#define MAX_CHANGE_ROWS 40       /* more: the top 40 by |change|, the chart says so */
#define MAX_BAR_CONFIGS 16      /* more configurations: the table says it better */

/* Wide sections: per metric, the mean of each configuration along the
 * variants (a history chart, one line per configuration). */
static void section_history_charts(struct report_section *s, const struct chart_model_opts *co)
{
	const struct an_table *t = &s->table;
	size_t r, k, v, ncharts = 0;

	for (r = 0; r < t->nrows && ncharts < 6; r++) {
		const struct an_row *row = &t->rows[r];
		struct chart *c;
		char cap[512];
		int seen = 0;

		for (k = 0; k < r; k++)
			if (!strcmp(t->rows[k].metric, row->metric))
				seen = 1;
		if (seen)
			continue;
		c = chart_new(CHART_HISTORY);
		chart_set_size(c, 900, 420, 1);
		for (v = 0; v < t->nvariants; v++)
			chart_category(c, t->variants[v].name);
		for (k = r; k < t->nrows; k++) {
			int sr;

			if (strcmp(t->rows[k].metric, row->metric))
				continue;
			sr = chart_series(c, *t->rows[k].config ? t->rows[k].config : row->metric);
			for (v = 0; v < t->nvariants; v++) {
				const struct an_cell *cell = &t->rows[k].cells[v];

				if (cell->origin != AN_ORIGIN_NONE && !isnan(cell->d.mean))
					chart_value(c, sr, (int)v, cell->d.mean,
						    co->errbar == CHART_ERR_SD ? cell->d.sd : NAN);
			}
		}
		c->errbar = (enum chart_errbar)co->errbar;
		snprintf(cap, sizeof(cap), "%s: %s", s->benchmark, row->metric);
		chart_set_title(c, cap);
		chart_set_axis(c, 'x', "variant", NULL);
		chart_set_axis(c, 'y', row->metric, *row->unit ? row->unit : NULL);
		snprintf(cap, sizeof(cap), "%s %s: the mean of each configuration along the %zu "
			 "variants (in store order)", s->benchmark, row->metric, t->nvariants);
		report_chart(&s->charts, c, cap);
		ncharts++;
	}
}

/* A wide section's history: per metric, the series (one per machine and
 * configuration) that have a change point first, then the longest; a
 * chart of WIDE_PAGE series, WIDE_PAGES charts per metric at most. */
#define WIDE_PAGE 8
#define WIDE_PAGES 3
#define WIDE_CHARTS 8           /* per section */

struct wser {
	const struct an_hseries *se;
	size_t at;
};

static int cmp_wser(const void *pa, const void *pb)
{
	const struct wser *a = pa, *b = pb;

	if ((a->se->nchanges > 0) != (b->se->nchanges > 0))
		return a->se->nchanges > 0 ? -1 : 1;
	if (a->se->npoints != b->se->npoints)
		return a->se->npoints > b->se->npoints ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

static void wide_charts(struct report_section *s, const struct an_wide *w, int charts)
{
	size_t m, i, k, ncharts = 0;

	for (m = 0; m < w->nhist; m++) {
		const struct an_history *h = &w->hist[m];
		struct wser *v = xcalloc(h->nseries + 1, sizeof(*v));
		size_t n = 0, page;

		for (i = 0; i < h->nseries; i++)
			if (h->series[i].npoints >= 2)
				v[n++] = (struct wser){ &h->series[i], i };
		s->wide_series += h->nseries;
		if (n)
			qsort(v, n, sizeof(*v), cmp_wser);
		for (page = 0; charts && page * WIDE_PAGE < n && page < WIDE_PAGES &&
			       ncharts < WIDE_CHARTS; page++) {
			struct an_history sub = *h;
			struct an_hseries *ss = xcalloc(WIDE_PAGE, sizeof(*ss));
			size_t np = 0, nchg = 0;
			struct chart *c = chart_new(CHART_HISTORY);
			struct kb_err err;
			char title[512], cap[768];

			for (k = page * WIDE_PAGE; k < n && np < WIDE_PAGE; k++) {
				ss[np++] = *v[k].se;
				nchg += v[k].se->nchanges;
			}
			sub.series = ss;
			sub.nseries = np;
			snprintf(title, sizeof(title), "%s %s: series %zu-%zu of %zu", s->benchmark,
				 ss[0].metric, page * WIDE_PAGE + 1, page * WIDE_PAGE + np, h->nseries);
			chart_set_size(c, 900, 420, 1);
			if (render_history_chart(c, &sub, title, &err) < 0) {
				chart_free(c);
				free(ss);
				break;
			}
			snprintf(cap, sizeof(cap), "%s %s along the variants (history order: kernel "
				 "version, else import order), the median of each variant's runs, one "
				 "line per machine and configuration; %zu change point%s marked.  The "
				 "series with change points come first, then the longest; %zu of %zu "
				 "series have two or more points.", s->benchmark, ss[0].metric, nchg,
				 nchg == 1 ? "" : "s", n, h->nseries);
			report_chart(&s->charts, c, cap);
			s->wide_shown += np;
			ncharts++;
			free(ss);
		}
		free(v);
	}
}

/* Row r is its metric's first row: then 1, with the cells that have a
 * mean and the configurations of that metric; else 0. */
static int metric_first(const struct an_table *t, size_t r, int *cells, int *configs)
{
	size_t k, v;

	for (k = 0; k < r; k++)
		if (!strcmp(t->rows[k].metric, t->rows[r].metric))
			return 0;
	*cells = *configs = 0;
	for (k = r; k < t->nrows; k++) {
		if (strcmp(t->rows[k].metric, t->rows[r].metric))
			continue;
		(*configs)++;
		for (v = 0; v < t->nvariants; v++)
			if (t->rows[k].cells[v].origin != AN_ORIGIN_NONE &&
			    !isnan(t->rows[k].cells[v].d.mean))
				(*cells)++;
	}
	return 1;
}

/* Cells of t with a change to chart. */
static size_t change_cells(const struct an_table *t)
{
	size_t r, k, n = 0;

	for (r = 0; r < t->nrows; r++)
		for (k = 0; k < t->nvariants; k++)
			if (t->rows[r].cells[k].has_change &&
			    t->rows[r].cells[k].chg.verdict != AN_VERDICT_NONE &&
			    !isnan(t->rows[r].cells[k].chg.change))
				n++;
	return n;
}

/* How many charts section_charts() draws of t (when the model of each
 * can be made): the chart budget counts them before the table is built
 * again to draw them. */
static size_t section_charts_count(const struct an_table *t)
{
	size_t r, n = 0, nmetrics = 0;
	int cells, configs;

	for (r = 0; r < t->nrows; r++) {
		if (!metric_first(t, r, &cells, &configs))
			continue;
		nmetrics++;
		if (cells && configs <= MAX_BAR_CONFIGS)
			n++;
	}
	if (t->nvariants > REPORT_MAX_SIDE_BY_SIDE)
		return nmetrics < 6 ? nmetrics : 6;
	return n + (change_cells(t) ? 1 : 0);
}

static void section_charts(struct report_section *s, enum chart_errbar eb,
			   const struct chart_model_opts *styles)
{
	const struct an_table *t = &s->table;
	struct chart_model_opts co = *styles;
	struct kb_err err;
	size_t r, nchg = 0;

	co.errbar = (int)eb;
	if (t->nvariants > REPORT_MAX_SIDE_BY_SIDE) {
		section_history_charts(s, &co);
		return;
	}
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];
		struct chart *c;
		char cap[512];
		int cells, configs;

		if (!metric_first(t, r, &cells, &configs) || !cells || configs > MAX_BAR_CONFIGS)
			continue;
		c = chart_new(CHART_BARS);
		chart_set_size(c, 720, 380, 1);
		if (chart_model_from_table(c, t, s->benchmark, row->metric, &co, &err) < 0) {
			chart_free(c);
			continue;
		}
		snprintf(cap, sizeof(cap), "%s %s: mean per configuration and variant, whiskers %s",
			 s->benchmark, row->metric,
			 eb == CHART_ERR_CI95 ? "95% CI of the mean" : eb == CHART_ERR_SD ? "\xC2\xB1 sd" : "none");
		report_chart(&s->charts, c, cap);
	}
	nchg = change_cells(t);
	if (nchg) {
		struct chart *c = chart_new(CHART_CHANGE);
		char cap[512];

		chart_set_size(c, 720, 300, 1);
		c->max_rows = MAX_CHANGE_ROWS;
		if (chart_model_change(c, t, s->benchmark, &co, &err) < 0) {
			chart_free(c);
			return;
		}
		snprintf(cap, sizeof(cap), "%s: change against %s with its 95%% interval, "
			 "coloured by verdict; the band is the \xC2\xB1%g%% threshold",
			 s->benchmark, t->variants[t->baseline].name, t->opts.delta);
		report_chart(&s->charts, c, cap);
	}
}

/* Placement panels per chart: longer selections become more charts. */
#define PLACEMENT_PAGE 12
#define PLACEMENT_PAGES 2       /* per variant; the rest are in the job tables' count */

/* numa_test: job tables, a heatmap per variant, jobs per node. */
static int run_selected(const struct db_prun *r, const struct cli_select *sel, const char *bench)
{
	return !strcmp(r->benchmark, bench) && cli_select_variant_match(sel, r->variant) &&
	       cli_select_config_match(sel, r->config);
}

/* The placement runs by variant name, so that each of thousands of
 * sections finds its runs without scanning every run. */
struct pindex {
	const struct db_placement *pl;
	size_t *byname;         /* indexes into pl->runs, by variant name, then index */
};

static const struct db_placement *pindex_sort_pl;

static int cmp_prun_name(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(pindex_sort_pl->runs[a].variant, pindex_sort_pl->runs[b].variant);

	return c ? c : (a < b ? -1 : a > b);
}

static void pindex_init(struct pindex *x, const struct db_placement *pl)
{
	size_t i;

	x->pl = pl;
	x->byname = xmalloc((pl->nruns + 1) * sizeof(*x->byname));
	for (i = 0; i < pl->nruns; i++)
		x->byname[i] = i;
	pindex_sort_pl = pl;
	qsort(x->byname, pl->nruns, sizeof(*x->byname), cmp_prun_name);
}

static int cmp_ll(const void *pa, const void *pb)
{
	long long a = *(const long long *)pa, b = *(const long long *)pb;

	return a < b ? -1 : a > b;
}

static int cmp_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return a < b ? -1 : a > b;
}

/* The runs sel selects for bench, in store order; returns how many. */
static size_t pindex_select(const struct pindex *x, const struct cli_select *sel, const char *bench,
			    const struct db_prun ***out)
{
	const struct db_placement *pl = x->pl;
	size_t *idx = NULL, n = 0, cap = 0, i, k;

	if (!sel->nvariant_v) {
		for (i = 0; i < pl->nruns; i++)
			if (run_selected(&pl->runs[i], sel, bench)) {
				xgrow(&idx, &cap, n + 1, sizeof(*idx));
				idx[n++] = i;
			}
	} else {
		for (k = 0; k < sel->nvariant_v; k++) {
			size_t lo = 0, hi = pl->nruns;

			if (k && !strcmp(sel->variant_v[k], sel->variant_v[k - 1]))
				continue;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (strcmp(pl->runs[x->byname[mid]].variant, sel->variant_v[k]) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (; lo < pl->nruns && !strcmp(pl->runs[x->byname[lo]].variant,
							  sel->variant_v[k]); lo++)
				if (run_selected(&pl->runs[x->byname[lo]], sel, bench)) {
					xgrow(&idx, &cap, n + 1, sizeof(*idx));
					idx[n++] = x->byname[lo];
				}
		}
		if (n)
			qsort(idx, n, sizeof(*idx), cmp_size);
		/* a name given twice selects its runs once */
		for (i = k = 0; i < n; i++)
			if (!k || idx[k - 1] != idx[i])
				idx[k++] = idx[i];
		n = k;
	}
	if (out) {
		*out = xmalloc((n + 1) * sizeof(**out));
		for (i = 0; i < n; i++)
			(*out)[i] = &pl->runs[idx[i]];
	}
	free(idx);
	return n;
}

static void section_placement(struct report_section *s, const struct pindex *pix,
			      const struct cli_select *sel, int charts, size_t *job_budget,
			      const struct chart_model_opts *styles)
{
	const struct db_prun **runs = NULL;
	size_t i, j, n;
	struct chart_model_opts co = *styles;
	struct kb_err err;
	char *common;

	n = pindex_select(pix, sel, s->benchmark, &runs);
	for (i = 0; i < n; i++) {
		const struct db_prun *r = runs[i];
		struct report_run *rr;

		if (i >= REPORT_MAX_JOB_TABLES || !*job_budget) {
			s->runs_left_out = n - i;
			break;
		}
		--*job_budget;
		rr = report_run(s, r->run_id, r->variant, r->config, r->nnodes);

		for (j = 0; j < r->njobs; j++)
			report_job(rr, r->jobs[j].job, r->jobs[j].initial_node, r->jobs[j].main_node,
				   r->jobs[j].moved, r->jobs[j].user, r->jobs[j].pct);
	}
	/* one heatmap per variant, its runs as small multiples; a page per
	 * PLACEMENT_PAGE runs.  What every run's config holds is said once. */
	common = charts ? cli_chart_common_config(runs, n) : NULL;
	for (i = 0; i < n && charts; i++) {
		size_t np = 0, total = 0, page = 0, npages;

		for (j = 0; j < i; j++)
			if (runs[j]->variant_id == runs[i]->variant_id)
				break;
		if (j < i)
			continue;
		for (j = i; j < n; j++)
			total += runs[j]->variant_id == runs[i]->variant_id;
		npages = (total + PLACEMENT_PAGE - 1) / PLACEMENT_PAGE;
		/* a big store: the first pages of each variant (the captions say so) */
		if (npages > PLACEMENT_PAGES)
			npages = PLACEMENT_PAGES;
		for (j = i; j < n; j += 0) {
			struct chart *c = chart_new(CHART_PLACEMENT);
			char title[512];

			np = 0;
			for (; j < n && np < PLACEMENT_PAGE; j++)
				if (runs[j]->variant_id == runs[i]->variant_id) {
					cli_chart_panel(c, runs[j], 0, common);
					np++;
				}
			page++;
			chart_set_size(c, 900, 400, 1);
			if (total > PLACEMENT_PAGE * PLACEMENT_PAGES)
				snprintf(title, sizeof(title), "%s job placement: %s (page %zu of the "
					 "first %d of %zu runs)", s->benchmark, runs[i]->variant, page,
					 PLACEMENT_PAGE * PLACEMENT_PAGES, total);
			else if (npages > 1)
				snprintf(title, sizeof(title), "%s job placement: %s (%zu of %zu)",
					 s->benchmark, runs[i]->variant, page, npages);
			else
				snprintf(title, sizeof(title), "%s job placement: %s", s->benchmark,
					 runs[i]->variant);
			chart_set_title(c, title);
			if (common) {
				snprintf(title, sizeof(title), "every run: %s", common);
				chart_note(c, title);
			}
			chart_set_axis(c, 'x', "node", NULL);
			chart_set_axis(c, 'y', "job", NULL);
			snprintf(title, sizeof(title), "%s: percent of time per node for every job; the "
				 "initial node outlined, a diamond = main node differs from the initial one",
				 runs[i]->variant);
			report_chart(&s->placement, c, title);
			if (page == npages)
				break;
		}
	}
	if (n && charts) {
		struct chart *c = chart_new(CHART_NODELOAD);

		chart_set_size(c, 900, 420, 1);
		if (cli_chart_nodeload(c, runs, n, &co, &err) == 0)
			report_chart(&s->placement, c, "Jobs per node (by the node with most time) per "
				     "variant and task count: an even spread, or a light load packed "
				     "onto few nodes");
		else
			chart_free(c);
	}
	free(common);
	free(runs);
}

/* Heatmaps of the runs a placement finding rests on. */
static void finding_charts(struct report *rep, const struct an_regress *g,
			   const struct db_placement *pl)
{
	size_t i, k, j;

	for (i = 0; i < g->nfindings; i++) {
		const struct an_finding *f = &g->findings[i];
		struct chart *c;
		char cap[600];
		size_t np = 0;

		/* the heatmaps of what went wrong (or changed) */
		if (f->kind != AN_FINDING_PLACEMENT || !f->nruns ||
		    (f->verdict != AN_VERDICT_WORSE && f->verdict != AN_VERDICT_CHANGED))
			continue;
		c = chart_new(CHART_PLACEMENT);
		for (k = 0; k < f->nruns; k++)
			for (j = 0; j < pl->nruns; j++)
				if (pl->runs[j].run_id == f->runs[k].id) {
					cli_chart_panel(c, &pl->runs[j], 1, NULL);
					np++;
				}
		if (!np) {
			chart_free(c);
			continue;
		}
		chart_set_size(c, 720, 400, 1);     /* the layout sizes it to its panels */
		snprintf(cap, sizeof(cap), "%s %s: %s %s (%s)", f->benchmark,
			 *f->config ? f->config : "-", f->metric, an_verdict_name(f->verdict), f->variant);
		chart_set_title(c, cap);
		report_finding_chart(rep, i, c, cap);
		if (rep->nfinding_charts >= 8)
			break;
	}
}

/* Sections ------------------------------------------------------------------ */

/*
 * One section of a report is one selection: a benchmark, the variants
 * and baseline of the report's selection, and its filters (config, and
 * machine or post when a policy adds them).  report_plan() turns the
 * report's selection into the list; a policy that splits a store into
 * comparable sets (per post, per machine) builds more, narrower entries
 * here and nothing else changes: every section is compared by
 * section_compare() and all of them form one BH family.
 */
struct report_plan {
	char *title;            /* the section heading */
	char *bench;
	struct an_query q;      /* borrows from the report's cli_select, or from below */
	struct cli_select sel;  /* the report's, narrowed to the set's variants */
	char **vars;            /* a comparable set's variants (owned) */
	size_t nvars;
	const char *mach[1];    /* a machine set's machine */
	char *machine;          /* owned */
	int skip;               /* --since/--limit left it no variant */
};

/* The heading of a comparable set's section: its benchmark, and the post
 * (with its author, day and subject for a mail) or the machine. */
static char *set_title(const struct db_cset *c, const struct db_list *list)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_puts(&b, c->benchmark);
	if (!c->post) {
		if (c->key[0])
			buf_printf(&b, " on %s", c->key);
		else
			buf_puts(&b, ", machine unknown");
		return buf_detach(&b);
	}
	buf_printf(&b, " in %s", c->label ? c->label : "a post");
	for (i = 0; i < list->nsources; i++) {
		const struct db_source *src = &list->sources[i];
		if (src->id != c->source_id)
			continue;
		if (src->mail_from || src->mail_date || src->mail_subject) {
			buf_puts(&b, " (");
			mail_byline(src->mail_from, src->mail_date, src->mail_subject, &b);
			buf_puts(&b, ")");
		}
		break;
	}
	return buf_detach(&b);
}

/*
 * A report of a store without --variants or --baseline compares what is
 * comparable: one section per benchmark and comparable set (a post's own
 * variants; the variants with global names on one machine: a result
 * tree's commits on a host, logs a user named), each against its own
 * first variant.  A post's variant is never compared with another
 * post's, nor a machine's run with another machine's.  With --variants
 * or --baseline the report does what it is told: one section per
 * benchmark (the table says when the machines differ).
 */
static size_t report_plan(struct db *db, const struct db_list *list, const struct cli_select *sel,
			  const struct an_query *q, struct report_plan **out, struct kb_err *err)
{
	struct db_cset *sets = NULL;
	size_t i, k, n = 0, nsets = 0;

	if (q->nvariants || q->baseline) {
		*out = xcalloc(list->nbenches + 1, sizeof(**out));
		for (i = 0; i < list->nbenches; i++) {
			const char *bench = list->benches[i].benchmark;
			struct report_plan *p;

			if (sel->bench && strcmp(sel->bench, bench))
				continue;
			p = &(*out)[n++];
			p->title = xstrdup(bench);
			p->bench = xstrdup(bench);
			p->q = *q;
			p->q.bench = p->bench;
			p->q.defer_bh = 1;
			p->sel = *sel;
		}
		return n;
	}
	if (db_comparable_sets(db, sel->bench && *sel->bench ? sel->bench : NULL, &sets, &nsets,
			       err) < 0) {
		*out = NULL;
		return (size_t)-1;
	}
	*out = xcalloc(nsets + 1, sizeof(**out));
	for (i = 0; i < nsets; i++) {
		const struct db_cset *c = &sets[i];
		struct report_plan *p;

		/* --machine narrows a machine's set by its machine (a post's
		 * runs are narrowed by the comparison itself) */
		if (!c->post && !an_machine_selected(q->machines, q->nmachines,
						     c->key[0] ? c->key : NULL))
			continue;
		p = &(*out)[n++];

		p->title = set_title(c, list);
		p->bench = xstrdup(c->benchmark);
		p->q = *q;
		p->q.bench = p->bench;
		p->q.defer_bh = 1;
		p->vars = xcalloc(c->nvariants + 1, sizeof(*p->vars));
		for (k = 0; k < c->nvariants; k++)
			p->vars[p->nvars++] = xstrdup(c->variants[k]);
		p->q.variants = (const char *const *)p->vars;
		p->q.nvariants = p->nvars;
		if (!c->post) {
			p->machine = xstrdup(c->key[0] ? c->key : "unknown");
			p->mach[0] = p->machine;
			p->q.machines = p->mach;
			p->q.nmachines = 1;
		}
		p->sel = *sel;
		p->sel.variant_v = (const char **)p->vars;
		p->sel.nvariant_v = p->nvars;
	}
	db_csets_free(sets, nsets);
	/* A benchmark with one comparable set needs no more than its name. */
	for (i = 0; i < n; i++) {
		size_t same = 0;
		for (k = 0; k < n; k++)
			same += strcmp((*out)[k].bench, (*out)[i].bench) == 0;
		if (same == 1) {
			free((*out)[i].title);
			(*out)[i].title = xstrdup((*out)[i].bench);
		}
	}
	return n;
}

static void report_plan_release(struct report_plan *plan, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		free(plan[i].title);
		free(plan[i].bench);
		for (k = 0; k < plan[i].nvars; k++)
			free(plan[i].vars[k]);
		free(plan[i].vars);
		free(plan[i].machine);
	}
	free(plan);
}

/* A section with more variants than fit side by side: its history and
 * each variant's comparison with the baseline where both have numbers
 * (analyze/wide.h), never a rows x variants table. */
static int section_wide(struct db *db, struct report *rep, const struct report_plan *p,
			size_t plan_index, const struct pindex *pix, int charts, struct kb_err *err)
{
	long long *ids = xcalloc(p->q.nvariants + 1, sizeof(*ids)), base = 0;
	struct an_wide w;
	struct report_section *s;
	size_t k;
	char *disp = NULL;

	for (k = 0; k < p->q.nvariants; k++) {
		if (db_variant_resolve_id(db, p->q.variants[k], &ids[k], &disp, err) < 0) {
			free(ids);
			return -1;
		}
		free(disp);
	}
	base = ids[0];
	if (p->q.baseline) {
		if (db_variant_resolve_id(db, p->q.baseline, &base, &disp, err) < 0) {
			free(ids);
			return -1;
		}
		free(disp);
	}
	if (an_wide_build(db, &p->q, ids, p->q.nvariants, base, &w, err) < 0) {
		free(ids);
		return -1;
	}
	free(ids);
	if (!w.nvariants && !pindex_select(pix, &p->sel, p->bench, NULL)) {
		an_wide_release(&w);
		return 0;
	}
	s = report_section(rep, p->bench);
	if (strcmp(p->title, p->bench) != 0)
		s->title = xstrdup(p->title);
	s->plan = plan_index;
	s->wide = w.nvariants;
	s->wide_baseline = w.baseline;
	w.baseline = NULL;
	s->pairs = w.pairs;
	s->npairs = w.npairs;
	w.pairs = NULL;
	w.npairs = 0;
	if (p->q.baseline && !s->wide_baseline) {
		struct buf b = BUF_INIT;

		buf_printf(&b, "%s has no %s numbers in the selection.", p->q.baseline, p->bench);
		s->note = buf_detach(&b);
	}
	if (s->npairs)
		rep->opts = s->pairs[0].opts;
	wide_charts(s, &w, charts);
	an_wide_release(&w);
	return 0;
}

/* --since and --limit: each section's variant list (a comparable set's,
 * or --variants) keeps the variants first imported at or after since,
 * then the limit newest of them (import order = variant id).  A section
 * left with none is skipped.  The --baseline stays, wherever it is. */
static const struct db_list *narrow_list;

static int cmp_vidx(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(narrow_list->variants[a].name, narrow_list->variants[b].name);

	return c ? c : (a < b ? -1 : a > b);
}

static void report_plan_narrow(struct report_plan *plan, size_t n, const struct db_list *list,
			       long limit, const char *since)
{
	size_t *byname = xmalloc((list->nvariants + 1) * sizeof(*byname)), i, k;

	for (i = 0; i < list->nvariants; i++)
		byname[i] = i;
	narrow_list = list;
	qsort(byname, list->nvariants, sizeof(*byname), cmp_vidx);
	for (i = 0; i < n; i++) {
		struct report_plan *p = &plan[i];
		struct { long long id; const char *name; } *keep;
		size_t nk = 0, first = 0;
		char **vars;

		if (!p->q.nvariants)
			continue;       /* --baseline alone: every variant with numbers */
		keep = xcalloc(p->q.nvariants + 1, sizeof(*keep));
		for (k = 0; k < p->q.nvariants; k++) {
			const char *name = p->q.variants[k];
			size_t lo = 0, hi = list->nvariants;
			const struct db_variant *v = NULL;

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (strcmp(list->variants[byname[mid]].name, name) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < list->nvariants && !strcmp(list->variants[byname[lo]].name, name))
				v = &list->variants[byname[lo]];
			if (since && (!v || !v->created_at || strcmp(v->created_at, since) < 0))
				continue;
			keep[nk].id = v ? v->id : 0;
			keep[nk++].name = name;
		}
		if (limit > 0 && nk > (size_t)limit) {
			/* the newest: the highest ids, kept in their order */
			long long *ids = xmalloc(nk * sizeof(*ids)), cut;

			for (k = 0; k < nk; k++)
				ids[k] = keep[k].id;
			qsort(ids, nk, sizeof(*ids), cmp_ll);
			cut = ids[nk - (size_t)limit];
			free(ids);
			for (k = 0; k < nk; k++)
				if (keep[k].id >= cut)
					keep[first++] = keep[k];
			nk = first;
		}
		vars = xcalloc(nk + 1, sizeof(*vars));
		for (k = 0; k < nk; k++)
			vars[k] = xstrdup(keep[k].name);
		free(keep);
		for (k = 0; k < p->nvars; k++)
			free(p->vars[k]);
		free(p->vars);
		p->vars = vars;
		p->nvars = nk;
		p->q.variants = (const char *const *)p->vars;
		p->q.nvariants = nk;
		p->sel.variant_v = (const char **)p->vars;
		p->sel.nvariant_v = nk;
		if (!nk)
			p->skip = 1;
	}
	free(byname);
}

/* The comparison of one section, BH left to the caller.  When the
 * report's baseline has no data in it, the section compares against its
 * first variant, and note says so. */
static int section_compare(struct db *db, const struct report_plan *p, struct an_table *t,
			   struct buf *note, struct kb_err *err)
{
	struct an_query bq = p->q;

	if (an_compare_build(db, &bq, t, err) == 0)
		return 0;
	if (!p->q.baseline)
		return -1;
	kb_err_clear(err);
	bq.baseline = NULL;
	if (an_compare_build(db, &bq, t, err) < 0)
		return -1;
	buf_printf(note, "%s has no %s numbers in the selection; the baseline here is %s.",
		   p->q.baseline, p->bench, t->nvariants ? t->variants[t->baseline].name : "-");
	return 0;
}

static void describe_selection(struct buf *b, const struct cli_select *s)
{
	size_t i;

	buf_puts(b, s->bench ? s->bench : "every benchmark");
	if (s->nmetric_v) {
		buf_puts(b, "; metrics ");
		for (i = 0; i < s->nmetric_v; i++)
			buf_printf(b, "%s%s", i ? ", " : "", s->metric_v[i]);
	}
	if (s->nvariant_v) {
		buf_puts(b, "; variants ");
		for (i = 0; i < s->nvariant_v; i++)
			buf_printf(b, "%s%s", i ? ", " : "", s->variant_v[i]);
	}
	for (i = 0; i < s->nkv; i++)
		buf_printf(b, "; %s=%s", s->kv[i].key, s->kv[i].value);
	if (s->baseline)
		buf_printf(b, "; baseline %s", s->baseline);
}

static char *now_text(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	char out[64];

	if (sde && *sde)
		t = (time_t)strtoll(sde, NULL, 10);
	gmtime_r(&t, &tm);
	strftime(out, sizeof(out), "%Y-%m-%d %H:%M UTC", &tm);
	return xstrdup(out);
}

/* mkdir -p */
static int make_dirs(const char *path, struct kb_err *err)
{
	char *p, *s;

	if (!path[0])
		return kb_err_set(err, "", 0, "an empty name is not a directory");
	p = xstrdup(path);
	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0777) < 0 && errno != EEXIST) {
				kb_err_set(err, path, 0, "cannot create: %s", strerror(errno));
				free(p);
				return -1;
			}
			*s = '/';
		}
	if (mkdir(p, 0777) < 0 && errno != EEXIST) {
		kb_err_set(err, path, 0, "cannot create: %s", strerror(errno));
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

/* The assets directory as the HTML file should name it: relative to the
 * file's directory when inside it, else absolute. */
static char *assets_href(const char *assets, const char *out)
{
	char a[PATH_MAX], d[PATH_MAX], *dir, *slash;
	size_t n;

	dir = xstrdup(out ? out : "./x");
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	else
		strcpy(dir, ".");
	if (!realpath(assets, a) || !realpath(dir, d)) {
		free(dir);
		return xstrdup(assets);
	}
	free(dir);
	n = strlen(d);
	if (!strcmp(a, d))
		return xstrdup("");
	if (!strncmp(a, d, n) && (a[n] == '/' || (n == 1 && d[0] == '/')))
		return xstrdup(a + n + (a[n] == '/'));
	return xstrdup(a);
}

/* A set of more variants than this is compared sparsely (analyze/wide.h):
 * each variant against the baseline where both have numbers, from the
 * history; up to it the table is built (at most this many columns) and
 * shown as a wide section when it has more than REPORT_MAX_SIDE_BY_SIDE. */
#define REPORT_WIDE_SPARSE 64

/* Charts in one report, at most (each a PNG of ~20 ms and ~30 KB). */
#define REPORT_MAX_CHARTS 400

/* numa_test job tables in one report, at most (each section's first
 * REPORT_MAX_JOB_TABLES, in the order charts are given out). */
#define REPORT_MAX_JOB_RUNS 960

static size_t *chart_rank;      /* per section: worse + better verdicts */

static size_t table_verdicts(const struct an_table *t)
{
	size_t r, v, n = 0;

	for (r = 0; r < t->nrows; r++)
		for (v = 0; v < t->nvariants; v++)
			n += t->rows[r].cells[v].has_change &&
			     (t->rows[r].cells[v].chg.verdict == AN_VERDICT_WORSE ||
			      t->rows[r].cells[v].chg.verdict == AN_VERDICT_BETTER);
	return n;
}

static size_t section_verdicts(const struct report_section *s)
{
	size_t k, n = table_verdicts(&s->table);

	for (k = 0; k < s->npairs; k++)
		n += table_verdicts(&s->pairs[k]);
	return n;
}

static int cmp_rank(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	if (chart_rank[a] != chart_rank[b])
		return chart_rank[a] > chart_rank[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int cmp_str(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

static int days_in_month(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return days[month - 1] + (month == 2 && leap);
}

/* --since WHEN: YYYY-MM-DD, or with THH:MM or THH:MM:SS (a space for the
 * T too), into the form the store keeps ("2024-12-01T18:58"), which
 * compares as text. */
static int parse_since(const char *s, char out[32])
{
	static const char *const shape[] = { "dddd-dd-dd", "dddd-dd-ddTdd:dd",
					     "dddd-dd-ddTdd:dd:dd" };
	size_t i, k, n = strlen(s);
	int mo, day, h = 0, mi = 0, se = 0;

	for (k = 0; k < ARRAY_SIZE(shape); k++) {
		if (n != strlen(shape[k]))
			continue;
		for (i = 0; i < n; i++) {
			char c = shape[k][i];

			if (c == 'd' ? !(s[i] >= '0' && s[i] <= '9')
				     : c == 'T' ? !(s[i] == 'T' || s[i] == ' ') : s[i] != c)
				break;
		}
		if (i == n)
			break;
	}
	if (k == ARRAY_SIZE(shape))
		return -1;
	mo = atoi(s + 5);
	day = atoi(s + 8);
	if (n > 10) {
		h = atoi(s + 11);
		mi = atoi(s + 14);
	}
	if (n > 16)
		se = atoi(s + 17);
	if (mo < 1 || mo > 12 || day < 1 || day > days_in_month(atoi(s), mo) || h > 23 ||
	    mi > 59 || se > 59)
		return -1;      /* 2024-02-30 is no date */
	memcpy(out, s, n + 1);
	if (n > 10)
		out[10] = 'T';
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct progress prog;
	struct cli_select sel;
	const char *format = "html", *out = NULL, *assets = NULL, *title = NULL, *errbar = NULL;
	int no_findings = 0, no_charts = 0;
	long limit = LONG_MIN;  /* not given (any number given is checked) */
	const char *since_arg = NULL;
	char since[32];
	const struct opt opts[] = {
		CLI_SELECT_OPTS(&sel),
		OPT_STRING("format", "html|text", &format, "an HTML page (default) or a plain-text mail body"),
		OPT_STRING("output", "FILE", &out, "(-o) write to FILE (default: standard output)"),
		OPT_STRING("assets", "DIR", &assets, "html: write the charts as PNG files into DIR"),
		OPT_STRING("title", "T", &title, "the report's title"),
		OPT_STRING("error", "sd|ci|none", &errbar, "whiskers of the bar charts (default sd)"),
		OPT_FLAG("no-findings", &no_findings, "leave out the regress findings"),
		OPT_FLAG("no-charts", &no_charts, "html: tables only"),
		OPT_FLAG("use-flagged", &sel.use_flagged, "test footnoted published cells too"),
		OPT_LONG("limit", "N", &limit, "each section: its N newest variants (import order)"),
		OPT_STRING("since", "WHEN", &since_arg, "each section: the variants first imported at or "
			   "after WHEN (YYYY-MM-DD[THH:MM[:SS]], UTC)"),
		OPT_END,
	};
	const struct cmd_usage u = { "report",
		"[selection] [--baseline V] [--format html|text] [-o FILE] [--assets DIR]",
		"A whole report: findings and verdicts first, then per benchmark its\n"
		"comparison table, charts and (numa_test) job tables; methods last.\n"
		"HTML is one self-contained file unless --assets.  See docs/report.md.", opts };
	struct report rep;
	struct an_query q;
	struct an_regress g;
	struct db_list list;
	struct db_placement pl;
	struct db *db = NULL;
	struct kb_err err;
	struct buf b = BUF_INIT;
	const char **args;
	size_t nargs, i, v, k;
	int rc, html, have_list = 0, have_pl = 0, have_g = 0, status = EXIT_USAGE, eb;
	FILE *f = NULL;
	char *href = NULL;
	struct outfile of;
	int have_of = 0;
	struct report_plan *plan = NULL;
	/* per section (rep.sections' order): what the report keeps of a
	 * table it releases (see the first pass) */
	struct sxinfo {
		int built;              /* a table of its own (not a wide section's pairs) */
		size_t nrows, rank, charts;
		double *p;              /* its p values (first pass) */
		size_t np, capp, qoff;  /* ... and where its q values are in qv */
		int want_charts;
	} *sx = NULL;
	size_t capsx = 0, nsx = 0, nq = 0, capq = 0, nuv = 0, capuv = 0, capqc = 0;
	double *qv = NULL, *qcheck = NULL;
	char **uv = NULL;
	struct report_stream st;
	struct an_regress_opts ro;
	struct an_regress_acc acc;
	int have_st = 0, have_acc = 0;
	const char **styles = NULL;
	struct pindex pix = { NULL, NULL };
	struct chart_model_opts sco = { 0 };
	size_t nplan = 0;

	cli_select_init(&sel);
	cli_short_output(argc, argv);
	progress_init(&prog, "report", 0, 1.0);
	rc = opt_parse(&u, argc, argv, &args, &nargs);
	if (rc) {
		cli_select_release(&sel);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	free(args);
	kb_err_clear(&err);
	report_init(&rep);
	memset(&g, 0, sizeof(g));
	an_query_init(&q);
	if (nargs) {
		fprintf(stderr, "kbench report: unexpected argument\n");
		goto usage;
	}
	if (!strcmp(format, "html")) {
		html = 1;
	} else if (!strcmp(format, "text")) {
		html = 0;
	} else {
		fprintf(stderr, "kbench report: --format is html or text\n");
		goto usage;
	}
	if (assets && !assets[0]) {
		fprintf(stderr, "kbench report: --assets needs a directory name\n");
		goto usage;
	}
	if (assets && !html) {
		fprintf(stderr, "kbench report: --assets goes with --format html\n");
		goto usage;
	}
	if (limit != LONG_MIN && limit < 1) {
		fprintf(stderr, "kbench report: --limit takes a whole number of at least 1\n");
		goto usage;
	}
	if (limit == LONG_MIN)
		limit = 0;
	if (since_arg && parse_since(since_arg, since) < 0) {
		fprintf(stderr, "kbench report: --since takes a date, YYYY-MM-DD, or "
			"YYYY-MM-DDTHH:MM[:SS] (UTC), not '%s'\n", since_arg);
		goto usage;
	}
	if (chart_model_errbar(errbar, &eb) < 0) {
		fprintf(stderr, "kbench report: --error is sd, ci or none\n");
		goto usage;
	}
	if (cli_select_query(&sel, &q, &err) < 0) {
		cli_report("report", &err);
		goto usage;
	}
	if (db_open_existing(&db, cli_db_path(sel.db), &err) < 0)
		goto fail;
	{
		struct cli_names nm;

		cli_select_rejoin(&sel, &q, db);
		cli_select_names(&sel, &nm);
		if (cli_selection_check(db, &nm, &err) < 0 || cli_select_resolve(&sel, db, &q, &err) < 0)
			goto fail;
	}
	if (db_list(db, &list, &err) < 0)
		goto fail;
	have_list = 1;
	/* A status line on a terminal once this takes more than a second. */
	prog.on = progress_tty();
	progress_start_ticker(&prog);
	if (cli_placement_load(db, &pl, &err) < 0)
		goto fail;
	have_pl = 1;
	pindex_init(&pix, &pl);

	/* The sections (one selection each), all compared into one result:
	 * one Benjamini-Hochberg family for the whole report. */
	nplan = report_plan(db, &list, &sel, &q, &plan, &err);
	if (nplan == (size_t)-1) {
		nplan = 0;
		goto fail;
	}
	if (limit > 0 || since_arg)
		report_plan_narrow(plan, nplan, &list, limit, since_arg ? since : NULL);
	for (i = 0; i < nplan; i++) {
		struct report_section *s;
		struct an_table t;
		progress_step(&prog, "comparing section", i + 1, nplan);

		if (plan[i].skip)
			continue;
		if (plan[i].q.nvariants > REPORT_WIDE_SPARSE) {
			if (section_wide(db, &rep, &plan[i], i, &pix, html && !no_charts, &err) < 0)
				goto fail;
			continue;
		}

		buf_reset(&b);
		if (section_compare(db, &plan[i], &t, &b, &err) < 0)
			goto fail;
		if (!t.nrows && !pindex_select(&pix, &plan[i].sel, plan[i].bench, NULL)) {
			an_table_release(&t);
			continue;
		}
		if (t.warning) {
			if (b.len)
				buf_putc(&b, ' ');
			buf_printf(&b, "Note: %s.", t.warning);
		}
		s = report_section(&rep, plan[i].bench);
		if (strcmp(plan[i].title, plan[i].bench) != 0)
			s->title = xstrdup(plan[i].title);
		s->plan = i;
		if (b.len)
			s->note = xstrdup(buf_str(&b));
		s->table = t;
		rep.opts = t.opts;
		if (t.nvariants > REPORT_MAX_SIDE_BY_SIDE) {
			s->wide = t.nvariants;
			s->wide_baseline = xstrdup(t.variants[t.baseline].name);
		}
		/* What the rest needs of the table (the report cannot keep every
		 * section's): its p values for the one BH family, its verdicts
		 * before that family's correction and the charts it would draw
		 * (for the chart budget), its variants (the overview).  It is
		 * built again when the section is written. */
		k = rep.nsections - 1;
		xgrow(&sx, &capsx, k + 1, sizeof(*sx));
		while (nsx <= k)
			memset(&sx[nsx++], 0, sizeof(*sx));
		sx[k].built = 1;
		an_table_pvalues(&t, &sx[k].p, &sx[k].np, &sx[k].capp);
		sx[k].nrows = t.nrows;
		sx[k].rank = table_verdicts(&t);
		sx[k].charts = section_charts_count(&t);
		for (v = 0; v < t.nvariants; v++) {
			xgrow(&uv, &capuv, nuv + 1, sizeof(*uv));
			uv[nuv++] = xstrdup(t.variants[v].name);
		}
		if (k > 0)
			an_table_release(&s->table);    /* section 0's stays: the text legend */
	}
	if (!rep.nsections) {
		cli_select_empty(&err, &sel);
		goto fail;
	}
	xgrow(&sx, &capsx, rep.nsections + 1, sizeof(*sx));
	while (nsx <= rep.nsections)
		memset(&sx[nsx++], 0, sizeof(*sx));
	/* One BH family: every section's comparisons (their p values, gathered
	 * as each table was built) and every wide section's pair tables, in
	 * the order an_tables_bh() takes them; each table's q values are
	 * given back to it (a section's when it is built again). */
	{
		size_t *pcnt = NULL, capc = 0, npc = 0, off;

		for (i = 0; i < rep.nsections; i++) {
			struct report_section *sec = &rep.sections[i];

			sx[i].qoff = nq;
			for (k = 0; k < sx[i].np; k++) {
				xgrow(&qv, &capq, nq + 1, sizeof(*qv));
				qv[nq++] = sx[i].p[k];
			}
			free(sx[i].p);
			sx[i].p = NULL;
			for (k = 0; k < sec->npairs; k++) {
				xgrow(&pcnt, &capc, npc + 1, sizeof(*pcnt));
				pcnt[npc++] = an_table_pvalues(&sec->pairs[k], &qv, &nq, &capq);
			}
		}
		if (nq)
			an_bh(qv, nq, qv);
		npc = 0;
		for (i = 0; i < rep.nsections; i++) {
			struct report_section *sec = &rep.sections[i];

			off = sx[i].qoff + sx[i].np;
			for (k = 0; k < sec->npairs; k++) {
				an_table_set_q(&sec->pairs[k], qv ? qv + off : NULL, pcnt[npc], nq);
				off += pcnt[npc++];
			}
		}
		free(pcnt);
		rep.family = nq;
		if (sx[0].built)	/* kept: the text legend */
			an_table_set_q(&rep.sections[0].table, qv ? qv + sx[0].qoff : NULL,
				       sx[0].np, nq);
	}
	/* one look per variant in every chart, as `kbench chart` gives it:
	 * its place in the store */
	styles = xmalloc((list.nvariants + 1) * sizeof(*styles));
	for (i = 0; i < list.nvariants; i++)
		styles[i] = list.variants[i].name;
	memset(&sco, 0, sizeof(sco));
	chart_model_styles_init(&sco, styles, list.nvariants);
	{
		/* Charts cost time and page: at most REPORT_MAX_CHARTS, given to
		 * the sections with the most worse and better verdicts first
		 * (then in report order); the others say so. */
		size_t *order = xmalloc((rep.nsections + 1) * sizeof(*order)), drawn = 0;
		size_t job_budget = REPORT_MAX_JOB_RUNS;

		chart_rank = xcalloc(rep.nsections + 1, sizeof(*chart_rank));
		for (i = 0; i < rep.nsections; i++) {
			order[i] = i;
			/* a built section's verdicts before the family's correction */
			chart_rank[i] = sx[i].built ? sx[i].rank : section_verdicts(&rep.sections[i]);
			drawn += rep.sections[i].charts.n;      /* wide sections' history */
		}
		qsort(order, rep.nsections, sizeof(*order), cmp_rank);
		for (k = 0; k < rep.nsections; k++) {
			struct report_section *s = &rep.sections[order[k]];
			int charts = html && !no_charts && drawn < REPORT_MAX_CHARTS;

			if (sx[order[k]].built) {
				/* drawn when the section is written (its table built
				 * again); counted now as it will draw */
				if (charts && sx[order[k]].nrows) {
					sx[order[k]].want_charts = 1;
					drawn += sx[order[k]].charts;
				}
			} else if (charts && s->table.nrows) {
				section_charts(s, (enum chart_errbar)eb, &sco);
			}
			section_placement(s, &pix, &plan[s->plan].sel, charts, &job_budget, &sco);
			if (html && !no_charts && !charts && !s->charts.n)
				s->charts_left_out = 1;         /* (a wide set's history is drawn) */
			if (!sx[order[k]].built && s->table.nrows)
				drawn += s->charts.n;
			drawn += s->placement.n;
		}
		free(order);
		free(chart_rank);
		chart_rank = NULL;
		rep.charts_max = REPORT_MAX_CHARTS;
	}
	rep.opts.dir = AN_DIR_NONE;

	/* Variants with data in the report, in store order, with descriptions. */
	{
		const char **used = NULL;
		size_t nused = 0, capu = 0, j;

		for (k = 0; k < nuv; k++) {     /* the built sections' */
			xgrow(&used, &capu, nused + 1, sizeof(*used));
			used[nused++] = uv[k];
		}
		for (i = 0; i < rep.nsections; i++) {
			const struct report_section *s = &rep.sections[i];

			if (!sx[i].built)
				for (k = 0; k < s->table.nvariants; k++) {
					xgrow(&used, &capu, nused + 1, sizeof(*used));
					used[nused++] = s->table.variants[k].name;
				}
			for (j = 0; j < s->npairs; j++)
				for (k = 0; k < s->pairs[j].nvariants; k++) {
					xgrow(&used, &capu, nused + 1, sizeof(*used));
					used[nused++] = s->pairs[j].variants[k].name;
				}
			for (k = 0; k < s->nruns; k++) {
				xgrow(&used, &capu, nused + 1, sizeof(*used));
				used[nused++] = s->runs[k].variant;
			}
		}
		if (nused)
			qsort(used, nused, sizeof(*used), cmp_str);
		for (v = 0; v < list.nvariants; v++)
			if (nused && bsearch(&list.variants[v].name, used, nused, sizeof(*used), cmp_str))
				report_variant(&rep, list.variants[v].name, list.variants[v].kernel,
					       list.variants[v].description);
		free(used);
	}
	for (i = 0; i < list.nmachines; i++) {
		buf_reset(&b);
		buf_puts(&b, list.machines[i].name);
		if (list.machines[i].description && *list.machines[i].description)
			buf_printf(&b, ": %s", list.machines[i].description);
		buf_printf(&b, " (%lld runs)", list.machines[i].runs);
		report_machine(&rep, buf_str(&b));
	}
	for (i = 0; i < list.nsources; i++) {
		buf_reset(&b);
		if (list.sources[i].mail_from || list.sources[i].mail_date ||
		    list.sources[i].mail_subject) {
			mail_byline(list.sources[i].mail_from, list.sources[i].mail_date,
				    list.sources[i].mail_subject, &b);
			buf_puts(&b, ": ");
		}
		buf_printf(&b, "%s [%s] %lld runs, %lld summaries, sha256 %.12s, imported %s",
			   list.sources[i].path,
			   list.sources[i].format ? list.sources[i].format : "-",
			   list.sources[i].runs, list.sources[i].summaries,
			   list.sources[i].sha256 ? list.sources[i].sha256 : "-",
			   list.sources[i].imported_at ? list.sources[i].imported_at : "-");
		if (!html) {
			/* a mail body: a file name or a header on one line */
			char *shown = term_line(buf_str(&b));

			buf_reset(&b);
			buf_puts(&b, shown);
			free(shown);
		}
		report_source(&rep, buf_str(&b));
	}

	/* Findings (kbench regress) at the top: read from the same tables as
	 * each section is written, so every count and q-value matches. */
	if (!no_findings) {
		an_regress_opts_init(&ro);
		ro.q = q;
		ro.lean = 1;            /* counts of "same", no run lists: what a report shows */
		ro.pl = &pl;            /* every run with job rows, loaded above */
		an_regress_acc_init(&acc);
		have_acc = 1;
	}

	rep.title = xstrdup(title ? title : "kbench report");
	rep.generated = now_text();
	rep.db = xstrdup(db_name(db));	/* a server's password masked */
	buf_reset(&b);
	describe_selection(&b, &sel);
	rep.selection = xstrdup(buf_str(&b));

	if (assets) {
		if (make_dirs(assets, &err) < 0)
			goto fail;
		href = assets_href(assets, out);
	}
	progress_step(&prog, out ? "writing the report" : "", 0, 0);
	if (!out)
		progress_end(&prog);    /* the report goes to the terminal */
	/* The report is written as it is made, through the one output
	 * writer: a failed run leaves FILE as it was. */
	if (out) {
		if (outfile_open(&of, out, &err) < 0)
			goto fail;
		have_of = 1;
		if (!html)
			outfile_text(&of);      /* a mail body: no control characters */
		f = of.f;
	} else {
		f = stdout;
	}
	/* Section by section: built again (the BH family's q values given
	 * back), charted, searched for findings, written, released. */
	rc = report_stream_begin(&st, html, assets, href, &err);
	have_st = rc == 0;
	for (i = 0; i < rep.nsections && rc == 0; i++) {
		struct report_section *s = &rep.sections[i];
		const struct an_table **tl;
		size_t ntl = 0;

		progress_step(&prog, "writing section", i + 1, rep.nsections);
		if (sx[i].built && i > 0) {
			struct buf nb = BUF_INIT;

			rc = section_compare(db, &plan[s->plan], &s->table, &nb, &err);
			buf_release(&nb);
			if (rc < 0)
				break;
			if (an_table_pvalues(&s->table, &qcheck, &(size_t){ 0 }, &capqc) != sx[i].np) {
				rc = kb_err_set(&err, "", 0, "section %zu changed while the report was "
						"made (an import meanwhile?): make it again", i + 1);
				break;
			}
			an_table_set_q(&s->table, qv ? qv + sx[i].qoff : NULL, sx[i].np, nq);
		}
		if (sx[i].want_charts)
			section_charts(s, (enum chart_errbar)eb, &sco);
		if (have_acc) {
			tl = xcalloc(s->npairs + 2, sizeof(*tl));
			tl[ntl++] = &s->table;
			for (k = 0; k < s->npairs; k++)
				tl[ntl++] = &s->pairs[k];
			if (an_regress_acc_add(db, &ro, &acc, tl, ntl, &err) < 0) {
				/* e.g. the baseline lacks data somewhere: the report
				 * stands without */
				progress_end(&prog);    /* (no status line over the message) */
				fprintf(stderr, "kbench report: no findings: %s\n", err.msg);
				kb_err_clear(&err);
				an_regress_acc_release(&acc);
				have_acc = 0;
			}
			free(tl);
		}
		rc = report_stream_section(&st, &rep, i, &err);
		report_section_drop(s, sx[i].built && i > 0);
	}
	if (rc == 0 && have_acc) {
		an_regress_acc_end(&ro, &acc, &g);
		have_acc = 0;
		have_g = 1;
		if (!q.baseline && rep.nsections > 1) {
			/* each section against its own first variant */
			free(g.baseline);
			g.baseline = xstrdup("each section's first variant");
		}
		rep.regress = &g;
		if (html && !no_charts)
			finding_charts(&rep, &g, &pl);
	}
	if (rc == 0)
		rc = report_stream_end(&st, f, &rep, &err);
	if (rc < 0 && out && !err.file[0] && strcmp(err.msg, "write error") == 0)
		kb_err_set(&err, out, 0, "write error");
	if (out) {
		have_of = 0;
		if (rc == 0)
			rc = outfile_commit(&of, &err);
		else
			outfile_abort(&of);
	} else if (fflush(stdout) != 0 && rc == 0) {
		rc = kb_err_set(&err, "", 0, "write error");
	}
	if (rc < 0)
		goto fail;
	status = EXIT_OK;
	goto done;
fail:
	progress_end(&prog);
	cli_report("report", &err);
	status = EXIT_USAGE;
	goto done;
usage:
	opt_usage(&u, stderr);
done:
	progress_end(&prog);
	if (have_of)
		outfile_abort(&of);
	if (have_st)
		report_stream_release(&st);
	if (have_acc)
		an_regress_acc_release(&acc);
	for (i = 0; i < nsx; i++)
		free(sx[i].p);
	free(sx);
	for (i = 0; i < nuv; i++)
		free(uv[i]);
	free(uv);
	free(qv);
	free(qcheck);
	free(href);
	free(styles);
	chart_model_styles_release(&sco);
	free(pix.byname);
	report_plan_release(plan, nplan);
	report_release(&rep);
	if (have_g)
		an_regress_release(&g);
	if (have_pl)
		db_placement_release(&pl);
	if (have_list)
		db_list_release(&list);
	if (db)
		db_close(db);
	buf_release(&b);
	cli_select_release(&sel);
	return status;
}
