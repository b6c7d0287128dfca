/*
 * lkprobot.c - the kernel test robot's performance reports (0-day CI,
 * lkp-tests' "compare" output), as mailed to the lists since 2013.
 *
 * A report holds one section per test, each read as one segment:
 *
 *   =========================================================================================
 *   compiler/cpufreq_governor/ipc/iterations/kconfig/mode/nr_threads/rootfs/tbox_group/testcase:
 *     gcc-12/performance/socket/4/x86_64-rhel-9.4/threads/100%/debian-12-x86_64-20240206.cgz/lkp-icl-2sp2/hackbench
 *
 *   commit:
 *     8c57b687e8 ("mm, bpf: Introduce free_pages_nolock()")
 *     01d37228d3 ("memcg: Use trylock to access memcg stock_lock.")
 *
 *   8c57b687e8331eb8 01d37228d331047a0bbbd1026ce
 *   ---------------- ---------------------------
 *          fail:runs  %reproduction    fail:runs          <- optional, gives the runs
 *              |             |             |
 *             3:9          -33%            :8     dmesg.WARNING:at#for_ip_swapgs_restore_regs
 *            %stddev     %change         %stddev
 *                \          |                \
 *       415614           -26.6%     304910        hackbench.throughput
 *     58196111 ±  6%    +286.5%  2.249e+08 ±  7%  hackbench.time.involuntary_context_switches
 *        12.79 ±  2%     +10.0       22.80        mpstat.cpu.all.idle%      <- change in points
 *
 * Several commits give more "%change value" column pairs, each against
 * the first column.  The 2013 form has no parameter header: the column
 * header names the commits (or a release), "~ N%" is the spread, each
 * row ends in host/category/testcase/params, and the block's last row,
 * "TOTAL hackbench.throughput", names the metric (it is the sum of the
 * rows above, so it is not stored):
 *
 *         v3.13-rc3       eabb1f89905a0c809d13
 *   ---------------  -------------------------
 *        88901 ~ 2%      -3.1%      86131 ~ 0%  brickland2/micro/hackbench/600%-process-pipe
 *       407038           +1.2%     412032       TOTAL hackbench.throughput
 *
 * A reply may quote the column header and a few rows alone; it is read
 * when its rows name one testcase.
 *
 * What each row becomes: one published summary per column (variant =
 * the commit, its title the description; benchmark = testcase; machine
 * = tbox_group; config = the other parameters), mean as printed.  What
 * lkp-tests prints, from its lib/compare.rb and lib/statistics.rb:
 *  - "± N%" is 100 * sd / mean with sd the population deviation (divided
 *    by n), printed with %d: the true value is in [N, N+1).  Since 2017
 *    (lkp commit 444875846, "Compare: hide small stddev") it is printed
 *    only above 2%: a blank then means at most 2% (or a single run).
 *    kbench stores the upper end, flagged "sd_bound": a test run on it is
 *    never more sure than the data allow.  The printed N is kept as the
 *    statistic stddev_pct.  A blank in a table that prints 0% or 1% (the
 *    older form) is an unknown sd.
 *  - n is the runs of the fail:runs block (":4" is 0 of 4 runs), the
 *    same for every row of that column; else --set runs=N; else unknown.
 *    With n known the sd becomes the sample one (times sqrt(n / (n-1))).
 *  - %change is each column against the first: kept as pub_change of
 *    the candidate's summary.  Rows of perf-profile.* and of names ending
 *    in "%" print a change in points: kept as the statistic change_abs.
 *    The robot lists only the rows its own test found changed and prints
 *    no mark: pub_mark is "", except on a change the report names in its
 *    own words ("kernel test robot noticed a -26.6% regression of
 *    hackbench.throughput", its "testcase: change" table: struct
 *    ingest_claim), of the same size, commit and parameters: "*", the
 *    robot's own verdict, as mmtests marks its significant changes.
 */
#include "parsers.h"
#include "../core/num.h"
#include "../core/util.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#define MAXCOL 16               /* commit columns a table may have */
#define LOOKAHEAD 48            /* lines from a parameter header to its column header */

/* Row reading ------------------------------------------------------------ */

struct cell {
	double value;
	int sd_pct;             /* printed relative sd, -1 when blank */
	double change;          /* against column 0 (NAN in column 0) */
	int change_pct;         /* the change carries '%' */
};

struct row {
	struct cell c[MAXCOL];
	const char *name;       /* the stat's name as printed */
	size_t name_len;
	int total;              /* "TOTAL name" (2013) */
};

static const char *skip_ws(const char *p, const char *end)
{
	return str_skip_ws(p, end);
}

/* The end of the token at p. */
static const char *tok_end(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* A number at *p ("41235", "1.1e+09", "-0.1", "+3e+14"); moves *p past it. */
static int read_num(const char **p, const char *end, double *v)
{
	const char *s = *p, *q = s;

	if (q < end && (*q == '+' || *q == '-'))
		q++;
	while (q < end && ((*q >= '0' && *q <= '9') || *q == '.'))
		q++;
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *r = q + 1;
		if (r < end && (*r == '+' || *r == '-'))
			r++;
		if (r < end && *r >= '0' && *r <= '9') {
			while (r < end && *r >= '0' && *r <= '9')
				r++;
			q = r;
		}
	}
	if (q == s || num_parse(s, (size_t)(q - s), v) < 0)
		return -1;
	*p = q;
	return 0;
}

