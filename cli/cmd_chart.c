/*
 * cmd_chart.c - `kbench chart --type TYPE [selection] -o FILE`: one chart
 * of a selection, drawn by render/chart.h to PNG, SVG or PDF (from the
 * extension), or its layout dumped as key=value lines (--dump-layout).
 *
 * This file gathers the data and fills the chart model: comparison
 * tables (an_compare_build) for bars / lines / points / change, stored
 * job placement (db_placement_load) for placement / nodeload.  The
 * builders are shared with `kbench report` through select.h.
 */
#include "cli.h"
#include "select.h"
#include "../analyze/history.h"
#include "../core/buf.h"
#include "../core/num.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/placement.h"
#include "../ingest/record.h"
#include "../render/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Configuration labels --------------------------------------------------- */

/* Split a canonical config into keys and values (unescaped copies). */
struct kvs {
	char **k, **v;
	size_t n, cap, vcap;
};

static void kvs_parse(struct kvs *kv, const char *config)
{
	struct buf k = BUF_INIT, v = BUF_INIT;

	memset(kv, 0, sizeof(*kv));
	while (rec_config_next(&config, &k, &v)) {
		xgrow(&kv->k, &kv->cap, kv->n + 1, sizeof(*kv->k));
		xgrow(&kv->v, &kv->vcap, kv->n + 1, sizeof(*kv->v));
		kv->k[kv->n] = xstrdup(buf_str(&k));
		kv->v[kv->n] = xstrdup(buf_str(&v));
		kv->n++;
	}
	buf_release(&k);
	buf_release(&v);
}

static void kvs_release(struct kvs *kv)
{
	size_t i;

	for (i = 0; i < kv->n; i++) {
		free(kv->k[i]);
		free(kv->v[i]);
	}
	free(kv->k);
	free(kv->v);
}

/* Does key take more than one value (or go missing) across configs? */
static int key_varies(const char *const *configs, size_t n, const char *key)
{
	struct buf first = BUF_INIT;
	int have_first, varies = 0;
	size_t i;

	have_first = rec_config_value(configs[0], key, &first) == 0;
	for (i = 1; i < n && !varies; i++)
		varies = have_first ? !rec_config_has(configs[i], key, buf_str(&first))
				    : rec_config_value(configs[i], key, NULL) == 0;
	buf_release(&first);
	return varies;
}

/* Label of config within a set: only the keys that vary across the set;
 * with exactly one varying key, its bare value.  Caller frees. */
static char *config_label(const char *config, const char *const *all, size_t nall)
{
	struct kvs kv;
	struct buf b = BUF_INIT;
	size_t i, nvary = 0, last = 0;

	kvs_parse(&kv, config);
	for (i = 0; i < kv.n; i++)
		if (nall > 1 && key_varies(all, nall, kv.k[i])) {
			nvary++;
			last = i;
		}
	if (nvary == 1) {
		buf_puts(&b, kv.v[last]);
	} else {
		for (i = 0; i < kv.n; i++)
			if (nvary == 0 || key_varies(all, nall, kv.k[i]))
				buf_printf(&b, "%s%s=%s", b.len ? "," : "", kv.k[i], kv.v[i]);
	}
	if (!b.len)
		buf_puts(&b, "(all)");
	kvs_release(&kv);
	return buf_detach(&b);
}

/* The one key that varies across configs, or NULL.  Caller frees. */
static char *varying_key(const char *const *configs, size_t n)
{
	struct kvs kv;
	char *key = NULL;
	size_t i, nvary = 0;

	if (n < 2)
		return NULL;
	kvs_parse(&kv, configs[0]);
	for (i = 0; i < kv.n; i++)
		if (key_varies(configs, n, kv.k[i])) {
			nvary++;
			if (!key)
				key = xstrdup(kv.k[i]);
		}
	kvs_release(&kv);
	if (nvary != 1) {
		free(key);
		return NULL;
	}
	return key;
}

