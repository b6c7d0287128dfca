/*
 * complete.c - `kbench __complete CWORD WORD...`: the candidates for the
 * word at index CWORD of the command line WORD... (WORD 0 is "kbench"),
 * one per line, already filtered by what the word holds so far.  The bash
 * and zsh scripts in completion/ only call this, so verbs, options and
 * their values come from the same tables as --help:
 *
 *   verbs                 the command table
 *   --options             the verb's option table (opt_captured)
 *   --opt a|b|c           the choices the option table spells out
 *   --variant(s), --baseline, --candidate, --machine, --bench
 *                         names read from the store (--db, $KBENCH_DB)
 *   import --format       the parser names
 *   PATH, FILE, DIR, STORE  the line ":files": the shell completes file names
 *                         (a STORE is a SQLite file or a postgresql:// URI)
 *
 * bash splits "--color=al" into "--color" "=" "al"; the scripts pass the
 * line as the user typed it, split at blanks only.
 */
#include "cli.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../ingest/ingest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Print cand (with prefix before it) when it starts with cur. */
static void offer(const char *prefix, const char *cand, const char *cur)
{
	size_t np = strlen(prefix);

	if (strncmp(cur, prefix, np) == 0 && strncmp(cand, cur + np, strlen(cur + np)) == 0)
		printf("%s%s\n", prefix, cand);
}

/* The option table of verb, into opt_captured; 0 when there is one. */
static int capture_options(const struct cmd *c)
{
	char *argv[3];

	argv[0] = (char *)c->name;
	argv[1] = "--help";
	argv[2] = NULL;
	opt_help_mode = OPT_HELP_CAPTURE;
	c->fn(2, argv);
	opt_help_mode = OPT_HELP_TEXT;
	return opt_captured.n ? 0 : -1;
}

/* Names of one kind from the store the command line names. */
static void offer_names(const char *kind, const char *dbpath, const char *prefix, const char *cur)
{
	struct db *db;
	struct db_list l;
	struct kb_err err;
	size_t i;

	kb_err_clear(&err);
	if (db_open_existing(&db, cli_db_path(dbpath), &err) < 0)
		return;
	if (db_list(db, &l, &err) == 0) {
		if (strcmp(kind, "variant") == 0)
			for (i = 0; i < l.nvariants; i++)
				offer(prefix, l.variants[i].name, cur);
		else if (strcmp(kind, "machine") == 0)
			for (i = 0; i < l.nmachines; i++)
				offer(prefix, l.machines[i].name, cur);
		else
			for (i = 0; i < l.nbenches; i++)
				offer(prefix, l.benches[i].benchmark, cur);
		db_list_release(&l);
	}
	db_close(db);
}

/* Values of option name (argument arg) of verb; cur is what is typed of
 * the value, prefix what to print before each candidate ("--opt=" when
 * the value is typed in the same word). */
static void offer_values(const char *verb, const char *name, const char *arg,
			 const char *dbpath, const char *prefix, const char *cur)
{
	const char *comma = strrchr(cur + strlen(prefix), ',');

	/* A list ("V,...", "V[,V]"): complete the item after the last comma
	 * (cur holds the prefix and the items before it). */
	if (comma && strchr(arg, ',')) {
		char *pre = xstrndup(cur, (size_t)(comma + 1 - cur));
		offer_values(verb, name, "X", dbpath, pre, cur);
		free(pre);
		return;
	}
	if (strchr(arg, '|')) {
		const char *s = arg;
		while (*s) {
			size_t n = strcspn(s, "|");
			char *v = xstrndup(s, n);
			offer(prefix, v, cur);
			free(v);
			s += n + (s[n] == '|');
		}
		return;
	}
	if (strcmp(arg, "PATH") == 0 || strcmp(arg, "FILE") == 0 || strcmp(arg, "DIR") == 0 ||
	    strcmp(arg, "STORE") == 0) {
		printf(":files\n");
		return;
	}
	if (strcmp(name, "variant") == 0 || strcmp(name, "variants") == 0 ||
	    strcmp(name, "baseline") == 0 || strcmp(name, "candidate") == 0)
		offer_names("variant", dbpath, prefix, cur);
	else if (strcmp(name, "machine") == 0)
		offer_names("machine", dbpath, prefix, cur);
	else if (strcmp(name, "bench") == 0)
		offer_names("bench", dbpath, prefix, cur);
	else if (strcmp(name, "monitor") == 0 && strcmp(verb, "run") == 0) {
		static const char *const mon[] = { "numa", "vmstat", "numastat", "none" };
		size_t i;
		for (i = 0; i < sizeof(mon) / sizeof(mon[0]); i++)
			offer(prefix, mon[i], cur);
	} else if (strcmp(name, "format") == 0 &&
		   (strcmp(verb, "import") == 0 || strcmp(verb, "run") == 0)) {
		size_t n, i;
		const struct ingest_parser *const *p = ingest_parsers(&n);
		for (i = 0; i < n; i++)
			offer(prefix, p[i]->name, cur);
	}
}

