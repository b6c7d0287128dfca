/*
 * report_build.c - a report's model and charts from its plan (see
 * report_build.h): the sections' charts (bars per metric, the change
 * forest plot, a wide section's history), numa_test job tables and
 * heatmaps, the overview, and the two passes over the sections.
 */
#include "report_build.h"
#include "chart.h"
#include "chart_build.h"
#include "regress.h"
#include "../analyze/envdiff.h"
#include "../analyze/history.h"
#include "../core/buf.h"
#include "../core/outfile.h"
#include "../core/term.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/placement.h"
#include "../ingest/mail.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Charts of a benchmark's section: a bars chart per metric, the change
 * forest plot when it stays readable. */
#define MAX_CHANGE_ROWS 40      /* more: the top 40 by |change|, the chart says so */
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
/* When runs[i] is its variant's first run: the pages of heatmaps of
 * that variant's runs (a big store: the first PLACEMENT_PAGES, the
 * captions say so), and in *total how many runs it has; else 0. */
static size_t variant_pages(const struct db_prun *const *runs, size_t n, size_t i, size_t *total)
{
	size_t j, npages;

	for (j = 0; j < i; j++)
		if (runs[j]->variant_id == runs[i]->variant_id)
			return 0;
	*total = 0;
	for (j = i; j < n; j++)
		*total += runs[j]->variant_id == runs[i]->variant_id;
	npages = (*total + PLACEMENT_PAGE - 1) / PLACEMENT_PAGE;
	return npages > PLACEMENT_PAGES ? PLACEMENT_PAGES : npages;
}

