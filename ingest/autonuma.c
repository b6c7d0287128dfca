/*
 * autonuma.c - Andrea Arcangeli's autonuma-benchmark: start_bench.sh
 * output and the per-kernel Min/Max/Avg tables people post.
 *
 *   gcc numa02.prep.c -O2 -lnuma -pthread -DSMT -o numa02_SMT     <- build noise,
 *   Hyper-Threading IS enabled.                                      never claimed
 *   numa01                          <- test name
 *   313.17                          <- its wall-clock seconds
 *   numa01_HARD_BIND
 *   120.33
 *   ...                             (one pass; a log holds several)
 *
 *           KernelVersion: 3.9.0-mainline_v39+() + mel's patches   <- prose: variant
 *                   Testcase:      Min      Max      Avg  %Change   (or with StdDev)
 *                     numa01:  1752.48  1859.60  1785.60    0.82%
 *                     numa02:    47.21    60.58    53.43  -39.00%
 *
 * Each name/seconds pair is one run (benchmark "autonuma", test=<name>,
 * metric elapsed).  A table row is a summary of elapsed: min, max, mean;
 * n is the user's --set runs=N, else "Ran N iterations" from the prose
 * above (ctx->runs_hint), else unknown.  %Change is the author's own
 * comparison with another row, derived data: it is checked but not
 * stored (kbench computes its own comparisons).
 */
#include "parsers.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <math.h>
#include <string.h>

static struct rx name_rx = RX("^\\s*(numa0[12](?:_[A-Za-z0-9_]+)?)\\s*$");
/* The seconds line, loosely: one token that starts like a number (parse()
 * rejects one that is not). */
static struct rx secs_rx = RX("^\\s*([0-9.][^\\s]*)\\s*$");
/* possessive (++): a long header needs no backtracking stack */
static struct rx header_rx = RX("^\\s*Testcase\\s*:((?:\\s++(?:Min|Max|Avg|Mean|Std\\.?[Dd]ev|SD|%Change))++)\\s*$");
static struct rx row_rx = RX("^\\s*([A-Za-z][A-Za-z0-9_]*)\\s*:\\s+(\\S.*?)\\s*$");

enum an_col { COL_MIN, COL_MAX, COL_MEAN, COL_SD, COL_CHANGE };

static size_t autonuma_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			 size_t n, int *score)
{
	const char *p = str_skip_ws(lines[0].s, lines[0].s + lines[0].len);
	size_t i = 0;

	if (*p == 'n') {
		while (i + 1 < n && ingest_line_matches(&name_rx, &lines[i]) &&
		       ingest_line_matches(&secs_rx, &lines[i + 1]))
			i += 2;
		*score = 70;
		return i;
	}
	if (*p == 'T' && ingest_line_matches(&header_rx, &lines[0])) {
		i = 1;
		while (i < n && ingest_line_matches(&row_rx, &lines[i]))
			i++;
		*score = 80;
		return i;
	}
	return 0;
}

/* Column kinds of a "Testcase:" header; returns how many, -1 if odd. */
static int header_columns(const struct ingest_line *l, enum an_col *col, int max)
{
	struct ingest_tok tok[16];
	size_t nt = ingest_split(l->s, l->len, tok, 16), i;
	int nc = 0;

	for (i = 1; i < nt && i < 16; i++) {       /* tok[0] is "Testcase:" */
		if (nc == max)
			return -1;
		if (ingest_tok_is(&tok[i], "Min"))
			col[nc++] = COL_MIN;
		else if (ingest_tok_is(&tok[i], "Max"))
			col[nc++] = COL_MAX;
		else if (ingest_tok_is(&tok[i], "Avg") || ingest_tok_is(&tok[i], "Mean"))
			col[nc++] = COL_MEAN;
		else if (ingest_tok_is(&tok[i], "Stddev") || ingest_tok_is(&tok[i], "StdDev") ||
			 ingest_tok_is(&tok[i], "Std.Dev") || ingest_tok_is(&tok[i], "Std.dev") ||
			 ingest_tok_is(&tok[i], "SD"))
			col[nc++] = COL_SD;
		else if (ingest_tok_is(&tok[i], "%Change"))
			col[nc++] = COL_CHANGE;
		else
			return -1;
	}
	return nc;
}

