/*
 * table.c - what every format of the comparison table shares (table.h):
 * its options, verdict marks and colours, how a value is printed, and
 * render_table(), which picks the format's writer: text (table_text.c),
 * Markdown, CSV or JSON (table_formats.c).
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

int render_fmt_parse(const char *s, enum render_fmt *f)
{
	if (strcmp(s, "text") == 0)
		*f = RENDER_TEXT;
	else if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0)
		*f = RENDER_MD;
	else if (strcmp(s, "csv") == 0)
		*f = RENDER_CSV;
	else if (strcmp(s, "json") == 0)
		*f = RENDER_JSON;
	else
		return -1;
	return 0;
}

int render_dim_parse(const char *s, enum render_dim *d)
{
	if (strcmp(s, "config") == 0 || strcmp(s, "configs") == 0)
		*d = RENDER_DIM_CONFIG;
	else if (strcmp(s, "metric") == 0 || strcmp(s, "metrics") == 0)
		*d = RENDER_DIM_METRIC;
	else if (strcmp(s, "variant") == 0 || strcmp(s, "variants") == 0)
		*d = RENDER_DIM_VARIANT;
	else
		return -1;
	return 0;
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

int render_table(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		 struct kb_err *err)
{
	switch (o->fmt) {
	case RENDER_MD:
		return render_table_md(f, t, o, err);
	case RENDER_CSV:
		return render_table_csv(f, t, err);
	case RENDER_JSON:
		return render_table_json(f, t, err);
	default:
		return render_table_text(f, t, o, err);
	}
}
