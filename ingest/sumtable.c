/*
 * sumtable.c - published summary tables: numbers that were already
 * averaged by the author of a post, stored as summaries (never samples).
 *
 * Three layouts, all seen on LKML:
 *
 * 1. A grid over one configuration key (seed 000), "mean(sd)" cells:
 *
 *      Hackbench: (averages over 4 tests, execution time)
 *      -------------------------------------------------------------------
 *      N:      10              25              50              100
 *      A       5.54(0.10)      15.28(0.03)     32.65(0.35)     67.67(0.69)
 *
 * 2. One column per metric (seeds 000, 003), cells "mean(sd)", "28.96s",
 *    "1260.6%" or blank, with an optional trailing Runs column:
 *
 *      numa_test: N=4
 *      ----------------------------------------------------------------
 *              Elapsed         AvgUserTime     TotUserTime     TotSysTime      Runs
 *      A       42.95(3.23)     30.40(1.16)     121.65(4.62)                    10
 *
 *      Schedbench 4:
 *                              AvgUser    Elapsed  TotalUser   TotalSys
 *                 testD7-59      53.19      53.43     212.81       0.59
 *
 * 3. A matrix of numa_test metrics per variant (seed 001): rows carry the
 *    task count (inherited by the following rows) and a metric code:
 *
 *      Scheduler: A B C D E F
 *      N=4 U 28.12 30.77 33.00 - 27.20 30.29
 *      TU 112.55 123.13 132.08 - 108.88 121.25
 *      N=64 U 39.73 34.73 34.23 - (33.32) 34.98
 *
 * "-", "(-)" and blank cells are missing (no summary).  "(33.32)" is a
 * value the author set apart with a footnote: kept, flagged "footnoted".
 *
 * Blank cells: the front end turns each tab into one space, and the
 * authors' tabs align the header by eye, not by cell, so positions cannot
 * be trusted (and are gone anyway once a mail client collapsed blanks).
 * Values therefore fill the columns from the left; when the header ends
 * in "Runs", a row's last value is Runs if it is a plain integer.  In the
 * seeds every blank cell sits just before Runs, which this reads right.
 *
 * Kernbench tables carry no load or -j: their summaries get no
 * configuration beyond what the title says.
 */
#include "parsers.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#define MAX_TOKS 64     /* cells stored per row; longer rows are counted */
#define MAX_LEGEND 16   /* legend lines between a title and its header */

enum table_kind { TABLE_GRID = 1, TABLE_COLUMNS, TABLE_MATRIX };

/* The benchmarks a title can name, and the key its "N" sets. */
struct bench {
	const char *name;
	const char *n_key;          /* config key for N=4, "Schedbench 4", N: columns */
	const char *grid_metric;    /* what a grid's cells measure */
	const char *grid_unit;
};

static const struct bench benches[] = {
	{ "hackbench", "groups", "time", "s" },
	{ "numa_test", "tasks", "elapsed", "s" },
	{ "kernbench", "jobs", "elapsed", "s" },
};

/* Column headings and matrix row codes, and the metric each names. */
struct metric {
	const char *word;
	const char *name;
	const char *unit;
};

static const struct metric column_metrics[] = {
	{ "Elapsed", "elapsed", "s" },
	{ "ElapsedTime", "elapsed", "s" },
	{ "AvgUser", "avg_user", "s" },
	{ "AvgUserTime", "avg_user", "s" },
	{ "AverageUserTime", "avg_user", "s" },
	{ "TotUser", "total_user", "s" },
	{ "TotUserTime", "total_user", "s" },
	{ "TotalUser", "total_user", "s" },
	{ "TotalUserTime", "total_user", "s" },
	{ "TotSys", "total_sys", "s" },
	{ "TotSysTime", "total_sys", "s" },
	{ "TotalSys", "total_sys", "s" },
	{ "TotalSysTime", "total_sys", "s" },
	{ "User", "user", "s" },
	{ "UserTime", "user", "s" },
	{ "Sys", "system", "s" },
	{ "SysTime", "system", "s" },
	{ "System", "system", "s" },
	{ "SystemTime", "system", "s" },
	{ "CPU", "percent_cpu", "%" },
	{ "%CPU", "percent_cpu", "%" },
	{ "PercentCPU", "percent_cpu", "%" },
	{ "Time", "time", "s" },
};

/* Seed 001's legend: "Average user time (U) and total user time (TU)",
 * "Elapsed time (E), hackbench time (H)". */
static const struct metric matrix_codes[] = {
	{ "U", "avg_user", "s" },
	{ "TU", "total_user", "s" },
	{ "S", "avg_sys", "s" },
	{ "TS", "total_sys", "s" },
	{ "E", "elapsed", "s" },
	{ "H", "hackbench", "s" },
};

/* One parsed cell. */
struct cell {
	int missing;
	int footnoted;
	const char *mark;           /* the footnote mark after the value ("*", "¹"), or NULL */
	size_t mark_len;
	int is_int;                 /* plain digits: may be a Runs count */
	char suffix;                /* 's', '%' or 0: the unit printed after the mean */
	double mean, sd;            /* sd NAN when not printed */
};

struct table {
	enum table_kind kind;
	const struct bench *bench;  /* NULL for a matrix */
	struct ingest_tok title_n;  /* N from the title ("N=4", "Schedbench 4"), len 0 if none */
	long averaged_over;         /* "(averages over 4 tests" -> 4, else 0 */
	size_t header;              /* line index of the header */
	size_t first_row;           /* line index of the first row */
	struct ingest_tok cols[MAX_TOKS];   /* grid: N values; columns: headings; matrix: variants */
	const struct metric *metric[MAX_TOKS];  /* columns: NULL for an unknown heading */
	size_t ncols;
	int has_runs;               /* columns: last heading is "Runs" */
	const char *title_key;      /* config the title's text gives, or NULL */
	struct ingest_tok title_val;
	const char *title_suffix;   /* appended to title_val ("xcpus"), or NULL */
	size_t legend[MAX_LEGEND];  /* line indexes of legend lines under the title */
	size_t nlegend;
};

