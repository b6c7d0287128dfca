/*
 * history.h - a metric along a history of variants, and its change points.
 *
 * Variants are put in order (kernel version, import time or name), each
 * variant's runs are pooled into one point, and change points are found by
 * E-divisive segmentation with a Student (Welch) t-test deciding each
 * split, as Apache Otava (formerly Hunter) does:
 *
 *   1. in a segment [a, b) of points, every split k (a < k < b) is scored
 *      by the energy statistic of Matteson & James (alpha = 1) between the
 *      pooled values of the points left of k and right of k, each side
 *      limited to `window` points next to the split;
 *   2. the best-scoring split is tested with Welch's t-test on the same two
 *      sides; it is a change point when p <= pvalue (default 0.001) and
 *      the medians differ by at least threshold percent (default 1);
 *   3. accepted splits divide the segment and both halves are searched
 *      again; a rejected split ends the search of that segment.
 *
 *   struct an_history_opts o;
 *   struct an_history h;
 *   an_history_opts_init(&o);
 *   o.metric = "time";  o.bench = "hackbench";
 *   if (an_history_build(db, &o, &h, &err) < 0) ...report err...
 *   ... h.series[s].points[i], h.series[s].changes[c] ...
 *   an_history_release(&h);
 *
 * One series per (benchmark, machine, config) that has the metric:
 * values of different machines or configurations are never pooled, and
 * a per-job metric contributes one value per run (the mean of its jobs).  Strings and arrays are owned
 * by struct an_history.  analyze/ never prints; the store is read through
 * db/query.h.
 */
#ifndef KB_AN_HISTORY_H
#define KB_AN_HISTORY_H

#include <stddef.h>

#include "../core/err.h"
#include "compare.h"
#include "stats.h"

struct db;

enum an_order {
	AN_ORDER_VERSION = 0,	/* kernel version of the variant (its kernel
				 * release, else a version in its name);
				 * variants without one follow in import order */
	AN_ORDER_IMPORTED,	/* variant id = first import */
	AN_ORDER_NAME		/* byte order of the name */
};

struct db_qdata;

struct an_history_opts {
	const char *metric;		/* required */
	const char *bench;		/* NULL = every benchmark with the metric */
	const struct an_kv *config;	/* all must match (as an_query) */
	size_t nconfig;
	enum an_order order;
	double pvalue;			/* default 0.001 */
	double threshold;		/* smallest change, percent; default 1 */
	size_t window;			/* points each side of a split; default 50 */
	const struct an_better *better;	/* direction overrides */
	size_t nbetter;
	const char *const *machines;	/* NULL/0 = every machine ("unknown" too) */
	size_t nmachines;
	const long long *variant_ids;	/* NULL/0 = every variant; else only these
					 * (a report's comparable set) */
	size_t nvariant_ids;
	const char *const *commits;	/* NULL/0: order above; else the history
					 * is these commits (full hashes) in this
					 * order, each variant at the commit its
					 * name stands for (an_commit_match(),
					 * version.h), variants that stand for
					 * none left out */
	size_t ncommits;
	const struct db_qdata *data;	/* NULL: loaded (the selection above);
					 * else what the caller loaded for this
					 * selection (any metrics among them: the
					 * others are skipped), borrowed */
};

/* One variant's pooled values. */
struct an_hpoint {
	long long variant_id;	/* variant.id */
	char *variant;
	char *version;		/* the version it was ordered by, or "" */
	size_t rank;		/* its place in the history order of every
				 * variant (the same across series) */
	double *values;		/* run values (per-job metrics: each run's job mean);
				 * a published summary contributes its mean */
	size_t n;
	size_t nruns;
	double mean, median;	/* mean: harmonic for a higher-is-better metric's
				 * runs when every value is > 0 (harmonic = 1),
				 * as compare's cells; else arithmetic */
	int harmonic;
};

/* A change point: the first point after the change is points[index]. */
struct an_hchange {
	size_t index;
	double before_median, after_median;	/* of the windows tested */
	double change_pct;	/* (after - before) / before * 100 of the medians */
	double p;		/* Welch two-sided */
	double t, df;
	double energy;		/* the split's E-divisive statistic */
	size_t n_before, n_after;	/* values in the tested windows */
	enum an_verdict verdict;	/* WORSE/BETTER by direction, else CHANGED */
};

struct an_hseries {
	char *benchmark, *config, *metric, *unit;
	char *machine;		/* the machine its runs ran on; NULL unknown */
	enum an_direction dir;
	struct an_hpoint *points;	/* in history order */
	size_t npoints;
	struct an_hchange *changes;	/* by index */
	size_t nchanges;
};

struct an_history {
	struct an_hseries *series;	/* by benchmark, then config */
	size_t nseries;
	struct an_history_opts opts;	/* as used (pointers cleared) */
};

void an_history_opts_init(struct an_history_opts *o);
/* The defaults, then one metric of a selection: its benchmark, config,
 * machines and --better (the rest of q is not history's). */
void an_history_opts_from_query(struct an_history_opts *o, const struct an_query *q,
				const char *metric);

/* Load and analyse.  Returns 0 (nseries may be 0 when nothing has the
 * metric), or -1 with err set (database error, no --metric, bad option
 * value).  On failure h is empty (safe to release). */
int an_history_build(struct db *db, const struct an_history_opts *o,
		     struct an_history *h, struct kb_err *err);
void an_history_release(struct an_history *h);

/* The pure core: change points of s->points[0..npoints) into s->changes
 * (replacing any), with s->dir giving the verdicts.  Never fails. */
void an_history_changes(struct an_hseries *s, const struct an_history_opts *o);

/* "version" / "imported" / "name"; parse returns -1 when unknown. */
const char *an_order_name(enum an_order o);
int an_order_parse(const char *s, enum an_order *o);

#endif
