/*
 * numatest.c - Erich Focht's numa_test ("schedbench") output.
 *
 *   Executing 8 times: ./randupdt 1000000
 *   Running 'hackbench 20' in the background: Time: 9.458
 *   Job  node00 node01 node02 node03 | iSched MSched | UserTime(s)
 *     4     0.0    0.0    0.0  100.0 |    3     3    |  24.15
 *     5    13.1    0.0    0.0   86.9 |    0     3   *|  33.36
 *   AverageUserTime 28.40 seconds
 *   ElapsedTime     42.25
 *   TotalUserTime   227.26
 *   TotalSysTime    1.67
 *
 * and the older "disp" script of the affinity test:
 *
 *   Executing 4 times: ./affinity 1000000
 *   -----------------------------------------------------------------------
 *                   % Time on Node            Scheduled node
 *   Job        0       1       2       3       Max  (m , i)      Time (s)
 *   -----------------------------------------------------------------------
 *   1       100.0     0.0     0.0     0.0   | 100.0 (0 = 0)   |   29.5
 *   -----------------------------------------------------------------------
 *    Average user time = 28.00 seconds
 *
 * One block (Executing line through the last footer line) is one run.
 * Its configuration is tasks=N and, when the block has the "Running ...
 * in the background" line, disturb= the disturbance's words joined by
 * ':' (disturb=hackbench:20): runs beside 'hackbench 10' and 'hackbench
 * 20' are different configurations.  The published tables of the same
 * post inherit it (numatest_inherit_disturbance(), at the end).
 * Either preamble line may be missing (mail posts often drop them), and
 * so may the footer; the table itself must be whole.  The number of node
 * columns is whatever the header lists.
 */
#include "parsers.h"

#include <math.h>
#include <string.h>

#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#define NT_MAX_NODES 1024
#define NT_NONE ((size_t)-1)

enum nt_kind {
	NT_OTHER,
	NT_BLANK,
	NT_EXEC,        /* Executing N times: ... */
	NT_HACKBENCH,   /* Running 'hackbench 20' in the background: Time: x */
	NT_DASH,        /* ------------ (disp layout rules) */
	NT_DISP_TITLE,  /* % Time on Node   Scheduled node */
	NT_HEADER,      /* Job node00 node01 ... | iSched MSched | UserTime(s) */
	NT_DISP_HEADER, /* Job 0 1 2 3 Max (m , i) Time (s) */
	NT_ROW,         /* a line that starts like a job row */
	NT_FOOTER,      /* AverageUserTime ..., ElapsedTime ..., ... */
};

/* Footer keys, as bits so a block takes each at most once. */
enum {
	FT_AVG = 1, FT_ELAPSED = 2, FT_TUSER = 4, FT_TSYS = 8,
};

static int prefix_is(const char *s, const char *end, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(end - s) >= n && memcmp(s, word, n) == 0;
}

static struct rx rx_exec = RX("^\\s*Executing\\s+(\\d+)\\s+times?\\s*:");

/* The first max blank-separated tokens of s[0..len): returns how many
 * were found (at most max).  Unlike ingest_split() it stops there rather
 * than counting the rest of a long job row. */
static size_t split_first(const char *s, size_t len, struct ingest_tok *tok, size_t max)
{
	const char *p = s, *end = s + len;
	size_t n = 0;

	while (n < max) {
		p = str_skip_ws(p, end);
		if (p >= end)
			break;
		tok[n].s = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		tok[n].len = (size_t)(p - tok[n].s);
		n++;
	}
	return n;
}

/* What a line is, judged from its first characters (cheap).  For footer
 * lines *key gets the footer bit. */
static enum nt_kind line_kind(const struct ingest_line *l, int *key)
{
	const char *end = l->s + l->len;
	const char *s = str_skip_ws(l->s, end);
	struct ingest_tok tok[3];
	size_t ntok;

