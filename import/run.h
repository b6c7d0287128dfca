/*
 * run.h - `kbench run`'s engine: a benchmark command executed (fork and
 * execvp, no shell: the arguments go as they are), its output captured,
 * parsed by the parsers `import` uses and made into one source of its
 * own per run, with the machine's topology, the environment the run ran
 * in and the counters of its monitors.  Storing is the caller's (db/),
 * as is what is printed.  Nothing here prints or exits.
 */
#ifndef KB_IMPORT_RUN_H
#define KB_IMPORT_RUN_H

#include "../core/buf.h"
#include "../core/err.h"
#include "prepare.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* What one execution gave. */
struct run_output {
	struct buf all;         /* stdout and stderr, in the order they came */
	struct buf err;         /* stderr alone (a failed run's message) */
	int status;             /* exit status, or 128 + the signal that ended it */
	int signal;             /* that signal, 0 when it exited */
	double seconds;         /* wall time */
};

void run_output_init(struct run_output *o);
void run_output_release(struct run_output *o);

/*
 * Run argv[0] (looked up in $PATH, as execvp does) with argv, stdin from
 * /dev/null, in a process group of its own (a Ctrl-C at the terminal
 * reaches kbench, which lets the run finish), capturing its output into
 * out.  *stop (may be NULL) is polled: when it reaches 2 the command's
 * group is sent SIGTERM.  Returns 0 when the command ran (whatever its
 * exit status), or -1 with err set when it could not be started: then
 * out->status is 127 (not found) or 126 (found, not executable).
 */
int run_exec(char *const argv[], struct run_output *out, volatile sig_atomic_t *stop,
	     struct kb_err *err);

/* The environment of the runs, captured once per `kbench run`. */
struct run_env {
	char **keys, **values;  /* in the order found; owned */
	size_t n, cap;
	int cpus, nodes;        /* 0 when not found */
	char *machine_desc;     /* numactl -H's description, or NULL */
	struct buf missing;     /* "numactl -H (not found); ..." what was not there */
};

/*
 * Capture the environment: lscpu and numactl -H (CPUs, nodes, CPUs per
 * node, distances), uname -a, /proc/cmdline, kernel.numa_balancing, THP
 * enabled and defrag, the cpufreq governor(s), and tool's version: its
 * --version line for tools known to answer it (perf, make, gcc, time;
 * at most 2 seconds), else its Debian package's version (dpkg-query: no
 * benchmark is run to ask).
 * Never fails: what cannot be read is said in e->missing.
 */
void run_env_capture(struct run_env *e, const char *tool);
void run_env_release(struct run_env *e);
/* The value of key, or NULL. */
const char *run_env_get(const struct run_env *e, const char *key);

/* Monitors around each run (--monitor). */
enum {
	RUN_MON_NUMA = 1,       /* /proc/vmstat numa_* and pgmigrate_* */
	RUN_MON_VMSTAT = 2,     /* all of /proc/vmstat */
	RUN_MON_NUMASTAT = 4,   /* /sys/devices/system/node/node<N>/numastat */
};
/* The monitors of a comma list ("numa,vmstat"; "none" for none) into
 * *mask; -1 with a message in msg for a word that names none. */
int run_monitors_parse(const char *list, unsigned *mask, struct buf *msg);

/* One reading of the monitors' counters. */
struct run_counters {
	char **names;           /* "vmstat.numa_hit", "numastat.node0.numa_hit" */
	long long *values;
	size_t n, cap;
};
/* Read the counters of mask into c (emptied first).  Never fails: a file
 * that cannot be read gives no counters. */
void run_counters_read(unsigned mask, struct run_counters *c);
void run_counters_release(struct run_counters *c);

/* A small, seedable generator, for the order of configs (splitmix64). */
struct run_rng {
	uint64_t s;
};
void run_rng_seed(struct run_rng *r, uint64_t seed);
uint64_t run_rng_next(struct run_rng *r);
/* A uniformly random permutation of 0..n-1 into perm (Fisher-Yates). */
void run_rng_shuffle(struct run_rng *r, size_t *perm, size_t n);

/* Configs ----------------------------------------------------------------- */

/* The points of --config K=V,V,... (each option one key): every
 * combination, keys in the order given, values in the order given. */
struct run_configs {
	char **keys;
	size_t nkeys;
	char ***values;         /* values[k][0..nvalues[k]) */
	size_t *nvalues;
	size_t npoints;         /* the product of nvalues (1 with no keys) */
};

/* Parse specs[0..n) ("groups=1,2,4,8").  0, or -1 with a message in msg
 * (no '=', an empty value, a key given twice). */
int run_configs_parse(struct run_configs *c, const char *const *specs, size_t n,
		      struct buf *msg);
void run_configs_release(struct run_configs *c);
/* Point p's value of key k. */
const char *run_config_value(const struct run_configs *c, size_t p, size_t k);
/* Point p as "k=v,k=v" (in key order given) into out (reset first). */
void run_config_text(const struct run_configs *c, size_t p, struct buf *out);

/*
 * Check that argv's placeholders {name} each name a config key, and that
 * each key is used by some {key}.  0, or -1 with a message in msg.
 */
int run_placeholders_check(const struct run_configs *c, char *const argv[], size_t argc,
			   struct buf *msg);
/* argv with point p's values put for its {key}s: a NULL-terminated array
 * of malloc'd strings (free with run_argv_free). */
char **run_argv_expand(const struct run_configs *c, size_t p, char *const argv[], size_t argc);
void run_argv_free(char **argv);

/* One run into a source ------------------------------------------------- */

/* What the runs of one `kbench run` share. */
struct run_source_opts {
	const struct import_opts *o;    /* variant, machine, kernel, format */
	const struct run_env *env;      /* stored with every run */
	const char *started;            /* ISO time of the invocation, for names */
	long pid;                       /* of kbench: with started, unique */
	const char *bench_hint;         /* a failed run's benchmark, or NULL (argv[0]) */
	int index;                      /* the run's place in the invocation, 1-based */
};

/*
 * The source of one run: "$ CMD ARGS" and the output, parsed as `import`
 * parses a file (o->format: that parser only), with the point's config
 * (set), the iteration (its round), the environment, the machine's CPUs and nodes,
 * and the monitors' deltas (after - before) as samples of every run of
 * it.  Its identity is unique to this execution (a run whose output is
 * the same as another's is still a run).  A command that exited
 * non-zero, or died of a signal, gives failed runs: the parsed ones
 * marked failed, or one run of its own, with the exit status and the
 * end of stderr as the error.  Returns the item; never NULL.  Its kind is
 * IMPORT_FAILED with err set when an output of a command that succeeded
 * is no format kbench reads (err names the formats tried).
 */
struct import_item *run_source(const struct run_source_opts *so, char *const argv[],
			       const char **set, size_t nset, int iteration,
			       const struct run_output *out, const struct run_counters *before,
			       const struct run_counters *after);

#endif
