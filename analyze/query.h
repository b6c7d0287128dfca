/*
 * query.h - the selection: what a verb compares, charts, reports or
 * tests (`struct an_query`), the parsers of its values and the one rule
 * that says whether a run (or a published summary) is in it.
 *
 *   struct an_query q;
 *   an_query_init(&q);
 *   q.bench = "hackbench";
 *   ...an_kv_parse(), an_better_parse(), an_list_split() fill the lists...
 *   if (an_query_match(&q, r->config, r->machine_key)) ...the run is in...
 *
 * Every verb fills its an_query through cli/select.h, so that a typo in
 * --config or --better gets the same message whatever the verb, and every
 * module of analyze/ decides "is this run selected" here.
 *
 * Layering: plain C over strings; the config rule is ingest/record.h's
 * canonical "k=v,k=v" matcher.  Never prints.
 */
#ifndef KB_AN_QUERY_H
#define KB_AN_QUERY_H

#include <stddef.h>

#include "stats.h"

/* "K=V" filter on a run's (or summary's) configuration. */
struct an_kv {
	const char *key, *value;
};

/* "--better METRIC=lower|higher|none" */
struct an_better {
	const char *metric;
	enum an_direction dir;
};

/* What to compare.  Every pointer is borrowed for the duration of
 * an_compare_build() only (the table copies what it keeps). */
struct an_query {
	const char *bench;		/* NULL = every benchmark */
	const char *const *metrics;	/* NULL/0 = every metric, else this order */
	size_t nmetrics;
	const struct an_kv *config;	/* all must match; key absent = no match */
	size_t nconfig;
	const char *const *variants;	/* NULL/0 = every variant with data, by id;
					 * else exactly these, in this order */
	size_t nvariants;
	const char *const *machines;	/* NULL/0 = every machine; "unknown" = runs
					 * whose machine is not known */
	size_t nmachines;
	const char *baseline;		/* NULL = first variant (see compare.h) */
	enum an_convention conv;	/* raw (default), speed, better */
	enum an_test test;		/* welch (default), mwu */
	double threshold;		/* delta, percent; default 1 */
	double alpha;			/* default 0.05 */
	const struct an_better *better;	/* direction overrides */
	size_t nbetter;
	int no_derived;			/* 1 = skip derived metrics */
	int use_flagged;		/* 1 = test footnoted published cells too */
	int defer_bh;			/* 1 = q stays p and verdicts use p: the
					 * caller runs an_tables_bh() over this
					 * and other tables, one BH family */
	int baseline_rows_only;		/* 1 = only the rows where the baseline has
					 * data (all a verdict needs: regress);
					 * nmachines still counts every row's */
	/* The loaders' narrowing (qload.c, db_qsel.near): > 0 loads only
	 * the runs and summaries that may share a row with this variant id.
	 * Set by an_compare_build() and regress for a baseline alone; a
	 * caller leaves it 0. */
	long long near;
	int near_config, near_any_machine;
};

/* Defaults: everything, raw convention, Welch, threshold 1, alpha 0.05. */
void an_query_init(struct an_query *q);

/* Parsers ---------------------------------------------------------------- */

/* Names for output (static strings). */
const char *an_direction_name(enum an_direction d);	/* lower/higher/none */
const char *an_convention_name(enum an_convention c);	/* raw/speed/better */
const char *an_test_name(enum an_test t);		/* welch/mwu */
/* Parse the names above; return 0, or -1 when s is not one of them. */
int an_direction_parse(const char *s, enum an_direction *d);
int an_convention_parse(const char *s, enum an_convention *c);
int an_test_parse(const char *s, enum an_test *t);

/* "K=V" in str into kv (the first '=' becomes '\0'; kv points into str,
 * so a value may hold '=' itself).  Returns -1, str untouched, when there
 * is no '=' or the key is empty. */
int an_kv_parse(char *str, struct an_kv *kv);
/* "METRIC=DIR" in str into b, as an_kv_parse(); -1 also for a DIR other
 * than higher, lower or none. */
int an_better_parse(char *str, struct an_better *b);
/* s split on commas, empty pieces dropped, appended to *out (*n entries)
 * as malloc'd copies (*out xrealloc'd; the caller frees both). */
void an_list_split(const char *s, char ***out, size_t *n);

/* The match rule ---------------------------------------------------------- */

/* A canonical config string ("k=v,k=v", '\\' escapes; NULL is "") passes
 * the filters kv[0..n): every key named must be present, and a key given
 * several times matches any of its values.  n 0 passes everything. */
int an_config_match(const struct an_kv *kv, size_t n, const char *config);
/* A machine key (db_qrun.machine_key: a name, "unknown@<post>" or NULL)
 * passes a --machine list: n 0 passes any; "unknown" takes NULL and
 * every "unknown@<post>". */
int an_machine_selected(const char *const *machines, size_t n, const char *key);
/* A variant (by display name) passes a --variants list: n 0 passes any. */
int an_variant_selected(const char *const *variants, size_t n, const char *name);
/* metric is in q's metrics (none named: every metric).
 * elapsed_minus_hackbench also goes with elapsed and hackbench named
 * together: the mails say to compare E-H, not E. */
int an_query_metric_selected(const struct an_query *q, const char *metric);
/* A run (or summary) with this config and machine key passes q's
 * --config and --machine filters. */
int an_query_match(const struct an_query *q, const char *config, const char *machine_key);

#endif
