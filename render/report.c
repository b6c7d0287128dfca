/*
 * report.c - the report model, and the stream that writes it through
 * one backend (report_backend.h).  What it says in words whatever the
 * format is in report_words.c.
 */
#include "report_backend.h"
#include "alerts.h"
#include "report_verdicts.h"
#include "chart.h"
#include "chart_pool.h"
#include "../core/util.h"

#include <errno.h>
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
	for (i = 0; i < r->nenvdiffs; i++)
		free(r->envdiffs[i]);
	free(r->envdiffs);
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
	charts_release(&r->alert_charts);
	free(r->alert_chart_of);
	memset(r, 0, sizeof(*r));
}

int report_alerts(struct report *r, const struct an_alerts *a, int charts, size_t max,
		  struct kb_err *err)
{
	size_t i, k;

	r->alerts = a;
	if (!charts)
		return 0;
	r->alert_chart_of = xcalloc(a->nalerts + 1, sizeof(*r->alert_chart_of));
	for (i = 0; i < a->nsummaries; i++)
		for (k = 0; k < a->summaries[i].nalerts; k++) {
			size_t al = a->summaries[i].alerts[k];
			struct chart *c;

			if (r->alert_charts.n >= max) {
				r->alert_charts_left_out++;
				continue;
			}
			c = chart_new(CHART_HISTORY);
			if (render_alert_chart(c, a, al, err) < 0) {
				chart_free(c);
				return -1;
			}
			r->alert_chart_of[r->alert_charts.n] = al;
			report_chart(&r->alert_charts, c, NULL);
		}
	return 0;
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

void report_envdiff(struct report *r, const char *text)
{
	xgrow(&r->envdiffs, &r->envdiffs_cap, r->nenvdiffs + 1, sizeof(*r->envdiffs));
	r->envdiffs[r->nenvdiffs++] = xstrdup(text);
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

/* Stream ------------------------------------------------------------------- */

/* Append what from holds (from its start) to f. */
static int copy_stream(FILE *f, FILE *from, struct kb_err *err)
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
	st->backend = html ? &report_html_backend : &report_text_backend;
	st->assets_dir = assets_dir;
	st->assets_href = assets_href;
	st->tmp = tmpfile();
	if (!st->tmp)
		return kb_err_set(err, "", 0, "cannot make a temporary file for the report: %s",
				  strerror(errno));
	st->sum = xcalloc(1, sizeof(*st->sum));
	if (html)
		st->pool = chart_pool_new(chart_pool_threads());
	return 0;
}

int report_stream_section(struct report_stream *st, const struct report *r, size_t i,
			  struct kb_err *err)
{
	report_gsum_add(st->sum, &r->sections[i]);
	return st->backend->section(st, r, i, NULL, err);
}

int report_stream_section_give(struct report_stream *st, struct report *r, size_t i,
			       struct kb_err *err)
{
	report_gsum_add(st->sum, &r->sections[i]);
	return st->backend->section(st, r, i, &r->sections[i], err);
}

int report_stream_end(struct report_stream *st, FILE *f, const struct report *r,
		      struct kb_err *err)
{
	int rc;

	report_gsum_end(st->sum);
	/* every section's charts written before the page says it is done */
	rc = st->backend->sections_done ? st->backend->sections_done(st, err) : 0;
	if (rc == 0 && st->pool)
		rc = chart_pool_wait(st->pool, err);
	if (rc == 0)
		rc = st->backend->head(st, f, r, err);
	if (rc == 0)
		rc = copy_stream(f, st->tmp, err);
	if (rc == 0)
		rc = st->backend->tail(st, f, r, err);
	return rc;
}

void report_stream_release(struct report_stream *st)
{
	/* the workers stopped first: they may be drawing into what the
	 * backend keeps */
	chart_pool_free(st->pool);
	st->pool = NULL;
	if (st->backend && st->backend->release)
		st->backend->release(st);
	if (st->tmp)
		fclose(st->tmp);
	if (st->sum) {
		report_gsum_release(st->sum);
		free(st->sum);
	}
	memset(st, 0, sizeof(*st));
}

/* Every section at once (the caller holds them all). */
static int report_render(FILE *f, const struct report *r, int html, const char *assets_dir,
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

int report_html(FILE *f, const struct report *r, const char *assets_dir,
		const char *assets_href, struct kb_err *err)
{
	return report_render(f, r, 1, assets_dir, assets_href, err);
}

int report_text(FILE *f, const struct report *r, struct kb_err *err)
{
	return report_render(f, r, 0, NULL, NULL, err);
}