struct row {
	struct ingest_tok label;    /* variant (grid, columns) or metric code (matrix) */
	struct ingest_tok tasks;    /* matrix: "N=4" -> "4"; len 0 when absent */
	struct cell cells[MAX_TOKS];
	size_t ncells;              /* may exceed MAX_TOKS: only the first are stored */
	size_t nstored;
	int blank;                  /* a label and no values */
	const char *annot;          /* what the author wrote after the values, or NULL */
	size_t annot_len;
};

static int tok_ieq(const struct ingest_tok *t, const char *word)
{
	size_t n = strlen(word);
	return t->len == n && strncasecmp(t->s, word, n) == 0;
}

/* The first character of l that a pattern's \s does not match (PCRE2
 * without UCP: blank, tab, LF, VT, FF, CR), or 0: the patterns below all
 * start "^\s*", so it tells cheaply which of them can match. */
static char lead_char(const struct ingest_line *l)
{
	const char *p = l->s, *end = l->s + l->len;

	while (p < end && (*p == ' ' || (*p >= '\t' && *p <= '\r')))
		p++;
	return p < end ? *p : 0;
}

static int is_rule(const struct ingest_line *l)
{
	static struct rx rule = RX("^\\s*[-=_]{5,}\\s*$");
	struct rx_cap cap[1];
	char c = lead_char(l);

	if (c != '-' && c != '=' && c != '_')
		return 0;
	return rx_match(&rule, l->s, l->len, cap, 1) > 0;
}

/* "-", "--", "---": a run of one to five dashes, the authors' "no value". */
static int str_dashes(const char *s, size_t len)
{
	size_t i;

	if (len < 1 || len > 5)
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] != '-')
			return 0;
	return 1;
}

/*
 * Length of the footnote mark that ends s[0..len) ("*", "**", "†", "‡",
 * "§", superscript digits "¹", "²³"), 0 when none.  Authors put one after
 * a cell they explain below the table ("31.96(0.49)*", "31.96¹").
 */
static size_t footnote_tail(const char *s, size_t len)
{
	static const char *const marks[] = {
		"\xe2\x80\xa0", "\xe2\x80\xa1", "\xc2\xa7",          /* dagger, double dagger, section */
		"\xc2\xb9", "\xc2\xb2", "\xc2\xb3", "\xe2\x81\xb0", "\xe2\x81\xb4",
		"\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8", "\xe2\x81\xb9",
	};
	size_t m = 0, k, ml;
	int more = 1;

	while (more && m < len && m < 12) {
		more = 0;
		if (s[len - m - 1] == '*') {
			m++;
			more = 1;
			continue;
		}
		for (k = 0; k < sizeof(marks) / sizeof(marks[0]); k++) {
			ml = strlen(marks[k]);
			if (len - m >= ml && memcmp(s + len - m - ml, marks[k], ml) == 0) {
				m += ml;
				more = 1;
				break;
			}
		}
	}
	return m;
}

/* Length of a footnote mark starting at p (before end), 0 when none. */
static size_t footnote_at(const char *p, const char *end)
{
	size_t n, best = 0;

	for (n = 1; p + n <= end && n <= 12; n++)
		if (footnote_tail(p, n) == n)
			best = n;       /* p[0..n) is marks only */
	return best;
}

/* Parse "42.95(3.23)", "28.96s", "1260.6%", "(33.32)", "-", "---", "(-)",
 * any of them with a footnote mark after it or after the mean
 * ("31.96(0.49)*", "31.96*(0.49)", "5.37¹"): the value, footnoted. */
static int parse_cell(const char *s, size_t len, struct cell *c)
{
	const char *p = s, *end = s + len;
	size_t m;
	int paren = 0;

	memset(c, 0, sizeof(*c));
	c->mean = c->sd = NAN;
	m = footnote_tail(s, len);
	if (m && m < len && (s[len - m - 1] == ')' || (s[len - m - 1] >= '0' && s[len - m - 1] <= '9') ||
			     s[len - m - 1] == 's' || s[len - m - 1] == '%')) {
		c->mark = s + len - m;
		c->mark_len = m;
		len -= m;
		end = s + len;
	}
	if (str_dashes(s, len) || (len == 3 && memcmp(s, "(-)", 3) == 0) ||
	    (len == 3 && strncasecmp(s, "n/a", 3) == 0)) {
		c->missing = 1;
		return 0;
	}
	if (len >= 3 && s[0] == '(' && s[len - 1] == ')') {
		paren = 1;
		p++;
		end--;
		/* "(+3%)", "(-1.8)" are the author's comparisons, not a
		 * footnoted value: the caller reads them as an annotation */
		if (*p == '+' || *p == '-' || end[-1] == '%')
			return -1;
	}
	if (p >= end || *p == ' ' || num_scan(&p, end, &c->mean) < 0)
		return -1;
	if (p < end && (*p == 's' || *p == '%'))
		c->suffix = *p++;
	if (paren) {
		c->footnoted = 1;
		return p == end ? 0 : -1;
	}
	if (!c->mark && p < end && (m = footnote_at(p, end)) > 0 && p + m < end && p[m] == '(') {
		c->mark = p;            /* "31.96*(0.49)" */
		c->mark_len = m;
		p += m;
	}
	if (c->mark)
		c->footnoted = 1;
	if (p < end && *p == '(') {
		p++;
		if (p >= end || *p == ' ' || num_scan(&p, end, &c->sd) < 0)
			return -1;
		if (p < end && (*p == 's' || *p == '%'))
			p++;
		if (p >= end || *p != ')')
			return -1;
		p++;
	}
	if (p != end)
		return -1;
	c->is_int = !c->mark && num_parse_long(s, len, &(long){ 0 }) == 0;
	return 0;
}

/* A token the author wrote after a row's values, not a value: "<--",
 * "(+3%", "[+-1.3%]", "regression", or past the columns a signed
 * "-45%" / "+3". */