/* The spread after a value: "±  2%", "±111%" (UTF-8 U+00B1) or the 2013
 * "~ 1%", "~51%".  Sets *pct (-1 when there is none). */
static int read_sd(const char **p, const char *end, int *pct)
{
	const char *q = skip_ws(*p, end);
	long v;
	const char *d;

	*pct = -1;
	if (q + 1 < end && (unsigned char)q[0] == 0xC2 && (unsigned char)q[1] == 0xB1)
		q += 2;
	else if (q < end && *q == '~')
		q++;
	else
		return 0;
	q = skip_ws(q, end);
	d = q;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == d || q >= end || *q != '%' || q - d > 6 || num_parse_long(d, (size_t)(q - d), &v) < 0)
		return -1;
	*pct = (int)v;
	*p = q + 1;
	return 0;
}

/* One row of the %stddev block with ncol columns; 0 when l is none. */
static int read_row(const struct ingest_line *l, int ncol, struct row *r)
{
	const char *p = l->s, *end = l->s + str_rtrim_len(l->s, l->len), *e;
	int c;

	for (c = 0; c < ncol; c++) {
		struct cell *x = &r->c[c];

		p = skip_ws(p, end);
		x->change = NAN;
		x->change_pct = 0;
		if (c > 0) {
			if (p >= end || (*p != '+' && *p != '-'))
				return 0;
			if (end - p >= 5 && (memcmp(p + 1, "Inf%", 4) == 0 || memcmp(p + 1, "NaN%", 4) == 0)) {
				/* a change from 0 (lkp before 2015) */
				x->change = p[1] == 'I' ? (*p == '-' ? -INFINITY : INFINITY) : NAN;
				p += 4;
			} else if (read_num(&p, end, &x->change) < 0) {
				return 0;
			}
			if (p < end && *p == '%') {
				x->change_pct = 1;
				p++;
			}
			if (p < end && *p != ' ')
				return 0;
			p = skip_ws(p, end);
		}
		x->value = NAN;
		if (p < end && (*p == '~' || (unsigned char)*p == 0xC2)) {
			/* 2014: a spread with no value ("     ~ 1%"), no mean */
		} else if (read_num(&p, end, &x->value) < 0 || (p < end && *p != ' ')) {
			return 0;
		}
		if (read_sd(&p, end, &x->sd_pct) < 0 || (p < end && *p != ' '))
			return 0;
	}
	p = skip_ws(p, end);
	if (p >= end)
		return 0;
	r->total = 0;
	e = tok_end(p, end);
	if (e - p == 5 && memcmp(p, "TOTAL", 5) == 0 && e < end) {
		r->total = 1;
		p = skip_ws(e, end);
		e = tok_end(p, end);
	}
	if (e != end || p == end)
		return 0;
	r->name = p;
	r->name_len = (size_t)(e - p);
	return 1;
}

/* One row of the fail:runs block: "3:9  -33%  :8  name".  runs[c] gets
 * each column's runs; 0 when l is none. */
static int read_fail_row(const struct ingest_line *l, int ncol, long *runs)
{
	const char *p = l->s, *end = l->s + str_rtrim_len(l->s, l->len);
	int c;

	for (c = 0; c < ncol; c++) {
		const char *d;
		double v;

		p = skip_ws(p, end);
		if (c > 0) {
			if (read_num(&p, end, &v) < 0)
				return 0;
			if (p < end && *p == '%')
				p++;
			p = skip_ws(p, end);
		}
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p >= end || *p != ':')
			return 0;
		d = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == d || p - d > 6 || num_parse_long(d, (size_t)(p - d), &runs[c]) < 0 ||
		    (p < end && *p != ' '))
			return 0;
	}
	p = skip_ws(p, end);
	return p < end;
}

/* Headers ---------------------------------------------------------------- */

static int is_equals_line(const struct ingest_line *l)
{
	const char *p = skip_ws(l->s, l->s + l->len), *end = l->s + str_rtrim_len(l->s, l->len);
	const char *q = p;

	while (q < end && *q == '=')
		q++;
	return q == end && end - p >= 20;
}

static int key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

/* "compiler/cpufreq_governor/.../testcase:": the slash-separated keys,
 * one of them testcase. */
static int is_keys_line(const struct ingest_line *l)
{
	const char *p = skip_ws(l->s, l->s + l->len), *end = l->s + str_rtrim_len(l->s, l->len);
	const char *q;
	int slashes = 0;

	if (end - p < 12 || end[-1] != ':' || !key_char(*p))
		return 0;
	for (q = p; q < end - 1; q++) {
		if (*q == '/')
			slashes++;
		else if (!key_char(*q))
			return 0;
	}
	return slashes >= 1 && str_find(p, (size_t)(end - p), "testcase") != NULL;
}

/* 2014's "test case: ivb44/vm-scalability/300s-migrate" over its table. */
static int is_testcase_line(const struct ingest_line *l)
{
	const char *p = skip_ws(l->s, l->s + l->len), *end = l->s + str_rtrim_len(l->s, l->len);

	return end - p > 15 && memcmp(p, "test case: ", 11) == 0 &&
	       memchr(p + 11, '/', (size_t)(end - p - 11)) != NULL &&
	       tok_end(skip_ws(p + 11, end), end) == end;
}

