/*
 * placement.h - NUMA placement anomalies of numa_test runs (and any run
 * stored with per-job node placement).  Pure: takes db/placement.h data,
 * returns per-run metrics and findings; no SQL, no printing.
 *
 * Per run:
 *   node spread   nodes_used = distinct main nodes of the jobs, against
 *                 nodes_possible = min(tasks, nnodes); max_per_node = the
 *                 largest jobs-per-node count, against even_share =
 *                 jobs / nodes_possible.
 *   moved jobs    moved_pct = share of jobs whose main node differs from
 *                 their initial node (or carry the '*' mark), and
 *                 moved_penalty_pct = mean user time of moved jobs against
 *                 jobs that stayed, percent (NaN when either group is empty).
 *   split jobs    split_pct = share of jobs whose largest per-node share is
 *                 below opts.split_below (default 90%).
 *   light load    tasks <= nnodes * cpus_per_node (default 4 CPUs per node,
 *                 as on the seed machines: the store does not know it).
 *   packed        light load and nodes_used < nodes_possible.
 *
 * Checks of a candidate against the baseline on the same machine at the
 * same task count (runs of a variant there are pooled; the run is the
 * unit of replication, never the job).  Each compares the candidate's
 * per-run values with the baseline's by the two-sided rank test over runs
 * (stats.h an_rank_test: Wilcoxon-Mann-Whitney, ties counted exactly --
 * nodes used is a small integer, so a t-test's normal theory does not
 * hold and constant sides are common).  With one run on either side there
 * is no test (p and q NaN).  No baseline run there: no check.
 *   light_load_packed  at light load: nodes used per run.  `worse` only
 *                      when the candidate uses fewer nodes than the
 *                      baseline by at least opts.spread_min nodes (mean
 *                      per run) and q <= alpha; using as few as the
 *                      baseline is `same`, spreading wider `better` (when
 *                      significant) or `inconclusive`, never `worse`.
 *   node_spread        the same above light load.
 *   moved_jobs         share of a run's jobs that moved, per run; `worse`
 *                      when q <= alpha and the mean share rose by at
 *                      least opts.share_min points.
 *   split_jobs         share of a run's split jobs; the same test and rule.
 * A check whose difference reaches its minimum but not alpha (or has no
 * test) is `inconclusive`; below the minimum it is `same`; significant
 * in the candidate's favour it is `better`.  (q = BH over the placement
 * tests of one build; the verdict uses q.)
 *
 * Evidence names the runs and shows jobs per node, e.g.
 *   "run 1 (ingoD7-59.stats, tasks=4): jobs per node 4/0/0/0, 1 of 4
 *    nodes used; baseline run 2 (stock59-stats): 2/1/1/0, 3 of 4 nodes"
 */
#ifndef KB_AN_PLACEMENT_H
#define KB_AN_PLACEMENT_H

#include <stddef.h>

#include "stats.h"

struct db_placement;

struct an_placement_opts {
	int cpus_per_node;	/* light load: tasks <= nnodes * this, when the
				 * machine's CPUs and nodes are not known (or
				 * cpus_per_node_given); default 4 */
	int cpus_per_node_given;	/* 1: the user's, over the machine's */
	double split_below;	/* a job is split when its max node % < this; 90 */
	double share_min;	/* moved/split: smallest rise that matters,
				 * percentage points; default 10 */
	double spread_min;	/* node spread: fewest nodes lost that matter; 0.5 */
	double alpha;		/* significance for the tests; default 0.05 */
	int across;		/* 1: runs of different machines are compared
				 * (the variants were asked for across
				 * machines); 0 (default): a candidate's runs
				 * only against the baseline's on the same
				 * machine (which runs to check at all is the
				 * caller's choice: regress keeps the machines
				 * where the baseline ran the benchmark) */
};

/* Metrics of one run.  Strings point into the db_placement the metrics
 * were computed from (it must outlive them) -- except in struct
 * an_placement returned by an_regress_build(), which owns copies. */
struct an_prun {
	long long run_id;
	long long variant_id;
	const char *variant, *benchmark, *config, *source;
	const char *machine;	/* machine key (db_prun's); NULL unknown */
	long tasks;
	int nnodes;
	size_t njobs;
	int *jobs_per_node;	/* nnodes counts of jobs by main node (owned) */
	int nodes_used, nodes_possible, max_per_node;
	double even_share;
	size_t nmoved, nsplit;
	double moved_pct, split_pct;
	double user_moved, user_stayed;	/* mean user time, s; NaN if none */
	double moved_penalty_pct;
	int cpus_per_node;	/* the light-load rule's: the machine's CPUs / nodes
				 * when the store knows them, else the option's */
	int cpn_machine;	/* 1: cpus_per_node is the machine's */
	int light, packed;
};

