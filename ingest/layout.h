/*
 * layout.h - what a result tree's paths say about the files in it.
 *
 * mmtests keeps raw results as
 *
 *   work/log/<run-name>/iter-<N>/<benchmark-dir>/logs/<file>
 *
 * e.g. .../log.x/hackbench-process-pipes/iter-0/hackbench-process-pipes/
 * logs/hackbench-12-3: run name "hackbench-process-pipes" (the variant a
 * user compares), 12 groups, third iteration, process mode over pipes.
 * The file name carries the configuration (hackbench-<groups>-<iter>,
 * time-<groups>-<iter>, time-<n>), the benchmark directory the mode and
 * the IPC (hackbench-{process,thread}-{pipes,sockets}).
 *
 * The importer (cli) walks a directory, imports the files that
 * layout_mmtests_wanted() accepts, and calls layout_apply() on each
 * parsed batch.  Nothing here prints; only layout_mmtests_detect() looks
 * at the file system (stat/opendir, nothing is read).
 */
#ifndef KB_LAYOUT_H
#define KB_LAYOUT_H

#include "record.h"

/* What an mmtests result path says.  Strings point into buf. */
struct layout_mmtests {
	const char *run;        /* run name: the variant */
	int suite_iter;         /* N of iter-<N> */
	const char *bench_dir;  /* e.g. "hackbench-process-pipes" */
	const char *file;       /* file name in logs/ */
	const char *kind;       /* "hackbench", "time" ... (file name's prefix) */
	long param;             /* groups / workers from the file name, -1 if none */
	int iteration;          /* iteration from the file name, 0 if none */
	const char *mode;       /* "process" / "thread" from bench_dir, or NULL */
	const char *ipc;        /* "pipe" / "socket" from bench_dir, or NULL */
	char buf[4096];
};

/*
 * Parse path as .../<run>/iter-<N>/<bench>/logs/<file>.  Returns 0 and
 * fills li, or -1 when the path does not have that shape (or is longer
 * than li->buf).  Pure string work.
 */
int layout_mmtests_parse(const char *path, struct layout_mmtests *li);

/*
 * Is dir an mmtests work/log tree, a run directory in one, or somewhere
 * inside one (an iter-<N> directory, a benchmark or logs directory)?
 * Returns 1 or 0; a directory that cannot be read counts as 0.
 */
int layout_mmtests_detect(const char *dir);

/*
 * Is path an mmtests result file worth importing: a file directly in a
 * logs/ directory of the layout above whose name is one of the known
 * result files (hackbench-<g>-<i>, time-<g>-<i>, time-<n>), plain or
 * gzipped (hackbench-<g>-<i>.gz)?  Monitors, tests-* and mmtests.log are
 * not.  Pure.
 */
int layout_mmtests_wanted(const char *path);

/*
 * Set what path says on every run of b (parsed from that file): the run
 * name as variant (REC_ORIGIN_CONTEXT: beats a generic parent-directory
 * guess, loses to a name inside the output or to --variant), the
 * iteration from the file name (when the parser left it 0), config
 * groups (the file name wins over the parser when they disagree), mode
 * and ipc (the parser's values win).  Does nothing when path does not
 * follow a known layout.
 */
void layout_apply(const char *path, struct rec_batch *b);

/*
 * Where an mmtests run says it ran.  layout_mmtests_kernel_path() writes
 * the path of the run's <run>/iter-<N>/kernel.version (mmtests saves
 * `uname -a` there) for result file path; layout_mmtests_root_host() the
 * short host name of the log root "log.<host>.<date>" above the run
 * directory (log.ltccip8.2020-06-03_1400 -> ltccip8).
 * layout_uname_parse() reads `uname -a` text ("Linux
 * ltccip8.aus.stglabs.ibm.com 4.18.0-184.el8.ppc64le #1 SMP ...") into
 * the short host name and the release.  All pure string work: each
 * returns 0, or -1 when the text or path does not say (or does not fit).
 */