/* A column header token: a commit id, a release, a branch name. */
static int id_token(const struct ingest_tok *t)
{
	size_t i;

	if (t->len < 2 || t->len > 64)
		return 0;
	for (i = 0; i < t->len; i++)
		if (!key_char(t->s[i]) && t->s[i] != '+' && t->s[i] != '/')
			return 0;
	return 1;
}

static int hex_token(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return len > 0;
}

/* The column header (ids) at l[0] over its dash line l[1]: the number of
 * columns, 0 when it is none. */
static int column_header(const struct ingest_line *l, size_t n, struct ingest_tok *ids)
{
	struct ingest_tok dash[MAXCOL + 1];
	const char *p;
	size_t nt, nd, i, j;
	int hexish = 0;

	if (n < 2)
		return 0;
	p = skip_ws(l[1].s, l[1].s + l[1].len);
	if (p >= l[1].s + l[1].len || *p != '-')
		return 0;
	nd = ingest_split(l[1].s, l[1].len, dash, MAXCOL + 1);
	if (nd < 2 || nd > MAXCOL)
		return 0;
	for (i = 0; i < nd; i++) {
		if (dash[i].len < 3)
			return 0;
		for (j = 0; j < dash[i].len; j++)
			if (dash[i].s[j] != '-')
				return 0;
	}
	nt = ingest_split(l[0].s, l[0].len, ids, MAXCOL);
	if (nt != nd)
		return 0;
	for (i = 0; i < nt; i++) {
		if (!id_token(&ids[i]))
			return 0;
		if ((ids[i].len >= 7 && hex_token(ids[i].s, ids[i].len)) ||
		    (ids[i].s[0] == 'v' && ids[i].len > 1 && ids[i].s[1] >= '0' && ids[i].s[1] <= '9'))
			hexish = 1;
	}
	return hexish ? (int)nt : 0;
}

/* "%stddev  %change  %stddev ..." or "fail:runs  %reproduction  fail:runs
 * ...": 1 when l is that header for ncol columns. */
static int block_header(const struct ingest_line *l, int ncol, const char *value, const char *change)
{
	struct ingest_tok t[2 * MAXCOL + 1];
	size_t nt = ingest_split(l->s, l->len, t, 2 * MAXCOL + 1), i;

	if (nt != (size_t)(2 * ncol - 1))
		return 0;
	for (i = 0; i < nt; i++)
		if (!ingest_tok_is(&t[i], i % 2 ? change : value))
			return 0;
	return 1;
}

/* The "\  |  \" or "|  |  |" line under a block header. */
static int bar_line(const struct ingest_line *l)
{
	const char *p = l->s, *end = l->s + l->len;
	int any = 0;

	for (; p < end; p++) {
		if (*p == '\\' || *p == '|')
			any = 1;
		else if (*p != ' ')
			return 0;
	}
	return any;
}

/* The layout of one section, as claim and parse both walk it. */
struct layout {
	size_t keys;            /* index of the keys line, or (size_t)-1 */
	size_t testcase;        /* index of 2014's "test case: host/test/params", or (size_t)-1 */
	size_t commits;         /* index of "commit:", or (size_t)-1 */
	size_t colhdr;          /* index of the column header */
	int ncol;
	struct ingest_tok ids[MAXCOL];
	size_t fail_first, fail_end;    /* fail:runs rows */
	size_t rows_first, rows_end;    /* %stddev rows (or the 2013 rows) */
	int old_form;           /* no %stddev header: the 2013 layout */
};

/* Walk the section starting at lines[0]; 0 when none starts there. */
static size_t walk(const struct ingest_line *lines, size_t n, struct layout *lo)
{
	struct row r;
	long runs[MAXCOL];
	size_t i = 0, limit;

	memset(lo, 0, sizeof(*lo));
	lo->keys = lo->commits = lo->testcase = (size_t)-1;
	if (is_equals_line(&lines[0]) && n > 1 && is_keys_line(&lines[1]))
		i = 1;
	if (is_testcase_line(&lines[0])) {
		lo->testcase = 0;
		for (i = 1; i < n && i < 4 && ingest_line_blank(&lines[i]); i++)
			;
		if (i >= n || (lo->ncol = column_header(&lines[i], n - i, lo->ids)) <= 0)
			return 0;
	} else if (is_keys_line(&lines[i])) {
		lo->keys = i;
		if (i + 1 >= n || ingest_line_blank(&lines[i + 1]))
			return 0;
		i += 2;
		limit = i + LOOKAHEAD < n ? i + LOOKAHEAD : n;
		for (; i < limit; i++) {
			if (ingest_line_blank(&lines[i]))
				continue;
			if ((lo->ncol = column_header(&lines[i], n - i, lo->ids)) > 0)
				break;
			if (lo->commits == (size_t)-1 && lines[i].len >= 7) {
				const char *p = skip_ws(lines[i].s, lines[i].s + lines[i].len);
				if (str_starts(p, "commit:"))
					lo->commits = i;
			}
			if (lo->commits == (size_t)-1)
				return 0;       /* only the commit list stands between */
		}
		if (lo->ncol <= 0)
			return 0;
	} else if ((lo->ncol = column_header(&lines[0], n, lo->ids)) <= 0) {
		return 0;
	}
	lo->colhdr = i;
	i += 2;
	if (i + 1 < n && block_header(&lines[i], lo->ncol, "fail:runs", "%reproduction") &&
	    bar_line(&lines[i + 1])) {
		i += 2;
		lo->fail_first = i;
		while (i < n && read_fail_row(&lines[i], lo->ncol, runs))
			i++;
		lo->fail_end = i;
	}
	if (i + 1 < n && block_header(&lines[i], lo->ncol, "%stddev", "%change") &&
	    bar_line(&lines[i + 1]))
		i += 2;
	else if (lo->fail_end == 0)
		lo->old_form = 1;
	lo->rows_first = i;
	while (i < n && read_row(&lines[i], lo->ncol, &r))
		i++;
	lo->rows_end = i;
	if (lo->rows_end == lo->rows_first && lo->fail_end == lo->fail_first)
		return 0;
	return i;
}

