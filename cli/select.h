/*
 * select.h - the selection options shared by the verbs that read a
 * selection (compare, export, chart, report, regress, history):
 *
 *   --db PATH  --bench NAME  --metric M[,M...]  --config K=V (repeatable)
 *   --variants V[,V...]  --machine NAME[,NAME...]  --baseline V
 *   --change raw|speed|better  --test welch|mwu  --threshold PCT  --alpha A
 *   --better M=DIR  --no-derived  (and --use-flagged, --candidate)
 *
 *   struct cli_select s;
 *   struct opt opts[] = { CLI_SELECT_OPTS(&s), ...verb's own..., OPT_END };
 *   cli_select_init(&s);
 *   ...opt_parse...
 *   if (cli_select_to_query(&s, NULL, 0, &q, &err) < 0) ...usage error...
 *   ...an_compare_build(db, &q, ...)...
 *   cli_select_release(&s);
 *
 * --metric, --variants, --machine, --config and --better may be repeated
 * and also split on commas.  The query borrows arrays owned by the
 * cli_select, so release it only after the last use of the query.
 */
#ifndef KB_CLI_SELECT_H
#define KB_CLI_SELECT_H

#include "../analyze/compare.h"
#include "../render/chart_model.h"
#include "opt.h"

struct cli_select {
	const char *db, *bench, *baseline, *change, *test;
	struct strlist metric, config, variants, better, machine;
	double threshold, alpha;        /* NaN = not given */
	int no_derived;
	int use_flagged;                /* --use-flagged (compare, regress, report) */

	/* Filled by cli_select_to_query(); owned here. */
	char **split;                   /* copies the comma splits point into */
	size_t nsplit, splitcap;
	const char **metric_v, **variant_v, **machine_v;
	size_t nmetric_v, nvariant_v, nmachine_v;
	struct an_kv *kv;
	size_t nkv;
	struct an_better *bt;
	size_t nbt;
};

/*
 * The selection's options, each declared once here with its help, for
 * every verb (compare, export, chart, report, regress, history).  A verb
 * takes CLI_SELECT_OPTS whole, or the single options it has a use for;
 * cli_select_to_query() then reads them all by one set of rules.
 */
#define CLI_OPT_DB(s) \
	OPT_STRING("db", "PATH", &(s)->db, "the store (default ./kbench.db or $KBENCH_DB)")
#define CLI_OPT_BENCH(s) \
	OPT_STRING("bench", "NAME", &(s)->bench, "one benchmark (default: all)")
#define CLI_OPT_METRIC(s) \
	OPT_LIST("metric", "M[,M]", &(s)->metric, "metrics, in this order (default: all)")
#define CLI_OPT_CONFIG(s) \
	OPT_LIST("config", "K=V,...", &(s)->config, "only configs with K=V (same key repeated: any of the values)")
#define CLI_OPT_VARIANTS(s) \
	OPT_LIST("variants", "V[,V]", &(s)->variants, "these variants, in this order")
/* regress names the variants it tests against the baseline candidates */
#define CLI_OPT_CANDIDATE(s) \
	OPT_LIST("candidate", "V[,V]", &(s)->variants, "candidates (default: every other variant)")
#define CLI_OPT_MACHINE(s) \
	OPT_LIST("machine", "NAME[,NAME]", &(s)->machine, \
		 "only runs on these machines ('unknown': not known; default: each machine on its own)")
#define CLI_OPT_BASELINE(s) \
	OPT_STRING("baseline", "V", &(s)->baseline, "compare against V (default: the first variant, by import order)")
/* regress cannot do without one */
#define CLI_OPT_BASELINE_REQUIRED(s) \
	OPT_STRING("baseline", "V", &(s)->baseline, "the variant to compare against (required)")
#define CLI_OPT_CHANGE(s) \
	OPT_STRING("change", "raw|speed|better", &(s)->change, \
		   "raw (new-base)/base (default), speed base/new-1 for lower-is-better, better (+ = improvement)")
#define CLI_OPT_TEST(s) \
	OPT_STRING("test", "welch|mwu", &(s)->test, "the test behind p: welch (default, on logs) or mwu (exact Mann-Whitney)")
#define CLI_OPT_THRESHOLD(s) \
	OPT_DOUBLE("threshold", "PCT", &(s)->threshold, "smallest change that matters, % (default 1)")
#define CLI_OPT_ALPHA(s) \
	OPT_DOUBLE("alpha", "A", &(s)->alpha, "significance level for BH q-values (default 0.05)")
#define CLI_OPT_BETTER(s) \
	OPT_LIST("better", "M=DIR", &(s)->better, \
		 "override a metric's direction: higher, lower or none (counters are none: changed, not worse)")
#define CLI_OPT_NO_DERIVED(s) \
	OPT_FLAG("no-derived", &(s)->no_derived, "skip derived metrics (E-H, user_moved, ...)")
#define CLI_OPT_USE_FLAGGED(s) \
	OPT_FLAG("use-flagged", &(s)->use_flagged, "test footnoted published cells too")