static void section_placement(struct report_build *b, struct report_section *s,
			      const struct an_rsel *sel, int charts, size_t *job_budget)
{
	const struct db_prun **runs = NULL;
	size_t i, j, n;
	struct chart_model_opts co = b->sco;
	struct kb_err err;
	char *common;

	n = an_report_runs(&b->pix, b->pl, sel, &runs);
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
	common = charts ? chart_build_common_config(runs, n) : NULL;
	for (i = 0; i < n && charts; i++) {
		size_t np = 0, total, page = 0, npages = variant_pages(runs, n, i, &total);

		if (!npages)
			continue;
		for (j = i; j < n; j += 0) {
			struct chart *c = chart_new(CHART_PLACEMENT);
			char title[512];

			np = 0;
			for (; j < n && np < PLACEMENT_PAGE; j++)
				if (runs[j]->variant_id == runs[i]->variant_id) {
					chart_build_panel(c, runs[j], 0, common);
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
		if (chart_build_nodeload(c, runs, n, &co, &err) == 0)
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
					chart_build_panel(c, &pl->runs[j], 1, NULL);
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


/* The placement charts section_placement() draws of sel's runs when the
 * section has charts: each variant's pages of heatmaps, the jobs per
 * node.  The chart budget counts them before they are drawn. */
static size_t placement_count(const struct report_build *b, const struct an_rsel *sel)
{
	const struct db_prun **runs = NULL;
	size_t n = an_report_runs(&b->pix, b->pl, sel, &runs), i, total, count = 0;

	for (i = 0; i < n; i++)
		count += variant_pages(runs, n, i, &total);
	free(runs);
	return count + (n ? 1 : 0);
}

/* A section with more variants than fit side by side: its history and
 * each variant's comparison with the baseline where both have numbers
 * (analyze/wide.h), never a rows x variants table. */
static int section_wide(struct report_build *b, struct db *db, size_t plan_index,
			struct kb_err *err)
{
	const struct an_rsel *p = &b->plan->sels[plan_index];
	struct report *rep = &b->rep;
	struct an_wide w;
	struct report_section *s;

	if (an_report_wide(db, p, &w, err) < 0)
		return -1;
	if (!w.nvariants && !an_report_runs(&b->pix, b->pl, p, NULL)) {
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
	an_report_add_pairs(b->plan, plan_index, s->pairs, s->npairs)->placement =
		placement_count(b, p);
	wide_charts(s, &w, b->o.charts);
	an_wide_release(&w);
	return 0;
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


static void step(const struct report_build *b, const char *what, size_t i, size_t n)
{
	if (b->o.ev.step)
		b->o.ev.step(b->o.ev.ctx, what, i, n);
}

void report_build_init(struct report_build *b, const struct report_build_opts *o)
{
	memset(b, 0, sizeof(*b));
	b->o = *o;
	report_init(&b->rep);
}

/* A section with a table of its own; 0 when it has nothing to show. */
/* The pairs of t (its baseline against each other variant, on each
 * machine of its rows) whose recorded environments differ, once each,
 * into the report's header. */
static int env_pairs(struct report_build *b, struct db *db, const struct an_table *t,
		     struct kb_err *err)
{
	struct buf key = BUF_INIT, diff = BUF_INIT, line = BUF_INIT;
	size_t r, v, k;
	int rc = 0;

	for (r = 0; r < t->nrows && rc == 0; r++) {
		const char *m = t->rows[r].machine;

		if (!m || strncmp(m, DB_UNKNOWN_AT, strlen(DB_UNKNOWN_AT)) == 0)
			continue;
		for (v = 0; v < t->nvariants && rc == 0; v++) {
			const char *base = t->variants[t->baseline].name, *cand = t->variants[v].name;
			int recorded, n;

			if (v == t->baseline)
				continue;
			buf_reset(&key);
			buf_printf(&key, "%s\n%s\n%s", m, base, cand);
			for (k = 0; k < b->nenvseen && strcmp(b->envseen[k], buf_str(&key)) != 0; k++)
				;
			if (k < b->nenvseen)
				continue;
			xgrow(&b->envseen, &b->envseen_cap, b->nenvseen + 1, sizeof(*b->envseen));
			b->envseen[b->nenvseen++] = xstrdup(buf_str(&key));
			n = an_env_diff(db, m, base, cand, &diff, &recorded, err);
			if (n < 0) {
				rc = -1;
				break;
			}
			if (n == 0)
				continue;
			buf_reset(&line);
			buf_printf(&line, "on %s, %s against %s: %s", m, cand, base, buf_str(&diff));
			if (!b->o.html) {
				char *shown = term_line(buf_str(&line));
				report_envdiff(&b->rep, shown);
				free(shown);
			} else {
				report_envdiff(&b->rep, buf_str(&line));
			}
		}
	}
	buf_release(&key);
	buf_release(&diff);
	buf_release(&line);
	return rc;
}

static int section_table(struct report_build *b, struct db *db, size_t i, struct buf *note,
			 struct kb_err *err)
{
	const struct an_rsel *p = &b->plan->sels[i];
	struct report_section *s;
	struct an_rsection *rs;
	struct an_table t;

	buf_reset(note);
	if (an_report_compare(db, p, &t, note, err) < 0)
		return -1;
	if (!t.nrows && !an_report_runs(&b->pix, b->pl, p, NULL)) {
		an_table_release(&t);
		return 0;
	}
	if (t.warning) {
		if (note->len)
			buf_putc(note, ' ');
		buf_printf(note, "Note: %s.", t.warning);
	}
	s = report_section(&b->rep, p->bench);
	if (strcmp(p->title, p->bench) != 0)
		s->title = xstrdup(p->title);
	s->plan = i;
	if (note->len)
		s->note = xstrdup(buf_str(note));
	s->table = t;
	b->rep.opts = t.opts;
	if (env_pairs(b, db, &t, err) < 0)
		return -1;
	if (t.nvariants > REPORT_MAX_SIDE_BY_SIDE) {
		s->wide = t.nvariants;
		s->wide_baseline = xstrdup(t.variants[t.baseline].name);
	}
	/* What the rest needs of the table (the report cannot keep every
	 * section's): its p values for the one BH family, its verdicts
	 * before that family's correction and the charts it would draw
	 * (for the chart budget), its variants (the overview).  It is
	 * built again when the section is written. */
	rs = an_report_add_table(b->plan, i, &t, section_charts_count(&t));
	rs->placement = placement_count(b, p);
	if (b->rep.nsections > 1)
		an_table_release(&s->table);    /* section 0's stays: the text legend */
	return 0;
}

/* Variants with data in the report, in store order, with descriptions;
 * the machines; the sources. */
static int cmp_str(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

static void overview(struct report_build *b, const struct db_list *list)
{
	struct report *rep = &b->rep;
	const char **used = NULL;
	size_t nused = 0, capu = 0, i, j, k;
	struct buf t = BUF_INIT;

	for (k = 0; k < b->plan->nvariants; k++) {     /* the built sections' */
		xgrow(&used, &capu, nused + 1, sizeof(*used));
		used[nused++] = b->plan->variants[k];
	}
	for (i = 0; i < rep->nsections; i++) {
		const struct report_section *s = &rep->sections[i];

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
	for (i = 0; i < list->nvariants; i++)
		if (nused && bsearch(&list->variants[i].name, used, nused, sizeof(*used), cmp_str))
			report_variant(rep, list->variants[i].name, list->variants[i].kernel,
				       list->variants[i].description);
	free(used);
	for (i = 0; i < list->nmachines; i++) {
		buf_reset(&t);
		buf_puts(&t, list->machines[i].name);
		if (list->machines[i].description && *list->machines[i].description)
			buf_printf(&t, ": %s", list->machines[i].description);
		buf_printf(&t, " (%lld runs)", list->machines[i].runs);
		report_machine(rep, buf_str(&t));
	}
	for (i = 0; i < list->nsources; i++) {
		const struct db_source *src = &list->sources[i];

		buf_reset(&t);
		if (src->mail_from || src->mail_date || src->mail_subject) {
			mail_byline(src->mail_from, src->mail_date, src->mail_subject, &t);
			buf_puts(&t, ": ");
		}
		buf_printf(&t, "%s [%s] %lld runs, %lld summaries, sha256 %.12s, imported %s",
			   src->path, src->format ? src->format : "-", src->runs, src->summaries,
			   src->sha256 ? src->sha256 : "-", src->imported_at ? src->imported_at : "-");
		if (!b->o.html) {
			/* a mail body: a file name or a header on one line */
			char *shown = term_line(buf_str(&t));

			buf_reset(&t);
			buf_puts(&t, shown);
			free(shown);
		}
		report_source(rep, buf_str(&t));
	}
	buf_release(&t);
}

/* The sections' charts and job tables, by the chart budget: at most
 * REPORT_MAX_CHARTS, given to the sections with the most worse and
 * better verdicts first (then in report order); the others say so. */
static void give_charts(struct report_build *b, const struct db_list *list)
{
	struct report *rep = &b->rep;
	size_t i, k, drawn = 0, job_budget = REPORT_MAX_JOB_RUNS;

	/* one look per variant in every chart, as `kbench chart` gives it:
	 * its place in the store */
	b->styles = xmalloc((list->nvariants + 1) * sizeof(*b->styles));
	for (i = 0; i < list->nvariants; i++)
		b->styles[i] = list->variants[i].name;
	chart_model_styles_init(&b->sco, b->styles, list->nvariants);
	for (i = 0; i < rep->nsections; i++)
		drawn += rep->sections[i].charts.n;     /* wide sections' history */
	an_report_budget(b->plan, drawn, REPORT_MAX_CHARTS, b->o.charts);
	for (k = 0; k < rep->nsections; k++) {
		const struct an_rsection *rs = &b->plan->secs[b->plan->order[k]];
		struct report_section *s = &rep->sections[b->plan->order[k]];

		section_placement(b, s, &b->plan->sels[s->plan], rs->charts_on, &job_budget);
		if (b->o.charts && !rs->charts_on && !s->charts.n)
			s->charts_left_out = 1;         /* (a wide set's history is drawn) */
	}
	rep->charts_max = REPORT_MAX_CHARTS;
}

int report_build_sections(struct report_build *b, struct db *db, const struct db_list *list,
			  struct an_report_plan *plan, const struct db_placement *pl,
			  struct kb_err *err)
{
	struct report *rep = &b->rep;
	struct buf note = BUF_INIT;
	size_t i;
	int rc = 0;

	if (b->o.alerts && strcmp(b->o.alerts, "auto") && strcmp(b->o.alerts, "on") &&
	    strcmp(b->o.alerts, "off"))
		return kb_err_set(err, "", 0, "--alerts is auto, on or off, not '%s'", b->o.alerts);
	b->plan = plan;
	b->pl = pl;
	an_pindex_init_db(&b->pix, pl);
	/* The sections (one selection each), all compared into one result:
	 * one Benjamini-Hochberg family for the whole report. */
	for (i = 0; i < plan->nsels && rc == 0; i++) {
		step(b, "comparing section", i + 1, plan->nsels);
		if (plan->sels[i].skip)
			continue;
		if (plan->sels[i].q.nvariants > REPORT_WIDE_SPARSE)
			rc = section_wide(b, db, i, err);
		else
			rc = section_table(b, db, i, &note, err);
	}
	buf_release(&note);
	if (rc < 0)
		return -1;
	if (!rep->nsections)
		return 1;
	/* One BH family: every section's comparisons and every wide
	 * section's pair tables; each table's q values are given back to it
	 * (a section's when it is built again). */
	an_report_correct(plan);
	for (i = 0; i < rep->nsections; i++)
		an_report_give_pairs(plan, i, rep->sections[i].pairs);
	rep->family = plan->family.n;
	if (plan->secs[0].built)        /* kept: the text legend */
		an_report_give_table(plan, 0, &rep->sections[0].table);
	give_charts(b, list);
	rep->opts.dir = AN_DIR_NONE;
	overview(b, list);
	rep->title = xstrdup(b->o.title ? b->o.title : "kbench report");
	rep->generated = now_text();
	rep->db = xstrdup(db_name(db)); /* a server's password masked */
	rep->selection = xstrdup(b->o.selection);
	return 0;
}

/* The second pass ---------------------------------------------------------- */

struct write_ctx {
	struct report_build *b;
	struct db *db;
	const char *href;
	struct kb_err werr;     /* the writer's own error, as it said it */
	int failed;
};

/* Findings (kbench regress) at the top: read from the same tables as
 * each section is written, so every count and q-value matches. */
static int add_findings(struct report_build *b, struct db *db, const struct an_regress_opts *ro,
			struct an_regress_acc *acc, struct report_section *s, struct kb_err *err)
{
	const struct an_table **tl = xcalloc(s->npairs + 2, sizeof(*tl));
	size_t k, ntl = 0;
	int rc = 0;

	tl[ntl++] = &s->table;
	for (k = 0; k < s->npairs; k++)
		tl[ntl++] = &s->pairs[k];
	if (an_regress_acc_add(db, ro, acc, tl, ntl, err) < 0) {
		/* e.g. the baseline lacks data somewhere: the report stands
		 * without */
		if (b->o.ev.no_findings)
			b->o.ev.no_findings(b->o.ev.ctx, err);
		kb_err_clear(err);
		an_regress_acc_release(acc);
		rc = -1;
	}
	free(tl);
	return rc;
}

/* Section by section: built again (the BH family's q values given
 * back), charted, searched for findings, written, released. */
static int write_report(FILE *f, void *vctx, struct kb_err *err)
{
	struct write_ctx *ctx = vctx;
	struct report_build *b = ctx->b;
	struct report *rep = &b->rep;
	struct report_stream st;
	struct an_regress_opts ro;
	struct an_regress_acc acc;
	int rc, have_acc = 0, have_st;
	size_t i;

	if (b->o.findings) {
		an_regress_opts_init(&ro);
		ro.q = *b->o.q;
		ro.lean = 1;            /* counts of "same", no run lists: what a report shows */
		ro.pl = b->pl;          /* every run with job rows, loaded before */
		an_regress_acc_init(&acc);
		have_acc = 1;
	}
	rc = report_stream_begin(&st, b->o.html, b->o.assets, ctx->href, err);
	have_st = rc == 0;
	for (i = 0; i < rep->nsections && rc == 0; i++) {
		struct report_section *s = &rep->sections[i];

		step(b, "writing section", i + 1, rep->nsections);
		if (an_report_again(ctx->db, b->plan, i, &s->table, err) < 0) {
			rc = -1;
			break;
		}
		if (b->plan->secs[i].want_charts)
			section_charts(s, (enum chart_errbar)b->o.errbar, &b->sco);
		if (have_acc && add_findings(b, ctx->db, &ro, &acc, s, err) < 0)
			have_acc = 0;
		rc = report_stream_section_give(&st, rep, i, err);
		report_section_drop(s, b->plan->secs[i].built && i > 0);
	}
	if (rc == 0 && have_acc) {
		an_regress_acc_end(&ro, &acc, &b->g);
		have_acc = 0;
		b->have_g = 1;
		if (!b->o.q->baseline && rep->nsections > 1) {
			/* each section against its own first variant */
			free(b->g.baseline);
			b->g.baseline = xstrdup("each section's first variant");
		}
		rep->regress = &b->g;
		if (b->o.charts)
			finding_charts(rep, &b->g, b->pl);
	}
	if (rc == 0)
		rc = report_stream_end(&st, f, rep, err);
	if (have_st)
		report_stream_release(&st);
	if (have_acc)
		an_regress_acc_release(&acc);
	if (rc < 0) {
		ctx->werr = *err;
		ctx->failed = 1;
	}
	return rc;
}

/* The Alerts section: the change points of kbench alerts over the
 * report's selection, grouped and with their stored states (read only:
 * nothing is stored). */
static int build_alerts(struct report_build *b, struct db *db, struct kb_err *err)
{
	const char *mode = b->o.alerts ? b->o.alerts : "auto";
	struct an_alerts_opts ao;
	size_t n = 0;

	if (strcmp(mode, "off") == 0)
		return 0;
	if (strcmp(mode, "auto") == 0) {
		if (an_alerts_stored(db, &n, err) < 0)
			return -1;
		if (!n)
			return 0;
	}
	step(b, "finding the alerts", 0, 0);
	an_alerts_opts_init(&ao);
	ao.q = b->o.q;
	if (b->o.q)
		ao.alpha = b->o.q->alpha;
	if (an_alerts_build(db, &ao, &b->alerts, err) < 0)
		return -1;
	b->have_alerts = 1;
	return report_alerts(&b->rep, &b->alerts, b->o.charts, REPORT_MAX_ALERT_CHARTS, err);
}

int report_build_write(struct report_build *b, struct db *db, const char *out,
		       struct kb_err *err)
{
	struct write_ctx ctx;
	char *href = NULL;
	int rc;

	memset(&ctx, 0, sizeof(ctx));
	ctx.b = b;
	ctx.db = db;
	if (build_alerts(b, db, err) < 0)
		return -1;
	if (b->o.assets) {
		if (outfile_make_dirs(b->o.assets, err) < 0)
			return -1;
		href = assets_href(b->o.assets, out);
	}
	ctx.href = href;
	step(b, out ? "writing the report" : NULL, 0, 0);
	/* The report is written as it is made, through the one output
	 * writer: a failed run leaves FILE as it was. */
	rc = outfile_write(out, b->o.html ? OUTFILE_BINARY : OUTFILE_TEXT, write_report, &ctx, err);
	if (rc < 0 && ctx.failed) {
		/* the writer's error as it said it; a write error names FILE */
		*err = ctx.werr;
		if (out && !err->file[0] && strcmp(err->msg, "write error") == 0)
			kb_err_set(err, out, 0, "write error");
	} else if (rc < 0 && !out) {
		kb_err_set(err, "", 0, "write error");
	}
	free(href);
	return rc;
}

void report_build_release(struct report_build *b)
{
	if (b->have_g)
		an_regress_release(&b->g);
	report_release(&b->rep);
	if (b->have_alerts)
		an_alerts_release(&b->alerts);
	an_pindex_release(&b->pix);
	chart_model_styles_release(&b->sco);
	free(b->styles);
	while (b->nenvseen)
		free(b->envseen[--b->nenvseen]);
	free(b->envseen);
	memset(b, 0, sizeof(*b));
}
