/*
 * sidebyside.c - tables with one column per variant, and one output
 * pasted twice side by side, as people write them in posts.
 *
 * Hand-made tables (the columns are variants, the rows configs):
 *
 *   hackbench -l (2560/#grp) -g #grp                  <- benchmark, loops
 *   grp    tip/sched/core         +patchset              improvement
 *   1       1,327(+/-10,06 %)     1,247(+/-5,45 %)       5,97 %
 *
 *   Test:                   sched-tip                util-avg
 *    1-groups:         4.97 (0.00 pct)         5.06 (-1.81 pct)
 *
 *   Procs NR  SLAB SLUB SLUB+Queuing                  <- leading config columns
 *   100 20000  279.3 270.3 219.0
 *
 *   100 iterations of 'hackbench':                   <- benchmark and n
 *   |       |   -PATCH |   +PATCH | DELTA (%) |
 *   | mean  | 0.622300 | 0.613000 |    -1.494 |       <- a describe table
 *
 *   g=    2      4     6                              <- transposed: columns
 *   w/o: 1.8151 3.8499 5.5142                            are configs
 *
 * Two copies of one format in two columns:
 *
 *   With 'if':                            Without 'if':
 *   Average Half load -j 8 Run (std deviation):
 *   Elapsed Time 338.122 (0.869207)       Elapsed Time 336.404 (1.69196)
 *
 *   Base                Patched                       <- autonuma, a name line
 *   numa01              numa01                           and a value line
 *   224.70              137.23                           per test
 *
 *   kernel: nikita-b2                 kernel: patch-2.6.10-rc2   <- kernbench in
 *   Average Optimal -j 32 Load Run:   Average Optimal -j 32 Load Run:  columns,
 *   Elapsed Time 130                  Elapsed Time 129.562       each headed
 *
 * And as posts retell them:
 *
 *   Average Optimal -j 8 Load Run:                    <- kernbench, one column
 *                  Vanilla          Soft Cap 0%          per variant; a Total
 *   Elapsed Time   1056.1 (1.92)    1064.1 (1.59)        row left out
 *
 *                Base    VMEMAP    % change           <- kernbench's metrics as
 *   User        85.07     84.84    -0.26                 rows (the text above
 *                                                        names kernbench)
 *   <tab>version1<tab>version2                        <- numbered runs, their
 *   test1<tab>81.0<tab><tab>118.1                        avg row left out
 *   avg(s)<tab>82.1<tab><tab>113.0
 *
 * Decisions:
 *  - The benchmark comes from the segment's own text: a line above the
 *    table naming it ("hackbench -l ...", a "hackbench" banner, "100
 *    iterations of 'hackbench'"), the format pasted twice (kernbench), or
 *    the rows' own names (autonuma's numa01 ...).  A table under a line
 *    naming another benchmark (schbench, sysbench ...) is not claimed.
 *  - The command line gives config: -g, -l (a "(2560/#grp)" formula is
 *    loops = 2560 / groups per row), -s, -p (ipc=pipe, else socket), -T /
 *    -P / thread / process (mode); what the table says wins over it.
 *  - Header names are split at two or more blanks (a name may hold one),
 *    or at single blanks when that is what makes the columns match the
 *    rows (tabs become single blanks).  A column named improvement,
 *    change, delta, diff, gain or % is the author's change, never a
 *    value; so is any cell that ends in '%' or "pct" outside a "+/-".
 *  - "MEAN(+/-X %)" is a mean with a relative sd; "MEAN (SD)" with an
 *    absolute one.  A decimal comma is read where the number allows no
 *    other reading ("10,06") or the whole table uses commas and no points.
 *  - A cell is a run when the rows repeat a config (one run per row and
 *    column); else a published mean, n from "N iterations" / "N runs" /
 *    "N times" in the segment's text and unknown otherwise.
 *  - Several tables under one benchmark line are one segment; tables that
 *    would fall together get their heading as label= (a "mTHP:16K" heading
 *    is the config mthp=16K).
 *  - Which column is which variant must be told by a header; a two-column
 *    kernbench block without one is skipped with a note.  Kernbench in
 *    columns under no names is one variant only when each column is its
 *    own load; else it is left out.
 *  - A row key test1 / run2 / #3 makes each cell one run; a statistic row
 *    under them (avg(s), mean) is the author's and left out.  "NAME: desc"
 *    above a table with a column NAME is a legend, never a config.
 *  - A hackbench command with an option we do not know gives no config; a
 *    line naming hackbench anew a paragraph below a command (not a caption
 *    ending in ':') drops that command for the tables below it.
 */
#include "parsers.h"
#include "kernbench.h"
#include "hackbench.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	SB_MAXC = 24,           /* columns of one table */
	SB_PREAMBLE = 12,       /* lines of text between a benchmark line and its table */
	SB_COMMANDS = 64,       /* command lines (a pasted script) before a table */
	SB_GAP = 6,             /* lines between two tables of one segment */
	SB_MAXROWS = 4096,      /* rows of one table that repeat configs */
};

enum sb_bench { SB_NONE = 0, SB_HACKBENCH, SB_AUTONUMA, SB_KERNBENCH, SB_OTHER };

/* ---------------------------------------------------------------- cells */

enum sb_item_kind { IT_VALUE, IT_CHANGE, IT_HOLE };

struct sb_item {
	enum sb_item_kind kind;
	const char *s;          /* the number's text */
	size_t len;
	const char *sd;         /* the sd's number, or NULL */
	size_t sdlen;
	int sd_rel;             /* sd in percent of the mean */
};

static int is_num_char(int c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == ',';
}

/* The number at p (sign, digits, '.' and ',' between digits); its end, or
 * p when none starts there. */
static const char *scan_number(const char *p, const char *end)
{
	const char *q = p;

	if (q < end && (*q == '-' || *q == '+'))
		q++;
	if (q < end && *q == '.')
		q++;
	if (q >= end || !(*q >= '0' && *q <= '9'))
		return p;
	while (q < end && is_num_char((unsigned char)*q)) {
		if ((*q == '.' || *q == ',') && !(q + 1 < end && q[1] >= '0' && q[1] <= '9'))
			break;
		q++;
	}
	if (q < end && (*q == 'e' || *q == 'E') && q + 1 < end &&
	    (isdigit((unsigned char)q[1]) || ((q[1] == '-' || q[1] == '+') && q + 2 < end &&
					      isdigit((unsigned char)q[2])))) {
		q += 2;
		while (q < end && isdigit((unsigned char)*q))
			q++;
	}
	return q;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

/* Blanks and the '|' between two columns ("123.4 | 110.2"). */
static const char *skip_sep(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '|'))
		p++;
	return p;
}

/* A percent sign or "pct" at p, after blanks: its end, or NULL. */
static const char *scan_percent(const char *p, const char *end)
{
	p = skip_blanks(p, end);
	if (p < end && *p == '%')
		return p + 1;
	if (end - p >= 3 && strncasecmp(p, "pct", 3) == 0 &&
	    (end - p == 3 || !isalnum((unsigned char)p[3])))
		return p + 3;
	return NULL;
}

/* "(+/-10,06 %)", "(+/- 2.06 %)", "( +-  0.40% )", "(0.334515)",
 * "(0.00 pct)", "(-1.81 pct)" after a value.  Returns the end of the
 * group and fills it (sd, or nothing for a change), or NULL. */
static const char *scan_paren(const char *p, const char *end, struct sb_item *it)
{
	const char *q = p + 1, *num, *ne, *pc;
	int pm = 0;

	q = skip_blanks(q, end);
	if (end - q >= 3 && memcmp(q, "+/-", 3) == 0) {
		q += 3;
		pm = 1;
	} else if (end - q >= 2 && memcmp(q, "+-", 2) == 0) {
		q += 2;
		pm = 1;
	} else if (end - q >= 2 && (unsigned char)q[0] == 0xc2 && (unsigned char)q[1] == 0xb1) {
		q += 2;         /* U+00B1 */
		pm = 1;
	}
	q = skip_blanks(q, end);
	num = q;
	ne = scan_number(q, end);
	if (ne == num)
		return NULL;
	pc = scan_percent(ne, end);
	q = skip_blanks(pc ? pc : ne, end);
	if (q >= end || *q != ')')
		return NULL;
	if (pm || !pc) {
		it->sd = num;
		it->sdlen = (size_t)(ne - num);
		it->sd_rel = pc != NULL;
	}
	return q + 1;
}

/*
 * Split s[0..len) into items: values (with their sd), changes ("-45%",
 * "- 0.46 %", "5,97 %") and holes ("-", "n/a").  Returns the number of
 * items (at most max stored), or -1 when something else stands there.
 */
static int scan_items(const char *s, const char *end, struct sb_item *it, int max)
{
	int n = 0;
	const char *p = s;

	for (;;) {
		struct sb_item x;
		const char *q, *ne, *pc;

		p = skip_sep(p, end);
		if (p >= end)
			return n;
		memset(&x, 0, sizeof(x));
		q = p;
		if ((*q == '>' || *q == '<' || *q == '~') && q + 1 < end &&
		    (ne = scan_number(q + 1, end)) != q + 1 && (pc = scan_percent(ne, end)) != NULL) {
			/* ">800%", "~5%": a change the author bounds */
			x.kind = IT_CHANGE;
			p = pc;
		} else if ((*q == '-' || *q == '+') && q + 1 < end && q[1] == ' ' &&
		    (ne = scan_number(skip_blanks(q + 1, end), end)) != skip_blanks(q + 1, end) &&
		    (pc = scan_percent(ne, end)) != NULL) {
			/* "- 0.46 %": a change with a blank after its sign */
			x.kind = IT_CHANGE;
			p = pc;
		} else if ((ne = scan_number(q, end)) != q) {
			x.s = q;
			x.len = (size_t)(ne - q);
			if ((pc = scan_percent(ne, end)) != NULL) {
				x.kind = IT_CHANGE;
				p = pc;
			} else {
				x.kind = IT_VALUE;
				p = skip_blanks(ne, end);
				if (p < end && *p == '(') {
					const char *pe = scan_paren(p, end, &x);
					if (!pe)
						return -1;
					p = pe;
				} else {
					p = ne;
				}
				if (p < end && *p != ' ' && *p != '|')
					return -1;
			}
		} else {
			const char *w = p;
			while (p < end && *p != ' ' && *p != '|')
				p++;
			if ((p - w == 1 && *w == '-') || (p - w >= 2 && strspn(w, "-") >= (size_t)(p - w)) ||
			    (p - w == 3 && strncasecmp(w, "n/a", 3) == 0))
				x.kind = IT_HOLE;
			else
				return -1;
		}
		if (n < max)
			it[n] = x;
		n++;
	}
}

/* How a table writes its decimal mark. */
enum sb_mark { MARK_POINT, MARK_COMMA, MARK_AMBIGUOUS };

struct sb_marks {
	int dot, comma3, comma_other;
};

static void marks_add(struct sb_marks *m, const char *s, size_t len)
{
	size_t i, d;

	for (i = 0; i < len; i++) {
		if (s[i] == '.')
			m->dot = 1;
		if (s[i] != ',')
			continue;
		for (d = 0; i + 1 + d < len && isdigit((unsigned char)s[i + 1 + d]); d++)
			;
		if (d == 3)
			m->comma3 = 1;
		else
			m->comma_other = 1;
	}
}

static enum sb_mark marks_decide(const struct sb_marks *m)
{
	if (!m->comma3 || (m->dot && !m->comma_other))
		return MARK_POINT;      /* "1,234.5": ',' groups thousands */
	if (m->comma_other && !m->dot)
		return MARK_COMMA;
	return MARK_AMBIGUOUS;
}

/* Read a number in the table's decimal mark.  A comma followed by other
 * than three digits can only be a decimal comma, whatever the table. */
static int read_number(const char *s, size_t len, enum sb_mark mark, double *v)
{
	char buf[64];
	size_t i, o = 0, d, commas = 0;

	if (len >= sizeof(buf))
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] != ',') {
			buf[o++] = s[i];
			continue;
		}
		commas++;
		for (d = 0; i + 1 + d < len && isdigit((unsigned char)s[i + 1 + d]); d++)
			;
		if (d != 3 || mark == MARK_COMMA)
			buf[o++] = '.';
		else if (mark == MARK_AMBIGUOUS)
			return -1;
	}
	if (commas > 1 && memchr(buf, '.', o) && mark != MARK_POINT)
		return -1;
	return num_parse(buf, o, v);
}

/* ---------------------------------------------------------- line words */