static int is_annotation(const struct ingest_tok *t, size_t col, size_t ncols)
{
	char c = t->s[0], last = t->s[t->len - 1];
	struct cell tmp;

	if (parse_cell(t->s, t->len, &tmp) < 0)
		return 1;
	return col >= ncols && (c == '+' || (c == '-' && t->len > 1) || last == '%');
}

/* Read a table row.  Grid and column rows: a label, then cells.  Matrix
 * rows: optional "N=4", a metric code, then cells.  After at least one
 * cell, the first token that is no cell (or a signed one past the
 * columns) starts an annotation: r->annot, the rest of the line.
 * Returns 0 for a row, 1 for a line holding only a label (a blank row,
 * if the next line is a row), -1 when the line is not shaped like a row
 * of this kind. */
static int scan_row(const struct table *t, const struct ingest_line *l, struct row *r)
{
	struct ingest_tok tok[MAX_TOKS + 2];
	size_t total = ingest_split(l->s, l->len, tok, ARRAY_SIZE(tok)), stored, i = 0, k, skip;
	enum table_kind kind = t->kind;

	memset(r, 0, sizeof(*r));
	stored = total < ARRAY_SIZE(tok) ? total : ARRAY_SIZE(tok);
	if (kind == TABLE_MATRIX && stored > 0 && tok[0].len > 2 &&
	    (tok[0].s[0] == 'N' || tok[0].s[0] == 'n') && tok[0].s[1] == '=') {
		long v;
		if (num_parse_long(tok[0].s + 2, tok[0].len - 2, &v) < 0 || v <= 0)
			return -1;
		r->tasks.s = tok[0].s + 2;
		r->tasks.len = tok[0].len - 2;
		i = 1;
	}
	if (kind != TABLE_MATRIX && total == 1) {
		r->label = tok[0];
		/* "Schedbench 8:", "Thanks," are no variants */
		if (strchr(":,.;!?", tok[0].s[tok[0].len - 1]) || tok[0].len > 64)
			return -1;
		return 1;
	}
	if (stored < i + 2)
		return -1;
	r->label = tok[i++];
	if (kind == TABLE_MATRIX) {
		/* A code is a short word: "U", "TU", "E", "H". */
		if (r->label.len > 8)
			return -1;
		for (k = 0; k < r->label.len; k++)
			if (!((r->label.s[k] >= 'A' && r->label.s[k] <= 'Z') ||
			      (r->label.s[k] >= 'a' && r->label.s[k] <= 'z')))
				return -1;
	}
	for (k = 0, skip = 0; i + k + skip < stored && k < MAX_TOKS; k++) {
		const struct ingest_tok *c = &tok[i + k + skip];
		if (k > 0 && footnote_tail(c->s, c->len) == c->len) {
			/* "31.96(0.49) *": the mark of the cell before */
			if (!r->cells[k - 1].mark) {
				r->cells[k - 1].mark = c->s;
				r->cells[k - 1].mark_len = c->len;
				r->cells[k - 1].footnoted = 1;
			}
			skip++;
			k--;
			continue;
		}
		if (k > 0 && is_annotation(c, k, t->ncols)) {
			r->annot = c->s;
			r->annot_len = (size_t)(l->s + l->len - c->s);
			r->nstored = r->ncells = k;
			return 0;
		}
		if (parse_cell(c->s, c->len, &r->cells[k]) < 0)
			return -1;
	}
	r->nstored = k;
	r->ncells = total - i - skip;
	return 0;
}

/* A row at lines[i]: a row, or a label alone followed by a row (a blank
 * row: the author had no numbers for it).  0 or -1 as scan_row. */
static int table_row(const struct table *t, const struct ingest_line *lines, size_t i, size_t n,
		     struct row *r)
{
	struct row next;
	int got = scan_row(t, &lines[i], r);

	if (got != 1)
		return got;
	if (i + 1 < n && scan_row(t, &lines[i + 1], &next) == 0) {
		r->blank = 1;
		return 0;
	}
	return -1;
}

static const struct bench *bench_named(const char *s, size_t len)
{
	if (len == 9 && strncasecmp(s, "hackbench", 9) == 0)
		return &benches[0];
	if (len == 9 && strncasecmp(s, "kernbench", 9) == 0)
		return &benches[2];
	/* "numabench", "numa_test", "schedbench" */
	return &benches[1];     /* numa_test, numatest, schedbench */
}

/* Whether a line may name a benchmark: "...bench", "numa_test".  Cheap,
 * so that prose is refused before any pattern runs.  Bytes past ASCII go
 * to the pattern (caseless UTF matching lets "K" be the Kelvin sign). */
static int mentions_bench(const struct ingest_line *l)
{
	size_t i;

	for (i = 0; i + 4 <= l->len; i++) {
		unsigned char c = (unsigned char)l->s[i];
		if (c >= 0x80)
			return 1;
		if ((c | 0x20) == 'e' && strncasecmp(l->s + i, "ench", 4) == 0)
			return 1;
		if ((c | 0x20) == 't' && strncasecmp(l->s + i, "test", 4) == 0)
			return 1;
	}
	return 0;
}

/* The configuration a heading's text gives: "(make -j N vmlinux, where N
 * = 16 x num_cpus)" -> load=16xcpus, "-j 64" -> jobs=64, "maximal tasks"
 * or a "-j" with no number -> load=maximal.  Other text (not "averages
 * over 5 compiles") -> label=TEXT, so that tables under different
 * headings are never pooled. */
static void title_config(const char *s, size_t len, struct table *t)
{
	static struct rx times = RXI("\\b(\\d+)\\s*[x*]\\s*(?:num_?)?cpus\\b");
	static struct rx jobs = RX("-j\\s*(\\d+)\\b");
	static struct rx maximal = RXI("\\bmaximal\\b|\\bunlimited\\b|-j\\s+[A-Za-z]|-j\\s*$");
	static struct rx average = RXI("\\baverage");
	struct rx_cap cap[2];

	if (rx_match(&times, s, len, cap, 2) == 2) {
		t->title_key = "load";
		t->title_val.s = cap[1].s;
		t->title_val.len = cap[1].len;
		t->title_suffix = "xcpus";
	} else if (rx_match(&jobs, s, len, cap, 2) == 2) {
		t->title_key = "jobs";
		t->title_val.s = cap[1].s;
		t->title_val.len = cap[1].len;
	} else if (rx_match(&maximal, s, len, cap, 1) > 0) {
		t->title_key = "load";
		t->title_val.s = "maximal";
		t->title_val.len = 7;
	} else if (rx_match(&average, s, len, cap, 1) <= 0) {
		t->title_key = "label";
		t->title_val.s = s;
		t->title_val.len = len;
	}
}

