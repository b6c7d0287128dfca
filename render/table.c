/*
 * table.c - the comparison table as text (mail), Markdown, CSV and JSON.
 * See table.h.  Text example (rows = configs, columns = variants):
 *
 *   hackbench  time [s], lower is better  (rows: groups)
 *                 A             B  %chg             C  %chg
 *    10  5.54(0.10)    5.37(0.06)  -3.1 ?    1.31(0.08) -76.4% +
 */
#include "table.h"
#include "json.h"
#include "../core/buf.h"
#include "../core/util.h"
#include "../db/query.h"

#include <csv.h>
#include <math.h>
#include <stdlib.h>
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

/* Flag shown after a value, most important first. */
static const struct {
	unsigned bit;
	char mark;
	const char *text;
} value_marks[] = {
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

_Static_assert(ARRAY_SIZE(value_marks) == sizeof(RENDER_MARKS) - 1,
	       "RENDER_MARKS lists value_marks' marks, in order");

/* Every mark of a cell's flags, in value_marks order, into out (room
 * for RENDER_MARKS_MAX + 1): "ne" for a noisy cell whose sd is
 * estimated.  Very noisy implies noisy: 'N' alone. */
void render_value_marks(unsigned flags, char *out)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(value_marks); i++) {
		if (!(flags & value_marks[i].bit))
			continue;
		if (value_marks[i].bit == AN_F_NOISY && (flags & AN_F_VERY_NOISY))
			continue;
		out[n++] = value_marks[i].mark;
	}
	out[n] = '\0';
}

const char *render_value_mark_text(char mark)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(value_marks); i++)
		if (value_marks[i].mark == mark)
			return value_marks[i].text;
	return "";
}

/* What mark k means in t: a footnoted cell is tested under --use-flagged. */
static const char *value_mark_text(const struct an_table *t, size_t k)
{
	if (value_marks[k].bit == AN_F_FOOTNOTED && t->use_flagged)
		return "footnoted in the post: tested (--use-flagged)";
	return value_marks[k].text;
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

static int change_decimals(const struct an_table *t)
{
	/* The autonuma mails print their %Change with two decimals. */
	return t->opts.conv == AN_CONV_SPEED ? 2 : 1;
}

/* The text table's column heading says "%chg"; Markdown adds the '%'. */
static void format_change(struct buf *b, const struct an_table *t, const struct an_cell *c)
{
	if (!c->has_change || isnan(c->chg.change))
		return;
	buf_printf(b, "%+.*f", change_decimals(t), c->chg.change);
}

/* The published table's own verdict on c, as printed: "+3.30%*" (change
 * and mark), "*" (a mark only); nothing when it printed none. */
static void format_published(struct buf *b, const struct an_cell *c)
{
	if (!c->published)
		return;
	if (!isnan(c->pub_change))
		buf_printf(b, "%+.2f%%", c->pub_change);
	buf_puts(b, c->pub_mark ? c->pub_mark : "");
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

/* Pivot ------------------------------------------------------------------- */

/* A block: the table rows sharing a benchmark and the block dimension's
 * value (a metric, or a config). */
struct block {
	size_t *rows;
	size_t n;
};

struct pivot {
	int variant_cols;	/* 1: columns are variants; 0: rows are variants */
	int block_by_metric;	/* 1: a block is one metric; 0: one config */
	int color;		/* verdict marks in colour */
	struct block *blocks;
	size_t nblocks;
};

static int pivot_init(struct pivot *p, const struct an_table *t,
		      const struct render_table_opts *o, struct kb_err *err)
{
	enum render_dim other;
	size_t r, k, cap = 0;

	memset(p, 0, sizeof(*p));
	p->color = o->color && o->fmt == RENDER_TEXT;
	if (o->cols == RENDER_DIM_VARIANT && o->rows != RENDER_DIM_VARIANT) {
		p->variant_cols = 1;
		other = o->rows;
	} else if (o->rows == RENDER_DIM_VARIANT && o->cols != RENDER_DIM_VARIANT) {
		p->variant_cols = 0;
		other = o->cols;
	} else {
		return kb_err_set(err, "", 0,
				  "--rows and --cols: one must be 'variant', the other 'config' or 'metric'");
	}
	p->block_by_metric = other == RENDER_DIM_CONFIG;
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];
		const char *key = p->block_by_metric ? row->metric : row->config;
		struct block *b = NULL;

		for (k = 0; k < p->nblocks; k++) {
			const struct an_row *f = &t->rows[p->blocks[k].rows[0]];
			if (strcmp(f->benchmark, row->benchmark) == 0 &&
			    (f->machine && row->machine ? strcmp(f->machine, row->machine) == 0
							: f->machine == row->machine) &&
			    strcmp(p->block_by_metric ? f->metric : f->config, key) == 0) {
				b = &p->blocks[k];
				break;
			}
		}
		if (!b) {
			xgrow(&p->blocks, &cap, p->nblocks + 1, sizeof(*p->blocks));
			b = &p->blocks[p->nblocks++];
			memset(b, 0, sizeof(*b));
		}
		b->rows = xrealloc(b->rows, (b->n + 1) * sizeof(*b->rows));
		b->rows[b->n++] = r;
	}
	return 0;
}

static void pivot_release(struct pivot *p)
{
	size_t k;

	for (k = 0; k < p->nblocks; k++)
		free(p->blocks[k].rows);
	free(p->blocks);
}

/* Variant names longer than this are shown as "[N]" in text tables, with
 * a key line per table: a column must not be as wide as a kernel name. */
#define VARIANT_LABEL_MAX 16

static int text_alias(const struct an_table *t, size_t v)
{
	return strlen(t->variants[v].name) > VARIANT_LABEL_MAX;
}

/* A variant as a text table names it: its name, or "[v+1]". */
static const char *vlabel(const struct an_table *t, size_t v, int alias, char *tmp, size_t n)
{
	if (alias && text_alias(t, v)) {
		snprintf(tmp, n, "[%zu]", v + 1);
		return tmp;
	}
	return t->variants[v].name;
}

/* The items ("k=v", escapes kept) of a canonical config string. */
static size_t config_items(const char *config, char ***out)
{
	const char *p = config, *start = config;
	size_t n = 0;

	*out = NULL;
	if (!*config)
		return 0;
	for (;; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == ',' || !*p) {
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = xstrndup(start, (size_t)(p - start));
			if (!*p)
				break;
			start = p + 1;
		}
	}
	return n;
}

static int has_item(char **v, size_t n, const char *item)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], item))
			return 1;
	return 0;
}

/*
 * Labels of a block's configs: the items every row shares go to *common
 * (one header line), each row shows only the rest; when that rest is one
 * key in every row, the row shows its bare value and *key names it.
 * Arrays of b->n strings, owned by the caller (labels_free()).
 */
struct labels {
	char **row;             /* per block row */
	char *common;           /* "impl=perf,ipc=pipe" or NULL */
	char *key;              /* the one varying key, or NULL */
	size_t n;
};

