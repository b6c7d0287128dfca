/*
 * cmd_run.c - `kbench run -- CMD ARGS...`: run a benchmark N times (per
 * config, in a shuffled order per round), store each run as it finishes
 * with the machine and the environment it ran in, and, with
 * --until-decided, stop when the verdict against a baseline is decided.
 * The options, the loop and what is printed; the engine is import/run.c,
 * the stopping rule analyze/seq.c.
 */
#include "cli.h"
#include "../analyze/seq.h"
#include "../core/buf.h"
#include "../core/num.h"
#include "../core/term.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../import/run.h"
#include "../ingest/ingest.h"
#include "progress.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* Exit statuses of run beyond cli.h's: the shell's for a command that
 * cannot be found or run, and for an interrupt. */
enum { EXIT_RUN_FAILED = 1, EXIT_CANNOT_EXEC = 126, EXIT_NOT_FOUND = 127,
       EXIT_INTERRUPTED = 130 };

/* Ctrl-C: 1 stops after the current run, 2 ends it too.  SIGTERM and
 * SIGHUP (a kill, the terminal gone) end the current run at once: the
 * benchmark is in a process group of its own and would run on alone. */
static volatile sig_atomic_t stop_asked, stop_signal;

static void on_interrupt(int sig)
{
	if (sig != SIGINT)
		stop_asked = 2;
	else if (stop_asked < 2)
		stop_asked++;
	if (!stop_signal || sig != SIGINT)
		stop_signal = sig;
}

struct run_cli {
	struct import_opts o;
	const char *db, *variant, *machine, *seed_text, *monitor, *baseline, *format;
	struct strlist config, metric;
	long runs, max_runs, min_runs;
	double threshold, alpha;
	int until, quiet;
	unsigned monitors;
	uint64_t seed;
	char release[256], host[256];
};

/* "0:07" */
static void eta_text(double secs, char *out, size_t cap)
{
	long s = (long)(secs + 0.5);

	snprintf(out, cap, "%ld:%02ld", s / 60, s % 60);
}

/* Check what the options imply beyond their types: EXIT_OK, or said. */
static int check_opts(struct run_cli *c, size_t nargs, const struct cmd_usage *u)
{
	struct buf msg = BUF_INIT;
	struct utsname un;

	if (nargs == 0) {
		fprintf(stderr, "kbench run: no command to run (give it after --)\n");
		opt_usage(u, stderr);
		return EXIT_USAGE;
	}
	if (c->runs <= 0 || c->runs > 100000) {
		fprintf(stderr, "kbench run: --runs needs a whole number from 1 to 100000\n");
		return EXIT_USAGE;
	}
	if (c->min_runs < 2 || c->max_runs < c->min_runs || c->max_runs > 100000) {
		fprintf(stderr, "kbench run: --min-runs needs at least 2, and --max-runs at "
			"least --min-runs (default 3 and 30)\n");
		return EXIT_USAGE;
	}
	if (c->until && !c->baseline) {
		fprintf(stderr, "kbench run: --until-decided needs --baseline VARIANT\n");
		return EXIT_USAGE;
	}
	if (c->baseline && !c->until) {
		fprintf(stderr, "kbench run: --baseline goes with --until-decided\n");
		return EXIT_USAGE;
	}
	if (!(c->alpha > 0 && c->alpha < 1) || !(c->threshold >= 0 && isfinite(c->threshold))) {
		fprintf(stderr, "kbench run: --alpha is between 0 and 1, --threshold a percent >= 0\n");
		return EXIT_USAGE;
	}
	if (run_monitors_parse(c->monitor ? c->monitor : "numa", &c->monitors, &msg) < 0)
		goto bad;
	if (c->seed_text) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(c->seed_text, &end, 10);
		if (errno || end == c->seed_text || *end || c->seed_text[0] == '-') {
			buf_printf(&msg, "--seed needs a whole number, not '%s'", c->seed_text);
			goto bad;
		}
		c->seed = v;
	} else {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		c->seed = ((uint64_t)ts.tv_sec * 1000003u) ^ (uint64_t)ts.tv_nsec ^
			  ((uint64_t)getpid() << 20);
		c->seed %= 1000000000ULL;       /* short enough to type back */
	}
	if (uname(&un) == 0) {
		snprintf(c->release, sizeof(c->release), "%s", un.release);
		snprintf(c->host, sizeof(c->host), "%s", un.nodename);
	}
	if (gethostname(c->host, sizeof(c->host) - 1) < 0 && !c->host[0])
		snprintf(c->host, sizeof(c->host), "localhost");
	c->o.variant = c->variant ? c->variant : c->release;
	c->o.machine = c->machine ? c->machine : c->host;
	c->o.kernel = c->release[0] ? c->release : NULL;
	c->o.format = c->format;
	if (import_opts_check(&c->o, &msg) < 0)
		goto bad;
	return EXIT_OK;
