/*
 * report_words.c - what the report says in words whatever its format,
 * for both backends (report.h): the methods footnote, and which rows of
 * a table are monitors (the NUMA ones shown in their own block).  A
 * leaf: the backends call in here, nothing here calls them or report.c.
 */
#include "report.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <stdlib.h>
#include <string.h>

void report_methods(struct buf *out, const struct report *r)
{
	const struct an_opts *o = &r->opts;

	buf_printf(out,
		   "Each cell is one variant x benchmark x configuration x metric: the mean and "
		   "sample standard deviation of the runs' values (per job for numa_test's per-job "
		   "user time), or the mean(sd) as published when only a summary table was "
		   "imported.  For a higher-is-better (throughput) metric the mean of the runs is "
		   "their harmonic mean, as mmtests' Hmean (marked 'h'; the arithmetic mean, marked "
		   "'a', when a value is <= 0).  When a summary gives no sd but its min, max and n, "
		   "sd is estimated as (max - min) / d2(n) and marked 'e'.\n\n");
	buf_printf(out,
		   "Change: %s against the baseline of each table%s.  The 95%% interval and "
		   "p-value come from %s; p-values are adjusted with Benjamini-Hochberg as one "
		   "family over all %zu comparisons of this report, every section together (q); "
		   "each comparison has that one q wherever it appears.  The numa_test "
		   "placement checks among the findings are tested on their own, over runs "
		   "(an exact rank test of each run's nodes used or share of moved or split "
		   "jobs; one run a side is no test) and adjusted as a family of their own.\n\n",
		   o->conv == AN_CONV_SPEED ? "speed, base / new - 1 for lower-is-better metrics "
					      "(the autonuma mails' %Change)" :
		   o->conv == AN_CONV_BETTER ? "better, the raw change with its sign flipped for "
					       "lower-is-better metrics (positive = improvement)" :
		   "raw, (new - base) / base of the means",
		   "", o->test == AN_TEST_MWU ?
		   "the Mann-Whitney U test where both sides have raw samples (Welch's t on "
		   "log values otherwise)" :
		   "Welch's t-test on log values (a ratio of geometric means; summaries via "
		   "the delta method)", r->family);
	buf_printf(out,
		   "Verdicts: better or worse when q < %g and |change| >= %g%% in the metric's "
		   "better direction (changed when the metric has none); same when the whole "
		   "interval lies within +-%g%%; inconclusive otherwise, with the runs per side "
		   "needed to resolve a %g%% change at the observed noise (CV) by Lehr's rule.\n\n",
		   o->alpha, o->delta, o->delta, o->delta);
	buf_printf(out,
		   "Marks after a value: N very noisy (CV > 15%%), n noisy (CV > 5%%), b bimodal, "
		   "o outliers (Grubbs' test at 4%% per cell, never dropped), e sd estimated, "
		   "f footnoted in the post (not tested unless --use-flagged), "
		   "d E-H of published cells (published E minus published H, sd unknown), "
		   "h harmonic mean, a arithmetic mean of a throughput metric (a value <= 0).");
}

int report_is_monitor(const char *metric)
{
	static const char *const prefixes[] = {
		"proc-vmstat.", "numa-vmstat.", "numa-numastat.", "numa-meminfo.", "numastat.",
		"numastat-p.", "memory--numa_stat.", "vmstat.",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (str_starts(metric, prefixes[i]))
			return 1;
	return 0;
}

/* A monitor metric about NUMA placement: what NUMA balancing patches
 * are judged by (hint faults, page migrations, local and remote
 * allocations), not a memory level. */
static int numa_monitor(const char *metric)
{
	static const char *const words[] = {
		"numa_", "pgmigrate_", "pgpromote_", "pgdemote_", "thp_migration_", "local_node",
		"other_node", "interleave_hit", "Numa_", "Local_Node", "Other_Node", "Interleave_Hit",
	};
	const char *key = strrchr(metric, '.');
	size_t i;

	key = key ? key + 1 : metric;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (str_starts(key, words[i]))
			return 1;
	return 0;
}

size_t report_split_monitors(const struct an_table *t, struct an_table *rest,
			     struct an_table *numa)
{
	size_t r, other = 0;

	*rest = *t;
	*numa = *t;
	rest->rows = xmalloc((t->nrows + 1) * sizeof(*rest->rows));
	numa->rows = xmalloc((t->nrows + 1) * sizeof(*numa->rows));
	rest->nrows = numa->nrows = 0;
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];
		if (!report_is_monitor(row->metric))
			rest->rows[rest->nrows++] = *row;
		else if (numa_monitor(row->metric))
			numa->rows[numa->nrows++] = *row;
		else
			other++;
	}
	return other;
}

void report_split_release(struct an_table *rest, struct an_table *numa)
{
	free(rest->rows);
	free(numa->rows);
	rest->rows = numa->rows = NULL;
	rest->nrows = numa->nrows = 0;
}