/* Index of option name in opt_captured, or -1. */
static long find_opt(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < opt_captured.n; i++)
		if (strlen(opt_captured.names[i]) == len && strncmp(opt_captured.names[i], name, len) == 0)
			return (long)i;
	return -1;
}

int cli_complete(int argc, char **argv)
{
	const struct cmd *cmds, *c = NULL;
	const char *cur, *dbpath = NULL, *prev;
	char **words;
	size_t n, i;
	long cword, nwords, k;

	if (argc < 3)
		return EXIT_USAGE;
	cword = strtol(argv[1], NULL, 10);
	words = argv + 2;
	nwords = argc - 2;
	if (cword < 1 || cword > nwords)
		return EXIT_USAGE;
	cur = cword < nwords ? words[cword] : "";
	cmds = cli_commands(&n);
	if (cword == 1) {
		for (i = 0; i < n; i++)
			offer("", cmds[i].name, cur);
		offer("", "--help", cur);
		offer("", "--version", cur);
		return EXIT_OK;
	}
	for (i = 0; i < n; i++)
		if (strcmp(cmds[i].name, words[1]) == 0)
			c = &cmds[i];
	if (!c)
		return EXIT_OK;
	if (strcmp(c->name, "help") == 0) {
		if (cword == 2)
			for (i = 0; i < n; i++)
				offer("", cmds[i].name, cur);
		return EXIT_OK;
	}
	if (capture_options(c) < 0)
		return EXIT_OK;
	for (k = 2; k < cword; k++) {
		if (strcmp(words[k], "--db") == 0 && k + 1 < cword)
			dbpath = words[k + 1];
		else if (strncmp(words[k], "--db=", 5) == 0)
			dbpath = words[k] + 5;
	}
	prev = words[cword - 1];
	if (strncmp(cur, "--", 2) == 0 && strchr(cur, '=')) {
		/* --opt=value in one word */
		const char *eq = strchr(cur, '=');
		long o = find_opt(cur + 2, (size_t)(eq - cur - 2));
		if (o >= 0 && opt_captured.args[o]) {
			char *pre = xstrndup(cur, (size_t)(eq + 1 - cur));
			offer_values(c->name, opt_captured.names[o], opt_captured.args[o], dbpath, pre,
				     cur);
			free(pre);
		}
	} else if (cword >= 3 && strncmp(prev, "--", 2) == 0 && !strchr(prev, '=') &&
		   (k = find_opt(prev + 2, strlen(prev + 2))) >= 0 && opt_captured.args[k]) {
		offer_values(c->name, opt_captured.names[k], opt_captured.args[k], dbpath, "", cur);
	} else if (cur[0] == '-') {
		for (i = 0; i < opt_captured.n; i++) {
			char opt[128];
			snprintf(opt, sizeof(opt), "--%s", opt_captured.names[i]);
			offer("", opt, cur);
		}
	} else if (strstr(opt_captured.synopsis, "PATH...")) {
		printf(":files\n");
	}
	opt_captured_release();
	return EXIT_OK;
}