bad:
	fprintf(stderr, "kbench run: %s\n", buf_str(&msg));
	buf_release(&msg);
	return EXIT_USAGE;
}

/* Every config value as a --set KEY=VALUE would check it. */
static int check_configs(struct run_cli *c, const struct run_configs *cf)
{
	struct import_opts o = c->o;
	struct buf msg = BUF_INIT;
	char **set;
	size_t n = 0, k, v;
	int rc = EXIT_OK;

	for (k = 0; k < cf->nkeys; k++)
		n += cf->nvalues[k];
	set = xcalloc(n + 1, sizeof(*set));
	n = 0;
	for (k = 0; k < cf->nkeys; k++)
		for (v = 0; v < cf->nvalues[k]; v++)
			set[n++] = buf_aprintf("%s=%s", cf->keys[k], cf->values[k][v]);
	o.set = (const char **)set;
	o.nset = n;
	if (import_opts_check(&o, &msg) < 0) {
		/* the message names --set, as import's; here it is --config */
		const char *m = buf_str(&msg);
		fprintf(stderr, "kbench run: %s%s\n", str_starts(m, "--set") ? "--config" : "",
			str_starts(m, "--set") ? m + 5 : m);
		rc = EXIT_USAGE;
	}
	for (k = 0; k < n; k++)
		free(set[k]);
	free(set);
	buf_release(&msg);
	return rc;
}

/* The first line: where, what, how many; what of the environment is not
 * recorded, on stderr. */
static void say_start(const struct run_cli *c, const struct run_env *env, size_t total,
		      const struct run_configs *cf)
{
	char *v = term_line(c->o.variant), *m = term_line(c->o.machine);

	printf("kbench run: variant %s on machine %s (", v, m);
	if (env->cpus)
		printf("%d CPUs", env->cpus);
	else
		printf("CPUs unknown");
	if (env->nodes)
		printf(", %d node%s", env->nodes, env->nodes == 1 ? "" : "s");
	printf("); ");
	if (c->until)
		printf("until decided against %s, %ld to %ld runs", c->baseline, c->min_runs,
		       c->max_runs);
	else
		printf("%zu run%s", total, total == 1 ? "" : "s");
	if (cf->npoints > 1)
		printf(" of %zu configs, shuffled with --seed %llu", cf->npoints,
		       (unsigned long long)c->seed);
	putchar('\n');
	fflush(stdout);
	if (env->missing.len) {
		char *t = term_line(buf_str(&env->missing));
		fprintf(stderr, "kbench run: not recorded: %s\n", t);
		free(t);
	}
	free(v);
	free(m);
}

/* "time 0.099 s" of the first run of the item: its first sample. */
static void first_sample(const struct import_item *it, struct buf *out)
{
	const struct rec_run *r = it->batch.nruns ? it->batch.runs[0] : NULL;
	size_t i;

	for (i = 0; r && i < r->nsamples; i++) {
		if (str_starts(r->samples[i].metric, "vmstat.") ||
		    str_starts(r->samples[i].metric, "numastat."))
			continue;
		buf_printf(out, ", %s %.6g%s%s", r->samples[i].metric, r->samples[i].value,
			   r->samples[i].unit[0] ? " " : "", r->samples[i].unit);
		return;
	}
}

/* What one look of --until-decided says, a line per row: its verdict at
 * the level of the look at its candidate runs. */
