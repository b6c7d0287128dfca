/*
 * seq.h - `kbench run --until-decided`: after each run, the candidate's
 * runs so far against a baseline's, on the same machine, decided under
 * the rules and threshold of `compare` (an_decide()) -- but at a level
 * that allows for looking again after every run.
 *
 * Why not compare's alpha at every look: testing after each run and
 * stopping at the first significant result makes a false alarm far more
 * likely than alpha (with 30 looks at 0.05 on equal distributions, about
 * one time in four or five).  The looks here spend alpha instead: the
 * look at n candidate runs (min_runs <= n <= max_runs) tests at
 *   alpha_n = alpha * min_runs / max_runs      for n = min_runs,
 *   alpha_n = alpha / max_runs                 for each later n,
 * which sum to alpha; by the union bound the chance that any look on
 * equal distributions says better or worse is at most alpha, however
 * the looks depend on each other (an alpha-spending rule with a linear
 * spending function, as Pocock's).  "same" is decided with the
 * interval at the same level, 1 - alpha_n, so it is as strict.  The
 * bound holds per metric (row); several metrics each keep theirs.
 * Each row's looks are indexed by its candidate runs, so a variant
 * continued in a later `kbench run` goes on spending from where it was.
 *
 * Reads the store through an_compare_build(); prints nothing.
 */
#ifndef KB_AN_SEQ_H
#define KB_AN_SEQ_H

#include <stddef.h>

#include "../core/err.h"
#include "stats.h"

struct db;

struct an_seq_opts {
	double alpha;           /* overall false-alarm level; default 0.05 */
	double threshold;       /* compare's delta, percent; default 1 */
	size_t min_runs, max_runs;      /* default 3, 30 */
};

void an_seq_opts_init(struct an_seq_opts *o);

/* The level of the look at n candidate runs (above); 0 before min_runs,
 * and past max_runs. */
double an_seq_alpha(const struct an_seq_opts *o, size_t n);

/* Decide one look: base[0..nb) against cand[0..nc) for a metric of
 * direction dir, at the level of the look at nc runs (an_compare() and
 * an_decide() with alpha and level 1 - alpha of an_seq_alpha()).
 * Before min_runs the verdict is INCONCLUSIVE. */
void an_seq_decide(const struct an_seq_opts *o, const double *base, size_t nb,
		   const double *cand, size_t nc, enum an_direction dir,
		   struct an_change *c);

/* One selected row of a look. */
struct an_seq_row {
	char *benchmark, *config, *metric;      /* owned */
	enum an_direction dir;
	size_t nbase, ncand;
	struct an_change chg;
};

/* One look at the store: every row of the selection. */
struct an_seq_look {
	struct an_seq_row *rows;
	size_t nrows;
	double alpha;           /* the level of the look at ncand runs (a row's
				 * own is an_seq_alpha() of its ncand) */
	int decided;            /* every row same, better or worse */
	int worse;              /* some row worse */
	/* When the two share no config of the benchmark but each ran one
	 * only (the baseline made faster with fewer loops): they are
	 * compared metric by metric, as asked, and this says so ("the
	 * configs differ: ..."; owned).  NULL otherwise. */
	char *note;
};

/*
 * Look at the store: the ok runs of variant cand against those of
 * baseline on machine (benchmark bench, metrics[0..nmetrics) or, when
 * none are given, every metric with a direction: neutral monitors are
 * charted, not waited for).  ncand: the candidate runs counted for the
 * level (the look's n).  Rows pair by config; when no config has runs
 * of both and each side ran exactly one, that one pair is compared and
 * out->note says so.  0, or -1 with err set (no such baseline, a
 * database error).  A selection with no row is not decided.
 */
int an_seq_look(struct db *db, const struct an_seq_opts *o, const char *bench,
		const char *machine, const char *baseline, const char *cand,
		const char *const *metrics, size_t nmetrics, size_t ncand,
		struct an_seq_look *out, struct kb_err *err);
void an_seq_look_release(struct an_seq_look *l);

#endif
