/*
 * vartable.c - hand-made tables with one column per variant whose rows are
 * metrics, counters or runs, under the line that says what was run.
 *
 *   perf bench sched messaging -g 5 -t -l 100000       <- benchmark, config
 *
 *               mm-stable   slub-optimize               <- the variants
 *   Total time      7.473    7.209                      <- a metric row
 *
 *    - perf bench sched messaging -g 5 -t -l 100000
 *      baseline   RFC
 *      7.042s     6.966s                                <- rows without a key:
 *      7.022s     7.045s                                   one run per cell
 *
 *   numa01_THREAD_ALLOC result on 6.4.0-rc1              <- an autonuma test
 *                   base-numascan     base     base+fix
 *   real            1m3.025s          1m24.163s 1m3.551s <- time(1)'s figures
 *   user            213m44.232s       ...
 *   sys             6m26.598s         ...
 *
 *   numa_pte_updates        1989274     11606   1265014  <- vmstat counters
 *
 * Decisions:
 *  - The benchmark comes from the context line the segment opens with (at
 *    most VT_GAP lines above the header, blank lines and one line of prose
 *    between): a hackbench command or `perf bench sched messaging` gives
 *    hackbench with the options' config in hackbench.c's names (groups,
 *    loops, mode, ipc, impl=perf); one autonuma test name (numa01,
 *    numa02_SMT ...) gives autonuma with test=NAME.  A line naming another
 *    benchmark (stress-ng, schbench, perf bench sched pipe ...) or two of
 *    them, or nothing, leaves the table out with a note: never a guess.
 *  - Rows: "Total time" / "Time" are hackbench's time; real / user / sys
 *    (also elapsed, system) are time(1)'s and belong to an autonuma test
 *    (elapsed, user, sys); under hackbench they are the wrapper's, not
 *    hackbench's Time, and are left out.  numa_* / pgmigrate_* rows are
 *    the counters as printed (direction none) under an autonuma test.
 *  - A cell is a published summary (n from --set runs=N or the prose's
 *    "N runs", else unknown; sd only from a "±" or "+-"); rows without a
 *    key are runs, one per row and column.
 *  - Units: "7.042s", "1m3.025s", "12ms", "[sec]", a "(sec)" / "[ usec ]"
 *    on the header or the row; a rate (ops/s) for a time is refused.
 *  - A row with another number of values than the header has names, or a
 *    command with an option we do not know, leaves the table out.
 *  - Never claimed: tables whose rows are configs (groups), tests,
 *    statistics or numbered runs (sidebyside.c reads those), headers whose
 *    names are numbers or config names (Groups, Loops ...).
 */
#include "parsers.h"
#include "../core/num.h"
#include "../core/util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum {
	VT_MAXC = 16,           /* variant columns */
	VT_MAXTOK = 64,         /* tokens of one line */
	VT_GAP = 4,             /* lines between the context line and the header */
	VT_MAXROWS = 4096,      /* rows of one table */
};

enum vt_bench { VB_NONE, VB_HACKBENCH, VB_AUTONUMA, VB_OTHER, VB_TWO };

/* What the context line says. */
struct vt_ctx {
	enum vt_bench bench;
	const struct ingest_line *line;
	char other[96];         /* the other benchmark's name, or the two named */
	long groups, loops, datasize;
	const char *mode, *ipc;
	int perf;
	int cmd;                /* a command (options, arguments, perf's form), not a word in a heading */
	const char *badopt;     /* an option we do not know */
	size_t badoptlen;
	const char *test;       /* autonuma test */
	size_t testlen;
	int ntests;
};

enum vt_keykind { KEY_NONE, KEY_HBTIME, KEY_TIME_REAL, KEY_TIME_USER, KEY_TIME_SYS, KEY_COUNTER };

struct vt_cell {
	double v, sd;           /* seconds (times), or the count; sd NAN unless given */
	int change;             /* an author's "-3.5%": not a value */
	int hole;               /* "-", "n/a" */
	int has_unit;
};

struct vt_row {
	enum vt_keykind kind;
	const char *key;
	size_t keylen;
	double key_scale;       /* a unit in the key ("Total time (sec)"), 0 none */
	struct vt_cell c[VT_MAXC + 4];
	int nc;                 /* cells, changes and holes included */
	int nvalues;            /* cells that are values or holes */
	int bad_unit;           /* a rate where a time is read */
};

struct vt_table {
	size_t header, end;     /* header line index; end of the table */
	struct ingest_tok name[VT_MAXC];
	int ncol;
	int change_col[VT_MAXC];
	int nvar;               /* columns that are variants */
	double scale;           /* the header's unit, 0 none */
	int keyless;            /* its rows are runs */
	size_t ragged;          /* index + 1 of a row that does not fit */
};

/* ---------------------------------------------------------------- words */