static void say_look(const struct an_seq_opts *so, const struct an_seq_look *l)
{
	size_t i;

	for (i = 0; i < l->nrows; i++) {
		const struct an_seq_row *r = &l->rows[i];
		char *m = term_line(r->metric), *cfg = term_line(r->config);

		printf("  look %zu (alpha %.4f): %s%s%s%s %s", r->ncand, an_seq_alpha(so, r->ncand), m,
		       cfg[0] ? " [" : "", cfg, cfg[0] ? "]" : "", an_verdict_name(r->chg.verdict));
		if (isfinite(r->chg.raw))
			printf(" (%+.1f%%, %zu vs %zu runs", r->chg.raw, r->ncand, r->nbase);
		else
			printf(" (%zu vs %zu runs", r->ncand, r->nbase);
		if (isfinite(r->chg.p))
			printf(", p %.3g", r->chg.p);
		printf(")\n");
		free(m);
		free(cfg);
	}
}

/* The benchmark the item's runs are of ("" when none). */
static const char *item_bench(const struct import_item *it)
{
	return it->batch.nruns ? it->batch.runs[0]->benchmark : "";
}

/* "run 2/3 [groups=2]: hackbench, time 0.099 s" of a run about to be stored. */
static void run_line(struct buf *line, const struct import_item *it, const struct run_output *out,
		     const struct buf *set_text, size_t index, size_t planned)
{
	buf_printf(line, "run %zu/%zu", index, planned);
	if (set_text->len)
		buf_printf(line, " [%s]", buf_str(set_text));
	if (out->status != 0) {
		if (out->signal)
			buf_printf(line, ": failed, killed by signal %d", out->signal);
		else
			buf_printf(line, ": failed, exit status %d", out->status);
	} else if (!it->batch.nruns && it->batch.nsummaries) {
		/* perf stat -r N: its own mean of N, stored as summaries */
		const struct rec_summary *sm = it->batch.summaries[0];

		buf_printf(line, ": %s, %zu summaries (%s %.6g%s%s, n %ld)", sm->benchmark,
			   it->batch.nsummaries, sm->metric, sm->mean, sm->unit[0] ? " " : "",
			   sm->unit, sm->n);
	} else {
		buf_printf(line, ": %s", item_bench(it));
		first_sample(it, line);
	}
}

/* A failed run's stderr, its lines on one, as the stored error has them. */
static void say_failed(const struct run_output *out, size_t index)
{
	struct buf e = BUF_INIT;
	size_t i, n = str_rtrim_len(buf_str(&out->err), out->err.len);
	char *t;

	for (i = 0; i < n; i++)
		buf_putc(&e, out->err.data[i] == '\n' ? ' ' : out->err.data[i]);
	t = term_line(e.len ? buf_str(&e) : "(nothing on stderr)");
	fprintf(stderr, "kbench run: run %zu failed: %s\n", index, t);
	free(t);
	buf_release(&e);
}

struct loop {
	struct db *db;
	struct run_configs cf;
	struct run_env env;
	struct progress prog;
	size_t stored, failed, planned;
	char *bench;            /* of the runs stored, for the look */
	char started[32];
	int rc, noted;
	char final[512];
};

