/*
 * genlab.c - write a lab's lkp result tree for `make bench-lab`: several
 * hosts, hundreds of commits in order, hackbench + autonuma-benchmark +
 * numa_test on each, with changes injected at known commits.
 *
 *   genlab [-H HOSTS] [-C COMMITS] [-R RUNS] [-P] [-s SEED] TREE
 *
 * Writes, for every host h and commit c (in lkp's layout, see
 * docs/formats.md):
 *
 *   TREE/hackbench/performance-pipe-8-process-100%/<h>/debian-12-x86_64/
 *        x86_64-rhel-9.4/gcc-12/<c>/0/hackbench          8 iterations
 *   TREE/autonuma-benchmark/performance-800%/<h>/.../<c>/0/autonuma-benchmark
 *                                                       6 passes x 12 tests
 *   TREE/numa_test/performance-randupdt/<h>/.../<c>/{0,1,2}/numa_test
 *                                                       tasks=4 and tasks=8
 *                                                       (-R: RUNS run directories)
 *
 * Hosts are lkp-lab-h00, lkp-lab-h01, ...; commits are named the way
 * `git describe` names them, 6.9.0-00001-g<12 hex>, so version order,
 * name order and import order are the commit order.  Every host has a
 * speed factor of its own; every number is that host's base value times
 * independent noise (normal, per run: hackbench 2%, autonuma 2%,
 * numa_test 1.5%).  Injected changes (the ground truth):
 *
 *   1. host hosts/2 alone: hackbench time x1.08 from commit 2*COMMITS/5 on;
 *   2. every host: autonuma numa01 elapsed x1.10 from commit 3*COMMITS/4 on;
 *   3. with -P only, host 0 alone: numa_test's 4 jobs all on node 0 (a light
 *      load packed onto one node) from commit COMMITS/2 on.  Without -P
 *      every job's node is drawn uniformly from the 4.
 *
 * TREE.truth lists them, one per line:
 *   change host=<h|*> benchmark=<b> config=<k=v> metric=<m> from=<commit> before=<commit> factor=<f>
 * followed by "hosts=<h,...>" and "commits=<first> <last> <count>".
 * Deterministic: the same arguments give the same bytes.  Prints
 * "genlab: hosts=H commits=C files=N" on success; exits 1 on failure.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ROOTFS "debian-12-x86_64/x86_64-rhel-9.4/gcc-12"

static uint64_t rng_state;

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "genlab: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(1);
}

/* splitmix64: small, good enough, and the same everywhere. */
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1). */
static double rng_unit(void)
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal (Box-Muller; one of the pair is dropped for simplicity). */
static double rng_normal(void)
{
	double u = rng_unit(), v = rng_unit();

	return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* base * (1 + cv * N(0,1)), kept positive. */
static double noisy(double base, double cv)
{
	double f = 1.0 + cv * rng_normal();

	return base * (f < 0.5 ? 0.5 : f);
}

/* mkdir -p for a path that ends in a file name (the file itself is not
 * created). */
static void mkdirs_for(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST)
			die("cannot create directory", path);
		*p = '/';
	}
}

static FILE *open_out(const char *tree, const char *testcase, const char *params,
		      const char *host, const char *commit, int run, const char *program)
{
	char path[4096];
	FILE *f;
	int n = snprintf(path, sizeof(path), "%s/%s/%s/%s/" ROOTFS "/%s/%d/%s", tree, testcase,
			 params, host, commit, run, program);

	if (n < 0 || (size_t)n >= sizeof(path))
		die("path too long", tree);
	mkdirs_for(path);
	f = fopen(path, "w");
	if (!f)
		die("cannot write", path);
	return f;
}

static void close_out(FILE *f)
{
	if (ferror(f) || fclose(f) != 0)
		die("write error", NULL);
}

struct lab {
	const char *tree;
	int hosts, commits;
	char (*host)[32];
	char (*commit)[40];
	double *speed;		/* per host */
	int slow_host, slow_from;	/* change 1 */
	int numa01_from;		/* change 2 */
	int pack, pack_from;		/* change 3 (-P) */
	int runs;			/* numa_test runs per commit (-R) */
	long files;
};

static void write_hackbench(struct lab *l, int h, int c)
{
	FILE *f = open_out(l->tree, "hackbench", "performance-pipe-8-process-100%", l->host[h],
			   l->commit[c], 0, "hackbench");
	double base = 9.80 * l->speed[h];
	int i;

	if (h == l->slow_host && c >= l->slow_from)
		base *= 1.08;
	fprintf(f, "Instance: 1\n"
		   "PATH=/lkp/benchmarks/hackbench/usr/local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin\n");
	for (i = 1; i <= 8; i++) {
		fprintf(f, "Iterations: %d\n", i);
		fprintf(f, "2026-07-%02d %02d:%02d:%02d hackbench -g 256 -f 20 --process --pipe -l 30000 -s 100\n",
			1 + c % 28, (c / 28) % 24, i * 7 % 60, (h * 13 + i) % 60);
		fprintf(f, "Running in process mode with 256 groups using 40 file descriptors each (== 10240 tasks)\n"
			   "Each sender will pass 30000 messages of 100 bytes\n");
		fprintf(f, "Time: %.3f\n", noisy(base, 0.02));
	}
	close_out(f);
	l->files++;
}

