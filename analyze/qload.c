/*
 * qload.c - an_query -> db_qsel (see qload.h).
 */
#include "qload.h"
#include "../db/placement.h"
#include "../core/util.h"
#include "../db/db.h"

#include <stdlib.h>
#include <string.h>

/* Stored metrics that derived metrics are computed from (analyze/derive.c
 * and compare.c's E-H rule); the jobs come with every run. */
static const char *const derive_inputs[] = { "elapsed", "hackbench", "elapsed_minus_hackbench" };
#define NINPUTS (sizeof(derive_inputs) / sizeof(derive_inputs[0]))

/* q's selection, and the arrays it points into (free them after use). */
struct qsel {
	struct db_qsel sel;
	const char **metrics, **variants;
	struct db_qkv *kv;
};

static void qsel_fill(struct qsel *qs, const struct an_query *q)
{
	struct db_qsel sel;
	const char **metrics = NULL, **variants = NULL;
	struct db_qkv *kv = NULL;
	size_t i;

	memset(&sel, 0, sizeof(sel));
	sel.bench = q->bench;
	if (q->metrics && q->nmetrics) {
		metrics = xmalloc((q->nmetrics + NINPUTS) * sizeof(*metrics));
		for (i = 0; i < q->nmetrics; i++)
			metrics[i] = q->metrics[i];
		for (i = 0; i < NINPUTS; i++)
			metrics[q->nmetrics + i] = derive_inputs[i];
		sel.metrics = metrics;
		sel.nmetrics = q->nmetrics + NINPUTS;
	}
	if (q->config && q->nconfig) {
		kv = xmalloc(q->nconfig * sizeof(*kv));
		for (i = 0; i < q->nconfig; i++) {
			kv[i].key = q->config[i].key;
			kv[i].value = q->config[i].value;
		}
		sel.config = kv;
		sel.nconfig = q->nconfig;
	}
	if (q->variants && q->nvariants) {
		variants = xmalloc((q->nvariants + 1) * sizeof(*variants));
		for (i = 0; i < q->nvariants; i++)
			variants[i] = q->variants[i];
		sel.nvariants = q->nvariants;
		if (q->baseline)
			variants[sel.nvariants++] = q->baseline;
		sel.variants = variants;
	}
	if (q->machines && q->nmachines) {
		sel.machines = q->machines;
		sel.nmachines = q->nmachines;
	}
	sel.near = q->near;
	sel.near_config = q->near_config;
	sel.near_any_machine = q->near_any_machine;
	qs->sel = sel;
	qs->metrics = metrics;
	qs->variants = variants;
	qs->kv = kv;
}

static void qsel_release(struct qsel *qs)
{
	free(qs->metrics);
	free(qs->variants);
	free(qs->kv);
}

int an_query_load(struct db *db, const struct an_query *q, struct db_qdata *out,
		  struct kb_err *err)
{
	struct qsel qs;
	int rc;

	qsel_fill(&qs, q);
	rc = db_query_select(db, &qs.sel, out, err);
	qsel_release(&qs);
	return rc;
}

int an_query_load_ids(struct db *db, const struct an_query *q, const long long *ids,
		      size_t nids, struct db_qdata *out, struct kb_err *err)
{
	struct qsel qs;
	int rc;

	qsel_fill(&qs, q);
	qs.sel.variants = NULL;
	qs.sel.nvariants = 0;
	qs.sel.variant_ids = ids;
	qs.sel.nvariant_ids = nids;
	rc = db_query_select(db, &qs.sel, out, err);
	qsel_release(&qs);
	return rc;
}

int an_query_load_runs(struct db *db, const struct an_query *q, struct db_qdata *out,
		       struct kb_err *err)
{
	struct qsel qs;
	int rc;

	qsel_fill(&qs, q);
	qs.sel.runs_only = 1;
	rc = db_query_select(db, &qs.sel, out, err);
	qsel_release(&qs);
	return rc;
}

int an_query_variant_keys(struct db *db, const struct an_query *q, struct db_vkey **out,
			  size_t *n, struct kb_err *err)
{
	struct qsel qs;
	int rc;

	qsel_fill(&qs, q);
	rc = db_query_variant_keys(db, &qs.sel, out, n, err);
	qsel_release(&qs);
	return rc;
}

int an_query_variant_bench_keys(struct db *db, const struct an_query *q, struct db_vbkey **out,
				size_t *n, struct kb_err *err)
{
	struct qsel qs;
	int rc;

	qsel_fill(&qs, q);
	rc = db_query_variant_bench_keys(db, &qs.sel, out, n, err);
	qsel_release(&qs);
	return rc;
}

int an_placement_load(struct db *db, const struct an_query *q, struct db_placement *out,
		      struct kb_err *err)
{
	struct qsel qs;
	int rc;

	qsel_fill(&qs, q);
	rc = db_placement_select(db, &qs.sel, out, err);
	qsel_release(&qs);
	return rc;
}

static int metric_named(const struct an_query *q, const char *metric)
{
	size_t i;

	if (!q->nmetrics)
		return 1;
	for (i = 0; i < q->nmetrics; i++)
		if (strcmp(q->metrics[i], metric) == 0)
			return 1;
	return 0;
}

static int bench_named(const struct an_query *q, const char *bench)
{
	return !q->bench || !*q->bench || strcmp(q->bench, bench) == 0;
}

int an_query_load_exact(struct db *db, const struct an_query *q, struct db_qdata *out,
			struct kb_err *err)
{
	struct an_query exact = *q;
	unsigned char *keep_sample, *keep_summary;
	long long *ids = NULL;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	/* Named metrics only: what derived ones are made of is not asked for. */
	exact.baseline = NULL;
	if (q->nvariants) {
		ids = xcalloc(q->nvariants, sizeof(*ids));
		for (i = 0; i < q->nvariants; i++) {
			char *display = NULL;

			if (db_variant_resolve_id(db, q->variants[i], &ids[i], &display, err) < 0) {
				free(ids);
				return -1;
			}
			free(display);
		}
		rc = an_query_load_ids(db, &exact, ids, q->nvariants, out, err);
	} else {
		rc = an_query_load(db, &exact, out, err);
	}
	free(ids);
	if (rc < 0)
		return -1;
	keep_sample = xcalloc(out->nsamples + 1, 1);
	keep_summary = xcalloc(out->nsummaries + 1, 1);
	for (i = 0; i < out->nsamples; i++) {
		const struct db_qsample *s = &out->samples[i];
		const struct db_qrun *r = &out->runs[s->run];

		keep_sample[i] = bench_named(q, r->benchmark) && metric_named(q, s->metric) &&
				 an_query_match(q, r->config, r->machine_key);
	}
	for (i = 0; i < out->nsummaries; i++) {
		const struct db_qsummary *s = &out->summaries[i];

		keep_summary[i] = bench_named(q, s->benchmark) && metric_named(q, s->metric) &&
				  an_query_match(q, s->config, s->machine_key);
	}
	db_qdata_keep(out, keep_sample, keep_summary);
	free(keep_sample);
	free(keep_summary);
	return 0;
}