/* A unit word: its scale to seconds; 0 when not a time unit, -1 a rate. */
static double unit_scale(const char *s, size_t n)
{
	while (n && (*s == '[' || *s == '(' || *s == ' ')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ']' || s[n - 1] == ')' || s[n - 1] == ' '))
		n--;
	if (ingest_word_eq(s, n, "s") || ingest_word_eq(s, n, "sec") || ingest_word_eq(s, n, "secs") ||
	    ingest_word_eq(s, n, "seconds") || ingest_word_eq(s, n, "second"))
		return 1;
	if (ingest_word_eq(s, n, "ms") || ingest_word_eq(s, n, "msec") || ingest_word_eq(s, n, "msecs"))
		return 1e-3;
	if (ingest_word_eq(s, n, "us") || ingest_word_eq(s, n, "usec") || ingest_word_eq(s, n, "usecs"))
		return 1e-6;
	if (str_find(s, n, "/s") || str_find(s, n, "/sec") || str_find(s, n, "per sec") ||
	    ingest_word_eq(s, n, "ops") || str_find(s, n, "ops/"))
		return -1;
	return 0;
}

/* The benchmarks other parsers or nobody read; a table under one of them
 * is not hackbench's or autonuma's. */
static const char *const other_benchmarks[] = {
	"stress-ng", "schbench", "tbench", "sysbench", "netperf", "uperf", "dbench", "ebizzy",
	"fio", "lmbench", "specjbb", "unixbench", "pgbench", "will-it-scale", "cyclictest",
	"kernbench", "aim7", "reaim", "redis", "memcached", "hashjoin", "btree", "xsbench",
	"graph500", "stream", "lat_ctx", "pipetest",
};

/* hackbench's options after tok[from]: the keys hackbench.c uses. */
static void read_options(struct vt_ctx *c, const struct ingest_tok *tok, size_t ntok, size_t from)
{
	size_t k;
	int positional = 0;

	for (k = from; k < ntok; k++) {
		const char *s = tok[k].s;
		size_t n = tok[k].len;
		long *dst = NULL, v;
		size_t nl = 0;

		if (n && (s[n - 1] == ':' || s[n - 1] == ',' || s[n - 1] == '\'' || s[n - 1] == '"' ||
			  s[n - 1] == ')')) {
			/* "-l 100000:", the end of the command in prose */
			n--;
			if (n == 0)
				break;
		}
		if ((nl = ingest_opt_match(&tok[k], "-g")) || (nl = ingest_opt_match(&tok[k], "--groups")) ||
		    (nl = ingest_opt_match(&tok[k], "--group")))
			dst = &c->groups;
		else if ((nl = ingest_opt_match(&tok[k], "-l")) || (nl = ingest_opt_match(&tok[k], "--loops")) ||
			 (nl = ingest_opt_match(&tok[k], "--nr_loops")))
			dst = &c->loops;
		else if (!c->perf && ((nl = ingest_opt_match(&tok[k], "-s")) ||
				      (nl = ingest_opt_match(&tok[k], "--datasize"))))
			dst = &c->datasize;
		else if (!c->perf && ((nl = ingest_opt_match(&tok[k], "-f")) ||
				      (nl = ingest_opt_match(&tok[k], "--fds"))))
			dst = &v;
		if (dst) {
			const char *a = s + nl;
			size_t al = n > nl ? n - nl : 0;
			if (al && *a == '=') {
				a++;
				al--;
			}
			if (al == 0 && k + 1 < ntok) {
				k++;
				a = tok[k].s;
				al = tok[k].len;
				while (al && strchr(":,'\")", a[al - 1]))
					al--;
			}
			if (!al || !str_all_digits(a, al) || num_parse_long(a, al, &v) < 0) {
				c->badopt = s;
				c->badoptlen = n;
				return;
			}
			*dst = v;
			c->cmd = 1;
			continue;
		}
		if (ingest_word_eq(s, n, "-p") || ingest_word_eq(s, n, "--pipe"))
			c->ipc = "pipe";
		else if ((c->perf && ingest_word_eq(s, n, "-t")) || (!c->perf && ingest_word_eq(s, n, "-T")) ||
			 ingest_word_eq(s, n, "--thread") || ingest_word_eq(s, n, "--threads") || ingest_word_eq(s, n, "thread") ||
			 ingest_word_eq(s, n, "threads"))
			c->mode = "thread";
		else if (ingest_word_eq(s, n, "-P") || ingest_word_eq(s, n, "--process") || ingest_word_eq(s, n, "process"))
			c->mode = "process";
		else if (n >= 2 && s[0] == '-' && (isalpha((unsigned char)s[1]) || s[1] == '-')) {
			c->badopt = s;
			c->badoptlen = n;
			return;
		} else if (str_all_digits(s, n) && num_parse_long(s, n, &v) == 0 && positional < 2) {
			/* the old positional form, "hackbench 20 process 500" */
			if (positional++ == 0)
				c->groups = v;
			else
				c->loops = v;
		} else {
			break;  /* prose after the command */
		}
		c->cmd = 1;
		if (n != tok[k].len)
			break;
	}
	if (c->cmd || c->perf)
		c->ipc = c->ipc ? c->ipc : "socket";    /* socketpair() unless -p */
	c->cmd |= c->perf;
}

