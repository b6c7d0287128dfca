/*
 * kernbench.c - kernbench results: kernbench.log, console output, old v0.20.
 *
 *   Tue Aug 11 13:45:14 EDT 2009                      <- kernbench.log: `date`
 *   2.6.31-rc5-git2-resources                         <- `uname -r` (the variant)
 *   Optimal load -j 64 run number 1...                <- console only
 *   Average Half load -j 32 Run (std deviation):
 *   Elapsed Time 622.588 (119.243)
 *   User Time 4820.8 (962.286)
 *   System Time 9807.63 (2669.55)
 *   Percent CPU 2324 (167.236)
 *   Context Switches 2009606 (368703)
 *   Sleeps 1.24949e+06 (118210)
 *
 * Values come from awk's "%.6g" (hence "1.24949e+06") with the sd in
 * parentheses: such a block is a published mean -> summaries.  With -n 1
 * the script prints the raw "%.6f" sum and no sd ("Elapsed Time
 * 2197.600000"): that is one run -> samples.  v0.20 printed plain means
 * under "Average Half Load Run:" (no -j, no sd) -> summaries, n unknown.
 * Aborted runs leave date/uname pairs with no block; they are skipped.
 */
#include "parsers.h"
#include "kernbench.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* (kernbench.h: sidebyside.c reads kernbench pasted twice with it) */
const struct kernbench_metric kb_metrics[KB_NMETRICS] = {
	{ "Elapsed Time", "elapsed", "s" },
	{ "User Time", "user", "s" },
	{ "System Time", "system", "s" },
	{ "Percent CPU", "percent_cpu", "%" },
	{ "Context Switches", "context_switches", "" },
	{ "Sleeps", "sleeps", "" },
};

/* "Average Optimal load -j 24 Run (std deviation):", "Average Half Load Run:" */
/* kernbench 0.3x: "Average Optimal -j 128 Load Run:" */
static struct rx heading_rx = RXI("^\\s*Average\\s+(Single\\s+threaded|Half\\s+load|Optimal\\s+load|"
				  "Optimum\\s+load|Maximal\\s+load|Maximum\\s+load|"
				  "(?=(?:Half|Optimal|Optimum|Maximal|Maximum)\\s+-j\\s*\\d*\\s+Load\\s+Run)\\w+)"
				  "(?:\\s+-j(?:\\s*(\\d+))?)?(?:\\s+Load)?\\s+Run\\s*(\\(std\\s+deviation\\))?\\s*:\\s*$");
/* "Optimal load -j 64 run number 3..." */
static struct rx runno_rx = RXI("^\\s*(?:Single\\s+threaded|Half\\s+load|Optimal\\s+load|Maximal\\s+load)"
				"(?:\\s+-j(?:\\s*\\d+)?)?\\s+run\\s+number\\s+\\d+\\s*\\.*\\s*$");
/* `date`: "Fri Oct 13 06:22:09 PM EDT 2023", "Wed Aug 23 15:47:33 UTC 2017" */
static struct rx date_rx = RX("^\\s*[A-Z][a-z]{2}\\s+[A-Z][a-z]{2}\\s+\\d{1,2}\\s+\\d{1,2}:\\d\\d:\\d\\d"
			      "(?:\\s+[AP]M)?(?:\\s+[A-Z]{2,5}(?:[+-]\\d{1,4})?)?\\s+\\d{4}\\s*$");
/* `uname -r`: "6.1.36vsched+", "4.13.0-rc5+" */
static struct rx uname_rx = RX("^\\s*(\\d+\\.\\d+\\S*)\\s*$");
/* Console lines between the preamble and the first run. */
static struct rx console_rx = RX("^\\s*(?:All data logged to kernbench\\.log|Warmup run\\.\\.\\.)\\s*$");

/* Index of the metric whose label starts the line, or -1. */
static int metric_label(const struct ingest_line *l, const char **rest)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);
	const char *end = l->s + l->len;
	int k;

	for (k = 0; k < KB_NMETRICS; k++) {
		const char *lab = kb_metrics[k].label, *q = p;

		/* Words of the label, any run of blanks between them. */
		while (*lab && q < end) {
			if (*lab == ' ') {
				if (*q != ' ')
					break;
				q = str_skip_ws(q, end);
				lab++;
			} else if (*q != *lab) {
				break;
			} else {
				q++;
				lab++;
			}
		}
		if (*lab == '\0' && q < end && *q == ' ') {
			if (rest)
				*rest = q;
			return k;
		}
	}
	return -1;
}

