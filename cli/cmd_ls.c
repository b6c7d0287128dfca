/*
 * cmd_ls.c - `kbench ls`: what the store holds.
 */
#include "cli.h"
#include "../db/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_ls(int argc, char **argv)
{
	const char *dbpath = NULL;
	int all = 0;
	const struct opt opts[] = {
		OPT_STRING("db", "PATH", &dbpath, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_FLAG("all", &all, "list every source (default: the last 15)"),
		OPT_END,
	};
	const struct cmd_usage u = { "ls", "[--db PATH] [--all]",
		"Lists variants (with descriptions), machines, benchmarks with run counts, and sources.",
		opts };
	const char **args;
	size_t nargs, i;
	struct db *db;
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
		return EXIT_USAGE;
	}
	printf("Variants (%zu)\n", l.nvariants);
	for (i = 0; i < l.nvariants; i++) {
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
		printf("  %4lld %s  [%s] %lld runs %lld summaries, %lld bytes, sha256 %.12s, %s\n",
		       s->id, s->path, s->format, s->runs, s->summaries, s->size, s->sha256,
		       s->imported_at);
	}
	db_list_release(&l);
	db_close(db);
	return EXIT_OK;
}
