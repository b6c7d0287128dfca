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

int cli_history_chart(struct db *db, const struct an_history_opts *o, struct chart *c,
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

int cmd_history(int argc, char **argv)
{
	struct progress prog;
	int hrc;
	const char *dbpath = NULL, *metric = NULL, *bench = NULL, *order = "version";
	const char *format = "text", *chart_path = NULL, *title = NULL;
	struct strlist configs = { 0 }, better = { 0 }, machines = { 0 };
	char **xv = NULL;
	size_t nxv = 0;
	double pvalue = 0.001, threshold = 1.0;
	long window = 50;
	const struct opt opts[] = {
		OPT_STRING("db", "PATH", &dbpath, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_STRING("metric", "M", &metric, "the metric (required)"),
		OPT_STRING("bench", "NAME", &bench, "one benchmark (default: every one with the metric)"),
		OPT_LIST("config", "K=V", &configs, "only configurations with K=V (repeatable)"),
		OPT_LIST("machine", "NAME[,NAME]", &machines,
			 "only runs on these machines (default: one series per machine)"),
		OPT_STRING("order", "version|imported|name", &order,
			   "history order: kernel version (default), import time, name"),
		OPT_DOUBLE("pvalue", "P", &pvalue, "a change point needs Welch p <= P (default 0.001)"),
		OPT_DOUBLE("threshold", "PCT", &threshold, "and a change of the medians >= PCT % (default 1)"),
		OPT_LONG("window", "N", &window, "points each side of a split tested (default 50)"),
		OPT_LIST("better", "M=DIR", &better, "the metric's direction: lower, higher or none"),
		OPT_STRING("format", "FMT", &format, "text or json (default text)"),
		OPT_STRING("chart", "FILE", &chart_path, "also draw the history to FILE.png, .svg or .pdf"),
		OPT_STRING("title", "T", &title, "chart title"),
		OPT_END,
	};
	const struct cmd_usage u = { "history",
		"--metric M [--bench B] [--config K=V] [--order version|imported|name]\n"
		"       [--pvalue P] [--threshold PCT] [--window N] [--format text|json] [--chart FILE]",
		"Orders variants as a history, pools each variant's runs and marks change points\n"
		"(E-divisive splits decided by Welch's t-test).",
		opts };
	const char **args = NULL;
	size_t nargs = 0, i, ncf = 0, nbt = 0;
	char **cf = NULL, **bv = NULL;
	struct an_kv *kv = NULL;
	struct an_better *bt = NULL;
	struct an_history_opts ho;
	struct an_history h;
	enum render_regress_fmt fmt = RENDER_REGRESS_TEXT;
	struct kb_err err;
	struct db *db = NULL;
	struct chart *c = NULL;
	int rc, status = EXIT_USAGE, built = 0;

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
	if (!metric || !*metric) {
		fprintf(stderr, "kbench history: --metric M is required\n");
		opt_usage(&u, stderr);
		goto done;
	}
	if (render_regress_fmt_parse(format, &fmt) < 0 || fmt == RENDER_REGRESS_JUNIT) {
		fprintf(stderr, "kbench history: --format must be text or json, not '%s'\n", format);
		goto done;
	}
	if (an_order_parse(order, &ho.order) < 0) {
		fprintf(stderr, "kbench history: --order must be version, imported or name, not '%s'\n",
			order);
		goto done;
	}
	if (!(pvalue > 0 && pvalue <= 1) || !(threshold >= 0) || window < 1) {
		fprintf(stderr, "kbench history: --pvalue must lie in (0, 1], --threshold >= 0, --window >= 1\n");
		goto done;
	}
	kv = xcalloc(configs.n + 1, sizeof(*kv));
	for (i = 0; i < configs.n; i++) {
		cf = xrealloc(cf, (ncf + 1) * sizeof(*cf));
		cf[ncf++] = xstrdup(configs.v[i]);
		if (cli_kv_parse(cf[i], &kv[i]) < 0) {
			fprintf(stderr, "kbench history: --config wants K=V, not '%s'\n", configs.v[i]);
			goto done;
		}
	}
	bt = xcalloc(better.n + 1, sizeof(*bt));
	for (i = 0; i < better.n; i++) {
		bv = xrealloc(bv, (nbt + 1) * sizeof(*bv));
		bv[nbt++] = xstrdup(better.v[i]);
		if (cli_better_parse(bv[i], &bt[i]) < 0) {
			fprintf(stderr, "kbench history: --better wants METRIC=lower|higher|none, not '%s'\n",
				better.v[i]);
			goto done;
		}
	}
	ho.metric = metric;
	ho.bench = bench;
	ho.config = kv;
	ho.nconfig = ncf;
	cli_split_commas(&machines, &xv, &nxv);
	ho.machines = (const char *const *)xv;
	ho.nmachines = nxv;
	ho.pvalue = pvalue;
	ho.threshold = threshold;
	ho.window = (size_t)window;
	ho.better = bt;
	ho.nbetter = nbt;

	if (db_open_existing(&db, cli_db_path(dbpath), &err) < 0) {
		cli_report("history", &err);
		goto done;
	}
	{
		struct cli_names nm;

		memset(&nm, 0, sizeof(nm));
		nm.bench = bench && *bench ? bench : NULL;
		nm.machines = (const char *const *)xv;
		nm.nmachines = nxv;
		if (cli_selection_check(db, &nm, &err) < 0) {
			cli_report("history", &err);
			goto done;
		}
	}
	progress_init(&prog, "history", progress_tty(), 1.0);
	progress_start_ticker(&prog);
	progress_step(&prog, "building the series", 0, 0);
	hrc = an_history_build(db, &ho, &h, &err);
	progress_end(&prog);
	if (hrc < 0) {
		cli_report("history", &err);
		goto done;
	}
	built = 1;
	if (!h.nseries) {
		fprintf(stderr, "kbench history: no values of metric '%s' in this selection "
			"(kbench compare%s%s lists the metrics)\n", metric, bench ? " --bench " : "",
			bench ? bench : "");
		goto done;
	}
	if (render_history(stdout, &h, fmt, &err) < 0 || fflush(stdout) != 0) {
		if (!err.msg[0])
			kb_err_set(&err, "", 0, "write error: %s", strerror(errno));
		cli_report("history", &err);
		goto done;
	}
	if (chart_path) {
		c = chart_new(CHART_HISTORY);
		if (render_history_chart(c, &h, title, &err) < 0 ||
		    chart_render_file(c, chart_path, &err) < 0) {
			cli_report("history", &err);
			goto done;
		}
	}
	status = EXIT_OK;
done:
	if (c)
		chart_free(c);
	if (built)
		an_history_release(&h);
	if (db)
		db_close(db);
	free(args);
	free(kv);
	free(bt);
	cli_strings_free(cf, ncf);
	cli_strings_free(bv, nbt);
	strlist_release(&configs);
	strlist_release(&machines);
	cli_strings_free(xv, nxv);
	strlist_release(&better);
	return status;
}
