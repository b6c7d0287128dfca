/*
 * table_cell.c - what every format of the comparison table shares
 * (table.h): its default options, verdict marks and colours, value
 * marks, how a value is printed, the machine a row names and the legend
 * of the text and Markdown tables.  The format writers (table_text.c,
 * table_formats.c, table_pivot.c) call in here; nothing here calls them.
 */
#include "table_int.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <string.h>

void render_table_opts_init(struct render_table_opts *o)
{
	o->fmt = RENDER_TEXT;
	o->rows = RENDER_DIM_CONFIG;
	o->cols = RENDER_DIM_VARIANT;
	o->no_legend = 0;
	o->width = 0;
	o->color = 0;
}

const char *render_verdict_color(enum an_verdict v)
{
	switch (v) {
	case AN_VERDICT_WORSE:
		return TERM_CSI "1;31m";   /* bold red */
	case AN_VERDICT_BETTER:
		return TERM_CSI "1;32m";   /* bold green */
	case AN_VERDICT_CHANGED:
		return TERM_CSI "1;33m";   /* bold yellow */
	case AN_VERDICT_INCONCLUSIVE:
		return TERM_CSI "2m";      /* dim */
	default:
		return "";
	}
}

char render_verdict_mark(enum an_verdict v)
{
	switch (v) {
	case AN_VERDICT_BETTER:
		return '+';
	case AN_VERDICT_WORSE:
		return '-';
	case AN_VERDICT_CHANGED:
		return '~';
	case AN_VERDICT_SAME:
		return '=';
	case AN_VERDICT_INCONCLUSIVE:
		return '?';
	default:
		return ' ';
	}
}


const struct render_mark render_marks[] = {
	{ AN_F_FOOTNOTED, 'f', "footnoted in the post: not tested unless --use-flagged" },
	{ AN_F_AMBIGUOUS, 'm', "its source publishes more than one value for the cell: the last shown, its change not tested" },
	{ AN_F_FROM_SUMMARIES, 'd', "published E minus published H, sd unknown" },
	{ AN_F_VERY_NOISY, 'N', "very noisy (CV > 15%)" },
	{ AN_F_BIMODAL, 'b', "bimodal" },
	{ AN_F_OUTLIERS, 'o', "outliers (Grubbs' test at 4%, kept)" },
	{ AN_F_NOISY, 'n', "noisy (CV > 5%)" },
	{ AN_F_SD_ESTIMATED, 'e', "sd estimated from the range (max - min) / d2(n)" },
	{ AN_F_HMEAN_NONPOS, 'a', "arithmetic mean: a value <= 0 has no harmonic mean" },
	{ AN_F_HMEAN, 'h', "harmonic mean (higher is better, as mmtests' Hmean)" },
};

_Static_assert(ARRAY_SIZE(render_marks) == RENDER_NMARKS,
	       "RENDER_MARKS lists render_marks' marks, in order");

/* Every mark of a cell's flags, in render_marks order, into out (room
 * for RENDER_MARKS_MAX + 1): "ne" for a noisy cell whose sd is
 * estimated.  Very noisy implies noisy: 'N' alone. */
void render_value_marks(unsigned flags, char *out)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(render_marks); i++) {
		if (!(flags & render_marks[i].bit))
			continue;
		if (render_marks[i].bit == AN_F_NOISY && (flags & AN_F_VERY_NOISY))
			continue;
		out[n++] = render_marks[i].mark;
	}
	out[n] = '\0';
}

const char *render_value_mark_text(char mark)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(render_marks); i++)
		if (render_marks[i].mark == mark)
			return render_marks[i].text;
	return "";
}

/* Numbers ---------------------------------------------------------------- */

static int is_integral(double x)
{
	return !isnan(x) && fabs(x) < 1e15 && x == floor(x);
}

/* Decimals for one table row: the seed mails' two, fewer for huge
 * numbers and integer counters, more for tiny ones. */
int render_row_decimals(const struct an_table *t, const struct an_row *row)
{
	double m = 0;
	int integral = 1, any = 0;
	size_t v, i;

	for (v = 0; v < t->nvariants; v++) {
		const struct an_cell *c = &row->cells[v];

		/* A cell with no mean prints as missing and says nothing
		 * about how the others should be printed. */
		if (c->origin == AN_ORIGIN_NONE || isnan(c->d.mean))
			continue;
		any = 1;
		m = fmax(m, fabs(c->d.mean));
		if (c->origin == AN_ORIGIN_SUMMARY)
			integral &= is_integral(c->d.mean);
		else
			for (i = 0; i < c->nvalues; i++)
				integral &= isnan(c->values[i]) || is_integral(c->values[i]);
	}
	if (!any)
		return 2;
	if ((integral && m >= 10) || m >= 1e6)
		return 0;
	if (m >= 1e5)
		return 1;
	if (m > 0 && m < 0.1)
		return (int)ceil(-log10(m)) + 2;
	return 2;
}