/* "Hackbench: (averages over 4 tests, execution time)", "numa_test: N=4",
 * "Kernbench:", "Schedbench 4:", "NUMA schedbench 4:", "numabench/numa_test 4",
 * "schedbench/hackbench: time(s)", "Kernbench-16: (make -j N vmlinux, ...)",
 * and a prose line ending in one: "Results on a 16-way box, Kernbench:". */
static int scan_title(const struct ingest_line *l, struct table *t)
{
	static struct rx title = RXI("^\\s*(?:[A-Za-z]+\\s+)?"
				     "(?:(?:hackbench|numa_?test|schedbench|kernbench|numabench)\\s*/\\s*)?"
				     "(hackbench|numa_?test|schedbench|kernbench|numabench)"
				     "(-\\d+)?(?:\\s+(\\d+))?\\s*"
				     "(?::\\s*(?:N\\s*=\\s*(\\d+))?\\s*"
				     "(?:[A-Za-z][A-Za-z ]*?(?:\\([a-z%]{1,4}\\))?)?\\s*"
				     "(?:\\((.*)\\))?)?\\s*$");
	static struct rx prose = RXI("\\s(hackbench|numa_?test|schedbench|kernbench|numabench)"
				     "(?:\\s+(\\d+))?\\s*:\\s*$");
	static struct rx over = RXI("\\baverages?\\s+(?:of|over)\\s+(\\d+)\\b");
	struct rx_cap cap[6];
	int got;

	if (!mentions_bench(l))
		return 0;
	got = rx_match(&title, l->s, l->len, cap, 6);
	if (got <= 0) {
		const char *end = l->s + str_rtrim_len(l->s, l->len);
		if (end == l->s || end[-1] != ':' || rx_match(&prose, l->s, l->len, cap, 3) <= 0)
			return 0;
		t->bench = bench_named(cap[1].s, cap[1].len);
		if (cap[2].s)
			t->title_n = (struct ingest_tok){ cap[2].s, cap[2].len };
		return 1;
	}
	t->bench = bench_named(cap[1].s, cap[1].len);
	if (got > 3 && cap[3].s)
		t->title_n = (struct ingest_tok){ cap[3].s, cap[3].len };
	else if (got > 4 && cap[4].s)
		t->title_n = (struct ingest_tok){ cap[4].s, cap[4].len };
	if (got > 5 && cap[5].s) {
		struct rx_cap oc[2];
		if (rx_match(&over, cap[5].s, cap[5].len, oc, 2) == 2)
			num_parse_long(oc[1].s, oc[1].len, &t->averaged_over);
		title_config(cap[5].s, cap[5].len, t);
	}
	if (!t->title_key && got > 2 && cap[2].s) {
		/* "Kernbench-2:" and "Kernbench-16:" are two tables */
		t->title_key = "label";
		t->title_val = (struct ingest_tok){ cap[1].s, (size_t)(cap[2].s + cap[2].len - cap[1].s) };
	}
	return 1;
}

static const struct metric *metric_for(const struct metric *m, size_t nm, const struct ingest_tok *t)
{
	size_t i;

	for (i = 0; i < nm; i++)
		if (tok_ieq(t, m[i].word))
			return &m[i];
	return NULL;
}

/* "N: 10 25 50 100", or under a title the bare "10 25 50 100". */
static int scan_grid_header(const struct ingest_line *l, struct table *t)
{
	struct ingest_tok tok[MAX_TOKS + 1];
	size_t n = ingest_split(l->s, l->len, tok, ARRAY_SIZE(tok)), i, first = 1;
	long v;

	if (n < 1 || n > ARRAY_SIZE(tok))
		return 0;
	if (num_parse_long(tok[0].s, tok[0].len, &v) == 0 && v > 0)
		first = 0;
	else if (n < 2 || !(tok_ieq(&tok[0], "N:") || tok_ieq(&tok[0], "N") ||
			    tok_ieq(&tok[0], "groups:") || tok_ieq(&tok[0], "tasks:")))
		return 0;
	for (i = first; i < n; i++) {
		if (num_parse_long(tok[i].s, tok[i].len, &v) < 0 || v <= 0)
			return 0;
		t->cols[i - first] = tok[i];
	}
	t->ncols = n - first;
	t->kind = TABLE_GRID;
	return 1;
}

/* A heading without its unit: "Elapsed(s)" -> "Elapsed". */
static struct ingest_tok heading_base(struct ingest_tok t)
{
	const char *paren = memchr(t.s, '(', t.len);

	if (paren && paren > t.s && t.s[t.len - 1] == ')')
		t.len = (size_t)(paren - t.s);
	return t;
}

/* "Elapsed AvgUserTime TotUserTime TotSysTime Runs": words, most of them
 * known metrics (so a sentence starting with "Elapsed" is no header).  A
 * first heading naming the row labels ("Kernel") is no column. */
static int scan_column_header(const struct ingest_line *l, struct table *t)
{
	static const char *const label_words[] = {
		"Kernel", "Kernels", "Kernel:", "Scheduler", "Variant", "Name", "Tree",
	};
	struct ingest_tok tok[MAX_TOKS + 2];
	size_t n = ingest_split(l->s, l->len, tok, ARRAY_SIZE(tok)), i, known = 0, first = 0;

	if (n < 1 || n > MAX_TOKS + 1)
		return 0;
	for (i = 0; i < ARRAY_SIZE(label_words); i++)
		if (n > 1 && tok_ieq(&tok[0], label_words[i]))
			first = 1;
	if (n - first > MAX_TOKS)
		return 0;
	for (i = first; i < n; i++) {
		char c = tok[i].s[0];
		struct ingest_tok base = heading_base(tok[i]);
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '%'))
			return 0;
		t->cols[i - first] = base;
		t->metric[i - first] = metric_for(column_metrics, ARRAY_SIZE(column_metrics), &base);
		if (t->metric[i - first])
			known++;
	}
	t->ncols = n - first;
	t->has_runs = tok_ieq(&t->cols[t->ncols - 1], "Runs");
	if (t->has_runs)
		known++;
	if (!known || known * 2 < t->ncols)
		return 0;
	t->kind = TABLE_COLUMNS;
	return 1;
}

