/*
 * mmtestscmp.c - mmtests compare-kernels tables, as people paste them in
 * mails (compare-kernels.sh / compare-mmtests.pl output).
 *
 *   hackbench-process-pipes                                  <- title: benchmark
 *                             5.13.0-rc2             5.13.0-rc2   <- names, split
 *                                vanilla     sched-avgidle-v1r5      at the first '-'
 *   Amean     1        0.3950 (   0.00%)      0.3887 (   1.60%)
 *   Amean     12       2.3507 (   0.00%)      2.3360 *   0.62%*   <- '*': significant
 *   Stddev    1        0.0052 (   0.00%)      0.0025 (  51.57%)
 *   BAmean-99 1        0.3950 (   0.00%)      0.3887 (   1.60%)
 *
 *   Duration User        5702.00    10264.25                 <- no % column
 *   Ops NUMA hint faults  215654.00  1797848.00              <- vmstat totals
 *
 * Decisions:
 *  - The variants are the kernel columns.  With two header lines the name
 *    is mmtests' own run name, "<top>-<bottom>" (compare-mmtests.pl cuts
 *    the run name at its first '-', after a -rcN); with one line, the name
 *    as printed.  Names too long for their field run into each other
 *    ("vanillasched-scalewakegran-v1r4"): they are cut where the column
 *    above (the first header line) or the values below end, since mmtests
 *    right-aligns a name over its column.
 *  - The benchmark comes from the nearest line above the table naming an
 *    mmtests benchmark ("hackbench-process-pipes", "tbench4 Latency",
 *    "multi subtest kernbench", a sentence "This tbench result ..."), or
 *    from the table before it in the same run of tables.  A table with no
 *    such line, or under a line naming two, is refused: never a guess.
 *  - hackbench-<process|thread>-<pipes|sockets> gives benchmark hackbench,
 *    mode, ipc and groups=<param>, the names of the mmtests result-tree
 *    importer (layout.c).  kernbench's "elsp-256" is metric elapsed at
 *    jobs=256 (also user-, syst-); autonumabench's "syst-NUMA01" metric
 *    system at test=NUMA01.  tbench/dbench's param is clients, netperf's
 *    the message size, sysbench's clients, pgbench's clients (metric
 *    tps); otherwise param=<as printed>.
 *  - A reply that comments inside the table it quotes (the header, the
 *    reply's own lines at a shallower quote depth, then the rows) is read
 *    as the quoted table: at most MM_REPLY such lines, each time noted.
 *  - One published summary per (param, kernel): mean from Amean, else
 *    Hmean, else Gmean; sd from Stddev (HStddev); min, max from Min, Max;
 *    every other row (CoeffVar, BAmean-99, the other means ...) is kept as
 *    a statistic of the summary under its printed name.  n is unknown
 *    unless the post states it (ctx->runs_hint).
 *  - Direction: mmtests summarises a lower-is-better metric by its
 *    arithmetic mean (Amean) and a higher-is-better one by its harmonic
 *    mean (Hmean) (Summarise.pm getStatName), so the table says which.
 *  - The % column is mmtests' "gain": pndiff = 100 - new * 100 / base where
 *    lower is better, pdiff = new * 100 / base - 100 where higher is
 *    (Stat.pm): positive is better either way.  The mean row's % is kept
 *    as printed in pub_change of each candidate column (the first column,
 *    "(   0.00%)", is the table's baseline and has none), its '*' (the
 *    row printed " *%7.2f%%*", Compare.pm :SIG:) in pub_mark.
 *  - "Duration User/System/Elapsed" rows are summaries of duration_user,
 *    duration_sys and duration_elapsed (s); "Ops <name>" rows of vmstat
 *    monitor metrics ("NUMA hint faults" -> numa_hint_faults), direction
 *    none.  They take the benchmark and config (without the param) of the
 *    table above them.
 *  - Old autonumabench tables (2012-2014, before mmtests printed
 *    statistics) name the metric first and the test second: "User
 *    NUMA01  32806.01 (  0.00%)  20250.67 ( 38.27%)" is the mean of each
 *    kernel, read as the newer "user-NUMA01" (User, System, Elapsed; CPU
 *    is metric cpu in %).  Only a test named NUMA0<digit>, and only under
 *    an autonumabench title: the same words under another benchmark are
 *    refused ("User min" of old kernbench tables is no such row).  Below
 *    such a table, after a paragraph of the author's (at most MM_BETWEEN
 *    lines, no label), its totals ("User  61493.38  47615.01", Duration
 *    rows without the word) and vmstat rows ("NUMA hint faults  1538964
 *    1242142", Ops rows without the word) are read; never without it.
 *  - A "(SNC on)" line inside a table, or a line between two tables that
 *    names no benchmark ("2-socket CascadeLake"), is the config label=
 *    of the table below it: the same kernels measured twice.
 */
#include "parsers.h"
#include "../core/hidx.h"
#include "../core/num.h"
#include "../core/util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	MM_MAXC = 16,           /* kernel columns */
	MM_LEAD = 8,            /* lines between a benchmark line and its table */
	MM_HDR = 3,             /* header and label lines above the first row */
	MM_BETWEEN = 4,         /* title/label lines between two tables of a run */
	MM_REPLY = 12,          /* a reply's lines inside the table it quotes */
	MM_MWORDS = 8,          /* metric words of one table's params */
};

/* ---------------------------------------------------------------- rows */

enum mm_kind { ROW_NONE = 0, ROW_STAT, ROW_DURATION, ROW_OPS };

struct mm_cell {
	double v;               /* NAN for "nan" */
	double pct;             /* NAN when none printed */
	int sig;                /* printed "*...%*" */
	size_t end;             /* offset just past the cell in the line */
};

struct mm_row {
	enum mm_kind kind;
	const char *stat;       /* ROW_STAT: "Amean", "BAmean-99" ... */
	size_t statlen;
	const char *param;      /* the param, the Duration word, or the Ops label */
	size_t paramlen;
	const char *old_prefix; /* an old autonumabench row's metric: "user" ... */
	size_t ncells;          /* cells read (at most MM_MAXC kept) */
	struct mm_cell cell[MM_MAXC];
};

