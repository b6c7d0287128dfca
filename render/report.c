/*
 * report.c - the report model, what both renderers share (verdict
 * summary, numbers, methods), and the plain-text renderer.
 */
#include "report_int.h"
#include "chart.h"
#include "table.h"
#include "../analyze/regress.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Model ------------------------------------------------------------------ */

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
	an_opts_init(&r->opts);
}

static void charts_release(struct report_charts *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		chart_free(cs->v[i].chart);
		free(cs->v[i].caption);
	}
	free(cs->v);
	memset(cs, 0, sizeof(*cs));
}

void report_section_drop(struct report_section *s, int table)
{
	size_t j, k;

	if (table)
		an_table_release(&s->table);
	charts_release(&s->charts);
	charts_release(&s->placement);
	for (j = 0; j < s->nruns; j++) {
		for (k = 0; k < s->runs[j].njobs; k++)
			free(s->runs[j].jobs[k].pct);
		free(s->runs[j].jobs);
		free(s->runs[j].variant);
		free(s->runs[j].config);
	}
	free(s->runs);
	s->runs = NULL;
	s->nruns = s->runs_cap = 0;
}

void report_release(struct report *r)
{
	size_t i, j;

	free(r->title);
	free(r->generated);
	free(r->db);
	free(r->selection);
	for (i = 0; i < r->nvariants; i++) {
		free(r->variants[i].name);
		free(r->variants[i].kernel);
		free(r->variants[i].description);
	}
	free(r->variants);
	for (i = 0; i < r->nmachines; i++)
		free(r->machines[i]);
	free(r->machines);
	for (i = 0; i < r->nsources; i++)
		free(r->sources[i]);
	free(r->sources);
	for (i = 0; i < r->nsections; i++) {
		struct report_section *s = &r->sections[i];

		free(s->benchmark);
		free(s->title);
		free(s->note);
		report_section_drop(s, 1);
		for (j = 0; j < s->npairs; j++)
			an_table_release(&s->pairs[j]);
		free(s->pairs);
		free(s->wide_baseline);
	}
	free(r->sections);
	for (i = 0; i < r->nfinding_charts; i++) {
		chart_free(r->finding_charts[i].c.chart);
		free(r->finding_charts[i].c.caption);
	}
	free(r->finding_charts);
	memset(r, 0, sizeof(*r));
}

static char *dup_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

struct report_section *report_section(struct report *r, const char *benchmark)
{
	struct report_section *s;

	xgrow(&r->sections, &r->sections_cap, r->nsections + 1, sizeof(*r->sections));
	s = &r->sections[r->nsections++];
	memset(s, 0, sizeof(*s));
	s->benchmark = xstrdup(benchmark);
	return s;
}

void report_variant(struct report *r, const char *name, const char *kernel,
		    const char *description)
{
	struct report_variant *v;

	xgrow(&r->variants, &r->variants_cap, r->nvariants + 1, sizeof(*r->variants));
	v = &r->variants[r->nvariants++];
	v->name = xstrdup(name);
	v->kernel = dup_or_null(kernel);
	v->description = dup_or_null(description);
}

void report_machine(struct report *r, const char *text)
{
	xgrow(&r->machines, &r->machines_cap, r->nmachines + 1, sizeof(*r->machines));
	r->machines[r->nmachines++] = xstrdup(text);
}

void report_source(struct report *r, const char *text)
{
	xgrow(&r->sources, &r->sources_cap, r->nsources + 1, sizeof(*r->sources));
	r->sources[r->nsources++] = xstrdup(text);
}

struct report_run *report_run(struct report_section *s, long long run_id,
			      const char *variant, const char *config, int nnodes)
{
	struct report_run *run;

	xgrow(&s->runs, &s->runs_cap, s->nruns + 1, sizeof(*s->runs));
	run = &s->runs[s->nruns++];
	memset(run, 0, sizeof(*run));
	run->run_id = run_id;
	run->variant = xstrdup(variant);
	run->config = xstrdup(config ? config : "");
	run->nnodes = nnodes;
	return run;
}

void report_job(struct report_run *run, int job, int initial, int main, int moved,
		double user, const double *pct)
{
	struct report_job *j;

	xgrow(&run->jobs, &run->cap, run->njobs + 1, sizeof(*run->jobs));
	j = &run->jobs[run->njobs++];
	j->job = job;
	j->initial = initial;
	j->main = main;
	j->moved = moved;
	j->user = user;
	j->pct = xmalloc(((size_t)run->nnodes + 1) * sizeof(*j->pct));
	memcpy(j->pct, pct, (size_t)run->nnodes * sizeof(*j->pct));
}

void report_chart(struct report_charts *cs, struct chart *c, const char *caption)
{
	xgrow(&cs->v, &cs->cap, cs->n + 1, sizeof(*cs->v));
	cs->v[cs->n].chart = c;
	cs->v[cs->n].caption = dup_or_null(caption);
	cs->n++;
}