void cli_chart_styles(struct chart *c, const struct cli_chart_opts *o)
{
	size_t s, k;

	for (s = 0; s < c->nseries && o->styles; s++)
		for (k = 0; k < o->nstyles; k++)
			if (!strcmp(c->series[s], o->styles[k]))
				chart_series_style(c, (int)s, (int)k);
}

/* Verdicts --------------------------------------------------------------- */

static enum chart_verdict verdict_of(enum an_verdict v)
{
	switch (v) {
	case AN_VERDICT_BETTER: return CHART_BETTER;
	case AN_VERDICT_WORSE: return CHART_WORSE;
	case AN_VERDICT_CHANGED: return CHART_CHANGED;
	case AN_VERDICT_INCONCLUSIVE: return CHART_INCONCLUSIVE;
	default: return CHART_SAME;
	}
}

/* Builders from a comparison table --------------------------------------- */

static double err_width(const struct an_desc *d, enum chart_errbar e)
{
	if (e == CHART_ERR_SD)
		return d->sd;
	if (e == CHART_ERR_CI95 && !isnan(d->ci_low) && !isnan(d->ci_high))
		return (d->ci_high - d->ci_low) / 2;
	return NAN;
}

/* Rows of t for (bench, metric), in table order. */
static size_t pick_rows(const struct an_table *t, const char *bench, const char *metric,
			size_t *rows)
{
	size_t r, n = 0;

	for (r = 0; r < t->nrows; r++)
		if (!strcmp(t->rows[r].benchmark, bench) && !strcmp(t->rows[r].metric, metric))
			rows[n++] = r;
	return n;
}

int cli_table_metric(const struct an_table *t, const char **bench, const char **metric,
		     struct kb_err *err)
{
	size_t r;
	struct buf names = BUF_INIT;
	int many = 0;

	*bench = *metric = NULL;
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];

		if (!*bench) {
			*bench = row->benchmark;
			*metric = row->metric;
		} else if (strcmp(*bench, row->benchmark) || strcmp(*metric, row->metric)) {
			many = 1;
		}
	}
	if (!*bench)
		return kb_err_set(err, "", 0, "nothing in the store matches the selection "
				  "(kbench ls shows what it holds)");
	if (!many)
		return 0;
	for (r = 0; r < t->nrows && names.len < 300; r++) {
		char item[256];

		snprintf(item, sizeof(item), "%s/%s", t->rows[r].benchmark, t->rows[r].metric);
		if (!strstr(buf_str(&names), item))
			buf_printf(&names, "%s%s", names.len ? ", " : "", item);
	}
	kb_err_set(err, "", 0, "the selection holds several benchmark/metric pairs (%s%s); "
		   "pick one with --bench and --metric", buf_str(&names),
		   names.len >= 300 ? ", ..." : "");
	buf_release(&names);
	return -1;
}

static void axis_for_metric(struct chart *c, const struct an_row *row)
{
	chart_set_axis(c, 'y', row->metric, row->unit && *row->unit ? row->unit : NULL);
}

static char *default_title(const char *bench, const char *metric, const char *what)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s: %s", bench, metric);
	if (what)
		buf_printf(&b, " (%s)", what);
	return buf_detach(&b);
}

