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
	int is_int;                 /* plain digits: may be a Runs count */
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
};

struct row {
	struct ingest_tok label;    /* variant (grid, columns) or metric code (matrix) */
	struct ingest_tok tasks;    /* matrix: "N=4" -> "4"; len 0 when absent */
	struct cell cells[MAX_TOKS];
	size_t ncells;              /* may exceed MAX_TOKS: only the first are stored */
	size_t nstored;
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

/* Parse "42.95(3.23)", "28.96s", "1260.6%", "(33.32)", "-", "(-)". */
static int parse_cell(const char *s, size_t len, struct cell *c)
{
	const char *p = s, *end = s + len;
	int paren = 0;

	memset(c, 0, sizeof(*c));
	c->mean = c->sd = NAN;
	if ((len == 1 && s[0] == '-') || (len == 2 && memcmp(s, "--", 2) == 0) ||
	    (len == 3 && memcmp(s, "(-)", 3) == 0) || (len == 3 && strncasecmp(s, "n/a", 3) == 0)) {
		c->missing = 1;
		return 0;
	}
	if (len >= 3 && s[0] == '(' && s[len - 1] == ')') {
		paren = 1;
		p++;
		end--;
	}
	if (p >= end || *p == ' ' || num_scan(&p, end, &c->mean) < 0)
		return -1;
	if (p < end && (*p == 's' || *p == '%'))
		p++;
	if (paren) {
		c->footnoted = 1;
		return p == end ? 0 : -1;
	}
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
	c->is_int = num_parse_long(s, len, &(long){ 0 }) == 0;
	return 0;
}

/* Cells from tok[0..n) into r; -1 when one is not a cell. */
static int scan_cells(const struct ingest_tok *tok, size_t n, size_t total, struct row *r)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (parse_cell(tok[i].s, tok[i].len, &r->cells[i]) < 0)
			return -1;
	r->nstored = n;
	r->ncells = total;
	return 0;
}

/* Read a table row.  Grid and column rows: a label, then cells.  Matrix
 * rows: optional "N=4", a metric code, then cells.  Returns -1 when the
 * line is not shaped like a row of this kind. */
static int scan_row(enum table_kind kind, const struct ingest_line *l, struct row *r)
{
	struct ingest_tok tok[MAX_TOKS + 2];
	size_t total = ingest_split(l->s, l->len, tok, ARRAY_SIZE(tok)), stored, i = 0;

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
	if (stored < i + 2)
		return -1;
	r->label = tok[i++];
	if (kind == TABLE_MATRIX) {
		/* A code is a short word: "U", "TU", "E", "H". */
		size_t k;
		if (r->label.len > 8)
			return -1;
		for (k = 0; k < r->label.len; k++)
			if (!((r->label.s[k] >= 'A' && r->label.s[k] <= 'Z') ||
			      (r->label.s[k] >= 'a' && r->label.s[k] <= 'z')))
				return -1;
	}
	if (stored - i > MAX_TOKS)
		stored = i + MAX_TOKS;
	return scan_cells(tok + i, stored - i, total - i, r);
}

static const struct bench *bench_named(const char *s, size_t len)
{
	if (len == 9 && strncasecmp(s, "hackbench", 9) == 0)
		return &benches[0];
	if (len == 9 && strncasecmp(s, "kernbench", 9) == 0)
		return &benches[2];
	return &benches[1];     /* numa_test, numatest, schedbench */
}

/* "Hackbench: (averages over 4 tests, execution time)", "numa_test: N=4",
 * "Kernbench:", "Schedbench 4:". */
