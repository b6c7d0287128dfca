/*
 * cmd_relabel.c - `kbench relabel`: fix what import inferred, without
 * importing again.
 *
 *   kbench relabel rename OLD NEW
 *   kbench relabel merge FROM INTO
 *   kbench relabel move --to V (--run ID,... | --source PATH|ID [--segment LINE]) [--from V]
 *   kbench relabel machine NAME (--run ID,... | --source PATH|ID [--segment LINE]) [--from V]
 *
 * --source (and --segment) take the published summaries with the runs.
 * A move or machine change that changes nothing (all of it is there
 * already) records nothing and exits 1.
 *   kbench relabel --list
 */
#include "cli.h"
#include "select.h"
#include "../core/num.h"
#include "../core/spell.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/relabel.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int list(struct db *db)
{
	struct db_relabel *r;
	struct kb_err err;
	size_t n, i;

	kb_err_clear(&err);
	if (db_relabel_list(db, &r, &n, &err) < 0) {
		cli_report("relabel", &err);
		return EXIT_USAGE;
	}
	if (!n)
		printf("no relabels\n");
	for (i = 0; i < n; i++)
		printf("%4lld  %s  %s\n", r[i].id, r[i].at, r[i].detail);
	db_relabel_list_free(r, n);
	return EXIT_OK;
}

/* "2 runs and 12 summaries", "1 run" */
static void what_str(char *out, size_t size, size_t runs, size_t sums)
{
	char r[64] = "", m[64] = "";

	if (runs)
		snprintf(r, sizeof(r), "%zu run%s", runs, runs == 1 ? "" : "s");
	if (sums)
		snprintf(m, sizeof(m), "%zu summar%s", sums, sums == 1 ? "y" : "ies");
	snprintf(out, size, "%s%s%s", r, runs && sums ? " and " : "", m);
}

/* What a move or machine change did, on stdout; nothing changed (all of
 * it was there already) says so on stderr, and exits 1: nothing was
 * recorded. */
static int say_done(const char *verb, const struct db_relabel_count *c, const char *where,
		    const char *at)
{
	char what[160];

	if (!c->runs && !c->summaries) {
		fprintf(stderr, "kbench relabel: nothing %s: the %zu run%s or summar%s selected %s "
			"%s already\n", verb, c->unchanged, c->unchanged == 1 ? "" : "s",
			c->unchanged == 1 ? "y" : "ies", c->unchanged == 1 ? "is" : "are", at);
		return EXIT_UNCHANGED;
	}
	what_str(what, sizeof(what), c->runs, c->summaries);
	printf("%s %s %s", verb, what, where);
	if (c->unchanged)
		printf(" (%zu %s already)", c->unchanged, c->unchanged == 1 ? "was there" : "were there");
	putchar('\n');
	return EXIT_OK;
}

/* A word that is not one of relabel's commands (or lacks its
 * arguments): one line, with the nearest command when one is near. */
static int unknown_command(const char *word)
{
	static const char *const words[] = { "rename", "merge", "move", "machine" };
	struct spell sp;
	size_t k;

	spell_init(&sp, word);
	for (k = 0; k < ARRAY_SIZE(words); k++)
		spell_try(&sp, words[k]);
	fprintf(stderr, "kbench relabel: unknown or incomplete command '%s'", word);
	if (spell_best(&sp))
		fprintf(stderr, "; did you mean '%s'?", spell_best(&sp));
	fprintf(stderr, "\nrun 'kbench relabel --help' for its commands\n");
	return EXIT_USAGE;
}

/* What move and machine change: the --run ids (into *rid, malloc'd, the
 * caller frees it and *ids), --source, its --segment (LONG_MIN: not
 * given) and --from, into sel.  -1 after a message. */
static int relabel_selection(struct strlist *runs, const char *source, const char *from,
			     long segment, struct db_relabel_runs *sel, char ***ids, size_t *nids,
			     long long **rid)
{
	size_t i;

	cli_split_commas(runs, ids, nids);
	*rid = xcalloc(*nids + 1, sizeof(**rid));
	for (i = 0; i < *nids; i++) {
		long v;
		if (num_parse_long((*ids)[i], strlen((*ids)[i]), &v) < 0 || v <= 0) {
			fprintf(stderr, "kbench relabel: '%s' is not a run id\n", (*ids)[i]);
			return -1;
		}
		(*rid)[i] = v;
	}
	sel->runs = *rid;
	sel->nruns = *nids;
	sel->source = source;
	sel->from = from;
	if (segment != LONG_MIN && segment < 1) {
		/* 0 read as "no --segment" moved the whole source */
		fprintf(stderr, "kbench relabel: --segment takes a line number of at least 1, "
			"not %ld\n", segment);
		return -1;
	}
	if (segment == LONG_MIN)
		segment = 0;
	sel->segment_line = segment;
	if (segment && !source) {
		fprintf(stderr, "kbench relabel: --segment goes with --source\n");
		return -1;
	}
	return 0;
}