/* One execution of point p, stored.  0 to go on, 1 to stop (l->rc set). */
static int one_run(struct run_cli *c, struct loop *l, char *const argv[], size_t argc,
		   size_t p, size_t index, size_t round)
{
	struct run_source_opts so = { &c->o, &l->env, l->started, (long)getpid(), l->bench,
				      (int)index };
	struct run_counters before, after;
	struct run_output out;
	struct buf set_text = BUF_INIT, line = BUF_INIT;
	struct db_import_result res;
	struct import_item *it;
	struct kb_err err;
	char **av = run_argv_expand(&l->cf, p, argv, argc);
	const char **set = xcalloc(l->cf.nkeys + 1, sizeof(*set));
	char **setv = xcalloc(l->cf.nkeys + 1, sizeof(*setv));
	size_t k, lost = 0;
	char eta[32] = "";
	int stop = 0;

	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	run_output_init(&out);
	kb_err_clear(&err);
	for (k = 0; k < l->cf.nkeys; k++)
		set[k] = setv[k] = buf_aprintf("%s=%s", l->cf.keys[k], run_config_value(&l->cf, p, k));
	run_config_text(&l->cf, p, &set_text);
	if (l->prog.on) {
		char text[160];
		int n = snprintf(text, sizeof(text), "run %zu/%zu", index, l->planned);
		if (l->stored && n > 0 && (size_t)n < sizeof(text)) {
			eta_text(progress_elapsed(&l->prog) / (double)(index - 1) *
				 (double)(l->planned - index + 1), eta, sizeof(eta));
			snprintf(text + n, sizeof(text) - (size_t)n, ", ETA %s", eta);
		}
		progress_draw(&l->prog, text);
	}
	run_counters_read(c->monitors, &before);
	if (run_exec(av, &out, &stop_asked, &err) < 0) {
		progress_clear(&l->prog);
		cli_report("run", &err);
		l->rc = out.status == 127 ? EXIT_NOT_FOUND : out.status == 126 ? EXIT_CANNOT_EXEC
									   : EXIT_USAGE;
		stop = 1;
		goto out;
	}
	run_counters_read(c->monitors, &after);
	if (stop_asked >= 2) {
		/* a second Ctrl-C ended this run: it is not a result */
		l->rc = EXIT_INTERRUPTED;
		stop = 1;
		goto out;
	}
	it = run_source(&so, av, set, l->cf.nkeys, (int)round, &out, &before, &after);
	progress_clear(&l->prog);
	if (it->kind != IMPORT_READY) {
		cli_report("run", &it->err);
		l->rc = EXIT_USAGE;
		stop = 1;
		import_item_free(it);
		goto out;
	}
	/* what is said of it, before the store takes its records */
	run_line(&line, it, &out, &set_text, index, l->planned);
	if (!l->bench && out.status == 0 && item_bench(it)[0])
		l->bench = xstrdup(item_bench(it));
	memset(&res, 0, sizeof(res));
	if (db_store_batch(l->db, &it->imp, &it->batch, &res, &err) < 0 ||
	    db_store_flush(l->db, &lost, &err) < 0) {
		cli_report("run", &err);
		l->rc = EXIT_USAGE;
		stop = 1;
		import_item_free(it);
		goto out;
	}
	l->stored++;
	if (res.failed_runs)
		l->failed++;
	buf_printf(&line, " (%.2f s", out.seconds);
	if (index < l->planned && !c->until) {
		eta_text(progress_elapsed(&l->prog) / (double)index * (double)(l->planned - index),
			 eta, sizeof(eta));
		buf_printf(&line, ", ETA %s", eta);
	}
	buf_puts(&line, ")");
	if (!c->quiet) {
		char *t = term_line(buf_str(&line));
		puts(t);
		free(t);
	}
	if (res.failed_runs && !c->quiet)
		say_failed(&out, index);
	import_item_free(it);
out:
	fflush(stdout);
	run_counters_release(&before);
	run_counters_release(&after);
	run_output_release(&out);
	run_argv_free(av);
	for (k = 0; k < l->cf.nkeys; k++)
		free(setv[k]);
	free(setv);
	free(set);
	buf_release(&set_text);
	buf_release(&line);
	return stop;
}

