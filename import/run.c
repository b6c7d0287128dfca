/*
 * run.c - `kbench run`'s engine (see run.h): the execution of a
 * benchmark command, the environment and the monitors around it, the
 * configs and their order, and one run's output into a source.
 */
#include "run.h"
#include "../core/num.h"
#include "../core/sha256.h"
#include "../core/util.h"
#include "../ingest/ingest.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* More output than this of one run is not kept (a benchmark's output is
 * kilobytes; the front end refuses more than INGEST_MAX_INFLATED). */
#define RUN_MAX_OUTPUT ((size_t)64 << 20)
/* How much of a failed run's stderr its error keeps (its end). */
#define RUN_ERR_TAIL 400

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void run_output_init(struct run_output *o)
{
	memset(o, 0, sizeof(*o));
}

void run_output_release(struct run_output *o)
{
	buf_release(&o->all);
	buf_release(&o->err);
	run_output_init(o);
}

/* The child's side of run_exec(): never returns. */
static void child(char *const argv[], int out, int errfd, int report)
{
	int null = open("/dev/null", O_RDONLY);
	int e;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
	if (null >= 0 && null != 0) {
		dup2(null, 0);
		close(null);
	}
	dup2(out, 1);
	dup2(errfd, 2);
	close(out);
	close(errfd);
	execvp(argv[0], argv);
	e = errno;
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Read what fd has into out (and into also, when not NULL): 0 at its end. */
static int drain(int fd, struct buf *out, struct buf *also)
{
	char chunk[8192];
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n == 0)
		return 0;
	if (out->len < RUN_MAX_OUTPUT)
		buf_add(out, chunk, (size_t)n);
	if (also && also->len < RUN_MAX_OUTPUT)
		buf_add(also, chunk, (size_t)n);
	return 1;
}

/* run_exec(), the command's group ended after timeout seconds when > 0. */
static int exec_timed(char *const argv[], struct run_output *out, volatile sig_atomic_t *stop,
		      double timeout, struct kb_err *err)
{
	int po[2], pe[2], pr[2], e = 0, st = 0, termed = 0;
	struct pollfd fds[2];
	double t0 = now_seconds();
	pid_t pid;
	ssize_t n;

	if (pipe2(po, O_CLOEXEC) < 0)
		return kb_err_set(err, "", 0, "cannot make a pipe: %s", strerror(errno));
	if (pipe2(pe, O_CLOEXEC) < 0) {
		close(po[0]);
		close(po[1]);
		return kb_err_set(err, "", 0, "cannot make a pipe: %s", strerror(errno));
	}
	if (pipe2(pr, O_CLOEXEC) < 0) {
		close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
		return kb_err_set(err, "", 0, "cannot make a pipe: %s", strerror(errno));
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(po[0]); close(po[1]); close(pe[0]); close(pe[1]); close(pr[0]); close(pr[1]);
		return kb_err_set(err, "", 0, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		/* the read ends close on exec; dup2 clears CLOEXEC on 1 and 2 */
		child(argv, po[1], pe[1], pr[1]);
	}
	setpgid(pid, pid);      /* also here: no race with the child's own */
	close(po[1]);
	close(pe[1]);
	close(pr[1]);
	do
		n = read(pr[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(pr[0]);
	if (n == (ssize_t)sizeof(e)) {
		close(po[0]);
		close(pe[0]);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		out->status = e == ENOENT || e == ENOTDIR ? 127 : 126;
		return kb_err_set(err, "", 0, "cannot run '%s': %s", argv[0], strerror(e));
	}
	fds[0].fd = po[0];
	fds[1].fd = pe[0];
	fds[0].events = fds[1].events = POLLIN;
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		int i, rc;

		if (!termed && ((stop && *stop >= 2) ||
				(timeout > 0 && now_seconds() - t0 > timeout))) {
			kill(-pid, SIGTERM);
			termed = 1;
		}
		rc = poll(fds, 2, 100);
		if (rc < 0 && errno != EINTR)
			break;
		for (i = 0; rc > 0 && i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!drain(fds[i].fd, &out->all, i == 1 ? &out->err : NULL)) {
				close(fds[i].fd);
				fds[i].fd = -1;
			}
		}
	}
	if (fds[0].fd >= 0)
		close(fds[0].fd);
	if (fds[1].fd >= 0)
		close(fds[1].fd);
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return kb_err_set(err, "", 0, "cannot wait for '%s': %s", argv[0],
					  strerror(errno));
		if (stop && *stop >= 2 && !termed) {
			kill(-pid, SIGTERM);
			termed = 1;
		}
	}
	out->seconds = now_seconds() - t0;
	if (WIFSIGNALED(st)) {
		out->signal = WTERMSIG(st);
		out->status = 128 + out->signal;
	} else {
		out->status = WEXITSTATUS(st);
	}
	return 0;
}