static const char *skip_sp(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

static const char *tok_end(const char *p, const char *end)
{
	while (p < end && *p != ' ')
		p++;
	return p;
}

/* A printed value: a number, or mmtests' nan / -nan / inf.  Returns its
 * end, or p when none starts there. */
static const char *scan_value(const char *p, const char *end, double *v)
{
	const char *q = p, *e;

	if (q < end && (*q == '-' || *q == '+'))
		q++;
	if (end - q >= 3 && (strncasecmp(q, "nan", 3) == 0 || strncasecmp(q, "inf", 3) == 0)) {
		*v = NAN;
		return q + 3;
	}
	e = p;
	while (e < end && (isdigit((unsigned char)*e) || *e == '.' || *e == '-' || *e == '+' ||
			   *e == 'e' || *e == 'E'))
		e++;
	if (e == p || num_parse(p, (size_t)(e - p), v) < 0)
		return p;
	return e;
}

static int stat_known(const char *s, size_t len)
{
	static const char *const base[] = {
		"Amean", "Hmean", "Gmean", "Stddev", "HStddev", "CoeffVar", "HCoeffVar",
		"Min", "Max", "BAmean", "BHmean", "Pctile", "SubAmean", "SubHmean",
		"AmeanCI", "HmeanCI",
	};
	size_t k, bl;

	for (k = 0; k < sizeof(base) / sizeof(base[0]); k++) {
		bl = strlen(base[k]);
		if (len < bl || strncmp(s, base[k], bl) != 0)
			continue;
		if (len == bl)
			return 1;
		/* "BAmean-99", "BAmean.99", "Max-90", "Pctile.99.9" */
		if ((s[bl] == '-' || s[bl] == '.') && len > bl + 1 &&
		    strspn(s + bl + 1, "0123456789.") >= len - bl - 1)
			return 1;
	}
	return 0;
}

/* One "value ( pct%)" or "value * pct%*" cell at p. */
static const char *scan_cell(const char *p, const char *end, struct mm_cell *c)
{
	const char *q;
	char open;

	q = scan_value(p, end, &c->v);
	if (q == p)
		return NULL;
	q = skip_sp(q, end);
	if (q >= end || (*q != '(' && *q != '*'))
		return NULL;
	open = *q++;
	q = skip_sp(q, end);
	p = q;
	q = scan_value(p, end, &c->pct);
	if (q == p || q >= end || *q != '%')
		return NULL;
	q = skip_sp(q + 1, end);
	if (q >= end || *q != (open == '(' ? ')' : '*'))
		return NULL;
	c->sig = open == '*';
	c->end = 0;             /* the caller knows the line's start */
	return q + 1;
}

/* Trailing plain numbers of s[0..len) (Duration and Ops rows): how many,
 * the first one's start in *first.  Cells are filled right to left. */
static size_t trailing_numbers(const char *s, const char *end, struct mm_row *r,
			       const char **first)
{
	const char *p = end;
	size_t n = 0, k;
	struct mm_cell tmp[MM_MAXC + 1];

	*first = end;
	for (;;) {
		const char *te, *ts;
		double v;

		while (p > s && p[-1] == ' ')
			p--;
		te = p;
		while (p > s && p[-1] != ' ')
			p--;
		ts = p;
		if (ts == te || scan_value(ts, te, &v) != te)
			break;
		if (n < MM_MAXC + 1) {
			tmp[n].v = v;
			tmp[n].pct = NAN;
			tmp[n].sig = 0;
			tmp[n].end = (size_t)(te - s);
		}
		n++;
		*first = ts;
		if (p == s)
			break;
	}
	r->ncells = n;
	for (k = 0; k < n && k < MM_MAXC; k++)
		r->cell[k] = tmp[n - 1 - k];
	return n;
}

/*
 * The first word of an old (2012-2014) compare-kernels autonumabench row,
 * before mmtests printed statistics: "User", "System", "Elapsed" or "CPU"
 * and then the test ("NUMA01").  Its metric as the param prefix of the
 * newer tables ("syst-NUMA01"), or NULL.
 */
static const char *old_metric(const char *w, size_t len)
{
	if (len == 4 && strncmp(w, "User", 4) == 0)
		return "user";
	if (len == 6 && strncmp(w, "System", 6) == 0)
		return "syst";
	if (len == 7 && strncmp(w, "Elapsed", 7) == 0)
		return "elsp";
	if (len == 3 && strncmp(w, "CPU", 3) == 0)
		return "cpu";
	return NULL;
}

/* Read line l as a row of a compare-kernels table; ROW_NONE when it is not
 * one.  old_ok: the run of tables has an old autonumabench table, whose
 * totals rows lack the word "Duration" and its vmstat rows the word "Ops"
 * ("User  61493.38  47615.01", "NUMA hint faults  1538964  1242142"). */
static enum mm_kind row_read_old(const struct ingest_line *l, struct mm_row *r, int old_ok)
{
	const char *s = l->s, *end = s + l->len, *p, *w, *we, *first;

	memset(r, 0, sizeof(*r));
	p = skip_sp(s, end);
	if (p != s || p >= end)
		return ROW_NONE;        /* rows start at the margin */
	w = p;
	we = tok_end(w, end);
	if ((size_t)(we - w) == 8 && strncmp(w, "Duration", 8) == 0) {
		p = skip_sp(we, end);
		r->param = p;
		r->paramlen = (size_t)(tok_end(p, end) - p);
		if (!((r->paramlen == 4 && strncmp(p, "User", 4) == 0) ||
		      (r->paramlen == 6 && strncmp(p, "System", 6) == 0) ||
		      (r->paramlen == 7 && strncmp(p, "Elapsed", 7) == 0)))
			return ROW_NONE;
		if (trailing_numbers(p + r->paramlen, end, r, &first) == 0 ||
		    skip_sp(p + r->paramlen, end) != first)
			return ROW_NONE;
		return r->kind = ROW_DURATION;
	}
	if ((size_t)(we - w) == 3 && strncmp(w, "Ops", 3) == 0) {
		p = skip_sp(we, end);
		if (trailing_numbers(p, end, r, &first) == 0 || first == p)
			return ROW_NONE;
		r->param = p;
		r->paramlen = str_rtrim_len(p, (size_t)(first - p));
		return r->kind = ROW_OPS;
	}
	if (!stat_known(w, (size_t)(we - w))) {
		r->old_prefix = old_metric(w, (size_t)(we - w));
		if (old_ok && isalpha((unsigned char)*w) &&
		    trailing_numbers(w, end, r, &first) > 0 && first > we) {
			r->old_prefix = NULL;
			r->param = w;
			r->paramlen = str_rtrim_len(w, (size_t)(first - w));
			if (first == skip_sp(we, end) && (size_t)(we - w) < 8 &&
			    old_metric(w, (size_t)(we - w)) && strncmp(w, "CPU", 3) != 0)
				return r->kind = ROW_DURATION;  /* "User  61493.38 ..." */
			return r->kind = ROW_OPS;       /* "NUMA alloc hit  4739774 ..." */
		}
		if (!r->old_prefix)
			return ROW_NONE;
		/* "User    NUMA01   32806.01 (  0.00%) ...": the mean of each
		 * kernel, under the metric the first word names */
		p = skip_sp(we, end);
		r->param = p;
		r->paramlen = (size_t)(tok_end(p, end) - p);
		if (r->paramlen < 6 || strncasecmp(p, "NUMA0", 5) != 0 ||
		    !isdigit((unsigned char)p[5]))
			return ROW_NONE;
		r->stat = "Amean";
		r->statlen = 5;
		p += r->paramlen;
		goto cells;
	}
	r->stat = w;
	r->statlen = (size_t)(we - w);
	p = skip_sp(we, end);
	r->param = p;
	r->paramlen = (size_t)(tok_end(p, end) - p);
	{
		/* a table without a param column: the token is the first value */
		struct mm_cell c;
		if (scan_cell(p, end, &c)) {
			r->paramlen = 0;
		} else {
			p += r->paramlen;
		}
	}
	if (r->paramlen == 0 && r->param >= end)
		return ROW_NONE;
cells:
	for (;;) {
		struct mm_cell c;
		const char *q;

		p = skip_sp(p, end);
		if (p >= end)
			break;
		q = scan_cell(p, end, &c);
		if (!q)
			return ROW_NONE;
		c.end = (size_t)(q - s);
		if (r->ncells < MM_MAXC)
			r->cell[r->ncells] = c;
		r->ncells++;
		p = q;
	}
	if (r->ncells == 0 || r->ncells > MM_MAXC)
		return ROW_NONE;
	return r->kind = ROW_STAT;
}

static int line_is_row_old(const struct ingest_line *l, int old_ok)
{
	struct mm_row r;

	return row_read_old(l, &r, old_ok) != ROW_NONE;
}

static int line_is_row(const struct ingest_line *l)
{
	return line_is_row_old(l, 0);
}

/* A "(SNC on)" line: a label of the rows below. */
static int line_is_label(const struct ingest_line *l, const char **s, size_t *len)
{
	const char *p = skip_sp(l->s, l->s + l->len);
	size_t n = str_rtrim_len(p, (size_t)(l->s + l->len - p));

	if (n < 3 || p[0] != '(' || p[n - 1] != ')' || memchr(p + 1, '(', n - 2))
		return 0;
	if (s) {
		*s = p + 1;
		*len = n - 2;
	}
	return 1;
}

/* A run of '=' or '-' (an underline), alone or before the names
 * ("==========  base   patched"): its length, 0 when none. */
static size_t underline_len(const struct ingest_line *l)
{
	size_t n = strspn(l->s, "=");

	if (n < 3)
		n = strspn(l->s, "-");
	return n >= 3 ? n : 0;
}

static int line_is_underline(const struct ingest_line *l)
{
	size_t n = underline_len(l);

	return n && skip_sp(l->s + n, l->s + l->len) == l->s + l->len;
}

/* A reply's own words inside the quoted table it answers: the header
 * and rows at quote depth d, then up to MM_REPLY lines (blank or not) at
 * a shallower depth, then the table goes on.  Returns how many such
 * lines start at lines[k] (0 when lines[k] is the table's own). */
static size_t reply_lines(const struct ingest_line *lines, size_t k, size_t n, int d)
{
	size_t e = k;

	while (e < n && e < k + MM_REPLY && lines[e].quote < d)
		e++;
	return e > k && e < n && lines[e].quote >= d ? e - k : 0;
}

/* A header line: kernel names right-aligned, so indented (or after an
 * underline), and not a row. */
static int line_bench(const struct ingest_line *l, char *buf, size_t cap, size_t *base);

static int line_is_header_read(const struct ingest_line *l);

/* Remembered per line: the claim asks it of every line ahead. */
static int line_is_header(const struct ingest_line *l)
{
	int v = ingest_memo_get(l, MEMO_MM_HEADER);

	if (v < 0)
		ingest_memo_put(l, MEMO_MM_HEADER, v = line_is_header_read(l) ? 1 : 0);
	return v;
}

static int line_is_header_read(const struct ingest_line *l)
{
	size_t u = underline_len(l), base;
	const char *p = l->s + u, *end = l->s + l->len;
	char word[64];

	if (u == 0 && (l->len < 2 || l->s[0] != ' ' || l->s[1] != ' ')) {
		/* mail quoting takes the indent away: a quoted line may be a
		 * header, unless it names a benchmark (a title) */
		if (l->quote == 0 || l->len == 0 || line_bench(l, word, sizeof(word), &base))
			return 0;
	}
	if (u && (p >= end || *p != ' '))
		return 0;
	p = skip_sp(p, end);
	return p < end && !line_is_label(l, NULL, NULL);
}

/* ------------------------------------------------------ header names */

struct mm_name {
	size_t s, e;            /* [s, e) in the line */
};

/* Split the header line into names: at runs of two or more blanks, else
 * at single blanks, else (names run together) at the column ends cut[]
 * that fall inside a name.  Returns how many names (at most max stored). */
static size_t split_names(const struct ingest_line *l, size_t want, const size_t *cut,
			  size_t ncut, struct mm_name *out, size_t max, int *glued)
{
	const char *s = l->s;
	size_t len = l->len, i, n, u = underline_len(l), pass;

	*glued = 0;
	for (pass = 0; pass < 3; pass++) {
		n = 0;
		i = u;
		while (i < len) {
			size_t st, k;
			while (i < len && s[i] == ' ')
				i++;
			if (i >= len)
				break;
			st = i;
			for (;;) {
				while (i < len && s[i] != ' ')
					i++;
				/* pass 0: one blank inside a name is part of it */
				if (pass == 0 && i + 1 < len && s[i] == ' ' && s[i + 1] != ' ' &&
				    s[i + 1] != '%')
					i++;
				else
					break;
			}
			if (s[st] == '%')
				continue;       /* "%gain": a heading of the % columns */
			if (pass == 2) {
				/* names run together: a name covers the column ends
				 * inside it (right-aligned names end on theirs; one
				 * too long for its field runs past it), so a token
				 * over m ends is m names, cut at the first m - 1 */
				size_t m = 0, from = st, made = 0;
				for (k = 0; k < ncut; k++)
					if (cut[k] > st && cut[k] <= i + 1)
						m++;
				for (k = 0; k < ncut && made + 1 < m; k++)
					if (cut[k] > from && cut[k] < i) {
						if (n < max) {
							out[n].s = from;
							out[n].e = cut[k];
						}
						n++;
						made++;
						from = cut[k];
					}
				st = from;
			}
			if (n < max) {
				out[n].s = st;
				out[n].e = i;
			}
			n++;
		}
		if (n == want) {
			*glued = pass == 2;
			return n;
		}
	}
	return n;
}

/* ------------------------------------------------------- benchmarks */

/* The mmtests benchmarks a title may name (shellpack_src/src, and the
 * names of their configs). */
static const char *const mm_benchmarks[] = {
	"hackbench", "tbench4", "tbench", "dbench4", "dbench", "netperf", "schbench",
	"sysbench", "sysbenchcpu", "sysbenchmutex", "kernbench", "autonumabench", "pgbench",
	"specjbb2015", "specjbb2005", "specjbb", "stream", "ebizzy", "gitcheckout", "gitsource",
	"will-it-scale", "wis", "redis", "xfsrepair", "fio", "stressng", "perfpipe", "perfnuma",
	"futexbench", "nas", "usemem", "pistress", "cyclictest", "aim9", "sembench",
	"thpchallenge", "thpscale", "pft", "pagealloc", "simoop", "mutilate", "iperf3",
	"unixbench", "coremark", "xsbench", "blogbench", "fsmark", "bonnie", "sqlite",
	"stutterp", "sysjitter", "poundsyscall", "saladfork", "libmicro", "mmtests",
};

static int name_char(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == '.' || c == '+';
}

/* The benchmark word of line l: the mmtests name a word starts with,
 * followed by nothing or '-' ("hackbench-process-pipes", "netperf-udp").
 * Sets *word to the whole word (lowercased copy in buf).  Returns 1 for
 * one benchmark, 2 when the line names two different ones, 0 for none. */
static int line_bench(const struct ingest_line *l, char *buf, size_t cap, size_t *base)
{
	const char *s = l->s;
	size_t len = l->len, i = 0, k;
	int found = 0;
	char first[64] = "";
	const char *cfg = str_find(s, len, " -- mmtests config ");

	/* "hackbench-process-pipes -- mmtests config config-scheduler-unbound":
	 * what follows is the name of the mmtests config file, no benchmark */
	if (cfg)
		len = (size_t)(cfg - s);

	while (i < len) {
		size_t st, wl;
		while (i < len && !isalnum((unsigned char)s[i]))
			i++;
		st = i;
		while (i < len && name_char((unsigned char)s[i]))
			i++;
		wl = i - st;
		while (wl && (s[st + wl - 1] == '.' || s[st + wl - 1] == '-'))
			wl--;
		if (wl == 0)
			continue;
		if (st > 0 && (s[st - 1] == '/' || s[st - 1] == '='))
			continue;       /* a path or an option value: config-..., a=b */
		/* every name starts with a letter: most words of a line of
		 * numbers stop here, before any comparison of names */
		if (!isalpha((unsigned char)s[st]))
			continue;
		for (k = 0; k < sizeof(mm_benchmarks) / sizeof(mm_benchmarks[0]); k++) {
			size_t bl;
			if (tolower((unsigned char)s[st]) != mm_benchmarks[k][0])
				continue;       /* the names are lowercase */
			bl = strlen(mm_benchmarks[k]);
			if (wl < bl || strncasecmp(s + st, mm_benchmarks[k], bl) != 0)
				continue;
			if (wl > bl && s[st + bl] != '-')
				continue;
			if (wl >= cap || wl >= sizeof(first))
				break;
			if (found && strncasecmp(first, mm_benchmarks[k], strlen(first)) != 0 &&
			    strncasecmp(mm_benchmarks[k], first, strlen(mm_benchmarks[k])) != 0)
				return 2;
			if (!found) {
				size_t j;
				for (j = 0; j < wl; j++)
					buf[j] = (char)tolower((unsigned char)s[st + j]);
				buf[wl] = '\0';
				*base = bl;
				snprintf(first, sizeof(first), "%s", mm_benchmarks[k]);
			}
			found = 1;
			break;
		}
	}
	return found;
}

/* ------------------------------------------------------------- claim */

/*
 * Split the header lines hl[0..nh) (one or two) above row r into r's
 * column count of names each (nm[h][k]).  The first of two lines says
 * where the columns end (names are right-aligned over them); a lone line
 * takes the row's cell ends, shifted by as much as its last name (which
 * runs into nothing) ends past the last cell.  Returns 0, or -1 with
 * *bad the line that does not split.  *glued: some name was cut.
 */
static int header_names(const struct ingest_line *const *hl, size_t nh, const struct mm_row *r,
			struct mm_name nm[2][MM_MAXC], size_t *bad, int *glued)
{
	size_t colend[MM_MAXC], cut[MM_MAXC], k, h, nc = r->ncells;
	long shift[2];
	int g;

	*glued = 0;
	if (nc == 0 || nc > MM_MAXC || nh == 0 || nh > 2)
		return -1;
	/* Each line's offset from the rows: its last name ends over the last
	 * column (mail quoting may have taken a header's indent away). */
	for (h = 0; h < nh; h++)
		shift[h] = (long)r->cell[nc - 1].end - (long)str_rtrim_len(hl[h]->s, hl[h]->len);
	/* two lines printed together share their indent (a name run long
	 * pushes the bottom line's last one out: the top's does not move) */
	if (nh == 2 && hl[0]->s[0] == ' ' && hl[1]->s[0] == ' ')
		shift[1] = shift[0];
	for (k = 0; k < nc; k++)
		colend[k] = r->cell[k].end;
	for (h = 0; h < nh; h++) {
		for (k = 0; k < nc; k++) {
			long c = (long)colend[k] - shift[h];
			cut[k] = c > 0 ? (size_t)c : 0;
		}
		/* a quoted line without its indent: names by blanks only */
		if (split_names(hl[h], nc, cut, hl[h]->s[0] == ' ' || underline_len(hl[h]) ? nc : 0,
				nm[h], MM_MAXC, &g) != nc) {
			*bad = h;
			return -1;
		}
		*glued |= g;
		if (h == 0 && nh == 2)  /* the top line says where the columns end */
			for (k = 0; k < nc; k++)
				colend[k] = (size_t)((long)nm[0][k].e + shift[0]);
	}
	return 0;
}

/*
 * Does a table start at lines[j]: header lines (one or two, with label
 * lines), then a row whose column count the header splits into?  Sets
 * *row to the first row's index.
 */
static int table_starts_old(const struct ingest_line *lines, size_t j, size_t n, size_t *row,
			    int old_ok)
{
	size_t k, nh = 0, bad;
	const struct ingest_line *hl[2];
	struct mm_name nm[2][MM_MAXC];
	struct mm_row r;
	int glued;

	size_t skipped = 0, re;

	for (k = j; k < n && k < j + skipped + MM_HDR + 1; k++) {
		/* a reply's comment between the quoted header and its rows */
		if (nh && (re = reply_lines(lines, k, n, hl[0]->quote)) > 0 && !skipped) {
			skipped = re;
			k += re - 1;
			continue;
		}
		if (row_read_old(&lines[k], &r, old_ok) != ROW_NONE)
			break;
		if (line_is_label(&lines[k], NULL, NULL))
			continue;
		if (!line_is_header(&lines[k]) || nh == 2)
			return 0;
		hl[nh++] = &lines[k];
	}
	if (k >= n || k >= j + skipped + MM_HDR + 1 || nh == 0)
		return 0;
	if (lines[k].quote != hl[0]->quote)
		return 0;
	if (header_names(hl, nh, &r, nm, &bad, &glued) < 0)
		return 0;
	*row = k;
	return 1;
}

static int table_starts(const struct ingest_line *lines, size_t j, size_t n, size_t *row)
{
	return table_starts_old(lines, j, n, row, 0);
}

/* The end of the run of tables whose rows start at lines[r].  After an old
 * autonumabench table (old: its rows are read so) the totals and vmstat
 * tables below it may follow a paragraph of the author's (up to
 * MM_BETWEEN lines, then blank lines). */
static size_t tables_end(const struct ingest_line *lines, size_t r, size_t n)
{
	size_t i = r, last = r;
	int old = 0;

	while (i < n) {
		size_t k, between = 0, row;
		struct mm_row rr;

		if (row_read_old(&lines[i], &rr, old) != ROW_NONE) {
			old |= rr.old_prefix != NULL;
			last = ++i;
			continue;
		}
		/* a reply's comment between quoted rows, then more rows */
		if ((k = reply_lines(lines, i, n, lines[last - 1].quote)) > 0 &&
		    line_is_row_old(&lines[i + k], old)) {
			i += k;
			continue;
		}
		/* blank lines, a few title or label lines, then more of it */
		k = i;
		while (k < n && k < i + 3 && ingest_line_blank(&lines[k]))
			k++;
		if (k < n && line_is_row_old(&lines[k], old)) {
			i = k;
			continue;
		}
		if (k + 1 < n && line_is_label(&lines[k], NULL, NULL) &&
		    line_is_row_old(&lines[k + 1], old)) {
			i = k + 1;
			continue;
		}
		while (k < n && between < MM_BETWEEN && !ingest_line_blank(&lines[k]) &&
		       !line_is_header(&lines[k]) && !line_is_row_old(&lines[k], old)) {
			k++;
			between++;
		}
		if (old && between)
			for (between = 0; k < n && between < 3 && ingest_line_blank(&lines[k]); between++)
				k++;
		if (k < n && table_starts_old(lines, k, n, &row, old)) {
			i = row;
			continue;
		}
		break;
	}
	return last;
}

static size_t mm_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
		       size_t n, int *score)
{
	size_t j, row, blanks = 0, base;
	char word[64];

	(void)opts;
	*score = 0;
	if (table_starts(lines, 0, n, &row)) {
		*score = 90;
		return tables_end(lines, row, n);
	}
	if (!line_bench(&lines[0], word, sizeof(word), &base))
		return 0;
	for (j = 1; j < n && j <= MM_LEAD; j++) {
		if (ingest_line_blank(&lines[j])) {
			if (++blanks > 2)
				return 0;
			continue;
		}
		blanks = 0;
		if (line_is_row(&lines[j]))
			return 0;
		if (table_starts(lines, j, n, &row)) {
			*score = 90;
			return tables_end(lines, row, n);
		}
	}
	return 0;
}

