/*
 * query.h - read-only queries for analysis: everything stored about one
 * benchmark (or all), as plain C structs.  analyze/ reads the store only
 * through these functions; they hold no SQL outside db/.
 *
 *   struct db_qdata q;
 *   if (db_query_load(db, "hackbench", &q, &err) < 0) ...fail...
 *   ... q.runs[i], q.samples[j] (sorted by run), q.summaries[k] ...
 *   db_qdata_release(&q);
 *
 * Strings are malloc'd copies owned by the db_qdata; db_qdata_release()
 * frees them all.  Numbers unknown in the store are NaN; unknown
 * integers are -1.  Every function returns 0, or -1 with err set.
 */
#ifndef KB_DB_QUERY_H
#define KB_DB_QUERY_H

#include <stddef.h>

#include "db.h"

/* A variant, in id (= import) order. */
struct db_qvariant {
	long long id;
	char *name, *kernel, *description;	/* name: as shown (variant_v.display) */
};

/* One run.  Failed runs are included (status "failed"); callers skip them. */
struct db_qrun {
	long long id;
	long long variant_id;
	long long source_id;
	char *benchmark;
	char *config;		/* canonical "k=v,k=v" ('' when none) */
	char *machine;		/* NULL when unknown */
	char *machine_key;	/* what may be pooled: the machine, or for a run of a
				 * post's own variant on an unknown machine
				 * "unknown@<post>"; NULL: unknown */
	char *imported_at;	/* the source's import time, ISO 8601 */
	int iteration;
	int ok;			/* status = 'ok' */
};

/* One sample; run indexes db_qdata.runs. */
struct db_qsample {
	size_t run;
	char *metric, *unit;
	double value;
	int job;		/* -1 = run level */
};

/* One numa_test job row; run indexes db_qdata.runs. */
struct db_qjob {
	size_t run;
	int job, initial_node, main_node, moved;
	double user;		/* NaN when unknown */
};

/* One published summary row. */
struct db_qsummary {
	long long variant_id;
	long long source_id;
	char *benchmark, *config, *metric, *unit, *flags;
	double mean, sd, min, max;
	long long n;		/* 0 when unknown */
	char *machine_key;	/* as db_qrun's */
	/* The published table's own verdict on this cell against its own
	 * baseline column: its % change as printed (NaN when none) and its
	 * significance mark as printed ("" when none). */
	double pub_change;
	char *pub_mark;
	long long pub_base;	/* the variant that change is against; 0 unknown */
};

/* One metric catalogue row ("" benchmark = any benchmark). */
struct db_qmetric {
	char *benchmark, *name, *unit;
	char *better;		/* "lower", "higher" or "none" */
};

struct db_qdata {
	struct db_qvariant *variants;
	size_t nvariants;
	struct db_qrun *runs;		/* by benchmark, config, variant, id */
	size_t nruns;
	struct db_qsample *samples;	/* by run, then insertion order */
	size_t nsamples;
	struct db_qjob *jobs;		/* by run, job */
	size_t njobs;
	struct db_qsummary *summaries;	/* by id (import order) */
	size_t nsummaries;
	struct db_qmetric *metrics;	/* the whole catalogue */
	size_t nmetrics;
	/* The samples' metric and unit strings, each distinct string once
	 * (a million samples name a few dozen metrics). */
	char **strings;
	size_t nstrings;
};

/* "key=value" that a run's or summary's canonical config must hold. */
struct db_qkv {
	const char *key, *value;
};

/*
 * What an analysis selects.  Zeroed, it selects everything; each field
 * given narrows the selection, and SQLite selects with the indexes:
 *   bench     one benchmark;
 *   metrics   samples and summaries of these metrics only (job rows'
 *             user times, metric "user", come only when "user" is named);
 *   config    all keys must be present, a repeated key means any of its
 *             values (values as the user wrote them, unescaped);
 *   variants, machines  runs and summaries of these names only;
 *   variant_ids  runs and summaries of these variant ids only, and the
 *             variant list holds these variants alone (names resolved
 *             first, db_variant_resolve_id(): a selection costs what it
 *             selects, not the store's variant list);
 *   sources   runs and summaries of these source ids only;
 *   near      > 0: runs and summaries where this variant id could share a
 *             row: on one of its machine keys (a machine it ran on, or
 *             for its runs on no machine, the runs of its post's
 *             variants, or of global variants, on no machine), and with
 *             near_config, of one of its (benchmark, config) pairs;
 *             near_any_machine drops the machine condition (variants
 *             compared across machines);
 *   runs_only 1: the runs and their job rows, no samples, no summaries.
 * The result may hold more than the selection (a config value with a
 * character the canonical form escapes is not narrowed in SQL, and SQL's
 * LIKE may ignore case): callers filter exactly, as they did on a whole
 * load.  Runs keep their order (benchmark, config, variant, id), samples
 * theirs (by run, then insertion order); the variant list and the metric
 * catalogue are whole (but see variant_ids).  Pointers are borrowed
 * for the call.
 */
struct db_qsel {
	const char *bench;
	const char *const *metrics;
	size_t nmetrics;
	const struct db_qkv *config;
	size_t nconfig;
	const char *const *variants;
	size_t nvariants;
	const char *const *machines;
	size_t nmachines;
	const long long *variant_ids;
	size_t nvariant_ids;
	const long long *sources;
	size_t nsources;
	long long near;
	int near_config, near_any_machine;
	int runs_only;		/* 1: runs and jobs, no samples, no summaries */
};

/* Load the variants (all, or sel's variant_ids), the metric catalogue, and the runs, samples, jobs
 * and summaries that sel selects (NULL = everything).  On failure out is
 * left empty (safe to release). */
int db_query_select(struct db *db, const struct db_qsel *sel, struct db_qdata *out,
		    struct kb_err *err);
/* db_query_select() of one benchmark (NULL = every benchmark). */
int db_query_load(struct db *db, const char *bench, struct db_qdata *out,
		  struct kb_err *err);
void db_qdata_release(struct db_qdata *q);
/* Keep the samples and summaries whose keep_* entry is non-zero (in
 * their order), freeing the others; runs, jobs and variants stay. */
void db_qdata_keep(struct db_qdata *q, const unsigned char *keep_sample,
		   const unsigned char *keep_summary);

/* A variant and a machine key it has data on (an ok run, or a summary of
 * sel's metrics), as db_qrun.machine_key (NULL: unknown). */
struct db_vkey {
	long long variant_id;
	char *key;
};
/* The distinct (variant, machine key) pairs of the selection, by variant
 * id: what decides whether variants share a machine, without loading
 * their runs. */
int db_query_variant_keys(struct db *db, const struct db_qsel *sel, struct db_vkey **out,
			  size_t *n, struct kb_err *err);
void db_vkeys_free(struct db_vkey *v, size_t n);
/* The same by benchmark: the distinct (benchmark, variant, machine key)
 * triples of the selection, ordered so, each with the variant's display
 * name (regress: does a candidate share a machine with its baseline, for
 * each benchmark?).  Strings malloc'd; db_vbkeys_free() frees them. */
struct db_vbkey {
	char *benchmark;
	long long variant_id;
	char *variant;
	char *key;		/* NULL: unknown */
};
int db_query_variant_bench_keys(struct db *db, const struct db_qsel *sel, struct db_vbkey **out,
				size_t *n, struct kb_err *err);
void db_vbkeys_free(struct db_vbkey *v, size_t n);
/* *has = 1 when the store holds any numa_test job row, else 0. */
int db_query_has_jobs(struct db *db, int *has, struct kb_err *err);

#endif