int cli_chart_from_table(struct chart *c, const struct an_table *t, const char *bench,
			 const char *metric, const struct cli_chart_opts *o, struct kb_err *err)
{
	size_t *rows = xmalloc((t->nrows + 1) * sizeof(*rows));
	const char **configs = xmalloc((t->nrows + 1) * sizeof(*configs));
	size_t n = pick_rows(t, bench, metric, rows), i, v;
	char *key = NULL, *title;
	int rc = 0;

	if (n == 0) {
		rc = kb_err_set(err, "", 0, "no rows for %s/%s in the selection", bench, metric);
		goto out;
	}
	for (i = 0; i < n; i++)
		configs[i] = t->rows[rows[i]].config;
	key = o->xkey ? xstrdup(o->xkey) : varying_key(configs, n);
	c->errbar = (enum chart_errbar)o->errbar;
	axis_for_metric(c, &t->rows[rows[0]]);
	title = default_title(bench, metric, NULL);
	chart_set_title(c, o->title ? o->title : title);
	free(title);
	if (c->type == CHART_BARS || c->type == CHART_POINTS) {
		chart_set_axis(c, 'x', key ? key : "configuration", NULL);
		for (i = 0; i < n; i++) {
			char *label = config_label(configs[i], configs, n);

			chart_category(c, label);
			free(label);
		}
		for (v = 0; v < t->nvariants; v++)
			chart_series(c, t->variants[v].name);
		cli_chart_styles(c, o);
		for (i = 0; i < n; i++) {
			const struct an_row *row = &t->rows[rows[i]];

			for (v = 0; v < t->nvariants; v++) {
				const struct an_cell *cell = &row->cells[v];
				size_t k;

				if (cell->origin == AN_ORIGIN_NONE || isnan(cell->d.mean))
					continue;
				if (c->type == CHART_POINTS)
					for (k = 0; k < cell->nvalues; k++)
						if (!isnan(cell->values[k]))
							chart_sample(c, (int)v, (int)i, cell->values[k]);
				chart_value(c, (int)v, (int)i, cell->d.mean, err_width(&cell->d, (enum chart_errbar)o->errbar));
			}
		}
	} else if (c->type == CHART_LINES) {
		if (!key) {
			rc = kb_err_set(err, "", 0, "a lines chart needs one numeric configuration key "
					"that varies (tasks, groups, jobs); pin the others with --config "
					"or name it with --x KEY");
			goto out;
		}
		chart_set_axis(c, 'x', key, NULL);
		c->log_x = o->log_x;
		c->log_y = o->log_y;
		for (v = 0; v < t->nvariants; v++)
			chart_series(c, t->variants[v].name);
		cli_chart_styles(c, o);
		for (i = 0; i < n; i++) {
			const struct an_row *row = &t->rows[rows[i]];
			struct buf val = BUF_INIT;
			double x;
			int bad = rec_config_value(row->config, key, &val) < 0 ||
				  num_parse(buf_str(&val), val.len, &x) < 0;

			buf_release(&val);
			if (bad) {
				rc = kb_err_set(err, "", 0, "configuration '%s' has no numeric %s",
						row->config, key);
				goto out;
			}
			for (v = 0; v < t->nvariants; v++) {
				const struct an_cell *cell = &row->cells[v];

				if (cell->origin == AN_ORIGIN_NONE || isnan(cell->d.mean))
					continue;
				chart_xy(c, (int)v, x, cell->d.mean, err_width(&cell->d, (enum chart_errbar)o->errbar));
			}
		}
		/* configurations that differ in more than the x key would overlap */
		for (i = 0; i < n; i++) {
			struct kvs kv;
			size_t k;

			kvs_parse(&kv, configs[i]);
			for (k = 0; k < kv.n && !rc; k++)
				if (strcmp(kv.k[k], key) && key_varies(configs, n, kv.k[k]))
					rc = kb_err_set(err, "", 0, "configurations also differ in %s; "
							"pin it with --config %s=VALUE", kv.k[k], kv.k[k]);
			kvs_release(&kv);
			if (rc)
				goto out;
		}
	} else {
		rc = kb_err_set(err, "", 0, "internal: %s is not a table chart", chart_type_name(c->type));
	}
out:
	free(key);
	free(rows);
	free(configs);
	return rc;
}