static void labels_build(struct labels *L, const struct an_table *t, const struct block *b)
{
	char ***items = xcalloc(b->n + 1, sizeof(*items));
	size_t *nitems = xcalloc(b->n + 1, sizeof(*nitems)), i, k, j;
	struct buf common = BUF_INIT;
	char *key = NULL;
	int one_key = 1;

	memset(L, 0, sizeof(*L));
	L->n = b->n;
	L->row = xcalloc(b->n + 1, sizeof(*L->row));
	for (i = 0; i < b->n; i++)
		nitems[i] = config_items(t->rows[b->rows[i]].config, &items[i]);
	/* common items: in every row (only worth a header with several rows) */
	for (k = 0; k < (b->n > 1 ? nitems[0] : 0); k++) {
		int all = 1;

		for (i = 1; i < b->n && all; i++)
			all = has_item(items[i], nitems[i], items[0][k]);
		if (all)
			buf_printf(&common, "%s%s", common.len ? "," : "", items[0][k]);
	}
	for (i = 0; i < b->n; i++) {
		struct buf r = BUF_INIT;
		size_t nv = 0;
		const char *last = NULL;

		for (k = 0; k < nitems[i]; k++) {
			int shared = b->n > 1;

			for (j = 0; j < b->n && shared; j++)
				shared = has_item(items[j], nitems[j], items[i][k]);
			if (shared)
				continue;
			buf_printf(&r, "%s%s", r.len ? "," : "", items[i][k]);
			nv++;
			last = items[i][k];
		}
		if (nv == 1) {
			const char *eq = strchr(last, '=');
			size_t klen = eq ? (size_t)(eq - last) : strlen(last);

			if (!key)
				key = xstrndup(last, klen);
			else if (strlen(key) != klen || strncmp(key, last, klen))
				one_key = 0;
		} else {
			one_key = 0;
		}
		L->row[i] = r.len ? buf_detach(&r) : xstrdup(b->n > 1 ? "(all)" : "-");
		buf_release(&r);
	}
	if (one_key && key) {
		size_t klen = strlen(key);

		for (i = 0; i < b->n; i++) {
			char *v = xstrdup(L->row[i] + klen + 1);

			free(L->row[i]);
			L->row[i] = v;
		}
		L->key = key;
	} else {
		free(key);
	}
	if (b->n == 1 && nitems[0]) {
		/* one row: its whole config is the label */
		free(L->row[0]);
		L->row[0] = xstrdup(t->rows[b->rows[0]].config);
	}
	L->common = common.len ? buf_detach(&common) : NULL;
	buf_release(&common);
	for (i = 0; i < b->n; i++) {
		for (k = 0; k < nitems[i]; k++)
			free(items[i][k]);
		free(items[i]);
	}
	free(items);
	free(nitems);
}

static void labels_free(struct labels *L)
{
	size_t i;

	for (i = 0; i < L->n; i++)
		free(L->row[i]);
	free(L->row);
	free(L->common);
	free(L->key);
}

/* Label of a block item (the non-variant axis). */
static const char *item_label(const struct an_table *t, const struct pivot *p,
			      const struct block *b, size_t i, const struct labels *L)
{
	const struct an_row *row = &t->rows[b->rows[i]];

	if (p->block_by_metric)
		return L ? L->row[i] : row->config[0] ? row->config : "-";
	return row->metric;
}

/* One grid position as strings. */
struct gcell {
	char *value;		/* "5.54(0.10)" */
	char flags[16];		/* every value mark ("ne"), "" for none */
	char *change;		/* "-76.4%" or "" */
	char mark;		/* verdict mark or ' ' */
	const char *color;	/* the mark's colour, "" for none */
	int has_change_col;
	size_t n;		/* values behind the cell; 0 = unknown */
	int has_value;
	int has_data;		/* the variant has a cell here (maybe "-") */
	char *pub;		/* the published table's own verdict ("+3.30%*"), or "" */
};

struct grid {
	size_t nlines, ncols;
	char **line_labels, **col_labels;
	char **line_n;		/* "5", "3/5", "?" (unknown) per line */
	struct gcell *cells;	/* nlines x ncols */
	size_t *vw, *cw;	/* value and change widths per column */
	size_t *fw;		/* value-mark widths per column (at least 1) */
	size_t *pw;		/* published-verdict widths per column, 0: no such column */
	size_t lw, nw;		/* label and n widths */
};