	*key = 0;
	if (s == end)
		return NT_BLANK;
	switch (*s) {
	case 'E':
		if (prefix_is(s, end, "ElapsedTime")) {
			*key = FT_ELAPSED;
			return NT_FOOTER;
		}
		if (prefix_is(s, end, "Executing")) {
			struct rx_cap cap[1];
			if (rx_match(&rx_exec, l->s, l->len, cap, 1) > 0)
				return NT_EXEC;
		}
		return NT_OTHER;
	case 'R':
		return prefix_is(s, end, "Running 'hackbench") ? NT_HACKBENCH : NT_OTHER;
	case '-': {
		const char *p = s;
		while (p < end && *p == '-')
			p++;
		return p - s >= 10 && str_skip_ws(p, end) == end ? NT_DASH : NT_OTHER;
	}
	case '%':
		return str_find(s, (size_t)(end - s), "Time on Node") ? NT_DISP_TITLE : NT_OTHER;
	case 'J':
		ntok = split_first(s, (size_t)(end - s), tok, 3);
		if (ntok < 3 || !ingest_tok_is(&tok[0], "Job"))
			return NT_OTHER;
		if (tok[1].len > 4 && memcmp(tok[1].s, "node", 4) == 0 &&
		    str_all_digits(tok[1].s + 4, tok[1].len - 4))
			return NT_HEADER;
		if (ingest_tok_is(&tok[1], "0") && ingest_tok_is(&tok[2], "1"))
			return NT_DISP_HEADER;
		return NT_OTHER;
	case 'A':
		if (prefix_is(s, end, "AverageUserTime") || prefix_is(s, end, "Average user time")) {
			*key = FT_AVG;
			return NT_FOOTER;
		}
		return NT_OTHER;
	case 'T':
		if (prefix_is(s, end, "TotalUserTime")) {
			*key = FT_TUSER;
			return NT_FOOTER;
		}
		if (prefix_is(s, end, "TotalSysTime")) {
			*key = FT_TSYS;
			return NT_FOOTER;
		}
		return NT_OTHER;
	default:
		break;
	}
	if (*s >= '0' && *s <= '9') {
		/* A job number followed by a '|' column or a percentage: a
		 * row, possibly a broken one the parser will reject. */
		double v;
		ntok = split_first(s, (size_t)(end - s), tok, 2);
		if (ntok < 2 || !str_all_digits(tok[0].s, tok[0].len))
			return NT_OTHER;
		if (memchr(s, '|', (size_t)(end - s)) || num_parse(tok[1].s, tok[1].len, &v) == 0)
			return NT_ROW;
	}
	return NT_OTHER;
}

static enum nt_kind kind_at(const struct ingest_line *lines, size_t i, size_t n)
{
	int key;
	return i < n ? line_kind(&lines[i], &key) : NT_OTHER;
}

/* Where the parts of one block are. */
struct nt_block {
	size_t exec, hackbench, header;
	int disp;
	size_t row0, row1;      /* job rows [row0, row1) */
	size_t end;             /* lines in the block */
};

/*
 * Find the block starting at lines[0]: preamble lines, the table header,
 * the rows and the footer.  Returns the number of lines, or 0 when
 * lines[0] does not start a block (no header follows the preamble).
 */
static size_t block_scan(const struct ingest_line *lines, size_t n, struct nt_block *b)
{
	size_t i = 0;
	int seen = 0, key;

	b->exec = b->hackbench = b->header = NT_NONE;
	b->disp = 0;
	while (b->header == NT_NONE) {
		if (i >= n)
			return 0;
		switch (line_kind(&lines[i], &key)) {
		case NT_BLANK:
			/* One blank line may part preamble lines. */
			if (i == 0 || kind_at(lines, i + 1, n) == NT_BLANK)
				return 0;
			break;
		case NT_EXEC:
			if (i != 0)
				return 0;       /* the next block's, or a stray one */
			b->exec = i;
			break;
		case NT_HACKBENCH:
			if (b->hackbench != NT_NONE || b->disp)
				return 0;
			b->hackbench = i;
			break;
		case NT_DASH: {
			enum nt_kind next = kind_at(lines, i + 1, n);
			if (b->disp || (next != NT_DISP_TITLE && next != NT_DISP_HEADER))
				return 0;
			b->disp = 1;
			break;
		}
		case NT_DISP_TITLE:
			if (kind_at(lines, i + 1, n) != NT_DISP_HEADER)
				return 0;
			b->disp = 1;
			break;
		case NT_HEADER:
			if (b->disp)
				return 0;
			b->header = i;
			break;
		case NT_DISP_HEADER:
			b->disp = 1;
			b->header = i;
			break;
		default:
			return 0;
		}
		i++;
	}
	if (b->disp && kind_at(lines, i, n) == NT_DASH)
		i++;
	b->row0 = i;
	while (i < n && line_kind(&lines[i], &key) == NT_ROW)
		i++;
	b->row1 = i;
	if (b->disp && kind_at(lines, i, n) == NT_DASH)
		i++;
	b->end = i;
	/* Footer lines, each key once; GNU time's may follow after one
	 * blank line. */
	for (;;) {
		size_t t = i;
		if (t < n && ingest_line_blank(&lines[t]))
			t++;
		if (t >= n || line_kind(&lines[t], &key) != NT_FOOTER || (seen & key))
			break;
		seen |= key;
		i = t + 1;
		b->end = i;
	}
	/* A bare header (a README quoting it) is prose; after an Executing
	 * line it is a table cut short, which parse reports. */
	if (b->row0 == b->row1 && !seen && b->exec == NT_NONE)
		return 0;
	return b->end;
}