void report_finding_chart(struct report *r, size_t finding, struct chart *c,
			  const char *caption)
{
	struct report_finding_chart *fc;

	xgrow(&r->finding_charts, &r->finding_charts_cap, r->nfinding_charts + 1,
	      sizeof(*r->finding_charts));
	fc = &r->finding_charts[r->nfinding_charts++];
	fc->finding = finding;
	fc->c.chart = c;
	fc->c.caption = dup_or_null(caption);
}

/* Shared by the renderers --------------------------------------------------- */

static int cmp_item(const void *a, const void *b)
{
	const struct report_item *x = a, *y = b;
	double dx = fabs(x->cell->chg.change), dy = fabs(y->cell->chg.change);

	return dx > dy ? -1 : dx < dy;
}

/* The verdicts of one table into s. */
static void summarise_table(const struct report_section *sec, const struct an_table *t,
			    struct report_summary *s, size_t *capw, size_t *capb)
{
	size_t k, v;

	for (k = 0; k < t->nrows; k++) {
		const struct an_row *row = &t->rows[k];

		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *c = &row->cells[v];
			struct report_item it = { sec, t, row, v, c };

			const struct an_cell *bc = &row->cells[t->baseline];
			/* a footnoted published cell left out of the tests is
			 * inconclusive, as regress lists it */
			int untested = !c->has_change && v != t->baseline &&
				       c->origin != AN_ORIGIN_NONE && bc->origin != AN_ORIGIN_NONE &&
				       ((c->flags | bc->flags) & AN_F_FOOTNOTED);

			if (!untested && (!c->has_change || c->chg.verdict == AN_VERDICT_NONE))
				continue;
			s->ntotal++;
			switch (untested ? AN_VERDICT_INCONCLUSIVE : c->chg.verdict) {
			case AN_VERDICT_WORSE:
				s->nworse++;
				xgrow(&s->worse, capw, s->nworse_items + 1, sizeof(*s->worse));
				s->worse[s->nworse_items++] = it;
				break;
			case AN_VERDICT_BETTER:
				s->nbetter++;
				xgrow(&s->better, capb, s->nbetter_items + 1, sizeof(*s->better));
				s->better[s->nbetter_items++] = it;
				break;
			case AN_VERDICT_CHANGED: s->nchanged++; break;
			case AN_VERDICT_SAME: s->nsame++; break;
			default: s->ninconclusive++; break;
			}
		}
	}
}

/* The verdicts of a section's table and pair tables into s, in table order. */
static void summarise_section(const struct report_section *sec, struct report_summary *s,
			      size_t *capw, size_t *capb)
{
	size_t k;

	summarise_table(sec, &sec->table, s, capw, capb);
	for (k = 0; k < sec->npairs; k++)
		summarise_table(sec, &sec->pairs[k], s, capw, capb);
}

void report_summarise(const struct report *r, struct report_summary *s)
{
	size_t i, capw = 0, capb = 0;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < r->nsections; i++)
		summarise_section(&r->sections[i], s, &capw, &capb);
	if (s->nworse_items)
		qsort(s->worse, s->nworse_items, sizeof(*s->worse), cmp_item);
	if (s->nbetter_items)
		qsort(s->better, s->nbetter_items, sizeof(*s->better), cmp_item);
}

static void ditem(struct report_ditem *d, const struct report_item *it)
{
	const struct an_table *t = it->t;
	int dec = render_row_decimals(t, it->row);
	struct buf b = BUF_INIT;

	d->bench = xstrdup(it->row->benchmark);
	d->metric = xstrdup(it->row->metric);
	d->config = xstrdup(it->row->config);
	d->variant = xstrdup(t->variants[it->variant].name);
	d->baseline = xstrdup(t->variants[t->baseline].name);
	render_format_value(&b, &it->row->cells[t->baseline], dec);
	buf_puts(&b, " \xE2\x86\x92 ");
	render_format_value(&b, it->cell, dec);
	d->values = buf_detach(&b);
	report_format_change(&b, it->cell);
	d->change = buf_detach(&b);
	report_format_ci(&b, it->cell);
	d->ci = buf_detach(&b);
	buf_release(&b);
	d->key = fabs(it->cell->chg.change);
	d->q = it->cell->chg.q;
	d->ci_low = it->cell->chg.ci_low;
	d->verdict = it->cell->chg.verdict;
}