static struct gcell *gat(struct grid *g, size_t l, size_t c)
{
	return &g->cells[l * g->ncols + c];
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The n of a line's cells: one number when they agree, else the distinct
 * values "3/5" (more than three: "3-12"); "?" for an unknown n (a
 * published number without its run count). */
static char *line_n(struct grid *g, size_t l)
{
	size_t *v = xmalloc((g->ncols + 1) * sizeof(*v)), nv = 0, c, i, nd = 0;
	int unknown = 0;
	struct buf b = BUF_INIT;

	for (c = 0; c < g->ncols; c++) {
		struct gcell *gc = gat(g, l, c);

		if (!gc->has_value)
			continue;
		if (gc->n == 0)
			unknown = 1;
		else
			v[nv++] = gc->n;
	}
	qsort(v, nv, sizeof(*v), cmp_size);
	for (i = 0; i < nv; i++)
		nd += i == 0 || v[i] != v[i - 1];
	if (nd > 3) {
		buf_printf(&b, "%zu-%zu", v[0], v[nv - 1]);
	} else {
		for (i = 0; i < nv; i++)
			if (i == 0 || v[i] != v[i - 1])
				buf_printf(&b, "%s%zu", b.len ? "/" : "", v[i]);
	}
	if (unknown)
		buf_printf(&b, "%s?", b.len ? "/" : "");
	if (!b.len)
		buf_puts(&b, "-");
	free(v);
	return buf_detach(&b);
}

static void grid_build(struct grid *g, const struct an_table *t, const struct pivot *p,
		       const struct block *b, const struct labels *L, int alias)
{
	size_t i, v, l, c;
	char tmp[32];

	memset(g, 0, sizeof(*g));
	if (p->variant_cols) {
		g->nlines = b->n;
		g->ncols = t->nvariants;
	} else {
		g->nlines = t->nvariants;
		g->ncols = b->n;
	}
	g->line_labels = xcalloc(g->nlines, sizeof(char *));
	g->line_n = xcalloc(g->nlines, sizeof(char *));
	g->col_labels = xcalloc(g->ncols, sizeof(char *));
	g->cells = xcalloc(g->nlines * g->ncols, sizeof(*g->cells));
	g->vw = xcalloc(g->ncols, sizeof(size_t));
	g->fw = xcalloc(g->ncols, sizeof(size_t));
	g->cw = xcalloc(g->ncols, sizeof(size_t));
	g->pw = xcalloc(g->ncols, sizeof(size_t));
	for (i = 0; i < b->n; i++) {
		const char *lab = item_label(t, p, b, i, L);
		if (p->variant_cols)
			g->line_labels[i] = xstrdup(lab);
		else
			g->col_labels[i] = xstrdup(lab);
	}
	for (v = 0; v < t->nvariants; v++) {
		const char *name = vlabel(t, v, alias, tmp, sizeof(tmp));

		if (p->variant_cols)
			g->col_labels[v] = xstrdup(name);
		else
			g->line_labels[v] = xstrdup(name);
	}
	for (i = 0; i < b->n; i++) {
		const struct an_row *row = &t->rows[b->rows[i]];
		int dec = render_row_decimals(t, row);

		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *cell = &row->cells[v];
			struct gcell *gc;
			struct buf vb = BUF_INIT, cb = BUF_INIT, pb = BUF_INIT;

			l = p->variant_cols ? i : v;
			c = p->variant_cols ? v : i;
			gc = gat(g, l, c);
			render_format_value(&vb, cell, dec);
			format_change(&cb, t, cell);
			gc->value = buf_detach(&vb);
			gc->change = cb.data ? buf_detach(&cb) : xstrdup("");
			format_published(&pb, cell);
			gc->pub = pb.data ? buf_detach(&pb) : xstrdup("");
			if (cell->origin != AN_ORIGIN_NONE)
				render_value_marks(cell->flags, gc->flags);
			gc->has_data = cell->origin != AN_ORIGIN_NONE;
			gc->mark = cell->has_change ? render_verdict_mark(cell->chg.verdict) : ' ';
			gc->color = cell->has_change && p->color ? render_verdict_color(cell->chg.verdict) : "";
			gc->has_change_col = !cell->is_baseline;
			gc->has_value = cell->origin != AN_ORIGIN_NONE && !isnan(cell->d.mean);
			gc->n = cell->d.n;
		}
	}
	g->lw = 0;
	g->nw = 1;
	for (l = 0; l < g->nlines; l++) {
		g->lw = g->lw > strlen(g->line_labels[l]) ? g->lw : strlen(g->line_labels[l]);
		g->line_n[l] = line_n(g, l);
		if (strlen(g->line_n[l]) > g->nw)
			g->nw = strlen(g->line_n[l]);
	}
	for (c = 0; c < g->ncols; c++) {
		int changes = 0;

		g->vw[c] = strlen(g->col_labels[c]);
		g->fw[c] = 1;
		for (l = 0; l < g->nlines; l++) {
			struct gcell *gc = gat(g, l, c);
			size_t n = strlen(gc->value);
			if (n > g->vw[c])
				g->vw[c] = n;
			if (strlen(gc->flags) > g->fw[c])
				g->fw[c] = strlen(gc->flags);
			if (gc->has_change_col)
				changes = 1;
			if (strlen(gc->change) > g->cw[c])
				g->cw[c] = strlen(gc->change);
			if (strlen(gc->pub) > g->pw[c])
				g->pw[c] = strlen(gc->pub);
		}
		if (g->pw[c] && g->pw[c] < 5)
			g->pw[c] = 5;	/* room for the "table" heading */
		if (changes && g->cw[c] < 4)
			g->cw[c] = 4;	/* room for the "%chg" heading */
		if (!changes)
			g->cw[c] = 0;
	}
}

static void grid_release(struct grid *g)
{
	size_t i;

	for (i = 0; i < g->nlines; i++) {
		free(g->line_labels[i]);
		free(g->line_n[i]);
	}
	for (i = 0; i < g->ncols; i++)
		free(g->col_labels[i]);
	for (i = 0; i < g->nlines * g->ncols; i++) {
		free(g->cells[i].value);
		free(g->cells[i].change);
		free(g->cells[i].pub);
	}
	free(g->line_labels);
	free(g->line_n);
	free(g->col_labels);
	free(g->cells);
	free(g->vw);
	free(g->fw);
	free(g->cw);
	free(g->pw);
}

static void block_title(struct buf *out, const struct an_table *t, const struct pivot *p,
			const struct block *b, const struct labels *L)
{
	const struct an_row *row = &t->rows[b->rows[0]];

	buf_printf(out, "%s  ", row->benchmark);
	if (p->block_by_metric) {
		buf_puts(out, row->metric);
		if (row->unit[0])
			buf_printf(out, " [%s]", row->unit);
		if (row->dir != AN_DIR_NONE)
			buf_printf(out, ", %s is better", an_direction_name(row->dir));
		else
			buf_puts(out, ", no better direction");
		if (row->derived)
			buf_puts(out, ", derived");
		if (L && L->key)
			buf_printf(out, "  (by %s)", L->key);
	} else {
		buf_puts(out, row->config[0] ? row->config : "(no config)");
	}
}

/* End the line without its trailing blanks. */
static void trim_line(struct buf *out)
{
	while (out->len && out->data[out->len - 1] == ' ')
		out->data[--out->len] = '\0';
	buf_putc(out, '\n');
}

/* End the line and start the next at column indent; returns indent. */
static size_t next_line(struct buf *out, size_t indent)
{
	size_t i;

	trim_line(out);
	for (i = 0; i < indent; i++)
		buf_putc(out, ' ');
	return indent;
}

/* Append text wrapped at width columns, breaking after commas or at
 * spaces; continuation lines start with indent spaces. */
static void wrap_list(struct buf *out, const char *lead, const char *text, size_t width,
		      size_t indent)
{
	size_t col = strlen(lead);
	const char *p = text;

	buf_puts(out, lead);
	while (*p) {
		const char *e = p;
		size_t len;

		while (*e && *e != ',' && *e != ' ')
			e++;
		if (*e)
			e++;
		len = (size_t)(e - p);
		/* a word longer than a line: cut it after a '/' or '=' that fits */
		if (len > width - indent) {
			size_t room = col < width ? width - col : 0, cut = 0, j;

			if (room < 8) {
				room = width - indent;
				col = next_line(out, indent);
			}
			for (j = 1; j < room && j < len; j++)
				if (p[j - 1] == '/' || p[j - 1] == '=' || p[j - 1] == '-')
					cut = j;
			if (!cut)
				cut = room;
			buf_add(out, p, cut);
			p += cut;
			col = next_line(out, indent);
			continue;
		}
		if (col + len > width && col > indent)
			col = next_line(out, indent);
		buf_add(out, p, len);
		col += len;
		p = e;
	}
	buf_putc(out, '\n');
}

/* Notes of a block, grouped by text. */
struct note {
	char mark;
	char *text;
	struct buf who;
};

static void add_note(struct note **notes, size_t *n, size_t *cap, char mark, const char *text,
		     const char *who)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*notes)[i].mark == mark && strcmp((*notes)[i].text, text) == 0)
			break;
	if (i == *n) {
		xgrow(notes, cap, *n + 1, sizeof(**notes));
		(*notes)[i].mark = mark;
		(*notes)[i].text = xstrdup(text);
		buf_init(&(*notes)[i].who);
		(*n)++;
	}
	if ((*notes)[i].who.len)
		buf_puts(&(*notes)[i].who, ", ");
	buf_puts(&(*notes)[i].who, who);
}