static size_t numatest_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			 size_t n, int *score)
{
	struct nt_block b;
	const char *s = str_skip_ws(lines[0].s, lines[0].s + lines[0].len);
	size_t len;

	*score = 0;
	if (*s != 'E' && *s != 'R' && *s != 'J' && *s != '-' && *s != '%')
		return 0;
	len = block_scan(lines, n, &b);
	if (len)
		*score = 95;
	return len;
}

/* Parsing ---------------------------------------------------------------- */

static int parse_number(const struct ingest_ctx *ctx, const struct ingest_line *l,
			const char *s, size_t len, const char *what, double *out,
			struct kb_err *err)
{
	if (num_parse(s, len, out) < 0 || !isfinite(*out))
		return kb_err_set(err, ctx->path, l->lineno, "numa_test: %s '%.*s' is not a number",
				  what, (int)len, s);
	return 0;
}

struct nt_row {
	long job;
	int initial, main, moved, marked;
	double user;
	double *pct;            /* one per node column */
	struct ingest_tok *tok; /* scratch for splitting a row */
	size_t ntok;            /* room in tok: nodes + 2 */
};

/* Node columns in the header line.  Also sizes the row's scratch
 * token array (from the batch's arena). */
static int header_nodes(const struct ingest_ctx *ctx, const struct ingest_line *l, int disp,
			struct rec_batch *out, struct nt_row *row, struct kb_err *err)
{
	const char *bar = memchr(l->s, '|', l->len);
	size_t len = bar ? (size_t)(bar - l->s) : l->len;
	size_t ntok = ingest_split(l->s, len, NULL, 0), i;
	struct ingest_tok *tok;
	int nodes = 0;

	if (ntok > NT_MAX_NODES + 8)
		return kb_err_set(err, ctx->path, l->lineno, "numa_test: too many node columns (at most %d)",
				  NT_MAX_NODES);
	tok = arena_alloc(&out->arena, (ntok + 2) * sizeof(*tok));
	ingest_split(l->s, len, tok, ntok);
	for (i = 1; i < ntok; i++) {
		const struct ingest_tok *t = &tok[i];
		if (disp ? !str_all_digits(t->s, t->len)
			 : !(t->len > 4 && memcmp(t->s, "node", 4) == 0 &&
			     str_all_digits(t->s + 4, t->len - 4)))
			break;
		nodes++;
	}
	if (nodes == 0)
		return kb_err_set(err, ctx->path, l->lineno, "numa_test: job table header lists no nodes");
	if (nodes > NT_MAX_NODES)
		return kb_err_set(err, ctx->path, l->lineno, "numa_test: too many node columns (at most %d)",
				  NT_MAX_NODES);
	row->tok = tok;
	row->ntok = (size_t)nodes + 2;
	row->pct = arena_alloc(&out->arena, (size_t)nodes * sizeof(*row->pct));
	return nodes;
}

static int parse_node(const struct ingest_tok *t, int *out)
{
	long v;

	if (num_parse_long(t->s, t->len, &v) < 0 || v < 0 || v > 100000)
		return -1;
	*out = (int)v;
	return 0;
}

/* The middle column of a row: "0 3 *" (the mark may be glued to either
 * side) or, in the disp layout, "100.0 (3 = 0)" = max, main, initial. */
