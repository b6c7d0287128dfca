/*
 * cmd_init.c - `kbench init`: create or upgrade the store's schema, and
 * for a PostgreSQL store print the GRANTs a lab needs.
 *
 *   kbench init [--db STORE]
 */
#include "cli.h"
#include "../db/db.h"

#include <stdio.h>
#include <stdlib.h>

/* What a lab's admin pastes into psql: a writer and a reader role with
 * the rights kbench needs, on the tables there are and on those a later
 * kbench's migrations create.  Everything else is an SQL comment, so the
 * whole output can go through psql. */
static void print_grants(const struct db_init_result *r)
{
	const char *s = r->schema;

	printf("-- Roles for a lab: paste into psql as %s (the tables' owner) or a superuser.\n"
	       "-- kbench_writer imports, relabels and copies into the store; kbench_reader\n"
	       "-- runs ls, show, compare, regress, history, chart, report and export.\n", r->owner);
	/* roles belong to the cluster: another store there may have made them */
	printf("DO $$ BEGIN CREATE ROLE kbench_writer NOLOGIN;"
	       " EXCEPTION WHEN duplicate_object THEN NULL; END $$;\n"
	       "DO $$ BEGIN CREATE ROLE kbench_reader NOLOGIN;"
	       " EXCEPTION WHEN duplicate_object THEN NULL; END $$;\n");
	printf("GRANT CONNECT ON DATABASE %s TO kbench_writer, kbench_reader;\n", r->database);
	printf("GRANT USAGE ON SCHEMA %s TO kbench_writer, kbench_reader;\n", s);
	printf("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %s TO kbench_writer;\n", s);
	printf("GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA %s TO kbench_writer;\n", s);
	printf("GRANT SELECT ON ALL TABLES IN SCHEMA %s TO kbench_reader;\n", s);
	printf("-- Tables and sequences a later kbench creates (kbench init as %s) get the same:\n",
	       r->owner);
	printf("ALTER DEFAULT PRIVILEGES FOR ROLE %s IN SCHEMA %s\n"
	       "  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO kbench_writer;\n", r->owner, s);
	printf("ALTER DEFAULT PRIVILEGES FOR ROLE %s IN SCHEMA %s\n"
	       "  GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO kbench_writer;\n", r->owner, s);
	printf("ALTER DEFAULT PRIVILEGES FOR ROLE %s IN SCHEMA %s\n"
	       "  GRANT SELECT ON TABLES TO kbench_reader;\n", r->owner, s);
	printf("-- Then one login per test host and per person, for example:\n"
	       "--   CREATE ROLE nightly1 LOGIN PASSWORD 'secret' IN ROLE kbench_writer;\n"
	       "--   CREATE ROLE alice LOGIN PASSWORD 'secret' IN ROLE kbench_reader;\n");
}

int cmd_init(int argc, char **argv)
{
	const char *dbpath = NULL;
	const struct opt opts[] = {
		OPT_STRING("db", "STORE", &dbpath,
			   "the store: a SQLite file or a postgresql:// URI (default ./kbench.db or $KBENCH_DB)"),
		OPT_END,
	};
	const struct cmd_usage u = { "init", "[--db STORE]",
		"Creates the store's schema, or upgrades one an older kbench made, and says\n"
		"which version it has.  For a PostgreSQL store it prints the GRANTs for a\n"
		"writer and a reader role, to paste into psql.", opts };
	const char **args = NULL;
	size_t nargs = 0;
	struct db_init_result r;
	struct kb_err err;
	const char *pre;
	int rc = opt_parse(&u, argc, argv, &args, &nargs);

	if (rc) {
		free(args);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	free(args);
	if (nargs) {
		fprintf(stderr, "kbench init: takes no arguments (the store is --db STORE)\n");
		opt_usage(&u, stderr);
		return EXIT_USAGE;
	}
	kb_err_clear(&err);
	if (db_init(cli_db_path(dbpath), &r, &err) < 0) {
		cli_report("init", &err);
		return EXIT_USAGE;
	}
	/* a server's output goes through psql whole: the news as comments */
	pre = r.pg ? "-- " : "";
	if (r.before == 0)
		printf("%s%s: created the store, schema version %d\n", pre, r.name, r.after);
	else if (r.before < r.after)
		printf("%s%s: upgraded the schema from version %d to %d\n", pre, r.name, r.before, r.after);
	else
		printf("%s%s: schema version %d, up to date\n", pre, r.name, r.after);
	if (r.pg)
		print_grants(&r);
	else
		printf("SQLite has no roles: the file's permissions decide who reads and writes it\n"
		       "(writers need to write the file and its directory, for the -wal and -shm files).\n");
	return EXIT_OK;
}