int cli_chart_change(struct chart *c, const struct an_table *t, const char *bench,
		     const struct cli_chart_opts *o, struct kb_err *err)
{
	const char **configs = xmalloc((t->nrows + 1) * sizeof(*configs));
	size_t r, v, n = 0, nrows = 0, ncands = 0;
	int many_bench = 0, many_metric = 0;
	const char *b0 = NULL, *m0 = NULL;
	struct buf title = BUF_INIT;

	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];

		if (bench && strcmp(row->benchmark, bench))
			continue;
		if (b0 && strcmp(b0, row->benchmark))
			many_bench = 1;
		if (m0 && strcmp(m0, row->metric))
			many_metric = 1;
		if (!b0) {
			b0 = row->benchmark;
			m0 = row->metric;
		}
		configs[n++] = row->config;
	}
	for (v = 0; v < t->nvariants; v++)
		if (v != t->baseline)
			ncands++;
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];
		char *cfg;

		if (bench && strcmp(row->benchmark, bench))
			continue;
		cfg = config_label(row->config, configs, n);
		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *cell = &row->cells[v];
			struct buf label = BUF_INIT;

			if (!cell->has_change || cell->chg.verdict == AN_VERDICT_NONE ||
			    isnan(cell->chg.change))
				continue;
			if (ncands > 1)
				buf_printf(&label, "%s: ", t->variants[v].name);
			if (many_bench)
				buf_printf(&label, "%s ", row->benchmark);
			buf_puts(&label, cfg);
			if (many_metric)
				buf_printf(&label, " %s", row->metric);
			chart_change(c, buf_str(&label), cell->chg.change, cell->chg.ci_low,
				     cell->chg.ci_high, verdict_of(cell->chg.verdict));
			buf_release(&label);
			nrows++;
		}
		free(cfg);
	}
	free(configs);
	if (!nrows)
		return kb_err_set(err, "", 0, "no changes to draw: the selection has no variant "
				  "with data beside the baseline");
	c->threshold = t->opts.delta;
	buf_printf(&title, "%s%s%s: change vs %s", b0, many_metric ? "" : " ",
		   many_metric ? "" : m0, t->variants[t->baseline].name);
	chart_set_title(c, o->title ? o->title : buf_str(&title));
	buf_release(&title);
	chart_set_axis(c, 'x', t->opts.conv == AN_CONV_RAW ? "change" :
		       t->opts.conv == AN_CONV_SPEED ? "speed change" : "improvement", "%");
	return 0;
}

/* Builders from stored placement ----------------------------------------- */

static int job_main(const struct db_pjob *j, int nnodes)
{
	int k, best = -1;

	if (j->main_node >= 0)
		return j->main_node;
	for (k = 0; k < nnodes; k++)
		if (!isnan(j->pct[k]) && (best < 0 || j->pct[k] > j->pct[best]))
			best = k;
	return best;
}