int run_exec(char *const argv[], struct run_output *out, volatile sig_atomic_t *stop,
	     struct kb_err *err)
{
	return exec_timed(argv, out, stop, 0, err);
}

/* The environment ------------------------------------------------------ */

static void env_put(struct run_env *e, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (strcmp(e->keys[i], key) == 0) {
			free(e->values[i]);
			e->values[i] = xstrdup(value);
			return;
		}
	if (e->n == e->cap) {
		e->cap = grow_cap(e->cap, e->n + 1);
		e->keys = xrealloc(e->keys, e->cap * sizeof(*e->keys));
		e->values = xrealloc(e->values, e->cap * sizeof(*e->values));
	}
	e->keys[e->n] = xstrdup(key);
	e->values[e->n++] = xstrdup(value);
}

const char *run_env_get(const struct run_env *e, const char *key)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (strcmp(e->keys[i], key) == 0)
			return e->values[i];
	return NULL;
}

static void missing(struct run_env *e, const char *what)
{
	if (e->missing.len)
		buf_puts(&e->missing, "; ");
	buf_puts(&e->missing, what);
}

/* The first line of a file, trailing blanks cut, into out: 0, or -1. */
static int read_line(const char *path, struct buf *out)
{
	FILE *f = fopen(path, "r");
	char line[4096];

	buf_reset(out);
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf_add(out, line, str_rtrim_len(line, strlen(line)));
	return 0;
}

/* The word in [brackets] of a THP setting ("always [madvise] never"). */
static void bracketed(struct buf *b)
{
	const char *o = strchr(buf_str(b), '['), *c = o ? strchr(o, ']') : NULL;
	char *w;

	if (!o || !c)
		return;
	w = xstrndup(o + 1, (size_t)(c - o - 1));
	buf_reset(b);
	buf_puts(b, w);
	free(w);
}

/* Run a helper (lscpu, numactl -H, tool --version) quietly: its output
 * into out; 0 when it ran and exited 0 (or any status when any_status). */
static int helper(char *const argv[], struct buf *out, int any_status)
{
	struct run_output o;
	struct kb_err err;
	int rc;

	run_output_init(&o);
	kb_err_clear(&err);
	rc = exec_timed(argv, &o, NULL, 10, &err);
	buf_reset(out);
	if (rc == 0 && (any_status || o.status == 0))
		buf_add(out, o.all.data ? o.all.data : "", o.all.len);
	else
		rc = -1;
	run_output_release(&o);
	return rc;
}

