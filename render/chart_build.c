/*
 * chart_build.c - charts of stored numa_test job placement (see
 * chart_build.h): the heatmap panels of runs and the jobs per node; and
 * the history chart built from the store.
 */
#include "chart_build.h"
#include "chart.h"
#include "regress.h"
#include "../analyze/history.h"
#include "../analyze/placement.h"
#include "../core/buf.h"
#include "../core/util.h"
#include "../db/placement.h"
#include "../ingest/record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does every run of runs[0..n) hold key=val in its config? */
static int all_have(const struct db_prun *const *runs, size_t n, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!rec_config_has(runs[i]->config, key, val))
			return 0;
	return 1;
}

char *chart_build_common_config(const struct db_prun *const *runs, size_t n)
{
	struct buf key = BUF_INIT, val = BUF_INIT, common = BUF_INIT;
	char **ck = NULL, **cv = NULL;  /* the pairs every run holds */
	size_t i, j, nc = 0, cap = 0, capv = 0;
	const char *p;
	int ok = n > 1 && runs[0]->config;

	/* a pair every run holds is one of the first run's */
	for (p = ok ? runs[0]->config : ""; ok && rec_config_next(&p, &key, &val);)
		if (all_have(runs, n, buf_str(&key), buf_str(&val))) {
			buf_printf(&common, "%s%s=%s", common.len ? "," : "", buf_str(&key), buf_str(&val));
			xgrow(&ck, &cap, nc + 1, sizeof(*ck));
			xgrow(&cv, &capv, nc + 1, sizeof(*cv));
			ck[nc] = xstrdup(buf_str(&key));
			cv[nc++] = xstrdup(buf_str(&val));
		}
	/* only when every run keeps something of its own to tell it apart:
	 * a pair that is not one of those (a look-up per pair, not a pass
	 * over every run: a lab's panels have thousands of runs) */
	for (i = 0; ok && nc && i < n; i++) {
		int own = 0;
		for (p = runs[i]->config; !own && rec_config_next(&p, &key, &val);) {
			for (j = 0; j < nc; j++)
				if (strcmp(ck[j], buf_str(&key)) == 0 && strcmp(cv[j], buf_str(&val)) == 0)
					break;
			own = j == nc;
		}
		ok = own;
	}
	for (j = 0; j < nc; j++) {
		free(ck[j]);
		free(cv[j]);
	}
	free(ck);
	free(cv);
	buf_release(&key);
	buf_release(&val);
	if (!ok || !common.len) {
		buf_release(&common);
		return NULL;
	}
	return buf_detach(&common);
}

void chart_build_panel(struct chart *c, const struct db_prun *r, int with_variant,
		       const char *common)
{
	char title[512];
	struct buf cfg = BUF_INIT, key = BUF_INIT, val = BUF_INIT;
	const char *q;
	size_t j;
	int p;

	/* the configuration without what the chart's note says of every run */
	if (common) {
		for (q = r->config; rec_config_next(&q, &key, &val);)
			if (!rec_config_has(common, buf_str(&key), buf_str(&val)))
				buf_printf(&cfg, "%s%s=%s", cfg.len ? "," : "", buf_str(&key), buf_str(&val));
	} else if (r->config) {
		buf_puts(&cfg, r->config);
	}
	if (with_variant)
		snprintf(title, sizeof(title), "%s\n%s (run %lld)", r->variant,
			 cfg.len ? buf_str(&cfg) : "-", r->run_id);
	else
		snprintf(title, sizeof(title), "%s (run %lld)",
			 cfg.len ? buf_str(&cfg) : "-", r->run_id);
	buf_release(&cfg);
	buf_release(&key);
	buf_release(&val);
	p = chart_panel(c, title, r->nnodes);
	for (j = 0; j < r->njobs; j++) {
		char label[32];

		snprintf(label, sizeof(label), "%d", r->jobs[j].job);
		chart_job(c, p, label, r->jobs[j].initial_node,
			  an_pjob_main_node(&r->jobs[j], r->nnodes), r->jobs[j].pct);
	}
}

