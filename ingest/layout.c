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
 */
#include "layout.h"
#include "../core/num.h"

#include <dirent.h>
#include <stdio.h>
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

static int all_digits(const char *s, size_t len)
{
	size_t i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* "iter-<N>" */
static int iter_dir(const char *s, int *n)
{
	long v;

	if (strncmp(s, "iter-", 5) != 0 || !all_digits(s + 5, strlen(s + 5)) ||
	    num_parse_long(s + 5, strlen(s + 5), &v) < 0 || v > 1000000)
		return 0;
	if (n)
		*n = (int)v;
	return 1;
}

/* Match file against result_files; fills kind (index), param, iteration. */
static int result_file(const char *file, int *kind, long *param, int *iteration)
{
	size_t k;

	for (k = 0; k < sizeof(result_files) / sizeof(result_files[0]); k++) {
		size_t plen = strlen(result_files[k].prefix);
		const char *p = file + plen;
		long nums[2];
		int n = 0;

		if (strncmp(file, result_files[k].prefix, plen) != 0)
			continue;
		while (*p == '-' && n < 2) {
			const char *start = ++p;
			while (*p >= '0' && *p <= '9')
				p++;
			if (p == start || p - start > 9 ||
			    num_parse_long(start, (size_t)(p - start), &nums[n]) < 0)
				return 0;
			n++;
		}
		if (*p || n < result_files[k].min_nums || n > result_files[k].max_nums)
			continue;
		*kind = (int)k;
		*param = nums[0];
		*iteration = n == 2 ? (int)nums[1] : 0;
		return 1;
	}
	return 0;
}

int layout_mmtests_parse(const char *path, struct layout_mmtests *li)
{
	char *comp[5];
	size_t len = strlen(path), n = 0;
	char *p;
	int kind;

	memset(li, 0, sizeof(*li));
	li->param = -1;
	if (len >= sizeof(li->buf))
		return -1;
	memcpy(li->buf, path, len + 1);
	/* Take the last five components, right to left. */
	p = li->buf + len;
	while (n < 5) {
		char *end;
		while (p > li->buf && p[-1] == '/')
			*--p = '\0';
		if (p == li->buf)
			break;
		end = p;
		while (p > li->buf && p[-1] != '/')
			p--;
		if (end == p)
			break;
		comp[n++] = p;
	}
	if (n < 5)
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

/* Does dir hold an iter-<N> directory (dir is a run directory)?  With
 * depth > 0, also look one level further down (dir is a log directory). */
static int holds_iter(const char *dir, int depth)
{
	char sub[4096];
	struct dirent *de;
	DIR *d = opendir(dir);
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >= sizeof(sub))
			continue;
		if (iter_dir(de->d_name, NULL))
			found = is_dir(sub);
		else if (depth > 0 && is_dir(sub))
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
