/*
 * main.c - kbench's entry point: one command table, git style.
 */
#include "cli.h"
#include "../core/buf.h"
#include "../core/spell.h"
#include "../core/term.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	{ "relabel", cmd_relabel, "fix variants and machines after import (rename, merge, move runs)" },
	{ "init", cmd_init, "create or upgrade a store; for PostgreSQL, the GRANTs for a lab's roles" },
	{ "copy", cmd_copy, "copy every source of one store into another (SQLite, PostgreSQL)" },
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

int cli_color(const char *verb, const char *when, FILE *f, int *on)
{
	const char *no = getenv("NO_COLOR");

	if (!when || strcmp(when, "auto") == 0)
		*on = term_ansi(term_fd(f)) && !(no && *no);
	else if (strcmp(when, "always") == 0)
		*on = 1;
	else if (strcmp(when, "never") == 0)
		*on = 0;
	else {
		fprintf(stderr, "kbench %s: --color must be auto, always or never, not '%s'\n",
			verb, when);
		return -1;
	}
	return 0;
}

void cli_report_to(struct buf *out, const char *verb, const struct kb_err *e)
{
	/* one line: a newline or a control character in a file name or in
	 * the text a message quotes is shown escaped */
	if (e->file[0]) {
		term_escape(out, e->file, strlen(e->file), 0);
		if (e->line > 0)
			buf_printf(out, ":%ld", e->line);
		buf_puts(out, ": ");
	} else {
		buf_printf(out, "kbench %s: ", verb);
	}
	term_escape(out, e->msg, strlen(e->msg), 0);
	buf_putc(out, '\n');
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
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char line[256];
		snprintf(line, sizeof(line), "  %-10s %s", commands[i].name, commands[i].summary);
		opt_wrap(f, line, 13);
	}
	fprintf(f, "\nThe store is ./kbench.db unless --db or $KBENCH_DB names another: a SQLite\n"
		   "file, or a PostgreSQL server (postgresql://USER@HOST/DB or service=NAME).\n"
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

/*
 * A verb that is not in the table: one line naming it, with the nearest
 * verb when one is near (core/spell.h), and where the list is; not the
 * whole usage, which would bury the line.  prefix is "kbench" or
 * "kbench help".
 */
static int unknown_verb(const char *prefix, const char *word)
{
	struct spell s;
	size_t i;
	const char *best;

	spell_init(&s, word);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		spell_try(&s, commands[i].name);
	if (word[0] == '-') {
		spell_try(&s, "--help");
		spell_try(&s, "--version");
	}
	best = spell_best(&s);
	fprintf(stderr, "%s: unknown %s '%s'", prefix, word[0] == '-' ? "option" : "command", word);
	if (best)
		fprintf(stderr, "; did you mean '%s'?", best);
	fprintf(stderr, "\nrun 'kbench help' for the list\n");
	return EXIT_USAGE;
}

/* kbench help [VERB]: the list of verbs, or VERB --help. */
static int cmd_help(int argc, char **argv)
{
	static const struct cmd_usage u = {
		"help", "[VERB]",
		"With no VERB, the list of verbs; with one, the same as kbench VERB --help.", NULL
	};
	const struct cmd *c;
	const char **args;
	size_t nargs;
	char *hargv[3];
	int rc = opt_parse(&u, argc, argv, &args, &nargs);

	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	if (nargs == 0) {
		free(args);
		usage(stdout);
		return EXIT_OK;
	}
	if (nargs > 1) {
		fprintf(stderr, "kbench help: one verb at a time, not '%s' too\n", args[1]);
		free(args);
		return EXIT_USAGE;
	}
	c = find(args[0]);
	if (!c) {
		rc = unknown_verb("kbench help", args[0]);
		free(args);
		return rc;
	}
	free(args);
	hargv[0] = (char *)c->name;
	hargv[1] = "--help";
	hargv[2] = NULL;
	return c->fn(2, hargv);
}

/* kbench(1): the verbs of the command table, the store, exit status. */
static void man_kbench(void)
{
	size_t i;

	printf(".\\\" Generated by kbench --man from the command table; do not edit.\n"
	       ".TH KBENCH 1 \"\" \"kbench %s\" \"kbench manual\"\n"
	       ".nh\n.ad l\n"
	       ".SH NAME\nkbench \\- Linux scheduler and NUMA benchmark results: import, "
	       "compare, chart, report, regress\n"
	       ".SH SYNOPSIS\n.B kbench\n\\fIverb\\fR [\\fIoptions\\fR] [\\fIargs\\fR]\n.br\n"
	       ".B kbench\n\\fIverb\\fR \\-\\-help | \\-\\-version\n"
	       ".SH DESCRIPTION\nkbench turns raw benchmark output (numa_test, hackbench, kernbench, "
	       "perf stat, GNU time, autonuma\\-benchmark), result trees and mail threads (mbox, "
	       "Maildir) into an SQLite store of samples, and from there into comparisons with "
	       "statistics, charts, reports and regression verdicts.\n"
	       ".SH VERBS\n", KBENCH_VERSION);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		printf(".TP\n.B %s\n", commands[i].name);
		opt_man_escape(stdout, commands[i].summary);
		if (strcmp(commands[i].name, "help") != 0)
			printf(" (see\n.BR kbench\\-%s (1))", commands[i].name);
		putchar('\n');
	}
	printf(".SH ENVIRONMENT\n.TP\n.B KBENCH_DB\nthe store when \\-\\-db is not given "
	       "(default ./kbench.db): a SQLite file, or a PostgreSQL server as a libpq URI "
	       "(postgresql://USER@HOST:PORT/DB?sslmode=...) or service=NAME; credentials "
	       "as libpq takes them (PGPASSFILE, PGPASSWORD, the service file)\n.TP\n.B NO_COLOR\nwhen set, verdict marks are not "
	       "coloured on a terminal\n.TP\n.B TERM\nwhen dumb, no colour and no redrawn progress line\n"
	       ".SH EXIT STATUS\n0 success, 1 regressions found (regress), 2 usage or input error, "
	       "3 inconclusive under \\-\\-strict (regress).\n"
	       ".SH FILES\n.TP\n.B ./kbench.db\nthe default store (SQLite; query it with sqlite3)\n"
	       ".SH SEE ALSO\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, "help") != 0)
			printf(".BR kbench\\-%s (1),\n", commands[i].name);
	printf(".BR sqlite3 (1),\n.BR psql (1)\n");
}

/* kbench --man [VERB]: the man page, made from the tables --help prints. */
static int man(int argc, char **argv)
{
	const struct cmd *c;
	char *hargv[3];

	if (argc < 3) {
		man_kbench();
		return EXIT_OK;
	}
	c = find(argv[2]);
	if (!c || strcmp(c->name, "help") == 0) {
		fprintf(stderr, "kbench --man: no verb '%s'\n", argv[2]);
		return EXIT_USAGE;
	}
	hargv[0] = argv[2];
	hargv[1] = "--help";
	hargv[2] = NULL;
	opt_help_mode = OPT_HELP_MAN;
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

/* The options every verb takes may stand before the verb, as git takes
 * -C before its command: "kbench --db x.db import f" is read as
 * "kbench import --db x.db f".  Returns the new argc, or -1 (said). */
static int hoist_globals(int argc, char **argv, char ***out)
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));
	int i = 1, n = 1, g = 0, k;

	if (!v) {
		fprintf(stderr, "kbench: out of memory\n");
		return -1;
	}
	v[0] = argv[0];
	while (i < argc) {
		const char *a = argv[i];
		int takes = strcmp(a, "--db") == 0 || strcmp(a, "--color") == 0;
		if (!takes && strncmp(a, "--db=", 5) && strncmp(a, "--color=", 8) &&
		    strcmp(a, "-q") && strcmp(a, "--quiet"))
			break;
		if (takes && i + 1 >= argc) {
			fprintf(stderr, "kbench: %s needs a value\n", a);
			free(v);
			return -1;
		}
		i += 1 + takes;
		g += 1 + takes;
	}
	if (i >= argc) {
		if (g) {
			fprintf(stderr, "kbench: %s given, but no verb\n", argv[1]);
			free(v);
			return -1;
		}
		*out = v;
		return argc > 1 ? argc : 1;
	}
	v[n++] = argv[i];             /* the verb */
	for (k = 1; k < 1 + g; k++)   /* then the options that stood before it */
		v[n++] = strcmp(argv[k], "-q") == 0 ? "--quiet" : argv[k];
	for (k = i + 1; k < argc; k++)
		v[n++] = argv[k];
	v[n] = NULL;
	*out = v;
	return n;
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
	/* Hidden: for the build (man pages) and the shell (completion). */
	if (strcmp(argv[1], "--man") == 0)
		return man(argc, argv);
	if (strcmp(argv[1], "__complete") == 0)
		return cli_complete(argc - 1, argv + 1);
	c = find(argv[1]);
	if (!c)
		return unknown_verb("kbench", argv[1]);
	return c->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	char **v = NULL;
	int n = argc > 1 && argv[1][0] == '-' ? hoist_globals(argc, argv, &v) : argc, rc;

	if (n < 0)
		return EXIT_USAGE;
	/* A file size limit (ulimit -f) is a write error like a full disk
	 * (EFBIG), reported and rolled back, not a kill by SIGXFSZ. */
	signal(SIGXFSZ, SIG_IGN);
	/* No control character from input reaches a terminal (core/term.h). */
	term_install();
	rc = check_stdout(run(n, v ? v : argv));
	free(v);
	return rc;
}