/* "Scheduler: A B C D E F" */
static int scan_matrix_header(const struct ingest_line *l, struct table *t)
{
	struct ingest_tok tok[MAX_TOKS + 1];
	const char *p = str_skip_ws(l->s, l->s + l->len);
	size_t n, i;

	/* Most lines fail on the first letter; split only those that may not. */
	if (p == l->s + l->len || !strchr("SsKk", *p))
		return 0;
	n = ingest_split(l->s, l->len, tok, ARRAY_SIZE(tok));
	if (n < 2 || n > ARRAY_SIZE(tok) ||
	    !(tok_ieq(&tok[0], "Scheduler:") || tok_ieq(&tok[0], "Schedulers:") ||
	      tok_ieq(&tok[0], "Kernel:") || tok_ieq(&tok[0], "Kernels:")))
		return 0;
	for (i = 1; i < n; i++)
		t->cols[i - 1] = tok[i];
	t->ncols = n - 1;
	t->kind = TABLE_MATRIX;
	return 1;
}

/* A legend line under a title: "A = 2.5.59 vanilla", "* stock59-stats -
 * stock 2.5.59 with the cputime_stats patch", "hacksched54: 2.5.54 + ...". */
static struct rx legend_rx = RX("^\\s*(?:[-*+]\\s+)?([A-Za-z0-9][A-Za-z0-9_.+-]*)\\s*(?:=|:|\\s-)\\s+(\\S.*?)\\s*$");

/* Recognise a table's title and header from lines[0]; fills t and
 * returns 1, or 0 when lines[0] does not start a summary table. */
static int scan_head(const struct ingest_line *lines, size_t n, struct table *t)
{
	size_t i = 0, gap = 0;
	struct row r;

	memset(t, 0, sizeof(*t));
	if (scan_title(&lines[0], t)) {
		/* Rules, up to two blank lines and a legend of the variants
		 * may separate title and header. */
		for (i = 1; i < n; i++) {
			struct rx_cap cap[1];
			if (is_rule(&lines[i]))
				continue;
			if (ingest_line_blank(&lines[i])) {
				if (++gap > 2)
					return 0;
				continue;
			}
			if (scan_grid_header(&lines[i], t) || scan_column_header(&lines[i], t) ||
			    scan_matrix_header(&lines[i], t))
				break;
			if (t->nlegend == MAX_LEGEND || rx_match(&legend_rx, lines[i].s, lines[i].len, cap, 1) <= 0)
				return 0;
			t->legend[t->nlegend++] = i;
		}
		if (i >= n)
			return 0;
	} else {
		if (is_rule(&lines[0]))
			i = 1;
		if (i >= n || !scan_matrix_header(&lines[i], t))
			return 0;
	}
	t->header = i;
	t->first_row = i + 1;
	if (t->first_row >= n || table_row(t, lines, t->first_row, n, &r) < 0)
		return 0;
	/* A matrix must say its task count before the first value. */
	if (t->kind == TABLE_MATRIX && !r.tasks.len)
		return 0;
	return 1;
}

static size_t sumtable_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			 size_t n, int *score)
{
	struct table t;
	struct row r;
	size_t i;
	char c;

	*score = 0;
	/* A table starts with a title (a benchmark name), a rule or a
	 * matrix header ("Scheduler:", "Kernel:"): refuse other lines before
	 * scan_head clears its tables. */
	c = lead_char(&lines[0]);
	if (!c || ((unsigned char)c < 0x80 && !strchr("sSkK-=_", c) && !mentions_bench(&lines[0])))
		return 0;
	if (n < 2 || !scan_head(lines, n, &t))
		return 0;
	for (i = t.first_row; i < n && table_row(&t, lines, i, n, &r) == 0; i++)
		;
	*score = 80;
	return i;
}

/* Parse ------------------------------------------------------------------ */

struct emit {
	const struct ingest_ctx *ctx;
	struct rec_batch *out;
	const struct table *t;
};

static const char *tok_dup(struct rec_batch *out, const struct ingest_tok *t)
{
	return arena_strndup(&out->arena, t->s, t->len);
}

/* Description of a variant from a legend read earlier in the document. */
static const char *variant_desc(const struct rec_batch *out, const char *name)
{
	size_t i;

	for (i = out->nvariants; i-- > 0;)
		if (out->variants[i].name && strcmp(out->variants[i].name, name) == 0)
			return out->variants[i].description;
	return NULL;
}

/* A metric name from an unknown heading: lower case, [a-z0-9_]. */
static const char *heading_metric(struct rec_batch *out, const struct ingest_tok *t)
{
	char *s = arena_strndup(&out->arena, t->s, t->len);
	char *p;

	for (p = s; *p; p++) {
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
		else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			*p = '_';
	}
	return s;
}

