/*
 * cmd_show.c - `kbench show RUN_ID...`: a run as stored.  numa_test runs
 * are reprinted in numa_test's own layout so the numbers can be checked
 * against the mail they came from.
 */
#include "cli.h"
#include "../core/num.h"
#include "../core/buf.h"
#include "../core/term.h"
#include "../db/db.h"
#include "../ingest/mail.h"
#include "../ingest/record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct db_sample *find_sample(const struct db_run *r, const char *metric)
{
	size_t i;

	for (i = 0; i < r->nsamples; i++)
		if (r->samples[i].job == 0 && strcmp(r->samples[i].metric, metric) == 0)
			return &r->samples[i];
	return NULL;
}

static void print_numatest(const struct db_run *r)
{
	const struct db_sample *s;
	struct buf cmd = BUF_INIT;
	int nodes = 0, k;
	size_t i;

	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].nnodes > nodes)
			nodes = r->jobs[i].nnodes;
	/* The disturbance as numa_test printed it: its config value is the
	 * command's words joined by ':' (ingest/numatest.c). */
	s = find_sample(r, "hackbench");
	if (rec_config_value(r->config, "disturb", &cmd) == 0) {
		for (i = 0; i < cmd.len; i++)
			if (cmd.data[i] == ':')
				cmd.data[i] = ' ';
		fputs("Running '", stdout);
		term_fputs(buf_str(&cmd), stdout);
		fputs("' in the background", stdout);
		if (s)
			printf(": Time: %.3f", s->value);
		putchar('\n');
	} else if (s) {
		printf("Running 'hackbench' in the background: Time: %.3f\n", s->value);
	}
	buf_release(&cmd);
	printf("Job ");
	for (k = 0; k < nodes; k++)
		printf(" node%02d", k);
	printf(" | iSched MSched | UserTime(s)\n");
	for (i = 0; i < r->njobs; i++) {
		const struct db_job *j = &r->jobs[i];
		printf("%3d ", j->job);
		for (k = 0; k < nodes; k++) {
			if (k < j->nnodes && !isnan(j->pct[k]))
				printf(" %6.1f", j->pct[k]);
			else
				printf(" %6s", "-");
		}
		printf(" | %4d  %4d   %s| %6.2f\n", j->initial_node, j->main_node,
		       j->marked ? "*" : " ", j->user);
	}
	if ((s = find_sample(r, "avg_user")))
		printf("AverageUserTime %.2f seconds\n", s->value);
	if ((s = find_sample(r, "elapsed")))
		printf("ElapsedTime     %.2f\n", s->value);
	if ((s = find_sample(r, "total_user")))
		printf("TotalUserTime   %.2f\n", s->value);
	if ((s = find_sample(r, "total_sys")))
		printf("TotalSysTime    %.2f\n", s->value);
	if ((s = find_sample(r, "elapsed_minus_hackbench")))
		printf("(elapsed minus hackbench %.3f)\n", s->value);
}

static void print_run(const struct db_run *r)
{
	size_t i;
	char num[32];

	printf("run %lld: %s %s, variant %s", r->id, r->benchmark,
	       r->config && *r->config ? r->config : "(no config)", r->variant);
	if (r->machine)
		printf(", machine %s", r->machine);
	printf(", iteration %d, %s\n", r->iteration, r->status);
	fputs("source ", stdout);
	term_fputs(r->source, stdout);  /* a file name on one line */
	if (r->line > 0)
		printf(" line %ld", r->line);
	putchar('\n');
	if (r->mail_from || r->mail_date || r->mail_subject) {
		struct buf by = BUF_INIT;
		mail_byline(r->mail_from, r->mail_date, r->mail_subject, &by);
		fputs("posted by ", stdout);
		term_fputs(buf_str(&by), stdout);
		putchar('\n');
		buf_release(&by);
	}
	if (r->error)
		printf("error: %s\n", r->error);
	if (r->njobs) {
		putchar('\n');
		print_numatest(r);
		return;
	}
	for (i = 0; i < r->nsamples; i++) {
		const struct db_sample *s = &r->samples[i];
		num_format(s->value, num);
		if (s->job)
			printf("  job %-4d %-28s %s %s\n", s->job, s->metric, num, s->unit);
		else
			printf("  %-37s %s %s\n", s->metric, num, s->unit);
	}
}