static size_t lkprobot_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			     size_t n, int *score)
{
	struct layout lo;
	const char *p = skip_ws(lines[0].s, lines[0].s + lines[0].len);
	size_t len;

	(void)opts;
	/* Cheap no: a section starts with "====", its keys line or a column
	 * header over a dash line. */
	if (p >= lines[0].s + lines[0].len)
		return 0;
	if (*p != '=' && !key_char(*p))
		return 0;
	if (*p != '=' && (n < 2 || !memchr(lines[0].s, '/', lines[0].len))) {
		const char *q;
		if (n < 2)
			return 0;
		q = skip_ws(lines[1].s, lines[1].s + lines[1].len);
		if (q >= lines[1].s + lines[1].len || *q != '-')
			return 0;
	}
	len = walk(lines, n, &lo);
	if (!len)
		return 0;
	*score = 90;
	return len;
}

/* Parsing ---------------------------------------------------------------- */

struct variant {
	const char *name;
	const char *desc;
};

struct section {
	struct rec_batch *out;
	const char *testcase;   /* NULL: from the rows */
	const char *machine;
	struct rec_kv kv[64];
	size_t nkv;
	struct variant v[MAXCOL];
	int ncol;
	long n[MAXCOL];         /* runs per column, 0 unknown */
	int hide_small;         /* blank = sd at most 2% */
	int noted_abs, noted_blank, noted_inf;
	const struct ingest_ctx *ctx;
};

/* The monitors lkp runs beside every test: their stats name no testcase. */
static const char *const monitors[] = {
	"perf-stat", "perf-profile", "perf-sched", "perf-c2c", "vmstat", "proc-vmstat",
	"numa-vmstat", "numa-meminfo", "numa-numastat", "meminfo", "sched_debug", "slabinfo",
	"interrupts", "softirqs", "turbostat", "mpstat", "cpuidle", "uptime", "iostat",
	"pmeter", "lock_stat", "latency_stats", "boot-time", "time", "kmsg", "dmesg",
	"stderr", "last_state", "pagetypeinfo", "buddyinfo", "cpufreq-stats", "diskstats",
	"ftrace", "lkp-stat", "oom-killer", "perf-stat-extra", "sched_stat", "sched_stats",
	"perf-trace",
};

static int is_monitor(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(monitors) / sizeof(monitors[0]); i++)
		if (strlen(monitors[i]) == len && memcmp(monitors[i], s, len) == 0)
			return 1;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

static int has_word(const char *s, const char *word)
{
	return strcasestr(s, word) != NULL;
}

/*
 * Unit and direction of a test program's own stat ("hackbench.throughput",
 * "netperf.Throughput_Mbps", "fio.write_clat_mean_us" under fio-basic: the
 * testcase starts with the stat's prefix); 0 when metric is a monitor's
 * stat or one whose direction the name does not tell.
 */
static int classify(const char *testcase, const char *metric, const char **unit,
		    const char **better)
{
	const char *dot = strchr(metric, '.');
	size_t pl = dot ? (size_t)(dot - metric) : 0;
	const char *m = dot ? dot + 1 : metric;

	*unit = "";
	*better = "none";
	/* the test program's own stats: "fio.write_iops" under fio-basic */
	if (!pl || strncmp(metric, testcase, pl) != 0 || is_monitor(metric, pl))
		return 0;
	/* lkp's own accounting of the job (/usr/bin/time): no direction */
	if (str_starts(m, "time.") || ends_with(m, "%"))
		return 0;
	if (has_word(m, "throughput") || ends_with(m, "_ops") || ends_with(m, ".ops") ||
	    has_word(m, "ops_per_sec") || ends_with(m, "_per_sec") || ends_with(m, "/sec") ||
	    ends_with(m, "/s") || has_word(m, "jobs-per-min") || has_word(m, "per_min") ||
	    ends_with(m, "score") || ends_with(m, "iops") || has_word(m, "_bw_") ||
	    ends_with(m, "_bw") || ends_with(m, "mbps") || ends_with(m, "_tps") ||
	    strcmp(m, "workload") == 0) {
		*better = "higher";
		return 1;
	}
	if (has_word(m, "latency") || has_word(m, "clat") || has_word(m, "_lat_") ||
	    has_word(m, "buildtime") || ends_with(m, "elapsed_time") || has_word(m, "duration")) {
		*better = "lower";
		if (ends_with(m, "_ms") || ends_with(m, ".ms"))
			*unit = "ms";
		else if (ends_with(m, "_us") || ends_with(m, ".us"))
			*unit = "us";
		else if (ends_with(m, "_ns") || ends_with(m, ".ns"))
			*unit = "ns";
		return 1;
	}
	return 0;
}