static void emit(const struct emit *e, const char *variant, const char *metric, const char *unit,
		 const struct cell *c, long n, const char *key, const struct ingest_tok *value,
		 long line)
{
	struct rec_summary *s;
	const struct table *t = e->t;
	const char *benchmark = t->bench ? t->bench->name : "numa_test";
	const char *n_key = t->bench ? t->bench->n_key : "tasks";

	s = rec_summary_add(e->out, variant, benchmark, metric, unit, line);
	s->variant_desc = variant_desc(e->out, variant);
	s->mean = c->mean;
	s->sd = c->sd;
	if (n <= 0)
		n = t->averaged_over;
	if (n <= 0 && t->bench == &benches[2] && e->ctx->opts && e->ctx->opts->runs > 0)
		n = e->ctx->opts->runs;
	s->n = n > 0 ? n : 0;
	if (c->footnoted)
		s->flags = "footnoted";
	if (c->mark)
		rec_note(e->out, line, "'%.*s' after %s's %s value %g is a footnote mark: the "
			 "value is kept, flagged footnoted (not tested unless --use-flagged)",
			 (int)c->mark_len, c->mark, variant, metric, c->mean);
	if (t->title_n.len)
		rec_summary_config(e->out, s, n_key, tok_dup(e->out, &t->title_n));
	if (t->title_key)
		rec_summary_config(e->out, s, t->title_key,
				   arena_printf(&e->out->arena, "%.*s%s", (int)t->title_val.len,
						t->title_val.s, t->title_suffix ? t->title_suffix : ""));
	if (key && value && value->len)
		rec_summary_config(e->out, s, key, tok_dup(e->out, value));
}

/* Metrics no run measures as zero: a 0.00 there is the author's
 * placeholder (a kernel without the cputime statistics, a run that
 * crashed), not a measurement. */
static int never_zero(const char *metric)
{
	static const char *const names[] = {
		"elapsed", "avg_user", "total_user", "user", "percent_cpu", "time",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(metric, names[i]) == 0)
			return 1;
	return 0;
}

/* Whether a row's cells are all zero (or missing): a run that produced
 * nothing ("2.5.59-sched4-2  0 0 0 0" for a crashed machine). */
static int all_zero(const struct cell *c, size_t n)
{
	size_t i, zeros = 0;

	for (i = 0; i < n; i++) {
		if (c[i].missing)
			continue;
		if (c[i].mean != 0)
			return 0;
		zeros++;
	}
	return zeros > 0;
}

/* The checks every row of a numa_test or kernbench table carries --------- */

enum slot { S_AVG, S_ELAPSED, S_TOTU, S_TOTS, S_USER, S_SYS, S_CPU, S_NONE };

static const char *const slot_metric[] = {
	"avg_user", "elapsed", "total_user", "total_sys", "user", "system", "percent_cpu",
};
static const char *const slot_heading[] = {
	"AvgUser", "Elapsed", "TotalUser", "TotalSys", "User", "System", "CPU",
};

static enum slot slot_of(const struct metric *m)
{
	size_t i;

	for (i = 0; m && i < S_NONE; i++)
		if (strcmp(m->name, slot_metric[i]) == 0)
			return (enum slot)i;
	return S_NONE;
}

/* One row's cells by slot: the mean, or NAN for a missing cell or a
 * placeholder zero. */
struct slot_row {
	double v[S_NONE];
	char suffix[S_NONE];
};

static int near(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b) + 0.015;
}

/*
 * The checks a row passes or fails, whatever its header says: numa_test's
 * TotalUser = AvgUser x tasks (when the title gives tasks), TotalSys <
 * TotalUser, AvgUser <= Elapsed, TotalUser <= Elapsed x tasks; kernbench's
 * CPU% = (User + System) / Elapsed x 100 (15% slack: the means of runs,
 * not one run, and the misorders it catches are off by far more); a value printed with '%' only under CPU, one with 's'
 * never there.  Returns the first check failed, or NULL; *applied gains
 * the bit (1 << index in check_names) of each check that had its numbers.
 */
static const char *const check_names[] = {
	"TotalUser = AvgUser x tasks", "TotalSys < TotalUser", "AvgUser <= Elapsed",
	"TotalUser <= Elapsed x tasks", "CPU% = (User + System) / Elapsed x 100",
};

static const char *row_check(const struct slot_row *r, long tasks, unsigned *applied)
{
	const double *v = r->v;
	int k;

	for (k = 0; k < S_NONE; k++) {
		if (isnan(v[k]))
			continue;
		if (r->suffix[k] == '%' && k != S_CPU)
			return "a value printed with '%' stands in a column of seconds";
		if (r->suffix[k] == 's' && k == S_CPU)
			return "a value printed in seconds stands in the CPU% column";
	}
	if (tasks > 0 && !isnan(v[S_AVG]) && !isnan(v[S_TOTU])) {
		*applied |= 1u << 0;
		if (!near(v[S_TOTU], v[S_AVG] * (double)tasks, 0.05))
			return check_names[0];
	}
	if (!isnan(v[S_TOTS]) && !isnan(v[S_TOTU])) {
		*applied |= 1u << 1;
		if (!(v[S_TOTS] < v[S_TOTU]))
			return check_names[1];
	}
	if (!isnan(v[S_AVG]) && !isnan(v[S_ELAPSED])) {
		*applied |= 1u << 2;
		if (v[S_AVG] > v[S_ELAPSED] * 1.02 + 0.015)
			return check_names[2];
	}
	if (tasks > 0 && !isnan(v[S_TOTU]) && !isnan(v[S_ELAPSED])) {
		*applied |= 1u << 3;
		if (v[S_TOTU] > v[S_ELAPSED] * (double)tasks * 1.05 + 0.015)
			return check_names[3];
	}
	if (!isnan(v[S_ELAPSED]) && !isnan(v[S_USER]) && !isnan(v[S_SYS]) && !isnan(v[S_CPU])) {
		*applied |= 1u << 4;
		if (!near(v[S_CPU], (v[S_USER] + v[S_SYS]) / v[S_ELAPSED] * 100, 0.15))
			return check_names[4];
	}
	return NULL;
}

/* The rows of a column table, read before any is stored. */
struct col_row {
	const char *variant;
	long line;
	long runs;
	struct cell *cells;         /* ncols, by column; missing when not printed */
};

/* The rows' cells read with column j holding slot[j]: the first failed
 * check (*bad_row its row) or NULL. */