/* "CPU(s):   36" of lscpu: the number after label, or 0. */
static int lscpu_number(const char *text, const char *label)
{
	const char *p = text;
	size_t n = strlen(label);
	long v;

	while (p && *p) {
		const char *nl = strchr(p, '\n'), *q;
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len > n && memcmp(p, label, n) == 0) {
			q = str_skip_ws(p + n, p + len);
			if (num_parse_long(q, str_rtrim_len(q, (size_t)(p + len - q)), &v) == 0 && v > 0)
				return (int)v;
		}
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* lscpu's "Model name:" line's value into out, or nothing. */
static void lscpu_text(const char *text, const char *label, struct buf *out)
{
	const char *p = strstr(text, label), *nl, *q;

	buf_reset(out);
	if (!p || (p != text && p[-1] != '\n'))
		return;
	nl = strchr(p, '\n');
	if (!nl)
		nl = p + strlen(p);
	q = str_skip_ws(p + strlen(label), nl);
	buf_add(out, q, str_rtrim_len(q, (size_t)(nl - q)));
}

/* numactl -H through its parser: the machine it describes. */
static int numactl_machine(const char *text, size_t len, struct run_env *e)
{
	const struct ingest_parser *p = ingest_parser_find("numactl");
	struct ingest_opts io = { NULL, 0, NULL };
	struct ingest_doc doc;
	struct rec_batch b;
	struct kb_err err;
	int rc = -1;

	if (!p)
		return -1;
	memset(&doc, 0, sizeof(doc));
	arena_init(&doc.arena);
	rec_batch_init(&b);
	kb_err_clear(&err);
	if (ingest_doc_load(&doc, "numactl -H", text, len, &err) == 0 &&
	    ingest_parse_doc(&doc, &io, p, &b, NULL, &err) == 0 && b.nmachines) {
		if (b.machines[0].nodes > 0)
			e->nodes = b.machines[0].nodes;
		if (b.machines[0].cpus > 0 && !e->cpus)
			e->cpus = b.machines[0].cpus;
		if (b.machines[0].description)
			e->machine_desc = xstrdup(b.machines[0].description);
		rc = 0;
	}
	rec_batch_release(&b);
	ingest_doc_release(&doc);
	return rc;
}

/* The cpufreq governors of the CPUs: one word, or "ondemand (cpu0-3),
 * performance (cpu4-7)" style counts when they differ. */
static int governors(struct buf *out)
{
	struct buf line = BUF_INIT;
	char path[128];
	char **names = NULL;
	size_t *counts = NULL, n = 0, i;
	int cpu;

	buf_reset(out);
	for (cpu = 0; cpu < 8192; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 cpu);
		if (read_line(path, &line) < 0) {
			if (access(path, F_OK) < 0 && cpu > 0) {
				snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
				if (access(path, F_OK) < 0)
					break;
			}
			continue;
		}
		for (i = 0; i < n && strcmp(names[i], buf_str(&line)) != 0; i++)
			;
		if (i == n) {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			counts = xrealloc(counts, (n + 1) * sizeof(*counts));
			names[n] = xstrdup(buf_str(&line));
			counts[n++] = 0;
		}
		counts[i]++;
	}
	for (i = 0; i < n; i++) {
		if (n == 1)
			buf_puts(out, names[i]);
		else
			buf_printf(out, "%s%s (%zu CPUs)", i ? ", " : "", names[i], counts[i]);
		free(names[i]);
	}
	free(names);
	free(counts);
	buf_release(&line);
	return n ? 0 : -1;
}

/* The first line of text that names a version: a digit after a '.' or
 * 'V'/'v' word, not an error about the option. */
static int version_line(const char *text, struct buf *out)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), i;
		int digits = 0;

		for (i = 0; i + 2 < len; i++)
			if (isdigit((unsigned char)p[i]) && p[i + 1] == '.' &&
			    isdigit((unsigned char)p[i + 2]))
				digits = 1;
		if (digits && !str_find_ci(p, len, "unrecognized") && !str_find_ci(p, len, "invalid") &&
		    !str_find_ci(p, len, "usage")) {
			buf_reset(out);
			buf_add(out, p, str_rtrim_len(p, len));
			return 0;
		}
		p = nl ? nl + 1 : NULL;
	}
	return -1;
}

/* tool --version, for at most 2 seconds: only for the tools known to
 * answer it (others may take it for an argument and run the benchmark). */
static int tool_version_option(const char *tool, struct buf *out)
{
	static const char *const answer[] = { "perf", "make", "gcc", "cc", "time", "numactl" };
	const char *base = strrchr(tool, '/');
	char *argv[] = { (char *)tool, (char *)"--version", NULL };
	struct run_output o;
	struct kb_err err;
	size_t i;
	int rc;

	base = base ? base + 1 : tool;
	for (i = 0; i < ARRAY_SIZE(answer) && strcmp(answer[i], base) != 0; i++)
		;
	if (i == ARRAY_SIZE(answer))
		return -1;
	run_output_init(&o);
	kb_err_clear(&err);
	rc = exec_timed(argv, &o, NULL, 2, &err);
	if (rc == 0)
		rc = version_line(buf_str(&o.all), out);
	run_output_release(&o);
	return rc;
}

/* The file tool names: itself when it has a '/', else the first
 * executable of that name in $PATH, as execvp finds it.  Allocated, or
 * NULL. */
static char *tool_path(const char *tool)
{
	const char *path = getenv("PATH"), *p;
	struct buf b = BUF_INIT;

	if (strchr(tool, '/'))
		return realpath(tool, NULL);
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		buf_reset(&b);
		buf_add(&b, n ? p : ".", n ? n : 1);
		buf_printf(&b, "/%s", tool);
		if (access(buf_str(&b), X_OK) == 0) {
			char *r = realpath(buf_str(&b), NULL);
			buf_release(&b);
			return r;
		}
		p += n;
		if (*p == ':')
			p++;
	}
	buf_release(&b);
	return NULL;
}