/* After a round of --until-decided: look, say, and whether to stop. */
static int look(struct run_cli *c, struct loop *l, size_t n)
{
	struct an_seq_opts so;
	struct an_seq_look lk;
	struct kb_err err;
	size_t i, most = 0;

	if (!l->bench) {
		/* no run has given a number yet: not worth max-runs tries */
		if (n < (size_t)c->min_runs)
			return 0;
		snprintf(l->final, sizeof(l->final), "stopped: none of the %zu runs gave a result "
			 "(each failed)", l->stored);
		l->rc = EXIT_RUN_FAILED;
		return 1;
	}
	an_seq_opts_init(&so);
	so.alpha = c->alpha;
	so.threshold = c->threshold;
	so.min_runs = (size_t)c->min_runs;
	so.max_runs = (size_t)c->max_runs;
	kb_err_clear(&err);
	if (an_seq_look(l->db, &so, l->bench, c->o.machine, c->baseline, c->o.variant,
			c->metric.v, c->metric.n, n, &lk, &err) < 0) {
		cli_report("run", &err);
		l->rc = EXIT_USAGE;
		return 1;
	}
	for (i = 0; i < lk.nrows; i++)
		if (lk.rows[i].ncand > most)
			most = lk.rows[i].ncand;
	if (lk.note && !l->noted) {
		char *t = term_line(lk.note);
		printf("kbench run: %s\n", t);
		free(t);
		l->noted = 1;
	}
	if (n >= (size_t)c->min_runs && !c->quiet)
		say_look(&so, &lk);
	if (lk.nrows == 0 && n >= (size_t)c->min_runs) {
		snprintf(l->final, sizeof(l->final), "stopped: %s on this machine has no runs of "
			 "%s's config of %s to compare with (see kbench compare)", c->baseline,
			 c->o.variant, l->bench);
		l->rc = EXIT_USAGE;
		an_seq_look_release(&lk);
		return 1;
	}
	if (n >= (size_t)c->min_runs && lk.decided) {
		size_t worse = 0, better = 0, same = 0;

		for (i = 0; i < lk.nrows; i++) {
			worse += lk.rows[i].chg.verdict == AN_VERDICT_WORSE;
			better += lk.rows[i].chg.verdict == AN_VERDICT_BETTER;
			same += lk.rows[i].chg.verdict == AN_VERDICT_SAME;
		}
		snprintf(l->final, sizeof(l->final), "decided after %zu runs: %s (%zu worse, %zu "
			 "better, %zu same of %zu metrics, each at its look's alpha)", most,
			 worse ? "worse" : better ? "better" : "same", worse, better, same, lk.nrows);
		if (worse)
			l->rc = EXIT_REGRESSION;
		an_seq_look_release(&lk);
		return 1;
	}
	if (n >= (size_t)c->max_runs || most >= (size_t)c->max_runs) {
		snprintf(l->final, sizeof(l->final), "inconclusive at max-runs (%zu runs): a "
			 "metric is neither same nor changed at the spent alpha; give --max-runs "
			 "more", most);
		l->rc = EXIT_INCONCLUSIVE;
		an_seq_look_release(&lk);
		return 1;
	}
	an_seq_look_release(&lk);
	return 0;
}