/* ------------------------------------------------------------- parse */

/* What a title says about the table. */
struct mm_bench {
	const char *bench;      /* kbench's benchmark name */
	const char *key;        /* the param's config key */
	const char *mode, *ipc; /* hackbench */
	int prefixed;           /* param "elsp-256": metric prefix, then the param */
	const char *lower_metric, *lower_unit;  /* Amean tables */
	const char *higher_metric, *higher_unit;        /* Hmean tables */
	long line;              /* where it was named */
	int from_prose;         /* named in a sentence, not a title line */
};

static int bench_from_word(struct rec_batch *out, const char *word, size_t base,
			   struct mm_bench *b)
{
	const char *rest = word + base, *name;

	memset(b, 0, sizeof(*b));
	b->key = "param";
	b->lower_metric = "value";
	b->lower_unit = "";
	b->higher_metric = "value";
	b->higher_unit = "";
	/* the mmtests name as printed ("netperf-tcp-rr", "tbench4"); the
	 * benchmark it starts with says how to read the param */
	b->bench = arena_strdup(&out->arena, word);
	name = arena_strndup(&out->arena, word, base);
	if (strncmp(word, "hackbench", 9) == 0) {
		b->bench = "hackbench";
		b->key = "groups";
		b->lower_metric = "time";
		b->lower_unit = "s";
		b->higher_metric = NULL;
		if (*rest == '-') {
			const char *m = rest + 1;
			if (strncmp(m, "process", 7) == 0 && (m[7] == '-' || !m[7]))
				b->mode = "process";
			else if (strncmp(m, "thread", 6) == 0 && (m[6] == '-' || !m[6]))
				b->mode = "thread";
			m = strchr(m, '-');
			if (m && strcmp(m, "-pipes") == 0)
				b->ipc = "pipe";
			else if (m && strcmp(m, "-sockets") == 0)
				b->ipc = "socket";
		}
	} else if (strcmp(name, "kernbench") == 0) {
		b->key = "jobs";
		b->prefixed = 1;
		b->lower_unit = "s";
	} else if (strcmp(name, "autonumabench") == 0) {
		b->key = "test";
		b->prefixed = 1;
		b->lower_unit = "s";
	} else if (strncmp(name, "tbench", 6) == 0 || strncmp(name, "dbench", 6) == 0) {
		/* dbench's shellpack: loadfile completion times (msec), and
		 * throughput (MB/sec, higher) */
		b->key = "clients";
		b->lower_metric = "latency";
		b->lower_unit = "ms";
		b->higher_metric = "throughput";
		b->higher_unit = "MB/s";
	} else if (strcmp(name, "netperf") == 0) {
		size_t wl = strlen(word);
		b->key = "size";        /* PlotXaxis: Buffer Size Bytes */
		b->higher_metric = "throughput";
		/* a stream's Mbit/s; request/response tests count transactions */
		b->higher_unit = wl > 3 && strcmp(word + wl - 3, "-rr") == 0 ? "" : "Mbit/s";
	} else if (strcmp(name, "pgbench") == 0) {
		/* the shellpack's transactions per second at N clients */
		b->key = "clients";
		b->higher_metric = "tps";
		b->higher_unit = "txn/s";
	} else if (strcmp(name, "sysbench") == 0) {
		b->key = "clients";
		b->higher_metric = "throughput";
		b->higher_unit = "txn/s";
	}
	return 0;
}