/* The Debian package that owns tool's file and its version
 * ("rt-tests 2.4-1"): asks dpkg-query, which runs nothing of the tool. */
static int tool_package(const char *tool, struct buf *out)
{
	char *file = tool_path(tool), *pkg = NULL;
	struct buf b = BUF_INIT;
	const char *p;
	int rc = -1;

	if (!file)
		return -1;
	{
		char *argv[] = { (char *)"dpkg-query", (char *)"-S", file, NULL };
		if (helper(argv, &b, 0) < 0)
			goto out;
	}
	/* "rt-tests: /usr/bin/hackbench"; diversions' lines say "diversion by" */
	for (p = buf_str(&b); *p;) {
		const char *nl = strchr(p, '\n'), *colon;
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		colon = memchr(p, ':', len);
		if (colon && !str_starts(p, "diversion ") && !memchr(p, ' ', (size_t)(colon - p)) &&
		    !memchr(p, ',', (size_t)(colon - p))) {
			pkg = xstrndup(p, (size_t)(colon - p));
			break;
		}
		p = nl ? nl + 1 : p + len;
	}
	if (!pkg)
		goto out;
	{
		char *argv[] = { (char *)"dpkg-query", (char *)"-W", (char *)"-f", (char *)"${Version}",
				 pkg, NULL };
		if (helper(argv, &b, 0) < 0 || !b.len)
			goto out;
	}
	buf_reset(out);
	buf_printf(out, "%s %.*s (%s)", pkg, (int)str_rtrim_len(b.data, b.len), b.data, file);
	rc = 0;
out:
	free(pkg);
	free(file);
	buf_release(&b);
	return rc;
}

/* The tool's version: its own --version line where it is known to give
 * one, else the version of the Debian package that holds it. */
static int tool_version(const char *tool, struct buf *out)
{
	if (tool_version_option(tool, out) == 0)
		return 0;
	return tool_package(tool, out);
}

void run_env_capture(struct run_env *e, const char *tool)
{
	char *lscpu[] = { (char *)"lscpu", NULL };
	char *numactl[] = { (char *)"numactl", (char *)"-H", NULL };
	static const char *const files[][3] = {
		{ "cmdline", "/proc/cmdline", "" },
		{ "kernel.numa_balancing", "/proc/sys/kernel/numa_balancing", "" },
		{ "thp.enabled", "/sys/kernel/mm/transparent_hugepage/enabled", "[" },
		{ "thp.defrag", "/sys/kernel/mm/transparent_hugepage/defrag", "[" },
	};
	struct buf out = BUF_INIT, v = BUF_INIT;
	struct utsname u;
	size_t i;

	memset(e, 0, sizeof(*e));
	if (helper(lscpu, &out, 0) == 0) {
		e->cpus = lscpu_number(buf_str(&out), "CPU(s):");
		e->nodes = lscpu_number(buf_str(&out), "NUMA node(s):");
		lscpu_text(buf_str(&out), "Model name:", &v);
		if (v.len)
			env_put(e, "cpu.model", buf_str(&v));
	} else {
		missing(e, "lscpu (cannot run it)");
	}
	if (helper(numactl, &out, 0) == 0) {
		if (numactl_machine(out.data ? out.data : "", out.len, e) < 0)
			missing(e, "numactl -H (its output was not understood)");
	} else {
		missing(e, "numactl -H (cannot run it: is numactl installed?)");
	}
	if (!e->cpus) {
		long n = sysconf(_SC_NPROCESSORS_CONF);
		if (n > 0)
			e->cpus = (int)n;
	}
	if (!e->nodes) {
		/* the kernel's own list of nodes, when neither tool said */
		DIR *d = opendir("/sys/devices/system/node");
		struct dirent *de;
		int n = 0;

		while (d && (de = readdir(d)) != NULL)
			if (str_starts(de->d_name, "node") && str_all_digits(de->d_name + 4,
									     strlen(de->d_name + 4)) &&
			    de->d_name[4])
				n++;
		if (d)
			closedir(d);
		e->nodes = n;
	}
	if (uname(&u) == 0) {
		buf_reset(&v);
		buf_printf(&v, "%s %s %s %s %s", u.sysname, u.nodename, u.release, u.version,
			   u.machine);
		env_put(e, "uname", buf_str(&v));
		env_put(e, "kernel.release", u.release);
	} else {
		missing(e, "uname");
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (read_line(files[i][1], &v) < 0) {
			buf_reset(&out);
			buf_printf(&out, "%s (no %s)", files[i][0], files[i][1]);
			missing(e, buf_str(&out));
			continue;
		}
		if (files[i][2][0] == '[')
			bracketed(&v);
		env_put(e, files[i][0], buf_str(&v));
	}
	if (governors(&v) == 0)
		env_put(e, "cpufreq.governor", buf_str(&v));
	else
		missing(e, "cpufreq.governor (no /sys/devices/system/cpu/cpu*/cpufreq)");
	if (tool && tool_version(tool, &v) == 0)
		env_put(e, "tool.version", buf_str(&v));
	else if (tool) {
		buf_reset(&out);
		buf_printf(&out, "tool.version (%s: no --version line known, no Debian package)", tool);
		missing(e, buf_str(&out));
	}
	if (e->cpus) {
		buf_reset(&v);
		buf_printf(&v, "%d", e->cpus);
		env_put(e, "machine.cpus", buf_str(&v));
	}
	if (e->nodes) {
		buf_reset(&v);
		buf_printf(&v, "%d", e->nodes);
		env_put(e, "machine.nodes", buf_str(&v));
	}
	if (e->missing.len)
		env_put(e, "missing", buf_str(&e->missing));
	buf_release(&out);
	buf_release(&v);
}