/* Variant name of a column id: a commit id is cut to lkp's 10 digits, so
 * one commit has one name across reports; a release stays as printed. */
static const char *id_name(struct arena *a, const char *s, size_t len)
{
	if (len > 10 && hex_token(s, len))
		len = 10;
	return arena_strndup(a, s, len);
}

/* The parameter header: keys over values, split at '/'. */
static int read_params(struct section *sc, const struct ingest_line *keys,
		       const struct ingest_line *vals)
{
	const char *kp = skip_ws(keys->s, keys->s + keys->len);
	const char *kend = keys->s + str_rtrim_len(keys->s, keys->len) - 1;     /* the ':' */
	const char *vp = skip_ws(vals->s, vals->s + vals->len);
	const char *vend = vals->s + str_rtrim_len(vals->s, vals->len);
	size_t nk = 1, nv = 1;
	const char *q;

	for (q = kp; q < kend; q++)
		nk += *q == '/';
	for (q = vp; q < vend; q++)
		nv += *q == '/';
	if (nk != nv || nk > 64) {
		rec_note(sc->out, vals->lineno,
			 "lkp-report: %zu parameter names over %zu values: the values cannot be "
			 "placed, the section is not stored", nk, nv);
		return -1;
	}
	while (kp < kend) {
		const char *ke = memchr(kp, '/', (size_t)(kend - kp));
		const char *ve = memchr(vp, '/', (size_t)(vend - vp));
		char *k, *v;

		if (!ke)
			ke = kend;
		if (!ve)
			ve = vend;
		k = arena_strndup(&sc->out->arena, kp, (size_t)(ke - kp));
		v = arena_strndup(&sc->out->arena, vp, (size_t)(ve - vp));
		if (!*k || !*v) {
			rec_note(sc->out, vals->lineno,
				 "lkp-report: an empty parameter name or value: the section is not stored");
			return -1;
		}
		if (strcmp(k, "testcase") == 0) {
			sc->testcase = v;
		} else if (strcmp(k, "tbox_group") == 0) {
			sc->machine = v;
		} else {
			sc->kv[sc->nkv].key = k;
			sc->kv[sc->nkv++].value = v;
		}
		kp = ke + 1;
		vp = ve + 1;
	}
	if (!sc->testcase)
		return -1;
	/* kbench's hackbench parsers say mode=thread for lkp's "threads" */
	if (strcmp(sc->testcase, "hackbench") == 0) {
		size_t i;
		for (i = 0; i < sc->nkv; i++)
			if (strcmp(sc->kv[i].key, "mode") == 0 && strcmp(sc->kv[i].value, "threads") == 0) {
				sc->kv[i].value = "thread";
				rec_note(sc->out, vals->lineno,
					 "lkp-report: hackbench mode=threads is stored as mode=thread, "
					 "the name kbench's hackbench parsers use");
			}
	}
	return 0;
}

/* "commit:" and its indented "id ("title")" lines: the titles of the
 * columns whose id starts alike. */
static void read_commits(struct section *sc, const struct ingest_line *lines, size_t first,
			 size_t end, const struct layout *lo)
{
	size_t i;
	int c = 0;

	for (i = first + 1; i < end && c < lo->ncol; i++) {
		const struct ingest_line *l = &lines[i];
		const char *p = skip_ws(l->s, l->s + l->len), *e = l->s + str_rtrim_len(l->s, l->len);
		const char *idend = tok_end(p, e), *t;
		size_t idlen = (size_t)(idend - p), cl = lo->ids[c].len;

		if (p >= e)
			break;
		if (strncasecmp(p, lo->ids[c].s, idlen < cl ? idlen : cl) != 0) {
			rec_note(sc->out, l->lineno,
				 "lkp-report: the commit list does not match the column header: the "
				 "columns keep their own names, with no title");
			for (c = 0; c < lo->ncol; c++) {
				sc->v[c].name = id_name(&sc->out->arena, lo->ids[c].s, lo->ids[c].len);
				sc->v[c].desc = NULL;
			}
			return;
		}
		sc->v[c].name = id_name(&sc->out->arena, p, idlen);
		t = skip_ws(idend, e);
		if (e - t >= 4 && t[0] == '(' && t[1] == '"' && e[-1] == ')' && e[-2] == '"')
			sc->v[c].desc = arena_strndup(&sc->out->arena, t + 2, (size_t)(e - t - 4));
		c++;
	}
}

