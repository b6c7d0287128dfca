/*
 * record.h - what a parser produces: runs, samples, numa_test job rows,
 * published summaries and variant legends, collected in one batch per
 * source file.  No SQL here: db/store.c writes a finished batch in one
 * transaction, so a file that fails to parse leaves the store untouched.
 *
 * All strings and arrays live in the batch's arena and die with it.
 * Parsers push records with the rec_* functions (push-style sink).
 */
#ifndef KB_RECORD_H
#define KB_RECORD_H

#include <stddef.h>

#include "../core/arena.h"

/* One configuration key=value pair. */
struct rec_kv {
	const char *key;
	const char *value;
};

/* One observed number.  job is 0 for run-level metrics, else the job
 * number (1-based) it belongs to. */
struct rec_sample {
	const char *metric;
	double value;
	const char *unit;       /* "s", "msec", "" ... never NULL */
	int job;
};

/* numa_test: one row of the job table. */
struct rec_job {
	int job;
	int initial_node;       /* iSched */
	int main_node;          /* MSched: node with most time */
	int moved;              /* ended away from its initial node ('*' or initial != main) */
	int marked;             /* the '*' as printed (numa_test omits it at times) */
	double user;            /* UserTime(s) */
	int nnodes;
	double *pct;            /* pct[node], percent of time on node */
};

/* Where a variant name came from, weakest first. */
enum rec_origin {
	REC_ORIGIN_NONE = 0,
	REC_ORIGIN_PATH,        /* parent directory / result-tree layout */
	REC_ORIGIN_CONTEXT,     /* legend or kernel line around the segment */
	REC_ORIGIN_CONTENT,     /* named inside the parsed output itself */
	REC_ORIGIN_USER,        /* --variant */
};

struct rec_run {
	const char *benchmark;
	struct rec_kv *config;  /* sorted by key on rec_batch_finish() */
	size_t nconfig, config_cap;
	const char *config_str; /* canonical "k=v,k=v", set by rec_batch_finish() */
	const char *variant;    /* may be NULL: decided by the importer */
	const char *variant_desc;
	const char *kernel;
	enum rec_origin variant_origin;
	const char *machine;    /* where it ran, when the text or the tree says; else NULL */
	int iteration;          /* 0 = number in order of appearance */
	int failed;
	const char *error;      /* message for a failed run */
	long line;              /* first source line of the run */
	struct rec_sample *samples;
	size_t nsamples, samples_cap;
	struct rec_job *jobs;
	size_t njobs, jobs_cap;
};

/* One more statistic a published table gives for a summary (mmtests'
 * Hmean, CoeffVar, BAmean-99 ...), kept as printed. */
struct rec_stat {
	const char *name;
	double value;
};

/* A pre-aggregated number from a published table.  Unknown values are
 * NAN; n is 0 when unknown. */
struct rec_summary {
	const char *variant;
	const char *variant_desc;
	const char *benchmark;
	const char *config_str;
	struct rec_kv *config;
	size_t nconfig, config_cap;
	const char *metric;
	const char *unit;
	double mean, sd, min, max;
	long n;
	const char *flags;      /* comma list: "footnoted", "estimated" ... or "" */
	const char *machine;    /* where it ran, when the text says; else NULL */
	long line;
	/* The table's own verdict on this cell against its own baseline
	 * column: the change in % as printed (NAN when it prints none) and
	 * its significance mark as printed ("*" of mmtests, "" for none). */
	double pub_change;
	const char *pub_mark;
	/* The variant the published change is against (the table's baseline
	 * column), in the same names as variant; NULL when none or unknown. */
	const char *pub_base;
	struct rec_stat *stats;
	size_t nstats, stats_cap;
};

/* A metric the format knows the direction of: the store catalogues it
 * so when the catalogue has no row for it yet. */
struct rec_metric {
	const char *benchmark;  /* "" for any */
	const char *name;
	const char *unit;
	const char *better;     /* "lower", "higher" or "none" */
	const char *description;
};

/* A variant named and described by the text (a legend line). */
struct rec_variant {
	const char *name;
	const char *description;
	const char *kernel;
	long line;
};

/* What the text says about a machine's hardware (numactl -H): its CPUs
 * and NUMA nodes.  name NULL is the file's own machine (--machine, the
 * result tree's host, or the one machine its runs name); the store
 * fills that machine's cpus, nodes and description. */
struct rec_machine {
	const char *name;
	int cpus, nodes;        /* 0 when the text does not say */
	const char *description;        /* "2 nodes, 36 CPUs, 262030 MB; distances ..." or NULL */
	long line;
};

/* One setting of the environment a run ran in, as `kbench run` found it
 * (uname, /proc/cmdline, kernel.numa_balancing, THP, the cpufreq
 * governor, the tool's version line): stored with the source, so it
 * goes and comes with the runs it describes. */
struct rec_env {
	const char *key;
	const char *value;
};

/* One line of import --explain about source line `line`. */
struct rec_note {
	long line;
	const char *text;
};

/* One parsed piece of the source (a segment of the front end), with the
 * SHA-256 of its normalised text: the same output arriving again in
 * another file (re-quoted, re-encoded, copied) has the same hash, and
 * the store keeps only its first copy.  runs[run_first ..) and
 * summaries[sum_first ..) are what the segment produced. */
struct rec_segment {
	long first_line, last_line;     /* in the source */
	const char *format;             /* parser name */
	char hash[65];
	size_t run_first, nruns;
	size_t sum_first, nsums;
	const char *evidence;           /* how its runs got their variant, or NULL */
	const char *label;              /* the label line that introduced it, or NULL */
	const char *title;              /* its own title's words after the benchmark, or NULL */
};