static void set_two(struct vt_ctx *c, const char *a, const char *b)
{
	c->bench = VB_TWO;
	snprintf(c->other, sizeof(c->other), "%.40s and %.40s", a ? a : "?", b);
}

/* Read what a line says it ran.  1 when it names a benchmark. */
static int read_context(const struct ingest_line *l, struct vt_ctx *c)
{
	struct ingest_tok tok[VT_MAXTOK];
	size_t ntok, k;
	const char *named = NULL;

	memset(c, 0, sizeof(*c));
	c->groups = c->loops = c->datasize = -1;
	if (l->len == 0 || l->len > 300)
		return 0;
	ntok = ingest_split(l->s, l->len, tok, VT_MAXTOK);
	if (ntok > VT_MAXTOK)
		ntok = VT_MAXTOK;
	for (k = 0; k < ntok; k++) {
		const char *s = tok[k].s, *base;
		size_t n = tok[k].len;
		while (n && strchr(":,.;'\"()", s[n - 1]))
			n--;
		while (n && strchr("'\"(", *s)) {
			s++;
			n--;
		}
		base = s;
		{
			const char *sl = s, *e = s + n;
			for (; sl < e; sl++)
				if (*sl == '/')
					base = sl + 1;
		}
		n -= (size_t)(base - s);
		if (ingest_word_eq(base, n, "hackbench")) {
			if (c->bench != VB_NONE && c->bench != VB_HACKBENCH) {
				set_two(c, named, "hackbench");
				return 1;
			}
			if (c->bench == VB_NONE) {
				c->bench = VB_HACKBENCH;
				named = "hackbench";
				read_options(c, tok, ntok, k + 1);
			}
		} else if (ingest_word_eq(base, n, "perf") && k + 3 < ntok && ingest_tok_is(&tok[k + 1], "bench") &&
			   ingest_tok_is(&tok[k + 2], "sched")) {
			struct ingest_tok w = tok[k + 3];
			while (w.len && strchr(":,", w.s[w.len - 1]))
				w.len--;
			if (ingest_word_eq(w.s, w.len, "messaging") || ingest_word_eq(w.s, w.len, "messaging:")) {
				if (c->bench != VB_NONE && c->bench != VB_HACKBENCH) {
					set_two(c, named, "perf bench sched messaging");
					return 1;
				}
				c->bench = VB_HACKBENCH;
				named = "perf bench sched messaging";
				c->perf = 1;
				read_options(c, tok, ntok, k + 4);
				k += 3;
			} else {
				if (c->bench != VB_NONE) {
					set_two(c, named, "perf bench sched");
					return 1;
				}
				c->bench = VB_OTHER;
				snprintf(c->other, sizeof(c->other), "perf bench sched %.*s", (int)w.len, w.s);
				named = c->other;
			}
		} else if (ingest_autonuma_test(base, n)) {
			if (c->bench != VB_NONE && c->bench != VB_AUTONUMA) {
				set_two(c, named, "autonuma");
				return 1;
			}
			c->bench = VB_AUTONUMA;
			named = "autonuma";
			if (!c->test || c->testlen != n || memcmp(c->test, base, n) != 0) {
				c->ntests++;
				c->test = base;
				c->testlen = n;
			}
		}
	}
	{
		/* one pass over the line's word starts for all of them, not a
		 * pass per name: this runs on every line a table may follow */
		size_t i, nb = sizeof(other_benchmarks) / sizeof(other_benchmarks[0]);
		unsigned long long seen = 0;
		_Static_assert(sizeof(other_benchmarks) / sizeof(other_benchmarks[0]) <= 64,
			       "one bit a name");
		for (i = 0; i < l->len; i++) {
			int c0 = tolower((unsigned char)l->s[i]);
			if (!isalpha(c0) || (i > 0 && (isalnum((unsigned char)l->s[i - 1]) || l->s[i - 1] == '_')))
				continue;
			for (k = 0; k < nb; k++) {
				size_t bl;
				if (other_benchmarks[k][0] != c0)
					continue;
				bl = strlen(other_benchmarks[k]);
				if (i + bl <= l->len && strncasecmp(l->s + i, other_benchmarks[k], bl) == 0 &&
				    (i + bl == l->len || !(isalnum((unsigned char)l->s[i + bl]) || l->s[i + bl] == '_')))
					seen |= 1ULL << k;
			}
		}
		for (k = 0; seen && k < nb; k++) {
			if (!((seen >> k) & 1))
				continue;
			if (c->bench != VB_NONE && c->bench != VB_OTHER) {
				set_two(c, named, other_benchmarks[k]);
				return 1;
			}
			c->bench = VB_OTHER;
			snprintf(c->other, sizeof(c->other), "%s", other_benchmarks[k]);
		}
	}
	if (c->bench == VB_NONE && ingest_line_names_word(l, "autonuma-benchmark"))
		c->bench = VB_AUTONUMA;
	c->line = l;
	return c->bench != VB_NONE;
}