/* Runs per column from the fail:runs rows, when they agree. */
static void read_runs(struct section *sc, const struct ingest_line *lines, const struct layout *lo)
{
	long runs[MAXCOL];
	size_t i;
	int c, agree = 1;

	for (i = lo->fail_first; i < lo->fail_end; i++) {
		read_fail_row(&lines[i], lo->ncol, runs);
		for (c = 0; c < lo->ncol; c++) {
			if (i == lo->fail_first)
				sc->n[c] = runs[c];
			else if (sc->n[c] != runs[c])
				agree = 0;
		}
		if (str_find(lines[i].s, lines[i].len, "last_state.is_incomplete_run"))
			agree = 0;
	}
	if (lo->fail_end == lo->fail_first)
		return;
	if (!agree) {
		for (c = 0; c < lo->ncol; c++)
			sc->n[c] = 0;
		rec_note(sc->out, lines[lo->fail_first].lineno,
			 "lkp-report: the fail:runs rows disagree on the runs, or some runs were "
			 "incomplete: n is unknown");
		return;
	}
	rec_note(sc->out, lines[lo->fail_first].lineno,
		 "lkp-report: n per column from the fail:runs rows (%ld runs of %s%s); they are "
		 "not stored themselves (counts of failures)", sc->n[0], sc->v[0].name,
		 lo->ncol > 1 ? ", and so on" : "");
	for (c = 1; c < lo->ncol; c++)
		if (sc->n[c] < 1)
			sc->n[c] = 0;
}

/* The change the report names in its own words for this row's column c
 * (struct ingest_claim): the same stat and testcase, the same size as
 * printed, the commit of the column, and no parameter of its own that the
 * section's say otherwise; NULL when none. */
static const struct ingest_claim *claim_for(const struct section *sc, const char *bench,
					    const char *metric, int c, double change)
{
	const struct ingest_ctx *ctx = sc->ctx;
	size_t i, k, j;

	for (i = 0; ctx && i < ctx->nclaims; i++) {
		const struct ingest_claim *cl = &ctx->claims[i];
		int ok = 1;

		if (strcmp(cl->metric, metric) != 0 || (cl->testcase && strcmp(cl->testcase, bench) != 0) ||
		    fabs(fabs(change) - cl->pct) > 0.051)
			continue;
		if (cl->commit) {
			size_t a = strlen(cl->commit), b = strlen(sc->v[c].name);
			if (strncasecmp(cl->commit, sc->v[c].name, a < b ? a : b) != 0)
				continue;
		}
		for (k = 0; k < cl->nparams && ok; k++)
			for (j = 0; j < sc->nkv; j++) {
				const char *want = cl->params[k].value;
				if (strcmp(sc->kv[j].key, cl->params[k].key) != 0)
					continue;
				/* the section's mode=threads is stored as mode=thread */
				if (strcmp(cl->params[k].key, "mode") == 0 && strcmp(want, "threads") == 0 &&
				    strcmp(bench, "hackbench") == 0)
					want = "thread";
				if (strcmp(sc->kv[j].value, want) != 0)
					ok = 0;
			}
		if (ok)
			return cl;
	}
	return NULL;
}

/* Store one row's cells under benchmark bench, config kv. */
static void store_row(struct section *sc, const struct row *r, long line, const char *bench,
		      const char *machine, const char *metric, const struct rec_kv *extra)
{
	struct rec_batch *b = sc->out;
	const char *unit, *better;
	int c, abs_change = 0;
	size_t k;

	if (classify(bench, metric, &unit, &better))
		rec_metric_declare(b, bench, metric, unit, better,
				   "kernel test robot (lkp-tests) stat, direction from its name");
	for (c = 0; c < sc->ncol; c++) {
		const struct cell *x = &r->c[c];
		struct rec_summary *s;
		double pct = -1;

		if (isnan(x->value)) {
			if (!sc->noted_blank) {
				sc->noted_blank = 1;
				rec_note(b, line, "lkp-report: %s: a spread printed with no value: no "
					 "summary for %s", metric, sc->v[c].name);
			}
			continue;
		}
		if (c > 0 && x->change_pct && isinf(x->change) && !sc->noted_inf) {
			sc->noted_inf = 1;
			rec_note(b, line, "lkp-report: %s: '%sInf%%' is a change from 0: no published "
				 "%% change", metric, x->change < 0 ? "-" : "+");
		}
		s = rec_summary_add(b, sc->v[c].name, bench, metric, unit, line);

		s->variant_desc = sc->v[c].desc;
		s->machine = machine;
		for (k = 0; k < sc->nkv; k++)
			rec_summary_config(b, s, sc->kv[k].key, sc->kv[k].value);
		if (extra)
			rec_summary_config(b, s, extra->key, extra->value);
		s->mean = x->value;
		s->n = sc->n[c];
		if (x->sd_pct >= 0) {
			rec_summary_stat(b, s, "stddev_pct", x->sd_pct);
			/* printed with %d: below N + 1; of a mean printed as 0
			 * ("0.00 ±173%", rounded) no sd can be had */
			if (x->value != 0)
				pct = x->sd_pct + 1;
		} else if (sc->hide_small && x->value > 0) {
			/* hidden: at most 2% (lkp divides by the mean, so a mean of
			 * 0 or below hides any spread) */
			pct = 2;
		}
		if (pct >= 0) {
			s->sd = fabs(x->value) * pct / 100;
			if (s->n >= 2)
				s->sd *= sqrt((double)s->n / (double)(s->n - 1));
			s->flags = "sd_bound";
		}
		if (c > 0 && x->change_pct && isfinite(x->change)) {
			s->pub_change = x->change;
			s->pub_base = sc->v[0].name;
		} else if (c > 0 && isfinite(x->change)) {
			/* lkp since 2015: perf-profile.* and "...%" stats */
			rec_summary_stat(b, s, "change_abs", x->change);
			abs_change = 1;
		}
		s->pub_mark = "";
		if (!isnan(s->pub_change) && c > 0) {
			const struct ingest_claim *cl = claim_for(sc, bench, metric, c, s->pub_change);
			int worse = strcmp(better, "higher") == 0 ? s->pub_change < 0
				    : strcmp(better, "lower") == 0 ? s->pub_change > 0 : -1;

			if (cl && worse >= 0 && worse != cl->regression) {
				rec_note(b, line, "lkp-report: %s %+.1f%% is called %s at line %ld, but "
					 "kbench's direction for it (%s is better) says otherwise: no mark",
					 metric, s->pub_change, cl->regression ? "a regression" : "an improvement",
					 cl->lineno, better);
			} else if (cl) {
				s->pub_mark = "*";
				rec_note(b, line, "lkp-report: %s %+.1f%% for %s is the %s the report names "
					 "at line %ld: marked '*', the robot's own verdict", metric,
					 s->pub_change, sc->v[c].name, cl->regression ? "regression" : "improvement",
					 cl->lineno);
			}
		}
	}
	if (abs_change && sc->ncol > 1 && !sc->noted_abs) {
		sc->noted_abs = 1;
		rec_note(b, line, "lkp-report: %s and the other stats printed with a change "
			 "without '%%' (perf-profile.*, names ending in %%) change in points: kept as "
			 "the statistic change_abs, not as a published %% change", metric);
	}
}