static void block_notes(struct buf *out, const struct an_table *t, const struct pivot *p,
			const struct block *b, const struct labels *L)
{
	struct note *notes = NULL;
	size_t nnotes = 0, cap = 0, i, v, k;

	for (i = 0; i < b->n; i++) {
		const struct an_row *row = &t->rows[b->rows[i]];

		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *c = &row->cells[v];
			char who[256];

			if (c->origin == AN_ORIGIN_NONE)
				continue;
			{
				char tmp[32];

				snprintf(who, sizeof(who), "%s %s", vlabel(t, v, 1, tmp, sizeof(tmp)),
					 item_label(t, p, b, i, L));
			}
			for (k = 0; k < ARRAY_SIZE(value_marks); k++) {
				if (!(c->flags & value_marks[k].bit))
					continue;
				/* very noisy implies noisy: say it once */
				if (value_marks[k].bit == AN_F_NOISY && (c->flags & AN_F_VERY_NOISY))
					continue;
				/* every raw cell of a throughput row: the legend says it */
				if (value_marks[k].bit == AN_F_HMEAN)
					continue;
				if (value_marks[k].bit & (AN_F_NOISY | AN_F_VERY_NOISY)) {
					char w[300];
					snprintf(w, sizeof(w), "%s (CV %.1f%%)", who, c->d.cv);
					add_note(&notes, &nnotes, &cap, value_marks[k].mark,
						 value_mark_text(t, k), w);
				} else {
					add_note(&notes, &nnotes, &cap, value_marks[k].mark,
						 value_mark_text(t, k), who);
				}
			}
			if (c->has_change && c->chg.verdict == AN_VERDICT_INCONCLUSIVE &&
			    !isnan(c->chg.runs_needed) && !(c->chg.flags & AN_F_TOO_FEW)) {
				char w[300];
				snprintf(w, sizeof(w), "%s (%.0f)", who, c->chg.runs_needed);
				add_note(&notes, &nnotes, &cap, '?',
					 "inconclusive, runs per side needed", w);
			} else if (c->note) {
				/* One group per sentence of the note. */
				const char *p = c->note;
				while (*p) {
					const char *e = strstr(p, "; ");
					size_t len = e ? (size_t)(e - p) : strlen(p);
					char *part = xstrndup(p, len);
					char mark = strncmp(part, "raw samples", 11) == 0 ||
						    strncmp(part, "published summary", 17) == 0 ? '*'
						    : c->has_change ? render_verdict_mark(c->chg.verdict)
						    : '*';
					add_note(&notes, &nnotes, &cap, mark, part, who);
					free(part);
					p += len;
					if (*p)
						p += 2;
				}
			}
		}
	}
	for (i = 0; i < nnotes; i++) {
		struct buf line = BUF_INIT;
		char lead[8];

		/* wrapped at 78 columns, between items or at spaces */
		snprintf(lead, sizeof(lead), "  %c ", notes[i].mark);
		buf_printf(&line, "%s: %s", notes[i].text, buf_str(&notes[i].who));
		wrap_list(out, lead, buf_str(&line), 78, 6);
		buf_release(&line);
		free(notes[i].text);
		buf_release(&notes[i].who);
	}
	free(notes);
}

static void pad(struct buf *b, size_t n)
{
	while (n--)
		buf_putc(b, ' ');
}

static void put_right(struct buf *b, const char *s, size_t w)
{
	size_t n = strlen(s);

	pad(b, w > n ? w - n : 0);
	buf_puts(b, s);
}

static void put_left(struct buf *b, const char *s, size_t w)
{
	size_t n = strlen(s);

	buf_puts(b, s);
	pad(b, w > n ? w - n : 0);
}

static size_t col_width(const struct grid *g, size_t c)
{
	return 1 + g->vw[c] + g->fw[c] + (g->cw[c] ? 1 + g->cw[c] + 1 + 1 : 0) +
	       (g->pw[c] ? 1 + g->pw[c] : 0);
}

/* Does variant v have a cell in block b?  A block is one machine's: the
 * variants that have nothing there get no column (or line). */
static int variant_in_block(const struct an_table *t, const struct block *b, size_t v)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (t->rows[b->rows[i]].cells[v].origin != AN_ORIGIN_NONE)
			return 1;
	return 0;
}

/* Is grid position (line l or column c) a variant absent from block b? */
static int grid_absent(const struct an_table *t, const struct pivot *p, const struct block *b,
		       size_t lc, int is_col)
{
	if (is_col != p->variant_cols)
		return 0;
	return !variant_in_block(t, b, lc);
}

/* The heading of the row-key column: the one key that varies ("groups"),
 * else what the rows are. */
static const char *key_heading(const struct pivot *p, const struct labels *L)
{
	if (!p->variant_cols)
		return "variant";
	if (!p->block_by_metric)
		return "metric";
	return L->key ? L->key : "config";
}

/*
 * The geomean row of a block (benchstat's): per variant, the geometric
 * mean of new/base over the block's rows with a change, in the table's
 * convention.  Only for variant columns and a block of one metric (one
 * direction) with two rows or more.  geo[v] is the printed change ("" for
 * none), used[v] how many rows entered; returns 1 when a row is shown.
 */
struct geomean {
	char **change;		/* per variant */
	size_t *used;
	int shown, partial;	/* partial: some variant's geomean omits rows */
};

static void geomean_build(struct geomean *gm, const struct an_table *t, const struct pivot *p,
			  const struct block *b)
{
	size_t v;

	memset(gm, 0, sizeof(*gm));
	gm->change = xcalloc(t->nvariants + 1, sizeof(*gm->change));
	gm->used = xcalloc(t->nvariants + 1, sizeof(*gm->used));
	for (v = 0; v < t->nvariants; v++) {
		struct buf cb = BUF_INIT;
		double g = NAN;

		if (p->variant_cols && p->block_by_metric && b->n >= 2 && v != t->baseline)
			g = an_geomean_change(t, b->rows, b->n, v, &gm->used[v]);
		if (!isnan(g) && gm->used[v] >= 2) {
			buf_printf(&cb, "%+.*f", change_decimals(t), g);
			gm->shown = 1;
		}
		gm->change[v] = cb.data ? buf_detach(&cb) : xstrdup("");
	}
	for (v = 0; v < t->nvariants && gm->shown; v++)
		if (gm->change[v][0] && gm->used[v] < b->n)
			gm->partial = 1;
}

static void geomean_release(struct geomean *gm, const struct an_table *t)
{
	size_t v;

	for (v = 0; v < t->nvariants; v++)
		free(gm->change[v]);
	free(gm->change);
	free(gm->used);
}

static void md_escape(struct buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			buf_putc(out, '\\');
		buf_putc(out, *s);
	}
}

/* The footnote of a geomean row: what entered, and which variants' rows
 * fall short of the block's. */