/* One (label, param, kernel) cell being collected. */
struct mm_acc {
	const char *label, *param;      /* arena */
	size_t col;
	long line;
	double mean, sd, min, max;
	int mean_rank;                  /* 1 Amean, 2 Hmean, 3 Gmean, 0 none */
	int twice;                      /* the mean row printed again, another value */
	int higher;                     /* mean from Hmean */
	double pub_change;
	int sig;
	struct rec_stat *stats;
	size_t nstats, stats_cap;
};

struct mm_table {
	struct rec_batch *out;
	const struct ingest_ctx *ctx;
	struct mm_acc *acc;
	size_t nacc, acc_cap;
	struct hidx ix;
	/* metric words some row splits before a number ("Wakeup-50th-80") */
	const char *mword[MM_MWORDS];
	size_t nmword;
};

static size_t acc_hash3(const char *label, const char *param, size_t col)
{
	char c[24];

	snprintf(c, sizeof(c), "%zu", col);
	return str_hash_add(str_hash_add(str_hash_add(STR_HASH_INIT, label), param), c);
}

struct acc_key {
	const char *label, *param;
	size_t col;
};

static int acc_eq(const void *arr, size_t i, const void *key)
{
	const struct mm_acc *a = (const struct mm_acc *)arr + i;
	const struct acc_key *k = key;

	return a->col == k->col && strcmp(a->label, k->label) == 0 &&
	       strcmp(a->param, k->param) == 0;
}