/* ---------------------------------------------------------------- cells */

/* "7.042", "7.042s", "1m3.025s", "12ms", "-": one cell from tok[k..]; the
 * tokens it took, 0 when tok[k] starts no cell. */
static int read_cell(const struct ingest_tok *tok, size_t ntok, size_t k, struct vt_cell *c, int *bad_unit)
{
	const char *s = tok[k].s, *e = s + tok[k].len, *q;
	double v, x;
	int took = 1;

	memset(c, 0, sizeof(*c));
	c->sd = NAN;
	if (ingest_word_eq(s, tok[k].len, "-") || ingest_word_eq(s, tok[k].len, "n/a") || ingest_word_eq(s, tok[k].len, "--")) {
		c->hole = 1;
		return 1;
	}
	if (*s == '(' && e[-1] == ')' && e - s > 2) {
		s++;
		e--;
	}
	q = s;
	if (q < e && (*q == '+' || *q == '-'))
		q++;
	if (q >= e || !(isdigit((unsigned char)*q) || (*q == '.' && q + 1 < e && isdigit((unsigned char)q[1]))))
		return 0;
	while (q < e && (isdigit((unsigned char)*q) || *q == '.'))
		q++;
	if (num_parse(s, (size_t)(q - s), &v) < 0)
		return 0;
	if (q < e && *q == '%' && q + 1 == e) {
		c->change = 1;
		return 1;
	}
	if (q < e && *q == 'm' && q + 1 < e && isdigit((unsigned char)q[1])) {
		/* time(1)'s "1m3.025s" */
		const char *r = q + 1, *t = r;
		while (t < e && (isdigit((unsigned char)*t) || *t == '.'))
			t++;
		if (t + 1 != e || *t != 's' || num_parse(r, (size_t)(t - r), &x) < 0 || x >= 60 ||
		    s[0] == '-' || memchr(s, '.', (size_t)(q - s)))
			return 0;
		c->v = v * 60 + x;
		c->has_unit = 1;
	} else if (q < e) {
		double sc = unit_scale(q, (size_t)(e - q));
		if (sc == 0)
			return 0;
		if (sc < 0)
			*bad_unit = 1;
		c->v = v * (sc > 0 ? sc : 1);
		c->has_unit = 1;
	} else {
		c->v = v;
		if (k + 1 < ntok && unit_scale(tok[k + 1].s, tok[k + 1].len) != 0 &&
		    (tok[k + 1].s[0] == '[' || tok[k + 1].s[0] == '(' || isalpha((unsigned char)tok[k + 1].s[0]))) {
			double sc = unit_scale(tok[k + 1].s, tok[k + 1].len);
			/* "7.473 [sec]", "7.473 s" */
			if (sc < 0)
				*bad_unit = 1;
			c->v = v * (sc > 0 ? sc : 1);
			c->has_unit = 1;
			took++;
		}
	}
	/* "± 0.03", "+- 0.03", "+/-0.03", "±1.2%" */
	if ((size_t)(k + took) < ntok) {
		const char *p = tok[k + took].s, *pe = p + tok[k + took].len;
		size_t pm = 0;
		if (pe - p >= 2 && (unsigned char)p[0] == 0xc2 && (unsigned char)p[1] == 0xb1)
			pm = 2;
		else if (pe - p >= 3 && memcmp(p, "+/-", 3) == 0)
			pm = 3;
		else if (pe - p >= 2 && memcmp(p, "+-", 2) == 0)
			pm = 2;
		if (pm) {
			const char *a = p + pm, *ae = pe;
			int used = 1;
			if (a == ae && (size_t)(k + took + 1) < ntok) {
				a = tok[k + took + 1].s;
				ae = a + tok[k + took + 1].len;
				used = 2;
			}
			if (ae > a && ae[-1] == '%') {
				if (num_parse(a, (size_t)(ae - a - 1), &x) < 0)
					return 0;
				c->sd = c->v * x / 100.0;
			} else {
				double sc = 0;
				const char *ne = a;
				while (ne < ae && (isdigit((unsigned char)*ne) || *ne == '.'))
					ne++;
				if (ne == a || num_parse(a, (size_t)(ne - a), &x) < 0)
					return 0;
				if (ne < ae && (sc = unit_scale(ne, (size_t)(ae - ne))) <= 0)
					return 0;
				c->sd = x * (sc > 0 ? sc : (c->has_unit ? c->v / v : 1));
			}
			took += used;
		}
	}
	return took;
}