void run_env_release(struct run_env *e)
{
	size_t i;

	for (i = 0; i < e->n; i++) {
		free(e->keys[i]);
		free(e->values[i]);
	}
	free(e->keys);
	free(e->values);
	free(e->machine_desc);
	buf_release(&e->missing);
	memset(e, 0, sizeof(*e));
}

/* Monitors --------------------------------------------------------------- */

int run_monitors_parse(const char *list, unsigned *mask, struct buf *msg)
{
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == 4 && memcmp(p, "numa", 4) == 0)
			*mask |= RUN_MON_NUMA;
		else if (n == 6 && memcmp(p, "vmstat", 6) == 0)
			*mask |= RUN_MON_VMSTAT;
		else if (n == 8 && memcmp(p, "numastat", 8) == 0)
			*mask |= RUN_MON_NUMASTAT;
		else if (!(n == 4 && memcmp(p, "none", 4) == 0)) {
			buf_printf(msg, "--monitor: unknown monitor '%.*s' (numa, vmstat, numastat "
				   "or none)", (int)(n > 64 ? 64 : n), p);
			return -1;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

static void counter_put(struct run_counters *c, const char *name, long long v)
{
	if (c->n == c->cap) {
		c->cap = grow_cap(c->cap, c->n + 1);
		c->names = xrealloc(c->names, c->cap * sizeof(*c->names));
		c->values = xrealloc(c->values, c->cap * sizeof(*c->values));
	}
	c->names[c->n] = xstrdup(name);
	c->values[c->n++] = v;
}

/* "name value" lines of path, as prefix.name counters (only names that
 * pass want, when not NULL). */
static void read_counters(const char *path, const char *prefix, int (*want)(const char *),
			  struct run_counters *c)
{
	FILE *f = fopen(path, "r");
	char line[512], name[256];
	long long v;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char full[320];

		if (sscanf(line, "%255s %lld", name, &v) != 2)
			continue;
		if (want && !want(name))
			continue;
		snprintf(full, sizeof(full), "%s.%s", prefix, name);
		counter_put(c, full, v);
	}
	fclose(f);
}

static int numa_counter(const char *name)
{
	return str_starts(name, "numa_") || str_starts(name, "pgmigrate_");
}

void run_counters_read(unsigned mask, struct run_counters *c)
{
	run_counters_release(c);
	if (mask & (RUN_MON_NUMA | RUN_MON_VMSTAT))
		read_counters("/proc/vmstat", "vmstat", mask & RUN_MON_VMSTAT ? NULL : numa_counter, c);
	if (mask & RUN_MON_NUMASTAT) {
		char path[128], prefix[64];
		int node, misses = 0;

		for (node = 0; node < 4096 && misses < 64; node++) {
			snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/numastat", node);
			if (access(path, R_OK) < 0) {
				misses++;       /* node ids may have holes */
				continue;
			}
			snprintf(prefix, sizeof(prefix), "numastat.node%d", node);
			read_counters(path, prefix, NULL, c);
		}
	}
}

void run_counters_release(struct run_counters *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->names);
	free(c->values);
	memset(c, 0, sizeof(*c));
}

/* The generator --------------------------------------------------------- */

