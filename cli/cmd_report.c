/*
 * cmd_report.c - `kbench report [selection] --format html|text [-o FILE]
 * [--assets DIR]`: a whole report.  Options and wiring: the plan of its
 * sections is analyze/report.h's, the model, its charts and the file
 * render/report_build.h's.
 */
#include "cli.h"
#include "progress.h"
#include "select.h"
#include "../analyze/report.h"
#include "../core/buf.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/placement.h"
#include "../render/report_build.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void describe_selection(struct buf *b, const struct cli_select *s)
{
	size_t i;

	buf_puts(b, s->bench ? s->bench : "every benchmark");
	if (s->nmetric_v) {
		buf_puts(b, "; metrics ");
		for (i = 0; i < s->nmetric_v; i++)
			buf_printf(b, "%s%s", i ? ", " : "", s->metric_v[i]);
	}
	if (s->nvariant_v) {
		buf_puts(b, "; variants ");
		for (i = 0; i < s->nvariant_v; i++)
			buf_printf(b, "%s%s", i ? ", " : "", s->variant_v[i]);
	}
	for (i = 0; i < s->nkv; i++)
		buf_printf(b, "; %s=%s", s->kv[i].key, s->kv[i].value);
	if (s->baseline)
		buf_printf(b, "; baseline %s", s->baseline);
}

/* The builder's events: a status line on a terminal (what NULL: the
 * report goes to the terminal, no more status), findings left out. */
static void on_step(void *ctx, const char *what, size_t i, size_t n)
{
	progress_step(ctx, what ? what : "", i, n);
	if (!what)
		progress_end(ctx);
}

static void on_no_findings(void *ctx, const struct kb_err *why)
{
	progress_end(ctx);      /* (no status line over the message) */
	fprintf(stderr, "kbench report: no findings: %s\n", why->msg);
}

/* The sections planned (--limit, --since: limit 0, since NULL when not
 * given), built and written to out. */