int layout_mmtests_kernel_path(const char *path, char *out, size_t cap);
int layout_mmtests_root_host(const char *path, char *host, size_t cap);
int layout_uname_parse(const char *s, size_t len, char *host, size_t hcap, char *release,
		       size_t rcap);

/*
 * lkp result roots keep one directory per run:
 *
 *   <root>/<testcase>/<param-string>/<host>/<rootfs>/<kconfig>/<compiler>/
 *       <commit>/<run-number>/<program-files>
 *
 * e.g. .../hackbench/performance-pipe-8-process-100%/lkp-icl-2sp2/
 * debian-12-x86_64/x86_64-rhel-9.4/gcc-12/0a1b2c3d4e/0/hackbench.  The
 * commit is the variant, the run number the iteration, the parameter
 * string the configuration (params=...), the host the machine.  Raw
 * output files are named after the program that wrote them.
 */
struct layout_lkp {
	const char *testcase;
	const char *params;     /* "performance-pipe-8-process-100%" */
	const char *host;
	const char *rootfs, *kconfig, *compiler;
	const char *commit;     /* the variant */
	int run;                /* run number: the iteration is run + 1 */
	const char *file;       /* file name in the run directory */
	const char *program;    /* known program file ("hackbench") or monitor, or NULL */
	int monitor;            /* program is a monitor (proc-vmstat, numa-numastat ...) */
	char buf[4096];
};

/*
 * Parse path as .../<testcase>/<params>/<host>/<rootfs>/<kconfig>/
 * <compiler>/<commit>/<run-number>/<file>.  Returns 0 and fills li, or -1
 * when the path has fewer components, the run number is not a number, or
 * the path is longer than li->buf.  Pure string work: any path of that
 * shape parses, so use it only where the user said the tree is lkp's.
 */
int layout_lkp_parse(const char *path, struct layout_lkp *li);

/*
 * Is dir, unmistakably, a run directory of an lkp result root: its path
 * parses as above (the run number a number), the commit component is a
 * commit as lkp names it (7-40 hex digits, or git describe's
 * "...-g<hex>"), and it holds lkp's job.yaml or a program's output file
 * (hackbench, perf-stat ...)?  An import without --layout reads such a
 * directory as --layout lkp would.  Reads the directory; 0 on any doubt.
 */
int layout_lkp_detect(const char *dir);

/*
 * Is path an lkp program output worth importing: a file in a run
 * directory of the layout above named after a program kbench reads
 * (hackbench, kernbench, perf-stat, time, autonuma-benchmark,
 * perf-bench-sched-messaging, numa_test, schbench, perf-bench-sched-pipe,
 * perf-bench-syscall, perf-bench-mem, perf-bench-numa-mem,
 * perf-bench-futex), or a NUMA monitor kbench reads
 * (proc-vmstat, numa-numastat, numa-vmstat, numa-meminfo, vmstat,
 * memory--numa_stat), plain or gzipped (<program>.gz)?  *.json, *.yaml,
 * job scripts and other monitors are not.  Pure.
 */
int layout_lkp_wanted(const char *path);

/*
 * Set what an lkp path says on every run of b: the commit as variant
 * (REC_ORIGIN_CONTEXT, as for mmtests), params=<param-string> in the
 * config, and the iteration run-number + 1 on runs the parser numbered
 * 1 (or left 0), so that run directories 0, 1, 2 give iterations 1, 2,
 * 3.  Runs a parser numbered beyond 1 (a log holding several
 * iterations) keep their numbers.  A monitor's run takes the testcase's
 * benchmark (the directory's benchmark run it watched: autonuma for
 * autonuma-benchmark), so its counters compare with that benchmark's
 * runs.  Does nothing when path does not parse.
 */
void layout_lkp_apply(const char *path, struct rec_batch *b);

#endif