static int parse_sched(const struct ingest_ctx *ctx, const struct ingest_line *l, int disp,
		       const char *s, size_t len, struct nt_row *row, struct kb_err *err)
{
	static struct rx rx_disp = RX("^\\s*(\\S+)\\s*\\(\\s*(\\d+)\\s*([^\\d\\s)]*)\\s*(\\d+)\\s*\\)\\s*$");
	struct rx_cap cap[5];
	struct ingest_tok tok[4];
	char buf[128];
	size_t i, ntok;
	double max;

	row->moved = 0;
	row->marked = 0;
	if (disp) {
		struct ingest_tok m, in;
		if (rx_match(&rx_disp, s, len, cap, 5) != 5)
			return kb_err_set(err, ctx->path, l->lineno,
					  "numa_test: job %ld: expected 'Max (main = initial)', found '%.*s'",
					  row->job, (int)len, s);
		if (parse_number(ctx, l, cap[1].s, cap[1].len, "maximum percentage", &max, err) < 0)
			return -1;
		m.s = cap[2].s; m.len = cap[2].len;
		in.s = cap[4].s; in.len = cap[4].len;
		if (parse_node(&m, &row->main) < 0 || parse_node(&in, &row->initial) < 0)
			return kb_err_set(err, ctx->path, l->lineno, "numa_test: job %ld: bad node number",
					  row->job);
		if (memchr(cap[3].s ? cap[3].s : "", '*', cap[3].len) ||
		    memchr(cap[3].s ? cap[3].s : "", '!', cap[3].len))
			row->moved = row->marked = 1;
		return 0;
	}
	if (len >= sizeof(buf))
		return kb_err_set(err, ctx->path, l->lineno, "numa_test: job %ld: node columns too long",
				  row->job);
	for (i = 0; i < len; i++) {
		buf[i] = s[i];
		if (s[i] == '*') {
			buf[i] = ' ';
			row->moved = row->marked = 1;
		}
	}
	ntok = ingest_split(buf, len, tok, ARRAY_SIZE(tok));
	if (ntok != 2 || parse_node(&tok[0], &row->initial) < 0 || parse_node(&tok[1], &row->main) < 0)
		return kb_err_set(err, ctx->path, l->lineno,
				  "numa_test: job %ld: expected 'iSched MSched [*]', found '%.*s'",
				  row->job, (int)len, s);
	return 0;
}

static int parse_row(const struct ingest_ctx *ctx, const struct ingest_line *l, int disp,
		     int nodes, struct nt_row *row, struct kb_err *err)
{
	struct ingest_tok *tok = row->tok;
	const char *end = l->s + l->len;
	const char *bar1 = memchr(l->s, '|', l->len), *bar2;
	size_t ntok;
	double sum = 0, slack;
	int i;

	ntok = ingest_split(l->s, bar1 ? (size_t)(bar1 - l->s) : l->len, tok, row->ntok);
	if (num_parse_long(tok[0].s, tok[0].len, &row->job) < 0 || row->job <= 0 || row->job > 1000000)
		return kb_err_set(err, ctx->path, l->lineno, "numa_test: bad job number '%.*s'",
				  (int)tok[0].len, tok[0].s);
	if (!bar1)
		return kb_err_set(err, ctx->path, l->lineno,
				  "numa_test: job %ld: row is cut short (no node, user time columns)",
				  row->job);
	if (ntok - 1 != (size_t)nodes)
		return kb_err_set(err, ctx->path, l->lineno,
				  "numa_test: job %ld: %zu node percentages, the header lists %d nodes",
				  row->job, ntok - 1, nodes);
	for (i = 0; i < nodes; i++) {
		double *p = &row->pct[i];
		if (parse_number(ctx, l, tok[i + 1].s, tok[i + 1].len, "node percentage", p, err) < 0)
			return -1;
		if (*p < 0 || *p > 100.05)
			return kb_err_set(err, ctx->path, l->lineno,
					  "numa_test: job %ld: %.*s%% on node %d is out of range",
					  row->job, (int)tok[i + 1].len, tok[i + 1].s, i);
		sum += *p;
	}
	/* Each value is rounded to 0.1; allow that and some lost ticks. */
	slack = 10 + 0.05 * nodes;
	if (fabs(sum - 100) > slack)
		return kb_err_set(err, ctx->path, l->lineno,
				  "numa_test: job %ld: node percentages add up to %.1f, not 100",
				  row->job, sum);

	bar2 = memchr(bar1 + 1, '|', (size_t)(end - bar1 - 1));
	if (!bar2)
		return kb_err_set(err, ctx->path, l->lineno,
				  "numa_test: job %ld: row is cut short (no user time column)", row->job);
	if (parse_sched(ctx, l, disp, bar1 + 1, (size_t)(bar2 - bar1 - 1), row, err) < 0)
		return -1;
	if (row->initial != row->main)
		row->moved = 1;
	ntok = ingest_split(bar2 + 1, (size_t)(end - bar2 - 1), tok, 2);
	if (ntok == 0)
		return kb_err_set(err, ctx->path, l->lineno,
				  "numa_test: job %ld: row is cut short (no user time)", row->job);
	if (ntok != 1)
		return kb_err_set(err, ctx->path, l->lineno,
				  "numa_test: job %ld: unexpected text after the user time", row->job);
	if (parse_number(ctx, l, tok[0].s, tok[0].len, "user time", &row->user, err) < 0)
		return -1;
	if (row->user < 0)
		return kb_err_set(err, ctx->path, l->lineno, "numa_test: job %ld: negative user time",
				  row->job);
	return 0;
}