static int is_heading(const struct ingest_line *l)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);
	return (*p == 'A' || *p == 'a') && ingest_line_matches(&heading_rx, l);
}

static int is_no_data(const struct ingest_line *l)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);
	return (size_t)(l->s + l->len - p) >= 7 && memcmp(p, "No data", 7) == 0 &&
	       str_skip_ws(p + 7, l->s + l->len) == l->s + l->len;
}

/* Lines of the block whose heading is lines[0]: the heading plus the
 * labelled lines that follow (a truncated block is left for parse() to
 * reject). */
static size_t block_len(const struct ingest_line *lines, size_t n)
{
	size_t i = 1;

	if (i < n && is_no_data(&lines[i]))
		return 2;
	while (i < n && i <= KB_NMETRICS && metric_label(&lines[i], NULL) >= 0)
		i++;
	return i;
}

static int is_pair(const struct ingest_line *lines, size_t i, size_t n)
{
	return i + 1 < n && ingest_line_matches(&date_rx, &lines[i]) &&
	       ingest_line_matches(&uname_rx, &lines[i + 1]);
}

static int is_runno(const struct ingest_line *l)
{
	return str_find(l->s, l->len, "run number") && ingest_line_matches(&runno_rx, l);
}

/*
 * A kernbench piece: any mix of date/uname pairs, console progress lines
 * and result blocks, blank lines between them allowed, that contains at
 * least one block.  It ends after its last block, so trailing orphan
 * pairs and progress lines stay outside.
 */
static size_t kernbench_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			 size_t n, int *score)
{
	size_t i = 0, end = 0;
	const char *p = str_skip_ws(lines[0].s, lines[0].s + lines[0].len);

	/* Cheap refusal: every piece starts with a date, "Average",
	 * a load name or a console line. */
	if (!(*p >= 'A' && *p <= 'Z') && !(*p >= 'a' && *p <= 'z'))
		return 0;
	while (i < n) {
		if (ingest_line_blank(&lines[i])) {
			i++;
			continue;
		}
		if (is_heading(&lines[i])) {
			i += block_len(lines + i, n - i);
			end = i;
		} else if (is_pair(lines, i, n)) {
			i += 2;
		} else if (is_runno(&lines[i]) ||
			   ingest_line_matches(&console_rx, &lines[i])) {
			i++;
		} else {
			break;
		}
	}
	if (end == 0) {
		/* No heading up to line i: nor from any line before it. */
		*score = -(int)(i < INT_MAX ? i : INT_MAX);
		return 0;
	}
	*score = 90;
	return end;
}

/* "(0.425558)", "(0)", "(nan)", "(-nan)" -> *sd; -1 when malformed. */
static int parse_sd(const char *s, const char *end, double *sd)
{
	const char *close;

	s = str_skip_ws(s, end);
	end = s + str_rtrim_len(s, (size_t)(end - s));
	if (end - s < 3 || *s != '(' || end[-1] != ')')
		return -1;
	s++;
	close = end - 1;
	s = str_skip_ws(s, close);
	if ((close - s == 3 && strncmp(s, "nan", 3) == 0) ||
	    (close - s == 4 && strncmp(s, "-nan", 4) == 0)) {
		*sd = NAN;
		return 0;
	}
	return num_parse(s, str_rtrim_len(s, (size_t)(close - s)), sd);
}

/*
 * What follows a value and its "(sd)": the author's remark, "( + 2 % vs
 * base)", "-45% regression", "[+-1.3%]", "<-- best", is dropped with a
 * note.  A second number or metric name is a second column (two outputs
 * side by side): refused, since which variant it belongs to is not known.
 */
