/*
 * report_text.c - the report as plain text for a mail: the comparison
 * tables of render/table.h, prose wrapped at 80 columns, no charts.
 */
#include "report_backend.h"
#include "alerts.h"
#include "report_verdicts.h"
#include "table.h"
#include "../analyze/regress.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Text: one section, written to the stream's temporary file. */
static int text_section(struct report_stream *st, const struct report *r, size_t i,
			struct report_section *give, struct kb_err *err)
{
	FILE *f = st->tmp;
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

/* Text: the head, findings and verdicts (every section seen). */
/* The Alerts section: every summary of kbench alerts, as its mail shows
 * it, with its state. */
static void text_alerts(struct buf *out, const struct report *r)
{
	const struct an_alerts *a = r->alerts;
	struct render_alerts_opts o;
	size_t i;

	if (!a)
		return;
	memset(&o, 0, sizeof(o));
	heading(out, "Alerts", '-');
	{
		struct buf g = BUF_INIT;
		buf_printf(&g, "%zu alert summar%s (kbench alerts: change points along the commits, "
			   "grouped by commit range), %zu alerts in %zu series of %zu commits, q < %g.",
			   a->nsummaries, a->nsummaries == 1 ? "y" : "ies", a->nalerts, a->nseries,
			   a->norder, a->opts.alpha);
		wrap(out, "", 0, buf_str(&g));
		buf_release(&g);
	}
	for (i = 0; i < a->nsummaries; i++) {
		buf_putc(out, '\n');
		render_alerts_summary_text(out, a, i, &o);
	}
	buf_putc(out, '\n');
}

static int text_head(struct report_stream *st, FILE *f, const struct report *r,
		     struct kb_err *err)
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
	if (r->nenvdiffs) {
		heading(&out, "Environment differences", '-');
		for (i = 0; i < r->nenvdiffs; i++)
			wrap(&out, "  ", 4, r->envdiffs[i]);
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
	text_alerts(&out, r);
	text_summary(&out, st->sum);
	if (fwrite(out.data, 1, out.len, f) != out.len)
		rc = kb_err_set(err, "", 0, "write error");
	buf_reset(&out);
	buf_release(&out);
	return rc;
}

/* Text: after the sections, the legend and the methods. */
static int text_tail(struct report_stream *st, FILE *f, const struct report *r,
		     struct kb_err *err)
{
	struct buf out = BUF_INIT, m = BUF_INIT;
	const char *p;
	int rc = 0;

	(void)st;
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
	buf_release(&out);
	return rc;
}

const struct report_backend report_text_backend = {
	.section = text_section,
	.head = text_head,
	.tail = text_tail,
};