static int parse_footer(const struct ingest_ctx *ctx, const struct ingest_line *l,
			struct rec_batch *out, struct rec_run *run, double *elapsed,
			struct kb_err *err)
{
	static struct rx rx_new = RX("^\\s*(AverageUserTime|ElapsedTime|TotalUserTime|TotalSysTime)"
				     "\\s*:?\\s+(\\S+)(?:\\s+seconds?)?\\s*$");
	static struct rx rx_old = RX("^\\s*Average user time\\s*[=:]\\s*(\\S+)(?:\\s+seconds?)?\\s*$");
	struct rx_cap cap[3];
	const char *metric = "avg_user";
	double v;

	if (rx_match(&rx_new, l->s, l->len, cap, 3) == 3) {
		if (cap[1].len == 11 && memcmp(cap[1].s, "ElapsedTime", 11) == 0)
			metric = "elapsed";
		else if (memcmp(cap[1].s, "TotalUser", 9) == 0)
			metric = "total_user";
		else if (memcmp(cap[1].s, "TotalSys", 8) == 0)
			metric = "total_sys";
		cap[1] = cap[2];
	} else if (rx_match(&rx_old, l->s, l->len, cap, 2) != 2) {
		return kb_err_set(err, ctx->path, l->lineno, "numa_test: malformed footer line '%s'", l->s);
	}
	if (parse_number(ctx, l, cap[1].s, cap[1].len, metric, &v, err) < 0)
		return -1;
	if (v < 0)
		return kb_err_set(err, ctx->path, l->lineno, "numa_test: negative %s", metric);
	rec_sample_add(out, run, metric, v, "s", 0);
	if (strcmp(metric, "elapsed") == 0)
		*elapsed = v;
	return 0;
}

/*
 * The disturbance of "Running 'hackbench 20' in the background": the
 * quoted command, its words joined by ':' ("hackbench:20"), into the
 * run's config as disturb=.  Runs with other disturbances (or none) are
 * other configurations and must not be pooled.  The join keeps the value
 * free of blanks (--config disturb=hackbench:20 needs no quoting) and
 * exact: a word may not hold ':' itself, so the command can be read back.
 */
static int parse_disturbance(const struct ingest_ctx *ctx, const struct ingest_line *l,
			     struct rec_batch *out, struct rec_run *run, struct kb_err *err)
{
	static struct rx rx_cmd = RX("^\\s*Running\\s+'([^']*)'");
	struct rx_cap cap[2];
	char *value, *p;
	size_t i;

	if (rx_match(&rx_cmd, l->s, l->len, cap, 2) != 2)
		return kb_err_set(err, ctx->path, l->lineno,
				  "numa_test: the disturbance command in '%s' has no closing quote", l->s);
	value = arena_alloc(&out->arena, cap[1].len + 1);
	p = value;
	for (i = 0; i < cap[1].len; i++) {
		char c = cap[1].s[i];
		if (c == ' ') {
			if (p > value && p[-1] != ':')
				*p++ = ':';
			continue;
		}
		if (c == ':' || (unsigned char)c < 0x21 || (unsigned char)c > 0x7e)
			return kb_err_set(err, ctx->path, l->lineno,
					  "numa_test: cannot record the disturbance command '%.*s' "
					  "(':' or a control character in it)", (int)cap[1].len, cap[1].s);
		*p++ = c;
	}
	if (p > value && p[-1] == ':')
		p--;
	*p = '\0';
	rec_run_config(out, run, "disturb", value);
	return 0;
}