static int run_loop(struct run_cli *c, char *const argv[], size_t argc)
{
	struct loop l;
	struct run_rng rng;
	struct sigaction sa, old, oldterm, oldhup;
	struct kb_err err;
	struct buf msg = BUF_INIT;
	const char *tool;
	size_t round, i, *perm, rounds, index = 0;
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	memset(&l, 0, sizeof(l));
	kb_err_clear(&err);
	if (run_configs_parse(&l.cf, c->config.v, c->config.n, &msg) < 0 ||
	    run_placeholders_check(&l.cf, argv, argc, &msg) < 0) {
		fprintf(stderr, "kbench run: %s\n", buf_str(&msg));
		buf_release(&msg);
		run_configs_release(&l.cf);
		return EXIT_USAGE;
	}
	if ((rc = check_configs(c, &l.cf)) != EXIT_OK) {
		run_configs_release(&l.cf);
		return rc;
	}
	rounds = c->until ? (size_t)c->max_runs : (size_t)c->runs;
	l.planned = rounds * l.cf.npoints;
	gmtime_r(&now, &tm);
	strftime(l.started, sizeof(l.started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (db_open(&l.db, cli_db_path(c->db), &err) < 0) {
		cli_report("run", &err);
		run_configs_release(&l.cf);
		return EXIT_USAGE;
	}
	if (c->until) {
		/* a baseline that is not there is said before anything runs */
		char *display = NULL;

		if (db_variant_resolve(l.db, c->baseline, &display, &err) < 0) {
			cli_report("run", &err);
			db_close(l.db);
			run_configs_release(&l.cf);
			return EXIT_USAGE;
		}
		free(display);
	}
	tool = argv[0];
	run_env_capture(&l.env, tool);
	say_start(c, &l.env, l.planned, &l.cf);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;        /* no SA_RESTART: a wait wakes to look at the flag */
	sigaction(SIGINT, &sa, &old);
	sigaction(SIGTERM, &sa, &oldterm);
	sigaction(SIGHUP, &sa, &oldhup);
	progress_init(&l.prog, "run", !c->quiet && progress_tty(), 0);
	run_rng_seed(&rng, c->seed);
	perm = xcalloc(l.cf.npoints, sizeof(*perm));
	l.rc = EXIT_OK;
	for (round = 0; round < rounds && !stop_asked; round++) {
		int stop = 0;

		run_rng_shuffle(&rng, perm, l.cf.npoints);
		for (i = 0; i < l.cf.npoints && !stop && !stop_asked; i++)
			stop = one_run(c, &l, argv, argc, perm[i], ++index, round + 1);
		if (stop)
			break;
		if (c->until && look(c, &l, round + 1))
			break;
	}
	progress_clear(&l.prog);
	sigaction(SIGINT, &old, NULL);
	sigaction(SIGTERM, &oldterm, NULL);
	sigaction(SIGHUP, &oldhup, NULL);
	if (stop_asked && (l.rc == EXIT_OK || l.rc == EXIT_INTERRUPTED))
		l.rc = 128 + (stop_signal ? (int)stop_signal : SIGINT);
	if (stop_asked)
		printf("kbench run: interrupted (%s): %zu of %zu runs stored (each one whole)\n",
		       stop_signal == SIGTERM ? "SIGTERM" : stop_signal == SIGHUP ? "SIGHUP" : "SIGINT",
		       l.stored, l.planned);
	else if (l.final[0])
		printf("kbench run: %s\n", l.final);
	else if (l.stored)
		printf("kbench run: %zu run%s stored, %zu failed\n", l.stored,
		       l.stored == 1 ? "" : "s", l.failed);
	if (l.rc == EXIT_OK && l.failed)
		l.rc = EXIT_RUN_FAILED;
	rc = l.rc;
	free(perm);
	free(l.bench);
	run_env_release(&l.env);
	run_configs_release(&l.cf);
	db_close(l.db);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_cli c;
	const struct opt opts[] = {
		OPT_STRING("db", "PATH", &c.db, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_STRING("variant", "NAME", &c.variant, "the variant of the runs (default: uname -r)"),
		OPT_STRING("machine", "NAME", &c.machine, "the machine (default: the host name)"),
		OPT_LONG("runs", "N", &c.runs, "run the command N times, per config (default 5)"),
		OPT_LIST("config", "K=V,V...", &c.config,
			 "run once per value, put for {K} in the command; shuffled per round"),
		OPT_STRING("seed", "N", &c.seed_text, "the shuffle's seed (default: printed, from the clock)"),
		OPT_STRING("monitor", "LIST", &c.monitor,
			   "counters around each run: numa, vmstat, numastat, none (default numa)"),
		OPT_FLAG("until-decided", &c.until, "run until the verdict against --baseline is decided"),
		OPT_STRING("baseline", "VARIANT", &c.baseline, "--until-decided: the variant compared with"),
		OPT_LONG("min-runs", "N", &c.min_runs, "--until-decided: runs before the first look (default 3)"),
		OPT_LONG("max-runs", "N", &c.max_runs, "--until-decided: runs at most (default 30)"),
		OPT_LIST("metric", "NAME", &c.metric,
			 "--until-decided: wait for this metric (default: those with a direction)"),
		OPT_DOUBLE("threshold", "PCT", &c.threshold, "--until-decided: smallest change that matters (default 1)"),
		OPT_DOUBLE("alpha", "A", &c.alpha, "--until-decided: false-alarm level of all looks (default 0.05)"),
		OPT_STRING("format", "NAME", &c.format, "read the output with this parser only"),
		OPT_FLAG("quiet", &c.quiet, "print only the first and last lines and errors"),
		OPT_END,
	};
	const struct cmd_usage u = { "run", "[options] -- CMD [ARGS...]",
		"Runs CMD (no shell), stores each run with the machine and its settings.", opts };
	const char **args;
	size_t nargs;
	char **av;
	int rc;

	memset(&c, 0, sizeof(c));
	c.runs = 5;
	c.min_runs = 3;
	c.max_runs = 30;
	c.threshold = 1.0;
	c.alpha = 0.05;
	stop_asked = 0;
	stop_signal = 0;
	rc = opt_parse(&u, argc, argv, &args, &nargs);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	rc = check_opts(&c, nargs, &u);
	if (rc == EXIT_OK) {
		av = xcalloc(nargs + 1, sizeof(*av));
		memcpy(av, args, nargs * sizeof(*av));
		rc = run_loop(&c, av, nargs);
		free(av);
	}
	free(args);
	strlist_release(&c.config);
	strlist_release(&c.metric);
	return rc;
}
