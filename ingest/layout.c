/*
 * layout.c - result-tree layouts: what a path says about a file.
 *
 * mmtests work/log tree (see layout.h):
 *
 *   log.ltccip8.2020-06-03_1400/forkintensive/iter-0/
 *       hackbench-thread-sockets/logs/hackbench-296-7
 *       hackbench-thread-sockets/logs/time-296-7
 *       hackbench-thread-sockets/logs/mmtests.log.gz
 *       ../tests-timestamp, ../mpstat-hackbench-thread-sockets.gz ...
 *
 * lkp result root (see layout.h):
 *
 *   hackbench/performance-pipe-8-process-100%/lkp-icl-2sp2/debian-12-x86_64/
 *       x86_64-rhel-9.4/gcc-12/0a1b2c3d4e/0/hackbench
 *       .../0/time, .../0/perf-stat, .../0/job.yaml, .../0/stats.json,
 *       .../0/kmsg.gz, .../0/vmstat.gz ...
 */
#include "layout.h"
#include "../core/num.h"
#include "../core/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Result files by name: prefix, then "-<n>" once or twice. */
static const struct {
	const char *prefix;
	int min_nums, max_nums;
} result_files[] = {
	{ "hackbench", 2, 2 },  /* hackbench-<groups>-<iteration> */
	{ "time", 1, 2 },       /* time-<groups>-<iteration>, time-<workers> */
};

/* "iter-<N>" */
static int iter_dir(const char *s, int *n)
{
	long v;

	if (strncmp(s, "iter-", 5) != 0 || !str_all_digits(s + 5, strlen(s + 5)) ||
	    num_parse_long(s + 5, strlen(s + 5), &v) < 0 || v > 1000000)
		return 0;
	if (n)
		*n = (int)v;
	return 1;
}

/* Length of a file name without a ".gz" suffix (compressed logs are
 * read like plain ones). */
static size_t name_len(const char *file)
{
	size_t len = strlen(file);

	return len > 3 && strcmp(file + len - 3, ".gz") == 0 ? len - 3 : len;
}

/* Match file against result_files; fills kind (index), param, iteration. */
static int result_file(const char *file, int *kind, long *param, int *iteration)
{
	const char *end = file + name_len(file);
	size_t k;

	for (k = 0; k < sizeof(result_files) / sizeof(result_files[0]); k++) {
		size_t plen = strlen(result_files[k].prefix);
		const char *p = file + plen;
		long nums[2];
		int n = 0;

		if (strncmp(file, result_files[k].prefix, plen) != 0)
			continue;
		while (p < end && *p == '-' && n < 2) {
			const char *start = ++p;
			while (p < end && *p >= '0' && *p <= '9')
				p++;
			if (p == start || p - start > 9 ||
			    num_parse_long(start, (size_t)(p - start), &nums[n]) < 0)
				return 0;
			n++;
		}
		if (p != end || n < result_files[k].min_nums || n > result_files[k].max_nums)
			continue;
		*kind = (int)k;
		*param = nums[0];
		*iteration = n == 2 ? (int)nums[1] : 0;
		return 1;
	}
	return 0;
}

/* Split the last want components of buf (a copy of a path) in place,
 * right to left: comp[0] is the file name.  Returns how many were found. */
