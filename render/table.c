/*
 * table.c - the comparison table's front door (table.h): the names of
 * its formats and pivot dimensions (--format, --rows, --cols) and
 * render_table(), which picks the format's writer: text (table_text.c),
 * Markdown, CSV or JSON (table_formats.c).
 */
#include "table_int.h"

#include <string.h>

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
