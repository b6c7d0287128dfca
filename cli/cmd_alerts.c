/*
 * cmd_alerts.c - kbench alerts: a lab's change points along its commits,
 * one summary per suspect commit range, stored and triaged
 * (analyze/alerts.h, render/alerts.h, docs/alerts.md).
 *
 *   kbench alerts [selection] [--new | --all] [--git DIR] [--format text|json]
 *   kbench alerts ack ID [--note TEXT]
 *   kbench alerts invalid ID [--note TEXT]
 *   kbench alerts fixed ID --by COMMIT [--note TEXT]
 *
 * Exit status: 1 when a summary shown is untriaged (state new) and holds
 * a regression, 0 otherwise, 2 on error.
 */
#include "cli.h"
#include "git.h"
#include "progress.h"

#include "../analyze/alerts.h"
#include "../core/outfile.h"
#include "../core/util.h"
#include "../db/alert.h"
#include "../db/db.h"
#include "../render/alerts.h"
#include "select.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct alerts_args {
	const char *format, *output, *git, *note, *by;
	double pvalue;
	long window, near, min_points;
	int only_new, all;
};

struct alerts_out {
	const struct an_alerts *a;
	struct render_alerts_opts ro;
};

static int write_alerts(FILE *f, void *ctx, struct kb_err *err)
{
	struct alerts_out *w = ctx;
	return render_alerts(f, w->a, &w->ro, err);
}

/* The store, open for writing: alerts records what it found.  A SQLite
 * file must exist (an alerts run never makes an empty store). */
static int alerts_open(const char *spec, struct db **db, struct kb_err *err)
{
	if (!db_is_server(spec) && access(spec, F_OK) != 0)
		return kb_err_set(err, spec, 0, "no store here (kbench import makes one)");
	return db_open(db, spec, err);
}

/* ack / invalid / fixed ID. */
static int alerts_triage(const char *verb, const char *id_text, const struct alerts_args *a,
			 const char *dbspec)
{
	const char *state = strcmp(verb, "ack") == 0 ? "acknowledged" : verb;
	struct kb_err err;
	struct db *db = NULL;
	char *end;
	long long id;

	kb_err_clear(&err);
	errno = 0;
	id = strtoll(id_text, &end, 10);
	if (errno || end == id_text || *end || id < 1) {
		fprintf(stderr, "kbench alerts %s: the summary ID is a positive number, not '%s'\n",
			verb, id_text);
		return EXIT_USAGE;
	}
	if (strcmp(verb, "fixed") == 0 && (!a->by || !*a->by)) {
		fprintf(stderr, "kbench alerts fixed: --by COMMIT (the fix) is required\n");
		return EXIT_USAGE;
	}
	if (strcmp(verb, "fixed") != 0 && a->by) {
		fprintf(stderr, "kbench alerts %s: --by goes with fixed only\n", verb);
		return EXIT_USAGE;
	}
	if (alerts_open(dbspec, &db, &err) < 0 ||
	    db_alert_set_state(db, id, state, a->note, a->by, &err) < 0) {
		cli_report("alerts", &err);
		if (db)
			db_close(db);
		return EXIT_USAGE;
	}
	db_close(db);
	printf("alert summary %lld: %s\n", id, state);
	return EXIT_OK;
}

/* Which summaries to show: untriaged ones; --new: only those no earlier
 * run reported; --all: every one.  Sets *regress when a shown one is
 * untriaged and holds a regression. */
static char *alerts_show(const struct an_alerts *al, const struct alerts_args *a, int *regress)
{
	char *show = xcalloc(al->nsummaries + 1, 1);
	size_t i;

	*regress = 0;
	for (i = 0; i < al->nsummaries; i++) {
		const struct an_alert_summary *sm = &al->summaries[i];

		if (a->all)
			show[i] = 1;
		else if (a->only_new)
			show[i] = sm->is_new && sm->state == AN_ALERT_NEW;
		else
			show[i] = sm->state == AN_ALERT_NEW;
		if (show[i] && sm->state == AN_ALERT_NEW && sm->worse)
			*regress = 1;
	}
	return show;
}

/* Options into ao (its query q) and ro, the --git history into glog.
 * -1 after a message. */
