/*
 * placement.h - numa_test job placement as stored: for every run that has
 * job rows, each job's initial node, main node, moved mark, user time and
 * percent of time on every node.  Read by the placement charts and the
 * placement anomaly checks.
 *
 * Strings and arrays are malloc'd and owned by struct db_placement;
 * db_placement_release() frees them.  Returns 0, or -1 with err set.
 */
#ifndef KB_DB_PLACEMENT_H
#define KB_DB_PLACEMENT_H

#include <stddef.h>

#include "db.h"

struct db_pjob {
	int job;
	int initial_node, main_node, moved;
	double user;            /* NaN when unknown */
	double *pct;            /* nnodes values (NaN where not stored); the
				 * run's jobs share one block, owned by
				 * jobs[0] (db_placement_release() frees it) */
};

struct db_prun {
	long long run_id;
	long long variant_id;
	char *variant, *benchmark, *config, *source;
	char *machine_key;      /* as db_qrun's: NULL when unknown */
	int machine_cpus, machine_nodes;        /* the machine's (lscpu, numactl -H); 0 unknown */
	int iteration;
	long tasks;             /* config tasks=N, or the job count */
	int nnodes;             /* node columns (max node + 1 over the run) */
	struct db_pjob *jobs;
	size_t njobs;
};

struct db_placement {
	struct db_prun *runs;   /* by variant id, tasks, run id */
	size_t nruns;
	/* The runs' strings point here, each distinct text once (a store's
	 * report holds every run's: a variant's name, a post's path and a
	 * configuration are the same in thousands of runs). */
	char **strings;
	size_t nstrings;
};

/* Load the runs that have job rows; variant / config (canonical string)
 * restrict the selection when not NULL. */
int db_placement_load(struct db *db, const char *variant, const char *config,
		      struct db_placement *out, struct kb_err *err);
/* Load the runs with job rows that sel selects (query.h; its metrics
 * are ignored).  The result may hold more than sel selects, as with
 * db_query_select(): callers filter. */
struct db_qsel;
int db_placement_select(struct db *db, const struct db_qsel *sel, struct db_placement *out,
			struct kb_err *err);
void db_placement_release(struct db_placement *p);

#endif