static int scan_title(const struct ingest_line *l, struct table *t)
{
	static struct rx title = RXI("^\\s*(hackbench|numa_?test|schedbench|kernbench)"
				     "(?:\\s+(\\d+))?\\s*:\\s*(?:N\\s*=\\s*(\\d+))?\\s*"
				     "(?:\\((.*)\\))?\\s*$");
	static struct rx over = RXI("\\baverages?\\s+(?:of|over)\\s+(\\d+)\\b");
	struct rx_cap cap[5];
	unsigned char c = (unsigned char)lead_char(l);
	int got;

	/* The pattern is caseless, and in UTF mode that lets "K" and "s"
	 * match the Kelvin sign and the long s too: leave those (all bytes
	 * past ASCII) to the pattern. */
	c |= 0x20;
	if (c != 'h' && c != 'n' && c != 's' && c != 'k' && c < 0x80)
		return 0;
	got = rx_match(&title, l->s, l->len, cap, 5);
	if (got <= 0)
		return 0;
	t->bench = bench_named(cap[1].s, cap[1].len);
	if (got > 2 && cap[2].s) {
		t->title_n.s = cap[2].s;
		t->title_n.len = cap[2].len;
	} else if (got > 3 && cap[3].s) {
		t->title_n.s = cap[3].s;
		t->title_n.len = cap[3].len;
	}
	if (got > 4 && cap[4].s) {
		struct rx_cap oc[2];
		if (rx_match(&over, cap[4].s, cap[4].len, oc, 2) == 2)
			num_parse_long(oc[1].s, oc[1].len, &t->averaged_over);
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

/* "N: 10 25 50 100" */
static int scan_grid_header(const struct ingest_line *l, struct table *t)
{
	struct ingest_tok tok[MAX_TOKS + 1];
	size_t n = ingest_split(l->s, l->len, tok, ARRAY_SIZE(tok)), i;
	long v;

	if (n < 2 || n > ARRAY_SIZE(tok) ||
	    !(tok_ieq(&tok[0], "N:") || tok_ieq(&tok[0], "N") || tok_ieq(&tok[0], "groups:") ||
	      tok_ieq(&tok[0], "tasks:")))
		return 0;
	for (i = 1; i < n; i++) {
		if (num_parse_long(tok[i].s, tok[i].len, &v) < 0)
			return 0;
		t->cols[i - 1] = tok[i];
	}
	t->ncols = n - 1;
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

/* Recognise a table's title and header from lines[0]; fills t and
 * returns 1, or 0 when lines[0] does not start a summary table. */
static int scan_head(const struct ingest_line *lines, size_t n, struct table *t)
{
	size_t i = 0, gap = 0;
	struct row r;

	memset(t, 0, sizeof(*t));
	if (scan_title(&lines[0], t)) {
		/* Rules and up to two blank lines may separate title and header. */
		for (i = 1; i < n && (is_rule(&lines[i]) || ingest_line_blank(&lines[i])); i++)
			if (ingest_line_blank(&lines[i]) && ++gap > 2)
				return 0;
		if (i >= n)
			return 0;
		if (!scan_grid_header(&lines[i], t) && !scan_column_header(&lines[i], t) &&
		    !scan_matrix_header(&lines[i], t))
			return 0;
	} else {
		if (is_rule(&lines[0]))
			i = 1;
		if (i >= n || !scan_matrix_header(&lines[i], t))
			return 0;
	}
	t->header = i;
	t->first_row = i + 1;
	if (t->first_row >= n || scan_row(t->kind, &lines[t->first_row], &r) < 0)
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
	if (!c || ((unsigned char)c < 0x80 && !strchr("hHnNsSkK-=_", c)))
		return 0;
	if (n < 2 || !scan_head(lines, n, &t))
		return 0;
	for (i = t.first_row; i < n && scan_row(t.kind, &lines[i], &r) == 0; i++)
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
	if (t->title_n.len)
		rec_summary_config(e->out, s, n_key, tok_dup(e->out, &t->title_n));
	if (key && value && value->len)
		rec_summary_config(e->out, s, key, tok_dup(e->out, value));
}

static int sumtable_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			  size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct table t;
	struct emit e;
	struct ingest_tok tasks = { NULL, 0 };
	size_t i, j;

	if (n < 2 || !scan_head(lines, n, &t))
		return kb_err_set(err, ctx->path, lines[0].lineno, "not a summary table");
	e.ctx = ctx;
	e.out = out;
	e.t = &t;
	for (i = t.first_row; i < n; i++) {
		const struct ingest_line *l = &lines[i];
		struct row r;
		const char *variant;
		size_t nvalues;
		long runs = 0;

		if (ingest_line_blank(l))
			continue;
		if (scan_row(t.kind, l, &r) < 0)
			return kb_err_set(err, ctx->path, l->lineno,
					  "summary table row expected: a label and values");
		nvalues = r.ncells;
		if (r.ncells > r.nstored)
			return kb_err_set(err, ctx->path, l->lineno,
					  "summary table row has %zu values, more than any header", r.ncells);
		switch (t.kind) {
		case TABLE_GRID:
			if (nvalues > t.ncols)
				return kb_err_set(err, ctx->path, l->lineno,
						  "summary table row has %zu values but the header has %zu columns",
						  nvalues, t.ncols);
			variant = tok_dup(out, &r.label);
			for (j = 0; j < nvalues; j++)
				if (!r.cells[j].missing)
					emit(&e, variant, t.bench->grid_metric, t.bench->grid_unit,
					     &r.cells[j], 0, t.bench->n_key, &t.cols[j], l->lineno);
			break;
		case TABLE_COLUMNS: {
			size_t nmetrics = t.ncols - (t.has_runs ? 1 : 0);
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
			variant = tok_dup(out, &r.label);
			for (j = 0; j < nvalues; j++) {
				const struct metric *m = t.metric[j];
				if (r.cells[j].missing)
					continue;
				emit(&e, variant, m ? m->name : heading_metric(out, &t.cols[j]),
				     m ? m->unit : "", &r.cells[j], runs, NULL, NULL, l->lineno);
			}
			break;
		}
		case TABLE_MATRIX: {
			const struct metric *m;
			if (r.tasks.len)
				tasks = r.tasks;
			if (nvalues > t.ncols)
				return kb_err_set(err, ctx->path, l->lineno,
						  "summary table row has %zu values but the header names %zu variants",
						  nvalues, t.ncols);
			m = metric_for(matrix_codes, ARRAY_SIZE(matrix_codes), &r.label);
			for (j = 0; j < nvalues; j++) {
				if (r.cells[j].missing)
					continue;
				emit(&e, tok_dup(out, &t.cols[j]),
				     m ? m->name : heading_metric(out, &r.label), m ? m->unit : "",
				     &r.cells[j], 0, "tasks", &tasks, l->lineno);
			}
			break;
		}
		}
	}
	return 0;
}

const struct ingest_parser sumtable_parser = {
	"summary-table", "published summary tables (mean(sd) per variant)",
	sumtable_claim, sumtable_parse,
};