void cli_chart_panel(struct chart *c, const struct db_prun *r, int with_variant)
{
	char title[512];
	size_t j;
	int p;

	if (with_variant)
		snprintf(title, sizeof(title), "%s, %s (run %lld)", r->variant,
			 r->config && *r->config ? r->config : "-", r->run_id);
	else
		snprintf(title, sizeof(title), "%s (run %lld)",
			 r->config && *r->config ? r->config : "-", r->run_id);
	p = chart_panel(c, title, r->nnodes);
	for (j = 0; j < r->njobs; j++) {
		char label[32];

		snprintf(label, sizeof(label), "%d", r->jobs[j].job);
		chart_job(c, p, label, r->jobs[j].initial_node, job_main(&r->jobs[j], r->nnodes),
			  r->jobs[j].pct);
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

int cli_chart_nodeload(struct chart *c, const struct db_prun *const *runs, size_t nruns,
		       const struct cli_chart_opts *o, struct kb_err *err)
{
	long *tasks = xmalloc((nruns + 1) * sizeof(*tasks));
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
	for (i = 0; i < nt; i++)
		if (i == 0 || tasks[i] != tasks[i - 1]) {
			char label[64];

			snprintf(label, sizeof(label), "tasks=%ld", tasks[i]);
			chart_category(c, label);
		}
	for (i = 0; i < nruns; i++)
		chart_series(c, runs[i]->variant);
	/* Mean over the runs of one (variant, tasks): jobs per main node. */
	for (i = 0; i < nruns; i++) {
		const struct db_prun *r = runs[i];
		char label[64];
		int s = chart_series(c, r->variant), g, k, same = 0;
		double *count;

		for (j = 0; j < i; j++)
			if (runs[j]->tasks == r->tasks && !strcmp(runs[j]->variant, r->variant))
				break;
		if (j < i)
			continue;       /* this (variant, tasks) was done with its first run */
		snprintf(label, sizeof(label), "tasks=%ld", r->tasks);
		g = chart_category(c, label);
		count = xcalloc((size_t)nnodes + 1, sizeof(*count));
		for (j = i; j < nruns; j++) {
			const struct db_prun *q = runs[j];
			size_t k2;

			if (q->tasks != r->tasks || strcmp(q->variant, r->variant))
				continue;
			same++;
			for (k2 = 0; k2 < q->njobs; k2++) {
				int m = job_main(&q->jobs[k2], q->nnodes);

				if (m >= 0 && m < nnodes)
					count[m] += 1;
			}
		}
		for (k = 0; k < nnodes; k++)
			chart_node_jobs(c, s, g, k, count[k] / same);
		free(count);
	}
	free(tasks);
	chart_set_title(c, o->title ? o->title : "numa_test: jobs per node (node with most time)");
	chart_set_axis(c, 'x', "load", NULL);
	chart_set_axis(c, 'y', "jobs", NULL);
	return 0;
}

/* The verb --------------------------------------------------------------- */

struct chart_kind {
	const char *name;
	enum chart_type type;
	int from_table;         /* 1: comparison table, 0: stored placement */
	const char *help;
};

/* One row per chart type `kbench chart` draws. */
static const struct chart_kind kinds[] = {
	{ "bars", CHART_BARS, 1, "grouped bars: x = configuration, one bar per variant" },
	{ "lines", CHART_LINES, 1, "metric against a numeric config key, one line per variant" },
	{ "points", CHART_POINTS, 1, "every sample as a dot, the mean marked" },
	{ "placement", CHART_PLACEMENT, 0, "numa_test heatmap: jobs x nodes, % of time" },
	{ "nodeload", CHART_NODELOAD, 0, "numa_test jobs per node, per variant and task count" },
	{ "change", CHART_CHANGE, 1, "forest plot of the change against the baseline" },
	/* history: built by `kbench history` (cmd_history.c, cli_history_chart) */
	{ "history", CHART_HISTORY, 0, "one --metric along variants in version order, change points marked" },
};

static const struct chart_kind *find_kind(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	return NULL;
}

int cli_chart_errbar(const char *s, int *e)
{
	if (!s || !strcmp(s, "sd"))
		*e = CHART_ERR_SD;
	else if (!strcmp(s, "ci") || !strcmp(s, "ci95"))
		*e = CHART_ERR_CI95;
	else if (!strcmp(s, "none"))
		*e = CHART_ERR_NONE;
	else
		return -1;
	return 0;
}

/* Placement runs of the selection (bench defaults to every benchmark that
 * has job rows; --run picks one run). */
static size_t select_runs(const struct db_placement *pl, const struct cli_select *s,
			  long run, const struct db_prun **out)
{
	size_t i, n = 0;

	for (i = 0; i < pl->nruns; i++) {
		const struct db_prun *r = &pl->runs[i];

		if (run > 0) {
			if (r->run_id == run)
				out[n++] = r;
			continue;
		}
		if (s->bench && strcmp(s->bench, r->benchmark))
			continue;
		if (!cli_select_variant_match(s, r->variant) || !cli_select_config_match(s, r->config))
			continue;
		out[n++] = r;
	}
	return n;
}

static int build_placement(struct chart *c, struct db *db, const struct cli_select *s,
			   long run, const struct cli_chart_opts *o, struct kb_err *err)
{
	struct db_placement pl;
	const struct db_prun **runs;
	size_t n, i;
	int rc = 0;

	if (cli_placement_load(db, &pl, err) < 0)
		return -1;
	runs = xmalloc((pl.nruns + 1) * sizeof(*runs));
	n = select_runs(&pl, s, run, runs);
	/* --variants gives the order of the small multiples */
	if (s->nvariant_v && run <= 0) {
		const struct db_prun **sorted = xmalloc((n + 1) * sizeof(*sorted));
		size_t k = 0, v;

		for (v = 0; v < s->nvariant_v; v++)
			for (i = 0; i < n; i++)
				if (!strcmp(runs[i]->variant, s->variant_v[v]))
					sorted[k++] = runs[i];
		free(runs);
		runs = sorted;
		n = k;
	}
	if (n == 0) {
		rc = run > 0 ? kb_err_set(err, "", 0, "run %ld has no job placement", run)
			     : kb_err_set(err, "", 0, "no numa_test job placement in the selection");
	} else if (c->type == CHART_PLACEMENT) {
		char title[512];

		for (i = 0; i < n; i++)
			cli_chart_panel(c, runs[i], 1);
		if (n == 1)
			snprintf(title, sizeof(title), "%s: job placement, %s", runs[0]->benchmark,
				 runs[0]->variant);
		else
			snprintf(title, sizeof(title), "%s: job placement", runs[0]->benchmark);
		chart_set_title(c, o->title ? o->title : title);
		chart_set_axis(c, 'x', "node", NULL);
		chart_set_axis(c, 'y', "job", NULL);
	} else {
		rc = cli_chart_nodeload(c, runs, n, o, err);
	}
	free(runs);
	db_placement_release(&pl);
	return rc;
}

int cmd_chart(int argc, char **argv)
{
	struct cli_select sel;
	const char *type = NULL, *out = NULL, *title = NULL, *errbar = NULL, *xkey = NULL;
	double width = 0, height = 0;
	long run = 0;
	int log_x = 0, log_y = 0, dump = 0;
	const struct opt opts[] = {
		OPT_STRING("type", "TYPE", &type,
			   "bars, lines, points, placement, nodeload, change or history"),
		CLI_SELECT_OPTS(&sel),
		OPT_LONG("run", "ID", &run, "placement: one run (else every run of the selection)"),
		OPT_STRING("x", "KEY", &xkey, "lines: the configuration key on x (default: the one that varies)"),
		OPT_STRING("error", "sd|ci|none", &errbar, "whiskers: sd (default), 95% CI of the mean, none"),
		OPT_STRING("output", "FILE", &out, "(-o) write FILE.png, .svg or .pdf"),
		OPT_DOUBLE("width", "W", &width, "canvas width (default 800)"),
		OPT_DOUBLE("height", "H", &height, "canvas height (default 500)"),
		OPT_STRING("title", "T", &title, "chart title"),
		OPT_FLAG("log-x", &log_x, "lines: logarithmic x axis"),
		OPT_FLAG("log-y", &log_y, "lines: logarithmic y axis"),
		OPT_FLAG("dump-layout", &dump, "print the computed layout as key=value lines"),
		OPT_END,
	};
	const struct cmd_usage u = { "chart",
		"--type TYPE [selection] [-o FILE.png|.svg|.pdf] [--width W --height H]\n"
		"       [--title T] [--log-x] [--log-y] [--error sd|ci|none] [--run ID] [--dump-layout]",
		"Draws one chart of a selection (the selection options are compare's).\n"
		"Types: bars, lines, points, change (from the comparison), placement and\n"
		"nodeload (numa_test job placement), history (kbench history's chart).\n"
		"See docs/report.md.", opts };
	const struct chart_kind *kind;
	struct cli_chart_opts co;
	struct an_query q;
	struct an_table t;
	struct kb_err err;
	struct chart *c = NULL;
	struct db *db = NULL;
	const char **args;
	size_t nargs;
	int rc, status = EXIT_USAGE;

	cli_select_init(&sel);
	cli_short_output(argc, argv);
	rc = opt_parse(&u, argc, argv, &args, &nargs);
	if (rc) {
		cli_select_release(&sel);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	free(args);
	kb_err_clear(&err);
	memset(&t, 0, sizeof(t));
	memset(&co, 0, sizeof(co));
	an_query_init(&q);
	if (nargs) {
		fprintf(stderr, "kbench chart: unexpected argument\n");
		goto usage;
	}
	if (!type || !(kind = find_kind(type))) {
		fprintf(stderr, "kbench chart: --type is one of bars, lines, points, placement, "
			"nodeload, change, history\n");
		goto usage;
	}
	if (!out && !dump) {
		fprintf(stderr, "kbench chart: give -o FILE.png|.svg|.pdf or --dump-layout\n");
		goto usage;
	}
	if (cli_chart_errbar(errbar, &co.errbar) < 0) {
		fprintf(stderr, "kbench chart: --error is sd, ci or none\n");
		goto usage;
	}
	if (chart_size_check(width ? width : 800, height ? height : 500, &err) < 0) {
		cli_report("chart", &err);
		goto usage;
	}
	co.title = title;
	co.log_x = log_x;
	co.log_y = log_y;
	co.xkey = xkey;
	if (cli_select_query(&sel, &q, &err) < 0) {
		cli_report("chart", &err);
		goto usage;
	}
	if (db_open_existing(&db, cli_db_path(sel.db), &err) < 0) {
		cli_report("chart", &err);
		goto done;
	}
	{
		struct cli_names nm;

		cli_select_names(&sel, &nm);
		if (cli_selection_check(db, &nm, &err) < 0 ||
		    cli_select_resolve(&sel, db, &q, &err) < 0)
			goto fail;
	}
	c = chart_new(kind->type);
	chart_set_size(c, width, height, 1);
	if (kind->type == CHART_HISTORY) {
		struct an_history_opts ho;

		an_history_opts_init(&ho);
		if (q.nmetrics != 1) {
			kb_err_set(&err, "", 0, "--type history draws one --metric");
			goto fail;
		}
		ho.metric = q.metrics[0];
		ho.bench = q.bench;
		ho.config = q.config;
		ho.nconfig = q.nconfig;
		ho.better = q.better;
		ho.nbetter = q.nbetter;
		if (cli_history_chart(db, &ho, c, title, &err) < 0)
			goto fail;
	} else if (kind->from_table) {
		const char *bench, *metric;

		if (an_compare_build(db, &q, &t, &err) < 0)
			goto fail;
		if (kind->type == CHART_CHANGE) {
			if (cli_chart_change(c, &t, NULL, &co, &err) < 0)
				goto fail;
		} else if (cli_table_metric(&t, &bench, &metric, &err) < 0 ||
			   cli_chart_from_table(c, &t, bench, metric, &co, &err) < 0) {
			goto fail;
		}
	} else if (build_placement(c, db, &sel, run, &co, &err) < 0) {
		goto fail;
	}
	if (dump && chart_dump_layout(c, stdout, &err) < 0)
		goto fail;
	if (out && chart_render_file(c, out, &err) < 0)
		goto fail;
	status = EXIT_OK;
	goto done;
fail:
	cli_report("chart", &err);
	status = EXIT_USAGE;
	goto done;
usage:
	opt_usage(&u, stderr);
done:
	if (c)
		chart_free(c);
	an_table_release(&t);
	if (db)
		db_close(db);
	cli_select_release(&sel);
	return status;
}
