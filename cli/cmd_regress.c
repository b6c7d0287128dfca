/*
 * cmd_regress.c - kbench regress: verdicts against a baseline, exit status
 * for CI scripts (0 no regression, 1 regression, 2 error, 3 inconclusive
 * under --strict).  See docs/regress.md.
 */
#include "cli.h"
#include "progress.h"

#include "../analyze/regress.h"
#include "../core/outfile.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../render/regress.h"
#include "select.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Regress's own options, beside the selection's. */
struct regress_args {
	const char *format, *output, *color;
	double split_below, share_min;
	long cpus_per_node;
	int strict, verbose, no_placement, no_performance, own_verdicts, across_machines;
};

/* What the output writer needs. */
struct regress_out {
	const struct an_regress *r;
	struct render_regress_opts rr;
	const char *color;
};

/* The selection, the placement options and regress's own into ro and rr
 * (ro an_regress_opts_init()'d: its query holds regress's defaults).
 * -1 after a message. */
static int regress_setup(struct cli_select *sel, const struct regress_args *a,
			 struct an_regress_opts *ro, struct render_regress_opts *rr)
{
	struct an_query dflt = ro->q;
	struct kb_err err;
	int on;

	kb_err_clear(&err);
	if (cli_select_to_query(sel, &dflt, CLI_SELECT_KEEP_EMPTY, &ro->q, &err) < 0) {
		cli_report("regress", &err);
		return -1;
	}
	if (render_regress_fmt_parse(a->format, &rr->fmt) < 0) {
		fprintf(stderr, "kbench regress: --format must be text, json or junit, not '%s'\n", a->format);
		return -1;
	}
	if (cli_color("regress", a->color, stdout, &on) < 0)
		return -1;
	if (a->cpus_per_node != -1 && (a->cpus_per_node < 1 || a->cpus_per_node > 1000000)) {
		fprintf(stderr, "kbench regress: --cpus-per-node must be a positive count\n");
		return -1;
	}
	if (!(a->split_below > 0 && a->split_below <= 100) || !(a->share_min >= 0 && a->share_min <= 100)) {
		fprintf(stderr, "kbench regress: --split-below must lie in (0, 100] and --share-min in [0, 100]\n");
		return -1;
	}
	if (a->no_placement && a->no_performance) {
		fprintf(stderr, "kbench regress: --no-placement and --no-performance leave nothing to check\n");
		return -1;
	}
	rr->verbose = a->verbose;
	ro->candidates = ro->q.variants;
	ro->ncandidates = ro->q.nvariants;
	ro->q.variants = NULL;
	ro->q.nvariants = 0;
	ro->no_placement = a->no_placement;
	ro->own_verdicts = a->own_verdicts;
	ro->across_machines = a->across_machines;
	ro->no_performance = a->no_performance;
	/* not given: the machine's CPUs per node where the store knows them, else 4 */
	ro->placement.cpus_per_node = a->cpus_per_node == -1 ? 4 : (int)a->cpus_per_node;
	ro->placement.cpus_per_node_given = a->cpus_per_node != -1;
	ro->placement.split_below = a->split_below;
	ro->placement.share_min = a->share_min;
	ro->placement.alpha = ro->q.alpha;
	return 0;
}

/* Open the store, check the selection's names and build the findings. */
static int regress_build(struct db **db, struct cli_select *sel, const struct an_regress_opts *ro,
			 struct an_regress *r, struct kb_err *err)
{
	struct progress prog;
	int rc;

	if (cli_select_open(sel, NULL, db, err) < 0)
		return -1;
	progress_init(&prog, "regress", progress_tty(), 1.0);
	progress_start_ticker(&prog);
	progress_step(&prog, "comparing", 0, 0);
	rc = an_regress_build(*db, ro, r, err);
	progress_end(&prog);
	return rc;
}

static int write_regress(FILE *f, void *ctx, struct kb_err *err)
{
	struct regress_out *w = ctx;

	if (cli_color("regress", w->color, f, &w->rr.color) < 0)
		return -1;
	return render_regress(f, w->r, &w->rr, err);
}

/* The findings to -o FILE (through the one safe writer, as text: no
 * control characters) or to standard output. */