static const char *const other_benchmarks[] = {
	"schbench", "tbench", "sysbench", "netperf", "uperf", "dbench", "ebizzy", "stress-ng",
	"fio", "lmbench", "specjbb", "unixbench", "pgbench", "will-it-scale", "cyclictest",
	"stream", "kernbench", "aim7", "aim9", "reaim", "tpcc", "redis", "memcached",
	"perf stat", "sched pipe", "pipetest", "lat_ctx",
};

/* The benchmark a line of text names: hackbench (also "perf bench sched
 * messaging"), autonuma, another one we do not read here, or none.  The
 * last one named wins. */
static enum sb_bench line_bench_read(const struct ingest_line *l);

/* The benchmark line l names, remembered per line (claims look ahead). */
static enum sb_bench line_bench(const struct ingest_line *l)
{
	int v = ingest_memo_get(l, MEMO_SB_BENCH);

	if (v < 0)
		ingest_memo_put(l, MEMO_SB_BENCH, v = (int)line_bench_read(l));
	return (enum sb_bench)v;
}

static enum sb_bench line_bench_read(const struct ingest_line *l)
{
	enum sb_bench b = SB_NONE;
	size_t k, last = 0, at;
	const char *h;

	if (l->len == 0)
		return SB_NONE;
	for (k = 0; k < sizeof(other_benchmarks) / sizeof(other_benchmarks[0]); k++)
		if ((h = str_find(l->s, l->len, other_benchmarks[k])) &&
		    ingest_line_names_word(l, other_benchmarks[k])) {
			at = (size_t)(h - l->s) + 1;
			if (at > last) {
				last = at;
				/* kernbench's own output is kernbench.c's; here only its
				 * numbers retold in a table of User/System rows */
				b = strcmp(other_benchmarks[k], "kernbench") == 0 ? SB_KERNBENCH : SB_OTHER;
			}
		}
	if ((h = str_find(l->s, l->len, "Kernbench")) && ingest_line_names_word(l, "Kernbench") &&
	    (size_t)(h - l->s) + 1 > last) {
		last = (size_t)(h - l->s) + 1;
		b = SB_KERNBENCH;
	}
	if (((h = str_find(l->s, l->len, "hackbench")) || (h = str_find(l->s, l->len, "Hackbench")) ||
	     (h = str_find(l->s, l->len, "sched messaging"))) &&
	    (size_t)(h - l->s) + 1 >= last) {
		last = (size_t)(h - l->s) + 1;
		b = SB_HACKBENCH;
	}
	if ((h = str_find(l->s, l->len, "autonuma")) && (size_t)(h - l->s) + 1 >= last)
		b = SB_AUTONUMA;
	return b;
}

/* What a hackbench command line says. */
struct sb_cmd {
	long groups, loops, datasize;
	long loops_num;         /* "-l (2560/#grp)": loops = loops_num / groups */
	const char *mode, *ipc;
	int seen;
	int mode_differs;       /* commands disagree on the mode */
};

static void cmd_clear(struct sb_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->groups = c->loops = c->datasize = -1;
}

/* "-l 20000", "-l20000", "--loops=20000", "-l (2560/#grp)", "-l (2560 / group)". */
static const char *opt_arg(const char *p, const char *end, long *v, long *num)
{
	const char *q;

	p = skip_blanks(p, end);
	if (p < end && *p == '=')
		p = skip_blanks(p + 1, end);
	if (p < end && *p == '(') {
		q = skip_blanks(p + 1, end);
		p = q;
		while (q < end && isdigit((unsigned char)*q))
			q++;
		if (q == p || num_parse_long(p, (size_t)(q - p), num) < 0)
			return NULL;
		q = skip_blanks(q, end);
		if (q >= end || *q != '/')
			return NULL;
		while (q < end && *q != ')')
			q++;
		return q < end ? q + 1 : NULL;
	}
	q = p;
	while (q < end && isdigit((unsigned char)*q))
		q++;
	/* "-l 200'" inside quotes, "-l 200)" in a caption */
	if (q == p || (q < end && (isalnum((unsigned char)*q) || *q == '.' || *q == ',')) ||
	    num_parse_long(p, (size_t)(q - p), v) < 0)
		return NULL;
	return q;
}

/* Read a command line into c; 1 when the line is one ("hackbench" is a
 * word of it and options or arguments follow it, or it stands alone after
 * a prompt). */
static int read_command(const struct ingest_line *l, struct sb_cmd *c)
{
	const char *end = l->s + l->len, *p = str_find(l->s, l->len, "hackbench"), *q;
	struct sb_cmd x;
	int positional = 0, any = 0;
	long v;

	if (!p)
		return 0;
	cmd_clear(&x);
	p += 9;
	if (p < end && *p == '\'')
		p++;
	x.ipc = "socket";
	while (p < end) {
		long num = 0;
		p = skip_blanks(p, end);
		if (p >= end || *p == '\'' || *p == '"' || *p == '|' || *p == ';' || *p == ':')
			break;
		q = p;
		while (q < end && *q != ' ')
			q++;
		v = -1;
		if (((q - p == 2 && memcmp(p, "-g", 2) == 0) || (q - p == 8 && memcmp(p, "--groups", 8) == 0))) {
			const char *a = opt_arg(q, end, &v, &num);
			if (a) {
				x.groups = v;
				q = a;
			} else {
				/* "-g #grp", "-g $1": the table gives the groups */
				q = skip_blanks(q, end);
				while (q < end && *q != ' ')
					q++;
			}
		} else if ((q - p == 2 && memcmp(p, "-l", 2) == 0) || (q - p == 7 && memcmp(p, "--loops", 7) == 0)) {
			const char *a = opt_arg(q, end, &v, &num);
			if (!a)
				return 0;
			if (num > 0)
				x.loops_num = num;
			else
				x.loops = v;
			q = a;
		} else if ((q - p == 2 && memcmp(p, "-s", 2) == 0) || (q - p == 10 && memcmp(p, "--datasize", 10) == 0)) {
			const char *a = opt_arg(q, end, &v, &num);
			if (!a)
				return 0;
			x.datasize = v;
			q = a;
		} else if ((q - p == 2 && memcmp(p, "-f", 2) == 0) || (q - p == 5 && memcmp(p, "--fds", 5) == 0)) {
			const char *a = opt_arg(q, end, &v, &num);
			if (!a)
				return 0;
			q = a;
		} else if (ingest_word_eq(p, (size_t)(q - p), "-p") || ingest_word_eq(p, (size_t)(q - p), "--pipe")) {
			x.ipc = "pipe";
		} else if (ingest_word_eq(p, (size_t)(q - p), "-T") || ingest_word_eq(p, (size_t)(q - p), "--threads") ||
			   ingest_word_eq(p, (size_t)(q - p), "thread") || ingest_word_eq(p, (size_t)(q - p), "threads")) {
			x.mode = "thread";
		} else if (ingest_word_eq(p, (size_t)(q - p), "-P") || ingest_word_eq(p, (size_t)(q - p), "--process") ||
			   ingest_word_eq(p, (size_t)(q - p), "process")) {
			x.mode = "process";
		} else if (num_parse_long(p, (size_t)(q - p), &v) == 0) {
			if (positional == 0)
				x.groups = v;
			else if (positional == 1)
				x.loops = v;
			positional++;
		} else if (*p == '-' && q - p == 2 && strchr("pTPgls", p[1])) {
			/* "-pT": bundled flags */
			return 0;
		} else if (*p == '-' && q - p >= 2 && (isalpha((unsigned char)p[1]) || p[1] == '-')) {
			/* an option we do not know ("--thread"): what the
			 * command runs cannot be told, so none of it is taken */
			return 0;
		} else {
			break;  /* prose after the word ("hackbench results:") */
		}
		any = 1;
		p = q;
	}
	if (!any) {
		/* a bare "hackbench" as a command: quoted, or after a prompt */
		const char *b = str_find(l->s, l->len, "hackbench");
		int quoted = b > l->s && (b[-1] == '\'' || b[-1] == '"');
		const char *s0 = skip_blanks(l->s, end);
		int prompt = s0 < end && (*s0 == '$' || *s0 == '#');
		if (!quoted && !prompt)
			return 0;
	}
	if (c->seen) {
		/* a script of several commands: what they all agree on */
		if (c->mode && x.mode && strcmp(c->mode, x.mode) != 0)
			c->mode_differs = 1;
		if (!c->mode_differs && x.mode)
			c->mode = x.mode;
		c->groups = x.groups;
		c->loops = x.loops;
		c->loops_num = x.loops_num;
		c->datasize = x.datasize;
		c->ipc = x.ipc;
	} else {
		*c = x;
		c->seen = 1;
	}
	return 1;
}

/* "N iterations", "N runs", "N times", "average of N": how many runs a
 * published mean is over. */
static long read_count(const struct ingest_line *l)
{
	static struct rx count_rx = RXI("\\b(\\d+)\\s+(?:iterations|runs|times|samples|repetitions)\\b"
					"|\\baverage\\s+of\\s+(\\d+)\\b");
	struct rx_cap cap[3];
	long n;
	int k;

	if (!memchr(l->s, ' ', l->len) || !(str_find(l->s, l->len, "iteration") ||
					   str_find(l->s, l->len, "runs") ||
					   str_find(l->s, l->len, "times") ||
					   str_find(l->s, l->len, "samples") ||
					   str_find(l->s, l->len, "repetitions") ||
					   str_find(l->s, l->len, "average of")))
		return 0;
	k = rx_match(&count_rx, l->s, l->len, cap, 3);
	if (k < 2)
		return 0;
	if (cap[1].s && num_parse_long(cap[1].s, cap[1].len, &n) == 0 && n > 0)
		return n;
	if (k > 2 && cap[2].s && num_parse_long(cap[2].s, cap[2].len, &n) == 0 && n > 0)
		return n;
	return 0;
}

/* ------------------------------------------------------------- tables */

enum sb_colkind { COL_VARIANT, COL_CHANGE, COL_GROUPS, COL_LOOPS, COL_CONFIGVAL };

struct sb_col {
	const char *name;
	size_t len;
	enum sb_colkind kind;
	long cfg;               /* COL_CONFIGVAL: the config value of a transposed column */
};

enum sb_tkind { T_ROWS, T_TRANSPOSED, T_DESCRIBE, T_PAIRS };

enum sb_keykind { KEY_NONE, KEY_GROUPS, KEY_TEST, KEY_STAT, KEY_LABEL, KEY_RUN, KEY_KBMETRIC };

struct sb_table {
	enum sb_tkind kind;
	enum sb_bench bench;    /* the table's own (autonuma names), or SB_NONE */
	size_t header, first, end;      /* header line, first row, end (indexes) */
	struct sb_col col[SB_MAXC];
	int ncol, nvalue;       /* columns; value columns (variant + config values) */
	int nvariant;
	int pipes;
	int continued;          /* its header is the key alone: the columns above */
	int runs;               /* its rows are runs ("test1", "run 2"), statistics under them */
	int kbrows;             /* its rows are kernbench's metrics ("User", "System") */
};

static int is_rule(const struct ingest_line *l)
{
	const char *p = skip_blanks(l->s, l->s + l->len);
	size_t n = (size_t)(l->s + l->len - p);

	return n >= 3 && strspn(p, "-=+|~_ ") == n && strspn(p, "|+ ") < n;
}

/* A line under a boxed table's header that holds no cells: "[ lower is
 * better ]   -----  --------   |  ------" (a caption over underlines),
 * or the box's "        |" alone. */
static int under_rule(const struct ingest_line *l)
{
	const char *p = skip_blanks(l->s, l->s + l->len), *end = l->s + l->len;

	if (p < end && *p == '[') {
		const char *q = memchr(p, ']', (size_t)(end - p));
		if (!q)
			return 0;
		p = skip_blanks(q + 1, end);
	}
	return p < end && strspn(p, "-=|_ ") == (size_t)(end - p) && memchr(p, '|', (size_t)(end - p));
}

/* The cells of a '|' table row: "| mean | 0.62 | 0.61 |" -> fields. */
static int pipe_fields(const struct ingest_line *l, struct ingest_tok *f, int max)
{
	const char *p = skip_blanks(l->s, l->s + l->len), *end = l->s + l->len;
	int n = 0;

	if (p >= end || *p != '|')
		return -1;
	p++;
	while (p < end) {
		const char *q = p, *a, *b;
		while (q < end && *q != '|')
			q++;
		if (q >= end && skip_blanks(p, end) == end)
			break;
		a = skip_blanks(p, q);
		b = q;
		while (b > a && b[-1] == ' ')
			b--;
		if (n < max) {
			f[n].s = a;
			f[n].len = (size_t)(b - a);
		}
		n++;
		p = q < end ? q + 1 : q;
	}
	return n;
}

