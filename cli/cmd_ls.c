/*
 * cmd_ls.c - `kbench ls`: what the store holds.
 */
#include "cli.h"
#include "../core/buf.h"
#include "../core/term.h"
#include "../db/db.h"
#include "../db/relabel.h"
#include "../ingest/mail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_ls(int argc, char **argv)
{
	const char *dbpath = NULL;
	int all = 0;
	const struct opt opts[] = {
		OPT_STRING("db", "PATH", &dbpath, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_FLAG("all", &all, "list every variant and source (default: the last 15 of each)"),
		OPT_END,
	};
	const struct cmd_usage u = { "ls", "[--db PATH] [--all]",
		"Counts what the store holds, then lists variants (with descriptions), machines,\n"
		"benchmarks with run counts, and sources.",
		opts };
	const char **args;
	size_t nargs, i;
	struct db *db = NULL;
	struct db_list l;
	struct kb_err err;
	int rc = opt_parse(&u, argc, argv, &args, &nargs);

	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	if (nargs) {
		fprintf(stderr, "kbench ls: unexpected argument '%s'\n", args[0]);
		free(args);
		return EXIT_USAGE;
	}
	free(args);
	kb_err_clear(&err);
	if (db_open_existing(&db, cli_db_path(dbpath), &err) < 0 || db_list(db, &l, &err) < 0) {
		cli_report("ls", &err);
		db_close(db);
		return EXIT_USAGE;
	}
	{
		long long runs = 0, samples = 0, summaries = 0;
		for (i = 0; i < l.nbenches; i++) {
			runs += l.benches[i].runs;
			samples += l.benches[i].samples;
			summaries += l.benches[i].summaries;
		}
		printf("Store: variants %zu, machines %zu, benchmarks %zu, sources %zu, "
		       "runs %lld, samples %lld, summaries %lld\n\n",
		       l.nvariants, l.nmachines, l.nbenches, l.nsources, runs, samples, summaries);
	}
	printf("Variants (%zu)\n", l.nvariants);
	i = 0;
	if (!all && l.nvariants > 15) {
		printf("  ... %zu earlier variants (kbench ls --all lists them)\n", l.nvariants - 15);
		i = l.nvariants - 15;
	}
	for (; i < l.nvariants; i++) {
		const struct db_variant *v = &l.variants[i];
		printf("  %-20s %5lld runs %4lld summaries", v->name, v->runs, v->summaries);
		if (v->kernel && strcmp(v->kernel, v->name) != 0)
			printf("  kernel %s", v->kernel);
		if (v->description && *v->description)
			printf("  %s", v->description);
		putchar('\n');
	}
	printf("\nMachines (%zu)\n", l.nmachines);
	for (i = 0; i < l.nmachines; i++)
		printf("  %-20s %5lld runs\n", l.machines[i].name, l.machines[i].runs);
	if (l.unknown_runs)
		printf("  %-20s %5lld runs  from %lld sources, each its own machine when the post\n"
		       "  %-20s             named its variants (compared only with itself)\n",
		       "(unknown)", l.unknown_runs, l.unknown_posts, "");
	printf("\nBenchmarks (%zu)\n", l.nbenches);
	for (i = 0; i < l.nbenches; i++) {
		const struct db_bench *b = &l.benches[i];
		printf("  %-20s %5lld runs (%lld failed) %7lld samples %4lld summaries %3lld variants\n",
		       b->benchmark, b->runs, b->failed, b->samples, b->summaries, b->variants);
	}
	printf("\nSources (%zu)\n", l.nsources);
	i = 0;
	if (!all && l.nsources > 15) {
		printf("  ... %zu earlier sources (kbench ls --all lists them)\n", l.nsources - 15);
		i = l.nsources - 15;
	}
	for (; i < l.nsources; i++) {
		const struct db_source *s = &l.sources[i];
		/* a file name on one line, whatever it holds */
		printf("  %4lld ", s->id);
		term_fputs(s->path, stdout);
		printf("  [%s] %lld runs %lld summaries, %lld bytes, sha256 %.12s, %s\n",
		       s->format, s->runs, s->summaries, s->size, s->sha256, s->imported_at);
		if (s->mail_from || s->mail_date || s->mail_subject) {
			struct buf by = BUF_INIT;
			mail_byline(s->mail_from, s->mail_date, s->mail_subject, &by);
			fputs("       ", stdout);
			term_fputs(buf_str(&by), stdout);
			putchar('\n');
			buf_release(&by);
		}
	}
	{
		struct db_relabel *rl;
		size_t nrl;
		if (db_relabel_list(db, &rl, &nrl, &err) < 0) {
			cli_report("ls", &err);
			db_list_release(&l);
			db_close(db);
			return EXIT_USAGE;
		}
		if (nrl) {
			printf("\nRelabels (%zu)\n", nrl);
			for (i = 0; i < nrl; i++)
				printf("  %s  %s\n", rl[i].at, rl[i].detail);
		}
		db_relabel_list_free(rl, nrl);
	}
	db_list_release(&l);
	db_close(db);
	return EXIT_OK;
}
