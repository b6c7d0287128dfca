/*
 * main.c - kbench's entry point: one command table, git style.
 */
#include "cli.h"
#include "../core/buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmd_help(int argc, char **argv);

static const struct cmd commands[] = {
	{ "import", cmd_import, "read benchmark output (files, directories, posts) into the store" },
	{ "ls", cmd_ls, "list variants, machines, benchmarks and sources" },
	{ "show", cmd_show, "print one run as stored (numa_test: the job table)" },
	{ "chart", cmd_chart, "draw one chart (bars, lines, points, placement, nodeload, change)" },
	{ "report", cmd_report, "a whole report: HTML with charts, or plain text for a mail" },
	{ "compare", cmd_compare, "variants side by side: mean(sd), change vs a baseline, verdicts" },
	{ "export", cmd_export, "stored samples, summaries or a comparison as CSV or JSON" },
	{ "regress", cmd_regress, "regressions against a baseline, exit status for CI (0 none, 1 found)" },
	{ "history", cmd_history, "a metric along ordered variants, with its change points" },
	{ "help", cmd_help, "show help for kbench or for one verb" },
};

const struct cmd *cli_commands(size_t *n)
{
	*n = sizeof(commands) / sizeof(commands[0]);
	return commands;
}

const char *cli_db_path(const char *opt)
{
	const char *env = getenv("KBENCH_DB");

	if (opt && *opt)
		return opt;
	if (env && *env)
		return env;
	return "kbench.db";
}

void cli_report_to(struct buf *out, const char *verb, const struct kb_err *e)
{
	if (e->file[0] && e->line > 0)
		buf_printf(out, "%s:%ld: %s\n", e->file, e->line, e->msg);
	else if (e->file[0])
		buf_printf(out, "%s: %s\n", e->file, e->msg);
	else
		buf_printf(out, "kbench %s: %s\n", verb, e->msg);
}

void cli_report(const char *verb, const struct kb_err *e)
{
	struct buf b = BUF_INIT;

	cli_report_to(&b, verb, e);
	fputs(buf_str(&b), stderr);
	buf_release(&b);
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: kbench <verb> [options] [args]\n"
		   "       kbench <verb> --help | kbench --version\n\nverbs:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nThe store is ./kbench.db unless --db PATH or $KBENCH_DB says otherwise.\n"
		   "Exit status: 0 ok, 1 regressions found, 2 usage or input error.\n");
}

static const struct cmd *find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd *c;
	char *hargv[3];

	if (argc < 2 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	c = find(argv[1]);
	if (!c) {
		fprintf(stderr, "kbench help: unknown verb '%s'\n", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	hargv[0] = argv[1];
	hargv[1] = "--help";
	hargv[2] = NULL;
	return c->fn(2, hargv);
}

/*
 * Every verb's output is checked here, once, as git's run_builtin() does:
 * output that could not be written (a full disk, a closed pipe's
 * reader gone) is an error whatever the verb thought of its work.
 */
static int check_stdout(int rc)
{
	int bad = fflush(stdout) != 0, e = errno;

	if (!bad && ferror(stdout))
		bad = 1, e = 0;     /* a write failed before: errno is gone */
	if (!bad && fclose(stdout) != 0)
		bad = 1, e = errno;
	if (bad) {
		fprintf(stderr, "kbench: cannot write standard output%s%s\n", e ? ": " : "",
			e ? strerror(e) : "");
		return EXIT_USAGE;
	}
	return rc;
}

static int run(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("kbench %s\n", KBENCH_VERSION);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	c = find(argv[1]);
	if (!c) {
		fprintf(stderr, "kbench: unknown verb '%s'\n", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	return c->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	return check_stdout(run(argc, argv));
}
