/*
 * cmd_chart.c - `kbench chart --type TYPE [selection] -o FILE`: one chart
 * of a selection, drawn by render/chart.h to PNG, SVG or PDF (from the
 * extension), or its layout dumped as key=value lines (--dump-layout).
 *
 * This file gathers the data and fills the chart model: comparison
 * tables (an_compare_build) for bars / lines / points / change, stored
 * job placement (db_placement_load) for placement / nodeload.  The
 * builders are shared with `kbench report`: the table ones in
 * render/chart_model.h, the placement ones in render/chart_build.h.
 */
#include "cli.h"
#include "select.h"
#include "../analyze/history.h"
#include "../core/buf.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/placement.h"
#include "../ingest/record.h"
#include "../render/chart.h"
#include "../render/chart_build.h"
#include "../render/chart_model.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	/* history: kbench history's chart (render/chart_build.h, chart_build_history) */
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
			   long run, const struct chart_model_opts *o, struct kb_err *err)
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
		chart_build_placement(c, runs, n, o);
	} else {
		rc = chart_build_nodeload(c, runs, n, o, err);
	}
	free(runs);
	db_placement_release(&pl);
	return rc;
}

/* history: kbench history's chart of the one --metric. */
static int build_history(struct chart *c, struct db *db, const struct an_query *q,
			 const char *title, struct kb_err *err)
{
	struct an_history_opts ho;

	if (q->nmetrics != 1)
		return kb_err_set(err, "", 0, "--type history draws one --metric");
	an_history_opts_from_query(&ho, q, q->metrics[0]);
	return chart_build_history(db, &ho, c, title, err);
}

/* bars, lines, points, change: from the comparison of the selection. */
static int build_table(struct chart *c, struct db *db, const struct an_query *q,
		       const struct chart_model_opts *o, struct kb_err *err)
{
	struct chart_model_opts co = *o;
	const char **styles = NULL, *bench, *metric;
	struct db_list list;
	struct an_table t;
	size_t i;
	int rc = -1;

	memset(&t, 0, sizeof(t));
	if (an_compare_build(db, q, &t, err) < 0) {
		an_table_release(&t);
		return -1;
	}
	/* colours: each variant's place in the store, as report gives them */
	if (db_list(db, &list, err) < 0) {
		an_table_release(&t);
		return -1;
	}
	styles = xmalloc((list.nvariants + 1) * sizeof(*styles));
	for (i = 0; i < list.nvariants; i++)
		styles[i] = list.variants[i].name;
	chart_model_styles_init(&co, styles, list.nvariants);
	if (c->type == CHART_CHANGE)
		rc = chart_model_change(c, &t, NULL, &co, err);
	else if (chart_model_table_metric(&t, &bench, &metric, err) == 0)
		rc = chart_model_from_table(c, &t, bench, metric, &co, err);
	chart_model_styles_release(&co);
	free(styles);
	db_list_release(&list);
	an_table_release(&t);
	return rc;
}

int cmd_chart(int argc, char **argv)
{
	struct cli_select sel;
	const char *type = NULL, *out = NULL, *title = NULL, *errbar = NULL, *xkey = NULL;
	/* pixels, whole numbers; LONG_MIN: not given (0 is not "default") */
	long width = LONG_MIN, height = LONG_MIN;
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
		OPT_LONG("width", "W", &width, "canvas width in pixels (default 800)"),
		OPT_LONG("height", "H", &height, "canvas height in pixels (default 500)"),
		OPT_STRING("title", "T", &title, "chart title"),
		OPT_FLAG("log-x", &log_x, "lines: logarithmic x axis"),
		OPT_FLAG("log-y", &log_y, "bars, points, lines: logarithmic y axis (one 800 s bar among 5 s ones)"),
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
	struct chart_model_opts co;
	struct an_query q;
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
	if (chart_model_errbar(errbar, &co.errbar) < 0) {
		fprintf(stderr, "kbench chart: --error is sd, ci or none\n");
		goto usage;
	}
	if (chart_size_check(width != LONG_MIN ? (double)width : 800,
			     height != LONG_MIN ? (double)height : 500, &err) < 0) {
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
	if (cli_select_open(&sel, &q, &db, &err) < 0 ||
	    cli_select_resolve(&sel, db, &q, &err) < 0)
		goto fail;
	c = chart_new(kind->type);
	chart_set_size(c, width != LONG_MIN ? (double)width : 0,
		       height != LONG_MIN ? (double)height : 0, 1);
	if (kind->type == CHART_HISTORY)
		rc = build_history(c, db, &q, title, &err);
	else if (kind->from_table)
		rc = build_table(c, db, &q, &co, &err);
	else
		rc = build_placement(c, db, &sel, run, &co, &err);
	if (rc < 0)
		goto fail;
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
	if (db)
		db_close(db);
	cli_select_release(&sel);
	return status;
}