static int is_counter(const char *s, size_t n)
{
	static const char *const prefixes[] = { "numa_", "pgmigrate_", "pgpromote_", "pgdemote_",
						"thp_migration_" };
	size_t k, w;

	for (k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++) {
		w = strlen(prefixes[k]);
		if (n > w && strncmp(s, prefixes[k], w) == 0) {
			size_t i;
			for (i = w; i < n; i++)
				if (!(islower((unsigned char)s[i]) || s[i] == '_'))
					return 0;
			return 1;
		}
	}
	return 0;
}

/* The row key's kind; *scale takes a unit in it ("Total time (sec)"). */
static enum vt_keykind key_kind(const char *s, size_t n, double *scale)
{
	const char *p;

	*scale = 0;
	while (n && (s[n - 1] == ':' || s[n - 1] == ' '))
		n--;
	if (n > 2 && (s[n - 1] == ')' || s[n - 1] == ']') &&
	    ((p = memchr(s, '(', n)) || (p = memchr(s, '[', n)))) {
		*scale = unit_scale(p, (size_t)(s + n - p));
		if (*scale == 0)
			return KEY_NONE;
		n = (size_t)(p - s);
		while (n && s[n - 1] == ' ')
			n--;
	}
	if (n == 0)
		return KEY_NONE;
	if (ingest_word_eq(s, n, "Total time") || ingest_word_eq(s, n, "Time"))
		return KEY_HBTIME;
	if (ingest_word_eq(s, n, "real") || ingest_word_eq(s, n, "elapsed"))
		return KEY_TIME_REAL;
	if (ingest_word_eq(s, n, "user"))
		return KEY_TIME_USER;
	if (ingest_word_eq(s, n, "sys") || ingest_word_eq(s, n, "system"))
		return KEY_TIME_SYS;
	if (*scale == 0 && is_counter(s, n))
		return KEY_COUNTER;
	return KEY_NONE;
}

/* A row: a key of our kinds (or none) and its cells.  0 ok, -1 not a row. */
static int read_row(const struct ingest_line *l, struct vt_row *r)
{
	struct ingest_tok tok[VT_MAXTOK];
	size_t ntok, k, first;
	int took;

	memset(r, 0, sizeof(*r));
	if (ingest_line_blank(l) || l->len > 400)
		return -1;
	ntok = ingest_split(l->s, l->len, tok, VT_MAXTOK);
	if (ntok == 0 || ntok > VT_MAXTOK)
		return -1;
	/* the key: the words before the first cell */
	for (first = 0; first < ntok; first++) {
		struct vt_cell c;
		int bad = 0;
		if (read_cell(tok, ntok, first, &c, &bad) > 0 && !c.hole)
			break;
	}
	if (first == ntok)
		return -1;
	if (first > 0) {
		r->key = tok[0].s;
		r->keylen = (size_t)(tok[first - 1].s + tok[first - 1].len - tok[0].s);
		r->kind = key_kind(r->key, r->keylen, &r->key_scale);
		if (r->kind == KEY_NONE)
			return -1;
		if (r->key_scale < 0)
			r->bad_unit = 1;
	}
	for (k = first; k < ntok; k += (size_t)took) {
		if (r->nc >= VT_MAXC + 4)
			return -1;
		took = read_cell(tok, ntok, k, &r->c[r->nc], &r->bad_unit);
		if (took <= 0)
			return -1;
		if (!r->c[r->nc].change)
			r->nvalues++;
		r->nc++;
	}
	return r->nvalues > 0 ? 0 : -1;
}

/* ---------------------------------------------------------------- header */

static int name_is_change(const char *s, size_t n)
{
	static const char *const words[] = { "improvement", "change", "delta", "diff", "gain",
					     "speedup", "regression", "ratio", "%" };
	size_t k;

	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (n >= strlen(words[k]) && strncasecmp(s, words[k], strlen(words[k])) == 0)
			return 1;
	return memchr(s, '%', n) != NULL;
}

/* Names that say a column is no variant: configs, statistics. */
static int name_is_config(const char *s, size_t n)
{
	static const char *const words[] = { "groups", "group", "grp", "loops", "loop", "procs",
					     "nr", "threads", "tasks", "mode", "ipc", "test", "testcase",
					     "mean", "avg", "average", "stddev", "std", "min", "max",
					     "median", "runs", "metric", "iteration" };
	size_t k;

	while (n && (s[n - 1] == ':' || s[n - 1] == '='))
		n--;
	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (ingest_word_eq(s, n, words[k]))
			return 1;
	return 0;
}

/* Split a header into names at two or more blanks (gap 2) or at every
 * blank (gap 1), '|' always separating.  The count of names. */