/* "2020-06-03_1400", "2020-06-03": a date starts s. */
static int is_date(const char *s)
{
	int i;

	for (i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
			return 0;
	return 1;
}

static size_t last_components(char *buf, char **comp, size_t want)
{
	char *p = buf + strlen(buf);
	size_t n = 0;

	while (n < want) {
		char *end;
		while (p > buf && p[-1] == '/')
			*--p = '\0';
		if (p == buf)
			break;
		end = p;
		while (p > buf && p[-1] != '/')
			p--;
		if (end == p)
			break;
		comp[n++] = p;
	}
	return n;
}

int layout_mmtests_parse(const char *path, struct layout_mmtests *li)
{
	char *comp[5];
	size_t len = strlen(path);
	int kind;

	memset(li, 0, sizeof(*li));
	li->param = -1;
	if (len >= sizeof(li->buf))
		return -1;
	memcpy(li->buf, path, len + 1);
	if (last_components(li->buf, comp, 5) < 5)
		return -1;
	/* comp[0] file, [1] logs, [2] benchmark dir, [3] iter-N, [4] run */
	if (strcmp(comp[1], "logs") != 0 || !iter_dir(comp[3], &li->suite_iter) ||
	    strcmp(comp[4], ".") == 0 || strcmp(comp[4], "..") == 0)
		return -1;
	li->file = comp[0];
	li->bench_dir = comp[2];
	li->run = comp[4];
	if (result_file(li->file, &kind, &li->param, &li->iteration))
		li->kind = result_files[kind].prefix;
	if (strncmp(li->bench_dir, "hackbench-", 10) == 0) {
		const char *m = li->bench_dir + 10;
		if (strncmp(m, "process-", 8) == 0)
			li->mode = "process";
		else if (strncmp(m, "thread-", 7) == 0)
			li->mode = "thread";
		m = strchr(m, '-');
		if (m && strcmp(m, "-pipes") == 0)
			li->ipc = "pipe";
		else if (m && strcmp(m, "-sockets") == 0)
			li->ipc = "socket";
	}
	return 0;
}

int layout_mmtests_kernel_path(const char *path, char *out, size_t cap)
{
	struct layout_mmtests li;
	char buf[sizeof(li.buf)], *comp[3];
	int n;

	if (layout_mmtests_parse(path, &li) < 0)
		return -1;
	memcpy(buf, path, strlen(path) + 1);
	if (last_components(buf, comp, 3) < 3)
		return -1;
	/* comp[2] is the benchmark directory: what stands before it is
	 * <run>/iter-<N>/ */
	*comp[2] = '\0';
	n = snprintf(out, cap, "%skernel.version", buf);
	return n > 0 && (size_t)n < cap ? 0 : -1;
}

int layout_mmtests_root_host(const char *path, char *host, size_t cap)
{
	struct layout_mmtests li;
	char buf[sizeof(li.buf)], *comp[6];
	const char *h, *end;
	size_t len;

	if (layout_mmtests_parse(path, &li) < 0)
		return -1;
	memcpy(buf, path, strlen(path) + 1);
	if (last_components(buf, comp, 6) < 6)
		return -1;
	/* comp[5]: the log root, "log.<host>.<YYYY-MM-DD...>" */
	if (strncmp(comp[5], "log.", 4) != 0)
		return -1;
	h = comp[5] + 4;
	for (end = h; *end; end++)
		if (end > h && end[0] == '.' && strlen(end) >= 11 && is_date(end + 1))
			break;
	if (!*end)
		return -1;
	len = strcspn(h, ".");     /* the short host name */
	if (len == 0 || len >= cap || h + len > end)
		return -1;
	memcpy(host, h, len);
	host[len] = '\0';
	return 0;
}

int layout_uname_parse(const char *s, size_t len, char *host, size_t hcap, char *release,
		       size_t rcap)
{
	const char *p = s, *end = s + len, *tok[3];
	size_t tlen[3], n = 0, hl;

	while (n < 3) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end || *p == '\n')
			break;
		tok[n] = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		tlen[n] = (size_t)(p - tok[n]);
		n++;
	}
	if (n < 3 || tlen[0] != 5 || memcmp(tok[0], "Linux", 5) != 0 ||
	    tok[2][0] < '0' || tok[2][0] > '9')
		return -1;
	hl = strcspn(tok[1], ". \t\n");
	if (hl > tlen[1])
		hl = tlen[1];
	if (hl == 0 || hl >= hcap || tlen[2] >= rcap)
		return -1;
	memcpy(host, tok[1], hl);
	host[hl] = '\0';
	memcpy(release, tok[2], tlen[2]);
	release[tlen[2]] = '\0';
	return 0;
}

int layout_mmtests_wanted(const char *path)
{
	struct layout_mmtests li;

	if (layout_mmtests_parse(path, &li) < 0)
		return 0;
	return li.kind != NULL;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Can the entry de be a directory?  d_type answers without a stat()
 * for most entries: one stat per file made detection cost as much as the
 * import's own stat of each file.  Symbolic links and file systems that
 * do not fill d_type are asked through stat(), which follows links. */
static int maybe_dir(const struct dirent *de, const char *path)
{
	if (de->d_type == DT_DIR)
		return 1;
	if (de->d_type == DT_UNKNOWN || de->d_type == DT_LNK)
		return is_dir(path);
	return 0;
}

/* Does dir hold an iter-<N> directory (dir is a run directory)?  With
 * depth > 0, also look one level further down (dir is a log directory). */
static int holds_iter(const char *dir, int depth)
{
	char sub[4096];
	struct dirent *de;
	DIR *d = opendir(dir);
	size_t dlen = strlen(dir), nlen;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		/* dir/name, when it fits */
		nlen = strlen(de->d_name);
		if (dlen + 1 + nlen >= sizeof(sub))
			continue;
		memcpy(sub, dir, dlen);
		sub[dlen] = '/';
		memcpy(sub + dlen + 1, de->d_name, nlen + 1);
		if (iter_dir(de->d_name, NULL))
			found = is_dir(sub);
		else if (depth > 0 && maybe_dir(de, sub))
			/* a directory stat() could not see cannot be opened either */
			found = holds_iter(sub, depth - 1);
	}
	closedir(d);
	return found;
}