static const char *table_check(const struct col_row *rows, size_t nrows, size_t ncols,
			       const enum slot *slot, long tasks, size_t *bad_row, unsigned *applied)
{
	size_t i, j;

	*applied = 0;
	for (i = 0; i < nrows; i++) {
		struct slot_row sr;
		const char *why;

		for (j = 0; j < S_NONE; j++) {
			sr.v[j] = NAN;
			sr.suffix[j] = 0;
		}
		for (j = 0; j < ncols; j++) {
			const struct cell *c = &rows[i].cells[j];
			if (slot[j] == S_NONE || c->missing ||
			    (c->mean == 0 && never_zero(slot_metric[slot[j]])))
				continue;
			sr.v[slot[j]] = c->mean;
			sr.suffix[slot[j]] = c->suffix;
		}
		why = row_check(&sr, tasks, applied);
		if (why) {
			*bad_row = i;
			return why;
		}
	}
	return NULL;
}

/* "TotalSys < TotalUser, AvgUser <= Elapsed": the checks in mask. */
static const char *checks_text(struct rec_batch *out, unsigned mask)
{
	const char *s = "";
	size_t k;

	for (k = 0; k < ARRAY_SIZE(check_names); k++)
		if (mask & (1u << k))
			s = arena_printf(&out->arena, "%s%s%s", s, *s ? ", " : "", check_names[k]);
	return s;
}

/* "AvgUser Elapsed TotalUser TotalSys" of a column order, for notes. */
static const char *order_text(struct rec_batch *out, const enum slot *slot, size_t ncols)
{
	const char *s = "";
	size_t j;

	for (j = 0; j < ncols; j++)
		if (slot[j] != S_NONE)
			s = arena_printf(&out->arena, "%s%s%s", s, *s ? " " : "", slot_heading[slot[j]]);
	return s;
}

/*
 * Decide which metric each column holds.  The header as printed wins
 * when its rows pass their checks.  When they fail, the one other order
 * of the same columns that passes is taken (the fewest columns moved when
 * several pass), and a note says so; when none or two equally good pass,
 * the table is refused naming the check that failed.
 */
static int decide_columns(const struct ingest_ctx *ctx, const struct table *t,
			  const struct col_row *rows, size_t nrows, struct rec_batch *out,
			  enum slot *slot, struct kb_err *err)
{
	enum slot best[MAX_TOKS], trial[MAX_TOKS];
	size_t pos[S_NONE], npos = 0, j, bad = 0, best_moved = (size_t)-1, nbest = 0;
	long tasks = 0;
	unsigned code, ncodes = 1, used;
	const char *why;
	unsigned applied, best_applied = 0;
	int seen[S_NONE] = { 0 };

	for (j = 0; j < t->ncols; j++)
		slot[j] = slot_of(t->metric[j]);
	for (j = 0; j < t->ncols; j++) {
		if (slot[j] == S_NONE)
			continue;
		if (seen[slot[j]]++)
			return 0;       /* a heading twice: nothing to check against */
		pos[npos++] = j;
	}
	if (t->title_n.len)
		num_parse_long(t->title_n.s, t->title_n.len, &tasks);
	why = table_check(rows, nrows, t->ncols, slot, tasks, &bad, &applied);
	if (!why) {
		if (applied)
			rec_note(out, rows[0].line, "columns as the header names them (%s): every row passes %s",
				 order_text(out, slot, t->ncols), checks_text(out, applied));
		return 0;
	}
	/* Every order of the same headings over the same columns (at most
	 * 4! of them): linear in the rows. */
	for (j = 0; j < npos && npos <= 4; j++)
		ncodes *= (unsigned)npos;
	if (npos > 4)
		ncodes = 0;     /* no table has more than 4 of these */
	for (code = 0; code < ncodes; code++) {
		unsigned c = code;
		size_t moved = 0, bad2;
		int ok = 1;
		unsigned applied2;

		memcpy(trial, slot, sizeof(*slot) * t->ncols);
		used = 0;
		for (j = 0; j < npos; j++, c /= (unsigned)npos) {
			if (used & (1u << (c % npos)))
				ok = 0;
			used |= 1u << (c % npos);
			trial[pos[j]] = slot[pos[c % npos]];
			moved += trial[pos[j]] != slot[pos[j]];
		}
		if (!ok || moved == 0 ||
		    table_check(rows, nrows, t->ncols, trial, tasks, &bad2, &applied2) || !applied2)
			continue;
		if (moved < best_moved) {
			best_moved = moved;
			nbest = 0;
		}
		if (moved == best_moved && nbest++ == 0) {
			memcpy(best, trial, sizeof(*slot) * t->ncols);
			best_applied = applied2;
		}
	}
	if (nbest != 1)
		return kb_err_set(err, ctx->path, rows[bad].line,
				  "summary table: row '%s' fails %s with the columns as the header "
				  "names them (%s), and %s",
				  rows[bad].variant, why, order_text(out, slot, t->ncols),
				  nbest ? "more than one other order of them passes"
					: "no other order of them passes");
	rec_note(out, rows[0].line,
		 "the header says %s but row '%s' fails %s; as %s every row passes %s: "
		 "columns read so", order_text(out, slot, t->ncols), rows[bad].variant, why,
		 order_text(out, best, t->ncols), checks_text(out, best_applied));
	memcpy(slot, best, sizeof(*slot) * t->ncols);
	return 0;
}

/* Store a column table's rows with column j holding metric slot[j]. */
static void emit_columns(const struct emit *e, const struct col_row *rows, size_t nrows,
			 const enum slot *slot)
{
	const struct table *t = e->t;
	size_t i, j;

	for (i = 0; i < nrows; i++) {
		for (j = 0; j < t->ncols - (t->has_runs ? 1 : 0); j++) {
			const struct cell *c = &rows[i].cells[j];
			const struct metric *m = t->metric[j];
			const char *metric, *unit;

			if (c->missing)
				continue;
			if (slot[j] != S_NONE) {
				size_t k;
				metric = slot_metric[slot[j]];
				for (k = 0; k < ARRAY_SIZE(column_metrics); k++)
					if (strcmp(column_metrics[k].name, metric) == 0)
						break;
				unit = column_metrics[k].unit;
			} else {
				metric = m ? m->name : heading_metric(e->out, &t->cols[j]);
				unit = m ? m->unit : "";
			}
			if (c->mean == 0 && never_zero(metric)) {
				rec_note(e->out, rows[i].line,
					 "'%s' %s 0.00 is a placeholder (no run measures it as zero): no summary",
					 rows[i].variant, metric);
				continue;
			}
			emit(e, rows[i].variant, metric, unit, c, rows[i].runs, NULL, NULL, rows[i].line);
		}
	}
}

