/*
 * compare.h - the comparison result model: a table of rows
 * (benchmark x config x metric) by cells (one per variant), each with its
 * descriptive statistics and its change against a baseline variant.
 *
 *   struct an_query q;
 *   struct an_table t;
 *   an_query_init(&q);
 *   q.bench = "hackbench";  q.baseline = "A";
 *   if (an_compare_build(db, &q, &t, &err) < 0) ...report err...
 *   for (r = 0; r < t.nrows; r++)
 *       for (v = 0; v < t.nvariants; v++)
 *           ... t.rows[r].cells[v] ...
 *   an_table_release(&t);
 *
 * What goes into a cell (variant x machine x benchmark x config x metric):
 *   - the ok runs' samples of that metric: run-level samples give one
 *     value per run; job-level samples (numa_test per-job "user") give
 *     one value per run too, the mean of its jobs (the jobs of one run
 *     share its boot, disturbance and placement: the run is the unit of
 *     replication), with the jobs' sd within runs kept as a descriptive;
 *
 * Machines: runs of different machines are never pooled.  Each row
 * belongs to one machine (row->machine); a post's own variants on an
 * unknown machine are on "unknown@<post>".  When the variants asked for
 * (q.variants or q.baseline given) share no machine and each ran on one,
 * they are compared across machines as asked, row->machine is NULL and
 * t->warning says so.
 *   - derived metrics (see an_derive_metric_names) computed per run, then
 *     summarised like any stored metric;
 *   - otherwise a published summary (mean, sd, n, min, max); when several
 *     summaries exist for the same cell the last imported one is used.
 * When a variant has both raw samples and a summary for a cell, the raw
 * samples win and the cell carries AN_F_RAW_PREFERRED (a note says so) --
 * unless the summary's n exceeds the runs stored raw (a mail quoting one
 * run of a 5-iteration average): then the summary is used, with a note.
 * --metric naming both elapsed and hackbench brings elapsed_minus_hackbench.
 *
 * Verdicts: as an_decide(), under the row's direction, whatever the
 * direction: CHANGED (no direction) needs the same test as BETTER and
 * WORSE, so too few values for any test is INCONCLUSIVE (flag TOO_FEW,
 * note) for every metric, never a verdict by the size of the change.
 * runs_needed sizes for max(delta, |raw|), the change actually seen.
 *
 * Baseline: q.baseline, or else the first variant of the table -- the
 * first of q.variants when given, otherwise the lowest variant id (import
 * order) among the variants that have data in the selection.
 *
 * Direction: the metric catalogue's `better` for (benchmark, metric),
 * falling back to ('', metric), then to NONE; q.better overrides.
 * A raw cell of a higher-is-better row has the harmonic mean of its
 * values (AN_F_HMEAN; AN_F_HMEAN_NONPOS and the arithmetic mean when a
 * value is <= 0), as mmtests' Hmean: an_describe_dir().
 *
 * q-values: Benjamini-Hochberg over every comparison in the table (all
 * rows, all non-baseline cells with a p-value), then verdicts decided
 * again (analyze/stats.h an_bh_changes()).
 *
 * Layering: reads the store only through db/query.h; never prints.
 */
#ifndef KB_AN_COMPARE_H
#define KB_AN_COMPARE_H

#include <stddef.h>

#include "../core/err.h"
#include "query.h"
#include "stats.h"

struct db;

/* Cell flags beyond the AN_F_* of stats.h (same .flags word). */
#define AN_F_RAW_PREFERRED	0x10000u /* raw samples used; a summary was ignored */
#define AN_F_DERIVED		0x20000u /* metric computed by kbench, not stored */
#define AN_F_JOBS		0x40000u /* values are per job, not per run */
#define AN_F_FOOTNOTED		0x80000u /* a published cell the post marks (footnote):
					  * not tested unless use_flagged */
#define AN_F_FROM_SUMMARIES	0x100000u /* derived from published cells (E - H of
					   * the published means), sd unknown */
#define AN_F_AMBIGUOUS		0x200000u /* a published cell its source gives two
					   * values for: the last shown, its change
					   * not tested (inconclusive) */

/* Where a cell's numbers came from. */
enum an_origin {
	AN_ORIGIN_NONE = 0,	/* no data: the cell is empty */
	AN_ORIGIN_SAMPLES,	/* raw samples (values[] holds them) */
	AN_ORIGIN_SUMMARY	/* a published summary (values == NULL) */
};

struct an_cell {
	enum an_origin origin;
	int is_baseline;
	struct an_desc d;	/* descriptive statistics; d.flags = AN_F_* */
	double *values;		/* raw values in run/job order (for charts);
				 * NULL for summaries; owned by the table */
	size_t nvalues;
	size_t nruns;		/* runs that contributed (0 for summaries) */
	size_t njobs;		/* per-job metric: jobs behind the run means */
	double job_sd;		/* ... and their sd within runs (pooled); NaN */
	int has_change;		/* chg valid: not baseline, both sides have data */
	struct an_change chg;	/* vs the baseline cell of the same row */
	unsigned flags;		/* d.flags | chg.flags | AN_F_RAW_PREFERRED ... */
	char *note;		/* why a verdict is what it is, or NULL; owned */
	/* The published table's own verdict, when the cell is a published
	 * summary that carries one (mmtests' "*   3.30%*", the robot's
	 * %change): its change in % against the table's own baseline column,
	 * as printed (NaN when only a mark), and its mark ("" for none; owned). */
	int published;
	double pub_change;
	char *pub_mark;
};