/* The whole selection (without --use-flagged, which report declares). */
#define CLI_SELECT_OPTS(s) \
	CLI_OPT_DB(s), CLI_OPT_BENCH(s), CLI_OPT_METRIC(s), CLI_OPT_CONFIG(s), \
	CLI_OPT_VARIANTS(s), CLI_OPT_MACHINE(s), CLI_OPT_BASELINE(s), CLI_OPT_CHANGE(s), \
	CLI_OPT_TEST(s), CLI_OPT_THRESHOLD(s), CLI_OPT_ALPHA(s), CLI_OPT_BETTER(s), \
	CLI_OPT_NO_DERIVED(s)

void cli_select_init(struct cli_select *s);
/* Every value of l split on commas, empty pieces dropped, appended to
 * *out (*n entries) as copies; free them with cli_strings_free(). */
void cli_split_commas(const struct strlist *l, char ***out, size_t *n);
void cli_strings_free(char **v, size_t n);
/* opt.h knows long options only: rewrite a bare "-o" in argv to
 * "--output" (before "--"), so `-o FILE` works as the synopsis says. */
void cli_short_output(int argc, char **argv);
/* A variant name with a comma in it ("Before this patch, schedutil") was
 * cut by --variants' commas: join the pieces again where the store has
 * the joined name and not the piece. */
struct db;
void cli_select_rejoin(struct cli_select *s, struct an_query *q, struct db *db);
/*
 * The one converter: the options of s into q, for every verb.  q starts
 * as *defaults (a verb's own defaults), or as the caller initialised it
 * when defaults is NULL; an option given overrides.  flags:
 *   CLI_SELECT_KEEP_EMPTY  an empty --bench or --baseline is a name (that
 *                          matches nothing), not "not given" (compare,
 *                          export, regress and history read it so)
 * Returns 0, or -1 with err set, one message per mistake whatever the
 * verb: a bad --config, --better, --change or --test, a --threshold
 * below 0, an --alpha outside (0, 1).  Call it once.
 */
#define CLI_SELECT_KEEP_EMPTY 1u
int cli_select_to_query(struct cli_select *s, const struct an_query *defaults, unsigned flags,
			struct an_query *q, struct kb_err *err);
/* cli_select_to_query(s, NULL, 0, q, err): q an_query_init()'d first. */
int cli_select_query(struct cli_select *s, struct an_query *q, struct kb_err *err);
/* 1 when a canonical config string passes the --config filters as
 * an_compare_build() applies them (an_config_match(), query.h).  Only
 * after cli_select_to_query(). */
int cli_select_config_match(const struct cli_select *s, const char *config);
/* --variants and --baseline as the user named them (display name, name
 * alone, name@start-of-post) -> display names, in s and q.  After
 * cli_select_to_query() and opening db; -1 with err for an unknown or
 * ambiguous name. */
struct db;
int cli_select_resolve(struct cli_select *s, struct db *db, struct an_query *q,
		       struct kb_err *err);
/* 1 when the selection includes variant name (no --variants = all). */
int cli_select_variant_match(const struct cli_select *s, const char *name);
void cli_select_release(struct cli_select *s);

/*
 * Names a selection refers to, as the verbs take them (NULL / 0 = not
 * given).  cli_selection_check() looks each one up in the store; a new
 * dimension (--machine, a post) is a field here and a row in its table.
 */
struct cli_names {
	const char *bench;
	const char *const *variants;    /* --variants, --candidate */
	size_t nvariants;
	const char *baseline;
	const char *const *machines;    /* --machine ('unknown' is always there) */
	size_t nmachines;
};

struct db;
/* 0 when every name in n exists in the store; else -1 with err naming the
 * first that does not and what the store has instead ("no benchmark
 * 'nosuch'; the store has 6: autonuma, hackbench, ...").  -1 also for a
 * database error. */
int cli_selection_check(struct db *db, const struct cli_names *n, struct kb_err *err);
/* Opens the store of s (--db, cli_db_path()) into *db and checks the
 * selection's names in it (cli_selection_check()); with q, variant
 * names cut at their commas are joined first (cli_select_rejoin()).
 * 0, or -1 with err set (*db may then be open: the caller closes it). */
int cli_select_open(struct cli_select *s, struct an_query *q, struct db **db,
		    struct kb_err *err);
/* The names of a cli_select (bench, variants, baseline) into n; n borrows. */
void cli_select_names(const struct cli_select *s, struct cli_names *n);
/* err = "nothing in the store matches the selection (--bench B, ...)":
 * every name exists, but not together.  Returns -1. */
int cli_selection_empty(struct kb_err *err, const struct cli_names *n, const char *more);
/* The same for a cli_select, its --metric and --config named too. */
int cli_select_empty(struct kb_err *err, const struct cli_select *s);

/* db_placement_load(db, NULL, NULL, ...) that returns an empty result
 * (instead of calling it) when the store has no job rows at all. */
struct db;
struct db_placement;
int cli_placement_load(struct db *db, struct db_placement *out, struct kb_err *err);

#endif