static int split_names(const char *p, const char *end, int gap, struct ingest_tok *f, int max)
{
	int n = 0;

	for (;;) {
		const char *a, *q;
		while (p < end && (*p == ' ' || *p == '|'))
			p++;
		if (p >= end)
			return n;
		a = q = p;
		while (q < end && *q != '|') {
			if (*q == ' ') {
				const char *r = q;
				while (r < end && *r == ' ')
					r++;
				if (r - q >= gap || r >= end || *r == '|')
					break;
				q = r;
			} else {
				q++;
			}
		}
		if (n < max) {
			f[n].s = a;
			f[n].len = (size_t)(q - a);
		}
		n++;
		p = q;
	}
}

/* Fill t's columns from header h for a table whose rows have nv values. */
static int read_header(const struct ingest_line *h, int nv, struct vt_table *t)
{
	const char *p = str_skip_ws(h->s, h->s + h->len), *end = h->s + h->len;
	struct ingest_tok f[VT_MAXC + 2];
	int gap, nn, k, first;

	t->scale = 0;
	if (p < end && *p == '[') {
		/* "[ seconds ]  v5.1  balancer-A": the caption is the unit */
		const char *q = memchr(p, ']', (size_t)(end - p));
		if (!q)
			return -1;
		t->scale = unit_scale(p, (size_t)(q + 1 - p));
		p = q + 1;
	}
	for (gap = 2; gap >= 1; gap--) {
		nn = split_names(p, end, gap, f, VT_MAXC + 2);
		if (nn > VT_MAXC + 1 || nn < 2)
			continue;
		first = 0;
		if (nn == nv + 1)
			first = 1;     /* the key column's own title ("Metric", "Test:") */
		if (nn - first != nv)
			continue;
		t->ncol = nv;
		t->nvar = 0;
		for (k = 0; k < nv; k++) {
			double d;
			struct ingest_tok *x = &f[k + first];
			while (x->len && x->s[x->len - 1] == ':')
				x->len--;
			if (x->len == 0 || num_parse(x->s, x->len, &d) == 0 || name_is_config(x->s, x->len) ||
			    ingest_autonuma_test(x->s, x->len))
				return -1;
			t->name[k] = *x;
			t->change_col[k] = name_is_change(x->s, x->len);
			t->nvar += !t->change_col[k];
		}
		if (first) {
			double sc = unit_scale(f[0].s, f[0].len);
			if (sc != 0)
				t->scale = sc;
		}
		return t->nvar >= 2 ? 0 : -1;
	}
	return -1;
}

static int is_rule(const struct ingest_line *l)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);
	size_t n = (size_t)(l->s + l->len - p);

	return n >= 3 && strspn(p, "-=+|~_ ") == n;
}

/* Does row r fit t's columns: a cell per column (a change column holding
 * the author's changes), or a value per column with the author's changes
 * after them ("7.2  -3.5%") when the header names no change column? */
static int row_fits(const struct vt_table *t, const struct vt_row *r)
{
	return r->nc == t->ncol || (t->nvar == t->ncol && r->nvalues == t->ncol);
}

/*
 * A table at lines[0]: a header, an optional rule, rows of one kind (keyed
 * or not); after one blank line, more keyed rows of the same columns.
 * Returns the lines taken, 0 when lines[0] starts no such table.
 */
static size_t read_table(const struct ingest_line *lines, size_t n, struct vt_table *t)
{
	struct vt_row row;
	size_t i, first = 1, rows = 0;
	int nv;

	memset(t, 0, sizeof(*t));
	if (n < 2 || ingest_line_blank(&lines[0]) || lines[0].len > 300 || is_rule(&lines[0]))
		return 0;
	{
		struct vt_row hr;
		if (read_row(&lines[0], &hr) == 0)
			return 0;       /* a header holds no numbers */
	}
	if (is_rule(&lines[1]))
		first = 2;
	if (first >= n || read_row(&lines[first], &row) < 0)
		return 0;
	nv = row.nc;
	if (nv < 2 || nv > VT_MAXC || read_header(&lines[0], nv, t) < 0) {
		nv = row.nvalues;
		if (nv == row.nc || nv < 2 || nv > VT_MAXC || read_header(&lines[0], nv, t) < 0)
			return 0;
	}
	t->keyless = row.kind == KEY_NONE;
	for (i = first; i < n && rows < VT_MAXROWS; i++) {
		if (ingest_line_blank(&lines[i])) {
			/* one blank line, then keyed rows of the same columns */
			if (t->keyless || i + 1 >= n || read_row(&lines[i + 1], &row) < 0 ||
			    row.kind == KEY_NONE || !row_fits(t, &row))
				break;
			continue;
		}
		if (read_row(&lines[i], &row) < 0 || (row.kind == KEY_NONE) != t->keyless)
			break;
		if (!row_fits(t, &row) && !t->ragged)
			t->ragged = i + 1;
		rows++;
	}
	t->end = i;
	return rows ? i : 0;
}