static void geomean_note(struct buf *out, const struct an_table *t, const struct block *b,
			 const struct geomean *gm, int md)
{
	struct buf line = BUF_INIT;
	size_t v;
	int first = 1;
	char tmp[32];

	buf_puts(&line, "geomean: the geometric mean of new/base over the rows with a %chg, "
			"whatever their verdict (not itself tested)");
	for (v = 0; v < t->nvariants; v++) {
		if (!gm->change[v][0] || gm->used[v] >= b->n)
			continue;
		buf_printf(&line, "%s%s %zu of %zu rows", first ? ": " : ", ",
			   vlabel(t, v, !md, tmp, sizeof(tmp)), gm->used[v], b->n);
		first = 0;
	}
	if (md) {
		buf_puts(out, "_");
		md_escape(out, buf_str(&line));
		buf_puts(out, "_\n\n");
	} else {
		wrap_list(out, "  g ", buf_str(&line), 78, 6);
	}
	buf_release(&line);
}

/* Width limit of a text table: 80 columns (a mail); more variants than
 * fit wrap into blocks of columns. */
#define TEXT_NARROW 80
#define LABEL_ON_OWN_LINE 28    /* longer row labels get a line of their own */

static void text_block(struct buf *out, const struct an_table *t, const struct pivot *p,
		       const struct block *b, int width)
{
	struct grid g;
	struct labels L;
	struct geomean gm;
	size_t l, c, k, limit, lw, fixed, *order, nord = 0, first = 0, base;
	int own_line, base_here;
	const char *keyh;

	labels_build(&L, t, b);
	grid_build(&g, t, p, b, p->block_by_metric ? &L : NULL, 1);
	geomean_build(&gm, t, p, b);
	block_title(out, t, p, b, p->block_by_metric ? &L : NULL);
	buf_putc(out, '\n');
	limit = width > 0 ? (size_t)width : TEXT_NARROW;
	/* the machine the block's runs ran on, when it matters (a line of
	 * its own: a post's unknown machine is named after the post) */
	if (render_row_machine(t, &t->rows[b->rows[0]]))
		wrap_list(out, "  machine: ", render_row_machine(t, &t->rows[b->rows[0]]), limit, 11);
	for (c = 0; c < t->nvariants; c++)
		if (text_alias(t, c) && variant_in_block(t, b, c)) {
			char lead[40];

			snprintf(lead, sizeof(lead), "  [%zu] ", c + 1);
			wrap_list(out, lead, t->variants[c].name, limit, strlen(lead));
		}
	if (p->block_by_metric && L.common)
		wrap_list(out, "  config: ", L.common, limit, 10);
	base_here = variant_in_block(t, b, t->baseline);
	if (!base_here) {
		char tmp[32];
		struct buf nb = BUF_INIT;

		buf_printf(&nb, "the baseline %s has no data here: no changes",
			   vlabel(t, t->baseline, 1, tmp, sizeof(tmp)));
		wrap_list(out, "  ", buf_str(&nb), limit, 2);
		buf_release(&nb);
	}
	keyh = key_heading(p, &L);
	if (!p->variant_cols) {
		/* lines are variants: only those with data here count */
		g.lw = 0;
		for (l = 0; l < g.nlines; l++)
			if (!grid_absent(t, p, b, l, 0) && strlen(g.line_labels[l]) > g.lw)
				g.lw = strlen(g.line_labels[l]);
	}
	own_line = g.lw > LABEL_ON_OWN_LINE;
	lw = own_line ? 2 : g.lw;
	if (strlen(keyh) > lw)
		lw = strlen(keyh);
	if (gm.shown && lw < 7)
		lw = 7;		/* "geomean" */
	if (gm.shown)
		for (c = 0; c < g.ncols; c++)
			if (g.cw[c] && strlen(gm.change[c]) > g.cw[c])
				g.cw[c] = strlen(gm.change[c]);
	fixed = lw + 1 + g.nw;
	/* the baseline column leads every block of columns */
	base = p->variant_cols && base_here ? t->baseline : (size_t)-1;
	order = xmalloc((g.ncols + 1) * sizeof(*order));
	for (c = 0; c < g.ncols; c++)
		if (c != base && !grid_absent(t, p, b, c, 1))
			order[nord++] = c;
	for (c = 0; c < g.ncols && !base_here; c++)
		g.cw[c] = 0;	/* nothing to compare with */
	while (first < nord || (first == 0 && nord == 0)) {
		size_t used = fixed + (base != (size_t)-1 ? col_width(&g, base) : 0), last = first;
		size_t cols[256], ncols = 0;

		if (base != (size_t)-1)
			cols[ncols++] = base;
		while (last < nord && ncols < 255 &&
		       (last == first || used + col_width(&g, order[last]) <= limit)) {
			used += col_width(&g, order[last]);
			cols[ncols++] = order[last++];
		}
		if (first > 0)
			buf_putc(out, '\n');
		/* header */
		put_left(out, keyh, lw);
		buf_putc(out, ' ');
		put_right(out, "n", g.nw);
		for (k = 0; k < ncols; k++) {
			c = cols[k];
			buf_putc(out, ' ');
			put_right(out, g.col_labels[c], g.vw[c]);
			pad(out, g.fw[c]);
			if (g.cw[c]) {
				buf_putc(out, ' ');
				put_right(out, "%chg", g.cw[c]);
				buf_puts(out, "  ");
			}
			if (g.pw[c]) {
				buf_putc(out, ' ');
				put_right(out, "table", g.pw[c]);
			}
		}
		trim_line(out);
		for (l = 0; l < g.nlines; l++) {
			if (grid_absent(t, p, b, l, 0))
				continue;
			if (own_line)
				wrap_list(out, "", g.line_labels[l], TEXT_NARROW, 2);
			put_left(out, own_line ? "" : g.line_labels[l], lw);
			buf_putc(out, ' ');
			put_right(out, g.line_n[l], g.nw);
			for (k = 0; k < ncols; k++) {
				struct gcell *gc = gat(&g, l, cols[k]);

				c = cols[k];
				buf_putc(out, ' ');
				put_right(out, gc->value, g.vw[c]);
				put_left(out, gc->flags, g.fw[c]);
				if (g.cw[c]) {
					buf_putc(out, ' ');
					put_right(out, gc->change, g.cw[c]);
					buf_putc(out, ' ');
					if (gc->mark != ' ' && gc->color[0])
						buf_printf(out, "%s%c%s", gc->color, gc->mark,
							   RENDER_COLOR_END);
					else
						buf_putc(out, gc->mark);
				}
				if (g.pw[c]) {
					buf_putc(out, ' ');
					put_right(out, gc->pub, g.pw[c]);
				}
			}
			trim_line(out);
		}
		if (gm.shown) {
			put_left(out, "geomean", lw);
			buf_putc(out, ' ');
			pad(out, g.nw);
			for (k = 0; k < ncols; k++) {
				c = cols[k];
				pad(out, 1 + g.vw[c] + g.fw[c]);
				if (g.cw[c]) {
					buf_putc(out, ' ');
					put_right(out, gm.change[c], g.cw[c]);
					pad(out, 2);
				}
				if (g.pw[c])
					pad(out, 1 + g.pw[c]);
			}
			trim_line(out);
		}
		if (nord == 0)
			break;
		first = last;
	}
	free(order);
	block_notes(out, t, p, b, p->block_by_metric ? &L : NULL);
	if (gm.shown)
		geomean_note(out, t, b, &gm, 0);
	geomean_release(&gm, t);
	grid_release(&g);
	labels_free(&L);
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

static int render_text(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		       int md, struct kb_err *err);

static int write_buf(FILE *f, const struct buf *b, struct kb_err *err)
{
	if (b->len && fwrite(b->data, 1, b->len, f) != b->len)
		return kb_err_set(err, "", 0, "write error");
	return 0;
}

/* Markdown --------------------------------------------------------------- */

static void md_block(struct buf *out, const struct an_table *t, const struct pivot *p,
		     const struct block *b)
{
	struct grid g;
	struct labels L;
	struct geomean gm;
	size_t l, c;
	struct buf title = BUF_INIT;
	const char *machine = render_row_machine(t, &t->rows[b->rows[0]]);
	int base_here = variant_in_block(t, b, t->baseline);

	labels_build(&L, t, b);
	grid_build(&g, t, p, b, p->block_by_metric ? &L : NULL, 0);
	geomean_build(&gm, t, p, b);
	block_title(&title, t, p, b, p->block_by_metric ? &L : NULL);
	buf_puts(out, "**");
	md_escape(out, buf_str(&title));
	buf_puts(out, "**\n\n");
	buf_release(&title);
	if (machine) {
		buf_puts(out, "machine: ");
		md_escape(out, machine);
		buf_puts(out, "\n\n");
	}
	if (p->block_by_metric && L.common) {
		buf_puts(out, "config: ");
		md_escape(out, L.common);
		buf_puts(out, "\n\n");
	}
	if (!base_here) {
		buf_puts(out, "the baseline ");
		md_escape(out, t->variants[t->baseline].name);
		buf_puts(out, " has no data here: no changes\n\n");
		for (c = 0; c < g.ncols; c++)
			g.cw[c] = 0;
	}
	buf_puts(out, "| ");
	md_escape(out, key_heading(p, &L));
	buf_puts(out, " | n |");
	for (c = 0; c < g.ncols; c++) {
		if (grid_absent(t, p, b, c, 1))
			continue;
		buf_putc(out, ' ');
		md_escape(out, g.col_labels[c]);
		buf_puts(out, " |");
		if (g.cw[c]) {
			buf_puts(out, " %chg ");
			md_escape(out, g.col_labels[c]);
			buf_puts(out, " |");
		}
		if (g.pw[c]) {
			buf_puts(out, " table ");
			md_escape(out, g.col_labels[c]);
			buf_puts(out, " |");
		}
	}
	buf_puts(out, "\n|---|---:|");
	for (c = 0; c < g.ncols; c++) {
		if (grid_absent(t, p, b, c, 1))
			continue;
		buf_puts(out, g.cw[c] ? "---:|---:|" : "---:|");
		if (g.pw[c])
			buf_puts(out, "---:|");
	}
	buf_putc(out, '\n');
	for (l = 0; l < g.nlines; l++) {
		if (grid_absent(t, p, b, l, 0))
			continue;
		buf_puts(out, "| ");
		md_escape(out, g.line_labels[l]);
		buf_printf(out, " | %s |", g.line_n[l]);
		for (c = 0; c < g.ncols; c++) {
			struct gcell *gc = gat(&g, l, c);

			if (grid_absent(t, p, b, c, 1))
				continue;
			buf_putc(out, ' ');
			buf_puts(out, gc->value);
			if (gc->flags[0])
				buf_printf(out, " %s", gc->flags);
			buf_puts(out, " |");
			if (g.cw[c]) {
				buf_putc(out, ' ');
				buf_puts(out, gc->change);
				if (gc->change[0])
					buf_putc(out, '%');
				if (gc->mark != ' ' && gc->change[0])
					buf_printf(out, " %c", gc->mark);
				buf_puts(out, " |");
			}
			if (g.pw[c]) {
				buf_putc(out, ' ');
				md_escape(out, gc->pub);
				buf_puts(out, " |");
			}
		}
		buf_putc(out, '\n');
	}
	if (gm.shown) {
		buf_puts(out, "| geomean | |");
		for (c = 0; c < g.ncols; c++) {
			if (grid_absent(t, p, b, c, 1))
				continue;
			buf_puts(out, " |");
			if (g.cw[c])
				buf_printf(out, " %s%s |", gm.change[c], gm.change[c][0] ? "%" : "");
			if (g.pw[c])
				buf_puts(out, " |");
		}
		buf_putc(out, '\n');
	}
	buf_putc(out, '\n');
	if (gm.shown)
		geomean_note(out, t, b, &gm, 1);
	geomean_release(&gm, t);
	grid_release(&g);
	labels_free(&L);
}

static int render_text(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		       int md, struct kb_err *err)
{
	struct pivot p;
	struct buf out = BUF_INIT;
	size_t k;
	int rc;

	if (pivot_init(&p, t, o, err) < 0)
		return -1;
	if (t->warning)
		buf_printf(&out, md ? "**Note:** %s.\n\n" : "Note: %s.\n\n", t->warning);
	for (k = 0; k < p.nblocks; k++) {
		if (md) {
			md_block(&out, t, &p, &p.blocks[k]);
		} else {
			text_block(&out, t, &p, &p.blocks[k], o->width);
			buf_putc(&out, '\n');
		}
	}
	if (!p.nblocks)
		buf_puts(&out, md ? "_No data matched the selection._\n\n" : "No data matched the selection.\n\n");
	if (!o->no_legend)
		render_table_legend(&out, t, t->nvariants ? t->variants[t->baseline].name : "-");
	rc = write_buf(f, &out, err);
	buf_release(&out);
	pivot_release(&p);
	return rc;
}

/* Long records (CSV and JSON) ------------------------------------------------ */

static const char *const long_cols[] = {
	"benchmark", "config", "machine", "metric", "unit", "better", "variant", "n", "mean", "sd",
	"median", "min", "max", "cv_pct", "ci_low", "ci_high", "change_pct", "change_ci_low",
	"change_ci_high", "p", "q", "verdict", "flags", "origin", "runs_needed", "note",
};

static const char *cell_verdict(const struct an_cell *c)
{
	if (c->is_baseline)
		return "baseline";
	if (!c->has_change)
		return NULL;
	return an_verdict_name(c->chg.verdict);
}

/* What c's mean is: "harmonic" (a throughput cell's runs), "arithmetic"
 * (other runs, or a throughput cell with a value <= 0), "published" (a
 * summary's own mean: mmtests' Hmean or Amean as printed); NULL empty. */
static const char *cell_mean_kind(const struct an_cell *c)
{
	if (c->origin == AN_ORIGIN_SUMMARY)
		return "published";
	if (c->origin != AN_ORIGIN_SAMPLES)
		return NULL;
	return c->d.flags & AN_F_HMEAN ? "harmonic" : "arithmetic";
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *cell_json(const struct an_table *t, const struct an_row *row, size_t v)
{
	const struct an_cell *c = &row->cells[v];
	const struct an_change *g = c->has_change ? &c->chg : NULL;
	json_t *o = json_object(), *flags = json_array();
	const char *names[32];
	size_t i, nf = an_flag_names(c->flags, names, ARRAY_SIZE(names));

	json_object_set_new(o, "benchmark", json_string(row->benchmark));
	json_object_set_new(o, "config", json_string(row->config));
	if (render_row_machine(t, row))
		json_object_set_new(o, "machine", json_string(render_row_machine(t, row)));
	json_object_set_new(o, "metric", json_string(row->metric));
	json_object_set_new(o, "unit", json_string(row->unit));
	json_object_set_new(o, "better", json_string(an_direction_name(row->dir)));
	json_object_set_new(o, "variant", json_string(t->variants[v].name));
	json_object_set_new(o, "n", c->origin == AN_ORIGIN_NONE || !c->d.n ? json_null()
									   : json_integer((json_int_t)c->d.n));
	if (c->flags & AN_F_JOBS) {
		/* values are run means of a per-job metric: the jobs behind them */
		json_object_set_new(o, "jobs", json_integer((json_int_t)c->njobs));
		json_object_set_new(o, "job_sd", render_jnum(c->job_sd));
	}
	json_object_set_new(o, "mean", render_jnum(c->d.mean));
	json_object_set_new(o, "mean_kind", jstr(cell_mean_kind(c)));
	json_object_set_new(o, "sd", render_jnum(c->d.sd));
	json_object_set_new(o, "median", render_jnum(c->d.median));
	json_object_set_new(o, "min", render_jnum(c->d.min));
	json_object_set_new(o, "max", render_jnum(c->d.max));
	json_object_set_new(o, "cv_pct", render_jnum(c->d.cv));
	json_object_set_new(o, "ci_low", render_jnum(c->d.ci_low));
	json_object_set_new(o, "ci_high", render_jnum(c->d.ci_high));
	json_object_set_new(o, "change_pct", render_jnum(g ? g->change : NAN));
	json_object_set_new(o, "change_ci_low", render_jnum(g ? g->ci_low : NAN));
	json_object_set_new(o, "change_ci_high", render_jnum(g ? g->ci_high : NAN));
	json_object_set_new(o, "p", render_jnum(g ? g->p : NAN));
	json_object_set_new(o, "q", render_jnum(g ? g->q : NAN));
	json_object_set_new(o, "verdict", jstr(cell_verdict(c)));
	if (c->published) {
		/* the published table's own verdict, as printed */
		json_t *pub = json_object();
		json_object_set_new(pub, "change", render_jnum(c->pub_change));
		json_object_set_new(pub, "mark", json_string(c->pub_mark ? c->pub_mark : ""));
		json_object_set_new(o, "published", pub);
	}
	for (i = 0; i < nf && i < ARRAY_SIZE(names); i++)
		json_array_append_new(flags, json_string(names[i]));
	json_object_set_new(o, "flags", flags);
	json_object_set_new(o, "origin", json_string(an_origin_name(c->origin)));
	json_object_set_new(o, "runs_needed", render_jnum(g ? g->runs_needed : NAN));
	json_object_set_new(o, "note", jstr(c->note));
	return o;
}

static int dump_json(FILE *f, json_t *root, struct kb_err *err)
{
	int rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));

	json_decref(root);
	if (rc != 0 || fputc('\n', f) == EOF)
		return kb_err_set(err, "", 0, "write error");
	return 0;
}