static const struct {
	const char *name, *flags;
	double seconds;
} autonuma_tests[] = {
	{ "numa01", "-DNO_BIND_FORCE_SAME_NODE", 290.0 },
	{ "numa01_HARD_BIND", "-DHARD_BIND", 118.0 },
	{ "numa01_INVERSE_BIND", "-DHARD_BIND -DINVERSE_BIND", 190.0 },
	{ "numa01_THREAD_ALLOC", "-DNO_BIND_FORCE_SAME_NODE -DTHREAD_ALLOC", 100.5 },
	{ "numa01_THREAD_ALLOC_HARD_BIND", "-DTHREAD_ALLOC -DHARD_BIND", 111.5 },
	{ "numa01_THREAD_ALLOC_INVERSE_BIND", "-DTHREAD_ALLOC -DHARD_BIND -DINVERSE_BIND", 193.0 },
	{ "numa02", "", 6.2 },
	{ "numa02_HARD_BIND", "-DHARD_BIND", 3.5 },
	{ "numa02_INVERSE_BIND", "-DHARD_BIND -DINVERSE_BIND", 5.6 },
	{ "numa02_SMT", "-DSMT", 6.6 },
	{ "numa02_SMT_HARD_BIND", "-DSMT -DHARD_BIND", 4.6 },
	{ "numa02_SMT_INVERSE_BIND", "-DSMT -DHARD_BIND -DINVERSE_BIND", 6.6 },
};
#define NAUTONUMA (sizeof(autonuma_tests) / sizeof(autonuma_tests[0]))

static void write_autonuma(struct lab *l, int h, int c)
{
	FILE *f = open_out(l->tree, "autonuma-benchmark", "performance-800%", l->host[h],
			   l->commit[c], 0, "autonuma-benchmark");
	size_t t;
	int pass;

	for (pass = 0; pass < 6; pass++) {
		fprintf(f, "rm -f numa01 numa02 numa01_* numa02_* numa01.prep.c numa02.prep.c nmstat *.txt *.pdf \n");
		for (t = 0; t < NAUTONUMA; t++)
			fprintf(f, "gcc %s.prep.c -O2 -lnuma -pthread%s%s -o %s\n",
				autonuma_tests[t].name[5] == '1' ? "numa01" : "numa02",
				*autonuma_tests[t].flags ? " " : "", autonuma_tests[t].flags,
				autonuma_tests[t].name);
		fprintf(f, "gcc nmstat.c -std=gnu99 -O2 -o nmstat\nHyper-Threading IS enabled.\n");
		for (t = 0; t < NAUTONUMA; t++) {
			double base = autonuma_tests[t].seconds * l->speed[h];
			if (t == 0 && c >= l->numa01_from)
				base *= 1.10;
			fprintf(f, "%s\n%.2f\n", autonuma_tests[t].name, noisy(base, 0.02));
		}
	}
	close_out(f);
	l->files++;
}

/* One numa_test block: tasks jobs on a 4-node machine. */
static void numatest_block(FILE *f, struct lab *l, int h, int c, int tasks)
{
	int packed = l->pack && h == 0 && c >= l->pack_from && tasks == 4;
	double user[16], total = 0, hack = noisy(11.6 * l->speed[h], 0.015);
	double per = (tasks == 4 ? 32.0 : 68.0) * l->speed[h];
	int j;

	fprintf(f, "Executing %d times: ./randupdt 1000000 \n", tasks);
	fprintf(f, "Running 'hackbench 20' in the background: Time: %.3f\n", hack);
	fprintf(f, "Job  node00 node01 node02 node03 | iSched MSched | UserTime(s)\n");
	for (j = 0; j < tasks; j++) {
		int node = (int)(rng_next() % 4);

		if (packed)
			node = 0;
		user[j] = round(noisy(per, 0.015) * 100) / 100;
		total += user[j];
		fprintf(f, "%3d", j + 1);
		for (int n = 0; n < 4; n++)
			fprintf(f, " %7.1f", n == node ? 100.0 : 0.0);
		fprintf(f, " |    %d     %d    | %6.2f\n", node, node, user[j]);
	}
	fprintf(f, "AverageUserTime %.2f seconds\n", total / tasks);
	fprintf(f, "ElapsedTime     %.2f\n", noisy(per * 1.35, 0.015));
	fprintf(f, "TotalUserTime   %.2f\n", total);
	fprintf(f, "TotalSysTime    %.2f\n\n", noisy(0.2 * tasks, 0.015));
}