void chart_build_placement(struct chart *c, const struct db_prun *const *runs, size_t n,
			   const struct chart_model_opts *o)
{
	char title[512];
	char *common = chart_build_common_config(runs, n);
	size_t i;

	for (i = 0; i < n; i++)
		chart_build_panel(c, runs[i], 1, common);
	if (common) {
		snprintf(title, sizeof(title), "every run: %s", common);
		chart_note(c, title);
	}
	free(common);
	if (n == 1)
		snprintf(title, sizeof(title), "%s: job placement, %s", runs[0]->benchmark,
			 runs[0]->variant);
	else
		snprintf(title, sizeof(title), "%s: job placement", runs[0]->benchmark);
	chart_set_title(c, o->title ? o->title : title);
	chart_set_axis(c, 'x', "node", NULL);
	chart_set_axis(c, 'y', "job", NULL);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

int chart_build_nodeload(struct chart *c, const struct db_prun *const *runs, size_t nruns,
			 const struct chart_model_opts *o, struct kb_err *err)
{
	long *tasks = xmalloc((nruns + 1) * sizeof(*tasks));
	const char **names;
	char **shortn, *suffix = NULL;
	size_t i, j, nt = 0;
	int nnodes = 0;

	if (!nruns) {
		free(tasks);
		return kb_err_set(err, "", 0, "no numa_test job placement in the selection");
	}
	for (i = 0; i < nruns; i++) {
		tasks[nt++] = runs[i]->tasks;
		if (runs[i]->nnodes > nnodes)
			nnodes = runs[i]->nnodes;
	}
	qsort(tasks, nt, sizeof(*tasks), cmp_long);
	/* x labels: the task counts alone, the axis says "tasks" */
	for (i = 0; i < nt; i++)
		if (i == 0 || tasks[i] != tasks[i - 1]) {
			char label[64];

			snprintf(label, sizeof(label), "%ld", tasks[i]);
			chart_category(c, label);
		}
	/* series: the variants, their names shortened to what varies */
	names = xmalloc((nruns + 1) * sizeof(*names));
	for (i = 0; i < nruns; i++)
		names[i] = runs[i]->variant;
	shortn = chart_model_short_names(names, nruns, &suffix);
	for (i = 0; i < nruns; i++)
		chart_series(c, shortn[i]);
	/* Mean over the runs of one (variant, tasks): jobs per main node. */
	for (i = 0; i < nruns; i++) {
		const struct db_prun *r = runs[i];
		char label[64];
		int s = chart_series(c, shortn[i]), g, k, same = 0;
		double *count;

		for (j = 0; j < i; j++)
			if (runs[j]->tasks == r->tasks && !strcmp(runs[j]->variant, r->variant))
				break;
		if (j < i)
			continue;       /* this (variant, tasks) was done with its first run */
		snprintf(label, sizeof(label), "%ld", r->tasks);
		g = chart_category(c, label);
		count = xcalloc((size_t)nnodes + 1, sizeof(*count));
		for (j = i; j < nruns; j++) {
			const struct db_prun *q = runs[j];
			size_t k2;

			if (q->tasks != r->tasks || strcmp(q->variant, r->variant))
				continue;
			same++;
			for (k2 = 0; k2 < q->njobs; k2++) {
				int m = an_pjob_main_node(&q->jobs[k2], q->nnodes);

				if (m >= 0 && m < nnodes)
					count[m] += 1;
			}
		}
		for (k = 0; k < nnodes; k++)
			chart_node_jobs(c, s, g, k, count[k] / same);
		free(count);
	}
	if (suffix) {
		char note[300];

		snprintf(note, sizeof(note), "variants shown without their %s", suffix);
		chart_note(c, note);
	}
	free(suffix);
	chart_model_names_free(shortn, nruns);
	free(names);
	free(tasks);
	chart_set_title(c, o->title ? o->title : "numa_test: jobs per node (node with most time)");
	chart_set_axis(c, 'x', "tasks", NULL);
	chart_set_axis(c, 'y', "jobs", NULL);
	return 0;
}

int chart_build_history(struct db *db, const struct an_history_opts *o, struct chart *c,
			const char *title, struct kb_err *err)
{
	struct an_history h;
	int rc;

	if (an_history_build(db, o, &h, err) < 0)
		return -1;
	rc = render_history_chart(c, &h, title, err);
	an_history_release(&h);
	return rc;
}
