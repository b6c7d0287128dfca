/*
 * regress.h - the findings model behind `kbench regress` (and the top of
 * `kbench report`): a flat, ordered list of verdicts against one baseline.
 *
 *   struct an_regress_opts o;
 *   struct an_regress r;
 *   an_regress_opts_init(&o);
 *   o.q.baseline = "3.9.0-mainline_v39+()";
 *   if (an_regress_build(db, &o, &r, &err) < 0) ...report err...
 *   for (i = 0; i < r.nfindings; i++) ... r.findings[i] ...
 *   an_regress_release(&r);
 *
 * Two kinds of finding:
 *   performance  one row x candidate cell of the comparison table
 *                (analyze/compare.h an_compare_build): the same statistics,
 *                q-values and verdicts as `kbench compare`.
 *   placement    a numa_test placement anomaly of a candidate at one task
 *                count (analyze/placement.h): node spread, light load packed
 *                onto fewer nodes, moved jobs, split jobs.
 *
 * Order of r.findings (the order every renderer prints):
 *   worse (placement rules first, then largest |change_pct|), better
 *   (likewise), changed
 *   (counters with no direction, largest first), inconclusive (fewest
 *   runs needed first), then same -- "same" findings are kept so that a
 *   JUnit report can list one test case per comparison; text and JSON
 *   output skip them.  Ties keep benchmark, config, metric order.
 *
 * Perf counters (cs, migrations, faults, page migrations, any metric whose
 * catalogue direction is "none") come out as `changed`, never `worse`,
 * unless the query sets a direction with q.better.
 *
 * Ownership: every string and array in struct an_regress is malloc'd and
 * owned by it; an_regress_release() frees all.  analyze/ never prints.
 */
#ifndef KB_AN_REGRESS_H
#define KB_AN_REGRESS_H

#include <stddef.h>

#include "../core/err.h"
#include "compare.h"
#include "placement.h"
#include "stats.h"

struct db;

enum an_finding_kind {
	AN_FINDING_PERFORMANCE = 0,
	AN_FINDING_PLACEMENT
};

/* One run that a finding rests on. */
struct an_finding_run {
	long long id;		/* runs_v.run_id */
	int is_baseline;	/* 1 = a baseline run, 0 = a candidate run */
};

struct an_finding {
	enum an_finding_kind kind;
	enum an_verdict verdict;	/* WORSE, BETTER, CHANGED, INCONCLUSIVE, SAME */
	char *benchmark;
	char *config;		/* canonical "k=v,..." ('' when none) */
	char *metric;		/* performance: the metric name; placement: the
				 * check, "light_load_packed", "node_spread",
				 * "moved_jobs" or "split_jobs" */
	char *unit;		/* '' when unknown; "%" / "nodes" for placement */
	char *machine;		/* where both ran (performance findings); NULL unknown
				 * or compared across machines as asked */
	char *base_machine;	/* compared across machines (as asked: see
				 * an_regress_opts.across_machines): the
				 * baseline's machines and the candidate's
				 * ("boxA", "boxA, boxB", "unknown
				 * machine"); NULL otherwise */
	char *cand_machine;
	char *variant;		/* the candidate */
	char *baseline;		/* the baseline variant */
	enum an_direction dir;	/* direction the verdict used */
	double base_value;	/* baseline mean (placement: the check's value) */
	double value;		/* candidate mean */
	double change_pct;	/* in the query's convention (raw/speed/better) */
	double ci_low, ci_high;	/* interval of change_pct; NaN when none */
	double p, q;		/* NaN when no test was possible */
	double runs_needed;	/* per side, when INCONCLUSIVE; else NaN */
	size_t base_n, n;	/* values on each side */
	unsigned flags;		/* AN_F_* of stats.h / compare.h */
	int by_source;		/* the verdict is the source's own: kbench could
				 * not test (a published number without n) and
				 * the table marks the change significant ('*'),
				 * against this very baseline */
	char *evidence;		/* one line or a few, human-readable: the runs,
				 * jobs per node, notes; never NULL */
	struct an_finding_run *runs;	/* baseline and candidate runs involved;
					 * may be empty for published summaries */
	size_t nruns;
};