int layout_mmtests_detect(const char *dir)
{
	char buf[4096];
	size_t len = strlen(dir);
	char *p, *save = NULL, *prev = NULL;

	if (len == 0 || len >= sizeof(buf))
		return 0;
	if (!is_dir(dir))
		return 0;
	/* Inside a tree: some component below a run name is iter-<N>. */
	memcpy(buf, dir, len + 1);
	for (p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (prev && iter_dir(p, NULL) && strcmp(prev, ".") != 0 && strcmp(prev, "..") != 0)
			return 1;
		prev = p;
	}
	/* A run directory, a log directory (runs below), or work/ (log/ below). */
	return holds_iter(dir, 2);
}

void layout_apply(const char *path, struct rec_batch *b)
{
	struct layout_mmtests li;
	size_t i;

	if (layout_mmtests_parse(path, &li) < 0)
		return;
	b->global_labels = 1;
	for (i = 0; i < b->nruns; i++) {
		struct rec_run *r = b->runs[i];
		const char *mode = rec_run_config_get(r, "mode");
		const char *ipc = rec_run_config_get(r, "ipc");

		rec_run_variant(b, r, li.run, NULL, REC_ORIGIN_CONTEXT);
		if (!li.kind)
			continue;
		if (li.iteration > 0 && r->iteration == 0)
			r->iteration = li.iteration;
		/* The number in the file name is the group count only in
		 * hackbench's directories (schbench's time-<n> counts workers). */
		if (li.param >= 0 && strncmp(li.bench_dir, "hackbench", 9) == 0)
			rec_run_configf(b, r, "groups", "%ld", li.param);
		if (li.mode && !mode)
			rec_run_config(b, r, "mode", li.mode);
		if (li.ipc && !ipc)
			rec_run_config(b, r, "ipc", li.ipc);
	}
}

/* lkp ------------------------------------------------------------------- */

/* Program output files kbench reads, by the name lkp gives them. */
static const char *const lkp_programs[] = {
	"hackbench", "kernbench", "perf-stat", "time", "autonuma-benchmark",
	"perf-bench-sched-messaging", "numa_test", "schbench",
	"perf-bench-sched-pipe", "perf-bench-syscall", "perf-bench-mem",
	"perf-bench-numa-mem", "perf-bench-futex",
};

/* Monitor files kbench reads (numamon.c): their samples belong to the
 * run directory's benchmark run. */
static const char *const lkp_monitors[] = {
	"proc-vmstat", "numa-numastat", "numa-vmstat", "numa-meminfo", "vmstat",
	"memory--numa_stat",
};

/* The benchmark kbench's parsers name an lkp testcase's runs by. */
static const char *lkp_benchmark(const char *testcase)
{
	static const struct { const char *testcase, *benchmark; } names[] = {
		{ "autonuma-benchmark", "autonuma" },
		{ "perf-bench-sched-messaging", "hackbench" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(testcase, names[i].testcase) == 0)
			return names[i].benchmark;
	return testcase;
}

int layout_lkp_parse(const char *path, struct layout_lkp *li)
{
	char *comp[9];
	size_t len = strlen(path), k, i;
	long run;

	memset(li, 0, sizeof(*li));
	if (len >= sizeof(li->buf))
		return -1;
	memcpy(li->buf, path, len + 1);
	if (last_components(li->buf, comp, 9) < 9)
		return -1;
	/* comp[0] file, [1] run number, [2] commit, [3] compiler, [4] kconfig,
	 * [5] rootfs, [6] host, [7] params, [8] testcase */
	if (!str_all_digits(comp[1], strlen(comp[1])) || strlen(comp[1]) > 6 ||
	    num_parse_long(comp[1], strlen(comp[1]), &run) < 0)
		return -1;
	for (i = 2; i < 9; i++)
		if (strcmp(comp[i], ".") == 0 || strcmp(comp[i], "..") == 0)
			return -1;
	li->file = comp[0];
	li->run = (int)run;
	li->commit = comp[2];
	li->compiler = comp[3];
	li->kconfig = comp[4];
	li->rootfs = comp[5];
	li->host = comp[6];
	li->params = comp[7];
	li->testcase = comp[8];
	len = name_len(li->file);
	for (k = 0; k < sizeof(lkp_programs) / sizeof(lkp_programs[0]); k++)
		if (strlen(lkp_programs[k]) == len && strncmp(li->file, lkp_programs[k], len) == 0)
			li->program = lkp_programs[k];
	for (k = 0; k < sizeof(lkp_monitors) / sizeof(lkp_monitors[0]); k++)
		if (strlen(lkp_monitors[k]) == len && strncmp(li->file, lkp_monitors[k], len) == 0)
			li->program = lkp_monitors[k], li->monitor = 1;
	return 0;
}

/* A commit as lkp names its result directories: the sha (7 to 40 hex
 * digits) or git describe's "v6.9-rc1-123-g0a1b2c3" / "6.9.0-00005-g0a1b2c3". */
static int commit_like(const char *s)
{
	size_t len = strlen(s), i, h;
	const char *g;

	for (i = 0; i < len && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')); i++)
		;
	if (i == len)
		return len >= 7 && len <= 40;
	g = strstr(s, "-g");
	while (g && strstr(g + 2, "-g"))
		g = strstr(g + 2, "-g");
	if (!g || g == s)
		return 0;
	for (h = 0, g += 2; g[h] && ((g[h] >= '0' && g[h] <= '9') || (g[h] >= 'a' && g[h] <= 'f')); h++)
		;
	return !g[h] && h >= 7 && h <= 40 && s[0] >= '0' && (s[0] <= '9' || s[0] == 'v');
}

int layout_lkp_detect(const char *dir)
{
	struct layout_lkp li;
	struct dirent *e;
	char path[4200];
	DIR *d;
	int found = 0;

	if (snprintf(path, sizeof(path), "%s/x", dir) >= (int)sizeof(path) ||
	    layout_lkp_parse(path, &li) < 0 || !commit_like(li.commit))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (strcmp(e->d_name, "job.yaml") == 0)
			found = 1;
		else if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path) &&
			 layout_lkp_parse(path, &li) == 0 && li.program && !li.monitor)
			found = 1;
	}
	closedir(d);
	return found;
}