void run_rng_seed(struct run_rng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t run_rng_next(struct run_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in 0..n-1 without modulo bias. */
static uint64_t below(struct run_rng *r, uint64_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = run_rng_next(r);
	while (x >= lim);
	return x % n;
}

void run_rng_shuffle(struct run_rng *r, size_t *perm, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n; i > 1; i--) {
		size_t j = (size_t)below(r, i), t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}

/* Configs --------------------------------------------------------------- */

int run_configs_parse(struct run_configs *c, const char *const *specs, size_t n,
		      struct buf *msg)
{
	size_t i, k;

	memset(c, 0, sizeof(*c));
	c->npoints = 1;
	c->keys = xcalloc(n + 1, sizeof(*c->keys));
	c->values = xcalloc(n + 1, sizeof(*c->values));
	c->nvalues = xcalloc(n + 1, sizeof(*c->nvalues));
	for (i = 0; i < n; i++) {
		const char *eq = strchr(specs[i], '='), *p;

		if (!eq || eq == specs[i]) {
			buf_printf(msg, "--config needs KEY=VALUE,VALUE..., not '%s'", specs[i]);
			return -1;
		}
		c->keys[i] = xstrndup(specs[i], (size_t)(eq - specs[i]));
		c->nkeys = i + 1;
		for (k = 0; k < i; k++)
			if (strcmp(c->keys[k], c->keys[i]) == 0) {
				buf_printf(msg, "--config %s is given twice (give its values in one list)",
					   c->keys[i]);
				return -1;
			}
		for (p = eq + 1;; p++) {
			size_t len = strcspn(p, ",");

			if (len == 0) {
				buf_printf(msg, "--config %s has an empty value", c->keys[i]);
				return -1;
			}
			c->values[i] = xrealloc(c->values[i], (c->nvalues[i] + 1) * sizeof(char *));
			c->values[i][c->nvalues[i]++] = xstrndup(p, len);
			p += len;
			if (!*p)
				break;
		}
		c->npoints = size_mul(c->npoints, c->nvalues[i]);
	}
	return 0;
}

void run_configs_release(struct run_configs *c)
{
	size_t i, k;

	for (i = 0; i < c->nkeys; i++) {
		free(c->keys[i]);
		for (k = 0; k < c->nvalues[i]; k++)
			free(c->values[i][k]);
		free(c->values[i]);
	}
	free(c->keys);
	free(c->values);
	free(c->nvalues);
	memset(c, 0, sizeof(*c));
}

const char *run_config_value(const struct run_configs *c, size_t p, size_t k)
{
	size_t i, stride = 1;

	/* the last key varies fastest */
	for (i = c->nkeys; i-- > k + 1;)
		stride *= c->nvalues[i];
	return c->values[k][(p / stride) % c->nvalues[k]];
}

void run_config_text(const struct run_configs *c, size_t p, struct buf *out)
{
	size_t k;

	buf_reset(out);
	for (k = 0; k < c->nkeys; k++)
		buf_printf(out, "%s%s=%s", k ? "," : "", c->keys[k], run_config_value(c, p, k));
}

static long key_index(const struct run_configs *c, const char *name, size_t len)
{
	size_t k;

	for (k = 0; k < c->nkeys; k++)
		if (strlen(c->keys[k]) == len && memcmp(c->keys[k], name, len) == 0)
			return (long)k;
	return -1;
}

int run_placeholders_check(const struct run_configs *c, char *const argv[], size_t argc,
			   struct buf *msg)
{
	unsigned char *used = xcalloc(c->nkeys + 1, 1);
	size_t i, k;
	int rc = 0;

	for (i = 0; i < argc && rc == 0; i++) {
		const char *p = argv[i], *o, *e;

		while ((o = strchr(p, '{')) != NULL) {
			long ki;

			e = strchr(o + 1, '}');
			if (!e)
				break;
			ki = key_index(c, o + 1, (size_t)(e - o - 1));
			if (ki < 0) {
				buf_printf(msg, "'%.*s' in the command names no --config key%s",
					   (int)(e - o + 1 > 64 ? 64 : e - o + 1), o,
					   c->nkeys ? "" : " (none given)");
				rc = -1;
				break;
			}
			used[ki] = 1;
			p = e + 1;
		}
	}
	for (k = 0; rc == 0 && k < c->nkeys; k++)
		if (!used[k]) {
			buf_printf(msg, "--config %s: the command has no {%s} to put its values in",
				   c->keys[k], c->keys[k]);
			rc = -1;
		}
	free(used);
	return rc;
}

char **run_argv_expand(const struct run_configs *c, size_t p, char *const argv[], size_t argc)
{
	char **out = xcalloc(argc + 1, sizeof(*out));
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < argc; i++) {
		const char *s = argv[i], *o, *e;

		buf_reset(&b);
		while ((o = strchr(s, '{')) != NULL && (e = strchr(o + 1, '}')) != NULL) {
			long ki = key_index(c, o + 1, (size_t)(e - o - 1));

			buf_add(&b, s, (size_t)(o - s));
			if (ki >= 0)
				buf_puts(&b, run_config_value(c, p, (size_t)ki));
			else
				buf_add(&b, o, (size_t)(e - o + 1));
			s = e + 1;
		}
		buf_puts(&b, s);
		out[i] = xstrdup(buf_str(&b));
	}
	buf_release(&b);
	return out;
}

void run_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* One run into a source -------------------------------------------------- */

/* "hackbench -g 2 'a b'": argv as a line, words with blanks quoted. */
static void command_line(char *const argv[], struct buf *out)
{
	size_t i;

	for (i = 0; argv[i]; i++) {
		const char *a = argv[i];

		if (i)
			buf_putc(out, ' ');
		if (*a && !a[strcspn(a, " \t\n'\"\\$`*?[]{}()<>|&;")]) {
			buf_puts(out, a);
			continue;
		}
		buf_putc(out, '\'');
		for (; *a; a++) {
			if (*a == '\'')
				buf_puts(out, "'\\''");
			else
				buf_putc(out, *a);
		}
		buf_putc(out, '\'');
	}
}

/* The end of a failed run's stderr, on one line. */
static void error_text(const struct run_output *out, struct buf *msg)
{
	const char *s = buf_str(&out->err);
	size_t len = str_rtrim_len(s, out->err.len), from = 0, i;

	if (out->signal)
		buf_printf(msg, "killed by signal %d (%s)", out->signal, strsignal(out->signal));
	else
		buf_printf(msg, "exit status %d", out->status);
	if (!len)
		return;
	if (len > RUN_ERR_TAIL) {
		from = len - RUN_ERR_TAIL;
		while (from < len && (((unsigned char)s[from]) & 0xc0) == 0x80)
			from++;
	}
	buf_puts(msg, ": ");
	if (from)
		buf_puts(msg, "...");
	for (i = from; i < len; i++)
		buf_putc(msg, s[i] == '\n' || s[i] == '\r' || s[i] == '\t' ? ' ' : s[i]);
}

/* The parsers' names, for the message of an output none claims. */
static void formats_tried(const struct import_opts *o, struct buf *msg)
{
	size_t n, i;
	const struct ingest_parser *const *p = ingest_parsers(&n);

	if (o->format) {
		buf_puts(msg, o->format);
		return;
	}
	for (i = 0; i < n; i++)
		buf_printf(msg, "%s%s", i ? ", " : "", p[i]->name);
}

/* The counters' deltas as samples of every run of b (neutral direction). */
static void add_deltas(struct rec_batch *b, const struct run_counters *before,
		       const struct run_counters *after)
{
	size_t i, k, r;

	if (!before || !after)
		return;
	for (i = 0; i < after->n; i++) {
		for (k = 0; k < before->n && strcmp(before->names[k], after->names[i]) != 0; k++)
			;
		if (k == before->n)
			continue;       /* (a node that came online meanwhile) */
		for (r = 0; r < b->nruns; r++)
			rec_sample_add(b, b->runs[r], after->names[i],
				       (double)(after->values[i] - before->values[k]), "", 0);
		rec_metric_declare(b, "", after->names[i], "", "none",
				   "counter delta over the run (kbench run --monitor)");
	}
}

/* The name of a failed run's benchmark when its output says none. */
static const char *bench_of(const struct run_source_opts *so, char *const argv[])
{
	const char *s;

	if (so->bench_hint)
		return so->bench_hint;
	s = strrchr(argv[0], '/');
	return s ? s + 1 : argv[0];
}

/* The names and the store's request of an item made here. */
static void fill_imp(const struct run_source_opts *so, struct import_item *it, size_t size)
{
	free(it->parent);
	free(it->label);
	it->parent = xstrdup(so->o->variant ? so->o->variant : "run");
	it->label = xstrdup(it->parent);
	it->imp.path = it->path;
	it->imp.sha256 = it->sha;
	it->imp.size = (long long)size;
	it->imp.format = buf_str(&it->fmt);
	it->imp.machine = so->o->machine;
	it->imp.variant = so->o->variant;
	it->imp.variant_fallback = it->parent;
	it->imp.scope_label = it->label;
	it->imp.global_labels = 1;
	it->imp.kernel = so->o->kernel;
}

struct import_item *run_source(const struct run_source_opts *so, char *const argv[],
			       const char **set, size_t nset, int iteration,
			       const struct run_output *out, const struct run_counters *before,
			       const struct run_counters *after)
{
	struct import_opts o = *so->o;
	struct buf text = BUF_INIT, cmd = BUF_INIT, name = BUF_INIT, msg = BUF_INIT;
	struct import_item *it;
	struct sha256 h;
	char nonce[64];
	size_t i;
	int failed = out->status != 0;

	command_line(argv, &cmd);
	buf_printf(&text, "$ %s\n", buf_str(&cmd));
	buf_add(&text, out->all.data ? out->all.data : "", out->all.len);
	buf_printf(&name, "kbench run %s #%d: %s", so->started, so->index, buf_str(&cmd));
	o.set = set;
	o.nset = nset;
	o.dry_run = o.replace = o.explain = 0;
	o.layout = LAYOUT_NONE;
	it = import_prepare(&o, buf_str(&name), &text, 0);
	if (it->kind != IMPORT_READY && !failed) {
		/* Output that no parser claims, of a command that succeeded. */
		struct kb_err why = it->err;

		buf_printf(&msg, "the output of '%s' is no format kbench reads (tried: ",
			   buf_str(&cmd));
		formats_tried(so->o, &msg);
		buf_puts(&msg, ")");
		if (why.msg[0] && !strstr(why.msg, "no benchmark output"))
			buf_printf(&msg, "; %s", why.msg);
		kb_err_set(&it->err, "", 0, "%s", buf_str(&msg));
		it->kind = IMPORT_FAILED;
		goto out;
	}
	if (it->kind != IMPORT_READY) {
		/* A failed command whose output holds no run: one run of its own. */
		struct rec_run *r;
		struct kb_err keep;

		kb_err_clear(&keep);
		it->kind = IMPORT_READY;
		it->err = keep;
		rec_batch_release(&it->batch);
		rec_batch_init(&it->batch);
		r = rec_run_new(&it->batch, bench_of(so, argv), 1);
		for (i = 0; i < nset; i++) {
			const char *eq = strchr(set[i], '=');
			char *k = eq ? xstrndup(set[i], (size_t)(eq - set[i])) : NULL;

			if (k)
				rec_run_config(&it->batch, r, k, eq + 1);
			free(k);
		}
		buf_reset(&it->fmt);
		rec_batch_finish(&it->batch);
		fill_imp(so, it, text.len);
	}
	if (failed) {
		error_text(out, &msg);
		for (i = 0; i < it->batch.nruns; i++)
			rec_run_fail(&it->batch, it->batch.runs[i], "%s", buf_str(&msg));
	}
	for (i = 0; i < it->batch.nruns; i++)
		it->batch.runs[i]->iteration = iteration;
	add_deltas(&it->batch, before, after);
	/* This execution's identity: the same bytes of another run are
	 * another run, not a copy to be skipped. */
	snprintf(nonce, sizeof(nonce), "%s|%ld|%d", so->started, so->pid, so->index);
	sha256_init(&h);
	sha256_update(&h, nonce, strlen(nonce));
	sha256_update(&h, "\n", 1);
	sha256_update(&h, text.data, text.len);
	sha256_final_hex(&h, it->sha);
	for (i = 0; i < it->batch.nsegments; i++) {
		struct rec_segment *sg = &it->batch.segments[i];
		char both[160];

		snprintf(both, sizeof(both), "%s%s", sg->hash, it->sha);
		sha256_hex(both, strlen(both), sg->hash);
	}
	if (so->env) {
		for (i = 0; i < so->env->n; i++)
			rec_env_add(&it->batch, so->env->keys[i], so->env->values[i]);
		rec_env_add(&it->batch, "command", buf_str(&cmd));
		if (so->env->cpus || so->env->nodes)
			rec_machine_add(&it->batch, NULL, so->env->cpus, so->env->nodes,
					so->env->machine_desc, 0);
	}
out:
	buf_release(&text);
	buf_release(&cmd);
	buf_release(&name);
	buf_release(&msg);
	return it;
}