/* The geomean rows of the default text table (a block per benchmark,
 * machine and metric), one record per variant: its geomean change, the
 * rows that entered and the block's rows. */
static json_t *geomeans_json(const struct an_table *t)
{
	struct render_table_opts o;
	struct pivot p;
	struct kb_err e;
	json_t *arr = json_array();
	size_t k, v;

	render_table_opts_init(&o);
	kb_err_clear(&e);
	if (pivot_init(&p, t, &o, &e) < 0)
		return arr;
	for (k = 0; k < p.nblocks; k++) {
		const struct block *b = &p.blocks[k];
		const struct an_row *row = &t->rows[b->rows[0]];
		struct geomean gm;

		geomean_build(&gm, t, &p, b);
		for (v = 0; v < t->nvariants && gm.shown; v++) {
			json_t *o1;
			size_t used;

			if (!gm.change[v][0])
				continue;
			o1 = json_object();
			json_object_set_new(o1, "benchmark", json_string(row->benchmark));
			if (render_row_machine(t, row))
				json_object_set_new(o1, "machine", json_string(render_row_machine(t, row)));
			json_object_set_new(o1, "metric", json_string(row->metric));
			json_object_set_new(o1, "variant", json_string(t->variants[v].name));
			json_object_set_new(o1, "change_pct",
					    render_jnum(an_geomean_change(t, b->rows, b->n, v, &used)));
			json_object_set_new(o1, "rows", json_integer((json_int_t)used));
			json_object_set_new(o1, "of", json_integer((json_int_t)b->n));
			json_array_append_new(arr, o1);
		}
		geomean_release(&gm, t);
	}
	pivot_release(&p);
	return arr;
}