struct an_regress_opts {
	struct an_query q;		/* selection, baseline, conv, test,
					 * threshold, alpha, better */
	const char *const *candidates;	/* NULL/0 = every other variant */
	size_t ncandidates;
	int no_performance;		/* 1 = skip performance findings */
	int no_placement;		/* 1 = skip placement findings */
	int own_verdicts;		/* 1 = never take a published table's
					 * own verdict where kbench cannot test */
	int across_machines;		/* 1 = a candidate with no run on the
					 * baseline's machines (for a benchmark)
					 * is compared as the table allows, with
					 * a warning; 0 = that is an error (see
					 * an_regress_build) */
	struct an_placement_opts placement;
	int lean;			/* 1 (a report): of each verdict only the
					 * first 64 findings are kept, the rest
					 * counted (nworse, ...: all of them);
					 * performance findings carry no run ids,
					 * placement ones 8 of each side's;
					 * r.placement stays empty */
	const struct db_placement *pl;	/* the selection's runs with job rows,
					 * when the caller has them (a superset:
					 * they are filtered); NULL: loaded */
};

struct an_regress {
	char *baseline;			/* resolved baseline name */
	struct an_finding *findings;	/* ordered as above */
	size_t nfindings;
	size_t nworse, nbetter, nchanged, ninconclusive, nsame;
	size_t nplacement[4];		/* of the worse, better, changed and
					 * inconclusive ones: placement checks */
	size_t ndropped[2][5];		/* lean: not kept, by kind (performance,
					 * placement) and verdict (worse, better,
					 * changed, inconclusive, same); counted
					 * above */
	struct an_opts opts;		/* conv, test, alpha, delta used */
	char **warnings;		/* said above the findings: what was
					 * compared across machines, or left
					 * out for want of a shared one */
	size_t nwarnings;
	struct an_placement placement;	/* per-run placement metrics of every
					 * variant in the selection (for the
					 * report's heatmaps); empty with
					 * no_placement */
};

/* Defaults: an_query_init(), every candidate, both kinds,
 * an_placement_opts_init(). */
void an_regress_opts_init(struct an_regress_opts *o);

/* Build the findings.  Returns 0 (possibly with no findings), or -1 with
 * err set: database error, unknown baseline or candidate, bad option value
 * (as an_compare_build).  On failure r is empty (safe to release).
 *
 * Machines: a candidate is compared with the baseline on the machines
 * they share; its runs on a machine the baseline lacks are not compared.
 * When, for some benchmark, a candidate and the baseline share no machine
 * and one of them names one (the other may name none: kbench cannot tell),
 * that is an error naming the variants and their machines, unless
 * o->across_machines: then the comparison is what the table makes of it
 * (variants on one machine each, none shared, are compared across them;
 * otherwise the candidate is left out) and r->warnings says which.  Where
 * neither side names a machine (a post's own variants), nothing changes. */
int an_regress_build(struct db *db, const struct an_regress_opts *o,
		     struct an_regress *r, struct kb_err *err);
/*
 * The same, a few tables at a time (a store's report, which cannot keep
 * every section's table): each call adds tables as sections (each against
 * its own baseline); the end orders everything as one
 * an_regress_from_tables() over all the tables would (r is then owned by
 * the caller; a is emptied).  Tables need only live for their call.
 */
struct an_regress_acc {
	struct an_regress perf, plac;	/* performance, placement findings so far */
	struct an_pindex *pix;		/* o->pl's runs indexed (placement.h) */
	struct an_placement *pm;	/* the metrics of each of o->pl's runs */
};
void an_regress_acc_init(struct an_regress_acc *a);
int an_regress_acc_add(struct db *db, const struct an_regress_opts *o, struct an_regress_acc *a,
		       const struct an_table *const *tables, size_t ntables, struct kb_err *err);
void an_regress_acc_end(const struct an_regress_opts *o, struct an_regress_acc *a,
			struct an_regress *r);
void an_regress_acc_release(struct an_regress_acc *a);

/* How many findings have verdict v (nworse, ...; with lean, more than
 * r.findings holds). */
size_t an_regress_count(const struct an_regress *r, enum an_verdict v);
void an_regress_release(struct an_regress *r);

/* The same findings from comparisons already built (a report's sections,
 * one BH family across them): each table's cells become performance
 * findings with the table's q-values and verdicts, unchanged; placement
 * checks as an_regress_build().  The baseline is o->q.baseline, else
 * the first table's. */
int an_regress_from_tables(struct db *db, const struct an_regress_opts *o,
			   const struct an_table *const *tables, size_t ntables,
			   struct an_regress *r, struct kb_err *err);

/* "performance" / "placement" (static strings). */
const char *an_finding_kind_name(enum an_finding_kind k);

/* 1 when the finding counts as a regression (verdict WORSE). */
int an_finding_is_regression(const struct an_finding *f);

#endif
