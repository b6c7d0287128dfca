/*
 * alerts.h - a lab's regressions along its commits: change points of
 * every series, grouped by commit range into summaries, matched with
 * what earlier runs stored so that each is triaged once.
 *
 *   1. every series of the selection (machine x benchmark x config x
 *      metric) goes through history's detector (analyze/history.h: the
 *      E-divisive split decided by Welch's t-test, p <= pvalue and a
 *      change of threshold percent or more);
 *   2. the p of every accepted split is multiplied by the number of splits
 *      of its series (the split is the best of them: Bonferroni), then
 *      adjusted by Benjamini-Hochberg over every split history tested
 *      (one per series, two more per change point found): an alert is a
 *      split with q < alpha and min_points commits or more on each side
 *      (back to the change point before, on to the one after);
 *   3. an alert's commit range is last good .. first bad (the points
 *      either side of its split, in the one commit order of all series);
 *      alerts whose ranges overlap (share a commit) form one summary,
 *      across machines, benchmarks and metrics;
 *   4. an alert is the stored one of the same series whose first bad
 *      commit lies within `near` commits of its own (more data may move a
 *      change point by a commit); a summary is the stored summary of its
 *      alerts (the oldest when they were in several), else new.
 *
 *   struct an_alerts_opts o;  struct an_alerts a;
 *   an_alerts_opts_init(&o);  o.q = &query;
 *   if (an_alerts_build(db, &o, &a, &err) < 0) ...report err...
 *   if (an_alerts_save(db, &a, &err) < 0) ...
 *   ... a.summaries[i], a.alerts[a.summaries[i].alerts[k]] ...
 *   an_alerts_release(&a);
 *
 * Never pools machines: each machine's series is its own.  analyze/
 * never prints.
 */
#ifndef KB_AN_ALERTS_H
#define KB_AN_ALERTS_H

#include <stddef.h>

#include "../core/err.h"
#include "history.h"

struct db;

enum an_alert_state { AN_ALERT_NEW = 0, AN_ALERT_ACK, AN_ALERT_INVALID, AN_ALERT_FIXED };

/* "new", "acknowledged", "invalid", "fixed"; parse -1 when unknown. */
const char *an_alert_state_name(enum an_alert_state s);
int an_alert_state_parse(const char *s, enum an_alert_state *out);

struct an_alerts_opts {
	const struct an_query *q;	/* bench, metrics, config, machines,
					 * threshold, better; NULL = all */
	double pvalue;			/* history's split test; default 0.001 */
	double alpha;			/* q below this is an alert; default 0.05 */
	size_t window;			/* history's window; default 50 */
	size_t min_points;		/* commits each side of an alert; default 3 */
	size_t near;			/* same alert: first bad within this many
					 * commits; default 3 */
	const char *const *order;	/* NULL: the store's order (history's
					 * version order); else the commits in
					 * order (--git), variants matched by
					 * an_commit_match(), version.h) */
	size_t norder;
};

struct an_alert {
	const struct an_hseries *series;	/* borrowed from the result */
	size_t change;			/* index into series->changes */
	size_t good_rank, bad_rank;	/* positions in order[] */
	const char *good, *bad;		/* variant names (order[]) */
	double before, after;		/* medians of the tested windows */
	double change_pct;		/* after vs before, % */
	double lo_pct, hi_pct;		/* 95% Welch interval of the change of
					 * means, % of the mean before; NaN when
					 * it cannot be had */
	double p, q;
	enum an_verdict verdict;	/* WORSE, BETTER (by direction), CHANGED */
	long long id;			/* stored id (0 until saved) */
	size_t summary;			/* index into summaries */
};

struct an_alert_summary {
	size_t *alerts;			/* into an_alerts.alerts, largest |change| first */
	size_t nalerts;
	size_t good_rank, bad_rank;	/* the range of all its alerts */
	const char *good, *bad;
	char **machines;		/* where it moved, sorted */
	size_t nmachines;
	char **quiet;			/* machines with a series of the same
					 * benchmark, config and metric across
					 * the range that did not move, sorted */
	size_t nquiet;
	int worse;			/* some alert is a regression */
	long long id;			/* stored id (0 until saved) */
	int is_new;			/* no earlier run reported it */
	enum an_alert_state state;
	char *note, *fixed_by, *first_seen;	/* stored; NULL when none */
};

struct an_alerts {
	struct an_history *hist;	/* one per metric */
	size_t nhist;
	char **order;			/* the commit order: variant names */
	size_t norder;
	size_t nseries, ntests;		/* series searched, splits tested */
	struct an_alert *alerts;	/* by summary, then as listed */
	size_t nalerts;
	struct an_alert_summary *summaries;	/* by range */
	size_t nsummaries;
	struct an_alerts_opts opts;	/* as used (pointers cleared) */
};

void an_alerts_opts_init(struct an_alerts_opts *o);

/* Detect, group and match with the stored alerts.  0, or -1 with err
 * (database error, bad option).  On failure a is empty (safe to release). */
int an_alerts_build(struct db *db, const struct an_alerts_opts *o, struct an_alerts *a,
		    struct kb_err *err);
/* Store a's alerts and summaries (new ones created, ids filled in).  The
 * store must be open for writing. */
int an_alerts_save(struct db *db, struct an_alerts *a, struct kb_err *err);
void an_alerts_release(struct an_alerts *a);
/* How many summaries earlier runs stored, into *n. */
int an_alerts_stored(struct db *db, size_t *n, struct kb_err *err);

#endif