static int read_remark(const struct ingest_ctx *ctx, const struct ingest_line *l, const char *label,
		       const char *p, struct rec_batch *out, struct kb_err *err)
{
	const char *end = l->s + l->len, *q = p;
	size_t len = str_rtrim_len(p, (size_t)(end - p));
	double x;
	int k;

	if (*q == '(')
		q = str_skip_ws(q + 1, end);
	/* "48.638 (0.34)" is a value; "-1.8 % vs base", "+3" are remarks */
	if (q < end && *q != '+' && *q != '-' && num_scan(&q, end, &x) == 0 &&
	    (q = str_skip_ws(q, end), q == end || *q == ')' || *q == '(' ||
	     (*q >= '0' && *q <= '9')))
		return kb_err_set(err, ctx->path, l->lineno,
				  "kernbench: '%s': a second number '%.*s' follows the value and its "
				  "(std deviation): two columns side by side are not read",
				  label, (int)len, p);
	for (k = 0; k < KB_NMETRICS; k++)
		if (str_find(p, len, kb_metrics[k].label))
			return kb_err_set(err, ctx->path, l->lineno,
					  "kernbench: '%s' is followed by a second '%s' on its line: two "
					  "columns side by side are not read", label, kb_metrics[k].label);
	rec_note(out, l->lineno, "'%.*s' after the %s value is the author's remark: not stored",
		 (int)len, p, label);
	return 0;
}

/* Does the block [lines[1], lines[len]) write its values with a decimal
 * comma ("Elapsed Time 365,4", kernbench in a German locale)?  1 when a
 * comma is followed by one or two digits and none by a group of three;
 * 0 when no comma stands in a value; -1 (err set) when both do.  The
 * first value with a decimal comma goes to example[0..cap), for the note. */
static int decimal_commas(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			  size_t len, char *example, size_t cap, struct kb_err *err)
{
	size_t i;
	long dec_line = 0, group_line = 0;

	example[0] = '\0';
	for (i = 1; i < len; i++) {
		const char *rest, *end = lines[i].s + lines[i].len, *p, *c;
		if (metric_label(&lines[i], &rest) < 0)
			break;
		p = str_skip_ws(rest, end);
		for (c = p; c < end && (isdigit((unsigned char)*c) || *c == ','); c++) {
			size_t d = 0;
			if (*c != ',')
				continue;
			while (c + 1 + d < end && isdigit((unsigned char)c[1 + d]))
				d++;
			if (d == 3 && !group_line)
				group_line = lines[i].lineno;
			else if ((d == 1 || d == 2) && !dec_line) {
				dec_line = lines[i].lineno;
				snprintf(example, cap, "%.*s",
					 (int)(c + 1 + d - p), p);
			}
		}
	}
	if (dec_line && group_line)
		return kb_err_set(err, ctx->path, group_line,
				  "kernbench: ',' separates thousands here but is a decimal mark on line %ld",
				  dec_line);
	return dec_line != 0;
}

struct kb_value {
	double mean, sd;
	int has_sd;
	int decimals;
	long line;
	double vs;              /* "(vs 576.196)": the other side's value, NAN when none */
};