void report_gsum_add(struct report_gsum *g, const struct report_section *sec)
{
	struct report_summary s;
	size_t i, capw = 0, capb = 0;

	memset(&s, 0, sizeof(s));
	summarise_section(sec, &s, &capw, &capb);       /* unsorted: table order */
	g->nworse += s.nworse;
	g->nbetter += s.nbetter;
	g->nchanged += s.nchanged;
	g->ninconclusive += s.ninconclusive;
	g->nsame += s.nsame;
	g->ntotal += s.ntotal;
	for (i = 0; i < s.nworse_items; i++) {
		xgrow(&g->worse, &g->capw, g->nworse_items + 1, sizeof(*g->worse));
		ditem(&g->worse[g->nworse_items++], &s.worse[i]);
	}
	for (i = 0; i < s.nbetter_items; i++) {
		xgrow(&g->better, &g->capb, g->nbetter_items + 1, sizeof(*g->better));
		ditem(&g->better[g->nbetter_items++], &s.better[i]);
	}
	report_summary_release(&s);
}

static int cmp_ditem(const void *a, const void *b)
{
	double dx = ((const struct report_ditem *)a)->key, dy = ((const struct report_ditem *)b)->key;

	return dx > dy ? -1 : dx < dy;
}

void report_gsum_end(struct report_gsum *g)
{
	if (g->nworse_items)
		qsort(g->worse, g->nworse_items, sizeof(*g->worse), cmp_ditem);
	if (g->nbetter_items)
		qsort(g->better, g->nbetter_items, sizeof(*g->better), cmp_ditem);
}

static void ditems_free(struct report_ditem *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].bench);
		free(v[i].metric);
		free(v[i].config);
		free(v[i].variant);
		free(v[i].baseline);
		free(v[i].values);
		free(v[i].change);
		free(v[i].ci);
	}
	free(v);
}

void report_gsum_release(struct report_gsum *g)
{
	ditems_free(g->worse, g->nworse_items);
	ditems_free(g->better, g->nbetter_items);
	memset(g, 0, sizeof(*g));
}

void report_summary_release(struct report_summary *s)
{
	free(s->worse);
	free(s->better);
	memset(s, 0, sizeof(*s));
}

void report_format_change(struct buf *out, const struct an_cell *c)
{
	if (!c->has_change || isnan(c->chg.change))
		return;
	buf_printf(out, "%+.1f%%", c->chg.change);
}

void report_format_ci(struct buf *out, const struct an_cell *c)
{
	if (!c->has_change || isnan(c->chg.ci_low) || isnan(c->chg.ci_high))
		return;
	buf_printf(out, "[%+.1f, %+.1f]", c->chg.ci_low, c->chg.ci_high);
}

const char *report_verdict_word(enum an_verdict v)
{
	return v == AN_VERDICT_NONE ? "" : an_verdict_name(v);
}

void report_methods(struct buf *out, const struct report *r)
{
	const struct an_opts *o = &r->opts;

	buf_printf(out,
		   "Each cell is one variant x benchmark x configuration x metric: the mean and "
		   "sample standard deviation of the runs' values (per job for numa_test's per-job "
		   "user time), or the mean(sd) as published when only a summary table was "
		   "imported.  For a higher-is-better (throughput) metric the mean of the runs is "
		   "their harmonic mean, as mmtests' Hmean (marked 'h'; the arithmetic mean, marked "
		   "'a', when a value is <= 0).  When a summary gives no sd but its min, max and n, "
		   "sd is estimated as (max - min) / d2(n) and marked 'e'.\n\n");
	buf_printf(out,
		   "Change: %s against the baseline of each table%s.  The 95%% interval and "
		   "p-value come from %s; p-values are adjusted with Benjamini-Hochberg as one "
		   "family over all %zu comparisons of this report, every section together (q); "
		   "each comparison has that one q wherever it appears.  The numa_test "
		   "placement checks among the findings are tested on their own, over runs "
		   "(an exact rank test of each run's nodes used or share of moved or split "
		   "jobs; one run a side is no test) and adjusted as a family of their own.\n\n",
		   o->conv == AN_CONV_SPEED ? "speed, base / new - 1 for lower-is-better metrics "
					      "(the autonuma mails' %Change)" :
		   o->conv == AN_CONV_BETTER ? "better, the raw change with its sign flipped for "
					       "lower-is-better metrics (positive = improvement)" :
		   "raw, (new - base) / base of the means",
		   "", o->test == AN_TEST_MWU ?
		   "the Mann-Whitney U test where both sides have raw samples (Welch's t on "
		   "log values otherwise)" :
		   "Welch's t-test on log values (a ratio of geometric means; summaries via "
		   "the delta method)", r->family);
	buf_printf(out,
		   "Verdicts: better or worse when q < %g and |change| >= %g%% in the metric's "
		   "better direction (changed when the metric has none); same when the whole "
		   "interval lies within +-%g%%; inconclusive otherwise, with the runs per side "
		   "needed to resolve a %g%% change at the observed noise (CV) by Lehr's rule.\n\n",
		   o->alpha, o->delta, o->delta, o->delta);
	buf_printf(out,
		   "Marks after a value: N very noisy (CV > 15%%), n noisy (CV > 5%%), b bimodal, "
		   "o outliers (Grubbs' test at 4%% per cell, never dropped), e sd estimated, "
		   "f footnoted in the post (not tested unless --use-flagged), "
		   "d E-H of published cells (published E minus published H, sd unknown), "
		   "h harmonic mean, a arithmetic mean of a throughput metric (a value <= 0).");
}