/* Run the command args[0..nargs) on db; the exit status. */
static int relabel_run(struct db *db, const char **args, size_t nargs,
		       const struct db_relabel_runs *sel, const char *to)
{
	struct db_relabel_count cnt;
	char where[512], at[512];
	struct kb_err err;
	int rc;

	kb_err_clear(&err);
	if (strcmp(args[0], "rename") == 0 && nargs == 3) {
		rc = db_relabel_rename(db, args[1], args[2], &err);
		if (rc == 0)
			printf("renamed %s to %s\n", args[1], args[2]);
	} else if (strcmp(args[0], "merge") == 0 && nargs == 3) {
		rc = db_relabel_merge(db, args[1], args[2], &err);
		if (rc == 0)
			printf("merged %s into %s\n", args[1], args[2]);
	} else if (strcmp(args[0], "move") == 0 && nargs == 1) {
		if (!sel->nruns && !sel->source) {
			fprintf(stderr, "kbench relabel: move needs --run or --source\n");
			return EXIT_USAGE;
		}
		rc = db_relabel_move(db, sel, to, &cnt, &err);
		snprintf(where, sizeof(where), "to %s", to ? to : "");
		snprintf(at, sizeof(at), "on %s", to ? to : "");
		if (rc == 0)
			return say_done("moved", &cnt, where, at);
	} else if (strcmp(args[0], "machine") == 0 && nargs == 2) {
		if (!sel->nruns && !sel->source) {
			fprintf(stderr, "kbench relabel: machine needs --run or --source\n");
			return EXIT_USAGE;
		}
		rc = db_relabel_machine(db, sel, args[1], &cnt, &err);
		snprintf(where, sizeof(where), "on %s", args[1]);
		if (rc == 0)
			return say_done("put", &cnt, where, where);
	} else {
		return unknown_command(args[0]);
	}
	if (rc < 0) {
		cli_report("relabel", &err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_relabel(int argc, char **argv)
{
	const char *dbpath = NULL, *to = NULL, *source = NULL, *from = NULL;
	struct strlist runs = { 0 };
	long segment = LONG_MIN;        /* not given */
	int do_list = 0;
	struct opt opts[] = {
		OPT_STRING("db", "PATH", &dbpath, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_STRING("to", "V", &to, "move: the variant the runs go to (made when new)"),
		OPT_LIST("run", "ID[,ID]", &runs, "move, machine: these runs (ids as in runs_v)"),
		OPT_STRING("source", "PATH|ID", &source, "move, machine: every run and summary of this source"),
		OPT_LONG("segment", "LINE", &segment,
			 "with --source: only the runs and summaries of the segment holding LINE"),
		OPT_STRING("from", "V", &from, "move, machine: only what is now on variant V"),
		OPT_FLAG("list", &do_list, "list every relabel made, oldest first"),
		OPT_END,
	};
	const struct cmd_usage u = { "relabel",
		"[--db PATH] rename OLD NEW | merge FROM INTO |\n"
		"       move --to V (--run ID,... | --source PATH|ID [--segment LINE]) [--from V] |\n"
		"       machine NAME (--run ID,... | --source PATH|ID [--segment LINE]) [--from V] | --list",
		"Fixes variants and machines after import.  Every change is recorded (kbench ls,\n"
		"relabel --list) and holds again when its source is imported with --replace.", opts };
	const char **args = NULL;
	size_t nargs = 0, nids = 0;
	char **ids = NULL;
	long long *rid = NULL;
	struct db_relabel_runs sel;
	struct db *db = NULL;
	struct kb_err err;
	int rc = opt_parse(&u, argc, argv, &args, &nargs), status = EXIT_USAGE;

	if (rc) {
		strlist_release(&runs);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	kb_err_clear(&err);
	memset(&sel, 0, sizeof(sel));
	if (relabel_selection(&runs, source, from, segment, &sel, &ids, &nids, &rid) < 0)
		goto done;
	if (do_list && nargs) {
		fprintf(stderr, "kbench relabel: --list takes no arguments ('%s')\n", args[0]);
		goto done;
	}
	if (!do_list && nargs == 0) {
		fprintf(stderr, "kbench relabel: say what to do: rename, merge, move, machine or --list\n");
		opt_usage(&u, stderr);
		goto done;
	}
	if (db_open(&db, cli_db_path(dbpath), &err) < 0) {
		cli_report("relabel", &err);
		goto done;
	}
	if (do_list) {
		status = list(db);
		goto done;
	}
	status = relabel_run(db, args, nargs, &sel, to);
done:
	if (db)
		db_close(db);
	cli_strings_free(ids, nids);
	free(rid);
	free(args);
	strlist_release(&runs);
	return status;
}