/* A 2013 row name, host/category/testcase/params, or 2014's test case,
 * host/testcase/params. */
static int split_case(struct section *sc, const char *p, size_t len, const char **host,
		      const char **testcase, const char **params)
{
	const char *end = p + len, *cut[3];
	size_t k = 0;
	const char *q;

	for (q = p; q < end && k < 3; q++)
		if (*q == '/')
			cut[k++] = q;
	if (k < 2)
		return -1;
	if (k == 3 && cut[2] + 1 < end) {       /* host/category/testcase/params */
		cut[0] = cut[1];
		cut[1] = cut[2];
	}
	if (cut[0] == p || cut[1] == cut[0] + 1 || cut[1] + 1 >= end)
		return -1;
	*host = arena_strndup(&sc->out->arena, p, (size_t)(strchr(p, '/') - p));
	*testcase = arena_strndup(&sc->out->arena, cut[0] + 1, (size_t)(cut[1] - cut[0] - 1));
	*params = arena_strndup(&sc->out->arena, cut[1] + 1, (size_t)(end - cut[1] - 1));
	return 0;
}

static void store_case_row(struct section *sc, const struct row *r, long line, const char *name,
			   size_t name_len, const char *metric)
{
	const char *host, *tc, *params;
	struct rec_kv kv;

	if (split_case(sc, name, name_len, &host, &tc, &params) < 0) {
		rec_note(sc->out, line, "lkp-report: '%.*s' is not host/category/testcase/params: "
			 "not stored", (int)name_len, name);
		return;
	}
	kv.key = "params";
	kv.value = params;
	store_row(sc, r, line, tc, host, metric, &kv);
}

/* The 2013 layout: rows of host/category/testcase/params, then TOTAL; and
 * 2014's, TOTAL rows alone under one "test case:" line. */
static void parse_old_rows(struct section *sc, const struct ingest_line *lines,
			   const struct layout *lo)
{
	size_t i, first = lo->rows_first;
	const char *tc = NULL;
	size_t tclen = 0;
	struct row r;

	if (lo->testcase != (size_t)-1) {
		const struct ingest_line *l = &lines[lo->testcase];
		const char *end = l->s + str_rtrim_len(l->s, l->len);
		tc = skip_ws(skip_ws(l->s, end) + 10, end);
		tclen = (size_t)(end - tc);
	}
	for (i = lo->rows_first; i < lo->rows_end; i++) {
		size_t j;
		char *metric;

		read_row(&lines[i], lo->ncol, &r);
		if (!r.total)
			continue;
		metric = arena_strndup(&sc->out->arena, r.name, r.name_len);
		if (first == i) {
			/* no rows above: the one test case's own value */
			if (tc)
				store_case_row(sc, &r, lines[i].lineno, tc, tclen, metric);
			else
				rec_note(sc->out, lines[i].lineno, "lkp-report: TOTAL %s has no rows "
					 "above it and no test case line: not stored", metric);
			first = i + 1;
			continue;
		}
		rec_note(sc->out, lines[i].lineno,
			 "lkp-report: TOTAL %s is the sum of the rows above it: not stored", metric);
		for (j = first; j < i; j++) {
			struct row x;

			read_row(&lines[j], lo->ncol, &x);
			store_case_row(sc, &x, lines[j].lineno, x.name, x.name_len, metric);
		}
		first = i + 1;
	}
	if (first < lo->rows_end)
		rec_note(sc->out, lines[first].lineno,
			 "lkp-report: these rows have no TOTAL line under them to name their metric: "
			 "not stored");
}