/* Text -------------------------------------------------------------------- */

#define WIDTH 80

/* Append text wrapped at WIDTH columns: the first line starts with lead,
 * the others with indent spaces; a '\n' in text is a hard break. */
static void wrap(struct buf *out, const char *lead, size_t indent, const char *text)
{
	const char *p = text;
	size_t col = strlen(lead), i;
	int first = 1;          /* no word on this line yet */

	buf_puts(out, lead);
	while (*p) {
		const char *w;
		size_t n;

		if (*p == '\n' || *p == ' ') {
			if (*p == '\n') {
				buf_putc(out, '\n');
				for (i = 0; i < indent; i++)
					buf_putc(out, ' ');
				col = indent;
				first = 1;
			}
			p++;
			continue;
		}
		w = p;
		while (*p && *p != ' ' && *p != '\n')
			p++;
		n = (size_t)(p - w);
		/* a word longer than a line (a path): cut after a '/' that fits */
		while (n > WIDTH - indent) {
			size_t room, cut = 0, j;

			if (!first) {
				buf_putc(out, '\n');
				for (i = 0; i < indent; i++)
					buf_putc(out, ' ');
				col = indent;
			}
			room = WIDTH - col;
			for (j = 1; j < room && j < n; j++)
				if (w[j - 1] == '/')
					cut = j;
			if (!cut)
				cut = room;
			buf_add(out, w, cut);
			buf_putc(out, '\n');
			for (i = 0; i < indent; i++)
				buf_putc(out, ' ');
			col = indent;
			first = 1;
			w += cut;
			n -= cut;
		}
		if (!first && col + 1 + n > WIDTH) {
			buf_putc(out, '\n');
			for (i = 0; i < indent; i++)
				buf_putc(out, ' ');
			col = indent;
			first = 1;
		}
		if (!first) {
			buf_putc(out, ' ');
			col++;
		}
		buf_add(out, w, n);
		col += n;
		first = 0;
	}
	buf_putc(out, '\n');
}

static void heading(struct buf *out, const char *title, char under)
{
	size_t i, n = strlen(title);

	buf_printf(out, "%s\n", title);
	for (i = 0; i < n && i < WIDTH; i++)
		buf_putc(out, under);
	buf_putc(out, '\n');
}

static void item_line(struct buf *out, const struct report_item *it)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s %s %s: %s vs %s ", it->row->benchmark, it->row->metric,
		   *it->row->config ? it->row->config : "-",
		   it->t->variants[it->variant].name,
		   it->t->variants[it->t->baseline].name);
	report_format_change(&b, it->cell);
	if (!isnan(it->cell->chg.ci_low)) {
		buf_putc(&b, ' ');
		report_format_ci(&b, it->cell);
	}
	if (!isnan(it->cell->chg.q))
		buf_printf(&b, " q=%.2g", it->cell->chg.q);
	wrap(out, "  ", 6, buf_str(&b));
	buf_release(&b);
}

/* item_line() of a report-wide item. */
static void ditem_line(struct buf *out, const struct report_ditem *d)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s %s %s: %s vs %s ", d->bench, d->metric, *d->config ? d->config : "-",
		   d->variant, d->baseline);
	buf_puts(&b, d->change);
	if (!isnan(d->ci_low)) {
		buf_putc(&b, ' ');
		buf_puts(&b, d->ci);
	}
	if (!isnan(d->q))
		buf_printf(&b, " q=%.2g", d->q);
	wrap(out, "  ", 6, buf_str(&b));
	buf_release(&b);
}

static void text_summary(struct buf *out, const struct report_gsum *s)
{
	size_t i, show;

	heading(out, "Verdicts", '-');
	{
		struct buf b = BUF_INIT;

		buf_printf(&b, "%zu comparisons: %zu worse, %zu better, %zu inconclusive, %zu changed, "
			   "%zu same.", s->ntotal, s->nworse, s->nbetter, s->ninconclusive, s->nchanged,
			   s->nsame);
		wrap(out, "", 0, buf_str(&b));
		buf_release(&b);
	}
	if (s->nworse_items) {
		show = s->nworse_items < 10 ? s->nworse_items : 10;
		buf_printf(out, "\nWorst regressions%s:\n", s->nworse_items > show ? " (top 10)" : "");
		for (i = 0; i < show; i++)
			ditem_line(out, &s->worse[i]);
	}
	if (s->nbetter_items) {
		show = s->nbetter_items < 5 ? s->nbetter_items : 5;
		buf_printf(out, "\nLargest improvements%s:\n", s->nbetter_items > show ? " (top 5)" : "");
		for (i = 0; i < show; i++)
			ditem_line(out, &s->better[i]);
	}
	buf_putc(out, '\n');
}