static int alerts_setup(const struct alerts_args *a, struct cli_select *sel, struct an_query *q,
			struct an_alerts_opts *ao, struct render_alerts_opts *ro,
			struct cli_git_log *glog)
{
	struct an_query dflt;
	struct kb_err err;

	kb_err_clear(&err);
	if (a->note || a->by) {
		fprintf(stderr, "kbench alerts: --note and --by go with ack, invalid or fixed ID\n");
		return -1;
	}
	if (a->only_new && a->all) {
		fprintf(stderr, "kbench alerts: --new and --all do not go together\n");
		return -1;
	}
	if (render_alerts_fmt_parse(a->format, &ro->fmt) < 0) {
		fprintf(stderr, "kbench alerts: --format must be text or json, not '%s'\n", a->format);
		return -1;
	}
	if (!(a->pvalue > 0 && a->pvalue <= 1) || a->window < 1 || a->near < 0 || a->min_points < 1) {
		fprintf(stderr, "kbench alerts: --pvalue must lie in (0, 1], --window >= 1, --near >= 0, "
			"--min-points >= 1\n");
		return -1;
	}
	an_query_init(&dflt);
	if (cli_select_to_query(sel, &dflt, CLI_SELECT_KEEP_EMPTY, q, &err) < 0) {
		cli_report("alerts", &err);
		return -1;
	}
	an_alerts_opts_init(ao);
	ao->q = q;
	ao->alpha = q->alpha;
	ao->pvalue = a->pvalue;
	ao->window = (size_t)a->window;
	ao->near = (size_t)a->near;
	ao->min_points = (size_t)a->min_points;
	if (!a->git)
		return 0;
	if (cli_git_first_parent(a->git, glog, &err) < 0) {
		cli_report("alerts", &err);
		return -1;
	}
	ao->order = (const char *const *)glog->commits;
	ao->norder = glog->n;
	ro->commits = (const char *const *)glog->commits;
	ro->subjects = (const char *const *)glog->subjects;
	ro->ncommits = glog->n;
	ro->git_dir = a->git;
	return 0;
}

/* Open the store, check the selection's names, find the alerts and store
 * them.  *built says whether al is to be released. */
static int alerts_find(struct cli_select *sel, const struct an_alerts_opts *ao, struct db **db,
		       struct an_alerts *al, int *built, struct kb_err *err)
{
	struct cli_names nm;
	struct progress prog;
	int rc;

	if (alerts_open(cli_db_path(sel->db), db, err) < 0)
		return -1;
	cli_select_names(sel, &nm);
	if (cli_selection_check(*db, &nm, err) < 0)
		return -1;
	progress_init(&prog, "alerts", progress_tty(), 1.0);
	progress_start_ticker(&prog);
	progress_step(&prog, "finding change points", 0, 0);
	rc = an_alerts_build(*db, ao, al, err);
	if (rc == 0) {
		*built = 1;
		progress_step(&prog, "storing the alerts", 0, 0);
		rc = an_alerts_save(*db, al, err);
	}
	progress_end(&prog);
	return rc;
}

/* The summaries shown, to -o FILE (through the one safe writer) or to
 * standard output. */
static int alerts_print(const struct alerts_args *a, struct alerts_out *w, struct kb_err *err)
{
	if (a->output)
		return outfile_write(a->output, OUTFILE_TEXT, write_alerts, w, err);
	if (write_alerts(stdout, w, err) < 0)
		return -1;
	if (fflush(stdout) != 0)
		return kb_err_set(err, "", 0, "write error: %s", strerror(errno));
	return 0;
}