/* Which testcase the rows of a bare table (a reply's quote) belong to:
 * the one prefix that is not a monitor's. */
static const char *rows_testcase(struct section *sc, const struct ingest_line *lines,
				 const struct layout *lo)
{
	const char *found = NULL;
	size_t flen = 0, i;
	struct row r;

	for (i = lo->rows_first; i < lo->rows_end; i++) {
		const char *dot;
		size_t len;

		read_row(&lines[i], lo->ncol, &r);
		dot = memchr(r.name, '.', r.name_len);
		if (!dot)
			continue;
		len = (size_t)(dot - r.name);
		if (is_monitor(r.name, len))
			continue;
		if (found && (len != flen || memcmp(found, r.name, len) != 0))
			return NULL;
		found = r.name;
		flen = len;
	}
	return found ? arena_strndup(&sc->out->arena, found, flen) : NULL;
}

static int lkprobot_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			  size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct section sc;
	struct layout lo;
	struct row r;
	size_t i;
	int c, any_small = 0, any_sd = 0;

	if (walk(lines, n, &lo) != n)
		return kb_err_set(err, ctx->path, lines[0].lineno,
				  "lkp-report: the section changed between claim and parse");
	memset(&sc, 0, sizeof(sc));
	sc.out = out;
	sc.ctx = ctx;
	sc.ncol = lo.ncol;
	for (c = 0; c < lo.ncol; c++) {
		sc.v[c].name = id_name(&out->arena, lo.ids[c].s, lo.ids[c].len);
		sc.n[c] = ctx->opts && ctx->opts->runs > 0 ? ctx->opts->runs : 0;
	}
	if (lo.keys != (size_t)-1 && read_params(&sc, &lines[lo.keys], &lines[lo.keys + 1]) < 0)
		return 0;
	if (lo.commits != (size_t)-1)
		read_commits(&sc, lines, lo.commits, lo.colhdr, &lo);
	if (lo.rows_end == lo.rows_first) {
		rec_note(out, lines[lo.colhdr].lineno,
			 "lkp-report: only a fail:runs table (counts of runs that failed, no "
			 "performance numbers): nothing to store");
		return 0;
	}
	if (!lo.old_form && !sc.testcase) {
		sc.testcase = rows_testcase(&sc, lines, &lo);
		if (!sc.testcase) {
			rec_note(out, lines[lo.rows_first].lineno,
				 "lkp-report: a table with no parameter header whose rows name no "
				 "one testcase: not stored");
			return 0;
		}
		rec_note(out, lines[lo.colhdr].lineno,
			 "lkp-report: no parameter header: benchmark %s from the rows' names, "
			 "no configuration and no machine", sc.testcase);
	}
	read_runs(&sc, lines, &lo);
	for (i = lo.rows_first; i < lo.rows_end; i++) {
		read_row(&lines[i], lo.ncol, &r);
		for (c = 0; c < lo.ncol; c++) {
			if (r.c[c].sd_pct >= 0 && r.c[c].sd_pct < 2)
				any_small = 1;
			if (r.c[c].sd_pct >= 0)
				any_sd = 1;
		}
	}
	/* A table that prints "± 0%" or "± 1%" is older than lkp's hiding of
	 * small spreads: there a blank is no sd at all. */
	sc.hide_small = any_sd && !any_small && !lo.old_form;
	{
		long line = lines[lo.rows_first].lineno;
		const char *n_how = sc.n[0] > 0 ? (lo.fail_end > lo.fail_first ? "from the fail:runs rows"
								  : "as --set runs gives it")
					      : "unknown: the report does not say over how many runs";
		if (any_sd || sc.hide_small)
			rec_note(out, line,
				 "lkp-report: sd is the upper end of the printed relative spread (lkp "
				 "prints 100*sd/mean truncated: '%s N%%' is below N+1%%)%s; flagged "
				 "sd_bound; n %s", lo.old_form ? "~" : "\xc2\xb1",
				 sc.hide_small ? "; where none is printed it is at most 2% (lkp hides "
						 "smaller ones since 2017)"
					       : "; where none is printed it is unknown",
				 n_how);
		else
			rec_note(out, line, "lkp-report: no spread is printed: sd unknown; n %s", n_how);
		rec_note(out, line,
			 "lkp-report: each %%change is against %s, as printed; the robot prints no "
			 "significance mark%s", sc.v[0].name,
			 lo.old_form ? "" : " and lists only the stats its own test found changed");
	}
	if (lo.old_form) {
		parse_old_rows(&sc, lines, &lo);
		return 0;
	}
	for (i = lo.rows_first; i < lo.rows_end; i++) {
		char *metric;

		read_row(&lines[i], lo.ncol, &r);
		if (r.total) {
			rec_note(out, lines[i].lineno, "lkp-report: a TOTAL row is a sum: not stored");
			continue;
		}
		metric = arena_strndup(&out->arena, r.name, r.name_len);
		store_row(&sc, &r, lines[i].lineno, sc.testcase, sc.machine, metric, NULL);
	}
	return 0;
}

const struct ingest_parser lkprobot_parser = {
	"lkp-report",
	"kernel test robot (0-day, lkp) reports: '41235 ±  1%  -12.4%  36122 ±  2%  hackbench.throughput'",
	lkprobot_claim, lkprobot_parse,
};