struct an_placement {
	struct an_prun *runs;	/* in db_placement order */
	size_t nruns;
	char **strings;		/* owned copies when detached (see above) */
	size_t nstrings;
	int borrowed;		/* a view: the runs' jobs_per_node belong to
				 * the an_placement it was taken from */
};

/* One placement check of one candidate at one task count. */
struct an_pfinding {
	const char *check;	/* "light_load_packed", "node_spread", ... */
	const char *variant, *baseline, *benchmark, *config;
	const char *machine;	/* the runs' machine key; NULL unknown or across */
	long tasks;
	enum an_verdict verdict;
	double base_value, value;	/* mean per run: nodes used, or share
					 * of the run's jobs in percent */
	double change_pct;		/* value - base_value in points (shares)
					 * or percent (node spread) */
	double p, q;
	size_t base_n, n;		/* runs on each side */
	char *evidence;			/* malloc'd, owned by the list */
	long long *runs;		/* candidate runs then baseline runs */
	size_t ncand_runs, nbase_runs;
};

struct an_pfindings {
	struct an_pfinding *v;
	size_t n;
	int across;		/* o->across of the checks */
};

void an_placement_opts_init(struct an_placement_opts *o);

/* Per-run metrics of every run in p.  Never fails (out of memory aborts). */
void an_placement_metrics(const struct db_placement *p,
			  const struct an_placement_opts *o,
			  struct an_placement *out);
/* A view of all's runs all->runs[pick[0..n)], in that order, sharing
 * their jobs_per_node (out must not outlive all; released as any other,
 * and an_placement_detach() makes it a copy of its own).  The metrics of
 * a run do not depend on the other runs, so a caller that looks at many
 * overlapping sets of one placement's runs computes them once. */
void an_placement_view(const struct an_placement *all, const size_t *pick, size_t n,
		       struct an_placement *out);
/* Copy every string the metrics borrow so that they outlive the
 * db_placement. */
void an_placement_detach(struct an_placement *m);
void an_placement_release(struct an_placement *m);

/* A job's main node, the one rule of the metrics and the charts: the
 * node the store names, else the node with the largest share of the
 * job's time (numa_test always names it; a row without it still has a
 * main node to draw and count); -1 when neither is known. */
struct db_pjob;
int an_pjob_main_node(const struct db_pjob *j, int nnodes);

/* "a/b/c/d" jobs per node of one run into out (always NUL-terminated). */
void an_prun_jobs_per_node(const struct an_prun *r, char *out, size_t n);

/* Findings of every candidate variant against baseline, machine by
 * machine (unless o->across) and task count by task count.  candidates NULL/0 = every variant other than baseline.
 * Every non-SAME check is returned (SAME ones are returned too, so that
 * callers can count comparisons).  Never fails. */
void an_placement_findings(const struct an_placement *m, const char *baseline,
			   const char *const *candidates, size_t ncandidates,
			   const struct an_placement_opts *o,
			   struct an_pfindings *out);
void an_pfindings_release(struct an_pfindings *f);

/*
 * The index of placement runs every caller looks runs up by (a report's
 * thousands of sections, regress's groups, the checks' groups): the runs
 * sorted by (variant, benchmark, machine, task count), each key's runs in
 * load order, so that a key's runs are one range found by binary search.
 * With across the machine is no part of the key.  The index borrows the
 * strings of what it was built from.
 */
struct an_pkey {
	const char *variant, *bench, *machine;
	long tasks;		/* as the metrics take it: tasks, else jobs */
	int depth;		/* fields compared: 1 variant, 2 and benchmark,
				 * 3 and machine, 4 and tasks */
};

struct an_pindex {
	struct an_pkey *keys;	/* per run, in load order */
	size_t *idx;		/* run indexes in key order */
	size_t n;
	int across;
};

/* Over the metrics of a placement, or over the stored runs (machines
 * apart).  Never fails. */
void an_pindex_init(struct an_pindex *ix, const struct an_placement *m, int across);
void an_pindex_init_db(struct an_pindex *ix, const struct db_placement *p);
void an_pindex_release(struct an_pindex *ix);
/* [*lo, *hi) of ix->idx: the runs of key k (its first k->depth fields). */
void an_pindex_range(const struct an_pindex *ix, const struct an_pkey *k, size_t *lo, size_t *hi);
/* [*lo, *hi) of ix->idx: the runs of one variant. */
void an_pindex_variant(const struct an_pindex *ix, const char *variant, size_t *lo, size_t *hi);

#endif