static int render_json(FILE *f, const struct an_table *t, struct kb_err *err)
{
	json_t *root = json_object(), *rows = json_array(), *gms;
	size_t r, v;

	json_object_set_new(root, "kbench", json_string("compare"));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "baseline",
			    t->nvariants ? json_string(t->variants[t->baseline].name) : json_null());
	json_object_set_new(root, "change", json_string(an_convention_name(t->opts.conv)));
	json_object_set_new(root, "test", json_string(an_test_name(t->opts.test)));
	json_object_set_new(root, "alpha", json_real(t->opts.alpha));
	json_object_set_new(root, "threshold_pct", json_real(t->opts.delta));
	json_object_set_new(root, "comparisons", json_integer((json_int_t)t->ncompared));
	if (t->warning)
		json_object_set_new(root, "warning", json_string(t->warning));
	gms = geomeans_json(t);
	if (json_array_size(gms))
		json_object_set_new(root, "geomeans", gms);
	else
		json_decref(gms);
	for (r = 0; r < t->nrows; r++)
		for (v = 0; v < t->nvariants; v++)
			if (t->rows[r].cells[v].origin != AN_ORIGIN_NONE)
				json_array_append_new(rows, cell_json(t, &t->rows[r], v));
	json_object_set_new(root, "rows", rows);
	return dump_json(f, root, err);
}