/* Parse one block (heading at lines[0], len lines) into out. */
static int parse_block(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t len,
		       const char *uname, long runs_seen, struct rec_batch *out, struct kb_err *err)
{
	struct kb_value v[KB_NMETRICS];
	struct rx_cap cap[4];
	char load[16];
	const char *jobs = NULL, *variant;
	size_t jobs_len = 0, i;
	int have[KB_NMETRICS] = { 0 };
	int std_heading, nsd = 0, nvs = 0, six = 1, k, dec_comma;
	char dec_example[32];
	long n;

	if (rx_match(&heading_rx, lines[0].s, lines[0].len, cap, 4) < 2)
		return kb_err_set(err, ctx->path, lines[0].lineno, "kernbench: bad heading");
	switch (cap[1].s[0] == 'S' || cap[1].s[0] == 's' ? 'S' : cap[1].s[0] | 0x20) {
	case 'S': strcpy(load, "single"); break;
	case 'h': strcpy(load, "half"); break;
	case 'o': strcpy(load, "optimal"); break;
	default: strcpy(load, "maximal"); break;
	}
	if (cap[2].s) {
		jobs = cap[2].s;
		jobs_len = cap[2].len;
	}
	std_heading = cap[3].s != NULL;
	if (len == 2 && is_no_data(&lines[1]))
		return 0;       /* n = 0: nothing was measured */

	dec_comma = decimal_commas(ctx, lines, len, dec_example, sizeof(dec_example), err);
	if (dec_comma < 0)
		return -1;
	if (dec_comma)
		rec_note(out, lines[0].lineno, "kernbench: ',' is the decimal mark in this block "
			 "('%s' and no group of three digits after a comma)", dec_example);
	for (i = 1; i < len; i++) {
		const char *rest, *end = lines[i].s + lines[i].len, *p;
		char num[64];
		double x;

		k = metric_label(&lines[i], &rest);
		if (k < 0)
			break;
		if (have[k])
			return kb_err_set(err, ctx->path, lines[i].lineno,
					  "kernbench: '%s' appears twice in one block", kb_metrics[k].label);
		p = str_skip_ws(rest, end);
		rest = p;
		if (dec_comma) {
			/* "365,4": read it with a point, on a copy of the number */
			size_t m = 0;
			const char *q = p;
			while (q < end && m + 1 < sizeof(num) && (isdigit((unsigned char)*q) || *q == ',' || *q == '.'))
				num[m++] = *q == ',' ? '.' : *q, q++;
			num[m] = '\0';
			{
				const char *np = num;
				if (m == 0 || num_scan(&np, num + m, &x) < 0 || np != num + m ||
				    (q < end && *q != ' ' && *q != '('))
					return kb_err_set(err, ctx->path, lines[i].lineno,
							  "kernbench: '%s' has no number", kb_metrics[k].label);
			}
			p = q;
		} else if (num_scan(&p, end, &x) < 0 || (p < end && *p != ' ' && *p != '('))
			return kb_err_set(err, ctx->path, lines[i].lineno,
					  "kernbench: '%s' has no number", kb_metrics[k].label);
		have[k] = 1;
		v[k].mean = x;
		v[k].decimals = num_decimals(rest, (size_t)(p - rest));
		v[k].line = lines[i].lineno;
		v[k].has_sd = 0;
		v[k].sd = NAN;
		p = str_skip_ws(p, end);
		if (p < end && *p == '(') {
			const char *close = memchr(p, ')', (size_t)(end - p));
			const char *in = str_skip_ws(p + 1, end);
			if (close && parse_sd(p, close + 1, &v[k].sd) == 0) {
				v[k].has_sd = 1;
				nsd++;
				p = str_skip_ws(close + 1, end);
			} else if (in < end && ((*in >= '0' && *in <= '9') || *in == '.')) {
				/* "(13x93.89)": where the sd stands, but no number */
				return kb_err_set(err, ctx->path, lines[i].lineno,
						  "kernbench: '%s': '%.*s' after the value is no (std deviation)",
						  kb_metrics[k].label,
						  (int)(close ? close + 1 - p : end - p), p);
			}
		}
		v[k].vs = NAN;
		if (end - p > 4 && !strncmp(p, "(vs ", 4)) {
			/* "Elapsed Time 573.582 (vs 576.196)": this side's value,
			 * then the other side's (the kernel the patch is against) */
			const char *q = str_skip_ws(p + 4, end);
			double y;
			if (num_scan(&q, end, &y) == 0 && (q = str_skip_ws(q, end)) < end && *q == ')') {
				v[k].vs = y;
				nvs++;
				p = str_skip_ws(q + 1, end);
			}
		}
		if (p < end && read_remark(ctx, &lines[i], kb_metrics[k].label, p, out, err) < 0)
			return -1;
		if (v[k].decimals != 6 || memchr(rest, 'e', (size_t)(p - rest)))
			six = 0;
	}
	{
		/* A post may keep only the lines it talks about ("Elapsed Time
		 * 112.084" under each heading): what is there is stored, and the
		 * note says what is not. */
		char missing[160] = "";
		int npresent = 0;
		for (k = 0; k < KB_NMETRICS; k++) {
			if (have[k]) {
				npresent++;
				continue;
			}
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), "%s%s",
				 missing[0] ? ", " : "", kb_metrics[k].label);
		}
		if (!npresent)
			return kb_err_set(err, ctx->path, lines[len - 1].lineno,
					  "kernbench: block ends before '%s' (truncated?)", kb_metrics[0].label);
		if (missing[0])
			rec_note(out, lines[0].lineno, "kernbench: the block gives %d of 6 values; not in it: %s",
				 npresent, missing);
		if (npresent < KB_NMETRICS)
			six = 0;
		if (nsd != 0 && nsd != npresent)
			return kb_err_set(err, ctx->path, lines[0].lineno,
					  "kernbench: some values have a std deviation and some do not");
	}

	variant = uname ? uname : ctx->variant ? ctx->variant : ctx->kernel;
	if (nvs && !variant && ctx->base_release && ctx->patch_name) {
		/* the post's own side: the one patch it links */
		variant = ctx->patch_name;
		rec_note(out, lines[0].lineno, "kernbench: the first value of each line is the "
			 "post's patch, %s (the one patch file it links)", variant);
	}
	if (nvs && !ctx->base_release) {
		rec_note(out, lines[0].lineno, "kernbench: the '(vs ...)' values are another kernel's, "
			 "which the post does not name (no release in its Subject): not stored");
		nvs = 0;
	} else if (nvs && variant && !strcmp(variant, ctx->base_release)) {
		rec_note(out, lines[0].lineno, "kernbench: the '(vs ...)' values are the other side of "
			 "%s, which is the release its Subject names too: not stored", variant);
		nvs = 0;
	} else if (nvs) {
		rec_note(out, lines[0].lineno, "kernbench: the '(vs ...)' values are %s's, the release "
			 "the post's Subject names (the kernel the patch is against)", ctx->base_release);
	}
	if (nsd == 0 && std_heading && six) {
		/* kernbench -n 1: one run, printed as a raw sum. */
		struct rec_run *r = rec_run_new(out, "kernbench", lines[0].lineno);

		rec_run_config(out, r, "load", load);
		if (jobs)
			rec_run_configf(out, r, "jobs", "%.*s", (int)jobs_len, jobs);
		if (uname) {
			rec_run_variant(out, r, uname, NULL, REC_ORIGIN_CONTENT);
			r->kernel = arena_strdup(&out->arena, uname);
		} else if (ctx->variant) {
			rec_run_variant(out, r, ctx->variant, ctx->variant_desc, REC_ORIGIN_CONTEXT);
			r->kernel = arena_strdup(&out->arena, ctx->kernel);
		}
		for (k = 0; k < KB_NMETRICS; k++)
			rec_sample_add(out, r, kb_metrics[k].metric, v[k].mean, kb_metrics[k].unit, 0);
		return 0;
	}

	/* A mean (with or without sd).  n: the user's --set runs=N, else
	 * the console's "run number" lines, else unknown. */
	n = ctx->opts && ctx->opts->runs > 0 ? ctx->opts->runs : runs_seen;
	for (k = 0; k < KB_NMETRICS; k++) {
		struct rec_summary *s;
		char jbuf[24];

		if (!have[k])
			continue;
		s = rec_summary_add(out, variant, "kernbench", kb_metrics[k].metric, kb_metrics[k].unit,
				    v[k].line);

		rec_summary_config(out, s, "load", load);
		if (jobs) {
			snprintf(jbuf, sizeof(jbuf), "%.*s", (int)(jobs_len < 20 ? jobs_len : 20), jobs);
			rec_summary_config(out, s, "jobs", jbuf);
		}
		s->mean = v[k].mean;
		s->sd = v[k].sd;
		s->n = n;
		if (!nvs || isnan(v[k].vs))
			continue;
		s = rec_summary_add(out, ctx->base_release, "kernbench", kb_metrics[k].metric,
				    kb_metrics[k].unit, v[k].line);
		s->variant_desc = "the kernel the post's Subject names";
		rec_summary_config(out, s, "load", load);
		if (jobs)
			rec_summary_config(out, s, "jobs", jbuf);
		s->mean = v[k].vs;
		s->n = n;
	}
	return 0;
}