struct rec_batch {
	struct arena arena;
	/* Variant names come from a result tree's paths (mmtests, lkp), not
	 * from a post's own text: they are global, not the post's. */
	int global_labels;
	/* A parser's title of the segment it is reading ("All Clients
	 * Loadfile Execution Time" of "dbench4 All Clients Loadfile Execution
	 * Time"): what tells it apart from another block of the same post
	 * that its numbers would otherwise be pooled with. */
	const char *seg_title;
	struct rec_segment *segments;
	size_t nsegments, segments_cap;
	struct rec_run **runs;
	size_t nruns, runs_cap;
	struct rec_summary **summaries;
	size_t nsummaries, summaries_cap;
	struct rec_variant *variants;
	size_t nvariants, variants_cap;
	/* What a parser decided and import --explain says: a column order
	 * taken by a table's own checks, a placeholder left out, an
	 * annotation dropped.  Each at the source line it is about. */
	struct rec_note *notes;
	size_t nnotes, notes_cap;
	struct rec_metric *metrics;
	size_t nmetrics, metrics_cap;
	struct rec_machine *machines;
	size_t nmachines, machines_cap;
	struct rec_env *env;
	size_t nenv, env_cap;
};

void rec_batch_init(struct rec_batch *b);
void rec_batch_release(struct rec_batch *b);
/* Canonicalise configs (sort keys, build config_str).  Called by the
 * importer before storing; parsers need not call it. */
void rec_batch_finish(struct rec_batch *b);
size_t rec_batch_nsamples(const struct rec_batch *b);

struct rec_run *rec_run_new(struct rec_batch *b, const char *benchmark, long line);
/* Set (or replace) a config key.  value is copied. */
void rec_run_config(struct rec_batch *b, struct rec_run *r, const char *key, const char *value);
void rec_run_configf(struct rec_batch *b, struct rec_run *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *rec_run_config_get(const struct rec_run *r, const char *key);
void rec_run_fail(struct rec_batch *b, struct rec_run *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rec_run_variant(struct rec_batch *b, struct rec_run *r, const char *name,
		     const char *desc, enum rec_origin origin);
void rec_sample_add(struct rec_batch *b, struct rec_run *r, const char *metric,
		    double value, const char *unit, int job);
/* Returns the stored job; pct is copied (nnodes values). */
struct rec_job *rec_job_add(struct rec_batch *b, struct rec_run *r, int job,
			    int initial_node, int main_node, int moved, double user,
			    const double *pct, int nnodes);
/* Discard a run that turned out to be empty (e.g. only a header). */
void rec_run_drop(struct rec_batch *b, struct rec_run *r);

struct rec_summary *rec_summary_add(struct rec_batch *b, const char *variant,
				    const char *benchmark, const char *metric,
				    const char *unit, long line);
void rec_summary_config(struct rec_batch *b, struct rec_summary *s, const char *key, const char *value);
/* Keep another statistic of the published cell (name is copied). */
void rec_summary_stat(struct rec_batch *b, struct rec_summary *s, const char *name, double value);
/* Declare a metric's unit and direction (better: "lower", "higher",
 * "none"); the first declaration of a (benchmark, name) wins, and a row
 * the catalogue has already wins over it. */
void rec_metric_declare(struct rec_batch *b, const char *benchmark, const char *name,
			const char *unit, const char *better, const char *description);

/* Describe a machine's hardware (strings copied; name and desc may be NULL). */
void rec_machine_add(struct rec_batch *b, const char *name, int cpus, int nodes,
		     const char *desc, long line);

/* Record one setting of the run's environment (strings copied; a key
 * given again replaces its value). */
void rec_env_add(struct rec_batch *b, const char *key, const char *value);

/* Say why a value was read as it was (import --explain). */
void rec_note(struct rec_batch *b, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rec_variant_add(struct rec_batch *b, const char *name, const char *desc,
		     const char *kernel, long line);

/*
 * The canonical configuration text: "k=v,k=v", keys sorted, and ',', '='
 * and '\\' in keys and values escaped with a backslash.  One writer and,
 * next to it, the one reader and matcher every layer uses: a value may
 * hold '=' (a GNU time command line), and nothing is cut at any length.
 */

/* Canonical config text from kv pairs (sorts kv). */
const char *rec_config_string(struct arena *a, struct rec_kv *kv, size_t n);

struct buf;
/* The next pair of config at *pp, unescaped into key and val (both reset
 * first; either may be NULL); *pp moves past it.  0 at the end. */
int rec_config_next(const char **pp, struct buf *key, struct buf *val);
/* The unescaped value of key in config into val (reset first; may be
 * NULL to only ask).  0 when key is there, -1 when not.  config NULL is "". */
int rec_config_value(const char *config, const char *key, struct buf *val);
/* Does config hold key with exactly this value?  Compares in place. */
int rec_config_has(const char *config, const char *key, const char *value);
/*
 * Does config pass the filters: n pairs of (key, value) strings, the
 * i-th at key0 / value0 plus i * stride bytes (an array of structs
 * holding key and value members)?  Every key named must be there; a key
 * given several times matches any of its values.  Use the macro.
 */
int rec_config_match(const char *config, const char *const *key0, const char *const *value0,
		     size_t n, size_t stride);
#define REC_CONFIG_MATCH(config, filters, n) \
	((n) == 0 || rec_config_match((config), &(filters)[0].key, &(filters)[0].value, (n), \
				      sizeof((filters)[0])))

#endif