/* Items a wide section lists, at most. */
#define WIDE_WORSE 40
#define WIDE_BETTER 10

/* A section too wide for a table: its worse and better comparisons. */
static void section_items(struct buf *out, const struct report_section *s)
{
	struct report_summary sum;
	struct report one;
	struct buf b = BUF_INIT;
	size_t i, nw, nb;

	memset(&one, 0, sizeof(one));
	one.sections = (struct report_section *)s;
	one.nsections = 1;
	report_summarise(&one, &sum);
	if (!s->npairs && s->table.nrows) {
		/* a table was built (up to 64 variants): all its changes */
		buf_printf(&b, "%zu variants: too many to compare side by side (kbench compare "
			   "--variants V,... gives a table of a few).  Against %s: %zu worse, %zu "
			   "better, %zu inconclusive, %zu changed, %zu same.", s->table.nvariants,
			   s->table.variants[s->table.baseline].name, sum.nworse, sum.nbetter,
			   sum.ninconclusive, sum.nchanged, sum.nsame);
		wrap(out, "", 0, buf_str(&b));
		buf_release(&b);
		for (i = 0; i < sum.nworse_items; i++)
			item_line(out, &sum.worse[i]);
		for (i = 0; i < sum.nbetter_items; i++)
			item_line(out, &sum.better[i]);
		buf_putc(out, '\n');
		report_summary_release(&sum);
		return;
	}
	buf_printf(&b, "%zu variants: too many to compare side by side (kbench compare "
		   "--variants V,... gives a table of a few; kbench history --bench %s --metric M "
		   "the history of one metric).", s->wide, s->benchmark);
	if (s->wide_baseline)
		buf_printf(&b, "  Each variant against %s where both have numbers, %zu comparisons: "
			   "%zu worse, %zu better, %zu inconclusive, %zu changed, %zu same.",
			   s->wide_baseline, sum.ntotal, sum.nworse, sum.nbetter, sum.ninconclusive,
			   sum.nchanged, sum.nsame);
	else
		buf_puts(&b, "  The baseline has no numbers here: nothing is compared.");
	wrap(out, "", 0, buf_str(&b));
	buf_release(&b);
	nw = sum.nworse_items < WIDE_WORSE ? sum.nworse_items : WIDE_WORSE;
	nb = sum.nbetter_items < WIDE_BETTER ? sum.nbetter_items : WIDE_BETTER;
	for (i = 0; i < nw; i++)
		item_line(out, &sum.worse[i]);
	if (sum.nworse_items > nw)
		buf_printf(out, "  and %zu more worse (kbench regress lists them all)\n",
			   sum.nworse_items - nw);
	for (i = 0; i < nb; i++)
		item_line(out, &sum.better[i]);
	if (sum.nbetter_items > nb)
		buf_printf(out, "  and %zu more better\n", sum.nbetter_items - nb);
	buf_putc(out, '\n');
	report_summary_release(&sum);
}

static void text_findings_of(struct buf *out, const struct an_regress *g,
			     enum an_verdict want, size_t max)
{
	size_t i, n = 0, total = an_regress_count(g, want);

	for (i = 0; i < g->nfindings && n < max; i++) {
		const struct an_finding *f = &g->findings[i];
		struct buf b = BUF_INIT;

		if (f->verdict != want)
			continue;
		n++;
		buf_printf(&b, "%s %s: %s", an_verdict_name(f->verdict),
			   f->kind == AN_FINDING_PLACEMENT ? "placement" : "performance", f->benchmark);
		if (f->machine)
			buf_printf(&b, " on %s", f->machine);
		buf_printf(&b, " %s %s, %s", *f->config ? f->config : "-", f->metric, f->variant);
		if (!isnan(f->change_pct))
			buf_printf(&b, " %+.1f%%", f->change_pct);
		if (!isnan(f->ci_low) && !isnan(f->ci_high))
			buf_printf(&b, " [%+.1f, %+.1f]", f->ci_low, f->ci_high);
		if (!isnan(f->q))
			buf_printf(&b, " q=%.2g", f->q);
		wrap(out, "  ", 6, buf_str(&b));
		if (f->evidence && *f->evidence)
			wrap(out, "      ", 6, f->evidence);
		buf_release(&b);
	}
	if (total > n)
		buf_printf(out, "  and %zu more %s (see the tables, or kbench regress)\n", total - n,
			   an_verdict_name(want));
}