int layout_lkp_wanted(const char *path)
{
	struct layout_lkp li;

	return layout_lkp_parse(path, &li) == 0 && li.program != NULL;
}

/* A run's benchmark and configuration as one string, and its place. */
struct run_key {
	const char *key;
	size_t index;
};

static int run_key_cmp(const void *a, const void *b)
{
	const struct run_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

void layout_lkp_apply(const char *path, struct rec_batch *b)
{
	struct layout_lkp li;
	struct run_key *keys;
	size_t i, j;

	if (layout_lkp_parse(path, &li) < 0)
		return;
	/* The tree names commits and hosts for the whole lab: not a post's. */
	b->global_labels = 1;
	for (i = 0; i < b->nruns; i++) {
		struct rec_run *r = b->runs[i];
		rec_run_variant(b, r, li.commit, NULL, REC_ORIGIN_CONTEXT);
		rec_run_config(b, r, "params", li.params);
		r->machine = arena_strdup(&b->arena, li.host);
		/* a monitor watched the directory's benchmark run: its samples
		 * are that run's, in the directory's benchmark and params */
		if (li.monitor)
			r->benchmark = arena_strdup(&b->arena, lkp_benchmark(li.testcase));
	}
	/* kernbench's "Average ... Run" blocks are summaries. */
	for (i = 0; i < b->nsummaries; i++) {
		struct rec_summary *s = b->summaries[i];
		if (!s->variant)
			s->variant = arena_strdup(&b->arena, li.commit);
		rec_summary_config(b, s, "params", li.params);
	}
	/*
	 * A run directory is one execution of the job; a program may print
	 * several iterations in it (hackbench's "Iterations: N", autonuma's
	 * passes).  Number the k-th of count runs of one benchmark and
	 * configuration run * count + k + 1, so that directories 0, 1, 2 of
	 * one-run files give iterations 1, 2, 3 and many-run files do not
	 * collide across directories.
	 */
	if (b->nruns == 0)
		return;
	/* Sorted by key, then by position, each group of one benchmark and
	 * configuration is consecutive and in order: n log n, not the pairs. */
	keys = xmalloc(b->nruns * sizeof(*keys));
	for (i = 0; i < b->nruns; i++) {
		const struct rec_run *r = b->runs[i];
		keys[i].key = arena_printf(&b->arena, "%s\n%s", r->benchmark,
					   rec_config_string(&b->arena, r->config, r->nconfig));
		keys[i].index = i;
	}
	qsort(keys, b->nruns, sizeof(*keys), run_key_cmp);
	for (i = 0; i < b->nruns; i = j) {
		size_t k;
		for (j = i + 1; j < b->nruns && strcmp(keys[j].key, keys[i].key) == 0; j++)
			;
		for (k = i; k < j; k++) {
			long long it = li.run * (long long)(j - i) + (long long)(k - i) + 1;
			b->runs[keys[k].index]->iteration = it > INT_MAX ? INT_MAX : (int)it;
		}
	}
	free(keys);
}