static int make_report(struct db *db, const struct db_list *list, const struct cli_select *sel,
		       const struct an_query *q, struct report_build_opts *bo, long limit,
		       const char *since, const char *out, struct kb_err *err)
{
	struct an_report_plan plan = { 0 };
	struct report_build b;
	struct db_placement pl;
	struct buf desc = BUF_INIT;
	int rc;

	if (cli_placement_load(db, &pl, err) < 0)
		return -1;
	rc = an_report_plan_build(&plan, db, list, q, err);
	if (rc == 0 && (limit || since))
		an_report_plan_narrow(&plan, list, limit, since);
	describe_selection(&desc, sel);
	bo->selection = buf_str(&desc);
	bo->q = q;
	report_build_init(&b, bo);
	if (rc == 0)
		rc = report_build_sections(&b, db, list, &plan, &pl, err);
	if (rc > 0)
		rc = cli_select_empty(err, sel);
	if (rc == 0)
		rc = report_build_write(&b, db, out, err);
	report_build_release(&b);
	an_report_plan_release(&plan);
	db_placement_release(&pl);
	buf_release(&desc);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct progress prog;
	struct cli_select sel;
	const char *format = "html", *out = NULL, *errbar = NULL, *since_arg = NULL;
	int no_findings = 0, no_charts = 0;
	long limit = LONG_MIN;  /* not given (any number given is checked) */
	char since[32];
	struct report_build_opts bo = { 0 };
	const struct opt opts[] = {
		CLI_SELECT_OPTS(&sel),
		OPT_STRING("format", "html|text", &format, "an HTML page (default) or a plain-text mail body"),
		OPT_STRING("output", "FILE", &out, "(-o) write to FILE (default: standard output)"),
		OPT_STRING("assets", "DIR", &bo.assets, "html: write the charts as PNG files into DIR"),
		OPT_STRING("title", "T", &bo.title, "the report's title"),
		OPT_STRING("error", "sd|ci|none", &errbar, "whiskers of the bar charts (default sd)"),
		OPT_FLAG("no-findings", &no_findings, "leave out the regress findings"),
		OPT_STRING("alerts", "auto|on|off", &bo.alerts, "the Alerts section: auto (default: when "
			   "kbench alerts has stored some), on, off"),
		OPT_FLAG("no-charts", &no_charts, "html: tables only"),
		OPT_FLAG("use-flagged", &sel.use_flagged, "test footnoted published cells too"),
		OPT_LONG("limit", "N", &limit, "each section: its N newest variants (import order)"),
		OPT_STRING("since", "WHEN", &since_arg, "each section: the variants first imported at or "
			   "after WHEN (YYYY-MM-DD[THH:MM[:SS]], UTC)"),
		OPT_END,
	};
	const struct cmd_usage u = { "report",
		"[selection] [--baseline V] [--format html|text] [-o FILE] [--assets DIR]",
		"A whole report: findings and verdicts first, then per benchmark its\n"
		"comparison table, charts and (numa_test) job tables; methods last.\n"
		"HTML is one self-contained file unless --assets.  See docs/report.md.", opts };
	struct an_query q;
	struct db_list list;
	struct db *db = NULL;
	struct kb_err err;
	const char **args;
	size_t nargs;
	int rc, have_list = 0, status = EXIT_USAGE;

	cli_select_init(&sel);
	cli_short_output(argc, argv);
	progress_init(&prog, "report", 0, 1.0);
	rc = opt_parse(&u, argc, argv, &args, &nargs);
	if (rc) {
		cli_select_release(&sel);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	free(args);
	kb_err_clear(&err);
	an_query_init(&q);
	bo.html = !strcmp(format, "html");
	if (nargs)
		fprintf(stderr, "kbench report: unexpected argument\n");
	else if (!bo.html && strcmp(format, "text"))
		fprintf(stderr, "kbench report: --format is html or text\n");
	else if (bo.assets && !bo.assets[0])
		fprintf(stderr, "kbench report: --assets needs a directory name\n");
	else if (bo.assets && !bo.html)
		fprintf(stderr, "kbench report: --assets goes with --format html\n");
	else if (limit != LONG_MIN && limit < 1)
		fprintf(stderr, "kbench report: --limit takes a whole number of at least 1\n");
	else if (since_arg && an_report_since_parse(since_arg, since) < 0)
		fprintf(stderr, "kbench report: --since takes a date, YYYY-MM-DD, or "
			"YYYY-MM-DDTHH:MM[:SS] (UTC), not '%s'\n", since_arg);
	else if (chart_model_errbar(errbar, &bo.errbar) < 0)
		fprintf(stderr, "kbench report: --error is sd, ci or none\n");
	else if (cli_select_query(&sel, &q, &err) < 0)
		cli_report("report", &err);
	else
		goto run;
	opt_usage(&u, stderr);
	goto done;
run:
	if (cli_select_open(&sel, &q, &db, &err) < 0 ||
	    cli_select_resolve(&sel, db, &q, &err) < 0 || db_list(db, &list, &err) < 0)
		goto fail;
	have_list = 1;
	/* A status line on a terminal once this takes more than a second. */
	prog.on = progress_tty();
	progress_start_ticker(&prog);
	bo.charts = bo.html && !no_charts;
	bo.findings = !no_findings;
	bo.ev = (struct report_build_events){ on_step, on_no_findings, &prog };
	if (make_report(db, &list, &sel, &q, &bo, limit == LONG_MIN ? 0 : limit,
			since_arg ? since : NULL, out, &err) < 0)
		goto fail;
	status = EXIT_OK;
	goto done;
fail:
	progress_end(&prog);
	cli_report("report", &err);
	status = EXIT_USAGE;
done:
	progress_end(&prog);
	if (have_list)
		db_list_release(&list);
	if (db)
		db_close(db);
	cli_select_release(&sel);
	return status;
}