/* A line that may stand between the context line and the header: prose
 * ("Results:"), not a table row or a line naming a benchmark. */
static int filler(const struct ingest_line *l)
{
	struct vt_row r;
	struct vt_ctx c;

	if (ingest_line_blank(l) || is_rule(l))
		return 1;
	return l->len <= 100 && read_row(l, &r) < 0 && !read_context(l, &c);
}

/*
 * The claim: a context line and the table under it, or a table alone
 * whose rows are metrics (to say it cannot be placed).  *tab gets the
 * table, *ctx the context.  Returns the lines taken.
 */
static size_t walk(const struct ingest_line *lines, size_t n, struct vt_table *tab, struct vt_ctx *ctx)
{
	size_t j, len, prose = 0;

	if (n < 2 || ingest_line_blank(&lines[0]))
		return 0;
	if ((len = read_table(lines, n, tab)) > 0) {
		memset(ctx, 0, sizeof(*ctx));
		ctx->groups = ctx->loops = ctx->datasize = -1;
		/* a bare table is claimed only to say why it is not read */
		return tab->keyless ? 0 : len;
	}
	if (!read_context(&lines[0], ctx))
		return 0;
	for (j = 1; j < n && j <= VT_GAP; j++) {
		if ((len = read_table(lines + j, n - j, tab)) > 0) {
			tab->header += j;
			tab->end += j;
			if (tab->ragged)
				tab->ragged += j;
			return j + len;
		}
		if (!filler(&lines[j]))
			return 0;
		if (!ingest_line_blank(&lines[j]) && ++prose > 1)
			return 0;
	}
	return 0;
}

/* ---------------------------------------------------------------- emitting */

static const char *col_name(struct rec_batch *b, const struct ingest_tok *t)
{
	return arena_strndup(&b->arena, t->s, t->len);
}

static void put_config_run(struct rec_batch *b, struct rec_run *r, struct rec_summary *s,
			   const char *key, const char *val)
{
	if (r)
		rec_run_config(b, r, key, val);
	if (s)
		rec_summary_config(b, s, key, val);
}

static void put_config(struct rec_batch *b, const struct vt_ctx *c, struct rec_run *r,
		       struct rec_summary *s)
{
	char buf[32];

	if (c->bench == VB_AUTONUMA) {
		char *test = arena_strndup(&b->arena, c->test, c->testlen);
		put_config_run(b, r, s, "test", test);
		return;
	}
	if (c->groups >= 0) {
		snprintf(buf, sizeof(buf), "%ld", c->groups);
		put_config_run(b, r, s, "groups", buf);
	}
	if (c->loops >= 0) {
		snprintf(buf, sizeof(buf), "%ld", c->loops);
		put_config_run(b, r, s, "loops", buf);
	}
	if (c->datasize >= 0) {
		snprintf(buf, sizeof(buf), "%ld", c->datasize);
		put_config_run(b, r, s, "datasize", buf);
	}
	if (c->mode)
		put_config_run(b, r, s, "mode", c->mode);
	if (c->ipc)
		put_config_run(b, r, s, "ipc", c->ipc);
	if (c->perf)
		put_config_run(b, r, s, "impl", "perf");
}

/* Why the table cannot be read, or NULL when it can. */
static const char *refusal(struct rec_batch *b, const struct vt_ctx *c)
{
	switch (c->bench) {
	case VB_NONE:
		return "nothing above it names its benchmark (a command line, or an autonuma test)";
	case VB_OTHER:
		return arena_printf(&b->arena, "it is %s's, a benchmark kbench does not read here", c->other);
	case VB_TWO:
		return arena_printf(&b->arena, "the line above it names two benchmarks (%s)", c->other);
	case VB_AUTONUMA:
		if (c->ntests != 1)
			return c->ntests ? "the line above it names more than one autonuma test"
					 : "the line above it names no autonuma test (numa01, numa02 ...)";
		return NULL;
	case VB_HACKBENCH:
		if (c->badopt)
			return arena_printf(&b->arena, "its command has an option kbench does not know "
					    "('%.*s'): what ran cannot be told", (int)c->badoptlen, c->badopt);
		return NULL;
	}
	return NULL;
}