static int kernbench_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			   size_t n, struct rec_batch *out, struct kb_err *err)
{
	const char *uname = NULL;
	long runs_seen = 0;
	struct rx_cap cap[2];
	size_t i = 0;

	while (i < n) {
		if (ingest_line_blank(&lines[i])) {
			i++;
		} else if (is_heading(&lines[i])) {
			size_t len = block_len(lines + i, n - i);
			if (parse_block(ctx, lines + i, len, uname, runs_seen, out, err) < 0)
				return -1;
			runs_seen = 0;
			i += len;
		} else if (is_pair(lines, i, n)) {
			rx_match(&uname_rx, lines[i + 1].s, lines[i + 1].len, cap, 2);
			uname = arena_strndup(&out->arena, cap[1].s, cap[1].len);
			i += 2;
		} else if (is_runno(&lines[i])) {
			runs_seen++;
			i++;
		} else if (ingest_line_matches(&console_rx, &lines[i])) {
			i++;
		} else {
			return kb_err_set(err, ctx->path, lines[i].lineno,
					  "kernbench: unexpected line in a result block");
		}
	}
	return 0;
}

const struct ingest_parser kernbench_parser = {
	"kernbench", "kernbench results (kernbench.log, console output, v0.20 averages)",
	kernbench_claim, kernbench_parse,
};