/* Write one CSV record of strings (NULL = empty field). */
static int csv_record(FILE *f, const char *const *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *s = fields[i] ? fields[i] : "";
		if (i && fputc(',', f) == EOF)
			return -1;
		if (csv_fwrite(f, s, strlen(s)) != 0)
			return -1;
	}
	return fputc('\n', f) == EOF ? -1 : 0;
}

/* A JSON value as a CSV field: strings bare, numbers shortest, null
 * empty, arrays joined with ';'. */
static char *json_field(json_t *x)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (!x || json_is_null(x))
		return xstrdup("");
	if (json_is_string(x))
		return xstrdup(json_string_value(x));
	if (json_is_integer(x)) {
		buf_printf(&b, "%lld", (long long)json_integer_value(x));
	} else if (json_is_real(x)) {
		buf_printf(&b, "%.12g", json_real_value(x));
	} else if (json_is_array(x)) {
		for (i = 0; i < json_array_size(x); i++) {
			char *s = json_field(json_array_get(x, i));
			if (i)
				buf_putc(&b, ';');
			buf_puts(&b, s);
			free(s);
		}
	}
	return b.data ? buf_detach(&b) : xstrdup("");
}

static int render_csv(FILE *f, const struct an_table *t, struct kb_err *err)
{
	const size_t n = ARRAY_SIZE(long_cols);
	const char *fields[ARRAY_SIZE(long_cols)];
	char *owned[ARRAY_SIZE(long_cols)];
	size_t r, v, i;

	if (csv_record(f, long_cols, n) < 0)
		return kb_err_set(err, "", 0, "write error");
	for (r = 0; r < t->nrows; r++) {
		for (v = 0; v < t->nvariants; v++) {
			json_t *o;
			int rc;

			if (t->rows[r].cells[v].origin == AN_ORIGIN_NONE)
				continue;
			o = cell_json(t, &t->rows[r], v);
			for (i = 0; i < n; i++)
				fields[i] = owned[i] = json_field(json_object_get(o, long_cols[i]));
			rc = csv_record(f, fields, n);
			for (i = 0; i < n; i++)
				free(owned[i]);
			json_decref(o);
			if (rc < 0)
				return kb_err_set(err, "", 0, "write error");
		}
	}
	return 0;
}

int render_table(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		 struct kb_err *err)
{
	switch (o->fmt) {
	case RENDER_MD:
		return render_text(f, t, o, 1, err);
	case RENDER_CSV:
		return render_csv(f, t, err);
	case RENDER_JSON:
		return render_json(f, t, err);
	default:
		return render_text(f, t, o, 0, err);
	}
}

/* Stored samples and summaries ---------------------------------------------- */

static const char *variant_name(const struct db_qdata *q, long long id)
{
	size_t i;

	for (i = 0; i < q->nvariants; i++)
		if (q->variants[i].id == id)
			return q->variants[i].name;
	return "";
}

static int emit_records(FILE *f, enum render_fmt fmt, const char *what,
			const char *const *cols, size_t ncols, json_t *records,
			struct kb_err *err)
{
	size_t i, k;

	if (fmt == RENDER_JSON) {
		json_t *root = json_object();
		json_object_set_new(root, "kbench", json_string(what));
		json_object_set_new(root, "version", json_integer(1));
		json_object_set_new(root, "rows", records);
		return dump_json(f, root, err);
	}
	if (csv_record(f, cols, ncols) < 0)
		goto fail;
	for (i = 0; i < json_array_size(records); i++) {
		json_t *o = json_array_get(records, i);
		char *owned[32];
		const char *fields[32];
		int rc;

		for (k = 0; k < ncols && k < 32; k++)
			fields[k] = owned[k] = json_field(json_object_get(o, cols[k]));
		rc = csv_record(f, fields, ncols);
		for (k = 0; k < ncols && k < 32; k++)
			free(owned[k]);
		if (rc < 0)
			goto fail;
	}
	json_decref(records);
	return 0;
fail:
	json_decref(records);
	return kb_err_set(err, "", 0, "write error");
}

int render_samples(FILE *f, const struct db_qdata *q, enum render_fmt fmt, struct kb_err *err)
{
	static const char *const cols[] = {
		"variant", "machine", "benchmark", "config", "run", "iteration", "status",
		"job", "metric", "value", "unit",
	};
	json_t *recs = json_array();
	size_t i;

	for (i = 0; i < q->nsamples; i++) {
		const struct db_qsample *s = &q->samples[i];
		const struct db_qrun *r = &q->runs[s->run];
		json_t *o = json_object();

		json_object_set_new(o, "variant", json_string(variant_name(q, r->variant_id)));
		json_object_set_new(o, "machine", jstr(r->machine));
		json_object_set_new(o, "benchmark", json_string(r->benchmark));
		json_object_set_new(o, "config", json_string(r->config));
		json_object_set_new(o, "run", json_integer(r->id));
		json_object_set_new(o, "iteration", json_integer(r->iteration));
		json_object_set_new(o, "status", json_string(r->ok ? "ok" : "failed"));
		json_object_set_new(o, "job", s->job < 0 ? json_null() : json_integer(s->job));
		json_object_set_new(o, "metric", json_string(s->metric));
		json_object_set_new(o, "value", render_jnum(s->value));
		json_object_set_new(o, "unit", json_string(s->unit ? s->unit : ""));
		json_array_append_new(recs, o);
	}
	return emit_records(f, fmt, "samples", cols, ARRAY_SIZE(cols), recs, err);
}

int render_summaries(FILE *f, const struct db_qdata *q, enum render_fmt fmt,
		     struct kb_err *err)
{
	static const char *const cols[] = {
		"variant", "benchmark", "config", "metric", "mean", "sd", "n", "min", "max",
		"unit", "flags",
	};
	json_t *recs = json_array();
	size_t i;

	for (i = 0; i < q->nsummaries; i++) {
		const struct db_qsummary *s = &q->summaries[i];
		json_t *o = json_object();

		json_object_set_new(o, "variant", json_string(variant_name(q, s->variant_id)));
		json_object_set_new(o, "benchmark", json_string(s->benchmark));
		json_object_set_new(o, "config", json_string(s->config));
		json_object_set_new(o, "metric", json_string(s->metric));
		json_object_set_new(o, "mean", render_jnum(s->mean));
		json_object_set_new(o, "sd", render_jnum(s->sd));
		json_object_set_new(o, "n", s->n > 0 ? json_integer(s->n) : json_null());
		json_object_set_new(o, "min", render_jnum(s->min));
		json_object_set_new(o, "max", render_jnum(s->max));
		json_object_set_new(o, "unit", json_string(s->unit ? s->unit : ""));
		json_object_set_new(o, "flags", json_string(s->flags ? s->flags : ""));
		json_array_append_new(recs, o);
	}
	return emit_records(f, fmt, "summaries", cols, ARRAY_SIZE(cols), recs, err);
}