static void text_findings(struct buf *out, const struct report *r)
{
	const struct an_regress *g = r->regress;
	struct buf b = BUF_INIT;

	if (!g)
		return;
	heading(out, "Findings", '-');
	{
		size_t perf[4], pl[4], k;
		static const enum an_verdict kinds[] = { AN_VERDICT_WORSE, AN_VERDICT_BETTER,
			AN_VERDICT_CHANGED, AN_VERDICT_INCONCLUSIVE };

		for (k = 0; k < ARRAY_SIZE(kinds); k++) {
			pl[k] = g->nplacement[k];
			perf[k] = an_regress_count(g, kinds[k]) - pl[k];
		}
		buf_printf(&b, "What kbench regress finds: %zu worse, %zu better, %zu changed, "
			   "%zu inconclusive.  Of these, the comparisons of the sections below: "
			   "%zu worse, %zu better, %zu changed, %zu inconclusive; numa_test "
			   "placement checks: %zu worse, %zu better, %zu changed, %zu inconclusive.",
			   g->nworse, g->nbetter, g->nchanged, g->ninconclusive, perf[0], perf[1],
			   perf[2], perf[3], pl[0], pl[1], pl[2], pl[3]);
	}
	wrap(out, "", 0, buf_str(&b));
	buf_release(&b);
	text_findings_of(out, g, AN_VERDICT_WORSE, 50);
	text_findings_of(out, g, AN_VERDICT_BETTER, 8);
	text_findings_of(out, g, AN_VERDICT_CHANGED, 8);
	text_findings_of(out, g, AN_VERDICT_INCONCLUSIVE, 5);
	buf_putc(out, '\n');
}

static void text_run(struct buf *out, const struct report_run *run)
{
	size_t i;
	int k;

	if (strlen(run->variant) + strlen(run->config) + 24 > 80)     /* a mail's width */
		buf_printf(out, "%s,\n  %s (run %lld)\n", run->variant,
			   *run->config ? run->config : "-", run->run_id);
	else
		buf_printf(out, "%s, %s (run %lld)\n", run->variant,
			   *run->config ? run->config : "-", run->run_id);
	buf_puts(out, "Job ");
	for (k = 0; k < run->nnodes; k++)
		buf_printf(out, " node%02d", k);
	buf_puts(out, " | iSched MSched | UserTime(s)\n");
	for (i = 0; i < run->njobs; i++) {
		const struct report_job *j = &run->jobs[i];

		buf_printf(out, "%3d ", j->job);
		for (k = 0; k < run->nnodes; k++) {
			if (isnan(j->pct[k]))
				buf_printf(out, " %6s", "-");
			else
				buf_printf(out, " %6.1f", j->pct[k]);
		}
		buf_printf(out, " | %4d  %4d   %s|", j->initial, j->main, j->moved ? "*" : " ");
		if (isnan(j->user))
			buf_puts(out, "      -\n");
		else
			buf_printf(out, " %6.2f\n", j->user);
	}
	buf_putc(out, '\n');
}

int report_is_monitor(const char *metric)
{
	static const char *const prefixes[] = {
		"proc-vmstat.", "numa-vmstat.", "numa-numastat.", "numa-meminfo.", "numastat.",
		"numastat-p.", "memory--numa_stat.", "vmstat.",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (str_starts(metric, prefixes[i]))
			return 1;
	return 0;
}

/* A monitor metric about NUMA placement: what NUMA balancing patches
 * are judged by (hint faults, page migrations, local and remote
 * allocations), not a memory level. */
static int numa_monitor(const char *metric)
{
	static const char *const words[] = {
		"numa_", "pgmigrate_", "pgpromote_", "pgdemote_", "thp_migration_", "local_node",
		"other_node", "interleave_hit", "Numa_", "Local_Node", "Other_Node", "Interleave_Hit",
	};
	const char *key = strrchr(metric, '.');
	size_t i;

	key = key ? key + 1 : metric;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (str_starts(key, words[i]))
			return 1;
	return 0;
}

size_t report_split_monitors(const struct an_table *t, struct an_table *rest,
			     struct an_table *numa)
{
	size_t r, other = 0;

	*rest = *t;
	*numa = *t;
	rest->rows = xmalloc((t->nrows + 1) * sizeof(*rest->rows));
	numa->rows = xmalloc((t->nrows + 1) * sizeof(*numa->rows));
	rest->nrows = numa->nrows = 0;
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];
		if (!report_is_monitor(row->metric))
			rest->rows[rest->nrows++] = *row;
		else if (numa_monitor(row->metric))
			numa->rows[numa->nrows++] = *row;
		else
			other++;
	}
	return other;
}

void report_split_release(struct an_table *rest, struct an_table *numa)
{
	free(rest->rows);
	free(numa->rows);
	rest->rows = numa->rows = NULL;
	rest->nrows = numa->nrows = 0;
}

