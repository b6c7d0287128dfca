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

#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_regress(int argc, char **argv)
{
	struct progress prog;
	const char *dbpath = NULL, *baseline = NULL, *bench = NULL, *format = "text";
	const char *test = "welch", *change = "raw", *output = NULL, *color = NULL;
	struct strlist cand = { 0 }, metrics = { 0 }, configs = { 0 }, better = { 0 }, machines = { 0 };
	double threshold = 1.0, alpha = 0.05, split_below = 90.0, share_min = 10.0;
	long cpus_per_node = 4;
	int strict = 0, verbose = 0, no_placement = 0, no_performance = 0, no_derived = 0;
	int own_verdicts = 0, across_machines = 0;
	int use_flagged = 0;
	const struct opt opts[] = {
		OPT_STRING("db", "PATH", &dbpath, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_STRING("baseline", "V", &baseline, "the variant to compare against (required)"),
		OPT_LIST("candidate", "V[,V]", &cand, "candidates (default: every other variant)"),
		OPT_STRING("bench", "NAME", &bench, "one benchmark (default: all)"),
		OPT_LIST("machine", "NAME[,NAME]", &machines,
			 "only runs on these machines ('unknown': not known; default: each machine on its own)"),
		OPT_LIST("metric", "M[,M]", &metrics, "these metrics only (default: all)"),
		OPT_LIST("config", "K=V", &configs, "only configurations with K=V (repeatable)"),
		OPT_DOUBLE("threshold", "PCT", &threshold, "smallest change that matters, % (default 1)"),
		OPT_DOUBLE("alpha", "A", &alpha, "significance level for BH q (default 0.05)"),
		OPT_STRING("test", "welch|mwu", &test, "the test behind p (default welch)"),
		OPT_STRING("change", "raw|speed|better", &change, "how a change is expressed (default raw)"),
		OPT_LIST("better", "M=DIR", &better,
			 "a metric's direction: lower, higher or none (counters are none: changed, not worse)"),
		OPT_FLAG("no-derived", &no_derived, "skip metrics kbench derives (moved_pct, ...)"),
		OPT_FLAG("use-flagged", &use_flagged, "test footnoted published cells too"),
		OPT_LONG("cpus-per-node", "N", &cpus_per_node,
			 "placement: light load is tasks <= nodes x N (default 4)"),
		OPT_DOUBLE("split-below", "PCT", &split_below,
			   "placement: a job is split when its largest node share is below PCT (default 90)"),
		OPT_DOUBLE("share-min", "POINTS", &share_min,
			   "placement: smallest rise in moved/split jobs that matters (default 10 points)"),
		OPT_FLAG("no-placement", &no_placement, "skip the numa placement checks"),
		OPT_FLAG("own-verdicts", &own_verdicts,
			 "never take a published table's own '*' where kbench cannot test"),
		OPT_FLAG("no-performance", &no_performance, "placement checks only"),
		OPT_FLAG("across-machines", &across_machines,
			 "compare a candidate with no run on the baseline's machines, with a warning"),
		OPT_FLAG("strict", &strict, "exit 3 when nothing regressed but something is inconclusive"),
		OPT_STRING("format", "text|json|junit", &format, "text, json or junit (default text)"),
		OPT_STRING("color", "auto|always|never", &color,
			   "text: verdicts in colour on a terminal (auto, default; off with $NO_COLOR or TERM=dumb)"),
		OPT_STRING("output", "FILE", &output, "(-o) write to FILE instead of standard output"),
		OPT_FLAG("verbose", &verbose, "text: evidence of every finding, and the same ones"),
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
	size_t nargs = 0, i, ncv = 0, nmv = 0, ncf = 0, nbv = 0, nxv = 0;
	char **cv = NULL, **mv = NULL, **cf = NULL, **bv = NULL, **xv = NULL;
	struct an_kv *kv = NULL;
	struct an_better *bt = NULL;
	struct an_regress_opts ro;
	struct an_regress r;
	struct render_regress_opts rr;
	struct kb_err err;
	struct db *db = NULL;
	FILE *out = stdout;
	struct outfile of;
	int have_of = 0;
	int rc, status = EXIT_USAGE, built = 0;

	progress_init(&prog, "regress", 0, 1.0);
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
	memset(&rr, 0, sizeof(rr));
	rr.verbose = verbose;
	if (!baseline || !*baseline) {
		fprintf(stderr, "kbench regress: --baseline V is required\n");
		opt_usage(&u, stderr);
		goto done;
	}
	if (render_regress_fmt_parse(format, &rr.fmt) < 0) {
		fprintf(stderr, "kbench regress: --format must be text, json or junit, not '%s'\n", format);
		goto done;
	}
	if (an_test_parse(test, &ro.q.test) < 0) {
		fprintf(stderr, "kbench regress: --test must be welch or mwu, not '%s'\n", test);
		goto done;
	}
	if (an_convention_parse(change, &ro.q.conv) < 0) {
		fprintf(stderr, "kbench regress: --change must be raw, speed or better, not '%s'\n", change);
		goto done;
	}
	if (!(threshold >= 0) || !(alpha > 0 && alpha < 1)) {
		fprintf(stderr, "kbench regress: --threshold must be >= 0 and --alpha in (0, 1)\n");
		goto done;
	}
	if (cpus_per_node < 1 || cpus_per_node > 1000000) {
		fprintf(stderr, "kbench regress: --cpus-per-node must be a positive count\n");
		goto done;
	}
	if (!(split_below > 0 && split_below <= 100) || !(share_min >= 0 && share_min <= 100)) {
		fprintf(stderr, "kbench regress: --split-below must lie in (0, 100] and --share-min in [0, 100]\n");
		goto done;
	}
	if (no_placement && no_performance) {
		fprintf(stderr, "kbench regress: --no-placement and --no-performance leave nothing to check\n");
		goto done;
	}
	cli_split_commas(&cand, &cv, &ncv);
	cli_split_commas(&metrics, &mv, &nmv);
	cli_split_commas(&better, &bv, &nbv);
	cli_split_commas(&machines, &xv, &nxv);
	for (i = 0; i < configs.n; i++) {
		cf = xrealloc(cf, (ncf + 1) * sizeof(*cf));
		cf[ncf++] = xstrdup(configs.v[i]);
	}
	kv = xcalloc(ncf + 1, sizeof(*kv));
	for (i = 0; i < ncf; i++) {
		if (cli_kv_parse(cf[i], &kv[i]) < 0) {
			fprintf(stderr, "kbench regress: --config wants K=V, not '%s'\n", cf[i]);
			goto done;
		}
	}
	bt = xcalloc(nbv + 1, sizeof(*bt));
	for (i = 0; i < nbv; i++) {
		if (cli_better_parse(bv[i], &bt[i]) < 0) {
			fprintf(stderr, "kbench regress: --better wants METRIC=lower|higher|none, not '%s'\n",
				bv[i]);
			goto done;
		}
	}
	ro.q.bench = bench;
	ro.q.metrics = (const char *const *)mv;
	ro.q.nmetrics = nmv;
	ro.q.machines = (const char *const *)xv;
	ro.q.nmachines = nxv;
	ro.q.config = kv;
	ro.q.nconfig = ncf;
	ro.q.baseline = baseline;
	ro.q.threshold = threshold;
	ro.q.alpha = alpha;
	ro.q.better = bt;
	ro.q.nbetter = nbv;
	ro.q.no_derived = no_derived;
	ro.q.use_flagged = use_flagged;
	ro.candidates = (const char *const *)cv;
	ro.ncandidates = ncv;
	ro.no_placement = no_placement;
	ro.own_verdicts = own_verdicts;
	ro.across_machines = across_machines;
	ro.no_performance = no_performance;
	ro.placement.cpus_per_node = (int)cpus_per_node;
	ro.placement.split_below = split_below;
	ro.placement.share_min = share_min;
	ro.placement.alpha = alpha;

	if (db_open_existing(&db, cli_db_path(dbpath), &err) < 0) {
		cli_report("regress", &err);
		goto done;
	}
	{
		struct cli_names nm;

		memset(&nm, 0, sizeof(nm));
		nm.bench = bench && *bench ? bench : NULL;
		nm.baseline = baseline;
		nm.variants = (const char *const *)cv;
		nm.nvariants = ncv;
		nm.machines = (const char *const *)xv;
		nm.nmachines = nxv;
		if (cli_selection_check(db, &nm, &err) < 0) {
			cli_report("regress", &err);
			goto done;
		}
	}
	prog.on = progress_tty();
	progress_start_ticker(&prog);
	progress_step(&prog, "comparing", 0, 0);
	rc = an_regress_build(db, &ro, &r, &err);
	progress_end(&prog);
	if (rc < 0) {
		cli_report("regress", &err);
		goto done;
	}
	built = 1;
	if (r.nfindings == 0) {
		fprintf(stderr, "kbench regress: nothing to compare with baseline '%s' in this selection\n",
			baseline);
		goto done;
	}
	if (output) {
		if (outfile_open(&of, output, &err) < 0) {
			cli_report("regress", &err);
			goto done;
		}
		have_of = 1;
		outfile_text(&of);      /* no control characters; colours made ESC */
		out = of.f;
	}
	if (cli_color("regress", color, out, &rr.color) < 0)
		goto done;
	if (render_regress(out, &r, &rr, &err) < 0 || fflush(out) != 0) {
		if (!err.msg[0] || !err.file[0])
			kb_err_set(&err, output ? output : "", 0, "write error: %s", strerror(errno));
		cli_report("regress", &err);
		goto done;
	}
	if (have_of) {
		have_of = 0;
		if (outfile_commit(&of, &err) < 0) {
			cli_report("regress", &err);
			goto done;
		}
	}
	if (r.nworse)
		status = EXIT_REGRESSION;
	else if (strict && r.ninconclusive)
		status = EXIT_INCONCLUSIVE;
	else
		status = EXIT_OK;
done:
	if (have_of)
		outfile_abort(&of);
	if (built)
		an_regress_release(&r);
	if (db)
		db_close(db);
	free(args);
	free(kv);
	free(bt);
	cli_strings_free(cv, ncv);
	cli_strings_free(mv, nmv);
	cli_strings_free(cf, ncf);
	cli_strings_free(bv, nbv);
	cli_strings_free(xv, nxv);
	strlist_release(&machines);
	strlist_release(&cand);
	strlist_release(&metrics);
	strlist_release(&configs);
	strlist_release(&better);
	return status;
}
