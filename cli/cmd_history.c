/*
 * cmd_history.c - kbench history: one metric along variants ordered as a
 * history, with its change points (analyze/history.h), as text or JSON and
 * optionally a history chart.  See docs/regress.md.
 */
#include "cli.h"
#include "progress.h"

#include "../analyze/history.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../render/chart.h"
#include "../render/regress.h"
#include "select.h"

#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* History's own options, beside the selection's. */
struct history_args {
	const char *metric, *order, *format, *chart_path, *title;
	double pvalue;
	long window;
};

/* The selection q and history's own options into ho and *fmt.  -1 after
 * a message. */
static int history_setup(const struct history_args *a, const struct an_query *q,
			 struct an_history_opts *ho, enum render_regress_fmt *fmt)
{
	if (render_regress_fmt_parse(a->format, fmt) < 0 || *fmt == RENDER_REGRESS_JUNIT) {
		fprintf(stderr, "kbench history: --format must be text or json, not '%s'\n", a->format);
		return -1;
	}
	if (an_order_parse(a->order, &ho->order) < 0) {
		fprintf(stderr, "kbench history: --order must be version, imported or name, not '%s'\n",
			a->order);
		return -1;
	}
	if (!(a->pvalue > 0 && a->pvalue <= 1) || a->window < 1) {
		fprintf(stderr, "kbench history: --pvalue must lie in (0, 1], --window >= 1\n");
		return -1;
	}
	ho->metric = a->metric;
	ho->bench = q->bench;
	ho->config = q->config;
	ho->nconfig = q->nconfig;
	ho->machines = q->machines;
	ho->nmachines = q->nmachines;
	ho->threshold = q->threshold;
	ho->better = q->better;
	ho->nbetter = q->nbetter;
	ho->pvalue = a->pvalue;
	ho->window = (size_t)a->window;
	return 0;
}

/* Open the store, check the selection's names and build the history. */
static int history_build(struct db **db, struct cli_select *sel,
			 const struct an_history_opts *ho, struct an_history *h, struct kb_err *err)
{
	struct progress prog;
	int rc;

	if (cli_select_open(sel, NULL, db, err) < 0)
		return -1;
	progress_init(&prog, "history", progress_tty(), 1.0);
	progress_start_ticker(&prog);
	progress_step(&prog, "building the series", 0, 0);
	rc = an_history_build(*db, ho, h, err);
	progress_end(&prog);
	return rc;
}

/* The history to stdout, and its chart to a file when asked. */
static int history_print(const struct history_args *a, const struct an_history *h,
			 enum render_regress_fmt fmt, struct kb_err *err)
{
	struct chart *c;
	int rc;

	if (render_history(stdout, h, fmt, err) < 0 || fflush(stdout) != 0) {
		if (!err->msg[0])
			kb_err_set(err, "", 0, "write error: %s", strerror(errno));
		return -1;
	}
	if (!a->chart_path)
		return 0;
	c = chart_new(CHART_HISTORY);
	rc = render_history_chart(c, h, a->title, err);
	if (rc == 0)
		rc = chart_render_file(c, a->chart_path, err);
	chart_free(c);
	return rc;
}

int cmd_history(int argc, char **argv)
{
	struct history_args a = { .order = "version", .format = "text", .pvalue = 0.001,
				  .window = 50 };
	struct cli_select sel;
	const struct opt opts[] = {
		CLI_OPT_DB(&sel),
		OPT_STRING("metric", "M", &a.metric, "the metric (required)"),
		CLI_OPT_BENCH(&sel),
		CLI_OPT_CONFIG(&sel),
		CLI_OPT_MACHINE(&sel),
		OPT_STRING("order", "version|imported|name", &a.order,
			   "history order: kernel version (default), import time, name"),
		OPT_DOUBLE("pvalue", "P", &a.pvalue, "a change point needs Welch p <= P (default 0.001)"),
		CLI_OPT_THRESHOLD(&sel),
		OPT_LONG("window", "N", &a.window, "points each side of a split tested (default 50)"),
		CLI_OPT_BETTER(&sel),
		OPT_STRING("format", "FMT", &a.format, "text or json (default text)"),
		OPT_STRING("chart", "FILE", &a.chart_path, "also draw the history to FILE.png, .svg or .pdf"),
		OPT_STRING("title", "T", &a.title, "chart title"),
		OPT_END,
	};
	const struct cmd_usage u = { "history",
		"--metric M [--bench B] [--config K=V] [--order version|imported|name]\n"
		"       [--pvalue P] [--threshold PCT] [--window N] [--format text|json] [--chart FILE]",
		"Orders variants as a history, pools each variant's runs and marks change points\n"
		"(E-divisive splits decided by Welch's t-test).",
		opts };
	const char **args = NULL;
	size_t nargs = 0;
	struct an_query q, dflt;
	struct an_history_opts ho;
	struct an_history h;
	enum render_regress_fmt fmt = RENDER_REGRESS_TEXT;
	struct kb_err err;
	struct db *db = NULL;
	int rc, status = EXIT_USAGE, built = 0;

	cli_select_init(&sel);
	rc = opt_parse(&u, argc, argv, &args, &nargs);
	if (rc) {
		status = rc > 0 ? EXIT_OK : EXIT_USAGE;
		goto done;
	}
	kb_err_clear(&err);
	an_history_opts_init(&ho);
	if (nargs) {
		fprintf(stderr, "kbench history: unexpected argument '%s'\n", args[0]);
		goto done;
	}
	if (!a.metric || !*a.metric) {
		fprintf(stderr, "kbench history: --metric M is required\n");
		opt_usage(&u, stderr);
		goto done;
	}
	an_query_init(&dflt);
	dflt.threshold = ho.threshold;  /* history's default: an_history_opts_init()'s */
	if (cli_select_to_query(&sel, &dflt, CLI_SELECT_KEEP_EMPTY, &q, &err) < 0) {
		cli_report("history", &err);
		goto done;
	}
	if (history_setup(&a, &q, &ho, &fmt) < 0)
		goto done;
	if (history_build(&db, &sel, &ho, &h, &err) < 0) {
		cli_report("history", &err);
		goto done;
	}
	built = 1;
	if (!h.nseries) {
		fprintf(stderr, "kbench history: no values of metric '%s' in this selection "
			"(kbench compare%s%s lists the metrics)\n", a.metric, sel.bench ? " --bench " : "",
			sel.bench ? sel.bench : "");
		goto done;
	}
	if (history_print(&a, &h, fmt, &err) < 0) {
		cli_report("history", &err);
		goto done;
	}
	status = EXIT_OK;
done:
	if (built)
		an_history_release(&h);
	if (db)
		db_close(db);
	free(args);
	cli_select_release(&sel);
	return status;
}