static size_t acc_hash(const void *arr, size_t i)
{
	const struct mm_acc *a = (const struct mm_acc *)arr + i;

	return acc_hash3(a->label, a->param, a->col);
}

static struct mm_acc *acc_get(struct mm_table *t, const char *label, const char *param,
			      size_t col, long line)
{
	struct acc_key k = { label, param, col };
	size_t h = acc_hash3(label, param, col), i = hidx_find(&t->ix, h, t->acc, &k, acc_eq);
	struct mm_acc *a;

	if (i != (size_t)-1)
		return &t->acc[i];
	xgrow(&t->acc, &t->acc_cap, t->nacc + 1, sizeof(*t->acc));
	a = &t->acc[t->nacc];
	memset(a, 0, sizeof(*a));
	a->label = label;
	a->param = param;
	a->col = col;
	a->line = line;
	a->mean = a->sd = a->min = a->max = a->pub_change = NAN;
	hidx_add(&t->ix, h, t->nacc, t->acc, acc_hash);
	t->nacc++;
	return a;
}

static void acc_stat(struct mm_table *t, struct mm_acc *a, const char *name, double v)
{
	size_t i;

	for (i = 0; i < a->nstats; i++)
		if (strcmp(a->stats[i].name, name) == 0) {
			a->stats[i].value = v;
			return;
		}
	arena_grow(&t->out->arena, &a->stats, &a->stats_cap, a->nstats + 1, sizeof(*a->stats));
	a->stats[a->nstats].name = arena_strdup(&t->out->arena, name);
	a->stats[a->nstats++].value = v;
}