static int numatest_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			  size_t n, struct rec_batch *out, struct kb_err *err)
{
	static struct rx rx_hack = RX("^\\s*Running\\s+'hackbench[^']*'.*?:\\s*Time:\\s*(\\S+)\\s*$");
	struct nt_row row;
	struct rx_cap cap[2];
	struct nt_block b;
	struct rec_run *run;
	long tasks = 0;
	double hackbench = NAN, elapsed = NAN;
	size_t i, nrows = 0, footer0;
	int nodes;

	if (n == 0 || block_scan(lines, n, &b) != n)
		return kb_err_set(err, ctx->path, n ? lines[0].lineno : 0,
				  "numa_test: not a numa_test block");
	footer0 = b.row1;
	if (b.disp && footer0 < n && kind_at(lines, footer0, n) == NT_DASH)
		footer0++;
	footer0 = ingest_skip_blank(lines, footer0, n);

	if (b.row0 == b.row1) {
		if (footer0 < n)
			return kb_err_set(err, ctx->path, lines[footer0].lineno,
					  "numa_test: footer with no job rows above it");
		return kb_err_set(err, ctx->path, lines[b.header].lineno,
				  "numa_test: job table header with no rows");
	}
	if (b.exec != NT_NONE) {
		if (rx_match(&rx_exec, lines[b.exec].s, lines[b.exec].len, cap, 2) != 2 ||
		    num_parse_long(cap[1].s, cap[1].len, &tasks) < 0 || tasks <= 0)
			return kb_err_set(err, ctx->path, lines[b.exec].lineno,
					  "numa_test: bad task count in '%s'", lines[b.exec].s);
		nrows = b.row1 - b.row0;
		if (nrows > (size_t)tasks)
			return kb_err_set(err, ctx->path, lines[b.row0 + tasks].lineno,
					  "numa_test: job table has %zu rows, 'Executing %ld times' announced %ld",
					  nrows, tasks, tasks);
		if (nrows < (size_t)tasks && footer0 >= n)
			return kb_err_set(err, ctx->path, lines[b.row1 - 1].lineno,
					  "numa_test: job table is truncated: it ends after %zu of %ld jobs "
					  "and has no footer", nrows, tasks);
	}
	nodes = header_nodes(ctx, &lines[b.header], b.disp, out, &row, err);
	if (nodes < 0)
		return -1;

	run = rec_run_new(out, "numa_test", lines[0].lineno);
	rec_run_configf(out, run, "tasks", "%ld", tasks ? tasks : (long)(b.row1 - b.row0));
	if (b.hackbench != NT_NONE) {
		const struct ingest_line *l = &lines[b.hackbench];
		if (parse_disturbance(ctx, l, out, run, err) < 0)
			return -1;
		if (rx_match(&rx_hack, l->s, l->len, cap, 2) == 2) {
			if (parse_number(ctx, l, cap[1].s, cap[1].len, "hackbench time", &hackbench, err) < 0)
				return -1;
			rec_sample_add(out, run, "hackbench", hackbench, "s", 0);
		}
	}
	for (i = b.row0; i < b.row1; i++) {
		size_t k;
		if (parse_row(ctx, &lines[i], b.disp, nodes, &row, err) < 0)
			return -1;
		for (k = 0; k < run->njobs; k++)
			if (run->jobs[k].job == row.job)
				return kb_err_set(err, ctx->path, lines[i].lineno,
						  "numa_test: job %ld is listed twice", row.job);
		rec_job_add(out, run, (int)row.job, row.initial, row.main, row.moved, row.user,
			    row.pct, nodes)->marked = row.marked;
		rec_sample_add(out, run, "user", row.user, "s", (int)row.job);
	}
	for (i = footer0; i < n; i++) {
		if (ingest_line_blank(&lines[i]))
			continue;
		if (parse_footer(ctx, &lines[i], out, run, &elapsed, err) < 0)
			return -1;
	}
	if (!isnan(elapsed) && !isnan(hackbench))
		rec_sample_add(out, run, "elapsed_minus_hackbench", elapsed - hackbench, "s", 0);
	return 0;
}