static int sumtable_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			  size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct table t;
	struct emit e;
	struct ingest_tok tasks = { NULL, 0 };
	struct col_row *rows = NULL;
	size_t nrows = 0, rows_cap = 0, i, j;
	enum slot slot[MAX_TOKS];

	if (n < 2 || !scan_head(lines, n, &t))
		return kb_err_set(err, ctx->path, lines[0].lineno, "not a summary table");
	e.ctx = ctx;
	e.out = out;
	e.t = &t;
	for (i = 0; i < t.nlegend; i++) {
		const struct ingest_line *l = &lines[t.legend[i]];
		struct rx_cap cap[3];
		if (rx_match(&legend_rx, l->s, l->len, cap, 3) == 3)
			rec_variant_add(out, arena_strndup(&out->arena, cap[1].s, cap[1].len),
					arena_strndup(&out->arena, cap[2].s, cap[2].len), NULL, l->lineno);
	}
	for (i = t.first_row; i < n; i++) {
		const struct ingest_line *l = &lines[i];
		struct row r;
		const char *variant;
		size_t nvalues;
		long runs = 0;

		if (ingest_line_blank(l))
			continue;
		if (table_row(&t, lines, i, n, &r) < 0)
			return kb_err_set(err, ctx->path, l->lineno,
					  "summary table row expected: a label and values");
		if (r.annot)
			rec_note(out, l->lineno, "'%.*s' after the values is the author's remark: not stored",
				 (int)str_rtrim_len(r.annot, r.annot_len), r.annot);
		if (r.blank) {
			rec_note(out, l->lineno, "'%.*s' has no values (a blank row): no summary",
				 (int)r.label.len, r.label.s);
			continue;
		}
		nvalues = r.ncells;
		if (r.ncells > r.nstored)
			return kb_err_set(err, ctx->path, l->lineno,
					  "summary table row has %zu values, more than any header", r.ncells);
		if (t.kind != TABLE_MATRIX && all_zero(r.cells, nvalues)) {
			rec_note(out, l->lineno, "'%.*s' holds only zeros (no run was measured): no summary",
				 (int)r.label.len, r.label.s);
			continue;
		}
		switch (t.kind) {
		case TABLE_GRID:
			if (nvalues > t.ncols)
				return kb_err_set(err, ctx->path, l->lineno,
						  "summary table row has %zu values but the header has %zu columns",
						  nvalues, t.ncols);
			variant = tok_dup(out, &r.label);
			for (j = 0; j < nvalues; j++) {
				if (r.cells[j].missing)
					continue;
				if (r.cells[j].mean == 0 && never_zero(t.bench->grid_metric)) {
					rec_note(out, l->lineno, "'%s' %s 0.00 is a placeholder: no summary",
						 variant, t.bench->grid_metric);
					continue;
				}
				emit(&e, variant, t.bench->grid_metric, t.bench->grid_unit,
				     &r.cells[j], 0, t.bench->n_key, &t.cols[j], l->lineno);
			}
			break;
		case TABLE_COLUMNS: {
			size_t nmetrics = t.ncols - (t.has_runs ? 1 : 0);
			struct col_row *cr;
			if (t.has_runs && nvalues > 0) {
				const struct cell *last = &r.cells[nvalues - 1];
				if (nvalues == t.ncols || (last->is_int && nvalues > 1)) {
					if (!last->missing && !last->is_int)
						return kb_err_set(err, ctx->path, l->lineno,
								  "Runs column is not a whole number");
					runs = last->missing ? 0 : (long)last->mean;
					nvalues--;
				}
			}
			if (nvalues > nmetrics)
				return kb_err_set(err, ctx->path, l->lineno,
						  "summary table row has %zu values but the header has %zu columns",
						  r.ncells, t.ncols);
			arena_grow(&out->arena, &rows, &rows_cap, nrows + 1, sizeof(*rows));
			cr = &rows[nrows++];
			cr->variant = tok_dup(out, &r.label);
			cr->line = l->lineno;
			cr->runs = runs;
			cr->cells = arena_alloc(&out->arena, sizeof(*cr->cells) * t.ncols);
			for (j = 0; j < t.ncols; j++) {
				if (j < nvalues)
					cr->cells[j] = r.cells[j];
				else
					cr->cells[j].missing = 1;
			}
			break;
		}
		case TABLE_MATRIX: {
			const struct metric *m;
			const char *metric;
			if (r.tasks.len)
				tasks = r.tasks;
			if (nvalues > t.ncols)
				return kb_err_set(err, ctx->path, l->lineno,
						  "summary table row has %zu values but the header names %zu variants",
						  nvalues, t.ncols);
			m = metric_for(matrix_codes, ARRAY_SIZE(matrix_codes), &r.label);
			metric = m ? m->name : heading_metric(out, &r.label);
			for (j = 0; j < nvalues; j++) {
				if (r.cells[j].missing)
					continue;
				if (r.cells[j].mean == 0 && never_zero(metric)) {
					rec_note(out, l->lineno, "'%.*s' %s 0.00 is a placeholder: no summary",
						 (int)t.cols[j].len, t.cols[j].s, metric);
					continue;
				}
				emit(&e, tok_dup(out, &t.cols[j]), metric, m ? m->unit : "",
				     &r.cells[j], 0, "tasks", &tasks, l->lineno);
			}
			break;
		}
		}
	}
	if (t.kind == TABLE_COLUMNS && nrows) {
		if (decide_columns(ctx, &t, rows, nrows, out, slot, err) < 0)
			return -1;
		emit_columns(&e, rows, nrows, slot);
	}
	return 0;
}

const struct ingest_parser sumtable_parser = {
	"summary-table", "published summary tables (mean(sd) per variant)",
	sumtable_claim, sumtable_parse,
};