/* show --machine M: the machine and each variant's recorded environment. */
static int show_machine(struct db *db, const char *name)
{
	struct db_machine_env m;
	struct kb_err err;
	size_t i, k;
	char *t;

	kb_err_clear(&err);
	if (db_machine_env(db, name, NULL, &m, &err) < 0) {
		cli_report("show", &err);
		return EXIT_USAGE;
	}
	t = term_line(m.name);
	printf("machine %s: ", t);
	free(t);
	if (m.cpus)
		printf("%lld CPUs", m.cpus);
	else
		printf("CPUs unknown");
	if (m.nodes)
		printf(", %lld node%s", m.nodes, m.nodes == 1 ? "" : "s");
	else
		printf(", nodes unknown");
	printf(", %lld runs\n", m.runs);
	if (m.description) {
		t = term_line(m.description);
		printf("  %s\n", t);
		free(t);
	}
	if (m.nenvs == 0)
		printf("no environment recorded (it is recorded by kbench run)\n");
	for (i = 0; i < m.nenvs; i++) {
		const struct db_env *e = &m.envs[i];

		t = term_line(e->variant);
		printf("\nvariant %s (recorded %s)\n", t, e->recorded_at ? e->recorded_at : "?");
		free(t);
		for (k = 0; k < e->n; k++) {
			char *key = term_line(e->keys[k]), *val = term_line(e->values[k]);
			printf("  %-22s %s\n", key, val);
			free(key);
			free(val);
		}
	}
	db_machine_env_release(&m);
	return EXIT_OK;
}

int cmd_show(int argc, char **argv)
{
	const char *dbpath = NULL, *machine = NULL;
	const struct opt opts[] = {
		OPT_STRING("db", "PATH", &dbpath, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_STRING("machine", "NAME", &machine, "print the machine and each variant's environment"),
		OPT_END,
	};
	const struct cmd_usage u = { "show", "[--db PATH] RUN_ID... | --machine NAME",
		"Prints runs as stored; numa_test runs as the job table they came from;\n"
		"with --machine, the machine and the settings kbench run recorded there.\n"
		"Run ids are in `sqlite3 kbench.db 'select * from runs_v'`.", opts };
	const char **args;
	size_t nargs, i;
	struct db *db;
	struct kb_err err;
	int rc = opt_parse(&u, argc, argv, &args, &nargs);

	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	if (machine && nargs) {
		fprintf(stderr, "kbench show: --machine or run ids, not both\n");
		free(args);
		return EXIT_USAGE;
	}
	if (nargs == 0 && !machine) {
		fprintf(stderr, "kbench show: give one or more run ids\n");
		opt_usage(&u, stderr);
		free(args);
		return EXIT_USAGE;
	}
	kb_err_clear(&err);
	if (db_open_existing(&db, cli_db_path(dbpath), &err) < 0) {
		cli_report("show", &err);
		free(args);
		return EXIT_USAGE;
	}
	if (machine)
		rc = show_machine(db, machine);
	for (i = 0; i < nargs; i++) {
		struct db_run r;
		long id;
		if (num_parse_long(args[i], strlen(args[i]), &id) < 0) {
			fprintf(stderr, "kbench show: '%s' is not a run id\n", args[i]);
			rc = EXIT_USAGE;
			continue;
		}
		if (db_get_run(db, id, &r, &err) < 0) {
			cli_report("show", &err);
			rc = EXIT_USAGE;
			continue;
		}
		if (i)
			putchar('\n');
		print_run(&r);
		db_run_release(&r);
	}
	db_close(db);
	free(args);
	return rc;
}