/* The parse state of one segment. */
struct mm_state {
	const struct ingest_ctx *ctx;
	struct rec_batch *out;
	struct kb_err *err;
	struct mm_bench bench;
	int have_bench;
	const char *names[MM_MAXC];
	const char *kernels[MM_MAXC];
	size_t nnames;
	long names_line;
	const char *label;      /* label= of the rows, or NULL */
	int quote;              /* the table's mail quoting depth */
	int old;                /* an old autonumabench table was read */
	struct mm_table tab;
};

/* Metric name of an Ops row: "NUMA hint faults" -> "numa_hint_faults". */
static const char *ops_metric(struct rec_batch *out, const char *s, size_t len, const char **unit)
{
	char *m = arena_alloc(&out->arena, len + 1);
	size_t i, o = 0;
	int us = 0;

	*unit = "";
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (isalnum(c)) {
			if (us && o)
				m[o++] = '_';
			m[o++] = (char)tolower(c);
			us = 0;
		} else {
			us = 1;
		}
	}
	m[o] = '\0';
	if (o >= 7 && strcmp(m + o - 7, "percent") == 0)
		*unit = "%";
	return o ? m : "ops";
}

static void summary_config(struct mm_state *st, struct rec_summary *s, const char *label,
			   const char *param)
{
	if (st->bench.mode)
		rec_summary_config(st->out, s, "mode", st->bench.mode);
	if (st->bench.ipc)
		rec_summary_config(st->out, s, "ipc", st->bench.ipc);
	if (label && *label)
		rec_summary_config(st->out, s, "label", label);
	if (param && *param)
		rec_summary_config(st->out, s, st->bench.key, param);
}

/* Duration and Ops rows: one summary per kernel. */
static int plain_row(struct mm_state *st, const struct ingest_line *l, const struct mm_row *r)
{
	const char *metric, *unit, *better, *desc;
	size_t k;

	if (r->ncells != st->nnames)
		return kb_err_set(st->err, st->ctx->path, l->lineno,
				  "mmtests table: %zu values for %zu kernel columns", r->ncells,
				  st->nnames);
	if (r->kind == ROW_DURATION) {
		metric = r->param[0] == 'U' ? "duration_user" : r->param[0] == 'S' ? "duration_sys"
										  : "duration_elapsed";
		unit = "s";
		better = "lower";
		desc = r->param[0] == 'U' ? "mmtests: user CPU time of the whole benchmark run"
		       : r->param[0] == 'S' ? "mmtests: system CPU time of the whole benchmark run"
					    : "mmtests: elapsed time of the whole benchmark run";
	} else {
		metric = ops_metric(st->out, r->param, r->paramlen, &unit);
		better = "none";
		desc = "mmtests vmstat monitor: total over the benchmark run";
	}
	rec_metric_declare(st->out, st->bench.bench, metric, unit, better, desc);
	for (k = 0; k < r->ncells; k++) {
		struct rec_summary *s;
		if (isnan(r->cell[k].v))
			continue;
		s = rec_summary_add(st->out, st->names[k], st->bench.bench, metric, unit, l->lineno);
		summary_config(st, s, st->label, NULL);
		s->mean = r->cell[k].v;
		s->n = st->ctx->runs_hint > 0 ? st->ctx->runs_hint : 0;
	}
	return 0;
}

/* The length of the metric word of a param "latency-1", "Wakeup-99th-80":
 * letters, then '-', then more; 0 when none. */
