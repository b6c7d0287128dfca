/*
 * report.h - the plan of a report (`kbench report`): which sections it
 * has (one selection each), the one Benjamini-Hochberg family all their
 * comparisons form, and which sections get charts.  No printing; the
 * report model and its charts are render/report_build.h's.
 *
 *   struct an_report_plan p;
 *   an_report_plan_build(&p, db, &list, &q, &err);     the sections
 *   an_report_plan_narrow(&p, &list, limit, since);    --limit, --since
 *   for each p.sels[i]:  an_report_compare() or an_report_wide(), then
 *       an_report_add_table() / an_report_add_pairs()   (first pass)
 *   an_report_correct(&p);                             BH over the family
 *   an_report_give_pairs(), an_report_give_table()     q values back
 *   an_report_budget(&p, ...);                         the charts
 *   for each section in report order: an_report_again() (second pass)
 *   an_report_plan_release(&p);
 *
 * Functions that read the store return 0, or -1 with err set.
 */
#ifndef KB_AN_REPORT_H
#define KB_AN_REPORT_H

#include <stddef.h>

#include "../core/err.h"
#include "compare.h"
#include "wide.h"

struct buf;
struct db;
struct db_list;
struct db_placement;
struct db_prun;
struct an_pindex;

/*
 * One section's selection: a benchmark, the variants and baseline of the
 * report's selection, and its filters (config, and machine or post when
 * a comparable set adds them).  Every section is compared by
 * an_report_compare() and all of them form one BH family.
 */
struct an_rsel {
	char *title;            /* the section heading */
	char *bench;
	struct an_query q;      /* borrows from the report's query, or from below */
	char **vars;            /* a comparable set's variants (owned) */
	size_t nvars;
	const char *mach[1];    /* a machine set's machine */
	char *machine;          /* owned */
	int skip;               /* --since/--limit left it no variant */
};

/* One BH family: p values gathered table by table, each table's share
 * found again by its offset; after an_bh_family_correct() p holds the q
 * values. */
struct an_bh_family {
	double *p;
	size_t n, cap;
	int corrected;
};

/* Appends t's p values (an_table_pvalues order); returns their offset
 * (their count is f->n less it). */
size_t an_bh_family_add(struct an_bh_family *f, const struct an_table *t);
void an_bh_family_correct(struct an_bh_family *f);
/* Gives t its n q values from offset off (after the correction). */
void an_bh_family_give(const struct an_bh_family *f, struct an_table *t, size_t off, size_t n);
void an_bh_family_release(struct an_bh_family *f);

/* What the report keeps of one section between the passes: it cannot
 * keep every section's table, which is built again when written. */
struct an_rsection {
	size_t sel;             /* index into plan->sels */
	int built;              /* a table of its own (not a wide section's pairs) */
	size_t nrows;           /* its table's rows */
	size_t rank;            /* worse + better verdicts before the correction */
	size_t charts;          /* charts its table draws (counted by the caller) */
	size_t placement;       /* placement charts it draws when given charts */
	size_t qoff, np;        /* its table's p values in the family */
	size_t *pair_np;        /* a wide section's pairs' p values, one after another */
	size_t npairs;
	int want_charts;        /* budget: its table's charts, drawn when written */
	int charts_on;          /* budget: it got charts (placement ones too) */
};

struct an_report_plan {
	struct an_rsel *sels;
	size_t nsels;
	struct an_rsection *secs;       /* the sections made, in report order */
	size_t nsecs, capsecs;
	struct an_bh_family family;
	char **variants;                /* built sections' variants, as met (owned) */
	size_t nvariants, capvariants;
	size_t *order;                  /* budget: sections by chart rank */
};

/*
 * A report without --variants or --baseline compares what is comparable:
 * one section per benchmark and comparable set (a post's own variants;
 * the variants with global names on one machine), each against its own
 * first variant.  With --variants or --baseline, one section per
 * benchmark of list (q->bench: that one).  q must outlive the plan.
 */
int an_report_plan_build(struct an_report_plan *p, struct db *db, const struct db_list *list,
			 const struct an_query *q, struct kb_err *err);
/* --since and --limit: each section's variants first imported at or
 * after since (NULL: any), then the limit (0: any) newest of them; a
 * section left with none is skipped.  The --baseline stays. */
void an_report_plan_narrow(struct an_report_plan *p, const struct db_list *list, long limit,
			   const char *since);
void an_report_plan_release(struct an_report_plan *p);

/* --since WHEN (YYYY-MM-DD, with THH:MM or THH:MM:SS, a space for the T
 * too) into the form the store keeps ("2024-12-01T18:58"); -1 when it is
 * no such date. */
int an_report_since_parse(const char *s, char out[32]);

/* The comparison of one section, BH left to the family.  When the
 * report's baseline has no data in it, the section compares against its
 * first variant, and note says so. */
int an_report_compare(struct db *db, const struct an_rsel *s, struct an_table *t,
		      struct buf *note, struct kb_err *err);
/* A section of more variants than fit a table: the sparse comparison of
 * analyze/wide.h (each variant against the baseline). */
int an_report_wide(struct db *db, const struct an_rsel *s, struct an_wide *w,
		   struct kb_err *err);
/* The placement runs s selects (its benchmark, variants, config), in
 * load order, into *out (malloc'd; NULL: only counted); how many. */
size_t an_report_runs(const struct an_pindex *ix, const struct db_placement *pl,
		      const struct an_rsel *s, const struct db_prun ***out);

/* Worse and better verdicts of t. */
size_t an_report_verdicts(const struct an_table *t);

/* First pass: a section of selection sel with its own table t (its p
 * values join the family; charts: what it would draw), or with the pairs
 * of a wide section.  Return its an_rsection. */
struct an_rsection *an_report_add_table(struct an_report_plan *p, size_t sel,
					const struct an_table *t, size_t charts);
struct an_rsection *an_report_add_pairs(struct an_report_plan *p, size_t sel,
					const struct an_table *pairs, size_t npairs);
/* BH over the family; then the q values go back to the tables kept. */
void an_report_correct(struct an_report_plan *p);
void an_report_give_pairs(const struct an_report_plan *p, size_t i, struct an_table *pairs);
void an_report_give_table(const struct an_report_plan *p, size_t i, struct an_table *t);

/* Charts cost time and page: at most max (drawn already drawn), given to
 * the sections with the most worse and better verdicts first, then in
 * report order; sets order, want_charts and charts_on.  enabled 0: none. */
void an_report_budget(struct an_report_plan *p, size_t drawn, size_t max, int enabled);

/* Second pass: section i's table built again into t with its q values,
 * when it was built and released (0: t untouched, nothing to do; 1: t
 * built).  -1 with err when the store changed meanwhile. */
int an_report_again(struct db *db, const struct an_report_plan *p, size_t i, struct an_table *t,
		    struct kb_err *err);

#endif