void render_format_value(struct buf *b, const struct an_cell *c, int dec)
{
	if (c->origin == AN_ORIGIN_NONE || isnan(c->d.mean)) {
		buf_puts(b, "-");
		return;
	}
	buf_printf(b, "%.*f", dec, c->d.mean);
	if (!isnan(c->d.sd) && c->d.n >= 2)
		buf_printf(b, "(%s%.*f)", (c->flags & AN_F_SD_ESTIMATED) ? "~" : "", dec, c->d.sd);
}



/* The machine a row names in output: every row when the table spans
 * several machines, else only a machine known by name. */
const char *render_row_machine(const struct an_table *t, const struct an_row *row)
{
	if (!row->machine)
		return t->nmachines > 1 ? "an unknown machine" : NULL;
	if (t->nmachines > 1)
		return row->machine;
	return strncmp(row->machine, "unknown@", 8) == 0 ? NULL : row->machine;
}

/* Do t's cells carry any of the flags in bits? */
static int table_has_flags(const struct an_table *t, unsigned bits)
{
	size_t r, v;

	for (r = 0; r < t->nrows; r++)
		for (v = 0; v < t->nvariants; v++)
			if (t->rows[r].cells[v].origin != AN_ORIGIN_NONE &&
			    (t->rows[r].cells[v].flags & bits))
				return 1;
	return 0;
}

/* Does any cell of t carry a published verdict? */
static int table_has_published(const struct an_table *t)
{
	size_t r, v;

	for (r = 0; r < t->nrows; r++)
		for (v = 0; v < t->nvariants; v++)
			if (t->rows[r].cells[v].published)
				return 1;
	return 0;
}

static void conv_text(struct buf *out, const struct an_table *t)
{
	switch (t->opts.conv) {
	case AN_CONV_SPEED:
		buf_puts(out, "speed: base / new - 1 for lower-is-better metrics,\n  else (new - base) / base");
		break;
	case AN_CONV_BETTER:
		buf_puts(out, "better: (new - base) / base, sign flipped where lower is better\n  (+ is an improvement)");
		break;
	default:
		buf_puts(out, "raw: (new - base) / base");
		break;
	}
}

void render_table_legend(struct buf *out, const struct an_table *t, const char *baseline)
{
	buf_printf(out, "Values: mean(sd) over runs (or jobs), or as published; (~sd) estimated;\n"
			"n: values per cell (one number when the row agrees, ? unknown).\n");
	if (baseline && strlen(baseline) + 18 > TEXT_NARROW)
		buf_printf(out, "%%chg vs baseline\n  %s,\n  ", baseline);
	else if (baseline)
		buf_printf(out, "%%chg vs baseline %s,\n  ", baseline);
	else
		buf_puts(out, "%chg vs each section's baseline,\n  ");
	conv_text(out, t);
	buf_puts(out, ".\n");
	buf_printf(out, "Marks: + better  - worse  ~ changed (no better direction)"
			"  = same (within +-%g%%)\n"
			"       ? inconclusive; after a value (as many as apply): N very noisy,\n"
			"       n noisy, b bimodal, o outliers, e sd estimated, d E-H of published\n"
			"       cells (sd unknown),\n"
			"       f footnoted in the post (%s).\n",
		   t->opts.delta, t->use_flagged ? "tested: --use-flagged" : "not tested unless --use-flagged");
	if (table_has_flags(t, AN_F_HMEAN | AN_F_HMEAN_NONPOS))
		buf_puts(out, "       h harmonic mean of the runs (higher is better, as mmtests' Hmean),\n"
			      "       a arithmetic mean instead (a value <= 0).\n");
	if (table_has_flags(t, AN_F_AMBIGUOUS))
		buf_puts(out, "       m its source publishes more than one value for the cell: the\n"
			      "       last is shown, its change not tested.\n");
	if (table_has_published(t))
		buf_puts(out, "table: the published table's own %change vs its own baseline and its\n"
			      "       significance mark, as printed (mmtests: + is better, * marked).\n");
	buf_printf(out, "Verdicts: %s test, Benjamini-Hochberg q over %zu comparisons,\n"
			"          q < %g and |change| >= %g%%.\n",
		   an_test_name(t->opts.test), t->ncompared, t->opts.alpha, t->opts.delta);
}
