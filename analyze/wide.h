/*
 * wide.h - a comparable set with more variants than fit side by side (a
 * report's wide section: a result tree's hundreds of commits on a host,
 * thousands of numbered logs): its history per metric, and each
 * variant's comparison with the baseline wherever both have numbers.
 *
 *   struct an_wide w;
 *   if (an_wide_build(db, &q, ids, nids, baseline_id, &w, &err) < 0) ...
 *   ... w.hist[m].series[s] (analyze/history.h), w.pairs[k] (an_table) ...
 *   an_wide_release(&w);
 *
 * No rows x variants table is built: the history pools each variant's
 * runs per (benchmark, machine, config, metric) series, and each
 * candidate gets a small table of its own, variants {baseline, candidate},
 * one row per series where both have a point.  Its cells hold the same
 * statistics an_compare_build() computes for raw runs (run values, a
 * per-job metric as each run's job mean, an_describe_dir(), an_compare()); a
 * variant with only a published summary has its mean and no test.  The
 * pair tables are built with q.defer_bh: the caller runs an_tables_bh()
 * over them together with its other tables (one BH family).  The cost is
 * what the set holds: its samples, plus two cells per comparison.
 *
 * Derived metrics (elapsed_minus_hackbench, ...) are left out here: the
 * history is of stored metrics.
 */
#ifndef KB_AN_WIDE_H
#define KB_AN_WIDE_H

#include <stddef.h>

#include "../core/err.h"
#include "compare.h"
#include "history.h"

struct db;

struct an_wide {
	struct an_history *hist;	/* one per metric, in metric order */
	size_t nhist;
	struct an_table *pairs;		/* one per candidate with a comparison,
					 * in the order of ids */
	size_t npairs;
	size_t nvariants;		/* variants with a point in the history */
	char *baseline;			/* the baseline's name; NULL when it has
					 * no numbers in the set */
};

/*
 * q gives the benchmark (required), metrics (NULL = every stored metric
 * of the set), config filter, machines, better overrides and the test
 * options; ids[0..nids) the set's variants; baseline_id one of them.
 * Returns 0, or -1 with err set (database error).
 */
int an_wide_build(struct db *db, const struct an_query *q, const long long *ids, size_t nids,
		  long long baseline_id, struct an_wide *w, struct kb_err *err);
void an_wide_release(struct an_wide *w);

#endif