/* Split s[0..end) into names at runs of at least `gap` blanks or at '|'. */
static int split_names(const char *p, const char *end, int gap, struct ingest_tok *f, int max)
{
	int n = 0;

	for (;;) {
		const char *a, *q;
		p = skip_blanks(p, end);
		while (p < end && *p == '|')
			p = skip_blanks(p + 1, end);
		if (p >= end)
			return n;
		a = q = p;
		while (q < end && *q != '|') {
			if (*q == ' ') {
				const char *r = skip_blanks(q, end);
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

static int name_is_change(const char *s, size_t n)
{
	static const char *const words[] = { "improvement", "improv", "change", "delta", "diff",
					     "difference", "gain", "speedup", "%", "regression",
					     "ratio", "vs" };
	size_t k, w;

	if (n > 2 && s[0] == '[' && s[n - 1] == ']') {
		/* "[ vs. v3.7]" */
		s++;
		n -= 2;
		while (n && *s == ' ') {
			s++;
			n--;
		}
	}
	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		w = strlen(words[k]);
		if (n >= w && strncasecmp(s, words[k], w) == 0)
			return 1;
	}
	return memchr(s, '%', n) != NULL;
}

static enum sb_colkind name_config(const char *s, size_t n)
{
	while (n && (s[n - 1] == ':' || s[n - 1] == '='))
		n--;
	if (n && s[0] == '#') {
		s++;
		n--;
	}
	if (ingest_word_eq(s, n, "grp") || ingest_word_eq(s, n, "group") || ingest_word_eq(s, n, "groups") ||
	    ingest_word_eq(s, n, "g") || ingest_word_eq(s, n, "procs") || ingest_word_eq(s, n, "num_group") ||
	    ingest_word_eq(s, n, "num_groups") || ingest_word_eq(s, n, "nr_groups") || ingest_word_eq(s, n, "ngroups"))
		return COL_GROUPS;
	if (ingest_word_eq(s, n, "loops") || ingest_word_eq(s, n, "loop") || ingest_word_eq(s, n, "nr") || ingest_word_eq(s, n, "l"))
		return COL_LOOPS;
	return COL_VARIANT;
}

static int is_stat(const char *s, size_t n)
{
	static const char *const stats[] = { "mean", "avg", "average", "amean", "std", "stddev",
					     "stdev", "sd", "min", "max", "median", "count" };
	size_t k;

	if (n > 2 && s[n - 1] == ')' && memchr(s, '(', n)) {
		/* "avg(s)", "mean (sec)": the statistic and its unit */
		n = (size_t)((const char *)memchr(s, '(', n) - s);
		while (n && s[n - 1] == ' ')
			n--;
	}
	for (k = 0; k < sizeof(stats) / sizeof(stats[0]); k++)
		if (ingest_word_eq(s, n, stats[k]))
			return 1;
	return n >= 2 && n <= 4 && s[n - 1] == '%' && strspn(s, "0123456789.") == n - 1;
}

/* "test1", "run2", "run-3", "#4", "iter5": the rows are runs; the run's
 * number, or -1 when not that. */
static long run_key(const char *s, size_t n)
{
	static const char *const words[] = { "test", "run", "iteration", "iter", "round", "trial", "#" };
	size_t k, w;
	long v;

	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		w = strlen(words[k]);
		if (n <= w || strncasecmp(s, words[k], w) != 0)
			continue;
		if (s[w] == '-' || s[w] == '_')
			w++;
		if (w < n && strspn(s + w, "0123456789") == n - w && num_parse_long(s + w, n - w, &v) == 0)
			return v;
		return -1;
	}
	return -1;
}

/* A row key naming one of kernbench's metrics, as a table retells them
 * ("User", "System", "Elapsed"): its index in kb_metrics; "Total" (User +
 * System, derived) is KB_NMETRICS; -1 when not that. */
static int kb_metric_key(const char *s, size_t n)
{
	if (ingest_word_eq(s, n, "Elapsed") || ingest_word_eq(s, n, "Real"))
		return 0;
	if (ingest_word_eq(s, n, "User"))
		return 1;
	if (ingest_word_eq(s, n, "System") || ingest_word_eq(s, n, "Sys"))
		return 2;
	if (ingest_word_eq(s, n, "Total"))
		return KB_NMETRICS;
	return -1;
}

/* "1-groups", "16 groups", "8grp": groups = N.  -1 when not that. */
static long groups_key(const char *s, size_t n)
{
	const char *q = s, *end = s + n;
	long v;

	while (q < end && isdigit((unsigned char)*q))
		q++;
	if (q == s || num_parse_long(s, (size_t)(q - s), &v) < 0)
		return -1;
	if (q == end)
		return -2;      /* a bare number */
	if (*q == '-' || *q == ' ')
		q++;
	if (ingest_word_eq(q, (size_t)(end - q), "groups") || ingest_word_eq(q, (size_t)(end - q), "group") ||
	    ingest_word_eq(q, (size_t)(end - q), "grp") || ingest_word_eq(q, (size_t)(end - q), "g"))
		return v;
	return -1;
}

/* A row: its key (the first cell, or a label before ':') and its items. */
struct sb_row {
	const char *key;
	size_t keylen;
	struct sb_item it[SB_MAXC];
	int nit;
	const char *annot;      /* "*", "[Verification Run]" after the values, or NULL */
	size_t annotlen;
};

/* Where an annotation after a row's values starts ("   *",
 * "[Verification Run]", "<-- noise"), or end when there is none. */
static const char *cut_annotation(const char *p, const char *end)
{
	const char *t;

	for (t = p; t < end; t++) {
		const char *q;
		if (t == p || t[-1] != ' ')
			continue;
		if (*t == '[' && end[-1] == ']')
			return t;
		if (*t != '*' && !(*t == '<' && t + 1 < end && (t[1] == '-' || t[1] == '=')))
			continue;
		for (q = t; q < end && strchr("*<-= ", *q); q++)
			;
		if (q == end || (*q == '[' && end[-1] == ']') || (t[0] == '<' && q > t + 1))
			return t;
	}
	return end;
}

static int read_row(const struct ingest_line *l, int pipes, struct sb_row *r)
{
	const char *p = skip_blanks(l->s, l->s + l->len), *end = l->s + l->len, *q, *colon;
	int k;

	r->key = NULL;
	r->keylen = 0;
	r->nit = 0;
	r->annot = NULL;
	if (p >= end)
		return -1;
	if (pipes) {
		struct ingest_tok f[SB_MAXC + 1];
		int nf = pipe_fields(l, f, SB_MAXC + 1);
		if (nf < 2 || nf > SB_MAXC + 1)
			return -1;
		r->key = f[0].s;
		r->keylen = f[0].len;
		for (k = 1; k < nf; k++) {
			struct sb_item it[2];
			int ni = scan_items(f[k].s, f[k].s + f[k].len, it, 2);
			if (ni == 0) {
				memset(&r->it[r->nit], 0, sizeof(r->it[0]));
				r->it[r->nit++].kind = IT_HOLE;
			} else if (ni == 1) {
				r->it[r->nit++] = it[0];
			} else {
				return -1;
			}
		}
		return 0;
	}
	/* "w/o: 1.81 ...", " 1-groups:  4.97 ...": a label before ':' */
	colon = memchr(p, ':', (size_t)(end - p));
	if (colon && colon - p <= 40 && (colon + 1 == end || colon[1] == ' ')) {
		const char *b = colon;
		while (b > p && b[-1] == ' ')
			b--;
		r->key = p;
		r->keylen = (size_t)(b - p);
		q = colon + 1;
		if (r->keylen == 0 || str_find(p, r->keylen, "  "))
			return -1;
	} else {
		q = p;
		while (q < end && *q != ' ')
			q++;
		r->key = p;
		r->keylen = (size_t)(q - p);
	}
	r->annot = NULL;
	k = scan_items(q, end, r->it, SB_MAXC);
	if (k < 0) {
		const char *cut = cut_annotation(q, end);
		if (cut == end)
			return -1;
		r->annot = cut;
		r->annotlen = (size_t)(end - cut);
		k = scan_items(q, cut, r->it, SB_MAXC);
		if (k <= 0)
			return -1;
	}
	if (k > SB_MAXC)
		return -1;
	r->nit = k;
	return 0;
}

static int row_values(const struct sb_row *r)
{
	int k, n = 0;

	for (k = 0; k < r->nit; k++)
		n += r->it[k].kind != IT_CHANGE;
	return n;
}

/* The value items of a row as the table's value columns: items[k] for
 * column k, changes dropped; NULL when the row does not fit.  A change
 * column may hold bare numbers ("DELTA (%)" of -1.494): then every
 * column has an item. */
static int row_fit(const struct sb_table *t, const struct sb_row *r, const struct sb_item **cell)
{
	int k, j = 0, nv = row_values(r);

	if (nv == t->ncol) {
		for (k = 0; k < r->nit; k++)
			if (r->it[k].kind != IT_CHANGE)
				cell[j++] = &r->it[k];
		for (k = 0; k < t->ncol; k++)
			if (t->col[k].kind == COL_CHANGE)
				cell[k] = NULL;
		return 0;
	}
	if (nv != t->nvalue)
		return -1;
	for (k = 0; k < t->ncol; k++) {
		if (t->col[k].kind == COL_CHANGE) {
			cell[k] = NULL;
			continue;
		}
		while (j < r->nit && r->it[j].kind == IT_CHANGE)
			j++;
		cell[k] = &r->it[j++];
	}
	return 0;
}

/* A line of changes only: "+4.1%  +8.3%  +7.3%". */
static int change_row(const struct ingest_line *l)
{
	struct sb_item it[SB_MAXC];
	int n = scan_items(l->s, l->s + l->len, it, SB_MAXC), k;

	if (n <= 0 || n > SB_MAXC)
		return 0;
	for (k = 0; k < n; k++)
		if (it[k].kind != IT_CHANGE)
			return 0;
	return 1;
}

static enum sb_keykind key_kind(const struct sb_table *t, const char *s, size_t n, long *groups)
{
	long g;

	if (n == 0)
		return KEY_NONE;
	if (ingest_autonuma_test(s, n))
		return KEY_TEST;
	if (t->kind != T_TRANSPOSED && run_key(s, n) >= 0)
		return KEY_RUN;         /* (a transposed table's row keys are variants) */
	if (t->kind != T_TRANSPOSED && kb_metric_key(s, n) >= 0)
		return KEY_KBMETRIC;
	if (is_stat(s, n))
		return KEY_STAT;
	g = groups_key(s, n);
	if (g >= 0) {
		*groups = g;
		return KEY_GROUPS;
	}
	if (g == -2 && t->kind == T_ROWS) {
		num_parse_long(s, n, groups);
		return KEY_GROUPS;
	}
	return KEY_LABEL;
}

/*
 * Read a header at lines[0] and the rows below it into t: returns the
 * lines taken (header, rules, rows), or 0 when lines[0] does not start a
 * table of variant columns.
 */
static size_t read_table(const struct ingest_line *lines, size_t n, struct sb_table *t)
{
	const struct ingest_line *h = &lines[0];
	const char *p = skip_blanks(h->s, h->s + h->len), *end = h->s + h->len, *rest;
	struct ingest_tok names[4][SB_MAXC + 1], keyname = { NULL, 0 };
	int nn[4] = { 0, 0, 0, 0 }, alt, try, k, rows = 0, kcol;
	size_t i, first;
	struct sb_row row;
	enum sb_colkind keycfg = COL_VARIANT;

	memset(t, 0, sizeof(*t));
	if (p >= end || n < 2 || is_rule(h))
		return 0;
	/* a rule under the header ("-----", "|---+---|"): one, or two; or an
	 * underline under a bracketed caption ("[ lower is better ]  ----- |
	 * -----") and a spacer of the box's '|' alone */
	first = 1;
	while (first < n && first < 4 && (is_rule(&lines[first]) || under_rule(&lines[first])))
		first++;
	if (first >= n || ingest_line_blank(&lines[first]))
		return 0;
	t->pipes = *p == '|';
	/* The header's first cell names the rows. */
	if (t->pipes) {
		struct ingest_tok f[SB_MAXC + 2];
		int nf = pipe_fields(h, f, SB_MAXC + 2);
		if (nf < 3 || nf > SB_MAXC + 1)
			return 0;
		keyname = f[0];
		for (k = 1; k < nf; k++)
			names[0][k - 1] = f[k];
		nn[0] = nn[1] = nf - 1;
		memcpy(names[1], names[0], sizeof(names[0]));
	} else {
		if (*p == '[') {
			rest = memchr(p, ']', (size_t)(end - p));
			if (!rest)
				return 0;
			rest++;
		} else {
			rest = p;
			while (rest < end && *rest != ' ' && !(rest > p && (rest[-1] == ':' || rest[-1] == '=')))
				rest++;
		}
		keyname.s = p;
		keyname.len = (size_t)(rest - p);
		nn[0] = split_names(rest, end, 2, names[0], SB_MAXC + 1);
		nn[1] = split_names(rest, end, 1, names[1], SB_MAXC + 1);
		if (p > h->s && *p != '[' && lines[first].s[0] != ' ') {
			/* "\tversion1\tversion2": a header set in by one cell, over
			 * rows that are not: its first cell is empty */
			nn[2] = split_names(p, end, 2, names[2], SB_MAXC + 1);
			nn[3] = split_names(p, end, 1, names[3], SB_MAXC + 1);
		}
	}
	keycfg = name_config(keyname.s, keyname.len);
	if (read_row(&lines[first], t->pipes, &row) < 0 || row_values(&row) < 2)
		return 0;
	/* Which split makes the columns match the first row. */
	/* A header set in over rows that are not has an empty first cell:
	 * that reading first, so that its first name is not taken for the
	 * key's ("Base" over "User 85.07 84.84"). */
	for (try = 0; try < 4; try++) {
		int nv = 0, nchg = 0, nvar = 0, allnum = 1;
		alt = nn[2] ? (try + 2) % 4 : try;
		if (nn[alt] < 2 || nn[alt] > SB_MAXC)
			continue;
		keycfg = alt >= 2 ? COL_VARIANT : name_config(keyname.s, keyname.len);
		for (k = 0; k < nn[alt]; k++) {
			struct sb_col *c = &t->col[k];
			long v;
			c->name = names[alt][k].s;
			c->len = names[alt][k].len;
			if (is_stat(c->name, c->len) || ingest_word_eq(c->name, c->len, "stddev") ||
			    ingest_word_eq(c->name, c->len, "%change"))
				return 0;       /* columns of statistics: a summary table */
			c->kind = name_is_change(c->name, c->len) ? COL_CHANGE : COL_VARIANT;
			if (c->kind == COL_VARIANT && k < 2 && (k == 0 || t->col[0].kind != COL_VARIANT) &&
			    name_config(c->name, c->len) != COL_VARIANT)
				c->kind = name_config(c->name, c->len);
			if (num_parse_long(c->name, c->len, &v) == 0 && v >= 0)
				c->cfg = v;
			else
				allnum = 0;
			nchg += c->kind == COL_CHANGE;
			nv += c->kind != COL_CHANGE;
			nvar += c->kind == COL_VARIANT;
		}
		t->ncol = nn[alt];
		t->nvalue = nv;
		t->nvariant = nvar;
		if (allnum && keycfg == COL_GROUPS) {
			t->kind = T_TRANSPOSED;
			for (k = 0; k < t->ncol; k++)
				t->col[k].kind = COL_CONFIGVAL;
			t->nvariant = 0;
		} else {
			t->kind = T_ROWS;
			/* variant names are not numbers */
			for (k = 0; k < t->ncol && allnum == 0; k++) {
				double d;
				if (t->col[k].kind == COL_VARIANT &&
				    num_parse(t->col[k].name, t->col[k].len, &d) == 0)
					break;
			}
			if (allnum || k < t->ncol || nvar < 2)
				continue;
		}
		{
			const struct sb_item *cell[SB_MAXC];
			if (row_fit(t, &row, cell) == 0)
				break;
		}
	}
	if (try == 4)
		return 0;
	/* What the rows are. */
	{
		long g;
		enum sb_keykind kk = key_kind(t, row.key, row.keylen, &g);
		if (t->kind == T_TRANSPOSED) {
			if (kk != KEY_LABEL)
				return 0;
		} else if (kk == KEY_STAT) {
			t->kind = T_DESCRIBE;
		} else if (kk == KEY_TEST) {
			t->bench = SB_AUTONUMA;
		} else if (kk == KEY_RUN) {
			t->runs = 1;
		} else if (kk == KEY_KBMETRIC && kb_metric_key(row.key, row.keylen) < KB_NMETRICS) {
			t->kbrows = 1;
			t->bench = SB_KERNBENCH;
		} else if (kk == KEY_GROUPS) {
			if (keycfg != COL_GROUPS && groups_key(row.key, row.keylen) < 0)
				return 0;       /* a bare number under an unknown name */
			if (groups_key(row.key, row.keylen) >= 0)
				t->bench = SB_HACKBENCH;        /* "1-groups": hackbench's */
		} else {
			return 0;
		}
	}
	kcol = 0;
	for (i = first; i < n; i++) {
		const struct sb_item *cell[SB_MAXC];
		long g;
		if (ingest_line_blank(&lines[i]))
			break;
		if (t->pipes && is_rule(&lines[i]))
			continue;
		if (rows && change_row(&lines[i])) {
			/* the author's changes under the table ("+4.1%  +8.3%") */
			kcol = (int)i + 1;
			continue;
		}
		if (read_row(&lines[i], t->pipes, &row) < 0 || row.keylen == 0)
			break;
		if (row_fit(t, &row, cell) < 0)
			break;
		if (t->kind == T_ROWS && t->runs) {
			enum sb_keykind kk = key_kind(t, row.key, row.keylen, &g);
			if (kk != KEY_RUN && kk != KEY_STAT)
				break;
		} else if (t->kind == T_ROWS && t->kbrows) {
			if (key_kind(t, row.key, row.keylen, &g) != KEY_KBMETRIC)
				break;
		} else if (t->kind == T_ROWS) {
			enum sb_keykind kk = key_kind(t, row.key, row.keylen, &g);
			if (kk != (t->bench == SB_AUTONUMA ? KEY_TEST : KEY_GROUPS))
				break;
		} else if (t->kind == T_DESCRIBE) {
			if (!is_stat(row.key, row.keylen))
				break;
		} else if (key_kind(t, row.key, row.keylen, &g) != KEY_LABEL) {
			break;
		}
		rows++;
		kcol = (int)i + 1;
	}
	if (!rows)
		return 0;
	t->header = 0;
	t->first = first;
	t->end = (size_t)kcol;
	return t->end;
}

/* autonuma's paired lines, one column per variant:
 *   Base                Patched
 *   numa01              numa01
 *   224.70              137.23                                          */
static size_t read_pairs(const struct ingest_line *lines, size_t n, struct sb_table *t)
{
	const struct ingest_line *h = &lines[0];
	struct ingest_tok names[SB_MAXC + 1], tok[SB_MAXC + 1];
	size_t i;
	int k, nn, pairs = 0;

	memset(t, 0, sizeof(*t));
	if (n < 3)
		return 0;
	nn = split_names(h->s, h->s + h->len, 2, names, SB_MAXC + 1);
	if (nn < 2 || nn > SB_MAXC)
		return 0;
	for (k = 0; k < nn; k++) {
		double d;
		if (num_parse(names[k].s, names[k].len, &d) == 0 ||
		    ingest_autonuma_test(names[k].s, names[k].len))
			return 0;
		t->col[k].name = names[k].s;
		t->col[k].len = names[k].len;
		t->col[k].kind = COL_VARIANT;
	}
	for (i = 1; i + 1 < n; i += 2) {
		struct sb_item it[SB_MAXC];
		size_t nt = ingest_split(lines[i].s, lines[i].len, tok, SB_MAXC + 1);
		if (nt != (size_t)nn)
			break;
		for (k = 0; k < nn; k++)
			if (!ingest_autonuma_test(tok[k].s, tok[k].len) || tok[k].len != tok[0].len ||
			    memcmp(tok[k].s, tok[0].s, tok[0].len) != 0)
				break;
		if (k < nn)
			break;
		if (scan_items(lines[i + 1].s, lines[i + 1].s + lines[i + 1].len, it, SB_MAXC) != nn)
			break;
		for (k = 0; k < nn; k++)
			if (it[k].kind == IT_CHANGE)
				break;
		if (k < nn)
			break;
		pairs++;
	}
	if (!pairs)
		return 0;
	t->kind = T_PAIRS;
	t->bench = SB_AUTONUMA;
	t->ncol = t->nvalue = t->nvariant = nn;
	t->first = 1;
	t->end = i;
	return i;
}

/* --------------------------------------------------- kernbench, twice */

/* "Average Optimal load -j 8 Run (std deviation):", and as older
 * kernbench and STP print it, "Average Optimal -j 32 Load Run:",
 * "Average Half Load -j 4 Run:", "Average Maximal -j Load Run:". */
static struct rx kb_heading_rx = RXI("^\\s*Average\\s+(Single\\s+threaded|Half|Optimal|Optimum|Maximal|"
				     "Maximum|Custom)(?:\\s+load)?"
				     "(?:\\s+-j(?:\\s*(\\d+))?)?(?:\\s+load)?(?:\\s+Run(?:\\s*\\(std\\s+deviation\\))?)?"
				     "\\s*:?\\s*$");
static struct rx kb_runsd_rx = RXI("^\\s*Run\\s*\\(std\\s+deviation\\)\\s*:?\\s*$");

static int kb_heading(const struct ingest_line *l, struct rx_cap *cap)
{
	const char *p = skip_blanks(l->s, l->s + l->len);
	struct rx_cap c[3];

	if (p >= l->s + l->len || (*p != 'A' && *p != 'a'))
		return 0;
	return rx_match(&kb_heading_rx, l->s, l->len, cap ? cap : c, 3) > 0;
}

/* The kernbench row label at the start of l, its index, or -1; *rest
 * is what follows the label. */
static int kb_row(const struct ingest_line *l, const char **rest)
{
	const char *p = skip_blanks(l->s, l->s + l->len);
	size_t k, w;

	for (k = 0; k < KB_NMETRICS; k++) {
		w = strlen(kb_metrics[k].label);
		if ((size_t)(l->s + l->len - p) > w && memcmp(p, kb_metrics[k].label, w) == 0 && p[w] == ' ') {
			*rest = p + w;
			return (int)k;
		}
	}
	return -1;
}

/* The values of a kernbench row: "48.42 (0.334515)   48.638 (0.344848)"
 * or, the output pasted twice, "338.122 (0.87)   Elapsed Time 336.404 (1.69)". */
static int kb_row_items(const struct ingest_line *l, struct sb_item *it, int max)
{
	const char *rest, *end = l->s + l->len, *again;
	int k = kb_row(l, &rest), n1, n2;
	size_t w;

	if (k < 0)
		return -1;
	w = strlen(kb_metrics[k].label);
	again = str_find(rest, (size_t)(end - rest), kb_metrics[k].label);
	if (!again)
		return scan_items(rest, end, it, max);
	n1 = scan_items(rest, again, it, max);
	if (n1 < 0 || n1 >= max)
		return -1;
	n2 = scan_items(again + w, end, it + n1, max - n1);
	return n2 < 0 ? -1 : n1 + n2;
}

/* A line of two or more names at two or more blanks apart ("With 'if':
 * Without 'if':", "4.12.0-rc5  4.12.0-rc5-spf"), none a kernbench row. */
static int kb_names(const struct ingest_line *l, struct ingest_tok *names, int max)
{
	const char *rest;
	int n;

	if (ingest_line_blank(l) || kb_row(l, &rest) >= 0 || kb_heading(l, NULL) ||
	    str_find(l->s, l->len, "(std deviation)"))
		return 0;
	n = split_names(l->s, l->s + l->len, 2, names, max);
	return n >= 2 && n <= max ? n : 0;
}

/* "   Total   2089.8   2072.7   2100.4": a row the author added (User +
 * System), with one bare number per column and no sd.  It is derived from
 * the rows kbench stores, so it is no value of its own. */
static int kb_derived_row(const struct ingest_line *l, int nvalues)
{
	const char *p = skip_blanks(l->s, l->s + l->len), *end = l->s + l->len, *q = p;
	struct sb_item it[SB_MAXC];
	int ni, k;

	while (q < end && *q != ' ')
		q++;
	if (!ingest_word_eq(p, (size_t)(q - p), "Total") && !ingest_word_eq(p, (size_t)(q - p), "Sum"))
		return 0;
	ni = scan_items(q, end, it, SB_MAXC);
	if (ni != nvalues)
		return 0;
	for (k = 0; k < ni; k++)
		if (it[k].kind != IT_VALUE || it[k].sd)
			return 0;
	return 1;
}

struct sb_emit;
static void kb_emit_block(struct sb_emit *em, const struct ingest_line *lines, size_t first,
			  size_t end, const struct ingest_tok *names, int nnames, int nvalues);

/* Blocks of kernbench pasted twice or more, side by side, from lines[0]
 * (a heading, or a line of names over one).  Returns the lines taken. */
static size_t kb_walk(const struct ingest_line *lines, size_t n, struct sb_emit *em)
{
	struct ingest_tok names[SB_MAXC + 1];
	int nnames = 0, blocks = 0;
	size_t i = 0, end = 0;

	if (!kb_heading(&lines[0], NULL)) {
		nnames = kb_names(&lines[0], names, SB_MAXC);
		if (!nnames || n < 3 || !kb_heading(&lines[1], NULL))
			return 0;
		for (i = 0; i < (size_t)nnames; i++) {
			/* "With 'if':" -> "With 'if'" */
			while (names[i].len && names[i].s[names[i].len - 1] == ':')
				names[i].len--;
		}
		i = 1;
	}
	while (i < n) {
		size_t first = i, j = i + 1;
		int nv = -1, rows = 0;
		struct ingest_tok own[SB_MAXC + 1];
		int nown = 0;

		if (!kb_heading(&lines[i], NULL))
			break;
		if (j < n && (nown = kb_names(&lines[j], own, SB_MAXC)) > 0) {
			j++;
		} else if (j + 2 < n && ingest_line_blank(&lines[j]) &&
			   (nown = kb_names(&lines[j + 1], own, SB_MAXC)) > 0) {
			/* the heading, a blank, the names, a blank, the rows */
			j += 2;
			if (ingest_line_blank(&lines[j]))
				j++;
		}
		if (j < n && ingest_line_matches(&kb_runsd_rx, &lines[j]))
			j++;
		for (; j < n; j++) {
			struct sb_item it[SB_MAXC];
			int k = kb_row_items(&lines[j], it, SB_MAXC), v = 0, m;
			if (k < 0 && rows && kb_derived_row(&lines[j], nv))
				continue;
			if (k < 0)
				break;
			for (m = 0; m < k && m < SB_MAXC; m++)
				v += it[m].kind == IT_VALUE;
			if (v < 2 || (nv >= 0 && v != nv))
				break;
			nv = v;
			rows++;
		}
		if (!rows)
			break;
		if (nown) {
			memcpy(names, own, sizeof(own));
			nnames = nown;
		}
		if (em)
			kb_emit_block(em, lines, first, j, names, nnames, nv);
		blocks++;
		end = j;
		i = ingest_skip_blank(lines, j, n);
		/* a line of names over the next heading */
		if (i + 1 < n && !kb_heading(&lines[i], NULL) && kb_names(&lines[i], own, SB_MAXC) &&
		    kb_heading(&lines[i + 1], NULL)) {
			nnames = kb_names(&lines[i], names, SB_MAXC);
			for (j = 0; j < (size_t)nnames; j++)
				while (names[j].len && names[j].s[names[j].len - 1] == ':')
					names[j].len--;
			i++;
		}
	}
	return blocks ? end : 0;
}

/* ------------------------------------------------------------- walking */

static size_t kb_cols_walk(const struct ingest_line *lines, size_t n, struct sb_emit *em);


/* What the text above a table says about it. */
struct sb_context {
	enum sb_bench bench;
	struct sb_cmd cmd;
	int cmd_gen;            /* which command line (tables under one fall together) */
	long count;             /* "N iterations": n of a published mean */
	const char *kv_key, *kv_val;    /* a "mTHP:16K" heading */
	const char *mode;               /* a "Threads:" heading */
	size_t kv_keylen, kv_vallen;
	const struct ingest_line *heading;      /* first heading line above the table */
	int prose;              /* lines of text since the command */
	const struct ingest_line *dropped_cmd;  /* a line naming hackbench anew, after prose:
						 * the command above is of other text */
};

struct sb_found {
	struct sb_table t;
	size_t at;              /* header line index */
	struct sb_context c;
};

struct sb_emit {
	const struct ingest_ctx *ctx;
	const struct ingest_line *lines;
	struct rec_batch *out;
	struct sb_found *found;
	size_t nfound, cap;
};

/* "mTHP:16K", "NPS=4": a heading that is one config pair. */
static int kv_heading(const struct ingest_line *l, struct sb_context *c)
{
	static struct rx kv_rx = RX("^\\s*([A-Za-z][A-Za-z0-9_-]{0,30})\\s*[:=]\\s*"
				    "([A-Za-z0-9._+-]*[0-9][A-Za-z0-9._+-]*)\\s*$");
	struct rx_cap cap[3];

	if (l->len > 64 || !(memchr(l->s, ':', l->len) || memchr(l->s, '=', l->len)) ||
	    rx_match(&kv_rx, l->s, l->len, cap, 3) < 3)
		return 0;
	if (c) {
		c->kv_key = cap[1].s;
		c->kv_keylen = cap[1].len;
		c->kv_val = cap[2].s;
		c->kv_vallen = cap[2].len;
	}
	return 1;
}

/* "Threads:", "Processes:", "thread mode": hackbench's mode for the
 * tables under it. */
static const char *mode_heading(const struct ingest_line *l)
{
	static struct rx mode_rx = RXI("^\\s*(?:\\(\\w\\)\\s*|-\\s*|\\*\\s*)?(threads?|process(?:es)?)"
				       "(?:\\s+mode)?\\s*:?\\s*$");
	struct rx_cap cap[2];

	if (l->len > 40 || rx_match(&mode_rx, l->s, l->len, cap, 2) < 2)
		return NULL;
	return (cap[1].s[0] | 0x20) == 't' ? "thread" : "process";
}

/* A line that may open a segment above its table: it names hackbench or
 * autonuma as a command, a banner, a caption ("100 iterations of
 * 'hackbench':"), or it is a config heading.  A sentence in a paragraph
 * that mentions hackbench is not one. */
static int opens_text(const struct ingest_line *l)
{
	enum sb_bench b;
	struct sb_cmd cmd;
	const char *end = l->s + l->len;

	if (kv_heading(l, NULL) || mode_heading(l))
		return 1;
	b = line_bench(l);
	if (b != SB_HACKBENCH && b != SB_AUTONUMA && b != SB_KERNBENCH)
		return 0;
	cmd_clear(&cmd);
	while (end > l->s && end[-1] == ' ')
		end--;
	return l->len <= 60 || (end > l->s && end[-1] == ':') || read_count(l) > 0 ||
	       (b == SB_HACKBENCH && read_command(l, &cmd));
}

/* A table whose header is its key alone ("group") under a table of the
 * same segment: the columns of the one above, when every row fits them. */
static size_t read_continued(const struct ingest_line *lines, size_t n, const struct sb_table *prev,
			     struct sb_table *t)
{
	struct ingest_tok tok[2];
	size_t i;

	if (!prev || prev->kind != T_ROWS || prev->pipes ||
	    ingest_split(lines[0].s, lines[0].len, tok, 2) != 1 ||
	    name_config(tok[0].s, tok[0].len) != COL_GROUPS)
		return 0;
	*t = *prev;
	t->bench = prev->bench;
	for (i = 1; i < n; i++) {
		struct sb_row row;
		const struct sb_item *cell[SB_MAXC];
		long g;
		if (ingest_line_blank(&lines[i]) || read_row(&lines[i], 0, &row) < 0 ||
		    row_fit(t, &row, cell) < 0 || key_kind(t, row.key, row.keylen, &g) != KEY_GROUPS)
			break;
	}
	if (i == 1)
		return 0;
	t->first = 1;
	t->end = i;
	t->continued = 1;
	return i;
}

/* A table of either kind at lines[0]. */
static size_t read_any(const struct ingest_line *lines, size_t n, const struct sb_table *prev,
		       struct sb_table *t)
{
	size_t len;

	if (ingest_line_blank(&lines[0]) || lines[0].len > 400)
		return 0;
	len = read_pairs(lines, n, t);
	if (len)
		return len;
	len = read_table(lines, n, t);
	if (len)
		return len;
	return read_continued(lines, n, prev, t);
}

/* Take one line of text above or between tables into c: 1 when it may
 * stand there, 0 when it ends the search (output of its own, a line
 * naming another benchmark).  *counted: it spends the budget. */
static int take_text(const struct ingest_line *l, struct sb_context *c, int *counted)
{
	enum sb_bench b;
	long cnt;
	struct sb_cmd cmd = c->cmd;

	*counted = 0;
	if (ingest_line_blank(l))
		return 1;
	if (hackbench_time_line(l) || kb_heading(l, NULL))
		return 0;
	if (is_rule(l))
		return 1;
	b = line_bench(l);
	if (b == SB_OTHER)
		return 0;
	if (b != SB_NONE)
		c->bench = b;
	if ((cnt = read_count(l)) > 0)
		c->count = cnt;
	if (b == SB_HACKBENCH) {
		if (!cmd.seen || c->heading || c->kv_key) {
			/* a new command after a table or a heading: start afresh */
			cmd_clear(&cmd);
		}
		if (read_command(l, &cmd)) {
			c->cmd_gen++;
			c->cmd = cmd;
			c->heading = NULL;
			c->prose = 0;
			return 1;       /* commands do not spend the budget */
		}
		if (c->cmd.seen && c->prose >= 3 && l->s[l->len - 1] != ':') {
			/* "I measured performance by hackbench." a paragraph
			 * below a command: that command was for other text (a
			 * caption "the result of hackbench:" points back at it) */
			cmd_clear(&c->cmd);
			c->cmd_gen++;
			c->dropped_cmd = l;
		}
	}
	*counted = 1;
	c->prose++;
	if (hackbench_header_line(l))
		return 1;       /* an example of the output, no result */
	if (mode_heading(l)) {
		c->mode = mode_heading(l);
		return 1;
	}
	if (b == SB_NONE && !c->heading && !kv_heading(l, c) && l->len <= 100)
		c->heading = l;
	return 1;
}

/*
 * The walk that claim() and parse() share: the text from lines[0], the
 * tables under it, and text and tables after them while they stay under
 * one benchmark.  em NULL: only measure.  Returns the lines taken.
 */
static size_t walk(const struct ingest_line *lines, size_t n, struct sb_emit *em)
{
	struct sb_context c;
	struct sb_table t, prev;
	size_t i = 0, end = 0, len, ntables = 0;
	int budget = SB_PREAMBLE, lines_left = SB_COMMANDS + SB_PREAMBLE, counted;

	if (n == 0 || ingest_line_blank(&lines[0]))
		return 0;
	if ((len = kb_walk(lines, n, em)) > 0 || (len = kb_cols_walk(lines, n, em)) > 0)
		return len;
	memset(&c, 0, sizeof(c));
	cmd_clear(&c.cmd);
	/* lines[0] is a table, or text that names a benchmark or a config */
	len = read_any(lines, n, NULL, &t);
	if (!len && !opens_text(&lines[0]))
		return 0;
	for (;;) {
		/* text up to the next table */
		while (!len) {
			if (i >= n || budget <= 0 || lines_left-- <= 0)
				return end;
			if (!take_text(&lines[i], &c, &counted))
				return end;
			budget -= counted;
			i++;
			if (i < n && !ingest_line_blank(&lines[i]))
				len = read_any(lines + i, n - i, ntables ? &prev : NULL, &t);
		}
		{
			enum sb_bench b = t.bench ? t.bench : c.bench;
			if (t.kbrows && c.bench != SB_KERNBENCH)
				return end;     /* User/System rows, but of what? */
			if (b != SB_HACKBENCH && b != SB_AUTONUMA && !t.kbrows)
				return end;
			t.bench = b;
			if (t.kbrows && i > 0 && !ingest_line_blank(&lines[i - 1]) && !is_rule(&lines[i - 1]) &&
			    (i < 2 || ingest_line_blank(&lines[i - 2])) && line_bench(&lines[i - 1]) == SB_NONE)
				c.heading = &lines[i - 1];      /* "ia64": a line of its own over it */
		}
		if (em) {
			struct sb_found *f;
			xgrow(&em->found, &em->cap, em->nfound + 1, sizeof(*em->found));
			f = &em->found[em->nfound++];
			f->t = t;
			f->at = i;
			f->c = c;
		}
		ntables++;
		prev = t;
		i += len;
		end = i;
		len = 0;
		c.heading = NULL;
		c.kv_key = NULL;
		c.mode = NULL;
		budget = SB_GAP;
		lines_left = SB_COMMANDS + SB_GAP;
	}
}

/* ------------------------------------------------------------ emitting */

static const char *col_name(struct rec_batch *b, const char *s, size_t len)
{
	while (len && (s[len - 1] == ':' || s[len - 1] == ' '))
		len--;
	return arena_strndup(&b->arena, s, len);
}

static int item_value(const struct sb_item *it, enum sb_mark mark, double *mean, double *sd)
{
	if (read_number(it->s, it->len, mark, mean) < 0)
		return -1;
	*sd = NAN;
	if (it->sd) {
		double x;
		if (read_number(it->sd, it->sdlen, mark, &x) < 0)
			return -1;
		*sd = it->sd_rel ? *mean * x / 100.0 : x;
	}
	return 0;
}

struct sb_cell_cfg {
	long groups, loops;
	const char *test;
};

static void put_config(struct sb_emit *em, const struct sb_found *f, struct rec_run *r,
		       struct rec_summary *s, const struct sb_cell_cfg *cc, const char *label)
{
	struct rec_batch *b = em->out;
	const struct sb_cmd *cmd = &f->c.cmd;
	long groups = cc->groups >= 0 ? cc->groups : cmd->groups;
	long loops = cc->loops >= 0 ? cc->loops : cmd->loops;
	char buf[32];
	const char *kv[8][2];
	int nkv = 0, k;

	if (f->t.bench == SB_HACKBENCH) {
		if (loops < 0 && cmd->loops_num > 0 && groups > 0 && cmd->loops_num % groups == 0)
			loops = cmd->loops_num / groups;
		if (cmd->seen && cmd->loops_num == 0 && loops < 0)
			loops = 100;    /* hackbench's default -l (noted by the caller) */
		if (cmd->seen && groups < 0 && f->t.kind != T_TRANSPOSED)
			groups = 10;    /* and its default -g */
		if (groups >= 0) {
			snprintf(buf, sizeof(buf), "%ld", groups);
			kv[nkv][0] = "groups";
			kv[nkv++][1] = arena_strdup(&b->arena, buf);
		}
		if (loops >= 0) {
			snprintf(buf, sizeof(buf), "%ld", loops);
			kv[nkv][0] = "loops";
			kv[nkv++][1] = arena_strdup(&b->arena, buf);
		}
		if (cmd->datasize >= 0) {
			snprintf(buf, sizeof(buf), "%ld", cmd->datasize);
			kv[nkv][0] = "datasize";
			kv[nkv++][1] = arena_strdup(&b->arena, buf);
		}
		if (f->c.mode) {
			kv[nkv][0] = "mode";
			kv[nkv++][1] = f->c.mode;
		} else if (cmd->mode && !cmd->mode_differs) {
			kv[nkv][0] = "mode";
			kv[nkv++][1] = cmd->mode;
		}
		if (cmd->seen && cmd->ipc) {
			kv[nkv][0] = "ipc";
			kv[nkv++][1] = cmd->ipc;
		}
	}
	if (cc->test) {
		kv[nkv][0] = "test";
		kv[nkv++][1] = cc->test;
	}
	if (f->c.kv_key) {
		char *key = arena_strndup(&b->arena, f->c.kv_key, f->c.kv_keylen);
		for (k = 0; key[k]; k++)
			key[k] = (char)tolower((unsigned char)key[k]);
		kv[nkv][0] = key;
		kv[nkv++][1] = arena_strndup(&b->arena, f->c.kv_val, f->c.kv_vallen);
	}
	if (label) {
		kv[nkv][0] = "label";
		kv[nkv++][1] = label;
	}
	for (k = 0; k < nkv; k++) {
		if (r)
			rec_run_config(b, r, kv[k][0], kv[k][1]);
		if (s)
			rec_summary_config(b, s, kv[k][0], kv[k][1]);
	}
}

static void put_value(struct sb_emit *em, const struct sb_found *f, const char *variant,
		      const struct sb_cell_cfg *cc, double mean, double sd, int as_run,
		      int iteration, const char *label, long line)
{
	struct rec_batch *b = em->out;
	const char *bench = f->t.bench == SB_AUTONUMA ? "autonuma" : "hackbench";
	const char *metric = f->t.bench == SB_AUTONUMA ? "elapsed" : "time";

	if (as_run) {
		struct rec_run *r = rec_run_new(b, bench, line);
		rec_run_variant(b, r, variant, NULL, REC_ORIGIN_CONTENT);
		r->iteration = iteration;
		put_config(em, f, r, NULL, cc, label);
		rec_sample_add(b, r, metric, mean, "s", 0);
	} else {
		struct rec_summary *s = rec_summary_add(b, variant, bench, metric, "s", line);
		put_config(em, f, NULL, s, cc, label);
		s->mean = mean;
		s->sd = sd;
		s->n = f->c.count;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Do the rows of a table repeat a config (one run per row and column)? */
static int rows_repeat(struct sb_emit *em, const struct sb_found *f)
{
	const struct ingest_line *lines = em->lines + f->at;
	const char **keys;
	size_t i, nk = 0;
	int rep = 0;

	if (f->t.kind != T_ROWS)
		return 0;
	keys = xcalloc(f->t.end + 1, sizeof(*keys));
	for (i = f->t.first; i < f->t.end; i++) {
		struct sb_row row;
		int k;
		char *key;
		if (read_row(&lines[i], f->t.pipes, &row) < 0 || row.keylen == 0)
			continue;
		key = arena_strndup(&em->out->arena, row.key, row.keylen);
		for (k = 0; k < f->t.ncol && k < row.nit; k++)
			if (f->t.col[k].kind == COL_LOOPS || f->t.col[k].kind == COL_GROUPS)
				key = arena_printf(&em->out->arena, "%s\x1f%.*s", key,
						   (int)row.it[k].len, row.it[k].s);
		keys[nk++] = key;
	}
	qsort(keys, nk, sizeof(*keys), cmp_str);
	for (i = 1; i < nk && !rep; i++)
		rep = strcmp(keys[i - 1], keys[i]) == 0;
	free(keys);
	return rep;
}

static enum sb_mark table_mark(const struct ingest_line *lines, const struct sb_table *t)
{
	struct sb_marks m = { 0, 0, 0 };
	size_t i;
	int k;

	for (i = t->first; i < t->end; i++) {
		struct sb_row row;
		if (t->kind == T_PAIRS) {
			struct sb_item it[SB_MAXC];
			int ni;
			if (((i - t->first) & 1) == 0)
				continue;
			ni = scan_items(lines[i].s, lines[i].s + lines[i].len, it, SB_MAXC);
			for (k = 0; k < ni && k < SB_MAXC; k++)
				marks_add(&m, it[k].s, it[k].len);
			continue;
		}
		if (read_row(&lines[i], t->pipes, &row) < 0)
			continue;
		for (k = 0; k < row.nit; k++) {
			if (row.it[k].s)
				marks_add(&m, row.it[k].s, row.it[k].len);
			if (row.it[k].sd)
				marks_add(&m, row.it[k].sd, row.it[k].sdlen);
		}
	}
	return marks_decide(&m);
}

static void emit_describe(struct sb_emit *em, const struct sb_found *f, enum sb_mark mark,
			  const char *label)
{
	const struct ingest_line *lines = em->lines + f->at;
	double stat[SB_MAXC][4];      /* mean, sd, min, max */
	int k, have_mean = 0;
	size_t i;
	struct sb_cell_cfg cc = { -1, -1, NULL };

	for (k = 0; k < SB_MAXC; k++)
		stat[k][0] = stat[k][1] = stat[k][2] = stat[k][3] = NAN;
	for (i = f->t.first; i < f->t.end; i++) {
		struct sb_row row;
		const struct sb_item *cell[SB_MAXC];
		int which = -1;
		if (read_row(&lines[i], f->t.pipes, &row) < 0 || row_fit(&f->t, &row, cell) < 0)
			continue;
		if (ingest_word_eq(row.key, row.keylen, "mean") || ingest_word_eq(row.key, row.keylen, "avg") ||
		    ingest_word_eq(row.key, row.keylen, "average") || ingest_word_eq(row.key, row.keylen, "amean"))
			which = 0;
		else if (ingest_word_eq(row.key, row.keylen, "std") || ingest_word_eq(row.key, row.keylen, "stddev") ||
			 ingest_word_eq(row.key, row.keylen, "stdev") || ingest_word_eq(row.key, row.keylen, "sd"))
			which = 1;
		else if (ingest_word_eq(row.key, row.keylen, "min"))
			which = 2;
		else if (ingest_word_eq(row.key, row.keylen, "max"))
			which = 3;
		if (which < 0) {
			rec_note(em->out, lines[i].lineno, "sidebyside: row '%.*s' left out (a percentile "
				 "or count, not a summary field)", (int)row.keylen, row.key);
			continue;
		}
		have_mean |= which == 0;
		for (k = 0; k < f->t.ncol; k++) {
			double v, sd;
			if (!cell[k] || cell[k]->kind != IT_VALUE || f->t.col[k].kind != COL_VARIANT)
				continue;
			if (item_value(cell[k], mark, &v, &sd) == 0)
				stat[k][which] = v;
		}
	}
	if (!have_mean) {
		rec_note(em->out, lines[0].lineno, "sidebyside: table left out: no mean row");
		return;
	}
	for (k = 0; k < f->t.ncol; k++) {
		struct rec_summary *s;
		if (f->t.col[k].kind != COL_VARIANT || isnan(stat[k][0]))
			continue;
		s = rec_summary_add(em->out, col_name(em->out, f->t.col[k].name, f->t.col[k].len),
				    f->t.bench == SB_AUTONUMA ? "autonuma" : "hackbench",
				    f->t.bench == SB_AUTONUMA ? "elapsed" : "time", "s", lines[0].lineno);
		put_config(em, f, NULL, s, &cc, label);
		s->mean = stat[k][0];
		s->sd = stat[k][1];
		s->min = stat[k][2];
		s->max = stat[k][3];
		s->n = f->c.count;
	}
}

/* Is s[0..n) the name of one of the table's variant columns? */
static int names_column(const struct sb_table *t, const char *s, size_t n)
{
	int k;

	while (n && (s[n - 1] == ':' || s[n - 1] == ' '))
		n--;
	for (k = 0; k < t->ncol; k++) {
		size_t len = t->col[k].len;
		while (len && (t->col[k].name[len - 1] == ':' || t->col[k].name[len - 1] == ' '))
			len--;
		if (t->col[k].kind == COL_VARIANT && len == n && strncmp(t->col[k].name, s, n) == 0)
			return 1;
	}
	return 0;
}

/* "version1: v6.2" above a table with a column "version1": a legend
 * describing that variant, not a heading or a config of the table. */
static void table_legend(struct sb_emit *em, struct sb_found *f)
{
	size_t i = f->at > SB_PREAMBLE + 4 ? f->at - SB_PREAMBLE - 4 : 0;

	if (f->c.kv_key && names_column(&f->t, f->c.kv_key, f->c.kv_keylen))
		f->c.kv_key = NULL;
	if (f->c.heading) {
		const char *hs = skip_blanks(f->c.heading->s, f->c.heading->s + f->c.heading->len);
		const char *hc = memchr(hs, ':', (size_t)(f->c.heading->s + f->c.heading->len - hs));
		if (hc && names_column(&f->t, hs, (size_t)(hc - hs)))
			f->c.heading = NULL;
	}
	for (; i < f->at; i++) {
		const struct ingest_line *l = &em->lines[i];
		const char *p = skip_blanks(l->s, l->s + l->len), *end = l->s + l->len;
		const char *colon = memchr(p, ':', (size_t)(end - p)), *d;
		if (!colon || colon == p || colon - p > 40 || !names_column(&f->t, p, (size_t)(colon - p)))
			continue;
		d = skip_blanks(colon + 1, end);
		if (d >= end)
			continue;
		rec_variant_add(em->out, arena_strndup(&em->out->arena, p, (size_t)(colon - p)),
				arena_strndup(&em->out->arena, d, (size_t)(end - d)), NULL, l->lineno);
		rec_note(em->out, l->lineno, "sidebyside: a legend line: it describes the column "
			 "'%.*s' of the table below", (int)(colon - p), p);
	}
}

/* A table of kernbench's metrics as rows, one column per variant:
 *                Base    VMEMAP    % change (-ve good)
 *   User        85.07     84.84    -0.26
 * published means, n unknown; a Total row (User + System) left out. */
static void emit_kbrows(struct sb_emit *em, const struct sb_found *f, enum sb_mark mark,
			const char *label)
{
	const struct ingest_line *lines = em->lines + f->at;
	size_t i;
	int k;

	rec_note(em->out, lines[0].lineno, "sidebyside: kernbench's metrics as rows, one column "
		 "per variant (the text above names kernbench); cells read as published means (n "
		 "not stated)");
	for (i = f->t.first; i < f->t.end; i++) {
		struct sb_row row;
		const struct sb_item *cell[SB_MAXC];
		int m;
		if (read_row(&lines[i], 0, &row) < 0 || row_fit(&f->t, &row, cell) < 0)
			continue;
		m = kb_metric_key(row.key, row.keylen);
		if (m < 0)
			continue;
		if (m == KB_NMETRICS) {
			rec_note(em->out, lines[i].lineno, "sidebyside: the row '%.*s' is derived from "
				 "the rows above it: left out", (int)row.keylen, row.key);
			continue;
		}
		for (k = 0; k < f->t.ncol; k++) {
			struct rec_summary *s;
			double v, sd;
			if (!cell[k] || f->t.col[k].kind != COL_VARIANT || cell[k]->kind != IT_VALUE ||
			    item_value(cell[k], mark, &v, &sd) < 0)
				continue;
			s = rec_summary_add(em->out, col_name(em->out, f->t.col[k].name, f->t.col[k].len),
					    "kernbench", kb_metrics[m].metric, kb_metrics[m].unit,
					    lines[i].lineno);
			if (label)
				rec_summary_config(em->out, s, "label", label);
			s->mean = v;
			s->sd = sd;
			s->n = f->c.count;
		}
	}
}

static void emit_table(struct sb_emit *em, const struct sb_found *found, const char *label)
{
	struct sb_found copy = *found;
	const struct sb_found *f = &copy;
	const struct ingest_line *lines = em->lines + f->at;
	enum sb_mark mark = table_mark(lines, &f->t);
	int as_run, k;
	size_t i;

	if (f->t.kind == T_ROWS)
		table_legend(em, &copy);

	if (mark == MARK_AMBIGUOUS) {
		rec_note(em->out, lines[0].lineno, "sidebyside: table left out: its numbers read two "
			 "ways ('1,327' as 1327 or 1.327) and nothing in it says which");
		return;
	}
	if (f->t.bench == SB_HACKBENCH && f->c.cmd.seen && f->c.cmd.loops_num == 0 &&
	    f->c.cmd.loops < 0)
		rec_note(em->out, lines[0].lineno, "sidebyside: loops=100, groups=10 where the table "
			 "does not say: hackbench's defaults (no -l, -g on its command line)");
	if (f->c.dropped_cmd && !f->c.cmd.seen)
		rec_note(em->out, f->c.dropped_cmd->lineno, "sidebyside: this line names hackbench "
			 "anew, a paragraph below the last command: that command is not taken as the "
			 "config of the table below");
	if (f->t.kind == T_DESCRIBE) {
		emit_describe(em, f, mark, label);
		return;
	}
	if (f->t.kbrows) {
		emit_kbrows(em, f, mark, label);
		return;
	}
	if (f->t.continued)
		rec_note(em->out, lines[0].lineno, "sidebyside: a header of the row key alone: the "
			 "columns of the table above");
	as_run = f->t.runs || rows_repeat(em, f);
	rec_note(em->out, lines[0].lineno, "sidebyside: %s table, %s; cells read as %s",
		 f->t.bench == SB_AUTONUMA ? "autonuma" : "hackbench",
		 f->t.kind == T_TRANSPOSED ? "one row per variant, one column per groups" :
		 "one column per variant",
		 f->t.runs ? "one run each (the rows are numbered runs)" :
		 as_run ? "one run each (the rows repeat a config)" :
		 f->c.count ? "published means (n from the text)" : "published means (n not stated)");
	for (i = f->t.first; i < f->t.end; i++) {
		struct sb_row row;
		const struct sb_item *cell[SB_MAXC];
		struct sb_cell_cfg cc = { -1, -1, NULL };
		long g = -1;
		int iteration = 0;

		if (f->t.kind == T_PAIRS) {
			struct ingest_tok tok[1];
			struct sb_item it[SB_MAXC];
			int ni;
			if (((i - f->t.first) & 1) == 0)
				continue;
			ingest_split(lines[i - 1].s, lines[i - 1].len, tok, 1);
			cc.test = arena_strndup(&em->out->arena, tok[0].s, tok[0].len);
			ni = scan_items(lines[i].s, lines[i].s + lines[i].len, it, SB_MAXC);
			for (k = 0; k < ni && k < f->t.ncol; k++) {
				double v, sd;
				if (it[k].kind != IT_VALUE || item_value(&it[k], mark, &v, &sd) < 0)
					continue;
				put_value(em, f, col_name(em->out, f->t.col[k].name, f->t.col[k].len), &cc,
					  v, sd, 0, 0, label, lines[i].lineno);
			}
			continue;
		}
		if (change_row(&lines[i])) {
			rec_note(em->out, lines[i].lineno, "sidebyside: a row of changes, not a variant: "
				 "left out");
			continue;
		}
		if ((f->t.pipes && is_rule(&lines[i])) || read_row(&lines[i], f->t.pipes, &row) < 0 ||
		    row_fit(&f->t, &row, cell) < 0)
			continue;
		if (row.annot)
			rec_note(em->out, lines[i].lineno, "sidebyside: annotation '%.*s' after the values "
				 "dropped", (int)row.annotlen, row.annot);
		if (f->t.kind == T_ROWS && f->t.runs) {
			if (key_kind(&f->t, row.key, row.keylen, &g) != KEY_RUN) {
				rec_note(em->out, lines[i].lineno, "sidebyside: the row '%.*s' is a statistic "
					 "of the runs above it: left out (kbench computes its own)",
					 (int)row.keylen, row.key);
				continue;
			}
			iteration = (int)run_key(row.key, row.keylen);
		} else if (f->t.kind == T_ROWS) {
			if (key_kind(&f->t, row.key, row.keylen, &g) == KEY_TEST)
				cc.test = arena_strndup(&em->out->arena, row.key, row.keylen);
			else
				cc.groups = g;
		}
		for (k = 0; k < f->t.ncol; k++) {
			if (!cell[k])
				continue;
			if (f->t.col[k].kind == COL_LOOPS || f->t.col[k].kind == COL_GROUPS) {
				long x;
				if (cell[k]->kind == IT_VALUE && num_parse_long(cell[k]->s, cell[k]->len, &x) == 0) {
					if (f->t.col[k].kind == COL_LOOPS)
						cc.loops = x;
					else
						cc.groups = x;
				}
			}
		}
		for (k = 0; k < f->t.ncol; k++) {
			double v, sd;
			const char *variant;
			struct sb_cell_cfg c2 = cc;
			if (!cell[k] || f->t.col[k].kind == COL_LOOPS || f->t.col[k].kind == COL_GROUPS)
				continue;
			if (cell[k]->kind == IT_HOLE) {
				rec_note(em->out, lines[i].lineno, "sidebyside: a placeholder ('-') left out");
				continue;
			}
			if (item_value(cell[k], mark, &v, &sd) < 0) {
				rec_note(em->out, lines[i].lineno, "sidebyside: cell '%.*s' left out: not a number",
					 (int)cell[k]->len, cell[k]->s);
				continue;
			}
			if (f->t.kind == T_TRANSPOSED) {
				variant = col_name(em->out, row.key, row.keylen);
				c2.groups = f->t.col[k].cfg;
			} else {
				variant = col_name(em->out, f->t.col[k].name, f->t.col[k].len);
			}
			put_value(em, f, variant, &c2, v, sd, as_run, iteration, label, lines[i].lineno);
		}
	}
}

static void kb_emit_block(struct sb_emit *em, const struct ingest_line *lines, size_t first,
			  size_t end, const struct ingest_tok *names, int nnames, int nvalues)
{
	struct rx_cap cap[3];
	char load[16], jobs[24] = "";
	size_t i;
	long n = em->ctx->opts && em->ctx->opts->runs > 0 ? em->ctx->opts->runs : 0;

	if (nnames != nvalues) {
		rec_note(em->out, lines[first].lineno, "sidebyside: kernbench pasted %d times side by "
			 "side, but %s: which column is which variant cannot be told; left out", nvalues,
			 nnames ? "the names above it do not match its columns" : "nothing names its columns");
		return;
	}
	rx_match(&kb_heading_rx, lines[first].s, lines[first].len, cap, 3);
	switch (cap[1].s[0] | 0x20) {
	case 's': strcpy(load, "single"); break;
	case 'h': strcpy(load, "half"); break;
	case 'o': strcpy(load, "optimal"); break;
	case 'c': strcpy(load, "custom"); break;
	default: strcpy(load, "maximal"); break;
	}
	if (cap[2].s && cap[2].len < sizeof(jobs))
		snprintf(jobs, sizeof(jobs), "%.*s", (int)cap[2].len, cap[2].s);
	rec_note(em->out, lines[first].lineno, "sidebyside: kernbench pasted %d times side by side; "
		 "columns named by the line of names over them", nvalues);
	for (i = first + 1; i < end; i++) {
		struct sb_item it[SB_MAXC];
		const char *rest;
		int k = kb_row(&lines[i], &rest), ni, m, v = 0;
		if (k < 0 && kb_derived_row(&lines[i], nvalues)) {
			const char *w = skip_blanks(lines[i].s, lines[i].s + lines[i].len), *we = w;
			while (we < lines[i].s + lines[i].len && *we != ' ')
				we++;
			rec_note(em->out, lines[i].lineno, "sidebyside: the row '%.*s' is derived from "
				 "the rows above it (a bare number, no sd): left out", (int)(we - w), w);
		}
		if (k < 0)
			continue;
		ni = kb_row_items(&lines[i], it, SB_MAXC);
		for (m = 0; m < ni && m < SB_MAXC; m++) {
			struct rec_summary *s;
			double mean, sd;
			if (it[m].kind != IT_VALUE)
				continue;
			if (v >= nnames || item_value(&it[m], MARK_POINT, &mean, &sd) < 0) {
				v++;
				continue;
			}
			s = rec_summary_add(em->out, col_name(em->out, names[v].s, names[v].len),
					    "kernbench", kb_metrics[k].metric, kb_metrics[k].unit,
					    lines[i].lineno);
			rec_summary_config(em->out, s, "load", load);
			if (jobs[0])
				rec_summary_config(em->out, s, "jobs", jobs);
			s->mean = mean;
			s->sd = sd;
			s->n = n;
			v++;
		}
	}
}

/* The rows and columns of a table in one string: tables with the same
 * one under the same command fall together unless their headings part
 * them. */
static const char *table_signature(struct sb_emit *em, const struct sb_found *f)
{
	struct rec_batch *b = em->out;
	const char *sig = arena_printf(&b->arena, "%d\x1f%d\x1f%s\x1f%.*s=%.*s", (int)f->t.bench,
				       f->c.cmd_gen, f->c.mode ? f->c.mode : "", (int)f->c.kv_keylen,
				       f->c.kv_key ? f->c.kv_key : "", (int)f->c.kv_vallen,
				       f->c.kv_val ? f->c.kv_val : "");
	struct buf_like { char *s; size_t len, cap; } acc = { NULL, 0, 0 };
	int k;

	for (k = 0; k < f->t.ncol; k++) {
		arena_grow(&b->arena, &acc.s, &acc.cap, acc.len + f->t.col[k].len + 2, 1);
		memcpy(acc.s + acc.len, f->t.col[k].name, f->t.col[k].len);
		acc.len += f->t.col[k].len;
		acc.s[acc.len++] = '\x1f';
	}
	return arena_printf(&b->arena, "%s\x1f%.*s", sig, (int)acc.len, acc.s ? acc.s : "");
}

struct sb_sig {
	const char *sig;
	size_t k;
};

static int cmp_sig(const void *a, const void *b)
{
	const struct sb_sig *x = a, *y = b;
	int c = strcmp(x->sig, y->sig);
	return c ? c : (x->k < y->k ? -1 : x->k > y->k);
}

/* ------------------------------------------- kernbench in columns */

/*
 * Two or more kernbench outputs pasted in columns, each under its own
 * heading, on the same lines:
 *
 *   kernel: nikita-b2                 kernel: patch-2.6.10-rc2   <- names
 *   Host: stp8-002                    Host: stp8-003                (optional)
 *
 *   Average Optimal -j 32 Load Run:   Average Optimal -j 32 Load Run:
 *   Elapsed Time 130                  Elapsed Time 129.562
 *
 * A line of names over the columns names their variants ("kernel: X" is
 * X; a "Host:" line is the machine, noted and not stored).  Without one,
 * the columns are one variant (the segment's, as the importer decides),
 * which only holds when their headings differ (two loads of one kernel).
 */

/* The starts of the headings in a line that holds two or more of them. */
static int kb_multi_heading(const struct ingest_line *l, size_t *at, int max)
{
	const char *s = l->s;
	size_t i;
	int n = 0, k;

	if (!str_find(s, l->len, "verage"))
		return 0;
	for (i = 0; i + 7 <= l->len; i++) {
		if ((s[i] != 'A' && s[i] != 'a') || (i > 0 && s[i - 1] != ' ') ||
		    strncasecmp(s + i, "Average", 7) != 0)
			continue;
		if (n >= max)
			return 0;
		at[n++] = i;
	}
	if (n < 2)
		return 0;
	for (k = 0; k < n; k++) {
		size_t b = k + 1 < n ? at[k + 1] : l->len;
		struct rx_cap cap[3];
		if (rx_match(&kb_heading_rx, s + at[k], b - at[k], cap, 3) <= 0)
			return 0;
	}
	return n;
}

/* The load and -j of a heading s[0..len) (kb_heading_rx). */
static void kb_load(const char *s, size_t len, char *load, char *jobs, size_t jobsz)
{
	struct rx_cap cap[3];

	jobs[0] = '\0';
	strcpy(load, "maximal");
	if (rx_match(&kb_heading_rx, s, len, cap, 3) <= 0)
		return;
	switch (cap[1].s[0] | 0x20) {
	case 's': strcpy(load, "single"); break;
	case 'h': strcpy(load, "half"); break;
	case 'o': strcpy(load, "optimal"); break;
	case 'c': strcpy(load, "custom"); break;
	default: break;
	}
	if (cap[2].s && cap[2].len < jobsz)
		snprintf(jobs, jobsz, "%.*s", (int)cap[2].len, cap[2].s);
}

/* A row of ncol columns, "Elapsed Time 266.96    Elapsed Time 232.32":
 * the metric's index, and each column's text after its label; -1 when
 * the line is not one. */
static int kb_cols_row(const struct ingest_line *l, int ncol, struct ingest_tok *cell)
{
	const char *rest, *end = l->s + l->len, *p;
	int k = kb_row(l, &rest), c = 0;
	size_t w;

	if (k < 0)
		return -1;
	w = strlen(kb_metrics[k].label);
	p = rest;
	for (;;) {
		const char *next = str_find(p, (size_t)(end - p), kb_metrics[k].label);
		while (next && next[-1] != ' ')
			next = str_find(next + 1, (size_t)(end - next - 1), kb_metrics[k].label);
		if (c >= ncol)
			return -1;
		cell[c].s = p;
		cell[c].len = (size_t)((next ? next : end) - p);
		c++;
		if (!next)
			break;
		p = next + w;
	}
	return c == ncol ? k : -1;
}

/* One column's value: "266.96", "353.957 (0.43)", "232.32   ---(*1)"
 * (a footnote mark after it: *remark).  -1 when the cell holds no value
 * of its own, or a second number. */
static int kb_cols_cell(const struct ingest_tok *c, struct sb_item *it, struct ingest_tok *remark)
{
	const char *p = skip_blanks(c->s, c->s + c->len), *end = c->s + c->len, *ne;

	while (end > p && end[-1] == ' ')
		end--;
	memset(it, 0, sizeof(*it));
	remark->s = NULL;
	remark->len = 0;
	ne = scan_number(p, end);
	if (ne == p || (ne < end && *ne != ' '))
		return -1;
	it->kind = IT_VALUE;
	it->s = p;
	it->len = (size_t)(ne - p);
	p = skip_blanks(ne, end);
	if (p < end && *p == '(') {
		const char *pe = scan_paren(p, end, it);
		if (!pe)
			return -1;
		p = skip_blanks(pe, end);
	}
	if (p < end) {
		if (scan_number(p, end) != p)
			return -1;
		remark->s = p;
		remark->len = (size_t)(end - p);
	}
	return 0;
}

/* Do the names' tokens all start with key ("kernel:", "Host:")? */
static int names_keyed(const struct ingest_tok *t, int n, const char *key)
{
	size_t w = strlen(key);
	int k;

	for (k = 0; k < n; k++)
		if (t[k].len <= w || strncasecmp(t[k].s, key, w) != 0)
			return 0;
	return 1;
}

static void kb_cols_emit(struct sb_emit *em, const struct ingest_line *lines, size_t h, size_t end,
			 int ncol, const struct ingest_tok *names, int named)
{
	size_t at[SB_MAXC], i;
	char load[SB_MAXC][16], jobs[SB_MAXC][24];
	long n = em->ctx->opts && em->ctx->opts->runs > 0 ? em->ctx->opts->runs : em->ctx->runs_hint;
	int c, d;

	kb_multi_heading(&lines[h], at, SB_MAXC);
	for (c = 0; c < ncol; c++) {
		size_t b = c + 1 < ncol ? at[c + 1] : lines[h].len;
		kb_load(lines[h].s + at[c], b - at[c], load[c], jobs[c], sizeof(jobs[c]));
	}
	if (!named) {
		for (c = 0; c < ncol; c++)
			for (d = c + 1; d < ncol; d++)
				if (strcmp(load[c], load[d]) == 0 && strcmp(jobs[c], jobs[d]) == 0) {
					rec_note(em->out, lines[h].lineno, "sidebyside: kernbench pasted in %d "
						 "columns of the same load, and nothing names them: which column "
						 "is which variant cannot be told; left out", ncol);
					return;
				}
		rec_note(em->out, lines[h].lineno, "sidebyside: kernbench pasted in %d columns, one "
			 "load each, under no names: the columns are one variant", ncol);
	} else {
		rec_note(em->out, lines[h].lineno, "sidebyside: kernbench pasted in %d columns, each "
			 "under its own heading; columns named by the line of names over them", ncol);
	}
	for (i = h + 1; i < end; i++) {
		struct ingest_tok cell[SB_MAXC];
		int k = kb_cols_row(&lines[i], ncol, cell);
		if (k < 0)
			continue;
		for (c = 0; c < ncol; c++) {
			struct sb_item it;
			struct ingest_tok remark;
			struct rec_summary *s;
			double mean, sd;
			if (kb_cols_cell(&cell[c], &it, &remark) < 0 ||
			    item_value(&it, MARK_POINT, &mean, &sd) < 0)
				continue;
			if (remark.len)
				rec_note(em->out, lines[i].lineno, "sidebyside: '%.*s' after a value: the "
					 "author's mark, dropped", (int)remark.len, remark.s);
			s = rec_summary_add(em->out, named ? col_name(em->out, names[c].s, names[c].len) : NULL,
					    "kernbench", kb_metrics[k].metric, kb_metrics[k].unit,
					    lines[i].lineno);
			rec_summary_config(em->out, s, "load", load[c]);
			if (jobs[c][0])
				rec_summary_config(em->out, s, "jobs", jobs[c]);
			s->mean = mean;
			s->sd = sd;
			s->n = n;
		}
	}
}

/* Kernbench outputs in columns from lines[0]: a line of names, or the
 * headings.  Returns the lines taken. */
static size_t kb_cols_walk(const struct ingest_line *lines, size_t n, struct sb_emit *em)
{
	struct ingest_tok names[SB_MAXC + 1], tok[SB_MAXC + 1];
	size_t at[SB_MAXC], h, i, end = 0, nl = 0;
	int ncol, named = 0, blocks = 0;

	/* at most three lines of names, blanks, then the headings */
	for (h = 0; h < n && h < 6; h++) {
		if (ingest_line_blank(&lines[h])) {
			if (nl == 0)
				return 0;
			continue;
		}
		if (kb_multi_heading(&lines[h], at, SB_MAXC))
			break;
		if (++nl > 3 || kb_heading(&lines[h], NULL))
			return 0;
	}
	if (h >= n || h >= 6 || (ncol = kb_multi_heading(&lines[h], at, SB_MAXC)) == 0)
		return 0;
	for (i = 0; i < h; i++) {
		int nt;
		if (ingest_line_blank(&lines[i]))
			continue;
		nt = split_names(lines[i].s, lines[i].s + lines[i].len, 2, tok, SB_MAXC + 1);
		if (nt != ncol)
			return 0;       /* not names over these columns */
		if (names_keyed(tok, nt, "host:") || names_keyed(tok, nt, "machine:")) {
			if (em)
				rec_note(em->out, lines[i].lineno, "sidebyside: the machines of the "
					 "columns below, not stored");
			continue;
		}
		if (named)
			return 0;       /* two lines of names: which one names the variants? */
		memcpy(names, tok, sizeof(tok));
		named = 1;
	}
	if (named) {
		int c;
		for (c = 0; c < ncol; c++) {
			if (names_keyed(&names[c], 1, "kernel:")) {
				names[c].s += 7;
				names[c].len -= 7;
			}
			while (names[c].len && names[c].s[0] == ' ') {
				names[c].s++;
				names[c].len--;
			}
			while (names[c].len && names[c].s[names[c].len - 1] == ':')
				names[c].len--;
			if (!names[c].len)
				return 0;
		}
	}
	i = h;
	while (i < n && kb_multi_heading(&lines[i], at, SB_MAXC) == ncol) {
		size_t j;
		int rows = 0;
		for (j = i + 1; j < n; j++) {
			struct ingest_tok cell[SB_MAXC], remark;
			struct sb_item it;
			int c;
			if (kb_cols_row(&lines[j], ncol, cell) < 0)
				break;
			for (c = 0; c < ncol; c++)
				if (kb_cols_cell(&cell[c], &it, &remark) < 0)
					break;
			if (c < ncol)
				break;
			rows++;
		}
		if (!rows)
			break;
		if (em)
			kb_cols_emit(em, lines, i, j, ncol, names, named);
		blocks++;
		end = j;
		i = ingest_skip_blank(lines, j, n);
	}
	return blocks ? end : 0;
}

/* ------------------------------------------------------------ the parser */

static size_t sidebyside_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			       size_t n, int *score)
{
	size_t len;

	(void)opts;
	*score = 0;
	len = walk(lines, n, NULL);
	if (len)
		*score = 92;
	return len;
}

static int sidebyside_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			    size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct sb_emit em;
	struct sb_sig *sigs;
	const char **label;
	size_t k, a, e;

	(void)err;
	memset(&em, 0, sizeof(em));
	em.ctx = ctx;
	em.lines = lines;
	em.out = out;
	if (kb_walk(lines, n, &em) > 0 || kb_cols_walk(lines, n, &em) > 0)
		return 0;
	walk(lines, n, &em);
	sigs = xcalloc(em.nfound + 1, sizeof(*sigs));
	label = xcalloc(em.nfound + 1, sizeof(*label));
	for (k = 0; k < em.nfound; k++) {
		sigs[k].sig = table_signature(&em, &em.found[k]);
		sigs[k].k = k;
	}
	qsort(sigs, em.nfound, sizeof(*sigs), cmp_sig);
	for (a = 0; a < em.nfound; a = e) {
		for (e = a + 1; e < em.nfound && strcmp(sigs[e].sig, sigs[a].sig) == 0; e++)
			;
		for (k = a; e - a > 1 && k < e; k++) {
			const struct sb_found *f = &em.found[sigs[k].k];
			if (f->c.heading) {
				const struct ingest_line *h = f->c.heading;
				const char *p = skip_blanks(h->s, h->s + h->len);
				label[sigs[k].k] = col_name(out, p, (size_t)(h->s + h->len - p));
				rec_note(out, h->lineno, "sidebyside: the table under this heading has the "
					 "same rows as another: its heading keeps it apart (label=)");
			} else {
				rec_note(out, lines[f->at].lineno, "sidebyside: this table has the same rows "
					 "as another and no heading of its own");
			}
		}
	}
	for (k = 0; k < em.nfound; k++)
		emit_table(&em, &em.found[k], label[k]);
	free(sigs);
	free(label);
	free(em.found);
	return 0;
}

const struct ingest_parser sidebyside_parser = {
	"sidebyside", "tables with one column per variant, and outputs pasted side by side",
	sidebyside_claim, sidebyside_parse,
};