static int parse_table(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t n,
		       struct rec_batch *out, struct kb_err *err)
{
	enum an_col col[8];
	int ncol = header_columns(&lines[0], col, 8), c;
	const char *variant = ctx->variant ? ctx->variant : ctx->kernel;
	long runs = ctx->opts && ctx->opts->runs > 0 ? ctx->opts->runs : ctx->runs_hint;
	size_t i;

	if (ncol <= 0)
		return kb_err_set(err, ctx->path, lines[0].lineno, "autonuma: unknown table columns");
	if (n < 2)
		return kb_err_set(err, ctx->path, lines[0].lineno, "autonuma: table has no rows");
	for (i = 1; i < n; i++) {
		struct rx_cap cap[3];
		struct ingest_tok tok[9];
		struct rec_summary *s;
		size_t nt;
		char *test;

		rx_match(&row_rx, lines[i].s, lines[i].len, cap, 3);
		nt = ingest_split(cap[2].s, cap[2].len, tok, 9);
		if (nt != (size_t)ncol)
			return kb_err_set(err, ctx->path, lines[i].lineno,
					  "autonuma: %zu values in a row of a %d-column table", nt, ncol);
		test = arena_strndup(&out->arena, cap[1].s, cap[1].len);
		s = rec_summary_add(out, variant, "autonuma", "elapsed", "s", lines[i].lineno);
		rec_summary_config(out, s, "test", test);
		s->n = runs;
		for (c = 0; c < ncol; c++) {
			size_t len = tok[c].len;
			double v;

			if (col[c] == COL_CHANGE && len > 1 && tok[c].s[len - 1] == '%')
				len--;
			if (num_parse(tok[c].s, len, &v) < 0 || (col[c] != COL_CHANGE && v < 0))
				return kb_err_set(err, ctx->path, lines[i].lineno,
						  "autonuma: bad value '%.*s' for %s", (int)tok[c].len,
						  tok[c].s, test);
			switch (col[c]) {
			case COL_MIN: s->min = v; break;
			case COL_MAX: s->max = v; break;
			case COL_MEAN: s->mean = v; break;
			case COL_SD: s->sd = v; break;
			case COL_CHANGE: break;    /* derived by the author: not data */
			}
		}
		if (s->min > s->max || (!isnan(s->mean) && (s->mean < s->min || s->mean > s->max)))
			return kb_err_set(err, ctx->path, lines[i].lineno,
					  "autonuma: %s: min, max and average do not fit together", test);
	}
	return 0;
}

static int parse_pass(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t n,
		      struct rec_batch *out, struct kb_err *err)
{
	size_t i;

	if (n % 2)
		return kb_err_set(err, ctx->path, lines[n - 1].lineno,
				  "autonuma: test name without its seconds line");
	for (i = 0; i < n; i += 2) {
		struct rx_cap name[2], secs[2];
		struct rec_run *r;
		double v;

		rx_match(&name_rx, lines[i].s, lines[i].len, name, 2);
		rx_match(&secs_rx, lines[i + 1].s, lines[i + 1].len, secs, 2);
		if (num_parse(secs[1].s, secs[1].len, &v) < 0 || v < 0)
			return kb_err_set(err, ctx->path, lines[i + 1].lineno,
					  "autonuma: bad seconds '%.*s' for %.*s", (int)secs[1].len,
					  secs[1].s, (int)name[1].len, name[1].s);
		r = rec_run_new(out, "autonuma", lines[i].lineno);
		rec_run_config(out, r, "test", arena_strndup(&out->arena, name[1].s, name[1].len));
		if (ctx->variant) {
			rec_run_variant(out, r, ctx->variant, ctx->variant_desc, REC_ORIGIN_CONTEXT);
			r->kernel = arena_strdup(&out->arena, ctx->kernel);
		}
		rec_sample_add(out, r, "elapsed", v, "s", 0);
	}
	return 0;
}

static int autonuma_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			  size_t n, struct rec_batch *out, struct kb_err *err)
{
	if (ingest_line_matches(&header_rx, &lines[0]))
		return parse_table(ctx, lines, n, out, err);
	return parse_pass(ctx, lines, n, out, err);
}

const struct ingest_parser autonuma_parser = {
	"autonuma", "autonuma-benchmark (start_bench output, Min/Max/Avg tables)",
	autonuma_claim, autonuma_parse,
};