static size_t metric_word_len(const char *param)
{
	size_t n = strspn(param, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");

	return n > 0 && param[n] == '-' && param[n + 1] ? n : 0;
}

/* Does param's metric word name a metric of the table: a word that some
 * row of it splits before a number ("Wakeup-50th-80"), so that the rows
 * "Wakeup-max-80" and "RPS-max-80" of the same table split alike. */
static int metric_word_of_table(const struct mm_table *t, const char *param)
{
	size_t n = metric_word_len(param), i;

	for (i = 0; n && i < t->nmword; i++)
		if (strlen(t->mword[i]) == n && strncmp(t->mword[i], param, n) == 0)
			return 1;
	return 0;
}

/* Collect the table's metric words (once, before its rows are named). */
static void metric_words(struct mm_state *st)
{
	struct mm_table *t = &st->tab;
	size_t i, n;

	t->nmword = 0;
	for (i = 0; i < t->nacc && t->nmword < MM_MWORDS; i++) {
		const char *q = t->acc[i].param;
		n = metric_word_len(q);
		if (n && isdigit((unsigned char)q[n + 1]) && !metric_word_of_table(t, q))
			t->mword[t->nmword++] = arena_strndup(&st->out->arena, q, n);
	}
}

/* The metric, unit and param of a stat row's param under the benchmark. */
static void row_metric(struct mm_state *st, const char *param, int higher, const char **metric,
		       const char **unit, const char **value)
{
	const struct mm_bench *b = &st->bench;
	const char *dash = strchr(param, '-');

	*metric = higher ? b->higher_metric : b->lower_metric;
	*unit = higher ? b->higher_unit : b->lower_unit;
	*value = param;
	if (!*metric) {
		*metric = "value";
		*unit = "";
	}
	if (b->prefixed && dash && dash > param) {
		size_t pl = (size_t)(dash - param);
		*value = dash + 1;
		if (pl == 4 && strncmp(param, "elsp", 4) == 0)
			*metric = "elapsed";
		else if (pl == 4 && strncmp(param, "syst", 4) == 0)
			*metric = "system";
		else if (pl == 4 && strncmp(param, "user", 4) == 0)
			*metric = "user";
		else
			*metric = arena_strndup(&st->out->arena, param, pl);
		*unit = pl == 3 && strncmp(param, "cpu", 3) == 0 ? "%" : "s";
	} else if (!b->prefixed && dash && metric_word_len(param) == (size_t)(dash - param) &&
		   (isdigit((unsigned char)dash[1]) || metric_word_of_table(&st->tab, param))) {
		/* "latency-1", "send-64": a metric of the benchmark at that param;
		 * "Wakeup-max-80" under "Wakeup-50th-80": the same metric */
		char *m = arena_strndup(&st->out->arena, param, (size_t)(dash - param));
		size_t i;
		for (i = 0; m[i]; i++)
			m[i] = (char)tolower((unsigned char)m[i]);
		*metric = m;
		*value = dash + 1;
	}
}

/* Turn the collected cells into summaries. */
static void table_flush(struct mm_state *st)
{
	struct mm_table *t = &st->tab;
	size_t i, k;

	metric_words(st);
	for (i = 0; i < t->nacc; i++) {
		struct mm_acc *a = &t->acc[i];
		const char *metric, *unit, *value;
		struct rec_summary *s;

		if (isnan(a->mean)) {
			rec_note(st->out, a->line, "mmtests table: %s at %s=%s has no mean row "
				 "(Amean, Hmean, Gmean): left out", st->names[a->col], st->bench.key,
				 a->param);
			continue;
		}
		if (a->twice) {
			rec_note(st->out, a->line, "mmtests table: %s at %s=%s: its %s row is printed "
				 "twice with different values: left out", st->names[a->col],
				 st->bench.key, a->param, a->mean_rank == 1 ? "Amean" :
				 a->mean_rank == 2 ? "Hmean" : "Gmean");
			continue;
		}
		row_metric(st, a->param, a->higher, &metric, &unit, &value);
		rec_metric_declare(st->out, st->bench.bench, metric, unit,
				   a->mean_rank == 1 ? "lower" : a->mean_rank == 2 ? "higher" : "none",
				   a->mean_rank == 2 ? "mmtests: summarised by its harmonic mean (higher is better)"
						     : "mmtests: summarised by its arithmetic mean (lower is better)");
		s = rec_summary_add(st->out, st->names[a->col], st->bench.bench, metric, unit, a->line);
		summary_config(st, s, a->label, value);
		s->mean = a->mean;
		s->sd = a->sd;
		s->min = a->min;
		s->max = a->max;
		s->n = st->ctx->runs_hint > 0 ? st->ctx->runs_hint : 0;
		if (a->col > 0) {
			s->pub_change = a->pub_change;
			s->pub_mark = a->sig ? "*" : "";
			s->pub_base = st->names[0];
		}
		for (k = 0; k < a->nstats; k++)
			rec_summary_stat(st->out, s, a->stats[k].name, a->stats[k].value);
	}
	t->nacc = 0;
	hidx_release(&t->ix);
	memset(&t->ix, 0, sizeof(t->ix));
}

static int stat_row(struct mm_state *st, const struct ingest_line *l, const struct mm_row *r)
{
	struct mm_table *t = &st->tab;
	char stat[48];
	const char *param;
	size_t k;
	int rank = 0;

	if (r->ncells != st->nnames)
		return kb_err_set(st->err, st->ctx->path, l->lineno,
				  "mmtests table: %zu values for %zu kernel columns", r->ncells,
				  st->nnames);
	if (r->statlen >= sizeof(stat))
		return kb_err_set(st->err, st->ctx->path, l->lineno, "mmtests table: row name too long");
	memcpy(stat, r->stat, r->statlen);
	stat[r->statlen] = '\0';
	if (!strcmp(stat, "Amean"))
		rank = 1;
	else if (!strcmp(stat, "Hmean"))
		rank = 2;
	else if (!strcmp(stat, "Gmean"))
		rank = 3;
	if (r->old_prefix && strcmp(st->bench.bench, "autonumabench") != 0)
		return kb_err_set(st->err, st->ctx->path, l->lineno,
				  "mmtests table: an autonumabench row ('%.*s') under %s: refused",
				  (int)r->paramlen, r->param, st->bench.bench);
	st->old |= r->old_prefix != NULL;
	if (r->old_prefix)
		param = arena_printf(&st->out->arena, "%s-%.*s", r->old_prefix, (int)r->paramlen,
				     r->param);
	else
		param = arena_strndup(&st->out->arena, r->param, r->paramlen);
	if (!isnan(r->cell[0].pct) && fabs(r->cell[0].pct) > 0.005)
		rec_note(st->out, l->lineno, "mmtests table: the first column's %% is %.2f, "
			 "not the baseline's 0.00", r->cell[0].pct);
	for (k = 0; k < r->ncells; k++) {
		struct mm_acc *a = acc_get(t, st->label ? st->label : "", param, k, l->lineno);
		double v = r->cell[k].v;

		if (rank && (a->mean_rank == 0 || rank < a->mean_rank)) {
			if (!isnan(a->mean))    /* a weaker mean read first: a statistic */
				acc_stat(t, a, a->mean_rank == 2 ? "Hmean" : "Gmean", a->mean);
			a->mean = v;
			a->mean_rank = rank;
			a->higher = rank == 2;
			a->pub_change = r->cell[k].pct;
			a->sig = r->cell[k].sig;
			a->line = l->lineno;
		} else if (rank && rank == a->mean_rank && !isnan(v) && v != a->mean) {
			/* "Hmean 16384" twice, 38684.28 then 38732.22: which is
			 * the mean cannot be told */
			a->twice = 1;
		} else if (!strcmp(stat, "Stddev") || (!strcmp(stat, "HStddev") && isnan(a->sd))) {
			a->sd = v;
		} else if (!strcmp(stat, "Min")) {
			a->min = v;
		} else if (!strcmp(stat, "Max")) {
			a->max = v;
		} else if (!isnan(v)) {
			acc_stat(t, a, stat, v);
		}
	}
	return 0;
}

/* Header lines[h0..h1) (labels among them) above the row r: the names. */
static int read_names(struct mm_state *st, const struct ingest_line *lines, size_t h0, size_t h1,
		      const struct mm_row *r)
{
	struct mm_name nm[2][MM_MAXC];
	const struct ingest_line *hl[2];
	size_t nh = 0, h, k, bad = 0;
	int glued;

	for (h = h0; h < h1; h++) {
		const char *ls;
		size_t ll;
		if (lines[h].quote < lines[h1].quote)
			continue;       /* the reply's words (table_starts) */
		if (line_is_label(&lines[h], &ls, &ll)) {
			st->label = arena_strndup(&st->out->arena, ls, ll);
			continue;
		}
		if (nh < 2)
			hl[nh] = &lines[h];
		nh++;
	}
	if (nh == 0 || nh > 2 || r->ncells > MM_MAXC)
		return kb_err_set(st->err, st->ctx->path, lines[h0].lineno,
				  "mmtests table: no header of kernel names above line %ld",
				  lines[h1].lineno);
	if (header_names(hl, nh, r, nm, &bad, &glued) < 0)
		return kb_err_set(st->err, st->ctx->path, hl[bad]->lineno,
				  "mmtests table: cannot tell %zu kernel names apart in this header",
				  r->ncells);
	if (glued)
		rec_note(st->out, hl[nh - 1]->lineno, "mmtests table: kernel names run together; "
			 "cut where their columns end");
	st->nnames = r->ncells;
	st->names_line = hl[0]->lineno;
	for (k = 0; k < r->ncells; k++) {
		const struct mm_name *b = &nm[nh - 1][k];
		if (nh == 2) {
			const struct mm_name *tp = &nm[0][k];
			st->kernels[k] = arena_strndup(&st->out->arena, hl[0]->s + tp->s, tp->e - tp->s);
			st->names[k] = arena_printf(&st->out->arena, "%s-%.*s", st->kernels[k],
						    (int)(b->e - b->s), hl[1]->s + b->s);
		} else {
			st->kernels[k] = NULL;
			st->names[k] = arena_strndup(&st->out->arena, hl[0]->s + b->s, b->e - b->s);
		}
		rec_variant_add(st->out, st->names[k], NULL,
				st->kernels[k] && isdigit((unsigned char)st->kernels[k][0]) ? st->kernels[k]
											     : NULL,
				hl[0]->lineno);
	}
	return 0;
}

/* Lines[a..b) above a table: the benchmark (the nearest line naming one)
 * or the label. */
static int read_title(struct mm_state *st, const struct ingest_line *lines, size_t a, size_t b,
		      int lead)
{
	size_t i;
	char word[64];
	size_t base;
	const char *label = NULL;

	for (i = b; i-- > a;) {
		int nb;
		if (ingest_line_blank(&lines[i]) || line_is_underline(&lines[i]))
			continue;
		nb = line_bench(&lines[i], word, sizeof(word), &base);
		if (nb == 2)
			return kb_err_set(st->err, st->ctx->path, lines[i].lineno,
					  "mmtests table: this line names two benchmarks; which one "
					  "the table below is cannot be told");
		if (nb == 1) {
			const char *p = skip_sp(lines[i].s, lines[i].s + lines[i].len);
			bench_from_word(st->out, word, base, &st->bench);
			st->bench.line = lines[i].lineno;
			/* a title is the name at the line's start; else a sentence */
			st->bench.from_prose = strncasecmp(p, word, strlen(word)) != 0;
			st->have_bench = 1;
			if (!st->bench.from_prose && !st->out->seg_title) {
				/* the title's own words after the benchmark */
				const char *e = lines[i].s + str_rtrim_len(lines[i].s, lines[i].len);
				const char *w = skip_sp(p + strlen(word), e);
				if (w < e && w > p + strlen(word))
					st->out->seg_title = arena_strndup(&st->out->arena, w,
									   (size_t)(e - w));
			}
			if (st->bench.from_prose)
				rec_note(st->out, lines[i].lineno, "mmtests table: benchmark %s read "
					 "from this line above the table (not a title of its own)", st->bench.bench);
			if (!lead && label)
				st->label = label;
			return 0;
		}
		if (!lead && !label) {
			size_t len = str_rtrim_len(lines[i].s, lines[i].len);
			const char *p = skip_sp(lines[i].s, lines[i].s + len);
			if (len > (size_t)(p - lines[i].s) && p[len - (size_t)(p - lines[i].s) - 1] == ':')
				len--;
			label = arena_strndup(&st->out->arena, p, len - (size_t)(p - lines[i].s));
		}
	}
	if (!lead && label) {
		st->label = label;
		rec_note(st->out, lines[a].lineno, "mmtests table: '%s' between two tables read as "
			 "the label of the one below", label);
	}
	return 0;
}

static int mm_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t n,
		    struct rec_batch *out, struct kb_err *err)
{
	struct mm_state st;
	size_t i = 0, prev_end = 0;
	int rc = -1, first = 1;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	st.out = out;
	st.err = err;
	st.tab.out = out;
	st.tab.ctx = ctx;
	while (i < n) {
		struct mm_row r;
		size_t row, h0;

		if (row_read_old(&lines[i], &r, st.old) != ROW_NONE) {
			if (st.nnames == 0) {
				kb_err_set(err, ctx->path, lines[i].lineno,
					   "mmtests table: no header of kernel names above this row");
				goto out;
			}
			if (r.kind == ROW_STAT ? stat_row(&st, &lines[i], &r) < 0
					       : plain_row(&st, &lines[i], &r) < 0)
				goto out;
			i++;
			prev_end = i;
			continue;
		}
		if (ingest_line_blank(&lines[i]) || line_is_underline(&lines[i])) {
			i++;
			continue;
		}
		if (st.nnames && lines[i].quote < st.quote) {
			/* tables_end() let in only a reply's few lines
			 * between rows it quotes */
			size_t k = reply_lines(lines, i, n, st.quote);
			if (k) {
				rec_note(out, lines[i].lineno, "mmtests table: lines %ld-%ld are the "
					 "reply's own words inside the table it quotes: passed over",
					 lines[i].lineno, lines[i + k - 1].lineno);
				i += k;
				continue;
			}
		}
		{
			/* "(SNC off)" and the same kernels' rows again */
			const char *ls;
			size_t ll;
			if (st.nnames && i + 1 < n && line_is_label(&lines[i], &ls, &ll) &&
			    line_is_row(&lines[i + 1])) {
				table_flush(&st);
				st.label = arena_strndup(&out->arena, ls, ll);
				i++;
				continue;
			}
		}
		/* a table starts here (after its title or label lines) */
		h0 = i;
		while (h0 < n && !table_starts_old(lines, h0, n, &row, st.old))
			h0++;
		if (h0 >= n) {
			kb_err_set(err, ctx->path, lines[i].lineno, "mmtests table: unexpected line");
			goto out;
		}
		table_flush(&st);
		st.label = NULL;
		/* the author's paragraph between an old autonumabench table and
		 * its totals is no label of them */
		if (!st.old && read_title(&st, lines, first ? 0 : prev_end, h0, first) < 0)
			goto out;
		if (!st.have_bench) {
			kb_err_set(err, ctx->path, lines[h0].lineno,
				   "mmtests table: no line above names its benchmark "
				   "(a title such as 'hackbench-process-pipes'): refused");
			goto out;
		}
		row_read_old(&lines[row], &r, st.old);
		if (read_names(&st, lines, h0, row, &r) < 0)
			goto out;
		first = 0;
		if (row > h0 + 1 && lines[row - 1].quote < lines[row].quote)
			rec_note(out, lines[row - 1].lineno, "mmtests table: the reply's own words "
				 "between the quoted header and its rows: passed over");
		st.quote = lines[row].quote;
		i = row;
	}
	table_flush(&st);
	rc = 0;
out:
	hidx_release(&st.tab.ix);
	free(st.tab.acc);
	return rc;
}

const struct ingest_parser mmtestscmp_parser = {
	"mmtests-compare",
	"mmtests compare-kernels tables: 'Amean 1 0.4150 ( 0.00%) 0.4013 * 3.30%*'",
	mm_claim, mm_parse,
};