static int regress_print(const char *output, struct regress_out *w, struct kb_err *err)
{
	if (output)
		return outfile_write(output, OUTFILE_TEXT, write_regress, w, err);
	if (write_regress(stdout, w, err) < 0 || fflush(stdout) != 0) {
		if (!err->msg[0] || !err->file[0])
			kb_err_set(err, "", 0, "write error: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int cmd_regress(int argc, char **argv)
{
	struct regress_args a = { .format = "text", .split_below = 90.0, .share_min = 10.0,
				  .cpus_per_node = -1 };
	struct cli_select sel;
	const struct opt opts[] = {
		CLI_OPT_DB(&sel),
		CLI_OPT_BASELINE_REQUIRED(&sel),
		CLI_OPT_CANDIDATE(&sel),
		CLI_OPT_BENCH(&sel),
		CLI_OPT_MACHINE(&sel),
		CLI_OPT_METRIC(&sel),
		CLI_OPT_CONFIG(&sel),
		CLI_OPT_THRESHOLD(&sel),
		CLI_OPT_ALPHA(&sel),
		CLI_OPT_TEST(&sel),
		CLI_OPT_CHANGE(&sel),
		CLI_OPT_BETTER(&sel),
		CLI_OPT_NO_DERIVED(&sel),
		CLI_OPT_USE_FLAGGED(&sel),
		OPT_LONG("cpus-per-node", "N", &a.cpus_per_node,
			 "placement: light load is tasks <= nodes x N (default: the machine's, else 4)"),
		OPT_DOUBLE("split-below", "PCT", &a.split_below,
			   "placement: a job is split when its largest node share is below PCT (default 90)"),
		OPT_DOUBLE("share-min", "POINTS", &a.share_min,
			   "placement: smallest rise in moved/split jobs that matters (default 10 points)"),
		OPT_FLAG("no-placement", &a.no_placement, "skip the numa placement checks"),
		OPT_FLAG("own-verdicts", &a.own_verdicts,
			 "never take a published table's own '*' where kbench cannot test"),
		OPT_FLAG("no-performance", &a.no_performance, "placement checks only"),
		OPT_FLAG("across-machines", &a.across_machines,
			 "compare a candidate with no run on the baseline's machines, with a warning"),
		OPT_FLAG("strict", &a.strict, "exit 3 when nothing regressed but something is inconclusive"),
		OPT_STRING("format", "text|json|junit", &a.format, "text, json or junit (default text)"),
		OPT_STRING("color", "auto|always|never", &a.color,
			   "text: verdicts in colour on a terminal (auto, default; off with $NO_COLOR or TERM=dumb)"),
		OPT_STRING("output", "FILE", &a.output, "(-o) write to FILE instead of standard output"),
		OPT_FLAG("verbose", &a.verbose, "text: evidence of every finding, and the same ones"),
		OPT_END,
	};
	const struct cmd_usage u = { "regress",
		"--baseline V [--candidate V,...] [--bench B] [--metric M] [--config K=V]\n"
		"       [--threshold P] [--alpha A] [--test welch|mwu] [--change raw|speed|better]\n"
		"       [--better M=DIR] [--cpus-per-node N] [--across-machines] [--strict]\n"
		"       [--format text|json|junit]",
		"Lists regressions (worse) first, then better, changed and inconclusive comparisons;\n"
		"exit status 0 no regression, 1 regression, 2 error, 3 inconclusive under --strict.\n"
		"A candidate is compared on the machines it shares with the baseline; one that\n"
		"shares none is an error (2) unless --across-machines.",
		opts };
	const char **args = NULL;
	size_t nargs = 0;
	struct an_regress_opts ro;
	struct an_regress r;
	struct regress_out w;
	struct kb_err err;
	struct db *db = NULL;
	int rc, status = EXIT_USAGE, built = 0;

	cli_select_init(&sel);
	cli_short_output(argc, argv);
	rc = opt_parse(&u, argc, argv, &args, &nargs);
	if (rc) {
		status = rc > 0 ? EXIT_OK : EXIT_USAGE;
		goto done;
	}
	if (nargs) {
		fprintf(stderr, "kbench regress: unexpected argument '%s'\n", args[0]);
		goto done;
	}
	kb_err_clear(&err);
	an_regress_opts_init(&ro);
	memset(&w, 0, sizeof(w));
	if (!sel.baseline || !*sel.baseline) {
		fprintf(stderr, "kbench regress: --baseline V is required\n");
		opt_usage(&u, stderr);
		goto done;
	}
	if (regress_setup(&sel, &a, &ro, &w.rr) < 0)
		goto done;
	rc = regress_build(&db, &sel, &ro, &r, &err);
	if (rc < 0) {
		cli_report("regress", &err);
		goto done;
	}
	built = 1;
	if (r.nfindings == 0) {
		fprintf(stderr, "kbench regress: nothing to compare with baseline '%s' in this selection\n",
			sel.baseline);
		goto done;
	}
	w.r = &r;
	w.color = a.color;
	if (regress_print(a.output, &w, &err) < 0) {
		cli_report("regress", &err);
		goto done;
	}
	if (r.nworse)
		status = EXIT_REGRESSION;
	else if (a.strict && r.ninconclusive)
		status = EXIT_INCONCLUSIVE;
	else
		status = EXIT_OK;
done:
	if (built)
		an_regress_release(&r);
	if (db)
		db_close(db);
	free(args);
	cli_select_release(&sel);
	return status;
}