const struct ingest_parser numatest_parser = {
	"numa_test",
	"numa_test / schedbench job tables (Erich Focht's NUMA scheduler test)",
	numatest_claim,
	numatest_parse,
};

/* Per-file pass ---------------------------------------------------------- */

static const char *summary_disturbance(const struct rec_summary *s)
{
	size_t i;

	for (i = 0; i < s->nconfig; i++)
		if (strcmp(s->config[i].key, "disturb") == 0)
			return s->config[i].value;
	return NULL;
}

/*
 * A published numa_test table (seed 001's "N=8 U 30.47 ...", seed 003's
 * "Schedbench 8:") does not say what ran beside the jobs; the raw blocks
 * of the same post do ("Running 'hackbench 20' in the background").  When
 * every raw numa_test block of the file states one and the same
 * disturbance, the file's numa_test summaries that state none take it,
 * flagged disturb_inherited and explained; otherwise they get none, and
 * the explanation says why.  A footnoted cell inherits too, and the note
 * says the footnote may tell otherwise (seed 001's: "The E:N=64 results
 * are without hackbench disturbance."; kbench does not read footnotes):
 * it stays untested unless --use-flagged, as before.  One pass over the
 * runs, one over the segments.
 */
void numatest_inherit_disturbance(struct rec_batch *b)
{
	const char *common = NULL, *other = NULL;
	size_t nraw = 0, nstated = 0, i, k;

	for (i = 0; i < b->nruns; i++) {
		const struct rec_run *r = b->runs[i];
		const char *d;
		if (strcmp(r->benchmark, "numa_test") != 0)
			continue;
		nraw++;
		if ((d = rec_run_config_get(r, "disturb")) == NULL)
			continue;
		nstated++;
		if (!common)
			common = d;
		else if (!other && strcmp(d, common) != 0)
			other = d;
	}
	if (nstated == 0)
		return;         /* nothing to inherit, and nothing to explain */
	for (i = 0; i < b->nsegments; i++) {
		const struct rec_segment *sg = &b->segments[i];
		size_t taken = 0, footnoted = 0, none = 0;

		for (k = sg->sum_first; k < sg->sum_first + sg->nsums && k < b->nsummaries; k++) {
			struct rec_summary *s = b->summaries[k];
			if (strcmp(s->benchmark, "numa_test") != 0 || summary_disturbance(s))
				continue;
			if (other || nstated < nraw) {
				none++;
				continue;
			}
			rec_summary_config(b, s, "disturb", common);
			s->flags = s->flags[0] ? arena_printf(&b->arena, "%s,disturb_inherited", s->flags)
					       : "disturb_inherited";
			taken++;
			footnoted += str_list_has(s->flags, "footnoted");
		}
		if (taken)
			rec_note(b, sg->first_line,
				 "numa_test summaries: the table states no disturbance; %zu cell%s take%s "
				 "disturb=%s from the file's %zu raw numa_test blocks, which all state it "
				 "(flagged disturb_inherited)", taken, taken == 1 ? "" : "s",
				 taken == 1 ? "s" : "", common, nraw);
		if (footnoted)
			rec_note(b, sg->first_line,
				 "numa_test summaries: footnoted among them: %zu; the footnote may say they "
				 "ran otherwise; they stay untested unless --use-flagged", footnoted);
		if (none && other)
			rec_note(b, sg->first_line,
				 "numa_test summaries: %zu cell%s get%s no disturbance: the file's raw "
				 "numa_test blocks state different ones (disturb=%s, disturb=%s)",
				 none, none == 1 ? "" : "s", none == 1 ? "s" : "", common, other);
		else if (none)
			rec_note(b, sg->first_line,
				 "numa_test summaries: %zu cell%s get%s no disturbance: only %zu of the "
				 "file's %zu raw numa_test blocks state%s one (disturb=%s)",
				 none, none == 1 ? "" : "s", none == 1 ? "s" : "", nstated, nraw,
				 nstated == 1 ? "s" : "", common);
	}
}