static int vartable_parse(const struct ingest_ctx *ictx, const struct ingest_line *lines,
			  size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct vt_table t;
	struct vt_ctx c;
	const char *why;
	size_t i;
	long runs = ictx->opts && ictx->opts->runs > 0 ? ictx->opts->runs : ictx->runs_hint;
	int iteration = 0, k;
	const char *bench, *time_metric;

	(void)err;
	if (!walk(lines, n, &t, &c))
		return 0;
	why = refusal(out, &c);
	if (why) {
		rec_note(out, lines[t.header].lineno, "vartable: table of one column per variant left "
			 "out: %s", why);
		return 0;
	}
	if (t.ragged) {
		struct vt_row r;
		read_row(&lines[t.ragged - 1], &r);
		rec_note(out, lines[t.ragged - 1].lineno, "vartable: table left out: this row has %d "
			 "values for %d columns, so which value is which column cannot be told",
			 r.nvalues, t.ncol);
		return 0;
	}
	bench = c.bench == VB_AUTONUMA ? "autonuma" : "hackbench";
	time_metric = c.bench == VB_AUTONUMA ? "elapsed" : "time";
	if (t.scale < 0) {
		rec_note(out, lines[t.header].lineno, "vartable: table left out: its header gives a "
			 "rate, and its rows are times");
		return 0;
	}
	rec_note(out, lines[t.header].lineno, "vartable: %s table, one column per variant (%d); "
		 "%s", bench, t.nvar,
		 t.keyless ? "rows without a key: one run per cell" :
		 runs ? "cells read as published values (n from the text)" :
		 "cells read as published values (n not stated)");
	for (i = t.header + 1; i < t.end; i++) {
		struct vt_row r;
		const char *metric = NULL, *unit = "s";
		double scale;

		if (ingest_line_blank(&lines[i]) || is_rule(&lines[i]) || read_row(&lines[i], &r) < 0)
			continue;
		scale = r.key_scale > 0 ? r.key_scale : t.scale > 0 ? t.scale : 1;
		switch (r.kind) {
		case KEY_NONE:
		case KEY_HBTIME:
			metric = r.kind == KEY_NONE || c.bench == VB_HACKBENCH ? time_metric : NULL;
			break;
		case KEY_TIME_REAL:
			metric = c.bench == VB_AUTONUMA ? "elapsed" : NULL;
			break;
		case KEY_TIME_USER:
			metric = c.bench == VB_AUTONUMA ? "user" : NULL;
			break;
		case KEY_TIME_SYS:
			metric = c.bench == VB_AUTONUMA ? "sys" : NULL;
			break;
		case KEY_COUNTER:
			if (c.bench == VB_AUTONUMA) {
				metric = arena_strndup(&out->arena, r.key, r.keylen);
				unit = "";
				scale = 1;
				rec_metric_declare(out, "autonuma", metric, "", "none",
						   "a vmstat counter as a table prints it");
			}
			break;
		}
		if (!metric) {
			rec_note(out, lines[i].lineno, "vartable: row '%.*s' left out: it is no %s metric "
				 "(%s)", (int)r.keylen, r.key, bench,
				 r.kind == KEY_COUNTER ? "a counter" :
				 c.bench == VB_HACKBENCH ? "time(1)'s figure for the command, not hackbench's Time" :
				 "autonuma prints no Total time");
			continue;
		}
		if (r.bad_unit) {
			rec_note(out, lines[i].lineno, "vartable: row left out: a rate where a time is read");
			continue;
		}
		if (r.nc != r.nvalues)
			rec_note(out, lines[i].lineno, "vartable: a change beside the values is the "
				 "author's comparison: not stored");
		if (r.kind == KEY_NONE)
			iteration++;
		{
			int col = 0, m;
			for (m = 0; m < r.nc; m++) {
				const struct vt_cell *cell = &r.c[m];
				const char *var;
				if (r.nc == t.ncol)
					k = m;          /* a cell per column */
				else if (cell->change)
					continue;       /* the author's change after the values */
				else
					k = col++;
				if (cell->change)
					continue;
				if (k >= t.ncol || t.change_col[k] || cell->hole)
					continue;
				var = col_name(out, &t.name[k]);
				if (r.kind == KEY_NONE) {
					struct rec_run *run = rec_run_new(out, bench, lines[i].lineno);
					rec_run_variant(out, run, var, NULL, REC_ORIGIN_CONTENT);
					run->iteration = iteration;
					put_config(out, &c, run, NULL);
					rec_sample_add(out, run, metric, cell->v * (cell->has_unit ? 1 : scale),
						       unit, 0);
				} else {
					struct rec_summary *s = rec_summary_add(out, var, bench, metric, unit,
										lines[i].lineno);
					double sc = cell->has_unit ? 1 : scale;
					put_config(out, &c, NULL, s);
					s->mean = cell->v * sc;
					s->sd = isnan(cell->sd) ? NAN : cell->sd * (cell->has_unit ? 1 : scale);
					s->n = runs;
				}
			}
		}
	}
	return 0;
}

static size_t vartable_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			     size_t n, int *score)
{
	struct vt_table t;
	struct vt_ctx c;
	size_t len;

	(void)opts;
	*score = 0;
	len = walk(lines, n, &t, &c);
	if (len)
		*score = 70;
	return len;
}

const struct ingest_parser vartable_parser = {
	"vartable", "hand-made tables, one column per variant, rows of metrics, counters or runs "
	"under the command that ran them (e.g. 'Total time   7.473   7.209' under 'perf bench sched "
	"messaging -g 5')",
	vartable_claim, vartable_parse,
};