/* Text: one section, written to f. */
static int text_section(FILE *f, const struct report *r, size_t i, struct kb_err *err)
{
	struct buf out = BUF_INIT;
	struct render_table_opts to;
	struct an_table rest, numa;
	size_t j, other = 0;
	int rc = 0, split = 0;

	render_table_opts_init(&to);
	to.fmt = RENDER_TEXT;
	to.no_legend = 1;
	to.width = WIDTH;
	{
		const struct report_section *s = &r->sections[i];
		char title[300];

		snprintf(title, sizeof(title), "%s", s->title ? s->title : s->benchmark);
		heading(&out, title, '=');
		if (s->note)
			wrap(&out, "", 0, s->note);
		if (s->note)
			buf_putc(&out, '\n');
		if (fwrite(out.data, 1, out.len, f) != out.len)
			rc = kb_err_set(err, "", 0, "write error");
		buf_reset(&out);
		if (rc == 0 && s->wide) {
			section_items(&out, s);
			if (fwrite(out.data, 1, out.len, f) != out.len)
				rc = kb_err_set(err, "", 0, "write error");
			buf_reset(&out);
		} else if (rc == 0 && s->table.nrows) {
			other = report_split_monitors(&s->table, &rest, &numa);
			split = 1;
			if (s->table.nvariants == 1 && r->nmachines > 1)
				/* nothing compared: say why, not "%chg against" */
				wrap(&out, "", 0, "Only this variant has numbers here: nothing to compare "
				     "it with.  Runs of different machines are never compared "
				     "(kbench regress --across-machines does, with a warning).");
			if (s->table.nvariants == 1 && r->nmachines > 1)
				buf_putc(&out, '\n');
			else
				buf_printf(&out, "%%chg against %s.\n\n",
					   s->table.variants[s->table.baseline].name);
			if (fwrite(out.data, 1, out.len, f) != out.len)
				rc = kb_err_set(err, "", 0, "write error");
			buf_reset(&out);
			if (rc == 0 && rest.nrows && render_table(f, &rest, &to, err) < 0)
				rc = -1;
		}
		if (rc == 0 && !s->table.nrows && !s->wide)
			fputs("(no comparable numbers)\n", f);
		if (rc == 0 && s->nruns) {
			struct buf h = BUF_INIT;

			buf_printf(&h, "%s job placement: percent of time per node, initial (iSched) "
				   "and main (MSched) node, * = moved", s->benchmark);
			buf_putc(&out, '\n');
			wrap(&out, "", 0, buf_str(&h));
			buf_putc(&out, '\n');
			buf_release(&h);
			for (j = 0; j < s->nruns; j++)
				text_run(&out, &s->runs[j]);
			if (s->runs_left_out)
				buf_printf(&out, "... and %zu more runs (kbench show RUN_ID prints one)\n\n",
					   s->runs_left_out);
		}
		if (rc == 0 && split && (numa.nrows || other)) {
			struct buf h = BUF_INIT;

			buf_printf(&h, "%s NUMA monitors of these runs (counters: their change over a "
				   "run; numastat, /proc/vmstat, lkp's monitors)", s->benchmark);
			if (other)
				buf_printf(&h, "; %zu other monitor metric%s (memory levels) left out: "
					   "kbench compare --bench %s --metric NAME shows one", other,
					   other == 1 ? "" : "s", s->benchmark);
			buf_putc(&out, '\n');
			wrap(&out, "", 0, buf_str(&h));
			buf_putc(&out, '\n');
			buf_release(&h);
			if (fwrite(out.data, 1, out.len, f) != out.len)
				rc = kb_err_set(err, "", 0, "write error");
			buf_reset(&out);
			if (rc == 0 && numa.nrows && render_table(f, &numa, &to, err) < 0)
				rc = -1;
		}
		if (split)
			report_split_release(&rest, &numa);
		buf_putc(&out, '\n');
		if (rc == 0 && fwrite(out.data, 1, out.len, f) != out.len)
			rc = kb_err_set(err, "", 0, "write error");
		buf_reset(&out);
	}
	buf_release(&out);
	return rc;
}

/* Text: the head, findings and verdicts (every section seen), the
 * sections as written to sections, the legend and the methods. */