struct an_row {
	char *benchmark;
	char *config;		/* canonical "k=v,k=v", '' when none */
	char *metric;
	char *machine;		/* where its runs ran: the machine, "unknown@<post>",
				 * or NULL (unknown, or one table across machines) */
	char *unit;		/* '' when unknown */
	enum an_direction dir;	/* after --better overrides */
	int derived;		/* metric computed by kbench */
	struct an_cell *cells;	/* nvariants cells, in table variant order */
};

struct an_variant {
	long long id;
	char *name, *description;	/* description may be NULL */
};

/* Rows are ordered by benchmark, then config (natural order, so that
 * groups=10 < groups=25 < groups=100), then metric (q.metrics order, else
 * the order metrics first appear in the store, derived metrics last). */
struct an_table {
	struct an_variant *variants;
	size_t nvariants;
	size_t baseline;	/* index into variants */
	int use_flagged;	/* footnoted cells were tested (an_query.use_flagged) */
	struct an_row *rows;
	size_t nrows;
	struct an_opts opts;	/* conv, test, alpha, delta used (dir unused) */
	size_t ncompared;	/* comparisons that entered BH (the family) */
	size_t nmachines;	/* distinct row machines (NULL counts as one) */
	char *warning;		/* said above the table, or NULL: the variants asked
				 * for ran on different (or unknown) machines */
	int defer_bh;		/* q.defer_bh: no BH run yet */
	int across;		/* machines differ and were compared as asked:
				 * rows pool the machines (see warning) */
};

/* Build the table for q.  Returns 0 (possibly with nrows == 0 when
 * nothing matched), or -1 with err set: database error, unknown variant
 * in q.variants or q.baseline, baseline not in the selection, a bad
 * option value.  On failure t is empty (safe to release). */
int an_compare_build(struct db *db, const struct an_query *q, struct an_table *t,
		     struct kb_err *err);
void an_table_release(struct an_table *t);
/* t's test options (convention, test, alpha, threshold, use_flagged) as q
 * asks them. */
void an_table_opts(struct an_table *t, const struct an_query *q);

/* Benjamini-Hochberg over every comparison of tables[0..n) as one family
 * (a report's sections), then verdicts and notes decided with the q
 * values; each table's ncompared becomes the family size.  For tables
 * built with q.defer_bh; an_compare_build() runs it on its own table
 * otherwise. */
void an_tables_bh(struct an_table *const *tables, size_t ntables);
/* The same in two steps, for a caller that cannot keep every table at
 * once (a store's report): the p values of t's tests, appended to *p
 * (xgrow()n), in the order an_tables_bh() takes them; returns how many.
 * Then, after an_bh() over all of them, t's share of the q values (as
 * many as it gave) and the family size: verdicts and notes decided
 * again, as an_tables_bh() does. */
size_t an_table_pvalues(const struct an_table *t, double **p, size_t *n, size_t *cap);
void an_table_set_q(struct an_table *t, const double *q, size_t nq, size_t family);

/* benchstat's geomean row: the geometric mean of variant v's ratios
 * new/base (1 + raw/100 of the means) over the rows rows[0..n) of t in
 * which v has a change against the baseline (has_change, a ratio > 0;
 * untested footnoted cells and empty cells do not enter, every verdict
 * does).  The rows must share one metric (one direction).  Returns the
 * geomean as a percent change in t's convention, NaN when no row enters;
 * *used counts the rows that entered.  A descriptive, never tested. */
double an_geomean_change(const struct an_table *t, const size_t *rows, size_t n, size_t v,
			 size_t *used);

/* Machine keys (db_qrun.machine_key: a name, "unknown@<post>" or NULL)
 * in strcmp order, NULL first (whether one is selected: query.h). */
int an_machine_cmp(const char *a, const char *b);
/* The order of rows' configurations: digit runs compare as numbers
 * (tasks=8 < tasks=16), the rest bytewise. */
int an_natural_cmp(const char *a, const char *b);

/* Names for output (static strings; the direction, convention and test
 * names and their parsers are in query.h). */
const char *an_origin_name(enum an_origin o);		/* none/samples/summary */

/* Flag names, lowest bit first: "noisy", "very_noisy", "outliers",
 * "bimodal", "summary_only", "sd_estimated", "too_few", "zero_var",
 * "ties", "harmonic_mean", "arithmetic_nonpositive", "raw_preferred",
 * "derived", "jobs", "footnoted", "from_summaries".  Fills up to max names
 * into out and returns how many flags are set. */
size_t an_flag_names(unsigned flags, const char **out, size_t max);

/* Derived metrics ------------------------------------------------------- */

/* Per-run derived values of one numa_test run (analyze/derive.c):
 *   elapsed_minus_hackbench  elapsed - hackbench (when not stored)
 *   user_moved               mean user time of jobs marked moved ('*')
 *   user_stayed              mean user time of jobs that stayed
 *   moved_pct                share of jobs that moved, percent
 * NaN when a value cannot be computed (no jobs, no moved job, ...). */
struct an_derived {
	double elapsed_minus_hackbench;
	double user_moved, user_stayed, moved_pct;
};

/* One numa_test job as the derivation needs it. */
struct an_job {
	int moved;		/* the '*' mark: ended away from its initial node */
	double user;		/* NaN when unknown */
};

/* Compute *out for one run; elapsed / hackbench NaN when not stored. */
void an_derive_numa_run(double elapsed, double hackbench, const struct an_job *jobs,
			size_t njobs, struct an_derived *out);

/* Names of the derived metrics, in the order above; NULL-terminated. */
const char *const *an_derive_metric_names(void);

#endif