int cmd_alerts(int argc, char **argv)
{
	struct alerts_args a = { .format = "text", .pvalue = 0.001, .window = 50, .near = 3,
				 .min_points = 3 };
	struct cli_select sel;
	const struct opt opts[] = {
		CLI_OPT_DB(&sel),
		CLI_OPT_BENCH(&sel),
		CLI_OPT_MACHINE(&sel),
		CLI_OPT_METRIC(&sel),
		CLI_OPT_CONFIG(&sel),
		CLI_OPT_THRESHOLD(&sel),
		CLI_OPT_ALPHA(&sel),
		CLI_OPT_BETTER(&sel),
		OPT_DOUBLE("pvalue", "P", &a.pvalue, "history's split test: Welch p <= P (default 0.001)"),
		OPT_LONG("window", "N", &a.window, "points each side of a split tested (default 50)"),
		OPT_LONG("near", "N", &a.near,
			 "the stored alert of a series whose first bad commit is within N commits "
			 "is the same alert (default 3)"),
		OPT_LONG("min-points", "N", &a.min_points,
			 "an alert needs N commits or more each side of its change (default 3)"),
		OPT_FLAG("new", &a.only_new, "only summaries no earlier run reported"),
		OPT_FLAG("all", &a.all, "every summary, whatever its state (default: untriaged ones)"),
		OPT_STRING("git", "DIR", &a.git,
			   "commit order from DIR's first-parent history, and the range's subjects"),
		OPT_STRING("format", "text|json", &a.format, "text (a mail, 80 columns) or json (default text)"),
		OPT_STRING("output", "FILE", &a.output, "(-o) write to FILE instead of standard output"),
		OPT_STRING("note", "TEXT", &a.note, "ack, invalid, fixed: the triager's note"),
		OPT_STRING("by", "COMMIT", &a.by, "fixed: the commit that fixed it"),
		OPT_END,
	};
	const struct cmd_usage u = { "alerts",
		"[--bench B] [--machine M] [--metric M] [--config K=V] [--new | --all]\n"
		"       [--git DIR] [--alpha A] [--pvalue P] [--format text|json] [-o FILE] |\n"
		"       ack ID [--note TEXT] | invalid ID [--note TEXT] |\n"
		"       fixed ID --by COMMIT [--note TEXT]",
		"Finds change points (history's detector) in every series, machine x benchmark x\n"
		"config x metric, along the commits; alerts whose commit ranges overlap are one\n"
		"summary.  Alerts are stored: --new shows what no earlier run reported, ack,\n"
		"invalid and fixed triage a summary.  Exit status 1 when an untriaged summary\n"
		"shown holds a regression, 0 otherwise, 2 on error.",
		opts };
	const char **args = NULL;
	size_t nargs = 0;
	struct an_query q;
	struct an_alerts_opts ao;
	struct an_alerts al;
	struct alerts_out w;
	struct cli_git_log glog;
	struct kb_err err;
	struct db *db = NULL;
	char *show = NULL;
	int rc, status = EXIT_USAGE, built = 0, regress = 0;

	cli_select_init(&sel);
	memset(&glog, 0, sizeof(glog));
	memset(&w, 0, sizeof(w));
	cli_short_output(argc, argv);
	rc = opt_parse(&u, argc, argv, &args, &nargs);
	if (rc) {
		status = rc > 0 ? EXIT_OK : EXIT_USAGE;
		goto done;
	}
	kb_err_clear(&err);
	if (nargs) {
		if (strcmp(args[0], "ack") && strcmp(args[0], "invalid") && strcmp(args[0], "fixed"))
			fprintf(stderr, "kbench alerts: unknown action '%s' (ack, invalid or fixed)\n", args[0]);
		else if (nargs != 2)
			fprintf(stderr, "kbench alerts %s: one summary ID, please\n", args[0]);
		else
			status = alerts_triage(args[0], args[1], &a, cli_db_path(sel.db));
		goto done;
	}
	if (alerts_setup(&a, &sel, &q, &ao, &w.ro, &glog) < 0)
		goto done;
	if (alerts_find(&sel, &ao, &db, &al, &built, &err) < 0) {
		cli_report("alerts", &err);
		goto done;
	}
	if (!al.nseries) {
		if (a.git && !al.norder)
			fprintf(stderr, "kbench alerts: no variant in this selection names a commit of %s's "
				"first-parent history (a variant is matched by its hash: all of its name, "
				"or git describe's -g<hash>)\n", a.git);
		else
			fprintf(stderr, "kbench alerts: no series with two commits or more in this selection\n");
		goto done;
	}
	show = alerts_show(&al, &a, &regress);
	w.a = &al;
	w.ro.show = show;
	if (alerts_print(&a, &w, &err) < 0) {
		cli_report("alerts", &err);
		goto done;
	}
	status = regress ? EXIT_REGRESSION : EXIT_OK;
done:
	free(show);
	if (built)
		an_alerts_release(&al);
	if (db)
		db_close(db);
	cli_git_log_release(&glog);
	free(args);
	cli_select_release(&sel);
	return status;
}