static int text_end(FILE *f, const struct report *r, const struct report_gsum *g,
		    FILE *sections, struct kb_err *err)
{
	struct buf out = BUF_INIT;
	size_t i;
	int rc = 0;

	heading(&out, r->title ? r->title : "kbench report", '=');
	{
		/* a store's name may be long (a server's URI): wrapped */
		struct buf g = BUF_INIT;
		if (r->generated)
			buf_printf(&g, "Generated %s", r->generated);
		if (r->db)
			buf_printf(&g, " from %s", r->db);
		buf_puts(&g, ".");
		wrap(&out, "", 0, buf_str(&g));
		buf_release(&g);
	}
	if (r->selection)
		wrap(&out, "Selection: ", 11, r->selection);
	buf_putc(&out, '\n');

	if (r->nvariants) {
		heading(&out, "Variants", '-');
		for (i = 0; i < r->nvariants; i++) {
			const struct report_variant *v = &r->variants[i];
			struct buf line = BUF_INIT;

			buf_printf(&line, "%s", v->name);
			if (v->kernel)
				buf_printf(&line, " (kernel %s)", v->kernel);
			if (v->description)
				buf_printf(&line, ": %s", v->description);
			wrap(&out, "  ", 4, buf_str(&line));
			buf_release(&line);
		}
		buf_putc(&out, '\n');
	}
	if (r->nmachines) {
		heading(&out, "Machines", '-');
		for (i = 0; i < r->nmachines; i++)
			wrap(&out, "  ", 4, r->machines[i]);
		buf_putc(&out, '\n');
	}
	if (r->nsources) {
		heading(&out, "Sources", '-');
		for (i = 0; i < r->nsources && i < 15; i++)
			wrap(&out, "  ", 4, r->sources[i]);
		if (r->nsources > 15)
			buf_printf(&out, "  and %zu more (kbench ls --all lists them)\n", r->nsources - 15);
		buf_putc(&out, '\n');
	}
	text_findings(&out, r);
	text_summary(&out, g);
	if (fwrite(out.data, 1, out.len, f) != out.len)
		rc = kb_err_set(err, "", 0, "write error");
	buf_reset(&out);
	if (rc == 0)
		rc = report_copy_stream(f, sections, err);
	if (rc == 0) {
		struct buf m = BUF_INIT;
		const char *p;

		if (r->nsections) {
			heading(&out, "Legend", '-');
			render_table_legend(&out, &r->sections[0].table, NULL);
			buf_putc(&out, '\n');
		}
		heading(&out, "Methods", '-');
		report_methods(&m, r);
		for (p = buf_str(&m); *p;) {
			const char *e = strstr(p, "\n\n");
			char *para = e ? xstrndup(p, (size_t)(e - p)) : xstrdup(p);

			wrap(&out, "", 0, para);
			free(para);
			if (!e)
				break;
			buf_putc(&out, '\n');
			p = e + 2;
		}
		buf_release(&m);
		if (fwrite(out.data, 1, out.len, f) != out.len)
			rc = kb_err_set(err, "", 0, "write error");
	}
	buf_release(&out);
	return rc;
}

int report_copy_stream(FILE *f, FILE *from, struct kb_err *err)
{
	char chunk[65536];
	size_t n;

	if (!from)
		return 0;
	if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
		return kb_err_set(err, "", 0, "cannot read back the report's sections");
	while ((n = fread(chunk, 1, sizeof(chunk), from)) > 0)
		if (fwrite(chunk, 1, n, f) != n)
			return kb_err_set(err, "", 0, "write error");
	if (ferror(from))
		return kb_err_set(err, "", 0, "cannot read back the report's sections");
	return 0;
}

int report_stream_begin(struct report_stream *st, int html, const char *assets_dir,
			const char *assets_href, struct kb_err *err)
{
	memset(st, 0, sizeof(*st));
	st->html = html;
	st->assets_dir = assets_dir;
	st->assets_href = assets_href;
	st->tmp = tmpfile();
	if (!st->tmp)
		return kb_err_set(err, "", 0, "cannot make a temporary file for the report: %s",
				  strerror(errno));
	st->sum = xcalloc(1, sizeof(*st->sum));
	return 0;
}

int report_stream_section(struct report_stream *st, const struct report *r, size_t i,
			  struct kb_err *err)
{
	report_gsum_add(st->sum, &r->sections[i]);
	return st->html ? report_html_section(st, r, i, err) : text_section(st->tmp, r, i, err);
}

int report_stream_end(struct report_stream *st, FILE *f, const struct report *r,
		      struct kb_err *err)
{
	report_gsum_end(st->sum);
	return st->html ? report_html_end(st, f, r, err) : text_end(f, r, st->sum, st->tmp, err);
}

void report_stream_release(struct report_stream *st)
{
	if (st->tmp)
		fclose(st->tmp);
	if (st->sum) {
		report_gsum_release(st->sum);
		free(st->sum);
	}
	memset(st, 0, sizeof(*st));
}

/* Every section at once (the caller holds them all). */
int report_render(FILE *f, const struct report *r, int html, const char *assets_dir,
		  const char *assets_href, struct kb_err *err)
{
	struct report_stream st;
	size_t i;
	int rc = report_stream_begin(&st, html, assets_dir, assets_href, err);

	for (i = 0; i < r->nsections && rc == 0; i++)
		rc = report_stream_section(&st, r, i, err);
	if (rc == 0)
		rc = report_stream_end(&st, f, r, err);
	report_stream_release(&st);
	return rc;
}

int report_text(FILE *f, const struct report *r, struct kb_err *err)
{
	return report_render(f, r, 0, NULL, NULL, err);
}