static void write_numatest(struct lab *l, int h, int c)
{
	int run;

	for (run = 0; run < l->runs; run++) {
		FILE *f = open_out(l->tree, "numa_test", "performance-randupdt", l->host[h],
				   l->commit[c], run, "numa_test");
		numatest_block(f, l, h, c, 4);
		numatest_block(f, l, h, c, 8);
		close_out(f);
		l->files++;
	}
}

static long parse_count(const char *s, const char *what, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		die("bad number for", what);
	return v;
}

int main(int argc, char **argv)
{
	struct lab l;
	char path[4096];
	FILE *truth;
	long seed = 1;
	int i, h, c;

	memset(&l, 0, sizeof(l));
	l.hosts = 8;
	l.commits = 500;
	l.runs = 3;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "-P") == 0) {
			l.pack = 1;
			continue;
		}
		if (i + 1 >= argc)
			die("option needs a value", argv[i]);
		if (strcmp(argv[i], "-H") == 0)
			l.hosts = (int)parse_count(argv[++i], "-H", 2, 999);
		else if (strcmp(argv[i], "-C") == 0)
			l.commits = (int)parse_count(argv[++i], "-C", 8, 99999);
		else if (strcmp(argv[i], "-R") == 0)
			l.runs = (int)parse_count(argv[++i], "-R", 1, 99);
		else if (strcmp(argv[i], "-s") == 0)
			seed = parse_count(argv[++i], "-s", 0, 1L << 30);
		else
			die("unknown option", argv[i]);
	}
	if (i + 1 != argc)
		die("usage: genlab [-H HOSTS] [-C COMMITS] [-R RUNS] [-P] [-s SEED] TREE", NULL);
	l.tree = argv[i];
	rng_state = (uint64_t)seed * 0x2545f4914f6cdd1dULL + 1;

	l.host = calloc((size_t)l.hosts, sizeof(*l.host));
	l.speed = calloc((size_t)l.hosts, sizeof(*l.speed));
	l.commit = calloc((size_t)l.commits, sizeof(*l.commit));
	if (!l.host || !l.speed || !l.commit)
		die("out of memory", NULL);
	for (h = 0; h < l.hosts; h++) {
		snprintf(l.host[h], sizeof(l.host[h]), "lkp-lab-h%02d", h);
		l.speed[h] = 0.85 + 0.30 * rng_unit();
	}
	for (c = 0; c < l.commits; c++)
		snprintf(l.commit[c], sizeof(l.commit[c]), "6.9.0-%05d-g%012llx", c + 1,
			 (unsigned long long)(rng_next() >> 16));
	l.slow_host = l.hosts / 2;
	l.slow_from = 2 * l.commits / 5;
	l.numa01_from = 3 * l.commits / 4;
	l.pack_from = l.commits / 2;

	if (mkdir(l.tree, 0777) < 0 && errno != EEXIST)
		die("cannot create", l.tree);
	for (h = 0; h < l.hosts; h++)
		for (c = 0; c < l.commits; c++) {
			write_hackbench(&l, h, c);
			write_autonuma(&l, h, c);
			write_numatest(&l, h, c);
		}

	snprintf(path, sizeof(path), "%s.truth", l.tree);
	truth = fopen(path, "w");
	if (!truth)
		die("cannot write", path);
	fprintf(truth, "change host=%s benchmark=hackbench config=params=performance-pipe-8-process-100%%"
		       " metric=time from=%s before=%s factor=1.08\n",
		l.host[l.slow_host], l.commit[l.slow_from], l.commit[l.slow_from - 1]);
	fprintf(truth, "change host=* benchmark=autonuma config=params=performance-800%%,test=numa01 metric=elapsed"
		       " from=%s before=%s factor=1.10\n",
		l.commit[l.numa01_from], l.commit[l.numa01_from - 1]);
	if (l.pack)
		fprintf(truth, "change host=%s benchmark=numa_test config=tasks=4 metric=light_load_packed"
			       " from=%s before=%s nodes=1\n",
			l.host[0], l.commit[l.pack_from], l.commit[l.pack_from - 1]);
	fprintf(truth, "hosts=");
	for (h = 0; h < l.hosts; h++)
		fprintf(truth, "%s%s", h ? "," : "", l.host[h]);
	fprintf(truth, "\ncommits=%s %s %d\n", l.commit[0], l.commit[l.commits - 1], l.commits);
	close_out(truth);
	printf("genlab: hosts=%d commits=%d files=%ld\n", l.hosts, l.commits, l.files);
	free(l.host);
	free(l.speed);
	free(l.commit);
	return 0;
}
