/*
 * cmd_compare.c - `kbench compare`: variants side by side with
 * descriptive statistics, changes against a baseline and verdicts.
 * `kbench export --what compare` goes through cli_compare() too.
 */
#include "cli.h"
#include "../analyze/compare.h"
#include "../analyze/qload.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/query.h"
#include "../render/table.h"
#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_compare(const char *verb, int argc, char **argv, const char *fixed_what)
{
	const char *rows = NULL, *cols = NULL, *format = NULL, *what = NULL, *color = NULL;
	int is_export = fixed_what != NULL;
	struct cli_select sel;
	const struct opt compare_opts[] = {
		OPT_STRING("db", "PATH", &sel.db, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_STRING("bench", "B", &sel.bench, "only benchmark B (numa_test, hackbench, ...)"),
		OPT_LIST("metric", "M,...", &sel.metric, "only these metrics, in this order"),
		OPT_LIST("config", "K=V,...", &sel.config,
			 "only configs with K=V (same key repeated: any of the values)"),
		OPT_LIST("variants", "V,...", &sel.variants, "only these variants, in this order"),
		OPT_LIST("machine", "NAME,...", &sel.machine,
			 "only runs on these machines ('unknown': not known)"),
		OPT_STRING("baseline", "V", &sel.baseline,
			   "compare against V (default: the first variant, by import order)"),
		OPT_STRING("rows", "DIM", &rows, "text/md rows: config (default), metric or variant"),
		OPT_STRING("cols", "DIM", &cols, "text/md columns: variant (default), config or metric"),
		OPT_STRING("change", "CONV", &sel.change,
			   "raw (new-base)/base, speed base/new-1 for lower-is-better, better (+ = improvement)"),
		OPT_STRING("test", "T", &sel.test, "welch (default, on logs) or mwu (exact Mann-Whitney)"),
		OPT_DOUBLE("threshold", "P", &sel.threshold, "smallest change that matters, percent (default 1)"),
		OPT_DOUBLE("alpha", "A", &sel.alpha, "significance level for BH q-values (default 0.05)"),
		OPT_LIST("better", "M=DIR", &sel.better, "override a metric's direction: higher, lower or none"),
		OPT_FLAG("no-derived", &sel.no_derived, "skip derived metrics (E-H, user_moved, ...)"),
		OPT_FLAG("use-flagged", &sel.use_flagged, "test footnoted published cells too"),
		OPT_STRING("format", "text|md|csv|json", &format, "text (default), md, csv or json"),
		OPT_STRING("color", "auto|always|never", &color,
			   "text: verdict marks in colour on a terminal (auto, default; off with $NO_COLOR or TERM=dumb)"),
		OPT_END,
	};
	const struct opt export_opts[] = {
		OPT_STRING("what", "W", &what, "samples, summary or compare (default samples)"),
		OPT_STRING("db", "PATH", &sel.db, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_STRING("bench", "B", &sel.bench, "only benchmark B"),
		OPT_STRING("format", "csv|json", &format, "csv (default) or json"),
		OPT_LIST("metric", "M,...", &sel.metric, "only these metrics"),
		OPT_LIST("config", "K=V,...", &sel.config, "only configs with K=V"),
		OPT_LIST("variants", "V,...", &sel.variants, "only these variants"),
		OPT_LIST("machine", "NAME,...", &sel.machine, "only these machines ('unknown': not known)"),
		OPT_STRING("baseline", "V", &sel.baseline, "compare: baseline (default the first variant)"),
		OPT_STRING("change", "CONV", &sel.change, "compare: raw, speed or better"),
		OPT_STRING("test", "T", &sel.test, "compare: welch or mwu"),
		OPT_DOUBLE("threshold", "P", &sel.threshold, "compare: threshold percent (default 1)"),
		OPT_DOUBLE("alpha", "A", &sel.alpha, "compare: alpha (default 0.05)"),
		OPT_LIST("better", "M=DIR", &sel.better, "compare: override a metric's direction"),
		OPT_FLAG("no-derived", &sel.no_derived, "compare: skip derived metrics"),
		OPT_END,
	};
	const struct cmd_usage u_compare = { "compare",
		"[--bench B] [--metric M,...] [--config K=V,...] [--variants V,...] [--baseline V]\n"
		"       [--change raw|speed|better] [--test welch|mwu] [--threshold P] [--alpha A]\n"
		"       [--better M=DIR] [--rows DIM] [--cols DIM] [--format text|md|csv|json]",
		"Compares variants per (benchmark, config, metric) against a baseline, with\n"
		"mean(sd), change, 95% interval, BH q-value and a verdict (see docs/compare.md).",
		compare_opts };
	const struct cmd_usage u_export = { "export",
		"[--what samples|summary|compare] [--bench B] [--format csv|json] [compare options]",
		"Writes stored samples, published summaries or a comparison as CSV or JSON.",
		export_opts };
	const char **args = NULL;
	size_t nargs = 0;
	struct an_query q;
	struct an_table t;
	struct render_table_opts ro;
	struct kb_err err;
	struct db *db = NULL;
	int rc, status = EXIT_USAGE;

	(void)fixed_what;
	cli_select_init(&sel);
	sel.change = "raw";
	sel.test = "welch";
	sel.threshold = 1.0;
	sel.alpha = 0.05;
	rc = opt_parse(is_export ? &u_export : &u_compare, argc, argv, &args, &nargs);
	if (rc) {
		status = rc > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (nargs) {
		fprintf(stderr, "kbench %s: unexpected argument '%s'\n", verb, args[0]);
		goto out;
	}
	kb_err_clear(&err);
	an_query_init(&q);
	render_table_opts_init(&ro);
	if (is_export) {
		if (!what)
			what = "samples";
		if (strcmp(what, "summaries") == 0)
			what = "summary";
		if (strcmp(what, "samples") && strcmp(what, "summary") && strcmp(what, "compare")) {
			fprintf(stderr, "kbench export: --what must be samples, summary or compare\n");
			goto out;
		}
		ro.fmt = RENDER_CSV;
	}
	if (format && render_fmt_parse(format, &ro.fmt) < 0) {
		fprintf(stderr, "kbench %s: unknown format '%s' (text, md, csv, json)\n", verb, format);
		goto out;
	}
	if (is_export && ro.fmt != RENDER_CSV && ro.fmt != RENDER_JSON) {
		fprintf(stderr, "kbench export: --format must be csv or json\n");
		goto out;
	}
	if (an_convention_parse(sel.change, &q.conv) < 0) {
		fprintf(stderr, "kbench %s: --change must be raw, speed or better\n", verb);
		goto out;
	}
	if (an_test_parse(sel.test, &q.test) < 0) {
		fprintf(stderr, "kbench %s: --test must be welch or mwu\n", verb);
		goto out;
	}
	if (!(sel.threshold >= 0) || !(sel.alpha > 0 && sel.alpha < 1)) {
		fprintf(stderr, "kbench %s: --threshold must be >= 0 and --alpha in (0, 1)\n", verb);
		goto out;
	}
	if (cli_color(verb, color, stdout, &ro.color) < 0)
		goto out;
	if ((rows && render_dim_parse(rows, &ro.rows) < 0) ||
	    (cols && render_dim_parse(cols, &ro.cols) < 0)) {
		fprintf(stderr, "kbench %s: --rows/--cols take config, metric or variant\n", verb);
		goto out;
	}
	/* Naming only one side of the pivot implies the other. */
	if (rows && !cols && ro.rows == RENDER_DIM_VARIANT)
		ro.cols = RENDER_DIM_CONFIG;
	if (cols && !rows && ro.cols != RENDER_DIM_VARIANT)
		ro.rows = RENDER_DIM_VARIANT;
	if (rows && !cols && ro.rows == RENDER_DIM_METRIC)
		ro.cols = RENDER_DIM_VARIANT;
	if ((ro.rows == RENDER_DIM_VARIANT) == (ro.cols == RENDER_DIM_VARIANT) ||
	    ro.rows == ro.cols) {
		fprintf(stderr, "kbench %s: one of --rows/--cols must be 'variant', the other config or metric\n",
			verb);
		goto out;
	}
	/* Unlike chart and report, an empty --bench or --baseline is kept. */
	q.bench = sel.bench;
	q.baseline = sel.baseline;
	q.threshold = sel.threshold;
	q.alpha = sel.alpha;
	q.no_derived = sel.no_derived;
	q.use_flagged = sel.use_flagged;
	if (cli_select_lists(&sel, &q, &err) < 0) {
		cli_report(verb, &err);
		goto out;
	}

	if (db_open_existing(&db, cli_db_path(sel.db), &err) < 0) {
		cli_report(verb, &err);
		goto out;
	}
	{
		struct cli_names nm;

		cli_select_rejoin(&sel, &q, db);
		cli_select_names(&sel, &nm);
		if (cli_selection_check(db, &nm, &err) < 0) {
			cli_report(verb, &err);
			goto out;
		}
	}
	if (is_export && strcmp(what, "compare") != 0) {
		struct db_qdata d;

		int samples = strcmp(what, "samples") == 0;

		if (an_query_load_exact(db, &q, &d, &err) < 0) {
			cli_report(verb, &err);
			goto out;
		}
		/* A selection that matches nothing is an error, as in compare;
		 * a store with nothing of the kind exports the header alone. */
		if (!(samples ? d.nsamples : d.nsummaries) &&
		    (sel.bench || q.nmetrics || q.nconfig || q.nvariants || q.nmachines)) {
			db_qdata_release(&d);
			cli_select_empty(&err, &sel);
			cli_report(verb, &err);
			goto out;
		}
		rc = samples ? render_samples(stdout, &d, ro.fmt, &err)
						  : render_summaries(stdout, &d, ro.fmt, &err);
		db_qdata_release(&d);
		if (rc < 0 || fflush(stdout) != 0) {
			cli_report(verb, &err);
			goto out;
		}
		status = EXIT_OK;
		goto out;
	}
	if (an_compare_build(db, &q, &t, &err) < 0) {
		cli_report(verb, &err);
		goto out;
	}
	if (!t.nrows) {
		cli_select_empty(&err, &sel);
		cli_report(verb, &err);
		an_table_release(&t);
		goto out;
	}
	rc = render_table(stdout, &t, &ro, &err);
	an_table_release(&t);
	if (rc < 0 || fflush(stdout) != 0) {
		if (rc >= 0)
			kb_err_set(&err, "", 0, "write error");
		cli_report(verb, &err);
		goto out;
	}
	status = EXIT_OK;
out:
	if (db)
		db_close(db);
	cli_select_release(&sel);
	free(args);
	return status;
}

int cmd_compare(int argc, char **argv)
{
	return cli_compare("compare", argc, argv, NULL);
}
