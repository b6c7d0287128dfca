/*
 * report.c - the report model, what it says in words whatever the
 * format (the methods, the monitor rows of a table), and the stream that
 * writes it through one backend (report_backend.h).
 */
#include "report_backend.h"
#include "report_verdicts.h"
#include "chart.h"
#include "../core/buf.h"
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

/* What the report says in any format ------------------------------------- */

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
	return 0;
}

int report_stream_section(struct report_stream *st, const struct report *r, size_t i,
			  struct kb_err *err)
{
	report_gsum_add(st->sum, &r->sections[i]);
	return st->backend->section(st, r, i, err);
}

int report_stream_end(struct report_stream *st, FILE *f, const struct report *r,
		      struct kb_err *err)
{
	int rc;

	report_gsum_end(st->sum);
	rc = st->backend->head(st, f, r, err);
	if (rc == 0)
		rc = copy_stream(f, st->tmp, err);
	if (rc == 0)
		rc = st->backend->tail(st, f, r, err);
	return rc;
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
